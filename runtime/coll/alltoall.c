/*
 * alltoall.c - rt_alltoall (pairwise exchange, Bruck, throttled or linear
 * isend/irecv) and rt_alltoallv (pairwise exchange).
 *
 * Pairwise exchange (MPICH alltoall_intra_pairwise, Open MPI
 * alltoall_intra_pairwise). Step s = 1 .. P-1: member i sends its block for
 * member (i + s) mod P and receives the block of member (i - s) mod P, then
 * waits for both. Every ordered pair (i, j), i != j, exchanges exactly
 * once, each member sends and receives one message per step (no injection
 * hot spot), and the schedule works for any P. The block for oneself is a
 * local copy: no traffic.
 *
 *   alltoall:  P*(P-1) messages, P*(P-1)*S bytes;
 *   alltoallv: one message per ordered pair with s_ij > 0, sum s_ij bytes
 *              (zero-byte blocks are skipped, as MPI does, so both sides
 *              must agree: recvbytes[j] on i equals sendbytes[i] on j).
 *
 * Bruck (MPICH alltoall_intra_brucks, Open MPI's modified Bruck): after a
 * local rotation, round k = 0 .. ceil(log2 P)-1 sends to i + 2^k, in one
 * message, every block whose index j (0 <= j < P) has bit k set, and
 * receives as many from i - 2^k. Block j travels popcount(j) hops:
 * P*ceil(log2 P) messages, P*B(P)*S bytes.
 *
 * Throttled (MPICH alltoall_intra_scattered): the P destinations in batches
 * of alltoall_throttle; a batch posts its receives from i+k and its sends to
 * i-k (k running over the batch, oneself skipped), then waits for all of
 * them. Linear (Open MPI alltoall_intra_basic_linear, and linear_sync with
 * its default of no request limit) is one batch of everything.
 */
#include "runtime/coll/algo.h"

#include "runtime/mpi/p2p.h"

/* One pairwise exchange; `sb`/`rb` give the sizes, or NULL to use `bytes` for every block. */
static void pairwise(rt_task *t, const rt_group *g, int me, const uint64_t *sb, const uint64_t *rb,
                     uint64_t bytes, int skip_zero, const coll_op *op)
{
	int P = g->n;
	for (int s = 1; s < P; s++) {
		int to = (int)(((int64_t)me + s) % P);
		int from = (int)(((int64_t)me - s + P) % P);
		uint64_t sz = sb ? sb[to] : bytes, rz = rb ? rb[from] : bytes;
		rt_req r[2] = { 0, 0 };
		if (!skip_zero || rz)
			r[0] = coll_irecv(t, g, from, rz, op);
		if (!skip_zero || sz)
			r[1] = coll_isend(t, g, to, sz, op);
		if (r[0] || r[1])
			p2p_waitn(t, r, 2);
	}
}

static void alltoall_bruck(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	for (int64_t d = 1; d < P; d *= 2) {
		/* Blocks j < P with bit d set: whole periods of 2d hold d each, then the tail. */
		int64_t n = P / (2 * d) * d + (P % (2 * d) > d ? P % (2 * d) - d : 0);
		coll_sendrecv(t, g, (int)((me + d) % P), (uint64_t)n * bytes, (int)((me - d + P) % P),
		              (uint64_t)n * bytes, op);
	}
}

static void alltoall_throttled(rt_task *t, const rt_group *g, int me, uint64_t bytes, int batch,
                               const coll_op *op)
{
	int P = g->n;
	if (batch <= 0 || batch > P)
		batch = P;
	for (int first = 0; first < P; first += batch) {
		int n = P - first < batch ? P - first : batch;
		coll_reqs q;
		coll_reqs_init(t, &q, 2 * n);
		for (int k = first; k < first + n; k++)
			if (k % P)
				q.r[q.n++] = coll_irecv(t, g, (int)(((int64_t)me + k) % P), bytes, op);
		for (int k = first; k < first + n; k++)
			if (k % P)
				q.r[q.n++] = coll_isend(t, g, (int)(((int64_t)me - k + P) % P), bytes, op);
		coll_reqs_wait(t, &q);
	}
}

void coll_alltoall_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "all-to-all");
	coll_check_blocks(t, g->n, bytes, "all-to-all"); /* Bruck packs up to P/2 blocks in one message */
	coll_op op = coll_begin(t, g, NULL);
	if (g->n > 1) {
		switch (coll_choose(cfg, COLL_ALLTOALL, g->n, bytes).alg) {
		case COLL_ALLTOALL_BRUCK: alltoall_bruck(t, g, me, bytes, &op); break;
		case COLL_ALLTOALL_THROTTLED: alltoall_throttled(t, g, me, bytes, cfg->alltoall_throttle, &op); break;
		case COLL_ALLTOALL_LINEAR: alltoall_throttled(t, g, me, bytes, 0, &op); break;
		default: pairwise(t, g, me, NULL, NULL, bytes, 0, &op); break;
		}
	}
	coll_end(t);
}

void rt_alltoall(rt_task *t, const rt_group *g, uint64_t bytes) { coll_alltoall_with(t, coll_cfg(t), g, bytes); }

void rt_alltoallv(rt_task *t, const rt_group *g, const uint64_t *sendbytes, const uint64_t *recvbytes)
{
	int me = coll_my_index(t, g, "all-to-all");
	coll_op op = coll_begin(t, g, NULL);
	pairwise(t, g, me, sendbytes, recvbytes, 0, 1, &op);
	coll_end(t);
}

/*
 * coll_alltoall.c - rt_alltoall and rt_alltoallv: pairwise exchange.
 *
 * Step s = 1 .. P-1: member i sends its block for member (i + s) mod P and
 * receives the block of member (i - s) mod P, then waits for both. Every
 * ordered pair (i, j), i != j, exchanges exactly once, each member sends and
 * receives one message per step (no injection hot spot), and the schedule
 * works for any P. The block for oneself is a local copy: no traffic.
 *
 *   alltoall:  P*(P-1) messages, P*(P-1)*S bytes;
 *   alltoallv: one message per ordered pair with s_ij > 0, sum s_ij bytes
 *              (zero-byte blocks are skipped, as MPI does, so both sides
 *              must agree: recvbytes[j] on i equals sendbytes[i] on j).
 */
#include "runtime/coll/coll.h"

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

void rt_alltoall(rt_task *t, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "all-to-all");
	coll_op op = coll_begin(t, g, NULL);
	pairwise(t, g, me, NULL, NULL, bytes, 0, &op);
	p2p_op_end(t);
}

void rt_alltoallv(rt_task *t, const rt_group *g, const uint64_t *sendbytes, const uint64_t *recvbytes)
{
	int me = coll_my_index(t, g, "all-to-all");
	coll_op op = coll_begin(t, g, NULL);
	pairwise(t, g, me, sendbytes, recvbytes, 0, 1, &op);
	p2p_op_end(t);
}

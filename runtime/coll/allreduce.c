/*
 * coll_allreduce.c - rt_allreduce (recursive doubling or ring) and
 * rt_allreduce_value.
 *
 * Recursive doubling on P members, pof2 = largest power of two <= P,
 * rem = P - pof2:
 *
 *   pre step   members 0 .. 2*rem-1 pair up (2j, 2j+1): 2j sends its S bytes
 *              to 2j+1 and sits out; the pof2 survivors get new indices
 *              n = j for 2j+1 < 2*rem, n = i - rem above;
 *   rounds     for d = 1, 2, .., pof2/2: new index n exchanges S bytes with
 *              n xor d (one send and one receive each);
 *   post step  2j+1 sends the result (S bytes) back to 2j.
 *
 *   messages = 2*rem + pof2*log2(pof2), each of S bytes.
 *
 * Ring on P >= 2 members: S is cut into P chunks (coll_ring_chunk). Step
 * s = 0 .. P-2 of the reduce-scatter: member i sends chunk (i - s) mod P to
 * i+1 and receives chunk (i - s - 1) mod P from i-1, which it reduces into
 * its copy; after P-1 steps member i holds the fully reduced chunk
 * (i + 1) mod P. The allgather then circulates the reduced chunks: step s
 * sends chunk (i + 1 - s) mod P and receives chunk (i - s) mod P.
 *
 *   member i sends every chunk but one per phase:
 *   messages = 2*P*(P-1), bytes = 2*(P-1)*S.
 *
 * Every step waits for its send and its receive, so each chunk travels the
 * ring hop by hop: on a network without contention the ring takes
 * 2*(P-1) steps of one ceil(S/P)-byte message each.
 */
#include "runtime/coll/coll.h"

#include "runtime/mpi/p2p.h"

void coll_allreduce_recdbl(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	int pof2 = 1;
	while ((int64_t)pof2 * 2 <= P)
		pof2 *= 2;
	int rem = P - pof2;

	int n; /* index among the pof2 survivors, -1 if this member sits out */
	if (me < 2 * rem) {
		if (me % 2 == 0) {
			/* Post the receive of the result together with the send: it lands directly. */
			rt_req r[2];
			r[0] = coll_irecv(t, g, me + 1, bytes, op);
			r[1] = coll_isend(t, g, me + 1, bytes, op);
			p2p_waitn(t, r, 2);
			return;
		}
		coll_recv(t, g, me - 1, bytes, op);
		n = me / 2;
	} else {
		n = me - rem;
	}
	for (int d = 1; d < pof2; d *= 2) {
		int pn = n ^ d;
		int peer = pn < rem ? 2 * pn + 1 : pn + rem;
		coll_sendrecv(t, g, peer, bytes, peer, bytes, op);
	}
	if (me < 2 * rem)
		coll_send(t, g, me - 1, bytes, op);
}

void coll_allreduce_ring(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	if (P < 2)
		return;
	int right = (me + 1) % P, left = (me - 1 + P) % P;
	for (int s = 0; s < P - 1; s++) {
		int sc = (int)(((int64_t)me - s + 2 * (int64_t)P) % P);
		int rc = (int)(((int64_t)me - s - 1 + 2 * (int64_t)P) % P);
		coll_sendrecv(t, g, right, coll_ring_chunk(bytes, P, sc), left, coll_ring_chunk(bytes, P, rc), op);
	}
	for (int s = 0; s < P - 1; s++) {
		int sc = (int)(((int64_t)me + 1 - s + 2 * (int64_t)P) % P);
		int rc = (int)(((int64_t)me - s + 2 * (int64_t)P) % P);
		coll_sendrecv(t, g, right, coll_ring_chunk(bytes, P, sc), left, coll_ring_chunk(bytes, P, rc), op);
	}
}

void coll_allreduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me,
                        uint64_t bytes, const coll_op *op)
{
	if (g->n < 2)
		return;
	int ring = cfg->allreduce == COLL_ALLREDUCE_RING ||
	           (cfg->allreduce == COLL_ALLREDUCE_AUTO && bytes >= cfg->allreduce_ring_threshold);
	if (ring)
		coll_allreduce_ring(t, g, me, bytes, op);
	else
		coll_allreduce_recdbl(t, g, me, bytes, op);
}

void coll_allreduce_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "allreduce");
	coll_op op = coll_begin(t, g, a);
	coll_allreduce_run(t, cfg, g, me, bytes, &op);
	p2p_op_end(t);
}

void coll_allreduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes)
{
	coll_allreduce_as(t, cfg, NULL, g, bytes);
}

void rt_allreduce(rt_task *t, const rt_group *g, uint64_t bytes)
{
	coll_allreduce_with(t, coll_cfg(t), g, bytes);
}

/*
 * The network moves sizes, not data, so the values go through the board of
 * the simulation's coll_ctx: deposit before the first send, read after the
 * last receive. The 8-byte allreduce in between makes every member's
 * completion depend on every member's deposit, so the read always succeeds.
 */
double coll_allreduce_value_with(rt_task *t, coll_ctx *cc, const rt_group *g, double v, enum rt_op op)
{
	int me = coll_my_index(t, g, "allreduce");
	coll_op cop = coll_begin(t, g, NULL);
	coll_board_put(cc, g, cop.tag, me, v);
	coll_allreduce_run(t, coll_ctx_config(cc), g, me, sizeof(double), &cop);
	p2p_op_end(t);
	double r;
	if (coll_board_take(cc, g, cop.tag, op, &r) < 0)
		rt_fatal(t, "internal error: allreduce of a value completed before every member contributed");
	return r;
}

double rt_allreduce_value(rt_task *t, const rt_group *g, double v, enum rt_op op)
{
	coll_ctx *cc = rt_coll_ctx(t);
	if (!cc)
		rt_fatal(t, "allreduce of a value: the runtime holds no collectives state (rt_coll_ctx)");
	return coll_allreduce_value_with(t, cc, g, v, op);
}

/*
 * barrier.c - rt_barrier: the dissemination, tree, binomial, linear and
 * recursive-doubling barriers ([collectives] barrier, see coll.h).
 *
 * Dissemination. Round k = 0 .. ceil(log2 P)-1: member i signals member
 * (i + 2^k) mod P and waits for the signal of member (i - 2^k) mod P. After
 * round k a member has (transitively) heard from the 2^(k+1) members before
 * it, so after the last round it has heard from all P: nobody leaves before
 * everybody has entered. Works for any P, unlike pairwise exchange;
 * P*ceil(log2 P) zero-byte messages, ceil(log2 P) message latencies.
 *
 *   P = 5, round 0 (d=1): 0->1 1->2 2->3 3->4 4->0
 *          round 1 (d=2): 0->2 1->3 2->4 3->0 4->1
 *          round 2 (d=4): 0->4 1->0 2->1 3->2 4->3
 *
 * Tree. Members form a k-ary heap (k = COLL_BARRIER_RADIX): the children of
 * member i are k*i+1 .. k*i+k, its parent (i-1)/k. Fan-in: a member waits for
 * a zero-byte message from each child, then signals its parent; member 0
 * has then heard (transitively) from everybody. Fan-out: the release travels
 * back down the same edges. 2*(P-1) messages instead of P*ceil(log2 P), at
 * the price of 2*ceil(log_k P) latencies on the critical path; it is the
 * barrier for very large groups, where dissemination floods the network.
 *
 *   P = 7, k = 4:        0            fan-in:  5,6 -> 1; 1,2,3,4 -> 0
 *                     / | | \         fan-out: 0 -> 1,2,3,4; 1 -> 5,6
 *                    1  2 3  4
 *                   / \
 *                  5   6
 *
 * Binomial (Open MPI barrier_intra_tree): the same fan-in and fan-out along
 * the binomial tree of member 0 (coll_tree_up, coll_tree_down), 2*(P-1)
 * messages. Linear (Open MPI barrier_intra_basic_linear): everybody signals
 * member 0, which then releases everybody, 2*(P-1) messages.
 *
 * Recursive doubling (Open MPI barrier_intra_recursivedoubling): with pof2
 * the largest power of two <= P, member i >= pof2 signals i - pof2 and waits
 * for its release; members below pof2 first hear from i + pof2 (if there is
 * one), exchange with i xor d for d = 1, 2, .., pof2/2, then release
 * i + pof2. pof2*lg + 2*(P - pof2) messages.
 *
 * Each phase posts all its receives (or sends) at once and waits once, so a
 * member suspends at most three times per barrier. A non-root member posts
 * the receive of its release together with its signal to the parent: the
 * release can then land on a pre-posted receive. Both directions of an edge
 * carry exactly one message per barrier, so sharing the collective's tag is
 * safe.
 */
#include "runtime/coll/algo.h"

#include "runtime/mpi/p2p.h"

static void barrier_dissemination(rt_task *t, const rt_group *g, int me, const coll_op *op)
{
	int P = g->n;
	/* Distances 2^k < P are distinct mod P, so each round has its own source. */
	for (int64_t d = 1; d < P; d *= 2)
		coll_sendrecv(t, g, (int)((me + d) % P), 0, (int)((me - d + P) % P), 0, op);
}

static void barrier_tree(rt_task *t, const rt_group *g, int me, const coll_op *op)
{
	enum { K = COLL_BARRIER_RADIX };
	int64_t first = (int64_t)me * K + 1, last = first + K - 1;
	if (last > g->n - 1)
		last = g->n - 1;
	rt_req r[K + 1];
	int nr = 0;
	for (int64_t c = first; c <= last; c++)
		r[nr++] = coll_irecv(t, g, (int)c, 0, op);
	if (nr)
		p2p_waitn(t, r, nr);
	if (me) {
		int parent = (me - 1) / K;
		r[0] = coll_irecv(t, g, parent, 0, op);
		r[1] = coll_isend(t, g, parent, 0, op);
		p2p_waitn(t, r, 2);
	}
	nr = 0;
	for (int64_t c = first; c <= last; c++)
		r[nr++] = coll_isend(t, g, (int)c, 0, op);
	if (nr)
		p2p_waitn(t, r, nr);
}

static void barrier_recdbl(rt_task *t, const rt_group *g, int me, const coll_op *op)
{
	int P = g->n, pof2 = coll_pof2(P);
	if (me >= pof2) {
		coll_sendrecv(t, g, me - pof2, 0, me - pof2, 0, op);
		return;
	}
	if (me + pof2 < P)
		coll_recv(t, g, me + pof2, 0, op);
	for (int d = 1; d < pof2; d *= 2)
		coll_sendrecv(t, g, me ^ d, 0, me ^ d, 0, op);
	if (me + pof2 < P)
		coll_send(t, g, me + pof2, 0, op);
}

void coll_barrier_with(rt_task *t, const coll_config *cfg, const rt_group *g)
{
	int me = coll_my_index(t, g, "barrier");
	coll_op op = coll_begin(t, g, NULL);
	const coll_tree_load none = {.each = 0};
	switch (g->n > 1 ? coll_choose(cfg, COLL_BARRIER, g->n, 0).alg : COLL_AUTO) {
	case COLL_BARRIER_TREE: barrier_tree(t, g, me, &op); break;
	case COLL_BARRIER_BINOMIAL:
		coll_tree_up(t, g, me, 0, &none, &op);
		coll_tree_down(t, g, me, 0, &none, &op);
		break;
	case COLL_BARRIER_LINEAR:
		coll_linear_blocks(t, g, me, 0, NULL, 0, 1, &op);
		coll_linear_blocks(t, g, me, 0, NULL, 0, 0, &op);
		break;
	case COLL_BARRIER_RECDBL: barrier_recdbl(t, g, me, &op); break;
	case COLL_BARRIER_DISSEMINATION: barrier_dissemination(t, g, me, &op); break;
	default: break;
	}
	coll_end(t);
}

void rt_barrier(rt_task *t, const rt_group *g) { coll_barrier_with(t, coll_cfg(t), g); }

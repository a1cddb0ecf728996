/*
 * coll_barrier.c - rt_barrier: the dissemination barrier.
 *
 * Round k = 0 .. ceil(log2 P)-1: member i signals member (i + 2^k) mod P and
 * waits for the signal of member (i - 2^k) mod P. After round k a member has
 * (transitively) heard from the 2^(k+1) members before it, so after the last
 * round it has heard from all P: nobody leaves before everybody has entered.
 * Works for any P, unlike pairwise exchange; P*ceil(log2 P) zero-byte messages.
 *
 *   P = 5, round 0 (d=1): 0->1 1->2 2->3 3->4 4->0
 *          round 1 (d=2): 0->2 1->3 2->4 3->0 4->1
 *          round 2 (d=4): 0->4 1->0 2->1 3->2 4->3
 */
#include "runtime/coll.h"

#include "runtime/p2p.h"

void rt_barrier(rt_task *t, const rt_group *g)
{
	int me = coll_my_index(t, g, "barrier");
	int P = g->n;
	coll_op op = coll_begin(t, g, NULL);
	/* Distances 2^k < P are distinct mod P, so each round has its own source. */
	for (int64_t d = 1; d < P; d *= 2)
		coll_sendrecv(t, g, (int)((me + d) % P), 0, (int)((me - d + P) % P), 0, &op);
	p2p_op_end(t);
}

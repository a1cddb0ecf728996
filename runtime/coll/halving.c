/*
 * halving.c - the power-of-two core that MPICH's recursive doubling,
 * Rabenseifner and recursive-halving algorithms share (see algo.h).
 *
 * Folding P = pof2 + rem members: pairs (2j, 2j+1), j < rem, hand one
 * member's vector to the other, which survives with new rank j; members
 * from 2*rem up survive with new rank i - rem. Which member of a pair
 * survives differs: the odd one in allreduce and reduce-scatter, the even
 * one in reduce (MPICH's reduce_scatter_gather).
 *
 *   P = 6, odd survives:   members 0 1 2 3 4 5
 *                          new     - 0 - 1 2 3
 *
 * Recursive halving over pof2 blocks of new ranks: in each round a pair of
 * survivors at distance d shares a range of blocks; the one whose bit d is
 * clear keeps the lower half, and each sends the half it gives up, so the
 * range halves every round and survivor n ends with one block. Every round
 * moves exactly the bytes of the ranges in play, pof2/2 pairs of halves:
 * over lg rounds (pof2-1)*S bytes whatever the block sizes.
 *
 *   pof2 = 4, ascending (d = 1, then 2): blocks of new rank n
 *     before:  0:[0,4)  1:[0,4)  2:[0,4)  3:[0,4)
 *     d = 1:   0:[0,2)  1:[2,4)  2:[0,2)  3:[2,4)
 *     d = 2:   0:[0,1)  1:[2,3)  2:[1,2)  3:[3,4)
 *
 * The recursive-doubling allgather replays the rounds backwards: each pair
 * swaps the halves it split, so the ranges grow back to [0, pof2).
 */
#include "runtime/coll/algo.h"

#include "runtime/mpi/p2p.h"

coll_fold coll_fold_of(int P, int odd_survives)
{
	coll_fold f = {.P = P, .pof2 = coll_pof2(P), .odd_survives = odd_survives};
	f.rem = P - f.pof2;
	while ((1 << f.lg) < f.pof2)
		f.lg++;
	return f;
}

int coll_fold_rank(const coll_fold *f, int i)
{
	if (i >= 2 * f->rem)
		return i - f->rem;
	return i % 2 == f->odd_survives ? i / 2 : -1;
}

int coll_fold_member(const coll_fold *f, int n) { return n < f->rem ? 2 * n + f->odd_survives : n + f->rem; }

int coll_fold_in(rt_task *t, const rt_group *g, const coll_fold *f, int me, uint64_t bytes,
                 const uint64_t *back, const coll_op *op)
{
	int n = coll_fold_rank(f, me);
	if (n >= 0) {
		if (me < 2 * f->rem)
			coll_recv(t, g, me ^ 1, bytes, op);
		return n;
	}
	rt_req r[2] = {0, 0};
	if (back)
		r[0] = coll_irecv(t, g, me ^ 1, *back, op);
	r[1] = coll_isend(t, g, me ^ 1, bytes, op);
	p2p_waitn(t, r, 2);
	return -1;
}

void coll_fold_out(rt_task *t, const rt_group *g, const coll_fold *f, int me, uint64_t bytes, const coll_op *op)
{
	if (me < 2 * f->rem && coll_fold_rank(f, me) >= 0)
		coll_send(t, g, me ^ 1, bytes, op);
}

uint64_t coll_range_of_blocks(const void *ctx, int a, int b) { return coll_blocks_range(ctx, a, b); }

/* Distance of round k. */
static int round_d(const coll_fold *f, int k, int ascending) { return ascending ? 1 << k : f->pof2 >> (k + 1); }

void coll_halving_ranges(const coll_fold *f, int n, int ascending, coll_range *ranges)
{
	int lo = 0, hi = f->pof2;
	for (int k = 0; k < f->lg; k++) {
		int mid = lo + (hi - lo) / 2;
		ranges[k] = (coll_range){lo, hi};
		if (n & round_d(f, k, ascending))
			lo = mid;
		else
			hi = mid;
	}
}

int coll_halving(rt_task *t, const rt_group *g, const coll_fold *f, int n, int ascending,
                 coll_range_bytes bytes, const void *ctx, coll_range *ranges, const coll_op *op)
{
	coll_halving_ranges(f, n, ascending, ranges);
	int lo = 0;
	for (int k = 0; k < f->lg; k++) {
		int d = round_d(f, k, ascending);
		int peer = coll_fold_member(f, n ^ d);
		int mid = ranges[k].lo + (ranges[k].hi - ranges[k].lo) / 2;
		uint64_t lower = bytes(ctx, ranges[k].lo, mid), upper = bytes(ctx, mid, ranges[k].hi);
		/* Keep the lower half when my bit d is clear: send the upper one. */
		if (n & d) {
			coll_sendrecv(t, g, peer, lower, peer, upper, op);
			lo = mid;
		} else {
			coll_sendrecv(t, g, peer, upper, peer, lower, op);
		}
	}
	return lo;
}

void coll_doubling(rt_task *t, const rt_group *g, const coll_fold *f, int n, coll_range_bytes bytes,
                   const void *ctx, const coll_range *ranges, const coll_op *op)
{
	for (int k = f->lg - 1; k >= 0; k--) {
		int peer = coll_fold_member(f, n ^ (1 << k));
		int lo = ranges[k].lo, hi = ranges[k].hi, mid = lo + (hi - lo) / 2;
		uint64_t lower = bytes(ctx, lo, mid), upper = bytes(ctx, mid, hi);
		/* I kept (and now send) the lower half when my bit was clear. */
		if (n & (1 << k))
			coll_sendrecv(t, g, peer, upper, peer, lower, op);
		else
			coll_sendrecv(t, g, peer, lower, peer, upper, op);
	}
}

/*
 * reduce.c - rt_reduce (binomial tree, Rabenseifner, or the segmented
 * linear, chain and binary trees of tree.c) and rt_reduce_to (coNCePTuaL
 * REDUCE ... TO).
 *
 * Binomial reduce is the broadcast tree run upwards (coll_tree_up): a member
 * posts receives from all its children at once, waits for them (the
 * reduction itself costs no simulated time), then sends its partial result
 * of S bytes to its parent. P-1 messages of S bytes.
 *
 * Rabenseifner (MPICH reduce_intra_reduce_scatter_gather): pairs (2j, 2j+1)
 * below 2*rem fold onto the even member, the pof2 survivors reduce-scatter
 * by recursive halving (distance 1 first, halving.c), then gather the blocks
 * to the root's survivor by the rounds run backwards: in the round of
 * distance d the member of each pair whose half does not hold the root's
 * new rank sends everything it holds and leaves. If the root sat out (odd,
 * below 2*rem), survivor 0 first hands it block 0 and the root plays new
 * rank 0. For pof2 | S the gather moves S/2 per round.
 *
 *   pof2 = 4, root at new rank 0 (blocks after the halving: 0:b0 1:b2 2:b1 3:b3)
 *     d = 2:  2 -> 0 (b1), 3 -> 1 (b3)
 *     d = 1:  1 -> 0 (b2 b3)                  root holds b0 b1 b2 b3
 *
 * REDUCE ... TO (LANGUAGE.md §8.5, §9.4): `senders` contribute and every
 * member of `receivers` gets the result. ncsim runs it as two phases on
 * U = senders u receivers:
 *
 *   1. binomial reduce of S bytes over U to the lowest receiver r0
 *      (members of U that are not senders forward partial results and add
 *      nothing: they sit in the tree only because they are participants);
 *   2. binomial broadcast of S bytes from r0 among the receivers.
 *
 * So senders that are not receivers complete as soon as their part of the
 * tree has been handed over, and every receiver completes after every
 * sender's contribution reached r0 and came back down: (|U|-1) + (|R|-1)
 * messages of S bytes. Both phases use the one tag the collective on U
 * takes; within U, phase-1 messages from a peer always precede its phase-2
 * messages, so FIFO matching keeps them apart. If either set is empty
 * nothing happens; a task in neither set returns at once.
 */
#include "runtime/coll/algo.h"

#include <stdlib.h>

#include "runtime/mpi/p2p.h"
#include "base/util.h"

static void reduce_rabenseifner(rt_task *t, const rt_group *g, int me, int root, uint64_t bytes,
                                const coll_op *op)
{
	coll_fold f = coll_fold_of(g->n, 0);
	int n = coll_fold_in(t, g, &f, me, bytes, NULL, op);
	coll_blocks v = {.total = bytes, .n = f.pof2};
	coll_range ranges[32];
	if (n >= 0)
		coll_halving(t, g, &f, n, 1, coll_range_of_blocks, &v, ranges, op);
	/* A root that sat out takes the place of survivor 0 (member 0), which hands it block 0. */
	int stand_in = root < 2 * f.rem && root % 2;
	int newroot = stand_in ? 0 : coll_fold_rank(&f, root);
	if (stand_in && me == root) {
		coll_recv(t, g, 0, coll_blocks_range(&v, 0, 1), op);
		n = 0;
		coll_halving_ranges(&f, 0, 1, ranges);
	} else if (stand_in && n == 0) {
		coll_send(t, g, root, coll_blocks_range(&v, 0, 1), op);
		n = -1;
	}
	for (int k = f.lg - 1; k >= 0 && n >= 0; k--) {
		int d = 1 << k, nd = n ^ d;
		int peer = stand_in && nd == 0 ? root : coll_fold_member(&f, nd);
		int lo = ranges[k].lo, hi = ranges[k].hi, mid = lo + (hi - lo) / 2;
		uint64_t mine = n & d ? coll_blocks_range(&v, mid, hi) : coll_blocks_range(&v, lo, mid);
		if ((nd >> k) == (newroot >> k)) {
			coll_send(t, g, peer, mine, op);
			break;
		}
		coll_recv(t, g, peer, coll_blocks_range(&v, lo, hi) - mine, op);
	}
}

void coll_reduce_alg(rt_task *t, const rt_group *g, int me, int root, uint64_t bytes, coll_choice c,
                     const coll_op *op)
{
	switch (c.alg) {
	case COLL_REDUCE_RABENSEIFNER: reduce_rabenseifner(t, g, me, root, bytes, op); break;
	case COLL_REDUCE_LINEAR:
		coll_seg_reduce(t, g, me, root, (coll_shape_of){COLL_SHAPE_LINEAR, 0}, bytes, 0, op);
		break;
	case COLL_REDUCE_CHAIN:
		coll_seg_reduce(t, g, me, root, (coll_shape_of){COLL_SHAPE_CHAIN, 0}, bytes, c.segment, op);
		break;
	case COLL_REDUCE_BINARY:
		coll_seg_reduce(t, g, me, root, (coll_shape_of){COLL_SHAPE_BINARY, 2}, bytes, c.segment, op);
		break;
	default: coll_tree_up(t, g, me, root, &(coll_tree_load){.each = bytes}, op); break;
	}
}

void coll_reduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                     const coll_op *op)
{
	if (g->n < 2)
		return;
	coll_reduce_alg(t, g, me, root, bytes, coll_choose(cfg, COLL_REDUCE, g->n, bytes), op);
}

void coll_reduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root, uint64_t bytes)
{
	int me = coll_my_index(t, g, "reduce");
	int r = coll_root_index(t, g, root, "reduce");
	coll_op op = coll_begin(t, g, NULL);
	coll_reduce_run(t, cfg, g, me, r, bytes, &op);
	coll_end(t);
}

void rt_reduce(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_reduce_with(t, coll_cfg(t), g, root, bytes);
}

/* Merges two ascending member lists into `out` (capacity a->n + b->n) without duplicates. */
static int merge_groups(const rt_group *a, const rt_group *b, rt_int *out)
{
	int i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		rt_int x;
		if (j >= b->n || (i < a->n && a->members[i] < b->members[j]))
			x = a->members[i++];
		else if (i >= a->n || b->members[j] < a->members[i])
			x = b->members[j++];
		else {
			x = a->members[i++];
			j++;
		}
		out[n++] = x;
	}
	return n;
}

void rt_reduce_to(rt_task *t, const rt_group *senders, const rt_group *receivers, uint64_t bytes)
{
	if (senders->n <= 0 || receivers->n <= 0)
		return;
	rt_int *members = xcalloc((size_t)senders->n + (size_t)receivers->n, sizeof *members);
	rt_group u = { members, merge_groups(senders, receivers, members) };
	int me = coll_index(&u, rt_rank(t));
	if (me < 0) {
		free(members);
		return;
	}
	rt_track(t, members, free); /* freed even if the task is abandoned in the collective */
	int root = coll_index(&u, receivers->members[0]);
	coll_op op = coll_begin(t, &u, NULL);
	const coll_tree_load load = {.each = bytes};
	coll_tree_up(t, &u, me, root, &load, &op);
	int rme = coll_index(receivers, rt_rank(t));
	if (rme >= 0)
		coll_tree_down(t, receivers, rme, 0, &load, &op);
	coll_end(t);
	rt_release(t, members);
}

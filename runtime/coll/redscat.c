/*
 * redscat.c - reduce-scatter of an S-byte vector: member k ends with the
 * reduced block k, c_k = coll_ring_chunk(S, P, k). Recursive halving,
 * pairwise, ring, and reduce + scatterv.
 *
 * Recursive halving (MPICH reduce_scatter_intra_recursive_halving): pairs
 * (2j, 2j+1) below 2*rem fold onto the odd member, which then stands for
 * blocks 2j and 2j+1 ("new block" j; new block n >= rem is block n + rem).
 * The pof2 survivors halve their range of new blocks, distance pof2/2
 * first, so new rank n ends with new block n; a folded pair's survivor
 * then hands block 2j to its partner. Messages 2*rem + pof2*lg, bytes
 * rem*S + (pof2-1)*S + sum_{j<rem} c_2j. (MPICH skips the empty messages of
 * S < P; ncsim sends them.)
 *
 * Pairwise (MPICH reduce_scatter_intra_pairwise): step s = 1 .. P-1, member
 * i sends block i+s to i+s and receives its own block's contribution from
 * i-s. P*(P-1) messages, (P-1)*S bytes.
 *
 * Ring (Open MPI reduce_scatter_intra_ring): the reduce-scatter half of the
 * ring allreduce, shifted so that member i ends with block i. P*(P-1)
 * messages, (P-1)*S bytes.
 *
 * Reduce + scatterv (Open MPI reduce_scatter_intra_nonoverlapping): a
 * reduce of S to member 0 (the configured reduce), then member 0 sends
 * block j to every j (linear).
 */
#include "runtime/coll/algo.h"

#include <stdlib.h>

#include "base/util.h"

/* New block n of a fold of P blocks starts at real block fold_start(n): two blocks per folded pair. */
static int fold_start(const coll_fold *f, int n) { return n < f->rem ? 2 * n : n + f->rem; }

typedef struct folded_blocks {
	const coll_fold *f;
	coll_blocks v; /* the P real blocks */
} folded_blocks;

static uint64_t folded_range(const void *ctx, int a, int b)
{
	const folded_blocks *fb = ctx;
	return coll_blocks_range(&fb->v, fold_start(fb->f, a), fold_start(fb->f, b));
}

static void redscat_halving(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	coll_fold f = coll_fold_of(g->n, 1);
	folded_blocks fb = {&f, {.total = bytes, .n = g->n}};
	uint64_t mine = coll_blocks_range(&fb.v, me, me + 1);
	int n = coll_fold_in(t, g, &f, me, bytes, &mine, op);
	if (n < 0)
		return;
	coll_range ranges[32];
	coll_halving(t, g, &f, n, 0, folded_range, &fb, ranges, op);
	coll_fold_out(t, g, &f, me, me > 0 ? coll_blocks_range(&fb.v, me - 1, me) : 0, op);
}

static void redscat_pairwise(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	for (int s = 1; s < P; s++) {
		int to = (int)(((int64_t)me + s) % P), from = (int)(((int64_t)me - s + P) % P);
		coll_sendrecv(t, g, to, coll_ring_chunk(bytes, P, to), from, coll_ring_chunk(bytes, P, me), op);
	}
}

static void redscat_reduce_scatterv(rt_task *t, const coll_config *cfg, const rt_group *g, int me,
                                    uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	coll_reduce_run(t, cfg, g, me, 0, bytes, op);
	uint64_t *blocks = xcalloc((size_t)P, sizeof *blocks);
	rt_track(t, blocks, free); /* freed even if the task is abandoned in the collective */
	for (int j = 0; j < P; j++)
		blocks[j] = coll_ring_chunk(bytes, P, j);
	coll_linear_blocks(t, g, me, 0, blocks, 0, 0, op);
	rt_release(t, blocks);
}

void coll_reduce_scatter_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "reduce-scatter");
	coll_op op = coll_begin(t, g, NULL);
	if (g->n > 1) {
		switch (coll_choose(cfg, COLL_REDUCE_SCATTER, g->n, bytes).alg) {
		case COLL_REDSCAT_HALVING: redscat_halving(t, g, me, bytes, &op); break;
		case COLL_REDSCAT_PAIRWISE: redscat_pairwise(t, g, me, bytes, &op); break;
		case COLL_REDSCAT_REDUCE_SCATTERV: redscat_reduce_scatterv(t, cfg, g, me, bytes, &op); break;
		default: coll_ring_pass(t, g, me, -1, bytes, 1, 0, &op); break;
		}
	}
	coll_end(t);
}

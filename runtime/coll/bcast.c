/*
 * bcast.c - rt_bcast: binomial tree, scatter + allgather (recursive doubling
 * or ring), and the segmented trees of tree.c (chain, linear, binary,
 * k-nomial).
 *
 * Binomial. With v the member's index relative to the root, v's parent is v
 * with its lowest set bit cleared and its children are v + 2^k for every
 * 2^k below that bit (all 2^k < P for the root). The tree has ceil(log2 P)
 * levels and P-1 edges, one message of S bytes each.
 *
 *   P = 6, relative indices:      0
 *                               / | \
 *                              4  2  1
 *                              |  |
 *                              5  3
 *
 * A node forwards to its children in decreasing subtree size, so the deepest
 * subtree starts first. The root returns once its sends complete (eager sends
 * complete locally), a receiver once the data has arrived and been forwarded.
 *
 * Scatter + allgather (MPICH bcast_intra_scatter_recursive_doubling_allgather
 * and _scatter_ring_allgather, van de Geijn's broadcast for long vectors):
 * the vector is cut into P balanced blocks, block v for relative index v; a
 * binomial scatter hands each member its block (a subtree's message carries
 * the blocks of the subtree: q*B(P) + B(r) bytes for S = qP + r), then an
 * allgather over relative indices completes every copy: recursive doubling
 * when P is a power of two (P*lg messages), else the ring (P*(P-1)), each
 * moving (P-1)*S bytes. MPICH sizes the blocks ceil(S/P) and skips empty
 * scatter messages; ncsim balances them to the byte and sends them all.
 */
#include "runtime/coll/algo.h"

void coll_bcast_alg(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                    coll_choice c, const coll_op *op)
{
	int P = g->n;
	switch (c.alg) {
	case COLL_BCAST_SCATTER_RECDBL:
	case COLL_BCAST_SCATTER_RING: {
		coll_blocks v = {.total = bytes, .n = P};
		coll_tree_down(t, g, me, root, &(coll_tree_load){.per_block = 1, .vec = &v}, op);
		if (c.alg == COLL_BCAST_SCATTER_RECDBL && (P & (P - 1)) == 0)
			coll_allgather_recdbl(t, g, me, root, &v, op);
		else
			coll_allgather_ring(t, g, me, root, &v, op);
		break;
	}
	case COLL_BCAST_CHAIN:
		coll_seg_bcast(t, g, me, root, (coll_shape_of){COLL_SHAPE_CHAIN, 0}, bytes, c.segment, op);
		break;
	case COLL_BCAST_LINEAR:
		/* Open MPI's basic linear broadcast sends whole vectors. */
		coll_seg_bcast(t, g, me, root, (coll_shape_of){COLL_SHAPE_LINEAR, 0}, bytes, 0, op);
		break;
	case COLL_BCAST_BINARY:
		coll_seg_bcast(t, g, me, root, (coll_shape_of){COLL_SHAPE_BINARY, 2}, bytes, c.segment, op);
		break;
	case COLL_BCAST_KNOMIAL:
		coll_seg_bcast(t, g, me, root, (coll_shape_of){COLL_SHAPE_KNOMIAL, cfg->knomial_radix}, bytes,
		               c.segment, op);
		break;
	default:
		coll_tree_down(t, g, me, root, &(coll_tree_load){.each = bytes}, op);
		break;
	}
}

void coll_bcast_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                    const coll_op *op)
{
	if (g->n < 2)
		return;
	coll_bcast_alg(t, cfg, g, me, root, bytes, coll_choose(cfg, COLL_BCAST, g->n, bytes), op);
}

void coll_bcast_with(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                     uint64_t bytes)
{
	int me = coll_my_index(t, g, "broadcast");
	int r = coll_root_index(t, g, root, "broadcast");
	coll_op op = coll_begin(t, g, a);
	coll_bcast_run(t, cfg, g, me, r, bytes, &op);
	coll_end(t);
}

void coll_bcast_as(rt_task *t, const coll_attr *a, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_bcast_with(t, coll_cfg(t), a, g, root, bytes);
}

void rt_bcast(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_bcast_with(t, coll_cfg(t), NULL, g, root, bytes);
}

/*
 * coll_bcast.c - rt_bcast: binomial-tree broadcast.
 *
 * With v the member's index relative to the root, v's parent is v with its
 * lowest set bit cleared and its children are v + 2^k for every 2^k below
 * that bit (all 2^k < P for the root). The tree has ceil(log2 P) levels and
 * P-1 edges, one message of S bytes each.
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
 */
#include "runtime/coll/coll.h"

#include "runtime/mpi/p2p.h"

void coll_bcast_as(rt_task *t, const coll_attr *a, const rt_group *g, rt_int root, uint64_t bytes)
{
	int me = coll_my_index(t, g, "broadcast");
	int r = coll_root_index(t, g, root, "broadcast");
	coll_op op = coll_begin(t, g, a);
	coll_tree_down(t, g, me, r, &(coll_tree_load){.each = bytes}, &op);
	p2p_op_end(t);
}

void rt_bcast(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_bcast_as(t, NULL, g, root, bytes);
}

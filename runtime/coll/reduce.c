/*
 * coll_reduce.c - rt_reduce (binomial tree) and rt_reduce_to (coNCePTuaL
 * REDUCE ... TO).
 *
 * Reduce is the broadcast tree run upwards (coll_tree_up): a member posts
 * receives from all its children at once, waits for them (the reduction
 * itself costs no simulated time), then sends its partial result of S bytes
 * to its parent. P-1 messages of S bytes.
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
#include "runtime/coll/coll.h"

#include <stdlib.h>

#include "runtime/mpi/p2p.h"
#include "base/util.h"

void rt_reduce(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	int me = coll_my_index(t, g, "reduce");
	int r = coll_root_index(t, g, root, "reduce");
	coll_op op = coll_begin(t, g, NULL);
	coll_tree_up(t, g, me, r, &(coll_tree_load){.each = bytes}, &op);
	p2p_op_end(t);
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
	int root = coll_index(&u, receivers->members[0]);
	coll_op op = coll_begin(t, &u, NULL);
	const coll_tree_load load = {.each = bytes};
	coll_tree_up(t, &u, me, root, &load, &op);
	int rme = coll_index(receivers, rt_rank(t));
	if (rme >= 0)
		coll_tree_down(t, receivers, rme, 0, &load, &op);
	p2p_op_end(t);
	free(members);
}

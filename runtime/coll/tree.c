/*
 * tree.c - broadcast and reduce down or up a tree in segments: the linear,
 * chain, binary and k-nomial broadcasts and reduces (Open MPI's
 * coll_base_bcast.c / coll_base_reduce.c generic tree algorithms over the
 * trees of coll_base_topo.c). Relative index v = (member - root) mod P.
 *
 *   linear   0 -> 1, 2, .., P-1                   (one level)
 *   chain    0 -> 1 -> 2 -> .. -> P-1              (P-1 levels)
 *   binary   level l holds v in [2^l - 1, 2^(l+1) - 1); the children of v
 *            on level l are v + 2^l and v + 2*2^l:
 *                        0
 *                      /   \
 *                     1     2
 *                    / \   / \
 *                   3   5 4   6
 *   knomial  radix k: v's parent is v rounded down to a multiple of k*m,
 *            m the largest power of k dividing v; its children are v + r*m'
 *            for r = 1 .. k-1 and every power m' of k below m, largest first
 *            (k = 2 is the binomial tree).
 *
 * The vector moves in n_seg segments of `segment` bytes (the last one
 * shorter; a single segment when segment is 0 or not below the vector).
 * Broadcast: a member posts the receive of segment s+1 from its parent,
 * waits for segment s, sends it to every child in order and waits for those
 * sends. Reduce: a member receives segment s from every child at once, then
 * sends it to its parent, with at most one send to the parent in flight.
 * Either way (P-1)*n_seg messages carry (P-1)*S bytes.
 */
#include "runtime/coll/algo.h"

#include <stdlib.h>

#include "base/checked.h"
#include "base/util.h"
#include "runtime/mpi/p2p.h"

/* Parent of relative index v > 0. */
static int tree_parent(coll_shape_of sh, int v)
{
	switch (sh.shape) {
	case COLL_SHAPE_LINEAR: return 0;
	case COLL_SHAPE_CHAIN: return v - 1;
	case COLL_SHAPE_BINARY: {
		/* Level l starts at first = 2^l - 1; walk back one sibling stride at a time. */
		int64_t delta = 1, first = 0;
		while (first + delta <= v) {
			first += delta;
			delta *= 2;
		}
		int64_t p = v;
		while (p >= first)
			p -= delta / 2;
		return p < 0 ? 0 : (int)p;
	}
	default: {
		int64_t k = sh.radix, m = 1;
		while (v % (k * m) == 0)
			m *= k;
		return (int)(v / (k * m) * (k * m));
	}
	}
}

/* Children of relative index v among P, in sending order, into out (capacity P); returns how many. */
static int tree_children(coll_shape_of sh, int v, int P, int *out)
{
	int n = 0;
	switch (sh.shape) {
	case COLL_SHAPE_LINEAR:
		if (v == 0)
			for (int c = 1; c < P; c++)
				out[n++] = c;
		break;
	case COLL_SHAPE_CHAIN:
		if (v + 1 < P)
			out[n++] = v + 1;
		break;
	case COLL_SHAPE_BINARY: {
		int64_t delta = 1, first = 0;
		while (first + delta <= v) {
			first += delta;
			delta *= 2;
		}
		for (int64_t c = v + delta; c < P && c <= v + 2 * delta; c += delta)
			out[n++] = (int)c;
		break;
	}
	default: {
		int64_t k = sh.radix, m = 1;
		while (m < P && v % (k * m) == 0)
			m *= k;
		for (m /= k; m > 0; m /= k)
			for (int64_t r = 1; r < k && v + r * m < P; r++)
				out[n++] = (int)(v + r * m);
		break;
	}
	}
	return n;
}

/* Number of segments and the size of segment s. */
static int64_t seg_count(uint64_t bytes, uint64_t segment)
{
	if (segment == 0 || bytes <= segment)
		return 1;
	return (int64_t)ck_div_up(bytes, segment);
}

static uint64_t seg_size(uint64_t bytes, uint64_t segment, int64_t nseg, int64_t s)
{
	return nseg == 1 ? bytes : s + 1 < nseg ? segment : bytes - (uint64_t)(nseg - 1) * segment;
}

/* The children of me (member indices) in a buffer of P ints; *buf must be freed. */
static int member_children(coll_shape_of sh, int v, int root, int P, int **buf)
{
	*buf = xcalloc((size_t)P, sizeof **buf);
	int n = tree_children(sh, v, P, *buf);
	for (int i = 0; i < n; i++)
		(*buf)[i] = coll_member((*buf)[i], root, P);
	return n;
}

/* One member's place in a segmented tree: its children and parent (member indices) and the segments. */
typedef struct seg_tree {
	int *kids; /* heap, nk of them */
	int nk, parent; /* parent -1 at the root */
	int64_t nseg;
} seg_tree;

static seg_tree seg_tree_of(const rt_group *g, int me, int root, coll_shape_of sh, uint64_t bytes,
                            uint64_t segment)
{
	int P = g->n, v = coll_rel(me, root, P);
	seg_tree st = {.parent = v ? coll_member(tree_parent(sh, v), root, P) : -1,
	               .nseg = seg_count(bytes, segment)};
	st.nk = member_children(sh, v, root, P, &st.kids);
	return st;
}

void coll_seg_bcast(rt_task *t, const rt_group *g, int me, int root, coll_shape_of sh, uint64_t bytes,
                    uint64_t segment, const coll_op *op)
{
	seg_tree st = seg_tree_of(g, me, root, sh, bytes, segment);
	rt_track(t, st.kids, free); /* freed even if the task is abandoned in the collective */
	rt_req next = st.parent >= 0 ? coll_irecv(t, g, st.parent, seg_size(bytes, segment, st.nseg, 0), op) : 0;
	for (int64_t s = 0; s < st.nseg; s++) {
		uint64_t sz = seg_size(bytes, segment, st.nseg, s);
		if (st.parent >= 0) {
			rt_req cur = next;
			next = s + 1 < st.nseg ? coll_irecv(t, g, st.parent, seg_size(bytes, segment, st.nseg, s + 1), op)
			                       : 0;
			p2p_waitn(t, &cur, 1);
		}
		coll_reqs q;
		coll_reqs_init(t, &q, st.nk);
		for (int i = 0; i < st.nk; i++)
			q.r[q.n++] = coll_isend(t, g, st.kids[i], sz, op);
		coll_reqs_wait(t, &q);
	}
	rt_release(t, st.kids);
}

void coll_seg_reduce(rt_task *t, const rt_group *g, int me, int root, coll_shape_of sh, uint64_t bytes,
                     uint64_t segment, const coll_op *op)
{
	seg_tree st = seg_tree_of(g, me, root, sh, bytes, segment);
	rt_track(t, st.kids, free);
	rt_req up = 0;
	for (int64_t s = 0; s < st.nseg; s++) {
		uint64_t sz = seg_size(bytes, segment, st.nseg, s);
		coll_reqs q;
		coll_reqs_init(t, &q, st.nk);
		for (int i = 0; i < st.nk; i++)
			q.r[q.n++] = coll_irecv(t, g, st.kids[i], sz, op);
		coll_reqs_wait(t, &q);
		if (st.parent >= 0) {
			if (up)
				p2p_waitn(t, &up, 1);
			up = coll_isend(t, g, st.parent, sz, op);
		}
	}
	if (up)
		p2p_waitn(t, &up, 1);
	rt_release(t, st.kids);
}

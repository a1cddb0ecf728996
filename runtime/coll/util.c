/*
 * util.c - group lookups, the point-to-point helpers every collective
 * algorithm uses, request buffers, block arithmetic and the binomial trees
 * (see algo.h). Members are addressed by group index; these helpers
 * translate to task ids and post in the collective matching context.
 */
#include "runtime/coll/algo.h"

#include <stdlib.h>

#include "base/checked.h"
#include "base/util.h"
#include "runtime/net/net.h"
#include "runtime/mpi/mpi_proto.h"
#include "runtime/mpi/p2p.h"

int coll_index(const rt_group *g, rt_int id)
{
	int lo = 0, hi = g->n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		rt_int m = g->members[mid];
		if (m == id)
			return mid;
		if (m < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int coll_my_index(rt_task *t, const rt_group *g, const char *what)
{
	if (!g || g->n <= 0)
		rt_fatal(t, "%s: empty task group", what);
	int me = coll_index(g, rt_rank(t));
	if (me < 0)
		rt_fatal(t, "%s: task %lld is not a member of the group of %d tasks",
		         what, (long long)rt_rank(t), g->n);
	return me;
}

int coll_root_index(rt_task *t, const rt_group *g, rt_int root, const char *what)
{
	int r = coll_index(g, root);
	if (r < 0)
		rt_fatal(t, "%s: root task %lld is not a member of the group of %d tasks",
		         what, (long long)root, g->n);
	return r;
}

coll_op coll_begin(rt_task *t, const rt_group *g, const coll_attr *a)
{
	coll_op op = {.tag = p2p_coll_tag(t, g), .tclass = a ? a->tclass : NET_CLASS_MPI, .tally = a ? a->tally : NULL};
	p2p_op_begin(t);
	return op;
}

void coll_end(rt_task *t) { p2p_op_end(t); }

/* coll_isend with p2p_isend's flags (MP_POST_DEFER when the wait follows at once). */
static rt_req isend(rt_task *t, const rt_group *g, int to, uint64_t bytes, const coll_op *op, unsigned flags)
{
	if (op->tally) {
		op->tally->msgs++;
		op->tally->bytes = ck_sat_add(op->tally->bytes, bytes);
	}
	return p2p_isend(t, P2P_CTX_COLL, g->members[to], bytes, op->tag, flags, op->tclass);
}

rt_req coll_isend(rt_task *t, const rt_group *g, int to, uint64_t bytes, const coll_op *op)
{
	return isend(t, g, to, bytes, op, 0);
}

rt_req coll_irecv(rt_task *t, const rt_group *g, int from, uint64_t bytes, const coll_op *op)
{
	return p2p_irecv(t, P2P_CTX_COLL, g->members[from], bytes, op->tag, 0);
}

void coll_sendrecv(rt_task *t, const rt_group *g, int to, uint64_t sbytes,
                   int from, uint64_t rbytes, const coll_op *op)
{
	/* Receive first: a pre-posted receive lets an eager message land directly. */
	rt_req r[2];
	r[0] = coll_irecv(t, g, from, rbytes, op);
	r[1] = isend(t, g, to, sbytes, op, MP_POST_DEFER);
	p2p_waitn(t, r, 2);
}

void coll_send(rt_task *t, const rt_group *g, int to, uint64_t bytes, const coll_op *op)
{
	rt_req r = isend(t, g, to, bytes, op, MP_POST_DEFER);
	p2p_waitn(t, &r, 1);
}

void coll_recv(rt_task *t, const rt_group *g, int from, uint64_t bytes, const coll_op *op)
{
	rt_req r = coll_irecv(t, g, from, bytes, op);
	p2p_waitn(t, &r, 1);
}

void coll_reqs_init(rt_task *t, coll_reqs *q, int n)
{
	q->r = q->small;
	q->n = 0;
	if (n > (int)(sizeof q->small / sizeof q->small[0])) {
		q->r = xcalloc((size_t)n, sizeof *q->r);
		rt_track(t, q->r, free); /* freed even if the task is abandoned in the collective */
	}
}

void coll_reqs_wait(rt_task *t, coll_reqs *q)
{
	if (q->n)
		p2p_waitn(t, q->r, q->n);
	if (q->r != q->small)
		rt_release(t, q->r);
	q->r = NULL;
	q->n = 0;
}

void coll_check_blocks(rt_task *t, int P, uint64_t each, const char *what)
{
	uint64_t all;
	if (ck_mul((uint64_t)P, each, &all) < 0)
		rt_fatal(t, "%s: %d blocks of %llu bytes come to more than 2^64 bytes", what, P, (unsigned long long)each);
}

int coll_pof2(int P)
{
	int p = 1;
	while ((int64_t)p * 2 <= P)
		p *= 2;
	return p;
}

uint64_t coll_blocks_range(const coll_blocks *v, int a, int b)
{
	if (v->uniform)
		return ck_sat_mul((uint64_t)(b - a), v->each);
	/* Blocks below total mod n carry one byte more than the rest. */
	uint64_t q = v->total / (uint64_t)v->n, r = v->total % (uint64_t)v->n;
	uint64_t ua = (uint64_t)a < r ? (uint64_t)a : r, ub = (uint64_t)b < r ? (uint64_t)b : r;
	return (uint64_t)(b - a) * q + (ub - ua);
}

/* ------------------------------------------------------------ binomial trees */

/* Bytes of a message that carries the subtree [v, v + mask) clipped to P; a sum past 64 bits fails t's statement. */
static uint64_t tree_bytes(rt_task *t, const coll_tree_load *l, int v, int64_t mask, int root, int P)
{
	if (!l->per_block)
		return l->each;
	int hi = (int)(v + mask < P ? v + mask : P);
	if (l->vec)
		return coll_blocks_range(l->vec, v, hi); /* parts of a vector that fits */
	uint64_t sum = 0;
	int over = 0;
	if (!l->blocks)
		over = ck_mul((uint64_t)(hi - v), l->each, &sum);
	for (int k = v; l->blocks && k < hi && !over; k++)
		over = ck_add(sum, l->blocks[coll_member(k, root, P)], &sum);
	if (over)
		rt_fatal(t, "a collective would carry the blocks of %d members in one message of more than 2^64 bytes",
		         hi - v);
	return sum;
}

void coll_tree_up(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op)
{
	int P = g->n;
	int v = (me - root + P) % P;
	rt_req r[64];
	int n = 0;
	int64_t mask;
	for (mask = 1; mask < P; mask <<= 1) {
		if (v & mask)
			break;
		int c = (int)(v + mask);
		if (c < P)
			r[n++] = coll_irecv(t, g, coll_member(c, root, P), tree_bytes(t, load, c, mask, root, P), op);
	}
	if (n)
		p2p_waitn(t, r, n);
	if (v != 0)
		coll_send(t, g, coll_member((int)(v - mask), root, P), tree_bytes(t, load, v, mask, root, P), op);
}

void coll_tree_down(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op)
{
	int P = g->n;
	int v = (me - root + P) % P;
	int64_t mask = 1;
	while (mask < P) {
		if (v & mask) {
			coll_recv(t, g, coll_member((int)(v - mask), root, P), tree_bytes(t, load, v, mask, root, P), op);
			break;
		}
		mask <<= 1;
	}
	rt_req r[64];
	int n = 0;
	for (mask >>= 1; mask > 0; mask >>= 1) {
		int c = (int)(v + mask);
		if (c < P)
			r[n++] = coll_isend(t, g, coll_member(c, root, P), tree_bytes(t, load, c, mask, root, P), op);
	}
	if (n)
		p2p_waitn(t, r, n);
}

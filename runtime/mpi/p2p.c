/*
 * p2p.c - point-to-point operations and the MPI time decomposition (see p2p.h).
 *
 * Time inside MPI is charged segment by segment: software steps (copies,
 * pinning, post delays) are "stack"; every blocked interval [b, e] is split
 * at the latest post time of the partners whose operations completed in it:
 * the part before is synchronization (the other side was late), the rest is
 * network. So network + sync + stack is exactly the time spent between the
 * outermost p2p_op_begin and p2p_op_end, for every task.
 *
 * Counters (§4) are kept here, in the user API only: collectives and the
 * other runtime modules move bytes without touching them.
 */
#include "runtime/mpi/p2p.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/io/io_client.h"
#include "runtime/task/task.h"

/* ------------------------------------------------------------ operations */

void p2p_op_begin(rt_task *t)
{
	if (t->mpi.depth++ == 0)
		t->mpi.op_start = sim_now(t->w->ctx);
}

void p2p_op_end(rt_task *t)
{
	if (--t->mpi.depth == 0) {
		t->tot.mpi_total += sim_now(t->w->ctx) - t->mpi.op_start;
		t->tot.mpi_ops++;
	}
}

static uint32_t phys_of(rt_task *t, rt_int v, const char *role)
{
	if (v < 0 || v >= (rt_int)t->job->ntasks)
		rt_fatal(t, "%s task %" PRId64 " is out of range (0..%" PRIu32 ")", role, v, t->job->ntasks - 1);
	return task_phys(t, v);
}

rt_req p2p_isend(rt_task *t, int mctx, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags, int tclass)
{
	uint32_t p = phys_of(t, dst, "destination");
	p2p_op_begin(t);
	rt_req h = mp_post_send(t, mctx, p, bytes, tag, flags, tclass);
	p2p_op_end(t);
	return h;
}

rt_req p2p_irecv(rt_task *t, int mctx, rt_int src, uint64_t bytes, rt_int tag, unsigned flags)
{
	uint32_t p = phys_of(t, src, "source");
	p2p_op_begin(t); /* posting may cost software time (call_overhead) */
	rt_req h = mp_post_recv(t, mctx, p, bytes, tag, flags);
	p2p_op_end(t);
	return h;
}

void p2p_waitn(rt_task *t, const rt_req *reqs, int n)
{
	p2p_op_begin(t);
	/*
	 * Delivery handlers count the requests down and run the CPU steps
	 * (mpi_proto.c); the task resumes once, when the wait is complete.
	 */
	mp_wait_begin(t, reqs, n);
	mp_wait_run(t);
	mp_wait_end(t);
	for (int i = 0; i < n; i++)
		if (reqs[i])
			mp_req_release(t, reqs[i]);
	p2p_op_end(t);
}

rt_int p2p_coll_tag(rt_task *t, const rt_group *g)
{
	task_mpi *m = &t->mpi;
	uint64_t key, k;
	/* No hashing and no search for the world group: its counter sits in the task record. */
	key = g == &t->job->world ? t->job->world_hash : task_group_key(g->members, g->n);
	if (key == t->job->world_hash) {
		k = m->coll_world.count++;
	} else {
		size_t i = 0;
		while (i < m->coll_seq.len && m->coll_seq.ptr[i].key != key)
			i++;
		if (i == m->coll_seq.len)
			VEC_PUSH(&m->coll_seq, ((task_collseq){.key = key, .count = 0}));
		k = m->coll_seq.ptr[i].count++;
	}
	/* 39 bits of the group key above a 24-bit instance number: non-negative, distinct per group. */
	return (rt_int)(((key & 0x7fffffffffULL) << 24) | (k & 0xffffffULL));
}

/* ------------------------------------------------------------ user API */

void rt_send(rt_task *t, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags)
{
	p2p_op_begin(t);
	rt_req h = p2p_isend(t, P2P_CTX_USER, dst, bytes, tag, flags | MP_POST_DEFER, NET_CLASS_MPI);
	p2p_waitn(t, &h, 1);
	p2p_op_end(t);
	cnt_sent(&t->cnt, bytes);
}

void rt_recv(rt_task *t, rt_int src, uint64_t bytes, rt_int tag, unsigned flags)
{
	p2p_op_begin(t);
	rt_req h = p2p_irecv(t, P2P_CTX_USER, src, bytes, tag, flags);
	p2p_waitn(t, &h, 1);
	p2p_op_end(t);
	cnt_received(&t->cnt, bytes, 1);
}

rt_req rt_isend(rt_task *t, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags)
{
	rt_req h = p2p_isend(t, P2P_CTX_USER, dst, bytes, tag, flags, NET_CLASS_MPI);
	mp_req_get(t, h)->user = 1;
	VEC_PUSH(&t->mpi.user_reqs, h);
	cnt_sent(&t->cnt, bytes); /* asynchronous sends count when posted (§4) */
	return h;
}

rt_req rt_irecv(rt_task *t, rt_int src, uint64_t bytes, rt_int tag, unsigned flags)
{
	rt_req h = p2p_irecv(t, P2P_CTX_USER, src, bytes, tag, flags);
	mp_req_get(t, h)->user = 1;
	VEC_PUSH(&t->mpi.user_reqs, h);
	return h;
}

/* Counts the receives among reqs (asynchronous receives count when awaited). */
static void count_recvs(rt_task *t, const rt_req *reqs, size_t n)
{
	uint64_t bytes = 0, msgs = 0;
	for (size_t i = 0; i < n; i++) {
		const mp_req *r = mp_req_get(t, reqs[i]);
		if (r && !r->send) {
			bytes += r->bytes;
			msgs++;
		}
	}
	if (msgs)
		cnt_received(&t->cnt, bytes, msgs);
}

void rt_wait(rt_task *t, rt_req req)
{
	task_mpi *m = &t->mpi;
	size_t i = 0;
	while (i < m->user_reqs.len && m->user_reqs.ptr[i] != req)
		i++;
	if (i == m->user_reqs.len)
		rt_fatal(t, "waiting for an asynchronous operation that is not outstanding");
	memmove(&m->user_reqs.ptr[i], &m->user_reqs.ptr[i + 1], (m->user_reqs.len - i - 1) * sizeof(rt_req));
	m->user_reqs.len--;
	if (io_is_req(req)) {
		io_wait(t, &req, 1);
		return;
	}
	count_recvs(t, &req, 1);
	p2p_waitn(t, &req, 1);
}

/*
 * Messages first, then I/O: the time during which messages are outstanding
 * is MPI time, what remains until the last I/O request completes is I/O time.
 */
void rt_waitall(rt_task *t)
{
	task_mpi *m = &t->mpi;
	size_t n = m->user_reqs.len;
	if (n == 0)
		return;
	/* Taken out of the task first: the wait may take long, the list is ours meanwhile. */
	rt_req *reqs = m->user_reqs.ptr;
	m->user_reqs.ptr = NULL;
	m->user_reqs.len = m->user_reqs.cap = 0;
	/* Stable partition: message requests to the front, I/O requests behind them. */
	size_t nmsg = 0;
	for (size_t i = 0; i < n; i++)
		if (!io_is_req(reqs[i]))
			nmsg++;
	if (nmsg < n) {
		rt_req *sorted = xmalloc(n * sizeof *sorted);
		size_t a = 0, b = nmsg;
		for (size_t i = 0; i < n; i++)
			sorted[io_is_req(reqs[i]) ? b++ : a++] = reqs[i];
		free(reqs);
		reqs = sorted;
	}
	rt_track(t, reqs, free); /* freed even if the task is abandoned in the wait */
	if (nmsg) {
		count_recvs(t, reqs, nmsg);
		p2p_waitn(t, reqs, (int)nmsg);
	}
	if (nmsg < n)
		io_wait(t, reqs + nmsg, (int)(n - nmsg));
	rt_release(t, reqs);
}

rt_int rt_pending(const rt_task *t) { return (rt_int)t->mpi.user_reqs.len; }

void rt_sendrecv(rt_task *t, rt_int dst, uint64_t sbytes, rt_int stag, rt_int src, uint64_t rbytes, rt_int rtag)
{
	p2p_op_begin(t);
	rt_req h[2];
	h[1] = p2p_irecv(t, P2P_CTX_USER, src, rbytes, rtag, 0);
	h[0] = p2p_isend(t, P2P_CTX_USER, dst, sbytes, stag, MP_POST_DEFER, NET_CLASS_MPI);
	p2p_waitn(t, h, 2);
	p2p_op_end(t);
	cnt_sent(&t->cnt, sbytes);
	cnt_received(&t->cnt, rbytes, 1);
}

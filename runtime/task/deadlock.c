/*
 * deadlock.c - wait-for report of a simulation that ran out of events (see deadlock.h).
 */
#include "runtime/task/deadlock.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/task/task.h"

/* The first request of t's current wait that has not completed, or NULL. */
static const mp_req *pending_req(rt_task *t)
{
	for (int i = 0; i < t->mpi.nwaiting; i++) {
		const mp_req *r = mp_req_get(t, t->mpi.waiting[i]);
		if (r && r->state != MP_RQ_DONE)
			return r;
	}
	return NULL;
}

void dl_snapshot(rt_task *t, dl_snap *s)
{
	const mp_req *r = pending_req(t);
	*s = (dl_snap){0};
	if (!r)
		return;
	*s = (dl_snap){.has_req = 1, .send = r->send, .mctx = r->mctx, .proto = r->proto,
	               .posted = r->state == MP_RQ_POSTED, .peer = r->peer, .tag = r->tag, .bytes = r->bytes};
}

/* The report's view of every task. */
typedef struct dl_view {
	const dl_snap *(*snap)(void *arg, const rt_task *t);
	void *arg;
	dl_snap own;
} dl_view;

static const dl_snap *snap_of(dl_view *v, rt_task *t)
{
	if (v->snap)
		return v->snap(v->arg, t);
	dl_snapshot(t, &v->own);
	return &v->own;
}

static int is_blocked(const rt_task *t) { return t->state == TK_BLOCKED; }

/* The task t waits on, or NULL when its wait names no peer. */
static rt_task *waits_on(dl_view *v, rt_task *t)
{
	const dl_snap *s = is_blocked(t) ? snap_of(v, t) : NULL;
	return s && s->has_req ? t->job->tasks[s->peer] : NULL;
}

static void describe(dl_view *v, rt_task *t, FILE *out)
{
	char me[64], peer[64];
	task_name(t, t->rank, me, sizeof me);
	const dl_snap *r = snap_of(v, t);
	fprintf(out, "  %s (line %d): ", me, t->line);
	if (!r->has_req) {
		fprintf(out, "blocked in %s\n", t->block_what ? t->block_what : "an operation that names no peer");
		return;
	}
	task_name(t, r->peer, peer, sizeof peer);
	const char *ctx = r->mctx == 0 ? "" : r->mctx == 1 ? " (collective)" : " (system)";
	if (r->send)
		fprintf(out, "blocked in a send%s of %" PRIu64 " bytes to %s, tag %" PRId64
		        " (%s protocol: waiting for the receiver)\n",
		        ctx, r->bytes, peer, r->tag, mp_proto_name((enum mp_proto)r->proto));
	else
		fprintf(out, "blocked in a receive%s of %" PRIu64 " bytes from %s, tag %" PRId64 "%s\n", ctx, r->bytes,
		        peer, r->tag, r->posted ? " (no matching message was sent)" : "");
}

/* Writes "task a -> task b -> ..." from t until a repeat or a task that is not blocked. */
static void chain(dl_view *v, rt_task *t, FILE *out)
{
	char name[64];
	size_t cap = 16, n = 0;
	rt_task **path = xmalloc(cap * sizeof *path);
	fprintf(out, "  wait-for chain: ");
	for (rt_task *cur = t; cur; cur = waits_on(v, cur)) {
		task_name(cur, cur->rank, name, sizeof name);
		fprintf(out, "%s%s", n ? " -> " : "", name);
		size_t k = 0;
		while (k < n && path[k] != cur)
			k++;
		if (k < n)
			break; /* back at a task of the path: a cycle */
		if (!is_blocked(cur)) {
			fprintf(out, " (%s)", cur->state == TK_DONE ? "finished" : "not blocked");
			break;
		}
		if (n == cap)
			path = xreallocarray(path, cap *= 2, sizeof *path);
		path[n++] = cur;
	}
	fprintf(out, "\n");
	free(path);
}

void dl_report(task_world *w, ncsim_time_t now, const dl_snap *(*snap)(void *arg, const rt_task *t), void *arg,
               FILE *out)
{
	dl_view v = {.snap = snap, .arg = arg};
	size_t blocked = 0;
	for (size_t i = 0; i < w->all.len; i++)
		blocked += is_blocked(w->all.ptr[i]);
	fprintf(out, "ncsim: deadlock at time %.6f us: no event remains but %zu task(s) are blocked\n",
	        (double)now / 1e6, blocked);
	size_t listed = 0;
	for (size_t i = 0; i < w->all.len; i++) {
		rt_task *t = w->all.ptr[i];
		if (!is_blocked(t))
			continue;
		if (listed++ == DL_MAX_LISTED) {
			fprintf(out, "  ... and %zu more blocked task(s)\n", blocked - DL_MAX_LISTED);
			break;
		}
		describe(&v, t, out);
		chain(&v, t, out);
	}
}

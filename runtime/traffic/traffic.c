/*
 * traffic.c - the traffic engine: per-simulation state, endpoint entities,
 * runs, injection and delivery accounting (see traffic.h).
 */
#include "runtime/traffic/traffic.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/coll/coll.h"
#include "runtime/mpi/p2p.h"
#include "runtime/task/drv_par.h"
#include "runtime/traffic/gen.h"
#include "runtime/traffic/vef.h"

/* ------------------------------------------------------------ endpoints */

static void on_deliver(sim_ctx *ctx, void *state, const sim_event *ev);
static void on_ack(sim_ctx *ctx, void *state, const sim_event *ev);

static const sim_handler ep_handlers[TRF_NEVENTS] = {
	[TRF_EV_DCNW] = trf_gen_on_dcnw,
	[TRF_EV_FLOW] = trf_gen_on_flow,
	[TRF_EV_DELIVER] = on_deliver,
	[TRF_EV_ACK] = on_ack,
};

static const sim_type ep_type = {
	.name = "traffic-endpoint",
	.handlers = ep_handlers,
	.nhandlers = TRF_NEVENTS,
};

sim_eid trf_ep_of(trf_world *tw, const rt_task *t, uint32_t r)
{
	return tw->ep_base + (sim_eid)(tw->job_first[t->job->index] + r);
}

trf_ep *trf_my_ep(trf_world *tw, const rt_task *t)
{
	return &tw->eps[tw->job_first[t->job->index] + t->rank];
}

/* Purpose tag of the endpoint streams ("traffic"). */
#define TRF_STREAM_EP 0x7472616666696331ull
#define TRF_STREAM_DST 0x7472616666696332ull

static trf_world *world_new(task_world *w)
{
	trf_world *tw = xcalloc(1, sizeof *tw);
	tw->w = w;
	tw->neps = w->all.len;
	tw->eps = xcalloc(tw->neps ? tw->neps : 1, sizeof *tw->eps);
	tw->job_first = xcalloc(w->jobs.len ? w->jobs.len : 1, sizeof *tw->job_first);
	size_t k = 0;
	for (size_t j = 0; j < w->jobs.len; j++) {
		tw->job_first[j] = k;
		k += w->jobs.ptr[j]->ntasks;
	}
	for (size_t i = 0; i < tw->neps; i++) {
		rt_task *t = w->all.ptr[i];
		tw->eps[i].tw = tw;
		tw->eps[i].task = t;
		sim_rng_seed(&tw->eps[i].rng, w->seed, trf_dest_stream_key(TRF_STREAM_EP, t->job->index, t->rank));
		sim_rng_seed(&tw->eps[i].dst_rng, w->seed, trf_dest_stream_key(TRF_STREAM_DST, t->job->index, t->rank));
		sim_eid id = sim_entity_add(w->ctx, &ep_type, &tw->eps[i]);
		if (i == 0)
			tw->ep_base = id;
	}
	return tw;
}

static void run_free_members(trf_run *r)
{
	free(r->m);
	free(r->node);
	free(r->ep);
	free(r->task_eid);
	r->m = NULL;
	r->node = NULL;
	r->ep = NULL;
	r->task_eid = NULL;
}

void trf_run_free(trf_run *r)
{
	run_free_members(r);
	free(r->label);
	free(r->cls);
	free(r->flow_quota);
	free(r->hvd);
	free(r->hvd_lp);
	free(r->lat);
	free(r);
}

static void world_free(trf_world *tw)
{
	for (size_t i = 0; i < tw->runs.len; i++)
		trf_run_free(tw->runs.ptr[i]);
	VEC_FREE(&tw->runs);
	VEC_FREE(&tw->open);
	for (size_t i = 0; i < tw->cdfs.len; i++)
		trf_cdf_free(tw->cdfs.ptr[i]);
	VEC_FREE(&tw->cdfs);
	for (size_t i = 0; i < tw->traces.len; i++)
		vef_free(tw->traces.ptr[i]);
	VEC_FREE(&tw->traces);
	free(tw->eps);
	free(tw->job_first);
	free(tw);
}

/* A simulation's traffic state hangs off its world (task_world.traffic), created by the first traffic statement. */
trf_world *trf_world_find(task_world *w)
{
	return w->traffic;
}

trf_world *trf_world_prepare(task_world *w)
{
	if (!w->traffic)
		w->traffic = world_new(w);
	return w->traffic;
}

trf_world *trf_world_of(rt_task *t)
{
	trf_world *tw = trf_world_prepare(t->w);
	if (tw->neps == 0)
		rt_fatal(t, "traffic: the simulation has no tasks");
	return tw;
}

void trf_world_release(task_world *w)
{
	if (w && w->traffic) {
		world_free(w->traffic);
		w->traffic = NULL;
	}
}

/* ------------------------------------------------------------ tables */

const tcdf *trf_cdf(trf_world *tw, rt_task *t, const char *model, const char *path)
{
	char *file;
	if (model) {
		int i = trf_cdf_model_index(model);
		if (i < 0)
			rt_fatal(t, "unknown traffic model %s (known: WEB_SEARCH, FB_KEY_VALUE, FB_CACHE_FOLLOWER, "
			         "FB_WEB_SERVER, FB_HADOOP, GOOGLE_ALL, GOOGLE_SEARCH; a string names a CDF file)", model);
		file = trf_cdf_model_path(i);
	} else if (path && *path) {
		file = xstrdup(path);
	} else {
		rt_fatal(t, "traffic: neither a model name nor a CDF file was given");
	}
	for (size_t i = 0; i < tw->cdfs.len; i++)
		if (!strcmp(tw->cdfs.ptr[i]->path, file)) {
			free(file);
			return tw->cdfs.ptr[i];
		}
	char *err = NULL;
	tcdf *c = trf_cdf_load(file, &err);
	free(file);
	if (!c)
		task_fatal_err(t, err, NULL);
	VEC_PUSH(&tw->cdfs, c);
	return c;
}

/* ------------------------------------------------------------ runs */

uint32_t trf_run_index(const trf_world *tw, const trf_run *r)
{
	for (size_t i = tw->runs.len; i-- > 0;)
		if (tw->runs.ptr[i] == r)
			return (uint32_t)i;
	return UINT32_MAX;
}

static const char *model_name(int m)
{
	static const char *const names[] = {"dcnw", "cdcnw", "flows", "horovod"};
	return names[m];
}

static trf_run *run_new(trf_world *tw, rt_task *t, const rt_group *g, int model, const char *label, uint64_t key)
{
	trf_run *r = xcalloc(1, sizeof *r);
	r->model = model;
	r->label = xstrdup(label);
	r->job = t->job->index;
	r->key = key;
	r->n = g->n;
	r->created = sim_firing_key(tw->w->ctx);
	r->node = xcalloc((size_t)g->n, sizeof *r->node);
	r->ep = xcalloc((size_t)g->n, sizeof *r->ep);
	r->task_eid = xcalloc((size_t)g->n, sizeof *r->task_eid);
	r->m = xcalloc((size_t)g->n, sizeof *r->m);
	for (int i = 0; i < g->n; i++) {
		rt_int v = g->members[i];
		if (v < 0 || v >= (rt_int)t->job->ntasks)
			rt_fatal(t, "traffic: task %" PRId64 " of the group is out of range", v);
		uint32_t p = task_phys(t, v);
		r->node[i] = t->job->nodes[p];
		r->ep[i] = trf_ep_of(tw, t, p);
		r->task_eid[i] = t->job->tasks[p]->eid;
		r->nlocal += !tw->w->par || drvp_is_local(tw->w, r->task_eid[i]);
		int seen = 0;
		for (int k = 0; k < i && !seen; k++)
			seen = r->node[k] == r->node[i];
		r->nnodes += !seen;
	}
	r->t_start = sim_now(tw->w->ctx);
	r->lat_min = UINT64_MAX;
	r->lat = xcalloc(1, sizeof *r->lat);
	VEC_PUSH(&tw->runs, r);
	VEC_PUSH(&tw->open, (uint32_t)(tw->runs.len - 1));
	return r;
}

trf_run *trf_join(trf_world *tw, rt_task *t, const rt_group *g, int model, const char *label, int *me,
                  int *created)
{
	*me = coll_my_index(t, g, "traffic");
	uint64_t key = (uint64_t)p2p_coll_tag(t, g);
	trf_run *r = NULL;
	size_t oi;
	for (oi = 0; oi < tw->open.len; oi++) {
		trf_run *c = tw->runs.ptr[tw->open.ptr[oi]];
		if (c->key == key && c->job == t->job->index) {
			r = c;
			break;
		}
	}
	*created = r == NULL;
	if (!r) {
		r = run_new(tw, t, g, model, label, key);
		oi = tw->open.len - 1;
	} else if (r->model != model || r->n != g->n) {
		rt_fatal(t, "traffic: the members of a group disagree: %s over %d members here, %s over %d members "
		         "at another member", model_name(model), g->n, model_name(r->model), r->n);
	}
	trf_member *m = &r->m[*me];
	m->arrived = 1;
	m->start = sim_now(tw->w->ctx);
	if (++r->arrived == r->nlocal) {
		tw->open.ptr[oi] = tw->open.ptr[tw->open.len - 1];
		tw->open.len--;
	}
	return r;
}

static int member_complete(const trf_member *m) { return m->gen_done && m->delivered == m->quota; }

/* Wakes member i if it waits and its part is complete. */
static void maybe_wake(trf_world *tw, trf_run *r, int i)
{
	trf_member *m = &r->m[i];
	if (m->waiting && member_complete(m)) {
		m->waiting = 0;
		sim_send(tw->w->ctx, r->task_eid[i], 0, TK_EV_WAKE, NULL, 0);
	}
}

void trf_gen_done(trf_world *tw, trf_run *r, int i)
{
	r->m[i].gen_done = 1;
	maybe_wake(tw, r, i);
}

void trf_wait(trf_world *tw, rt_task *t, trf_run *r, int me)
{
	trf_member *m = &r->m[me];
	while (!member_complete(m)) {
		m->waiting = 1;
		task_block(t, "its generated traffic to be delivered");
	}
	m->waiting = 0;
	m->done = 1;
	m->end = sim_now(tw->w->ctx);
	if (m->sent) {
		r->gen_bits += m->bits;
		r->gen_span += m->last_gen - m->start;
	}
	if (m->end > r->t_end)
		r->t_end = m->end;
	if (++r->done == r->nlocal)
		run_free_members(r);
}

/*
 * Fails the run for a message the network refused: never delivered, it would
 * hold its member's wait for ever (a misleading deadlock later). Out of line,
 * so that trf_inject stays small.
 */
static __attribute__((cold, noinline)) void refused(trf_world *tw, sim_eid sender, const net_msg *msg, int rc)
{
	trf_ep *ep = &tw->eps[sender - tw->ep_base];
	task_failf(ep->task, "traffic: a %s message of %" PRIu64 " bytes from node %" PRIu32 " to node %" PRIu32 " %s "
	           "(the network has %" PRIu32 " nodes)", net_class_name((enum net_class)msg->tclass), msg->bytes,
	           msg->src_node, msg->dst_node, net_refusal_text(rc), tw->w->net->nnodes);
}

void trf_inject(trf_world *tw, trf_run *r, uint32_t ri, int s, int d, uint64_t bytes, int tclass)
{
	task_world *w = tw->w;
	ncsim_time_t now = sim_now(w->ctx);
	trf_member *m = &r->m[s];
	/* The destination's endpoint hears of the delivery; cookie2 names the member and endpoint to acknowledge. */
	net_msg msg = {
		.src_node = r->node[s],
		.dst_node = r->node[d],
		.bytes = bytes,
		.tclass = (uint8_t)tclass,
		.job = (uint8_t)r->job,
		.notify = r->ep[d],
		.notify_kind = TRF_EV_DELIVER,
		.cookie = ri,
		.cookie2 = (uint64_t)(uint32_t)s << 32 | r->ep[s],
	};
	m->sent++;
	m->bits += 8 * bytes;
	m->last_gen = now;
	r->msgs++;
	r->bytes += bytes;
	int rc = net_inject(w->net, w->ctx, &msg);
	if (rc < 0)
		refused(tw, r->ep[s], &msg, rc);
}

/* Payload of TRF_EV_ACK: which member of which of the sender's runs, and what was delivered. */
typedef struct trf_ack {
	uint64_t run;
	uint64_t member;
	uint64_t bytes;
	ncsim_time_t lat;
} trf_ack;
SIM_PAYLOAD_CHECK(trf_ack);

/*
 * The last byte of a generated message reached this endpoint's node: the
 * sender hears of it a control message's zero-load time later.
 */
static void on_deliver(sim_ctx *ctx, void *state, const sim_event *ev)
{
	trf_ep *ep = state;
	task_world *w = ep->tw->w;
	const net_delivery *d = SIM_PAYLOAD(ev, const net_delivery);
	trf_ack a = {.run = d->cookie, .member = d->cookie2 >> 32, .bytes = d->bytes, .lat = sim_now(ctx) - d->inject_time};
	ncsim_time_t back = w->net->ops->estimate(w->net, d->dst_node, d->src_node, w->mp.header_bytes);
	sim_send(ctx, (sim_eid)(uint32_t)d->cookie2, back, TRF_EV_ACK, &a, sizeof a);
}

/* One of this endpoint's member's messages was acknowledged: its latency and counts. */
static void on_ack(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	trf_ep *ep = state;
	trf_world *tw = ep->tw;
	const trf_ack *a = SIM_PAYLOAD(ev, const trf_ack);
	trf_run *r = tw->runs.ptr[a->run];
	int s = (int)a->member;
	r->dmsgs++;
	r->dbytes += a->bytes;
	r->lat_sum += a->lat;
	r->lat_min = a->lat < r->lat_min ? a->lat : r->lat_min;
	r->lat_max = a->lat > r->lat_max ? a->lat : r->lat_max;
	lh_add(r->lat, a->lat);
	r->m[s].delivered++;
	maybe_wake(tw, r, s);
}

/* ------------------------------------------------------------ VEF replay */

void rt_traffic_replay(rt_task *t, const rt_group *g, const char *path)
{
	trf_world *tw = trf_world_of(t);
	int me = coll_my_index(t, g, "traffic replay");
	vef_trace *v = NULL;
	for (size_t i = 0; i < tw->traces.len && !v; i++)
		if (!strcmp(tw->traces.ptr[i]->path, path))
			v = tw->traces.ptr[i];
	if (!v) {
		char *err = NULL;
		v = vef_load(path, &err);
		if (!v)
			task_fatal_err(t, err, NULL);
		VEC_PUSH(&tw->traces, v);
	}
	if (v->tasks > g->n)
		rt_fatal(t, "%s: the trace has %d tasks, more than the %d members of the group", path, v->tasks, g->n);
	/* The trace's tasks are the first members of the group; the others take no part. */
	rt_group sub = {.members = g->members, .n = v->tasks};
	if (me >= v->tasks)
		return;
	switch (v->model) {
	case VEF_DCNW:
	case VEF_CDCNW: rt_traffic_dcnw(t, &sub, &v->dcnw); break;
	case VEF_FLOWS: rt_traffic_flows(t, &sub, &v->flows); break;
	default: rt_traffic_horovod(t, &sub, &v->hvd); break;
	}
}

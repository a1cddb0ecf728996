/*
 * traffic_gen.c - DCNW/CDCNW and FLOWS generators (see traffic_gen.h).
 */
#include "runtime/traffic/gen.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/checked.h"
#include "runtime/traffic/traffic.h"

/* Payload of TRF_EV_DCNW and TRF_EV_FLOW. */
typedef struct trf_gen_ev {
	uint32_t run;
	int32_t member;
} trf_gen_ev;
SIM_PAYLOAD_CHECK(trf_gen_ev);

/*
 * Schedules `kind` on endpoint `ep` at base + round(clock) (never before now).
 * An arrival past the end of the clock fails the run on the task of member
 * p.member of run r (its statement's line): the checks at the start keep the
 * expected span below 2^64 ps, so only a freak draw gets here.
 */
static void schedule_at(sim_ctx *ctx, const trf_run *r, sim_eid ep, uint16_t kind, ncsim_time_t base, double clock,
                        trf_gen_ev p)
{
	ncsim_time_t when = ck_sat_add(base, ck_round_u64(clock)), now = sim_now(ctx);
	if (!ck_time_ok(when)) {
		rt_task *t = sim_entity_state(ctx, r->task_eid[p.member]);
		task_failf(t, "traffic: the next message would be generated past 2^64 ps (about 213 days), the end of "
		           "simulated time");
		return;
	}
	sim_send(ctx, ep, when > now ? when - now : 0, kind, &p, sizeof p);
}

/* "more than 2^64 ps" or "less than 1 ps" problems of a process of n arrivals of mean gap `gap` ps from `start`; NULL if none. */
static const char *span_problem(uint64_t n, double gap, ncsim_time_t start)
{
	if (n == 0)
		return NULL;
	if (!(gap >= 1.0))
		return "come less than 1 ps apart on average (the clock could not tell them apart, and the simulation "
		       "would not advance)";
	if (!((double)start + (double)n * gap < 18446744073709551616.0))
		return "would be generated over more than 2^64 ps (about 213 days), past the end of simulated time";
	return NULL;
}

/*
 * Starts member i's arrival process of mean gap `gap` (ps): its clock begins
 * with a draw from the calling task's stream, and event `kind` comes due on
 * the member's endpoint at the member's start + clock.
 */
static void start_process(trf_world *tw, rt_task *t, trf_run *r, int i, uint16_t kind, double gap, double *clock)
{
	*clock = trf_dest_exp(&trf_my_ep(tw, t)->rng, gap);
	schedule_at(tw->w->ctx, r, r->ep[i], kind, r->m[i].start, *clock,
	            (trf_gen_ev){.run = trf_run_index(tw, r), .member = i});
}

/* ------------------------------------------------------------ DCNW */

void rt_traffic_dcnw(rt_task *t, const rt_group *g, const rt_dcnw_params *p)
{
	trf_world *tw = trf_world_of(t);
	const char *label = p->model ? p->model : p->cdf_path ? p->cdf_path : "";
	int me, created;
	trf_run *r = trf_join(tw, t, g, p->model ? TRF_DCNW : TRF_CDCNW, label, &me, &created);
	if (created) {
		r->cdf = trf_cdf(tw, t, p->model, p->cdf_path);
		r->gbps = p->gbps > 0 ? p->gbps : 1.0;
		if (!isfinite(r->gbps))
			rt_fatal(t, "traffic: the rate must be a finite number of Gbps");
		/* mean gap = mean size in bits / rate, in ps */
		r->gap_mean = r->cdf->mean * 8.0 / (r->gbps * 1e9) * 1e12;
		r->count = p->count;
		/* The busiest member generates ceil(count / n) messages, one mean gap apart. */
		const char *why = span_problem(ck_div_up(p->count, (uint64_t)r->n), r->gap_mean, sim_now(tw->w->ctx));
		if (why)
			rt_fatal(t, "traffic: %" PRIu64 " messages over %d members at %g Gbps (one every %g ps per member) %s",
			         p->count, r->n, r->gbps, r->gap_mean, why);
		char *err = NULL;
		if (p->count > 0 && trf_dest_resolve(&r->dest, &p->dest, NULL, g->n, &err) < 0)
			task_fatal_err(t, err, NULL);
	}
	trf_member *m = &r->m[me];
	m->quota = r->count / (uint64_t)r->n + ((uint64_t)me < r->count % (uint64_t)r->n ? 1 : 0);
	if (m->quota == 0)
		trf_gen_done(tw, r, me);
	else
		start_process(tw, t, r, me, TRF_EV_DCNW, r->gap_mean, &m->clock);
	trf_wait(tw, t, r, me);
}

void trf_gen_on_dcnw(sim_ctx *ctx, void *state, const sim_event *ev)
{
	trf_ep *ep = state;
	trf_world *tw = ep->tw;
	trf_gen_ev p = *SIM_PAYLOAD(ev, const trf_gen_ev);
	trf_run *r = tw->runs.ptr[p.run];
	trf_member *m = &r->m[p.member];
	uint64_t bytes = trf_cdf_draw(r->cdf, trf_dest_unif_pos(&ep->rng));
	int d = trf_dest_draw(&r->dest, &ep->dst_rng, p.member);
	trf_inject(tw, r, p.run, p.member, d, bytes, NET_CLASS_DCNW);
	if (m->sent < m->quota) {
		m->clock += trf_dest_exp(&ep->rng, r->gap_mean);
		schedule_at(ctx, r, r->ep[p.member], TRF_EV_DCNW, m->start, m->clock, p);
	} else {
		trf_gen_done(tw, r, p.member);
	}
}

/* ------------------------------------------------------------ FLOWS */

/* Validates and resolves the classes of p into r (first member to arrive). */
static void flows_setup(rt_task *t, trf_run *r, const rt_flows_params *p)
{
	if (p->nclasses < 1 || !p->classes)
		rt_fatal(t, "FLOWS: at least one class is needed");
	r->count = p->count;
	r->duration = p->duration;
	r->flow_gap = p->count ? (double)p->duration / (double)p->count : 0;
	const char *why = span_problem(p->count, r->flow_gap, sim_now(t->w->ctx));
	if (why)
		rt_fatal(t, "FLOWS: %" PRIu64 " flows over %" PRIu64 " ps %s", p->count, (uint64_t)p->duration, why);
	r->nclasses = p->nclasses;
	r->cls = xcalloc((size_t)p->nclasses, sizeof *r->cls);
	double sum = 0;
	for (int c = 0; c < p->nclasses; c++) {
		const rt_flow_class *k = &p->classes[c];
		if (!(k->percent >= 0) || !isfinite(k->percent))
			rt_fatal(t, "FLOWS: class %d has a negative or invalid percentage (%g)", c, k->percent);
		if (k->min_bytes > k->max_bytes)
			rt_fatal(t, "FLOWS: class %d has its minimum size %" PRIu64 " above its maximum %" PRIu64, c,
			         k->min_bytes, k->max_bytes);
		sum += k->percent;
		r->cls[c].min = k->min_bytes;
		r->cls[c].max = k->max_bytes;
		r->cls[c].cum = sum / 100.0;
		char *err = NULL;
		if (p->count > 0 && trf_dest_resolve(&r->cls[c].dest, &k->dest, &p->dest, r->n, &err) < 0)
			task_fatal_err(t, err, NULL);
	}
	if (fabs(sum - 100.0) > 1e-6)
		rt_fatal(t, "FLOWS: the class percentages sum to %g, not 100", sum);
	r->cls[p->nclasses - 1].cum = 1.0;
}

/* Purpose tag of the stream every rank replays to split a FLOWS run's flows among its sources ("flowsplit"). */
#define TRF_STREAM_SPLIT 0x666c6f7773706c74ull

/*
 * The sources of a run's flows: flow k's source is uniform over the members,
 * drawn from the run's stream, so every rank that holds a member computes
 * the same split without a message.
 */
static void flows_split(trf_world *tw, trf_run *r)
{
	r->flow_quota = xcalloc((size_t)r->n, sizeof *r->flow_quota);
	sim_rng split;
	sim_rng_seed(&split, tw->w->seed, trf_dest_stream_key(TRF_STREAM_SPLIT, r->job, r->key));
	for (uint64_t k = 0; k < r->count; k++)
		r->flow_quota[trf_dest_below(&split, (uint64_t)r->n)]++;
}

/*
 * The next of a member's flows: its flows' start times are its quota's
 * uniform draws over the duration, in increasing order, drawn one at a time
 * (each the smallest of the remaining draws over what is left of the span).
 * The clock holds the latest as a fraction of the duration. ri: r's index.
 */
static void flows_next(trf_world *tw, trf_ep *ep, trf_run *r, uint32_t ri, int i)
{
	trf_member *m = &r->m[i];
	uint64_t left = m->quota - m->sent;
	double u = trf_dest_unif_pos(&ep->rng); /* in (0, 1] */
	m->clock = 1.0 - (1.0 - m->clock) * pow(u, 1.0 / (double)left);
	schedule_at(tw->w->ctx, r, r->ep[i], TRF_EV_FLOW, m->start, m->clock * (double)r->duration,
	            (trf_gen_ev){.run = ri, .member = i});
}

void rt_traffic_flows(rt_task *t, const rt_group *g, const rt_flows_params *p)
{
	trf_world *tw = trf_world_of(t);
	int me, created;
	trf_run *r = trf_join(tw, t, g, TRF_FLOWS, "flows", &me, &created);
	if (created) {
		flows_setup(t, r, p);
		flows_split(tw, r);
	}
	trf_member *m = &r->m[me];
	m->quota = r->flow_quota[me];
	m->clock = 0;
	if (m->quota == 0)
		trf_gen_done(tw, r, me);
	else
		flows_next(tw, trf_my_ep(tw, t), r, trf_run_index(tw, r), me);
	trf_wait(tw, t, r, me);
}

void trf_gen_on_flow(sim_ctx *ctx, void *state, const sim_event *ev)
{
	trf_ep *ep = state;
	trf_world *tw = ep->tw;
	trf_gen_ev p = *SIM_PAYLOAD(ev, const trf_gen_ev);
	trf_run *r = tw->runs.ptr[p.run];
	trf_member *m = &r->m[p.member];
	double u = trf_dest_unif_pos(&ep->rng);
	int c = 0;
	while (c < r->nclasses - 1 && r->cls[c].cum < u)
		c++;
	trf_class *k = &r->cls[c];
	uint64_t span = k->max - k->min + 1; /* 0: the whole 64-bit range */
	uint64_t bytes = k->min + (k->max == k->min ? 0 : span ? trf_dest_below(&ep->rng, span) : sim_rng_next(&ep->rng));
	int d = trf_dest_draw(&k->dest, &ep->dst_rng, p.member);
	k->flows++;
	r->flows_sent++;
	trf_inject(tw, r, p.run, p.member, d, bytes, NET_CLASS_FLOWS);
	if (m->sent < m->quota) {
		flows_next(tw, ep, r, p.run, p.member);
	} else {
		trf_gen_done(tw, r, p.member);
	}
}

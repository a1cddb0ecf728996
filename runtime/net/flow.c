/*
 * flow.c - the flow-level dragonfly (see flow.h): each message is a flow whose
 * rate is its max-min fair share of the links of its route.
 *
 * Links, one array (ids):
 *
 *   0 .. N-1                     injection: node n's NIC -> its router
 *   N + r * nports + port        router r's output `port` (terminal ports
 *                                are the ejection links, then local, global)
 *
 * Each flow holds up to FL_MAXL links (injection, at most five router-to-
 * router hops, ejection). Membership m = flow * FL_MAXL + k (the flow's k-th
 * link) is threaded in a doubly linked list per link through the flow's
 * lnext[k] / lprev[k], so adding or removing a flow costs O(links of its
 * route) and needs no allocation beyond the pooled flow records.
 *
 * Rates change only when a flow starts or ends, and only for the flows of the
 * connected component (through shared links) of the changed one: those are
 * found by a breadth-first walk, their remaining bytes advanced to now, and
 * their rates recomputed by progressive filling. Two cases skip the walk: a
 * flow that starts on links no other flow uses gets the slowest link's
 * bandwidth at once, and a flow that ends alone on its links changes nobody.
 * Other injections at one instant are batched into one recomputation.
 *
 * Events. The kernel cannot cancel events. A flow started alone keeps its
 * rate until another flow joins one of its links, so its end is a kernel
 * event of its own (FL_EV_SOLO), tagged with a generation number that a
 * later change of the flow voids. The other flows sit in a min-heap keyed by
 * their predicted end; the model keeps the times of its pending heap events
 * (FL_EV_DONE) on a stack, earliest on top: a new one is scheduled only when
 * the heap's minimum is earlier than every pending one, so each push is the
 * new earliest and each firing pops the top, and an event that finds nothing
 * due only schedules the next. A completed flow's delivery is sent to its
 * receiver at once, a path latency ahead: a message costs one completion
 * event and its delivery.
 *
 * Route cache. Under minimal routing a pair's route follows from the
 * topology alone unless a choice among several links draws from the model's
 * random stream (several global links between two groups). Routes that drew
 * nothing are kept per (source, destination) pair in a direct-mapped table,
 * with their latency and slowest bandwidth, so a message to a known pair
 * walks no router; one that drew is computed each time, as the draws must
 * happen. A tiny flow on a kept route adds its bytes to the entry instead of
 * to each of its links and their label rows (one cache line instead of two
 * per link); the entry hands them on when it is replaced and before the link
 * statistics are read (routes_flush): integer sums, so the same totals.
 *
 *   fl_route (64 bytes, line-aligned)
 *   +-----------------+----------+-------------+-----------------+---------+--------+
 *   | key: src<<32|dst| lat (ps) | minbw (B/s) | link[8] (32 B)  | pend    | nl lab |
 *   +-----------------+----------+-------------+-----------------+---------+--------+
 */
#include "runtime/net/flow.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/checked.h"
#include "base/memlimit.h"
#include "base/util.h"
#include "runtime/net/linklabel.h"
#include "runtime/net/dragonfly_model.h" /* df_skip_two: the same uniform draw of an intermediate */

#define FL_MAXL 8u        /* links of a route: 2 terminal + at most 5 router-to-router */
#define FL_NONE 0xffffffffu
#define FL_NEVER UINT64_MAX
/* A flow whose bytes take less than this at its slowest link's bandwidth skips the sharing (see fl_inject()). */
/* A share below this (bytes/s) is raised to it, so a rounding residue never makes a flow wait forever. */
#define FL_MIN_RATE 1e-3

enum { FL_EV_DONE = 0, FL_EV_BATCH, FL_EV_SOLO };

/* FL_EV_SOLO's payload: the end of flow f, valid while the flow's gen is still `gen`. */
typedef struct fl_solo_ev {
	uint64_t gen;
	uint32_t f;
} fl_solo_ev;

typedef struct fl_link {
	double cap;              /* bytes/s */
	ncsim_time_t lat;        /* its propagation delay (the latency of its class) */
	double rem;              /* progressive filling: capacity not yet given out */
	double share;            /* and rem / nun, its fair share of it (kept, not divided at every round) */
	double kmax;             /* reshare(): the highest rate of its flows that keep theirs */
	uint32_t head;           /* first membership, FL_NONE if no flow */
	uint32_t nflows, nun;    /* flows crossing it; those without a rate yet (filling) */
	uint64_t stamp;          /* component walk that reached it */
	uint64_t bytes;          /* bytes of the flows completed across it */
	ncsim_time_t busy, busy_since, sat, sat_since;
} fl_link;

typedef struct fl_flow {
	uint32_t link[FL_MAXL];
	uint32_t lnext[FL_MAXL], lprev[FL_MAXL];
	double rate, left;       /* bytes/s; bytes still to send at `since` */
	double old;              /* reshare(): the rate before the recomputation */
	ncsim_time_t since, lat, inject_time;
	uint64_t stamp;
	uint64_t gen;            /* solo: the tag of its live FL_EV_SOLO event; 0 otherwise */
	uint64_t bytes, cookie, cookie2;
	uint32_t src, dst, next, hpos; /* next: free list; hpos: heap slot or FL_NONE */
	sim_eid notify, sent_to;
	uint16_t notify_kind;
	uint8_t nl, tclass, nonmin, fixed;
	uint8_t want_sent;       /* net_msg.want_sent: tell sent_to when the last byte leaves */
	uint8_t label;           /* (job, class) label: links_by_class.csv */
	uint8_t solo;            /* started alone: its own completion event, not in the heap */
	uint8_t fresh;           /* injected, waiting for its first rate (always recomputed) */
} fl_flow;

typedef struct fl_hent {
	ncsim_time_t fin;        /* predicted time the flow's last byte leaves its bottleneck */
	uint32_t f;
} fl_hent;

/* A kept route (see the top of the file); key FL_RKEY_NONE: an empty slot. */
typedef struct fl_route {
	uint64_t key;
	ncsim_time_t lat;        /* route_latency() */
	double minbw;            /* its slowest link's bandwidth */
	uint32_t link[FL_MAXL];
	uint32_t pend;           /* bytes of tiny flows not yet added to the links */
	uint8_t nl, label;       /* links; the label of pend */
} fl_route;
_Static_assert(sizeof(fl_route) == 64, "a kept route fills one cache line");
#define FL_RKEY_NONE UINT64_MAX /* no pair has it: node ids are below 2^32 - 1 */
#define FL_ROUTES_MIN 256u
#define FL_ROUTES_MAX 16384u

typedef struct fl_model {
	net_model base;
	df_config cfg;
	df_topo topo;
	sim_ctx *ctx;
	sim_eid self;
	uint32_t nlinks;
	fl_link *links;
	nl_labels labels;        /* bytes per link and (job, class), slots = link indices */
	VEC(fl_flow) flows;
	uint32_t free_flow;
	VEC(fl_hent) heap;       /* flows in flight, min (fin, id) first */
	VEC(uint32_t) clinks, cflows, seeds;
	VEC(uint32_t) active;    /* fill(): the component's links with flows still without a rate */
	VEC(ncsim_time_t) pending; /* times of the completion events in the kernel, earliest last */
	uint64_t stamp, open, gen;
	int bad;                 /* fill(): a bottleneck's share fell below a rate kept on it */
	double cut;              /* flows below this rate keep theirs at the next reshare (see reshare()) */
	int batch_live;
	int exact;               /* tests: no fast path, every change recomputes its whole component */
	ncsim_time_t tiny;       /* flows shorter than this at full speed skip the sharing; 0: none do */
	fl_route *routes;        /* minimal routing: the route cache, NULL otherwise */
	uint32_t rmask;          /* its slots - 1 */
	uint64_t draws;          /* random draws of the routes so far (a route that drew is not kept) */
} fl_model;

/* --------------------------------------------------------------- links */

static uint32_t port_link(const fl_model *m, uint32_t r, uint32_t port)
{
	return m->topo.nnodes + r * m->topo.nports + port;
}

static enum df_class link_class(const fl_model *m, uint32_t l)
{
	return l < m->topo.nnodes ? DF_TERMINAL : df_topo_class(&m->topo, (l - m->topo.nnodes) % m->topo.nports);
}

/* Threads membership k of flow f onto its link; the link becomes busy with its first flow. */
static void link_attach(fl_model *m, uint32_t f, unsigned k)
{
	fl_flow *F = &m->flows.ptr[f];
	fl_link *L = &m->links[F->link[k]];
	uint32_t mid = f * FL_MAXL + k;
	F->lprev[k] = FL_NONE;
	F->lnext[k] = L->head;
	if (L->head != FL_NONE)
		m->flows.ptr[L->head / FL_MAXL].lprev[L->head % FL_MAXL] = mid;
	L->head = mid;
	if (!L->nflows++)
		L->busy_since = sim_now(m->ctx);
}

static void link_detach(fl_model *m, uint32_t f, unsigned k)
{
	fl_flow *F = &m->flows.ptr[f];
	fl_link *L = &m->links[F->link[k]];
	uint32_t p = F->lprev[k], n = F->lnext[k];
	if (p != FL_NONE)
		m->flows.ptr[p / FL_MAXL].lnext[p % FL_MAXL] = n;
	else
		L->head = n;
	if (n != FL_NONE)
		m->flows.ptr[n / FL_MAXL].lprev[n % FL_MAXL] = p;
	L->bytes += F->bytes;
	nl_add(&m->labels, F->label, F->link[k], F->bytes);
	if (!--L->nflows) {
		ncsim_time_t now = sim_now(m->ctx);
		L->busy += now - L->busy_since;
		if (L->sat_since != FL_NEVER) {
			L->sat += now - L->sat_since;
			L->sat_since = FL_NEVER;
		}
	}
}

/* --------------------------------------------------------------- heap of completions */

/* Entries carry the end time, so that ordering them reads no flow record. */
static int heap_less(fl_hent a, fl_hent b) { return a.fin < b.fin || (a.fin == b.fin && a.f < b.f); }

static void heap_set(fl_model *m, size_t i, fl_hent e)
{
	m->heap.ptr[i] = e;
	m->flows.ptr[e.f].hpos = (uint32_t)i;
}

/* Restores the heap order around slot i (up or down). */
static void heap_fix(fl_model *m, size_t i)
{
	fl_hent e = m->heap.ptr[i];
	while (i > 0 && heap_less(e, m->heap.ptr[(i - 1) / 2])) {
		heap_set(m, i, m->heap.ptr[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= m->heap.len)
			break;
		if (c + 1 < m->heap.len && heap_less(m->heap.ptr[c + 1], m->heap.ptr[c]))
			c++;
		if (!heap_less(m->heap.ptr[c], e))
			break;
		heap_set(m, i, m->heap.ptr[c]);
		i = c;
	}
	heap_set(m, i, e);
}

/* Files flow f under end time `fin`, or moves it there. */
static void heap_update(fl_model *m, uint32_t f, ncsim_time_t fin)
{
	fl_hent e = {.fin = fin, .f = f};
	uint32_t *pos = &m->flows.ptr[f].hpos;
	if (*pos == FL_NONE) {
		VEC_PUSH(&m->heap, e);
		*pos = (uint32_t)(m->heap.len - 1);
	} else if (m->heap.ptr[*pos].fin == fin) {
		return;
	} else {
		m->heap.ptr[*pos] = e;
	}
	heap_fix(m, *pos);
}

/* Takes the earliest flow off the heap. */
static uint32_t heap_pop(fl_model *m)
{
	uint32_t f = m->heap.ptr[0].f;
	m->flows.ptr[f].hpos = FL_NONE;
	fl_hent last = m->heap.ptr[--m->heap.len];
	if (m->heap.len) {
		m->heap.ptr[0] = last;
		heap_fix(m, 0);
	}
	return f;
}

/* --------------------------------------------------------------- max-min sharing */

static void reach_link(fl_model *m, uint32_t l)
{
	if (m->links[l].stamp != m->stamp) {
		m->links[l].stamp = m->stamp;
		VEC_PUSH(&m->clinks, l);
	}
}

/*
 * The flows to recompute, in m->cflows, and their links, in m->clinks: those
 * connected to the seed links through shared links and through flows that
 * are new or whose rate is at least `keep` (flows below it keep their rates
 * and are not walked through). Each link reached gets, for the filling, its
 * capacity less the rates kept (rem) and its flows to recompute (nun).
 */
static void component(fl_model *m, double keep)
{
	m->stamp++;
	m->clinks.len = m->cflows.len = 0;
	for (size_t i = 0; i < m->seeds.len; i++)
		reach_link(m, m->seeds.ptr[i]);
	for (size_t i = 0; i < m->clinks.len; i++) {
		fl_link *L = &m->links[m->clinks.ptr[i]];
		double kept = 0, kmax = 0;
		uint32_t nun = 0;
		for (uint32_t mid = L->head; mid != FL_NONE;) {
			uint32_t f = mid / FL_MAXL;
			fl_flow *F = &m->flows.ptr[f];
			mid = F->lnext[mid % FL_MAXL];
			if (!F->fresh && F->rate < keep) {
				kept += F->rate;
				kmax = F->rate > kmax ? F->rate : kmax;
				continue;
			}
			nun++;
			if (F->stamp == m->stamp)
				continue;
			F->stamp = m->stamp;
			F->fixed = 0;
			F->old = F->rate;
			VEC_PUSH(&m->cflows, f);
			for (unsigned k = 0; k < F->nl; k++)
				reach_link(m, F->link[k]);
		}
		L->rem = kept < L->cap ? L->cap - kept : 0;
		L->nun = nun;
		L->kmax = kmax;
	}
}

/*
 * Gives every flow of link l still to fix the share s and takes it from each
 * link of its route. A share below a kept rate of l is not max-min: m->bad.
 */
static size_t fix_flows(fl_model *m, uint32_t l, double s)
{
	size_t n = 0;
	if (s < m->links[l].kmax)
		m->bad = 1;
	for (uint32_t mid = m->links[l].head; mid != FL_NONE;) {
		fl_flow *F = &m->flows.ptr[mid / FL_MAXL];
		mid = F->lnext[mid % FL_MAXL];
		if (F->stamp != m->stamp || F->fixed)
			continue; /* kept, or fixed by an earlier bottleneck */
		F->fixed = 1;
		F->rate = s;
		n++;
		for (unsigned k = 0; k < F->nl; k++) {
			fl_link *L = &m->links[F->link[k]];
			L->rem -= s;
			if (--L->nun)
				L->share = L->rem / L->nun;
		}
	}
	return n;
}

/*
 * Progressive filling over the flows of m->cflows: the link with the smallest
 * fair share (remaining capacity / flows without a rate) is the next
 * bottleneck (the first of m->clinks on a tie); its flows get that share,
 * which the other links of their routes give up. Each round scans the links
 * that still have flows without a rate, kept in order in m->active.
 */
static void fill(fl_model *m)
{
	m->active.len = 0;
	for (size_t i = 0; i < m->clinks.len; i++) {
		fl_link *L = &m->links[m->clinks.ptr[i]];
		if (L->nun) {
			L->share = L->rem / L->nun;
			VEC_PUSH(&m->active, m->clinks.ptr[i]);
		}
	}
	size_t left = m->cflows.len;
	while (left) {
		uint32_t best = FL_NONE;
		double bs = INFINITY;
		size_t n = 0;
		for (size_t i = 0; i < m->active.len; i++) {
			uint32_t l = m->active.ptr[i];
			const fl_link *L = &m->links[l];
			if (!L->nun)
				continue; /* every flow of L has its rate: out of the list */
			m->active.ptr[n++] = l;
			if (L->share < bs) {
				bs = L->share;
				best = l;
			}
		}
		m->active.len = n;
		left -= fix_flows(m, best, bs > FL_MIN_RATE ? bs : FL_MIN_RATE);
	}
}

/* The completion time of a flow with `left` bytes at `rate` from now, rounded up to a whole ps. */
static ncsim_time_t finish_at(ncsim_time_t now, double left, double rate)
{
	if (!(left > 0))
		return now;
	double t = ceil(left * 1e12 / rate);
	return t >= 1.8e19 ? FL_NEVER : ck_sat_add(now, (uint64_t)t);
}

/* Schedules a completion event for the earliest end unless one is pending at or before it. */
static void reschedule(fl_model *m)
{
	if (!m->heap.len)
		return;
	ncsim_time_t t = m->heap.ptr[0].fin;
	if (m->pending.len && m->pending.ptr[m->pending.len - 1] <= t)
		return;
	VEC_PUSH(&m->pending, t);
	sim_send(m->ctx, m->self, t - sim_now(m->ctx), FL_EV_DONE, NULL, 0);
}

/* Opens or closes L's saturated interval after its flows got their rates (L->rem: what they leave). */
static void note_saturation(fl_link *L, ncsim_time_t now)
{
	int sat = L->nflows && L->rem <= L->cap * 1e-9;
	if (sat && L->sat_since == FL_NEVER)
		L->sat_since = now;
	else if (!sat && L->sat_since != FL_NEVER) {
		L->sat += now - L->sat_since;
		L->sat_since = FL_NEVER;
	}
}

/* The highest rate among the flows of L that have one: the level at which L is a bottleneck if saturated. */
static double link_level(const fl_model *m, const fl_link *L)
{
	double lv = 0;
	for (uint32_t mid = L->head; mid != FL_NONE;) {
		const fl_flow *F = &m->flows.ptr[mid / FL_MAXL];
		mid = F->lnext[mid % FL_MAXL];
		if (!F->fresh && F->rate > lv)
			lv = F->rate;
	}
	return lv;
}

/*
 * Recomputes the rates after the changes of this instant (flows started and
 * ended, whose links are the seeds) and schedules the completion event.
 *
 * Not every flow of the component can change. Progressive filling fixes
 * flows in the order of their rates; up to the first level at which a
 * changed link saturates (m->cut: no higher than the rate of a flow that
 * ended, nor than the level of a saturated link a new flow joins), it runs
 * the same before and after the change. So the flows below the cut keep
 * their rates: each still has its bottleneck, whose flows are all below the
 * cut and unchanged. The others are refilled on what the kept ones leave
 * of their links. That is the max-min allocation if none of them falls
 * below the floor (each is then the fastest flow of its bottleneck, kept
 * ones included); if one does, the cut was too high and the whole component
 * is recomputed. Flows whose rate did not change keep their remaining bytes,
 * completion time and completion event as they were.
 */
static void reshare(fl_model *m)
{
	if (!m->seeds.len)
		return;
	ncsim_time_t now = sim_now(m->ctx);
	double keep = m->exact ? 0 : m->cut * (1 - 1e-9); /* rounding: a flow at the cut's level is refilled */
	m->cut = INFINITY;
	m->bad = 0;
	component(m, keep);
	fill(m);
	if (m->bad) {
		for (size_t i = 0; i < m->cflows.len; i++) {
			fl_flow *F = &m->flows.ptr[m->cflows.ptr[i]];
			F->rate = F->old;
		}
		component(m, 0);
		fill(m);
	}
	m->seeds.len = 0;
	for (size_t i = 0; i < m->cflows.len; i++) {
		uint32_t f = m->cflows.ptr[i];
		fl_flow *F = &m->flows.ptr[f];
		if (F->rate == F->old)
			continue;
		F->left -= F->old * (double)(now - F->since) / 1e12;
		if (F->left < 0)
			F->left = 0;
		F->since = now;
		F->fresh = 0;
		F->solo = 0; /* into the heap: a pending FL_EV_SOLO of F no longer matches */
		F->gen = 0;
		heap_update(m, f, finish_at(now, F->left, F->rate));
	}
	for (size_t i = 0; i < m->clinks.len; i++)
		note_saturation(&m->links[m->clinks.ptr[i]], now);
	reschedule(m);
}

/*
 * A flow whose links carry no other flow is a component of its own: max-min
 * gives it the smallest capacity of its route, as fill() would, with no walk.
 * It keeps that rate until another flow joins one of its links (reshare()
 * then moves it into the heap), so its end can be a kernel event of its own.
 */
static void start_alone(fl_model *m, uint32_t f)
{
	ncsim_time_t now = sim_now(m->ctx);
	fl_flow *F = &m->flows.ptr[f];
	double s = INFINITY;
	for (unsigned k = 0; k < F->nl; k++)
		if (m->links[F->link[k]].cap < s)
			s = m->links[F->link[k]].cap;
	F->rate = s > FL_MIN_RATE ? s : FL_MIN_RATE;
	for (unsigned k = 0; k < F->nl; k++) {
		fl_link *L = &m->links[F->link[k]];
		L->rem = L->cap - F->rate;
		note_saturation(L, now);
	}
	F->solo = 1;
	F->gen = ++m->gen;
	fl_solo_ev e = {.gen = F->gen, .f = f};
	sim_send(m->ctx, m->self, finish_at(now, F->left, F->rate) - now, FL_EV_SOLO, &e, sizeof e);
}

/* --------------------------------------------------------------- routes */

static uint32_t rnd(fl_model *m, uint32_t n)
{
	m->draws++;
	return (uint32_t)(sim_rng_u64(m->ctx, m->self) % n);
}

/*
 * Minimal routing's port at router r towards group g, as the packet model
 * chooses it: the router's own global link to g (a random one if several),
 * else the local link to a random router of the group that has one.
 */
static uint32_t toward_group(fl_model *m, uint32_t r, uint32_t g)
{
	const df_topo *T = &m->topo;
	uint32_t cg = r / T->a, ri = r % T->a;
	const uint32_t *lo = T->gw + T->gw_start[(size_t)cg * T->g + g];
	uint32_t n = T->gw_start[(size_t)cg * T->g + g + 1] - T->gw_start[(size_t)cg * T->g + g], own = 0;
	for (uint32_t i = 0; i < n; i++)
		own += (lo[i] >> 8) == ri;
	if (own) {
		uint32_t pick = own > 1 ? rnd(m, own) : 0;
		for (uint32_t i = 0; i < n; i++)
			if ((lo[i] >> 8) == ri && !pick--)
				return df_topo_global_port(T, lo[i] & 0xff);
	}
	return df_topo_local_port(T, ri, lo[n > 1 ? rnd(m, n) : 0] >> 8);
}

/*
 * Appends the router links from router *r to router `target`, or (to_group)
 * to any router of group `target`. 0, or -1 if the route would outgrow FL_MAXL.
 */
static int walk(fl_model *m, fl_flow *F, uint32_t *r, uint32_t target, int to_group)
{
	const df_topo *T = &m->topo;
	while (to_group ? *r / T->a != target : *r != target) {
		if (F->nl + 2u > FL_MAXL)
			return -1;
		uint32_t g = to_group ? target : target / T->a;
		uint32_t port = *r / T->a == g ? df_topo_local_port(T, *r % T->a, target % T->a) : toward_group(m, *r, g);
		F->link[F->nl++] = port_link(m, *r, port);
		*r = T->peer[(size_t)*r * T->nports + port];
	}
	return 0;
}

/* The router links of F's route (injection link already in place), minimal or through an intermediate. */
static void route_links(fl_model *m, fl_flow *F, int nonmin)
{
	const df_topo *T = &m->topo;
	uint32_t r = F->src / T->p, dr = F->dst / T->p, cg = r / T->a, dg = dr / T->a;
	F->nonmin = 0;
	if (nonmin && r != dr) {
		if (cg == dg && T->a >= 3) {
			uint32_t inter = cg * T->a + df_skip_two(rnd(m, T->a - 2), r % T->a, dr % T->a);
			(void)walk(m, F, &r, inter, 0);
			F->nonmin = 1;
		} else if (cg != dg && T->g >= 3) {
			(void)walk(m, F, &r, df_skip_two(rnd(m, T->g - 2), cg, dg), 1);
			F->nonmin = 1;
		}
	}
	(void)walk(m, F, &r, dr, 0);
}

/* The most flows on one router-to-router link of F's route: UGAL's load estimate. */
static uint32_t route_load(const fl_model *m, const fl_flow *F)
{
	uint32_t q = 0;
	for (unsigned k = 1; k + 1 < F->nl; k++)
		if (m->links[F->link[k]].nflows > q)
			q = m->links[F->link[k]].nflows;
	return q;
}

/*
 * Fills F's links. Valiant goes through a random intermediate; UGAL and PAR
 * decide once, at the start: the minimal route unless its most crowded link
 * carries more than twice the flows of the non-minimal one's.
 */
static void route(fl_model *m, fl_flow *F)
{
	const df_topo *T = &m->topo;
	F->nl = 0;
	F->link[F->nl++] = F->src;
	enum df_routing alg = m->cfg.routing;
	route_links(m, F, alg == DF_ROUTE_VALIANT);
	if (alg == DF_ROUTE_UGAL || alg == DF_ROUTE_PAR) {
		fl_flow alt = *F;
		alt.nl = 1;
		route_links(m, &alt, 1);
		if (alt.nonmin && route_load(m, F) > 2 * route_load(m, &alt))
			*F = alt;
	}
	uint32_t dr = F->dst / T->p;
	F->link[F->nl++] = port_link(m, dr, F->dst % T->p);
}

/* Zero-load latency of a route: every link's propagation delay and a router delay per router crossed. */
static ncsim_time_t route_latency(const fl_model *m, const fl_flow *F, double *minbw)
{
	ncsim_time_t t = (ncsim_time_t)(F->nl - 1) * m->cfg.router_delay;
	*minbw = INFINITY;
	for (unsigned k = 0; k < F->nl; k++) {
		const fl_link *L = &m->links[F->link[k]];
		t += L->lat;
		if (L->cap < *minbw)
			*minbw = L->cap;
	}
	return t;
}

/* Adds `bytes` of label lab to every link of a route. */
static void route_add(fl_model *m, const uint32_t *link, unsigned nl, uint8_t lab, uint64_t bytes)
{
	for (unsigned k = 0; k < nl; k++) {
		m->links[link[k]].bytes += bytes;
		nl_add(&m->labels, lab, link[k], bytes);
	}
}

/* Hands R's pending bytes to its links. */
static void route_flush(fl_model *m, fl_route *R)
{
	if (R->pend)
		route_add(m, R->link, R->nl, R->label, R->pend);
	R->pend = 0;
}

/* Every kept route's pending bytes to its links: before the link statistics are read. */
static void routes_flush(fl_model *m)
{
	for (uint32_t i = 0; m->routes && i <= m->rmask; i++)
		route_flush(m, &m->routes[i]);
}

/* Counts a tiny flow of label lab on route R: in the entry while its label and 32 bits allow. */
static void route_count(fl_model *m, fl_route *R, uint8_t lab, uint64_t bytes)
{
	if (R->pend && (R->label != lab || bytes > UINT32_MAX - R->pend))
		route_flush(m, R);
	if (bytes > UINT32_MAX) {
		route_add(m, R->link, R->nl, lab, bytes);
		return;
	}
	R->label = lab;
	R->pend += (uint32_t)bytes;
}

/*
 * The minimal route of (src, dst): the kept one, else computed, and kept if
 * it drew nothing (the slot's previous route hands on its bytes first);
 * one that drew is returned in *tmp, not kept.
 */
static fl_route *route_of(fl_model *m, uint32_t src, uint32_t dst, fl_route *tmp)
{
	uint64_t key = (uint64_t)src << 32 | dst;
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32);
	fl_route *R = &m->routes[h & m->rmask];
	if (R->key == key)
		return R;
	fl_flow F = {.src = src, .dst = dst};
	uint64_t draws = m->draws;
	route(m, &F);
	if (m->draws == draws)
		route_flush(m, R);
	else
		R = tmp;
	*R = (fl_route){.key = key, .nl = F.nl};
	memcpy(R->link, F.link, sizeof R->link);
	R->lat = route_latency(m, &F, &R->minbw);
	return R;
}

/* --------------------------------------------------------------- events */

static uint32_t flow_new(fl_model *m)
{
	if (m->free_flow != FL_NONE) {
		uint32_t f = m->free_flow;
		m->free_flow = m->flows.ptr[f].next;
		return f;
	}
	VEC_GROW(&m->flows, m->flows.len + 1);
	return (uint32_t)m->flows.len++;
}

/*
 * Hands a delivery to entity `to` (handler `kind`) `lat` from now and counts
 * it delivered; want_sent: entity sent_to hears `sent` from now that its
 * last byte left. Filled in place in the event.
 */
static void deliver_to(fl_model *m, const net_delivery *d, sim_eid to, uint16_t kind, ncsim_time_t lat,
                       int want_sent, sim_eid sent_to, ncsim_time_t sent)
{
	m->base.totals.msgs_delivered[d->tclass]++;
	m->base.totals.bytes_delivered[d->tclass] += d->bytes;
	sim_event *ev = sim_event_new(m->ctx, to, lat, kind);
	*SIM_PAYLOAD(ev, net_delivery) = *d;
	sim_schedule(m->ctx, ev);
	if (want_sent)
		net_send_sent(m->ctx, sent_to, kind, sent, d->cookie, d->cookie2, d->bytes, d->src_node, d->dst_node,
		              d->tclass);
}

/* Hands F's delivery to its receiver a path latency from now and counts it delivered. */
static void deliver(fl_model *m, const fl_flow *F, ncsim_time_t sent)
{
	net_delivery d = {
		.cookie = F->cookie, .cookie2 = F->cookie2, .bytes = F->bytes, .src_node = F->src, .dst_node = F->dst,
		.inject_time = F->inject_time, .hops = (uint16_t)(F->nl - 2), .tclass = F->tclass, .nonminimal = F->nonmin,
	};
	/* Its last byte leaves now, at its bottleneck's pace (a tiny flow: xfer after injection, in `sent`). */
	deliver_to(m, &d, F->notify, F->notify_kind, F->lat, F->want_sent, F->sent_to, sent);
}

/*
 * A flow of no bytes, or one so short that it would be over in a few tens of
 * ns (protocol headers, RDMA requests, acknowledgements), does not enter the
 * sharing: it takes its route's latency plus its bytes at its slowest link's
 * bandwidth, as if alone, and its bytes are counted on its links. Every such
 * flow would otherwise cost two recomputations of the flows around it for
 * almost no change of their rates (doc/dragonfly.md, "Flow level").
 */
static void deliver_tiny(fl_model *m, fl_flow *F, ncsim_time_t xfer)
{
	route_add(m, F->link, F->nl, F->label, F->bytes);
	F->lat += xfer;
	deliver(m, F, xfer);
}

/* deliver_tiny for msg, of label lab, on route R (kept or not), with no flow record. */
static void deliver_tiny_on(fl_model *m, const net_msg *msg, uint8_t tclass, uint8_t lab, fl_route *R, int kept,
                            ncsim_time_t xfer)
{
	if (kept)
		route_count(m, R, lab, msg->bytes);
	else
		route_add(m, R->link, R->nl, lab, msg->bytes);
	net_delivery d = {
		.cookie = msg->cookie, .cookie2 = msg->cookie2, .bytes = msg->bytes, .src_node = msg->src_node,
		.dst_node = msg->dst_node, .inject_time = sim_now(m->ctx), .hops = (uint16_t)(R->nl - 2), .tclass = tclass,
	};
	deliver_to(m, &d, msg->notify, msg->notify_kind, R->lat + xfer, msg->want_sent, msg->sent_to, xfer);
}

static void flow_free(fl_model *m, uint32_t f)
{
	m->flows.ptr[f].next = m->free_flow;
	m->free_flow = f;
}

static int fl_inject(net_model *nm, sim_ctx *ctx, const net_msg *msg)
{
	fl_model *m = (fl_model *)nm;
	if (msg->src_node >= nm->nnodes || msg->dst_node >= nm->nnodes)
		return NET_EBADNODE;
	ncsim_time_t now = sim_now(ctx);
	uint8_t tclass = msg->tclass < NET_NCLASSES ? msg->tclass : NET_CLASS_MPI;
	uint8_t lab = nl_label(&m->labels, msg->job, tclass);
	fl_route tmp, *R = NULL;
	if (m->routes) {
		/* Minimal routing: the route, its latency and bandwidth from the cache; a tiny flow needs no record. */
		R = route_of(m, msg->src_node, msg->dst_node, &tmp);
		ncsim_time_t xfer = ck_xfer_ps(msg->bytes, R->minbw);
		if (!ck_time_ok(ck_sat_add(ck_sat_add(now, xfer), R->lat)))
			return NET_ETIME;
		if (!msg->bytes || (!m->exact && xfer < m->tiny)) {
			nm->totals.msgs_injected[tclass]++;
			nm->totals.bytes_injected[tclass] += msg->bytes;
			deliver_tiny_on(m, msg, tclass, lab, R, R != &tmp, xfer);
			return 0;
		}
	}
	uint32_t f = flow_new(m);
	fl_flow *F = &m->flows.ptr[f];
	*F = (fl_flow){
		.src = msg->src_node, .dst = msg->dst_node, .bytes = msg->bytes, .left = (double)msg->bytes,
		.cookie = msg->cookie, .cookie2 = msg->cookie2, .notify = msg->notify, .notify_kind = msg->notify_kind,
		.tclass = tclass, .inject_time = now,
		.since = now, .hpos = FL_NONE, .sent_to = msg->sent_to, .want_sent = msg->want_sent,
	};
	F->label = lab;
	double minbw;
	if (R) {
		F->nl = R->nl;
		memcpy(F->link, R->link, sizeof F->link);
		F->lat = R->lat;
		minbw = R->minbw;
	} else {
		route(m, F);
		F->lat = route_latency(m, F, &minbw);
	}
	ncsim_time_t xfer = ck_xfer_ps(F->bytes, minbw);
	if (!ck_time_ok(ck_sat_add(ck_sat_add(now, xfer), F->lat))) {
		flow_free(m, f);
		return NET_ETIME;
	}
	nm->totals.msgs_injected[F->tclass]++;
	nm->totals.bytes_injected[F->tclass] += F->bytes;
	if (!F->bytes || (!m->exact && xfer < m->tiny)) {
		deliver_tiny(m, F, xfer);
		flow_free(m, f);
		return 0;
	}
	m->open++;
	int alone = 1;
	for (unsigned k = 0; k < F->nl; k++) {
		link_attach(m, f, k);
		alone &= m->links[F->link[k]].nflows == 1;
	}
	if (alone && !m->exact) {
		start_alone(m, f);
		return 0;
	}
	F->fresh = 1;
	for (unsigned k = 0; k < F->nl; k++) {
		const fl_link *L = &m->links[F->link[k]];
		VEC_PUSH(&m->seeds, F->link[k]);
		if (L->sat_since != FL_NEVER) { /* saturated: its flows above its level may change */
			double lv = link_level(m, L);
			if (lv < m->cut)
				m->cut = lv;
		}
	}
	if (!m->batch_live) { /* every shared injection of this instant joins one recomputation */
		m->batch_live = 1;
		sim_send(ctx, m->self, 0, FL_EV_BATCH, NULL, 0);
	}
	return 0;
}

static void on_batch(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx, (void)ev;
	fl_model *m = state;
	m->batch_live = 0;
	reshare(m);
}

/*
 * Flow f's last byte has left its bottleneck: its delivery goes out, due a
 * path latency later, and the links it leaves to other flows seed a reshare.
 */
static void complete(fl_model *m, uint32_t f)
{
	fl_flow *F = &m->flows.ptr[f];
	for (unsigned k = 0; k < F->nl; k++) {
		link_detach(m, f, k);
		if (m->links[F->link[k]].nflows || m->exact) {
			VEC_PUSH(&m->seeds, F->link[k]);
			if (F->rate < m->cut) /* the flows slower than F keep their rates */
				m->cut = F->rate;
		}
	}
	deliver(m, F, 0);
	m->open--;
	flow_free(m, f);
}

/* The heap's flows due now end; the flows that shared their links get new rates. */
static void on_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ev;
	fl_model *m = state;
	ncsim_time_t now = sim_now(ctx);
	m->pending.len--; /* this event: the earliest pending one */
	while (m->heap.len && m->heap.ptr[0].fin <= now)
		complete(m, heap_pop(m));
	reshare(m);
	reschedule(m);
}

/* A solo flow ends, unless it has joined a component since (then the heap has it). */
static void on_solo(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	fl_model *m = state;
	const fl_solo_ev *e = SIM_PAYLOAD(ev, const fl_solo_ev);
	if (m->flows.ptr[e->f].gen != e->gen)
		return;
	complete(m, e->f);
	reshare(m);
}

static const sim_handler fl_handlers[] = {[FL_EV_DONE] = on_done, [FL_EV_BATCH] = on_batch, [FL_EV_SOLO] = on_solo};
static const sim_type fl_type = {.name = "flow-network", .handlers = fl_handlers, .nhandlers = 3};

/* --------------------------------------------------------------- net_ops */

/*
 * A lone flow on the minimal route: the path's latency plus the bytes at the
 * slowest link's bandwidth, which is what its delivery takes. The route is
 * the one minimal routing picks first (the source router's own global link,
 * else the group's first), without drawing from the model's random stream.
 */
static ncsim_time_t fl_estimate(net_model *nm, uint32_t src, uint32_t dst, uint64_t bytes)
{
	fl_model *m = (fl_model *)nm;
	const df_topo *T = &m->topo;
	if (src >= nm->nnodes || dst >= nm->nnodes)
		return 0;
	uint32_t rs = src / T->p, rd = dst / T->p, gs = rs / T->a, gd = rd / T->a;
	fl_flow F = {.src = src, .dst = dst, .nl = 1, .link = {src}};
	if (rs != rd && gs == gd)
		F.link[F.nl++] = port_link(m, rs, df_topo_local_port(T, rs % T->a, rd % T->a));
	if (gs != gd) {
		const uint32_t *lo = T->gw + T->gw_start[(size_t)gs * T->g + gd];
		const uint32_t *hi = T->gw + T->gw_start[(size_t)gs * T->g + gd + 1], *pick = lo;
		for (const uint32_t *q = lo; q < hi; q++)
			if ((*q >> 8) == rs % T->a) {
				pick = q;
				break;
			}
		uint32_t gwr = gs * T->a + (*pick >> 8), gport = df_topo_global_port(T, *pick & 0xff);
		uint32_t arr = T->peer[(size_t)gwr * T->nports + gport];
		if (gwr != rs)
			F.link[F.nl++] = port_link(m, rs, df_topo_local_port(T, rs % T->a, gwr % T->a));
		F.link[F.nl++] = port_link(m, gwr, gport);
		if (arr != rd)
			F.link[F.nl++] = port_link(m, arr, df_topo_local_port(T, arr % T->a, rd % T->a));
	}
	F.link[F.nl++] = port_link(m, rd, dst % T->p);
	double minbw;
	ncsim_time_t lat = route_latency(m, &F, &minbw);
	return ck_sat_add(lat, ck_xfer_ps(bytes, minbw));
}

static int fl_check(net_model *nm, FILE *err)
{
	fl_model *m = (fl_model *)nm;
	int bad = 0;
	routes_flush(m);
	for (int c = 0; c < NET_NCLASSES; c++) {
		const net_totals *t = &nm->totals;
		if (t->msgs_injected[c] != t->msgs_delivered[c] || t->bytes_injected[c] != t->bytes_delivered[c]) {
			fprintf(err, "flow: class %s: %" PRIu64 " messages (%" PRIu64 " B) injected, %" PRIu64 " (%" PRIu64
			        " B) delivered\n", net_class_name((enum net_class)c), t->msgs_injected[c], t->bytes_injected[c],
			        t->msgs_delivered[c], t->bytes_delivered[c]);
			bad = 1;
		}
	}
	/* Every byte delivered crossed one injection link. */
	uint64_t inj = 0, del = 0;
	for (uint32_t n = 0; n < m->topo.nnodes; n++)
		inj += m->links[n].bytes;
	for (int c = 0; c < NET_NCLASSES; c++)
		del += nm->totals.bytes_delivered[c];
	if (inj != del) {
		fprintf(err, "flow: %" PRIu64 " B crossed the injection links, %" PRIu64 " B delivered\n", inj, del);
		bad = 1;
	}
	if (m->open || m->heap.len) {
		fprintf(err, "flow: %" PRIu64 " flow(s) never completed\n", m->open);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* One link: its index, CSV prefix "router,port,kind,peer" and record. */
typedef void (*fl_link_fn)(const fl_model *m, FILE *out, uint32_t l, const char *prefix, const fl_link *L);

/* Calls fn for the injection links, then every connected router port, as the packet model lists them. */
static void each_link(const fl_model *m, FILE *out, fl_link_fn fn)
{
	const df_topo *T = &m->topo;
	static const char *const cname[DF_NCLASSES] = {"terminal", "local", "global"};
	char pre[96];
	for (uint32_t i = 0; i < T->nnodes; i++) {
		snprintf(pre, sizeof pre, "%" PRIu32 ",%" PRIu32 ",injection,%" PRIu32, i / T->p, i % T->p, i);
		fn(m, out, i, pre, &m->links[i]);
	}
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < T->nports; port++) {
			size_t ix = (size_t)r * T->nports + port;
			if (T->peer[ix] == DF_NONE)
				continue;
			uint32_t l = port_link(m, r, port);
			snprintf(pre, sizeof pre, "%" PRIu32 ",%" PRIu32 ",%s,%" PRIu32, r, port, cname[df_topo_class(T, port)],
			         T->peer[ix]);
			fn(m, out, l, pre, &m->links[l]);
		}
}

static void link_row(const fl_model *m, FILE *out, uint32_t l, const char *prefix, const fl_link *L)
{
	(void)m, (void)l;
	fprintf(out, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", prefix, L->bytes, L->busy, L->sat);
}

static void label_rows(const fl_model *m, FILE *out, uint32_t l, const char *prefix, const fl_link *L)
{
	(void)L;
	nl_write_link(&m->labels, out, l, prefix);
}

/* links.csv as the packet model writes it; saturation_ps: time the flows used the whole bandwidth. */
static int fl_write_links(net_model *nm, FILE *out)
{
	routes_flush((fl_model *)nm);
	fprintf(out, "router,port,kind,peer,bytes,busy_ps,saturation_ps\n");
	each_link((fl_model *)nm, out, link_row);
	return ferror(out) ? -1 : 0;
}

static int fl_write_links_by_class(net_model *nm, FILE *out)
{
	routes_flush((fl_model *)nm);
	nl_write_header(out);
	each_link((fl_model *)nm, out, label_rows);
	return ferror(out) ? -1 : 0;
}

static void fl_destroy(net_model *nm)
{
	fl_model *m = (fl_model *)nm;
	free(m->links);
	free(m->routes);
	nl_fini(&m->labels);
	VEC_FREE(&m->flows);
	VEC_FREE(&m->heap);
	VEC_FREE(&m->clinks);
	VEC_FREE(&m->cflows);
	VEC_FREE(&m->seeds);
	VEC_FREE(&m->active);
	VEC_FREE(&m->pending);
	df_topo_free(&m->topo);
	df_config_clear(&m->cfg);
	free(m);
}

static const net_ops fl_ops = {
	.name = "flow",
	.inject = fl_inject,
	.estimate = fl_estimate,
	.check = fl_check,
	.write_links = fl_write_links,
	.write_links_by_class = fl_write_links_by_class,
	.destroy = fl_destroy,
};

int fl_is_flow(const net_model *m) { return m && m->ops == &fl_ops; }

const df_config *fl_get_config(const net_model *m) { return &((const fl_model *)m)->cfg; }

void fl_set_exact(net_model *m, int exact) { ((fl_model *)m)->exact = exact; }

void fl_set_tiny(net_model *m, ncsim_time_t ps) { ((fl_model *)m)->tiny = ps; }

uint64_t fl_memory_bytes(const df_config *c)
{
	uint64_t routers = (uint64_t)c->groups * c->routers, nodes = routers * c->nodes;
	uint64_t nports = (uint64_t)c->nodes + c->routers - 1 + c->globals;
	/* df_config_check bounds every factor (groups < 2^16, the others < 2^8): no product overflows. */
	return FL_ROUTES_MAX * sizeof(fl_route) + (nodes + routers * nports) * sizeof(fl_link) + routers * nports * (sizeof(uint32_t) + sizeof(uint16_t)) +
	       (uint64_t)c->groups * c->groups * 2 * sizeof(uint32_t) + nodes * MEM_NODE_OVERHEAD + sim_entity_bytes();
}

net_model *fl_create_config(sim_ctx *ctx, const df_config *cfg, char **err)
{
	if (df_config_validate(cfg, err) < 0)
		return NULL;
	char what[160];
	snprintf(what, sizeof what, "a flow-level dragonfly of %u groups x %u routers x %u nodes", cfg->groups,
	         cfg->routers, cfg->nodes);
	if (mem_limit_check(fl_memory_bytes(cfg), NULL, what, err) < 0)
		return NULL;
	fl_model *m = xcalloc(1, sizeof *m);
	if (df_topo_own(&m->cfg, &m->topo, cfg, err) < 0) {
		free(m);
		return NULL;
	}
	const df_topo *T = &m->topo;
	m->base.ops = &fl_ops;
	m->base.nnodes = T->nnodes;
	m->base.per_router = T->p;
	m->base.per_group = T->p * T->a;
	m->ctx = ctx;
	m->free_flow = FL_NONE;
	m->cut = INFINITY;
	m->tiny = FL_TINY_DEFAULT;
	m->nlinks = T->nnodes + T->nrouters * T->nports;
	m->links = xcalloc(m->nlinks, sizeof *m->links);
	nl_init(&m->labels, m->nlinks);
	for (uint32_t l = 0; l < m->nlinks; l++) {
		enum df_class c = link_class(m, l);
		m->links[l].cap = m->cfg.bw[c];
		m->links[l].lat = m->cfg.latency[c];
		m->links[l].head = FL_NONE;
		m->links[l].sat_since = FL_NEVER;
	}
	if (m->cfg.routing == DF_ROUTE_MINIMAL) {
		uint32_t n = FL_ROUTES_MIN;
		while (n < FL_ROUTES_MAX && n < 2 * (uint64_t)T->nnodes)
			n *= 2;
		m->routes = xcalloc_lines(n, sizeof *m->routes);
		m->rmask = n - 1;
		for (uint32_t i = 0; i < n; i++)
			m->routes[i].key = FL_RKEY_NONE;
	}
	m->self = sim_entity_add(ctx, &fl_type, m);
	return &m->base;
}

/*
 * test_net_flow.c - the flow-level dragonfly on its own: a probe entity
 * injects flows and records their deliveries; expectations are worked out by
 * hand from max-min fair sharing.
 *
 * Machine (SYS): 2 groups x 2 routers x 2 nodes, one global link per router.
 * Node n sits on router n / 2; routers 0, 1 form group 0, routers 2, 3 group 1.
 * With two groups the absolute arrangement joins router 0 to router 2 and
 * router 1 to router 3. Bandwidths: terminal T = 2 GB/s, local 4 GB/s,
 * global G = 1 GB/s (1 B/ns: 1000 ps per byte). Latencies: terminal 10 ns,
 * local 20 ns, global 100 ns, router delay 50 ns. Path latencies:
 *   0 -> 1 (one router):            2 x 10 + 50                 =  70 ns
 *   0 -> 2 (local hop):             2 x 10 + 20 + 2 x 50        = 140 ns
 *   0 -> 4, 1 -> 5 (global hop):    2 x 10 + 100 + 2 x 50       = 220 ns
 *   0 -> 6 (global, then local):    2 x 10 + 100 + 20 + 3 x 50  = 290 ns
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "base/util.h"
#include "runtime/net/flow.h"
#include "runtime/net/netfactory.h"
#include "tests/unit/unit.h"

#define NS 1000ULL

#define SYS_FMT                                                                                                      \
	"[network]\nmodel = dragonfly\ngroups = %d\nrouters_per_group = 2\nnodes_per_router = 2\n"                     \
	"global_links_per_router = %d\nterminal_bandwidth = 2 GB/s\nlocal_bandwidth = 4 GB/s\n"                         \
	"global_bandwidth = 1 GB/s\nterminal_latency = 10 ns\nlocal_latency = 20 ns\nglobal_latency = 100 ns\n"        \
	"router_delay = 50 ns\n"

enum { MAXD = 128 };
typedef struct probe {
	net_model *net;
	int n;
	ncsim_time_t at[MAXD];
	net_delivery d[MAXD];
	int nplan;
	uint32_t plan[MAXD][3]; /* src, dst, bytes: injected at time 0 (or when[i]), cookie = index */
	int timed, exact;       /* timed: inject plan i at when[i]; exact: the model without fast paths */
	int shared;             /* every flow shares, however short (no tiny flows) */
	ncsim_time_t when[MAXD];
	uint64_t events;        /* the kernel's count at the end */
} probe;

static void on_delivery(sim_ctx *ctx, void *state, const sim_event *ev)
{
	probe *p = state;
	const net_delivery *d = SIM_PAYLOAD(ev, const net_delivery);
	CU_ASSERT_FATAL(d->cookie < MAXD);
	p->at[d->cookie] = sim_now(ctx);
	p->d[d->cookie] = *d;
	p->n++;
}

static void inject(sim_ctx *ctx, probe *p, int i)
{
	net_msg m = {.src_node = p->plan[i][0], .dst_node = p->plan[i][1], .bytes = p->plan[i][2],
	             .notify = sim_self(ctx), .notify_kind = 0, .cookie = (uint64_t)i};
	CU_ASSERT_EQUAL(net_inject(p->net, ctx, &m), 0);
}

static void on_start(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ev;
	probe *p = state;
	for (int i = 0; i < p->nplan; i++)
		if (p->timed)
			sim_send(ctx, sim_self(ctx), p->when[i], 2, &i, sizeof i);
		else
			inject(ctx, p, i);
}

static void on_inject(sim_ctx *ctx, void *state, const sim_event *ev) { inject(ctx, state, *SIM_PAYLOAD(ev, const int)); }

static const sim_handler probe_handlers[] = {on_delivery, on_start, on_inject};
static const sim_type probe_type = {.name = "probe", .handlers = probe_handlers, .nhandlers = 3};

/* The flow model of SYS with `groups` groups (h = groups - 1) and the given routing (NULL: minimal). */
static net_model *make(sim_ctx *ctx, int groups, const char *routing)
{
	char *text = xasprintf(SYS_FMT, groups, groups - 1), *err = NULL;
	sysconf_t *sc = sysconf_parse("test.sys", text, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	net_model *m = netf_create_routed(ctx, sc, "flow", routing, 0, &err);
	if (!m)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_TRUE(fl_is_flow(m));
	CU_ASSERT_STRING_EQUAL(m->ops->name, "flow");
	sysconf_free(sc);
	free(text);
	return m;
}

/* Runs p's plan to the end (or to `until` first when until != 0, where check must still fail). */
static void run(probe *p, int groups, const char *routing, uint64_t seed, ncsim_time_t until)
{
	sim_ctx *ctx = sim_new(seed);
	p->net = make(ctx, groups, routing);
	fl_set_exact(p->net, p->exact);
	if (p->shared)
		fl_set_tiny(p->net, 0);
	sim_eid me = sim_entity_add(ctx, &probe_type, p);
	sim_send(ctx, me, 0, 1, NULL, 0);
	if (until) {
		CU_ASSERT_EQUAL(sim_run(ctx, until), 0);
		FILE *devnull = fopen("/dev/null", "w");
		CU_ASSERT_EQUAL(p->net->ops->check(p->net, devnull), -1); /* flows still under way */
		fclose(devnull);
	}
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(p->n, p->nplan);
	CU_ASSERT_EQUAL(p->net->ops->check(p->net, stderr), 0);
	uint64_t planned = 0, in = 0, out = 0, msgs = 0;
	for (int i = 0; i < p->nplan; i++)
		planned += p->plan[i][2];
	for (int c = 0; c < NET_NCLASSES; c++) {
		in += p->net->totals.bytes_injected[c];
		out += p->net->totals.bytes_delivered[c];
		msgs += p->net->totals.msgs_delivered[c];
	}
	CU_ASSERT_EQUAL(in, planned);
	CU_ASSERT_EQUAL(out, planned);
	CU_ASSERT_EQUAL(msgs, (uint64_t)p->nplan);
	p->events = sim_get_stats(ctx)->events;
	net_destroy(p->net);
	sim_free(ctx);
}

/* A lone flow gets its slowest link's bandwidth and arrives a path latency after its last byte left. */
static void test_alone(void)
{
	probe p = {.nplan = 1, .plan = {{0, 1, 2000}}};
	run(&p, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(p.at[0], 2000 * NS / 2 + 70 * NS); /* 2000 B at T = 2 B/ns, + 70 ns */
	CU_ASSERT_EQUAL(p.d[0].hops, 0);
	CU_ASSERT_EQUAL(p.d[0].bytes, 2000);
	CU_ASSERT_EQUAL(p.d[0].src_node, 0);
	CU_ASSERT_EQUAL(p.d[0].dst_node, 1);

	probe q = {.nplan = 2, .plan = {{0, 4, 1000}, {0, 6, 0}}};
	run(&q, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(q.at[0], 1000 * NS + 220 * NS); /* the global link, G = 1 B/ns, is the bottleneck */
	CU_ASSERT_EQUAL(q.d[0].hops, 1);
	CU_ASSERT_EQUAL(q.d[0].nonminimal, 0);
	CU_ASSERT_EQUAL(q.at[1], 290 * NS); /* no bytes: the path latency alone */
	CU_ASSERT_EQUAL(q.d[1].hops, 2);
}

/* estimate() is what a lone flow takes on the minimal route. */
static void test_estimate(void)
{
	sim_ctx *ctx = sim_new(1);
	net_model *m = make(ctx, 2, NULL);
	CU_ASSERT_EQUAL(m->ops->estimate(m, 0, 1, 2000), 1070 * NS);
	CU_ASSERT_EQUAL(m->ops->estimate(m, 0, 2, 0), 140 * NS);
	CU_ASSERT_EQUAL(m->ops->estimate(m, 0, 4, 1000), 1220 * NS);
	CU_ASSERT_EQUAL(m->ops->estimate(m, 0, 6, 1000), 1290 * NS);
	net_msg bad = {.src_node = 0, .dst_node = 8, .bytes = 1};
	CU_ASSERT_EQUAL(net_inject(m, ctx, &bad), NET_EBADNODE);
	net_destroy(m);
	sim_free(ctx);
}

/* Two flows out of one NIC get T / 2 each and their last bytes leave together. */
static void test_shared_nic(void)
{
	probe p = {.nplan = 2, .plan = {{0, 1, 2000}, {0, 2, 2000}}};
	run(&p, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(p.at[0], 2000 * NS + 70 * NS);  /* 2000 B at 1 B/ns */
	CU_ASSERT_EQUAL(p.at[1], 2000 * NS + 140 * NS); /* the same end, a longer path */
}

/*
 * A (0 -> 1, 3000 B) and B (0 -> 4, 500 B) share node 0's injection link
 * (T = 2); B and C (1 -> 5, 1000 B) share router 0's global link (G = 1).
 * Max-min: the global link is the tightest (1 / 2 per flow): B = C = 0.5;
 * A gets what B leaves of the NIC: 1.5 (B/ns).
 *   B ends at 500 / 0.5 = 1000 ns; then A has 1500 B left, C 500 B.
 *   A alone on its links: 2 B/ns, ends at 1000 + 750 = 1750 ns.
 *   C alone on the global link: 1 B/ns, ends at 1000 + 500 = 1500 ns.
 */
static void test_maxmin(void)
{
	probe p = {.nplan = 3, .plan = {{0, 1, 3000}, {0, 4, 500}, {1, 5, 1000}}};
	run(&p, 2, NULL, 1, 500 * NS);
	CU_ASSERT_EQUAL(p.at[1], 1000 * NS + 220 * NS);
	CU_ASSERT_EQUAL(p.at[0], 1750 * NS + 70 * NS);
	CU_ASSERT_EQUAL(p.at[2], 1500 * NS + 220 * NS);
}

/* The shorter of two flows sharing a NIC ends at 1000 ns; the other then runs at the full T. */
static void test_speedup(void)
{
	probe p = {.nplan = 2, .plan = {{0, 1, 1000}, {0, 2, 3000}}};
	run(&p, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(p.at[0], 1000 * NS + 70 * NS);
	/* 1000 B at 1 B/ns, then 2000 B at 2 B/ns: 2000 ns. */
	CU_ASSERT_EQUAL(p.at[1], 2000 * NS + 140 * NS);
}

/*
 * A flow that ends can slow another down (max-min is not monotone), so a
 * change must not only raise rates. Node 0's NIC (T = 2) carries A1, A2, A3
 * (0 -> 1, 4000 B each), B (0 -> 4, 10000 B) and D (0 -> 2, 400 B); the global
 * link of router 0 (G = 1) carries B and C (1 -> 5, 1100 B).
 *   Until 1000 ns: the NIC's share 2 / 5 = 0.4 is the smallest: A, B, D get
 *   0.4; C gets what B leaves of the global link: 0.6. D ends at 400 / 0.4.
 *   Then the NIC and the global link both share 0.5: C drops to 0.5 and ends
 *   at 1000 + (1100 - 600) / 0.5 = 2000 ns; the As end at 1000 + 3600 / 0.5 =
 *   8200 ns (B has 10000 - 4000 B left), B alone at 1 B/ns at 14200 ns.
 */
static void test_slowdown(void)
{
	probe p = {.nplan = 6, .plan = {{0, 1, 4000}, {0, 1, 4000}, {0, 1, 4000}, {0, 4, 10000}, {0, 2, 400}, {1, 5, 1100}}};
	run(&p, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(p.at[4], 1000 * NS + 140 * NS);
	CU_ASSERT_EQUAL(p.at[5], 2000 * NS + 220 * NS);
	CU_ASSERT_EQUAL(p.at[0], 8200 * NS + 70 * NS);
	CU_ASSERT_EQUAL(p.at[2], 8200 * NS + 70 * NS);
	CU_ASSERT_EQUAL(p.at[3], 14200 * NS + 220 * NS);
}

/*
 * A tiny flow (40 B: 40 ns at G, under the 50 ns bound) skips the sharing.
 * A (0 -> 4, 1000 B) and T (1 -> 5, 40 B) cross router 0's global link.
 * Default: T takes 40 ns + 220 ns as if alone, and A keeps G: 1000 + 220 ns.
 * Every flow sharing: both get 0.5 B/ns until T ends at 80 ns (300 ns with
 * the latency); A then has 960 B left at 1 B/ns: 1040 ns, 1260 ns delivered.
 */
static void test_tiny(void)
{
	probe p = {.nplan = 2, .plan = {{0, 4, 1000}, {1, 5, 40}}};
	run(&p, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(p.at[1], 40 * NS + 220 * NS);
	CU_ASSERT_EQUAL(p.at[0], 1000 * NS + 220 * NS);
	probe q = {.nplan = 2, .plan = {{0, 4, 1000}, {1, 5, 40}}, .shared = 1};
	run(&q, 2, NULL, 1, 0);
	CU_ASSERT_EQUAL(q.at[1], 80 * NS + 220 * NS);
	CU_ASSERT_EQUAL(q.at[0], 1040 * NS + 220 * NS);
}

/* The bytes column of links.csv's row that starts with `prefix` ("router,port,kind,peer,"), or -1. */
static long long link_bytes(const char *csv, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *l = csv; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, n))
			return atoll(l + n);
	return -1;
}

static void on_count(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx, (void)ev;
	++*(int *)state;
}

static const sim_handler count_handlers[] = {on_count};
static const sim_type count_type = {.name = "count", .handlers = count_handlers, .nhandlers = 1};

/*
 * Minimal routes are kept per pair, and a tiny flow on a kept route counts
 * its bytes in the cache entry until the entry is replaced or the links are
 * read. 5 groups x 2 routers x 2 nodes, h = 4: two global links per pair of
 * groups, so a route between groups draws one and is not kept, a route
 * inside a group is. Every node sends 40 B (tiny) to each of the 19 others,
 * twice: 760 pairs through a table of 256 slots, so entries are replaced
 * (pigeonhole) while they hold bytes. Each node's injection link carries
 * 2 x 19 x 40 = 1520 B whatever the routes; router 0's local link to
 * router 1 (port 2: two terminal ports, then the local one) carries the
 * flows of nodes 0 and 1 to nodes 2 and 3: 2 x 4 x 40 = 320 B, plus
 * those of group 0 to other groups that leave through router 1's global
 * links, which depend on the draws; so only its lower bound is checked.
 */
static void test_route_cache(void)
{
	sim_ctx *ctx = sim_new(3);
	net_model *m = make(ctx, 5, NULL);
	int got = 0;
	sim_eid me = sim_entity_add(ctx, &count_type, &got);
	for (int round = 0; round < 2; round++)
		for (uint32_t s = 0; s < 20; s++)
			for (uint32_t d = 0; d < 20; d++) {
				net_msg msg = {.src_node = s, .dst_node = d, .bytes = 40, .notify = me};
				if (s != d)
					CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
			}
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(got, 760);
	CU_ASSERT_EQUAL(m->ops->check(m, stderr), 0); /* injection bytes = delivered bytes: the entries handed on */
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);
	CU_ASSERT_EQUAL(m->ops->write_links(m, f), 0);
	fclose(f);
	char pre[64];
	for (uint32_t n = 0; n < 20; n++) {
		snprintf(pre, sizeof pre, "%u,%u,injection,%u,", n / 2, n % 2, n);
		CU_ASSERT_EQUAL(link_bytes(csv, pre), 1520);
	}
	CU_ASSERT_TRUE(link_bytes(csv, "0,2,local,1,") >= 320);
	free(csv);
	net_destroy(m);
	sim_free(ctx);
}

/*
 * All-to-all among the first node of every router (10 nodes) on 5 groups
 * with 4 global links per router: a*h = 8 links per group for 4 other groups,
 * so every pair of groups has two links (minimal routing draws one) and
 * Valiant has 3 intermediate groups to draw from.
 */
static void all_to_all(probe *p, const char *routing, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	for (uint32_t s = 0; s < 10; s++)
		for (uint32_t d = 0; d < 10; d++)
			if (s != d) {
				p->plan[p->nplan][0] = 2 * s;
				p->plan[p->nplan][1] = 2 * d;
				p->plan[p->nplan++][2] = 1000 + 37 * s + 11 * d;
			}
	run(p, 5, routing, seed, 0);
}

/* The same seed gives the same run, routing draws included; a fresh seed moves the Valiant routes. */
static void test_determinism(void)
{
	static probe a, b, c;
	all_to_all(&a, "ugal", 5);
	all_to_all(&b, "ugal", 5);
	CU_ASSERT_EQUAL(a.n, a.nplan);
	CU_ASSERT_EQUAL(memcmp(a.at, b.at, sizeof a.at), 0);
	CU_ASSERT_EQUAL(memcmp(a.d, b.d, sizeof a.d), 0);
	all_to_all(&a, "nonminimal", 5);
	all_to_all(&b, "nonminimal", 5);
	all_to_all(&c, "nonminimal", 6);
	CU_ASSERT_EQUAL(memcmp(a.at, b.at, sizeof a.at), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a.at, c.at, sizeof a.at), 0);
	/* Valiant between groups: through a third group, so 2 global hops and more. */
	int nonmin = 0;
	for (int i = 0; i < a.nplan; i++)
		if (a.d[i].nonminimal) {
			nonmin++;
			CU_ASSERT_TRUE(a.d[i].hops >= 2);
		}
	CU_ASSERT_TRUE(nonmin > 0);
}

/*
 * Every flow arrives with its bytes (run() checks the totals and check());
 * stopped half way, check() reports the flows still under way.
 */
static void test_conservation(void)
{
	static probe p;
	all_to_all(&p, NULL, 1);
	for (int i = 0; i < p.nplan; i++)
		CU_ASSERT_EQUAL(p.d[i].bytes, p.plan[i][2]);
	probe q = {.nplan = 2, .plan = {{0, 1, 1000}, {3, 7, 5000}}};
	run(&q, 2, NULL, 1, 1000 * NS); /* at 1 us the 5000 B flow (global link: 1 B/ns) is still under way */
}

/*
 * Random traffic among the 20 nodes of 5 groups: sizes from 0 B to 64 KiB
 * (some tiny), injections spread over 40 us so that flows start alone, join
 * others and end alone or shared. The fast paths (a flow alone on idle links
 * gets its rate without a walk and its own completion event; a flow that ends
 * alone reshares nobody; a change refills only the flows at or above the
 * lowest level it touches) must give the deliveries of the full
 * recomputation, with no more events. Up to rounding: a partial refill takes
 * the kept rates off a link's capacity in another order than the full one,
 * so a rate can differ in its last bits and a completion time rounded up to
 * a whole picosecond by 1 ps (the runs below differ by at most 2 ps).
 */
static void random_traffic(probe *p, uint64_t seed, const char *routing, int exact)
{
	memset(p, 0, sizeof *p);
	uint64_t x = seed;
	p->timed = 1;
	p->exact = exact;
	p->shared = 1;
	for (int i = 0; i < 120; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t r = (uint32_t)(x >> 33);
		p->plan[i][0] = r % 20;
		p->plan[i][1] = (r / 20) % 20;
		p->plan[i][2] = (r / 400) % 4 == 0 ? (r / 1600) % 100 : (r / 1600) % 65536;
		p->when[i] = (ncsim_time_t)(r / 7 % 40000) * NS;
	}
	p->nplan = 120;
	run(p, 5, routing, seed, 0);
}

static void test_fast_paths(void)
{
	static probe fast, full;
	static const char *const routings[] = {NULL, "ugal", "nonminimal"};
	for (int k = 0; k < 3; k++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			random_traffic(&fast, seed, routings[k], 0);
			random_traffic(&full, seed, routings[k], 1);
			for (int i = 0; i < fast.nplan; i++) { /* field by field: padding bytes may differ */
				const net_delivery *a = &fast.d[i], *b = &full.d[i];
				CU_ASSERT_TRUE(fast.at[i] <= full.at[i] + 3 && full.at[i] <= fast.at[i] + 3);
				CU_ASSERT_TRUE(a->bytes == b->bytes && a->src_node == b->src_node && a->dst_node == b->dst_node &&
				               a->inject_time == b->inject_time && a->hops == b->hops && a->nonminimal == b->nonminimal);
			}
			CU_ASSERT_TRUE(fast.events <= full.events);
		}
}

int main(void)
{
	static const ut_test tests[] = {
		{"lone flow: bottleneck bandwidth + path latency", test_alone},
		{"estimate = lone flow, bad node", test_estimate},
		{"two flows on one NIC: half each", test_shared_nic},
		{"max-min with unequal shares", test_maxmin},
		{"a flow ending speeds up the other", test_speedup},
		{"a flow ending slows another down", test_slowdown},
		{"a tiny flow skips the sharing", test_tiny},
		{"kept routes: tiny flows' bytes reach the links", test_route_cache},
		{"determinism and Valiant routes", test_determinism},
		{"conservation", test_conservation},
		{"fast paths = full recomputation on random traffic", test_fast_paths},
		{NULL, NULL},
	};
	return ut_run("flow", tests);
}

/*
 * test_dragonfly.c - the packet-level dragonfly: zero-load latency along paths
 * traced by hand through the wiring, conservation and credit checks under
 * load, determinism, CODES configuration files and the built-in global-link
 * arrangements.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly.h"
#include "base/util.h"
#include "tests/unit/unit.h"

/* A sink entity that records the time of each delivery. */
typedef struct sink {
	ncsim_time_t t[64];
	net_delivery d[64];
	unsigned n;
} sink;

static void on_delivery(sim_ctx *ctx, void *state, const sim_event *ev)
{
	sink *s = state;
	if (s->n < 64) {
		s->t[s->n] = sim_now(ctx);
		s->d[s->n] = *SIM_PAYLOAD(ev, const net_delivery);
	}
	s->n++;
}
static const sim_handler sink_handlers[1] = {on_delivery};
static const sim_type sink_type = {.name = "sink", .handlers = sink_handlers, .nhandlers = 1};

static df_config small_config(void)
{
	df_config c;
	df_config_defaults(&c);
	c.groups = 9;
	c.routers = 4;
	c.nodes = 2;
	c.globals = 2;
	c.bw[DF_TERMINAL] = 16e9;
	c.bw[DF_LOCAL] = 6e9;
	c.bw[DF_GLOBAL] = 4e9;
	c.latency[DF_TERMINAL] = 5000;
	c.latency[DF_LOCAL] = 20000;
	c.latency[DF_GLOBAL] = 150000;
	c.router_delay = 90000;
	c.packet_size = 4096;
	c.chunk_size = 256;
	return c;
}

/* ------------------------------------------------------------ zero load */

/*
 * A packet's path, worked out by hand from the wiring: its router-to-router
 * links by class (every path also has the injection and the ejection link).
 * LOCAL_DRAWN: the number of local links depends on a random draw (0..3).
 */
#define LOCAL_DRAWN (-1)
typedef struct zl_path {
	uint32_t src, dst;
	int local, global;
} zl_path;

/*
 * small_config(): 9 groups x 4 routers x 2 nodes, h = 2, relative arrangement.
 * Node n sits on router n/2; router r is index r%4 of group r/4. Group s's
 * global link j = 2*index + slot (j = 0..7) reaches group (s + 1 + j) mod 9 and
 * lands on index (7 - j)/2 there (dragonfly_topo.c with a*h = g-1: one link per
 * pair of groups). Minimal routing, and UGAL and PAR at zero load (no queue
 * ever outweighs the bias), take these paths:
 */
static const zl_path small_minimal[] = {
	{0, 1, 0, 0},  /* both on router 0: no router-to-router link */
	{0, 7, 1, 0},  /* router 0 -> 3 in group 0 */
	{2, 5, 1, 0},  /* router 1 -> 2 */
	{0, 14, 0, 1}, /* router 0 holds j = 0 to group 1, landing on index 3: router 7, node 14's */
	{15, 1, 0, 1}, /* router 7 (group 1, index 3) holds j = 7 to group (1+1+7) mod 9 = 0, landing on router 0 */
	{0, 8, 1, 1},  /* j = 0 lands on router 7, then local to router 4 */
	{0, 70, 2, 1}, /* to router 35 (group 8, index 3): local to index 3, j = 7 lands on index 0 (router 32), local */
	{5, 20, 2, 1}, /* router 2 -> 10 (group 2): j = 1 on index 0, lands on index 3 (router 11), local to 10 */
	{3, 44, 2, 1}, /* router 1 -> 22 (group 5): j = 4 on index 2, lands on index 1 (router 21), local to 22 */
	{9, 60, 2, 1}, /* router 4 (group 1) -> 30 (group 7): j = 7-1-1 = 5 on index 2, lands on router 29, local */
};

/*
 * Valiant on the same machine: within a group the packet goes through one of
 * the two other routers of the group (2 local links whichever is drawn);
 * towards another group it crosses a random intermediate group: always 2
 * global links, and 0 to 3 local ones depending on where the links of the
 * drawn group start and land.
 */
static const zl_path small_valiant[] = {
	{0, 1, 0, 0},           {0, 7, 2, 0},           {2, 5, 2, 0},           {0, 14, LOCAL_DRAWN, 2},
	{0, 70, LOCAL_DRAWN, 2}, {5, 20, LOCAL_DRAWN, 2}, {9, 60, LOCAL_DRAWN, 2},
};

/*
 * tiny_config(): 3 groups x 3 routers x 2 nodes, h = 2 (a*h = 3(g-1): three
 * links per pair of groups). Index i of group s holds j = 2i (slot 0) to group
 * s+1 and j = 2i+1 to group s+2 (mod 3), and both land on index i: the global
 * links join routers of the same index. Node n is on router n/2, group n/6.
 * Valiant has a single choice here (the one other router, or the one other
 * group), so its paths are exact too.
 */
static const zl_path tiny_minimal[] = {
	{0, 1, 0, 0},  /* router 0 */
	{0, 4, 1, 0},  /* router 0 -> 2 */
	{0, 6, 0, 1},  /* router 0 (group 0, index 0) -> 3 (group 1, index 0): one global link */
	{0, 10, 1, 1}, /* router 0 -> 3, then local to 5 */
	{17, 2, 1, 1}, /* router 8 (group 2, index 2) -> 2 (group 0, index 2), then local to 1 */
};
static const zl_path tiny_valiant[] = {
	{0, 1, 0, 0},  /* ejected at once: no intermediate */
	{0, 4, 2, 0},  /* router 0 -> 1 -> 2 */
	{0, 6, 0, 2},  /* via group 2: router 0 -> 6 -> 3 */
	{0, 10, 1, 2}, /* router 0 -> 6 -> 3, local to 5 */
	{17, 2, 1, 2}, /* via group 1: router 8 -> 5 -> 2, local to 1 */
};

static df_config tiny_config(void)
{
	df_config c = small_config();
	c.groups = 3;
	c.routers = 3;
	return c;
}

/*
 * Zero-load latency of one packet of S bytes (cut-through unit C = min(chunk,
 * S)) over its injection and ejection links, L local and G global links and
 * L + G + 1 routers, each link's serialization rounded up to a picosecond:
 *   sum_links (latency + ser(C)) + routers * router_delay + max_links (ser(S) - ser(C))
 */
static ncsim_time_t zero_load_ps(const df_config *c, uint64_t S, unsigned L, unsigned G)
{
	const unsigned n[DF_NCLASSES] = {[DF_TERMINAL] = 2, [DF_LOCAL] = L, [DF_GLOBAL] = G};
	uint64_t C = S < c->chunk_size ? S : c->chunk_size;
	ncsim_time_t t = (L + G + 1) * c->router_delay, extra = 0;
	for (int k = 0; k < DF_NCLASSES; k++) {
		if (!n[k])
			continue;
		ncsim_time_t sS = ut_xfer_ps(S, (uint64_t)c->bw[k]), sC = ut_xfer_ps(C, (uint64_t)c->bw[k]);
		t += n[k] * (c->latency[k] + sC);
		if (sS - sC > extra)
			extra = sS - sC;
	}
	return t + extra;
}

/* Sends one packet along `want` on machine c, checks its links, hops and latency; returns the latency. */
static ncsim_time_t zero_load_case(df_config c, enum df_routing routing, uint32_t chunk, int blocks, const zl_path *want,
                           uint64_t bytes)
{
	c.routing = routing;
	c.chunk_size = chunk;
	c.router_delay_blocks_port = blocks;
	sim_ctx *ctx = sim_new(7 + want->src * 31 + want->dst);
	net_model *m = df_create_config(ctx, &c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sink s = {0};
	net_msg msg = {.src_node = want->src, .dst_node = want->dst, .bytes = bytes,
	               .notify = sim_entity_add(ctx, &sink_type, &s)};
	CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	const df_stats *st = df_get_stats(m);
	uint64_t local = st->link[DF_LOCAL].bytes / bytes, global = st->link[DF_GLOBAL].bytes / bytes;
	CU_ASSERT_EQUAL(st->injection.bytes + st->link[DF_TERMINAL].bytes, 2 * bytes);
	CU_ASSERT_EQUAL(st->link[DF_GLOBAL].bytes, (uint64_t)want->global * bytes);
	if (want->local == LOCAL_DRAWN) {
		CU_ASSERT(local <= 3 && st->link[DF_LOCAL].bytes == local * bytes);
	} else {
		CU_ASSERT_EQUAL(st->link[DF_LOCAL].bytes, (uint64_t)want->local * bytes);
	}
	unsigned L = want->local == LOCAL_DRAWN ? (unsigned)local : (unsigned)want->local;
	ncsim_time_t expect = zero_load_ps(&c, bytes, L, (unsigned)want->global);
	CU_ASSERT_EQUAL(s.d[0].hops, L + (unsigned)want->global);
	CU_ASSERT_EQUAL(s.t[0], expect);
	if (s.t[0] != expect || local != L || global != (uint64_t)want->global)
		fprintf(stderr, "routing %s chunk %u %u->%u: %llu ps over %llu local + %llu global links, want %llu ps "
		        "over %u + %d\n", df_routing_name(routing), chunk, want->src, want->dst,
		        (unsigned long long)s.t[0], (unsigned long long)local, (unsigned long long)global,
		        (unsigned long long)expect, L, want->global);
	if (routing == DF_ROUTE_MINIMAL) {
		CU_ASSERT_EQUAL(df_min_hops(m, want->src, want->dst), L + (unsigned)want->global);
		CU_ASSERT_EQUAL(m->ops->estimate(m, want->src, want->dst, bytes), expect);
	}
	CU_ASSERT_EQUAL(m->ops->check(m, stderr), 0);
	net_destroy(m);
	sim_free(ctx);
	return s.t[0];
}

/* Every path of a table, for three chunk sizes, whole packets and partial ones with CODES' port blocking. */
static void zero_load_paths(df_config c, enum df_routing routing, const zl_path *paths, size_t n)
{
	static const uint32_t chunks[] = {256, 4096, 64};
	for (size_t ci = 0; ci < 3; ci++)
		for (size_t i = 0; i < n; i++) {
			zero_load_case(c, routing, chunks[ci], 0, &paths[i], 4096);
			zero_load_case(c, routing, chunks[ci], 1, &paths[i], 1000);
		}
}

#define PATHS(t) (t), sizeof(t) / sizeof((t)[0])

static void test_zero_load(void)
{
	zero_load_paths(small_config(), DF_ROUTE_MINIMAL, PATHS(small_minimal));
	zero_load_paths(small_config(), DF_ROUTE_UGAL, PATHS(small_minimal));
	zero_load_paths(small_config(), DF_ROUTE_PAR, PATHS(small_minimal));
	zero_load_paths(small_config(), DF_ROUTE_VALIANT, PATHS(small_valiant));
	zero_load_paths(tiny_config(), DF_ROUTE_MINIMAL, PATHS(tiny_minimal));
	zero_load_paths(tiny_config(), DF_ROUTE_UGAL, PATHS(tiny_minimal));
	zero_load_paths(tiny_config(), DF_ROUTE_PAR, PATHS(tiny_minimal));
	zero_load_paths(tiny_config(), DF_ROUTE_VALIANT, PATHS(tiny_valiant));
}

/*
 * One latency written out: minimal 0 -> 70 (local, global, local), 4096 B in
 * 256 B chunks. Serialization of 256 B: terminal 16 ns, local 42.667 ns,
 * global 64 ns; of 4096 B: 256, 682.667 and 1024 ns.
 *   links:   2 (5 + 16) + 2 (20 + 42.667) + (150 + 64) = 381.334 ns
 *   routers: 4 x 90                                    = 360 ns
 *   tail:    max(256 - 16, 682.667 - 42.667, 1024 - 64) = 960 ns
 * total 1701.334 ns.
 */
static void test_zero_load_example(void)
{
	const zl_path p = {0, 70, 2, 1};
	CU_ASSERT_EQUAL(zero_load_case(small_config(), DF_ROUTE_MINIMAL, 256, 0, &p, 4096), 1701334);
}

/* Random traffic under load on a small machine; returns a fingerprint of the results. */
static uint64_t loaded_run(enum df_routing routing, uint64_t seed, int *check)
{
	df_config c = small_config();
	c.routing = routing;
	c.vc_size[DF_LOCAL] = c.vc_size[DF_GLOBAL] = 8192; /* small buffers: plenty of back-pressure */
	sim_ctx *ctx = sim_new(seed);
	net_model *m = df_create_config(ctx, &c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sink s = {0};
	sim_eid se = sim_entity_add(ctx, &sink_type, &s);
	/* Every node sends 40 messages of 0..20 KB to random nodes, all at time 0 (worst case). */
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1, bytes = 0;
	for (uint32_t i = 0; i < m->nnodes; i++)
		for (int k = 0; k < 40; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			net_msg msg = {.src_node = i, .dst_node = (uint32_t)(x % m->nnodes), .bytes = (x >> 20) % 20000,
			               .tclass = (uint8_t)(k % 3), .notify = se, .cookie = k};
			bytes += msg.bytes;
			CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
		}
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(s.n, m->nnodes * 40);
	*check = m->ops->check(m, stderr);
	const df_stats *st = df_get_stats(m);
	uint64_t inj = 0, ej = 0, fp = sim_get_stats(ctx)->end_time;
	for (uint32_t i = 0; i < m->nnodes; i++) {
		inj += st->node_injected[i];
		ej += st->node_ejected[i];
		fp = fp * 1000003 + st->node_ejected[i];
	}
	CU_ASSERT_EQUAL(inj, bytes);
	CU_ASSERT_EQUAL(ej, bytes);
	for (int k = 0; k < 3; k++)
		fp = fp * 31 + (uint64_t)st->cls[k].lat_sum + st->cls[k].hops;
	fp = fp * 31 + st->nonmin_packets;
	if (routing != DF_ROUTE_MINIMAL) {
		CU_ASSERT(st->nonmin_packets > 0);
	} else {
		CU_ASSERT_EQUAL(st->nonmin_packets, 0);
	}
	/* links.csv has one row per link and a header. */
	FILE *f = tmpfile();
	CU_ASSERT_EQUAL(m->ops->write_links(m, f), 0);
	rewind(f);
	int lines = 0, ch;
	while ((ch = fgetc(f)) != EOF)
		lines += ch == '\n';
	fclose(f);
	/* 72 injection links + 36 routers x (2 terminal + 3 local + 2 global) + header. */
	CU_ASSERT_EQUAL(lines, 72 + 36 * 7 + 1);
	net_destroy(m);
	sim_free(ctx);
	df_config_clear(&c);
	return fp;
}

static void test_conservation_determinism(void)
{
	for (int r = DF_ROUTE_MINIMAL; r <= DF_ROUTE_PAR; r++) {
		int c1, c2, c3;
		uint64_t a = loaded_run((enum df_routing)r, 11, &c1);
		uint64_t b = loaded_run((enum df_routing)r, 11, &c2);
		uint64_t d = loaded_run((enum df_routing)r, 12, &c3);
		CU_ASSERT_EQUAL(c1, 0);
		CU_ASSERT_EQUAL(c2, 0);
		CU_ASSERT_EQUAL(c3, 0);
		CU_ASSERT_EQUAL(a, b);
		CU_ASSERT_NOT_EQUAL(a, d);
	}
}

/*
 * A NIC starved by a slower link: 40 packets of 4096 B from node 0 to node 2
 * (router 0 -> router 1, one local hop), whole-packet chunks. The local link
 * (6 GB/s, 682.667 ns a packet) is the bottleneck and stays busy from the
 * first packet on: it arrives at router 0 after 256 + 5 + 90 = 351 ns, so
 * packet k starts on the local link at 351 ns + k x 682.667 ns; the last one
 * (k = 39) leaves it at 351 + 40 x 682.667 = 27657.68 ns and reaches node 2
 * after 20 + 90 (local latency, router 1) + 256 + 5 (terminal link)
 * = 28028.68 ns. The terminal input buffer (32 KiB) holds 8 packets, so the
 * NIC mostly waits for credits. Per packet the run needs two arrivals, one
 * credit event to the NIC and at most one wake-up of the local port; a NIC
 * that woke up when its link became free, only to find no credit, took one
 * more event per packet (181 events in all before, 153 now).
 */
static void test_starved_nic(void)
{
	df_config c = small_config();
	c.chunk_size = 4096;
	c.watchdog = 0; /* a NIC only blocks ahead once the watchdog runs: nothing else blocks here to start it */
	sim_ctx *ctx = sim_new(1);
	net_model *m = df_create_config(ctx, &c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sink s = {0};
	net_msg msg = {.src_node = 0, .dst_node = 2, .bytes = 40 * 4096, .notify = sim_entity_add(ctx, &sink_type, &s)};
	CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.t[0], 351000 + 40 * ut_xfer_ps(4096, 6000000000) + 20000 + 90000 + 256000 + 5000);
	uint64_t events = sim_get_stats(ctx)->events;
	CU_ASSERT(events <= 4 * 40 + 10);
	if (events > 4 * 40 + 10)
		fprintf(stderr, "starved NIC: %llu events for 40 packets\n", (unsigned long long)events);
	CU_ASSERT_EQUAL(m->ops->check(m, stderr), 0);
	net_destroy(m);
	sim_free(ctx);
	df_config_clear(&c);
}

/* The check must notice a message that never completed. */
static void test_check_detects_loss(void)
{
	df_config c = small_config();
	sim_ctx *ctx = sim_new(1);
	net_model *m = df_create_config(ctx, &c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	net_msg msg = {.src_node = 0, .dst_node = 70, .bytes = 100000, .notify = SIM_NO_ENTITY};
	CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
	CU_ASSERT_EQUAL(sim_run(ctx, 1000000), 0); /* stop after 1 us: the message is in flight */
	FILE *devnull = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(m->ops->check(m, devnull), -1);
	fclose(devnull);
	CU_ASSERT_EQUAL(net_inject(m, ctx, &(net_msg){.src_node = 0, .dst_node = 72}), -1);
	net_destroy(m);
	sim_free(ctx);
	df_config_clear(&c);
}

/* Writes CODES' dragonfly-dally generator output for (a, h, one link per group pair). */
static void write_codes_files(const char *intra, const char *inter, uint32_t g, uint32_t a, uint32_t h)
{
	FILE *f = fopen(intra, "wb");
	for (int32_t i = 0; i < (int32_t)a; i++)
		for (int32_t j = 0; j < (int32_t)a; j++)
			if (i != j) {
				int32_t rec[3] = {i, j, 0};
				fwrite(rec, sizeof rec, 1, f);
			}
	fclose(f);
	f = fopen(inter, "wb");
	for (uint32_t s = 0; s < g; s++)
		for (uint32_t l = 0; l < a * h; l++) {
			uint32_t d = (s + 1 + l % (g - 1)) % g, sr = (l / h) % a, dr = a - sr - 1;
			int32_t rec[2] = {(int32_t)(s * a + sr), (int32_t)(d * a + dr)};
			fwrite(rec, sizeof rec, 1, f);
		}
	fclose(f);
}

static void test_codes_conf(void)
{
	char *dir = ut_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char *intra = xasprintf("%s/intra", dir), *inter = xasprintf("%s/inter", dir), *conf = xasprintf("%s/df.conf", dir);
	write_codes_files(intra, inter, 9, 4, 2);
	FILE *f = fopen(conf, "w");
	fprintf(f, "LPGROUPS\n{\n   MODELNET_GRP\n   {\n      repetitions=\"36\";\n      nw-lp=\"2\";\n"
	           "      modelnet_dragonfly_dally=\"2\";\n      modelnet_dragonfly_dally_router=\"1\";\n   }\n}\n"
	           "PARAMS\n{\n   packet_size=\"4096\";\n   modelnet_order=( \"dragonfly_dally\",\"dragonfly_dally_router\" );\n"
	           "   chunk_size=\"4096\";\n   num_routers=\"4\";\n   num_groups=\"9\";\n   local_vc_size=\"16384\";\n"
	           "   global_vc_size=\"16384\";\n   cn_vc_size=\"32768\";\n   local_bandwidth=\"2.0\";\n"
	           "   global_bandwidth=\"2.0\";\n   cn_bandwidth=\"2.0\";\n   message_size=\"736\"; # ROSS\n"
	           "   num_cns_per_router=\"2\";\n   num_global_channels=\"2\";\n"
	           "   intra-group-connections=\"intra\";\n   inter-group-connections=\"inter\";\n"
	           "   routing=\"prog-adaptive\";\n   minimal-bias=\"1\";\n}\n");
	fclose(f);
	CU_ASSERT_EQUAL(df_is_codes_conf(conf), 1);
	CU_ASSERT_EQUAL(df_is_codes_conf(intra), 0);
	df_config c;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(df_config_from_codes(&c, conf, &err), 0);
	CU_ASSERT_EQUAL(c.groups, 9);
	CU_ASSERT_EQUAL(c.routers, 4);
	CU_ASSERT_EQUAL(c.nodes, 2);
	CU_ASSERT_EQUAL(c.globals, 2);
	CU_ASSERT_EQUAL(c.routing, DF_ROUTE_PAR);
	CU_ASSERT_EQUAL(c.router_delay, 100000);
	CU_ASSERT_EQUAL(c.router_delay_blocks_port, 0); /* CODES' semantics: test_codes.c */
	CU_ASSERT_EQUAL(c.vc_size[DF_TERMINAL], 32768);
	CU_ASSERT_DOUBLE_EQUAL(c.bw[DF_LOCAL], 2.0 * 1073741824.0, 1e-3);
	/* CODES: a link's delay is one chunk's serialization: 4096 B at 2 GiB/s = 1907.35 ns. */
	CU_ASSERT_EQUAL(c.latency[DF_GLOBAL], 1907349);
	/* Legacy credit delay: 8 B at the local bandwidth = 3.725 ns. */
	CU_ASSERT_EQUAL(c.credit_delay[DF_GLOBAL], 3725);
	/* The files give the same wiring as the built-in relative arrangement. */
	sim_ctx *ctx = sim_new(1);
	uint32_t n = 0;
	net_model *mf = df_create_codes(ctx, conf, &n, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
	CU_ASSERT_EQUAL(n, 72);
	df_config r = c;
	r.arrangement = DF_ARR_RELATIVE;
	r.intra_file = r.inter_file = NULL;
	net_model *mr = df_create_config(ctx, &r, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mr);
	for (uint32_t s = 0; s < 72; s++)
		for (uint32_t d = 0; d < 72; d++)
			CU_ASSERT_EQUAL(df_min_hops(mf, s, d), df_min_hops(mr, s, d));
	CU_ASSERT_EQUAL(df_router_of_node(mf, 13), 6);
	CU_ASSERT_EQUAL(df_group_of_node(mf, 13), 1);
	CU_ASSERT_EQUAL(df_nodes_per_group(mf), 8);
	net_destroy(mf);
	net_destroy(mr);
	sim_free(ctx);
	df_config_clear(&c);
	/* A missing file and a broken file are errors with a message. */
	remove(inter);
	CU_ASSERT_PTR_NULL(df_create_codes(NULL, conf, &n, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	ut_rmrf(dir);
	free(dir);
	free(intra);
	free(inter);
	free(conf);
}

static void test_arrangements(void)
{
	/* Both arrangements give every pair of groups exactly one link: inter-group minimal paths have 1..3 hops. */
	for (int arr = DF_ARR_ABSOLUTE; arr <= DF_ARR_RELATIVE; arr++) {
		df_config c = small_config();
		c.groups = 33;
		c.routers = 8;
		c.nodes = 4;
		c.globals = 4;
		c.arrangement = (enum df_arrangement)arr;
		sim_ctx *ctx = sim_new(1);
		net_model *m = df_create_config(ctx, &c, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_EQUAL(m->nnodes, 1056);
		unsigned hist[4] = {0};
		for (uint32_t d = 0; d < 1056; d++)
			hist[df_min_hops(m, 0, d)]++;
		CU_ASSERT_EQUAL(hist[0], 4);
		/* 1 hop: the 28 other nodes of the group, and the 4 x 4 nodes on the far end of router 0's global
		 * links; 3 hops: the 28 groups router 0 has no link to, except their arrival routers. */
		CU_ASSERT_EQUAL(hist[1], 28 + 16);
		CU_ASSERT_EQUAL(hist[2], 28 * 4 + 4 * 7 * 4);
		CU_ASSERT_EQUAL(hist[3], 28 * 7 * 4);
		net_destroy(m);
		sim_free(ctx);
	}
	/* a h not a multiple of g - 1 is rejected. */
	df_config c = small_config();
	c.groups = 10;
	char *err = NULL;
	CU_ASSERT_PTR_NULL(df_create_config(NULL, &c, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
}

static void test_histogram(void)
{
	lh_hist h;
	memset(&h, 0, sizeof h);
	for (uint64_t v = 1; v <= 100000; v++)
		lh_add(&h, v * 1000);
	uint64_t p50 = lh_quantile(&h, 0.5), p99 = lh_quantile(&h, 0.99);
	CU_ASSERT(p50 > 50000000 * 0.97 && p50 < 50000000 * 1.03);
	CU_ASSERT(p99 > 99000000 * 0.97 && p99 < 99000000 * 1.03);
	CU_ASSERT_EQUAL(lh_quantile(&h, 0), lh_quantile(&h, 0.000001));
}

static void test_sysconf(void)
{
	char *err = NULL;
	sysconf_t *sc = sysconf_parse("t.conf",
	                            "[network]\nmodel = dragonfly\ngroups = 5\nrouters_per_group = 4\nnodes_per_router = 3\n"
	                            "global_links_per_router = 1\nlocal_bandwidth = 10 GiB/s\nglobal_latency = 1 us\n"
	                            "router_delay = 50 ns\nrouting = ugal\nugal_bias = 4 KiB\nglobal_arrangement = absolute\n"
	                            "chunk_size = 128 B\n",
	                            &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	df_config c;
	CU_ASSERT_EQUAL(df_config_from_sysconf(&c, sc, &err), 0);
	CU_ASSERT_EQUAL(c.groups, 5);
	CU_ASSERT_EQUAL(c.nodes, 3);
	CU_ASSERT_EQUAL(c.latency[DF_GLOBAL], 1000000);
	CU_ASSERT_EQUAL(c.credit_delay[DF_GLOBAL], 1000000);
	CU_ASSERT_EQUAL(c.router_delay, 50000);
	CU_ASSERT_EQUAL(c.routing, DF_ROUTE_UGAL);
	CU_ASSERT_EQUAL(c.arrangement, DF_ARR_ABSOLUTE);
	CU_ASSERT_DOUBLE_EQUAL(c.ugal_bias, 4096, 1e-9);
	CU_ASSERT_EQUAL(sysconf_unused(sc, stderr), 0);
	df_config_clear(&c);
	sysconf_free(sc);
	sc = sysconf_parse("t.conf", "[network]\nrouting = fastest\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(df_config_from_sysconf(&c, sc, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "t.conf:2"));
	}
	free(err);
	df_config_clear(&c);
	sysconf_free(sc);
}

int main(void)
{
	static const ut_test tests[] = {
		{"zero-load latency along hand-traced paths", test_zero_load},
		{"zero-load latency: one case written out", test_zero_load_example},
		{"conservation, credits, determinism", test_conservation_determinism},
		{"starved NIC: blocks ahead, no wake-up per packet", test_starved_nic},
		{"check detects loss", test_check_detects_loss},
		{"CODES conf and files", test_codes_conf},
		{"global arrangements", test_arrangements},
		{"latency histogram", test_histogram},
		{"native system file", test_sysconf},
		{NULL, NULL},
	};
	return ut_run("dragonfly", tests);
}

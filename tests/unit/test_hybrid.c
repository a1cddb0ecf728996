/*
 * test_hybrid.c - the hybrid network: messages below hybrid_threshold take the
 * small half (by default the analytic model: per-pair dragonfly path latency,
 * no packets), larger ones the large half (by default the packet-level
 * dragonfly); hybrid_small / hybrid_large choose other halves (analytic,
 * packet, flow); both halves are counted in the model's totals.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/flow.h"
#include "runtime/net/hybrid.h"
#include "runtime/net/netfactory.h"
#include "tests/unit/rt_testlib.h"

#define SYS_FMT \
	"[network]\nmodel = %s\nhybrid_threshold = 16 KiB\ngroups = 3\nrouters_per_group = 2\n" \
	"nodes_per_router = 2\nglobal_links_per_router = 1\nlocal_bandwidth = 10 GB/s\nglobal_bandwidth = 5 GB/s\n" \
	"terminal_bandwidth = 20 GB/s\nlocal_latency = 10 ns\nglobal_latency = 100 ns\nterminal_latency = 10 ns\n" \
	"router_delay = 50 ns\npacket_size = 4 KiB\nchunk_size = 64 B\n"
/* SYS_FMT's lines: the first key after it (EXTRA below) is on line 17. */
#define EXTRA_LINE "17"

static void small_and_large(rt_task *t)
{
	/* Task 0 on node 0, task 1 on node 11: another group. */
	if (rt_rank(t) == 0) {
		rt_send(t, 1, 100, 0, 0);
		rt_send(t, 1, 1 << 20, 1, 0);
	} else {
		rt_recv(t, 0, 100, 0, 0);
		rt_recv(t, 0, 1 << 20, 1, 0);
	}
}
TL_PROGRAM(prog_small_and_large, small_and_large);

/* Runs small_and_large on nodes 0 and 11 of the system text sys (a hybrid network). */
static drv_sim *run_split(const char *sys)
{
	drv_options o = {.system_text = sys, .seed = 3, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	char *e = NULL;
	drv_sim *s = drv_new(&o, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	uint32_t nodes[2] = {0, 11};
	drv_job j = {.prog = &prog_small_and_large, .ntasks = 2, .nodes = nodes};
	CU_ASSERT_EQUAL_FATAL(drv_add_job(s, &j, &e), 0);
	CU_ASSERT_EQUAL_FATAL(drv_run(s, stderr), 0);
	return s;
}

static void test_split(void)
{
	char *sys = xasprintf(SYS_FMT, "hybrid");
	drv_sim *s = run_split(sys);
	CU_ASSERT_STRING_EQUAL(drv_network_name(s), "hybrid");
	net_model *net = drv_world(s)->net;
	CU_ASSERT_TRUE_FATAL(hy_is(net));
	net_model *df = netf_dragonfly_of(net);
	CU_ASSERT_PTR_NOT_NULL_FATAL(df);
	/* Only the rendezvous data (1 MiB) is at or above the threshold: everything else is analytic. */
	CU_ASSERT_EQUAL(df->totals.bytes_injected[NET_CLASS_MPI], 1u << 20);
	CU_ASSERT_EQUAL(df->totals.bytes_injected[NET_CLASS_CTRL], 0);
	CU_ASSERT_EQUAL(net->totals.bytes_injected[NET_CLASS_MPI], (1u << 20) + 100 + 64);
	/* The small message goes eagerly; the large one by rendezvous: RTS, RDMA request, data, ACK. */
	CU_ASSERT_EQUAL(net->totals.msgs_injected[NET_CLASS_MPI], 2);
	CU_ASSERT_EQUAL(net->totals.msgs_injected[NET_CLASS_CTRL], 3);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	/*
	 * The analytic half's latency is the dragonfly's minimal-path latency. Node 0
	 * is on router 0 (group 0), node 11 on router 5 (group 2, index 1); group 0
	 * reaches group 2 through router 1's global link, which lands on router 4:
	 * terminal, local, global, local, terminal links and 4 routers:
	 *   2 x 10 + 2 x 10 + 100 + 4 x 50 = 340 ns for no bytes;
	 * 100 bytes add their serialization at the slowest class, 5 GB/s: 20 ns.
	 */
	CU_ASSERT_EQUAL(df->ops->estimate(df, 0, 11, 0), 340000);
	CU_ASSERT_EQUAL(net->ops->estimate(net, 0, 11, 100), 360000);
	CU_ASSERT_EQUAL(net->ops->estimate(net, 0, 11, 1 << 20), df->ops->estimate(df, 0, 11, 1 << 20));
	/* Inside one router: two terminal links and one router, 2 x 10 + 50 ns. */
	CU_ASSERT_EQUAL(df->ops->estimate(df, 0, 1, 0), 70000);
	drv_free(s);
	free(sys);
}

static void test_override(void)
{
	/* --network hybrid on a dragonfly file, and a routing override. */
	char *sys = xasprintf(SYS_FMT, "dragonfly");
	drv_options o = {.system_text = sys, .network = "hybrid", .routing = "ugal", .seed = 3,
	                .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	int rc;
	drv_sim *s = tl_run_opts(&prog_small_and_large, 2, &o, 0, NULL, &rc, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(drv_network_name(s), "hybrid");
	CU_ASSERT_EQUAL(df_get_config(netf_dragonfly_of(drv_world(s)->net))->routing, DF_ROUTE_UGAL);
	drv_free(s);
	/* A routing override on the analytic network is refused. */
	char *an = tl_analytic(2, NULL);
	o.system_text = an;
	o.network = NULL;
	FILE *err = tmpfile();
	s = tl_run_opts(&prog_small_and_large, 2, &o, 0, NULL, &rc, err);
	CU_ASSERT_EQUAL(rc, -1);
	fclose(err);
	drv_free(s);
	free(an);
	free(sys);
}

/* The network of SYS_FMT (model `model`) with `extra` keys, as --network `net` and --routing `routing` build it. */
static net_model *make(sim_ctx *ctx, const char *model, const char *extra, const char *net, const char *routing,
                       char **err)
{
	char *text = xasprintf(SYS_FMT "%s", model, extra);
	sysconf_t *sc = sysconf_parse("test.sys", text, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	net_model *m = netf_create_routed(ctx, sc, net, routing, 0, err);
	sysconf_free(sc);
	free(text);
	return m;
}

/* Which half takes a message: below the threshold (16 KiB) the small one, at or above it the large one. */
static void test_halves(void)
{
	static const struct {
		const char *extra;
		int small, large; /* 0 analytic, 1 packet, 2 flow */
	} cases[] = {
		{"", 0, 1},
		{"hybrid_small = analytic\nhybrid_large = packet\n", 0, 1},
		{"hybrid_large = flow\n", 0, 2},
		{"hybrid_small = flow\n", 2, 1},
		{"hybrid_small = packet\nhybrid_large = flow\n", 1, 2},
		{"hybrid_small = flow\nhybrid_large = analytic\n", 2, 0},
		{"hybrid_small = dragonfly\nhybrid_large = analytic\n", 1, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sim_ctx *ctx = sim_new(1);
		char *err = NULL;
		net_model *m = make(ctx, "hybrid", cases[i].extra, NULL, NULL, &err);
		if (!m)
			fprintf(stderr, "%s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_TRUE(hy_is(m));
		CU_ASSERT_EQUAL(m->nnodes, 12);
		const uint64_t sizes[] = {0, 100, 16383, 16384, 1 << 20};
		for (int k = 0; k < 5; k++) {
			net_model *h = hy_half_for(m, sizes[k]);
			int want = sizes[k] < 16384 ? cases[i].small : cases[i].large;
			int got = df_is_dragonfly(h) ? 1 : fl_is_flow(h) ? 2 : 0;
			CU_ASSERT_EQUAL(got, want);
			CU_ASSERT_STRING_EQUAL(h->ops->name, got == 0 ? "analytic" : got == 1 ? "dragonfly" : "flow");
		}
		/* netf_dragonfly_of is the packet half, if any. */
		net_model *df = netf_dragonfly_of(m);
		CU_ASSERT_EQUAL(df != NULL, cases[i].small == 1 || cases[i].large == 1);
		net_destroy(m);
		sim_free(ctx);
	}
}

/* Bad values of the new keys, reported at their line whichever model runs. */
static void test_key_errors(void)
{
	static const struct {
		const char *model, *extra, *want;
	} cases[] = {
		{"hybrid", "hybrid_small = fluid\n",
		 "test.sys:" EXTRA_LINE ": [network] hybrid_small must be analytic, packet or flow (not 'fluid')"},
		{"dragonfly", "hybrid_large = 3\n",
		 "test.sys:" EXTRA_LINE ": [network] hybrid_large must be analytic, packet or flow (not '3')"},
		{"hybrid", "hybrid_small = flow\nhybrid_large = flow\n",
		 "test.sys:18: [network] hybrid_small and hybrid_large are both flow: the two halves must differ"},
		{"flow", "hybrid_small = packet\n",
		 "test.sys:" EXTRA_LINE ": [network] hybrid_small and hybrid_large are both packet: the two halves must differ"},
		{"hybrid", "hybrid_large = analytic\n",
		 "test.sys:" EXTRA_LINE ": [network] hybrid_small and hybrid_large are both analytic: the two halves must differ"},
		/* The flow level's tiny-flow limit is checked in a packet-level file too. */
		{"dragonfly", "flow_tiny = soon\n",
		 "test.sys:" EXTRA_LINE ": [network] flow_tiny = 'soon': not a number (expected a time such as 100 ns or 1.5e-3 s)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sim_ctx *ctx = sim_new(1);
		char *err = NULL;
		net_model *m = make(ctx, cases[i].model, cases[i].extra, NULL, NULL, &err);
		CU_ASSERT_PTR_NULL(m);
		CU_ASSERT_PTR_NOT_NULL_FATAL(err);
		if (strcmp(err, cases[i].want))
			fprintf(stderr, "got:  %s\nwant: %s\n", err, cases[i].want);
		CU_ASSERT_STRING_EQUAL(err, cases[i].want);
		free(err);
		net_destroy(m);
		sim_free(ctx);
	}
}

/* The reverse of the default: packet below the threshold, flow above; each half sees its own messages only. */
static void test_packet_small_flow_large(void)
{
	char *sys = xasprintf(SYS_FMT "hybrid_small = packet\nhybrid_large = flow\n", "hybrid");
	drv_sim *s = run_split(sys);
	net_model *net = drv_world(s)->net;
	net_model *df = netf_dragonfly_of(net), *fl = hy_half_for(net, 1 << 20);
	CU_ASSERT_PTR_NOT_NULL_FATAL(df);
	CU_ASSERT_TRUE_FATAL(fl_is_flow(fl));
	/* As in test_split, with the halves swapped: the 1 MiB of data is the flow half's, the rest the packet half's. */
	CU_ASSERT_EQUAL(fl->totals.bytes_injected[NET_CLASS_MPI], 1u << 20);
	CU_ASSERT_EQUAL(fl->totals.bytes_delivered[NET_CLASS_MPI], 1u << 20);
	CU_ASSERT_EQUAL(fl->totals.msgs_injected[NET_CLASS_CTRL], 0);
	CU_ASSERT_EQUAL(df->totals.bytes_injected[NET_CLASS_MPI], 100 + 64);
	CU_ASSERT_EQUAL(df->totals.msgs_injected[NET_CLASS_CTRL], 3);
	CU_ASSERT_EQUAL(net->totals.bytes_injected[NET_CLASS_MPI], (1u << 20) + 100 + 64);
	CU_ASSERT_EQUAL(net->totals.bytes_delivered[NET_CLASS_MPI], (1u << 20) + 100 + 64);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	/* estimate(): below the threshold the packet half's, above the flow half's (the same minimal path). */
	CU_ASSERT_EQUAL(net->ops->estimate(net, 0, 11, 100), df->ops->estimate(df, 0, 11, 100));
	CU_ASSERT_EQUAL(net->ops->estimate(net, 0, 11, 1 << 20), fl->ops->estimate(fl, 0, 11, 1 << 20));
	drv_free(s);
	free(sys);
}

/* --routing reaches both network halves, and the flow model alone, for every algorithm. */
static void test_routing_overrides(void)
{
	static const char *const names[] = {"minimal", "nonminimal", "ugal", "par"};
	static const enum df_routing want[] = {DF_ROUTE_MINIMAL, DF_ROUTE_VALIANT, DF_ROUTE_UGAL, DF_ROUTE_PAR};
	for (int r = 0; r < 4; r++) {
		sim_ctx *ctx = sim_new(1);
		char *err = NULL;
		net_model *m = make(ctx, "hybrid", "hybrid_small = flow\n", NULL, names[r], &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_EQUAL(fl_get_config(hy_half_for(m, 1))->routing, want[r]);
		CU_ASSERT_EQUAL(df_get_config(hy_half_for(m, 1 << 20))->routing, want[r]);
		net_destroy(m);
		m = make(ctx, "dragonfly", "", "flow", names[r], &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_EQUAL(fl_get_config(m)->routing, want[r]);
		net_destroy(m);
		sim_free(ctx);
	}
	sim_ctx *ctx = sim_new(1);
	char *err = NULL;
	CU_ASSERT_PTR_NULL(make(ctx, "hybrid", "hybrid_large = flow\n", NULL, "fastest", &err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_STRING_EQUAL(err, "unknown routing 'fastest' (minimal, nonminimal, ugal, par)");
	free(err);
	sim_free(ctx);
}

int main(void)
{
	static const ut_test tests[] = {
		{"small messages analytic, large ones packet level", test_split},
		{"--network hybrid and --routing overrides", test_override},
		{"sizes to halves, every combination", test_halves},
		{"hybrid_small / hybrid_large errors at file:line", test_key_errors},
		{"packet below the threshold, flow above", test_packet_small_flow_large},
		{"--routing on flow and hybrid-with-flow halves", test_routing_overrides},
		{NULL, NULL},
	};
	return ut_run("hybrid", tests);
}

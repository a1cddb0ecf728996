/*
 * test_hybrid.c - the hybrid network: messages below hybrid_threshold take the
 * analytic half (per-pair dragonfly path latency, no packets), larger ones the
 * packet-level dragonfly; both halves are counted in the model's totals.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/hybrid.h"
#include "runtime/net/netfactory.h"
#include "tests/unit/rt_testlib.h"

#define SYS_FMT \
	"[network]\nmodel = %s\nhybrid_threshold = 16 KiB\ngroups = 3\nrouters_per_group = 2\n" \
	"nodes_per_router = 2\nglobal_links_per_router = 1\nlocal_bandwidth = 10 GB/s\nglobal_bandwidth = 5 GB/s\n" \
	"terminal_bandwidth = 20 GB/s\nlocal_latency = 10 ns\nglobal_latency = 100 ns\nterminal_latency = 10 ns\n" \
	"router_delay = 50 ns\npacket_size = 4 KiB\nchunk_size = 64 B\n"

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

static void test_split(void)
{
	char *sys = xasprintf(SYS_FMT, "hybrid");
	drv_options o = {.system_text = sys, .seed = 3, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	char *e = NULL;
	drv_sim *s = drv_new(&o, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	uint32_t nodes[2] = {0, 11};
	drv_job j = {.prog = &prog_small_and_large, .ntasks = 2, .nodes = nodes};
	CU_ASSERT_EQUAL_FATAL(drv_add_job(s, &j, &e), 0);
	CU_ASSERT_EQUAL_FATAL(drv_run(s, stderr), 0);
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

int main(void)
{
	static const ut_test tests[] = {
		{"small messages analytic, large ones packet level", test_split},
		{"--network hybrid and --routing overrides", test_override},
		{NULL, NULL},
	};
	return ut_run("hybrid", tests);
}

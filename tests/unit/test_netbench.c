/*
 * test_netbench.c - the synthetic-traffic driver of the network module
 * (runtime/net/netbench.h): how many messages CODES-mode generators inject
 * (counted by hand), and that a message the network refuses fails the run at
 * once instead of turning into a drain failure later.
 *
 * The machine: 3 groups x 2 routers x 1 node (h = 1), 6 nodes, terminal links
 * of 1 GB/s. CODES mode injects 1000-byte messages at load 0.5: one every
 * 1000 B / (0.5 x 1e9 B/s) = 2 us, the first at 2 us; with a 21 us duration a
 * node sends at 2, 4, ..., 20 us (the next one, 22 us, is past the end):
 * 10 messages per node, 60 in all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/netbench.h"
#include "base/sysconf.h"
#include "tests/unit/unit.h"

static const char machine[] = "[network]\n"
                              "model = dragonfly\n"
                              "groups = 3\n"
                              "routers_per_group = 2\n"
                              "nodes_per_router = 1\n"
                              "global_links_per_router = 1\n"
                              "terminal_bandwidth = 1 GB/s\n";

static const nb_params codes = {
	.load = 0.5, .size = 1000, .codes = 1, .duration = 21000000, .warmup = NB_WARMUP_DEFAULT,
};

/* The dragonfly above on a new context (*ctx). */
static net_model *build(sim_ctx **ctx)
{
	char *err = NULL;
	sysconf_t *sys = sysconf_parse("test", machine, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sys);
	*ctx = sim_new(1);
	net_model *net = nb_network(*ctx, sys, NULL, NULL, -1, &err);
	sysconf_free(sys);
	if (!net)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(net);
	return net;
}

static void test_codes_count(void)
{
	sim_ctx *ctx;
	net_model *net = build(&ctx);
	CU_ASSERT_EQUAL(net->nnodes, 6);
	nb_result r;
	CU_ASSERT_EQUAL(nb_run(ctx, net, &codes, &r, stderr), 0);
	CU_ASSERT_EQUAL(r.generated, 60);
	CU_ASSERT_EQUAL(r.stopped, 0);
	CU_ASSERT_EQUAL(r.warmup, 0); /* CODES counts from time 0 */
	net_destroy(net);
	sim_free(ctx);
}

/* An inject operation that accepts the first six messages and refuses the rest. */
static const net_ops *real_ops;
static int accepted;
static int refuse_after_six(net_model *m, sim_ctx *ctx, const net_msg *msg)
{
	return accepted < 6 ? (accepted++, real_ops->inject(m, ctx, msg)) : -1;
}

static void test_refused_message_fails(void)
{
	sim_ctx *ctx;
	net_model *net = build(&ctx);
	real_ops = net->ops;
	net_ops refusing = *net->ops;
	refusing.inject = refuse_after_six;
	net->ops = &refusing;
	accepted = 0;
	nb_result r;
	char *text = NULL;
	size_t n = 0;
	FILE *err = open_memstream(&text, &n);
	int rc = nb_run(ctx, net, &codes, &r, err);
	fclose(err);
	/* The six nodes send at 2 us; the first send at 4 us is refused and ends the run there. */
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_EQUAL(r.generated, 6);
	CU_ASSERT_EQUAL(r.end_time, 4000000);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "refused a message"));
	CU_ASSERT_PTR_NULL(strstr(text, "end-of-run checks"));
	free(text);
	net->ops = real_ops;
	net_destroy(net);
	sim_free(ctx);
}

static void test_not_a_dragonfly(void)
{
	char *err = NULL;
	sysconf_t *sys = sysconf_parse("test", "[network]\nmodel = analytic\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sys);
	sim_ctx *ctx = sim_new(1);
	CU_ASSERT_PTR_NULL(nb_network(ctx, sys, NULL, NULL, -1, &err));
	CU_ASSERT(err && strstr(err, "model = analytic"));
	free(err);
	sysconf_free(sys);
	sim_free(ctx);
}

int main(void)
{
	static const ut_test tests[] = {
		{"CODES mode: 10 messages per node", test_codes_count},
		{"a refused message fails the run at once", test_refused_message_fails},
		{"the system must be a dragonfly", test_not_a_dragonfly},
		{NULL, NULL},
	};
	return ut_run("netbench", tests);
}

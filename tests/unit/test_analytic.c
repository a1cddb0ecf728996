/*
 * test_analytic.c - the analytic and ideal networks on their own: a probe
 * entity injects messages and records delivery times.
 *
 * Machine: latency L = 100 ns, links 10 GB/s, injection 20 GB/s.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>

#include "runtime/net/analytic.h"
#include "runtime/net/ideal.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#define L 100000ULL /* ps */
#define NS 1000ULL

enum { MAXD = 64 };
typedef struct probe {
	net_model *net;
	int n;
	ncsim_time_t at[MAXD];
	uint64_t cookie[MAXD];
	/* messages to inject at start: src, dst, bytes */
	int nplan;
	uint32_t plan[MAXD][3];
} probe;

static void on_delivery(sim_ctx *ctx, void *state, const sim_event *ev)
{
	probe *p = state;
	const net_delivery *d = SIM_PAYLOAD(ev, const net_delivery);
	p->at[p->n] = sim_now(ctx);
	p->cookie[p->n++] = d->cookie;
}

static void on_start(sim_ctx *ctx, void *state, const sim_event *ev)
{
	probe *p = state;
	for (int i = 0; i < p->nplan; i++) {
		net_msg m = {.src_node = p->plan[i][0], .dst_node = p->plan[i][1], .bytes = p->plan[i][2],
		             .notify = sim_self(ctx), .notify_kind = 0, .cookie = (uint64_t)i};
		CU_ASSERT_EQUAL(net_inject(p->net, ctx, &m), 0);
	}
}

static const sim_handler probe_handlers[] = {on_delivery, on_start};
static const sim_type probe_type = {.name = "probe", .handlers = probe_handlers, .nhandlers = 2};

static void run(probe *p, int ideal)
{
	sim_ctx *ctx = sim_new(1);
	an_params ap;
	an_params_default(&ap);
	ap.nnodes = 16;
	ap.latency = L;
	ap.bandwidth = 10e9;
	ap.inj_bandwidth = 20e9;
	p->net = ideal ? ideal_create(16) : an_create(ctx, &ap);
	sim_eid me = sim_entity_add(ctx, &probe_type, p);
	sim_send(ctx, me, 0, 1, NULL, 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(p->net->ops->check(p->net, stderr), 0);
	net_destroy(p->net);
	sim_free(ctx);
}

static void test_single(void)
{
	probe p = {.nplan = 1, .plan = {{0, 1, 10000}}};
	run(&p, 0);
	CU_ASSERT_EQUAL(p.n, 1);
	CU_ASSERT_EQUAL(p.at[0], L + 1000 * NS); /* 10000 B at 10 GB/s: 1 us */
}

/* N senders to one node: the ejection port serializes; the last is done at L + N S/bw. */
static void test_many_to_one(void)
{
	probe p = {.nplan = 8};
	for (int i = 0; i < 8; i++) {
		p.plan[i][0] = (uint32_t)i + 1;
		p.plan[i][1] = 0;
		p.plan[i][2] = 5000;
	}
	run(&p, 0);
	CU_ASSERT_EQUAL_FATAL(p.n, 8);
	for (int k = 0; k < 8; k++) {
		CU_ASSERT_EQUAL(p.at[k], L + (ncsim_time_t)(k + 1) * 500 * NS); /* 5000 B at 10 GB/s: 500 ns each */
		CU_ASSERT_EQUAL(p.cookie[k], (uint64_t)k); /* FIFO in (time, sender) order */
	}
}

/* One node to many: the injection port serializes at 20 GB/s, each then takes L + S/bw. */
static void test_one_to_many(void)
{
	probe p = {.nplan = 4};
	for (int i = 0; i < 4; i++) {
		p.plan[i][0] = 0;
		p.plan[i][1] = (uint32_t)i + 1;
		p.plan[i][2] = 20000;
	}
	run(&p, 0);
	CU_ASSERT_EQUAL_FATAL(p.n, 4);
	for (int k = 0; k < 4; k++)
		CU_ASSERT_EQUAL(p.at[k], (ncsim_time_t)k * 1000 * NS + L + 2000 * NS); /* 20000 B: 1 us at 20 GB/s, 2 at 10 */
}

/* A slow injection port bounds delivery by the tail leaving the source. */
static void test_slow_injection(void)
{
	sim_ctx *ctx = sim_new(1);
	an_params ap = {.nnodes = 2, .latency = L, .bandwidth = 10e9, .inj_bandwidth = 5e9};
	probe p = {.nplan = 1, .plan = {{0, 1, 10000}}};
	p.net = an_create(ctx, &ap);
	sim_eid me = sim_entity_add(ctx, &probe_type, &p);
	sim_send(ctx, me, 0, 1, NULL, 0);
	sim_run(ctx, SIM_FOREVER);
	CU_ASSERT_EQUAL(p.at[0], L + 2000 * NS); /* 10000 B at 5 GB/s: 2 us */
	CU_ASSERT_EQUAL(p.net->ops->estimate(p.net, 0, 1, 10000), L + 2000 * NS);
	net_destroy(p.net);
	sim_free(ctx);
}

static void test_ideal(void)
{
	probe p = {.nplan = 3, .plan = {{0, 1, 1 << 20}, {2, 1, 1}, {1, 1, 0}}};
	run(&p, 1);
	CU_ASSERT_EQUAL(p.n, 3);
	for (int k = 0; k < 3; k++)
		CU_ASSERT_EQUAL(p.at[k], 0);
}

static void test_bad_node(void)
{
	sim_ctx *ctx = sim_new(1);
	an_params ap;
	an_params_default(&ap);
	ap.nnodes = 2;
	net_model *m = an_create(ctx, &ap);
	net_msg msg = {.src_node = 0, .dst_node = 2, .bytes = 1};
	CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), -1);
	CU_ASSERT_STRING_EQUAL(net_class_name(NET_CLASS_IO), "io");
	net_destroy(m);
	sim_free(ctx);
}

int main(void)
{
	static const ut_test tests[] = {
		{"one message: L + S/bw", test_single},
		{"N to one: ejection serializes", test_many_to_one},
		{"one to N: injection serializes", test_one_to_many},
		{"slow injection port", test_slow_injection},
		{"ideal: zero time", test_ideal},
		{"bad node, class names", test_bad_node},
		{NULL, NULL},
	};
	return ut_run("analytic", tests);
}

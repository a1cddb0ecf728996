/*
 * test_traffic_hvd.c - the HOROVOD model (runtime/traffic/hvd.c): the counts
 * and bytes of its collectives against closed forms.
 *
 * With GATHERV PROBABILITY 1 and GATHERV TOTAL 1 byte (<= GATHERV), every
 * worker's first gatherv draw (at least 1 byte) reaches the total, so every
 * layer of every batch takes exactly one negotiation round: R = B*L rounds.
 * For P members, B(P) = sum_{v<P} popcount(v) (B(6) = 7), pof2 = 4, rem = 2:
 *
 *   gathers     R ops, (P-1) R msgs, 4 B(P) R bytes (binomial tree)
 *   gathervs    R ops, (P-1) R msgs
 *   broadcasts  2R ops, 2 (P-1) R msgs, (P-1)(4 + BROADCAST) R bytes
 *   allreduces  B*L ops; recursive doubling (S < 64 KiB): 2 rem + pof2 log2(pof2)
 *               = 12 msgs of S bytes each; ring (S >= 64 KiB): 2P(P-1) = 60 msgs,
 *               2(P-1) S bytes
 *
 * With GATHERV PROBABILITY < 1 the loop runs R >= B*L rounds and the counts
 * follow R: broadcasts 2R of (P-1)(4 R + 25 (R - B L) + BROADCAST B L) bytes.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncsim/traffic.h"
#include "runtime/traffic/traffic.h"
#include "tests/unit/rt_testlib.h"

static rt_horovod_params H;

static void entry(rt_task *t) { rt_traffic_horovod(t, rt_world(t), &H); }
TL_PROGRAM(prog, entry);

static rt_hvd_layer defaults(void)
{
	return (rt_hvd_layer){
		.set = RT_HVD_ALL, .compute = 10000000, .negotiation = 5000000, .gatherv_bytes = 1000,
		.gatherv_total = 1, .gatherv_prob = 1, .bcast_bytes = 2048, .allreduce_bytes = 8192,
	};
}

static int popsum(int P)
{
	int s = 0;
	for (int v = 1; v < P; v++)
		s += __builtin_popcount((unsigned)v);
	return s;
}

static drv_sim *run(int P, const char *extra) { return tl_check_run(&prog, (uint32_t)P, extra, NULL, 0, NULL); }

static trf_run *the_run(drv_sim *s)
{
	trf_world *tw = trf_world_find(drv_world(s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(tw);
	CU_ASSERT_EQUAL_FATAL(tw->runs.len, 1);
	return tw->runs.ptr[0];
}

static void finish(drv_sim *s)
{
	trf_world_release(drv_world(s));
	drv_free(s);
}

/* Allreduce messages and bytes for P = 6 and S bytes with the default [collectives]. */
static void allreduce_cost(uint64_t S, uint64_t *msgs, uint64_t *bytes)
{
	if (S >= 65536) {
		*msgs = 60;
		*bytes = 10 * S;
	} else {
		*msgs = 12;
		*bytes = 12 * S;
	}
}

/* Checks layer l of r against one round per batch with parameters lp. */
static void check_layer(const trf_run *r, int l, rt_int B, const rt_hvd_layer *lp)
{
	const int P = 6;
	const trf_hvd_layer *x = &r->hvd[l];
	uint64_t R = (uint64_t)B, am, ab;
	allreduce_cost(lp->allreduce_bytes, &am, &ab);
	CU_ASSERT_EQUAL(x->rounds, R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_GATHER].ops, R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_GATHER].msgs, (P - 1) * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_GATHER].bytes, 4 * (uint64_t)popsum(P) * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_GATHERV].ops, R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_GATHERV].msgs, (P - 1) * R);
	CU_ASSERT(x->op[TRF_HVD_GATHERV].bytes >= (uint64_t)popsum(P) * R); /* every draw is >= 1 byte */
	CU_ASSERT_EQUAL(x->op[TRF_HVD_BCAST].ops, 2 * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_BCAST].msgs, 2 * (P - 1) * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_BCAST].bytes, (P - 1) * (4 + lp->bcast_bytes) * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_ALLREDUCE].ops, R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_ALLREDUCE].msgs, am * R);
	CU_ASSERT_EQUAL(x->op[TRF_HVD_ALLREDUCE].bytes, ab * R);
	/* compute: B*P draws of Normal(c, c/10) summed: relative SE 0.1/sqrt(18) = 2.4%, tolerance 10% */
	double want = (double)lp->compute * (double)(B * P);
	CU_ASSERT(fabs((double)x->compute / want - 1) < 0.10);
}

/* Messages of class horovod the network carried = the messages the model counted. */
static void check_network(drv_sim *s, const trf_run *r)
{
	CU_ASSERT_EQUAL(drv_world(s)->net->totals.msgs_delivered[NET_CLASS_HOROVOD], r->msgs);
	CU_ASSERT_EQUAL(drv_world(s)->net->totals.msgs_injected[NET_CLASS_MPI], 0);
}

static void test_one_round(void)
{
	H = (rt_horovod_params){.batches = 3, .layers = 4, .defaults = defaults()};
	drv_sim *s = run(6, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = the_run(s);
	for (int l = 0; l < 4; l++)
		check_layer(r, l, 3, &H.defaults);
	check_network(s, r);
	finish(s);
}

/* An override changes only its own layer. */
static void test_override(void)
{
	rt_hvd_override ov[2] = {
		{.layer = 2, .p = {.set = (1u << RT_HVD_BROADCAST) | (1u << RT_HVD_ALLREDUCE), .bcast_bytes = 512,
		                   .allreduce_bytes = 100000}},
		{.layer = 1, .p = {.set = 1u << RT_HVD_COMPUTE, .compute = 40000000}},
	};
	H = (rt_horovod_params){.batches = 3, .layers = 4, .defaults = defaults(), .overrides = ov, .noverrides = 2};
	drv_sim *s = run(6, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = the_run(s);
	rt_hvd_layer l1 = H.defaults, l2 = H.defaults;
	l1.compute = 40000000;
	l2.bcast_bytes = 512;
	l2.allreduce_bytes = 100000;
	check_layer(r, 0, 3, &H.defaults);
	check_layer(r, 1, 3, &l1);
	check_layer(r, 2, 3, &l2);
	check_layer(r, 3, 3, &H.defaults);
	check_network(s, r);
	finish(s);
}

/* GATHERV PROBABILITY 0.5 and a large total: several rounds per layer, counts follow R. */
static void test_negotiation_loop(void)
{
	const int P = 6;
	H = (rt_horovod_params){.batches = 2, .layers = 3, .defaults = defaults()};
	H.defaults.gatherv_prob = 0.5;
	H.defaults.gatherv_total = 5000;
	drv_sim *s = run(P, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = the_run(s);
	uint64_t R = 0, BL = 6;
	trf_hvd_op sum[TRF_HVD_NKINDS] = {{0}};
	for (int l = 0; l < 3; l++) {
		R += r->hvd[l].rounds;
		for (int k = 0; k < TRF_HVD_NKINDS; k++) {
			sum[k].ops += r->hvd[l].op[k].ops;
			sum[k].msgs += r->hvd[l].op[k].msgs;
			sum[k].bytes += r->hvd[l].op[k].bytes;
		}
	}
	printf("\n    %llu negotiation rounds for %llu layers", (unsigned long long)R, (unsigned long long)BL);
	CU_ASSERT(R > BL);
	CU_ASSERT_EQUAL(sum[TRF_HVD_GATHER].ops, R);
	CU_ASSERT_EQUAL(sum[TRF_HVD_GATHERV].msgs, (P - 1) * R);
	CU_ASSERT_EQUAL(sum[TRF_HVD_BCAST].ops, 2 * R);
	CU_ASSERT_EQUAL(sum[TRF_HVD_BCAST].bytes, (P - 1) * (4 * R + 25 * (R - BL) + 2048 * BL));
	CU_ASSERT_EQUAL(sum[TRF_HVD_ALLREDUCE].ops, BL);
	check_network(s, r);
	finish(s);
}

/* [collectives] gather = linear: the gather of 4 bytes costs 4 (P-1) bytes per round. */
static void test_linear_gather(void)
{
	H = (rt_horovod_params){.batches = 2, .layers = 2, .defaults = defaults()};
	drv_sim *s = run(6, "[collectives]\ngather = linear\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = the_run(s);
	for (int l = 0; l < 2; l++) {
		CU_ASSERT_EQUAL(r->hvd[l].op[TRF_HVD_GATHER].bytes, 4 * 5 * 2);
		CU_ASSERT_EQUAL(r->hvd[l].op[TRF_HVD_GATHERV].msgs, 5 * 2);
	}
	finish(s);
}

static void test_missing_default(void)
{
	H = (rt_horovod_params){.batches = 1, .layers = 1, .defaults = defaults()};
	H.defaults.set &= ~(1u << RT_HVD_GATHERV_TOTAL);
	FILE *q = fopen("/dev/null", "w");
	drv_sim *s = tl_check_run(&prog, 4, NULL, NULL, 1, q);
	fclose(q);
	CU_ASSERT_PTR_NOT_NULL(strstr(drv_world(s)->fatal, "missing: GATHERV TOTAL"));
	finish(s);
}

int main(void)
{
	static const ut_test tests[] = {
		{"one round per layer: closed-form counts", test_one_round},
		{"a layer override changes only its layer", test_override},
		{"negotiation loop: counts follow the rounds", test_negotiation_loop},
		{"linear gather", test_linear_gather},
		{"every default is required", test_missing_default},
		{NULL, NULL},
	};
	return ut_run("horovod", tests);
}

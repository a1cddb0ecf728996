/*
 * test_pqueue.c - the kernel's event heap: order, ties, and a random stress
 * test against a sorted reference.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/pqueue.h"
#include "runtime/kernel/rng.h"
#include "base/util.h"
#include "tests/unit/unit.h"

static int key_cmp(const void *a, const void *b)
{
	const sim_event *x = *(sim_event *const *)a, *y = *(sim_event *const *)b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

static void test_empty(void)
{
	sim_pq pq;
	sim_pq_init(&pq);
	CU_ASSERT_EQUAL(sim_pq_size(&pq), 0);
	CU_ASSERT_PTR_NULL(sim_pq_peek(&pq));
	CU_ASSERT_PTR_NULL(sim_pq_pop(&pq));
	sim_pq_free(&pq);
	sim_pq_free(NULL);
}

static void test_order_and_peek(void)
{
	static const ncsim_time_t times[] = { 50, 10, 40, 30, 20, 60, 0, 70, 5 };
	static const ncsim_time_t sorted[] = { 0, 5, 10, 20, 30, 40, 50, 60, 70 };
	enum { N = sizeof times / sizeof times[0] };
	sim_event ev[N];
	memset(ev, 0, sizeof ev);
	sim_pq pq;
	sim_pq_init(&pq);
	for (int i = 0; i < N; i++) {
		ev[i].time = times[i];
		ev[i].seq = (uint64_t)i;
		sim_pq_push(&pq, &ev[i]);
	}
	CU_ASSERT_EQUAL(sim_pq_size(&pq), N);
	for (int i = 0; i < N; i++) {
		sim_event *p = sim_pq_peek(&pq);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(p->time, sorted[i]);
		CU_ASSERT_EQUAL(sim_pq_min_time(&pq), sorted[i]);
		CU_ASSERT_PTR_EQUAL(sim_pq_pop(&pq), p);
	}
	CU_ASSERT_EQUAL(sim_pq_size(&pq), 0);
	sim_pq_free(&pq);
}

/* Equal times: source first, then sequence, whatever the insertion order. */
static void test_ties(void)
{
	static const struct { sim_eid src; uint64_t seq; } order[] = {
		{ SIM_NO_ENTITY, 1 }, { 3, 2 }, { 0, 9 }, { 3, 1 }, { 1, 0 }, { 0, 1 }, { SIM_NO_ENTITY, 0 }, { 3, 0 },
	};
	static const struct { sim_eid src; uint64_t seq; } want[] = {
		{ 0, 1 }, { 0, 9 }, { 1, 0 }, { 3, 0 }, { 3, 1 }, { 3, 2 }, { SIM_NO_ENTITY, 0 }, { SIM_NO_ENTITY, 1 },
	};
	enum { N = sizeof order / sizeof order[0] };
	sim_event ev[N + 1];
	memset(ev, 0, sizeof ev);
	sim_pq pq;
	sim_pq_init(&pq);
	/* Push in two different orders; the pops must agree with `want` both times. */
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < N; k++) {
			int i = pass ? N - 1 - k : k;
			ev[i].time = 1000;
			ev[i].src = order[i].src;
			ev[i].seq = order[i].seq;
			sim_pq_push(&pq, &ev[i]);
		}
		/* One earlier event with the largest (src, seq) still goes first. */
		ev[N].time = 999;
		ev[N].src = SIM_NO_ENTITY;
		ev[N].seq = UINT64_MAX;
		sim_pq_push(&pq, &ev[N]);
		CU_ASSERT_PTR_EQUAL(sim_pq_pop(&pq), &ev[N]);
		for (int i = 0; i < N; i++) {
			sim_event *p = sim_pq_pop(&pq);
			CU_ASSERT_PTR_NOT_NULL_FATAL(p);
			CU_ASSERT_EQUAL(p->src, want[i].src);
			CU_ASSERT_EQUAL(p->seq, want[i].seq);
		}
		CU_ASSERT_PTR_NULL(sim_pq_pop(&pq));
	}
	sim_pq_free(&pq);
}

/* Inserts e into the reference array ref[0..*nref-1], kept in decreasing key order. */
static void ref_insert(sim_event **ref, size_t *nref, sim_event *e)
{
	size_t lo = 0, hi = *nref; /* the minimum is at the end */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (key_cmp(&ref[mid], &e) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&ref[lo + 1], &ref[lo], (*nref - lo) * sizeof *ref);
	ref[lo] = e;
	(*nref)++;
}

/*
 * 100k random operations: a push-heavy phase (the heap grows through several
 * reallocations), a balanced one and a pop-heavy one, with few distinct times
 * so that ties are frequent. The reference is an array kept sorted in
 * decreasing order by insertion (so the minimum is at the end); every pop must
 * return exactly the reference's minimum, and the final drain must match
 * qsort's order.
 */
static void test_stress(void)
{
	enum { OPS = 100000 };
	sim_event *ev = xcalloc(OPS, sizeof *ev);
	sim_event **ref = xcalloc(OPS, sizeof *ref);
	size_t nref = 0, nev = 0;
	uint64_t seq[8] = { 0 };
	sim_rng r;
	sim_rng_seed(&r, 42, 0);
	sim_pq pq;
	sim_pq_init(&pq);
	ncsim_time_t floor = 0; /* pops never go back in time, as in the kernel */
	int bad = 0;
	for (int op = 0; op < OPS; op++) {
		unsigned push_pct = op < OPS / 3 ? 70 : op < 2 * OPS / 3 ? 50 : 35;
		if (nref == 0 || sim_rng_next(&r) % 100 < push_pct) {
			sim_event *e = &ev[nev++];
			e->time = floor + sim_rng_next(&r) % 64;
			e->src = (sim_eid)(sim_rng_next(&r) % 8);
			e->seq = seq[e->src]++;
			sim_pq_push(&pq, e);
			ref_insert(ref, &nref, e);
		} else {
			sim_event *want = ref[--nref];
			sim_event *p = sim_pq_pop(&pq);
			bad += p != want;
			floor = want->time;
		}
		bad += sim_pq_size(&pq) != nref;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(pq.near.cap + pq.far.cap > 256); /* the heaps did reallocate */
	qsort(ref, nref, sizeof *ref, key_cmp);
	for (size_t i = 0; i < nref; i++)
		bad += sim_pq_pop(&pq) != ref[i];
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(sim_pq_size(&pq), 0);
	free(ref);
	free(ev);
	sim_pq_free(&pq);
}

/*
 * The wheel under time scales that force it to re-tune: exponential delays
 * (two means), crowds of simultaneous events, far-future timers that live in
 * the far heap, and a jump across an empty stretch of time. A hold model: pop
 * the minimum (checked against a sorted reference), push it back later.
 */
static ncsim_time_t draw_delay(sim_rng *r, int mode, size_t k)
{
	double u = sim_rng_next_unif(r);
	switch (mode) {
	case 0: return 1000 + (ncsim_time_t)(-9000.0 * log(1.0 - u));
	case 1: return (ncsim_time_t)(-20.0 * log(1.0 - u)); /* fine scale, zero delays too */
	case 2: return 1000 * (sim_rng_next(r) % 4);      /* crowds of equal times */
	case 3: return k % 97 == 0 ? 1000000000 + sim_rng_next(r) % 1000 : 1 + sim_rng_next(r) % 5000;
	default: return k % 5000 == 0 ? 50000000000ull : sim_rng_next(r) % 300; /* bursts and jumps */
	}
}

static void test_wheel_time_scales(void)
{
	enum { LIVE = 3000, HOLDS = 60000 };
	sim_event *ev = xcalloc(LIVE, sizeof *ev);
	sim_event **ref = xcalloc(LIVE, sizeof *ref);
	for (int mode = 0; mode < 5; mode++) {
		sim_rng r;
		sim_rng_seed(&r, 99, (uint64_t)mode);
		sim_pq pq;
		sim_pq_init(&pq);
		size_t nref = 0;
		uint64_t seq[16] = { 0 };
		for (size_t i = 0; i < LIVE; i++) {
			ev[i].time = draw_delay(&r, mode, i);
			ev[i].src = (sim_eid)(i % 16);
			ev[i].seq = seq[ev[i].src]++;
			sim_pq_push(&pq, &ev[i]);
			ref_insert(ref, &nref, &ev[i]);
		}
		int bad = 0;
		ncsim_time_t now = 0;
		unsigned shift0 = pq.shift;
		int retuned = 0, used_far = 0;
		for (size_t k = 0; k < HOLDS; k++) {
			retuned |= pq.shift != shift0;
			used_far |= pq.far.n != 0;
			sim_event *want = ref[--nref];
			if (k % 7 == 0)
				bad += sim_pq_min_time(&pq) != want->time || sim_pq_peek(&pq) != want;
			sim_event *p = sim_pq_pop(&pq);
			bad += p != want;
			bad += want->time < now;
			now = want->time;
			want->time = now + draw_delay(&r, mode, k);
			want->src = (sim_eid)(sim_rng_next(&r) % 16);
			want->seq = seq[want->src]++;
			sim_pq_push(&pq, want);
			ref_insert(ref, &nref, want);
			bad += sim_pq_size(&pq) != nref;
		}
		CU_ASSERT_EQUAL(bad, 0);
		/* The cases do reach the parts they are meant for. */
		if (mode == 1 || mode == 0)
			CU_ASSERT(retuned);
		if (mode >= 3)
			CU_ASSERT(used_far);
		while (nref)
			bad += sim_pq_pop(&pq) != ref[--nref];
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT_PTR_NULL(sim_pq_pop(&pq));
		sim_pq_free(&pq);
	}
	free(ref);
	free(ev);
}

/*
 * 300 events in lockstep, each step 7.5 us later (an MPI message's period)
 * on the first 1 ns windows: every push lands ~7,325 windows past cur_w, far
 * beyond the 64 slots the wheel starts with. The first re-tune must size the
 * wheel for that reach at once (8192 slots: the power of two above 7,325,
 * below the cap of 64 x 300), not four times over in steps: after these 100
 * turns the stepwise growth had 4096 slots and still sent every push far.
 */
static void test_wheel_reach(void)
{
	enum { LIVE = 300, HOLDS = 30000 };
	sim_event *ev = xcalloc(LIVE, sizeof *ev);
	sim_event **ref = xcalloc(LIVE, sizeof *ref);
	sim_rng r;
	sim_rng_seed(&r, 5, 1);
	sim_pq pq;
	sim_pq_init(&pq);
	size_t nref = 0;
	for (size_t i = 0; i < LIVE; i++) {
		ev[i].time = 7500000 + sim_rng_next(&r) % 1000;
		ev[i].src = (sim_eid)i;
		sim_pq_push(&pq, &ev[i]);
		ref_insert(ref, &nref, &ev[i]);
	}
	int bad = 0;
	for (size_t k = 0; k < HOLDS; k++) {
		sim_event *want = ref[--nref];
		bad += sim_pq_pop(&pq) != want;
		want->time += 7500000 + sim_rng_next(&r) % 1000;
		want->seq++;
		sim_pq_push(&pq, want);
		ref_insert(ref, &nref, want);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(pq.shift, 10);
	CU_ASSERT(pq.nslots >= 8192);
	CU_ASSERT_EQUAL(pq.far.n, 0);
	sim_pq_free(&pq);
	free(ref);
	free(ev);
}

/* A million pushes, then a full drain compared with qsort's order. */
static void test_bulk_sorted(void)
{
	enum { N = 1000000 };
	sim_event *ev = xcalloc(N, sizeof *ev);
	sim_event **ref = xcalloc(N, sizeof *ref);
	sim_rng r;
	sim_rng_seed(&r, 7, 3);
	sim_pq pq;
	sim_pq_init(&pq);
	for (size_t i = 0; i < N; i++) {
		ev[i].time = sim_rng_next(&r) % 100000;
		ev[i].src = (sim_eid)(sim_rng_next(&r) % 1000);
		ev[i].seq = i;
		ref[i] = &ev[i];
		sim_pq_push(&pq, &ev[i]);
	}
	qsort(ref, N, sizeof *ref, key_cmp);
	int bad = 0;
	for (size_t i = 0; i < N; i++)
		bad += sim_pq_pop(&pq) != ref[i];
	CU_ASSERT_EQUAL(bad, 0);
	free(ref);
	free(ev);
	sim_pq_free(&pq);
}

static void test_clear(void)
{
	sim_event ev[3000];
	memset(ev, 0, sizeof ev);
	sim_pq pq;
	sim_pq_init(&pq);
	for (int i = 0; i < 3000; i++) {
		ev[i].time = (ncsim_time_t)(3000 - i);
		sim_pq_push(&pq, &ev[i]);
	}
	sim_pq_clear(&pq);
	CU_ASSERT_EQUAL(sim_pq_size(&pq), 0);
	CU_ASSERT_PTR_NULL(sim_pq_peek(&pq));
	sim_pq_push(&pq, &ev[5]);
	sim_pq_push(&pq, &ev[7]);
	CU_ASSERT_PTR_EQUAL(sim_pq_pop(&pq), &ev[7]);
	CU_ASSERT_PTR_EQUAL(sim_pq_pop(&pq), &ev[5]);
	sim_pq_free(&pq);
}

int main(void)
{
	static const ut_test tests[] = {
		{"empty queue", test_empty},
		{"time order and peek", test_order_and_peek},
		{"ties on (src, seq)", test_ties},
		{"random stress vs reference", test_stress},
		{"wheel under several time scales", test_wheel_time_scales},
		{"wheel sized to the reach of pushes", test_wheel_reach},
		{"bulk drain vs qsort", test_bulk_sorted},
		{"clear", test_clear},
		{NULL, NULL},
	};
	return ut_run("pqueue", tests);
}

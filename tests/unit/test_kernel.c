/*
 * test_kernel.c - the discrete-event kernel: dispatch, order, pool, run
 * control, hooks, random streams, and PHOLD determinism.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/kernel/phold.h"
#include "runtime/kernel/progress.h"
#include "runtime/kernel/sim.h"
#include "base/util.h"
#include "tests/unit/unit.h"

/* ---------------------------------------------------------------- a recording model */

typedef struct rec {
	ncsim_time_t time;
	sim_eid src, dst;
	uint64_t seq;
	uint16_t kind;
	uint64_t payload;
} rec;

typedef struct log_state {
	rec r[64];
	int n;
	int inits, finals;
	int stop_after; /* sim_stop once this many events were seen (0: never) */
	int stop_err;
	int chain;      /* reschedule self this many more times */
	int bad_state;  /* events that did not arrive FIRING */
} log_state;

static void log_event(sim_ctx *ctx, void *state, const sim_event *ev)
{
	log_state *s = state;
	if (ev->state != SIM_EV_FIRING || sim_self(ctx) != ev->dst || sim_now(ctx) != ev->time)
		s->bad_state++;
	if (s->n < 64)
		s->r[s->n] = (rec){ ev->time, ev->src, ev->dst, ev->seq, ev->kind, ev->data.u64[0] };
	s->n++;
	if (s->stop_after && s->n == s->stop_after)
		sim_stop(ctx, s->stop_err);
	if (s->chain > 0) {
		s->chain--;
		uint64_t v = ev->data.u64[0] + 1;
		sim_send(ctx, ev->dst, 1, ev->kind, &v, sizeof v);
	}
}

static void log_init(sim_ctx *ctx, void *state, sim_eid self)
{
	log_state *s = state;
	s->inits++;
	CU_ASSERT_EQUAL(sim_self(ctx), self);
}

static void log_final(sim_ctx *ctx, void *state, sim_eid self)
{
	log_state *s = state;
	s->finals++;
	CU_ASSERT_EQUAL(sim_self(ctx), self);
}

static const sim_handler log_handlers[3] = { log_event, log_event, log_event };
static const sim_type log_type = {
	.name = "log", .handlers = log_handlers, .nhandlers = 3, .init = log_init, .final = log_final,
};

/* ---------------------------------------------------------------- tests */

static void test_entities(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state a = { 0 }, b = { 0 };
	CU_ASSERT_EQUAL(sim_entity_count(ctx), 0);
	CU_ASSERT_EQUAL(sim_entity_add(ctx, &log_type, &a), 0);
	CU_ASSERT_EQUAL(sim_entity_add(ctx, &log_type, &b), 1);
	for (int i = 2; i < 1000; i++)
		CU_ASSERT_EQUAL(sim_entity_add(ctx, &log_type, NULL), (sim_eid)i);
	CU_ASSERT_EQUAL(sim_entity_count(ctx), 1000);
	CU_ASSERT_PTR_EQUAL(sim_entity_state(ctx, 0), &a);
	CU_ASSERT_PTR_EQUAL(sim_entity_state(ctx, 1), &b);
	CU_ASSERT_EQUAL(sim_now(ctx), 0);
	CU_ASSERT_EQUAL(sim_self(ctx), SIM_NO_ENTITY);
	sim_free(ctx);
	sim_free(NULL);
}

/* Kinds reach their handler with the payload intact; times are now + delay. */
static void test_dispatch_payload(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state s = { 0 };
	sim_eid e = sim_entity_add(ctx, &log_type, &s);
	for (uint16_t k = 0; k < 3; k++) {
		sim_event *ev = sim_event_new(ctx, e, 100 * (k + 1), k);
		CU_ASSERT_EQUAL(ev->state, SIM_EV_NEW);
		CU_ASSERT_EQUAL(ev->src, SIM_NO_ENTITY);
		CU_ASSERT_EQUAL(ev->dst, e);
		ev->data.u64[0] = 7 + k;
		sim_schedule(ctx, ev);
		CU_ASSERT_EQUAL(ev->state, SIM_EV_QUEUED);
	}
	CU_ASSERT_EQUAL(sim_pending(ctx), 3);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL_FATAL(s.n, 3);
	for (int k = 0; k < 3; k++) {
		CU_ASSERT_EQUAL(s.r[k].kind, k);
		CU_ASSERT_EQUAL(s.r[k].time, 100u * (k + 1));
		CU_ASSERT_EQUAL(s.r[k].payload, 7u + k);
		CU_ASSERT_EQUAL(s.r[k].seq, (uint64_t)k); /* SIM_NO_ENTITY's own counter */
	}
	CU_ASSERT_EQUAL(s.bad_state, 0);
	CU_ASSERT_EQUAL(sim_pending(ctx), 0);
	CU_ASSERT_EQUAL(sim_now(ctx), 300);
	sim_free(ctx);
}

/*
 * Several sources send to one sink at the same time: the sink sees them in
 * (src, seq) order, with SIM_NO_ENTITY (the largest id) last, regardless of
 * the order in which they were scheduled.
 */
typedef struct burst_state {
	sim_eid sink;
	int count;
} burst_state;

static void burst_init(sim_ctx *ctx, void *state, sim_eid self)
{
	burst_state *b = state;
	for (int i = 0; i < b->count; i++) {
		uint64_t v = ((uint64_t)self << 8) | (uint64_t)i;
		sim_send(ctx, b->sink, 50, 0, &v, sizeof v);
	}
}

static const sim_type burst_type = {
	.name = "burst", .handlers = log_handlers, .nhandlers = 1, .init = burst_init,
};

static void test_tie_order(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state sink = { 0 };
	/* Sources are created in the order 0..3 but their init runs in id order,
	 * so the external events (scheduled first) would come first in FIFO. */
	burst_state b[3] = { { 3, 2 }, { 3, 3 }, { 3, 1 } };
	for (int i = 0; i < 3; i++)
		sim_entity_add(ctx, &burst_type, &b[i]);
	sim_eid sk = sim_entity_add(ctx, &log_type, &sink);
	CU_ASSERT_EQUAL(sk, 3);
	uint64_t v = 999;
	sim_send(ctx, sk, 50, 0, &v, sizeof v);
	sim_send(ctx, sk, 49, 0, &v, sizeof v); /* earlier time beats every source */
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	static const struct { ncsim_time_t t; sim_eid src; uint64_t seq; } want[] = {
		{ 49, SIM_NO_ENTITY, 1 }, { 50, 0, 0 }, { 50, 0, 1 }, { 50, 1, 0 }, { 50, 1, 1 },
		{ 50, 1, 2 }, { 50, 2, 0 }, { 50, SIM_NO_ENTITY, 0 },
	};
	CU_ASSERT_EQUAL_FATAL(sink.n, 8);
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(sink.r[i].time, want[i].t);
		CU_ASSERT_EQUAL(sink.r[i].src, want[i].src);
		CU_ASSERT_EQUAL(sink.r[i].seq, want[i].seq);
	}
	sim_free(ctx);
}

/* A long self-chain recycles one record: the pool never grows past a slab. */
static void test_pool_reuse(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state s = { .chain = 200000 };
	sim_eid e = sim_entity_add(ctx, &log_type, &s);
	uint64_t v = 0;
	sim_send(ctx, e, 0, 2, &v, sizeof v);
	sim_event *first = NULL;
	for (int i = 0; i < 8; i++) { /* a few more to spread records */
		first = sim_event_new(ctx, e, 0, 1);
		first->data.u64[0] = 0;
		sim_schedule(ctx, first);
	}
	uint64_t cap = sim_pool_capacity(ctx);
	CU_ASSERT(cap >= 9 && cap <= 1024);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CU_ASSERT_EQUAL(s.n, 200009);
	CU_ASSERT_EQUAL(s.bad_state, 0);
	CU_ASSERT_EQUAL(sim_pool_capacity(ctx), cap);
	CU_ASSERT_EQUAL(first->state, SIM_EV_FREE); /* the pool owns it again */
	const sim_stats *st = sim_get_stats(ctx);
	CU_ASSERT_EQUAL(st->events, 200009);
	CU_ASSERT_EQUAL(st->scheduled, 200009);
	CU_ASSERT_EQUAL(st->peak_pending, 9);
	CU_ASSERT_EQUAL(st->end_time, 200008 / 9); /* nine events per picosecond */
	CU_ASSERT_EQUAL(st->stopped_at_until, 0);
	/* The run's own wall time: 200,009 events take some, and no more than the test saw around sim_run. */
	double outer = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	CU_ASSERT(st->wall_seconds > 0.0 && st->wall_seconds <= outer + 1e-9);
	/* A burst larger than a slab grows the pool by whole slabs. */
	for (int i = 0; i < 5000; i++)
		sim_send(ctx, e, 1, 0, NULL, 0);
	CU_ASSERT(sim_pool_capacity(ctx) >= 5000);
	CU_ASSERT_EQUAL(sim_pending(ctx), 5000);
	sim_free(ctx); /* pending events go with the pool */
}

#ifndef NDEBUG /* the owner-state assertions exist only with assertions compiled in */
/* Misuse trips the owner-state assertions: run it in a child and expect SIGABRT. */
static int dies_of_abort(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* Keep the expected assertion message off the test log. */
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(3);
		fn();
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

/* The misuse cases' machine (they run in a child that dies): one logging entity with an event scheduled. */
static log_state misuse_log;
static sim_event *misuse_setup(sim_ctx **ctx)
{
	*ctx = sim_new(1);
	sim_event *ev = sim_event_new(*ctx, sim_entity_add(*ctx, &log_type, &misuse_log), 1, 0);
	sim_schedule(*ctx, ev);
	return ev;
}

static void misuse_double_schedule(void)
{
	sim_ctx *ctx;
	sim_event *ev = misuse_setup(&ctx);
	sim_schedule(ctx, ev);
}

static void misuse_schedule_after_run(void)
{
	sim_ctx *ctx;
	sim_event *ev = misuse_setup(&ctx);
	sim_run(ctx, SIM_FOREVER);
	sim_schedule(ctx, ev); /* ev went back to the pool */
}

static void misuse_bad_kind(void)
{
	sim_ctx *ctx;
	sim_event *ev = misuse_setup(&ctx);
	sim_send(ctx, ev->dst, 1, 3, NULL, 0);
}

static void misuse_bad_target(void)
{
	sim_ctx *ctx = sim_new(1);
	sim_send(ctx, 0, 1, 0, NULL, 0);
}

static void test_state_asserts(void)
{
	CU_ASSERT_EQUAL(dies_of_abort(misuse_double_schedule), 1);
	CU_ASSERT_EQUAL(dies_of_abort(misuse_schedule_after_run), 1);
	CU_ASSERT_EQUAL(dies_of_abort(misuse_bad_kind), 1);
	CU_ASSERT_EQUAL(dies_of_abort(misuse_bad_target), 1);
}
#endif

static void test_until(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state s = { 0 };
	sim_eid e = sim_entity_add(ctx, &log_type, &s);
	sim_send(ctx, e, 10, 0, NULL, 0);
	sim_send(ctx, e, 20, 0, NULL, 0);
	sim_send(ctx, e, 30, 0, NULL, 0);
	CU_ASSERT_EQUAL(sim_run(ctx, 20), 0); /* `until` is inclusive */
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT_EQUAL(sim_pending(ctx), 1);
	CU_ASSERT_EQUAL(sim_now(ctx), 20);
	const sim_stats *st = sim_get_stats(ctx);
	CU_ASSERT_EQUAL(st->stopped_at_until, 1);
	CU_ASSERT_EQUAL(st->events, 2);
	CU_ASSERT_EQUAL(st->end_time, 20);
	CU_ASSERT_EQUAL(st->scheduled, 3);
	CU_ASSERT_EQUAL(sim_run(ctx, 29), 0); /* nothing due: no event, still pending */
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->events, 0);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->stopped_at_until, 1);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_EQUAL(sim_pending(ctx), 0);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->stopped_at_until, 0);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->end_time, 30);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->scheduled, 0);
	CU_ASSERT_EQUAL(s.inits, 1); /* once per entity, however many runs */
	CU_ASSERT_EQUAL(s.finals, 3); /* once per entity per run */
	sim_free(ctx);
}

static void test_stop(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state s = { .stop_after = 4, .chain = 100 };
	sim_eid e = sim_entity_add(ctx, &log_type, &s);
	sim_send(ctx, e, 5, 0, NULL, 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(s.n, 4);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->events, 4);
	CU_ASSERT_EQUAL(sim_get_stats(ctx)->stopped_at_until, 0);
	CU_ASSERT_EQUAL(sim_pending(ctx), 1); /* the handler's own event went out first */
	CU_ASSERT_EQUAL(sim_now(ctx), 8);
	/* Resuming continues; an error stop makes sim_run return -1. */
	s.stop_after = 6;
	s.stop_err = 1;
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), -1);
	CU_ASSERT_EQUAL(s.n, 6);
	s.stop_after = 0;
	s.chain = 0;
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0); /* the error does not stick */
	CU_ASSERT_EQUAL(s.n, 7);
	sim_free(ctx);
}

/* sim_stop from an init hook: no event is processed, finals still run. */
static void stop_init(sim_ctx *ctx, void *state, sim_eid self)
{
	log_init(ctx, state, self);
	sim_send(ctx, self, 1, 0, NULL, 0);
	sim_stop(ctx, 0);
}

static const sim_type stop_init_type = {
	.name = "stopper", .handlers = log_handlers, .nhandlers = 1, .init = stop_init, .final = log_final,
};

static void test_stop_in_init(void)
{
	sim_ctx *ctx = sim_new(1);
	log_state s = { 0 };
	sim_entity_add(ctx, &stop_init_type, &s);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_EQUAL(s.inits, 1);
	CU_ASSERT_EQUAL(s.finals, 1);
	CU_ASSERT_EQUAL(sim_pending(ctx), 1);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(s.n, 1);
	CU_ASSERT_EQUAL(s.inits, 1);
	sim_free(ctx);
}

/* Entities created by a handler get their init before the next event. */
typedef struct spawner {
	log_state child;
	int spawned;
} spawner;

static void spawn_event(sim_ctx *ctx, void *state, const sim_event *ev)
{
	spawner *sp = state;
	if (!sp->spawned++) {
		sim_eid c = sim_entity_add(ctx, &log_type, &sp->child);
		sim_send(ctx, c, 3, 0, NULL, 0);
	}
}

static const sim_handler spawn_handlers[1] = { spawn_event };
static const sim_type spawn_type = { .name = "spawner", .handlers = spawn_handlers, .nhandlers = 1 };

static void test_spawn(void)
{
	sim_ctx *ctx = sim_new(1);
	spawner sp = { .spawned = 0 };
	sim_eid e = sim_entity_add(ctx, &spawn_type, &sp);
	sim_send(ctx, e, 1, 0, NULL, 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_EQUAL(sim_entity_count(ctx), 2);
	CU_ASSERT_EQUAL(sp.child.inits, 1);
	CU_ASSERT_EQUAL(sp.child.n, 1);
	CU_ASSERT_EQUAL(sp.child.finals, 1);
	CU_ASSERT_EQUAL(sp.child.r[0].time, 4);
	CU_ASSERT_EQUAL(sp.child.r[0].src, e);
	sim_free(ctx);
}

/* A negative delay cast to unsigned must not wrap around: the run stops with an error. */
static void overflow_event(sim_ctx *ctx, void *state, const sim_event *ev)
{
	int *n = state;
	(*n)++;
	sim_send(ctx, sim_self(ctx), (ncsim_time_t)-5, 0, NULL, 0);
}

static const sim_handler overflow_handlers[1] = { overflow_event };
static const sim_type overflow_type = { .name = "overflow", .handlers = overflow_handlers, .nhandlers = 1 };

static void test_overflow(void)
{
	sim_ctx *ctx = sim_new(1);
	int n = 0;
	sim_eid e = sim_entity_add(ctx, &overflow_type, &n);
	sim_send(ctx, e, 10, 0, NULL, 0);
	fprintf(stderr, "(an overflow message is expected here)\n");
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), -1);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(sim_now(ctx), 10);
	sim_free(ctx);
}

/* Streams depend on (seed, id) only. */
static void test_rng_streams(void)
{
	sim_ctx *a = sim_new(77), *b = sim_new(77), *c = sim_new(78);
	for (int i = 0; i < 4; i++) {
		sim_entity_add(a, &log_type, NULL);
		sim_entity_add(b, &log_type, NULL);
		sim_entity_add(c, &log_type, NULL);
	}
	uint64_t a3[5], b3[5], a1[5];
	for (int i = 0; i < 5; i++) /* in a: entity 1 draws first, then 0, then 3 */
		a1[i] = sim_rng_u64(a, 1);
	for (int i = 0; i < 100; i++)
		(void)sim_rng_u64(a, 0);
	for (int i = 0; i < 5; i++)
		a3[i] = sim_rng_u64(a, 3);
	for (int i = 0; i < 5; i++) /* in b: entity 3 first, interleaved with 2 */
		b3[i] = sim_rng_u64(b, 3), (void)sim_rng_u64(b, 2);
	CU_ASSERT_EQUAL(memcmp(a3, b3, sizeof a3), 0);
	int diff_entity = 0, diff_seed = 0;
	for (int i = 0; i < 5; i++) {
		diff_entity += a1[i] != a3[i];
		diff_seed += sim_rng_u64(c, 3) != a3[i];
	}
	CU_ASSERT_EQUAL(diff_entity, 5);
	CU_ASSERT_EQUAL(diff_seed, 5);
	/* Outside handlers, SIM_NO_ENTITY names the context's own stream. */
	CU_ASSERT_EQUAL(sim_rng_u64(a, SIM_NO_ENTITY), sim_rng_u64(b, SIM_NO_ENTITY));
	sim_free(a);
	sim_free(b);
	sim_free(c);
}

static void test_rng_distributions(void)
{
	sim_ctx *ctx = sim_new(5);
	sim_eid e = sim_entity_add(ctx, &log_type, NULL);
	enum { N = 200000 };
	double sum = 0, esum = 0, lo = 1, hi = 0;
	int out = 0;
	for (int i = 0; i < N; i++) {
		double u = sim_rng_unif(ctx, e);
		out += !(u >= 0.0 && u < 1.0);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		sum += u;
		double x = sim_rng_exp(ctx, e, 250.0);
		out += !(x >= 0.0);
		esum += x;
	}
	CU_ASSERT_EQUAL(out, 0);
	CU_ASSERT(lo < 1e-4 && hi > 1 - 1e-4);
	/* Standard errors: 0.29/sqrt(N) = 0.00065 and 250/sqrt(N) = 0.56. */
	CU_ASSERT_DOUBLE_EQUAL(sum / N, 0.5, 0.004);
	CU_ASSERT_DOUBLE_EQUAL(esum / N, 250.0, 3.0);
	sim_free(ctx);
}

/* PHOLD: same seed, same everything; another seed, another order. */
static void run_phold(uint64_t seed, uint64_t *events, ncsim_time_t *end, uint64_t *hash, uint64_t *model_events)
{
	sim_ctx *ctx = sim_new(seed);
	phold_params p = { .nlp = 64, .events_per_lp = 8, .remote = 0.5, .lookahead = 100, .mean = 1000.0 };
	phold *m = phold_new(ctx, &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sim_run(ctx, 500000), 0);
	const sim_stats *st = sim_get_stats(ctx);
	*events = st->events;
	*end = st->end_time;
	*hash = phold_hash(m);
	*model_events = phold_events(m);
	CU_ASSERT_EQUAL(sim_pending(ctx), 64 * 8); /* PHOLD conserves its population */
	CU_ASSERT_EQUAL(st->peak_pending, 64 * 8);
	CU_ASSERT(st->stopped_at_until);
	CU_ASSERT(st->end_time <= 500000);
	sim_free(ctx);
	phold_free(m);
}

static void test_phold_determinism(void)
{
	uint64_t e1, e2, e3, h1, h2, h3, m1, m2, m3;
	ncsim_time_t t1, t2, t3;
	run_phold(11, &e1, &t1, &h1, &m1);
	run_phold(11, &e2, &t2, &h2, &m2);
	run_phold(12, &e3, &t3, &h3, &m3);
	/*
	 * 64 x 8 = 512 events circulate, each rescheduled after 100 ps + floor(Exp(1000 ps)),
	 * whose mean is 100 + 1/(e^0.001 - 1) = 1099.5 ps: by 500,000 ps each chain has fired
	 * about 500000 / 1099.5 - 0.09 = 454.66 times (renewal theory), 232,787 in all, with a
	 * standard deviation of sqrt(512 * 500000 * 1000^2 / 1099.5^3) = 439. 2% is 10 of those.
	 */
	CU_ASSERT(fabs((double)e1 / 232787.0 - 1.0) < 0.02);
	CU_ASSERT_EQUAL(e1, m1);
	CU_ASSERT_EQUAL(e1, e2);
	CU_ASSERT_EQUAL(t1, t2);
	CU_ASSERT_EQUAL(h1, h2);
	CU_ASSERT_NOT_EQUAL(h1, h3);
	phold_params bad = { .nlp = 0 };
	sim_ctx *ctx = sim_new(1);
	CU_ASSERT_PTR_NULL(phold_new(ctx, &bad));
	sim_free(ctx);
	phold_free(NULL);
}

static void test_helpers(void)
{
	CU_ASSERT_EQUAL(sim_xfer_time(1000, 1e9), 1000000);  /* 1 us */
	CU_ASSERT_EQUAL(sim_xfer_time(1, 3e12), 1);          /* rounded up */
	CU_ASSERT_EQUAL(sim_xfer_time(1000, 0), 0);
	char buf[32];
	sim_progress_fmt_time(buf, sizeof buf, 999);
	CU_ASSERT_STRING_EQUAL(buf, "999 ps");
	sim_progress_fmt_time(buf, sizeof buf, 12345678);
	CU_ASSERT_STRING_EQUAL(buf, "12.346 us");
	sim_progress_fmt_time(buf, sizeof buf, 3000000000000000ull);
	CU_ASSERT_STRING_EQUAL(buf, "3000.000 s");
}

int main(void)
{
	static const ut_test tests[] = {
		{"entities", test_entities},
		{"dispatch and payload", test_dispatch_payload},
		{"ties broken by (src, seq)", test_tie_order},
		{"pool reuse and stats", test_pool_reuse},
#ifndef NDEBUG
		{"owner-state assertions", test_state_asserts},
#endif
		{"until", test_until},
		{"sim_stop", test_stop},
		{"sim_stop in init", test_stop_in_init},
		{"entities created while running", test_spawn},
		{"time overflow", test_overflow},
		{"rng streams", test_rng_streams},
		{"rng distributions", test_rng_distributions},
		{"phold determinism", test_phold_determinism},
		{"helpers", test_helpers},
		{NULL, NULL},
	};
	return ut_run("kernel", tests);
}

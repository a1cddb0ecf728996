/*
 * test_par_keys.c - the kernel calls the parallel dragonfly relies on
 * (doc/parallel.md): reserved sequence numbers keep the pop order, the
 * firing event's key, and a window split at an event key (par_model.cut),
 * on one rank, so it runs with or without MPI.
 */
#include "tests/unit/unit.h"

#include "runtime/kernel/par.h"
#include "runtime/kernel/sim.h"

enum { LOGN = 16 };

typedef struct rec {
	uint64_t key[LOGN][2]; /* (src, seq) of each event fired, in order */
	int n;
	int reserve;           /* the entity's kick reserves numbers (test_reserve) */
	int at_cut;            /* events fired when the model looked (test_cut) */
} rec;

static void on_log(sim_ctx *ctx, void *state, const sim_event *ev)
{
	rec *r = state;
	const sim_event *f = sim_firing(ctx);
	CU_ASSERT_PTR_EQUAL(f, ev); /* the running event is the one the handler got */
	if (r->n < LOGN) {
		r->key[r->n][0] = f->src;
		r->key[r->n][1] = f->seq;
	}
	r->n++;
}

/*
 * Entity 0's kick at t = 10 reserves numbers s, s+1, then schedules A
 * normally (number s + 2) and B with the reserved s + 1, both for t = 50:
 * B pops first although it was scheduled second.
 */
static void on_kick(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)state, (void)ev;
	uint64_t s = sim_reserve_seqs(ctx, 2);
	uint8_t a = 'A', b = 'B';
	sim_send(ctx, 1, 40, 0, &a, 1);
	sim_event *e = sim_event_new(ctx, 1, 40, 0);
	e->data.bytes[0] = b;
	sim_schedule_seq(ctx, e, s + 1);
}

static const sim_handler log_h[] = {on_log};
static const sim_handler kick_h[] = {on_kick};
static const sim_type log_type = {.name = "log", .handlers = log_h, .nhandlers = 1};
static const sim_type kick_type = {.name = "kick", .handlers = kick_h, .nhandlers = 1};

static void test_reserve(void)
{
	sim_ctx *ctx = sim_new(1);
	rec r = {0};
	sim_entity_add(ctx, &kick_type, NULL);
	sim_entity_add(ctx, &log_type, &r);
	CU_ASSERT_PTR_NULL(sim_firing(ctx)); /* outside handlers */
	sim_send(ctx, 0, 10, 0, NULL, 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	CU_ASSERT_PTR_NULL(sim_firing(ctx));
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	/* Entity 0 had scheduled nothing before: s = 0, so B is (0, 1) and A (0, 2). */
	CU_ASSERT_EQUAL(r.key[0][0], 0);
	CU_ASSERT_EQUAL(r.key[0][1], 1);
	CU_ASSERT_EQUAL(r.key[1][1], 2);
	sim_free(ctx);
}

/* A model that asks for a look just before the key (100, outside, 2) and counts the events fired by then. */
static void m_end(void *arg, const void *in, size_t n) { (void)arg, (void)in, (void)n; }
static uint64_t m_contrib(void *arg) { (void)arg; return SIM_FOREVER; }
static int m_agreed(void *arg, uint64_t min, ncsim_time_t *next)
{
	(void)arg, (void)min;
	*next = SIM_FOREVER;
	return 0;
}
static int m_cut(void *arg, ncsim_time_t first, ncsim_time_t last, ncsim_time_t *t, sim_eid *src, uint64_t *seq)
{
	(void)arg;
	if (first > 100 || last < 100)
		return 0;
	*t = 100;
	*src = SIM_NO_ENTITY;
	*seq = 2;
	return 1;
}
static void m_at_cut(void *arg) { ((rec *)arg)->at_cut = ((rec *)arg)->n; }

static void test_cut(void)
{
	sim_ctx *ctx = sim_new(1);
	rec r = {.at_cut = -1};
	sim_entity_add(ctx, &log_type, &r);
	/* Four events from outside handlers at t = 100: numbers 0 to 3 of the context's own sequence. */
	for (int i = 0; i < 4; i++)
		sim_send(ctx, 0, 100, 0, NULL, 0);
	uint32_t owner = 0;
	char *err = NULL;
	par_run *pr = par_attach(ctx, &owner, 1, 1000, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
	par_model pm = {.arg = &r, .window_end = m_end, .contrib = m_contrib, .agreed = m_agreed, .cut = m_cut,
	                .at_cut = m_at_cut};
	par_set_model(pr, &pm);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	/* Keys (100, outside, 0) and (100, outside, 1) are below the cut, 2 and 3 are not. */
	CU_ASSERT_EQUAL(r.at_cut, 2);
	CU_ASSERT_EQUAL(r.n, 4);
	CU_ASSERT_EQUAL(par_get_stats(pr)->windows, 1);
	par_detach(pr);
	sim_free(ctx);
}

static void test_key_cmp(void)
{
	/* Time first, then source, then sequence. */
	CU_ASSERT_EQUAL(sim_key_cmp(1, 9, 9, 2, 0, 0), -1);
	CU_ASSERT_EQUAL(sim_key_cmp(2, 1, 9, 2, 2, 0), -1);
	CU_ASSERT_EQUAL(sim_key_cmp(2, 2, 3, 2, 2, 1), 1);
	CU_ASSERT_EQUAL(sim_key_cmp(2, 2, 3, 2, 2, 3), 0);
}

int main(void)
{
	static const ut_test tests[] = {
		{"reserved numbers keep the order", test_reserve},
		{"a window split at a key", test_cut},
		{"key order", test_key_cmp},
		{NULL, NULL},
	};
	return ut_run("par_keys", tests);
}

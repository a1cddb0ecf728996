/*
 * gen_comm.c - communication statements for the program generator: sends,
 * receives, multicasts, reductions, barriers and remapping (see gen_stmt.h).
 *
 * Every statement here must finish on any run of two or more tasks, so each
 * keeps to a shape that cannot deadlock under ncsim's rules (LANGUAGE.md 9.2:
 * a task posts the implicit receives of a send statement, blocking, before
 * its sends):
 *   - a synchronous send goes from one task to others, or from each task
 *     t to tasks on one side of t only (t + k, t - k, or u > t): the
 *     "receives from" relation has no cycle;
 *   - an asynchronous send may go anywhere (itself included) and the node
 *     ends with ALL TASKS AWAIT COMPLETION;
 *   - an explicit RECEIVES is paired, inside the node, with the UNSUSPECTING
 *     send that matches it (same count, size and tag text).
 */
#include "config.h"

#include <stdlib.h>

#include "tests/gen/gen_msg.h"
#include "tests/gen/gen_stmt.h"

/* The environment of a statement's parts once its source binds var (or none). */
static gen_env with_var(const gen_env *e, const char *var)
{
	gen_env r = *e;

	r.allow &= ~(unsigned)(GA_RANDOM | GA_COUNTERS | GA_FLOAT | GA_MYTASK);
	if (var && var[0])
		r.tvar[0] = var;
	return r;
}

/* A target on one side of the sender's variable v: TASK v+k, TASK v-k or TASKS u SUCH THAT u > v. */
static void one_sided_target(gen *g, const gen_env *e, const char *v)
{
	char u[16];
	gen_env te = *e;

	switch (gen_int(g, 0, 2)) {
	case 0:
	case 1:
		gen_printf(g, "TASK %s %s ", v, gen_chance(g, 60) ? "+" : "-");
		gen_bounded(g, e, 1, 3);
		return;
	default:
		gen_cover(g, GF_TE_SUCHTHAT);
		gen_fresh(g, "u", u);
		te.tvar[1] = u;
		gen_printf(g, "TASKS %s SUCH THAT %s %s %s /\\ (", u, u, gen_chance(g, 50) ? ">" : "<", v);
		gen_rel(g, &te, 1);
		gen_printf(g, ")");
		return;
	}
}

/* A synchronous send (WHO RECEIVES THEM too); *async: the receives were made asynchronous. */
static void sync_send_text(gen *g, const gen_env *e, int who, int *async)
{
	gen_msgspec m = { .verify_ok = 1 };
	char v[16];
	gen_env me;
	size_t s0, s1;

	*async = 0;
	if (gen_chance(g, 40)) { /* one sender */
		gen_cover(g, GF_TE_ONE);
		gen_printf(g, "TASK ");
		s0 = g->len;
		gen_bounded(g, &(gen_env){ 0 }, -1, 8);
		s1 = g->len;
		me = with_var(e, NULL);
		gen_printf(g, " %sSENDS ", gen_chance(g, 20) ? "SYNCHRONOUSLY " : "");
		gen_msg(g, &me, &m, 1);
		gen_printf(g, " TO ");
		if (gen_chance(g, 30)) {
			gen_cover(g, GF_TE_OTHERS);
			gen_printf(g, "ALL OTHER TASKS");
		} else {
			gen_distinct_target(g, &me, s0, s1);
		}
	} else {
		gen_tasks(g, e, TF_BINDING, v);
		me = with_var(e, v);
		gen_printf(g, " SENDS ");
		gen_msg(g, &me, &m, 1);
		gen_printf(g, " TO ");
		one_sided_target(g, &me, v);
	}
	if (who) {
		gen_cover(g, GF_ST_WHO_RECEIVES);
		gen_recv_override(g, &me, &m, async);
	}
}

void gen_sync_send(gen *g, const gen_env *e)
{
	int who = gen_chance(g, 25), async;
	size_t start = g->len;
	char *text;

	gen_cover(g, GF_ST_SEND_SYNC);
	sync_send_text(g, e, who, &async);
	if (!async)
		return;
	text = gen_take(g, start);
	gen_printf(g, "{ %s THEN ALL TASKS AWAIT COMPLETION }", text);
	free(text);
}

/*
 * Writes `SOURCE VERB spec TO TARGETS` for a send or a multicast: any target
 * description but ALL TASKS (others_pct percent ALL OTHER TASKS); returns the spec.
 */
static gen_msgspec to_targets(gen *g, const gen_env *e, unsigned sources, const char *verb, int others_pct)
{
	gen_msgspec m = { .verify_ok = 1 };
	char v[16], u[16];
	gen_env me;

	gen_tasks(g, e, sources, v);
	me = with_var(e, v);
	gen_printf(g, " %s ", verb);
	gen_msg(g, &me, &m, 1);
	gen_printf(g, " TO ");
	if (gen_chance(g, others_pct)) {
		gen_cover(g, GF_TE_OTHERS);
		gen_printf(g, "ALL OTHER TASKS");
	} else {
		gen_tasks(g, &me, TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE) | TFM(TF_GROUP), u);
	}
	return m;
}

/* One asynchronous send: any source, any target (itself included). */
static void async_send(gen *g, const gen_env *e)
{
	gen_msgspec m = to_targets(g, e, TF_SOURCES, "ASYNCHRONOUSLY SENDS", 30);

	if (!m.verify && gen_chance(g, 20)) { /* no SYNCHRONOUSLY: the receive stays asynchronous */
		gen_cover(g, GF_ST_WHO_RECEIVES);
		gen_printf(g, " WHO RECEIVES THEM WITH%s DATA TOUCHING", gen_chance(g, 50) ? "OUT" : "");
	}
}

void gen_async_group(gen *g, const gen_env *e)
{
	int n = (int)gen_int(g, 1, 3);
	gen_list l;

	gen_cover(g, GF_ST_SEND_ASYNC);
	gen_list_begin(g, &l);
	for (int i = 0; i < n; i++) {
		size_t before = gen_list_item(g, &l), start;
		int id = gen_node_begin(g, &start);

		async_send(g, e);
		gen_list_done(g, &l, before, gen_node_end(g, id, start));
	}
	gen_list_item(g, &l);
	gen_printf(g, "ALL TASKS AWAIT COMPLETION");
	gen_list_done(g, &l, 0, 1);
	gen_list_end(g, &l);
}

/* `TASK r RECEIVES ... FROM TASK s` and its UNSUSPECTING send, r != s, in either order. */
static void receive_pair(gen *g, const gen_env *e)
{
	gen_env me = with_var(e, NULL);
	gen_msgspec m = { .verify_ok = 1 }, rm;
	int async = gen_chance(g, 40), recv_first = gen_chance(g, 50);
	size_t s0 = g->len, s1;
	char *s, *r, *spec;

	/* s = x MOD num_tasks; r from gen_distinct_target */
	gen_printf(g, "((");
	gen_expr(g, &me, 1);
	gen_printf(g, ") MOD num_tasks)");
	s1 = g->len;
	gen_distinct_target(g, &me, s0, s1);
	r = gen_take(g, s1);
	s = gen_take(g, s0);
	gen_msg(g, &me, &m, 0);
	spec = gen_take(g, s0);
	rm = m;
	rm.recv = 1;
	gen_printf(g, "{ ");
	for (int side = 0; side < 2; side++) {
		if (side)
			gen_printf(g, " THEN ");
		if ((side == 0) == recv_first) {
			gen_printf(g, "%s %sRECEIVES %s", r, async ? "ASYNCHRONOUSLY " : "", spec);
			gen_buffer(g, &me, &rm);
			gen_printf(g, " FROM TASK %s", s);
		} else {
			gen_printf(g, "TASK %s SENDS %s", s, spec);
			gen_buffer(g, &me, &m);
			gen_printf(g, " TO UNSUSPECTING %s", r);
		}
	}
	gen_printf(g, "%s }", async ? " THEN ALL TASKS AWAIT COMPLETION" : "");
	free(r);
	free(s);
	free(spec);
}

/* Every task t receives from (t + k) MOD n, asynchronously; every task u sends to (u - k) MOD n. */
static void receive_ring(gen *g, const gen_env *e)
{
	gen_env me = with_var(e, NULL);
	gen_msgspec m = { .verify_ok = 1 }, rm;
	char t[16], u[16];
	size_t k0, k1, m0, m1;

	gen_fresh(g, "t", t);
	gen_fresh(g, "t", u);
	/* receivers may not be ALL TASKS: every task as a SUCH THAT */
	gen_cover(g, GF_TE_SUCHTHAT);
	gen_printf(g, "{ TASKS %s SUCH THAT %s >= 0 ASYNCHRONOUSLY RECEIVES ", t, t);
	m0 = g->len;
	gen_msg(g, &me, &m, 0);
	m1 = g->len;
	rm = m;
	rm.recv = 1;
	gen_buffer(g, &me, &rm);
	gen_printf(g, " FROM TASK (%s + ", t);
	k0 = g->len;
	gen_bounded(g, &me, 0, 9);
	k1 = g->len;
	gen_printf(g, ") MOD num_tasks THEN ALL TASKS %s %sSENDS ", u, gen_chance(g, 30) ? "ASYNCHRONOUSLY " : "");
	gen_repeat(g, m0, m1);
	gen_buffer(g, &me, &m);
	gen_printf(g, " TO UNSUSPECTING TASK (%s + num_tasks - (", u);
	gen_repeat(g, k0, k1);
	gen_printf(g, ") MOD num_tasks) MOD num_tasks THEN ALL TASKS AWAIT COMPLETION }");
}

void gen_receive(gen *g, const gen_env *e)
{
	gen_cover(g, GF_ST_RECEIVE);
	if (gen_chance(g, 50))
		receive_pair(g, e);
	else
		receive_ring(g, e);
}

void gen_multicast(gen *g, const gen_env *e)
{
	gen_cover(g, GF_ST_MULTICAST);
	to_targets(g, e, TFM(TF_ONE) | TFM(TF_ALL) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE), "MULTICASTS", 40);
}

/* count [UNIQUE] [alignment] INTEGERS|DOUBLEWORDS [touching] [tag] [buffer]; the count's text is [c0, c1). */
static void reduce_spec(gen *g, const gen_env *e, int recv, size_t *c0, size_t *c1, int *dbl)
{
	gen_msgspec m = { .recv = recv };

	*c0 = g->len;
	gen_bounded(g, e, 1, 300);
	*c1 = g->len;
	m.unique = gen_chance(g, 10);
	gen_printf(g, "%s", m.unique ? " UNIQUE" : "");
	*dbl = gen_chance(g, 50);
	gen_printf(g, " %s", *dbl ? "DOUBLEWORDS" : "INTEGERS");
	if (gen_chance(g, 20))
		gen_printf(g, " WITH DATA TOUCHING");
	gen_buffer(g, e, &m);
}

void gen_reduce(gen *g, const gen_env *e)
{
	gen_env me = with_var(e, NULL);
	char v[16], u[16];
	size_t c0, c1;
	int dbl;

	gen_tasks(g, e, TFM(TF_ALL) | TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE) | TFM(TF_GROUP), v);
	gen_printf(g, " REDUCES ");
	reduce_spec(g, &me, 0, &c0, &c1, &dbl);
	switch (gen_int(g, 0, 3)) {
	case 0:
		gen_cover(g, GF_ST_REDUCE_ALL);
		return;
	case 1:
		gen_cover(g, GF_ST_REDUCE_ALL);
		gen_printf(g, " TO ");
		gen_repeat(g, c0, c1);
		gen_printf(g, " %s", dbl ? "DOUBLEWORDS" : "INTEGERS");
		return;
	default:
		gen_cover(g, GF_ST_REDUCE_TO);
		gen_printf(g, " TO ");
		gen_tasks(g, &me, TFM(TF_ALL) | TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE), u);
		if (gen_chance(g, 40)) {
			gen_printf(g, " WHO RECEIVES THE RESULT AS ");
			gen_repeat(g, c0, c1);
			gen_printf(g, " %s", dbl ? "DOUBLEWORDS" : "INTEGERS");
		}
		return;
	}
}

void gen_synchronize(gen *g, const gen_env *e)
{
	char v[16];

	gen_cover(g, GF_ST_SYNC);
	gen_tasks(g, e, TF_SOURCES, v);
	gen_printf(g, " SYNCHRONIZE");
}

void gen_assign(gen *g, const gen_env *e)
{
	char v[16];
	gen_env me;

	gen_cover(g, GF_ST_ASSIGN);
	gen_tasks(g, e, TFM(TF_ALLVAR) | TFM(TF_ONE) | TFM(TF_SUCHTHAT), v);
	me = with_var(e, v);
	if (gen_chance(g, 20)) {
		gen_printf(g, " ARE ASSIGNED TO A RANDOM PROCESSOR");
		return;
	}
	gen_printf(g, " ARE ASSIGNED TO PROCESSOR ((");
	gen_expr(g, &me, 2);
	gen_printf(g, ") MOD num_tasks)");
}

/*
 * gen_comm.c - communication statements for the program generator: sends,
 * receives, multicasts, reductions, barriers, remapping, the traffic
 * models and BACKEND EXECUTES calls of the skeleton API (see gen_stmt.h).
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
 *     send that matches it (same count, size and tag text);
 *   - a traffic statement or a collective of backend code is run by a
 *     group that every task computes alike, with uniform parameters.
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

/* ------------------------------------------- traffic models (§14.3) */

/*
 * The group of a traffic statement: two or more tasks (num_tasks >= 2), and
 * the same members on every task, since all members run the statement
 * together with equal parameters (doc/traffic.md).
 */
static void traffic_group(gen *g, const gen_env *e)
{
	char v[16];

	switch (gen_int(g, 0, 2)) {
	case 0:
		gen_cover(g, GF_TE_ALL);
		gen_printf(g, "ALL TASKS");
		return;
	case 1:
		gen_cover(g, GF_TE_ALLVAR);
		gen_fresh(g, "t", v);
		gen_printf(g, "ALL TASKS %s", v);
		return;
	default:
		gen_cover(g, GF_TE_SUCHTHAT);
		gen_fresh(g, "t", v);
		gen_printf(g, "TASKS %s SUCH THAT %s < ", v, v);
		gen_bounded(g, e, 2, 5);
		return;
	}
}

/* A destination law every member can use to reach another one (small means and deviations). */
static void dest_dist(gen *g, const gen_env *e)
{
	switch (gen_int(g, 0, 2)) {
	case 0:
		gen_printf(g, "UNIFORM");
		return;
	case 1:
		gen_printf(g, "GAUSSIAN");
		if (gen_chance(g, 60)) {
			gen_bounded_in(g, e, " WITH MEAN ", 0, 2, " AND DEVIATION ");
			gen_bounded(g, e, 1, 2);
		}
		return;
	default:
		gen_printf(g, "POISSON");
		if (gen_chance(g, 60)) {
			gen_printf(g, " WITH MEAN ");
			gen_bounded(g, e, 1, 2);
		}
		return;
	}
}

/* ` TO law DESTINATIONS` with probability pct. */
static void opt_dest(gen *g, const gen_env *e, int pct)
{
	if (!gen_chance(g, pct))
		return;
	gen_printf(g, " TO ");
	dest_dist(g, e);
	gen_printf(g, " DESTINATIONS");
}

/* DCNW: a few messages of a model whose mean size is a few hundred bytes. */
void gen_dcnw(gen *g, const gen_env *e)
{
	static const char *const models[] = { "FB_KEY_VALUE", "GOOGLE_SEARCH" };

	gen_cover(g, GF_ST_DCNW);
	traffic_group(g, e);
	gen_printf(g, " GENERATE ");
	gen_bounded(g, e, 1, 6);
	gen_printf(g, " MESSAGES OF %s TRAFFIC", models[gen_int(g, 0, 1)]);
	opt_dest(g, e, 50);
	if (gen_chance(g, 50)) {
		gen_bounded_in(g, e, " AT ", 1, 10, " GBPS");
	}
}

/* One FLOWS class of pct percent: a few hundred bytes to two kilobytes. */
static void flow_class(gen *g, const gen_env *e, int pct)
{
	if (gen_chance(g, 20)) {
		gen_printf(g, "1 TO 2 KILOBYTES");
	} else {
		gen_bounded(g, e, 1, 200);
		gen_printf(g, " TO %d BYTES", (int)gen_int(g, 200, 2000));
	}
	gen_printf(g, " FOR %d PERCENT", pct);
	opt_dest(g, e, 30);
}

/* FLOWS: a few flows over a few microseconds, in one to three classes whose percentages sum to 100. */
void gen_flows(gen *g, const gen_env *e)
{
	static const char *const units[] = { "MICROSECONDS", "NANOSECONDS", "CYCLES" };
	int u = (int)gen_int(g, 0, 2), n = (int)gen_int(g, 1, 3), left = 100;

	gen_cover(g, GF_ST_FLOWS);
	traffic_group(g, e);
	gen_bounded_in(g, e, " GENERATE ", 1, 6, " FLOWS OVER ");
	if (u == 0)
		gen_bounded(g, e, 1, 5);
	else
		gen_bounded(g, e, 100, 5000);
	gen_printf(g, " %s", units[u]);
	opt_dest(g, e, 40);
	gen_printf(g, " WITH CLASSES {");
	for (int i = 0; i < n; i++) {
		int pct = i == n - 1 ? left : (int)gen_int(g, 1, left - (n - 1 - i));
		left -= pct;
		gen_printf(g, "%s", i ? ", " : "");
		flow_class(g, e, pct);
	}
	gen_printf(g, "}");
}

/*
 * HOROVOD parameter k (0..6). A positive GATHERV TOTAL goes with a
 * GATHERV of 100 bytes or more and a probability of 0.5 or more, so a
 * negotiation takes a few rounds (doc/traffic.md's bound: total /
 * (probability x gatherv / 2)).
 */
static void hvd_param(gen *g, const gen_env *e, int k, int total)
{
	static const char *const probs[] = { "0.5", "0.75", "1" };

	switch (k) {
	case 0:
		gen_bounded_in(g, e, "COMPUTE ", 0, 3, " MICROSECONDS");
		return;
	case 1:
		gen_bounded_in(g, e, "NEGOTIATION LOOP ", 0, 2, " MICROSECONDS");
		return;
	case 2:
		gen_bounded_in(g, e, "GATHERV ", 100, 300, " BYTES");
		return;
	case 3:
		gen_printf(g, "GATHERV TOTAL %d BYTES", total);
		return;
	case 4:
		gen_printf(g, "GATHERV PROBABILITY %s", total ? probs[gen_int(g, 0, 2)] : gen_chance(g, 50) ? "0" : "0.3");
		return;
	case 5:
		gen_bounded_in(g, e, "BROADCAST ", 0, 500, " BYTES");
		return;
	default:
		if (gen_chance(g, 20)) {
			gen_printf(g, "ALLREDUCE 1 KILOBYTES");
			return;
		}
		gen_bounded_in(g, e, "ALLREDUCE ", 0, 64, " BYTES");
		return;
	}
}

/* HOROVOD: one or two batches of one to three layers, all seven defaults in a random order, maybe a layer-0 override. */
void gen_horovod(gen *g, const gen_env *e)
{
	static const int safe[] = { 0, 2, 5, 6 }; /* what an override may change without the bound above */
	int order[7], total = gen_chance(g, 60) ? 0 : (int)gen_int(g, 50, 150);

	gen_cover(g, GF_ST_HOROVOD);
	traffic_group(g, e);
	gen_bounded_in(g, e, " TRAIN WITH HOROVOD FOR ", 1, 2, " BATCHES OF ");
	gen_bounded(g, e, 1, 3);
	gen_printf(g, " LAYERS WITH ");
	for (int i = 0; i < 7; i++)
		order[i] = i;
	for (int i = 6; i > 0; i--) {
		int j = (int)gen_int(g, 0, i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < 7; i++) {
		gen_printf(g, "%s", i ? ", " : "");
		hvd_param(g, e, order[i], total);
	}
	if (gen_chance(g, 40)) {
		int a = (int)gen_int(g, 0, 3), b = (int)gen_int(g, 0, 3);
		gen_printf(g, " AND LAYER 0 WITH ");
		hvd_param(g, e, safe[a], total);
		if (b != a) {
			gen_printf(g, ", ");
			hvd_param(g, e, safe[b], total);
		}
	}
}

/* -------------------------------------------- BACKEND EXECUTES (§8.12) */

/*
 * A number argument in [lo, hi] inside the string of backend code: a
 * literal, or an expression item behind a cast. Items are evaluated in
 * floating-point context, where `/` is true division, so the item folds
 * its expression with ABS and MOD rather than trusting gen_bounded's
 * integer-context bound.
 */
static void backend_number(gen *g, const gen_env *e, const char *cast, int lo, int hi)
{
	if (gen_chance(g, 30)) {
		gen_printf(g, "%d", (int)gen_int(g, lo, hi));
		return;
	}
	gen_printf(g, "%s\" AND (%d + ABS(", cast, lo);
	gen_expr(g, e, 1);
	gen_printf(g, ") MOD %d) AND \"", hi - lo + 1);
}

/* UNION_Compute(ns), with a little arithmetic around the number sometimes. */
static void backend_compute(gen *g, const gen_env *e)
{
	gen_printf(g, "UNION_Compute(");
	if (gen_chance(g, 30))
		gen_printf(g, "%d + %d * ", (int)gen_int(g, 0, 500), (int)gen_int(g, 1, 3));
	backend_number(g, e, gen_chance(g, 50) ? "(double)" : "", 0, 1000);
	gen_printf(g, ");");
}

/* A datatype and an operation, with the MPI spelling (mpi) or the Union one. */
static const char *backend_type(gen *g, int mpi)
{
	static const char *const t[][2] = { { "UNION_Int", "MPI_INT" }, { "UNION_Double", "MPI_DOUBLE" },
		                            { "UNION_Char", "MPI_CHAR" }, { "UNION_Long", "MPI_LONG" } };
	return t[gen_int(g, 0, 3)][mpi];
}

static const char *backend_op(gen *g, int mpi)
{
	static const char *const o[][2] = { { "UNION_Op_Sum", "MPI_SUM" }, { "UNION_Op_Max", "MPI_MAX" },
		                            { "UNION_Op_Min", "MPI_MIN" } };
	return o[gen_int(g, 0, 2)][mpi];
}

/* A collective of the skeleton API over the world; every task must run it (uniform arguments in e). */
static void backend_collective(gen *g, const gen_env *e)
{
	int mpi = gen_chance(g, 40);
	const char *pre = mpi ? "" : "UNION_", *world = mpi ? "MPI_COMM_WORLD" : "UNION_Comm_World";
	size_t c0, c1;

	switch (gen_int(g, 0, 4)) {
	case 0:
		gen_printf(g, "%sMPI_Barrier(%s);", pre, world);
		return;
	case 1:
		gen_printf(g, "%sMPI_Allreduce(NULL, NULL, ", pre);
		backend_number(g, e, "(int)", 0, 64);
		gen_printf(g, ", %s, %s, %s);", backend_type(g, mpi), backend_op(g, mpi), world);
		return;
	case 2:
		gen_printf(g, "%sMPI_Bcast(NULL, ", pre);
		backend_number(g, e, "(int)", 0, 64);
		gen_printf(g, ", %s, ", backend_type(g, mpi));
		backend_number(g, e, "(int)", 0, 1); /* num_tasks >= 2 */
		gen_printf(g, ", %s);", world);
		return;
	case 3:
		gen_printf(g, "%sMPI_Reduce(NULL, NULL, ", pre);
		backend_number(g, e, "(int)", 0, 64);
		gen_printf(g, ", %s, %s, ", backend_type(g, mpi), backend_op(g, mpi));
		backend_number(g, e, "(int)", 0, 1);
		gen_printf(g, ", %s);", world);
		return;
	default: {
		const char *type = backend_type(g, mpi);
		gen_printf(g, "%sMPI_Alltoall(NULL, ", pre);
		c0 = g->len;
		backend_number(g, e, "(int)", 0, 16);
		c1 = g->len;
		gen_printf(g, ", %s, NULL, ", type);
		gen_repeat(g, c0, c1); /* the receive side must match the send side */
		gen_printf(g, ", %s, %s);", type, world);
		return;
	}
	}
}

/* One to three calls of UNION_Compute by any tasks (items may use the task variable). */
void gen_backend_local(gen *g, const gen_env *e)
{
	char v[16];
	gen_env me;

	gen_cover(g, GF_ST_BACKEND);
	gen_tasks(g, e, TF_SOURCES, v);
	me = with_var(e, v);
	gen_printf(g, " BACKEND EXECUTE \"");
	for (int i = 0, n = (int)gen_int(g, 1, 3); i < n; i++) {
		gen_printf(g, "%s", i ? " " : "");
		backend_compute(g, &me);
	}
	gen_printf(g, "\"");
}

/* ALL TASKS run one or two collectives, maybe with a compute between. */
void gen_backend_collective(gen *g, const gen_env *e)
{
	char v[16] = "";
	gen_env me;

	gen_cover(g, GF_ST_BACKEND_COLL);
	if (gen_chance(g, 50)) {
		gen_cover(g, GF_TE_ALL);
		gen_printf(g, "ALL TASKS");
	} else {
		gen_cover(g, GF_TE_ALLVAR);
		gen_fresh(g, "t", v);
		gen_printf(g, "ALL TASKS %s", v);
	}
	me = with_var(e, v);
	gen_printf(g, " BACKEND EXECUTE \"");
	backend_collective(g, e);
	if (gen_chance(g, 30)) {
		gen_printf(g, " ");
		backend_compute(g, &me);
	}
	if (gen_chance(g, 30)) {
		gen_printf(g, " ");
		backend_collective(g, e);
	}
	gen_printf(g, "\"");
}

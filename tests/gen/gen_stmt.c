/*
 * gen_stmt.c - statement nodes of the program generator: the local
 * statements, the control statements, the choice among all kinds, and the
 * whole program (see gen_stmt.h).
 *
 * Budgets keep every program short in simulated time: loops nest while the
 * product of their largest trip counts (g->iters) stays under ITER_BUDGET,
 * durations are a few microseconds, and timed loops carry their own
 * COMPUTES so that a dropped body cannot make their calibration spin.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/gen/gen_msg.h"
#include "tests/gen/gen_stmt.h"

#define ITER_BUDGET 60

/* The environment of statement-level expressions: uniform across tasks. */
static const gen_env uniform_env = { 0, { NULL, NULL } };

static void newline(gen *g)
{
	gen_printf(g, "\n%*s", 2 * g->depth, "");
}

/* ------------------------------------------------------- node plumbing */

int gen_node_begin(gen *g, size_t *start)
{
	*start = g->len;
	return g->next_id++;
}

int gen_node_end(gen *g, int id, size_t start)
{
	if (g->drop && id < g->ndrop && g->drop[id]) {
		g->len = start;
		return 0;
	}
	return 1;
}

void gen_list_begin(gen *g, gen_list *l)
{
	gen_printf(g, "{");
	l->any = 0;
	g->depth++;
}

size_t gen_list_item(gen *g, gen_list *l)
{
	size_t before = g->len;

	if (l->any)
		gen_printf(g, " THEN");
	newline(g);
	return before;
}

void gen_list_done(gen *g, gen_list *l, size_t before, int kept)
{
	if (kept)
		l->any = 1;
	else
		g->len = before;
}

void gen_list_end(gen *g, gen_list *l)
{
	g->depth--;
	if (l->any)
		newline(g);
	else
		gen_printf(g, " ");
	gen_printf(g, "}");
}

/* Writes 1..max statement nodes as items of l. */
static void items(gen *g, gen_list *l, int max)
{
	for (int i = (int)gen_int(g, 1, max); i > 0; i--) {
		size_t before = gen_list_item(g, l);

		gen_list_done(g, l, before, gen_stmt(g));
	}
}

/* Starts an item of l that belongs to its node (never dropped on its own). */
static void fixed_item(gen *g, gen_list *l)
{
	gen_list_item(g, l);
	gen_list_done(g, l, 0, 1);
}

/* A block of 1..max statement nodes (the body of a loop, LET or IF). */
static void body(gen *g, int max)
{
	gen_list l;

	gen_list_begin(g, &l);
	items(g, &l, max);
	gen_list_end(g, &l);
}

/* --------------------------------------------------- local statements */

/* The source of a local statement and the environment its parts see (v: its variable). */
static gen_env local_source(gen *g, char v[16])
{
	gen_env e = { GA_RANDOM | GA_COUNTERS, { NULL, NULL } };

	gen_tasks(g, &uniform_env, TF_SOURCES, v);
	if (v[0])
		e.tvar[0] = v;
	return e;
}

static void st_delay(gen *g)
{
	static const char *const units[] = { "MICROSECONDS", "MICROSECOND", "NANOSECONDS" };
	int sleep = gen_chance(g, 30), u = (int)gen_int(g, 0, 2);
	char v[16];
	gen_env e = local_source(g, v);

	gen_cover(g, sleep ? GF_ST_SLEEP : GF_ST_COMPUTE);
	gen_printf(g, " %s FOR ", sleep ? "SLEEP" : "COMPUTE");
	if (gen_chance(g, 15)) {
		gen_printf(g, "%d.%d", (int)gen_int(g, 0, 3), (int)gen_int(g, 0, 9));
		u = 0;
	} else {
		gen_bounded(g, &e, 0, u == 2 ? 3000 : 8);
	}
	gen_printf(g, " %s", units[u]);
}

static void st_touch(gen *g)
{
	char v[16];
	gen_env e = local_source(g, v);

	gen_cover(g, GF_ST_TOUCH);
	e.allow &= ~(unsigned)GA_COUNTERS;
	gen_printf(g, " TOUCH ");
	if (gen_chance(g, 30)) { /* n words of a region of at least 16 words */
		gen_bounded(g, &e, 0, 16);
		gen_printf(g, " WORDS OF ");
	}
	gen_printf(g, "A ");
	gen_bounded(g, &e, 64, 4096);
	gen_printf(g, " BYTE MEMORY REGION");
	if (gen_chance(g, 40)) {
		gen_printf(g, " ");
		gen_bounded(g, &e, 0, 3);
		gen_printf(g, " TIMES");
	}
	if (gen_chance(g, 20))
		gen_printf(g, " WITH RANDOM STRIDE");
	else if (gen_chance(g, 25))
		gen_printf(g, " WITH STRIDE %d WORDS", (int)gen_int(g, 1, 4));
}

static void st_touch_buffers(gen *g)
{
	char v[16];
	gen_env e = local_source(g, v);

	gen_cover(g, GF_ST_TOUCH_BUF);
	switch (gen_int(g, 0, 2)) {
	case 0:
		gen_printf(g, " TOUCHES ALL MESSAGE BUFFERS");
		return;
	case 1:
		gen_printf(g, " TOUCHES THE CURRENT MESSAGE BUFFER");
		return;
	default:
		e.allow &= ~(unsigned)(GA_COUNTERS | GA_RANDOM);
		gen_printf(g, " TOUCHES MESSAGE BUFFER ");
		gen_bounded(g, &e, -1, 4);
		return;
	}
}

/* A string literal with letters, punctuation and now and then an escape. */
static void string_literal(gen *g)
{
	static const char chars[] = "abcdefXYZ0123 ,.:;=+-_()[]{}#'!?";
	static const char *const escapes[] = { "\\n", "\\t", "\\\\", "\\\"" };
	int n = (int)gen_int(g, 0, 8);

	gen_printf(g, "\"");
	for (int i = 0; i < n; i++) {
		if (gen_chance(g, 5))
			gen_printf(g, "%s", escapes[gen_int(g, 0, 3)]);
		else
			gen_printf(g, "%c", chars[gen_int(g, 0, (int)sizeof chars - 2)]);
	}
	gen_printf(g, "\"");
}

static void st_output(gen *g)
{
	static const char *const keys[] = { "Number of tasks", "Rank (0<=P<tasks)", "first parameter",
	                                    "Log-file template", "no such key" };
	char v[16];
	gen_env e = local_source(g, v);
	int n = (int)gen_int(g, 1, 4);

	gen_cover(g, GF_ST_OUTPUT);
	e.allow |= GA_FLOAT;
	gen_printf(g, " OUTPUTS ");
	for (int i = 0; i < n; i++) {
		int k = (int)gen_int(g, 0, 9);

		gen_printf(g, i ? " AND " : "");
		if (k <= 2) {
			string_literal(g);
		} else if (k == 3) {
			gen_cover(g, GF_OUT_VALUE_OF);
			gen_printf(g, "THE VALUE OF \"%s\"", keys[gen_int(g, 0, 4)]);
		} else {
			gen_expr(g, &e, 2);
		}
	}
}

/* One LOGS column: an aggregate of an expression AS a heading. */
static void log_column(gen *g, const gen_env *e)
{
	static const struct { const char *text; enum gen_feature f; } aggs[] = {
		{ "THE MEAN OF ", GF_AG_MEAN }, { "THE ARITHMETIC MEAN OF THE ", GF_AG_MEAN },
		{ "THE MEDIAN ", GF_AG_MEDIAN }, { "THE MEDIAN ABSOLUTE DEVIATION OF ", GF_AG_MAD },
		{ "THE STANDARD DEVIATION OF ", GF_AG_STDDEV }, { "THE VARIANCE OF ", GF_AG_VARIANCE },
		{ "THE SUM OF ", GF_AG_SUM }, { "THE MINIMUM OF ", GF_AG_MIN }, { "THE MAXIMUM OF ", GF_AG_MAX },
		{ "THE FINAL ", GF_AG_FINAL }, { "A HISTOGRAM OF ", GF_AG_HISTOGRAM },
		{ "THE MINIMUM AND THE MAXIMUM OF ", GF_AG_MAX }, { "EACH ", GF_AG_EACH }, { "", GF_AG_EACH },
	};
	int k = (int)gen_int(g, 0, 17);

	if (k < 14) {
		gen_cover(g, aggs[k].f);
		gen_printf(g, "%s", aggs[k].text);
		gen_expr(g, e, 2);
	} else if (k == 14) { /* harmonic and geometric means: no zero value */
		int h = gen_chance(g, 50);

		gen_cover(g, h ? GF_AG_HMEAN : GF_AG_GMEAN);
		gen_printf(g, "THE %s MEAN OF ", h ? "HARMONIC" : "GEOMETRIC");
		gen_bounded(g, e, 1, 20);
	} else if (k == 15) {
		gen_cover(g, GF_AG_PERCENTILE);
		gen_printf(g, "THE %d PERCENTILE OF ", (int)gen_int(g, 0, 100));
		gen_expr(g, e, 2);
	} else { /* THE e: one value only, so nothing that changes between executions */
		gen_cover(g, GF_AG_ONLY);
		gen_printf(g, "THE %s", gen_chance(g, 50) ? "num_tasks" : gen_chance(g, 50) ? "p1" : "(p2 * 3)");
	}
	gen_printf(g, " AS \"h%d\"", (int)gen_int(g, 0, 9));
}

static void st_log(gen *g)
{
	char v[16];
	gen_env e = local_source(g, v);
	int n = (int)gen_int(g, 1, 3);

	gen_cover(g, GF_ST_LOG);
	g->uses_log = 1;
	e.allow |= GA_FLOAT;
	gen_printf(g, " LOGS ");
	for (int i = 0; i < n; i++) {
		gen_printf(g, i ? " AND " : "");
		log_column(g, &e);
	}
}

/* RESETS, COMPUTES AGGREGATES or AWAITS COMPLETION: a source and a phrase. */
static void st_phrase(gen *g, enum gen_feature f, const char *phrase)
{
	char v[16];

	gen_cover(g, f);
	local_source(g, v);
	gen_printf(g, " %s", phrase);
}

/* { S STORES THEIR COUNTERS THEN ... THEN S RESTORES THEIR COUNTERS }: the pair cannot be split. */
static void st_store(gen *g)
{
	char v[16];
	size_t s0, s1;
	gen_list l;

	gen_cover(g, GF_ST_STORE);
	gen_list_begin(g, &l);
	fixed_item(g, &l);
	s0 = g->len;
	gen_tasks(g, &uniform_env, TFM(TF_ALL) | TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE), v);
	s1 = g->len;
	gen_printf(g, " STORES THEIR COUNTERS");
	g->in_store++;
	items(g, &l, 2);
	g->in_store--;
	fixed_item(g, &l);
	gen_repeat(g, s0, s1);
	gen_printf(g, " RESTORE THEIR COUNTERS");
	gen_list_end(g, &l);
}

static void st_assert(gen *g)
{
	gen_env e = { GA_COUNTERS, { NULL, NULL } };

	gen_cover(g, GF_ST_ASSERT);
	gen_printf(g, "ASSERT THAT ");
	string_literal(g);
	gen_printf(g, " WITH ");
	gen_tautology(g, &e);
}

/* READS or WRITES, on file 0 or the open file of an enclosing OPENS block. */
static void st_io(gen *g)
{
	size_t start = g->len;
	char v[16];
	gen_env e = local_source(g, v);
	int write = gen_chance(g, 50), async = gen_chance(g, 30);
	char *text;

	gen_cover(g, GF_ST_IO);
	e.allow &= ~(unsigned)(GA_COUNTERS | GA_RANDOM);
	gen_printf(g, " %s%s ", async ? "ASYNCHRONOUSLY " : "", write ? "WRITES" : "READS");
	gen_bounded(g, &e, 0, 5000);
	gen_printf(g, "%s", gen_chance(g, 50) ? " BYTES" : "");
	if (g->file_open || gen_chance(g, 30))
		gen_printf(g, " %s FILE %d", write ? "TO" : "FROM", g->file_open);
	if (gen_chance(g, 30)) {
		gen_printf(g, " AT OFFSET ");
		gen_bounded(g, &e, 0, 100000);
		gen_printf(g, " BYTES");
	}
	if (!async)
		return;
	text = gen_take(g, start);
	gen_printf(g, "{ %s THEN ALL TASKS AWAIT COMPLETION }", text);
	free(text);
}

/* ------------------------------------------------- control statements */

static void st_block(gen *g)
{
	gen_cover(g, GF_ST_BLOCK);
	body(g, 3);
}

static void st_open(gen *g)
{
	int file = g->file_open, saved = g->file_open;
	gen_list l;

	gen_cover(g, GF_ST_IO_OPEN);
	file = (int)gen_int(g, 1, 5) + 10 * g->depth;
	gen_list_begin(g, &l);
	fixed_item(g, &l);
	gen_printf(g, "ALL TASKS OPEN FILE %d%s", file, gen_chance(g, 50) ? " FOR READING AND WRITING" : "");
	g->file_open = file;
	items(g, &l, 2);
	g->file_open = saved;
	fixed_item(g, &l);
	gen_printf(g, "ALL TASKS CLOSE FILE %d", file);
	gen_list_end(g, &l);
}

/* ` PLUS w WARMUP unit [AND A SYNCHRONIZATION]` (w in [0, max]), now and then. */
static void warmup(gen *g, int pct, int max, const char *unit, int sync_ok)
{
	if (!gen_chance(g, pct))
		return;
	gen_cover(g, GF_ST_FOR_WARMUP);
	gen_printf(g, " PLUS ");
	gen_bounded(g, &uniform_env, 0, max);
	gen_printf(g, " WARMUP %s%s", unit, sync_ok && gen_chance(g, 50) ? " AND A SYNCHRONIZATION" : "");
}

static void st_for_reps(gen *g)
{
	gen_env e = uniform_env;
	int saved = g->iters;

	gen_cover(g, GF_ST_FOR_REPS);
	if (g->local_only)
		e.allow |= GA_RANDOM; /* the trip count may differ between tasks: nothing here communicates */
	gen_printf(g, "FOR ");
	gen_bounded(g, &e, 0, 3);
	gen_printf(g, " REPETITIONS");
	warmup(g, 30, 2, "REPETITIONS", !g->local_only);
	gen_printf(g, " ");
	g->iters *= 5;
	body(g, 3);
	g->iters = saved;
}

static void st_for_each(gen *g)
{
	char v[16];
	int saved = g->iters, n;

	gen_cover(g, GF_ST_FOR_EACH);
	gen_fresh(g, "i", v);
	gen_printf(g, "FOR EACH %s IN ", v);
	g->comp_here = 1;
	n = gen_range(g, &uniform_env);
	gen_printf(g, " ");
	g->iters *= n;
	g->vars[g->nvars++] = v;
	body(g, 3);
	g->nvars--;
	g->iters = saved;
}

static void st_timed(gen *g)
{
	int saved = g->iters;
	gen_list l;

	gen_cover(g, GF_ST_FOR_TIME);
	gen_printf(g, "FOR ");
	gen_bounded(g, &uniform_env, 10, 40);
	gen_printf(g, " MICROSECONDS");
	warmup(g, 40, 20, "MICROSECONDS", 1);
	gen_printf(g, " ");
	/* calibration (1 + 10 iterations) and then at most 40 / 5 timed ones */
	g->iters *= 20;
	g->in_timed = 1;
	gen_list_begin(g, &l);
	fixed_item(g, &l);
	gen_printf(g, "ALL TASKS COMPUTE FOR 5 MICROSECONDS");
	items(g, &l, 2);
	gen_list_end(g, &l);
	g->in_timed = 0;
	g->iters = saved;
}

/* v BE A RANDOM TASK [constraint] */
static void random_task(gen *g)
{
	gen_cover(g, GF_ST_LET_RANDOM);
	gen_printf(g, "A RANDOM TASK");
	switch (gen_int(g, 0, 4)) {
	case 0:
		return;
	case 1:
		gen_printf(g, " OTHER THAN ");
		gen_bounded(g, &uniform_env, -1, 8);
		return;
	case 2:
	case 3:
		gen_printf(g, " %s THAN ", gen_chance(g, 50) ? "LESS" : "GREATER");
		gen_bounded(g, &uniform_env, -1, 8);
		break;
	default:
		gen_printf(g, " IN [");
		gen_bounded(g, &uniform_env, -1, 8);
		gen_printf(g, ", ");
		gen_bounded(g, &uniform_env, -1, 8);
		gen_printf(g, "]");
		break;
	}
	if (gen_chance(g, 40)) {
		gen_printf(g, " BUT NOT ");
		gen_bounded(g, &uniform_env, -1, 8);
	}
}

static void st_let(gen *g)
{
	int n = (int)gen_int(g, 1, 2), nv = g->nvars, ng = g->ngroups;
	char names[2][16];

	gen_cover(g, GF_ST_LET);
	gen_printf(g, "LET ");
	for (int i = 0; i < n; i++) {
		int k = (int)gen_int(g, 0, 5);

		gen_printf(g, i ? " AND " : "");
		if (k == 0 && g->ngroups < GEN_MAX_VARS) {
			char v[16];

			gen_cover(g, GF_ST_LET_GROUP);
			gen_fresh(g, "g", names[i]);
			gen_printf(g, "%s BE ", names[i]);
			gen_tasks(g, &uniform_env, TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE), v);
			g->groups[g->ngroups++] = names[i];
			continue;
		}
		gen_fresh(g, "x", names[i]);
		gen_printf(g, "%s BE ", names[i]);
		if (k == 1)
			random_task(g);
		else
			gen_expr(g, &uniform_env, 3);
		g->vars[g->nvars++] = names[i];
	}
	gen_printf(g, " WHILE ");
	body(g, 3);
	g->nvars = nv;
	g->ngroups = ng;
}

static void st_if(gen *g)
{
	gen_cover(g, GF_ST_IF);
	gen_printf(g, "IF ");
	gen_rel(g, &uniform_env, 2);
	gen_printf(g, " THEN ");
	body(g, 2);
	if (gen_chance(g, 50)) {
		gen_cover(g, GF_ST_IF_ELSE);
		gen_printf(g, " OTHERWISE ");
		body(g, 2);
	}
}

/* IF over MY TASK: the branches run on different tasks, so they hold local statements only. */
static void st_if_mytask(gen *g)
{
	gen_env e = { GA_MYTASK, { NULL, NULL } };
	int saved = g->local_only;

	gen_cover(g, GF_ST_IF);
	gen_cover(g, GF_REL_MYTASK);
	gen_printf(g, "IF (MY TASK) ");
	switch (gen_int(g, 0, 2)) {
	case 0:
		gen_printf(g, "%s ", gen_chance(g, 50) ? "<" : ">=");
		gen_expr(g, &e, 2);
		break;
	case 1:
		gen_printf(g, "IS %s", gen_chance(g, 50) ? "EVEN" : "ODD");
		break;
	default:
		gen_printf(g, "IS IN ");
		gen_range(g, &e);
		break;
	}
	if (gen_chance(g, 30)) {
		gen_printf(g, " /\\ (");
		gen_rel(g, &e, 1);
		gen_printf(g, ")");
	}
	gen_printf(g, " THEN ");
	g->local_only = 1;
	body(g, 2);
	if (gen_chance(g, 50)) {
		gen_cover(g, GF_ST_IF_ELSE);
		gen_printf(g, " OTHERWISE ");
		body(g, 2);
	}
	g->local_only = saved;
}

/* -------------------------------------------------------- the choice */

enum { LOCAL = 1, GLOBAL = 2, COMPOUND = 4, LOOP = 8, TRAFFIC = 16 };

typedef struct kind {
	int weight;
	unsigned flags;
	void (*local)(gen *g);
	void (*comm)(gen *g, const gen_env *e);
} kind;

static void st_reset(gen *g) { st_phrase(g, GF_ST_RESET, "RESETS THEIR COUNTERS"); }
static void st_aggregates(gen *g) { st_phrase(g, GF_ST_AGGREGATES, "COMPUTES AGGREGATES"); }
static void st_await(gen *g) { st_phrase(g, GF_ST_AWAIT, "AWAITS COMPLETION"); }

static const kind kinds[] = {
	{ 6, LOCAL, st_delay, NULL },
	{ 2, LOCAL, st_touch, NULL },
	{ 1, LOCAL, st_touch_buffers, NULL },
	{ 8, LOCAL, st_output, NULL },
	{ 4, LOCAL, st_log, NULL },
	{ 1, LOCAL, st_aggregates, NULL },
	{ 1, LOCAL, st_reset, NULL },
	{ 1, LOCAL, st_await, NULL },
	{ 1, LOCAL | COMPOUND, st_store, NULL },
	{ 1, LOCAL, st_assert, NULL },
	{ 2, LOCAL, st_io, NULL },
	{ 6, GLOBAL, NULL, gen_sync_send },
	{ 5, GLOBAL | COMPOUND, NULL, gen_async_group },
	{ 3, GLOBAL, NULL, gen_receive },
	{ 3, GLOBAL, NULL, gen_multicast },
	{ 3, GLOBAL, NULL, gen_reduce },
	{ 2, GLOBAL, NULL, gen_synchronize },
	{ 1, GLOBAL, NULL, gen_assign },
	{ 1, GLOBAL | TRAFFIC, NULL, gen_dcnw },
	{ 1, GLOBAL | TRAFFIC, NULL, gen_flows },
	{ 1, GLOBAL | TRAFFIC, NULL, gen_horovod },
	{ 1, LOCAL, NULL, gen_backend_local },
	{ 1, GLOBAL, NULL, gen_backend_collective },
	{ 1, GLOBAL | COMPOUND, st_open, NULL },
	{ 2, LOCAL | COMPOUND, st_block, NULL },
	{ 4, LOCAL | COMPOUND | LOOP, st_for_reps, NULL },
	{ 3, LOCAL | COMPOUND | LOOP, st_for_each, NULL },
	{ 1, GLOBAL | COMPOUND | LOOP, st_timed, NULL },
	{ 3, LOCAL | COMPOUND, st_let, NULL },
	{ 3, LOCAL | COMPOUND, st_if, NULL },
	{ 2, LOCAL | COMPOUND, st_if_mytask, NULL },
};
#define NKINDS (int)(sizeof kinds / sizeof *kinds)

static int allowed(const gen *g, int k)
{
	const kind *kd = &kinds[k];

	if ((kd->flags & GLOBAL) && g->local_only)
		return 0;
	if ((kd->flags & COMPOUND) && (g->depth >= g->max_depth || g->nvars >= GEN_MAX_VARS - 4))
		return 0;
	if ((kd->flags & LOOP) && g->iters * 5 > ITER_BUDGET)
		return 0;
	/* A traffic statement runs for microseconds: not in a timed loop, not many times over. */
	if ((kd->flags & TRAFFIC) && (g->in_timed || g->iters > 6))
		return 0;
	if (kd->local == st_timed && (g->in_timed || g->iters > 3))
		return 0;
	if (kd->comm == gen_assign && g->in_store)
		return 0;
	if (kd->local == st_open && g->file_open)
		return 0;
	return 1;
}

static int pick(gen *g)
{
	int total = 0, r;

	for (int k = 0; k < NKINDS; k++)
		total += allowed(g, k) ? kinds[k].weight : 0;
	r = (int)gen_int(g, 0, total - 1);
	for (int k = 0; k < NKINDS; k++) {
		if (!allowed(g, k))
			continue;
		if (r < kinds[k].weight)
			return k;
		r -= kinds[k].weight;
	}
	return 0;
}

int gen_stmt(gen *g)
{
	size_t start;
	int id = gen_node_begin(g, &start), k = pick(g);

	if (kinds[k].comm)
		kinds[k].comm(g, &uniform_env);
	else
		kinds[k].local(g);
	return gen_node_end(g, id, start);
}

/* -------------------------------------------------- deliberate errors */

/* Each fails at run time on every argument set (parameters are >= 0), past constant folding. */
static const char *const errors[] = {
	"TASK 0 SENDS A (5 / (p1 - p1)) BYTE MESSAGE TO TASK 1",
	"ALL TASKS OUTPUT 7 MOD (p2 - p2)",
	"ASSERT THAT \"p1 is negative\" WITH p1 < 0",
	"ALL TASKS RESTORE THEIR COUNTERS",
	"FOR EACH e1 IN {1, 4, 9, ..., 81 + p1} TASK 0 OUTPUTS e1",
	"TASK 0 OUTPUTS SQRT(0 - 1 - p1)",
	"TASK 0 OUTPUTS LOG10(p1 - p1)",
	"ALL TASKS e1 SEND A 8 BYTE MESSAGE TO TASK (e1 + 1) MOD num_tasks",
	"TASK p1 MOD num_tasks SENDS A 0 BYTE MESSAGE TO TASK p1 MOD num_tasks",
	"TASK 0 OUTPUTS MESH_COORDINATE((4), 1, 3 + p1 - p1)",
	"TASK 0 OUTPUTS RANDOM_UNIFORM(p1, p1)",
	"FOR 2 REPETITIONS { ALL TASKS COMPUTE FOR 1 MICROSECOND THEN ALL TASKS LOG THE elapsed_usecs AS \"e\" }",
	"TASK 0 OUTPUTS 0 ** (0 - p1 - 1)",
	"TASK 0 LOGS THE (101 + p1) PERCENTILE OF 1 AS \"e\"",
	"FOR 10 MICROSECONDS { FOR 10 MICROSECONDS ALL TASKS COMPUTE FOR 1 MICROSECOND }",
	"TASK 0 RECEIVES A 8 BYTE MESSAGE FROM TASK 1",
	"TASK 0 OUTPUTS KNOMIAL_PARENT(3, p1 - p1 + 1)",
	"TASK 0 OUTPUTS TREE_PARENT(3, p1 - p1)",
	"ALL TASKS READ 10 BYTES FROM FILE (p1 + 7)",
	"TASK 0 OUTPUTS ROOT(p1 - p1, 8)",
};

static void st_error(gen *g)
{
	size_t start;
	int id = gen_node_begin(g, &start), k = (int)gen_int(g, 0, sizeof errors / sizeof *errors - 1);

	gen_cover(g, GF_ST_ERROR);
	gen_printf(g, "# deliberate error\n%s", errors[k]);
	if (gen_node_end(g, id, start))
		gen_printf(g, ".\n");
}

/* -------------------------------------------------------- the program */

void gen_program(gen *g, uint64_t seed)
{
	static const char *const names[GEN_NPARAMS] = { "first", "second", "third" };
	int n, error_at = -1;

	g->rng = seed;
	g->iters = 1;
	gen_printf(g, "# seed %llu\n", (unsigned long long)seed);
	n = (int)gen_int(g, 1, g->max_stmts);
	if (gen_chance(g, g->error_pct))
		error_at = (int)gen_int(g, 0, n - 1);
	for (int i = 0; i < GEN_NPARAMS; i++)
		gen_printf(g, "p%d IS \"%s parameter\" AND COMES FROM \"--p%d\" OR \"-%c\" WITH DEFAULT %d.\n",
		           i + 1, names[i], i + 1, 'a' + i, (int)gen_int(g, 0, 5));
	for (int i = 0; i < n; i++) {
		if (i == error_at)
			st_error(g);
		if (gen_stmt(g))
			gen_printf(g, ".\n");
	}
}

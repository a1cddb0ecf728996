/*
 * gen_expr.c - random arithmetic and relational expressions for the program
 * generator (see gen.h).
 *
 * Every compound subexpression is written inside parentheses, so the
 * printed text parses back into the tree that was generated whatever the
 * precedence rules, and no minus is ever followed directly by a keyword
 * (the dash rule of LANGUAGE.md 1.2 would delete it).
 *
 * Operands that would make an operator fatal are guarded by construction
 * rather than by luck: a divisor is `(x MOD k + 1)`, a square root's
 * argument `(x MOD k)`, and so on (MOD is never negative, in either context).
 * Random functions never appear inside their own arguments, so an argument
 * that must be written twice (a lower bound and the upper bound built from
 * it) has the same value both times.
 */
#include "config.h"

#include "tests/gen/gen.h"

static const char *const counters[] = {
	"elapsed_usecs", "bytes_sent", "bytes_received", "total_bytes", "msgs_sent",
	"msgs_received", "total_msgs", "bit_errors", "bytes_read", "bytes_written", "io_usecs",
};

/* Rows and columns of the data file that `gen_prog --write-data` writes. */
#define DATA_ROWS 4
#define DATA_COLS 3

static void leaf_literal(gen *g, const gen_env *e)
{
	static const char *const suffixed[] = { "1K", "2k", "1M", "2E3", "7e0", "3rd", "21st", "4th", "2nd", "1E1" };
	int k = (int)gen_int(g, 0, 9);

	(void)e;
	if (k == 0) {
		gen_cover(g, GF_LIT_SUFFIX);
		gen_printf(g, "%s", suffixed[gen_int(g, 0, 9)]);
	} else if (k == 1) {
		gen_cover(g, GF_LIT_DECIMAL);
		gen_printf(g, "%d.%d", (int)gen_int(g, 0, 9), (int)gen_int(g, 1, 99));
	} else if (k == 2) {
		gen_printf(g, "%d", (int)gen_int(g, 0, 1000));
	} else if (k == 3) {
		gen_printf(g, "-%d", (int)gen_int(g, 1, 20));
	} else {
		gen_printf(g, "%d", (int)gen_int(g, 0, 12));
	}
}

/* A variable: a parameter, num_tasks, a bound variable, a task variable or a counter. */
static int leaf_variable(gen *g, const gen_env *e)
{
	int k = (int)gen_int(g, 0, 9);

	if (k <= 1 && !(e->allow & GA_NOPARAM)) {
		gen_cover(g, GF_VAR_PARAM);
		gen_printf(g, "p%d", (int)gen_int(g, 1, GEN_NPARAMS));
	} else if (k == 2) {
		gen_cover(g, GF_VAR_NUMTASKS);
		gen_printf(g, "num_tasks");
	} else if (k <= 5 && g->nvars > 0 && !(e->allow & GA_NOPARAM)) {
		gen_cover(g, GF_VAR_LOOP);
		gen_printf(g, "%s", g->vars[gen_int(g, 0, g->nvars - 1)]);
	} else if (k <= 7 && (e->tvar[0] || e->tvar[1])) {
		const char *v = e->tvar[1] && (!e->tvar[0] || gen_chance(g, 50)) ? e->tvar[1] : e->tvar[0];

		gen_cover(g, GF_VAR_TASK);
		gen_printf(g, "%s", v);
	} else if (k == 8 && (e->allow & GA_COUNTERS)) {
		gen_cover(g, GF_VAR_COUNTER);
		gen_printf(g, "%s", counters[gen_int(g, 0, sizeof counters / sizeof *counters - 1)]);
	} else if (k == 9 && (e->allow & GA_MYTASK)) {
		gen_cover(g, GF_REL_MYTASK);
		gen_printf(g, "(MY TASK)");
	} else {
		return 0;
	}
	return 1;
}

static void leaf(gen *g, const gen_env *e)
{
	if (gen_chance(g, 40) || !leaf_variable(g, e))
		leaf_literal(g, e);
}

/* The same environment without random functions (arguments that are written twice). */
static gen_env plain(const gen_env *e)
{
	gen_env p = *e;

	p.allow &= ~(unsigned)GA_RANDOM;
	return p;
}

void gen_bounded(gen *g, const gen_env *e, int64_t lo, int64_t hi)
{
	gen_printf(g, "(%lld + (", (long long)lo);
	gen_expr(g, e, 1);
	gen_printf(g, ") MOD %lld)", (long long)(hi - lo + 1));
}

void gen_bounded_in(gen *g, const gen_env *e, const char *before, int64_t lo, int64_t hi, const char *after)
{
	gen_printf(g, "%s", before);
	gen_bounded(g, e, lo, hi);
	gen_printf(g, "%s", after);
}

/* A non-zero expression: [1, k] or [-k, -1]. */
static void nonzero(gen *g, const gen_env *e)
{
	int k = (int)gen_int(g, 2, 9);

	switch (gen_int(g, 0, 3)) {
	case 0:
		gen_printf(g, "%d", (int)gen_int(g, 1, 9) * (gen_chance(g, 70) ? 1 : -1));
		return;
	case 1:
		gen_printf(g, "(0 - 1 - (");
		gen_expr(g, e, 1);
		gen_printf(g, ") MOD %d)", k);
		return;
	default:
		gen_bounded(g, e, 1, k);
		return;
	}
}

static void binary(gen *g, const gen_env *e, int depth)
{
	static const struct { const char *op; enum gen_feature f; } ops[] = {
		{ "+", GF_OP_ADD }, { "-", GF_OP_SUB }, { "*", GF_OP_MUL }, { "/", GF_OP_DIV },
		{ "MOD", GF_OP_MOD }, { "**", GF_OP_POW }, { "<<", GF_OP_SHL }, { ">>", GF_OP_SHR },
		{ "&", GF_OP_AND }, { "|", GF_OP_OR }, { "XOR", GF_OP_XOR },
	};
	int k = (int)gen_int(g, 0, sizeof ops / sizeof *ops - 1);

	gen_cover(g, ops[k].f);
	gen_printf(g, "(");
	if (ops[k].f == GF_OP_POW && gen_chance(g, 50)) {
		nonzero(g, e); /* any exponent in [-2, 4] */
		gen_printf(g, " ** ");
		gen_printf(g, "(FLOOR(");
		gen_expr(g, e, depth - 1);
		gen_printf(g, ") MOD 7 - 2))");
		gen_cover(g, GF_FN_FLOOR);
		return;
	}
	gen_expr(g, e, depth - 1);
	gen_printf(g, " %s ", ops[k].op);
	if (ops[k].f == GF_OP_DIV || ops[k].f == GF_OP_MOD)
		nonzero(g, e);
	else if (ops[k].f == GF_OP_POW) /* any base, a positive integral exponent */
		gen_bounded(g, e, 1, 4);
	else if ((ops[k].f == GF_OP_SHL || ops[k].f == GF_OP_SHR) && gen_chance(g, 70))
		gen_bounded(g, e, -5, 20);
	else
		gen_expr(g, e, depth - 1);
	gen_printf(g, ")");
}

static void unary(gen *g, const gen_env *e, int depth)
{
	static const struct { const char *op; enum gen_feature f; } ops[] = {
		{ "-", GF_OP_NEG }, { "+", GF_OP_PLUS }, { "NOT ", GF_OP_NOT },
	};
	int k = (int)gen_int(g, 0, 2);

	gen_cover(g, ops[k].f);
	gen_printf(g, "(%s", ops[k].op);
	gen_expr(g, e, depth - 1);
	gen_printf(g, ")");
}

/* Writes n arguments, each any expression. */
static void args(gen *g, const gen_env *e, int depth, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			gen_printf(g, ", ");
		gen_expr(g, e, depth - 1);
	}
}

/* MESH_*((dims), ...): one to three positive lengths, some with the torus star. */
static int mesh_dims(gen *g, const gen_env *e)
{
	int n = (int)gen_int(g, 1, 3);

	gen_printf(g, "(");
	for (int i = 0; i < n; i++) {
		gen_printf(g, i ? ", " : "");
		if (gen_chance(g, 60))
			gen_printf(g, "%d", (int)gen_int(g, 1, 5));
		else
			gen_bounded(g, e, 1, 4);
		if (gen_chance(g, 40))
			gen_printf(g, "*");
	}
	gen_printf(g, ")");
	return n;
}

static void call_mesh(gen *g, const gen_env *e, int depth, int which)
{
	static const char *const names[] = { "MESH_NEIGHBOR", "MESH_COORDINATE", "MESH_DISTANCE" };
	static const enum gen_feature fs[] = { GF_FN_MESH_NEIGHBOR, GF_FN_MESH_COORDINATE, GF_FN_MESH_DISTANCE };
	int n;

	gen_cover(g, fs[which]);
	gen_printf(g, "%s(", names[which]);
	n = mesh_dims(g, e);
	gen_printf(g, ", ");
	gen_expr(g, e, depth - 1);
	gen_printf(g, ", ");
	if (which == 0) {
		gen_printf(g, "(");
		args(g, e, depth, n);
		gen_printf(g, ")");
	} else if (which == 1) {
		gen_bounded(g, e, 0, 2);
	} else {
		gen_expr(g, e, depth - 1);
	}
	gen_printf(g, ")");
}

/* RANDOM_*: arguments in the functions' domains, without random functions. */
static void call_random(gen *g, const gen_env *e)
{
	gen_env p = plain(e);
	size_t from, to;

	switch (gen_int(g, 0, 3)) {
	case 0: /* lo < hi: hi is lo plus a positive amount */
		gen_cover(g, GF_FN_RANDOM_UNIFORM);
		gen_printf(g, "RANDOM_UNIFORM(");
		from = g->len;
		gen_bounded(g, &p, -10, 30);
		to = g->len;
		gen_printf(g, ", ");
		gen_repeat(g, from, to);
		gen_printf(g, " + ");
		gen_bounded(g, &p, 1, 20);
		break;
	case 1:
		gen_cover(g, GF_FN_RANDOM_GAUSSIAN);
		gen_printf(g, "RANDOM_GAUSSIAN(");
		gen_bounded(g, &p, -10, 30);
		gen_printf(g, ", ");
		gen_bounded(g, &p, 0, 10);
		break;
	case 2: /* Knuth's method costs O(mean) draws */
		gen_cover(g, GF_FN_RANDOM_POISSON);
		gen_printf(g, "RANDOM_POISSON(");
		gen_bounded(g, &p, 0, 30);
		break;
	default: /* shape > 0, 0 < lo <= hi */
		gen_cover(g, GF_FN_RANDOM_PARETO);
		gen_printf(g, "RANDOM_PARETO(");
		gen_bounded(g, &p, 1, 5);
		gen_printf(g, ", ");
		from = g->len;
		gen_bounded(g, &p, 1, 20);
		to = g->len;
		if (gen_chance(g, 50)) {
			gen_printf(g, ", ");
			gen_repeat(g, from, to);
			gen_printf(g, " + ");
			gen_bounded(g, &p, 0, 20);
		}
		break;
	}
	gen_printf(g, ")");
}

/* FILE_DATA and STATIC_FILE_DATA: a cell of the data file, columns and rows from either end. */
static void call_file(gen *g, const gen_env *e)
{
	gen_env p = plain(e);
	int stat = gen_chance(g, 50) || !(e->allow & GA_RANDOM);

	gen_cover(g, stat ? GF_FN_STATIC_FILE_DATA : GF_FN_FILE_DATA);
	gen_printf(g, "%s(\"%s\"", stat ? "STATIC_FILE_DATA" : "FILE_DATA", g->data_file);
	if (gen_chance(g, 80)) {
		gen_printf(g, ", ");
		if (gen_chance(g, 70))
			gen_bounded(g, &p, 1, DATA_COLS);
		else
			gen_bounded(g, &p, -DATA_COLS, -1);
		if (gen_chance(g, 80)) {
			gen_printf(g, ", ");
			if (gen_chance(g, 70))
				gen_bounded(g, &p, 1, DATA_ROWS);
			else
				gen_bounded(g, &p, -DATA_ROWS, -1);
			if (gen_chance(g, 50))
				gen_printf(g, ", \" \\t\"%s", gen_chance(g, 50) ? ", \"\\n\"" : "");
		}
	}
	gen_printf(g, ")");
}

/* The simple numeric and tree functions, each with its arguments in its domain. */
static void call_numeric(gen *g, const gen_env *e, int depth, int k)
{
	static const struct { const char *name; enum gen_feature f; } fns[] = {
		{ "ABS", GF_FN_ABS }, { "BITS", GF_FN_BITS }, { "CEILING", GF_FN_CEILING },
		{ "FACTOR10", GF_FN_FACTOR10 }, { "FLOOR", GF_FN_FLOOR }, { "ROUND", GF_FN_ROUND },
		{ "PROCESSOR_OF", GF_FN_PROCESSOR_OF }, { "TASK_OF", GF_FN_TASK_OF },
		{ "CBRT", GF_FN_CBRT }, { "SQRT", GF_FN_SQRT }, { "LOG10", GF_FN_LOG10 },
		{ "ROOT", GF_FN_ROOT }, { "MIN", GF_FN_MIN }, { "MAX", GF_FN_MAX },
		{ "TREE_PARENT", GF_FN_TREE_PARENT }, { "TREE_CHILD", GF_FN_TREE_CHILD },
		{ "KNOMIAL_PARENT", GF_FN_KNOMIAL_PARENT }, { "KNOMIAL_CHILDREN", GF_FN_KNOMIAL_CHILDREN },
		{ "KNOMIAL_CHILD", GF_FN_KNOMIAL_CHILD },
	};

	gen_cover(g, fns[k].f);
	gen_printf(g, "%s(", fns[k].name);
	if (k <= 7) { /* any argument */
		args(g, e, depth, 1);
	} else if (k <= 9) { /* not negative */
		gen_bounded(g, e, 0, k == 8 ? 100000 : 10000);
	} else if (k == 10) { /* positive */
		gen_bounded(g, e, 1, 1000000);
	} else if (k == 11) { /* ROOT(n != 0, x >= 0) */
		if (gen_chance(g, 80))
			gen_bounded(g, e, 1, 5);
		else
			gen_bounded(g, e, -3, -1);
		gen_printf(g, ", ");
		gen_bounded(g, e, 0, 100000);
	} else if (k <= 13) {
		args(g, e, depth, (int)gen_int(g, 1, 4));
	} else if (k <= 15) { /* TREE_*(t[, c], k >= 1) */
		args(g, e, depth, k == 14 ? 1 : 2);
		if (gen_chance(g, 60)) {
			gen_printf(g, ", ");
			gen_bounded(g, e, 1, 4);
		}
	} else { /* KNOMIAL_*(0 <= t[, i][, k >= 2[, n >= 1]]) */
		gen_bounded(g, e, 0, 40);
		if (k == 18) {
			gen_printf(g, ", ");
			gen_bounded(g, e, -1, 6);
		}
		if (gen_chance(g, 60)) {
			gen_printf(g, ", ");
			gen_bounded(g, e, 2, 4);
			if (gen_chance(g, 50)) {
				gen_printf(g, ", ");
				gen_bounded(g, e, 1, 40);
			}
		}
	}
	gen_printf(g, ")");
}

static void call(gen *g, const gen_env *e, int depth)
{
	int k = (int)gen_int(g, 0, 24);

	gen_printf(g, "(");
	if (k <= 18) {
		call_numeric(g, e, depth, k);
	} else if (k <= 20) {
		call_mesh(g, e, depth, k - 19 + (gen_chance(g, 50) ? 1 : 0));
	} else if (k <= 22 && (e->allow & GA_RANDOM)) {
		call_random(g, e);
	} else if (k == 23 && g->data_file) {
		call_file(g, e);
	} else {
		gen_env f = *e;

		f.allow |= GA_FLOAT;
		gen_cover(g, GF_OP_REAL);
		gen_printf(g, "REAL(");
		gen_expr(g, &f, depth - 1);
		gen_printf(g, ")");
	}
	gen_printf(g, ")");
}

static void ifelse(gen *g, const gen_env *e, int depth)
{
	gen_cover(g, GF_OP_IFELSE);
	gen_printf(g, "(");
	gen_expr(g, e, depth - 1);
	gen_printf(g, " IF ");
	gen_rel(g, e, depth - 1);
	gen_printf(g, " OTHERWISE ");
	gen_expr(g, e, depth - 1);
	gen_printf(g, ")");
}

void gen_expr(gen *g, const gen_env *e, int depth)
{
	int k;

	if (depth <= 0 || gen_chance(g, 35)) {
		leaf(g, e);
		return;
	}
	k = (int)gen_int(g, 0, 9);
	if (k <= 4)
		binary(g, e, depth);
	else if (k == 5)
		unary(g, e, depth);
	else if (k == 6)
		ifelse(g, e, depth);
	else
		call(g, e, depth);
}

/* ------------------------------------------------------------- ranges */

/* One range; returns an upper bound of its length. */
static int range1(gen *g, const gen_env *e)
{
	size_t from, to;
	char v[16];
	int n, kind = (int)gen_int(g, 0, 4), comp_ok = g->nested_ranges || g->comp_here;

	g->comp_here = 0;
	if (kind == 4 && !comp_ok)
		kind = 1;
	switch (kind) {
	case 0:
		gen_cover(g, GF_RANGE_LIST);
		n = (int)gen_int(g, 1, 4);
		gen_printf(g, "{");
		args(g, e, 2, n);
		gen_printf(g, "}");
		return n;
	case 1:
		gen_cover(g, GF_RANGE_PROG1);
		gen_printf(g, "{");
		gen_bounded(g, e, 0, 5);
		gen_printf(g, ", ..., ");
		gen_bounded(g, e, 0, 8);
		gen_printf(g, "}");
		return 9;
	case 2: /* a, a + d, ..., z with d in [1, 3] or [-3, -1] */
		gen_cover(g, GF_RANGE_PROG2);
		gen_printf(g, "{");
		from = g->len;
		gen_bounded(g, e, 0, 5);
		to = g->len;
		gen_printf(g, ", ");
		gen_repeat(g, from, to);
		gen_printf(g, " %s %d, ..., ", gen_chance(g, 70) ? "+" : "-", (int)gen_int(g, 1, 3));
		gen_bounded(g, e, -3, 10);
		gen_printf(g, "}");
		return 14;
	case 3: /* a, a*r, a*r*r, ..., z: at most 6 values */
		gen_cover(g, GF_RANGE_GEOM);
		n = (int)gen_int(g, 2, 3);
		gen_printf(g, "{");
		from = g->len;
		gen_bounded(g, e, 1, 3);
		to = g->len;
		gen_printf(g, ", ");
		gen_repeat(g, from, to);
		gen_printf(g, "*%d, ", n);
		gen_repeat(g, from, to);
		gen_printf(g, "*%d, ..., ", n * n);
		gen_bounded(g, e, 1, 60);
		gen_printf(g, "}");
		return 6;
	default: { /* {expr FOR EACH v IN {0, ..., k} [WHERE rel]} */
		int k = (int)gen_int(g, 1, 4);

		gen_cover(g, GF_RANGE_COMP);
		gen_fresh(g, "c", v);
		gen_printf(g, "{");
		g->vars[g->nvars++] = v;
		gen_expr(g, e, 2);
		gen_printf(g, " FOR EACH %s IN {0, ..., %d}", v, k);
		if (gen_chance(g, 50)) {
			gen_printf(g, " WHERE ");
			gen_rel(g, e, 1);
		}
		g->nvars--;
		gen_printf(g, "}");
		return k + 1;
	}
	}
}

int gen_range(gen *g, const gen_env *e)
{
	gen_env p = plain(e);
	int n;

	g->in_range++;
	n = range1(g, &p);
	if (gen_chance(g, 20)) {
		gen_printf(g, ", ");
		n += range1(g, &p);
	}
	g->in_range--;
	return n;
}

/* --------------------------------------------------------- relations */

static const struct { const char *op; enum gen_feature f; const char *negation; } cmps[] = {
	{ "=", GF_CMP_EQ, "<>" }, { "<>", GF_CMP_NE, "=" }, { "<", GF_CMP_LT, ">=" },
	{ ">", GF_CMP_GT, "<=" }, { "<=", GF_CMP_LE, ">" }, { ">=", GF_CMP_GE, "<" },
};

static void rel_primary(gen *g, const gen_env *e, int depth)
{
	int k = (int)gen_int(g, 0, 9);

	if (k <= 4) {
		int c = (int)gen_int(g, 0, 5);

		gen_cover(g, cmps[c].f);
		gen_expr(g, e, depth);
		gen_printf(g, " %s ", cmps[c].op);
		gen_expr(g, e, depth);
	} else if (k == 5) {
		gen_cover(g, GF_CMP_DIVIDES);
		nonzero(g, e);
		gen_printf(g, " DIVIDES ");
		gen_expr(g, e, depth);
	} else if (k == 6) {
		int odd = gen_chance(g, 50);

		gen_cover(g, odd ? GF_REL_ODD : GF_REL_EVEN);
		gen_expr(g, e, depth);
		gen_printf(g, " IS %s", odd ? "ODD" : "EVEN");
	} else if (k <= 8 && (!g->in_range || g->nested_ranges)) {
		int not = gen_chance(g, 30);

		gen_cover(g, not ? GF_REL_NOTIN : GF_REL_IN);
		gen_expr(g, e, depth);
		gen_printf(g, " IS %sIN ", not ? "NOT " : "");
		gen_range(g, e);
	} else if (k == 9 && gen_chance(g, 30)) { /* deprecated: each use is a warning */
		gen_cover(g, GF_REL_INTERVAL);
		gen_expr(g, e, depth);
		gen_printf(g, " IS %sIN [", gen_chance(g, 30) ? "NOT " : "");
		gen_expr(g, e, depth);
		gen_printf(g, ", ");
		gen_expr(g, e, depth);
		gen_printf(g, "]");
	} else {
		gen_cover(g, GF_CMP_LE);
		gen_expr(g, e, depth);
		gen_printf(g, " <= ");
		gen_expr(g, e, depth);
	}
}

void gen_rel(gen *g, const gen_env *e, int depth)
{
	gen_env p = plain(e);

	if (depth > 0 && gen_chance(g, 25)) {
		int and = gen_chance(g, 50);

		gen_cover(g, and ? GF_REL_AND : GF_REL_OR);
		gen_printf(g, "(");
		gen_rel(g, &p, depth - 1);
		gen_printf(g, ") %s (", and ? "/\\" : "\\/");
		gen_rel(g, &p, depth - 1);
		gen_printf(g, ")");
		return;
	}
	rel_primary(g, &p, depth > 2 ? 2 : depth);
}

void gen_tautology(gen *g, const gen_env *e)
{
	gen_env p = plain(e);
	int c = (int)gen_int(g, 0, 5);
	size_t a0, a1, b0, b1;

	/* (a OP b) \/ (a NEG(OP) b): one of the two holds */
	gen_cover(g, cmps[c].f);
	gen_cover(g, GF_REL_OR);
	gen_printf(g, "(");
	a0 = g->len;
	gen_expr(g, &p, 2);
	a1 = g->len;
	gen_printf(g, " %s ", cmps[c].op);
	b0 = g->len;
	gen_expr(g, &p, 2);
	b1 = g->len;
	gen_printf(g, ") \\/ (");
	gen_repeat(g, a0, a1);
	gen_printf(g, " %s ", cmps[c].negation);
	gen_repeat(g, b0, b1);
	gen_printf(g, ")");
}

/*
 * codegen_c_expr.c - expressions in integer and floating-point context
 * (LANGUAGE.md section 3), relational expressions, ranges, data sizes and
 * durations, and the constant folding of parameter defaults.
 *
 * Every operator and built-in goes through ncsim/stdlib.h, so the generated
 * code wraps around like the C backend and reports the same errors. A
 * function that can fail records its message in the task's sticky `e`; the
 * generator wraps each expression that contains one in cg_ci/cg_cf/cg_cb
 * (emitted by codegen_c.c), which turn a recorded error into rt_fatal with
 * the statement's source line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen_c.h"
#include "lang/builtins.h"

/* An expression: its C text and whether it can record an error. */
typedef struct ex {
	const char *s;
	int fallible;
} ex;

static ex ex_int(cg *g, const cg_sym *env, const ast_node *n);
static ex ex_flt(cg *g, const cg_sym *env, const ast_node *n);
static ex ex_rel(cg *g, const cg_sym *env, const ast_node *n, int flt);

static ex mk(const char *s, int f) { return (ex){s, f}; }

/* ------------------------------------------------------------ leaves */

static const char *int_lit(cg *g, int64_t v)
{
	if (v == INT64_MIN)
		return "INT64_MIN";
	if (v >= INT32_MIN && v <= INT32_MAX)
		return v < 0 ? cg_fmt(g, "(%" PRId64 ")", v) : cg_fmt(g, "%" PRId64, v);
	return v < 0 ? cg_fmt(g, "(INT64_C(%" PRId64 "))", v) : cg_fmt(g, "INT64_C(%" PRId64 ")", v);
}

static const char *flt_lit(cg *g, double v)
{
	char buf[64];
	if (isinf(v))
		return v < 0 ? "(-HUGE_VAL)" : "HUGE_VAL";
	snprintf(buf, sizeof buf, "%.17g", v);
	if (!strpbrk(buf, ".en"))
		strcat(buf, ".0");
	return v < 0 ? cg_fmt(g, "(%s)", buf) : cg_fmt(g, "%s", buf);
}

/* The predeclared counter variables (LANGUAGE.md section 4 and 14.2). */
static const struct {
	const char *name, *counter;
} predeclared[] = {
	{"elapsed_usecs", "RT_ELAPSED_USECS"}, {"bytes_sent", "RT_BYTES_SENT"},
	{"bytes_received", "RT_BYTES_RECEIVED"}, {"total_bytes", "RT_TOTAL_BYTES"},
	{"msgs_sent", "RT_MSGS_SENT"}, {"msgs_received", "RT_MSGS_RECEIVED"},
	{"total_msgs", "RT_TOTAL_MSGS"}, {"bit_errors", "RT_BIT_ERRORS"},
	{"bytes_read", "RT_BYTES_READ"}, {"bytes_written", "RT_BYTES_WRITTEN"},
	{"io_usecs", "RT_IO_USECS"},
};

/*
 * C text of an identifier in integer (flt = 0) or floating-point context. In
 * floating-point context the time counters keep their fraction of a
 * microsecond (rt_counter_f): simulated time is exact, so a sub-microsecond
 * interval need not read as 0.
 */
static const char *ident(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const char *name = n->u.ident.name;
	const cg_sym *s = cg_lookup(env, name, CG_SYM_VAR);
	if (s)
		return flt ? cg_fmt(g, "(double)%s", s->cname) : s->cname;
	{
		if (!strcmp(name, "num_tasks"))
			return flt ? "(double)num_tasks" : "num_tasks";
		for (size_t i = 0; i < sizeof predeclared / sizeof *predeclared; i++)
			if (!strcmp(name, predeclared[i].name))
				return cg_fmt(g, flt ? "rt_counter_f(t, %s)" : "rt_counter(t, %s)", predeclared[i].counter);
	}
	cg_error(g, n->span, "Variable %s must be declared before being used", name);
	return "0";
}

/* ------------------------------------------------------------ calls */

/* Arguments of a call after filling defaults, as C text in the given context. */
static int call_args(cg *g, const cg_sym *env, const bi_info *b, const ast_list *args, int flt,
                     const char **out, int *fallible)
{
	int n = (int)args->len;
	if (!bi_arity_ok(b, n)) {
		char msg[128];
		bi_arity_message(b, n, msg, sizeof msg);
		cg_error(g, args->len ? args->items[0]->span : (src_span){0, 1, 0}, "%s", msg);
		return -1;
	}
	int total = n;
	for (int i = 0; i < n; i++) {
		ex a = flt ? ex_flt(g, env, args->items[i]) : ex_int(g, env, args->items[i]);
		out[i] = a.s;
		*fallible |= a.fallible;
	}
	if (b->flags & BI_NARY)
		return total;
	for (int i = n; i < BI_MAX_ARGS && b->defaults[i].kind != BI_DEF_NONE; i++) {
		const bi_default *d = &b->defaults[i];
		switch (d->kind) {
		case BI_DEF_CONST: out[i] = flt ? flt_lit(g, (double)d->value) : int_lit(g, d->value); break;
		case BI_DEF_NUM_TASKS: out[i] = flt ? "(double)num_tasks" : "num_tasks"; break;
		case BI_DEF_ARG: out[i] = out[d->value]; break;
		case BI_DEF_STRING: out[i] = cg_cstr(g, d->str, strlen(d->str)); break;
		case BI_DEF_NONE: break;
		}
		total = i + 1;
	}
	return total;
}

static ex call(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
	const char *args[64];
	int fallible = 1;
	if (!b || n->u.call.args.len > 60) {
		cg_error(g, n->span, "unsupported call of %s", ast_func_name(n->u.call.fn));
		return mk("0", 0);
	}
	int k = call_args(g, env, b, &n->u.call.args, flt, args, &fallible);
	if (k < 0)
		return mk("0", 0);
	if (b->flags & BI_RUNTIME) {
		const char *f = b->id == BI_PROCESSOR_OF ? "rt_processor_of" : "rt_task_of";
		const char *s = cg_fmt(g, "%s(t, %s)", f, flt ? cg_fmt(g, "ncsim_f2i(%s, &e)", args[0]) : args[0]);
		return mk(flt ? cg_fmt(g, "(double)%s", s) : s, flt);
	}
	const char *fn = flt ? b->c_float : b->c_int;
	cg_buf text = {0};
	VEC_GROW(&text, 64);
	text.len = 0;
#define PUT(str) do { size_t l_ = strlen(str); VEC_GROW(&text, text.len + l_ + 1); memcpy(text.ptr + text.len, str, l_ + 1); text.len += l_; } while (0)
	PUT(fn);
	PUT("(");
	if (b->flags & BI_NARY) {
		PUT(flt ? "(const double[]){ " : "(const int64_t[]){ ");
		for (int i = 0; i < k; i++) {
			if (i)
				PUT(", ");
			PUT(args[i]);
		}
		PUT(cg_fmt(g, " }, %d", k));
	} else {
		if (b->flags & BI_RNG) {
			PUT("rt_rng(t), ");
			g->uses_random = 1;
		}
		for (int i = 0; i < k; i++) {
			if (i)
				PUT(", ");
			PUT(args[i]);
		}
	}
	PUT(", &e)");
#undef PUT
	const char *s = cg_fmt(g, "%s", text.ptr);
	VEC_FREE(&text);
	return mk(s, fallible);
}

static ex mesh(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const char *dims[3], *offs[3] = {0};
	unsigned mask = 0;
	int fallible = 1;
	const ast_list *dl = &n->u.mesh.dims;
	if (dl->len < 1 || dl->len > 3) {
		cg_error(g, n->span, "a mesh has 1 to 3 dimensions");
		return mk("0", 0);
	}
	for (int i = 0; i < 3; i++) {
		if (i < (int)dl->len) {
			const ast_node *d = dl->items[i];
			ex e = flt ? ex_flt(g, env, d->u.dimension.extent) : ex_int(g, env, d->u.dimension.extent);
			dims[i] = e.s;
			if (d->u.dimension.torus)
				mask |= 1u << i;
		} else {
			dims[i] = flt ? "1.0" : "1";
		}
	}
	ex task = flt ? ex_flt(g, env, n->u.mesh.task) : ex_int(g, env, n->u.mesh.task);
	const char *sfx = flt ? "f" : "i";
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR) {
		const ast_list *ol = &n->u.mesh.offsets;
		if (ol->len != dl->len) {
			cg_error(g, n->span, "a MESH_NEIGHBOR's mesh and offset lists must have the same length");
			return mk("0", 0);
		}
		for (int i = 0; i < 3; i++)
			offs[i] = i < (int)ol->len ? (flt ? ex_flt(g, env, ol->items[i]) : ex_int(g, env, ol->items[i])).s
			                           : (flt ? "0.0" : "0");
		return mk(cg_fmt(g, "ncsim_mesh_neighbor_%s(%s, %s, %s, %uu, %s, %s, %s, %s, &e)", sfx, dims[0], dims[1],
		                 dims[2], mask, task.s, offs[0], offs[1], offs[2]),
		          fallible);
	}
	ex other = flt ? ex_flt(g, env, n->u.mesh.other) : ex_int(g, env, n->u.mesh.other);
	if (n->u.mesh.fn == AST_MESH_COORDINATE)
		return mk(cg_fmt(g, "ncsim_mesh_coordinate_%s(%s, %s, %s, %s, %s, &e)", sfx, dims[0], dims[1], dims[2],
		                 task.s, other.s),
		          fallible);
	return mk(cg_fmt(g, "ncsim_mesh_distance_%s(%s, %s, %s, %uu, %s, %s, &e)", sfx, dims[0], dims[1], dims[2], mask,
	                 task.s, other.s),
	          fallible);
}

static ex file_data(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const ast_list *al = &n->u.file_data.args;
	const bi_info *b = bi_get(n->u.file_data.is_static ? BI_STATIC_FILE_DATA : BI_FILE_DATA);
	const char *a[5];
	if (al->len < 1 || al->len > 5) {
		char msg[128];
		bi_arity_message(b, (int)al->len, msg, sizeof msg);
		cg_error(g, n->span, "%s", msg);
		return mk("0", 0);
	}
	for (int i = 0; i < 5; i++) {
		const ast_node *x = i < (int)al->len ? al->items[i] : NULL;
		if (i == 0 || i >= 3) {
			if (x && x->kind != AST_STRING) {
				cg_error(g, x->span, "this argument of FILE_DATA must be a string");
				return mk("0", 0);
			}
			a[i] = x ? cg_cstr(g, x->u.string.text, x->u.string.len)
			         : cg_cstr(g, b->defaults[i].str, strlen(b->defaults[i].str));
		} else if (x) {
			a[i] = (flt ? ex_flt(g, env, x) : ex_int(g, env, x)).s;
		} else {
			a[i] = flt ? "1.0" : "1";
		}
	}
	g->uses_filecache = 1;
	return mk(cg_fmt(g, "ncsim_file_data_%s(cg_files(&fc), %s, %s, %s, %s, %s, &e)", flt ? "f" : "i", a[0], a[1],
	                 a[2], a[3], a[4]),
	          1);
}

/* ------------------------------------------------------------ integer context */

static ex ex_int(cg *g, const cg_sym *env, const ast_node *n)
{
	switch (n->kind) {
	case AST_INT: return mk(int_lit(g, n->u.int_.value), 0);
	case AST_DECIMAL: return mk(int_lit(g, ncsim_real_to_int(n->u.decimal.value)), 0);
	case AST_IDENT: return mk(ident(g, env, n, 0), 0);
	case AST_MY_TASK: return mk("rt_rank(t)", 0);
	case AST_UNARY: {
		ex a = ex_int(g, env, n->u.unary.operand);
		switch (n->u.unary.op) {
		case AST_UOP_NEG: return mk(cg_fmt(g, "ncsim_neg(%s)", a.s), a.fallible);
		case AST_UOP_NOT: return mk(cg_fmt(g, "(~%s)", a.s), a.fallible);
		default: return a;
		}
	}
	case AST_BINARY: {
		ex a = ex_int(g, env, n->u.binary.lhs), b = ex_int(g, env, n->u.binary.rhs);
		int f = a.fallible | b.fallible;
		switch (n->u.binary.op) {
		case AST_OP_ADD: return mk(cg_fmt(g, "ncsim_add(%s, %s)", a.s, b.s), f);
		case AST_OP_SUB: return mk(cg_fmt(g, "ncsim_sub(%s, %s)", a.s, b.s), f);
		case AST_OP_MUL: return mk(cg_fmt(g, "ncsim_mul(%s, %s)", a.s, b.s), f);
		case AST_OP_DIV: return mk(cg_fmt(g, "ncsim_div_i(%s, %s, &e)", a.s, b.s), 1);
		case AST_OP_MOD: return mk(cg_fmt(g, "ncsim_mod_i(%s, %s, &e)", a.s, b.s), 1);
		case AST_OP_POW: return mk(cg_fmt(g, "ncsim_pow_i(%s, %s, &e)", a.s, b.s), 1);
		case AST_OP_SHL: return mk(cg_fmt(g, "ncsim_shl_i(%s, %s)", a.s, b.s), f);
		case AST_OP_SHR: return mk(cg_fmt(g, "ncsim_shr_i(%s, %s)", a.s, b.s), f);
		case AST_OP_BAND: return mk(cg_fmt(g, "(%s & %s)", a.s, b.s), f);
		case AST_OP_BOR: return mk(cg_fmt(g, "(%s | %s)", a.s, b.s), f);
		case AST_OP_XOR: return mk(cg_fmt(g, "(%s ^ %s)", a.s, b.s), f);
		case AST_BINOP_COUNT: break;
		}
		break;
	}
	case AST_IFELSE: {
		ex c = ex_rel(g, env, n->u.ifelse.cond, 0);
		ex a = ex_int(g, env, n->u.ifelse.then), b = ex_int(g, env, n->u.ifelse.otherwise);
		return mk(cg_fmt(g, "(%s ? %s : %s)", c.s, a.s, b.s), a.fallible | b.fallible | c.fallible);
	}
	case AST_CALL: return call(g, env, n, 0);
	case AST_MESH: return mesh(g, env, n, 0);
	case AST_FILE_DATA: return file_data(g, env, n, 0);
	case AST_REAL_CAST: {
		ex a = ex_flt(g, env, n->u.real_cast.operand);
		return mk(cg_fmt(g, "ncsim_real_to_int(%s)", a.s), a.fallible);
	}
	default: break;
	}
	cg_error(g, n->span, "a %s is not a numeric expression", ast_kind_name(n->kind));
	return mk("0", 0);
}

/* ------------------------------------------------------------ floating-point context */

static ex ex_flt(cg *g, const cg_sym *env, const ast_node *n)
{
	switch (n->kind) {
	case AST_INT: return mk(flt_lit(g, (double)n->u.int_.value), 0);
	case AST_DECIMAL: return mk(flt_lit(g, n->u.decimal.value), 0);
	case AST_IDENT: return mk(ident(g, env, n, 1), 0);
	case AST_MY_TASK: return mk("(double)rt_rank(t)", 0);
	case AST_UNARY: {
		ex a = ex_flt(g, env, n->u.unary.operand);
		switch (n->u.unary.op) {
		case AST_UOP_NEG: return mk(cg_fmt(g, "(-%s)", a.s), a.fallible);
		case AST_UOP_NOT: return mk(cg_fmt(g, "ncsim_not_f(%s, &e)", a.s), 1);
		default: return a;
		}
	}
	case AST_BINARY: {
		ex a = ex_flt(g, env, n->u.binary.lhs), b = ex_flt(g, env, n->u.binary.rhs);
		int f = a.fallible | b.fallible;
		const char *fn = NULL;
		switch (n->u.binary.op) {
		case AST_OP_ADD: return mk(cg_fmt(g, "(%s + %s)", a.s, b.s), f);
		case AST_OP_SUB: return mk(cg_fmt(g, "(%s - %s)", a.s, b.s), f);
		case AST_OP_MUL: return mk(cg_fmt(g, "(%s * %s)", a.s, b.s), f);
		case AST_OP_DIV: return mk(cg_fmt(g, "(%s / %s)", a.s, b.s), f);
		case AST_OP_MOD: fn = "ncsim_mod_f"; break;
		case AST_OP_POW: fn = "ncsim_pow_f"; break;
		case AST_OP_SHL: fn = "ncsim_shl_f"; break;
		case AST_OP_SHR: fn = "ncsim_shr_f"; break;
		case AST_OP_BAND: fn = "ncsim_and_f"; break;
		case AST_OP_BOR: fn = "ncsim_or_f"; break;
		case AST_OP_XOR: fn = "ncsim_xor_f"; break;
		case AST_BINOP_COUNT: break;
		}
		if (fn)
			return mk(cg_fmt(g, "%s(%s, %s, &e)", fn, a.s, b.s), 1);
		break;
	}
	case AST_IFELSE: {
		ex c = ex_rel(g, env, n->u.ifelse.cond, 1);
		ex a = ex_flt(g, env, n->u.ifelse.then), b = ex_flt(g, env, n->u.ifelse.otherwise);
		return mk(cg_fmt(g, "(%s ? %s : %s)", c.s, a.s, b.s), a.fallible | b.fallible | c.fallible);
	}
	case AST_CALL: return call(g, env, n, 1);
	case AST_MESH: return mesh(g, env, n, 1);
	case AST_FILE_DATA: return file_data(g, env, n, 1);
	case AST_REAL_CAST: return ex_flt(g, env, n->u.real_cast.operand);
	default: break;
	}
	cg_error(g, n->span, "a %s is not a numeric expression", ast_kind_name(n->kind));
	return mk("0.0", 0);
}

/* ------------------------------------------------------------ relational expressions */

static const char *capture_begin(cg *g, cg_buf **saved, int *indent)
{
	*saved = g->out;
	*indent = g->indent;
	g->out = xcalloc(1, sizeof(cg_buf));
	g->indent = 0;
	return NULL;
}

static const char *capture_end(cg *g, cg_buf *saved, int indent)
{
	const char *s = cg_fmt(g, "%s", g->out->ptr ? g->out->ptr : "");
	VEC_FREE(g->out);
	free(g->out);
	g->out = saved;
	g->indent = indent;
	return s;
}

typedef struct in_ud {
	const char *x, *flag;
} in_ud;

static void in_body(cg *g, const cg_sym *env, void *ud)
{
	const in_ud *u = ud;
	(void)env;
	cg_line(g, "if (%s == %s_v) %s = 1;", u->x, u->flag, u->flag);
}

/* x IS [NOT] IN ranges: a statement expression that scans the ranges. */
static ex in_ranges(cg *g, const cg_sym *env, const ast_node *n)
{
	ex x = ex_int(g, env, n->u.in_ranges.operand);
	const char *xv = cg_uniq(g, "x"), *flag = cg_uniq(g, "in");
	cg_buf *saved;
	int indent;
	capture_begin(g, &saved, &indent);
	in_ud u = {xv, flag};
	cg_ranges_foreach(g, env, &n->u.in_ranges.ranges, cg_fmt(g, "%s_v", flag), in_body, &u);
	const char *loop = capture_end(g, saved, indent);
	return mk(cg_fmt(g, "({ const rt_int %s = %s; int %s = 0;\n%s%s%s; })", xv, x.s, flag, loop,
	                 n->u.in_ranges.negated ? "!" : "", flag),
	          1);
}

static ex ex_rel(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ex (*num)(cg *, const cg_sym *, const ast_node *) = flt ? ex_flt : ex_int;
	switch (n->kind) {
	case AST_COMPARE: {
		ex a = num(g, env, n->u.compare.lhs), b = num(g, env, n->u.compare.rhs);
		int f = a.fallible | b.fallible;
		const char *op = NULL;
		switch (n->u.compare.op) {
		case AST_CMP_EQ: op = "=="; break;
		case AST_CMP_NE: op = "!="; break;
		case AST_CMP_LT: op = "<"; break;
		case AST_CMP_GT: op = ">"; break;
		case AST_CMP_LE: op = "<="; break;
		case AST_CMP_GE: op = ">="; break;
		case AST_CMP_DIVIDES:
			return mk(cg_fmt(g, "(ncsim_mod_%s(%s, %s, &e) == 0)", flt ? "f" : "i", b.s, a.s), 1);
		case AST_CMPOP_COUNT: break;
		}
		return mk(cg_fmt(g, "(%s %s %s)", a.s, op ? op : "==", b.s), f);
	}
	case AST_PARITY: {
		ex a = ex_int(g, env, n->u.parity.operand);
		if (flt)
			a = mk(cg_fmt(g, "ncsim_f2i(%s, &e)", ex_flt(g, env, n->u.parity.operand).s), 1);
		return mk(cg_fmt(g, "((%s & 1) %s 0)", a.s, n->u.parity.odd ? "!=" : "=="), a.fallible);
	}
	case AST_IN_RANGES: return in_ranges(g, env, n);
	case AST_IN_INTERVAL: {
		ex x = ex_int(g, env, n->u.in_interval.operand), lo = ex_int(g, env, n->u.in_interval.lo),
		   hi = ex_int(g, env, n->u.in_interval.hi);
		const char *xv = cg_uniq(g, "x"), *lv = cg_uniq(g, "lo"), *hv = cg_uniq(g, "hi");
		return mk(cg_fmt(g,
		                 "({ const rt_int %s = %s, %s = %s, %s = %s; "
		                 "%s(%s >= (%s < %s ? %s : %s) && %s <= (%s < %s ? %s : %s)); })",
		                 xv, x.s, lv, lo.s, hv, hi.s, n->u.in_interval.negated ? "!" : "", xv, lv, hv, lv, hv,
		                 xv, lv, hv, hv, lv),
		          x.fallible | lo.fallible | hi.fallible);
	}
	case AST_LOGIC: {
		ex a = ex_rel(g, env, n->u.logic.lhs, flt), b = ex_rel(g, env, n->u.logic.rhs, flt);
		return mk(cg_fmt(g, "(%s %s %s)", a.s, n->u.logic.op == AST_LOGIC_AND ? "&&" : "||", b.s),
		          a.fallible | b.fallible);
	}
	default: break;
	}
	cg_error(g, n->span, "a %s is not a relational expression", ast_kind_name(n->kind));
	return mk("0", 0);
}

/* ------------------------------------------------------------ public wrappers */

const char *cg_int(cg *g, const cg_sym *env, const ast_node *n)
{
	ex x = ex_int(g, env, n);
	return x.fallible ? cg_fmt(g, "cg_ci(t, &e, %s)", x.s) : x.s;
}

const char *cg_flt(cg *g, const cg_sym *env, const ast_node *n)
{
	ex x = ex_flt(g, env, n);
	return x.fallible ? cg_fmt(g, "cg_cf(t, &e, %s)", x.s) : x.s;
}

const char *cg_rel(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ex x = ex_rel(g, env, n, flt);
	return x.fallible ? cg_fmt(g, "cg_cb(t, &e, %s)", x.s) : x.s;
}

/* A value that the user wrote as a real number (decimal literal, REAL()). */
static int real_valued(const ast_node *n) { return n->kind == AST_DECIMAL || n->kind == AST_REAL_CAST; }

const char *cg_size(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *v = n->u.size.value;
	ast_data_unit u = n->u.size.unit;
	uint64_t per = u == AST_DU_INTEGERS ? 4 : u == AST_DU_PAGES ? 4096 : ast_data_unit_bytes(u);
	if (u == AST_DU_BITS) {
		if (real_valued(v))
			return cg_fmt(g, "ncsim_bits_to_bytes(ncsim_real_to_int(%s))", cg_flt(g, env, v));
		return cg_fmt(g, "ncsim_bits_to_bytes(%s)", cg_int(g, env, v));
	}
	if (real_valued(v))
		return cg_fmt(g, "ncsim_real_to_int(%s * %" PRIu64 ".0)", cg_flt(g, env, v), per);
	if (per == 1)
		return cg_int(g, env, v);
	return cg_fmt(g, "ncsim_mul(%s, %" PRIu64 ")", cg_int(g, env, v), per);
}

const char *cg_duration(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *v = n->u.duration.value;
	uint64_t ps = ast_time_unit_ps(n->u.duration.unit);
	if (real_valued(v))
		return cg_fmt(g, "(%s * %" PRIu64 ".0)", cg_flt(g, env, v), ps);
	return cg_fmt(g, "((double)%s * %" PRIu64 ".0)", cg_int(g, env, v), ps);
}

/* ------------------------------------------------------------ ranges (3.6) */

/* Emits ncsim_range_init for a progression into the C variable r; failure is fatal. */
static void prog_init(cg *g, const cg_sym *env, const ast_node *r, const char *rv)
{
	const ast_list *it = &r->u.range_prog.items;
	cg_buf vi = {0}, vd = {0};
	for (uint32_t i = 0; i < it->len; i++) {
		const char *s = cg_fmt(g, "%s%s", i ? ", " : "", cg_int(g, env, it->items[i]));
		size_t l = strlen(s);
		VEC_GROW(&vi, vi.len + l + 1);
		memcpy(vi.ptr + vi.len, s, l + 1);
		vi.len += l;
		if (it->len >= 3) {
			s = cg_fmt(g, "%s%s", i ? ", " : "", cg_flt(g, env, it->items[i]));
			l = strlen(s);
			VEC_GROW(&vd, vd.len + l + 1);
			memcpy(vd.ptr + vd.len, s, l + 1);
			vd.len += l;
		}
	}
	const char *last = cg_int(g, env, r->u.range_prog.last);
	if (it->len >= 3)
		cg_line(g, "if (ncsim_range_init(&%s, (const int64_t[]){ %s }, (const double[]){ %s }, %u, %s, %s, &e) != 0)",
		        rv, vi.ptr, vd.ptr, it->len, last, cg_flt(g, env, r->u.range_prog.last));
	else
		cg_line(g, "if (ncsim_range_init(&%s, (const int64_t[]){ %s }, NULL, %u, %s, 0.0, &e) != 0)", rv, vi.ptr,
		        it->len, last);
	cg_line(g, "\tcg_fail(t, &e);");
	VEC_FREE(&vi);
	VEC_FREE(&vd);
}

typedef struct comp_ud {
	const ast_node *comp;
	uint32_t gen;
	const char *list, *cvar;
} comp_ud;

static void append_range(cg *g, const cg_sym *env, const ast_node *r, const char *list);

/* One generator level of a list comprehension: binds its variable, then the next level. */
static void comp_body(cg *g, const cg_sym *env, void *ud)
{
	const comp_ud *u = ud;
	const ast_node *c = u->comp;
	if (u->gen > 0) {
		const ast_node *gen = c->u.range_comp.gens.items[u->gen - 1];
		env = cg_bind(g, env, gen->u.generator.var->u.ident.name, u->cvar);
	}
	if (u->gen == c->u.range_comp.gens.len) {
		const char *val = cg_int(g, env, c->u.range_comp.expr);
		if (c->u.range_comp.where)
			cg_line(g, "if (%s) cg_push(t, &%s, %s);", cg_rel(g, env, c->u.range_comp.where, 0), u->list, val);
		else
			cg_line(g, "cg_push(t, &%s, %s);", u->list, val);
		return;
	}
	const ast_node *gen = c->u.range_comp.gens.items[u->gen];
	comp_ud next = {c, u->gen + 1, u->list, cg_uniq(g, cg_fmt(g, "v_%s", gen->u.generator.var->u.ident.name))};
	cg_ranges_foreach(g, env, &gen->u.generator.ranges, next.cvar, comp_body, &next);
}

static void append_range(cg *g, const cg_sym *env, const ast_node *r, const char *list)
{
	switch (r->kind) {
	case AST_RANGE_ENUM:
		for (uint32_t i = 0; i < r->u.range_enum.items.len; i++)
			cg_line(g, "cg_push(t, &%s, %s);", list, cg_int(g, env, r->u.range_enum.items.items[i]));
		break;
	case AST_RANGE_PROG: {
		const char *rv = cg_uniq(g, "range");
		cg_line(g, "{");
		g->indent++;
		cg_line(g, "struct ncsim_range %s;", rv);
		prog_init(g, env, r, rv);
		cg_line(g, "ncsim_range_append(&%s, &%s);", rv, list);
		g->indent--;
		cg_line(g, "}");
		break;
	}
	case AST_RANGE_COMP: {
		comp_ud u = {r, 0, list, NULL};
		comp_body(g, env, &u);
		break;
	}
	default: cg_error(g, r->span, "a %s is not a range", ast_kind_name(r->kind)); break;
	}
}

void cg_ranges_foreach(cg *g, const cg_sym *env, const ast_list *ranges, const char *cvar, cg_body_fn body,
                       void *ud)
{
	const ast_node *r0 = ranges->len == 1 ? ranges->items[0] : NULL;
	if (r0 && r0->kind == AST_RANGE_PROG) {
		/* One progression: iterate it without materialising the values. */
		const char *rv = cg_uniq(g, "range"), *it = cg_uniq(g, "it"), *val = cg_uniq(g, "val"),
		           *ok = cg_uniq(g, "ok");
		cg_line(g, "{");
		g->indent++;
		cg_line(g, "struct ncsim_range %s;", rv);
		cg_line(g, "struct ncsim_range_it %s;", it);
		cg_line(g, "int64_t %s;", val);
		prog_init(g, env, r0, rv);
		cg_line(g, "for (int %s = ncsim_range_first(&%s, &%s, &%s); %s; %s = ncsim_range_next(&%s, &%s, &%s)) {",
		        ok, rv, it, val, ok, ok, rv, it, val);
		g->indent++;
		cg_line(g, "const rt_int %s = %s;", cvar, val);
		cg_line(g, "(void)%s;", cvar);
		body(g, env, ud);
		g->indent--;
		cg_line(g, "}");
		g->indent--;
		cg_line(g, "}");
		return;
	}
	if (r0 && r0->kind == AST_RANGE_ENUM) {
		const char *arr = cg_uniq(g, "vals"), *i = cg_uniq(g, "i");
		cg_buf items = {0};
		for (uint32_t k = 0; k < r0->u.range_enum.items.len; k++) {
			const char *s = cg_fmt(g, "%s%s", k ? ", " : "", cg_int(g, env, r0->u.range_enum.items.items[k]));
			size_t l = strlen(s);
			VEC_GROW(&items, items.len + l + 1);
			memcpy(items.ptr + items.len, s, l + 1);
			items.len += l;
		}
		cg_line(g, "{");
		g->indent++;
		cg_line(g, "const rt_int %s[] = { %s };", arr, items.ptr ? items.ptr : "0");
		cg_line(g, "for (size_t %s = 0; %s < sizeof %s / sizeof *%s; %s++) {", i, i, arr, arr, i);
		VEC_FREE(&items);
		g->indent++;
		cg_line(g, "const rt_int %s = %s[%s];", cvar, arr, i);
		cg_line(g, "(void)%s;", cvar);
		body(g, env, ud);
		g->indent--;
		cg_line(g, "}");
		g->indent--;
		cg_line(g, "}");
		return;
	}
	/* General case: the values of every range, in order, then the loop. */
	const char *list = cg_uniq(g, "list"), *i = cg_uniq(g, "i");
	cg_line(g, "{");
	g->indent++;
	cg_line(g, "struct ncsim_ivec %s = { NULL, 0, 0 };", list);
	for (uint32_t k = 0; k < ranges->len; k++)
		append_range(g, env, ranges->items[k], list);
	cg_line(g, "for (size_t %s = 0; %s < %s.len; %s++) {", i, i, list, i);
	g->indent++;
	cg_line(g, "const rt_int %s = %s.ptr[%s];", cvar, list, i);
	cg_line(g, "(void)%s;", cvar);
	body(g, env, ud);
	g->indent--;
	cg_line(g, "}");
	cg_line(g, "free(%s.ptr);", list);
	g->indent--;
	cg_line(g, "}");
}

/* ------------------------------------------------------------ constant folding */

static int fold_f(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, double *out);
static int fold_rel(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int *out);

/* Value of a parameter bound in `params` (cname holds its index), or -1. */
static int param_value(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int64_t *out)
{
	const cg_sym *s = cg_lookup(params, n->u.ident.name, CG_SYM_VAR);
	if (!s) {
		cg_error(g, n->span, "%s cannot appear within a parameter's default value", n->u.ident.name);
		return -1;
	}
	*out = pvals[strtol(s->cname, NULL, 10)];
	return 0;
}

static int fold_i(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int64_t *out)
{
	ncsim_err e = NCSIM_ERR_INIT;
	int64_t a, b;
	switch (n->kind) {
	case AST_INT: *out = n->u.int_.value; return 0;
	case AST_DECIMAL: *out = ncsim_real_to_int(n->u.decimal.value); return 0;
	case AST_IDENT: return param_value(g, n, params, pvals, out);
	case AST_REAL_CAST: {
		double d;
		if (fold_f(g, n->u.real_cast.operand, params, pvals, &d) < 0)
			return -1;
		*out = ncsim_real_to_int(d);
		return 0;
	}
	case AST_UNARY:
		if (fold_i(g, n->u.unary.operand, params, pvals, &a) < 0)
			return -1;
		*out = n->u.unary.op == AST_UOP_NEG ? ncsim_neg(a) : n->u.unary.op == AST_UOP_NOT ? ~a : a;
		return 0;
	case AST_BINARY:
		if (fold_i(g, n->u.binary.lhs, params, pvals, &a) < 0 || fold_i(g, n->u.binary.rhs, params, pvals, &b) < 0)
			return -1;
		switch (n->u.binary.op) {
		case AST_OP_ADD: *out = ncsim_add(a, b); break;
		case AST_OP_SUB: *out = ncsim_sub(a, b); break;
		case AST_OP_MUL: *out = ncsim_mul(a, b); break;
		case AST_OP_DIV: *out = ncsim_div_i(a, b, &e); break;
		case AST_OP_MOD: *out = ncsim_mod_i(a, b, &e); break;
		case AST_OP_POW: *out = ncsim_pow_i(a, b, &e); break;
		case AST_OP_SHL: *out = ncsim_shl_i(a, b); break;
		case AST_OP_SHR: *out = ncsim_shr_i(a, b); break;
		case AST_OP_BAND: *out = a & b; break;
		case AST_OP_BOR: *out = a | b; break;
		case AST_OP_XOR: *out = a ^ b; break;
		case AST_BINOP_COUNT: break;
		}
		break;
	case AST_IFELSE: {
		int c;
		if (fold_rel(g, n->u.ifelse.cond, params, pvals, &c) < 0)
			return -1;
		return fold_i(g, c ? n->u.ifelse.then : n->u.ifelse.otherwise, params, pvals, out);
	}
	case AST_CALL: {
		const bi_info *bi = bi_lookup(ast_func_name(n->u.call.fn));
		int64_t args[64];
		int k = (int)n->u.call.args.len;
		if (!bi || k > 64 || !bi_foldable(bi, k, 0)) {
			cg_error(g, n->span, "a parameter's default value must be a constant expression");
			return -1;
		}
		for (int i = 0; i < k; i++)
			if (fold_i(g, n->u.call.args.items[i], params, pvals, &args[i]) < 0)
				return -1;
		*out = bi_call_i(bi, args, k, 0, &e);
		break;
	}
	default:
		cg_error(g, n->span, "a parameter's default value must be a constant expression");
		return -1;
	}
	if (e.failed) {
		cg_error(g, n->span, "%s", e.msg);
		return -1;
	}
	return 0;
}

static int fold_f(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, double *out)
{
	ncsim_err e = NCSIM_ERR_INIT;
	double a, b;
	int64_t i;
	switch (n->kind) {
	case AST_DECIMAL: *out = n->u.decimal.value; return 0;
	case AST_REAL_CAST: return fold_f(g, n->u.real_cast.operand, params, pvals, out);
	case AST_UNARY:
		if (n->u.unary.op == AST_UOP_NOT)
			break;
		if (fold_f(g, n->u.unary.operand, params, pvals, &a) < 0)
			return -1;
		*out = n->u.unary.op == AST_UOP_NEG ? -a : a;
		return 0;
	case AST_BINARY:
		if (fold_f(g, n->u.binary.lhs, params, pvals, &a) < 0 || fold_f(g, n->u.binary.rhs, params, pvals, &b) < 0)
			return -1;
		switch (n->u.binary.op) {
		case AST_OP_ADD: *out = a + b; break;
		case AST_OP_SUB: *out = a - b; break;
		case AST_OP_MUL: *out = a * b; break;
		case AST_OP_DIV: *out = a / b; break;
		case AST_OP_MOD: *out = ncsim_mod_f(a, b, &e); break;
		case AST_OP_POW: *out = ncsim_pow_f(a, b, &e); break;
		case AST_OP_SHL: *out = ncsim_shl_f(a, b, &e); break;
		case AST_OP_SHR: *out = ncsim_shr_f(a, b, &e); break;
		case AST_OP_BAND: *out = ncsim_and_f(a, b, &e); break;
		case AST_OP_BOR: *out = ncsim_or_f(a, b, &e); break;
		case AST_OP_XOR: *out = ncsim_xor_f(a, b, &e); break;
		case AST_BINOP_COUNT: break;
		}
		if (e.failed) {
			cg_error(g, n->span, "%s", e.msg);
			return -1;
		}
		return 0;
	default: break;
	}
	if (fold_i(g, n, params, pvals, &i) < 0)
		return -1;
	*out = (double)i;
	return 0;
}

static int fold_rel(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int *out)
{
	int64_t a, b;
	int x, y;
	ncsim_err e = NCSIM_ERR_INIT;
	switch (n->kind) {
	case AST_COMPARE:
		if (fold_i(g, n->u.compare.lhs, params, pvals, &a) < 0 || fold_i(g, n->u.compare.rhs, params, pvals, &b) < 0)
			return -1;
		switch (n->u.compare.op) {
		case AST_CMP_EQ: *out = a == b; break;
		case AST_CMP_NE: *out = a != b; break;
		case AST_CMP_LT: *out = a < b; break;
		case AST_CMP_GT: *out = a > b; break;
		case AST_CMP_LE: *out = a <= b; break;
		case AST_CMP_GE: *out = a >= b; break;
		case AST_CMP_DIVIDES: *out = ncsim_mod_i(b, a, &e) == 0; break;
		case AST_CMPOP_COUNT: break;
		}
		if (e.failed) {
			cg_error(g, n->span, "%s", e.msg);
			return -1;
		}
		return 0;
	case AST_PARITY:
		if (fold_i(g, n->u.parity.operand, params, pvals, &a) < 0)
			return -1;
		*out = ((a & 1) != 0) == (n->u.parity.odd != 0);
		return 0;
	case AST_LOGIC:
		if (fold_rel(g, n->u.logic.lhs, params, pvals, &x) < 0)
			return -1;
		if ((n->u.logic.op == AST_LOGIC_AND) != (x != 0)) {
			*out = x;
			return 0;
		}
		if (fold_rel(g, n->u.logic.rhs, params, pvals, &y) < 0)
			return -1;
		*out = y;
		return 0;
	default:
		cg_error(g, n->span, "a parameter's default value must be a constant expression");
		return -1;
	}
}

int cg_fold_int(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int64_t *out)
{
	return fold_i(g, n, params, pvals, out);
}

typedef struct rnd_ud {
	int found;
} rnd_ud;

static void rnd_walk(ast_node *n, void *ud)
{
	rnd_ud *u = ud;
	if (n->kind == AST_CALL) {
		const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
		if (b && (b->flags & BI_RNG))
			u->found = 1;
	}
	ast_foreach_child(n, rnd_walk, ud);
}

int cg_uses_random_fn(const ast_node *n)
{
	rnd_ud u = {0};
	rnd_walk((ast_node *)n, &u);
	return u.found;
}

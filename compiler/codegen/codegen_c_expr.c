/*
 * codegen_c_expr.c - expressions in integer and floating-point context
 * (LANGUAGE.md section 3), relational expressions, ranges, data sizes and
 * durations.
 *
 * An expression that sema folded (lang/sema.h notes) becomes its literal.
 * Every other operator and built-in goes through ncsim/stdlib.h, spelled by
 * the operator table of lang/ops.h that constant folding evaluates with, so
 * the generated code wraps around like the C backend and reports the same
 * errors. A function that can fail records its message in the task's sticky
 * `e`; the generator wraps each expression that contains one in
 * rt_ok_i/rt_ok_f/rt_ok_b (ncsim/gen.h), which turn a recorded error into
 * rt_fatal with the statement's source line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen_c.h"
#include "lang/builtins.h"
#include "lang/ops.h"
#include "lang/sema.h"

/* An expression: its C text and whether it can record an error. */
typedef struct ex {
	const char *s;
	int fallible;
	int effects; /* evaluating it can record an error or draw a random number (fallible, or hides a fallible part) */
} ex;

static ex ex_num(cg *g, const cg_sym *env, const ast_node *n, int flt);
static ex ex_rel(cg *g, const cg_sym *env, const ast_node *n, int flt);
static ex checked(cg *g, const cg_sym *env, const ast_node *n, int flt);

static ex mk(const char *s, int f) { return (ex){s, f, f}; }

/*
 * Order of evaluation. C leaves unspecified the order of a call's
 * arguments, of an infix operator's operands and of an initializer list's
 * items. It shows when two of them can fail (which message ends the run)
 * or draw random numbers (which draw gets which number); every built-in
 * call can fail. So when two or more operands have effects, the generated
 * C fixes the order: those operands become constants of a statement
 * expression, declared in the order gcc chose when it was free to (and the
 * direct engine copies, doc/engines.md): a call's arguments last to first,
 * infix operands and initializer items first to last. The others stay in
 * place: reading a variable or a counter has no effect to order.
 *
 *   f(A, B, &e)  ->  ({ const rt_int o_2 = B; const rt_int o = A; f(o, o_2, &e); })
 */
typedef struct seq {
	int on;     /* two or more operands have effects */
	cg_buf pre; /* the declarations so far */
} seq;

/* Starts ordering the operands ops[0..n). */
static void seq_begin(seq *q, const ex *ops, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += ops[i].effects != 0;
	*q = (seq){k >= 2, {0}};
}

/* The text to use for operand op, evaluated at this point of the order: itself, or a constant of `type` holding it. */
static const char *seq_op(cg *g, seq *q, const char *type, ex op)
{
	if (!q->on || !op.effects)
		return op.s;
	const char *name = cg_uniq(g, "o");
	const char *d = cg_fmt(g, "const %s %s = %s; ", type, name, op.s);
	cg_buf_add(&q->pre, d, strlen(d));
	return name;
}

/* The operation s built from the seq_op texts: "({ declarations s; })", or s when nothing was ordered (arena copies). */
static const char *seq_end(cg *g, seq *q, const char *s)
{
	if (!q->on)
		return cg_fmt(g, "%s", s);
	const char *r = cg_fmt(g, "({ %s%s; })", q->pre.ptr ? q->pre.ptr : "", s);
	VEC_FREE(&q->pre);
	return r;
}

void cg_order(cg *g, const char *type, const char **vals[], int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += !cg_plain(*vals[i]) && strchr(*vals[i], '(') != NULL;
	if (k < 2)
		return;
	for (int i = 0; i < n; i++) {
		if (cg_plain(*vals[i]) || !strchr(*vals[i], '('))
			continue;
		const char *name = cg_uniq(g, "o");
		cg_line(g, "const %s %s = %s;", type, name, *vals[i]);
		*vals[i] = name;
	}
}

/* The C type of a number in context flt. */
static const char *num_type(int flt) { return flt ? "double" : "rt_int"; }

/* ------------------------------------------------------------ leaves */

const char *cg_int_lit(cg *g, int64_t v)
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
	/* The generated file gets these macros from <math.h> through ncsim/gen.h. */
	if (isinf(v))
		return v < 0 ? "(-HUGE_VAL)" : "HUGE_VAL";
	if (isnan(v))
		return signbit(v) ? "(-NAN)" : "NAN";
	snprintf(buf, sizeof buf, "%.17g", v);
	if (!strpbrk(buf, ".en"))
		strcat(buf, ".0");
	return v < 0 ? cg_fmt(g, "(%s)", buf) : cg_fmt(g, "%s", buf);
}

/* 1 and *v if sema folded n in context flt. */
static int known(const ast_node *n, int flt, ops_num *v)
{
	const sema_note *t = sema_note_of(n);
	if (!t || !(t->flags & (flt ? SEMA_N_CONST_F : SEMA_N_CONST_I)))
		return 0;
	v->i = t->ival;
	v->f = t->fval;
	return 1;
}

int cg_known_int(const ast_node *n, int64_t *v)
{
	ops_num x;
	if (!known(n, 0, &x))
		return 0;
	*v = x.i;
	return 1;
}

/* The literal of a folded number in context flt. */
static const char *num_lit(cg *g, ops_num v, int flt)
{
	return flt ? flt_lit(g, v.f) : cg_int_lit(g, v.i);
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

/* Arguments of a call after filling defaults, in the given context. */
static int call_args(cg *g, const cg_sym *env, const bi_info *b, const ast_list *args, int flt, ex *out)
{
	int n = (int)args->len;
	if (!bi_arity_ok(b, n)) {
		char msg[128];
		bi_arity_message(b, n, msg, sizeof msg);
		cg_error(g, args->len ? args->items[0]->span : (src_span){0, 1, 0}, "%s", msg);
		return -1;
	}
	int total = n;
	for (int i = 0; i < n; i++)
		out[i] = ex_num(g, env, args->items[i], flt);
	if (b->flags & BI_NARY)
		return total;
	for (int i = n; i < BI_MAX_ARGS && b->defaults[i].kind != BI_DEF_NONE; i++) {
		const bi_default *d = &b->defaults[i];
		switch (d->kind) {
		case BI_DEF_CONST: out[i] = mk(flt ? flt_lit(g, (double)d->value) : cg_int_lit(g, d->value), 0); break;
		case BI_DEF_NUM_TASKS: out[i] = mk(flt ? "(double)num_tasks" : "num_tasks", 0); break;
		case BI_DEF_ARG: out[i] = out[d->value]; break; /* the same text, evaluated again */
		case BI_DEF_STRING: out[i] = mk(cg_cstr(g, d->str, strlen(d->str)), 0); break;
		case BI_DEF_NONE: break;
		}
		total = i + 1;
	}
	return total;
}

static ex call(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
	ex args[64];
	if (!b || n->u.call.args.len > 60) {
		cg_error(g, n->span, "unsupported call of %s", ast_func_name(n->u.call.fn));
		return mk("0", 0);
	}
	int k = call_args(g, env, b, &n->u.call.args, flt, args);
	if (k < 0)
		return mk("0", 0);
	if (b->flags & BI_RUNTIME) {
		const char *f = b->id == BI_PROCESSOR_OF ? "rt_processor_of" : "rt_task_of";
		const char *s = cg_fmt(g, "%s(t, %s)", f, flt ? cg_fmt(g, "ncsim_f2i(%s, &e)", args[0].s) : args[0].s);
		/* checked as before (only the conversion), but an error inside the argument is an effect to order */
		return (ex){flt ? cg_fmt(g, "(double)%s", s) : s, flt, flt | args[0].effects};
	}
	/* NARY: an initializer list, first to last; else arguments, last to first */
	seq q;
	seq_begin(&q, args, k);
	const char *text[64];
	for (int j = 0; j < k; j++) {
		int i = b->flags & BI_NARY ? j : k - 1 - j;
		text[i] = seq_op(g, &q, num_type(flt), args[i]);
	}
	const char *fn = flt ? b->c_float : b->c_int;
	cg_buf out = {0};
	cg_buf_add(&out, fn, strlen(fn));
	cg_buf_add(&out, "(", 1);
	if (b->flags & BI_NARY) {
		const char *open = flt ? "(const double[]){ " : "(const int64_t[]){ ";
		cg_buf_add(&out, open, strlen(open));
	} else if (b->flags & BI_RNG) {
		cg_buf_add(&out, "rt_rng(t), ", 11);
		g->uses_random = 1;
	}
	for (int i = 0; i < k; i++) {
		if (i)
			cg_buf_add(&out, ", ", 2);
		cg_buf_add(&out, text[i], strlen(text[i]));
	}
	const char *close = b->flags & BI_NARY ? cg_fmt(g, " }, %d, &e)", k) : ", &e)";
	cg_buf_add(&out, close, strlen(close));
	const char *s = seq_end(g, &q, out.ptr);
	VEC_FREE(&out);
	return mk(s, 1);
}

static ex mesh(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	/* the C arguments: dims[0..3), task, then offs[0..3) or other */
	ex a[7];
	const char *t[7];
	unsigned mask = 0;
	int k;
	const ast_list *dl = &n->u.mesh.dims;
	if (dl->len < 1 || dl->len > 3) {
		cg_error(g, n->span, "a mesh has 1 to 3 dimensions");
		return mk("0", 0);
	}
	for (int i = 0; i < 3; i++) {
		if (i < (int)dl->len) {
			const ast_node *d = dl->items[i];
			a[i] = ex_num(g, env, d->u.dimension.extent, flt);
			if (d->u.dimension.torus)
				mask |= 1u << i;
		} else {
			a[i] = mk(flt ? "1.0" : "1", 0);
		}
	}
	a[3] = ex_num(g, env, n->u.mesh.task, flt);
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR) {
		const ast_list *ol = &n->u.mesh.offsets;
		if (ol->len != dl->len) {
			cg_error(g, n->span, "a MESH_NEIGHBOR's mesh and offset lists must have the same length");
			return mk("0", 0);
		}
		for (int i = 0; i < 3; i++)
			a[4 + i] = i < (int)ol->len ? ex_num(g, env, ol->items[i], flt) : mk(flt ? "0.0" : "0", 0);
		k = 7;
	} else {
		a[4] = ex_num(g, env, n->u.mesh.other, flt);
		k = 5;
	}
	seq q;
	seq_begin(&q, a, k);
	for (int i = k; i-- > 0;) /* call arguments: last to first */
		t[i] = seq_op(g, &q, num_type(flt), a[i]);
	const char *sfx = flt ? "f" : "i", *s;
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR)
		s = cg_fmt(g, "ncsim_mesh_neighbor_%s(%s, %s, %s, %uu, %s, %s, %s, %s, &e)", sfx, t[0], t[1], t[2], mask,
		           t[3], t[4], t[5], t[6]);
	else if (n->u.mesh.fn == AST_MESH_COORDINATE)
		s = cg_fmt(g, "ncsim_mesh_coordinate_%s(%s, %s, %s, %s, %s, &e)", sfx, t[0], t[1], t[2], t[3], t[4]);
	else
		s = cg_fmt(g, "ncsim_mesh_distance_%s(%s, %s, %s, %uu, %s, %s, &e)", sfx, t[0], t[1], t[2], mask, t[3], t[4]);
	return mk(seq_end(g, &q, s), 1);
}

static ex file_data(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	const ast_list *al = &n->u.file_data.args;
	const bi_info *b = bi_get(n->u.file_data.is_static ? BI_STATIC_FILE_DATA : BI_FILE_DATA);
	ex a[5];
	const char *t[5];
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
			a[i] = mk(x ? cg_cstr(g, x->u.string.text, x->u.string.len)
			            : cg_cstr(g, b->defaults[i].str, strlen(b->defaults[i].str)),
			          0);
		} else if (x) {
			a[i] = ex_num(g, env, x, flt);
		} else {
			a[i] = mk(flt ? "1.0" : "1", 0);
		}
	}
	seq q;
	seq_begin(&q, a, 5);
	for (int i = 5; i-- > 0;) /* call arguments: last to first (only the column and row can have effects) */
		t[i] = seq_op(g, &q, num_type(flt), a[i]);
	return mk(seq_end(g, &q, cg_fmt(g, "ncsim_file_data_%s(rt_filecache(t), %s, %s, %s, %s, %s, &e)", flt ? "f" : "i",
	                                t[0], t[1], t[2], t[3], t[4])),
	          1);
}

/* ------------------------------------------------------------ operators */

/* C text of an operator of lang/ops.h applied to a (and b, for a binary one), in context flt. */
static ex spell(cg *g, const ops_spelling *sp, ex a, const ex *b, int flt)
{
	int f = a.fallible | (b ? b->fallible : 0) | sp->fallible;
	const char *err = sp->fallible ? ", &e" : "";
	if (sp->infix && !b)
		return (ex){*sp->text ? cg_fmt(g, "(%s%s)", sp->text, a.s) : a.s, f, a.effects | sp->fallible};
	if (!b)
		return (ex){cg_fmt(g, "%s(%s%s)", sp->text, a.s, err), f, a.effects | sp->fallible};
	/* infix operands first to last, a call's arguments last to first */
	const ex ops[2] = {a, *b};
	const char *ta, *tb;
	seq q;
	seq_begin(&q, ops, 2);
	if (sp->infix) {
		ta = seq_op(g, &q, num_type(flt), a);
		tb = seq_op(g, &q, num_type(flt), *b);
	} else {
		tb = seq_op(g, &q, num_type(flt), *b);
		ta = seq_op(g, &q, num_type(flt), a);
	}
	/*
	 * gcc rewrites 0.0 - (double)i as -(double)i, even at -O0, which gives -0
	 * for i = 0 where IEEE arithmetic (and the direct engine) gives +0, and it
	 * does so for any left operand it can fold to 0.0 ((c ? 0.0 : 0.0) - x):
	 * a left operand it cannot see through keeps every subtraction.
	 */
	if (flt && sp->infix && !strcmp(sp->text, "-"))
		ta = cg_fmt(g, "ncsim_fkeep(%s)", ta);
	const char *s = sp->infix ? cg_fmt(g, "(%s %s %s)", ta, sp->text, tb) : cg_fmt(g, "%s(%s, %s%s)", sp->text, ta, tb, err);
	return (ex){seq_end(g, &q, s), f, a.effects | b->effects | sp->fallible};
}

/* ------------------------------------------------------------ numbers */

/* n in integer (flt = 0) or floating-point context. */
static ex ex_num(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ops_num v;
	if (known(n, flt, &v))
		return mk(num_lit(g, v, flt), 0);
	switch (n->kind) {
	case AST_INT: return mk(flt ? flt_lit(g, (double)n->u.int_.value) : cg_int_lit(g, n->u.int_.value), 0);
	case AST_DECIMAL:
		return mk(flt ? flt_lit(g, n->u.decimal.value) : cg_int_lit(g, ncsim_real_to_int(n->u.decimal.value)), 0);
	case AST_IDENT: return mk(ident(g, env, n, flt), 0);
	case AST_MY_TASK: return mk(flt ? "(double)rt_rank(t)" : "rt_rank(t)", 0);
	case AST_UNARY:
		return spell(g, &ops_unary(n->u.unary.op)->c[flt], ex_num(g, env, n->u.unary.operand, flt), NULL, flt);
	case AST_BINARY: {
		ex b = ex_num(g, env, n->u.binary.rhs, flt);
		return spell(g, &ops_binary(n->u.binary.op)->c[flt], ex_num(g, env, n->u.binary.lhs, flt), &b, flt);
	}
	case AST_IFELSE: {
		ex c = ex_rel(g, env, n->u.ifelse.cond, flt);
		ex a = ex_num(g, env, n->u.ifelse.then, flt), b = ex_num(g, env, n->u.ifelse.otherwise, flt);
		return (ex){cg_fmt(g, "(%s ? %s : %s)", c.s, a.s, b.s), a.fallible | b.fallible | c.fallible,
		            a.effects | b.effects | c.effects};
	}
	case AST_CALL: return call(g, env, n, flt);
	case AST_MESH: return mesh(g, env, n, flt);
	case AST_FILE_DATA: return file_data(g, env, n, flt);
	case AST_REAL_CAST: {
		ex a = ex_num(g, env, n->u.real_cast.operand, 1);
		return flt ? a : (ex){cg_fmt(g, "ncsim_real_to_int(%s)", a.s), a.fallible, a.effects};
	}
	default: break;
	}
	cg_error(g, n->span, "a %s is not a numeric expression", ast_kind_name(n->kind));
	return mk(flt ? "0.0" : "0", 0);
}

/* ------------------------------------------------------------ relational expressions */

typedef struct in_ud {
	const char *x, *flag;
} in_ud;

static void in_body(cg *g, const cg_sym *env, const char *v, void *ud)
{
	const in_ud *u = ud;
	(void)env;
	cg_line(g, "if (%s == %s) %s = 1;", u->x, v, u->flag);
}

/* x IS [NOT] IN ranges: a statement expression that scans the ranges. */
static ex in_ranges(cg *g, const cg_sym *env, const ast_node *n)
{
	ex x = ex_num(g, env, n->u.in_ranges.operand, 0);
	const char *xv = cg_uniq(g, "x"), *flag = cg_uniq(g, "in");
	cg_capture cap;
	cg_capture_begin(g, &cap);
	in_ud u = {xv, flag};
	cg_ranges_foreach(g, env, &n->u.in_ranges.ranges, cg_fmt(g, "%s_v", flag), in_body, &u);
	cg_line(g, "%s%s; })", n->u.in_ranges.negated ? "!" : "", flag);
	const char *loop = cg_capture_end(g, &cap);
	return mk(cg_fmt(g, "({ const rt_int %s = %s; int %s = 0;\n%.*s", xv, x.s, flag, (int)strlen(loop) - 1, loop), 1);
}

static ex ex_rel(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ops_num v;
	if (known(n, flt, &v))
		return mk(ops_true(flt, v) ? "1" : "0", 0);
	switch (n->kind) {
	case AST_COMPARE: {
		const ops_cmpop *op = ops_compare(n->u.compare.op);
		ex a = ex_num(g, env, n->u.compare.lhs, flt), b = ex_num(g, env, n->u.compare.rhs, flt);
		const ex ops[2] = {a, b};
		seq q;
		seq_begin(&q, ops, 2);
		if (!op->c) { /* a DIVIDES b: b MOD a = 0, a call: a is its last argument, evaluated first */
			const char *ta = seq_op(g, &q, num_type(flt), a), *tb = seq_op(g, &q, num_type(flt), b);
			return mk(seq_end(g, &q, cg_fmt(g, "(%s(%s, %s, &e) == 0)", op->mod[flt], tb, ta)), 1);
		}
		const char *ta = seq_op(g, &q, num_type(flt), a), *tb = seq_op(g, &q, num_type(flt), b);
		return (ex){seq_end(g, &q, cg_fmt(g, "(%s %s %s)", ta, op->c, tb)), a.fallible | b.fallible,
		            a.effects | b.effects};
	}
	case AST_PARITY: {
		ex a = ex_num(g, env, n->u.parity.operand, flt);
		if (flt)
			a = mk(cg_fmt(g, "ncsim_f2i(%s, &e)", a.s), 1);
		return (ex){cg_fmt(g, "((%s & 1) %s 0)", a.s, n->u.parity.odd ? "!=" : "=="), a.fallible, a.effects};
	}
	case AST_IN_RANGES: return in_ranges(g, env, n);
	case AST_IN_INTERVAL: {
		ex x = ex_num(g, env, n->u.in_interval.operand, 0), lo = ex_num(g, env, n->u.in_interval.lo, 0),
		   hi = ex_num(g, env, n->u.in_interval.hi, 0);
		const char *xv = cg_uniq(g, "x"), *lv = cg_uniq(g, "lo"), *hv = cg_uniq(g, "hi");
		/* each declarator's initializer is a full expression: x, lo, hi in this order */
		return (ex){cg_fmt(g,
		                   "({ const rt_int %s = %s, %s = %s, %s = %s; "
		                   "%s(%s >= (%s < %s ? %s : %s) && %s <= (%s < %s ? %s : %s)); })",
		                   xv, x.s, lv, lo.s, hv, hi.s, n->u.in_interval.negated ? "!" : "", xv, lv, hv, lv, hv,
		                   xv, lv, hv, hv, lv),
		            x.fallible | lo.fallible | hi.fallible, x.effects | lo.effects | hi.effects};
	}
	case AST_LOGIC: {
		ex a = ex_rel(g, env, n->u.logic.lhs, flt), b = ex_rel(g, env, n->u.logic.rhs, flt);
		return (ex){cg_fmt(g, "(%s %s %s)", a.s, n->u.logic.op == AST_LOGIC_AND ? "&&" : "||", b.s),
		            a.fallible | b.fallible, a.effects | b.effects};
	}
	default: break;
	}
	cg_error(g, n->span, "a %s is not a relational expression", ast_kind_name(n->kind));
	return mk("0", 0);
}

/* ------------------------------------------------------------ public wrappers */

/* n in context flt, checked (rt_ok_i/rt_ok_f) if it can fail. */
static ex checked(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ex x = ex_num(g, env, n, flt);
	if (x.fallible)
		x.s = cg_fmt(g, flt ? "rt_ok_f(t, &e, %s)" : "rt_ok_i(t, &e, %s)", x.s);
	return x;
}

const char *cg_int_ex(cg *g, const cg_sym *env, const ast_node *n, int *fallible)
{
	ex x = checked(g, env, n, 0);
	*fallible = x.fallible;
	return x.s;
}

const char *cg_int(cg *g, const cg_sym *env, const ast_node *n)
{
	int f;
	return cg_int_ex(g, env, n, &f);
}

const char *cg_flt(cg *g, const cg_sym *env, const ast_node *n)
{
	return checked(g, env, n, 1).s;
}

const char *cg_rel(cg *g, const cg_sym *env, const ast_node *n, int flt)
{
	ex x = ex_rel(g, env, n, flt);
	return x.fallible ? cg_fmt(g, "rt_ok_b(t, &e, %s)", x.s) : x.s;
}

/* ------------------------------------------------------------ sizes and durations */

/* A value that the user wrote as a real number (decimal literal, REAL()). */
static int real_valued(const ast_node *n) { return n->kind == AST_DECIMAL || n->kind == AST_REAL_CAST; }

/* Bytes per unit of a size (BITS: handled apart). */
static uint64_t unit_bytes(ast_data_unit u)
{
	return u == AST_DU_INTEGERS ? 4 : u == AST_DU_PAGES ? 4096 : ast_data_unit_bytes(u);
}

int cg_size_known(const ast_node *n, int64_t *out)
{
	const ast_node *v = n->u.size.value;
	ast_data_unit u = n->u.size.unit;
	ops_num x;
	if (!known(v, real_valued(v), &x))
		return 0;
	if (u == AST_DU_BITS)
		*out = ncsim_bits_to_bytes(real_valued(v) ? ncsim_real_to_int(x.f) : x.i);
	else if (real_valued(v))
		*out = ncsim_real_to_int(x.f * (double)unit_bytes(u));
	else
		*out = ncsim_mul(x.i, (int64_t)unit_bytes(u));
	return 1;
}

const char *cg_size(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *v = n->u.size.value;
	ast_data_unit u = n->u.size.unit;
	uint64_t per = unit_bytes(u);
	int64_t k;
	if (cg_size_known(n, &k))
		return cg_int_lit(g, k);
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

const char *cg_duration_ps(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *v = n->u.duration.value;
	double ps = (double)ast_time_unit_ps(n->u.duration.unit);
	ops_num x;
	if (known(v, real_valued(v), &x)) {
		/* ncsim_ps of ncsim/gen.h, evaluated now */
		double d = real_valued(v) ? x.f * ps : (double)x.i * ps;
		uint64_t r = d <= 0.0 ? 0 : !(d < 18446744073709551616.0) ? UINT64_MAX : (uint64_t)(d + 0.5);
		return cg_fmt(g, "UINT64_C(%" PRIu64 ")", r);
	}
	return cg_fmt(g, "ncsim_ps(%s)", cg_duration(g, env, n));
}

/* ------------------------------------------------------------ ranges (3.6) */

/*
 * The call `head` + the arguments of rt_range for a progression:
 * "(const int64_t[]){ ... }, (const double[]){ ... } or NULL, k, last, last_d)".
 * Its effects in gcc's order: last_d, last, the double items, the integer items.
 */
static const char *prog_call(cg *g, const cg_sym *env, const ast_node *r, const char *head)
{
	const ast_list *it = &r->u.range_prog.items;
	uint32_t n = it->len;
	/* The float values matter only to the non-integral geometric rule (3 or more items). */
	int dbl = n >= 3;
	ex *ops = xcalloc(2 * (size_t)n + 2, sizeof *ops); /* in evaluation order */
	const char **txt = xcalloc(2 * (size_t)n + 2, sizeof *txt);
	ops[0] = dbl ? checked(g, env, r->u.range_prog.last, 1) : mk("0.0", 0);
	ops[1] = checked(g, env, r->u.range_prog.last, 0);
	for (uint32_t i = 0; i < n; i++) {
		ops[2 + i] = dbl ? checked(g, env, it->items[i], 1) : mk("", 0);
		ops[2 + n + i] = checked(g, env, it->items[i], 0);
	}
	seq q;
	seq_begin(&q, ops, 2 * (int)n + 2);
	for (uint32_t i = 0; i < 2 * n + 2; i++)
		txt[i] = seq_op(g, &q, i == 0 || (i >= 2 && i < 2 + n) ? "double" : "rt_int", ops[i]);
	cg_buf b = {0};
	cg_buf_add(&b, head, strlen(head));
	cg_buf_add(&b, "(const int64_t[]){ ", 19);
	for (uint32_t i = 0; i < n; i++) {
		const char *a = cg_fmt(g, "%s%s", i ? ", " : "", txt[2 + n + i]);
		cg_buf_add(&b, a, strlen(a));
	}
	cg_buf_add(&b, " }, ", 4);
	if (dbl) {
		cg_buf_add(&b, "(const double[]){ ", 18);
		for (uint32_t i = 0; i < n; i++) {
			const char *a = cg_fmt(g, "%s%s", i ? ", " : "", txt[2 + i]);
			cg_buf_add(&b, a, strlen(a));
		}
		cg_buf_add(&b, " }", 2);
	} else {
		cg_buf_add(&b, "NULL", 4);
	}
	const char *tail = cg_fmt(g, ", %u, %s, %s)", n, txt[1], txt[0]);
	cg_buf_add(&b, tail, strlen(tail));
	const char *s = seq_end(g, &q, b.ptr);
	VEC_FREE(&b);
	free(ops);
	free(txt);
	return s;
}

typedef struct comp_ud {
	const ast_node *comp;
	uint32_t gen;
	const char *list;
} comp_ud;

/* One generator level of a list comprehension: binds its variable, then the next level. */
static void comp_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const comp_ud *u = ud;
	const ast_node *c = u->comp;
	if (u->gen > 0) {
		const ast_node *gen = c->u.range_comp.gens.items[u->gen - 1];
		env = cg_bind(g, env, gen->u.generator.var->u.ident.name, x);
	}
	if (u->gen == c->u.range_comp.gens.len) {
		const char *val = cg_int(g, env, c->u.range_comp.expr);
		if (c->u.range_comp.where)
			cg_if(g, cg_rel(g, env, c->u.range_comp.where, 0));
		cg_line(g, "rt_ivec_push(t, &%s, %s);", u->list, val);
		if (c->u.range_comp.where)
			cg_endif(g);
		return;
	}
	const ast_node *gen = c->u.range_comp.gens.items[u->gen];
	comp_ud next = {c, u->gen + 1, u->list};
	cg_ranges_foreach(g, env, &gen->u.generator.ranges, cg_fmt(g, "v_%s", gen->u.generator.var->u.ident.name),
	                  comp_body, &next);
}

static void append_range(cg *g, const cg_sym *env, const ast_node *r, const char *list)
{
	switch (r->kind) {
	case AST_RANGE_ENUM:
		for (uint32_t i = 0; i < r->u.range_enum.items.len; i++)
			cg_line(g, "rt_ivec_push(t, &%s, %s);", list, cg_int(g, env, r->u.range_enum.items.items[i]));
		break;
	case AST_RANGE_PROG: cg_line(g, "%s;", prog_call(g, env, r, cg_fmt(g, "rt_range_append(t, &e, &%s, ", list))); break;
	case AST_RANGE_COMP: {
		comp_ud u = {r, 0, list};
		comp_body(g, env, NULL, &u);
		break;
	}
	default: cg_error(g, r->span, "a %s is not a range", ast_kind_name(r->kind)); break;
	}
}

/* The loop body: declared value x, then body; "(void)x;" if the body does not read it. */
static void each_value(cg *g, const cg_sym *env, const char *decl, const char *x, cg_body_fn body, void *ud)
{
	if (decl)
		cg_line(g, "%s", decl);
	size_t at = cg_mark(g);
	body(g, env, x, ud);
	if (decl)
		cg_unused(g, at, x);
}

void cg_ranges_foreach(cg *g, const cg_sym *env, const ast_list *ranges, const char *stem, cg_body_fn body,
                       void *ud)
{
	const ast_node *r0 = ranges->len == 1 ? ranges->items[0] : NULL;
	const char *x = cg_uniq(g, stem);
	if (r0 && r0->kind == AST_RANGE_PROG) {
		/* One progression: iterate it without materialising the values. */
		const char *rv = cg_uniq(g, "range"), *it = cg_uniq(g, "it"), *ok = cg_uniq(g, "ok");
		cg_line(g, "const struct ncsim_range %s = %s;", rv, prog_call(g, env, r0, "rt_range(t, &e, "));
		cg_line(g, "struct ncsim_range_it %s;", it);
		cg_line(g, "int64_t %s;", x);
		cg_open(g, "for (int %s = ncsim_range_first(&%s, &%s, &%s); %s; %s = ncsim_range_next(&%s, &%s, &%s))", ok,
		        rv, it, x, ok, ok, rv, it, x);
		body(g, env, x, ud);
		cg_close(g);
		return;
	}
	if (r0 && r0->kind == AST_RANGE_ENUM && r0->u.range_enum.items.len == 1) {
		/* one value: no loop */
		each_value(g, env, cg_fmt(g, "const rt_int %s = %s;", x, cg_int(g, env, r0->u.range_enum.items.items[0])), x,
		           body, ud);
		return;
	}
	if (r0 && r0->kind == AST_RANGE_ENUM) {
		const ast_list *items = &r0->u.range_enum.items;
		const char *arr = cg_uniq(g, "vals"), *i = cg_uniq(g, "i");
		ex *vals = xcalloc(items->len, sizeof *vals);
		for (uint32_t k = 0; k < items->len; k++)
			vals[k] = checked(g, env, items->items[k], 0);
		/* an initializer list, first to last: values with effects are declared before it in that order */
		seq q;
		seq_begin(&q, vals, (int)items->len);
		cg_buf text = {0};
		for (uint32_t k = 0; k < items->len; k++) {
			const char *s = cg_fmt(g, "%s%s", k ? ", " : "", seq_op(g, &q, "rt_int", vals[k]));
			cg_buf_add(&text, s, strlen(s));
		}
		if (q.on)
			cg_line(g, "%.*s", (int)q.pre.len - 1, q.pre.ptr); /* less the last blank */
		VEC_FREE(&q.pre);
		cg_line(g, "const rt_int %s[] = { %s };", arr, text.ptr ? text.ptr : "0");
		VEC_FREE(&text);
		free(vals);
		cg_open(g, "for (size_t %s = 0; %s < %u; %s++)", i, i, items->len, i);
		each_value(g, env, cg_fmt(g, "const rt_int %s = %s[%s];", x, arr, i), x, body, ud);
		cg_close(g);
		return;
	}
	/* General case: the values of every range, in order, then the loop. */
	const char *list = cg_uniq(g, "list"), *i = cg_uniq(g, "i");
	cg_line(g, "struct ncsim_ivec %s = { NULL, 0, 0 };", list);
	cg_line(g, "rt_track(t, &%s, ncsim_ivec_release);", list);
	for (uint32_t k = 0; k < ranges->len; k++)
		append_range(g, env, ranges->items[k], list);
	cg_open(g, "for (size_t %s = 0; %s < %s.len; %s++)", i, i, list, i);
	each_value(g, env, cg_fmt(g, "const rt_int %s = %s.ptr[%s];", x, list, i), x, body, ud);
	cg_close(g);
	cg_line(g, "rt_release(t, &%s);", list);
}

/* ------------------------------------------------------------ random functions */

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

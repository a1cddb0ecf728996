/*
 * expr.c - expressions of the direct engine (LANGUAGE.md section 3), resolved
 * at load time into closures that mirror compiler/codegen/codegen_c_expr.c.
 *
 * The context of every node is the one the C generator gives it: the
 * context flows down from the place an expression is used (a message size
 * is integer, a log value floating point), REAL() switches to floating
 * point, and a node sema folded in that context is its literal. Operators
 * use the rows of lang/ops.h and built-ins the functions of ncsim/stdlib.h
 * that the generated C names, so values, wrap-around and error messages
 * are the same.
 *
 * Order of evaluation. C leaves the order of a call's arguments
 * unspecified, and the compiled engine's C compiler (gcc at -O2) evaluates
 * them last to first, while it evaluates the operands of an infix operator
 * and the values of an initializer list first to last. The order shows when
 * two operands draw random numbers or both fail, so this engine copies it:
 * operands spelt as a call (ncsim_add(a, b), ncsim_mod_f(a, b), a
 * built-in's arguments) are evaluated right to left, infix operands
 * (float + - * /, integer & | ^, comparisons) and MIN/MAX lists left to
 * right.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eng_int.h"
#include "lang/builtins.h"
#include "lang/ops.h"
#include "lang/sema.h"

/* ------------------------------------------------------------ building */

static ex *mk(eng_cx *c, ex_ifn fi)
{
	ex *x = eng_new(c, sizeof *x);
	x->fn.i = fi;
	return x;
}

static ex *mkf(eng_cx *c, ex_ffn ff)
{
	ex *x = eng_new(c, sizeof *x);
	x->fn.f = ff;
	return x;
}

/* ------------------------------------------------------------ leaves */

static int64_t lit_i(const ex *x, ek *k) { (void)k; return x->iv; }
static double lit_f(const ex *x, ek *k) { (void)k; return x->fv; }
static int64_t slot_i(const ex *x, ek *k) { return k->v[x->iv]; }
static double slot_f(const ex *x, ek *k) { return (double)k->v[x->iv]; }
static int64_t ntasks_i(const ex *x, ek *k) { (void)x; return k->num_tasks; }
static double ntasks_f(const ex *x, ek *k) { (void)x; return (double)k->num_tasks; }
static int64_t counter_i(const ex *x, ek *k) { return rt_counter(k->t, (enum rt_counter)x->iv); }
static double counter_f(const ex *x, ek *k) { return rt_counter_f(k->t, (enum rt_counter)x->iv); }
static int64_t rank_i(const ex *x, ek *k) { (void)x; return rt_rank(k->t); }
static double rank_f(const ex *x, ek *k) { (void)x; return (double)rt_rank(k->t); }

const ex *eng_lit_i(eng_cx *c, int64_t v)
{
	ex *x = mk(c, lit_i);
	x->iv = v;
	return x;
}

static const ex *lit_f_of(eng_cx *c, double v)
{
	ex *x = mkf(c, lit_f);
	x->fv = v;
	return x;
}

static const ex *lit(eng_cx *c, int flt, int64_t i, double f)
{
	return flt ? lit_f_of(c, f) : eng_lit_i(c, i);
}

/* 1 and *v if sema folded n in context flt (codegen's known()). */
static int known(const ast_node *n, int flt, ops_num *v)
{
	const sema_note *t = sema_note_of(n);
	if (!t || !(t->flags & (flt ? SEMA_N_CONST_F : SEMA_N_CONST_I)))
		return 0;
	v->i = t->ival;
	v->f = t->fval;
	return 1;
}

int eng_known_int(const ast_node *n, int64_t *v)
{
	ops_num x;
	if (!known(n, 0, &x))
		return 0;
	*v = x.i;
	return 1;
}

/* The predeclared counters (LANGUAGE.md sections 4 and 14.2). */
static const struct {
	const char *name;
	enum rt_counter counter;
} predeclared[] = {
	{"elapsed_usecs", RT_ELAPSED_USECS}, {"bytes_sent", RT_BYTES_SENT},
	{"bytes_received", RT_BYTES_RECEIVED}, {"total_bytes", RT_TOTAL_BYTES},
	{"msgs_sent", RT_MSGS_SENT}, {"msgs_received", RT_MSGS_RECEIVED},
	{"total_msgs", RT_TOTAL_MSGS}, {"bit_errors", RT_BIT_ERRORS},
	{"bytes_read", RT_BYTES_READ}, {"bytes_written", RT_BYTES_WRITTEN},
	{"io_usecs", RT_IO_USECS},
};

static const ex *ident(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	const char *name = n->u.ident.name;
	const eng_sym *s = eng_lookup(env, name, ENG_SYM_VAR);
	ex *x;
	if (s) {
		x = flt ? mkf(c, slot_f) : mk(c, slot_i);
		x->iv = s->slot;
		return x;
	}
	if (!strcmp(name, "num_tasks"))
		return flt ? mkf(c, ntasks_f) : mk(c, ntasks_i);
	for (size_t i = 0; i < sizeof predeclared / sizeof *predeclared; i++)
		if (!strcmp(name, predeclared[i].name)) {
			x = flt ? mkf(c, counter_f) : mk(c, counter_i);
			x->iv = predeclared[i].counter;
			return x;
		}
	eng_error(c, n->span, "Variable %s must be declared before being used", name);
	return lit(c, flt, 0, 0.0);
}

/* ------------------------------------------------------------ operators */

/* Call-spelt integer operators: right operand first (see the header). */
static int64_t bin_i(const ex *x, ek *k)
{
	int64_t b = ev_i(x->b, k);
	return ((const ops_binop *)x->op)->eval_i(ev_i(x->a, k), b, &k->e);
}
/* Infix integer operators: left operand first. */
static int64_t bin_i_lr(const ex *x, ek *k)
{
	int64_t a = ev_i(x->a, k);
	return ((const ops_binop *)x->op)->eval_i(a, ev_i(x->b, k), &k->e);
}
static double bin_f(const ex *x, ek *k)
{
	double b = ev_f(x->b, k);
	return ((const ops_binop *)x->op)->eval_f(ev_f(x->a, k), b, &k->e);
}
static double bin_f_lr(const ex *x, ek *k)
{
	double a = ev_f(x->a, k);
	return ((const ops_binop *)x->op)->eval_f(a, ev_f(x->b, k), &k->e);
}
/* The commonest operators without the indirect call. */
static int64_t add_i(const ex *x, ek *k) { int64_t b = ev_i(x->b, k); return ncsim_add(ev_i(x->a, k), b); }
static int64_t sub_i(const ex *x, ek *k) { int64_t b = ev_i(x->b, k); return ncsim_sub(ev_i(x->a, k), b); }
static int64_t mul_i(const ex *x, ek *k) { int64_t b = ev_i(x->b, k); return ncsim_mul(ev_i(x->a, k), b); }
static int64_t div_i(const ex *x, ek *k) { int64_t b = ev_i(x->b, k); return ncsim_div_i(ev_i(x->a, k), b, &k->e); }
static int64_t mod_i(const ex *x, ek *k) { int64_t b = ev_i(x->b, k); return ncsim_mod_i(ev_i(x->a, k), b, &k->e); }
static double add_f(const ex *x, ek *k) { double a = ev_f(x->a, k); return a + ev_f(x->b, k); }
static double sub_f(const ex *x, ek *k) { double a = ev_f(x->a, k); return a - ev_f(x->b, k); }
static double mul_f(const ex *x, ek *k) { double a = ev_f(x->a, k); return a * ev_f(x->b, k); }
static double div_f(const ex *x, ek *k) { double a = ev_f(x->a, k); return a / ev_f(x->b, k); }

static const ex *binary(eng_cx *c, const ast_node *n, const ex *a, const ex *b, int flt)
{
	const ops_binop *row = ops_binary(n->u.binary.op);
	static const ex_ifn fast_i[AST_BINOP_COUNT] = {
		[AST_OP_ADD] = add_i, [AST_OP_SUB] = sub_i, [AST_OP_MUL] = mul_i, [AST_OP_DIV] = div_i, [AST_OP_MOD] = mod_i,
	};
	static const ex_ffn fast_f[AST_BINOP_COUNT] = {
		[AST_OP_ADD] = add_f, [AST_OP_SUB] = sub_f, [AST_OP_MUL] = mul_f, [AST_OP_DIV] = div_f,
	};
	int infix = row->c[flt].infix;
	ex *x;
	if (flt)
		x = mkf(c, fast_f[n->u.binary.op] ? fast_f[n->u.binary.op] : infix ? bin_f_lr : bin_f);
	else
		x = mk(c, fast_i[n->u.binary.op] ? fast_i[n->u.binary.op] : infix ? bin_i_lr : bin_i);
	x->a = a;
	x->b = b;
	x->op = row;
	return x;
}

static int64_t un_i(const ex *x, ek *k) { return ((const ops_unop *)x->op)->eval_i(ev_i(x->a, k), &k->e); }
static double un_f(const ex *x, ek *k) { return ((const ops_unop *)x->op)->eval_f(ev_f(x->a, k), &k->e); }

static int64_t ifelse_i(const ex *x, ek *k) { return ev_i(x->c, k) ? ev_i(x->a, k) : ev_i(x->b, k); }
static double ifelse_f(const ex *x, ek *k) { return ev_i(x->c, k) ? ev_f(x->a, k) : ev_f(x->b, k); }
static int64_t real_i(const ex *x, ek *k) { return ncsim_real_to_int(ev_f(x->a, k)); }

/* ------------------------------------------------------------ calls */

/* The functions of one built-in, by the shape of its C call. */
enum bshape { B1, B2, B3, B4, BN, BR1, BR2, BR3, BRUN };
typedef struct bfn {
	enum bshape shape;
	union {
		int64_t (*i1)(int64_t, ncsim_err *);
		int64_t (*i2)(int64_t, int64_t, ncsim_err *);
		int64_t (*i3)(int64_t, int64_t, int64_t, ncsim_err *);
		int64_t (*i4)(int64_t, int64_t, int64_t, int64_t, ncsim_err *);
		int64_t (*in)(const int64_t *, size_t, ncsim_err *);
		int64_t (*ir1)(struct ncsim_mt64 *, int64_t, ncsim_err *);
		int64_t (*ir2)(struct ncsim_mt64 *, int64_t, int64_t, ncsim_err *);
		int64_t (*ir3)(struct ncsim_mt64 *, int64_t, int64_t, int64_t, ncsim_err *);
		rt_int (*run)(const rt_task *, rt_int);
	} i;
	union {
		double (*f1)(double, ncsim_err *);
		double (*f2)(double, double, ncsim_err *);
		double (*f3)(double, double, double, ncsim_err *);
		double (*f4)(double, double, double, double, ncsim_err *);
		double (*fn)(const double *, size_t, ncsim_err *);
		double (*fr1)(struct ncsim_mt64 *, double, ncsim_err *);
		double (*fr2)(struct ncsim_mt64 *, double, double, ncsim_err *);
		double (*fr3)(struct ncsim_mt64 *, double, double, double, ncsim_err *);
	} f;
} bfn;

#define F1(s) { B1, { .i1 = ncsim_##s##_i }, { .f1 = ncsim_##s##_f } }
#define F2(s) { B2, { .i2 = ncsim_##s##_i }, { .f2 = ncsim_##s##_f } }
#define F3(s) { B3, { .i3 = ncsim_##s##_i }, { .f3 = ncsim_##s##_f } }
static const bfn bfns[BI_COUNT] = {
	[BI_ABS] = F1(abs), [BI_BITS] = F1(bits), [BI_CBRT] = F1(cbrt), [BI_CEILING] = F1(ceiling),
	[BI_FACTOR10] = F1(factor10), [BI_FLOOR] = F1(floor), [BI_LOG10] = F1(log10), [BI_ROUND] = F1(round),
	[BI_SQRT] = F1(sqrt), [BI_ROOT] = F2(root), [BI_TREE_PARENT] = F2(tree_parent),
	[BI_TREE_CHILD] = F3(tree_child), [BI_KNOMIAL_PARENT] = F3(knomial_parent),
	[BI_KNOMIAL_CHILDREN] = F3(knomial_children),
	[BI_KNOMIAL_CHILD] = { B4, { .i4 = ncsim_knomial_child_i }, { .f4 = ncsim_knomial_child_f } },
	[BI_MAX] = { BN, { .in = ncsim_max_i }, { .fn = ncsim_max_f } },
	[BI_MIN] = { BN, { .in = ncsim_min_i }, { .fn = ncsim_min_f } },
	[BI_RANDOM_UNIFORM] = { BR2, { .ir2 = ncsim_random_uniform_i }, { .fr2 = ncsim_random_uniform_f } },
	[BI_RANDOM_GAUSSIAN] = { BR2, { .ir2 = ncsim_random_gaussian_i }, { .fr2 = ncsim_random_gaussian_f } },
	[BI_RANDOM_POISSON] = { BR1, { .ir1 = ncsim_random_poisson_i }, { .fr1 = ncsim_random_poisson_f } },
	[BI_RANDOM_PARETO] = { BR3, { .ir3 = ncsim_random_pareto_i }, { .fr3 = ncsim_random_pareto_f } },
	[BI_PROCESSOR_OF] = { BRUN, { .run = rt_processor_of }, { NULL } },
	[BI_TASK_OF] = { BRUN, { .run = rt_task_of }, { NULL } },
};
#undef F1
#undef F2
#undef F3

#define MAXARGS 64

/* The arguments of a call, last to first (see the header); n <= MAXARGS. */
static void args_i(const ex *x, ek *k, int64_t *v)
{
	for (int i = x->nargs; i-- > 0;)
		v[i] = ev_i(x->args[i], k);
}
static void args_f(const ex *x, ek *k, double *v)
{
	for (int i = x->nargs; i-- > 0;)
		v[i] = ev_f(x->args[i], k);
}

static int64_t call_i(const ex *x, ek *k)
{
	const bfn *b = x->op;
	int64_t v[MAXARGS];
	ncsim_err *e = &k->e;
	if (b->shape == BN) {
		for (int i = 0; i < x->nargs; i++) /* an initializer list: first to last */
			v[i] = ev_i(x->args[i], k);
		return b->i.in(v, (size_t)x->nargs, e);
	}
	args_i(x, k, v);
	switch (b->shape) {
	case B1: return b->i.i1(v[0], e);
	case B2: return b->i.i2(v[0], v[1], e);
	case B3: return b->i.i3(v[0], v[1], v[2], e);
	case B4: return b->i.i4(v[0], v[1], v[2], v[3], e);
	case BR1: return b->i.ir1(rt_rng(k->t), v[0], e);
	case BR2: return b->i.ir2(rt_rng(k->t), v[0], v[1], e);
	case BR3: return b->i.ir3(rt_rng(k->t), v[0], v[1], v[2], e);
	case BRUN: return b->i.run(k->t, v[0]);
	default: return 0;
	}
}

static double call_f(const ex *x, ek *k)
{
	const bfn *b = x->op;
	double v[MAXARGS];
	ncsim_err *e = &k->e;
	if (b->shape == BN) {
		for (int i = 0; i < x->nargs; i++)
			v[i] = ev_f(x->args[i], k);
		return b->f.fn(v, (size_t)x->nargs, e);
	}
	args_f(x, k, v);
	switch (b->shape) {
	case B1: return b->f.f1(v[0], e);
	case B2: return b->f.f2(v[0], v[1], e);
	case B3: return b->f.f3(v[0], v[1], v[2], e);
	case B4: return b->f.f4(v[0], v[1], v[2], v[3], e);
	case BR1: return b->f.fr1(rt_rng(k->t), v[0], e);
	case BR2: return b->f.fr2(rt_rng(k->t), v[0], v[1], e);
	case BR3: return b->f.fr3(rt_rng(k->t), v[0], v[1], v[2], e);
	case BRUN: return (double)b->i.run(k->t, ncsim_f2i(v[0], e));
	default: return 0.0;
	}
}

static const ex *call(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
	const ast_list *al = &n->u.call.args;
	int na = (int)al->len;
	if (!b || na > 60 || (bfns[b->id].shape == B1 && !bfns[b->id].i.i1)) {
		eng_error(c, n->span, "unsupported call of %s", ast_func_name(n->u.call.fn));
		return lit(c, flt, 0, 0.0);
	}
	if (!bi_arity_ok(b, na)) {
		char msg[128];
		bi_arity_message(b, na, msg, sizeof msg);
		eng_error(c, na ? al->items[0]->span : (src_span){0, 1, 0}, "%s", msg);
		return lit(c, flt, 0, 0.0);
	}
	const ex **args = eng_new(c, (BI_MAX_ARGS + (size_t)na) * sizeof *args);
	int total = na;
	for (int i = 0; i < na; i++)
		args[i] = eng_num(c, env, al->items[i], flt);
	for (int i = na; !(b->flags & BI_NARY) && i < BI_MAX_ARGS && b->defaults[i].kind != BI_DEF_NONE; i++) {
		const bi_default *d = &b->defaults[i];
		switch (d->kind) {
		case BI_DEF_CONST: args[i] = lit(c, flt, d->value, (double)d->value); break;
		case BI_DEF_NUM_TASKS: args[i] = flt ? mkf(c, ntasks_f) : mk(c, ntasks_i); break;
		case BI_DEF_ARG: args[i] = args[d->value]; break; /* the C repeats the argument's text */
		default: args[i] = lit(c, flt, 0, 0.0); break;
		}
		total = i + 1;
	}
	if (b->flags & BI_RNG)
		c->uses_random = 1;
	ex *x = flt ? mkf(c, call_f) : mk(c, call_i);
	x->op = &bfns[b->id];
	x->args = args;
	x->nargs = total;
	return x;
}

/* Mesh functions: ncsim_mesh_*(w, h, d, [mask,] task, ...) with arguments last to first. */
static int64_t mesh_i(const ex *x, ek *k)
{
	int64_t v[8];
	args_i(x, k, v);
	switch (x->iv >> 8) {
	case AST_MESH_NEIGHBOR:
		return ncsim_mesh_neighbor_i(v[0], v[1], v[2], (unsigned)(x->iv & 7), v[3], v[4], v[5], v[6], &k->e);
	case AST_MESH_COORDINATE: return ncsim_mesh_coordinate_i(v[0], v[1], v[2], v[3], v[4], &k->e);
	default: return ncsim_mesh_distance_i(v[0], v[1], v[2], (unsigned)(x->iv & 7), v[3], v[4], &k->e);
	}
}
static double mesh_f(const ex *x, ek *k)
{
	double v[8];
	args_f(x, k, v);
	switch (x->iv >> 8) {
	case AST_MESH_NEIGHBOR:
		return ncsim_mesh_neighbor_f(v[0], v[1], v[2], (unsigned)(x->iv & 7), v[3], v[4], v[5], v[6], &k->e);
	case AST_MESH_COORDINATE: return ncsim_mesh_coordinate_f(v[0], v[1], v[2], v[3], v[4], &k->e);
	default: return ncsim_mesh_distance_f(v[0], v[1], v[2], (unsigned)(x->iv & 7), v[3], v[4], &k->e);
	}
}

static const ex *mesh(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	const ast_list *dl = &n->u.mesh.dims;
	const ex **a = eng_new(c, 8 * sizeof *a);
	unsigned mask = 0;
	int na;
	if (dl->len < 1 || dl->len > 3) {
		eng_error(c, n->span, "a mesh has 1 to 3 dimensions");
		return lit(c, flt, 0, 0.0);
	}
	for (int i = 0; i < 3; i++) {
		if (i < (int)dl->len) {
			a[i] = eng_num(c, env, dl->items[i]->u.dimension.extent, flt);
			if (dl->items[i]->u.dimension.torus)
				mask |= 1u << i;
		} else {
			a[i] = lit(c, flt, 1, 1.0);
		}
	}
	a[3] = eng_num(c, env, n->u.mesh.task, flt);
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR) {
		const ast_list *ol = &n->u.mesh.offsets;
		if (ol->len != dl->len) {
			eng_error(c, n->span, "a MESH_NEIGHBOR's mesh and offset lists must have the same length");
			return lit(c, flt, 0, 0.0);
		}
		for (int i = 0; i < 3; i++)
			a[4 + i] = i < (int)ol->len ? eng_num(c, env, ol->items[i], flt) : lit(c, flt, 0, 0.0);
		na = 7;
	} else {
		a[4] = eng_num(c, env, n->u.mesh.other, flt);
		na = 5;
	}
	ex *x = flt ? mkf(c, mesh_f) : mk(c, mesh_i);
	x->args = a;
	x->nargs = na;
	x->iv = (int64_t)n->u.mesh.fn << 8 | mask;
	return x;
}

static int64_t fdata_i(const ex *x, ek *k)
{
	int64_t row = ev_i(x->b, k), col = ev_i(x->a, k);
	return ncsim_file_data_i(rt_filecache(k->t), x->s[0], col, row, x->s[1], x->s[2], &k->e);
}
static double fdata_f(const ex *x, ek *k)
{
	double row = ev_f(x->b, k), col = ev_f(x->a, k);
	return ncsim_file_data_f(rt_filecache(k->t), x->s[0], col, row, x->s[1], x->s[2], &k->e);
}

static const ex *file_data(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	const ast_list *al = &n->u.file_data.args;
	const bi_info *b = bi_get(n->u.file_data.is_static ? BI_STATIC_FILE_DATA : BI_FILE_DATA);
	if (al->len < 1 || al->len > 5) {
		char msg[128];
		bi_arity_message(b, (int)al->len, msg, sizeof msg);
		eng_error(c, n->span, "%s", msg);
		return lit(c, flt, 0, 0.0);
	}
	ex *x = flt ? mkf(c, fdata_f) : mk(c, fdata_i);
	for (int i = 0; i < 5; i++) {
		const ast_node *a = i < (int)al->len ? al->items[i] : NULL;
		if (i == 0 || i >= 3) {
			if (a && a->kind != AST_STRING) {
				eng_error(c, a->span, "this argument of FILE_DATA must be a string");
				return lit(c, flt, 0, 0.0);
			}
			x->s[i ? i - 2 : 0] = a ? a->u.string.text : b->defaults[i].str;
		} else {
			const ex *v = a ? eng_num(c, env, a, flt) : lit(c, flt, 1, 1.0);
			if (i == 1)
				x->a = v;
			else
				x->b = v;
		}
	}
	return x;
}

/* ------------------------------------------------------------ numbers */

const ex *eng_num(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	ops_num v;
	if (known(n, flt, &v))
		return lit(c, flt, v.i, v.f);
	switch (n->kind) {
	case AST_INT: return lit(c, flt, n->u.int_.value, (double)n->u.int_.value);
	case AST_DECIMAL: return lit(c, flt, ncsim_real_to_int(n->u.decimal.value), n->u.decimal.value);
	case AST_IDENT: return ident(c, env, n, flt);
	case AST_MY_TASK: return flt ? mkf(c, rank_f) : mk(c, rank_i);
	case AST_UNARY: {
		const ex *a = eng_num(c, env, n->u.unary.operand, flt);
		if (n->u.unary.op == AST_UOP_PLUS)
			return a;
		ex *x = flt ? mkf(c, un_f) : mk(c, un_i);
		x->a = a;
		x->op = ops_unary(n->u.unary.op);
		return x;
	}
	case AST_BINARY: {
		const ex *a = eng_num(c, env, n->u.binary.lhs, flt);
		return binary(c, n, a, eng_num(c, env, n->u.binary.rhs, flt), flt);
	}
	case AST_IFELSE: {
		ex *x = flt ? mkf(c, ifelse_f) : mk(c, ifelse_i);
		x->c = eng_relx(c, env, n->u.ifelse.cond, flt);
		x->a = eng_num(c, env, n->u.ifelse.then, flt);
		x->b = eng_num(c, env, n->u.ifelse.otherwise, flt);
		return x;
	}
	case AST_CALL: return call(c, env, n, flt);
	case AST_MESH: return mesh(c, env, n, flt);
	case AST_FILE_DATA: return file_data(c, env, n, flt);
	case AST_REAL_CAST: {
		const ex *a = eng_num(c, env, n->u.real_cast.operand, 1);
		if (flt)
			return a;
		ex *x = mk(c, real_i);
		x->a = a;
		return x;
	}
	default: break;
	}
	eng_error(c, n->span, "a %s is not a numeric expression", ast_kind_name(n->kind));
	return lit(c, flt, 0, 0.0);
}

/* ------------------------------------------------------------ relational expressions */

/* Comparisons: `x->iv` is the ast_cmpop; operands left to right (infix). */
static int64_t cmp_i(const ex *x, ek *k)
{
	int64_t a = ev_i(x->a, k), b = ev_i(x->b, k);
	switch (x->iv) {
	case AST_CMP_EQ: return a == b;
	case AST_CMP_NE: return a != b;
	case AST_CMP_LT: return a < b;
	case AST_CMP_GT: return a > b;
	case AST_CMP_LE: return a <= b;
	default: return a >= b;
	}
}
static int64_t cmp_f(const ex *x, ek *k)
{
	double a = ev_f(x->a, k), b = ev_f(x->b, k);
	switch (x->iv) {
	case AST_CMP_EQ: return a == b;
	case AST_CMP_NE: return a != b;
	case AST_CMP_LT: return a < b;
	case AST_CMP_GT: return a > b;
	case AST_CMP_LE: return a <= b;
	default: return a >= b;
	}
}
/* a DIVIDES b is ncsim_mod(b, a) == 0: as call arguments, a is evaluated first. */
static int64_t divides_i(const ex *x, ek *k)
{
	int64_t a = ev_i(x->a, k);
	return ncsim_mod_i(ev_i(x->b, k), a, &k->e) == 0;
}
static int64_t divides_f(const ex *x, ek *k)
{
	double a = ev_f(x->a, k);
	return ncsim_mod_f(ev_f(x->b, k), a, &k->e) == 0;
}
static int64_t parity_i(const ex *x, ek *k) { return (ev_i(x->a, k) & 1) == x->iv; }
static int64_t parity_f(const ex *x, ek *k) { return (ncsim_f2i(ev_f(x->a, k), &k->e) & 1) == x->iv; }
static int64_t and_b(const ex *x, ek *k) { return ev_i(x->a, k) && ev_i(x->b, k); }
static int64_t or_b(const ex *x, ek *k) { return ev_i(x->a, k) || ev_i(x->b, k); }

static int64_t interval_b(const ex *x, ek *k)
{
	int64_t v = ev_i(x->a, k), lo = ev_i(x->b, k), hi = ev_i(x->c, k);
	int in = v >= (lo < hi ? lo : hi) && v <= (lo < hi ? hi : lo);
	return x->iv ? !in : in;
}

/* x IS [NOT] IN ranges: scans every value (as the C does), flag in slot fv's place. */
typedef struct in_kont {
	kont k;
	int xslot, flag;
} in_kont;

static void in_body(const kont *kk, ek *k, int64_t v)
{
	const in_kont *u = (const in_kont *)kk;
	if (k->v[u->xslot] == v)
		k->v[u->flag] = 1;
}

static int64_t in_ranges_b(const ex *x, ek *k)
{
	const in_kont *u = x->op;
	k->v[u->xslot] = eng_int(x->a, k);
	k->v[u->flag] = 0;
	eng_ranges_run(x->loop, k);
	return x->iv ? !k->v[u->flag] : k->v[u->flag];
}

static const ex *in_ranges(eng_cx *c, env_t env, const ast_node *n)
{
	ex *x = mk(c, in_ranges_b);
	in_kont *u = eng_new(c, sizeof *u);
	int vs;
	x->a = eng_num(c, env, n->u.in_ranges.operand, 0);
	u->k.fn = in_body;
	u->xslot = eng_slot(c);
	u->flag = eng_slot(c);
	rloop *r = eng_ranges(c, env, &n->u.in_ranges.ranges, &vs);
	eng_ranges_set_body(r, &u->k);
	x->loop = r;
	x->op = u;
	x->iv = n->u.in_ranges.negated;
	return x;
}

const ex *eng_relx(eng_cx *c, env_t env, const ast_node *n, int flt)
{
	ops_num v;
	ex *x;
	if (known(n, flt, &v))
		return eng_lit_i(c, ops_true(flt, v));
	switch (n->kind) {
	case AST_COMPARE: {
		int div = n->u.compare.op == AST_CMP_DIVIDES;
		x = flt ? mk(c, div ? divides_f : cmp_f) : mk(c, div ? divides_i : cmp_i);
		x->a = eng_num(c, env, n->u.compare.lhs, flt);
		x->b = eng_num(c, env, n->u.compare.rhs, flt);
		x->iv = n->u.compare.op;
		return x;
	}
	case AST_PARITY:
		x = mk(c, flt ? parity_f : parity_i);
		x->a = eng_num(c, env, n->u.parity.operand, flt);
		x->iv = n->u.parity.odd ? 1 : 0;
		return x;
	case AST_IN_RANGES: return in_ranges(c, env, n);
	case AST_IN_INTERVAL:
		x = mk(c, interval_b);
		x->a = eng_num(c, env, n->u.in_interval.operand, 0);
		x->b = eng_num(c, env, n->u.in_interval.lo, 0);
		x->c = eng_num(c, env, n->u.in_interval.hi, 0);
		x->iv = n->u.in_interval.negated;
		return x;
	case AST_LOGIC:
		x = mk(c, n->u.logic.op == AST_LOGIC_AND ? and_b : or_b);
		x->a = eng_relx(c, env, n->u.logic.lhs, flt);
		x->b = eng_relx(c, env, n->u.logic.rhs, flt);
		return x;
	default: break;
	}
	eng_error(c, n->span, "a %s is not a relational expression", ast_kind_name(n->kind));
	return eng_lit_i(c, 0);
}

/* ------------------------------------------------------------ sizes and durations */

/* A value that the user wrote as a real number (decimal literal, REAL()). */
static int real_valued(const ast_node *n) { return n->kind == AST_DECIMAL || n->kind == AST_REAL_CAST; }

uint64_t eng_unit_bytes(ast_data_unit u)
{
	return u == AST_DU_INTEGERS ? 4 : u == AST_DU_PAGES ? 4096 : ast_data_unit_bytes(u);
}

int eng_size_known(const ast_node *n, int64_t *out)
{
	const ast_node *v = n->u.size.value;
	ast_data_unit u = n->u.size.unit;
	ops_num x;
	if (!known(v, real_valued(v), &x))
		return 0;
	if (u == AST_DU_BITS)
		*out = ncsim_bits_to_bytes(real_valued(v) ? ncsim_real_to_int(x.f) : x.i);
	else if (real_valued(v))
		*out = ncsim_real_to_int(x.f * (double)eng_unit_bytes(u));
	else
		*out = ncsim_mul(x.i, (int64_t)eng_unit_bytes(u));
	return 1;
}

/* The inner value is checked as cg_int/cg_flt wrap it; the scaling cannot fail. */
static int64_t bits_i(const ex *x, ek *k) { return ncsim_bits_to_bytes(eng_int(x->a, k)); }
static int64_t bits_r(const ex *x, ek *k) { return ncsim_bits_to_bytes(ncsim_real_to_int(eng_flt(x->a, k))); }
static int64_t scale_r(const ex *x, ek *k) { return ncsim_real_to_int(eng_flt(x->a, k) * x->fv); }
static int64_t scale_i(const ex *x, ek *k) { return ncsim_mul(eng_int(x->a, k), x->iv); }
static int64_t checked_i(const ex *x, ek *k) { return eng_int(x->a, k); }

const ex *eng_size(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *v = n->u.size.value;
	ast_data_unit u = n->u.size.unit;
	uint64_t per = eng_unit_bytes(u);
	int64_t kv;
	ex *x;
	if (eng_size_known(n, &kv))
		return eng_lit_i(c, kv);
	if (u == AST_DU_BITS)
		x = mk(c, real_valued(v) ? bits_r : bits_i);
	else if (real_valued(v))
		x = mk(c, scale_r);
	else
		x = mk(c, per == 1 ? checked_i : scale_i);
	x->a = eng_num(c, env, v, real_valued(v));
	x->iv = (int64_t)per;
	x->fv = (double)per;
	return x;
}

static double dur_r(const ex *x, ek *k) { return eng_flt(x->a, k) * x->fv; }
static double dur_i(const ex *x, ek *k) { return (double)eng_int(x->a, k) * x->fv; }
static int64_t dur_ps(const ex *x, ek *k) { return (int64_t)ncsim_ps(ev_f(x->a, k)); }

const ex *eng_duration(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *v = n->u.duration.value;
	ex *x = mkf(c, real_valued(v) ? dur_r : dur_i);
	x->a = eng_num(c, env, v, real_valued(v));
	x->fv = (double)ast_time_unit_ps(n->u.duration.unit);
	return x;
}

const ex *eng_duration_ps(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *v = n->u.duration.value;
	double ps = (double)ast_time_unit_ps(n->u.duration.unit);
	ops_num x;
	if (known(v, real_valued(v), &x)) {
		double d = real_valued(v) ? x.f * ps : (double)x.i * ps;
		return eng_lit_i(c, (int64_t)ncsim_ps(d));
	}
	ex *r = mk(c, dur_ps);
	r->a = eng_duration(c, env, n);
	return r;
}

/* ------------------------------------------------------------ random functions */

static void rnd_walk(ast_node *n, void *ud)
{
	int *found = ud;
	if (n->kind == AST_CALL) {
		const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
		if (b && (b->flags & BI_RNG))
			*found = 1;
	}
	ast_foreach_child(n, rnd_walk, ud);
}

int eng_uses_random_fn(const ast_node *n)
{
	int found = 0;
	rnd_walk((ast_node *)n, &found);
	return found;
}

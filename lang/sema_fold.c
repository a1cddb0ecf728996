/*
 * sema_fold.c - constant folding through ncsim/stdlib.h (see sema_fold.h).
 *
 * Every folded node gets two values: ival as the program would compute it
 * in integer context and fval in floating-point context (LANGUAGE.md 3.1).
 * fold_i and fold_f below mirror each other; each reads only the children's
 * values in its own context, except REAL(), whose operand is always in
 * floating-point context, and ranges, which are always integers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lang/builtins.h"
#include "lang/sema_fold.h"

/* Outcome of folding one node in one context. */
enum { NOT_CONST = 0, IS_CONST = 1, FAILED = 2 };

static const sema_note *note(const ast_node *n)
{
	return n ? (const sema_note *)n->sema : NULL;
}

static int ci(const ast_node *n, int64_t *v)
{
	const sema_note *t = note(n);
	if (!t || !(t->flags & SEMA_N_CONST_I))
		return 0;
	*v = t->ival;
	return 1;
}

static int cf(const ast_node *n, double *v)
{
	const sema_note *t = note(n);
	if (!t || !(t->flags & SEMA_N_CONST_F))
		return 0;
	*v = t->fval;
	return 1;
}

int sf_value_i(const ast_node *n, int64_t *v)
{
	const sema_note *t = note(n);
	double d;
	if (!t)
		return 0;
	if (t->ctx == SEMA_CTX_INT)
		return ci(n, v);
	if (!cf(n, &d))
		return 0;
	*v = ncsim_trunc_to_int(d);
	return 1;
}

int sf_value_f(const ast_node *n, double *v)
{
	const sema_note *t = note(n);
	int64_t i;
	if (!t)
		return 0;
	if (t->ctx == SEMA_CTX_FLOAT)
		return cf(n, v);
	if (!ci(n, &i))
		return 0;
	*v = (double)i;
	return 1;
}

/* Arguments of a built-in as stdlib wants them. MESH: the flattened layout of
 * lang/builtins.h (w, h, d, torus, t, dx, dy, dz | t, c | t1, t2). */
typedef struct args_i { int64_t v[16]; int n; } args_i;
typedef struct args_f { double v[16]; int n; } args_f;

static const bi_info *call_info(const ast_node *n)
{
	if (n->kind == AST_CALL)
		return bi_lookup(ast_func_name(n->u.call.fn));
	static const char *const mesh[] = { "MESH_NEIGHBOR", "MESH_COORDINATE", "MESH_DISTANCE" };
	return bi_lookup(mesh[n->u.mesh.fn]);
}

/* Collects the mesh arguments; 0 if one is not constant or the lists are malformed. */
static int mesh_args(const ast_node *n, int fl, int64_t *vi, double *vf, int *count)
{
	const ast_list *d = &n->u.mesh.dims;
	unsigned torus = 0;
	int k = 0;

	if (d->len < 1 || d->len > 3)
		return 0;
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR && n->u.mesh.offsets.len != d->len)
		return 0;
	for (uint32_t i = 0; i < 3; i++) {
		const ast_node *x = i < d->len ? d->items[i]->u.dimension.extent : NULL;
		int64_t a = 1;
		double b = 1.0;
		if (x && !(fl ? cf(x, &b) : ci(x, &a)))
			return 0;
		if (i < d->len && d->items[i]->u.dimension.torus)
			torus |= 1u << i;
		vi[k] = a;
		vf[k++] = b;
	}
	if (n->u.mesh.fn != AST_MESH_COORDINATE) {
		vi[k] = torus;
		vf[k++] = torus;
	}
	const ast_node *rest[4] = { n->u.mesh.task, NULL, NULL, NULL };
	int nrest = 1;
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR) {
		for (uint32_t i = 0; i < 3; i++)
			rest[nrest++] = i < n->u.mesh.offsets.len ? n->u.mesh.offsets.items[i] : NULL;
	} else {
		rest[nrest++] = n->u.mesh.other;
	}
	for (int i = 0; i < nrest; i++) {
		int64_t a = 0;
		double b = 0.0;
		if (rest[i] && !(fl ? cf(rest[i], &b) : ci(rest[i], &a)))
			return 0;
		vi[k] = a;
		vf[k++] = b;
	}
	*count = k;
	return 1;
}

/* The progression of RANGE_PROG r, if its values are known; -1 on a fold failure. */
static int range_of(const ast_node *r, struct ncsim_range *out, ncsim_err *e)
{
	const ast_list *l = &r->u.range_prog.items;
	int64_t vi[64], last;
	double vd[64], last_d;
	int have_d = 1;

	if (l->len == 0 || l->len > 64 || !ci(r->u.range_prog.last, &last))
		return 0;
	for (uint32_t i = 0; i < l->len; i++) {
		if (!ci(l->items[i], &vi[i]))
			return 0;
		if (!cf(l->items[i], &vd[i]))
			have_d = 0;
	}
	if (!cf(r->u.range_prog.last, &last_d))
		have_d = 0;
	return ncsim_range_init(out, vi, have_d ? vd : NULL, l->len, last, have_d ? last_d : 0.0, e) ? -1 : 1;
}

/* x IS IN ranges, for integer x: IS_CONST with *res, or NOT_CONST. */
static int in_ranges(const ast_node *n, int fl, double xf, int64_t xi, int *res)
{
	*res = 0;
	for (uint32_t i = 0; i < n->u.in_ranges.ranges.len; i++) {
		const ast_node *r = n->u.in_ranges.ranges.items[i];
		if (r->kind == AST_RANGE_ENUM) {
			for (uint32_t j = 0; j < r->u.range_enum.items.len; j++) {
				int64_t v;
				if (!ci(r->u.range_enum.items.items[j], &v))
					return NOT_CONST;
				if (fl ? (double)v == xf : v == xi)
					*res = 1;
			}
		} else if (r->kind == AST_RANGE_PROG) {
			struct ncsim_range pr;
			ncsim_err e = NCSIM_ERR_INIT;
			if (range_of(r, &pr, &e) != 1)
				return NOT_CONST;
			if (fl) {
				if (xf == trunc(xf) && fabs(xf) < 9.2e18 && ncsim_range_contains(&pr, (int64_t)xf))
					*res = 1;
			} else if (ncsim_range_contains(&pr, xi)) {
				*res = 1;
			}
		} else {
			return NOT_CONST; /* list comprehensions are not folded */
		}
	}
	if (n->u.in_ranges.negated)
		*res = !*res;
	return IS_CONST;
}

/* Integer-context value of n. */
static int fold_i(const ast_node *n, int64_t *out, ncsim_err *e)
{
	int64_t a, b, c;
	double d;

	switch (n->kind) {
	case AST_INT:
		*out = n->u.int_.value;
		return IS_CONST;
	case AST_DECIMAL:
		*out = ncsim_real_to_int(n->u.decimal.value);
		return IS_CONST;
	case AST_UNARY:
		if (!ci(n->u.unary.operand, &a))
			return NOT_CONST;
		*out = n->u.unary.op == AST_UOP_NEG ? ncsim_neg(a) : n->u.unary.op == AST_UOP_NOT ? ~a : a;
		return IS_CONST;
	case AST_BINARY:
		if (!ci(n->u.binary.lhs, &a) || !ci(n->u.binary.rhs, &b))
			return NOT_CONST;
		switch (n->u.binary.op) {
		case AST_OP_ADD: *out = ncsim_add(a, b); break;
		case AST_OP_SUB: *out = ncsim_sub(a, b); break;
		case AST_OP_MUL: *out = ncsim_mul(a, b); break;
		case AST_OP_DIV: *out = ncsim_div_i(a, b, e); break;
		case AST_OP_MOD: *out = ncsim_mod_i(a, b, e); break;
		case AST_OP_SHL: *out = ncsim_shl_i(a, b); break;
		case AST_OP_SHR: *out = ncsim_shr_i(a, b); break;
		case AST_OP_BAND: *out = a & b; break;
		case AST_OP_BOR: *out = a | b; break;
		case AST_OP_XOR: *out = a ^ b; break;
		case AST_OP_POW: *out = ncsim_pow_i(a, b, e); break;
		case AST_BINOP_COUNT: return NOT_CONST;
		}
		return e->failed ? FAILED : IS_CONST;
	case AST_IFELSE:
		if (!ci(n->u.ifelse.cond, &c))
			return NOT_CONST;
		return ci(c ? n->u.ifelse.then : n->u.ifelse.otherwise, out) ? IS_CONST : NOT_CONST;
	case AST_REAL_CAST:
		if (!cf(n->u.real_cast.operand, &d))
			return NOT_CONST;
		*out = ncsim_real_to_int(d);
		return IS_CONST;
	case AST_CALL: {
		const bi_info *bi = call_info(n);
		int64_t v[BI_MAX_ARGS > 16 ? BI_MAX_ARGS : 16];
		uint32_t k = n->u.call.args.len;
		if (!bi || k > 16 || !bi_foldable(bi, (int)k, 0))
			return NOT_CONST;
		for (uint32_t i = 0; i < k; i++)
			if (!ci(n->u.call.args.items[i], &v[i]))
				return NOT_CONST;
		*out = bi_call_i(bi, v, (int)k, 0, e);
		return e->failed ? FAILED : IS_CONST;
	}
	case AST_MESH: {
		int64_t vi[16];
		double vf[16];
		int k;
		if (!mesh_args(n, 0, vi, vf, &k))
			return NOT_CONST;
		*out = bi_call_i(call_info(n), vi, k, 0, e);
		return e->failed ? FAILED : IS_CONST;
	}
	case AST_COMPARE:
		if (!ci(n->u.compare.lhs, &a) || !ci(n->u.compare.rhs, &b))
			return NOT_CONST;
		switch (n->u.compare.op) {
		case AST_CMP_EQ: *out = a == b; break;
		case AST_CMP_NE: *out = a != b; break;
		case AST_CMP_LT: *out = a < b; break;
		case AST_CMP_GT: *out = a > b; break;
		case AST_CMP_LE: *out = a <= b; break;
		case AST_CMP_GE: *out = a >= b; break;
		case AST_CMP_DIVIDES: *out = ncsim_mod_i(b, a, e) == 0; break;
		case AST_CMPOP_COUNT: return NOT_CONST;
		}
		return e->failed ? FAILED : IS_CONST;
	case AST_PARITY:
		if (!ci(n->u.parity.operand, &a))
			return NOT_CONST;
		*out = (a & 1) == (n->u.parity.odd ? 1 : 0);
		return IS_CONST;
	case AST_IN_INTERVAL:
		if (!ci(n->u.in_interval.operand, &a) || !ci(n->u.in_interval.lo, &b) ||
		    !ci(n->u.in_interval.hi, &c))
			return NOT_CONST;
		*out = (a >= (b < c ? b : c) && a <= (b < c ? c : b)) != n->u.in_interval.negated;
		return IS_CONST;
	case AST_IN_RANGES: {
		int r;
		if (!ci(n->u.in_ranges.operand, &a) || in_ranges(n, 0, 0.0, a, &r) != IS_CONST)
			return NOT_CONST;
		*out = r;
		return IS_CONST;
	}
	case AST_LOGIC:
		if (!ci(n->u.logic.lhs, &a))
			return NOT_CONST;
		if ((n->u.logic.op == AST_LOGIC_AND) != (a != 0)) {
			*out = a != 0; /* false /\ x, true \/ x: x is not evaluated */
			return IS_CONST;
		}
		if (!ci(n->u.logic.rhs, &b))
			return NOT_CONST;
		*out = b != 0;
		return IS_CONST;
	default:
		return NOT_CONST;
	}
}

/* Floating-point-context value of n. */
static int fold_f(const ast_node *n, double *out, ncsim_err *e)
{
	double a, b, c;
	int64_t i;

	switch (n->kind) {
	case AST_INT:
		*out = (double)n->u.int_.value;
		return IS_CONST;
	case AST_DECIMAL:
		*out = n->u.decimal.value;
		return IS_CONST;
	case AST_UNARY:
		if (!cf(n->u.unary.operand, &a))
			return NOT_CONST;
		*out = n->u.unary.op == AST_UOP_NEG ? -a : n->u.unary.op == AST_UOP_NOT ? ncsim_not_f(a, e) : a;
		return e->failed ? FAILED : IS_CONST;
	case AST_BINARY:
		if (!cf(n->u.binary.lhs, &a) || !cf(n->u.binary.rhs, &b))
			return NOT_CONST;
		switch (n->u.binary.op) {
		case AST_OP_ADD: *out = a + b; break;
		case AST_OP_SUB: *out = a - b; break;
		case AST_OP_MUL: *out = a * b; break;
		case AST_OP_DIV: *out = a / b; break;
		case AST_OP_MOD: *out = ncsim_mod_f(a, b, e); break;
		case AST_OP_SHL: *out = ncsim_shl_f(a, b, e); break;
		case AST_OP_SHR: *out = ncsim_shr_f(a, b, e); break;
		case AST_OP_BAND: *out = ncsim_and_f(a, b, e); break;
		case AST_OP_BOR: *out = ncsim_or_f(a, b, e); break;
		case AST_OP_XOR: *out = ncsim_xor_f(a, b, e); break;
		case AST_OP_POW: *out = ncsim_pow_f(a, b, e); break;
		case AST_BINOP_COUNT: return NOT_CONST;
		}
		return e->failed ? FAILED : IS_CONST;
	case AST_IFELSE: {
		const sema_note *t = note(n->u.ifelse.cond);
		if (!t || !(t->flags & SEMA_N_CONST_F))
			return NOT_CONST;
		return cf(t->fval != 0.0 ? n->u.ifelse.then : n->u.ifelse.otherwise, out) ? IS_CONST : NOT_CONST;
	}
	case AST_REAL_CAST:
		return cf(n->u.real_cast.operand, out) ? IS_CONST : NOT_CONST;
	case AST_CALL: {
		const bi_info *bi = call_info(n);
		double v[16];
		uint32_t k = n->u.call.args.len;
		if (!bi || k > 16 || !bi_foldable(bi, (int)k, 0))
			return NOT_CONST;
		for (uint32_t j = 0; j < k; j++)
			if (!cf(n->u.call.args.items[j], &v[j]))
				return NOT_CONST;
		*out = bi_call_f(bi, v, (int)k, 0, e);
		return e->failed ? FAILED : IS_CONST;
	}
	case AST_MESH: {
		int64_t vi[16];
		double vf[16];
		int k;
		if (!mesh_args(n, 1, vi, vf, &k))
			return NOT_CONST;
		*out = bi_call_f(call_info(n), vf, k, 0, e);
		return e->failed ? FAILED : IS_CONST;
	}
	case AST_COMPARE:
		if (!cf(n->u.compare.lhs, &a) || !cf(n->u.compare.rhs, &b))
			return NOT_CONST;
		switch (n->u.compare.op) {
		case AST_CMP_EQ: *out = a == b; break;
		case AST_CMP_NE: *out = a != b; break;
		case AST_CMP_LT: *out = a < b; break;
		case AST_CMP_GT: *out = a > b; break;
		case AST_CMP_LE: *out = a <= b; break;
		case AST_CMP_GE: *out = a >= b; break;
		case AST_CMP_DIVIDES: *out = ncsim_mod_f(b, a, e) == 0.0; break;
		case AST_CMPOP_COUNT: return NOT_CONST;
		}
		return e->failed ? FAILED : IS_CONST;
	case AST_PARITY:
		if (!cf(n->u.parity.operand, &a))
			return NOT_CONST;
		i = ncsim_f2i(a, e);
		*out = (i & 1) == (n->u.parity.odd ? 1 : 0);
		return e->failed ? FAILED : IS_CONST;
	case AST_IN_INTERVAL:
		if (!cf(n->u.in_interval.operand, &a) || !cf(n->u.in_interval.lo, &b) ||
		    !cf(n->u.in_interval.hi, &c))
			return NOT_CONST;
		*out = (a >= fmin(b, c) && a <= fmax(b, c)) != n->u.in_interval.negated;
		return IS_CONST;
	case AST_IN_RANGES: {
		int r;
		if (!cf(n->u.in_ranges.operand, &a) || in_ranges(n, 1, a, 0, &r) != IS_CONST)
			return NOT_CONST;
		*out = r;
		return IS_CONST;
	}
	case AST_LOGIC:
		if (!cf(n->u.logic.lhs, &a))
			return NOT_CONST;
		if ((n->u.logic.op == AST_LOGIC_AND) != (a != 0.0)) {
			*out = a != 0.0;
			return IS_CONST;
		}
		if (!cf(n->u.logic.rhs, &b))
			return NOT_CONST;
		*out = b != 0.0;
		return IS_CONST;
	default:
		return NOT_CONST;
	}
}

void sf_fold(sema_ctx *s, ast_node *n)
{
	sema_note *t = sema_note_get(s, n);
	ncsim_err e = NCSIM_ERR_INIT;
	int64_t i = 0;
	double d = 0.0;
	int r;

	if (n->kind == AST_RANGE_PROG) {
		struct ncsim_range pr;
		r = range_of(n, &pr, &e);
		if (r == 1)
			t->flags |= SEMA_N_CONST_I;
		else if (r < 0)
			t->err_i = arena_strdup(s->arena, e.msg);
		return;
	}
	r = fold_i(n, &i, &e);
	if (r == IS_CONST) {
		t->flags |= SEMA_N_CONST_I;
		t->ival = i;
	} else if (r == FAILED) {
		t->err_i = arena_strdup(s->arena, e.msg);
	}
	e = (ncsim_err)NCSIM_ERR_INIT;
	r = fold_f(n, &d, &e);
	if (r == IS_CONST) {
		t->flags |= SEMA_N_CONST_F;
		t->fval = d;
	} else if (r == FAILED) {
		t->err_f = arena_strdup(s->arena, e.msg);
	}
}

struct report_ud {
	sema_ctx *s;
	int certain;
	const sema_where *w;
};

static void report_child(ast_node *c, void *ud)
{
	struct report_ud *r = ud;
	sf_report(r->s, c, r->certain, r->w);
}

/* The known truth value of relational node c in its context: 1, 0, or -1. */
static int truth(const ast_node *c)
{
	const sema_note *t = note(c);
	if (!t)
		return -1;
	if (t->ctx == SEMA_CTX_FLOAT)
		return (t->flags & SEMA_N_CONST_F) ? t->fval != 0.0 : -1;
	return (t->flags & SEMA_N_CONST_I) ? t->ival != 0 : -1;
}

void sf_report(sema_ctx *s, ast_node *n, int certain, const sema_where *w)
{
	const sema_note *t = note(n);
	if (!n)
		return;
	if (t) {
		const char *err = t->ctx == SEMA_CTX_FLOAT ? t->err_f : t->err_i;
		if (err && certain)
			sema_error(s, w, n->span, "%s", err);
		else if (err)
			sema_warning(s, w, n->span, "%s (if this expression is evaluated)", err);
	}
	if (n->kind == AST_IFELSE) {
		int c = truth(n->u.ifelse.cond);
		sf_report(s, n->u.ifelse.cond, certain, w);
		if (c != 0)
			sf_report(s, n->u.ifelse.then, certain && c == 1, w);
		if (c != 1)
			sf_report(s, n->u.ifelse.otherwise, certain && c == 0, w);
		return;
	}
	if (n->kind == AST_LOGIC) {
		int c = truth(n->u.logic.lhs);
		int skip = n->u.logic.op == AST_LOGIC_AND ? c == 0 : c == 1;
		sf_report(s, n->u.logic.lhs, certain, w);
		if (!skip)
			sf_report(s, n->u.logic.rhs, certain && c != -1, w);
		return;
	}
	struct report_ud ud = { s, certain, w };
	ast_foreach_child(n, report_child, &ud);
}

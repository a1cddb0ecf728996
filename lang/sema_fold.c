/*
 * sema_fold.c - constant folding through ncsim/stdlib.h (see sema_fold.h).
 *
 * Every folded node gets two values: ival as the program would compute it
 * in integer context and fval in floating-point context (LANGUAGE.md 3.1).
 * fold() computes one of them; it reads only the children's values in the
 * same context, except REAL(), whose operand is always in floating-point
 * context, and ranges, which are always integers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lang/builtins.h"
#include "lang/ops.h"
#include "lang/sema_fold.h"

/* Outcome of folding one node in one context. */
enum { NOT_CONST = 0, IS_CONST = 1, FAILED = 2 };

static const sema_note *note(const ast_node *n)
{
	return n ? (const sema_note *)n->sema : NULL;
}

/* The value of folded node n in context fl (0 integer, 1 floating point), if known. */
static int get(const ast_node *n, int fl, ops_num *v)
{
	const sema_note *t = note(n);
	if (!t || !(t->flags & (fl ? SEMA_N_CONST_F : SEMA_N_CONST_I)))
		return 0;
	v->i = t->ival;
	v->f = t->fval;
	return 1;
}

static int ci(const ast_node *n, int64_t *v)
{
	ops_num x;
	if (!get(n, 0, &x))
		return 0;
	*v = x.i;
	return 1;
}

static int cf(const ast_node *n, double *v)
{
	ops_num x;
	if (!get(n, 1, &x))
		return 0;
	*v = x.f;
	return 1;
}

/* n's value in the context it is evaluated in, as an integer (truncated) and as a double. */
static int own_value(const ast_node *n, ops_num *v)
{
	const sema_note *t = note(n);
	int fl = t && t->ctx == SEMA_CTX_FLOAT;
	if (!get(n, fl, v))
		return 0;
	if (fl)
		v->i = ncsim_trunc_to_int(v->f);
	else
		v->f = (double)v->i;
	return 1;
}

int sf_value_i(const ast_node *n, int64_t *v)
{
	ops_num x;
	if (!own_value(n, &x))
		return 0;
	*v = x.i;
	return 1;
}

int sf_value_f(const ast_node *n, double *v)
{
	ops_num x;
	if (!own_value(n, &x))
		return 0;
	*v = x.f;
	return 1;
}

/* The built-in a CALL or MESH node calls (MESH_*: arguments in the flattened layout of
 * lang/builtins.h, w, h, d, torus, t, dx, dy, dz | t, c | t1, t2). */
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

/* A call of a built-in or a MESH_* function in context fl. */
static int fold_call(const ast_node *n, int fl, ops_num *out, ncsim_err *e)
{
	const bi_info *bi = call_info(n);
	int64_t vi[16];
	double vf[16];
	int k = (int)n->u.call.args.len;

	if (n->kind == AST_MESH) {
		if (!mesh_args(n, fl, vi, vf, &k))
			return NOT_CONST;
	} else {
		if (!bi || k > 16 || !bi_foldable(bi, k, 0))
			return NOT_CONST;
		for (int i = 0; i < k; i++) {
			ops_num a;
			if (!get(n->u.call.args.items[i], fl, &a))
				return NOT_CONST;
			vi[i] = a.i;
			vf[i] = a.f;
		}
	}
	if (fl)
		out->f = bi_call_f(bi, vf, k, 0, e);
	else
		out->i = bi_call_i(bi, vi, k, 0, e);
	return e->failed ? FAILED : IS_CONST;
}

/* x IS [NOT] IN [lo, hi] (either order) in context fl. */
static int in_interval(int fl, ops_num x, ops_num lo, ops_num hi)
{
	if (fl)
		return x.f >= fmin(lo.f, hi.f) && x.f <= fmax(lo.f, hi.f);
	return x.i >= (lo.i < hi.i ? lo.i : hi.i) && x.i <= (lo.i < hi.i ? hi.i : lo.i);
}

/*
 * The value of n in context fl from its children's values in the contexts
 * that fl gives them (LANGUAGE.md 3.1): REAL()'s operand is always in
 * floating-point context. The operators come from the table of lang/ops.h.
 */
static int fold(const ast_node *n, int fl, ops_num *out, ncsim_err *e)
{
	ops_num a, b, c;
	int r;

	switch (n->kind) {
	case AST_INT:
		*out = ops_of_int(fl, n->u.int_.value);
		return IS_CONST;
	case AST_DECIMAL:
	case AST_REAL_CAST:
		if (n->kind == AST_DECIMAL)
			a.f = n->u.decimal.value;
		else if (!get(n->u.real_cast.operand, 1, &a))
			return NOT_CONST;
		out->i = ncsim_real_to_int(a.f);
		out->f = a.f;
		return IS_CONST;
	case AST_UNARY:
		if (!get(n->u.unary.operand, fl, &a))
			return NOT_CONST;
		*out = ops_eval_unary(n->u.unary.op, fl, a, e);
		break;
	case AST_BINARY:
		if (!get(n->u.binary.lhs, fl, &a) || !get(n->u.binary.rhs, fl, &b))
			return NOT_CONST;
		*out = ops_eval_binary(n->u.binary.op, fl, a, b, e);
		break;
	case AST_COMPARE:
		if (!get(n->u.compare.lhs, fl, &a) || !get(n->u.compare.rhs, fl, &b))
			return NOT_CONST;
		*out = ops_of_int(fl, ops_eval_compare(n->u.compare.op, fl, a, b, e));
		break;
	case AST_IFELSE:
		if (!get(n->u.ifelse.cond, fl, &c))
			return NOT_CONST;
		return get(ops_true(fl, c) ? n->u.ifelse.then : n->u.ifelse.otherwise, fl, out) ? IS_CONST : NOT_CONST;
	case AST_CALL:
	case AST_MESH:
		return fold_call(n, fl, out, e);
	case AST_PARITY:
		if (!get(n->u.parity.operand, fl, &a))
			return NOT_CONST;
		a.i = fl ? ncsim_f2i(a.f, e) : a.i;
		*out = ops_of_int(fl, (a.i & 1) == (n->u.parity.odd ? 1 : 0));
		break;
	case AST_IN_INTERVAL:
		if (!get(n->u.in_interval.operand, fl, &a) || !get(n->u.in_interval.lo, fl, &b) ||
		    !get(n->u.in_interval.hi, fl, &c))
			return NOT_CONST;
		*out = ops_of_int(fl, in_interval(fl, a, b, c) != n->u.in_interval.negated);
		return IS_CONST;
	case AST_IN_RANGES:
		if (!get(n->u.in_ranges.operand, fl, &a) || in_ranges(n, fl, a.f, a.i, &r) != IS_CONST)
			return NOT_CONST;
		*out = ops_of_int(fl, r);
		return IS_CONST;
	case AST_LOGIC:
		if (!get(n->u.logic.lhs, fl, &a))
			return NOT_CONST;
		if ((n->u.logic.op == AST_LOGIC_AND) != ops_true(fl, a)) {
			*out = ops_of_int(fl, ops_true(fl, a)); /* false /\ x, true \/ x: x is not evaluated */
			return IS_CONST;
		}
		if (!get(n->u.logic.rhs, fl, &b))
			return NOT_CONST;
		*out = ops_of_int(fl, ops_true(fl, b));
		return IS_CONST;
	default:
		return NOT_CONST;
	}
	return e->failed ? FAILED : IS_CONST;
}

void sf_fold(sema_ctx *s, ast_node *n)
{
	sema_note *t = sema_note_get(s, n);
	ncsim_err e = NCSIM_ERR_INIT;
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
	for (int fl = 0; fl <= 1; fl++) {
		ops_num v = { 0, 0.0 };
		e = (ncsim_err)NCSIM_ERR_INIT;
		r = fold(n, fl, &v, &e);
		if (r == IS_CONST && fl) {
			t->flags |= SEMA_N_CONST_F;
			t->fval = v.f;
		} else if (r == IS_CONST) {
			t->flags |= SEMA_N_CONST_I;
			t->ival = v.i;
		} else if (r == FAILED) {
			*(fl ? &t->err_f : &t->err_i) = arena_strdup(s->arena, e.msg);
		}
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

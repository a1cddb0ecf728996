/*
 * ffi_expr.c - BACKEND EXECUTES arguments as typed C expressions (see ffi_expr.h).
 *
 * An argument compiles to a small tree kept in one array, children before
 * their parent:
 *
 *   nodes[]: [0] CONST 2   [1] ITEM 1   [2] CAST int (a=1)   [3] BINARY * (a=0, b=2)   root = 3
 *            for the argument `2 * (int)` followed by expression item 1
 *
 * Every node carries its static C type, so type errors are found when the
 * statement is prepared and an execution only computes values.
 */
#include "engine/ffi_expr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/ffi_value.h"

enum { N_CONST, N_ITEM, N_TASK, N_UNARY, N_CAST, N_BINARY };

typedef struct fxnode {
	unsigned char kind, type; /* type: eng_ctype */
	char op;                  /* N_UNARY, N_BINARY: the operator */
	unsigned char is_const;   /* no item and no task below: C's constant expression */
	int a, b;                 /* operands (node indexes) */
	int item;                 /* N_ITEM: the item's index */
	eng_cval c;               /* N_CONST: the value */
} fxnode;

struct eng_fx {
	fxnode *nodes;
	size_t n;
	int root;
};

typedef struct fxparser {
	const bf_tok **toks; /* the argument's tokens without blanks */
	size_t n, i;
	const eng_fx_scope *s;
	VEC(fxnode) nodes;
	char *err;
} fxparser;

static int fail(fxparser *p, char *msg)
{
	if (!p->err)
		p->err = msg;
	else
		free(msg);
	return -1;
}

static int add(fxparser *p, fxnode nd)
{
	VEC_PUSH(&p->nodes, nd);
	return (int)p->nodes.len - 1;
}

static const bf_tok *peek(const fxparser *p) { return p->i < p->n ? p->toks[p->i] : NULL; }

static int is_punct(const bf_tok *t, char c)
{
	return t && t->kind == BF_PUNCT && t->text[0] == c && !t->text[1];
}

static int arithmetic(eng_ctype t) { return eng_ctype_is_int(t) || eng_ctype_is_float(t); }

/* The type between the parentheses of "(unsigned long)" or "sizeof(double)". */
static int paren_type(const char *text, eng_ctype *t)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (!open || !close || close < open)
		return -1;
	char *inner = xstrndup(open + 1, (size_t)(close - open - 1));
	int rc = eng_cdecl_type_name(inner, t);
	free(inner);
	return rc;
}

static int type_size(eng_ctype t)
{
	static const unsigned char size[ENG_C_NTYPES] = {0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, sizeof(void *), 0};
	return size[t];
}

static int constant(fxparser *p, eng_cval v) { return add(p, (fxnode){.kind = N_CONST, .type = (unsigned char)v.type, .is_const = 1, .c = v}); }

/* A name: NULL, the task `t`, a number the recogniser wrote for a constant (MPI_REQUEST_NULL is 0), a macro. */
static int name(fxparser *p, const char *s)
{
	const char *why;
	eng_cval v;
	if (!strcmp(s, "NULL"))   /* ((void *)0) */
		return constant(p, (eng_cval){.type = ENG_C_PTR});
	if (!strcmp(s, "t") && p->s->task_name)
		return add(p, (fxnode){.kind = N_TASK, .type = ENG_C_PTR});
	if (s[0] >= '0' && s[0] <= '9')
		return eng_cval_number(s, strlen(s), &v, &why) == 0 ? constant(p, v)
		                                                    : fail(p, xasprintf("`%s`: %s", s, why));
	const eng_cconst *c = p->s->lookup ? p->s->lookup(p->s->ctx, s) : NULL;
	if (!c)
		return fail(p, xasprintf("`%s` is not a constant the direct engine knows: an argument may name "
		                         "the macro constants of ncsim/union.h and ncsim/rt.h (UNION_Int, "
		                         "UNION_Comm_World, ...) or of a --plugin-header", s));
	return constant(p, c->val);
}

static int expr(fxparser *p);

/* primary: NUMBER | NAME | ITEM | BUFFER | SIZEOF | ( expr ) */
static int primary(fxparser *p)
{
	const bf_tok *t = peek(p);
	eng_cval v;
	const char *why;
	eng_ctype ty;
	if (!t)
		return fail(p, xstrdup("an operand is missing"));
	p->i++;
	switch (t->kind) {
	case BF_NUMBER:
		return eng_cval_number(t->text, strlen(t->text), &v, &why) == 0 ? constant(p, v)
		                                                                : fail(p, xasprintf("`%s`: %s", t->text, why));
	case BF_NAME:
		return name(p, t->text);
	case BF_BUFFER:   /* a message buffer holds no data in a simulation: NULL, as compiled code passes */
		return constant(p, (eng_cval){.type = ENG_C_PTR});
	case BF_ITEM:
		return add(p, (fxnode){.kind = N_ITEM, .item = t->item,
		                       .type = p->s->items[t->item].is_text ? ENG_C_PTR : ENG_C_F64});
	case BF_SIZEOF:
		if (paren_type(t->text, &ty) != 0 || type_size(ty) == 0)
			return fail(p, xasprintf("`%s` names no type of known size", t->text));
		return constant(p, (eng_cval){.type = sizeof(size_t) == 8 ? ENG_C_U64 : ENG_C_U32, .u = (uint64_t)type_size(ty)});
	default:
		break;
	}
	if (!is_punct(t, '('))
		return fail(p, xasprintf("unexpected `%s`", t->text ? t->text : "item"));
	int e = expr(p);
	if (e < 0)
		return -1;
	if (!is_punct(peek(p), ')'))
		return fail(p, xstrdup("expected `)`"));
	p->i++;
	return e;
}

/* unary: primary | - unary | + unary | (type) unary */
static int unary(fxparser *p)
{
	const bf_tok *t = peek(p);
	if (is_punct(t, '-') || is_punct(t, '+') || (t && t->kind == BF_CAST)) {
		p->i++;
		int a = unary(p);
		if (a < 0)
			return -1;
		const fxnode *na = &p->nodes.ptr[a];
		if (!arithmetic((eng_ctype)na->type))
			return fail(p, xasprintf("`%s` applies to a pointer: only numbers can be computed here", t->text));
		fxnode nd = {.a = a, .is_const = na->is_const};
		if (t->kind == BF_CAST) {
			eng_ctype ty;
			if (paren_type(t->text, &ty) != 0 || ty == ENG_C_VOID)
				return fail(p, xasprintf("`%s` is not a cast to an arithmetic type", t->text));
			nd.kind = N_CAST;
			nd.type = (unsigned char)ty;
		} else {
			nd.kind = N_UNARY;
			nd.op = t->text[0];
			nd.type = (unsigned char)eng_cval_promote((eng_ctype)na->type);
		}
		return add(p, nd);
	}
	return primary(p);
}

/* A binary operation of the two operands, typed by the usual arithmetic conversions. */
static int binary(fxparser *p, char op, int a, int b)
{
	const fxnode *na = &p->nodes.ptr[a], *nb = &p->nodes.ptr[b];
	if (!arithmetic((eng_ctype)na->type) || !arithmetic((eng_ctype)nb->type))
		return fail(p, xasprintf("`%c` on a pointer: only numbers can be computed here", op));
	eng_ctype t = eng_cval_common((eng_ctype)na->type, (eng_ctype)nb->type);
	if (op == '%' && !eng_ctype_is_int(t))
		return fail(p, xstrdup("`%` needs integer operands"));
	return add(p, (fxnode){.kind = N_BINARY, .op = op, .type = (unsigned char)t, .a = a, .b = b,
	                       .is_const = na->is_const && nb->is_const});
}

/* term: unary { (* | / | %) unary } */
static int term(fxparser *p)
{
	int a = unary(p);
	while (a >= 0 && (is_punct(peek(p), '*') || is_punct(peek(p), '/') || is_punct(peek(p), '%'))) {
		char op = peek(p)->text[0];
		p->i++;
		int b = unary(p);
		a = b < 0 ? -1 : binary(p, op, a, b);
	}
	return a;
}

/* expr: term { (+ | -) term } */
static int expr(fxparser *p)
{
	int a = term(p);
	while (a >= 0 && (is_punct(peek(p), '+') || is_punct(peek(p), '-'))) {
		char op = peek(p)->text[0];
		p->i++;
		int b = term(p);
		a = b < 0 ? -1 : binary(p, op, a, b);
	}
	return a;
}

eng_fx *eng_fx_compile(const bf_arg *arg, const eng_fx_scope *s, char **err)
{
	fxparser p = {.s = s, .toks = xcalloc(arg->n + 1, sizeof *p.toks)};
	for (size_t i = 0; i < arg->n; i++) {
		/* C reads `--` and `++` as one token, decrement or increment, which a constant refuses. */
		if (i + 1 < arg->n && ((is_punct(&arg->toks[i], '-') && is_punct(&arg->toks[i + 1], '-')) ||
		                       (is_punct(&arg->toks[i], '+') && is_punct(&arg->toks[i + 1], '+'))))
			fail(&p, xasprintf("`%s%s` is C's %s operator, which needs a variable (write `- -x` for a double "
			                   "negation)", arg->toks[i].text, arg->toks[i].text,
			                   arg->toks[i].text[0] == '-' ? "decrement" : "increment"));
		if (arg->toks[i].kind != BF_SPACE)
			p.toks[p.n++] = &arg->toks[i];
	}
	int root = p.err ? -1 : expr(&p);
	if (root >= 0 && p.i < p.n)
		root = fail(&p, xasprintf("unexpected `%s`", p.toks[p.i]->text ? p.toks[p.i]->text : "item"));
	free(p.toks);
	if (root < 0) {
		VEC_FREE(&p.nodes);
		*err = p.err;
		return NULL;
	}
	eng_fx *x = xmalloc(sizeof *x);
	*x = (eng_fx){.nodes = p.nodes.ptr, .n = p.nodes.len, .root = root};
	*err = NULL;
	return x;
}

eng_ctype eng_fx_type(const eng_fx *x) { return (eng_ctype)x->nodes[x->root].type; }

static int eval(const eng_fx *x, int k, rt_task *t, const eng_bval *vals, eng_cval *out, const char **why)
{
	const fxnode *nd = &x->nodes[k];
	eng_cval b;
	switch (nd->kind) {
	case N_CONST:
		*out = nd->c;
		return 0;
	case N_ITEM:
		if (!vals || vals[nd->item].is_text != (nd->type == ENG_C_PTR)) {
			*why = "an expression item is not of the kind it was prepared with (eng_bitem.is_text)";
			return -1;
		}
		*out = nd->type == ENG_C_PTR ? (eng_cval){.type = ENG_C_PTR, .u = (uint64_t)(uintptr_t)vals[nd->item].text}
		                             : (eng_cval){.type = ENG_C_F64, .d = vals[nd->item].f};
		return 0;
	case N_TASK:
		*out = (eng_cval){.type = ENG_C_PTR, .u = (uint64_t)(uintptr_t)t};
		return 0;
	case N_UNARY:
		if (eval(x, nd->a, t, vals, out, why) != 0)
			return -1;
		eng_cval_unary(nd->op, out);
		return 0;
	case N_CAST:
		if (eval(x, nd->a, t, vals, out, why) != 0)
			return -1;
		return eng_cval_convert(out, (eng_ctype)nd->type, why);
	default:
		if (eval(x, nd->a, t, vals, out, why) != 0 || eval(x, nd->b, t, vals, &b, why) != 0)
			return -1;
		return eng_cval_binary(nd->op, out, &b, out, why);
	}
}

int eng_fx_eval(const eng_fx *x, rt_task *t, const eng_bval *vals, eng_cval *out, const char **why)
{
	return eval(x, x->root, t, vals, out, why);
}

int eng_fx_is_null_constant(const eng_fx *x)
{
	const fxnode *r = &x->nodes[x->root];
	eng_cval v;
	const char *why;
	return r->is_const && eng_ctype_is_int((eng_ctype)r->type) && eng_fx_eval(x, NULL, NULL, &v, &why) == 0 &&
	       v.u == 0;
}

void eng_fx_free(eng_fx *x)
{
	if (!x)
		return;
	free(x->nodes);
	free(x);
}

/*
 * ops.c - the operator table (see ops.h).
 *
 * The evaluators wrap the functions of ncsim/stdlib.h to one signature each,
 * so that a row can hold them; the spellings name the very same functions.
 * Infix spellings are C operators whose result equals the wrapped function:
 * the float operators +, -, *, / and the bitwise integer operators.
 */
#include "lang/ops.h"

/* ------------------------------------------------------------ evaluators */

/* The integer operators that cannot fail ignore e. */
#define WRAP_I(name, expr) \
	static int64_t name(int64_t a, int64_t b, ncsim_err *e) { (void)e; return expr; }
WRAP_I(add_i, ncsim_add(a, b))
WRAP_I(sub_i, ncsim_sub(a, b))
WRAP_I(mul_i, ncsim_mul(a, b))
WRAP_I(shl_i, ncsim_shl_i(a, b))
WRAP_I(shr_i, ncsim_shr_i(a, b))
WRAP_I(band_i, a & b)
WRAP_I(bor_i, a | b)
WRAP_I(xor_i, a ^ b)
#undef WRAP_I

#define WRAP_F(name, expr) \
	static double name(double a, double b, ncsim_err *e) { (void)e; return expr; }
WRAP_F(add_f, a + b)
WRAP_F(sub_f, a - b)
WRAP_F(mul_f, a * b)
WRAP_F(div_f, a / b)
#undef WRAP_F

static int64_t neg_i(int64_t a, ncsim_err *e) { (void)e; return ncsim_neg(a); }
static int64_t not_i(int64_t a, ncsim_err *e) { (void)e; return ~a; }
static int64_t plus_i(int64_t a, ncsim_err *e) { (void)e; return a; }
static double neg_f(double a, ncsim_err *e) { (void)e; return -a; }
static double plus_f(double a, ncsim_err *e) { (void)e; return a; }

#define CMP(name, op) \
	static int name##_i(int64_t a, int64_t b, ncsim_err *e) { (void)e; return a op b; } \
	static int name##_f(double a, double b, ncsim_err *e) { (void)e; return a op b; }
CMP(eq, ==)
CMP(ne, !=)
CMP(lt, <)
CMP(gt, >)
CMP(le, <=)
CMP(ge, >=)
#undef CMP

/* a DIVIDES b: b MOD a = 0 (a = 0 fails like the MOD it stands for). */
static int divides_i(int64_t a, int64_t b, ncsim_err *e) { return ncsim_mod_i(b, a, e) == 0; }
static int divides_f(double a, double b, ncsim_err *e) { return ncsim_mod_f(b, a, e) == 0.0; }

/* ------------------------------------------------------------ the tables */

#define INFIX(op) { op, 1, 0 }
#define CALL(fn) { fn, 0, 0 }
#define CALL_E(fn) { fn, 0, 1 }

static const ops_binop binops[AST_BINOP_COUNT] = {
	[AST_OP_ADD] = { add_i, add_f, { CALL("ncsim_add"), INFIX("+") } },
	[AST_OP_SUB] = { sub_i, sub_f, { CALL("ncsim_sub"), INFIX("-") } },
	[AST_OP_MUL] = { mul_i, mul_f, { CALL("ncsim_mul"), INFIX("*") } },
	[AST_OP_DIV] = { ncsim_div_i, div_f, { CALL_E("ncsim_div_i"), INFIX("/") } },
	[AST_OP_MOD] = { ncsim_mod_i, ncsim_mod_f, { CALL_E("ncsim_mod_i"), CALL_E("ncsim_mod_f") } },
	[AST_OP_POW] = { ncsim_pow_i, ncsim_pow_f, { CALL_E("ncsim_pow_i"), CALL_E("ncsim_pow_f") } },
	[AST_OP_SHL] = { shl_i, ncsim_shl_f, { CALL("ncsim_shl_i"), CALL_E("ncsim_shl_f") } },
	[AST_OP_SHR] = { shr_i, ncsim_shr_f, { CALL("ncsim_shr_i"), CALL_E("ncsim_shr_f") } },
	[AST_OP_BAND] = { band_i, ncsim_and_f, { INFIX("&"), CALL_E("ncsim_and_f") } },
	[AST_OP_BOR] = { bor_i, ncsim_or_f, { INFIX("|"), CALL_E("ncsim_or_f") } },
	[AST_OP_XOR] = { xor_i, ncsim_xor_f, { INFIX("^"), CALL_E("ncsim_xor_f") } },
};

static const ops_unop unops[AST_UNOP_COUNT] = {
	[AST_UOP_NEG] = { neg_i, neg_f, { CALL("ncsim_neg"), INFIX("-") } },
	[AST_UOP_PLUS] = { plus_i, plus_f, { INFIX(""), INFIX("") } },
	[AST_UOP_NOT] = { not_i, ncsim_not_f, { INFIX("~"), CALL_E("ncsim_not_f") } },
};

static const ops_cmpop cmpops[AST_CMPOP_COUNT] = {
	[AST_CMP_EQ] = { eq_i, eq_f, "==", { NULL, NULL } },
	[AST_CMP_NE] = { ne_i, ne_f, "!=", { NULL, NULL } },
	[AST_CMP_LT] = { lt_i, lt_f, "<", { NULL, NULL } },
	[AST_CMP_GT] = { gt_i, gt_f, ">", { NULL, NULL } },
	[AST_CMP_LE] = { le_i, le_f, "<=", { NULL, NULL } },
	[AST_CMP_GE] = { ge_i, ge_f, ">=", { NULL, NULL } },
	[AST_CMP_DIVIDES] = { divides_i, divides_f, NULL, { "ncsim_mod_i", "ncsim_mod_f" } },
};

const ops_binop *ops_binary(ast_binop op) { return &binops[op]; }
const ops_unop *ops_unary(ast_unop op) { return &unops[op]; }
const ops_cmpop *ops_compare(ast_cmpop op) { return &cmpops[op]; }

/* ------------------------------------------------------------ evaluation */

ops_num ops_eval_binary(ast_binop op, int fl, ops_num a, ops_num b, ncsim_err *e)
{
	ops_num r = { 0, 0.0 };
	if (fl)
		r.f = binops[op].eval_f(a.f, b.f, e);
	else
		r.i = binops[op].eval_i(a.i, b.i, e);
	return r;
}

ops_num ops_eval_unary(ast_unop op, int fl, ops_num a, ncsim_err *e)
{
	ops_num r = { 0, 0.0 };
	if (fl)
		r.f = unops[op].eval_f(a.f, e);
	else
		r.i = unops[op].eval_i(a.i, e);
	return r;
}

int ops_eval_compare(ast_cmpop op, int fl, ops_num a, ops_num b, ncsim_err *e)
{
	return fl ? cmpops[op].eval_f(a.f, b.f, e) : cmpops[op].eval_i(a.i, b.i, e);
}

ops_num ops_of_int(int fl, int64_t v)
{
	ops_num r = { 0, 0.0 };
	if (fl)
		r.f = (double)v;
	else
		r.i = v;
	return r;
}

int ops_true(int fl, ops_num a)
{
	return fl ? a.f != 0.0 : a.i != 0;
}

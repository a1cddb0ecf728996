/*
 * ops.h - the language's arithmetic and relational operators (LANGUAGE.md 3.2),
 * one table row per operator (prefix ops_).
 *
 * A row says how an operator is evaluated and how generated C spells it, in
 * integer and in floating-point context (3.1). Constant folding
 * (lang/sema_fold.c) calls the evaluators and code generation
 * (compiler/codegen) writes the spellings; both name the same functions of
 * ncsim/stdlib.h, so a folded value is the value the skeleton computes.
 *
 *   AST_OP_DIV   int: ncsim_div_i(a, b, &e)   fallible    float: (a / b)   infix
 *   AST_CMP_LT   int and float: (a < b)
 *   AST_CMP_DIVIDES  (ncsim_mod_i(b, a, &e) == 0): "a DIVIDES b" is b MOD a = 0
 */
#ifndef NCSIM_LANG_OPS_H
#define NCSIM_LANG_OPS_H

#include <stdint.h>

#include "lang/ast.h"
#include "ncsim/stdlib.h"

/* A number in one evaluation context: `i` in integer context, `f` in floating point. */
typedef struct ops_num {
	int64_t i;
	double f;
} ops_num;

/* How generated C writes an operator in one context. */
typedef struct ops_spelling {
	const char *text;       /* C operator ("+", "~") or function name ("ncsim_add") */
	unsigned char infix;    /* "(a OP b)" / "(OP a)" rather than "text(a, b)" */
	unsigned char fallible; /* the function takes &e last and may record an error */
} ops_spelling;

/* One binary operator: evaluators and spellings, [0] integer, [1] floating point. */
typedef struct ops_binop {
	int64_t (*eval_i)(int64_t a, int64_t b, ncsim_err *e);
	double (*eval_f)(double a, double b, ncsim_err *e);
	ops_spelling c[2];
} ops_binop;

/* One prefix operator. */
typedef struct ops_unop {
	int64_t (*eval_i)(int64_t a, ncsim_err *e);
	double (*eval_f)(double a, ncsim_err *e);
	ops_spelling c[2];
} ops_unop;

/* One comparison: an infix C operator, or (divides) a test of b MOD a = 0. */
typedef struct ops_cmpop {
	int (*eval_i)(int64_t a, int64_t b, ncsim_err *e);
	int (*eval_f)(double a, double b, ncsim_err *e);
	const char *c;       /* "==", "<", ...; NULL for DIVIDES */
	const char *mod[2];  /* DIVIDES: the MOD function of each context */
} ops_cmpop;

/* The row of binary operator op (op < AST_BINOP_COUNT). */
const ops_binop *ops_binary(ast_binop op);
/* The row of prefix operator op (op < AST_UNOP_COUNT). */
const ops_unop *ops_unary(ast_unop op);
/* The row of comparison op (op < AST_CMPOP_COUNT). */
const ops_cmpop *ops_compare(ast_cmpop op);

/* a OP b in context fl (0 integer, 1 floating point); a failure is recorded in e. */
ops_num ops_eval_binary(ast_binop op, int fl, ops_num a, ops_num b, ncsim_err *e);
/* OP a in context fl. */
ops_num ops_eval_unary(ast_unop op, int fl, ops_num a, ncsim_err *e);
/* 1 or 0: a OP b in context fl. */
int ops_eval_compare(ast_cmpop op, int fl, ops_num a, ops_num b, ncsim_err *e);
/* The number `v` (a truth value, an integer) in context fl. */
ops_num ops_of_int(int fl, int64_t v);
/* 1 if a is non-zero in context fl (a condition's truth). */
int ops_true(int fl, ops_num a);

#endif

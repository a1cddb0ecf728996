/*
 * ffi_expr.h - the arguments of a BACKEND EXECUTES call as typed C
 * expressions (prefix eng_fx_).
 *
 * An argument arrives as the recogniser's tokens (compiler/backend_filter.h).
 * eng_fx_compile parses them with C's grammar and precedence (casts and
 * unary signs bind tightest, then * / %, then + -), gives every node the
 * type the C compiler would give it, and refuses what has no meaning here
 * (a pointer in arithmetic, an unknown name). eng_fx_eval computes the
 * value of one execution with ffi_value.c's arithmetic.
 *
 *   primary: NUMBER | NAME | ITEM | [MESSAGE BUFFER e] | sizeof(type) | ( expr )
 *   unary:   primary | - unary | + unary | (type) unary
 *   term:    unary { (* | / | %) unary }
 *   expr:    term { (+ | -) term }
 */
#ifndef NCSIM_ENGINE_FFI_EXPR_H
#define NCSIM_ENGINE_FFI_EXPR_H

#include "compiler/backend_filter.h"
#include "engine/backend.h"
#include "engine/cdecl.h"

/* What names mean in an argument. */
typedef struct eng_fx_scope {
	/* Macro constants, searched in order (each may be NULL): ncsim's table, then plugin headers. */
	const eng_cconst *(*lookup)(const void *ctx, const char *name);
	const void *ctx;
	const eng_bitem *items; /* the statement's items: an expression item is a double or a text */
	int task_name;          /* `t` names the calling task, as in the compiled C (--allow-backend-code) */
} eng_fx_scope;

typedef struct eng_fx eng_fx; /* one compiled argument */

/* Compiles one argument. NULL with *err (heap) if it is not an expression of the grammar above. */
eng_fx *eng_fx_compile(const bf_arg *arg, const eng_fx_scope *s, char **err);
/* The argument's C type. */
eng_ctype eng_fx_type(const eng_fx *x);
/* 1 when the argument is an integer constant expression of value 0 (C's null pointer constant). */
int eng_fx_is_null_constant(const eng_fx *x);
/* The value of one execution; -1 with *why (static) where C is undefined (division by zero, ...). */
int eng_fx_eval(const eng_fx *x, rt_task *t, const eng_bval *vals, eng_cval *out, const char **why);
void eng_fx_free(eng_fx *x);

#endif

/*
 * ffi_value.h - C arithmetic on typed values (prefix eng_cval_).
 *
 * BACKEND EXECUTES arguments are C expressions. The compiled engine hands
 * them to the C compiler; the direct engine evaluates them here, with the
 * rules that compiler follows on this machine, so that both engines pass
 * the same values: the type of each literal, the integer promotions, the
 * usual arithmetic conversions, wrap-around of integers (GCC's choice for
 * signed ones), float arithmetic rounded to float, and conversions as by
 * assignment when a value meets a parameter. Where C leaves the result
 * undefined (division by zero, a floating value out of an integer type's
 * range) the functions refuse with a reason instead of guessing.
 */
#ifndef NCSIM_ENGINE_FFI_VALUE_H
#define NCSIM_ENGINE_FFI_VALUE_H

#include <stddef.h>

#include "engine/cdecl.h"

/* 1 for the integer types I8 .. U64. */
int eng_ctype_is_int(eng_ctype t);
/* 1 for F32 and F64. */
int eng_ctype_is_float(eng_ctype t);

/* The type t has after the integer promotions (narrower than int: int). */
eng_ctype eng_cval_promote(eng_ctype t);
/* The type of a binary + - * / % on a and b (the usual arithmetic conversions); both arithmetic. */
eng_ctype eng_cval_common(eng_ctype a, eng_ctype b);

/*
 * Converts *v to type t as C does on assignment or a cast. Returns 0, or -1
 * with a reason in *why (static text) when C leaves the result undefined: a
 * floating value (or NaN) out of an integer type's range.
 */
int eng_cval_convert(eng_cval *v, eng_ctype t, const char **why);
/* Unary op ('+' or '-') on arithmetic *v, after promotion. */
void eng_cval_unary(int op, eng_cval *v);
/*
 * *out = a op b for op in + - * / %, both arithmetic (% integers only),
 * computed in eng_cval_common(a, b). Returns 0, or -1 with *why on
 * division by zero or a quotient that overflows.
 */
int eng_cval_binary(int op, const eng_cval *a, const eng_cval *b, eng_cval *out, const char **why);

/*
 * Reads the C number s[0..n) (a decimal, octal or hex integer with u/l
 * suffixes, or a floating constant with an f suffix or none) with the type
 * C gives it (C11 6.4.4.1: the first of int, long, ... that holds it).
 * Returns 0, or -1 with a reason in *why (static) for long double, a value
 * no type holds, a bad digit or suffix.
 */
int eng_cval_number(const char *s, size_t n, eng_cval *out, const char **why);

/* v as a double, for messages. */
double eng_cval_as_double(const eng_cval *v);

#endif

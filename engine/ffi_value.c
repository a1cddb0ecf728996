/*
 * ffi_value.c - C arithmetic on typed values (see ffi_value.h).
 *
 * An integer value keeps its bits in a uint64_t, truncated to its width and
 * sign-extended when signed, so that one code path computes every integer
 * type modulo 2^64 and then truncates: the result C gives for unsigned
 * types, and GCC's for signed ones. A float is computed in double and
 * rounded to float after each operation; for + - * / that gives the
 * correctly rounded float result, as float arithmetic does (double holds
 * more than twice float's 24 bits).
 */
#include "engine/ffi_value.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Width in bits of the integer types, in eng_ctype order from ENG_C_I8. */
static const unsigned char int_width[] = {8, 8, 16, 16, 32, 32, 64, 64};

int eng_ctype_is_int(eng_ctype t) { return t >= ENG_C_I8 && t <= ENG_C_U64; }
int eng_ctype_is_float(eng_ctype t) { return t == ENG_C_F32 || t == ENG_C_F64; }

static unsigned width(eng_ctype t) { return int_width[t - ENG_C_I8]; }
static int is_signed(eng_ctype t) { return (t - ENG_C_I8) % 2 == 0; }
/* The integer type of width w bits and the given signedness. */
static eng_ctype int_type(unsigned w, int sign)
{
	eng_ctype t = w == 8 ? ENG_C_I8 : w == 16 ? ENG_C_I16 : w == 32 ? ENG_C_I32 : ENG_C_I64;
	return sign ? t : (eng_ctype)(t + 1);
}

/* The bits u truncated to t's width, sign-extended when t is signed. */
static uint64_t fit(uint64_t u, eng_ctype t)
{
	unsigned w = width(t);
	if (w == 64)
		return u;
	uint64_t mask = (UINT64_C(1) << w) - 1;
	u &= mask;
	if (is_signed(t) && (u >> (w - 1)))
		u |= ~mask;
	return u;
}

eng_ctype eng_cval_promote(eng_ctype t)
{
	return eng_ctype_is_int(t) && width(t) < 32 ? ENG_C_I32 : t;
}

eng_ctype eng_cval_common(eng_ctype a, eng_ctype b)
{
	if (a == ENG_C_F64 || b == ENG_C_F64)
		return ENG_C_F64;
	if (a == ENG_C_F32 || b == ENG_C_F32)
		return ENG_C_F32;
	a = eng_cval_promote(a);
	b = eng_cval_promote(b);
	if (a == b)
		return a;
	if (is_signed(a) == is_signed(b))
		return width(a) > width(b) ? a : b;
	eng_ctype u = is_signed(a) ? b : a, s = is_signed(a) ? a : b;
	/* The signed type wins only when it is wider, so it holds every value of the other. */
	return width(s) > width(u) ? s : u;
}

double eng_cval_as_double(const eng_cval *v)
{
	if (eng_ctype_is_float(v->type))
		return v->d;
	return eng_ctype_is_int(v->type) && is_signed(v->type) ? (double)(int64_t)v->u : (double)v->u;
}

/* A floating value to integer type t: truncation toward zero, defined only when the result fits. */
static int float_to_int(eng_cval *v, eng_ctype t, const char **why)
{
	double x = trunc(v->d);
	unsigned w = width(t);
	/* The bounds are powers of two, exact in a double. */
	double hi = ldexp(1.0, is_signed(t) ? (int)w - 1 : (int)w);
	double lo = is_signed(t) ? -hi : 0.0;
	if (!(x >= lo && x < hi)) {
		*why = isnan(v->d) ? "NaN has no integer value" : "the value is out of the range of the integer type";
		return -1;
	}
	v->u = is_signed(t) ? (uint64_t)(int64_t)x : (uint64_t)x;
	v->type = t;
	return 0;
}

/* An integer value to a floating type: C's own conversion from the right width and signedness. */
static void int_to_float(eng_cval *v, eng_ctype t)
{
	if (t == ENG_C_F32)
		v->d = is_signed(v->type) ? (double)(float)(int64_t)v->u : (double)(float)v->u;
	else
		v->d = is_signed(v->type) ? (double)(int64_t)v->u : (double)v->u;
	v->type = t;
}

int eng_cval_convert(eng_cval *v, eng_ctype t, const char **why)
{
	if (v->type == t || t == ENG_C_VOID) {
		v->type = t;
		return 0;
	}
	if (eng_ctype_is_float(v->type) && eng_ctype_is_int(t))
		return float_to_int(v, t, why);
	if (eng_ctype_is_int(v->type) && eng_ctype_is_float(t)) {
		int_to_float(v, t);
		return 0;
	}
	if (eng_ctype_is_float(t)) {   /* F64 <-> F32 */
		v->d = t == ENG_C_F32 ? (double)(float)v->d : v->d;
		v->type = t;
		return 0;
	}
	/* Integer and pointer bits: truncated, or kept for a pointer. */
	v->u = t == ENG_C_PTR ? v->u : fit(v->u, t);
	v->type = t;
	return 0;
}

void eng_cval_unary(int op, eng_cval *v)
{
	const char *why;
	(void)eng_cval_convert(v, eng_cval_promote(v->type), &why); /* a promotion always converts */
	if (op != '-')
		return;
	if (eng_ctype_is_float(v->type))
		v->d = -v->d;
	else
		v->u = fit(0 - v->u, v->type);
}

/* a op b on integers of type t (bits already fitted to t). */
static int int_binary(int op, uint64_t a, uint64_t b, eng_ctype t, uint64_t *out, const char **why)
{
	if ((op == '/' || op == '%') && b == 0) {
		*why = "division by zero";
		return -1;
	}
	if ((op == '/' || op == '%') && is_signed(t)) {
		int64_t x = (int64_t)a, y = (int64_t)b;
		if (y == -1 && x == (int64_t)fit(UINT64_C(1) << (width(t) - 1), t)) {
			*why = "the quotient overflows its type";
			return -1;
		}
		*out = fit((uint64_t)(op == '/' ? x / y : x % y), t);
		return 0;
	}
	uint64_t r = op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : op == '/' ? a / b : a % b;
	*out = fit(r, t);
	return 0;
}

int eng_cval_binary(int op, const eng_cval *a, const eng_cval *b, eng_cval *out, const char **why)
{
	eng_ctype t = eng_cval_common(a->type, b->type);
	eng_cval x = *a, y = *b;
	if (eng_cval_convert(&x, t, why) != 0 || eng_cval_convert(&y, t, why) != 0)
		return -1;
	*out = (eng_cval){.type = t};
	if (eng_ctype_is_int(t))
		return int_binary(op, x.u, y.u, t, &out->u, why);
	double r = op == '+' ? x.d + y.d : op == '-' ? x.d - y.d : op == '*' ? x.d * y.d : x.d / y.d;
	out->d = t == ENG_C_F32 ? (double)(float)r : r;
	return 0;
}

/* The integer suffix s[0..n): u and l or ll in either order and case. */
static int int_suffix(const char *s, size_t n, int *is_u, int *nl)
{
	*is_u = *nl = 0;
	for (size_t i = 0; i < n;) {
		if ((s[i] == 'u' || s[i] == 'U') && !*is_u) {
			*is_u = 1;
			i++;
		} else if ((s[i] == 'l' || s[i] == 'L') && !*nl) {
			*nl = i + 1 < n && s[i + 1] == s[i] ? 2 : 1;   /* ll or LL, not lL */
			i += (size_t)*nl;
		} else {
			return -1;
		}
	}
	return 0;
}

/* The type of integer constant value x (C11 6.4.4.1's table); -1 if none holds it. */
static int int_const_type(uint64_t x, int decimal, int is_u, int nl, eng_ctype *t)
{
	unsigned long_w = sizeof(long) * 8;
	/* Candidates in the table's order: width, signedness. */
	typedef struct cand { unsigned w; int s; } cand;
	cand c[6];
	size_t k = 0;
	if (nl == 0) {
		if (!is_u)
			c[k++] = (cand){32, 1};
		if (is_u || !decimal)
			c[k++] = (cand){32, 0};
	}
	if (nl <= 1) {
		if (!is_u)
			c[k++] = (cand){long_w, 1};
		if (is_u || !decimal)
			c[k++] = (cand){long_w, 0};
	}
	if (!is_u)
		c[k++] = (cand){64, 1};
	if (is_u || !decimal)
		c[k++] = (cand){64, 0};
	for (size_t i = 0; i < k; i++) {
		uint64_t max = c[i].w == 64 ? (c[i].s ? (uint64_t)INT64_MAX : UINT64_MAX)
		                            : (UINT64_C(1) << (c[i].w - (unsigned)c[i].s)) - 1;
		if (x <= max) {
			*t = int_type(c[i].w, c[i].s);
			return 0;
		}
	}
	return -1;
}

static int float_number(const char *s, size_t n, eng_cval *out, const char **why)
{
	char buf[128];
	size_t m = n;
	int is_f = 0;
	if (m && strchr("fFlL", s[m - 1])) {
		if (s[m - 1] == 'l' || s[m - 1] == 'L') {
			*why = "long double is not supported";
			return -1;
		}
		is_f = 1;
		m--;
	}
	if (m >= sizeof buf) {
		*why = "number too long";
		return -1;
	}
	memcpy(buf, s, m);
	buf[m] = 0;
	char *end;
	/* strtof for a float constant: rounding to double first could round twice. */
	double d = is_f ? (double)strtof(buf, &end) : strtod(buf, &end);
	if (*end || m == 0) {
		*why = "bad floating constant";
		return -1;
	}
	*out = (eng_cval){.type = is_f ? ENG_C_F32 : ENG_C_F64, .d = d};
	return 0;
}

int eng_cval_number(const char *s, size_t n, eng_cval *out, const char **why)
{
	int hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (!hex && (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n)))
		return float_number(s, n, out, why);
	size_t i = hex ? 2 : 0;
	int base = hex ? 16 : s[0] == '0' ? 8 : 10;
	uint64_t x = 0;
	size_t start = i;
	for (; i < n && isxdigit((unsigned char)s[i]); i++) {
		unsigned dig = isdigit((unsigned char)s[i]) ? (unsigned)(s[i] - '0') : (unsigned)(tolower(s[i]) - 'a' + 10);
		if (dig >= (unsigned)base) {
			*why = base == 8 ? "bad digit in an octal constant" : "bad digit in a constant";
			return -1;
		}
		if (x > (UINT64_MAX - dig) / (unsigned)base) {
			*why = "integer constant too large";
			return -1;
		}
		x = x * (unsigned)base + dig;
	}
	int is_u, nl;
	if (i == start || int_suffix(s + i, n - i, &is_u, &nl) != 0) {
		*why = "bad integer constant";
		return -1;
	}
	*out = (eng_cval){.u = x};
	if (int_const_type(x, base == 10, is_u, nl, &out->type) != 0) {
		*why = "integer constant too large for its type";
		return -1;
	}
	return 0;
}

/*
 * arith.c - expression operators of LANGUAGE.md §3.1-3.2 that need more than
 * one line: the error slot, integer and float power, conversions between the
 * integer and floating-point contexts, and float-context operators that work
 * on truncated operands.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "ncsim/stdlib.h"

int ncsim_err_set(ncsim_err *e, const char *fmt, ...)
{
	va_list ap;

	/* Sticky: the first error explains the failure, later ones are fallout. */
	if (!e || e->failed)
		return 0;
	e->failed = 1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return 0;
}

int64_t ncsim_div_zero_(int64_t a, ncsim_err *e)
{
	return ncsim_err_set(e, "%" PRId64 " divided by 0 is not defined", a);
}

int64_t ncsim_mod_zero_(int64_t a, ncsim_err *e)
{
	return ncsim_err_set(e, "%" PRId64 " modulo 0 is not defined", a);
}

int64_t ncsim_pow_i(int64_t base, int64_t exponent, ncsim_err *e)
{
	uint64_t result = 1, b = (uint64_t)base;
	uint64_t x = (uint64_t)exponent;

	if (base == 0 && exponent == 0)
		return ncsim_err_set(e, "unable to raise zero to the zeroth power");
	if (exponent < 0) {
		switch (base) {
		case 0:
			return ncsim_err_set(e, "unable to raise zero to a negative power");
		case 1:
			return 1;
		case -1:
			return (exponent & 1) ? -1 : 1;
		default:
			return 0;
		}
	}
	/* Squaring in uint64_t gives the C backend's wrapped result without UB. */
	while (x) {
		if (x & 1)
			result *= b;
		b *= b;
		x >>= 1;
	}
	return (int64_t)result;
}

int64_t ncsim_trunc_to_int(double d)
{
	if (d != d)
		return INT64_MIN;
	if (d >= 9223372036854775808.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

int64_t ncsim_real_to_int(double d)
{
	/* The C backend's (ncptl_int)(d + 0.5): wrong for negatives on purpose. */
	return ncsim_trunc_to_int(d + 0.5);
}

int ncsim_check_finite(double d, ncsim_err *e)
{
	if (isfinite(d))
		return 0;
	ncsim_err_set(e, "unable to perform a numeric operation on \"%f\"", d);
	return -1;
}

int64_t ncsim_f2i(double d, ncsim_err *e)
{
	if (ncsim_check_finite(d, e))
		return 0;
	return ncsim_trunc_to_int(d);
}

double ncsim_pow_f(double base, double exponent, ncsim_err *e)
{
	if (ncsim_check_finite(base, e) || ncsim_check_finite(exponent, e))
		return 0.0;
	if ((base == 0.0 && exponent <= 0.0) || (base < 0.0 && exponent != trunc(exponent))) {
		ncsim_err_set(e, "unable to take (%g)**(%g); result is undefined", base, exponent);
		return 0.0;
	}
	return pow(base, exponent);
}

double ncsim_mod_f(double a, double b, ncsim_err *e)
{
	int64_t ia = ncsim_f2i(a, e), ib = ncsim_f2i(b, e);

	return (double)ncsim_mod_i(ia, ib, e);
}

double ncsim_shl_f(double a, double b, ncsim_err *e)
{
	return (double)ncsim_shl_i(ncsim_f2i(a, e), ncsim_f2i(b, e));
}

double ncsim_shr_f(double a, double b, ncsim_err *e)
{
	return (double)ncsim_shr_i(ncsim_f2i(a, e), ncsim_f2i(b, e));
}

double ncsim_and_f(double a, double b, ncsim_err *e)
{
	return (double)(ncsim_f2i(a, e) & ncsim_f2i(b, e));
}

double ncsim_or_f(double a, double b, ncsim_err *e)
{
	return (double)(ncsim_f2i(a, e) | ncsim_f2i(b, e));
}

double ncsim_xor_f(double a, double b, ncsim_err *e)
{
	return (double)(ncsim_f2i(a, e) ^ ncsim_f2i(b, e));
}

double ncsim_not_f(double a, ncsim_err *e)
{
	return (double)~ncsim_f2i(a, e);
}

int ncsim_fmt_g10(char *buf, size_t size, double v)
{
	return snprintf(buf, size, "%.10g", v);
}

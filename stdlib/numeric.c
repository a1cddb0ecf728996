/*
 * numeric.c - the simple numeric built-ins of LANGUAGE.md §5.1 (ABS, BITS,
 * CBRT, SQRT, ROOT, LOG10, FACTOR10, MIN, MAX, FLOOR, CEILING, ROUND), in
 * integer and floating-point versions.
 *
 * Integer versions are exact over the whole int64_t range where the C
 * backend goes through doubles (ROOT, LOG10, FACTOR10). The results agree
 * with the C backend wherever its double arithmetic is exact (below 2^53),
 * which covers every value the reference tests and the corpus use.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "ncsim/stdlib.h"

/* f(x), or 0 with e set when x is not finite: the floating-point version of most built-ins. */
static double finite1(double (*f)(double), double x, ncsim_err *e)
{
	return ncsim_check_finite(x, e) ? 0.0 : f(x);
}

/* finite1 for a function undefined below 0 (SQRT, CBRT): `name` words the error. */
static double nonneg1(double (*f)(double), const char *name, double x, ncsim_err *e)
{
	if (ncsim_check_finite(x, e))
		return 0.0;
	if (x < 0.0) {
		ncsim_err_set(e, "unable to take %s(%g); result is undefined", name, x);
		return 0.0;
	}
	return f(x);
}

/* In integer context the argument is already an integer: FLOOR(-77/10) = -7. */
static int64_t integral(int64_t x, ncsim_err *e)
{
	(void)e;
	return x;
}

int64_t ncsim_abs_i(int64_t x, ncsim_err *e)
{
	if (x == INT64_MIN)
		return ncsim_err_set(e, "the absolute value of %" PRId64
		                     " is not defined in 64-bit arithmetic", x);
	return x < 0 ? -x : x;
}

double ncsim_abs_f(double x, ncsim_err *e) { return finite1(fabs, x, e); }

int64_t ncsim_bits_i(int64_t x, ncsim_err *e)
{
	(void)e;
	return x ? 64 - __builtin_clzll((unsigned long long)x) : 0;
}

double ncsim_bits_f(double x, ncsim_err *e)
{
	if (ncsim_check_finite(x, e))
		return 0.0;
	return (double)ncsim_bits_i(ncsim_trunc_to_int(x), e);
}

/* 1 if r**n <= x, for r >= 0, n >= 1, without overflow. */
static int pow_le(uint64_t r, int64_t n, uint64_t x)
{
	uint64_t acc = 1;

	if (r <= 1)
		return r <= x;
	/* r >= 2 exceeds any int64_t after at most 63 factors. */
	for (int64_t i = 0; i < n; i++) {
		if (__builtin_mul_overflow(acc, r, &acc) || acc > x)
			return 0;
	}
	return 1;
}

int64_t ncsim_root_i(int64_t n, int64_t x, ncsim_err *e)
{
	int64_t r;

	if (n == 0 || x < 0) {
		ncsim_err_set(e, "unable to take ROOT(%g, %g); result is undefined", (double)n, (double)x);
		return 0;
	}
	/* The estimate only has to be close: the loops below make it exact. */
	if (n == 2)
		r = ncsim_trunc_to_int(sqrt((double)x));
	else if (n == 3)
		r = ncsim_trunc_to_int(cbrt((double)x));
	else
		r = ncsim_trunc_to_int(pow((double)x, 1.0 / (double)n));
	if (n < 0) {
		/*
		 * r**n for n < 0 is 0 for r >= 2, so "largest r" has no meaning. Keep the
		 * C backend's single upward correction: ROOT(-3,8) = 1.
		 */
		if (r == INT64_MAX)
			return r;
		return ncsim_pow_i(r + 1, n, e) <= x ? r + 1 : r;
	}
	/* pow() may be off by one either way near 2^53 and beyond: correct both ways. */
	if (r > x)
		r = x;
	if (r < 0)
		r = 0;
	while (r > 0 && !pow_le((uint64_t)r, n, (uint64_t)x))
		r--;
	while (r < x && pow_le((uint64_t)r + 1, n, (uint64_t)x))
		r++;
	return r;
}

double ncsim_root_f(double n, double x, ncsim_err *e)
{
	if (ncsim_check_finite(n, e) || ncsim_check_finite(x, e))
		return 0.0;
	if (n == 0.0 || x < 0.0) {
		ncsim_err_set(e, "unable to take ROOT(%g, %g); result is undefined", n, x);
		return 0.0;
	}
	return pow(x, 1.0 / n);
}

int64_t ncsim_sqrt_i(int64_t x, ncsim_err *e)
{
	if (x < 0)
		return ncsim_err_set(e, "unable to take SQRT(%" PRId64 "); result is undefined", x);
	return x <= 1 ? x : ncsim_root_i(2, x, e);
}

double ncsim_sqrt_f(double x, ncsim_err *e) { return nonneg1(sqrt, "SQRT", x, e); }

int64_t ncsim_cbrt_i(int64_t x, ncsim_err *e)
{
	if (x == 0)
		return 0;
	if (x < 0)
		return ncsim_err_set(e, "unable to take CBRT(%" PRId64 "); result is undefined", x);
	return ncsim_root_i(3, x, e);
}

double ncsim_cbrt_f(double x, ncsim_err *e) { return nonneg1(cbrt, "CBRT", x, e); }

int64_t ncsim_log10_i(int64_t x, ncsim_err *e)
{
	int64_t r = 0;

	if (x <= 0)
		return ncsim_err_set(e, "unable to take the base-10 logarithm of a non-positive number (%"
		                     PRId64 ")", x);
	/* Counting digits is exact where floor(log10((double)x)) is not (x = 10^18-1). */
	while (x >= 10) {
		x /= 10;
		r++;
	}
	return r;
}

double ncsim_log10_f(double x, ncsim_err *e) { return finite1(log10, x, e); }

int64_t ncsim_factor10_i(int64_t x, ncsim_err *e)
{
	uint64_t a = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
	uint64_t m = 1;

	(void)e;
	while (a / m >= 10)
		m *= 10;
	a = a / m * m;
	return x < 0 ? (int64_t)(0 - a) : (int64_t)a;
}

double ncsim_factor10_f(double x, ncsim_err *e)
{
	double a, m, f;

	if (ncsim_check_finite(x, e))
		return 0.0;
	if (x == 0.0)
		return 0.0;
	a = fabs(x);
	m = pow(10.0, floor(log10(a)));
	f = floor(a / m);
	/* log10 rounds up just below a power of ten (1e15-1): keep one digit. */
	if (f < 1.0) {
		m /= 10.0;
		f = floor(a / m);
	} else if (f >= 10.0) {
		m *= 10.0;
		f = floor(a / m);
	}
	return x < 0.0 ? -(f * m) : f * m;
}

/* MIN (want_max 0) or MAX (1) of n integers. */
static int64_t extreme_i(const int64_t *v, size_t n, int want_max, ncsim_err *e)
{
	if (n == 0)
		return ncsim_err_set(e, "internal error: %s requires at least one argument", want_max ? "MAX" : "MIN");
	int64_t r = v[0];
	for (size_t i = 1; i < n; i++)
		if (want_max ? v[i] > r : v[i] < r)
			r = v[i];
	return r;
}

/* MIN (want_max 0) or MAX (1) of n finite doubles. */
static double extreme_f(const double *v, size_t n, int want_max, ncsim_err *e)
{
	if (n == 0) {
		ncsim_err_set(e, "internal error: %s requires at least one argument", want_max ? "MAX" : "MIN");
		return 0.0;
	}
	double r = v[0];
	for (size_t i = 0; i < n; i++) {
		if (ncsim_check_finite(v[i], e))
			return 0.0;
		if (want_max ? v[i] > r : v[i] < r)
			r = v[i];
	}
	return r;
}

int64_t ncsim_min_i(const int64_t *v, size_t n, ncsim_err *e) { return extreme_i(v, n, 0, e); }
int64_t ncsim_max_i(const int64_t *v, size_t n, ncsim_err *e) { return extreme_i(v, n, 1, e); }
double ncsim_min_f(const double *v, size_t n, ncsim_err *e) { return extreme_f(v, n, 0, e); }
double ncsim_max_f(const double *v, size_t n, ncsim_err *e) { return extreme_f(v, n, 1, e); }

int64_t ncsim_floor_i(int64_t x, ncsim_err *e) { return integral(x, e); }
double ncsim_floor_f(double x, ncsim_err *e) { return finite1(floor, x, e); }
int64_t ncsim_ceiling_i(int64_t x, ncsim_err *e) { return integral(x, e); }
double ncsim_ceiling_f(double x, ncsim_err *e) { return finite1(ceil, x, e); }
int64_t ncsim_round_i(int64_t x, ncsim_err *e) { return integral(x, e); }
double ncsim_round_f(double x, ncsim_err *e) { return finite1(round, x, e); }

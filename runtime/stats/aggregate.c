/*
 * aggregate.c - aggregate functions of coNCePTuaL log columns (see aggregate.h).
 */
#include "runtime/stats/aggregate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int agg_cells(enum rt_agg agg) { return agg == RT_AGG_HISTOGRAM ? 2 : 1; }

const char *agg_label(enum rt_agg agg, double param, int cell, char *buf, size_t size)
{
	static const char *const names[] = {
		[RT_AGG_ALL] = "(all data)",
		[RT_AGG_ONLY] = "(only value)",
		[RT_AGG_MEAN] = "(mean)",
		[RT_AGG_HARMONIC_MEAN] = "(harm. mean)",
		[RT_AGG_GEOMETRIC_MEAN] = "(geom. mean)",
		[RT_AGG_MEDIAN] = "(median)",
		[RT_AGG_MAD] = "(med. abs. dev.)",
		[RT_AGG_STDDEV] = "(std. dev.)",
		[RT_AGG_VARIANCE] = "(variance)",
		[RT_AGG_SUM] = "(sum)",
		[RT_AGG_MINIMUM] = "(minimum)",
		[RT_AGG_MAXIMUM] = "(maximum)",
		[RT_AGG_FINAL] = "(final)",
	};

	if (agg == RT_AGG_PERCENTILE) {
		/*
		 * Always "th": the reference library compares the last digit
		 * *character* with the integers 1, 2, 3, which never matches, and
		 * byte-compatible logs keep that ("(21th percentile)").
		 */
		char num[48];
		if (fabs(param) < 1e30)
			snprintf(num, sizeof num, "%.0f", param);
		else
			snprintf(num, sizeof num, "%.0e", param);
		snprintf(buf, size, "(%sth percentile)", num);
	} else if (agg == RT_AGG_HISTOGRAM) {
		snprintf(buf, size, "%s", cell ? "(hist. tallies)" : "(hist. values)");
	} else if ((unsigned)agg < sizeof names / sizeof names[0] && names[agg]) {
		snprintf(buf, size, "%s", names[agg]);
	} else {
		snprintf(buf, size, "(unknown)");
	}
	return buf;
}

size_t agg_max_out(enum rt_agg agg, size_t n)
{
	if (agg == RT_AGG_ALL)
		return n;
	if (agg == RT_AGG_HISTOGRAM)
		return 2 * n;
	return 1;
}

/* Total order for sorting: numbers ascending, -0 before +0, NaNs last. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	if (a < b)
		return -1;
	if (a > b)
		return 1;
	if (!signbit(a) != !signbit(b))
		return signbit(a) ? -1 : 1;
	return 0;
}

void agg_sort(double *data, size_t n) { qsort(data, n, sizeof *data, cmp_double); }

double agg_median_sorted(const double *s, size_t n)
{
	if (n & 1)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double agg_percentile_sorted(const double *s, size_t n, double p)
{
	double h, lo, hi;
	size_t k;

	if (p <= 0.0)
		return s[0];
	if (p >= 100.0)
		return s[n - 1];
	/* h is a 1-based rank; interpolate between x[floor h] and the next order statistic. */
	h = (double)(n - 1) * p / 100.0 + 1.0;
	k = (size_t)floor(h);
	lo = s[k - 1];
	hi = k < n ? s[k] : s[n - 1];
	return lo + (h - (double)k) * (hi - lo);
}

static double sum(const double *d, size_t n)
{
	double s = 0.0;
	for (size_t i = 0; i < n; i++)
		s += d[i];
	return s;
}

static double variance(const double *d, size_t n)
{
	double mean, v = 0.0;

	if (n <= 1)
		return 0.0;
	mean = sum(d, n) / (double)n;
	for (size_t i = 0; i < n; i++)
		v += (d[i] - mean) * (d[i] - mean);
	return v / ((double)n - 1.0);
}

/* Same value for the histogram: identical numbers with the same sign, or both NaN. */
static int same_bin(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return a == b && signbit(a) == signbit(b);
}

long agg_apply(enum rt_agg agg, double param, double *data, size_t n, double *out, char **err)
{
	double r;
	size_t i, j, k;

	if (n == 0)
		return 0;
	switch (agg) {
	case RT_AGG_ALL:
		memcpy(out, data, n * sizeof *data);
		return (long)n;
	case RT_AGG_HISTOGRAM:
		agg_sort(data, n);
		for (i = 0, k = 0; i < n; i = j) {
			for (j = i + 1; j < n && same_bin(data[i], data[j]); j++)
				;
			out[k++] = data[i];
			out[k++] = (double)(j - i);
		}
		return (long)k;
	case RT_AGG_ONLY:
		for (i = 1; i < n; i++)
			if (data[i] != data[0]) {
				*err = xstrdup("Attempted to log more than one value in a \"THE\" column");
				return -1;
			}
		r = data[0];
		break;
	case RT_AGG_MEAN:
		r = sum(data, n) / (double)n;
		break;
	case RT_AGG_HARMONIC_MEAN:
		r = 0.0;
		for (i = 0; i < n; i++) {
			if (data[i] == 0.0) {
				*err = xstrdup("Attempted to take the harmonic mean of a set containing a zero element");
				return -1;
			}
			r += 1.0 / data[i];
		}
		r = (double)n / r;
		break;
	case RT_AGG_GEOMETRIC_MEAN:
		/* A running product, as the reference does: large sets can overflow to inf. */
		r = 1.0;
		for (i = 0; i < n; i++) {
			if (data[i] == 0.0) {
				*err = xstrdup("Attempted to take the geometric mean of a set containing a zero element");
				return -1;
			}
			r *= data[i];
		}
		r = pow(r, 1.0 / (double)n);
		break;
	case RT_AGG_MEDIAN:
		agg_sort(data, n);
		r = agg_median_sorted(data, n);
		break;
	case RT_AGG_MAD:
		agg_sort(data, n);
		r = agg_median_sorted(data, n);
		for (i = 0; i < n; i++)
			data[i] = fabs(data[i] - r);
		agg_sort(data, n);
		r = agg_median_sorted(data, n);
		break;
	case RT_AGG_STDDEV:
		r = sqrt(variance(data, n));
		break;
	case RT_AGG_VARIANCE:
		r = variance(data, n);
		break;
	case RT_AGG_SUM:
		r = sum(data, n);
		break;
	case RT_AGG_MINIMUM:
		/* Start from infinity (the reference uses DBL_MAX, wrong for a column of infinities); NaNs are skipped. */
		r = HUGE_VAL;
		for (i = 0; i < n; i++)
			if (r > data[i])
				r = data[i];
		break;
	case RT_AGG_MAXIMUM:
		r = -HUGE_VAL;
		for (i = 0; i < n; i++)
			if (r < data[i])
				r = data[i];
		break;
	case RT_AGG_FINAL:
		r = data[n - 1];
		break;
	case RT_AGG_PERCENTILE:
		if (!(param >= 0.0 && param <= 100.0)) {
			*err = xasprintf("Percentile %.25g is invalid (must be from 0 to 100)", param);
			return -1;
		}
		agg_sort(data, n);
		r = agg_percentile_sorted(data, n, param);
		break;
	default:
		*err = xasprintf("unknown aggregate function %d", (int)agg);
		return -1;
	}
	out[0] = r;
	return 1;
}

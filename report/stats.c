/*
 * stats.c - quartiles and CDF points (see stats.h).
 */
#include "report/stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void rep_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_double);
}

double rep_quantile(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);
	if (k + 1 >= n)
		return sorted[n - 1];
	return sorted[k] + (h - (double)k) * (sorted[k + 1] - sorted[k]);
}

rep_box rep_box_of(double *v, size_t n)
{
	rep_box b = {.n = n};
	if (n == 0)
		return b;
	rep_sort(v, n);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	b.min = v[0];
	b.max = v[n - 1];
	b.q1 = rep_quantile(v, n, 0.25);
	b.median = rep_quantile(v, n, 0.5);
	b.q3 = rep_quantile(v, n, 0.75);
	b.mean = sum / (double)n;
	return b;
}

void rep_cdf(const double *sorted, size_t n, void (*put)(void *arg, double x, double f), void *arg)
{
	if (n == 0)
		return;
	put(arg, sorted[0], 0);
	size_t m = n <= REP_CDF_POINTS ? n : REP_CDF_POINTS;
	for (size_t k = 0; k < m; k++) {
		/* k (n - 1) fits 64 bits for any n a run can have (< 2^54) */
		size_t i = m == n ? k : (size_t)((unsigned long long)k * (n - 1) / (REP_CDF_POINTS - 1));
		put(arg, sorted[i], (double)(i + 1) / (double)n);
	}
}

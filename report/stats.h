/*
 * stats.h - the summaries the figures draw: quartiles and CDF points
 * (prefix rep_).
 *
 * Quantiles interpolate linearly between order statistics (Hyndman and
 * Fan's type 7, the default of R and NumPy): with the n values sorted
 * x[0] <= ... <= x[n-1], q(p) = x[k] + (h - k) (x[k+1] - x[k]) where
 * h = (n - 1) p and k = floor(h). doc/report.md says so to its readers.
 */
#ifndef NCSIM_REPORT_STATS_H
#define NCSIM_REPORT_STATS_H

#include <stddef.h>

/* A CDF curve has at most this many points (plus its start at 0): enough for any figure's width. */
#define REP_CDF_POINTS 1000

/* A box plot's figures. */
typedef struct rep_box {
	size_t n;
	double min, q1, median, q3, max, mean;
} rep_box;

/* Sorts v[0..n) in ascending order. */
void rep_sort(double *v, size_t n);
/* Quantile p in [0, 1] of the sorted v[0..n) (n >= 1), type 7. */
double rep_quantile(const double *sorted, size_t n, double p);
/* Sorts v[0..n) and returns its box figures (all 0 when n is 0). */
rep_box rep_box_of(double *v, size_t n);

/*
 * The points of the empirical CDF of the sorted v[0..n): (x[i], (i + 1) / n)
 * for every i when n <= REP_CDF_POINTS, else for the REP_CDF_POINTS indices
 * i = floor(k (n - 1) / (REP_CDF_POINTS - 1)), k = 0 ... REP_CDF_POINTS - 1
 * (the first and the last value are always kept). Calls put(arg, x, F) for
 * each, after a first point (x[0], 0) where the curve leaves 0.
 */
void rep_cdf(const double *sorted, size_t n, void (*put)(void *arg, double x, double f), void *arg);

#endif

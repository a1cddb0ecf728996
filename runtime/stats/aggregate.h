/*
 * aggregate.h - the aggregate functions of coNCePTuaL log columns
 * (LANGUAGE.md §8.10; prefix agg_).
 *
 * A column collects raw values; "computing aggregates" turns them into final
 * values: all of them (RT_AGG_ALL), one summary value, or (value, tally)
 * pairs for a histogram. The numeric recipes follow the coNCePTuaL run-time
 * library so that logs agree to the last printed digit: sums run in logged
 * order, the variance is unbiased, the median of an even count is the mean
 * of the two middle values, and percentiles interpolate between order
 * statistics. ncsim's one deliberate difference: the 0th and 100th
 * percentiles are the minimum and maximum (LANGUAGE.md §13 item 9), not the
 * first and last logged values.
 */
#ifndef NCSIM_STATS_AGGREGATE_H
#define NCSIM_STATS_AGGREGATE_H

#include <stddef.h>

#include "ncsim/rt.h"

/* Cells a column occupies in a table: 2 for RT_AGG_HISTOGRAM (values, tallies), else 1. */
int agg_cells(enum rt_agg agg);
/* Header label of cell `cell` of a column, e.g. "(mean)", "(21th percentile)"; buf >= 64 bytes. Returns buf. */
const char *agg_label(enum rt_agg agg, double param, int cell, char *buf, size_t size);
/* Upper bound on the number of final values agg_apply makes from n raw values. */
size_t agg_max_out(enum rt_agg agg, size_t n);
/*
 * Applies agg (with its percentile param) to data[0..n), n >= 1, appending
 * the final values to out (room for agg_max_out). data may be reordered.
 * Returns the number of values written, or -1 with *err (heap string) for
 * the run-time errors of §8.10: differing values in a "THE" column, a zero
 * in a harmonic or geometric mean, an invalid percentile.
 */
long agg_apply(enum rt_agg agg, double param, double *data, size_t n, double *out, char **err);

/* Sorts data[0..n) ascending (NaNs last, -0 before +0). */
void agg_sort(double *data, size_t n);
/* Median of sorted[0..n), n >= 1. */
double agg_median_sorted(const double *sorted, size_t n);
/* Percentile p (0 <= p <= 100, checked by the caller) of sorted[0..n), n >= 1. */
double agg_percentile_sorted(const double *sorted, size_t n, double p);

#endif

/*
 * test_aggregate.c - aggregate functions of log columns (runtime/stats/aggregate.h).
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/stats/aggregate.h"
#include "tests/unit/unit.h"

/* Applies agg to a copy of v[0..n) and returns the single result. */
static double one(enum rt_agg agg, double param, const double *v, size_t n)
{
	double data[64], out[128];
	char *err = NULL;
	long got;

	memcpy(data, v, n * sizeof *v);
	got = agg_apply(agg, param, data, n, out, &err);
	CU_ASSERT_EQUAL(got, 1);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	return got == 1 ? out[0] : NAN;
}

/* Expects agg to fail on v with exactly `msg`. */
static void fails(enum rt_agg agg, double param, const double *v, size_t n, const char *msg)
{
	double data[64], out[128];
	char *err = NULL;

	memcpy(data, v, n * sizeof *v);
	CU_ASSERT_EQUAL(agg_apply(agg, param, data, n, out, &err), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_STRING_EQUAL(err, msg);
	free(err);
}

static const double d5[] = { 5, 1, 3, 9, 2 };

static void test_percentile(void)
{
	/* LANGUAGE.md §8.10: {5,1,3,9,2}: p=50 -> 3, p=1 -> 1.04; ncsim: p=0 -> minimum, p=100 -> maximum. */
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_PERCENTILE, 50, d5, 5), 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_PERCENTILE, 1, d5, 5), 1.04, 1e-12);
	CU_ASSERT_EQUAL(one(RT_AGG_PERCENTILE, 0, d5, 5), 1.0);
	CU_ASSERT_EQUAL(one(RT_AGG_PERCENTILE, 100, d5, 5), 9.0);
	/* h = 4*0.75+1 = 4: exactly x4 = 5; 90th: h = 4.6 -> 5 + 0.6*(9-5) = 7.4. */
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_PERCENTILE, 75, d5, 5), 5.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_PERCENTILE, 90, d5, 5), 7.4, 1e-12);
	/* §10.3: the 21st percentile of 1..5 is 1.84. */
	{
		const double v[] = { 1, 2, 3, 4, 5 };
		CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_PERCENTILE, 21, v, 5), 1.84, 1e-12);
	}
	/* One value: every percentile is that value. */
	{
		const double v[] = { 7 };
		CU_ASSERT_EQUAL(one(RT_AGG_PERCENTILE, 37, v, 1), 7.0);
		CU_ASSERT_EQUAL(one(RT_AGG_PERCENTILE, 99.9, v, 1), 7.0);
	}
	fails(RT_AGG_PERCENTILE, 101, d5, 5, "Percentile 101 is invalid (must be from 0 to 100)");
	fails(RT_AGG_PERCENTILE, -0.5, d5, 5, "Percentile -0.5 is invalid (must be from 0 to 100)");
	fails(RT_AGG_PERCENTILE, NAN, d5, 5, "Percentile nan is invalid (must be from 0 to 100)");
}

static void test_means(void)
{
	const double v[] = { 1, 2, 4 };

	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_MEAN, 0, d5, 5), 4.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_HARMONIC_MEAN, 0, v, 3), 3.0 / (1 + 0.5 + 0.25), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_GEOMETRIC_MEAN, 0, v, 3), 2.0, 1e-12);
	{
		const double z[] = { 3, 0, 1 };
		fails(RT_AGG_HARMONIC_MEAN, 0, z, 3,
		      "Attempted to take the harmonic mean of a set containing a zero element");
		fails(RT_AGG_GEOMETRIC_MEAN, 0, z, 3,
		      "Attempted to take the geometric mean of a set containing a zero element");
	}
}

static void test_median_mad(void)
{
	const double even[] = { 4, 1, 3, 2 };
	const double m[] = { 1, 1, 2, 2, 4, 6, 9 };

	CU_ASSERT_EQUAL(one(RT_AGG_MEDIAN, 0, d5, 5), 3.0);
	CU_ASSERT_EQUAL(one(RT_AGG_MEDIAN, 0, even, 4), 2.5);
	/* median 2; |x-2| = {1,1,0,0,2,4,7} -> median 1. */
	CU_ASSERT_EQUAL(one(RT_AGG_MAD, 0, m, 7), 1.0);
	/* {5,1,3,9,2}: median 3, deviations {2,2,0,6,1} -> 2. */
	CU_ASSERT_EQUAL(one(RT_AGG_MAD, 0, d5, 5), 2.0);
}

static void test_spread(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double single[] = { 42 };

	/* Mean 5, squared deviations sum to 32; unbiased: 32/7. */
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_VARIANCE, 0, v, 8), 32.0 / 7.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(one(RT_AGG_STDDEV, 0, v, 8), sqrt(32.0 / 7.0), 1e-12);
	CU_ASSERT_EQUAL(one(RT_AGG_VARIANCE, 0, single, 1), 0.0);
	CU_ASSERT_EQUAL(one(RT_AGG_STDDEV, 0, single, 1), 0.0);
}

static void test_simple(void)
{
	const double same[] = { 6, 6, 6 };
	const double neg[] = { -1, -7, -3 };

	CU_ASSERT_EQUAL(one(RT_AGG_SUM, 0, d5, 5), 20.0);
	CU_ASSERT_EQUAL(one(RT_AGG_MINIMUM, 0, d5, 5), 1.0);
	CU_ASSERT_EQUAL(one(RT_AGG_MAXIMUM, 0, d5, 5), 9.0);
	CU_ASSERT_EQUAL(one(RT_AGG_MAXIMUM, 0, neg, 3), -1.0);
	CU_ASSERT_EQUAL(one(RT_AGG_MINIMUM, 0, neg, 3), -7.0);
	CU_ASSERT_EQUAL(one(RT_AGG_FINAL, 0, d5, 5), 2.0);
	CU_ASSERT_EQUAL(one(RT_AGG_ONLY, 0, same, 3), 6.0);
	fails(RT_AGG_ONLY, 0, d5, 5, "Attempted to log more than one value in a \"THE\" column");
	{
		const double inf[] = { INFINITY, INFINITY };
		CU_ASSERT_TRUE(isinf(one(RT_AGG_MINIMUM, 0, inf, 2)));
	}
}

static void test_all_and_histogram(void)
{
	double data[8] = { 3, 1, 3, 2, 3, 1, 0.5, 2 }, out[16];
	char *err = NULL;
	long n;

	n = agg_apply(RT_AGG_ALL, 0, data, 8, out, &err);
	CU_ASSERT_EQUAL(n, 8);
	CU_ASSERT_EQUAL(memcmp(out, data, sizeof data), 0); /* logged order kept */
	n = agg_apply(RT_AGG_HISTOGRAM, 0, data, 8, out, &err);
	CU_ASSERT_EQUAL_FATAL(n, 8);
	{
		const double want[] = { 0.5, 1, 1, 2, 2, 2, 3, 3 };
		CU_ASSERT_EQUAL(memcmp(out, want, sizeof want), 0);
	}
	CU_ASSERT_EQUAL(agg_max_out(RT_AGG_HISTOGRAM, 8), 16);
	CU_ASSERT_EQUAL(agg_max_out(RT_AGG_ALL, 8), 8);
	CU_ASSERT_EQUAL(agg_max_out(RT_AGG_MEAN, 8), 1);
	CU_ASSERT_EQUAL(agg_apply(RT_AGG_MEAN, 0, data, 0, out, &err), 0);
}

static void test_labels(void)
{
	char b[64];
	static const struct { enum rt_agg agg; const char *label; } t[] = {
		{ RT_AGG_ALL, "(all data)" }, { RT_AGG_ONLY, "(only value)" }, { RT_AGG_MEAN, "(mean)" },
		{ RT_AGG_HARMONIC_MEAN, "(harm. mean)" }, { RT_AGG_GEOMETRIC_MEAN, "(geom. mean)" },
		{ RT_AGG_MEDIAN, "(median)" }, { RT_AGG_MAD, "(med. abs. dev.)" }, { RT_AGG_STDDEV, "(std. dev.)" },
		{ RT_AGG_VARIANCE, "(variance)" }, { RT_AGG_SUM, "(sum)" }, { RT_AGG_MINIMUM, "(minimum)" },
		{ RT_AGG_MAXIMUM, "(maximum)" }, { RT_AGG_FINAL, "(final)" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		CU_ASSERT_STRING_EQUAL(agg_label(t[i].agg, 0, 0, b, sizeof b), t[i].label);
		CU_ASSERT_EQUAL(agg_cells(t[i].agg), 1);
	}
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_HISTOGRAM, 0, 0, b, sizeof b), "(hist. values)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_HISTOGRAM, 0, 1, b, sizeof b), "(hist. tallies)");
	CU_ASSERT_EQUAL(agg_cells(RT_AGG_HISTOGRAM), 2);
	/* The reference's "th" for every number, and %.0f of the parameter. */
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 21, 0, b, sizeof b), "(21th percentile)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 1, 0, b, sizeof b), "(1th percentile)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 2, 0, b, sizeof b), "(2th percentile)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 33, 0, b, sizeof b), "(33th percentile)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 99.6, 0, b, sizeof b), "(100th percentile)");
	CU_ASSERT_STRING_EQUAL(agg_label(RT_AGG_PERCENTILE, 12.5, 0, b, sizeof b), "(12th percentile)");
}

static void test_sort(void)
{
	double v[] = { 3, NAN, -0.0, 0.0, -1, NAN, 0.0, -0.0 };

	agg_sort(v, 8);
	CU_ASSERT_EQUAL(v[0], -1);
	CU_ASSERT_TRUE(v[1] == 0 && signbit(v[1]) && signbit(v[2]));
	CU_ASSERT_TRUE(v[3] == 0 && !signbit(v[3]) && !signbit(v[4]));
	CU_ASSERT_EQUAL(v[5], 3);
	CU_ASSERT_TRUE(isnan(v[6]) && isnan(v[7]));
	CU_ASSERT_EQUAL(agg_median_sorted((const double[]){ 1, 2 }, 2), 1.5);
}

int main(void)
{
	static const ut_test tests[] = {
		{"percentile", test_percentile},
		{"means", test_means},
		{"median and MAD", test_median_mad},
		{"variance and std. dev.", test_spread},
		{"sum, min, max, final, only", test_simple},
		{"all data and histogram", test_all_and_histogram},
		{"labels", test_labels},
		{"sort order", test_sort},
		{NULL, NULL},
	};
	return ut_run("aggregate", tests);
}

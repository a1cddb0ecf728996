/*
 * test_stdlib_random.c - MT19937-64, the RANDOM_* built-ins (LANGUAGE.md
 * §5.5) and the synchronised random task (§9.8).
 *
 * Distribution checks use fixed seeds and accept a sample statistic within
 * 5 standard errors of its expected value, the standard error computed from
 * the sample size (so a correct generator fails with probability < 1e-6).
 */
#include "config.h"

#include "stdlib_test.h"

#define N 100000
#define SIGMAS 5.0

static struct ncsim_mt64 g; /* 2.5 KB: keep it off the test stack */

/* Mean and (unbiased) variance of x[0..n-1]. */
static void moments(const double *x, size_t n, double *mean, double *var)
{
	double s = 0.0, ss = 0.0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = ss / (double)(n - 1);
}

#define EXPECT_NEAR(got, want, se)                                                          \
	do {                                                                                    \
		double g_ = (got), w_ = (want), t_ = SIGMAS * (se);                                 \
		if (fabs(g_ - w_) > t_)                                                             \
			fprintf(stderr, "%s:%d: %s = %g, want %g +- %g\n", __FILE__, __LINE__, #got, g_, \
			        w_, t_);                                                                \
		CU_ASSERT_TRUE(fabs(g_ - w_) <= t_);                                                \
	} while (0)

static double sample[N];

static void test_mt64_reference(void)
{
	uint64_t x = 0;

	/* The standard MT19937-64 outputs for the default seed 5489. */
	ncsim_mt64_seed(&g, 5489);
	CU_ASSERT_EQUAL(ncsim_mt64_next(&g), UINT64_C(14514284786278117030));
	for (int i = 2; i <= 10000; i++)
		x = ncsim_mt64_next(&g);
	CU_ASSERT_EQUAL(x, UINT64_C(9981545732273789042));
}

static void test_mt64_streams(void)
{
	static struct ncsim_mt64 a, b;
	int same = 1, differ = 0;

	ncsim_mt64_seed_task(&a, 12345678, 3);
	ncsim_mt64_seed(&b, UINT64_C(12345678) * 1083743797 + 3);
	for (int i = 0; i < 1000; i++)
		same &= ncsim_mt64_next(&a) == ncsim_mt64_next(&b);
	CU_ASSERT_TRUE(same);
	ncsim_mt64_seed_task(&a, 12345678, 3);
	ncsim_mt64_seed_task(&b, 12345678, 4);
	for (int i = 0; i < 1000; i++)
		differ += ncsim_mt64_next(&a) != ncsim_mt64_next(&b);
	CU_ASSERT_TRUE(differ > 990);
	/* 63-bit and 53-bit draws are the top bits of the 64-bit one. */
	ncsim_mt64_seed(&a, 99);
	ncsim_mt64_seed(&b, 99);
	for (int i = 0; i < 1000; i++) {
		uint64_t w = ncsim_mt64_next(&a);

		if (i % 2) {
			CU_ASSERT_EQUAL(ncsim_mt64_next63(&b), (int64_t)(w >> 1));
		} else {
			double u = ncsim_mt64_res53(&b);

			CU_ASSERT_TRUE(u >= 0.0 && u < 1.0);
			CU_ASSERT_EQUAL(u, (double)(w >> 11) / 9007199254740992.0);
		}
	}
}

static void test_uniform(void)
{
	double mean, var;
	int out = 0;

	ncsim_mt64_seed_task(&g, 12345678, 0);
	for (int i = 0; i < N; i++) {
		ncsim_err e = NCSIM_ERR_INIT;
		int64_t v = ncsim_random_uniform_i(&g, 0, 100, &e);

		out += v < 0 || v >= 100 || e.failed;
		sample[i] = (double)v;
	}
	CU_ASSERT_EQUAL(out, 0);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, 49.5, sqrt(833.25 / N));
	EXPECT_NEAR(var, 833.25, sqrt((1.8 * 833.25 * 833.25 - 833.25 * 833.25) / N));
	for (int i = 0; i < N; i++) {
		double v = ncsim_random_uniform_f(&g, -10.0, 90.0, NULL);

		out += v < -10.0 || v >= 90.0;
		sample[i] = v;
	}
	CU_ASSERT_EQUAL(out, 0);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, 40.0, sqrt(10000.0 / 12 / N));
	/* Full int64 range: no overflow, both signs occur. */
	{
		int neg = 0;

		for (int i = 0; i < 1000; i++)
			neg += ncsim_random_uniform_i(&g, INT64_MIN, INT64_MAX, NULL) < 0;
		CU_ASSERT_TRUE(neg > 400 && neg < 600);
	}
	EXPECT_ERR(ncsim_random_uniform_i(&g, 5, 5, E),
	           "RANDOM_UNIFORM requires the upper bound to be greater than the lower bound");
	EXPECT_ERR(ncsim_random_uniform_f(&g, 6.0, 5.0, E), "RANDOM_UNIFORM requires");
}

static void test_gaussian(void)
{
	double mean, var, se_var = sqrt(2.0 * 1e4 / N);

	ncsim_mt64_seed_task(&g, 12345678, 1);
	for (int i = 0; i < N; i++)
		sample[i] = ncsim_random_gaussian_f(&g, 100.0, 10.0, NULL);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, 100.0, 10.0 / sqrt(N));
	EXPECT_NEAR(var, 100.0, se_var);
	/* The integer version truncates toward zero: the mean drops by about 1/2. */
	for (int i = 0; i < N; i++)
		sample[i] = (double)ncsim_random_gaussian_i(&g, 100, 10, NULL);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, 99.5, 10.0 / sqrt(N));
	for (int i = 0; i < N; i++)
		CU_ASSERT_EQUAL(sample[i], floor(sample[i]));
	EXPECT_ERR(ncsim_random_gaussian_f(&g, INFINITY, 1.0, E), "numeric operation");
}

static void test_poisson(void)
{
	double mean, var;
	int zero = 1;

	ncsim_mt64_seed_task(&g, 12345678, 2);
	for (int i = 0; i < N; i++)
		sample[i] = (double)ncsim_random_poisson_i(&g, 50, NULL);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, 50.0, sqrt(50.0 / N));
	EXPECT_NEAR(var, 50.0, sqrt((50.0 * (1 + 3 * 50.0) - 2500.0) / N));
	/* A mean above the 500 chunk exercises the split draw. */
	for (int i = 0; i < 2000; i++)
		sample[i] = (double)ncsim_random_poisson_i(&g, 2000, NULL);
	moments(sample, 2000, &mean, &var);
	EXPECT_NEAR(mean, 2000.0, sqrt(2000.0 / 2000));
	EXPECT_NEAR(var, 2000.0, sqrt((2000.0 * (1 + 3 * 2000.0) - 2000.0 * 2000.0) / 2000));
	EXPECT_I(ncsim_random_poisson_i(&g, 0, E), 0);
	/* The float version truncates its mean, as the C backend does. */
	for (int i = 0; i < 1000; i++)
		zero &= ncsim_random_poisson_f(&g, 0.9, NULL) == 0.0;
	CU_ASSERT_TRUE(zero);
	EXPECT_ERR(ncsim_random_poisson_i(&g, -1, E), "unable to take RANDOM_POISSON(-1); result is undefined");
	EXPECT_ERR(ncsim_random_poisson_f(&g, -0.5, E), "unable to take RANDOM_POISSON(-0.5)");
}

static void test_pareto(void)
{
	const double a = 2.0, lo = 30.0, hi = 70.0;
	const double la = pow(lo, a), ratio = pow(lo / hi, a);
	/* Moments of the bounded Pareto distribution for a = 2. */
	const double bmean = la / (1 - ratio) * a / (a - 1) * (1 / lo - 1 / hi);
	const double bsq = la / (1 - ratio) * a * log(hi / lo);
	double mean, var, p = 0.0;
	int out = 0;

	ncsim_mt64_seed_task(&g, 12345678, 5);
	/* Ordinary form (scale 30): P(X <= 60) = 1 - (30/60)^2 = 0.75, X >= 30. */
	for (int i = 0; i < N; i++) {
		double v = ncsim_random_pareto_f(&g, a, lo, lo, NULL);

		out += v < lo;
		p += v <= 60.0;
	}
	CU_ASSERT_EQUAL(out, 0);
	EXPECT_NEAR(p / N, 0.75, sqrt(0.75 * 0.25 / N));
	for (int i = 0; i < N; i++) {
		double v = ncsim_random_pareto_f(&g, a, lo, hi, NULL);

		out += v < lo || v > hi;
		sample[i] = v;
	}
	CU_ASSERT_EQUAL(out, 0);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, bmean, sqrt((bsq - bmean * bmean) / N));
	CU_ASSERT_DOUBLE_EQUAL(bmean, 42.0, 1e-9); /* the reference test's expected mean */
	for (int i = 0; i < N; i++) {
		int64_t v = ncsim_random_pareto_i(&g, 2, 30, 70, NULL);

		out += v < 30 || v > 70;
		sample[i] = (double)v;
	}
	CU_ASSERT_EQUAL(out, 0);
	moments(sample, N, &mean, &var);
	EXPECT_NEAR(mean, bmean, sqrt((bsq - bmean * bmean) / N));
	EXPECT_ERR(ncsim_random_pareto_f(&g, 0.0, 1.0, 1.0, E),
	           "unable to take RANDOM_PARETO(0, 1, 1); result is undefined");
	EXPECT_ERR(ncsim_random_pareto_i(&g, 2, 0, 5, E), "unable to take RANDOM_PARETO(2, 0, 5)");
	EXPECT_ERR(ncsim_random_pareto_i(&g, 2, 9, 5, E), "unable to take RANDOM_PARETO(2, 9, 5)");
}

static void test_random_task_formula(void)
{
	static struct ncsim_mt64 a, b;

	ncsim_mt64_seed(&a, 777);
	ncsim_mt64_seed(&b, 777);
	for (int i = 0; i < 1000; i++) {
		int64_t lo = i % 7, hi = lo + i % 13, x = lo + i % 5;
		int64_t r = ncsim_random_task(&a, lo, hi, INT64_MIN);

		CU_ASSERT_EQUAL(r, lo + ncsim_mt64_next63(&b) % (hi - lo + 1));
		if (hi > lo && x <= hi) {
			r = ncsim_random_task(&a, lo, hi, x);
			CU_ASSERT_EQUAL(r, lo + ((x - lo) + 1 + ncsim_mt64_next63(&b) % (hi - lo)) % (hi - lo + 1));
		}
	}
	/* Empty range, or only the excluded task: -1 and no draw. */
	CU_ASSERT_EQUAL(ncsim_random_task(&a, 5, 4, INT64_MIN), -1);
	CU_ASSERT_EQUAL(ncsim_random_task(&a, 5, 5, 5), -1);
	CU_ASSERT_EQUAL(ncsim_mt64_next(&a), ncsim_mt64_next(&b));
	CU_ASSERT_EQUAL(ncsim_random_task(&a, 5, 5, 6), 5);
	CU_ASSERT_EQUAL(ncsim_random_task(&a, 5, 5, -1), 5);
}

static void test_random_task_distribution(void)
{
	int64_t count[10] = { 0 };

	ncsim_mt64_seed(&g, 4242);
	for (int i = 0; i < N; i++) {
		int64_t r = ncsim_random_task(&g, 0, 9, 3);

		CU_ASSERT_FATAL(r >= 0 && r <= 9);
		count[r]++;
	}
	CU_ASSERT_EQUAL(count[3], 0);
	for (int t = 0; t < 10; t++)
		if (t != 3)
			EXPECT_NEAR((double)count[t] / N, 1.0 / 9, sqrt((1.0 / 9) * (8.0 / 9) / N));
}

int main(void)
{
	static const ut_test tests[] = {
		{ "MT19937-64 reference outputs", test_mt64_reference },
		{ "streams", test_mt64_streams },
		{ "RANDOM_UNIFORM", test_uniform },
		{ "RANDOM_GAUSSIAN", test_gaussian },
		{ "RANDOM_POISSON", test_poisson },
		{ "RANDOM_PARETO", test_pareto },
		{ "random task formula", test_random_task_formula },
		{ "random task distribution", test_random_task_distribution },
		{ NULL, NULL },
	};
	return ut_run("stdlib random", tests);
}

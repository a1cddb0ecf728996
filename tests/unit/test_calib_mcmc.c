/*
 * test_calib_mcmc.c - the ensemble sampler and the diagnostics of
 * calib/mcmc.h: split R-hat and the effective sample size against values
 * worked out by hand and against chains whose answer is known (iid draws,
 * AR(1)); the sampler on a correlated Gaussian and on a uniform box, checked
 * within Monte Carlo error from the ESS; determinism, independence of the
 * chains, early stops and the configuration errors.
 *
 * Monte Carlo checks use 4 standard errors: with the fixed seeds they are
 * deterministic, and a sampler off by a few percent in a variance fails them
 * (the standard errors are near 1%).
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "calib/mcmc.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ densities */

/* The 2-D Gaussian: means (1, -2), sds (1, 0.5), correlation 0.8. */
static const double mu[2] = {1, -2}, sd[2] = {1, 0.5}, rho = 0.8;

/* -1/2 q' S^-1 q with q = x - mu; S = [[1, .4], [.4, .25]], det S = .25 - .16 = .09. */
static double gauss2(const double *x, void *ctx)
{
	(void)ctx;
	double a = x[0] - mu[0], b = x[1] - mu[1];
	return -0.5 * (0.25 * a * a - 0.8 * a * b + b * b) / 0.09;
}

/* The box [-1, 3] x [2, 5]: 0 inside, -inf outside. */
static const double box_lo[2] = {-1, 2}, box_hi[2] = {3, 5};

static double box(const double *x, void *ctx)
{
	(void)ctx;
	for (int d = 0; d < 2; d++)
		if (!(x[d] >= box_lo[d] && x[d] <= box_hi[d]))
			return -INFINITY;
	return 0;
}

/* Counts its calls; sets *stop when the count reaches stop_at. */
typedef struct stopper {
	volatile int *stop;
	size_t calls, stop_at;
} stopper;

static double gauss2_stopping(const double *x, void *ctx)
{
	stopper *s = ctx;
	if (++s->calls == s->stop_at)
		*s->stop = 1;
	return gauss2(x, NULL);
}

/* ------------------------------------------------------------ helpers */

/* nseq starting points around centre: centre[d] + scale[d] * U(-1/2, 1/2) (heap). */
static double *spread(size_t nseq, const double *centre, const double *scale, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	double *init = xcalloc(nseq, 2 * sizeof *init);
	for (size_t i = 0; i < 2 * nseq; i++)
		init[i] = centre[i % 2] + scale[i % 2] * (gsl_rng_uniform(r) - 0.5);
	gsl_rng_free(r);
	return init;
}

static cal_mcmc_cfg gauss_cfg(void)
{
	return (cal_mcmc_cfg){
		.dim = 2, .chains = 4, .walkers = 16, .burn = 500, .steps = 2000, .thin = 1, .a = 2, .seed = 7};
}

/* Runs cfg on gauss2 from points spread over mu +- 1.5 sd; asserts success. */
static void run_gauss(const cal_mcmc_cfg *cfg, cal_mcmc_out *out)
{
	double scale[2] = {3 * sd[0], 3 * sd[1]};
	double *init = spread(cfg->chains * cfg->walkers, mu, scale, 11);
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_mcmc_run(cfg, gauss2, NULL, init, out, NULL, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	free(init);
}

typedef double (*stat_fn)(const double *x);

/*
 * Asserts that the mean of f over every sample of out is `truth` within 4
 * Monte Carlo standard errors, sd(f) / sqrt(ESS(f)), the ESS taken from the
 * series of f itself. Returns that standard error.
 */
static double check_mc(const cal_mcmc_out *out, stat_fn f, double truth, const char *what)
{
	size_t n = out->nseq * out->kept;
	double *v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = f(out->x + i * out->dim);
	double mean = gsl_stats_mean(v, 1, n), s = gsl_stats_sd_m(v, 1, n, mean);
	double ess = cal_ess(v, 1, out->nseq, out->kept, 0), se = s / sqrt(ess);
	if (!(fabs(mean - truth) < 4 * se))
		fprintf(stderr, "%s: %g, want %g +- 4 * %g (ESS %g)\n", what, mean, truth, se, ess);
	CU_ASSERT(fabs(mean - truth) < 4 * se);
	free(v);
	return se;
}

static double x0(const double *x) { return x[0]; }
static double x1(const double *x) { return x[1]; }
static double sq0(const double *x) { return (x[0] - mu[0]) * (x[0] - mu[0]); }
static double sq1(const double *x) { return (x[1] - mu[1]) * (x[1] - mu[1]); }
/* The product of the standardized coordinates: its mean is the correlation. */
static double zz(const double *x) { return (x[0] - mu[0]) / sd[0] * (x[1] - mu[1]) / sd[1]; }

/*
 * m AR(1) sequences of n, x_t = phi x_{t-1} + e_t with e_t ~ N(0, 1), each
 * started from the stationary law N(0, 1/(1 - phi^2)); phi = 0 gives iid
 * N(0, 1) draws (heap, laid out as cal_mcmc_out with dim 1).
 */
static double *ar1_chains(size_t m, size_t n, double phi, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	double *x = xcalloc(m * n, sizeof *x);
	for (size_t s = 0; s < m; s++) {
		double v = gsl_ran_gaussian(r, 1 / sqrt(1 - phi * phi));
		for (size_t t = 0; t < n; t++) {
			x[s * n + t] = v;
			v = phi * v + gsl_ran_ugaussian(r);
		}
	}
	gsl_rng_free(r);
	return x;
}

/* ------------------------------------------------------------ R-hat */

/*
 * Two sequences of 4, one coordinate: 1 2 3 4 and 2 4 6 8. Halves (n = 2):
 * (1,2) (3,4) (2,4) (6,8), means 1.5 3.5 3 7, variances .5 .5 2 2, so
 * W = 5/4. The means' mean is 15/4, deviations -9/4 -1/4 -3/4 13/4, squares
 * summing to (81 + 1 + 9 + 169)/16 = 65/4, so B/n = 65/12.
 * var+ = 1/2 * 5/4 + 65/12 = 145/24 and R = sqrt(145/24 / (5/4)) = sqrt(29/6).
 * With a fifth sample in the middle of each (100 and -50) the middle one is
 * dropped and R is the same.
 */
static void test_rhat_by_hand(void)
{
	const double four[] = {1, 2, 3, 4, 2, 4, 6, 8};
	const double five[] = {1, 2, 100, 3, 4, 2, 4, -50, 6, 8};
	CU_ASSERT_DOUBLE_EQUAL(cal_rhat(four, 1, 2, 4, 0), sqrt(29.0 / 6), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cal_rhat(five, 1, 2, 5, 0), sqrt(29.0 / 6), 1e-12);
	/* As coordinate 1 of 2-D samples (coordinate 0 all zeros): same value, constant coordinate 0 gives 1. */
	double two[16] = {0};
	for (int i = 0; i < 8; i++)
		two[2 * i + 1] = four[i];
	CU_ASSERT_DOUBLE_EQUAL(cal_rhat(two, 2, 2, 4, 1), sqrt(29.0 / 6), 1e-12);
	CU_ASSERT_EQUAL(cal_rhat(two, 2, 2, 4, 0), 1);
}

static void test_rhat_edges(void)
{
	const double x[] = {1, 2, 3, 1, 2, 3};
	CU_ASSERT(isnan(cal_rhat(x, 1, 2, 3, 0))); /* fewer than 4 samples */
	/* Each half constant, halves differing: W = 0 < B. */
	const double steps[] = {1, 1, 1, 1, 2, 2, 2, 2};
	CU_ASSERT(isinf(cal_rhat(steps, 1, 2, 4, 0)) && cal_rhat(steps, 1, 2, 4, 0) > 0);
	const double flat[] = {5, 5, 5, 5, 5, 5, 5, 5};
	CU_ASSERT_EQUAL(cal_rhat(flat, 1, 2, 4, 0), 1);
}

/* 8 iid N(0,1) sequences of 1,000: R-hat near 1; shifting half of them by 1 sd makes it large. */
static void test_rhat_iid_shifted(void)
{
	enum { M = 8, N = 1000 };
	double *x = ar1_chains(M, N, 0, 3);
	double iid = cal_rhat(x, 1, M, N, 0);
	CU_ASSERT(iid > 0.99 && iid < 1.01);
	for (size_t i = 0; i < M * N / 2; i++)
		x[i] += 1;
	/* var+ ~ 1 + 1/4 (the means' variance: half at 0, half at 1, m - 1 denominator) over W ~ 1. */
	double shifted = cal_rhat(x, 1, M, N, 0);
	CU_ASSERT(shifted > 1.1);
	/* A trend inside each sequence shows in the split halves even when every sequence is alike. */
	free(x);
	x = ar1_chains(M, N, 0, 4);
	for (size_t i = 0; i < M * N; i++)
		x[i] += i % N < N / 2 ? 0 : 1;
	CU_ASSERT(cal_rhat(x, 1, M, N, 0) > 1.1);
	free(x);
}

/* ------------------------------------------------------------ ESS */

/*
 * Two sequences of 6: 0 0 0 1 1 1 and 1 1 1 2 2 2 (means 1/2 and 3/2, the
 * same centred values -1/2 x3, +1/2 x3, hence the same autocovariances with
 * denominator 6): acov(0..5) = 1/4, 1/8, 0, -1/8, -1/12, -1/24
 * (products summed: 6/4, 3/4, 0, -3/4, -2/4, -1/4).
 * W = 1/4 * 6/5 = 3/10; B/n = variance of (1/2, 3/2) = 1/2;
 * var+ = 5/6 * 3/10 + 1/2 = 3/4. rho(t) = 1 - (3/10 - acov(t)) / (3/4):
 * rho = 1, 23/30, 3/5, 13/30, 22/45, 49/90. Pairs: 53/30, 31/30, 31/30
 * (all positive, none above the one before). tau = -1 + 2 * 115/30 = 20/3,
 * ESS = 12 / tau = 9/5 (the cap 12 log10 12 = 12.95 does not bind).
 */
static void test_ess_by_hand(void)
{
	const double x[] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2};
	CU_ASSERT_DOUBLE_EQUAL(cal_ess(x, 1, 2, 6, 0), 9.0 / 5, 1e-9);
	/* The same values as coordinate 1 of 2-D samples whose coordinate 0 is noise. */
	double two[24];
	for (int i = 0; i < 12; i++) {
		two[2 * i] = sin(i * 1.7);
		two[2 * i + 1] = x[i];
	}
	CU_ASSERT_DOUBLE_EQUAL(cal_ess(two, 2, 2, 6, 1), 9.0 / 5, 1e-9);
	/*
	 * One sequence 0 0 0 1 1 1: no B, var+ = 5/6 * 3/10 = 1/4, rho(1) = 1 -
	 * (3/10 - 1/8)/(1/4) = 3/10, pair 13/10; rho(2) = -1/5, rho(3) = -7/10,
	 * the second pair is negative: tau = -1 + 2 * 13/10 = 8/5, ESS = 6 * 5/8.
	 */
	CU_ASSERT_DOUBLE_EQUAL(cal_ess(x, 1, 1, 6, 0), 30.0 / 8, 1e-9);
	/*
	 * Alternating 1 -1 1 -1 1 -1 1 -1: acov(1) = -7/8, W = 8/7, var+ = 1,
	 * rho(1) = 1 - (8/7 + 7/8) < -1: the first pair is not positive, tau = -1,
	 * and the ESS is the cap 8 log10 8.
	 */
	const double alt[] = {1, -1, 1, -1, 1, -1, 1, -1};
	CU_ASSERT_DOUBLE_EQUAL(cal_ess(alt, 1, 1, 8, 0), 8 * log10(8.0), 1e-9);
	CU_ASSERT(isnan(cal_ess(x, 1, 4, 3, 0)));          /* fewer than 4 samples */
	const double flat[] = {2, 2, 2, 2, 2, 2, 2, 2};
	CU_ASSERT(isnan(cal_ess(flat, 1, 2, 4, 0)));       /* no variance at all */
}

/* 4 sequences of 5,000 iid N(0,1) draws: the ESS is the sample count within 15%. */
static void test_ess_iid(void)
{
	enum { M = 4, N = 5000 };
	double *x = ar1_chains(M, N, 0, 5);
	double ess = cal_ess(x, 1, M, N, 0);
	CU_ASSERT(fabs(ess / (M * N) - 1) < 0.15);
	free(x);
}

/*
 * 4 AR(1) sequences of 20,000 with phi = 0.9: tau = (1 + phi)/(1 - phi) = 19, so the
 * ESS should be 80,000 / 19 = 4,211 within 25%.
 */
static void test_ess_ar1(void)
{
	enum { M = 4, N = 20000 };
	const double phi = 0.9;
	double *x = ar1_chains(M, N, phi, 9);
	double want = M * N * (1 - phi) / (1 + phi), ess = cal_ess(x, 1, M, N, 0);
	CU_ASSERT(fabs(ess / want - 1) < 0.25);
	free(x);
}

/* 32 sequences of 3,000 take well under a second (the FFT's padded length is 8,192). */
static void test_ess_fast(void)
{
	enum { M = 32, N = 3000 };
	double *x = xcalloc(M * N, sizeof *x);
	for (size_t i = 0; i < M * N; i++)
		x[i] = sin((double)i * 0.37) + (double)(i % 7);
	clock_t t0 = clock();
	for (int rep = 0; rep < 5; rep++)
		CU_ASSERT(cal_ess(x, 1, M, N, 0) > 0);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC / 5;
	CU_ASSERT(secs < 0.25);
	free(x);
}

/* ------------------------------------------------------------ the sampler */

static void test_gauss(void)
{
	cal_mcmc_cfg cfg = gauss_cfg();
	cal_mcmc_out out;
	run_gauss(&cfg, &out);
	CU_ASSERT_EQUAL(out.nseq, 64);
	CU_ASSERT_EQUAL(out.kept, 2000);
	CU_ASSERT_EQUAL(out.dim, 2);
	/* The starting points, then one proposal per walker per iteration. */
	CU_ASSERT_EQUAL(out.evals, 64 * (1 + 500 + 2000));
	CU_ASSERT(out.accept > 0.4 && out.accept < 0.9);
	check_mc(&out, x0, mu[0], "mean x0");
	check_mc(&out, x1, mu[1], "mean x1");
	check_mc(&out, sq0, sd[0] * sd[0], "variance x0");
	check_mc(&out, sq1, sd[1] * sd[1], "variance x1");
	double se = check_mc(&out, zz, rho, "correlation");
	CU_ASSERT(se < 0.02); /* enough effective samples for the checks to mean something */
	for (size_t j = 0; j < 2; j++) {
		double r = cal_rhat(out.x, 2, out.nseq, out.kept, j);
		CU_ASSERT(r < 1.05);
	}
	/* The stored log densities are those of the stored points. */
	for (size_t i = 0; i < out.nseq * out.kept; i += 997)
		CU_ASSERT_EQUAL(out.logp[i], gauss2(out.x + i * 2, NULL));
	cal_mcmc_free(&out);
	CU_ASSERT_PTR_NULL(out.x);
}

/*
 * The same Gaussian with 80% differential-evolution moves (what ncsim
 * calibrate --bayes uses): the moments still agree within Monte Carlo error,
 * so the move keeps the target (a wrong acceptance rule shows here), and
 * the correlation's standard error is no worse than the stretch move's.
 */
static void test_gauss_de(void)
{
	cal_mcmc_cfg cfg = gauss_cfg();
	cfg.de = 0.8;
	cal_mcmc_out out;
	run_gauss(&cfg, &out);
	CU_ASSERT_EQUAL(out.evals, 64 * (1 + 500 + 2000));
	check_mc(&out, x0, mu[0], "DE: mean x0");
	check_mc(&out, x1, mu[1], "DE: mean x1");
	check_mc(&out, sq0, sd[0] * sd[0], "DE: variance x0");
	check_mc(&out, sq1, sd[1] * sd[1], "DE: variance x1");
	CU_ASSERT(check_mc(&out, zz, rho, "DE: correlation") < 0.02);
	for (size_t j = 0; j < 2; j++)
		CU_ASSERT(cal_rhat(out.x, 2, out.nseq, out.kept, j) < 1.05);
	cal_mcmc_free(&out);
	/* A share outside [0, 1] is refused. */
	cfg.de = 1.5;
	char *err = NULL;
	double init[64 * 2] = {0};
	CU_ASSERT_EQUAL(cal_mcmc_run(&cfg, gauss2, NULL, init, &out, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "differential-evolution"));
	free(err);
}

static int same_samples(const cal_mcmc_out *a, const cal_mcmc_out *b)
{
	size_t n = a->nseq * a->kept;
	return a->nseq == b->nseq && a->kept == b->kept && !memcmp(a->x, b->x, n * a->dim * sizeof *a->x) &&
	       !memcmp(a->logp, b->logp, n * sizeof *a->logp);
}

static void test_determinism(void)
{
	cal_mcmc_cfg cfg = gauss_cfg();
	cfg.chains = 2;
	cfg.burn = 20;
	cfg.steps = 60;
	cfg.thin = 3;
	cal_mcmc_out a, b, c, one;
	run_gauss(&cfg, &a);
	run_gauss(&cfg, &b);
	CU_ASSERT_EQUAL(a.kept, 20);
	CU_ASSERT(same_samples(&a, &b));
	CU_ASSERT_EQUAL(a.accept, b.accept);
	cfg.seed = 8;
	run_gauss(&cfg, &c);
	CU_ASSERT(!same_samples(&a, &c));
	/* Chain 0 alone (same starting points for its walkers) is chain 0 of the two. */
	cfg.seed = 7;
	cfg.chains = 1;
	run_gauss(&cfg, &one);
	size_t n0 = one.nseq * one.kept;
	CU_ASSERT(!memcmp(one.x, a.x, n0 * 2 * sizeof *a.x));
	/* ... and chain 1 draws from another stream than chain 0 (same walkers, other samples). */
	CU_ASSERT(memcmp(a.x + n0 * 2, a.x, n0 * 2 * sizeof *a.x) != 0);
	cal_mcmc_free(&a);
	cal_mcmc_free(&b);
	cal_mcmc_free(&c);
	cal_mcmc_free(&one);
}

/*
 * A stop raised during iteration 30 (the 16 starting points, then 16 calls
 * an iteration: call 16 + 29 * 16 + 5) ends the run after that iteration:
 * with burn 10, iterations 11..30 are kept, 20 samples equal to the first
 * 20 of the run without a stop.
 */
static void test_stop(void)
{
	cal_mcmc_cfg cfg = gauss_cfg();
	cfg.chains = 1;
	cfg.burn = 10;
	cfg.steps = 100;
	double scale[2] = {3, 1.5};
	double *init = spread(16, mu, scale, 11);
	volatile int stop = 0;
	stopper st = {.stop = &stop, .stop_at = 16 + 29 * 16 + 5};
	cal_mcmc_out full, part;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_mcmc_run(&cfg, gauss2, NULL, init, &full, NULL, &err), 0);
	CU_ASSERT_EQUAL(cal_mcmc_run(&cfg, gauss2_stopping, &st, init, &part, &stop, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_EQUAL(part.kept, 20);
	CU_ASSERT_EQUAL(part.evals, 16 + 30 * 16);
	for (size_t s = 0; s < 16; s++)
		CU_ASSERT(!memcmp(part.x + s * 20 * 2, full.x + s * 100 * 2, 20 * 2 * sizeof *part.x));
	/* Stopped before the first iteration: nothing kept, nothing lost. */
	cal_mcmc_out none;
	CU_ASSERT_EQUAL(cal_mcmc_run(&cfg, gauss2, NULL, init, &none, &stop, &err), 0);
	CU_ASSERT_EQUAL(none.kept, 0);
	CU_ASSERT_EQUAL(none.evals, 16);
	cal_mcmc_free(&none);
	cal_mcmc_free(&full);
	cal_mcmc_free(&part);
	free(init);
}

/* The box [-1, 3] x [2, 5]: every sample inside, the means at the centre (1, 3.5), R-hat near 1. */
static void test_box(void)
{
	cal_mcmc_cfg cfg = {.dim = 2, .chains = 2, .walkers = 8, .burn = 200, .steps = 3000, .thin = 2, .a = 2, .seed = 1};
	const double centre[2] = {1, 3.5}, scale[2] = {3.9, 2.9};
	double *init = spread(16, centre, scale, 4);
	cal_mcmc_out out;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_mcmc_run(&cfg, box, NULL, init, &out, NULL, &err), 0);
	CU_ASSERT_EQUAL(out.kept, 1500);
	int outside = 0;
	for (size_t i = 0; i < out.nseq * out.kept; i++)
		outside += box(out.x + i * 2, NULL) != 0;
	CU_ASSERT_EQUAL(outside, 0);
	check_mc(&out, x0, centre[0], "box mean x0");
	check_mc(&out, x1, centre[1], "box mean x1");
	CU_ASSERT(cal_rhat(out.x, 2, out.nseq, out.kept, 0) < 1.05);
	CU_ASSERT(cal_rhat(out.x, 2, out.nseq, out.kept, 1) < 1.05);
	cal_mcmc_free(&out);
	free(init);
}

/* ------------------------------------------------------------ errors */

/* Runs cfg on the box from points at its centre, except `bad` (when < nseq) at (10, 10). */
static void expect_error(const cal_mcmc_cfg *cfg, size_t bad, const char *want)
{
	size_t nseq = cfg->chains * cfg->walkers;
	double *init = xcalloc(nseq ? nseq : 1, 2 * sizeof *init);
	for (size_t s = 0; s < nseq; s++) {
		init[2 * s] = s == bad ? 10 : 1;
		init[2 * s + 1] = s == bad ? 10 : 3.5;
	}
	cal_mcmc_out out;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_mcmc_run(cfg, box, NULL, init, &out, NULL, &err), -1);
	CU_ASSERT_PTR_NULL(out.x);
	UT_TAKE_ERROR(err, want);
	free(init);
}

/* The settings cal_mcmc_run refuses; the good one is 2-D, 2 chains of 6 walkers, 10 steps, thin 1, a = 2. */
static void test_errors(void)
{
	static const struct {
		size_t dim, chains, walkers, steps, thin;
		double a;
		size_t bad; /* the sequence that starts outside the box (>= 12: none) */
		const char *want;
	} cases[] = {
		{2, 2, 7, 10, 1, 2, 99,
		 "mcmc: the number of walkers must be even (the two halves of an ensemble move in turn), not 7"},
		{2, 2, 4, 10, 1, 2, 99, "mcmc: 4 walkers are too few for 2 parameters (at least 2 * dim + 2 = 6)"},
		/* Sequence 9 is chain 1, walker 3. */
		{2, 2, 6, 10, 1, 2, 9,
		 "mcmc: the starting point of sequence 9 (chain 1, walker 3) has log density -inf: it must be inside the support"},
		{2, 2, 6, 10, 0, 2, 99, "mcmc: thin must be at least 1"},
		{2, 2, 6, 10, 11, 2, 99, "mcmc: 10 steps keep no sample with thin 11 (steps must be at least thin)"},
		{2, 2, 6, 0, 1, 2, 99, "mcmc: at least 1 step after the burn-in is needed"},
		{2, 2, 6, 10, 1, 1, 99, "mcmc: the stretch scale a must be a number greater than 1, not 1"},
		{2, 2, 6, 10, 1, NAN, 99, "mcmc: the stretch scale a must be a number greater than 1, not nan"},
		{0, 2, 6, 10, 1, 2, 99, "mcmc: no parameter to sample (dim is 0)"},
		{2, 0, 6, 10, 1, 2, 99, "mcmc: at least 1 chain is needed"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cal_mcmc_cfg c = {.dim = cases[i].dim, .chains = cases[i].chains, .walkers = cases[i].walkers,
		                  .steps = cases[i].steps, .thin = cases[i].thin, .a = cases[i].a};
		expect_error(&c, cases[i].bad, cases[i].want);
	}
}

int main(void)
{
	static const ut_test diag[] = {
		{"R-hat by hand", test_rhat_by_hand},
		{"R-hat edges", test_rhat_edges},
		{"R-hat iid and shifted", test_rhat_iid_shifted},
		{"ESS by hand", test_ess_by_hand},
		{"ESS iid", test_ess_iid},
		{"ESS AR(1)", test_ess_ar1},
		{"ESS fast", test_ess_fast},
		{NULL, NULL},
	};
	static const ut_test sampler[] = {
		{"correlated Gaussian", test_gauss},
		{"correlated Gaussian, differential evolution", test_gauss_de},
		{"determinism", test_determinism},
		{"stop", test_stop},
		{"uniform box", test_box},
		{"errors", test_errors},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"diagnostics", diag, NULL, NULL},
		{"sampler", sampler, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

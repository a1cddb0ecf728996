/*
 * test_calib_optim.c - the optimizers of calib/optim.h: the Parzen estimator
 * and the mixture of product kernels against densities worked out by hand,
 * TPE's proposals in both forms (a ridge that only the multivariate one
 * follows), every optimizer on a quadratic bowl, and the contract of
 * cal_optimize (budget, batches, stop, failed evaluations, determinism, names
 * and settings).
 *
 * The bowl checks are convergence checks, not pinned figures: each bound is
 * loose enough to hold for every seed from 1 to 20, and for all but random and
 * esch tight enough that an optimizer ignoring the losses would fail it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/optim.h"
#include "tests/unit/unit.h"

/* The optimizers of optim.h, in the order of cal_optim_names. */
static const char *const all_names[] = {"random", "grid", "tpe", "tpe-univariate", "neldermead", "sbplx",
                                        "bobyqa", "crs2", "direct-l", "esch", "isres", NULL};
/* all_names[NLOPT_FIRST..] are NLopt's, all_names[NLOPT_GLOBAL..] its global algorithms. */
enum { NLOPT_FIRST = 4, NLOPT_GLOBAL = 7 };

/* ------------------------------------------------------------ a recording objective */

typedef double (*loss_fn)(const double *u, size_t dim);

/* What eval saw: every point, every call's size, the best loss; stops at call `stop_at` (1-based). */
typedef struct rec {
	size_t dim;
	loss_fn f;
	VEC(double) pts;
	size_t evals, calls, max_k, stop_at;
	int out_of_cube;
	double best;
} rec;

static int rec_eval(void *ctx, const double *u, size_t k, double *loss)
{
	rec *r = ctx;
	r->calls++;
	if (k > r->max_k)
		r->max_k = k;
	for (size_t j = 0; j < k; j++) {
		for (size_t d = 0; d < r->dim; d++) {
			double x = u[j * r->dim + d];
			r->out_of_cube |= !(x >= 0 && x <= 1);
			VEC_PUSH(&r->pts, x);
		}
		loss[j] = r->f(u + j * r->dim, r->dim);
		if (loss[j] < r->best)
			r->best = loss[j];
	}
	r->evals += k;
	return r->stop_at && r->calls >= r->stop_at ? -1 : 0;
}

/* The 2-D bowl with its minimum 0 at (0.3, 0.7). */
static double bowl(const double *u, size_t dim)
{
	(void)dim;
	return (u[0] - 0.3) * (u[0] - 0.3) + (u[1] - 0.7) * (u[1] - 0.7);
}

/* The bowl, but a failed evaluation (+inf) in the half u[0] > 0.6 and NaN where u[1] < 0.1. */
static double bowl_holes(const double *u, size_t dim)
{
	if (u[0] > 0.6)
		return INFINITY;
	if (u[1] < 0.1)
		return NAN;
	return bowl(u, dim);
}

/* 1-D: |u - 0.3|. */
static double line(const double *u, size_t dim)
{
	(void)dim;
	return fabs(u[0] - 0.3);
}

static double always_inf(const double *u, size_t dim)
{
	(void)u;
	(void)dim;
	return INFINITY;
}

static void rec_init(rec *r, size_t dim, loss_fn f)
{
	*r = (rec){.dim = dim, .f = f, .best = INFINITY};
}

/* Runs optimizer `name` (other settings from cal_optcfg_default unless given) into r; its return code. */
static int run(const char *name, uint64_t seed, size_t budget, size_t batch, rec *r)
{
	cal_optcfg c;
	cal_optcfg_default(&c);
	c.name = name;
	c.seed = seed;
	c.budget = budget;
	c.batch = batch;
	c.starts = 4; /* the local NLopt algorithms as a multi-start: seeds matter, holes are escaped */
	char *err = NULL;
	int rc = cal_optimize(&c, r->dim, rec_eval, r, &err);
	if (err)
		fprintf(stderr, "%s: %s\n", name, err);
	free(err);
	return rc;
}

/* ------------------------------------------------------------ Parzen estimator */

/*
 * One observation at 0.5 plus the prior: the sorted centres are 0.5, 0.5, so
 * both raw widths are 0; the magic clip lifts the observation's to
 * 1/min(100, 1 + 2) = 1/3, and the prior's is 1. Weights 1/2 each.
 * Truncated normal on [0,1]: phi((x - mu)/s) / (s Z), Z = Phi((1-mu)/s) - Phi(-mu/s):
 *   observation: Z1 = Phi(1.5) - Phi(-1.5) = 0.8663855975
 *   prior:       Z2 = Phi(0.5) - Phi(-0.5) = 0.3829249225
 * f(0.5)  = 1/2 * 3 * 0.3989422804 / Z1 + 1/2 * 0.3989422804 / Z2
 *         = 0.6907010254 + 0.5209144886 = 1.2116155140
 * f(0)    = 1/2 * 3 * phi(1.5) / Z1 + 1/2 * phi(0.5) / Z2
 *         = 1/2 * 3 * 0.1295175957 / Z1 + 1/2 * 0.3520653268 / Z2
 *         = 0.2242377921 + 0.4597054227 = 0.6839432148   (= f(1) by symmetry)
 * f(0.25) = 1/2 * 3 * phi(0.75) / Z1 + 1/2 * phi(0.25) / Z2
 *         = 1/2 * 3 * 0.3011374322 / Z1 + 1/2 * 0.3866681168 / Z2
 *         = 0.5213684871 + 0.5048876347 = 1.0262561218
 */
static void test_parzen_one(void)
{
	cal_parzen p;
	double x = 0.5;
	cal_parzen_fit(&p, &x, 1);
	CU_ASSERT_EQUAL(p.n, 2);
	CU_ASSERT_DOUBLE_EQUAL(p.mu[0], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.mu[1], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 1.0 / 3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[1], 1.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.w[0], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.w[1], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, 0.5), 1.2116155140, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, 0.0), 0.6839432148, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, 1.0), 0.6839432148, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, 0.25), 1.0262561218, 1e-9);
	/* outside [0,1] the truncated mixture has no mass */
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, -0.01), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(cal_parzen_pdf(&p, 1.01), 0, 0);
	cal_parzen_free(&p);
	CU_ASSERT_PTR_NULL(p.mu);
}

/*
 * Observations 0.9, 0.1, 0.2 and the prior's 0.5, sorted 0.1 0.2 0.5 0.9:
 *   0.1: only its right neighbour counts (the ends are no neighbours): 0.1
 *   0.2: max(0.2 - 0.1, 0.5 - 0.2) = 0.3
 *   0.9: only its left neighbour: 0.9 - 0.5 = 0.4
 *   the clip 1/min(100, 1 + 4) = 0.2 lifts 0.1 to 0.2; the prior gets 1.
 * Weights 1/4 each; sigmas come back in the observations' order.
 */
static void test_parzen_widths(void)
{
	cal_parzen p;
	double x[] = {0.9, 0.1, 0.2};
	cal_parzen_fit(&p, x, 3);
	CU_ASSERT_EQUAL(p.n, 4);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 0.4, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[1], 0.2, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[2], 0.3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[3], 1.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.mu[3], 0.5, 0);
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_DOUBLE_EQUAL(p.w[i], 0.25, 0);
	cal_parzen_free(&p);
}

/*
 * 150 observations all at 0.3: the clip stops at 1/100 (not 1/152). The ties
 * keep their order, so the first 149 have two neighbours at distance 0 and get
 * 0.01; the last one's right neighbour is the prior at 0.5: 0.2.
 */
static void test_parzen_clip(void)
{
	double x[150];
	for (size_t i = 0; i < 150; i++)
		x[i] = 0.3;
	cal_parzen p;
	cal_parzen_fit(&p, x, 150);
	for (size_t i = 0; i < 149; i++)
		CU_ASSERT_DOUBLE_EQUAL(p.sigma[i], 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[149], 0.2, 1e-15);
	cal_parzen_free(&p);
}

/* The density integrates to 1 over [0,1] (composite Simpson, 4000 intervals), for several data sets. */
static void test_parzen_integral(void)
{
	static const double sets[][6] = {
		{0.5}, {0.0, 1.0}, {0.01, 0.02, 0.03}, {0.1, 0.2, 0.9, 0.95, 0.5, 0.5}, {0.999},
	};
	static const size_t sizes[] = {1, 2, 3, 6, 1};
	for (size_t s = 0; s < 6; s++) {
		cal_parzen p;
		cal_parzen_fit(&p, s < 5 ? sets[s] : NULL, s < 5 ? sizes[s] : 0); /* s = 5: the prior alone */
		const size_t m = 4000;
		double h = 1.0 / m, sum = cal_parzen_pdf(&p, 0) + cal_parzen_pdf(&p, 1);
		for (size_t i = 1; i < m; i++)
			sum += (i % 2 ? 4 : 2) * cal_parzen_pdf(&p, i * h);
		CU_ASSERT_DOUBLE_EQUAL(sum * h / 3, 1.0, 1e-6);
		cal_parzen_free(&p);
	}
}

/* ------------------------------------------------------------ mixture of product kernels */

/*
 * One observation at (0.5, 0.5) in 2-D, nobs 1: in each coordinate the widths
 * of test_parzen_one (1/3 for the observation, 1 for the prior), weights 1/2.
 * Each component is a product of that test's truncated normals, whose values
 * per coordinate are, with Z1 = 0.8663855975 and Z2 = 0.3829249225:
 *   observation (width 1/3)  at 0.5: a  = 3 phi(0) / Z1   = 1.3814020509
 *                            at 0:   a0 = 3 phi(1.5) / Z1 = 0.4484755842
 *                            at 0.25: aq = 3 phi(0.75) / Z1 = 1.0427369743
 *   prior (width 1)          at 0.5: b  = phi(0) / Z2     = 1.0418289772
 *                            at 0:   b0 = phi(0.5) / Z2   = 0.9194108454
 *                            at 0.25: bq = phi(0.25) / Z2 = 1.0097752693
 * (the univariate f(0.5) = (a + b) / 2 = 1.2116155140 of test_parzen_one).
 *   f(0.5, 0.5) = (a a + b b) / 2   = 1.4968396220
 *   f(0, 0.5)   = (a0 a + b0 b) / 2 = 0.7886969763
 *   f(0.25, 1)  = (aq a0 + bq b0) / 2 = 0.6980202039  (1 mirrors 0)
 *   f(0, 0)     = (a0 a0 + b0 b0) / 2 = 0.5232233261
 * Not a product of the univariate densities: that would be f(0.5)^2 = 1.468.
 */
static void test_mv_one(void)
{
	cal_mvparzen p;
	double x[] = {0.5, 0.5};
	cal_mvparzen_fit(&p, x, 1, 2, 1);
	CU_ASSERT_EQUAL(p.n, 2);
	CU_ASSERT_EQUAL(p.dim, 2);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 1.0 / 3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[1], 1.0 / 3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[2], 1.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[3], 1.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.w[0], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.w[1], 0.5, 0);
	static const struct {
		double x[2], f;
	} want[] = {
		{{0.5, 0.5}, 1.4968396220}, {{0, 0.5}, 0.7886969763}, {{0.5, 0}, 0.7886969763},
		{{0.25, 1}, 0.6980202039}, {{0, 0}, 0.5232233261},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CU_ASSERT_DOUBLE_EQUAL(exp(cal_mvparzen_logpdf(&p, want[i].x)), want[i].f, 1e-9);
	/* outside the square, in either coordinate, the density is 0 */
	double out[][2] = {{-0.01, 0.5}, {0.5, 1.01}};
	for (size_t i = 0; i < 2; i++)
		CU_ASSERT_TRUE(cal_mvparzen_logpdf(&p, out[i]) == -INFINITY);
	cal_mvparzen_free(&p);
	CU_ASSERT_PTR_NULL(p.mu);
	/* the same observation in a run of 200: the floor is 1/min(100, 202) = 0.01,
	 * and both neighbours of the observation are at distance 0 (the prior's 0.5) */
	cal_mvparzen_fit(&p, x, 1, 2, 200);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[1], 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[2], 1.0, 0);
	cal_mvparzen_free(&p);
}

/*
 * Observations (0.9, 0.1), (0.1, 0.5), (0.2, 0.8), nobs 3 (floor 1/5):
 *   coordinate 0: the column 0.9, 0.1, 0.2 of test_parzen_widths: 0.4, 0.2 (clipped), 0.3
 *   coordinate 1: sorted 0.1, 0.5 (the observation, before the prior's tie), 0.5, 0.8:
 *     0.1: its right neighbour only: 0.4; 0.5: max(0.5 - 0.1, 0) = 0.4;
 *     0.8: its left neighbour, the prior: 0.3
 * so the components' widths are (0.4, 0.4), (0.2, 0.4), (0.3, 0.3), the prior (1, 1),
 * each component centred on its own observation in both coordinates.
 */
static void test_mv_widths(void)
{
	cal_mvparzen p;
	double x[] = {0.9, 0.1, 0.1, 0.5, 0.2, 0.8};
	cal_mvparzen_fit(&p, x, 3, 2, 3);
	static const double sg[4][2] = {{0.4, 0.4}, {0.2, 0.4}, {0.3, 0.3}, {1, 1}};
	static const double mu[4][2] = {{0.9, 0.1}, {0.1, 0.5}, {0.2, 0.8}, {0.5, 0.5}};
	CU_ASSERT_EQUAL(p.n, 4);
	for (size_t k = 0; k < 4; k++) {
		CU_ASSERT_DOUBLE_EQUAL(p.w[k], 0.25, 0);
		for (size_t d = 0; d < 2; d++) {
			CU_ASSERT_DOUBLE_EQUAL(p.sigma[k * 2 + d], sg[k][d], 1e-15);
			CU_ASSERT_DOUBLE_EQUAL(p.mu[k * 2 + d], mu[k][d], 0);
		}
	}
	cal_mvparzen_free(&p);
	/* nobs below n counts as n: the set's own clip, 1/5 */
	double y[] = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3};
	cal_mvparzen_fit(&p, y, 3, 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 0.2, 1e-15);
	cal_mvparzen_free(&p);
}

/* The density integrates to 1 over [0,1]^2 (composite Simpson, 400 x 400 intervals),
 * for several sets: the last one in a run of 500, so its widths are the floor
 * 1/100 (4 intervals per width: Simpson's error stays far below 1e-5). */
static void test_mv_integral(void)
{
	static const double sets[][8] = {
		{0.5, 0.5}, {0.0, 1.0, 1.0, 0.0}, {0.1, 0.1, 0.12, 0.11, 0.9, 0.3, 0.95, 0.97}, {0.5, 0.5},
	};
	static const size_t sizes[] = {1, 2, 4, 1};
	static const size_t nobs[] = {1, 2, 4, 500};
	for (size_t s = 0; s < 5; s++) {
		cal_mvparzen p;
		cal_mvparzen_fit(&p, s < 4 ? sets[s] : NULL, s < 4 ? sizes[s] : 0, 2, s < 4 ? nobs[s] : 0); /* s = 4: the prior alone */
		const size_t m = 400;
		double h = 1.0 / m, sum = 0;
		for (size_t i = 0; i <= m; i++) {
			double wi = i == 0 || i == m ? 1 : i % 2 ? 4 : 2;
			for (size_t j = 0; j <= m; j++) {
				double wj = j == 0 || j == m ? 1 : j % 2 ? 4 : 2;
				double x[2] = {i * h, j * h};
				sum += wi * wj * exp(cal_mvparzen_logpdf(&p, x));
			}
		}
		double integral = sum * h * h / 9;
		if (fabs(integral - 1) > 1e-5)
			fprintf(stderr, "set %zu: integral %.9f\n", s, integral);
		CU_ASSERT_DOUBLE_EQUAL(integral, 1.0, 1e-5);
		cal_mvparzen_free(&p);
	}
}

/*
 * With many coordinates a single product of narrow kernels leaves the range
 * of a double, yet its logarithm is ordinary. One observation at 0.5 in 200
 * coordinates, in a run of 1000: its neighbour in each coordinate is the
 * prior's centre 0.5 itself, so its widths are the floor 0.01; weights 1/2.
 *   at 0.5 everywhere: the observation's term is
 *     (1/2) (1 / (0.01 sqrt(2 pi)))^200 = (1/2) 39.894^200 ~ e^736.6 (Z = Phi(50) - Phi(-50) = 1),
 *     beyond DBL_MAX ~ e^709.8; the prior's, (1/2) (phi(0) / Z2)^200 ~ e^7.5, adds
 *     e^-729 to it: nothing.
 *   at 0.95 everywhere: the observation's term is e^-202000, the prior's
 *     (1/2) (phi(0.45) / Z2)^200 (Z2 = 0.3829249225) is all.
 */
static void test_mv_underflow(void)
{
	enum { D = 200 };
	double x[D], far[D];
	for (size_t d = 0; d < D; d++) {
		x[d] = 0.5;
		far[d] = 0.95;
	}
	cal_mvparzen p;
	cal_mvparzen_fit(&p, x, 1, D, 1000);
	CU_ASSERT_DOUBLE_EQUAL(p.sigma[0], 0.01, 1e-15);
	double lp = cal_mvparzen_logpdf(&p, x);
	CU_ASSERT_TRUE(isfinite(lp));
	CU_ASSERT_DOUBLE_EQUAL(lp, log(0.5) + D * log(1 / (0.01 * sqrt(2 * M_PI))), 1e-9);
	double prior1 = exp(-0.5 * 0.45 * 0.45) / sqrt(2 * M_PI) / 0.3829249225;
	CU_ASSERT_DOUBLE_EQUAL(cal_mvparzen_logpdf(&p, far), log(0.5) + D * log(prior1), 1e-6);
	cal_mvparzen_free(&p);
}

/* ------------------------------------------------------------ TPE */

/*
 * tpe-univariate with gamma 0.25 and no cap.
 * 20 observations in 1-D: 5 near 0.2 with the lowest losses and 15 near 0.8.
 * gamma 0.25 makes ceil(5) = 5 of them good: exactly the cluster at 0.2.
 * l: centres 0.18 .. 0.22 with widths 1/7 (the clip 1/min(100, 7)), except
 * 0.22 whose right neighbour is the prior at 0.5: 0.28; plus the prior.
 * g: centres 0.73 .. 0.87 with widths 1/17, plus the prior, which is all of g
 * on the left half. The score log l - log g, worked out from these mixtures:
 *   x      0.10   0.15   0.18   0.20   0.25   0.30
 *   score  3.492  3.585  3.586  3.563  3.421  3.162
 * peaks near 0.166 (left of 0.2, where the prior part of g is lower), so the
 * best of 24 draws from l lands near there; the draws the prior in l spreads
 * elsewhere lose. The multivariate form (in 1-D the same mixtures, but with
 * the floor 1/22 of a run of 20 instead of the sets' 1/7 and 1/17: a narrower
 * l, so a higher peak at the cluster) proposes inside the cluster's span too.
 */
static void test_tpe_proposal(void)
{
	double x[20], loss[20];
	for (size_t i = 0; i < 20; i++) {
		x[i] = i < 5 ? 0.18 + 0.01 * i : 0.73 + 0.01 * (i - 5);
		loss[i] = i < 5 ? 0.1 * i : 10.0 + i;
	}
	cal_optcfg c;
	cal_optcfg_default(&c);
	c.gamma = 0.25;
	c.gamma_cap = 0;
	double v[50];
	cal_tpe_propose(&c, 1, x, loss, 20, v, 50);
	for (size_t j = 0; j < 50; j++)
		CU_ASSERT_TRUE(v[j] >= 0.1 && v[j] < 0.25);
	c.name = "tpe-univariate";
	double u[50], mean = 0;
	cal_tpe_propose(&c, 1, x, loss, 20, u, 50);
	for (size_t j = 0; j < 50; j++) {
		CU_ASSERT_TRUE(u[j] >= 0.1 && u[j] < 0.25);
		mean += u[j] / 50;
	}
	CU_ASSERT_DOUBLE_EQUAL(mean, 0.166, 0.03);
	/* the same observations in another order: the same sets and estimators, still near 0.166 */
	double y[20], l2[20];
	for (size_t i = 0; i < 20; i++) {
		y[i] = x[19 - i];
		l2[i] = loss[19 - i];
	}
	cal_tpe_propose(&c, 1, y, l2, 20, u, 50);
	for (size_t j = 0; j < 50; j++)
		CU_ASSERT_TRUE(u[j] >= 0.1 && u[j] < 0.25);
}

/*
 * Infinite and NaN losses are always bad: with one finite loss at 0.9 among
 * nine failures near 0.1, the good set is the single point at 0.9 (even though
 * gamma 0.25 asks for ceil(0.25 * 10) = 3), so proposals go near 0.9; in both forms.
 */
static void test_tpe_inf_bad(void)
{
	for (int form = 0; form < 2; form++) {
		double x[10], loss[10];
		for (size_t i = 0; i < 10; i++) {
			x[i] = i == 7 ? 0.9 : 0.05 + 0.01 * i;
			loss[i] = i == 7 ? 5.0 : i % 2 ? INFINITY : NAN;
		}
		cal_optcfg c;
		cal_optcfg_default(&c);
		c.name = form ? "tpe-univariate" : "tpe";
		c.gamma = 0.25;
		double u[20];
		cal_tpe_propose(&c, 1, x, loss, 10, u, 20);
		for (size_t j = 0; j < 20; j++)
			CU_ASSERT_TRUE(u[j] > 0.5 && u[j] <= 1);
		/* every loss failed: no good set, l and g are the prior alone, points still in [0,1] */
		for (size_t i = 0; i < 10; i++)
			loss[i] = INFINITY;
		cal_tpe_propose(&c, 1, x, loss, 10, u, 20);
		for (size_t j = 0; j < 20; j++)
			CU_ASSERT_TRUE(u[j] >= 0 && u[j] <= 1);
	}
}

/* Pearson's correlation of the pairs (u[2j], u[2j + 1]), j < k. */
static double pair_corr(const double *u, size_t k)
{
	double m0 = 0, m1 = 0, s00 = 0, s11 = 0, s01 = 0;
	for (size_t j = 0; j < k; j++) {
		m0 += u[2 * j] / k;
		m1 += u[2 * j + 1] / k;
	}
	for (size_t j = 0; j < k; j++) {
		double a = u[2 * j] - m0, b = u[2 * j + 1] - m1;
		s00 += a * a;
		s11 += b * b;
		s01 += a * b;
	}
	return s01 / sqrt(s00 * s11);
}

/*
 * A diagonal ridge in 2-D: 10 good observations on u0 = u1 at t = 0.05, 0.15,
 * ..., 0.95 (losses 0 to 0.09) and 30 bad ones off it (|u0 - u1| >= 0.3, loss
 * 1 and more). gamma 0.25 of 40 = 10: the good set is the ridge.
 * Multivariate: a draw takes both coordinates from one good observation's
 * kernel (widths 0.1 by the neighbour rule), so it lies within about 0.1 of
 * the diagonal, and the proposals spread along it: their coordinates are
 * strongly correlated. Univariate: each coordinate comes from its own mixture,
 * and both marginals of the good set (and of the bad set) are flat over
 * [0,1], so nothing ties u1 to u0: the correlation is near 0.
 */
static void test_tpe_ridge(void)
{
	double x[80], loss[40];
	for (size_t i = 0; i < 10; i++) {
		x[2 * i] = x[2 * i + 1] = 0.05 + 0.1 * i;
		loss[i] = 0.01 * i;
	}
	for (size_t i = 10; i < 40; i++) { /* 3 bands off the diagonal, 10 points each */
		size_t b = (i - 10) / 10, j = (i - 10) % 10;
		double t = 0.05 + 0.1 * j, off = b == 0 ? 0.3 : b == 1 ? -0.3 : 0.6;
		double v = t + off;
		x[2 * i] = t;
		x[2 * i + 1] = v > 1 ? v - 1 : v < 0 ? v + 1 : v; /* wrapped: still >= 0.3 from t (0.4 at least for 0.6) */
		loss[i] = 1 + 0.01 * i;
	}
	cal_optcfg c;
	cal_optcfg_default(&c);
	c.gamma = 0.25;
	double u[400];
	cal_tpe_propose(&c, 2, x, loss, 40, u, 200);
	double mv = pair_corr(u, 200), near = 0;
	for (size_t j = 0; j < 200; j++)
		near += fabs(u[2 * j] - u[2 * j + 1]) < 0.2;
	/* one candidate: each proposal is a bare draw from l, unselected by l/g; the
	 * draw alone follows the ridge. 10/11 of the draws come from a ridge
	 * component: t + e0, t + e1 with t over the 10 centres (variance 0.0825) and
	 * widths 0.1 (variance below 0.01); 1/11 from the prior, about uniform
	 * (variance 0.08) and uncorrelated. Correlation about
	 * (10/11 0.0825) / (10/11 (0.0825 + 0.01) + 1/11 0.08) = 0.82. */
	c.candidates = 1;
	cal_tpe_propose(&c, 2, x, loss, 40, u, 200);
	double bare = pair_corr(u, 200);
	c.candidates = 24;
	c.name = "tpe-univariate";
	cal_tpe_propose(&c, 2, x, loss, 40, u, 200);
	double uni = pair_corr(u, 200);
	if (!(mv > 0.5 && bare > 0.5 && uni < 0.3))
		fprintf(stderr, "ridge: correlation %g (multivariate), %g (its bare draws), %g (univariate)\n", mv,
		        bare, uni);
	CU_ASSERT_TRUE(mv > 0.5);
	CU_ASSERT_TRUE(bare > 0.5);
	CU_ASSERT_TRUE(near >= 150); /* most multivariate proposals within 0.2 of the diagonal */
	CU_ASSERT_TRUE(fabs(uni) < 0.3);
}

/* TPE's start-up points are random's first points (same seed, same stream), whatever the batch. */
static void test_tpe_startup(void)
{
	rec a, b;
	rec_init(&a, 2, bowl);
	rec_init(&b, 2, bowl);
	CU_ASSERT_EQUAL(run("random", 5, 10, 3, &a), 0);
	CU_ASSERT_EQUAL(run("tpe", 5, 30, 4, &b), 0);
	CU_ASSERT_EQUAL(memcmp(a.pts.ptr, b.pts.ptr, 20 * sizeof(double)), 0);
	/* batch 4 and start-up 10: calls of 4, 4, 2 (never across the start-up's end), then 4 x 5 */
	CU_ASSERT_EQUAL(b.calls, 3 + 5);
	/* the univariate form starts the same way, then proposes other points */
	rec u;
	rec_init(&u, 2, bowl);
	CU_ASSERT_EQUAL(run("tpe-univariate", 5, 30, 4, &u), 0);
	CU_ASSERT_EQUAL(memcmp(a.pts.ptr, u.pts.ptr, 20 * sizeof(double)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(b.pts.ptr + 20, u.pts.ptr + 20, 40 * sizeof(double)), 0);
	VEC_FREE(&a.pts);
	VEC_FREE(&b.pts);
	VEC_FREE(&u.pts);
}

/* ------------------------------------------------------------ every optimizer on the bowl */

/*
 * Batch 8, seeds 1, 2, 3. The bounds on the best loss, each about ten times
 * the worst of seeds 1 to 20 when they were set (random's expected best of n
 * uniform points is about 1 / (pi (n + 1)): 1.6e-3 for 200, 3.2e-4 for 1000):
 *   random      200: 1e-2 (P(no point within r^2 = 1e-2) = (1 - 0.0314)^200 ~ 0.002)
 *   tpe         200: 5e-5 (worst of seeds 1 to 20: 5.1e-6, median 5.6e-7)
 *   tpe-univariate 200: 1e-3 (worst 1.1e-4, median 1.8e-5: the multivariate form is ahead)
 *   neldermead  200: 1e-7, sbplx 1e-5, bobyqa 1e-10 (its quadratic model is exact here)
 *   direct-l    200: 1e-8 (deterministic: 8.3e-10)
 *   crs2       1000: 1e-8; isres 1000: 3e-3
 *   esch       1000: 1e-2 (an evolution strategy: no better than random at this budget)
 * grid is exact: k = 14 (14^2 = 196 <= 200 < 225); the nearest centres are
 * 4.5/14 = 0.3 + 3/140 and 9.5/14 = 0.7 - 3/140: best 2 (3/140)^2 = 18/19600.
 */
static void test_bowl(void)
{
	static const struct {
		const char *name;
		size_t budget;
		double bound;
	} want[] = {
		{"random", 200, 1e-2}, {"tpe", 200, 5e-5}, {"tpe-univariate", 200, 1e-3},
		{"neldermead", 200, 1e-7}, {"sbplx", 200, 1e-5},
		{"bobyqa", 200, 1e-10}, {"direct-l", 200, 1e-8}, {"crs2", 1000, 1e-8}, {"isres", 1000, 3e-3},
		{"esch", 1000, 1e-2},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			rec r;
			rec_init(&r, 2, bowl);
			CU_ASSERT_EQUAL(run(want[i].name, seed, want[i].budget, 8, &r), 0);
			if (!(r.best < want[i].bound))
				fprintf(stderr, "%s seed %llu: best %g, bound %g\n", want[i].name,
				        (unsigned long long)seed, r.best, want[i].bound);
			CU_ASSERT_TRUE(r.best < want[i].bound);
			CU_ASSERT_TRUE(r.evals <= want[i].budget);
			CU_ASSERT_FALSE(r.out_of_cube);
			VEC_FREE(&r.pts);
		}
	}
	rec g;
	rec_init(&g, 2, bowl);
	CU_ASSERT_EQUAL(run("grid", 1, 200, 8, &g), 0);
	CU_ASSERT_EQUAL(g.evals, 196);
	CU_ASSERT_DOUBLE_EQUAL(g.best, 18.0 / 19600, 1e-15);
	VEC_FREE(&g.pts);
}

/* ------------------------------------------------------------ the contract */

/* budget 10 in 2-D: k = 3 levels (9 <= 10 < 16), centres 1/6, 1/2, 5/6, the first coordinate slowest. */
static void test_grid_order(void)
{
	rec r;
	rec_init(&r, 2, bowl);
	CU_ASSERT_EQUAL(run("grid", 1, 10, 4, &r), 0);
	CU_ASSERT_EQUAL(r.evals, 9);
	CU_ASSERT_EQUAL(r.calls, 3); /* 4 + 4 + 1 */
	static const double c[] = {1.0 / 6, 0.5, 5.0 / 6};
	for (size_t i = 0; i < 9 && r.pts.len == 18; i++) {
		CU_ASSERT_DOUBLE_EQUAL(r.pts.ptr[2 * i], c[i / 3], 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(r.pts.ptr[2 * i + 1], c[i % 3], 1e-15);
	}
	VEC_FREE(&r.pts);
	/* 1-D, budget 7: 7 levels; 3-D, budget 7: 1 level (2^3 = 8 > 7), the centre only */
	rec_init(&r, 1, line);
	CU_ASSERT_EQUAL(run("grid", 1, 7, 8, &r), 0);
	CU_ASSERT_EQUAL(r.evals, 7);
	VEC_FREE(&r.pts);
	rec_init(&r, 3, bowl);
	CU_ASSERT_EQUAL(run("grid", 1, 7, 8, &r), 0);
	CU_ASSERT_EQUAL(r.evals, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.pts.ptr[2], 0.5, 0);
	VEC_FREE(&r.pts);
}

/*
 * Budget 37 with batch 5: nobody evaluates more; random and both TPEs use it all
 * and ask at most 5 points a call, NLopt 1 point a call, the global ones all 37.
 */
static void test_budget(void)
{
	for (size_t i = 0; all_names[i]; i++) {
		const char *n = all_names[i];
		rec r;
		rec_init(&r, 3, bowl);
		CU_ASSERT_EQUAL(run(n, 3, 37, 5, &r), 0);
		CU_ASSERT_TRUE(r.evals <= 37);
		int nl = i >= NLOPT_FIRST, global = i >= NLOPT_GLOBAL;
		if (!nl || global)
			CU_ASSERT_EQUAL(r.evals, !strcmp(n, "grid") ? 27 : 37); /* grid: 3^3 = 27 <= 37 < 64 */
		CU_ASSERT_EQUAL(r.max_k, nl ? 1 : 5);
		VEC_FREE(&r.pts);
		/* a budget of 1 is one evaluation, for everyone */
		rec_init(&r, 2, bowl);
		CU_ASSERT_EQUAL(run(n, 3, 1, 5, &r), 0);
		CU_ASSERT_EQUAL(r.evals, 1);
		VEC_FREE(&r.pts);
	}
}

/* eval returning -1 at its third call stops every optimizer at once with 1. */
static void test_stop(void)
{
	for (size_t i = 0; all_names[i]; i++) {
		rec r;
		rec_init(&r, 2, bowl);
		r.stop_at = 3;
		CU_ASSERT_EQUAL(run(all_names[i], 1, 100, 4, &r), 1);
		CU_ASSERT_EQUAL(r.calls, 3);
		VEC_FREE(&r.pts);
	}
}

/*
 * Failed evaluations: +inf on u[0] > 0.6, NaN on u[1] < 0.1; the minimum
 * (0.3, 0.7) is outside both. Every optimizer ends normally and still finds a
 * point within 2e-2 of the minimum's loss (random's bound, the loosest);
 * with losses always +inf they end normally within the budget.
 */
static void test_failures(void)
{
	for (size_t i = 0; all_names[i]; i++) {
		rec r;
		rec_init(&r, 2, bowl_holes);
		CU_ASSERT_EQUAL(run(all_names[i], 2, 150, 8, &r), 0);
		if (!(r.best < 2e-2))
			fprintf(stderr, "%s with failures: best %g\n", all_names[i], r.best);
		CU_ASSERT_TRUE(r.best < 2e-2);
		CU_ASSERT_FALSE(r.out_of_cube);
		VEC_FREE(&r.pts);
		rec_init(&r, 2, always_inf);
		CU_ASSERT_EQUAL(run(all_names[i], 2, 60, 8, &r), 0);
		CU_ASSERT_TRUE(r.evals >= 1 && r.evals <= 60);
		VEC_FREE(&r.pts);
	}
}

/* The same settings give the same points; another seed other points (except grid, direct-l). */
static void test_determinism(void)
{
	for (size_t i = 0; all_names[i]; i++) {
		const char *n = all_names[i];
		rec a, b, c;
		rec_init(&a, 2, bowl);
		rec_init(&b, 2, bowl);
		rec_init(&c, 2, bowl);
		CU_ASSERT_EQUAL(run(n, 7, 120, 8, &a), 0);
		CU_ASSERT_EQUAL(run(n, 7, 120, 8, &b), 0);
		CU_ASSERT_EQUAL(run(n, 8, 120, 8, &c), 0);
		CU_ASSERT_EQUAL(a.pts.len, b.pts.len);
		CU_ASSERT_TRUE(a.pts.len == b.pts.len && !memcmp(a.pts.ptr, b.pts.ptr, a.pts.len * sizeof(double)));
		int fixed = !strcmp(n, "grid") || !strcmp(n, "direct-l"); /* no randomness in them */
		int same = a.pts.len == c.pts.len && !memcmp(a.pts.ptr, c.pts.ptr, a.pts.len * sizeof(double));
		if (same != fixed)
			fprintf(stderr, "%s: seeds 7 and 8 give %s points\n", n, same ? "the same" : "other");
		CU_ASSERT_EQUAL(same, fixed);
		VEC_FREE(&a.pts);
		VEC_FREE(&b.pts);
		VEC_FREE(&c.pts);
	}
}

/* random's points do not depend on the batch: batch 1 and batch 8 give the same 50 points. */
static void test_random_batch(void)
{
	rec a, b;
	rec_init(&a, 3, bowl);
	rec_init(&b, 3, bowl);
	CU_ASSERT_EQUAL(run("random", 11, 50, 1, &a), 0);
	CU_ASSERT_EQUAL(run("random", 11, 50, 8, &b), 0);
	CU_ASSERT_EQUAL(a.calls, 50);
	CU_ASSERT_EQUAL(b.calls, 7); /* 6 x 8 + 2 */
	CU_ASSERT_TRUE(a.pts.len == 150 && b.pts.len == 150 && !memcmp(a.pts.ptr, b.pts.ptr, 150 * sizeof(double)));
	VEC_FREE(&a.pts);
	VEC_FREE(&b.pts);
}

static void test_names(void)
{
	/* the list has every name, in order, and nothing else */
	char *list = xstrdup(cal_optim_names());
	size_t i = 0;
	for (char *tok = strtok(list, ", "); tok; tok = strtok(NULL, ", "), i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(all_names[i]);
		CU_ASSERT_STRING_EQUAL(tok, all_names[i]);
		CU_ASSERT_TRUE(cal_optim_known(tok));
	}
	CU_ASSERT_PTR_NULL(all_names[i]);
	free(list);
	CU_ASSERT_TRUE(cal_optim_known("TPE"));
	CU_ASSERT_TRUE(cal_optim_known("TPE-Univariate"));
	CU_ASSERT_FALSE(cal_optim_known("tpe-"));
	CU_ASSERT_TRUE(cal_optim_known("Direct-L"));
	CU_ASSERT_FALSE(cal_optim_known("cmaes"));
	CU_ASSERT_FALSE(cal_optim_known(""));
	CU_ASSERT_FALSE(cal_optim_known(NULL));

	cal_optcfg c;
	cal_optcfg_default(&c);
	CU_ASSERT_STRING_EQUAL(c.name, "tpe");
	CU_ASSERT_EQUAL(c.seed, 1);
	CU_ASSERT_EQUAL(c.budget, 200);
	CU_ASSERT_EQUAL(c.batch, 8);
	CU_ASSERT_EQUAL(c.starts, 1);
	CU_ASSERT_DOUBLE_EQUAL(c.gamma, 0.1, 0); /* with the cap: Optuna's default gamma, min(ceil(0.1 n), 25) */
	CU_ASSERT_EQUAL(c.gamma_cap, 25);
	CU_ASSERT_EQUAL(c.startup, 10);
	CU_ASSERT_EQUAL(c.candidates, 24);
}

/* Bad settings: -1 with a message, and eval never called. */
static void test_bad_settings(void)
{
	rec r;
	rec_init(&r, 2, bowl);
	cal_optcfg c;
	char *err = NULL;
	cal_optcfg_default(&c);
	c.name = "cmaes";
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "unknown optimizer 'cmaes' (known: random, grid, tpe, tpe-univariate, neldermead, "
	                   "sbplx, bobyqa, crs2, direct-l, esch, isres)");
	cal_optcfg_default(&c);
	CU_ASSERT_EQUAL(cal_optimize(&c, 0, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: no parameter to calibrate");
	c.budget = 0;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: the budget must be at least 1 evaluation");
	cal_optcfg_default(&c);
	c.batch = 0;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: the batch must be at least 1 point");
	cal_optcfg_default(&c);
	c.name = "bobyqa";
	c.starts = 0;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer bobyqa: at least 1 starting point is needed");
	cal_optcfg_default(&c);
	c.gamma = 0;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: gamma must be in (0, 1], not 0");
	c.gamma = NAN;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: gamma must be in (0, 1], not nan");
	cal_optcfg_default(&c);
	c.candidates = 0;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), -1);
	UT_TAKE_ERROR(err, "optimizer tpe: at least 1 candidate per point is needed");
	CU_ASSERT_EQUAL(r.calls, 0);
}

/* Local NLopt algorithms restart: with starts 3 and a bowl they converge on, the
 * second and third starts begin at the centre's successors, and the budget is never passed. */
static void test_multistart(void)
{
	rec r;
	rec_init(&r, 2, bowl);
	cal_optcfg c;
	cal_optcfg_default(&c);
	c.name = "neldermead";
	c.starts = 3;
	c.budget = 600;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_optimize(&c, 2, rec_eval, &r, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	/* the first point is the centre */
	CU_ASSERT_DOUBLE_EQUAL(r.pts.ptr[0], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.pts.ptr[1], 0.5, 0);
	CU_ASSERT_TRUE(r.evals <= 600);
	CU_ASSERT_TRUE(r.best < 1e-12);
	VEC_FREE(&r.pts);
}

int main(void)
{
	static const ut_test parzen[] = {
		{"one observation and the prior", test_parzen_one},
		{"widths by neighbours", test_parzen_widths},
		{"magic clip at 1/100", test_parzen_clip},
		{"integrates to 1", test_parzen_integral},
		{NULL, NULL},
	};
	static const ut_test mv[] = {
		{"one observation and the prior", test_mv_one},
		{"widths per coordinate", test_mv_widths},
		{"integrates to 1", test_mv_integral},
		{"log density beyond a double's range", test_mv_underflow},
		{NULL, NULL},
	};
	static const ut_test tpe[] = {
		{"proposals near the good cluster", test_tpe_proposal},
		{"failed losses are bad", test_tpe_inf_bad},
		{"proposals follow a ridge", test_tpe_ridge},
		{"start-up is random's", test_tpe_startup},
		{NULL, NULL},
	};
	static const ut_test optim[] = {
		{"quadratic bowl", test_bowl},
		{"grid order", test_grid_order},
		{"budget", test_budget},
		{"stop", test_stop},
		{"failed evaluations", test_failures},
		{"determinism", test_determinism},
		{"random batch", test_random_batch},
		{"names and defaults", test_names},
		{"bad settings", test_bad_settings},
		{"multi-start", test_multistart},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"parzen", parzen, NULL, NULL},
		{"product mixture", mv, NULL, NULL},
		{"tpe", tpe, NULL, NULL},
		{"optimizers", optim, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

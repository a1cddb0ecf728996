/*
 * test_calib_surrogate.c - the per-output surrogate of calib/surrogate.h on
 * figures whose answer is known: exact polynomials of the coordinates (the
 * held-out error is zero and leave-one-out picks the true degree, not a
 * higher one that also fits), exp(linear) (exact on the log scale), outputs
 * with a value <= 0 (fitted as they are), the box (NAN outside, exact
 * inside), the cap on the degree, and the design too small to fit anything.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/design.h"
#include "calib/surrogate.h"
#include "tests/unit/unit.h"

/* A figure of the 2 coordinates. */
typedef double (*figure_fn)(const double *u);

/* Negative everywhere (>= 1 in size): fitted as they are, so the polynomial is exact. */
static double linear(const double *u) { return -(1 + u[0] + 2 * u[1]); }
static double quadratic(const double *u) { return -(1 + u[0] * u[0] + u[0] * u[1] + 0.5 * u[1]); }
/* 2 + u0^3 - u0 u1^2 + u1 >= 2 - 1 = 1 on [0,1]^2. */
static double cubic(const double *u) { return -(2 + u[0] * u[0] * u[0] - u[0] * u[1] * u[1] + u[1]); }
/* Positive: log of it is 1 + 2 u0 - 3 u1, degree 1 on the log scale. */
static double exponential(const double *u) { return exp(1 + 2 * u[0] - 3 * u[1]); }
/* Both signs on a spread design. */
static double difference(const double *u) { return u[0] - u[1]; }

static const figure_fn figures[] = {linear, quadratic, cubic, exponential, difference};
enum { NOUT = 5, DIM = 2 };
/* The true degree of each figure (on its fitting scale) and the scale. */
static const size_t true_degree[NOUT] = {1, 2, 3, 1, 1};
static const int true_logy[NOUT] = {0, 0, 0, 1, 0};

/* n points of a Latin hypercube (seed) in the box [lo, hi] (NULL: the unit box). */
static double *points(size_t n, uint64_t seed, const double *lo, const double *hi)
{
	double *u = xmalloc((n * DIM + 1) * sizeof *u);
	cal_lhs(n, DIM, seed, 5, u);
	for (size_t i = 0; lo && i < n; i++)
		for (size_t j = 0; j < DIM; j++)
			u[i * DIM + j] = lo[j] + u[i * DIM + j] * (hi[j] - lo[j]);
	return u;
}

/* Every figure at every point: y[i * NOUT + o]. */
static double *evaluate(const double *u, size_t n)
{
	double *y = xmalloc((n * NOUT + 1) * sizeof *y);
	for (size_t i = 0; i < n; i++)
		for (size_t o = 0; o < NOUT; o++)
			y[i * NOUT + o] = figures[o](u + i * DIM);
	return y;
}

/* A fit of every figure on ntrain + ntest points in [lo, hi]; 0 or -1 with *err. */
static int fit(cal_surrogate *s, const double *lo, const double *hi, size_t max_degree, size_t ntrain, size_t ntest,
               char **err)
{
	double *ut = points(ntrain, 11, lo, hi), *uh = points(ntest, 12, lo, hi);
	double *yt = evaluate(ut, ntrain), *yh = evaluate(uh, ntest);
	int rc = cal_surrogate_fit(s, DIM, lo, hi, max_degree, ut, yt, ntrain, uh, yh, ntest, NOUT, err);
	free(ut);
	free(uh);
	free(yt);
	free(yh);
	return rc;
}

/* |got - want| <= tol max(|want|, 1): relative, absolute near 0 (u0 - u1 is 0 on the diagonal). */
static int close_rel(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fmax(fabs(want), 1);
}

/* The surrogate at u against every figure there (relative tolerance tol). */
static void check_at(const cal_surrogate *s, const double *u, double tol)
{
	double *scr = xmalloc(cal_surrogate_scratch(s) * sizeof *scr), out[NOUT];
	cal_surrogate_eval(s, u, out, scr);
	for (size_t o = 0; o < NOUT; o++) {
		double want = figures[o](u);
		if (!close_rel(out[o], want, tol))
			fprintf(stderr, "output %zu at (%g, %g): %.17g, want %.17g\n", o, u[0], u[1], out[o], want);
		CU_ASSERT_TRUE(close_rel(out[o], want, tol));
	}
	free(scr);
}

/*
 * 40 training runs in 2 parameters allow degree 5: C(2 + 5, 5) = 21 terms
 * <= 2/3 x 40 = 26.7 < 28 = C(2 + 6, 6). Every figure lies in the span of
 * that basis (on its scale), so each is recovered exactly: held-out error 0
 * (up to rounding), and the degree that leave-one-out picks is the lowest
 * that fits, the true one; a higher degree fits as well and must not win.
 */
static void test_exact_polynomials(void)
{
	cal_surrogate s;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(fit(&s, NULL, NULL, 0, 40, 10, &err), 0);
	CU_ASSERT_EQUAL(s.basis.degree, 5);
	CU_ASSERT_EQUAL(s.nout, NOUT);
	CU_ASSERT_EQUAL(s.ntrain, 40);
	CU_ASSERT_EQUAL(s.ntest, 10);
	for (size_t o = 0; o < NOUT; o++) {
		CU_ASSERT_EQUAL(s.logy[o], true_logy[o]);
		if (cal_surrogate_degree(&s, o) != true_degree[o])
			fprintf(stderr, "output %zu: degree %zu, want %zu\n", o, cal_surrogate_degree(&s, o), true_degree[o]);
		CU_ASSERT_EQUAL(cal_surrogate_degree(&s, o), true_degree[o]);
		/* Terms of total degree <= q in 2 variables: (q + 1)(q + 2) / 2. */
		CU_ASSERT_EQUAL(s.nterms[o], (true_degree[o] + 1) * (true_degree[o] + 2) / 2);
		CU_ASSERT_TRUE(s.err_rel[o] < 1e-10);
		CU_ASSERT_TRUE(s.err_max[o] < 1e-10);
		/* The coefficients past the output's own terms are zero. */
		for (size_t t = s.nterms[o]; t < s.basis.nterms; t++)
			CU_ASSERT_EQUAL(s.coef[o * s.basis.nterms + t], 0);
	}
	CU_ASSERT_TRUE(s.worst < 1e-10);
	/* Anywhere in the cube, corners included, the surrogate is the figure. */
	static const double at[][2] = {{0.37, 0.81}, {0, 0}, {1, 1}, {0, 1}, {0.5, 0.02}};
	for (size_t k = 0; k < sizeof at / sizeof *at; k++)
		check_at(&s, at[k], 1e-9);
	cal_surrogate_free(&s);
	/* Freeing twice is harmless (free zeroes it). */
	cal_surrogate_free(&s);
}

/*
 * max_degree caps the basis: at degree <= 2 the cubic cannot be exact. Its
 * held-out error is then that of the best quadratic, far above rounding;
 * the others keep their degree and stay exact.
 */
static void test_degree_cap(void)
{
	cal_surrogate s;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(fit(&s, NULL, NULL, 2, 40, 10, &err), 0);
	CU_ASSERT_EQUAL(s.basis.degree, 2);
	CU_ASSERT_EQUAL(cal_surrogate_degree(&s, 2), 2);
	CU_ASSERT_TRUE(s.err_rel[2] > 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(s.worst, s.err_rel[2], 0);
	CU_ASSERT_TRUE(s.err_max[2] >= s.err_rel[2]);
	CU_ASSERT_EQUAL(cal_surrogate_degree(&s, 1), 2);
	CU_ASSERT_TRUE(s.err_rel[1] < 1e-10);
	CU_ASSERT_EQUAL(cal_surrogate_degree(&s, 0), 1);
	CU_ASSERT_EQUAL(cal_surrogate_degree(&s, 3), 1);
	cal_surrogate_free(&s);
}

/*
 * A figure is fitted on the log scale only when it is positive at every
 * run, held-out ones included: one held-out value of -1, or a 0 among the
 * training runs, and it is fitted as it is (log would give NaN, -inf).
 */
static void test_sign(void)
{
	enum { N = 12, H = 3 };
	double *ut = points(N, 5, NULL, NULL), *uh = points(H, 6, NULL, NULL);
	double yt[N * 3], yh[H * 3];
	for (size_t i = 0; i < N; i++) {
		yt[i * 3 + 0] = exponential(ut + i * DIM);
		yt[i * 3 + 1] = exponential(ut + i * DIM);
		yt[i * 3 + 2] = i == 4 ? 0 : exponential(ut + i * DIM);
	}
	for (size_t i = 0; i < H; i++) {
		yh[i * 3 + 0] = exponential(uh + i * DIM);
		yh[i * 3 + 1] = i == 1 ? -1 : exponential(uh + i * DIM);
		yh[i * 3 + 2] = exponential(uh + i * DIM);
	}
	cal_surrogate s;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_surrogate_fit(&s, DIM, NULL, NULL, 0, ut, yt, N, uh, yh, H, 3, &err), 0);
	CU_ASSERT_EQUAL(s.logy[0], 1);
	CU_ASSERT_EQUAL(s.logy[1], 0);
	CU_ASSERT_EQUAL(s.logy[2], 0);
	/* Exact on the log scale: exp(1 + 2 u0 - 3 u1) is reproduced, even from 12 runs (degree <= 2: 6 <= 8 terms). */
	CU_ASSERT_TRUE(s.err_rel[0] < 1e-10);
	CU_ASSERT_EQUAL(cal_surrogate_degree(&s, 0), 1);
	double u[2] = {0.2, 0.9}, out[3], *scr = xmalloc(cal_surrogate_scratch(&s) * sizeof *scr);
	cal_surrogate_eval(&s, u, out, scr);
	CU_ASSERT_TRUE(close_rel(out[0], exp(1 + 0.4 - 2.7), 1e-10));
	/* The held-out -1 is far from any fit of the positive runs: a large error, not NaN. */
	CU_ASSERT_TRUE(isfinite(s.err_rel[1]) && s.err_rel[1] > 0.1);
	CU_ASSERT_TRUE(isfinite(s.worst));
	free(scr);
	free(ut);
	free(uh);
	cal_surrogate_free(&s);
}

/*
 * A box [lo, hi]: the runs lie inside it and the polynomial's variables
 * are scaled over it. The surrogate reproduces the figures anywhere inside
 * (its edges included) and says NAN for every output outside, or at a NaN
 * coordinate: it knows nothing there.
 */
static void test_box(void)
{
	static const double lo[DIM] = {0.2, 0.4}, hi[DIM] = {0.6, 0.9};
	cal_surrogate s;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(fit(&s, lo, hi, 0, 40, 10, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(s.lo[0], 0.2, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.hi[1], 0.9, 0);
	CU_ASSERT_TRUE(s.worst < 1e-10);
	static const double inside[][2] = {{0.3, 0.5}, {0.2, 0.4}, {0.6, 0.9}, {0.6, 0.4}};
	for (size_t k = 0; k < sizeof inside / sizeof *inside; k++)
		check_at(&s, inside[k], 1e-9);
	static const double outside[][2] = {{0.1, 0.5}, {0.3, 0.95}, {0.61, 0.5}, {0.3, 0.39}, {NAN, 0.5}, {0.3, NAN}};
	double out[NOUT], *scr = xmalloc(cal_surrogate_scratch(&s) * sizeof *scr);
	for (size_t k = 0; k < sizeof outside / sizeof *outside; k++) {
		cal_surrogate_eval(&s, outside[k], out, scr);
		for (size_t o = 0; o < NOUT; o++)
			CU_ASSERT_TRUE(isnan(out[o]));
	}
	free(scr);
	cal_surrogate_free(&s);
}

/*
 * Too few runs: a linear surrogate in d parameters has d + 1 terms, at
 * most 2/3 of the training runs, so it needs ceil(3 (d + 1) / 2) runs:
 * 5 for 2 parameters (4.5), 6 for 3. One fewer is an error that says how
 * many and what to change; the number it names is enough.
 */
static void test_too_few_runs(void)
{
	cal_surrogate s;
	char *err = NULL;
	CU_ASSERT_EQUAL(fit(&s, NULL, NULL, 0, 4, 2, &err), -1);
	UT_TAKE_ERROR(err, "4 training runs cannot fit even a linear surrogate in 2 parameters (it needs 5): "
	                   "raise [bayes] design");
	/* The failed fit left s empty: freeing it again is harmless. */
	cal_surrogate_free(&s);
	CU_ASSERT_EQUAL(fit(&s, NULL, NULL, 0, 5, 2, &err), 0);
	CU_ASSERT_EQUAL(s.basis.degree, 1);
	cal_surrogate_free(&s);
	free(err);
	err = NULL;

	enum { D3 = 3 };
	double u[6 * D3], y[6], uh[D3] = {0.5, 0.5, 0.5}, yh[1] = {-1.5};
	cal_lhs(6, D3, 3, 1, u);
	for (size_t i = 0; i < 6; i++)
		y[i] = -(1 + u[i * D3] - u[i * D3 + 1] + u[i * D3 + 2]);
	CU_ASSERT_EQUAL(cal_surrogate_fit(&s, D3, NULL, NULL, 0, u, y, 5, uh, yh, 1, 1, &err), -1);
	UT_TAKE_ERROR(err, "5 training runs cannot fit even a linear surrogate in 3 parameters (it needs 6): "
	                   "raise [bayes] design");
	CU_ASSERT_EQUAL(cal_surrogate_fit(&s, D3, NULL, NULL, 0, u, y, 6, uh, yh, 1, 1, &err), 0);
	if (err)
		fprintf(stderr, "%s\n", err);
	free(err);
	err = NULL;
	/* 1 + 0.5 - 0.5 + 0.5 = 1.5: the held-out run is exact. */
	CU_ASSERT_TRUE(s.nout == 1 && s.err_rel[0] < 1e-10);
	cal_surrogate_free(&s);
}

int main(void)
{
	static const ut_test tests[] = {
		{"exact polynomials, the true degree", test_exact_polynomials},
		{"max_degree caps the basis", test_degree_cap},
		{"log scale only for positive figures", test_sign},
		{"the box: exact inside, NAN outside", test_box},
		{"too few runs", test_too_few_runs},
		{NULL, NULL},
	};
	return ut_run("surrogate", tests);
}

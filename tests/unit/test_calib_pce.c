/*
 * test_calib_pce.c - the polynomial-chaos surrogate (calib/pce.c), Latin
 * hypercubes (calib/design.c) and prior densities (calib/prior.c).
 */
#include <gsl/gsl_integration.h>
#include <math.h>

#include "base/util.h"
#include "calib/design.h"
#include "calib/pce.h"
#include "calib/spec.h"
#include "unit.h"

/* L_2(x) = sqrt(5) (3x^2 - 1) / 2 and L_3(x) = sqrt(7) (5x^3 - 3x) / 2: the textbook P_n times sqrt(2n + 1). */
static void test_legendre_values(void)
{
	double p[5];
	cal_legendre(0.5, 4, p);
	CU_ASSERT_DOUBLE_EQUAL(p[0], 1, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p[1], sqrt(3) * 0.5, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p[2], sqrt(5) * (3 * 0.25 - 1) / 2, 1e-14);
	CU_ASSERT_DOUBLE_EQUAL(p[3], sqrt(7) * (5 * 0.125 - 1.5) / 2, 1e-14);
	/* P_4(x) = (35x^4 - 30x^2 + 3) / 8 */
	CU_ASSERT_DOUBLE_EQUAL(p[4], 3 * (35 * 0.0625 - 30 * 0.25 + 3) / 8, 1e-14);
}

/* E[L_m L_n] under U[-1, 1] is 1 when m == n and 0 otherwise (10-point Gauss-Legendre is exact to degree 19). */
static void test_legendre_orthonormal(void)
{
	gsl_integration_glfixed_table *t = gsl_integration_glfixed_table_alloc(10);
	double g[9][9] = {{0}}, p[9];
	for (size_t k = 0; k < 10; k++) {
		double x, w;
		gsl_integration_glfixed_point(-1, 1, k, &x, &w, t);
		cal_legendre(x, 8, p);
		for (int m = 0; m < 9; m++)
			for (int n = 0; n < 9; n++)
				g[m][n] += 0.5 * w * p[m] * p[n];
	}
	for (int m = 0; m < 9; m++)
		for (int n = 0; n < 9; n++)
			CU_ASSERT_DOUBLE_EQUAL(g[m][n], m == n, 1e-12);
	gsl_integration_glfixed_table_free(t);
}

/* C(d + p, p) terms, in graded order: for d = 2, p = 2: 1, x, y, x^2, xy, y^2. */
static void test_basis_order(void)
{
	CU_ASSERT_EQUAL(cal_pce_nterms(3, 2), 10);
	CU_ASSERT_EQUAL(cal_pce_nterms(6, 4), 210);
	CU_ASSERT_EQUAL(cal_pce_nterms(100, 100), SIZE_MAX);
	cal_pce_basis b;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_pce_basis_init(&b, 2, 2, 1000, &err), 0);
	static const uint8_t want[6][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}};
	CU_ASSERT_EQUAL(b.nterms, 6);
	CU_ASSERT_EQUAL(b.upto[0], 1);
	CU_ASSERT_EQUAL(b.upto[1], 3);
	CU_ASSERT_EQUAL(b.upto[2], 6);
	for (int t = 0; t < 6; t++)
		CU_ASSERT(b.alpha[t * 2] == want[t][0] && b.alpha[t * 2 + 1] == want[t][1]);
	cal_pce_basis_free(&b);
	CU_ASSERT_EQUAL(cal_pce_basis_init(&b, 10, 8, 1000, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "too many terms"));
	free(err);
}

/* The terms of b up to degree 3 whose exponents match a: index, or -1. */
static int term_of(const cal_pce_basis *b, const uint8_t *a)
{
	for (size_t t = 0; t < b->nterms; t++)
		if (!memcmp(b->alpha + t * b->dim, a, b->dim))
			return (int)t;
	return -1;
}

/*
 * f = 1 + 2 L1(x0) + 3 L1(x0) L1(x1) - 0.5 L2(x2) + 0.25 L3(x1) is in the
 * span of the degree-3 basis, so least squares on 60 points recovers its
 * coefficients exactly and the leave-one-out error is zero; the Sobol
 * indices follow from them: D = 4 + 9 + 0.25 + 0.0625 = 13.3125,
 * S0 = 4 / D, T0 = (4 + 9) / D, S1 = 0.0625 / D, T1 = (9 + 0.0625) / D,
 * S2 = T2 = 0.25 / D.
 */
static void test_exact_recovery(void)
{
	cal_pce_basis b;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_pce_basis_init(&b, 3, 3, 1000, &err), 0);
	size_t n = 60;
	double *u = xmalloc(n * 3 * sizeof *u), *y = xmalloc(n * sizeof *y), l[3][4];
	cal_lhs(n, 3, 7, 1, u);
	for (size_t i = 0; i < n * 3; i++)
		u[i] = 2 * u[i] - 1;
	for (size_t i = 0; i < n; i++) {
		for (int j = 0; j < 3; j++)
			cal_legendre(u[i * 3 + j], 3, l[j]);
		y[i] = 1 + 2 * l[0][1] + 3 * l[0][1] * l[1][1] - 0.5 * l[2][2] + 0.25 * l[1][3];
	}
	cal_pce_fit f;
	CU_ASSERT_EQUAL_FATAL(cal_pce_fit_init(&f, &b, b.nterms, u, n, &err), 0);
	CU_ASSERT_EQUAL(f.rank, 20);
	double c[20], first[3], total[3];
	double loo = cal_pce_solve(&f, y, c);
	CU_ASSERT(loo < 1e-10);
	static const uint8_t a0[3] = {0, 0, 0}, a1[3] = {1, 0, 0}, a2[3] = {1, 1, 0}, a3[3] = {0, 0, 2},
	                     a4[3] = {0, 3, 0};
	double want[20] = {0};
	want[term_of(&b, a0)] = 1;
	want[term_of(&b, a1)] = 2;
	want[term_of(&b, a2)] = 3;
	want[term_of(&b, a3)] = -0.5;
	want[term_of(&b, a4)] = 0.25;
	for (int t = 0; t < 20; t++)
		CU_ASSERT_DOUBLE_EQUAL(c[t], want[t], 1e-10);
	double D = cal_pce_sobol(&b, c, b.nterms, first, total);
	CU_ASSERT_DOUBLE_EQUAL(D, 13.3125, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(first[0], 4 / D, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(total[0], 13 / D, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(first[1], 0.0625 / D, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(total[1], 9.0625 / D, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(first[2], 0.25 / D, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(total[2], 0.25 / D, 1e-10);
	/* Evaluating the fit anywhere gives f there. */
	double xi[3] = {0.3, -0.7, 0.1}, row[20], scr[12];
	cal_pce_row(&b, xi, row, scr);
	for (int j = 0; j < 3; j++)
		cal_legendre(xi[j], 3, l[j]);
	CU_ASSERT_DOUBLE_EQUAL(cal_pce_dot(c, row, 20),
	                       1 + 2 * l[0][1] + 3 * l[0][1] * l[1][1] - 0.5 * l[2][2] + 0.25 * l[1][3], 1e-10);
	cal_pce_fit_free(&f);
	/* Fewer points than terms cannot be fitted. */
	CU_ASSERT_EQUAL(cal_pce_fit_init(&f, &b, b.nterms, u, 10, &err), -1);
	free(err);
	free(u);
	free(y);
	cal_pce_basis_free(&b);
}

/*
 * The Ishigami function f = sin x1 + a sin^2 x2 + b x3^4 sin x1 on [-pi, pi]^3
 * (a = 7, b = 0.1) has closed-form Sobol indices: D = a^2/8 + b pi^4/5 +
 * b^2 pi^8/18 + 1/2, D1 = (1 + b pi^4/5)^2 / 2, D2 = a^2/8, D3 = 0,
 * D13 = b^2 pi^8 (1/18 - 1/50); S1 = 0.3139, S2 = 0.4424, S3 = 0,
 * T1 = 0.5576, T2 = 0.4424, T3 = 0.2437. A degree-12 expansion fitted on
 * 1,500 Latin-hypercube points reproduces them within 0.01.
 */
static void test_ishigami(void)
{
	const double a = 7, bb = 0.1, pi = M_PI;
	double D = a * a / 8 + bb * pow(pi, 4) / 5 + bb * bb * pow(pi, 8) / 18 + 0.5;
	double D1 = 0.5 * pow(1 + bb * pow(pi, 4) / 5, 2), D2 = a * a / 8, D13 = bb * bb * pow(pi, 8) * (1.0 / 18 - 1.0 / 50);
	cal_pce_basis b;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_pce_basis_init(&b, 3, 12, 1000, &err), 0);
	size_t n = 1500;
	double *xi = xmalloc(n * 3 * sizeof *xi), *y = xmalloc(n * sizeof *y), *c = xmalloc(b.nterms * sizeof *c);
	cal_lhs(n, 3, 11, 1, xi);
	for (size_t i = 0; i < n; i++) {
		double *x = xi + i * 3;
		for (int j = 0; j < 3; j++)
			x[j] = 2 * x[j] - 1;
		double x1 = pi * x[0], x2 = pi * x[1], x3 = pi * x[2];
		y[i] = sin(x1) + a * sin(x2) * sin(x2) + bb * pow(x3, 4) * sin(x1);
	}
	cal_pce_fit f;
	CU_ASSERT_EQUAL_FATAL(cal_pce_fit_init(&f, &b, b.nterms, xi, n, &err), 0);
	double loo = cal_pce_solve(&f, y, c), first[3], total[3];
	CU_ASSERT(loo < 0.05 * sqrt(D));
	double var = cal_pce_sobol(&b, c, b.nterms, first, total);
	CU_ASSERT_DOUBLE_EQUAL(var, D, 0.01 * D);
	CU_ASSERT_DOUBLE_EQUAL(first[0], D1 / D, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(first[1], D2 / D, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(first[2], 0, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(total[0], (D1 + D13) / D, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(total[1], D2 / D, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(total[2], D13 / D, 0.01);
	cal_pce_fit_free(&f);
	cal_pce_basis_free(&b);
	free(xi);
	free(y);
	free(c);
}

/* Every coordinate has one point per stratum; the same seed gives the same design. */
static void test_lhs(void)
{
	size_t n = 37, d = 4;
	double *u = xmalloc(n * d * sizeof *u), *v = xmalloc(n * d * sizeof *v);
	cal_lhs(n, d, 3, 5, u);
	for (size_t j = 0; j < d; j++) {
		int seen[37] = {0};
		for (size_t i = 0; i < n; i++) {
			double x = u[i * d + j];
			CU_ASSERT(x >= 0 && x < 1);
			seen[(int)(x * (double)n)]++;
		}
		for (size_t k = 0; k < n; k++)
			CU_ASSERT_EQUAL(seen[k], 1);
	}
	cal_lhs(n, d, 3, 5, v);
	CU_ASSERT_EQUAL(memcmp(u, v, n * d * sizeof *u), 0);
	cal_lhs(n, d, 4, 5, v);
	CU_ASSERT_NOT_EQUAL(memcmp(u, v, n * d * sizeof *u), 0);
	free(u);
	free(v);
}

/* A parameter parsed from spec text, for the prior tests. */
static cal_param param(const char *text)
{
	cal_param p = {0};
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_param_parse("mpi.x", text, NULL, 0, &p, &err), 0);
	if (err)
		fprintf(stderr, "%s\n", err);
	free(err);
	return p;
}

/*
 * Densities in the coordinate u: the default is flat; a uniform prior on a
 * log range weighs u by v (the Jacobian v ln(HI/LO)); a normal prior on a
 * linear range is the Gaussian of the value.
 */
static void test_priors(void)
{
	cal_param p = param("1us:100us log");
	CU_ASSERT_DOUBLE_EQUAL(cal_prior_logpdf(&p, 0.3) - cal_prior_logpdf(&p, 0.7), 0, 1e-12);
	CU_ASSERT(cal_prior_logpdf(&p, 1.2) == -INFINITY);
	p = param("1us:100us log prior=uniform");
	/* u = 0 is 1 us and u = 0.5 is 10 us: log density differs by ln 10. */
	CU_ASSERT_DOUBLE_EQUAL(cal_prior_logpdf(&p, 0.5) - cal_prior_logpdf(&p, 0), log(10), 1e-9);
	p = param("0us:10us prior=normal(5us,1us)");
	CU_ASSERT_EQUAL(p.prior, CAL_PRIOR_NORMAL);
	CU_ASSERT_DOUBLE_EQUAL(p.prior_a, 5e6, 1e-6);
	/* u = 0.7 is 7 us, two standard deviations: -2. */
	CU_ASSERT_DOUBLE_EQUAL(cal_prior_logpdf(&p, 0.7) - cal_prior_logpdf(&p, 0.5), -2, 1e-9);
	p = param("1GB/s:100GB/s log prior=lognormal(10GB/s,0.5)");
	/* On a log range the lognormal's 1/v cancels the Jacobian: a Gaussian in ln v, sigma 0.5. */
	CU_ASSERT_DOUBLE_EQUAL(cal_prior_logpdf(&p, 0.75) - cal_prior_logpdf(&p, 0.5),
	                       -0.5 * pow(0.25 * log(100) / 0.5, 2), 1e-9);
	cal_param q = {0};
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_param_parse("mpi.x", "0us:10us prior=lognormal(5us,1)", NULL, 0, &q, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "positive low end"));
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(cal_param_parse("mpi.x", "1us:10us prior=cauchy(5us,1us)", NULL, 0, &q, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "unknown prior"));
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(cal_param_parse("mpi.x", "1us:10us prior=normal(5us,0us)", NULL, 0, &q, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "must be positive"));
	free(err);
}

int main(void)
{
	static const ut_test pce[] = {
		{"Legendre values", test_legendre_values},
		{"Legendre orthonormal", test_legendre_orthonormal},
		{"basis order", test_basis_order},
		{"exact recovery", test_exact_recovery},
		{"Ishigami Sobol indices", test_ishigami},
		{NULL, NULL},
	};
	static const ut_test other[] = {
		{"Latin hypercube", test_lhs},
		{"priors", test_priors},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"pce", pce, NULL, NULL},
		{"design and priors", other, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

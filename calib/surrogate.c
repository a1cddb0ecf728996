/*
 * surrogate.c - the polynomial-chaos surrogate of a calibration's figures (see surrogate.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/surrogate.h"

/* Degrees above this cost more than they gain on simulator outputs (and the terms explode with the parameters). */
#define SUR_MAX_DEGREE 6
/* At most this many terms for each training run: the least squares stay overdetermined. */
#define SUR_TERMS_SHARE (2.0 / 3.0)

/* The largest degree whose basis fits ntrain runs. */
static size_t auto_degree(size_t dim, size_t ntrain, size_t cap)
{
	size_t q = 0;
	while (q < cap && (double)cal_pce_nterms(dim, q + 1) <= SUR_TERMS_SHARE * (double)ntrain)
		q++;
	return q;
}

/* u in s's box to xi in [-1,1], for n points. */
static double *scaled(const cal_surrogate *s, const double *u, size_t n, size_t dim)
{
	double *xi = xmalloc((n * dim + 1) * sizeof *xi);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < dim; j++)
			xi[i * dim + j] = 2 * (u[i * dim + j] - s->lo[j]) / (s->hi[j] - s->lo[j]) - 1;
	return xi;
}

/* The column of output o, on its fitting scale. */
static void column(const double *y, size_t n, size_t nout, size_t o, int logy, double *col)
{
	for (size_t i = 0; i < n; i++)
		col[i] = logy ? log(y[i * nout + o]) : y[i * nout + o];
}

static int all_positive(const double *y, size_t n, size_t nout, size_t o)
{
	for (size_t i = 0; i < n; i++)
		if (!(y[i * nout + o] > 0))
			return 0;
	return 1;
}

/* Held-out errors of output o with coefficients c. */
static void holdout(cal_surrogate *s, size_t o, const double *c, const double *xi, const double *y, size_t n,
                    double *row, double *scr)
{
	double sse = 0, mx = 0;
	for (size_t i = 0; i < n; i++) {
		cal_pce_row(&s->basis, xi + i * s->basis.dim, row, scr);
		double f = cal_pce_dot(c, row, s->nterms[o]), truth = y[i * s->nout + o];
		f = s->logy[o] ? exp(f) : f;
		double rel = fabs(f - truth) / (truth != 0 ? fabs(truth) : 1);
		sse += rel * rel;
		mx = rel > mx ? rel : mx;
	}
	s->err_rel[o] = n ? sqrt(sse / (double)n) : NAN;
	s->err_max[o] = n ? mx : NAN;
}

static void alloc_outputs(cal_surrogate *s, size_t nout)
{
	s->nout = nout;
	s->coef = xcalloc(nout * s->basis.nterms, sizeof *s->coef);
	s->nterms = xcalloc(nout, sizeof *s->nterms);
	s->logy = xcalloc(nout, sizeof *s->logy);
	s->err_rel = xcalloc(nout, sizeof *s->err_rel);
	s->err_max = xcalloc(nout, sizeof *s->err_max);
}

/* One SVD per degree 1..D of the first n points of xi (fits[q - 1]). 0, or -1 with *err. */
static int factor_all(const cal_surrogate *s, const double *xi, size_t n, cal_pce_fit *fits, char **err)
{
	for (size_t q = 1; q <= s->basis.degree; q++)
		if (cal_pce_fit_init(&fits[q - 1], &s->basis, s->basis.upto[q], xi, n, err) < 0)
			return -1;
	return 0;
}

static void free_all(cal_pce_fit *fits, size_t n)
{
	for (size_t q = 0; q < n; q++)
		cal_pce_fit_free(&fits[q]);
	free(fits);
}

int cal_surrogate_fit(cal_surrogate *s, size_t dim, const double *lo, const double *hi, size_t max_degree,
                      const double *u_train, const double *y_train, size_t ntrain, const double *u_test,
                      const double *y_test, size_t ntest, size_t nout, char **err)
{
	memset(s, 0, sizeof *s);
	s->lo = xmalloc(dim * sizeof *s->lo);
	s->hi = xmalloc(dim * sizeof *s->hi);
	for (size_t j = 0; j < dim; j++) {
		s->lo[j] = lo ? lo[j] : 0;
		s->hi[j] = hi ? hi[j] : 1;
	}
	size_t D = auto_degree(dim, ntrain, max_degree ? max_degree : SUR_MAX_DEGREE);
	if (D == 0) {
		*err = xasprintf("%zu training runs cannot fit even a linear surrogate in %zu parameters (it needs %zu): "
		                 "raise [bayes] design", ntrain, dim, (size_t)ceil((double)(dim + 1) / SUR_TERMS_SHARE));
		cal_surrogate_free(s);
		return -1;
	}
	if (cal_pce_basis_init(&s->basis, dim, D, SIZE_MAX, err) < 0) {
		cal_surrogate_free(s);
		return -1;
	}
	alloc_outputs(s, nout);
	s->ntrain = ntrain;
	s->ntest = ntest;
	size_t nall = ntrain + ntest, P = s->basis.nterms;
	double *xi = scaled(s, u_train, ntrain, dim), *xt = scaled(s, u_test, ntest, dim);
	double *xa = xmalloc((nall * dim + 1) * sizeof *xa), *ya = xmalloc((nall * nout + 1) * sizeof *ya);
	memcpy(xa, xi, ntrain * dim * sizeof *xa);
	memcpy(xa + ntrain * dim, xt, ntest * dim * sizeof *xa);
	memcpy(ya, y_train, ntrain * nout * sizeof *ya);
	if (ntest)
		memcpy(ya + ntrain * nout, y_test, ntest * nout * sizeof *ya);
	cal_pce_fit *tr = xcalloc(D, sizeof *tr), *all = xcalloc(D, sizeof *all);
	int rc = factor_all(s, xi, ntrain, tr, err);
	if (rc == 0)
		rc = factor_all(s, xa, nall, all, err);
	double *col = xmalloc((nall + 1) * sizeof *col), *c = xmalloc(P * sizeof *c);
	double *row = xmalloc(P * sizeof *row), *scr = xmalloc(dim * (D + 1) * sizeof *scr);
	for (size_t o = 0; rc == 0 && o < nout; o++) {
		s->logy[o] = all_positive(ya, nall, nout, o);
		column(y_train, ntrain, nout, o, s->logy[o], col);
		/* Errors at the rounding level of the figures are ties: the lower degree wins them. */
		double best = INFINITY, big = 0;
		for (size_t i = 0; i < ntrain; i++)
			big = fabs(col[i]) > big ? fabs(col[i]) : big;
		size_t bq = 1;
		for (size_t q = 1; q <= D; q++) {
			double loo = cal_pce_solve(&tr[q - 1], col, c);
			if (loo < best * (1 - 1e-9) - 1e-12 * big) {
				best = loo;
				bq = q;
			}
		}
		s->nterms[o] = s->basis.upto[bq];
		cal_pce_solve(&tr[bq - 1], col, c);
		holdout(s, o, c, xt, y_test, ntest, row, scr);
		s->worst = s->err_rel[o] > s->worst || s->err_rel[o] != s->err_rel[o] ? s->err_rel[o] : s->worst;
		column(ya, nall, nout, o, s->logy[o], col);
		cal_pce_solve(&all[bq - 1], col, s->coef + o * P);
	}
	free_all(tr, D);
	free_all(all, D);
	free(col);
	free(c);
	free(row);
	free(scr);
	free(xi);
	free(xt);
	free(xa);
	free(ya);
	if (rc < 0)
		cal_surrogate_free(s);
	return rc;
}

void cal_surrogate_free(cal_surrogate *s)
{
	cal_pce_basis_free(&s->basis);
	free(s->coef);
	free(s->nterms);
	free(s->logy);
	free(s->err_rel);
	free(s->err_max);
	free(s->lo);
	free(s->hi);
	memset(s, 0, sizeof *s);
}

size_t cal_surrogate_scratch(const cal_surrogate *s)
{
	return s->basis.nterms + 2 * s->basis.dim * (s->basis.degree + 1) + s->basis.dim;
}

void cal_surrogate_eval(const cal_surrogate *s, const double *u, double *out, double *scratch)
{
	size_t d = s->basis.dim, P = s->basis.nterms;
	double *row = scratch, *xi = scratch + P, *leg = xi + d;
	for (size_t j = 0; j < d; j++) {
		if (!(u[j] >= s->lo[j] && u[j] <= s->hi[j])) {
			for (size_t o = 0; o < s->nout; o++)
				out[o] = NAN;
			return;
		}
		xi[j] = 2 * (u[j] - s->lo[j]) / (s->hi[j] - s->lo[j]) - 1;
	}
	cal_pce_row(&s->basis, xi, row, leg);
	for (size_t o = 0; o < s->nout; o++) {
		double f = cal_pce_dot(s->coef + o * P, row, s->nterms[o]);
		out[o] = s->logy[o] ? exp(f) : f;
	}
}

size_t cal_surrogate_degree(const cal_surrogate *s, size_t o)
{
	size_t q = 0;
	while (q < s->basis.degree && s->basis.upto[q] < s->nterms[o])
		q++;
	return q;
}

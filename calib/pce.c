/*
 * pce.c - polynomial-chaos expansions (see pce.h).
 */
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/pce.h"

/* Beyond this many terms a surrogate is not worth building (and the count may overflow). */
#define PCE_TERMS_CAP 10000000u

size_t cal_pce_nterms(size_t dim, size_t degree)
{
	/* C(dim + degree, degree), built up one factor at a time (each step is exact). */
	double c = 1;
	for (size_t k = 1; k <= degree; k++) {
		c = c * (double)(dim + k) / (double)k;
		if (c > PCE_TERMS_CAP)
			return SIZE_MAX;
	}
	return (size_t)llround(c);
}

/* Appends every multi-index of total degree exactly q whose variables from j on sum to left. */
static void gen_degree(cal_pce_basis *b, uint8_t *cur, size_t j, size_t left, size_t *t)
{
	if (j == b->dim - 1) {
		cur[j] = (uint8_t)left;
		memcpy(b->alpha + *t * b->dim, cur, b->dim);
		(*t)++;
		return;
	}
	/* Higher powers of earlier variables first: x^2, xy, y^2 for two variables. */
	for (size_t k = left + 1; k-- > 0;) {
		cur[j] = (uint8_t)k;
		gen_degree(b, cur, j + 1, left - k, t);
	}
}

int cal_pce_basis_init(cal_pce_basis *b, size_t dim, size_t degree, size_t max_terms, char **err)
{
	memset(b, 0, sizeof *b);
	size_t n = cal_pce_nterms(dim, degree);
	if (dim == 0 || degree > 255 || n > max_terms) {
		*err = xasprintf("a polynomial surrogate of degree %zu in %zu parameters has too many terms "
		                 "(more than %zu): lower the degree or fix some parameters", degree, dim, max_terms);
		return -1;
	}
	b->dim = dim;
	b->degree = degree;
	b->nterms = n;
	b->alpha = xcalloc(n * dim, 1);
	b->upto = xcalloc(degree + 1, sizeof *b->upto);
	uint8_t *cur = xcalloc(dim, 1);
	size_t t = 0;
	for (size_t q = 0; q <= degree; q++) {
		gen_degree(b, cur, 0, q, &t);
		b->upto[q] = t;
	}
	free(cur);
	return 0;
}

void cal_pce_basis_free(cal_pce_basis *b)
{
	free(b->alpha);
	free(b->upto);
	memset(b, 0, sizeof *b);
}

void cal_legendre(double x, size_t degree, double *p)
{
	/* Bonnet's recurrence for P_n, then the factor that makes E[L_n^2] = 1 under U[-1, 1]. */
	double pm = 1, pc = x;
	p[0] = 1;
	if (degree >= 1)
		p[1] = x * sqrt(3.0);
	for (size_t n = 1; n < degree; n++) {
		double pn = ((double)(2 * n + 1) * x * pc - (double)n * pm) / (double)(n + 1);
		pm = pc;
		pc = pn;
		p[n + 1] = pn * sqrt((double)(2 * n + 3));
	}
}

void cal_pce_row(const cal_pce_basis *b, const double *xi, double *row, double *scratch)
{
	size_t d = b->dim, stride = b->degree + 1;
	for (size_t j = 0; j < d; j++)
		cal_legendre(xi[j], b->degree, scratch + j * stride);
	for (size_t t = 0; t < b->nterms; t++) {
		const uint8_t *a = b->alpha + t * d;
		double v = 1;
		for (size_t j = 0; j < d; j++)
			if (a[j])
				v *= scratch[j * stride + a[j]];
		row[t] = v;
	}
}

double cal_pce_dot(const double *coef, const double *row, size_t n)
{
	double s = 0;
	for (size_t t = 0; t < n; t++)
		s += coef[t] * row[t];
	return s;
}

int cal_pce_fit_init(cal_pce_fit *f, const cal_pce_basis *b, size_t nterms, const double *xi, size_t n, char **err)
{
	memset(f, 0, sizeof *f);
	if (n < nterms || nterms == 0 || nterms > b->nterms) {
		*err = xasprintf("%zu design points cannot fit %zu polynomial terms", n, nterms);
		return -1;
	}
	gsl_matrix *a = gsl_matrix_alloc(n, nterms), *v = gsl_matrix_alloc(nterms, nterms);
	gsl_vector *s = gsl_vector_alloc(nterms), *work = gsl_vector_alloc(nterms);
	double *row = xmalloc(b->nterms * sizeof *row), *scr = xmalloc(b->dim * (b->degree + 1) * sizeof *scr);
	for (size_t i = 0; i < n; i++) {
		cal_pce_row(b, xi + i * b->dim, row, scr);
		memcpy(gsl_matrix_ptr(a, i, 0), row, nterms * sizeof *row);
	}
	free(row);
	free(scr);
	/* A is replaced by U (n x nterms, n >= nterms): A = U diag(s) V^T. */
	int rc = gsl_linalg_SV_decomp(a, v, s, work);
	if (rc) {
		*err = xasprintf("the surrogate's least-squares design could not be factored (GSL error %d)", rc);
		gsl_matrix_free(a);
		gsl_matrix_free(v);
		gsl_vector_free(s);
		gsl_vector_free(work);
		return -1;
	}
	f->n = n;
	f->nterms = nterms;
	f->u = xmalloc(n * nterms * sizeof *f->u);
	f->v = xmalloc(nterms * nterms * sizeof *f->v);
	f->s = xmalloc(nterms * sizeof *f->s);
	f->lev = xcalloc(n, sizeof *f->lev);
	memcpy(f->u, a->data, n * nterms * sizeof *f->u);
	memcpy(f->v, v->data, nterms * nterms * sizeof *f->v);
	memcpy(f->s, s->data, nterms * sizeof *f->s);
	double smax = nterms ? f->s[0] : 0;
	while (f->rank < nterms && f->s[f->rank] > 1e-10 * smax)
		f->rank++;
	/* The hat matrix is U_r U_r^T: a point's leverage is the squared norm of its row of U_r. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < f->rank; k++)
			f->lev[i] += f->u[i * nterms + k] * f->u[i * nterms + k];
	gsl_matrix_free(a);
	gsl_matrix_free(v);
	gsl_vector_free(s);
	gsl_vector_free(work);
	return 0;
}

void cal_pce_fit_free(cal_pce_fit *f)
{
	free(f->u);
	free(f->v);
	free(f->s);
	free(f->lev);
	memset(f, 0, sizeof *f);
}

double cal_pce_solve(const cal_pce_fit *f, const double *y, double *coef)
{
	size_t n = f->n, p = f->nterms;
	double *w = xcalloc(p, sizeof *w);
	/* coef = V_r diag(1/s) U_r^T y */
	for (size_t k = 0; k < f->rank; k++) {
		double dot = 0;
		for (size_t i = 0; i < n; i++)
			dot += f->u[i * p + k] * y[i];
		w[k] = dot / f->s[k];
	}
	for (size_t t = 0; t < p; t++) {
		double c = 0;
		for (size_t k = 0; k < f->rank; k++)
			c += f->v[t * p + k] * w[k];
		coef[t] = c;
	}
	/* Leave-one-out residuals from the fitted values U_r U_r^T y (no second solve). */
	double sse = 0;
	for (size_t i = 0; i < n; i++) {
		double fit = 0;
		for (size_t k = 0; k < f->rank; k++)
			fit += f->u[i * p + k] * w[k] * f->s[k];
		if (f->lev[i] > 1 - 1e-9) {
			free(w);
			return INFINITY;
		}
		double r = (y[i] - fit) / (1 - f->lev[i]);
		sse += r * r;
	}
	free(w);
	return sqrt(sse / (double)n);
}

double cal_pce_sobol(const cal_pce_basis *b, const double *coef, size_t nterms, double *first, double *total)
{
	size_t d = b->dim;
	double var = 0;
	for (size_t j = 0; j < d; j++)
		first[j] = total[j] = 0;
	for (size_t t = 1; t < nterms; t++) {
		const uint8_t *a = b->alpha + t * d;
		double c2 = coef[t] * coef[t];
		size_t used = 0, last = 0;
		var += c2;
		for (size_t j = 0; j < d; j++)
			if (a[j]) {
				total[j] += c2;
				used++;
				last = j;
			}
		if (used == 1)
			first[last] += c2;
	}
	for (size_t j = 0; j < d && var > 0; j++) {
		first[j] /= var;
		total[j] /= var;
	}
	return var;
}

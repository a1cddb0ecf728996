/*
 * pce.h - polynomial-chaos expansions: a surrogate of the simulator that is
 * a polynomial of the parameters, and the Sobol indices it gives for free.
 *
 * Each parameter is scaled to xi in [-1, 1] (its prior range, on the scale
 * it is declared with: linear or log), and the basis is the product of
 * orthonormal Legendre polynomials, L_n(xi) = sqrt(2n + 1) P_n(xi), so that
 * for xi uniform on [-1, 1]^d the basis functions are orthonormal:
 *
 *     f(xi) = sum_a c_a Psi_a(xi),   Psi_a(xi) = prod_j L_{a_j}(xi_j)
 *     mean = c_0,   variance D = sum_{a != 0} c_a^2
 *     first-order index S_j = (sum of c_a^2 over a with a_j > 0 and every other a_k = 0) / D
 *     total index      T_j = (sum of c_a^2 over a with a_j > 0) / D
 *
 * The multi-indices are those of total degree <= p, in graded order (every
 * term of degree q before any of degree q + 1), so the basis of degree q is
 * a prefix of the basis of degree p: one design matrix serves every degree.
 *
 * Fitting is least squares through the SVD of the design matrix (GSL). The
 * SVD also gives the leverages h_i, so the leave-one-out residual of every
 * point, r_i / (1 - h_i), costs nothing more: the degree of each output is
 * chosen by its leave-one-out error.
 */
#ifndef NCSIM_CALIB_PCE_H
#define NCSIM_CALIB_PCE_H

#include <stddef.h>
#include <stdint.h>

/* The multi-indices of total degree <= degree in dim variables. */
typedef struct cal_pce_basis {
	size_t dim, degree, nterms;
	uint8_t *alpha;        /* alpha[t * dim + j]: degree of variable j in term t (heap) */
	size_t *upto;          /* upto[q]: terms of total degree <= q (degree + 1 entries, heap) */
} cal_pce_basis;

/* Terms of total degree <= degree in dim variables: C(dim + degree, degree); SIZE_MAX past 10^7. */
size_t cal_pce_nterms(size_t dim, size_t degree);
/* Builds the basis. 0, or -1 with *err when it would have more than max_terms terms. */
int cal_pce_basis_init(cal_pce_basis *b, size_t dim, size_t degree, size_t max_terms, char **err);
void cal_pce_basis_free(cal_pce_basis *b);

/* The orthonormal Legendre polynomials L_0..L_degree at x (x in [-1, 1]) into p[0..degree]. */
void cal_legendre(double x, size_t degree, double *p);
/*
 * Every basis function at xi[0..dim) into row[0..nterms). scratch holds
 * dim * (degree + 1) doubles. No allocation: this is the sampler's inner loop.
 */
void cal_pce_row(const cal_pce_basis *b, const double *xi, double *row, double *scratch);
/* sum_t coef[t] row[t] over the first n terms. */
double cal_pce_dot(const double *coef, const double *row, size_t n);

/* A least-squares fit of the first `nterms` basis functions at n points (the SVD of that design). */
typedef struct cal_pce_fit {
	size_t n, nterms, rank;
	double *u;             /* n x nterms: left singular vectors (row-major) */
	double *s, *v;         /* singular values; nterms x nterms right singular vectors */
	double *lev;           /* leverages h_i of the n points */
} cal_pce_fit;

/*
 * Factors the design of the first nterms basis functions at the n points
 * xi[i * dim ...]. Singular values below 1e-10 of the largest are dropped
 * (a design too small or degenerate for the degree shows as rank < nterms).
 * 0, or -1 with *err (n < nterms, or GSL failed).
 */
int cal_pce_fit_init(cal_pce_fit *f, const cal_pce_basis *b, size_t nterms, const double *xi, size_t n, char **err);
void cal_pce_fit_free(cal_pce_fit *f);
/*
 * Coefficients of the least-squares fit of y[0..n) into coef[0..nterms);
 * returns the root mean square leave-one-out residual (INFINITY when a
 * point has leverage 1: the fit interpolates it and says nothing about it).
 */
double cal_pce_solve(const cal_pce_fit *f, const double *y, double *coef);

/*
 * Sobol indices of the expansion coef[0..nterms) (a prefix of b):
 * first[j] and total[j] for every variable. Returns the variance D; with
 * D == 0 every index is 0.
 */
double cal_pce_sobol(const cal_pce_basis *b, const double *coef, size_t nterms, double *first, double *total);

#endif

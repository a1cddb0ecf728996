/*
 * surrogate.h - a polynomial-chaos surrogate of every simulated figure of a
 * calibration (one output per measured point), fitted on a design of
 * simulator runs and checked on runs it never saw.
 *
 * A figure that is positive at every design point (a time, a bandwidth) is
 * fitted on the log scale: the simulator's figures are mostly products and
 * quotients of the parameters, which the logarithm turns into sums, so a
 * low degree fits them. Each output gets the degree (1 .. the largest the
 * design supports) with the smallest leave-one-out error on the training
 * runs; the held-out runs then give its error, and the final coefficients
 * come from every run at that degree.
 */
#ifndef NCSIM_CALIB_SURROGATE_H
#define NCSIM_CALIB_SURROGATE_H

#include <stddef.h>
#include <stdint.h>

#include "calib/pce.h"

typedef struct cal_surrogate {
	cal_pce_basis basis;     /* of the largest degree tried */
	size_t nout;
	double *coef;            /* coef[o * basis.nterms ...], zero past the output's own terms */
	size_t *nterms;          /* terms output o uses (a prefix of the basis) */
	int *logy;               /* 1: output o is fitted as log(figure) */
	double *err_rel;         /* RMS relative error of output o on the held-out runs */
	double *err_max;         /* largest relative error of output o there */
	double worst;            /* the largest err_rel */
	size_t ntrain, ntest;
	double *lo, *hi;         /* the box it was fitted on, in coordinates (heap, dim each) */
} cal_surrogate;

/*
 * Fits nout outputs: u_train[i * dim ...] in the box [lo, hi] (NULL: [0,1]^dim)
 * with figures y_train[i * nout + o], and the held-out runs u_test, y_test
 * the same way. The polynomials' variables are the coordinates scaled to
 * [-1, 1] over the box. max_degree 0: the largest degree whose terms are at
 * most 2/3 of the training runs (and at most 6). 0, or -1 with *err.
 */
int cal_surrogate_fit(cal_surrogate *s, size_t dim, const double *lo, const double *hi, size_t max_degree,
                      const double *u_train, const double *y_train, size_t ntrain, const double *u_test,
                      const double *y_test, size_t ntest, size_t nout, char **err);
void cal_surrogate_free(cal_surrogate *s);
/* Scratch for cal_surrogate_eval: basis.nterms + dim * (degree + 1) doubles. */
size_t cal_surrogate_scratch(const cal_surrogate *s);
/* Every figure at u into out[0..nout); NAN outside the box. No allocation (the sampler's inner loop). */
void cal_surrogate_eval(const cal_surrogate *s, const double *u, double *out, double *scratch);
/* Output o's degree (the largest total degree among its terms). */
size_t cal_surrogate_degree(const cal_surrogate *s, size_t o);

#endif

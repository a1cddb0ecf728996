/*
 * design.c - Latin-hypercube designs (see design.h).
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/design.h"

/* The smallest squared distance between two points of u. */
static double min_dist2(const double *u, size_t n, size_t dim)
{
	double best = INFINITY;
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			double d2 = 0;
			for (size_t j = 0; j < dim && d2 < best; j++) {
				double d = u[a * dim + j] - u[b * dim + j];
				d2 += d * d;
			}
			best = d2 < best ? d2 : best;
		}
	return best;
}

/* One random Latin hypercube into u. */
static void one(gsl_rng *r, size_t n, size_t dim, size_t *perm, double *u)
{
	for (size_t j = 0; j < dim; j++) {
		for (size_t i = 0; i < n; i++)
			perm[i] = i;
		gsl_ran_shuffle(r, perm, n, sizeof *perm);
		for (size_t i = 0; i < n; i++)
			u[i * dim + j] = ((double)perm[i] + gsl_rng_uniform(r)) / (double)n;
	}
}

void cal_lhs(size_t n, size_t dim, uint64_t seed, size_t tries, double *u)
{
	if (n == 0 || dim == 0)
		return;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)(seed ^ 0x5bd1e995u));
	size_t *perm = xmalloc(n * sizeof *perm);
	double *cand = xmalloc(n * dim * sizeof *cand), best = -1;
	for (size_t t = 0; t < (tries ? tries : 1); t++) {
		one(r, n, dim, perm, cand);
		double d = n > 1 ? min_dist2(cand, n, dim) : 0;
		if (d > best) {
			best = d;
			memcpy(u, cand, n * dim * sizeof *u);
		}
	}
	free(cand);
	free(perm);
	gsl_rng_free(r);
}

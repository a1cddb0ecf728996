/*
 * optim.h - the optimizers of `ncsim calibrate` behind one interface.
 *
 * Optimizers work in the unit cube [0,1]^dim: the caller maps each coordinate
 * to a parameter (linearly or on a log scale), so no optimizer knows units or
 * scales. The optimizer calls back `eval` with batches of points and receives
 * one loss per point (+inf for a failed evaluation, which the optimizer must
 * survive). It stops when `budget` points have been evaluated, when eval
 * returns -1 (the caller aborts: interrupted), or when an NLopt algorithm
 * converges (a multi-start then starts again from the next point).
 *
 * Determinism: the points proposed are a function of (name, dim, seed, budget,
 * batch, the losses returned) only. `batch` is the most points the optimizer
 * asks for in one call; it is a setting of the run, never the number of
 * workers, so a run gives the same points with -j 1 and -j 8.
 *
 * Names:
 *   random          uniform points, `batch` at a time (the same sequence for
 *                   every batch: the batch only cuts it into calls)
 *   grid            a full grid with k = floor(budget^(1/dim)) levels per
 *                   coordinate (cell centres), in lexicographic order
 *   tpe             Tree-structured Parzen Estimator (Bergstra et al.), the
 *                   multivariate form (Optuna's multivariate=True, after
 *                   Falkner et al.): the first `startup` (10) points uniform;
 *                   then the observations split into a good set, the
 *                   min(ceil(gamma n), gamma_cap) lowest losses (0.1 and 25:
 *                   Optuna's default gamma), and the rest. Each set's density
 *                   is a mixture of product kernels, one per observation (its
 *                   width in each coordinate by Optuna's univariate rule,
 *                   clipped to 1/min(100, n + 2) with n every observation so
 *                   far) plus the uniform prior as one more component. Each
 *                   proposed point is the best of `candidates` (24) draws from
 *                   l(x) by l(x)/g(x), a draw taking one component and every
 *                   coordinate from it, so the draws follow a ridge of good
 *                   observations; a batch draws its points independently from
 *                   the same densities. The start-up points are random's first
 *                   ones, and no batch mixes them with estimated points.
 *                   Infinite and NaN losses are bad.
 *   tpe-univariate  the same with Optuna's default univariate estimators: one
 *                   Parzen estimator per coordinate for each set (magic clip
 *                   1/min(100, set size + 2)), l and g their products, each
 *                   coordinate of a draw from its own mixture.
 *   NLopt, by name: neldermead, sbplx, bobyqa (local, derivative-free; with
 *                   `starts` starting points: the centre, then uniform), crs2
 *                   (CRS2-LM), direct-l, esch, isres (global). They evaluate one
 *                   point at a time. Each start gets the budget left over the
 *                   starts left; one that converges (steps below 1e-7) leaves
 *                   the rest of its share to the next.
 */
#ifndef NCSIM_CALIB_OPTIM_H
#define NCSIM_CALIB_OPTIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct cal_optcfg {
	const char *name;        /* see above */
	uint64_t seed;
	size_t budget;           /* evaluations in all (>= 1) */
	size_t batch;            /* most points per eval call (>= 1); NLopt ignores it */
	size_t starts;           /* NLopt local algorithms: starting points (>= 1) */
	double gamma;            /* TPE: share of the observations in the good set (0.1) */
	size_t gamma_cap;        /* TPE: most observations in the good set (25; 0: no limit) */
	size_t startup;          /* TPE: uniform points before the estimators (10) */
	size_t candidates;       /* TPE: draws per proposed point (24) */
	const double *start;     /* NLopt local algorithms: the first starting point (dim coordinates), or NULL: the centre */
} cal_optcfg;

/*
 * Evaluates k points u[0..k*dim) (row-major, each coordinate in [0,1]) into
 * loss[0..k). 0 to continue, -1 to stop the optimization at once.
 */
typedef int (*cal_eval_fn)(void *ctx, const double *u, size_t k, double *loss);

/* Fills c with the defaults above (name "tpe", seed 1, budget 200, batch 8, starts 1: one local run; more for a multi-start). */
void cal_optcfg_default(cal_optcfg *c);
/* 1 if name is an optimizer. */
int cal_optim_known(const char *name);
/* The names, comma separated, for messages and --help. */
const char *cal_optim_names(void);
/* Runs the optimizer over [0,1]^dim. 0 when the budget or convergence ended it,
 * 1 when eval stopped it, -1 with *err (heap) on a bad setting. */
int cal_optimize(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx, char **err);

/* ---- TPE internals, exposed for the unit tests. */

/* A univariate Parzen estimator on [0,1]: truncated Gaussians at mu[i] with
 * widths sigma[i] and weights w[i] (summing to 1). */
typedef struct cal_parzen {
	size_t n;
	double *mu, *sigma, *w;  /* heap */
	double *coef;            /* heap: w[i] / (sigma[i] sqrt(2 pi) (its mass in [0,1])), for the pdf */
} cal_parzen;
/* The estimator of observations x[0..n) (each in [0,1]) with the uniform prior
 * as one more component (centre 0.5, width 1), bandwidths by Optuna's rule. */
void cal_parzen_fit(cal_parzen *p, const double *x, size_t n);
/* Its density at x (integrates to 1 over [0,1]). */
double cal_parzen_pdf(const cal_parzen *p, double x);
void cal_parzen_free(cal_parzen *p);
/* A mixture of product kernels on [0,1]^dim (the multivariate TPE's density):
 * component k is the product over d of truncated Gaussians at mu[k dim + d]
 * with widths sigma[k dim + d], weight w[k]; the last component is the prior. */
typedef struct cal_mvparzen {
	size_t n, dim;           /* n components: the observations, then the prior */
	double *mu, *sigma;      /* heap, n x dim, row-major */
	double *w;               /* heap, n: 1/n each */
	double *logc;            /* heap, n x dim: -log(sigma sqrt(2 pi) (its mass in [0,1])), for the pdf */
} cal_mvparzen;
/* The mixture of observations x[0..n*dim) (row-major, in [0,1]) and the prior
 * (centre 0.5, width 1 in every coordinate); widths in coordinate d as
 * cal_parzen_fit gives them for the column d, except the clip's floor
 * 1/min(100, nobs + 2): nobs counts the observations of the whole run (n if less). */
void cal_mvparzen_fit(cal_mvparzen *p, const double *x, size_t n, size_t dim, size_t nobs);
/* The log of its density at x[0..dim) (-inf outside [0,1]^dim; integrates to 1 over the cube). */
double cal_mvparzen_logpdf(const cal_mvparzen *p, const double *x);
void cal_mvparzen_free(cal_mvparzen *p);
/* TPE's next k points u[0..k*dim) after n observations x[0..n*dim) (row-major)
 * with losses loss[0..n), as cal_optimize proposes them; they are points n..n+k-1
 * of the run, whose numbers choose their random streams. */
void cal_tpe_propose(const cal_optcfg *c, size_t dim, const double *x, const double *loss, size_t n,
                     double *u, size_t k);

/* ---- The families behind cal_optimize (c already checked; same return values). */

/* TPE, both forms (calib/tpe.c): `tpe-univariate` by name, else multivariate. */
int cal_tpe_run(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx);
/* 1 if name (any case) is one of the NLopt algorithms (calib/optim_nlopt.c). */
int cal_nlopt_known(const char *name);
/* The NLopt algorithm c->name; -1 with *err (heap) if NLopt refuses the setting. */
int cal_nlopt_run(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx, char **err);

#endif

/*
 * bayes.h - `ncsim calibrate --bayes` (doc/calibration.md): the posterior of
 * a spec's free parameters given its measurements.
 *
 *   1. design     a Latin hypercube of simulator runs over the prior ranges,
 *                 and a second one held out (or the runs of a design.csv);
 *   2. surrogate  a polynomial-chaos expansion of every simulated point
 *                 (surrogate.h), with its error on the held-out runs; then
 *                 (refine) a short sampling of the posterior on it gives
 *                 the region that matters, and a second design there gives
 *                 a second, local surrogate: a polynomial is accurate over
 *                 a small region where it is not over the whole prior
 *                 (the figures have kinks where the bottleneck changes).
 *                 When the surrogate's error is too large, direct
 *                 simulation instead;
 *   3. posterior  Gaussian likelihood per measured point, with variance
 *                   sd^2 / trials             the measured mean's own spread
 *                 + (delta * measured)^2      model discrepancy: delta is sampled
 *                 + (err * simulated)^2       the surrogate's held-out error
 *                 times the priors, sampled by the ensemble sampler (mcmc.h);
 *   4. report     posterior samples and summaries, predictive bands, Sobol
 *                 indices per point, the MAP system file (bayes_report.c).
 *
 * The sampler works on coordinates u in [0,1]^dim (the parameters' scaled
 * ranges, calib/spec.h) plus, with a discrepancy term, one coordinate for
 * delta on a log scale.
 */
#ifndef NCSIM_CALIB_BAYES_H
#define NCSIM_CALIB_BAYES_H

#include <stdio.h>

#include "calib/calibrate.h"
#include "calib/mcmc.h"
#include "calib/surrogate.h"
#include "runtime/task/driver.h"

/* One simulated figure that a measurement constrains: point `point` of benchmark `bench`. */
typedef struct cal_datum {
	size_t bench, point;
	double y, se2;      /* measured mean, and the variance of that mean (sd^2 / trials) */
	double weight;      /* the benchmark's weight: it scales the point's log-likelihood */
} cal_datum;

/* Simulator runs: coordinates u in [0,1]^dim and the figures of every output. */
typedef struct cal_design {
	double *u_train, *y_train, *u_test, *y_test;
	size_t ntrain, ntest;
} cal_design;

typedef struct cal_bayes {
	cal_spec *s;
	const cal_options *o;
	cal_runner *r;
	volatile int *stop;
	FILE *msg;
	size_t dim, *idx;         /* the free parameters (spec indices) */
	size_t ndim;              /* sampler coordinates: dim, + 1 with a discrepancy term */
	cal_datum *out;
	size_t nout;
	cal_design global;        /* runs over the prior ranges */
	cal_design local;         /* runs over the posterior region of the global surrogate */
	cal_design pool;          /* local runs of a reused design.csv: candidates for `local` */
	int reused;               /* the runs came from a design.csv (some may have been added) */
	size_t runs;              /* simulations this calibration ran */
	cal_surrogate sur_global; /* over the prior ranges: the Sobol indices */
	cal_surrogate sur_local;  /* over the posterior region (refine) */
	const cal_surrogate *sur; /* the one the likelihood uses, or NULL (direct simulation) */
	double *box_lo, *box_hi;  /* the posterior region, in coordinates (refine) */
	int direct;               /* the posterior is sampled by simulation, not a surrogate */
	size_t direct_runs;       /* simulations the direct sampler ran */
	cal_mcmc_cfg mc;
	cal_mcmc_out chain;
	size_t unstuck;           /* walkers moved off a stuck pocket during the burn-in */
	size_t extended;          /* times the sampler ran again because the chains had not mixed */
	size_t burn_evals;        /* density evaluations of the burn-in */
	double *map;              /* MAP coordinates (ndim) */
	double map_logp;
	cal_eval map_eval;        /* the simulator at the MAP values */
	double wall;
	drv_outdir dir;           /* the output folder, prepared before any run */
	int began;
} cal_bayes;

/*
 * Runs the Bayesian calibration of s and writes its folder; *stop (set by a
 * signal) interrupts it. Returns an exit status (exitcode.h).
 */
int cal_bayes_run(cal_spec *s, const cal_options *o, FILE *msg, volatile int *stop);

/* Every spec parameter's value for sampler coordinates u (the fixed ones at their value) into v. */
void cal_bayes_values(const cal_bayes *b, const double *u, double *v);
/* The discrepancy scale at coordinates u (0 without the term). */
double cal_bayes_delta(const cal_bayes *b, const double *u);
/* Log posterior at u, up to a constant, from the outputs' figures sim[0..nout). */
double cal_bayes_logpost(const cal_bayes *b, const double *u, const double *sim);
/* The variance of output o's measurement around the figure sim, at discrepancy delta. */
double cal_bayes_var(const cal_bayes *b, size_t o, double sim, double delta);

/* Runs the parameter sets u[0..k) (coordinates, dim each); their figures into y. 0, 1 interrupted, -1 with *err. */
int cal_bayes_simulate(cal_bayes *b, const double *u, size_t k, double *y, const char *what, char **err);
/* The global design (bayes_design.c): run, or read from [bayes] design_file. 0, 1 interrupted, -1 with *err. */
int cal_bayes_design(cal_bayes *b, char **err);
/* The local design in [box_lo, box_hi], reusing the pool's runs there. 0, 1 interrupted, -1 with *err. */
int cal_bayes_local_design(cal_bayes *b, char **err);
void cal_design_free(cal_design *d);

/* Writes the folder (bayes_report.c): 0, or -1 with *err. Prints the summary on stdout. */
int cal_bayes_report(cal_bayes *b, char **err);

#endif

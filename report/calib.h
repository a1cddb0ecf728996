/*
 * calib.h - a calibration's output folder as the report sees it (prefix rep_cal_).
 *
 * `ncsim calibrate --out DIR` writes DIR/calibration.json, with, for a
 * search, history.csv (every evaluation's loss), and for --bayes,
 * posterior.csv (every kept sample) beside the summaries that the JSON
 * repeats (doc/calibration.md, "Outputs"). The report reads:
 *   calibration.json  (required) the command line and status; the
 *                     parameters (a search: the chosen level's best values;
 *                     --bayes: the posterior summaries); every measured point
 *                     with its simulated value (a search: at the best values;
 *                     --bayes: the MAP run, the 90% posterior predictive band
 *                     and the Sobol total index of each parameter);
 *   history.csv       (a search) each evaluation's loss, profiles left out;
 *   posterior.csv     (--bayes) streamed twice: each parameter's range, then
 *                     REP_CAL_BINS counts per parameter.
 * Memory: the points and evaluations (a few thousand at most), and the
 * histograms, never the samples.
 */
#ifndef NCSIM_REPORT_CALIB_H
#define NCSIM_REPORT_CALIB_H

#include <stddef.h>

#include "base/util.h"

/* The bins of a posterior marginal. */
#define REP_CAL_BINS 40

typedef struct rep_cal_point {
	char *bench;        /* the benchmark's name */
	double x, measured, spread;  /* spread: a search, the trials' sd; --bayes, the mean's standard error */
	double sim;         /* simulated: at the best values (a search), by the MAP run (--bayes) */
	double band[3];     /* --bayes: the posterior predictive 5%, 50%, 95% points */
	double *sobol;      /* --bayes: the total index of each of the first nsobol parameters, or NULL */
	size_t nsobol;      /* the model's parameters (the discrepancy, listed last, has none) */
} rep_cal_point;

typedef struct rep_cal_param {
	char *name, *unit;  /* unit: "ps", "B/s", ... or "" */
	int log, constrained;  /* log: a log-uniform prior or a log-scale range */
	double low, high;   /* the range searched or the prior's */
	double best;        /* a search: the best value; --bayes: the MAP */
	double mean, sd, p05, p95;  /* --bayes */
	double lo, hi;      /* the samples' range (--bayes) */
	size_t samples;
	double counts[REP_CAL_BINS];  /* samples per bin, equal bins over [lo, hi] (in log space when log) */
} rep_cal_param;

typedef struct rep_cal_eval {
	double eval, loss;
} rep_cal_eval;

/* The evaluations of one level (a search with --levels has several). */
typedef struct rep_cal_level {
	char *name;
	VEC(rep_cal_eval) evals;
} rep_cal_level;

typedef struct rep_cal {
	char *dir, *label;
	char *command, *version, *status, *spec, *method;  /* method: "search" or "bayes"; "" when absent */
	int bayes;
	double loss;        /* a search: the best loss; --bayes: the loss at the MAP */
	double coverage;    /* --bayes: the share of points inside their 90% band; < 0 otherwise */
	VEC(rep_cal_param) params;
	VEC(rep_cal_point) points;
	VEC(char *) predicted;  /* benchmarks that are predicted, not fitted (use = predict) */
	VEC(rep_cal_level) levels;   /* history.csv */
	char *history_missing, *posterior_missing;  /* NULL, or why the file was not read */
} rep_cal;

/* 1 if dir is a calibration's output folder: no summary.json, a calibration.json. */
int rep_cal_is_input(const char *dir);
/*
 * Reads the calibration folder dir. The calibration (free with rep_cal_free),
 * or NULL with *err (heap, "FILE:LINE: ...") and *bad: 1 for a malformed
 * file, 0 for one that cannot be read.
 */
rep_cal *rep_cal_load(const char *dir, char **err, int *bad);
/* Frees c (NULL is a no-op). */
void rep_cal_free(rep_cal *c);

#endif

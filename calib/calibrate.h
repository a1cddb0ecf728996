/*
 * calibrate.h - `ncsim calibrate` and `ncsim predict` (doc/calibration.md).
 *
 * A calibration fits the free parameters of a spec by running its
 * benchmarks (eval.h) for the points an optimizer proposes (optim.h),
 * for one network level or for each of several, and writes one output
 * folder: calibrated.conf, calibration.json and history.csv.
 */
#ifndef NCSIM_CALIB_CALIBRATE_H
#define NCSIM_CALIB_CALIBRATE_H

#include <stdio.h>

#include "calib/eval.h"
#include "calib/spec.h"

typedef struct cal_options {
	const char *self;            /* the ncsim binary the runs execute */
	const char *out;             /* --out, or NULL: ncsim-out/calibrate-<time> */
	int force;                   /* replace an existing --out */
	unsigned jobs;               /* -j: simulations at a time */
	uint64_t seed;               /* --seed of every run (the optimizer's is the spec's) */
	int progress;                /* 1: show the progress line */
	int allow_backend_code, allow_host_access;
	const char *max_memory;      /* passed on to the runs, or NULL */
	const char *command_line;    /* for calibration.json */
	int no_wall_time;            /* leave wall times out of calibration.json (for comparisons) */
} cal_options;

/* One evaluation, as history.csv lists it. */
typedef struct cal_record {
	size_t index;
	const char *phase;           /* "check", "search", "profile", "final" */
	int level, stage;            /* index into the levels; the regime fitted (-1: all) */
	double loss, wall;
	double *values;              /* one per spec parameter (heap) */
} cal_record;

/* What a calibration found for one network level. */
typedef struct cal_level {
	const char *name;            /* the level, or NULL: the system's own model */
	double *best;                /* best value of every parameter (heap) */
	double loss;                 /* its loss over the fitted benchmarks */
	double predict_loss;         /* over the predict-only benchmarks (NAN: none) */
	cal_eval final;              /* the runs of the best set, every benchmark */
	double *flat;                /* per parameter: 1 when the loss does not move over its range around the best */
	double *profile;             /* per parameter: the loss at the best coordinate -/+ CAL_PROFILE_STEP (2 each) */
	size_t evals;                /* search evaluations */
	double eval_wall;            /* wall seconds per parameter set, process starts included */
	double eval_sim;             /* the simulations' own wall seconds per parameter set */
	double eval_events;          /* events per parameter set: the cost that picks a level */
} cal_level;

/* The settings of o (jobs, seed, flags, memory limit) and the network level into runner r. */
void cal_runner_options(cal_runner *r, const cal_options *o, const char *network);
/* Runs `ncsim calibrate` for spec s. Returns an exit status (exitcode.h). */
int cal_calibrate(cal_spec *s, const cal_options *o, FILE *msg);
/* Runs `ncsim predict`: every benchmark of s on system (NULL: the spec's), a table on out. Exit status. */
int cal_predict(cal_spec *s, const char *system, const cal_options *o, FILE *out, FILE *msg);

#endif

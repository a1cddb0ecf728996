/*
 * report.h - the outputs of `ncsim calibrate` (doc/calibration.md):
 * one folder, written atomically as every run's, holding
 *   calibrated.conf          the base system with the best values in place
 *   calibrated-LEVEL.conf    the same per level, when several were compared
 *   calibration.json         spec, settings, best parameters, losses, residuals
 *   history.csv              every evaluation: phase, level, stage, loss, wall, values
 * and a summary on stdout.
 */
#ifndef NCSIM_CALIB_REPORT_H
#define NCSIM_CALIB_REPORT_H

#include <stdio.h>

#include "base/util.h"
#include "calib/calibrate.h"
#include "runtime/task/driver.h"

typedef struct cal_history {
	VEC(cal_record) rows;
} cal_history;

/* Appends an evaluation (values copied). */
void cal_history_add(cal_history *h, const char *phase, int level, int stage, double loss, double wall,
                     const double *values, size_t n);
void cal_history_free(cal_history *h);

typedef struct cal_report {
	const cal_spec *spec;
	const cal_options *opt;
	const cal_level *levels;
	size_t nlevels, chosen;
	const cal_history *hist;
	int interrupted;
	double wall;
	drv_outdir dir;
	int began;
} cal_report;

/* Prepares the output folder (refused when it exists, unless --force). 0, or -1 with *err. */
int cal_report_begin(cal_report *r, char **err);
/* Writes every output and commits the folder; prints the summary on stdout. 0, or -1 with *err. */
int cal_report_write(cal_report *r, FILE *msg, char **err);
/* Removes what was not committed. */
void cal_report_end(cal_report *r);

/* The table of `ncsim predict` and of the summary: per point, measured, simulated, error. */
void cal_print_points(const cal_spec *s, const cal_eval *ev, FILE *out);

#endif

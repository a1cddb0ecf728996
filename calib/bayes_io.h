/*
 * bayes_io.h - the CSV files of a Bayesian calibration that other commands
 * read back: design.csv (--design) and the parameter columns that
 * posterior.csv shares with it (ncsim run --posterior).
 *
 * A parameter column is named "SECTION.KEY [UNIT]": UNIT is ps (a time),
 * B/s (a bandwidth), B (a size in bytes) or int (an integer); a plain
 * number has no unit. Values are plain numbers in that unit.
 *
 * design.csv: '#' comment lines, then
 *     run,set,PARAM [UNIT]...,BENCH@X...
 * one row per simulator run; set is "train" or "test"; a column BENCH@X is
 * the simulated figure of benchmark BENCH at x = X.
 */
#ifndef NCSIM_CALIB_BAYES_IO_H
#define NCSIM_CALIB_BAYES_IO_H

#include <stdio.h>

#include "calib/bayes.h"

/* "ps", "B/s", "B", "int" or "": the unit of p's column. */
const char *cal_bayes_unit(const cal_param *p);
/* ",SECTION.KEY [UNIT]" for every free parameter, in order. */
void cal_bayes_param_header(const cal_bayes *b, FILE *f);
/* Writes design.csv into b's output folder. 0, or -1 with *err. */
int cal_bayes_write_design(const cal_bayes *b, char **err);
/*
 * Reads the runs of a design.csv into b: its parameter columns must be
 * b's free parameters and its figure columns b's measured points, in
 * order, and every value inside the parameter's range. 0, or -1 with *err.
 */
int cal_bayes_read_design(cal_bayes *b, const char *path, char **err);
/* qsort comparison of doubles. */
int cal_cmp_double(const void *a, const void *b);

#endif

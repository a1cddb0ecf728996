/*
 * calib_figures.h - the figures of a calibration (prefix rep_calfig_).
 *
 *   calib-loss        a search: the loss of every evaluation (dashed) and the
 *                     best so far (solid) against the evaluation, one colour
 *                     per level (history.csv);
 *   calib-fit-BENCH   per benchmark: the measured points (mean and its
 *                     spread) and the simulated curve (at the best values, or
 *                     the MAP run), --bayes with the 90% posterior predictive
 *                     band, and each point's relative error on the right axis;
 *   posterior-N       --bayes: the posterior marginal of parameter N as a
 *                     histogram over its prior range, the MAP dashed;
 *   calib-sobol       --bayes: the Sobol total indices as a heat map, a row
 *                     per parameter and a column per measured point.
 */
#ifndef NCSIM_REPORT_CALIB_FIGURES_H
#define NCSIM_REPORT_CALIB_FIGURES_H

#include "report/calib.h"
#include "report/figures.h"

/* Appends the figures of calibration c to *out. */
void rep_calfig_build(const rep_cal *c, rep_figures *out);
/* The unit in which values of parameter p are drawn (its own unit scaled to its range: ns, GB/s, ...). */
rep_unit rep_calfig_unit(const rep_cal_param *p, char *buf, size_t size);

#endif

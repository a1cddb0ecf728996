/*
 * nb_figures.h - the figures of a netbench load sweep (prefix rep_nbfig_).
 *
 *   nb-latency     mean and 99th-percentile message latency against the
 *                  offered load, a colour per curve (routing), the mean a
 *                  solid line, the p99 a dashed one;
 *   nb-throughput  accepted against offered load, a colour per curve, with
 *                  the line accepted = offered that a network keeping up
 *                  with its load follows.
 * Both read report/netbench.h's points: one per series and offered load,
 * the mean of its rows.
 */
#ifndef NCSIM_REPORT_NB_FIGURES_H
#define NCSIM_REPORT_NB_FIGURES_H

#include "report/figures.h"
#include "report/netbench.h"

/* Appends the figures of sweep nb to *out. */
void rep_nbfig_build(const rep_nb *nb, rep_figures *out);

#endif

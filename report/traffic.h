/*
 * traffic.h - the link traffic of a run split by job and class (prefix rep_traffic_).
 *
 * links_by_class.csv (packet and flow levels) splits each link's bytes of
 * links.csv by who put them there: one row per link and (job, traffic
 * class: mpi, ctrl, io, ...) with bytes on it, the job by its index in
 * summary.json's jobs. The report sums the bytes per link kind and (job,
 * class) pair while it streams the file, so memory grows with the pairs,
 * not the links, and draws
 *   link-traffic   stacked bars: the bytes each kind of link carried, split
 *                  by job and class (several runs: a bar per run and kind).
 */
#ifndef NCSIM_REPORT_TRAFFIC_H
#define NCSIM_REPORT_TRAFFIC_H

#include "report/figures.h"
#include "report/run.h"

/*
 * Reads DIR/links_by_class.csv of run r (its summary.json read first, for
 * the job names) into r->traffic; a missing file sets r->traffic_missing.
 * 0, or -1 with *err ("FILE:LINE: ...").
 */
int rep_traffic_load(rep_run *r, char **err);
/* Frees what rep_traffic_load put in r. */
void rep_traffic_free(rep_run *r);
/* Appends the link-traffic figure of runs[0..n) to *out when a run has links_by_class.csv. */
void rep_traffic_figure(rep_run *const *runs, size_t n, rep_figures *out);

#endif

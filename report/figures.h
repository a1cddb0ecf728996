/*
 * figures.h - which figures a report has, and their data (prefix rep_fig_).
 *
 * One run gets, in this order:
 *   time           stacked bars: each job's mean time per rank, split into
 *                  compute, MPI network / sync / stack, I/O and idle (tasks.csv);
 *   latency-mpi    box plots of each job's MPI message latency (summary.json);
 *   latency-io     box plots of each job's I/O request latency (summary.json);
 *   rank-mpi       box plots of the MPI time of each job's ranks (tasks.csv);
 *   rank-io        box plots of the I/O time of each job's ranks (tasks.csv);
 *   link-bytes     CDFs of the bytes per link, one curve per link kind (links.csv);
 *   global-saturation  the CDF of the global links' saturation time (links.csv);
 *   io-inflight, io-rate, device-busy  when a run did file I/O (io_figures.h).
 * Several runs get the same figures with the runs side by side: bars and
 * boxes grouped by job (jobs are matched by name), one colour per run, and
 * one link-bytes-KIND figure per link kind with one curve per run.
 *
 * A figure with nothing to draw (a run with no MPI message, no links.csv, no
 * saturated link) keeps its place with a note instead of data, so gnuplot
 * never sees an empty plot.
 */
#ifndef NCSIM_REPORT_FIGURES_H
#define NCSIM_REPORT_FIGURES_H

#include <stddef.h>

#include "base/util.h"
#include "report/plot.h"
#include "report/run.h"

typedef VEC(rep_figure) rep_figures;

/* Appends the figures of runs[0..n) (n >= 1) to *out. The runs' value arrays may be reordered (sorted). */
void rep_fig_build(rep_run *const *runs, size_t n, rep_figures *out);
/* A new figure id (file stem and anchor) with its heading at the end of out; the rest is for the caller to fill. */
rep_figure *rep_fig_add(rep_figures *out, const char *id, const char *title);
/* Frees the figures of f and empties it. */
void rep_fig_free(rep_figures *f);

#endif

/*
 * propagate.h - propagating a Bayesian calibration's posterior through a
 * program (prefix cal_prop_): `ncsim run --posterior posterior.csv` runs the
 * program once per posterior draw and reports every figure of summary.json
 * with its median and 90% interval (doc/calibration.md).
 *
 * This module holds what does not start processes: the reader of
 * posterior.csv, the choice of the draws, each draw's system text, the
 * reader of a run's summary.json, the statistics over the draws and the
 * outputs (posterior-summary.json, draws.csv, the table).
 * compiler/cli/cmd_run_posterior.c runs the draws.
 *
 * posterior.csv, as `ncsim calibrate --bayes` writes it:
 *
 *     # comment lines start with '#'
 *     sample,chain,log_posterior,discrepancy,network.latency [ps],mpi.credits [int]
 *     0,0,-123.4,0.012,1700604,64.2
 *
 * A column whose name has a '.' is the system-file key SECTION.KEY (split at
 * the last '.': sections such as [ssd.d3-s4510] have dots, keys do not),
 * with an optional unit in brackets: [ps], [B/s], [B], [int] or none (a
 * plain number). Every other column is carried along and not used.
 */
#ifndef NCSIM_CALIB_PROPAGATE_H
#define NCSIM_CALIB_PROPAGATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "calib/spec.h"

/* The number of draws when --samples is not given. */
#define CAL_PROP_DEFAULT_SAMPLES 32

/* One parameter column of posterior.csv. */
typedef struct cal_prop_param {
	char *section, *key;  /* lower case, as system files store them */
	enum cal_kind kind;   /* its unit: CAL_TIME [ps], CAL_BANDWIDTH [B/s], CAL_SIZE [B], CAL_INT [int], CAL_PLAIN */
	size_t col;           /* its column (0-based) */
} cal_prop_param;

typedef struct cal_posterior {
	char *header;            /* the header line as written */
	cal_prop_param *params;  /* the parameter columns, in file order */
	size_t nparams, ncols;
	size_t nrows;
	double *values;          /* nrows x nparams: values[r * nparams + p], in the column's unit */
	char **rows;             /* each row's line as written (no line end) */
	int *lines;              /* each row's line number in the file */
} cal_posterior;

/*
 * Reads posterior.csv text; name is the file in messages. Every error is
 * "NAME:LINE: ..." (heap): no header, a column without a name, a unit that
 * is none of the five, a parameter twice, no parameter column, a row with
 * another number of fields than the header, a parameter value that is not a
 * finite number (or negative for a time, a bandwidth or a size), no row.
 * 0, or -1 with *err (nothing to free then).
 */
int cal_prop_parse(const char *name, const char *text, cal_posterior *p, char **err);
/* cal_prop_parse of the file at path (xread_text: a regular file of bounded size). 0, or -1 with *err. */
int cal_prop_load(const char *path, cal_posterior *p, char **err);
void cal_prop_free(cal_posterior *p);
/* The unit of a kind as posterior.csv writes it: "ps", "B/s", "B", "int" or "" (a plain number). */
const char *cal_prop_unit(enum cal_kind kind);

/*
 * The row of draw i when k draws are taken evenly spaced over n rows
 * (k <= n): floor(i * n / k), computed without overflow. Deterministic, and
 * every draw a different row.
 */
size_t cal_prop_row(size_t i, size_t k, size_t n);
/*
 * The system text of row r: base with every parameter of the row written in
 * with its unit ("1700604 ps", "1.1e+10 B/s", "4096 B", "64", "%.10g"),
 * integers, times and sizes rounded to the nearest whole number. Heap.
 */
char *cal_prop_system(const cal_posterior *p, const char *base, size_t r);

/* -------------------------------------------------------------- the runs' figures */

/* One job of a run's summary.json: its names and every numeric member of its jobs[] entry, in order. */
typedef struct cal_prop_job {
	char *name, *program;
	uint64_t tasks;
	size_t nfig;
	char **fig;              /* member names ("end_ps", "mpi_ps", ...) */
	double *value;
} cal_prop_job;

/* What the propagation reads of one run's summary.json. */
typedef struct cal_prop_run {
	double sim_end_ps, events;
	cal_prop_job *jobs;
	size_t njobs;
} cal_prop_run;

/* Reads summary.json text (name in messages). 0, or -1 with *err = "NAME: ..." (heap). */
int cal_prop_read_summary(const char *name, const char *text, cal_prop_run *r, char **err);
void cal_prop_run_free(cal_prop_run *r);

/* The statistics of a figure over the draws. */
typedef struct cal_prop_stat {
	double median, p05, p95;  /* gsl_stats_quantile_from_sorted_data at 0.5, 0.05, 0.95 */
	double mean, sd;          /* sd with n - 1 (0 for one draw) */
} cal_prop_stat;

/* The statistics of x[0..n) (n >= 1); NaN everywhere when any value is NaN (a share of no MPI time). */
cal_prop_stat cal_prop_stats(const double *x, size_t n);

/*
 * The figures of every draw, job by job: the numeric members of summary.json
 * and the shares of MPI time (network_share, sync_share, stack_share, each
 * mpi_X_ps / mpi_ps of the draw: NaN when mpi_ps is 0).
 */
typedef struct cal_prop_table {
	size_t ndraws, njobs;
	const cal_prop_run *runs;   /* the draws' runs (not owned) */
	struct cal_prop_jobfigs {
		size_t nfig;
		char **fig;             /* names: the summary's, then the shares */
		double *value;          /* nfig x ndraws: value[f * ndraws + d] */
	} *jobs;
	double *sim_end, *events;   /* per draw */
} cal_prop_table;

/*
 * Gathers runs[0..n) (n >= 1) into t. Every run must have the jobs of the
 * first, with the same names, programs, task counts and figures; else -1
 * with *err naming the draw.
 */
int cal_prop_gather(const cal_prop_run *runs, size_t n, cal_prop_table *t, char **err);
void cal_prop_table_free(cal_prop_table *t);

/* What posterior-summary.json says about where the draws came from. */
typedef struct cal_prop_source {
	const char *posterior;       /* the file, as given */
	const char *program;         /* the program or workload file, as given */
	const cal_posterior *post;
	const size_t *rows;          /* the row of each draw */
	int with_wall;               /* write wall_seconds */
	double wall_seconds;
} cal_prop_source;

/* Writes posterior-summary.json. 0, or -1 (a write error). */
int cal_prop_write_json(const cal_prop_table *t, const cal_prop_source *s, FILE *f);
/* Writes draws.csv: "draw," and the header, then each draw's index and its row as written. 0, or -1. */
int cal_prop_write_draws(const cal_posterior *p, const size_t *rows, size_t ndraws, FILE *f);
/*
 * Prints the table of every job: per figure its median, 5% and 95% points,
 * times in ps..s, shares in %, sizes in B..GiB. A figure that is 0 in every
 * draw (no I/O, no sleep) and a share of no MPI time are left out.
 */
void cal_prop_print(const cal_prop_table *t, FILE *out);

#endif

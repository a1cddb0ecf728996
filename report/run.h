/*
 * run.h - one finished run as the report sees it (prefix rep_run_).
 *
 * Everything comes from the documented output files of the run's folder
 * (doc/ncsim.1, FILES), never from the simulator's structures, so the report
 * reads the runs of older versions too:
 *   - summary.json (required): inputs, status, per-job totals and latencies;
 *   - tasks.csv (optional): per-rank times, summed per job, and each rank's
 *     MPI and I/O time kept for the distributions;
 *   - links.csv (optional): each link's bytes by link kind, and each global
 *     link's saturation time (saturation_ps: the packet and flow levels; the
 *     analytic network's links have none).
 * The CSV files are streamed: memory grows by 16 bytes per rank and 8 per
 * link (the values the box plots and CDFs need), never by the file's size.
 */
#ifndef NCSIM_REPORT_RUN_H
#define NCSIM_REPORT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* The parts of a rank's time that tasks.csv reports, in the order of the stacked bars. */
enum rep_part { REP_COMPUTE, REP_MPI_NET, REP_MPI_SYNC, REP_MPI_STACK, REP_IO, REP_IDLE, REP_NPARTS };
/* The latency classes of summary.json's latency_ps. */
enum rep_lat_class { REP_LAT_MPI, REP_LAT_IO, REP_NLAT };

/* A latency distribution of summary.json (ps); count == 0: no message or request, or not recorded. */
typedef struct rep_lat {
	uint64_t count, min, q1, median, q3, max;
	double mean;
} rep_lat;

typedef VEC(double) rep_values;

typedef struct rep_job {
	char *name;
	/* summary.json: job totals (sums over the job's ranks, ps and bytes) */
	uint64_t tasks, end_ps, compute_ps, io_ps, mpi_ps, bytes_sent, msgs_sent, io_bytes;
	rep_lat lat[REP_NLAT];
	/* tasks.csv */
	size_t ranks;               /* rows of the job */
	double part[REP_NPARTS];    /* sums over its ranks (ps); idle = end - the other parts, at least 0 */
	size_t overlapped;          /* ranks whose parts add up to more than their end (idle taken as 0) */
	rep_values mpi, io;         /* each rank's mpi_ps and io_ps */
} rep_job;

/* The links of one kind (injection, terminal, local, global, ...). */
typedef struct rep_kind {
	char *name;
	rep_values bytes;           /* bytes of each link */
} rep_kind;

typedef struct rep_run {
	char *dir, *label;          /* the folder, and its name in figures (its base name) */
	/* summary.json; text members are "" when absent */
	char *version, *command, *system, *network, *status;
	uint64_t seed, events, sim_end_ps;
	double wall_seconds;        /* < 0: not recorded */
	VEC(rep_job) jobs;
	/* tasks.csv and links.csv: NULL when read, else why not (missing: the figures say so) */
	char *tasks_missing, *links_missing;
	VEC(rep_kind) kinds;
	rep_values global_sat;      /* saturation_ps of each global link */
} rep_run;

/* How loading a run can fail; the CLI turns these into exit statuses. */
enum rep_fail {
	REP_FAIL_NONE,
	REP_FAIL_INPUT,   /* a malformed file: JSON, CSV, a value of the wrong kind */
	REP_FAIL_IO,      /* not a run folder (no summary.json), or a file that cannot be read */
};

/*
 * Reads the run in folder dir. The run (free with rep_run_free), or NULL
 * with *err (heap, "FILE:LINE: message") and *why.
 */
rep_run *rep_run_load(const char *dir, char **err, enum rep_fail *why);
/* Frees a run (NULL is a no-op). */
void rep_run_free(rep_run *r);
/* The base name of a folder or file, its name in figures ("runs/a/" gives "a"; "." its real name), heap. */
char *rep_run_label(const char *dir);
/* The job of r named name, or NULL. */
rep_job *rep_run_job(rep_run *r, const char *name);
/* The links of kind name in r, or NULL. */
rep_kind *rep_run_kind(rep_run *r, const char *name);

#endif

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
 *     analytic network's links have none);
 *   - storage.csv and io.csv (optional, runs with file I/O; io.csv with
 *     --io-log): report/io.h; device_busy.csv (--io-log): report/busy.h.
 * The CSV files are streamed: memory grows by 16 bytes per rank and 8 per
 * link (the values the box plots and CDFs need), never by the file's size.
 */
#ifndef NCSIM_REPORT_RUN_H
#define NCSIM_REPORT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "report/csv_read.h"

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

/* The links of one kind (injection, terminal, local, global, ...), or the storage devices of one kind. */
typedef struct rep_kind {
	char *name;
	rep_values values;          /* links: the bytes of each link; devices: the busy time of each (ps) */
} rep_kind;
typedef VEC(rep_kind) rep_kinds;

/* I/O over time (io.csv) is drawn from this many equal time bins over the run. */
#define REP_IO_BINS 200

/* The I/O requests of one device class and operation ("ssd write"), binned over time (io.csv). */
typedef struct rep_io_series {
	char *name;
	size_t requests;
	double inflight[REP_IO_BINS];  /* request time in each bin (ps): divided by the bin's width, the mean
	                                  number of requests in flight */
	double bytes[REP_IO_BINS];     /* bytes in each bin, each request's spread evenly from issue to completion */
} rep_io_series;

/* The busy time of the devices of one class, or of one device, binned over time (device_busy.csv). */
typedef struct rep_busy_series {
	char *name;                    /* "ssd"; one device: "ssd node 12" */
	long device;                   /* one device: its storage.csv row; a class: -1 */
	size_t devices;                /* how many devices share the bins (a class: all of it, 1 for one device) */
	double busy[REP_IO_BINS];      /* busy time in each bin (ps), summed over the devices */
} rep_busy_series;

/* The bytes a (job, class) pair put on the links of one kind (links_by_class.csv). */
typedef struct rep_traffic {
	char *kind, *part;          /* part: "JOB CLASS" */
	double bytes;
} rep_traffic;

typedef struct rep_run {
	char *dir, *label;          /* the folder, and its name in figures (its base name) */
	/* summary.json; text members are "" when absent */
	char *version, *command, *system, *network, *status;
	uint64_t seed, events, sim_end_ps;
	double wall_seconds;        /* < 0: not recorded */
	VEC(rep_job) jobs;
	/* tasks.csv and links.csv: NULL when read, else why not (missing: the figures say so) */
	char *tasks_missing, *links_missing;
	rep_kinds kinds;
	rep_values global_sat;      /* saturation_ps of each global link */
	/* storage.csv and io.csv (report/io.h): NULL when read, else why not */
	char *storage_missing, *io_missing;
	rep_kinds devices;          /* storage.csv: each device's busy time (ps) by device kind */
	VEC(rep_io_series) io;      /* io.csv: by device class and operation, in order of appearance */
	double io_bin_ps;           /* the width of io's bins: the simulated time / REP_IO_BINS */
	uint64_t device_ops;        /* storage.csv: the devices' reads + writes (0: not given) */
	/* device_busy.csv (report/busy.h): NULL when read, else why not */
	char *busy_missing;
	VEC(rep_busy_series) busy;  /* the device classes, in storage.csv's order, then each device (few devices) */
	double busy_bin_ps;         /* the width of busy's bins: max(simulated time, last end) / REP_IO_BINS */
	uint64_t busy_rows;         /* device_busy.csv's rows */
	double busy_last_start;     /* the start of its last row (ps): where a bounded file stops */
	/* links_by_class.csv (report/traffic.h): NULL when read, else why not */
	char *traffic_missing;
	VEC(rep_traffic) traffic;   /* per link kind and (job, class), in order of appearance */
} rep_run;

/* How loading a run can fail; the CLI turns these into exit statuses. */
enum rep_fail {
	REP_FAIL_NONE,
	REP_FAIL_INPUT,   /* a malformed file: JSON, CSV, a value of the wrong kind */
	REP_FAIL_IO,      /* not a run folder (no summary.json), or a file that cannot be read */
};

/* Columns a CSV file's reader (rep_run_stream) finds, at most. */
#define REP_MAX_COLS 16
/* Adds one row of c to r; col[] are the columns found (-1: an optional one absent). 0, or -1 with *err. */
typedef int (*rep_row_fn)(rep_run *r, rep_csv *c, const int *col, void *arg, char **err);
/*
 * Streams DIR/name row by row through add(), with the columns cols[0..ncols)
 * (ncols <= REP_MAX_COLS) found, the first nreq of them required. A missing
 * file is no error: *missing (heap) says so. 0, or -1 with *err.
 */
int rep_run_stream(rep_run *r, const char *name, const char *const *cols, int ncols, int nreq, char **missing,
                   rep_row_fn add, void *arg, char **err);

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
/* The member of k named name; a new empty one if there is none and add is 1, else NULL. */
rep_kind *rep_kind_get(rep_kinds *k, const char *name, int add);

#endif

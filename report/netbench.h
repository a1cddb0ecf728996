/*
 * netbench.h - the results of a netbench load sweep as the report sees them
 * (prefix rep_nb_).
 *
 * `ncsim netbench --csv` prints a header line and one row per run, and
 * `--out DIR` writes the same two lines to DIR/netbench.csv, so a sweep is
 * whatever a loop over loads and routings leaves behind (doc/report.md,
 * "Netbench sweeps"). An input is one of:
 *   - a CSV file: rows of `--csv` runs appended to one another
 *     (`ncsim netbench ... --csv >> sweep.csv`); the header lines that
 *     every run repeats are skipped;
 *   - a folder with netbench.csv (one `--out DIR` run);
 *   - a folder whose subfolders hold netbench.csv (a loop of `--out
 *     sweep/NAME` runs), read in the order of their names.
 * Columns are found by name: routing, pattern, offered, accepted and
 * lat_mean_us and lat_p99_us are needed, msgs, lat_p50_us, lat_p90_us,
 * lat_max_us, hops and nonmin are read when present.
 *
 *      series   the rows of one routing (and pattern, when the rows have
 *               several; and input, when several are given), one curve;
 *      point    the rows of one series at one offered load: their means
 *               (several seeds give several rows at a load).
 */
#ifndef NCSIM_REPORT_NETBENCH_H
#define NCSIM_REPORT_NETBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* The figures of a row of netbench's CSV, in the order of its columns; latencies in us. */
enum rep_nb_col {
	REP_NB_OFFERED, REP_NB_ACCEPTED, REP_NB_MSGS, REP_NB_MEAN, REP_NB_P50, REP_NB_P90, REP_NB_P99, REP_NB_MAX,
	REP_NB_HOPS, REP_NB_NONMIN, REP_NB_NCOLS
};

typedef struct rep_nb_point {
	double v[REP_NB_NCOLS];  /* the mean over its rows; msgs too */
	size_t rows;             /* the rows averaged (seeds) */
	size_t counted;          /* the rows with a message counted: latencies are their mean */
} rep_nb_point;

typedef struct rep_nb_series {
	char *name;                  /* the label of its curve: "[input ]routing[ pattern]" */
	char *routing, *pattern;
	size_t input;                /* the input it came from */
	VEC(rep_nb_point) points;    /* by increasing offered load */
} rep_nb_series;

typedef struct rep_nb_input {
	char *path, *label;          /* as given, and its name in figures (base name without .csv) */
	size_t files, rows;          /* CSV files and data rows read */
} rep_nb_input;

typedef struct rep_nb {
	VEC(rep_nb_input) inputs;
	VEC(rep_nb_series) series;   /* in the order their first row came */
	int has[REP_NB_NCOLS];       /* 1 if every file had the column (else it reads 0) */
} rep_nb;

/*
 * 1 if path looks like netbench results (above): a regular file, or a
 * folder without summary.json that holds netbench.csv or a subfolder with
 * one. 0 otherwise (a run folder, or nothing to read).
 */
int rep_nb_is_input(const char *path);
/*
 * Reads the n inputs paths[] into *nb (empty it first with {0}). 0, or -1
 * with *err (heap) and *input_error: 1 for a malformed file (a bad value,
 * a missing column, no row: "FILE:LINE: ..."), 0 for one that cannot be read.
 */
int rep_nb_load(rep_nb *nb, const char *const *paths, size_t n, char **err, int *input_error);
/* Frees what rep_nb_load put in nb. */
void rep_nb_free(rep_nb *nb);

#endif

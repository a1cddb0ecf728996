/*
 * report.h - `ncsim report`: figures and tables of finished runs in one HTML
 * page (prefix rep_). doc/report.md describes what a user gets.
 *
 * The report reads only the documented files of each run folder
 * (summary.json, tasks.csv, links.csv, storage.csv, io.csv: report/run.h,
 * report/io.h; a study folder stands for its runs: report/study.h),
 * netbench's CSV rows (report/netbench.h) or a calibration's output folder
 * (report/calib.h), so it never links the simulator and reads the outputs
 * of older versions. It writes
 *   PAGE                 the page (default DIR/report.html for one folder,
 *                        FILE-report.html beside a netbench CSV FILE.csv,
 *                        ./report.html for several), self-contained;
 *   PAGE's stem/         beside it ("report/" for report.html): each figure's
 *                        ID.dat, ID.gp and the ID.svg that gnuplot drew.
 * Every file is written under a temporary name and renamed when whole; the
 * page comes last, so a page on disk is always complete.
 *
 * Memory and time: the CSV files are streamed (report/csv_read.h), and what
 * the figures keep is 16 bytes per rank and 8 per link.
 */
#ifndef NCSIM_REPORT_REPORT_H
#define NCSIM_REPORT_REPORT_H

#include <stddef.h>

typedef struct rep_options {
	const char *const *dirs;  /* run or study folders (several runs: side by side), or netbench results */
	size_t ndirs;
	const char *output;       /* the page, or NULL for the default */
} rep_options;

/* What went wrong; the CLI maps each to an exit status (doc/ncsim.1). */
enum rep_status {
	REP_OK,
	REP_ERR_INPUT,      /* a malformed summary.json or CSV file (exit 1) */
	REP_ERR_IO,         /* not a run folder, runs mixed with netbench results, or an output that cannot be
	                       written (exit 2) */
	REP_ERR_NO_GNUPLOT, /* gnuplot is not installed (exit 2) */
	REP_ERR_GNUPLOT,    /* gnuplot failed on a script the report wrote: a bug (exit 3) */
};

typedef struct rep_result {
	char *page, *figdir;     /* what was written (heap) */
	size_t drawn, skipped;   /* figures drawn, and kept as a note */
	char **warnings;         /* what the page warns about (runs that did not end well), heap */
	size_t nwarnings;
} rep_result;

/* Writes the report of o->dirs (o->ndirs >= 1). REP_OK with *res filled, or an error with *err (heap). */
enum rep_status rep_build(const rep_options *o, rep_result *res, char **err);
/* Frees what rep_build put in res. */
void rep_result_free(rep_result *res);
/*
 * `ncsim run --report`: the report of the run whose output folder dir was
 * just committed, as `ncsim report dir` writes it. Returns the line for
 * the run's messages (heap): what was written, or a warning starting with
 * "warning:" that says why no page was (the run's status is not touched).
 */
char *rep_after_run(const char *dir);
/* The page's default path for ndirs inputs, the first being dir (a folder, or a netbench CSV file), heap. */
char *rep_default_page(const char *dir, size_t ndirs);
/* The figure folder of page: its path without ".html" or ".htm", else with "-figures" appended (heap). */
char *rep_figure_dir(const char *page);

#endif

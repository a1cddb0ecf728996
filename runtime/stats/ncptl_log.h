/*
 * ncptl_log.h - writer of coNCePTuaL log files (LANGUAGE.md §10; prefix nlog_).
 *
 * One nlog per task. It knows nothing about tasks or simulated time: the
 * runtime passes everything in (identity, options, clock readings), which
 * keeps the output reproducible and the module testable on its own.
 *
 *     file = prologue  table*  epilogue
 *
 *     nlog_open          writes the prologue and records its key/value pairs
 *     nlog_value         (LOGS) appends a raw value to a column of the current table
 *     nlog_compute_aggregates  (COMPUTES AGGREGATES) raw values -> final values
 *     nlog_end_table     (new top-level statement) aggregates what is left, writes the table
 *     nlog_value_of      (THE VALUE OF) looks a prologue key up
 *     nlog_close         writes the last table and the epilogue, commits the file
 *
 * The file is written under a temporary name and renamed into place by
 * nlog_close (runtime/stats/outfile.h), so a crashed run never leaves a log
 * that looks complete. A log opened with path NULL writes nothing but behaves
 * identically otherwise (prologue keys, aggregate errors): ranks excluded by
 * NCPTL_LOG_ONLY use it.
 *
 * Errors are returned as heap strings in *err, worded as the coNCePTuaL
 * run-time library words them (the runtime prefixes the program name).
 */
#ifndef NCSIM_STATS_NCPTL_LOG_H
#define NCSIM_STATS_NCPTL_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ncsim/rt.h"

typedef struct nlog nlog;

/* One "# key: value" line. */
typedef struct nlog_kv {
	const char *key;   /* NULL in nlog_info.comments: numbered "User comment N" */
	const char *value;
} nlog_kv;

/* What the prologue says (§10.2), in the order it says it. Strings are copied. */
typedef struct nlog_info {
	const char *version;      /* "coNCePTuaL version" value; NULL: NLOG_VERSION */
	const char *backend_name; /* "ncsim" */
	const char *backend_desc; /* text in parentheses after the backend name */
	const char *executable;   /* absolute path */
	const char *cwd;          /* NULL: line omitted */
	int argc;                 /* command line, shell-escaped like the reference; 0: line omitted */
	char *const *argv;
	int64_t ntasks;
	int64_t rank;             /* physical rank */
	const char *uuid;         /* identical on every task of a run */
	const nlog_kv *platform;  /* hardware / library / timer lines, in order (may be none) */
	size_t nplatform;
	const nlog_kv *options;   /* option descriptions and values: built-in options first, then parameters */
	size_t noptions;
	const char *no_trap;      /* "List of signals that should not be trapped"; NULL: line omitted */
	const char *checkpoint;   /* "Log-file checkpointing interval"; NULL: "infinite" */
	const nlog_kv *comments;  /* extra comments (backend lines, --comment texts); multi-line values split */
	size_t ncomments;
	const char *creator;      /* "Log creator"; NULL: nlog_default_creator() */
	time_t creation_time;     /* "Log creation time" (asctime of local time) */
	char *const *env;         /* "NAME=value" strings, NULL-terminated; NULL: none */
	const char *source;       /* program text; NULL: no source section */
} nlog_info;

/* What the epilogue says. nlog_epilogue_measure fills it from the process. */
typedef struct nlog_epilogue {
	time_t completion_time;
	double elapsed_s;         /* since the log was opened */
	double cpu_user_s, cpu_sys_s;
	uint64_t major_faults, minor_faults;
	int64_t interrupts;       /* < 0: line omitted */
	uint64_t peak_memory;     /* bytes */
} nlog_epilogue;

#define NLOG_VERSION "1.5.1b"
#define NLOG_SEPARATOR "###########################################################################"

/* Opens path (NULL: discard output) and writes the prologue. NULL with *err on I/O error. */
nlog *nlog_open(const char *path, const nlog_info *info, char **err);
/*
 * Appends a raw value to column col (static index within the statement).
 * The first value creates the column; later ones must repeat its heading,
 * aggregate and parameter. 0, or -1 with *err ("Column information was altered unexpectedly").
 */
int nlog_value(nlog *l, unsigned col, const char *heading, enum rt_agg agg, double param, double value, char **err);
/* COMPUTES AGGREGATES: every column's raw values become final values. 0, or -1 with *err (§8.10 errors). */
int nlog_compute_aggregates(nlog *l, char **err);
/* Aggregates what is pending and writes the current table (nothing if no column was written). 0, or -1 with *err. */
int nlog_end_table(nlog *l, char **err);
/* THE VALUE OF key: the prologue value (environment variables included), or "" if unknown. Valid while l is open. */
const char *nlog_value_of(const nlog *l, const char *key);
/* Queues a comment for the epilogue (coNCePTuaL writes late comments there); key NULL: "User comment N". */
void nlog_add_comment(nlog *l, const char *key, const char *value);
/* Fills ep from the clock and getrusage, relative to when l was opened. */
void nlog_epilogue_measure(const nlog *l, nlog_epilogue *ep);
/*
 * Writes the pending table and the epilogue ("Program exited normally", or
 * the abort message of §9.10 when abort_message != NULL), then commits the
 * file; frees l. ep NULL: measured now. If the final table cannot be
 * aggregated on a normal exit, the log records that error as an abort and
 * -1 is returned with *err. Returns 0, or -1 with *err.
 */
int nlog_close(nlog *l, const char *abort_message, const nlog_epilogue *ep, char **err);
/* Closes without committing: the temporary file is removed (NULL is a no-op). */
void nlog_discard(nlog *l);
/* The final path of the log (NULL when discarding). */
const char *nlog_path(const nlog *l);

/*
 * Expands a log-file template (§10.1) for physical rank `rank`: %p rank
 * (mandatory), %r smallest run number >= 1 whose file does not exist, %%,
 * and a width such as %03p. Returns 1 with *path (heap), 0 when the
 * template is empty (logging disabled, *path = NULL), or -1 with *err.
 */
int nlog_expand_template(const char *tmpl, int64_t rank, char **path, char **err);
/* NCPTL_LOG_ONLY: 1 if rank is in list ("0-3,12", blanks or commas), 0 if not, -1 with *err if malformed; NULL list: 1. */
int nlog_rank_listed(const char *list, int64_t rank, char **err);
/* The user's full name (GECOS), else login name, else "UID n"; heap string. */
char *nlog_default_creator(void);
/* "N seconds (i.e., D days, H hours, M minutes, S seconds)" as in coNCePTuaL logs; buf >= 128 bytes. */
char *nlog_friendly_time(double seconds, char *buf, size_t size);
/* Shell-escapes argv the way coNCePTuaL logs the command line; heap string. */
char *nlog_command_line(int argc, char *const *argv);

#endif

/*
 * options.h - the command-line options of every ncsim command, from one
 * table (prefix opt_).
 *
 * Each option has one row: long name, short letter, the kind of its value,
 * the commands that accept it and its help line. Parsing, value checks and
 * every --help text come from that table, so an option means the same in
 * `ncsim run` (.ncptl, .c and .vef), `ncsim run FILE.wkld`, a standalone
 * skeleton (rt_main), `ncsim netbench`, `ncsim check` and `ncsim compile`,
 * and no help text can miss one. A second table lists the environment
 * variables each command reads; --help prints them too.
 *
 *     opt_set s;
 *     int rc = opt_parse(&s, OPT_CMD_RUN, "ncsim run", argc, argv);   0, 1 (help shown) or -1
 *     if (opt_given(&s, OPT_UNTIL)) ... opt_time_of(&s, OPT_UNTIL) ...
 *     opt_run_settings(&s, &drv_opts, &err);     the shared simulation options
 *     opt_free(&s);
 *
 * Values: `--name value`, `--name=value`, `-n value`, `-nvalue`. Times are a
 * number with ps, ns, us (or µs), ms or s; a plain number is in microseconds
 * everywhere. Integers take the K, M, G, T (binary) and E<n> suffixes of
 * program options (runtime/task/params.h).
 */
#ifndef NCSIM_OPTIONS_H
#define NCSIM_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/task/driver.h"
#include "base/units.h"

/* The commands; a table row holds the set of commands that accept the option. */
enum opt_cmd {
	OPT_CMD_RUN = 1u << 0,      /* ncsim run FILE.ncptl | SKELETON.c | TRACE.vef */
	OPT_CMD_WKLD = 1u << 1,     /* ncsim run FILE.wkld */
	OPT_CMD_SKELETON = 1u << 2, /* a standalone skeleton (rt_main) */
	OPT_CMD_NETBENCH = 1u << 3, /* ncsim netbench */
	OPT_CMD_CHECK = 1u << 4,    /* ncsim check */
	OPT_CMD_COMPILE = 1u << 5,  /* ncsim compile */
	OPT_CMD_CALIBRATE = 1u << 6, /* ncsim calibrate */
	OPT_CMD_PREDICT = 1u << 7,  /* ncsim predict */
	OPT_CMD_REPORT = 1u << 8,   /* ncsim report */
};

/* One identifier per option: the row of the table, the slot of its value. */
enum opt_id {
	OPT_HELP,
	/* simulation runs */
	OPT_TASKS, OPT_TASKS_PER_NODE, OPT_SYSTEM, OPT_CODES_ROOT, OPT_NETWORK, OPT_ROUTING, OPT_PLACEMENT, OPT_ALLOC, OPT_SEED, OPT_OUT,
	OPT_UNTIL,
	OPT_IO_LOG, OPT_DEVICE_LOG_MAX, OPT_MESSAGE_LOG, OPT_MESSAGE_LOG_MAX, OPT_REPORT, OPT_STACK_SIZE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_NO_WALL_TIME,
	/* what shared files may do, and the run's safety nets (doc/security.md) */
	OPT_FORCE, OPT_OVERSUBSCRIBE, OPT_ALLOW_HOST_ACCESS, OPT_WATCHDOG, OPT_MAX_MEMORY,
	/* the compiler */
	OPT_ALLOW_BACKEND_CODE, OPT_VERBOSE, OPT_AST, OPT_SYNTAX_ONLY, OPT_OUTPUT,
	/* the engine that runs .ncptl programs (doc/engines.md): choice 0 compiled, 1 direct */
	OPT_ENGINE, OPT_PLUGIN, OPT_PLUGIN_HEADER, OPT_RANKS,
	/* synthetic network traffic */
	OPT_GROUPS, OPT_ROUTERS, OPT_NODES, OPT_GLOBALS, OPT_PATTERN, OPT_HOTSPOT_FRAC, OPT_LOAD, OPT_SIZE,
	OPT_ARRIVAL, OPT_DURATION, OPT_WARMUP, OPT_CODES_MODE, OPT_LINKS, OPT_CSV, OPT_DESCRIBE, OPT_STOP_AT_END,
	/* calibration (doc/calibration.md) */
	OPT_BENCH, OPT_MEASURED, OPT_BENCH_TASKS, OPT_BENCH_ARGS, OPT_COLUMN, OPT_FIT, OPT_LOSS, OPT_OPTIMIZER,
	OPT_BUDGET, OPT_BATCH, OPT_JOBS, OPT_LEVELS, OPT_TARGET, OPT_REFINE,
	/* Bayesian calibration and its propagation (doc/calibration.md) */
	OPT_BAYES, OPT_SAMPLES, OPT_DESIGN, OPT_POSTERIOR,
	OPT_NIDS
};

/* The value of one option as parsed; which field is set depends on the option's kind. */
typedef struct opt_value {
	int given;          /* 0: absent; else its position on the command line (the last one counts) */
	const char *text;   /* as written (NULL for a flag) */
	uint64_t num;       /* integers and sizes */
	ncsim_time_t time;  /* times (ps) */
	double real;        /* real numbers */
	int choice;         /* a word from a list: what the option's parser returned */
} opt_value;

typedef struct opt_set {
	unsigned cmd;          /* the one command being parsed */
	const char *prog;      /* its name in messages */
	opt_value v[OPT_NIDS];
	const char *operand;   /* the FILE of check, compile and run, or NULL */
	const char *operand2;  /* predict's second operand (SYSTEM SPEC), or NULL */
	/* Options that may repeat (--bench, --fit, ...), in command-line order. */
	struct opt_item { enum opt_id id; const char *text; } *items;
	size_t nitems;
	int rest_argc;         /* what follows `--`: the program's own options */
	char **rest_argv;
	char *system_path;     /* --system resolved to a file (heap), after opt_system */
} opt_set;

/* Plain numbers of a time option are in this unit (microseconds). */
#define OPT_TIME_UNIT UNITS_US
/* The watchdog's wall time when --watchdog is absent (seconds). */
#define OPT_WATCHDOG_DEFAULT_S 60

/*
 * Parses argv[0..argc) (no command name) for command cmd (one OPT_CMD_ bit);
 * prog names it in messages. Returns 0, 1 after printing the help on stdout,
 * or -1 after a message on stderr (a usage error).
 */
int opt_parse(opt_set *s, unsigned cmd, const char *prog, int argc, char **argv);
/* Frees what opt_parse and opt_system allocated (not s itself). */
void opt_free(opt_set *s);
/* Prints the help of cmd: usage, every option it accepts and every environment variable it reads. */
void opt_help(unsigned cmd, const char *self, FILE *out);
/* Index in argv of the first argument of cmd that is neither an option nor its value, or -1. */
int opt_operand(unsigned cmd, int argc, char **argv);

/* 1 if option id was given. */
static inline int opt_given(const opt_set *s, enum opt_id id) { return s->v[id].given; }
/* The parsed value of option id (zeros when not given). */
static inline const opt_value *opt_get(const opt_set *s, enum opt_id id) { return &s->v[id]; }

/*
 * Parses a time given on a command line: a number with ps, ns, us (or µs), ms
 * or s; a plain number is in microseconds. Zero is accepted here; options of
 * kind "positive time" reject it. 0, or -1 with *why (static text).
 */
int opt_time(const char *s, ncsim_time_t *ps, const char **why);

/*
 * The --system file: *path is NULL when the option is absent, else the file
 * it names or the preset it names (stdlib/systems, NCSIM_PATH). 0, or -1
 * with *err (heap).
 */
int opt_system(opt_set *s, const char **path, char **err);
/*
 * Fills the simulation settings of o that options set: system, network,
 * routing, seed (default 1), until, stack size, io.csv, progress line, wall
 * time, --force, --oversubscribe, --allow-host-access and the watchdog
 * (default OPT_WATCHDOG_DEFAULT_S). 0, or -1 with *err (heap; --system
 * names no file or preset).
 */
int opt_run_settings(opt_set *s, drv_options *o, char **err);
/*
 * Prepares the output folder (drv_outdir_begin): --out, or a new
 * ncsim-out/<label>-<time>; an existing --out needs --force. 0, or -1 with
 * *err (a usage or I/O error: exit status 2).
 */
int opt_out_dir(const opt_set *s, const char *label, drv_outdir *d, char **err);
/*
 * Checks that the input file a command line names (what: "workload file",
 * ...) is a regular file: a missing file, a directory or a device is
 * refused before anything reads it. 0, or -1 with *err (exit status 2).
 */
int opt_input_file(const char *path, const char *what, char **err);

#endif

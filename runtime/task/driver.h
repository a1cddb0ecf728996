/*
 * sim_driver.h - one simulation run: a system, one or more jobs, the output
 * folder (prefix drv_). This is what `ncsim run` and rt_main call.
 *
 *     drv_sim *s = drv_new(&opts, &err);          system file or built-in default
 *     drv_add_job(s, &job, &err);                 once per job (program, tasks, args, placement)
 *     int rc = drv_run(s, stderr);                0 ok, 1 failed run (deadlock, rt_fatal)
 *     drv_write(s, outdir, &err);                 summary.json, tasks.csv, links.csv, storage.csv
 *     drv_free(s);
 *
 * The run is a pure function of (programs, arguments, system, seed): two runs
 * with equal inputs write byte-identical tasks.csv and links.csv, and
 * summary.json files that differ only in "wall_seconds" (omitted when
 * drv_options.no_wall_time is set).
 */
#ifndef NCSIM_SIM_DRIVER_H
#define NCSIM_SIM_DRIVER_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/kernel/sim.h"
#include "base/sysconf.h"

/* The built-in default system (a small dragonfly with burst-buffer nodes), used when no system file is given. */
extern const char drv_default_system[];

typedef struct drv_options {
	const char *system_path; /* system file, or NULL for drv_default_system */
	const char *system_text; /* system description held in memory; wins over system_path */
	const char *network;     /* model override (ideal, analytic, packet, hybrid; see drv_network_model), or NULL */
	uint64_t seed;           /* the run's seed (kernel streams, rt_seed when --seed is absent) */
	size_t stack_size;       /* task stack bytes, 0: default (256 KiB, lazily committed) */
	ncsim_time_t until;      /* stop at this simulated time; 0: run to the end */
	int progress;            /* enum sim_progress */
	int no_wall_time;        /* leave wall_seconds out of summary.json (reproducible output) */
	int argc;                /* the command line, recorded in summary.json */
	char **argv;
	const char *out_dir;     /* output folder of files written while the run goes on (logs/, io.csv), or NULL */
	FILE *output;            /* where OUTPUTS lines go; NULL: stdout */
	int io_log;              /* write io.csv (one row per I/O request) into out_dir */
	const char *routing;     /* dragonfly routing override, or NULL: the system file's */
	const char *system_name; /* name of the system in outputs when system_text is used, or NULL */
} drv_options;

typedef struct drv_job {
	const rt_program *prog;
	const char *name;        /* label in outputs; NULL: prog->name */
	uint32_t ntasks;
	int argc;                /* the program's own options (what follows `--`) */
	char **argv;
	const uint32_t *nodes;   /* node of each rank (ntasks entries), or NULL: rank i on the i-th compute
	                            node (storage nodes are skipped), modulo their number */
	ncsim_time_t start;      /* simulated time at which the job's tasks start (0: at once) */
} drv_job;

typedef struct drv_sim drv_sim;

/* Reads the system (file or default). NULL with *err (heap) on error. */
drv_sim *drv_new(const drv_options *o, char **err);
/* The system o names (system_text, else system_path, else drv_default_system), heap; NULL with *err. */
sysconf_t *drv_load_system(const drv_options *o, char **err);
/* Sets (copies) the output folder of files written during the run (drv_options.out_dir); before drv_run. */
void drv_set_out_dir(drv_sim *s, const char *dir);
/* Adds a job; parses its options (§11). Returns its index, or -1 with *err. */
int drv_add_job(drv_sim *s, const drv_job *j, char **err);
/* 1 (and the help text on out) if argv asks for --help/--usage of prog, else 0. */
int drv_program_help(const rt_program *prog, int argc, char **argv, FILE *out);
/*
 * Builds the network, the storage and the tasks, simulates, checks the end
 * state. Returns 0 if every task finished, 1 if the run failed (deadlock
 * report, rt_fatal, network or storage invariant) with the report on err,
 * -1 on a setup error (on err). Logs of tasks that did not finish get the
 * abort epilogue.
 */
int drv_run(drv_sim *s, FILE *err);
/* Writes the output folder dir (created if missing): tasks.csv, links.csv, storage.csv, summary.json. 0, or -1 with *err. */
int drv_write(drv_sim *s, const char *dir, char **err);
/* Frees everything (NULL is a no-op). */
void drv_free(drv_sim *s);

/*
 * Writes the end-of-run report on out: "ncsim: NAME: done" (FAILED if rc),
 * "LABEL WHAT" (the tasks or jobs that ran), simulated and wall time, events
 * and the output folder dir.
 */
void drv_report(const drv_sim *s, FILE *out, const char *name, int rc, const char *label, const char *what,
                const char *dir);
/* Wall-clock seconds the last drv_run took (set-up, simulation and end checks). */
double drv_wall_seconds(const drv_sim *s);
/* Kernel counters of the run (after drv_run). */
const sim_stats *drv_stats(const drv_sim *s);
/*
 * Simulated time of the run's end (ps): when the last task finished; for a
 * failed run, the later of that and the last event processed (where the run
 * got to, even if no task finished); for a run stopped by `until`, until.
 */
ncsim_time_t drv_end_time(const drv_sim *s);
/* The task layer, for tests and writers (NULL before drv_run). */
struct task_world *drv_world(drv_sim *s);
/*
 * Builds (and frees) the network o selects for `tasks` tasks, without
 * running anything: catches a bad model, routing or topology before an
 * output folder is made. 0, or -1 with *err.
 */
int drv_check_network(const drv_options *o, uint32_t tasks, char **err);
/*
 * The drv_options.network value for a model name a user gives (--network):
 * "ideal", "analytic", "packet" (also for "dragonfly") or "hybrid"; NULL if
 * the name is none of these. SD_NETWORK_CHOICES lists them for messages.
 */
const char *drv_network_model(const char *name);
#define SD_NETWORK_CHOICES "ideal, analytic, dragonfly (or packet), hybrid"
/* Name of the network model in use (after drv_run). */
const char *drv_network_name(const drv_sim *s);
/*
 * The machine o describes, without running anything: its node count (the
 * network built for min_nodes tasks) and, in (*storage_mask)[0..n) (heap),
 * 1 for the nodes that host storage and must not run tasks. 0, or -1 with *err.
 */
int drv_machine_nodes(const drv_options *o, uint32_t min_nodes, uint32_t *nnodes, uint8_t **storage_mask, char **err);

#endif

/*
 * driver.h - one simulation run: a system, one or more jobs, the output
 * folder (prefix drv_). This is what `ncsim run` and rt_main call.
 *
 *     drv_sim *s = drv_new(&opts, &err);          system file or built-in default
 *     drv_add_job(s, &job, &err);                 once per job (program, tasks, args, placement)
 *     drv_outdir_begin(&d, out, force, name, &err);   the temporary output folder
 *     int status = drv_run_out(s, &d, stderr);    simulate, write, rename: an exit status
 *     drv_report(s, stderr, name, "tasks:", what, d.path);
 *     drv_outdir_free(&d); drv_free(s);
 *
 * or, without an output folder (tests): drv_run(s, stderr), then
 * drv_write(s, dir, &err) to write the files into dir.
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

/*
 * on: every later run is one simulation split over the MPI ranks (mpirun
 * ncsim run; runtime/task/drv_par.h), its folder prepared and written by
 * rank 0. Off by default: ranks started for other purposes run simulations
 * of their own. err_fd (or -1): where a rank whose stderr is closed writes
 * the error that ends the whole run at once (a task that crashed or ran
 * into the watchdog, outside the windows' agreement).
 */
void drv_over_ranks(int on, int err_fd);

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
	int io_log;              /* write io.csv (one row per I/O request) and device_busy.csv into out_dir ... */
	uint64_t device_log_max; /* ... the latter with at most this many rows */
	int message_log;         /* write messages.csv (one row per MPI message) into out_dir ... */
	uint64_t message_log_max; /* ... with at most this many rows */
	const char *routing;     /* dragonfly routing override, or NULL: the system file's */
	const char *system_name; /* name of the system in outputs when system_text is used, or NULL */
	int allow_host_access;   /* program options may run commands, read host files, log outside out_dir (prm_check_trust) */
	int oversubscribe;       /* a job may have more tasks than the machine has compute nodes */
	uint32_t tasks_per_node; /* a program's ranks r*k .. r*k+k-1 share a compute node (0 or 1: one per node) */
	double watchdog_s;       /* wall seconds a task may run without yielding (guard.h); 0: no limit */
	int force;               /* drv_outdir_begin may replace an existing folder (--force) */
	const char *codes_root;  /* the folder a CODES system file's path placeholders stand for (--codes-root), or NULL */
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
/* What drv_run returns besides -1 (a set-up error). */
enum drv_result {
	DRV_OK = 0,          /* every task finished, or the run stopped at `until` */
	DRV_FAILED = 1,      /* deadlock, rt_fatal, a crash, exit() or the watchdog in a task, a model invariant */
	DRV_INTERRUPTED = 2, /* SIGINT or SIGTERM: the run ended at the current time */
};
/*
 * Builds the network, the storage and the tasks, simulates (under the hooks
 * of guard.h), checks the end state. Returns an enum drv_result, or -1 on a
 * setup error; failures are reported on err. Logs of tasks that did not
 * finish get the abort epilogue.
 */
int drv_run(drv_sim *s, FILE *err);
/* "ok", "stopped" (at until), "interrupted", "failed" or "not run": the status in summary.json. */
const char *drv_status(const drv_sim *s);
/* 1 once drv_run got past the set-up (the run has a status and figures to report). */
int drv_ran(const drv_sim *s);
/* Writes the output folder dir (created if missing): tasks.csv, links.csv, storage.csv, summary.json. 0, or -1 with *err. */
int drv_write(drv_sim *s, const char *dir, char **err);
/* Frees everything (NULL is a no-op). */
void drv_free(drv_sim *s);

/*
 * The output folder of a run, written atomically (doc/security.md): the run
 * writes into a temporary folder beside `path`, named .ncsim-tmp-*, which is
 * renamed onto path when the outputs are complete and removed otherwise.
 */
typedef struct drv_outdir {
	char *path;    /* the folder the user gets (heap) */
	char *staging; /* the temporary folder (heap), NULL once committed or removed */
	int force;     /* replace an existing path on commit */
	int shared;    /* a rank other than 0 of a run over MPI ranks: rank 0's folder, never committed or removed here */
} drv_outdir;

/*
 * Prepares the folder `out`, or a new ncsim-out/<label>-<time> when out is
 * NULL: refuses an existing out unless force, creates the missing parents
 * and the temporary folder (so an unwritable place fails before the run).
 * 0, or -1 with *err (a usage or I/O error).
 */
int drv_outdir_begin(drv_outdir *d, const char *out, int force, const char *label, char **err);
/* Renames the temporary folder onto d->path (replacing what is there with force). 0, or -1 with *err. */
int drv_outdir_commit(drv_outdir *d, char **err);
/* Removes the temporary folder and all it holds (no-op once committed). */
void drv_outdir_abort(drv_outdir *d);
/* d->path if drv_run_out returned `status` after committing the folder, else NULL (nothing was kept). */
const char *drv_outdir_done(const drv_outdir *d, int status);
/* Removes what is left and frees d's strings. */
void drv_outdir_free(drv_outdir *d);
/*
 * Runs s writing into d's temporary folder, then writes the output files
 * and commits the folder; a failed run removes it. Returns an exit status
 * (base/exitcode.h): 0 (done or stopped at until), 1 (set-up error or failed
 * run, reported on msg), 2 (the outputs cannot be written), 130
 * (interrupted: the folder holds the figures so far).
 */
int drv_run_out(drv_sim *s, drv_outdir *d, FILE *msg);
/*
 * drv_run_out for a run of one program of ntasks tasks, then the traffic
 * models' figures on stdout (when it ended well) and the report on stderr
 * (when the run got past its set-up). Returns the exit status.
 */
int drv_run_program(drv_sim *s, drv_outdir *d, const char *name, uint32_t ntasks);
/*
 * Writes the end-of-run report on out: "ncsim: NAME: done" (or "stopped at
 * T us", "interrupted at T us", "FAILED"), "LABEL WHAT" (the tasks or jobs
 * that ran), simulated and wall time, events and the output folder dir
 * (NULL: none, the run failed).
 */
void drv_report(const drv_sim *s, FILE *out, const char *name, const char *label, const char *what,
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
 * "ideal", "analytic", "packet" (also for "dragonfly"), "hybrid" or "flow"; NULL if
 * the name is none of these. SD_NETWORK_CHOICES lists them for messages.
 */
const char *drv_network_model(const char *name);
#define SD_NETWORK_CHOICES "ideal, analytic, dragonfly (or packet), hybrid, flow"
/* Name of the network model in use (after drv_run). */
const char *drv_network_name(const drv_sim *s);
/*
 * The machine o describes, without running anything: its node count (the
 * network built for min_nodes tasks) and, in (*storage_mask)[0..n) (heap),
 * 1 for the nodes that host storage and must not run tasks. 0, or -1 with *err.
 */
int drv_machine_nodes(const drv_options *o, uint32_t min_nodes, uint32_t *nnodes, uint8_t **storage_mask, char **err);

#endif

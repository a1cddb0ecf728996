/*
 * workload.h - workload files (.wkld): several jobs sharing one machine, and
 * the lookup of bundled skeletons and system presets by name (prefix wl_).
 *
 * A workload file has one job per line (doc/workloads.md):
 *
 *     # comment
 *     <tasks> <skeleton> [program options...] [@ <start time>]
 *     300 cosmoflow --reps 20
 *     100 checkpoint --period 2000 @ 500ms
 *
 * <skeleton> is a bundled name (stdlib/workloads/NAME.ncptl), a name found in
 * $NCSIM_PATH, a CODES/Union application name mapped to a bundled skeleton
 * (conceptual-cosmo: cosmoflow), or a path to a .ncptl file (relative to the
 * workload file's folder). Errors name the file and line.
 *
 * Lookup order for a name (wl_resolve_skeleton, wl_resolve_system):
 *   1. a path that exists (relative paths: next to the workload file, then as given);
 *   2. the bundled file: <srcdir>/stdlib/{workloads,systems}/NAME.{ncptl,conf}
 *      when ncsim runs from its build tree, else
 *      <pkgdatadir>/stdlib/{workloads,systems}/NAME.{ncptl,conf};
 *   3. each directory D of $NCSIM_PATH (colon separated): D/NAME.ext, then
 *      D/workloads/NAME.ncptl or D/systems/NAME.conf.
 */
#ifndef NCSIM_WORKLOAD_H
#define NCSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/task/placement.h"
#include "runtime/task/driver.h"
#include "base/util.h"

typedef struct wl_job {
	int line;            /* line of the workload file */
	uint32_t ntasks;
	char *skeleton;      /* as written */
	char *path;          /* resolved .ncptl path */
	char *name;          /* label in the outputs: the skeleton's base name, made unique */
	int argc;            /* program options */
	char **argv;         /* argc entries, then NULL */
	ncsim_time_t start;  /* simulated start time (ps) */
} wl_job;

typedef struct wl_file {
	char *path;          /* the workload file, for messages */
	VEC(wl_job) jobs;
} wl_file;

/*
 * Parses workload text (`path` names it in messages and gives the folder for
 * relative skeleton paths). Every job's skeleton is resolved. Returns 0, or
 * -1 with *err ("path:line: message", heap); w is then empty.
 */
int wl_parse(const char *path, const char *text, wl_file *w, char **err);
/* Reads and parses the workload file at path. 0, or -1 with *err. */
int wl_load(const char *path, wl_file *w, char **err);
/* Frees what wl_parse allocated (not w itself). */
void wl_free(wl_file *w);

/* Total tasks of all jobs. */
uint64_t wl_total_tasks(const wl_file *w);
/*
 * Checks that the jobs fit on `ncompute` compute nodes (one task per node).
 * 0, or -1 with *err naming the line of the first job that does not fit.
 */
int wl_check_capacity(const wl_file *w, uint32_t ncompute, uint32_t nnodes, char **err);
/*
 * Adds every job of w to s, job j running progs[j] on nodes[j] (NULL: the
 * driver's default). Bad program options give *err = "path:line: ...".
 * Returns 0, or -1 (jobs added before the failure stay in s).
 */
int wl_add_jobs(drv_sim *s, const wl_file *w, const rt_program *const *progs, uint32_t *const *nodes,
                char **err);

/* Path of skeleton `name` (heap), or NULL with *err; a relative name is looked for next to the file `near` first (NULL: none). */
char *wl_resolve_skeleton(const char *name, const char *near, char **err);
/*
 * 1 if `path` is a workload list: a .wkld file, or (CODES and MFNetSim name
 * theirs .conf) a file that is not a program, skeleton or trace (.ncptl, .c,
 * .vef) and whose first job line has the form "<tasks> <name>".
 */
int wl_is_workload_file(const char *path);

/* Path of system `name` (a file, or a preset such as theta-1056), heap; NULL with *err. */
char *wl_resolve_system(const char *name, char **err);

/* ------------------------------------------------------------- running */

/*
 * The machine a run will build, seen by placement: node count, storage nodes
 * (burst-buffer and I/O nodes, never used for tasks) and, for a dragonfly,
 * the router and group of every node.
 */
typedef struct wl_machine {
	uint32_t nnodes;
	uint8_t *storage;  /* nnodes flags */
	uint32_t *router;  /* per node, or NULL (not a dragonfly) */
	uint32_t *group;
	int dragonfly;
	uint32_t *alloc_map; /* [placement] alloc_ids = compute-nodes: the compute nodes in id order; else NULL */
	uint32_t alloc_n;
	pl_machine pl;     /* the view runtime/task/placement.h takes; points into this struct */
} wl_machine;

/*
 * Asks the simulation driver (drv_machine_nodes) which nodes the machine of
 * `o` has and which of them host storage, and builds its network on a
 * scratch context for the topology. min_nodes is the total task count (it
 * sizes networks whose system file gives no node count). 0, or -1 with *err.
 */
int wl_machine_probe(const drv_options *o, uint32_t min_nodes, wl_machine *m, char **err);
/* Frees what wl_machine_probe allocated. */
void wl_machine_free(wl_machine *m);

/* Compiles and loads the program of one job: 0 with *prog (owned by the loader), or -1 with *err. */
typedef int (*wl_loader)(void *ctx, const wl_job *job, const rt_program **prog, char **err);

typedef struct wl_run_opts {
	drv_options sd;          /* system, network, seed, until, ... */
	int placement;          /* enum pl_policy */
	const char *alloc_path; /* CODES allocation file, or NULL: use `placement` */
	const char *out_dir;    /* NULL: ncsim-out/<workload>-<time> */
	wl_loader load;
	void *load_ctx;
	FILE *msg;              /* errors and the final status line */
} wl_run_opts;

/*
 * Runs every job of w together on one machine: checks the capacity, places
 * the tasks, loads the programs, simulates and writes the output folder.
 * Errors in the workload (capacity, arguments, allocation file) are reported
 * with file:line before anything is written. Returns an exit status
 * (base/exitcode.h).
 */
int wl_run(const wl_file *w, const wl_run_opts *o);

/*
 * `ncsim run FILE.wkld [options]`: argv holds the options after the file
 * (compiler/cli/cmd_run_workload.c; `ncsim run --help` lists them). Returns an
 * exit status.
 */
int cmd_run_workload(const char *wkld_path, int argc, char **argv);

#endif

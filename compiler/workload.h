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
 * $NCSIM_PATH, or a path to a .ncptl file (relative to the workload file's
 * folder). Errors name the file and line.
 *
 * Lookup order for a name (wl_resolve_skeleton, wl_resolve_system):
 *   1. a path that exists (relative paths: to `base_dir`, then as given);
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

#include "ncsim/rt.h"
#include "runtime/util.h"

struct sd_sim;

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
int wl_add_jobs(struct sd_sim *s, const wl_file *w, const rt_program *const *progs, uint32_t *const *nodes,
                char **err);

/* Path of skeleton `name` (heap), or NULL with *err; base_dir (may be NULL) anchors relative paths. */
char *wl_resolve_skeleton(const char *name, const char *base_dir, char **err);
/* Path of system `name` (a file, or a preset such as theta-1056), heap; NULL with *err. */
char *wl_resolve_system(const char *name, char **err);

/*
 * Returns a copy of system-file text with `routing = value` in its [network]
 * section: an existing routing line is replaced, otherwise one is added after
 * the section header (a [network] section is appended if there is none).
 */
char *wl_patch_routing(const char *text, const char *value);

#endif

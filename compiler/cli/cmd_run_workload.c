/*
 * cmd_run_workload.c - `ncsim run FILE.wkld [options]`: several jobs on one
 * machine (runtime/task/workload.h, doc/workloads.md).
 *
 *   options                         what
 *   --system NAME|FILE              machine (preset name or system file)
 *   --network MODEL                 model override: ideal, analytic, dragonfly (packet), hybrid
 *   --placement POLICY              contiguous (default), random-node, random-router, random-group
 *   --alloc FILE                    CODES allocation file (replaces --placement)
 *   --routing ALGO                  dragonfly routing override
 *   --seed S                        seed of the run and of random placements (default 1)
 *   --out DIR                       output folder
 *   --until T, --stack-size B, --io-log, --no-wall-time, --progress,
 *   --no-progress, --allow-backend-code, -v/--verbose   as for a single program
 *
 * Every skeleton is compiled (cg_compile_file; a .c file is a skeleton written
 * in C, cg_skeleton_file) and built through the build cache once per distinct
 * file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/build.h"
#include "compiler/codegen/codegen.h"
#include "base/exitcode.h"
#include "runtime/task/workload.h"
#include "runtime/net/dragonfly.h"
#include "runtime/task/params.h"
#include "runtime/task/driver.h"
#include "base/units.h"

static void usage(FILE *f)
{
	fputs("usage: ncsim run FILE.wkld [options]\n"
	      "  Runs every job of the workload file together on one machine.\n"
	      "  --system NAME|FILE   machine: a preset (e.g. theta-1056, df-tiny) or a system file\n"
	      "  --network MODEL      ideal, analytic, dragonfly (or packet) or hybrid (overrides the system file)\n"
	      "  --placement POLICY   contiguous (default), random-node, random-router, random-group\n"
	      "  --alloc FILE         allocation file: one line per job with the node of each rank\n"
	      "  --routing ALGO       dragonfly routing: minimal, nonminimal, ugal, par\n"
	      "  --seed S             seed of the run and of random placements (default 1)\n"
	      "  --out DIR            output folder (default ncsim-out/<workload>-<time>)\n"
	      "  --until T            stop at simulated time T (ps, ns, us, ms or s; default us)\n"
	      "  --io-log             write io.csv, one row per I/O request (doc/storage.md)\n"
	      "  --allow-backend-code run BACKEND EXECUTES/DECLARES text verbatim\n"
	      "  -v, --verbose        show the C compiler command\n"
	      "  --stack-size B       bytes of stack per task (K/M/G suffixes)\n"
	      "  --no-wall-time       leave the wall time out of summary.json\n"
	      "  --progress, --no-progress   force the progress line on or off\n",
	      f);
}

/* Value of option argv[*i] (after '=' or the next word), or NULL if argv[*i] is not `name`. */
static const char *value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name))
		return NULL;
	if (*i + 1 < argc)
		return argv[++*i];
	*missing = 1;
	return NULL;
}

typedef struct rw_opts {
	wl_run_opts run;
	const char *system;
	int allow_backend_code;
	int verbose;
} rw_opts;

static int bad_num(const char *opt)
{
	fprintf(stderr, "ncsim run: option %s needs a non-negative integer\n", opt);
	return -1;
}

/* 0 ok, 1 help shown, -1 usage error. */
static int parse(int argc, char **argv, rw_opts *r)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		rt_int num;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--allow-backend-code")) {
			r->allow_backend_code = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			r->verbose = 1;
		} else if (!strcmp(a, "--no-wall-time")) {
			r->run.sd.no_wall_time = 1;
		} else if (!strcmp(a, "--io-log")) {
			r->run.sd.io_log = 1;
		} else if (!strcmp(a, "--progress")) {
			r->run.sd.progress = SIM_PROGRESS_ON;
		} else if (!strcmp(a, "--no-progress")) {
			r->run.sd.progress = SIM_PROGRESS_OFF;
		} else if ((v = value(argc, argv, &i, "--system", &missing))) {
			r->system = v;
		} else if ((v = value(argc, argv, &i, "--network", &missing))) {
			if (!(r->run.sd.network = drv_network_model(v))) {
				fprintf(stderr, "ncsim run: unknown network model '%s' (%s)\n", v, SD_NETWORK_CHOICES);
				return -1;
			}
		} else if ((v = value(argc, argv, &i, "--placement", &missing))) {
			int p = pl_policy_parse(v);
			if (p < 0) {
				fprintf(stderr, "ncsim run: unknown placement '%s' (contiguous, random-node, random-router, "
				                "random-group; or --alloc FILE)\n", v);
				return -1;
			}
			r->run.placement = p;
		} else if ((v = value(argc, argv, &i, "--alloc", &missing))) {
			r->run.alloc_path = v;
		} else if ((v = value(argc, argv, &i, "--routing", &missing))) {
			if (df_routing_parse(v) < 0) {
				fprintf(stderr, "ncsim run: unknown routing '%s' (minimal, nonminimal, ugal, par)\n", v);
				return -1;
			}
			r->run.sd.routing = v;
		} else if ((v = value(argc, argv, &i, "--out", &missing))) {
			r->run.out_dir = v;
		} else if ((v = value(argc, argv, &i, "--seed", &missing))) {
			if (prm_parse_int(v, &num) < 0 || num < 0)
				return bad_num("--seed");
			r->run.sd.seed = (uint64_t)num;
		} else if ((v = value(argc, argv, &i, "--until", &missing))) {
			const char *why;
			if (units_time(v, UNITS_US, &r->run.sd.until, &why) < 0) {
				fprintf(stderr, "ncsim run: --until %s: %s\n", v, why);
				return -1;
			}
		} else if ((v = value(argc, argv, &i, "--stack-size", &missing))) {
			if (prm_parse_int(v, &num) < 0 || num < 0)
				return bad_num("--stack-size");
			r->run.sd.stack_size = (size_t)num;
		} else {
			if (missing)
				fprintf(stderr, "ncsim run: option %s needs a value\n", a);
			else
				fprintf(stderr, "ncsim run: unknown option '%s' for a workload file\n", a);
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ loader */

typedef struct rw_loader {
	int allow_backend_code;
	int verbose;
	VEC(build_result) built;
} rw_loader;

/*
 * .ncptl -> checked AST -> C (cg_compile_file) -> shared object in the build
 * cache -> loaded program; a .c skeleton goes to the build cache as it is.
 */
static int compile_load(void *ctx, const wl_job *job, const rt_program **prog, char **err)
{
	rw_loader *l = ctx;
	char *name = cg_program_name(job->path);
	cg_opts co = {.name = name, .allow_backend_code = l->allow_backend_code};
	char *csrc = NULL;
	size_t len = 0, n = strlen(job->path);
	int rc = n > 2 && !strcmp(job->path + n - 2, ".c") ? cg_skeleton_file(job->path, stderr, &csrc, &len)
	                                                   : cg_compile_file(job->path, &co, stderr, &csrc, &len);
	if (rc != EXIT_OK) {
		*err = xasprintf(rc == EXIT_INPUT ? "errors in %s (reported above)" : "cannot read %s", job->path);
		free(name);
		return -1;
	}
	build_opts bo = {.verbose = l->verbose};
	build_result br;
	rc = build_load(csrc, name, &bo, &br, err);
	free(csrc);
	free(name);
	if (rc < 0)
		return -1;
	VEC_PUSH(&l->built, br);
	*prog = br.program;
	return 0;
}

int cmd_run_workload(const char *wkld_path, int argc, char **argv)
{
	rw_opts r = {.run = {.sd = {.seed = 1, .progress = SIM_PROGRESS_AUTO}, .placement = PL_CONTIGUOUS}};
	int p = parse(argc, argv, &r);
	if (p != 0)
		return p > 0 ? EXIT_OK : EXIT_USAGE;
	/* summary.json records the command line as the user typed it. */
	char **cmd = xcalloc((size_t)argc + 4, sizeof *cmd);
	cmd[0] = "ncsim";
	cmd[1] = "run";
	cmd[2] = (char *)wkld_path;
	for (int i = 0; i < argc; i++)
		cmd[i + 3] = argv[i];
	r.run.sd.argc = argc + 3;
	r.run.sd.argv = cmd;

	char *err = NULL, *sys_path = NULL;
	int status = EXIT_USAGE;
	wl_file w = {0};
	rw_loader loader = {.allow_backend_code = r.allow_backend_code, .verbose = r.verbose};
	if (r.system && !(sys_path = wl_resolve_system(r.system, &err)))
		goto out;
	r.run.sd.system_path = sys_path;
	if (wl_load(wkld_path, &w, &err) < 0) {
		status = EXIT_INPUT;
		goto out;
	}
	r.run.load = compile_load;
	r.run.load_ctx = &loader;
	r.run.msg = stderr;
	status = wl_run(&w, &r.run);
out:
	if (err)
		fprintf(stderr, "ncsim: %s\n", err);
	free(err);
	wl_free(&w);
	for (size_t i = 0; i < loader.built.len; i++)
		build_unload(&loader.built.ptr[i]);
	VEC_FREE(&loader.built);
	free(sys_path);
	free(cmd);
	return status;
}

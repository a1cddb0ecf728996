/*
 * cmd_run_workload.c - `ncsim run FILE.wkld [options]`: several jobs on one
 * machine (runtime/task/workload.h, doc/workloads.md).
 *
 * The options are those of a single program (runtime/task/options.c, where
 * `ncsim run FILE.wkld --help` comes from) without --tasks, plus --placement
 * and --alloc.
 *
 * Every skeleton is compiled (cg_compile_file; a .c file is a skeleton written
 * in C, cg_skeleton_file) and built through the build cache once per distinct
 * file. A workload file may come from elsewhere: the .c skeletons it names
 * are host code and need --allow-backend-code (doc/security.md). With
 * --engine direct, .ncptl skeletons are loaded by the direct engine instead
 * (engine/engine.h) and nothing is compiled for them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/build.h"
#include "compiler/codegen/codegen.h"
#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "report/report.h"
#include "runtime/task/workload.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"

/* ------------------------------------------------------------------ loader */

typedef struct rw_loader {
	int allow_backend_code;
	int verbose;
	int cache_error; /* a build failed because the cache cannot be written (exit status 2) */
	int engine;      /* enum eng_kind: --engine direct loads .ncptl jobs without compiling them */
	eng_plugins *plugins;
	VEC(build_result) built;
	VEC(eng_prog *) direct;
} rw_loader;

/* A .ncptl job in the direct engine (engine/engine.h): loaded from its checked AST. */
static int direct_load(rw_loader *l, const wl_job *job, const rt_program **prog, char **err)
{
	char *name = cg_program_name(job->path);
	eng_opts eo = {.name = name, .allow_backend_code = l->allow_backend_code, .plugins = l->plugins};
	eng_prog *p;
	int rc = eng_load_file(job->path, &eo, stderr, &p);
	free(name);
	if (rc != EXIT_OK) {
		*err = xasprintf(rc == EXIT_INPUT ? "errors in %s (reported above)" : "cannot read %s", job->path);
		return -1;
	}
	VEC_PUSH(&l->direct, p);
	*prog = eng_program(p);
	return 0;
}

/*
 * .ncptl -> checked AST -> C (cg_compile_file) -> shared object in the build
 * cache -> loaded program; a .c skeleton goes to the build cache as it is.
 */
static int compile_load(void *ctx, const wl_job *job, const rt_program **prog, char **err)
{
	rw_loader *l = ctx;
	size_t plen = strlen(job->path);
	if (l->engine == ENG_DIRECT && !(plen > 2 && !strcmp(job->path + plen - 2, ".c")))
		return direct_load(l, job, prog, err);
	char *name = cg_program_name(job->path);
	cg_opts co = {.name = name, .allow_backend_code = l->allow_backend_code};
	char *csrc = NULL;
	size_t len = 0, n = strlen(job->path);
	int c_file = n > 2 && !strcmp(job->path + n - 2, ".c");
	if (c_file && !l->allow_backend_code) {
		*err = xasprintf("%s is C code that would run on this machine; --allow-backend-code permits it", job->path);
		free(name);
		return -1;
	}
	int rc = c_file ? cg_skeleton_file(job->path, stderr, &csrc, &len)
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
	l->cache_error |= rc == BUILD_CACHE_ERROR;
	if (rc < 0)
		return -1;
	VEC_PUSH(&l->built, br);
	*prog = br.program;
	return 0;
}

int cmd_run_workload(const char *wkld_path, int argc, char **argv)
{
	opt_set o;
	int p = opt_parse(&o, OPT_CMD_WKLD, "ncsim run", argc, argv);
	if (p != 0)
		return p > 0 ? EXIT_OK : EXIT_USAGE;
	wl_run_opts run = {
		.placement = opt_given(&o, OPT_PLACEMENT) ? opt_get(&o, OPT_PLACEMENT)->choice : PL_CONTIGUOUS,
		.alloc_path = opt_get(&o, OPT_ALLOC)->text,
		.out_dir = opt_get(&o, OPT_OUT)->text,
		.load = compile_load,
		.msg = stderr,
	};
	/* summary.json records the command line as the user typed it. */
	char **cmd = xcalloc((size_t)argc + 4, sizeof *cmd);
	cmd[0] = "ncsim";
	cmd[1] = "run";
	cmd[2] = (char *)wkld_path;
	for (int i = 0; i < argc; i++)
		cmd[i + 3] = argv[i];

	char *err = NULL;
	int status = EXIT_USAGE;
	wl_file w = {0};
	rw_loader loader = {.allow_backend_code = opt_given(&o, OPT_ALLOW_BACKEND_CODE),
	                    .verbose = opt_given(&o, OPT_VERBOSE),
	                    .engine = opt_given(&o, OPT_ENGINE) && opt_get(&o, OPT_ENGINE)->choice == 1 ? ENG_DIRECT
	                                                                                           : ENG_COMPILED};
	if (opt_given(&o, OPT_POSTERIOR) || opt_given(&o, OPT_SAMPLES) || opt_given(&o, OPT_JOBS)) {
		status = cmd_run_posterior(argc + 2, cmd + 1); /* one run per posterior draw: argv[0] "run", the file */
		goto out;
	}
	/* wl_run names a default folder itself and does not give it back: --report needs it named. */
	if (opt_given(&o, OPT_REPORT) && !run.out_dir) {
		err = xstrdup("--report with a workload file needs --out DIR (the folder the page goes into)");
		goto out;
	}
	if (opt_given(&o, OPT_PLUGIN) && loader.engine != ENG_DIRECT) {
		err = xstrdup("--plugin needs --engine direct");
		goto out;
	}
	if (run_open_plugins(&o, loader.allow_backend_code, &loader.plugins, &err) < 0)
		goto out;
	/* The files the command line names: missing, a directory or a device is a usage error (2). */
	if (opt_input_file(wkld_path, "workload file", &err) < 0 ||
	    (run.alloc_path && opt_input_file(run.alloc_path, "allocation file", &err) < 0) ||
	    opt_run_settings(&o, &run.sd, &err) < 0)
		goto out;
	run.sd.argc = argc + 3;
	run.sd.argv = cmd;
	if (wl_load(wkld_path, &w, &err) < 0) {
		status = EXIT_INPUT;
		goto out;
	}
	run.load_ctx = &loader;
	status = wl_run(&w, &run);
	if (status == EXIT_INPUT && loader.cache_error)
		status = EXIT_USAGE;
	/* --report: the folder is complete (committed) for these statuses; a report that fails is a warning. */
	if (opt_given(&o, OPT_REPORT) && (status == EXIT_OK || status == EXIT_INTERRUPTED)) {
		char *line = rep_after_run(run.out_dir);
		fprintf(stderr, "ncsim run: %s\n", line);
		free(line);
	}
out:
	if (err)
		fprintf(stderr, "ncsim: %s\n", err);
	free(err);
	wl_free(&w);
	for (size_t i = 0; i < loader.built.len; i++)
		build_unload(&loader.built.ptr[i]);
	VEC_FREE(&loader.built);
	for (size_t i = 0; i < loader.direct.len; i++)
		eng_free(loader.direct.ptr[i]);
	VEC_FREE(&loader.direct);
	eng_plugins_close(loader.plugins);
	opt_free(&o);
	free(cmd);
	return status;
}

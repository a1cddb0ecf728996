/*
 * cmd_run_workload.c - `ncsim run FILE.wkld [options]`: several jobs on one
 * machine (compiler/workload.h, doc/workloads.md).
 *
 *   options                         what
 *   --system NAME|FILE              machine (preset name or system file)
 *   --network ideal|analytic|packet model override
 *   --placement POLICY              contiguous (default), random-node, random-router, random-group
 *   --alloc FILE                    CODES allocation file (replaces --placement)
 *   --routing ALGO                  dragonfly routing override
 *   --seed S                        seed of the run and of random placements (default 1)
 *   --out DIR                       output folder
 *   --until US, --stack-size B, --no-wall-time, --progress, --no-progress
 *
 * Every skeleton is compiled through the front end, semantic analysis, the C
 * code generator and the build cache, once per distinct file.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/build.h"
#include "compiler/codegen.h"
#include "compiler/exitcode.h"
#include "compiler/workload.h"
#include "lang/frontend.h"
#include "lang/sema.h"
#include "runtime/net/dragonfly.h"
#include "runtime/params.h"

static void usage(FILE *f)
{
	fputs("usage: ncsim run FILE.wkld [options]\n"
	      "  Runs every job of the workload file together on one machine.\n"
	      "  --system NAME|FILE   machine: a preset (e.g. theta-1056, df-tiny) or a system file\n"
	      "  --network MODEL      ideal, analytic or packet (overrides the system file)\n"
	      "  --placement POLICY   contiguous (default), random-node, random-router, random-group\n"
	      "  --alloc FILE         allocation file: one line per job with the node of each rank\n"
	      "  --routing ALGO       dragonfly routing: minimal, nonminimal, ugal, par\n"
	      "  --seed S             seed of the run and of random placements (default 1)\n"
	      "  --out DIR            output folder (default ncsim-out/<workload>-<time>)\n"
	      "  --until US           stop at this simulated time (microseconds)\n"
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
	const char *routing;
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
		} else if (!strcmp(a, "--no-wall-time")) {
			r->run.sd.no_wall_time = 1;
		} else if (!strcmp(a, "--progress")) {
			r->run.sd.progress = SIM_PROGRESS_ON;
		} else if (!strcmp(a, "--no-progress")) {
			r->run.sd.progress = SIM_PROGRESS_OFF;
		} else if ((v = value(argc, argv, &i, "--system", &missing))) {
			r->system = v;
		} else if ((v = value(argc, argv, &i, "--network", &missing))) {
			r->run.sd.network = v;
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
			r->routing = v;
		} else if ((v = value(argc, argv, &i, "--out", &missing))) {
			r->run.out_dir = v;
		} else if ((v = value(argc, argv, &i, "--seed", &missing))) {
			if (prm_parse_int(v, &num) < 0 || num < 0)
				return bad_num("--seed");
			r->run.sd.seed = (uint64_t)num;
		} else if ((v = value(argc, argv, &i, "--until", &missing))) {
			if (prm_parse_int(v, &num) < 0 || num < 0)
				return bad_num("--until");
			r->run.sd.until = (ncsim_time_t)num * RT_PS_PER_US;
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

/* Whole file into a heap string, or NULL with *err. */
static char *slurp(const char *path, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		*err = xasprintf("%s: cannot open system file: %s", path, strerror(errno));
		return NULL;
	}
	VEC(char) b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		VEC_GROW(&b, b.len + n + 1);
		memcpy(b.ptr + b.len, chunk, n);
		b.len += n;
	}
	int bad = ferror(f);
	fclose(f);
	VEC_GROW(&b, b.len + 1);
	b.ptr[b.len] = '\0';
	if (bad) {
		*err = xasprintf("%s: read error", path);
		VEC_FREE(&b);
		return NULL;
	}
	return b.ptr;
}

/* ------------------------------------------------------------------ loader */

typedef struct rw_loader {
	VEC(build_result) built;
} rw_loader;

/* .ncptl -> AST -> checked AST -> C -> shared object in the build cache -> loaded program. */
static int compile_load(void *ctx, const wl_job *job, const rt_program **prog, char **err)
{
	rw_loader *l = ctx;
	fe_ctx *fe = fe_new(stderr);
	ast_node *ast;
	int rc = -1;
	char *csrc = NULL;
	size_t clen = 0;
	if (fe_parse_file(fe, job->path, &ast) < 0) {
		*err = xasprintf("cannot read '%s': %s", job->path, strerror(errno));
		goto out;
	}
	if (fe_errors(fe) == 0) {
		sema_opts so = {.check_files = 1, .reserved_options = NULL};
		sema_check(fe, ast, &so, NULL);
	}
	if (fe_errors(fe)) {
		*err = xasprintf("%u error%s in %s", fe_errors(fe), fe_errors(fe) == 1 ? "" : "s", job->path);
		goto out;
	}
	FILE *mem = open_memstream(&csrc, &clen);
	if (!mem) {
		*err = xasprintf("out of memory");
		goto out;
	}
	cg_opts co = {.name = NULL, .allow_backend_code = 0};
	int nerr = cg_emit(fe, ast, &co, mem);
	if (fclose(mem) != 0 || nerr > 0) {
		*err = nerr > 0 ? xasprintf("%d error%s in %s", nerr, nerr == 1 ? "" : "s", job->path)
		                : xasprintf("out of memory");
		goto out;
	}
	build_result br = {0};
	build_opts bo = {0};
	if (build_load(csrc, job->path, &bo, &br, err) < 0)
		goto out;
	VEC_PUSH(&l->built, br);
	*prog = br.program;
	rc = 0;
out:
	free(csrc);
	fe_free(fe);
	return rc;
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

	char *err = NULL, *sys_path = NULL, *text = NULL;
	int status = EXIT_USAGE;
	wl_file w = {0};
	rw_loader loader = {0};
	if (r.system && !(sys_path = wl_resolve_system(r.system, &err)))
		goto out;
	if (r.routing) {
		if (sys_path && df_is_codes_conf(sys_path)) {
			err = xasprintf("--routing cannot change a CODES configuration file (%s); edit its routing key", sys_path);
			goto out;
		}
		const char *base = sys_path ? (text = slurp(sys_path, &err)) : sd_default_system;
		if (!base)
			goto out;
		char *patched = wl_patch_routing(base, r.routing);
		free(text);
		text = patched;
		r.run.sd.system_text = text;
	}
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
	free(text);
	free(sys_path);
	free(cmd);
	return status;
}

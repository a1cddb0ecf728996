/*
 * cmd_run.c - `ncsim run prog.ncptl -n TASKS [options] [-- program options]`:
 * compile, build (through the cache), simulate and write the output folder,
 * in one step. `ncsim run trace.vef -n TASKS` does the same for the implicit
 * program `All tasks replay traffic from "trace.vef".`, and `ncsim run
 * skeleton.c -n TASKS` for a skeleton written in C against ncsim/rt.h or
 * ncsim/union.h (it ends with NCSIM_SKELETON(program)).
 *
 * Nothing is created on an input error: the output folder is prepared only
 * after the program compiled, the system file loaded and the program's
 * options parsed. The run writes into a temporary folder that is renamed
 * onto --out when its outputs are complete (drv_run_out); a run that fails
 * in the simulation (deadlock, run-time error, a crash in a skeleton) leaves
 * no folder and exits with 1; SIGINT or SIGTERM keep the figures so far and
 * exit with 130. --report then adds report.html (report/report.h) to the
 * committed folder, each of its files atomic and the page last.
 * The options, their meaning and the help text come from the table of
 * runtime/task/options.c, shared with every other command.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/build.h"
#include "compiler/codegen/codegen.h"
#include "compiler/cli/commands.h"
#include "engine/engine.h"
#include "base/exitcode.h"
#include "report/report.h"
#include "runtime/task/workload.h"
#include "runtime/kernel/par.h"
#include "runtime/kernel/sim.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"
#include "runtime/traffic/stats.h"
#include "base/util.h"

typedef struct run_opts {
	opt_set o;
	const char *path;
	char *bundled;  /* the path of a bundled workload named without one (heap), or NULL */
	uint32_t ntasks;
	drv_options sd;
	cg_opts cg;
	int engine;            /* enum eng_kind (--engine) */
	eng_plugins *plugins;  /* --plugin libraries (direct engine) */
} run_opts;

/* Creates the simulation (NULL with the error reported: an input error). */
static drv_sim *setup(run_opts *r, const rt_program *prog)
{
	char *err = NULL;
	drv_sim *s = drv_new(&r->sd, &err);
	drv_job job = {.prog = prog, .ntasks = r->ntasks, .argc = r->o.rest_argc, .argv = r->o.rest_argv};
	if (!s || drv_add_job(s, &job, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err ? err : "cannot set up the simulation");
		free(err);
		drv_free(s);
		return NULL;
	}
	return s;
}

static int simulate(run_opts *r, const rt_program *prog, int argc, char **argv)
{
	char *err = NULL;
	r->sd.argc = argc;
	r->sd.argv = argv;
	/* A dry set-up first: a bad system file or program option must not leave a folder behind. */
	drv_sim *s = setup(r, prog);
	if (!s)
		return EXIT_INPUT;
	drv_free(s);
	if (drv_check_network(&r->sd, r->ntasks, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err);
		free(err);
		return EXIT_INPUT;
	}
	drv_outdir d;
	if (opt_out_dir(&r->o, prog->name, &d, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	int rc = (s = setup(r, prog)) ? drv_run_program(s, &d, prog->name, r->ntasks) : EXIT_INPUT;
	/* --report: once the folder is complete (committed); a report that fails is a warning, not a failed run. */
	if (opt_given(&r->o, OPT_REPORT) && drv_outdir_done(&d, rc)) {
		char *line = rep_after_run(drv_outdir_done(&d, rc));
		fprintf(stderr, "ncsim run: %s\n", line);
		free(line);
	}
	drv_outdir_free(&d);
	drv_free(s);
	return rc;
}

/* 1 if path ends with ext (and has a name before it). */
static int has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);
	return n > k && !strcmp(path + n - k, ext);
}

/*
 * The C text of r->path: an extended VEF trace (LANGUAGE.md 14.3) runs as an
 * implicit program, a .c file is a hand-written skeleton, anything else is
 * compiled as coNCePTuaL. The statuses of cg_compile_file.
 */
static int source_of(run_opts *r, char **csrc, size_t *len)
{
	if (has_ext(r->path, ".vef")) {
		char *text = cg_vef_program(r->path);
		int rc = cg_compile_text(r->path, text, &r->cg, stderr, csrc, len);
		free(text);
		return rc;
	}
	if (has_ext(r->path, ".c"))
		return cg_skeleton_file(r->path, stderr, csrc, len);
	return cg_compile_file(r->path, &r->cg, stderr, csrc, len);
}

static void run_free(run_opts *r)
{
	eng_plugins_close(r->plugins);
	opt_free(&r->o);
	free(r->bundled);
}

/*
 * --plugin LIB.so [--plugin-header H.h] ...: each header belongs to the
 * plugin before it. 0, or -1 with *err (heap).
 */
int run_open_plugins(const opt_set *o, int allow_code, eng_plugins **pl, char **err)
{
	const char *lib = NULL;
	*pl = NULL;
	for (size_t i = 0; i <= o->nitems; i++) {
		const struct opt_item *it = i < o->nitems ? &o->items[i] : NULL;
		if (it && it->id != OPT_PLUGIN && it->id != OPT_PLUGIN_HEADER)
			continue;
		if (it && it->id == OPT_PLUGIN_HEADER && !lib) {
			*err = xasprintf("--plugin-header %s follows no --plugin", it->text);
			return -1;
		}
		if (lib && (!it || it->id == OPT_PLUGIN || it->id == OPT_PLUGIN_HEADER)) {
			eng_plugins *n = eng_plugins_open(*pl, lib, it && it->id == OPT_PLUGIN_HEADER ? it->text : NULL,
			                                  allow_code, err);
			if (!n)
				return -1;
			*pl = n;
			lib = NULL;
			if (it && it->id == OPT_PLUGIN_HEADER)
				continue;
		}
		if (it)
			lib = it->text;
	}
	return 0;
}

/* --engine: the compiled engine unless `direct` was given. */
static int engine_of(const opt_set *o)
{
	return opt_given(o, OPT_ENGINE) && opt_get(o, OPT_ENGINE)->choice == 1 ? ENG_DIRECT : ENG_COMPILED;
}

/*
 * A name without a folder or an extension that is no file here, such as
 * osu-bw, is a bundled workload (or one on NCSIM_PATH), as in a workload file.
 */
static void find_bundled(run_opts *r)
{
	const char *p = r->path;
	if (strchr(p, '/') || strchr(p, '.') || access(p, F_OK) == 0)
		return;
	char *err = NULL;
	r->bundled = wl_resolve_skeleton(p, NULL, &err);
	free(err);
	if (r->bundled)
		r->path = r->bundled;
}

/* The options (runtime/task/options.h) and the system file: 0, or -1 with *status (EXIT_OK after --help). */
static int prepare(run_opts *r, int argc, char **argv, int *status)
{
	char *err = NULL;
	int p = opt_parse(&r->o, OPT_CMD_RUN, "ncsim run", argc - 1, argv + 1);
	if (p != 0) {
		*status = p > 0 ? EXIT_OK : EXIT_USAGE;
		return -1;
	}
	r->path = r->o.operand;
	find_bundled(r);
	if (opt_input_file(r->path, has_ext(r->path, ".vef") ? "trace" : has_ext(r->path, ".c") ? "C skeleton" : "program",
	                   &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err);
		free(err);
		*status = EXIT_USAGE;
		return -1;
	}
	r->ntasks = opt_given(&r->o, OPT_TASKS) ? (uint32_t)opt_get(&r->o, OPT_TASKS)->num : 1;
	r->cg.allow_backend_code = opt_given(&r->o, OPT_ALLOW_BACKEND_CODE);
	r->engine = engine_of(&r->o);
	if (r->engine == ENG_DIRECT && has_ext(r->path, ".c")) {
		fprintf(stderr, "ncsim run: a skeleton in C runs compiled; --engine direct is for .ncptl programs\n");
		*status = EXIT_USAGE;
		return -1;
	}
	if (opt_given(&r->o, OPT_PLUGIN) && r->engine != ENG_DIRECT) {
		fprintf(stderr, "ncsim run: --plugin needs --engine direct\n");
		*status = EXIT_USAGE;
		return -1;
	}
	if (run_open_plugins(&r->o, r->cg.allow_backend_code, &r->plugins, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err);
		free(err);
		*status = EXIT_USAGE;
		return -1;
	}
	if (opt_run_settings(&r->o, &r->sd, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err);
		free(err);
		*status = EXIT_USAGE;
		return -1;
	}
	return 0;
}

/* The direct engine (engine/engine.h): the program is loaded from its checked AST, nothing is compiled. */
static int run_direct(run_opts *r, const char *name, int argc, char **argv)
{
	eng_opts eo = {.name = name, .allow_backend_code = r->cg.allow_backend_code, .plugins = r->plugins};
	eng_prog *p;
	int rc;
	if (has_ext(r->path, ".vef")) {
		char *text = cg_vef_program(r->path);
		rc = eng_load_text(r->path, text, &eo, stderr, &p);
		free(text);
	} else {
		rc = eng_load_file(r->path, &eo, stderr, &p);
	}
	if (rc != EXIT_OK)
		return rc;
	if (drv_program_help(eng_program(p), r->o.rest_argc, r->o.rest_argv, stdout)) {
		rc = EXIT_OK;
	} else {
		char **cmd = xcalloc((size_t)argc + 2, sizeof *cmd);
		cmd[0] = "ncsim";
		memcpy(cmd + 1, argv, (size_t)argc * sizeof *argv);
		rc = simulate(r, eng_program(p), argc + 1, cmd);
		free(cmd);
	}
	eng_free(p);
	return rc;
}

/* `ncsim run FILE.wkld` (or a CODES workload list), with options before the file too: the workload command gets the rest. */
static int run_workload(int argc, char **argv, int k)
{
	char **rest = xcalloc((size_t)argc, sizeof *rest);
	int n = 0;
	for (int i = 1; i < argc; i++)
		if (i != k)
			rest[n++] = argv[i];
	int rc = cmd_run_workload(argv[k], n, rest);
	free(rest);
	return rc;
}

/*
 * Under mpirun every rank builds the model and runs its part of it
 * (runtime/task/drv_par.h); rank 0 speaks for the run: the other ranks'
 * standard streams go to /dev/null, and what they have to say (a task's
 * failure, OUTPUTS lines) reaches rank 0 at the end of the run.
 */
static int run_cmd(int argc, char **argv);

/* Where --ranks K stands among the command's own options (before `--`): its index, or -1; *k its value, 0 if bad. */
static int ranks_option(int argc, char **argv, unsigned long *k)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *v = !strcmp(argv[i], "--ranks") ? (i + 1 < argc ? argv[i + 1] : "") :
		                !strncmp(argv[i], "--ranks=", 8) ? argv[i] + 8 : NULL;
		if (!v)
			continue;
		char *end;
		*k = strtoul(v, &end, 10);
		if (*end || !*v || *v == '-' || *k > 4096)
			*k = 0;
		return i;
	}
	return -1;
}

/*
 * --ranks K > 1 in a process that no mpirun started: the same command under
 * `mpirun -np K` (this process becomes mpirun; each rank sees --ranks K
 * under an mpirun of K ranks and goes on). Returns only on an error, with
 * the exit status.
 */
static int start_ranks(int argc, char **argv, unsigned long k)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		perror("ncsim run: --ranks: /proc/self/exe");
		return EXIT_USAGE;
	}
	exe[n] = '\0';
	char np[24];
	snprintf(np, sizeof np, "%lu", k);
	char **cmd = xcalloc((size_t)argc + 5, sizeof *cmd);
	cmd[0] = "mpirun";
	cmd[1] = "-np";
	cmd[2] = np;
	cmd[3] = exe;
	memcpy(cmd + 4, argv, (size_t)argc * sizeof *argv);
	fflush(NULL);
	execvp("mpirun", cmd);
	fprintf(stderr, "ncsim run: --ranks %lu: cannot start mpirun (%s): install Open MPI (apt-get install openmpi-bin)\n",
	        k, strerror(errno));
	free(cmd);
	return EXIT_USAGE;
}

int cmd_run(int argc, char **argv)
{
	char *err = NULL;
	unsigned long k = 1;
	int at = ranks_option(argc, argv, &k);
	if (at >= 0 && k == 0) {
		fprintf(stderr, "ncsim run: --ranks wants a number of ranks from 1 to 4096\n");
		return EXIT_USAGE;
	}
	if (at >= 0 && par_launched_ranks() > 1 && k != par_launched_ranks()) {
		fprintf(stderr, "ncsim run: --ranks %lu under an mpirun of %u ranks: give one or the other\n", k,
		        par_launched_ranks());
		return EXIT_USAGE;
	}
	if (at >= 0 && k > 1 && par_launched_ranks() <= 1) {
		if (!par_built_with_mpi()) {
			fprintf(stderr, "ncsim run: --ranks: this ncsim was built without MPI (install libopenmpi-dev and "
			                "configure again)\n");
			return EXIT_USAGE;
		}
		return start_ranks(argc, argv, k);
	}
	if (par_launched_ranks() > 1) {
		if (par_init(&argc, &argv, &err) < 0) {
			fprintf(stderr, "ncsim run: %s\n", err);
			free(err);
			return EXIT_USAGE;
		}
		int err_fd = dup(2);
		if (par_rank() != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
			return EXIT_USAGE;
		drv_over_ranks(1, err_fd);
	}
	int rc = run_cmd(argc, argv);
	par_finalize();
	return rc;
}

static int run_cmd(int argc, char **argv)
{
	/* argv[0] is "run"; a workload file names several jobs and has options of its own. */
	int k = opt_operand(OPT_CMD_RUN | OPT_CMD_WKLD, argc - 1, argv + 1) + 1;
	if (k > 0 && wl_is_workload_file(argv[k]))
		return run_workload(argc, argv, k);
	run_opts r = {0};
	int rc;
	if (prepare(&r, argc, argv, &rc) < 0) {
		run_free(&r);
		return rc;
	}
	if (opt_given(&r.o, OPT_POSTERIOR) || opt_given(&r.o, OPT_SAMPLES) || opt_given(&r.o, OPT_JOBS)) {
		if (par_size() > 1) {
			fprintf(stderr, "ncsim run: --posterior, --samples and --jobs start runs of their own: run them "
			                "without mpirun\n");
			run_free(&r);
			return EXIT_USAGE;
		}
		run_free(&r);
		return cmd_run_posterior(argc, argv); /* one run per posterior draw, in child processes */
	}
	char *name = cg_program_name(r.path), *err = NULL;
	r.cg.name = name;
	if (r.engine == ENG_DIRECT) {
		rc = run_direct(&r, name, argc, argv);
		free(name);
		run_free(&r);
		return rc;
	}
	char *csrc;
	size_t len;
	rc = source_of(&r, &csrc, &len);
	if (rc != EXIT_OK) {
		free(name);
		run_free(&r);
		return rc;
	}
	build_opts bo = {.verbose = opt_given(&r.o, OPT_VERBOSE)};
	build_result br;
	int built = build_load(csrc, name, &bo, &br, &err);
	if (built < 0) {
		/* Generated C that does not build is ncsim's fault, unless it holds the user's code. */
		int hand = has_ext(r.path, ".c");
		fprintf(stderr, "ncsim run: cannot build %s: %s\n", r.path, err);
		if (hand && built == BUILD_FAILED && !strstr(csrc, "NCSIM_SKELETON") && !strstr(csrc, "ncsim_skeleton"))
			fprintf(stderr, "ncsim run: a skeleton in C ends with NCSIM_SKELETON(program) (see ncsim/rt.h)\n");
		free(err);
		free(csrc);
		free(name);
		run_free(&r);
		return built == BUILD_CACHE_ERROR ? EXIT_USAGE : hand || r.cg.allow_backend_code ? EXIT_INPUT : EXIT_INTERNAL;
	}
	free(csrc);
	if (drv_program_help(br.program, r.o.rest_argc, r.o.rest_argv, stdout))
		rc = EXIT_OK;
	else {
		/* summary.json and the logs record the command line as typed: argv[0] is "run". */
		char **cmd = xcalloc((size_t)argc + 2, sizeof *cmd);
		cmd[0] = "ncsim";
		memcpy(cmd + 1, argv, (size_t)argc * sizeof *argv);
		rc = simulate(&r, br.program, argc + 1, cmd);
		free(cmd);
	}
	build_unload(&br);
	free(name);
	run_free(&r);
	return rc;
}

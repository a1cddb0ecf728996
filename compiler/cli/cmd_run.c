/*
 * cmd_run.c - `ncsim run prog.ncptl -n TASKS [options] [-- program options]`:
 * compile, build (through the cache), simulate and write the output folder,
 * in one step. `ncsim run trace.vef -n TASKS` does the same for the implicit
 * program `All tasks replay traffic from "trace.vef".`, and `ncsim run
 * skeleton.c -n TASKS` for a skeleton written in C against ncsim/rt.h or
 * ncsim/union.h (it ends with NCSIM_SKELETON(program)).
 *
 * Nothing is created on an input error: the output folder is made only after
 * the program compiled, the system file loaded and the program's options
 * parsed. A run that fails in the simulation (deadlock, run-time error)
 * still writes its folder, which documents the failure, and exits with 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/build.h"
#include "compiler/codegen/codegen.h"
#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "runtime/task/workload.h"
#include "runtime/kernel/sim.h"
#include "runtime/net/dragonfly.h"
#include "runtime/task/params.h"
#include "runtime/task/driver.h"
#include "runtime/stats/outfile.h"
#include "runtime/traffic/stats.h"
#include "base/util.h"

static void run_usage(FILE *f)
{
	fputs("usage: ncsim run FILE.ncptl [options] [-- program options]\n"
	      "       ncsim run SKELETON.c [options] [-- program options]\n"
	      "                                       (a skeleton in C ending with NCSIM_SKELETON: ncsim/rt.h)\n"
	      "       ncsim run FILE.wkld [options]    (several jobs on one machine: doc/workloads.md)\n"
	      "       ncsim run TRACE.vef [options]    (every task replays an extended VEF trace: doc/traffic.md)\n"
	      "  Compiles FILE, simulates it and writes the output folder.\n"
	      "  -n, --tasks N          number of tasks (default 1)\n"
	      "      --system FILE|NAME system description or preset name (default: the built-in dragonfly)\n"
	      "      --network MODEL    ideal, analytic, dragonfly (or packet) or hybrid (overrides the system file)\n"
	      "      --routing ALGO     dragonfly routing: minimal, nonminimal, ugal or par (overrides the system file)\n"
	      "      --seed S           seed of the run (default 1)\n"
	      "      --out DIR          output folder (default ncsim-out/<program>-<time>)\n"
	      "      --until T          stop at simulated time T (a number with ps, ns, us, ms or s; default us)\n"
	      "      --io-log           write io.csv, one row per I/O request (doc/storage.md)\n"
	      "      --stack-size B     bytes of stack per task (K/M/G suffixes)\n"
	      "      --progress, --no-progress  force the progress line on or off\n"
	      "      --allow-backend-code  run BACKEND EXECUTES/DECLARES text verbatim\n"
	      "      --no-wall-time     leave the wall time out of summary.json\n"
	      "  -v, --verbose          show the C compiler command\n"
	      "  `ncsim run FILE -- --help` lists the program's own options.\n",
	      f);
}

/* Value of option argv[*i] ("--x=v" or "--x v"), or NULL if argv[*i] is not `name`. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* A simulated time: a number with an optional unit (default microseconds). */
static int parse_time(const char *s, ncsim_time_t *out)
{
	char *end;
	double v = strtod(s, &end);
	static const struct {
		const char *unit;
		double ps;
	} units[] = {{"", 1e6}, {"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
	while (*end == ' ')
		end++;
	for (size_t k = 0; k < sizeof units / sizeof *units; k++)
		if (!strcmp(end, units[k].unit) && v > 0 && v * units[k].ps < 1.8e19) {
			*out = (ncsim_time_t)(v * units[k].ps + 0.5);
			return 0;
		}
	return -1;
}

typedef struct run_opts {
	const char *path, *out;
	uint32_t ntasks;
	drv_options sd;
	cg_opts cg;
	int verbose, prog_argc;
	char **prog_argv;
} run_opts;

/* 0 ok, 1 help shown, -1 usage error (reported). */
static int parse_args(int argc, char **argv, run_opts *r)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		rt_int n;
		if (!strcmp(a, "--")) {
			r->prog_argc = argc - i - 1;
			r->prog_argv = argv + i + 1;
			break;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			run_usage(stdout);
			return 1;
		} else if (!strcmp(a, "--allow-backend-code")) {
			r->cg.allow_backend_code = 1;
		} else if (!strcmp(a, "--no-wall-time")) {
			r->sd.no_wall_time = 1;
		} else if (!strcmp(a, "--io-log")) {
			r->sd.io_log = 1;
		} else if (!strcmp(a, "--progress")) {
			r->sd.progress = SIM_PROGRESS_ON;
		} else if (!strcmp(a, "--no-progress")) {
			r->sd.progress = SIM_PROGRESS_OFF;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			r->verbose = 1;
		} else if ((v = opt_value(argc, argv, &i, "-n")) || (v = opt_value(argc, argv, &i, "--tasks"))) {
			if (prm_parse_int(v, &n) < 0 || n < 1 || n > UINT32_MAX) {
				fprintf(stderr, "ncsim run: --tasks needs a positive integer\n");
				return -1;
			}
			r->ntasks = (uint32_t)n;
		} else if ((v = opt_value(argc, argv, &i, "--system"))) {
			r->sd.system_path = v;
		} else if ((v = opt_value(argc, argv, &i, "--network"))) {
			if (!(r->sd.network = drv_network_model(v))) {
				fprintf(stderr, "ncsim run: unknown network model '%s' (%s)\n", v, SD_NETWORK_CHOICES);
				return -1;
			}
		} else if ((v = opt_value(argc, argv, &i, "--routing"))) {
			if (df_routing_parse(v) < 0) {
				fprintf(stderr, "ncsim run: unknown routing '%s' (minimal, nonminimal, ugal, par)\n", v);
				return -1;
			}
			r->sd.routing = v;
		} else if ((v = opt_value(argc, argv, &i, "--stack-size"))) {
			if (prm_parse_int(v, &n) < 0 || n < 0) {
				fprintf(stderr, "ncsim run: --stack-size needs a non-negative integer\n");
				return -1;
			}
			r->sd.stack_size = (size_t)n;
		} else if ((v = opt_value(argc, argv, &i, "--out"))) {
			r->out = v;
		} else if ((v = opt_value(argc, argv, &i, "--seed"))) {
			if (prm_parse_int(v, &n) < 0 || n < 0) {
				fprintf(stderr, "ncsim run: --seed needs a non-negative integer\n");
				return -1;
			}
			r->sd.seed = (uint64_t)n;
		} else if ((v = opt_value(argc, argv, &i, "--until"))) {
			if (parse_time(v, &r->sd.until) < 0) {
				fprintf(stderr, "ncsim run: --until needs a positive time such as 100us or 2ms\n");
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ncsim run: unknown option '%s'\n", a);
			run_usage(stderr);
			return -1;
		} else if (r->path) {
			fprintf(stderr, "ncsim run: only one program may be given (program options go after --)\n");
			return -1;
		} else {
			r->path = a;
		}
	}
	if (!r->path) {
		run_usage(stderr);
		return -1;
	}
	return 0;
}

/* Creates the simulation (NULL with the error reported: an input error). */
static drv_sim *setup(run_opts *r, const rt_program *prog)
{
	char *err = NULL;
	drv_sim *s = drv_new(&r->sd, &err);
	drv_job job = {.prog = prog, .ntasks = r->ntasks, .argc = r->prog_argc, .argv = r->prog_argv};
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
	char *err = NULL, *dir = NULL;
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
	if (r->out) {
		dir = outfile_mkdir_p(r->out, &err) == 0 ? xstrdup(r->out) : NULL;
	} else {
		char *base = outfile_default_dir("ncsim-out", prog->name, time(NULL));
		dir = outfile_make_run_dir(base, &err);
		free(base);
	}
	if (!dir) {
		fprintf(stderr, "ncsim run: %s\n", err ? err : "cannot create the output folder");
		free(err);
		return EXIT_USAGE;
	}
	r->sd.out_dir = dir;
	s = setup(r, prog);
	if (!s) {
		free(dir);
		return EXIT_INPUT;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = drv_run(s, stderr);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc < 0) {
		drv_free(s);
		free(dir);
		return EXIT_INPUT;
	}
	if (rc == 0)
		trf_stat_print(drv_world(s), stdout); /* the traffic models' figures; nothing if none ran */
	if (drv_write(s, dir, &err) < 0) {
		fprintf(stderr, "ncsim run: %s\n", err ? err : "cannot write the output folder");
		free(err);
		free(dir);
		drv_free(s);
		return EXIT_USAGE;
	}
	const sim_stats *st = drv_stats(s);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr,
	        "ncsim: %s: %s\n"
	        "  tasks:          %" PRIu32 " on the %s network\n"
	        "  simulated time: %.6f us\n"
	        "  wall time:      %.3f s\n"
	        "  events:         %" PRIu64 "\n"
	        "  output folder:  %s\n",
	        prog->name, rc ? "FAILED" : "done", r->ntasks, drv_network_name(s), (double)drv_end_time(s) / 1e6, wall,
	        st ? st->events : 0, dir);
	free(dir);
	drv_free(s);
	return rc ? EXIT_INPUT : EXIT_OK;
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

int cmd_run(int argc, char **argv)
{
	/* argv[0] is "run"; a workload file names several jobs and has its own options. */
	size_t n = argc >= 2 ? strlen(argv[1]) : 0;
	if (n > 5 && !strcmp(argv[1] + n - 5, ".wkld"))
		return cmd_run_workload(argv[1], argc - 2, argv + 2);
	run_opts r = {.ntasks = 1, .sd = {.seed = 1, .progress = SIM_PROGRESS_AUTO}};
	int p = parse_args(argc, argv, &r);
	if (p != 0)
		return p > 0 ? EXIT_OK : EXIT_USAGE;
	char *sys_path = NULL, *err = NULL;
	if (r.sd.system_path) {
		sys_path = wl_resolve_system(r.sd.system_path, &err);
		if (!sys_path) {
			fprintf(stderr, "ncsim run: %s\n", err);
			free(err);
			return EXIT_USAGE;
		}
		r.sd.system_path = sys_path;
	}
	char *name = cg_program_name(r.path);
	r.cg.name = name;
	char *csrc;
	size_t len;
	int rc = source_of(&r, &csrc, &len);
	if (rc != EXIT_OK) {
		free(name);
		free(sys_path);
		return rc;
	}
	build_opts bo = {.verbose = r.verbose};
	build_result br;
	if (build_load(csrc, name, &bo, &br, &err) < 0) {
		/* Generated C that does not build is ncsim's fault, unless it holds the user's code. */
		int hand = has_ext(r.path, ".c");
		fprintf(stderr, "ncsim run: cannot build %s: %s\n", r.path, err);
		if (hand && !strstr(csrc, "NCSIM_SKELETON") && !strstr(csrc, "ncsim_skeleton"))
			fprintf(stderr, "ncsim run: a skeleton in C ends with NCSIM_SKELETON(program) (see ncsim/rt.h)\n");
		free(err);
		free(csrc);
		free(name);
		free(sys_path);
		return hand || r.cg.allow_backend_code ? EXIT_INPUT : EXIT_INTERNAL;
	}
	free(csrc);
	if (drv_program_help(br.program, r.prog_argc, r.prog_argv, stdout))
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
	free(sys_path);
	return rc;
}

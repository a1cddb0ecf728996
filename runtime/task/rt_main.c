/*
 * rt_main.c - the standalone driver of a skeleton linked against libncsim:
 * parses the simulator's options, then `--` and the program's own options,
 * runs one job and writes the output folder.
 *
 *   prog [-n TASKS] [--system FILE] [--network MODEL] [--routing R] [--seed S] [--out DIR]
 *        [--stack-size BYTES] [--until T] [--io-log] [--no-wall-time] [-- PROGRAM OPTIONS]
 *
 * The output folder is created before the simulation starts: log files
 * (logs/) and io.csv are written into it while the run goes on. Options and
 * the network are checked first, so an input error leaves no folder behind.
 *
 * Exit status: 0 ok, 1 failed run (deadlock, run-time error), 2 usage or I/O error.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ncsim/rt.h"
#include "runtime/kernel/sim.h"
#include "runtime/net/dragonfly.h"
#include "runtime/task/params.h"
#include "runtime/task/driver.h"
#include "runtime/stats/outfile.h"
#include "runtime/traffic/stats.h"
#include "base/units.h"
#include "base/util.h"

int rt_init(unsigned abi, const rt_program *prog)
{
	if (abi != NCSIM_RT_ABI || (prog && prog->abi != NCSIM_RT_ABI)) {
		fprintf(stderr, "ncsim: %s was compiled for runtime ABI %u, but this runtime is ABI %u; recompile it\n",
		        prog && prog->name ? prog->name : "the skeleton", prog ? prog->abi : abi, NCSIM_RT_ABI);
		return -1;
	}
	return 0;
}

static void usage(const char *argv0, FILE *f)
{
	fprintf(f,
	        "usage: %s [options] [-- program options]\n"
	        "  -n, --tasks N         number of tasks (default 1)\n"
	        "      --system FILE     system description (default: the built-in dragonfly)\n"
	        "      --network MODEL   ideal, analytic, dragonfly (or packet) or hybrid (overrides the system file)\n"
	        "      --routing R       dragonfly routing: minimal, nonminimal, ugal or par\n"
	        "      --seed S          seed of the run (default 1)\n"
	        "      --out DIR         output folder (default ncsim-out/<program>-<time>)\n"
	        "      --stack-size B    bytes of stack per task (K/M/G suffixes)\n"
	        "      --until T         stop at simulated time T (ps, ns, us, ms or s; default us)\n"
	        "      --io-log          write io.csv, one row per I/O request\n"
	        "      --no-wall-time    leave the wall time out of summary.json\n"
	        "  -h, --help            this help; `-- --help` shows the program's options\n",
	        argv0);
}

typedef struct rm_opts {
	drv_options o;
	uint32_t ntasks;
	const char *out;
	int prog_argc;
	char **prog_argv;
} rm_opts;

/* Value of option argv[*i] (inline after '=' or the next word), or NULL. */
static const char *value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse_num(const char *opt, const char *v, rt_int *out)
{
	if (!v || prm_parse_int(v, out) < 0 || *out < 0) {
		fprintf(stderr, "ncsim: option %s needs a non-negative integer\n", opt);
		return -1;
	}
	return 0;
}

/* 0 ok, 1 help shown, -1 usage error. */
static int parse(int argc, char **argv, rm_opts *r)
{
	rt_int v;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *s;
		if (!strcmp(a, "--")) {
			r->prog_argc = argc - i - 1;
			r->prog_argv = argv + i + 1;
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(argv[0], stdout);
			return 1;
		} else if (!strcmp(a, "--no-wall-time")) {
			r->o.no_wall_time = 1;
		} else if (!strcmp(a, "--io-log")) {
			r->o.io_log = 1;
		} else if ((s = value(argc, argv, &i, "--routing"))) {
			if (df_routing_parse(s) < 0) {
				fprintf(stderr, "ncsim: unknown routing '%s' (minimal, nonminimal, ugal, par)\n", s);
				return -1;
			}
			r->o.routing = s;
		} else if ((s = value(argc, argv, &i, "-n")) || (s = value(argc, argv, &i, "--tasks"))) {
			if (parse_num("--tasks", s, &v) < 0 || v < 1 || v > UINT32_MAX)
				return -1;
			r->ntasks = (uint32_t)v;
		} else if ((s = value(argc, argv, &i, "--system"))) {
			r->o.system_path = s;
		} else if ((s = value(argc, argv, &i, "--network"))) {
			if (!(r->o.network = drv_network_model(s))) {
				fprintf(stderr, "ncsim: unknown network model '%s' (%s)\n", s, SD_NETWORK_CHOICES);
				return -1;
			}
		} else if ((s = value(argc, argv, &i, "--out"))) {
			r->out = s;
		} else if ((s = value(argc, argv, &i, "--seed"))) {
			if (parse_num("--seed", s, &v) < 0)
				return -1;
			r->o.seed = (uint64_t)v;
		} else if ((s = value(argc, argv, &i, "--stack-size"))) {
			if (parse_num("--stack-size", s, &v) < 0)
				return -1;
			r->o.stack_size = (size_t)v;
		} else if ((s = value(argc, argv, &i, "--until"))) {
			const char *why;
			if (units_time(s, UNITS_US, &r->o.until, &why) < 0) {
				fprintf(stderr, "ncsim: --until %s: %s\n", s, why);
				return -1;
			}
		} else {
			fprintf(stderr, "ncsim: unknown option '%s'\n", a);
			usage(argv[0], stderr);
			return -1;
		}
	}
	return 0;
}

/* The output folder: --out, else a fresh ncsim-out/<program>-<time>. Heap path, or NULL after a message. */
static char *out_dir(const rm_opts *r, const rt_program *prog)
{
	char *err = NULL, *dir = NULL;
	if (r->out) {
		if (outfile_mkdir_p(r->out, &err) == 0)
			dir = xstrdup(r->out);
	} else {
		char *base = outfile_default_dir("ncsim-out", prog->name, time(NULL));
		dir = outfile_make_run_dir(base, &err);
		free(base);
	}
	if (!dir)
		fprintf(stderr, "ncsim: %s\n", err ? err : "cannot create the output folder");
	free(err);
	return dir;
}

static int finish(drv_sim *s, int rc, const char *dir, const rt_program *prog)
{
	char *err = NULL;
	if (drv_write(s, dir, &err) < 0) {
		fprintf(stderr, "ncsim: %s\n", err);
		free(err);
		return 2;
	}
	fprintf(stderr, "ncsim: %s: %s, simulated %.6f us, output in %s\n", prog->name, rc ? "failed" : "done",
	        (double)drv_end_time(s) / 1e6, dir);
	return rc ? 1 : 0;
}

int rt_main(unsigned abi, const rt_program *prog, int argc, char **argv)
{
	if (rt_init(abi, prog) < 0)
		return 2;
	rm_opts r = {.o = {.seed = 1, .progress = SIM_PROGRESS_AUTO, .argc = argc, .argv = argv}, .ntasks = 1};
	int p = parse(argc, argv, &r);
	if (p != 0)
		return p > 0 ? 0 : 2;
	if (drv_program_help(prog, r.prog_argc, r.prog_argv, stdout))
		return 0;
	char *err = NULL;
	drv_sim *s = drv_new(&r.o, &err);
	drv_job job = {.prog = prog, .ntasks = r.ntasks, .argc = r.prog_argc, .argv = r.prog_argv};
	if (!s || drv_add_job(s, &job, &err) < 0 || drv_check_network(&r.o, r.ntasks, &err) < 0) {
		fprintf(stderr, "ncsim: %s\n", err);
		free(err);
		drv_free(s);
		return 2;
	}
	char *dir = out_dir(&r, prog);
	if (!dir) {
		drv_free(s);
		return 2;
	}
	drv_set_out_dir(s, dir);
	int rc = drv_run(s, stderr);
	if (rc == 0)
		trf_stat_print(drv_world(s), stdout); /* the traffic models' figures; nothing if none ran */
	int status = rc < 0 ? 1 : finish(s, rc, dir, prog);
	drv_free(s);
	free(dir);
	return status;
}

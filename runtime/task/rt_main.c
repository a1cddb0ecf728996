/*
 * rt_main.c - the standalone driver of a skeleton linked against libncsim:
 * parses the simulator's options, then `--` and the program's own options,
 * runs one job and writes the output folder.
 *
 *   prog [options] [-- PROGRAM OPTIONS]
 *
 * The options are those of `ncsim run` that do not concern the compiler
 * (runtime/task/options.c, which also prints `prog --help`): the same option
 * means the same thing in both.
 *
 * The output folder is created before the simulation starts: log files
 * (logs/) and io.csv are written into it while the run goes on. Options and
 * the network are checked first, so an input error leaves no folder behind.
 *
 * Exit status: 0 ok, 1 an input error (system file, program options) or a
 * failed run (deadlock, run-time error), 2 usage or I/O error, as for
 * `ncsim run`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ncsim/rt.h"
#include "runtime/kernel/sim.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"
#include "runtime/traffic/stats.h"
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

/* The simulation settings and the job of the command line. 0, or -1 with *err. */
static int settings(opt_set *o, const rt_program *prog, drv_options *d, drv_job *job, char **err)
{
	if (opt_run_settings(o, d, err) < 0)
		return -1;
	*job = (drv_job){.prog = prog, .ntasks = opt_given(o, OPT_TASKS) ? (uint32_t)opt_get(o, OPT_TASKS)->num : 1,
	                 .argc = o->rest_argc, .argv = o->rest_argv};
	return 0;
}

int rt_main(unsigned abi, const rt_program *prog, int argc, char **argv)
{
	if (rt_init(abi, prog) < 0)
		return 2;
	opt_set o;
	int p = opt_parse(&o, OPT_CMD_SKELETON, argv[0], argc - 1, argv + 1);
	if (p != 0)
		return p > 0 ? 0 : 2;
	if (drv_program_help(prog, o.rest_argc, o.rest_argv, stdout)) {
		opt_free(&o);
		return 0;
	}
	char *err = NULL, *dir = NULL;
	drv_options d = {.argc = argc, .argv = argv};
	drv_job job;
	drv_sim *s = NULL;
	int rc, status = 2; /* a --system that names no file or preset */
	if (settings(&o, prog, &d, &job, &err) < 0)
		goto out;
	/* Input errors (system file, program options, network) leave no folder behind, as with `ncsim run`. */
	status = 1;
	if (!(s = drv_new(&d, &err)) || drv_add_job(s, &job, &err) < 0 || drv_check_network(&d, job.ntasks, &err) < 0)
		goto out;
	status = 2;
	if (!(dir = opt_out_dir(&o, prog->name, &err)))
		goto out;
	drv_set_out_dir(s, dir);
	rc = drv_run(s, stderr);
	if (rc == 0)
		trf_stat_print(drv_world(s), stdout); /* the traffic models' figures; nothing if none ran */
	status = rc < 0 ? 1 : finish(s, rc, dir, prog);
out:
	if (err)
		fprintf(stderr, "ncsim: %s\n", err);
	free(err);
	drv_free(s);
	free(dir);
	opt_free(&o);
	return status;
}

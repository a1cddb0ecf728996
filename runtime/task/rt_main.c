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
 * The run writes into a temporary folder beside --out (log files and io.csv
 * while it goes on), renamed onto --out when the outputs are complete
 * (drv_run_out). Options and the network are checked first, so an input
 * error leaves no folder behind, and neither does a failed run.
 *
 * Exit status: 0 ok, 1 an input error (system file, program options) or a
 * failed run (deadlock, run-time error, a crash), 2 usage or I/O error, 130
 * interrupted (SIGINT, SIGTERM), as for `ncsim run`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ncsim/rt.h"
#include "base/exitcode.h"
#include "runtime/kernel/sim.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"
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
	char *err = NULL;
	drv_options d = {.argc = argc, .argv = argv};
	drv_outdir od = {0};
	drv_job job;
	drv_sim *s = NULL;
	int status = EXIT_USAGE; /* a --system that names no file or preset */
	if (settings(&o, prog, &d, &job, &err) < 0)
		goto out;
	/* Input errors (system file, program options, network) leave no folder behind, as with `ncsim run`. */
	status = EXIT_INPUT;
	if (!(s = drv_new(&d, &err)) || drv_add_job(s, &job, &err) < 0 || drv_check_network(&d, job.ntasks, &err) < 0)
		goto out;
	status = EXIT_USAGE;
	if (opt_out_dir(&o, prog->name, &od, &err) < 0)
		goto out;
	status = drv_run_program(s, &od, prog->name, job.ntasks);
out:
	if (err)
		fprintf(stderr, "ncsim: %s\n", err);
	free(err);
	drv_outdir_free(&od);
	drv_free(s);
	opt_free(&o);
	return status;
}

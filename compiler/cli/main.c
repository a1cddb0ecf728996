/*
 * main.c - the `ncsim` command: dispatches to subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "runtime/kernel/par.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: ncsim <command> [options] [args]\n"
	        "\n"
	        "commands:\n"
	        "  check FILE [--ast]    parse and check a .ncptl program\n"
	        "  compile FILE [-o OUT.c]   translate a .ncptl program to C\n"
	        "  run FILE -n N [-- ARGS]   compile, build and simulate a program (see ncsim run --help)\n"
	        "  run FILE.wkld [options]   run the jobs of a workload file together on one machine\n"
	        "  run TRACE.vef -n N        every task replays an extended VEF traffic trace\n"
	        "  netbench [options]    synthetic traffic on a dragonfly (see ncsim netbench --help)\n"
	        "  calibrate [SPEC] [options]  fit a system file to measurements (doc/calibration.md)\n"
	        "  predict [SYSTEM] [SPEC]     simulated against measured figures, per point\n"
	        "  report DIR... [-o PAGE]     figures and tables of finished runs in one HTML page (gnuplot)\n"
	        "\n"
	        "options:\n"
	        "  -h, --help        show this help\n"
	        "  -V, --version     show the version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ncsim %s\n", PACKAGE_VERSION);
		printf("parallel kernel: %s\n", par_built_with_mpi() ? "MPI (mpirun -np K ncsim ...)" : "none (built without MPI)");
		return EXIT_OK;
	}
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{"check", cmd_check},
		{"netbench", cmd_netbench},
		{"compile", cmd_compile},
		{"run", cmd_run},
		{"calibrate", cmd_calibrate},
		{"predict", cmd_predict},
		{"report", cmd_report},
	};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ncsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

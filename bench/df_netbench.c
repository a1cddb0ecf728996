/*
 * df_netbench.c - runs `ncsim netbench` on its own, so the dragonfly benchmarks
 * work whether or not the ncsim binary dispatches the subcommand.
 */
#include "compiler/cli/commands.h"

int main(int argc, char **argv)
{
	return cmd_netbench(argc, argv);
}

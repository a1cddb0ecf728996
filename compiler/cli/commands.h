/*
 * commands.h - the subcommands of `ncsim`. Each returns an exit status (exitcode.h).
 */
#ifndef NCSIM_COMMANDS_H
#define NCSIM_COMMANDS_H

#include "engine/engine.h"
#include "runtime/task/options.h"

int cmd_check(int argc, char **argv);    /* ncsim check FILE [--ast] */
int cmd_netbench(int argc, char **argv); /* ncsim netbench: synthetic dragonfly traffic */
int cmd_compile(int argc, char **argv);  /* ncsim compile FILE [-o OUT.c] [--allow-backend-code] */
int cmd_run(int argc, char **argv);      /* ncsim run FILE -n TASKS [options] [-- program options] */
/* --plugin LIB.so [--plugin-header H.h] ... of o into *pl (the direct engine's): 0, or -1 with *err (heap). */
int run_open_plugins(const opt_set *o, int allow_code, eng_plugins **pl, char **err);
int cmd_run_posterior(int argc, char **argv); /* ncsim run --posterior FILE [--samples K] [-j N] ... (argv[0] "run") */
int cmd_calibrate(int argc, char **argv); /* ncsim calibrate [SPEC] [options]: fit a system to measurements */
int cmd_predict(int argc, char **argv);  /* ncsim predict [SYSTEM] [SPEC] [options]: simulated vs measured */
int cmd_report(int argc, char **argv);   /* ncsim report DIR... [-o PAGE]: figures of finished runs in one HTML page */

#endif

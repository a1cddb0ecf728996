/*
 * child.h - the simulations a calibration or a posterior's propagation runs
 * as child processes of the ncsim binary (prefix cal_child_): starting one
 * with its output in files, waiting for any, and the message of one that
 * failed. calib/eval.c and compiler/cli/cmd_run_posterior.c keep their own
 * tables of running children; these are the steps both take.
 */
#ifndef NCSIM_CALIB_CHILD_H
#define NCSIM_CALIB_CHILD_H

#include <sys/types.h>

/*
 * Starts the program file with arguments argv (NULL-terminated; argv[0] is
 * its name in process listings), its stdout into out and its stderr into
 * errf (created or truncated, mode 0600). The pid, or -1 with *err.
 */
pid_t cal_child_start(const char *file, char *const *argv, const char *out, const char *errf, char **err);
/*
 * Waits for any child to end: its pid, with its wait status in *status; -1
 * when a signal set *stop (NULL: waits on through signals) or no child is left.
 */
pid_t cal_child_wait(int *status, volatile int *stop);
/* Kills child pid (SIGKILL) and collects it (0 or less: nothing to do). */
void cal_child_kill(pid_t pid);
/*
 * The message of a child that ended with wait status `status`: "WHAT: the
 * simulation failed (exit status N)" or "(signal N)", then ":\n" and the last
 * `lines` lines of its stderr file errf when it has any. Heap.
 */
char *cal_child_failure(const char *what, int status, const char *errf, int lines);
/* Removes path and everything below it without following links; a missing path is no error. */
void cal_rm_tree(const char *path);

#endif

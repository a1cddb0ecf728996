/*
 * rt_log.h - the skeleton API's log files and OUTPUTS lines (prefix rl_),
 * on top of the coNCePTuaL log writer (runtime/stats/ncptl_log.h).
 *
 * A program flagged RT_PROG_USES_LOG (LANGUAGE.md §10.1) gets one log per
 * task, opened when the task starts and closed when it returns (normal
 * epilogue) or when the run ends early (abort epilogue with the error).
 *
 * Where the logs go (the --logfile template of §10.1, applied to the run's
 * output folder OUT):
 *
 *   --logfile absent        OUT/logs/<job>-%p.log   (%p: physical rank)
 *   --logfile=rel/x-%p.log  OUT/logs/rel/x-%p.log   (relative: under OUT/logs)
 *   --logfile=/abs/x-%p.log /abs/x-%p.log           (absolute: as given; like a ".."
 *                                                    component, it needs --allow-host-access,
 *                                                    prm_check_trust)
 *   --logfile=""            no file (THE VALUE OF still answers)
 *   no output folder        no file (tests and the library without --out)
 *
 * %p is mandatory, %r, %% and field widths work as in §10.1; NCPTL_LOG_ONLY
 * restricts the files to the listed ranks. The prologue is filled from the
 * program descriptor (source text, parameter descriptions and values, the
 * seed for programs flagged RT_PROG_USES_RANDOM) and from the simulated
 * machine; the backend is "ncsim". The environment is copied with the
 * value of every variable whose name suggests a secret (TOKEN, SECRET, KEY,
 * PASSWORD, PASSWD, CREDENTIAL, AUTH, COOKIE, SESSION, PRIVATE) replaced by
 * "(hidden)", so neither the logs nor THE VALUE OF show it.
 *
 * LOGS, COMPUTES AGGREGATES, OUTPUTS and the new-statement flush take no
 * simulated time, so they never move elapsed_usecs (§9.7), and they do
 * nothing while the task is suppressed (warmups, §9.6).
 */
#ifndef NCSIM_RT_LOG_H
#define NCSIM_RT_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ncsim/rt.h"

typedef struct rl_job rl_job;

/* What a job's log prologues say besides the program itself. Strings are copied. */
typedef struct rl_setup {
	const char *out_dir;        /* the run's output folder, or NULL: no files */
	const char *tmpl;           /* --logfile value, or NULL: "<job>-%p.log" */
	int argc;                   /* command line of the run */
	char *const *argv;
	const char *system;         /* system file name or "(built-in)" */
	const char *network;        /* network model */
	uint32_t nnodes;            /* nodes of the machine */
	uint64_t seed;              /* the job's seed (shown for RT_PROG_USES_RANDOM programs) */
	const char *no_trap;        /* --no-trap value, or NULL */
	char *const *comments;      /* --comment values (@FILE and !COMMAND expanded here) */
	size_t ncomments;
	const char *uuid;           /* identical for every task of the run */
	time_t created;             /* "Log creation time" */
} rl_setup;

/*
 * Prepares the logs of a job running prog with parameter values `values`:
 * checks the template, creates the log folder. Returns NULL if prog keeps no
 * log (no RT_PROG_USES_LOG), else the settings; *err is set (and NULL
 * returned) on a bad template or an unwritable folder.
 */
rl_job *rl_job_new(const rt_program *prog, const char *job_name, const rt_int *values, const rl_setup *s,
                   char **err);
/* Frees the settings (NULL is a no-op). */
void rl_job_free(rl_job *j);
/* Opens t's log (its job must have settings). 0, or -1 with *err. */
int rl_open(rt_task *t, char **err);
/*
 * Writes the last table and the epilogue of t's log and commits it: a normal
 * one when abort_msg is NULL, else the abort epilogue with that message.
 * 0, or -1 with *err when the final table cannot be aggregated (the log then
 * records the error as an abort). No-op if t has no open log.
 */
int rl_close(rt_task *t, const char *abort_msg, char **err);

#endif

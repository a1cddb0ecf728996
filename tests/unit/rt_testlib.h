/*
 * rt_testlib.h - helpers for the task-runtime tests: run a small program on a
 * system given as text and read the per-task results.
 */
#ifndef NCSIM_RT_TESTLIB_H
#define NCSIM_RT_TESTLIB_H

#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/task/driver.h"
#include "runtime/task/task.h"
#include "tests/unit/unit.h"

/* A program descriptor with no parameters. */
#define TL_PROGRAM(var, fn) static const rt_program var = {.abi = NCSIM_RT_ABI, .name = #var, .entry = (fn)}

/* Two tasks: task 0 sends tl_pp_size bytes to task 1, which sends them back; task 0 records the round trip in tl_pp_rtt. */
extern uint64_t tl_pp_size;
extern ncsim_time_t tl_pp_rtt;
extern const rt_program tl_pingpong;

/* The analytic test machine: 100 ns latency, 10 GB/s links, 20 GB/s injection; heap text. */
#define TL_LAT 100000ULL
#define TL_BW 10e9
#define TL_INJ_BW 20e9
char *tl_analytic(uint32_t nodes, const char *extra);
/* Runs prog with ntasks on system text; *rc gets drv_run's result; failure reports go to `err` (NULL: stderr). */
drv_sim *tl_run(const rt_program *prog, uint32_t ntasks, const char *system, int *rc, FILE *err);
/* tl_run on tl_analytic(ntasks, extra). */
drv_sim *tl_run_analytic(const rt_program *prog, uint32_t ntasks, const char *extra, int *rc, FILE *err);
/*
 * Runs prog on ntasks tasks of tl_analytic(ntasks, extra) with the program
 * arguments argv (NULL-terminated; NULL: none) and checks (fatally) that
 * drv_run returns want_rc; failure reports go to `err` (NULL: stderr).
 */
drv_sim *tl_check_run(const rt_program *prog, uint32_t ntasks, const char *extra, char **argv, int want_rc,
                      FILE *err);
/* As tl_run with options of one's own (system_text, out_dir, output, io_log, ...); o->seed is kept. */
drv_sim *tl_run_opts(const rt_program *prog, uint32_t ntasks, const drv_options *o, int argc, char **argv, int *rc,
                    FILE *err);
/* The MPI parameters of system text `text` (named `name` in errors) over the defaults: 0, or -1 with *err. */
int tl_mp_load(const char *name, const char *text, mp_params *p, char **err);
/* Totals of physical rank r of the first job. */
const task_totals *tl_tot(drv_sim *s, uint32_t r);
/* 1 if network + sync + stack == mpi time for every task of s. */
int tl_decomposition_adds_up(drv_sim *s);

#endif

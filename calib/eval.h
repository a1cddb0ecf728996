/*
 * eval.h - evaluating parameter sets by simulation.
 *
 * An evaluation writes the base system with the parameters' values in place
 * (sysedit.h) and runs every benchmark of the spec as `ncsim run` would, in
 * a child process of the ncsim binary itself (so a crash or a limit in one
 * run cannot take the calibration down, and -j N runs N at a time). The
 * figures a run leaves (its stdout, or the log of task 0) are read with the
 * same readers as the measurements, and matched to the measured points by x.
 *
 * Results are stored by evaluation index, so the order in which children
 * finish never shows: the same spec and seed give the same numbers for any
 * number of workers.
 */
#ifndef NCSIM_CALIB_EVAL_H
#define NCSIM_CALIB_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "calib/spec.h"

typedef struct cal_runner {
	const cal_spec *spec;
	const char *self;        /* the ncsim binary */
	char *work;              /* scratch folder (heap), removed by cal_runner_free */
	char *base_text;         /* the base system's text (heap) */
	const char *network;     /* --network of the runs, or NULL: the system's model */
	unsigned jobs;           /* children at a time (>= 1) */
	uint64_t seed;           /* --seed of the runs */
	int allow_backend_code, allow_host_access;
	const char *max_memory;  /* passed on as --max-memory, or NULL */
	size_t runs;             /* simulations run so far */
	double run_wall;         /* their wall seconds, summed */
	double sim_wall;         /* the simulations' own wall seconds, summed */
	uint64_t events;         /* their events, summed */
	size_t serial;           /* names the scratch files */
} cal_runner;

/* The simulated figures of one parameter set: per benchmark, one value per measured point. */
typedef struct cal_eval {
	double **sim;            /* sim[b][i] (heap), NULL for a benchmark not run */
	char *error;             /* the first failure (heap), or NULL */
	double wall;             /* wall seconds of its runs, process start included */
	double sim_wall;         /* the simulations' own wall seconds (their summary.json) */
	uint64_t events;         /* the simulations' events: a cost that does not depend on the machine's load */
} cal_eval;

/*
 * Prepares r for spec s: reads the base system, creates the scratch folder
 * under tmpdir (NULL: $TMPDIR or /tmp). 0, or -1 with *err.
 */
int cal_runner_init(cal_runner *r, const cal_spec *s, const char *self, const char *tmpdir, char **err);
void cal_runner_free(cal_runner *r);

/*
 * Runs k parameter sets values[j * nparams + p] (the value of spec parameter
 * p) on the benchmarks selected by `which` (1: fitted ones only, 2: all),
 * into ev[0..k). Under mpirun each rank starts every K-th run and the ranks
 * exchange their results (calib/par.h), so every rank ends with the same ev.
 * 0, or -1 when interrupted (*stop became nonzero on any rank): the
 * children are killed and ev holds what finished.
 */
int cal_run_batch(cal_runner *r, const double *values, size_t k, int which, cal_eval *ev,
                  volatile int *stop);
void cal_eval_free(const cal_spec *s, cal_eval *ev);

/* The system text of one parameter set (heap): the base with every parameter's value in place. */
char *cal_system_text(const cal_runner *r, const double *values);

/*
 * The loss of ev over the fitted benchmarks (weighted mean of each
 * benchmark's loss) restricted to the points of regime (-1: all); +inf for
 * a failed evaluation. When predict is 1, over the predict-only ones.
 */
double cal_eval_loss(const cal_spec *s, const cal_eval *ev, int regime, int predict);
/* The loss of benchmark b alone (restricted to regime, -1: all); NAN when it has no such point. */
double cal_bench_loss(const cal_spec *s, const cal_eval *ev, size_t b, int regime);

#endif

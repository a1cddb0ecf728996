/*
 * spec.h - a calibration spec: what to run, what to match, what to fit
 * (doc/calibration.md). The file is in the system-file syntax:
 *
 *     [calibration]               the run: base system, loss, optimizer, budget
 *     [benchmark.NAME]            one per benchmark: program, tasks, measurements
 *     [regime.NAME]               optional: a range of x (message sizes)
 *     [parameters]                SECTION.KEY = LO:HI [log] [regime=NAME] | VALUE
 *
 * A parameter is a system-file key: every evaluation writes the base system
 * with the parameters' values in place (calib/sysedit.c), never anything else.
 */
#ifndef NCSIM_CALIB_SPEC_H
#define NCSIM_CALIB_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "calib/bayes_cfg.h"
#include "calib/loss.h"
#include "calib/measure.h"
#include "calib/optim.h"

/* How a parameter's value is written back: with the unit its range was given in. */
enum cal_kind { CAL_PLAIN, CAL_INT, CAL_TIME, CAL_BANDWIDTH, CAL_SIZE };

/*
 * The prior of a parameter (Bayesian calibration): by default uniform on its
 * scale (uniform for a linear range, log-uniform for a log one); or uniform,
 * log-uniform, normal(MEAN,SD) or lognormal(MEDIAN,SIGMA) on the value,
 * truncated to the range (SIGMA in natural-log units).
 */
enum cal_prior { CAL_PRIOR_SCALE, CAL_PRIOR_UNIFORM, CAL_PRIOR_LOGUNIFORM, CAL_PRIOR_NORMAL, CAL_PRIOR_LOGNORMAL };

typedef struct cal_param {
	char *section, *key;     /* the system-file key (lower case) */
	enum cal_kind kind;
	double lo, hi;           /* in base units: ps, bytes/s, bytes, or the plain number */
	int log;                 /* 1: searched on a log scale */
	int fixed;               /* 1: not fitted, always `value` */
	double value;
	int regime;              /* index into the regimes, or -1: every regime */
	char *level;             /* the network level it applies to (heap), or NULL: every level */
	int line;                /* of the spec, for messages */
	enum cal_prior prior;
	double prior_a, prior_b; /* normal: mean, sd (base units); lognormal: median (base units), sigma */
} cal_param;

typedef struct cal_regime {
	char *name;
	double min, max;         /* points with min <= x < max */
} cal_regime;

/* Where a simulated run leaves its figures. */
enum cal_output { CAL_OUT_STDOUT, CAL_OUT_LOG };

typedef struct cal_bench {
	char *name;              /* NAME of [benchmark.NAME] */
	char *program;           /* resolved path of the .ncptl, .c or bundled workload */
	uint32_t tasks, tasks_per_node;
	char **args;             /* program options, NULL-terminated */
	int nargs;
	char **measured;         /* measurement files (resolved), each a set of trials */
	int nmeasured;
	enum cal_format format, sim_format;
	char *column, *xcolumn;  /* measured columns (NULL: the reader's default) */
	char *sim_column, *sim_xcolumn;
	enum cal_output output;
	double weight;
	int predict_only;        /* use = predict: run and reported, not fitted */
	cal_point *points;       /* the measured points (mean, sd, trials) */
	size_t npoints;
	int line;
} cal_bench;

typedef struct cal_spec {
	char *path;              /* the spec (or "(command line)") */
	char *system;            /* base system: a path, or NULL for the built-in one */
	char *network;           /* the level the runs use (--network), or NULL: the system's */
	char **levels;           /* --levels: the network models to compare, or NULL */
	int nlevels;
	double target;           /* the loss a level must reach to be chosen (0: the best level) */
	cal_loss loss;
	cal_optcfg opt;
	char *optimizer;         /* opt.name points here */
	char *refine;            /* a local NLopt algorithm that finishes each stage from its best point, or NULL */
	double refine_share;     /* the share of the budget it gets (0.5) */
	int sequential;          /* 1: one regime at a time, 0: every parameter jointly */
	cal_bench *bench;
	size_t nbench;
	cal_regime *regimes;
	size_t nregimes;
	cal_param *params;
	size_t nparams;
	unsigned flags;          /* CAL_SPEC_* it was read with */
	cal_bayes_cfg bayes;     /* [bayes]: a Bayesian calibration when bayes.on */
} cal_spec;

/*
 * Reads a spec file: every name resolved (programs through the workload
 * search path, measurements and the system relative to the spec), every
 * measurement read. 0, or -1 with *err = "spec:line: ..." (heap).
 */
int cal_spec_load(const char *path, cal_spec *s, char **err);
/* What cal_spec_parse may accept. */
enum {
	CAL_SPEC_FIT = 1,      /* a calibration: at least one free parameter (else ncsim predict: none needed) */
	CAL_SPEC_ALLOW_C = 2,  /* C skeletons as programs (--allow-backend-code, or a command line without a spec) */
};
/*
 * The same from text; files are found relative to dir. flags: CAL_SPEC_*.
 * A spec someone else wrote must not run C on the host: without
 * CAL_SPEC_ALLOW_C, a program ending in .c is an error (doc/security.md).
 */
int cal_spec_parse(const char *name, const char *text, const char *dir, unsigned flags, cal_spec *s, char **err);
void cal_spec_free(cal_spec *s);
/*
 * Completes s (cal_spec_parse calls it last): without parameters, the
 * default set of each level (or of the network the runs use); then at least
 * one fitted benchmark and one free parameter. 0, or -1 with *err.
 */
int cal_spec_ready(cal_spec *s, char **err);

/* 1 if parameter p applies when the runs use network level (NULL: the system's own model). */
int cal_param_applies(const cal_param *p, const char *level);
/*
 * The free parameters (the optimizer's coordinates) that apply to level, in
 * spec order, into idx: those of regime (-1: any regime) and, when shared is
 * 1, also those of no regime. Their count.
 */
size_t cal_spec_free_params(const cal_spec *s, const char *level, int regime, int shared, size_t *idx);
/* Adds the documented default parameter set of a network level (doc/calibration.md); tag: mark them as that level's. */
void cal_spec_default_params(cal_spec *s, const char *level, int tag);
/*
 * Log prior density of p at coordinate u in [0,1], up to a constant (the
 * density of the value times the Jacobian of the scale); -INFINITY outside.
 */
double cal_prior_logpdf(const cal_param *p, double u);
/* The continuous value at coordinate u (cal_param_at without the rounding to whole units). */
double cal_param_real(const cal_param *p, double u);
/* "uniform", "log-uniform", "normal(...)" or "lognormal(...)": p's prior in words, into buf. */
void cal_prior_describe(const cal_param *p, char *buf, size_t n);
/* The value of parameter p at coordinate u in [0,1] (log or linear). */
double cal_param_at(const cal_param *p, double u);
/*
 * The value a run receives at coordinate u: cal_param_at written as the
 * system file has it (cal_param_format) and read back, so rounded to whole
 * units and to the digits of the format.
 */
double cal_param_simulated(const cal_param *p, double u);
/* The coordinate of value v (inverse of cal_param_at, clamped to [0,1]). */
double cal_param_coord(const cal_param *p, double v);
/* v written as a system-file value in p's unit ("125000 ps", "1.25e+10 B/s", "4096 B", "64"). */
void cal_param_format(const cal_param *p, double v, char *buf, size_t n);
/*
 * Parses "LO:HI [log|linear] [regime=NAME] [level=MODEL] [prior=PRIOR]" or a fixed "VALUE" for key
 * SECTION.KEY into p (regimes: the names known). 0, or -1 with *err (no location).
 */
int cal_param_parse(const char *name, const char *text, const cal_regime *regimes, size_t nregimes,
                    cal_param *p, char **err);

#endif

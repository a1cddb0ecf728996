/*
 * bayes_cfg.h - the [bayes] section of a calibration spec (doc/calibration.md):
 * how `ncsim calibrate --bayes` designs its simulator runs, builds the
 * surrogate and samples the posterior. Every key is optional.
 *
 *     [bayes]
 *     mode = auto            auto: the surrogate, or direct simulation when its held-out
 *                            error is above max_error; pce: the surrogate always; direct
 *     design = 0             simulator runs of the training design (0: twice the terms of
 *                            degree 4, at least 60, at most 600)
 *     holdout = 0.2          held-out runs, as a share of the training design
 *     degree = 0             the largest total degree tried (0: as high as the design allows, <= 6)
 *     max_error = 0.05       held-out RMS relative error of the worst point that mode = auto accepts
 *     samples = 100000       posterior samples kept
 *     chains = 4             independent ensembles
 *     walkers = 0            walkers per ensemble (0: 2 * (parameters + 1), at least 16)
 *     thin = 10              keep every thin-th iteration
 *     burn = 0               iterations per walker discarded first (0: half the kept ones, >= 500)
 *     discrepancy = 1e-4:0.5 log-uniform prior of the model-discrepancy scale (relative to
 *                            the measured value); 0 leaves the term out
 *     direct_budget = 4000   simulations mode = direct may use (it keeps fewer samples)
 *     design_file = FILE     reuse the runs of an earlier design.csv (--design)
 *     refine = yes           a second design and surrogate on the posterior region of the first
 *     pilot = 0              samples of the pilot sampling that finds that region (0: samples / 10, >= 5000)
 */
#ifndef NCSIM_CALIB_BAYES_CFG_H
#define NCSIM_CALIB_BAYES_CFG_H

#include <stddef.h>

struct sysconf;

/* The fewest posterior samples `samples` (and --samples) accepts. */
#define CAL_BAYES_MIN_SAMPLES 100

enum cal_bayes_mode { CAL_BAYES_AUTO, CAL_BAYES_PCE, CAL_BAYES_DIRECT };

typedef struct cal_bayes_cfg {
	int on;                  /* a [bayes] section, or --bayes */
	enum cal_bayes_mode mode;
	size_t design, degree, samples, chains, walkers, thin, burn, direct_budget;
	double holdout, max_error;
	int refine;
	size_t pilot;
	double disc_lo, disc_hi; /* 0, 0: no discrepancy term */
	char *design_file;       /* heap, resolved against the spec's folder; NULL: run the design */
} cal_bayes_cfg;

/* The defaults above, with on = 0. */
void cal_bayes_default(cal_bayes_cfg *b);
/*
 * Reads [bayes] of c into b (on = 1 when the section exists); FILE names
 * are relative to dir (NULL: the current folder). 0, or -1 with *err.
 */
int cal_bayes_read(const struct sysconf *c, const char *dir, cal_bayes_cfg *b, char **err);
void cal_bayes_cfg_free(cal_bayes_cfg *b);

#endif

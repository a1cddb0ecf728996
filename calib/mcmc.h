/*
 * mcmc.h - sampling a posterior: the affine-invariant ensemble sampler
 * (Goodman and Weare's stretch move) and the convergence diagnostics
 * (split R-hat, effective sample size) of the samples it keeps.
 *
 * The sampler runs `chains` independent ensembles of `walkers` walkers
 * each. Every walker's trajectory is one sequence: the diagnostics treat
 * the chains * walkers sequences as the chains of Gelman and Rubin, so a
 * walker stuck away from the others shows in R-hat. Each ensemble is
 * updated in two halves (each walker moves along the line through a
 * walker of the other half), which keeps detailed balance.
 *
 * Everything is deterministic for a given seed (GSL's mt19937, one stream
 * per chain, seeded from the seed and the chain's index, so the chains do
 * not depend on each other's draws nor on how many chains there are; see
 * calib/mcmc.c).
 */
#ifndef NCSIM_CALIB_MCMC_H
#define NCSIM_CALIB_MCMC_H

#include <stddef.h>
#include <stdint.h>

/* Log density up to a constant at x[0..dim); -INFINITY outside the support. */
typedef double (*cal_logp_fn)(const double *x, void *ctx);

typedef struct cal_mcmc_cfg {
	size_t dim;
	size_t chains;    /* independent ensembles (>= 1) */
	size_t walkers;   /* per ensemble: even, >= 2 * dim + 2 */
	size_t burn;      /* iterations per walker discarded first */
	size_t steps;     /* iterations per walker after the burn-in (>= thin) */
	size_t thin;      /* keep every thin-th iteration (>= 1): steps / thin kept */
	double a;         /* stretch scale (> 1; 2 is the usual value) */
	double de;        /* share of differential-evolution moves in [0, 1] (0: stretch moves only) */
	uint64_t seed;
} cal_mcmc_cfg;

/*
 * The kept samples: nseq = chains * walkers sequences of `kept` samples.
 * Sample k of sequence s is x[(s * kept + k) * dim ...], its log density
 * logp[s * kept + k]. Sequence s = chain * walkers + walker.
 */
typedef struct cal_mcmc_out {
	double *x, *logp;   /* heap */
	size_t dim, nseq, kept;
	double accept;      /* share of proposals accepted, burn-in included */
	size_t evals;       /* calls of the log density, the nseq starting points included */
} cal_mcmc_out;

/*
 * Runs the sampler on logp from init[(s * dim) ...], one starting point per
 * sequence (each must have a finite log density; they should be spread out,
 * since walkers move only within the span of their ensemble). Iteration
 * burn + i (i = 1..steps) is kept when thin divides i. Stops early when
 * *stop becomes nonzero (checked before each iteration; NULL: never); out
 * then holds what was kept so far (kept may be 0). A NaN log density at a
 * proposal rejects it. 0, or -1 with *err (heap) and out zeroed: a bad
 * configuration or a starting point outside the support (the message names
 * the sequence).
 */
int cal_mcmc_run(const cal_mcmc_cfg *cfg, cal_logp_fn logp, void *ctx, const double *init,
                 cal_mcmc_out *out, volatile int *stop, char **err);
/* Frees out's samples and zeroes it (NULL is a no-op). */
void cal_mcmc_free(cal_mcmc_out *out);

/*
 * Split R-hat (Gelman et al., Bayesian Data Analysis, 3rd ed.) of coordinate
 * j of samples laid out as cal_mcmc_out: each sequence is cut in two halves
 * (the middle sample dropped when kept is odd). NAN when there are fewer than
 * 4 samples per sequence; 1 when every sample is equal; +INFINITY when each
 * half is constant but the halves differ.
 */
double cal_rhat(const double *x, size_t dim, size_t nseq, size_t kept, size_t j);
/*
 * Effective sample size of coordinate j over every sequence: the
 * multi-chain autocorrelation estimate with Geyer's initial monotone
 * sequence (autocovariances by FFT, so fast for long sequences). At most
 * nseq * kept * log10(nseq * kept) (antithetic chains). NAN when there are
 * fewer than 4 samples per sequence or every sample is equal.
 */
double cal_ess(const double *x, size_t dim, size_t nseq, size_t kept, size_t j);

#endif

/*
 * bayes_stats.h - summaries of a Bayesian calibration's samples (bayes.h):
 * per coordinate, correlations, predictive bands, protocol regimes.
 */
#ifndef NCSIM_CALIB_BAYES_STATS_H
#define NCSIM_CALIB_BAYES_STATS_H

#include "calib/bayes.h"

/*
 * A parameter is reported as constrained by the data when its posterior
 * standard deviation, in coordinates, is below this share of its prior's
 * (the posterior variance is under a quarter of the prior's).
 */
#define CAL_CONSTRAINED_SD 0.5
/* Chains whose R-hat reaches this have not mixed: the summary warns. */
#define CAL_RHAT_OK 1.05

/* One coordinate's posterior: in the parameter's own unit (delta: a share). */
typedef struct cal_coord_sum {
	double mean, sd, q05, q50, q95, map;
	double rhat, ess;
	double contraction;  /* 1 - posterior variance / prior variance, in coordinates */
	int constrained;
} cal_coord_sum;

/* 5%, 50% and 95% of the prior and posterior predictive distributions of one measured point. */
typedef struct cal_band {
	double prior[3], post[3];
	int inside;          /* the measured mean is inside the posterior 90% band */
} cal_band;

/* The summary of coordinate j (a free parameter, or delta at j == dim). */
void cal_coord_summary(const cal_bayes *b, size_t j, cal_coord_sum *out);
/* The ndim x ndim correlation matrix of the coordinates (heap). */
double *cal_correlation(const cal_bayes *b);
/*
 * Predictive bands of every output from S posterior samples: their
 * coordinates u[k * ndim ...] and figures sim[k * nout + o]. The share of
 * measured points inside their 90% band into *coverage.
 */
void cal_predictive(const cal_bayes *b, const double *sim, const double *u, size_t S, cal_band *out,
                    double *coverage);
/* "eager", "medium" or "rendezvous": the protocol of a message of x bytes on the system of that text. */
const char *cal_regime_of(const char *system_text, double x);
/* The q-quantile of sorted x[0..n) (GSL's interpolation; NAN when n == 0). */
double cal_quantile_sorted(const double *x, size_t n, double q);

#endif

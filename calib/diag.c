/*
 * diag.c - the convergence diagnostics of the kept samples: split R-hat and
 * the multi-chain effective sample size.
 *
 * Both read coordinate j of samples laid out as cal_mcmc_out (sample k of
 * sequence s at x[(s * kept + k) * dim + j]) through GSL's strided
 * statistics, so nothing is copied but the one sequence the FFT needs.
 *
 * Notation: m sequences of n samples, W the mean of their variances
 * (n - 1 denominator), B/n the variance of their means (m - 1 denominator),
 * var+ = (n - 1)/n W + B/n the estimate of the posterior variance that is
 * too large while the sequences have not mixed.
 */
#include <gsl/gsl_fft_halfcomplex.h>
#include <gsl/gsl_fft_real.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "calib/mcmc.h"

/* Coordinate j of samples [k0, k0 + n) of sequence s: the first element (stride dim). */
static const double *seq_at(const double *x, size_t dim, size_t kept, size_t s, size_t k0, size_t j)
{
	return x + (s * kept + k0) * dim + j;
}

/* B/n: the variance of the m means (m - 1 denominator; 0 for a single mean). */
static double between(const double *means, size_t m)
{
	return m > 1 ? gsl_stats_variance(means, 1, m) : 0;
}

/*
 * Split R-hat: sequence s gives the halves [0, n) and [kept - n, kept) with
 * n = floor(kept / 2) (an odd kept drops the middle sample), so a trend
 * within a sequence shows as differing half means.
 */
double cal_rhat(const double *x, size_t dim, size_t nseq, size_t kept, size_t j)
{
	if (!x || nseq < 1 || kept < 4 || j >= dim)
		return NAN;
	size_t n = kept / 2, m = 2 * nseq;
	double *means = xcalloc(m, sizeof *means), w = 0;
	for (size_t i = 0; i < m; i++) {
		const double *h = seq_at(x, dim, kept, i / 2, i % 2 ? kept - n : 0, j);
		means[i] = gsl_stats_mean(h, dim, n);
		w += gsl_stats_variance_m(h, dim, n, means[i]) / (double)m;
	}
	double b_n = between(means, m);
	free(means);
	if (w == 0)
		return b_n == 0 ? 1 : INFINITY;
	double var_plus = (double)(n - 1) / (double)n * w + b_n;
	return sqrt(var_plus / w);
}

/* The smallest power of two >= n (n <= SIZE_MAX / 2). */
static size_t pow2_at_least(size_t n)
{
	size_t p = 1;
	while (p < n)
		p *= 2;
	return p;
}

/*
 * Adds n * acov(t) for t < n of the n values at v (stride dim, mean `mean`)
 * to sum[t], where acov(t) = 1/n sum_i (v_i - mean)(v_{i+t} - mean). buf
 * (len, a power of two >= 2n) receives the centred values padded with zeros,
 * so the circular autocorrelation the FFT computes equals the plain one.
 */
static void add_autocov(const double *v, size_t dim, size_t n, double mean, double *buf, size_t len, double *sum)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = i < n ? v[i * dim] - mean : 0;
	gsl_fft_real_radix2_transform(buf, 1, len);
	/* |X_f|^2 in GSL's half-complex order: real parts at [0, len/2], imaginary ones at len - f. */
	buf[0] *= buf[0];
	buf[len / 2] *= buf[len / 2];
	for (size_t f = 1; f < len / 2; f++) {
		buf[f] = buf[f] * buf[f] + buf[len - f] * buf[len - f];
		buf[len - f] = 0;
	}
	gsl_fft_halfcomplex_radix2_inverse(buf, 1, len);
	for (size_t t = 0; t < n; t++)
		sum[t] += buf[t];
}

/*
 * tau = -1 + 2 sum_k P_k over the pairs P_k = rho(2k) + rho(2k+1) (Geyer's
 * initial positive sequence: up to the first pair that is not positive,
 * each pair at most the one before it), where rho(0) = 1 and
 * rho(t) = 1 - (W - mean acov(t)) / var+ for t > 0.
 */
static double geyer_tau(const double *acov_mean, size_t n, double w, double var_plus)
{
	double sum = 0, prev = INFINITY;
	for (size_t t = 0; t + 1 < n; t += 2) {
		double even = t ? 1 - (w - acov_mean[t]) / var_plus : 1;
		double pair = even + 1 - (w - acov_mean[t + 1]) / var_plus;
		if (!(pair > 0))
			break;
		prev = pair < prev ? pair : prev;
		sum += prev;
	}
	return -1 + 2 * sum;
}

double cal_ess(const double *x, size_t dim, size_t nseq, size_t kept, size_t j)
{
	if (!x || nseq < 1 || kept < 4 || j >= dim || kept > SIZE_MAX / 4)
		return NAN;
	size_t n = kept, len = pow2_at_least(2 * n);
	double *means = xcalloc(nseq, sizeof *means), *sum = xcalloc(n, sizeof *sum);
	double *buf = xcalloc(len, sizeof *buf);
	for (size_t s = 0; s < nseq; s++) {
		const double *v = seq_at(x, dim, kept, s, 0, j);
		means[s] = gsl_stats_mean(v, dim, n);
		add_autocov(v, dim, n, means[s], buf, len, sum);
	}
	/* sum[t] / (n nseq) is the mean over sequences of acov(t); acov(0) n/(n-1) a sequence's variance. */
	for (size_t t = 0; t < n; t++)
		sum[t] /= (double)n * (double)nseq;
	double w = sum[0] * (double)n / (double)(n - 1);
	double var_plus = (double)(n - 1) / (double)n * w + between(means, nseq);
	double total = (double)n * (double)nseq, cap = total * log10(total), ess = NAN;
	if (var_plus > 0) {
		double tau = geyer_tau(sum, n, w, var_plus);
		ess = tau > 0 && total / tau < cap ? total / tau : cap;
	}
	free(means);
	free(sum);
	free(buf);
	return ess;
}

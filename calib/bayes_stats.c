/*
 * bayes_stats.c - what the posterior samples say: per-parameter summaries,
 * correlations, predictive bands and Sobol indices (see bayes_stats.h).
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/sysconf.h"
#include "calib/bayes_stats.h"
#include "runtime/mpi/mpi_proto.h"

/* Grid of the numerical prior moments in a coordinate. */
#define PRIOR_GRID 2001

double cal_quantile_sorted(const double *x, size_t n, double q)
{
	return n ? gsl_stats_quantile_from_sorted_data(x, 1, n, q) : NAN;
}

/* The prior's standard deviation in coordinate j (numerically: priors need not be uniform). */
static double prior_sd(const cal_bayes *b, size_t j)
{
	if (j >= b->dim || b->s->params[b->idx[j]].prior == CAL_PRIOR_SCALE)
		return sqrt(1.0 / 12);
	const cal_param *p = &b->s->params[b->idx[j]];
	double w = 0, m = 0, m2 = 0, top = -INFINITY;
	for (int i = 0; i < PRIOR_GRID; i++) {
		double lp = cal_prior_logpdf(p, (double)i / (PRIOR_GRID - 1));
		top = lp > top ? lp : top;
	}
	for (int i = 0; i < PRIOR_GRID; i++) {
		double u = (double)i / (PRIOR_GRID - 1), d = exp(cal_prior_logpdf(p, u) - top);
		w += d;
		m += d * u;
		m2 += d * u * u;
	}
	m /= w;
	return sqrt(fmax(m2 / w - m * m, 0));
}

/* The value of coordinate j at u (a parameter's, or delta's). */
static double value_of(const cal_bayes *b, size_t j, double u)
{
	if (j < b->dim)
		return cal_param_real(&b->s->params[b->idx[j]], u);
	const cal_bayes_cfg *c = &b->s->bayes;
	return c->disc_lo * exp(u * log(c->disc_hi / c->disc_lo));
}

void cal_coord_summary(const cal_bayes *b, size_t j, cal_coord_sum *out)
{
	const cal_mcmc_out *c = &b->chain;
	size_t n = c->nseq * c->kept, nd = c->dim;
	double *v = xmalloc((n + 1) * sizeof *v), *u = xmalloc((n + 1) * sizeof *u);
	for (size_t i = 0; i < n; i++) {
		u[i] = c->x[i * nd + j];
		v[i] = value_of(b, j, u[i]);
	}
	out->mean = gsl_stats_mean(v, 1, n);
	out->sd = n > 1 ? gsl_stats_sd(v, 1, n) : 0;
	double usd = n > 1 ? gsl_stats_sd(u, 1, n) : 0;
	gsl_sort(v, 1, n);
	out->q05 = cal_quantile_sorted(v, n, 0.05);
	out->q50 = cal_quantile_sorted(v, n, 0.5);
	out->q95 = cal_quantile_sorted(v, n, 0.95);
	out->rhat = cal_rhat(c->x, nd, c->nseq, c->kept, j);
	out->ess = cal_ess(c->x, nd, c->nseq, c->kept, j);
	out->map = value_of(b, j, b->map[j]);
	/* Posterior variance over prior variance, in coordinates: 1 - that is how much the data taught. */
	double psd = prior_sd(b, j);
	out->contraction = psd > 0 ? 1 - (usd * usd) / (psd * psd) : 0;
	out->constrained = usd < CAL_CONSTRAINED_SD * psd;
	free(v);
	free(u);
}

double *cal_correlation(const cal_bayes *b)
{
	const cal_mcmc_out *c = &b->chain;
	size_t n = c->nseq * c->kept, nd = c->dim;
	double *r = xmalloc(nd * nd * sizeof *r);
	for (size_t a = 0; a < nd; a++)
		for (size_t k = 0; k < nd; k++)
			r[a * nd + k] = a == k ? 1 : n > 2 ? gsl_stats_correlation(c->x + a, nd, c->x + k, nd, n) : NAN;
	return r;
}

/* Quantiles 5, 50, 95% of x (sorted in place) into q. */
static void band(double *x, size_t n, double *q)
{
	gsl_sort(x, 1, n);
	q[0] = cal_quantile_sorted(x, n, 0.05);
	q[1] = cal_quantile_sorted(x, n, 0.5);
	q[2] = cal_quantile_sorted(x, n, 0.95);
}

/*
 * Prior predictive: the design runs (uniform over the coordinates),
 * resampled with the prior's weights, delta drawn from its prior, plus the
 * measurement's noise.
 */
static void prior_band(const cal_bayes *b, gsl_rng *r, size_t S, cal_band *out)
{
	size_t n = b->global.ntrain, no = b->nout;
	double *w = xmalloc(n * sizeof *w), *draw = xmalloc(S * no * sizeof *draw), *col = xmalloc(S * sizeof *col);
	for (size_t i = 0; i < n; i++) {
		double lp = 0;
		for (size_t j = 0; j < b->dim; j++)
			lp += cal_prior_logpdf(&b->s->params[b->idx[j]], b->global.u_train[i * b->dim + j]);
		w[i] = exp(lp);
	}
	gsl_ran_discrete_t *pick = gsl_ran_discrete_preproc(n, w);
	for (size_t k = 0; k < S; k++) {
		size_t i = gsl_ran_discrete(r, pick);
		double delta = b->ndim > b->dim ? value_of(b, b->dim, gsl_rng_uniform(r)) : 0;
		for (size_t o = 0; o < no; o++) {
			double m = b->global.y_train[i * no + o];
			draw[k * no + o] = m + gsl_ran_gaussian(r, sqrt(cal_bayes_var(b, o, m, delta)));
		}
	}
	for (size_t o = 0; o < no; o++) {
		for (size_t k = 0; k < S; k++)
			col[k] = draw[k * no + o];
		band(col, S, out[o].prior);
	}
	gsl_ran_discrete_free(pick);
	free(w);
	free(draw);
	free(col);
}

void cal_predictive(const cal_bayes *b, const double *sim, const double *u, size_t S, cal_band *out, double *coverage)
{
	size_t no = b->nout, nd = b->ndim;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)(b->s->opt.seed * 40503u + 5));
	double *col = xmalloc((S + 1) * sizeof *col);
	size_t inside = 0;
	for (size_t o = 0; o < no; o++) {
		for (size_t k = 0; k < S; k++) {
			double m = sim[k * no + o], delta = cal_bayes_delta(b, u + k * nd);
			col[k] = m + gsl_ran_gaussian(r, sqrt(cal_bayes_var(b, o, m, delta)));
		}
		band(col, S, out[o].post);
		out[o].inside = b->out[o].y >= out[o].post[0] && b->out[o].y <= out[o].post[2];
		inside += (size_t)out[o].inside;
	}
	*coverage = no ? (double)inside / (double)no : NAN;
	if (b->global.ntrain)
		prior_band(b, r, S, out);
	else
		for (size_t o = 0; o < no; o++)
			out[o].prior[0] = out[o].prior[1] = out[o].prior[2] = NAN;
	free(col);
	gsl_rng_free(r);
}

const char *cal_regime_of(const char *system_text, double x)
{
	mp_params p;
	mp_params_default(&p);
	char *err = NULL;
	sysconf_t *c = sysconf_parse("system", system_text, &err);
	if (c)
		mp_params_load(&p, c, &err);
	free(err);
	sysconf_free(c);
	uint64_t bytes = x > 0 ? (uint64_t)x : 0;
	enum mp_proto k = mp_proto_of(&p, bytes);
	return k == MP_SMALL ? "eager" : k == MP_MEDIUM ? "medium" : "rendezvous";
}

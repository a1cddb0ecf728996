/*
 * tpe.c - the Tree-structured Parzen Estimator (Bergstra et al. 2011), with the
 * defaults of Optuna's univariate TPESampler as the baseline.
 *
 * After `startup` uniform points, the observations are ranked by loss and cut
 * into a good set (the ceil(gamma n) lowest losses, at least one; an infinite
 * or NaN loss is always bad) and a bad set. Each coordinate gets one Parzen
 * estimator per set, l_d from the good and g_d from the bad observations. A new
 * point is the best of `candidates` draws from l = prod_d l_d, scored by
 * sum_d log l_d(x_d) - log g_d(x_d): where the good observations are dense and
 * the bad ones are not.
 *
 * The estimator of n observations on [0,1] is a mixture of n + 1 truncated
 * Gaussians with equal weights, the last one the uniform prior's stand-in
 * (centre 0.5, width 1). The bandwidths follow Optuna's defaults
 * (consider_endpoints off, magic clip on):
 *
 *   sorted centres     c_0 <= c_1 <= ... <= c_n   (the prior's 0.5 among them)
 *   sigma of c_i       max(c_i - c_{i-1}, c_{i+1} - c_i), the missing side
 *                      ignored at both ends (0 and 1 are not neighbours)
 *   clipped to         [1 / min(100, n + 2), 1]   (n + 1 components, +1)
 *   then the prior's   sigma = 1
 *
 * so an isolated observation is wide, a crowded one narrow but never below
 * 1/100 of the range. Ties keep the observations' order, the prior last.
 *
 * Streams: the start-up points are random's (stream (seed, 0), see optim.c);
 * the draws for point i come from stream (seed, i + 1), so a point depends on
 * the observations before its batch and its own number, not on how many draws
 * other points of the batch used.
 */
#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "calib/optim.h"
#include "runtime/kernel/rng.h"

/* ------------------------------------------------------------ Parzen estimator */

/* Standard normal CDF. */
static double phi_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* The mass of N(mu, sigma) inside [0,1]: the truncated Gaussian's normalizer. */
static double mass01(double mu, double sigma)
{
	return phi_cdf((1.0 - mu) / sigma) - phi_cdf(-mu / sigma);
}

/* A value and its index, ordered by value then index: a total order, so ties sort the same everywhere. */
typedef struct keyed {
	double v;
	size_t i;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void cal_parzen_fit(cal_parzen *p, const double *x, size_t n)
{
	size_t m = n + 1;
	p->n = m;
	p->mu = xcalloc(m, sizeof *p->mu);
	p->sigma = xcalloc(m, sizeof *p->sigma);
	p->w = xcalloc(m, sizeof *p->w);
	p->coef = xcalloc(m, sizeof *p->coef);
	keyed *s = xcalloc(m, sizeof *s);
	for (size_t i = 0; i < m; i++) {
		p->mu[i] = i < n ? x[i] : 0.5;
		p->w[i] = 1.0 / (double)m;
		s[i] = (keyed){p->mu[i], i};
	}
	qsort(s, m, sizeof *s, keyed_cmp);
	double lo = 1.0 / (m + 1 < 100 ? (double)(m + 1) : 100.0);
	for (size_t r = 0; r < m; r++) {
		double left = r > 0 ? s[r].v - s[r - 1].v : 0;
		double right = r + 1 < m ? s[r + 1].v - s[r].v : 0;
		double sg = left > right ? left : right;
		p->sigma[s[r].i] = sg < lo ? lo : sg > 1 ? 1 : sg;
	}
	p->sigma[n] = 1;
	for (size_t i = 0; i < m; i++) /* TPE evaluates the pdf often: the erfc calls once here */
		p->coef[i] = p->w[i] / (p->sigma[i] * sqrt(2 * M_PI) * mass01(p->mu[i], p->sigma[i]));
	free(s);
}

double cal_parzen_pdf(const cal_parzen *p, double x)
{
	if (!(x >= 0 && x <= 1))
		return 0;
	double f = 0;
	for (size_t i = 0; i < p->n; i++) {
		double z = (x - p->mu[i]) / p->sigma[i];
		f += p->coef[i] * exp(-0.5 * z * z);
	}
	return f;
}

void cal_parzen_free(cal_parzen *p)
{
	free(p->mu);
	free(p->sigma);
	free(p->w);
	free(p->coef);
	*p = (cal_parzen){0};
}

/* A standard normal draw (Box-Muller, one of the pair). */
static double normal_draw(sim_rng *r)
{
	double u1 = 1.0 - sim_rng_next_unif(r); /* (0, 1]: log stays finite */
	double u2 = sim_rng_next_unif(r);
	return sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * A draw from p: a component by weight, then its Gaussian restricted to [0,1]
 * by rejection. Every component keeps at least a third of its mass inside
 * (centre in [0,1], sigma <= 1: Phi(1) - Phi(0) = 0.34), so a few tries do;
 * the cap only guards the loop, and then the centre itself is returned.
 */
static double parzen_draw(const cal_parzen *p, sim_rng *r)
{
	double u = sim_rng_next_unif(r), acc = 0;
	size_t c = p->n - 1;
	for (size_t i = 0; i < p->n; i++) {
		acc += p->w[i];
		if (u < acc) {
			c = i;
			break;
		}
	}
	for (int tries = 0; tries < 1000; tries++) {
		double x = p->mu[c] + p->sigma[c] * normal_draw(r);
		if (x >= 0 && x <= 1)
			return x;
	}
	return p->mu[c];
}

/* ------------------------------------------------------------ proposals */

/* The estimators of one proposal step: l[d] from the good set, g[d] from the bad one. */
typedef struct tpe_model {
	size_t dim;
	cal_parzen *l, *g;
} tpe_model;

/* How many observations are good: ceil(gamma n), at least 1, never an infinite or NaN loss. */
static size_t tpe_good_count(double gamma, size_t n, size_t finite)
{
	size_t k = (size_t)ceil(gamma * (double)n);
	if (k < 1)
		k = 1;
	return k < finite ? k : finite;
}

static void tpe_model_fit(tpe_model *m, const cal_optcfg *c, size_t dim, const double *x, const double *loss,
                          size_t n)
{
	keyed *order = xcalloc(n ? n : 1, sizeof *order);
	size_t finite = 0;
	for (size_t i = 0; i < n; i++) {
		int ok = isfinite(loss[i]);
		finite += ok;
		order[i] = (keyed){ok ? loss[i] : INFINITY, i};
	}
	qsort(order, n, sizeof *order, keyed_cmp);
	size_t ngood = tpe_good_count(c->gamma, n, finite);
	double *col = xcalloc(n ? n : 1, sizeof *col);
	m->dim = dim;
	m->l = xcalloc(dim, sizeof *m->l);
	m->g = xcalloc(dim, sizeof *m->g);
	for (size_t d = 0; d < dim; d++) {
		for (size_t j = 0; j < n; j++)
			col[j] = x[order[j].i * dim + d];
		cal_parzen_fit(&m->l[d], col, ngood);
		cal_parzen_fit(&m->g[d], col + ngood, n - ngood);
	}
	free(col);
	free(order);
}

static void tpe_model_free(tpe_model *m)
{
	for (size_t d = 0; d < m->dim; d++) {
		cal_parzen_free(&m->l[d]);
		cal_parzen_free(&m->g[d]);
	}
	free(m->l);
	free(m->g);
}

/* Point number i: the best of the candidates drawn from l by log l - log g (the first on ties). */
static void tpe_point(const tpe_model *m, const cal_optcfg *c, size_t i, double *u, double *cand)
{
	sim_rng r;
	sim_rng_seed(&r, c->seed, (uint64_t)i + 1);
	double best = -INFINITY;
	for (size_t k = 0; k < c->candidates; k++) {
		double score = 0;
		for (size_t d = 0; d < m->dim; d++) {
			cand[d] = parzen_draw(&m->l[d], &r);
			score += log(cal_parzen_pdf(&m->l[d], cand[d])) - log(cal_parzen_pdf(&m->g[d], cand[d]));
		}
		if (k == 0 || score > best) {
			best = score;
			for (size_t d = 0; d < m->dim; d++)
				u[d] = cand[d];
		}
	}
}

void cal_tpe_propose(const cal_optcfg *c, size_t dim, const double *x, const double *loss, size_t n,
                     double *u, size_t k)
{
	tpe_model m;
	tpe_model_fit(&m, c, dim, x, loss, n);
	double *cand = xcalloc(dim, sizeof *cand);
	for (size_t j = 0; j < k; j++)
		tpe_point(&m, c, n + j, u + j * dim, cand);
	free(cand);
	tpe_model_free(&m);
}

/* ------------------------------------------------------------ the loop */

/*
 * A batch never straddles the end of the start-up: the estimators are first
 * fitted on all `startup` observations, as in Optuna, whatever the batch.
 */
int cal_tpe_run(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx)
{
	double *x = NULL, *loss = NULL;
	size_t cap = 0;
	sim_rng r;
	sim_rng_seed(&r, c->seed, 0);
	int rc = 0;
	for (size_t n = 0; n < c->budget && !rc;) {
		size_t k = c->budget - n < c->batch ? c->budget - n : c->batch;
		if (n + k > cap) { /* grown as points come, not for a budget that an interrupt may cut short */
			cap = 2 * cap > n + k ? 2 * cap : n + k;
			x = xreallocarray(x, cap, dim * sizeof *x);
			loss = xreallocarray(loss, cap, sizeof *loss);
		}
		double *u = x + n * dim;
		if (n < c->startup) {
			if (k > c->startup - n)
				k = c->startup - n;
			for (size_t i = 0; i < k * dim; i++)
				u[i] = sim_rng_next_unif(&r);
		} else {
			cal_tpe_propose(c, dim, x, loss, n, u, k);
		}
		if (eval(ctx, u, k, loss + n) != 0)
			rc = 1;
		n += k;
	}
	free(x);
	free(loss);
	return rc;
}

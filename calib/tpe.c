/*
 * tpe.c - the Tree-structured Parzen Estimator (Bergstra et al. 2011) in two
 * forms: `tpe`, the multivariate one (one joint density per set, as Optuna's
 * multivariate=True after Falkner et al. 2018), and `tpe-univariate`, one
 * density per coordinate, as Optuna's default sampler.
 *
 * After `startup` uniform points, the observations are ranked by loss and cut
 * into a good set (the min(ceil(gamma n), gamma_cap) lowest losses, at least
 * one; an infinite or NaN loss is always bad) and a bad set. A density l is
 * fitted to the good set and g to the bad one; a new point is the best of
 * `candidates` draws from l, scored by log l(x) - log g(x): where the good
 * observations are dense and the bad ones are not.
 *
 * Univariate: l = prod_d l_d, each l_d a Parzen estimator of coordinate d
 * alone (below), and likewise g; a draw takes each coordinate from its own
 * mixture, so it mixes coordinates of different observations and cannot
 * follow a ridge where two parameters must move together.
 *
 * Multivariate: l is a mixture of product kernels, one per good observation
 * plus the prior, with equal weights. A draw picks one component and takes
 * every coordinate from that component's truncated Gaussians, so it stays
 * near one observation in all coordinates at once; along a ridge the good
 * observations, hence the draws, line up. Component k's width in coordinate d
 * is the univariate rule's width of observation k among the set's coordinate
 * d (not Optuna's multivariate width 0.2 n^(-1/(dim+4)), the same in every
 * coordinate: measured on a calibration with 8 parameters, that width stays
 * near 0.15 of the range and the search never narrows down). The magic clip
 * counts every observation of the run, not the set's: the good set stops at
 * 25, and a floor of 1/27 of the range would keep each draw that far from its
 * observation however many points were evaluated; with all of them counted
 * the floor falls to Optuna's 1/100 after 98 points.
 *
 * The univariate Parzen estimator of n observations on [0,1] is a mixture of
 * n + 1 truncated Gaussians with equal weights, the last one the uniform
 * prior's stand-in (centre 0.5, width 1). The widths follow Optuna's
 * defaults (consider_endpoints off, magic clip on):
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
#include <strings.h>

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

/* The magic clip's floor for a run of n observations: 1 / min(100, n + 2). */
static double clip_floor(size_t n)
{
	return 1.0 / (n + 2 < 100 ? (double)(n + 2) : 100.0);
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

/* cal_parzen_fit with the widths' floor `lo` given. */
static void parzen_fit_floor(cal_parzen *p, const double *x, size_t n, double lo)
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

void cal_parzen_fit(cal_parzen *p, const double *x, size_t n)
{
	parzen_fit_floor(p, x, n, clip_floor(n));
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

/* Component index of a mixture with weights w[0..n) (summing to 1): the last one if rounding leaves u beyond the sum. */
static size_t pick_component(const double *w, size_t n, sim_rng *r)
{
	double u = sim_rng_next_unif(r), acc = 0;
	for (size_t i = 0; i < n; i++) {
		acc += w[i];
		if (u < acc)
			return i;
	}
	return n - 1;
}

/*
 * A draw from N(mu, sigma) restricted to [0,1], by rejection. Every component
 * keeps at least a third of its mass inside (centre in [0,1], sigma <= 1:
 * Phi(1) - Phi(0) = 0.34), so a few tries do; the cap only guards the loop,
 * and then the centre itself is returned.
 */
static double trunc_draw(double mu, double sigma, sim_rng *r)
{
	for (int tries = 0; tries < 1000; tries++) {
		double x = mu + sigma * normal_draw(r);
		if (x >= 0 && x <= 1)
			return x;
	}
	return mu;
}

/* A draw from p: a component by weight, then its truncated Gaussian. */
static double parzen_draw(const cal_parzen *p, sim_rng *r)
{
	size_t c = pick_component(p->w, p->n, r);
	return trunc_draw(p->mu[c], p->sigma[c], r);
}

/* ------------------------------------------------------------ mixture of product kernels */

void cal_mvparzen_fit(cal_mvparzen *p, const double *x, size_t n, size_t dim, size_t nobs)
{
	size_t m = n + 1;
	*p = (cal_mvparzen){
		.n = m,
		.dim = dim,
		.mu = xcalloc(m * dim, sizeof *p->mu),
		.sigma = xcalloc(m * dim, sizeof *p->sigma),
		.w = xcalloc(m, sizeof *p->w),
		.logc = xcalloc(m * dim, sizeof *p->logc),
	};
	double lo = clip_floor(nobs > n ? nobs : n);
	double *col = xcalloc(n ? n : 1, sizeof *col);
	for (size_t d = 0; d < dim; d++) { /* coordinate d's widths: the univariate rule on the set's column */
		for (size_t i = 0; i < n; i++)
			col[i] = x[i * dim + d];
		cal_parzen u;
		parzen_fit_floor(&u, col, n, lo);
		for (size_t k = 0; k < m; k++) {
			double mu = u.mu[k], sg = u.sigma[k];
			p->mu[k * dim + d] = mu;
			p->sigma[k * dim + d] = sg;
			p->logc[k * dim + d] = -log(sg * sqrt(2 * M_PI) * mass01(mu, sg));
		}
		cal_parzen_free(&u);
	}
	for (size_t k = 0; k < m; k++)
		p->w[k] = 1.0 / (double)m;
	free(col);
}

/*
 * log sum_k w_k prod_d N_[0,1](x_d; mu_kd, sigma_kd), summed relative to the
 * largest term (log-sum-exp): a component of width 1/100 contributes a factor
 * up to 40 per coordinate, past the largest double after 193 coordinates, and
 * far from its centre a factor below e^-1000; the logarithms stay ordinary.
 */
double cal_mvparzen_logpdf(const cal_mvparzen *p, const double *x)
{
	for (size_t d = 0; d < p->dim; d++)
		if (!(x[d] >= 0 && x[d] <= 1))
			return -INFINITY;
	double top = -INFINITY, sum = 0;
	for (size_t k = 0; k < p->n; k++) {
		const double *mu = p->mu + k * p->dim, *sg = p->sigma + k * p->dim, *c = p->logc + k * p->dim;
		double a = log(p->w[k]);
		for (size_t d = 0; d < p->dim; d++) {
			double z = (x[d] - mu[d]) / sg[d];
			a += c[d] - 0.5 * z * z;
		}
		if (a > top) {
			sum = sum * exp(top - a) + 1;
			top = a;
		} else {
			sum += exp(a - top);
		}
	}
	return top + log(sum);
}

/* A draw from p into x[0..dim): one component by weight, then each coordinate from its truncated Gaussian. */
static void mvparzen_draw(const cal_mvparzen *p, sim_rng *r, double *x)
{
	size_t k = pick_component(p->w, p->n, r);
	for (size_t d = 0; d < p->dim; d++)
		x[d] = trunc_draw(p->mu[k * p->dim + d], p->sigma[k * p->dim + d], r);
}

void cal_mvparzen_free(cal_mvparzen *p)
{
	free(p->mu);
	free(p->sigma);
	free(p->w);
	free(p->logc);
	*p = (cal_mvparzen){0};
}

/* ------------------------------------------------------------ proposals */

/* The densities of one proposal step: univariate l[d] and g[d], or the joint ml and mg. */
typedef struct tpe_model {
	size_t dim;
	int joint;
	cal_parzen *l, *g;
	cal_mvparzen ml, mg;
} tpe_model;

/* How many observations are good: min(ceil(gamma n), cap) (cap 0: none), at least 1, never an infinite or NaN loss. */
static size_t tpe_good_count(double gamma, size_t cap, size_t n, size_t finite)
{
	size_t k = (size_t)ceil(gamma * (double)n);
	if (cap && k > cap)
		k = cap;
	if (k < 1)
		k = 1;
	return k < finite ? k : finite;
}

/* 1 for the joint form (`tpe`), 0 for `tpe-univariate`. */
static int tpe_joint(const cal_optcfg *c)
{
	return !c->name || strcasecmp(c->name, "tpe-univariate") != 0;
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
	size_t ngood = tpe_good_count(c->gamma, c->gamma_cap, n, finite);
	*m = (tpe_model){.dim = dim, .joint = tpe_joint(c)};
	if (m->joint) {
		double *rows = xcalloc(n ? n : 1, dim * sizeof *rows); /* the observations by rank */
		for (size_t j = 0; j < n; j++)
			for (size_t d = 0; d < dim; d++)
				rows[j * dim + d] = x[order[j].i * dim + d];
		cal_mvparzen_fit(&m->ml, rows, ngood, dim, n);
		cal_mvparzen_fit(&m->mg, rows + ngood * dim, n - ngood, dim, n);
		free(rows);
	} else {
		double *col = xcalloc(n ? n : 1, sizeof *col);
		m->l = xcalloc(dim, sizeof *m->l);
		m->g = xcalloc(dim, sizeof *m->g);
		for (size_t d = 0; d < dim; d++) {
			for (size_t j = 0; j < n; j++)
				col[j] = x[order[j].i * dim + d];
			cal_parzen_fit(&m->l[d], col, ngood);
			cal_parzen_fit(&m->g[d], col + ngood, n - ngood);
		}
		free(col);
	}
	free(order);
}

static void tpe_model_free(tpe_model *m)
{
	if (m->joint) {
		cal_mvparzen_free(&m->ml);
		cal_mvparzen_free(&m->mg);
		return;
	}
	for (size_t d = 0; d < m->dim; d++) {
		cal_parzen_free(&m->l[d]);
		cal_parzen_free(&m->g[d]);
	}
	free(m->l);
	free(m->g);
}

/* One candidate into cand: a draw from l and its score log l - log g. */
static double tpe_candidate(const tpe_model *m, sim_rng *r, double *cand)
{
	if (m->joint) {
		mvparzen_draw(&m->ml, r, cand);
		return cal_mvparzen_logpdf(&m->ml, cand) - cal_mvparzen_logpdf(&m->mg, cand);
	}
	double score = 0;
	for (size_t d = 0; d < m->dim; d++) {
		cand[d] = parzen_draw(&m->l[d], r);
		score += log(cal_parzen_pdf(&m->l[d], cand[d])) - log(cal_parzen_pdf(&m->g[d], cand[d]));
	}
	return score;
}

/* Point number i: the best of the candidates by log l - log g (the first on ties). */
static void tpe_point(const tpe_model *m, const cal_optcfg *c, size_t i, double *u, double *cand)
{
	sim_rng r;
	sim_rng_seed(&r, c->seed, (uint64_t)i + 1);
	double best = -INFINITY;
	for (size_t k = 0; k < c->candidates; k++) {
		double score = tpe_candidate(m, &r, cand);
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

/*
 * bayes.c - the Bayesian calibration driver (see bayes.h): design runs,
 * surrogate, posterior sampling, MAP.
 */
#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/exitcode.h"
#include "base/memlimit.h"
#include "base/util.h"
#include "calib/bayes.h"
#include "calib/bayes_io.h"
#include "calib/design.h"
#include "calib/par.h"

/* The local surrogate may differ from the global one by this many times the global one's largest held-out error. */
#define BAYES_TRUST 1.5
/* Chains whose R-hat reaches this everywhere are run again (at most BAYES_EXTEND times), with twice the thinning. */
#define BAYES_RHAT_MIXED 1.03
#define BAYES_EXTEND 2
/* Share of differential-evolution moves among the stretch moves (mcmc.h). */
#define BAYES_DE 0.8
/* The burn-in runs in this many parts, stuck walkers moved between them (the last part ends on the result). */
#define BAYES_BURN_PHASES 3
/* The pilot sampling that finds the posterior region keeps at least this many samples. */
#define BAYES_PILOT_MIN 5000
/* The posterior region is at least this wide in each coordinate (before it is widened). */
#define BAYES_MIN_WIDTH 0.01
/* The sampler starts from the best of this many prior points per sequence (at least BAYES_POOL_MIN). */
#define BAYES_POOL_PER_SEQ 50
#define BAYES_POOL_MIN 4000
/* Spread of the starting points around the pool's best, in coordinates. */
#define BAYES_JITTER 0.01
/* A variance never falls below this share of the measured value, squared (exact data, no discrepancy). */
#define BAYES_VAR_FLOOR 1e-12

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cal_bayes_values(const cal_bayes *b, const double *u, double *v)
{
	const cal_spec *s = b->s;
	for (size_t p = 0; p < s->nparams; p++)
		v[p] = s->params[p].value;
	for (size_t j = 0; j < b->dim; j++)
		v[b->idx[j]] = cal_param_at(&s->params[b->idx[j]], u[j]);
}

double cal_bayes_delta(const cal_bayes *b, const double *u)
{
	const cal_bayes_cfg *c = &b->s->bayes;
	return b->ndim > b->dim ? c->disc_lo * exp(u[b->dim] * log(c->disc_hi / c->disc_lo)) : 0;
}

double cal_bayes_var(const cal_bayes *b, size_t o, double sim, double delta)
{
	const cal_datum *x = &b->out[o];
	double e = b->direct ? 0 : b->sur->err_rel[o] * sim, d = delta * x->y;
	double v = x->se2 + d * d + e * e, floor = BAYES_VAR_FLOOR * x->y * x->y;
	return v > floor ? v : floor > 0 ? floor : 1e-300;
}

double cal_bayes_logpost(const cal_bayes *b, const double *u, const double *sim)
{
	double lp = 0;
	for (size_t j = 0; j < b->ndim; j++) {
		if (!(u[j] >= 0 && u[j] <= 1))
			return -INFINITY;
		if (j < b->dim)
			lp += cal_prior_logpdf(&b->s->params[b->idx[j]], u[j]);
	}
	double delta = cal_bayes_delta(b, u);
	for (size_t o = 0; o < b->nout; o++) {
		if (!isfinite(sim[o]))
			return -INFINITY;
		double v = cal_bayes_var(b, o, sim[o], delta), r = b->out[o].y - sim[o];
		lp -= 0.5 * b->out[o].weight * (log(v) + r * r / v);
	}
	return lp;
}

/* ------------------------------------------------------------ outputs */

/* The fitted benchmarks' measured points, one output each. */
static void outputs(cal_bayes *b)
{
	const cal_spec *s = b->s;
	VEC(cal_datum) v = {0};
	for (size_t k = 0; k < s->nbench; k++) {
		const cal_bench *B = &s->bench[k];
		if (B->predict_only || B->weight <= 0)
			continue;
		for (size_t i = 0; i < B->npoints; i++) {
			const cal_point *p = &B->points[i];
			double se2 = p->ntrials > 1 ? p->sd * p->sd / (double)p->ntrials : 0;
			VEC_PUSH(&v, ((cal_datum){k, i, p->mean, se2, B->weight}));
		}
	}
	b->out = v.ptr;
	b->nout = v.len;
}

/* ------------------------------------------------------------ sampling */

typedef struct target {
	cal_bayes *b;
	double *sim, *scratch, *u;  /* per-call buffers: no allocation in the sampler's loop */
	double *gsim, *gscratch;    /* the global surrogate's, when the local one is checked against it */
	char *err;                  /* the first failed direct run */
} target;

/* The buffers of t (b's surrogates, or none for direct simulation). */
static void target_init(cal_bayes *b, target *t)
{
	*t = (target){.b = b};
	t->sim = xmalloc((b->nout + 1) * sizeof *t->sim);
	if (b->direct)
		return;
	t->scratch = xmalloc(cal_surrogate_scratch(b->sur) * sizeof *t->scratch);
	if (b->sur == &b->sur_local) {
		t->gsim = xmalloc((b->nout + 1) * sizeof *t->gsim);
		t->gscratch = xmalloc(cal_surrogate_scratch(&b->sur_global) * sizeof *t->gscratch);
	}
}

static void target_free(target *t)
{
	free(t->sim);
	free(t->scratch);
	free(t->gsim);
	free(t->gscratch);
}

/*
 * The local surrogate is fitted where the pilot's samples lie; elsewhere in
 * its region a polynomial can invent a mode. The global surrogate is valid
 * everywhere within its held-out errors: where the two disagree by more
 * than that, the local one is extrapolating, and the point is refused.
 */
static int trusted(const cal_bayes *b, const double *u, target *t)
{
	const cal_surrogate *g = &b->sur_global;
	cal_surrogate_eval(g, u, t->gsim, t->gscratch);
	for (size_t o = 0; o < b->nout; o++) {
		double tol = BAYES_TRUST * (g->err_max[o] > 0.01 ? g->err_max[o] : 0.01);
		if (!(fabs(t->sim[o] - t->gsim[o]) <= tol * fabs(t->gsim[o])))
			return 0;
	}
	return 1;
}

static double logp_surrogate(const double *u, void *ctx)
{
	target *t = ctx;
	for (size_t j = 0; j < t->b->dim; j++)
		if (!(u[j] >= 0 && u[j] <= 1))
			return -INFINITY;
	cal_surrogate_eval(t->b->sur, u, t->sim, t->scratch);
	if (t->gsim && !trusted(t->b, u, t))
		return -INFINITY;
	return cal_bayes_logpost(t->b, u, t->sim);
}

static double logp_direct(const double *u, void *ctx)
{
	target *t = ctx;
	cal_bayes *b = t->b;
	for (size_t j = 0; j < b->ndim; j++)
		if (!(u[j] >= 0 && u[j] <= 1))
			return -INFINITY;
	char *err = NULL;
	b->direct_runs++;
	int rc = cal_bayes_simulate(b, u, 1, t->sim, "posterior", &err);
	if (rc != 0) {
		if (!t->err && err)
			t->err = err;
		else
			free(err);
		if (rc > 0)
			*b->stop = 1;
		return -INFINITY;
	}
	return cal_bayes_logpost(b, u, t->sim);
}

/* Sampler settings for `samples` kept samples: [bayes], or for direct simulation what direct_budget allows. */
static void sampler_cfg(cal_bayes *b, size_t samples)
{
	const cal_bayes_cfg *c = &b->s->bayes;
	cal_mcmc_cfg *m = &b->mc;
	size_t w = c->walkers ? c->walkers : 2 * (b->ndim + 1);
	w = w < 2 * b->ndim + 2 ? 2 * b->ndim + 2 : w;
	if (!c->walkers && w < 16)
		w = 16;
	*m = (cal_mcmc_cfg){.dim = b->ndim, .chains = c->chains, .walkers = w, .thin = c->thin, .a = 2, .de = BAYES_DE,
	                    .seed = b->s->opt.seed};
	size_t nseq = m->chains * w, kept = (samples + nseq - 1) / nseq;
	m->steps = kept * m->thin;
	m->burn = c->burn ? c->burn : m->steps / 2 > 500 ? m->steps / 2 : 500;
	if (b->direct) {
		/* Every iteration of every walker is a simulation: the budget sets the length, half of it burn-in. */
		m->chains = c->chains < 2 ? c->chains : 2;
		nseq = m->chains * w;
		size_t iters = c->direct_budget / nseq;
		m->thin = 1;
		m->burn = iters / 2;
		m->steps = iters - m->burn;
	}
}

/*
 * init[s] = the point u[order[s]] moved by a small Gaussian step (kept where
 * the density is finite): an ensemble's walkers must not coincide, or the
 * stretch move cannot separate them.
 */
static void jitter(cal_bayes *b, const double *u, const size_t *order, size_t nseq, double *init, target *t,
                   cal_logp_fn logp)
{
	size_t nd = b->ndim;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)(b->s->opt.seed * 2654435761u + 3));
	for (size_t k = 0; k < nseq; k++) {
		const double *src = u + order[k] * nd;
		double *dst = init + k * nd;
		for (int tries = 0; tries < 20; tries++) {
			for (size_t j = 0; j < nd; j++) {
				double x = src[j] + gsl_ran_gaussian(r, BAYES_JITTER);
				dst[j] = x < 1e-9 ? 1e-9 : x > 1 - 1e-9 ? 1 - 1e-9 : x;
			}
			if (isfinite(logp(dst, t)))
				break;
			memcpy(dst, src, nd * sizeof *dst);
		}
	}
	gsl_rng_free(r);
}

/* Starting points: the best of a pool of prior points, a little apart. */
static void start_points(cal_bayes *b, target *t, double *init)
{
	size_t nseq = b->mc.chains * b->mc.walkers, nd = b->ndim;
	size_t pool = nseq * BAYES_POOL_PER_SEQ > BAYES_POOL_MIN ? nseq * BAYES_POOL_PER_SEQ : BAYES_POOL_MIN;
	double *u = xmalloc(pool * nd * sizeof *u), *lp = xmalloc(pool * sizeof *lp);
	size_t *order = xmalloc(pool * sizeof *order);
	cal_lhs(pool, nd, b->s->opt.seed + 2, 1, u);
	/* Inside the region of a local surrogate: it says nothing outside. */
	for (size_t i = 0; i < pool && b->sur->lo; i++)
		for (size_t j = 0; j < b->dim; j++)
			u[i * nd + j] = b->sur->lo[j] + u[i * nd + j] * (b->sur->hi[j] - b->sur->lo[j]);
	for (size_t i = 0; i < pool; i++) {
		lp[i] = logp_surrogate(u + i * nd, t);
		order[i] = i;
	}
	/* Partial selection of the best nseq (a full sort is cheap at this size). */
	for (size_t i = 0; i < nseq; i++)
		for (size_t k = i + 1; k < pool; k++)
			if (lp[order[k]] > lp[order[i]]) {
				size_t x = order[i];
				order[i] = order[k];
				order[k] = x;
			}
	jitter(b, u, order, nseq, init, t, logp_surrogate);
	free(u);
	free(lp);
	free(order);
}

/* Inside the box: the check of the starting points of direct sampling (a simulation each would cost too much). */
static double in_box(const double *u, void *ctx)
{
	const target *t = ctx;
	for (size_t j = 0; j < t->b->ndim; j++)
		if (!(u[j] >= 0 && u[j] <= 1))
			return -INFINITY;
	return 0;
}

/* Starting points of direct sampling: the design runs that fit best (delta at the middle of its range). */
static void start_direct(cal_bayes *b, target *t, double *init)
{
	size_t nseq = b->mc.chains * b->mc.walkers, nd = b->ndim, n = b->global.ntrain;
	double *u = xcalloc(n * nd, sizeof *u), *lp = xmalloc(n * sizeof *lp);
	size_t *order = xmalloc((nseq > n ? nseq : n) * sizeof *order);
	for (size_t i = 0; i < n; i++) {
		memcpy(u + i * nd, b->global.u_train + i * b->dim, b->dim * sizeof *u);
		if (nd > b->dim)
			u[i * nd + b->dim] = 0.5;
		lp[i] = cal_bayes_logpost(b, u + i * nd, b->global.y_train + i * b->nout);
		order[i] = i;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (lp[order[k]] > lp[order[i]]) {
				size_t x = order[i];
				order[i] = order[k];
				order[k] = x;
			}
	/* Fewer runs than walkers: the best ones again, the jitter sets them apart. */
	for (size_t i = n; i < nseq; i++)
		order[i] = order[i % n];
	jitter(b, u, order, nseq, init, t, in_box);
	free(u);
	free(lp);
	free(order);
}

/* The standard deviation of coordinate j over the walkers [first, first + W) of pos. */
static double spread(const double *pos, size_t first, size_t W, size_t nd, size_t j)
{
	double m = 0, v = 0;
	for (size_t q = 0; q < W; q++)
		m += pos[(first + q) * nd + j] / (double)W;
	for (size_t q = 0; q < W; q++)
		v += pow(pos[(first + q) * nd + j] - m, 2) / (double)W;
	return sqrt(v);
}

/*
 * Walkers of ensemble e that sit far below its best (in log density: more
 * than a 99.9% chi-square excursion in ndim dimensions) are stuck in a
 * pocket the stretch move does not leave; each moves onto a random good
 * walker of its ensemble, a little apart (a tenth of the ensemble's spread)
 * where the density allows it, else onto it exactly. Returns how many moved.
 */
static size_t unstick(const cal_bayes *b, const cal_mcmc_out *o, size_t e, gsl_rng *r, double *pos, cal_logp_fn f,
                      target *t)
{
	size_t W = b->mc.walkers, nd = b->ndim, moved = 0, first = e * W;
	double best = -INFINITY, cut = gsl_cdf_chisq_Qinv(0.001, (double)nd) / 2, *sd = xmalloc(nd * sizeof *sd);
	for (size_t w = 0; w < W; w++)
		best = fmax(best, o->logp[first + w]);
	for (size_t j = 0; j < nd; j++)
		sd[j] = 0.1 * spread(pos, first, W, nd, j);
	for (size_t w = 0; w < W; w++) {
		if (o->logp[first + w] >= best - cut)
			continue;
		size_t k;
		do
			k = first + gsl_rng_uniform_int(r, W);
		while (o->logp[k] < best - cut);
		double *x = pos + (first + w) * nd;
		for (int tries = 0; tries < 20; tries++) {
			for (size_t j = 0; j < nd; j++) {
				double v = pos[k * nd + j] + gsl_ran_gaussian(r, sd[j]);
				x[j] = v < 0 ? 0 : v > 1 ? 1 : v;
			}
			if (isfinite(f(x, t)))
				break;
			memcpy(x, pos + k * nd, nd * sizeof *x);
		}
		moved++;
	}
	free(sd);
	return moved;
}

/*
 * The burn-in, in BAYES_BURN_PHASES parts: after each, stuck walkers move
 * onto good ones. init holds the start and receives the last positions.
 * 0, 1 interrupted, -1 with *err.
 */
static int burn_in(cal_bayes *b, cal_logp_fn f, target *t, double *init, char **err)
{
	size_t nseq = b->mc.chains * b->mc.walkers, nd = b->ndim;
	cal_mcmc_cfg c = b->mc;
	c.steps = c.thin = b->mc.burn / BAYES_BURN_PHASES > 0 ? b->mc.burn / BAYES_BURN_PHASES : 1;
	c.burn = 0;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)(b->mc.seed * 7919u + 11));
	int rc = 0;
	for (int phase = 0; phase < BAYES_BURN_PHASES && rc == 0; phase++) {
		cal_mcmc_out o = {0};
		c.seed = b->mc.seed + (uint64_t)phase;
		rc = cal_mcmc_run(&c, f, t, init, &o, b->stop, err);
		if (rc == 0 && *b->stop)
			rc = 1;
		if (rc == 0) {
			memcpy(init, o.x, nseq * nd * sizeof *init);
			for (size_t e = 0; e < b->mc.chains; e++)
				b->unstuck += unstick(b, &o, e, r, init, f, t);
			b->burn_evals += o.evals;
		}
		cal_mcmc_free(&o);
	}
	gsl_rng_free(r);
	return rc;
}

/* 1 when every coordinate's split R-hat is below BAYES_RHAT_MIXED. */
static int mixed(const cal_mcmc_out *c)
{
	for (size_t j = 0; j < c->dim; j++)
		if (!(cal_rhat(c->x, c->dim, c->nseq, c->kept, j) < BAYES_RHAT_MIXED))
			return 0;
	return 1;
}

/* The last kept sample of every sequence of c into pos. */
static void last_positions(const cal_mcmc_out *c, double *pos)
{
	for (size_t s = 0; s < c->nseq; s++)
		memcpy(pos + s * c->dim, c->x + (s * c->kept + c->kept - 1) * c->dim, c->dim * sizeof *pos);
}

/* The sampler, for `samples` kept samples into b->chain (final: the posterior, not the pilot). 0, 1 interrupted, -1 with *err. */
static int sample(cal_bayes *b, size_t samples, int final, char **err)
{
	sampler_cfg(b, samples);
	cal_mcmc_free(&b->chain);
	size_t nseq = b->mc.chains * b->mc.walkers;

	target t;
	target_init(b, &t);
	double *init = xmalloc(nseq * b->ndim * sizeof *init);
	if (b->direct)
		start_direct(b, &t, init);
	else
		start_points(b, &t, init);
	cal_logp_fn f = b->direct ? logp_direct : logp_surrogate;
	int rc = burn_in(b, f, &t, init, err);
	cal_mcmc_cfg main = b->mc;
	main.burn = 0;
	main.seed = b->mc.seed + BAYES_BURN_PHASES;
	if (rc == 0)
		rc = cal_mcmc_run(&main, f, &t, init, &b->chain, b->stop, err);
	/*
	 * Chains that have not mixed get more time (never by direct simulation,
	 * whose budget is spent): what ran becomes burn-in, and the sampler runs
	 * again from where it stopped, each time with twice the thinning.
	 */
	for (int more = 0; rc == 0 && final && !b->direct && more < BAYES_EXTEND && !mixed(&b->chain); more++) {
		last_positions(&b->chain, init);
		b->mc.burn += main.steps;
		main.thin *= 2;
		main.steps *= 2;
		main.seed += 1;
		cal_mcmc_free(&b->chain);
		rc = cal_mcmc_run(&main, f, &t, init, &b->chain, b->stop, err);
		b->extended++;
	}
	b->mc.thin = main.thin;
	b->mc.steps = main.steps;
	if (rc == 0 && t.err) {
		*err = t.err;
		t.err = NULL;
		rc = -1;
	}
	if (rc == 0 && *b->stop)
		rc = 1;
	free(t.err);
	target_free(&t);
	free(init);
	return rc;
}

/* ------------------------------------------------------------ MAP */

static double nl_objective(unsigned n, const double *u, double *grad, void *ctx)
{
	(void)n;
	(void)grad;
	double lp = logp_surrogate(u, ctx);
	return isfinite(lp) ? -lp : 1e300;
}

/*
 * The MAP: the best sample, then (with the surrogate) a local search from
 * it; then one simulation there, so the report shows the simulator itself
 * at the MAP, not the surrogate.
 */
static int find_map(cal_bayes *b, char **err)
{
	size_t n = b->chain.nseq * b->chain.kept, best = 0, nd = b->ndim;
	for (size_t i = 1; i < n; i++)
		if (b->chain.logp[i] > b->chain.logp[best])
			best = i;
	b->map = xmalloc(nd * sizeof *b->map);
	memcpy(b->map, b->chain.x + best * nd, nd * sizeof *b->map);
	b->map_logp = n ? b->chain.logp[best] : -INFINITY;
	if (!b->direct && n) {
		target t;
		target_init(b, &t);
		nlopt_opt opt = nlopt_create(NLOPT_LN_SBPLX, (unsigned)nd);
		double *lo = xcalloc(nd, sizeof *lo), *hi = xmalloc(nd * sizeof *hi), *x = xmalloc(nd * sizeof *x), f;
		for (size_t j = 0; j < nd; j++)
			hi[j] = 1;
		memcpy(x, b->map, nd * sizeof *x);
		nlopt_set_lower_bounds(opt, lo);
		nlopt_set_upper_bounds(opt, hi);
		nlopt_set_min_objective(opt, nl_objective, &t);
		nlopt_set_maxeval(opt, 4000);
		nlopt_set_xtol_abs1(opt, 1e-9);
		if (nlopt_optimize(opt, x, &f) > 0 && -f > b->map_logp) {
			memcpy(b->map, x, nd * sizeof *x);
			b->map_logp = -f;
		}
		nlopt_destroy(opt);
		free(lo);
		free(hi);
		free(x);
		target_free(&t);
	}
	double *v = xmalloc((b->s->nparams + 1) * sizeof *v);
	cal_bayes_values(b, b->map, v);
	int rc = cal_run_batch(b->r, v, 1, 2, &b->map_eval, b->stop) < 0 ? 1 : 0;
	free(v);
	if (rc == 0 && b->map_eval.error) {
		*err = xasprintf("the run at the MAP failed: %s", b->map_eval.error);
		rc = -1;
	}
	return rc;
}

/* ------------------------------------------------------------ the command */

/* The free parameters: those of the runs' level, in spec order. */
static int free_params(cal_bayes *b, char **err)
{
	cal_spec *s = b->s;
	if (s->nlevels) {
		*err = xasprintf("%s: --bayes calibrates one network level: give --network instead of --levels", s->path);
		return -1;
	}
	b->idx = xcalloc(s->nparams + 1, sizeof *b->idx);
	b->dim = cal_spec_free_params(s, s->network, -1, 1, b->idx);
	b->ndim = b->dim + (s->bayes.disc_hi > 0);
	outputs(b);
	if (b->nout == 0) {
		*err = xasprintf("%s: no measured point to condition on", s->path);
		return -1;
	}
	return 0;
}

/* The posterior region: per coordinate, the pilot's 0.1%..99.9% range widened by half on each side. */
static void region(cal_bayes *b)
{
	const cal_mcmc_out *c = &b->chain;
	size_t n = c->nseq * c->kept;
	double *x = xmalloc((n + 1) * sizeof *x);
	b->box_lo = xmalloc(b->dim * sizeof *b->box_lo);
	b->box_hi = xmalloc(b->dim * sizeof *b->box_hi);
	for (size_t j = 0; j < b->dim; j++) {
		for (size_t i = 0; i < n; i++)
			x[i] = c->x[i * c->dim + j];
		qsort(x, n, sizeof *x, cal_cmp_double);
		double lo = x[(size_t)(0.001 * (double)(n - 1))], hi = x[(size_t)ceil(0.999 * (double)(n - 1))];
		double w = fmax(hi - lo, BAYES_MIN_WIDTH), mid = 0.5 * (lo + hi);
		lo = mid - w;
		hi = mid + w;
		b->box_lo[j] = lo < 0 ? 0 : lo;
		b->box_hi[j] = hi > 1 ? 1 : hi;
	}
	free(x);
}

/* A surrogate on design d (box NULL: the whole prior). 0, or -1 with *err. */
static int fit(cal_bayes *b, cal_surrogate *sur, const cal_design *d, char **err)
{
	const cal_bayes_cfg *c = &b->s->bayes;
	return cal_surrogate_fit(sur, b->dim, sur == &b->sur_local ? b->box_lo : NULL,
	                         sur == &b->sur_local ? b->box_hi : NULL, c->degree, d->u_train, d->y_train, d->ntrain,
	                         d->u_test, d->y_test, d->ntest, b->nout, err);
}

/*
 * The surrogate the posterior uses: the global one, then (refine) a pilot
 * sampling on it, a local design on the region it finds and the local
 * surrogate; or direct simulation when the surrogate is too coarse.
 * 0, 1 interrupted, -1 with *err.
 */
static int surrogate(cal_bayes *b, char **err)
{
	const cal_bayes_cfg *c = &b->s->bayes;
	if (fit(b, &b->sur_global, &b->global, err) < 0)
		return -1;
	b->sur = &b->sur_global;
	if (c->mode == CAL_BAYES_DIRECT) {
		b->direct = 1;
		return 0;
	}
	if (c->refine) {
		size_t pilot = c->pilot ? c->pilot : c->samples / 10 > BAYES_PILOT_MIN ? c->samples / 10 : BAYES_PILOT_MIN;
		int rc = sample(b, pilot, 0, err);
		if (rc == 0) {
			region(b);
			rc = cal_bayes_local_design(b, err);
		}
		if (rc == 0)
			rc = fit(b, &b->sur_local, &b->local, err) < 0 ? -1 : 0;
		if (rc != 0)
			return rc;
		/* The local surrogate replaces the global one only where it does better. */
		if (b->sur_local.worst < b->sur_global.worst)
			b->sur = &b->sur_local;
	}
	if (c->mode == CAL_BAYES_AUTO && !(b->sur->worst <= c->max_error)) {
		if (cal_par_rank() == 0)
			fprintf(b->msg, "ncsim calibrate: the surrogate's held-out error is %.3g%% at its worst point "
			                "(max_error %.3g%%): sampling by direct simulation (%zu runs)\n",
			        100 * b->sur->worst, 100 * c->max_error, c->direct_budget);
		b->direct = 1;
	}
	return 0;
}

static void bayes_free(cal_bayes *b)
{
	free(b->idx);
	free(b->out);
	cal_design_free(&b->global);
	cal_design_free(&b->local);
	cal_design_free(&b->pool);
	cal_surrogate_free(&b->sur_global);
	cal_surrogate_free(&b->sur_local);
	free(b->box_lo);
	free(b->box_hi);
	cal_mcmc_free(&b->chain);
	free(b->map);
	cal_eval_free(b->s, &b->map_eval);
}

/*
 * The memory of the samples (and of the copies the report sorts), before
 * anything runs: a spec must not ask for more than the host holds.
 */
static int memory(cal_bayes *b, char **err)
{
	size_t n = b->s->bayes.samples;
	double need = ((double)n + 4096) * (double)(b->ndim + 1) * sizeof(double) * 3;
	char what[96];
	snprintf(what, sizeof what, "keeping %zu posterior samples of %zu coordinates", n, b->ndim);
	return mem_limit_check(need > 1e19 ? UINT64_MAX : (uint64_t)need, b->s->path, what, err);
}

/* The steps, in order. 0, 1 interrupted, -1 with *err. */
static int steps(cal_bayes *b, char **err)
{
	int rc = free_params(b, err);
	if (rc == 0)
		rc = memory(b, err);
	if (rc == 0)
		rc = cal_bayes_design(b, err);
	if (rc == 0)
		rc = surrogate(b, err);
	if (rc == 0)
		rc = sample(b, b->s->bayes.samples, 1, err);
	if (rc == 0)
		rc = find_map(b, err);
	return rc;
}

int cal_bayes_run(cal_spec *s, const cal_options *o, FILE *msg, volatile int *stop)
{
	cal_runner r;
	char *err = NULL;
	double t0 = now();
	if (cal_runner_init(&r, s, o->self, NULL, &err) < 0) {
		fprintf(msg, "ncsim calibrate: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	cal_runner_options(&r, o, s->network);
	cal_bayes b = {.s = s, .o = o, .r = &r, .stop = stop, .msg = msg};
	int lead = cal_par_rank() == 0;
	if (cal_par_any(lead && drv_outdir_begin(&b.dir, o->out, o->force, "calibrate", &err) < 0)) {
		if (lead)
			fprintf(msg, "ncsim calibrate: %s\n", err ? err : "another rank could not prepare the output folder");
		free(err);
		cal_runner_free(&r);
		return EXIT_USAGE;
	}
	b.began = lead;
	int rc = steps(&b, &err), status = EXIT_OK;
	b.wall = now() - t0;
	if (rc == 1)
		status = EXIT_INTERRUPTED;
	else if (rc < 0)
		status = EXIT_INPUT;
	else if (cal_par_rank() == 0 && cal_bayes_report(&b, &err) < 0)
		status = EXIT_USAGE;
	if (err && cal_par_rank() == 0)
		fprintf(msg, "ncsim calibrate: %s\n", err);
	free(err);
	if (b.began)
		drv_outdir_free(&b.dir);
	bayes_free(&b);
	cal_runner_free(&r);
	return status;
}

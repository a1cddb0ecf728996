/*
 * mcmc.c - the affine-invariant ensemble sampler (Goodman and Weare's
 * stretch move) behind cal_mcmc_run.
 *
 * One iteration moves every walker of every chain once. An ensemble is cut
 * into the halves [0, W/2) and [W/2, W); the first half moves along lines
 * through walkers of the second, then the second through the (already
 * moved) first. A walker never pairs with a member of its own half, so the
 * half it draws from is fixed while it moves and the move keeps the joint
 * density of the ensemble invariant.
 *
 * Seeding: chain c draws from its own GSL mt19937 stream, seeded with the
 * low 32 bits (all mt19937 takes) of sim_rng_mix(seed ^ sim_rng_mix(c + 1)).
 * Each proposal takes three draws in a fixed order (the partner, the stretch,
 * the acceptance) whatever the density says, so a chain's samples depend on
 * the seed, its index and its starting points only: not on the number of
 * chains, nor on when the run was stopped.
 *
 * All memory is taken before the first iteration; the loop only reads and
 * writes it.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"
#include "calib/mcmc.h"
#include "runtime/kernel/rng.h"

/* One ensemble: its generator, its walkers' positions (walkers * dim) and log densities. */
typedef struct ensemble {
	gsl_rng *rng;
	double *pos, *lp;
} ensemble;

/* What every move needs: the configuration, the density and one proposal buffer. */
typedef struct mover {
	const cal_mcmc_cfg *cfg;
	cal_logp_fn logp;
	void *ctx;
	double *y;
	size_t evals, accepted;
} mover;

/* a * b, or 0 (never a valid product here since both are >= 1) when it overflows. */
static size_t mul_or_zero(size_t a, size_t b)
{
	return b && a > SIZE_MAX / b ? 0 : a * b;
}

/* The first setting of cfg the sampler cannot run with (heap message), or NULL. */
static char *mcmc_check(const cal_mcmc_cfg *c)
{
	if (c->dim < 1)
		return xasprintf("mcmc: no parameter to sample (dim is 0)");
	if (c->chains < 1)
		return xasprintf("mcmc: at least 1 chain is needed");
	if (c->walkers % 2)
		return xasprintf("mcmc: the number of walkers must be even (the two halves of an ensemble move in turn), not %zu",
		                 c->walkers);
	if (c->walkers < 2 * c->dim + 2)
		return xasprintf("mcmc: %zu walkers are too few for %zu parameters (at least 2 * dim + 2 = %zu)", c->walkers,
		                 c->dim, 2 * c->dim + 2);
	if (c->thin < 1)
		return xasprintf("mcmc: thin must be at least 1");
	if (c->steps < 1)
		return xasprintf("mcmc: at least 1 step after the burn-in is needed");
	if (c->steps < c->thin)
		return xasprintf("mcmc: %zu steps keep no sample with thin %zu (steps must be at least thin)", c->steps,
		                 c->thin);
	if (!(c->a > 1) || isinf(c->a)) /* also refuses NaN */
		return xasprintf("mcmc: the stretch scale a must be a number greater than 1, not %g", c->a);
	if (!(c->de >= 0 && c->de <= 1))
		return xasprintf("mcmc: the share of differential-evolution moves must lie in [0, 1], not %g", c->de);
	size_t nseq = mul_or_zero(c->chains, c->walkers);
	if (!nseq || !mul_or_zero(mul_or_zero(nseq, c->steps / c->thin), c->dim) || c->burn > SIZE_MAX - c->steps)
		return xasprintf("mcmc: %zu chains of %zu walkers keeping %zu samples each are too many", c->chains,
		                 c->walkers, c->steps / c->thin);
	return NULL;
}

/* The seed of chain c's mt19937 stream (see the top of this file). */
static unsigned long chain_seed(uint64_t seed, size_t c)
{
	return (unsigned long)(sim_rng_mix(seed ^ sim_rng_mix((uint64_t)c + 1)) & 0xffffffffu);
}

/* Copies the starting points into the ensembles and evaluates them; -1 with *err if one is outside the support. */
static int mcmc_start(mover *m, ensemble *ens, const double *init, char **err)
{
	const cal_mcmc_cfg *c = m->cfg;
	for (size_t ch = 0; ch < c->chains; ch++)
		for (size_t w = 0; w < c->walkers; w++) {
			size_t s = ch * c->walkers + w;
			double *p = ens[ch].pos + w * c->dim;
			memcpy(p, init + s * c->dim, c->dim * sizeof *p);
			double lp = m->logp(p, m->ctx);
			m->evals++;
			if (!isfinite(lp)) {
				*err = xasprintf("mcmc: the starting point of sequence %zu (chain %zu, walker %zu) has log "
				                 "density %g: it must be inside the support",
				                 s, ch, w, lp);
				return -1;
			}
			ens[ch].lp[w] = lp;
		}
	return 0;
}

/*
 * The differential-evolution move (ter Braak 2006) for walker k of [lo, lo +
 * h): y = x_k + g (x_j1 - x_j2) with j1 != j2 two walkers of the other
 * half, g = 2.38 / sqrt(2 dim) (1 one time in ten, which lets a walker jump
 * between modes), plus a tiny Gaussian step that keeps the chain
 * irreducible. The move is symmetric: accepted with min(1, p(y) / p(x_k)).
 * In flat or curved directions it mixes faster than the stretch move alone.
 */
static void de_move(mover *m, ensemble *e, size_t k, size_t other, size_t h)
{
	size_t dim = m->cfg->dim;
	size_t j1 = other + gsl_rng_uniform_int(e->rng, h), j2 = other + gsl_rng_uniform_int(e->rng, h - 1);
	j2 += j2 >= j1;
	double g = gsl_rng_uniform(e->rng) < 0.1 ? 1 : 2.38 / sqrt(2.0 * (double)dim);
	const double *x1 = e->pos + j1 * dim, *x2 = e->pos + j2 * dim;
	double *xk = e->pos + k * dim;
	for (size_t d = 0; d < dim; d++)
		m->y[d] = xk[d] + g * (x1[d] - x2[d]) + 1e-6 * gsl_ran_gaussian_ziggurat(e->rng, 1) * fabs(x1[d] - x2[d]);
	double lpy = m->logp(m->y, m->ctx);
	m->evals++;
	if (log(gsl_rng_uniform_pos(e->rng)) < lpy - e->lp[k]) {
		memcpy(xk, m->y, dim * sizeof *xk);
		e->lp[k] = lpy;
		m->accepted++;
	}
}

/*
 * Moves walkers [lo, lo + h) of e, each along the line through a walker of
 * [other, other + h): y = x_j + z (x_k - x_j) with z drawn from
 * g(z) ~ 1/sqrt(z) on [1/a, a] by its inverse CDF, accepted with probability
 * min(1, z^(dim-1) p(y) / p(x_k)) (the z^(dim-1) is the Jacobian that makes
 * the move reversible). A NaN density is a rejection.
 */
static void stretch_half(mover *m, ensemble *e, size_t lo, size_t other, size_t h)
{
	size_t dim = m->cfg->dim;
	double a = m->cfg->a;
	for (size_t k = lo; k < lo + h; k++) {
		if (m->cfg->de > 0 && h > 1 && gsl_rng_uniform(e->rng) < m->cfg->de) {
			de_move(m, e, k, other, h);
			continue;
		}
		const double *xj = e->pos + (other + gsl_rng_uniform_int(e->rng, h)) * dim;
		double *xk = e->pos + k * dim;
		double u = (a - 1) * gsl_rng_uniform(e->rng) + 1;
		double z = u * u / a;
		double v = gsl_rng_uniform_pos(e->rng);
		for (size_t d = 0; d < dim; d++)
			m->y[d] = xj[d] + z * (xk[d] - xj[d]);
		double lpy = m->logp(m->y, m->ctx);
		m->evals++;
		if (log(v) < (double)(dim - 1) * log(z) + lpy - e->lp[k]) {
			memcpy(xk, m->y, dim * sizeof *xk);
			e->lp[k] = lpy;
			m->accepted++;
		}
	}
}

/* Writes every walker's current state as sample k of its sequence (stride kept). */
static void mcmc_keep(const cal_mcmc_cfg *c, const ensemble *ens, cal_mcmc_out *out, size_t stride, size_t k)
{
	for (size_t ch = 0; ch < c->chains; ch++)
		for (size_t w = 0; w < c->walkers; w++) {
			size_t s = ch * c->walkers + w;
			memcpy(out->x + (s * stride + k) * c->dim, ens[ch].pos + w * c->dim, c->dim * sizeof *out->x);
			out->logp[s * stride + k] = ens[ch].lp[w];
		}
}

/*
 * After an early stop: moves the `kept` samples of every sequence from a
 * stride of `stride` to a stride of `kept`. Destinations never lie after
 * their sources and sequences go in increasing order, so nothing is
 * overwritten before it is moved.
 */
static void mcmc_compact(cal_mcmc_out *out, size_t stride)
{
	size_t dim = out->dim, kept = out->kept;
	for (size_t s = 1; s < out->nseq && kept < stride; s++) {
		memmove(out->x + s * kept * dim, out->x + s * stride * dim, kept * dim * sizeof *out->x);
		memmove(out->logp + s * kept, out->logp + s * stride, kept * sizeof *out->logp);
	}
}

/* The iterations: burn-in, then steps, keeping every thin-th; stops between iterations when *stop is set. */
static void mcmc_iterate(mover *m, ensemble *ens, cal_mcmc_out *out, volatile int *stop)
{
	const cal_mcmc_cfg *c = m->cfg;
	size_t h = c->walkers / 2, stride = c->steps / c->thin;
	for (size_t it = 0; it < c->burn + c->steps && !(stop && *stop); it++) {
		for (size_t ch = 0; ch < c->chains; ch++) {
			stretch_half(m, &ens[ch], 0, h, h);
			stretch_half(m, &ens[ch], h, 0, h);
		}
		if (it >= c->burn && (it - c->burn + 1) % c->thin == 0)
			mcmc_keep(c, ens, out, stride, out->kept++);
	}
}

int cal_mcmc_run(const cal_mcmc_cfg *cfg, cal_logp_fn logp, void *ctx, const double *init,
                 cal_mcmc_out *out, volatile int *stop, char **err)
{
	*out = (cal_mcmc_out){0};
	*err = cfg && logp && init ? mcmc_check(cfg) : xasprintf("mcmc: no configuration, density or starting points");
	if (*err)
		return -1;
	size_t nseq = cfg->chains * cfg->walkers, stride = cfg->steps / cfg->thin;
	ensemble *ens = xcalloc(cfg->chains, sizeof *ens);
	double *pos = xcalloc(nseq, cfg->dim * sizeof *pos), *lp = xcalloc(nseq, sizeof *lp);
	for (size_t ch = 0; ch < cfg->chains; ch++) {
		ens[ch] = (ensemble){gsl_rng_alloc(gsl_rng_mt19937), pos + ch * cfg->walkers * cfg->dim,
		                     lp + ch * cfg->walkers};
		if (!ens[ch].rng)
			abort(); /* GSL's allocation failed: as fatal as a failed xmalloc */
		gsl_rng_set(ens[ch].rng, chain_seed(cfg->seed, ch));
	}
	mover m = {.cfg = cfg, .logp = logp, .ctx = ctx, .y = xcalloc(cfg->dim, sizeof *m.y)};
	int rc = mcmc_start(&m, ens, init, err);
	if (rc == 0) {
		*out = (cal_mcmc_out){.x = xcalloc(nseq * stride, cfg->dim * sizeof *out->x),
		                      .logp = xcalloc(nseq * stride, sizeof *out->logp),
		                      .dim = cfg->dim,
		                      .nseq = nseq};
		mcmc_iterate(&m, ens, out, stop);
		mcmc_compact(out, stride);
		size_t proposals = m.evals - nseq;
		out->accept = proposals ? (double)m.accepted / (double)proposals : 0;
		out->evals = m.evals;
	}
	for (size_t ch = 0; ch < cfg->chains; ch++)
		gsl_rng_free(ens[ch].rng);
	free(ens);
	free(pos);
	free(lp);
	free(m.y);
	return rc;
}

void cal_mcmc_free(cal_mcmc_out *out)
{
	if (!out)
		return;
	free(out->x);
	free(out->logp);
	*out = (cal_mcmc_out){0};
}

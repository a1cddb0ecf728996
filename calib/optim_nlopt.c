/*
 * optim_nlopt.c - NLopt's derivative-free algorithms behind cal_optimize.
 *
 * NLopt minimizes over [0,1]^dim and calls back one point at a time, so each
 * objective call is one eval call with k = 1. Three things NLopt does not do
 * for us:
 *
 *   - The budget is a hard limit: maxeval is each run's share, and the
 *     objective itself refuses (force-stop) past it, in case an algorithm
 *     evaluates a little beyond maxeval.
 *   - A failed evaluation (+inf) or NaN reaches NLopt as 1e300: the simplex
 *     and model-based algorithms compare and interpolate losses, and an
 *     infinity or NaN there ends or poisons the run.
 *   - Determinism: the stochastic algorithms (crs2, esch, isres) draw from
 *     NLopt's own generator, seeded with nlopt_srand(seed) before each run.
 *
 * Local algorithms run `starts` times: from the centre, then from uniform
 * points of stream (seed, 0). Each start's share is the remaining budget over
 * the remaining starts, rounded up, so a start that converges early (its
 * simplex or trust region below 1e-7 of the range) leaves its evaluations to
 * the next ones. Global algorithms run once from the centre with the whole
 * budget and no tolerance.
 */
#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <strings.h>

#include "base/util.h"
#include "calib/optim.h"
#include "runtime/kernel/rng.h"

/* The loss NLopt sees instead of +inf or NaN: finite, and above any real loss. */
#define NL_BIG 1e300
/* The initial step of local algorithms, as a share of the range. */
#define NL_STEP 0.25
/* A local start has converged when its steps are below this (absolute, in [0,1]). */
#define NL_XTOL 1e-7

static const struct nl_alg {
	const char *name;
	nlopt_algorithm alg;
	int local;            /* 1: multi-start with an initial step */
} nl_algs[] = {
	{"neldermead", NLOPT_LN_NELDERMEAD, 1},
	{"sbplx", NLOPT_LN_SBPLX, 1},
	{"bobyqa", NLOPT_LN_BOBYQA, 1},
	{"crs2", NLOPT_GN_CRS2_LM, 0},
	{"direct-l", NLOPT_GN_DIRECT_L, 0},
	{"esch", NLOPT_GN_ESCH, 0},
	{"isres", NLOPT_GN_ISRES, 0},
};

static const struct nl_alg *nl_find(const char *name)
{
	for (size_t i = 0; i < sizeof nl_algs / sizeof nl_algs[0]; i++)
		if (name && !strcasecmp(name, nl_algs[i].name))
			return &nl_algs[i];
	return NULL;
}

int cal_nlopt_known(const char *name)
{
	return nl_find(name) != NULL;
}

/* The state the objective sees through NLopt's data pointer. */
typedef struct nl_run {
	cal_eval_fn eval;
	void *ctx;
	nlopt_opt opt;
	size_t dim;
	size_t used;     /* evaluations so far, all starts */
	size_t limit;    /* the end of the current start's share */
	int stopped;     /* eval asked to stop */
	double *u;       /* the point, clamped into [0,1] */
} nl_run;

static double nl_objective(unsigned n, const double *x, double *grad, void *data)
{
	nl_run *s = data;
	(void)grad; /* derivative-free algorithms only */
	if (s->stopped || s->used >= s->limit) {
		nlopt_force_stop(s->opt);
		return NL_BIG;
	}
	for (unsigned d = 0; d < n; d++) /* NLopt keeps to the bounds; rounding must not leave them */
		s->u[d] = x[d] < 0 ? 0 : x[d] > 1 ? 1 : x[d];
	double loss = NL_BIG;
	s->used++;
	if (s->eval(s->ctx, s->u, 1, &loss) != 0) {
		s->stopped = 1;
		nlopt_force_stop(s->opt);
		return NL_BIG;
	}
	if (!(loss < NL_BIG)) /* +inf and NaN */
		return NL_BIG;
	return loss > -NL_BIG ? loss : -NL_BIG;
}

/*
 * One NLopt run from x0 with `share` evaluations. 0 when it ended (budget,
 * convergence, or an algorithm's own failure, which ends only this start),
 * -1 with *err when NLopt refuses the setting.
 */
static int nl_once(nl_run *s, const struct nl_alg *a, uint64_t seed, size_t share, double *x0, char **err)
{
	nlopt_opt opt = nlopt_create(a->alg, (unsigned)s->dim);
	if (!opt) {
		*err = xasprintf("optimizer %s: NLopt cannot create it for %zu parameters", a->name, s->dim);
		return -1;
	}
	s->opt = opt;
	s->limit = s->used + share;
	nlopt_set_lower_bounds1(opt, 0.0);
	nlopt_set_upper_bounds1(opt, 1.0);
	nlopt_set_min_objective(opt, nl_objective, s);
	nlopt_set_maxeval(opt, share > INT32_MAX ? INT32_MAX : (int)share);
	if (a->local) {
		nlopt_set_initial_step1(opt, NL_STEP);
		nlopt_set_xtol_abs1(opt, NL_XTOL);
	}
	nlopt_srand((unsigned long)seed);
	double best;
	nlopt_result r = nlopt_optimize(opt, x0, &best);
	nlopt_destroy(opt);
	s->opt = NULL;
	if (r == NLOPT_INVALID_ARGS || r == NLOPT_OUT_OF_MEMORY) {
		*err = xasprintf("optimizer %s: NLopt refused the run (%s) with %zu parameters and %zu evaluations",
		                 a->name, r == NLOPT_INVALID_ARGS ? "invalid arguments" : "out of memory", s->dim,
		                 share);
		return -1;
	}
	return 0;
}

int cal_nlopt_run(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx, char **err)
{
	const struct nl_alg *a = nl_find(c->name);
	if (!a || dim > INT32_MAX) {
		*err = xasprintf("optimizer %s: not an NLopt algorithm for %zu parameters", c->name, dim);
		return -1;
	}
	nl_run s = {.eval = eval, .ctx = ctx, .dim = dim, .u = xcalloc(dim, sizeof(double))};
	double *x0 = xcalloc(dim, sizeof *x0);
	sim_rng r;
	sim_rng_seed(&r, c->seed, 0);
	size_t starts = a->local ? c->starts : 1;
	int rc = 0;
	for (size_t i = 0; i < starts && s.used < c->budget && !rc && !s.stopped; i++) {
		size_t left = c->budget - s.used, share = left / (starts - i) + (left % (starts - i) != 0);
		for (size_t d = 0; d < dim; d++)
			x0[d] = i > 0 ? sim_rng_next_unif(&r) : c->start ? c->start[d] : 0.5;
		rc = nl_once(&s, a, c->seed, share, x0, err);
	}
	free(x0);
	free(s.u);
	return rc ? rc : s.stopped;
}

/*
 * optim.c - the optimizer settings, their names, the dispatch of cal_optimize,
 * and the two optimizers that ignore the losses: random and grid.
 *
 * Random points come from the kernel's xoshiro256** stream (seed, 0), drawn
 * coordinate by coordinate, point by point. The batch only decides how the
 * stream is cut into eval calls, so random gives the same sequence of points
 * for every batch size, and TPE's start-up points are random's first points
 * (calib/tpe.c draws them from the same stream).
 */
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "base/util.h"
#include "calib/optim.h"
#include "runtime/kernel/rng.h"

/* Every name, in the order of cal_optim_names; the NLopt ones are also in calib/optim_nlopt.c
 * (the unit test checks that the two lists agree). */
static const char optim_names[] = "random, grid, tpe, tpe-univariate, neldermead, sbplx, bobyqa, crs2, direct-l, esch, isres";

void cal_optcfg_default(cal_optcfg *c)
{
	*c = (cal_optcfg){
		.name = "tpe",
		.seed = 1,
		.budget = 200,
		.batch = 8,
		.starts = 1,
		.gamma = 0.1,
		.gamma_cap = 25,
		.startup = 10,
		.candidates = 24,
	};
}

int cal_optim_known(const char *name)
{
	if (!name)
		return 0;
	return !strcasecmp(name, "random") || !strcasecmp(name, "grid") || !strcasecmp(name, "tpe") ||
	       !strcasecmp(name, "tpe-univariate") ||
	       cal_nlopt_known(name);
}

const char *cal_optim_names(void)
{
	return optim_names;
}

/* The first setting of c that no optimizer can run with (heap message), or NULL. */
static char *optim_check(const cal_optcfg *c, size_t dim)
{
	if (!cal_optim_known(c->name))
		return xasprintf("unknown optimizer '%s' (known: %s)", c->name ? c->name : "", optim_names);
	if (dim < 1)
		return xasprintf("optimizer %s: no parameter to calibrate", c->name);
	if (c->budget < 1)
		return xasprintf("optimizer %s: the budget must be at least 1 evaluation", c->name);
	if (c->batch < 1)
		return xasprintf("optimizer %s: the batch must be at least 1 point", c->name);
	if (c->starts < 1)
		return xasprintf("optimizer %s: at least 1 starting point is needed", c->name);
	if (!(c->gamma > 0 && c->gamma <= 1)) /* also refuses NaN */
		return xasprintf("optimizer %s: gamma must be in (0, 1], not %g", c->name, c->gamma);
	if (c->candidates < 1)
		return xasprintf("optimizer %s: at least 1 candidate per point is needed", c->name);
	return NULL;
}

/* ------------------------------------------------------------ random */

static int run_random(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx)
{
	sim_rng r;
	sim_rng_seed(&r, c->seed, 0);
	double *u = xcalloc(c->batch, dim * sizeof *u);
	double *loss = xcalloc(c->batch, sizeof *loss);
	int rc = 0;
	for (size_t done = 0; done < c->budget && !rc;) {
		size_t k = c->budget - done < c->batch ? c->budget - done : c->batch;
		for (size_t i = 0; i < k * dim; i++)
			u[i] = sim_rng_next_unif(&r);
		if (eval(ctx, u, k, loss) != 0)
			rc = 1;
		done += k;
	}
	free(u);
	free(loss);
	return rc;
}

/* ------------------------------------------------------------ grid */

/* k^dim, or budget + 1 when that is more than budget. */
static size_t grid_pow(size_t k, size_t dim, size_t budget)
{
	size_t p = 1;
	for (size_t d = 0; d < dim && p <= budget; d++)
		p = k && p > budget / k ? budget + 1 : p * k;
	return p;
}

/* The levels per coordinate: the largest k with k^dim <= budget, from pow's
 * estimate corrected by exact integer powers (pow may round either way). */
static size_t grid_levels(size_t budget, size_t dim, size_t *points)
{
	double e = floor(pow((double)budget, 1.0 / (double)dim));
	size_t k = e >= (double)budget ? budget : e < 1 ? 1 : (size_t)e;
	while (k > 1 && grid_pow(k, dim, budget) > budget)
		k--;
	while (k < budget && grid_pow(k + 1, dim, budget) <= budget)
		k++;
	*points = grid_pow(k, dim, budget);
	return k;
}

/*
 * Point i of the grid: its digits in base k, the first coordinate the most
 * significant (lexicographic order), each digit j at the cell centre (j + 1/2) / k.
 */
static void grid_point(size_t i, size_t k, size_t dim, double *u)
{
	for (size_t d = dim; d-- > 0;) {
		u[d] = ((double)(i % k) + 0.5) / (double)k;
		i /= k;
	}
}

static int run_grid(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx)
{
	size_t points;
	size_t k = grid_levels(c->budget, dim, &points);
	double *u = xcalloc(c->batch, dim * sizeof *u);
	double *loss = xcalloc(c->batch, sizeof *loss);
	int rc = 0;
	for (size_t done = 0; done < points && !rc;) {
		size_t n = points - done < c->batch ? points - done : c->batch;
		for (size_t j = 0; j < n; j++)
			grid_point(done + j, k, dim, u + j * dim);
		if (eval(ctx, u, n, loss) != 0)
			rc = 1;
		done += n;
	}
	free(u);
	free(loss);
	return rc;
}

/* ------------------------------------------------------------ dispatch */

int cal_optimize(const cal_optcfg *c, size_t dim, cal_eval_fn eval, void *ctx, char **err)
{
	char *msg = optim_check(c, dim);
	if (msg) {
		*err = msg;
		return -1;
	}
	if (!strcasecmp(c->name, "random"))
		return run_random(c, dim, eval, ctx);
	if (!strcasecmp(c->name, "grid"))
		return run_grid(c, dim, eval, ctx);
	if (!strcasecmp(c->name, "tpe") || !strcasecmp(c->name, "tpe-univariate"))
		return cal_tpe_run(c, dim, eval, ctx);
	return cal_nlopt_run(c, dim, eval, ctx, err);
}

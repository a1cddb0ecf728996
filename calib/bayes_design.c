/*
 * bayes_design.c - the simulator runs of a Bayesian calibration (see
 * bayes.h): the global design over the prior ranges, and the local one
 * over the posterior region that the global surrogate finds.
 *
 * Both are Latin hypercubes with held-out runs. A reused design.csv gives
 * the global runs as they are; its local runs are candidates: those inside
 * the new region count, and new runs fill up the rest of the local design.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "calib/bayes.h"
#include "calib/bayes_io.h"
#include "calib/design.h"
#include "calib/par.h"

/* Random hypercubes tried for the maximin design. */
#define DESIGN_LHS_TRIES 20

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The figures of the outputs from one evaluation into y; -1 with *err if the run failed. */
static int figures(const cal_bayes *b, const cal_eval *ev, double *y, char **err)
{
	if (ev->error) {
		*err = xstrdup(ev->error);
		return -1;
	}
	for (size_t o = 0; o < b->nout; o++)
		y[o] = ev->sim[b->out[o].bench][b->out[o].point];
	return 0;
}

static void progress(const cal_bayes *b, const char *what, size_t done, size_t k, double t0)
{
	if (!b->o->progress || cal_par_rank() != 0 || k < 2)
		return;
	double el = now() - t0;
	fprintf(b->msg, "\rcalibrate --bayes: %s runs %zu/%zu, %.1f/s, ETA %.0f s   ", what, done, k,
	        el > 0 ? (double)done / el : 0, el > 0 ? (double)(k - done) * el / (double)done : 0);
	if (done == k)
		fprintf(b->msg, "\n");
	fflush(b->msg);
}

int cal_bayes_simulate(cal_bayes *b, const double *u, size_t k, double *y, const char *what, char **err)
{
	size_t np = b->s->nparams, chunk = 4 * (b->r->jobs ? b->r->jobs : 1);
	double *v = xmalloc((chunk * np + 1) * sizeof *v), t0 = now();
	cal_eval *ev = xcalloc(chunk, sizeof *ev);
	int rc = 0;
	for (size_t at = 0; at < k && rc == 0; at += chunk) {
		size_t n = k - at < chunk ? k - at : chunk;
		for (size_t j = 0; j < n; j++)
			cal_bayes_values(b, u + (at + j) * b->dim, v + j * np);
		if (cal_run_batch(b->r, v, n, 1, ev, b->stop) < 0)
			rc = 1;
		for (size_t j = 0; j < n; j++) {
			if (rc == 0 && figures(b, &ev[j], y + (at + j) * b->nout, err) < 0) {
				char *m = xasprintf("a %s run failed (the prior ranges hold a system that cannot run): %s", what, *err);
				free(*err);
				*err = m;
				rc = -1;
			}
			cal_eval_free(b->s, &ev[j]);
		}
		b->runs += n;
		progress(b, what, at + n, k, t0);
	}
	free(v);
	free(ev);
	return rc;
}

/* Training runs: [bayes] design, or twice the terms of degree 4 within [60, 600]. */
static size_t train_size(const cal_bayes *b)
{
	size_t n = b->s->bayes.design;
	if (!n) {
		size_t t = cal_pce_nterms(b->dim, 4);
		n = t > 300 ? 600 : 2 * t < 60 ? 60 : 2 * t;
	}
	return n;
}

void cal_design_free(cal_design *d)
{
	free(d->u_train);
	free(d->y_train);
	free(d->u_test);
	free(d->y_test);
	memset(d, 0, sizeof *d);
}

/* Room for ntrain + ntest runs. */
static void alloc_design(const cal_bayes *b, cal_design *d, size_t ntrain, size_t ntest)
{
	d->ntrain = ntrain;
	d->ntest = ntest;
	d->u_train = xmalloc((ntrain * b->dim + 1) * sizeof *d->u_train);
	d->u_test = xmalloc((ntest * b->dim + 1) * sizeof *d->u_test);
	d->y_train = xmalloc((ntrain * b->nout + 1) * sizeof *d->y_train);
	d->y_test = xmalloc((ntest * b->nout + 1) * sizeof *d->y_test);
}

/*
 * Moves the n points u onto the coordinates of the values the runs will
 * receive (times in whole ps, the digits of the system file): the surrogate
 * is fitted where the simulator really was, and design.csv, which holds
 * those values, reads back to the same coordinates.
 */
static void snap(const cal_bayes *b, size_t n, double *u)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < b->dim; j++) {
			const cal_param *p = &b->s->params[b->idx[j]];
			u[i * b->dim + j] = cal_param_coord(p, cal_param_simulated(p, u[i * b->dim + j]));
		}
}

/* n points of a hypercube in the box [lo, hi] (NULL: the unit box) into u. */
static void lhs_in(const cal_bayes *b, size_t n, uint64_t seed, const double *lo, const double *hi, double *u)
{
	cal_lhs(n, b->dim, seed, DESIGN_LHS_TRIES, u);
	for (size_t i = 0; lo && i < n; i++)
		for (size_t j = 0; j < b->dim; j++)
			u[i * b->dim + j] = lo[j] + u[i * b->dim + j] * (hi[j] - lo[j]);
	snap(b, n, u);
}

int cal_bayes_design(cal_bayes *b, char **err)
{
	if (b->s->bayes.design_file) {
		b->reused = 1;
		if (cal_bayes_read_design(b, b->s->bayes.design_file, err) < 0)
			return -1;
		if (b->global.ntrain)
			return 0;
		cal_design_free(&b->global);
	}
	size_t n = train_size(b);
	alloc_design(b, &b->global, n, (size_t)ceil(b->s->bayes.holdout * (double)n));
	lhs_in(b, b->global.ntrain, b->s->opt.seed, NULL, NULL, b->global.u_train);
	lhs_in(b, b->global.ntest, b->s->opt.seed + 1, NULL, NULL, b->global.u_test);
	int rc = cal_bayes_simulate(b, b->global.u_train, b->global.ntrain, b->global.y_train, "design", err);
	if (rc == 0)
		rc = cal_bayes_simulate(b, b->global.u_test, b->global.ntest, b->global.y_test, "held-out", err);
	return rc;
}

/* Moves the pool's runs of one set that lie inside the box into (u, y), at most max; how many. */
static size_t from_pool(const cal_bayes *b, const double *pu, const double *py, size_t pn, size_t max, double *u,
                        double *y)
{
	size_t k = 0;
	for (size_t i = 0; i < pn && k < max; i++) {
		const double *x = pu + i * b->dim;
		size_t j = 0;
		while (j < b->dim && x[j] >= b->box_lo[j] && x[j] <= b->box_hi[j])
			j++;
		if (j < b->dim)
			continue;
		memcpy(u + k * b->dim, x, b->dim * sizeof *u);
		memcpy(y + k * b->nout, py + i * b->nout, b->nout * sizeof *y);
		k++;
	}
	return k;
}

/*
 * n points drawn from the pilot's samples (b->chain), evenly spaced over
 * them from offset `phase` (0 or 1: training and held-out runs interleave):
 * the runs fall where the posterior has its mass, so the surrogate is
 * accurate there even when the figures have a kink elsewhere in the region
 * (a posterior often lies right beside one: the data say which side of a
 * bottleneck the machine is on). Spreading the points around the samples
 * crosses such kinks and costs more accuracy than it buys; a posterior
 * along a narrow ridge, which leaves the polynomial free across it, shows
 * in the held-out error, and the global surrogate is used instead.
 */
static void from_pilot(const cal_bayes *b, size_t n, int phase, double *u)
{
	const cal_mcmc_out *c = &b->chain;
	size_t total = c->nseq * c->kept;
	for (size_t i = 0; i < n; i++) {
		size_t k = ((2 * i + (size_t)phase) * total) / (2 * n);
		memcpy(u + i * b->dim, c->x + k * c->dim, b->dim * sizeof *u);
	}
	snap(b, n, u);
}

/* One set of the local design: reused runs first, then new ones drawn from the pilot's samples. */
static int fill(cal_bayes *b, const double *pu, const double *py, size_t pn, size_t n, double *u, double *y,
                uint64_t seed, const char *what, char **err)
{
	size_t k = from_pool(b, pu, py, pn, n, u, y);
	if (k == n)
		return 0;
	if (b->chain.kept)
		from_pilot(b, n - k, (int)(seed & 1), u + k * b->dim);
	else
		lhs_in(b, n - k, seed, b->box_lo, b->box_hi, u + k * b->dim);
	return cal_bayes_simulate(b, u + k * b->dim, n - k, y + k * b->nout, what, err);
}

int cal_bayes_local_design(cal_bayes *b, char **err)
{
	size_t n = train_size(b);
	alloc_design(b, &b->local, n, (size_t)ceil(b->s->bayes.holdout * (double)n));
	const cal_design *p = &b->pool;
	uint64_t seed = b->s->opt.seed + 10;
	int rc = fill(b, p->u_train, p->y_train, p->ntrain, b->local.ntrain, b->local.u_train, b->local.y_train, seed,
	              "local design", err);
	if (rc == 0)
		rc = fill(b, p->u_test, p->y_test, p->ntest, b->local.ntest, b->local.u_test, b->local.y_test, seed + 1,
		          "local held-out", err);
	return rc;
}

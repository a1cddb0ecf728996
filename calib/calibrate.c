/*
 * calibrate.c - the search of `ncsim calibrate` (see calibrate.h): one fit
 * per network level, each a check run, one optimization per stage (all
 * parameters jointly, or one message regime at a time), a profile of every
 * free parameter around the best point, and a final run of the best set on
 * every benchmark.
 */
#include "calib/calibrate.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "calib/bayes.h"
#include "calib/par.h"
#include "calib/report.h"

/* Half-width, in unit coordinates, of the profile around the best point. */
#define CAL_PROFILE_STEP 0.2
/* A parameter whose profile moves the loss by less than this share of the best loss is flat. */
#define CAL_FLAT_SHARE 0.01

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The state of one level's fit. */
typedef struct fit {
	cal_spec *s;
	const cal_options *o;
	cal_runner *r;
	cal_history *hist;
	int level;             /* index into the levels (0 without levels) */
	int stage;             /* the regime being fitted, or -1 */
	size_t *idx, dim;      /* the free parameters of the stage */
	double *cur;           /* the best values so far (every parameter) */
	double cur_loss;       /* their loss on the stage's points */
	size_t done, planned;  /* search evaluations, for the progress line */
	size_t sets;           /* parameter sets run (search, checks, profile) */
	int noted;             /* a failed set was reported */
	int quiet;             /* over MPI, every rank but 0: it prints nothing */
	double t0;
	FILE *msg;
} fit;

/* The progress line: evaluations, rate, best loss, time left. */
static void progress(fit *f)
{
	if (!f->o->progress || f->quiet)
		return;
	double el = now() - f->t0, rate = el > 0 ? f->done / el : 0;
	double eta = rate > 0 && f->planned > f->done ? (f->planned - f->done) / rate : 0;
	fprintf(f->msg, "\rcalibrate%s%s: %zu/%zu evaluations, %.1f/s, best %.4g, ETA %.0f s   ",
	        f->r->network ? " " : "", f->r->network ? f->r->network : "", f->done, f->planned, rate, f->cur_loss,
	        eta);
	fflush(f->msg);
}

/* Runs k parameter sets; their losses on the stage's points into loss[], each recorded. */
static int run_sets(fit *f, const double *values, size_t k, const char *phase, int which, double *loss,
                    cal_eval *keep)
{
	cal_eval *ev = xcalloc(k, sizeof *ev);
	int rc = cal_run_batch(f->r, values, k, which, ev, &stop_flag);
	f->sets += k;
	for (size_t j = 0; j < k; j++) {
		loss[j] = rc < 0 ? INFINITY : cal_eval_loss(f->s, &ev[j], f->stage, 0);
		if (rc == 0)
			cal_history_add(f->hist, phase, f->level, f->stage, loss[j], ev[j].wall, values + j * f->s->nparams,
			                f->s->nparams);
		if (rc == 0 && ev[j].error && !strcmp(phase, "search") && !f->noted && !f->quiet) {
			/* Once: a failed point costs +inf and the search goes on, but the user should know why. */
			fprintf(f->msg, "%sncsim calibrate: note: a parameter set failed: %s\n", f->o->progress ? "\n" : "",
			        ev[j].error);
			f->noted = 1;
		}
		if (keep && j == 0)
			*keep = ev[j];
		else
			cal_eval_free(f->s, &ev[j]);
	}
	free(ev);
	return rc;
}

/* The optimizer's callback: unit points of the stage's parameters to losses. */
static int search_eval(void *ctx, const double *u, size_t k, double *loss)
{
	fit *f = ctx;
	size_t np = f->s->nparams;
	double *values = xcalloc(k * np + 1, sizeof *values);
	for (size_t j = 0; j < k; j++) {
		memcpy(values + j * np, f->cur, np * sizeof *values);
		for (size_t d = 0; d < f->dim; d++)
			values[j * np + f->idx[d]] = cal_param_at(&f->s->params[f->idx[d]], u[j * f->dim + d]);
	}
	int rc = run_sets(f, values, k, "search", 1, loss, NULL);
	for (size_t j = 0; rc == 0 && j < k; j++)
		if (loss[j] < f->cur_loss) {
			f->cur_loss = loss[j];
			memcpy(f->cur, values + j * np, np * sizeof *values);
		}
	f->done += k;
	progress(f);
	free(values);
	/* The batch's verdict, not stop_flag: over MPI the ranks agree on it, a signal since then counts at the next batch. */
	return rc < 0 ? -1 : 0;
}

/* One stage: the optimizer over the stage's free parameters, starting from f->cur. 0, 1 stopped, -1 error. */
static int stage(fit *f, int regime, size_t budget, char **err)
{
	f->stage = regime;
	f->dim = cal_spec_free_params(f->s, f->r->network, regime, f->s->sequential, f->idx);
	if (f->dim == 0)
		return 0;
	if (run_sets(f, f->cur, 1, "check", 1, &f->cur_loss, NULL) < 0)
		return 1;
	cal_optcfg c = f->s->opt;
	size_t polish = f->s->refine ? (size_t)((double)budget * f->s->refine_share) : 0;
	c.budget = polish < budget ? budget - polish : 1;
	int rc = cal_optimize(&c, f->dim, search_eval, f, err);
	if (rc != 0 || polish == 0)
		return rc;
	/* The local refinement: from the best point so far, with the rest of the budget. */
	double *u = xcalloc(f->dim + 1, sizeof *u);
	for (size_t d = 0; d < f->dim; d++)
		u[d] = cal_param_coord(&f->s->params[f->idx[d]], f->cur[f->idx[d]]);
	cal_optcfg r = f->s->opt;
	r.name = f->s->refine;
	r.budget = polish;
	r.starts = 1;
	r.start = u;
	rc = cal_optimize(&r, f->dim, search_eval, f, err);
	free(u);
	return rc;
}

/* The profile of every free parameter: the loss at its best coordinate -/+ CAL_PROFILE_STEP. */
static int profile(fit *f, cal_level *L)
{
	size_t np = f->s->nparams, n = cal_spec_free_params(f->s, f->r->network, -1, 1, f->idx);
	double *values = xcalloc(2 * n * np + 1, sizeof *values), *loss = xcalloc(2 * n + 1, sizeof *loss);
	for (size_t d = 0; d < n; d++) {
		const cal_param *p = &f->s->params[f->idx[d]];
		double u = cal_param_coord(p, f->cur[f->idx[d]]);
		for (int side = 0; side < 2; side++) {
			double *v = values + (2 * d + side) * np;
			memcpy(v, f->cur, np * sizeof *v);
			v[f->idx[d]] = cal_param_at(p, side ? fmin(1, u + CAL_PROFILE_STEP) : fmax(0, u - CAL_PROFILE_STEP));
		}
	}
	f->stage = -1;
	int rc = n ? run_sets(f, values, 2 * n, "profile", 1, loss, NULL) : 0;
	for (size_t d = 0; rc == 0 && d < n; d++) {
		double a = loss[2 * d], b = loss[2 * d + 1], m = fmax(fabs(a - L->loss), fabs(b - L->loss));
		L->profile[2 * f->idx[d]] = a;
		L->profile[2 * f->idx[d] + 1] = b;
		L->flat[f->idx[d]] = m <= CAL_FLAT_SHARE * fmax(fabs(L->loss), 1e-300);
	}
	free(values);
	free(loss);
	return rc;
}

/* The starting values: fixed values, and the centre of every range. */
static void centre(const cal_spec *s, double *v)
{
	for (size_t p = 0; p < s->nparams; p++)
		v[p] = cal_param_at(&s->params[p], 0.5);
}

/* The stages' budgets: the whole budget jointly, or an equal share per regime. */
static int search(fit *f, char **err)
{
	const cal_spec *s = f->s;
	if (!s->sequential || s->nregimes == 0)
		return stage(f, -1, s->opt.budget, err);
	for (size_t r = 0; r < s->nregimes; r++) {
		size_t share = s->opt.budget / s->nregimes + (r < s->opt.budget % s->nregimes);
		int rc = stage(f, (int)r, share ? share : 1, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Checks that every benchmark runs and yields every measured point, at the centre of the ranges. */
static int check_runs(fit *f, char **err)
{
	cal_eval ev;
	double loss;
	f->stage = -1;
	if (run_sets(f, f->cur, 1, "check", 2, &loss, &ev) < 0)
		return 1;
	const char *net = f->r->network;
	int rc = 0;
	if (ev.error) {
		*err = xasprintf("%s%s%s%s", net ? "level " : "", net ? net : "", net ? ": " : "", ev.error);
		rc = -1;
	}
	cal_eval_free(f->s, &ev);
	return rc;
}

/* The fit of one level into L. 0, 1 when interrupted, -1 with *err. */
static int fit_level(fit *f, cal_level *L, char **err)
{
	size_t np = f->s->nparams;
	f->cur = xcalloc(np + 1, sizeof *f->cur);
	f->idx = xcalloc(np + 1, sizeof *f->idx);
	L->best = f->cur;
	L->flat = xcalloc(np + 1, sizeof *L->flat);
	L->profile = xcalloc(2 * np + 1, sizeof *L->profile);
	centre(f->s, f->cur);
	f->cur_loss = INFINITY;
	double wall0 = f->r->run_wall, sim0 = f->r->sim_wall;
	uint64_t ev0 = f->r->events;
	int rc = check_runs(f, err);
	if (rc == 0)
		rc = search(f, err);
	L->evals = f->done;
	/* The cost of the level per parameter set (each the sum over its benchmarks). */
	double sets = f->sets ? (double)f->sets : 1;
	L->eval_wall = (f->r->run_wall - wall0) / sets;
	L->eval_sim = (f->r->sim_wall - sim0) / sets;
	L->eval_events = (double)(f->r->events - ev0) / sets;
	if (rc < 0)
		return -1;
	double loss;
	f->stage = -1;
	if (rc == 0 && run_sets(f, f->cur, 1, "final", 2, &loss, &L->final) < 0)
		rc = 1;
	/* Interrupted before the final runs: the best loss the search saw (on its stage's points). */
	L->loss = L->final.sim ? cal_eval_loss(f->s, &L->final, -1, 0) : f->cur_loss;
	L->predict_loss = cal_eval_loss(f->s, &L->final, -1, 1);
	if (rc == 0 && profile(f, L) < 0)
		rc = 1;
	return rc;
}

/*
 * The level a calibration recommends: of the levels within the target, the
 * one with the fewest events per evaluation (a cost that, unlike wall time,
 * does not depend on the machine's load, so the choice is reproducible).
 */
static size_t choose(const cal_spec *s, const cal_level *L, size_t n)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (L[i].loss < L[best].loss)
			best = i;
	double target = s->target > 0 ? s->target : 1.1 * L[best].loss;
	size_t pick = best;
	for (size_t i = 0; i < n; i++)
		if (L[i].loss <= target && L[i].eval_events < L[pick].eval_events)
			pick = i;
	return pick;
}

void cal_runner_options(cal_runner *r, const cal_options *o, const char *network)
{
	r->network = network;
	r->jobs = o->jobs ? o->jobs : 1;
	r->seed = o->seed;
	r->allow_backend_code = o->allow_backend_code;
	r->allow_host_access = o->allow_host_access;
	r->max_memory = o->max_memory;
}

static void install_signals(struct sigaction *old)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
}

static void restore_signals(const struct sigaction *old)
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
}

/* Fits every level of s (or the system's own model) into L. 0, 1 interrupted, -1 with *err. */
static int fit_all(cal_spec *s, const cal_options *o, cal_history *h, cal_level *L, size_t nl, FILE *msg,
                   char **err)
{
	int rc = 0;
	for (size_t i = 0; i < nl && rc == 0; i++) {
		cal_runner r;
		if (cal_runner_init(&r, s, o->self, NULL, err) < 0)
			return -1;
		cal_runner_options(&r, o, s->nlevels ? s->levels[i] : s->network);
		L[i].name = r.network;
		fit f = {.s = s, .o = o, .r = &r, .hist = h, .level = (int)i, .msg = msg, .t0 = now(),
		         .quiet = cal_par_rank() != 0};
		size_t profile_evals = 2 * s->nparams;
		f.planned = s->opt.budget + profile_evals;
		rc = fit_level(&f, &L[i], err);
		if (o->progress && !f.quiet)
			fprintf(msg, "\n");
		free(f.idx);
		cal_runner_free(&r);
	}
	return rc;
}

/* The Bayesian calibration (calib/bayes.h), under the same signal handling. */
static int bayes(cal_spec *s, const cal_options *o, FILE *msg)
{
	struct sigaction old[2];
	stop_flag = 0;
	install_signals(old);
	int status = cal_bayes_run(s, o, msg, &stop_flag);
	restore_signals(old);
	return status;
}

int cal_calibrate(cal_spec *s, const cal_options *o, FILE *msg)
{
	if (s->bayes.on)
		return bayes(s, o, msg);
	size_t nl = s->nlevels ? (size_t)s->nlevels : 1;
	cal_level *L = xcalloc(nl, sizeof *L);
	cal_history h = {0};
	char *err = NULL;
	cal_report rep = {.spec = s, .opt = o, .levels = L, .nlevels = nl, .hist = &h};
	int status = EXIT_OK;
	double t0 = now();
	struct sigaction old[2];
	stop_flag = 0;
	/* Over MPI, rank 0 alone writes the folder and prints; the others run the same search silently. */
	int lead = cal_par_rank() == 0;
	if (cal_par_any(lead && cal_report_begin(&rep, &err) < 0)) {
		status = EXIT_USAGE;
	} else {
		install_signals(old);
		int rc = fit_all(s, o, &h, L, nl, msg, &err);
		restore_signals(old);
		rep.chosen = rc == 0 ? choose(s, L, nl) : 0;
		rep.interrupted = rc == 1;
		rep.wall = now() - t0;
		if (rc < 0)
			status = EXIT_INPUT;
		else if (lead && cal_report_write(&rep, msg, &err) < 0)
			status = EXIT_USAGE;
		else if (rc == 1)
			status = EXIT_INTERRUPTED;
	}
	if (err && lead)
		fprintf(msg, "ncsim calibrate: %s\n", err);
	free(err);
	cal_report_end(&rep);
	for (size_t i = 0; i < nl; i++) {
		free(L[i].best);
		free(L[i].flat);
		free(L[i].profile);
		cal_eval_free(s, &L[i].final);
	}
	free(L);
	cal_history_free(&h);
	return status;
}

int cal_predict(cal_spec *s, const char *system, const cal_options *o, FILE *out, FILE *msg)
{
	if (system) {
		free(s->system);
		s->system = xstrdup(system);
	}
	for (size_t p = 0; p < s->nparams; p++) { /* the system runs as it is */
		free(s->params[p].section);
		free(s->params[p].key);
		free(s->params[p].level);
	}
	s->nparams = 0;
	cal_runner r;
	char *err = NULL;
	if (cal_runner_init(&r, s, o->self, NULL, &err) < 0) {
		fprintf(msg, "ncsim predict: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	cal_runner_options(&r, o, s->network);
	cal_eval ev;
	double none = 0;
	stop_flag = 0;
	int rc = cal_run_batch(&r, &none, 1, 2, &ev, &stop_flag), status = EXIT_OK;
	char ln[40];
	cal_loss_name(&s->loss, ln, sizeof ln);
	if (rc < 0 || ev.error) {
		fprintf(msg, "ncsim predict: %s\n", ev.error ? ev.error : "interrupted");
		status = rc < 0 ? EXIT_INTERRUPTED : EXIT_INPUT;
	} else {
		cal_print_points(s, &ev, out);
		double sum = 0, w = 0;
		for (size_t b = 0; b < s->nbench; b++) {
			double l = cal_bench_loss(s, &ev, b, -1);
			fprintf(out, "benchmark %s: %s %.6g\n", s->bench[b].name, ln, l);
			sum += s->bench[b].weight * l;
			w += s->bench[b].weight;
		}
		fprintf(out, "%s %.6g\n", ln, w > 0 ? sum / w : NAN);
	}
	cal_eval_free(s, &ev);
	cal_runner_free(&r);
	return status;
}

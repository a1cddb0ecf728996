/*
 * bayes_report.c - the folder of `ncsim calibrate --bayes` (doc/calibration.md):
 *
 *   posterior.csv     every kept sample: sequence, log posterior, delta, parameters
 *   summary.csv       per parameter: mean, sd, 5/50/95%, MAP, R-hat, ESS, constrained
 *   correlation.csv   the correlation matrix of the coordinates
 *   predictive.csv    per measured point: prior and posterior predictive bands
 *   sobol.csv         per measured point and parameter: first-order and total indices
 *   design.csv        the simulator runs behind the surrogate (--design reuses them)
 *   map.conf          the base system with the MAP values in place
 *   calibration.json  all of the above that fits, and the settings
 *
 * and a summary on stdout. Nothing appears until every file is complete.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "base/util.h"
#include "calib/bayes_io.h"
#include "calib/bayes_stats.h"
#include "runtime/stats/json.h"
#include "runtime/stats/outfile.h"

/* Posterior predictive bands from at most this many samples. */
#define REPORT_PRED_SAMPLES 4000
/* ... or, when every figure is a simulation, this many. */
#define REPORT_PRED_DIRECT 64

/* Everything the files and the summary show, computed once. */
typedef struct findings {
	cal_coord_sum *coord;   /* ndim */
	double *corr;           /* ndim x ndim */
	cal_band *band;         /* nout */
	double coverage;
	double *first, *total;  /* nout x dim, NULL without a surrogate */
	const char **regime;    /* nout */
	char *map_text;         /* the MAP system */
	size_t pred_samples;
} findings;

/* ------------------------------------------------------------ computing */

/* S samples evenly spaced over the kept ones: coordinates into u, figures into sim. 0, or -1 with *err. */
static int pred_samples(cal_bayes *b, size_t S, double *u, double *sim, char **err)
{
	const cal_mcmc_out *c = &b->chain;
	size_t n = c->nseq * c->kept, nd = b->ndim;
	for (size_t k = 0; k < S; k++)
		memcpy(u + k * nd, c->x + (k * n / S) * nd, nd * sizeof *u);
	if (!b->direct) {
		double *scr = xmalloc(cal_surrogate_scratch(b->sur) * sizeof *scr);
		for (size_t k = 0; k < S; k++)
			cal_surrogate_eval(b->sur, u + k * nd, sim + k * b->nout, scr);
		free(scr);
		return 0;
	}
	size_t np = b->s->nparams;
	double *v = xmalloc((S * np + 1) * sizeof *v);
	cal_eval *ev = xcalloc(S, sizeof *ev);
	for (size_t k = 0; k < S; k++)
		cal_bayes_values(b, u + k * nd, v + k * np);
	int rc = cal_run_batch(b->r, v, S, 1, ev, b->stop) < 0 ? -1 : 0;
	for (size_t k = 0; k < S; k++) {
		for (size_t o = 0; o < b->nout; o++)
			sim[k * b->nout + o] = ev[k].error ? NAN : ev[k].sim[b->out[o].bench][b->out[o].point];
		if (ev[k].error && rc == 0) {
			*err = xasprintf("a posterior predictive run failed: %s", ev[k].error);
			rc = -1;
		}
		cal_eval_free(b->s, &ev[k]);
	}
	if (rc < 0 && !*err)
		*err = xstrdup("interrupted");
	free(v);
	free(ev);
	return rc;
}

static void sobol(const cal_bayes *b, findings *f)
{
	const cal_surrogate *g = &b->sur_global;
	if (!g->nout)
		return;
	size_t d = b->dim, P = g->basis.nterms;
	f->first = xcalloc(b->nout * d, sizeof *f->first);
	f->total = xcalloc(b->nout * d, sizeof *f->total);
	for (size_t o = 0; o < b->nout; o++)
		cal_pce_sobol(&g->basis, g->coef + o * P, g->nterms[o], f->first + o * d, f->total + o * d);
}

static int compute(cal_bayes *b, findings *f, char **err)
{
	size_t nd = b->ndim, n = b->chain.nseq * b->chain.kept;
	f->coord = xcalloc(nd, sizeof *f->coord);
	for (size_t j = 0; j < nd; j++)
		cal_coord_summary(b, j, &f->coord[j]);
	f->corr = cal_correlation(b);
	size_t S = b->direct ? REPORT_PRED_DIRECT : REPORT_PRED_SAMPLES;
	S = S < n ? S : n;
	f->pred_samples = S;
	double *u = xmalloc((S * nd + 1) * sizeof *u), *sim = xmalloc((S * b->nout + 1) * sizeof *sim);
	int rc = pred_samples(b, S, u, sim, err);
	f->band = xcalloc(b->nout, sizeof *f->band);
	if (rc == 0)
		cal_predictive(b, sim, u, S, f->band, &f->coverage);
	free(u);
	free(sim);
	sobol(b, f);
	double *v = xmalloc((b->s->nparams + 1) * sizeof *v);
	cal_bayes_values(b, b->map, v);
	f->map_text = cal_system_text(b->r, v);
	free(v);
	f->regime = xcalloc(b->nout, sizeof *f->regime);
	for (size_t o = 0; o < b->nout; o++)
		f->regime[o] = cal_regime_of(f->map_text, b->s->bench[b->out[o].bench].points[b->out[o].point].x);
	return rc;
}

static void findings_free(findings *f)
{
	free(f->coord);
	free(f->corr);
	free(f->band);
	free(f->first);
	free(f->total);
	free(f->regime);
	free(f->map_text);
}

/* ------------------------------------------------------------ files */

/* Opens dir/name for writing. */
static outfile *open_in(const cal_bayes *b, const char *name, char **err)
{
	char *path = xasprintf("%s/%s", b->dir.staging, name);
	outfile *f = outfile_open(path, 0, err);
	free(path);
	return f;
}

/* Commits f, or reports that it could not be written. */
static int close_out(outfile *f, const char *name, char **err)
{
	if (ferror(outfile_stream(f))) {
		outfile_abort(f);
		*err = xasprintf("%s: cannot write", name);
		return -1;
	}
	return outfile_commit(f, err);
}

static int write_posterior(const cal_bayes *b, char **err)
{
	outfile *f = open_in(b, "posterior.csv", err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	const cal_mcmc_out *c = &b->chain;
	fprintf(o, "# ncsim calibrate --bayes %s: %zu samples of %zu sequences (%zu chains x %zu walkers), thinned by %zu\n",
	        b->s->path, c->nseq * c->kept, c->nseq, b->mc.chains, b->mc.walkers, b->mc.thin);
	fprintf(o, "sample,chain,walker,log_posterior,discrepancy");
	cal_bayes_param_header(b, o);
	fputc('\n', o);
	double *v = xmalloc((b->s->nparams + 1) * sizeof *v);
	for (size_t s = 0, i = 0; s < c->nseq; s++)
		for (size_t k = 0; k < c->kept; k++, i++) {
			const double *u = c->x + i * c->dim;
			fprintf(o, "%zu,%zu,%zu,%.10g,%.6g", i, s / b->mc.walkers, s % b->mc.walkers, c->logp[i],
			        cal_bayes_delta(b, u));
			for (size_t j = 0; j < b->dim; j++)
				fprintf(o, ",%.10g", cal_param_real(&b->s->params[b->idx[j]], u[j]));
			fputc('\n', o);
		}
	free(v);
	return close_out(f, "posterior.csv", err);
}

/* The name of coordinate j ("section.key", or "discrepancy"). */
static void coord_name(const cal_bayes *b, size_t j, char *buf, size_t n)
{
	if (j < b->dim)
		snprintf(buf, n, "%s.%s", b->s->params[b->idx[j]].section, b->s->params[b->idx[j]].key);
	else
		snprintf(buf, n, "discrepancy");
}

static int write_summary(const cal_bayes *b, const findings *F, char **err)
{
	outfile *f = open_in(b, "summary.csv", err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	fprintf(o, "parameter,unit,prior,low,high,mean,sd,p05,p50,p95,map,rhat,ess,contraction,constrained\n");
	for (size_t j = 0; j < b->ndim; j++) {
		char name[160], prior[160] = "log-uniform";
		const char *unit = "share";
		double lo = b->s->bayes.disc_lo, hi = b->s->bayes.disc_hi;
		coord_name(b, j, name, sizeof name);
		if (j < b->dim) {
			const cal_param *p = &b->s->params[b->idx[j]];
			cal_prior_describe(p, prior, sizeof prior);
			unit = cal_bayes_unit(p);
			lo = p->lo;
			hi = p->hi;
		}
		const cal_coord_sum *c = &F->coord[j];
		fprintf(o, "%s,%s,\"%s\",%.10g,%.10g,%.10g,%.6g,%.10g,%.10g,%.10g,%.10g,%.5f,%.1f,%.4f,%d\n", name, unit,
		        prior, lo, hi, c->mean, c->sd, c->q05, c->q50, c->q95, c->map, c->rhat, c->ess, c->contraction,
		        c->constrained);
	}
	return close_out(f, "summary.csv", err);
}

static int write_correlation(const cal_bayes *b, const findings *F, char **err)
{
	outfile *f = open_in(b, "correlation.csv", err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	char name[160];
	fprintf(o, "parameter");
	for (size_t j = 0; j < b->ndim; j++) {
		coord_name(b, j, name, sizeof name);
		fprintf(o, ",%s", name);
	}
	fputc('\n', o);
	for (size_t a = 0; a < b->ndim; a++) {
		coord_name(b, a, name, sizeof name);
		fprintf(o, "%s", name);
		for (size_t k = 0; k < b->ndim; k++)
			fprintf(o, ",%.4f", F->corr[a * b->ndim + k]);
		fputc('\n', o);
	}
	return close_out(f, "correlation.csv", err);
}

/* The simulated figure of output o at the MAP. */
static double map_sim(const cal_bayes *b, size_t o)
{
	double *const *sim = b->map_eval.sim;
	return sim && sim[b->out[o].bench] ? sim[b->out[o].bench][b->out[o].point] : NAN;
}

static int write_predictive(const cal_bayes *b, const findings *F, char **err)
{
	outfile *f = open_in(b, "predictive.csv", err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	fprintf(o, "benchmark,x,regime,measured,measured_se,prior_p05,prior_p50,prior_p95,posterior_p05,posterior_p50,"
	           "posterior_p95,map_simulated,inside_90\n");
	for (size_t k = 0; k < b->nout; k++) {
		const cal_datum *x = &b->out[k];
		const cal_band *w = &F->band[k];
		fprintf(o, "%s,%.10g,%s,%.10g,%.6g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%d\n", b->s->bench[x->bench].name,
		        b->s->bench[x->bench].points[x->point].x, F->regime[k], x->y, sqrt(x->se2), w->prior[0], w->prior[1],
		        w->prior[2], w->post[0], w->post[1], w->post[2], map_sim(b, k), w->inside);
	}
	return close_out(f, "predictive.csv", err);
}

static int write_sobol(const cal_bayes *b, const findings *F, char **err)
{
	if (!F->first)
		return 0;
	outfile *f = open_in(b, "sobol.csv", err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	fprintf(o, "benchmark,x,regime,parameter,first,total,surrogate_error,degree\n");
	for (size_t k = 0; k < b->nout; k++)
		for (size_t j = 0; j < b->dim; j++) {
			char name[160];
			coord_name(b, j, name, sizeof name);
			const cal_datum *x = &b->out[k];
			fprintf(o, "%s,%.10g,%s,%s,%.5f,%.5f,%.5g,%zu\n", b->s->bench[x->bench].name,
			        b->s->bench[x->bench].points[x->point].x, F->regime[k], name, F->first[k * b->dim + j],
			        F->total[k * b->dim + j], b->sur_global.err_rel[k], cal_surrogate_degree(&b->sur_global, k));
		}
	return close_out(f, "sobol.csv", err);
}

static int write_map(const cal_bayes *b, const findings *F, char **err)
{
	outfile *f = open_in(b, "map.conf", err);
	if (!f)
		return -1;
	fprintf(outfile_stream(f), "# The maximum a posteriori system of ncsim calibrate --bayes %s (log posterior %.6g).\n",
	        b->s->path, b->map_logp);
	fputs(F->map_text, outfile_stream(f));
	return close_out(f, "map.conf", err);
}

/* ------------------------------------------------------------ calibration.json */

static void json_coord(json_writer *j, const cal_bayes *b, size_t k, const cal_coord_sum *c)
{
	char name[160], prior[160] = "log-uniform";
	coord_name(b, k, name, sizeof name);
	if (k < b->dim)
		cal_prior_describe(&b->s->params[b->idx[k]], prior, sizeof prior);
	json_object_begin(j);
	json_kv_string(j, "name", name);
	json_kv_string(j, "unit", k < b->dim ? cal_bayes_unit(&b->s->params[b->idx[k]]) : "share");
	json_kv_string(j, "prior", prior);
	json_kv_double(j, "low", k < b->dim ? b->s->params[b->idx[k]].lo : b->s->bayes.disc_lo);
	json_kv_double(j, "high", k < b->dim ? b->s->params[b->idx[k]].hi : b->s->bayes.disc_hi);
	json_kv_double(j, "mean", c->mean);
	json_kv_double(j, "sd", c->sd);
	json_kv_double(j, "p05", c->q05);
	json_kv_double(j, "p50", c->q50);
	json_kv_double(j, "p95", c->q95);
	json_kv_double(j, "map", c->map);
	json_kv_double(j, "rhat", c->rhat);
	json_kv_double(j, "ess", c->ess);
	json_kv_double(j, "contraction", c->contraction);
	json_key(j, "constrained");
	json_bool(j, c->constrained);
	json_object_end(j);
}

/* One surrogate's size and held-out errors. */
static void json_one_surrogate(json_writer *j, const cal_bayes *b, const char *key, const cal_surrogate *u,
                               const cal_design *d)
{
	json_key(j, key);
	json_object_begin(j);
	json_kv_uint(j, "design_runs", d->ntrain);
	json_kv_uint(j, "held_out_runs", d->ntest);
	json_kv_uint(j, "max_degree", u->basis.degree);
	json_kv_double(j, "held_out_rms_relative_error_worst", u->worst);
	double *e = xmalloc((b->nout + 1) * sizeof *e);
	memcpy(e, u->err_rel, b->nout * sizeof *e);
	qsort(e, b->nout, sizeof *e, cal_cmp_double);
	json_kv_double(j, "held_out_rms_relative_error_median", cal_quantile_sorted(e, b->nout, 0.5));
	free(e);
	if (u->lo) {
		json_key(j, "region");
		json_array_begin(j);
		for (size_t k = 0; k < b->dim; k++) {
			json_array_begin(j);
			json_double(j, cal_param_real(&b->s->params[b->idx[k]], u->lo[k]));
			json_double(j, cal_param_real(&b->s->params[b->idx[k]], u->hi[k]));
			json_array_end(j);
		}
		json_array_end(j);
	}
	json_object_end(j);
}

static void json_surrogate(json_writer *j, const cal_bayes *b)
{
	json_key(j, "surrogate");
	json_object_begin(j);
	json_kv_string(j, "mode", b->direct ? "direct" : "pce");
	json_key(j, "design_reused");
	json_bool(j, b->reused);
	json_kv_uint(j, "simulations", b->runs);
	if (b->sur_global.nout)
		json_one_surrogate(j, b, "global", &b->sur_global, &b->global);
	if (b->sur_local.nout)
		json_one_surrogate(j, b, "local", &b->sur_local, &b->local);
	if (b->sur)
		json_kv_double(j, "held_out_rms_relative_error_worst", b->sur->worst);
	json_kv_uint(j, "direct_runs", b->direct_runs);
	json_object_end(j);
}

static void json_sampler(json_writer *j, const cal_bayes *b)
{
	json_key(j, "sampler");
	json_object_begin(j);
	json_kv_string(j, "algorithm", "affine-invariant ensemble (stretch move)");
	json_kv_uint(j, "chains", b->mc.chains);
	json_kv_uint(j, "walkers", b->mc.walkers);
	json_kv_uint(j, "burn", b->mc.burn);
	json_kv_uint(j, "steps", b->mc.steps);
	json_kv_uint(j, "thin", b->mc.thin);
	json_kv_uint(j, "extended", b->extended);
	json_kv_uint(j, "walkers_moved_in_burn_in", b->unstuck);
	json_kv_uint(j, "samples", b->chain.nseq * b->chain.kept);
	json_kv_double(j, "acceptance", b->chain.accept);
	json_kv_uint(j, "density_evaluations", b->chain.evals);
	json_kv_uint(j, "seed", b->s->opt.seed);
	json_object_end(j);
}

static void json_points(json_writer *j, const cal_bayes *b, const findings *F)
{
	json_key(j, "points");
	json_array_begin(j);
	for (size_t k = 0; k < b->nout; k++) {
		const cal_datum *x = &b->out[k];
		json_object_begin(j);
		json_kv_string(j, "benchmark", b->s->bench[x->bench].name);
		json_kv_double(j, "x", b->s->bench[x->bench].points[x->point].x);
		json_kv_string(j, "regime", F->regime[k]);
		json_kv_double(j, "measured", x->y);
		json_kv_double(j, "measured_se", sqrt(x->se2));
		json_kv_double(j, "map_simulated", map_sim(b, k));
		json_key(j, "prior_band");
		json_array_begin(j);
		for (int q = 0; q < 3; q++)
			json_double(j, F->band[k].prior[q]);
		json_array_end(j);
		json_key(j, "posterior_band");
		json_array_begin(j);
		for (int q = 0; q < 3; q++)
			json_double(j, F->band[k].post[q]);
		json_array_end(j);
		json_key(j, "inside_90");
		json_bool(j, F->band[k].inside);
		if (F->first) {
			json_kv_double(j, "surrogate_error", b->sur ? b->sur->err_rel[k] : NAN);
			json_kv_double(j, "global_surrogate_error", b->sur_global.err_rel[k]);
			json_key(j, "sobol_total");
			json_array_begin(j);
			for (size_t p = 0; p < b->dim; p++)
				json_double(j, F->total[k * b->dim + p]);
			json_array_end(j);
			json_key(j, "sobol_first");
			json_array_begin(j);
			for (size_t p = 0; p < b->dim; p++)
				json_double(j, F->first[k * b->dim + p]);
			json_array_end(j);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

static int write_json(const cal_bayes *b, const findings *F, char **err)
{
	outfile *f = open_in(b, "calibration.json", err);
	if (!f)
		return -1;
	json_writer j;
	json_init(&j, outfile_stream(f), 1);
	json_object_begin(&j);
	json_kv_string(&j, "ncsim_version", PACKAGE_VERSION);
	json_kv_string(&j, "command_line", b->o->command_line);
	json_kv_string(&j, "spec", b->s->path);
	json_kv_string(&j, "method", "bayes");
	json_kv_string(&j, "system", b->s->system ? b->s->system : "(built-in)");
	json_kv_string(&j, "network", b->s->network);
	json_kv_uint(&j, "run_seed", b->o->seed);
	json_surrogate(&j, b);
	json_sampler(&j, b);
	json_key(&j, "parameters");
	json_array_begin(&j);
	for (size_t k = 0; k < b->ndim; k++)
		json_coord(&j, b, k, &F->coord[k]);
	json_array_end(&j);
	json_key(&j, "correlation");
	json_array_begin(&j);
	for (size_t a = 0; a < b->ndim; a++) {
		json_array_begin(&j);
		for (size_t k = 0; k < b->ndim; k++)
			json_double(&j, F->corr[a * b->ndim + k]);
		json_array_end(&j);
	}
	json_array_end(&j);
	json_kv_double(&j, "map_log_posterior", b->map_logp);
	json_kv_double(&j, "map_loss", cal_eval_loss(b->s, &b->map_eval, -1, 0));
	json_kv_double(&j, "predictive_coverage_90", F->coverage);
	json_kv_uint(&j, "predictive_samples", F->pred_samples);
	json_points(&j, b, F);
	if (!b->o->no_wall_time)
		json_kv_double(&j, "wall_seconds", b->wall);
	json_object_end(&j);
	if (json_finish(&j) < 0) {
		outfile_abort(f);
		*err = xstrdup("calibration.json: cannot write");
		return -1;
	}
	return outfile_commit(f, err);
}

/* ------------------------------------------------------------ stdout */

static void print_params(const cal_bayes *b, const findings *F, FILE *o)
{
	fprintf(o, "%-32s %13s %13s %13s %13s %13s %7s %8s\n", "parameter", "mean", "sd", "5%", "95%", "MAP", "R-hat",
	        "ESS");
	for (size_t j = 0; j < b->ndim; j++) {
		char name[160];
		coord_name(b, j, name, sizeof name);
		const cal_coord_sum *c = &F->coord[j];
		fprintf(o, "%-32s %13.6g %13.4g %13.6g %13.6g %13.6g %7.4f %8.0f %s%s\n", name, c->mean, c->sd, c->q05,
		        c->q95, c->map, c->rhat, c->ess, j < b->dim ? cal_bayes_unit(&b->s->params[b->idx[j]]) : "",
		        c->constrained ? "" : " (not constrained)");
	}
}

/* The Sobol table of one benchmark: its points by parameter (total indices), with the protocol of each size. */
static void print_sobol(const cal_bayes *b, const findings *F, size_t bench, FILE *o)
{
	fprintf(o, "# Sobol total indices over the prior ranges, benchmark %s (first-order ones in sobol.csv)\n%12s %-10s", b->s->bench[bench].name,
	        "x", "regime");
	for (size_t j = 0; j < b->dim; j++) {
		const cal_param *p = &b->s->params[b->idx[j]];
		fprintf(o, " %14.14s", p->key);
	}
	fprintf(o, " %8s\n", "err");
	for (size_t k = 0; k < b->nout; k++) {
		if (b->out[k].bench != bench)
			continue;
		fprintf(o, "%12.0f %-10s", b->s->bench[bench].points[b->out[k].point].x, F->regime[k]);
		for (size_t j = 0; j < b->dim; j++)
			fprintf(o, " %14.3f", F->total[k * b->dim + j]);
		fprintf(o, " %7.2f%%\n", 100 * b->sur_global.err_rel[k]);
	}
}

static void print_summary(const cal_bayes *b, const findings *F, FILE *o)
{
	if (b->sur_global.nout)
		fprintf(o, "global surrogate: %zu design runs, %zu held out, degree <= %zu, held-out RMS relative error "
		           "%.3g%% at the worst point\n", b->global.ntrain, b->global.ntest, b->sur_global.basis.degree,
		        100 * b->sur_global.worst);
	if (b->sur_local.nout)
		fprintf(o, "local surrogate (posterior region): %zu design runs, %zu held out, degree <= %zu, held-out RMS "
		           "relative error %.3g%% at the worst point%s\n", b->local.ntrain, b->local.ntest,
		        b->sur_local.basis.degree, 100 * b->sur_local.worst,
		        b->sur == &b->sur_global ? " (not used: the global one does better)" : "");
	if (b->direct)
		fprintf(o, "posterior sampled by direct simulation (%zu runs)\n", b->direct_runs);
	fprintf(o, "posterior: %zu samples, %zu chains x %zu walkers, acceptance %.2f\n", b->chain.nseq * b->chain.kept,
	        b->mc.chains, b->mc.walkers, b->chain.accept);
	print_params(b, F, o);
	if (F->first)
		for (size_t k = 0; k < b->s->nbench; k++)
			if (!b->s->bench[k].predict_only && b->s->bench[k].weight > 0)
				print_sobol(b, F, k, o);
	fprintf(o, "predictive coverage: %.0f%% of the measured points inside the 90%% posterior band\n",
	        100 * F->coverage);
	size_t bad = 0;
	for (size_t j = 0; j < b->ndim; j++)
		bad += !(F->coord[j].rhat < CAL_RHAT_OK);
	if (bad)
		fprintf(o, "warning: %zu parameter%s with R-hat >= %.2f: the chains have not mixed; raise samples or burn\n",
		        bad, bad > 1 ? "s" : "", CAL_RHAT_OK);
	fprintf(o, "output: %s\n", b->dir.path);
}

int cal_bayes_report(cal_bayes *b, char **err)
{
	findings F = {0};
	int rc = compute(b, &F, err);
	if (rc == 0)
		rc = write_posterior(b, err);
	if (rc == 0)
		rc = write_summary(b, &F, err);
	if (rc == 0)
		rc = write_correlation(b, &F, err);
	if (rc == 0)
		rc = write_predictive(b, &F, err);
	if (rc == 0)
		rc = write_sobol(b, &F, err);
	if (rc == 0)
		rc = write_map(b, &F, err);
	if (rc == 0)
		rc = cal_bayes_write_design(b, err);
	if (rc == 0)
		rc = write_json(b, &F, err);
	if (rc == 0)
		rc = drv_outdir_commit(&b->dir, err);
	if (rc == 0)
		print_summary(b, &F, stdout);
	findings_free(&F);
	return rc;
}

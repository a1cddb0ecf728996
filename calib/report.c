/*
 * report.c - the outputs of `ncsim calibrate` (see report.h).
 */
#include "config.h"

#include "calib/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/stats/json.h"
#include "runtime/stats/outfile.h"

void cal_history_add(cal_history *h, const char *phase, int level, int stage, double loss, double wall,
                     const double *values, size_t n)
{
	cal_record r = {.index = h->rows.len, .phase = phase, .level = level, .stage = stage, .loss = loss,
	                .wall = wall, .values = xcalloc(n + 1, sizeof(double))};
	memcpy(r.values, values, n * sizeof(double));
	VEC_PUSH(&h->rows, r);
}

void cal_history_free(cal_history *h)
{
	for (size_t i = 0; i < h->rows.len; i++)
		free(h->rows.ptr[i].values);
	VEC_FREE(&h->rows);
}

int cal_report_begin(cal_report *r, char **err)
{
	if (drv_outdir_begin(&r->dir, r->opt->out, r->opt->force, "calibrate", err) < 0)
		return -1;
	r->began = 1;
	return 0;
}

void cal_report_end(cal_report *r)
{
	if (r->began)
		drv_outdir_free(&r->dir);
	r->began = 0;
}

/* "section.key", with "@level" when the parameter belongs to one level. */
static void param_name(const cal_param *p, char *buf, size_t n)
{
	snprintf(buf, n, "%s.%s%s%s", p->section, p->key, p->level ? "@" : "", p->level ? p->level : "");
}

/* ------------------------------------------------------------ system files */

/* The calibrated system of level L, with a header saying how it was made. */
static int write_system(const cal_report *r, const cal_level *L, const char *path, char **err)
{
	cal_runner run = {.spec = r->spec, .network = L->name};
	if (r->spec->system) {
		if (!(run.base_text = xread_text(r->spec->system, "system file", err)))
			return -1;
	} else {
		run.base_text = xstrdup(drv_default_system);
	}
	char *text = cal_system_text(&run, L->best);
	free(run.base_text);
	outfile *f = outfile_open(path, 0, err);
	if (!f) {
		free(text);
		return -1;
	}
	char ln[40];
	fprintf(outfile_stream(f), "# Calibrated by ncsim calibrate from %s: %s %s over %zu evaluations%s%s%s.\n",
	        r->spec->path, cal_loss_name(&r->spec->loss, ln, sizeof ln), "loss", L->evals,
	        L->name ? "; run it with --network " : "", L->name ? L->name : "", "");
	fputs(text, outfile_stream(f));
	free(text);
	return outfile_commit(f, err);
}

/* ------------------------------------------------------------------ JSON */

static void json_settings(json_writer *j, const cal_report *r)
{
	const cal_spec *s = r->spec;
	char ln[40];
	json_key(j, "settings");
	json_object_begin(j);
	json_kv_string(j, "loss", cal_loss_name(&s->loss, ln, sizeof ln));
	json_kv_string(j, "optimizer", s->opt.name);
	json_kv_string(j, "refine", s->refine);
	if (s->refine)
		json_kv_double(j, "refine_share", s->refine_share);
	json_kv_uint(j, "budget", s->opt.budget);
	json_kv_uint(j, "batch", s->opt.batch);
	json_kv_uint(j, "seed", s->opt.seed);
	json_kv_uint(j, "starts", s->opt.starts);
	json_kv_uint(j, "run_seed", r->opt->seed);
	json_kv_string(j, "regimes", s->sequential ? "sequential" : "joint");
	json_kv_string(j, "system", s->system ? s->system : "(built-in)");
	json_kv_string(j, "network", s->network);
	json_kv_double(j, "target", s->target);
	json_object_end(j);
}

static void json_params(json_writer *j, const cal_spec *s)
{
	json_key(j, "parameters");
	json_array_begin(j);
	for (size_t p = 0; p < s->nparams; p++) {
		const cal_param *P = &s->params[p];
		char name[160];
		param_name(P, name, sizeof name);
		json_object_begin(j);
		json_kv_string(j, "name", name);
		json_kv_string(j, "scale", P->fixed ? "fixed" : P->log ? "log" : "linear");
		json_kv_double(j, "low", P->lo);
		json_kv_double(j, "high", P->hi);
		json_kv_string(j, "regime", P->regime >= 0 ? s->regimes[P->regime].name : NULL);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_best(json_writer *j, const cal_spec *s, const cal_level *L)
{
	json_key(j, "best");
	json_array_begin(j);
	for (size_t p = 0; p < s->nparams; p++) {
		const cal_param *P = &s->params[p];
		if (!cal_param_applies(P, L->name))
			continue;
		char name[160], text[64];
		param_name(P, name, sizeof name);
		cal_param_format(P, L->best[p], text, sizeof text);
		json_object_begin(j);
		json_kv_string(j, "name", name);
		json_kv_string(j, "value", text);
		json_kv_double(j, "coordinate", cal_param_coord(P, L->best[p]));
		json_key(j, "constrained");
		if (P->fixed)
			json_null(j);
		else
			json_bool(j, !L->flat[p]);
		json_key(j, "profile");
		json_array_begin(j);
		json_double(j, L->profile[2 * p]);
		json_double(j, L->profile[2 * p + 1]);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_points(json_writer *j, const cal_bench *B, const double *sim)
{
	json_key(j, "points");
	json_array_begin(j);
	for (size_t i = 0; i < B->npoints; i++) {
		const cal_point *P = &B->points[i];
		json_object_begin(j);
		json_kv_double(j, "x", P->x);
		json_kv_double(j, "measured", P->mean);
		json_kv_double(j, "sd", P->sd);
		json_kv_uint(j, "trials", P->ntrials);
		json_kv_double(j, "simulated", sim ? sim[i] : NAN);
		json_kv_double(j, "relative_error", sim && P->mean != 0 ? (sim[i] - P->mean) / P->mean : NAN);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_benchmarks(json_writer *j, const cal_spec *s, const cal_level *L)
{
	json_key(j, "benchmarks");
	json_array_begin(j);
	for (size_t b = 0; b < s->nbench; b++) {
		const cal_bench *B = &s->bench[b];
		json_object_begin(j);
		json_kv_string(j, "name", B->name);
		json_kv_string(j, "use", B->predict_only ? "predict" : "fit");
		json_kv_double(j, "weight", B->weight);
		json_kv_double(j, "loss", cal_bench_loss(s, &L->final, b, -1));
		json_key(j, "regimes");
		json_object_begin(j);
		for (size_t r = 0; r < s->nregimes; r++)
			json_kv_double(j, s->regimes[r].name, cal_bench_loss(s, &L->final, b, (int)r));
		json_object_end(j);
		json_points(j, B, L->final.sim ? L->final.sim[b] : NULL);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_level(json_writer *j, const cal_report *r, const cal_level *L)
{
	const cal_spec *s = r->spec;
	json_object_begin(j);
	json_kv_string(j, "level", L->name ? L->name : "(system)");
	json_kv_double(j, "loss", L->loss);
	json_kv_double(j, "predict_loss", L->predict_loss);
	json_kv_uint(j, "evaluations", L->evals);
	json_kv_double(j, "events_per_evaluation", L->eval_events);
	if (!r->opt->no_wall_time) {
		json_kv_double(j, "seconds_per_evaluation", L->eval_wall);
		json_kv_double(j, "simulation_seconds_per_evaluation", L->eval_sim);
	}
	json_key(j, "regimes");
	json_array_begin(j);
	for (size_t g = 0; g < s->nregimes; g++) {
		json_object_begin(j);
		json_kv_string(j, "name", s->regimes[g].name);
		json_kv_double(j, "min", s->regimes[g].min);
		json_kv_double(j, "max", s->regimes[g].max);
		json_kv_double(j, "loss", cal_eval_loss(s, &L->final, (int)g, 0));
		json_object_end(j);
	}
	json_array_end(j);
	json_best(j, s, L);
	json_benchmarks(j, s, L);
	json_object_end(j);
}

static int write_json(const cal_report *r, const char *path, char **err)
{
	outfile *f = outfile_open(path, 0, err);
	if (!f)
		return -1;
	json_writer j;
	json_init(&j, outfile_stream(f), 1);
	json_object_begin(&j);
	json_kv_string(&j, "ncsim_version", PACKAGE_VERSION);
	json_kv_string(&j, "command_line", r->opt->command_line);
	json_kv_string(&j, "spec", r->spec->path);
	json_kv_string(&j, "status", r->interrupted ? "interrupted" : "ok");
	json_settings(&j, r);
	json_params(&j, r->spec);
	json_kv_string(&j, "chosen_level", r->levels[r->chosen].name ? r->levels[r->chosen].name : "(system)");
	json_key(&j, "levels");
	json_array_begin(&j);
	for (size_t i = 0; i < r->nlevels; i++)
		json_level(&j, r, &r->levels[i]);
	json_array_end(&j);
	json_kv_uint(&j, "evaluations", r->hist->rows.len);
	if (!r->opt->no_wall_time)
		json_kv_double(&j, "wall_seconds", r->wall);
	json_object_end(&j);
	if (json_finish(&j) < 0) {
		outfile_abort(f);
		*err = xasprintf("%s: cannot write", path);
		return -1;
	}
	return outfile_commit(f, err);
}

/* ------------------------------------------------------------ history.csv */

static int write_history(const cal_report *r, const char *path, char **err)
{
	const cal_spec *s = r->spec;
	outfile *f = outfile_open(path, 0, err);
	if (!f)
		return -1;
	FILE *o = outfile_stream(f);
	fprintf(o, "evaluation,phase,level,stage,loss%s", r->opt->no_wall_time ? "" : ",wall_s");
	for (size_t p = 0; p < s->nparams; p++) {
		char name[160];
		param_name(&s->params[p], name, sizeof name);
		fprintf(o, ",%s", name);
	}
	fputc('\n', o);
	for (size_t i = 0; i < r->hist->rows.len; i++) {
		const cal_record *h = &r->hist->rows.ptr[i];
		const char *lv = r->levels[h->level].name;
		char num[32];
		fprintf(o, "%zu,%s,%s,%s,%s", h->index, h->phase, lv ? lv : "", h->stage >= 0 ? s->regimes[h->stage].name : "",
		        json_format_double(num, h->loss));
		if (!r->opt->no_wall_time)
			fprintf(o, ",%.6f", h->wall);
		for (size_t p = 0; p < s->nparams; p++)
			fprintf(o, ",%s", json_format_double(num, h->values[p]));
		fputc('\n', o);
	}
	return outfile_commit(f, err);
}

/* --------------------------------------------------------------- summary */

void cal_print_points(const cal_spec *s, const cal_eval *ev, FILE *out)
{
	for (size_t b = 0; b < s->nbench; b++) {
		const cal_bench *B = &s->bench[b];
		const double *sim = ev->sim ? ev->sim[b] : NULL;
		fprintf(out, "# benchmark %s (%s)\n%14s %14s %14s %9s\n", B->name, B->predict_only ? "predict" : "fit", "x",
		        "measured", "simulated", "error");
		for (size_t i = 0; i < B->npoints; i++) {
			double m = B->points[i].mean, v = sim ? sim[i] : NAN;
			fprintf(out, "%14.6g %14.6g %14.6g %8.2f%%\n", B->points[i].x, m, v, m != 0 ? 100 * (v - m) / m : NAN);
		}
	}
}

static void print_summary(const cal_report *r, FILE *out)
{
	const cal_spec *s = r->spec;
	char ln[40];
	cal_loss_name(&s->loss, ln, sizeof ln);
	if (r->nlevels > 1 || r->levels[0].name) {
		fprintf(out, "%-10s %12s %12s %11s %13s %10s %10s\n", "level", ln, "predict", "evaluations", "events/eval",
		        "sim s/eval", "s/eval");
		for (size_t i = 0; i < r->nlevels; i++) {
			const cal_level *L = &r->levels[i];
			fprintf(out, "%-10s %12.6g %12.6g %11zu %13.0f %10.5f %10.4f%s\n", L->name ? L->name : "(system)", L->loss,
			        L->predict_loss, L->evals, L->eval_events, L->eval_sim, L->eval_wall,
			        i == r->chosen ? "  <- chosen" : "");
		}
	}
	const cal_level *L = &r->levels[r->chosen];
	fprintf(out, "%-36s %20s %s\n", "parameter", "value", "");
	for (size_t p = 0; p < s->nparams; p++) {
		const cal_param *P = &s->params[p];
		if (!cal_param_applies(P, L->name))
			continue;
		char name[160], text[64];
		param_name(P, name, sizeof name);
		cal_param_format(P, L->best[p], text, sizeof text);
		fprintf(out, "%-36s %20s %s\n", name, text, P->fixed ? "(fixed)" : L->flat[p] ? "(not constrained: flat loss)" : "");
	}
	for (size_t b = 0; b < s->nbench; b++)
		fprintf(out, "benchmark %-20s %s %.6g%s\n", s->bench[b].name, ln, cal_bench_loss(s, &L->final, b, -1),
		        s->bench[b].predict_only ? " (predicted, not fitted)" : "");
	for (size_t g = 0; g < s->nregimes; g++)
		fprintf(out, "regime %-23s %s %.6g\n", s->regimes[g].name, ln, cal_eval_loss(s, &L->final, (int)g, 0));
	fprintf(out, "%s %.6g over %zu evaluations%s\n", ln, L->loss, L->evals, r->interrupted ? " (interrupted)" : "");
}

int cal_report_write(cal_report *r, FILE *msg, char **err)
{
	const char *d = r->dir.staging;
	char *conf = xasprintf("%s/calibrated.conf", d), *json = xasprintf("%s/calibration.json", d),
	     *hist = xasprintf("%s/history.csv", d);
	int rc = write_system(r, &r->levels[r->chosen], conf, err);
	for (size_t i = 0; rc == 0 && r->nlevels > 1 && i < r->nlevels; i++) {
		char *p = xasprintf("%s/calibrated-%s.conf", d, r->levels[i].name);
		rc = write_system(r, &r->levels[i], p, err);
		free(p);
	}
	if (rc == 0)
		rc = write_json(r, json, err);
	if (rc == 0)
		rc = write_history(r, hist, err);
	free(conf);
	free(json);
	free(hist);
	if (rc == 0)
		rc = drv_outdir_commit(&r->dir, err);
	if (rc == 0) {
		print_summary(r, stdout);
		fprintf(msg, "ncsim calibrate: %s: %s\n", r->interrupted ? "interrupted" : "done", r->dir.path);
	}
	return rc;
}

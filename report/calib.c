/*
 * calib.c - reading a calibration's output folder (see calib.h).
 */
#include "report/calib.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/csv_read.h"
#include "report/json_read.h"
#include "report/run.h"

int rep_cal_is_input(const char *dir)
{
	struct stat st;
	char *sum = xasprintf("%s/summary.json", dir), *cal = xasprintf("%s/calibration.json", dir);
	int yes = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && stat(sum, &st) != 0 && stat(cal, &st) == 0;
	free(sum);
	free(cal);
	return yes;
}

/* ---------------------------------------------------------- calibration.json */

static char *str_of(const rep_json *o, const char *key)
{
	const char *s = rep_json_str(rep_json_get(o, key));
	return xstrdup(s ? s : "");
}

/* Member key of o as a number into *x (absent or not a number: *x unchanged). 1 if it was one. */
static int num_of(const rep_json *o, const char *key, double *x)
{
	return rep_json_double(rep_json_get(o, key), x) == 0;
}

static int bool_of(const rep_json *o, const char *key)
{
	const rep_json *v = rep_json_get(o, key);
	return v && v->kind == REP_JSON_BOOL && v->boolean;
}

/* The array member key of o, or NULL. */
static const rep_json *array_of(const rep_json *o, const char *key)
{
	const rep_json *v = rep_json_get(o, key);
	return v && v->kind == REP_JSON_ARRAY ? v : NULL;
}

/* The search's ranges: parameters[] {name, scale, low, high}. */
static void search_ranges(rep_cal *c, const rep_json *root)
{
	const rep_json *ps = array_of(root, "parameters");
	for (size_t i = 0; ps && i < ps->n; i++) {
		rep_cal_param p = {.name = str_of(ps->items[i], "name"), .unit = xstrdup("")};
		char *scale = str_of(ps->items[i], "scale");
		p.log = !strcmp(scale, "log");
		free(scale);
		num_of(ps->items[i], "low", &p.low);
		num_of(ps->items[i], "high", &p.high);
		VEC_PUSH(&c->params, p);
	}
}

static rep_cal_param *param_named(rep_cal *c, const char *name)
{
	for (size_t i = 0; i < c->params.len; i++)
		if (!strcmp(c->params.ptr[i].name, name))
			return &c->params.ptr[i];
	return NULL;
}

/* The search's chosen level: best values ("1778279 ps": value and unit) and benchmark points. */
static void search_level(rep_cal *c, const rep_json *root)
{
	const rep_json *levels = array_of(root, "levels"), *level = NULL;
	const char *chosen = rep_json_str(rep_json_get(root, "chosen_level"));
	for (size_t i = 0; levels && i < levels->n && !level; i++)
		if (!chosen || !rep_json_str(rep_json_get(levels->items[i], "level")) ||
		    !strcmp(chosen, rep_json_str(rep_json_get(levels->items[i], "level"))))
			level = levels->items[i];
	if (!level)
		return;
	num_of(level, "loss", &c->loss);
	const rep_json *best = array_of(level, "best"), *benches = array_of(level, "benchmarks");
	for (size_t i = 0; best && i < best->n; i++) {
		const char *name = rep_json_str(rep_json_get(best->items[i], "name")), *v;
		rep_cal_param *p = name ? param_named(c, name) : NULL;
		if (!p || !(v = rep_json_str(rep_json_get(best->items[i], "value"))))
			continue;
		char *end;
		p->best = strtod(v, &end);
		free(p->unit);
		p->unit = xstrdup(end + strspn(end, " "));
		p->constrained = bool_of(best->items[i], "constrained");
	}
	for (size_t b = 0; benches && b < benches->n; b++) {
		const rep_json *o = benches->items[b], *pts = array_of(o, "points");
		char *name = str_of(o, "name"), *use = str_of(o, "use");
		if (!strcmp(use, "predict"))
			VEC_PUSH(&c->predicted, xstrdup(name));
		for (size_t i = 0; pts && i < pts->n; i++) {
			rep_cal_point p = {.bench = xstrdup(name)};
			num_of(pts->items[i], "x", &p.x);
			num_of(pts->items[i], "measured", &p.measured);
			num_of(pts->items[i], "sd", &p.spread);
			num_of(pts->items[i], "simulated", &p.sim);
			VEC_PUSH(&c->points, p);
		}
		free(name);
		free(use);
	}
}

/* --bayes: parameters[] with their posterior summaries, points[] with bands and Sobol indices. */
static void bayes_json(rep_cal *c, const rep_json *root)
{
	const rep_json *ps = array_of(root, "parameters"), *pts = array_of(root, "points");
	num_of(root, "map_loss", &c->loss);
	num_of(root, "predictive_coverage_90", &c->coverage);
	for (size_t i = 0; ps && i < ps->n; i++) {
		const rep_json *o = ps->items[i];
		rep_cal_param p = {.name = str_of(o, "name"), .unit = str_of(o, "unit"), .constrained = bool_of(o, "constrained")};
		char *prior = str_of(o, "prior");
		p.log = strstr(prior, "log") != NULL;
		free(prior);
		static const char *const keys[] = {"low", "high", "map", "mean", "sd", "p05", "p95"};
		double *dst[] = {&p.low, &p.high, &p.best, &p.mean, &p.sd, &p.p05, &p.p95};
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
			num_of(o, keys[k], dst[k]);
		VEC_PUSH(&c->params, p);
	}
	for (size_t i = 0; pts && i < pts->n; i++) {
		const rep_json *o = pts->items[i], *band = array_of(o, "posterior_band"), *sob = array_of(o, "sobol_total");
		rep_cal_point p = {.bench = str_of(o, "benchmark")};
		num_of(o, "x", &p.x);
		num_of(o, "measured", &p.measured);
		num_of(o, "measured_se", &p.spread);
		num_of(o, "map_simulated", &p.sim);
		for (size_t k = 0; band && k < 3 && k < band->n; k++)
			rep_json_double(band->items[k], &p.band[k]);
		if (sob && sob->n) {
			p.nsobol = sob->n;
			p.sobol = xcalloc(sob->n, sizeof *p.sobol);
			for (size_t k = 0; k < sob->n; k++)
				rep_json_double(sob->items[k], &p.sobol[k]);
		}
		VEC_PUSH(&c->points, p);
	}
}

/* Reads calibration.json: 0, or -1 with *err and *bad (0: it cannot be read). */
static int load_json(rep_cal *c, char **err, int *bad)
{
	char *path = xasprintf("%s/calibration.json", c->dir), *text = xread_text(path, "calibration", err);
	rep_json *root = text ? rep_json_parse(text, path, err) : NULL;
	int rc = -1;
	*bad = text != NULL;
	if (root && root->kind != REP_JSON_OBJECT) {
		*err = xasprintf("%s: not a JSON object (is it ncsim calibrate's calibration.json?)", path);
	} else if (root) {
		c->command = str_of(root, "command_line");
		c->version = str_of(root, "ncsim_version");
		c->status = str_of(root, "status");
		c->spec = str_of(root, "spec");
		c->method = str_of(root, "method");
		c->bayes = !strcmp(c->method, "bayes");
		if (c->bayes) {
			bayes_json(c, root);
		} else {
			search_ranges(c, root);
			search_level(c, root);
		}
		rc = 0;
	}
	rep_json_free(root);
	free(text);
	free(path);
	return rc;
}

/* ---------------------------------------------------------------- history.csv */

enum { H_PHASE, H_LEVEL, H_LOSS, H_EVAL, H_NCOLS };
static const char *const history_cols[H_NCOLS] = {"phase", "level", "loss", "evaluation"};

static int add_eval(rep_run *unused, rep_csv *csv, const int *col, void *arg, char **err)
{
	rep_cal *c = arg;
	double loss, eval;
	(void)unused;
	if (!strcmp(rep_csv_field(csv, col[H_PHASE]), "profile"))
		return 0; /* a profile explores one parameter away from the best: not the search's course */
	if (rep_csv_double(csv, col[H_EVAL], &eval, err) < 0)
		return -1;
	char *end;
	loss = strtod(rep_csv_field(csv, col[H_LOSS]), &end);
	if (*end || !isfinite(loss))
		return 0; /* an evaluation without a finite loss (a failed one) has no point */
	const char *name = rep_csv_field(csv, col[H_LEVEL]);
	rep_cal_level *l = NULL;
	for (size_t i = 0; i < c->levels.len && !l; i++)
		if (!strcmp(c->levels.ptr[i].name, name))
			l = &c->levels.ptr[i];
	if (!l) {
		VEC_PUSH(&c->levels, ((rep_cal_level){.name = xstrdup(name)}));
		l = &c->levels.ptr[c->levels.len - 1];
	}
	VEC_PUSH(&l->evals, ((rep_cal_eval){eval, loss}));
	return 0;
}

/* -------------------------------------------------------------- posterior.csv */

/* The column of each parameter in posterior.csv ("NAME [UNIT]", or "NAME"), -1 when absent. */
static int *param_cols(const rep_cal *c, rep_csv *csv)
{
	int *col = xcalloc(c->params.len + 1, sizeof *col);
	for (size_t i = 0; i < c->params.len; i++) {
		char *with = xasprintf("%s [%s]", c->params.ptr[i].name, c->params.ptr[i].unit);
		col[i] = rep_csv_col(csv, with);
		if (col[i] < 0)
			col[i] = rep_csv_col(csv, c->params.ptr[i].name);
		free(with);
	}
	return col;
}

/* A value where the histogram counts it: its log when the parameter is on a log scale. */
static double scaled(const rep_cal_param *p, double v) { return p->log && v > 0 ? log(v) : v; }

/* One pass over posterior.csv: the range of each parameter (pass 0), or its counts (pass 1). 0, or -1. */
static int posterior_pass(rep_cal *c, rep_csv *csv, const int *col, int pass, char **err)
{
	int rc;
	while ((rc = rep_csv_next(csv, err)) > 0)
		for (size_t i = 0; i < c->params.len; i++) {
			rep_cal_param *p = &c->params.ptr[i];
			double v;
			if (col[i] < 0)
				continue;
			if (rep_csv_double(csv, col[i], &v, err) < 0)
				return -1;
			v = scaled(p, v);
			if (pass == 0) {
				p->lo = p->samples == 0 || v < p->lo ? v : p->lo;
				p->hi = p->samples == 0 || v > p->hi ? v : p->hi;
				p->samples++;
			} else {
				double w = (p->hi - p->lo) / REP_CAL_BINS;
				size_t b = w > 0 ? (size_t)floor((v - p->lo) / w) : 0;
				p->counts[b < REP_CAL_BINS ? b : REP_CAL_BINS - 1]++;
			}
		}
	return rc;
}

static int load_posterior(rep_cal *c, char **err)
{
	char *path = xasprintf("%s/posterior.csv", c->dir);
	int rc = 0;
	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		rep_csv *csv = rep_csv_open(path, err);
		if (!csv) {
			rc = errno == ENOENT ? 1 : -1;
			break;
		}
		int *col = param_cols(c, csv);
		rc = posterior_pass(c, csv, col, pass, err);
		free(col);
		rep_csv_close(csv);
	}
	if (rc == 1) {
		free(*err);
		*err = NULL;
		c->posterior_missing = xstrdup("the calibration has no posterior.csv");
		rc = 0;
	}
	free(path);
	return rc;
}

/* ------------------------------------------------------------------- folder */

rep_cal *rep_cal_load(const char *dir, char **err, int *bad)
{
	rep_cal *c = xcalloc(1, sizeof *c);
	c->dir = xstrdup(dir);
	c->label = rep_run_label(dir);
	c->coverage = -1;
	*bad = 1;
	/* history.csv through the run reader's streaming; its rep_run is only the folder. */
	rep_run r = {.dir = c->dir};
	if (load_json(c, err, bad) < 0 ||
	    (!c->bayes && rep_run_stream(&r, "history.csv", history_cols, H_NCOLS, H_NCOLS, &c->history_missing,
	                                 add_eval, c, err) < 0) ||
	    (c->bayes && load_posterior(c, err) < 0)) {
		rep_cal_free(c);
		return NULL;
	}
	if (c->bayes)
		c->history_missing = xstrdup("a Bayesian calibration has no history.csv");
	return c;
}

void rep_cal_free(rep_cal *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->params.len; i++) {
		free(c->params.ptr[i].name);
		free(c->params.ptr[i].unit);
	}
	VEC_FREE(&c->params);
	for (size_t i = 0; i < c->points.len; i++) {
		free(c->points.ptr[i].bench);
		free(c->points.ptr[i].sobol);
	}
	VEC_FREE(&c->points);
	for (size_t i = 0; i < c->predicted.len; i++)
		free(c->predicted.ptr[i]);
	VEC_FREE(&c->predicted);
	for (size_t i = 0; i < c->levels.len; i++) {
		free(c->levels.ptr[i].name);
		VEC_FREE(&c->levels.ptr[i].evals);
	}
	VEC_FREE(&c->levels);
	char *texts[] = {c->dir, c->label, c->command, c->version, c->status, c->spec, c->method, c->history_missing,
	                 c->posterior_missing};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		free(texts[i]);
	free(c);
}

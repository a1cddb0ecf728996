/*
 * spec.c - reading a calibration spec (see spec.h, doc/calibration.md).
 */
#include "calib/spec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sysconf.h"
#include "base/util.h"
#include "runtime/net/netfactory.h"
#include "runtime/task/driver.h"
#include "runtime/task/workload.h"

#define CAL_SECTION "calibration"

/* Prefixes *err with the spec location of [section] key. Returns -1. */
static int at(const sysconf_t *c, const char *section, const char *key, char **err)
{
	char *m = xasprintf("%s: %s", key ? sysconf_where(c, section, key) : sysconf_section_where(c, section), *err);
	free(*err);
	*err = m;
	return -1;
}

/* Splits text at commas or blanks into a NULL-terminated heap list of heap words. */
static char **words(const char *text, const char *seps, int *n)
{
	VEC(char *) v = {0};
	for (const char *p = text; *p;) {
		p += strspn(p, seps);
		size_t len = strcspn(p, seps);
		if (len)
			VEC_PUSH(&v, xstrndup(p, len));
		p += len;
	}
	*n = (int)v.len;
	VEC_PUSH(&v, NULL);
	return v.ptr;
}

static void free_words(char **w)
{
	for (char **p = w; p && *p; p++)
		free(*p);
	free(w);
}

/* A file named by the spec: next to it when relative. */
static char *near_file(const char *dir, const char *name)
{
	return name[0] == '/' || !dir ? xstrdup(name) : xasprintf("%s/%s", dir, name);
}

/* The optional unsigned integer [S] key into *out, within [min, max]. */
static int count(const sysconf_t *c, const char *S, const char *key, uint64_t min, uint64_t max, uint64_t *out,
                 char **err)
{
	int64_t v = (int64_t)*out;
	if (sysconf_int(c, S, key, &v, err) < 0)
		return -1;
	if (v < (int64_t)min || (uint64_t)v > max) {
		*err = xasprintf("%s: %s must be between %llu and %llu", sysconf_where(c, S, key), key,
		                 (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* The optimizer's settings of [calibration]. */
static int optimizer(const sysconf_t *c, cal_spec *s, char **err)
{
	const char *name = "tpe";
	if (sysconf_string(c, CAL_SECTION, "optimizer", &name, err) < 0)
		return -1;
	if (!cal_optim_known(name)) {
		*err = xasprintf("%s: unknown optimizer '%s' (%s)", sysconf_where(c, CAL_SECTION, "optimizer"), name,
		                 cal_optim_names());
		return -1;
	}
	s->optimizer = xstrdup(name);
	s->opt.name = s->optimizer;
	const char *refine = NULL;
	if (sysconf_string(c, CAL_SECTION, "refine", &refine, err) > 0) {
		if (strcmp(refine, "neldermead") && strcmp(refine, "sbplx") && strcmp(refine, "bobyqa")) {
			*err = xasprintf("%s: refine must be a local algorithm: neldermead, sbplx or bobyqa",
			                 sysconf_where(c, CAL_SECTION, "refine"));
			return -1;
		}
		s->refine = xstrdup(refine);
	}
	s->refine_share = 0.5;
	if (sysconf_double(c, CAL_SECTION, "refine_share", &s->refine_share, err) < 0)
		return -1;
	if (!(s->refine_share > 0 && s->refine_share < 1)) {
		*err = xasprintf("%s: refine_share must be between 0 and 1", sysconf_where(c, CAL_SECTION, "refine_share"));
		return -1;
	}
	uint64_t v[6] = {s->opt.seed, s->opt.budget, s->opt.batch, s->opt.starts, s->opt.startup, s->opt.gamma_cap};
	if (count(c, CAL_SECTION, "seed", 0, INT64_MAX, &v[0], err) < 0 ||
	    count(c, CAL_SECTION, "budget", 1, 10000000, &v[1], err) < 0 ||
	    count(c, CAL_SECTION, "batch", 1, 4096, &v[2], err) < 0 ||
	    count(c, CAL_SECTION, "starts", 1, 1000, &v[3], err) < 0 ||
	    count(c, CAL_SECTION, "startup", 1, 1000000, &v[4], err) < 0 ||
	    count(c, CAL_SECTION, "gamma_cap", 0, 1000000, &v[5], err) < 0)
		return -1;
	s->opt.seed = v[0];
	s->opt.budget = v[1];
	s->opt.batch = v[2];
	s->opt.starts = v[3];
	s->opt.startup = v[4];
	s->opt.gamma_cap = v[5];
	if (sysconf_double(c, CAL_SECTION, "gamma", &s->opt.gamma, err) < 0)
		return -1;
	if (!(s->opt.gamma > 0 && s->opt.gamma < 1)) {
		*err = xasprintf("%s: gamma must be between 0 and 1", sysconf_where(c, CAL_SECTION, "gamma"));
		return -1;
	}
	return 0;
}

/* The network levels of `levels` (comma separated), each one --network accepts. */
static int levels(const sysconf_t *c, cal_spec *s, const char *text, char **err)
{
	s->levels = words(text, ", \t", &s->nlevels);
	for (int i = 0; i < s->nlevels; i++)
		if (!drv_network_model(s->levels[i])) {
			*err = xasprintf("%s: unknown network model '%s' (ideal, analytic, dragonfly, hybrid)",
			                 sysconf_where(c, CAL_SECTION, "levels"), s->levels[i]);
			return -1;
		}
	if (s->nlevels == 0) {
		*err = xasprintf("%s: levels is empty", sysconf_where(c, CAL_SECTION, "levels"));
		return -1;
	}
	return 0;
}

/* The base system: a file next to the spec, else a preset or a path as given. */
static int base_system(const sysconf_t *c, const char *dir, cal_spec *s, char **err)
{
	const char *name = NULL;
	if (sysconf_string(c, CAL_SECTION, "system", &name, err) <= 0)
		return 0;
	char *near = near_file(dir, name);
	if (access(near, F_OK) == 0) {
		s->system = near;
		return 0;
	}
	free(near);
	if (!(s->system = wl_resolve_system(name, err)))
		return at(c, CAL_SECTION, "system", err);
	return 0;
}

/* A calibration edits a native system file; a CODES configuration must be translated first. */
static int native_system(const sysconf_t *c, const cal_spec *s, char **err)
{
	if (!s->system || !netf_is_codes(s->system))
		return 0;
	*err = xasprintf("%s: %s is a CODES configuration: calibration edits native system files; `ncsim netbench "
	                 "--system FILE --describe` prints the native system it runs as, to save and use instead",
	                 sysconf_where(c, CAL_SECTION, "system"), s->system);
	return -1;
}

/* Section [calibration]. */
static int settings(const sysconf_t *c, const char *dir, cal_spec *s, char **err)
{
	const char *t = NULL;
	if (base_system(c, dir, s, err) < 0 || native_system(c, s, err) < 0 || optimizer(c, s, err) < 0)
		return -1;
	if (sysconf_string(c, CAL_SECTION, "network", &t, err) > 0) {
		if (!drv_network_model(t)) {
			*err = xasprintf("%s: unknown network model '%s' (ideal, analytic, dragonfly, hybrid)",
			                 sysconf_where(c, CAL_SECTION, "network"), t);
			return -1;
		}
		s->network = xstrdup(t);
	}
	if (sysconf_string(c, CAL_SECTION, "levels", &t, err) > 0 && levels(c, s, t, err) < 0)
		return -1;
	if (sysconf_double(c, CAL_SECTION, "target", &s->target, err) < 0)
		return -1;
	if (sysconf_string(c, CAL_SECTION, "loss", &t, err) > 0 && cal_loss_parse(t, &s->loss, err) < 0)
		return at(c, CAL_SECTION, "loss", err);
	t = "joint";
	if (sysconf_string(c, CAL_SECTION, "regimes", &t, err) < 0)
		return -1;
	if (strcmp(t, "joint") && strcmp(t, "sequential")) {
		*err = xasprintf("%s: regimes must be joint or sequential", sysconf_where(c, CAL_SECTION, "regimes"));
		return -1;
	}
	s->sequential = !strcmp(t, "sequential");
	return cal_bayes_read(c, dir, &s->bayes, err);
}

/* [regime.NAME]: min and max sizes (max absent: no bound). */
static int regime(const sysconf_t *c, const char *S, cal_regime *r, char **err)
{
	uint64_t lo = 0, hi = 0;
	r->name = xstrdup(S + strlen("regime."));
	if (sysconf_size(c, S, "min", &lo, err) < 0)
		return -1;
	int has_max = sysconf_size(c, S, "max", &hi, err);
	if (has_max < 0)
		return -1;
	r->min = (double)lo;
	r->max = has_max ? (double)hi : INFINITY;
	if (!(r->min < r->max)) {
		*err = xasprintf("%s: [%s] is empty (min must be below max)", sysconf_section_where(c, S), S);
		return -1;
	}
	return 0;
}

/* The measurements of b: every file of `measured`, appended as trials. */
static int measurements(const sysconf_t *c, const char *S, const char *dir, cal_bench *b, char **err)
{
	const char *t = NULL;
	if (sysconf_string(c, S, "measured", &t, err) <= 0) {
		*err = xasprintf("%s: [%s] needs measured = FILE[, FILE...]", sysconf_section_where(c, S), S);
		return -1;
	}
	char **files = words(t, ", \t", &b->nmeasured);
	b->measured = xcalloc((size_t)b->nmeasured + 1, sizeof *b->measured);
	cal_series all = {0};
	int rc = 0;
	for (int i = 0; i < b->nmeasured && rc == 0; i++) {
		b->measured[i] = near_file(dir, files[i]);
		cal_series one;
		if ((rc = cal_series_load(b->measured[i], b->format, b->column, b->xcolumn, &one, err)) < 0)
			break;
		cal_series_append(&all, &one);
		cal_series_free(&one);
	}
	free_words(files);
	if (rc == 0)
		b->points = cal_series_points(&all, &b->npoints);
	cal_series_free(&all);
	if (rc < 0)
		return at(c, S, "measured", err);
	return 0;
}

/* A format key of [S] ("auto" when absent). */
static int format_key(const sysconf_t *c, const char *S, const char *key, enum cal_format *f, char **err)
{
	const char *t = "auto";
	if (sysconf_string(c, S, key, &t, err) < 0)
		return -1;
	int v = cal_format_parse(t);
	if (v < 0) {
		*err = xasprintf("%s: unknown format '%s' (auto, osu, ncptl, csv)", sysconf_where(c, S, key), t);
		return -1;
	}
	*f = (enum cal_format)v;
	return 0;
}

/* An optional string key of [S], copied. */
static char *opt_string(const sysconf_t *c, const char *S, const char *key, const char *dflt)
{
	const char *t = dflt;
	sysconf_string(c, S, key, &t, NULL);
	return t ? xstrdup(t) : NULL;
}

/* The simulated side of b: where and in which format a run leaves its figures. */
static int sim_side(const sysconf_t *c, const char *S, cal_bench *b, char **err)
{
	if (format_key(c, S, "sim_format", &b->sim_format, err) < 0)
		return -1;
	if (b->sim_format == CAL_FMT_AUTO)
		b->sim_format = b->format;
	b->sim_column = opt_string(c, S, "sim_column", b->column);
	b->sim_xcolumn = opt_string(c, S, "sim_xcolumn", b->xcolumn);
	const char *t = NULL;
	if (sysconf_string(c, S, "output", &t, err) > 0 && strcmp(t, "stdout") && strcmp(t, "log")) {
		*err = xasprintf("%s: output must be stdout or log", sysconf_where(c, S, "output"));
		return -1;
	}
	b->output = t ? (!strcmp(t, "log") ? CAL_OUT_LOG : CAL_OUT_STDOUT)
	              : (b->sim_format == CAL_FMT_NCPTL ? CAL_OUT_LOG : CAL_OUT_STDOUT);
	return 0;
}

/* The program of [S] and how it runs: tasks, tasks per node, options. */
static int program(const sysconf_t *c, const char *S, const char *spec, unsigned flags, cal_bench *b, char **err)
{
	const char *t = NULL;
	if (sysconf_string(c, S, "program", &t, err) <= 0) {
		*err = xasprintf("%s: [%s] needs program = NAME or FILE", sysconf_section_where(c, S), S);
		return -1;
	}
	size_t n = strlen(t);
	if (n > 2 && !strcmp(t + n - 2, ".c") && !(flags & CAL_SPEC_ALLOW_C)) {
		*err = xasprintf("%s: %s is a C skeleton: a calibration spec runs C only with --allow-backend-code "
		                 "(doc/security.md)", sysconf_where(c, S, "program"), t);
		return -1;
	}
	if (!(b->program = wl_resolve_skeleton(t, spec, err)))
		return at(c, S, "program", err);
	uint64_t ntasks = 2, k = 1;
	if (count(c, S, "tasks", 1, UINT32_MAX, &ntasks, err) < 0 || count(c, S, "tasks_per_node", 1, UINT32_MAX, &k, err) < 0)
		return -1;
	b->tasks = (uint32_t)ntasks;
	b->tasks_per_node = (uint32_t)k;
	t = "";
	sysconf_string(c, S, "args", &t, err);
	b->args = words(t, " \t", &b->nargs);
	return 0;
}

/* Section [benchmark.NAME]. */
static int benchmark(const sysconf_t *c, const char *S, const char *spec, const char *dir, unsigned flags, cal_bench *b,
                     char **err)
{
	b->name = xstrdup(S + strlen("benchmark."));
	b->weight = 1;
	b->line = 0;
	if (program(c, S, spec, flags, b, err) < 0 || format_key(c, S, "format", &b->format, err) < 0)
		return -1;
	b->column = opt_string(c, S, "column", NULL);
	b->xcolumn = opt_string(c, S, "xcolumn", NULL);
	if (sysconf_double(c, S, "weight", &b->weight, err) < 0)
		return -1;
	if (!(b->weight >= 0 && isfinite(b->weight))) {
		*err = xasprintf("%s: weight must be a finite number >= 0", sysconf_where(c, S, "weight"));
		return -1;
	}
	const char *use = "fit";
	sysconf_string(c, S, "use", &use, err);
	if (strcmp(use, "fit") && strcmp(use, "predict")) {
		*err = xasprintf("%s: use must be fit or predict", sysconf_where(c, S, "use"));
		return -1;
	}
	b->predict_only = !strcmp(use, "predict");
	if (measurements(c, S, dir, b, err) < 0)
		return -1;
	if (b->format == CAL_FMT_AUTO) {
		char *text = xread_text(b->measured[0], "measurement file", err);
		if (!text)
			return at(c, S, "measured", err);
		b->format = cal_format_guess(text);
		free(text);
	}
	return sim_side(c, S, b, err);
}

/* Section [parameters]: SECTION.KEY = range or value. */
static int parameters(const sysconf_t *c, cal_spec *s, char **err)
{
	VEC(cal_param) v = {0};
	const char *k;
	int rc = 0;
	for (size_t i = 0; rc == 0 && (k = sysconf_key_name(c, "parameters", i)); i++) {
		const char *dot = strchr(k, '.'), *text = NULL;
		sysconf_string(c, "parameters", k, &text, err);
		cal_param p = {0};
		if (!dot || dot == k || !dot[1]) {
			*err = xasprintf("%s: a parameter is SECTION.KEY (such as network.latency), not '%s'",
			                 sysconf_where(c, "parameters", k), k);
			rc = -1;
		} else if ((rc = cal_param_parse(k, text, s->regimes, s->nregimes, &p, err)) < 0) {
			at(c, "parameters", k, err);
		} else if (p.level && !drv_network_model(p.level)) {
			*err = xasprintf("%s: unknown level '%s' (ideal, analytic, dragonfly, hybrid)",
			                 sysconf_where(c, "parameters", k), p.level);
			free(p.level);
			rc = -1;
		} else {
			p.section = xstrndup(k, (size_t)(dot - k));
			p.key = xstrdup(dot + 1);
			VEC_PUSH(&v, p);
		}
	}
	s->params = v.ptr;
	s->nparams = v.len;
	return rc;
}

/* Every [regime.*], then every [benchmark.*]. */
static int sections(const sysconf_t *c, const char *spec, const char *dir, cal_spec *s, char **err)
{
	VEC(cal_regime) r = {0};
	VEC(cal_bench) b = {0};
	const char *S;
	int rc = 0;
	for (size_t i = 0; rc == 0 && (S = sysconf_section_name(c, i)); i++)
		if (!strncmp(S, "regime.", 7)) {
			VEC_PUSH(&r, (cal_regime){0});
			rc = regime(c, S, &r.ptr[r.len - 1], err);
		}
	s->regimes = r.ptr;
	s->nregimes = r.len;
	for (size_t i = 0; rc == 0 && (S = sysconf_section_name(c, i)); i++)
		if (!strncmp(S, "benchmark.", 10)) {
			VEC_PUSH(&b, (cal_bench){0});
			s->bench = b.ptr;
			s->nbench = b.len;
			rc = benchmark(c, S, spec, dir, s->flags, &b.ptr[b.len - 1], err);
		}
	s->bench = b.ptr;
	s->nbench = b.len;
	return rc;
}

/* Sections that are none of the known kinds, and what the spec lacks. */
static int completeness(const sysconf_t *c, const cal_spec *s, char **err)
{
	const char *S;
	for (size_t i = 0; (S = sysconf_section_name(c, i)); i++)
		if (strcmp(S, CAL_SECTION) && strcmp(S, "parameters") && strcmp(S, "bayes") && strncmp(S, "benchmark.", 10) &&
		    strncmp(S, "regime.", 7) && *S) {
			*err = xasprintf("%s: unknown section [%s] (calibration, benchmark.NAME, regime.NAME, parameters, bayes)",
			                 sysconf_section_where(c, S), S);
			return -1;
		}
	return sysconf_check_unused(c, err);
}

/* The network model of the base system (the built-in one is a dragonfly). */
static char *base_model(const cal_spec *s, char **err)
{
	if (!s->system)
		return xstrdup("dragonfly");
	sysconf_t *c = sysconf_load(s->system, err);
	if (!c)
		return NULL;
	const char *m = "analytic";
	sysconf_string(c, "network", "model", &m, err);
	char *r = xstrdup(m);
	sysconf_free(c);
	return r;
}

int cal_spec_ready(cal_spec *s, char **err)
{
	if (s->nparams == 0) {
		if (s->nlevels)
			for (int i = 0; i < s->nlevels; i++)
				cal_spec_default_params(s, s->levels[i], 1);
		else {
			char *m = s->network ? xstrdup(s->network) : base_model(s, err);
			if (!m)
				return -1;
			cal_spec_default_params(s, m, 0);
			free(m);
		}
	}
	size_t fitted = 0, nfree = 0;
	for (size_t i = 0; i < s->nbench; i++)
		fitted += !s->bench[i].predict_only;
	for (size_t i = 0; i < s->nparams; i++)
		nfree += !s->params[i].fixed;
	if (fitted == 0 || nfree == 0) {
		*err = xasprintf("%s: nothing to fit: the spec needs a [benchmark.NAME] with use = fit and a free "
		                 "parameter (SECTION.KEY = LO:HI in [parameters])", s->path);
		return -1;
	}
	return 0;
}

int cal_spec_parse(const char *name, const char *text, const char *dir, unsigned flags, cal_spec *s, char **err)
{
	int fit = flags & CAL_SPEC_FIT;
	memset(s, 0, sizeof *s);
	s->flags = flags;
	s->path = xstrdup(name);
	s->loss = (cal_loss){CAL_LOSS_RMSPE, 0.1};
	cal_optcfg_default(&s->opt);
	cal_bayes_default(&s->bayes);
	sysconf_t *c = sysconf_parse(name, text, err);
	if (!c) {
		cal_spec_free(s);
		return -1;
	}
	int rc = settings(c, dir, s, err);
	if (rc == 0)
		rc = sections(c, name, dir, s, err);
	if (rc == 0)
		rc = parameters(c, s, err);
	if (rc == 0)
		rc = completeness(c, s, err);
	sysconf_free(c);
	if (rc == 0 && fit)
		rc = cal_spec_ready(s, err);
	if (rc == 0 && !fit && s->nbench == 0) {
		*err = xasprintf("%s: no benchmark ([benchmark.NAME] or --bench)", name);
		rc = -1;
	}
	if (rc < 0)
		cal_spec_free(s);
	return rc;
}

int cal_spec_load(const char *path, cal_spec *s, char **err)
{
	memset(s, 0, sizeof *s);
	char *text = xread_text(path, "calibration spec", err);
	if (!text)
		return -1;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : NULL;
	int rc = cal_spec_parse(path, text, dir, CAL_SPEC_FIT, s, err);
	free(dir);
	free(text);
	return rc;
}

static void bench_free(cal_bench *b)
{
	free(b->name);
	free(b->program);
	free_words(b->args);
	for (int i = 0; b->measured && i < b->nmeasured; i++)
		free(b->measured[i]);
	free(b->measured);
	free(b->column);
	free(b->xcolumn);
	free(b->sim_column);
	free(b->sim_xcolumn);
	free(b->points);
}

void cal_spec_free(cal_spec *s)
{
	for (size_t i = 0; i < s->nbench; i++)
		bench_free(&s->bench[i]);
	free(s->bench);
	for (size_t i = 0; i < s->nregimes; i++)
		free(s->regimes[i].name);
	free(s->regimes);
	for (size_t i = 0; i < s->nparams; i++) {
		free(s->params[i].section);
		free(s->params[i].key);
		free(s->params[i].level);
	}
	free(s->params);
	free_words(s->levels);
	free(s->path);
	free(s->system);
	free(s->network);
	free(s->optimizer);
	free(s->refine);
	cal_bayes_cfg_free(&s->bayes);
	memset(s, 0, sizeof *s);
}

size_t cal_spec_free_params(const cal_spec *s, const char *level, int regime, int shared, size_t *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nparams; i++) {
		const cal_param *p = &s->params[i];
		if (!p->fixed && cal_param_applies(p, level) &&
		    (regime < 0 || p->regime == regime || (shared && p->regime < 0)))
			idx[n++] = i;
	}
	return n;
}

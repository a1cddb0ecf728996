/*
 * param.c - calibration parameters: ranges with units, scales, and the
 * values written back into system files (see spec.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "calib/spec.h"

static const char *const kind_names[] = {"a plain number", "an integer", "a time", "a bandwidth", "a size"};

/* The kind and base-unit value of one value text ("100 ns", "10 GB/s", "4 KiB", "64", "0.5"). */
static int value_kind(const char *s, enum cal_kind *kind, double *v, const char **why)
{
	const char *end;
	double num;
	while (isspace((unsigned char)*s))
		s++;
	if (!units_number(s, &num, &end)) {
		*why = "not a number";
		return -1;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (!*end) {
		*kind = strpbrk(s, ".eE") ? CAL_PLAIN : CAL_INT;
		*v = num;
		return 0;
	}
	ncsim_time_t ps;
	uint64_t bytes;
	if (units_time(s, UNITS_PS, &ps, why) == 0) {
		*kind = CAL_TIME;
		*v = (double)ps;
	} else if (units_bandwidth(s, UNITS_BYTES_PER_S, v, why) == 0) {
		*kind = CAL_BANDWIDTH;
	} else if (units_size(s, UNITS_BYTES, &bytes, why) == 0) {
		*kind = CAL_SIZE;
		*v = (double)bytes;
	} else {
		*why = "unknown unit (times: ps..s, bandwidths: B/s, GB/s, Gbps, sizes: B, KiB, MB)";
		return -1;
	}
	return 0;
}

/* t without its trailing blanks (cut in place). */
static char *trim_end(char *t)
{
	size_t n = strlen(t);
	while (n && isspace((unsigned char)t[n - 1]))
		t[--n] = '\0';
	return t;
}

/* Drops the modifiers at the end of t (a heap copy, cut in place): log, linear, regime=NAME,
 * level=MODEL, prior=PRIOR (its text into *prior, parsed once the range gives the unit). */
static int modifiers(char *t, cal_param *p, const cal_regime *regimes, size_t nregimes, const char **prior,
                     char **err)
{
	for (;;) {
		char *w = trim_end(t);
		w += strlen(w);
		while (w > t && !isspace((unsigned char)w[-1]))
			w--;
		if (w == t)
			return 0;
		if (!strcmp(w, "log") || !strcmp(w, "linear")) {
			p->log = !strcmp(w, "log");
		} else if (!strncmp(w, "prior=", 6)) {
			*prior = w + 6;
		} else if (!strncmp(w, "level=", 6)) {
			free(p->level);
			p->level = xstrdup(w + 6);
		} else if (!strncmp(w, "regime=", 7)) {
			size_t r = 0;
			while (r < nregimes && strcmp(regimes[r].name, w + 7))
				r++;
			if (r == nregimes) {
				*err = xasprintf("unknown regime '%s' (declare it as [regime.%s])", w + 7, w + 7);
				return -1;
			}
			p->regime = (int)r;
		} else {
			return 0;
		}
		*w = '\0';
	}
}

/* The range "LO:HI" of p, in t. */
static int range(const char *name, char *t, char *colon, cal_param *p, char **err)
{
	*colon = '\0';
	trim_end(t);
	enum cal_kind klo, khi;
	const char *why;
	if (value_kind(t, &klo, &p->lo, &why) < 0 || value_kind(colon + 1, &khi, &p->hi, &why) < 0) {
		*err = xasprintf("%s: range '%s:%s': %s", name, t, colon + 1, why);
		return -1;
	}
	/* A bare 0 takes the other end's unit ("0:2us"). */
	if (klo != khi && (klo == CAL_INT && p->lo == 0))
		klo = khi;
	if (klo != khi && (khi == CAL_INT && p->hi == 0))
		khi = klo;
	if (klo == CAL_INT && khi == CAL_PLAIN)
		klo = CAL_PLAIN;
	if (khi == CAL_INT && klo == CAL_PLAIN)
		khi = CAL_PLAIN;
	if (klo != khi) {
		*err = xasprintf("%s: the range's ends are %s and %s", name, kind_names[klo], kind_names[khi]);
		return -1;
	}
	p->kind = klo;
	if (!(p->lo < p->hi)) {
		*err = xasprintf("%s: empty range (the low end must be below the high end)", name);
		return -1;
	}
	if (p->log && !(p->lo > 0)) {
		*err = xasprintf("%s: a log scale needs a positive low end", name);
		return -1;
	}
	p->value = cal_param_at(p, 0.5);
	return 0;
}

/* One value of a prior's arguments, in p's unit (a plain number is in p's base unit). */
static int prior_value(const char *name, const char *s, const cal_param *p, int plain, double *v, char **err)
{
	enum cal_kind k;
	const char *why;
	if (value_kind(s, &k, v, &why) < 0 || (plain ? k > CAL_INT : k != p->kind && k > CAL_INT)) {
		*err = xasprintf("%s: prior argument '%s': %s", name, s, plain ? "expected a number" : "not in the range's unit");
		return -1;
	}
	return 0;
}

/* prior=uniform | loguniform | normal(MEAN,SD) | lognormal(MEDIAN,SIGMA). */
static int prior_parse(const char *name, const char *text, cal_param *p, char **err)
{
	static const char *const names[] = {"uniform", "loguniform", "normal(", "lognormal("};
	int k = 0;
	while (k < 4 && strncmp(text, names[k], strlen(names[k])))
		k++;
	const char *args = k < 4 ? text + strlen(names[k]) : NULL;
	size_t n = args ? strlen(args) : 0;
	if (k >= 2 && n && args[n - 1] == ')' && !strchr(args, ',')) {
		*err = xasprintf("%s: prior '%s' needs two arguments: %s", name, text,
		                 k == 2 ? "normal(MEAN,SD)" : "lognormal(MEDIAN,SIGMA)");
		return -1;
	}
	if (k == 4 || (k < 2 && *args) || (k >= 2 && (n < 4 || args[n - 1] != ')' || !strchr(args, ',')))) {
		*err = xasprintf("%s: unknown prior '%s' (uniform, loguniform, normal(MEAN,SD), lognormal(MEDIAN,SIGMA))",
		                 name, text);
		return -1;
	}
	p->prior = (enum cal_prior)(CAL_PRIOR_UNIFORM + k);
	if ((k == 1 || k == 3) && !(p->lo > 0)) {
		*err = xasprintf("%s: a %s prior needs a positive low end", name, k == 1 ? "log-uniform" : "log-normal");
		return -1;
	}
	if (k < 2)
		return 0;
	char *a = xstrndup(args, n - 1), *comma = strchr(a, ',');
	*comma = '\0';
	int rc = prior_value(name, a, p, 0, &p->prior_a, err);
	if (rc == 0)
		rc = prior_value(name, comma + 1, p, k == 3, &p->prior_b, err);
	free(a);
	if (rc == 0 && !(p->prior_b > 0 && (k == 2 || p->prior_a > 0))) {
		*err = xasprintf("%s: prior '%s': the spread%s must be positive", name, text, k == 3 ? " and the median" : "");
		rc = -1;
	}
	return rc;
}

int cal_param_parse(const char *name, const char *text, const cal_regime *regimes, size_t nregimes,
                    cal_param *p, char **err)
{
	p->log = 0;
	p->regime = -1;
	p->fixed = 0;
	p->level = NULL;
	p->prior = CAL_PRIOR_SCALE;
	char *t = xstrdup(text);
	const char *prior = NULL;
	int rc = modifiers(t, p, regimes, nregimes, &prior, err);
	char *colon = strchr(t, ':');
	if (rc == 0 && colon) {
		rc = range(name, t, colon, p, err);
		if (rc == 0 && prior)
			rc = prior_parse(name, prior, p, err);
	} else if (rc == 0) {
		const char *why;
		p->fixed = 1;
		if (value_kind(t, &p->kind, &p->value, &why) < 0) {
			*err = xasprintf("%s: '%s': %s (a range is LO:HI)", name, t, why);
			rc = -1;
		}
		p->lo = p->hi = p->value;
	}
	free(t);
	if (rc < 0) {
		free(p->level);
		p->level = NULL;
	}
	return rc;
}

int cal_param_applies(const cal_param *p, const char *level)
{
	if (!p->level)
		return 1;
	return level && (!strcmp(p->level, level) || (!strcmp(p->level, "dragonfly") && !strcmp(level, "packet")));
}

double cal_param_at(const cal_param *p, double u)
{
	if (p->fixed)
		return p->value;
	u = u < 0 ? 0 : u > 1 ? 1 : u;
	double v = p->log ? exp(log(p->lo) + u * (log(p->hi) - log(p->lo))) : p->lo + u * (p->hi - p->lo);
	return p->kind == CAL_INT || p->kind == CAL_SIZE || p->kind == CAL_TIME ? round(v) : v;
}

double cal_param_coord(const cal_param *p, double v)
{
	if (p->fixed || !(p->hi > p->lo))
		return 0.5;
	double u = p->log ? (log(v) - log(p->lo)) / (log(p->hi) - log(p->lo)) : (v - p->lo) / (p->hi - p->lo);
	return u < 0 || u != u ? 0 : u > 1 ? 1 : u;
}

double cal_param_simulated(const cal_param *p, double u)
{
	char buf[64];
	cal_param_format(p, cal_param_at(p, u), buf, sizeof buf);
	return strtod(buf, NULL);
}

void cal_param_format(const cal_param *p, double v, char *buf, size_t n)
{
	switch (p->kind) {
	case CAL_TIME:
		snprintf(buf, n, "%.0f ps", v);
		break;
	case CAL_BANDWIDTH:
		snprintf(buf, n, "%.10g B/s", v);
		break;
	case CAL_SIZE:
		snprintf(buf, n, "%.0f B", v);
		break;
	case CAL_INT:
		snprintf(buf, n, "%.0f", v);
		break;
	default:
		snprintf(buf, n, "%.10g", v);
	}
}

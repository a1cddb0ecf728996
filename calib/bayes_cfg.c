/*
 * bayes_cfg.c - the [bayes] section of a calibration spec (see bayes_cfg.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "base/util.h"
#include "calib/bayes_cfg.h"

#define S "bayes"

void cal_bayes_default(cal_bayes_cfg *b)
{
	*b = (cal_bayes_cfg){.mode = CAL_BAYES_AUTO, .samples = 100000, .chains = 4, .thin = 10,
	                     .direct_budget = 4000, .holdout = 0.2, .max_error = 0.05, .disc_lo = 1e-4, .disc_hi = 0.5, .refine = 1};
}

void cal_bayes_cfg_free(cal_bayes_cfg *b)
{
	free(b->design_file);
	b->design_file = NULL;
}

/* The optional count key into *out, within [min, max]. */
static int count(const sysconf_t *c, const char *key, size_t min, size_t max, size_t *out, char **err)
{
	int64_t v = (int64_t)*out;
	if (sysconf_int(c, S, key, &v, err) < 0)
		return -1;
	if (v < (int64_t)min || (uint64_t)v > max) {
		*err = xasprintf("%s: %s must be between %zu and %zu", sysconf_where(c, S, key), key, min, max);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

/* The optional real key into *out, within [min, max]. */
static int real(const sysconf_t *c, const char *key, double min, double max, double *out, char **err)
{
	if (sysconf_double(c, S, key, out, err) < 0)
		return -1;
	if (!(*out >= min && *out <= max)) {
		*err = xasprintf("%s: %s must be between %g and %g", sysconf_where(c, S, key), key, min, max);
		return -1;
	}
	return 0;
}

/* discrepancy = LO:HI (a log-uniform prior), or 0. */
static int discrepancy(const sysconf_t *c, cal_bayes_cfg *b, char **err)
{
	const char *t;
	if (sysconf_string(c, S, "discrepancy", &t, err) <= 0)
		return 0;
	char *end;
	double lo = strtod(t, &end), hi = lo;
	while (*end == ' ' || *end == '\t')
		end++;
	if (end != t && *end == ':')
		hi = strtod(end + 1, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == t || *end || !(lo == 0 && hi == 0 ? 1 : lo > 0 && hi > lo && hi <= 10)) {
		*err = xasprintf("%s: discrepancy must be LO:HI with 0 < LO < HI <= 10 (a share of the measured value), or 0",
		                 sysconf_where(c, S, "discrepancy"));
		return -1;
	}
	b->disc_lo = lo;
	b->disc_hi = hi;
	return 0;
}

static int mode(const sysconf_t *c, cal_bayes_cfg *b, char **err)
{
	const char *t;
	if (sysconf_string(c, S, "mode", &t, err) <= 0)
		return 0;
	static const char *const names[] = {"auto", "pce", "direct"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(t, names[i])) {
			b->mode = (enum cal_bayes_mode)i;
			return 0;
		}
	*err = xasprintf("%s: mode must be auto, pce or direct", sysconf_where(c, S, "mode"));
	return -1;
}

int cal_bayes_read(const sysconf_t *c, const char *dir, cal_bayes_cfg *b, char **err)
{
	if (!sysconf_has_section(c, S))
		return 0;
	b->on = 1;
	const char *file;
	if (mode(c, b, err) < 0 || discrepancy(c, b, err) < 0 ||
	    count(c, "design", 0, 100000, &b->design, err) < 0 || count(c, "degree", 0, 12, &b->degree, err) < 0 ||
	    count(c, "samples", CAL_BAYES_MIN_SAMPLES, 100000000, &b->samples, err) < 0 || count(c, "chains", 1, 64, &b->chains, err) < 0 ||
	    count(c, "walkers", 0, 100000, &b->walkers, err) < 0 || count(c, "thin", 1, 10000, &b->thin, err) < 0 ||
	    count(c, "burn", 0, 100000000, &b->burn, err) < 0 ||
	    count(c, "direct_budget", 10, 100000000, &b->direct_budget, err) < 0 ||
	    real(c, "holdout", 0.05, 1, &b->holdout, err) < 0 || real(c, "max_error", 0, 10, &b->max_error, err) < 0 ||
	    count(c, "pilot", 0, 100000000, &b->pilot, err) < 0 || sysconf_bool(c, S, "refine", &b->refine, err) < 0)
		return -1;
	if (b->walkers && b->walkers % 2) {
		*err = xasprintf("%s: walkers must be even (each half of an ensemble moves against the other)",
		                 sysconf_where(c, S, "walkers"));
		return -1;
	}
	if (sysconf_string(c, S, "design_file", &file, err) > 0) {
		free(b->design_file);
		b->design_file = file[0] == '/' || !dir ? xstrdup(file) : xasprintf("%s/%s", dir, file);
	}
	return 0;
}

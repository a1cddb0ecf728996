/*
 * traffic_cdf.c - step CDFs of message sizes (see traffic_cdf.h).
 */
#include "config.h"

#include "runtime/traffic/cdf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/util.h"

static const struct {
	const char *name, *file;
} models[TCDF_NMODELS] = {
	{"WEB_SEARCH", "web_search.cdf"},
	{"FB_KEY_VALUE", "fb_key_value.cdf"},
	{"FB_CACHE_FOLLOWER", "fb_cache_follower.cdf"},
	{"FB_WEB_SERVER", "fb_web_server.cdf"},
	{"FB_HADOOP", "fb_hadoop.cdf"},
	{"GOOGLE_ALL", "google_all.cdf"},
	{"GOOGLE_SEARCH", "google_search.cdf"},
};

const char *trf_cdf_model_name(int i) { return models[i].name; }
const char *trf_cdf_model_file(int i) { return models[i].file; }

int trf_cdf_model_index(const char *name)
{
	for (int i = 0; i < TCDF_NMODELS; i++)
		if (!strcasecmp(name, models[i].name))
			return i;
	return -1;
}

char *trf_cdf_model_path(int i)
{
	/* The source tree first: a build that is not installed still finds its tables. */
	char *p = xasprintf("%s/stdlib/traffic/%s", NCSIM_SRCDIR, models[i].file);
	struct stat st;
	if (stat(p, &st) == 0)
		return p;
	free(p);
	return xasprintf("%s/stdlib/traffic/%s", NCSIM_PKGDATADIR, models[i].file);
}

/* ------------------------------------------------------------ parsing */

/* Parses a finite number at *s (strtod syntax); advances *s. 0, or -1. */
static int number(const char **s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(*s, &end);
	if (end == *s || errno == ERANGE || !isfinite(*v))
		return -1;
	if (*end && !isspace((unsigned char)*end))
		return -1;
	*s = end;
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

tcdf *trf_cdf_parse(const char *path, const char *text, char **err)
{
	tcdf *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	VEC(uint64_t) sz = {0};
	VEC(double) cp = {0};
	int line = 0, have_mean = 0;
	const char *p = text;
	*err = NULL;
	while (*p && !*err) {
		line++;
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *ln = xstrndup(p, len);
		p = eol ? eol + 1 : p + len;
		const char *s = skip_blanks(ln);
		if (*s == '\0' || *s == '#') {
			free(ln);
			continue;
		}
		double a, b;
		if (!have_mean) {
			if (number(&s, &a) < 0 || *skip_blanks(s) || a <= 0)
				*err = xasprintf("%s:%d: expected the mean message size in bytes (one positive number)",
				                 path, line);
			c->stated_mean = a;
			have_mean = 1;
		} else if (number(&s, &a) < 0 || (s = skip_blanks(s), number(&s, &b) < 0) || *skip_blanks(s)) {
			*err = xasprintf("%s:%d: expected `size_bytes cumulative_probability` (two numbers)", path, line);
		} else if (a < 0 || a != floor(a) || a > 1e18) {
			*err = xasprintf("%s:%d: the size must be a non-negative whole number of bytes", path, line);
		} else if (b < 0 || b > 1) {
			*err = xasprintf("%s:%d: the cumulative probability must lie in [0, 1]", path, line);
		} else if (sz.len && (uint64_t)a < sz.ptr[sz.len - 1]) {
			*err = xasprintf("%s:%d: sizes must not decrease (%.0f after %" PRIu64 ")", path, line, a,
			                 sz.ptr[sz.len - 1]);
		} else if (cp.len && b < cp.ptr[cp.len - 1]) {
			*err = xasprintf("%s:%d: cumulative probabilities must not decrease (%g after %g)", path, line, b,
			                 cp.ptr[cp.len - 1]);
		} else if (sz.len && (uint64_t)a == sz.ptr[sz.len - 1]) {
			cp.ptr[cp.len - 1] = b; /* a repeated size: its last probability counts */
		} else {
			VEC_PUSH(&sz, (uint64_t)a);
			VEC_PUSH(&cp, b);
		}
		free(ln);
	}
	if (!*err && !have_mean)
		*err = xasprintf("%s:%d: empty file: expected the mean message size on the first line", path, line);
	else if (!*err && sz.len == 0)
		*err = xasprintf("%s:%d: expected at least one `size_bytes cumulative_probability` line", path, line);
	else if (!*err && fabs(cp.ptr[cp.len - 1] - 1.0) > 1e-9)
		*err = xasprintf("%s:%d: the last cumulative probability is %g, expected 1", path, line,
		                 cp.ptr[cp.len - 1]);
	if (*err) {
		free(sz.ptr);
		free(cp.ptr);
		trf_cdf_free(c);
		return NULL;
	}
	c->n = sz.len;
	c->size = sz.ptr;
	c->cum = cp.ptr;
	c->cum[c->n - 1] = 1.0;
	double prev = 0, mean = 0;
	for (size_t i = 0; i < c->n; i++) {
		mean += (double)c->size[i] * (c->cum[i] - prev);
		prev = c->cum[i];
	}
	c->mean = mean;
	if (mean <= 0 || fabs(c->stated_mean - mean) > 0.01 * mean) {
		*err = xasprintf("%s:1: the stated mean %g differs from the table's mean %g by more than 1%%", path,
		                 c->stated_mean, mean);
		trf_cdf_free(c);
		return NULL;
	}
	return c;
}

tcdf *trf_cdf_load(const char *path, char **err)
{
	char *text = xread_text(path, "the CDF file", err);
	if (!text)
		return NULL;
	tcdf *c = trf_cdf_parse(path, text, err);
	free(text);
	return c;
}

void trf_cdf_free(tcdf *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->size);
	free(c->cum);
	free(c);
}

uint64_t trf_cdf_draw(const tcdf *c, double u)
{
	size_t lo = 0, hi = c->n - 1; /* cum[n-1] = 1 >= u, so the answer lies in [lo, hi] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->cum[mid] >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return c->size[lo];
}

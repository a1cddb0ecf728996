/*
 * bayes_io.c - design.csv and the parameter columns of posterior.csv (see bayes_io.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/bayes_io.h"
#include "calib/propagate.h"
#include "runtime/stats/outfile.h"

/* design.csv holds at most this many runs (a bound on what a shared file can make us allocate). */
#define DESIGN_MAX_RUNS 1000000u

int cal_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

const char *cal_bayes_unit(const cal_param *p)
{
	/* The names ncsim run --posterior reads back. */
	return cal_prop_unit(p->kind);
}

/* "SECTION.KEY [UNIT]" of p into buf. */
static void column_name(const cal_param *p, char *buf, size_t n)
{
	const char *u = cal_bayes_unit(p);
	snprintf(buf, n, "%s.%s%s%s%s", p->section, p->key, *u ? " [" : "", u, *u ? "]" : "");
}

void cal_bayes_param_header(const cal_bayes *b, FILE *f)
{
	char name[200];
	for (size_t j = 0; j < b->dim; j++) {
		column_name(&b->s->params[b->idx[j]], name, sizeof name);
		fprintf(f, ",%s", name);
	}
}

/* "BENCH@X" of output o into buf. */
static void output_name(const cal_bayes *b, size_t o, char *buf, size_t n)
{
	const cal_bench *B = &b->s->bench[b->out[o].bench];
	snprintf(buf, n, "%s@%.10g", B->name, B->points[b->out[o].point].x);
}

static void design_rows(const cal_bayes *b, FILE *f, const double *u, const double *y, size_t n, const char *set,
                        size_t *run)
{
	for (size_t i = 0; i < n; i++, (*run)++) {
		fprintf(f, "%zu,%s", *run, set);
		for (size_t j = 0; j < b->dim; j++)
			fprintf(f, ",%.17g", cal_param_simulated(&b->s->params[b->idx[j]], u[i * b->dim + j]));
		for (size_t o = 0; o < b->nout; o++)
			fprintf(f, ",%.17g", y[i * b->nout + o]);
		fputc('\n', f);
	}
}

int cal_bayes_write_design(const cal_bayes *b, char **err)
{
	char *path = xasprintf("%s/design.csv", b->dir.staging), name[200];
	outfile *of = outfile_open(path, 0, err);
	free(path);
	if (!of)
		return -1;
	FILE *f = outfile_stream(of);
	fprintf(f, "# ncsim calibrate --bayes %s: %zu + %zu runs over the prior ranges, %zu + %zu in the posterior "
	           "region (reuse with --design)\n", b->s->path, b->global.ntrain, b->global.ntest, b->local.ntrain,
	        b->local.ntest);
	fprintf(f, "run,set");
	cal_bayes_param_header(b, f);
	for (size_t o = 0; o < b->nout; o++) {
		output_name(b, o, name, sizeof name);
		fprintf(f, ",%s", name);
	}
	fputc('\n', f);
	size_t run = 0;
	design_rows(b, f, b->global.u_train, b->global.y_train, b->global.ntrain, "train", &run);
	design_rows(b, f, b->global.u_test, b->global.y_test, b->global.ntest, "test", &run);
	design_rows(b, f, b->local.u_train, b->local.y_train, b->local.ntrain, "local-train", &run);
	design_rows(b, f, b->local.u_test, b->local.y_test, b->local.ntest, "local-test", &run);
	if (ferror(f)) {
		outfile_abort(of);
		*err = xstrdup("design.csv: cannot write");
		return -1;
	}
	return outfile_commit(of, err);
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
	const cal_bayes *b;
	const char *path;
	int line;
	VEC(double) u[4], y[4];   /* train, test, local-train, local-test */
} reader;

/* The next field of a row (cut in place), or NULL at the end. */
static char *field(char **p)
{
	if (!*p)
		return NULL;
	char *f = *p, *c = strchr(f, ',');
	if (c) {
		*c = '\0';
		*p = c + 1;
	} else {
		*p = NULL;
	}
	return f;
}

/* The header must name b's parameters and outputs, in order. */
static int header(reader *r, char *row, char **err)
{
	const cal_bayes *b = r->b;
	char want[200], *f;
	if (!(f = field(&row)) || strcmp(f, "run") || !(f = field(&row)) || strcmp(f, "set"))
		goto bad;
	for (size_t k = 0; k < b->dim + b->nout; k++) {
		if (k < b->dim)
			column_name(&b->s->params[b->idx[k]], want, sizeof want);
		else
			output_name(b, k - b->dim, want, sizeof want);
		if (!(f = field(&row)) || strcmp(f, want)) {
			*err = xasprintf("%s:%d: column %zu is '%s', the spec needs '%s' (a design of other parameters or "
			                 "measurements cannot be reused)", r->path, r->line, k + 3, f ? f : "(none)", want);
			return -1;
		}
	}
	if (!row)
		return 0;
bad:
	*err = xasprintf("%s:%d: expected the header run,set,PARAMETERS...,BENCH@X... of a design.csv", r->path, r->line);
	return -1;
}

/* One number field. */
static int number(reader *r, char **row, size_t col, double *v, char **err)
{
	char *f = field(row), *end;
	*v = f ? strtod(f, &end) : NAN;
	if (!f || end == f || *end || !isfinite(*v)) {
		*err = xasprintf("%s:%d: field %zu: %s", r->path, r->line, col, f ? "not a finite number" : "missing");
		return -1;
	}
	return 0;
}

static int data_row(reader *r, char *row, char **err)
{
	const cal_bayes *b = r->b;
	double v;
	char *f;
	if (number(r, &row, 1, &v, err) < 0)
		return -1;
	f = field(&row);
	static const char *const sets[] = {"train", "test", "local-train", "local-test"};
	int set = 0;
	while (set < 4 && (!f || strcmp(f, sets[set])))
		set++;
	if (set == 4) {
		*err = xasprintf("%s:%d: set must be train, test, local-train or local-test", r->path, r->line);
		return -1;
	}
	for (size_t j = 0; j < b->dim; j++) {
		const cal_param *p = &b->s->params[b->idx[j]];
		if (number(r, &row, j + 3, &v, err) < 0)
			return -1;
		double tol = 1e-9 * fmax(fabs(p->lo), fabs(p->hi)) + 0.5;
		if (v < p->lo - tol || v > p->hi + tol) {
			*err = xasprintf("%s:%d: %s.%s = %g is outside the spec's range", r->path, r->line, p->section, p->key, v);
			return -1;
		}
		VEC_PUSH(&r->u[set], cal_param_coord(p, v));
	}
	for (size_t o = 0; o < b->nout; o++) {
		if (number(r, &row, b->dim + o + 3, &v, err) < 0)
			return -1;
		VEC_PUSH(&r->y[set], v);
	}
	if (row) {
		*err = xasprintf("%s:%d: more fields than the header", r->path, r->line);
		return -1;
	}
	return 0;
}

static int parse(reader *r, char *text, char **err)
{
	int seen_header = 0;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r->line++;
		size_t n = strlen(line);
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if (!*line || *line == '#')
			continue;
		int rc = seen_header ? data_row(r, line, err) : header(r, line, err);
		if (rc < 0)
			return -1;
		seen_header = 1;
		if (r->y[0].len + r->y[1].len + r->y[2].len + r->y[3].len >
		    (size_t)DESIGN_MAX_RUNS * (r->b->nout ? r->b->nout : 1)) {
			*err = xasprintf("%s:%d: more than %u runs", r->path, r->line, DESIGN_MAX_RUNS);
			return -1;
		}
	}
	if (!r->y[0].len) {
		*err = xasprintf("%s: no training run", r->path);
		return -1;
	}
	if (!r->y[1].len) {
		*err = xasprintf("%s: no held-out run (set test): the surrogate's error could not be measured", r->path);
		return -1;
	}
	return 0;
}

/* Sets k (train) and k + 1 (test) of r into d. */
static void take(const cal_bayes *b, reader *r, int k, cal_design *d)
{
	d->u_train = r->u[k].ptr;
	d->u_test = r->u[k + 1].ptr;
	d->y_train = r->y[k].ptr;
	d->y_test = r->y[k + 1].ptr;
	d->ntrain = b->nout ? r->y[k].len / b->nout : 0;
	d->ntest = b->nout ? r->y[k + 1].len / b->nout : 0;
}

int cal_bayes_read_design(cal_bayes *b, const char *path, char **err)
{
	char *text = xread_text(path, "design file", err);
	if (!text)
		return -1;
	reader r = {.b = b, .path = path};
	int rc = parse(&r, text, err);
	free(text);
	if (rc == 0) {
		take(b, &r, 0, &b->global);
		take(b, &r, 2, &b->pool);
		return 0;
	}
	for (int k = 0; k < 4; k++) {
		VEC_FREE(&r.u[k]);
		VEC_FREE(&r.y[k]);
	}
	return -1;
}

/*
 * propagate.c - a posterior's draws and the figures of their runs (see propagate.h).
 */
#include "config.h"

#include "calib/propagate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "base/util.h"
#include "calib/sysedit.h"
#include "runtime/stats/json.h"

/* ------------------------------------------------------------------ posterior.csv */

/* The units of a parameter column, by kind (enum cal_kind order). */
static const char *const unit_names[] = {[CAL_PLAIN] = "", [CAL_INT] = "int", [CAL_TIME] = "ps",
                                         [CAL_BANDWIDTH] = "B/s", [CAL_SIZE] = "B"};

const char *cal_prop_unit(enum cal_kind kind) { return unit_names[kind]; }

typedef VEC(char *) fields;

/*
 * The fields of one line, split at commas and trimmed of blanks, into f
 * (pointers into the heap copy *buf). A field in double quotes may hold
 * commas, and "" for a quote, as csv.h writes them.
 */
static void split(const char *line, char **buf, fields *f)
{
	char *s = *buf = xstrdup(line), *w = s;
	f->len = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		char *start = w;
		if (*s == '"') {
			for (s++; *s && !(*s == '"' && s[1] != '"'); s++)
				*w++ = *s == '"' ? *++s : *s;
			if (*s)
				s++;
		}
		while (*s && *s != ',')
			*w++ = *s++;
		while (w > start && (w[-1] == ' ' || w[-1] == '\t'))
			w--;
		char end = *s;
		*w++ = '\0';
		VEC_PUSH(f, start);
		if (!end)
			return;
		s++;
	}
}

/* The kind of unit text u, or -1. */
static int unit_kind(const char *u)
{
	for (int k = 0; k < (int)(sizeof unit_names / sizeof *unit_names); k++)
		if (!strcmp(u, unit_names[k]))
			return k;
	return -1;
}

/* A section or key name as system files write them: letters, digits, '_', '-' (sections also '.'). */
static int name_ok(const char *s, size_t n, int dots)
{
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || (dots && s[i] == '.')))
			return 0;
	return n > 0;
}

static char *lower(char *s)
{
	for (char *c = s; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}

/* Column c named `col`: a parameter into p (return 1), another column (0), or -1 with *err. */
static int column(const char *where, size_t c, const char *col, cal_prop_param *p, char **err)
{
	if (!*col) {
		*err = xasprintf("%s: column %zu has no name", where, c + 1);
		return -1;
	}
	const char *br = strchr(col, '['), *end = br ? br : col + strlen(col);
	while (end > col && end[-1] == ' ')
		end--;
	const char *dot = end;
	while (dot > col && dot[-1] != '.')
		dot--;
	if (dot == col)
		return 0; /* no '.': sample, chain, log_posterior, ... */
	dot--;
	size_t n = strlen(col);
	if (br && col[n - 1] != ']') {
		*err = xasprintf("%s: column '%s': the unit is not closed by ']'", where, col);
		return -1;
	}
	char *u = br ? xstrndup(br + 1, n - (size_t)(br - col) - 2) : xstrdup("");
	int k = unit_kind(u);
	if (k < 0)
		*err = xasprintf("%s: column '%s': unknown unit [%s] (ps, B/s, B, int, or none for a plain number)", where,
		                 col, u);
	else if (!name_ok(col, (size_t)(dot - col), 1) || !name_ok(dot + 1, (size_t)(end - dot - 1), 0))
		*err = xasprintf("%s: column '%s': a parameter column is SECTION.KEY [UNIT], such as network.latency [ps]",
		                 where, col);
	free(u);
	if (*err)
		return -1;
	*p = (cal_prop_param){lower(xstrndup(col, (size_t)(dot - col))), lower(xstrndup(dot + 1, (size_t)(end - dot - 1))),
	                      (enum cal_kind)k, c};
	return 1;
}

/* Frees the n strings of v and v. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void free_params(cal_prop_param *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].section);
		free(v[i].key);
	}
	free(v);
}

/* The header's columns into p. 0, or -1 with *err. */
static int header(const char *where, const fields *f, cal_posterior *p, char **err)
{
	VEC(cal_prop_param) v = {0};
	p->ncols = f->len;
	for (size_t c = 0; c < f->len; c++) {
		cal_prop_param x;
		int rc = column(where, c, f->ptr[c], &x, err);
		if (rc < 0)
			break;
		for (size_t i = 0; rc && i < v.len; i++)
			if (!strcmp(v.ptr[i].section, x.section) && !strcmp(v.ptr[i].key, x.key))
				*err = xasprintf("%s: %s.%s is in columns %zu and %zu", where, x.section, x.key, v.ptr[i].col + 1,
				                 c + 1);
		if (rc)
			VEC_PUSH(&v, x);
		if (*err)
			break;
	}
	if (!*err && !v.len)
		*err = xasprintf("%s: no parameter column (SECTION.KEY [UNIT], such as network.latency [ps])", where);
	p->params = v.ptr;
	p->nparams = v.len;
	return *err ? -1 : 0;
}

/* The parameters of one row into vals. 0, or -1 with *err. */
static int row(const char *where, const fields *f, const cal_posterior *p, double *vals, char **err)
{
	if (f->len != p->ncols) {
		*err = xasprintf("%s: %zu fields, the header has %zu", where, f->len, p->ncols);
		return -1;
	}
	for (size_t i = 0; i < p->nparams; i++) {
		const cal_prop_param *x = &p->params[i];
		const char *s = f->ptr[x->col];
		char *end;
		errno = 0;
		double v = strtod(s, &end);
		const char *why = !*s || *end ? "is not a number"
		                  : !isfinite(v) || errno == ERANGE ? "is not a finite number"
		                  : v < 0 && x->kind != CAL_PLAIN && x->kind != CAL_INT ? "is negative"
		                                                                       : NULL;
		if (why) {
			*err = xasprintf("%s: %s.%s: '%s' %s", where, x->section, x->key, s, why);
			return -1;
		}
		vals[i] = v;
	}
	return 0;
}

/* The line [s, eol) without its CR and trailing blanks, heap. */
static char *line_text(const char *s, const char *eol)
{
	while (eol > s && (eol[-1] == '\r' || eol[-1] == ' ' || eol[-1] == '\t'))
		eol--;
	return xstrndup(s, (size_t)(eol - s));
}

int cal_prop_parse(const char *name, const char *text, cal_posterior *p, char **err)
{
	memset(p, 0, sizeof *p);
	*err = NULL;
	VEC(double) vals = {0};
	VEC(char *) rows = {0};
	VEC(int) lines = {0};
	fields f = {0};
	int line = 0;
	for (const char *s = text; *s && !*err; s++) {
		const char *eol = strchr(s, '\n');
		eol = eol ? eol : s + strlen(s);
		char *t = line_text(s, eol), *lead = t + strspn(t, " \t"), *buf, *where = xasprintf("%s:%d", name, ++line);
		if (*lead && *lead != '#') {
			split(lead, &buf, &f);
			if (!p->header) {
				p->header = xstrdup(lead);
				header(where, &f, p, err);
			} else {
				VEC_GROW(&vals, vals.len + p->nparams);
				if (row(where, &f, p, vals.ptr + vals.len, err) == 0) {
					vals.len += p->nparams;
					VEC_PUSH(&rows, xstrdup(lead));
					VEC_PUSH(&lines, line);
				}
			}
			free(buf);
		}
		free(t);
		free(where);
		s = eol;
		if (!*s)
			break;
	}
	if (!*err && !p->header)
		*err = xasprintf("%s:%d: no header line (the file is empty or only comments)", name, line > 0 ? line : 1);
	else if (!*err && !rows.len)
		*err = xasprintf("%s:%d: no row of values after the header", name, line);
	VEC_FREE(&f);
	p->values = vals.ptr;
	p->rows = rows.ptr;
	p->lines = lines.ptr;
	p->nrows = rows.len;
	if (*err) {
		cal_prop_free(p);
		return -1;
	}
	return 0;
}

int cal_prop_load(const char *path, cal_posterior *p, char **err)
{
	memset(p, 0, sizeof *p);
	char *text = xread_text(path, "posterior file", err);
	if (!text)
		return -1;
	int rc = cal_prop_parse(path, text, p, err);
	free(text);
	return rc;
}

void cal_prop_free(cal_posterior *p)
{
	free_params(p->params, p->nparams);
	free_strings(p->rows, p->nrows);
	free(p->lines);
	free(p->values);
	free(p->header);
	memset(p, 0, sizeof *p);
}

size_t cal_prop_row(size_t i, size_t k, size_t n)
{
	/* n < 2^32 (rows of a file of at most 1 GiB) and i < k <= n: the product fits 64 bits. */
	return (size_t)((uint64_t)i * (uint64_t)n / (uint64_t)k);
}

/* The value written for v of a column of kind k: whole numbers for integers, times and sizes. */
static double written(enum cal_kind k, double v)
{
	return k == CAL_INT || k == CAL_TIME || k == CAL_SIZE ? round(v) + 0.0 : v; /* + 0.0: no "-0" */
}

char *cal_prop_system(const cal_posterior *p, const char *base, size_t r)
{
	cal_setting *set = xcalloc(p->nparams + 1, sizeof *set);
	char (*buf)[64] = xcalloc(p->nparams + 1, sizeof *buf);
	for (size_t i = 0; i < p->nparams; i++) {
		const cal_prop_param *x = &p->params[i];
		cal_param as = {.kind = x->kind};
		cal_param_format(&as, written(x->kind, p->values[r * p->nparams + i]), buf[i], sizeof buf[i]);
		set[i] = (cal_setting){x->section, x->key, buf[i]};
	}
	char *text = cal_sys_edit(base, set, p->nparams);
	free(set);
	free(buf);
	return text ? text : xstrdup(base);
}

/* ------------------------------------------------------------------ summary.json */

/*
 * A reader of the JSON that summary.json holds, enough to take the numbers
 * and names the propagation needs and to step over everything else.
 */
typedef struct jrd {
	const char *p, *start;
	int bad;
} jrd;

#define JRD_MAX_DEPTH 64

static void ws(jrd *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
		j->p++;
}

/* Takes the character c (after blanks). 1, or 0 when it is not there. */
static int take(jrd *j, char c)
{
	ws(j);
	if (*j->p != c)
		return 0;
	j->p++;
	return 1;
}

static int fail(jrd *j)
{
	j->bad = 1;
	return -1;
}

typedef VEC(char) chars;

/* Appends code point c as UTF-8. */
static void put_utf8(chars *s, unsigned c)
{
	if (c < 0x80) {
		VEC_PUSH(s, (char)c);
	} else if (c < 0x800) {
		VEC_PUSH(s, (char)(0xC0 | c >> 6));
		VEC_PUSH(s, (char)(0x80 | (c & 0x3F)));
	} else {
		VEC_PUSH(s, (char)(0xE0 | c >> 12));
		VEC_PUSH(s, (char)(0x80 | (c >> 6 & 0x3F)));
		VEC_PUSH(s, (char)(0x80 | (c & 0x3F)));
	}
}

/* The four hex digits at h as a code point. 1, or 0 when they are not four hex digits. */
static int hex4(const char *h, unsigned *c)
{
	*c = 0;
	for (int i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)h[i]))
			return 0;
		*c = *c * 16 + (unsigned)(isdigit((unsigned char)h[i]) ? h[i] - '0' : tolower((unsigned char)h[i]) - 'a' + 10);
	}
	return 1;
}

/* A string value (heap), or NULL when there is none. */
static char *jstring(jrd *j)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	if (!take(j, '"'))
		return fail(j), NULL;
	chars s = {0};
	for (; *j->p && *j->p != '"'; j->p++) {
		if (*j->p != '\\') {
			VEC_PUSH(&s, *j->p);
			continue;
		}
		const char *e = *++j->p ? strchr(esc, *j->p) : NULL;
		unsigned c;
		if (e && (e - esc) % 2 == 0)
			VEC_PUSH(&s, e[1]);
		else if (*j->p == 'u' && hex4(j->p + 1, &c)) {
			put_utf8(&s, c);
			j->p += 4;
		} else
			break;
	}
	if (*j->p != '"') {
		VEC_FREE(&s);
		return fail(j), NULL;
	}
	j->p++;
	VEC_PUSH(&s, '\0');
	return s.ptr;
}

/* 1 if a number comes next. */
static int at_number(jrd *j)
{
	ws(j);
	return *j->p == '-' || isdigit((unsigned char)*j->p);
}

static double jnumber(jrd *j)
{
	char *end;
	double v = strtod(j->p, &end);
	if (end == j->p)
		return fail(j), 0;
	j->p = end;
	return v;
}

/* Steps over one value of any kind. 0, or -1. */
static int jskip(jrd *j, int depth)
{
	ws(j);
	char c = *j->p;
	if (depth > JRD_MAX_DEPTH)
		return fail(j);
	if (c == '"') {
		free(jstring(j));
	} else if (c == '{' || c == '[') {
		j->p++;
		if (take(j, c == '{' ? '}' : ']'))
			return 0;
		do {
			if (c == '{' && (free(jstring(j)), !take(j, ':')))
				return fail(j);
			if (jskip(j, depth + 1) < 0)
				return -1;
		} while (take(j, ','));
		if (!take(j, c == '{' ? '}' : ']'))
			return fail(j);
	} else if (at_number(j)) {
		jnumber(j);
	} else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4)) {
		j->p += 4;
	} else if (!strncmp(j->p, "false", 5)) {
		j->p += 5;
	} else {
		return fail(j);
	}
	return j->bad ? -1 : 0;
}

/*
 * The members of an object: for each, fn(ctx, key) reads the value or
 * returns 0 to have it skipped. 0, or -1 on malformed text.
 */
static int jobject(jrd *j, int (*fn)(jrd *j, void *ctx, const char *key), void *ctx)
{
	if (!take(j, '{'))
		return fail(j);
	if (take(j, '}'))
		return 0;
	do {
		char *key = jstring(j);
		int done = key && take(j, ':') ? fn(j, ctx, key) : fail(j);
		free(key);
		if (done < 0 || (done == 0 && jskip(j, 1) < 0))
			return fail(j);
	} while (take(j, ','));
	return take(j, '}') ? 0 : fail(j);
}

/* One member of a jobs[] entry: the names, the task count, every number. */
static int job_member(jrd *j, void *ctx, const char *key)
{
	cal_prop_job *b = ctx;
	if (!strcmp(key, "name") || !strcmp(key, "program")) {
		char **slot = key[0] == 'n' ? &b->name : &b->program;
		free(*slot);
		*slot = jstring(j);
		return *slot ? 1 : -1;
	}
	if (!at_number(j))
		return 0;
	double v = jnumber(j);
	if (!strcmp(key, "tasks")) {
		b->tasks = (uint64_t)v;
		return 1;
	}
	b->fig = xreallocarray(b->fig, b->nfig + 1, sizeof *b->fig);
	b->value = xreallocarray(b->value, b->nfig + 1, sizeof *b->value);
	b->fig[b->nfig] = xstrdup(key);
	b->value[b->nfig++] = v;
	return 1;
}

static int jobs_array(jrd *j, cal_prop_run *r)
{
	if (!take(j, '['))
		return fail(j);
	if (take(j, ']'))
		return 0;
	do {
		r->jobs = xreallocarray(r->jobs, r->njobs + 1, sizeof *r->jobs);
		cal_prop_job *b = &r->jobs[r->njobs++];
		memset(b, 0, sizeof *b);
		if (jobject(j, job_member, b) < 0)
			return -1;
	} while (take(j, ','));
	return take(j, ']') ? 0 : fail(j);
}

/* Seen members of the top level: 1 events, 2 sim_end_ps, 4 jobs. */
typedef struct top {
	cal_prop_run *r;
	unsigned seen;
} top;

static int top_member(jrd *j, void *ctx, const char *key)
{
	top *t = ctx;
	if (!strcmp(key, "jobs")) {
		t->seen |= 4;
		return jobs_array(j, t->r) < 0 ? -1 : 1;
	}
	int ev = !strcmp(key, "events");
	if (!(ev || !strcmp(key, "sim_end_ps")) || !at_number(j))
		return 0;
	*(ev ? &t->r->events : &t->r->sim_end_ps) = jnumber(j);
	t->seen |= ev ? 1 : 2;
	return 1;
}

int cal_prop_read_summary(const char *name, const char *text, cal_prop_run *r, char **err)
{
	memset(r, 0, sizeof *r);
	jrd j = {.p = text, .start = text};
	top t = {.r = r};
	int rc = jobject(&j, top_member, &t);
	ws(&j);
	if (rc < 0 || *j.p)
		*err = xasprintf("%s: malformed JSON at byte %zu", name, (size_t)(j.p - j.start));
	else if (t.seen != 7)
		*err = xasprintf("%s: no %s", name, !(t.seen & 4) ? "jobs" : !(t.seen & 1) ? "events" : "sim_end_ps");
	for (size_t i = 0; !*err && i < r->njobs; i++)
		if (!r->jobs[i].name || !r->jobs[i].program)
			*err = xasprintf("%s: job %zu has no name or program", name, i);
	if (!*err)
		return 0;
	cal_prop_run_free(r);
	return -1;
}

void cal_prop_run_free(cal_prop_run *r)
{
	for (size_t i = 0; i < r->njobs; i++) {
		cal_prop_job *b = &r->jobs[i];
		free_strings(b->fig, b->nfig);
		free(b->value);
		free(b->name);
		free(b->program);
	}
	free(r->jobs);
	memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ statistics */

/*
 * GSL's quantile of sorted v at f, but exact between two equal values:
 * GSL's (1 - d) x + d x can miss x by a unit in the last place, and an
 * interval over equal draws must collapse onto them.
 */
static double quantile(const double *v, size_t n, double f)
{
	double q = gsl_stats_quantile_from_sorted_data(v, 1, n, f);
	size_t i = (size_t)((double)(n - 1) * f);
	return i + 1 < n && v[i] == v[i + 1] ? v[i] : q;
}

cal_prop_stat cal_prop_stats(const double *x, size_t n)
{
	cal_prop_stat s;
	double *v = xcalloc(n, sizeof *v);
	int nan = 0;
	for (size_t i = 0; i < n; i++)
		nan |= isnan(v[i] = x[i]);
	if (nan || n == 0) {
		free(v);
		return (cal_prop_stat){NAN, NAN, NAN, NAN, NAN};
	}
	gsl_sort(v, 1, n);
	s.median = quantile(v, n, 0.5);
	s.p05 = quantile(v, n, 0.05);
	s.p95 = quantile(v, n, 0.95);
	s.mean = gsl_stats_mean(x, 1, n);
	s.sd = n > 1 ? gsl_stats_sd_m(x, 1, n, s.mean) : 0;
	free(v);
	return s;
}

/* The shares of MPI time derived from the figures of summary.json: name, numerator. */
static const char *const shares[][2] = {
	{"network_share", "mpi_network_ps"}, {"sync_share", "mpi_sync_ps"}, {"stack_share", "mpi_stack_ps"}};
#define NSHARES (sizeof shares / sizeof *shares)

/* Index of figure name in b, or -1. */
static long fig_index(const cal_prop_job *b, const char *name)
{
	for (size_t f = 0; f < b->nfig; f++)
		if (!strcmp(b->fig[f], name))
			return (long)f;
	return -1;
}

/* 1 if job b of a run has the names, tasks and figures of a (the first draw's). */
static int same_job(const cal_prop_job *a, const cal_prop_job *b)
{
	if (strcmp(a->name, b->name) || strcmp(a->program, b->program) || a->tasks != b->tasks || a->nfig != b->nfig)
		return 0;
	for (size_t f = 0; f < a->nfig; f++)
		if (strcmp(a->fig[f], b->fig[f]))
			return 0;
	return 1;
}

/* The figures of job i over the draws into x. */
static void gather_job(const cal_prop_run *runs, size_t n, size_t i, struct cal_prop_jobfigs *x)
{
	const cal_prop_job *a = &runs[0].jobs[i];
	long mpi = fig_index(a, "mpi_ps"), num[NSHARES];
	size_t ns = 0;
	for (size_t s = 0; s < NSHARES; s++)
		ns += (num[s] = fig_index(a, shares[s][1])) >= 0 && mpi >= 0;
	x->nfig = a->nfig + (ns == NSHARES ? NSHARES : 0);
	x->fig = xcalloc(x->nfig + 1, sizeof *x->fig);
	x->value = xcalloc(x->nfig * n + 1, sizeof *x->value);
	for (size_t f = 0; f < x->nfig; f++) {
		x->fig[f] = xstrdup(f < a->nfig ? a->fig[f] : shares[f - a->nfig][0]);
		for (size_t d = 0; d < n; d++) {
			const double *v = runs[d].jobs[i].value;
			/* A share of no MPI time is no number: NaN leaves it out of the table. */
			x->value[f * n + d] = f < a->nfig ? v[f] : v[mpi] > 0 ? v[num[f - a->nfig]] / v[mpi] : NAN;
		}
	}
}

int cal_prop_gather(const cal_prop_run *runs, size_t n, cal_prop_table *t, char **err)
{
	memset(t, 0, sizeof *t);
	for (size_t d = 1; d < n; d++) {
		int same = runs[d].njobs == runs[0].njobs;
		for (size_t i = 0; same && i < runs[0].njobs; i++)
			same = same_job(&runs[0].jobs[i], &runs[d].jobs[i]);
		if (!same) {
			*err = xasprintf("draw %zu ran other jobs or reported other figures than draw 0", d);
			return -1;
		}
	}
	t->ndraws = n;
	t->runs = runs;
	t->njobs = runs[0].njobs;
	t->jobs = xcalloc(t->njobs + 1, sizeof *t->jobs);
	for (size_t i = 0; i < t->njobs; i++)
		gather_job(runs, n, i, &t->jobs[i]);
	t->sim_end = xcalloc(n, sizeof *t->sim_end);
	t->events = xcalloc(n, sizeof *t->events);
	for (size_t d = 0; d < n; d++) {
		t->sim_end[d] = runs[d].sim_end_ps;
		t->events[d] = runs[d].events;
	}
	return 0;
}

void cal_prop_table_free(cal_prop_table *t)
{
	for (size_t i = 0; t->jobs && i < t->njobs; i++) {
		free_strings(t->jobs[i].fig, t->jobs[i].nfig);
		free(t->jobs[i].value);
	}
	free(t->jobs);
	free(t->sim_end);
	free(t->events);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ outputs */

/* The member key: its statistics and the value of every draw. */
static void json_stat(json_writer *w, const char *key, const double *x, size_t n)
{
	cal_prop_stat s = cal_prop_stats(x, n);
	json_key(w, key);
	json_object_begin(w);
	json_kv_double(w, "median", s.median);
	json_kv_double(w, "p05", s.p05);
	json_kv_double(w, "p95", s.p95);
	json_kv_double(w, "mean", s.mean);
	json_kv_double(w, "sd", s.sd);
	json_key(w, "values");
	json_array_begin(w);
	for (size_t d = 0; d < n; d++)
		json_double(w, x[d]);
	json_array_end(w);
	json_object_end(w);
}

/* "parameters": each column's key, unit and the values the draws ran with. */
static void json_params(json_writer *w, const cal_prop_source *s, size_t n)
{
	const cal_posterior *p = s->post;
	double *x = xcalloc(n + 1, sizeof *x);
	json_key(w, "parameters");
	json_array_begin(w);
	for (size_t i = 0; i < p->nparams; i++) {
		const cal_prop_param *q = &p->params[i];
		char *key = xasprintf("%s.%s", q->section, q->key);
		for (size_t d = 0; d < n; d++)
			x[d] = written(q->kind, p->values[s->rows[d] * p->nparams + i]);
		json_object_begin(w);
		json_kv_string(w, "key", key);
		json_kv_string(w, "unit", cal_prop_unit(q->kind));
		json_stat(w, "value", x, n);
		json_object_end(w);
		free(key);
	}
	json_array_end(w);
	free(x);
}

int cal_prop_write_json(const cal_prop_table *t, const cal_prop_source *s, FILE *f)
{
	json_writer w;
	size_t n = t->ndraws;
	json_init(&w, f, 1);
	json_object_begin(&w);
	json_kv_string(&w, "ncsim_version", PACKAGE_VERSION);
	json_kv_string(&w, "posterior", s->posterior);
	json_kv_string(&w, "program", s->program);
	json_kv_uint(&w, "posterior_rows", s->post->nrows);
	json_kv_uint(&w, "draws", n);
	json_kv_string(&w, "selection", "draw i is row floor(i * posterior_rows / draws)");
	json_kv_string(&w, "quantiles", "gsl_stats_quantile_from_sorted_data at 0.05, 0.5, 0.95; sd with n - 1");
	json_key(&w, "rows");
	json_array_begin(&w);
	for (size_t d = 0; d < n; d++)
		json_uint(&w, s->rows[d]);
	json_array_end(&w);
	if (s->with_wall)
		json_kv_double(&w, "wall_seconds", s->wall_seconds);
	json_params(&w, s, n);
	json_stat(&w, "sim_end_ps", t->sim_end, n);
	json_stat(&w, "events", t->events, n);
	json_key(&w, "jobs");
	json_array_begin(&w);
	for (size_t i = 0; i < t->njobs; i++) {
		const cal_prop_job *a = &t->runs[0].jobs[i];
		json_object_begin(&w);
		json_kv_string(&w, "name", a->name);
		json_kv_string(&w, "program", a->program);
		json_kv_uint(&w, "tasks", a->tasks);
		for (size_t k = 0; k < t->jobs[i].nfig; k++)
			json_stat(&w, t->jobs[i].fig[k], t->jobs[i].value + k * n, n);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}

int cal_prop_write_draws(const cal_posterior *p, const size_t *rows, size_t ndraws, FILE *f)
{
	fprintf(f, "draw,%s\n", p->header);
	for (size_t d = 0; d < ndraws; d++)
		fprintf(f, "%zu,%s\n", d, p->rows[rows[d]]);
	return ferror(f) ? -1 : 0;
}

/* How the table shows a figure. */
enum shown { SHOW_TIME, SHOW_SHARE, SHOW_BYTES, SHOW_COUNT };

static const struct label {
	const char *fig, *text;
} labels[] = {
	{"end_ps", "end time"},
	{"compute_ps", "compute time (all tasks)"},
	{"sleep_ps", "sleep time (all tasks)"},
	{"io_ps", "I/O time (all tasks)"},
	{"mpi_ps", "MPI time (all tasks)"},
	{"mpi_network_ps", "MPI network time (all tasks)"},
	{"mpi_sync_ps", "MPI synchronization time (all tasks)"},
	{"mpi_stack_ps", "MPI software-stack time (all tasks)"},
	{"bytes_sent", "bytes sent"},
	{"msgs_sent", "messages sent"},
	{"io_requests", "I/O requests"},
	{"io_bytes_read", "I/O bytes read"},
	{"io_bytes_written", "I/O bytes written"},
	{"network_share", "network share of MPI time"},
	{"sync_share", "synchronization share of MPI time"},
	{"stack_share", "software-stack share of MPI time"},
};

static const char *label_of(const char *fig)
{
	for (size_t i = 0; i < sizeof labels / sizeof *labels; i++)
		if (!strcmp(labels[i].fig, fig))
			return labels[i].text;
	return fig;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && !strcmp(s + n - k, end);
}

static enum shown shown_as(const char *fig)
{
	return ends_with(fig, "_ps") ? SHOW_TIME : ends_with(fig, "_share") ? SHOW_SHARE
	       : strstr(fig, "bytes") ? SHOW_BYTES : SHOW_COUNT;
}

/* The unit of a row: picked by its median, so that the three columns compare at a glance. */
static void unit_of(enum shown how, double median, const char **name, double *scale)
{
	static const char *const times[] = {"ps", "ns", "us", "ms", "s"};
	static const char *const sizes[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	*name = "";
	*scale = 1;
	if (how == SHOW_SHARE) {
		*name = "%";
		*scale = 0.01;
	}
	if (how != SHOW_TIME && how != SHOW_BYTES)
		return;
	double step = how == SHOW_TIME ? 1000 : 1024, m = fabs(median);
	int u = 0;
	while (u < 4 && m >= *scale * step) {
		*scale *= step;
		u++;
	}
	*name = how == SHOW_TIME ? times[u] : sizes[u];
}

/* One number of the table in its unit, with `digits` significant digits (one decimal for shares). */
static void cell(char *buf, size_t n, double v, enum shown how, const char *unit, double scale, int digits)
{
	if (how == SHOW_SHARE)
		snprintf(buf, n, "%.*f%%", digits - 3, v / scale);
	else
		snprintf(buf, n, "%.*g%s%s", digits, v / scale, *unit ? " " : "", unit);
}

/* One row: the label, then median, 5% and 95%, with digits (4 to 6) enough to tell the 5% and 95% points apart. */
static void print_row(FILE *out, const char *fig, const double *x, size_t n)
{
	cal_prop_stat s = cal_prop_stats(x, n);
	enum shown how = shown_as(fig);
	const char *unit;
	double scale;
	unit_of(how, s.median, &unit, &scale);
	char c[3][48];
	for (int digits = 4; digits <= 6; digits++) {
		cell(c[0], sizeof c[0], s.median, how, unit, scale, digits);
		cell(c[1], sizeof c[1], s.p05, how, unit, scale, digits);
		cell(c[2], sizeof c[2], s.p95, how, unit, scale, digits);
		if (strcmp(c[1], c[2]) || s.p05 == s.p95)
			break;
	}
	fprintf(out, "  %-49s %11s %11s %11s\n", label_of(fig), c[0], c[1], c[2]);
}

/* 1 if the table leaves the figure out: no number (a share of no MPI time), or 0 in every draw. */
static int left_out(const char *fig, const double *x, size_t n)
{
	int zero = strcmp(fig, "end_ps") != 0;
	for (size_t d = 0; d < n; d++) {
		if (isnan(x[d]))
			return 1;
		zero &= x[d] == 0;
	}
	return zero;
}

void cal_prop_print(const cal_prop_table *t, FILE *out)
{
	size_t n = t->ndraws;
	for (size_t i = 0; i < t->njobs; i++) {
		const cal_prop_job *a = &t->runs[0].jobs[i];
		char *head = xasprintf("job %zu: %s, %llu task%s, %zu posterior draw%s", i, a->name,
		                       (unsigned long long)a->tasks, a->tasks == 1 ? "" : "s", n, n == 1 ? "" : "s");
		fprintf(out, "%s%-51s %11s %11s %11s\n", i ? "\n" : "", head, "median", "5%", "95%");
		free(head);
		for (size_t f = 0; f < t->jobs[i].nfig; f++)
			if (!left_out(t->jobs[i].fig[f], t->jobs[i].value + f * n, n))
				print_row(out, t->jobs[i].fig[f], t->jobs[i].value + f * n, n);
	}
}

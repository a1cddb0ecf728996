/*
 * csv_read.c - a streaming reader of the run's CSV files (see csv_read.h).
 */
#include "report/csv_read.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

struct rep_csv {
	char *path;
	FILE *f;
	char *line;           /* the current line, split in place into fields */
	size_t cap, lineno;
	VEC(char *) head;     /* the header's column names (heap) */
	VEC(char *) fields;   /* the current row's fields, pointing into line */
};

/*
 * Splits c->line in place into c->fields: commas separate fields, a field
 * in double quotes may hold commas and doubled quotes. 0, or -1 with *err.
 */
static int split(rep_csv *c, char **err)
{
	char *r = c->line, *w = c->line;
	c->fields.len = 0;
	for (;;) {
		char *start = w;
		if (*r == '"') {
			for (r++;; r++) {
				if (*r == 0) {
					*err = xasprintf("%s:%zu: a quoted field does not end on its line", c->path, c->lineno);
					return -1;
				}
				if (*r == '"' && r[1] != '"')
					break;
				*w++ = *r;
				r += *r == '"';
			}
			r++;
			if (*r != ',' && *r != 0) {
				*err = xasprintf("%s:%zu: text after a quoted field", c->path, c->lineno);
				return -1;
			}
		} else {
			while (*r != ',' && *r != 0)
				*w++ = *r++;
		}
		char end = *r;
		*w++ = 0;
		r++;
		VEC_PUSH(&c->fields, start);
		if (end == 0)
			return 0;
	}
}

/* Reads one line into c->line without its end of line: 1, 0 at the end, or -1 with *err. */
static int read_line(rep_csv *c, char **err)
{
	errno = 0;
	ssize_t n = getline(&c->line, &c->cap, c->f);
	if (n < 0) {
		if (ferror(c->f)) {
			*err = xasprintf("%s:%zu: cannot read: %s", c->path, c->lineno + 1, strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	c->lineno++;
	if ((size_t)n > XREAD_MAX_LINE) {
		*err = xasprintf("%s:%zu: line longer than %zu bytes", c->path, c->lineno, XREAD_MAX_LINE);
		return -1;
	}
	if (strlen(c->line) != (size_t)n) {
		*err = xasprintf("%s:%zu: NUL byte (is it a text file?)", c->path, c->lineno);
		return -1;
	}
	while (n > 0 && (c->line[n - 1] == '\n' || c->line[n - 1] == '\r'))
		c->line[--n] = 0;
	return 1;
}

rep_csv *rep_csv_open(const char *path, char **err)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		int e = errno;
		*err = xasprintf("%s: cannot open: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: %s", path, xread_strerror(S_ISDIR(st.st_mode) ? EISDIR : ENODEV));
		errno = EINVAL;
		return NULL;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		*err = xasprintf("%s: cannot open: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	rep_csv *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	c->f = f;
	int rc;
	/* Comment lines before the header (calibrate's posterior.csv starts with one) say what the file is. */
	while ((rc = read_line(c, err)) > 0 && c->line[0] == '#')
		;
	if (rc == 0)
		*err = xasprintf("%s:%zu: empty file: no header line", path, c->lineno + 1);
	if (rc <= 0 || split(c, err) < 0) {
		rep_csv_close(c);
		errno = EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < c->fields.len; i++)
		VEC_PUSH(&c->head, xstrdup(c->fields.ptr[i]));
	return c;
}

void rep_csv_close(rep_csv *c)
{
	if (!c)
		return;
	if (c->f)
		fclose(c->f);
	for (size_t i = 0; i < c->head.len; i++)
		free(c->head.ptr[i]);
	VEC_FREE(&c->head);
	VEC_FREE(&c->fields);
	free(c->line);
	free(c->path);
	free(c);
}

int rep_csv_col(const rep_csv *c, const char *name)
{
	for (size_t i = 0; i < c->head.len; i++)
		if (!strcmp(c->head.ptr[i], name))
			return (int)i;
	return -1;
}

int rep_csv_require(const rep_csv *c, const char *const *names, int *idx, size_t n, char **err)
{
	for (size_t i = 0; i < n; i++)
		if ((idx[i] = rep_csv_col(c, names[i])) < 0) {
			*err = xasprintf("%s:1: no column '%s' in the header", c->path, names[i]);
			return -1;
		}
	return 0;
}

int rep_csv_next(rep_csv *c, char **err)
{
	int rc;
	do /* blank lines (a trailing one) are not rows */
		rc = read_line(c, err);
	while (rc > 0 && c->line[0] == 0);
	if (rc <= 0)
		return rc;
	if (split(c, err) < 0)
		return -1;
	if (c->fields.len != c->head.len) {
		*err = xasprintf("%s:%zu: %zu fields, but the header has %zu", c->path, c->lineno, c->fields.len,
		                 c->head.len);
		return -1;
	}
	return 1;
}

const char *rep_csv_field(const rep_csv *c, int col) { return c->fields.ptr[col]; }

int rep_csv_u64(const rep_csv *c, int col, uint64_t *x, char **err)
{
	const char *s = c->fields.ptr[col];
	char *end;
	errno = 0;
	unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
	if (!(s[0] >= '0' && s[0] <= '9') || *end || errno == ERANGE) {
		*err = xasprintf("%s:%zu: column '%s': '%s' is not a non-negative integer", c->path, c->lineno,
		                 c->head.ptr[col], s);
		return -1;
	}
	*x = (uint64_t)v;
	return 0;
}

int rep_csv_double(const rep_csv *c, int col, double *x, char **err)
{
	const char *s = c->fields.ptr[col];
	char *end = NULL;
	errno = 0;
	double v = *s && !strchr(" \t\n", *s) ? strtod(s, &end) : 0;
	if (!end || *end || errno == ERANGE || !isfinite(v)) {
		*err = xasprintf("%s:%zu: column '%s': '%s' is not a number", c->path, c->lineno, c->head.ptr[col], s);
		return -1;
	}
	*x = v;
	return 0;
}

int rep_csv_is_header(const rep_csv *c)
{
	for (size_t i = 0; i < c->head.len; i++)
		if (strcmp(c->fields.ptr[i], c->head.ptr[i]))
			return 0;
	return 1;
}

size_t rep_csv_line(const rep_csv *c) { return c->lineno; }

const char *rep_csv_path(const rep_csv *c) { return c->path; }

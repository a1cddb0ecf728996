/*
 * filedata.c - FILE_DATA and STATIC_FILE_DATA (LANGUAGE.md §5.7).
 *
 * The C backend re-reads the file on every call. Here each file is read once
 * into a cache owned by the caller (the runtime keeps one per simulation, the
 * compiler none), split into lines that keep their '\n' as fgets() would:
 *
 *     text:  "1 2\n3 4\n5"          line_start: [0, 4, 8]    nlines = 3
 *             ^     ^     ^
 *
 * Columns are strtok() fields: maximal runs of characters not in colseps.
 * The '\n' is not a separator unless colseps says so, so it ends up inside
 * the last field, where strtoll/strtod ignore it, and an empty line has one
 * field ("\n", value 0), exactly as in the C backend.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsim/stdlib.h"
#include "base/util.h"

struct cached_file {
	char *name;
	char *text;         /* whole file, NUL-terminated */
	size_t len;
	size_t *line_start; /* offset of each line in text */
	size_t nlines;
};

struct ncsim_filecache {
	struct cached_file *files;
	size_t n, cap;
};

ncsim_filecache *ncsim_filecache_new(void)
{
	return xcalloc(1, sizeof(ncsim_filecache));
}

void ncsim_filecache_free(ncsim_filecache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->files[i].name);
		free(c->files[i].text);
		free(c->files[i].line_start);
	}
	free(c->files);
	free(c);
}

/* The cached copy of file `name`, reading it on first use; NULL with e set on failure. */
static struct cached_file *load(ncsim_filecache *c, const char *name, ncsim_err *e)
{
	struct cached_file *cf;
	size_t len, nlines = 0;
	char *text;
	int opened;

	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->files[i].name, name) == 0)
			return &c->files[i];
	text = xread_file(name, &len, &opened);
	if (!text) {
		ncsim_err_set(e, "Failed to %s file \"%s\" (%s)", opened ? "read" : "open", name, xread_strerror(errno));
		return NULL;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4;
		c->files = xreallocarray(c->files, c->cap, sizeof *c->files);
	}
	cf = &c->files[c->n++];
	cf->name = xstrdup(name);
	cf->text = text;
	cf->len = len;
	/* A line starts at offset 0 (if the file is not empty) and after every '\n' but a final one. */
	for (size_t i = 0; i < len; i++)
		if (i == 0 || text[i - 1] == '\n')
			nlines++;
	cf->line_start = xcalloc(nlines ? nlines : 1, sizeof(size_t));
	cf->nlines = 0;
	for (size_t i = 0; i < len; i++)
		if (i == 0 || text[i - 1] == '\n')
			cf->line_start[cf->nlines++] = i;
	return cf;
}

/* Finds field `col` of line [b, end); stores its bounds; 0 or -1 (error in e). */
static int find_field(const char *b, const char *end, const char *colseps, int64_t col,
                      int64_t row, const char *name, const char **fb, const char **fe,
                      ncsim_err *e)
{
	unsigned char sep[256] = { 0 };
	int64_t nfields = 0, want;
	const char *p;

	for (const unsigned char *s = (const unsigned char *)colseps; *s; s++)
		sep[*s] = 1;
	if (col < 0) {
		/* Count the fields first, then pick from the end. */
		for (p = b; p < end;) {
			while (p < end && sep[(unsigned char)*p])
				p++;
			if (p == end)
				break;
			nfields++;
			while (p < end && !sep[(unsigned char)*p])
				p++;
		}
		/* 0 - (uint64_t)col: -col without overflow for INT64_MIN. */
		if ((uint64_t)0 - (uint64_t)col > (uint64_t)nfields) {
			ncsim_err_set(e, "Failed to read column %" PRIu64 " from the end of row %" PRId64
			              " of \"%s\"", (uint64_t)0 - (uint64_t)col, row, name);
			return -1;
		}
		want = nfields + col + 1;
	} else {
		want = col;
	}
	nfields = 0;
	for (p = b; p < end;) {
		while (p < end && sep[(unsigned char)*p])
			p++;
		if (p == end)
			break;
		*fb = p;
		while (p < end && !sep[(unsigned char)*p])
			p++;
		if (++nfields == want) {
			*fe = p;
			return 0;
		}
	}
	ncsim_err_set(e, "Failed to read column %" PRId64 " from row %" PRId64 " of \"%s\"", col, row, name);
	return -1;
}

/*
 * Copies cell (col, row) of `name` into buf (heap-allocated in *heap when it
 * does not fit); returns the NUL-terminated cell or NULL with e set.
 */
static const char *read_cell(ncsim_filecache *c, const char *name, int64_t col, int64_t row,
                             const char *colseps, const char *rowseps, char *buf, size_t bufsize,
                             char **heap, ncsim_err *e)
{
	struct cached_file *cf;
	const char *lb, *le, *fb = NULL, *fe = NULL;
	size_t li, n;

	if (col == 0) {
		ncsim_err_set(e, "FILE_DATA column numbers must be nonzero");
		return NULL;
	}
	if (row == 0) {
		ncsim_err_set(e, "FILE_DATA row numbers must be nonzero");
		return NULL;
	}
	/* Rows are lines (the line index above is built once per file); other
	 * row separators are a documented limitation, reported with the
	 * reference implementation's wording (LANGUAGE.md §5.7). */
	if (strcmp(rowseps, "\n") != 0) {
		ncsim_err_set(e, "FILE_DATA row separators other than \"\\n\" are not yet implemented");
		return NULL;
	}
	cf = load(c, name, e);
	if (!cf)
		return NULL;
	if (row > 0) {
		if ((uint64_t)row > cf->nlines) {
			ncsim_err_set(e, "Failed to read row %" PRId64 " from \"%s\"", row, name);
			return NULL;
		}
		li = (size_t)row - 1;
	} else {
		if ((uint64_t)0 - (uint64_t)row > cf->nlines) {
			ncsim_err_set(e, "Failed to read row %" PRIu64 " from the end of \"%s\"",
			              (uint64_t)0 - (uint64_t)row, name);
			return NULL;
		}
		li = cf->nlines - (size_t)(0 - (uint64_t)row);
	}
	lb = cf->text + cf->line_start[li];
	le = li + 1 < cf->nlines ? cf->text + cf->line_start[li + 1] : cf->text + cf->len;
	if (find_field(lb, le, colseps, col, row, name, &fb, &fe, e))
		return NULL;
	n = (size_t)(fe - fb);
	if (n >= bufsize)
		buf = *heap = xmalloc(n + 1);
	memcpy(buf, fb, n);
	buf[n] = '\0';
	return buf;
}

int64_t ncsim_file_data_i(ncsim_filecache *c, const char *file, int64_t col, int64_t row,
                          const char *colseps, const char *rowseps, ncsim_err *e)
{
	char buf[128], *heap = NULL;
	const char *cell = read_cell(c, file, col, row, colseps, rowseps, buf, sizeof buf, &heap, e);
	int64_t v = 0;

	if (cell)
		v = strtoll(cell, NULL, 0);
	free(heap);
	return v;
}

double ncsim_file_data_f(ncsim_filecache *c, const char *file, double col, double row,
                         const char *colseps, const char *rowseps, ncsim_err *e)
{
	char buf[128], *heap = NULL;
	int64_t icol = ncsim_f2i(col, e), irow = ncsim_f2i(row, e);
	const char *cell;
	double v = 0.0;

	if (e && e->failed)
		return 0.0;
	cell = read_cell(c, file, icol, irow, colseps, rowseps, buf, sizeof buf, &heap, e);
	if (cell)
		v = strtod(cell, NULL);
	free(heap);
	return v;
}

/*
 * source.c - source files and the byte-offset -> line/column map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lang/source.h"
#include "base/util.h"

src_span span_make(uint32_t file, uint32_t first, uint32_t last)
{
	src_span s = { file, first, last };
	return s;
}

src_span span_union(src_span a, src_span b)
{
	if (span_empty(b))
		return a;
	if (span_empty(a))
		return b;
	src_span r = a;
	if (b.first < r.first)
		r.first = b.first;
	if (b.last > r.last)
		r.last = b.last;
	return r;
}

void src_init(src_mgr *m)
{
	m->files = NULL;
	m->nfiles = m->cap = 0;
}

void src_fini(src_mgr *m)
{
	for (size_t i = 0; i < m->nfiles; i++) {
		free(m->files[i]->name);
		free(m->files[i]->text);
		free(m->files[i]->line_start);
		free(m->files[i]);
	}
	free(m->files);
	src_init(m);
}

uint32_t src_add(src_mgr *m, const char *name, const char *text, size_t len)
{
	src_file *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(name);
	f->text = xmalloc(len + 1);
	if (len)
		memcpy(f->text, text, len);
	f->text[len] = '\0';
	f->len = len;
	/* One pass to count lines, one to fill the map: no reallocation. */
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	f->line_start = xcalloc(n, sizeof *f->line_start);
	f->nlines = 0;
	f->line_start[f->nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			f->line_start[f->nlines++] = (uint32_t)(i + 1);
	if (m->nfiles == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 4;
		m->files = xreallocarray(m->files, m->cap, sizeof *m->files);
	}
	m->files[m->nfiles] = f;
	return (uint32_t)m->nfiles++;
}

int src_load(src_mgr *m, const char *path, uint32_t *id)
{
	size_t len;
	char *buf = xread_file(path, &len, NULL);
	if (!buf)
		return -1;
	if (len > UINT32_MAX - 2) {
		free(buf);
		errno = EFBIG;
		return -1;
	}
	*id = src_add(m, path, buf, len);
	free(buf);
	return 0;
}

const src_file *src_get(const src_mgr *m, uint32_t id)
{
	return m->files[id];
}

void src_linecol(const src_mgr *m, uint32_t id, uint32_t off, unsigned *line, unsigned *col)
{
	const src_file *f = m->files[id];
	/* Binary search for the last line starting at or before off. */
	size_t lo = 0, hi = f->nlines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = (unsigned)lo + 1;
	*col = (unsigned)(off - f->line_start[lo]) + 1;
}

const char *src_line(const src_mgr *m, uint32_t id, unsigned line, size_t *len)
{
	const src_file *f = m->files[id];
	if (line == 0 || line > f->nlines) {
		*len = 0;
		return "";
	}
	size_t start = f->line_start[line - 1];
	size_t end = start;
	while (end < f->len && f->text[end] != '\n')
		end++;
	if (end > start && f->text[end - 1] == '\r')
		end--;
	*len = end - start;
	return f->text + start;
}

/*
 * source.h - source files, byte spans and the line map.
 *
 * Every token and AST node carries a span: the file it came from and the
 * first and last byte it covers (inclusive).  Lines and columns are never
 * stored; they are computed from the file's line map when a message is
 * printed, so spans stay small and exact.
 *
 *   text:   "task 0 sends\n  a 4 byte message\n"
 *            ^0          ^12 ^13
 *   line_start[] = { 0, 13, 33 }     (line n starts at line_start[n-1])
 *
 * An empty span (last == first - 1) marks a position between two bytes; it
 * is what an empty grammar rule produces.  span_union() ignores empty spans.
 */
#ifndef NCSIM_LANG_SOURCE_H
#define NCSIM_LANG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* A run of bytes [first, last] of file `file` (an index into src_mgr). */
typedef struct src_span {
	uint32_t file;
	uint32_t first;
	uint32_t last;    /* inclusive; first - 1 for an empty span */
} src_span;

/* One loaded source text with its line map. */
typedef struct src_file {
	char *name;           /* as given by the caller, used in messages */
	char *text;           /* NUL-terminated copy of the contents */
	size_t len;           /* bytes, without the terminating NUL */
	uint32_t *line_start; /* byte offset of the first byte of each line */
	size_t nlines;
} src_file;

/* The set of files of one compilation. */
typedef struct src_mgr {
	src_file **files;
	size_t nfiles, cap;
} src_mgr;

/* True when s covers no byte. */
static inline int span_empty(src_span s) { return s.last + 1 == s.first || s.last < s.first; }
/* The smallest span covering a and b; an empty operand is ignored. */
src_span span_union(src_span a, src_span b);
/* A span covering bytes [first, last] of file `file`. */
src_span span_make(uint32_t file, uint32_t first, uint32_t last);

/* Initialises an empty manager. */
void src_init(src_mgr *m);
/* Frees every file of m (m itself is not freed). */
void src_fini(src_mgr *m);
/* Adds a copy of text[0..len) under `name`; returns its file id. Never fails. */
uint32_t src_add(src_mgr *m, const char *name, const char *text, size_t len);
/* Reads `path` and adds it; returns 0 and sets *id, or -1 with errno set. */
int src_load(src_mgr *m, const char *path, uint32_t *id);
/* The file with id `id` (must exist). */
const src_file *src_get(const src_mgr *m, uint32_t id);
/* 1-based line and column (in bytes) of byte offset `off` of file `id`. */
void src_linecol(const src_mgr *m, uint32_t id, uint32_t off, unsigned *line, unsigned *col);
/* Start and length (without the newline) of 1-based line `line` of file `id`. */
const char *src_line(const src_mgr *m, uint32_t id, unsigned line, size_t *len);

#endif

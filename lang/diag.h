/*
 * diag.h - counted diagnostics with source excerpts.
 *
 * A message looks like this (column and underline in bytes; tabs in the
 * source line are kept so the underline lines up):
 *
 *   prog.ncptl:3:14: error: unexpected `then`, expected a time unit
 *    task 0 computes for 5 then
 *                          ^~~~
 *
 * Every pass reports through one diag_ctx and returns; the caller decides
 * what to do from the counts (code generation never runs after an error).
 */
#ifndef NCSIM_LANG_DIAG_H
#define NCSIM_LANG_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "lang/source.h"

typedef enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_level;

typedef struct diag_ctx {
	const src_mgr *src;   /* where spans are resolved */
	FILE *out;            /* NULL: count only, print nothing */
	unsigned errors;      /* errors reported so far */
	unsigned warnings;    /* warnings reported so far */
	unsigned max_errors;  /* stop printing after this many errors (0: no limit) */
} diag_ctx;

/* Initialises d to report spans of src on out (NULL: silent). */
void diag_init(diag_ctx *d, const src_mgr *src, FILE *out);
/* Reports an error at sp and counts it. */
void diag_error(diag_ctx *d, src_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports a warning at sp and counts it. */
void diag_warning(diag_ctx *d, src_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds a note to the previous message (not counted). */
void diag_note(diag_ctx *d, src_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* va_list form of the three functions above. */
void diag_vreport(diag_ctx *d, diag_level lvl, src_span sp, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

#endif

/*
 * text.h - a growing text buffer and the number formats of the report
 * (prefix rep_buf_, rep_unit_).
 *
 * Data files, gnuplot scripts and table cells are built in memory (each is
 * small: a few rows per job, at most REP_CDF_POINTS rows per curve) and
 * then written atomically in one go.
 */
#ifndef NCSIM_REPORT_TEXT_H
#define NCSIM_REPORT_TEXT_H

#include <stddef.h>

typedef struct rep_buf {
	char *ptr;
	size_t len, cap;
} rep_buf;

/* Appends the n bytes at s. */
void rep_buf_add(rep_buf *b, const char *s, size_t n);
/* Appends the string s. */
void rep_buf_puts(rep_buf *b, const char *s);
/* Appends printf-formatted text. */
void rep_buf_printf(rep_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text as a NUL-terminated heap string (never NULL); b is empty again. */
char *rep_buf_take(rep_buf *b);
/* Frees the text of b. */
void rep_buf_free(rep_buf *b);

/* A unit of a figure's axis: its name and the value of one unit in ps or bytes. */
typedef struct rep_unit {
	const char *name;
	double size;
} rep_unit;

/* The largest of ps, ns, µs, ms and s in which max_ps is at least 1 (ps for 0). */
rep_unit rep_unit_time(double max_ps);
/* The largest of B, kB, MB, GB and TB (powers of 1000) in which max_bytes is at least 1. */
rep_unit rep_unit_bytes(double max_bytes);
/* Appends v (ps or bytes) in its own unit with 4 significant digits: "4.581 ms", "786.6 kB". */
void rep_buf_quantity(rep_buf *b, double v, int bytes);

#endif

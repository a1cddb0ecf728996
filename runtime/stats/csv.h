/*
 * csv.h - a CSV row writer (prefix csv_).
 *
 * RFC 4180 quoting: a field is quoted when it contains a comma, a double
 * quote, CR or LF, or starts or ends with a blank (which spreadsheet tools
 * would strip); quotes inside are doubled. Rows end with "\n". Numbers are
 * never quoted; doubles use the shortest round-trip form of json.h, and NaN
 * and infinities are written as "nan", "inf" and "-inf" (what Python and R
 * read back). Nothing is allocated. Write errors are sticky and reported by
 * csv_finish.
 *
 *     csv_writer w;
 *     csv_init(&w, fp);
 *     csv_str(&w, "rank"); csv_str(&w, "bytes"); csv_end_row(&w);
 *     csv_int(&w, 0);      csv_uint(&w, 4096);   csv_end_row(&w);
 */
#ifndef NCSIM_STATS_CSV_H
#define NCSIM_STATS_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct csv_writer {
	FILE *f;
	unsigned col;  /* fields written in the current row */
	int error;     /* sticky */
} csv_writer;

/* Starts writing rows to f. */
void csv_init(csv_writer *w, FILE *f);
/* Writes the string field s, quoted if needed; NULL writes an empty field. */
void csv_str(csv_writer *w, const char *s);
/* Writes the n bytes at s as a string field (s need not be NUL-terminated). */
void csv_str_n(csv_writer *w, const char *s, size_t n);
/* Writes a signed integer field. */
void csv_int(csv_writer *w, int64_t v);
/* Writes an unsigned integer field. */
void csv_uint(csv_writer *w, uint64_t v);
/* Writes a double field (shortest round-trip form; nan, inf, -inf). */
void csv_double(csv_writer *w, double v);
/* Writes an empty field. */
void csv_empty(csv_writer *w);
/* Ends the current row. */
void csv_end_row(csv_writer *w);
/* Writes a whole row of n string fields (a header, typically). */
void csv_row(csv_writer *w, const char *const *fields, size_t n);
/* 0 if every write succeeded and no row is left open, else -1. */
int csv_finish(csv_writer *w);

#endif

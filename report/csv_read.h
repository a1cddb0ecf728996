/*
 * csv_read.h - a streaming reader of the run's CSV files (prefix rep_csv_).
 *
 * tasks.csv and links.csv grow with the machine, so they are read one row
 * at a time and never held whole: memory is one line (at most
 * XREAD_MAX_LINE bytes) plus the fields of that line. Columns are found by
 * their header name, so a file with more columns (a newer ncsim) still
 * reads. Fields are RFC 4180 (the writer's quoting, runtime/stats/csv.h) on
 * one line. Every error names the file and line: "run/tasks.csv:7: ...".
 *
 *     rep_csv *c = rep_csv_open("run/tasks.csv", &err);
 *     int col[2]; rep_csv_require(c, names, col, 2, &err);
 *     while ((rc = rep_csv_next(c, &err)) > 0)
 *         rep_csv_u64(c, col[0], &x, &err) ...
 *     rep_csv_close(c);
 */
#ifndef NCSIM_REPORT_CSV_READ_H
#define NCSIM_REPORT_CSV_READ_H

#include <stddef.h>
#include <stdint.h>

typedef struct rep_csv rep_csv;

/*
 * Opens the regular file path and reads its header line (after any lines
 * starting with '#'). NULL with *err
 * (heap) when it cannot be opened, is not a regular file, is empty or its
 * header is malformed; errno is ENOENT when the file does not exist.
 */
rep_csv *rep_csv_open(const char *path, char **err);
/* Closes c (NULL is a no-op). */
void rep_csv_close(rep_csv *c);
/* The index of column name in the header, or -1. */
int rep_csv_col(const rep_csv *c, const char *name);
/* Finds the n columns names[] (idx[i] for names[i]): 0, or -1 with *err "FILE:1: no column 'x'". */
int rep_csv_require(const rep_csv *c, const char *const *names, int *idx, size_t n, char **err);
/* Reads the next row: 1, 0 at the end of the file, or -1 with *err (a malformed line). */
int rep_csv_next(rep_csv *c, char **err);
/* The text of field col of the current row (col from rep_csv_col; valid until the next rep_csv_next). */
const char *rep_csv_field(const rep_csv *c, int col);
/* Field col of the current row as an unsigned integer: 0, or -1 with *err "FILE:LINE: column 'x': ...". */
int rep_csv_u64(const rep_csv *c, int col, uint64_t *x, char **err);
/* Field col of the current row as a finite real number: 0, or -1 with *err "FILE:LINE: column 'x': ...". */
int rep_csv_double(const rep_csv *c, int col, double *x, char **err);
/* 1 if the current row repeats the header line (files appended to one another: `cmd --csv >> f`), else 0. */
int rep_csv_is_header(const rep_csv *c);
/* The line number of the current row (1 is the header). */
size_t rep_csv_line(const rep_csv *c);
/* The path given to rep_csv_open. */
const char *rep_csv_path(const rep_csv *c);

#endif

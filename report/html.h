/*
 * html.h - the report page (prefix rep_html_).
 *
 * One self-contained HTML file: plain HTML and CSS, no script, every figure
 * an inline SVG, readable when printed. In order: a header with the runs'
 * inputs (command line, system, network, seed, ncsim version, status),
 * warnings, a table of contents, the per-job summary table, for several runs
 * a slowdown table against the first, then the figures with their captions
 * (or the note saying why one is not drawn).
 *
 * A netbench sweep's page has the same parts: its inputs in the header,
 * then a table of every point (per curve and offered load) and the figures;
 * a calibration's: its command line, method and loss, a table of its
 * parameters, and the figures.
 */
#ifndef NCSIM_REPORT_HTML_H
#define NCSIM_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "report/calib.h"
#include "report/figures.h"
#include "report/netbench.h"
#include "report/run.h"

typedef struct rep_page {
	rep_run *const *runs;          /* the runs, or NULL for a netbench sweep */
	size_t nruns;
	const rep_nb *nb;              /* the netbench sweep, or NULL */
	const rep_cal *cal;            /* the calibration, or NULL */
	const rep_figures *figs;
	const char *figdir;            /* the figure folder as the page's reader finds it ("report") */
	const char *const *warnings;   /* shown at the top */
	size_t nwarnings;
} rep_page;

/* Writes the page to f (errors are the stream's: check ferror or the commit). */
void rep_html_write(FILE *f, const rep_page *p);
/* Writes the n bytes of s to f with &, <, > and " escaped. */
void rep_html_escape(FILE *f, const char *s, size_t n);

#endif

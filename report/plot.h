/*
 * plot.h - the three kinds of figure of the report as a data file and a
 * gnuplot script (prefix rep_plot_, rep_gp_).
 *
 * A figure is two texts: ID.dat, whitespace-separated columns with '#'
 * comments that name them and their unit, and ID.gp, a gnuplot script that
 * reads ID.dat from the current folder and writes ID.svg (or the file named
 * by the gnuplot variable outfile). Both are written beside the page, so
 * that a user can restyle a figure and run `gnuplot ID.gp` again. Kinds:
 *   - stacked bars (the time decomposition);
 *   - box plots from five figures and a mean (latencies, per-rank times);
 *   - empirical CDF curves (link load);
 *   - lines through points (netbench: latency and throughput against load),
 *     or steps through bins (I/O over time).
 * One data block (gnuplot's `index`) per series, each series one colour.
 */
#ifndef NCSIM_REPORT_PLOT_H
#define NCSIM_REPORT_PLOT_H

#include <stddef.h>

#include "report/stats.h"
#include "report/text.h"

typedef struct rep_figure {
	char *id;       /* the file stem (ID.dat, ID.gp, ID.svg) and the page anchor */
	char *title;    /* heading */
	char *caption;  /* what is plotted, from which file, in which units */
	char *note;     /* why the figure is not drawn (then data and script are NULL), or NULL */
	char *data;     /* ID.dat */
	char *script;   /* ID.gp */
	char *svg;      /* the drawing, once gnuplot made it (heap), or NULL */
} rep_figure;

/* Frees the texts of f. */
void rep_figure_free(rep_figure *f);

/* A labelled position on the x axis. */
typedef struct rep_tic {
	double x;
	const char *label;
} rep_tic;

/* The x axis of a bar or box figure: tics below (and, for clusters, above), and its range. */
typedef struct rep_xaxis {
	const rep_tic *tics, *top;  /* top: NULL, or labels of clusters along the upper edge */
	size_t ntics, ntop;
	int rotate;                 /* 1: tilt the lower labels (many bars) */
	double xmax;                /* the largest x of a bar or box */
} rep_xaxis;

/* One box of a box plot: its position, what it belongs to (the data file's label) and its figures. */
typedef struct rep_box_item {
	double x;
	const char *label;
	rep_box box;
} rep_box_item;

/* The boxes of one series (a run): one colour, one legend entry (name NULL: no legend). */
typedef struct rep_box_set {
	const char *name;
	const rep_box_item *items;
	size_t n;
} rep_box_set;

/*
 * Fills f->data and f->script with box plots of sets[0..nsets) in unit u
 * (ylabel names the quantity); a log y axis when every figure is positive and
 * they span more than 1000x. Returns 1 if the axis is logarithmic.
 */
int rep_plot_boxes(rep_figure *f, const char *comment, const rep_box_set *sets, size_t nsets, const rep_xaxis *ax,
                   rep_unit u, const char *ylabel);

/* One stacked bar: position, series and group labels, and the height of each part. */
typedef struct rep_bar {
	double x;
	const char *series, *group;
	size_t count;
	const double *parts;
} rep_bar;

/* How a part of the stacked bars looks: its column in the data file, its legend text, its colour. */
typedef struct rep_part_style {
	const char *column, *name, *color;
} rep_part_style;

/*
 * Fills f with stacked bars of nparts parts each (bottom first), in unit u;
 * parts that are 0 in every bar stay in the data file but out of the legend.
 */
void rep_plot_stack(rep_figure *f, const char *comment, const rep_bar *bars, size_t nbars, const rep_part_style *parts,
                    size_t nparts, const rep_xaxis *ax, rep_unit u, const char *ylabel);

/* One CDF curve: its legend text and its values, sorted. */
typedef struct rep_curve {
	const char *name;
	const double *sorted;
	size_t n;
} rep_curve;

/* Fills f with the CDFs of curves[0..n) (stats.h, rep_cdf), x in unit u; ylabel names what is counted. */
void rep_plot_cdf(rep_figure *f, const char *comment, const rep_curve *curves, size_t n, rep_unit u, const char *xlabel,
                  const char *ylabel);

/* A column of a line figure's data file: its name, and how it is drawn. */
typedef struct rep_line_col {
	const char *column;   /* its name in the data file's comment */
	const char *legend;   /* appended to the series name in the key; NULL: in the data file only */
	int dashed;           /* 1: dashed, open points (a second statistic of the same series) */
} rep_line_col;

/* One series of a line figure: its name in the key and n rows of ncols values (column 0 is x), row-major. */
typedef struct rep_line_series {
	const char *name;
	const double *v;
	size_t n;
} rep_line_series;

/* The axes of a line figure. */
typedef struct rep_line_axes {
	const char *xlabel, *ylabel;  /* with their units */
	int logy;                     /* a logarithmic y axis */
	const char *diagonal;         /* NULL, or the key text of a dotted y = x line */
	int steps;                    /* 1: steps centred on each x (binned values), no point marks */
} rep_line_axes;

/*
 * Fills f with lines through the points of series s[0..ns): one colour per
 * series, one line per drawn column (cols[1..ncols)). units says in the data
 * file what the values are. A series without a point has no block.
 */
void rep_plot_lines(rep_figure *f, const char *comment, const char *units, const rep_line_series *s, size_t ns,
                    const rep_line_col *cols, size_t ncols, const rep_line_axes *ax);

/* Pieces for figures drawn by scripts of their own (report/calib_figures.c). */
/* Appends s as a gnuplot single-quoted string. */
void rep_gp_str(rep_buf *b, const char *s);
/* Appends s as a label column of a data file (double quotes; a quote inside becomes an apostrophe). */
void rep_dat_str(rep_buf *b, const char *s);
/* Appends text as '#' comment lines of about 96 characters at most. */
void rep_dat_comment(rep_buf *b, const char *text);
/* Appends a script's first lines: what it is, how to redraw it, the SVG terminal and the common style. */
void rep_gp_begin(rep_buf *gp, const rep_figure *f);

/* The colour of series i (a fixed palette that prints well, then cycles). */
const char *rep_color(size_t i);

#endif

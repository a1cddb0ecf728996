/*
 * plot.c - data files and gnuplot scripts of the report's figures (see plot.h).
 */
#include "report/plot.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void rep_figure_free(rep_figure *f)
{
	free(f->id);
	free(f->title);
	free(f->caption);
	free(f->note);
	free(f->data);
	free(f->script);
	free(f->svg);
	*f = (rep_figure){0};
}

const char *rep_color(size_t i)
{
	/* Tableau 10: distinct in colour and in grey, so a printed page keeps them apart. */
	static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
	return palette[i % (sizeof palette / sizeof *palette)];
}

/* ------------------------------------------------------------------ quoting */

/* Appends s as a gnuplot single-quoted string ('' stands for a quote; no other escape exists there). */
void rep_gp_str(rep_buf *b, const char *s)
{
	rep_buf_puts(b, "'");
	for (; *s; s++)
		rep_buf_add(b, *s == '\'' ? "''" : s, *s == '\'' ? 2 : 1);
	rep_buf_puts(b, "'");
}

/* Appends s as a label column of a data file: in double quotes, a quote inside becomes an apostrophe. */
void rep_dat_str(rep_buf *b, const char *s)
{
	rep_buf_puts(b, "\"");
	for (; *s; s++)
		rep_buf_add(b, *s == '"' ? "'" : s, 1);
	rep_buf_puts(b, "\"");
}

/* Appends text as comment lines ("# ...") of at most about 96 characters, broken at blanks. */
void rep_dat_comment(rep_buf *b, const char *text)
{
	while (*text) {
		size_t n = strlen(text);
		if (n > 94) { /* the last blank that keeps the line short, else the first one */
			n = 94;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = strcspn(text, " ");
		}
		rep_buf_puts(b, "# ");
		rep_buf_add(b, text, n);
		rep_buf_puts(b, "\n");
		text += n;
		while (*text == ' ')
			text++;
	}
}

/* ------------------------------------------------------------------ scripts */

/* The script's first lines: what it is, how to run it, the SVG terminal and the common style. */
void rep_gp_begin(rep_buf *gp, const rep_figure *f)
{
	rep_buf_printf(gp,
	               "# %s.gp - %s\n"
	               "# Written by ncsim report from %s.dat (same folder). Edit it, then redraw with\n"
	               "#   gnuplot %s.gp                           (writes %s.svg)\n"
	               "#   gnuplot -e \"outfile='other.svg'\" %s.gp   (another name)\n"
	               "if (!exists(\"outfile\")) outfile = '%s.svg'\n"
	               "set terminal svg size 820,440 dynamic noenhanced font 'Helvetica,12' background rgb 'white'\n"
	               "set encoding utf8\n"
	               "set output outfile\n"
	               "set border 3\n"
	               "set tics nomirror out\n"
	               "set grid ytics lc rgb '#dddddd' lt 1\n",
	               f->id, f->title, f->id, f->id, f->id, f->id, f->id);
}

/* set xtics (...) from tics[0..n); axis is "x" or "x2". */
static void gp_tics(rep_buf *gp, const char *axis, const rep_tic *tics, size_t n, int rotate)
{
	rep_buf_printf(gp, "set %stics %s(", axis, rotate ? "rotate by -35 right " : "");
	for (size_t i = 0; i < n; i++) {
		if (i)
			rep_buf_puts(gp, ", ");
		rep_gp_str(gp, tics[i].label);
		rep_buf_printf(gp, " %g", tics[i].x);
	}
	rep_buf_puts(gp, ")\n");
}

/* The x axis of bars and boxes: its range, its labels, the cluster names along the top. */
static void gp_xaxis(rep_buf *gp, const rep_xaxis *ax)
{
	rep_buf_printf(gp, "set xrange [-0.8:%g]\n", ax->xmax + 0.8);
	gp_tics(gp, "x", ax->tics, ax->ntics, ax->rotate);
	if (ax->top) {
		rep_buf_puts(gp, "set link x2\n");
		gp_tics(gp, "x2", ax->top, ax->ntop, 0);
		rep_buf_puts(gp, "set x2tics scale 0\n");
	}
}

/* ---------------------------------------------------------------- box plots */

/* Whether the y axis should be logarithmic: every figure positive, and a span above 1000x. */
static int wants_log(const rep_box_set *sets, size_t nsets)
{
	double lo = 0, hi = 0;
	int first = 1;
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const rep_box *b = &sets[s].items[i].box;
			if (first || b->min < lo)
				lo = b->min;
			if (first || b->max > hi)
				hi = b->max;
			first = 0;
		}
	return !first && lo > 0 && hi > 1000 * lo;
}

int rep_plot_boxes(rep_figure *f, const char *comment, const rep_box_set *sets, size_t nsets, const rep_xaxis *ax,
                   rep_unit u, const char *ylabel)
{
	rep_buf dat = {0}, gp = {0};
	int logy = wants_log(sets, nsets);
	rep_dat_comment(&dat, f->title);
	rep_dat_comment(&dat, comment);
	rep_buf_printf(&dat, "# Values in %s. One block per series (gnuplot index 0, 1, ...).\n", u.name);
	rep_buf_puts(&dat, "# x label count min q1 median q3 max mean\n");
	rep_gp_begin(&gp, f);
	rep_buf_puts(&gp, "set key outside right top\nset style fill solid 0.3 border\nset boxwidth 0.6 absolute\n");
	gp_xaxis(&gp, ax);
	rep_buf_puts(&gp, "set ylabel ");
	char *yl = xasprintf("%s (%s%s)", ylabel, u.name, logy ? ", log scale" : "");
	rep_gp_str(&gp, yl);
	free(yl);
	rep_buf_puts(&gp, logy ? "\nset logscale y\n" : "\nset yrange [0:*]\n");
	rep_buf_printf(&gp, "plot ");
	/* A series without a box has no block (gnuplot warns on an empty one), but keeps its colour. */
	for (size_t s = 0, blk = 0; s < nsets; s++) {
		if (sets[s].n == 0)
			continue;
		rep_buf_printf(&dat, "%s# block %zu: %s\n", blk ? "\n\n" : "", blk, sets[s].name ? sets[s].name : "all");
		for (size_t i = 0; i < sets[s].n; i++) {
			const rep_box_item *it = &sets[s].items[i];
			const rep_box *b = &it->box;
			rep_buf_printf(&dat, "%g ", it->x);
			rep_dat_str(&dat, it->label);
			rep_buf_printf(&dat, " %zu %.9g %.9g %.9g %.9g %.9g %.9g\n", b->n, b->min / u.size, b->q1 / u.size,
			               b->median / u.size, b->q3 / u.size, b->max / u.size, b->mean / u.size);
		}
		const char *c = rep_color(s);
		rep_buf_printf(&gp, "%s'%s.dat' index %zu using 1:5:4:8:7 with candlesticks whiskerbars 0.5 lc rgb '%s' title ",
		               blk ? ", \\\n     " : "", f->id, blk, c);
		rep_gp_str(&gp, sets[s].name ? sets[s].name : "quartiles, min and max");
		rep_buf_printf(&gp, ", \\\n     '' index %zu using 1:6:6:6:6 with candlesticks lc rgb '%s' lw 2 %s", blk, c,
		               sets[s].name ? "notitle" : "title 'median'");
		rep_buf_printf(&gp, ", \\\n     '' index %zu using 1:9 with points pt 7 ps 0.6 lc rgb '%s' %s", blk, c,
		               sets[s].name ? "notitle" : "title 'mean'");
		blk++;
	}
	rep_buf_puts(&gp, "\n");
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
	return logy;
}

/* ------------------------------------------------------------- stacked bars */

void rep_plot_stack(rep_figure *f, const char *comment, const rep_bar *bars, size_t nbars, const rep_part_style *parts,
                    size_t nparts, const rep_xaxis *ax, rep_unit u, const char *ylabel)
{
	rep_buf dat = {0}, gp = {0};
	rep_dat_comment(&dat, f->title);
	rep_dat_comment(&dat, comment);
	rep_buf_printf(&dat, "# Values in %s.\n# x series group count", u.name);
	for (size_t p = 0; p < nparts; p++)
		rep_buf_printf(&dat, " %s", parts[p].column);
	rep_buf_puts(&dat, "\n");
	int *used = xcalloc(nparts ? nparts : 1, sizeof *used);
	for (size_t i = 0; i < nbars; i++) {
		rep_buf_printf(&dat, "%g ", bars[i].x);
		rep_dat_str(&dat, bars[i].series);
		rep_buf_puts(&dat, " ");
		rep_dat_str(&dat, bars[i].group);
		rep_buf_printf(&dat, " %zu", bars[i].count);
		for (size_t p = 0; p < nparts; p++) {
			rep_buf_printf(&dat, " %.9g", bars[i].parts[p] / u.size);
			used[p] |= bars[i].parts[p] > 0;
		}
		rep_buf_puts(&dat, "\n");
	}
	rep_gp_begin(&gp, f);
	rep_buf_puts(&gp, "set key outside right top\nset style fill solid 0.9 border lc rgb '#333333'\n"
	                  "set boxwidth 0.75 absolute\nset yrange [0:*]\n");
	gp_xaxis(&gp, ax);
	char *yl = xasprintf("%s (%s)", ylabel, u.name);
	rep_buf_puts(&gp, "set ylabel ");
	rep_gp_str(&gp, yl);
	free(yl);
	/* Each bar is drawn as the running sum up to a part, the tallest first, so the shorter ones cover it. */
	rep_buf_puts(&gp, "\nplot ");
	int first = 1;
	for (size_t p = nparts; p-- > 0;) {
		if (!used[p])
			continue;
		rep_buf_printf(&gp, "%s'%s.dat' using 1:(", first ? "" : ", \\\n     ", f->id);
		for (size_t q = 0; q <= p; q++)
			rep_buf_printf(&gp, "%s$%zu", q ? "+" : "", 5 + q);
		rep_buf_printf(&gp, ") with boxes lc rgb '%s' title ", parts[p].color);
		rep_gp_str(&gp, parts[p].name);
		first = 0;
	}
	rep_buf_puts(&gp, "\n");
	free(used);
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
}

/* ------------------------------------------------------------------- CDFs */

typedef struct cdf_out {
	rep_buf *dat;
	double unit;
} cdf_out;

static void put_point(void *arg, double x, double frac)
{
	cdf_out *o = arg;
	rep_buf_printf(o->dat, "%.9g %.9g\n", x / o->unit, frac);
}

void rep_plot_cdf(rep_figure *f, const char *comment, const rep_curve *curves, size_t n, rep_unit u, const char *xlabel,
                  const char *ylabel)
{
	rep_buf dat = {0}, gp = {0};
	cdf_out out = {&dat, u.size};
	rep_dat_comment(&dat, f->title);
	rep_dat_comment(&dat, comment);
	rep_buf_printf(&dat,
	               "# Values in %s. One block per curve (gnuplot index 0, 1, ...): value, then the fraction of\n"
	               "# the values at most that large. A curve starts at (its smallest value, 0); a curve of more\n"
	               "# than %d values keeps %d evenly spaced ones, the smallest and the largest among them.\n",
	               u.name, REP_CDF_POINTS, REP_CDF_POINTS);
	rep_gp_begin(&gp, f);
	rep_buf_puts(&gp, "set key inside right bottom\nset yrange [0:1.02]\nset xrange [0:*]\nset grid xtics\n");
	char *xl = xasprintf("%s (%s)", xlabel, u.name);
	rep_buf_puts(&gp, "set xlabel ");
	rep_gp_str(&gp, xl);
	rep_buf_puts(&gp, "\nset ylabel ");
	rep_gp_str(&gp, ylabel);
	free(xl);
	rep_buf_puts(&gp, "\nplot ");
	for (size_t i = 0; i < n; i++) {
		char *t = xasprintf("%s (%zu)", curves[i].name, curves[i].n);
		rep_buf_printf(&dat, "%s# block %zu: %s\n# value fraction\n", i ? "\n\n" : "", i, t);
		rep_cdf(curves[i].sorted, curves[i].n, put_point, &out);
		rep_buf_printf(&gp, "%s'%s.dat' index %zu using 1:2 with steps lw 2 lc rgb '%s' title ", i ? ", \\\n     " : "",
		               f->id, i, rep_color(i));
		rep_gp_str(&gp, t);
		free(t);
	}
	rep_buf_puts(&gp, "\n");
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
}

/* ------------------------------------------------------------------- lines */

void rep_plot_lines(rep_figure *f, const char *comment, const char *units, const rep_line_series *s, size_t ns,
                    const rep_line_col *cols, size_t ncols, const rep_line_axes *ax)
{
	rep_buf dat = {0}, gp = {0};
	rep_dat_comment(&dat, f->title);
	rep_dat_comment(&dat, comment);
	rep_dat_comment(&dat, units);
	rep_buf_puts(&dat, "# One block per curve (gnuplot index 0, 1, ...).\n#");
	for (size_t c = 0; c < ncols; c++)
		rep_buf_printf(&dat, " %s", cols[c].column);
	rep_buf_puts(&dat, "\n");
	rep_gp_begin(&gp, f);
	rep_buf_puts(&gp, "set key outside right top\nset xrange [0:*]\nset grid xtics\nset xlabel ");
	rep_gp_str(&gp, ax->xlabel);
	rep_buf_puts(&gp, "\nset ylabel ");
	rep_gp_str(&gp, ax->ylabel);
	rep_buf_puts(&gp, ax->logy ? "\nset logscale y\nplot " : "\nset yrange [0:*]\nplot ");
	const char *sep = "";
	for (size_t i = 0, blk = 0; i < ns; i++) {
		if (s[i].n == 0)
			continue;
		rep_buf_printf(&dat, "%s# block %zu: %s\n", blk ? "\n\n" : "", blk, s[i].name);
		for (size_t r = 0; r < s[i].n; r++)
			for (size_t c = 0; c < ncols; c++)
				rep_buf_printf(&dat, "%.9g%s", s[i].v[r * ncols + c], c + 1 < ncols ? " " : "\n");
		for (size_t c = 1; c < ncols; c++) {
			if (!cols[c].legend)
				continue;
			if (ax->steps)
				rep_buf_printf(&gp, "%s'%s.dat' index %zu using 1:%zu with histeps lw 2 %slc rgb '%s' title ", sep,
				               f->id, blk, c + 1, cols[c].dashed ? "dt 2 " : "", rep_color(i));
			else
				rep_buf_printf(&gp, "%s'%s.dat' index %zu using 1:%zu with linespoints lw 2 %s ps 0.8 lc rgb '%s' "
				               "title ", sep, f->id, blk, c + 1, cols[c].dashed ? "dt 2 pt 6" : "pt 7", rep_color(i));
			char *t = xasprintf("%s%s", s[i].name, cols[c].legend);
			rep_gp_str(&gp, t);
			free(t);
			sep = ", \\\n     ";
		}
		blk++;
	}
	if (ax->diagonal) {
		rep_buf_printf(&gp, "%sx with lines dt 3 lc rgb '#888888' title ", sep);
		rep_gp_str(&gp, ax->diagonal);
	}
	rep_buf_puts(&gp, "\n");
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
}

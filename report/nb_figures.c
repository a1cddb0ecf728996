/*
 * nb_figures.c - the figures of a netbench load sweep (see nb_figures.h).
 */
#include "report/nb_figures.h"

#include <stdlib.h>
#include <string.h>

#include "report/text.h"

/* Sentences about points averaged over several rows, and (latency) points without a counted message. */
static void about_rows(rep_buf *cap, const rep_nb *nb, int latency)
{
	size_t many = 0, none = 0;
	for (size_t i = 0; i < nb->series.len; i++)
		for (size_t j = 0; j < nb->series.ptr[i].points.len; j++) {
			const rep_nb_point *p = &nb->series.ptr[i].points.ptr[j];
			many += (latency ? p->counted : p->rows) > 1;
			none += p->counted == 0;
		}
	if (many)
		rep_buf_printf(cap, " %zu point%s average%s several runs at the same load (seeds).", many,
		               many == 1 ? "" : "s", many == 1 ? "s" : "");
	if (latency && none)
		rep_buf_printf(cap, " %zu point%s left out: no message was counted in the window.", none,
		                 none == 1 ? " is" : "s are");
}

/* --------------------------------------------------------------- latency */

/* Latency columns of the data file: offered load, then the statistics in the figure's unit. */
static const rep_line_col lat_cols[] = {
    {"offered", NULL, 0}, {"mean", " mean", 0}, {"p99", " p99", 1}, {"p50", NULL, 0},
    {"p90", NULL, 0},     {"max", NULL, 0},     {"runs", NULL, 0},
};
enum { LAT_NCOLS = sizeof lat_cols / sizeof *lat_cols };
static const int lat_src[LAT_NCOLS - 1] = {REP_NB_OFFERED, REP_NB_MEAN, REP_NB_P99, REP_NB_P50, REP_NB_P90, REP_NB_MAX};

static void fig_latency(rep_figures *out, const rep_nb *nb)
{
	rep_figure *f = rep_fig_add(out, "nb-latency", "Message latency against offered load");
	rep_line_series *s = xcalloc(nb->series.len + 1, sizeof *s);
	double top = 0, low = 0;
	size_t npts = 0;
	for (size_t i = 0; i < nb->series.len; i++)
		for (size_t j = 0; j < nb->series.ptr[i].points.len; j++) {
			const rep_nb_point *p = &nb->series.ptr[i].points.ptr[j];
			if (!p->counted)
				continue;
			top = p->v[REP_NB_P99] > top ? p->v[REP_NB_P99] : top;
			low = npts == 0 || p->v[REP_NB_MEAN] < low ? p->v[REP_NB_MEAN] : low;
			npts++;
		}
	rep_unit u = rep_unit_time(top * 1e6);
	double *v = xcalloc(npts * LAT_NCOLS + 1, sizeof *v), *w = v;
	for (size_t i = 0; i < nb->series.len; i++) {
		const rep_nb_series *ser = &nb->series.ptr[i];
		s[i] = (rep_line_series){ser->name, w, 0};
		for (size_t j = 0; j < ser->points.len; j++) {
			const rep_nb_point *p = &ser->points.ptr[j];
			if (!p->counted)
				continue;
			for (int c = 0; c < LAT_NCOLS - 1; c++) /* latencies are in us, the offered load a fraction */
				*w++ = c == 0 ? p->v[lat_src[c]] : p->v[lat_src[c]] * 1e6 / u.size;
			*w++ = (double)p->counted;
			s[i].n++;
		}
	}
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The mean (solid) and 99th-percentile (dashed) latency of the messages netbench counted, "
	                   "from the injection of a message's first packet to the arrival of its last, against the "
	                   "offered load (the fraction of its terminal link's bandwidth each node injects, --load). "
	                   "One colour per routing; a point is the mean of the runs at that load (the data file "
	                   "also has p50, p90 and max).");
	about_rows(&cap, nb, 1);
	if (npts == 0) {
		f->note = xstrdup("No run counted a message (msgs is 0 in every row): nothing to draw.");
	} else {
		/* A latency that grows a hundredfold near saturation would flatten the rest of the curve. */
		int logy = low > 0 && top > 100 * low;
		char *yl = xasprintf("latency (%s%s)", u.name, logy ? ", log scale" : "");
		char *units = xasprintf("Offered load: fraction of the terminal bandwidth; latencies in %s; runs: the "
		                        "rows averaged.", u.name);
		rep_line_axes ax = {"offered load (fraction of terminal bandwidth)", yl, logy, NULL, 0};
		rep_plot_lines(f, cap.ptr, units, s, nb->series.len, lat_cols, LAT_NCOLS, &ax);
		rep_buf_printf(&cap, " Latencies in %s%s.", u.name, logy ? ", on a log scale" : "");
		free(yl);
		free(units);
	}
	f->caption = rep_buf_take(&cap);
	free(v);
	free(s);
}

/* ------------------------------------------------------------ throughput */

static const rep_line_col thr_cols[] = {{"offered", NULL, 0}, {"accepted", "", 0}, {"runs", NULL, 0}};
enum { THR_NCOLS = sizeof thr_cols / sizeof *thr_cols };

static void fig_throughput(rep_figures *out, const rep_nb *nb)
{
	rep_figure *f = rep_fig_add(out, "nb-throughput", "Accepted against offered load");
	rep_line_series *s = xcalloc(nb->series.len + 1, sizeof *s);
	size_t npts = 0;
	for (size_t i = 0; i < nb->series.len; i++)
		npts += nb->series.ptr[i].points.len;
	double *v = xcalloc(npts * THR_NCOLS + 1, sizeof *v), *w = v;
	for (size_t i = 0; i < nb->series.len; i++) {
		const rep_nb_series *ser = &nb->series.ptr[i];
		s[i] = (rep_line_series){ser->name, w, ser->points.len};
		for (size_t j = 0; j < ser->points.len; j++) {
			*w++ = ser->points.ptr[j].v[REP_NB_OFFERED];
			*w++ = ser->points.ptr[j].v[REP_NB_ACCEPTED];
			*w++ = (double)ser->points.ptr[j].rows;
		}
	}
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The accepted throughput (the bytes delivered in the measurement window, per node, as a "
	                   "fraction of the terminal bandwidth) against the offered load, one colour per routing. "
	                   "The dotted line is accepted = offered: a curve that falls below it has saturated.");
	about_rows(&cap, nb, 0);
	rep_line_axes ax = {"offered load (fraction of terminal bandwidth)", "accepted load (fraction of terminal bandwidth)",
	                    0, "accepted = offered", 0};
	rep_plot_lines(f, cap.ptr, "Offered and accepted load: fractions of the terminal bandwidth; runs: the rows "
	               "averaged.", s, nb->series.len, thr_cols, THR_NCOLS, &ax);
	f->caption = rep_buf_take(&cap);
	free(v);
	free(s);
}

void rep_nbfig_build(const rep_nb *nb, rep_figures *out)
{
	fig_latency(out, nb);
	fig_throughput(out, nb);
}

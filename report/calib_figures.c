/*
 * calib_figures.c - the figures of a calibration (see calib_figures.h).
 */
#include "report/calib_figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/text.h"

/* A file name and anchor made of name: other characters than letters, digits, - and _ become _ (heap). */
static char *file_id(const char *prefix, const char *name)
{
	char *id = xasprintf("%s%s", prefix, name);
	for (char *p = id + strlen(prefix); *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *p))
			*p = '_';
	return id;
}

rep_unit rep_calfig_unit(const rep_cal_param *p, char *buf, size_t size)
{
	double top = fabs(p->high) > fabs(p->low) ? fabs(p->high) : fabs(p->low);
	if (!strcmp(p->unit, "ps"))
		return rep_unit_time(top);
	if (!strcmp(p->unit, "B/s")) {
		rep_unit u = rep_unit_bytes(top);
		snprintf(buf, size, "%s/s", u.name);
		return (rep_unit){buf, u.size};
	}
	snprintf(buf, size, "%s", p->unit);
	return (rep_unit){buf, 1};
}

/* ------------------------------------------------------------------- loss */

static const rep_line_col loss_cols[] = {{"evaluation", NULL, 0}, {"loss", " each evaluation", 1},
                                         {"best", " best so far", 0}};

static void fig_loss(rep_figures *out, const rep_cal *c)
{
	rep_figure *f = rep_fig_add(out, "calib-loss", "Convergence of the loss");
	size_t n = 0;
	double lo = 0, hi = 0;
	for (size_t l = 0; l < c->levels.len; l++)
		for (size_t i = 0; i < c->levels.ptr[l].evals.len; i++, n++) {
			double x = c->levels.ptr[l].evals.ptr[i].loss;
			lo = n == 0 || x < lo ? x : lo;
			hi = n == 0 || x > hi ? x : hi;
		}
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The loss of every evaluation of the search (history.csv; the profiles around the best "
	                   "values are left out) and the best loss so far, against the evaluation's number.");
	if (c->levels.len > 1)
		rep_buf_puts(&cap, " One colour per level of detail.");
	if (n == 0) {
		f->note = xasprintf("%s: nothing to draw.", c->history_missing ? c->history_missing
		                                                               : "history.csv lists no evaluation with a loss");
	} else {
		rep_line_series *s = xcalloc(c->levels.len, sizeof *s);
		double *v = xcalloc(3 * n, sizeof *v), *w = v;
		for (size_t l = 0; l < c->levels.len; l++) {
			const rep_cal_level *lv = &c->levels.ptr[l];
			double best = 0;
			s[l] = (rep_line_series){*lv->name ? lv->name : "loss", w, lv->evals.len};
			for (size_t i = 0; i < lv->evals.len; i++) {
				best = i == 0 || lv->evals.ptr[i].loss < best ? lv->evals.ptr[i].loss : best;
				*w++ = lv->evals.ptr[i].eval;
				*w++ = lv->evals.ptr[i].loss;
				*w++ = best;
			}
		}
		int logy = lo > 0 && hi > 100 * lo;
		rep_line_axes ax = {"evaluation", logy ? "loss (log scale)" : "loss", logy, NULL, 0};
		rep_plot_lines(f, cap.ptr, "Losses as calibrate reports them (its loss function: calibration.json, "
		               "settings.loss).", s, c->levels.len, loss_cols, 3, &ax);
		rep_buf_printf(&cap, " The loss is the calibration's own (%s)%s.", "calibration.json, settings.loss",
		               logy ? ", on a log scale" : "");
		free(v);
		free(s);
	}
	f->caption = rep_buf_take(&cap);
}

/* ---------------------------------------------------------------- the fit */

/* Whether the values v[0..n) (every k-th of a row-major table) span more than ratio, all positive. */
static int spans(const double *v, size_t n, size_t k, double ratio)
{
	double lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		double x = v[i * k];
		if (x <= 0)
			return 0;
		lo = i == 0 || x < lo ? x : lo;
		hi = i == 0 || x > hi ? x : hi;
	}
	return n > 0 && hi > ratio * lo;
}

enum { F_X, F_MEAS, F_SPREAD, F_SIM, F_ERR, F_P05, F_P50, F_P95, F_NCOLS };

/*
 * The script of a fit figure, two plots one above the other with the same x
 * axis: the values (bayes: the band and its median; the measured points with
 * error bars; the simulated curve), and below each point's relative error.
 */
static void fit_script(rep_buf *gp, const rep_figure *f, const rep_cal *c, const double *v, size_t n)
{
	rep_gp_begin(gp, f);
	int logx = spans(v + F_X, n, F_NCOLS, 15), logy = spans(v + F_MEAS, n, F_NCOLS, 100) && spans(v + F_SIM, n, F_NCOLS, 1);
	rep_buf_printf(gp, "set key outside right top\nset grid xtics\n%s"
	               "set lmargin at screen 0.1\nset rmargin at screen 0.7\nset multiplot\n"
	               "set origin 0,0.34\nset size 1,0.66\nset bmargin 1\nset format x ''\n%s"
	               "set ylabel 'value (measured column''s unit%s)'\nplot ",
	               logx ? "set logscale x 2\n" : "", logy ? "set logscale y\n" : "", logy ? ", log scale" : "");
	if (c->bayes)
		rep_buf_printf(gp, "'%s.dat' using 1:6:8 with filledcurves fc rgb '#4e79a7' fs transparent solid 0.25 "
		               "title '90%% posterior band', \\\n     '' using 1:7 with lines lw 1 dt 2 lc rgb '#4e79a7' "
		               "title 'posterior median', \\\n     ",
		               f->id);
	rep_buf_printf(gp, "'%s.dat' using 1:2:3 with yerrorbars pt 7 ps 0.6 lc rgb '#222222' title 'measured', "
	               "\\\n     '' using 1:4 with linespoints lw 2 pt 6 ps 0.8 lc rgb '#f28e2b' title '%s'\n",
	               f->id, c->bayes ? "MAP run" : "best values");
	rep_buf_printf(gp, "set origin 0,0\nset size 1,0.34\nset tmargin 0.5\nset bmargin 4\nunset logscale y\n"
	               "set format x %s\nset xlabel 'x (the benchmark''s first column%s)'\nset ylabel 'error (%%)'\n"
	               "plot '%s.dat' using 1:5 with impulses lw 3 lc rgb '#e15759' title 'relative error', \\\n"
	               "     0 with lines lc rgb '#888888' notitle\nunset multiplot\n",
	               logx ? "'%.0s%c'" : "'%g'", logx ? ", log scale" : "", f->id);
}

static int is_predicted(const rep_cal *c, const char *bench)
{
	for (size_t i = 0; i < c->predicted.len; i++)
		if (!strcmp(c->predicted.ptr[i], bench))
			return 1;
	return 0;
}

/* The figure of benchmark bench: its points, from index first on. */
static void fig_fit(rep_figures *out, const rep_cal *c, const char *bench)
{
	char *id = file_id("calib-fit-", bench);
	int predicted = is_predicted(c, bench);
	char *title = xasprintf("Measured and simulated: %s%s", bench, predicted ? " (predicted, not fitted)" : "");
	rep_figure *f = rep_fig_add(out, id, title);
	rep_buf dat = {0}, gp = {0}, cap = {0};
	size_t n = 0;
	double *v = xcalloc(c->points.len * F_NCOLS + 1, sizeof *v);
	for (size_t i = 0; i < c->points.len; i++) {
		const rep_cal_point *p = &c->points.ptr[i];
		if (strcmp(p->bench, bench))
			continue;
		double row[F_NCOLS] = {p->x, p->measured, p->spread, p->sim,
		                       p->measured != 0 ? (p->sim - p->measured) / p->measured * 100 : 0,
		                       p->band[0], p->band[1], p->band[2]};
		memcpy(v + n++ * F_NCOLS, row, sizeof row);
	}
	rep_buf_printf(&cap, "Benchmark %s: the measured mean at each x with %s (error bars), the simulated value %s "
	               "(calibration.json)%s, and below, the relative error (simulated - measured) / measured of each "
	               "point in %%. Values in the unit of the benchmark's measured column.",
	               bench, c->bayes ? "its standard error" : "the standard deviation of the trials",
	               c->bayes ? "of a run at the maximum a posteriori values" : "at the best values found",
	               c->bayes ? ", and the 5% to 95% band of the posterior predictive distribution (its median dashed)"
	                        : "");
	if (predicted)
		rep_buf_puts(&cap, " This benchmark was not fitted: it checks the calibrated system on data the search "
		                   "did not see.");
	rep_dat_comment(&dat, title);
	rep_dat_comment(&dat, cap.ptr);
	rep_buf_puts(&dat, "# x measured spread simulated error_percent p05 p50 p95 (p05 to p95: --bayes only)\n");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < F_NCOLS; k++)
			rep_buf_printf(&dat, "%.9g%s", v[i * F_NCOLS + k], k + 1 < F_NCOLS ? " " : "\n");
	fit_script(&gp, f, c, v, n);
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
	f->caption = rep_buf_take(&cap);
	free(v);
	free(id);
	free(title);
}

/* ---------------------------------------------------------------- posterior */

static void fig_posterior(rep_figures *out, const rep_cal *c, size_t k)
{
	const rep_cal_param *p = &c->params.ptr[k];
	char *id = xasprintf("posterior-%zu", k + 1), *title = xasprintf("Posterior of %s", p->name), ubuf[32];
	rep_figure *f = rep_fig_add(out, id, title);
	rep_unit u = rep_calfig_unit(p, ubuf, sizeof ubuf);
	rep_buf dat = {0}, gp = {0}, cap = {0};
	rep_buf_printf(&cap, "The marginal posterior of %s: the share of the %zu samples of posterior.csv in each of %d "
	               "equal bins%s over their range; the dashed line is the maximum a posteriori value (MAP). Mean "
	               "%.4g, sd %.3g, 5%% to 95%%: %.4g to %.4g, against a prior from %.4g to %.4g %s.",
	               p->name, p->samples, REP_CAL_BINS, p->log ? " of its logarithm" : "", p->mean / u.size,
	               p->sd / u.size, p->p05 / u.size, p->p95 / u.size, p->low / u.size, p->high / u.size, u.name);
	if (!p->constrained)
		rep_buf_puts(&cap, " The calibration reports it as not constrained by the data.");
	if (p->samples == 0) {
		f->note = xasprintf("%s has no samples in posterior.csv: nothing to draw.", p->name);
	} else {
		rep_dat_comment(&dat, title);
		rep_dat_comment(&dat, cap.ptr);
		rep_buf_printf(&dat, "# Values in %s.\n# left right centre share\n", *u.name ? u.name : "the parameter's unit");
		double w = (p->hi - p->lo) / REP_CAL_BINS;
		for (size_t b = 0; b < REP_CAL_BINS; b++) {
			double l = p->lo + (double)b * w, r = l + w, m = l + w / 2;
			if (p->log) {
				l = exp(l);
				r = exp(r);
				m = exp(m);
			}
			rep_buf_printf(&dat, "%.9g %.9g %.9g %.9g\n", l / u.size, r / u.size, m / u.size,
			               p->counts[b] / (double)p->samples);
		}
		/* a log axis only over a decade or more: gnuplot draws no tic on a narrower one */
		int logx = p->log && p->hi - p->lo > log(10);
		rep_gp_begin(&gp, f);
		rep_buf_printf(&gp, "set key outside right top\nset style fill solid 0.5 border\nset yrange [0:*]\n"
		               "set autoscale xfix\nset offsets graph 0.05, graph 0.05, 0, 0\n%sset xlabel ",
		               logx ? "set logscale x\n" : "");
		char *xl = xasprintf("%s (%s%s)", p->name, *u.name ? u.name : "no unit", logx ? ", log scale" : "");
		rep_gp_str(&gp, xl);
		free(xl);
		double top = 0;
		for (size_t b = 0; b < REP_CAL_BINS; b++)
			top = p->counts[b] > top ? p->counts[b] : top;
		/* the MAP: a vector as tall as the highest bar, drawn from the first row of the data */
		rep_buf_printf(&gp, "\nset ylabel 'share of the samples'\nplot '%s.dat' using 3:4:1:2:(0):4 with boxxyerror "
		               "lc rgb '#4e79a7' title 'posterior samples', \\\n     '' every ::0::0 using (%.9g):(0):(0):"
		               "(%.9g) with vectors nohead dt 2 lw 2 lc rgb '#e15759' title 'MAP'\n",
		               f->id, p->best / u.size, top / (double)p->samples);
		f->data = rep_buf_take(&dat);
		f->script = rep_buf_take(&gp);
	}
	f->caption = rep_buf_take(&cap);
	free(id);
	free(title);
}

/* ------------------------------------------------------------------- Sobol */

static void fig_sobol(rep_figures *out, const rep_cal *c, size_t nparams)
{
	rep_figure *f = rep_fig_add(out, "calib-sobol", "Sobol total indices per measured point");
	rep_buf dat = {0}, gp = {0}, cap = {0};
	rep_buf_puts(&cap, "The Sobol total index of each parameter (row) at each measured point (column, benchmark "
	                   "and x) over the prior ranges (calibration.json, points[].sobol_total; sobol.csv has the "
	                   "first-order ones too): the share of the variance of the simulated value there that involves "
	                   "the parameter, from 0 (white: the point does not see it) to 1 (dark: it alone decides).");
	rep_dat_comment(&dat, f->title);
	rep_dat_comment(&dat, cap.ptr);
	rep_buf_puts(&dat, "# point parameter total benchmark x\n");
	size_t step = c->points.len / 40 + 1; /* at most about 40 labelled columns */
	rep_gp_begin(&gp, f);
	rep_buf_printf(&gp, "unset grid\nset xrange [-0.5:%g]\nset yrange [-0.5:%g]\nset cbrange [0:1]\n"
	               "set palette defined (0 'white', 1 '#1f4e79')\nset cblabel 'total index'\nset xtics rotate by "
	               "-60 font ',9' (", (double)c->points.len - 0.5, (double)nparams - 0.5);
	for (size_t i = 0; i < c->points.len; i++) {
		const rep_cal_point *p = &c->points.ptr[i];
		for (size_t k = 0; k < nparams; k++) {
			rep_buf_printf(&dat, "%zu %zu %.6g ", i, k, k < p->nsobol ? p->sobol[k] : 0);
			rep_dat_str(&dat, p->bench);
			rep_buf_printf(&dat, " %.9g\n", p->x);
		}
		if (i % step == 0) {
			char *t = xasprintf("%s %.10g", p->bench, p->x);
			rep_buf_puts(&gp, i ? ", " : "");
			rep_gp_str(&gp, t);
			rep_buf_printf(&gp, " %zu", i);
			free(t);
		}
	}
	rep_buf_puts(&gp, ")\nset ytics (");
	for (size_t k = 0; k < nparams; k++) {
		rep_buf_puts(&gp, k ? ", " : "");
		rep_gp_str(&gp, c->params.ptr[k].name);
		rep_buf_printf(&gp, " %zu", k);
	}
	rep_buf_printf(&gp, ")\nplot '%s.dat' using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5):3 with boxxyerror fs "
	               "solid 1.0 noborder fc palette notitle\n", f->id);
	f->data = rep_buf_take(&dat);
	f->script = rep_buf_take(&gp);
	f->caption = rep_buf_take(&cap);
}

void rep_calfig_build(const rep_cal *c, rep_figures *out)
{
	if (!c->bayes)
		fig_loss(out, c);
	for (size_t i = 0; i < c->points.len; i++) {
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(c->points.ptr[k].bench, c->points.ptr[i].bench);
		if (!seen)
			fig_fit(out, c, c->points.ptr[i].bench);
	}
	if (!c->bayes)
		return;
	for (size_t k = 0; k < c->params.len && !c->posterior_missing; k++)
		fig_posterior(out, c, k);
	size_t nsobol = 0;
	for (size_t i = 0; i < c->points.len; i++)
		nsobol = c->points.ptr[i].nsobol > nsobol ? c->points.ptr[i].nsobol : nsobol;
	if (nsobol && nsobol <= c->params.len)
		fig_sobol(out, c, nsobol);
}

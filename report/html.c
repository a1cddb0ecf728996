/*
 * html.c - the report page (see html.h).
 */
#include "config.h"

#include "report/html.h"

#include <string.h>

#include "report/calib_figures.h"
#include "report/text.h"

/* Plain CSS: the page reads the same with the style sheet off, and prints one figure per block. */
static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#222;"
    "max-width:62rem;margin:1.5rem auto;padding:0 1rem}\n"
    "h1{font-size:1.6rem;margin:0 0 .5rem}\n"
    "h2{font-size:1.2rem;border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}\n"
    "table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}\n"
    "th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}\n"
    "th{background:#f2f2f2}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;word-break:break-all}\n"
    ".warning{border:2px solid #c0392b;background:#fdecea;padding:.5rem .8rem;margin:1rem 0}\n"
    ".note{border-left:4px solid #999;background:#f4f4f4;padding:.4rem .8rem}\n"
    "figure{margin:1rem 0;break-inside:avoid;page-break-inside:avoid}\n"
    "figure svg{width:100%;height:auto;display:block}\n"
    "figcaption{font-size:.9rem;margin-top:.3rem}\n"
    "footer{margin-top:2rem;font-size:.8rem;color:#555}\n"
    "@media print{body{max-width:none;margin:0;font-size:10pt}a{color:inherit;text-decoration:none}"
    "h2{break-after:avoid;page-break-after:avoid}.warning{border-width:3px}}\n";

void rep_html_escape(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
}

static void esc(FILE *f, const char *s) { rep_html_escape(f, s, strlen(s)); }

/* A table cell holding a time or a size in its own unit. */
static void cell_quantity(FILE *f, double v, int bytes)
{
	rep_buf b = {0};
	rep_buf_quantity(&b, v, bytes);
	fprintf(f, "<td class=\"n\">%s</td>", b.ptr);
	rep_buf_free(&b);
}

static void cell_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, *s ? s : "?");
	fputs("</td>", f);
}

/* ------------------------------------------------------------------ header */

/* Opens the header's table of one input: its command line and folder, then the rows names[i]: vals[i]. */
static void inputs_head(FILE *f, const char *command, const char *dir, const char *const *names,
                        const char *const *vals, size_t n)
{
	fputs("<table class=\"inputs\">\n<tr><th>Command line</th><td><code>", f);
	esc(f, *command ? command : "?");
	fputs("</code></td></tr>\n<tr><th>Folder</th><td><code>", f);
	esc(f, dir);
	fputs("</code></td></tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<tr><th>%s</th>", names[i]);
		cell_text(f, vals[i]);
		fputs("</tr>\n", f);
	}
}

static void inputs_one(FILE *f, const rep_run *r)
{
	static const char *const names[] = {"System", "Network", "ncsim version", "Status"};
	const char *vals[] = {r->system, r->network, r->version, r->status};
	inputs_head(f, r->command, r->dir, names, vals, 4);
	fprintf(f, "<tr><th>Seed</th><td class=\"n\">%llu</td></tr>\n", (unsigned long long)r->seed);
	fputs("<tr><th>Simulated time</th>", f);
	cell_quantity(f, (double)r->sim_end_ps, 0);
	fprintf(f, "</tr>\n<tr><th>Events</th><td class=\"n\">%llu</td></tr>\n", (unsigned long long)r->events);
	if (r->wall_seconds >= 0)
		fprintf(f, "<tr><th>Wall time</th><td class=\"n\">%.3g s</td></tr>\n", r->wall_seconds);
	fputs("</table>\n", f);
}

/* Several runs: a row each, then their command lines below the table (long ones would squeeze its columns). */
static void inputs_many(FILE *f, const rep_page *p)
{
	fputs("<table class=\"inputs\">\n<tr><th>Run</th><th>Status</th><th>System</th><th>Network</th><th>Seed</th>"
	      "<th>ncsim</th><th>Simulated time</th></tr>\n",
	      f);
	for (size_t i = 0; i < p->nruns; i++) {
		const rep_run *r = p->runs[i];
		fputs("<tr>", f);
		cell_text(f, r->label);
		cell_text(f, r->status);
		cell_text(f, r->system);
		cell_text(f, r->network);
		fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)r->seed);
		cell_text(f, r->version);
		cell_quantity(f, (double)r->sim_end_ps, 0);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p>Command lines:</p>\n<ul class=\"commands\">\n", f);
	for (size_t i = 0; i < p->nruns; i++) {
		fputs("<li><b>", f);
		esc(f, p->runs[i]->label);
		fputs("</b>: <code>", f);
		esc(f, *p->runs[i]->command ? p->runs[i]->command : "?");
		fputs("</code></li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void contents(FILE *f, const rep_page *p)
{
	fprintf(f, "<nav><h2>Contents</h2>\n<ol>\n<li><a href=\"#summary\">%s</a></li>\n",
	        p->nb ? "Points per curve" : p->cal ? "Parameters" : "Summary per job");
	if (p->nruns > 1)
		fputs("<li><a href=\"#slowdown\">Slowdown</a></li>\n", f);
	for (size_t i = 0; i < p->figs->len; i++) {
		const rep_figure *g = &p->figs->ptr[i];
		fprintf(f, "<li><a href=\"#fig-%s\">Figure %zu. ", g->id, i + 1);
		esc(f, g->title);
		fputs(g->note ? " (not drawn)</a></li>\n" : "</a></li>\n", f);
	}
	fputs("</ol>\n</nav>\n", f);
}

/* ------------------------------------------------------------------ tables */

/* The mean per rank of a job total (0 for a job without tasks). */
static double per_rank(uint64_t total, uint64_t tasks) { return tasks ? (double)total / (double)tasks : 0; }

/* A table row about job x of run r of page p. */
typedef void (*job_row_fn)(FILE *f, const rep_page *p, const rep_job *x, size_t r);

/* Calls row() for every job of every run: jobs in the order of the first run that has them, each with its runs in order. */
static void each_job(FILE *f, const rep_page *p, job_row_fn row)
{
	for (size_t r0 = 0; r0 < p->nruns; r0++)
		for (size_t j = 0; j < p->runs[r0]->jobs.len; j++) {
			const char *name = p->runs[r0]->jobs.ptr[j].name;
			int seen = 0;
			for (size_t k = 0; k < r0; k++)
				seen |= rep_run_job(p->runs[k], name) != NULL;
			for (size_t r = r0; r < p->nruns && !seen; r++) {
				const rep_job *x = rep_run_job(p->runs[r], name);
				if (x)
					row(f, p, x, r);
			}
		}
}

static void summary_row(FILE *f, const rep_page *p, const rep_job *x, size_t r)
{
	fputs("<tr>", f);
	cell_text(f, x->name);
	if (p->nruns > 1)
		cell_text(f, p->runs[r]->label);
	fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)x->tasks);
	cell_quantity(f, (double)x->end_ps, 0);
	cell_quantity(f, per_rank(x->compute_ps, x->tasks), 0);
	cell_quantity(f, per_rank(x->mpi_ps, x->tasks), 0);
	cell_quantity(f, per_rank(x->io_ps, x->tasks), 0);
	cell_quantity(f, (double)x->bytes_sent, 1);
	fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)x->msgs_sent);
	cell_quantity(f, (double)x->io_bytes, 1);
	fputs("</tr>\n", f);
}

static void summary(FILE *f, const rep_page *p)
{
	int many = p->nruns > 1;
	fputs("<section id=\"summary\">\n<h2>Summary per job</h2>\n<p>From summary.json. End: the time the job's last "
	      "rank ended. Compute, MPI and I/O: the job's totals divided by its tasks (the mean per rank). "
	      "Bytes and messages: sent by the job's ranks; I/O bytes: read and written.</p>\n<table>\n<tr><th>Job</th>",
	      f);
	if (many)
		fputs("<th>Run</th>", f);
	fputs("<th>Tasks</th><th>End</th><th>Compute</th><th>MPI</th><th>I/O</th><th>Bytes sent</th>"
	      "<th>Messages</th><th>I/O bytes</th></tr>\n",
	      f);
	each_job(f, p, summary_row);
	fputs("</table>\n</section>\n", f);
}

/* A ratio cell: x / ref, or a dash when there is no reference. */
static void cell_ratio(FILE *f, double x, double ref)
{
	if (ref > 0)
		fprintf(f, "<td class=\"n\">%.3f</td>", x / ref);
	else
		fputs("<td class=\"n\">&ndash;</td>", f);
}

/*
 * How much names a and b share: the length of their common beginning plus
 * that of their common end (run-study.sh names its runs
 * WORKLOAD-PLACEMENT-ROUTING, MFNetSim's full study PLACEMENT-ROUTING-WORKLOAD).
 */
static size_t shared(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), pre = 0, suf = 0;
	while (pre < na && pre < nb && a[pre] == b[pre])
		pre++;
	while (suf < na - pre && suf < nb - pre && a[na - 1 - suf] == b[nb - 1 - suf])
		suf++;
	return pre + suf;
}

/*
 * The reference of job name in run r for the slowdown table, or NULL (no
 * row). When some runs have the job alone and others share the machine with
 * other jobs (an interference study), a run where it shares is compared with
 * the run where it is alone whose name shares the most with r's (the same
 * placement and routing); otherwise every run after the first that has the
 * job is compared with that first one.
 */
static const rep_run *reference(const rep_page *p, const char *name, size_t r)
{
	const rep_run *first = NULL, *alone = NULL;
	size_t nalone = 0, nshared = 0, best = 0;
	for (size_t k = 0; k < p->nruns; k++) {
		const rep_run *x = p->runs[k];
		if (!rep_run_job((rep_run *)x, name))
			continue;
		first = first ? first : x;
		if (x->jobs.len > 1) {
			nshared++;
			continue;
		}
		size_t s = shared(x->label, p->runs[r]->label);
		if (nalone++ == 0 || s > best) {
			alone = x;
			best = s;
		}
	}
	if (nalone && nshared) /* interference: only the runs where it shares, against one where it is alone */
		return p->runs[r]->jobs.len > 1 ? alone : NULL;
	return first == p->runs[r] ? NULL : first;
}

/* One row of the slowdown table: job x of run r against the same job in its reference run, if it has one. */
static void slowdown_row(FILE *f, const rep_page *p, const rep_job *x, size_t r)
{
	const rep_run *ref = reference(p, x->name, r);
	if (!ref)
		return;
	const rep_job *b = rep_run_job((rep_run *)ref, x->name);
	double mpi = per_rank(x->mpi_ps, x->tasks), io = per_rank(x->io_ps, x->tasks);
	fputs("<tr>", f);
	cell_text(f, x->name);
	cell_text(f, p->runs[r]->label);
	cell_text(f, ref->label);
	cell_quantity(f, (double)x->end_ps, 0);
	cell_ratio(f, (double)x->end_ps, (double)b->end_ps);
	cell_quantity(f, mpi, 0);
	cell_ratio(f, mpi, per_rank(b->mpi_ps, b->tasks));
	cell_quantity(f, io, 0);
	cell_ratio(f, io, per_rank(b->io_ps, b->tasks));
	fputs("</tr>\n", f);
}

static void slowdown(FILE *f, const rep_page *p)
{
	fputs("<section id=\"slowdown\">\n<h2>Slowdown</h2>\n<p>Each job against the same job (by name) in a "
	      "reference run: the ratio of its end time, of its mean MPI time per rank and of its mean I/O time "
	      "per rank (summary.json). The reference is the first run that has the job; but when some runs have "
	      "the job alone and others run it beside other jobs (an interference study), each run where it shares "
	      "the machine is compared with a run where it is alone, the one whose name shares the most with its own "
	      "at the start and the end (the same placement and routing in names such as WORKLOAD-PLACEMENT-ROUTING "
	      "or PLACEMENT-ROUTING-WORKLOAD). Above 1: slower than in the "
	      "reference; a dash: the reference spent no time there.</p>\n<table>\n<tr><th>Job</th><th>Run</th>"
	      "<th>Against</th><th>End</th><th>End ratio</th><th>MPI per rank</th><th>MPI ratio</th>"
	      "<th>I/O per rank</th><th>I/O ratio</th></tr>\n",
	      f);
	each_job(f, p, slowdown_row);
	fputs("</table>\n</section>\n", f);
}

/* ----------------------------------------------------------------- figures */

/* The first occurrence of any of the patterns in s, or NULL; *which says which. */
static const char *first_of(const char *s, const char *const *pats, size_t n, size_t *which)
{
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *q = strstr(s, pats[i]);
		if (q && (!best || q < best)) {
			best = q;
			*which = i;
		}
	}
	return best;
}

/*
 * Writes gnuplot's SVG inline: from its <svg> element on (the XML prologue
 * may not stand inside HTML), with its ids prefixed by the figure's own
 * (every gnuplot SVG defines the same ones, and ids must be unique in a
 * page), and its <title> naming the figure instead of gnuplot.
 */
static void inline_svg(FILE *f, const char *svg, const char *id, const char *title)
{
	static const char *const pats[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#", "<title>Gnuplot</title>"};
	const char *s = strstr(svg, "<svg");
	size_t which = 0;
	s = s ? s : svg;
	for (const char *q; (q = first_of(s, pats, 6, &which));) {
		size_t n = strlen(pats[which]);
		fwrite(s, 1, (size_t)(q - s), f);
		if (which == 5) {
			fputs("<title>", f);
			esc(f, title);
			fputs("</title>", f);
		} else {
			fprintf(f, "%s%s-", pats[which], id);
		}
		s = q + n;
	}
	fputs(s, f);
}

static void figure(FILE *f, const rep_page *p, size_t i)
{
	const rep_figure *g = &p->figs->ptr[i];
	fprintf(f, "<section id=\"fig-%s\">\n<h2>Figure %zu. ", g->id, i + 1);
	esc(f, g->title);
	fputs("</h2>\n", f);
	if (g->note) {
		fputs("<p class=\"note\">", f);
		esc(f, g->note);
		fputs("</p>\n", f);
		if (g->caption && *g->caption) {
			fputs("<p>", f);
			esc(f, g->caption);
			fputs("</p>\n", f);
		}
		fputs("</section>\n", f);
		return;
	}
	fputs("<figure>\n", f);
	if (g->svg)
		inline_svg(f, g->svg, g->id, g->title);
	fprintf(f, "\n<figcaption><b>Figure %zu.</b> ", i + 1);
	esc(f, g->caption);
	fputs(" Data: <code>", f);
	esc(f, p->figdir);
	fprintf(f, "/%s.dat</code>, gnuplot script: <code>", g->id);
	esc(f, p->figdir);
	fprintf(f, "/%s.gp</code>.</figcaption>\n</figure>\n</section>\n", g->id);
}

/* ---------------------------------------------------------------- netbench */

static void nb_inputs(FILE *f, const rep_nb *nb)
{
	fputs("<table class=\"inputs\">\n<tr><th>Input</th><th>CSV files</th><th>Rows</th><th>Curves</th></tr>\n", f);
	for (size_t i = 0; i < nb->inputs.len; i++) {
		const rep_nb_input *in = &nb->inputs.ptr[i];
		fputs("<tr><td><code>", f);
		esc(f, in->path);
		fprintf(f, "</code></td><td class=\"n\">%zu</td><td class=\"n\">%zu</td><td>", in->files, in->rows);
		const char *sep = "";
		for (size_t k = 0; k < nb->series.len; k++)
			if (nb->series.ptr[k].input == i) {
				fputs(sep, f);
				esc(f, nb->series.ptr[k].name);
				sep = ", ";
			}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The columns of the points table (p90 is in the latency figure's data file only, to keep the table narrow). */
static const struct {
	int col;
	const char *head;
} nb_table[] = {{REP_NB_OFFERED, "Offered"}, {REP_NB_ACCEPTED, "Accepted"}, {REP_NB_MSGS, "Messages"},
                {REP_NB_MEAN, "Mean"},       {REP_NB_P50, "p50"},           {REP_NB_P99, "p99"},
                {REP_NB_MAX, "Max"},         {REP_NB_HOPS, "Hops"},         {REP_NB_NONMIN, "Non-min."}};

/* A cell of point p's column k: latencies (us) in unit u, the other figures as numbers; a dash if unknown. */
static void nb_cell(FILE *f, const rep_nb *nb, const rep_nb_point *p, int k, rep_unit u)
{
	if (!nb->has[k] || (!p->counted && k >= REP_NB_MEAN))
		fputs("<td class=\"n\">&ndash;</td>", f);
	else if (k >= REP_NB_MEAN && k <= REP_NB_MAX)
		fprintf(f, "<td class=\"n\">%.4g</td>", p->v[k] * 1e6 / u.size);
	else
		fprintf(f, "<td class=\"n\">%.*f</td>", k == REP_NB_MSGS ? 0 : k == REP_NB_HOPS ? 3 : 4, p->v[k]);
}

static void nb_points(FILE *f, const rep_nb *nb)
{
	double top = 0;
	for (size_t i = 0; i < nb->series.len; i++)
		for (size_t j = 0; j < nb->series.ptr[i].points.len; j++)
			if (nb->series.ptr[i].points.ptr[j].v[REP_NB_MAX] > top)
				top = nb->series.ptr[i].points.ptr[j].v[REP_NB_MAX];
	rep_unit u = rep_unit_time(top * 1e6);
	fprintf(f, "<section id=\"summary\">\n<h2>Points per curve</h2>\n<p>From netbench's CSV rows: per curve and "
	        "offered load, the mean of its runs (latencies over the runs that counted a message). Loads are "
	        "fractions of the terminal bandwidth; latencies (mean, median, 99th percentile, maximum) in %s; hops "
	        "are router-to-router; non-min. is the share of messages with a non-minimal packet.</p>\n<table>\n"
	        "<tr><th>Curve</th>",
	        u.name);
	for (size_t k = 0; k < sizeof nb_table / sizeof *nb_table; k++)
		fprintf(f, "<th>%s</th>", nb_table[k].head);
	fputs("<th>Runs</th></tr>\n", f);
	for (size_t i = 0; i < nb->series.len; i++)
		for (size_t j = 0; j < nb->series.ptr[i].points.len; j++) {
			const rep_nb_point *p = &nb->series.ptr[i].points.ptr[j];
			fputs("<tr>", f);
			cell_text(f, nb->series.ptr[i].name);
			for (size_t k = 0; k < sizeof nb_table / sizeof *nb_table; k++)
				nb_cell(f, nb, p, nb_table[k].col, u);
			fprintf(f, "<td class=\"n\">%zu</td></tr>\n", p->rows);
		}
	fputs("</table>\n</section>\n", f);
}

/* ------------------------------------------------------------- calibration */

static void cal_inputs(FILE *f, const rep_cal *c)
{
	static const char *const names[] = {"Method", "Spec", "ncsim version", "Status"};
	const char *vals[] = {c->bayes ? "Bayesian (ncsim calibrate --bayes)" : "search (ncsim calibrate)", c->spec,
	                      c->version, *c->status ? c->status : (c->bayes ? "ok" : "")};
	inputs_head(f, c->command, c->dir, names, vals, 4);
	fprintf(f, "<tr><th>%s</th><td class=\"n\">%.6g</td></tr>\n", c->bayes ? "Loss at the MAP" : "Best loss",
	        c->loss);
	if (c->coverage >= 0)
		fprintf(f, "<tr><th>Predictive coverage</th><td class=\"n\">%.0f%% of the points inside their 90%% band"
		        "</td></tr>\n", c->coverage * 100);
	fputs("</table>\n", f);
}

/* A cell of parameter p's value v in its figures' unit. */
static void cell_param(FILE *f, const rep_cal_param *p, double v)
{
	char buf[32];
	rep_unit u = rep_calfig_unit(p, buf, sizeof buf);
	fprintf(f, "<td class=\"n\">%.4g%s", v / u.size, *u.name ? " " : "");
	esc(f, u.name);
	fputs("</td>", f);
}

static void cal_params(FILE *f, const rep_cal *c)
{
	fprintf(f, "<section id=\"summary\">\n<h2>Parameters</h2>\n<p>From calibration.json: %s, the range %s, and "
	        "whether the data constrain the parameter.</p>\n<table>\n<tr><th>Parameter</th>",
	        c->bayes ? "the posterior mean, standard deviation, 5% and 95% points and the maximum a posteriori value"
	                 : "the best value found",
	        c->bayes ? "of the prior" : "searched");
	fputs(c->bayes ? "<th>Mean</th><th>sd</th><th>5%</th><th>95%</th><th>MAP</th>" : "<th>Best</th>", f);
	fputs("<th>Low</th><th>High</th><th>Scale</th><th>Constrained</th></tr>\n", f);
	for (size_t i = 0; i < c->params.len; i++) {
		const rep_cal_param *p = &c->params.ptr[i];
		fputs("<tr>", f);
		cell_text(f, p->name);
		if (c->bayes) {
			double v[] = {p->mean, p->sd, p->p05, p->p95};
			for (size_t k = 0; k < 4; k++)
				cell_param(f, p, v[k]);
		}
		double v[] = {p->best, p->low, p->high};
		for (size_t k = 0; k < 3; k++)
			cell_param(f, p, v[k]);
		fprintf(f, "<td>%s</td><td>%s</td></tr>\n", p->log ? "log" : "linear", p->constrained ? "yes" : "no");
	}
	fputs("</table>\n</section>\n", f);
}

/* -------------------------------------------------------------------- page */

/* The page's name: the run, "N runs" or "netbench sweep", with a suffix for the heading. */
static void page_name(FILE *f, const rep_page *p, int heading)
{
	if (p->nb)
		fputs("netbench sweep", f);
	else if (p->cal) {
		fputs("calibration ", f);
		esc(f, p->cal->label);
	}
	else if (p->nruns == 1)
		esc(f, p->runs[0]->label);
	else
		fprintf(f, "%zu runs%s", p->nruns, heading ? " side by side" : "");
}

void rep_html_write(FILE *f, const rep_page *p)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ncsim report: ",
	      f);
	page_name(f, p, 0);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>ncsim report: ", style);
	page_name(f, p, 1);
	fputs("</h1>\n", f);
	if (p->nb)
		nb_inputs(f, p->nb);
	else if (p->cal)
		cal_inputs(f, p->cal);
	else if (p->nruns == 1)
		inputs_one(f, p->runs[0]);
	else
		inputs_many(f, p);
	fputs("</header>\n", f);
	for (size_t i = 0; i < p->nwarnings; i++) {
		fputs("<p class=\"warning\"><b>Warning:</b> ", f);
		esc(f, p->warnings[i]);
		fputs("</p>\n", f);
	}
	contents(f, p);
	if (p->nb)
		nb_points(f, p->nb);
	else if (p->cal)
		cal_params(f, p->cal);
	else
		summary(f, p);
	if (p->nruns > 1)
		slowdown(f, p);
	for (size_t i = 0; i < p->figs->len; i++)
		figure(f, p, i);
	fprintf(f, "<footer>Written by <code>ncsim report</code> (ncsim " PACKAGE_VERSION ") from %s. Each figure's "
	        "data and gnuplot script are in <code>",
	        p->nb    ? "netbench's CSV rows"
	        : p->cal ? "the calibration's calibration.json, history.csv and posterior.csv"
	                 : "the run folders' summary.json, tasks.csv, links.csv, links_by_class.csv, storage.csv, "
	                   "io.csv and device_busy.csv");
	esc(f, p->figdir);
	fputs("/</code>.</footer>\n</body>\n</html>\n", f);
}

/*
 * figures.c - which figures a report has, and their data (see figures.h).
 */
#include "report/figures.h"

#include <stdlib.h>
#include <string.h>

#include "report/io_figures.h"
#include "report/text.h"
#include "report/traffic.h"

/* A list of names that belong to the runs (jobs, link kinds). */
typedef VEC(const char *) name_vec;

/*
 * Where bars and boxes go: the jobs of every run (matched by name, in the
 * order they first appear), each a cluster with one slot per run that has
 * the job, clusters one slot apart (with several runs). A study folder's
 * runs often hold one job each, so a cluster keeps only the runs that have
 * its job, not an empty slot for every other run.
 */
typedef struct layout {
	rep_run *const *runs;
	size_t nruns;
	name_vec jobs;
	double *x;             /* x[j * nruns + r]: the slot of job j in run r (-1: the run has no such job) */
	double xmax;           /* the last slot */
	VEC(rep_tic) centres;  /* a tic at the middle of each cluster, named after its job */
	VEC(rep_tic) slots;    /* a tic at each (job, run) slot, named after its run */
} layout;

static double xpos(const layout *L, size_t job, size_t run) { return L->x[job * L->nruns + run]; }

static void layout_init(layout *L, rep_run *const *runs, size_t n)
{
	*L = (layout){.runs = runs, .nruns = n};
	for (size_t r = 0; r < n; r++)
		for (size_t j = 0; j < runs[r]->jobs.len; j++) {
			const char *name = runs[r]->jobs.ptr[j].name;
			size_t k = 0;
			while (k < L->jobs.len && strcmp(L->jobs.ptr[k], name))
				k++;
			if (k == L->jobs.len)
				VEC_PUSH(&L->jobs, name);
		}
	L->x = xcalloc(L->jobs.len * n + 1, sizeof *L->x);
	double next = 0;
	for (size_t j = 0; j < L->jobs.len; j++) {
		double first = next;
		for (size_t r = 0; r < n; r++) {
			L->x[j * n + r] = rep_run_job(runs[r], L->jobs.ptr[j]) ? next++ : -1;
			if (L->x[j * n + r] >= 0)
				VEC_PUSH(&L->slots, ((rep_tic){L->x[j * n + r], runs[r]->label}));
		}
		VEC_PUSH(&L->centres, ((rep_tic){(first + next - 1) / 2, L->jobs.ptr[j]}));
		L->xmax = next - 1;
		next += n > 1; /* a gap between clusters */
	}
}

static void layout_free(layout *L)
{
	VEC_FREE(&L->jobs);
	VEC_FREE(&L->centres);
	VEC_FREE(&L->slots);
	free(L->x);
}

/* Boxes and bars name their jobs below, one tic per cluster. */
static rep_xaxis by_job(const layout *L)
{
	return (rep_xaxis){.tics = L->centres.ptr, .ntics = L->centres.len, .xmax = L->xmax};
}

rep_figure *rep_fig_add(rep_figures *out, const char *id, const char *title)
{
	VEC_PUSH(out, ((rep_figure){.id = xstrdup(id), .title = xstrdup(title)}));
	return &out->ptr[out->len - 1];
}

/* "a, b and c" of the n names (heap). */
static char *name_list(const char *const *names, size_t n)
{
	rep_buf b = {0};
	for (size_t i = 0; i < n; i++)
		rep_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
	return rep_buf_take(&b);
}

/* Appends " In RUN, " (several runs) or " " (one) to a note about one run. */
static void in_run(rep_buf *b, const layout *L, const rep_run *r)
{
	if (L->nruns > 1)
		rep_buf_printf(b, " In %s,", r->label);
	rep_buf_puts(b, " ");
}

/* Sentences about the runs without a tasks.csv or a links.csv (which: 0 tasks, 1 links). */
static void missing_files(rep_buf *b, const layout *L, int which)
{
	for (size_t r = 0; r < L->nruns; r++) {
		const char *why = which ? L->runs[r]->links_missing : L->runs[r]->tasks_missing;
		if (why)
			rep_buf_printf(b, " Not drawn for %s: %s.", L->runs[r]->label, why);
	}
}

/* ------------------------------------------------------- time decomposition */

static const rep_part_style parts_style[REP_NPARTS] = {
	{"compute", "compute", "#4e79a7"},  {"mpi_network", "MPI network", "#f28e2b"},
	{"mpi_sync", "MPI sync", "#e15759"}, {"mpi_stack", "MPI stack", "#edc948"},
	{"io", "I/O", "#59a14f"},           {"idle", "idle", "#bab0ac"},
};

static void fig_time(rep_figures *out, const layout *L)
{
	rep_figure *f = rep_fig_add(out, "time", "Time decomposition per job");
	VEC(rep_bar) bars = {0};
	double *parts = xcalloc(L->jobs.len * L->nruns * REP_NPARTS + 1, sizeof *parts), top = 0;
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The mean time per rank of each job, split into compute, MPI (network, synchronization "
	                   "and software stack), I/O and idle time: idle is a rank's end time less all the other "
	                   "parts (sleeps, a delayed start, waiting outside MPI and I/O). Each part is summed over "
	                   "the job's ranks in tasks.csv and divided by their number, so a bar's height is the "
	                   "ranks' mean end time.");
	for (size_t j = 0; j < L->jobs.len; j++)
		for (size_t r = 0; r < L->nruns; r++) {
			rep_job *job = rep_run_job(L->runs[r], L->jobs.ptr[j]);
			if (!job || job->ranks == 0)
				continue;
			double *p = parts + bars.len * REP_NPARTS, sum = 0;
			for (int k = 0; k < REP_NPARTS; k++)
				sum += p[k] = job->part[k] / (double)job->ranks;
			top = sum > top ? sum : top;
			VEC_PUSH(&bars, ((rep_bar){xpos(L, j, r), L->runs[r]->label, job->name, job->ranks, p}));
			if (job->overlapped) {
				in_run(&cap, L, L->runs[r]);
				rep_buf_printf(&cap, "%zu of the %zu ranks of %s have parts that add up to more than their end "
				               "time (overlapping I/O): their idle time counts as 0.",
				               job->overlapped, job->ranks, job->name);
			}
		}
	missing_files(&cap, L, 0);
	rep_unit u = rep_unit_time(top);
	if (bars.len == 0) {
		f->note = xstrdup("No run has per-task figures (tasks.csv): nothing to draw.");
	} else {
		rep_xaxis ax = by_job(L);
		if (L->nruns > 1) { /* a bar per run: runs below (tilted when they would not fit), jobs along the top */
			size_t width = 0;
			for (size_t i = 0; i < L->slots.len; i++)
				width += strlen(L->slots.ptr[i].label) + 2;
			ax = (rep_xaxis){.tics = L->slots.ptr, .ntics = L->slots.len, .top = L->centres.ptr,
			                 .ntop = L->centres.len, .rotate = width > 80, .xmax = ax.xmax};
		}
		rep_plot_stack(f, cap.ptr, bars.ptr, bars.len, parts_style, REP_NPARTS, &ax, u, "mean time per rank");
		rep_buf_printf(&cap, " Times in %s.", u.name);
	}
	f->caption = rep_buf_take(&cap);
	VEC_FREE(&bars);
	free(parts);
}

/* ---------------------------------------------------------------- box plots */

typedef VEC(rep_box_item) box_items;

/* Draws the box sets of every run (one per run), or says why not (no item at all). */
static void draw_boxes(rep_figure *f, const layout *L, box_items *sets, double top, const char *ylabel, rep_buf *cap,
                       const char *empty)
{
	rep_box_set *bs = xcalloc(L->nruns, sizeof *bs);
	size_t items = 0;
	for (size_t r = 0; r < L->nruns; r++) {
		bs[r] = (rep_box_set){L->nruns > 1 ? L->runs[r]->label : NULL, sets[r].ptr, sets[r].len};
		items += sets[r].len;
	}
	rep_unit u = rep_unit_time(top);
	if (items == 0) {
		f->note = xstrdup(empty);
	} else {
		rep_xaxis ax = by_job(L);
		int logy = rep_plot_boxes(f, cap->ptr, bs, L->nruns, &ax, u, ylabel);
		rep_buf_printf(cap, " Times in %s%s.", u.name, logy ? ", on a log scale" : "");
	}
	f->caption = rep_buf_take(cap);
	for (size_t r = 0; r < L->nruns; r++)
		VEC_FREE(&sets[r]);
	free(bs);
}

/* Appends " Jobs without X: a and b." when some jobs have no box. */
static void without(rep_buf *cap, const char *what, name_vec *list)
{
	if (list->len) {
		char *text = name_list(list->ptr, list->len);
		rep_buf_printf(cap, " No box for %s: %s.", what, text);
		free(text);
	}
	VEC_FREE(list);
}

static const char *const lat_ids[REP_NLAT] = {"latency-mpi", "latency-io"};
static const char *const lat_titles[REP_NLAT] = {"Latency of MPI messages per job", "Latency of I/O requests per job"};
static const char *const lat_what[REP_NLAT] = {
    "of MPI messages, from the post of a send to the arrival of its last byte",
    "of I/O requests, from their submission to their completion"};
static const char *const lat_empty[REP_NLAT] = {
    "No job sent an MPI message (latency_ps.mpi counts 0 in summary.json): nothing to draw.",
    "No job made an I/O request (latency_ps.io counts 0 in summary.json): nothing to draw."};

/*
 * The box of a job in a box figure (which: the latency class, or 1 for I/O
 * time per rank): 1 with *b, 0 when the job has nothing to show (named in
 * the caption), -1 when its run lacks the data (said elsewhere).
 */
typedef int (*box_fn)(rep_job *job, int which, rep_box *b);

/* Box figure f: a box per job and run where box() gives one; cap gets the jobs without. */
static void fig_boxes(rep_figure *f, const layout *L, box_fn box, int which, rep_buf *cap, const char *none_what,
                      const char *ylabel, const char *empty)
{
	box_items *sets = xcalloc(L->nruns, sizeof *sets);
	name_vec none = {0};
	double top = 0;
	for (size_t j = 0; j < L->jobs.len; j++)
		for (size_t r = 0; r < L->nruns; r++) {
			rep_job *job = rep_run_job(L->runs[r], L->jobs.ptr[j]);
			rep_box b;
			int rc = job ? box(job, which, &b) : -1;
			if (rc == 0 && r == 0)
				VEC_PUSH(&none, job->name);
			if (rc <= 0)
				continue;
			top = b.max > top ? b.max : top;
			VEC_PUSH(&sets[r], ((rep_box_item){xpos(L, j, r), job->name, b}));
		}
	char *what = xasprintf("%s%s", none_what, L->nruns > 1 ? " in the first run" : "");
	without(cap, what, &none);
	free(what);
	draw_boxes(f, L, sets, top, ylabel, cap, empty);
	free(sets);
}

static int latency_box(rep_job *job, int cls, rep_box *b)
{
	const rep_lat *l = &job->lat[cls];
	*b = (rep_box){l->count, (double)l->min, (double)l->q1, (double)l->median, (double)l->q3, (double)l->max, l->mean};
	return l->count > 0;
}

static int rank_box(rep_job *job, int io, rep_box *b)
{
	if (job->ranks == 0)
		return -1;
	rep_values *v = io ? &job->io : &job->mpi;
	*b = rep_box_of(v->ptr, v->len);
	return b->max > 0;
}

static void fig_latency(rep_figures *out, const layout *L, int cls)
{
	rep_figure *f = rep_fig_add(out, lat_ids[cls], lat_titles[cls]);
	rep_buf cap = {0};
	rep_buf_printf(&cap, "The latency %s, per job (summary.json, latency_ps.%s; its quartiles are within 1/32 "
	               "of the exact values). The box spans the first to the third quartile, the thick line is the "
	               "median, the whiskers reach the minimum and the maximum, the dot is the mean.",
	               lat_what[cls], cls == REP_LAT_MPI ? "mpi" : "io");
	fig_boxes(f, L, latency_box, cls, &cap, "jobs without any", "latency", lat_empty[cls]);
}

static void fig_ranks(rep_figures *out, const layout *L, int io)
{
	rep_figure *f = rep_fig_add(out, io ? "rank-io" : "rank-mpi",
	                    io ? "I/O time of the ranks of each job" : "MPI time of the ranks of each job");
	rep_buf cap = {0};
	rep_buf_printf(&cap, "The distribution over each job's ranks of the time %s (tasks.csv, %s). The box spans "
	               "the first to the third quartile (interpolated between ranks), the thick line is the median, "
	               "the whiskers reach the least and the most loaded rank, the dot is the mean.",
	               io ? "a rank waited for I/O" : "a rank spent in MPI calls: network, synchronization and stack",
	               io ? "io_ps" : "mpi_ps");
	missing_files(&cap, L, 0);
	fig_boxes(f, L, rank_box, io, &cap, "jobs whose ranks spent no time there",
	          io ? "I/O time per rank" : "MPI time per rank",
	          io ? "No rank waited for I/O (io_ps is 0 in tasks.csv, or there is no tasks.csv): nothing to draw."
	             : "No rank spent time in MPI (mpi_ps is 0 in tasks.csv, or there is no tasks.csv): nothing to draw.");
}

/* -------------------------------------------------------------------- links */

typedef VEC(rep_curve) curves;

/* Draws curves as CDFs in the unit of their largest value, or notes why not (none, or all 0). */
static void draw_cdf(rep_figure *f, curves *c, rep_buf *cap, const char *xlabel, const char *ylabel, const char *empty,
                     const char *zero)
{
	double top = 0;
	for (size_t i = 0; i < c->len; i++)
		if (c->ptr[i].n && c->ptr[i].sorted[c->ptr[i].n - 1] > top)
			top = c->ptr[i].sorted[c->ptr[i].n - 1];
	if (c->len == 0) {
		f->note = xstrdup(empty);
	} else if (top <= 0) {
		f->note = xstrdup(zero);
	} else {
		rep_unit u = strstr(xlabel, "bytes") ? rep_unit_bytes(top) : rep_unit_time(top);
		rep_plot_cdf(f, cap->ptr, c->ptr, c->len, u, xlabel, ylabel);
		rep_buf_printf(cap, " %s in %s.", strstr(xlabel, "bytes") ? "Bytes" : "Times", u.name);
	}
	f->caption = rep_buf_take(cap);
	VEC_FREE(c);
}

/* The kinds of link of every run: injection, terminal, local and global first, then the others as they come. */
static void link_kinds(const layout *L, name_vec *kinds)
{
	static const char *const known[] = {"injection", "terminal", "local", "global"};
	for (size_t k = 0; k < sizeof known / sizeof *known; k++)
		for (size_t r = 0; r < L->nruns; r++)
			if (rep_run_kind(L->runs[r], known[k])) {
				VEC_PUSH(kinds, known[k]);
				break;
			}
	for (size_t r = 0; r < L->nruns; r++)
		for (size_t i = 0; i < L->runs[r]->kinds.len; i++) {
			const char *name = L->runs[r]->kinds.ptr[i].name;
			size_t k = 0;
			while (k < kinds->len && strcmp(kinds->ptr[k], name))
				k++;
			if (k == kinds->len)
				VEC_PUSH(kinds, name);
		}
}

static const char bytes_text[] =
    "The cumulative distribution of the bytes each link carried over the whole run (links.csv): a point (x, y) "
    "says that a fraction y of the links carried at most x.";
static const char bytes_empty[] = "No run has per-link figures (links.csv; the ideal network has no links): "
                                  "nothing to draw.";
static const char bytes_zero[] = "No link carried a byte: nothing to draw.";

/* One run: one curve per link kind. */
static void fig_link_bytes(rep_figures *out, const layout *L, name_vec *kinds)
{
	rep_run *run = L->runs[0];
	rep_figure *f = rep_fig_add(out, "link-bytes", "Bytes per link, by link kind");
	curves c = {0};
	rep_buf cap = {0};
	rep_buf_printf(&cap, "%s One curve per kind of link: injection (node to router), terminal (router to node), "
	               "local (within a group), global (between groups).", bytes_text);
	for (size_t k = 0; k < kinds->len; k++) {
		rep_kind *kind = rep_run_kind(run, kinds->ptr[k]);
		rep_sort(kind->values.ptr, kind->values.len);
		VEC_PUSH(&c, ((rep_curve){kind->name, kind->values.ptr, kind->values.len}));
	}
	missing_files(&cap, L, 1);
	draw_cdf(f, &c, &cap, "bytes per link", "fraction of the links", bytes_empty, bytes_zero);
}

/* Several runs: one figure per link kind, one curve per run. */
static void fig_link_bytes_by_kind(rep_figures *out, const layout *L, name_vec *kinds)
{
	for (size_t k = 0; k < kinds->len; k++) {
		char *id = xasprintf("link-bytes-%s", kinds->ptr[k]), *title = xasprintf("Bytes per %s link", kinds->ptr[k]);
		for (char *p = id; *p; p++) /* a file name whatever the kind is called */
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *p))
				*p = '_';
		rep_figure *f = rep_fig_add(out, id, title);
		curves c = {0};
		rep_buf cap = {0};
		rep_buf_printf(&cap, "%s Links of kind %s, one curve per run.", bytes_text, kinds->ptr[k]);
		for (size_t r = 0; r < L->nruns; r++) {
			rep_kind *kind = rep_run_kind(L->runs[r], kinds->ptr[k]);
			if (!kind)
				continue;
			rep_sort(kind->values.ptr, kind->values.len);
			VEC_PUSH(&c, ((rep_curve){L->runs[r]->label, kind->values.ptr, kind->values.len}));
		}
		missing_files(&cap, L, 1);
		draw_cdf(f, &c, &cap, "bytes per link", "fraction of the links", bytes_empty, bytes_zero);
		free(id);
		free(title);
	}
}

static void fig_saturation(rep_figures *out, const layout *L)
{
	rep_figure *f = rep_fig_add(out, "global-saturation", "Saturation time of the global links");
	curves c = {0};
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The cumulative distribution of the time each global link was saturated, that is had no "
	                   "free buffer for the next packet (links.csv, saturation_ps): a point (x, y) says that a "
	                   "fraction y of the global links were saturated for at most x.");
	if (L->nruns > 1)
		rep_buf_puts(&cap, " One curve per run.");
	for (size_t r = 0; r < L->nruns; r++) {
		rep_run *run = L->runs[r];
		if (run->global_sat.len == 0)
			continue;
		rep_sort(run->global_sat.ptr, run->global_sat.len);
		VEC_PUSH(&c, ((rep_curve){L->nruns > 1 ? run->label : "global links", run->global_sat.ptr,
		                          run->global_sat.len}));
	}
	missing_files(&cap, L, 1);
	draw_cdf(f, &c, &cap, "saturation time per link", "fraction of the global links",
	         "No global link with a saturation time in links.csv (a machine without groups, a network without "
	         "links, or the analytic network's nodes' links): nothing to draw.",
	         "No global link was ever saturated: nothing to draw.");
}

/* ---------------------------------------------------------------- the list */

void rep_fig_build(rep_run *const *runs, size_t n, rep_figures *out)
{
	layout L;
	name_vec kinds = {0};
	layout_init(&L, runs, n);
	fig_time(out, &L);
	for (int c = 0; c < REP_NLAT; c++)
		fig_latency(out, &L, c);
	fig_ranks(out, &L, 0);
	fig_ranks(out, &L, 1);
	link_kinds(&L, &kinds);
	if (n == 1 || kinds.len == 0)
		fig_link_bytes(out, &L, &kinds);
	else
		fig_link_bytes_by_kind(out, &L, &kinds);
	fig_saturation(out, &L);
	rep_traffic_figure(runs, n, out);
	rep_iofig_build(runs, n, out);
	VEC_FREE(&kinds);
	layout_free(&L);
}

void rep_fig_free(rep_figures *f)
{
	for (size_t i = 0; i < f->len; i++)
		rep_figure_free(&f->ptr[i]);
	VEC_FREE(f);
}

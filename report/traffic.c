/*
 * traffic.c - the link traffic of a run split by job and class (see traffic.h).
 */
#include "report/traffic.h"

#include <stdlib.h>
#include <string.h>

#include "report/text.h"

enum { C_KIND, C_JOB, C_CLASS, C_BYTES, C_NCOLS };
static const char *const cols[C_NCOLS] = {"kind", "job", "class", "bytes"};

/* The entry of (kind, part) in r, a new one if needed. */
static rep_traffic *entry(rep_run *r, const char *kind, const char *part)
{
	for (size_t i = 0; i < r->traffic.len; i++)
		if (!strcmp(r->traffic.ptr[i].kind, kind) && !strcmp(r->traffic.ptr[i].part, part))
			return &r->traffic.ptr[i];
	VEC_PUSH(&r->traffic, ((rep_traffic){xstrdup(kind), xstrdup(part), 0}));
	return &r->traffic.ptr[r->traffic.len - 1];
}

static int add_row(rep_run *r, rep_csv *c, const int *col, void *unused, char **err)
{
	double job, bytes;
	(void)unused;
	if (rep_csv_double(c, col[C_JOB], &job, err) < 0 || rep_csv_double(c, col[C_BYTES], &bytes, err) < 0)
		return -1;
	/* job -1: the pairs beyond the 254 that have their own label, counted together */
	const char *cls = rep_csv_field(c, col[C_CLASS]);
	char *part = job == -1                                  ? xasprintf("other %s", cls)
	             : job >= 0 && job < (double)r->jobs.len ? xasprintf("%s %s", r->jobs.ptr[(size_t)job].name, cls)
	                                                     : NULL;
	if (!part) {
		*err = xasprintf("%s:%zu: job %g is not in summary.json (it lists %zu)", rep_csv_path(c), rep_csv_line(c), job,
		                 r->jobs.len);
		return -1;
	}
	entry(r, rep_csv_field(c, col[C_KIND]), part)->bytes += bytes;
	free(part);
	return 0;
}

int rep_traffic_load(rep_run *r, char **err)
{
	return rep_run_stream(r, "links_by_class.csv", cols, C_NCOLS, C_NCOLS, &r->traffic_missing, add_row, NULL, err);
}

void rep_traffic_free(rep_run *r)
{
	for (size_t i = 0; i < r->traffic.len; i++) {
		free(r->traffic.ptr[i].kind);
		free(r->traffic.ptr[i].part);
	}
	VEC_FREE(&r->traffic);
	free(r->traffic_missing);
	r->traffic_missing = NULL;
}

/* ------------------------------------------------------------------ figure */

typedef VEC(const char *) names;

/* Appends name to v unless it is there; its index. */
static size_t index_of(names *v, const char *name)
{
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->ptr[i], name))
			return i;
	VEC_PUSH(v, name);
	return v->len - 1;
}

/* 1 if a run has traffic on links of kind k. */
static int has_kind(rep_run *const *runs, size_t n, const char *k)
{
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r]->traffic.len; i++)
			if (!strcmp(runs[r]->traffic.ptr[i].kind, k))
				return 1;
	return 0;
}

/* The link kinds in the order of a message's path (injection, local, global, terminal), then the others. */
static void kinds_of(rep_run *const *runs, size_t n, names *kinds)
{
	static const char *const known[] = {"injection", "local", "global", "terminal"};
	for (size_t k = 0; k < sizeof known / sizeof *known; k++)
		if (has_kind(runs, n, known[k]))
			index_of(kinds, known[k]);
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r]->traffic.len; i++)
			index_of(kinds, runs[r]->traffic.ptr[i].kind);
}

/* The file-name-safe column of part p ("milc mpi" gives milc_mpi), heap. */
static char *column_of(const char *p)
{
	char *c = xstrdup(p);
	for (char *q = c; *q; q++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *q))
			*q = '_';
	return c;
}

void rep_traffic_figure(rep_run *const *runs, size_t n, rep_figures *out)
{
	int any = 0;
	for (size_t r = 0; r < n; r++)
		any |= runs[r]->traffic_missing == NULL;
	if (!any)
		return;
	rep_figure *f = rep_fig_add(out, "link-traffic", "Link traffic by job and class");
	names kinds = {0}, parts = {0};
	kinds_of(runs, n, &kinds);
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r]->traffic.len; i++)
			index_of(&parts, runs[r]->traffic.ptr[i].part);
	/* a bar per kind (and run): x = kind (one run), kind * (runs + 1) + run (several) */
	size_t nbars = kinds.len * n, used = 0;
	double *v = xcalloc(nbars * parts.len + 1, sizeof *v), top = 0;
	rep_bar *bars = xcalloc(nbars + 1, sizeof *bars);
	rep_tic *slots = xcalloc(nbars + 1, sizeof *slots), *centres = xcalloc(kinds.len + 1, sizeof *centres);
	for (size_t k = 0; k < kinds.len; k++) {
		for (size_t r = 0; r < n; r++) {
			double *p = v + used * parts.len, sum = 0;
			size_t pairs = 0; /* the (job, class) pairs with bytes on these links: the data file's count */
			for (size_t i = 0; i < runs[r]->traffic.len; i++)
				if (!strcmp(runs[r]->traffic.ptr[i].kind, kinds.ptr[k]))
					p[index_of(&parts, runs[r]->traffic.ptr[i].part)] += runs[r]->traffic.ptr[i].bytes;
			for (size_t i = 0; i < parts.len; i++) {
				sum += p[i];
				pairs += p[i] > 0;
			}
			double x = n > 1 ? (double)(k * (n + 1) + r) : (double)k;
			top = sum > top ? sum : top;
			slots[used] = (rep_tic){x, runs[r]->label};
			bars[used++] = (rep_bar){x, runs[r]->label, kinds.ptr[k], pairs, p};
		}
		centres[k] = (rep_tic){n > 1 ? (double)(k * (n + 1)) + (double)(n - 1) / 2 : (double)k, kinds.ptr[k]};
	}
	rep_part_style *style = xcalloc(parts.len + 1, sizeof *style);
	for (size_t i = 0; i < parts.len; i++)
		style[i] = (rep_part_style){column_of(parts.ptr[i]), parts.ptr[i], rep_color(i)};
	rep_unit u = rep_unit_bytes(top);
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The bytes each kind of link carried over the whole run (links_by_class.csv), split by the "
	                   "job and the traffic class that put them there (mpi: the program's messages, ctrl: protocol "
	                   "messages, io: file I/O, ...). A bar is the sum over the links of its kind, so a message "
	                   "counts once on every link it crosses.");
	for (size_t r = 0; n > 1 && r < n; r++)
		if (runs[r]->traffic_missing)
			rep_buf_printf(&cap, " Not drawn for %s: %s.", runs[r]->label, runs[r]->traffic_missing);
	if (top <= 0) {
		f->note = xstrdup("No link carried a byte (links_by_class.csv): nothing to draw.");
	} else {
		rep_xaxis ax = n > 1 ? (rep_xaxis){.tics = slots, .ntics = used, .top = centres, .ntop = kinds.len,
		                                   .rotate = n > 3, .xmax = slots[used - 1].x}
		                     : (rep_xaxis){.tics = centres, .ntics = kinds.len, .xmax = (double)kinds.len - 1};
		rep_plot_stack(f, cap.ptr, bars, used, style, parts.len, &ax, u, "bytes carried by the links of a kind");
		rep_buf_printf(&cap, " Bytes in %s.", u.name);
	}
	f->caption = rep_buf_take(&cap);
	for (size_t i = 0; i < parts.len; i++)
		free((char *)style[i].column);
	free(style);
	free(bars);
	free(slots);
	free(centres);
	free(v);
	VEC_FREE(&kinds);
	VEC_FREE(&parts);
}

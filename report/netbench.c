/*
 * netbench.c - reading the results of a netbench load sweep (see netbench.h).
 */
#include "report/netbench.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/csv_read.h"
#include "report/run.h"
#include "report/text.h"

/* The columns of netbench's CSV, in the order of enum rep_nb_col; the first six of need[] are required. */
static const char *const col_names[REP_NB_NCOLS] = {"offered",    "accepted",   "msgs",       "lat_mean_us",
                                                    "lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_max_us",
                                                    "hops",       "nonmin"};
static const int required[REP_NB_NCOLS] = {[REP_NB_OFFERED] = 1, [REP_NB_ACCEPTED] = 1, [REP_NB_MEAN] = 1,
                                           [REP_NB_P99] = 1};

/* Columns averaged over every row of a point; the others over its rows that counted a message. */
static int over_all_rows(int k) { return k == REP_NB_OFFERED || k == REP_NB_ACCEPTED || k == REP_NB_MSGS; }

static int is_file(const char *path, int dir)
{
	struct stat st;
	return stat(path, &st) == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

/* 1 if dir/name is a regular file. */
static int has_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	int yes = is_file(p, 0);
	free(p);
	return yes;
}

typedef VEC(char *) path_vec;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The netbench.csv files of the subfolders of dir (hidden ones, such as unfinished runs, left out), by name. */
static void sub_files(const char *dir, path_vec *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		char *sub = xasprintf("%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && is_file(sub, 1) && has_file(sub, "netbench.csv"))
			VEC_PUSH(out, xasprintf("%s/netbench.csv", sub));
		free(sub);
	}
	closedir(d);
	if (out->len > 1)
		qsort(out->ptr, out->len, sizeof *out->ptr, cmp_str);
}

/* The CSV files of input path (none: it is no netbench result). */
static void files_of(const char *path, path_vec *out)
{
	if (is_file(path, 0))
		VEC_PUSH(out, xstrdup(path));
	else if (!is_file(path, 1) || has_file(path, "summary.json"))
		return;
	else if (has_file(path, "netbench.csv"))
		VEC_PUSH(out, xasprintf("%s/netbench.csv", path));
	else
		sub_files(path, out);
}

static void paths_free(path_vec *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->ptr[i]);
	VEC_FREE(v);
}

int rep_nb_is_input(const char *path)
{
	path_vec v = {0};
	files_of(path, &v);
	int yes = v.len > 0;
	paths_free(&v);
	return yes;
}

/* ------------------------------------------------------------------ rows */

/* The series of (routing, pattern) from input in nb, a new one if needed. */
static rep_nb_series *series_of(rep_nb *nb, const char *routing, const char *pattern, size_t input)
{
	for (size_t i = 0; i < nb->series.len; i++) {
		rep_nb_series *s = &nb->series.ptr[i];
		if (s->input == input && !strcmp(s->routing, routing) && !strcmp(s->pattern, pattern))
			return s;
	}
	VEC_PUSH(&nb->series, ((rep_nb_series){.routing = xstrdup(routing), .pattern = xstrdup(pattern), .input = input}));
	return &nb->series.ptr[nb->series.len - 1];
}

/* Adds row v to its point of s (the one at its offered load): sums now, means in finish(). */
static void add_row(rep_nb_series *s, const double *v)
{
	rep_nb_point *p = NULL;
	for (size_t i = 0; i < s->points.len && !p; i++)
		if (fabs(s->points.ptr[i].v[REP_NB_OFFERED] - v[REP_NB_OFFERED]) <= 1e-9)
			p = &s->points.ptr[i];
	if (!p) {
		VEC_PUSH(&s->points, ((rep_nb_point){0}));
		p = &s->points.ptr[s->points.len - 1];
	}
	/* A run that counted no message (a window too short) has latencies of 0: they are no measurement. */
	int counted = v[REP_NB_MSGS] > 0;
	for (int k = 0; k < REP_NB_NCOLS; k++)
		if (k == REP_NB_OFFERED)
			p->v[k] = v[k];
		else if (over_all_rows(k) || counted)
			p->v[k] += v[k];
	p->rows++;
	p->counted += (size_t)counted;
}

/* Reads the data rows of the CSV file path into nb (input i). 0, or -1 with *err and *bad (a malformed file). */
static int read_file(rep_nb *nb, const char *path, size_t i, char **err, int *bad)
{
	static const char *const keys[] = {"routing", "pattern"};
	int col[REP_NB_NCOLS], key[2], rc;
	rep_csv *c = rep_csv_open(path, err);
	*bad = c != NULL || errno == EINVAL;
	if (!c || rep_csv_require(c, keys, key, 2, err) < 0)
		goto fail;
	for (int k = 0; k < REP_NB_NCOLS; k++) {
		if ((col[k] = rep_csv_col(c, col_names[k])) < 0 && required[k]) {
			*err = xasprintf("%s:1: no column '%s' in the header (is it the output of ncsim netbench --csv?)",
			                 path, col_names[k]);
			goto fail;
		}
		nb->has[k] &= col[k] >= 0;
	}
	while ((rc = rep_csv_next(c, err)) > 0) {
		if (rep_csv_is_header(c))
			continue; /* the header of the next run appended to the file */
		double v[REP_NB_NCOLS] = {[REP_NB_MSGS] = 1}; /* without a msgs column, every row counts */
		for (int k = 0; k < REP_NB_NCOLS; k++)
			if (col[k] >= 0 && rep_csv_double(c, col[k], &v[k], err) < 0)
				goto fail;
		add_row(series_of(nb, rep_csv_field(c, key[0]), rep_csv_field(c, key[1]), i), v);
		nb->inputs.ptr[i].rows++;
	}
	if (rc == 0) {
		rep_csv_close(c);
		return 0;
	}
fail:
	rep_csv_close(c);
	return -1;
}

/* ------------------------------------------------------------------ sweep */

static int cmp_offered(const void *a, const void *b)
{
	double x = ((const rep_nb_point *)a)->v[REP_NB_OFFERED], y = ((const rep_nb_point *)b)->v[REP_NB_OFFERED];
	return (x > y) - (x < y);
}

/* Means of the points, sorted by load; the curve names (input and pattern only when they tell curves apart). */
static void finish(rep_nb *nb)
{
	int patterns = 0;
	for (size_t i = 1; i < nb->series.len; i++)
		patterns |= strcmp(nb->series.ptr[i].pattern, nb->series.ptr[0].pattern) != 0;
	for (size_t i = 0; i < nb->series.len; i++) {
		rep_nb_series *s = &nb->series.ptr[i];
		for (size_t j = 0; j < s->points.len; j++) {
			rep_nb_point *p = &s->points.ptr[j];
			for (int k = 0; k < REP_NB_NCOLS; k++)
				if (k != REP_NB_OFFERED && (over_all_rows(k) || p->counted))
					p->v[k] /= (double)(over_all_rows(k) ? p->rows : p->counted);
		}
		qsort(s->points.ptr, s->points.len, sizeof *s->points.ptr, cmp_offered);
		rep_buf b = {0};
		if (nb->inputs.len > 1)
			rep_buf_printf(&b, "%s ", nb->inputs.ptr[s->input].label);
		rep_buf_puts(&b, *s->routing ? s->routing : "?");
		if (patterns)
			rep_buf_printf(&b, " %s", s->pattern);
		s->name = rep_buf_take(&b);
	}
}

/* The label of input path: its base name, without .csv. */
static char *input_label(const char *path)
{
	char *l = rep_run_label(path);
	size_t n = strlen(l);
	if (n > 4 && !strcmp(l + n - 4, ".csv"))
		l[n - 4] = 0;
	return l;
}

int rep_nb_load(rep_nb *nb, const char *const *paths, size_t n, char **err, int *input_error)
{
	for (int k = 0; k < REP_NB_NCOLS; k++)
		nb->has[k] = 1;
	*input_error = 0;
	for (size_t i = 0; i < n; i++) {
		path_vec files = {0};
		files_of(paths[i], &files);
		VEC_PUSH(&nb->inputs, ((rep_nb_input){xstrdup(paths[i]), input_label(paths[i]), files.len, 0}));
		int rc = 0;
		for (size_t f = 0; f < files.len && rc == 0; f++)
			rc = read_file(nb, files.ptr[f], i, err, input_error);
		if (rc == 0 && files.len == 0) {
			*err = xasprintf("%s: no netbench results: neither a CSV file, nor a folder with netbench.csv or "
			                 "subfolders holding one", paths[i]);
			rc = -1;
		} else if (rc == 0 && nb->inputs.ptr[i].rows == 0) {
			*err = xasprintf("%s: no netbench row, only headers (ncsim netbench --csv >> FILE appends one per run)",
			                 files.len == 1 ? files.ptr[0] : paths[i]);
			*input_error = 1;
			rc = -1;
		}
		paths_free(&files);
		if (rc < 0)
			return -1;
	}
	finish(nb);
	return 0;
}

void rep_nb_free(rep_nb *nb)
{
	for (size_t i = 0; i < nb->inputs.len; i++) {
		free(nb->inputs.ptr[i].path);
		free(nb->inputs.ptr[i].label);
	}
	VEC_FREE(&nb->inputs);
	for (size_t i = 0; i < nb->series.len; i++) {
		rep_nb_series *s = &nb->series.ptr[i];
		free(s->name);
		free(s->routing);
		free(s->pattern);
		VEC_FREE(&s->points);
	}
	VEC_FREE(&nb->series);
	*nb = (rep_nb){0};
}

/*
 * run.c - reading one finished run's folder (see run.h).
 */
#include "report/run.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/csv_read.h"
#include "report/io.h"
#include "report/json_read.h"
#include "report/traffic.h"
#include "report/text.h"

/* --------------------------------------------------------------- summary.json */

/* The integer members of a job in summary.json (absent: 0, as in runs that predate them). */
static const struct {
	const char *key;
	size_t off;
} job_keys[] = {
	{"tasks", offsetof(rep_job, tasks)},           {"end_ps", offsetof(rep_job, end_ps)},
	{"compute_ps", offsetof(rep_job, compute_ps)}, {"io_ps", offsetof(rep_job, io_ps)},
	{"mpi_ps", offsetof(rep_job, mpi_ps)},         {"bytes_sent", offsetof(rep_job, bytes_sent)},
	{"msgs_sent", offsetof(rep_job, msgs_sent)},
};

/* Member key of object v as an integer into *x (absent: 0). 0, or -1 with *err naming where. */
static int get_u64(const rep_json *v, const char *key, uint64_t *x, const char *where, char **err)
{
	const rep_json *m = rep_json_get(v, key);
	*x = 0;
	if (!m || rep_json_u64(m, x) == 0)
		return 0;
	*err = xasprintf("%s.%s is not a non-negative integer", where, key);
	return -1;
}

/* latency_ps.<cls> of a job: count, min, quartiles, max, mean. */
static int read_lat(const rep_json *lat, const char *cls, rep_lat *l, const char *where, char **err)
{
	const rep_json *o = rep_json_get(lat, cls);
	char *w = xasprintf("%s.latency_ps.%s", where, cls);
	int rc = get_u64(o, "count", &l->count, w, err) || get_u64(o, "min", &l->min, w, err) ||
	                 get_u64(o, "q1", &l->q1, w, err) || get_u64(o, "median", &l->median, w, err) ||
	                 get_u64(o, "q3", &l->q3, w, err) || get_u64(o, "max", &l->max, w, err)
	             ? -1
	             : 0;
	l->mean = 0;
	if (rc == 0 && rep_json_get(o, "mean") && rep_json_double(rep_json_get(o, "mean"), &l->mean) < 0) {
		*err = xasprintf("%s.mean is not a number", w);
		rc = -1;
	}
	free(w);
	return rc;
}

static int read_job(const rep_json *o, size_t i, rep_job *j, char **err)
{
	char *where = xasprintf("jobs[%zu]", i);
	const char *name = rep_json_str(rep_json_get(o, "name"));
	int rc = -1;
	uint64_t rd = 0, wr = 0;
	if (!name || !*name) {
		*err = xasprintf("%s has no name", where);
		goto out;
	}
	j->name = xstrdup(name);
	for (size_t k = 0; k < sizeof job_keys / sizeof *job_keys; k++)
		if (get_u64(o, job_keys[k].key, (uint64_t *)((char *)j + job_keys[k].off), where, err) < 0)
			goto out;
	if (get_u64(o, "io_bytes_read", &rd, where, err) < 0 || get_u64(o, "io_bytes_written", &wr, where, err) < 0)
		goto out;
	j->io_bytes = rd + wr;
	static const char *const cls[REP_NLAT] = {"mpi", "io"};
	for (int c = 0; c < REP_NLAT; c++)
		if (read_lat(rep_json_get(o, "latency_ps"), cls[c], &j->lat[c], where, err) < 0)
			goto out;
	rc = 0;
out:
	free(where);
	return rc;
}

/* Appends a word of the command line, quoted for a POSIX shell when it needs it. */
static void put_word(rep_buf *b, const char *w)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%";
	if (b->len)
		rep_buf_puts(b, " ");
	if (*w && strspn(w, safe) == strlen(w)) {
		rep_buf_puts(b, w);
		return;
	}
	rep_buf_puts(b, "'");
	for (const char *p = w; *p; p++)
		rep_buf_add(b, *p == '\'' ? "'\\''" : p, *p == '\'' ? 4 : 1);
	rep_buf_puts(b, "'");
}

/* The command line of summary.json as one line a shell would take back. */
static char *command_line(const rep_json *argv)
{
	rep_buf b = {0};
	for (size_t i = 0; argv && argv->kind == REP_JSON_ARRAY && i < argv->n; i++)
		if (rep_json_str(argv->items[i]))
			put_word(&b, rep_json_str(argv->items[i]));
	return rep_buf_take(&b);
}

static char *str_or_empty(const rep_json *root, const char *key)
{
	const char *s = rep_json_str(rep_json_get(root, key));
	return xstrdup(s ? s : "");
}

static int read_summary(rep_run *r, const rep_json *root, char **err)
{
	const rep_json *jobs = rep_json_get(root, "jobs");
	r->version = str_or_empty(root, "ncsim_version");
	r->system = str_or_empty(root, "system");
	r->network = str_or_empty(root, "network");
	r->status = str_or_empty(root, "status");
	r->command = command_line(rep_json_get(root, "command_line"));
	r->wall_seconds = -1;
	if (rep_json_get(root, "wall_seconds"))
		rep_json_double(rep_json_get(root, "wall_seconds"), &r->wall_seconds);
	if (get_u64(root, "seed", &r->seed, "summary", err) < 0 || get_u64(root, "events", &r->events, "summary", err) < 0 ||
	    get_u64(root, "sim_end_ps", &r->sim_end_ps, "summary", err) < 0)
		return -1;
	if (root->kind != REP_JSON_OBJECT || !jobs || jobs->kind != REP_JSON_ARRAY) {
		*err = xstrdup("no \"jobs\" array (is it an ncsim summary.json?)");
		return -1;
	}
	for (size_t i = 0; i < jobs->n; i++) {
		rep_job j = {0};
		int rc = read_job(jobs->items[i], i, &j, err);
		VEC_PUSH(&r->jobs, j);
		if (rc < 0)
			return -1;
		for (size_t k = 0; k + 1 < r->jobs.len; k++)
			if (!strcmp(r->jobs.ptr[k].name, j.name)) {
				*err = xasprintf("jobs[%zu]: a second job named '%s'", i, j.name);
				return -1;
			}
	}
	return 0;
}

/* ------------------------------------------------------------------ tasks.csv */

enum { T_JOB, T_END, T_COMPUTE, T_NET, T_SYNC, T_STACK, T_IO, T_MPI, T_NCOLS };
static const char *const task_cols[T_NCOLS] = {"job",         "end_ps",         "compute_ps",   "mpi_network_ps",
                                               "mpi_sync_ps", "mpi_stack_ps",   "io_ps",        "mpi_ps"};

/* Adds one row of tasks.csv to its job. 0, or -1 with *err. */
static int add_task(rep_run *r, rep_csv *c, const int *col, rep_job **last, char **err)
{
	const char *name = rep_csv_field(c, col[T_JOB]);
	rep_job *j = *last && !strcmp((*last)->name, name) ? *last : rep_run_job(r, name);
	uint64_t v[T_NCOLS];
	if (!j) {
		*err = xasprintf("%s:%zu: job '%s' is not in summary.json", rep_csv_path(c), rep_csv_line(c), name);
		return -1;
	}
	*last = j;
	for (int k = T_END; k < T_NCOLS; k++)
		if (rep_csv_u64(c, col[k], &v[k], err) < 0)
			return -1;
	/* The parts in the order of enum rep_part; idle is the end less all of them. */
	double part[REP_NPARTS] = {(double)v[T_COMPUTE], (double)v[T_NET], (double)v[T_SYNC], (double)v[T_STACK],
	                           (double)v[T_IO]};
	double busy = 0;
	for (int p = 0; p < REP_IDLE; p++) {
		j->part[p] += part[p];
		busy += part[p];
	}
	if (busy > (double)v[T_END])
		j->overlapped++;
	else
		j->part[REP_IDLE] += (double)v[T_END] - busy;
	j->ranks++;
	VEC_PUSH(&j->mpi, (double)v[T_MPI]);
	VEC_PUSH(&j->io, (double)v[T_IO]);
	return 0;
}

/* ------------------------------------------------------------------ links.csv */

rep_kind *rep_kind_get(rep_kinds *k, const char *name, int add)
{
	for (size_t i = 0; i < k->len; i++)
		if (!strcmp(k->ptr[i].name, name))
			return &k->ptr[i];
	if (!add)
		return NULL;
	VEC_PUSH(k, ((rep_kind){.name = xstrdup(name)}));
	return &k->ptr[k->len - 1];
}

rep_kind *rep_run_kind(rep_run *r, const char *name) { return rep_kind_get(&r->kinds, name, 0); }

/* Columns of links.csv; saturation_ps only at the packet level (the analytic network's links have wait_ps). */
enum { L_KIND, L_BYTES, L_SAT, L_NCOLS, L_NREQ = L_SAT };
static const char *const link_cols[L_NCOLS] = {"kind", "bytes", "saturation_ps"};

static int add_link(rep_run *r, rep_csv *c, const int *col, char **err)
{
	const char *name = rep_csv_field(c, col[L_KIND]);
	uint64_t bytes, sat = 0;
	if (rep_csv_u64(c, col[L_BYTES], &bytes, err) < 0 ||
	    (col[L_SAT] >= 0 && rep_csv_u64(c, col[L_SAT], &sat, err) < 0))
		return -1;
	VEC_PUSH(&rep_kind_get(&r->kinds, name, 1)->values, (double)bytes);
	if (!strcmp(name, "global") && col[L_SAT] >= 0)
		VEC_PUSH(&r->global_sat, (double)sat);
	return 0;
}

int rep_run_stream(rep_run *r, const char *name, const char *const *cols, int ncols, int nreq, char **missing,
                   rep_row_fn add, void *arg, char **err)
{
	char *path = xasprintf("%s/%s", r->dir, name);
	rep_csv *c = rep_csv_open(path, err);
	int col[REP_MAX_COLS], rc = -1;
	if (!c && errno == ENOENT) {
		free(*err);
		*err = NULL;
		*missing = xasprintf("the run has no %s", name);
		rc = 0;
	} else if (c && rep_csv_require(c, cols, col, (size_t)nreq, err) == 0) {
		for (int k = nreq; k < ncols && k < REP_MAX_COLS; k++)
			col[k] = rep_csv_col(c, cols[k]);
		while ((rc = rep_csv_next(c, err)) > 0 && (rc = add(r, c, col, arg, err)) == 0)
			;
	}
	rep_csv_close(c);
	free(path);
	return rc < 0 ? -1 : 0;
}

static int add_task_row(rep_run *r, rep_csv *c, const int *col, void *last, char **err)
{
	return add_task(r, c, col, last, err);
}

static int add_link_row(rep_run *r, rep_csv *c, const int *col, void *unused, char **err)
{
	(void)unused;
	return add_link(r, c, col, err);
}

/* -------------------------------------------------------------------- the run */

rep_job *rep_run_job(rep_run *r, const char *name)
{
	for (size_t i = 0; i < r->jobs.len; i++)
		if (!strcmp(r->jobs.ptr[i].name, name))
			return &r->jobs.ptr[i];
	return NULL;
}

char *rep_run_label(const char *dir)
{
	char *real = realpath(dir, NULL), *full = real ? real : xstrdup(dir);
	size_t n = strlen(full);
	while (n > 1 && full[n - 1] == '/')
		full[--n] = 0;
	const char *slash = strrchr(full, '/');
	char *label = xstrdup(slash && slash[1] ? slash + 1 : full);
	free(full);
	return label;
}

/* Reads DIR/summary.json into r. 0, or -1 with *err and *why. */
static int load_summary(rep_run *r, char **err, enum rep_fail *why)
{
	char *path = xasprintf("%s/summary.json", r->dir), *e = NULL, *text = NULL;
	struct stat st;
	rep_json *root = NULL;
	int rc = -1;
	*why = REP_FAIL_IO;
	if (stat(r->dir, &st) != 0 || !S_ISDIR(st.st_mode))
		*err = xasprintf("%s: not a run folder: %s", r->dir, errno == ENOENT ? "no such folder" : "not a folder");
	else if (stat(path, &st) != 0 && errno == ENOENT)
		*err = xasprintf("%s: not a run folder: it has no summary.json (ncsim run writes one), no "
		                 "netbench.csv and no run folders (a study's runs/)", r->dir);
	else if (!(text = xread_text(path, "summary", err)))
		; /* *err says why */
	else if ((*why = REP_FAIL_INPUT) && !(root = rep_json_parse(text, path, err)))
		; /* *err names the file, line and column */
	else if (read_summary(r, root, &e) < 0)
		*err = xasprintf("%s: %s", path, e);
	else
		rc = 0;
	free(e);
	rep_json_free(root);
	free(text);
	free(path);
	return rc;
}

rep_run *rep_run_load(const char *dir, char **err, enum rep_fail *why)
{
	rep_run *r = xcalloc(1, sizeof *r);
	rep_job *last = NULL;
	r->dir = xstrdup(dir);
	r->label = rep_run_label(dir);
	if (load_summary(r, err, why) < 0 ||
	    rep_run_stream(r, "tasks.csv", task_cols, T_NCOLS, T_NCOLS, &r->tasks_missing, add_task_row, &last, err) < 0 ||
	    rep_run_stream(r, "links.csv", link_cols, L_NCOLS, L_NREQ, &r->links_missing, add_link_row, NULL, err) < 0 ||
	    rep_io_load(r, err) < 0 || rep_traffic_load(r, err) < 0) {
		rep_run_free(r);
		return NULL;
	}
	*why = REP_FAIL_NONE;
	return r;
}

void rep_run_free(rep_run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->jobs.len; i++) {
		free(r->jobs.ptr[i].name);
		VEC_FREE(&r->jobs.ptr[i].mpi);
		VEC_FREE(&r->jobs.ptr[i].io);
	}
	VEC_FREE(&r->jobs);
	for (size_t i = 0; i < r->kinds.len; i++) {
		free(r->kinds.ptr[i].name);
		VEC_FREE(&r->kinds.ptr[i].values);
	}
	VEC_FREE(&r->kinds);
	VEC_FREE(&r->global_sat);
	rep_io_free(r);
	rep_traffic_free(r);
	free(r->dir);
	free(r->label);
	free(r->version);
	free(r->command);
	free(r->system);
	free(r->network);
	free(r->status);
	free(r->tasks_missing);
	free(r->links_missing);
	free(r);
}

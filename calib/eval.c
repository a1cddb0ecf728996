/*
 * eval.c - evaluating parameter sets by simulation (see eval.h).
 */
#define _GNU_SOURCE
#include "calib/eval.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "calib/child.h"
#include "calib/par.h"
#include "calib/sysedit.h"
#include "runtime/task/driver.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cal_runner_init(cal_runner *r, const cal_spec *s, const char *self, const char *tmpdir, char **err)
{
	memset(r, 0, sizeof *r);
	r->spec = s;
	r->self = self;
	r->jobs = 1;
	r->seed = 1;
	r->network = s->network;
	char *e = NULL;
	r->base_text = s->system ? xread_text(s->system, "system file", &e) : xstrdup(drv_default_system);
	if (!tmpdir)
		tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (r->base_text) {
		r->work = xasprintf("%s/ncsim-calibrate.XXXXXX", tmpdir);
		if (!mkdtemp(r->work)) {
			e = xasprintf("%s: cannot create a scratch folder: %s", tmpdir, strerror(errno));
			free(r->work);
			r->work = NULL;
		}
	}
	/* Over MPI, the ranks fail together: one that went on alone would wait for the others forever. */
	if (!(*err = cal_par_error(e)))
		return 0;
	cal_runner_free(r);
	return -1;
}

void cal_runner_free(cal_runner *r)
{
	if (r->work)
		cal_rm_tree(r->work);
	free(r->work);
	free(r->base_text);
	memset(r, 0, sizeof *r);
}

char *cal_system_text(const cal_runner *r, const double *values)
{
	const cal_spec *s = r->spec;
	cal_setting *set = xcalloc(s->nparams + 1, sizeof *set);
	char (*buf)[64] = xcalloc(s->nparams + 1, sizeof *buf);
	size_t n = 0;
	for (size_t p = 0; p < s->nparams; p++) {
		if (!cal_param_applies(&s->params[p], r->network))
			continue;
		cal_param_format(&s->params[p], values[p], buf[n], sizeof buf[n]);
		set[n] = (cal_setting){s->params[p].section, s->params[p].key, buf[n]};
		n++;
	}
	char *text = cal_sys_edit(r->base_text, set, n);
	free(set);
	free(buf);
	return text ? text : xstrdup(r->base_text);
}

/* One simulation: benchmark b of parameter set j. */
typedef struct job {
	size_t set, bench;
	char *dir;     /* its scratch folder */
	pid_t pid;
	double start;
} job;

/* The command line of a run of benchmark b with system file sys, into dir. */
static char **command(const cal_runner *r, const cal_bench *b, const char *sys, const char *dir)
{
	VEC(char *) v = {0};
	char n[24], k[24], seed[24];
	snprintf(n, sizeof n, "%u", b->tasks);
	snprintf(k, sizeof k, "%u", b->tasks_per_node);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
	const char *fixed[] = {r->self, "run", b->program, "-n", n, "--system", sys, "--seed", seed, "--no-progress",
	                       "--out"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		VEC_PUSH(&v, xstrdup(fixed[i]));
	VEC_PUSH(&v, xasprintf("%s/out", dir));
	if (b->tasks_per_node > 1) {
		VEC_PUSH(&v, xstrdup("--tasks-per-node"));
		VEC_PUSH(&v, xstrdup(k));
	}
	if (r->network) {
		VEC_PUSH(&v, xstrdup("--network"));
		VEC_PUSH(&v, xstrdup(r->network));
	}
	if (r->max_memory) {
		VEC_PUSH(&v, xstrdup("--max-memory"));
		VEC_PUSH(&v, xstrdup(r->max_memory));
	}
	if (r->allow_backend_code)
		VEC_PUSH(&v, xstrdup("--allow-backend-code"));
	if (r->allow_host_access)
		VEC_PUSH(&v, xstrdup("--allow-host-access"));
	if (b->nargs) {
		VEC_PUSH(&v, xstrdup("--"));
		for (int i = 0; i < b->nargs; i++)
			VEC_PUSH(&v, xstrdup(b->args[i]));
	}
	VEC_PUSH(&v, NULL);
	return v.ptr;
}

static void free_argv(char **a)
{
	for (char **p = a; *p; p++)
		free(*p);
	free(a);
}

/* Starts job j: its system file, its folder, the child. 0, or -1 with *err. */
static int start(cal_runner *r, job *j, const char *sys, char **err)
{
	const cal_bench *b = &r->spec->bench[j->bench];
	j->dir = xasprintf("%s/run%zu", r->work, r->serial++);
	if (mkdir(j->dir, 0700) != 0) {
		*err = xasprintf("%s: %s", j->dir, strerror(errno));
		return -1;
	}
	char **argv = command(r, b, sys, j->dir);
	char *out = xasprintf("%s/stdout", j->dir), *errf = xasprintf("%s/stderr", j->dir);
	j->start = now();
	j->pid = cal_child_start(argv[0], argv, out, errf, err);
	free(out);
	free(errf);
	free_argv(argv);
	return j->pid < 0 ? -1 : 0;
}

/* The path of task 0's log in a run's output folder (heap), or NULL. */
static char *rank0_log(const char *dir)
{
	char *logs = xasprintf("%s/out/logs", dir), *found = NULL;
	DIR *d = opendir(logs);
	struct dirent *e;
	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 6 && !strcmp(e->d_name + n - 6, "-0.log"))
			found = xasprintf("%s/%s", logs, e->d_name);
	}
	if (d)
		closedir(d);
	free(logs);
	return found;
}

/* The message of a failed run, with the last lines of its stderr (heap). */
static char *run_error(const char *dir, const cal_bench *b, int status)
{
	char *path = xasprintf("%s/stderr", dir), *what = xasprintf("benchmark %s", b->name);
	char *m = cal_child_failure(what, status, path, 3);
	free(path);
	free(what);
	return m;
}

/* The simulated values of b at its measured points, from a run's output. NULL with *err. */
static double *read_figures(const char *dir, const cal_bench *b, char **err)
{
	char *path = b->output == CAL_OUT_LOG ? rank0_log(dir) : xasprintf("%s/stdout", dir);
	if (!path) {
		*err = xasprintf("benchmark %s: the run wrote no log of task 0 (does the program log? output = stdout "
		                 "reads what it prints)", b->name);
		return NULL;
	}
	cal_series s;
	char *e = NULL;
	int rc = cal_series_load(path, b->sim_format, b->sim_column, b->sim_xcolumn, &s, &e);
	free(path);
	if (rc < 0) {
		*err = xasprintf("benchmark %s: reading the simulated output: %s", b->name, e);
		free(e);
		return NULL;
	}
	size_t n;
	cal_point *pts = cal_series_points(&s, &n);
	cal_series_free(&s);
	double *v = xcalloc(b->npoints + 1, sizeof *v);
	for (size_t i = 0, k = 0; i < b->npoints && !*err; i++) {
		double x = b->points[i].x;
		while (k < n && pts[k].x < x && fabs(pts[k].x - x) > 1e-9 * fabs(x))
			k++;
		if (k == n || fabs(pts[k].x - x) > 1e-9 * fabs(x))
			*err = xasprintf("benchmark %s: the simulated output has no point at x = %g (measured in %s)", b->name,
			                 x, b->measured[0]);
		else
			v[i] = pts[k].mean;
	}
	free(pts);
	if (*err) {
		free(v);
		return NULL;
	}
	return v;
}

/* The events and wall seconds a run's summary.json reports (0 when absent). */
static void run_cost(const char *dir, uint64_t *events, double *wall)
{
	char *path = xasprintf("%s/out/summary.json", dir), *e = NULL, *text = xread_text(path, "summary", &e);
	free(path);
	free(e);
	const char *p;
	*events = 0;
	*wall = 0;
	if (text && (p = strstr(text, "\"events\":")))
		*events = strtoull(p + 9, NULL, 10);
	if (text && (p = strstr(text, "\"wall_seconds\":")))
		*wall = strtod(p + 15, NULL);
	free(text);
}

/*
 * The outcome of one run: what every rank must know of it to fill the
 * evaluations and the runner's counters as a single process would.
 */
typedef struct result {
	int ran;         /* 1 when the child ran to its end: counted in runs and run_wall */
	double *sim;     /* the benchmark's values at its measured points (heap), or NULL */
	char *error;     /* why the run failed (heap), or NULL */
	double wall, sim_wall;
	uint64_t events;
} result;

/* Collects a finished child into res[set x nbench + bench]: figures, cost, error; its folder removed. */
static void finish(cal_runner *r, job *j, int status, result *res)
{
	const cal_bench *b = &r->spec->bench[j->bench];
	result *x = &res[j->set * r->spec->nbench + j->bench];
	x->ran = 1;
	x->wall = now() - j->start;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		x->sim = read_figures(j->dir, b, &x->error);
		run_cost(j->dir, &x->events, &x->sim_wall);
	} else
		x->error = run_error(j->dir, b, status);
	cal_rm_tree(j->dir);
	free(j->dir);
	j->dir = NULL;
	j->pid = 0;
}

/* Waits for one child; returns its slot in jobs, or -1 when interrupted. */
static long reap(job *jobs, size_t n, int *status, volatile int *stop)
{
	for (;;) {
		pid_t pid = cal_child_wait(status, stop);
		if (pid < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (jobs[i].pid == pid)
				return (long)i;
		/* not one of ours: wait on */
	}
}

/* Kills and collects every running child. */
static void kill_all(job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			cal_child_kill(jobs[i].pid);
			cal_rm_tree(jobs[i].dir);
			free(jobs[i].dir);
			jobs[i].pid = 0;
		}
}

/* Writes the system file of each parameter set (paths into sys[]). 0, or -1 with *err. */
static int write_systems(cal_runner *r, const double *values, size_t k, char **sys, char **err)
{
	for (size_t j = 0; j < k; j++) {
		char *text = cal_system_text(r, values + j * r->spec->nparams);
		sys[j] = xasprintf("%s/system%zu.conf", r->work, r->serial++);
		FILE *f = fopen(sys[j], "w");
		int ok = f && fputs(text, f) >= 0;
		if (f && fclose(f) != 0)
			ok = 0;
		free(text);
		if (!ok) {
			*err = xasprintf("%s: cannot write: %s", sys[j], strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * The runs of this rank, as indices set x nbench + bench in increasing
 * order: of the batch's runs (without the predict-only benchmarks when
 * which is 1), every size-th one from the rank's own number on. Numbering
 * only the runs that happen spreads them evenly whatever is left out.
 */
static size_t my_runs(const cal_spec *s, size_t k, int which, size_t *mine)
{
	size_t rank = (size_t)cal_par_rank(), size = (size_t)cal_par_size(), n = 0, m = 0;
	for (size_t i = 0; i < k * s->nbench; i++) {
		if (which == 1 && s->bench[i % s->nbench].predict_only)
			continue;
		if (n++ % size == rank)
			mine[m++] = i;
	}
	return m;
}

/* Runs mine[0..m), r->jobs children at a time, into res. 0, or -1 when interrupted (the children killed). */
static int run_mine(cal_runner *r, char **sys, const size_t *mine, size_t m, result *res, volatile int *stop)
{
	size_t nb = r->spec->nbench, next = 0, running = 0;
	job *jobs = xcalloc(r->jobs, sizeof *jobs);
	int rc = 0, status;
	while (next < m || running > 0) {
		if (stop && *stop) { /* a signal that came between two waits */
			rc = -1;
			break;
		}
		while (next < m && running < r->jobs) {
			size_t i = mine[next++], slot = 0;
			while (jobs[slot].pid > 0)
				slot++;
			jobs[slot] = (job){.set = i / nb, .bench = i % nb};
			char *err = NULL;
			if (start(r, &jobs[slot], sys[i / nb], &err) < 0) {
				res[i].error = err;
				free(jobs[slot].dir);
				jobs[slot] = (job){0};
				continue;
			}
			running++;
		}
		if (running == 0)
			break;
		long slot = reap(jobs, r->jobs, &status, stop);
		if (slot < 0) {
			rc = -1;
			break;
		}
		finish(r, &jobs[slot], status, res);
		running--;
	}
	kill_all(jobs, r->jobs);
	free(jobs);
	return rc;
}

/*
 * The results of this rank's runs as bytes, one record per run, in the
 * order of mine; every rank runs the same binary, so doubles and integers
 * travel in the machine's own layout:
 *
 *   +-----------+-------+------------+------------+------------+
 *   | index u64 | flags | wall f64   | sim_wall   | events u64 |   flags: 1 ran, 2 sim, 4 error
 *   +-----------+-------+------------+------------+------------+
 *   | sim: npoints f64 (flags & 2)  | error: length u32, bytes (flags & 4) |
 *   +-------------------------------+--------------------------------------+
 */
typedef VEC(unsigned char) bytes;

static void put(bytes *b, const void *p, size_t n)
{
	VEC_GROW(b, b->len + n);
	memcpy(b->ptr + b->len, p, n);
	b->len += n;
}

static void pack(const cal_spec *s, const result *res, const size_t *mine, size_t m, bytes *out)
{
	for (size_t j = 0; j < m; j++) {
		const result *x = &res[mine[j]];
		uint64_t index = mine[j];
		unsigned char flags = (unsigned char)((x->ran ? 1 : 0) | (x->sim ? 2 : 0) | (x->error ? 4 : 0));
		put(out, &index, sizeof index);
		put(out, &flags, 1);
		put(out, &x->wall, sizeof x->wall);
		put(out, &x->sim_wall, sizeof x->sim_wall);
		put(out, &x->events, sizeof x->events);
		if (x->sim)
			put(out, x->sim, s->bench[mine[j] % s->nbench].npoints * sizeof *x->sim);
		if (x->error) {
			uint32_t len = (uint32_t)strlen(x->error);
			put(out, &len, sizeof len);
			put(out, x->error, len);
		}
	}
}

/* Takes n bytes at *p into dst when they are there. 0, or -1 past end. */
static int take(const unsigned char **p, const unsigned char *end, void *dst, size_t n)
{
	if ((size_t)(end - *p) < n)
		return -1;
	memcpy(dst, *p, n);
	*p += n;
	return 0;
}

/* The records of every rank into res[0..total). 0, or -1 on bytes that are not pack's (then res holds part). */
static int unpack(const cal_spec *s, const unsigned char *p, size_t n, result *res, size_t total)
{
	const unsigned char *end = p + n;
	while (p < end) {
		uint64_t index;
		unsigned char flags;
		result x = {0};
		if (take(&p, end, &index, sizeof index) < 0 || index >= total || res[index].ran || res[index].sim ||
		    res[index].error || take(&p, end, &flags, 1) < 0 || take(&p, end, &x.wall, sizeof x.wall) < 0 ||
		    take(&p, end, &x.sim_wall, sizeof x.sim_wall) < 0 || take(&p, end, &x.events, sizeof x.events) < 0)
			return -1;
		x.ran = flags & 1;
		if (flags & 2) {
			size_t np = s->bench[index % s->nbench].npoints;
			x.sim = xcalloc(np + 1, sizeof *x.sim);
			if (take(&p, end, x.sim, np * sizeof *x.sim) < 0) {
				free(x.sim);
				return -1;
			}
		}
		uint32_t len;
		if ((flags & 4) && (take(&p, end, &len, sizeof len) < 0 || (size_t)(end - p) < len)) {
			free(x.sim);
			return -1;
		}
		if (flags & 4) {
			x.error = xstrndup((const char *)p, len);
			p += len;
		}
		res[index] = x;
	}
	return 0;
}

static void free_results(result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(res[i].sim);
		free(res[i].error);
		res[i] = (result){0};
	}
}

/*
 * Sends this rank's results to every rank and receives theirs: afterwards
 * res holds every run of the batch on every rank (over one process, the
 * same round trip through bytes). *halt in: this rank was interrupted;
 * out: some rank was. 0, or -1 with *err.
 */
static int share(const cal_spec *s, result *res, size_t total, const size_t *mine, size_t m, int *halt,
                 char **err)
{
	bytes out = {0};
	pack(s, res, mine, m, &out);
	free_results(res, total);
	void *all;
	size_t n;
	int rc = cal_par_exchange(out.ptr, out.len, &all, &n, halt, err);
	VEC_FREE(&out);
	if (rc < 0)
		return -1;
	if (unpack(s, all, n, res, total) < 0) {
		*err = xstrdup("internal error: malformed results from another MPI rank");
		rc = -1;
	}
	free(all);
	return rc;
}

/*
 * Fills the evaluations and the runner's counters from every run's result,
 * in index order, so that even the floating-point sums come out the same
 * for any -j and any number of ranks. A set's error is its first
 * benchmark's, whichever run ended first.
 */
static void fill(cal_runner *r, result *res, size_t total, cal_eval *ev)
{
	size_t nb = r->spec->nbench;
	for (size_t i = 0; i < total; i++) {
		result *x = &res[i];
		cal_eval *e = &ev[i / nb];
		if (x->ran) {
			r->runs++;
			r->run_wall += x->wall;
			e->wall += x->wall;
		}
		e->sim[i % nb] = x->sim;
		e->sim_wall += x->sim_wall;
		e->events += x->events;
		r->sim_wall += x->sim_wall;
		r->events += x->events;
		if (x->error && !e->error)
			e->error = x->error;
		else
			free(x->error);
		*x = (result){0};
	}
}

int cal_run_batch(cal_runner *r, const double *values, size_t k, int which, cal_eval *ev, volatile int *stop)
{
	const cal_spec *s = r->spec;
	size_t nb = s->nbench, total = k * nb;
	for (size_t j = 0; j < k; j++)
		ev[j] = (cal_eval){.sim = xcalloc(nb + 1, sizeof(double *))};
	char **sys = xcalloc(k + 1, sizeof *sys), *err = NULL;
	size_t *mine = xcalloc(total + 1, sizeof *mine), m = my_runs(s, k, which, mine);
	result *res = xcalloc(total + 1, sizeof *res);
	int rc = 0;
	if (write_systems(r, values, k, sys, &err) < 0) {
		/* Every run of this rank fails with the message: the other ranks learn it through the exchange. */
		for (size_t j = 0; j < m; j++)
			res[mine[j]].error = xstrdup(err);
		free(err);
		err = NULL;
	} else
		rc = run_mine(r, sys, mine, m, res, stop);
	/* The ranks stop together: an interruption of any rank ends this batch on all of them. */
	int halt = rc < 0 || (stop && *stop);
	if (share(s, res, total, mine, m, &halt, &err) < 0) {
		for (size_t j = 0; j < k; j++)
			ev[j].error = xstrdup(err);
		free(err);
		free_results(res, total);
	}
	fill(r, res, total, ev);
	if (halt && stop)
		*stop = 1;
	for (size_t j = 0; j < k; j++) {
		if (sys[j])
			remove(sys[j]);
		free(sys[j]);
	}
	free(sys);
	free(mine);
	free(res);
	return halt ? -1 : 0;
}

void cal_eval_free(const cal_spec *s, cal_eval *ev)
{
	for (size_t b = 0; ev->sim && b < s->nbench; b++)
		free(ev->sim[b]);
	free(ev->sim);
	free(ev->error);
	memset(ev, 0, sizeof *ev);
}

/* The points of b in regime (-1: all) as two arrays; their count. */
static size_t select_points(const cal_spec *s, const cal_eval *ev, size_t b, int regime, double *sim, double *meas)
{
	const cal_bench *B = &s->bench[b];
	size_t n = 0;
	for (size_t i = 0; i < B->npoints; i++) {
		double x = B->points[i].x;
		if (regime >= 0 && !(x >= s->regimes[regime].min && x < s->regimes[regime].max))
			continue;
		sim[n] = ev->sim[b][i];
		meas[n++] = B->points[i].mean;
	}
	return n;
}

double cal_bench_loss(const cal_spec *s, const cal_eval *ev, size_t b, int regime)
{
	if (ev->error || !ev->sim || !ev->sim[b])
		return ev->error ? INFINITY : NAN;
	size_t np = s->bench[b].npoints;
	double *sim = xcalloc(np + 1, sizeof *sim), *meas = xcalloc(np + 1, sizeof *meas);
	size_t n = select_points(s, ev, b, regime, sim, meas);
	double l = n ? cal_loss_eval(&s->loss, sim, meas, n) : NAN;
	free(sim);
	free(meas);
	return l;
}

double cal_eval_loss(const cal_spec *s, const cal_eval *ev, int regime, int predict)
{
	if (ev->error)
		return INFINITY;
	double sum = 0, wsum = 0;
	for (size_t b = 0; b < s->nbench; b++) {
		if (s->bench[b].predict_only != predict)
			continue;
		double l = cal_bench_loss(s, ev, b, regime);
		if (isnan(l))
			continue;
		sum += s->bench[b].weight * l;
		wsum += s->bench[b].weight;
	}
	return wsum > 0 ? sum / wsum : NAN;
}

/*
 * eval.c - evaluating parameter sets by simulation (see eval.h).
 */
#define _GNU_SOURCE
#include "calib/eval.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "calib/sysedit.h"
#include "runtime/task/driver.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Removes path and everything below it (the runs' scratch folders). */
static void rm_tree(const char *path) { nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

int cal_runner_init(cal_runner *r, const cal_spec *s, const char *self, const char *tmpdir, char **err)
{
	memset(r, 0, sizeof *r);
	r->spec = s;
	r->self = self;
	r->jobs = 1;
	r->seed = 1;
	r->network = s->network;
	if (s->system) {
		if (!(r->base_text = xread_text(s->system, "system file", err)))
			return -1;
	} else {
		r->base_text = xstrdup(drv_default_system);
	}
	if (!tmpdir)
		tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	r->work = xasprintf("%s/ncsim-calibrate.XXXXXX", tmpdir);
	if (!mkdtemp(r->work)) {
		*err = xasprintf("%s: cannot create a scratch folder: %s", tmpdir, strerror(errno));
		free(r->work);
		r->work = NULL;
		free(r->base_text);
		r->base_text = NULL;
		return -1;
	}
	return 0;
}

void cal_runner_free(cal_runner *r)
{
	if (r->work)
		rm_tree(r->work);
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
	fflush(NULL);
	j->pid = fork();
	if (j->pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	free(out);
	free(errf);
	free_argv(argv);
	if (j->pid < 0) {
		*err = xasprintf("cannot start a simulation: %s", strerror(errno));
		return -1;
	}
	return 0;
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

/* The last lines of a run's stderr, for a message (heap). */
static char *run_error(const char *dir, const cal_bench *b, int status)
{
	char *path = xasprintf("%s/stderr", dir), *e = NULL;
	char *text = xread_text(path, "stderr", &e);
	free(e);
	free(path);
	const char *t = text ? text : "";
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		n--;
	size_t from = n;
	for (int lines = 0; from > 0 && lines < 3; from--)
		if (t[from - 1] == '\n' && ++lines == 3)
			break;
	char *m = xasprintf("benchmark %s: the simulation failed (%s %d)%s%.*s", b->name,
	                    WIFSIGNALED(status) ? "signal" : "exit status",
	                    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), n ? ":\n" : "",
	                    (int)(n - from), t + from);
	free(text);
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

/* Collects a finished child: its figures into ev, its error into errs[set x nbench + bench], its folder removed. */
static void finish(cal_runner *r, job *j, int status, cal_eval *ev, char **errs)
{
	const cal_bench *b = &r->spec->bench[j->bench];
	double wall = now() - j->start;
	cal_eval *e = &ev[j->set];
	e->wall += wall;
	r->runs++;
	r->run_wall += wall;
	char *err = NULL;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		uint64_t events;
		double sim;
		e->sim[j->bench] = read_figures(j->dir, b, &err);
		run_cost(j->dir, &events, &sim);
		e->events += events;
		e->sim_wall += sim;
		r->events += events;
		r->sim_wall += sim;
	} else
		err = run_error(j->dir, b, status);
	errs[j->set * r->spec->nbench + j->bench] = err;
	rm_tree(j->dir);
	free(j->dir);
	j->dir = NULL;
	j->pid = 0;
}

/* Waits for one child; returns its slot in jobs, or -1 when interrupted. */
static long reap(job *jobs, size_t n, int *status, volatile int *stop)
{
	for (;;) {
		pid_t pid = waitpid(-1, status, 0);
		if (pid > 0) {
			for (size_t i = 0; i < n; i++)
				if (jobs[i].pid == pid)
					return (long)i;
			continue; /* not one of ours */
		}
		if (errno == EINTR && !(stop && *stop))
			continue;
		return -1;
	}
}

/* Kills and collects every running child. */
static void kill_all(job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			kill(jobs[i].pid, SIGKILL);
			waitpid(jobs[i].pid, NULL, 0);
			rm_tree(jobs[i].dir);
			free(jobs[i].dir);
			jobs[i].pid = 0;
		}
}

/* Writes the system file of each parameter set (paths into sys[]). 0, or -1 with the error in ev. */
static int write_systems(cal_runner *r, const double *values, size_t k, char **sys, cal_eval *ev)
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
			ev[j].error = xasprintf("%s: cannot write: %s", sys[j], strerror(errno));
			return -1;
		}
	}
	return 0;
}

int cal_run_batch(cal_runner *r, const double *values, size_t k, int which, cal_eval *ev, volatile int *stop)
{
	const cal_spec *s = r->spec;
	size_t nb = s->nbench, total = k * nb, next = 0, running = 0;
	for (size_t j = 0; j < k; j++)
		ev[j] = (cal_eval){.sim = xcalloc(nb + 1, sizeof(double *))};
	char **sys = xcalloc(k + 1, sizeof *sys);
	job *jobs = xcalloc(r->jobs, sizeof *jobs);
	char **errs = xcalloc(total + 1, sizeof *errs);
	int rc = write_systems(r, values, k, sys, ev) < 0 ? 0 : 1, status;
	while (rc == 1 && (next < total || running > 0)) {
		while (next < total && running < r->jobs) {
			size_t set = next / nb, b = next % nb;
			next++;
			if (which == 1 && s->bench[b].predict_only)
				continue;
			size_t slot = 0;
			while (jobs[slot].pid > 0)
				slot++;
			jobs[slot] = (job){.set = set, .bench = b};
			char *err = NULL;
			if (start(r, &jobs[slot], sys[set], &err) < 0) {
				errs[set * nb + b] = err;
				free(jobs[slot].dir);
				jobs[slot] = (job){0};
				continue;
			}
			running++;
		}
		if (running == 0)
			break;
		long i = reap(jobs, r->jobs, &status, stop);
		if (i < 0) {
			rc = -1;
			break;
		}
		finish(r, &jobs[i], status, ev, errs);
		running--;
	}
	kill_all(jobs, r->jobs);
	/* A set's error is its first benchmark's, whichever run ended first: the same for every -j. */
	for (size_t i = 0; i < total; i++) {
		if (errs[i] && !ev[i / nb].error)
			ev[i / nb].error = errs[i];
		else
			free(errs[i]);
	}
	free(errs);
	for (size_t j = 0; j < k; j++) {
		if (sys[j])
			remove(sys[j]);
		free(sys[j]);
	}
	free(sys);
	free(jobs);
	return rc < 0 ? -1 : 0;
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

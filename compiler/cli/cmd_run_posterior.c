/*
 * cmd_run_posterior.c - `ncsim run --posterior posterior.csv [--samples K]
 * [-j N] [options] PROGRAM [-- program options]` (and the same with a
 * FILE.wkld): the program once per posterior draw, each on the system with
 * the draw's parameter values written in, and every figure of summary.json
 * with its median and 90% interval (calib/propagate.h, doc/calibration.md).
 *
 * Each draw is a plain `ncsim run` of this binary in a child process, with
 * the command line as typed but for the options that belong to the
 * propagation (--posterior, --samples, -j, --out, --force, --system and the
 * progress line): a draw cannot run otherwise than the program alone would.
 * The first draw runs alone (it builds the program into the cache once, and
 * an error common to every draw shows once), then the others, up to -j at a
 * time. Results are read by draw index, so -j never shows in the outputs.
 *
 * The output folder is prepared as for any run (drv_outdir): every draw
 * writes below its temporary folder, which is renamed onto --out only when
 * the summary is written. A failing draw, SIGINT or SIGTERM kill the other
 * draws and leave no folder.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "calib/child.h"
#include "calib/propagate.h"
#include "compiler/cli/commands.h"
#include "runtime/net/netfactory.h"
#include "runtime/stats/outfile.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"
#include "runtime/task/workload.h"

/* Set by SIGINT and SIGTERM while the draws run. */
static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

typedef struct post {
	opt_set o;
	const char *program;       /* as typed: a file or a bundled name */
	const char *posterior;
	char **child;              /* a draw's command line; its --system and --out values are filled per draw */
	size_t sys_arg, out_arg;   /* their slots in child */
	cal_posterior post;
	size_t ndraws, *rows;
	unsigned jobs;
	int progress;
	char *base;                /* the system's text */
	drv_outdir d;
	char *draws;               /* <staging>/draws */
	int width;                 /* digits of a draw's number */
	size_t done;
	double t0;                 /* when the command started (wall_seconds) */
} post;

/* ------------------------------------------------------------------ a draw's command line */

/* The options of the propagation itself, which a draw does not get (-j by its letter). */
static const char *const own[] = {"posterior", "samples", "jobs", "out", "force", "system", "progress", "no-progress"};

/* 1 if option word w ("--out", "--out=DIR", "-j2") is one of own[]. */
static int is_own(const char *w)
{
	if (w[1] != '-')
		return w[1] == 'j';
	size_t n = strcspn(w + 2, "=");
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		if (strlen(own[i]) == n && !strncmp(w + 2, own[i], n))
			return 1;
	return 0;
}

/* 1 if option word w of command cmd takes the next word as its value. */
static int takes_next(unsigned cmd, const char *w)
{
	/* opt_operand steps over an option's value: with a stand-in operand after w, it finds it only when w has none. */
	char *pair[] = {(char *)w, "x"};
	return opt_operand(cmd, 2, pair) < 0;
}

/*
 * The command line of a draw: ncsim run PROGRAM, the options as typed
 * (argv[1..], but for PROGRAM at index k and own[]), then --system, --out,
 * --no-progress and the program's options.
 */
static void child_line(post *P, unsigned cmd, int argc, char **argv, int k)
{
	VEC(char *) v = {0};
	VEC_PUSH(&v, "ncsim");
	VEC_PUSH(&v, "run");
	VEC_PUSH(&v, (char *)P->program);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (i == k)
			continue;
		int opt = argv[i][0] == '-' && argv[i][1], next = opt && takes_next(cmd, argv[i]) && i + 1 < argc;
		if (!opt || !is_own(argv[i])) {
			VEC_PUSH(&v, argv[i]);
			if (next)
				VEC_PUSH(&v, argv[i + 1]);
		}
		i += next;
	}
	const char *tail[] = {"--system", NULL, "--out", NULL, "--no-progress"};
	P->sys_arg = v.len + 1;
	P->out_arg = v.len + 3;
	for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
		VEC_PUSH(&v, (char *)tail[i]);
	if (P->o.rest_argv) {
		VEC_PUSH(&v, "--");
		for (int i = 0; i < P->o.rest_argc; i++)
			VEC_PUSH(&v, P->o.rest_argv[i]);
	}
	VEC_PUSH(&v, NULL);
	P->child = v.ptr;
}

/* ------------------------------------------------------------------ running the draws */

/* The path of file `suffix` of draw d in the draws folder ("" for its run folder), heap. */
static char *draw_path(const post *P, size_t d, const char *suffix)
{
	return xasprintf("%s/%0*zu%s", P->draws, P->width, d, suffix);
}

/* Writes every draw's system file. 0, or -1 with *err. */
static int write_systems(post *P, char **err)
{
	for (size_t d = 0; d < P->ndraws; d++) {
		char *text = cal_prop_system(&P->post, P->base, P->rows[d]), *path = draw_path(P, d, ".conf");
		int rc = outfile_write_all(path, text, strlen(text), 0, err);
		free(text);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static pid_t start(post *P, size_t d, char **err)
{
	char *sys = draw_path(P, d, ".conf"), *out = draw_path(P, d, ""), *so = draw_path(P, d, ".stdout"),
	     *se = draw_path(P, d, ".stderr");
	P->child[P->sys_arg] = sys;
	P->child[P->out_arg] = out;
	/* /proc/self/exe: this very binary, whatever PATH and argv[0] say. */
	pid_t pid = cal_child_start("/proc/self/exe", P->child, so, se, err);
	free(sys);
	free(out);
	free(so);
	free(se);
	return pid;
}

/* text with every `from` replaced by `to` (heap; text is freed). */
static char *replace(char *text, const char *from, const char *to)
{
	VEC(char) v = {0};
	size_t n = strlen(from);
	for (const char *p = text, *hit; *p; p = hit + n) {
		hit = strstr(p, from);
		size_t keep = hit ? (size_t)(hit - p) : strlen(p);
		VEC_GROW(&v, v.len + keep + strlen(to) + 1);
		memcpy(v.ptr + v.len, p, keep);
		v.len += keep;
		if (!hit)
			break;
		memcpy(v.ptr + v.len, to, strlen(to));
		v.len += strlen(to);
	}
	VEC_PUSH(&v, '\0');
	free(text);
	return v.ptr;
}

/* A draw ended with wait status `status`. 0, or -1 with *err (the draw's message). */
static int finish(post *P, size_t d, int status, char **err)
{
	char *se = draw_path(P, d, ".stderr");
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (ok) {
		remove(se); /* the run's report: its wall time would make the folder differ from run to run */
		P->done++;
		if (P->progress)
			fprintf(stderr, "\rncsim run: posterior draws %zu/%zu", P->done, P->ndraws);
	} else {
		char *what = xasprintf("draw %zu (%s line %d)", d, P->posterior, P->post.lines[P->rows[d]]),
		     *sys = draw_path(P, d, ".conf"), *name = xasprintf("<the system of draw %zu>", d);
		/* The draw's system file goes with the temporary folder: name it for what it is. */
		*err = replace(cal_child_failure(what, status, se, 6), sys, name);
		free(what);
		free(sys);
		free(name);
	}
	free(se);
	return ok ? 0 : -1;
}

/*
 * Runs draws [from, to), up to P->jobs at a time. 0; -1 with *err when a
 * draw failed; 1 when interrupted. The draws still running are killed
 * before it returns.
 */
static int run_draws(post *P, size_t from, size_t to, char **err)
{
	typedef struct { pid_t pid; size_t draw; } slot;
	slot *s = xcalloc(P->jobs, sizeof *s);
	size_t next = from, running = 0;
	int rc = 0;
	while (rc == 0 && (next < to || running > 0)) {
		for (size_t i = 0; i < P->jobs && rc == 0 && next < to && running < P->jobs && !stop_flag; i++) {
			if (s[i].pid > 0)
				continue;
			s[i] = (slot){start(P, next, err), next};
			next++;
			rc = s[i].pid < 0 ? -1 : 0;
			running += rc == 0;
		}
		int status;
		pid_t pid = rc == 0 && !stop_flag ? cal_child_wait(&status, &stop_flag) : -1;
		if (rc == 0 && (stop_flag || pid < 0)) {
			/* No child left to wait for, with draws running, would be a bug: say so rather than hang. */
			rc = stop_flag ? 1 : -1;
			if (!stop_flag)
				*err = xasprintf("internal error: waiting for the draws: %s", strerror(errno));
		}
		if (rc)
			break;
		for (size_t i = 0; i < P->jobs; i++)
			if (s[i].pid == pid) {
				s[i].pid = 0;
				running--;
				rc = finish(P, s[i].draw, status, err);
			}
	}
	for (size_t i = 0; i < P->jobs; i++)
		cal_child_kill(s[i].pid);
	free(s);
	return rc;
}

/* Every draw, the first alone. An exit status. */
static int run_all(post *P)
{
	struct sigaction sa = {0}, old[2];
	const int sigs[] = {SIGINT, SIGTERM};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_flag = 0;
	for (int i = 0; i < 2; i++)
		sigaction(sigs[i], &sa, &old[i]); /* no SA_RESTART: a signal ends the wait for a child */
	char *err = NULL;
	int rc = run_draws(P, 0, 1, &err);
	if (rc == 0)
		rc = run_draws(P, 1, P->ndraws, &err);
	for (int i = 0; i < 2; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (P->progress && P->done)
		fputc('\n', stderr);
	if (rc == 0)
		return EXIT_OK;
	if (rc > 0)
		fprintf(stderr, "ncsim run: interrupted: the draws were stopped and nothing was written\n");
	else
		fprintf(stderr, "ncsim run: %s\n", err);
	free(err);
	return rc > 0 ? EXIT_INTERRUPTED : EXIT_INPUT;
}

/* ------------------------------------------------------------------ the outputs */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Every draw's summary.json into runs[]. 0, or -1 with *err. */
static int read_runs(const post *P, cal_prop_run *runs, char **err)
{
	for (size_t d = 0; d < P->ndraws; d++) {
		char *path = draw_path(P, d, "/summary.json"), *text = xread_text(path, "summary", err);
		int rc = text ? cal_prop_read_summary(path, text, &runs[d], err) : -1;
		free(text);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Writes file name of the output folder with fn. 0, or -1 with *err. */
static int write_file(const post *P, const char *name, int (*fn)(const post *P, const void *arg, FILE *f),
                      const void *arg, char **err)
{
	char *path = xasprintf("%s/%s", P->d.staging, name);
	outfile *f = outfile_open(path, 0, err);
	int rc = f ? fn(P, arg, outfile_stream(f)) : -1;
	if (f && rc < 0) {
		*err = xasprintf("%s: write error", path);
		outfile_abort(f);
	} else if (f) {
		rc = outfile_commit(f, err);
	}
	free(path);
	return rc;
}

static int put_draws(const post *P, const void *arg, FILE *f)
{
	(void)arg;
	return cal_prop_write_draws(&P->post, P->rows, P->ndraws, f);
}

static int put_summary(const post *P, const void *arg, FILE *f)
{
	const cal_prop_table *t = arg;
	cal_prop_source src = {
		.posterior = P->posterior, .program = P->program, .post = &P->post, .rows = P->rows,
		.with_wall = !opt_given(&P->o, OPT_NO_WALL_TIME), .wall_seconds = now() - P->t0,
	};
	return cal_prop_write_json(t, &src, f);
}

/* The draws' figures: posterior-summary.json and draws.csv, the folder committed, the table. An exit status. */
static int report(post *P)
{
	cal_prop_run *runs = xcalloc(P->ndraws, sizeof *runs);
	cal_prop_table t = {0};
	char *err = NULL;
	int rc = EXIT_INTERNAL; /* a draw that ended well wrote its summary.json */
	if (read_runs(P, runs, &err) == 0 && cal_prop_gather(runs, P->ndraws, &t, &err) == 0) {
		rc = EXIT_USAGE; /* from here on, the output folder cannot be written */
		if (write_file(P, "draws.csv", put_draws, NULL, &err) == 0 &&
		    write_file(P, "posterior-summary.json", put_summary, &t, &err) == 0 && drv_outdir_commit(&P->d, &err) == 0)
			rc = EXIT_OK;
	}
	if (rc == EXIT_OK) {
		cal_prop_print(&t, stdout);
		fprintf(stderr, "ncsim: %s: %zu posterior draws done\n  output folder:  %s\n", P->program, P->ndraws,
		        P->d.path);
	} else {
		fprintf(stderr, "ncsim run: %s\n", err);
	}
	free(err);
	cal_prop_table_free(&t);
	for (size_t d = 0; d < P->ndraws; d++)
		cal_prop_run_free(&runs[d]);
	free(runs);
	return rc;
}

/* ------------------------------------------------------------------ the command */

/* The posterior and the draws' rows. 0, or -1 with *err and *rc, the exit status. */
static int load_posterior(post *P, int *rc, char **err)
{
	P->posterior = opt_get(&P->o, OPT_POSTERIOR)->text;
	P->ndraws = opt_given(&P->o, OPT_SAMPLES) ? opt_get(&P->o, OPT_SAMPLES)->num : CAL_PROP_DEFAULT_SAMPLES;
	*rc = EXIT_USAGE;
	if (!P->posterior) {
		*err = xstrdup("--samples and -j go with --posterior FILE (a posterior.csv of ncsim calibrate --bayes)");
		return -1;
	}
	if (opt_input_file(P->posterior, "posterior file", err) < 0)
		return -1;
	*rc = EXIT_INPUT;
	if (cal_prop_load(P->posterior, &P->post, err) < 0)
		return -1;
	*rc = EXIT_USAGE;
	if (P->ndraws > P->post.nrows) {
		*err = xasprintf("--samples %zu: %s has %zu rows (each draw is a different row)", P->ndraws, P->posterior,
		                 P->post.nrows);
		return -1;
	}
	P->rows = xcalloc(P->ndraws, sizeof *P->rows);
	for (size_t d = 0; d < P->ndraws; d++)
		P->rows[d] = cal_prop_row(d, P->ndraws, P->post.nrows);
	return 0;
}

/* The text of the system the draws edit: --system, or the built-in one. 0, or -1 with *err and *rc. */
static int load_system(post *P, int *rc, char **err)
{
	const char *sys = NULL;
	*rc = EXIT_USAGE;
	if (opt_system(&P->o, &sys, err) < 0)
		return -1;
	if (sys && netf_is_codes(sys)) {
		*rc = EXIT_INPUT;
		*err = xasprintf("%s is a CODES configuration: the draws edit native system files; `ncsim netbench "
		                 "--system %s --describe` prints the native system to save and use instead", sys, sys);
		return -1;
	}
	P->base = sys ? xread_text(sys, "system file", err) : xstrdup(drv_default_system);
	return P->base ? 0 : -1;
}

/* The posterior, the draws and the base system. 0, or an exit status after a message. */
static int load(post *P)
{
	char *err = NULL;
	int rc;
	if (load_posterior(P, &rc, &err) == 0 && load_system(P, &rc, &err) == 0)
		return 0;
	fprintf(stderr, "ncsim run: %s\n", err);
	free(err);
	return rc;
}

/* The output folder's temporary folder with draws/ and every draw's system file. 0, or an exit status. */
static int prepare_out(post *P)
{
	char *err = NULL, *stem = xpath_stem(P->program, ""), *dot = strrchr(stem, '.');
	if (dot && dot != stem)
		*dot = '\0';
	char *label = xasprintf("%s-posterior", stem);
	int rc = opt_out_dir(&P->o, label, &P->d, &err);
	free(stem);
	free(label);
	if (rc == 0) {
		P->draws = xasprintf("%s/draws", P->d.staging);
		if (mkdir(P->draws, 0777) != 0)
			err = xasprintf("%s: cannot create: %s", P->draws, strerror(errno));
		else
			rc = write_systems(P, &err);
	}
	if (!err)
		return 0;
	fprintf(stderr, "ncsim run: %s\n", err);
	free(err);
	return EXIT_USAGE;
}

int cmd_run_posterior(int argc, char **argv)
{
	post P = {0};
	int k = opt_operand(OPT_CMD_RUN | OPT_CMD_WKLD, argc - 1, argv + 1) + 1;
	unsigned cmd = k > 0 && wl_is_workload_file(argv[k]) ? OPT_CMD_WKLD : OPT_CMD_RUN;
	/* A workload file is no operand of the workload command's own options. */
	char **words = xcalloc((size_t)argc + 1, sizeof *words);
	int nw = 0;
	for (int i = 1; i < argc; i++)
		if (cmd == OPT_CMD_RUN || i != k)
			words[nw++] = argv[i];
	int status = opt_parse(&P.o, cmd, "ncsim run", nw, words) != 0 ? EXIT_USAGE : EXIT_OK;
	P.program = cmd == OPT_CMD_WKLD ? argv[k] : P.o.operand;
	P.jobs = opt_given(&P.o, OPT_JOBS) ? (unsigned)opt_get(&P.o, OPT_JOBS)->num : 1;
	int on = opt_get(&P.o, OPT_PROGRESS)->given, off = opt_get(&P.o, OPT_NO_PROGRESS)->given;
	P.progress = on > off || (!off && isatty(2));
	P.t0 = now();
	if (status == EXIT_OK && cmd == OPT_CMD_WKLD) {
		char *err = NULL;
		if (opt_input_file(P.program, "workload file", &err) < 0) {
			fprintf(stderr, "ncsim run: %s\n", err);
			free(err);
			status = EXIT_USAGE;
		}
	}
	if (status == EXIT_OK)
		status = load(&P);
	if (status == EXIT_OK) {
		P.width = snprintf(NULL, 0, "%zu", P.ndraws - 1);
		P.width = P.width < 3 ? 3 : P.width;
		child_line(&P, cmd, argc, argv, k);
		status = prepare_out(&P);
	}
	if (status == EXIT_OK)
		status = run_all(&P);
	if (status == EXIT_OK)
		status = report(&P);
	drv_outdir_free(&P.d); /* removes the temporary folder unless it was committed */
	free(P.draws);
	free(P.child);
	free(P.rows);
	free(P.base);
	cal_prop_free(&P.post);
	opt_free(&P.o);
	free(words);
	return status;
}

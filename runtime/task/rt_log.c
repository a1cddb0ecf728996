/*
 * rt_log.c - log files and OUTPUTS lines of the skeleton API (see rt_log.h).
 *
 * One rl_job per job holds everything the prologues of its tasks share (the
 * nlog_info with its strings); rl_open adds the rank and the file name. The
 * strings live in `owned` so that nlog_info can point into them.
 */
#include "config.h"

#include "runtime/task/rt_log.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runtime/stats/ncptl_log.h"
#include "runtime/stats/outfile.h"
#include "runtime/task/drv_par.h"
#include "runtime/task/task.h"

extern char **environ;

struct rl_job {
	char *tmpl;              /* full path template, or NULL: no file */
	nlog_info info;          /* shared prologue; rank and ntasks are set per task */
	VEC(nlog_kv) platform, options, comments;
	VEC(char *) env;         /* the environment as logged, NULL-terminated */
	VEC(char *) owned;       /* every string the info points to */
};

static const char *keep(rl_job *j, char *s)
{
	VEC_PUSH(&j->owned, s);
	return s;
}

static void add_kv(rl_job *j, int which, const char *key, char *value)
{
	nlog_kv kv = {.key = key ? keep(j, xstrdup(key)) : NULL, .value = keep(j, value)};
	if (which == 0)
		VEC_PUSH(&j->platform, kv);
	else if (which == 1)
		VEC_PUSH(&j->options, kv);
	else
		VEC_PUSH(&j->comments, kv);
}

/* --comment text: @FILE includes a file, !COMMAND a command's output (§11); heap string. */
static char *expand_comment(const char *c)
{
	if (c[0] != '@' && c[0] != '!')
		return xstrdup(c);
	size_t len;
	char *text;
	if (c[0] == '@') {
		text = xread_file(c + 1, &len, NULL);
	} else {
		FILE *f = popen(c + 1, "r");
		text = f ? xread_stream(f, &len) : NULL;
		int saved = errno;
		if (f)
			pclose(f);
		errno = saved;
	}
	return text ? text : xasprintf("(cannot read %s: %s)", c + 1, strerror(errno));
}

/* '%' doubled, so that a folder name survives template expansion. */
static char *escape_pct(const char *s)
{
	VEC(char) o = {0};
	for (; *s; s++) {
		if (*s == '%')
			VEC_PUSH(&o, '%');
		VEC_PUSH(&o, *s);
	}
	VEC_PUSH(&o, 0);
	return o.ptr;
}

/* The file template: NULL when nothing is written; -1 with *err on a bad template. */
static int make_template(const rl_setup *s, const char *job_name, char **out, char **err)
{
	*out = NULL;
	char *user = NULL;
	if (s->tmpl) {
		user = xstrdup(s->tmpl);
	} else {
		/* A job name is a label, not a path: keep it to one file-name component. */
		char *n = escape_pct(job_name);
		for (char *p = n; *p; p++)
			if (*p == '/')
				*p = '_';
		user = xasprintf("%s-%%p.log", n);
		free(n);
	}
	/* Validates the template (%p mandatory, directives) even when nothing is written. */
	char *probe = NULL;
	int rc = nlog_expand_template(user, 0, &probe, err);
	free(probe);
	if (rc <= 0 || !s->out_dir) {
		free(user);
		return rc < 0 ? -1 : 0;
	}
	if (user[0] == '/') {
		*out = user;
	} else {
		char *dir = escape_pct(s->out_dir);
		*out = xasprintf("%s/logs/%s", dir, user);
		free(dir);
		free(user);
	}
	/* The folder of the files (template directives may only sit in the file name part). */
	char *first = NULL;
	if (nlog_expand_template(*out, 0, &first, err) < 0)
		return -1;
	char *slash = strrchr(first, '/');
	if (slash && slash != first) {
		*slash = 0;
		rc = outfile_mkdir_p(first, err);
	}
	free(first);
	return rc < 0 ? -1 : 0;
}

/* 1 if the variable NAME=... (name_len bytes) looks like it holds a secret (doc/security.md). */
static int secret_name(const char *name, size_t name_len)
{
	static const char *const words[] = {"TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL",
	                                    "AUTH", "COOKIE", "SESSION", "PRIVATE"};
	char up[256];
	size_t n = name_len < sizeof up - 1 ? name_len : sizeof up - 1;
	for (size_t i = 0; i < n; i++)
		up[i] = (char)toupper((unsigned char)name[i]);
	up[n] = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strstr(up, words[i]))
			return 1;
	return 0;
}

/*
 * 1 for a variable an MPI launcher or library sets (Open MPI, PMIx, the PSM
 * libraries' switches) and for the shell's `_` (the command that started
 * ncsim: mpirun or ncsim): they describe how ncsim was started, not the
 * simulation, and differ from rank to rank, so a run over ranks logs the
 * sequential run's environment.
 */
static int launcher_var(const char *v, size_t n)
{
	static const char *const pre[] = {"OMPI_", "PMIX_", "PMI_", "OPAL_", "PRTE_"};
	static const char *const whole[] = {"HFI_NO_BACKTRACE", "IPATH_NO_BACKTRACE", "PSM2_DEVICES", "_"};
	for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
		if (n > strlen(pre[i]) && !strncmp(v, pre[i], strlen(pre[i])))
			return 1;
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
		if (n == strlen(whole[i]) && !strncmp(v, whole[i], n))
			return 1;
	return 0;
}

/* The environment of the prologue: every variable, with "(hidden)" as the value of those named like secrets. */
static void fill_env(rl_job *j)
{
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
		if (launcher_var(*e, n))
			continue;
		char *v = secret_name(*e, n) ? xasprintf("%.*s=(hidden)", (int)n, *e) : xstrdup(*e);
		keep(j, v);
		VEC_PUSH(&j->env, v);
	}
	VEC_PUSH(&j->env, NULL);
}

static void fill_platform(rl_job *j, const rl_setup *s)
{
	struct utsname u;
	if (uname(&u) == 0) {
		add_kv(j, 0, "Host name", xstrdup(u.nodename));
		add_kv(j, 0, "Operating system", xasprintf("%s %s %s", u.sysname, u.release, u.version));
	}
	add_kv(j, 0, "Simulated system", xstrdup(s->system ? s->system : "(built-in)"));
	add_kv(j, 0, "Simulated network model", xstrdup(s->network ? s->network : ""));
	add_kv(j, 0, "Simulated nodes", xasprintf("%" PRIu32, s->nnodes));
	add_kv(j, 0, "Microsecond timer type", xstrdup("simulated clock"));
	add_kv(j, 0, "Microsecond timer increment", xstrdup("1e-06 microseconds (1 ps)"));
}

rl_job *rl_job_new(const rt_program *prog, const char *job_name, const rt_int *values, const rl_setup *s,
                   char **err)
{
	if (!(prog->flags & RT_PROG_USES_LOG))
		return NULL;
	rl_job *j = xcalloc(1, sizeof *j);
	if (make_template(s, job_name, &j->tmpl, err) < 0) {
		rl_job_free(j);
		return NULL;
	}
	fill_platform(j, s);
	add_kv(j, 1, "Log-file template", s->tmpl ? xstrdup(s->tmpl) : xasprintf("%s-%%p.log", job_name));
	if (prog->flags & RT_PROG_USES_RANDOM)
		add_kv(j, 1, "Seed for the random-number generator", xasprintf("%" PRIu64, s->seed));
	for (unsigned i = 0; i < prog->nparams; i++) {
		const rt_param *p = &prog->params[i];
		add_kv(j, 1, p->desc ? p->desc : p->name, xasprintf("%" PRId64, values[i]));
	}
	add_kv(j, 2, "ncsim version", xstrdup(PACKAGE_VERSION));
	if (prog->source_file)
		add_kv(j, 2, "Source file", xstrdup(prog->source_file));
	for (size_t i = 0; i < s->ncomments; i++)
		add_kv(j, 2, NULL, expand_comment(s->comments[i]));

	nlog_info *in = &j->info;
	in->backend_name = "ncsim";
	in->backend_desc = "discrete-event simulation of the program's tasks";
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	in->executable = keep(j, n > 0 ? xstrndup(exe, (size_t)n) : xstrdup(prog->name));
	char cwd[4096];
	in->cwd = getcwd(cwd, sizeof cwd) ? keep(j, xstrdup(cwd)) : NULL;
	in->argc = s->argc;
	in->argv = s->argv;
	in->uuid = keep(j, xstrdup(s->uuid ? s->uuid : ""));
	in->no_trap = keep(j, xstrdup(s->no_trap ? s->no_trap : ""));
	in->creation_time = s->created;
	fill_env(j);
	in->env = j->env.ptr;
	in->source = prog->source_text;
	return j;
}

void rl_job_free(rl_job *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->owned.len; i++)
		free(j->owned.ptr[i]);
	VEC_FREE(&j->owned);
	VEC_FREE(&j->platform);
	VEC_FREE(&j->options);
	VEC_FREE(&j->comments);
	VEC_FREE(&j->env);
	free(j->tmpl);
	free(j);
}

int rl_open(rt_task *t, char **err)
{
	rl_job *j = t->job->log;
	nlog_info in = j->info;
	in.ntasks = t->job->ntasks;
	in.rank = t->rank;
	in.platform = j->platform.ptr;
	in.nplatform = j->platform.len;
	in.options = j->options.ptr;
	in.noptions = j->options.len;
	in.comments = j->comments.ptr;
	in.ncomments = j->comments.len;
	char *path = NULL;
	if (j->tmpl) {
		int listed = nlog_rank_listed(getenv("NCPTL_LOG_ONLY"), t->rank, err);
		if (listed < 0)
			return -1;
		if (listed && nlog_expand_template(j->tmpl, t->rank, &path, err) < 0)
			return -1;
	}
	t->log = nlog_open(path, &in, err);
	free(path);
	return t->log ? 0 : -1;
}

int rl_close(rt_task *t, const char *abort_msg, char **err)
{
	if (!t->log)
		return 0;
	nlog *l = t->log;
	t->log = NULL;
	return nlog_close(l, abort_msg, NULL, err);
}

/* ------------------------------------------------------------ the skeleton API */

/* Ends the run with a log writer's error (heap string, freed here). */
static _Noreturn void log_fatal(rt_task *t, char *err) { task_fatal_err(t, err, "log file error"); }

void rt_log(rt_task *t, unsigned col, const char *heading, enum rt_agg agg, double param, double value)
{
	char *err = NULL;
	if (!t->log || cnt_suppressed(&t->cnt))
		return;
	if (nlog_value(t->log, col, heading, agg, param, value, &err) < 0)
		log_fatal(t, err);
}

void rt_log_flush(rt_task *t)
{
	char *err = NULL;
	if (!t->log || cnt_suppressed(&t->cnt))
		return;
	if (nlog_compute_aggregates(t->log, &err) < 0)
		log_fatal(t, err);
}

void rt_new_statement(rt_task *t)
{
	char *err = NULL;
	if (!t->log || cnt_suppressed(&t->cnt))
		return;
	if (nlog_end_table(t->log, &err) < 0)
		log_fatal(t, err);
}

const char *rt_value_of(rt_task *t, const char *key) { return t->log ? nlog_value_of(t->log, key) : ""; }

void rt_output(rt_task *t, const char *line)
{
	if (cnt_suppressed(&t->cnt))
		return;
	if (t->w->par) { /* printed by rank 0 after the run, in the same order */
		drvp_output(t->w, line);
		return;
	}
	/* Handlers run in (time, entity, sequence) order: the lines come out in simulated-time order. */
	FILE *f = t->w->out ? t->w->out : stdout;
	fputs(line, f);
	putc('\n', f);
}

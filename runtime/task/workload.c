/*
 * workload.c - workload files, skeleton and system lookup (see workload.h).
 */
#include "config.h"

#include "runtime/task/workload.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/exitcode.h"
#include "runtime/kernel/sim.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/netfactory.h"
#include "base/sysconf.h"
#include "base/units.h"

/* ------------------------------------------------------------------ lookup */

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The bundled folder `sub` (e.g. "stdlib/workloads"): the source tree's when it exists, else the installed one. */
static char *bundled(const char *sub, const char *file)
{
	char *p = xasprintf("%s/%s/%s", NCSIM_SRCDIR, sub, file);
	if (is_file(p))
		return p;
	free(p);
	p = xasprintf("%s/%s/%s", NCSIM_PKGDATADIR, sub, file);
	if (is_file(p))
		return p;
	free(p);
	return NULL;
}

/* Looks `file` up in each directory of $NCSIM_PATH, directly and in its `sub` folder. */
static char *in_path(const char *file, const char *sub)
{
	const char *env = getenv("NCSIM_PATH");
	if (!env)
		return NULL;
	while (*env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);
		if (n > 0) {
			char *p = xasprintf("%.*s/%s", (int)n, env, file);
			if (is_file(p))
				return p;
			free(p);
			p = xasprintf("%.*s/%s/%s", (int)n, env, sub, file);
			if (is_file(p))
				return p;
			free(p);
		}
		env += n + (colon != NULL);
	}
	return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A name made only of letters, digits, '-', '_' and '.': candidates for the bundled folders. */
static int plain_name(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return 0;
	return 1;
}

/* An existing path: next to the file `near` first, then as given. */
static char *existing(const char *name, const char *near)
{
	char *p = xpath_near(near, name);
	if (strcmp(p, name) && is_file(p))
		return p;
	free(p);
	return is_file(name) ? xstrdup(name) : NULL;
}

/* The skeleton `name` (a plain name) in the bundled folder or in $NCSIM_PATH; NULL if neither has it. */
static char *named_skeleton(const char *name)
{
	char *file = xasprintf("%s.ncptl", name);
	char *p = bundled("stdlib/workloads", file);
	if (!p)
		p = in_path(file, "workloads");
	free(file);
	return p;
}

/*
 * Application names of CODES and Union workload lists whose ncsim skeleton
 * has another name, with the options that make the skeleton do what that
 * application does. Union runs its benchmarks as "conceptual-NAME": "cosmo"
 * is its C Cosmoflow (5 steps, each an 8 MiB blocking write to the task's
 * own file before the compute), "cosmoflow" its coNCePTuaL one (10 steps, no
 * I/O). doc/workloads.md lists them.
 */
static const struct {
	const char *codes, *ncsim, *args;
} aliases[] = {
	{"conceptual-cosmo", "cosmoflow", "--reps 5 --io 2"},
	{"conceptual-cosmoflow", "cosmoflow", "--reps 10 --io 0"},
	{"conceptual-checkpoint", "checkpoint", NULL},
	{"conceptual-allreduce", "allreduce", NULL},
	{"conceptual-alltoall", "alltoall", NULL},
	{"conceptual-halo3d", "halo3d", NULL},
	{"conceptual-incast", "incast", NULL},
};

/*
 * The bundled skeleton that stands for a CODES/Union application name, or
 * NULL; *args gets the options the alias puts before the job's own ones.
 */
static char *alias_skeleton(const char *name, const char **args)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcmp(name, aliases[i].codes)) {
			*args = aliases[i].args;
			return named_skeleton(aliases[i].ncsim);
		}
	/* Any other "conceptual-NAME": the coNCePTuaL program NAME, when ncsim has it. */
	if (!strncmp(name, "conceptual-", 11) && name[11])
		return named_skeleton(name + 11);
	return NULL;
}

/* wl_resolve_skeleton, and the options of the alias it went through (NULL: none) in *args. */
static char *resolve_skeleton(const char *name, const char *near, const char **args, char **err)
{
	*args = NULL;
	char *p = existing(name, near);
	if (p)
		return p;
	if (strchr(name, '/') || ends_with(name, ".ncptl") || !plain_name(name)) {
		*err = xasprintf("skeleton file '%s' not found", name);
		return NULL;
	}
	p = named_skeleton(name);
	if (!p)
		p = alias_skeleton(name, args);
	if (!p)
		*err = xasprintf("unknown skeleton '%s' (not a file, not in stdlib/workloads, not in NCSIM_PATH, "
		                 "not a known CODES or Union name)", name);
	return p;
}

char *wl_resolve_skeleton(const char *name, const char *near, char **err)
{
	const char *args;
	return resolve_skeleton(name, near, &args, err);
}

/*
 * 1 if the first line that is neither blank nor a comment starts with a
 * decimal task count followed by a word: the shape of a workload list.
 * Only the file's first 4 KiB are read.
 */
static int looks_like_list(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char buf[4097];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *c = buf;
	for (;;) {
		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
			c++;
		if (*c != '#')
			break;
		while (*c && *c != '\n')
			c++;
	}
	if (!isdigit((unsigned char)*c))
		return 0;
	while (isdigit((unsigned char)*c))
		c++;
	if (*c != ' ' && *c != '\t')
		return 0;
	while (*c == ' ' || *c == '\t')
		c++;
	return isalpha((unsigned char)*c) || *c == '.' || *c == '/' || *c == '_';
}

int wl_is_workload_file(const char *path)
{
	if (ends_with(path, ".wkld"))
		return 1;
	/* Programs, skeletons and traces keep their meaning whatever they hold. */
	if (ends_with(path, ".ncptl") || ends_with(path, ".c") || ends_with(path, ".vef") || !is_file(path))
		return 0;
	return looks_like_list(path);
}

char *wl_resolve_system(const char *name, char **err)
{
	struct stat st;
	if (is_file(name))
		return xstrdup(name);
	if (stat(name, &st) == 0) {
		/* It exists, so it is no preset's name: say why it cannot be read (as xread_text would). */
		*err = xasprintf("%s: cannot read system file: %s", name, xread_strerror(S_ISDIR(st.st_mode) ? EISDIR : ENODEV));
		return NULL;
	}
	if (strchr(name, '/') || !plain_name(name)) {
		*err = xasprintf("%s: cannot open system file: %s", name, strerror(ENOENT));
		return NULL;
	}
	char *file = ends_with(name, ".conf") ? xstrdup(name) : xasprintf("%s.conf", name);
	char *p = bundled("stdlib/systems", file);
	if (!p)
		p = in_path(file, "systems");
	free(file);
	if (!p)
		*err = xasprintf("unknown system '%s' (not a file, not a preset in stdlib/systems, not in NCSIM_PATH)", name);
	return p;
}

/* ------------------------------------------------------------------ parser */

typedef VEC(char *) wl_words;

static void free_job(wl_job *j)
{
	free(j->skeleton);
	free(j->path);
	free(j->name);
	for (int i = 0; i < j->argc; i++)
		free(j->argv[i]);
	free(j->argv);
}

void wl_free(wl_file *w)
{
	for (size_t i = 0; i < w->jobs.len; i++)
		free_job(&w->jobs.ptr[i]);
	VEC_FREE(&w->jobs);
	free(w->path);
	w->path = NULL;
}

/* Splits s[0..n) into blank-separated words. */
static void split(const char *s, size_t n, wl_words *out)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		size_t b = i;
		while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i > b)
			VEC_PUSH(out, xstrndup(s + b, i - b));
	}
}

/* A start time: a number with a time unit ("2ms", "2 ms"). 0, or -1 with *why. */
static int parse_start(const char *s, ncsim_time_t *ps, const char **why)
{
	double v;
	const char *end;
	if (!units_number(s, &v, &end)) {
		*why = "expected a time such as 2ms or 1.5 s";
		return -1;
	}
	while (*end == ' ')
		end++;
	if (!*end) {
		*why = "a start time needs a unit (ps, ns, us, ms or s)";
		return -1;
	}
	return units_time(s, UNITS_PS, ps, why);
}

/*
 * The most words a job line may have: a task count, a skeleton, its options
 * and a start time. Programs take a few options; the bound keeps every later
 * pass over a job's options (parsing, logging) small whatever the file holds.
 */
#define WL_MAX_WORDS 4096

/* Parses one non-empty line into j. 0, or -1 with *err. */
static int parse_job(const char *path, int line, wl_words *wd, wl_job *j, char **err)
{
	char **w = wd->ptr;
	size_t n = wd->len;
	j->line = line;
	if (n > WL_MAX_WORDS) {
		*err = xasprintf("%s:%d: %zu words on one job line, more than the %d a job may have (task count, "
		                 "skeleton, program options and start time)", path, line, n, WL_MAX_WORDS);
		return -1;
	}
	/* The task count: plain decimal digits, 1 .. 2^32-1. */
	uint64_t t = 0;
	int ok = 1;
	for (const char *c = w[0]; *c && ok; c++) {
		if (!isdigit((unsigned char)*c))
			ok = 0;
		else if ((t = t * 10 + (uint64_t)(*c - '0')) > UINT32_MAX)
			ok = 0;
	}
	if (!ok || t == 0) {
		*err = xasprintf("%s:%d: expected a task count (a positive integer) at the start of the line, found '%s'",
		                 path, line, w[0]);
		return -1;
	}
	j->ntasks = (uint32_t)t;
	if (n < 2 || w[1][0] == '@' || w[1][0] == '-') {
		*err = xasprintf("%s:%d: expected a skeleton name after the task count (e.g. '%s cosmoflow')", path, line,
		                 w[0]);
		return -1;
	}
	/* Optional start time: "@ TIME" as the last two words, or "@TIME" as the last word. */
	const char *why = NULL;
	if (n >= 3 && !strcmp(w[n - 1], "@")) {
		*err = xasprintf("%s:%d: '@' must be followed by a start time (e.g. '@ 2ms')", path, line);
		return -1;
	}
	if (n >= 5 && !strcmp(w[n - 3], "@")) { /* "@ 1.5 s": number and unit apart */
		char *when = xasprintf("%s %s", w[n - 2], w[n - 1]);
		int bad = parse_start(when, &j->start, &why) < 0;
		if (bad)
			*err = xasprintf("%s:%d: bad start time '%s': %s", path, line, when, why);
		free(when);
		if (bad)
			return -1;
		n -= 3;
	} else if (n >= 4 && !strcmp(w[n - 2], "@")) {
		if (parse_start(w[n - 1], &j->start, &why) < 0) {
			*err = xasprintf("%s:%d: bad start time '%s': %s", path, line, w[n - 1], why);
			return -1;
		}
		n -= 2;
	} else if (n >= 3 && w[n - 1][0] == '@' && isdigit((unsigned char)w[n - 1][1])) {
		if (parse_start(w[n - 1] + 1, &j->start, &why) < 0) {
			*err = xasprintf("%s:%d: bad start time '%s': %s", path, line, w[n - 1] + 1, why);
			return -1;
		}
		n -= 1;
	}
	for (size_t i = 2; i < n; i++) {
		if (w[i][0] == '@' && (!w[i][1] || isdigit((unsigned char)w[i][1]))) {
			*err = xasprintf("%s:%d: the start time ('@ TIME') must end the line", path, line);
			return -1;
		}
	}
	char *e = NULL;
	const char *args;
	j->skeleton = xstrdup(w[1]);
	j->path = resolve_skeleton(w[1], path, &args, &e);
	if (!j->path) {
		*err = xasprintf("%s:%d: %s", path, line, e);
		free(e);
		return -1;
	}
	/* An alias's options first: the job's own ones, later on the line, override them. */
	wl_words pre = {0};
	if (args)
		split(args, strlen(args), &pre);
	j->argc = (int)(pre.len + n - 2);
	j->argv = xcalloc((size_t)j->argc + 1, sizeof *j->argv);
	for (size_t i = 0; i < pre.len; i++)
		j->argv[i] = pre.ptr[i];
	for (size_t i = 2; i < n; i++)
		j->argv[pre.len + i - 2] = xstrdup(w[i]);
	VEC_FREE(&pre);
	return 0;
}

/* A job's label before numbering: the skeleton's base name and the job's index. */
typedef struct wl_label {
	char *base;
	size_t job;
} wl_label;

static int label_cmp(const void *pa, const void *pb)
{
	const wl_label *a = pa, *b = pb;
	int c = strcmp(a->base, b->base);
	return c ? c : (a->job > b->job) - (a->job < b->job);
}

/*
 * Job labels: the skeleton's base name, numbered name.1, name.2, ... in job
 * order when it occurs more than once. Sorting by (name, index) puts equal
 * names together in job order: O(n log n) for a file of many jobs.
 */
static void name_jobs(wl_file *w)
{
	size_t n = w->jobs.len;
	wl_label *l = xcalloc(n ? n : 1, sizeof *l);
	for (size_t i = 0; i < n; i++)
		l[i] = (wl_label){xpath_stem(w->jobs.ptr[i].path, ".ncptl"), i};
	qsort(l, n, sizeof *l, label_cmp);
	for (size_t first = 0, end; first < n; first = end) {
		for (end = first + 1; end < n && !strcmp(l[end].base, l[first].base); end++)
			;
		for (size_t k = first; k < end; k++)
			w->jobs.ptr[l[k].job].name =
			    end - first > 1 ? xasprintf("%s.%zu", l[k].base, k - first + 1) : xstrdup(l[k].base);
	}
	for (size_t i = 0; i < n; i++)
		free(l[i].base);
	free(l);
}

int wl_parse(const char *path, const char *text, wl_file *w, char **err)
{
	memset(w, 0, sizeof *w);
	w->path = xstrdup(path);
	int line = 0, rc = 0;
	const char *p = text;
	while (*p && rc == 0) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		line++;
		const char *hash = memchr(p, '#', (size_t)(eol - p));
		wl_words words = {0};
		split(p, (size_t)((hash ? hash : eol) - p), &words);
		if (words.len > 0) {
			wl_job j = {0};
			if (parse_job(path, line, &words, &j, err) < 0) {
				free_job(&j);
				rc = -1;
			} else {
				VEC_PUSH(&w->jobs, j);
			}
		}
		for (size_t i = 0; i < words.len; i++)
			free(words.ptr[i]);
		VEC_FREE(&words);
		p = *eol ? eol + 1 : eol;
	}
	if (rc == 0 && w->jobs.len == 0) {
		*err = xasprintf("%s: no jobs (each line is '<tasks> <skeleton> [options...] [@ start]')", path);
		rc = -1;
	}
	if (rc < 0) {
		wl_free(w);
		return -1;
	}
	name_jobs(w);
	return 0;
}

int wl_load(const char *path, wl_file *w, char **err)
{
	memset(w, 0, sizeof *w);
	char *text = xread_text(path, "workload file", err);
	if (!text)
		return -1;
	int rc = wl_parse(path, text, w, err);
	free(text);
	return rc;
}

uint64_t wl_total_tasks(const wl_file *w)
{
	uint64_t n = 0;
	for (size_t i = 0; i < w->jobs.len; i++)
		n += w->jobs.ptr[i].ntasks;
	return n;
}

int wl_check_capacity(const wl_file *w, uint32_t ncompute, uint32_t nnodes, char **err)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < w->jobs.len; i++) {
		const wl_job *j = &w->jobs.ptr[i];
		sum += j->ntasks;
		if (sum > ncompute) {
			*err = xasprintf("%s:%d: more tasks than compute nodes: the jobs up to this line need %" PRIu64
			                 " nodes, the machine has %" PRIu32 " compute nodes (%" PRIu32
			                 " nodes, %" PRIu32 " of them burst-buffer or I/O nodes); --oversubscribe puts "
			                 "several tasks on a node",
			                 w->path, j->line, sum, ncompute, nnodes, nnodes - ncompute);
			return -1;
		}
	}
	return 0;
}

int wl_add_jobs(struct drv_sim *s, const wl_file *w, const rt_program *const *progs, uint32_t *const *nodes,
                char **err)
{
	for (size_t i = 0; i < w->jobs.len; i++) {
		const wl_job *j = &w->jobs.ptr[i];
		drv_job sj = {.prog = progs[i], .name = j->name, .ntasks = j->ntasks, .argc = j->argc, .argv = j->argv,
		             .nodes = nodes ? nodes[i] : NULL, .start = j->start};
		char *e = NULL;
		if (drv_add_job(s, &sj, &e) < 0) {
			/* drv_add_job prefixes the job name; the line says which job already. */
			const char *msg = e;
			size_t k = strlen(j->name);
			if (!strncmp(msg, j->name, k) && !strncmp(msg + k, ": ", 2))
				msg += k + 2;
			*err = xasprintf("%s:%d: %s: bad arguments: %s", w->path, j->line, j->skeleton, msg);
			free(e);
			return -1;
		}
	}
	return 0;
}

/* ----------------------------------------------------------------- machine */

static uint32_t mach_router(void *ctx, uint32_t node) { return ((wl_machine *)ctx)->router[node]; }
static uint32_t mach_group(void *ctx, uint32_t node) { return ((wl_machine *)ctx)->group[node]; }

/* Router and group of every node when the network has a packet-level dragonfly. 0, or -1 with *err. */
static int probe_topology(const drv_options *o, wl_machine *m, char **err)
{
	sysconf_t *sys = drv_load_system(o, err);
	if (!sys)
		return -1;
	sim_ctx *ctx = sim_new(o->seed);
	int compute_ids = 0;
	if (pl_alloc_ids_load(sys, &compute_ids, err) < 0) {
		sim_free(ctx);
		sysconf_free(sys);
		return -1;
	}
	if (compute_ids) {
		m->alloc_map = xcalloc(m->nnodes ? m->nnodes : 1, sizeof *m->alloc_map);
		for (uint32_t i = 0; i < m->nnodes; i++)
			if (!m->storage || !m->storage[i])
				m->alloc_map[m->alloc_n++] = i;
	}
	net_model *net = netf_create_routed(ctx, sys, o->network, o->routing, m->nnodes, err);
	if (net && net->per_group && net->nnodes == m->nnodes) {
		m->dragonfly = 1;
		m->router = xcalloc(m->nnodes ? m->nnodes : 1, sizeof *m->router);
		m->group = xcalloc(m->nnodes ? m->nnodes : 1, sizeof *m->group);
		for (uint32_t i = 0; i < m->nnodes; i++) {
			m->router[i] = i / net->per_router;
			m->group[i] = i / net->per_group;
		}
	}
	int rc = net ? 0 : -1;
	net_destroy(net);
	sim_free(ctx);
	sysconf_free(sys);
	return rc;
}

int wl_machine_probe(const drv_options *o, uint32_t min_nodes, wl_machine *m, char **err)
{
	memset(m, 0, sizeof *m);
	/* The driver's own answer for the node count and the storage nodes. */
	if (drv_machine_nodes(o, min_nodes, &m->nnodes, &m->storage, err) < 0)
		return -1;
	if (probe_topology(o, m, err) < 0) {
		wl_machine_free(m);
		return -1;
	}
	m->pl = (pl_machine){.nnodes = m->nnodes, .storage = m->storage, .ctx = m,
	                     .router_of = m->dragonfly ? mach_router : NULL,
	                     .group_of = m->dragonfly ? mach_group : NULL,
	                     .alloc_map = m->alloc_map, .alloc_n = m->alloc_n};
	return 0;
}

void wl_machine_free(wl_machine *m)
{
	free(m->storage);
	free(m->alloc_map);
	free(m->router);
	free(m->group);
	memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ running */

static void free_placement(size_t n, uint32_t **nodes)
{
	for (size_t i = 0; nodes && i < n; i++)
		free(nodes[i]);
	free(nodes);
}

/* Loads each distinct skeleton once; progs[j] is job j's program. 0, or -1 with *err. */
static int load_programs(const wl_file *w, const wl_run_opts *o, const rt_program **progs, char **err)
{
	for (size_t i = 0; i < w->jobs.len; i++) {
		const wl_job *j = &w->jobs.ptr[i];
		progs[i] = NULL;
		for (size_t k = 0; k < i && !progs[i]; k++)
			if (!strcmp(w->jobs.ptr[k].path, j->path))
				progs[i] = progs[k];
		if (progs[i])
			continue;
		char *e = NULL;
		if (o->load(o->load_ctx, j, &progs[i], &e) < 0) {
			*err = xasprintf("%s:%d: cannot compile skeleton '%s': %s", w->path, j->line, j->skeleton,
			                 e ? e : "unknown error");
			free(e);
			return -1;
		}
	}
	return 0;
}

/* A simulation with every job of w added; NULL with *err. */
static drv_sim *setup(const wl_file *w, const drv_options *sd, const rt_program **progs, uint32_t **nodes, char **err)
{
	drv_sim *s = drv_new(sd, err);
	if (s && wl_add_jobs(s, w, progs, nodes, err) < 0) {
		drv_free(s);
		s = NULL;
	}
	return s;
}

int wl_run(const wl_file *w, const wl_run_opts *o)
{
	FILE *msg = o->msg ? o->msg : stderr;
	size_t nj = w->jobs.len;
	char *err = NULL, *label = NULL;
	drv_outdir d = {0};
	int status = EXIT_INPUT, have_machine = 0;
	wl_machine m;
	uint32_t **nodes = xcalloc(nj, sizeof *nodes);
	uint32_t *ntasks = xcalloc(nj, sizeof *ntasks);
	const rt_program **progs = xcalloc(nj, sizeof *progs);
	drv_sim *s = NULL;
	drv_options sd = o->sd;
	uint64_t total = wl_total_tasks(w);
	for (size_t i = 0; i < nj; i++)
		ntasks[i] = w->jobs.ptr[i].ntasks;
	/* Everything that can reject the workload happens before the output folder exists. */
	if (wl_machine_probe(&sd, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total, &m, &err) < 0)
		goto out;
	have_machine = 1;
	m.pl.oversubscribe = sd.oversubscribe;
	if (!sd.oversubscribe && wl_check_capacity(w, pl_compute_nodes(&m.pl), m.nnodes, &err) < 0)
		goto out;
	if (o->alloc_path) {
		if (pl_alloc_load(o->alloc_path, &m.pl, nj, ntasks, nodes, &err) < 0)
			goto out;
	} else if (pl_place(&m.pl, (enum pl_policy)o->placement, sd.seed, nj, ntasks, nodes, &err) < 0) {
		char *e = xasprintf("%s: %s", w->path, err);
		free(err);
		err = e;
		goto out;
	}
	if (load_programs(w, o, progs, &err) < 0)
		goto out;
	/* A dry set-up checks the system and every job's options; then the real one logs into the folder. */
	if (!(s = setup(w, &sd, progs, nodes, &err)))
		goto out;
	drv_free(s);
	s = NULL;
	label = xpath_stem(w->path, ends_with(w->path, ".conf") ? ".conf" : ".wkld");
	if (drv_outdir_begin(&d, o->out_dir, sd.force, label, &err) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!(s = setup(w, &sd, progs, nodes, &err)))
		goto out;
	status = drv_run_out(s, &d, msg); /* reports its own errors */
	if (drv_ran(s)) {
		char *what = xasprintf("%zu, %" PRIu64 " tasks on the %s network (%s placement)", nj, total,
		                       drv_network_name(s),
		                       o->alloc_path ? "allocation file" : pl_policy_name((enum pl_policy)o->placement));
		drv_report(s, msg, w->path, "jobs:", what, drv_outdir_done(&d, status));
		free(what);
	}
out:
	if (err)
		fprintf(msg, "ncsim: %s\n", err);
	free(err);
	free(label);
	drv_outdir_free(&d);
	drv_free(s);
	if (have_machine)
		wl_machine_free(&m);
	free_placement(nj, nodes);
	free(ntasks);
	free(progs);
	return status;
}

/*
 * cmd_calibrate.c - `ncsim calibrate` and `ncsim predict`: their command
 * lines (doc/calibration.md).
 *
 * Both take a spec file, the command-line form (--bench, --measured, --fit,
 * ...), or both. The command line is turned into spec text: its settings
 * replace the [calibration] keys of the file, each --bench becomes a
 * [benchmark.NAME] section and each --fit a line of [parameters]; then the
 * one spec reader checks everything, with the same messages either way.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "calib/calibrate.h"
#include "calib/par.h"
#include "calib/report.h"
#include "calib/sysedit.h"
#include "compiler/cli/commands.h"
#include "runtime/task/options.h"

/* The settings and sections the command line adds (strings owned by the list). */
typedef struct edits {
	VEC(cal_setting) set;
	VEC(char *) owned;
} edits;

static const char *keep(edits *e, char *s)
{
	VEC_PUSH(&e->owned, s);
	return s;
}

static void add(edits *e, const char *section, const char *key, char *value)
{
	VEC_PUSH(&e->set, ((cal_setting){section, key, keep(e, value)}));
}

static void edits_free(edits *e)
{
	for (size_t i = 0; i < e->owned.len; i++)
		free(e->owned.ptr[i]);
	VEC_FREE(&e->owned);
	VEC_FREE(&e->set);
}

/* v as a system-file value: quoted (with escapes) when a '#' or a quote would cut it. */
static char *quote(const char *v)
{
	if (!strpbrk(v, "#\"\\") && v[0] && v[0] != ' ')
		return xstrdup(v);
	char *q = xmalloc(2 * strlen(v) + 3), *p = q;
	*p++ = '"';
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			*p++ = '\\';
		*p++ = *v;
	}
	*p++ = '"';
	*p = '\0';
	return q;
}

/* A file named on the command line, absolute so that a spec in another folder does not move it. */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	return getcwd(cwd, sizeof cwd) ? xasprintf("%s/%s", cwd, path) : xstrdup(path);
}

/* A program named on the command line: a bundled name stays a name, a path becomes absolute. */
static char *program(const char *name)
{
	return strchr(name, '/') || access(name, F_OK) == 0 ? absolute(name) : xstrdup(name);
}

/* The [calibration] settings of the options. */
static void settings(const opt_set *o, edits *e)
{
	static const struct { enum opt_id id; const char *key; } keys[] = {
		{OPT_NETWORK, "network"}, {OPT_LOSS, "loss"}, {OPT_OPTIMIZER, "optimizer"}, {OPT_BUDGET, "budget"},
		{OPT_BATCH, "batch"}, {OPT_SEED, "seed"}, {OPT_LEVELS, "levels"}, {OPT_TARGET, "target"}, {OPT_REFINE, "refine"},
	};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (opt_given(o, keys[i].id))
			add(e, "calibration", keys[i].key, quote(opt_get(o, keys[i].id)->text));
}

/* "SECTION.KEY=LO:HI[:log]" as a [parameters] line. 0, or -1 after a message. */
static int fit_option(const char *prog, const char *text, edits *e)
{
	const char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1]) {
		fprintf(stderr, "%s: --fit %s: expected SECTION.KEY=LO:HI[:log]\n", prog, text);
		return -1;
	}
	char *key = xstrndup(text, (size_t)(eq - text)), *value = xstrdup(eq + 1);
	for (char *k = key; *k; k++)
		*k = (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k);
	size_t n = strlen(value);
	if (n > 4 && !strcmp(value + n - 4, ":log"))
		value[n - 4] = ' ';
	if (n > 7 && !strcmp(value + n - 7, ":linear"))
		value[n - 7] = ' ';
	VEC_PUSH(&e->set, ((cal_setting){"parameters", keep(e, key), keep(e, value)}));
	return 0;
}

/* The [benchmark.NAME] sections of the --bench options and what follows each. 0, or -1 after a message. */
static int benchmarks(const opt_set *o, edits *e)
{
	const char *section = NULL;
	char *measured = NULL;
	int nbench = 0;
	for (size_t i = 0; i <= o->nitems; i++) {
		const struct opt_item *it = i < o->nitems ? &o->items[i] : NULL;
		if ((!it || it->id == OPT_BENCH) && section && measured) {
			add(e, section, "measured", quote(measured));
			free(measured);
			measured = NULL;
		}
		if (!it)
			break;
		if (it->id == OPT_FIT) {
			if (fit_option(o->prog, it->text, e) < 0) {
				free(measured);
				return -1;
			}
			continue;
		}
		if (it->id == OPT_BENCH) {
			char *stem = xpath_stem(it->text, ".ncptl");
			section = keep(e, xasprintf("benchmark.%s-%d", stem, ++nbench));
			free(stem);
			add(e, section, "program", quote(keep(e, program(it->text))));
			continue;
		}
		if (!section) {
			fprintf(stderr, "%s: --%s %s: comes before any --bench\n", o->prog,
			        it->id == OPT_MEASURED ? "measured" : it->id == OPT_COLUMN ? "column" : it->id == OPT_BENCH_ARGS ? "bench-args" : "bench-tasks",
			        it->text);
			free(measured);
			return -1;
		}
		if (it->id == OPT_MEASURED) {
			char *abs = absolute(it->text), *m = measured ? xasprintf("%s, %s", measured, abs) : xstrdup(abs);
			free(abs);
			free(measured);
			measured = m;
		} else {
			const char *key = it->id == OPT_COLUMN ? "column" : it->id == OPT_BENCH_ARGS ? "args" : "tasks";
			add(e, section, key, quote(it->text));
		}
	}
	return 0;
}

/* The spec text: the file's (or none) with the command line's edits. NULL after a message. */
static char *spec_text(opt_set *o, const char *spec, edits *e)
{
	char *err = NULL, *text = spec ? xread_text(spec, "calibration spec", &err) : xstrdup("");
	if (!text) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		free(err);
		return NULL;
	}
	const char *sys = NULL;
	if (opt_system(o, &sys, &err) < 0) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		free(err);
		free(text);
		return NULL;
	}
	if (sys)
		add(e, "calibration", "system", quote(keep(e, absolute(sys))));
	settings(o, e);
	if (benchmarks(o, e) < 0) {
		free(text);
		return NULL;
	}
	char *edited = cal_sys_edit(text, e->set.ptr, e->set.len);
	free(text);
	return edited;
}

/* The folder of a spec path, or NULL (the current folder). */
static char *spec_dir(const char *spec)
{
	const char *slash = spec ? strrchr(spec, '/') : NULL;
	return slash ? xstrndup(spec, (size_t)(slash - spec)) : NULL;
}

/* Reads the spec of the command line. 0, or an exit status after a message. */
static int load(opt_set *o, const char *spec, int fit, cal_spec *s)
{
	edits e = {0};
	char *text = spec_text(o, spec, &e), *err = NULL, *dir = spec_dir(spec);
	int status = EXIT_USAGE;
	if (text) {
		/* C from a spec file needs the flag; a command line alone is the user's own choice, as for ncsim run. */
		unsigned flags = (fit ? CAL_SPEC_FIT : 0) |
		                 (!spec || opt_given(o, OPT_ALLOW_BACKEND_CODE) ? CAL_SPEC_ALLOW_C : 0);
		status = cal_spec_parse(spec ? spec : "(command line)", text, dir, flags, s, &err) < 0 ? EXIT_INPUT : EXIT_OK;
		if (status)
			fprintf(stderr, "%s: %s\n", o->prog, err);
	}
	free(err);
	free(text);
	free(dir);
	edits_free(&e);
	return status;
}

/* The run settings both commands share. */
static void run_options(const opt_set *o, cal_options *c, char *self, char *line)
{
	int on = opt_get(o, OPT_PROGRESS)->given, off = opt_get(o, OPT_NO_PROGRESS)->given;
	*c = (cal_options){
		.self = self,
		.out = opt_given(o, OPT_OUT) ? opt_get(o, OPT_OUT)->text : NULL,
		.force = opt_given(o, OPT_FORCE),
		.jobs = opt_given(o, OPT_JOBS) ? (unsigned)opt_get(o, OPT_JOBS)->num : 1,
		.seed = opt_given(o, OPT_SEED) ? opt_get(o, OPT_SEED)->num : 1,
		.progress = on > off || (!off && isatty(2)),
		.allow_backend_code = opt_given(o, OPT_ALLOW_BACKEND_CODE),
		.allow_host_access = opt_given(o, OPT_ALLOW_HOST_ACCESS),
		.max_memory = opt_given(o, OPT_MAX_MEMORY) ? opt_get(o, OPT_MAX_MEMORY)->text : NULL,
		.command_line = line,
		.no_wall_time = opt_given(o, OPT_NO_WALL_TIME),
	};
}

/* --bayes, --samples and --design: over the spec's [bayes]. 0, or -1 after a message. */
static int bayes_options(const opt_set *o, cal_spec *s)
{
	if (opt_given(o, OPT_BAYES) || opt_given(o, OPT_SAMPLES) || opt_given(o, OPT_DESIGN))
		s->bayes.on = 1;
	if (opt_given(o, OPT_SAMPLES) && opt_get(o, OPT_SAMPLES)->num < CAL_BAYES_MIN_SAMPLES) {
		fprintf(stderr, "%s: --samples %s: at least %d posterior samples\n", o->prog, opt_get(o, OPT_SAMPLES)->text,
		        CAL_BAYES_MIN_SAMPLES);
		return -1;
	}
	if (opt_given(o, OPT_SAMPLES))
		s->bayes.samples = opt_get(o, OPT_SAMPLES)->num;
	if (opt_given(o, OPT_DESIGN)) {
		free(s->bayes.design_file);
		s->bayes.design_file = absolute(opt_get(o, OPT_DESIGN)->text);
	}
	return 0;
}

/* The binary the evaluations run: this one. */
static char *self_path(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n > 0) {
		buf[n] = '\0';
		return xstrdup(buf);
	}
	return absolute(argv0);
}

static char *join(int argc, char **argv)
{
	char *s = xstrdup("ncsim");
	for (int i = 0; i < argc; i++) {
		char *t = xasprintf("%s %s", s, argv[i]);
		free(s);
		s = t;
	}
	return s;
}

int cmd_calibrate(int argc, char **argv)
{
	/* Under mpirun every rank runs this same calibration and shares out the simulations (calib/par.h). */
	char *err = NULL;
	if (cal_par_init(&argc, &argv, &err) < 0) {
		fprintf(stderr, "ncsim calibrate: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	opt_set o;
	int p = opt_parse(&o, OPT_CMD_CALIBRATE, "ncsim calibrate", argc - 1, argv + 1);
	if (p != 0) {
		opt_free(&o);
		return cal_par_finalize(p > 0 ? EXIT_OK : EXIT_USAGE);
	}
	cal_spec s;
	int status = load(&o, o.operand, 1, &s);
	/* A spec that one rank could not read (a file missing on its node) stops them all, before any collective. */
	if (cal_par_any(status != EXIT_OK) && status == EXIT_OK) {
		if (cal_par_rank() == 0)
			fprintf(stderr, "ncsim calibrate: another MPI rank could not read the spec (see its message)\n");
		cal_spec_free(&s);
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK) {
		cal_options c;
		char *self = self_path(argv[0]), *line = join(argc, argv);
		run_options(&o, &c, self, line);
		status = bayes_options(&o, &s) < 0 ? EXIT_USAGE : cal_calibrate(&s, &c, stderr);
		free(self);
		free(line);
		cal_spec_free(&s);
	}
	opt_free(&o);
	return cal_par_finalize(status);
}

int cmd_predict(int argc, char **argv)
{
	opt_set o;
	int p = opt_parse(&o, OPT_CMD_PREDICT, "ncsim predict", argc - 1, argv + 1);
	if (p != 0) {
		opt_free(&o);
		return p > 0 ? EXIT_OK : EXIT_USAGE;
	}
	/* SYSTEM SPEC, SPEC with --system, or no SPEC at all. */
	const char *system = o.operand2 ? o.operand : NULL, *spec = o.operand2 ? o.operand2 : o.operand;
	if (system && opt_given(&o, OPT_SYSTEM)) {
		fprintf(stderr, "ncsim predict: give the system once: SYSTEM SPEC, or --system\n");
		opt_free(&o);
		return EXIT_USAGE;
	}
	cal_spec s;
	int status = load(&o, spec, 0, &s);
	if (status == EXIT_OK) {
		cal_options c;
		char *self = self_path(argv[0]), *line = join(argc, argv), *sys = system ? absolute(system) : NULL;
		run_options(&o, &c, self, line);
		status = cal_predict(&s, sys, &c, stdout, stderr);
		free(sys);
		free(self);
		free(line);
		cal_spec_free(&s);
	}
	opt_free(&o);
	return status;
}

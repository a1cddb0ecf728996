/*
 * params.c - program options (see params.h).
 */
#include "runtime/task/params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Multiplies *v by m, failing on overflow. */
static int mul(rt_int *v, rt_int m)
{
	if (*v != 0 && (m > INT64_MAX / (*v < 0 ? -*v : *v)))
		return -1;
	*v *= m;
	return 0;
}

int prm_parse_int(const char *s, rt_int *out)
{
	const char *p = s;
	int neg = 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	char *end;
	unsigned long long u = strtoull(p, &end, 10);
	if (errno || u > (unsigned long long)INT64_MAX)
		return -1;
	rt_int v = (rt_int)u;
	char c = (char)tolower((unsigned char)*end);
	if (c == 'k' || c == 'm' || c == 'g' || c == 't') {
		int shift = c == 'k' ? 10 : c == 'm' ? 20 : c == 'g' ? 30 : 40;
		if (mul(&v, (rt_int)1 << shift) < 0)
			return -1;
		end++;
	} else if (c == 'e' && isdigit((unsigned char)end[1])) {
		long e = strtol(end + 1, &end, 10);
		while (e-- > 0)
			if (mul(&v, 10) < 0)
				return -1;
	}
	if (*end)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

enum { OPT_COMMENT = -1, OPT_LOGFILE = -2, OPT_NOTRAP = -3, OPT_SEED = -4, OPT_HELP = -5, OPT_NONE = -100 };

/* Option index for "--name" or "-c": a parameter index >= 0, a built-in < 0, or OPT_NONE. */
static int lookup(const rt_program *p, const char *name, size_t len)
{
	for (unsigned i = 0; i < p->nparams; i++) {
		const rt_param *q = &p->params[i];
		if ((q->long_opt && strlen(q->long_opt) == len && !strncmp(q->long_opt, name, len)) ||
		    (q->short_opt && strlen(q->short_opt) == len && !strncmp(q->short_opt, name, len)))
			return (int)i;
	}
	static const struct { const char *l, *s; int id; } builtin[] = {
		{"--comment", "-C", OPT_COMMENT}, {"--logfile", "-L", OPT_LOGFILE}, {"--no-trap", "-N", OPT_NOTRAP},
		{"--seed", "-S", OPT_SEED}, {"--help", "-?", OPT_HELP}, {"--usage", NULL, OPT_HELP},
	};
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
		if (builtin[i].id == OPT_SEED && !(p->flags & RT_PROG_USES_RANDOM))
			continue;
		if ((strlen(builtin[i].l) == len && !strncmp(builtin[i].l, name, len)) ||
		    (builtin[i].s && strlen(builtin[i].s) == len && !strncmp(builtin[i].s, name, len)))
			return builtin[i].id;
	}
	return OPT_NONE;
}

static int apply(const rt_program *p, prm_args *a, int id, const char *opt, const char *val, char **err)
{
	rt_int v;
	switch (id) {
	case OPT_COMMENT: VEC_PUSH(&a->comments, xstrdup(val)); return 0;
	case OPT_LOGFILE: free(a->logfile); a->logfile = xstrdup(val); return 0;
	case OPT_NOTRAP: free(a->no_trap); a->no_trap = xstrdup(val); return 0;
	default: break;
	}
	if (prm_parse_int(val, &v) < 0) {
		*err = xasprintf("option %s: '%s' is not an integer (suffixes K, M, G, T, E<n> allowed)", opt, val);
		return -1;
	}
	if (id == OPT_SEED) {
		a->seed = (uint64_t)v;
		a->seed_given = 1;
	} else {
		a->values[id] = v;
	}
	(void)p;
	return 0;
}

/* Parses argv[*i]; advances *i past a separate value. */
static int parse_one(const rt_program *p, prm_args *a, int argc, char **argv, int *i, char **err)
{
	const char *arg = argv[*i];
	const char *eq = arg[0] == '-' && arg[1] == '-' ? strchr(arg, '=') : NULL;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *val = eq ? eq + 1 : NULL;
	int id = lookup(p, arg, len);
	if (id == OPT_NONE && arg[0] == '-' && arg[1] && arg[1] != '-' && arg[2]) {
		id = lookup(p, arg, 2); /* -r5 */
		len = 2;
		val = arg + 2;
	}
	if (id == OPT_NONE) {
		*err = xasprintf("unknown option '%s' (try --help)", arg);
		return -1;
	}
	if (id == OPT_HELP) {
		a->help = 1;
		return 0;
	}
	char opt[64];
	snprintf(opt, sizeof opt, "%.*s", (int)(len < 60 ? len : 60), arg);
	if (!val) {
		if (*i + 1 >= argc) {
			*err = xasprintf("option %s needs a value", opt);
			return -1;
		}
		val = argv[++*i];
	}
	return apply(p, a, id, opt, val, err);
}

int prm_parse(const rt_program *p, int argc, char **argv, prm_args *a, char **err)
{
	memset(a, 0, sizeof *a);
	a->n = p->nparams;
	a->values = xcalloc(p->nparams ? p->nparams : 1, sizeof *a->values);
	for (unsigned i = 0; i < p->nparams; i++)
		a->values[i] = p->params[i].defval;
	for (int i = 0; i < argc; i++)
		if (parse_one(p, a, argc, argv, &i, err) < 0)
			return -1;
	return 0;
}

/* 1 if the log template t may land outside the output folder: absolute, or a ".." component. */
static int escapes_out_dir(const char *t)
{
	if (t[0] == '/')
		return 1;
	for (const char *p = t; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == t || p[-1] == '/') && (p[2] == '/' || p[2] == 0))
			return 1;
	return 0;
}

int prm_check_trust(const prm_args *a, int allow_host_access, char **err)
{
	if (allow_host_access)
		return 0;
	for (size_t i = 0; i < a->comments.len; i++) {
		const char *c = a->comments.ptr[i];
		if (c[0] == '!' || c[0] == '@') {
			*err = xasprintf("option --comment=%s would %s on the host; --allow-host-access permits it", c,
			                 c[0] == '!' ? "run a command" : "copy a file into the logs");
			return -1;
		}
	}
	if (a->logfile && escapes_out_dir(a->logfile)) {
		*err = xasprintf("option --logfile=%s writes outside the output folder; --allow-host-access permits it",
		                 a->logfile);
		return -1;
	}
	return 0;
}

void prm_free(prm_args *a)
{
	free(a->values);
	free(a->logfile);
	free(a->no_trap);
	for (size_t i = 0; i < a->comments.len; i++)
		free(a->comments.ptr[i]);
	VEC_FREE(&a->comments);
	memset(a, 0, sizeof *a);
}

static void help_line(FILE *out, const char *s, const char *l, const char *arg, const char *desc)
{
	char left[128];
	snprintf(left, sizeof left, "  %s%s%s%s%s", s ? s : "  ", s ? ", " : "  ", l, arg ? "=" : "", arg ? arg : "");
	fprintf(out, "%-32s %s\n", left, desc);
}

void prm_help(const rt_program *p, FILE *out)
{
	fprintf(out, "Usage: %s [OPTION...]\n", p->name);
	for (unsigned i = 0; i < p->nparams; i++) {
		const rt_param *q = &p->params[i];
		char desc[512];
		snprintf(desc, sizeof desc, "%s [default: %" PRId64 "]", q->desc ? q->desc : q->name, q->defval);
		help_line(out, q->short_opt, q->long_opt, "<number>", desc);
	}
	help_line(out, "-C", "--comment", "<string>", "Additional commentary to write to the log file, @FILE to "
	          "import commentary from FILE, or !COMMAND to import commentary from COMMAND (may be specified "
	          "repeatedly)");
	char logdesc[256];
	snprintf(logdesc, sizeof logdesc, "Log-file template [default: \"%s-%%p.log\"]", p->name);
	help_line(out, "-L", "--logfile", "<string>", logdesc);
	help_line(out, "-N", "--no-trap", "<string>", "List of signals that should not be trapped [default: \"\"]");
	if (p->flags & RT_PROG_USES_RANDOM)
		help_line(out, "-S", "--seed", "<number>", "Seed for the random-number generator [default: 0]");
	fprintf(out, "\nHelp options:\n");
	help_line(out, "-?", "--help", NULL, "Show this help message");
	help_line(out, NULL, "--usage", NULL, "Display brief usage message");
}

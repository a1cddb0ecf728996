/*
 * ncptl_log.c - writer of coNCePTuaL log files (see ncptl_log.h, LANGUAGE.md §10).
 *
 * Table state, one slot per static column index (slots of columns that the
 * current statement never wrote stay empty and produce no cells):
 *
 *     cols[0]  heading "i"   agg ALL        raw {}      final {1,2,3,4,5}
 *     cols[1]  heading "i"   agg MEAN       raw {}      final {3}
 *     cols[2]  (empty)
 *     cols[3]  heading "h"   agg HISTOGRAM  raw {}      final {0.5,1, 1,1, ...}  (value, tally) pairs
 *
 * The prologue dictionary (for THE VALUE OF) is an append-only list searched
 * from the end, so a key written twice yields its latest value, as in the
 * reference library.
 */
#include "runtime/stats/ncptl_log.h"

#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/stats/aggregate.h"
#include "runtime/stats/outfile.h"
#include "base/util.h"

struct column {
	char *heading;           /* NULL: not (yet) written in this table */
	enum rt_agg agg;
	double param;
	VEC(double) raw;
	VEC(double) fin;
};

struct dbent {
	char *key, *value;
};

struct comment {
	char *key; /* NULL: "User comment N" */
	char *value;
};

struct nlog {
	outfile *out;  /* NULL when discarding */
	FILE *fp;      /* outfile_stream(out), or NULL */
	char *path;
	VEC(struct dbent) db;
	VEC(struct column) cols;
	VEC(struct comment) late;   /* comments for the epilogue */
	int tables;                 /* tables written so far */
	time_t created;
	double utime0, stime0;      /* process CPU seconds at open */
	uint64_t majflt0, minflt0;
};

/* ------------------------------------------------------------ output basics */

static void out(nlog *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(nlog *l, const char *fmt, ...)
{
	va_list ap;

	if (!l->fp)
		return;
	va_start(ap, fmt);
	vfprintf(l->fp, fmt, ap);
	va_end(ap);
}

static void db_put(nlog *l, const char *key, const char *value)
{
	struct dbent e = { xstrdup(key), xstrdup(value) };
	VEC_PUSH(&l->db, e);
}

/* "# key: value", with ':' in the key written as '.'; the dictionary keeps the key as given. */
static void kv(nlog *l, const char *key, const char *value)
{
	db_put(l, key, value);
	if (!l->fp)
		return;
	fputs("# ", l->fp);
	for (const char *k = key; *k; k++)
		putc(*k == ':' ? '.' : *k, l->fp);
	fprintf(l->fp, ": %s\n", value);
}

static void kvf(nlog *l, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void kvf(nlog *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *v = xvasprintf(fmt, ap);
	va_end(ap);
	kv(l, key, v);
	free(v);
}

/* asctime() without the newline and independent of the locale. */
static void asctime_local(time_t t, char buf[32])
{
	static const char days[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	struct tm tm;

	localtime_r(&t, &tm);
	snprintf(buf, 32, "%.3s %.3s%3d %.2d:%.2d:%.2d %d", days + 3 * (tm.tm_wday % 7),
	         months + 3 * (tm.tm_mon % 12), tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
	         tm.tm_year + 1900);
}

char *nlog_friendly_time(double seconds, char *buf, size_t size)
{
	uint64_t s;
	size_t len;

	/* Converting a negative, NaN or huge double to an integer is undefined: clamp first. */
	s = seconds > 0 ? (seconds < 1.8e19 ? (uint64_t)(seconds + 0.5) : UINT64_MAX) : 0;

	len = (size_t)snprintf(buf, size, "%" PRIu64 " second%s", s, s == 1 ? "" : "s");
	if (s >= 60 && len < size) {
		const uint64_t terms[4] = { s / 86400, s / 3600 % 24, s / 60 % 60, s % 60 };
		static const char *const names[4] = { "day", "hour", "minute", "second" };
		int first = 1;
		for (int i = 0; i < 4 && len < size; i++) {
			if (!terms[i])
				continue;
			len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64 " %s%s", first ? " (i.e., " : ", ",
			                        terms[i], names[i], terms[i] == 1 ? "" : "s");
			first = 0;
		}
		if (len < size)
			snprintf(buf + len, size - len, ")");
	}
	return buf;
}

char *nlog_command_line(int argc, char *const *argv)
{
	VEC(char) s = { 0 };

	for (int i = 0; i < argc; i++) {
		if (i)
			VEC_PUSH(&s, ' ');
		for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++) {
			unsigned char c = *p;
			/* Punctuation that shells leave alone, and alphanumerics, go out as they are. */
			if (strchr("#%+,-./:=@^_", c) || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
				VEC_PUSH(&s, (char)c);
				continue;
			}
			VEC_PUSH(&s, '\\');
			if (c < 0x20 || c == 0x7f) {
				char oct[8];
				snprintf(oct, sizeof oct, "%03o", c);
				for (char *o = oct; *o; o++)
					VEC_PUSH(&s, *o);
			} else {
				VEC_PUSH(&s, (char)c);
			}
		}
	}
	VEC_PUSH(&s, 0);
	return s.ptr;
}

char *nlog_default_creator(void)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	uid_t uid = getuid();

	if (getpwuid_r(uid, &pw, buf, sizeof buf, &res) == 0 && res) {
		if (pw.pw_gecos && *pw.pw_gecos)
			return xstrdup(pw.pw_gecos);
		if (pw.pw_name && *pw.pw_name)
			return xstrdup(pw.pw_name);
	}
	return xasprintf("UID %d", (int)uid);
}

/* Writes comments; values with several lines become several comments with the same key. */
static void write_comments(nlog *l, const nlog_kv *c, size_t n)
{
	unsigned user = 0;

	for (size_t i = 0; i < n; i++) {
		const char *v = c[i].value ? c[i].value : "";
		while (*v) {
			size_t len = strcspn(v, "\r\n");
			if (len) {
				char *line = xstrndup(v, len);
				if (c[i].key) {
					kv(l, c[i].key, line);
				} else {
					char key[32];
					snprintf(key, sizeof key, "User comment %u", ++user);
					kv(l, key, line);
				}
				free(line);
			}
			v += len;
			v += strspn(v, "\r\n");
		}
	}
}

static int env_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void write_environment(nlog *l, char *const *env)
{
	VEC(char *) vars = { 0 };

	out(l, "#\n# Environment variables\n# ---------------------\n");
	for (size_t i = 0; env && env[i]; i++) {
		char *v = xstrdup(env[i]);
		/* Control characters would break the one-line-per-key layout. */
		for (unsigned char *p = (unsigned char *)v; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				*p = ' ';
		VEC_PUSH(&vars, v);
	}
	if (vars.len)
		qsort(vars.ptr, vars.len, sizeof *vars.ptr, env_cmp);
	for (size_t i = 0; i < vars.len; i++) {
		char *eq = strchr(vars.ptr[i], '=');
		if (eq) {
			*eq = 0;
			kv(l, vars.ptr[i], eq + 1);
		}
		free(vars.ptr[i]);
	}
	VEC_FREE(&vars);
}

/* The program text, stripped of surrounding blank space, one "#     " line per source line. */
static void write_source(nlog *l, const char *src)
{
	const char *ws = " \t\n\r\v\f";
	const char *b = src, *e = src + strlen(src);

	while (*b && strchr(ws, *b)) b++;
	while (e > b && strchr(ws, e[-1])) e--;
	out(l, "#\n# coNCePTuaL source code\n# ----------------------\n");
	for (;;) {
		const char *nl = memchr(b, '\n', (size_t)(e - b));
		const char *stop = nl ? nl : e;
		out(l, "#     %.*s\n", (int)(stop - b), b);
		if (!nl)
			break;
		b = nl + 1;
	}
	out(l, "#\n");
}

static void process_times(double *user, double *sys, uint64_t *majflt, uint64_t *minflt, uint64_t *maxrss)
{
	struct rusage ru;

	memset(&ru, 0, sizeof ru);
	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	*majflt = (uint64_t)ru.ru_majflt;
	*minflt = (uint64_t)ru.ru_minflt;
	*maxrss = (uint64_t)ru.ru_maxrss * 1024u; /* kilobytes on Linux */
}

/* ------------------------------------------------------------------ prologue */

nlog *nlog_open(const char *path, const nlog_info *in, char **err)
{
	nlog *l = xcalloc(1, sizeof *l);
	char when[32];
	uint64_t rss;

	if (path) {
		l->out = outfile_open(path, 0, err);
		if (!l->out) {
			int e = errno;
			free(*err);
			*err = xasprintf("Failed to open log file \"%s\" (%s)", path, strerror(e));
			free(l);
			return NULL;
		}
		l->fp = outfile_stream(l->out);
		l->path = xstrdup(path);
	}
	l->created = in->creation_time;
	process_times(&l->utime0, &l->stime0, &l->majflt0, &l->minflt0, &rss);

	out(l, "%s\n# ===================\n# coNCePTuaL log file\n# ===================\n", NLOG_SEPARATOR);
	kv(l, "coNCePTuaL version", in->version ? in->version : NLOG_VERSION);
	kvf(l, "coNCePTuaL backend", "%s (%s)", in->backend_name ? in->backend_name : "ncsim",
	    in->backend_desc ? in->backend_desc : "ncsim");
	kv(l, "Executable name", in->executable ? in->executable : "");
	if (in->cwd)
		kv(l, "Working directory", in->cwd);
	if (in->argc > 0 && in->argv) {
		char *cl = nlog_command_line(in->argc, in->argv);
		kv(l, "Command line", cl);
		free(cl);
	}
	kvf(l, "Number of tasks", "%" PRId64, in->ntasks);
	kvf(l, "Rank (0<=P<tasks)", "%" PRId64, in->rank);
	kv(l, "Unique execution identifier", in->uuid ? in->uuid : "");
	for (size_t i = 0; i < in->nplatform; i++)
		kv(l, in->platform[i].key, in->platform[i].value ? in->platform[i].value : "");
	for (size_t i = 0; i < in->noptions; i++)
		kv(l, in->options[i].key, in->options[i].value ? in->options[i].value : "");
	if (in->no_trap)
		kv(l, "List of signals that should not be trapped", in->no_trap);
	kv(l, "Log-file checkpointing interval", in->checkpoint ? in->checkpoint : "infinite");
	write_comments(l, in->comments, in->ncomments);
	if (in->creator) {
		kv(l, "Log creator", in->creator);
	} else {
		char *who = nlog_default_creator();
		kv(l, "Log creator", who);
		free(who);
	}
	asctime_local(in->creation_time, when);
	kv(l, "Log creation time", when);
	write_environment(l, in->env);
	if (in->source)
		write_source(l, in->source);
	out(l, "%s\n", NLOG_SEPARATOR);
	if (l->fp && (fflush(l->fp) != 0 || ferror(l->fp))) {
		*err = xasprintf("Failed to write log file \"%s\" (%s)", path, strerror(errno));
		nlog_discard(l);
		return NULL;
	}
	return l;
}

const char *nlog_value_of(const nlog *l, const char *key)
{
	for (size_t i = l->db.len; i-- > 0;)
		if (strcmp(l->db.ptr[i].key, key) == 0)
			return l->db.ptr[i].value;
	return "";
}

const char *nlog_path(const nlog *l) { return l->path; }

void nlog_add_comment(nlog *l, const char *key, const char *value)
{
	struct comment c = { xstrdup(key), xstrdup(value ? value : "") };
	VEC_PUSH(&l->late, c);
}

/* -------------------------------------------------------------------- tables */

int nlog_value(nlog *l, unsigned col, const char *heading, enum rt_agg agg, double param, double value, char **err)
{
	struct column *c;

	if (col >= l->cols.len) {
		VEC_GROW(&l->cols, (size_t)col + 1);
		memset(l->cols.ptr + l->cols.len, 0, ((size_t)col + 1 - l->cols.len) * sizeof *l->cols.ptr);
		l->cols.len = (size_t)col + 1;
	}
	c = &l->cols.ptr[col];
	if (!c->heading) {
		c->heading = xstrdup(heading);
		c->agg = agg;
		c->param = param;
	} else if (c->agg != agg || c->param != param || strcmp(heading, c->heading) != 0) {
		*err = xstrdup("Column information was altered unexpectedly");
		return -1;
	}
	VEC_PUSH(&c->raw, value);
	return 0;
}

int nlog_compute_aggregates(nlog *l, char **err)
{
	for (size_t i = 0; i < l->cols.len; i++) {
		struct column *c = &l->cols.ptr[i];
		size_t n = c->raw.len;
		long got;

		if (!c->heading || !n)
			continue;
		VEC_GROW(&c->fin, c->fin.len + agg_max_out(c->agg, n));
		got = agg_apply(c->agg, c->param, c->raw.ptr, n, c->fin.ptr + c->fin.len, err);
		/* The raw values are consumed even on error, so a later flush cannot fail twice on them. */
		c->raw.len = 0;
		if (got < 0)
			return -1;
		c->fin.len += (size_t)got;
	}
	return 0;
}

/* Heading cell: \ -> \\, " -> \", newline -> space. */
static void write_heading(nlog *l, const char *h)
{
	putc('"', l->fp);
	for (; *h; h++) {
		if (*h == '\\' || *h == '"')
			putc('\\', l->fp);
		putc(*h == '\n' ? ' ' : *h, l->fp);
	}
	putc('"', l->fp);
}

static void clear_table(nlog *l)
{
	for (size_t i = 0; i < l->cols.len; i++) {
		struct column *c = &l->cols.ptr[i];
		free(c->heading);
		c->heading = NULL;
		c->raw.len = 0;
		c->fin.len = 0;
	}
}

/* A column appears if it has final values; only an aggregate error can leave a written column without any. */
static int shown(const struct column *c) { return c->heading && c->fin.len; }

static void write_table(nlog *l)
{
	size_t rows = 0, last = 0, i;
	int any = 0;
	char label[64];

	for (i = 0; i < l->cols.len; i++)
		if (shown(&l->cols.ptr[i])) {
			size_t r = l->cols.ptr[i].fin.len / (size_t)agg_cells(l->cols.ptr[i].agg);
			if (r > rows)
				rows = r;
			last = i;
			any = 1;
		}
	if (!any || !l->fp)
		return;
	if (l->tables++)
		putc('\n', l->fp);

	for (i = 0; i <= last; i++) {
		const struct column *c = &l->cols.ptr[i];
		if (!shown(c))
			continue;
		for (int k = 0; k < agg_cells(c->agg); k++) {
			if (k)
				putc(',', l->fp);
			write_heading(l, c->heading);
		}
		putc(i == last ? '\n' : ',', l->fp);
	}
	for (i = 0; i <= last; i++) {
		const struct column *c = &l->cols.ptr[i];
		if (!shown(c))
			continue;
		for (int k = 0; k < agg_cells(c->agg); k++)
			fprintf(l->fp, "%s\"%s\"", k ? "," : "", agg_label(c->agg, c->param, k, label, sizeof label));
		putc(i == last ? '\n' : ',', l->fp);
	}
	for (size_t r = 0; r < rows; r++)
		for (i = 0; i <= last; i++) {
			const struct column *c = &l->cols.ptr[i];
			if (!shown(c))
				continue;
			if (c->agg == RT_AGG_HISTOGRAM) {
				/* An exhausted histogram still owns two cells: "," leaves both empty. */
				if (r < c->fin.len / 2)
					fprintf(l->fp, "%.10g,%.10g", c->fin.ptr[2 * r], c->fin.ptr[2 * r + 1]);
				else
					putc(',', l->fp);
			} else if (r < c->fin.len) {
				fprintf(l->fp, "%.10g", c->fin.ptr[r]);
			}
			putc(i == last ? '\n' : ',', l->fp);
		}
	fflush(l->fp);
}

int nlog_end_table(nlog *l, char **err)
{
	if (nlog_compute_aggregates(l, err) < 0)
		return -1;
	write_table(l);
	clear_table(l);
	return 0;
}

/* ------------------------------------------------------------------ epilogue */

void nlog_epilogue_measure(const nlog *l, nlog_epilogue *ep)
{
	double u, s;
	uint64_t maj, min, rss;

	memset(ep, 0, sizeof *ep);
	ep->completion_time = time(NULL);
	ep->elapsed_s = l->created ? difftime(ep->completion_time, l->created) : 0.0;
	process_times(&u, &s, &maj, &min, &rss);
	ep->cpu_user_s = u - l->utime0;
	ep->cpu_sys_s = s - l->stime0;
	ep->major_faults = maj - l->majflt0;
	ep->minor_faults = min - l->minflt0;
	ep->interrupts = -1;
	ep->peak_memory = rss;
}

static void write_epilogue(nlog *l, const char *abort_message, const nlog_epilogue *ep)
{
	char when[32], t1[128], t2[128];
	static const char prefixes[] = " KMGTPEZY";
	const char *pre = prefixes;
	double abbr = (double)ep->peak_memory;

	out(l, "%s\n", NLOG_SEPARATOR);
	if (abort_message)
		out(l, "# Program aborted with the following error message:\n#     %s\n", abort_message);
	else
		out(l, "# Program exited normally.\n");
	asctime_local(ep->completion_time, when);
	out(l, "# Log completion time: %s\n", when);
	out(l, "# Elapsed time: %s\n", nlog_friendly_time(ep->elapsed_s, t1, sizeof t1));
	out(l, "# Process CPU usage (user+system): %s + %s\n", nlog_friendly_time(ep->cpu_user_s, t1, sizeof t1),
	    nlog_friendly_time(ep->cpu_sys_s, t2, sizeof t2));
	out(l, "# Number of page faults observed: %" PRIu64 " major, %" PRIu64 " minor\n", ep->major_faults,
	    ep->minor_faults);
	if (ep->interrupts >= 0)
		out(l, "# Number of interrupts received (all CPUs): %" PRId64 "\n", ep->interrupts);
	/* "N bytes (x.y KB)": divide by 1024 while the value exceeds it, as the reference does. */
	while (pre[1] && abbr > 1024.0) {
		pre++;
		abbr /= 1024.0;
	}
	if (*pre == ' ')
		kvf(l, "Peak memory allocation", "%.0f bytes", (double)ep->peak_memory);
	else
		kvf(l, "Peak memory allocation", "%.0f bytes (%.1f %cB)", (double)ep->peak_memory, abbr, *pre);
	{
		nlog_kv *c = xcalloc(l->late.len ? l->late.len : 1, sizeof *c);
		for (size_t i = 0; i < l->late.len; i++)
			c[i] = (nlog_kv){ l->late.ptr[i].key, l->late.ptr[i].value };
		write_comments(l, c, l->late.len);
		free(c);
	}
	out(l, "%s\n", NLOG_SEPARATOR);
}

static void destroy(nlog *l)
{
	for (size_t i = 0; i < l->cols.len; i++) {
		free(l->cols.ptr[i].heading);
		VEC_FREE(&l->cols.ptr[i].raw);
		VEC_FREE(&l->cols.ptr[i].fin);
	}
	VEC_FREE(&l->cols);
	for (size_t i = 0; i < l->db.len; i++) {
		free(l->db.ptr[i].key);
		free(l->db.ptr[i].value);
	}
	VEC_FREE(&l->db);
	for (size_t i = 0; i < l->late.len; i++) {
		free(l->late.ptr[i].key);
		free(l->late.ptr[i].value);
	}
	VEC_FREE(&l->late);
	free(l->path);
	free(l);
}

void nlog_discard(nlog *l)
{
	if (!l)
		return;
	outfile_abort(l->out);
	destroy(l);
}

int nlog_close(nlog *l, const char *abort_message, const nlog_epilogue *ep, char **err)
{
	nlog_epilogue now;
	char *flush_err = NULL;
	int rc = 0;

	if (!ep) {
		nlog_epilogue_measure(l, &now);
		ep = &now;
	}
	if (nlog_end_table(l, &flush_err) < 0) {
		char *again = NULL;
		/*
		 * Keep whatever can be aggregated: each failure consumes the failing
		 * column's raw values, so this loop ends, and the reader sees the
		 * data of the other columns.
		 */
		while (nlog_compute_aggregates(l, &again) < 0) {
			free(again);
			again = NULL;
		}
		write_table(l);
		clear_table(l);
		if (!abort_message) {
			abort_message = flush_err;
			rc = -1;
		}
	}
	write_epilogue(l, abort_message, ep);
	if (rc < 0) {
		*err = flush_err;
		flush_err = NULL;
	}
	free(flush_err);
	if (l->out) {
		char *werr = NULL;
		if (outfile_commit(l->out, &werr) < 0) {
			if (rc == 0)
				*err = werr;
			else
				free(werr);
			rc = -1;
		}
		l->out = NULL;
	}
	destroy(l);
	return rc;
}

/* ------------------------------------------------------- file-name templates */

int nlog_expand_template(const char *tmpl, int64_t rank, char **path, char **err)
{
	VEC(char) s = { 0 };
	int64_t run = 1;

	*path = NULL;
	if (!*tmpl)
		return 0;
	for (;;) {
		int used_p = 0, used_r = 0;
		struct stat st;

		s.len = 0;
		for (const char *t = tmpl; *t; t++) {
			char num[64];
			int width = 0, zero = 0, n;

			if (*t != '%') {
				VEC_PUSH(&s, *t);
				continue;
			}
			t++;
			if (*t == '%') {
				VEC_PUSH(&s, '%');
				continue;
			}
			if (*t >= '0' && *t <= '9') {
				long long w = 0;
				zero = *t == '0';
				while (*t >= '0' && *t <= '9') {
					if (w < 1000)
						w = w * 10 + (*t - '0');
					t++;
				}
				if (w < 1 || w > 25) {
					*err = xasprintf("Invalid field width of %lld in \"%s\" -- must be between 1 and 25 digits",
					                 w, tmpl);
					VEC_FREE(&s);
					return -1;
				}
				width = (int)w;
			}
			if (*t == 0) {
				*err = xasprintf("Missing directive at end of template \"%s\"", tmpl);
				VEC_FREE(&s);
				return -1;
			}
			if (*t != 'p' && *t != 'r') {
				*err = xasprintf("Unknown directive \"%%%c\" in template \"%s\"", *t, tmpl);
				VEC_FREE(&s);
				return -1;
			}
			if (*t == 'p')
				used_p = 1;
			else
				used_r = 1;
			n = snprintf(num, sizeof num, zero ? "%0*" PRId64 : "%*" PRId64, width, *t == 'p' ? rank : run);
			for (int i = 0; i < n; i++)
				VEC_PUSH(&s, num[i]);
		}
		VEC_PUSH(&s, 0);
		if (!used_p) {
			*err = xstrdup("The log-file template must contain a \"%p\" (for processor number)");
			VEC_FREE(&s);
			return -1;
		}
		if (!used_r)
			break;
		if (stat(s.ptr, &st) != 0) {
			if (errno == ENOENT)
				break;
			*err = xasprintf("Unable to test the existence of the log file \"%s\" (%s)", s.ptr, strerror(errno));
			VEC_FREE(&s);
			return -1;
		}
		run++;
	}
	*path = s.ptr;
	return 1;
}

int nlog_rank_listed(const char *list, int64_t rank, char **err)
{
	const char *p = list;
	int found = 0;

	if (!list)
		return 1;
	for (;;) {
		char *end;
		long long lo, hi;

		while (*p == ',' || *p == ' ')
			p++;
		if (!*p)
			break;
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		lo = hi = strtoll(p, &end, 10);
		if (errno)
			goto bad;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtoll(p, &end, 10);
			if (errno)
				goto bad;
			p = end;
			if (lo > hi) {
				*err = xasprintf("Log-file range \"%lld-%lld\" needs to be written as \"%lld-%lld\"", lo, hi, hi, lo);
				return -1;
			}
		}
		if (*p && *p != ',' && *p != ' ')
			goto bad;
		if (rank >= lo && rank <= hi)
			found = 1;
	}
	return found;
bad:
	{
		size_t len = strcspn(p, ", ");
		*err = xasprintf("Invalid value \"%.*s\" in log-file range \"%s\"", (int)(len ? len : 1), p, list);
	}
	return -1;
}

/*
 * measure.c - the readers of measurements (OSU text, coNCePTuaL logs, CSV)
 * and the grouping of their observations into points.
 *
 * Each reader walks the text line by line and keeps only the observations:
 * a line is split into a scratch buffer that every line reuses, so a large
 * file costs the memory of its observations and no more. The three readers
 * share the column choice (pick_columns) and the reading of one row (take).
 *
 * A table, in every format, is a header (optional for OSU and CSV) and rows
 * that all have as many fields as the header names columns (or, without a
 * header, as the first row has): a row with another count is "ragged".
 */
#include "calib/measure.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

/* How many column names an error message lists before it says "...". */
#define LIST_MAX 20
/* How much of a bad field an error message quotes. */
#define QUOTE_MAX 40

/* ------------------------------------------------------------ lines and fields */

/* The next line of *p in [*b, *e), without its "\n" or "\r\n"; 0 at the end of the text. */
static int next_line(const char **p, const char **b, const char **e)
{
	if (!**p)
		return 0;
	const char *nl = strchr(*p, '\n');
	*b = *p;
	*e = nl ? nl : *p + strlen(*p);
	*p = nl ? nl + 1 : *e;
	if (*e > *b && (*e)[-1] == '\r')
		(*e)--;
	return 1;
}

static int is_blank(int c) { return c == ' ' || c == '\t'; }

/* [*b, *e) without blanks at either end. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && is_blank((unsigned char)**b))
		(*b)++;
	while (*e > *b && is_blank((unsigned char)(*e)[-1]))
		(*e)--;
}

/*
 * The fields of one line. buf holds them, each NUL-terminated, and f points
 * into buf. buf is sized to the line before splitting (no field is longer than
 * its text, and each separator makes room for a NUL), so f stays valid.
 */
typedef struct splitter {
	VEC(char) buf;
	VEC(char *) f;
} splitter;

static void sp_start(splitter *sp, size_t len)
{
	VEC_GROW(&sp->buf, len + 1);
	sp->buf.len = 0;
	sp->f.len = 0;
}

static void sp_begin(splitter *sp) { VEC_PUSH(&sp->f, sp->buf.ptr + sp->buf.len); }
static void sp_putc(splitter *sp, char c) { sp->buf.ptr[sp->buf.len++] = c; }
static void sp_end(splitter *sp) { sp->buf.ptr[sp->buf.len++] = '\0'; }

static void sp_field(splitter *sp, const char *b, const char *e)
{
	sp_begin(sp);
	while (b < e)
		sp_putc(sp, *b++);
	sp_end(sp);
}

static void sp_free(splitter *sp)
{
	VEC_FREE(&sp->buf);
	VEC_FREE(&sp->f);
}

/* Fields separated by blanks (OSU data rows). */
static void split_blanks(splitter *sp, const char *b, const char *e)
{
	sp_start(sp, (size_t)(e - b));
	for (;;) {
		while (b < e && is_blank((unsigned char)*b))
			b++;
		if (b == e)
			return;
		const char *s = b;
		while (b < e && !is_blank((unsigned char)*b))
			b++;
		sp_field(sp, s, b);
	}
}

/*
 * Column names of an OSU header, after its '#': separated by a tab or by two
 * spaces or more, because one name may hold a single space ("Avg Latency(us)",
 * "Bandwidth (MB/s)") and OSU pads each name to a field wider than itself.
 */
static void split_osu_header(splitter *sp, const char *b, const char *e)
{
	sp_start(sp, (size_t)(e - b));
	trim(&b, &e);
	while (b < e) {
		const char *s = b;
		while (b < e && *b != '\t' && !(b[0] == ' ' && b + 1 < e && b[1] == ' '))
			b++;
		const char *fe = b;
		trim(&s, &fe);
		sp_field(sp, s, fe);
		while (b < e && is_blank((unsigned char)*b))
			b++;
	}
}

/*
 * Comma-separated fields, each optionally in double quotes ("" inside quotes
 * is one quote); blanks around a field are dropped. An unterminated quote runs
 * to the end of the line.
 */
static void split_csv(splitter *sp, const char *b, const char *e)
{
	sp_start(sp, (size_t)(e - b));
	for (;;) {
		while (b < e && is_blank((unsigned char)*b))
			b++;
		sp_begin(sp);
		if (b < e && *b == '"') {
			for (b++; b < e; b++) {
				if (*b == '"' && !(b + 1 < e && b[1] == '"'))
					break;
				sp_putc(sp, *b);
				b += *b == '"';
			}
			b += b < e; /* the closing quote */
			while (b < e && *b != ',')
				sp_putc(sp, *b++); /* text after the quote stays with its field */
		} else {
			const char *s = b;
			while (b < e && *b != ',')
				b++;
			const char *fe = b;
			trim(&s, &fe);
			while (s < fe)
				sp_putc(sp, *s++);
		}
		sp_end(sp);
		if (b == e)
			return;
		b++; /* the comma */
	}
}

/* ------------------------------------------------------------ numbers */

enum num_status { NUM_OK, NUM_BAD, NUM_INFINITE };

/* Reads the whole of field f as a number: NUM_OK with *v, NUM_BAD (empty or not a number), NUM_INFINITE (inf, nan, overflow). */
static enum num_status parse_num(const char *f, double *v)
{
	char *end;
	if (!*f || isspace((unsigned char)*f))
		return NUM_BAD;
	double d = strtod(f, &end);
	if (end == f || *end)
		return NUM_BAD;
	if (!isfinite(d))
		return NUM_INFINITE;
	*v = d;
	return NUM_OK;
}

static int is_num(const char *f)
{
	double v;
	return parse_num(f, &v) == NUM_OK;
}

/* ------------------------------------------------------------ the reader */

/* The columns of the table being read. */
typedef struct pick {
	size_t x, v;     /* the columns of x and of the value */
	size_t ncols;    /* fields every row has; 0: no table yet */
	int line;        /* the line of its header, or of its first row */
	int header;      /* 1 if that line is a header */
	char **names;    /* the header's names (a copy, see keep_names), or NULL */
} pick;

typedef struct reader {
	const char *path;
	const char *column, *xcolumn; /* trimmed copies, or NULL for the defaults */
	splitter sp;
	pick pk;
	VEC(cal_obs) obs;
	VEC(char) names;             /* the column names seen, for "unknown column" */
	size_t nnames;
	char *err;
} reader;

static int fail(reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Sets r->err to "path:line: message"; returns -1. */
static int fail(reader *r, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	r->err = xasprintf("%s:%d: %s", r->path, line, msg);
	free(msg);
	return -1;
}

static void names_puts(reader *r, const char *s)
{
	while (*s)
		VEC_PUSH(&r->names, *s++);
}

/*
 * Adds name to the list of columns seen, for an "unknown column" message:
 * once each, at most LIST_MAX of them, each cut to QUOTE_MAX bytes, so that
 * a hostile header costs little.
 */
static void names_add(reader *r, const char *name)
{
	if (!r->column && !r->xcolumn)
		return; /* no message will name columns */
	if (r->nnames > LIST_MAX)
		return;
	char *q = xasprintf("'%.*s'", QUOTE_MAX, name);
	VEC_PUSH(&r->names, '\0');
	r->names.len--;
	if (!strstr(r->names.ptr, q)) {
		names_puts(r, r->nnames ? ", " : "");
		names_puts(r, r->nnames < LIST_MAX ? q : "...");
		r->nnames++;
	}
	free(q);
}

static const char *names_list(reader *r)
{
	VEC_PUSH(&r->names, '\0');
	r->names.len--;
	return r->names.ptr;
}

/*
 * The column `want` among names[0..n): an exact match (names and want are
 * trimmed; the first of equal names wins, as a log may repeat a name), else
 * the one name that starts with want ignoring case. 0 with *at, 1 if none,
 * -1 with r->err if several names start with want.
 */
static int find_column(reader *r, int line, char **names, size_t n, const char *want, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], want)) {
			*at = i;
			return 0;
		}
	size_t k = strlen(want), found = 0;
	for (size_t i = 0; i < n; i++)
		if (!strncasecmp(names[i], want, k))
			*at = i, found++;
	if (found <= 1)
		return found ? 0 : 1;
	char *list = xstrdup("");
	size_t listed = 0;
	for (size_t i = 0; i < n && listed <= LIST_MAX; i++)
		if (!strncasecmp(names[i], want, k)) {
			char *l = listed == LIST_MAX ? xasprintf("%s, ...", list)
			                             : xasprintf("%s%s'%.*s'", list, listed ? ", " : "", QUOTE_MAX, names[i]);
			free(list);
			list = l;
			listed++;
		}
	fail(r, line, "ambiguous column '%s' (the start of %s)", want, list);
	free(list);
	return -1;
}

/* The first column that is not `not`. */
static size_t other_column(size_t not) { return not == 0 ? 1 : 0; }

/*
 * Chooses x and the value among the n columns of a table (names: its header,
 * NULL if none) at line: the named ones, else x is column 0 and the value
 * column def_v (or the first one other than x). The names join r->names.
 * 0 with r->pk set, 1 if a named column is not there, -1 with r->err (an
 * ambiguous name, a name without a header, fewer than two columns).
 */
static int pick_columns(reader *r, int line, char **names, size_t n, size_t def_v)
{
	size_t x = 0, v = def_v;
	if (!names && (r->column || r->xcolumn))
		return fail(r, line, "column '%s' cannot be found: the table has no header row",
		            r->column ? r->column : r->xcolumn);
	if (names) {
		for (size_t i = 0; i < n; i++)
			names_add(r, names[i]);
		int rc = 0, rv = 0;
		if (r->xcolumn && (rc = find_column(r, line, names, n, r->xcolumn, &x)) < 0)
			return -1;
		if (r->column && (rv = find_column(r, line, names, n, r->column, &v)) < 0)
			return -1;
		if (rc || rv)
			return 1;
		if (!r->xcolumn && x == v)
			x = other_column(v);
	}
	if (n < 2)
		return fail(r, line, "%s has %zu column; need two (x and value)", names ? "the header" : "the row", n);
	if (!r->column && v == x)
		v = other_column(x);
	r->pk = (pick){.x = x, .v = v, .ncols = n, .line = line, .header = names != NULL, .names = names};
	return 0;
}

/* The name of column i for messages: " ('Latency (us)')" with a header, else "". */
static char *column_label(const reader *r, size_t i)
{
	return r->pk.names ? xasprintf(" ('%.*s')", QUOTE_MAX, r->pk.names[i]) : xstrdup("");
}

/* Reads field i of the current row as a number, or fails naming it. */
static int field_num(reader *r, int line, size_t i, double *v)
{
	const char *f = r->sp.f.ptr[i];
	enum num_status st = parse_num(f, v);
	if (st == NUM_OK)
		return 0;
	char *label = column_label(r, i);
	fail(r, line, "field %zu%s: '%.*s%s' is not %s", i + 1, label, QUOTE_MAX, f,
	     strlen(f) > QUOTE_MAX ? "..." : "", st == NUM_BAD ? "a number" : "a finite number");
	free(label);
	return -1;
}

/* Fails if the current row does not have as many fields as the table. */
static int check_width(reader *r, int line)
{
	size_t n = r->sp.f.len;
	if (n == r->pk.ncols)
		return 0;
	return fail(r, line, "ragged row: %zu field%s, but the %s (line %d) has %zu", n, n == 1 ? "" : "s",
	            r->pk.header ? "header" : "first row", r->pk.line, r->pk.ncols);
}

/*
 * Adds the observation of the current row. skip_empty: a row that leaves x or
 * the value empty holds none (a coNCePTuaL table whose columns have different
 * lengths, such as "(all data)" beside "(mean)").
 */
static int take(reader *r, int line, int skip_empty)
{
	if (check_width(r, line))
		return -1;
	if (skip_empty && (!*r->sp.f.ptr[r->pk.x] || !*r->sp.f.ptr[r->pk.v]))
		return 0;
	cal_obs o = {.line = line};
	if (field_num(r, line, r->pk.x, &o.x) || field_num(r, line, r->pk.v, &o.value))
		return -1;
	VEC_PUSH(&r->obs, o);
	return 0;
}

static int unknown_column(reader *r, int line)
{
	return fail(r, line, "unknown column '%s'; the columns are %s", r->column ? r->column : r->xcolumn,
	            names_list(r));
}

/* ------------------------------------------------------------ tables */

/* A copy of the header of the table being read, so that its rows can name their columns. */
typedef struct table_names {
	VEC(char) buf;
	VEC(size_t) at;
	VEC(char *) ptr;
} table_names;

/* Copies the fields in r->sp (the header just chosen) into t and points r->pk.names at them. */
static void keep_names(reader *r, table_names *t)
{
	t->buf.len = t->at.len = t->ptr.len = 0;
	for (size_t i = 0; i < r->sp.f.len; i++) {
		VEC_PUSH(&t->at, t->buf.len);
		for (const char *s = r->sp.f.ptr[i]; *s; s++)
			VEC_PUSH(&t->buf, *s);
		VEC_PUSH(&t->buf, '\0');
	}
	for (size_t i = 0; i < t->at.len; i++)
		VEC_PUSH(&t->ptr, t->buf.ptr + t->at.ptr[i]);
	r->pk.names = t->ptr.ptr;
}

static void free_names(reader *r, table_names *t)
{
	VEC_FREE(&t->buf);
	VEC_FREE(&t->at);
	VEC_FREE(&t->ptr);
	r->pk.names = NULL;
}

/* 1 if the first word of comment [b, e) (after its '#') is `word`, ignoring case. */
static int comment_word(const char *b, const char *e, const char *word)
{
	size_t k = strlen(word);
	for (b++; b < e && is_blank((unsigned char)*b); b++)
		;
	return (size_t)(e - b) >= k && !strncasecmp(b, word, k) && ((size_t)(e - b) == k || is_blank((unsigned char)b[k]));
}

/* ------------------------------------------------------------ OSU */

/*
 * An OSU output: '#' lines are comments except headers, whose first word is
 * "Size" ("# Size  Latency (us)"), wherever the title and "# Datatype" lines
 * fall. Each header starts a table (one run appended to the file: its rows
 * are more trials) and picks its columns anew. Rows before any header form a
 * table without names. Only x and the value must be numbers: other columns
 * may hold text ("Validation: Pass").
 */
static int read_osu(reader *r, const char *text)
{
	const char *p = text, *b, *e;
	int line = 0, rc = 0;
	table_names t = {0};
	while (rc == 0 && next_line(&p, &b, &e)) {
		line++;
		trim(&b, &e);
		if (b == e || (*b == '#' && !comment_word(b, e, "Size")))
			continue;
		if (*b == '#') {
			split_osu_header(&r->sp, b + 1, e);
			r->names.len = r->nnames = 0; /* a message lists the columns of this header only */
			if ((rc = pick_columns(r, line, r->sp.f.ptr, r->sp.f.len, 1)) > 0)
				rc = unknown_column(r, line);
			else if (rc == 0)
				keep_names(r, &t);
			continue;
		}
		split_blanks(&r->sp, b, e);
		if (!r->pk.ncols && (rc = pick_columns(r, line, NULL, r->sp.f.len, 1)) != 0)
			break;
		rc = take(r, line, 0);
	}
	free_names(r, &t);
	return rc;
}

/* ------------------------------------------------------------ coNCePTuaL logs */

enum { T_NONE, T_HEADER, T_ROWS };

/*
 * A header row of a log at line: chooses its columns unless a table is chosen
 * already. 1 if this table is chosen, 0 if not, -1 on error. By default the
 * first table of two columns or more is chosen.
 */
static int ncptl_header(reader *r, int line, table_names *t, int chosen)
{
	if (chosen)
		return 0;
	if (!r->column && !r->xcolumn && r->sp.f.len < 2)
		return 0;
	int rc = pick_columns(r, line, r->sp.f.ptr, r->sp.f.len, 1);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0; /* a named column is not in this table: try the next one */
	keep_names(r, t);
	return 1;
}

/*
 * A coNCePTuaL log: tables separated by blank or comment lines, each a header
 * row, a row of aggregate descriptions (text, not numbers; optional) and rows
 * of numbers. The first table that has the named columns is read, and no
 * other: a log's tables hold different quantities.
 */
static int read_ncptl(reader *r, const char *text)
{
	const char *p = text, *b, *e;
	int line = 0, state = T_NONE, chosen = 0, first_header = 0, rc = 0;
	table_names t = {0};
	while (rc == 0 && next_line(&p, &b, &e)) {
		line++;
		trim(&b, &e);
		if (b == e || *b == '#') {
			if (chosen && state != T_NONE)
				break; /* the chosen table is over */
			state = T_NONE;
			continue;
		}
		split_csv(&r->sp, b, e);
		const char *f0 = r->sp.f.ptr[0];
		if (state == T_NONE && is_num(f0)) {
			rc = fail(r, line, "a row of numbers outside a table (no header row above it)");
		} else if (state == T_NONE) {
			state = T_HEADER;
			first_header = first_header ? first_header : line;
			rc = ncptl_header(r, line, &t, chosen);
			chosen |= rc > 0;
			rc = rc < 0 ? -1 : 0;
		} else {
			int descr = state == T_HEADER && *f0 && !is_num(f0);
			state = T_ROWS;
			if (chosen)
				rc = descr ? check_width(r, line) : take(r, line, 1);
		}
	}
	if (rc == 0 && !chosen && (r->column || r->xcolumn))
		rc = unknown_column(r, first_header);
	else if (rc == 0 && !chosen && first_header)
		rc = fail(r, first_header, "no observations: no table has two columns or more");
	else if (rc == 0 && chosen && !r->obs.len)
		rc = fail(r, r->pk.line, "no observations in the table of this header");
	free_names(r, &t);
	return rc;
}

/* ------------------------------------------------------------ CSV */

static int all_numbers(const splitter *sp)
{
	for (size_t i = 0; i < sp->f.len; i++)
		if (!is_num(sp->f.ptr[i]))
			return 0;
	return 1;
}

/* The first row of a CSV file: a header if it is not all numbers. *header set; 0 or -1. */
static int csv_first_row(reader *r, int line, table_names *t, int *header)
{
	size_t n = r->sp.f.len;
	*header = !all_numbers(&r->sp);
	if (!*header && (r->column || r->xcolumn))
		return fail(r, line, "column '%s' cannot be found: the file has no header row",
		            r->column ? r->column : r->xcolumn);
	if (!r->column && !r->xcolumn && n != 2 && n != 3)
		return fail(r, line, "%zu field%s; expected x,value or x,trial,value", n, n == 1 ? "" : "s");
	int rc = pick_columns(r, line, *header ? r->sp.f.ptr : NULL, n, n - 1);
	if (rc > 0)
		return unknown_column(r, line);
	if (rc == 0 && *header)
		keep_names(r, t);
	return rc;
}

/*
 * CSV: "x,value" or "x,trial,value" rows of numbers (the trial only has to be
 * a number: the rows of one x are its trials whatever their numbering). A
 * first row that is not all numbers is a header, which lets `column` and
 * `xcolumn` choose among more columns. Every field must be a number.
 */
static int read_csv(reader *r, const char *text)
{
	const char *p = text, *b, *e;
	int line = 0, rc = 0, header;
	table_names t = {0};
	while (rc == 0 && next_line(&p, &b, &e)) {
		line++;
		trim(&b, &e);
		if (b == e || *b == '#')
			continue;
		split_csv(&r->sp, b, e);
		if (!r->pk.ncols && ((rc = csv_first_row(r, line, &t, &header)) != 0 || header))
			continue;
		rc = check_width(r, line);
		for (size_t i = 0; i < r->sp.f.len && rc == 0; i++) {
			double v;
			rc = field_num(r, line, i, &v);
		}
		rc = rc ? rc : take(r, line, 0);
	}
	free_names(r, &t);
	return rc;
}

/* ------------------------------------------------------------ the interface */

int cal_format_parse(const char *s)
{
	static const char *const names[] = {[CAL_FMT_AUTO] = "auto", [CAL_FMT_OSU] = "osu",
	                                     [CAL_FMT_NCPTL] = "ncptl", [CAL_FMT_CSV] = "csv"};
	for (size_t i = 0; s && i < sizeof names / sizeof *names; i++)
		if (!strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

/* 1 if [b, e) contains needle. */
static int contains(const char *b, const char *e, const char *needle)
{
	size_t k = strlen(needle);
	for (; (size_t)(e - b) >= k; b++)
		if (!memcmp(b, needle, k))
			return 1;
	return 0;
}

/*
 * The first decisive line wins: a "coNCePTuaL log file" comment or a quoted
 * first row is a log; a "# OSU" title or a "# Size" header is OSU, and so is a
 * first row of blank-separated fields without a comma (an OSU table whose
 * comments were cut); any other first row is CSV.
 */
enum cal_format cal_format_guess(const char *text)
{
	const char *p = text, *b, *e;
	while (next_line(&p, &b, &e)) {
		trim(&b, &e);
		if (b == e)
			continue;
		if (*b == '#') {
			if (contains(b, e, "coNCePTuaL log file"))
				return CAL_FMT_NCPTL;
			if (comment_word(b, e, "OSU") || comment_word(b, e, "Size"))
				return CAL_FMT_OSU;
			continue;
		}
		if (*b == '"')
			return CAL_FMT_NCPTL;
		if (!contains(b, e, ",") && (contains(b, e, " ") || contains(b, e, "\t")))
			return CAL_FMT_OSU;
		return CAL_FMT_CSV;
	}
	return CAL_FMT_CSV;
}

static char *trimmed_copy(const char *s)
{
	if (!s)
		return NULL;
	const char *e = s + strlen(s);
	trim(&s, &e);
	return xstrndup(s, (size_t)(e - s));
}

/* The number of the last line of text (1 for an empty text). */
static int last_line(const char *text)
{
	int n = 1;
	const char *s;
	for (s = text; *s; s++)
		n += *s == '\n';
	return s > text && s[-1] == '\n' && n > 1 ? n - 1 : n;
}

static int only_blanks(const char *text)
{
	for (; *text; text++)
		if (!isspace((unsigned char)*text))
			return 0;
	return 1;
}

int cal_series_parse(const char *path, const char *text, enum cal_format fmt, const char *column,
                     const char *xcolumn, cal_series *s, char **err)
{
	*s = (cal_series){0};
	*err = NULL;
	reader r = {.path = path, .column = trimmed_copy(column), .xcolumn = trimmed_copy(xcolumn)};
	int rc;
	if (only_blanks(text))
		rc = fail(&r, 1, "empty file");
	else {
		if (fmt == CAL_FMT_AUTO)
			fmt = cal_format_guess(text);
		rc = fmt == CAL_FMT_OSU ? read_osu(&r, text) : fmt == CAL_FMT_NCPTL ? read_ncptl(&r, text) : read_csv(&r, text);
		if (rc == 0 && !r.obs.len)
			rc = fail(&r, last_line(text), "no observations (no row of numbers)");
	}
	free((char *)r.column);
	free((char *)r.xcolumn);
	sp_free(&r.sp);
	VEC_FREE(&r.names);
	if (rc) {
		VEC_FREE(&r.obs);
		*err = r.err;
		return -1;
	}
	s->path = xstrdup(path);
	s->obs = r.obs.ptr;
	s->nobs = r.obs.len;
	return 0;
}

int cal_series_load(const char *path, enum cal_format fmt, const char *column, const char *xcolumn,
                    cal_series *s, char **err)
{
	*s = (cal_series){0};
	char *text = xread_text(path, "measurements", err);
	if (!text)
		return -1;
	int rc = cal_series_parse(path, text, fmt, column, xcolumn, s, err);
	free(text);
	return rc;
}

void cal_series_append(cal_series *a, const cal_series *b)
{
	if (!a->path && b->path)
		a->path = xstrdup(b->path);
	if (!b->nobs)
		return;
	a->obs = xreallocarray(a->obs, a->nobs + b->nobs, sizeof *a->obs);
	memcpy(a->obs + a->nobs, b->obs, b->nobs * sizeof *b->obs);
	a->nobs += b->nobs;
}

static int by_x(const void *pa, const void *pb)
{
	const cal_obs *a = pa, *b = pb;
	return (a->x > b->x) - (a->x < b->x);
}

/* The point of the k observations o[0..k), which share their x. */
static cal_point point_of(const cal_obs *o, size_t k)
{
	double sum = 0, ss = 0;
	for (size_t i = 0; i < k; i++)
		sum += o[i].value;
	double mean = sum / (double)k;
	for (size_t i = 0; i < k; i++)
		ss += (o[i].value - mean) * (o[i].value - mean); /* two passes: no cancellation */
	return (cal_point){.x = o[0].x, .mean = mean, .sd = k > 1 ? sqrt(ss / (double)(k - 1)) : 0, .ntrials = k};
}

cal_point *cal_series_points(const cal_series *s, size_t *n)
{
	*n = 0;
	if (!s->nobs)
		return NULL;
	cal_obs *o = xcalloc(s->nobs, sizeof *o);
	memcpy(o, s->obs, s->nobs * sizeof *o);
	qsort(o, s->nobs, sizeof *o, by_x);
	cal_point *pts = xcalloc(s->nobs, sizeof *pts);
	for (size_t i = 0, j; i < s->nobs; i = j) {
		for (j = i + 1; j < s->nobs && o[j].x == o[i].x; j++)
			;
		pts[(*n)++] = point_of(o + i, j - i);
	}
	free(o);
	return xreallocarray(pts, *n, sizeof *pts);
}

void cal_series_free(cal_series *s)
{
	free(s->path);
	free(s->obs);
	*s = (cal_series){0};
}

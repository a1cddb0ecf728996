/*
 * csv.c - a CSV row writer (see csv.h).
 */
#include "runtime/stats/csv.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "runtime/stats/json.h"

void csv_init(csv_writer *w, FILE *f)
{
	w->f = f;
	w->col = 0;
	w->error = 0;
}

static void sep(csv_writer *w)
{
	if (w->col++)
		putc(',', w->f);
}

static int needs_quotes(const char *s, size_t n)
{
	if (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			return 1;
	return 0;
}

void csv_str_n(csv_writer *w, const char *s, size_t n)
{
	sep(w);
	if (!needs_quotes(s, n)) {
		fwrite(s, 1, n, w->f);
		return;
	}
	putc('"', w->f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			putc('"', w->f);
		putc(s[i], w->f);
	}
	putc('"', w->f);
}

void csv_str(csv_writer *w, const char *s)
{
	if (!s) {
		csv_empty(w);
		return;
	}
	csv_str_n(w, s, strlen(s));
}

void csv_int(csv_writer *w, int64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void csv_uint(csv_writer *w, uint64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void csv_double(csv_writer *w, double v)
{
	char buf[32];

	sep(w);
	if (isnan(v))
		fputs("nan", w->f);
	else if (isinf(v))
		fputs(v > 0 ? "inf" : "-inf", w->f);
	else
		fputs(json_format_double(buf, v), w->f);
}

void csv_empty(csv_writer *w) { sep(w); }

void csv_end_row(csv_writer *w)
{
	putc('\n', w->f);
	w->col = 0;
}

void csv_row(csv_writer *w, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		csv_str(w, fields[i]);
	csv_end_row(w);
}

int csv_finish(csv_writer *w)
{
	if (w->col)
		w->error = 1;
	if (ferror(w->f))
		w->error = 1;
	return w->error ? -1 : 0;
}

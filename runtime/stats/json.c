/*
 * json.c - a streaming JSON writer (see json.h).
 */
#include "runtime/stats/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(json_writer *w, FILE *f, int pretty)
{
	memset(w, 0, sizeof *w);
	w->f = f;
	w->pretty = pretty;
}

static void newline_indent(json_writer *w)
{
	if (!w->pretty)
		return;
	putc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/*
 * Everything that writes a value calls this first: it checks that a value
 * may come here and writes the separator (",", newline, indentation) it needs.
 */
static int before_value(json_writer *w)
{
	if (w->error)
		return -1;
	if (w->depth == 0) {
		if (w->done) {
			w->error = 1; /* a second top-level value */
			return -1;
		}
		return 0;
	}
	if (w->kind[w->depth - 1] == '{') {
		if (!w->after_key) {
			w->error = 1; /* value without a key */
			return -1;
		}
		w->after_key = 0;
		return 0;
	}
	if (w->nonempty[w->depth - 1])
		putc(',', w->f);
	w->nonempty[w->depth - 1] = 1;
	newline_indent(w);
	return 0;
}

/* After a complete value: at depth 0 the document is done. */
static void after_value(json_writer *w)
{
	if (w->depth == 0)
		w->done = 1;
}

static void begin(json_writer *w, char kind)
{
	if (before_value(w) < 0)
		return;
	if (w->depth == JSON_MAX_DEPTH) {
		w->error = 1;
		return;
	}
	putc(kind, w->f);
	w->kind[w->depth] = (unsigned char)kind;
	w->nonempty[w->depth] = 0;
	w->depth++;
}

static void end(json_writer *w, char kind)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->kind[w->depth - 1] != kind || w->after_key) {
		w->error = 1;
		return;
	}
	w->depth--;
	if (w->nonempty[w->depth])
		newline_indent(w);
	putc(kind == '{' ? '}' : ']', w->f);
	after_value(w);
}

void json_object_begin(json_writer *w) { begin(w, '{'); }
void json_array_begin(json_writer *w) { begin(w, '['); }
void json_object_end(json_writer *w) { end(w, '{'); }
void json_array_end(json_writer *w) { end(w, '['); }

void json_write_escaped(FILE *f, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	putc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fputs("\\u00", f);
				putc(hex[c >> 4], f);
				putc(hex[c & 15], f);
			} else {
				putc(c, f); /* bytes >= 0x80 pass through: strings are UTF-8 */
			}
		}
	}
	putc('"', f);
}

void json_key(json_writer *w, const char *key)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->kind[w->depth - 1] != '{' || w->after_key || !key) {
		w->error = 1;
		return;
	}
	if (w->nonempty[w->depth - 1])
		putc(',', w->f);
	w->nonempty[w->depth - 1] = 1;
	newline_indent(w);
	json_write_escaped(w->f, key, strlen(key));
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = 1;
}

void json_string_n(json_writer *w, const char *s, size_t n)
{
	if (before_value(w) < 0)
		return;
	json_write_escaped(w->f, s, n);
	after_value(w);
}

void json_string(json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	json_string_n(w, s, strlen(s));
}

void json_int(json_writer *w, int64_t v)
{
	if (before_value(w) < 0)
		return;
	fprintf(w->f, "%" PRId64, v);
	after_value(w);
}

void json_uint(json_writer *w, uint64_t v)
{
	if (before_value(w) < 0)
		return;
	fprintf(w->f, "%" PRIu64, v);
	after_value(w);
}

char *json_format_double(char *buf, double v)
{
	/* Try 15 digits first: most values that came from decimal text round-trip there. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, 32, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

void json_double(json_writer *w, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	if (before_value(w) < 0)
		return;
	fputs(json_format_double(buf, v), w->f);
	after_value(w);
}

void json_bool(json_writer *w, int v)
{
	if (before_value(w) < 0)
		return;
	fputs(v ? "true" : "false", w->f);
	after_value(w);
}

void json_null(json_writer *w)
{
	if (before_value(w) < 0)
		return;
	fputs("null", w->f);
	after_value(w);
}

void json_kv_string(json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_uint(json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_double(json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

int json_finish(json_writer *w)
{
	if (!w->error && (w->depth != 0 || !w->done))
		w->error = 1;
	if (!w->error)
		putc('\n', w->f);
	if (ferror(w->f))
		w->error = 1;
	return w->error ? -1 : 0;
}

/*
 * json_read.c - a small JSON reader for summary.json (see json_read.h).
 *
 * Recursive descent over RFC 8259; the depth is bounded so that a hostile
 * file cannot exhaust the stack. The first error stops the parse.
 */
#include "report/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The bytes of a string being decoded. */
typedef VEC(char) strbuf;

typedef struct parser {
	const char *s, *p;  /* the text and the read position */
	const char *file;
	char *err;          /* the first error (heap), or NULL */
} parser;

/* Records the first error at the read position, as file:line:col. */
static void fail(parser *ps, const char *what)
{
	if (ps->err)
		return;
	size_t line = 1, col = 1;
	for (const char *q = ps->s; q < ps->p; q++, col++)
		if (*q == '\n') {
			line++;
			col = 0;
		}
	ps->err = xasprintf("%s:%zu:%zu: %s", ps->file, line, col, what);
}

static void skip_blanks(parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static rep_json *node(enum rep_json_kind k)
{
	rep_json *v = xcalloc(1, sizeof *v);
	v->kind = k;
	return v;
}

/* Appends the code point c to b as UTF-8. */
static void put_utf8(strbuf *b, unsigned c)
{
	if (c < 0x80) {
		VEC_PUSH(b, (char)c);
	} else if (c < 0x800) {
		VEC_PUSH(b, (char)(0xC0 | c >> 6));
		VEC_PUSH(b, (char)(0x80 | (c & 0x3F)));
	} else if (c < 0x10000) {
		VEC_PUSH(b, (char)(0xE0 | c >> 12));
		VEC_PUSH(b, (char)(0x80 | (c >> 6 & 0x3F)));
		VEC_PUSH(b, (char)(0x80 | (c & 0x3F)));
	} else {
		VEC_PUSH(b, (char)(0xF0 | c >> 18));
		VEC_PUSH(b, (char)(0x80 | (c >> 12 & 0x3F)));
		VEC_PUSH(b, (char)(0x80 | (c >> 6 & 0x3F)));
		VEC_PUSH(b, (char)(0x80 | (c & 0x3F)));
	}
}

/* Four hex digits at ps->p: their value, or -1. */
static long hex4(parser *ps)
{
	long c = 0;
	for (int i = 0; i < 4; i++, ps->p++) {
		char h = *ps->p;
		int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		c = c * 16 + d;
	}
	return c;
}

/* \uXXXX (and its low surrogate when it is a high one), after the "\u". */
static int unicode_escape(parser *ps, strbuf *b)
{
	long c = hex4(ps);
	if (c >= 0xD800 && c < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
		ps->p += 2;
		long lo = hex4(ps);
		if (lo < 0xDC00 || lo >= 0xE000)
			c = -1;
		else
			c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	}
	if (c < 0 || (c >= 0xD800 && c < 0xE000)) {
		fail(ps, "bad \\u escape");
		return -1;
	}
	put_utf8(b, (unsigned)c);
	return 0;
}

/* string = '"' chars '"'; ps->p is at the opening quote. The decoded text (heap), or NULL. */
static char *string(parser *ps)
{
	strbuf b = {0};
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	ps->p++;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;
		if (c == 0 || c < 0x20) {
			fail(ps, c ? "control character in a string" : "unterminated string");
			VEC_FREE(&b);
			return NULL;
		}
		ps->p++;
		if (c != '\\') {
			VEC_PUSH(&b, (char)c);
			continue;
		}
		const char *e = *ps->p ? strchr(from, *ps->p) : NULL;
		if (*ps->p == 'u') {
			ps->p++;
			if (unicode_escape(ps, &b) < 0) {
				VEC_FREE(&b);
				return NULL;
			}
		} else if (e) {
			VEC_PUSH(&b, to[e - from]);
			ps->p++;
		} else {
			fail(ps, "bad escape in a string");
			VEC_FREE(&b);
			return NULL;
		}
	}
	ps->p++;
	VEC_PUSH(&b, '\0');
	return b.ptr;
}

/* number = '-'? int frac? exp?, kept as written. */
static rep_json *number(parser *ps)
{
	const char *start = ps->p;
	if (*ps->p == '-')
		ps->p++;
	if (*ps->p == '0')
		ps->p++;
	else if (*ps->p >= '1' && *ps->p <= '9')
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	else
		goto bad;
	if (*ps->p == '.') {
		ps->p++;
		if (!(*ps->p >= '0' && *ps->p <= '9'))
			goto bad;
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (*ps->p == 'e' || *ps->p == 'E') {
		ps->p++;
		if (*ps->p == '+' || *ps->p == '-')
			ps->p++;
		if (!(*ps->p >= '0' && *ps->p <= '9'))
			goto bad;
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	rep_json *v = node(REP_JSON_NUMBER);
	v->text = xstrndup(start, (size_t)(ps->p - start));
	return v;
bad:
	fail(ps, "bad number");
	return NULL;
}

static rep_json *value(parser *ps, int depth);

/* Adds member (key, item) to the array or object v. */
static void add(rep_json *v, char *key, rep_json *item)
{
	v->items = xreallocarray(v->items, v->n + 1, sizeof *v->items);
	if (v->kind == REP_JSON_OBJECT)
		v->keys = xreallocarray(v->keys, v->n + 1, sizeof *v->keys);
	v->items[v->n] = item;
	if (key)
		v->keys[v->n] = key;
	v->n++;
}

/* array = '[' (value (',' value)*)? ']'; object = '{' (string ':' value (',' ...)*)? '}'. */
static rep_json *container(parser *ps, int depth)
{
	int obj = *ps->p == '{';
	char close = obj ? '}' : ']';
	rep_json *v = node(obj ? REP_JSON_OBJECT : REP_JSON_ARRAY);
	ps->p++;
	skip_blanks(ps);
	if (*ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		skip_blanks(ps);
		if (obj) {
			if (*ps->p != '"') {
				fail(ps, "expected a member name in quotes");
				break;
			}
			if (!(key = string(ps)))
				break;
			skip_blanks(ps);
			if (*ps->p != ':') {
				free(key);
				fail(ps, "expected ':'");
				break;
			}
			ps->p++;
		}
		rep_json *item = value(ps, depth + 1);
		if (!item) {
			free(key);
			break;
		}
		add(v, key, item);
		skip_blanks(ps);
		if (*ps->p == close) {
			ps->p++;
			return v;
		}
		if (*ps->p != ',') {
			fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
			break;
		}
		ps->p++;
	}
	rep_json_free(v);
	return NULL;
}

/* Reads the word w (true, false, null) at ps->p: 1 if it is there. */
static int word(parser *ps, const char *w)
{
	size_t n = strlen(w);
	if (strncmp(ps->p, w, n))
		return 0;
	ps->p += n;
	return 1;
}

/* value = object | array | string | number | true | false | null. */
static rep_json *value(parser *ps, int depth)
{
	skip_blanks(ps);
	if (depth > REP_JSON_MAX_DEPTH) {
		fail(ps, "nested too deeply");
		return NULL;
	}
	char c = *ps->p;
	if (c == '{' || c == '[')
		return container(ps, depth);
	if (c == '"') {
		char *s = string(ps);
		if (!s)
			return NULL;
		rep_json *v = node(REP_JSON_STRING);
		v->text = s;
		return v;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(ps);
	rep_json *v = NULL;
	if (word(ps, "true")) {
		v = node(REP_JSON_BOOL);
		v->boolean = 1;
	} else if (word(ps, "false")) {
		v = node(REP_JSON_BOOL);
	} else if (word(ps, "null")) {
		v = node(REP_JSON_NULL);
	} else {
		fail(ps, c ? "expected a value" : "unexpected end of file");
	}
	return v;
}

rep_json *rep_json_parse(const char *text, const char *file, char **err)
{
	parser ps = {.s = text, .p = text, .file = file};
	rep_json *v = value(&ps, 0);
	if (v) {
		skip_blanks(&ps);
		if (*ps.p) {
			fail(&ps, "text after the end of the document");
			rep_json_free(v);
			v = NULL;
		}
	}
	*err = ps.err;
	return v;
}

void rep_json_free(rep_json *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		rep_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->text);
	free(v);
}

const rep_json *rep_json_get(const rep_json *v, const char *key)
{
	if (!v || v->kind != REP_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const char *rep_json_str(const rep_json *v) { return v && v->kind == REP_JSON_STRING ? v->text : NULL; }

int rep_json_u64(const rep_json *v, uint64_t *x)
{
	if (!v || v->kind != REP_JSON_NUMBER || v->text[0] == '-' || strpbrk(v->text, ".eE"))
		return -1;
	errno = 0;
	unsigned long long n = strtoull(v->text, NULL, 10);
	if (errno == ERANGE)
		return -1;
	*x = (uint64_t)n;
	return 0;
}

int rep_json_double(const rep_json *v, double *x)
{
	if (!v || v->kind != REP_JSON_NUMBER)
		return -1;
	*x = strtod(v->text, NULL);
	return 0;
}

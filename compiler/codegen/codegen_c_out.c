/*
 * codegen_c_out.c - the output of the C code generator: indented lines,
 * blocks whose braces go when their body is one statement, conditions that
 * merge into one if, captures for statement expressions, unique C names,
 * and the #line numbering.
 *
 * Numbering. stmt_head (codegen_c.c) puts `#line L "prog.ncptl"` before a
 * statement's code; the lines that follow count on from L. When the
 * statement's code is done, the next code line gets a `#line` back into the
 * generated file (written as cg_reset_mark until the file is complete and
 * the number known, then resolved by cg_resolve_lines). So does statement
 * code that would count past the last line of the .ncptl file: no line of C
 * is ever attributed to a line the source does not have.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen_c.h"

/* ------------------------------------------------------------ lines */

/* vprintf into a string owned by g's arena. */
static const char *cg_vfmt(cg *g, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *s = arena_alloc(g->a, (size_t)(n < 0 ? 0 : n) + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return s;
}

const char *cg_fmt(cg *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = cg_vfmt(g, fmt, ap);
	va_end(ap);
	return s;
}

void cg_buf_add(cg_buf *b, const char *s, size_t n)
{
	VEC_GROW(b, b->len + n + 1);
	memcpy(b->ptr + b->len, s, n);
	b->len += n;
	b->ptr[b->len] = 0;
}

/*
 * The line that stands for `#line N "<generated file>"` until the file is
 * complete and N is known (cg_emit replaces it): the code that follows a
 * statement's code is the generated file's own.
 */
const char cg_reset_mark[] = "#line @";

/*
 * Indentation stops growing at this depth: deeper code stays at this
 * column, so the generated C grows linearly with the program however deep
 * it nests (n nested loops would otherwise cost n^2 tabs).  Programs seen
 * so far indent at most 11 levels.
 */
#define CG_MAX_INDENT 16

static void emit(cg *g, const char *s)
{
	/* Preprocessor lines start in column 0; blank lines have no tabs. */
	if (s[0] != '#' && s[0])
		for (int i = 0; i < g->indent && i < CG_MAX_INDENT; i++)
			cg_buf_add(g->out, "\t", 1);
	cg_buf_add(g->out, s, strlen(s));
	cg_buf_add(g->out, "\n", 1);
}

static void flush_conds(cg *g);

/* 1 for a #line directive (or its mark): it numbers the next line and is not counted itself; a #pragma is. */
static int line_directive(const char *s)
{
	return !strncmp(s, "#line", 5);
}

/*
 * Counts the lines of a statement's code against the .ncptl numbering: code
 * that would run past the last line of the source is numbered as lines of
 * the generated file instead.
 */
static void src_numbering(cg *g, const char *s)
{
	unsigned n = 1;
	for (const char *p = s; *p; p++)
		n += *p == '\n';
	if (g->src_at + n - 1 > g->src_lines) {
		emit(g, cg_reset_mark);
		g->in_src = 0;
		return;
	}
	g->src_at += n;
}

void cg_line(cg *g, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	if (*s) {
		const cg_block *b = g->blocks.len ? &g->blocks.ptr[g->blocks.len - 1] : NULL;
		if (b && b->conds < b->merged)
			cg_error(g, (src_span){0, 1, 0}, "internal error: code after the end of a merged condition");
		flush_conds(g);
		if (g->reset_line && g->in_src && !line_directive(s)) {
			emit(g, cg_reset_mark);
			g->in_src = 0;
		}
		g->reset_line = 0;
	}
	if (g->in_src && !line_directive(s))
		src_numbering(g, s);
	emit(g, s);
	free(s);
}

/*
 * The C compiler's warnings about what a program means, not about how the
 * generator wrote it: TASKS u SUCH THAT u = u compares a value with itself,
 * x > 3 \/ x < 5 tests overlapping intervals, and a merged condition may be
 * one parenthesized comparison. The program is valid, so these are off in
 * generated code (also for a standalone build of `ncsim compile`'s file);
 * cg_warnings(g, 0) restores the command line's warnings around code a user
 * wrote (build.h: only that code may warn).
 */
void cg_warnings(cg *g, int generated)
{
	if (!generated) {
		cg_line(g, "#pragma GCC diagnostic pop");
		return;
	}
	cg_line(g, "#pragma GCC diagnostic push");
	cg_line(g, "#pragma GCC diagnostic ignored \"-Wtautological-compare\"");
	cg_line(g, "#ifdef __clang__");
	cg_line(g, "#pragma clang diagnostic ignored \"-Wtautological-overlap-compare\"");
	cg_line(g, "#pragma clang diagnostic ignored \"-Wparentheses-equality\"");
	cg_line(g, "#endif");
}

/* ------------------------------------------------------------ blocks */

void cg_open(cg *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *head = cg_vfmt(g, fmt, ap);
	va_end(ap);
	cg_line(g, "%s {", head);
	cg_block b = {g->out, g->out->len - 3, g->out->len, 0, 0};
	VEC_PUSH(&g->blocks, b);
	g->indent++;
}

/* 1 if text (one line, indented) is a statement that may stand alone as the body of if/for. */
static int simple_stmt(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] == '\t')
		i++;
	if (n - i >= 6 && !strncmp(s + i, "(void)", 6))
		return s[n - 1] == ';';
	size_t j = i;
	while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.'))
		j++;
	if (j == i || s[n - 1] != ';')
		return 0;
	/* a call, an assignment, ++ or a bare keyword statement (break;) -- never a declaration */
	return s[j] == '(' || s[j] == ';' || !strncmp(s + j, " = ", 3) || !strncmp(s + j, "++", 2) ||
	       !strncmp(s + j, " *= ", 4);
}

void cg_close(cg *g)
{
	cg_block b = g->blocks.ptr[--g->blocks.len];
	g->indent--;
	/* The body's lines, less #line directives (allowed between a bare if and its statement). */
	const char *body = b.buf->ptr + b.body, *end = b.buf->ptr + b.buf->len, *stmt = NULL;
	int lines = 0;
	for (const char *p = body; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (*p != '#') {
			stmt = p;
			lines++;
		}
		p = eol ? eol + 1 : end; /* every line ends in '\n' (emit), but never read past the text */
	}
	const char *nl = stmt ? memchr(stmt, '\n', (size_t)(end - stmt)) : NULL;
	if (b.buf == g->out && lines == 1 && simple_stmt(stmt, (size_t)(nl - stmt))) {
		/* one simple statement: "if (c) {\n\tx;\n" becomes "if (c)\n\tx;\n" */
		memmove(b.buf->ptr + b.brace, b.buf->ptr + b.brace + 2, b.buf->len - b.brace - 1);
		b.buf->len -= 2;
		return;
	}
	cg_line(g, "}");
}

void cg_if(cg *g, const char *cond)
{
	cg_cond c = {cond, 0};
	VEC_PUSH(&g->conds, c);
}

/* Opens one if for every pending condition (called before any line is emitted). */
static void flush_conds(cg *g)
{
	size_t first = g->conds.len;
	while (first > 0 && !g->conds.ptr[first - 1].flushed)
		first--;
	if (first == g->conds.len)
		return;
	cg_buf text = {0};
	cg_buf_add(&text, "", 0);
	for (size_t i = first; i < g->conds.len; i++) {
		if (i > first)
			cg_buf_add(&text, " && ", 4);
		cg_buf_add(&text, g->conds.ptr[i].text, strlen(g->conds.ptr[i].text));
		g->conds.ptr[i].flushed = 1;
	}
	const char *cond = arena_strdup(g->a, text.ptr);
	VEC_FREE(&text);
	cg_open(g, "if (%s)", cond);
	g->blocks.ptr[g->blocks.len - 1].conds = g->blocks.ptr[g->blocks.len - 1].merged = (int)(g->conds.len - first);
}

void cg_endif(cg *g)
{
	if (!g->conds.ptr[g->conds.len - 1].flushed)
		flush_conds(g); /* an empty body: the condition is still evaluated */
	g->conds.len--;
	if (--g->blocks.ptr[g->blocks.len - 1].conds == 0)
		cg_close(g);
}

void cg_capture_begin(cg *g, cg_capture *c)
{
	*c = (cg_capture){g->out, g->indent, g->reset_line, g->in_src, g->conds.len, g->conds.len};
	g->out = xcalloc(1, sizeof(cg_buf));
	g->indent++;
	g->reset_line = g->in_src = 0;
	/*
	 * Pending conditions belong to the line the captured text goes in: hide
	 * them. They are the top of the stack (flush_conds flushes a suffix); a
	 * capture inside a capture finds them hidden already and must leave them
	 * so when it ends, so it remembers which ones it hid itself.
	 */
	while (c->hidden > 0 && !g->conds.ptr[c->hidden - 1].flushed)
		g->conds.ptr[--c->hidden].flushed = 2;
}

const char *cg_capture_end(cg *g, const cg_capture *c)
{
	const char *s = arena_strdup(g->a, g->out->ptr ? g->out->ptr : "");
	VEC_FREE(g->out);
	free(g->out);
	g->out = c->out;
	g->indent = c->indent;
	g->reset_line = c->reset_line;
	g->in_src = c->in_src;
	for (size_t i = c->hidden; i < c->nconds; i++)
		g->conds.ptr[i].flushed = 0;
	return s;
}

size_t cg_mark(cg *g)
{
	return g->out->len;
}

void cg_unused(cg *g, size_t at, const char *name)
{
	if (!cg_code_uses(g->out->ptr ? g->out->ptr + at : "", name))
		cg_line(g, "(void)%s;", name);
}

/* ------------------------------------------------------------ names */

static size_t name_hash(const char *s)
{
	size_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

/* 1 if name was given out before; else records it. */
static int name_taken(cg *g, const char *name)
{
	cg_names *t = &g->names;
	if (2 * (t->len + 1) > t->cap) {
		cg_names old = *t;
		t->cap = old.cap ? 2 * old.cap : 256;
		t->slot = xcalloc(t->cap, sizeof *t->slot);
		t->len = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.slot[i])
				name_taken(g, old.slot[i]);
		free(old.slot);
	}
	size_t i = name_hash(name) & (t->cap - 1);
	for (; t->slot[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->slot[i], name))
			return 1;
	t->slot[i] = name;
	t->len++;
	return 0;
}

const char *cg_uniq(cg *g, const char *stem)
{
	const char *name = arena_strdup(g->a, stem);
	for (unsigned n = 2; name_taken(g, name); n++)
		name = cg_fmt(g, "%s_%u", stem, n);
	return name;
}

const char *cg_cstr(cg *g, const char *s, size_t n)
{
	cg_buf b = {0};
	cg_buf_add(&b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof esc, "\\%c", c);
		else if (c == '\n')
			snprintf(esc, sizeof esc, "\\n");
		else if (c == '\t')
			snprintf(esc, sizeof esc, "\\t");
		else if (c < 32 || c >= 127 || (c == '?' && i + 1 < n && s[i + 1] == '?'))
			snprintf(esc, sizeof esc, "\\%03o", c); /* also breaks up trigraphs */
		else
			snprintf(esc, sizeof esc, "%c", c);
		cg_buf_add(&b, esc, strlen(esc));
	}
	cg_buf_add(&b, "\"", 1);
	const char *r = arena_strdup(g->a, b.ptr);
	VEC_FREE(&b);
	return r;
}

int cg_plain(const char *x)
{
	for (const char *p = x; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return *x != 0;
}

int cg_literal(const char *x, int64_t *v)
{
	char *end;
	if (!isdigit((unsigned char)x[0]))
		return 0;
	errno = 0;
	long long r = strtoll(x, &end, 10);
	if (*end || errno)
		return 0;
	*v = r;
	return 1;
}

int cg_code_uses(const char *c, const char *name)
{
	size_t n = strlen(name);
	while (*c) {
		if (c[0] == '/' && c[1] == '*') {
			const char *end = strstr(c + 2, "*/");
			c = end ? end + 2 : c + strlen(c);
		} else if (*c == '"' || *c == '\'') {
			char q = *c++;
			while (*c && *c != q)
				c += c[0] == '\\' && c[1] ? 2 : 1;
			c += *c != 0;
		} else if (isalpha((unsigned char)*c) || *c == '_') {
			const char *w = c;
			while (isalnum((unsigned char)*c) || *c == '_')
				c++;
			if ((size_t)(c - w) == n && !memcmp(w, name, n))
				return 1;
		} else {
			c++;
		}
	}
	return 0;
}

void cg_resolve_lines(cg *g, const cg_buf *text, const char *cname, cg_buf *out)
{
	unsigned lineno = 1;
	cg_buf_add(out, "", 0);
	for (const char *p = text->ptr, *end = text->ptr + text->len; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
		if (n == sizeof cg_reset_mark && !memcmp(p, cg_reset_mark, n - 1)) {
			const char *l = cg_fmt(g, "#line %u %s\n", lineno + 1, cname);
			cg_buf_add(out, l, strlen(l));
		} else {
			cg_buf_add(out, p, n);
		}
		p += n;
	}
}

void cg_end_src(cg *g)
{
	if (g->in_src)
		emit(g, cg_reset_mark);
	g->in_src = g->reset_line = 0;
}


/*
 * codegen_c.c - the C code generator's driver: the file layout, the program
 * descriptor, the statement dispatcher, and the text and name utilities.
 *
 * Layout of a generated file:
 *
 *   includes; helpers (cg_*: error checks, group vectors, output text)
 *   THE BACKEND DECLARES text (file scope)
 *   source text, parameter table, descriptor, ncsim_skeleton(), main()
 *   static void ncsim_entry(rt_task *t)       <- one call per simulated task
 *   {
 *       locals (error slot, num_tasks, parameters, scratch vectors)
 *       per top-level statement: rt_new_statement(t), then its statements,
 *       each preceded by a comment quoting it and a #line directive
 *   }
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "compiler/codegen/codegen_c.h"

/* ------------------------------------------------------------ text */

const char *cg_fmt(cg *g, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = arena_alloc(g->a, (size_t)(n < 0 ? 0 : n) + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return s;
}

static void buf_add(cg_buf *b, const char *s, size_t n)
{
	VEC_GROW(b, b->len + n + 1);
	memcpy(b->ptr + b->len, s, n);
	b->len += n;
	b->ptr[b->len] = 0;
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
	/* Preprocessor lines start in column 0. */
	if (s[0] != '#')
		for (int i = 0; i < g->indent; i++)
			buf_add(g->out, "\t", 1);
	buf_add(g->out, s, strlen(s));
	buf_add(g->out, "\n", 1);
	free(s);
}

const char *cg_uniq(cg *g, const char *stem)
{
	return cg_fmt(g, "%s_%u", stem, ++g->uniq);
}

const char *cg_cstr(cg *g, const char *s, size_t n)
{
	cg_buf b = {0};
	buf_add(&b, "\"", 1);
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
		buf_add(&b, esc, strlen(esc));
	}
	buf_add(&b, "\"", 1);
	const char *r = arena_strdup(g->a, b.ptr);
	VEC_FREE(&b);
	return r;
}

void cg_error(cg *g, src_span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(fe_diag(g->fe), DIAG_ERROR, sp, fmt, ap);
	va_end(ap);
	g->errors++;
}

unsigned cg_lineno(cg *g, src_span sp)
{
	unsigned line, col;
	src_linecol(g->src, sp.file, sp.first, &line, &col);
	return line;
}

/* ------------------------------------------------------------ names */

const cg_sym *cg_bind(cg *g, const cg_sym *env, const char *name, const char *cname)
{
	cg_sym *s = arena_alloc(g->a, sizeof *s);
	*s = (cg_sym){.name = name, .kind = CG_SYM_VAR, .cname = cname, .next = env};
	return s;
}

const cg_sym *cg_bind_group(cg *g, const cg_sym *env, const char *name, const ast_node *desc, const cg_sym *genv)
{
	cg_sym *s = arena_alloc(g->a, sizeof *s);
	*s = (cg_sym){.name = name, .kind = CG_SYM_GROUP, .group = desc, .genv = genv, .next = env};
	return s;
}

const cg_sym *cg_lookup(const cg_sym *env, const char *name, enum cg_symkind kind)
{
	for (; env; env = env->next)
		if (env->kind == kind && !strcmp(env->name, name))
			return env;
	return NULL;
}

char *cg_program_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *s = xstrndup(base, n);
	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
		      *p == '_' || *p == '.'))
			*p = '_';
	return s;
}

/* ------------------------------------------------------------ statements */

/* Quotes source bytes [first, last] as a comment (at most 6 lines). */
static void quote(cg *g, src_span sp, uint32_t last)
{
	const src_file *f = src_get(g->src, sp.file);
	const char *lines[7];
	int n = 0;
	uint32_t i = sp.first;
	if (last >= f->len)
		last = (uint32_t)f->len - 1;
	while (i <= last && n < 7) {
		uint32_t j = i;
		while (j <= last && f->text[j] != '\n')
			j++;
		cg_buf b = {0};
		buf_add(&b, "", 0);
		for (uint32_t k = i; k < j; k++) {
			char c = f->text[k];
			if (c == '/' && b.len && b.ptr[b.len - 1] == '*')
				buf_add(&b, " ", 1); /* never close the comment early */
			if (c == '\t')
				c = ' ';
			if ((unsigned char)c >= 32 && (unsigned char)c < 127)
				buf_add(&b, &c, 1);
		}
		char *s = b.ptr;
		while (*s == ' ')
			s++;
		size_t l = strlen(s);
		while (l && s[l - 1] == ' ')
			s[--l] = 0;
		if (*s) {
			lines[n] = n == 6 ? "..." : arena_strdup(g->a, s);
			n++;
		}
		VEC_FREE(&b);
		i = j + 1;
	}
	if (n == 1)
		cg_line(g, "/* %s */", lines[0]);
	for (int k = 0; k < n && n > 1; k++)
		cg_line(g, "%s %s%s", k ? " *" : "/*", lines[k], k == n - 1 ? " */" : "");
}

/* The comment, #line directive and rt_line call in front of a statement. */
static void stmt_head(cg *g, const ast_node *n, const ast_node *body)
{
	unsigned line = cg_lineno(g, n->span);
	uint32_t last = n->span.last;
	if (body && !span_empty(body->span) && body->span.first > n->span.first)
		last = body->span.first - 1;
	quote(g, n->span, last);
	cg_line(g, "#line %u %s", line, g->srcname);
	cg_line(g, "rt_line(t, %u);", line);
}

void cg_stmt(cg *g, const cg_sym *env, const ast_node *n)
{
	switch (n->kind) {
	case AST_SEQ:
		if (n->u.seq.items.len != 1)
			cg_line(g, "{");
		g->indent += n->u.seq.items.len != 1;
		for (uint32_t i = 0; i < n->u.seq.items.len; i++)
			cg_stmt(g, env, n->u.seq.items.items[i]);
		g->indent -= n->u.seq.items.len != 1;
		if (n->u.seq.items.len != 1)
			cg_line(g, "}");
		return;
	case AST_FOR_EACH: stmt_head(g, n, n->u.for_each.body); cg_for_each(g, env, n); return;
	case AST_FOR_REPS: stmt_head(g, n, n->u.for_reps.body); cg_for_reps(g, env, n); return;
	case AST_FOR_TIME: stmt_head(g, n, n->u.for_time.body); cg_for_time(g, env, n); return;
	case AST_LET: stmt_head(g, n, n->u.let.body); cg_let(g, env, n); return;
	case AST_IF:
		stmt_head(g, n, n->u.if_.then);
		cg_line(g, "if (%s) {", cg_rel(g, env, n->u.if_.cond, 0));
		g->indent++;
		cg_stmt(g, env, n->u.if_.then);
		g->indent--;
		if (n->u.if_.otherwise) {
			cg_line(g, "} else {");
			g->indent++;
			cg_stmt(g, env, n->u.if_.otherwise);
			g->indent--;
		}
		cg_line(g, "}");
		return;
	default: break;
	}
	stmt_head(g, n, NULL);
	switch (n->kind) {
	case AST_SEND: cg_send(g, env, n); return;
	case AST_RECEIVE: cg_receive(g, env, n); return;
	case AST_MULTICAST: cg_multicast(g, env, n); return;
	case AST_REDUCE: cg_reduce(g, env, n); return;
	case AST_SYNC: cg_sync(g, env, n); return;
	case AST_TRAFFIC_MESSAGES:
	case AST_TRAFFIC_FLOWS:
	case AST_TRAFFIC_HOROVOD:
	case AST_TRAFFIC_REPLAY: cg_traffic(g, env, n); return;
	default: break;
	}
	if (cg_simple(g, env, n) != 0)
		cg_error(g, n->span, "internal error: no code for a %s statement", ast_kind_name(n->kind));
}

/* ------------------------------------------------------------ the file */

/* Helpers of every generated file: small, static inline, so unused ones cost nothing. */
static const char prelude[] =
	"#include <inttypes.h>\n"
	"#include <stdint.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"\n"
	"#include <ncsim/rt.h>\n"
	"#include <ncsim/stdlib.h>\n"
	"\n"
	"/* Run-time errors of ncsim/stdlib.h are sticky in e: check after each expression. */\n"
	"static inline rt_int cg_ci(rt_task *t, ncsim_err *e, rt_int v)\n"
	"{\n"
	"\tif (__builtin_expect(e->failed, 0))\n"
	"\t\trt_fatal(t, \"%s\", e->msg);\n"
	"\treturn v;\n"
	"}\n"
	"static inline double cg_cf(rt_task *t, ncsim_err *e, double v)\n"
	"{\n"
	"\tif (__builtin_expect(e->failed, 0))\n"
	"\t\trt_fatal(t, \"%s\", e->msg);\n"
	"\treturn v;\n"
	"}\n"
	"static inline int cg_cb(rt_task *t, ncsim_err *e, int v)\n"
	"{\n"
	"\tif (__builtin_expect(e->failed, 0))\n"
	"\t\trt_fatal(t, \"%s\", e->msg);\n"
	"\treturn v;\n"
	"}\n"
	"static inline void cg_fail(rt_task *t, ncsim_err *e) { rt_fatal(t, \"%s\", e->msg); }\n"
	"static inline rt_int cg_nonneg(rt_int v) { return v < 0 ? 0 : v; }\n"
	"static inline rt_int cg_nonzero(rt_int v) { return v ? v : 1; }\n"
	"/* A message size in bytes (section 7): negative sizes are errors. */\n"
	"static inline uint64_t cg_bytes(rt_task *t, rt_int n)\n"
	"{\n"
	"\tif (n < 0)\n"
	"\t\trt_fatal(t, \"a message size of %\" PRId64 \" bytes is negative\", n);\n"
	"\treturn (uint64_t)n;\n"
	"}\n"
	"/* An I/O size or file offset in bytes (section 14.2): negative values are errors. */\n"
	"static inline uint64_t cg_io_bytes(rt_task *t, rt_int n, const char *what)\n"
	"{\n"
	"\tif (n < 0)\n"
	"\t\trt_fatal(t, \"%s of %\" PRId64 \" bytes is negative\", what, n);\n"
	"\treturn (uint64_t)n;\n"
	"}\n"
	"/* Picoseconds, rounded; negative durations are no time at all. */\n"
	"static inline ncsim_time_t cg_ps(double ps)\n"
	"{\n"
	"\treturn ps <= 0.0 ? 0 : ps >= 1.8e19 ? (ncsim_time_t)1.8e19 : (ncsim_time_t)(ps + 0.5);\n"
	"}\n"
	"/* Task lists of collectives: growable, ascending. */\n"
	"static inline void cg_push(rt_task *t, struct ncsim_ivec *v, int64_t x)\n"
	"{\n"
	"\tif (v->len == v->cap) {\n"
	"\t\tsize_t cap = v->cap ? 2 * v->cap : 64;\n"
	"\t\tint64_t *p = realloc(v->ptr, cap * sizeof *p);\n"
	"\t\tif (!p)\n"
	"\t\t\trt_fatal(t, \"out of memory\");\n"
	"\t\tv->ptr = p;\n"
	"\t\tv->cap = cap;\n"
	"\t}\n"
	"\tv->ptr[v->len++] = x;\n"
	"}\n"
	"static inline int cg_cmp(const void *a, const void *b)\n"
	"{\n"
	"\tint64_t x = *(const int64_t *)a, y = *(const int64_t *)b;\n"
	"\treturn (x > y) - (x < y);\n"
	"}\n"
	"static inline void cg_sortuniq(struct ncsim_ivec *v)\n"
	"{\n"
	"\tsize_t n = 0;\n"
	"\tif (v->len > 1)\n"
	"\t\tqsort(v->ptr, v->len, sizeof *v->ptr, cg_cmp);\n"
	"\tfor (size_t i = 0; i < v->len; i++)\n"
	"\t\tif (n == 0 || v->ptr[n - 1] != v->ptr[i])\n"
	"\t\t\tv->ptr[n++] = v->ptr[i];\n"
	"\tv->len = v->len ? n : 0;\n"
	"}\n"
	"static inline int cg_has(const struct ncsim_ivec *v, int64_t x)\n"
	"{\n"
	"\treturn v->len && bsearch(&x, v->ptr, v->len, sizeof *v->ptr, cg_cmp) != NULL;\n"
	"}\n"
	"/* A synchronised random task with the bounds clamped to 0..num_tasks-1 (section 8.16). */\n"
	"static inline rt_int cg_random_task(rt_task *t, rt_int lo, rt_int hi, rt_int excl)\n"
	"{\n"
	"\tif (lo < 0)\n"
	"\t\tlo = 0;\n"
	"\tif (hi > rt_num_tasks(t) - 1)\n"
	"\t\thi = rt_num_tasks(t) - 1;\n"
	"\treturn rt_random_task(t, lo, hi, excl);\n"
	"}\n"
	"/* The text of one OUTPUTS line. */\n"
	"struct cg_text {\n"
	"\tchar *ptr;\n"
	"\tsize_t len, cap;\n"
	"};\n"
	"static inline void cg_puts(rt_task *t, struct cg_text *b, const char *s)\n"
	"{\n"
	"\tsize_t n = strlen(s);\n"
	"\tif (b->len + n + 1 > b->cap) {\n"
	"\t\tsize_t cap = 2 * (b->len + n + 1);\n"
	"\t\tchar *p = realloc(b->ptr, cap);\n"
	"\t\tif (!p)\n"
	"\t\t\trt_fatal(t, \"out of memory\");\n"
	"\t\tb->ptr = p;\n"
	"\t\tb->cap = cap;\n"
	"\t}\n"
	"\tmemcpy(b->ptr + b->len, s, n + 1);\n"
	"\tb->len += n;\n"
	"}\n"
	"static inline void cg_putg(rt_task *t, struct cg_text *b, double v)\n"
	"{\n"
	"\tchar buf[64];\n"
	"\tncsim_fmt_g10(buf, sizeof buf, v);\n"
	"\tcg_puts(t, b, buf);\n"
	"}\n"
	"static inline ncsim_filecache *cg_files(ncsim_filecache **fc)\n"
	"{\n"
	"\tif (!*fc)\n"
	"\t\t*fc = ncsim_filecache_new();\n"
	"\treturn *fc;\n"
	"}\n"
	"/*\n"
	" * Per-task memo of the senders whose targets include this task, one table\n"
	" * per send statement, keyed by the values of the variables its task\n"
	" * descriptions read. Direct-mapped with a short probe; an entry is kept only\n"
	" * when its scan completed with at most CG_MEMO_MAXLEN senders.\n"
	" */\n"
	"#define CG_MEMO_SLOTS 64\n"
	"#define CG_MEMO_PROBE 4\n"
	"#define CG_MEMO_MAXKEY 8\n"
	"#define CG_MEMO_MAXLEN 64\n"
	"struct cg_memo_ent {\n"
	"\tint used;\n"
	"\tint64_t key[CG_MEMO_MAXKEY];\n"
	"\tstruct ncsim_ivec list;\n"
	"};\n"
	"struct cg_memo {\n"
	"\tstruct cg_memo_ent e[CG_MEMO_SLOTS];\n"
	"};\n"
	"/* The entry of key[0..nkey) in *mp (allocated on first use): used = 1 if it holds the senders, else emptied for a scan. */\n"
	"static inline struct cg_memo_ent *cg_memo_get(rt_task *t, struct cg_memo **mp, int nkey, const int64_t *key)\n"
	"{\n"
	"\tif (!*mp && !(*mp = calloc(1, sizeof **mp)))\n"
	"\t\trt_fatal(t, \"out of memory\");\n"
	"\tuint64_t h = 0x9e3779b97f4a7c15u;\n"
	"\tfor (int i = 0; i < nkey; i++)\n"
	"\t\th = (h ^ (uint64_t)key[i]) * 0x100000001b3u;\n"
	"\tunsigned home = (unsigned)(h ^ (h >> 29)) % CG_MEMO_SLOTS;\n"
	"\tstruct cg_memo_ent *free_e = NULL;\n"
	"\tfor (unsigned p = 0; p < CG_MEMO_PROBE; p++) {\n"
	"\t\tstruct cg_memo_ent *x = &(*mp)->e[(home + p) % CG_MEMO_SLOTS];\n"
	"\t\tif (!x->used) {\n"
	"\t\t\tif (!free_e)\n"
	"\t\t\t\tfree_e = x;\n"
	"\t\t} else if (!memcmp(x->key, key, (size_t)nkey * sizeof *key)) {\n"
	"\t\t\treturn x;\n"
	"\t\t}\n"
	"\t}\n"
	"\tstruct cg_memo_ent *x = free_e ? free_e : &(*mp)->e[home];\n"
	"\tx->used = 0;\n"
	"\tif (nkey)\n"
	"\t\tmemcpy(x->key, key, (size_t)nkey * sizeof *key);\n"
	"\tx->list.len = 0;\n"
	"\treturn x;\n"
	"}\n"
	"/* Records one sender during a scan (long lists are not kept: their scans are not wasted). */\n"
	"static inline void cg_memo_push(rt_task *t, struct cg_memo_ent *x, int64_t s)\n"
	"{\n"
	"\tif (x->list.len <= CG_MEMO_MAXLEN)\n"
	"\t\tcg_push(t, &x->list, s);\n"
	"}\n"
	"static inline void cg_memo_free(struct cg_memo *m)\n"
	"{\n"
	"\tif (!m)\n"
	"\t\treturn;\n"
	"\tfor (int i = 0; i < CG_MEMO_SLOTS; i++)\n"
	"\t\tfree(m->e[i].list.ptr);\n"
	"\tfree(m);\n"
	"}\n";

/* Walks the whole program for the flags that do not come from code generation. */
static void scan(ast_node *n, void *ud)
{
	cg *g = ud;
	if (n->kind == AST_VALUE_OF || n->kind == AST_LOG || n->kind == AST_COMPUTE_AGGREGATES)
		g->uses_log = 1;
	if (n->kind == AST_RANDOM_TASK || (n->kind == AST_ASSIGN_PROC && !n->u.assign_proc.proc))
		g->uses_random = 1;
	if (n->kind == AST_CALL && cg_uses_random_fn(n))
		g->uses_random = 1;
	ast_foreach_child(n, scan, ud);
}

static const char *str_of(cg *g, const ast_node *s)
{
	return s ? cg_cstr(g, s->u.string.text, s->u.string.len) : "NULL";
}

int cg_emit(fe_ctx *fe, const ast_node *prog, const cg_opts *o, FILE *out)
{
	cg_buf head = {0}, body = {0};
	cg gs = {.fe = fe, .src = fe_sources(fe), .o = o, .a = arena_new(), .out = &body, .indent = 1};
	cg *g = &gs;
	const src_file *sf = src_get(g->src, prog->span.file);
	char *pname = o->name ? xstrdup(o->name) : cg_program_name(sf->name);
	g->srcname = cg_cstr(g, sf->name, strlen(sf->name));
	scan((ast_node *)prog, g);

	/* Header declarations: parameters (defaults folded now) and backend declarations. */
	const ast_list *hd = &prog->u.program.headers;
	const cg_sym *env = NULL, *params = NULL;
	int64_t *pvals = xcalloc(hd->len + 1, sizeof *pvals);
	unsigned np = 0;
	cg_buf ptab = {0}, decls = {0};
	buf_add(&ptab, "", 0);
	buf_add(&decls, "", 0);
	for (uint32_t i = 0; i < hd->len; i++) {
		const ast_node *h = hd->items[i];
		if (h->kind == AST_BACKEND_DECL) {
			const ast_node *s = h->u.backend_decl.text;
			char *err = NULL;
			if (bf_check_declares(s->u.string.text, o->allow_backend_code, &err) != 0) {
				cg_error(g, s->span, "%s", err);
			} else {
				g->uses_union = 1;
				const char *l = cg_fmt(g, "#line %u %s\n%s\n", cg_lineno(g, h->span), g->srcname, s->u.string.text);
				buf_add(&decls, l, strlen(l));
			}
			free(err);
			continue;
		}
		if (h->kind != AST_PARAM_DECL)
			continue;
		const char *name = h->u.param_decl.var->u.ident.name;
		int64_t v = 0;
		if (cg_fold_int(g, h->u.param_decl.def, params, pvals, &v) < 0)
			continue;
		pvals[np] = v;
		params = cg_bind(g, params, name, cg_fmt(g, "%u", np));
		const char *cv = cg_uniq(g, cg_fmt(g, "v_%s", name));
		const char *row = cg_fmt(g, "\t{ %s, %s, %s, %s, INT64_C(%" PRId64 ") },\n", cg_cstr(g, name, strlen(name)),
		                         str_of(g, h->u.param_decl.description), str_of(g, h->u.param_decl.long_opt),
		                         str_of(g, h->u.param_decl.short_opt), v);
		buf_add(&ptab, row, strlen(row));
		cg_line(g, "const rt_int %s = rt_param_value(t, %u);", cv, np);
		cg_line(g, "(void)%s;", cv);
		env = cg_bind(g, env, name, cv);
		np++;
	}

	/* The statements. */
	const ast_list *st = &prog->u.program.stmts;
	for (uint32_t i = 0; i < st->len; i++) {
		cg_line(g, "%s", "");
		cg_line(g, "/* ---- top-level statement %u ---- */", i + 1);
		cg_line(g, "rt_new_statement(t);");
		g->logcol = 0;
		cg_stmt(g, env, st->items[i]);
	}

	/* Now the file, in order. */
	g->out = &head;
	g->indent = 0;
	cg_line(g, "/* Generated by ncsim from %s; do not edit. */", sf->name);
	buf_add(&head, prelude, strlen(prelude));
	if (g->uses_traffic)
		cg_line(g, "#include <ncsim/traffic.h>");
	if (g->uses_union)
		cg_line(g, "#include <ncsim/union.h>");
	cg_line(g, "%s", "");
	if (decls.len)
		buf_add(&head, decls.ptr, decls.len);
	cg_line(g, "static void ncsim_entry(rt_task *t);");
	cg_line(g, "%s", "");
	cg_line(g, "static const char ncsim_source[] = %s;", cg_cstr(g, sf->text, sf->len));
	if (np) {
		cg_line(g, "static const rt_param ncsim_params[] = {");
		buf_add(&head, ptab.ptr, ptab.len);
		cg_line(g, "};");
	}
	cg_line(g, "static const rt_program ncsim_prog = {");
	cg_line(g, "\t.abi = NCSIM_RT_ABI,");
	cg_line(g, "\t.name = %s,", cg_cstr(g, pname, strlen(pname)));
	cg_line(g, "\t.source_file = %s,", g->srcname);
	cg_line(g, "\t.source_text = ncsim_source,");
	cg_line(g, "\t.params = %s,", np ? "ncsim_params" : "NULL");
	cg_line(g, "\t.nparams = %u,", np);
	cg_line(g, "\t.flags = %s%s%s,", g->uses_log ? "RT_PROG_USES_LOG" : "",
	        g->uses_log && g->uses_random ? " | " : "", g->uses_random ? "RT_PROG_USES_RANDOM" : g->uses_log ? "" : "0");
	cg_line(g, "\t.entry = ncsim_entry,");
	cg_line(g, "};");
	cg_line(g, "%s", "");
	cg_line(g, "/* The build cache's entry point: the descriptor, once the runtime accepts its ABI. */");
	cg_line(g, "const rt_program *ncsim_skeleton(void);");
	cg_line(g, "const rt_program *ncsim_skeleton(void)");
	cg_line(g, "{");
	cg_line(g, "\treturn rt_init(NCSIM_RT_ABI, &ncsim_prog) == 0 ? &ncsim_prog : NULL;");
	cg_line(g, "}");
	cg_line(g, "%s", "");
	cg_line(g, "int main(int argc, char **argv)");
	cg_line(g, "{");
	cg_line(g, "\treturn rt_main(NCSIM_RT_ABI, &ncsim_prog, argc, argv);");
	cg_line(g, "}");
	cg_line(g, "%s", "");
	cg_line(g, "/* Runs once per simulated task. */");
	cg_line(g, "static void ncsim_entry(rt_task *t)");
	cg_line(g, "{");
	cg_line(g, "\tncsim_err e = NCSIM_ERR_INIT;");
	cg_line(g, "\tconst rt_int num_tasks = rt_num_tasks(t);");
	if (g->uses_groups)
		cg_line(g, "\tstruct ncsim_ivec cg_ga = { NULL, 0, 0 }, cg_gb = { NULL, 0, 0 };");
	if (g->uses_output)
		cg_line(g, "\tstruct cg_text cg_ob = { NULL, 0, 0 };");
	if (g->uses_filecache)
		cg_line(g, "\tncsim_filecache *fc = NULL;");
	if (g->uses_timed)
		cg_line(g, "\tint cg_timed = 0;");
	if (g->memo_sites)
		cg_line(g, "\tstruct cg_memo *cg_memo[%u] = { NULL };", g->memo_sites);
	cg_line(g, "\t(void)e;");
	cg_line(g, "\t(void)num_tasks;");
	if (body.len)
		buf_add(&head, body.ptr, body.len);
	cg_line(g, "%s", "");
	if (g->uses_groups) {
		cg_line(g, "\tfree(cg_ga.ptr);");
		cg_line(g, "\tfree(cg_gb.ptr);");
	}
	if (g->uses_output)
		cg_line(g, "\tfree(cg_ob.ptr);");
	if (g->uses_filecache)
		cg_line(g, "\tncsim_filecache_free(fc);");
	if (g->memo_sites) {
		cg_line(g, "\tfor (unsigned cg_i = 0; cg_i < %uu; cg_i++)", g->memo_sites);
		cg_line(g, "\t\tcg_memo_free(cg_memo[cg_i]);");
	}
	cg_line(g, "}");

	int errors = g->errors;
	if (!errors && (fwrite(head.ptr, 1, head.len, out) != head.len || fflush(out) != 0)) {
		diag_error(fe_diag(fe), prog->span, "cannot write the generated C: %s", strerror(errno));
		errors++;
	}
	VEC_FREE(&head);
	VEC_FREE(&body);
	VEC_FREE(&ptab);
	VEC_FREE(&decls);
	free(pvals);
	free(pname);
	arena_free(g->a);
	return errors;
}

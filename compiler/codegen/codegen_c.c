/*
 * codegen_c.c - the C code generator's driver: the file layout, the program
 * descriptor, the statement dispatcher and the bindings of names
 * (codegen_c_out.c writes the lines).
 *
 * Layout of a generated file:
 *
 *   #include <ncsim/gen.h>                   <- the helpers, installed with ncsim
 *   THE BACKEND DECLARES text (file scope)
 *   source text, parameter table, descriptor, NCSIM_SKELETON(ncsim_prog)
 *   static void ncsim_entry(rt_task *t)       <- one call per simulated task
 *   {
 *       the locals the body uses, the parameters
 *       per top-level statement: rt_new_statement(t), then its statements,
 *       each preceded by a comment quoting it, rt_line and #line
 *   }
 *
 * After each statement's code a `#line N "prog.c"` points back into the
 * generated file, so a diagnostic in code between statements names the line
 * of the C file, never a line of the .ncptl file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "compiler/codegen/codegen_c.h"
#include "lang/sema.h"

/* ------------------------------------------------------------ diagnostics */

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
		cg_buf_add(&b, "", 0);
		for (uint32_t k = i; k < j; k++) {
			char c = f->text[k];
			if (c == '/' && b.len && b.ptr[b.len - 1] == '*')
				cg_buf_add(&b, " ", 1); /* never close the comment early */
			if (c == '\t')
				c = ' ';
			if ((unsigned char)c >= 32 && (unsigned char)c < 127)
				cg_buf_add(&b, &c, 1);
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

/*
 * The comment, rt_line call and #line directive in front of a statement: the
 * statement's code follows on the line that #line names, so a C diagnostic
 * in it points at the statement. After the code, cg_stmt asks for a #line
 * back into the generated file.
 */
static void stmt_head(cg *g, const ast_node *n, const ast_node *body)
{
	unsigned line = cg_lineno(g, n->span);
	uint32_t last = n->span.last;
	if (body && !span_empty(body->span) && body->span.first > n->span.first)
		last = body->span.first - 1;
	quote(g, n->span, last);
	cg_line(g, "rt_line(t, %u);", line);
	cg_line(g, "#line %u %s", line, g->srcname);
	g->in_src = 1;
	g->src_at = line;
}

static void stmt_code(cg *g, const cg_sym *env, const ast_node *n)
{
	switch (n->kind) {
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

void cg_stmt(cg *g, const cg_sym *env, const ast_node *n)
{
	if (n->kind == AST_SEQ) {
		/* Statements in sequence need no block: every C name is unique. */
		for (uint32_t i = 0; i < n->u.seq.items.len; i++)
			cg_stmt(g, env, n->u.seq.items.items[i]);
		return;
	}
	stmt_code(g, env, n);
	g->reset_line = 1;
}

/* ------------------------------------------------------------ the file */

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

/* THE BACKEND DECLARES text (checked) and the parameters: declarations of the file and the entry function. */
static unsigned headers(cg *g, const ast_node *prog, cg_buf *ptab, cg_buf *decls, const cg_sym **env,
                        const char **pnames, size_t *pmarks)
{
	const ast_list *hd = &prog->u.program.headers;
	unsigned np = 0;
	for (uint32_t i = 0; i < hd->len; i++) {
		const ast_node *h = hd->items[i];
		if (h->kind == AST_BACKEND_DECL) {
			const ast_node *s = h->u.backend_decl.text;
			char *err = NULL;
			if (bf_check_declares(s->u.string.text, g->o->allow_backend_code, &err) != 0) {
				cg_error(g, s->span, "%s", err);
			} else {
				g->uses_union = 1;
				const char *l = cg_fmt(g, "#line %u %s\n%s\n%s\n", cg_lineno(g, h->span), g->srcname,
				                       s->u.string.text, cg_reset_mark);
				cg_buf_add(decls, l, strlen(l));
			}
			free(err);
			continue;
		}
		if (h->kind != AST_PARAM_DECL)
			continue;
		const char *name = h->u.param_decl.var->u.ident.name;
		int64_t v = 0;
		if (!sema_const_int(h->u.param_decl.def, &v)) {
			cg_error(g, h->u.param_decl.def->span, "a parameter's default value must be a constant expression");
			continue;
		}
		const char *row = cg_fmt(g, "\t{ %s, %s, %s, %s, INT64_C(%" PRId64 ") },\n", cg_cstr(g, name, strlen(name)),
		                         str_of(g, h->u.param_decl.description), str_of(g, h->u.param_decl.long_opt),
		                         str_of(g, h->u.param_decl.short_opt), v);
		cg_buf_add(ptab, row, strlen(row));
		const char *cv = cg_uniq(g, cg_fmt(g, "v_%s", name));
		cg_line(g, "const rt_int %s = rt_param_value(t, %u);", cv, np);
		*env = cg_bind(g, *env, name, cv);
		pnames[np] = cv;
		pmarks[np] = cg_mark(g);
		np++;
	}
	return np;
}

/* The head of the file: includes, declarations, the source text, the descriptor and its entry points. */
static void file_head(cg *g, const src_file *sf, const char *pname, const cg_buf *ptab, const cg_buf *decls,
                      unsigned np)
{
	cg_line(g, "/* Generated by ncsim from %s; do not edit. */", sf->name);
	cg_line(g, "#include <ncsim/gen.h>");
	if (g->uses_traffic)
		cg_line(g, "#include <ncsim/traffic.h>");
	if (g->uses_union)
		cg_line(g, "#include <ncsim/union.h>");
	if (decls->len)
		cg_buf_add(g->out, decls->ptr, decls->len);
	cg_warnings(g, 1);
	cg_line(g, "%s", "");
	cg_line(g, "static void ncsim_entry(rt_task *t);");
	cg_line(g, "static const char ncsim_source[] = %s;", cg_cstr(g, sf->text, sf->len));
	if (np) {
		cg_line(g, "static const rt_param ncsim_params[] = {");
		cg_buf_add(g->out, ptab->ptr, ptab->len);
		cg_line(g, "};");
	}
	const char *set[3];
	int nset = 0;
	if (g->uses_log)
		set[nset++] = "RT_PROG_USES_LOG";
	if (g->uses_random)
		set[nset++] = "RT_PROG_USES_RANDOM";
	if (g->uses_traffic)
		set[nset++] = "RT_PROG_USES_TRAFFIC";
	char flags[80] = "0";
	for (int i = 0, n = 0; i < nset; i++)
		n += snprintf(flags + n, sizeof flags - (size_t)n, "%s%s", i ? " | " : "", set[i]);
	cg_line(g, "static const rt_program ncsim_prog = {");
	cg_line(g, "\t.abi = NCSIM_RT_ABI, .name = %s, .source_file = %s,", cg_cstr(g, pname, strlen(pname)), g->srcname);
	cg_line(g, "\t.source_text = ncsim_source, .params = %s, .nparams = %u,", np ? "ncsim_params" : "NULL", np);
	cg_line(g, "\t.flags = %s, .entry = ncsim_entry,", flags);
	cg_line(g, "};");
	cg_line(g, "/* ncsim_skeleton() for the build cache, main() for a standalone build (ncsim/rt.h). */");
	cg_line(g, "NCSIM_SKELETON(ncsim_prog)");
	cg_line(g, "%s", "");
}

/*
 * The locals of the entry function that the body may use: name, declaration,
 * and for those that hold heap memory the rt_track release function (then
 * the entry ends with rt_release, newest first, and a task abandoned in
 * between is released by the runtime).
 */
static const struct {
	const char *name, *decl, *release;
} entry_locals[] = {
	{"e", "ncsim_err e = NCSIM_ERR_INIT;", NULL},
	{"num_tasks", "const rt_int num_tasks = rt_num_tasks(t);", NULL},
	{"cg_timed", "int cg_timed = 0;", NULL},
	{"cg_ga", "struct ncsim_ivec cg_ga = { NULL, 0, 0 };", "ncsim_ivec_release"},
	{"cg_gb", "struct ncsim_ivec cg_gb = { NULL, 0, 0 };", "ncsim_ivec_release"},
	{"cg_ob", "struct ncsim_text cg_ob = { NULL, 0, 0 };", "ncsim_text_release"},
	{"cg_memo", "struct rt_memo *cg_memo = NULL;", "rt_memo_release"},
};
#define N_ENTRY_LOCALS (sizeof entry_locals / sizeof *entry_locals)

/* The entry function around the body: the locals the body uses, then their release. */
static void file_entry(cg *g, const cg_buf *body)
{
	const char *code = body->ptr ? body->ptr : "";
	int used[N_ENTRY_LOCALS];
	cg_line(g, "/* Runs once per simulated task. */");
	cg_line(g, "static void ncsim_entry(rt_task *t)");
	cg_line(g, "{");
	g->indent = 1;
	for (size_t i = 0; i < N_ENTRY_LOCALS; i++) {
		if (!(used[i] = cg_code_uses(code, entry_locals[i].name)))
			continue;
		cg_line(g, "%s", entry_locals[i].decl);
		if (entry_locals[i].release)
			cg_line(g, "rt_track(t, &%s, %s);", entry_locals[i].name, entry_locals[i].release);
	}
	cg_buf_add(g->out, code, strlen(code));
	for (size_t i = N_ENTRY_LOCALS; i-- > 0;)
		if (used[i] && entry_locals[i].release)
			cg_line(g, "rt_release(t, &%s);", entry_locals[i].name);
	g->indent = 0;
	cg_line(g, "}");
}

int cg_emit(fe_ctx *fe, const ast_node *prog, const cg_opts *o, FILE *out)
{
	cg_buf head = {0}, body = {0}, ptab = {0}, decls = {0}, file = {0};
	cg gs = {.fe = fe, .src = fe_sources(fe), .o = o, .a = arena_new(), .out = &body, .indent = 1};
	cg *g = &gs;
	const src_file *sf = src_get(g->src, prog->span.file);
	char *pname = o->name ? xstrdup(o->name) : cg_program_name(sf->name);
	char *cname = o->c_name ? xstrdup(o->c_name) : xasprintf("%s.c", pname);
	static const char *const fixed[] = {"t", "ncsim_entry", "ncsim_source", "ncsim_params", "ncsim_prog", "main"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		(void)cg_uniq(g, fixed[i]);
	for (size_t i = 0; i < N_ENTRY_LOCALS; i++)
		(void)cg_uniq(g, entry_locals[i].name);
	g->srcname = cg_cstr(g, sf->name, strlen(sf->name));
	for (size_t i = 0; i < sf->len; i++)
		g->src_lines += sf->text[i] == '\n' || i + 1 == sf->len;
	scan((ast_node *)prog, g);

	/* The parameters (defaults folded by sema), then the statements. */
	const ast_list *hd = &prog->u.program.headers;
	const cg_sym *env = NULL;
	const char **pnames = xcalloc(hd->len + 1, sizeof *pnames);
	size_t *pmarks = xcalloc(hd->len + 1, sizeof *pmarks);
	cg_buf_add(&ptab, "", 0);
	cg_buf_add(&decls, "", 0);
	unsigned np = headers(g, prog, &ptab, &decls, &env, pnames, pmarks);
	const ast_list *st = &prog->u.program.stmts;
	for (uint32_t i = 0; i < st->len; i++) {
		cg_line(g, "%s", "");
		cg_line(g, "rt_new_statement(t);");
		g->logcol = 0;
		cg_stmt(g, env, st->items[i]);
	}
	for (unsigned i = np; i-- > 0;)
		cg_unused(g, pmarks[i], pnames[i]);
	cg_end_src(g); /* the code after the last statement is the file's own */

	/* Now the file, in order. */
	g->out = &head;
	g->indent = 0;
	g->reset_line = g->in_src = 0;
	file_head(g, sf, pname, &ptab, &decls, np);
	file_entry(g, &body);
	const char *cfile = cg_cstr(g, cname, strlen(cname));
	cg_resolve_lines(g, &head, cfile, &file);

	int errors = g->errors;
	if (!errors && (fwrite(file.ptr, 1, file.len, out) != file.len || fflush(out) != 0)) {
		diag_error(fe_diag(fe), prog->span, "cannot write the generated C: %s", strerror(errno));
		errors++;
	}
	VEC_FREE(&head);
	VEC_FREE(&body);
	VEC_FREE(&ptab);
	VEC_FREE(&decls);
	VEC_FREE(&file);
	VEC_FREE(&g->blocks);
	VEC_FREE(&g->conds);
	free(g->names.slot);
	free(pnames);
	free(pmarks);
	free(pname);
	free(cname);
	arena_free(g->a);
	return errors;
}

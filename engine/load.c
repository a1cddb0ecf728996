/*
 * load.c - loading a program into the direct engine: the front end and
 * sema (as for `ncsim compile`), the resolve pass over the checked AST, the
 * program descriptor and the entry function that runs one task.
 *
 * The entry mirrors the generated C's (compiler/codegen/codegen_c.c): the
 * parameters' values, then per top-level statement rt_new_statement and the
 * statement. The task's state (frame, scratch lists, the OUTPUTS line) is
 * one heap block tracked with rt_track, so a task abandoned in the middle
 * (another task failed, --until) frees it too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "engine/eng_int.h"
#include "base/exitcode.h"
#include "lang/sema.h"
#include "runtime/task/task.h"

/* ------------------------------------------------------------ the loader's helpers */

void eng_error(eng_cx *c, src_span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(fe_diag(c->fe), DIAG_ERROR, sp, fmt, ap);
	va_end(ap);
	c->errors++;
}

int eng_lineno(eng_cx *c, src_span sp)
{
	unsigned line, col;
	src_linecol(c->src, sp.file, sp.first, &line, &col);
	return (int)line;
}

void *eng_new(eng_cx *c, size_t n)
{
	void *p = arena_alloc(c->a, n ? n : 1);
	memset(p, 0, n ? n : 1);
	return p;
}

int eng_slot(eng_cx *c)
{
	return c->nslots++;
}

env_t eng_bind_slot(eng_cx *c, env_t env, const char *name, int slot)
{
	eng_sym *s = eng_new(c, sizeof *s);
	*s = (eng_sym){.name = name, .kind = ENG_SYM_VAR, .slot = slot, .next = env};
	return s;
}

env_t eng_bind(eng_cx *c, env_t env, const char *name, int *slot)
{
	*slot = eng_slot(c);
	return eng_bind_slot(c, env, name, *slot);
}

env_t eng_bind_group(eng_cx *c, env_t env, const char *name, const ast_node *desc, env_t genv)
{
	eng_sym *s = eng_new(c, sizeof *s);
	*s = (eng_sym){.name = name, .kind = ENG_SYM_GROUP, .slot = -1, .group = desc, .genv = genv, .next = env};
	return s;
}

const eng_sym *eng_lookup(env_t env, const char *name, enum eng_symkind kind)
{
	for (; env; env = env->next)
		if (env->kind == kind && !strcmp(env->name, name))
			return env;
	return NULL;
}

void eng_keep_backend(eng_cx *c, eng_backend *b)
{
	VEC_PUSH(&c->backends, b);
}

/* ------------------------------------------------------------ running a task */

_Noreturn void eng_fail(ek *k)
{
	rt_fatal(k->t, "%s", k->e.msg);
}

/* Frees a task's state (an rt_track release function: also when the task is abandoned). */
static void ek_release(void *pk)
{
	ek *k = *(ek **)pk;
	if (!k)
		return;
	free(k->ga.ptr);
	free(k->gb.ptr);
	free(k->ob.ptr);
	rt_memo_release(&k->memo);
	for (int i = 0; k->lists && i < k->p->nlists; i++)
		free(k->lists[i].ptr);
	free(k->lists);
	free(k->v);
	free(k);
}

static void entry(rt_task *t)
{
	/* The descriptor is the first member of the eng_prog. */
	const eng_prog *p = (const eng_prog *)t->job->prog;
	ek *k = xcalloc(1, sizeof *k);
	rt_track(t, &k, ek_release);
	k->t = t;
	k->p = p;
	k->num_tasks = rt_num_tasks(t);
	k->v = xcalloc((size_t)p->nslots + 1, sizeof *k->v);
	k->lists = xcalloc((size_t)p->nlists + 1, sizeof *k->lists);
	for (unsigned i = 0; i < p->nparams; i++)
		k->v[p->param_slots[i]] = rt_param_value(t, i);
	for (uint32_t i = 0; i < p->nstmts; i++) {
		rt_new_statement(t);
		st_run(p->stmts[i], k);
	}
	rt_release(t, &k);
}

/* ------------------------------------------------------------ loading */

/* The flags of the descriptor, found as codegen_c.c's scan finds them. */
static void scan(ast_node *n, void *ud)
{
	eng_cx *c = ud;
	if (n->kind == AST_VALUE_OF || n->kind == AST_LOG || n->kind == AST_COMPUTE_AGGREGATES)
		c->uses_log = 1;
	if (n->kind == AST_RANDOM_TASK || (n->kind == AST_ASSIGN_PROC && !n->u.assign_proc.proc))
		c->uses_random = 1;
	if (n->kind == AST_CALL && eng_uses_random_fn(n))
		c->uses_random = 1;
	if (n->kind == AST_TRAFFIC_MESSAGES || n->kind == AST_TRAFFIC_FLOWS || n->kind == AST_TRAFFIC_HOROVOD ||
	    n->kind == AST_TRAFFIC_REPLAY)
		c->uses_traffic = 1;
	ast_foreach_child(n, scan, ud);
}

/* THE BACKEND DECLARES and the parameters; binds the parameters in *env. */
static void headers(eng_cx *c, eng_prog *p, const ast_node *prog, env_t *env)
{
	const ast_list *hd = &prog->u.program.headers;
	p->params = xcalloc(hd->len + 1, sizeof *p->params);
	p->param_slots = xcalloc(hd->len + 1, sizeof *p->param_slots);
	for (uint32_t i = 0; i < hd->len; i++) {
		const ast_node *h = hd->items[i];
		if (h->kind == AST_BACKEND_DECL) {
			const ast_node *s = h->u.backend_decl.text;
			char *err = NULL;
			if (bf_check_declares(s->u.string.text, 0, &err) != 0)
				eng_error(c, s->span, "%s",
				          c->o->allow_backend_code
				                  ? "not supported by the direct engine: THE BACKEND DECLARES with C code "
				                    "(run it with --engine compiled)"
				                  : err);
			free(err);
			continue;
		}
		if (h->kind != AST_PARAM_DECL)
			continue;
		const ast_node *d = h->u.param_decl.def, *ds = h->u.param_decl.description, *lo = h->u.param_decl.long_opt,
		               *so = h->u.param_decl.short_opt;
		int64_t v = 0;
		if (!sema_const_int(d, &v)) {
			eng_error(c, d->span, "a parameter's default value must be a constant expression");
			continue;
		}
		const char *name = h->u.param_decl.var->u.ident.name;
		p->params[p->nparams] = (rt_param){name, ds ? ds->u.string.text : NULL, lo ? lo->u.string.text : NULL,
		                                   so ? so->u.string.text : NULL, v};
		*env = eng_bind(c, *env, name, &p->param_slots[p->nparams]);
		p->nparams++;
	}
}

/* The resolve pass: the descriptor and the statements' closures. */
static int resolve(fe_ctx *fe, ast_node *prog, const eng_opts *o, eng_prog *p)
{
	eng_cx cx = {.fe = fe, .src = fe_sources(fe), .a = fe_arena(fe), .o = o};
	eng_cx *c = &cx;
	const src_file *sf = src_get(c->src, prog->span.file);
	env_t env = NULL;
	scan(prog, c);
	headers(c, p, prog, &env);
	const ast_list *sl = &prog->u.program.stmts;
	p->stmts = eng_new(c, (sl->len + 1) * sizeof *p->stmts);
	p->nstmts = sl->len;
	for (uint32_t i = 0; i < sl->len; i++) {
		c->logcol = 0;
		p->stmts[i] = eng_stmt(c, env, sl->items[i]);
	}
	p->backends = c->backends.ptr;
	p->nbackends = c->backends.len;
	p->nslots = c->nslots;
	p->nlists = c->nlists;
	unsigned flags = (c->uses_log ? RT_PROG_USES_LOG : 0) | (c->uses_random ? RT_PROG_USES_RANDOM : 0) |
	                 (c->uses_traffic ? RT_PROG_USES_TRAFFIC : 0);
	p->prog = (rt_program){.abi = NCSIM_RT_ABI, .name = p->name, .source_file = sf->name, .source_text = sf->text,
	                       .params = p->nparams ? p->params : NULL, .nparams = p->nparams, .flags = flags,
	                       .entry = entry};
	return c->errors;
}

/* The program name of a path when the caller gives none: its base name without the extension. */
static char *name_of(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	return xstrndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

/* Sema, then the resolve pass; the statuses of eng_load_file. */
static int finish(fe_ctx *fe, ast_node *prog, const char *path, const eng_opts *o, eng_prog **out)
{
	*out = NULL;
	if (fe_errors(fe) == 0) {
		sema_opts so = {.check_files = 1};
		sema_info si;
		sema_check(fe, prog, &so, &si);
	}
	if (fe_errors(fe)) {
		fe_free(fe);
		return EXIT_INPUT;
	}
	eng_prog *p = xcalloc(1, sizeof *p);
	p->fe = fe;
	p->name = o->name ? xstrdup(o->name) : name_of(path);
	if (resolve(fe, prog, o, p) != 0) {
		eng_free(p);
		return EXIT_INPUT;
	}
	*out = p;
	return EXIT_OK;
}

int eng_load_file(const char *path, const eng_opts *o, FILE *diag, eng_prog **out)
{
	fe_ctx *fe = fe_new(diag);
	ast_node *prog;
	*out = NULL;
	if (fe_parse_file(fe, path, &prog) < 0) {
		fprintf(diag, "ncsim: cannot read '%s': %s\n", path, xread_strerror(errno));
		fe_free(fe);
		return EXIT_USAGE;
	}
	return finish(fe, prog, path, o, out);
}

int eng_load_text(const char *name, const char *text, const eng_opts *o, FILE *diag, eng_prog **out)
{
	fe_ctx *fe = fe_new(diag);
	ast_node *prog = fe_parse_string(fe, name, text, strlen(text));
	*out = NULL;
	if (!prog && fe_errors(fe) == 0) {
		fe_free(fe);
		return EXIT_INTERNAL;
	}
	return finish(fe, prog, name, o, out);
}

const rt_program *eng_program(const eng_prog *p)
{
	return &p->prog;
}

void eng_free(eng_prog *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nbackends; i++)
		eng_backend_free(p->backends[i]);
	free(p->backends);
	free(p->params);
	free(p->param_slots);
	free(p->name);
	fe_free(p->fe);
	free(p);
}

int eng_kind_parse(const char *s)
{
	if (!strcmp(s, "direct"))
		return ENG_DIRECT;
	if (!strcmp(s, "compiled"))
		return ENG_COMPILED;
	return -1;
}

void eng_release_ptr(void *pp)
{
	free(*(void **)pp);
}

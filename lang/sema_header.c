/*
 * sema_header.c - header declarations: REQUIRE LANGUAGE VERSION, THE
 * BACKEND DECLARES and `x IS "..." AND COMES FROM "--long" OR "-s" WITH
 * DEFAULT e` (LANGUAGE.md 2.4 and 11).
 *
 * ncsim stores a parameter's default in the program descriptor as an
 * integer (rt_param.defval), so a default must fold to a constant; in
 * coNCePTuaL it may use no variable at all, so that is only a slight
 * restriction (STATIC_FILE_DATA is the one thing it rules out).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lang/sema_expr.h"
#include "lang/sema_fold.h"
#include "lang/sema_header.h"
#include "lang/sema_scope.h"

/* ^-[a-z0-9]$ */
static int valid_short(const char *o)
{
	return o[0] == '-' && ((o[1] >= 'a' && o[1] <= 'z') || (o[1] >= '0' && o[1] <= '9')) && o[2] == '\0';
}

/* ^--[-\w]+$ */
static int valid_long(const char *o)
{
	if (strncmp(o, "--", 2) != 0 || o[2] == '\0')
		return 0;
	for (const char *p = o + 2; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-'))
			return 0;
	return 1;
}

static unsigned line_of(sema_ctx *s, const ast_node *n)
{
	unsigned line, col;
	src_linecol(fe_sources(s->fe), n->span.file, n->span.first, &line, &col);
	return line;
}

/* The earlier parameter p[0..i) whose field `which` equals that of p[i], or NULL. */
static ast_node *earlier(ast_node **p, uint32_t i, int which)
{
	for (uint32_t j = 0; j < i; j++) {
		const struct ast_node *a, *b;
		switch (which) {
		case 0:
			if (p[j]->u.param_decl.var->u.ident.name == p[i]->u.param_decl.var->u.ident.name)
				return p[j]->u.param_decl.var;
			continue;
		case 1:
			a = p[j]->u.param_decl.long_opt;
			b = p[i]->u.param_decl.long_opt;
			break;
		default:
			a = p[j]->u.param_decl.short_opt;
			b = p[i]->u.param_decl.short_opt;
			break;
		}
		if (strcmp(a->u.string.text, b->u.string.text) == 0)
			return (ast_node *)a;
	}
	return NULL;
}

void sh_params(sema_ctx *s, ast_node *prog)
{
	ast_list *h = &prog->u.program.headers;
	sema_where w = sema_where_int();
	VEC(ast_node *) params = { 0 };

	for (uint32_t i = 0; i < h->len; i++) {
		ast_node *d = h->items[i];
		if (d->kind == AST_VERSION_DECL) {
			const char *v = d->u.version_decl.version->u.string.text;
			s->info->version = v;
			if (strcmp(v, "1.5") != 0)
				sema_warning(s, &w, d->u.version_decl.version->span,
				             "language version \"%s\" was requested but only version \"1.5\" is supported", v);
		} else if (d->kind == AST_BACKEND_DECL) {
			s->info->uses_backend = 1;
		} else if (d->kind == AST_PARAM_DECL) {
			VEC_PUSH(&params, d);
		}
	}
	s->info->nparams = params.len;
	s->info->params = arena_alloc(s->arena, (params.len ? params.len : 1) * sizeof *s->info->params);
	/* Defaults first: no parameter is visible in any default. */
	for (uint32_t i = 0; i < params.len; i++) {
		ast_node *d = params.ptr[i], *prev;
		const char *lo = d->u.param_decl.long_opt->u.string.text;
		const char *sh = d->u.param_decl.short_opt->u.string.text;
		sema_param *p = &s->info->params[i];

		if (!valid_short(sh))
			sema_error(s, &w, d->u.param_decl.short_opt->span,
			           "\"%s\" is not a valid short command-line option (must be a \"-\" followed by a "
			           "single lowercase letter or digit)", sh);
		if (!valid_long(lo))
			sema_error(s, &w, d->u.param_decl.long_opt->span,
			           "\"%s\" is not a valid long command-line option (must be a \"--\" followed by one "
			           "or more letters/digits/dashes/underscores)", lo);
		if ((prev = earlier(params.ptr, i, 0)))
			sema_error(s, &w, d->u.param_decl.var->span,
			           "Variable %s is defined in multiple COMES FROM declarations (previous was on line %u)",
			           sema_text(s, d->u.param_decl.var), line_of(s, prev));
		if ((prev = earlier(params.ptr, i, 1)))
			sema_error(s, &w, d->u.param_decl.long_opt->span,
			           "Long option \"%s\" is defined in multiple COMES FROM declarations (previous was on line %u)",
			           lo, line_of(s, prev));
		if ((prev = earlier(params.ptr, i, 2)))
			sema_error(s, &w, d->u.param_decl.short_opt->span,
			           "Short option \"%s\" is defined in multiple COMES FROM declarations (previous was on line %u)",
			           sh, line_of(s, prev));

		sema_where wd = w;
		wd.param = d;
		unsigned before = s->diag->errors;
		sema_expr(s, d->u.param_decl.def, &wd);
		if (!sf_value_i(d->u.param_decl.def, &p->defval) && s->diag->errors == before)
			sema_error(s, &w, d->u.param_decl.def->span,
			           "the default value of parameter %s must be a constant expression",
			           sema_text(s, d->u.param_decl.var));
		p->name = d->u.param_decl.var->u.ident.name;
		p->description = d->u.param_decl.description->u.string.text;
		p->long_opt = lo;
		p->short_opt = sh;
		p->decl = d;
	}
	for (uint32_t i = 0; i < params.len; i++) {
		ast_node *d = params.ptr[i];
		s->info->params[i].sym = ss_define(s, SEMA_SYM_PARAM, d->u.param_decl.var, d, &w);
	}
	VEC_FREE(&params);
}

void sh_options(sema_ctx *s, ast_node *prog)
{
	static const char *const always[] = { "comment", "logfile", "no-trap", "help", "usage", NULL };
	const char *const *extra = s->opts->reserved_options;
	sema_where w = sema_where_int();
	(void)prog;

	for (size_t i = 0; i < s->info->nparams; i++) {
		const sema_param *p = &s->info->params[i];
		const char *name = p->long_opt + 2;
		int clash = 0;
		if (!valid_long(p->long_opt))
			continue;
		for (int k = 0; always[k]; k++)
			clash |= strcmp(name, always[k]) == 0;
		if (s->info->uses_random && strcmp(name, "seed") == 0)
			clash = 1;
		for (int k = 0; extra && extra[k]; k++)
			clash |= strcmp(name, extra[k]) == 0;
		if (clash)
			sema_error(s, &w, p->decl->u.param_decl.long_opt->span,
			           "The --%s option is predefined and therefore not available to programs", name);
	}
}

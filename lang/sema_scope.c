/*
 * sema_scope.c - symbols and scopes (LANGUAGE.md 3.5): binding, lookup,
 * predeclared variables and the "defined but never used" warning.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/sema_scope.h"

static const char *const predecl_names[SEMA_PV_COUNT] = {
#define SEMA_PREDECL_NAME_(id, name) name,
	SEMA_PREDECLS(SEMA_PREDECL_NAME_)
#undef SEMA_PREDECL_NAME_
};

const char *sema_predecl_name(sema_predecl p)
{
	return p < SEMA_PV_COUNT ? predecl_names[p] : "?";
}

void ss_init(sema_ctx *s)
{
	for (int i = 0; i < SEMA_PV_COUNT; i++) {
		const char *n = fe_intern(s->fe, predecl_names[i], strlen(predecl_names[i]));
		s->predecl_names[i] = n;
		s->predecl[i] = (sema_sym){ .kind = SEMA_SYM_PREDECL, .name = n, .predecl = (sema_predecl)i };
	}
	s->anon = fe_intern(s->fe, AST_ANON_TASK_VAR, strlen(AST_ANON_TASK_VAR));
	ss_push(s);
}

void ss_fini(sema_ctx *s)
{
	VEC_FREE(&s->stack);
	VEC_FREE(&s->marks);
}

void ss_push(sema_ctx *s)
{
	VEC_PUSH(&s->marks, s->stack.len);
}

void ss_pop(sema_ctx *s)
{
	size_t from = s->marks.ptr[--s->marks.len];
	for (size_t i = from; i < s->stack.len; i++) {
		sema_sym *y = s->stack.ptr[i];
		if (y->uses || y->quiet || y->name == s->anon)
			continue;
		sema_where w = sema_where_int();
		sema_warning(s, &w, y->def->span, "Variable %s is defined but never used", sema_text(s, y->def));
	}
	s->stack.len = from;
}

sema_sym *ss_predecl(sema_ctx *s, const char *name)
{
	for (int i = 0; i < SEMA_PV_COUNT; i++)
		if (s->predecl_names[i] == name)
			return &s->predecl[i];
	return NULL;
}

sema_sym *ss_define(sema_ctx *s, sema_sym_kind k, ast_node *ident, ast_node *binder, const sema_where *w)
{
	sema_sym *y = arena_alloc(s->arena, sizeof *y);
	sema_sym *p = ss_predecl(s, ident->u.ident.name);

	if (p && p->predecl < SEMA_PV_FIRST_SOFT)
		sema_error(s, w, ident->span, "Redefinition of %s is not allowed", sema_text(s, ident));
	y->kind = k;
	y->name = ident->u.ident.name;
	y->def = ident;
	y->binder = binder;
	y->quiet = (unsigned)w->quiet;
	y->id = (unsigned)s->syms.len;
	VEC_PUSH(&s->syms, y);
	VEC_PUSH(&s->stack, y);
	sema_note *n = sema_note_get(s, ident);
	n->flags |= SEMA_N_DEF;
	n->sym = y;
	return y;
}

static sema_sym *lookup(sema_ctx *s, const char *name, int group)
{
	for (size_t i = s->stack.len; i-- > 0;) {
		sema_sym *y = s->stack.ptr[i];
		if (y->name == name && (y->kind == SEMA_SYM_GROUP) == group)
			return y;
	}
	return NULL;
}

sema_sym *ss_lookup_var(sema_ctx *s, const char *name)
{
	return lookup(s, name, 0);
}

sema_sym *ss_lookup_group(sema_ctx *s, const char *name)
{
	return lookup(s, name, 1);
}

sema_sym *ss_use(sema_ctx *s, ast_node *ident, const sema_where *w)
{
	const char *name = ident->u.ident.name;
	sema_sym *y = ss_lookup_var(s, name);

	if (!y)
		y = ss_predecl(s, name);
	if (!y) {
		for (size_t i = 0; i < s->undeclared.len; i++)
			if (s->undeclared.ptr[i] == name)
				return NULL;
		if (!w->quiet)
			VEC_PUSH(&s->undeclared, name);
		sema_error(s, w, ident->span, "Variable %s must be declared before being used", sema_text(s, ident));
		return NULL;
	}
	y->uses++;
	sema_note_get(s, ident)->sym = y;
	return y;
}

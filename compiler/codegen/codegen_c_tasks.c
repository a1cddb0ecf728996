/*
 * codegen_c_tasks.c - task descriptions (LANGUAGE.md section 6).
 *
 * A description is used in two ways. As a set to walk in ascending order
 * (the receivers of a send, the members of a collective), or as a test
 * "does task X belong to it" (is this task a sender?). Both bind the
 * description's variable to the task in question for the code inside:
 *
 *   TASK e                 { x = e; if (0 <= x < num_tasks) body }   |  if (e == X) body
 *   ALL TASKS [v]          for x in 0..T-1 { v = x; body }            |  { v = X; body }
 *   TASKS v SUCH THAT c    for x in 0..T-1 { v = x; if (c) body }     |  { v = X; if (c) body }
 *   ALL OTHER TASKS        for x in 0..T-1 if (x != src) body         |  if (X != src) body
 *   TASK GROUP g           the LET-bound description, in the scope of its LET, with g bound too
 *
 * Out-of-range ids never act and never receive (section 6.1): a TASK e
 * outside 0..T-1 is skipped when walked, and never equals a valid X.
 */
#include <string.h>

#include "compiler/codegen/codegen_c.h"

int cg_tasks_binds(const ast_node *d)
{
	return cg_tasks_var(d) != NULL;
}

const char *cg_tasks_var(const ast_node *d)
{
	switch (d->kind) {
	case AST_TASK_ALL: return d->u.task_all.var ? d->u.task_all.var->u.ident.name : NULL;
	case AST_TASK_SUCH_THAT: return d->u.such_that.var->u.ident.name;
	case AST_TASK_GROUP: return d->u.task_group.name->u.ident.name;
	default: return NULL;
	}
}

/* Binds `name` to a fresh const copy of the C expression `val`; returns the new scope. */
static const cg_sym *bind_copy(cg *g, const cg_sym *env, const char *name, const char *val)
{
	const char *cv = cg_uniq(g, cg_fmt(g, "v_%s", name));
	cg_line(g, "const rt_int %s = %s;", cv, val);
	cg_line(g, "(void)%s;", cv);
	return cg_bind(g, env, name, cv);
}

/* A TASK GROUP's body runs in the statement's scope with the group's name bound to x. */
typedef struct grp_ud {
	cg_body_fn body;
	void *ud;
	const cg_sym *env;
	const char *name, *x;
} grp_ud;

static void group_body(cg *g, const cg_sym *genv, void *ud)
{
	const grp_ud *w = ud;
	(void)genv;
	w->body(g, bind_copy(g, w->env, w->name, w->x), w->ud);
}

static const cg_sym *group_of(cg *g, const cg_sym *env, const ast_node *d)
{
	const cg_sym *s = cg_lookup(env, d->u.task_group.name->u.ident.name, CG_SYM_GROUP);
	if (!s || s->kind != CG_SYM_GROUP) {
		cg_error(g, d->span, "Task group %s must be declared before being used", d->u.task_group.name->u.ident.name);
		return NULL;
	}
	return s;
}

void cg_tasks_foreach(cg *g, const cg_sym *env, const ast_node *d, const char *x, const char *src,
                      cg_body_fn body, void *ud)
{
	switch (d->kind) {
	case AST_TASK_EXPR:
		cg_line(g, "{");
		g->indent++;
		cg_line(g, "const rt_int %s = %s;", x, cg_int(g, env, d->u.task_expr.expr));
		cg_line(g, "if (%s >= 0 && %s < num_tasks) {", x, x);
		g->indent++;
		body(g, env, ud);
		g->indent--;
		cg_line(g, "}");
		g->indent--;
		cg_line(g, "}");
		return;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT:
	case AST_TASK_ALL_OTHERS: {
		if (d->kind == AST_TASK_ALL_OTHERS && !src) {
			cg_error(g, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return;
		}
		cg_line(g, "for (rt_int %s = 0; %s < num_tasks; %s++) {", x, x, x);
		g->indent++;
		const char *var = cg_tasks_var(d);
		const cg_sym *inner = var ? bind_copy(g, env, var, x) : env;
		int close = 0;
		if (d->kind == AST_TASK_SUCH_THAT) {
			cg_line(g, "if (%s) {", cg_rel(g, inner, d->u.such_that.cond, 0));
			close = 1;
		} else if (d->kind == AST_TASK_ALL_OTHERS) {
			cg_line(g, "if (%s != %s) {", x, src);
			close = 1;
		}
		g->indent += close;
		body(g, inner, ud);
		g->indent -= close;
		if (close)
			cg_line(g, "}");
		g->indent--;
		cg_line(g, "}");
		return;
	}
	case AST_TASK_GROUP: {
		const cg_sym *s = group_of(g, env, d);
		if (!s)
			return;
		grp_ud w = {body, ud, env, s->name, x};
		cg_tasks_foreach(g, s->genv, s->group, x, src, group_body, &w);
		return;
	}
	default: cg_error(g, d->span, "a %s is not a task description", ast_kind_name(d->kind)); return;
	}
}

void cg_tasks_if_member(cg *g, const cg_sym *env, const ast_node *d, const char *who, const char *src,
                        cg_body_fn body, void *ud)
{
	switch (d->kind) {
	case AST_TASK_EXPR:
		cg_line(g, "if (%s == %s) {", cg_int(g, env, d->u.task_expr.expr), who);
		g->indent++;
		body(g, env, ud);
		g->indent--;
		cg_line(g, "}");
		return;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT: {
		cg_line(g, "{");
		g->indent++;
		const char *var = cg_tasks_var(d);
		const cg_sym *inner = var ? bind_copy(g, env, var, who) : env;
		if (d->kind == AST_TASK_SUCH_THAT) {
			cg_line(g, "if (%s) {", cg_rel(g, inner, d->u.such_that.cond, 0));
			g->indent++;
		}
		body(g, inner, ud);
		if (d->kind == AST_TASK_SUCH_THAT) {
			g->indent--;
			cg_line(g, "}");
		}
		g->indent--;
		cg_line(g, "}");
		return;
	}
	case AST_TASK_ALL_OTHERS:
		if (!src) {
			cg_error(g, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return;
		}
		cg_line(g, "if (%s != %s) {", who, src);
		g->indent++;
		body(g, env, ud);
		g->indent--;
		cg_line(g, "}");
		return;
	case AST_TASK_GROUP: {
		const cg_sym *s = group_of(g, env, d);
		if (!s)
			return;
		grp_ud w = {body, ud, env, s->name, who};
		cg_tasks_if_member(g, s->genv, s->group, who, src, group_body, &w);
		return;
	}
	default: cg_error(g, d->span, "a %s is not a task description", ast_kind_name(d->kind)); return;
	}
}

typedef struct push_ud {
	const char *vec, *x;
} push_ud;

static void push_body(cg *g, const cg_sym *env, void *ud)
{
	const push_ud *u = ud;
	(void)env;
	cg_line(g, "cg_push(t, &%s, %s);", u->vec, u->x);
}

void cg_tasks_collect(cg *g, const cg_sym *env, const ast_node *d, const char *vec, const char *src)
{
	push_ud u = {vec, cg_uniq(g, "x")};
	g->uses_groups = 1;
	cg_line(g, "%s.len = 0;", vec);
	cg_tasks_foreach(g, env, d, u.x, src, push_body, &u);
}

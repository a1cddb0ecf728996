/*
 * codegen_c_tasks.c - task descriptions (LANGUAGE.md section 6).
 *
 * A description is used in two ways. As a set to walk in ascending order
 * (the receivers of a send, the members of a collective), or as a test
 * "does task X belong to it" (is this task a sender?). Both bind the
 * description's variable to the task in question for the code inside:
 *
 *   TASK e                 x = e; if (0 <= x < num_tasks) body      |  if (X == e) body
 *   TASK 3 (constant)      if (3 < num_tasks) body(3)              |  if (X == 3) body
 *   ALL TASKS [v]          for v in 0..T-1 body                      |  body (v = X)
 *   TASKS v SUCH THAT c    for v in 0..T-1 if (c) body               |  if (c) body (v = X)
 *   ALL OTHER TASKS        for x in 0..T-1 if (x != src) body        |  if (X != src) body
 *   TASK GROUP g           the LET-bound description, in the scope of its LET, with g bound too
 *
 * The loop counter is the description's variable itself, and X (rt_rank(t)
 * or a variable) is bound to it directly: a description adds no copies.
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

/*
 * Binds `name` to the task `who`: an alias when who is a plain name (a
 * loop counter, a const variable) or rt_rank(t), which no code of the
 * statement changes; else a const copy. The code that reads the copy may
 * fold away (a condition sema proved false, a count that does not name
 * it), and no line can follow the body here (it may end inside a merged
 * condition), so the copy is marked used where it is declared.
 */
static const cg_sym *bind_task(cg *g, const cg_sym *env, const char *name, const char *who)
{
	if (cg_plain(who) || !strcmp(who, "rt_rank(t)"))
		return cg_bind(g, env, name, who);
	const char *cv = cg_uniq(g, cg_fmt(g, "v_%s", name));
	cg_line(g, "const rt_int %s = %s; (void)%s;", cv, who, cv);
	return cg_bind(g, env, name, cv);
}

/* A TASK GROUP's body runs in the statement's scope with the group's name bound to x. */
typedef struct grp_ud {
	cg_body_fn body;
	void *ud;
	const cg_sym *env;
	const char *name;
} grp_ud;

static void group_body(cg *g, const cg_sym *genv, const char *x, void *ud)
{
	const grp_ud *w = ud;
	(void)genv;
	w->body(g, bind_task(g, w->env, w->name, x), x, w->ud);
}

/*
 * TASK GROUP g (or an error for what is no description): g's LET-bound
 * description in the scope of its LET, walked (who == NULL) or tested for
 * the task `who`, with g bound to the task in question.
 */
static void in_group(cg *g, const cg_sym *env, const ast_node *d, const char *stem, const char *who, const char *src,
                     cg_body_fn body, void *ud)
{
	if (d->kind != AST_TASK_GROUP) {
		cg_error(g, d->span, "a %s is not a task description", ast_kind_name(d->kind));
		return;
	}
	const cg_sym *s = cg_lookup(env, d->u.task_group.name->u.ident.name, CG_SYM_GROUP);
	if (!s) {
		cg_error(g, d->span, "Task group %s must be declared before being used", d->u.task_group.name->u.ident.name);
		return;
	}
	grp_ud w = {body, ud, env, s->name};
	if (who)
		cg_tasks_if_member(g, s->genv, s->group, who, src, group_body, &w);
	else
		cg_tasks_foreach(g, s->genv, s->group, stem, src, group_body, &w);
}

/* TASK e walked: a constant e needs no variable, and task 0 always exists. */
static void foreach_expr(cg *g, const cg_sym *env, const ast_node *d, const char *stem, cg_body_fn body, void *ud)
{
	int64_t c;
	if (cg_known_int(d->u.task_expr.expr, &c) && c >= 0) {
		const char *x = cg_int_lit(g, c);
		if (c > 0)
			cg_if(g, cg_fmt(g, "%s < num_tasks", x));
		body(g, env, x, ud);
		if (c > 0)
			cg_endif(g);
		return;
	}
	const char *x = cg_uniq(g, stem);
	cg_line(g, "const rt_int %s = %s;", x, cg_int(g, env, d->u.task_expr.expr));
	cg_if(g, cg_fmt(g, "%s >= 0 && %s < num_tasks", x, x));
	body(g, env, x, ud);
	cg_endif(g);
}

void cg_tasks_foreach(cg *g, const cg_sym *env, const ast_node *d, const char *stem, const char *src,
                      cg_body_fn body, void *ud)
{
	switch (d->kind) {
	case AST_TASK_EXPR: foreach_expr(g, env, d, stem, body, ud); return;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT:
	case AST_TASK_ALL_OTHERS: {
		if (d->kind == AST_TASK_ALL_OTHERS && !src) {
			cg_error(g, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return;
		}
		const char *var = cg_tasks_var(d);
		const char *x = cg_uniq(g, var ? cg_fmt(g, "v_%s", var) : stem);
		cg_open(g, "for (rt_int %s = 0; %s < num_tasks; %s++)", x, x, x);
		const cg_sym *inner = var ? cg_bind(g, env, var, x) : env;
		int cond = d->kind != AST_TASK_ALL;
		if (d->kind == AST_TASK_SUCH_THAT)
			cg_if(g, cg_rel(g, inner, d->u.such_that.cond, 0));
		else if (cond)
			cg_if(g, cg_fmt(g, "%s != %s", x, src));
		body(g, inner, x, ud);
		if (cond)
			cg_endif(g);
		cg_close(g);
		return;
	}
	default: in_group(g, env, d, stem, NULL, src, body, ud); return;
	}
}

void cg_tasks_if_member(cg *g, const cg_sym *env, const ast_node *d, const char *who, const char *src,
                        cg_body_fn body, void *ud)
{
	switch (d->kind) {
	case AST_TASK_EXPR:
		cg_if(g, cg_fmt(g, "%s == %s", who, cg_int(g, env, d->u.task_expr.expr)));
		body(g, env, who, ud);
		cg_endif(g);
		return;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT: {
		const char *var = cg_tasks_var(d);
		const cg_sym *inner = var ? bind_task(g, env, var, who) : env;
		if (d->kind == AST_TASK_SUCH_THAT)
			cg_if(g, cg_rel(g, inner, d->u.such_that.cond, 0));
		body(g, inner, who, ud);
		if (d->kind == AST_TASK_SUCH_THAT)
			cg_endif(g);
		return;
	}
	case AST_TASK_ALL_OTHERS:
		if (!src) {
			cg_error(g, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return;
		}
		cg_if(g, cg_fmt(g, "%s != %s", who, src));
		body(g, env, who, ud);
		cg_endif(g);
		return;
	default: in_group(g, env, d, NULL, who, src, body, ud); return;
	}
}

static void push_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	(void)env;
	cg_line(g, "rt_ivec_push(t, &%s, %s);", (const char *)ud, x);
}

void cg_tasks_collect(cg *g, const cg_sym *env, const ast_node *d, const char *vec, const char *src)
{
	cg_line(g, "%s.len = 0;", vec);
	cg_tasks_foreach(g, env, d, "x", src, push_body, (void *)vec);
}

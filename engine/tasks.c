/*
 * tasks.c - task descriptions (LANGUAGE.md section 6) in the direct engine,
 * used the two ways compiler/codegen/codegen_c_tasks.c uses them: walked in
 * ascending order (the receivers of a send, the members of a collective), or
 * tested for one task ("is this task a sender?"). Both bind the
 * description's variable to the task in question, in a slot of its own, for
 * the body:
 *
 *   TASK e                 x = e; if (0 <= x < num_tasks) body      |  if (who == e) body
 *   TASK 3 (constant)      if (3 < num_tasks) body(3)              |  if (who == 3) body
 *   ALL TASKS [v]          for v in 0..T-1 body                      |  v = who; body
 *   TASKS v SUCH THAT c    for v in 0..T-1 if (c) body               |  v = who; if (c) body
 *   ALL OTHER TASKS        for x in 0..T-1 if (x != src) body        |  if (who != src) body
 *   TASK GROUP g           the LET-bound description in the scope of its LET, g bound to the task
 *
 * The body is compiled by the caller's function in the scope where the
 * variable is bound, and receives the task as its argument.
 */
#include "engine/eng_int.h"

enum tdk { TD_CONST, TD_EXPR, TD_LOOP, TD_GROUP, TD_NONE };

struct td {
	enum tdk kind;
	int walk;          /* 1: walk every member; 0: test `who` */
	int64_t cval;      /* TD_CONST */
	const ex *expr;    /* TD_EXPR: the task; TD_LOOP: the SUCH THAT condition or NULL */
	int slot;          /* the variable's slot, or -1 */
	int others;        /* ALL OTHER TASKS: skip src */
	int who, src;      /* slots of the tested task and the source task (ENG_ME: rt_rank) */
	const td *inner;   /* TD_GROUP: the group's description */
	const kont *body;
	int clear;         /* collect: the list emptied first (0: ga, 1: gb), else -1 */
};

static inline int64_t slot_val(ek *k, int s)
{
	return s == ENG_ME ? rt_rank(k->t) : k->v[s];
}

const char *eng_tasks_var(const ast_node *d)
{
	switch (d->kind) {
	case AST_TASK_ALL: return d->u.task_all.var ? d->u.task_all.var->u.ident.name : NULL;
	case AST_TASK_SUCH_THAT: return d->u.such_that.var->u.ident.name;
	case AST_TASK_GROUP: return d->u.task_group.name->u.ident.name;
	default: return NULL;
	}
}

/* ------------------------------------------------------------ groups */

/* The body of a TASK GROUP: the group's name bound (in the statement's scope) to the task. */
typedef struct grp_ud {
	eng_body_fn mk;
	void *ud;
	env_t env;
	const char *name;
} grp_ud;

typedef struct grp_kont {
	kont k;
	int slot;
	const kont *body;
} grp_kont;

static void grp_run(const kont *kk, ek *k, int64_t x)
{
	const grp_kont *g = (const grp_kont *)kk;
	k->v[g->slot] = x;
	kont_run(g->body, k, x);
}

static const kont *grp_mk(eng_cx *c, env_t genv, int x_slot, void *ud)
{
	const grp_ud *w = ud;
	grp_kont *g = eng_new(c, sizeof *g);
	(void)genv;
	(void)x_slot;
	g->k.fn = grp_run;
	g->body = w->mk(c, eng_bind(c, w->env, w->name, &g->slot), g->slot, w->ud);
	return &g->k;
}

static td *mk_td(eng_cx *c, enum tdk kind, int walk)
{
	td *d = eng_new(c, sizeof *d);
	d->kind = kind;
	d->walk = walk;
	d->slot = -1;
	d->clear = -1;
	return d;
}

static const td *in_group(eng_cx *c, env_t env, const ast_node *d, int walk, int who, int src, eng_body_fn mk,
                          void *ud)
{
	if (d->kind != AST_TASK_GROUP) {
		eng_error(c, d->span, "a %s is not a task description", ast_kind_name(d->kind));
		return mk_td(c, TD_NONE, walk);
	}
	const eng_sym *s = eng_lookup(env, d->u.task_group.name->u.ident.name, ENG_SYM_GROUP);
	if (!s) {
		eng_error(c, d->span, "Task group %s must be declared before being used", d->u.task_group.name->u.ident.name);
		return mk_td(c, TD_NONE, walk);
	}
	grp_ud *w = eng_new(c, sizeof *w);
	*w = (grp_ud){mk, ud, env, s->name};
	td *t = mk_td(c, TD_GROUP, walk);
	t->inner = walk ? eng_tasks_foreach(c, s->genv, s->group, src, grp_mk, w)
	                : eng_tasks_member(c, s->genv, s->group, who, src, grp_mk, w);
	return t;
}

/* ------------------------------------------------------------ compiling */

const td *eng_tasks_foreach(eng_cx *c, env_t env, const ast_node *d, int src_slot, eng_body_fn mk, void *ud)
{
	td *t;
	int64_t cv;
	switch (d->kind) {
	case AST_TASK_EXPR:
		if (eng_known_int(d->u.task_expr.expr, &cv) && cv >= 0) {
			t = mk_td(c, TD_CONST, 1);
			t->cval = cv;
		} else {
			t = mk_td(c, TD_EXPR, 1);
			t->expr = eng_num(c, env, d->u.task_expr.expr, 0);
		}
		t->body = mk(c, env, -1, ud);
		return t;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT:
	case AST_TASK_ALL_OTHERS: {
		if (d->kind == AST_TASK_ALL_OTHERS && src_slot == -1) {
			eng_error(c, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return mk_td(c, TD_NONE, 1);
		}
		const char *var = eng_tasks_var(d);
		t = mk_td(c, TD_LOOP, 1);
		env_t inner = var ? eng_bind(c, env, var, &t->slot) : env;
		if (d->kind == AST_TASK_SUCH_THAT)
			t->expr = eng_relx(c, inner, d->u.such_that.cond, 0);
		t->others = d->kind == AST_TASK_ALL_OTHERS;
		t->src = src_slot;
		t->body = mk(c, inner, t->slot, ud);
		return t;
	}
	default: return in_group(c, env, d, 1, -1, src_slot, mk, ud);
	}
}

const td *eng_tasks_member(eng_cx *c, env_t env, const ast_node *d, int who_slot, int src_slot, eng_body_fn mk,
                           void *ud)
{
	td *t;
	switch (d->kind) {
	case AST_TASK_EXPR:
		t = mk_td(c, TD_EXPR, 0);
		t->expr = eng_num(c, env, d->u.task_expr.expr, 0);
		break;
	case AST_TASK_ALL:
	case AST_TASK_SUCH_THAT: {
		const char *var = eng_tasks_var(d);
		t = mk_td(c, TD_LOOP, 0);
		env = var ? eng_bind(c, env, var, &t->slot) : env;
		if (d->kind == AST_TASK_SUCH_THAT)
			t->expr = eng_relx(c, env, d->u.such_that.cond, 0);
		break;
	}
	case AST_TASK_ALL_OTHERS:
		if (src_slot == -1) {
			eng_error(c, d->span, "\"all other tasks\" is not a valid set of source tasks");
			return mk_td(c, TD_NONE, 0);
		}
		t = mk_td(c, TD_LOOP, 0);
		t->others = 1;
		break;
	default: return in_group(c, env, d, 0, who_slot, src_slot, mk, ud);
	}
	t->who = who_slot;
	t->src = src_slot;
	t->body = mk(c, env, t->slot, ud);
	return t;
}

/* ------------------------------------------------------------ running */

static void walk(const td *d, ek *k)
{
	int64_t n = k->num_tasks;
	switch (d->kind) {
	case TD_CONST:
		if (d->cval == 0 || d->cval < n)
			kont_run(d->body, k, d->cval);
		return;
	case TD_EXPR: {
		int64_t x = eng_int(d->expr, k);
		if (x >= 0 && x < n)
			kont_run(d->body, k, x);
		return;
	}
	case TD_LOOP:
		for (int64_t x = 0; x < n; x++) {
			if (d->slot >= 0)
				k->v[d->slot] = x;
			if (d->expr && !eng_rel(d->expr, k))
				continue;
			if (d->others && x == slot_val(k, d->src))
				continue;
			kont_run(d->body, k, x);
		}
		return;
	case TD_GROUP: eng_td_run(d->inner, k); return;
	case TD_NONE: return;
	}
}

static void member(const td *d, ek *k)
{
	int64_t who = slot_val(k, d->who);
	switch (d->kind) {
	case TD_EXPR:
		if (who == eng_int(d->expr, k))
			kont_run(d->body, k, who);
		return;
	case TD_LOOP:
		if (d->slot >= 0)
			k->v[d->slot] = who;
		if (d->expr && !eng_rel(d->expr, k))
			return;
		if (d->others && who == slot_val(k, d->src))
			return;
		kont_run(d->body, k, who);
		return;
	case TD_GROUP: eng_td_run(d->inner, k); return;
	default: return;
	}
}

void eng_td_run(const td *d, ek *k)
{
	if (d->clear >= 0)
		(d->clear ? &k->gb : &k->ga)->len = 0;
	if (d->walk)
		walk(d, k);
	else
		member(d, k);
}

/* ------------------------------------------------------------ collecting, statements as bodies */

typedef struct push_kont {
	kont k;
	int which;
} push_kont;

static void push_run(const kont *kk, ek *k, int64_t x)
{
	rt_ivec_push(k->t, ((const push_kont *)kk)->which ? &k->gb : &k->ga, x);
}

static const kont *push_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	push_kont *p = eng_new(c, sizeof *p);
	(void)env;
	(void)x_slot;
	p->k.fn = push_run;
	p->which = *(const int *)ud;
	return &p->k;
}

const td *eng_tasks_push(eng_cx *c, env_t env, const ast_node *d, int which, int src_slot)
{
	int *w = eng_new(c, sizeof *w);
	*w = which;
	return eng_tasks_foreach(c, env, d, src_slot, push_mk, w);
}

const td *eng_tasks_collect(eng_cx *c, env_t env, const ast_node *d, int which, int src_slot)
{
	td *t = (td *)eng_tasks_push(c, env, d, which, src_slot);
	t->clear = which;
	return t;
}

typedef struct stmt_kont {
	kont k;
	const st *s;
} stmt_kont;

static void stmt_run(const kont *kk, ek *k, int64_t x)
{
	(void)x;
	st_run(((const stmt_kont *)kk)->s, k);
}

const kont *eng_kont_stmt(eng_cx *c, const st *s)
{
	stmt_kont *u = eng_new(c, sizeof *u);
	u->k.fn = stmt_run;
	u->s = s;
	return &u->k;
}

/*
 * codegen_c_comm.c - point-to-point and collective statements (LANGUAGE.md
 * sections 6.2, 7 and 8.1-8.6).
 *
 * Per-task event order of a send statement (section 6.2): first every
 * implicit receive, by sender ascending (count receives per sender), then
 * every send, by receiver ascending. Each task runs the same walk and keeps
 * only the operations it takes part in:
 *
 *   for s in senders:                 (sender's variable bound)
 *     if me in targets(s):            (target's variable bound too)
 *       count x rt_recv/rt_irecv(s)
 *   if me in senders:
 *     for r in targets(me):
 *       count x rt_send/rt_isend(r)
 *
 * Collectives walk the same sets to build their groups (ascending member
 * lists in the scratch vectors cg_ga and cg_gb of the entry function).
 */
#include <string.h>

#include "compiler/codegen_c.h"

/* The rt_msg_flags of a message specification. */
static const char *msg_flags(cg *g, const ast_node *m)
{
	const char *f = m->u.msg.touch == AST_TOUCH_DATA ? "RT_MSG_TOUCH"
	                : m->u.msg.touch == AST_TOUCH_VERIFY ? "RT_MSG_VERIFY" : NULL;
	if (m->u.msg.unique)
		return f ? cg_fmt(g, "%s | RT_MSG_UNIQUE", f) : "RT_MSG_UNIQUE";
	return f ? f : "0";
}

static const char *msg_tag(cg *g, const cg_sym *env, const ast_node *m)
{
	const ast_node *tag = m->u.msg.tag;
	if (!tag)
		return "0";
	if (tag->kind == AST_STRING)
		return cg_fmt(g, "ncsim_tag_hash(%s)", cg_cstr(g, tag->u.string.text, tag->u.string.len));
	return cg_int(g, env, tag);
}

/* Emits `count` operations of spec m with peer `peer`: op is "send" or "recv". */
static void post(cg *g, const cg_sym *env, const ast_node *m, const char *op, const char *peer)
{
	const char *n = cg_uniq(g, "count"), *b = cg_uniq(g, "bytes"), *i = cg_uniq(g, "i");
	cg_line(g, "{");
	g->indent++;
	cg_line(g, "const rt_int %s = %s;", n, cg_int(g, env, m->u.msg.count));
	cg_line(g, "const uint64_t %s = cg_bytes(t, %s);", b, cg_size(g, env, m->u.msg.size));
	const char *tag = msg_tag(g, env, m), *flags = msg_flags(g, m);
	cg_line(g, "for (rt_int %s = 0; %s < %s; %s++)", i, i, n, i);
	if (m->u.msg.async)
		cg_line(g, "\t(void)rt_i%s(t, %s, %s, %s, %s);", op, peer, b, tag, flags);
	else
		cg_line(g, "\trt_%s(t, %s, %s, %s, %s);", op, peer, b, tag, flags);
	g->indent--;
	cg_line(g, "}");
}

/* ------------------------------------------------------------ SENDS */

typedef struct p2p_ud {
	const ast_node *stmt, *send_spec, *recv_spec, *targets;
	const char *peer;  /* C name of the other side */
	int self_check;    /* a synchronous send to oneself would deadlock */
} p2p_ud;

static void recv_post(cg *g, const cg_sym *env, void *ud)
{
	const p2p_ud *u = ud;
	if (u->self_check)
		cg_line(g, "if (%s == rt_rank(t)) rt_fatal(t, \"Send-to-self deadlock encountered on task %%\" PRId64, %s);",
		        u->peer, u->peer);
	post(g, env, u->recv_spec, "recv", u->peer);
}

/* For one sender (bound in env): receive if this task is among its targets. */
static void recv_from_sender(cg *g, const cg_sym *env, void *ud)
{
	cg_tasks_if_member(g, env, ((const p2p_ud *)ud)->targets, "rt_rank(t)", ((const p2p_ud *)ud)->peer, recv_post,
	                   ud);
}

static void send_post(cg *g, const cg_sym *env, void *ud)
{
	const p2p_ud *u = ud;
	post(g, env, u->send_spec, "send", u->peer);
}

/* This task is a sender (bound in env): send to each target. */
static void send_to_targets(cg *g, const cg_sym *env, void *ud)
{
	p2p_ud u = *(const p2p_ud *)ud;
	u.peer = cg_uniq(g, "r");
	cg_tasks_foreach(g, env, u.targets, u.peer, "rt_rank(t)", send_post, &u);
}

void cg_send(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *msg = n->u.send.msg;
	if (n->u.send.recv) {
		p2p_ud u = {n, msg, n->u.send.recv, n->u.send.dst, cg_uniq(g, "s"), !msg->u.msg.async};
		cg_line(g, "/* implicit receives, by sender */");
		cg_tasks_foreach(g, env, n->u.send.src, u.peer, NULL, recv_from_sender, &u);
	}
	p2p_ud u = {n, msg, NULL, n->u.send.dst, NULL, 0};
	cg_line(g, "/* sends, by receiver */");
	cg_tasks_if_member(g, env, n->u.send.src, "rt_rank(t)", NULL, send_to_targets, &u);
}

/* ------------------------------------------------------------ RECEIVES */

typedef struct uses_ud {
	const char *name;
	int found;
} uses_ud;

static void uses_walk(ast_node *n, void *ud)
{
	uses_ud *u = ud;
	if (n->kind == AST_IDENT && n->u.ident.name == u->name)
		u->found = 1;
	ast_foreach_child(n, uses_walk, ud);
}

static int uses_name(const ast_node *n, const char *name)
{
	uses_ud u = {name, 0};
	if (name)
		uses_walk((ast_node *)n, &u);
	return u.found;
}

typedef struct rr_ud {
	const ast_node *spec, *senders;
	const char *s;
} rr_ud;

static void rr_post(cg *g, const cg_sym *env, void *ud)
{
	const rr_ud *u = ud;
	post(g, env, u->spec, "recv", u->s);
}

/* Receiver bound in env: receive from each sender of its scope. */
static void rr_each_sender(cg *g, const cg_sym *env, void *ud)
{
	const rr_ud *u = ud;
	cg_tasks_foreach(g, env, u->senders, u->s, NULL, rr_post, (void *)u);
}

void cg_receive(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *R = n->u.receive.tasks, *S = n->u.receive.from;
	/* Which side's variables the other side may use (section 3.5). */
	int s_to_r;
	if (R->kind == AST_TASK_ALL_OTHERS)
		s_to_r = 1;
	else if (!cg_tasks_binds(S))
		s_to_r = 0;
	else if (!cg_tasks_binds(R))
		s_to_r = 1;
	else
		s_to_r = uses_name(R, cg_tasks_var(S)) && !uses_name(S, cg_tasks_var(R));
	if (s_to_r) {
		p2p_ud u = {n, NULL, n->u.receive.msg, R, cg_uniq(g, "s"), 0};
		cg_tasks_foreach(g, env, S, u.peer, NULL, recv_from_sender, &u);
	} else {
		rr_ud u = {n->u.receive.msg, S, cg_uniq(g, "s")};
		cg_tasks_if_member(g, env, R, "rt_rank(t)", NULL, rr_each_sender, &u);
	}
}

/* ------------------------------------------------------------ MULTICASTS */

typedef struct mc_ud {
	const ast_node *stmt;
	const char *s, *flag;
} mc_ud;

static void mc_mark(cg *g, const cg_sym *env, void *ud)
{
	(void)env;
	cg_line(g, "%s = 1;", ((const mc_ud *)ud)->flag);
}

/* One source (bound in env): a broadcast among {s} and its targets, count times. */
static void mc_source(cg *g, const cg_sym *env, void *ud)
{
	mc_ud u = *(const mc_ud *)ud;
	const ast_node *n = u.stmt, *m = n->u.multicast.msg;
	u.flag = cg_uniq(g, "member");
	cg_line(g, "{");
	g->indent++;
	cg_line(g, "int %s = %s == rt_rank(t);", u.flag, u.s);
	cg_tasks_if_member(g, env, n->u.multicast.dst, "rt_rank(t)", u.s, mc_mark, &u);
	cg_line(g, "if (%s) {", u.flag);
	g->indent++;
	const char *cnt = cg_uniq(g, "count"), *b = cg_uniq(g, "bytes"), *i = cg_uniq(g, "i");
	cg_line(g, "const rt_int %s = %s;", cnt, cg_int(g, env, m->u.msg.count));
	cg_line(g, "const uint64_t %s = cg_bytes(t, %s);", b, cg_size(g, env, m->u.msg.size));
	cg_tasks_collect(g, env, n->u.multicast.dst, "cg_ga", u.s);
	cg_line(g, "cg_push(t, &cg_ga, %s);", u.s);
	cg_line(g, "cg_sortuniq(&cg_ga);");
	cg_line(g, "for (rt_int %s = 0; %s < %s && cg_ga.len > 1; %s++)", i, i, cnt, i);
	cg_line(g, "\trt_bcast(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, %s, %s);", u.s, b);
	g->indent--;
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "}");
}

void cg_multicast(cg *g, const cg_sym *env, const ast_node *n)
{
	if (n->u.multicast.msg->u.msg.async) {
		cg_error(g, n->span, "asynchronous multicasts are not yet implemented");
		return;
	}
	mc_ud u = {n, cg_uniq(g, "s"), NULL};
	g->uses_groups = 1;
	cg_tasks_foreach(g, env, n->u.multicast.src, u.s, NULL, mc_source, &u);
}

/* ------------------------------------------------------------ REDUCES */

static const char *reduce_bytes(cg *g, const cg_sym *env, const ast_node *m)
{
	int per = m->u.msg.elem_type == AST_DU_DOUBLEWORDS ? 8 : 4;
	if (m->u.msg.elem_type != AST_DU_DOUBLEWORDS && m->u.msg.elem_type != AST_DU_INTEGERS)
		cg_error(g, m->span, "a reduction must be of INTEGERS or DOUBLEWORDS");
	return cg_fmt(g, "cg_bytes(t, ncsim_mul(%s, %d))", cg_int(g, env, m->u.msg.count), per);
}

typedef struct red_ud {
	const ast_node *stmt;
	const char *bytes, *x, *vec;
} red_ud;

static void red_all(cg *g, const cg_sym *env, void *ud)
{
	const red_ud *u = ud;
	const ast_node *S = u->stmt->u.reduce.src;
	cg_line(g, "const uint64_t %s = %s;", u->bytes, reduce_bytes(g, env, u->stmt->u.reduce.msg));
	if (S->kind == AST_TASK_ALL) {
		cg_line(g, "rt_allreduce(t, rt_world(t), %s);", u->bytes);
		return;
	}
	cg_tasks_collect(g, env, S, "cg_ga", NULL);
	cg_line(g, "rt_allreduce(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, %s);", u->bytes);
}

typedef struct push_ud {
	const ast_node *targets;
	const char *s, *r, *vec;
} push_ud;

static void push_r(cg *g, const cg_sym *env, void *ud)
{
	const push_ud *u = ud;
	(void)env;
	cg_line(g, "cg_push(t, &%s, %s);", u->vec, u->r);
}

/* One sender (bound in env): adds its targets to the receiver list. */
static void red_targets(cg *g, const cg_sym *env, void *ud)
{
	const push_ud *u = ud;
	cg_tasks_foreach(g, env, u->targets, u->r, u->s, push_r, (void *)u);
}

static void red_first(cg *g, const cg_sym *env, void *ud)
{
	const red_ud *u = ud;
	cg_line(g, "%s = %s;", u->bytes, reduce_bytes(g, env, u->stmt->u.reduce.msg));
}

void cg_reduce(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *S = n->u.reduce.src;
	red_ud u = {n, cg_uniq(g, "bytes"), NULL, NULL};
	g->uses_groups = 1;
	if (!n->u.reduce.dst) {
		/* All-reduce among the sources; each evaluates the count in its own scope. */
		cg_tasks_if_member(g, env, S, "rt_rank(t)", NULL, red_all, &u);
		return;
	}
	/* Sources contribute; the union of every source's targets receives. */
	push_ud p = {n->u.reduce.dst, cg_uniq(g, "s"), cg_uniq(g, "r"), "cg_gb"};
	cg_line(g, "{");
	g->indent++;
	cg_tasks_collect(g, env, S, "cg_ga", NULL);
	cg_line(g, "cg_gb.len = 0;");
	cg_tasks_foreach(g, env, S, p.s, NULL, red_targets, &p);
	cg_line(g, "cg_sortuniq(&cg_gb);");
	cg_line(g, "if (cg_ga.len && cg_gb.len && (cg_has(&cg_ga, rt_rank(t)) || cg_has(&cg_gb, rt_rank(t)))) {");
	g->indent++;
	cg_line(g, "uint64_t %s = 0;", u.bytes);
	/* The count is evaluated in the scope of the first source (every source sees the same value). */
	cg_tasks_if_member(g, env, S, "cg_ga.ptr[0]", NULL, red_first, &u);
	cg_line(g, "rt_reduce_to(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, &(rt_group){ cg_gb.ptr, (int)cg_gb.len }, %s);",
	        u.bytes);
	g->indent--;
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "}");
}

/* ------------------------------------------------------------ SYNCHRONIZES */

static void sync_member(cg *g, const cg_sym *env, void *ud)
{
	const ast_node *S = ud;
	cg_tasks_collect(g, env, S, "cg_ga", NULL);
	cg_line(g, "rt_barrier(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len });");
}

void cg_sync(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *S = n->u.simple.tasks;
	if (S->kind == AST_TASK_ALL) {
		cg_line(g, "rt_barrier(t, rt_world(t));");
		return;
	}
	cg_tasks_if_member(g, env, S, "rt_rank(t)", NULL, sync_member, (void *)S);
}

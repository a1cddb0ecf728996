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

#include "compiler/codegen/codegen_c.h"
#include "lang/builtins.h"

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
	const char *memo;  /* during a memoized scan: the cg_memo_ent that records the senders */
} p2p_ud;

static void recv_post(cg *g, const cg_sym *env, void *ud)
{
	const p2p_ud *u = ud;
	if (u->memo)
		cg_line(g, "cg_memo_push(t, %s, %s);", u->memo, u->peer);
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

/* ------------------------------------------------------------ MEMOIZED SCANS */

/*
 * Finding the senders that target this task walks every sender s of a
 * description like ALL TASKS t and evaluates the target description for it:
 * num_tasks evaluations on each task, each time the statement runs. The
 * result depends only on this task's number, num_tasks and the variables the two
 * descriptions read, so a statement whose descriptions are simple enough
 * keeps it per task:
 *
 *   key = { this task's number, values of the variables the descriptions read }
 *   ent = cg_memo_get(t, &cg_memo[site], nkey, key)
 *   if (ent->used)                       known key: only the senders found before
 *     for s in ent->list: if s in senders: if me in targets(s): receive
 *   else                                 first time: the full scan, unchanged,
 *     for s in senders:                  recording each sender it receives from
 *       if me in targets(s): record s; receive
 *     ent->used = (the list is short)
 *
 * The replay re-runs the membership tests for the recorded senders only, so
 * every binding, message count and error check is the scan's own code. Any
 * construct whose value might vary outside the key (counters, files,
 * random or mapping-dependent functions, task groups, comprehensions) keeps
 * the plain scan.
 */
typedef struct dep_ud {
	const cg_sym *env;
	const char *sv, *dv;                /* the names the two descriptions bind */
	const char *key[7];                 /* C variables of the key (CG_MEMO_MAXKEY less the task's number) */
	int nkey, ok;
} dep_ud;

static void dep_walk(ast_node *n, void *ud)
{
	dep_ud *u = ud;
	if (!u->ok)
		return;
	switch (n->kind) {
	case AST_INT: case AST_DECIMAL: case AST_MY_TASK: case AST_UNARY: case AST_BINARY: case AST_IFELSE:
	case AST_REAL_CAST: case AST_MESH: case AST_DIMENSION: case AST_COMPARE: case AST_PARITY:
	case AST_IN_RANGES: case AST_IN_INTERVAL: case AST_LOGIC: case AST_RANGE_ENUM: case AST_RANGE_PROG:
	case AST_TASK_EXPR: case AST_TASK_ALL: case AST_TASK_SUCH_THAT: case AST_TASK_ALL_OTHERS:
		break;
	case AST_CALL: {
		const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
		if (!b || (b->flags & (BI_RANDOM | BI_RNG | BI_FILE | BI_RUNTIME)))
			u->ok = 0;
		break;
	}
	case AST_IDENT: {
		const char *name = n->u.ident.name;
		const cg_sym *s = cg_lookup(u->env, name, CG_SYM_VAR);
		if (s) {
			/* A variable of the enclosing scope (even if a description's own variable hides it: a harmless extra key). */
			int have = 0;
			for (int i = 0; i < u->nkey; i++)
				have |= !strcmp(u->key[i], s->cname);
			if (!have && u->nkey == (int)(sizeof u->key / sizeof *u->key))
				u->ok = 0;
			else if (!have)
				u->key[u->nkey++] = s->cname;
		} else if (!((u->sv && !strcmp(name, u->sv)) || (u->dv && !strcmp(name, u->dv)) ||
		             !strcmp(name, "num_tasks"))) {
			u->ok = 0; /* a predeclared counter, or something unknown */
		}
		break;
	}
	default: u->ok = 0; break;
	}
	ast_foreach_child(n, dep_walk, ud);
}

/* Receives from each sender of S whose targets (u->targets) include this task, memoized when possible. */
static void recv_by_sender(cg *g, const cg_sym *env, const ast_node *S, const p2p_ud *u)
{
	const ast_node *D = u->targets;
	dep_ud d = {env, cg_tasks_var(S), cg_tasks_var(D), {NULL}, 0, 1};
	/* Only a walk over every task is worth keeping, and only a filtering target description. */
	if ((S->kind == AST_TASK_ALL || S->kind == AST_TASK_SUCH_THAT) &&
	    (D->kind == AST_TASK_EXPR || D->kind == AST_TASK_SUCH_THAT)) {
		dep_walk((ast_node *)S, &d);
		dep_walk((ast_node *)D, &d);
	} else {
		d.ok = 0;
	}
	if (!d.ok || cg_uses_random_fn(S) || cg_uses_random_fn(D)) {
		cg_tasks_foreach(g, env, S, u->peer, NULL, recv_from_sender, (void *)u);
		return;
	}
	unsigned site = g->memo_sites++;
	const char *key = cg_uniq(g, "key"), *ent = cg_uniq(g, "memo"), *j = cg_uniq(g, "j");
	/* This task's number is part of the key: a reassignment of processors renumbers the tasks. */
	const char *kv = "(int64_t)rt_rank(t)";
	for (int i = 0; i < d.nkey; i++)
		kv = cg_fmt(g, "%s, (int64_t)%s", kv, d.key[i]);
	cg_line(g, "{");
	g->indent++;
	cg_line(g, "const int64_t %s[%d] = { %s };", key, d.nkey + 1, kv);
	cg_line(g, "struct cg_memo_ent *const %s = cg_memo_get(t, &cg_memo[%u], %d, %s);", ent, site, d.nkey + 1, key);
	cg_line(g, "if (%s->used) {", ent);
	g->indent++;
	cg_line(g, "for (size_t %s = 0; %s < %s->list.len; %s++) {", j, j, ent, j);
	g->indent++;
	cg_line(g, "const rt_int %s = %s->list.ptr[%s];", u->peer, ent, j);
	cg_tasks_if_member(g, env, S, u->peer, NULL, recv_from_sender, (void *)u);
	g->indent--;
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "} else {");
	g->indent++;
	p2p_ud scan = *u;
	scan.memo = ent;
	cg_tasks_foreach(g, env, S, u->peer, NULL, recv_from_sender, &scan);
	cg_line(g, "%s->used = %s->list.len <= CG_MEMO_MAXLEN;", ent, ent);
	g->indent--;
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "}");
}

void cg_send(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *msg = n->u.send.msg;
	if (n->u.send.recv) {
		p2p_ud u = {n, msg, n->u.send.recv, n->u.send.dst, cg_uniq(g, "s"), !msg->u.msg.async, NULL};
		cg_line(g, "/* implicit receives, by sender */");
		recv_by_sender(g, env, n->u.send.src, &u);
	}
	p2p_ud u = {n, msg, NULL, n->u.send.dst, NULL, 0, NULL};
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
		p2p_ud u = {n, NULL, n->u.receive.msg, R, cg_uniq(g, "s"), 0, NULL};
		recv_by_sender(g, env, S, &u);
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
		cg_error(g, n->span, "ASYNCHRONOUSLY MULTICASTS is not supported: a multicast is a blocking collective (as in coNCePTuaL's own backends); drop ASYNCHRONOUSLY");
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

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
 *
 * What is known at compile time is not tested at run time: a constant count
 * of 1 posts one operation without a loop, a constant size needs no
 * negative-size check, and the send-to-self check is left out where the
 * task descriptions rule it out (ALL OTHER TASKS, or two different constant
 * tasks).
 */
#include <inttypes.h>
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

/* The tag of a message specification; *fallible = 1 if evaluating it may end the simulation. */
static const char *msg_tag(cg *g, const cg_sym *env, const ast_node *m, int *fallible)
{
	const ast_node *tag = m->u.msg.tag;
	*fallible = 0;
	if (!tag)
		return "0";
	if (tag->kind == AST_STRING)
		return cg_fmt(g, "ncsim_tag_hash(%s)", cg_cstr(g, tag->u.string.text, tag->u.string.len));
	return cg_int_ex(g, env, tag, fallible);
}

/* The bytes of a message size: a literal when known and not negative, else checked at run time. */
static const char *msg_bytes(cg *g, const cg_sym *env, const ast_node *size)
{
	int64_t k;
	if (cg_size_known(size, &k) && k >= 0)
		return cg_fmt(g, "%" PRId64, k);
	return cg_fmt(g, "rt_msg_bytes(t, %s)", cg_size(g, env, size));
}

/* `v` as it is, if plain; else a const variable of `type` named from stem holding it (evaluated here). */
static const char *once(cg *g, const char *type, const char *stem, const char *v)
{
	if (cg_plain(v))
		return v;
	const char *x = cg_uniq(g, stem);
	cg_line(g, "const %s %s = %s;", type, x, v);
	return x;
}

/* Emits `count` operations of spec m with peer `peer`: op is "send" or "recv". */
static void post(cg *g, const cg_sym *env, const ast_node *m, const char *op, const char *peer)
{
	int64_t one;
	int tag_fallible;
	const char *cnt = cg_int(g, env, m->u.msg.count), *bytes = msg_bytes(g, env, m->u.msg.size);
	const char *tag = msg_tag(g, env, m, &tag_fallible), *flags = msg_flags(g, m);
	const char *async = m->u.msg.async ? "(void)rt_i" : "rt_";
	/* One operation: the size is evaluated before the tag only if at most one of them can fail. */
	if (cg_literal(cnt, &one) && one == 1 && (!tag_fallible || cg_plain(bytes))) {
		cg_line(g, "%s%s(t, %s, %s, %s, %s);", async, op, peer, bytes, tag, flags);
		return;
	}
	cnt = once(g, "rt_int", "count", cnt);
	bytes = once(g, "uint64_t", "bytes", bytes);
	const char *i = cg_uniq(g, "i");
	cg_open(g, "for (rt_int %s = 0; %s < %s; %s++)", i, i, cnt, i);
	cg_line(g, "%s%s(t, %s, %s, %s, %s);", async, op, peer, bytes, tag, flags);
	cg_close(g);
}

/* ------------------------------------------------------------ SENDS */

typedef struct p2p_ud {
	const ast_node *stmt, *send_spec, *recv_spec, *targets;
	const char *peer;  /* C expression of the other side */
	int self_check;    /* a synchronous send to oneself would deadlock */
	const char *memo;  /* during a memoized scan: the rt_memo_ent that records the senders */
} p2p_ud;

/* 0 if this task (a member of u->targets) cannot be the sender u->peer. */
static int may_be_self(const p2p_ud *u)
{
	int64_t s, r;
	if (u->targets->kind == AST_TASK_ALL_OTHERS)
		return 0;
	return !(cg_literal(u->peer, &s) && u->targets->kind == AST_TASK_EXPR &&
	         cg_known_int(u->targets->u.task_expr.expr, &r) && r != s);
}

static void recv_post(cg *g, const cg_sym *env, const char *who, void *ud)
{
	const p2p_ud *u = ud;
	(void)who;
	if (u->memo)
		cg_line(g, "rt_memo_push(t, %s, %s);", u->memo, u->peer);
	if (u->self_check && may_be_self(u))
		cg_line(g, "if (%s == rt_rank(t)) rt_fatal(t, \"Send-to-self deadlock encountered on task %%\" PRId64, (rt_int)%s);",
		        u->peer, u->peer);
	post(g, env, u->recv_spec, "recv", u->peer);
}

/* For one sender x (bound in env): receive if this task is among its targets. */
static void recv_from_sender(cg *g, const cg_sym *env, const char *x, void *ud)
{
	p2p_ud u = *(const p2p_ud *)ud;
	u.peer = x;
	cg_tasks_if_member(g, env, u.targets, "rt_rank(t)", x, recv_post, &u);
}

static void send_post(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const p2p_ud *u = ud;
	post(g, env, u->send_spec, "send", x);
}

/* This task is a sender (bound in env): send to each target. */
static void send_to_targets(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const p2p_ud *u = ud;
	(void)x;
	cg_tasks_foreach(g, env, u->targets, "r", "rt_rank(t)", send_post, (void *)u);
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
 *   ent = rt_memo_get(t, &cg_memo, site, nkey, key)
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
		cg_tasks_foreach(g, env, S, "s", NULL, recv_from_sender, (void *)u);
		return;
	}
	unsigned site = g->memo_sites++;
	const char *key = cg_uniq(g, "key"), *ent = cg_uniq(g, "memo"), *j = cg_uniq(g, "j"), *s = cg_uniq(g, "s");
	/* This task's number is part of the key: a reassignment of processors renumbers the tasks. */
	const char *kv = "(int64_t)rt_rank(t)";
	for (int i = 0; i < d.nkey; i++)
		kv = cg_fmt(g, "%s, (int64_t)%s", kv, d.key[i]);
	cg_line(g, "const int64_t %s[%d] = { %s };", key, d.nkey + 1, kv);
	cg_line(g, "struct rt_memo_ent *const %s = rt_memo_get(t, &cg_memo, %u, %d, %s);", ent, site, d.nkey + 1, key);
	cg_line(g, "if (%s->used) {", ent);
	g->indent++;
	cg_open(g, "for (size_t %s = 0; %s < %s->list.len; %s++)", j, j, ent, j);
	cg_line(g, "const rt_int %s = %s->list.ptr[%s];", s, ent, j);
	cg_tasks_if_member(g, env, S, s, NULL, recv_from_sender, (void *)u);
	cg_close(g);
	g->indent--;
	cg_line(g, "} else {");
	g->indent++;
	p2p_ud scan = *u;
	scan.memo = ent;
	cg_tasks_foreach(g, env, S, "s", NULL, recv_from_sender, &scan);
	cg_line(g, "%s->used = %s->list.len <= RT_MEMO_MAXLEN;", ent, ent);
	g->indent--;
	cg_line(g, "}");
}

void cg_send(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *msg = n->u.send.msg;
	if (n->u.send.recv) {
		p2p_ud u = {n, msg, n->u.send.recv, n->u.send.dst, NULL, !msg->u.msg.async, NULL};
		recv_by_sender(g, env, n->u.send.src, &u);
	}
	p2p_ud u = {n, msg, NULL, n->u.send.dst, NULL, 0, NULL};
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
} rr_ud;

static void rr_post(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const rr_ud *u = ud;
	post(g, env, u->spec, "recv", x);
}

/* Receiver bound in env: receive from each sender of its scope. */
static void rr_each_sender(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const rr_ud *u = ud;
	(void)x;
	cg_tasks_foreach(g, env, u->senders, "s", NULL, rr_post, (void *)u);
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
		p2p_ud u = {n, NULL, n->u.receive.msg, R, NULL, 0, NULL};
		recv_by_sender(g, env, S, &u);
	} else {
		rr_ud u = {n->u.receive.msg, S};
		cg_tasks_if_member(g, env, R, "rt_rank(t)", NULL, rr_each_sender, &u);
	}
}

/* ------------------------------------------------------------ MULTICASTS */

static void mc_mark(cg *g, const cg_sym *env, const char *x, void *ud)
{
	(void)env;
	(void)x;
	cg_line(g, "%s = 1;", (const char *)ud);
}

/* One source s (bound in env): a broadcast among {s} and its targets, count times. */
static void mc_source(cg *g, const cg_sym *env, const char *s, void *ud)
{
	const ast_node *n = ud, *m = n->u.multicast.msg;
	const char *flag = cg_uniq(g, "member");
	int64_t one;
	cg_line(g, "int %s = %s == rt_rank(t);", flag, s);
	cg_tasks_if_member(g, env, n->u.multicast.dst, "rt_rank(t)", s, mc_mark, (void *)flag);
	cg_open(g, "if (%s)", flag);
	const char *cnt = once(g, "rt_int", "count", cg_int(g, env, m->u.msg.count));
	const char *b = once(g, "uint64_t", "bytes", msg_bytes(g, env, m->u.msg.size));
	cg_tasks_collect(g, env, n->u.multicast.dst, "cg_ga", s);
	cg_line(g, "rt_ivec_push(t, &cg_ga, %s);", s);
	cg_line(g, "ncsim_ivec_sortuniq(&cg_ga);");
	int loop = !(cg_literal(cnt, &one) && one == 1);
	cg_if(g, "cg_ga.len > 1");
	if (loop) {
		const char *i = cg_uniq(g, "i");
		cg_open(g, "for (rt_int %s = 0; %s < %s; %s++)", i, i, cnt, i);
	}
	cg_line(g, "rt_bcast(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, %s, %s);", s, b);
	if (loop)
		cg_close(g);
	cg_endif(g);
	cg_close(g);
}

void cg_multicast(cg *g, const cg_sym *env, const ast_node *n)
{
	if (n->u.multicast.msg->u.msg.async) {
		cg_error(g, n->span, "ASYNCHRONOUSLY MULTICASTS is not supported: a multicast is a blocking collective (as in coNCePTuaL's own backends); drop ASYNCHRONOUSLY");
		return;
	}
	cg_tasks_foreach(g, env, n->u.multicast.src, "s", NULL, mc_source, (void *)n);
}

/* ------------------------------------------------------------ REDUCES */

/* The bytes of a reduction of count INTEGERS (4 bytes) or DOUBLEWORDS (8): a literal when known. */
static const char *reduce_bytes(cg *g, const cg_sym *env, const ast_node *m)
{
	int per = m->u.msg.elem_type == AST_DU_DOUBLEWORDS ? 8 : 4;
	int64_t c;
	if (m->u.msg.elem_type != AST_DU_DOUBLEWORDS && m->u.msg.elem_type != AST_DU_INTEGERS)
		cg_error(g, m->span, "a reduction must be of INTEGERS or DOUBLEWORDS");
	if (cg_known_int(m->u.msg.count, &c) && ncsim_mul(c, per) >= 0)
		return cg_fmt(g, "%" PRId64, ncsim_mul(c, per));
	return cg_fmt(g, "rt_msg_bytes(t, ncsim_mul(%s, %d))", cg_int(g, env, m->u.msg.count), per);
}

/* A source (bound in env) of an all-reduce among the sources; it evaluates the count in its own scope. */
static void red_all(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud, *S = n->u.reduce.src;
	(void)x;
	if (S->kind == AST_TASK_ALL) {
		cg_line(g, "rt_allreduce(t, rt_world(t), %s);", reduce_bytes(g, env, n->u.reduce.msg));
		return;
	}
	const char *bytes = once(g, "uint64_t", "bytes", reduce_bytes(g, env, n->u.reduce.msg));
	cg_tasks_collect(g, env, S, "cg_ga", NULL);
	cg_line(g, "rt_allreduce(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, %s);", bytes);
}

static void push_gb(cg *g, const cg_sym *env, const char *x, void *ud)
{
	(void)env;
	(void)ud;
	cg_line(g, "rt_ivec_push(t, &cg_gb, %s);", x);
}

/* One sender s (bound in env): adds its targets to the receiver list cg_gb. */
static void red_targets(cg *g, const cg_sym *env, const char *s, void *ud)
{
	const ast_node *n = ud;
	cg_tasks_foreach(g, env, n->u.reduce.dst, "r", s, push_gb, NULL);
}

static void red_first(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const char *const *u = ud;
	(void)x;
	cg_line(g, "%s = %s;", u[0], reduce_bytes(g, env, (const ast_node *)u[1]));
}

void cg_reduce(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *S = n->u.reduce.src, *m = n->u.reduce.msg;
	int64_t c;
	if (!n->u.reduce.dst) {
		cg_tasks_if_member(g, env, S, "rt_rank(t)", NULL, red_all, (void *)n);
		return;
	}
	/* Sources contribute; the union of every source's targets receives. */
	cg_tasks_collect(g, env, S, "cg_ga", NULL);
	cg_line(g, "cg_gb.len = 0;");
	cg_tasks_foreach(g, env, S, "s", NULL, red_targets, (void *)n);
	cg_line(g, "ncsim_ivec_sortuniq(&cg_gb);");
	cg_open(g, "if (cg_ga.len && cg_gb.len && (ncsim_ivec_has(&cg_ga, rt_rank(t)) || ncsim_ivec_has(&cg_gb, rt_rank(t))))");
	const char *bytes;
	if (cg_known_int(m->u.msg.count, &c)) {
		bytes = reduce_bytes(g, env, m);
	} else {
		/* The count is evaluated in the scope of the first source (every source sees the same value). */
		const char *u[2] = {cg_uniq(g, "bytes"), (const char *)m};
		cg_line(g, "uint64_t %s = 0;", u[0]);
		cg_tasks_if_member(g, env, S, "cg_ga.ptr[0]", NULL, red_first, (void *)u);
		bytes = u[0];
	}
	cg_line(g, "rt_reduce_to(t, &(rt_group){ cg_ga.ptr, (int)cg_ga.len }, &(rt_group){ cg_gb.ptr, (int)cg_gb.len }, %s);",
	        bytes);
	cg_close(g);
}

/* ------------------------------------------------------------ SYNCHRONIZES */

static void sync_member(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *S = ud;
	(void)x;
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

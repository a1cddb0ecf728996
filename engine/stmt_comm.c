/*
 * stmt_comm.c - point-to-point and collective statements of the direct
 * engine (LANGUAGE.md sections 6.2, 7 and 8.1-8.6), the walks of
 * compiler/codegen/codegen_c_comm.c:
 *
 *   SENDS      for s in senders: if me in targets(s): count x receive from s
 *              if me in senders: for r in targets(me): count x send to r
 *   RECEIVES   the same walk from the side whose variables the other uses
 *   MULTICASTS for s in sources: if s is me or me in targets(s): broadcast
 *   REDUCES    contributors and the union of their targets, then one call
 *   SYNCHRONIZES  a barrier among the members
 *
 * The values a body needs from an enclosing walk (the sender, the source)
 * are kept in slots of their own. (The compiled engine also memoizes the
 * senders an implicit receive finds; that changes no call, only its cost.)
 */
#include "engine/eng_int.h"
#include "lang/builtins.h"

/* ------------------------------------------------------------ one message spec */

/* The operations of one message spec: count x send or receive. */
typedef struct post {
	const ex *count, *bytes, *tag; /* bytes: checked by rt_msg_bytes unless known */
	int64_t kbytes, ktag;          /* known values (bytes >= 0) when bytes / tag are NULL */
	unsigned flags;
	int async, recv;
} post;

static void post_compile(eng_cx *c, env_t env, const ast_node *m, int recv, post *p)
{
	const ast_node *tag = m->u.msg.tag;
	int64_t kb;
	p->count = eng_num(c, env, m->u.msg.count, 0);
	if (eng_size_known(m->u.msg.size, &kb) && kb >= 0)
		p->kbytes = kb;
	else
		p->bytes = eng_size(c, env, m->u.msg.size);
	if (tag && tag->kind == AST_STRING)
		p->ktag = ncsim_tag_hash(tag->u.string.text);
	else if (tag)
		p->tag = eng_num(c, env, tag, 0);
	p->flags = (m->u.msg.touch == AST_TOUCH_DATA ? RT_MSG_TOUCH : m->u.msg.touch == AST_TOUCH_VERIFY ? RT_MSG_VERIFY : 0) |
	           (m->u.msg.unique ? RT_MSG_UNIQUE : 0);
	p->async = m->u.msg.async;
	p->recv = recv;
}

/* count, then the size once, then per operation the tag (the C's order when both may fail). */
static void post_run(const post *p, ek *k, int64_t peer)
{
	rt_task *t = k->t;
	int64_t cnt = eng_int(p->count, k);
	uint64_t bytes = p->bytes ? rt_msg_bytes(t, eng_int(p->bytes, k)) : (uint64_t)p->kbytes;
	for (int64_t i = 0; i < cnt; i++) {
		int64_t tag = p->tag ? eng_int(p->tag, k) : p->ktag;
		if (p->recv) {
			if (p->async)
				(void)rt_irecv(t, peer, bytes, tag, p->flags);
			else
				rt_recv(t, peer, bytes, tag, p->flags);
		} else if (p->async) {
			(void)rt_isend(t, peer, bytes, tag, p->flags);
		} else {
			rt_send(t, peer, bytes, tag, p->flags);
		}
	}
}

/* A continuation that posts a spec's operations with the task it is given as the peer. */
typedef struct post_kont {
	kont k;
	post p;
	int peer_slot;  /* >= 0: the peer is this slot's value, not the argument */
	int self_check; /* a synchronous receive from oneself would deadlock */
} post_kont;

static void post_k(const kont *kk, ek *k, int64_t x)
{
	const post_kont *u = (const post_kont *)kk;
	int64_t peer = u->peer_slot >= 0 ? k->v[u->peer_slot] : x;
	if (u->self_check && peer == rt_rank(k->t))
		rt_fatal(k->t, "Send-to-self deadlock encountered on task %" PRId64, peer);
	post_run(&u->p, k, peer);
}

typedef struct post_ud {
	const ast_node *spec;
	int recv, peer_slot, self_check;
} post_ud;

static const kont *post_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const post_ud *w = ud;
	post_kont *u = eng_new(c, sizeof *u);
	(void)x_slot;
	u->k.fn = post_k;
	u->peer_slot = w->peer_slot;
	u->self_check = w->self_check;
	post_compile(c, env, w->spec, w->recv, &u->p);
	return &u->k;
}

/* ------------------------------------------------------------ walks */

/* A continuation that stores its task in a slot, then runs a description. */
typedef struct then_kont {
	kont k;
	int slot;
	const td *d;
} then_kont;

static void then_k(const kont *kk, ek *k, int64_t x)
{
	const then_kont *u = (const then_kont *)kk;
	if (u->slot >= 0)
		k->v[u->slot] = x;
	eng_td_run(u->d, k);
}

/* A then_kont storing its task in a new slot (with_slot) or nowhere. */
static then_kont *then_new(eng_cx *c, int with_slot)
{
	then_kont *u = eng_new(c, sizeof *u);
	u->k.fn = then_k;
	u->slot = with_slot ? eng_slot(c) : -1;
	return u;
}

/* The post_ud of a spec: receive or send, peer from a slot or the argument. */
static post_ud *post_ud_new(eng_cx *c, const ast_node *spec, int recv, int peer_slot, int self_check)
{
	post_ud *p = eng_new(c, sizeof *p);
	*p = (post_ud){spec, recv, peer_slot, self_check};
	return p;
}

/* For each sender s (bound): receive count x from s if this task is among its targets. */
typedef struct recv_ud {
	const ast_node *targets, *spec;
	int self_check;
} recv_ud;

static const kont *recv_from_sender(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const recv_ud *w = ud;
	then_kont *u = then_new(c, 1);
	(void)x_slot;
	u->d = eng_tasks_member(c, env, w->targets, ENG_ME, u->slot, post_mk, post_ud_new(c, w->spec, 1, u->slot, w->self_check));
	return &u->k;
}

/* This task is a sender (bound): send to each target. */
static const kont *send_to_targets(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const recv_ud *w = ud;
	then_kont *u = then_new(c, 1);
	(void)x_slot;
	u->d = eng_tasks_foreach(c, env, w->targets, u->slot, post_mk, post_ud_new(c, w->spec, 0, -1, 0));
	return &u->k;
}

/* A statement that runs descriptions one after the other. */
typedef struct walk_st {
	st s;
	const td *d[2];
} walk_st;

static void walk_run(const st *s, ek *k)
{
	const walk_st *w = (const walk_st *)s;
	for (int i = 0; i < 2; i++)
		if (w->d[i])
			eng_td_run(w->d[i], k);
}

static walk_st *walk_new(eng_cx *c)
{
	walk_st *w = eng_new(c, sizeof *w);
	w->s.run = walk_run;
	return w;
}

const st *eng_send(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *msg = n->u.send.msg;
	walk_st *w = walk_new(c);
	if (n->u.send.recv) {
		recv_ud *r = eng_new(c, sizeof *r);
		*r = (recv_ud){n->u.send.dst, n->u.send.recv, !msg->u.msg.async};
		w->d[0] = eng_tasks_foreach(c, env, n->u.send.src, -1, recv_from_sender, r);
	}
	recv_ud *s = eng_new(c, sizeof *s);
	*s = (recv_ud){n->u.send.dst, msg, 0};
	w->d[1] = eng_tasks_member(c, env, n->u.send.src, ENG_ME, -1, send_to_targets, s);
	return &w->s;
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

/* The receiver (bound): receive from each sender of its scope. */
static const kont *rr_each_sender(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const recv_ud *w = ud;
	then_kont *u = then_new(c, 0);
	(void)x_slot;
	u->d = eng_tasks_foreach(c, env, w->targets, -1, post_mk, post_ud_new(c, w->spec, 1, -1, 0));
	return &u->k;
}

const st *eng_receive(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *R = n->u.receive.tasks, *S = n->u.receive.from;
	walk_st *w = walk_new(c);
	int s_to_r;
	/* Which side's variables the other side may use (section 3.5), as the C generator decides. */
	if (R->kind == AST_TASK_ALL_OTHERS)
		s_to_r = 1;
	else if (!eng_tasks_var(S))
		s_to_r = 0;
	else if (!eng_tasks_var(R))
		s_to_r = 1;
	else
		s_to_r = uses_name(R, eng_tasks_var(S)) && !uses_name(S, eng_tasks_var(R));
	recv_ud *r = eng_new(c, sizeof *r);
	if (s_to_r) {
		*r = (recv_ud){R, n->u.receive.msg, 0};
		w->d[0] = eng_tasks_foreach(c, env, S, -1, recv_from_sender, r);
	} else {
		*r = (recv_ud){S, n->u.receive.msg, 0};
		w->d[0] = eng_tasks_member(c, env, R, ENG_ME, -1, rr_each_sender, r);
	}
	return &w->s;
}

/* ------------------------------------------------------------ MULTICASTS */

typedef struct mc_kont {
	kont k;
	int s_slot, flag;
	const td *mark;    /* is this task among s's targets? */
	const ex *count, *bytes;
	int64_t kbytes;
	const td *collect; /* s's targets into ga */
} mc_kont;

static void mark_k(const kont *kk, ek *k, int64_t x)
{
	(void)x;
	k->v[((const then_kont *)kk)->slot] = 1;
}

static void mc_source_run(const kont *kk, ek *k, int64_t s)
{
	const mc_kont *u = (const mc_kont *)kk;
	rt_task *t = k->t;
	k->v[u->s_slot] = s;
	k->v[u->flag] = s == rt_rank(t);
	eng_td_run(u->mark, k);
	if (!k->v[u->flag])
		return;
	int64_t cnt = eng_int(u->count, k);
	uint64_t b = u->bytes ? rt_msg_bytes(t, eng_int(u->bytes, k)) : (uint64_t)u->kbytes;
	eng_td_run(u->collect, k);
	rt_ivec_push(t, &k->ga, s);
	ncsim_ivec_sortuniq(&k->ga);
	if (k->ga.len > 1)
		for (int64_t i = 0; i < cnt; i++)
			rt_bcast(t, &(rt_group){k->ga.ptr, (int)k->ga.len}, s, b);
}

static const kont *mark_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	then_kont *u = eng_new(c, sizeof *u);
	(void)env;
	(void)x_slot;
	u->k.fn = mark_k;
	u->slot = *(const int *)ud;
	return &u->k;
}

static const kont *mc_source(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud, *m = n->u.multicast.msg;
	mc_kont *u = eng_new(c, sizeof *u);
	int64_t kb;
	(void)x_slot;
	u->k.fn = mc_source_run;
	u->s_slot = eng_slot(c);
	u->flag = eng_slot(c);
	int *flag = eng_new(c, sizeof *flag);
	*flag = u->flag;
	u->mark = eng_tasks_member(c, env, n->u.multicast.dst, ENG_ME, u->s_slot, mark_mk, flag);
	u->count = eng_num(c, env, m->u.msg.count, 0);
	if (eng_size_known(m->u.msg.size, &kb) && kb >= 0)
		u->kbytes = kb;
	else
		u->bytes = eng_size(c, env, m->u.msg.size);
	u->collect = eng_tasks_collect(c, env, n->u.multicast.dst, 0, u->s_slot);
	return &u->k;
}

const st *eng_multicast(eng_cx *c, env_t env, const ast_node *n)
{
	walk_st *w = walk_new(c);
	if (n->u.multicast.msg->u.msg.async) {
		eng_error(c, n->span,
		          "ASYNCHRONOUSLY MULTICASTS is not supported: a multicast is a blocking collective (as in "
		          "coNCePTuaL's own backends); drop ASYNCHRONOUSLY");
		return &w->s;
	}
	w->d[0] = eng_tasks_foreach(c, env, n->u.multicast.src, -1, mc_source, (void *)n);
	return &w->s;
}

/* ------------------------------------------------------------ REDUCES */

/* The bytes of a reduction of count INTEGERS (4 bytes) or DOUBLEWORDS (8). */
typedef struct rbytes {
	const ex *count; /* NULL: known */
	int64_t per, known;
} rbytes;

static void rbytes_compile(eng_cx *c, env_t env, const ast_node *m, rbytes *r)
{
	int64_t cv;
	r->per = m->u.msg.elem_type == AST_DU_DOUBLEWORDS ? 8 : 4;
	if (m->u.msg.elem_type != AST_DU_DOUBLEWORDS && m->u.msg.elem_type != AST_DU_INTEGERS)
		eng_error(c, m->span, "a reduction must be of INTEGERS or DOUBLEWORDS");
	if (eng_known_int(m->u.msg.count, &cv) && ncsim_mul(cv, r->per) >= 0)
		r->known = ncsim_mul(cv, r->per);
	else
		r->count = eng_num(c, env, m->u.msg.count, 0);
}

static uint64_t rbytes_run(const rbytes *r, ek *k)
{
	if (!r->count)
		return (uint64_t)r->known;
	return rt_msg_bytes(k->t, ncsim_mul(eng_int(r->count, k), r->per));
}

/* A source of an all-reduce among the sources (it evaluates the count in its own scope). */
typedef struct red_kont {
	kont k;
	rbytes b;
	const td *collect; /* NULL: ALL TASKS, the world */
	int slot;          /* red_first: where the bytes go */
} red_kont;

static void red_all_k(const kont *kk, ek *k, int64_t x)
{
	const red_kont *u = (const red_kont *)kk;
	(void)x;
	uint64_t bytes = rbytes_run(&u->b, k);
	if (!u->collect) {
		rt_allreduce(k->t, rt_world(k->t), bytes);
		return;
	}
	eng_td_run(u->collect, k);
	rt_allreduce(k->t, &(rt_group){k->ga.ptr, (int)k->ga.len}, bytes);
}

static const kont *red_all(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	red_kont *u = eng_new(c, sizeof *u);
	(void)x_slot;
	u->k.fn = red_all_k;
	rbytes_compile(c, env, n->u.reduce.msg, &u->b);
	if (n->u.reduce.src->kind != AST_TASK_ALL)
		u->collect = eng_tasks_collect(c, env, n->u.reduce.src, 0, -1);
	return &u->k;
}

static void red_first_k(const kont *kk, ek *k, int64_t x)
{
	const red_kont *u = (const red_kont *)kk;
	(void)x;
	k->v[u->slot] = (int64_t)rbytes_run(&u->b, k);
}

typedef struct first_ud {
	const ast_node *n;
	int slot;
} first_ud;

static const kont *red_first(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const first_ud *f = ud;
	red_kont *u = eng_new(c, sizeof *u);
	(void)x_slot;
	u->k.fn = red_first_k;
	rbytes_compile(c, env, f->n->u.reduce.msg, &u->b);
	u->slot = f->slot;
	return &u->k;
}

/* One sender s (bound): adds its targets to gb. */
static const kont *red_targets(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	then_kont *u = then_new(c, 1);
	(void)x_slot;
	u->d = eng_tasks_push(c, env, n->u.reduce.dst, 1, u->slot);
	return &u->k;
}

typedef struct reduce_st {
	st s;
	const td *senders, *targets, *first;
	rbytes b;            /* count known: the bytes */
	int first_slot, bytes_slot;
} reduce_st;

static void reduce_run(const st *s, ek *k)
{
	const reduce_st *r = (const reduce_st *)s;
	rt_task *t = k->t;
	eng_td_run(r->senders, k);
	k->gb.len = 0;
	eng_td_run(r->targets, k);
	ncsim_ivec_sortuniq(&k->gb);
	int64_t me = rt_rank(t);
	if (!(k->ga.len && k->gb.len && (ncsim_ivec_has(&k->ga, me) || ncsim_ivec_has(&k->gb, me))))
		return;
	uint64_t bytes;
	if (r->first) {
		k->v[r->bytes_slot] = 0;
		k->v[r->first_slot] = k->ga.ptr[0];
		eng_td_run(r->first, k);
		bytes = (uint64_t)k->v[r->bytes_slot];
	} else {
		bytes = rbytes_run(&r->b, k);
	}
	rt_reduce_to(t, &(rt_group){k->ga.ptr, (int)k->ga.len}, &(rt_group){k->gb.ptr, (int)k->gb.len}, bytes);
}

const st *eng_reduce(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *S = n->u.reduce.src, *m = n->u.reduce.msg;
	int64_t cv;
	if (!n->u.reduce.dst) {
		walk_st *w = walk_new(c);
		w->d[0] = eng_tasks_member(c, env, S, ENG_ME, -1, red_all, (void *)n);
		return &w->s;
	}
	reduce_st *r = eng_new(c, sizeof *r);
	r->s.run = reduce_run;
	r->senders = eng_tasks_collect(c, env, S, 0, -1);
	r->targets = eng_tasks_foreach(c, env, S, -1, red_targets, (void *)n);
	if (eng_known_int(m->u.msg.count, &cv)) {
		rbytes_compile(c, env, m, &r->b);
	} else {
		/* The count in the scope of the first source (every source sees the same value). */
		r->first_slot = eng_slot(c);
		r->bytes_slot = eng_slot(c);
		first_ud *f = eng_new(c, sizeof *f);
		*f = (first_ud){n, r->bytes_slot};
		r->first = eng_tasks_member(c, env, S, r->first_slot, -1, red_first, f);
	}
	return &r->s;
}

/* ------------------------------------------------------------ SYNCHRONIZES */

typedef struct sync_kont {
	kont k;
	const td *collect;
} sync_kont;

static void sync_k(const kont *kk, ek *k, int64_t x)
{
	(void)x;
	eng_td_run(((const sync_kont *)kk)->collect, k);
	rt_barrier(k->t, &(rt_group){k->ga.ptr, (int)k->ga.len});
}

static const kont *sync_member(eng_cx *c, env_t env, int x_slot, void *ud)
{
	sync_kont *u = eng_new(c, sizeof *u);
	(void)x_slot;
	u->k.fn = sync_k;
	u->collect = eng_tasks_collect(c, env, ud, 0, -1);
	return &u->k;
}

static void barrier_world(const st *s, ek *k)
{
	(void)s;
	rt_barrier(k->t, rt_world(k->t));
}

const st *eng_sync(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *S = n->u.simple.tasks;
	if (S->kind == AST_TASK_ALL) {
		st *s = eng_new(c, sizeof *s);
		s->run = barrier_world;
		return s;
	}
	walk_st *w = walk_new(c);
	w->d[0] = eng_tasks_member(c, env, S, ENG_ME, -1, sync_member, (void *)S);
	return &w->s;
}

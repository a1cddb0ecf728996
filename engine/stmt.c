/*
 * stmt.c - the statement dispatcher and the control statements of the
 * direct engine: sequences, FOR EACH, FOR n REPETITIONS (with warmups), FOR
 * a time (the calibrated timed loop), LET and IF (LANGUAGE.md sections 8.16
 * and 9.6), as compiler/codegen/codegen_c.c and codegen_c_loops.c write
 * them. Every statement but a sequence records its source line (rt_line)
 * before it runs, as the generated C does.
 */
#include "engine/eng_int.h"

/* ------------------------------------------------------------ sequences */

typedef struct seq_st {
	st s;
	const st **items;
	uint32_t n;
} seq_st;

static void seq_run(const st *s, ek *k)
{
	const seq_st *q = (const seq_st *)s;
	for (uint32_t i = 0; i < q->n; i++)
		st_run(q->items[i], k);
}

static void nop_run(const st *s, ek *k)
{
	(void)s;
	(void)k;
}

const st *eng_nop(eng_cx *c, const ast_node *n)
{
	st *s = eng_new(c, sizeof *s);
	s->run = nop_run;
	s->line = n ? eng_lineno(c, n->span) : 0;
	return s;
}

/* ------------------------------------------------------------ FOR EACH */

typedef struct each_st {
	st s;
	rloop *loop;
} each_st;

static void each_run(const st *s, ek *k)
{
	eng_ranges_run(((const each_st *)s)->loop, k);
}

static st *for_each(eng_cx *c, env_t env, const ast_node *n)
{
	each_st *e = eng_new(c, sizeof *e);
	int slot;
	e->s.run = each_run;
	e->loop = eng_ranges(c, env, &n->u.for_each.ranges, &slot);
	env = eng_bind_slot(c, env, n->u.for_each.var->u.ident.name, slot);
	eng_ranges_set_body(e->loop, eng_kont_stmt(c, eng_stmt(c, env, n->u.for_each.body)));
	return &e->s;
}

/* ------------------------------------------------------------ FOR n REPETITIONS */

typedef struct reps_st {
	st s;
	const ex *count, *warmup; /* warmup NULL: none, or known (then `w`) */
	int64_t w;                /* the known warmup count (>= 0) */
	int sync, simple;         /* simple: no warmup phase at all */
	const st *body;
} reps_st;

static void reps_run(const st *s, ek *k)
{
	const reps_st *r = (const reps_st *)s;
	int64_t cnt = eng_int(r->count, k);
	if (r->simple) {
		for (int64_t it = 0; it < cnt; it++)
			st_run(r->body, k);
		return;
	}
	int64_t w = r->warmup ? ncsim_nonneg(eng_int(r->warmup, k)) : r->w;
	if (w > 0)
		rt_suppress_begin(k->t);
	for (int64_t it = -w;; it++) {
		if (it == 0) {
			if (r->sync)
				rt_barrier(k->t, rt_world(k->t));
			if (w > 0)
				rt_suppress_end(k->t);
		}
		if (it >= cnt)
			break;
		st_run(r->body, k);
	}
}

static st *for_reps(eng_cx *c, env_t env, const ast_node *n)
{
	reps_st *r = eng_new(c, sizeof *r);
	int64_t kw;
	r->s.run = reps_run;
	r->count = eng_num(c, env, n->u.for_reps.count, 0);
	r->sync = n->u.for_reps.sync;
	if (n->u.for_reps.warmup && eng_known_int(n->u.for_reps.warmup, &kw))
		r->w = kw < 0 ? 0 : kw;
	else if (n->u.for_reps.warmup)
		r->warmup = eng_num(c, env, n->u.for_reps.warmup, 0);
	r->simple = !n->u.for_reps.warmup || (!r->warmup && r->w == 0 && !r->sync);
	r->body = eng_stmt(c, env, n->u.for_reps.body);
	return &r->s;
}

/* ------------------------------------------------------------ FOR a time */

typedef struct time_st {
	st s;
	const ex *dur, *warm; /* picoseconds (floating point); warm NULL: 1 s */
	const st *body;
} time_st;

/*
 * The C backend's algorithm in simulated time (codegen_c_loops.c): suppressed
 * calibration batches of 1, 10, 100, ... iterations, each closed by a
 * barrier and a global minimum, then `iters` measured iterations with the
 * ones after the deadline rolled back.
 */
static void time_run(const st *s, ek *k)
{
	const time_st *f = (const time_st *)s;
	rt_task *t = k->t;
	const double dur = eng_flt(f->dur, k);
	const double warm = f->warm ? eng_flt(f->warm, k) : 1e12;
	rt_int batch = 1, left = 1, iters = 0;
	int calibrating = 1, expired = 0;
	ncsim_time_t start, deadline = 0;
	if (k->timed)
		rt_fatal(t, "timed loops may not be nested");
	k->timed = 1;
	rt_suppress_begin(t);
	rt_barrier(t, rt_world(t));
	start = rt_now(t);
	for (;;) {
		if (left == 0) {
			if (!calibrating)
				break;
			rt_barrier(t, rt_world(t));
			const double tmin = rt_allreduce_value(t, rt_world(t), (double)(rt_now(t) - start), RT_OP_MIN);
			if (tmin <= 0.0 && batch >= 1000000)
				rt_fatal(t, "the timed loop of line %d takes no simulated time", f->s.line);
			const double est = tmin > 0.0 ? dur * (double)batch / tmin : 1.0;
			iters = est < 1.0 ? 1 : est > 1e15 ? (rt_int)1e15 : (rt_int)est;
			if (batch == 1 || (tmin < dur / 10.0 && tmin < warm)) {
				batch *= 10;
				left = batch;
				start = rt_now(t);
				continue;
			}
			calibrating = 0;
			rt_suppress_end(t);
			deadline = rt_now(t) + ncsim_ps(dur);
			left = iters;
			continue;
		}
		left--;
		const rt_int pending = rt_pending(t);
		st_run(f->body, k);
		if (rt_pending(t) != pending)
			rt_fatal(t, "The FOR loop in source-code line %d leaks %" PRId64 " asynchronous send(s)/receive(s) per iteration",
			         f->s.line, rt_pending(t) - pending);
		if (!calibrating && !expired && rt_now(t) >= deadline) {
			expired = 1;
			rt_suppress_begin(t);
		}
	}
	if (expired)
		rt_suppress_end(t);
	k->timed = 0;
}

static st *for_time(eng_cx *c, env_t env, const ast_node *n)
{
	time_st *f = eng_new(c, sizeof *f);
	f->s.run = time_run;
	f->dur = eng_duration(c, env, n->u.for_time.duration);
	f->warm = n->u.for_time.warmup ? eng_duration(c, env, n->u.for_time.warmup) : NULL;
	f->body = eng_stmt(c, env, n->u.for_time.body);
	return &f->s;
}

/* ------------------------------------------------------------ LET */

typedef struct bind {
	int slot;
	int random; /* A RANDOM TASK: a = lo, b = hi, c = excluded (NULL: RT_NO_EXCLUDE) */
	const ex *a, *b, *c;
} bind;

typedef struct let_st {
	st s;
	bind *binds;
	uint32_t n;
	const st *body;
} let_st;

static void let_run(const st *s, ek *k)
{
	const let_st *l = (const let_st *)s;
	for (uint32_t i = 0; i < l->n; i++) {
		const bind *b = &l->binds[i];
		if (!b->random) {
			k->v[b->slot] = eng_int(b->a, k);
			continue;
		}
		/* rt_random_task_clamped(t, lo, hi, excl): arguments last to first */
		int64_t excl = b->c ? eng_int(b->c, k) : RT_NO_EXCLUDE, hi = eng_int(b->b, k), lo = eng_int(b->a, k);
		k->v[b->slot] = rt_random_task_clamped(k->t, lo, hi, excl);
	}
	st_run(l->body, k);
}

/* num_tasks + d (wrapping), as ncsim_add(num_tasks, d) / ncsim_sub. */
static int64_t ntasks_plus(const ex *x, ek *k) { return ncsim_add(k->num_tasks, x->iv); }
static int64_t plus_const(const ex *x, ek *k) { return ncsim_add(eng_int(x->a, k), x->iv); }

static const ex *offset(eng_cx *c, const ex *a, int64_t d)
{
	ex *x = eng_new(c, sizeof *x);
	x->fn.i = a ? plus_const : ntasks_plus;
	x->a = a;
	x->iv = d;
	return x;
}

/* A RANDOM TASK binding (section 8.16): bounds and exclusion as the C spells them. */
static void random_task(eng_cx *c, env_t env, const ast_node *r, bind *b)
{
	const ast_node *a = r->u.random_task.a;
	b->random = 1;
	b->a = eng_lit_i(c, 0);
	b->b = offset(c, NULL, -1);
	c->uses_random = 1;
	switch (r->u.random_task.cons) {
	case AST_RT_OTHER_THAN: b->c = eng_num(c, env, a, 0); break;
	case AST_RT_LESS_THAN: b->b = offset(c, eng_num(c, env, a, 0), -1); break;
	case AST_RT_GREATER_THAN: b->a = offset(c, eng_num(c, env, a, 0), 1); break;
	case AST_RT_IN_INTERVAL:
		b->a = eng_num(c, env, a, 0);
		b->b = eng_num(c, env, r->u.random_task.b, 0);
		break;
	default: break;
	}
	if (r->u.random_task.but_not)
		b->c = eng_num(c, env, r->u.random_task.but_not, 0);
}

static st *let(eng_cx *c, env_t env, const ast_node *n)
{
	let_st *l = eng_new(c, sizeof *l);
	const ast_list *bl = &n->u.let.bindings;
	l->s.run = let_run;
	l->binds = eng_new(c, (bl->len ? bl->len : 1) * sizeof *l->binds);
	for (uint32_t i = 0; i < bl->len; i++) {
		const ast_node *b = bl->items[i], *v = b->u.binding.value;
		const char *name = b->u.binding.var->u.ident.name;
		if (ast_is_task_desc(v->kind)) {
			env = eng_bind_group(c, env, name, v, env);
			continue;
		}
		bind *x = &l->binds[l->n++];
		if (v->kind == AST_RANDOM_TASK)
			random_task(c, env, v, x);
		else
			x->a = eng_num(c, env, v, 0);
		env = eng_bind(c, env, name, &x->slot);
	}
	l->body = eng_stmt(c, env, n->u.let.body);
	return &l->s;
}

/* ------------------------------------------------------------ IF */

typedef struct if_st {
	st s;
	const ex *cond;
	const st *then, *otherwise;
} if_st;

static void if_run(const st *s, ek *k)
{
	const if_st *f = (const if_st *)s;
	if (eng_rel(f->cond, k))
		st_run(f->then, k);
	else if (f->otherwise)
		st_run(f->otherwise, k);
}

static st *if_(eng_cx *c, env_t env, const ast_node *n)
{
	if_st *f = eng_new(c, sizeof *f);
	f->s.run = if_run;
	f->cond = eng_relx(c, env, n->u.if_.cond, 0);
	f->then = eng_stmt(c, env, n->u.if_.then);
	f->otherwise = n->u.if_.otherwise ? eng_stmt(c, env, n->u.if_.otherwise) : NULL;
	return &f->s;
}

/* ------------------------------------------------------------ dispatch */

static const st *compile(eng_cx *c, env_t env, const ast_node *n)
{
	switch (n->kind) {
	case AST_FOR_EACH: return for_each(c, env, n);
	case AST_FOR_REPS: return for_reps(c, env, n);
	case AST_FOR_TIME: return for_time(c, env, n);
	case AST_LET: return let(c, env, n);
	case AST_IF: return if_(c, env, n);
	case AST_SEND: return eng_send(c, env, n);
	case AST_RECEIVE: return eng_receive(c, env, n);
	case AST_MULTICAST: return eng_multicast(c, env, n);
	case AST_REDUCE: return eng_reduce(c, env, n);
	case AST_SYNC: return eng_sync(c, env, n);
	case AST_TRAFFIC_MESSAGES:
	case AST_TRAFFIC_FLOWS:
	case AST_TRAFFIC_HOROVOD:
	case AST_TRAFFIC_REPLAY: return eng_traffic(c, env, n);
	default: break;
	}
	const st *s = eng_simple(c, env, n);
	if (!s) {
		eng_error(c, n->span, "internal error: no code for a %s statement", ast_kind_name(n->kind));
		s = eng_nop(c, n);
	}
	return s;
}

const st *eng_stmt(eng_cx *c, env_t env, const ast_node *n)
{
	if (n->kind == AST_SEQ) {
		seq_st *q = eng_new(c, sizeof *q);
		q->s.run = seq_run;
		q->n = n->u.seq.items.len;
		q->items = eng_new(c, (q->n ? q->n : 1) * sizeof *q->items);
		for (uint32_t i = 0; i < q->n; i++)
			q->items[i] = eng_stmt(c, env, n->u.seq.items.items[i]);
		return &q->s;
	}
	/* The line is known before the statement's parts compile (they may be shared, never rewritten). */
	int line = eng_lineno(c, n->span);
	st *s = (st *)compile(c, env, n);
	s->line = line;
	return s;
}

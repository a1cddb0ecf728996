/*
 * stmt_misc.c - the simple statements other than communication in the
 * direct engine: computation, memory touching, logs and outputs, counters,
 * assertions, backend calls, task remapping and file I/O (LANGUAGE.md
 * sections 8.7-8.15 and 14.2), as compiler/codegen/codegen_c_misc.c writes
 * them. The acting tasks are tested for this task (ALL TASKS without a
 * variable needs no test), then the body runs.
 */
#include <stdlib.h>

#include "engine/eng_int.h"

/* A simple statement: the test of its acting tasks around its body. */
typedef struct simple_st {
	st s;
	const td *member; /* NULL: every task acts */
	const kont *body;
} simple_st;

static void simple_run(const st *s, ek *k)
{
	const simple_st *u = (const simple_st *)s;
	if (u->member)
		eng_td_run(u->member, k);
	else
		kont_run(u->body, k, rt_rank(k->t));
}

/* The statement with its body compiled by mk for the tasks `tasks`. */
static const st *as_member(eng_cx *c, env_t env, const ast_node *tasks, eng_body_fn mk, void *ud)
{
	simple_st *u = eng_new(c, sizeof *u);
	u->s.run = simple_run;
	if (tasks->kind == AST_TASK_ALL && !tasks->u.task_all.var)
		u->body = mk(c, env, -1, ud);
	else
		u->member = eng_tasks_member(c, env, tasks, ENG_ME, -1, mk, ud);
	return &u->s;
}

/* A body with up to four expressions and the node it comes from. */
typedef struct body {
	kont k;
	const ast_node *n;
	const ex *a, *b, *c, *d;
	int64_t iv, jv;
	unsigned first;      /* LOG: its first column; TOUCH: the word size */
	eng_backend *backend;
	const ex **items;    /* OUTPUT, BACKEND: expression items (NULL for text items) */
} body;

static body *body_new(eng_cx *c, const ast_node *n, void (*fn)(const kont *, ek *, int64_t))
{
	body *b = eng_new(c, sizeof *b);
	b->k.fn = fn;
	b->n = n;
	return b;
}

/* ------------------------------------------------------------ fixed calls */

static void await_k(const kont *kk, ek *k, int64_t x) { (void)kk; (void)x; rt_waitall(k->t); }
static void reset_k(const kont *kk, ek *k, int64_t x) { (void)kk; (void)x; rt_counters_reset(k->t); }
static void store_k(const kont *kk, ek *k, int64_t x) { (void)kk; (void)x; rt_counters_store(k->t); }
static void restore_k(const kont *kk, ek *k, int64_t x) { (void)kk; (void)x; rt_counters_restore(k->t); }
static void flush_k(const kont *kk, ek *k, int64_t x) { (void)kk; (void)x; rt_log_flush(k->t); }
static const kont await_kont = {await_k}, reset_kont = {reset_k}, store_kont = {store_k},
		  restore_kont = {restore_k}, flush_kont = {flush_k};

/* A body without operands: the continuation itself. */
static const kont *fixed_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	(void)c;
	(void)env;
	(void)x_slot;
	return ud;
}

/* ------------------------------------------------------------ COMPUTES, SLEEPS */

static void delay_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	(void)x;
	ncsim_time_t ps = (ncsim_time_t)eng_int(b->a, k);
	if (b->iv)
		rt_compute(k->t, ps);
	else
		rt_sleep(k->t, ps);
}

static const kont *delay_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	body *b = body_new(c, n, delay_k);
	(void)x_slot;
	b->a = eng_duration_ps(c, env, n->u.delay.duration);
	b->iv = n->kind == AST_COMPUTE;
	return &b->k;
}

/* ------------------------------------------------------------ TOUCHES */

/*
 * rt_touch(t, word, nonneg(acc)): with a word count acc = words * repeat,
 * else repeat * (region / nonzero(stride)); the C evaluates call arguments
 * last to first, so stride, region, then repeat (or repeat, then words).
 */
static void touch_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	int64_t acc;
	(void)x;
	if (b->d) {
		int64_t rep = b->c ? eng_int(b->c, k) : 1;
		acc = ncsim_mul(eng_int(b->d, k), rep); /* the region is not used */
	} else {
		int64_t stride = b->b ? eng_int(b->b, k) : b->iv;
		int64_t region = eng_int(b->a, k);
		int64_t rep = b->c ? eng_int(b->c, k) : 1;
		acc = ncsim_mul(rep, ncsim_div_i(region, ncsim_nonzero(stride), &k->e));
	}
	if (k->e.failed)
		eng_fail(k);
	rt_touch(k->t, (uint64_t)b->first, (uint64_t)ncsim_nonneg(acc));
}

static const kont *touch_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	body *b = body_new(c, n, touch_k);
	(void)x_slot;
	b->first = (unsigned)(n->u.touch_region.words ? eng_unit_bytes(n->u.touch_region.word_type) : 4);
	b->iv = b->first;
	b->a = eng_size(c, env, n->u.touch_region.region);
	b->c = n->u.touch_region.repeat ? eng_num(c, env, n->u.touch_region.repeat, 0) : NULL;
	if (n->u.touch_region.words)
		b->d = eng_num(c, env, n->u.touch_region.words, 0);
	else if (n->u.touch_region.stride_kind == AST_STRIDE_EXPLICIT)
		b->b = eng_size(c, env, n->u.touch_region.stride);
	return &b->k;
}

/* ------------------------------------------------------------ LOGS, OUTPUTS */

/* A STRING or THE VALUE OF "key" item: the text. */
static const char *text_item(ek *k, const ast_node *n)
{
	if (n->kind == AST_VALUE_OF)
		return rt_value_of(k->t, n->u.value_of.str->u.string.text);
	return n->u.string.text;
}

static void log_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	const ast_list *cols = &b->n->u.log.columns;
	(void)x;
	if (rt_suppressed(k->t))
		return;
	for (uint32_t i = 0; i < cols->len; i++) {
		const ast_node *col = cols->items[i];
		/* rt_log(t, col, heading, agg, param, value): the value first, then the parameter */
		double v = eng_flt(b->items[2 * i], k);
		double param = b->items[2 * i + 1] ? eng_flt(b->items[2 * i + 1], k) : 0.0;
		rt_log(k->t, b->first + i, text_item(k, col->u.log_column.heading), (enum rt_agg)col->u.log_column.agg, param,
		       v);
	}
}

/* ast_agg and rt_agg list the aggregates in the same order. */
_Static_assert((int)AST_AGG_HISTOGRAM == (int)RT_AGG_HISTOGRAM && (int)AST_AGG_STDEV == (int)RT_AGG_STDDEV,
               "ast_agg and rt_agg must match");

static const kont *log_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	body *u = ud;
	const ast_list *cols = &u->n->u.log.columns;
	body *b = body_new(c, u->n, log_k);
	(void)x_slot;
	b->first = u->first;
	b->items = eng_new(c, (2 * cols->len + 1) * sizeof *b->items);
	for (uint32_t i = 0; i < cols->len; i++) {
		const ast_node *col = cols->items[i];
		b->items[2 * i + 1] = col->u.log_column.percentile ? eng_num(c, env, col->u.log_column.percentile, 1) : NULL;
		b->items[2 * i] = eng_num(c, env, col->u.log_column.expr, 1);
	}
	return &b->k;
}

static void output_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	const ast_list *items = &b->n->u.output.items;
	(void)x;
	if (rt_suppressed(k->t))
		return;
	if (items->len)
		k->ob.len = 0;
	for (uint32_t i = 0; i < items->len; i++) {
		if (b->items[i])
			rt_text_putg(k->t, &k->ob, eng_flt(b->items[i], k));
		else
			rt_text_puts(k->t, &k->ob, text_item(k, items->items[i]));
	}
	rt_output(k->t, items->len ? k->ob.ptr : "");
}

/* The expression items of an OUTPUTS or BACKEND EXECUTES list, floating point (NULL for text items). */
static const ex **expr_items(eng_cx *c, env_t env, const ast_list *items)
{
	const ex **v = eng_new(c, (items->len + 1) * sizeof *v);
	for (uint32_t i = 0; i < items->len; i++) {
		const ast_node *it = items->items[i];
		if (it->kind != AST_STRING && it->kind != AST_VALUE_OF)
			v[i] = eng_num(c, env, it, 1);
	}
	return v;
}

static const kont *output_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	body *b = body_new(c, n, output_k);
	(void)x_slot;
	b->items = expr_items(c, env, &n->u.output.items);
	return &b->k;
}

/* ------------------------------------------------------------ BACKEND EXECUTES */

static void backend_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	const ast_list *items = &b->n->u.output.items;
	eng_bval v[64] = {{0, 0.0, NULL}}, *vals = items->len <= 64 ? v : xcalloc(items->len, sizeof *vals);
	(void)x;
	/* The values last to first, as the arguments of the C call they stand in. */
	for (uint32_t i = items->len; i-- > 0;) {
		const ast_node *it = items->items[i];
		vals[i] = (eng_bval){0, 0.0, NULL};
		if (b->items[i])
			vals[i].f = eng_flt(b->items[i], k);
		else if (it->kind == AST_VALUE_OF)
			vals[i] = (eng_bval){1, 0.0, text_item(k, it)};
	}
	eng_backend_call(b->backend, k->t, vals);
	if (vals != v)
		free(vals);
}

static const kont *backend_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	const ast_list *items = &n->u.output.items;
	body *b = body_new(c, n, backend_k);
	eng_bitem *bi = xcalloc(items->len ? items->len : 1, sizeof *bi);
	char *err = NULL;
	int bad = -1;
	(void)x_slot;
	b->items = expr_items(c, env, items);
	for (uint32_t i = 0; i < items->len; i++) {
		const ast_node *it = items->items[i];
		bi[i].is_expr = it->kind != AST_STRING;
		bi[i].is_text = it->kind == AST_VALUE_OF; /* a const char * in the compiled C */
		bi[i].text = it->kind == AST_STRING ? it->u.string.text : NULL;
	}
	b->backend = eng_backend_prepare(bi, (int)items->len, c->o->plugins, c->o->allow_backend_code, &err, &bad);
	if (!b->backend)
		eng_error(c, bad >= 0 && bad < (int)items->len ? items->items[bad]->span : n->span, "%s",
		          err ? err : "this BACKEND EXECUTES cannot be run");
	else
		eng_keep_backend(c, b->backend);
	free(err);
	free(bi);
	return &b->k;
}

/* ------------------------------------------------------------ ARE ASSIGNED TO PROCESSOR */

static void assign_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	int64_t p = b->a ? eng_int(b->a, k) : rt_random_task(k->t, 0, ncsim_sub(k->num_tasks, 1), RT_NO_EXCLUDE);
	rt_assign_processor(k->t, x, p);
}

static const kont *assign_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	body *b = body_new(c, n, assign_k);
	(void)x_slot;
	if (n->u.assign_proc.proc)
		b->a = eng_num(c, env, n->u.assign_proc.proc, 0);
	else
		c->uses_random = 1;
	return &b->k;
}

typedef struct walk1_st {
	st s;
	const td *d;
} walk1_st;

static void walk1_run(const st *s, ek *k)
{
	eng_td_run(((const walk1_st *)s)->d, k);
}

/* ------------------------------------------------------------ file I/O */

/* An I/O size or offset: known (iv >= 0) or checked by rt_io_bytes. */
static uint64_t io_bytes(ek *k, const ex *x, int64_t known, const char *what)
{
	return x ? rt_io_bytes(k->t, eng_int(x, k), what) : (uint64_t)known;
}

static void io_k(const kont *kk, ek *k, int64_t x)
{
	const body *b = (const body *)kk;
	const ast_node *n = b->n;
	static const unsigned modes[] = {RT_IO_RDWR, RT_IO_READ, RT_IO_WRITE, RT_IO_RDWR};
	(void)x;
	switch (n->kind) {
	case AST_IO_OPEN: rt_io_open(k->t, eng_int(b->a, k), modes[n->u.io_open.mode]); return;
	case AST_IO_CLOSE: rt_io_close(k->t, eng_int(b->a, k)); return;
	default: {
		/* rt_io_read(t, file, size, offset, async): arguments last to first */
		int64_t off = n->u.io.offset ? (int64_t)io_bytes(k, b->c, b->iv, "a file offset") : RT_IO_SEQUENTIAL;
		uint64_t size = io_bytes(k, b->b, b->jv, "an I/O size");
		int64_t file = b->a ? eng_int(b->a, k) : 0;
		if (n->kind == AST_IO_READ)
			(void)rt_io_read(k->t, file, size, off, n->u.io.async);
		else
			(void)rt_io_write(k->t, file, size, off, n->u.io.async);
		return;
	}
	}
}

static const kont *io_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	body *b = body_new(c, n, io_k);
	int64_t kb;
	(void)x_slot;
	if (n->kind == AST_IO_OPEN || n->kind == AST_IO_CLOSE) {
		b->a = eng_num(c, env, n->kind == AST_IO_OPEN ? n->u.io_open.file : n->u.io_close.file, 0);
		return &b->k;
	}
	b->a = n->u.io.file ? eng_num(c, env, n->u.io.file, 0) : NULL;
	if (eng_size_known(n->u.io.size, &kb) && kb >= 0)
		b->jv = kb;
	else
		b->b = eng_size(c, env, n->u.io.size);
	if (n->u.io.offset && eng_size_known(n->u.io.offset, &kb) && kb >= 0)
		b->iv = kb;
	else if (n->u.io.offset)
		b->c = eng_size(c, env, n->u.io.offset);
	return &b->k;
}

/* ------------------------------------------------------------ ASSERT, dispatch */

typedef struct assert_st {
	st s;
	const ex *cond;
	const char *msg;
} assert_st;

static void assert_run(const st *s, ek *k)
{
	const assert_st *a = (const assert_st *)s;
	if (!eng_rel(a->cond, k))
		rt_fatal(k->t, "Assertion failure: %s", a->msg);
}

const st *eng_simple(eng_cx *c, env_t env, const ast_node *n)
{
	switch (n->kind) {
	case AST_COMPUTE:
	case AST_SLEEP: return as_member(c, env, n->u.delay.tasks, delay_mk, (void *)n);
	case AST_AWAIT: return as_member(c, env, n->u.simple.tasks, fixed_mk, (void *)&await_kont);
	case AST_RESET_COUNTERS: return as_member(c, env, n->u.simple.tasks, fixed_mk, (void *)&reset_kont);
	case AST_STORE_COUNTERS: return as_member(c, env, n->u.simple.tasks, fixed_mk, (void *)&store_kont);
	case AST_RESTORE_COUNTERS: return as_member(c, env, n->u.simple.tasks, fixed_mk, (void *)&restore_kont);
	case AST_COMPUTE_AGGREGATES:
		c->uses_log = 1;
		return as_member(c, env, n->u.simple.tasks, fixed_mk, (void *)&flush_kont);
	case AST_TOUCH_REGION: return as_member(c, env, n->u.touch_region.tasks, touch_mk, (void *)n);
	case AST_TOUCH_BUFFERS: return eng_nop(c, n); /* message buffers hold no data in a simulation */
	case AST_LOG: {
		body *u = body_new(c, n, NULL);
		u->first = (unsigned)c->logcol;
		c->logcol += (int)n->u.log.columns.len;
		c->uses_log = 1;
		return as_member(c, env, n->u.log.tasks, log_mk, u);
	}
	case AST_OUTPUT: return as_member(c, env, n->u.output.tasks, output_mk, (void *)n);
	case AST_BACKEND_EXEC: return as_member(c, env, n->u.output.tasks, backend_mk, (void *)n);
	case AST_ASSERT: {
		assert_st *a = eng_new(c, sizeof *a);
		a->s.run = assert_run;
		a->cond = eng_relx(c, env, n->u.assert_.cond, 0);
		a->msg = n->u.assert_.message->u.string.text;
		return &a->s;
	}
	case AST_ASSIGN_PROC: {
		/* Executed by every task, so that every copy of the map stays the same (section 8.14). */
		walk1_st *w = eng_new(c, sizeof *w);
		w->s.run = walk1_run;
		w->d = eng_tasks_foreach(c, env, n->u.assign_proc.tasks, -1, assign_mk, (void *)n);
		return &w->s;
	}
	case AST_IO_OPEN: return as_member(c, env, n->u.io_open.tasks, io_mk, (void *)n);
	case AST_IO_CLOSE: return as_member(c, env, n->u.io_close.tasks, io_mk, (void *)n);
	case AST_IO_READ:
	case AST_IO_WRITE: return as_member(c, env, n->u.io.tasks, io_mk, (void *)n);
	default: return NULL;
	}
}

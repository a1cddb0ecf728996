/*
 * parsehelp.c - AST construction and desugaring for the grammar actions.
 */
#include <stdlib.h>
#include <string.h>

#include "grammar/parsehelp.h"

#define INH_ALL_SEND (AST_INH_COUNT | AST_INH_SIZE | AST_INH_UNIQUE | AST_INH_ALIGN | \
                      AST_INH_TOUCH | AST_INH_TAG | AST_INH_BUFFER | AST_INH_ASYNC)
#define INH_ALL_REDUCE (AST_INH_COUNT | AST_INH_TYPE | AST_INH_UNIQUE | AST_INH_ALIGN | \
                        AST_INH_TOUCH | AST_INH_TAG | AST_INH_BUFFER)

src_span ncp_rhs_span(const src_span *rhs, int n)
{
	if (n == 0) {
		/* An empty rule sits just after the previous symbol. */
		src_span s = rhs[0];
		s.first = rhs[0].last + 1;
		return s;
	}
	src_span s = rhs[1];
	for (int i = 2; i <= n; i++)
		s = span_union(s, rhs[i]);
	if (span_empty(s)) {
		s.first = rhs[1].first;
		s.last = s.first - 1;
	}
	return s;
}

ast_list ph_list1(parse_ctx *pc, ast_node *n)
{
	ast_list l = { 0 };
	ast_list_push(pc->arena, &l, n);
	return l;
}

ast_list ph_empty_list(void)
{
	ast_list l = { 0 };
	return l;
}

ast_list ph_rev(ast_list l)
{
	ast_list_reverse(&l);
	return l;
}

pt_part ph_part(ast_node *a, ast_node *b, int kind)
{
	pt_part p = { a, b, kind };
	return p;
}

static int is_empty(const ast_node *n)
{
	return n->kind == AST_SEQ && n->u.seq.items.len == 0;
}

/* Copies l without its empty statements (in place: the list is ours). */
static void drop_empty(ast_list *l)
{
	uint32_t j = 0;
	for (uint32_t i = 0; i < l->len; i++)
		if (!is_empty(l->items[i]))
			l->items[j++] = l->items[i];
	l->len = j;
}

ast_node *ph_program(parse_ctx *pc, src_span loc, ast_list *headers, ast_list *stmts)
{
	ast_node *n = NEW(PROGRAM, loc);
	if (headers) {
		n->u.program.headers = *headers;
		ast_list_reverse(&n->u.program.headers);
	}
	if (stmts) {
		n->u.program.stmts = *stmts;
		ast_list_reverse(&n->u.program.stmts);
		drop_empty(&n->u.program.stmts);
	}
	ph_check_nesting(pc, n);
	return n;
}

/* One node waiting on the nesting walk, with the levels it sits at. */
typedef struct nest_item {
	ast_node *n;
	uint32_t stmts;   /* statement levels, itself included */
	uint32_t exprs;   /* expression levels below the innermost statement */
} nest_item;

typedef struct nest_walk {
	VEC(nest_item) stack;
	nest_item at;     /* the node whose children are being pushed */
} nest_walk;

static void nest_push(ast_node *child, void *ud)
{
	nest_walk *w = ud;
	nest_item it = { child, w->at.stmts, w->at.exprs };
	if (ast_is_stmt(child->kind)) {
		it.stmts++;
		it.exprs = 0;
	} else {
		it.exprs += 1u + child->parens;
	}
	VEC_PUSH(&w->stack, it);
}

/*
 * An explicit stack rather than recursion, because this walk is what makes
 * recursion safe for every later pass.  Children are pushed, then reversed,
 * so that the first node found too deep is the first in source order; the
 * walk stops there (one error per top-level statement).
 */
static void check_top(parse_ctx *pc, ast_node *top, nest_walk *w)
{
	w->stack.len = 0;
	w->at = (nest_item){ NULL, 0, 0 };
	nest_push(top, w);
	while (w->stack.len) {
		w->at = w->stack.ptr[--w->stack.len];
		int stmt = w->at.stmts > FE_MAX_STMT_DEPTH;
		if (stmt || w->at.exprs > FE_MAX_EXPR_DEPTH) {
			diag_error(pc->diag, w->at.n->span, "%s nested too deeply (more than %d levels)",
			           stmt ? "statements" : "expression", stmt ? FE_MAX_STMT_DEPTH : FE_MAX_EXPR_DEPTH);
			return;
		}
		size_t from = w->stack.len;
		ast_foreach_child(w->at.n, nest_push, w);
		for (size_t i = from, j = w->stack.len; i + 1 < j; i++, j--) {
			nest_item t = w->stack.ptr[i];
			w->stack.ptr[i] = w->stack.ptr[j - 1];
			w->stack.ptr[j - 1] = t;
		}
	}
}

void ph_check_nesting(parse_ctx *pc, ast_node *prog)
{
	nest_walk w = { 0 };
	ast_list *lists[] = { &prog->u.program.headers, &prog->u.program.stmts };
	for (size_t k = 0; k < 2; k++)
		for (uint32_t i = 0; i < lists[k]->len; i++)
			check_top(pc, lists[k]->items[i], &w);
	VEC_FREE(&w.stack);
}

ast_node *ph_paren(ast_node *n, src_span loc)
{
	n->span = loc;
	if (n->parens < UINT16_MAX)
		n->parens++;
	return n;
}

ast_node *ph_seq(parse_ctx *pc, src_span loc, ast_list *items)
{
	ast_node *n = NEW(SEQ, loc);
	n->u.seq.items = *items;
	ast_list_reverse(&n->u.seq.items);
	drop_empty(&n->u.seq.items);
	return n;
}

ast_node *ph_drop_if_empty_body(parse_ctx *pc, ast_node *n, ast_node *body)
{
	return is_empty(body) ? NEW(SEQ, n->span) : n;
}

ast_node *ph_for_reps(parse_ctx *pc, src_span loc, ast_node *count, ast_node *warmup, int sync, ast_node *body)
{
	/* A synchronizing loop is kept even when empty: its barrier still runs. */
	if (!sync && is_empty(body))
		return NEW(SEQ, loc);
	ast_node *n = NEW(FOR_REPS, loc);
	n->u.for_reps.count = count;
	n->u.for_reps.warmup = warmup;
	n->u.for_reps.sync = sync;
	n->u.for_reps.body = body;
	return n;
}

ast_node *ph_for_time(parse_ctx *pc, src_span loc, ast_node *dur, ast_node *warmup, int sync, ast_node *body)
{
	ast_node *n = NEW(FOR_TIME, loc);
	n->u.for_time.duration = dur;
	n->u.for_time.warmup = warmup;
	n->u.for_time.sync = sync;
	n->u.for_time.body = body;
	return n;
}

ast_node *ph_if(parse_ctx *pc, src_span loc, ast_node *cond, ast_node *then, ast_node *otherwise)
{
	if (otherwise && is_empty(otherwise))
		otherwise = NULL;
	if (!otherwise && is_empty(then))
		return NEW(SEQ, loc);
	ast_node *n = NEW(IF, loc);
	n->u.if_.cond = cond;
	n->u.if_.then = then;
	n->u.if_.otherwise = otherwise;
	return n;
}

ast_node *ph_duration(parse_ctx *pc, src_span loc, ast_node *value, int unit)
{
	ast_node *n = NEW(DURATION, loc);
	n->u.duration.value = value;
	n->u.duration.unit = (ast_time_unit)unit;
	return n;
}

ast_node *ph_size(parse_ctx *pc, src_span loc, ast_node *value, int unit)
{
	ast_node *n = NEW(DATA_SIZE, loc);
	n->u.size.value = value;
	n->u.size.unit = (ast_data_unit)unit;
	return n;
}

ast_node *ph_int(parse_ctx *pc, src_span loc, int64_t v)
{
	ast_node *n = NEW(INT, loc);
	n->u.int_.value = v;
	return n;
}

ast_node *ph_unit_size(parse_ctx *pc, src_span loc, int unit)
{
	ast_node *one = ph_int(pc, loc, 1);
	one->implicit = 1;
	ast_node *n = ph_size(pc, loc, one, unit);
	n->u.size.sized = 1;
	return n;
}

ast_node *ph_zero_size(parse_ctx *pc, src_span loc)
{
	src_span at = loc;
	at.first = loc.last + 1;   /* empty span just after loc */
	ast_node *zero = ph_int(pc, at, 0);
	zero->implicit = 1;
	ast_node *n = ph_size(pc, at, zero, AST_DU_BYTES);
	n->implicit = 1;
	return n;
}

ast_node *ph_spec(parse_ctx *pc, src_span loc, ast_node *count, int unique, ast_node *size,
                  const pt_part *align, int touch, const pt_part *tag, const pt_part *buf)
{
	ast_node *n = NEW(MSG_SPEC, loc);
	unsigned omitted = 0;
	n->u.msg.count = count;
	n->u.msg.size = size;
	n->u.msg.elem_type = AST_DU_BYTES;
	if (unique < 0)
		omitted |= AST_INH_UNIQUE;
	else
		n->u.msg.unique = unique;
	if (align->kind < 0) {
		omitted |= AST_INH_ALIGN;
	} else {
		n->u.msg.align_kind = (ast_align)align->kind;
		n->u.msg.align = align->a;
	}
	if (touch < 0)
		omitted |= AST_INH_TOUCH;
	else
		n->u.msg.touch = (ast_touch)touch;
	if (tag->kind == 0)
		omitted |= AST_INH_TAG;
	else
		n->u.msg.tag = tag->a;
	if (buf->kind == 0) {
		omitted |= AST_INH_BUFFER;
	} else {
		n->u.msg.buffer = buf->a;   /* NULL for THE DEFAULT BUFFER */
		n->u.msg.offset = buf->b;
	}
	n->u.msg.inherited = omitted;
	return n;
}

void ph_mark_async(ast_node **n, int opt_async)
{
	if (opt_async < 0)
		(*n)->u.msg.inherited |= AST_INH_ASYNC;
	else
		(*n)->u.msg.async = opt_async;
}

int ph_recv_spec_is_empty(const ast_node *n)
{
	/* Rule 151 with every part omitted is the only empty-spanned spec. */
	return span_empty(n->span);
}

/* Fills the fields of dst marked inherited with copies of src's. */
static void inherit(parse_ctx *pc, ast_node *dst, const ast_node *src)
{
	unsigned m = dst->u.msg.inherited;
	const typeof(src->u.msg) *s = &src->u.msg;
	typeof(dst->u.msg) *d = &dst->u.msg;
	if (m & AST_INH_COUNT)
		d->count = ast_clone(pc->arena, s->count);
	if (m & AST_INH_SIZE)
		d->size = ast_clone(pc->arena, s->size);
	if (m & AST_INH_TYPE)
		d->elem_type = s->elem_type;
	if (m & AST_INH_UNIQUE)
		d->unique = s->unique;
	if (m & AST_INH_ALIGN) {
		d->align_kind = s->align_kind;
		d->align = ast_clone(pc->arena, s->align);
	}
	if (m & AST_INH_TOUCH)
		d->touch = s->touch;
	if (m & AST_INH_TAG)
		d->tag = ast_clone(pc->arena, s->tag);
	if (m & AST_INH_BUFFER) {
		d->buffer = ast_clone(pc->arena, s->buffer);
		d->offset = ast_clone(pc->arena, s->offset);
	}
	if (m & AST_INH_ASYNC)
		d->async = s->async;
}

ast_node *ph_send(parse_ctx *pc, src_span loc, ast_node *src, int async, ast_node *msg,
                  int unsusp, ast_node *dst, ast_node *recv, src_span recv_loc)
{
	ast_node *n = NEW(SEND, loc);
	msg->u.msg.async = async == 1;
	n->u.send.src = src;
	n->u.send.msg = msg;
	n->u.send.dst = dst;
	n->u.send.unsuspecting = unsusp;
	if (!unsusp) {
		if (recv) {
			n->u.send.who_receives = 1;
			recv->span = recv_loc;
		} else {
			/* The implicit receive copies every attribute of the send. */
			recv = NEW(MSG_SPEC, msg->span);
			recv->implicit = 1;
			recv->u.msg.inherited = INH_ALL_SEND;
		}
		inherit(pc, recv, msg);
		n->u.send.recv = recv;
	}
	return n;
}

ast_node *ph_reduce(parse_ctx *pc, src_span loc, ast_node *src, ast_node *msg, ast_node *dst,
                    ast_node *result, int result_explicit)
{
	ast_node *n = NEW(REDUCE, loc);
	msg->u.msg.inherited = 0;   /* a source spec: omitted parts take defaults */
	if (!result) {
		result = NEW(MSG_SPEC, msg->span);
		result->implicit = 1;
		result->u.msg.inherited = INH_ALL_REDUCE;
	}
	inherit(pc, result, msg);
	n->u.reduce.src = src;
	n->u.reduce.msg = msg;
	n->u.reduce.dst = dst;
	n->u.reduce.result = result;
	n->u.reduce.result_explicit = result_explicit;
	return n;
}

ast_node *ph_delay(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks, ast_node *dur)
{
	ast_node *n = ast_new(pc->arena, k, loc);
	n->u.delay.tasks = tasks;
	n->u.delay.duration = dur;
	return n;
}

ast_node *ph_simple(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks)
{
	ast_node *n = ast_new(pc->arena, k, loc);
	n->u.simple.tasks = tasks;
	return n;
}

ast_node *ph_touch(parse_ctx *pc, src_span loc, ast_node *tasks, ast_node *words, int word_type,
                   ast_node *region, ast_node *repeat, pt_part stride)
{
	ast_node *n = NEW(TOUCH_REGION, loc);
	n->u.touch_region.tasks = tasks;
	n->u.touch_region.words = words;
	n->u.touch_region.word_type = (ast_data_unit)word_type;
	n->u.touch_region.region = region;
	n->u.touch_region.repeat = repeat;
	n->u.touch_region.stride_kind = (ast_stride)stride.kind;
	n->u.touch_region.stride = stride.a;
	return n;
}

ast_node *ph_touch_buffers(parse_ctx *pc, src_span loc, ast_node *tasks, ast_bufsel which, ast_node *buf)
{
	ast_node *n = NEW(TOUCH_BUFFERS, loc);
	n->u.touch_buffers.tasks = tasks;
	n->u.touch_buffers.which = which;
	n->u.touch_buffers.buffer = buf;
	return n;
}

ast_node *ph_io(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks, int async,
                ast_node *size, ast_node *file, ast_node *offset)
{
	ast_node *n = ast_new(pc->arena, k, loc);
	n->u.io.tasks = tasks;
	n->u.io.async = async == 1;
	n->u.io.size = size;
	n->u.io.file = file;
	n->u.io.offset = offset;
	return n;
}

ast_node *ph_logic(parse_ctx *pc, src_span loc, ast_logicop op, ast_node *l, ast_node *r)
{
	ast_node *n = NEW(LOGIC, loc);
	n->u.logic.op = op;
	n->u.logic.lhs = l;
	n->u.logic.rhs = r;
	return n;
}

ast_node *ph_compare(parse_ctx *pc, src_span loc, ast_cmpop op, ast_node *l, ast_node *r)
{
	ast_node *n = NEW(COMPARE, loc);
	n->u.compare.op = op;
	n->u.compare.lhs = l;
	n->u.compare.rhs = r;
	return n;
}

ast_node *ph_binary(parse_ctx *pc, src_span loc, ast_binop op, ast_node *l, ast_node *r)
{
	ast_node *n = NEW(BINARY, loc);
	n->u.binary.op = op;
	n->u.binary.lhs = l;
	n->u.binary.rhs = r;
	return n;
}

ast_node *ph_unary(parse_ctx *pc, src_span loc, ast_unop op, ast_node *e)
{
	if (e->kind == AST_INT) {
		/* Fold like the reference parser; unsigned arithmetic wraps
		 * without undefined behaviour for INT64_MIN. */
		uint64_t v = (uint64_t)e->u.int_.value;
		if (op == AST_UOP_NEG)
			v = 0 - v;
		else if (op == AST_UOP_NOT)
			v = ~v;
		e->u.int_.value = (int64_t)v;
		e->span = loc;
		return e;
	}
	if (e->kind == AST_DECIMAL && op != AST_UOP_NOT) {
		if (op == AST_UOP_NEG)
			e->u.decimal.value = -e->u.decimal.value;
		e->span = loc;
		return e;
	}
	ast_node *n = NEW(UNARY, loc);
	n->u.unary.op = op;
	n->u.unary.operand = e;
	return n;
}

ast_node *ph_interval(parse_ctx *pc, src_span loc, int negated, ast_node *e, ast_node *lo, ast_node *hi)
{
	ast_node *n = NEW(IN_INTERVAL, loc);
	n->u.in_interval.negated = negated;
	n->u.in_interval.operand = e;
	n->u.in_interval.lo = lo;
	n->u.in_interval.hi = hi;
	diag_warning(pc->diag, loc, "\"is in [a,b]\" is deprecated; please use \"is in {a,...,b}\" instead");
	return n;
}

ast_node *ph_in_ranges(parse_ctx *pc, src_span loc, int negated, ast_node *e, ast_list ranges)
{
	ast_node *n = NEW(IN_RANGES, loc);
	n->u.in_ranges.negated = negated;
	n->u.in_ranges.operand = e;
	n->u.in_ranges.ranges = ranges;
	return n;
}

ast_node *ph_mesh(parse_ctx *pc, src_span loc, ast_meshfn fn, ast_list dims, ast_node *task,
                  const ast_list *offsets, ast_node *other)
{
	ast_node *n = NEW(MESH, loc);
	n->u.mesh.fn = fn;
	n->u.mesh.dims = dims;
	n->u.mesh.task = task;
	if (offsets)
		n->u.mesh.offsets = *offsets;
	n->u.mesh.other = other;
	return n;
}

ast_node *ph_file_data(parse_ctx *pc, src_span loc, int is_static, ast_node *a1, ast_node *a2,
                       ast_node *a3, ast_node *a4, ast_node *a5)
{
	ast_node *n = NEW(FILE_DATA, loc);
	ast_node *args[5] = { a1, a2, a3, a4, a5 };
	n->u.file_data.is_static = is_static;
	for (int i = 0; i < 5 && args[i]; i++)
		ast_list_push(pc->arena, &n->u.file_data.args, args[i]);
	return n;
}

ast_node *ph_anon_tasks(parse_ctx *pc, src_span loc, src_span kw, src_span rl, ast_list ranges)
{
	const char *name = fe_intern(pc->fe, AST_ANON_TASK_VAR, strlen(AST_ANON_TASK_VAR));
	src_span at = kw;
	at.first = kw.last + 1;    /* the variable is written nowhere */
	ast_node *var = NEW(IDENT, at);
	var->implicit = 1;
	var->u.ident.name = name;
	ast_node *use = NEW(IDENT, at);
	use->implicit = 1;
	use->u.ident.name = name;
	ast_node *cond = ph_in_ranges(pc, rl, 0, use, ranges);
	cond->implicit = 1;
	ast_node *n = NEW(TASK_SUCH_THAT, loc);
	n->u.such_that.var = var;
	n->u.such_that.cond = cond;
	n->u.such_that.anonymous = 1;
	return n;
}

ast_node *ph_comp(parse_ctx *pc, src_span loc, ast_node *inner, ast_node *gen, ast_node *where)
{
	if (inner) {
		inner->span = loc;
		ast_list_push(pc->arena, &inner->u.range_comp.gens, gen);   /* backwards */
		return inner;
	}
	ast_node *n = NEW(RANGE_COMP, loc);
	ast_list_push(pc->arena, &n->u.range_comp.gens, gen);
	n->u.range_comp.where = where;
	return n;
}

ast_node *ph_gen(parse_ctx *pc, src_span loc, ast_node *var, ast_list ranges)
{
	ast_node *n = NEW(GENERATOR, loc);
	n->u.generator.var = var;
	n->u.generator.ranges = ranges;
	return n;
}

ast_node *ph_binding(parse_ctx *pc, src_span loc, ast_node *var, ast_node *value)
{
	ast_node *n = NEW(BINDING, loc);
	n->u.binding.var = var;
	n->u.binding.value = value;
	return n;
}

ast_node *ph_random_task(parse_ctx *pc, src_span loc, ast_randcons c, ast_node *a, ast_node *b, ast_node *but_not)
{
	ast_node *n = NEW(RANDOM_TASK, loc);
	n->u.random_task.cons = c;
	n->u.random_task.a = a;
	n->u.random_task.b = b;
	n->u.random_task.but_not = but_not;
	return n;
}

ast_node *ph_column(parse_ctx *pc, src_span loc, ast_agg agg, ast_node *pct, ast_node *expr)
{
	ast_node *n = NEW(LOG_COLUMN, loc);
	n->u.log_column.agg = agg;
	n->u.log_column.percentile = pct;
	n->u.log_column.expr = expr;
	return n;
}

ast_list ph_agg_columns(parse_ctx *pc, src_span loc, ast_list funcs, ast_node *expr)
{
	for (uint32_t i = 0; i < funcs.len; i++) {
		ast_node *c = funcs.items[i];
		c->span = loc;
		c->u.log_column.expr = i ? ast_clone(pc->arena, expr) : expr;
		c->u.log_column.split = i > 0;
	}
	return funcs;
}

ast_list ph_columns_heading(parse_ctx *pc, src_span loc, ast_list cols, ast_node *heading)
{
	for (uint32_t i = 0; i < cols.len; i++) {
		ast_node *c = cols.items[i];
		c->span = loc;
		c->u.log_column.heading = i ? ast_clone(pc->arena, heading) : heading;
	}
	return cols;
}

ast_node *ph_dest(parse_ctx *pc, src_span loc, ast_dist d, ast_node *mean, ast_node *dev)
{
	ast_node *n = NEW(DEST_DIST, loc);
	n->u.dest_dist.dist = d;
	n->u.dest_dist.mean = mean;
	n->u.dest_dist.deviation = dev;
	return n;
}

ast_node *ph_hv(parse_ctx *pc, src_span loc, ast_hvparam p, ast_node *value)
{
	ast_node *n = NEW(HOROVOD_PARAM, loc);
	n->u.hv_param.param = p;
	n->u.hv_param.value = value;
	return n;
}

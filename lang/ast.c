/*
 * ast.c - AST construction helpers, name tables and the generic child walk.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"

#define NAME_X_(id, name) name,
static const char *const kind_names[] = { AST_KINDS(NAME_X_) };
static const char *const binop_names[] = { AST_BINOPS(NAME_X_) };
static const char *const unop_names[] = { AST_UNOPS(NAME_X_) };
static const char *const cmpop_names[] = { AST_CMPOPS(NAME_X_) };
static const char *const logicop_names[] = { AST_LOGICOPS(NAME_X_) };
static const char *const func_names[] = { AST_FUNCS(NAME_X_) };
static const char *const meshfn_names[] = { AST_MESHFUNCS(NAME_X_) };
static const char *const dunit_names[] = { AST_DATA_UNITS(NAME_X_) };
static const char *const tunit_names[] = { AST_TIME_UNITS(NAME_X_) };
static const char *const agg_names[] = { AST_AGGS(NAME_X_) };
static const char *const randcons_names[] = { AST_RANDCONS(NAME_X_) };
static const char *const dist_names[] = { AST_DISTS(NAME_X_) };
static const char *const hvparam_names[] = { AST_HVPARAMS(NAME_X_) };
#undef NAME_X_

#define LOOKUP(tab, i) ((unsigned)(i) < sizeof tab / sizeof tab[0] ? tab[i] : "?")
const char *ast_kind_name(ast_kind k) { return LOOKUP(kind_names, k); }
const char *ast_binop_name(ast_binop op) { return LOOKUP(binop_names, op); }
const char *ast_unop_name(ast_unop op) { return LOOKUP(unop_names, op); }
const char *ast_cmpop_name(ast_cmpop op) { return LOOKUP(cmpop_names, op); }
const char *ast_logicop_name(ast_logicop op) { return LOOKUP(logicop_names, op); }
const char *ast_func_name(ast_func fn) { return LOOKUP(func_names, fn); }
const char *ast_meshfn_name(ast_meshfn fn) { return LOOKUP(meshfn_names, fn); }
const char *ast_data_unit_name(ast_data_unit u) { return LOOKUP(dunit_names, u); }
const char *ast_time_unit_name(ast_time_unit u) { return LOOKUP(tunit_names, u); }
const char *ast_agg_name(ast_agg a) { return LOOKUP(agg_names, a); }
const char *ast_randcons_name(ast_randcons c) { return LOOKUP(randcons_names, c); }
const char *ast_dist_name(ast_dist d) { return LOOKUP(dist_names, d); }
const char *ast_hvparam_name(ast_hvparam p) { return LOOKUP(hvparam_names, p); }

uint64_t ast_data_unit_bytes(ast_data_unit u)
{
	switch (u) {
	case AST_DU_BYTES: return 1;
	case AST_DU_KILOBYTES: return UINT64_C(1) << 10;
	case AST_DU_MEGABYTES: return UINT64_C(1) << 20;
	case AST_DU_GIGABYTES: return UINT64_C(1) << 30;
	case AST_DU_HALFWORDS: return 2;
	case AST_DU_WORDS: return 4;
	case AST_DU_DOUBLEWORDS: return 8;
	case AST_DU_QUADWORDS: return 16;
	default: return 0;   /* BITS, INTEGERS, PAGES: see the contract in ast.h */
	}
}

uint64_t ast_time_unit_ps(ast_time_unit u)
{
	static const uint64_t ps[AST_TIME_UNIT_COUNT] = {
		[AST_TU_NANOSECONDS] = UINT64_C(1000),
		[AST_TU_CYCLES] = UINT64_C(1000),
		[AST_TU_MICROSECONDS] = UINT64_C(1000000),
		[AST_TU_MILLISECONDS] = UINT64_C(1000000000),
		[AST_TU_SECONDS] = UINT64_C(1000000000000),
		[AST_TU_MINUTES] = UINT64_C(60000000000000),
		[AST_TU_HOURS] = UINT64_C(3600000000000000),
		[AST_TU_DAYS] = UINT64_C(86400000000000000),
	};
	return (unsigned)u < AST_TIME_UNIT_COUNT ? ps[u] : 0;
}

int ast_data_unit_is_type(ast_data_unit u)
{
	return u == AST_DU_BYTES || u == AST_DU_HALFWORDS || u == AST_DU_WORDS ||
	       u == AST_DU_INTEGERS || u == AST_DU_DOUBLEWORDS || u == AST_DU_QUADWORDS ||
	       u == AST_DU_PAGES;
}

ast_node *ast_new(arena *a, ast_kind k, src_span sp)
{
	ast_node *n = arena_alloc(a, sizeof *n);
	n->kind = k;
	n->span = sp;
	return n;
}

void ast_list_push(arena *a, ast_list *l, ast_node *n)
{
	if (l->len == l->cap) {
		/* Arena blocks cannot grow in place; the old array is simply left
		 * behind, which costs at most as much again as the final array. */
		uint32_t nc = l->cap ? l->cap * 2 : 4;
		ast_node **items = arena_alloc(a, nc * sizeof *items);
		if (l->len)
			memcpy(items, l->items, l->len * sizeof *items);
		l->items = items;
		l->cap = nc;
	}
	l->items[l->len++] = n;
}

void ast_list_reverse(ast_list *l)
{
	for (uint32_t i = 0, j = l->len; i + 1 < j; i++, j--) {
		ast_node *t = l->items[i];
		l->items[i] = l->items[j - 1];
		l->items[j - 1] = t;
	}
}

int ast_is_stmt(ast_kind k) { return k >= AST_SEQ && k <= AST_TRAFFIC_REPLAY; }
int ast_is_task_desc(ast_kind k) { return k >= AST_TASK_EXPR && k <= AST_TASK_GROUP; }
int ast_is_rel(ast_kind k) { return k >= AST_COMPARE && k <= AST_LOGIC; }

ast_node *ast_stmt_tasks(const ast_node *n)
{
	switch (n->kind) {
	case AST_SEND: return n->u.send.src;
	case AST_MULTICAST: return n->u.multicast.src;
	case AST_RECEIVE: return n->u.receive.tasks;
	case AST_REDUCE: return n->u.reduce.src;
	case AST_COMPUTE: case AST_SLEEP: return n->u.delay.tasks;
	case AST_AWAIT: case AST_SYNC: case AST_COMPUTE_AGGREGATES:
	case AST_RESET_COUNTERS: case AST_STORE_COUNTERS: case AST_RESTORE_COUNTERS:
		return n->u.simple.tasks;
	case AST_TOUCH_REGION: return n->u.touch_region.tasks;
	case AST_TOUCH_BUFFERS: return n->u.touch_buffers.tasks;
	case AST_LOG: return n->u.log.tasks;
	case AST_OUTPUT: case AST_BACKEND_EXEC: return n->u.output.tasks;
	case AST_ASSIGN_PROC: return n->u.assign_proc.tasks;
	case AST_IO_OPEN: return n->u.io_open.tasks;
	case AST_IO_CLOSE: return n->u.io_close.tasks;
	case AST_IO_READ: case AST_IO_WRITE: return n->u.io.tasks;
	case AST_TRAFFIC_MESSAGES: return n->u.traffic_messages.tasks;
	case AST_TRAFFIC_FLOWS: return n->u.traffic_flows.tasks;
	case AST_TRAFFIC_HOROVOD: return n->u.horovod.tasks;
	case AST_TRAFFIC_REPLAY: return n->u.replay.tasks;
	default: return NULL;
	}
}

/*
 * The one place that knows where each kind keeps its children: every other
 * generic operation (foreach, clone) is built on it.  Slots are visited in
 * source order; a list is handed over whole so clone can copy its array.
 */
typedef struct child_ops {
	void (*node)(ast_node **slot, void *ud);
	void (*list)(ast_list *l, void *ud);
	void *ud;
} child_ops;

static void walk_slots(ast_node *n, const child_ops *o)
{
#define C(f) do { if (n->u.f) o->node(&n->u.f, o->ud); } while (0)
#define L(f) o->list(&n->u.f, o->ud)
	switch (n->kind) {
	case AST_PROGRAM: L(program.headers); L(program.stmts); break;
	case AST_VERSION_DECL: C(version_decl.version); break;
	case AST_PARAM_DECL:
		C(param_decl.var); C(param_decl.description); C(param_decl.long_opt);
		C(param_decl.short_opt); C(param_decl.def); break;
	case AST_BACKEND_DECL: C(backend_decl.text); break;
	case AST_SEQ: L(seq.items); break;
	case AST_FOR_EACH: C(for_each.var); L(for_each.ranges); C(for_each.body); break;
	case AST_FOR_REPS: C(for_reps.count); C(for_reps.warmup); C(for_reps.body); break;
	case AST_FOR_TIME: C(for_time.duration); C(for_time.warmup); C(for_time.body); break;
	case AST_LET: L(let.bindings); C(let.body); break;
	case AST_IF: C(if_.cond); C(if_.then); C(if_.otherwise); break;
	case AST_SEND: C(send.src); C(send.msg); C(send.dst); C(send.recv); break;
	case AST_MULTICAST: C(multicast.src); C(multicast.msg); C(multicast.dst); break;
	case AST_RECEIVE: C(receive.tasks); C(receive.msg); C(receive.from); break;
	case AST_REDUCE: C(reduce.src); C(reduce.msg); C(reduce.dst); C(reduce.result); break;
	case AST_COMPUTE: case AST_SLEEP: C(delay.tasks); C(delay.duration); break;
	case AST_AWAIT: case AST_SYNC: case AST_COMPUTE_AGGREGATES:
	case AST_RESET_COUNTERS: case AST_STORE_COUNTERS: case AST_RESTORE_COUNTERS:
		C(simple.tasks); break;
	case AST_TOUCH_REGION:
		C(touch_region.tasks); C(touch_region.words); C(touch_region.region);
		C(touch_region.repeat); C(touch_region.stride); break;
	case AST_TOUCH_BUFFERS: C(touch_buffers.tasks); C(touch_buffers.buffer); break;
	case AST_LOG: C(log.tasks); L(log.columns); break;
	case AST_ASSERT: C(assert_.message); C(assert_.cond); break;
	case AST_OUTPUT: case AST_BACKEND_EXEC: C(output.tasks); L(output.items); break;
	case AST_ASSIGN_PROC: C(assign_proc.tasks); C(assign_proc.proc); break;
	case AST_IO_OPEN: C(io_open.tasks); C(io_open.file); break;
	case AST_IO_CLOSE: C(io_close.tasks); C(io_close.file); break;
	case AST_IO_READ: case AST_IO_WRITE: C(io.tasks); C(io.size); C(io.file); C(io.offset); break;
	case AST_TRAFFIC_MESSAGES:
		C(traffic_messages.tasks); C(traffic_messages.count); C(traffic_messages.model);
		C(traffic_messages.dest); C(traffic_messages.rate); break;
	case AST_TRAFFIC_FLOWS:
		C(traffic_flows.tasks); C(traffic_flows.count); C(traffic_flows.over);
		C(traffic_flows.dest); L(traffic_flows.classes); break;
	case AST_TRAFFIC_HOROVOD:
		C(horovod.tasks); C(horovod.batches); C(horovod.layers);
		L(horovod.params); L(horovod.overrides); break;
	case AST_TRAFFIC_REPLAY: C(replay.tasks); C(replay.path); break;
	case AST_MSG_SPEC:
		C(msg.count); C(msg.size); C(msg.align); C(msg.tag); C(msg.offset); C(msg.buffer); break;
	case AST_DATA_SIZE: C(size.value); break;
	case AST_DURATION: C(duration.value); break;
	case AST_LOG_COLUMN:
		C(log_column.percentile); C(log_column.expr); C(log_column.heading); break;
	case AST_BINDING: C(binding.var); C(binding.value); break;
	case AST_RANDOM_TASK: C(random_task.a); C(random_task.b); C(random_task.but_not); break;
	case AST_DEST_DIST: C(dest_dist.mean); C(dest_dist.deviation); break;
	case AST_FLOW_CLASS:
		C(flow_class.min); C(flow_class.max); C(flow_class.percent); C(flow_class.dest); break;
	case AST_HOROVOD_PARAM: C(hv_param.value); break;
	case AST_HOROVOD_LAYER: C(hv_layer.layer); L(hv_layer.params); break;
	case AST_TASK_EXPR: C(task_expr.expr); break;
	case AST_TASK_SUCH_THAT: C(such_that.var); C(such_that.cond); break;
	case AST_TASK_ALL: C(task_all.var); break;
	case AST_TASK_GROUP: C(task_group.name); break;
	case AST_VALUE_OF: C(value_of.str); break;
	case AST_UNARY: C(unary.operand); break;
	case AST_BINARY: C(binary.lhs); C(binary.rhs); break;
	case AST_IFELSE: C(ifelse.then); C(ifelse.cond); C(ifelse.otherwise); break;
	case AST_CALL: L(call.args); break;
	case AST_REAL_CAST: C(real_cast.operand); break;
	case AST_MESH: L(mesh.dims); C(mesh.task); L(mesh.offsets); C(mesh.other); break;
	case AST_DIMENSION: C(dimension.extent); break;
	case AST_FILE_DATA: L(file_data.args); break;
	case AST_COMPARE: C(compare.lhs); C(compare.rhs); break;
	case AST_PARITY: C(parity.operand); break;
	case AST_IN_RANGES: C(in_ranges.operand); L(in_ranges.ranges); break;
	case AST_IN_INTERVAL: C(in_interval.operand); C(in_interval.lo); C(in_interval.hi); break;
	case AST_LOGIC: C(logic.lhs); C(logic.rhs); break;
	case AST_RANGE_ENUM: L(range_enum.items); break;
	case AST_RANGE_PROG: L(range_prog.items); C(range_prog.last); break;
	case AST_RANGE_COMP: C(range_comp.expr); L(range_comp.gens); C(range_comp.where); break;
	case AST_GENERATOR: C(generator.var); L(generator.ranges); break;
	case AST_TASK_ALL_OTHERS: case AST_INT: case AST_DECIMAL: case AST_IDENT:
	case AST_STRING: case AST_MY_TASK: case AST_KIND_COUNT:
		break;
	}
#undef C
#undef L
}

struct each_ud { void (*fn)(ast_node *, void *); void *ud; };

static void each_node(ast_node **slot, void *ud)
{
	struct each_ud *e = ud;
	e->fn(*slot, e->ud);
}

static void each_list(ast_list *l, void *ud)
{
	struct each_ud *e = ud;
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i])
			e->fn(l->items[i], e->ud);
}

void ast_foreach_child(ast_node *n, void (*fn)(ast_node *child, void *ud), void *ud)
{
	struct each_ud e = { fn, ud };
	child_ops o = { each_node, each_list, &e };
	if (n)
		walk_slots(n, &o);
}

/*
 * ast_clone keeps a work list of slots instead of recursing: the parser
 * copies subtrees (inherited message specs, log columns) before the nesting
 * limit is checked, so a copied tree may be arbitrarily deep.  Each slot
 * still points at an original node and receives its copy.
 */
typedef struct clone_work {
	VEC(ast_node **) slots;
	arena *a;
} clone_work;

static void clone_node(ast_node **slot, void *ud)
{
	clone_work *w = ud;
	VEC_PUSH(&w->slots, slot);
}

static void clone_list(ast_list *l, void *ud)
{
	clone_work *w = ud;
	ast_node **items = l->len ? arena_alloc(w->a, l->len * sizeof *items) : NULL;
	for (uint32_t i = 0; i < l->len; i++) {
		items[i] = l->items[i];
		if (items[i])
			VEC_PUSH(&w->slots, &items[i]);
	}
	l->items = items;
	l->cap = l->len;
}

ast_node *ast_clone(arena *a, const ast_node *n)
{
	ast_node *root = (ast_node *)n;   /* only read: replaced by its copy below */
	clone_work w = { .a = a };
	child_ops o = { clone_node, clone_list, &w };
	if (root)
		VEC_PUSH(&w.slots, &root);
	while (w.slots.len) {
		ast_node **slot = w.slots.ptr[--w.slots.len];
		ast_node *c = arena_alloc(a, sizeof *c);
		*c = **slot;
		c->sema = NULL;
		*slot = c;
		walk_slots(c, &o);
	}
	VEC_FREE(&w.slots);
	return root;
}

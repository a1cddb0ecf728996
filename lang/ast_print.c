/*
 * ast_print.c - the indented text form of an AST.  Every line is
 *
 *     <indent><field>: <kind> [attributes] @<line>:<col>-<line>:<col>
 *
 * with two spaces of indentation per level; see doc/ast-format.md.
 */
#include <inttypes.h>
#include <stdio.h>

#include "lang/ast_print.h"

typedef struct printer {
	FILE *out;
	const src_mgr *src;
	int depth;
} printer;

static void print_node(printer *p, const char *field, long index, const ast_node *n);

static void put_span(printer *p, src_span s)
{
	unsigned l1, c1, l2, c2;
	if (!p->src || s.file >= p->src->nfiles)
		return;
	src_linecol(p->src, s.file, s.first, &l1, &c1);
	if (span_empty(s)) {
		fprintf(p->out, " @%u:%u", l1, c1);
		return;
	}
	src_linecol(p->src, s.file, s.last, &l2, &c2);
	fprintf(p->out, " @%u:%u-%u:%u", l1, c1, l2, c2);
}

static void put_string(FILE *out, const char *s, uint32_t len)
{
	fputc('"', out);
	for (uint32_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(out, "\\x%02x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

static void indent(printer *p)
{
	for (int i = 0; i < p->depth; i++)
		fputs("  ", p->out);
}

static void child(printer *p, const char *field, const ast_node *n)
{
	if (n)
		print_node(p, field, -1, n);
}

static void list(printer *p, const char *field, const ast_list *l)
{
	for (uint32_t i = 0; i < l->len; i++)
		print_node(p, field, (long)i, l->items[i]);
}

/* A field of a MSG_SPEC: `<inherited>` instead of the subtree when copied. */
static void spec_field(printer *p, const ast_node *spec, unsigned bit, const char *field, const ast_node *n)
{
	if (spec->u.msg.inherited & bit) {
		if (!n)
			return;
		indent(p);
		fprintf(p->out, "%s: <inherited>\n", field);
		return;
	}
	child(p, field, n);
}

static void print_msg_attrs(printer *p, const ast_node *n)
{
	static const char *const align[] = { "none", "aligned", "misaligned" };
	static const char *const touch[] = { "none", "data", "verify" };
	static const struct { unsigned bit; const char *name; } inh[] = {
		{ AST_INH_COUNT, "count" }, { AST_INH_SIZE, "size" }, { AST_INH_TYPE, "type" },
		{ AST_INH_UNIQUE, "unique" }, { AST_INH_ALIGN, "align" }, { AST_INH_TOUCH, "touch" },
		{ AST_INH_TAG, "tag" }, { AST_INH_BUFFER, "buffer" }, { AST_INH_ASYNC, "async" },
	};
	fprintf(p->out, " async=%d unique=%d align=%s touch=%s", n->u.msg.async, n->u.msg.unique,
	        align[n->u.msg.align_kind], touch[n->u.msg.touch]);
	if (!n->u.msg.size)
		fprintf(p->out, " type=%s", ast_data_unit_name(n->u.msg.elem_type));
	if (n->u.msg.inherited) {
		const char *sep = " inherited=";
		for (size_t i = 0; i < sizeof inh / sizeof inh[0]; i++)
			if (n->u.msg.inherited & inh[i].bit) {
				fprintf(p->out, "%s%s", sep, inh[i].name);
				sep = ",";
			}
	}
}

/* Kind-specific attributes, printed on the node's own line. */
static void print_attrs(printer *p, const ast_node *n)
{
	FILE *out = p->out;
	switch (n->kind) {
	case AST_INT: fprintf(out, " %" PRId64, n->u.int_.value); break;
	case AST_DECIMAL: fprintf(out, " %.17g", n->u.decimal.value); break;
	case AST_IDENT: fprintf(out, " %s", n->u.ident.name); break;
	case AST_STRING: fputc(' ', out); put_string(out, n->u.string.text, n->u.string.len); break;
	case AST_UNARY: fprintf(out, " %s", ast_unop_name(n->u.unary.op)); break;
	case AST_BINARY: fprintf(out, " %s", ast_binop_name(n->u.binary.op)); break;
	case AST_COMPARE: fprintf(out, " %s", ast_cmpop_name(n->u.compare.op)); break;
	case AST_LOGIC: fprintf(out, " %s", ast_logicop_name(n->u.logic.op)); break;
	case AST_CALL: fprintf(out, " %s", ast_func_name(n->u.call.fn)); break;
	case AST_MESH: fprintf(out, " %s", ast_meshfn_name(n->u.mesh.fn)); break;
	case AST_DIMENSION: if (n->u.dimension.torus) fputs(" torus", out); break;
	case AST_FILE_DATA: if (n->u.file_data.is_static) fputs(" static", out); break;
	case AST_PARITY: fputs(n->u.parity.odd ? " odd" : " even", out); break;
	case AST_IN_RANGES: if (n->u.in_ranges.negated) fputs(" not", out); break;
	case AST_IN_INTERVAL: if (n->u.in_interval.negated) fputs(" not", out); break;
	case AST_TASK_SUCH_THAT: if (n->u.such_that.anonymous) fputs(" anonymous", out); break;
	case AST_FOR_REPS: if (n->u.for_reps.sync) fputs(" sync", out); break;
	case AST_FOR_TIME: if (n->u.for_time.sync) fputs(" sync", out); break;
	case AST_SEND:
		if (n->u.send.unsuspecting) fputs(" unsuspecting", out);
		if (n->u.send.who_receives) fputs(" who_receives", out);
		break;
	case AST_REDUCE: if (n->u.reduce.result_explicit) fputs(" result_explicit", out); break;
	case AST_MSG_SPEC: print_msg_attrs(p, n); break;
	case AST_DATA_SIZE:
		fprintf(out, " %s", ast_data_unit_name(n->u.size.unit));
		if (n->u.size.unit_implicit) fputs(" unit_implicit", out);
		if (n->u.size.sized) fputs(" sized", out);
		break;
	case AST_DURATION: fprintf(out, " %s", ast_time_unit_name(n->u.duration.unit)); break;
	case AST_LOG_COLUMN:
		fprintf(out, " %s", ast_agg_name(n->u.log_column.agg));
		if (n->u.log_column.split) fputs(" split", out);
		break;
	case AST_RANDOM_TASK: fprintf(out, " %s", ast_randcons_name(n->u.random_task.cons)); break;
	case AST_DEST_DIST: fprintf(out, " %s", ast_dist_name(n->u.dest_dist.dist)); break;
	case AST_HOROVOD_PARAM: fprintf(out, " %s", ast_hvparam_name(n->u.hv_param.param)); break;
	case AST_TOUCH_REGION: {
		static const char *const stride[] = { "default", "random", "explicit" };
		if (n->u.touch_region.words)
			fprintf(out, " word_type=%s", ast_data_unit_name(n->u.touch_region.word_type));
		fprintf(out, " stride=%s", stride[n->u.touch_region.stride_kind]);
		break;
	}
	case AST_TOUCH_BUFFERS: {
		static const char *const which[] = { "all", "current", "numbered" };
		fprintf(out, " %s", which[n->u.touch_buffers.which]);
		break;
	}
	case AST_IO_OPEN: {
		static const char *const mode[] = { "default", "reading", "writing", "reading_writing" };
		fprintf(out, " mode=%s", mode[n->u.io_open.mode]);
		break;
	}
	case AST_IO_READ: case AST_IO_WRITE: fprintf(out, " async=%d", n->u.io.async); break;
	default: break;
	}
	if (n->implicit)
		fputs(" implicit", out);
}

static void print_children(printer *p, const ast_node *n)
{
	const typeof(n->u) *u = &n->u;
	switch (n->kind) {
	case AST_PROGRAM: list(p, "headers", &u->program.headers); list(p, "stmts", &u->program.stmts); break;
	case AST_VERSION_DECL: child(p, "version", u->version_decl.version); break;
	case AST_PARAM_DECL:
		child(p, "var", u->param_decl.var); child(p, "description", u->param_decl.description);
		child(p, "long", u->param_decl.long_opt); child(p, "short", u->param_decl.short_opt);
		child(p, "default", u->param_decl.def); break;
	case AST_BACKEND_DECL: child(p, "text", u->backend_decl.text); break;
	case AST_SEQ: list(p, "items", &u->seq.items); break;
	case AST_FOR_EACH:
		child(p, "var", u->for_each.var); list(p, "ranges", &u->for_each.ranges);
		child(p, "body", u->for_each.body); break;
	case AST_FOR_REPS:
		child(p, "count", u->for_reps.count); child(p, "warmup", u->for_reps.warmup);
		child(p, "body", u->for_reps.body); break;
	case AST_FOR_TIME:
		child(p, "duration", u->for_time.duration); child(p, "warmup", u->for_time.warmup);
		child(p, "body", u->for_time.body); break;
	case AST_LET: list(p, "bindings", &u->let.bindings); child(p, "body", u->let.body); break;
	case AST_IF:
		child(p, "cond", u->if_.cond); child(p, "then", u->if_.then);
		child(p, "otherwise", u->if_.otherwise); break;
	case AST_SEND:
		child(p, "src", u->send.src); child(p, "msg", u->send.msg); child(p, "dst", u->send.dst);
		child(p, "recv", u->send.recv); break;
	case AST_MULTICAST:
		child(p, "src", u->multicast.src); child(p, "msg", u->multicast.msg);
		child(p, "dst", u->multicast.dst); break;
	case AST_RECEIVE:
		child(p, "tasks", u->receive.tasks); child(p, "msg", u->receive.msg);
		child(p, "from", u->receive.from); break;
	case AST_REDUCE:
		child(p, "src", u->reduce.src); child(p, "msg", u->reduce.msg);
		child(p, "dst", u->reduce.dst); child(p, "result", u->reduce.result); break;
	case AST_COMPUTE: case AST_SLEEP:
		child(p, "tasks", u->delay.tasks); child(p, "duration", u->delay.duration); break;
	case AST_AWAIT: case AST_SYNC: case AST_COMPUTE_AGGREGATES:
	case AST_RESET_COUNTERS: case AST_STORE_COUNTERS: case AST_RESTORE_COUNTERS:
		child(p, "tasks", u->simple.tasks); break;
	case AST_TOUCH_REGION:
		child(p, "tasks", u->touch_region.tasks); child(p, "words", u->touch_region.words);
		child(p, "region", u->touch_region.region); child(p, "repeat", u->touch_region.repeat);
		child(p, "stride", u->touch_region.stride); break;
	case AST_TOUCH_BUFFERS:
		child(p, "tasks", u->touch_buffers.tasks); child(p, "buffer", u->touch_buffers.buffer); break;
	case AST_LOG: child(p, "tasks", u->log.tasks); list(p, "columns", &u->log.columns); break;
	case AST_ASSERT: child(p, "message", u->assert_.message); child(p, "cond", u->assert_.cond); break;
	case AST_OUTPUT: case AST_BACKEND_EXEC:
		child(p, "tasks", u->output.tasks); list(p, "items", &u->output.items); break;
	case AST_ASSIGN_PROC: child(p, "tasks", u->assign_proc.tasks); child(p, "proc", u->assign_proc.proc); break;
	case AST_IO_OPEN: child(p, "tasks", u->io_open.tasks); child(p, "file", u->io_open.file); break;
	case AST_IO_CLOSE: child(p, "tasks", u->io_close.tasks); child(p, "file", u->io_close.file); break;
	case AST_IO_READ: case AST_IO_WRITE:
		child(p, "tasks", u->io.tasks); child(p, "size", u->io.size); child(p, "file", u->io.file);
		child(p, "offset", u->io.offset); break;
	case AST_TRAFFIC_MESSAGES:
		child(p, "tasks", u->traffic_messages.tasks); child(p, "count", u->traffic_messages.count);
		child(p, "model", u->traffic_messages.model); child(p, "dest", u->traffic_messages.dest);
		child(p, "rate", u->traffic_messages.rate); break;
	case AST_TRAFFIC_FLOWS:
		child(p, "tasks", u->traffic_flows.tasks); child(p, "count", u->traffic_flows.count);
		child(p, "over", u->traffic_flows.over); child(p, "dest", u->traffic_flows.dest);
		list(p, "classes", &u->traffic_flows.classes); break;
	case AST_TRAFFIC_HOROVOD:
		child(p, "tasks", u->horovod.tasks); child(p, "batches", u->horovod.batches);
		child(p, "layers", u->horovod.layers); list(p, "params", &u->horovod.params);
		list(p, "overrides", &u->horovod.overrides); break;
	case AST_TRAFFIC_REPLAY: child(p, "tasks", u->replay.tasks); child(p, "path", u->replay.path); break;
	case AST_MSG_SPEC:
		spec_field(p, n, AST_INH_COUNT, "count", u->msg.count);
		spec_field(p, n, AST_INH_SIZE, "size", u->msg.size);
		spec_field(p, n, AST_INH_ALIGN, "align", u->msg.align);
		spec_field(p, n, AST_INH_TAG, "tag", u->msg.tag);
		spec_field(p, n, AST_INH_BUFFER, "offset", u->msg.offset);
		spec_field(p, n, AST_INH_BUFFER, "buffer", u->msg.buffer);
		break;
	case AST_DATA_SIZE: child(p, "value", u->size.value); break;
	case AST_DURATION: child(p, "value", u->duration.value); break;
	case AST_LOG_COLUMN:
		child(p, "percentile", u->log_column.percentile); child(p, "expr", u->log_column.expr);
		child(p, "heading", u->log_column.heading); break;
	case AST_BINDING: child(p, "var", u->binding.var); child(p, "value", u->binding.value); break;
	case AST_RANDOM_TASK:
		child(p, "a", u->random_task.a); child(p, "b", u->random_task.b);
		child(p, "but_not", u->random_task.but_not); break;
	case AST_DEST_DIST: child(p, "mean", u->dest_dist.mean); child(p, "deviation", u->dest_dist.deviation); break;
	case AST_FLOW_CLASS:
		child(p, "min", u->flow_class.min); child(p, "max", u->flow_class.max);
		child(p, "percent", u->flow_class.percent); child(p, "dest", u->flow_class.dest); break;
	case AST_HOROVOD_PARAM: child(p, "value", u->hv_param.value); break;
	case AST_HOROVOD_LAYER: child(p, "layer", u->hv_layer.layer); list(p, "params", &u->hv_layer.params); break;
	case AST_TASK_EXPR: child(p, "expr", u->task_expr.expr); break;
	case AST_TASK_SUCH_THAT: child(p, "var", u->such_that.var); child(p, "cond", u->such_that.cond); break;
	case AST_TASK_ALL: child(p, "var", u->task_all.var); break;
	case AST_TASK_GROUP: child(p, "name", u->task_group.name); break;
	case AST_VALUE_OF: child(p, "str", u->value_of.str); break;
	case AST_UNARY: child(p, "operand", u->unary.operand); break;
	case AST_BINARY: child(p, "lhs", u->binary.lhs); child(p, "rhs", u->binary.rhs); break;
	case AST_IFELSE:
		child(p, "then", u->ifelse.then); child(p, "cond", u->ifelse.cond);
		child(p, "otherwise", u->ifelse.otherwise); break;
	case AST_CALL: list(p, "args", &u->call.args); break;
	case AST_REAL_CAST: child(p, "operand", u->real_cast.operand); break;
	case AST_MESH:
		list(p, "dims", &u->mesh.dims); child(p, "task", u->mesh.task);
		list(p, "offsets", &u->mesh.offsets); child(p, "other", u->mesh.other); break;
	case AST_DIMENSION: child(p, "extent", u->dimension.extent); break;
	case AST_FILE_DATA: list(p, "args", &u->file_data.args); break;
	case AST_COMPARE: child(p, "lhs", u->compare.lhs); child(p, "rhs", u->compare.rhs); break;
	case AST_PARITY: child(p, "operand", u->parity.operand); break;
	case AST_IN_RANGES: child(p, "operand", u->in_ranges.operand); list(p, "ranges", &u->in_ranges.ranges); break;
	case AST_IN_INTERVAL:
		child(p, "operand", u->in_interval.operand); child(p, "lo", u->in_interval.lo);
		child(p, "hi", u->in_interval.hi); break;
	case AST_LOGIC: child(p, "lhs", u->logic.lhs); child(p, "rhs", u->logic.rhs); break;
	case AST_RANGE_ENUM: list(p, "items", &u->range_enum.items); break;
	case AST_RANGE_PROG: list(p, "items", &u->range_prog.items); child(p, "last", u->range_prog.last); break;
	case AST_RANGE_COMP:
		child(p, "expr", u->range_comp.expr); list(p, "gens", &u->range_comp.gens);
		child(p, "where", u->range_comp.where); break;
	case AST_GENERATOR: child(p, "var", u->generator.var); list(p, "ranges", &u->generator.ranges); break;
	case AST_TASK_ALL_OTHERS: case AST_INT: case AST_DECIMAL: case AST_IDENT: case AST_STRING:
	case AST_MY_TASK: case AST_KIND_COUNT:
		break;
	}
}

static void print_node(printer *p, const char *field, long index, const ast_node *n)
{
	indent(p);
	if (field && index >= 0)
		fprintf(p->out, "%s[%ld]: ", field, index);
	else if (field)
		fprintf(p->out, "%s: ", field);
	fputs(ast_kind_name(n->kind), p->out);
	print_attrs(p, n);
	put_span(p, n->span);
	fputc('\n', p->out);
	p->depth++;
	print_children(p, n);
	p->depth--;
}

void ast_print(FILE *out, const src_mgr *src, const ast_node *n)
{
	printer p = { out, src, 0 };
	if (n)
		print_node(&p, NULL, -1, n);
}

/*
 * codegen_c_misc.c - the simple statements other than communication:
 * computation, memory touching, logs and outputs, counters, assertions,
 * backend code, task remapping and file I/O (LANGUAGE.md sections 8.7-8.15
 * and 14.2).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "compiler/codegen/codegen_c.h"

/* The acting tasks of a simple statement: run `code` (a C statement) if this task is one. */
static void as_member(cg *g, const cg_sym *env, const ast_node *tasks, cg_body_fn body, void *ud)
{
	if (tasks->kind == AST_TASK_ALL && !tasks->u.task_all.var) {
		body(g, env, "rt_rank(t)", ud);
		return;
	}
	cg_tasks_if_member(g, env, tasks, "rt_rank(t)", NULL, body, ud);
}

static void fixed_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	(void)x;
	(void)env;
	cg_line(g, "%s", (const char *)ud);
}

static void delay_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud;
	(void)x;
	cg_line(g, "rt_%s(t, %s);", n->kind == AST_COMPUTE ? "compute" : "sleep", cg_duration_ps(g, env, n->u.delay.duration));
}

/* Bytes of one unit of a data type (INTEGERS 4, PAGES 4096). */
static uint64_t type_bytes(ast_data_unit u)
{
	return u == AST_DU_INTEGERS ? 4 : u == AST_DU_PAGES ? 4096 : ast_data_unit_bytes(u);
}

/*
 * TOUCHES (section 8.8): `accesses` words of `word` bytes. Without an
 * explicit count: repeat * (region / stride); random stride: region / word
 * per repetition. The memory model charges bytes at the node's bandwidth.
 */
static void touch_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud;
	uint64_t word = n->u.touch_region.words ? type_bytes(n->u.touch_region.word_type) : 4;
	const char *region = cg_size(g, env, n->u.touch_region.region);
	const char *rep = n->u.touch_region.repeat ? cg_int(g, env, n->u.touch_region.repeat) : "1";
	const char *acc;
	(void)x;
	if (n->u.touch_region.words) {
		const char *words = cg_int(g, env, n->u.touch_region.words);
		cg_order(g, "rt_int", (const char **[]){&rep, &words}, 2); /* ncsim_mul's arguments, last first */
		acc = cg_fmt(g, "ncsim_mul(%s, %s)", words, rep);
	} else {
		const char *stride = cg_fmt(g, "%" PRIu64, word);
		if (n->u.touch_region.stride_kind == AST_STRIDE_EXPLICIT)
			stride = cg_size(g, env, n->u.touch_region.stride);
		/* the division first (its arguments last to first), then the repetitions */
		cg_order(g, "rt_int", (const char **[]){&stride, &region, &rep}, 3);
		acc = cg_fmt(g, "ncsim_mul(%s, ncsim_div_i(%s, ncsim_nonzero(%s), &e))", rep, region, stride);
	}
	cg_line(g, "rt_touch(t, %" PRIu64 ", (uint64_t)ncsim_nonneg(rt_ok_i(t, &e, %s)));", word, acc);
}

static const char *const aggs[] = {
	[AST_AGG_NONE] = "RT_AGG_ALL", [AST_AGG_ONLY] = "RT_AGG_ONLY", [AST_AGG_MEAN] = "RT_AGG_MEAN",
	[AST_AGG_HARMONIC_MEAN] = "RT_AGG_HARMONIC_MEAN", [AST_AGG_GEOMETRIC_MEAN] = "RT_AGG_GEOMETRIC_MEAN",
	[AST_AGG_MEDIAN] = "RT_AGG_MEDIAN", [AST_AGG_MAD] = "RT_AGG_MAD", [AST_AGG_STDEV] = "RT_AGG_STDDEV",
	[AST_AGG_VARIANCE] = "RT_AGG_VARIANCE", [AST_AGG_SUM] = "RT_AGG_SUM", [AST_AGG_MINIMUM] = "RT_AGG_MINIMUM",
	[AST_AGG_MAXIMUM] = "RT_AGG_MAXIMUM", [AST_AGG_FINAL] = "RT_AGG_FINAL",
	[AST_AGG_PERCENTILE] = "RT_AGG_PERCENTILE", [AST_AGG_HISTOGRAM] = "RT_AGG_HISTOGRAM",
};

/* A STRING or THE VALUE OF "key", as a C expression of type const char *. */
static const char *text_item(cg *g, const ast_node *n)
{
	if (n->kind == AST_VALUE_OF) {
		g->uses_log = 1;
		const ast_node *s = n->u.value_of.str;
		return cg_fmt(g, "rt_value_of(t, %s)", cg_cstr(g, s->u.string.text, s->u.string.len));
	}
	return cg_cstr(g, n->u.string.text, n->u.string.len);
}

typedef struct log_ud {
	const ast_node *stmt;
	unsigned first; /* column index of the statement's first column */
} log_ud;

static void log_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const log_ud *u = ud;
	const ast_list *cols = &u->stmt->u.log.columns;
	(void)x;
	cg_if(g, "!rt_suppressed(t)");
	for (uint32_t i = 0; i < cols->len; i++) {
		const ast_node *c = cols->items[i];
		const char *param = c->u.log_column.percentile ? cg_flt(g, env, c->u.log_column.percentile) : "0.0";
		const char *val = cg_flt(g, env, c->u.log_column.expr);
		cg_order(g, "double", (const char **[]){&val, &param}, 2); /* rt_log's arguments, last first */
		cg_line(g, "rt_log(t, %u, %s, %s, %s, %s);", u->first + i, text_item(g, c->u.log_column.heading),
		        aggs[c->u.log_column.agg], param, val);
	}
	cg_endif(g);
}

static void output_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud;
	(void)x;
	cg_if(g, "!rt_suppressed(t)");
	/* cg_ob keeps its memory from one line to the next; the entry frees it (tracked). */
	if (n->u.output.items.len)
		cg_line(g, "cg_ob.len = 0;");
	for (uint32_t i = 0; i < n->u.output.items.len; i++) {
		const ast_node *it = n->u.output.items.items[i];
		if (it->kind == AST_STRING || it->kind == AST_VALUE_OF)
			cg_line(g, "rt_text_puts(t, &cg_ob, %s);", text_item(g, it));
		else
			cg_line(g, "rt_text_putg(t, &cg_ob, %s);", cg_flt(g, env, it));
	}
	cg_line(g, "rt_output(t, %s);", n->u.output.items.len ? "cg_ob.ptr" : "\"\"");
	cg_endif(g);
}

/* BACKEND EXECUTES: the filtered (or, with --allow-backend-code, verbatim) C text. */
static void backend_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud;
	const ast_list *items = &n->u.output.items;
	bf_item *bi = xcalloc(items->len ? items->len : 1, sizeof *bi);
	(void)x;
	for (uint32_t i = 0; i < items->len; i++) {
		const ast_node *it = items->items[i];
		if (it->kind == AST_STRING) {
			bi[i].text = it->u.string.text;
		} else if (it->kind == AST_VALUE_OF) {
			bi[i].is_expr = 1;
			bi[i].text = text_item(g, it);
		} else {
			bi[i].is_expr = 1;
			bi[i].text = cg_flt(g, env, it);
		}
	}
	/*
	 * The string is built before it runs: every expression is evaluated (and
	 * may fail) before the first call, in item order, as the direct engine
	 * does; the code then reads the values.
	 */
	cg_line(g, "{");
	for (uint32_t i = 0; i < items->len; i++)
		if (bi[i].is_expr) {
			const char *v = cg_fmt(g, "cg_bx%u", i);
			cg_line(g, "\t__typeof__(%s) %s = %s;", bi[i].text, v, bi[i].text);
			cg_line(g, "\t(void)%s;", v); /* a filtered call may not use it */
			bi[i].text = v;
		}
	char *err = NULL;
	int bad = -1;
	char *code = bf_translate(bi, (int)items->len, g->o->allow_backend_code, &err, &bad);
	if (!code) {
		cg_error(g, bad >= 0 && bad < (int)items->len ? items->items[bad]->span : n->span, "%s", err);
	} else {
		g->uses_union = 1;
		if (g->o->allow_backend_code) /* the text as the user wrote it */
			cg_warnings(g, 0);
		cg_line(g, "{");
		for (char *line = strtok(code, "\n"); line; line = strtok(NULL, "\n"))
			cg_line(g, "\t%s", line);
		cg_line(g, "}");
		if (g->o->allow_backend_code)
			cg_warnings(g, 1);
	}
	cg_line(g, "}");
	free(code);
	free(err);
	free(bi);
}

static void assign_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud, *p = n->u.assign_proc.proc;
	if (!p)
		g->uses_random = 1;
	cg_line(g, "rt_assign_processor(t, %s, %s);", x,
	        p ? cg_int(g, env, p) : "rt_random_task(t, 0, ncsim_sub(num_tasks, 1), RT_NO_EXCLUDE)");
}

/* An I/O size or offset in bytes: a literal when known and not negative, else checked at run time. */
static const char *io_bytes(cg *g, const cg_sym *env, const ast_node *size, const char *what)
{
	int64_t k;
	if (cg_size_known(size, &k) && k >= 0)
		return cg_fmt(g, "%" PRId64, k);
	return cg_fmt(g, "rt_io_bytes(t, %s, \"%s\")", cg_size(g, env, size), what);
}

static void io_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const ast_node *n = ud;
	(void)x;
	switch (n->kind) {
	case AST_IO_OPEN: {
		static const char *const modes[] = {"RT_IO_RDWR", "RT_IO_READ", "RT_IO_WRITE", "RT_IO_RDWR"};
		cg_line(g, "rt_io_open(t, %s, %s);", cg_int(g, env, n->u.io_open.file), modes[n->u.io_open.mode]);
		break;
	}
	case AST_IO_CLOSE: cg_line(g, "rt_io_close(t, %s);", cg_int(g, env, n->u.io_close.file)); break;
	default: {
		const char *file = n->u.io.file ? cg_int(g, env, n->u.io.file) : "0";
		const char *size = io_bytes(g, env, n->u.io.size, "an I/O size");
		const char *off = n->u.io.offset ? cg_fmt(g, "(int64_t)%s", io_bytes(g, env, n->u.io.offset, "a file offset"))
		                                 : "RT_IO_SEQUENTIAL";
		/* the call's arguments, last first (rt_int holds each: sizes are checked non-negative) */
		cg_order(g, "rt_int", (const char **[]){&off, &size, &file}, 3);
		cg_line(g, "(void)rt_io_%s(t, %s, %s, %s, %d);", n->kind == AST_IO_READ ? "read" : "write", file, size,
		        off, n->u.io.async);
		break;
	}
	}
}

int cg_simple(cg *g, const cg_sym *env, const ast_node *n)
{
	switch (n->kind) {
	case AST_COMPUTE:
	case AST_SLEEP: as_member(g, env, n->u.delay.tasks, delay_body, (void *)n); return 0;
	case AST_AWAIT: as_member(g, env, n->u.simple.tasks, fixed_body, "rt_waitall(t);"); return 0;
	case AST_RESET_COUNTERS: as_member(g, env, n->u.simple.tasks, fixed_body, "rt_counters_reset(t);"); return 0;
	case AST_STORE_COUNTERS: as_member(g, env, n->u.simple.tasks, fixed_body, "rt_counters_store(t);"); return 0;
	case AST_RESTORE_COUNTERS:
		as_member(g, env, n->u.simple.tasks, fixed_body, "rt_counters_restore(t);");
		return 0;
	case AST_COMPUTE_AGGREGATES:
		g->uses_log = 1;
		as_member(g, env, n->u.simple.tasks, fixed_body, "rt_log_flush(t);");
		return 0;
	case AST_TOUCH_REGION: as_member(g, env, n->u.touch_region.tasks, touch_body, (void *)n); return 0;
	case AST_TOUCH_BUFFERS:
		/* Message buffers hold no data in a simulation (section 8.9). */
		cg_line(g, "/* touching message buffers takes no simulated time */");
		return 0;
	case AST_LOG: {
		log_ud u = {n, (unsigned)g->logcol};
		g->logcol += (int)n->u.log.columns.len;
		g->uses_log = 1;
		as_member(g, env, n->u.log.tasks, log_body, &u);
		return 0;
	}
	case AST_OUTPUT: as_member(g, env, n->u.output.tasks, output_body, (void *)n); return 0;
	case AST_BACKEND_EXEC: as_member(g, env, n->u.output.tasks, backend_body, (void *)n); return 0;
	case AST_ASSERT:
		cg_line(g, "if (!%s)", cg_rel(g, env, n->u.assert_.cond, 0));
		cg_line(g, "\trt_fatal(t, \"Assertion failure: %%s\", %s);",
		        cg_cstr(g, n->u.assert_.message->u.string.text, n->u.assert_.message->u.string.len));
		return 0;
	case AST_ASSIGN_PROC: {
		/* Executed by every task, so that every copy of the map stays the same (section 8.14). */
		cg_tasks_foreach(g, env, n->u.assign_proc.tasks, "x", NULL, assign_body, (void *)n);
		return 0;
	}
	case AST_IO_OPEN: as_member(g, env, n->u.io_open.tasks, io_body, (void *)n); return 0;
	case AST_IO_CLOSE: as_member(g, env, n->u.io_close.tasks, io_body, (void *)n); return 0;
	case AST_IO_READ:
	case AST_IO_WRITE: as_member(g, env, n->u.io.tasks, io_body, (void *)n); return 0;
	default: return -1;
	}
}

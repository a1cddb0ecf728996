/*
 * codegen_c_loops.c - FOR EACH, FOR n REPETITIONS, FOR <time>, LET and IF
 * (LANGUAGE.md sections 8.16 and 9.6).
 *
 * Every loop body is emitted once. A counted loop with warmups runs its
 * warmup iterations with negative indices:
 *
 *   it = -w ... -1   warmup (counters saved, logs and outputs suppressed)
 *   it = 0           barrier of all tasks if AND A SYNCHRONIZATION (even when
 *                    w = 0), then the counters come back
 *   it = 0 ... n-1   measured iterations
 *
 * A timed loop runs the C backend's algorithm in simulated time: suppressed
 * calibration batches of 1, 10, 100, ... iterations, each closed by a
 * barrier and a global minimum of the batch times, until the estimate is
 * good; then exactly `iters` measured iterations on every task, with the
 * iterations after the deadline rolled back.
 */
#include <inttypes.h>
#include <string.h>

#include "compiler/codegen/codegen_c.h"

typedef struct loop_ud {
	const ast_node *body, *var;
} loop_ud;

static void each_body(cg *g, const cg_sym *env, const char *x, void *ud)
{
	const loop_ud *u = ud;
	cg_stmt(g, cg_bind(g, env, u->var->u.ident.name, x), u->body);
}

void cg_for_each(cg *g, const cg_sym *env, const ast_node *n)
{
	const ast_node *var = n->u.for_each.var;
	loop_ud u = {n->u.for_each.body, var};
	cg_ranges_foreach(g, env, &n->u.for_each.ranges, cg_fmt(g, "v_%s", var->u.ident.name), each_body, &u);
}

/* `line` if there are warmup iterations: w is their number (a literal when known). */
static void if_warmups(cg *g, const char *w, const char *line)
{
	int64_t k;
	if (cg_literal(w, &k)) {
		if (k > 0)
			cg_line(g, "%s", line);
		return;
	}
	cg_if(g, cg_fmt(g, "%s > 0", w));
	cg_line(g, "%s", line);
	cg_endif(g);
}

void cg_for_reps(cg *g, const cg_sym *env, const ast_node *n)
{
	const char *it = cg_uniq(g, "it"), *cnt = cg_int(g, env, n->u.for_reps.count), *w = "0";
	int64_t k;
	if (!cg_plain(cnt)) {
		/* evaluated once, before the loop */
		const char *c = cg_uniq(g, "reps");
		cg_line(g, "const rt_int %s = %s;", c, cnt);
		cnt = c;
	}
	if (n->u.for_reps.warmup && cg_known_int(n->u.for_reps.warmup, &k)) {
		w = cg_int_lit(g, k < 0 ? 0 : k);
	} else if (n->u.for_reps.warmup) {
		w = cg_uniq(g, "warmups");
		cg_line(g, "const rt_int %s = ncsim_nonneg(%s);", w, cg_int(g, env, n->u.for_reps.warmup));
	}
	if (!n->u.for_reps.warmup || (!strcmp(w, "0") && !n->u.for_reps.sync)) {
		if (cg_literal(cnt, &k) && k == 1) {
			cg_stmt(g, env, n->u.for_reps.body); /* one iteration: no loop */
			return;
		}
		cg_open(g, "for (rt_int %s = 0; %s < %s; %s++)", it, it, cnt, it);
	} else {
		if_warmups(g, w, "rt_suppress_begin(t);");
		cg_open(g, "for (rt_int %s = -%s;; %s++)", it, w, it);
		cg_open(g, "if (%s == 0)", it);
		if (n->u.for_reps.sync)
			cg_line(g, "rt_barrier(t, rt_world(t));");
		if_warmups(g, w, "rt_suppress_end(t);");
		cg_close(g);
		cg_if(g, cg_fmt(g, "%s >= %s", it, cnt));
		cg_line(g, "break;");
		cg_endif(g);
	}
	cg_stmt(g, env, n->u.for_reps.body);
	cg_close(g);
}

void cg_for_time(cg *g, const cg_sym *env, const ast_node *n)
{
	unsigned line = cg_lineno(g, n->span);
	const char *dur = cg_uniq(g, "dur"), *warm = cg_uniq(g, "warm"), *batch = cg_uniq(g, "batch"),
	           *iters = cg_uniq(g, "iters"), *left = cg_uniq(g, "left"), *cal = cg_uniq(g, "calibrating"),
	           *exp = cg_uniq(g, "expired"), *start = cg_uniq(g, "start"), *dl = cg_uniq(g, "deadline"),
	           *tmin = cg_uniq(g, "tmin"), *est = cg_uniq(g, "est"), *p0 = cg_uniq(g, "pending");
	cg_line(g, "const double %s = %s;", dur, cg_duration(g, env, n->u.for_time.duration));
	cg_line(g, "const double %s = %s;", warm,
	        n->u.for_time.warmup ? cg_duration(g, env, n->u.for_time.warmup) : "1e12 /* 1 s */");
	cg_line(g, "rt_int %s = 1, %s = 1, %s = 0;", batch, left, iters);
	cg_line(g, "int %s = 1, %s = 0;", cal, exp);
	cg_line(g, "ncsim_time_t %s, %s = 0;", start, dl);
	cg_line(g, "if (cg_timed)");
	cg_line(g, "\trt_fatal(t, \"timed loops may not be nested\");");
	cg_line(g, "cg_timed = 1;");
	cg_line(g, "rt_suppress_begin(t);");
	cg_line(g, "rt_barrier(t, rt_world(t));");
	cg_line(g, "%s = rt_now(t);", start);
	cg_line(g, "for (;;) {");
	g->indent++;
	cg_line(g, "if (%s == 0) {", left);
	g->indent++;
	cg_line(g, "if (!%s)", cal);
	cg_line(g, "\tbreak;");
	cg_line(g, "/* end of a calibration batch: agree on the fastest task's time */");
	cg_line(g, "rt_barrier(t, rt_world(t));");
	cg_line(g, "const double %s = rt_allreduce_value(t, rt_world(t), (double)(rt_now(t) - %s), RT_OP_MIN);", tmin,
	        start);
	cg_line(g, "if (%s <= 0.0 && %s >= 1000000)", tmin, batch);
	cg_line(g, "\trt_fatal(t, \"the timed loop of line %u takes no simulated time\");", line);
	cg_line(g, "const double %s = %s > 0.0 ? %s * (double)%s / %s : 1.0;", est, tmin, dur, batch, tmin);
	cg_line(g, "%s = %s < 1.0 ? 1 : %s > 1e15 ? (rt_int)1e15 : (rt_int)%s;", iters, est, est, est);
	cg_line(g, "if (%s == 1 || (%s < %s / 10.0 && %s < %s)) {", batch, tmin, dur, tmin, warm);
	cg_line(g, "\t%s *= 10;", batch);
	cg_line(g, "\t%s = %s;", left, batch);
	cg_line(g, "\t%s = rt_now(t);", start);
	cg_line(g, "\tcontinue;");
	cg_line(g, "}");
	cg_line(g, "%s = 0;", cal);
	cg_line(g, "rt_suppress_end(t);");
	cg_line(g, "%s = rt_now(t) + ncsim_ps(%s);", dl, dur);
	cg_line(g, "%s = %s;", left, iters);
	cg_line(g, "continue;");
	g->indent--;
	cg_line(g, "}");
	cg_line(g, "%s--;", left);
	cg_line(g, "const rt_int %s = rt_pending(t);", p0);
	cg_stmt(g, env, n->u.for_time.body);
	cg_line(g, "if (rt_pending(t) != %s)", p0);
	cg_line(g, "\trt_fatal(t, \"The FOR loop in source-code line %u leaks %%\" PRId64 "
	           "\" asynchronous send(s)/receive(s) per iteration\", rt_pending(t) - %s);",
	        line, p0);
	cg_line(g, "if (!%s && !%s && rt_now(t) >= %s) {", cal, exp, dl);
	cg_line(g, "\t/* the time is up: later iterations keep tasks in step but are not measured */");
	cg_line(g, "\t%s = 1;", exp);
	cg_line(g, "\trt_suppress_begin(t);");
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "}");
	cg_line(g, "if (%s)", exp);
	cg_line(g, "\trt_suppress_end(t);");
	cg_line(g, "cg_timed = 0;");
}

/* A RANDOM TASK binding: a synchronised draw (section 8.16). */
static const char *random_task(cg *g, const cg_sym *env, const ast_node *r)
{
	const char *lo = "0", *hi = "ncsim_sub(num_tasks, 1)", *ex = "RT_NO_EXCLUDE";
	g->uses_random = 1;
	switch (r->u.random_task.cons) {
	case AST_RT_ANY: break;
	case AST_RT_OTHER_THAN: ex = cg_int(g, env, r->u.random_task.a); break;
	case AST_RT_LESS_THAN: hi = cg_fmt(g, "ncsim_sub(%s, 1)", cg_int(g, env, r->u.random_task.a)); break;
	case AST_RT_GREATER_THAN: lo = cg_fmt(g, "ncsim_add(%s, 1)", cg_int(g, env, r->u.random_task.a)); break;
	case AST_RT_IN_INTERVAL:
		lo = cg_int(g, env, r->u.random_task.a);
		hi = cg_int(g, env, r->u.random_task.b);
		break;
	case AST_RANDCONS_COUNT: break;
	}
	if (r->u.random_task.but_not)
		ex = cg_int(g, env, r->u.random_task.but_not);
	cg_order(g, "rt_int", (const char **[]){&ex, &hi, &lo}, 3); /* the call's arguments, last first */
	return cg_fmt(g, "rt_random_task_clamped(t, %s, %s, %s)", lo, hi, ex);
}

void cg_let(cg *g, const cg_sym *env, const ast_node *n)
{
	const char *names[64];
	size_t marks[64];
	uint32_t k = 0;
	for (uint32_t i = 0; i < n->u.let.bindings.len; i++) {
		const ast_node *b = n->u.let.bindings.items[i];
		const char *name = b->u.binding.var->u.ident.name;
		const ast_node *v = b->u.binding.value;
		if (ast_is_task_desc(v->kind)) {
			env = cg_bind_group(g, env, name, v, env);
			continue;
		}
		const char *cv = cg_uniq(g, cg_fmt(g, "v_%s", name));
		cg_line(g, "const rt_int %s = %s;", cv, v->kind == AST_RANDOM_TASK ? random_task(g, env, v) : cg_int(g, env, v));
		env = cg_bind(g, env, name, cv);
		if (k < sizeof names / sizeof *names) {
			names[k] = cv;
			marks[k++] = cg_mark(g);
		}
	}
	cg_stmt(g, env, n->u.let.body);
	while (k-- > 0)
		cg_unused(g, marks[k], names[k]);
}

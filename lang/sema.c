/*
 * sema.c - semantic analysis: the walk over statements and the static
 * checks of LANGUAGE.md 2.4 (see sema.h for what it produces).
 *
 * One recursive walk does everything: it keeps the scope stack
 * (sema_scope.c) in step with the constructs that bind variables, records
 * where each expression sits (sema_where: context, forbidden constructs),
 * and hands every expression to sema_expr.c, which checks it and folds it
 * bottom-up (sema_fold.c) as soon as its children are done.  Messages are those of the reference front end where
 * it has one; the other wordings are ncsim's.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/sema.h"
#include "lang/sema_ext.h"
#include "lang/sema_expr.h"
#include "lang/sema_fold.h"
#include "lang/sema_header.h"
#include "lang/sema_int.h"
#include "lang/sema_scope.h"

/* ------------------------------------------------------------ utilities */

sema_note *sema_note_get(sema_ctx *s, ast_node *n)
{
	if (!n->sema)
		n->sema = arena_alloc(s->arena, sizeof(sema_note));
	return n->sema;
}

const char *sema_text(sema_ctx *s, const ast_node *n)
{
	const src_mgr *m = fe_sources(s->fe);
	if (span_empty(n->span) || n->span.file >= m->nfiles)
		return "";
	const src_file *f = src_get(m, n->span.file);
	size_t len = (size_t)n->span.last - n->span.first + 1;
	if (n->span.first >= f->len)
		return "";
	if (n->span.first + len > f->len)
		len = f->len - n->span.first;
	char *out = arena_alloc(s->arena, len + 1);
	size_t k = 0;
	int space = 0;
	for (size_t i = 0; i < len; i++) {
		char c = f->text[n->span.first + i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1;
			continue;
		}
		if (space && k)
			out[k++] = ' ';
		space = 0;
		out[k++] = c;
	}
	out[k] = '\0';
	return out;
}

void sema_error(sema_ctx *s, const sema_where *w, src_span sp, const char *fmt, ...)
{
	va_list ap;
	if (w && w->quiet)
		return;
	va_start(ap, fmt);
	diag_vreport(s->diag, DIAG_ERROR, sp, fmt, ap);
	va_end(ap);
}

void sema_warning(sema_ctx *s, const sema_where *w, src_span sp, const char *fmt, ...)
{
	va_list ap;
	if (w && w->quiet)
		return;
	va_start(ap, fmt);
	diag_vreport(s->diag, DIAG_WARNING, sp, fmt, ap);
	va_end(ap);
}

sema_where sema_where_int(void)
{
	sema_where w = { SEMA_CTX_INT, NULL, 0, 0, NULL, 0 };
	return w;
}

int sema_const_int(const ast_node *n, int64_t *v)
{
	return sf_value_i(n, v);
}

/* --------------------------------------------------------- statement parts */

void sema_amount(sema_ctx *s, ast_node *d, const char *what, const sema_where *w)
{
	ast_node *v;
	const char *unit;
	int64_t iv;
	double fv;

	if (!d)
		return;
	if (d->kind == AST_DATA_SIZE) {
		v = d->u.size.value;
		unit = d->u.size.unit_implicit ? "bytes" : ast_data_unit_name(d->u.size.unit);
	} else if (d->kind == AST_DURATION) {
		v = d->u.duration.value;
		unit = ast_time_unit_name(d->u.duration.unit);
	} else {
		sema_expr(s, d, w);
		return;
	}
	sema_expr(s, v, w);
	if (!what || w->quiet)
		return;
	if (w->ctx == SEMA_CTX_FLOAT ? sf_value_f(v, &fv) && fv < 0.0 : sf_value_i(v, &iv) && iv < 0) {
		if (w->ctx == SEMA_CTX_FLOAT)
			sema_error(s, w, d->span, "%s must not be negative (it is %g %s)", what, fv, unit);
		else
			sema_error(s, w, d->span, "%s must not be negative (it is %" PRId64 " %s)", what, iv, unit);
	}
}

/* The IDENT that task description t binds as a variable, or NULL. */
static ast_node *bound_var(const ast_node *t)
{
	switch (t->kind) {
	case AST_TASK_ALL: return t->u.task_all.var;
	case AST_TASK_SUCH_THAT: return t->u.such_that.anonymous ? NULL : t->u.such_that.var;
	case AST_TASK_GROUP: return t->u.task_group.name;
	default: return NULL;
	}
}

void sema_task_desc(sema_ctx *s, ast_node *t, sema_role role, const sema_where *w0)
{
	sema_where w = *w0;
	w.ctx = SEMA_CTX_INT;
	w.random_ctx = "a task description";

	if (role != SEMA_TARGET && t->kind == AST_TASK_ALL_OTHERS)
		sema_error(s, &w, t->span, "\"%s\" is not a valid set of source tasks", sema_text(s, t));
	if (role == SEMA_TARGET && t->kind == AST_TASK_ALL)
		sema_error(s, &w, t->span, "\"%s\" is not a valid set of target tasks", sema_text(s, t));
	switch (t->kind) {
	case AST_TASK_EXPR:
		sema_expr(s, t->u.task_expr.expr, &w);
		break;
	case AST_TASK_SUCH_THAT:
		sema_note_get(s, t)->sym = ss_define(s, SEMA_SYM_TASK, t->u.such_that.var, t, &w);
		sema_expr(s, t->u.such_that.cond, &w);
		break;
	case AST_TASK_ALL:
		if (t->u.task_all.var)
			sema_note_get(s, t)->sym = ss_define(s, SEMA_SYM_TASK, t->u.task_all.var, t, &w);
		break;
	case AST_TASK_GROUP: {
		ast_node *name = t->u.task_group.name;
		sema_sym *g = ss_lookup_group(s, name->u.ident.name);
		sema_note *tn = sema_note_get(s, t);
		if (!g)
			sema_error(s, &w, name->span, "Task group %s must be declared before being used", sema_text(s, name));
		else
			g->uses++;
		tn->group = g;
		tn->sym = ss_define(s, SEMA_SYM_TASK, name, t, &w);
		tn->sym->group = g;
		tn->sym->uses = 1; /* bound by the language, not by the user */
		break;
	}
	default:
		break;
	}
}

/* Which fields of a MSG_SPEC a pass visits. */
enum { PASS_OWN = 1, PASS_INHERITED = 2 };

/*
 * message_spec and its relatives.  Fields copied from the sender (inherited)
 * are resolved in the sender's scope and quietly (the original reports);
 * the fields written in a WHO RECEIVES IT / WHO RECEIVES THE RESULT clause
 * in the receiver's scope.  `into` selects the FROM/INTO wording.
 */
static void msg_spec(sema_ctx *s, ast_node *m, int pass, int into, const sema_where *w0)
{
	unsigned inh = m->u.msg.inherited;
	sema_where w = *w0;
	w.ctx = SEMA_CTX_INT;
	w.random_ctx = "a message specification";

#define FIELD(bit, code)                                                  \
	do {                                                              \
		int inherited_ = (inh & (bit)) != 0;                      \
		if (pass & (inherited_ ? PASS_INHERITED : PASS_OWN)) {    \
			sema_where wf = w;                                \
			wf.quiet |= inherited_;                           \
			code;                                             \
		}                                                         \
	} while (0)
	FIELD(AST_INH_COUNT, sema_expr(s, m->u.msg.count, &wf));
	FIELD(AST_INH_SIZE, sema_amount(s, m->u.msg.size, "a message size", &wf));
	FIELD(AST_INH_ALIGN, sema_amount(s, m->u.msg.align, NULL, &wf));
	FIELD(AST_INH_TAG, sema_expr(s, m->u.msg.tag, &wf));
	FIELD(AST_INH_BUFFER, sema_amount(s, m->u.msg.offset, "a buffer offset", &wf);
	      sema_expr(s, m->u.msg.buffer, &wf));
#undef FIELD
	if (!(pass & PASS_OWN) || w.quiet)
		return;
	/* Mutually exclusive attributes (13 item 10: the documented intent). */
	if (m->u.msg.unique && (m->u.msg.buffer || m->u.msg.offset) &&
	    (inh & (AST_INH_UNIQUE | AST_INH_BUFFER)) != (AST_INH_UNIQUE | AST_INH_BUFFER))
		sema_error(s, &w, m->span, "UNIQUE and %s BUFFER are mutually exclusive", into ? "INTO" : "FROM");
	if (m->u.msg.align_kind != AST_ALIGN_NONE && m->u.msg.offset &&
	    (inh & (AST_INH_ALIGN | AST_INH_BUFFER)) != (AST_INH_ALIGN | AST_INH_BUFFER))
		sema_error(s, &w, m->span, "Message alignment and buffer offsets are mutually exclusive");
}

/* -------------------------------------------------------------- statements */

static void stmt(sema_ctx *s, ast_node *n);

/* A statement whose only parts are its acting tasks and plain expressions. */
static void acting(sema_ctx *s, ast_node *tasks)
{
	sema_where w = sema_where_int();
	sema_task_desc(s, tasks, SEMA_SOURCE, &w);
}

/* send_stmt */
static void send(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ast_node *m = n->u.send.msg, *r = n->u.send.recv;

	ss_push(s);
	sema_task_desc(s, n->u.send.src, SEMA_SOURCE, &w);
	msg_spec(s, m, PASS_OWN | PASS_INHERITED, 0, &w);
	if (r)
		msg_spec(s, r, PASS_INHERITED, 1, &w);
	ss_push(s);
	sema_task_desc(s, n->u.send.dst, SEMA_TARGET, &w);
	if (r)
		msg_spec(s, r, PASS_OWN, 1, &w);
	ss_pop(s);
	ss_pop(s);
	if (r && n->u.send.who_receives) {
		int sv = m->u.msg.touch == AST_TOUCH_VERIFY, rv = r->u.msg.touch == AST_TOUCH_VERIFY;
		if (sv && !rv)
			sema_error(s, &w, r->span, "A message sent WITH VERIFICATION must also be received WITH VERIFICATION");
		else if (!sv && rv)
			sema_error(s, &w, r->span, "A message received WITH VERIFICATION must also be sent WITH VERIFICATION");
	}
}

/* mcast_stmt */
static void multicast(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ss_push(s);
	sema_task_desc(s, n->u.multicast.src, SEMA_SOURCE, &w);
	msg_spec(s, n->u.multicast.msg, PASS_OWN | PASS_INHERITED, 0, &w);
	ss_push(s);
	sema_task_desc(s, n->u.multicast.dst, SEMA_TARGET, &w);
	ss_pop(s);
	ss_pop(s);
}

struct uses_ud { const char *name; const ast_node *skip; int found; };

static void uses_name(ast_node *c, void *ud)
{
	struct uses_ud *u = ud;
	if (u->found || c == u->skip)
		return;
	if (c->kind == AST_IDENT && c->u.ident.name == u->name)
		u->found = 1;
	else
		ast_foreach_child(c, uses_name, u);
}

/*
 * receive_stmt: receivers RECEIVE ... FROM senders.  Variables flow from
 * the side that declares them to the other (3.5): from the receivers when
 * the senders declare none, from the senders when the receivers declare
 * none, and when both do, from the receivers only if the senders use the
 * receivers' variable.
 */
static void receive(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ast_node *rt = n->u.receive.tasks, *st = n->u.receive.from;
	ast_node *rv = bound_var(rt), *sv = bound_var(st);
	int t2s;

	if (rt->kind == AST_TASK_ALL_OTHERS && st->kind == AST_TASK_ALL_OTHERS) {
		sema_error(s, &w, n->span, "Ambiguous receive statement");
		ss_push(s);
		msg_spec(s, n->u.receive.msg, PASS_OWN | PASS_INHERITED, 1, &w);
		ss_pop(s);
		return;
	}
	if (!sv) {
		t2s = 1;
	} else if (!rv) {
		t2s = 0;
	} else {
		const char *rn = rv->u.ident.name, *sn = sv->u.ident.name;
		if (rn == sn || ss_lookup_var(s, rn))
			sema_error(s, &w, rv->span, "Variable \"%s\" is ambiguous here", sema_text(s, rv));
		else if (ss_lookup_var(s, sn))
			sema_error(s, &w, sv->span, "Variable \"%s\" is ambiguous here", sema_text(s, sv));
		struct uses_ud u = { rn, sv, 0 };
		ast_foreach_child(st, uses_name, &u);
		t2s = u.found;
	}
	if (t2s)
		sema_note_get(s, n)->flags |= SEMA_N_RECV_T2S;
	ss_push(s);
	if (t2s)
		sema_task_desc(s, rt, SEMA_TARGET, &w);
	else
		sema_task_desc(s, st, SEMA_SOURCE, &w);
	ss_push(s);
	if (t2s)
		sema_task_desc(s, st, SEMA_SOURCE, &w);
	else
		sema_task_desc(s, rt, SEMA_TARGET, &w);
	msg_spec(s, n->u.receive.msg, PASS_OWN | PASS_INHERITED, 1, &w);
	ss_pop(s);
	ss_pop(s);
}

struct same_ud { ast_node *kids[64]; int n; };

static void collect(ast_node *c, void *ud)
{
	struct same_ud *u = ud;
	if (u->n < 64)
		u->kids[u->n] = c;
	u->n++;
}

/* Structural equality of two expressions (the reduce item-count rule). */
static int same_expr(ast_node *a, ast_node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case AST_INT: return a->u.int_.value == b->u.int_.value;
	case AST_DECIMAL: return a->u.decimal.value == b->u.decimal.value;
	case AST_IDENT: return a->u.ident.name == b->u.ident.name;
	case AST_STRING: return strcmp(a->u.string.text, b->u.string.text) == 0;
	case AST_UNARY: if (a->u.unary.op != b->u.unary.op) return 0; break;
	case AST_BINARY: if (a->u.binary.op != b->u.binary.op) return 0; break;
	case AST_CALL: if (a->u.call.fn != b->u.call.fn) return 0; break;
	case AST_MESH: if (a->u.mesh.fn != b->u.mesh.fn) return 0; break;
	case AST_DIMENSION: if (a->u.dimension.torus != b->u.dimension.torus) return 0; break;
	case AST_COMPARE: if (a->u.compare.op != b->u.compare.op) return 0; break;
	case AST_PARITY: if (a->u.parity.odd != b->u.parity.odd) return 0; break;
	case AST_IN_RANGES: if (a->u.in_ranges.negated != b->u.in_ranges.negated) return 0; break;
	case AST_IN_INTERVAL: if (a->u.in_interval.negated != b->u.in_interval.negated) return 0; break;
	case AST_LOGIC: if (a->u.logic.op != b->u.logic.op) return 0; break;
	case AST_FILE_DATA: if (a->u.file_data.is_static != b->u.file_data.is_static) return 0; break;
	default: break;
	}
	struct same_ud ua = { .n = 0 }, ub = { .n = 0 };
	ast_foreach_child(a, collect, &ua);
	ast_foreach_child(b, collect, &ub);
	if (ua.n != ub.n || ua.n > 64)
		return 0;
	for (int i = 0; i < ua.n; i++)
		if (!same_expr(ua.kids[i], ub.kids[i]))
			return 0;
	return 1;
}

static const char *upper(sema_ctx *s, const char *t)
{
	char *u = arena_strdup(s->arena, t);
	for (char *p = u; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return u;
}

/* The item count as the reference prints it (`A` is 1). */
static const char *count_text(sema_ctx *s, const ast_node *c)
{
	return c->implicit ? "1" : sema_text(s, c);
}

/* reduce_stmt: the checks of 2.4 on element types, counts and verification. */
static void reduce_checks(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ast_node *m = n->u.reduce.msg, *r = n->u.reduce.result;
	unsigned inh = r->u.msg.inherited;
	int ok_m = m->u.msg.elem_type == AST_DU_INTEGERS || m->u.msg.elem_type == AST_DU_DOUBLEWORDS;
	int ok_r = r->u.msg.elem_type == AST_DU_INTEGERS || r->u.msg.elem_type == AST_DU_DOUBLEWORDS;

	if (!ok_m)
		sema_error(s, &w, m->span, "only INTEGERS and DOUBLEWORDS can be reduced, not %s",
		           upper(s, ast_data_unit_name(m->u.msg.elem_type)));
	if (!(inh & AST_INH_TYPE)) {
		if (!ok_r)
			sema_error(s, &w, r->span, "only INTEGERS and DOUBLEWORDS can be reduced, not %s",
			           upper(s, ast_data_unit_name(r->u.msg.elem_type)));
		else if (ok_m && m->u.msg.elem_type != r->u.msg.elem_type)
			sema_error(s, &w, r->span, "\"%s\" cannot reduce to \"%s\"", ast_data_unit_name(m->u.msg.elem_type),
			           ast_data_unit_name(r->u.msg.elem_type));
	}
	if (!(inh & AST_INH_COUNT) && !same_expr(m->u.msg.count, r->u.msg.count))
		sema_error(s, &w, r->span, "The number of %s to reduce (%s) must match the number of %s in the result (%s)",
		           ast_data_unit_name(m->u.msg.elem_type), count_text(s, m->u.msg.count),
		           ast_data_unit_name(r->u.msg.elem_type), count_text(s, r->u.msg.count));
	if (m->u.msg.touch == AST_TOUCH_VERIFY)
		sema_error(s, &w, m->span, "\"WITH VERIFICATION\" is not allowed within a REDUCE statement");
	if (!(inh & AST_INH_TOUCH) && r->u.msg.touch == AST_TOUCH_VERIFY)
		sema_error(s, &w, r->span, "\"WITH VERIFICATION\" is not allowed within a REDUCE statement");
}

/* reduce_stmt: the targets are a source-style description (8.5) that sees
 * the sources' variables; the result spec sees both. */
static void reduce(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ss_push(s);
	sema_task_desc(s, n->u.reduce.src, SEMA_SOURCE, &w);
	msg_spec(s, n->u.reduce.msg, PASS_OWN | PASS_INHERITED, 0, &w);
	msg_spec(s, n->u.reduce.result, PASS_INHERITED, 1, &w);
	ss_push(s);
	if (n->u.reduce.dst)
		sema_task_desc(s, n->u.reduce.dst, SEMA_SOURCE, &w);
	msg_spec(s, n->u.reduce.result, PASS_OWN, 1, &w);
	ss_pop(s);
	ss_pop(s);
	reduce_checks(s, n);
}

/* LET binding {AND binding} WHILE body */
static void let(sema_ctx *s, ast_node *n)
{
	ss_push(s);
	for (uint32_t i = 0; i < n->u.let.bindings.len; i++) {
		ast_node *b = n->u.let.bindings.items[i], *v = b->u.binding.value;
		sema_where w = sema_where_int();
		w.in_let = 1;
		w.random_ctx = "a let binding";
		if (v->kind == AST_RANDOM_TASK) {
			s->info->uses_random = s->info->uses_sync_random = 1;
			sema_expr(s, v->u.random_task.a, &w);
			sema_expr(s, v->u.random_task.b, &w);
			sema_expr(s, v->u.random_task.but_not, &w);
			ss_define(s, SEMA_SYM_LET, b->u.binding.var, b, &w);
		} else if (ast_is_task_desc(v->kind)) {
			ss_push(s);
			sema_task_desc(s, v, SEMA_GROUP, &w);
			ss_pop(s);
			ss_define(s, SEMA_SYM_GROUP, b->u.binding.var, b, &w);
		} else {
			sema_expr(s, v, &w);
			ss_define(s, SEMA_SYM_LET, b->u.binding.var, b, &w);
		}
	}
	stmt(s, n->u.let.body);
	ss_pop(s);
}

/* IF rel THEN a [OTHERWISE b]: a constant condition makes one branch dead. */
static void if_stmt(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	int64_t c;
	int known;

	w.in_if_cond = 1;
	w.random_ctx = "an IF condition";
	sema_expr(s, n->u.if_.cond, &w);
	known = sf_value_i(n->u.if_.cond, &c);
	s->dead += known && !c;
	stmt(s, n->u.if_.then);
	s->dead -= known && !c;
	s->dead += known && c;
	stmt(s, n->u.if_.otherwise);
	s->dead -= known && c;
}

/* LOGS column {AND column} */
static void log_stmt(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	s->info->uses_log = 1;
	ss_push(s);
	sema_task_desc(s, n->u.log.tasks, SEMA_SOURCE, &w);
	w.ctx = SEMA_CTX_FLOAT;
	for (uint32_t i = 0; i < n->u.log.columns.len; i++) {
		ast_node *c = n->u.log.columns.items[i];
		double p;
		sema_expr(s, c->u.log_column.percentile, &w);
		if (c->u.log_column.percentile && sf_value_f(c->u.log_column.percentile, &p) && !(p >= 0.0 && p <= 100.0))
			sema_error(s, &w, c->u.log_column.percentile->span,
			           "Percentile %g is invalid (it must lie between 0 and 100)", p);
		/* `THE MEAN AND THE MEDIAN OF e` gave each column a copy of e: the
		 * first one reports. */
		sema_where we = w;
		we.quiet |= c->u.log_column.split;
		sema_expr(s, c->u.log_column.expr, &we);
		if (c->u.log_column.heading && c->u.log_column.heading->kind == AST_VALUE_OF)
			s->info->uses_log = 1;
	}
	ss_pop(s);
}

/* OUTPUTS / BACKEND EXECUTES items: floating-point context (3.1). */
static void output(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ss_push(s);
	sema_task_desc(s, n->u.output.tasks, SEMA_SOURCE, &w);
	w.ctx = SEMA_CTX_FLOAT;
	for (uint32_t i = 0; i < n->u.output.items.len; i++) {
		ast_node *it = n->u.output.items.items[i];
		if (it->kind == AST_VALUE_OF)
			s->info->uses_log = 1;
		else
			sema_expr(s, it, &w);
	}
	ss_pop(s);
}

static void touch_region(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();
	ss_push(s);
	sema_task_desc(s, n->u.touch_region.tasks, SEMA_SOURCE, &w);
	sema_expr(s, n->u.touch_region.words, &w);
	sema_amount(s, n->u.touch_region.region, "a memory-region size", &w);
	sema_expr(s, n->u.touch_region.repeat, &w);
	sema_amount(s, n->u.touch_region.stride, "a stride", &w);
	if (n->u.touch_region.stride_kind == AST_STRIDE_RANDOM)
		s->info->uses_random = 1;
	ss_pop(s);
}

static void stmt(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int();

	if (!n)
		return;
	switch (n->kind) {
	case AST_SEQ:
		for (uint32_t i = 0; i < n->u.seq.items.len; i++)
			stmt(s, n->u.seq.items.items[i]);
		return;
	case AST_FOR_EACH:
		sema_ranges(s, &n->u.for_each.ranges, &w);
		ss_push(s);
		ss_define(s, SEMA_SYM_FOR_EACH, n->u.for_each.var, n, &w);
		stmt(s, n->u.for_each.body);
		ss_pop(s);
		return;
	case AST_FOR_REPS:
		sema_expr(s, n->u.for_reps.count, &w);
		sema_expr(s, n->u.for_reps.warmup, &w);
		stmt(s, n->u.for_reps.body);
		return;
	case AST_FOR_TIME:
		sema_amount(s, n->u.for_time.duration, "a loop duration", &w);
		sema_amount(s, n->u.for_time.warmup, "a warmup duration", &w);
		stmt(s, n->u.for_time.body);
		return;
	case AST_LET:
		let(s, n);
		return;
	case AST_IF:
		if_stmt(s, n);
		return;
	case AST_SEND:
		send(s, n);
		return;
	case AST_MULTICAST:
		multicast(s, n);
		return;
	case AST_RECEIVE:
		receive(s, n);
		return;
	case AST_REDUCE:
		reduce(s, n);
		return;
	case AST_LOG:
		log_stmt(s, n);
		return;
	case AST_OUTPUT:
	case AST_BACKEND_EXEC:
		if (n->kind == AST_BACKEND_EXEC)
			s->info->uses_backend = 1;
		output(s, n);
		return;
	case AST_TOUCH_REGION:
		touch_region(s, n);
		return;
	case AST_ASSERT:
		sema_expr(s, n->u.assert_.cond, &w);
		return;
	default:
		break;
	}
	if (sx_is_ext(n->kind)) {
		sx_stmt(s, n);
		return;
	}
	/* The remaining simple statements: acting tasks plus an expression or two. */
	ss_push(s);
	acting(s, ast_stmt_tasks(n));
	switch (n->kind) {
	case AST_COMPUTE:
	case AST_SLEEP:
		sema_amount(s, n->u.delay.duration, "a delay", &w);
		break;
	case AST_TOUCH_BUFFERS:
		sema_expr(s, n->u.touch_buffers.buffer, &w);
		break;
	case AST_COMPUTE_AGGREGATES:
		s->info->uses_log = 1;
		break;
	case AST_ASSIGN_PROC:
		s->info->uses_procmap = 1;
		if (n->u.assign_proc.proc) {
			sema_expr(s, n->u.assign_proc.proc, &w);
		} else {
			s->info->uses_random = s->info->uses_sync_random = 1;
		}
		break;
	default:
		break;
	}
	ss_pop(s);
}

/* ------------------------------------------------------------------ entry */

unsigned sema_check(fe_ctx *fe, ast_node *prog, const sema_opts *o, sema_info *out)
{
	static const sema_opts defaults = { 0, NULL };
	sema_info info_local;
	sema_ctx s;

	memset(&s, 0, sizeof s);
	s.fe = fe;
	s.diag = fe_diag(fe);
	s.arena = fe_arena(fe);
	s.opts = o ? o : &defaults;
	s.info = out ? out : &info_local;
	memset(s.info, 0, sizeof *s.info);
	s.errors0 = s.diag->errors;
	ss_init(&s);
	if (prog && prog->kind == AST_PROGRAM) {
		sh_params(&s, prog);
		for (uint32_t i = 0; i < prog->u.program.stmts.len; i++)
			stmt(&s, prog->u.program.stmts.items[i]);
		sh_options(&s, prog);
	}
	ss_pop(&s);
	s.info->nsyms = s.syms.len;
	s.info->syms = arena_alloc(s.arena, (s.syms.len ? s.syms.len : 1) * sizeof *s.info->syms);
	if (s.syms.len)
		memcpy(s.info->syms, s.syms.ptr, s.syms.len * sizeof *s.syms.ptr);
	VEC_FREE(&s.syms);
	VEC_FREE(&s.undeclared);
	ss_fini(&s);
	return s.diag->errors - s.errors0;
}

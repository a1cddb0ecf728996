/*
 * sema_expr.c - semantic analysis of expressions and range lists: variable
 * uses, built-in calls, the 2.4 restrictions on where RANDOM_*, FILE_DATA
 * and MY TASK may appear, and bottom-up constant folding (sema_fold.c) as
 * soon as a node's children are done.
 */
#include <stdint.h>
#include <string.h>

#include "lang/builtins.h"
#include "lang/sema_expr.h"
#include "lang/sema_fold.h"
#include "lang/sema_int.h"
#include "lang/sema_scope.h"

static void expr(sema_ctx *s, ast_node *n, sema_where w);
static void ranges(sema_ctx *s, ast_list *l, sema_where w);

/* primary_expr: ident (a variable use) */
static void ident_use(sema_ctx *s, ast_node *n, const sema_where *w)
{
	sema_sym *y = ss_use(s, n, w);
	if (!y || y->kind != SEMA_SYM_PREDECL)
		return;
	if (w->param) {
		if (s->param_reported != w->param) {
			const ast_node *p = w->param;
			s->param_reported = p;
			sema_error(s, w, p->u.param_decl.def->span, "%s cannot appear within parameter %s's default value",
			           y->name, p->u.param_decl.var->u.ident.name);
		}
	} else if (w->in_let && y->predecl != SEMA_PV_NUM_TASKS) {
		sema_error(s, w, n->span, "\"%s\" is not allowed within a let binding", sema_text(s, n));
	}
}

/* A RANDOM_* or FILE_DATA call at node n: forbidden in some places (2.4). */
static void random_use(sema_ctx *s, ast_node *n, const sema_where *w)
{
	if (w->random_ctx)
		sema_error(s, w, n->span, "\"%s\" is not allowed within %s", sema_text(s, n), w->random_ctx);
}

/* primary_expr: func_name ( expr_list ) */
static void call(sema_ctx *s, ast_node *n, sema_where w)
{
	const bi_info *b = bi_lookup(ast_func_name(n->u.call.fn));
	int nargs = (int)n->u.call.args.len;

	if (b && !bi_arity_ok(b, nargs)) {
		char msg[160];
		bi_arity_message(b, nargs, msg, sizeof msg);
		sema_error(s, &w, n->span, "%s", msg);
	}
	if (b && (b->flags & BI_RANDOM)) {
		s->info->uses_random = 1;
		random_use(s, n, &w);
	}
	if (b && (b->flags & BI_RUNTIME))
		s->info->uses_procmap = 1;
	for (uint32_t i = 0; i < n->u.call.args.len; i++)
		expr(s, n->u.call.args.items[i], w);
}

/* primary_expr: MESH_NEIGHBOR/MESH_COORDINATE/MESH_DISTANCE ( (dims), ... ) */
static void mesh(sema_ctx *s, ast_node *n, sema_where w)
{
	uint32_t nd = n->u.mesh.dims.len;

	if (nd > 3)
		sema_error(s, &w, n->span, "a mesh or torus has at most three dimensions, not %u", (unsigned)nd);
	if (n->u.mesh.fn == AST_MESH_NEIGHBOR && n->u.mesh.offsets.len != nd)
		sema_error(s, &w, n->span, "a MESH_NEIGHBOR's mesh and offset lists must have the same length");
	for (uint32_t i = 0; i < nd; i++) {
		ast_node *d = n->u.mesh.dims.items[i];
		expr(s, d->u.dimension.extent, w);
	}
	expr(s, n->u.mesh.task, w);
	for (uint32_t i = 0; i < n->u.mesh.offsets.len; i++)
		expr(s, n->u.mesh.offsets.items[i], w);
	expr(s, n->u.mesh.other, w);
}

/* primary_expr: [STATIC_]FILE_DATA ( string [, expr [, expr [, string [, string]]]] ) */
static void file_data(sema_ctx *s, ast_node *n, sema_where w)
{
	s->info->uses_file_data = 1;
	if (!n->u.file_data.is_static)
		random_use(s, n, &w);
	for (uint32_t i = 0; i < n->u.file_data.args.len; i++) {
		ast_node *a = n->u.file_data.args.items[i];
		if (a->kind != AST_STRING)
			expr(s, a, w);
		else if (i == 4 && strcmp(a->u.string.text, "\n") != 0)
			sema_error(s, &w, a->span, "only \"\\n\" is supported as the row separator of %s",
			           n->u.file_data.is_static ? "STATIC_FILE_DATA" : "FILE_DATA");
	}
}

/* primary_expr: MY TASK */
static void my_task(sema_ctx *s, ast_node *n, const sema_where *w)
{
	s->info->uses_my_task = 1;
	if (!w->in_if_cond) {
		sema_error(s, w, n->span, "\"%s\" is allowed only within an IF statement's expression", sema_text(s, n));
	} else if (!s->my_task_warned && !w->quiet) {
		s->my_task_warned = 1;
		sema_warning(s, w, n->span, "\"%s\" can lead to unintuitive behavior and should not generally be used",
		             sema_text(s, n));
	}
}

/* Every arithmetic and relational expression node: annotate, check, recurse, fold. */
static void expr(sema_ctx *s, ast_node *n, sema_where w)
{
	if (!n)
		return;
	if (n->kind == AST_STRING)
		return;
	if (n->kind == AST_VALUE_OF) {
		s->info->uses_log = 1;
		return;
	}
	sema_note *t = sema_note_get(s, n);
	t->flags |= SEMA_N_EXPR;
	t->ctx = w.ctx;
	if (ast_is_rel(n->kind))
		t->flags |= SEMA_N_REL;
	switch (n->kind) {
	case AST_INT:
	case AST_DECIMAL:
		break;
	case AST_IDENT:
		ident_use(s, n, &w);
		return; /* never a constant */
	case AST_MY_TASK:
		my_task(s, n, &w);
		return;
	case AST_UNARY:
		expr(s, n->u.unary.operand, w);
		break;
	case AST_BINARY:
		expr(s, n->u.binary.lhs, w);
		expr(s, n->u.binary.rhs, w);
		break;
	case AST_IFELSE:
		expr(s, n->u.ifelse.then, w);
		expr(s, n->u.ifelse.cond, w);
		expr(s, n->u.ifelse.otherwise, w);
		break;
	case AST_CALL:
		call(s, n, w);
		break;
	case AST_REAL_CAST: {
		sema_where f = w;
		f.ctx = SEMA_CTX_FLOAT;
		expr(s, n->u.real_cast.operand, f);
		break;
	}
	case AST_MESH:
		mesh(s, n, w);
		break;
	case AST_FILE_DATA:
		file_data(s, n, w);
		return;
	case AST_COMPARE:
		expr(s, n->u.compare.lhs, w);
		expr(s, n->u.compare.rhs, w);
		break;
	case AST_PARITY:
		expr(s, n->u.parity.operand, w);
		break;
	case AST_IN_INTERVAL:
		expr(s, n->u.in_interval.operand, w);
		expr(s, n->u.in_interval.lo, w);
		expr(s, n->u.in_interval.hi, w);
		break;
	case AST_IN_RANGES:
		expr(s, n->u.in_ranges.operand, w);
		ranges(s, &n->u.in_ranges.ranges, w);
		break;
	case AST_LOGIC:
		expr(s, n->u.logic.lhs, w);
		expr(s, n->u.logic.rhs, w);
		break;
	default:
		return;
	}
	sf_fold(s, n);
}

/* range_list: the values are integers (3.6); a comprehension opens a scope
 * in which each generator binds its variable for the later ones. */
static void ranges(sema_ctx *s, ast_list *l, sema_where w)
{
	w.ctx = SEMA_CTX_INT;
	for (uint32_t i = 0; i < l->len; i++) {
		ast_node *r = l->items[i];
		switch (r->kind) {
		case AST_RANGE_ENUM:
			for (uint32_t j = 0; j < r->u.range_enum.items.len; j++)
				expr(s, r->u.range_enum.items.items[j], w);
			break;
		case AST_RANGE_PROG:
			for (uint32_t j = 0; j < r->u.range_prog.items.len; j++)
				expr(s, r->u.range_prog.items.items[j], w);
			expr(s, r->u.range_prog.last, w);
			sema_note_get(s, r)->ctx = SEMA_CTX_INT;
			sf_fold(s, r);
			break;
		case AST_RANGE_COMP:
			ss_push(s);
			for (uint32_t j = 0; j < r->u.range_comp.gens.len; j++) {
				ast_node *g = r->u.range_comp.gens.items[j];
				ranges(s, &g->u.generator.ranges, w);
				ss_define(s, SEMA_SYM_COMP, g->u.generator.var, g, &w);
			}
			expr(s, r->u.range_comp.where, w);
			expr(s, r->u.range_comp.expr, w);
			ss_pop(s);
			break;
		default:
			break;
		}
	}
}

void sema_expr(sema_ctx *s, ast_node *n, const sema_where *w)
{
	if (!n)
		return;
	expr(s, n, *w);
	if (!w->quiet)
		sf_report(s, n, s->dead == 0, w);
}

void sema_ranges(sema_ctx *s, ast_list *l, const sema_where *w)
{
	ranges(s, l, *w);
	for (uint32_t i = 0; i < l->len; i++)
		sf_report(s, l->items[i], s->dead == 0, w);
}

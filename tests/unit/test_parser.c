/*
 * test_parser.c - the parser and the AST: every grammar rule is reduced by
 * the golden corpus, spans nest, desugarings, error recovery and counting,
 * the AST utilities (intern, clone, child walk), the nesting limits.
 */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/tokfilter.h"
#include "lang/frontend.h"
#include "tests/unit/unit.h"

/* Calls fn on every .ncptl file of golden subfolder sub; returns the count. */
static int each_golden(const char *sub, void (*fn)(const char *path, void *ud), void *ud)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/golden/%s", ut_srcdir(), sub);
	DIR *d = opendir(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 7 || strcmp(e->d_name + len - 6, ".ncptl"))
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		fn(path, ud);
		n++;
	}
	closedir(d);
	return n;
}

static void count_rules(const char *path, void *ud)
{
	fe_ctx *fe = fe_new(NULL);
	fe_set_rule_hits(fe, ud);
	ast_node *prog;
	CU_ASSERT_EQUAL(fe_parse_file(fe, path, &prog), 0);
	fe_free(fe);
}

/* The golden programs reduce every rule of the grammar at least once:
 * Appendix A (1-309), the extension rules and the error rule. */
static void test_rule_coverage(void)
{
	int nr = ncp_rule_count();
	unsigned *hits = calloc((size_t)nr, sizeof *hits);
	int n = each_golden("ast", count_rules, hits);
	n += each_golden("errors", count_rules, hits);
	CU_ASSERT(n >= 80);
	int missing = 0;
	for (int r = 1; r < nr; r++)
		if (!hits[r]) {
			fprintf(stderr, "\n  rule %d (%s) is never reduced by the golden corpus", r, ncp_rule_lhs(r));
			missing++;
		}
	CU_ASSERT_EQUAL(missing, 0);
	CU_ASSERT(nr > 309);
	free(hits);
}

/* bound: the span children must lie in; a receive or result spec with
 * inherited fields holds copies of the sender's subtrees, which keep their
 * original spans (inside the statement, not inside the spec). */
struct span_check { const ast_node *parent; src_span bound; int bad; };

static void check_child(ast_node *c, void *ud)
{
	struct span_check *sc = ud;
	const ast_node *p = sc->parent;
	src_span b = sc->bound;
	if (!span_empty(c->span) && (c->span.first < b.first || c->span.last > b.last)) {
		fprintf(stderr, "\n  %s span %u-%u escapes parent %s %u-%u", ast_kind_name(c->kind),
		        c->span.first, c->span.last, ast_kind_name(p->kind), b.first, b.last);
		sc->bad++;
	}
	int inh = c->kind == AST_MSG_SPEC && c->u.msg.inherited;
	struct span_check sub = { c, inh ? b : c->span, 0 };
	ast_foreach_child(c, check_child, &sub);
	sc->bad += sub.bad;
}

static void check_spans(const char *path, void *ud)
{
	fe_ctx *fe = fe_new(NULL);
	ast_node *prog;
	CU_ASSERT_EQUAL_FATAL(fe_parse_file(fe, path, &prog), 0);
	CU_ASSERT_EQUAL(fe_errors(fe), 0);
	struct span_check sc = { prog, prog->span, 0 };
	ast_foreach_child(prog, check_child, &sc);
	if (sc.bad)
		fprintf(stderr, " (in %s)", path);
	*(int *)ud += sc.bad;
	/* a clone prints and walks like the original */
	ast_node *copy = ast_clone(fe_arena(fe), prog);
	CU_ASSERT_EQUAL(copy->kind, AST_PROGRAM);
	CU_ASSERT_EQUAL(copy->u.program.stmts.len, prog->u.program.stmts.len);
	CU_ASSERT(copy->u.program.stmts.len == 0 || copy->u.program.stmts.items != prog->u.program.stmts.items);
	fe_free(fe);
}

/* Every child's span lies inside its parent's (STYLE.md point 4). */
static void test_spans_nest(void)
{
	int bad = 0;
	each_golden("ast", check_spans, &bad);
	CU_ASSERT_EQUAL(bad, 0);
}

static ast_node *parse(fe_ctx *fe, const char *text)
{
	return fe_parse_string(fe, "t.ncptl", text, strlen(text));
}

static ast_node *first_stmt(ast_node *prog)
{
	CU_ASSERT_FATAL(prog->u.program.stmts.len > 0);
	ast_node *seq = prog->u.program.stmts.items[0];
	CU_ASSERT_EQUAL_FATAL(seq->kind, AST_SEQ);
	CU_ASSERT_FATAL(seq->u.seq.items.len > 0);
	return seq->u.seq.items.items[0];
}

static void test_desugar(void)
{
	fe_ctx *fe = fe_new(NULL);
	ast_node *s = first_stmt(parse(fe, "task 0 asynchronously sends a 4 byte message to task 1"));
	CU_ASSERT_EQUAL_FATAL(s->kind, AST_SEND);
	ast_node *m = s->u.send.msg, *r = s->u.send.recv;
	CU_ASSERT_EQUAL(m->u.msg.count->kind, AST_INT);
	CU_ASSERT_EQUAL(m->u.msg.count->u.int_.value, 1);
	CU_ASSERT(m->u.msg.count->implicit);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(r->implicit);
	CU_ASSERT_EQUAL(r->u.msg.async, 1);           /* asynchrony is copied too */
	CU_ASSERT(r->u.msg.size != m->u.msg.size);    /* a copy, not shared */
	CU_ASSERT_EQUAL(r->u.msg.size->u.size.value->u.int_.value, 4);

	s = first_stmt(parse(fe, "task 0 sends a message to unsuspecting task 1"));
	CU_ASSERT_PTR_NULL(s->u.send.recv);
	CU_ASSERT(s->u.send.msg->u.msg.size->implicit);   /* empty size = 0 bytes */

	s = first_stmt(parse(fe, "tasks {1, 2} synchronize"));
	ast_node *t = s->u.simple.tasks;
	CU_ASSERT_EQUAL_FATAL(t->kind, AST_TASK_SUCH_THAT);
	CU_ASSERT(t->u.such_that.anonymous);
	CU_ASSERT_EQUAL(t->u.such_that.cond->kind, AST_IN_RANGES);
	CU_ASSERT_PTR_EQUAL(t->u.such_that.var->u.ident.name, t->u.such_that.cond->u.in_ranges.operand->u.ident.name);

	s = first_stmt(parse(fe, "task 0 logs the mean and the sum of x as \"h\""));
	CU_ASSERT_EQUAL_FATAL(s->u.log.columns.len, 2);
	CU_ASSERT_EQUAL(s->u.log.columns.items[0]->u.log_column.agg, AST_AGG_MEAN);
	CU_ASSERT_EQUAL(s->u.log.columns.items[1]->u.log_column.agg, AST_AGG_SUM);
	CU_ASSERT(s->u.log.columns.items[1]->u.log_column.split);

	s = first_stmt(parse(fe, "task 0 outputs -3 and not 0 and -x"));
	CU_ASSERT_EQUAL(s->u.output.items.items[0]->u.int_.value, -3);
	CU_ASSERT_EQUAL(s->u.output.items.items[1]->u.int_.value, -1);
	CU_ASSERT_EQUAL(s->u.output.items.items[2]->kind, AST_UNARY);

	ast_node *p = parse(fe, "{} then for 2 repetitions {} then task 0 synchronizes");
	CU_ASSERT_EQUAL(p->u.program.stmts.items[0]->u.seq.items.len, 1);
	CU_ASSERT_EQUAL(fe_errors(fe), 0);
	fe_free(fe);
}

static void test_errors_and_recovery(void)
{
	fe_ctx *fe = fe_new(NULL);
	parse(fe, "task 0 computes for 3 then\ntask 0 sleeps for 2 secnds\ntask 0 outputs 3 - abs(2)\n"
	          "all tasks synchronize\nlet a be 1 while task 0 synchronizes\n");
	CU_ASSERT_EQUAL(fe_errors(fe), 4);
	fe_free(fe);

	fe = fe_new(NULL);
	parse(fe, "task 0 sends a 4 byte message to task 1 who receives it");
	CU_ASSERT_EQUAL(fe_errors(fe), 1);
	fe_free(fe);

	fe = fe_new(NULL);
	ast_node *prog;
	errno = 0;
	CU_ASSERT_EQUAL(fe_parse_file(fe, "/nonexistent/dir/x.ncptl", &prog), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	/* an empty input is an empty program */
	prog = parse(fe, "");
	CU_ASSERT_EQUAL(prog->kind, AST_PROGRAM);
	CU_ASSERT_EQUAL(prog->u.program.stmts.len, 0);
	CU_ASSERT_EQUAL(fe_errors(fe), 0);
	fe_free(fe);
}

/* "head" + n copies of "rep" + tail, on the heap. */
static char *repeat(const char *head, const char *rep, int n, const char *tail)
{
	size_t h = strlen(head), r = strlen(rep), t = strlen(tail);
	char *s = malloc(h + (size_t)n * r + t + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	memcpy(s, head, h);
	for (int i = 0; i < n; i++)
		memcpy(s + h + (size_t)i * r, rep, r);
	memcpy(s + h + (size_t)n * r, tail, t + 1);
	return s;
}

/* The diagnostics of parsing text (heap), and the error count in *errors. */
static char *parse_messages(const char *text, unsigned *errors)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	fe_ctx *fe = fe_new(out);
	parse(fe, text);
	*errors = fe_errors(fe);
	fe_free(fe);
	fclose(out);
	return buf;
}

/* Parses head + n x rep + tail; true when it gives exactly `errors` errors
 * and, if want is not NULL, the first line of the diagnostics is want. */
static int nests(const char *head, const char *rep, int n, const char *tail, unsigned errors, const char *want)
{
	char *text = repeat(head, rep, n, tail);
	unsigned got;
	char *msg = parse_messages(text, &got);
	int ok = got == errors && (!want || !strncmp(msg, want, strlen(want)));
	if (!ok)
		fprintf(stderr, "\n  %d x '%s': %u errors, expected %u: %.200s", n, rep, got, errors, msg);
	free(msg);
	free(text);
	return ok;
}

/*
 * The nesting limits, at the boundary.  Levels, counted by hand:
 *   - `task 0 outputs 1 + ... + 1` with k terms: the k - 1 additions nest
 *     left, and the first term is one level below the deepest: k levels;
 *   - `task 0 outputs (((1)))` with p pairs: the literal is 1 + p levels;
 *   - `{ ... task 0 synchronizes ... }` with b braces: the top-level
 *     statement is level 1, the blocks 2 .. b + 1, the statement b + 2;
 *   - n loops `for 1 repetitions { ... }`: loop i and its block are levels
 *     2i and 2i + 1, the innermost statement 2n + 2.
 */
static void test_nesting_limits(void)
{
	const char *sum = "t.ncptl:1:16: error: expression nested too deeply (more than 1000 levels)\n";
	CU_ASSERT(nests("task 0 outputs 1", " + 1", 999, "", 0, NULL));
	CU_ASSERT(nests("task 0 outputs 1", " + 1", 1000, "", 1, sum));
	CU_ASSERT(nests("task 0 outputs ", "(", 999, "1", 1, NULL));   /* unbalanced: a syntax error only */
	char *closers = repeat("1", ")", 999, "");
	CU_ASSERT(nests("task 0 outputs ", "(", 999, closers, 0, NULL));
	free(closers);
	closers = repeat("1", ")", 1000, "");
	CU_ASSERT(nests("task 0 outputs ", "(", 1000, closers, 1, sum));
	free(closers);
	CU_ASSERT(nests("", "{ ", 998, "task 0 synchronizes", 1, NULL));   /* no closing braces */
	closers = repeat("task 0 synchronizes", " }", 998, "");
	CU_ASSERT(nests("", "{ ", 998, closers, 0, NULL));
	free(closers);
	closers = repeat("task 0 synchronizes", " }", 999, "");
	CU_ASSERT(nests("", "{ ", 999, closers, 1, "t.ncptl:1:1999: error: statements nested too deeply (more than 1000 levels)\n"));
	free(closers);
	closers = repeat("task 0 synchronizes", " }", 499, "");
	CU_ASSERT(nests("", "for 1 repetitions { ", 499, closers, 0, NULL));
	free(closers);
	closers = repeat("task 0 synchronizes", " }", 500, "");
	CU_ASSERT(nests("", "for 1 repetitions { ", 500, closers, 1, NULL));
	free(closers);
	/* right-nested powers: term k is the left operand of the k-th power,
	 * level k + 1, so the first too deep is term 1000, at column
	 * 16 + 5 x 999; one error per top-level statement */
	CU_ASSERT(nests("task 0 outputs 2", " ** 2", 100000, ".\ntask 1 outputs 3", 1,
	                "t.ncptl:1:5011: error: expression nested too deeply (more than 1000 levels)\n"));
	CU_ASSERT(nests("task 0 outputs 2", " ** 2", 2000, ". task 1 outputs 2 ** 2 ** 2.\ntask 2 outputs 4", 1, NULL));
	char *deep = repeat("task 0 outputs 1", " + 1", 1000, ". task 1 outputs 1");
	CU_ASSERT(nests(deep, " + 1", 1000, "", 2, sum));
	free(deep);
	/* a deep message size is copied into the implicit receive (ast_clone,
	 * before the check): no crash, one error */
	CU_ASSERT(nests("task 0 sends a 1", " + 1", 200000, " byte message to task 1", 1,
	                "t.ncptl:1:16: error: expression nested too deeply (more than 1000 levels)\n"));
}

static void test_intern_and_names(void)
{
	fe_ctx *fe = fe_new(NULL);
	const char *a = fe_intern(fe, "msgsize", 7);
	char buf[16] = "msgsizeXYZ";
	CU_ASSERT_PTR_EQUAL(a, fe_intern(fe, buf, 7));
	CU_ASSERT_PTR_NOT_EQUAL(a, fe_intern(fe, "msgsiz", 6));
	for (int i = 0; i < 2000; i++) {   /* growth keeps earlier names */
		char n[16];
		snprintf(n, sizeof n, "v%d", i);
		fe_intern(fe, n, strlen(n));
	}
	CU_ASSERT_PTR_EQUAL(a, fe_intern(fe, "msgsize", 7));
	ast_node *s = first_stmt(parse(fe, "task Msgsize outputs MSGSIZE"));
	CU_ASSERT_PTR_EQUAL(s->u.output.tasks->u.task_expr.expr->u.ident.name, a);
	CU_ASSERT_STRING_EQUAL(ast_kind_name(AST_TRAFFIC_HOROVOD), "traffic_horovod");
	CU_ASSERT_STRING_EQUAL(ast_kind_name(AST_GENERATOR), "generator");
	CU_ASSERT_STRING_EQUAL(ast_time_unit_name(AST_TU_CYCLES), "cycles");
	CU_ASSERT_EQUAL(ast_time_unit_ps(AST_TU_MINUTES), UINT64_C(60000000000000));
	CU_ASSERT_EQUAL(ast_data_unit_bytes(AST_DU_MEGABYTES), 1048576);
	CU_ASSERT(ast_is_stmt(AST_TRAFFIC_REPLAY) && !ast_is_stmt(AST_MSG_SPEC));
	fe_free(fe);
}

int main(void)
{
	static const ut_test tests[] = {
		{"every grammar rule is covered by the golden corpus", test_rule_coverage},
		{"spans nest", test_spans_nest},
		{"desugarings", test_desugar},
		{"errors and recovery", test_errors_and_recovery},
		{"interned names and tables", test_intern_and_names},
		{"nesting limits", test_nesting_limits},
		{NULL, NULL},
	};
	return ut_run("parser", tests);
}

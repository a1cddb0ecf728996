/*
 * test_sema_fold.c - constant folding and annotations of semantic analysis
 * (lang/sema.h): values in integer and floating-point context (LANGUAGE.md
 * 3.1, 3.2, 5), fold failures as compile-time errors, symbols, the RECEIVE
 * direction and the program summary, and the operator table (lang/ops.h)
 * that folding shares with code generation.  The expected values are the
 * verified examples of LANGUAGE.md.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "lang/frontend.h"
#include "lang/ops.h"
#include "lang/sema.h"

/* One compilation: parse `src` silently and run sema. */
typedef struct comp {
	fe_ctx *fe;
	ast_node *prog;
	sema_info info;
	unsigned errors, warnings;
} comp;

static void compile(comp *c, const char *src)
{
	c->fe = fe_new(NULL);
	c->prog = fe_parse_string(c->fe, "t.ncptl", src, strlen(src));
	CU_ASSERT_EQUAL_FATAL(fe_errors(c->fe), 0);
	sema_check(c->fe, c->prog, NULL, &c->info);
	c->errors = fe_errors(c->fe);
	c->warnings = fe_warnings(c->fe);
}

/* Statement i of top-level statement 0. */
static ast_node *stmt(comp *c, uint32_t i)
{
	ast_node *seq = c->prog->u.program.stmts.items[0];
	CU_ASSERT_FATAL(seq->kind == AST_SEQ && seq->u.seq.items.len > i);
	return seq->u.seq.items.items[i];
}

/* The integer-context value of e, as the count of a FOR ... REPETITIONS loop. */
static int fold_i(const char *e, int64_t *v)
{
	char src[512];
	comp c;
	int ok;
	snprintf(src, sizeof src, "for %s repetitions task 0 synchronizes", e);
	compile(&c, src);
	ast_node *n = stmt(&c, 0)->u.for_reps.count;
	const sema_note *t = sema_note_of(n);
	ok = c.errors == 0 && t && t->ctx == SEMA_CTX_INT && (t->flags & SEMA_N_CONST_I);
	if (ok)
		*v = t->ival;
	CU_ASSERT_EQUAL(sema_const_int(n, v), ok);
	fe_free(c.fe);
	return ok;
}

/* The floating-point-context value of e, as an OUTPUTS item. */
static int fold_f(const char *e, double *v)
{
	char src[512];
	comp c;
	int ok;
	snprintf(src, sizeof src, "task 0 outputs %s", e);
	compile(&c, src);
	ast_node *n = stmt(&c, 0)->u.output.items.items[0];
	const sema_note *t = sema_note_of(n);
	ok = c.errors == 0 && t && t->ctx == SEMA_CTX_FLOAT && (t->flags & SEMA_N_CONST_F);
	if (ok)
		*v = t->fval;
	fe_free(c.fe);
	return ok;
}

#define EXPECT_I(e, want)                                                                     \
	do {                                                                                      \
		int64_t v_ = 0;                                                                       \
		int ok_ = fold_i(e, &v_);                                                             \
		if (!ok_ || v_ != (want))                                                             \
			fprintf(stderr, "%s:%d: int %s = %lld (folded %d), want %lld\n", __FILE__, __LINE__, \
			        e, (long long)v_, ok_, (long long)(want));                                \
		CU_ASSERT_TRUE(ok_);                                                                  \
		CU_ASSERT_EQUAL(v_, (want));                                                          \
	} while (0)

#define EXPECT_F(e, want)                                                                     \
	do {                                                                                      \
		double v_ = 0;                                                                        \
		int ok_ = fold_f(e, &v_);                                                             \
		if (!ok_ || fabs(v_ - (want)) > 1e-9)                                                 \
			fprintf(stderr, "%s:%d: float %s = %.10g (folded %d), want %.10g\n", __FILE__,    \
			        __LINE__, e, v_, ok_, (double)(want));                                     \
		CU_ASSERT_TRUE(ok_);                                                                  \
		CU_ASSERT_DOUBLE_EQUAL(v_, (want), 1e-9);                                             \
	} while (0)

static void test_int_operators(void)
{
	EXPECT_I("24/5*5", 20);
	EXPECT_I("-7/2", -3);
	EXPECT_I("10 mod 3", 1);
	EXPECT_I("16 mod -7", 2);
	EXPECT_I("-16 mod 7", 5);
	EXPECT_I("-16 mod -7", 5);
	EXPECT_I("1 << -1", 0);
	EXPECT_I("16 >> -2", 64);
	EXPECT_I("-7 >> 1", -4);
	EXPECT_I("3|5", 7);
	EXPECT_I("3 xor 5", 6);
	EXPECT_I("5 xor -1", -6);
	EXPECT_I("6 & 3", 2);
	EXPECT_I("not +42", -43);
	EXPECT_I("2**3**2", 512);
	EXPECT_I("-2**2", -4);
	EXPECT_I("2**-1", 0);
	EXPECT_I("(-1)**-3", -1);
	EXPECT_I("1K + 2E3 + 3rd", 1024 + 2000 + 3);
	EXPECT_I("9223372036854775807 + 1", INT64_MIN); /* wraps, as at run time */
}

static void test_int_contexts(void)
{
	EXPECT_I("real(9/2+1/2)", 5);
	EXPECT_I("real(10/3*3)", 10);
	EXPECT_I("real(7/2)", 4);
	EXPECT_I("real(-5/2)", -2);
	EXPECT_I("real(-27/10)", -2);
	EXPECT_I("1.5", 2);          /* decimal literal: REAL()'s rule */
	EXPECT_I("2.5 * 2", 6);      /* (3) * 2 */
	EXPECT_I("real(2.5 * 2)", 5);
	EXPECT_I("666 if 2+2=5 otherwise 777", 777);
	EXPECT_I("2 if 1=0 otherwise 1 if 1=1 otherwise 0", 1);
	EXPECT_I("1 if 3 is in {1, ..., 5} otherwise 0", 1);
	EXPECT_I("1 if 4 is in {1, 3, ..., 9} otherwise 0", 0);
	EXPECT_I("1 if 4 is not in {1, 3, ..., 9} otherwise 0", 1);
	EXPECT_I("1 if 16 is in {2, 4, 8, ..., 50} otherwise 0", 1);
	EXPECT_I("1 if 5 is in [10, 1] otherwise 0", 1);
	EXPECT_I("1 if 2 divides 256 otherwise 0", 1);
	EXPECT_I("1 if -3 is odd otherwise 0", 1);
	EXPECT_I("1 if 8 is odd \\/ 2 divides 256 \\/ 5/0 = 1 otherwise 0", 1);
	EXPECT_I("1 if 8 is even /\\ 3 > 4 otherwise 0", 0);
}

static void test_int_functions(void)
{
	EXPECT_I("root(5, 245)", 3);
	EXPECT_I("root(-3, 8)", 1);
	EXPECT_I("sqrt(15)", 3);
	EXPECT_I("cbrt(27)", 3);
	EXPECT_I("log10(12345)", 4);
	EXPECT_I("factor10(4975)", 4000);
	EXPECT_I("factor10(-4975)", -4000);
	EXPECT_I("min(8, 6, 7, 5, 3, 0, 9)", 0);
	EXPECT_I("max(4, 5, 7, 2, 3, 9, 10, 6)", 10);
	EXPECT_I("bits(-1)", 64);
	EXPECT_I("bits(867)", 10);
	EXPECT_I("floor(-77/10)", -7);
	EXPECT_I("tree_parent(14)", 6);
	EXPECT_I("tree_child(3, 1, 3)", 11);
	EXPECT_I("tree_child(2, 5, 3)", -1);
	EXPECT_I("knomial_child(2, 3, 3, 27)", 20);
	EXPECT_I("knomial_parent(26, 3, 27)", 8);
	EXPECT_I("mesh_neighbor((4*, 3*), 5, (-2, -2))", 11);
	EXPECT_I("mesh_neighbor((4, 3), 5, (-2, 0))", -1);
	EXPECT_I("mesh_neighbor((4*, 3), 5, (-2, 0))", 7);
	EXPECT_I("mesh_neighbor((4*, 3*, 2*), 7, (+100, -200, +300))", 11);
	EXPECT_I("mesh_distance((4*, 3*), 11, 0)", 2);
	EXPECT_I("mesh_coordinate((4, 3), 8, 1)", 2);
	EXPECT_I("mesh_coordinate((4, 3), 12, 0)", -1);
}

static void test_float_context(void)
{
	EXPECT_F("24/5", 4.8);
	EXPECT_F("24/5*5", 24.0);
	EXPECT_F("floor(-7777/10)", -778.0);
	EXPECT_F("ceiling(-7777/10)", -777.0);
	EXPECT_F("round(-7777/10)", -778.0);
	EXPECT_F("round(5/2)", 3.0);
	EXPECT_F("round(-5/2)", -3.0);
	EXPECT_F("real(7/2)", 3.5);
	EXPECT_F("3|5", 7.0);          /* 13 item 8: operands truncated */
	EXPECT_F("7/2 xor 1", 2.0);
	EXPECT_F("cbrt(9)", 2.080083823051904);
	EXPECT_F("log10(999)", 2.9995654882259823);
	EXPECT_F("2**-1", 0.5);
	EXPECT_F("1.5 * 3", 4.5);
	EXPECT_F("0.5 if 1/2 > 0 otherwise 7", 0.5);
	double v;
	CU_ASSERT_TRUE(fold_f("1/0", &v)); /* C division: inf, not an error */
	CU_ASSERT_TRUE(isinf(v));
}

/* Expressions that are not constants at compile time. */
static void test_not_constant(void)
{
	int64_t v;
	double d;
	CU_ASSERT_FALSE(fold_i("num_tasks", &v));
	CU_ASSERT_FALSE(fold_i("num_tasks * 0 + 1", &v));
	CU_ASSERT_FALSE(fold_i("knomial_parent(5)", &v)); /* n defaults to num_tasks */
	CU_ASSERT_FALSE(fold_i("processor_of(0)", &v));
	CU_ASSERT_FALSE(fold_f("random_uniform(0, 1)", &d));
	CU_ASSERT_FALSE(fold_f("static_file_data(\"x.dat\")", &d));
	CU_ASSERT_FALSE(fold_f("elapsed_usecs", &d));
	CU_ASSERT_FALSE(fold_i("1 if 3 is in {x for each x in {1, 2, 3}} otherwise 0", &v));

	/* Parameters are run-time values; their defaults are folded. */
	comp c;
	compile(&c, "n is \"N\" and comes from \"--n\" or \"-n\" with default 2**10.\n"
	            "task 0 outputs n + 1");
	CU_ASSERT_EQUAL(c.errors, 0);
	CU_ASSERT_EQUAL(c.info.nparams, 1);
	CU_ASSERT_EQUAL(c.info.params[0].defval, 1024);
	CU_ASSERT_STRING_EQUAL(c.info.params[0].long_opt, "--n");
	ast_node *e = stmt(&c, 0)->u.output.items.items[0];
	CU_ASSERT_FALSE(sema_note_of(e)->flags & (SEMA_N_CONST_I | SEMA_N_CONST_F));
	ast_node *id = e->u.binary.lhs;
	CU_ASSERT_PTR_EQUAL(sema_note_of(id)->sym, c.info.params[0].sym);
	CU_ASSERT_EQUAL(c.info.params[0].sym->kind, SEMA_SYM_PARAM);
	fe_free(c.fe);
}

/* Counts the errors and warnings of a whole program. */
static void diags(const char *src, unsigned *errors, unsigned *warnings)
{
	comp c;
	compile(&c, src);
	*errors = c.errors;
	*warnings = c.warnings;
	fe_free(c.fe);
}

static void test_fold_errors(void)
{
	unsigned e, w;
	diags("for 1/0 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for 7 mod 0 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for 0**-1 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for 0**0 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("task 0 outputs cbrt(-1)", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("task 0 outputs sqrt(-4)", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for root(0, 8) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for tree_parent(3, 0) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for mesh_coordinate((4, 3, 2), 18, 3) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for abs(-9223372036854775807 - 1) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("for each i in {1, 4, 9, ..., 81} task 0 outputs i", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	diags("task 0 logs the 101 percentile of elapsed_usecs as \"x\"", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	/* Only the evaluated failure is an error; one in float context is inf. */
	diags("task 0 outputs 1/0 + (3 mod 0)", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
	/* Skipped by a constant condition: nothing; by a run-time one: a warning. */
	diags("for (1/0 if 1 = 0 otherwise 3) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 0);
	CU_ASSERT_EQUAL(w, 0);
	diags("for (1/0 if num_tasks = 1 otherwise 3) repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 0);
	CU_ASSERT_EQUAL(w, 1);
	diags("if 1 = 0 then for 1/0 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 0);
	CU_ASSERT_EQUAL(w, 1);
	diags("if 1 = 1 then task 0 synchronizes otherwise for 1/0 repetitions task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 0);
	diags("if 8 is even /\\ 5/0 = 1 then task 0 synchronizes", &e, &w);
	CU_ASSERT_EQUAL(e, 1);
}

static void test_annotations(void)
{
	comp c;
	/* RECEIVE direction (3.5). */
	compile(&c, "tasks dst such that dst < 3 receive a 4 byte message from task dst+1 then\n"
	            "task (s+1) mod 4 receives a 4 byte message from tasks s such that s < 3 then\n"
	            "tasks d such that d < 2 receive a 4 byte message from tasks s such that s = d+1");
	CU_ASSERT_EQUAL(c.errors, 0);
	CU_ASSERT_TRUE(sema_note_of(stmt(&c, 0))->flags & SEMA_N_RECV_T2S);
	CU_ASSERT_TRUE(!sema_note_of(stmt(&c, 1)) || !(sema_note_of(stmt(&c, 1))->flags & SEMA_N_RECV_T2S));
	CU_ASSERT_TRUE(sema_note_of(stmt(&c, 2))->flags & SEMA_N_RECV_T2S);
	fe_free(c.fe);

	/* TASK GROUP g binds g to the acting task and refers to the group. */
	compile(&c, "let g be tasks t such that t is even while task group g outputs g");
	CU_ASSERT_EQUAL(c.errors, 0);
	CU_ASSERT_EQUAL(c.warnings, 0);
	ast_node *let = stmt(&c, 0);
	ast_node *out = let->u.let.body;
	const sema_note *tg = sema_note_of(out->u.output.tasks);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tg);
	CU_ASSERT_EQUAL(tg->group->kind, SEMA_SYM_GROUP);
	CU_ASSERT_PTR_EQUAL(tg->group->binder, let->u.let.bindings.items[0]);
	CU_ASSERT_EQUAL(tg->sym->kind, SEMA_SYM_TASK);
	CU_ASSERT_PTR_EQUAL(sema_note_of(out->u.output.items.items[0])->sym, tg->sym);
	CU_ASSERT_EQUAL(sema_note_of(out->u.output.items.items[0])->ctx, SEMA_CTX_FLOAT);
	fe_free(c.fe);

	/* Predeclared variables resolve to predeclared symbols; shadowing works. */
	compile(&c, "for each x in {1, ..., 3} let x be x * 2 while task 0 outputs x + num_tasks");
	CU_ASSERT_EQUAL(c.errors, 0);
	ast_node *fe_ = stmt(&c, 0);
	ast_node *inner = fe_->u.for_each.body;
	ast_node *sum = inner->u.let.body->u.output.items.items[0];
	const sema_sym *x = sema_note_of(sum->u.binary.lhs)->sym;
	CU_ASSERT_EQUAL(x->kind, SEMA_SYM_LET);
	CU_ASSERT_EQUAL(sema_note_of(inner->u.let.bindings.items[0]->u.binding.value->u.binary.lhs)->sym->kind,
	                SEMA_SYM_FOR_EACH);
	const sema_sym *nt = sema_note_of(sum->u.binary.rhs)->sym;
	CU_ASSERT_EQUAL(nt->kind, SEMA_SYM_PREDECL);
	CU_ASSERT_EQUAL(nt->predecl, SEMA_PV_NUM_TASKS);
	CU_ASSERT_EQUAL(c.info.nsyms, 2);
	CU_ASSERT_PTR_EQUAL(c.info.syms[x->id], x);
	fe_free(c.fe);
}

static void test_info(void)
{
	comp c;
	compile(&c, "task 0 outputs 1");
	CU_ASSERT_FALSE(c.info.uses_log | c.info.uses_random | c.info.uses_io | c.info.uses_traffic);
	fe_free(c.fe);
	compile(&c, "task 0 logs elapsed_usecs as \"t\"");
	CU_ASSERT_TRUE(c.info.uses_log);
	fe_free(c.fe);
	compile(&c, "task 0 outputs the value of \"Rank\"");
	CU_ASSERT_TRUE(c.info.uses_log);
	fe_free(c.fe);
	compile(&c, "let r be a random task while task r synchronizes");
	CU_ASSERT_TRUE(c.info.uses_random && c.info.uses_sync_random);
	fe_free(c.fe);
	compile(&c, "task 0 sleeps for random_uniform(1, 5) microseconds");
	CU_ASSERT_TRUE(c.info.uses_random);
	CU_ASSERT_FALSE(c.info.uses_sync_random);
	fe_free(c.fe);
	compile(&c, "task 0 touches a 1 megabyte memory region with random stride");
	CU_ASSERT_TRUE(c.info.uses_random);
	fe_free(c.fe);
	compile(&c, "all tasks are assigned to a random processor");
	CU_ASSERT_TRUE(c.info.uses_random && c.info.uses_procmap);
	fe_free(c.fe);
	compile(&c, "all tasks read 4 kilobytes");
	CU_ASSERT_TRUE(c.info.uses_io);
	fe_free(c.fe);
	compile(&c, "all tasks generate 10 messages of web_search traffic");
	CU_ASSERT_TRUE(c.info.uses_traffic && c.info.uses_random);
	CU_ASSERT_EQUAL(c.errors, 0);
	fe_free(c.fe);
	compile(&c, "require language version \"1.5\". task 0 outputs 1");
	CU_ASSERT_STRING_EQUAL(c.info.version, "1.5");
	CU_ASSERT_EQUAL(c.warnings, 0);
	fe_free(c.fe);
}

/* a OP b in integer context through the operator table (lang/ops.h); *failed: e recorded an error. */
static int64_t bin_i(ast_binop op, int64_t a, int64_t b, int *failed)
{
	ncsim_err e = NCSIM_ERR_INIT;
	ops_num r = ops_eval_binary(op, 0, (ops_num){ a, 0.0 }, (ops_num){ b, 0.0 }, &e);
	*failed = e.failed;
	return r.i;
}

static double bin_f(ast_binop op, double a, double b)
{
	ncsim_err e = NCSIM_ERR_INIT;
	return ops_eval_binary(op, 1, (ops_num){ 0, a }, (ops_num){ 0, b }, &e).f;
}

/*
 * The operator table: values from LANGUAGE.md 3.2 and 13, worked by hand,
 * and the spellings code generation writes (the same functions).
 */
static void test_ops_table(void)
{
	ncsim_err e = NCSIM_ERR_INIT;
	int failed;

	CU_ASSERT_EQUAL(bin_i(AST_OP_DIV, 7, 2, &failed), 3);
	CU_ASSERT_EQUAL(bin_i(AST_OP_DIV, -7, 2, &failed), -3);
	CU_ASSERT_EQUAL(bin_i(AST_OP_MOD, -7, 3, &failed), 2);     /* MOD is never negative */
	CU_ASSERT_EQUAL(bin_i(AST_OP_POW, 2, 10, &failed), 1024);
	CU_ASSERT_EQUAL(bin_i(AST_OP_SHL, 1, -1, &failed), 0);     /* a negative shift goes right */
	CU_ASSERT_EQUAL(bin_i(AST_OP_SHR, -7, 1, &failed), -4);    /* arithmetic */
	CU_ASSERT_EQUAL(bin_i(AST_OP_SHR, 16, -2, &failed), 64);
	CU_ASSERT_EQUAL(bin_i(AST_OP_BAND, 6, 3, &failed), 2);
	CU_ASSERT_EQUAL(bin_i(AST_OP_BOR, 6, 3, &failed), 7);
	CU_ASSERT_EQUAL(bin_i(AST_OP_XOR, 6, 3, &failed), 5);
	CU_ASSERT_EQUAL(bin_i(AST_OP_ADD, INT64_MAX, 1, &failed), INT64_MIN); /* wraps */
	CU_ASSERT_EQUAL(failed, 0);
	bin_i(AST_OP_DIV, 7, 0, &failed);
	CU_ASSERT_EQUAL(failed, 1);
	CU_ASSERT_DOUBLE_EQUAL(bin_f(AST_OP_DIV, 7.0, 2.0), 3.5, 0.0);
	CU_ASSERT_DOUBLE_EQUAL(bin_f(AST_OP_BOR, 3.0, 5.0), 7.0, 0.0); /* 3|5 prints 7 */
	CU_ASSERT_DOUBLE_EQUAL(bin_f(AST_OP_MOD, 7.5, 2.0), 1.0, 0.0);   /* truncated operands */
	CU_ASSERT_EQUAL(ops_eval_unary(AST_UOP_NEG, 0, (ops_num){ 5, 0.0 }, &e).i, -5);
	CU_ASSERT_EQUAL(ops_eval_unary(AST_UOP_NOT, 0, (ops_num){ 0, 0.0 }, &e).i, -1);
	CU_ASSERT_EQUAL(ops_eval_compare(AST_CMP_DIVIDES, 0, (ops_num){ 3, 0.0 }, (ops_num){ 9, 0.0 }, &e), 1);
	CU_ASSERT_EQUAL(ops_eval_compare(AST_CMP_DIVIDES, 1, (ops_num){ 0, 2.0 }, (ops_num){ 0, 9.0 }, &e), 0);
	CU_ASSERT_EQUAL(ops_eval_compare(AST_CMP_LE, 1, (ops_num){ 0, 2.5 }, (ops_num){ 0, 2.5 }, &e), 1);
	CU_ASSERT_EQUAL(e.failed, 0);
	ops_eval_compare(AST_CMP_DIVIDES, 0, (ops_num){ 0, 0.0 }, (ops_num){ 5, 0.0 }, &e);
	CU_ASSERT_EQUAL(e.failed, 1); /* 0 DIVIDES 5 is 5 MOD 0 */

	/* Spellings: integer division can fail, float division is C's; comparisons are C operators. */
	CU_ASSERT_STRING_EQUAL(ops_binary(AST_OP_DIV)->c[0].text, "ncsim_div_i");
	CU_ASSERT_TRUE(ops_binary(AST_OP_DIV)->c[0].fallible && !ops_binary(AST_OP_DIV)->c[0].infix);
	CU_ASSERT_STRING_EQUAL(ops_binary(AST_OP_DIV)->c[1].text, "/");
	CU_ASSERT_TRUE(ops_binary(AST_OP_DIV)->c[1].infix && !ops_binary(AST_OP_DIV)->c[1].fallible);
	CU_ASSERT_STRING_EQUAL(ops_binary(AST_OP_BAND)->c[0].text, "&");
	CU_ASSERT_STRING_EQUAL(ops_binary(AST_OP_BAND)->c[1].text, "ncsim_and_f");
	CU_ASSERT_STRING_EQUAL(ops_unary(AST_UOP_NOT)->c[1].text, "ncsim_not_f");
	CU_ASSERT_STRING_EQUAL(ops_compare(AST_CMP_NE)->c, "!=");
	CU_ASSERT_PTR_NULL(ops_compare(AST_CMP_DIVIDES)->c);
	CU_ASSERT_STRING_EQUAL(ops_compare(AST_CMP_DIVIDES)->mod[0], "ncsim_mod_i");
	for (int op = 0; op < AST_BINOP_COUNT; op++)
		CU_ASSERT_TRUE(ops_binary((ast_binop)op)->eval_i && ops_binary((ast_binop)op)->eval_f &&
		               ops_binary((ast_binop)op)->c[0].text && ops_binary((ast_binop)op)->c[1].text);
}

int main(void)
{
	static const struct { const char *name; void (*fn)(void); } tests[] = {
		{ "integer operators", test_int_operators },
		{ "integer contexts", test_int_contexts },
		{ "integer functions", test_int_functions },
		{ "floating-point context", test_float_context },
		{ "not constant", test_not_constant },
		{ "fold errors", test_fold_errors },
		{ "annotations", test_annotations },
		{ "program summary", test_info },
		{ "operator table", test_ops_table },
	};
	unsigned failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("sema folding", NULL, NULL);
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		CU_add_test(s, tests[i].name, tests[i].fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}

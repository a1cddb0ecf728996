/*
 * test_stdlib_builtins.c - the compiler's table of built-in functions
 * (lang/builtins.h): lookup, arity, placement flags, defaults and folding.
 */
#include "config.h"

#include "lang/builtins.h"
#include "stdlib_test.h"

static void test_lookup(void)
{
	for (int i = 0; i < BI_COUNT; i++) {
		const bi_info *b = bi_get((enum bi_id)i);

		CU_ASSERT_EQUAL((int)b->id, i);
		CU_ASSERT_PTR_EQUAL(bi_lookup(b->name), b);
	}
	CU_ASSERT_PTR_EQUAL(bi_lookup("tree_parent"), bi_get(BI_TREE_PARENT));
	CU_ASSERT_PTR_EQUAL(bi_lookup("Mesh_Neighbor"), bi_get(BI_MESH_NEIGHBOR));
	CU_ASSERT_PTR_NULL(bi_lookup("TORUS_NEIGHBOR")); /* LANGUAGE.md §13 item 18 */
	CU_ASSERT_PTR_NULL(bi_lookup("REAL"));           /* a syntactic form, not a function */
	CU_ASSERT_PTR_NULL(bi_lookup(""));
	CU_ASSERT_EQUAL(BI_COUNT, 28);
	CU_ASSERT_STRING_EQUAL(bi_get(BI_KNOMIAL_CHILD)->c_int, "ncsim_knomial_child_i");
	CU_ASSERT_STRING_EQUAL(bi_get(BI_CEILING)->c_float, "ncsim_ceiling_f");
	CU_ASSERT_STRING_EQUAL(bi_get(BI_STATIC_FILE_DATA)->c_int, "ncsim_file_data_i");
	CU_ASSERT_PTR_NULL(bi_get(BI_PROCESSOR_OF)->c_int);
}

static void test_flags(void)
{
	for (int i = 0; i < BI_COUNT; i++) {
		const bi_info *b = bi_get((enum bi_id)i);
		int random = strncmp(b->name, "RANDOM_", 7) == 0 || strcmp(b->name, "FILE_DATA") == 0;

		CU_ASSERT_EQUAL(!!(b->flags & BI_RANDOM), random);
		CU_ASSERT_EQUAL(!!(b->flags & BI_RNG), strncmp(b->name, "RANDOM_", 7) == 0);
		CU_ASSERT_EQUAL(!!(b->flags & BI_MESH), strncmp(b->name, "MESH_", 5) == 0);
	}
	CU_ASSERT_TRUE(bi_get(BI_STATIC_FILE_DATA)->flags & BI_FILE);
	CU_ASSERT_TRUE(bi_get(BI_TASK_OF)->flags & BI_RUNTIME);
	CU_ASSERT_TRUE(bi_get(BI_MIN)->flags & BI_NARY);
}

static void test_arity(void)
{
	char buf[128];
	const bi_info *kc = bi_lookup("KNOMIAL_CHILD");

	CU_ASSERT_FALSE(bi_arity_ok(kc, 1));
	CU_ASSERT_TRUE(bi_arity_ok(kc, 2));
	CU_ASSERT_TRUE(bi_arity_ok(kc, 4));
	CU_ASSERT_FALSE(bi_arity_ok(kc, 5));
	CU_ASSERT_TRUE(bi_arity_ok(bi_lookup("MAX"), 8));
	CU_ASSERT_FALSE(bi_arity_ok(bi_lookup("MAX"), 0));
	bi_arity_message(kc, 1, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "KNOMIAL_CHILD expects 2, 3 or 4 arguments but was given 1");
	bi_arity_message(bi_lookup("ROOT"), 1, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "ROOT expects 2 argument(s) but was given 1");
	bi_arity_message(bi_lookup("TREE_PARENT"), 3, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "TREE_PARENT expects 1 or 2 arguments but was given 3");
	bi_arity_message(bi_lookup("FILE_DATA"), 6, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "FILE_DATA expects 1, 2, 3, 4 or 5 arguments but was given 6");
	bi_arity_message(bi_lookup("MIN"), 0, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "MIN expects at least 1 argument(s) but was given 0");
}

static void test_defaults(void)
{
	const bi_info *p = bi_get(BI_RANDOM_PARETO), *f = bi_get(BI_FILE_DATA);

	CU_ASSERT_EQUAL(bi_get(BI_TREE_CHILD)->defaults[2].kind, BI_DEF_CONST);
	CU_ASSERT_EQUAL(bi_get(BI_TREE_CHILD)->defaults[2].value, 2);
	CU_ASSERT_EQUAL(bi_get(BI_KNOMIAL_CHILD)->defaults[3].kind, BI_DEF_NUM_TASKS);
	CU_ASSERT_EQUAL(p->defaults[2].kind, BI_DEF_ARG);
	CU_ASSERT_EQUAL(p->defaults[2].value, 1);
	CU_ASSERT_EQUAL(f->defaults[1].value, 1);
	CU_ASSERT_STRING_EQUAL(f->defaults[3].str, " \t");
	CU_ASSERT_STRING_EQUAL(f->defaults[4].str, "\n");
	CU_ASSERT_EQUAL(bi_get(BI_ABS)->defaults[0].kind, BI_DEF_NONE);
}

static void test_foldable(void)
{
	CU_ASSERT_TRUE(bi_foldable(bi_get(BI_ABS), 1, 0));
	CU_ASSERT_FALSE(bi_foldable(bi_get(BI_ABS), 2, 0));
	CU_ASSERT_FALSE(bi_foldable(bi_get(BI_RANDOM_UNIFORM), 2, 1));
	CU_ASSERT_FALSE(bi_foldable(bi_get(BI_STATIC_FILE_DATA), 1, 1));
	CU_ASSERT_FALSE(bi_foldable(bi_get(BI_PROCESSOR_OF), 1, 1));
	/* KNOMIAL_PARENT(t, k) needs num_tasks; with all three arguments it does not. */
	CU_ASSERT_FALSE(bi_foldable(bi_get(BI_KNOMIAL_PARENT), 2, 0));
	CU_ASSERT_TRUE(bi_foldable(bi_get(BI_KNOMIAL_PARENT), 2, 1));
	CU_ASSERT_TRUE(bi_foldable(bi_get(BI_KNOMIAL_PARENT), 3, 0));
	CU_ASSERT_TRUE(bi_foldable(bi_get(BI_MESH_DISTANCE), 3, 0));
}

static void test_call(void)
{
	EXPECT_I(bi_call_i(bi_lookup("TREE_PARENT"), (int64_t[]){ 14 }, 1, -1, E), 6);
	EXPECT_I(bi_call_i(bi_lookup("TREE_CHILD"), (int64_t[]){ 3, 1, 3 }, 3, -1, E), 11);
	EXPECT_I(bi_call_i(bi_lookup("KNOMIAL_PARENT"), (int64_t[]){ 6 }, 1, 8, E), 2);
	EXPECT_I(bi_call_i(bi_lookup("KNOMIAL_CHILDREN"), (int64_t[]){ 1 }, 1, 1, E), -1);
	EXPECT_I(bi_call_i(bi_lookup("KNOMIAL_CHILD"), (int64_t[]){ 2, 3, 3 }, 3, 27, E), 20);
	EXPECT_I(bi_call_i(bi_lookup("MIN"), (int64_t[]){ 8, 6, 7, 5, 3, 0, 9 }, 7, -1, E), 0);
	EXPECT_I(bi_call_i(bi_lookup("MAX"), (int64_t[]){ 4, 5, 7, 2, 3, 9, 10, 6 }, 8, -1, E), 10);
	EXPECT_I(bi_call_i(bi_lookup("ROOT"), (int64_t[]){ -3, 8 }, 2, -1, E), 1);
	EXPECT_I(bi_call_i(bi_lookup("BITS"), (int64_t[]){ 867 }, 1, -1, E), 10);
	EXPECT_I(bi_call_i(bi_lookup("MESH_NEIGHBOR"), (int64_t[]){ 4, 3, 1, NCSIM_TORUS_X | NCSIM_TORUS_Y,
	                                                            5, -2, -2, 0 }, 8, -1, E), 11);
	EXPECT_I(bi_call_i(bi_lookup("MESH_COORDINATE"), (int64_t[]){ 4, 4, 1, 14, 1 }, 5, -1, E), 3);
	EXPECT_I(bi_call_i(bi_lookup("MESH_DISTANCE"), (int64_t[]){ 4, 4, 2, 7, 1, 30 }, 6, -1, E), 3);
	EXPECT_ERR(bi_call_i(bi_lookup("ROOT"), (int64_t[]){ 0, 8 }, 2, -1, E), "unable to take ROOT(0, 8)");
	EXPECT_ERR(bi_call_i(bi_lookup("MESH_DISTANCE"), (int64_t[]){ 4, 4, 2 }, 3, -1, E), "internal error");
	EXPECT_ERR(bi_call_i(bi_lookup("RANDOM_POISSON"), (int64_t[]){ 4 }, 1, -1, E),
	           "cannot be evaluated at compile time");
	EXPECT_F(bi_call_f(bi_lookup("TREE_CHILD"), (double[]){ 3.0, 1.0 }, 2, -1, E), 8.0, 0.0);
	EXPECT_F(bi_call_f(bi_lookup("KNOMIAL_CHILD"), (double[]){ 2.0, 1.0 }, 2, 27, E), 10.0, 0.0);
	EXPECT_F(bi_call_f(bi_lookup("FLOOR"), (double[]){ -777.7 }, 1, -1, E), -778.0, 0.0);
	EXPECT_F(bi_call_f(bi_lookup("MAX"), (double[]){ 1.5, 2.5 }, 2, -1, E), 2.5, 0.0);
	EXPECT_F(bi_call_f(bi_lookup("LOG10"), (double[]){ 1000.0 }, 1, -1, E), 3.0, 1e-12);
	EXPECT_F(bi_call_f(bi_lookup("MESH_COORDINATE"), (double[]){ 4, 3, 2, 18, 2 }, 5, -1, E), 1.0, 0.0);
}

int main(void)
{
	static const ut_test tests[] = {
		{ "lookup", test_lookup },
		{ "flags", test_flags },
		{ "arity", test_arity },
		{ "defaults", test_defaults },
		{ "foldable", test_foldable },
		{ "call", test_call },
		{ NULL, NULL },
	};
	return ut_run("builtin table", tests);
}

/*
 * test_backend_filter.c - BACKEND EXECUTES recognition: allowed call forms pass and are
 * rewritten, anything else (pointers, division, other calls) is refused with the
 * offending item.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "tests/unit/unit.h"

static char *tr(const bf_item *it, int n, int allow, int *bad)
{
	char *err = NULL;
	char *out = bf_translate(it, n, allow, &err, bad);
	free(err);
	return out;
}

/* Translates the items without --allow-backend-code and checks the C it gives. */
static void expect_translation(const bf_item *it, int n, const char *want)
{
	int bad;
	char *out = tr(it, n, 0, &bad);
	UT_ASSERT_TEXT(out, want);
	free(out);
}

static void test_union_allreduce(void)
{
	bf_item it[] = {
		{0, "UNION_MPI_Allreduce([MESSAGE BUFFER 0], [message buffer 1], (int)"},
		{1, "(double)(numwords)"},
		{0, ", UNION_Int, UNION_Op_Sum, UNION_Comm_World);"},
	};
	expect_translation(it, 3, "UNION_MPI_Allreduce(NULL, NULL, (int)((double)(numwords)), UNION_Int, UNION_Op_Sum, "
	                          "UNION_Comm_World);\n");
}

static void test_mpi_rewrite(void)
{
	bf_item it[] = {{0, "MPI_Barrier(MPI_COMM_WORLD); MPI_Allreduce(NULL, NULL, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)"}};
	expect_translation(it, 1, "UNION_MPI_Barrier(UNION_Comm_World);\n"
	                          "UNION_MPI_Allreduce(NULL, NULL, 8, UNION_Double, UNION_Op_Sum, UNION_Comm_World);\n");
}

static void test_empty(void)
{
	bf_item it[] = {{0, ""}};
	expect_translation(it, 1, "");
}

/* Arithmetic arguments pass as written: products, sums, parentheses, casts
 * to arithmetic types, sizeof, an expression item before a `*`; division
 * inside a message buffer is never compiled (the buffer becomes NULL). */
static void test_arithmetic(void)
{
	bf_item sums[] = {{0, "UNION_Compute(2 * (3 + 4) - 1e3 * sizeof(double));"}};
	expect_translation(sums, 1, "UNION_Compute(2 * (3 + 4) - 1e3 * sizeof(double));\n");
	bf_item casts[] = {{0, "UNION_Compute((double)2 * -1.5 + (unsigned long) 5)"}};
	expect_translation(casts, 1, "UNION_Compute((double)2 * -1.5 + (unsigned long) 5);\n");
	bf_item item[] = {{0, "UNION_IO_WRITE(3, "}, {1, "n * 2"}, {0, " * 3)"}};
	expect_translation(item, 3, "UNION_IO_WRITE(3, (n * 2) * 3);\n");
	bf_item buf[] = {{0, "MPI_Send([message buffer 1/2], 4, MPI_INT, 1, 0, MPI_COMM_WORLD)"}};
	expect_translation(buf, 1, "UNION_MPI_Send(NULL, 4, UNION_Int, 1, 0, UNION_Comm_World);\n");
}

static void test_refused(void)
{
	const char *evil[] = {
		"system(\"rm -rf ~\")",
		"UNION_MPI_Send(system(\"x\"), 1)",
		"UNION_Compute(1); exit(0);",
		"MPI_Send(\"str\", 1)",
		"{ UNION_Compute(1); }",
		"UNION_Compute(1) UNION_Compute(2)",
		"UNION_Compute(a[0])",
		/* nothing that reaches memory or traps: no dereference, no cast to
		 * a pointer, no address, no division, no pointer-taking call */
		"UNION_Compute(*(int*)0)",
		"UNION_Compute((int *)0)",
		"UNION_Compute((long)*NULL)",
		"UNION_Compute(2 * *NULL)",
		"UNION_Compute(-*NULL)",
		"UNION_Compute((*NULL))",
		"UNION_Compute(1/0)",
		"UNION_Compute(7 % 2)",
		"UNION_Compute(1 & 3)",
		"UNION_MPI_Send(&UNION_Int, 1, UNION_Int, 1, 0, UNION_Comm_World)",
		"MPI_Comm_rank(MPI_COMM_WORLD, NULL)",
		"UNION_MPI_Isend(NULL, 1, UNION_Int, 1, 0, UNION_Comm_World, NULL)",
		"UNION_MPI_Waitall(4, NULL, NULL)",
		"MPI_Init(NULL, NULL)",
		"UNION_Computer(1)",
	};
	for (size_t i = 0; i < sizeof evil / sizeof *evil; i++) {
		bf_item it[] = {{0, "UNION_Compute(5);"}, {1, "x"}, {0, evil[i]}};
		int bad = -7;
		char *err = NULL;
		char *out = bf_translate(it, 3, 0, &err, &bad);
		CU_ASSERT_PTR_NULL(out);
		CU_ASSERT_PTR_NOT_NULL(err);
		CU_ASSERT_EQUAL(bad, 2);
		free(out);
		free(err);
	}
	/* With --allow-backend-code the text passes verbatim. */
	bf_item ok[] = {{0, "system(\"true\");"}};
	int bad;
	char *out = tr(ok, 1, 1, &bad);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out, "system(\"true\");\n");
	free(out);
}

static void test_declares(void)
{
	char *err = NULL;
	CU_ASSERT_EQUAL(bf_check_declares("", 0, &err), 0);
	CU_ASSERT_EQUAL(bf_check_declares("  /* a comment */ \n // another\n", 0, &err), 0);
	CU_ASSERT_EQUAL(bf_check_declares("int x;", 0, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	CU_ASSERT_EQUAL(bf_check_declares("int x;", 1, &err), 0);
}

int main(void)
{
	static const ut_test tests[] = {
		{"union allreduce with an expression item", test_union_allreduce},
		{"MPI names rewritten", test_mpi_rewrite},
		{"empty text", test_empty},
		{"arithmetic arguments", test_arithmetic},
		{"arbitrary code refused", test_refused},
		{"backend declares", test_declares},
		{NULL, NULL},
	};
	return ut_run("backend_filter", tests);
}

/*
 * test_engine.c - the direct engine's evaluator against the compiled engine
 * and against hand-computed values: integer division and MOD of negative
 * numbers, shifts, wrap-around, run-time errors (message and statement),
 * float-to-integer conversion, built-ins, and the order in which operands
 * that draw random numbers are evaluated.
 *
 * Each program runs on the analytic test machine twice, once built by the C
 * compiler (cg_compile_text + build_load, in a private build cache) and once
 * loaded by the direct engine; the OUTPUTS text and the run-time error must
 * be the same, and the hand-computed lines must be there. Values come from
 * run-time quantities (num_tasks, parameters) so that sema cannot fold them.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/build.h"
#include "compiler/codegen/codegen.h"
#include "engine/engine.h"
#include "runtime/task/task.h"
#include "tests/unit/rt_testlib.h"
#include "tests/unit/unit.h"

static char cache_dir[64];

/* One run: the OUTPUTS text and the run-time error ("" if none). */
typedef struct outcome {
	char out[4096], fatal[1024];
	int rc;
} outcome;

static void run_prog(const rt_program *prog, uint32_t ntasks, outcome *o)
{
	char *sys = tl_analytic(ntasks, NULL);
	FILE *out = fmemopen(o->out, sizeof o->out - 1, "w");
	FILE *err = fopen("/dev/null", "w");
	drv_options d = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1, .output = out};
	memset(o->out, 0, sizeof o->out);
	drv_sim *s = tl_run_opts(prog, ntasks, &d, 0, NULL, &o->rc, err);
	fclose(out);
	fclose(err);
	const char *f = s ? drv_world(s)->fatal : NULL;
	snprintf(o->fatal, sizeof o->fatal, "%s", f ? f : "");
	drv_free(s);
	free(sys);
}

/* Runs text under both engines; asserts they agree; *o gets the direct engine's outcome. */
static void both(const char *text, uint32_t ntasks, outcome *o)
{
	static outcome c;
	char *csrc = NULL, *err = NULL;
	size_t len;
	cg_opts co = {.name = "e"};
	CU_ASSERT_EQUAL_FATAL(cg_compile_text("e.ncptl", text, &co, stderr, &csrc, &len), 0);
	build_opts bo = {.cache_dir = cache_dir};
	build_result br;
	CU_ASSERT_EQUAL_FATAL(build_load(csrc, "e", &bo, &br, &err), 0);
	free(csrc);
	run_prog(br.program, ntasks, &c);
	build_unload(&br);

	eng_opts eo = {.name = "e"};
	eng_prog *p = NULL;
	CU_ASSERT_EQUAL_FATAL(eng_load_text("e.ncptl", text, &eo, stderr, &p), 0);
	run_prog(eng_program(p), ntasks, o);
	eng_free(p);

	CU_ASSERT_EQUAL(o->rc, c.rc);
	CU_ASSERT_STRING_EQUAL(o->out, c.out);
	CU_ASSERT_STRING_EQUAL(o->fatal, c.fatal);
	if (strcmp(o->out, c.out) || strcmp(o->fatal, c.fatal))
		fprintf(stderr, "compiled:\n%s%s\ndirect:\n%s%s\n", c.out, c.fatal, o->out, o->fatal);
}

/* 1 if the output holds the line `line`. */
static int has_line(const outcome *o, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = o->out; (p = strstr(p, line)); p++)
		if ((p == o->out || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Asserts that the output holds `line` (and shows the output if not). */
#define EXPECT_LINE(o, line)                                                                  \
	do {                                                                                  \
		CU_ASSERT_TRUE(has_line((o), (line)));                                        \
		if (!has_line((o), (line)))                                                   \
			fprintf(stderr, "want \"%s\" in:\n%s%s\n", (line), (o)->out, (o)->fatal); \
	} while (0)

/* ------------------------------------------------------------ integer semantics */

static void test_div_mod(void)
{
	outcome o;
	/* a = num_tasks - 9 = -7 on 2 tasks. Division truncates toward zero: -7/2 = -3, 7/-2 = -3.
	 * MOD is always in [0, |b|): -7 mod 2 = 1, 7 mod -2 = 1, -7 mod -2 = 1, -8 mod 3 = 1. */
	both("Let av be num_tasks - 9 while\n"
	     "let q be av / 2 and r be av mod 2 and s be (-av) / (-2) and u be (-av) mod (-2) and v be av mod (-2)"
	     " and w be (av - 1) mod 3 while\n"
	     "task 0 outputs q and \" \" and r and \" \" and s and \" \" and u and \" \" and v and \" \" and w.\n",
	     2, &o);
	EXPECT_LINE(&o, "-3 1 -3 1 1 1");
}

static void test_shifts(void)
{
	outcome o;
	/* a = -7: -7 >> 1 = -4 (arithmetic); 1 << -1 = 0 (a negative count shifts the other way);
	 * 16 >> -2 = 64; 1 << 64 = 0 (every bit shifted out); -7 >> 64 = -1. */
	both("Let av be num_tasks - 9 and one be num_tasks - 1 while\n"
	     "let p be av >> one and q be one << (-one) and r be (16*one) >> (-2*one) and s be one << (64*one)"
	     " and u be av >> (64*one) while\n"
	     "task 0 outputs p and \" \" and q and \" \" and r and \" \" and s and \" \" and u.\n",
	     2, &o);
	EXPECT_LINE(&o, "-4 0 64 0 -1");
}

static void test_wrap(void)
{
	outcome o;
	/* INT64_MAX + 1 wraps to INT64_MIN; -INT64_MIN is INT64_MIN; printed as %.10g. */
	both("Let big be 9223372036854775807 + num_tasks - 1 while let n be -big while\n"
	     "task 0 outputs big and \" \" and n and \" \" and big / (-1).\n",
	     2, &o);
	EXPECT_LINE(&o, "-9.223372037e+18 -9.223372037e+18 9.223372037e+18");
}

static void test_div_zero(void)
{
	outcome o;
	/* z = 0 at run time: an integer-context division fails with the stdlib's message, at line 2. */
	both("Let z be num_tasks - 2 while\n"
	     "let q be 5 / z while task 0 outputs q.\n",
	     2, &o);
	CU_ASSERT_NOT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.fatal, "5 divided by 0 is not defined"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.fatal, "line 2"));
	/* MOD by zero likewise, and in floating point (truncated operands) too. */
	both("Let z be num_tasks - 2 while\ntask 0 outputs 7 mod z.\n", 2, &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.fatal, "7 modulo 0 is not defined"));
}

/* ------------------------------------------------------------ conversions and built-ins */

static void test_real(void)
{
	outcome o;
	/* In an integer context REAL(x) is converted back at once, so REAL(-27) / 10 = -27/10 = -2 and
	 * REAL(27) / 10 = 2 (truncating division); REAL(-27/10) = -2.7 converts as the C backend's
	 * (int64)(d + 0.5) = -2, REAL(27/10) = 2.7 -> 3; the decimal 2.5 -> 3. In floating point
	 * (OUTPUTS) REAL(-27) / 10 is -2.7. */
	both("Let t be num_tasks * 5 while\n"
	     "let ra be real(-27) / t and b be real(27) / t and c be 2.5 * (t / 10) and d be real(-27 / t)"
	     " and f be real(27 / t) while\n"
	     "task 0 outputs ra and \" \" and b and \" \" and c and \" \" and d and \" \" and f and \" \" and real(-27) / t.\n",
	     2, &o);
	EXPECT_LINE(&o, "-2 2 3 -2 3 -2.7");
}

static void test_builtins(void)
{
	outcome o;
	/* n = 2: sqrt(16) = 4, root(3, 27) = 3, log10(1000) = 3 (floor), factor10(4975) = 4000,
	 * bits(-1) = 64, min/max of (3, -5, 9) = -5, 9, abs(-7) = 7, tree_parent(5) = 2 (k = 2),
	 * tree_child(1, 1) = 4, knomial_parent(5, 2, 8) = 1 (tasks 4..7 are the children of 0..3), mesh_neighbor((4,4), 5, (1,0)) = 6,
	 * mesh_coordinate((4,4), 6, 1) = 1, mesh_distance((4*,4), 0, 3) = 1 (around the torus). */
	both("Let n be num_tasks while\n"
	     "let sq be sqrt(8*n) and b be root(3, 27*n/2) and c be log10(500*n) and d be factor10(4975*n/2) while\n"
	     "let e be bits(n - 3) and f be min(3, -5*n/2, 9) and g be max(3, -5, 9*n/2) and h be abs(-7*n/2) while\n"
	     "let i be tree_parent(5*n/2) and j be tree_child(n/2, 1) and k be knomial_parent(5, 2, 4*n) while\n"
	     "let l be mesh_neighbor((4, 4), 5*n/2, (n/2, 0)) and m be mesh_coordinate((4, 4), 3*n, n/2)"
	     " and p be mesh_distance((4*, 4), 0, 3*n/2) while\n"
	     "task 0 outputs sq and \" \" and b and \" \" and c and \" \" and d and \" \" and e and \" \" and f"
	     " and \" \" and g and \" \" and h and \" \" and i and \" \" and j and \" \" and k and \" \" and l"
	     " and \" \" and m and \" \" and p.\n",
	     2, &o);
	EXPECT_LINE(&o, "4 3 3 4000 64 -5 9 7 2 4 1 6 1 1");
	/* Floating point: sqrt(2) = 1.414213562, round(-2.5) = -3 (half away from zero), 2**0.5. */
	both("Let n be num_tasks while task 0 outputs sqrt(n) and \" \" and round(-5/n) and \" \" and n**0.5.\n", 2,
	     &o);
	EXPECT_LINE(&o, "1.414213562 -3 1.414213562");
}

/* ------------------------------------------------------------ order of evaluation */

static void test_random_order(void)
{
	outcome o;
	/* Operands that both draw: the two engines must draw in the same order (the compiled engine's
	 * C compiler evaluates a call's arguments last to first, infix operands first to last).
	 * The values depend on the seed; only the agreement is checked, and that the lines differ. */
	both("Task 0 outputs random_uniform(0, 1000) - 2 * random_uniform(0, 1000) then\n"
	     "task 0 outputs random_uniform(0, 1000) mod (1 + random_uniform(0, 50)) then\n"
	     "task 0 outputs max(random_uniform(0, 1000), 0) - (random_gaussian(0, 100)) then\n"
	     "all tasks compute for random_uniform(1, 100) - 2 * random_uniform(1, 10) microseconds then\n"
	     "task 0 outputs elapsed_usecs.\n",
	     2, &o);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_TRUE(strlen(o.out) > 10);
}

/* ------------------------------------------------------------ statements */

static void test_statements(void)
{
	outcome o;
	/* {1, 2, 4, ..., 64}: 7 values, sum 127; a comprehension of the odd ones below 8: 1 3 5 7;
	 * x IS IN a range list, a warmup loop whose warmups print nothing. */
	both("Let s be 0 while for each v in {1, 2, 4, ..., 64*num_tasks/2} task 0 outputs v then\n"
	     "for each w in {x for each x in {1, ..., 8*num_tasks/2} where x is odd} task 0 outputs \"odd \" and w then\n"
	     "if num_tasks is in {1, 2, 3} then task 0 outputs \"in\" otherwise task 0 outputs \"out\" then\n"
	     "for num_tasks repetitions plus 3 warmup repetitions and a synchronization task 1 outputs \"rep\".\n",
	     2, &o);
	EXPECT_LINE(&o, "64");
	EXPECT_LINE(&o, "odd 7");
	CU_ASSERT_FALSE(has_line(&o, "odd 8"));
	EXPECT_LINE(&o, "in");
	/* 2 measured repetitions print; the 3 warmups do not. */
	int reps = 0;
	for (const char *p = o.out; (p = strstr(p, "rep\n")); p++)
		reps++;
	CU_ASSERT_EQUAL(reps, 2);
}

static void test_comm(void)
{
	outcome o;
	/* A ring of asynchronous sends with implicit receives, a multicast, a reduce to one task, a
	 * barrier among the even tasks (a task group), on 4 tasks. The counters count the program's
	 * point-to-point messages only (a collective's messages are the runtime's): 8 bytes each way. */
	both("Let g be tasks t such that t is even while {\n"
	     "all tasks t asynchronously send a 8 byte message to task (t + 1) mod num_tasks then\n"
	     "all tasks await completion then\n"
	     "task 0 multicasts a 16 byte message to all other tasks then\n"
	     "task group g reduces a doubleword to task 1 then\n"
	     "task group g synchronize then\n"
	     "all tasks t output \"task \" and t and \" sent \" and bytes_sent and \" got \" and bytes_received }.\n",
	     4, &o);
	CU_ASSERT_EQUAL(o.rc, 0);
	EXPECT_LINE(&o, "task 3 sent 8 got 8");
}

static const ut_test engine_tests[] = {
	{"integer division and MOD of negatives", test_div_mod},
	{"shifts", test_shifts},
	{"wrap-around", test_wrap},
	{"division by zero at run time", test_div_zero},
	{"float to integer conversion", test_real},
	{"built-ins", test_builtins},
	{"order of random draws", test_random_order},
	{"loops, ranges, warmups", test_statements},
	{"communication", test_comm},
	{NULL, NULL},
};

int main(void)
{
	snprintf(cache_dir, sizeof cache_dir, "/tmp/ncsim-test-engine.XXXXXX");
	if (!mkdtemp(cache_dir))
		return 1;
	int rc = ut_run("engine", engine_tests);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}

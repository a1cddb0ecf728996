/*
 * test_track.c - rt_track: what a task holds in its locals is released when
 * the task is abandoned (a run-time error, a deadlock, another task's
 * failure), newest first, and only then; generated C tracks every local that
 * holds heap memory and releases it where its scope ends.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen.h"
#include "tests/unit/rt_testlib.h"

/* The releases seen since the last reset, as object ids in call order; those before drv_free. */
static int released[16], nreleased, during_run;

/* An object of a test program: the release records its id. */
typedef struct obj {
	int id;
} obj;

static void release_obj(void *p)
{
	if (nreleased < (int)(sizeof released / sizeof *released))
		released[nreleased++] = ((obj *)p)->id;
}

/* Asserts that the releases were want[0..n), in that order. */
static void expect_released(int n, const int *want)
{
	CU_ASSERT_EQUAL_FATAL(nreleased, n);
	for (int i = 0; i < n; i++)
		CU_ASSERT_EQUAL(released[i], want[i]);
}

static char report[4096];

/*
 * Runs prog on ntasks tasks of the test machine with `extra` system text,
 * frees the simulation and returns drv_run's status; `report` gets the
 * failure report, then the run-time error.
 */
static int run_free_on(const rt_program *prog, uint32_t ntasks, const char *extra)
{
	nreleased = 0;
	memset(report, 0, sizeof report);
	FILE *err = fmemopen(report, sizeof report - 1, "w");
	int rc;
	drv_sim *s = tl_run_analytic(prog, ntasks, extra, &rc, err);
	const char *fatal = s ? drv_world(s)->fatal : NULL;
	fprintf(err, "%s\n", fatal ? fatal : "");
	fclose(err);
	during_run = nreleased;
	drv_free(s);
	return rc;
}

/* run_free_on the test machine as it is. */
static int run_free(const rt_program *prog, uint32_t ntasks) { return run_free_on(prog, ntasks, NULL); }

/* Task 0 fails inside two nested scopes; task 1 waits for a message that never comes, inside one. */
static void fails_nested(rt_task *t)
{
	obj a = {10 + (int)rt_rank(t)}, b = {20 + (int)rt_rank(t)};
	rt_track(t, &a, release_obj);
	if (rt_rank(t) == 1) {
		rt_recv(t, 0, 8, 0, 0);
	} else {
		rt_track(t, &b, release_obj);
		rt_compute(t, 1000);
		rt_fatal(t, "stop here");
	}
}
TL_PROGRAM(prog_fails_nested, fails_nested);

static void test_abandoned_released(void)
{
	CU_ASSERT_EQUAL(run_free(&prog_fails_nested, 2), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "stop here"));
	CU_ASSERT_EQUAL(during_run, 0);
	/* Task 0 first (newest first: b before a), then task 1, which was blocked when the run ended. */
	expect_released(3, (const int[]){20, 10, 11});
}

/* Both tasks hold an object while they wait for each other. */
static void deadlocks(rt_task *t)
{
	obj a = {30 + (int)rt_rank(t)};
	rt_track(t, &a, release_obj);
	rt_recv(t, 1 - rt_rank(t), 8, 0, 0);
	rt_release(t, &a);
}
TL_PROGRAM(prog_deadlocks, deadlocks);

static void test_deadlock_released(void)
{
	CU_ASSERT_EQUAL(run_free(&prog_deadlocks, 2), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "deadlock"));
	CU_ASSERT_EQUAL(during_run, 0);
	expect_released(2, (const int[]){30, 31});
}

/* rt_release releases at once, rt_untrack never; a finished task leaves nothing to release. */
static void scopes(rt_task *t)
{
	obj a = {1}, b = {2}, c = {3};
	rt_track(t, &a, release_obj);
	rt_track(t, &b, release_obj);
	rt_compute(t, 1000);
	rt_release(t, &b);
	rt_track(t, &c, release_obj);
	rt_untrack(t, &c);
	rt_release(t, &a);
}
TL_PROGRAM(prog_scopes, scopes);

static void test_scopes(void)
{
	CU_ASSERT_EQUAL(run_free(&prog_scopes, 1), 0);
	CU_ASSERT_EQUAL(during_run, 2);
	expect_released(2, (const int[]){2, 1});
}

/* Scopes must end in the reverse order of their start. */
static void out_of_order(rt_task *t)
{
	obj a = {4}, b = {5};
	rt_line(t, 3);
	rt_track(t, &a, release_obj);
	rt_track(t, &b, release_obj);
	rt_release(t, &a);
}
TL_PROGRAM(prog_out_of_order, out_of_order);

/* Nothing tracked: rt_untrack is an error too. */
static void untrack_nothing(rt_task *t)
{
	obj a = {6};
	rt_untrack(t, &a);
}
TL_PROGRAM(prog_untrack_nothing, untrack_nothing);

static void test_misuse(void)
{
	CU_ASSERT_EQUAL(run_free(&prog_out_of_order, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "rt_release: not the object tracked last (task 0, line 3"));
	/* The failed task still tracks both: released, newest first. */
	expect_released(2, (const int[]){5, 4});
	CU_ASSERT_EQUAL(run_free(&prog_untrack_nothing, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "rt_untrack: no object is tracked"));
	CU_ASSERT_EQUAL(nreleased, 0);
}

/*
 * The runtime's own calls track what they allocate while a task waits in
 * them: rt_waitall (the request list), rt_reduce_to (the merged group), a
 * linear gather of more than 64 members (the root's request list) and a
 * segmented broadcast tree (each member's children). Task 0 fails; the others
 * wait in those calls for ever. Under AddressSanitizer a leak fails the test.
 */
static void abandoned_in_runtime(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_compute(t, 1000);
		rt_fatal(t, "stop here");
	}
	if (rt_rank(t) == 1) {
		rt_irecv(t, 0, 8, 0, 0);
		rt_waitall(t);
	} else if (rt_rank(t) == 2) {
		rt_reduce_to(t, rt_world(t), rt_world(t), 8);
	} else {
		rt_gather(t, rt_world(t), 3, 8);
	}
}
TL_PROGRAM(prog_abandoned_in_runtime, abandoned_in_runtime);

static void abandoned_in_bcast(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_compute(t, 1000);
		rt_fatal(t, "stop here");
	}
	rt_bcast(t, rt_world(t), 0, 1 << 20);
}
TL_PROGRAM(prog_abandoned_in_bcast, abandoned_in_bcast);

static void test_runtime_calls(void)
{
	static const char colls[] = "[collectives]\ngather = linear\nbcast = binary\n";
	CU_ASSERT_EQUAL(run_free_on(&prog_abandoned_in_runtime, 70, colls), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "stop here"));
	CU_ASSERT_EQUAL(run_free_on(&prog_abandoned_in_bcast, 8, colls), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "stop here"));
	CU_ASSERT_EQUAL(nreleased, 0);
}

/* ---- generated C */

/* The number of times `needle` occurs in s. */
static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * Every local of generated C that holds heap memory is tracked right after
 * its declaration and released once, after its last use; the number of each
 * is written by hand from the program.
 */
static void test_generated(void)
{
	static const char prog[] = "For each n in {1, 3}, {5, 7, ..., 11} {\n"
	                           "  all tasks t send a 1 byte message to task (t + n) mod num_tasks then\n"
	                           "  task 0 multicasts a n byte message to all other tasks then\n"
	                           "  task 0 outputs \"n = \" and n\n"
	                           "}\n";
	char *c = NULL;
	size_t len;
	cg_opts o = {0};
	CU_ASSERT_EQUAL_FATAL(cg_compile_text("track.ncptl", prog, &o, stderr, &c, &len), 0);
	/* The range list of the loop, the group of the multicast, the OUTPUTS text, the remembered senders. */
	static const char *const names[] = {"list", "cg_ga", "cg_ob", "cg_memo"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char track[64], rel[64];
		snprintf(track, sizeof track, "rt_track(t, &%s, ", names[i]);
		snprintf(rel, sizeof rel, "rt_release(t, &%s);", names[i]);
		CU_ASSERT_EQUAL(count(c, track), 1);
		CU_ASSERT_EQUAL(count(c, rel), 1);
		const char *tp = strstr(c, track), *rp = strstr(c, rel);
		CU_ASSERT_TRUE(tp && rp && tp < rp);
	}
	CU_ASSERT_EQUAL(count(c, "rt_track("), 4);
	CU_ASSERT_EQUAL(count(c, "rt_release("), 4);
	/* Nothing else frees memory, and FILE_DATA never needs a local. */
	CU_ASSERT_EQUAL(count(c, "free("), 0);
	/* Scopes end in reverse: the loop's list (declared in the body) before the entry's locals, cg_memo first. */
	CU_ASSERT_TRUE(strstr(c, "rt_release(t, &list);") < strstr(c, "rt_release(t, &cg_memo);"));
	CU_ASSERT_TRUE(strstr(c, "rt_release(t, &cg_memo);") < strstr(c, "rt_release(t, &cg_ob);"));
	CU_ASSERT_TRUE(strstr(c, "rt_release(t, &cg_ob);") < strstr(c, "rt_release(t, &cg_ga);"));
	free(c);
}

int main(void)
{
	static const ut_test tests[] = {
		{"a failed task and a waiting one are released", test_abandoned_released},
		{"tasks in a deadlock are released", test_deadlock_released},
		{"rt_release and rt_untrack end scopes", test_scopes},
		{"scopes out of order are run-time errors", test_misuse},
		{"runtime calls release what they hold", test_runtime_calls},
		{"generated C tracks its heap locals", test_generated},
		{NULL, NULL},
	};
	return ut_run("track", tests);
}

/*
 * test_deadlock.c - runs that cannot finish end with a wait-for report and an
 * error status, never a hang; run-time errors name the task and line.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/rt_testlib.h"

static char report[8192];

/* Runs prog and captures the failure report; returns drv_run's status. */
static int run_capture(const rt_program *prog, uint32_t ntasks)
{
	memset(report, 0, sizeof report);
	FILE *err = fmemopen(report, sizeof report - 1, "w");
	int rc;
	drv_sim *s = tl_run_analytic(prog, ntasks, NULL, &rc, err);
	fclose(err);
	drv_free(s);
	return rc;
}

/* Both tasks send a large (rendezvous) message to each other first. */
static void head_to_head(rt_task *t)
{
	rt_int peer = 1 - rt_rank(t);
	rt_line(t, 12);
	rt_send(t, peer, 1 << 20, 0, 0);
	rt_line(t, 13);
	rt_recv(t, peer, 1 << 20, 0, 0);
}
TL_PROGRAM(prog_head_to_head, head_to_head);

static void test_rendezvous_cycle(void)
{
	CU_ASSERT_EQUAL(run_capture(&prog_head_to_head, 2), 1);
	static const char *const want[] = {
		"deadlock", "2 task(s) are blocked",
		"task 0 (line 12): blocked in a send of 1048576 bytes to task 1, tag 0", "large protocol",
		"wait-for chain: task 0 -> task 1 -> task 0", "wait-for chain: task 1 -> task 0 -> task 1", NULL,
	};
	CU_ASSERT_EQUAL(ut_missing(report, want), 0);
}

/* The same exchange with small messages completes: small sends do not wait for the receiver. */
static void head_to_head_small(rt_task *t)
{
	rt_int peer = 1 - rt_rank(t);
	rt_send(t, peer, 1024, 0, 0);
	rt_recv(t, peer, 1024, 0, 0);
}
TL_PROGRAM(prog_head_to_head_small, head_to_head_small);

static void test_small_exchange_completes(void) { CU_ASSERT_EQUAL(run_capture(&prog_head_to_head_small, 2), 0); }

/* A ring of three where task 2 has already finished: the chain ends at it. */
static void waits_on_finished(rt_task *t)
{
	rt_line(t, 7);
	if (rt_rank(t) == 0)
		rt_recv(t, 1, 8, 4, 0);
	else if (rt_rank(t) == 1)
		rt_recv(t, 2, 8, 4, 0);
}
TL_PROGRAM(prog_waits_on_finished, waits_on_finished);

static void test_chain_to_finished(void)
{
	CU_ASSERT_EQUAL(run_capture(&prog_waits_on_finished, 3), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "task 0 (line 7): blocked in a receive of 8 bytes from task 1, tag 4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "wait-for chain: task 0 -> task 1 -> task 2 (finished)"));
}

/* rt_fatal stops the run with the task, line and time. */
static void bad_peer(rt_task *t)
{
	rt_line(t, 42);
	if (rt_rank(t) == 1)
		rt_send(t, 5, 8, 0, 0);
	else
		rt_recv(t, 1, 8, 0, 0);
}
TL_PROGRAM(prog_bad_peer, bad_peer);

static void test_fatal(void)
{
	drv_sim *s = tl_check_run(&prog_bad_peer, 2, NULL, NULL, 1, NULL);
	const char *m = drv_world(s)->fatal;
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "destination task 5 is out of range (0..1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "task 1, line 42"));
	drv_free(s);
}

int main(void)
{
	static const ut_test tests[] = {
		{"two rendezvous sends to each other", test_rendezvous_cycle},
		{"the same with small messages completes", test_small_exchange_completes},
		{"chain ending at a finished task", test_chain_to_finished},
		{"run-time error stops the run", test_fatal},
		{NULL, NULL},
	};
	return ut_run("deadlock", tests);
}

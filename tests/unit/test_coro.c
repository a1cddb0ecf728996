/*
 * test_coro.c - coroutines: switching, interleaving, stacks (guard pages and
 * slabs), reuse, floating-point state, and the cost of a switch.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/task/coro.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

typedef struct pingarg {
	coro *self;
	int *trace;
	int *n;
	int id, steps;
} pingarg;

/* Appends id*100+step to the trace at each step, yielding in between. */
static void stepper(void *arg)
{
	pingarg *a = arg;
	for (int s = 0; s < a->steps; s++) {
		a->trace[(*a->n)++] = a->id * 100 + s;
		coro_yield(a->self);
	}
}

static void test_switch_order(void)
{
	coro_pool *p = coro_pool_new(0);
	int trace[32], n = 0;
	pingarg a = {.trace = trace, .n = &n, .id = 1, .steps = 3};
	pingarg b = {.trace = trace, .n = &n, .id = 2, .steps = 2};
	char *err = NULL;
	a.self = coro_new(p, stepper, &a, &err);
	b.self = coro_new(p, stepper, &b, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a.self);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.self);
	/* Round robin until both are done. */
	while (!coro_done(a.self) || !coro_done(b.self)) {
		coro_resume(a.self);
		coro_resume(b.self);
	}
	int want[] = {100, 200, 101, 201, 102};
	CU_ASSERT_EQUAL(n, 5);
	for (int i = 0; i < 5 && i < n; i++)
		CU_ASSERT_EQUAL(trace[i], want[i]);
	CU_ASSERT_FALSE(coro_overflowed(a.self));
	coro_free(a.self);
	coro_free(b.self);
	coro_pool_free(p);
}

/* Locals must survive switches; doubles exercise the vector registers. */
static void accumulate(void *arg)
{
	double *out = arg;
	volatile double acc = 0.5;
	char buf[3000];
	memset(buf, 7, sizeof buf);
	for (int i = 1; i <= 1000; i++) {
		acc += (double)i * 0.25;
		if (i % 10 == 0)
			coro_yield(*(coro **)(out + 1));
	}
	*out = acc + buf[2999];
}

static void test_locals_survive(void)
{
	coro_pool *p = coro_pool_new(64 * 1024);
	enum { N = 50 };
	struct { double out; coro *self; } st[N];
	char *err = NULL;
	for (int i = 0; i < N; i++) {
		st[i].self = coro_new(p, accumulate, &st[i], &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(st[i].self);
	}
	for (int round = 0; round < 200; round++)
		for (int i = N - 1; i >= 0; i--)
			coro_resume(st[i].self);
	for (int i = 0; i < N; i++) {
		CU_ASSERT_TRUE(coro_done(st[i].self));
		CU_ASSERT_DOUBLE_EQUAL(st[i].out, 0.5 + 0.25 * 500500 + 7, 1e-9);
		coro_free(st[i].self);
	}
	coro_pool_free(p);
}

static void noop(void *arg) { (*(int *)arg)++; }

/* More coroutines than the guard budget: the rest come from slabs and are reused after free. */
static void test_many_and_reuse(void)
{
	coro_pool *p = coro_pool_new(16 * 1024);
	enum { N = 20000 };
	coro **c = xcalloc(N, sizeof *c);
	int ran = 0;
	char *err = NULL;
	for (int i = 0; i < N; i++) {
		c[i] = coro_new(p, noop, &ran, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c[i]);
	}
	CU_ASSERT_TRUE(coro_pool_guarded(p) > 0);
	CU_ASSERT_TRUE(coro_pool_guarded(p) <= N);
	for (int i = 0; i < N; i++)
		coro_resume(c[i]);
	CU_ASSERT_EQUAL(ran, N);
	for (int i = 0; i < N; i++)
		coro_free(c[i]);
	CU_ASSERT_EQUAL(coro_pool_guarded(p), 0);
	/* A second generation reuses the released slab stacks. */
	for (int i = 0; i < N; i++)
		c[i] = coro_new(p, noop, &ran, &err);
	for (int i = 0; i < N; i++) {
		coro_resume(c[i]);
		coro_free(c[i]);
	}
	CU_ASSERT_EQUAL(ran, 2 * N);
	free(c);
	coro_pool_free(p);
}

#ifndef NCSIM_ASAN
/* Touches its frame from the top down, page by page, so the guard page is hit first. */
static void deep(void *arg)
{
	volatile char big[64 * 1024];
	for (size_t i = sizeof big; i-- > 0;)
		if (i % 1024 == 0)
			big[i] = 1;
	*(int *)arg = big[0];
}
#endif

/* A guarded stack turns an overflow into a fault (checked in a child process). */
static void test_guard_faults(void)
{
#ifdef NCSIM_ASAN
	return; /* ASan reports the overflow itself */
#else
#ifdef HAVE_VALGRIND_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		return; /* valgrind reports the overflow itself */
#endif
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		coro_pool *p = coro_pool_new(16 * 1024);
		int r = 0;
		char *err = NULL;
		coro *c = coro_new(p, deep, &r, &err);
		coro_resume(c);
		_exit(0); /* reached only if nothing faulted */
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS));
#endif
}

typedef struct spinner {
	coro *self;
	long steps;
} spinner;

static void spin(void *arg)
{
	spinner *sp = arg;
	for (;;) {
		sp->steps++;
		coro_yield(sp->self);
	}
}

/* Prints the cost of a resume+yield pair (the figure quoted in the report). */
static void test_switch_cost(void)
{
	coro_pool *p = coro_pool_new(0);
	spinner sp = {0};
	char *err = NULL;
	coro *c = sp.self = coro_new(p, spin, &sp, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	enum { N = 2000000 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < N; i++)
		coro_resume(c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / N;
	printf("\n  %s: %.1f ns per resume+yield\n", coro_switch_name(), ns);
	CU_ASSERT_EQUAL(sp.steps, N); /* every resume ran exactly one step */
	coro_free(c); /* suspended for good: freeing it is legal */
	coro_pool_free(p);
}

int main(void)
{
	static const ut_test tests[] = {
		{"switch order", test_switch_order},
		{"locals and FP state survive switches", test_locals_survive},
		{"20000 coroutines, guards and slab reuse", test_many_and_reuse},
		{"guard page faults on overflow", test_guard_faults},
		{"switch cost", test_switch_cost},
		{NULL, NULL},
	};
	return ut_run("coro", tests);
}

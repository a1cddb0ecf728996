/*
 * test_rtlog.c - log files of the skeleton API (tables, prologue, warmup
 * suppression, the abort epilogue, templates), OUTPUTS lines, and the random
 * generators (rt_random_task, rt_rng).
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "ncsim/stdlib.h"
#include "tests/unit/rt_testlib.h"

#define US RT_PS_PER_US

static char *log_text(const char *dir, const char *job, int rank)
{
	char *p = xasprintf("%s/logs/%s-%d.log", dir, job, rank);
	char *t = ut_slurp(p);
	free(p);
	return t;
}

/* ------------------------------------------------------------ tables */

static rt_int elapsed_seen[4];

/* LANGUAGE.md §10.3's example, plus warmup-suppressed logging and OUTPUTS on task 1. */
static void tables(rt_task *t)
{
	if (rt_rank(t) == 1) {
		rt_compute(t, 5 * US);
		rt_output(t, "second");
		rt_suppress_begin(t);
		rt_output(t, "never (warmup)");
		rt_suppress_end(t);
		return;
	}
	rt_output(t, "first");
	rt_compute(t, 2 * US);
	elapsed_seen[0] = rt_counter(t, RT_ELAPSED_USECS);
	for (int i = 1; i <= 5; i++) {
		rt_log(t, 0, "i", RT_AGG_ALL, 0, i);
		rt_log(t, 1, "i", RT_AGG_MEAN, 0, i);
		rt_log(t, 2, "pct", RT_AGG_PERCENTILE, 21, i);
		rt_log(t, 3, "h", RT_AGG_HISTOGRAM, 0, i / 2.0);
		rt_log(t, 4, "s", RT_AGG_SUM, 0, i * 10);
		rt_log(t, 5, "s", RT_AGG_MAXIMUM, 0, i * 10);
	}
	rt_log(t, 6, "Pi", RT_AGG_ALL, 0, 314 / 100.0);
	/* Logging takes no simulated time: elapsed_usecs has not moved. */
	elapsed_seen[1] = rt_counter(t, RT_ELAPSED_USECS);
	rt_new_statement(t);
	for (int j = 1; j <= 2; j++) {
		for (int k = 1; k <= 3; k++) {
			rt_log(t, 0, "j", RT_AGG_ONLY, 0, j);
			rt_log(t, 1, "med", RT_AGG_MEDIAN, 0, k * j);
			rt_log(t, 2, "fin", RT_AGG_FINAL, 0, k);
		}
		rt_log_flush(t);
	}
	rt_new_statement(t);
	/* A warmup logs nothing and flushes nothing. */
	rt_suppress_begin(t);
	rt_log(t, 0, "warm", RT_AGG_ALL, 0, 99);
	rt_new_statement(t);
	rt_suppress_end(t);
	elapsed_seen[2] = rt_counter(t, RT_ELAPSED_USECS);
}

static const rt_param tables_params[] = {
	{.name = "reps", .desc = "Number of repetitions", .long_opt = "--reps", .short_opt = "-r", .defval = 5},
};
static const rt_program prog_tables = {
	.abi = NCSIM_RT_ABI, .name = "tables", .source_text = "For each i in {1, ..., 5} task 0 logs i as \"i\"",
	.params = tables_params, .nparams = 1, .flags = RT_PROG_USES_LOG, .entry = tables,
};

static void test_tables(void)
{
	char *dir = ut_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char *sys = tl_analytic(2, NULL);
	FILE *out = tmpfile();
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                .out_dir = dir, .output = out};
	char *argv[] = {"--reps=9"};
	int rc;
	drv_sim *s = tl_run_opts(&prog_tables, 2, &o, 1, argv, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	char *text = log_text(dir, "tables", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *data = ut_log_tables(text);
	UT_ASSERT_TEXT(data, ut_verified_tables);
	/* Prologue: backend, tasks, rank, the parameter by its description with its value, the source. */
	static const char *const prologue[] = {
		"# coNCePTuaL backend: ncsim (", "# Number of tasks: 2\n", "# Rank (0<=P<tasks): 0\n",
		"# Number of repetitions: 9\n", "# Log-file template: tables-%p.log\n",
		"#     For each i in {1, ..., 5} task 0 logs i as \"i\"\n", "# Program exited normally.\n", NULL,
	};
	CU_ASSERT_EQUAL(ut_missing(text, prologue), 0);
	CU_ASSERT_PTR_NULL(strstr(text, "warm"));
	CU_ASSERT_PTR_NULL(strstr(text, "Seed for the random-number generator")); /* no RT_PROG_USES_RANDOM */
	/* The task that never logs still has its log, with no table. */
	char *t1 = log_text(dir, "tables", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
	char *d1 = ut_log_tables(t1);
	CU_ASSERT_STRING_EQUAL(d1 ? d1 : "?", "");
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "# Rank (0<=P<tasks): 1\n"));
	/* elapsed_usecs: 2 us of compute, none for the logging. */
	CU_ASSERT_EQUAL(elapsed_seen[0], 2);
	CU_ASSERT_EQUAL(elapsed_seen[1], 2);
	CU_ASSERT_EQUAL(elapsed_seen[2], 2);
	/* OUTPUTS: in simulated-time order, nothing from the warmup. */
	fflush(out);
	rewind(out);
	char buf[256] = {0};
	size_t n = fread(buf, 1, sizeof buf - 1, out);
	buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "first\nsecond\n");
	fclose(out);
	free(d1);
	free(t1);
	free(data);
	free(text);
	drv_free(s);
	free(sys);
	ut_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------ THE VALUE OF, no folder */

static char value_seen[64];

static void values(rt_task *t)
{
	if (rt_rank(t) == 0)
		snprintf(value_seen, sizeof value_seen, "%s|%s|%s", rt_value_of(t, "Number of tasks"),
		         rt_value_of(t, "Seed for the random-number generator"), rt_value_of(t, "no such key"));
}
static const rt_program prog_values = {
	.abi = NCSIM_RT_ABI, .name = "values", .flags = RT_PROG_USES_LOG | RT_PROG_USES_RANDOM, .entry = values,
};

static void test_value_of(void)
{
	char *argv[] = {"--seed=1234", NULL};
	drv_sim *s = tl_check_run(&prog_values, 3, NULL, argv, 0, NULL);
	CU_ASSERT_STRING_EQUAL(value_seen, "3|1234|");
	drv_free(s);
}

/* ------------------------------------------------------------ errors and templates */

static void aborts(rt_task *t)
{
	rt_line(t, 12);
	if (rt_rank(t) == 0) {
		rt_log(t, 0, "x", RT_AGG_ALL, 0, 42);
		rt_compute(t, 3 * US);
		rt_fatal(t, "Assertion failure: x is too large");
	}
	rt_recv(t, 0, 8, 0, 0); /* never sent: task 1 is still blocked when the run ends */
}
static const rt_program prog_aborts = {.abi = NCSIM_RT_ABI, .name = "aborts", .flags = RT_PROG_USES_LOG, .entry = aborts};

static void test_abort_epilogue(void)
{
	char *dir = ut_tmpdir();
	char *sys = tl_analytic(2, NULL);
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1, .out_dir = dir};
	FILE *err = tmpfile();
	int rc;
	drv_sim *s = tl_run_opts(&prog_aborts, 2, &o, 0, NULL, &rc, err);
	CU_ASSERT_EQUAL(rc, 1);
	for (int r = 0; r < 2; r++) {
		char *text = log_text(dir, "aborts", r);
		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "# Program aborted with the following error message:\n"
		                                    "#     Assertion failure: x is too large (task 0, line 12, time 3.000000 us)\n"));
		CU_ASSERT_PTR_NULL(strstr(text, "exited normally"));
		if (r == 0) {
			/* The pending table is flushed before the epilogue. */
			char *data = ut_log_tables(text);
			CU_ASSERT_STRING_EQUAL(data ? data : "", "\"x\"\n\"(all data)\"\n42\n");
			free(data);
		}
		free(text);
	}
	fclose(err);
	drv_free(s);
	ut_rmrf(dir);
	free(dir);
	free(sys);
}

static void logs_one(rt_task *t) { rt_log(t, 0, "r", RT_AGG_ALL, 0, (double)rt_rank(t)); }
static const rt_program prog_logs_one = {.abi = NCSIM_RT_ABI, .name = "one", .flags = RT_PROG_USES_LOG, .entry = logs_one};

static void test_templates(void)
{
	char *dir = ut_tmpdir();
	char *sys = tl_analytic(2, NULL);
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1, .out_dir = dir};
	int rc;
	/* A relative template goes under logs/, with its field width. */
	char *a1[] = {"--logfile=sub/run-%03p.txt"};
	drv_sim *s = tl_run_opts(&prog_logs_one, 2, &o, 1, a1, &rc, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	drv_free(s);
	char *p = xasprintf("%s/logs/sub/run-001.txt", dir);
	char *text = ut_slurp(p);
	CU_ASSERT_PTR_NOT_NULL(text);
	CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, "\"r\"\n\"(all data)\"\n1\n") : NULL);
	free(text);
	free(p);
	/* A template without %p is an error before the run. */
	char *a2[] = {"--logfile=x.log"};
	FILE *err = tmpfile();
	s = tl_run_opts(&prog_logs_one, 2, &o, 1, a2, &rc, err);
	CU_ASSERT_EQUAL(rc, -1);
	drv_free(s);
	fclose(err);
	/* An empty template writes nothing. */
	char *d2 = ut_tmpdir();
	o.out_dir = d2;
	char *a3[] = {"--logfile="};
	s = tl_run_opts(&prog_logs_one, 2, &o, 1, a3, &rc, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	drv_free(s);
	p = xasprintf("%s/logs", d2);
	text = ut_slurp(p);
	CU_ASSERT_PTR_NULL(text);
	free(p);
	ut_rmrf(d2);
	free(d2);
	ut_rmrf(dir);
	free(dir);
	free(sys);
}

/* ------------------------------------------------------------ random numbers */

#define DRAWS 20
static rt_int drawn[4][DRAWS];
static uint64_t unsync[4];

static void draws(rt_task *t)
{
	rt_int me = rt_rank(t);
	for (int i = 0; i < DRAWS; i++) {
		/* Tasks reach their draws at different simulated times: the sequence must not depend on it. */
		rt_compute(t, (ncsim_time_t)(me + 1) * US);
		drawn[me][i] = rt_random_task(t, 0, 9, i % 2 ? me : RT_NO_EXCLUDE);
	}
	unsync[me] = ncsim_mt64_next(rt_rng(t));
}
static const rt_program prog_draws = {.abi = NCSIM_RT_ABI, .name = "draws", .flags = RT_PROG_USES_RANDOM, .entry = draws};

static void test_random(void)
{
	char *argv[] = {"--seed=99", NULL};
	drv_free(tl_check_run(&prog_draws, 4, NULL, argv, 0, NULL));
	/*
	 * The synchronised generator is MT19937-64 seeded with 99, drawn in program
	 * order; LANGUAGE.md 9.8 maps a 63-bit draw x (the top bits of the 64-bit
	 * output) to 0 + x mod 10 when nothing is excluded, and with task 0 excluded
	 * to (0 + 1 + x mod 9) mod 10. The values were computed with an independent
	 * MT19937-64 (C++ std::mt19937_64, whose first output for seed 5489 is
	 * test_stdlib_random's reference).
	 */
	static const rt_int want[DRAWS] = {5, 7, 2, 6, 9, 6, 6, 4, 0, 1, 8, 4, 0, 8, 1, 2, 8, 7, 6, 6};
	CU_ASSERT_EQUAL(memcmp(drawn[0], want, sizeof want), 0);
	/* Every task draws the same values where it passes the same arguments (even draws exclude nothing). */
	for (int r = 1; r < 4; r++)
		for (int i = 0; i < DRAWS; i += 2)
			CU_ASSERT_EQUAL(drawn[r][i], drawn[0][i]);
	for (int r = 0; r < 4; r++)
		for (int i = 1; i < DRAWS; i += 2)
			CU_ASSERT_NOT_EQUAL(drawn[r][i], r);
	/* The unsynchronised generators: MT19937-64 seeded with 99 * 1083743797 + physical rank. */
	static const uint64_t first[4] = {UINT64_C(6069872567512369897), UINT64_C(12625827491378099945),
	                                  UINT64_C(9456565801328311761), UINT64_C(7018992418096479966)};
	for (int r = 0; r < 4; r++)
		CU_ASSERT_EQUAL(unsync[r], first[r]);
	/* The same seed gives the same draws again. */
	rt_int before[4][DRAWS];
	memcpy(before, drawn, sizeof before);
	drv_free(tl_check_run(&prog_draws, 4, NULL, argv, 0, NULL));
	CU_ASSERT_EQUAL(memcmp(before, drawn, sizeof before), 0);
}

int main(void)
{
	static const ut_test tests[] = {
		{"log tables, prologue, OUTPUTS, warmups, elapsed time", test_tables},
		{"THE VALUE OF without an output folder", test_value_of},
		{"abort epilogue on every log", test_abort_epilogue},
		{"log-file templates", test_templates},
		{"random tasks and per-task generators", test_random},
		{NULL, NULL},
	};
	return ut_run("rtlog", tests);
}

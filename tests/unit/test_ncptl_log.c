/*
 * test_ncptl_log.c - coNCePTuaL log files (runtime/stats/ncptl_log.h, LANGUAGE.md §10).
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/stats/ncptl_log.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#define SEP NLOG_SEPARATOR "\n"

static int setup(void)
{
	/* Log times are local times: pin the zone so the expected text is fixed. */
	setenv("TZ", "UTC", 1);
	tzset();
	return ut_dir_setup();
}

static char *const test_env[] = { "PATH=/bin", "A_B=2", "A=1", "CTRL=x\ty\001z", "NOEQUALS", NULL };
static const nlog_kv test_options[] = {
	{ "Log-file template", "x-%p.log" },
	{ "Number of repetitions", "5" },
};
static const nlog_kv test_comments[] = {
	{ "Front-end compilation command line", "ncsim compile x.ncptl" },
	{ NULL, "first" },
	{ NULL, "second\nthird" },
};
static char *const test_argv[] = { "./x", "--reps=5", "a b", "it's", "tab\t", NULL };

static nlog_info test_info(void)
{
	nlog_info in = {
		.backend_name = "ncsim",
		.backend_desc = "discrete-event simulation",
		.executable = "/home/u/x",
		.cwd = "/home/u",
		.argc = 5,
		.argv = test_argv,
		.ntasks = 2,
		.rank = 1,
		.uuid = "01234567-89ab-cdef-0123-456789abcdef",
		.options = test_options,
		.noptions = 2,
		.no_trap = "",
		.comments = test_comments,
		.ncomments = 3,
		.creator = "Test User",
		.creation_time = 1700000000, /* Tue Nov 14 22:13:20 2023 UTC */
		.env = test_env,
		.source = "\n  # a program\nTask 0 logs 1 as \"one\".  \n\n",
	};
	return in;
}

static const nlog_epilogue test_epilogue = {
	.completion_time = 1700003725, /* 1 h 2 min 5 s later */
	.elapsed_s = 3725,
	.cpu_user_s = 1.4,
	.cpu_sys_s = 61,
	.major_faults = 2,
	.minor_faults = 300,
	.interrupts = -1,
	.peak_memory = 3 * 1048576 + 524288,
};

static const char *expected_prologue =
	SEP
	"# ===================\n"
	"# coNCePTuaL log file\n"
	"# ===================\n"
	"# coNCePTuaL version: 1.5.1b\n"
	"# coNCePTuaL backend: ncsim (discrete-event simulation)\n"
	"# Executable name: /home/u/x\n"
	"# Working directory: /home/u\n"
	"# Command line: ./x --reps=5 a\\ b it\\'s tab\\011\n"
	"# Number of tasks: 2\n"
	"# Rank (0<=P<tasks): 1\n"
	"# Unique execution identifier: 01234567-89ab-cdef-0123-456789abcdef\n"
	"# Log-file template: x-%p.log\n"
	"# Number of repetitions: 5\n"
	"# List of signals that should not be trapped: \n"
	"# Log-file checkpointing interval: infinite\n"
	"# Front-end compilation command line: ncsim compile x.ncptl\n"
	"# User comment 1: first\n"
	"# User comment 2: second\n"
	"# User comment 3: third\n"
	"# Log creator: Test User\n"
	"# Log creation time: Tue Nov 14 22:13:20 2023\n"
	"#\n"
	"# Environment variables\n"
	"# ---------------------\n"
	"# A: 1\n"
	"# A_B: 2\n"
	"# CTRL: x y z\n"
	"# PATH: /bin\n"
	"#\n"
	"# coNCePTuaL source code\n"
	"# ----------------------\n"
	"#     # a program\n"
	"#     Task 0 logs 1 as \"one\".\n"
	"#\n"
	SEP;

static const char *expected_epilogue =
	SEP
	"# Program exited normally.\n"
	"# Log completion time: Tue Nov 14 23:15:25 2023\n"
	"# Elapsed time: 3725 seconds (i.e., 1 hour, 2 minutes, 5 seconds)\n"
	"# Process CPU usage (user+system): 1 second + 61 seconds (i.e., 1 minute, 1 second)\n"
	"# Number of page faults observed: 2 major, 300 minor\n"
	"# Peak memory allocation: 3670016 bytes (3.5 MB)\n"
	SEP;

static char *path_in_tmp(const char *name) { return xasprintf("%s/%s", ut_dir, name); }

/* Opens a log of test_info() at ut_dir/name; *path gets that path (heap). */
static nlog *open_log(const char *name, char **path)
{
	nlog_info in = test_info();
	char *err = NULL;
	*path = path_in_tmp(name);
	nlog *l = nlog_open(*path, &in, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	return l;
}

/* Closes l (aborted with `abort_msg` unless NULL) and returns the whole file at path (heap). */
static char *close_log(nlog *l, const char *abort_msg, const char *path)
{
	char *err = NULL;
	CU_ASSERT_EQUAL(nlog_close(l, abort_msg, &test_epilogue, &err), 0);
	char *text = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	return text;
}

/* The whole file of a log with one small table. */
static void test_whole_file(void)
{
	char *path, *err = NULL;
	nlog *l = open_log("whole.log", &path);
	CU_ASSERT_STRING_EQUAL(nlog_path(l), path);
	CU_ASSERT_EQUAL(access(path, F_OK), -1); /* atomic: nothing under the final name yet */
	CU_ASSERT_EQUAL(nlog_value(l, 0, "one", RT_AGG_ALL, 0, 1, &err), 0);
	char *text = close_log(l, NULL, path);
	char *want = xasprintf("%s\"one\"\n\"(all data)\"\n1\n%s", expected_prologue, expected_epilogue);
	UT_ASSERT_TEXT(text, want);
	free(want);
	free(text);
	free(path);
}

/* LANGUAGE.md §10.3, the verified example: the data section byte for byte. */
static void test_verified_example(void)
{
	char *path, *err = NULL;
	nlog *l = open_log("verified.log", &path);
	/* For each i in {1, ..., 5} { task 0 logs i as "i" and the mean of i as "i" and ... } */
	for (int i = 1; i <= 5; i++) {
		CU_ASSERT_EQUAL(nlog_value(l, 0, "i", RT_AGG_ALL, 0, i, &err), 0);
		CU_ASSERT_EQUAL(nlog_value(l, 1, "i", RT_AGG_MEAN, 0, i, &err), 0);
		CU_ASSERT_EQUAL(nlog_value(l, 2, "pct", RT_AGG_PERCENTILE, 21, i, &err), 0);
		CU_ASSERT_EQUAL(nlog_value(l, 3, "h", RT_AGG_HISTOGRAM, 0, i / 2.0, &err), 0);
		CU_ASSERT_EQUAL(nlog_value(l, 4, "s", RT_AGG_SUM, 0, i * 10, &err), 0);
		CU_ASSERT_EQUAL(nlog_value(l, 5, "s", RT_AGG_MAXIMUM, 0, i * 10, &err), 0);
	}
	/* then task 0 logs 314/100 as "Pi". */
	CU_ASSERT_EQUAL(nlog_value(l, 6, "Pi", RT_AGG_ALL, 0, 314 / 100.0, &err), 0);
	CU_ASSERT_EQUAL(nlog_end_table(l, &err), 0);
	/* For each j in {1, 2} { for each k in {1, ..., 3} task 0 logs ... then task 0 computes aggregates } */
	for (int j = 1; j <= 2; j++) {
		for (int k = 1; k <= 3; k++) {
			CU_ASSERT_EQUAL(nlog_value(l, 0, "j", RT_AGG_ONLY, 0, j, &err), 0);
			CU_ASSERT_EQUAL(nlog_value(l, 1, "med", RT_AGG_MEDIAN, 0, k * j, &err), 0);
			CU_ASSERT_EQUAL(nlog_value(l, 2, "fin", RT_AGG_FINAL, 0, k, &err), 0);
		}
		CU_ASSERT_EQUAL(nlog_compute_aggregates(l, &err), 0);
	}
	char *text = close_log(l, NULL, path), *data = ut_log_tables(text);
	UT_ASSERT_TEXT(data, ut_verified_tables);
	free(data);
	free(text);
	free(path);
}

/* Heading escapes, skipped column slots, exhausted histograms, %.10g, empty statements. */
static void test_layout(void)
{
	char *path, *err = NULL;
	nlog *l = open_log("layout.log", &path);
	CU_ASSERT_EQUAL(nlog_end_table(l, &err), 0); /* nothing logged: no table, no blank line */
	CU_ASSERT_EQUAL(nlog_value(l, 3, "a \"quoted\" back\\slash\nnewline", RT_AGG_HISTOGRAM, 0, 7, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 1, "x", RT_AGG_ALL, 0, 1.0 / 3.0, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 1, "x", RT_AGG_ALL, 0, 1099511627776.0, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 1, "x", RT_AGG_ALL, 0, -0.000012345678901, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 5, "last", RT_AGG_VARIANCE, 0, 2, &err), 0);
	CU_ASSERT_EQUAL(nlog_end_table(l, &err), 0);
	CU_ASSERT_EQUAL(nlog_end_table(l, &err), 0); /* again: still nothing */
	CU_ASSERT_EQUAL(nlog_value(l, 0, "again", RT_AGG_ALL, 0, 4.8, &err), 0);
	char *text = close_log(l, NULL, path), *data = ut_log_tables(text);
	UT_ASSERT_TEXT(data,
		"\"x\",\"a \\\"quoted\\\" back\\\\slash newline\",\"a \\\"quoted\\\" back\\\\slash newline\",\"last\"\n"
		"\"(all data)\",\"(hist. values)\",\"(hist. tallies)\",\"(variance)\"\n"
		"0.3333333333,7,1,0\n"
		"1.099511628e+12,,,\n"
		"-1.23456789e-05,,,\n"
		"\n"
		"\"again\"\n"
		"\"(all data)\"\n"
		"4.8\n");
	free(data);
	free(text);
	free(path);
}

static void test_column_altered(void)
{
	nlog_info in = test_info();
	char *err = NULL;
	nlog *l = nlog_open(NULL, &in, &err); /* discarding: same checks */
	char heading[] = "h";

	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_PTR_NULL(nlog_path(l));
	CU_ASSERT_EQUAL(nlog_value(l, 0, heading, RT_AGG_MEAN, 0, 1, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "h", RT_AGG_MEAN, 0, 2, &err), 0); /* equal text, other pointer */
	CU_ASSERT_EQUAL(nlog_value(l, 0, "other", RT_AGG_MEAN, 0, 1, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Column information was altered unexpectedly");
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(nlog_value(l, 0, "h", RT_AGG_SUM, 0, 1, &err), -1);
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(nlog_value(l, 1, "p", RT_AGG_PERCENTILE, 50, 1, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 1, "p", RT_AGG_PERCENTILE, 51, 1, &err), -1);
	free(err);
	err = NULL;
	/* A heading changed inside the same buffer is a change too. */
	heading[0] = 'g';
	CU_ASSERT_EQUAL(nlog_value(l, 0, heading, RT_AGG_MEAN, 0, 1, &err), -1);
	free(err);
	err = NULL;
	/* Compute aggregates keeps the column: the next value must still match. */
	CU_ASSERT_EQUAL(nlog_compute_aggregates(l, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "zzz", RT_AGG_MEAN, 0, 1, &err), -1);
	free(err);
	err = NULL;
	/* A new table frees the column index for another heading. */
	CU_ASSERT_EQUAL(nlog_end_table(l, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "zzz", RT_AGG_SUM, 0, 1, &err), 0);
	CU_ASSERT_EQUAL(nlog_close(l, NULL, &test_epilogue, &err), 0);
}

static void test_aggregate_errors(void)
{
	char *path, *err = NULL;
	nlog *l = open_log("abort.log", &path);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "the", RT_AGG_ONLY, 0, 1, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "the", RT_AGG_ONLY, 0, 2, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 1, "ok", RT_AGG_SUM, 0, 5, &err), 0);
	CU_ASSERT_EQUAL(nlog_compute_aggregates(l, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Attempted to log more than one value in a \"THE\" column");
	free(err);
	err = NULL;
	/* The runtime then aborts: the log keeps the data that could be aggregated. */
	char *text = close_log(l, "Attempted to log more than one value in a \"THE\" column", path);
	char *data = ut_log_tables(text);
	CU_ASSERT_STRING_EQUAL(data, "\"ok\"\n\"(sum)\"\n5\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, SEP "# Program aborted with the following error message:\n"
	                                       "#     Attempted to log more than one value in a \"THE\" column\n"
	                                       "# Log completion time: "));
	CU_ASSERT_PTR_NULL(strstr(text, "exited normally"));
	free(data);
	free(text);

	/* An aggregate error found by the final flush of a normal close is recorded as an abort. */
	free(path);
	l = open_log("abort.log", &path);
	CU_ASSERT_EQUAL(nlog_value(l, 0, "hm", RT_AGG_HARMONIC_MEAN, 0, 0, &err), 0);
	CU_ASSERT_EQUAL(nlog_value(l, 2, "pct", RT_AGG_PERCENTILE, 150, 3, &err), 0);
	CU_ASSERT_EQUAL(nlog_close(l, NULL, &test_epilogue, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Attempted to take the harmonic mean of a set containing a zero element");
	free(err);
	err = NULL;
	text = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "# Program aborted with the following error message:\n"
	                                    "#     Attempted to take the harmonic mean of a set containing a zero element\n"));
	data = ut_log_tables(text);
	CU_ASSERT_STRING_EQUAL(data, ""); /* neither column could be aggregated */
	free(data);
	free(text);
	free(path);
}

static void test_abort_epilogue(void)
{
	char *path;
	nlog *l = open_log("aborted.log", &path);
	nlog_add_comment(l, NULL, "late one");
	nlog_add_comment(l, "Simulated time", "12 us");
	char *text = close_log(l, "Task 3 (line 7): deadlock", path);
	char *want = xasprintf("%s" SEP
	                 "# Program aborted with the following error message:\n"
	                 "#     Task 3 (line 7): deadlock\n"
	                 "# Log completion time: Tue Nov 14 23:15:25 2023\n"
	                 "# Elapsed time: 3725 seconds (i.e., 1 hour, 2 minutes, 5 seconds)\n"
	                 "# Process CPU usage (user+system): 1 second + 61 seconds (i.e., 1 minute, 1 second)\n"
	                 "# Number of page faults observed: 2 major, 300 minor\n"
	                 "# Peak memory allocation: 3670016 bytes (3.5 MB)\n"
	                 "# User comment 1: late one\n"
	                 "# Simulated time: 12 us\n" SEP,
	                 expected_prologue);
	UT_ASSERT_TEXT(text, want);
	free(want);
	free(text);
	free(path);
}

static void test_value_of(void)
{
	nlog_info in = test_info();
	char *err = NULL;
	nlog *l = nlog_open(NULL, &in, &err);

	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "Number of tasks"), "2");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "Rank (0<=P<tasks)"), "1");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "coNCePTuaL backend"), "ncsim (discrete-event simulation)");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "Number of repetitions"), "5");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "PATH"), "/bin");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "CTRL"), "x y z");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "User comment 3"), "third");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "Log creation time"), "Tue Nov 14 22:13:20 2023");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "No such key"), "");
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "NOEQUALS"), "");
	nlog_discard(l);
	nlog_discard(NULL);
}

/* Keys containing ':' are written with '.', but looked up as given. */
static void test_colon_keys(void)
{
	nlog_info in = test_info();
	const nlog_kv opts[] = { { "Ratio (a:b)", "3" } };
	char *path = path_in_tmp("colon.log"), *err = NULL, *text;
	nlog *l;

	in.options = opts;
	in.noptions = 1;
	l = nlog_open(path, &in, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(nlog_value_of(l, "Ratio (a:b)"), "3");
	CU_ASSERT_EQUAL(nlog_close(l, NULL, &test_epilogue, &err), 0);
	text = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n# Ratio (a.b): 3\n"));
	free(text);
	free(path);
}

static void test_templates(void)
{
	char *p = NULL, *err = NULL, *tmpl;

	CU_ASSERT_EQUAL(nlog_expand_template("x-%p.log", 7, &p, &err), 1);
	CU_ASSERT_STRING_EQUAL(p, "x-7.log");
	free(p);
	CU_ASSERT_EQUAL(nlog_expand_template("x-%03p.log", 7, &p, &err), 1);
	CU_ASSERT_STRING_EQUAL(p, "x-007.log");
	free(p);
	CU_ASSERT_EQUAL(nlog_expand_template("x-%3p.log", 12, &p, &err), 1);
	CU_ASSERT_STRING_EQUAL(p, "x- 12.log");
	free(p);
	CU_ASSERT_EQUAL(nlog_expand_template("100%%-%p", 0, &p, &err), 1);
	CU_ASSERT_STRING_EQUAL(p, "100%-0");
	free(p);
	CU_ASSERT_EQUAL(nlog_expand_template("", 0, &p, &err), 0);
	CU_ASSERT_PTR_NULL(p);

	/* %r: smallest run number >= 1 whose file does not exist. */
	tmpl = xasprintf("%s/run-%%r-%%p.log", ut_dir);
	CU_ASSERT_EQUAL(nlog_expand_template(tmpl, 0, &p, &err), 1);
	{
		char *want = xasprintf("%s/run-1-0.log", ut_dir);
		CU_ASSERT_STRING_EQUAL(p, want);
		free(want);
	}
	fclose(fopen(p, "w"));
	free(p);
	{
		char *f2 = xasprintf("%s/run-2-0.log", ut_dir), *want = xasprintf("%s/run-3-0.log", ut_dir);
		fclose(fopen(f2, "w"));
		CU_ASSERT_EQUAL(nlog_expand_template(tmpl, 0, &p, &err), 1);
		CU_ASSERT_STRING_EQUAL(p, want);
		free(p);
		/* Another rank still gets run 1. */
		CU_ASSERT_EQUAL(nlog_expand_template(tmpl, 1, &p, &err), 1);
		free(want);
		want = xasprintf("%s/run-1-1.log", ut_dir);
		CU_ASSERT_STRING_EQUAL(p, want);
		free(p);
		free(want);
		free(f2);
	}
	free(tmpl);

	static const struct {
		const char *tmpl, *err;
	} bad[] = {
		{"nolog.log", "The log-file template must contain a \"%p\" (for processor number)"},
		{"x-%p-%", "Missing directive at end of template \"x-%p-%\""},
		{"x-%p-%05", "Missing directive at end of template \"x-%p-%05\""},
		{"x-%q-%p", "Unknown directive \"%q\" in template \"x-%q-%p\""},
		{"x-%0p", "Invalid field width of 0 in \"x-%0p\" -- must be between 1 and 25 digits"},
		{"x-%26p", "Invalid field width of 26 in \"x-%26p\" -- must be between 1 and 25 digits"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(nlog_expand_template(bad[i].tmpl, 0, &p, &err), -1);
		UT_TAKE_ERROR(err, bad[i].err);
	}
	CU_ASSERT_EQUAL(nlog_expand_template("x-%025p", 5, &p, &err), 1);
	CU_ASSERT_STRING_EQUAL(p, "x-0000000000000000000000005");
	free(p);
}

static void test_log_only(void)
{
	char *err = NULL;

	CU_ASSERT_EQUAL(nlog_rank_listed(NULL, 5, &err), 1);
	CU_ASSERT_EQUAL(nlog_rank_listed("0-3,12", 0, &err), 1);
	CU_ASSERT_EQUAL(nlog_rank_listed("0-3,12", 3, &err), 1);
	CU_ASSERT_EQUAL(nlog_rank_listed("0-3,12", 4, &err), 0);
	CU_ASSERT_EQUAL(nlog_rank_listed("0-3,12", 12, &err), 1);
	CU_ASSERT_EQUAL(nlog_rank_listed("0-3 12 20-21", 21, &err), 1);
	CU_ASSERT_EQUAL(nlog_rank_listed("", 0, &err), 0);
	CU_ASSERT_EQUAL(nlog_rank_listed("5-3", 4, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Log-file range \"5-3\" needs to be written as \"3-5\"");
	free(err);
	CU_ASSERT_EQUAL(nlog_rank_listed("1,x", 1, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Invalid value \"x\" in log-file range \"1,x\"");
	free(err);
	CU_ASSERT_EQUAL(nlog_rank_listed("1-", 1, &err), -1);
	free(err);
	CU_ASSERT_EQUAL(nlog_rank_listed("3a", 3, &err), -1);
	free(err);
}

static void test_helpers(void)
{
	char b[128];
	char *const argv[] = { "prog", "a\"b", "$HOME", "x=y,z", "\n", NULL };
	char *cl = nlog_command_line(5, argv), *who;

	CU_ASSERT_STRING_EQUAL(cl, "prog a\\\"b \\$HOME x=y,z \\012");
	free(cl);
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(0, b, sizeof b), "0 seconds");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(-3, b, sizeof b), "0 seconds");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(NAN, b, sizeof b), "0 seconds");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(1.2, b, sizeof b), "1 second");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(59.4, b, sizeof b), "59 seconds");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(60, b, sizeof b), "60 seconds (i.e., 1 minute)");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(90061, b, sizeof b),
	                       "90061 seconds (i.e., 1 day, 1 hour, 1 minute, 1 second)");
	CU_ASSERT_STRING_EQUAL(nlog_friendly_time(172800, b, sizeof b), "172800 seconds (i.e., 2 days)");
	who = nlog_default_creator();
	CU_ASSERT_TRUE(who && *who);
	free(who);
}

/* Measured epilogues and a default creator: the file is well formed. */
static void test_measured(void)
{
	nlog_info in = test_info();
	char *path = path_in_tmp("measured.log"), *err = NULL, *text;
	nlog *l;
	nlog_epilogue ep;

	in.creator = NULL;
	in.creation_time = time(NULL);
	in.source = NULL;
	in.env = NULL;
	l = nlog_open(path, &in, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	nlog_epilogue_measure(l, &ep);
	CU_ASSERT_TRUE(ep.elapsed_s >= 0 && ep.elapsed_s < 60);
	CU_ASSERT_TRUE(ep.peak_memory > 0);
	CU_ASSERT_EQUAL(nlog_close(l, NULL, NULL, &err), 0);
	text = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "# Log creator: "));
	CU_ASSERT_PTR_NULL(strstr(text, "coNCePTuaL source code"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "# Environment variables\n# ---------------------\n" SEP));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "# Program exited normally.\n"));
	free(text);
	free(path);

	/* Opening in a missing directory fails cleanly. */
	l = nlog_open("/nonexistent-dir/x.log", &in, &err);
	CU_ASSERT_PTR_NULL(l);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_STRING_EQUAL(err, "Failed to open log file \"/nonexistent-dir/x.log\" (No such file or directory)");
	free(err);
}

int main(void)
{
	static const ut_test tests[] = {
		{"whole file", test_whole_file},
		{"verified example (LANGUAGE.md 10.3)", test_verified_example},
		{"table layout", test_layout},
		{"column altered", test_column_altered},
		{"aggregate errors", test_aggregate_errors},
		{"abort epilogue", test_abort_epilogue},
		{"THE VALUE OF", test_value_of},
		{"keys with colons", test_colon_keys},
		{"file-name templates", test_templates},
		{"NCPTL_LOG_ONLY", test_log_only},
		{"helpers", test_helpers},
		{"measured epilogue", test_measured},
		{NULL, NULL},
	};
	return ut_run_fixture("ncptl_log", tests, setup, ut_dir_teardown);
}

/*
 * test_calib_propagate.c - calib/propagate.h: the reader of posterior.csv
 * (columns, units, rows, every error with its line), the evenly spaced draws,
 * a draw's system text, the reader of summary.json, the statistics over the
 * draws (GSL's quantile definition worked out by hand), the shares of MPI
 * time and the outputs (posterior-summary.json, draws.csv, the table).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "base/util.h"
#include "calib/propagate.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------------ posterior.csv */

static const char good[] =
	"# written by hand\r\n"
	"\n"
	"sample,chain,log_posterior,network.latency [ps],\"Network.Bandwidth [B/s]\",node.page [B],mpi.credits [int],"
	"some.plain,ssd.d3-s4510.read_bandwidth [B/s]\r\n"
	"0,0,-123.4,1700604.4,1.1e10,4096,64.5,0.5,2e9\r\n"
	"  # a comment between rows\n"
	"1, 1 ,-120,1800000,1.2e10,8192,63.4,-0.25,3e9   \n"
	"2,0,-121,1900000,1.3e10,0,-2,1e-3,4e9";

/* Columns with a '.' are parameters (section split at the last '.'), in file order, lower case. */
static void test_read_columns(void)
{
	cal_posterior p;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_prop_parse("p.csv", good, &p, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_EQUAL(p.ncols, 9);
	CU_ASSERT_EQUAL_FATAL(p.nparams, 6);
	static const struct { const char *section, *key; enum cal_kind kind; size_t col; } want[] = {
		{"network", "latency", CAL_TIME, 3},      {"network", "bandwidth", CAL_BANDWIDTH, 4},
		{"node", "page", CAL_SIZE, 5},             {"mpi", "credits", CAL_INT, 6},
		{"some", "plain", CAL_PLAIN, 7},           {"ssd.d3-s4510", "read_bandwidth", CAL_BANDWIDTH, 8},
	};
	for (size_t i = 0; i < 6; i++) {
		CU_ASSERT_STRING_EQUAL(p.params[i].section, want[i].section);
		CU_ASSERT_STRING_EQUAL(p.params[i].key, want[i].key);
		CU_ASSERT_EQUAL(p.params[i].kind, want[i].kind);
		CU_ASSERT_EQUAL(p.params[i].col, want[i].col);
	}
	CU_ASSERT_STRING_EQUAL(cal_prop_unit(CAL_TIME), "ps");
	CU_ASSERT_STRING_EQUAL(cal_prop_unit(CAL_PLAIN), "");
	cal_prop_free(&p);
}

/* Rows: values in the column's unit, their line numbers (comments and blanks counted), the text as written. */
static void test_read_rows(void)
{
	cal_posterior p;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_prop_parse("p.csv", good, &p, &err), 0);
	CU_ASSERT_EQUAL_FATAL(p.nrows, 3);
	/* Lines: 1 comment, 2 blank, 3 header, 4 row, 5 comment, 6 row, 7 row. */
	CU_ASSERT_EQUAL(p.lines[0], 4);
	CU_ASSERT_EQUAL(p.lines[1], 6);
	CU_ASSERT_EQUAL(p.lines[2], 7);
	CU_ASSERT_DOUBLE_EQUAL(p.values[0 * 6 + 0], 1700604.4, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.values[1 * 6 + 1], 1.2e10, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.values[1 * 6 + 4], -0.25, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.values[2 * 6 + 3], -2, 0); /* an [int] may be negative; times, sizes not */
	CU_ASSERT_DOUBLE_EQUAL(p.values[2 * 6 + 5], 4e9, 0);
	/* The CR and the trailing blanks go, the rest stays as written (draws.csv copies it). */
	CU_ASSERT_STRING_EQUAL(p.rows[1], "1, 1 ,-120,1800000,1.2e10,8192,63.4,-0.25,3e9");
	CU_ASSERT_STRING_EQUAL(p.header, "sample,chain,log_posterior,network.latency [ps],\"Network.Bandwidth [B/s]\","
	                                 "node.page [B],mpi.credits [int],some.plain,ssd.d3-s4510.read_bandwidth [B/s]");
	cal_prop_free(&p);
}

/* Every malformed file: the message with its line; nothing to free. */
static void test_read_errors(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{"", "p.csv:1: no header line (the file is empty or only comments)"},
		{"# only\n\n# comments\n", "p.csv:3: no header line (the file is empty or only comments)"},
		{"a,b.c [ps]\n", "p.csv:1: no row of values after the header"},
		{"a,b.c [ps]\n# nothing\n", "p.csv:2: no row of values after the header"},
		{"sample,chain\n1,2\n", "p.csv:1: no parameter column (SECTION.KEY [UNIT], such as network.latency [ps])"},
		{"a,,b.c\n", "p.csv:1: column 2 has no name"},
		{"a,b.c [ms]\n1,2\n",
		 "p.csv:1: column 'b.c [ms]': unknown unit [ms] (ps, B/s, B, int, or none for a plain number)"},
		{"b.c [ps\n1\n", "p.csv:1: column 'b.c [ps': the unit is not closed by ']'"},
		{"network. [ps]\n1\n",
		 "p.csv:1: column 'network. [ps]': a parameter column is SECTION.KEY [UNIT], such as network.latency [ps]"},
		{".latency\n1\n",
		 "p.csv:1: column '.latency': a parameter column is SECTION.KEY [UNIT], such as network.latency [ps]"},
		{"net work.latency\n1\n",
		 "p.csv:1: column 'net work.latency': a parameter column is SECTION.KEY [UNIT], such as network.latency [ps]"},
		{"a.b [ps],A.B [B]\n1,2\n", "p.csv:1: a.b is in columns 1 and 2"},
		{"s,a.b [ps]\n1,2\n\n3\n", "p.csv:4: 1 fields, the header has 2"},
		{"s,a.b [ps]\n1,2,3\n", "p.csv:2: 3 fields, the header has 2"},
		{"s,a.b [ps]\n1,\n", "p.csv:2: a.b: '' is not a number"},
		{"s,a.b [ps]\n1,12x\n", "p.csv:2: a.b: '12x' is not a number"},
		{"s,a.b [ps]\n1,inf\n", "p.csv:2: a.b: 'inf' is not a finite number"},
		{"s,a.b\n1,nan\n", "p.csv:2: a.b: 'nan' is not a finite number"},
		{"s,a.b [B/s]\n1,1e999\n", "p.csv:2: a.b: '1e999' is not a finite number"},
		{"s,a.b [ps]\n1,-1\n", "p.csv:2: a.b: '-1' is negative"},
		{"s,a.b [B]\n1,-0.5\n", "p.csv:2: a.b: '-0.5' is negative"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cal_posterior p;
		char *err = NULL;
		CU_ASSERT_EQUAL(cal_prop_parse("p.csv", cases[i].text, &p, &err), -1);
		CU_ASSERT_EQUAL(p.nrows, 0);
		CU_ASSERT_PTR_NULL(p.params);
		UT_TAKE_ERROR(err, cases[i].want);
	}
}

/* A file that is not there, or no regular file, is refused before a byte is read. */
static void test_read_files(void)
{
	cal_posterior p;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_prop_load("/nonexistent/posterior.csv", &p, &err), -1);
	UT_TAKE_ERROR(err, "/nonexistent/posterior.csv: cannot open posterior file: No such file or directory");
	CU_ASSERT_EQUAL(cal_prop_load("/", &p, &err), -1);
	UT_TAKE_ERROR(err, "/: cannot read posterior file: is a directory");
	char *path = xasprintf("%s/posterior.csv", ut_dir);
	FILE *f = fopen(path, "w");
	fputs(good, f);
	fclose(f);
	CU_ASSERT_EQUAL(cal_prop_load(path, &p, &err), 0);
	CU_ASSERT_EQUAL(p.nrows, 3);
	cal_prop_free(&p);
	free(path);
}

/* ------------------------------------------------------------------ draws and systems */

/* Draw i of k over n rows is row floor(i n / k). */
static void test_rows(void)
{
	/* 4 of 6: 0, 6/4 = 1.5, 12/4 = 3, 18/4 = 4.5. */
	static const size_t four_of_six[] = {0, 1, 3, 4};
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(cal_prop_row(i, 4, 6), four_of_six[i]);
	/* 3 of 10: 0, 10/3, 20/3. */
	CU_ASSERT_EQUAL(cal_prop_row(1, 3, 10), 3);
	CU_ASSERT_EQUAL(cal_prop_row(2, 3, 10), 6);
	/* As many draws as rows: every row once. */
	for (size_t i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(cal_prop_row(i, 7, 7), i);
	/* Large files: 2^31 rows, the last of 2^20 draws is row (2^20 - 1) x 2^11, no overflow. */
	CU_ASSERT_EQUAL(cal_prop_row((1u << 20) - 1, 1u << 20, (size_t)1 << 31), (((size_t)1 << 20) - 1) << 11);
}

/* Each value goes in with its unit; times, sizes and integers rounded to the nearest whole number. */
static void test_system(void)
{
	cal_posterior p;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_prop_parse("p.csv", good, &p, &err), 0);
	const char *base = "# base\n[network]\nlatency = 1 us   # old\nmodel = analytic\n[mpi]\ncredits = 8\n";
	char *t = cal_prop_system(&p, base, 0);
	/* 1700604.4 ps -> 1700604; 64.5 -> 65 (half away from zero); 1.1e10 with %.10g; a key the base lacks right
	   after its section's header, [ssd...] at the end (sysedit.h). */
	UT_ASSERT_TEXT(t, "# base\n[network]\nbandwidth = 1.1e+10 B/s\nlatency = 1700604 ps\nmodel = analytic\n"
	                  "[mpi]\ncredits = 65\n[node]\npage = 4096 B\n[some]\nplain = 0.5\n"
	                  "[ssd.d3-s4510]\nread_bandwidth = 2000000000 B/s\n");
	free(t);
	t = cal_prop_system(&p, base, 1);
	/* 63.4 -> 63, -0.25 as it is. */
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "credits = 63\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "plain = -0.25\n"));
	free(t);
	cal_prop_free(&p);
}

/* ------------------------------------------------------------------ summary.json */

static const char summary[] =
	"{\n  \"ncsim_version\": \"0.1\",\n  \"command_line\": [\"ncsim\", \"run\"],\n  \"status\": \"ok\",\n"
	"  \"wall_seconds\": 0.25,\n  \"events\": 290,\n  \"sim_end_ps\": 36514698,\n"
	"  \"jobs\": [\n    {\"name\": \"osu-latency\", \"program\": \"osu\\u002dlatency\", \"tasks\": 2, "
	"\"args\": \"--reps \\\"2\\\"\", \"end_ps\": 1000, \"mpi_ps\": 400, \"mpi_network_ps\": 100, "
	"\"mpi_sync_ps\": 200, \"mpi_stack_ps\": 100, \"bytes_sent\": 90},\n"
	"    {\"name\": \"b\", \"program\": \"p\", \"tasks\": 1, \"end_ps\": 5, \"extra\": {\"x\": [1, true, null]}}\n  ],\n"
	"  \"network_totals\": {\"data\": {\"msgs\": 4, \"bytes\": 1e3}},\n  \"flag\": false\n}\n";

/* The numbers of every job, in order, without tasks and strings; the run's end and events; other members skipped. */
static void test_summary(void)
{
	cal_prop_run r;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_prop_read_summary("s.json", summary, &r, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(r.events, 290, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.sim_end_ps, 36514698, 0);
	CU_ASSERT_EQUAL_FATAL(r.njobs, 2);
	CU_ASSERT_STRING_EQUAL(r.jobs[0].name, "osu-latency");
	CU_ASSERT_STRING_EQUAL(r.jobs[0].program, "osu-latency"); /* \u002d is '-' */
	CU_ASSERT_EQUAL(r.jobs[0].tasks, 2);
	static const char *const figs[] = {"end_ps", "mpi_ps", "mpi_network_ps", "mpi_sync_ps", "mpi_stack_ps",
	                                   "bytes_sent"};
	static const double vals[] = {1000, 400, 100, 200, 100, 90};
	CU_ASSERT_EQUAL_FATAL(r.jobs[0].nfig, 6);
	for (size_t f = 0; f < 6; f++) {
		CU_ASSERT_STRING_EQUAL(r.jobs[0].fig[f], figs[f]);
		CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].value[f], vals[f], 0);
	}
	CU_ASSERT_EQUAL(r.jobs[1].nfig, 1); /* the nested object is no figure */
	cal_prop_run_free(&r);

	static const struct { const char *text, *want; } bad[] = {
		{"", "s.json: malformed JSON at byte 0"},
		{"{\"events\": 1, \"sim_end_ps\": 2}", "s.json: no jobs"},
		{"{\"jobs\": [], \"sim_end_ps\": 2}", "s.json: no events"},
		{"{\"jobs\": [], \"events\": 2}", "s.json: no sim_end_ps"},
		{"{\"jobs\": [{\"name\": \"a\"}], \"events\": 1, \"sim_end_ps\": 2}", "s.json: job 0 has no name or program"},
		{"{\"jobs\": [], \"events\": 1, \"sim_end_ps\": 2} x", "s.json: malformed JSON at byte 43"},
		{"{\"jobs\": [{\"name\": \"a\\q\"}]}", "s.json: malformed JSON at byte 22"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(cal_prop_read_summary("s.json", bad[i].text, &r, &err), -1);
		CU_ASSERT_EQUAL(r.njobs, 0);
		UT_TAKE_ERROR(err, bad[i].want);
	}
	/* Nesting deeper than the reader's limit is refused, not followed down the stack. */
	char deep[300];
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	char *text = xasprintf("{\"x\": %s}", deep);
	CU_ASSERT_EQUAL(cal_prop_read_summary("s.json", text, &r, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	err = NULL;
	free(text);
}

/* ------------------------------------------------------------------ statistics */

/*
 * GSL's quantile of sorted x[0..n) at f: with d = (n - 1) f and i = floor(d),
 * x[i] + (d - i)(x[i+1] - x[i]).
 */
static void test_stats(void)
{
	/* Sorted: 1 2 3 4 10. Median: d = 2, 3. 5%: d = 0.2, 1.2. 95%: d = 3.8, 4 + 0.8 x 6 = 8.8.
	   Mean 20 / 5 = 4; deviations -3 -2 -1 0 6, squares 50, sd = sqrt(50 / 4). */
	const double x[] = {10, 2, 4, 1, 3};
	cal_prop_stat s = cal_prop_stats(x, 5);
	CU_ASSERT_DOUBLE_EQUAL(s.median, 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.p05, 1.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.p95, 8.8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.mean, 4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(12.5), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[0], 10, 0); /* the input is not sorted in place */
	/* Four: 1 2 3 4: median d = 1.5, 2.5; 5% d = 0.15, 1.15; 95% d = 2.85, 3.85. */
	const double y[] = {4, 3, 2, 1};
	s = cal_prop_stats(y, 4);
	CU_ASSERT_DOUBLE_EQUAL(s.median, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.p05, 1.15, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.p95, 3.85, 1e-12);
	/* One draw: every quantile is it, sd 0. */
	const double one[] = {7};
	s = cal_prop_stats(one, 1);
	CU_ASSERT_DOUBLE_EQUAL(s.median, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.p05, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.p95, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.sd, 0, 0);
	/* Equal values: the interval collapses. */
	const double same[] = {5, 5, 5};
	s = cal_prop_stats(same, 3);
	CU_ASSERT_TRUE(s.p05 == 5 && s.p95 == 5 && s.median == 5 && s.sd == 0);
	/* Exactly, even where GSL's 0.85 x + 0.15 x lands one unit in the last place below x. */
	const double q[] = {0.9240089050268617, 0.9240089050268617, 0.9240089050268617, 0.9240089050268617};
	CU_ASSERT_TRUE(gsl_stats_quantile_from_sorted_data(q, 1, 4, 0.05) != q[0]);
	s = cal_prop_stats(q, 4);
	CU_ASSERT_TRUE(s.p05 == q[0] && s.p95 == q[0] && s.median == q[0]);
	/* Between two equal middle values of unequal data, too. */
	const double mid[] = {0.1, 0.9240089050268617, 0.9240089050268617, 2};
	s = cal_prop_stats(mid, 4);
	CU_ASSERT_TRUE(s.median == mid[1]);
	const double hole[] = {1, NAN, 3};
	s = cal_prop_stats(hole, 3);
	CU_ASSERT_TRUE(isnan(s.median) && isnan(s.p05) && isnan(s.p95) && isnan(s.mean) && isnan(s.sd));
}

/* A run of one job with the given end time and MPI times (network, sync, stack). */
static cal_prop_run run_of(double end, double net, double sync, double stack)
{
	char *text = xasprintf("{\"events\": 10, \"sim_end_ps\": %.17g, \"jobs\": [{\"name\": \"j\", \"program\": \"p\", "
	                       "\"tasks\": 4, \"end_ps\": %.17g, \"mpi_ps\": %.17g, \"mpi_network_ps\": %.17g, "
	                       "\"mpi_sync_ps\": %.17g, \"mpi_stack_ps\": %.17g, \"io_ps\": 0}]}",
	                       end, end, net + sync + stack, net, sync, stack);
	cal_prop_run r;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_prop_read_summary("s", text, &r, &err), 0);
	free(err);
	free(text);
	return r;
}

/* The shares: each draw's mpi_X_ps / mpi_ps, after the summary's figures; NaN without MPI time. */
static void test_gather(void)
{
	cal_prop_run runs[4] = {run_of(1e9, 50, 30, 20), run_of(1.2e9, 60, 20, 20), run_of(1.1e9, 10, 10, 0),
	                        run_of(1.3e9, 0, 0, 0)};
	cal_prop_table t;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_prop_gather(runs, 4, &t, &err), 0);
	CU_ASSERT_EQUAL_FATAL(t.njobs, 1);
	const struct cal_prop_jobfigs *j = &t.jobs[0];
	CU_ASSERT_EQUAL_FATAL(j->nfig, 9);
	CU_ASSERT_STRING_EQUAL(j->fig[0], "end_ps");
	CU_ASSERT_STRING_EQUAL(j->fig[6], "network_share");
	CU_ASSERT_STRING_EQUAL(j->fig[7], "sync_share");
	CU_ASSERT_STRING_EQUAL(j->fig[8], "stack_share");
	/* 50 / 100, 60 / 100, 10 / 20, and no MPI time: NaN. */
	CU_ASSERT_DOUBLE_EQUAL(j->value[6 * 4 + 0], 0.5, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(j->value[6 * 4 + 1], 0.6, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(j->value[6 * 4 + 2], 0.5, 1e-15);
	CU_ASSERT_TRUE(isnan(j->value[6 * 4 + 3]));
	/* Each draw's shares sum to 1: net + sync + stack is mpi_ps here. */
	for (size_t d = 0; d < 3; d++)
		CU_ASSERT_DOUBLE_EQUAL(j->value[6 * 4 + d] + j->value[7 * 4 + d] + j->value[8 * 4 + d], 1, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(t.sim_end[3], 1.3e9, 0);
	cal_prop_table_free(&t);
	/* A draw with other figures is an error that names it. */
	cal_prop_run_free(&runs[2]);
	CU_ASSERT_EQUAL(cal_prop_read_summary("s", "{\"events\": 1, \"sim_end_ps\": 1, \"jobs\": [{\"name\": \"j\", "
	                                           "\"program\": \"p\", \"tasks\": 4, \"end_ps\": 1}]}", &runs[2], &err), 0);
	CU_ASSERT_EQUAL(cal_prop_gather(runs, 4, &t, &err), -1);
	UT_TAKE_ERROR(err, "draw 2 ran other jobs or reported other figures than draw 0");
	for (size_t d = 0; d < 4; d++)
		cal_prop_run_free(&runs[d]);
}

/* ------------------------------------------------------------------ outputs */

/* The table: times in the unit of the median, shares in %, zero figures and shares of no MPI time left out. */
static void test_print(void)
{
	cal_prop_run runs[4] = {run_of(1e9, 50, 30, 20), run_of(1.2e9, 60, 20, 20), run_of(1.1e9, 54, 26, 20),
	                        run_of(1.3e9, 66, 14, 20)};
	cal_prop_table t;
	char *err = NULL, *buf = NULL;
	size_t len;
	CU_ASSERT_EQUAL_FATAL(cal_prop_gather(runs, 4, &t, &err), 0);
	FILE *f = open_memstream(&buf, &len);
	cal_prop_print(&t, f);
	fclose(f);
	/* End: sorted 1.0 1.1 1.2 1.3 ms: median 1.15, 5% 1.0 + 0.15 x 0.1 = 1.015, 95% 1.2 + 0.85 x 0.1 = 1.285.
	   Network (of 100 ps, so also the share in %): sorted 50 54 60 66: median 57, 5% 50 + 0.15 x 4 = 50.6,
	   95% 60 + 0.85 x 6 = 65.1. Synchronization: 14 20 26 30: 23, 14 + 0.15 x 6 = 14.9, 26 + 0.85 x 4 = 29.4. */
	UT_ASSERT_TEXT(buf,
	               "job 0: j, 4 tasks, 4 posterior draws                     median          5%         95%\n"
	               "  end time                                              1.15 ms    1.015 ms    1.285 ms\n"
	               "  MPI time (all tasks)                                   100 ps      100 ps      100 ps\n"
	               "  MPI network time (all tasks)                            57 ps     50.6 ps     65.1 ps\n"
	               "  MPI synchronization time (all tasks)                    23 ps     14.9 ps     29.4 ps\n"
	               "  MPI software-stack time (all tasks)                     20 ps       20 ps       20 ps\n"
	               "  network share of MPI time                               57.0%       50.6%       65.1%\n"
	               "  synchronization share of MPI time                       23.0%       14.9%       29.4%\n"
	               "  software-stack share of MPI time                        20.0%       20.0%       20.0%\n");
	free(buf);
	cal_prop_table_free(&t);
	for (size_t d = 0; d < 4; d++)
		cal_prop_run_free(&runs[d]);
}

/* posterior-summary.json and draws.csv. */
static void test_outputs(void)
{
	cal_posterior p;
	char *err = NULL, *buf = NULL;
	size_t len;
	CU_ASSERT_EQUAL_FATAL(cal_prop_parse("p.csv", good, &p, &err), 0);
	const size_t rows[] = {0, 2};
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(cal_prop_write_draws(&p, rows, 2, f), 0);
	fclose(f);
	UT_ASSERT_TEXT(buf, "draw,sample,chain,log_posterior,network.latency [ps],\"Network.Bandwidth [B/s]\",node.page [B],"
	                    "mpi.credits [int],some.plain,ssd.d3-s4510.read_bandwidth [B/s]\n"
	                    "0,0,0,-123.4,1700604.4,1.1e10,4096,64.5,0.5,2e9\n"
	                    "1,2,0,-121,1900000,1.3e10,0,-2,1e-3,4e9\n");
	free(buf);

	cal_prop_run runs[2] = {run_of(1e9, 50, 30, 20), run_of(1.2e9, 60, 20, 20)};
	cal_prop_table t;
	CU_ASSERT_EQUAL_FATAL(cal_prop_gather(runs, 2, &t, &err), 0);
	cal_prop_source src = {.posterior = "p.csv", .program = "prog.ncptl", .post = &p, .rows = rows};
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(cal_prop_write_json(&t, &src, f), 0);
	fclose(f);
	/* Two draws: median 1.1e9, 5% 1e9 + 0.05 x 0.2e9, 95% 1e9 + 0.95 x 0.2e9; sd sqrt(2 x 0.1e9^2 / 1). The
	   parameters as written: 1700604.4 ps ran as 1700604, 64.5 as 65 and -2 as -2. */
	static const char *const parts[] = {
		"\"posterior_rows\": 3", "\"draws\": 2", "\"rows\": [\n    0,\n    2\n  ]",
		"\"key\": \"network.latency\",\n      \"unit\": \"ps\"", "\"values\": [\n          1700604,\n          1900000",
		"\"values\": [\n          65,\n          -2\n", "\"key\": \"some.plain\",\n      \"unit\": \"\"",
		"\"end_ps\": {\n        \"median\": 1100000000,\n        \"p05\": 1010000000,\n        \"p95\": 1190000000,\n"
		"        \"mean\": 1100000000,\n        \"sd\": 141421356.2373095",
		"\"network_share\": {\n        \"median\": 0.55", "\"tasks\": 4", NULL};
	CU_ASSERT_EQUAL(ut_missing(buf, parts), 0);
	CU_ASSERT_PTR_NULL(strstr(buf, "wall_seconds"));
	free(buf);
	src.with_wall = 1;
	src.wall_seconds = 1.5;
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(cal_prop_write_json(&t, &src, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"wall_seconds\": 1.5"));
	free(buf);
	cal_prop_table_free(&t);
	cal_prop_run_free(&runs[0]);
	cal_prop_run_free(&runs[1]);
	cal_prop_free(&p);
}

static const ut_test csv_tests[] = {
	{"columns: parameters, units, sections with dots", test_read_columns},
	{"rows: values, lines, text as written", test_read_rows},
	{"every malformed file, with its line", test_read_errors},
	{"missing and irregular files", test_read_files},
	{NULL, NULL},
};

static const ut_test draw_tests[] = {
	{"draws evenly spaced over the rows", test_rows},
	{"a draw's system text", test_system},
	{"summary.json: figures, names, errors", test_summary},
	{"median, 5%, 95%, mean, sd by hand", test_stats},
	{"shares of MPI time, mismatched draws", test_gather},
	{"the table", test_print},
	{"posterior-summary.json and draws.csv", test_outputs},
	{NULL, NULL},
};

int main(void)
{
	static const ut_suite suites[] = {
		{"posterior.csv", csv_tests, ut_dir_setup, ut_dir_teardown},
		{"draws and figures", draw_tests, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

/*
 * test_calib_measure.c - the readers of calib/measure.h: OSU outputs (several
 * versions, several runs appended), coNCePTuaL logs (several tables), CSV
 * (with and without a header, with trials), the format guess, the grouping of
 * trials into points, and one test per error with its exact path:line and
 * text. The inputs are written here as strings; the expected observations are
 * read off them by eye, and the means and deviations computed by hand beside
 * them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/measure.h"
#include "tests/unit/unit.h"

#define NEAR(got, want) CU_ASSERT_DOUBLE_EQUAL((got), (want), 1e-9 * fabs((double)(want)) + 1e-12)

/* Parses text as file "m.txt"; asserts success. */
static cal_series parse_ok(const char *text, enum cal_format fmt, const char *column, const char *xcolumn)
{
	cal_series s;
	char *err = NULL;
	int rc = cal_series_parse("m.txt", text, fmt, column, xcolumn, &s, &err);
	if (rc)
		fprintf(stderr, "unexpected error: %s\n", err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	return s;
}

/* Asserts that text fails with message want, and leaves the series empty. */
#define PARSE_FAILS(text, fmt, column, xcolumn, want)                                           \
	do {                                                                                        \
		cal_series s_ = {.nobs = 99};                                                           \
		char *err_ = NULL;                                                                      \
		CU_ASSERT_EQUAL(cal_series_parse("m.txt", (text), (fmt), (column), (xcolumn), &s_, &err_), -1); \
		CU_ASSERT_PTR_NULL(s_.obs);                                                             \
		CU_ASSERT_PTR_NULL(s_.path);                                                            \
		CU_ASSERT_EQUAL(s_.nobs, 0);                                                            \
		UT_TAKE_ERROR(err_, (want));                                                            \
	} while (0)

/* Asserts observation i of s is (x, value) from line. */
static void obs_is(const cal_series *s, size_t i, double x, double value, int line)
{
	CU_ASSERT_FATAL(i < s->nobs);
	CU_ASSERT_EQUAL(s->obs[i].x, x);
	CU_ASSERT_EQUAL(s->obs[i].value, value);
	CU_ASSERT_EQUAL(s->obs[i].line, line);
}

/* ------------------------------------------------------------ OSU */

/*
 * Two runs of osu_latency appended, in CRLF: the first prints "# Datatype"
 * after the header, the second before it (newer versions); the second run
 * also measured 4 bytes.
 */
static const char osu_two_runs[] = "# OSU MPI Latency Test v7.1\r\n"   /* 1 */
                                   "# Size          Latency (us)\r\n"  /* 2 */
                                   "# Datatype: MPI_CHAR.\r\n"         /* 3 */
                                   "1                       1.50\r\n"  /* 4 */
                                   "2                       1.60\r\n"  /* 5 */
                                   "\r\n"                              /* 6 */
                                   "# OSU MPI Latency Test v7.1\r\n"   /* 7 */
                                   "# Datatype: MPI_CHAR.\r\n"         /* 8 */
                                   "# Size          Latency (us)\r\n"  /* 9 */
                                   "1                       1.70\r\n"  /* 10 */
                                   "2                       2.00\r\n"  /* 11 */
                                   "4                       2.25\r\n"; /* 12 */

static void test_osu_runs(void)
{
	cal_series s = parse_ok(osu_two_runs, CAL_FMT_OSU, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(s.path, "m.txt");
	CU_ASSERT_EQUAL(s.nobs, 5);
	obs_is(&s, 0, 1, 1.50, 4);
	obs_is(&s, 1, 2, 1.60, 5);
	obs_is(&s, 2, 1, 1.70, 10);
	obs_is(&s, 3, 2, 2.00, 11);
	obs_is(&s, 4, 4, 2.25, 12);
	size_t n;
	cal_point *p = cal_series_points(&s, &n);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	/* size 1: trials 1.5 and 1.7, mean 1.6, sd sqrt((0.1^2 + 0.1^2) / 1) = sqrt(0.02) */
	CU_ASSERT_EQUAL(p[0].x, 1);
	CU_ASSERT_EQUAL(p[0].ntrials, 2);
	NEAR(p[0].mean, 1.6);
	NEAR(p[0].sd, 0.14142135623730950);
	/* size 2: trials 1.6 and 2.0, mean 1.8, sd sqrt(0.2^2 + 0.2^2) = sqrt(0.08) */
	CU_ASSERT_EQUAL(p[1].x, 2);
	NEAR(p[1].mean, 1.8);
	NEAR(p[1].sd, 0.28284271247461901);
	/* size 4: one trial, sd 0 */
	CU_ASSERT_EQUAL(p[2].x, 4);
	CU_ASSERT_EQUAL(p[2].ntrials, 1);
	CU_ASSERT_EQUAL(p[2].mean, 2.25);
	CU_ASSERT_EQUAL(p[2].sd, 0);
	free(p);
	cal_series_free(&s);
	CU_ASSERT_PTR_NULL(s.obs);
	CU_ASSERT_EQUAL(s.nobs, 0);
}

/* A collective run with -f (OSU 5.x): five columns chosen by header text. */
static const char osu_coll[] =
	"# OSU MPI Allreduce Latency Test v5.9\n"                                                 /* 1 */
	"# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"          /* 2 */
	"4                       7.61              6.38              8.84        1000\n"          /* 3 */
	"8                       6.63              5.55              7.71        1000\n";         /* 4 */

static void test_osu_columns(void)
{
	/* the default: the second column, "Avg Latency(us)" */
	cal_series s = parse_ok(osu_coll, CAL_FMT_OSU, NULL, NULL);
	CU_ASSERT_EQUAL(s.nobs, 2);
	obs_is(&s, 0, 4, 7.61, 3);
	obs_is(&s, 1, 8, 6.63, 4);
	cal_series_free(&s);
	/* an exact name */
	s = parse_ok(osu_coll, CAL_FMT_OSU, "Min Latency(us)", NULL);
	obs_is(&s, 0, 4, 6.38, 3);
	cal_series_free(&s);
	/* a unique prefix, in any case, with blanks around it */
	s = parse_ok(osu_coll, CAL_FMT_OSU, " max ", NULL);
	obs_is(&s, 1, 8, 7.71, 4);
	cal_series_free(&s);
	/* x by name too: the iterations as x, the size as value (an odd choice, but allowed) */
	s = parse_ok(osu_coll, CAL_FMT_OSU, "Size", "iter");
	obs_is(&s, 0, 1000, 4, 3);
	cal_series_free(&s);
	/* errors: no name starts "Latency"; "M" starts two */
	PARSE_FAILS(osu_coll, CAL_FMT_OSU, "Latency", NULL,
	            "m.txt:2: unknown column 'Latency'; the columns are 'Size', 'Avg Latency(us)', "
	            "'Min Latency(us)', 'Max Latency(us)', 'Iterations'");
	PARSE_FAILS(osu_coll, CAL_FMT_OSU, "M", NULL,
	            "m.txt:2: ambiguous column 'M' (the start of 'Min Latency(us)', 'Max Latency(us)')");
}

/* osu_bw, a tail-latency column with a single-space gap inside its name, a validation column of text. */
static void test_osu_variants(void)
{
	cal_series s = parse_ok("# OSU MPI Bandwidth Test v7.1\n"
	                        "# Size      Bandwidth (MB/s)\n"
	                        "1                       3.25\n"
	                        "2                       6.50\n",
	                        CAL_FMT_OSU, "bandwidth", NULL);
	obs_is(&s, 1, 2, 6.50, 4);
	cal_series_free(&s);
	s = parse_ok("# Size          Latency (us)  P50 Tail Lat(us)        Validation\n"
	             "1                       1.50              1.40              Pass\n"
	             "2                       1.60              1.45              Pass\n",
	             CAL_FMT_OSU, "P50", NULL);
	CU_ASSERT_EQUAL(s.nobs, 2);
	obs_is(&s, 0, 1, 1.40, 2);
	obs_is(&s, 1, 2, 1.45, 3);
	cal_series_free(&s);
	/* a table whose comments were cut: no header, so the first two columns */
	s = parse_ok("1   1.5\n2\t1.75\n", CAL_FMT_AUTO, NULL, NULL);
	obs_is(&s, 1, 2, 1.75, 2);
	cal_series_free(&s);
}

static void test_osu_errors(void)
{
	/* a header and no data: the last line is named */
	PARSE_FAILS("# OSU MPI Latency Test v7.1\n# Size   Latency (us)\n", CAL_FMT_OSU, NULL, NULL,
	            "m.txt:2: no observations (no row of numbers)");
	/* the value is text */
	PARSE_FAILS("# Size   Latency (us)\n1   1.5\n2   abc\n", CAL_FMT_OSU, NULL, NULL,
	            "m.txt:3: field 2 ('Latency (us)'): 'abc' is not a number");
	/* a value that overflows a double */
	PARSE_FAILS("# Size   Latency (us)\n1   1e999\n", CAL_FMT_OSU, NULL, NULL,
	            "m.txt:2: field 2 ('Latency (us)'): '1e999' is not a finite number");
	/* a row with more fields than the header names */
	PARSE_FAILS("# Size   Latency (us)\n1   1.5\n2   1.6   7\n", CAL_FMT_OSU, NULL, NULL,
	            "m.txt:3: ragged row: 3 fields, but the header (line 1) has 2");
	/* without a header, the first row sets the width */
	PARSE_FAILS("1   1.5\n2\n", CAL_FMT_OSU, NULL, NULL,
	            "m.txt:2: ragged row: 1 field, but the first row (line 1) has 2");
	/* a column cannot be named without a header */
	PARSE_FAILS("1   1.5\n", CAL_FMT_OSU, "Latency", NULL,
	            "m.txt:1: column 'Latency' cannot be found: the table has no header row");
	/* a second run must have the column too */
	PARSE_FAILS("# Size   Latency (us)\n1   1.5\n# Size   Bandwidth (MB/s)\n1   3\n", CAL_FMT_OSU, "lat", NULL,
	            "m.txt:3: unknown column 'lat'; the columns are 'Size', 'Bandwidth (MB/s)'");
	/* a header of one column */
	PARSE_FAILS("# Size\n1\n", CAL_FMT_OSU, NULL, NULL, "m.txt:1: the header has 1 column; need two (x and value)");
}

/* ------------------------------------------------------------ coNCePTuaL logs */

/*
 * A log in the shape ncsim writes (see tests/unit/unit.c ut_verified_tables):
 * a prologue of comments, two tables separated by a blank line, a third after
 * a comment line, and an epilogue. The second table's columns have different
 * lengths ("(all data)" beside "(mean)"): the rows past the mean leave it empty.
 */
static const char ncptl_log[] =
	"###########################################################################\n" /* 1 */
	"# ===================\n"                                                       /* 2 */
	"# coNCePTuaL log file\n"                                                       /* 3 */
	"# ===================\n"                                                       /* 4 */
	"# coNCePTuaL version: 1.5.1b\n"                                                /* 5 */
	"###########################################################################\n" /* 6 */
	"\"Bytes\",\"Latency (usecs)\"\n"                                                /* 7 */
	"\"(all data)\",\"(all data)\"\n"                                                /* 8 */
	"0,0.25\n"                                                                      /* 9 */
	"64,0.5\n"                                                                      /* 10 */
	"\n"                                                                            /* 11 */
	"\"Bytes\",\"Bandwidth (MB/s)\",\"Bandwidth, mean (MB/s)\"\n"                    /* 12 */
	"\"(all data)\",\"(all data)\",\"(mean)\"\n"                                     /* 13 */
	"1024,\"100.5\",102\n"                                                          /* 14 */
	"2048,103.5,\n"                                                                 /* 15 */
	"# a comment between tables\n"                                                  /* 16 */
	"\"Reps\",\"Total (s)\"\n"                                                       /* 17 */
	"\"(final)\",\"(sum)\"\n"                                                        /* 18 */
	"10,3.5\n"                                                                      /* 19 */
	"###########################################################################\n" /* 20 */
	"# Program exited normally.\n";                                                 /* 21 */

static void test_ncptl_tables(void)
{
	/* the default: the first two columns of the first table */
	cal_series s = parse_ok(ncptl_log, CAL_FMT_NCPTL, NULL, NULL);
	CU_ASSERT_EQUAL(s.nobs, 2);
	obs_is(&s, 0, 0, 0.25, 9);
	obs_is(&s, 1, 64, 0.5, 10);
	cal_series_free(&s);
	/* the first table that has the column: the second; a quoted number is a number */
	s = parse_ok(ncptl_log, CAL_FMT_NCPTL, "Bandwidth (MB/s)", NULL);
	CU_ASSERT_EQUAL(s.nobs, 2);
	obs_is(&s, 0, 1024, 100.5, 14);
	obs_is(&s, 1, 2048, 103.5, 15);
	cal_series_free(&s);
	/* a prefix naming the mean (a comma inside the quotes); the row without it holds no observation */
	s = parse_ok(ncptl_log, CAL_FMT_NCPTL, "bandwidth,", "bytes");
	CU_ASSERT_EQUAL(s.nobs, 1);
	obs_is(&s, 0, 1024, 102, 14);
	cal_series_free(&s);
	/* the table after the comment line */
	s = parse_ok(ncptl_log, CAL_FMT_AUTO, "Total", NULL);
	CU_ASSERT_EQUAL(s.nobs, 1);
	obs_is(&s, 0, 10, 3.5, 19);
	cal_series_free(&s);
	/* xcolumn alone: the first table that has it, and its first other column as value */
	s = parse_ok(ncptl_log, CAL_FMT_NCPTL, NULL, "Reps");
	obs_is(&s, 0, 10, 3.5, 19);
	cal_series_free(&s);
}

/* The log of a real ncsim run of stdlib/workloads/osu-latency.ncptl, cut to its structure. */
static void test_ncptl_real(void)
{
	const char *log = "###########################################################################\n"
	                  "# ===================\n"
	                  "# coNCePTuaL log file\n"
	                  "# ===================\n"
	                  "# coNCePTuaL source code\n"
	                  "# ----------------------\n"
	                  "#     # osu-latency.ncptl - point-to-point latency between two tasks\n"
	                  "#       task 0 logs msgsize as \"Bytes\" and elapsed_usecs/(2*reps) as \"Latency (usecs)\"\n"
	                  "###########################################################################\n"
	                  "\"Bytes\",\"Latency (usecs)\"\n" /* 10 */
	                  "\"(all data)\",\"(all data)\"\n"
	                  "0,0.348806\n" /* 12 */
	                  "1,0.349073\n"
	                  "64,0.365874\n" /* 14 */
	                  "###########################################################################\n"
	                  "# Program exited normally.\n"
	                  "###########################################################################\n";
	CU_ASSERT_EQUAL(cal_format_guess(log), CAL_FMT_NCPTL);
	cal_series s = parse_ok(log, CAL_FMT_AUTO, "Latency", "Bytes");
	CU_ASSERT_EQUAL(s.nobs, 3);
	obs_is(&s, 0, 0, 0.348806, 12);
	obs_is(&s, 2, 64, 0.365874, 14);
	cal_series_free(&s);
}

static void test_ncptl_errors(void)
{
	/* every table's columns are listed, once each */
	PARSE_FAILS(ncptl_log, CAL_FMT_NCPTL, "Latency (ms)", NULL,
	            "m.txt:7: unknown column 'Latency (ms)'; the columns are 'Bytes', 'Latency (usecs)', "
	            "'Bandwidth (MB/s)', 'Bandwidth, mean (MB/s)', 'Reps', 'Total (s)'");
	PARSE_FAILS(ncptl_log, CAL_FMT_NCPTL, "bandwidth", NULL,
	            "m.txt:12: ambiguous column 'bandwidth' (the start of 'Bandwidth (MB/s)', 'Bandwidth, mean (MB/s)')");
	/* text in the chosen column */
	PARSE_FAILS("\"a\",\"b\"\n\"(all data)\",\"(all data)\"\n1,2\n3,x\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:4: field 2 ('b'): 'x' is not a number");
	/* the descriptions row must have the header's width too */
	PARSE_FAILS("\"a\",\"b\"\n\"(all data)\"\n1,2\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:2: ragged row: 1 field, but the header (line 1) has 2");
	PARSE_FAILS("\"a\",\"b\"\n\"(all data)\",\"(all data)\"\n1,2,3\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:3: ragged row: 3 fields, but the header (line 1) has 2");
	/* numbers with no header above */
	PARSE_FAILS("# coNCePTuaL log file\n1,2\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:2: a row of numbers outside a table (no header row above it)");
	/* the chosen table has no rows */
	PARSE_FAILS("\"a\",\"b\"\n\"(all data)\",\"(all data)\"\n# end\n\"c\",\"d\"\n\"(all data)\",\"(all data)\"\n5,6\n",
	            CAL_FMT_NCPTL, NULL, NULL, "m.txt:1: no observations in the table of this header");
	/* only one-column tables */
	PARSE_FAILS("\"a\"\n\"(all data)\"\n1\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:1: no observations: no table has two columns or more");
	/* a prologue and nothing else */
	PARSE_FAILS("# coNCePTuaL log file\n#\n# end\n", CAL_FMT_NCPTL, NULL, NULL,
	            "m.txt:3: no observations (no row of numbers)");
}

/* ------------------------------------------------------------ CSV */

static void test_csv(void)
{
	/* no header, "x,value"; comments and blank lines are skipped */
	cal_series s = parse_ok("# bytes, us\n1,2.5\n\n2, 3.5\n", CAL_FMT_CSV, NULL, NULL);
	CU_ASSERT_EQUAL(s.nobs, 2);
	obs_is(&s, 0, 1, 2.5, 2);
	obs_is(&s, 1, 2, 3.5, 4);
	cal_series_free(&s);
	/* a header and "x,trial,value": the trial is not the value */
	s = parse_ok("size,trial,latency\r\n8,1,10\r\n8,2,12\r\n8,3,14\r\n", CAL_FMT_AUTO, NULL, NULL);
	CU_ASSERT_EQUAL(s.nobs, 3);
	obs_is(&s, 0, 8, 10, 2);
	obs_is(&s, 2, 8, 14, 4);
	cal_series_free(&s);
	/* without a header, three fields are x,trial,value too */
	s = parse_ok("8,1,10\n8,2,12\n", CAL_FMT_CSV, NULL, NULL);
	obs_is(&s, 1, 8, 12, 2);
	cal_series_free(&s);
	/* a header lets columns be named, among more than three; quotes are allowed */
	s = parse_ok("\"size\",\"min\",\"avg\",\"max\"\n1,2,3,4\n", CAL_FMT_CSV, "avg", NULL);
	obs_is(&s, 0, 1, 3, 2);
	cal_series_free(&s);
	s = parse_ok("size,min,avg,max\n1,2,3,4\n", CAL_FMT_CSV, "max", "min");
	obs_is(&s, 0, 2, 4, 2);
	cal_series_free(&s);
}

static void test_csv_errors(void)
{
	PARSE_FAILS("1,2\n3,4,5\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: ragged row: 3 fields, but the first row (line 1) has 2");
	PARSE_FAILS("x,y\n1,2\n3\n", CAL_FMT_CSV, NULL, NULL, "m.txt:3: ragged row: 1 field, but the header (line 1) has 2");
	/* every field must be a number, the trial included (a first row of text is a header) */
	PARSE_FAILS("1,1,2\n1,a,2\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: field 2: 'a' is not a number");
	PARSE_FAILS("x,trial,y\n1,a,2\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: field 2 ('trial'): 'a' is not a number");
	PARSE_FAILS("1,2\n1,\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: field 2: '' is not a number");
	PARSE_FAILS("1,2\n1,inf\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: field 2: 'inf' is not a finite number");
	PARSE_FAILS("1,2\n1,nan\n", CAL_FMT_CSV, NULL, NULL, "m.txt:2: field 2: 'nan' is not a finite number");
	/* a long field is cut in the message */
	PARSE_FAILS("1,2\n1,abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n", CAL_FMT_CSV, NULL, NULL,
	            "m.txt:2: field 2: 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...' is not a number");
	PARSE_FAILS("1,2,3,4\n", CAL_FMT_CSV, NULL, NULL, "m.txt:1: 4 fields; expected x,value or x,trial,value");
	PARSE_FAILS("1,2\n", CAL_FMT_CSV, "latency", NULL,
	            "m.txt:1: column 'latency' cannot be found: the file has no header row");
	PARSE_FAILS("size,latency\n1,2\n", CAL_FMT_CSV, "bw", NULL,
	            "m.txt:1: unknown column 'bw'; the columns are 'size', 'latency'");
	PARSE_FAILS("size,latency\n", CAL_FMT_CSV, NULL, NULL, "m.txt:1: no observations (no row of numbers)");
	PARSE_FAILS("", CAL_FMT_CSV, NULL, NULL, "m.txt:1: empty file");
	PARSE_FAILS(" \r\n\n\t\n", CAL_FMT_AUTO, NULL, NULL, "m.txt:1: empty file");
}

/* ------------------------------------------------------------ formats, points, files */

static void test_format(void)
{
	CU_ASSERT_EQUAL(cal_format_parse("osu"), CAL_FMT_OSU);
	CU_ASSERT_EQUAL(cal_format_parse("NCPTL"), CAL_FMT_NCPTL);
	CU_ASSERT_EQUAL(cal_format_parse("csv"), CAL_FMT_CSV);
	CU_ASSERT_EQUAL(cal_format_parse("auto"), CAL_FMT_AUTO);
	CU_ASSERT_EQUAL(cal_format_parse("json"), -1);
	CU_ASSERT_EQUAL(cal_format_parse(""), -1);
	CU_ASSERT_EQUAL(cal_format_guess(osu_two_runs), CAL_FMT_OSU);
	CU_ASSERT_EQUAL(cal_format_guess(osu_coll), CAL_FMT_OSU);
	/* a "# Size" header without a title line */
	CU_ASSERT_EQUAL(cal_format_guess("\n# size  latency (us)\n1  2\n"), CAL_FMT_OSU);
	CU_ASSERT_EQUAL(cal_format_guess(ncptl_log), CAL_FMT_NCPTL);
	/* a quoted first row without the log's prologue */
	CU_ASSERT_EQUAL(cal_format_guess("\"Bytes\",\"Latency\"\n1,2\n"), CAL_FMT_NCPTL);
	CU_ASSERT_EQUAL(cal_format_guess("# measured on 2 nodes\nsize,latency\n1,2\n"), CAL_FMT_CSV);
	CU_ASSERT_EQUAL(cal_format_guess("1, 2\n"), CAL_FMT_CSV);
	CU_ASSERT_EQUAL(cal_format_guess(""), CAL_FMT_CSV);
	/* "# Sizes" is not the header word */
	CU_ASSERT_EQUAL(cal_format_guess("# Sizes in bytes\n1,2\n"), CAL_FMT_CSV);
}

static void test_points(void)
{
	/* x out of order, with 1, 2 and 3 trials */
	cal_series s = parse_ok("8,10\n1,5\n8,12\n2,7\n8,14\n2,9\n", CAL_FMT_CSV, NULL, NULL);
	size_t n;
	cal_point *p = cal_series_points(&s, &n);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	/* x 1: one trial, 5 */
	CU_ASSERT_EQUAL(p[0].x, 1);
	CU_ASSERT_EQUAL(p[0].ntrials, 1);
	CU_ASSERT_EQUAL(p[0].mean, 5);
	CU_ASSERT_EQUAL(p[0].sd, 0);
	/* x 2: 7 and 9, mean 8, sd sqrt((1 + 1) / 1) = sqrt(2) */
	CU_ASSERT_EQUAL(p[1].x, 2);
	CU_ASSERT_EQUAL(p[1].ntrials, 2);
	NEAR(p[1].mean, 8);
	NEAR(p[1].sd, 1.4142135623730951);
	/* x 8: 10, 12, 14, mean 12, sd sqrt((4 + 0 + 4) / 2) = 2 */
	CU_ASSERT_EQUAL(p[2].x, 8);
	CU_ASSERT_EQUAL(p[2].ntrials, 3);
	NEAR(p[2].mean, 12);
	NEAR(p[2].sd, 2);
	free(p);

	/* trials from a second file: 1 -> {5, 7}: mean 6, sd sqrt(2); 4 is new */
	cal_series b = parse_ok("1,7\n4,1\n", CAL_FMT_CSV, NULL, NULL);
	cal_series_append(&s, &b);
	CU_ASSERT_EQUAL(s.nobs, 8);
	CU_ASSERT_STRING_EQUAL(s.path, "m.txt");
	p = cal_series_points(&s, &n);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(p[0].ntrials, 2);
	NEAR(p[0].mean, 6);
	NEAR(p[0].sd, 1.4142135623730951);
	CU_ASSERT_EQUAL(p[2].x, 4);
	free(p);
	cal_series_free(&b);
	cal_series_free(&s);

	/* an empty series has no points; appending to it takes the other's path */
	cal_series e = {0};
	CU_ASSERT_PTR_NULL(cal_series_points(&e, &n));
	CU_ASSERT_EQUAL(n, 0);
	b = parse_ok("1,7\n", CAL_FMT_CSV, NULL, NULL);
	cal_series_append(&e, &b);
	CU_ASSERT_STRING_EQUAL(e.path, "m.txt");
	CU_ASSERT_EQUAL(e.nobs, 1);
	cal_series_free(&b);
	cal_series_free(&e);
}

/* Writes text to ut_dir/name; returns the path (heap). */
static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", ut_dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_load(void)
{
	char *path = write_file("lat.txt", osu_two_runs);
	cal_series s;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_series_load(path, CAL_FMT_AUTO, NULL, NULL, &s, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_STRING_EQUAL(s.path, path);
	CU_ASSERT_EQUAL(s.nobs, 5);
	cal_series_free(&s);
	free(path);

	/* the messages name the file */
	path = write_file("bad.csv", "1,2\n3\n");
	char want[512];
	snprintf(want, sizeof want, "%s:2: ragged row: 1 field, but the first row (line 1) has 2", path);
	CU_ASSERT_EQUAL(cal_series_load(path, CAL_FMT_AUTO, NULL, NULL, &s, &err), -1);
	UT_TAKE_ERROR(err, want);
	free(path);

	/* a folder and a missing file are refused by the bounded reader */
	snprintf(want, sizeof want, "%s: cannot read measurements: is a directory", ut_dir);
	CU_ASSERT_EQUAL(cal_series_load(ut_dir, CAL_FMT_AUTO, NULL, NULL, &s, &err), -1);
	UT_TAKE_ERROR(err, want);
	CU_ASSERT_PTR_NULL(s.obs);
	path = xasprintf("%s/none.txt", ut_dir);
	snprintf(want, sizeof want, "%s: cannot open measurements: ...", path);
	CU_ASSERT_EQUAL(cal_series_load(path, CAL_FMT_AUTO, NULL, NULL, &s, &err), -1);
	UT_TAKE_ERROR(err, want);
	free(path);
	/* a device is never read */
	CU_ASSERT_EQUAL(cal_series_load("/dev/zero", CAL_FMT_AUTO, NULL, NULL, &s, &err), -1);
	UT_TAKE_ERROR(err, "/dev/zero: cannot read measurements: ...");
}

static const ut_test osu_tests[] = {
	{"two runs appended", test_osu_runs},
	{"columns by name", test_osu_columns},
	{"variants", test_osu_variants},
	{"errors", test_osu_errors},
	{NULL, NULL},
};

static const ut_test ncptl_tests[] = {
	{"several tables", test_ncptl_tables},
	{"a real log", test_ncptl_real},
	{"errors", test_ncptl_errors},
	{NULL, NULL},
};

static const ut_test csv_tests[] = {
	{"with and without header", test_csv},
	{"errors", test_csv_errors},
	{NULL, NULL},
};

static const ut_test misc_tests[] = {
	{"formats", test_format},
	{"points", test_points},
	{"load", test_load},
	{NULL, NULL},
};

int main(void)
{
	static const ut_suite suites[] = {
		{"calib measure: OSU", osu_tests, NULL, NULL},
		{"calib measure: coNCePTuaL logs", ncptl_tests, NULL, NULL},
		{"calib measure: CSV", csv_tests, NULL, NULL},
		{"calib measure: formats, points, files", misc_tests, ut_dir_setup, ut_dir_teardown},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

/*
 * test_report.c - `ncsim report`'s readers and the data of its figures
 * (report/): every number in a figure's data file against values worked
 * out by hand from small run folders written here, so a figure that draws
 * the wrong column, divides by the wrong count or mislabels a unit fails.
 *
 * The hand-made run "run" has two jobs:
 *   a (2 ranks)  rank 0: end 10 ms = compute 4 + I/O 1 + MPI 3 (network 2,
 *                sync 0.5, stack 0.5) + idle 2; rank 1: end 8 ms = compute
 *                2 + I/O 3 + MPI 1 (network 1) + idle 2;
 *   b (3 ranks)  rank 0: end 6 ms, compute 6 and I/O 2 (they overlap: idle
 *                counts 0); rank 1: end 6, compute 5, idle 1; rank 2: end 7,
 *                compute 1, I/O 4, idle 2. No MPI.
 * and links: injection 100, 300, 200 B; local 1000 B (saturated 999 ps, not
 * a global link); global 5 MB (saturated 6 us) and 0 B (saturated 2 us).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "report/calib.h"
#include "report/calib_figures.h"
#include "report/csv_read.h"
#include "report/figures.h"
#include "report/html.h"
#include "report/io.h"
#include "report/json_read.h"
#include "report/nb_figures.h"
#include "report/netbench.h"
#include "report/report.h"
#include "report/run.h"
#include "report/stats.h"
#include "report/study.h"
#include "tests/unit/unit.h"

/* ---------------------------------------------------------------- fixtures */

/* Writes text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

/* A fresh folder ut_dir/name (heap path). */
static char *folder(const char *name)
{
	char *p = xasprintf("%s/%s", ut_dir, name);
	mkdir(p, 0777);
	return p;
}

/* summary.json of the run; job a's end time and MPI total are parameters (the slowdown test doubles them). */
static char *summary_json(unsigned long long a_end, unsigned long long a_mpi)
{
	return xasprintf(
	    "{\n  \"ncsim_version\": \"0.1.0\",\n  \"command_line\": [\"ncsim\", \"run\", \"two jobs.wkld\"],\n"
	    "  \"system\": \"df-tiny\", \"network\": \"dragonfly\", \"seed\": 7, \"status\": \"ok\",\n"
	    "  \"events\": 99, \"sim_end_ps\": 10000000000,\n  \"jobs\": [\n"
	    "    {\"name\": \"a\", \"tasks\": 2, \"end_ps\": %llu, \"compute_ps\": 6000000000, \"io_ps\": 4000000000,\n"
	    "     \"mpi_ps\": %llu, \"bytes_sent\": 1000, \"msgs_sent\": 10,\n"
	    "     \"latency_ps\": {\"mpi\": {\"count\": 10, \"min\": 1000000, \"q1\": 2000000, \"median\": 3000000,\n"
	    "                              \"q3\": 4000000, \"max\": 2000000000, \"mean\": 50000000.5},\n"
	    "                     \"io\": {\"count\": 0, \"min\": 0, \"q1\": 0, \"median\": 0, \"q3\": 0, \"max\": 0, "
	    "\"mean\": 0}}},\n"
	    "    {\"name\": \"b\", \"tasks\": 3, \"end_ps\": 7000000000, \"compute_ps\": 12000000000,\n"
	    "     \"io_ps\": 6000000000, \"mpi_ps\": 0, \"io_bytes_read\": 5, \"io_bytes_written\": 7}\n"
	    "  ]\n}\n",
	    a_end, a_mpi);
}

static const char tasks_csv[] =
    "job,rank,task,node,end_ps,compute_ps,sleep_ps,io_ps,mpi_ps,mpi_network_ps,mpi_sync_ps,mpi_stack_ps,"
    "bytes_sent,msgs_sent,bytes_received,msgs_received,io_bytes_read,io_bytes_written,io_active_ps\n"
    "a,0,0,3,10000000000,4000000000,0,1000000000,3000000000,2000000000,500000000,500000000,0,0,0,0,0,0,0\n"
    "a,1,1,4,8000000000,2000000000,0,3000000000,1000000000,1000000000,0,0,0,0,0,0,0,0,0\n"
    "b,0,2,5,6000000000,6000000000,0,2000000000,0,0,0,0,0,0,0,0,0,0,0\n"
    "b,1,3,6,6000000000,5000000000,1000000000,0,0,0,0,0,0,0,0,0,0,0,0\n"
    "b,2,4,7,7000000000,1000000000,0,4000000000,0,0,0,0,0,0,0,0,0,0,0\n";

static const char links_csv[] = "router,port,kind,peer,bytes,busy_ps,saturation_ps\n"
                                "0,0,injection,0,100,1,0\n"
                                "0,1,injection,1,300,1,0\n"
                                "0,2,local,1,1000,1,999\n"
                                "0,3,global,2,5000000,1,6000000\n"
                                "1,0,injection,2,200,1,0\n"
                                "1,3,global,0,0,0,2000000\n";

/* Asserts that heap message err ends with `tail` (messages start with the test's scratch folder), then frees it. */
#define TAKE_TAIL(err, tail)                                                                                   \
	do {                                                                                                       \
		size_t ne_ = (err) ? strlen(err) : 0, nt_ = strlen(tail);                                              \
		int ok_ = (err) && ne_ >= nt_ && !strcmp((err) + ne_ - nt_, (tail));                                   \
		if (!ok_)                                                                                              \
			fprintf(stderr, "%s:%d: error \"%s\", want one ending \"%s\"\n", __FILE__, __LINE__, (err), (tail)); \
		CU_ASSERT_TRUE(ok_);                                                                                   \
		free(err);                                                                                             \
		(err) = NULL;                                                                                          \
	} while (0)

/* Writes the hand-made run into ut_dir/name (heap path). */
static char *make_run(const char *name, unsigned long long a_end, unsigned long long a_mpi)
{
	char *dir = folder(name), *sum = summary_json(a_end, a_mpi);
	put(dir, "summary.json", sum);
	put(dir, "tasks.csv", tasks_csv);
	put(dir, "links.csv", links_csv);
	free(sum);
	return dir;
}

static rep_run *load(const char *dir)
{
	char *err = NULL;
	enum rep_fail why;
	rep_run *r = rep_run_load(dir, &err, &why);
	if (!r)
		fprintf(stderr, "load %s: %s\n", dir, err);
	free(err);
	return r;
}

static const rep_figure *fig(const rep_figures *f, const char *id)
{
	for (size_t i = 0; i < f->len; i++)
		if (!strcmp(f->ptr[i].id, id))
			return &f->ptr[i];
	fprintf(stderr, "no figure %s\n", id);
	return NULL;
}

/* The HTML of page p (heap). */
static char *html_of(const rep_page *p)
{
	char *html = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&html, &len);
	rep_html_write(out, p);
	fclose(out);
	return html;
}

/* The HTML page of runs[0..n) with figures f (heap). */
static char *page_of(rep_run **runs, size_t n, const rep_figures *f)
{
	return html_of(&(rep_page){.runs = runs, .nruns = n, .figs = f, .figdir = "report"});
}

/*
 * 1 if the data rows of text (lines that are neither comments nor blank)
 * are want[] (NULL-terminated), token by token: quoted labels exactly,
 * numbers within a relative 1e-8 (the files print 9 significant digits).
 */
static int rows_are(const char *text, const char *const *want)
{
	size_t k = 0;
	int ok = text != NULL;
	for (const char *p = text; ok && p && *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		p += n + (p[n] == '\n');
		if (line[0] == '#' || line[0] == 0) {
			free(line);
			continue;
		}
		if (!want[k]) {
			fprintf(stderr, "extra row: %s\n", line);
			ok = 0;
		} else {
			char *a = line, *b = xstrdup(want[k]), *sa, *sb;
			char *b0 = b;
			for (char *x = strtok_r(a, " ", &sa), *y = strtok_r(b, " ", &sb); ok && (x || y);
			     x = strtok_r(NULL, " ", &sa), y = strtok_r(NULL, " ", &sb)) {
				if (!x || !y || (x[0] == '"' ? strcmp(x, y) != 0 : fabs(atof(x) - atof(y)) > 1e-8 * fabs(atof(y))))
					ok = 0;
			}
			if (!ok)
				fprintf(stderr, "row %zu: want %s\n", k, want[k]);
			free(b0);
			k++;
		}
		free(line);
	}
	if (ok && want[k]) {
		fprintf(stderr, "missing row: %s\n", want[k]);
		ok = 0;
	}
	if (!ok)
		fprintf(stderr, "in:\n%s\n", text ? text : "(null)");
	return ok;
}

/* ----------------------------------------------------------------- readers */

static void test_csv_reader(void)
{
	char *dir = folder("csv"), *err = NULL, *p = xasprintf("%s/x.csv", dir);
	put(dir, "x.csv", "name,bytes,note\n\"a,b\",12,\"say \"\"hi\"\"\"\nc,18446744073709551615,\n\n");
	rep_csv *c = rep_csv_open(p, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(rep_csv_col(c, "bytes"), 1);
	CU_ASSERT_EQUAL(rep_csv_col(c, "nope"), -1);
	uint64_t v = 0;
	CU_ASSERT_EQUAL(rep_csv_next(c, &err), 1);
	CU_ASSERT_STRING_EQUAL(rep_csv_field(c, 0), "a,b");
	CU_ASSERT_STRING_EQUAL(rep_csv_field(c, 2), "say \"hi\"");
	CU_ASSERT(rep_csv_u64(c, 1, &v, &err) == 0 && v == 12);
	CU_ASSERT_EQUAL(rep_csv_next(c, &err), 1);
	CU_ASSERT(rep_csv_u64(c, 1, &v, &err) == 0 && v == UINT64_MAX);
	CU_ASSERT_STRING_EQUAL(rep_csv_field(c, 2), "");
	CU_ASSERT_EQUAL(rep_csv_u64(c, 2, &v, &err), -1); /* an empty field is no number */
	TAKE_TAIL(err, "x.csv:3: column 'note': '' is not a non-negative integer");
	CU_ASSERT_EQUAL(rep_csv_next(c, &err), 0); /* the blank line is no row */
	rep_csv_close(c);

	/* Malformed lines: each error names the file and the line. */
	static const struct {
		const char *text, *want;
	} bad[] = {
	    {"a,b\n1,2\n3\n", "x.csv:3: 1 fields, but the header has 2"},
	    {"a,b\n1,2,3\n", "x.csv:2: 3 fields, but the header has 2"},
	    {"a,b\n\"1,2\n", "x.csv:2: a quoted field does not end on its line"},
	    {"a,b\n\"1\"x,2\n", "x.csv:2: text after a quoted field"},
	    {"a,b\n-1,2\n", "x.csv:2: column 'a': '-1' is not a non-negative integer"},
	    {"a,b\n99999999999999999999,2\n", "x.csv:2: column 'a': '99999999999999999999' is not a non-negative integer"},
	    {"a,b\n1x,2\n", "x.csv:2: column 'a': '1x' is not a non-negative integer"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		put(dir, "x.csv", bad[i].text);
		c = rep_csv_open(p, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		int rc;
		while ((rc = rep_csv_next(c, &err)) > 0 && rep_csv_u64(c, 0, &v, &err) == 0)
			;
		CU_ASSERT_PTR_NOT_NULL(err);
		if (err)
			TAKE_TAIL(err, bad[i].want);
		rep_csv_close(c);
	}
	put(dir, "x.csv", "");
	CU_ASSERT_PTR_NULL(rep_csv_open(p, &err));
	TAKE_TAIL(err, "x.csv:1: empty file: no header line");
	put(dir, "x.csv", "a,b\n1,2\n");
	c = rep_csv_open(p, &err);
	int col[2];
	static const char *const need[] = {"b", "kind"};
	CU_ASSERT_EQUAL(rep_csv_require(c, need, col, 2, &err), -1);
	TAKE_TAIL(err, "x.csv:1: no column 'kind' in the header");
	rep_csv_close(c);
	free(p);
	free(dir);
}

static void test_json_reader(void)
{
	char *err = NULL;
	rep_json *v = rep_json_parse("{\"a\": [1, -2.5e1, true, null], \"big\": 18446744073709551615,\n"
	                             " \"s\": \"x\\u00e9\\ud83d\\ude00\\n\", \"neg\": -3, \"f\": 1.5}",
	                             "t.json", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	uint64_t u = 0;
	double d = 0;
	CU_ASSERT(rep_json_u64(rep_json_get(v, "big"), &u) == 0 && u == UINT64_MAX);
	CU_ASSERT_EQUAL(rep_json_u64(rep_json_get(v, "neg"), &u), -1);
	CU_ASSERT_EQUAL(rep_json_u64(rep_json_get(v, "f"), &u), -1);
	CU_ASSERT(rep_json_double(rep_json_get(v, "a")->items[1], &d) == 0 && d == -25);
	CU_ASSERT_EQUAL(rep_json_get(v, "a")->items[2]->boolean, 1);
	/* é is C3 A9, U+1F600 is F0 9F 98 80 */
	CU_ASSERT_STRING_EQUAL(rep_json_str(rep_json_get(v, "s")), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	CU_ASSERT_PTR_NULL(rep_json_get(v, "missing"));
	rep_json_free(v);

	static const struct {
		const char *text, *want;
	} bad[] = {
	    {"{\"a\": 1\n  \"b\": 2}", "t.json:2:3: expected ',' or '}'"},
	    {"[1, 2", "t.json:1:6: expected ',' or ']'"},
	    {"{\"a\": tru}", "t.json:1:7: expected a value"},
	    {"{\"a\": \"x", "t.json:1:9: unterminated string"},
	    {"{} x", "t.json:1:4: text after the end of the document"},
	    {"[01]", "t.json:1:3: expected ',' or ']'"},
	    {"\"\\ud800\"", "t.json:1:8: bad \\u escape"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_PTR_NULL(rep_json_parse(bad[i].text, "t.json", &err));
		UT_TAKE_ERROR(err, bad[i].want);
	}
	/* Nesting is bounded: 100 brackets are refused, not recursed into. */
	char deep[201];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	deep[200] = 0;
	CU_ASSERT_PTR_NULL(rep_json_parse(deep, "t.json", &err));
	UT_TAKE_ERROR(err, "t.json:1:66: nested too deeply");
}

static void test_quantiles(void)
{
	/* Type 7: h = (n - 1) p. {1, 2, 3, 4}: h = 0.75, 1.5, 2.25 give 1.75, 2.5, 3.25. */
	double v[] = {4, 1, 3, 2};
	rep_box b = rep_box_of(v, 4);
	CU_ASSERT_DOUBLE_EQUAL(b.q1, 1.75, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(b.median, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(b.q3, 3.25, 1e-12);
	CU_ASSERT(b.min == 1 && b.max == 4 && b.mean == 2.5 && b.n == 4);
	/* {1, 2, 3, 4, 10}: h = 1, 2, 3 fall on the values themselves. */
	double w[] = {10, 4, 3, 2, 1};
	b = rep_box_of(w, 5);
	CU_ASSERT(b.q1 == 2 && b.median == 3 && b.q3 == 4 && b.mean == 4);
	double one = 7;
	b = rep_box_of(&one, 1);
	CU_ASSERT(b.min == 7 && b.q1 == 7 && b.median == 7 && b.q3 == 7 && b.max == 7);
}

typedef struct pts {
	size_t n;
	double x[1100], f[1100];
} pts;

static void collect(void *arg, double x, double f)
{
	pts *p = arg;
	if (p->n < 1100) {
		p->x[p->n] = x;
		p->f[p->n] = f;
	}
	p->n++;
}

static void test_cdf_points(void)
{
	static double v[2000];
	for (int i = 0; i < 2000; i++)
		v[i] = i * 10;
	static pts p;
	p.n = 0;
	rep_cdf(v, 2000, collect, &p);
	/* The start at 0, then 1000 of the 2000: k = 1 is index floor(1999 / 999) = 2, k = 999 the last. */
	CU_ASSERT_EQUAL(p.n, 1001);
	CU_ASSERT(p.x[0] == 0 && p.f[0] == 0);
	CU_ASSERT(p.x[1] == 0 && p.f[1] == 1.0 / 2000);
	CU_ASSERT(p.x[2] == 20 && p.f[2] == 3.0 / 2000);
	CU_ASSERT(p.x[1000] == 19990 && p.f[1000] == 1);
	p.n = 0;
	rep_cdf(v, 3, collect, &p); /* {0, 10, 20}: every value */
	CU_ASSERT(p.n == 4 && p.x[3] == 20 && p.f[3] == 1 && p.f[2] == 2.0 / 3);
}

static void test_paths(void)
{
	static const struct {
		const char *page, *dir;
	} cases[] = {
	    {"run/report.html", "run/report"}, {"x.htm", "x"},      {"page", "page-figures"},
	    {"a.html/page", "a.html/page-figures"}, {"d/.html", "d/.html-figures"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *d = rep_figure_dir(cases[i].page);
		UT_ASSERT_TEXT(d, cases[i].dir);
		free(d);
	}
	char *p = rep_default_page("runs/x", 1);
	UT_ASSERT_TEXT(p, "runs/x/report.html");
	free(p);
	p = rep_default_page("runs/x", 3);
	UT_ASSERT_TEXT(p, "report.html");
	free(p);
}

/* --------------------------------------------------------------- one run */

static void test_run_figures(void)
{
	char *dir = make_run("run", 10000000000ULL, 4000000000ULL);
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_STRING_EQUAL(r->label, "run");
	CU_ASSERT_STRING_EQUAL(r->command, "ncsim run 'two jobs.wkld'");
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	const rep_figure *g = fig(&f, "time");
	/* Means per rank in ms: a = (4+2)/2, (2+1)/2, 0.5/2, 0.5/2, (1+3)/2, (2+2)/2; b = 12/3, 0, 0, 0, 6/3, (0+1+2)/3. */
	static const char *const time_rows[] = {"0 \"run\" \"a\" 2 3 1.5 0.25 0.25 2 2",
	                                        "1 \"run\" \"b\" 3 4 0 0 0 2 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, time_rows));
	CU_ASSERT_TRUE(g && strstr(g->data, "# Values in ms."));
	CU_ASSERT_TRUE(g && strstr(g->caption, "1 of the 3 ranks of b have parts that add up to more than their end"));
	/* The top of the stack is the sum of all six parts, columns 5 to 10. */
	CU_ASSERT_TRUE(g && strstr(g->script, "using 1:($5+$6+$7+$8+$9+$10) with boxes"));

	/* summary.json's latencies, in ms (top 2 ms); 1 us to 2 ms spans 2000x: a log axis. Job b has none. */
	g = fig(&f, "latency-mpi");
	static const char *const lat_rows[] = {"0 \"a\" 10 0.001 0.002 0.003 0.004 2 0.0500000005", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, lat_rows));
	CU_ASSERT_TRUE(g && strstr(g->script, "set logscale y") && strstr(g->caption, "No box for jobs without any: b."));
	CU_ASSERT_TRUE(g && strstr(g->script, "'latency-mpi.dat' index 0 using 1:5:4:8:7 with candlesticks"));
	g = fig(&f, "latency-io");
	CU_ASSERT_TRUE(g && g->note && !g->data && !g->script && strstr(g->note, "No job made an I/O request"));

	/* MPI per rank: a {1, 3} ms gives q1 1.5, median 2, q3 2.5; b spends none. */
	g = fig(&f, "rank-mpi");
	static const char *const mpi_rows[] = {"0 \"a\" 2 1 1.5 2 2.5 3 2", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, mpi_rows) && strstr(g->caption, "spent no time there: b."));
	/* I/O per rank: a {1, 3}; b {0, 2, 4}: q1 at h = 0.5 is 1, q3 at h = 1.5 is 3. A 0 keeps the axis linear. */
	g = fig(&f, "rank-io");
	static const char *const io_rows[] = {"0 \"a\" 2 1 1.5 2 2.5 3 2", "1 \"b\" 3 0 1 2 3 4 2", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, io_rows) && !strstr(g->script, "logscale"));

	/* Bytes per link in MB (top 5 MB): injection, local, global in that order, each from (min, 0). */
	g = fig(&f, "link-bytes");
	static const char *const link_rows[] = {"0.0001 0", "0.0001 0.333333333", "0.0002 0.666666667", "0.0003 1",
	                                        "0.001 0",  "0.001 1",            "0 0",                "0 0.5",
	                                        "5 1",      NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, link_rows));
	CU_ASSERT_TRUE(g && strstr(g->data, "# block 0: injection (3)") && strstr(g->data, "# block 2: global (2)"));
	CU_ASSERT_TRUE(g && strstr(g->script, "'link-bytes.dat' index 2 using 1:2 with steps"));
	/* Saturation of the two global links only (not the local one's 999 ps), in us: 2 and 6. */
	g = fig(&f, "global-saturation");
	static const char *const sat_rows[] = {"2 0", "2 0.5", "6 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, sat_rows) && strstr(g->data, "Values in \xc2\xb5s"));
	CU_ASSERT_EQUAL(f.len, 7);
	rep_fig_free(&f);
	rep_run_free(r);
	free(dir);
}

/* A run with no tasks.csv and no links.csv, and no message: every figure but the latencies is a note. */
static void test_missing_files(void)
{
	char *dir = folder("bare"), *sum = summary_json(1, 0);
	put(dir, "summary.json", sum);
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_STRING_EQUAL(r->tasks_missing, "the run has no tasks.csv");
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	static const char *const ids[] = {"time", "latency-io", "rank-mpi", "rank-io", "link-bytes", "global-saturation"};
	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
		const rep_figure *g = fig(&f, ids[i]);
		CU_ASSERT_TRUE(g && g->note && !g->data);
	}
	CU_ASSERT_TRUE(fig(&f, "latency-mpi") && fig(&f, "latency-mpi")->data);
	CU_ASSERT_TRUE(strstr(fig(&f, "time")->caption, "Not drawn for bare: the run has no tasks.csv.") != NULL);
	rep_fig_free(&f);
	rep_run_free(r);
	free(sum);
	free(dir);
}

/* The analytic network's links.csv: injection and ejection links, no saturation_ps column. */
static void test_analytic_links(void)
{
	char *dir = folder("analytic"), *sum = summary_json(1, 0);
	put(dir, "summary.json", sum);
	put(dir, "links.csv", "link,kind,node,bytes,busy_ps,wait_ps\n0,injection,0,100,1,0\n1,ejection,0,300,1,0\n"
	                      "2,injection,1,200,1,0\n3,ejection,1,0,1,0\n");
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	/* Bytes in B (top 300): injection {100, 200}, then ejection {0, 300}; no global link, so no saturation. */
	static const char *const rows[] = {"100 0", "100 0.5", "200 1", "0 0", "0 0.5", "300 1", NULL};
	CU_ASSERT_TRUE(rows_are(fig(&f, "link-bytes")->data, rows));
	CU_ASSERT_TRUE(strstr(fig(&f, "link-bytes")->data, "# block 1: ejection (2)") != NULL);
	CU_ASSERT_TRUE(fig(&f, "global-saturation")->note != NULL);
	rep_fig_free(&f);
	rep_run_free(r);
	free(sum);
	free(dir);
}

/* ---------------------------------------------------------------- storage */

static void expect_fail(const char *dir, enum rep_fail want, const char *msg);

/* The header line of block `block` of data file text, or NULL. */
static const char *block_of(const char *text, size_t block)
{
	char *head = xasprintf("# block %zu:", block);
	const char *p = text ? strstr(text, head) : NULL;
	free(head);
	return p;
}

/* 1 if block `block` of data file text has the row "x y" (within a relative 1e-9). */
static int has_row(const char *text, size_t block, double x, double y)
{
	const char *p = block_of(text, block);
	while (p && (p = strchr(p, '\n')) && *++p && *p != '\n') {
		double a, b;
		if (*p != '#' && sscanf(p, "%lf %lf", &a, &b) == 2 && fabs(a - x) <= 1e-9 * fabs(x) &&
		    fabs(b - y) <= 1e-9 * fabs(y))
			return 1;
	}
	return 0;
}

/*
 * The run lasts 10 ms (summary.json): io.csv's bins are 50 us wide. Requests:
 *   ssd write, 900 B from 25 us to 137.5 us: in flight 25, 50 and 37.5 us in
 *     bins 0, 1 and 2 (means 0.5, 1, 0.75), its bytes in the same shares of
 *     its 112.5 us: 200, 400, 300 B, i.e. 4, 8 and 6 MB/s;
 *   ssd read, 1000 B issued and completed at 10 us: never in flight, its
 *     bytes in bin 0 (20 MB/s, the largest rate: MB/s);
 *   local write, 500 B from 9990 us to 10040 us (past the end): all in the
 *     last bin (199, centred on 9.975 ms): in flight 1, 10 MB/s.
 * storage.csv: two ssd devices busy 2.5 and 7.5 ms (25% and 75% of the
 * run), a local one never busy.
 */
static void test_storage(void)
{
	char *dir = make_run("io", 10000000000ULL, 4000000000ULL);
	put(dir, "io.csv", "id,job,client,server,device,op,file,offset,bytes,status,issue_us,network_us,device_us,"
	                   "completion_us\n"
	                   "0,0,1,0,ssd,write,1,0,900,ok,25.000000,1.0,1.0,137.500000\n"
	                   "1,0,1,0,ssd,read,1,0,1000,ok,10.000000,0,0,10.000000\n"
	                   "2,1,3,3,local,write,2,0,500,ok,9990.000000,0,1.0,10040.000000\n");
	put(dir, "storage.csv", "node,device,model,capacity,used,reads,writes,bytes_read,bytes_written,stored,drained,"
	                        "busy_us,space_waits\n0,ssd,m,1,0,1,1,1,1,0,0,2500.000000,0\n"
	                        "3,local,m,1,0,0,0,0,0,0,0,0.000000,0\n8,ssd,m,1,0,1,1,1,1,0,0,7500.000000,0\n");
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	CU_ASSERT_EQUAL(f.len, 11); /* device-util: a note (no device_busy.csv) */
	CU_ASSERT_TRUE(fig(&f, "device-util") && strstr(fig(&f, "device-util")->note, "--io-log"));
	const rep_figure *g = fig(&f, "io-inflight");
	CU_ASSERT_TRUE(g && g->data && strstr(g->data, "# block 0: ssd write") && strstr(g->data, "# block 2: local write"));
	CU_ASSERT_TRUE(g && has_row(g->data, 0, 0.025, 0.5) && has_row(g->data, 0, 0.075, 1) &&
	               has_row(g->data, 0, 0.125, 0.75) && has_row(g->data, 2, 9.975, 1));
	CU_ASSERT_TRUE(g && !has_row(g->data, 1, 0.025, 0.5) && strstr(g->script, "with histeps"));
	g = fig(&f, "io-rate");
	CU_ASSERT_TRUE(g && has_row(g->data, 0, 0.025, 4) && has_row(g->data, 0, 0.075, 8) && has_row(g->data, 0, 0.125, 6) &&
	               has_row(g->data, 1, 0.025, 20) && has_row(g->data, 2, 9.975, 10));
	CU_ASSERT_TRUE(g && strstr(g->script, "I/O rate (MB/s)") && strstr(g->caption, "Time in ms, rates in MB/s."));
	/* Each block has a row per bin: 3 series of 200. */
	size_t rows = 0;
	for (const char *p = g ? g->data : ""; (p = strchr(p, '\n')); p++)
		rows += p[1] >= '0' && p[1] <= '9';
	CU_ASSERT_EQUAL(rows, 3 * REP_IO_BINS);
	g = fig(&f, "device-busy");
	static const char *const busy[] = {"25 0", "25 0.5", "75 1", "0 0", "0 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, busy) && strstr(g->data, "# block 1: local (1)"));
	rep_fig_free(&f);
	rep_run_free(r);

	/* Without io.csv: the two figures over time are notes that name --io-log; the busy share stays. */
	char *p = xasprintf("%s/io.csv", dir);
	unlink(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r = load(dir));
	rep_fig_build(&r, 1, &f);
	CU_ASSERT_TRUE(f.len == 11 && fig(&f, "io-rate")->note && strstr(fig(&f, "io-inflight")->note, "--io-log") &&
	               fig(&f, "device-busy")->data);
	rep_fig_free(&f);
	rep_run_free(r);

	put(dir, "io.csv", "device,op,bytes,issue_us,completion_us\nssd,read,1,5,4\n");
	expect_fail(dir, REP_FAIL_INPUT, "io/io.csv:2: a request that completes before it is issued, or a negative figure");
	put(dir, "io.csv", "device,op,bytes,issue_us,completion_us\n");
	put(dir, "storage.csv", "node,device\n0,ssd\n");
	expect_fail(dir, REP_FAIL_INPUT, "io/storage.csv:1: no column 'busy_us' in the header");
	free(p);
	free(dir);
}

/* ------------------------------------------------------------ device utilisation */

/* 1 if block `block` of data file text has exactly `n` rows with a non-zero value (the second column). */
static int nonzero_rows(const char *text, size_t block, size_t n)
{
	const char *p = block_of(text, block);
	size_t k = 0;
	while (p && (p = strchr(p, '\n')) && *++p && *p != '\n') {
		double a, b;
		k += *p != '#' && sscanf(p, "%lf %lf", &a, &b) == 2 && b != 0;
	}
	return p != NULL && k == n;
}

/*
 * The run's simulated time is 10 ms, but a drain on device 1 ends at 20 ms:
 * the bins span 20 ms, 100 us each. storage.csv rows: 0 = node 0 ssd, 1 =
 * node 3 local, 2 = node 8 ssd (2 ssd devices, 1 local). device_busy.csv:
 *   device 0 write 25-137.5 us: 75 us in bin 0, 37.5 us in bin 1;
 *   device 0 drain 100-150 us: overlaps the write up to 137.5 us, so only
 *     137.5-150 counts: 12.5 us more in bin 1 (a device is busy or not);
 *   device 2 read 50-100 us: 50 us in bin 0 (none in bin 1: it ends at its start);
 *   device 1 drain 19950-20000 us: 50 us in bin 199.
 * ssd: bin 0 (75 + 50) / (100 x 2) = 62.5%, bin 1 50 / 200 = 25%; local:
 * bin 199 50 / 100 = 50%. Each device: node 0 75% and 50%, node 3 50% in
 * bin 199, node 8 50% in bin 0. Bin centres in ms: 0.05, 0.15, 19.95.
 */
static void test_device_util(void)
{
	char *dir = make_run("busy", 10000000000ULL, 4000000000ULL);
	put(dir, "storage.csv", "node,device,reads,writes,busy_us\n0,ssd,0,2,125\n3,local,1,0,50\n8,ssd,1,0,50\n");
	put(dir, "device_busy.csv", "device,node,class,op,start_ps,end_ps,bytes\n"
	                            "0,0,ssd,write,25000000,137500000,9\n0,0,ssd,drain,100000000,150000000,9\n"
	                            "2,8,ssd,read,50000000,100000000,9\n1,3,local,drain,19950000000,20000000000,9\n");
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	CU_ASSERT_EQUAL(f.len, 12); /* device-util and device-util-each */
	const rep_figure *g = fig(&f, "device-util");
	CU_ASSERT_TRUE_FATAL(g && g->data);
	CU_ASSERT_TRUE(strstr(g->data, "# block 0: ssd") && strstr(g->data, "# block 1: local"));
	CU_ASSERT_TRUE(has_row(g->data, 0, 0.05, 62.5) && has_row(g->data, 0, 0.15, 25) && nonzero_rows(g->data, 0, 2));
	CU_ASSERT_TRUE(has_row(g->data, 1, 19.95, 50) && nonzero_rows(g->data, 1, 1));
	CU_ASSERT_PTR_NOT_NULL(strstr(g->caption, "Devices: 2 ssd, 1 local; bins of 0.1 ms, the last operations (drains) "
	                                          "ending 10 ms after the simulated time."));
	CU_ASSERT_PTR_NULL(strstr(g->caption, "--device-log-max"));
	g = fig(&f, "device-util-each");
	CU_ASSERT_TRUE_FATAL(g && g->data);
	CU_ASSERT_TRUE(strstr(g->data, "# block 0: ssd node 0") && strstr(g->data, "# block 1: local node 3") &&
	               strstr(g->data, "# block 2: ssd node 8"));
	CU_ASSERT_TRUE(has_row(g->data, 0, 0.05, 75) && has_row(g->data, 0, 0.15, 50) && nonzero_rows(g->data, 0, 2));
	CU_ASSERT_TRUE(has_row(g->data, 1, 19.95, 50) && nonzero_rows(g->data, 1, 1));
	CU_ASSERT_TRUE(has_row(g->data, 2, 0.05, 50) && nonzero_rows(g->data, 2, 1));
	rep_fig_free(&f);
	rep_run_free(r);

	/* storage.csv counts 6 operations, the file 4: a bounded file, said in the caption. */
	put(dir, "storage.csv", "node,device,reads,writes,busy_us\n0,ssd,1,2,125\n3,local,1,0,50\n8,ssd,1,1,50\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r = load(dir));
	rep_fig_build(&r, 1, &f);
	CU_ASSERT_PTR_NOT_NULL(strstr(fig(&f, "device-util")->caption, "holds 4 of the 6 device operations"));
	rep_fig_free(&f);
	rep_run_free(r);

	/* Without storage.csv the classes have the devices the file names: the same figures. */
	char *p = xasprintf("%s/storage.csv", dir);
	unlink(p);
	free(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r = load(dir));
	rep_fig_build(&r, 1, &f);
	g = fig(&f, "device-util");
	CU_ASSERT_TRUE(g && g->data && has_row(g->data, 0, 0.05, 62.5) && has_row(g->data, 1, 19.95, 50));
	rep_fig_free(&f);
	rep_run_free(r);

	put(dir, "storage.csv", "node,device,busy_us\n0,ssd,1\n");
	expect_fail(dir, REP_FAIL_INPUT, "busy/device_busy.csv:4: device 2 is not a row of storage.csv (1 devices)");
	put(dir, "device_busy.csv", "device,node,class,op,start_ps,end_ps,bytes\n0,0,ssd,read,5,4,1\n");
	expect_fail(dir, REP_FAIL_INPUT, "busy/device_busy.csv:2: an operation that ends before it starts, or a negative time");
	/* No operation at all: a note. */
	put(dir, "device_busy.csv", "device,node,class,op,start_ps,end_ps,bytes\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r = load(dir));
	rep_fig_build(&r, 1, &f);
	CU_ASSERT_TRUE(fig(&f, "device-util") && fig(&f, "device-util")->note && f.len == 11);
	rep_fig_free(&f);
	rep_run_free(r);
	free(dir);
}

/* ------------------------------------------------------------ link traffic */

/*
 * links_by_class.csv of the hand-made run (jobs a and b): injection links
 * carry a's mpi 100 + 200 B and b's io 300 B; a global link a's mpi 5 MB and
 * 1000 B of io from the pairs beyond the labelled ones (job -1). In MB (the
 * tallest bar, 5.001 MB): injection 0.0003, 0.0003, 0; global 5, 0, 0.001,
 * each bar with 2 pairs that have bytes.
 */
static void test_traffic(void)
{
	char *dir = make_run("traffic", 10000000000ULL, 4000000000ULL);
	put(dir, "links_by_class.csv", "router,port,kind,peer,job,class,bytes\n0,0,injection,0,0,mpi,100\n"
	                               "0,0,injection,0,1,io,300\n0,1,injection,1,0,mpi,200\n0,3,global,2,0,mpi,5000000\n"
	                               "0,3,global,2,-1,io,1000\n");
	rep_run *r = load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	rep_figures f = {0};
	rep_fig_build(&r, 1, &f);
	const rep_figure *g = fig(&f, "link-traffic");
	static const char *const rows[] = {"0 \"traffic\" \"injection\" 2 0.0003 0.0003 0",
	                                   "1 \"traffic\" \"global\" 2 5 0 0.001", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, rows) && strstr(g->data, "# x series group count a_mpi b_io other_io"));
	CU_ASSERT_TRUE(g && strstr(g->script, "set xtics ('injection' 0, 'global' 1)") && strstr(g->data, "Values in MB"));
	rep_fig_free(&f);
	rep_run_free(r);
	put(dir, "links_by_class.csv", "kind,job,class,bytes\ninjection,5,mpi,1\n");
	expect_fail(dir, REP_FAIL_INPUT, "traffic/links_by_class.csv:2: job 5 is not in summary.json (it lists 2)");
	free(dir);
}

/* ------------------------------------------------------------ several runs */

static void test_several_runs(void)
{
	/* r2: job a ends at 20 ms instead of 10 and spends 12 ms in MPI instead of 4 (per rank: 6 against 2). */
	char *d1 = make_run("r1", 10000000000ULL, 4000000000ULL), *d2 = make_run("r2", 20000000000ULL, 12000000000ULL);
	rep_run *runs[2] = {load(d1), load(d2)};
	CU_ASSERT_FATAL(runs[0] && runs[1]);
	rep_figures f = {0};
	rep_fig_build(runs, 2, &f);
	/* Two runs: job j's bars at 3j and 3j + 1, the runs below, the jobs above at 0.5 and 3.5. */
	const rep_figure *g = fig(&f, "time");
	static const char *const rows[] = {"0 \"r1\" \"a\" 2 3 1.5 0.25 0.25 2 2", "1 \"r2\" \"a\" 2 3 1.5 0.25 0.25 2 2",
	                                   "3 \"r1\" \"b\" 3 4 0 0 0 2 1", "4 \"r2\" \"b\" 3 4 0 0 0 2 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, rows));
	CU_ASSERT_TRUE(g && strstr(g->script, "set x2tics ('a' 0.5, 'b' 3.5)"));
	CU_ASSERT_TRUE(g && strstr(g->script, "set xtics ('r1' 0, 'r2' 1, 'r1' 3, 'r2' 4)"));
	/* Box plots: one block per run, one colour each. */
	g = fig(&f, "rank-io");
	CU_ASSERT_TRUE(g && strstr(g->data, "# block 1: r2") && strstr(g->script, "index 1 using 1:5:4:8:7"));
	/* One figure of link bytes per kind, a curve per run. */
	CU_ASSERT_TRUE(fig(&f, "link-bytes-injection") && fig(&f, "link-bytes-local") && fig(&f, "link-bytes-global"));
	for (size_t i = 0; i < f.len; i++) /* no run has a terminal link */
		CU_ASSERT_STRING_NOT_EQUAL(f.ptr[i].id, "link-bytes-terminal");
	g = fig(&f, "global-saturation");
	CU_ASSERT_TRUE(g && strstr(g->data, "# block 1: r2 (2)"));

	/* The slowdown table: a's end 20 / 10 ms, its MPI per rank 6 / 2 ms; b's I/O 2 / 2 ms. */
	char *html = page_of(runs, 2, &f);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td>r2</td><td>r1</td><td class=\"n\">20 ms</td><td class=\"n\">2.000</td>"
	                            "<td class=\"n\">6 ms</td><td class=\"n\">3.000</td><td class=\"n\">2 ms</td>"
	                            "<td class=\"n\">1.000</td></tr>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>b</td><td>r2</td><td>r1</td><td class=\"n\">7 ms</td><td class=\"n\">1.000</td>"
	                            "<td class=\"n\">0</td><td class=\"n\">&ndash;</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<script") == NULL);
	free(html);
	rep_fig_free(&f);
	rep_run_free(runs[0]);
	rep_run_free(runs[1]);
	free(d1);
	free(d2);
}

/* ------------------------------------------------------------ a study folder */

/* Writes ut_dir/path/summary.json of a run where job a runs alone: 2 tasks, end and MPI total in ps. */
static void alone_run(const char *path, unsigned long long end, unsigned long long mpi)
{
	char *dir = folder(path), *sum = xasprintf("{\"status\": \"ok\", \"jobs\": [{\"name\": \"a\", \"tasks\": 2, "
	                                           "\"end_ps\": %llu, \"mpi_ps\": %llu}]}\n", end, mpi);
	put(dir, "summary.json", sum);
	free(sum);
	free(dir);
}

/*
 * The layout of run-study.sh: OUT/runs/NAME (WORKLOAD-PLACEMENT-ROUTING), with
 * logs beside the runs, an unfinished run's hidden folder, and run folders
 * under OUT/alloc that are not the study's runs. Job a runs alone in
 * a-cont-min (end 10 ms, MPI 4 ms over 2 ranks) and a-rand-min (end 4 ms)
 * and beside b in hybrid-cont-min (end 20 ms, MPI 12 ms) and hybrid-rand-min
 * (end 10 ms, MPI 4 ms); b runs only in the hybrids (end 7 ms in both).
 */
static void test_study(void)
{
	char *out = folder("study"), *runs = folder("study/runs"), *alloc = folder("study/alloc");
	free(folder("study/tables"));
	alone_run("study/runs/a-cont-min", 10000000000ULL, 4000000000ULL);
	alone_run("study/runs/a-rand-min", 4000000000ULL, 4000000000ULL);
	alone_run("study/runs/.ncsim-tmp-1", 1, 1);
	alone_run("study/alloc/hybrid-cont", 1, 1);
	put(runs, "hybrid-cont-min.log", "done\n");
	free(make_run("study/runs/hybrid-cont-min", 20000000000ULL, 12000000000ULL));
	free(make_run("study/runs/hybrid-rand-min", 10000000000ULL, 4000000000ULL));
	const char *in[] = {out, "elsewhere"};
	size_t n = 0;
	char **dirs = rep_study_expand(in, 2, &n);
	/* The four runs in name order, then the input that is no study, as it was. */
	CU_ASSERT_EQUAL_FATAL(n, 5);
	static const char *const names[] = {"a-cont-min", "a-rand-min", "hybrid-cont-min", "hybrid-rand-min"};
	for (size_t i = 0; i < 4; i++) {
		char *want = xasprintf("%s/runs/%s", out, names[i]);
		CU_ASSERT_STRING_EQUAL(dirs[i], want);
		free(want);
	}
	CU_ASSERT_STRING_EQUAL(dirs[4], "elsewhere");
	/* A folder of run folders without runs/ is a study too; a run folder is not. */
	size_t m = 0;
	char **sub = rep_study_expand((const char *const *)&runs, 1, &m);
	CU_ASSERT_TRUE(m == 4 && !strcmp(sub[3], dirs[3]));
	rep_study_free(sub, m);
	sub = rep_study_expand((const char *const *)&dirs[2], 1, &m);
	CU_ASSERT_TRUE(m == 1 && !strcmp(sub[0], dirs[2]));
	rep_study_free(sub, m);

	rep_run *r[4];
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(r[i] = load(dirs[i]));
	CU_ASSERT_STRING_EQUAL(r[2]->label, "hybrid-cont-min");
	rep_figures f = {0};
	rep_fig_build(r, 4, &f);
	/* Job a has a slot in all four runs (0 to 3), b only in the hybrids (5 and 6, after a gap); only the
	   hybrids have tasks.csv, so bars stand at 2, 3, 5 and 6. */
	const rep_figure *g = fig(&f, "time");
	static const char *const rows[] = {"2 \"hybrid-cont-min\" \"a\" 2 3 1.5 0.25 0.25 2 2",
	                                   "3 \"hybrid-rand-min\" \"a\" 2 3 1.5 0.25 0.25 2 2",
	                                   "5 \"hybrid-cont-min\" \"b\" 3 4 0 0 0 2 1",
	                                   "6 \"hybrid-rand-min\" \"b\" 3 4 0 0 0 2 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, rows));
	CU_ASSERT_TRUE(g && strstr(g->script, "set x2tics ('a' 1.5, 'b' 5.5)"));
	CU_ASSERT_TRUE(g && strstr(g->script, "'hybrid-rand-min' 3, 'hybrid-cont-min' 5, 'hybrid-rand-min' 6)"));
	/* Slowdowns of a: each hybrid against a's run alone with the same ending: 20 / 10 ms, MPI per rank 6 / 2 ms;
	   10 / 4 ms, 2 / 2 ms. b never runs alone: the second hybrid against the first, 7 / 7 ms. The runs of a
	   alone get no row. */
	char *html = page_of(r, 4, &f);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td>hybrid-cont-min</td><td>a-cont-min</td><td class=\"n\">20 ms</td>"
	                            "<td class=\"n\">2.000</td><td class=\"n\">6 ms</td><td class=\"n\">3.000</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td>hybrid-rand-min</td><td>a-rand-min</td><td class=\"n\">10 ms</td>"
	                            "<td class=\"n\">2.500</td><td class=\"n\">2 ms</td><td class=\"n\">1.000</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>b</td><td>hybrid-rand-min</td><td>hybrid-cont-min</td><td class=\"n\">7 ms</td>"
	                            "<td class=\"n\">1.000</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<td>a-cont-min</td><td>a") == NULL && strstr(html, "<tr><td>b</td><td>hybrid-cont-min</td><td>") == NULL);
	free(html);
	rep_fig_free(&f);
	for (size_t i = 0; i < 4; i++)
		rep_run_free(r[i]);
	rep_study_free(dirs, n);
	free(out);
	free(runs);
	free(alloc);
}

/*
 * MFNetSim's full study names its runs PLACEMENT-ROUTING-WORKLOAD: the run of
 * a alone that shares the most with a hybrid's name is then the one with the
 * same beginning. Ends and MPI as in test_study: cont-min-hyb against
 * cont-min-a (20 / 10 ms), rand-min-hyb against rand-min-a (10 / 4 ms).
 */
static void test_study_prefix(void)
{
	char *out = folder("full"), *runs = folder("full/runs");
	alone_run("full/runs/cont-min-a", 10000000000ULL, 4000000000ULL);
	alone_run("full/runs/rand-min-a", 4000000000ULL, 4000000000ULL);
	free(make_run("full/runs/cont-min-hyb", 20000000000ULL, 12000000000ULL));
	free(make_run("full/runs/rand-min-hyb", 10000000000ULL, 4000000000ULL));
	const char *in[] = {out};
	size_t n = 0;
	char **dirs = rep_study_expand(in, 1, &n);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	rep_run *r[4];
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(r[i] = load(dirs[i]));
	rep_figures f = {0};
	char *html = page_of(r, 4, &f);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td>cont-min-hyb</td><td>cont-min-a</td><td class=\"n\">20 ms</td>"
	                            "<td class=\"n\">2.000</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td>rand-min-hyb</td><td>rand-min-a</td><td class=\"n\">10 ms</td>"
	                            "<td class=\"n\">2.500</td>") != NULL);
	free(html);
	for (size_t i = 0; i < 4; i++)
		rep_run_free(r[i]);
	rep_study_free(dirs, n);
	free(out);
	free(runs);
}

/* -------------------------------------------------------- netbench sweeps */

#define NB_HEAD "routing,pattern,offered,accepted,msgs,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us," \
                "hops,nonmin,events,wall_s,events_per_s,rss_mib\n"

/*
 * What `ncsim netbench ... --csv >> sweep.csv` leaves: a header before every
 * row. minimal runs at 0.2, 0.6 (two seeds) and 0.4, out of order; ugal at
 * 0.2 and at 0.8, where the window counted no message (latencies 0).
 */
static const char sweep_csv[] =
    NB_HEAD "minimal,uniform,0.2000,0.1900,100,2.000,1.500,3.000,4.000,5.000,2.000,0.0000,9,0.1,90,5.0\n"
    NB_HEAD "ugal,uniform,0.2000,0.2000,120,1.800,1.000,2.000,3.000,6.000,2.500,0.1000,9,0.1,90,5.0\n"
    NB_HEAD "minimal,uniform,0.6000,0.4000,300,10.000,8.000,20.000,40.000,50.000,2.000,0.0000,9,0.1,90,5.0\n"
    NB_HEAD "minimal,uniform,0.6000,0.5000,200,14.000,10.000,30.000,60.000,90.000,3.000,0.0000,9,0.1,90,5.0\n"
    NB_HEAD "minimal,uniform,0.4000,0.3900,150,3.000,2.000,4.000,5.000,6.000,2.000,0.0000,9,0.1,90,5.0\n"
    NB_HEAD "ugal,uniform,0.8000,0.0000,0,0.000,0.000,0.000,0.000,0.000,0.000,0.0000,9,0.1,90,5.0\n";

/* Loads the n inputs into *nb; 0, or -1 with the error printed. */
static int nb_load(rep_nb *nb, const char *const *paths, size_t n)
{
	char *err = NULL;
	int bad;
	*nb = (rep_nb){0};
	int rc = rep_nb_load(nb, paths, n, &err, &bad);
	if (rc < 0)
		fprintf(stderr, "rep_nb_load: %s\n", err);
	free(err);
	return rc;
}

static void test_netbench_sweep(void)
{
	char *dir = folder("nb"), *csv = xasprintf("%s/sweep.csv", dir);
	put(dir, "sweep.csv", sweep_csv);
	CU_ASSERT_TRUE(rep_nb_is_input(csv));
	const char *paths[] = {csv};
	rep_nb nb;
	CU_ASSERT_EQUAL_FATAL(nb_load(&nb, paths, 1), 0);
	/* Six data rows; the six repeated headers are no rows. One input: curves are named by routing alone. */
	CU_ASSERT_EQUAL(nb.inputs.ptr[0].rows, 6);
	CU_ASSERT_EQUAL_FATAL(nb.series.len, 2);
	CU_ASSERT_STRING_EQUAL(nb.series.ptr[0].name, "minimal");
	CU_ASSERT_STRING_EQUAL(nb.series.ptr[1].name, "ugal");
	CU_ASSERT_EQUAL(nb.series.ptr[0].points.len, 3);
	rep_figures f = {0};
	rep_nbfig_build(&nb, &f);
	CU_ASSERT_EQUAL(f.len, 2);

	/*
	 * Latency in us (the largest p99 of a point is 50 us). minimal's points by
	 * load: 0.2; 0.4; 0.6 the mean of two seeds: mean (10 + 14) / 2 = 12, p99
	 * (40 + 60) / 2 = 50, p50 9, p90 25, max 70. ugal at 0.8 counted no
	 * message: no point. The largest p99 (50) is under 100 x the least mean
	 * (1.8): a linear axis. Columns: offered mean p99 p50 p90 max runs.
	 */
	const rep_figure *g = fig(&f, "nb-latency");
	static const char *const lat_rows[] = {"0.2 2 4 1.5 3 5 1", "0.4 3 5 2 4 6 1", "0.6 12 50 9 25 70 2",
	                                       "0.2 1.8 3 1 2 6 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, lat_rows));
	CU_ASSERT_TRUE(g && strstr(g->data, "# block 1: ugal") && strstr(g->data, "latencies in \xc2\xb5s"));
	CU_ASSERT_TRUE(g && strstr(g->script, "'nb-latency.dat' index 0 using 1:2 with linespoints lw 2 pt 7") &&
	               strstr(g->script, "index 1 using 1:3 with linespoints lw 2 dt 2 pt 6") &&
	               strstr(g->script, "title 'ugal p99'") && !strstr(g->script, "logscale"));
	CU_ASSERT_TRUE(g && strstr(g->caption, "1 point averages several runs at the same load (seeds).") &&
	               strstr(g->caption, "1 point is left out: no message was counted"));
	/* Throughput: every point, the 0.6 one the mean of 0.4 and 0.5; the line accepted = offered. */
	g = fig(&f, "nb-throughput");
	static const char *const thr_rows[] = {"0.2 0.19 1", "0.4 0.39 1", "0.6 0.45 2", "0.2 0.2 1", "0.8 0 1", NULL};
	CU_ASSERT_TRUE(g && rows_are(g->data, thr_rows));
	CU_ASSERT_TRUE(g && strstr(g->script, "x with lines dt 3 lc rgb '#888888' title 'accepted = offered'"));

	/* The points table: minimal at 0.6 has 250 messages on average, latencies in us, hops (2 + 3) / 2. */
	char *html = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&html, &len);
	rep_page page = {.nb = &nb, .figs = &f, .figdir = "sweep-report"};
	rep_html_write(out, &page);
	fclose(out);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>minimal</td><td class=\"n\">0.6000</td><td class=\"n\">0.4500</td>"
	                            "<td class=\"n\">250</td><td class=\"n\">12</td><td class=\"n\">9</td>"
	                            "<td class=\"n\">50</td><td class=\"n\">70</td><td class=\"n\">2.500</td>") != NULL);
	/* ugal at 0.8: no latency, shown as dashes. */
	CU_ASSERT_TRUE(strstr(html, "<td class=\"n\">0</td><td class=\"n\">&ndash;</td><td class=\"n\">&ndash;</td>") !=
	               NULL);
	CU_ASSERT_TRUE(strstr(html, "<h1>ncsim report: netbench sweep</h1>") && !strstr(html, "<script"));
	free(html);
	rep_fig_free(&f);
	rep_nb_free(&nb);

	/* The default page of a CSV file sits beside it. */
	char *page_path = rep_default_page(csv, 1), *want = xasprintf("%s/sweep-report.html", dir);
	UT_ASSERT_TEXT(page_path, want);
	free(page_path);
	free(want);
	free(csv);
	free(dir);
}

/* A folder of `--out` runs (one netbench.csv each) next to a CSV file: the curves are named after their input. */
static void test_netbench_folders(void)
{
	char *dir = folder("runs"), *sub = NULL;
	static const char *const subs[] = {"minimal-0.3", "minimal-0.1", ".ncsim-tmp-1", "other"};
	static const char *const rows[] = {"minimal,uniform,0.3000,0.2900,10,4.0,1,1,8.0,9,2,0,1,0,0,1\n",
	                                   "minimal,uniform,0.1000,0.1000,10,2.0,1,1,3.0,9,2,0,1,0,0,1\n",
	                                   "ugal,uniform,0.5000,0.5000,10,2.0,1,1,3.0,9,2,0,1,0,0,1\n", NULL};
	for (size_t i = 0; i < 4; i++) {
		sub = xasprintf("runs/%s", subs[i]);
		char *d = folder(sub), *text = xasprintf(NB_HEAD "%s", rows[i] ? rows[i] : "");
		if (rows[i]) /* "other" holds no netbench.csv; the unfinished run (.ncsim-tmp-1) is not read */
			put(d, "netbench.csv", text);
		free(text);
		free(d);
		free(sub);
	}
	char *csv = xasprintf("%s/b.csv", ut_dir);
	put(ut_dir, "b.csv", NB_HEAD "minimal,uniform,0.1000,0.0500,10,6.0,1,1,7.0,9,2,0,1,0,0,1\n");
	CU_ASSERT_TRUE(rep_nb_is_input(dir));
	const char *paths[] = {dir, csv};
	rep_nb nb;
	CU_ASSERT_EQUAL_FATAL(nb_load(&nb, paths, 2), 0);
	CU_ASSERT(nb.inputs.ptr[0].files == 2 && nb.inputs.ptr[0].rows == 2 && nb.inputs.ptr[1].rows == 1);
	CU_ASSERT_EQUAL_FATAL(nb.series.len, 2);
	CU_ASSERT_STRING_EQUAL(nb.series.ptr[0].name, "runs minimal");
	CU_ASSERT_STRING_EQUAL(nb.series.ptr[1].name, "b minimal");
	rep_figures f = {0};
	rep_nbfig_build(&nb, &f);
	/* runs minimal: 0.1 then 0.3 (the subfolders' order does not matter); b minimal at 0.1. */
	static const char *const thr_rows[] = {"0.1 0.1 1", "0.3 0.29 1", "0.1 0.05 1", NULL};
	CU_ASSERT_TRUE(rows_are(fig(&f, "nb-throughput")->data, thr_rows));
	rep_fig_free(&f);
	rep_nb_free(&nb);

	/* A run folder (summary.json) and an empty folder are no netbench results. */
	char *run = make_run("run", 1, 0), *empty = folder("empty");
	CU_ASSERT_FALSE(rep_nb_is_input(run));
	CU_ASSERT_FALSE(rep_nb_is_input(empty));
	free(run);
	free(empty);
	free(csv);
	free(dir);
}

static void expect_nb_fail(const char *path, int want_bad, const char *msg)
{
	char *err = NULL;
	int bad = -1;
	rep_nb nb = {0};
	const char *paths[] = {path};
	CU_ASSERT_EQUAL(rep_nb_load(&nb, paths, 1, &err, &bad), -1);
	CU_ASSERT_EQUAL(bad, want_bad);
	if (err)
		TAKE_TAIL(err, msg);
	else
		CU_FAIL("no error message");
	rep_nb_free(&nb);
}

static void test_netbench_errors(void)
{
	char *dir = folder("nbbad"), *p = xasprintf("%s/x.csv", dir);
	put(dir, "x.csv", "routing,pattern,offered,accepted,lat_mean_us\nminimal,uniform,0.1,0.1,2\n");
	expect_nb_fail(p, 1, "x.csv:1: no column 'lat_p99_us' in the header (is it the output of ncsim netbench --csv?)");
	put(dir, "x.csv", NB_HEAD "minimal,uniform,0.1,0.1,1,1,1,1,1,1,1,0,1,0,0,1\n" NB_HEAD
	                          "minimal,uniform,abc,0.1,1,1,1,1,1,1,1,0,1,0,0,1\n");
	expect_nb_fail(p, 1, "x.csv:4: column 'offered': 'abc' is not a number");
	put(dir, "x.csv", NB_HEAD "minimal,uniform,0.1,nan,1,1,1,1,1,1,1,0,1,0,0,1\n");
	expect_nb_fail(p, 1, "x.csv:2: column 'accepted': 'nan' is not a number");
	put(dir, "x.csv", NB_HEAD NB_HEAD);
	expect_nb_fail(p, 1, "x.csv: no netbench row, only headers (ncsim netbench --csv >> FILE appends one per run)");
	put(dir, "x.csv", "");
	expect_nb_fail(p, 1, "x.csv:1: empty file: no header line");
	char *none = xasprintf("%s/none.csv", dir);
	expect_nb_fail(none, 0, "none.csv: no netbench results: neither a CSV file, nor a folder with netbench.csv or "
	                        "subfolders holding one");
	free(none);
	free(p);
	free(dir);
}

/* ------------------------------------------------------------ calibrations */

/* The HTML page of calibration c with figures f (heap). */
static char *cal_page(const rep_cal *c, const rep_figures *f)
{
	return html_of(&(rep_page){.cal = c, .figs = f, .figdir = "report"});
}

static rep_cal *cal_load(const char *dir)
{
	char *err = NULL;
	int bad;
	rep_cal *c = rep_cal_load(dir, &err, &bad);
	if (!c)
		fprintf(stderr, "rep_cal_load %s: %s\n", dir, err);
	free(err);
	return c;
}

/*
 * A search over two parameters: the chosen level's best values and two
 * benchmarks (lat fitted, "bi bw" predicted), and history.csv with a check,
 * search and final evaluations, a profile and a failed evaluation (both left
 * out). Best so far: 10, 8, 8 (12 is worse), 4. Relative errors: (2.5 - 2) / 2
 * = +25%, (3 - 4) / 4 = -25%, (110 - 100) / 100 = +10%.
 */
static void test_calib_search(void)
{
	char *dir = folder("cal");
	put(dir, "calibration.json",
	    "{\"ncsim_version\": \"0.1.0\", \"command_line\": \"ncsim calibrate s.conf\", \"spec\": \"s.conf\", "
	    "\"status\": \"ok\",\n\"parameters\": [{\"name\": \"net.lat\", \"scale\": \"log\", \"low\": 100000, "
	    "\"high\": 10000000}, {\"name\": \"net.bw\", \"scale\": \"linear\", \"low\": 1e9, \"high\": 1e10}],\n"
	    "\"chosen_level\": \"(system)\", \"levels\": [{\"level\": \"(system)\", \"loss\": 2.5, \"best\": [\n"
	    "{\"name\": \"net.lat\", \"value\": \"1778279 ps\", \"constrained\": true},\n"
	    "{\"name\": \"net.bw\", \"value\": \"5e+09 B/s\", \"constrained\": false}],\n\"benchmarks\": [\n"
	    "{\"name\": \"lat\", \"use\": \"fit\", \"points\": [{\"x\": 1, \"measured\": 2, \"sd\": 0.1, \"simulated\": 2.5},"
	    " {\"x\": 1024, \"measured\": 4, \"sd\": 0.2, \"simulated\": 3}]},\n"
	    "{\"name\": \"bi bw\", \"use\": \"predict\", \"points\": [{\"x\": 8, \"measured\": 100, \"sd\": 1, "
	    "\"simulated\": 110}]}]}]}\n");
	put(dir, "history.csv", "evaluation,phase,level,stage,loss,wall_s,net.lat,net.bw\n0,check,,,10,0.1,1,1\n"
	                        "1,search,,,8,0.1,1,1\n2,search,,,12,0.1,1,1\n3,search,,,inf,0.1,1,1\n"
	                        "4,profile,,,1,0.1,1,1\n5,final,,,4,0.1,1,1\n");
	CU_ASSERT_TRUE(rep_cal_is_input(dir));
	rep_cal *c = cal_load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_FALSE(c->bayes);
	rep_figures f = {0};
	rep_calfig_build(c, &f);
	CU_ASSERT_EQUAL(f.len, 3);
	static const char *const loss[] = {"0 10 10", "1 8 8", "2 12 8", "5 4 4", NULL};
	CU_ASSERT_TRUE(fig(&f, "calib-loss") && rows_are(fig(&f, "calib-loss")->data, loss));
	static const char *const lat[] = {"1 2 0.1 2.5 25 0 0 0", "1024 4 0.2 3 -25 0 0 0", NULL};
	const rep_figure *g = fig(&f, "calib-fit-lat");
	CU_ASSERT_TRUE(g && rows_are(g->data, lat) && strstr(g->script, "set logscale x 2") &&
	               !strstr(g->script, "filledcurves"));
	static const char *const bw[] = {"8 100 1 110 10 0 0 0", NULL};
	g = fig(&f, "calib-fit-bi_bw");
	CU_ASSERT_TRUE(g && rows_are(g->data, bw) && strstr(g->title, "bi bw (predicted, not fitted)"));
	/* The parameters table: the best latency 1778279 ps in the unit of its range (up to 10 us), the bandwidth in GB/s. */
	char *html = cal_page(c, &f);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>net.lat</td><td class=\"n\">1.778 \xc2\xb5s</td><td class=\"n\">0.1 \xc2\xb5s"
	                            "</td><td class=\"n\">10 \xc2\xb5s</td><td>log</td><td>yes</td></tr>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>net.bw</td><td class=\"n\">5 GB/s</td><td class=\"n\">1 GB/s</td><td "
	                            "class=\"n\">10 GB/s</td><td>linear</td><td>no</td></tr>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "<h1>ncsim report: calibration cal</h1>") && strstr(html, "Best loss</th><td class=\"n\">2.5<"));
	free(html);
	rep_fig_free(&f);
	rep_cal_free(c);
	free(dir);
}

/* The rows of a posterior figure's data file: left, right and share of each bin (at most REP_CAL_BINS). */
static size_t bins_of(const char *data, double *left, double *right, double *share)
{
	size_t n = 0;
	for (const char *p = data; p && *p && n < REP_CAL_BINS; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p != '#' && sscanf(p, "%lf %lf %*f %lf", &left[n], &right[n], &share[n]) == 3)
			n++;
	return n;
}

/*
 * --bayes: parameter a (ps, log-uniform prior 1 to 100 ns) and the
 * discrepancy; posterior.csv (after its comment line) holds a = 1, 2, 2, 4 ns:
 * 40 bins of ln(4)/40 over [ln 1, ln 4] ns put 1 ns in bin 0, 2 ns in bin 20
 * (ln 2 is 20 bins) and 4 ns in the last (39): shares 0.25, 0.5, 0.25, bin 20
 * starting at 2 ns and bin 39 ending at 4. Sobol: one index per point, for a.
 */
static void test_calib_bayes(void)
{
	char *dir = folder("bayes");
	put(dir, "calibration.json",
	    "{\"method\": \"bayes\", \"command_line\": \"ncsim calibrate b.conf --bayes\", \"map_loss\": 1.5,\n"
	    "\"predictive_coverage_90\": 0.5, \"parameters\": [\n"
	    "{\"name\": \"a\", \"unit\": \"ps\", \"prior\": \"log-uniform\", \"low\": 1000, \"high\": 100000, \"mean\": 2250,"
	    " \"sd\": 1000, \"p05\": 1000, \"p95\": 4000, \"map\": 2000, \"constrained\": true},\n"
	    "{\"name\": \"discrepancy\", \"unit\": \"share\", \"prior\": \"log-uniform\", \"low\": 0.001, \"high\": 0.5,"
	    " \"map\": 0.02, \"constrained\": true}],\n\"points\": [\n"
	    "{\"benchmark\": \"lat\", \"x\": 1, \"measured\": 2, \"measured_se\": 0.1, \"map_simulated\": 2.2, "
	    "\"posterior_band\": [1.9, 2.1, 2.3], \"sobol_total\": [0.9]},\n"
	    "{\"benchmark\": \"lat\", \"x\": 2, \"measured\": 3, \"measured_se\": 0.1, \"map_simulated\": 3, "
	    "\"posterior_band\": [2.8, 3, 3.2], \"sobol_total\": [0.25]}]}\n");
	put(dir, "posterior.csv", "# ncsim calibrate --bayes: 4 samples\nsample,chain,walker,log_posterior,discrepancy,"
	                          "a [ps]\n0,0,0,1,0.01,1000\n1,0,0,1,0.02,2000\n2,0,0,1,0.03,2000\n3,0,0,1,0.05,4000\n");
	rep_cal *c = cal_load(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(c->bayes && c->params.len == 2 && c->params.ptr[0].samples == 4);
	rep_figures f = {0};
	rep_calfig_build(c, &f);
	/* the fit, a posterior per parameter, the heat map; no loss history */
	CU_ASSERT_EQUAL(f.len, 4);
	static const char *const lat[] = {"1 2 0.1 2.2 10 1.9 2.1 2.3", "2 3 0.1 3 0 2.8 3 3.2", NULL};
	const rep_figure *g = fig(&f, "calib-fit-lat");
	CU_ASSERT_TRUE(g && rows_are(g->data, lat) && strstr(g->script, "filledcurves"));
	double l[REP_CAL_BINS], r[REP_CAL_BINS], sh[REP_CAL_BINS], sum = 0;
	g = fig(&f, "posterior-1");
	CU_ASSERT_FATAL(g && g->data && bins_of(g->data, l, r, sh) == REP_CAL_BINS);
	for (size_t b = 0; b < REP_CAL_BINS; b++)
		sum += sh[b];
	CU_ASSERT_DOUBLE_EQUAL(sum, 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l[0], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sh[0], 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l[20], 2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sh[20], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r[39], 4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sh[39], 0.25, 1e-12);
	CU_ASSERT_TRUE(strstr(g->data, "Values in ns") && strstr(g->script, "using (2):(0):(0):(0.5) with vectors"));
	static const char *const sobol[] = {"0 0 0.9 \"lat\" 1", "1 0 0.25 \"lat\" 2", NULL};
	g = fig(&f, "calib-sobol");
	CU_ASSERT_TRUE(g && rows_are(g->data, sobol) && strstr(g->script, "set ytics ('a' 0)"));
	char *html = cal_page(c, &f);
	CU_ASSERT_TRUE(strstr(html, "<tr><td>a</td><td class=\"n\">2.25 ns</td><td class=\"n\">1 ns</td><td class=\"n\">1 ns"
	                            "</td><td class=\"n\">4 ns</td><td class=\"n\">2 ns</td>") != NULL);
	CU_ASSERT_TRUE(strstr(html, "50% of the points inside their 90% band") != NULL);
	free(html);
	rep_fig_free(&f);
	rep_cal_free(c);

	/* A malformed sample names its line (the comment line counts); a malformed calibration.json its place. */
	put(dir, "posterior.csv", "# a comment\nsample,a [ps]\n0,1000\n1,x\n");
	char *err = NULL;
	int bad = 0;
	CU_ASSERT_PTR_NULL(rep_cal_load(dir, &err, &bad));
	CU_ASSERT_TRUE(bad);
	TAKE_TAIL(err, "bayes/posterior.csv:4: column 'a [ps]': 'x' is not a number");
	put(dir, "calibration.json", "{\"method\": \"bayes\",\n  \"points\": [}\n");
	CU_ASSERT_PTR_NULL(rep_cal_load(dir, &err, &bad));
	CU_ASSERT_TRUE(bad);
	TAKE_TAIL(err, "bayes/calibration.json:2:14: expected a value");
	free(dir);
}

/* ------------------------------------------------------------------ errors */

static void expect_fail(const char *dir, enum rep_fail want, const char *msg)
{
	char *err = NULL;
	enum rep_fail why = REP_FAIL_NONE;
	CU_ASSERT_PTR_NULL(rep_run_load(dir, &err, &why));
	CU_ASSERT_EQUAL(why, want);
	if (err)
		TAKE_TAIL(err, msg);
	else
		CU_FAIL("no error message");
}

static void test_bad_runs(void)
{
	char *none = folder("notarun"), *bad = folder("badjson");
	expect_fail(none, REP_FAIL_IO,
	            "notarun: not a run folder: it has no summary.json (ncsim run writes one), no netbench.csv and no run "
	            "folders (a study's runs/)");
	char *nodir = xasprintf("%s/nowhere", ut_dir);
	expect_fail(nodir, REP_FAIL_IO, "nowhere: not a run folder: no such folder");
	put(bad, "summary.json", "{\"jobs\": [\n  {\"name\": \"a\",}\n]}");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/summary.json:2:16: expected a member name in quotes");
	put(bad, "summary.json", "{\"jobs\": [{\"name\": \"a\", \"end_ps\": -4}]}");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/summary.json: jobs[0].end_ps is not a non-negative integer");
	put(bad, "summary.json", "{\"jobs\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/summary.json: jobs[1]: a second job named 'a'");
	put(bad, "summary.json", "{\"seed\": 1}");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/summary.json: no \"jobs\" array (is it an ncsim summary.json?)");
	put(bad, "summary.json", "{\"jobs\": [{\"name\": \"a\", \"tasks\": 1}]}");
	put(bad, "tasks.csv", "job,end_ps,compute_ps,mpi_network_ps,mpi_sync_ps,mpi_stack_ps,io_ps,mpi_ps\n"
	                      "a,1,0,0,0,0,0,0\nz,1,0,0,0,0,0,0\n");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/tasks.csv:3: job 'z' is not in summary.json");
	put(bad, "tasks.csv", "job,end_ps\na,1\n");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/tasks.csv:1: no column 'compute_ps' in the header");
	put(bad, "tasks.csv", "job,end_ps,compute_ps,mpi_network_ps,mpi_sync_ps,mpi_stack_ps,io_ps,mpi_ps\na,1,0,0,0\n");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/tasks.csv:2: 5 fields, but the header has 8");
	put(bad, "tasks.csv", "job,end_ps,compute_ps,mpi_network_ps,mpi_sync_ps,mpi_stack_ps,io_ps,mpi_ps\n");
	put(bad, "links.csv", "kind,bytes,saturation_ps\nglobal,12,x\n");
	expect_fail(bad, REP_FAIL_INPUT, "badjson/links.csv:2: column 'saturation_ps': 'x' is not a non-negative integer");
	free(none);
	free(bad);
	free(nodir);
}

int main(void)
{
	static const ut_test readers[] = {
	    {"CSV rows, quoting and file:line errors", test_csv_reader},
	    {"JSON values and file:line:col errors", test_json_reader},
	    {"quartiles (type 7)", test_quantiles},
	    {"CDF points and their thinning", test_cdf_points},
	    {"page and figure folder paths", test_paths},
	    {NULL, NULL},
	};
	static const ut_test figures[] = {
	    {"one run: every figure's data", test_run_figures},
	    {"a run without tasks.csv and links.csv", test_missing_files},
	    {"the analytic network's links.csv (no saturation_ps)", test_analytic_links},
	    {"storage: I/O over time (io.csv), devices' busy share (storage.csv)", test_storage},
	    {"device utilisation over time (device_busy.csv)", test_device_util},
	    {"link traffic by job and class (links_by_class.csv)", test_traffic},
	    {"several runs side by side, slowdowns", test_several_runs},
	    {"a study folder: its runs side by side, slowdowns against the runs alone", test_study},
	    {"a study named PLACEMENT-ROUTING-WORKLOAD: the reference alone", test_study_prefix},
	    {"a search calibration: loss, measured and simulated points, parameters", test_calib_search},
	    {"a Bayesian calibration: posterior marginals, bands, Sobol heat map", test_calib_bayes},
	    {"folders that are not runs, malformed files", test_bad_runs},
	    {"netbench: a --csv sweep's curves and points table", test_netbench_sweep},
	    {"netbench: folders of --out runs, several inputs", test_netbench_folders},
	    {"netbench: malformed sweeps", test_netbench_errors},
	    {NULL, NULL},
	};
	static const ut_suite suites[] = {
	    {"report readers", readers, ut_dir_setup, ut_dir_teardown},
	    {"report figures", figures, ut_dir_setup, ut_dir_teardown},
	    {NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

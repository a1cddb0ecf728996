/*
 * test_outfile.c - atomic output files, run folders, JSON and CSV writers
 * (runtime/stats/outfile.h, json.h, csv.h).
 */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/stats/csv.h"
#include "runtime/stats/json.h"
#include "runtime/stats/outfile.h"
#include "base/util.h"
#include "tests/unit/unit.h"

/* Number of entries in dir other than . and .. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* --------------------------------------------------------------- outfile */

static void test_commit(void)
{
	char *dir = xasprintf("%s/commit", ut_dir), *path = xasprintf("%s/data.csv", dir), *err = NULL;
	outfile *f;
	char *s;

	CU_ASSERT_EQUAL_FATAL(outfile_mkdir_p(dir, &err), 0);
	f = outfile_open(path, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_STRING_EQUAL(outfile_path(f), path);
	fputs("a,b\n1,2\n", outfile_stream(f));
	fflush(outfile_stream(f));
	/* Before the commit, the final name does not exist; the temporary file does. */
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(count_entries(dir), 1);
	CU_ASSERT_EQUAL(outfile_commit(f, &err), 0);
	s = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, "a,b\n1,2\n");
	free(s);
	CU_ASSERT_EQUAL(count_entries(dir), 1); /* no temporary file left */

	/* Replacing an existing file, with fsync. */
	f = outfile_open(path, OUTFILE_FSYNC, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("new\n", outfile_stream(f));
	s = ut_slurp(path);
	CU_ASSERT_STRING_EQUAL(s, "a,b\n1,2\n"); /* old content until the commit */
	free(s);
	CU_ASSERT_EQUAL(outfile_commit(f, &err), 0);
	s = ut_slurp(path);
	CU_ASSERT_STRING_EQUAL(s, "new\n");
	free(s);
	CU_ASSERT_EQUAL(count_entries(dir), 1);

	/* The one-call form. */
	CU_ASSERT_EQUAL(outfile_write_all(path, "xyz", 3, 0, &err), 0);
	s = ut_slurp(path);
	CU_ASSERT_STRING_EQUAL(s, "xyz");
	free(s);
	free(path);
	free(dir);
}

/* A device is written in place: committing must not replace /dev/null with a file. */
static void test_device(void)
{
	char *err = NULL;
	outfile *f = outfile_open("/dev/null", 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("discarded\n", outfile_stream(f));
	CU_ASSERT_EQUAL(outfile_commit(f, &err), 0);
	struct stat st;
	CU_ASSERT_EQUAL(stat("/dev/null", &st), 0);
	CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
}

static void test_abort(void)
{
	char *dir = xasprintf("%s/abort", ut_dir), *path = xasprintf("%s/out.json", dir), *err = NULL;
	outfile *f;
	char *s;

	CU_ASSERT_EQUAL_FATAL(outfile_mkdir_p(dir, &err), 0);
	/* Abort with no previous file: nothing at all remains. */
	f = outfile_open(path, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("partial", outfile_stream(f));
	outfile_abort(f);
	CU_ASSERT_EQUAL(count_entries(dir), 0);

	/* Abort with a previous file: it is left untouched. */
	CU_ASSERT_EQUAL(outfile_write_all(path, "complete\n", 9, 0, &err), 0);
	f = outfile_open(path, 0, &err);
	fputs("trunc", outfile_stream(f));
	outfile_abort(f);
	s = ut_slurp(path);
	CU_ASSERT_STRING_EQUAL(s, "complete\n");
	free(s);
	CU_ASSERT_EQUAL(count_entries(dir), 1);
	outfile_abort(NULL);
	free(path);
	free(dir);
}

/* Keeps the child's writer reachable, so valgrind's leak check of the killed child stays quiet. */
static outfile *volatile crash_writer;

/* A writer killed mid-file leaves no file under the final name. */
static void test_crash(void)
{
	char *dir = xasprintf("%s/crash", ut_dir), *path = xasprintf("%s/tasks.csv", dir), *err = NULL;
	pid_t pid;
	int status = 0;

	CU_ASSERT_EQUAL_FATAL(outfile_mkdir_p(dir, &err), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		crash_writer = outfile_open(path, 0, &err);
		free(path);
		free(dir);
		if (!crash_writer)
			_exit(1);
		fputs("half a row,", outfile_stream(crash_writer));
		fflush(outfile_stream(crash_writer));
		raise(SIGKILL); /* dies mid-file, before any commit */
		_exit(2);
	}
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CU_ASSERT_EQUAL(count_entries(dir), 1); /* only the temporary file */
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	free(path);
	free(dir);
}

static void test_open_errors(void)
{
	char *err = NULL;
	outfile *f = outfile_open("/nonexistent-dir/x/file.csv", 0, &err);

	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_EQUAL(strncmp(err, "/nonexistent-dir/x/file.csv: cannot create output file: ", 56), 0);
	free(err);
	err = NULL;
	f = outfile_open("dir/", 0, &err);
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
}

static void test_mkdir_p(void)
{
	char *deep = xasprintf("%s/a/b//c/d/", ut_dir), *file = xasprintf("%s/plainfile", ut_dir);
	char *under = xasprintf("%s/plainfile/sub", ut_dir), *err = NULL;
	struct stat st;

	CU_ASSERT_EQUAL(outfile_mkdir_p(deep, &err), 0);
	CU_ASSERT_EQUAL(stat(deep, &st), 0);
	CU_ASSERT_TRUE(S_ISDIR(st.st_mode));
	CU_ASSERT_EQUAL(outfile_mkdir_p(deep, &err), 0); /* exists: fine */
	CU_ASSERT_EQUAL(outfile_write_all(file, "", 0, 0, &err), 0);
	CU_ASSERT_EQUAL(outfile_mkdir_p(under, &err), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Not a directory"));
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(outfile_mkdir_p(file, &err), -1);
	free(err);
	free(deep);
	free(file);
	free(under);
}

static void test_run_dir(void)
{
	char *base = xasprintf("%s/ncsim-out", ut_dir), *name, *p1, *p2, *err = NULL;
	struct tm tm = { .tm_year = 124, .tm_mon = 2, .tm_mday = 5, .tm_hour = 14, .tm_min = 3, .tm_sec = 9, .tm_isdst = -1 };
	time_t t = mktime(&tm);

	name = outfile_default_dir(base, "examples/latency.ncptl", t);
	{
		char *want = xasprintf("%s/latency-20240305-140309", base);
		CU_ASSERT_STRING_EQUAL(name, want);
		free(want);
	}
	p1 = outfile_make_run_dir(name, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p1);
	CU_ASSERT_STRING_EQUAL(p1, name);
	p2 = outfile_make_run_dir(name, &err); /* same second: a suffix */
	CU_ASSERT_PTR_NOT_NULL_FATAL(p2);
	{
		char *want = xasprintf("%s-2", name);
		CU_ASSERT_STRING_EQUAL(p2, want);
		free(want);
	}
	free(p1);
	free(p2);
	free(name);
	name = outfile_default_dir(NULL, "prog", t);
	CU_ASSERT_STRING_EQUAL(name, "ncsim-out/prog-20240305-140309");
	free(name);
	free(base);
}

/* ------------------------------------------------------------------ JSON */

/* Runs fn on a writer into memory and returns the text; *rc gets json_finish's result. */
static char *json_capture(void (*fn)(json_writer *), int pretty, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer w;

	json_init(&w, f, pretty);
	fn(&w);
	*rc = json_finish(&w);
	fclose(f);
	return buf;
}

static void doc_basic(json_writer *w)
{
	json_object_begin(w);
	json_key(w, "program");
	json_string(w, "lat\"ency\\\n\t\x01");
	json_key(w, "tasks");
	json_int(w, -64);
	json_key(w, "events");
	json_uint(w, UINT64_MAX);
	json_key(w, "ratio");
	json_double(w, 0.1);
	json_key(w, "nan");
	json_double(w, NAN);
	json_key(w, "ok");
	json_bool(w, 1);
	json_key(w, "none");
	json_string(w, NULL);
	json_key(w, "list");
	json_array_begin(w);
	json_int(w, 1);
	json_array_begin(w);
	json_array_end(w);
	json_object_begin(w);
	json_object_end(w);
	json_null(w);
	json_array_end(w);
	json_object_end(w);
}

static void test_json_compact(void)
{
	int rc;
	char *s = json_capture(doc_basic, 0, &rc);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(s, "{\"program\":\"lat\\\"ency\\\\\\n\\t\\u0001\",\"tasks\":-64,"
	                          "\"events\":18446744073709551615,\"ratio\":0.1,\"nan\":null,\"ok\":true,"
	                          "\"none\":null,\"list\":[1,[],{},null]}\n");
	free(s);
}

static void test_json_pretty(void)
{
	int rc;
	char *s = json_capture(doc_basic, 1, &rc);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(s, "{\n"
	                          "  \"program\": \"lat\\\"ency\\\\\\n\\t\\u0001\",\n"
	                          "  \"tasks\": -64,\n"
	                          "  \"events\": 18446744073709551615,\n"
	                          "  \"ratio\": 0.1,\n"
	                          "  \"nan\": null,\n"
	                          "  \"ok\": true,\n"
	                          "  \"none\": null,\n"
	                          "  \"list\": [\n"
	                          "    1,\n"
	                          "    [],\n"
	                          "    {},\n"
	                          "    null\n"
	                          "  ]\n"
	                          "}\n");
	free(s);
}

static void doc_value_without_key(json_writer *w)
{
	json_object_begin(w);
	json_int(w, 1);
	json_object_end(w);
}
static void doc_key_in_array(json_writer *w)
{
	json_array_begin(w);
	json_key(w, "k");
	json_array_end(w);
}
static void doc_unbalanced(json_writer *w) { json_array_begin(w); }
static void doc_mismatched(json_writer *w)
{
	json_array_begin(w);
	json_object_end(w);
}
static void doc_two_values(json_writer *w)
{
	json_int(w, 1);
	json_int(w, 2);
}
static void doc_too_deep(json_writer *w)
{
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_array_begin(w);
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_array_end(w);
}
static void doc_dangling_key(json_writer *w)
{
	json_object_begin(w);
	json_key(w, "k");
	json_object_end(w);
}
static void doc_empty(json_writer *w) { (void)w; }

static void test_json_misuse(void)
{
	void (*bad[])(json_writer *) = { doc_value_without_key, doc_key_in_array, doc_unbalanced, doc_mismatched,
	                                 doc_two_values, doc_too_deep, doc_dangling_key, doc_empty };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = 0;
		char *s = json_capture(bad[i], 0, &rc);
		CU_ASSERT_EQUAL(rc, -1);
		free(s);
	}
}

static void test_json_doubles(void)
{
	const double vals[] = { 0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 5e-324, 1.7976931348623157e308, 123456789.125,
		                    -0.0, 1e23, 0.30000000000000004, 3.14, 100.0 };
	char buf[32];

	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		double back = strtod(json_format_double(buf, vals[i]), NULL);
		CU_ASSERT_EQUAL(memcmp(&back, &vals[i], sizeof back), 0);
	}
	CU_ASSERT_STRING_EQUAL(json_format_double(buf, 0.1), "0.1");
	CU_ASSERT_STRING_EQUAL(json_format_double(buf, 3.14), "3.14");
	CU_ASSERT_STRING_EQUAL(json_format_double(buf, 100.0), "100");
	CU_ASSERT_STRING_EQUAL(json_format_double(buf, 1.0 / 3.0), "0.3333333333333333");
	CU_ASSERT_STRING_EQUAL(json_format_double(buf, 0.30000000000000004), "0.30000000000000004");
}

/* ------------------------------------------------------------------- CSV */

static void test_csv(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	csv_writer w;
	const char *hdr[] = { "job", "name, with comma", "say \"hi\"", "multi\nline", " padded", "plain" };

	csv_init(&w, f);
	csv_row(&w, hdr, 6);
	csv_int(&w, -3);
	csv_uint(&w, 18446744073709551615ULL);
	csv_double(&w, 0.1);
	csv_double(&w, NAN);
	csv_double(&w, -INFINITY);
	csv_empty(&w);
	csv_str(&w, NULL);
	csv_str_n(&w, "abcdef", 3);
	csv_end_row(&w);
	CU_ASSERT_EQUAL(csv_finish(&w), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "job,\"name, with comma\",\"say \"\"hi\"\"\",\"multi\nline\",\" padded\",plain\n"
	                            "-3,18446744073709551615,0.1,nan,-inf,,,abc\n");
	free(buf);

	/* A row left open is an error. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	csv_init(&w, f);
	csv_str(&w, "x");
	CU_ASSERT_EQUAL(csv_finish(&w), -1);
	fclose(f);
	free(buf);
}

/* The three writers together: a CSV and a JSON file committed into a run folder. */
static void test_together(void)
{
	char *dir = xasprintf("%s/run", ut_dir), *csvp, *jsonp, *err = NULL, *s;
	outfile *f;
	csv_writer c;
	json_writer j;

	CU_ASSERT_EQUAL_FATAL(outfile_mkdir_p(dir, &err), 0);
	csvp = xasprintf("%s/tasks.csv", dir);
	jsonp = xasprintf("%s/summary.json", dir);
	f = outfile_open(csvp, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	csv_init(&c, outfile_stream(f));
	csv_str(&c, "rank");
	csv_str(&c, "time");
	csv_end_row(&c);
	csv_int(&c, 0);
	csv_double(&c, 1.5);
	csv_end_row(&c);
	CU_ASSERT_EQUAL(csv_finish(&c), 0);
	CU_ASSERT_EQUAL(outfile_commit(f, &err), 0);
	f = outfile_open(jsonp, 0, &err);
	json_init(&j, outfile_stream(f), 0);
	json_object_begin(&j);
	json_key(&j, "tasks");
	json_int(&j, 1);
	json_object_end(&j);
	CU_ASSERT_EQUAL(json_finish(&j), 0);
	CU_ASSERT_EQUAL(outfile_commit(f, &err), 0);
	s = ut_slurp(csvp);
	CU_ASSERT_STRING_EQUAL(s, "rank,time\n0,1.5\n");
	free(s);
	s = ut_slurp(jsonp);
	CU_ASSERT_STRING_EQUAL(s, "{\"tasks\":1}\n");
	free(s);
	CU_ASSERT_EQUAL(count_entries(dir), 2);
	free(csvp);
	free(jsonp);
	free(dir);
}

static const ut_test outfile_tests[] = {
	{"commit", test_commit},
	{"abort", test_abort},
	{"devices are written in place", test_device},
	{"crash leaves no file", test_crash},
	{"open errors", test_open_errors},
	{"mkdir -p", test_mkdir_p},
	{"run folders", test_run_dir},
	{"csv and json into a run folder", test_together},
	{NULL, NULL},
};

static const ut_test json_tests[] = {
	{"compact", test_json_compact},
	{"pretty", test_json_pretty},
	{"misuse", test_json_misuse},
	{"doubles round-trip", test_json_doubles},
	{NULL, NULL},
};

static const ut_test csv_tests[] = {
	{"quoting and numbers", test_csv},
	{NULL, NULL},
};

int main(void)
{
	static const ut_suite suites[] = {
		{.name = "outfile", .tests = outfile_tests, .setup = ut_dir_setup, .teardown = ut_dir_teardown},
		{.name = "json", .tests = json_tests},
		{.name = "csv", .tests = csv_tests},
		{0},
	};
	return ut_run_suites(suites);
}

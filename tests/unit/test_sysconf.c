/*
 * test_sysconf.c - system description files and units (base/sysconf.h, base/units.h).
 *
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "base/units.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------------ units */

/* 1 if parse (units_size or units_time) reads s as `want`; else prints why not. */
static int reads_as(int (*parse)(const char *, double, uint64_t *, const char **), double unit, const char *s,
                    uint64_t want)
{
	uint64_t v = 12345;
	const char *why = NULL;
	if (parse(s, unit, &v, &why) == 0 && v == want)
		return 1;
	fprintf(stderr, "'%s': %llu (%s), want %llu\n", s, (unsigned long long)v, why ? why : "no error",
	        (unsigned long long)want);
	return 0;
}

/* 1 if units_bandwidth reads s as `want` bytes/s within tol; else prints why not. */
static int bw_is(const char *s, double want, double tol)
{
	double b = -1;
	const char *why = NULL;
	if (units_bandwidth(s, UNITS_BYTES_PER_S, &b, &why) == 0 && fabs(b - want) <= tol)
		return 1;
	fprintf(stderr, "bandwidth '%s': %.17g (%s), want %.17g\n", s, b, why ? why : "no error", want);
	return 0;
}

static void test_units_sizes(void)
{
	static const struct { const char *text; uint64_t want; } sizes[] = {
		{"0", 0}, {"4096", 4096}, {"7 B", 7}, {"16 KiB", 16384}, {"16KiB", 16384}, {"2 MiB", 2097152},
		{"3 GiB", 3221225472ULL}, {"1 TiB", 1099511627776ULL}, {"1 KB", 1000}, {"1 kB", 1000},
		{"1.5 MB", 1500000}, {"2 GB", 2000000000ULL}, {"1 TB", 1000000000000ULL}, {"1.5 KiB", 1536},
		{"  64 KiB  ", 65536}, {"1e3 B", 1000}, {"+8", 8},
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		CU_ASSERT_TRUE(reads_as(units_size, UNITS_BYTES, sizes[i].text, sizes[i].want));
}

static void test_units_size_errors(void)
{
	uint64_t b = 77;
	const char *why = NULL;

	CU_ASSERT_EQUAL(units_size("", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "empty value");
	CU_ASSERT_EQUAL(units_size("abc", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "not a number");
	CU_ASSERT_EQUAL(units_size("16 XB", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "unknown unit");
	CU_ASSERT_EQUAL(units_size("16 KiB extra", 1, &b, &why), -1);
	CU_ASSERT_EQUAL(units_size("16 Kb", 1, &b, &why), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "bits"));
	CU_ASSERT_EQUAL(units_size("1 GB/s", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "a bandwidth, not a size");
	CU_ASSERT_EQUAL(units_size("-1 KiB", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "negative size");
	CU_ASSERT_EQUAL(units_size("1.3 B", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "not a whole number of bytes");
	CU_ASSERT_EQUAL(units_size("20000000 TiB", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "size too large");
	CU_ASSERT_EQUAL(units_size("inf", 1, &b, &why), -1);
	CU_ASSERT_EQUAL(units_size("nan", 1, &b, &why), -1);
	CU_ASSERT_EQUAL(units_size("0x10", 1, &b, &why), -1);
	CU_ASSERT_EQUAL(units_size("1e999", 1, &b, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "number out of range");
	CU_ASSERT_EQUAL(units_size(".", 1, &b, &why), -1);
	CU_ASSERT_EQUAL(b, 77); /* untouched on error */
}

static void test_units_bandwidths(void)
{
	static const struct { const char *text; double want, tol; } bws[] = {
		{"5.25 GiB/s", 5.25 * 1073741824.0, 1e-3}, {"2 Gbps", 2.5e8, 1e-6}, {"100 Mbps", 12.5e6, 1e-6},
		{"100 Gb/s", 12.5e9, 1e-3}, {"1 B/s", 1.0, 0}, {"1 KB/s", 1e3, 0}, {"1 MB/s", 1e6, 0},
		{"12 GB/s", 12e9, 0}, {"1 KiB/s", 1024.0, 0}, {"1 MiB/s", 1048576.0, 0}, {"8 bps", 1.0, 0}, {"3e9", 3e9, 0},
	};
	for (size_t i = 0; i < sizeof bws / sizeof bws[0]; i++)
		CU_ASSERT_TRUE(bw_is(bws[i].text, bws[i].want, bws[i].tol));
	{
		double v = 0;
		const char *why = NULL;
		CU_ASSERT_EQUAL(units_bandwidth("10", 1e9, &v, &why), 0); /* caller's default: GB/s */
		CU_ASSERT_DOUBLE_EQUAL(v, 1e10, 0);
		CU_ASSERT_EQUAL(units_bandwidth("10 GiB", 1, &v, &why), -1);
		CU_ASSERT_STRING_EQUAL(why, "a size, not a bandwidth");
		CU_ASSERT_EQUAL(units_bandwidth("10 G/s", 1, &v, &why), -1);
		CU_ASSERT_EQUAL(units_bandwidth("-1 GB/s", 1, &v, &why), -1);
		CU_ASSERT_EQUAL(units_bandwidth("10 GB/sec", 1, &v, &why), -1);
	}
}

static void test_units_times(void)
{
	static const struct { const char *text; ncsim_time_t want; } times[] = {
		{"100 ns", 100000}, {"1.5e-3 s", 1500000000ULL}, {"250 ps", 250}, {"2 us", 2000000},
		{"2 \xc2\xb5s", 2000000}, {"3 ms", 3000000000ULL}, {"1 s", 1000000000000ULL}, {"42", 42},
		{"0.4 ps", 0}, {"1.6 ps", 2}, /* rounded to the nearest picosecond */
	};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		CU_ASSERT_TRUE(reads_as(units_time, UNITS_PS, times[i].text, times[i].want));
	{
		ncsim_time_t t = 9;
		const char *why = NULL;
		CU_ASSERT_EQUAL(units_time("42", UNITS_NS, &t, &why), 0);
		CU_ASSERT_EQUAL(t, 42000);
		CU_ASSERT_EQUAL(units_time("5 NS", 1, &t, &why), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "time unit"));
		CU_ASSERT_EQUAL(units_time("5 min", 1, &t, &why), -1);
		CU_ASSERT_EQUAL(units_time("-5 ns", 1, &t, &why), -1);
		CU_ASSERT_STRING_EQUAL(why, "negative time");
		CU_ASSERT_EQUAL(units_time("1e9 s", 1, &t, &why), -1);
		CU_ASSERT_STRING_EQUAL(why, "time too large");
		CU_ASSERT_EQUAL(t, 42000);
	}
}

static void test_units_plain(void)
{
	int64_t i = 0;
	double d = 0;
	const char *why = NULL;

	CU_ASSERT_EQUAL(units_int("-42", &i, &why), 0);
	CU_ASSERT_EQUAL(i, -42);
	CU_ASSERT_EQUAL(units_int("0x1F", &i, &why), 0);
	CU_ASSERT_EQUAL(i, 31);
	CU_ASSERT_EQUAL(units_int(" 9223372036854775807 ", &i, &why), 0);
	CU_ASSERT_EQUAL(i, INT64_MAX);
	CU_ASSERT_EQUAL(units_int("9223372036854775808", &i, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "integer out of range");
	CU_ASSERT_EQUAL(units_int("1.5", &i, &why), -1);
	CU_ASSERT_EQUAL(units_int("12abc", &i, &why), -1);
	CU_ASSERT_EQUAL(units_int("0x", &i, &why), -1);
	CU_ASSERT_EQUAL(units_int("- 3", &i, &why), -1);
	CU_ASSERT_EQUAL(units_int("", &i, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "empty value");
	CU_ASSERT_EQUAL(units_double("2.5e-3", &d, &why), 0);
	CU_ASSERT_DOUBLE_EQUAL(d, 2.5e-3, 0);
	CU_ASSERT_EQUAL(units_double("2.5 x", &d, &why), -1);
	CU_ASSERT_EQUAL(units_double("nan", &d, &why), -1);
}

/* ---------------------------------------------------------------- sysconf_t */

static const char *sample =
	"# ncsim test system\n"
	"name = test machine   # trailing comment\n"
	"\n"
	"[Network]\n"
	"  Model=dragonfly\n"
	"local_bandwidth = 5.25 GiB/s # comment after a value\n"
	"\tlatency\t=\t100 ns\t\n"
	"packet = 4 KiB\n"
	"groups = 9\n"
	"ratio = 0.75\n"
	"adaptive = yes\n"
	"label = \"a # not a comment\"  # but this is\n"
	"empty = \"\"\n"
	"quote = \"say \\\"hi\\\" \\\\ there\"\n"
	"\r\n"
	"[storage]\n"
	"ssd_pages = 64\n"
	"typo_key = 3\n";

static void test_sysconf_values(void)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("sample.conf", sample, &err);
	const char *s = NULL;
	int64_t i = 0;
	double d = 0;
	uint64_t b = 0;
	ncsim_time_t t = 0;
	int yes = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_EQUAL(sysconf_string(c, "", "name", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "test machine");
	CU_ASSERT_TRUE(sysconf_has_section(c, "network"));
	CU_ASSERT_TRUE(sysconf_has_section(c, "NETWORK"));
	CU_ASSERT_TRUE(sysconf_has_section(c, ""));
	CU_ASSERT_FALSE(sysconf_has_section(c, "nonexistent"));
	CU_ASSERT_STRING_EQUAL(sysconf_get(c, "network", "model"), "dragonfly");
	CU_ASSERT_STRING_EQUAL(sysconf_get(c, "NetWork", "MODEL"), "dragonfly");
	CU_ASSERT_EQUAL(sysconf_bandwidth(c, "network", "local_bandwidth", &d, &err), 1);
	CU_ASSERT_DOUBLE_EQUAL(d, 5637144576.0, 1e-3);
	CU_ASSERT_EQUAL(sysconf_time(c, "network", "latency", &t, &err), 1);
	CU_ASSERT_EQUAL(t, 100000);
	CU_ASSERT_EQUAL(sysconf_size(c, "network", "packet", &b, &err), 1);
	CU_ASSERT_EQUAL(b, 4096);
	CU_ASSERT_EQUAL(sysconf_int(c, "network", "groups", &i, &err), 1);
	CU_ASSERT_EQUAL(i, 9);
	CU_ASSERT_EQUAL(sysconf_double(c, "network", "ratio", &d, &err), 1);
	CU_ASSERT_DOUBLE_EQUAL(d, 0.75, 0);
	CU_ASSERT_EQUAL(sysconf_bool(c, "network", "adaptive", &yes, &err), 1);
	CU_ASSERT_EQUAL(yes, 1);
	CU_ASSERT_EQUAL(sysconf_string(c, "network", "label", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "a # not a comment");
	CU_ASSERT_EQUAL(sysconf_string(c, "network", "empty", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "");
	CU_ASSERT_EQUAL(sysconf_string(c, "network", "quote", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "say \"hi\" \\ there");
	CU_ASSERT_EQUAL(sysconf_int(c, "storage", "ssd_pages", &i, &err), 1);
	CU_ASSERT_EQUAL(i, 64);
	CU_ASSERT_STRING_EQUAL(sysconf_where(c, "storage", "ssd_pages"), "sample.conf:17");
	CU_ASSERT_STRING_EQUAL(sysconf_section_name(c, 0), "network");
	CU_ASSERT_STRING_EQUAL(sysconf_section_name(c, 1), "storage");
	CU_ASSERT_PTR_NULL(sysconf_section_name(c, 2));

	/* Absent keys: 0, and the default stays. */
	i = 5;
	CU_ASSERT_EQUAL(sysconf_int(c, "network", "absent", &i, &err), 0);
	CU_ASSERT_EQUAL(i, 5);
	CU_ASSERT_PTR_NULL(sysconf_get(c, "nosuch", "model"));
	CU_ASSERT_PTR_NULL(err);

	/* Only typo_key was never looked up. */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		CU_ASSERT_EQUAL(sysconf_unused(c, mem), 1);
		fclose(mem);
		CU_ASSERT_STRING_EQUAL(buf, "sample.conf:18: unknown key 'typo_key' in [storage]\n");
		free(buf);
		CU_ASSERT_EQUAL(sysconf_unused(c, NULL), 1);
	}
	sysconf_free(c);
}

static void test_sysconf_malformed_values(void)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("m.conf",
	                           "[net]\n"
	                           "bw = 5 parsecs\n"
	                           "size = 12 KiB/s\n"
	                           "lat = 3 hours\n"
	                           "n = 1.5\n"
	                           "x = 2.0.0\n"
	                           "flag = maybe\n",
	                           &err);
	double d = 0;
	uint64_t b = 0;
	ncsim_time_t t = 0;
	int64_t i = 0;
	int f = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sysconf_bandwidth(c, "net", "bw", &d, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:2: [net] bw = '5 parsecs': unknown unit "
	                   "(expected a bandwidth such as 5.25 GiB/s or 100 Gbps)");
	CU_ASSERT_EQUAL(sysconf_size(c, "net", "size", &b, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:3: ...");
	CU_ASSERT_EQUAL(sysconf_time(c, "net", "lat", &t, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:4: ...");
	CU_ASSERT_EQUAL(sysconf_int(c, "net", "n", &i, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:5: [net] n = '1.5': not an integer (expected an integer)");
	CU_ASSERT_EQUAL(sysconf_double(c, "net", "x", &d, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:6: ...");
	CU_ASSERT_EQUAL(sysconf_bool(c, "net", "flag", &f, &err), -1);
	UT_TAKE_ERROR(err, "m.conf:7: ...");
	/* Malformed keys were looked up: none is reported as unknown. */
	CU_ASSERT_EQUAL(sysconf_unused(c, NULL), 0);
	sysconf_free(c);
}

/* Parses text that must fail; checks the message starts with `prefix`. */
static void expect_parse_error(const char *text, const char *prefix)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("bad.conf", text, &err);

	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fprintf(stderr, "\n  got: %s\n  want prefix: %s\n", err, prefix);
	CU_ASSERT_EQUAL(strncmp(err, prefix, strlen(prefix)), 0);
	free(err);
	sysconf_free(c);
}

static void test_sysconf_syntax_errors(void)
{
	expect_parse_error("[net]\na = 1\nA = 2\n", "bad.conf:3: duplicate key 'a' in [net] (first set at line 2)");
	expect_parse_error("[net]\na = 1\n[other]\n[NET]\na = 2\n", "bad.conf:5: duplicate key 'a' in [net]");
	expect_parse_error("x = 1\nx = 1\n", "bad.conf:2: duplicate key 'x'");
	expect_parse_error("[net\n", "bad.conf:1:5: expected ']'");
	expect_parse_error("[]\n", "bad.conf:1:2: expected a section name");
	expect_parse_error("[net] junk\n", "bad.conf:1:7: unexpected text after the section header");
	expect_parse_error("\n\njust words\n", "bad.conf:3:6: expected '=' after key");
	expect_parse_error("= 5\n", "bad.conf:1:1: expected 'key = value' or '[section]'");
	expect_parse_error("key =   # nothing\n", "bad.conf:1:9: missing value");
	expect_parse_error("key = \"open\n", "bad.conf:1:12: unterminated string");
	expect_parse_error("key = \"a\" b\n", "bad.conf:1:11: unexpected text after the closing quote");
	expect_parse_error("k\xc3\xa9y = 1\n", "bad.conf:1:2: expected '=' after key");
}

static void test_sysconf_empty_and_comments(void)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("empty.conf", "", &err);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_FALSE(sysconf_has_section(c, ""));
	CU_ASSERT_EQUAL(sysconf_unused(c, NULL), 0);
	CU_ASSERT_PTR_NULL(sysconf_section_name(c, 0));
	sysconf_free(c);

	c = sysconf_parse("comments.conf", "# only\n   # comments\n\n\t\n[empty]\n# and an empty section", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(sysconf_has_section(c, "empty"));
	CU_ASSERT_FALSE(sysconf_has_section(c, ""));
	CU_ASSERT_EQUAL(sysconf_unused(c, NULL), 0);
	sysconf_free(c);

	/* No final newline, CRLF line ends. */
	c = sysconf_parse("crlf.conf", "[a]\r\nk = v\r\nlast = 3 ns", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(sysconf_get(c, "a", "k"), "v");
	{
		ncsim_time_t t = 0;
		CU_ASSERT_EQUAL(sysconf_time(c, "a", "last", &t, &err), 1);
		CU_ASSERT_EQUAL(t, 3000);
	}
	sysconf_free(c);
	sysconf_free(NULL);
}

static void test_sysconf_files(void)
{
	char path[] = "/tmp/ncsim-test-sysconf-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	char *err = NULL;
	sysconf_t *c;
	uint64_t b = 0;

	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[storage]\nblock = 64 KiB\nbogus = 1\n", f);
	fclose(f);
	c = sysconf_load(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sysconf_size(c, "storage", "block", &b, &err), 1);
	CU_ASSERT_EQUAL(b, 65536);
	{
		char want[256], *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		sysconf_unused(c, mem);
		fclose(mem);
		snprintf(want, sizeof want, "%s:3: unknown key 'bogus' in [storage]\n", path);
		CU_ASSERT_STRING_EQUAL(buf, want);
		free(buf);
	}
	sysconf_free(c);

	/* A NUL byte is reported with its line. */
	f = fopen(path, "wb");
	fwrite("a = 1\nb = \0 2\n", 1, 14, f);
	fclose(f);
	c = sysconf_load(path, &err);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: NUL byte"));
	free(err);
	err = NULL;

	/* Syntax errors in a file name the file. */
	f = fopen(path, "w");
	fputs("ok = 1\n[broken\n", f);
	fclose(f);
	c = sysconf_load(path, &err);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_EQUAL(strncmp(err, path, strlen(path)), 0);
	CU_ASSERT_EQUAL(strncmp(err + strlen(path), ":2:8: ", 6), 0);
	free(err);
	err = NULL;
	remove(path);

	/* Missing file: a clear message, no crash. */
	c = sysconf_load("/nonexistent/dir/system.conf", &err);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_STRING_EQUAL(err, "/nonexistent/dir/system.conf: cannot open system file: No such file or directory");
	free(err);
}

static const ut_test units_tests[] = {
	{"sizes", test_units_sizes},
	{"size errors", test_units_size_errors},
	{"bandwidths", test_units_bandwidths},
	{"times", test_units_times},
	{"plain numbers", test_units_plain},
	{NULL, NULL},
};

static const ut_test sysconf_tests[] = {
	{"values", test_sysconf_values},
	{"malformed values", test_sysconf_malformed_values},
	{"syntax errors", test_sysconf_syntax_errors},
	{"empty files and comments", test_sysconf_empty_and_comments},
	{"files", test_sysconf_files},
	{NULL, NULL},
};

int main(void)
{
	static const ut_suite suites[] = {
		{.name = "units", .tests = units_tests},
		{.name = "sysconf", .tests = sysconf_tests},
		{0},
	};
	return ut_run_suites(suites);
}

/*
 * test_base.c - checked arithmetic (base/checked.h), the limits of the
 * whole-file readers (base/util.h) and unknown system-file keys
 * (base/sysconf.h). Every expected value is worked out by
 * hand in the comment beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/checked.h"
#include "base/memlimit.h"
#include "base/sysconf.h"
#include "base/util.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ checked arithmetic */

static void test_add_mul(void)
{
	uint64_t r = 7;
	CU_ASSERT_EQUAL(ck_add(1, 2, &r), 0);
	CU_ASSERT_EQUAL(r, 3);
	CU_ASSERT_EQUAL(ck_add(UINT64_MAX - 1, 1, &r), 0);
	CU_ASSERT_EQUAL(r, UINT64_MAX);
	CU_ASSERT_EQUAL(ck_add(UINT64_MAX, 1, &r), -1);
	/* 2^32 * 2^32 = 2^64: one past the largest value */
	CU_ASSERT_EQUAL(ck_mul(1ull << 32, 1ull << 32, &r), -1);
	/* 2^32 * (2^32 - 1) = 2^64 - 2^32 fits */
	CU_ASSERT_EQUAL(ck_mul(1ull << 32, (1ull << 32) - 1, &r), 0);
	CU_ASSERT_EQUAL(r, 18446744069414584320ull);
	CU_ASSERT_EQUAL(ck_mul(0, UINT64_MAX, &r), 0);
	CU_ASSERT_EQUAL(r, 0);
}

static void test_saturating(void)
{
	CU_ASSERT_EQUAL(ck_sat_add(40, 2), 42);
	CU_ASSERT_EQUAL(ck_sat_add(UINT64_MAX - 5, 6), CK_OVERFLOW);
	/* once saturated, a sum stays saturated */
	CU_ASSERT_EQUAL(ck_sat_add(CK_OVERFLOW, 0), CK_OVERFLOW);
	CU_ASSERT_EQUAL(ck_sat_mul(1000000, 1000000), 1000000000000ull);
	/* 10^18 bytes * 8 bits = 8e18 fits; * 10 = 8e19 does not (2^64 = 1.8e19) */
	CU_ASSERT_EQUAL(ck_sat_mul(1000000000000000000ull, 8), 8000000000000000000ull);
	CU_ASSERT_EQUAL(ck_sat_mul(8000000000000000000ull, 10), CK_OVERFLOW);
	CU_ASSERT_FALSE(ck_time_ok(CK_OVERFLOW));
	CU_ASSERT_TRUE(ck_time_ok(UINT64_MAX - 1));
}

static void test_div_up(void)
{
	/* 2^44 bytes in 4096-byte packets: exactly 2^32 packets, one more than 32 bits count */
	CU_ASSERT_EQUAL(ck_div_up(1ull << 44, 4096), 1ull << 32);
	CU_ASSERT_EQUAL(ck_div_up((1ull << 44) + 1, 4096), (1ull << 32) + 1);
	CU_ASSERT_EQUAL(ck_div_up(0, 4096), 0);
	/* (a + b - 1) / b would wrap here; the answer is 2^64 / 2^12 = 2^52 */
	CU_ASSERT_EQUAL(ck_div_up(UINT64_MAX, 4096), 1ull << 52);
}

static void test_doubles(void)
{
	CU_ASSERT_EQUAL(ck_ceil_u64(0.0), 0);
	CU_ASSERT_EQUAL(ck_ceil_u64(-5.0), 0);
	CU_ASSERT_EQUAL(ck_ceil_u64(2.0), 2);
	CU_ASSERT_EQUAL(ck_ceil_u64(2.25), 3);
	CU_ASSERT_EQUAL(ck_ceil_u64(18446744073709551616.0), CK_OVERFLOW); /* 2^64 */
	CU_ASSERT_EQUAL(ck_ceil_u64(1e300), CK_OVERFLOW);
	CU_ASSERT_EQUAL(ck_ceil_u64(0.0 / 0.0), CK_OVERFLOW);
	/* the largest double below 2^64 is 2^64 - 2048 */
	CU_ASSERT_EQUAL(ck_ceil_u64(18446744073709549568.0), 18446744073709549568ull);
	CU_ASSERT_EQUAL(ck_round_u64(2.5), 3);
	CU_ASSERT_EQUAL(ck_round_u64(2.49), 2);
	CU_ASSERT_EQUAL(ck_round_u64(-1.0), 0);
	CU_ASSERT_EQUAL(ck_round_u64(1e20), CK_OVERFLOW);
}

static void test_xfer(void)
{
	/* 1000 bytes at 1 GB/s: 1 us = 10^6 ps */
	CU_ASSERT_EQUAL(ck_xfer_ps(1000, 1e9), 1000000);
	/* 1 byte at 3 B/s: 1/3 s = 333333333333.33 ps, rounded up */
	CU_ASSERT_EQUAL(ck_xfer_ps(1, 3.0), 333333333334ull);
	CU_ASSERT_EQUAL(ck_xfer_ps(1000, 0.0), 0);
	/* 2^44 bytes at 1 GB/s: 17592.186044416 s = 17592186044416000 ps */
	CU_ASSERT_EQUAL(ck_xfer_ps(1ull << 44, 1e9), 17592186044416000ull);
	/* 10^18 bytes at 1 GB/s: 10^21 ps, past 2^64 ps */
	CU_ASSERT_EQUAL(ck_xfer_ps(1000000000000000000ull, 1e9), CK_OVERFLOW);
}

/* ------------------------------------------------------------ reader limits */

/* Writes text (n bytes) to ut_dir/name; returns the heap path. */
static char *put(const char *name, const char *text, size_t n)
{
	char *p = xasprintf("%s/%s", ut_dir, name);
	FILE *f = fopen(p, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(text, 1, n, f), n);
	fclose(f);
	return p;
}

/* Asserts that xread_text_max(path, ...) fails with the message `want` ("PATH" stands for path). */
static void refused(const char *path, size_t max_bytes, size_t max_line, const char *want_tail)
{
	char *err = NULL;
	char *t = xread_text_max(path, "test file", max_bytes, max_line, &err);
	CU_ASSERT_PTR_NULL(t);
	free(t);
	char *want = xasprintf("%s%s", path, want_tail);
	UT_TAKE_ERROR(err, want);
	free(want);
}

static void test_regular_only(void)
{
	char *err = NULL;
	refused(ut_dir, 100, 100, ": cannot read test file: is a directory");
	refused("/dev/zero", 100, 100, ": cannot read test file: not a regular file (a device, FIFO or socket)");
	refused("/dev/null", 100, 100, ": cannot read test file: not a regular file (a device, FIFO or socket)");
	/* A FIFO without a writer: refused at once, not waited on. */
	char *fifo = xasprintf("%s/fifo", ut_dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	refused(fifo, 100, 100, ": cannot read test file: not a regular file (a device, FIFO or socket)");
	size_t len = 0;
	int opened = -1;
	CU_ASSERT_PTR_NULL(xread_file(fifo, &len, &opened));
	CU_ASSERT_EQUAL(errno, ENODEV);
	CU_ASSERT_EQUAL(opened, 1);
	unlink(fifo);
	free(fifo);
	CU_ASSERT_PTR_NULL(xread_file(ut_dir, &len, NULL));
	CU_ASSERT_EQUAL(errno, EISDIR);
	refused("/nonexistent/x", 100, 100, ": cannot open test file: No such file or directory");
	CU_ASSERT_PTR_NULL(err);
}

static void test_size_limits(void)
{
	char *p = put("ten.txt", "123456789\n", 10);
	char *err = NULL;
	/* exactly at the limit: read */
	char *t = xread_text_max(p, "test file", 10, 100, &err);
	CU_ASSERT_PTR_NOT_NULL(t);
	CU_ASSERT_STRING_EQUAL(t ? t : "", "123456789\n");
	free(t);
	refused(p, 9, 100, ": cannot read test file: larger than 9 bytes (the limit of an input file)");
	free(p);
}

static void test_line_limits(void)
{
	/* lines of 3, 5 and 2 bytes: a limit of 5 passes, 4 stops at line 2 */
	char *p = put("lines.txt", "abc\nabcde\nab", 12);
	char *err = NULL;
	char *t = xread_text_max(p, "test file", 100, 5, &err);
	CU_ASSERT_PTR_NOT_NULL(t);
	free(t);
	refused(p, 100, 4, ":2: line longer than 4 bytes in test file (the limit of a line)");
	/* the last line, without its '\n', counts too */
	refused(p, 100, 1, ":1: line longer than 1 bytes in test file (the limit of a line)");
	free(p);
	/* 2 KiB on one line, limit 1 KiB: the limit is shown in KiB */
	char big[2048];
	memset(big, 'x', sizeof big);
	p = put("long.txt", big, sizeof big);
	refused(p, 1 << 20, 1024, ":1: line longer than 1 KiB in test file (the limit of a line)");
	free(p);
	/* a NUL byte on line 2 */
	p = put("nul.txt", "a\nb\0c\n", 6);
	refused(p, 100, 100, ":2: NUL byte in test file (is it a text file?)");
	free(p);
	CU_ASSERT_PTR_NULL(err);
}

static void test_stream_limit(void)
{
	/* xread_stream keeps XREAD_MAX_BYTES: a stream under it is read whole */
	FILE *f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("hello", f);
	rewind(f);
	size_t len = 0;
	char *t = xread_stream(f, &len);
	CU_ASSERT_EQUAL(len, 5);
	CU_ASSERT_STRING_EQUAL(t ? t : "", "hello");
	free(t);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(xread_strerror(EISDIR), "is a directory");
	CU_ASSERT_STRING_EQUAL(xread_strerror(ENOENT), strerror(ENOENT));
}

/* ------------------------------------------------------------ unknown system keys */

/* Parses text as k.conf, looks up the keys of `asked` ("section.key", NULL-terminated), then checks the rest. */
static char *unknown_after(const char *text, const char *const *asked)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("k.conf", text, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (const char *const *a = asked; *a; a++) {
		const char *dot = strchr(*a, '.');
		char *sec = xstrndup(*a, (size_t)(dot - *a));
		(void)sysconf_get(c, sec, dot + 1);
		free(sec);
	}
	if (sysconf_check_unused(c, &err) == 0)
		CU_ASSERT_PTR_NULL(err);
	sysconf_free(c);
	return err;
}

static void test_unknown_keys(void)
{
	static const char *const net[] = {"network.model", "network.latency", "network.bandwidth",
	                                  "node.memory_bandwidth", NULL};
	/* every key asked for: no error */
	char *err = unknown_after("[network]\nmodel = analytic\nlatency = 1 us\n", net);
	CU_ASSERT_PTR_NULL(err);
	/* one letter missing: 'latency' is one edit away */
	err = unknown_after("[network]\nmodel = analytic\nlatncy = 1 us\n", net);
	UT_TAKE_ERROR(err, "k.conf:3: unknown key 'latncy' in [network]; did you mean 'latency'?");
	/* the key of another section */
	err = unknown_after("[network]\nmemory_bandwidth = 1 GB/s\n", net);
	UT_TAKE_ERROR(err, "k.conf:2: unknown key 'memory_bandwidth' in [network]; did you mean [node] memory_bandwidth?");
	/* nothing near: no suggestion; two unknown keys: the first, and how many more */
	err = unknown_after("[network]\nzzz = 1\n[other]\nmodel = x\n", net);
	UT_TAKE_ERROR(err, "k.conf:2: unknown key 'zzz' in [network] (and 1 more unknown key)");
	/* outside any section */
	err = unknown_after("latency = 1 us\n", net);
	UT_TAKE_ERROR(err, "k.conf:1: unknown key 'latency' outside any section; did you mean [network] latency?");
	/* a section header is located too */
	sysconf_t *c = sysconf_parse("k.conf", "\n[ssd.fast]\n[network]\n[SSD.fast]\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(sysconf_section_where(c, "ssd.fast"), "k.conf:2");
	CU_ASSERT_STRING_EQUAL(sysconf_section_where(c, "nosuch"), "k.conf");
	sysconf_free(c);
}

/* The limit: the host's by default, --max-memory's when set, and a message with both sizes. */
static void test_mem_limit(void)
{
	uint64_t host = mem_limit();
	CU_ASSERT(host >= (uint64_t)1 << 20);
	char *err = NULL;
	CU_ASSERT_EQUAL(mem_limit_check(host, "f.conf:3", "x", &err), 0);
	CU_ASSERT_PTR_NULL(err);
	mem_limit_set(1000000);
	CU_ASSERT_EQUAL(mem_limit(), 1000000);
	CU_ASSERT_EQUAL(mem_limit_check(1000000, NULL, "x", &err), 0);
	CU_ASSERT_EQUAL(mem_limit_check(2500000, "f.conf:3", "the ideal network of 9 nodes", &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "f.conf:3: the ideal network of 9 nodes would need about 2.5 MB, more than the memory "
	                            "limit of 1 MB (set by --max-memory; --max-memory SIZE changes it)");
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(mem_limit_check(UINT64_MAX, NULL, "x", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "x would need about 18.4 EB") == err ? err : NULL);
	free(err);
	mem_limit_set(0);
	CU_ASSERT_EQUAL(mem_limit(), host);
}

static const ut_test sysconf_tests[] = {
	{"unknown keys", test_unknown_keys},
	{NULL, NULL},
};

static const ut_test checked_tests[] = {
	{"add and multiply", test_add_mul},
	{"saturating", test_saturating},
	{"division rounded up", test_div_up},
	{"doubles to integers", test_doubles},
	{"transfer times", test_xfer},
	{NULL, NULL},
};

static const ut_test reader_tests[] = {
	{"regular files only", test_regular_only},
	{"file size limit", test_size_limits},
	{"line length limit", test_line_limits},
	{"streams", test_stream_limit},
	{"memory limit", test_mem_limit},
	{NULL, NULL},
};

int main(void)
{
	static const ut_suite suites[] = {
		{.name = "checked arithmetic", .tests = checked_tests},
		{.name = "reader limits", .tests = reader_tests, .setup = ut_dir_setup, .teardown = ut_dir_teardown},
		{.name = "unknown system keys", .tests = sysconf_tests},
		{0},
	};
	return ut_run_suites(suites);
}

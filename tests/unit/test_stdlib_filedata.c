/*
 * test_stdlib_filedata.c - FILE_DATA / STATIC_FILE_DATA (LANGUAGE.md §5.7)
 * on files written to a fresh temporary directory.
 */
#include "config.h"

#include <unistd.h>

#include "stdlib_test.h"

static char dir[256];
static ncsim_filecache *cache;

/* Path of `name` inside the test directory (static buffer, one at a time per slot). */
static const char *path(const char *name, int slot)
{
	static char buf[4][512];

	snprintf(buf[slot], sizeof buf[slot], "%s/%s", dir, name);
	return buf[slot];
}

static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(path(name, 3), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

#define FD_I(file, col, row) ncsim_file_data_i(cache, path(file, 0), col, row, " \t", "\n", E)

static void test_cells(void)
{
	write_file("t1", "1 2 3\n4\t5  6\n0x1f 010 -7\n\nlast 3.5e2 x\n");
	EXPECT_I(FD_I("t1", 1, 1), 1);
	EXPECT_I(FD_I("t1", 3, 1), 3);
	EXPECT_I(FD_I("t1", 2, 2), 5);
	EXPECT_I(FD_I("t1", 3, 2), 6);
	EXPECT_I(FD_I("t1", 1, 3), 31); /* 0x prefix: hexadecimal */
	EXPECT_I(FD_I("t1", 2, 3), 8);  /* leading 0: octal */
	EXPECT_I(FD_I("t1", 3, 3), -7);
	EXPECT_I(FD_I("t1", -1, -1), 0); /* "x": not a number */
	EXPECT_I(FD_I("t1", 2, -1), 3);  /* strtoll stops at '.' */
	EXPECT_F(ncsim_file_data_f(cache, path("t1", 0), 2, -1, " \t", "\n", E), 350.0, 0.0);
	EXPECT_F(ncsim_file_data_f(cache, path("t1", 0), 2.7, 2.2, " \t", "\n", E), 5.0, 0.0);
	EXPECT_I(FD_I("t1", -1, 2), 6);
	EXPECT_I(FD_I("t1", -3, 2), 4);
	/* An empty line is one field ("\n"), as with fgets + strtok. */
	EXPECT_I(FD_I("t1", 1, 4), 0);
	EXPECT_I(FD_I("t1", 1, -2), 0);
	EXPECT_I(FD_I("t1", 1, -5), 1);
}

static void test_errors(void)
{
	char want[600];

	write_file("t2", "1 2\n3 4\n");
	EXPECT_ERR(FD_I("t2", 0, 1), "FILE_DATA column numbers must be nonzero");
	EXPECT_ERR(FD_I("t2", 1, 0), "FILE_DATA row numbers must be nonzero");
	EXPECT_ERR(ncsim_file_data_i(cache, path("t2", 0), 1, 1, " ", ";", E),
	           "FILE_DATA row separators other than \"\\n\" are not yet implemented");
	snprintf(want, sizeof want, "Failed to read row 3 from \"%s\"", path("t2", 1));
	EXPECT_ERR(FD_I("t2", 1, 3), want);
	snprintf(want, sizeof want, "Failed to read row 3 from the end of \"%s\"", path("t2", 1));
	EXPECT_ERR(FD_I("t2", 1, -3), want);
	snprintf(want, sizeof want, "Failed to read column 3 from row 2 of \"%s\"", path("t2", 1));
	EXPECT_ERR(FD_I("t2", 3, 2), want);
	snprintf(want, sizeof want, "Failed to read column 3 from the end of row -1 of \"%s\"", path("t2", 1));
	EXPECT_ERR(FD_I("t2", -3, -1), want);
	/* The most negative index is reported without overflowing its negation. */
	snprintf(want, sizeof want, "Failed to read column 9223372036854775808 from the end of row 1 of \"%s\"",
	         path("t2", 1));
	EXPECT_ERR(FD_I("t2", INT64_MIN, 1), want);
	snprintf(want, sizeof want, "Failed to read row 9223372036854775808 from the end of \"%s\"", path("t2", 1));
	EXPECT_ERR(FD_I("t2", 1, INT64_MIN), want);
	snprintf(want, sizeof want, "Failed to open file \"%s\" (No such file or directory)", path("nope", 1));
	EXPECT_ERR(FD_I("nope", 1, 1), want);
	write_file("empty", "");
	EXPECT_ERR(FD_I("empty", 1, 1), "Failed to read row 1 from");
	EXPECT_ERR(ncsim_file_data_f(cache, path("t2", 0), NAN, 1, " ", "\n", E), "numeric operation");
}

static void test_separators_and_shapes(void)
{
	char big[300];

	write_file("csv", "10,20,,30\n");
	EXPECT_I(ncsim_file_data_i(cache, path("csv", 0), 3, 1, ",", "\n", E), 30); /* runs of separators */
	EXPECT_I(ncsim_file_data_i(cache, path("csv", 0), -1, 1, ",", "\n", E), 30);
	EXPECT_I(ncsim_file_data_i(cache, path("csv", 0), 1, 1, " ", "\n", E), 10); /* "10,20,,30\n" -> 10 */
	write_file("nonl", "7 8");
	EXPECT_I(FD_I("nonl", 2, 1), 8);
	EXPECT_I(FD_I("nonl", 2, -1), 8);
	EXPECT_ERR(FD_I("nonl", 1, 2), "Failed to read row 2");
	/* A cell longer than the on-stack buffer: 0...042 in octal is 34. */
	memset(big, '0', 250);
	strcpy(big + 250, "42 5\n");
	write_file("big", big);
	EXPECT_I(FD_I("big", 1, 1), 34);
	EXPECT_I(FD_I("big", 2, 1), 5);
	/* A separator that is also a digit of the token is honoured (copied cell). */
	write_file("x", "0x1fx5\n");
	EXPECT_I(ncsim_file_data_i(cache, path("x", 0), 1, 1, "x", "\n", E), 0);
	EXPECT_I(ncsim_file_data_i(cache, path("x", 0), 2, 1, "x", "\n", E), 1);
}

static void test_cache(void)
{
	ncsim_filecache *fresh;

	write_file("c", "1\n");
	EXPECT_I(FD_I("c", 1, 1), 1);
	/* Rewritten after the first read: the cache still holds the old contents. */
	write_file("c", "2\n");
	EXPECT_I(FD_I("c", 1, 1), 1);
	fresh = ncsim_filecache_new();
	EXPECT_I(ncsim_file_data_i(fresh, path("c", 0), 1, 1, " \t", "\n", E), 2);
	ncsim_filecache_free(fresh);
	ncsim_filecache_free(NULL);
	/* A failed open is not cached. */
	EXPECT_ERR(FD_I("later", 1, 1), "Failed to open file");
	write_file("later", "9\n");
	EXPECT_I(FD_I("later", 1, 1), 9);
}

int main(void)
{
	static const ut_test tests[] = {
		{ "cells", test_cells },
		{ "errors", test_errors },
		{ "separators and shapes", test_separators_and_shapes },
		{ "cache", test_cache },
		{ NULL, NULL },
	};
	const char *tmp = getenv("TMPDIR");
	int status;

	snprintf(dir, sizeof dir, "%s/ncsim-filedata-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	cache = ncsim_filecache_new();
	status = ut_run("stdlib file data", tests);
	ncsim_filecache_free(cache);
	/* Remove what the tests wrote. */
	{
		static const char *const names[] = { "t1", "t2", "empty", "csv", "nonl", "big", "x", "c", "later" };

		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			unlink(path(names[i], 0));
		rmdir(dir);
	}
	return status;
}

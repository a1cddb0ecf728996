/*
 * unit.c - the shared CUnit runner and helpers of the unit suites (see unit.h).
 */
#define _GNU_SOURCE 1 /* mkdtemp */
#include "tests/unit/unit.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "runtime/stats/ncptl_log.h"

int ut_run_suites(const ut_suite *suites)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (; suites->name; suites++) {
		CU_pSuite s = CU_add_suite(suites->name, suites->setup, suites->teardown);
		if (!s)
			goto fail;
		for (const ut_test *t = suites->tests; t->name; t++)
			if (!CU_add_test(s, t->name, t->fn))
				goto fail;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (CU_basic_run_tests() != CUE_SUCCESS)
		goto fail;
	/* A suite whose setup failed ran none of its tests: that is a failure too. */
	unsigned bad = CU_get_number_of_failures() + CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return bad ? 1 : 0;
fail:
	fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
	CU_cleanup_registry();
	return 2;
}

int ut_run(const char *suite, const ut_test *tests) { return ut_run_fixture(suite, tests, NULL, NULL); }

int ut_run_fixture(const char *suite, const ut_test *tests, CU_InitializeFunc setup, CU_CleanupFunc teardown)
{
	const ut_suite one[] = {{.name = suite, .tests = tests, .setup = setup, .teardown = teardown}, {0}};
	return ut_run_suites(one);
}

int ut_error_is(const char *err, const char *want, const char *file, int line)
{
	size_t n = strlen(want);
	int prefix = n >= 3 && !strcmp(want + n - 3, "...");
	if (err && (prefix ? !strncmp(err, want, n - 3) : !strcmp(err, want)))
		return 1;
	fprintf(stderr, "%s:%d: error \"%s\", want \"%s\"\n", file, line, err ? err : "(none)", want);
	return 0;
}

int ut_missing(const char *text, const char *const *parts)
{
	int n = 0;
	for (; *parts; parts++)
		if (!text || !strstr(text, *parts)) {
			fprintf(stderr, "missing: \"%s\"\n", *parts);
			n++;
		}
	return n;
}

uint64_t ut_xfer_ps(uint64_t bytes, uint64_t bytes_per_s)
{
	unsigned __int128 num = (unsigned __int128)bytes * 1000000000000u;
	return (uint64_t)((num + bytes_per_s - 1) / bytes_per_s);
}

char *ut_slurp(const char *path)
{
	char *err = NULL, *text = xread_text(path, "file", &err);
	free(err);
	return text;
}

#define UT_TMP_PREFIX "/tmp/ncsim-test-"

char *ut_tmpdir(void)
{
	char *d = xstrdup(UT_TMP_PREFIX "XXXXXX");
	if (!mkdtemp(d)) {
		free(d);
		return NULL;
	}
	return d;
}

void ut_rmrf(const char *dir)
{
	if (!dir || strncmp(dir, UT_TMP_PREFIX, strlen(UT_TMP_PREFIX)) != 0 || strchr(dir, '\''))
		return; /* only what ut_tmpdir made */
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "ut_rmrf: cannot remove %s\n", dir);
	free(cmd);
}

char *ut_dir;

int ut_dir_setup(void)
{
	ut_dir = ut_tmpdir();
	return ut_dir ? 0 : -1;
}

int ut_dir_teardown(void)
{
	ut_rmrf(ut_dir);
	free(ut_dir);
	ut_dir = NULL;
	return 0;
}

const char *ut_srcdir(void)
{
	const char *s = getenv("NCSIM_SRCDIR");
	return s && *s ? s : NCSIM_SRCDIR;
}

char *ut_src_path(const char *rel) { return xasprintf("%s/%s", ut_srcdir(), rel); }

const char ut_verified_tables[] =
	"\"i\",\"i\",\"pct\",\"h\",\"h\",\"s\",\"s\",\"Pi\"\n"
	"\"(all data)\",\"(mean)\",\"(21th percentile)\",\"(hist. values)\",\"(hist. tallies)\",\"(sum)\","
	"\"(maximum)\",\"(all data)\"\n"
	"1,3,1.84,0.5,1,150,50,3.14\n"
	"2,,,1,1,,,\n"
	"3,,,1.5,1,,,\n"
	"4,,,2,1,,,\n"
	"5,,,2.5,1,,,\n"
	"\n"
	"\"j\",\"med\",\"fin\"\n"
	"\"(only value)\",\"(median)\",\"(final)\"\n"
	"1,2,3\n"
	"2,4,3\n";

char *ut_log_tables(const char *log)
{
	static const char sep[] = NLOG_SEPARATOR "\n";
	const char *a = log ? strstr(log, sep) : NULL; /* the prologue starts */
	a = a ? strstr(a + strlen(sep), sep) : NULL;   /* and ends */
	if (!a)
		return NULL;
	a += strlen(sep);
	const char *b = strstr(a, sep); /* the epilogue starts */
	return b ? xstrndup(a, (size_t)(b - a)) : NULL;
}

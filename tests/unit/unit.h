/*
 * unit.h - what every CUnit suite of ncsim shares (tests/unit/libunit.la):
 * one table-driven runner, so that a test file only lists its tests, and the
 * helpers several suites need (files, scratch folders, the source tree, and
 * exact serialization times for expectations written by hand).
 */
#ifndef NCSIM_TESTS_UNIT_H
#define NCSIM_TESTS_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

/* One test: its name in the report and its function. A table ends with {NULL, NULL}. */
typedef struct ut_test {
	const char *name;
	CU_TestFunc fn;
} ut_test;

/* One suite: its tests and an optional setup and teardown run around them (each returns 0 on success). */
typedef struct ut_suite {
	const char *name;
	const ut_test *tests;
	CU_InitializeFunc setup;
	CU_CleanupFunc teardown;
} ut_suite;

/* Runs the suites (a table ending with a NULL name): 0 if every test passed, 1 if not, 2 if CUnit failed. */
int ut_run_suites(const ut_suite *suites);
/* ut_run_suites for a single suite without setup or teardown. */
int ut_run(const char *suite, const ut_test *tests);
/* ut_run_suites for a single suite with a setup and a teardown. */
int ut_run_fixture(const char *suite, const ut_test *tests, CU_InitializeFunc setup, CU_CleanupFunc teardown);

/*
 * The time in ps to move `bytes` at `bytes_per_s`, rounded up to a whole
 * picosecond: ceil(bytes * 10^12 / bytes_per_s), in integer arithmetic, so
 * that an expectation never borrows the simulator's own helper.
 */
uint64_t ut_xfer_ps(uint64_t bytes, uint64_t bytes_per_s);

/* The whole text file at path as a heap string; NULL if it cannot be read or holds a NUL byte. */
char *ut_slurp(const char *path);
/* A fresh empty folder /tmp/ncsim-test-XXXXXX (heap path), or NULL. */
char *ut_tmpdir(void);
/* Removes a folder ut_tmpdir made, with everything in it; any other path (or NULL) is left alone. */
void ut_rmrf(const char *dir);

/* The scratch folder of a suite that uses ut_dir_setup / ut_dir_teardown as its setup and teardown. */
extern char *ut_dir;
int ut_dir_setup(void);
int ut_dir_teardown(void);

/* The source tree: $NCSIM_SRCDIR, else the one the build was configured in. */
const char *ut_srcdir(void);
/* ut_srcdir()/rel (heap). */
char *ut_src_path(const char *rel);

/* The data tables of a coNCePTuaL log: the text between the prologue and the epilogue (heap), or NULL. */
char *ut_log_tables(const char *log);
/* The data tables of LANGUAGE.md 10.3's verified example, byte for byte. */
extern const char ut_verified_tables[];

/*
 * 1 if error message err is `want` (or starts with it when want ends in
 * "..."); otherwise prints both with file:line and returns 0.
 */
int ut_error_is(const char *err, const char *want, const char *file, int line);
/* Asserts that heap message `err` is `want` (see ut_error_is), then frees it and sets it to NULL. */
#define UT_TAKE_ERROR(err, want)                                           \
	do {                                                                   \
		CU_ASSERT_TRUE(ut_error_is((err), (want), __FILE__, __LINE__)); \
		free(err);                                                         \
		(err) = NULL;                                                      \
	} while (0)

/* The number of strings of the NULL-terminated list `parts` that text lacks (NULL text lacks all); prints them. */
int ut_missing(const char *text, const char *const *parts);

/* Asserts that text `got` (NULL fails) equals `want`, printing both when it does not. */
#define UT_ASSERT_TEXT(got, want)                                                                    \
	do {                                                                                             \
		const char *g_ = (got), *w_ = (want);                                                        \
		if (!g_ || strcmp(g_, w_))                                                                   \
			fprintf(stderr, "%s:%d: got:\n%s---\nwant:\n%s---\n", __FILE__, __LINE__, g_ ? g_ : "(null)", \
			        w_);                                                                             \
		CU_ASSERT_STRING_EQUAL(g_ ? g_ : "(null)", w_);                                              \
	} while (0)

#endif

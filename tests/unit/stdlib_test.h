/*
 * stdlib_test.h - small helpers shared by the CUnit suites of ncsim/stdlib.h.
 *
 * EXPECT_I / EXPECT_F evaluate a call that uses `E` as its error slot and
 * check both the value and that no error was recorded; EXPECT_ERR checks that
 * the call fails with a message containing a given text. Mismatches print
 * the expression and both values before the CUnit assertion fails.
 */
#ifndef NCSIM_TESTS_STDLIB_TEST_H
#define NCSIM_TESTS_STDLIB_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "ncsim/stdlib.h"
#include "tests/unit/unit.h"

#define E (&e_)

#define EXPECT_I(call, want)                                                             \
	do {                                                                                 \
		ncsim_err e_ = NCSIM_ERR_INIT;                                                   \
		int64_t got_ = (call), want_ = (want);                                           \
		if (got_ != want_ || e_.failed)                                                  \
			fprintf(stderr, "%s:%d: %s = %" PRId64 " (error: %s), want %" PRId64 "\n",   \
			        __FILE__, __LINE__, #call, got_, e_.failed ? e_.msg : "none", want_); \
		CU_ASSERT_FALSE(e_.failed);                                                      \
		CU_ASSERT_EQUAL(got_, want_);                                                    \
	} while (0)

#define EXPECT_F(call, want, tol)                                                        \
	do {                                                                                 \
		ncsim_err e_ = NCSIM_ERR_INIT;                                                   \
		double got_ = (call), want_ = (want);                                            \
		int ok_ = fabs(got_ - want_) <= (tol) && !e_.failed;                             \
		if (!ok_)                                                                        \
			fprintf(stderr, "%s:%d: %s = %.17g (error: %s), want %.17g\n", __FILE__,     \
			        __LINE__, #call, got_, e_.failed ? e_.msg : "none", want_);          \
		CU_ASSERT_TRUE(ok_);                                                             \
	} while (0)

#define EXPECT_ERR(call, text)                                                           \
	do {                                                                                 \
		ncsim_err e_ = NCSIM_ERR_INIT;                                                   \
		(void)(call);                                                                    \
		int ok_ = e_.failed && strstr(e_.msg, (text)) != NULL;                           \
		if (!ok_)                                                                        \
			fprintf(stderr, "%s:%d: %s: error \"%s\", want one containing \"%s\"\n",     \
			        __FILE__, __LINE__, #call, e_.failed ? e_.msg : "(none)", (text));   \
		CU_ASSERT_TRUE(ok_);                                                             \
	} while (0)

#endif

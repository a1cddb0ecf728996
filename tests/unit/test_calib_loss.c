/*
 * test_calib_loss.c - the losses of calib/loss.h: each one on points whose
 * errors are round numbers, the fallback to the absolute error where the
 * measured value is 0, non-finite values, and the parsing of loss names.
 * Every expected value is worked out by hand in the comment beside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib/loss.h"
#include "tests/unit/unit.h"

/*
 * Three points: sim 110, 90, 200 against meas 100, 100, 250.
 * Errors s - m: +10, -10, -50. Relative errors: +0.1, -0.1, -0.2.
 */
static const double sim3[] = {110, 90, 200};
static const double meas3[] = {100, 100, 250};

/* The loss named `name` of sim3 against meas3. */
static double eval3(const char *name)
{
	cal_loss l;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(cal_loss_parse(name, &l, &err), 0);
	CU_ASSERT_PTR_NULL(err);
	return cal_loss_eval(&l, sim3, meas3, 3);
}

#define NEAR(got, want) CU_ASSERT_DOUBLE_EQUAL((got), (want), 1e-9 * fabs((double)(want)) + 1e-15)

static void test_absolute(void)
{
	/* mae: (10 + 10 + 50) / 3 = 70 / 3 */
	NEAR(eval3("mae"), 70.0 / 3);
	/* mse: (100 + 100 + 2500) / 3 = 900 */
	NEAR(eval3("mse"), 900);
	/* rmse: sqrt(900) = 30 */
	NEAR(eval3("rmse"), 30);
}

static void test_relative(void)
{
	/* rmsre: sqrt((0.01 + 0.01 + 0.04) / 3) = sqrt(0.02) = 0.1414213562 */
	NEAR(eval3("rmsre"), 0.14142135623730950);
	/* rmspe: 100 x rmsre */
	NEAR(eval3("rmspe"), 14.142135623730950);
	/* mape: 100 x (0.1 + 0.1 + 0.2) / 3 = 40 / 3 */
	NEAR(eval3("mape"), 40.0 / 3);
	/* maxrel: the largest |r| is 0.2 */
	NEAR(eval3("maxrel"), 0.2);
	/* logratio: (|ln 1.1| + |ln 0.9| + |ln 0.8|) / 3
	 *         = (0.0953101798 + 0.1053605157 + 0.2231435513) / 3 = 0.4238142468 / 3 */
	NEAR(eval3("logratio"), 0.14127141560);
}

static void test_huber(void)
{
	/* delta 0.15: |0.1| <= 0.15 gives 0.1^2 / 2 = 0.005 (twice); |0.2| > 0.15 gives
	 * 0.15 x (0.2 - 0.075) = 0.01875; mean (0.005 + 0.005 + 0.01875) / 3 = 0.02875 / 3 */
	NEAR(eval3("huber(0.15)"), 0.02875 / 3);
	/* the default delta 0.1: r = 0.05 gives 0.05^2 / 2 = 0.00125; r = 0.3 gives
	 * 0.1 x (0.3 - 0.05) = 0.025; mean 0.02625 / 2 = 0.013125 */
	cal_loss l;
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_loss_parse("huber", &l, &err), 0);
	CU_ASSERT_EQUAL(l.delta, 0.1);
	const double s[] = {105, 130}, m[] = {100, 100};
	NEAR(cal_loss_eval(&l, s, m, 2), 0.013125);
	/* a negative relative error counts as its absolute value: r = -0.3 gives 0.025 too */
	const double s2[] = {70};
	NEAR(cal_loss_eval(&l, s2, m, 1), 0.025);
}

/* Points measured at 0 count with the absolute error in the relative losses. */
static void test_zero_measure(void)
{
	const double s[] = {3, 110}, m[] = {0, 100};
	cal_loss l;
	char *err = NULL;
	/* mape: 100 x (|3 - 0| + 0.1) / 2 = 100 x 1.55 = 155 */
	CU_ASSERT_EQUAL(cal_loss_parse("mape", &l, &err), 0);
	NEAR(cal_loss_eval(&l, s, m, 2), 155);
	/* maxrel: max(3, 0.1) = 3 */
	CU_ASSERT_EQUAL(cal_loss_parse("maxrel", &l, &err), 0);
	NEAR(cal_loss_eval(&l, s, m, 2), 3);
	/* rmsre: sqrt((9 + 0.01) / 2) = sqrt(4.505) = 2.1224985277 */
	CU_ASSERT_EQUAL(cal_loss_parse("rmsre", &l, &err), 0);
	NEAR(cal_loss_eval(&l, s, m, 2), 2.12249852767);
	/* huber(1): |3| > 1 gives 1 x (3 - 0.5) = 2.5; 0.1 gives 0.005; mean 2.505 / 2 */
	CU_ASSERT_EQUAL(cal_loss_parse("huber(1)", &l, &err), 0);
	NEAR(cal_loss_eval(&l, s, m, 2), 1.2525);
	/* logratio: ln(3 / 0) is undefined, so +inf */
	CU_ASSERT_EQUAL(cal_loss_parse("logratio", &l, &err), 0);
	CU_ASSERT_TRUE(isinf(cal_loss_eval(&l, s, m, 2)));
	/* ... and so is a non-positive simulated value */
	const double neg[] = {-1, 110}, pos[] = {100, 100};
	CU_ASSERT_TRUE(isinf(cal_loss_eval(&l, neg, pos, 2)));
	const double zero[] = {0, 110};
	CU_ASSERT_TRUE(isinf(cal_loss_eval(&l, zero, pos, 2)));
}

/* A simulation that produced NaN or inf is infinitely far, whatever the loss. */
static void test_nonfinite(void)
{
	static const char *const names[] = {"mae", "mse", "rmse", "rmsre", "rmspe", "mape",
	                                    "huber", "maxrel", "logratio", NULL};
	const double m[] = {100, 100};
	const double bad[][2] = {{NAN, 100}, {100, INFINITY}, {-INFINITY, 100}};
	for (size_t i = 0; names[i]; i++) {
		cal_loss l;
		char *err = NULL;
		CU_ASSERT_EQUAL_FATAL(cal_loss_parse(names[i], &l, &err), 0);
		for (size_t k = 0; k < 3; k++) {
			double v = cal_loss_eval(&l, bad[k], m, 2);
			CU_ASSERT_TRUE(isinf(v) && v > 0);
		}
		/* and a perfect simulation scores 0 */
		CU_ASSERT_EQUAL(cal_loss_eval(&l, m, m, 2), 0);
	}
}

static void test_parse(void)
{
	cal_loss l;
	char *err = NULL;
	/* names are case-insensitive */
	CU_ASSERT_EQUAL(cal_loss_parse("RMSPE", &l, &err), 0);
	CU_ASSERT_EQUAL(l.kind, CAL_LOSS_RMSPE);
	CU_ASSERT_EQUAL(cal_loss_parse("LogRatio", &l, &err), 0);
	CU_ASSERT_EQUAL(l.kind, CAL_LOSS_LOGRATIO);
	CU_ASSERT_EQUAL(cal_loss_parse("Huber(0.05)", &l, &err), 0);
	CU_ASSERT_EQUAL(l.kind, CAL_LOSS_HUBER);
	CU_ASSERT_EQUAL(l.delta, 0.05);
	/* blanks inside the parentheses are allowed */
	CU_ASSERT_EQUAL(cal_loss_parse("huber( 2 )", &l, &err), 0);
	CU_ASSERT_EQUAL(l.delta, 2);
	CU_ASSERT_PTR_NULL(err);

	static const char list[] = "the losses are mae, mse, rmse, rmsre, rmspe, mape, huber, huber(DELTA) with "
	                           "DELTA > 0, maxrel and logratio";
	char want[256];
	static const char *const unknown[] = {"rms", "rmsex", "", "huber(", "huber()", "huber(0.1",
	                                      "huber(0.1)x", "huber(x)", "huber 0.1", "mae2", NULL};
	for (size_t i = 0; unknown[i]; i++) {
		CU_ASSERT_EQUAL(cal_loss_parse(unknown[i], &l, &err), -1);
		snprintf(want, sizeof want, "unknown loss '%s'; %s", unknown[i], list);
		UT_TAKE_ERROR(err, want);
	}
	static const char *const bad_delta[] = {"huber(0)", "huber(-1)", "huber(nan)", "huber(inf)", NULL};
	for (size_t i = 0; bad_delta[i]; i++) {
		CU_ASSERT_EQUAL(cal_loss_parse(bad_delta[i], &l, &err), -1);
		snprintf(want, sizeof want, "loss '%s': the delta of huber must be a finite number > 0", bad_delta[i]);
		UT_TAKE_ERROR(err, want);
	}
	CU_ASSERT_EQUAL(cal_loss_parse(NULL, &l, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
}

static void test_name(void)
{
	char buf[32];
	cal_loss l = {.kind = CAL_LOSS_HUBER, .delta = 0.05};
	UT_ASSERT_TEXT(cal_loss_name(&l, buf, sizeof buf), "huber(0.05)");
	l = (cal_loss){.kind = CAL_LOSS_MAPE};
	UT_ASSERT_TEXT(cal_loss_name(&l, buf, sizeof buf), "mape");
	/* every canonical name parses back to its loss */
	for (int k = CAL_LOSS_MAE; k <= CAL_LOSS_LOGRATIO; k++) {
		cal_loss a = {.kind = (enum cal_loss_kind)k, .delta = k == CAL_LOSS_HUBER ? 0.25 : 0}, b;
		char *err = NULL;
		CU_ASSERT_EQUAL(cal_loss_parse(cal_loss_name(&a, buf, sizeof buf), &b, &err), 0);
		CU_ASSERT_EQUAL(b.kind, a.kind);
		CU_ASSERT_EQUAL(b.delta, a.delta);
	}
}

static const ut_test tests[] = {
	{"absolute losses", test_absolute},
	{"relative losses", test_relative},
	{"huber", test_huber},
	{"measured zero", test_zero_measure},
	{"non-finite simulation", test_nonfinite},
	{"parse", test_parse},
	{"name", test_name},
	{NULL, NULL},
};

int main(void) { return ut_run("calib loss", tests); }

/*
 * test_stdlib_numeric.c - the simple numeric built-ins (LANGUAGE.md §5.1),
 * every listed value and the reference test loops (sqrt, cbrt, factor10,
 * round/floor/ceiling table).
 */
#include "config.h"

#include "stdlib_test.h"

#define BIGNUM 1048576 /* the bound of tests/userfunc_sqrt.c and userfunc_cbrt.c */

static void test_abs(void)
{
	EXPECT_I(ncsim_abs_i(-5, E), 5);
	EXPECT_I(ncsim_abs_i(5, E), 5);
	EXPECT_I(ncsim_abs_i(INT64_MAX, E), INT64_MAX);
	EXPECT_ERR(ncsim_abs_i(INT64_MIN, E),
	           "the absolute value of -9223372036854775808 is not defined in 64-bit arithmetic");
	EXPECT_F(ncsim_abs_f(-2.5, E), 2.5, 0.0);
}

static void test_bits(void)
{
	static const int64_t in[] = { 0, 1, 255, 256, 867, 12345, -1, -2 };
	static const int64_t want[] = { 0, 1, 8, 9, 10, 14, 64, 64 };

	for (size_t i = 0; i < sizeof in / sizeof *in; i++)
		EXPECT_I(ncsim_bits_i(in[i], E), want[i]);
	EXPECT_I(ncsim_bits_i(INT64_MAX, E), 63);
	EXPECT_F(ncsim_bits_f(255.9, E), 8.0, 0.0);
	EXPECT_F(ncsim_bits_f(-1.5, E), 64.0, 0.0);
}

static void test_roots(void)
{
	static const int64_t cubes[] = { 27, 64, 9, 16, 0 }, cbrts[] = { 3, 4, 2, 2, 0 };
	char buf[32];
	ncsim_err e = NCSIM_ERR_INIT;

	for (size_t i = 0; i < sizeof cubes / sizeof *cubes; i++)
		EXPECT_I(ncsim_cbrt_i(cubes[i], E), cbrts[i]);
	EXPECT_ERR(ncsim_cbrt_i(-1, E), "unable to take CBRT(-1); result is undefined");
	ncsim_fmt_g10(buf, sizeof buf, ncsim_cbrt_f(9.0, &e));
	CU_ASSERT_STRING_EQUAL(buf, "2.080083823");
	CU_ASSERT_FALSE(e.failed);
	EXPECT_ERR(ncsim_cbrt_f(-8.0, E), "unable to take CBRT(-8); result is undefined");

	EXPECT_I(ncsim_sqrt_i(15, E), 3);
	EXPECT_I(ncsim_sqrt_i(81, E), 9);
	EXPECT_I(ncsim_sqrt_i(0, E), 0);
	EXPECT_I(ncsim_sqrt_i(1, E), 1);
	EXPECT_ERR(ncsim_sqrt_i(-4, E), "unable to take SQRT(-4); result is undefined");
	EXPECT_F(ncsim_sqrt_f(2.25, E), 1.5, 0.0);
	EXPECT_ERR(ncsim_sqrt_f(-0.5, E), "unable to take SQRT(-0.5)");

	EXPECT_I(ncsim_root_i(5, 245, E), 3);
	EXPECT_I(ncsim_root_i(2, 16, E), 4);
	EXPECT_I(ncsim_root_i(3, 27, E), 3);
	EXPECT_I(ncsim_root_i(3, 26, E), 2);
	EXPECT_I(ncsim_root_i(5, 32, E), 2);
	EXPECT_I(ncsim_root_i(-3, 8, E), 1); /* LANGUAGE.md §13 item 6: the implementation's value */
	EXPECT_I(ncsim_root_i(1, INT64_MAX, E), INT64_MAX);
	EXPECT_I(ncsim_root_i(64, INT64_MAX, E), 1);
	EXPECT_I(ncsim_root_i(1000000, 5, E), 1);
	EXPECT_ERR(ncsim_root_i(4, -245, E), "unable to take ROOT(4, -245); result is undefined");
	EXPECT_ERR(ncsim_root_i(0, 8, E), "unable to take ROOT(0, 8)");
	EXPECT_F(ncsim_root_f(2.0, 16.0, E), 4.0, 1e-12);
	EXPECT_F(ncsim_root_f(-1.0, 4.0, E), 0.25, 1e-15);
	EXPECT_ERR(ncsim_root_f(0.0, 16.0, E), "unable to take ROOT(0, 16)");
	EXPECT_ERR(ncsim_root_f(2.0, -1.0, E), "unable to take ROOT(2, -1)");
}

/* r^k <= x < (r+1)^k, exactly, for 0 <= r and 1 <= k. */
static int is_int_root(int64_t r, int k, int64_t x)
{
	__int128 lo = 1, hi = 1;

	for (int i = 0; i < k; i++) {
		lo *= r;
		hi *= (__int128)r + 1;
		if (hi > ((__int128)1 << 100))
			hi = (__int128)1 << 100; /* already far above any int64_t */
	}
	return lo <= x && x < hi;
}

/* tests/userfunc_sqrt.c and userfunc_cbrt.c, plus large arguments. */
static void test_root_properties(void)
{
	int bad = 0;

	for (int64_t i = 0; i < BIGNUM; i++) {
		ncsim_err e = NCSIM_ERR_INIT;
		int64_t s = ncsim_sqrt_i(i, &e), c = ncsim_cbrt_i(i, &e);

		if (!is_int_root(s, 2, i) || !is_int_root(c, 3, i) || e.failed ||
		    (i > 1 && s != ncsim_root_i(2, i, &e)) || (i > 0 && c != ncsim_root_i(3, i, &e)))
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* Near powers and the top of the range, where pow() is off by one. */
	for (int k = 2; k <= 7; k++)
		for (int64_t base = 2; base < INT64_C(3037000500); base = base * 3 + 1) {
			__int128 p = 1;

			for (int i = 0; i < k; i++)
				p *= base;
			if (p > INT64_MAX)
				break;
			for (int64_t d = -2; d <= 2; d++) {
				int64_t x = (int64_t)p + d;
				ncsim_err e = NCSIM_ERR_INIT;
				int64_t r = ncsim_root_i(k, x, &e);

				if (!is_int_root(r, k, x) || e.failed) {
					fprintf(stderr, "ROOT(%d, %" PRId64 ") = %" PRId64 "\n", k, x, r);
					bad++;
				}
			}
		}
	for (int k = 1; k <= 64; k++)
		if (!is_int_root(ncsim_root_i(k, INT64_MAX, NULL), k, INT64_MAX))
			bad++;
	CU_ASSERT_TRUE(is_int_root(ncsim_sqrt_i(INT64_C(4611686018427387903), NULL), 2,
	                           INT64_C(4611686018427387903)));
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_log10(void)
{
	static const int64_t in[] = { 12345, 1979, 999, 1, 1000, INT64_C(999999999999999999), INT64_MAX };
	static const int64_t want[] = { 4, 3, 2, 0, 3, 17, 18 };
	char buf[32];
	ncsim_err e = NCSIM_ERR_INIT;

	for (size_t i = 0; i < sizeof in / sizeof *in; i++)
		EXPECT_I(ncsim_log10_i(in[i], E), want[i]);
	EXPECT_ERR(ncsim_log10_i(0, E),
	           "unable to take the base-10 logarithm of a non-positive number (0)");
	EXPECT_ERR(ncsim_log10_i(-5, E), "non-positive number (-5)");
	ncsim_fmt_g10(buf, sizeof buf, ncsim_log10_f(999.0, &e));
	CU_ASSERT_STRING_EQUAL(buf, "2.999565488");
	CU_ASSERT_FALSE(e.failed);
}

static void test_factor10(void)
{
	EXPECT_I(ncsim_factor10_i(0, E), 0);
	EXPECT_I(ncsim_factor10_i(9, E), 9);
	EXPECT_I(ncsim_factor10_i(45, E), 40);
	EXPECT_I(ncsim_factor10_i(4975, E), 4000);
	EXPECT_I(ncsim_factor10_i(5999, E), 5000);
	EXPECT_I(ncsim_factor10_i(-4975, E), -4000);
	EXPECT_I(ncsim_factor10_i(INT64_C(999999999999999), E), INT64_C(900000000000000));
	EXPECT_I(ncsim_factor10_i(INT64_MIN, E), INT64_C(-9000000000000000000));
	EXPECT_F(ncsim_factor10_f(45.5, E), 40.0, 0.0);
	EXPECT_F(ncsim_factor10_f(-45.5, E), -40.0, 0.0);
	EXPECT_F(ncsim_factor10_f(0.0375, E), 0.03, 1e-17);
	EXPECT_F(ncsim_factor10_f(999999999999999.0, E), 9e14, 0.0);
}

/* tests/userfunc_factor10.c: -100000 <= i < 100000, integer and float. */
static void test_factor10_loop(void)
{
	int bad = 0;

	for (int64_t i = -100000; i < 100000; i++) {
		int64_t r = ncsim_factor10_i(i, NULL), a = r < 0 ? -r : r, want;
		double d = ncsim_factor10_f((double)i, NULL), ad = fabs(d), wantd;
		int64_t m = 1;
		double md = 1.0;

		while (a >= m * 10)
			m *= 10;
		want = r / m * m;
		while (ad >= md * 10.0)
			md *= 10.0;
		wantd = ad < 10.0 ? d : floor(d / md) * md;
		/* The result keeps one digit of i, rounded toward zero. */
		if (r != want || d != wantd || (i != 0 && (r == 0 || (r < 0) != (i < 0))) ||
		    llabs(i) - llabs(r) >= m || d != (double)r)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_min_max(void)
{
	static const int64_t a[] = { 8, 6, 7, 5, 3, 0, 9 };
	static const int64_t b[] = { 4, 5, 7, 2, 3, 9, 10, 6 };
	static const double c[] = { 2.5, -1.5, 7.25 };

	EXPECT_I(ncsim_min_i(a, 7, E), 0);
	EXPECT_I(ncsim_max_i(b, 8, E), 10);
	EXPECT_I(ncsim_min_i((int64_t[]){ 42 }, 1, E), 42);
	EXPECT_F(ncsim_min_f(c, 3, E), -1.5, 0.0);
	EXPECT_F(ncsim_max_f(c, 3, E), 7.25, 0.0);
	EXPECT_ERR(ncsim_max_i(a, 0, E), "MAX requires at least one argument");
	EXPECT_ERR(ncsim_min_f((double[]){ 1.0, NAN }, 2, E), "numeric operation");
}

/* tests/userfunc_round.c: input -> floor, ceiling, round. */
static void test_rounding_table(void)
{
	static const double t[][4] = {
		{ 123.0, 123, 123, 123 },    { 123.4, 123, 124, 123 },    { 123.6, 123, 124, 124 },
		{ 124.0, 124, 124, 124 },    { 0.0, 0, 0, 0 },            { -123.4, -124, -123, -123 },
		{ -123.6, -124, -123, -124 }, { -124.0, -124, -124, -124 },
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		EXPECT_F(ncsim_floor_f(t[i][0], E), t[i][1], 0.0);
		EXPECT_F(ncsim_ceiling_f(t[i][0], E), t[i][2], 0.0);
		EXPECT_F(ncsim_round_f(t[i][0], E), t[i][3], 0.0);
	}
	/* §5.1 examples. */
	EXPECT_I(ncsim_floor_i(ncsim_div_i(-77, 10, NULL), E), -7);
	EXPECT_I(ncsim_ceiling_i(-7, E), -7);
	EXPECT_I(ncsim_round_i(3, E), 3);
	EXPECT_F(ncsim_floor_f(-7777.0 / 10, E), -778.0, 0.0);
	EXPECT_F(ncsim_ceiling_f(-7777.0 / 10, E), -777.0, 0.0);
	EXPECT_F(ncsim_round_f(-7777.0 / 10, E), -778.0, 0.0);
	EXPECT_F(ncsim_round_f(5.0 / 2, E), 3.0, 0.0);
	EXPECT_F(ncsim_round_f(-5.0 / 2, E), -3.0, 0.0);
	EXPECT_ERR(ncsim_floor_f(INFINITY, E), "unable to perform a numeric operation on \"inf\"");
}

int main(void)
{
	static const ut_test tests[] = {
		{ "ABS", test_abs },
		{ "BITS", test_bits },
		{ "CBRT SQRT ROOT", test_roots },
		{ "root properties", test_root_properties },
		{ "LOG10", test_log10 },
		{ "FACTOR10", test_factor10 },
		{ "FACTOR10 loop", test_factor10_loop },
		{ "MIN MAX", test_min_max },
		{ "FLOOR CEILING ROUND", test_rounding_table },
		{ NULL, NULL },
	};
	return ut_run("stdlib numeric", tests);
}

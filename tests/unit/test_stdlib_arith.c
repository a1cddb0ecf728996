/*
 * test_stdlib_arith.c - operators and context conversions (LANGUAGE.md §3.1,
 * §3.2, §7 tag hashing, number formatting, the error slot).
 */
#include "config.h"

#include "stdlib_test.h"

static void test_division(void)
{
	EXPECT_I(ncsim_div_i(-7, 2, E), -3);
	EXPECT_I(ncsim_div_i(7, -2, E), -3);
	EXPECT_I(ncsim_div_i(-77, 10, E), -7);
	EXPECT_I(ncsim_div_i(INT64_MIN, -1, E), INT64_MIN);
	EXPECT_I(ncsim_div_i(INT64_MIN, 1, E), INT64_MIN);
	EXPECT_ERR(ncsim_div_i(5, 0, E), "5 divided by 0 is not defined");
}

static void test_modulo_examples(void)
{
	EXPECT_I(ncsim_mod_i(10, 3, E), 1);
	EXPECT_I(ncsim_mod_i(16, -7, E), 2);
	EXPECT_I(ncsim_mod_i(-16, 7, E), 5);
	EXPECT_I(ncsim_mod_i(-16, -7, E), 5);
	EXPECT_I(ncsim_mod_i(7, -3, E), 1);
	EXPECT_I(ncsim_mod_i(-7, 3, E), 2);
	EXPECT_I(ncsim_mod_i(INT64_MIN, -1, E), 0);
	EXPECT_I(ncsim_mod_i(INT64_MIN, INT64_MIN, E), 0);
	EXPECT_I(ncsim_mod_i(-1, INT64_MIN, E), INT64_MAX);
	EXPECT_I(ncsim_mod_i(INT64_MAX, INT64_MIN, E), INT64_MAX);
	EXPECT_ERR(ncsim_mod_i(7, 0, E), "7 modulo 0 is not defined");
	/* a DIVIDES b is b MOD a = 0, so 0 DIVIDES x is fatal. */
	EXPECT_ERR(ncsim_mod_i(12, 0, E), "modulo 0 is not defined");
}

/* tests/userfunc_modulo.c: non-negative and congruent for n, d in -10..9, d != 0. */
static void test_modulo_property(void)
{
	for (int64_t n = -10; n < 10; n++)
		for (int64_t d = -10; d < 10; d++) {
			ncsim_err e = NCSIM_ERR_INIT;
			int64_t r;

			if (d == 0)
				continue;
			r = ncsim_mod_i(n, d, &e);
			CU_ASSERT_FALSE(e.failed);
			CU_ASSERT_TRUE(r >= 0 && r < (d < 0 ? -d : d));
			CU_ASSERT_EQUAL((n - r) % d, 0);
		}
}

static void test_shifts(void)
{
	CU_ASSERT_EQUAL(ncsim_shr_i(-7, 1), -4);
	CU_ASSERT_EQUAL(ncsim_shr_i(-16, 2), -4);
	CU_ASSERT_EQUAL(ncsim_shl_i(1, -1), 0);
	CU_ASSERT_EQUAL(ncsim_shr_i(16, -2), 64);
	CU_ASSERT_EQUAL(ncsim_shl_i(3, 4), 48);
	CU_ASSERT_EQUAL(ncsim_shl_i(-3, 4), -48);
	CU_ASSERT_EQUAL(ncsim_shl_i(-48, -4), -3);
	CU_ASSERT_EQUAL(ncsim_shl_i(1, 63), INT64_MIN);
	CU_ASSERT_EQUAL(ncsim_shl_i(1, 64), 0);
	CU_ASSERT_EQUAL(ncsim_shr_i(-5, 64), -1);
	CU_ASSERT_EQUAL(ncsim_shr_i(5, 1000), 0);
	CU_ASSERT_EQUAL(ncsim_shl_i(-5, INT64_MIN), -1);
	CU_ASSERT_EQUAL(ncsim_shr_i(5, INT64_MIN), 0);
	CU_ASSERT_EQUAL(ncsim_shr_i(INT64_MIN, 63), -1);
}

static void test_wrapping(void)
{
	CU_ASSERT_EQUAL(ncsim_add(INT64_MAX, 1), INT64_MIN);
	CU_ASSERT_EQUAL(ncsim_sub(INT64_MIN, 1), INT64_MAX);
	CU_ASSERT_EQUAL(ncsim_mul(INT64_MAX, 2), -2);
	CU_ASSERT_EQUAL(ncsim_neg(INT64_MIN), INT64_MIN);
	CU_ASSERT_EQUAL(ncsim_neg(5), -5);
}

static void test_power_examples(void)
{
	ncsim_err e = NCSIM_ERR_INIT;

	/* 2**3**2 is right-associative; -2**2 negates after the power. */
	CU_ASSERT_EQUAL(ncsim_pow_i(2, ncsim_pow_i(3, 2, &e), &e), 512);
	CU_ASSERT_EQUAL(ncsim_neg(ncsim_pow_i(2, 2, &e)), -4);
	CU_ASSERT_FALSE(e.failed);
	EXPECT_I(ncsim_pow_i(2, -1, E), 0);
	EXPECT_I(ncsim_pow_i(-1, -3, E), -1);
	EXPECT_I(ncsim_pow_i(-1, -4, E), 1);
	EXPECT_I(ncsim_pow_i(1, -7, E), 1);
	EXPECT_I(ncsim_pow_i(2, 62, E), INT64_C(4611686018427387904));
	EXPECT_I(ncsim_pow_i(2, 64, E), 0);
	EXPECT_I(ncsim_pow_i(-2, 63, E), INT64_MIN);
	EXPECT_I(ncsim_pow_i(7, 0, E), 1);
	EXPECT_ERR(ncsim_pow_i(0, 0, E), "unable to raise zero to the zeroth power");
	EXPECT_ERR(ncsim_pow_i(0, -2, E), "unable to raise zero to a negative power");
	EXPECT_I(ncsim_pow_i(0, 5, E), 0);
}

static void test_power_wraps_like_repeated_multiplication(void)
{
	uint64_t want = 1;

	for (int x = 1; x <= 80; x++) {
		want *= 3;
		EXPECT_I(ncsim_pow_i(3, x, E), (int64_t)want);
	}
}

/* tests/userfunc_power.c: bases -10..9, exponents -5..4, against pow() rounded. */
static void test_power_grid(void)
{
	for (int b = -10; b < 10; b++)
		for (int x = -5; x < 5; x++) {
			int64_t want;

			if (!b && x <= 0)
				continue;
			want = (x == -1 && (b == 2 || b == -2)) ? 0 : (int64_t)round(pow(b, x));
			EXPECT_I(ncsim_pow_i(b, x, E), want);
		}
}

static void test_float_power(void)
{
	EXPECT_F(ncsim_pow_f(2.0, -1.0, E), 0.5, 0.0);
	EXPECT_F(ncsim_pow_f(-2.0, 3.0, E), -8.0, 0.0);
	EXPECT_F(ncsim_pow_f(9.0, 0.5, E), 3.0, 1e-15);
	EXPECT_ERR(ncsim_pow_f(0.0, 0.0, E), "unable to take (0)**(0); result is undefined");
	EXPECT_ERR(ncsim_pow_f(0.0, -1.0, E), "result is undefined");
	EXPECT_ERR(ncsim_pow_f(-8.0, 0.5, E), "unable to take (-8)**(0.5)");
	EXPECT_ERR(ncsim_pow_f(INFINITY, 2.0, E), "unable to perform a numeric operation on \"inf\"");
}

/* LANGUAGE.md §3.1: REAL(e) back in integer context is (int64)(d + 0.5). */
static void test_real_to_int(void)
{
	CU_ASSERT_EQUAL(ncsim_real_to_int(9.0 / 2 + 1.0 / 2), 5);
	CU_ASSERT_EQUAL(ncsim_real_to_int(10.0 / 3 * 3), 10);
	CU_ASSERT_EQUAL(ncsim_real_to_int(7.0 / 2), 4);
	CU_ASSERT_EQUAL(ncsim_real_to_int(-5.0 / 2), -2);
	CU_ASSERT_EQUAL(ncsim_real_to_int(-27.0 / 10), -2);
	CU_ASSERT_EQUAL(ncsim_real_to_int(24.0 / 5 * 5), 24);
	CU_ASSERT_EQUAL(ncsim_real_to_int(1e300), INT64_MAX);
	CU_ASSERT_EQUAL(ncsim_real_to_int(-1e300), INT64_MIN);
	CU_ASSERT_EQUAL(ncsim_real_to_int(NAN), INT64_MIN);
	CU_ASSERT_EQUAL(ncsim_trunc_to_int(-3.9), -3);
	CU_ASSERT_EQUAL(ncsim_trunc_to_int(-9223372036854775808.0), INT64_MIN);
}

/* LANGUAGE.md §13 item 8: float-context bitwise operators truncate their operands. */
static void test_float_bitwise(void)
{
	EXPECT_F(ncsim_or_f(3.0, 5.0, E), 7.0, 0.0);
	EXPECT_F(ncsim_xor_f(7.0 / 2, 1.0, E), 2.0, 0.0);
	EXPECT_F(ncsim_and_f(6.9, 3.2, E), 2.0, 0.0);
	EXPECT_F(ncsim_not_f(0.0, E), -1.0, 0.0);
	EXPECT_F(ncsim_not_f(42.5, E), -43.0, 0.0);
	EXPECT_F(ncsim_xor_f(5.0, -1.0, E), -6.0, 0.0);
	EXPECT_F(ncsim_shl_f(1.9, 3.7, E), 8.0, 0.0);
	EXPECT_F(ncsim_shr_f(-7.5, 1.0, E), -4.0, 0.0);
	EXPECT_F(ncsim_shr_f(16.0, -2.0, E), 64.0, 0.0);
	EXPECT_F(ncsim_mod_f(-7.9, 3.0, E), 2.0, 0.0);
	EXPECT_F(ncsim_mod_f(16.5, -7.0, E), 2.0, 0.0);
	EXPECT_ERR(ncsim_mod_f(7.0, 0.4, E), "7 modulo 0 is not defined");
	EXPECT_ERR(ncsim_or_f(NAN, 1.0, E), "unable to perform a numeric operation on");
}

static void test_float_context_examples(void)
{
	ncsim_err e = NCSIM_ERR_INIT;

	/* 24/5*5 = 24 and 24/5 = 4.8 in floating-point context; FLOOR(-7777/10) = -778. */
	CU_ASSERT_DOUBLE_EQUAL(24.0 / 5.0 * 5.0, 24.0, 1e-12);
	CU_ASSERT_EQUAL(ncsim_floor_f(-7777.0 / 10.0, &e), -778.0);
	CU_ASSERT_FALSE(e.failed);
}

static void test_bits_to_bytes(void)
{
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(0), 0);
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(1), 1);
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(8), 1);
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(9), 2);
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(64), 8);
	CU_ASSERT_EQUAL(ncsim_bits_to_bytes(-9), 0); /* -1 + 1 with C's / and % */
}

static void test_error_slot(void)
{
	ncsim_err e = NCSIM_ERR_INIT;

	CU_ASSERT_EQUAL(ncsim_mod_i(3, 0, &e), 0);
	CU_ASSERT_EQUAL(ncsim_div_i(4, 0, &e), 0);
	CU_ASSERT_TRUE(e.failed);
	/* The first error wins. */
	CU_ASSERT_STRING_EQUAL(e.msg, "3 modulo 0 is not defined");
	/* NULL discards. */
	CU_ASSERT_EQUAL(ncsim_mod_i(3, 0, NULL), 0);
	CU_ASSERT_EQUAL(ncsim_err_set(NULL, "x"), 0);
}

static void test_format(void)
{
	char buf[64];

	ncsim_fmt_g10(buf, sizeof buf, 4.8);
	CU_ASSERT_STRING_EQUAL(buf, "4.8");
	ncsim_fmt_g10(buf, sizeof buf, 2.0800838230519041);
	CU_ASSERT_STRING_EQUAL(buf, "2.080083823");
	ncsim_fmt_g10(buf, sizeof buf, 1e20);
	CU_ASSERT_STRING_EQUAL(buf, "1e+20");
	ncsim_fmt_g10(buf, sizeof buf, 24.0);
	CU_ASSERT_STRING_EQUAL(buf, "24");
	ncsim_fmt_g10(buf, sizeof buf, log10(999.0));
	CU_ASSERT_STRING_EQUAL(buf, "2.999565488");
}

static void test_tag_hash(void)
{
	CU_ASSERT_EQUAL(ncsim_tag_hash(""), 1234567891);
	CU_ASSERT_EQUAL(ncsim_tag_hash("a"), INT64_C(1325607135924297096));
	CU_ASSERT_EQUAL(ncsim_tag_hash("42"), INT64_C(2899983911156415681));
	CU_ASSERT_NOT_EQUAL(ncsim_tag_hash("42"), 42);
	CU_ASSERT_EQUAL(ncsim_tag_hash("hello world"), INT64_C(-8410669300345898581));
	/* Bytes >= 0x80 are added as negative (signed char). */
	CU_ASSERT_EQUAL(ncsim_tag_hash("\xff"), INT64_C(1325607135924296998));
}

int main(void)
{
	static const ut_test tests[] = {
		{ "division", test_division },
		{ "modulo examples", test_modulo_examples },
		{ "modulo property", test_modulo_property },
		{ "shifts", test_shifts },
		{ "wrapping", test_wrapping },
		{ "power examples", test_power_examples },
		{ "power wraps", test_power_wraps_like_repeated_multiplication },
		{ "power grid", test_power_grid },
		{ "float power", test_float_power },
		{ "REAL to int", test_real_to_int },
		{ "float bitwise", test_float_bitwise },
		{ "float context", test_float_context_examples },
		{ "BITS to bytes", test_bits_to_bytes },
		{ "error slot", test_error_slot },
		{ "format", test_format },
		{ "tag hash", test_tag_hash },
		{ NULL, NULL },
	};
	return ut_run("stdlib arith", tests);
}

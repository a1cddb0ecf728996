/*
 * test_stdlib_range.c - progression inference and iteration (LANGUAGE.md
 * §3.6) with the C backend's rules and ncsim's choices (§13 items 3-5).
 */
#include "config.h"

#include "stdlib_test.h"

/* Expands {v..., last} (vd: float-context initial values or NULL) into out; returns the count or -1. */
static long expand(const int64_t *v, const double *vd, size_t k, int64_t last, double last_d,
                   int64_t *out, long max, ncsim_err *e)
{
	struct ncsim_range r;
	struct ncsim_range_it it;
	int64_t x;
	long n = 0;

	if (ncsim_range_init(&r, v, vd, k, last, last_d, e))
		return -1;
	for (int ok = ncsim_range_first(&r, &it, &x); ok; ok = ncsim_range_next(&r, &it, &x)) {
		if (n == max)
			return -2; /* runaway */
		out[n++] = x;
	}
	return n;
}

#define SEQ(...) ((const int64_t[]){ __VA_ARGS__ })
#define NARGS(...) (sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t))

/* Checks that {init..., last} yields exactly want[]. */
static void check_seq(int line, const int64_t *init, size_t k, int64_t last, const int64_t *want,
                      long nwant)
{
	int64_t got[4096];
	ncsim_err e = NCSIM_ERR_INIT;
	long n = expand(init, NULL, k, last, (double)last, got, 4096, &e);
	int ok = n == nwant && !e.failed;

	for (long i = 0; ok && i < n; i++)
		ok = got[i] == want[i];
	if (!ok) {
		fprintf(stderr, "line %d: got %ld values (%s):", line, n, e.failed ? e.msg : "no error");
		for (long i = 0; i < n && i < 20; i++)
			fprintf(stderr, " %" PRId64, got[i]);
		fprintf(stderr, "\n");
	}
	CU_ASSERT_TRUE(ok);
}

#define LIST(...) __VA_ARGS__
/* CHECK((v0, v1, v2), last, expected values...) */
#define CHECK(init, last, ...)                                                          \
	check_seq(__LINE__, (const int64_t[]){ LIST init }, NARGS(LIST init), last,         \
	          (const int64_t[]){ __VA_ARGS__ }, (long)NARGS(__VA_ARGS__))
#define CHECK_EMPTY(init, last) \
	check_seq(__LINE__, (const int64_t[]){ LIST init }, NARGS(LIST init), last, NULL, 0)

static void test_one_initial_value(void)
{
	CHECK((5), 1, 5, 4, 3, 2, 1);
	CHECK((1), 5, 1, 2, 3, 4, 5);
	CHECK((3), 3, 3);
	CHECK((0), 2, 0, 1, 2);
	CHECK((-1), -3, -1, -2, -3);
}

static void test_arithmetic(void)
{
	CHECK((1, 4), 15, 1, 4, 7, 10, 13);
	CHECK((15, 12), 1, 15, 12, 9, 6, 3);
	CHECK((20, 30, 40), 55, 20, 30, 40, 50);
	CHECK_EMPTY((15, 25), 5);
	/* Descending with three initial values includes an exactly-hit end (x = 123). */
	CHECK((1230, 1107, 984), 369, 1230, 1107, 984, 861, 738, 615, 492, 369);
	/* Constant prefix: the C backend steps by +1 (§13 item 3). */
	CHECK((2, 2, 2), 5, 2, 3, 4, 5);
	CHECK((4, 4, 4), 4, 4);
	CHECK_EMPTY((5, 5), 1);
	{
		int64_t got[1000];
		long n = expand(SEQ(2, 2), NULL, 2, 1000, 1000.0, got, 1000, NULL);

		CU_ASSERT_EQUAL(n, 999);
		CU_ASSERT_EQUAL(got[0], 2);
		CU_ASSERT_EQUAL(got[998], 1000);
	}
}

static void test_geometric(void)
{
	CHECK((2, 4, 8), 50, 2, 4, 8, 16, 32);
	CHECK((1, 2, 4), 64, 1, 2, 4, 8, 16, 32, 64);
	CHECK((6561, 2187, 729), 1, 6561, 2187, 729, 243, 81, 27, 9, 3, 1);
	CHECK_EMPTY((1, 2, 4), 0);
	/* Non-integral ratios round each term (§13 item 5). */
	CHECK((100, 150, 225), 10000, 100, 150, 225, 338, 506, 759, 1139, 1709, 2563, 3844, 5767, 8650);
	CHECK((1000, 300, 90), 1, 1000, 300, 90, 27, 8, 2, 1);
	/* Integer ratio of -2 (the C rules accept it), ends when past the bound. */
	CHECK((-2, 4, -8), 100, -2, 4, -8, 16, -32, 64, -128);
	/* Ratio -1 would repeat forever in C: each value once. */
	CHECK((-3, 3, -3), 10, -3, 3);
}

static void test_no_pattern(void)
{
	int64_t got[16];

	EXPECT_ERR(expand(SEQ(1, 4, 9), NULL, 3, 81, 81.0, got, 16, E),
	           "Unable to find an arithmetic or geometric pattern to {1, 4, 9, ..., 81}");
	EXPECT_ERR(expand(SEQ(0, 1, 5), NULL, 3, 9, 9.0, got, 16, E), "Unable to find an arithmetic");
	EXPECT_ERR(expand(SEQ(1), NULL, 0, 9, 9.0, got, 16, E), "at least one initial value");
}

/* vd: the initial values evaluated in floating-point context decide the non-integral rule. */
static void test_float_context_values(void)
{
	int64_t got[16];
	ncsim_err e = NCSIM_ERR_INIT;
	long n;

	/* {10/4, 5, 10, ..., 40}: integer values 2 5 10 fit no rule ... */
	EXPECT_ERR(expand(SEQ(2, 5, 10), NULL, 3, 40, 40.0, got, 16, E), "Unable to find");
	/* ... but 2.5 5 10 has ratio 2, and DBL2INT(2.5) = 3. */
	n = expand(SEQ(2, 5, 10), (const double[]){ 2.5, 5.0, 10.0 }, 3, 40, 40.0, got, 16, &e);
	CU_ASSERT_FALSE(e.failed);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_TRUE(n == 5 && got[0] == 3 && got[1] == 5 && got[2] == 10 && got[3] == 20 && got[4] == 40);
}

static void test_overflow_guards(void)
{
	int64_t got[200];
	long n;

	n = expand(SEQ(1, 2, 4), NULL, 3, INT64_MAX, 0, got, 200, NULL);
	CU_ASSERT_EQUAL(n, 63);
	CU_ASSERT_EQUAL(got[62], INT64_C(1) << 62);
	n = expand(SEQ(INT64_MAX - 2), NULL, 1, INT64_MAX, 0, got, 200, NULL);
	CU_ASSERT_EQUAL(n, 3);
	n = expand(SEQ(INT64_MIN + 2), NULL, 1, INT64_MIN, 0, got, 200, NULL);
	CU_ASSERT_EQUAL(n, 3);
	n = expand(SEQ(0, INT64_MAX), NULL, 2, INT64_MAX, 0, got, 200, NULL);
	CU_ASSERT_EQUAL(n, 2);
	/* The step itself overflows: only the start is in range. */
	n = expand(SEQ(INT64_MIN, INT64_MAX), NULL, 2, INT64_MAX, 0, got, 200, NULL);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(got[0], INT64_MIN);
	/* A non-integral progression that saturates stops on the stall guard. */
	n = expand(SEQ(100, 150, 225), NULL, 3, INT64_MAX, 1e300, got, 200, NULL);
	CU_ASSERT_TRUE(n > 0 && n < 200);
	/* A decreasing one that reaches 0 stalls there. */
	n = expand(SEQ(1000, 300, 90), NULL, 3, -5, -5.0, got, 200, NULL);
	CU_ASSERT_TRUE(n > 0 && n < 200 && got[n - 1] == 0);
	n = expand(SEQ(64, 16, 4), NULL, 3, -5, -5.0, got, 200, NULL);
	CU_ASSERT_TRUE(n == 5 && got[3] == 1 && got[4] == 0);
}

/* contains() agrees with the expanded list. */
static void test_contains(void)
{
	static const struct {
		int64_t v[3];
		size_t k;
		int64_t last;
	} cases[] = {
		{ { 1, 4 }, 2, 15 },         { { 15, 12 }, 2, 1 },    { { 5 }, 1, -5 },
		{ { 2, 2, 2 }, 3, 9 },        { { 2, 4, 8 }, 3, 50 },  { { 100, 150, 225 }, 3, 900 },
		{ { 1000, 300, 90 }, 3, 1 }, { { 15, 25 }, 2, 5 },    { { -3, 3, -3 }, 3, 10 },
		{ { 3 }, 1, 3 },
	};
	int bad = 0;

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct ncsim_range r;
		struct ncsim_ivec list = { NULL, 0, 0 };

		CU_ASSERT_EQUAL_FATAL(ncsim_range_init(&r, cases[c].v, NULL, cases[c].k, cases[c].last,
		                                       (double)cases[c].last, NULL), 0);
		ncsim_range_append(&r, &list);
		for (int64_t x = -20; x <= 1100; x++) {
			int in = 0;

			for (size_t i = 0; i < list.len; i++)
				in |= list.ptr[i] == x;
			bad += in != ncsim_range_contains(&r, x);
		}
		free(list.ptr);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_append(void)
{
	struct ncsim_range r;
	struct ncsim_ivec v = { NULL, 0, 0 };

	/* {y*10+x FOR EACH y IN {0,...,2} FOR EACH x IN {0,...,3} WHERE ...} uses these generators. */
	CU_ASSERT_EQUAL(ncsim_range_init(&r, SEQ(0), NULL, 1, 2, 2.0, NULL), 0);
	CU_ASSERT_EQUAL(ncsim_range_append(&r, &v), 3);
	CU_ASSERT_EQUAL(ncsim_range_init(&r, SEQ(0), NULL, 1, 3, 3.0, NULL), 0);
	CU_ASSERT_EQUAL(ncsim_range_append(&r, &v), 4);
	CU_ASSERT_EQUAL(v.len, 7);
	CU_ASSERT_TRUE(v.ptr[2] == 2 && v.ptr[3] == 0 && v.ptr[6] == 3);
	CU_ASSERT_EQUAL(ncsim_range_init(&r, SEQ(1, 2), NULL, 2, 100000, 0, NULL), 0);
	CU_ASSERT_EQUAL(ncsim_range_append(&r, &v), 100000);
	CU_ASSERT_EQUAL(v.ptr[v.len - 1], 100000);
	free(v.ptr);
}

int main(void)
{
	static const ut_test tests[] = {
		{ "one initial value", test_one_initial_value },
		{ "arithmetic", test_arithmetic },
		{ "geometric", test_geometric },
		{ "no pattern", test_no_pattern },
		{ "float-context values", test_float_context_values },
		{ "overflow guards", test_overflow_guards },
		{ "contains", test_contains },
		{ "append", test_append },
		{ NULL, NULL },
	};
	return ut_run("stdlib ranges", tests);
}

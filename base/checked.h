/*
 * checked.h - overflow-checked arithmetic on sizes, counts and simulated
 * times (prefix ck_).
 *
 * Every product or sum that an input chooses (a message size times a count,
 * a size divided into packets, a size turned into a transfer time, a time
 * plus a delay) goes through these helpers, so that a value too large for 64
 * bits becomes an error that names the statement, never a wrap-around that
 * shows up later as a wrong time or a false deadlock.
 *
 * Two styles, both branch-light (the builtins compile to one flag test):
 *   - ck_add / ck_mul return 0 and store the result, or -1 on overflow;
 *   - ck_sat_add / ck_sat_mul saturate at CK_OVERFLOW (UINT64_MAX), which
 *     then carries through further saturating sums, so a chain of them needs
 *     one test at the end (ck_time_ok).
 * Simulated time is ncsim_time_t (uint64_t ps): UINT64_MAX is never a real
 * time, so it serves as the saturated "past the end of the clock" value.
 */
#ifndef NCSIM_CHECKED_H
#define NCSIM_CHECKED_H

#include <math.h>
#include <stdint.h>

/* The saturated value: a sum or product that did not fit. */
#define CK_OVERFLOW UINT64_MAX

/* *r = a + b; 0, or -1 if the sum does not fit in 64 bits (*r is then unspecified). */
static inline int ck_add(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r) ? -1 : 0; }
/* *r = a * b; 0, or -1 if the product does not fit in 64 bits. */
static inline int ck_mul(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r) ? -1 : 0; }

/* a + b, or CK_OVERFLOW if it does not fit (CK_OVERFLOW + anything stays CK_OVERFLOW). */
static inline uint64_t ck_sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? CK_OVERFLOW : r;
}

/* a * b, or CK_OVERFLOW if it does not fit. */
static inline uint64_t ck_sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? CK_OVERFLOW : r;
}

/* ceil(a / b) for b > 0, without the overflow of (a + b - 1) / b. */
static inline uint64_t ck_div_up(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/*
 * x rounded up to a whole number, as uint64_t: CK_OVERFLOW if x is not a
 * number or is 2^64 or more (a double cast out of range is undefined
 * behaviour in C); 0 if x <= 0.
 */
static inline uint64_t ck_ceil_u64(double x)
{
	if (!(x < 18446744073709551616.0)) /* 2^64; also catches NaN */
		return CK_OVERFLOW;
	if (x <= 0.0)
		return 0;
	uint64_t r = (uint64_t)x;
	return (double)r < x ? r + 1 : r;
}

/* x rounded to the nearest whole number (halves away from zero, as llround), as uint64_t, saturating like ck_ceil_u64. */
static inline uint64_t ck_round_u64(double x)
{
	if (!(x < 18446744073709551616.0))
		return CK_OVERFLOW;
	if (x <= 0.0)
		return 0;
	/* llround's range is that of long long; a double from 2^53 up is a whole number already */
	return x < 9007199254740992.0 ? (uint64_t)llround(x) : (uint64_t)x;
}

/* 1 if t is a real simulated time (not the saturated CK_OVERFLOW). */
static inline int ck_time_ok(uint64_t t) { return t != CK_OVERFLOW; }

/* The time in ps to move `bytes` at `bytes_per_s`, rounded up; 0 bandwidth means 0 time; CK_OVERFLOW past 2^64 ps. */
static inline uint64_t ck_xfer_ps(uint64_t bytes, double bytes_per_s)
{
	if (!(bytes_per_s > 0.0))
		return 0;
	return ck_ceil_u64((double)bytes * 1e12 / bytes_per_s);
}

#endif

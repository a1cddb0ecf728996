/*
 * hist.c - log-linear histogram (see hist.h).
 */
#include "base/hist.h"

#include <math.h>

static unsigned hist_bucket(uint64_t v)
{
	if (v < LH_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* v >= LH_SUB = 2^5: e >= 5 */
	unsigned s = (unsigned)((v >> (e - 5)) & (LH_SUB - 1));
	return (e - 4) * LH_SUB + s;
}

static uint64_t hist_lower(unsigned b)
{
	if (b < LH_SUB)
		return b;
	unsigned e = b / LH_SUB + 4, s = b % LH_SUB;
	return ((uint64_t)(LH_SUB + s)) << (e - 5);
}

void lh_add(lh_hist *h, uint64_t v)
{
	h->b[hist_bucket(v)]++;
	h->count++;
}

uint64_t lh_quantile(const lh_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t acc = 0;
	for (unsigned b = 0; b < LH_BUCKETS; b++) {
		acc += h->b[b];
		if (acc >= rank) {
			/* Midpoint of the bucket. */
			uint64_t lo = hist_lower(b), hi = b + 1 < LH_BUCKETS ? hist_lower(b + 1) : lo;
			return lo + (hi - lo) / 2;
		}
	}
	return 0;
}

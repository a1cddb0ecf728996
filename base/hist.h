/*
 * hist.h - a bounded log-linear histogram of u64 samples (latencies in ps),
 * for quantiles without keeping the samples (prefix lh_).
 *
 * Values below LH_SUB have a bucket each; above, bucket (e, s) covers
 * [2^e (1 + s/LH_SUB), 2^e (1 + (s+1)/LH_SUB)), so a bucket is at most
 * 1/LH_SUB of its values wide. LH_BUCKETS counters (16 KiB) cover all of u64.
 */
#ifndef NCSIM_HIST_H
#define NCSIM_HIST_H

#include <stdint.h>

#define LH_SUB 32
#define LH_BUCKETS (64 * LH_SUB)

typedef struct lh_hist {
	uint64_t count;
	uint64_t b[LH_BUCKETS];
} lh_hist;

/* Adds one sample. */
void lh_add(lh_hist *h, uint64_t v);
/* The q-quantile (0..1) of the samples: its bucket's midpoint, within 1/LH_SUB of the true value; 0 when empty. */
uint64_t lh_quantile(const lh_hist *h, double q);

#endif

/*
 * traffic_dest.h - random variates and destination distributions of the
 * traffic models (prefix trf_dest_).
 *
 * Every generator draws from its own sim_rng (kernel/rng.h) stream, seeded
 * from (run seed, stream key) so that a model's draws depend on nothing but
 * the seed and who draws: trf_dest_stream_key names the streams.
 *
 * Destinations are member numbers 0 .. n-1. GAUSSIAN and POISSON draw again
 * while the result is outside 0 .. n-1 or equals the sender, so the law of a
 * destination d != s is p(d) / sum_{e != s, 0 <= e < n} p(e), with p the
 * law of round(Normal(mean, dev)) or of Poisson(mean) (trf_dest_prob).
 */
#ifndef NCSIM_TRAFFIC_DEST_H
#define NCSIM_TRAFFIC_DEST_H

#include <stdint.h>

#include "ncsim/traffic.h"
#include "runtime/kernel/rng.h"

/* A destination distribution with its defaults filled in, for a group of n members. */
typedef struct tdst {
	int kind;          /* RT_DEST_UNIFORM, RT_DEST_GAUSSIAN or RT_DEST_POISSON */
	int n;
	double mean, dev;
} tdst;

/* Key of the stream of (purpose, a, b), e.g. (endpoint, job, rank); feed it to sim_rng_seed. */
uint64_t trf_dest_stream_key(uint64_t purpose, uint64_t a, uint64_t b);

/* Uniform double in (0, 1]. */
double trf_dest_unif_pos(sim_rng *r);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint64_t trf_dest_below(sim_rng *r, uint64_t n);
/* Standard normal variate (Box-Muller, one of the pair). */
double trf_dest_normal(sim_rng *r);
/* Exponential variate with the given mean (>= 0). */
double trf_dest_exp(sim_rng *r, double mean);
/* Poisson variate with the given mean (>= 0): inversion below 10, PTRS (Hoermann 1993) above. */
uint64_t trf_dest_poisson(sim_rng *r, double mean);

/*
 * Resolves spec (RT_DEST_DEFAULT: use dflt, and if that is default too,
 * UNIFORM) for n members: fills the default mean n/2 and deviation n/8 and
 * checks that every sender has other members to reach with probability
 * >= 1e-4 (so redrawing ends quickly). 0, or -1 with *err (heap).
 */
int trf_dest_resolve(tdst *d, const rt_dest *spec, const rt_dest *dflt, int n, char **err);
/* Draws a destination for sender s (0 <= s < n, n >= 2). */
int trf_dest_draw(const tdst *d, sim_rng *r, int s);
/* Probability that sender s draws destination e (0 for e == s or outside 0..n-1). */
double trf_dest_prob(const tdst *d, int s, int e);
/* Lower-case name of a resolved kind ("uniform", "gaussian", "poisson"). */
const char *trf_dest_name(int kind);

#endif

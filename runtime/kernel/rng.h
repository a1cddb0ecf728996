/*
 * rng.h - the kernel's pseudo-random generator (prefix sim_rng_).
 *
 * xoshiro256** (Blackman and Vigna): 256 bits of state, period 2^256 - 1,
 * fast and statistically strong. Each entity owns one state, seeded from
 * (context seed, entity id) through splitmix64, so a stream depends on nothing
 * but those two numbers: not on how many draws other entities made, nor when.
 */
#ifndef NCSIM_RNG_H
#define NCSIM_RNG_H

#include <stdint.h>

typedef struct sim_rng {
	uint64_t s[4];
} sim_rng;

/* Seeds r with the stream of entity `id` under `seed`; never leaves the all-zero state. */
void sim_rng_seed(sim_rng *r, uint64_t seed, uint64_t id);

/* x rotated left by k bits (0 < k < 64); internal to sim_rng_next. */
static inline uint64_t sim_rng_rotl_(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Next 64 uniformly distributed bits of r. */
static inline uint64_t sim_rng_next(sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = sim_rng_rotl_(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sim_rng_rotl_(s[3], 45);
	return out;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double sim_rng_next_unif(sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* splitmix64's output function: a bijective 64-bit mixer. */
static inline uint64_t sim_rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif

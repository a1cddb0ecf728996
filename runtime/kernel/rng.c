/*
 * rng.c - seeding of the per-entity streams (see rng.h).
 */
#include "runtime/kernel/rng.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

/*
 * The seed and the id go through separate rounds of the mixer before they are
 * combined, so that (seed, id) and (seed + 1, id - 1) and similar neighbours
 * land far apart; splitmix64 then expands the combination into 256 bits.
 */
void sim_rng_seed(sim_rng *r, uint64_t seed, uint64_t id)
{
	uint64_t x = sim_rng_mix(seed + GOLDEN) ^ sim_rng_mix((id + 1) * GOLDEN + 0x632be59bd9b4e019ull);
	for (int i = 0; i < 4; i++) {
		x += GOLDEN;
		r->s[i] = sim_rng_mix(x);
	}
	if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
		r->s[0] = GOLDEN; /* xoshiro's only forbidden state */
}

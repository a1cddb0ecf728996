/*
 * random.c - the MT19937-64 generator and the random built-ins of
 * LANGUAGE.md §5.5 (RANDOM_UNIFORM, RANDOM_GAUSSIAN, RANDOM_POISSON,
 * RANDOM_PARETO) and §9.8 (the synchronised random task).
 *
 * MT19937-64 is Matsumoto and Nishimura's 64-bit Mersenne Twister (state of
 * 312 words, parameters below), seeded with its standard init_genrand64
 * recurrence. All state lives in the caller's struct ncsim_mt64, including
 * the spare deviate of the polar Box-Muller method, so two streams never
 * interfere and a run is reproducible from its seed.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "ncsim/stdlib.h"

#define NN NCSIM_MT64_NN
#define MM 156
#define MATRIX_A UINT64_C(0xB5026F5AA96619E9)
#define UPPER_MASK UINT64_C(0xFFFFFFFF80000000) /* most significant 33 bits */
#define LOWER_MASK UINT64_C(0x000000007FFFFFFF) /* least significant 31 bits */

/* The task-seed multiplier of the C backend (a large prime). */
#define TASK_SEED_PRIME UINT64_C(1083743797)

void ncsim_mt64_seed(struct ncsim_mt64 *g, uint64_t seed)
{
	g->mt[0] = seed;
	for (unsigned i = 1; i < NN; i++)
		g->mt[i] = UINT64_C(6364136223846793005) * (g->mt[i - 1] ^ (g->mt[i - 1] >> 62)) + i;
	g->idx = NN;
	g->have_spare = 0;
	g->spare = 0.0;
}

void ncsim_mt64_seed_task(struct ncsim_mt64 *g, int64_t seed, int64_t rank)
{
	ncsim_mt64_seed(g, (uint64_t)seed * TASK_SEED_PRIME + (uint64_t)rank);
}

/* One step of the twist recurrence for word i, whose successors are j and m. */
static inline uint64_t twist(uint64_t wi, uint64_t wj, uint64_t wm)
{
	uint64_t x = (wi & UPPER_MASK) | (wj & LOWER_MASK);

	/* Branch-free: the low bit is random, so a branch would mispredict half the time. */
	return wm ^ (x >> 1) ^ ((0 - (x & 1)) & MATRIX_A);
}

/* Regenerates all NN words (split loops avoid a modulo per word). */
static void regenerate(struct ncsim_mt64 *g)
{
	uint64_t *mt = g->mt;
	unsigned i;

	for (i = 0; i < NN - MM; i++)
		mt[i] = twist(mt[i], mt[i + 1], mt[i + MM]);
	for (; i < NN - 1; i++)
		mt[i] = twist(mt[i], mt[i + 1], mt[i + MM - NN]);
	mt[NN - 1] = twist(mt[NN - 1], mt[0], mt[MM - 1]);
	g->idx = 0;
}

uint64_t ncsim_mt64_next(struct ncsim_mt64 *g)
{
	uint64_t x;

	if (g->idx >= NN)
		regenerate(g);
	x = g->mt[g->idx++];
	/* Tempering. */
	x ^= (x >> 29) & UINT64_C(0x5555555555555555);
	x ^= (x << 17) & UINT64_C(0x71D67FFFEDA60000);
	x ^= (x << 37) & UINT64_C(0xFFF7EEE000000000);
	x ^= x >> 43;
	return x;
}

int64_t ncsim_mt64_next63(struct ncsim_mt64 *g)
{
	return (int64_t)(ncsim_mt64_next(g) >> 1);
}

double ncsim_mt64_res53(struct ncsim_mt64 *g)
{
	return (double)(ncsim_mt64_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

int64_t ncsim_random_uniform_i(struct ncsim_mt64 *g, int64_t lo, int64_t hi, ncsim_err *e)
{
	uint64_t span;

	if (lo >= hi)
		return ncsim_err_set(e, "RANDOM_UNIFORM requires the upper bound to be greater than the lower bound");
	/* Unsigned span: RANDOM_UNIFORM(-2^63, 2^63-1) works without overflow. */
	span = (uint64_t)hi - (uint64_t)lo;
	return (int64_t)((uint64_t)lo + ncsim_mt64_next(g) % span);
}

double ncsim_random_uniform_f(struct ncsim_mt64 *g, double lo, double hi, ncsim_err *e)
{
	if (ncsim_check_finite(lo, e) || ncsim_check_finite(hi, e))
		return 0.0;
	if (lo >= hi) {
		ncsim_err_set(e, "RANDOM_UNIFORM requires the upper bound to be greater than the lower bound");
		return 0.0;
	}
	return ncsim_mt64_res53(g) * (hi - lo) + lo;
}

double ncsim_random_gaussian_f(struct ncsim_mt64 *g, double mean, double sd, ncsim_err *e)
{
	double z, r1, r2, s, f;

	if (ncsim_check_finite(mean, e) || ncsim_check_finite(sd, e))
		return 0.0;
	if (g->have_spare) {
		z = g->spare;
		g->have_spare = 0;
	} else {
		/* Polar Box-Muller: a point uniform in the unit disc gives two deviates. */
		do {
			r1 = 2.0 * ncsim_mt64_res53(g) - 1.0;
			r2 = 2.0 * ncsim_mt64_res53(g) - 1.0;
			s = r1 * r1 + r2 * r2;
		} while (s >= 1.0 || s == 0.0);
		f = sqrt(-2.0 * log(s) / s);
		z = r1 * f;
		g->spare = r2 * f;
		g->have_spare = 1;
	}
	return z * sd + mean;
}

int64_t ncsim_random_gaussian_i(struct ncsim_mt64 *g, int64_t mean, int64_t sd, ncsim_err *e)
{
	return ncsim_trunc_to_int(ncsim_random_gaussian_f(g, (double)mean, (double)sd, e));
}

/*
 * Knuth's multiply-uniforms method costs one draw per unit of mean, and
 * exp(-mean) underflows beyond ~700. Poisson deviates add (the sum of
 * independent Poisson(a) and Poisson(b) is Poisson(a+b)), so large means are
 * drawn in chunks that keep exp(-chunk) comfortably representable.
 */
#define POISSON_CHUNK 500

int64_t ncsim_random_poisson_i(struct ncsim_mt64 *g, int64_t mean, ncsim_err *e)
{
	int64_t result = 0;

	if (mean < 0)
		return ncsim_err_set(e, "unable to take RANDOM_POISSON(%" PRId64 "); result is undefined", mean);
	while (mean > 0) {
		int64_t chunk = mean < POISSON_CHUNK ? mean : POISSON_CHUNK;
		double limit = exp(-(double)chunk);
		double p = ncsim_mt64_res53(g);

		while (p >= limit) {
			result++;
			p *= ncsim_mt64_res53(g);
		}
		mean -= chunk;
	}
	return result;
}

double ncsim_random_poisson_f(struct ncsim_mt64 *g, double mean, ncsim_err *e)
{
	if (ncsim_check_finite(mean, e))
		return 0.0;
	if (mean < 0.0) {
		ncsim_err_set(e, "unable to take RANDOM_POISSON(%g); result is undefined", mean);
		return 0.0;
	}
	/* The C backend truncates the mean in floating-point context too. */
	return (double)ncsim_random_poisson_i(g, ncsim_trunc_to_int(mean), e);
}

double ncsim_random_pareto_f(struct ncsim_mt64 *g, double shape, double lo, double hi, ncsim_err *e)
{
	double u, hs, ls;

	if (ncsim_check_finite(shape, e) || ncsim_check_finite(lo, e) || ncsim_check_finite(hi, e))
		return 0.0;
	if (shape <= 0.0 || lo <= 0.0 || lo > hi) {
		ncsim_err_set(e, "unable to take RANDOM_PARETO(%g, %g, %g); result is undefined", shape, lo, hi);
		return 0.0;
	}
	do
		u = ncsim_mt64_res53(g);
	while (u == 0.0);
	if (lo == hi)
		return lo / pow(u, 1.0 / shape);
	/* Inverse CDF of the Pareto distribution bounded to [lo, hi]. */
	hs = pow(hi, shape);
	ls = pow(lo, shape);
	return pow(-(u * hs - u * ls - hs) / (hs * ls), -1.0 / shape);
}

int64_t ncsim_random_pareto_i(struct ncsim_mt64 *g, int64_t shape, int64_t lo, int64_t hi, ncsim_err *e)
{
	double r;

	do {
		r = round(ncsim_random_pareto_f(g, (double)shape, (double)lo, (double)hi, e));
		if (e && e->failed)
			return 0;
	} while (r >= 9223372036854775808.0);
	return (int64_t)r;
}

int64_t ncsim_random_task(struct ncsim_mt64 *g, int64_t lo, int64_t hi, int64_t excl)
{
	uint64_t span, r;

	if (lo > hi)
		return -1;
	span = (uint64_t)hi - (uint64_t)lo; /* number of candidates minus one */
	if (excl < lo || excl > hi) {
		r = (uint64_t)ncsim_mt64_next63(g);
		return (int64_t)((uint64_t)lo + (span + 1 ? r % (span + 1) : r));
	}
	if (span == 0)
		return -1;
	/*
	 * Draw among the span other candidates, counting upward from just past
	 * excl and wrapping around: lo + ((excl-lo) + 1 + rand63 mod span) mod (span+1).
	 */
	r = (uint64_t)ncsim_mt64_next63(g) % span;
	r = (uint64_t)excl - (uint64_t)lo + 1 + r;
	if (span + 1)
		r %= span + 1;
	return (int64_t)((uint64_t)lo + r);
}

/*
 * traffic_dest.c - random variates and destination distributions (see traffic_dest.h).
 */
#include "runtime/traffic/dest.h"

#include <math.h>
#include <stdio.h>

#include "base/util.h"

uint64_t trf_dest_stream_key(uint64_t purpose, uint64_t a, uint64_t b)
{
	return sim_rng_mix(sim_rng_mix(sim_rng_mix(purpose) ^ a) ^ (b * 0x9e3779b97f4a7c15ull));
}

double trf_dest_unif_pos(sim_rng *r) { return 1.0 - sim_rng_next_unif(r); }

uint64_t trf_dest_below(sim_rng *r, uint64_t n)
{
	/* Reject the top partial block of 2^64 so that every residue is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = sim_rng_next(r);
	while (x >= limit);
	return x % n;
}

double trf_dest_normal(sim_rng *r)
{
	double u1 = trf_dest_unif_pos(r), u2 = sim_rng_next_unif(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double trf_dest_exp(sim_rng *r, double mean) { return -mean * log(trf_dest_unif_pos(r)); }

uint64_t trf_dest_poisson(sim_rng *r, double mean)
{
	if (mean <= 0)
		return 0;
	if (mean < 10) {
		/* Inversion by sequential search: about mean+1 steps. */
		double u = sim_rng_next_unif(r), p = exp(-mean), F = p;
		uint64_t k = 0;
		while (u > F && k < 1000) {
			k++;
			p *= mean / (double)k;
			F += p;
		}
		return k;
	}
	/* PTRS: transformed rejection with squeeze (W. Hoermann, 1993). */
	double slam = sqrt(mean), loglam = log(mean);
	double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
	double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
	for (;;) {
		double U = sim_rng_next_unif(r) - 0.5, V = sim_rng_next_unif(r);
		double us = 0.5 - fabs(U);
		double k = floor((2 * a / us + b) * U + mean + 0.43);
		if (us >= 0.07 && V <= vr)
			return (uint64_t)k;
		if (k < 0 || (us < 0.013 && V > us))
			continue;
		if (log(V) + log(invalpha) - log(a / (us * us) + b) <= -mean + k * loglam - lgamma(k + 1))
			return (uint64_t)k;
	}
}

/* ------------------------------------------------------------ destinations */

const char *trf_dest_name(int kind)
{
	return kind == RT_DEST_GAUSSIAN ? "gaussian" : kind == RT_DEST_POISSON ? "poisson" : "uniform";
}

/* Unconditioned probability of e under d (GAUSSIAN or POISSON). */
static double raw_prob(const tdst *d, int e)
{
	if (d->kind == RT_DEST_POISSON) {
		if (d->mean <= 0)
			return e == 0 ? 1.0 : 0.0;
		return exp(-d->mean + e * log(d->mean) - lgamma(e + 1.0));
	}
	if (d->dev <= 0)
		return (double)e == round(d->mean) ? 1.0 : 0.0;
	double s = d->dev * M_SQRT2;
	/* P(e - 1/2 <= X < e + 1/2), written with erfc so that both tails keep their precision. */
	double lo = (e - 0.5 - d->mean) / s, hi = (e + 0.5 - d->mean) / s;
	if (lo >= 0)
		return 0.5 * (erfc(lo) - erfc(hi));
	return 0.5 * (erfc(-hi) - erfc(-lo));
}

int trf_dest_resolve(tdst *d, const rt_dest *spec, const rt_dest *dflt, int n, char **err)
{
	const rt_dest *s = spec->kind != RT_DEST_DEFAULT ? spec : dflt && dflt->kind != RT_DEST_DEFAULT ? dflt : NULL;
	*d = (tdst){.kind = s ? s->kind : RT_DEST_UNIFORM, .n = n};
	if (d->kind != RT_DEST_UNIFORM && d->kind != RT_DEST_GAUSSIAN && d->kind != RT_DEST_POISSON) {
		*err = xasprintf("unknown destination distribution %d", d->kind);
		return -1;
	}
	if (n < 2) {
		*err = xasprintf("traffic needs at least 2 members to have destinations (the group has %d)", n);
		return -1;
	}
	if (d->kind == RT_DEST_UNIFORM)
		return 0;
	d->mean = s->has_mean ? s->mean : n / 2.0;
	d->dev = s->has_dev ? s->dev : n / 8.0;
	if (!isfinite(d->mean) || !isfinite(d->dev) || d->dev < 0 || (d->kind == RT_DEST_POISSON && d->mean < 0)) {
		*err = xasprintf("%s destinations: invalid mean %g or deviation %g", trf_dest_name(d->kind), d->mean, d->dev);
		return -1;
	}
	double total = 0, worst = 0;
	for (int e = 0; e < n; e++) {
		double p = raw_prob(d, e);
		total += p;
		worst = p > worst ? p : worst;
	}
	/* The sender that loses the most is the one on the likeliest member. */
	if (total - worst < 1e-4) {
		char dev[64] = "";
		if (d->kind == RT_DEST_GAUSSIAN)
			snprintf(dev, sizeof dev, " and deviation %g", d->dev);
		*err = xasprintf("%s destinations with mean %g%s reach members 0..%d other than the sender "
		                 "with probability %.3g; at least 1e-4 is needed",
		                 trf_dest_name(d->kind), d->mean, dev, n - 1, total - worst);
		return -1;
	}
	return 0;
}

int trf_dest_draw(const tdst *d, sim_rng *r, int s)
{
	if (d->kind == RT_DEST_UNIFORM) {
		int e = (int)trf_dest_below(r, (uint64_t)d->n - 1);
		return e >= s ? e + 1 : e;
	}
	for (;;) {
		double x;
		if (d->kind == RT_DEST_GAUSSIAN) {
			x = round(d->mean + d->dev * trf_dest_normal(r));
		} else {
			uint64_t k = trf_dest_poisson(r, d->mean);
			x = k > (uint64_t)d->n ? (double)d->n : (double)k;
		}
		if (x >= 0 && x < d->n && (int)x != s)
			return (int)x;
	}
}

double trf_dest_prob(const tdst *d, int s, int e)
{
	if (e == s || e < 0 || e >= d->n)
		return 0;
	if (d->kind == RT_DEST_UNIFORM)
		return 1.0 / (d->n - 1);
	double total = 0;
	for (int k = 0; k < d->n; k++)
		if (k != s)
			total += raw_prob(d, k);
	return raw_prob(d, e) / total;
}

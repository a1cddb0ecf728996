/*
 * storage_bench.c - device-level validation of the storage presets.
 *
 * Runs the published validation workloads on one device model at a time, one
 * request outstanding (each request is issued when the previous completes):
 *   seq-write / seq-read  : a 512 MiB file in 512 KiB records, offsets 0, 512 KiB, ...
 *   rand-write / rand-read: 4 KiB pages at uniformly random 4 KiB-aligned offsets
 *                           of a 512 MiB file, 131072 requests (one file's worth)
 * Each workload starts on a fresh, idle device. MB/s is 10^6 bytes per second.
 * Prints each figure next to its published target and the deviation, and exits
 * 1 if any figure is more than --tolerance percent (default 10) away.
 *
 * Usage: storage_bench [--seed N] [--tolerance PCT] [--device NAME]...
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/storage/device.h"

#define FILE_BYTES (512ull << 20)
#define SEQ_RECORD (512ull << 10)
#define RAND_PAGE 4096ull
#define RAND_COUNT (FILE_BYTES / RAND_PAGE)

/* Published measurements the presets must reproduce. */
struct target {
	const char *device;
	double seq_read_mbs, seq_write_mbs, rand_read_iops, rand_write_iops;
};
static const struct target targets[] = {
	{ "d3-s4510", 408.69, 378.96, 8906.43, 13772.85 },
	{ "st2000nx0253", 123.33, 129.00, 122.74, 577.91 },
};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unif(uint64_t *s)
{
	return (double)(splitmix(s) >> 11) * 0x1.0p-53;
}

/* Closed loop, queue depth 1. Returns the elapsed simulated time in seconds. */
static double run(const sto_dev_params *p, int is_write, int random, uint64_t seed, uint64_t *nreq_out)
{
	sto_dev d;
	sto_dev_init(&d, p);
	uint64_t rng = seed;
	ncsim_time_t t = 0;
	uint64_t n = random ? RAND_COUNT : FILE_BYTES / SEQ_RECORD;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off, len;
		if (random) {
			off = (splitmix(&rng) % (FILE_BYTES / RAND_PAGE)) * RAND_PAGE;
			len = RAND_PAGE;
		} else {
			off = i * SEQ_RECORD;
			len = SEQ_RECORD;
		}
		t = sto_dev_access(&d, t, is_write, off, len, unif(&rng));
	}
	sto_dev_fini(&d);
	*nreq_out = n;
	return (double)t * 1e-12;
}

static int report(const char *dev, const char *what, double got, double want, const char *unit, double tol)
{
	double dev_pct = (got - want) / want * 100;
	int ok = fabs(dev_pct) <= tol;
	printf("%-14s %-11s %10.2f %-5s target %10.2f  %+6.2f%%  %s\n", dev, what, got, unit, want, dev_pct,
	       ok ? "ok" : "OUT OF TOLERANCE");
	return ok;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	double tol = 10;
	const char *only[8];
	int nonly = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--tolerance") == 0 && i + 1 < argc)
			tol = atof(argv[++i]);
		else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc && nonly < 8)
			only[nonly++] = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--seed N] [--tolerance PCT] [--device NAME]...\n", argv[0]);
			return 2;
		}
	}
	int all_ok = 1;
	printf("%-14s %-11s %10s %-5s %17s  %7s\n", "device", "workload", "model", "", "published", "dev");
	for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
		const struct target *tg = &targets[k];
		int want = nonly == 0;
		for (int j = 0; j < nonly; j++)
			want |= strcmp(only[j], tg->device) == 0;
		if (!want)
			continue;
		sto_dev_params p;
		char *err = NULL;
		if (sto_dev_params_load(NULL, tg->device, &p, &err) < 0) {
			fprintf(stderr, "storage_bench: %s\n", err);
			free(err);
			return 2;
		}
		uint64_t n;
		double s;
		s = run(&p, 1, 0, seed, &n);
		all_ok &= report(tg->device, "seq-write", (double)FILE_BYTES / s / 1e6, tg->seq_write_mbs, "MB/s", tol);
		s = run(&p, 0, 0, seed, &n);
		all_ok &= report(tg->device, "seq-read", (double)FILE_BYTES / s / 1e6, tg->seq_read_mbs, "MB/s", tol);
		s = run(&p, 1, 1, seed, &n);
		all_ok &= report(tg->device, "rand-write", (double)n / s, tg->rand_write_iops, "IOPS", tol);
		s = run(&p, 0, 1, seed, &n);
		all_ok &= report(tg->device, "rand-read", (double)n / s, tg->rand_read_iops, "IOPS", tol);
	}
	return all_ok ? 0 : 1;
}

/*
 * test_coll_select.c - the selectors of runtime/coll/select.c pick the
 * documented algorithm on both sides of every threshold (doc/collectives.md).
 *
 * Open MPI: the decision bands below are typed from Open MPI 5.0.10's
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (commutative branches), in
 * the library's own algorithm numbers. "N: a t1 b t2 c" reads: for P < N
 * (N = *: any larger P), S < t1 gives a, S < t2 gives b, else c. Every band
 * is probed at its smallest and largest P and every threshold at t-1 and t;
 * the expected ncsim algorithm is the number's name in the mapping table of
 * doc/collectives.md after the fallbacks Open MPI takes inside the
 * algorithm (written out in ompi_expect). MPICH: explicit probes around each
 * rule of MPICH 5.0.1's maint/tuning/coll/mpir/generic.json.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/coll.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ Open MPI */

typedef struct ompi_case {
	enum coll_kind kind;
	const char *const *bands;    /* NULL-terminated */
	const char *const *names;    /* ncsim name of library algorithm i (index 0 unused) */
} ompi_case;

static const char *const allreduce_bands[] = {
	"4: 4 8 3 4096 4 8192 3 16384 4 65536 5 262144 6", "8: 4 16 3 8192 6", "16: 3 8192 6",
	"32: 5 64 3 4096 6", "64: 5 128 6", "128: 3 262144 6", "256: 2 131072 3 262144 6", "512: 2 4096 6",
	"2048: 2 2048 3 16384 6", "4096: 2 2048 5 4096 3 16384 6", "*: 2 2048 5 16384 3 32768 6", NULL,
};
static const char *const allreduce_names[] = {
	"", "linear", "reduce_bcast", "recursive_doubling", "ring", "segmented_ring", "rabenseifner",
};

static const char *const alltoall_bands[] = {
	"3: 2 2 5 4 2 16 5 64 2 256 5 4096 2 32768 4 262144 5 1048576 2",
	"8: 4 8192 1 16384 4 65536 1 524288 2 1048576 1", "16: 4 262144 1",
	"32: 4 4 3 512 4 8192 1 32768 4 262144 1 524288 4", "64: 3 512 1 524288 4",
	"128: 3 1024 1 2048 4 4096 1 262144 2", "256: 3 1024 4 2048 1 262144 2", "512: 3 1024 4 8192 1 32768 2",
	"1024: 3 512 4 8192 1 16384 4 131072 1 262144 2", "2048: 3 512 4 1024 1 2048 4 16384 1 262144 4",
	"4096: 3 1024 4 4096 1 8192 4 131072 1", "*: 3 2048 4 8192 1 16384 4 32768 1 65536 4", NULL,
};
static const char *const alltoall_names[] = { "", "linear", "pairwise", "bruck", "linear", "pairwise" };

static const char *const barrier_bands[] = {
	"4: 3", "8: 1", "64: 3", "256: 4", "512: 6", "1024: 4", "4096: 6", "*: 4", NULL,
};
static const char *const barrier_names[] = {
	"", "linear", "double_ring", "recursive_doubling", "dissemination", "two_proc", "binomial",
};

static const char *const bcast_bands[] = {
	"4: 3 32 5 256 3 512 7 1024 1 32768 5 131072 2 262144 1 524288 6 1048576 5",
	"8: 5 64 6 128 5 2048 6 8192 1 1048576 2", "16: 7 8 5 64 7 4096 5 16384 6 32768 1",
	"32: 7 4096 6 1048576 8", "64: 6 2048 7", "128: 7", "256: 6 2 5 16384 1 32768 5 65536 7",
	"1024: 7 16384 4 32768 7", "2048: 7 524288 8", "4096: 7 262144 8", "*: 7 8192 5 16384 7 262144 8", NULL,
};
static const char *const bcast_names[] = {
	"", "linear", "chain", "chain", "binary", "binary", "binomial", "knomial", "scatter_recursive_doubling",
	"scatter_ring",
};

static const char *const reduce_bands[] = {
	"4: 7 8 4 16 3 32 1 262144 3 524288 2 1048576 3", "8: 4 4096 2 65536 5 262144 1 524288 5 1048576 1",
	"16: 4 8192 5", "32: 4 4096 5", "256: 5", "512: 5 8192 6 16384 5", "2048: 5",
	"4096: 5 512 6 1024 5 8192 6 16384 5", "*: 5 16 6 32 5 1024 6 2048 5 8192 6 16384 5", NULL,
};
static const char *const reduce_names[] = {
	"", "linear", "chain", "chain", "binary", "binomial", "binary", "rabenseifner",
};

static const char *const redscat_bands[] = {
	"4: 3 65536 4 131072 3", "8: 1 8 2 262144 3", "32: 2 262144 3", "64: 1 64 2 2048 4 524288 3",
	"128: 1 256 2 512 4 2048 2 4096 4", "256: 1 256 2 512 4", "512: 1 256 2 1024 4",
	"1024: 1 512 2 2048 4 8192 2 16384 4", "2048: 1 512 2 4096 4 16384 2 32768 4", "4096: 1 512 2 4096 4",
	"*: 1 1024 2 8192 4", NULL,
};
static const char *const redscat_names[] = {
	"", "reduce_scatterv", "recursive_halving", "ring", "recursive_halving",
};

static const char *const allgather_bands[] = {
	"3: 6", "32: 3", "64: 3 1024 5 65536 4", "128: 3 512 5 65536 4",
	"256: 3 512 5 131072 4 524288 5 1048576 4", "512: 3 32 2 128 3 1024 5 131072 4 524288 5 1048576 4",
	"1024: 3 64 2 256 3 2048 5", "2048: 3 4 2 8 3 16 2 32 3 256 2 512 3 4096 5",
	"4096: 2 32 3 128 2 512 3 4096 5", "*: 3 2 2 8 3 16 2 512 3 4096 5", NULL,
};
static const char *const allgather_names[] = {
	"", "linear", "bruck", "recursive_doubling", "ring", "neighbor_exchange", "ring",
};

static const char *const gather_bands[] = {
	"4: 3 2 1 4 2 32768 1 65536 2 131072 3", "8: 2 1024 1 8192 2 32768 1 262144 3", "256: 2",
	"512: 2 2048 1 8192 2", "*: 2", NULL,
};
static const char *const scatter_bands[] = {
	"4: 3 2 1 131072 3 262144 1", "8: 2 2048 1 4096 2 8192 1 32768 3 1048576 1", "16: 2 16384 3 1048576 1",
	"32: 2 16384 1 32768 3", "64: 2 512 3 8192 2 16384 3", "*: 2 512 3", NULL,
};
static const char *const tree_names[] = { "", "linear", "binomial", "linear" };

static const ompi_case ompi_cases[] = {
	{COLL_ALLREDUCE, allreduce_bands, allreduce_names}, {COLL_ALLTOALL, alltoall_bands, alltoall_names},
	{COLL_BARRIER, barrier_bands, barrier_names}, {COLL_BCAST, bcast_bands, bcast_names},
	{COLL_REDUCE, reduce_bands, reduce_names}, {COLL_REDUCE_SCATTER, redscat_bands, redscat_names},
	{COLL_ALLGATHER, allgather_bands, allgather_names}, {COLL_GATHER, gather_bands, tree_names},
	{COLL_SCATTER, scatter_bands, tree_names},
};

static long pof2(long P)
{
	long p = 1;
	while (p * 2 <= P)
		p *= 2;
	return p;
}

/*
 * What runs for library choice `name` (Open MPI's algorithms with the rules'
 * segment size 0, 8-byte elements): the segmented ring without segments is
 * the ring; the ring needs a count of at least P, else recursive doubling;
 * Rabenseifner a count of at least pof2, else linear; the scatter +
 * allgather broadcasts a count of at least P, else linear.
 */
static const char *ompi_expect(enum coll_kind k, const char *name, long P, unsigned long long S)
{
	unsigned long long count = S / 8;
	if (k == COLL_ALLREDUCE) {
		if (!strcmp(name, "segmented_ring"))
			name = "ring";
		if (!strcmp(name, "ring") && count < (unsigned long long)P)
			return "recursive_doubling";
		if (!strcmp(name, "rabenseifner") && count < (unsigned long long)pof2(P))
			return "linear";
	}
	if (k == COLL_REDUCE && !strcmp(name, "rabenseifner") && count < (unsigned long long)pof2(P))
		return "linear";
	if (k == COLL_BCAST && !strncmp(name, "scatter_", 8) && count < (unsigned long long)P)
		return "linear";
	return name;
}

/* The library choice of band `b` for size S. */
static const char *band_choice(const char *b, unsigned long long S, const char *const *names)
{
	const char *p = strchr(b, ':') + 1;
	for (;;) {
		char *end;
		long alg = strtol(p, &end, 10);
		p = end;
		unsigned long long t = strtoull(p, &end, 10);
		if (end == p || S < t)
			return names[alg];
		p = end;
	}
}

/* Checks the choice for (P, S) against band b; returns 1 if it matches. */
static int probe(const coll_config *cfg, const ompi_case *c, const char *b, long P, unsigned long long S)
{
	const char *want = ompi_expect(c->kind, band_choice(b, S, c->names), P, S);
	coll_choice got = coll_choose(cfg, c->kind, (int)P, S);
	if (!strcmp(want, coll_alg_name(got.alg)) && got.segment == 0)
		return 1;
	fprintf(stderr, "ompi %s, P = %ld, S = %llu: got %s (segment %llu), expected %s\n", coll_kind_name(c->kind),
	        P, S, coll_alg_name(got.alg), (unsigned long long)got.segment, want);
	return 0;
}

static void test_ompi(void)
{
	coll_config cfg;
	coll_config_default(&cfg);
	cfg.selector = COLL_SEL_OMPI;
	int probes = 0, bad = 0;
	for (size_t i = 0; i < sizeof ompi_cases / sizeof ompi_cases[0]; i++) {
		const ompi_case *c = &ompi_cases[i];
		long lo = 2;
		for (const char *const *b = c->bands; *b; b++) {
			long hi = **b == '*' ? 2 * lo + 5 : strtol(*b, NULL, 10); /* P < hi */
			const long Ps[2] = {lo, hi - 1};
			for (int j = 0; j < 2; j++) {
				bad += !probe(&cfg, c, *b, Ps[j], 0);
				probes++;
				/* Both sides of every threshold of the band. */
				for (const char *p = strchr(*b, ':') + 1; *p;) {
					char *end;
					strtol(p, &end, 10);
					unsigned long long t = strtoull(end, &end, 10);
					if (!t)
						break;
					bad += !probe(&cfg, c, *b, Ps[j], t - 1) + !probe(&cfg, c, *b, Ps[j], t);
					probes += 2;
					p = end;
				}
			}
			lo = hi;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(probes > 600);
}

/* ------------------------------------------------------------ MPICH */

typedef struct mpich_probe {
	enum coll_kind kind;
	int P;
	unsigned long long S;
	const char *want;
} mpich_probe;

static const mpich_probe mpich_probes[] = {
	/* bcast: binomial for P < 8 or S <= 12288; P a power of two: scatter + recursive doubling up to
	 * 524288; otherwise scatter + ring */
	{COLL_BCAST, 7, 4000000, "binomial"}, {COLL_BCAST, 8, 12288, "binomial"},
	{COLL_BCAST, 8, 12289, "scatter_recursive_doubling"}, {COLL_BCAST, 8, 524288, "scatter_recursive_doubling"},
	{COLL_BCAST, 8, 524289, "scatter_ring"}, {COLL_BCAST, 9, 12288, "binomial"},
	{COLL_BCAST, 9, 12289, "scatter_ring"}, {COLL_BCAST, 1024, 524288, "scatter_recursive_doubling"},
	{COLL_BCAST, 1000, 13000, "scatter_ring"},
	/* allreduce: recursive doubling for S <= 8 or count < pof2, else Rabenseifner */
	{COLL_ALLREDUCE, 1, 8, "recursive_doubling"}, {COLL_ALLREDUCE, 1, 9, "rabenseifner"},
	{COLL_ALLREDUCE, 2, 15, "recursive_doubling"}, {COLL_ALLREDUCE, 2, 16, "rabenseifner"},
	{COLL_ALLREDUCE, 8, 56, "recursive_doubling"}, {COLL_ALLREDUCE, 8, 64, "rabenseifner"},
	{COLL_ALLREDUCE, 15, 56, "recursive_doubling"}, {COLL_ALLREDUCE, 15, 64, "rabenseifner"},
	{COLL_ALLREDUCE, 300, 2040, "recursive_doubling"}, {COLL_ALLREDUCE, 300, 2048, "rabenseifner"},
	{COLL_ALLREDUCE, 300, 28150000, "rabenseifner"},
	/* allgather, total = P*S: a power of two: recursive doubling below 524288, else ring; otherwise
	 * Bruck below 81920, else ring */
	{COLL_ALLGATHER, 8, 65535, "recursive_doubling"}, {COLL_ALLGATHER, 8, 65536, "ring"},
	{COLL_ALLGATHER, 10, 8191, "bruck"}, {COLL_ALLGATHER, 10, 8192, "ring"},
	{COLL_ALLGATHER, 3, 27306, "bruck"}, {COLL_ALLGATHER, 3, 27307, "ring"},
	/* reduce: binomial for S <= 2048 or count < pof2, else Rabenseifner */
	{COLL_REDUCE, 4, 2048, "binomial"}, {COLL_REDUCE, 4, 2049, "rabenseifner"},
	{COLL_REDUCE, 512, 4088, "binomial"}, {COLL_REDUCE, 512, 4096, "rabenseifner"},
	/* reduce-scatter (commutative): recursive halving below 524288 in total, else pairwise */
	{COLL_REDUCE_SCATTER, 5, 524287, "recursive_halving"}, {COLL_REDUCE_SCATTER, 5, 524288, "pairwise"},
	/* alltoall: P < 8: scattered (throttled) up to 32768, else pairwise; from 8: Bruck up to 256 */
	{COLL_ALLTOALL, 7, 256, "throttled"}, {COLL_ALLTOALL, 7, 32768, "throttled"},
	{COLL_ALLTOALL, 7, 32769, "pairwise"}, {COLL_ALLTOALL, 8, 256, "bruck"}, {COLL_ALLTOALL, 8, 257, "throttled"},
	{COLL_ALLTOALL, 8, 32768, "throttled"}, {COLL_ALLTOALL, 8, 32769, "pairwise"},
	/* one algorithm each */
	{COLL_BARRIER, 5, 0, "dissemination"}, {COLL_GATHER, 100, 1 << 20, "binomial"},
	{COLL_SCATTER, 3, 1, "binomial"},
};

static void test_mpich(void)
{
	coll_config cfg;
	coll_config_default(&cfg);
	cfg.selector = COLL_SEL_MPICH;
	for (size_t i = 0; i < sizeof mpich_probes / sizeof mpich_probes[0]; i++) {
		const mpich_probe *p = &mpich_probes[i];
		coll_choice c = coll_choose(&cfg, p->kind, p->P, p->S);
		if (strcmp(coll_alg_name(c.alg), p->want))
			fprintf(stderr, "mpich %s, P = %d, S = %llu: got %s, expected %s\n", coll_kind_name(p->kind), p->P,
			        p->S, coll_alg_name(c.alg), p->want);
		CU_ASSERT_STRING_EQUAL(coll_alg_name(c.alg), p->want);
		CU_ASSERT_EQUAL(c.segment, cfg.segment);
	}
}

/* ------------------------------------------------------------ fixed, keys */

static void test_fixed(void)
{
	coll_config cfg;
	coll_config_default(&cfg);
	static const char *const want[COLL_NKINDS] = {
		[COLL_BARRIER] = "dissemination", [COLL_BCAST] = "binomial", [COLL_REDUCE] = "binomial",
		[COLL_ALLGATHER] = "ring", [COLL_REDUCE_SCATTER] = "ring", [COLL_ALLTOALL] = "pairwise",
		[COLL_GATHER] = "binomial", [COLL_SCATTER] = "binomial",
	};
	for (int k = 0; k < COLL_NKINDS; k++)
		if (k != COLL_ALLREDUCE)
			CU_ASSERT_STRING_EQUAL(coll_alg_name(coll_choose(&cfg, k, 33, 1 << 20).alg), want[k]);
	/* allreduce: the ring from allreduce_ring_threshold (64 KiB) up */
	CU_ASSERT_STRING_EQUAL(coll_alg_name(coll_choose(&cfg, COLL_ALLREDUCE, 300, 65535).alg), "recursive_doubling");
	CU_ASSERT_STRING_EQUAL(coll_alg_name(coll_choose(&cfg, COLL_ALLREDUCE, 300, 65536).alg), "ring");
	cfg.allreduce_ring_threshold = 1000;
	CU_ASSERT_STRING_EQUAL(coll_alg_name(coll_choose(&cfg, COLL_ALLREDUCE, 3, 999).alg), "recursive_doubling");
	CU_ASSERT_STRING_EQUAL(coll_alg_name(coll_choose(&cfg, COLL_ALLREDUCE, 3, 1000).alg), "ring");
}

/* A key wins over every selector, and runs with the configured segment size. */
static void test_key_overrides(void)
{
	for (int sel = COLL_SEL_FIXED; sel <= COLL_SEL_OMPI; sel++) {
		coll_config cfg;
		coll_config_default(&cfg);
		cfg.selector = sel;
		cfg.segment = 4096;
		cfg.alg[COLL_BCAST] = COLL_BCAST_CHAIN;
		coll_choice c = coll_choose(&cfg, COLL_BCAST, 300, 28150000);
		CU_ASSERT_EQUAL(c.alg, COLL_BCAST_CHAIN);
		CU_ASSERT_EQUAL(c.segment, 4096);
		CU_ASSERT_STRING_EQUAL(coll_selector_name(sel), sel == COLL_SEL_FIXED ? "fixed" :
		                                                sel == COLL_SEL_MPICH ? "mpich" : "ompi");
	}
}

/* Every algorithm's name belongs to its collective, and the names of one collective differ. */
static void test_names(void)
{
	for (int a = 1; a < COLL_NALGS; a++) {
		CU_ASSERT(coll_alg_kind(a) < COLL_NKINDS);
		for (int b = a + 1; b < COLL_NALGS; b++)
			if (coll_alg_kind(a) == coll_alg_kind(b))
				CU_ASSERT(strcmp(coll_alg_name(a), coll_alg_name(b)) != 0);
	}
	CU_ASSERT_STRING_EQUAL(coll_alg_name(COLL_AUTO), "auto");
	CU_ASSERT_STRING_EQUAL(coll_kind_name(COLL_REDUCE_SCATTER), "reduce_scatter");
}

int main(void)
{
	static const ut_test tests[] = {
		{"names", test_names},
		{"fixed", test_fixed},
		{"keys override the selector", test_key_overrides},
		{"mpich at every threshold", test_mpich},
		{"ompi at every threshold", test_ompi},
		{NULL, NULL},
	};
	return ut_run("coll select", tests);
}

/*
 * test_coll.c - the collectives (runtime/coll/coll.h): every algorithm of
 * every collective on every group size 1..33, on the whole job, on a strict
 * subset (odd ranks) and on two groups running concurrently (even and odd
 * ranks). Each run must finish (no deadlock) and put exactly the number of
 * messages and bytes of coll.h's closed forms on the network; the
 * [collectives] section must load, reach the public calls and reject bad
 * values. Times on the analytic network: test_coll_time.c; the selectors'
 * decisions: test_coll_select.c.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "ncsim/union.h"
#include "runtime/net/net.h"
#include "tests/unit/coll_prog.h"

/* ------------------------------------------------------------ formulas */

static uint64_t ceil_log2(uint64_t P)
{
	uint64_t l = 0;
	while ((1ULL << l) < P)
		l++;
	return l;
}

/* The number of 1 bits of v: the depth of member v in a binomial tree rooted at 0. */
static uint64_t ones(uint64_t v)
{
	uint64_t n = 0;
	for (; v; v >>= 1)
		n += v & 1;
	return n;
}

/* B(n): total binomial-tree hops, sum of ones(v) for v in 1..n-1. */
static uint64_t hops(uint64_t n)
{
	uint64_t h = 0;
	for (uint64_t v = 1; v < n; v++)
		h += ones(v);
	return h;
}

/* Balanced block k of S cut n ways. */
static uint64_t block(uint64_t S, uint64_t n, uint64_t k) { return S / n + (k < S % n); }

/* Segments of S bytes in pieces of seg (one when seg is 0 or not below S). */
static uint64_t nseg(uint64_t S, uint64_t seg) { return seg && S > seg ? (S + seg - 1) / seg : 1; }

typedef struct expect {
	uint64_t msgs, bytes;
} expect;

/* The group's power-of-two core: pof2, rem = P - pof2, lg = log2(pof2). */
typedef struct core {
	uint64_t pof2, rem, lg;
} core;

static core core_of(uint64_t P)
{
	core c = {1, 0, 0};
	while (c.pof2 * 2 <= P) {
		c.pof2 *= 2;
		c.lg++;
	}
	c.rem = P - c.pof2;
	return c;
}

static expect barrier_formula(uint64_t p, int alg)
{
	core c = core_of(p);
	switch (alg) {
	case COLL_BARRIER_DISSEMINATION: return (expect){p * ceil_log2(p), 0};
	case COLL_BARRIER_RECDBL: return (expect){c.pof2 * c.lg + 2 * c.rem, 0};
	default: return (expect){2 * (p - 1), 0}; /* tree, binomial, linear */
	}
}

static expect bcast_formula(uint64_t p, uint64_t S, int alg, uint64_t seg)
{
	core c = core_of(p);
	switch (alg) {
	case COLL_BCAST_BINOMIAL:
	case COLL_BCAST_LINEAR: return (expect){p - 1, (p - 1) * S};
	case COLL_BCAST_SCATTER_RECDBL:
	case COLL_BCAST_SCATTER_RING: {
		/* Scatter: blocks of S = qP + r along the binomial tree; then an allgather of (P-1)*S. */
		uint64_t scatter = S / p * hops(p) + hops(S % p);
		uint64_t ag = alg == COLL_BCAST_SCATTER_RECDBL && c.rem == 0 ? p * c.lg : p * (p - 1);
		return (expect){(p - 1) + ag, scatter + (p - 1) * S};
	}
	default: return (expect){(p - 1) * nseg(S, seg), (p - 1) * S}; /* chain, binary, knomial */
	}
}

static expect reduce_formula(uint64_t p, uint64_t S, int alg, uint64_t seg, uint64_t root)
{
	core c = core_of(p);
	switch (alg) {
	case COLL_REDUCE_RABENSEIFNER: {
		/* For pof2 | S; x: the root sat out (odd, below 2 rem) and gets block 0 first. */
		uint64_t x = root % 2 == 1 && root < 2 * c.rem;
		return (expect){c.rem + c.pof2 * c.lg + c.pof2 - 1 + x,
		                c.rem * S + (c.pof2 - 1) * S + c.lg * S / 2 + x * S / c.pof2};
	}
	case COLL_REDUCE_CHAIN:
	case COLL_REDUCE_BINARY: return (expect){(p - 1) * nseg(S, seg), (p - 1) * S};
	default: return (expect){p - 1, (p - 1) * S}; /* binomial, linear */
	}
}

static expect allreduce_formula(uint64_t p, uint64_t S, int alg, uint64_t seg)
{
	core c = core_of(p);
	switch (alg) {
	case COLL_ALLREDUCE_RECDBL: {
		uint64_t m = 2 * c.rem + c.pof2 * c.lg;
		return (expect){m, m * S};
	}
	case COLL_ALLREDUCE_RING: return (expect){2 * p * (p - 1), 2 * (p - 1) * S};
	case COLL_ALLREDUCE_SEGRING: {
		uint64_t big = (S + p - 1) / p, F = seg && big > seg ? (big + seg - 1) / seg : 1;
		return (expect){p * (p - 1) * (F + 1), 2 * (p - 1) * S};
	}
	case COLL_ALLREDUCE_RABENSEIFNER:
		return (expect){2 * c.rem + 2 * c.pof2 * c.lg, 2 * c.rem * S + 2 * (c.pof2 - 1) * S};
	default: return (expect){2 * (p - 1), 2 * (p - 1) * S}; /* reduce + bcast (binomial), linear */
	}
}

static expect allgather_formula(uint64_t p, uint64_t S, int alg)
{
	core c = core_of(p);
	uint64_t bytes = p * (p - 1) * S;
	switch (alg) {
	case COLL_ALLGATHER_RECDBL: return (expect){c.rem ? p * ceil_log2(p) : p * c.lg, bytes};
	case COLL_ALLGATHER_BRUCK: return (expect){p * ceil_log2(p), bytes};
	case COLL_ALLGATHER_NEIGHBOR: return (expect){p % 2 ? p * (p - 1) : p * p / 2, bytes};
	default: return (expect){p * (p - 1), bytes};
	}
}

static expect redscat_formula(uint64_t p, uint64_t S, int alg)
{
	core c = core_of(p);
	switch (alg) {
	case COLL_REDSCAT_HALVING: {
		uint64_t back = 0;
		for (uint64_t j = 0; j < c.rem; j++)
			back += block(S, p, 2 * j);
		return (expect){2 * c.rem + c.pof2 * c.lg, c.rem * S + (c.pof2 - 1) * S + back};
	}
	case COLL_REDSCAT_REDUCE_SCATTERV: return (expect){2 * (p - 1), (p - 1) * S + S - block(S, p, 0)};
	default: return (expect){p * (p - 1), (p - 1) * S}; /* pairwise, ring */
	}
}

static expect alltoall_formula(uint64_t p, uint64_t S, int alg)
{
	if (alg == COLL_ALLTOALL_BRUCK)
		return (expect){p * ceil_log2(p), p * hops(p) * S};
	return (expect){p * (p - 1), p * (p - 1) * S};
}

/* gather, gatherv and scatter: P-1 messages; blocks travel once (linear) or popcount(v) hops. */
static expect tree_formula(int kind, uint64_t p, uint64_t S, int alg, uint64_t root)
{
	int linear = alg == COLL_GATHER_LINEAR || alg == COLL_SCATTER_LINEAR;
	expect e = {p - 1, 0};
	if (kind != K_GATHERV) {
		e.bytes = (linear ? p - 1 : hops(p)) * S;
		return e;
	}
	for (uint64_t j = 0; j < p; j++) {
		uint64_t v = (j - root + p) % p;
		e.bytes += cp_gv((int)j, S) * (linear ? (v != 0) : ones(v));
	}
	return e;
}

static expect reduce_to_formula(uint64_t p, uint64_t S)
{
	uint64_t u = 0, r = 0, snd = 0;
	for (uint64_t j = 0; j < p; j++) {
		u += (3 * j < 2 * p) || (3 * j >= p);
		r += (3 * j >= p);
		snd += (3 * j < 2 * p);
	}
	if (snd == 0 || r == 0)
		return (expect){0, 0}; /* §8.5: nothing happens unless both sets are non-empty */
	return (expect){(u - 1) + (r - 1), (u + r - 2) * S};
}

/* What the fixed selector runs (doc/collectives.md), for the runs that leave the choice to it. */
static int fixed_choice(int kind, uint64_t S)
{
	static const int alg[K_NKINDS] = {
		[K_BARRIER] = COLL_BARRIER_DISSEMINATION, [K_BCAST] = COLL_BCAST_BINOMIAL,
		[K_REDUCE] = COLL_REDUCE_BINOMIAL, [K_ALLGATHER] = COLL_ALLGATHER_RING,
		[K_REDSCAT] = COLL_REDSCAT_RING, [K_ALLTOALL] = COLL_ALLTOALL_PAIRWISE,
		[K_GATHER] = COLL_GATHER_BINOMIAL, [K_GATHERV] = COLL_GATHER_BINOMIAL,
		[K_SCATTER] = COLL_SCATTER_BINOMIAL,
	};
	if (kind == K_ALLREDUCE)
		return S >= 64 * 1024 ? COLL_ALLREDUCE_RING : COLL_ALLREDUCE_RECDBL;
	return alg[kind];
}

/* The closed forms of coll.h for one group of P members. */
static expect formula(const cp_args *in, int P)
{
	cp_args x = *in;
	const cp_args *a = &x;
	if (x.alg <= 0)
		x.alg = fixed_choice(x.kind, x.S);
	uint64_t p = (uint64_t)P, S = a->S, root = (uint64_t)(a->rootsel % P);
	expect e = {0, 0};
	switch (a->kind) {
	case K_BARRIER: return P > 1 ? barrier_formula(p, a->alg) : e;
	case K_BCAST: return P > 1 ? bcast_formula(p, S, a->alg, a->seg) : e;
	case K_REDUCE: return P > 1 ? reduce_formula(p, S, a->alg, a->seg, root) : e;
	case K_VALUE: return P > 1 ? allreduce_formula(p, 8, COLL_ALLREDUCE_RECDBL, 0) : e;
	case K_ALLREDUCE: return P > 1 ? allreduce_formula(p, S, a->alg, a->seg) : e;
	case K_ALLGATHER: return P > 1 ? allgather_formula(p, S, a->alg) : e;
	case K_REDSCAT: return P > 1 ? redscat_formula(p, S, a->alg) : e;
	case K_ALLTOALL: return P > 1 ? alltoall_formula(p, S, a->alg) : e;
	case K_ALLTOALLV:
		for (int i = 0; i < P; i++)
			for (int j = 0; j < P; j++)
				if (i != j && cp_a2av(i, j, S)) {
					e.msgs++;
					e.bytes += cp_a2av(i, j, S);
				}
		return e;
	case K_GATHER:
	case K_GATHERV:
	case K_SCATTER: return tree_formula(a->kind, p, S, a->alg, root);
	default: return reduce_to_formula(p, S);
	}
}

/* ------------------------------------------------------------ harness */

/* Zero-byte headers: the MPI class then carries exactly the collective payloads. */
#define SYS_EXTRA "[mpi]\nheader_bytes = 0\n"

/* 1 if every member of every group of the last K_VALUE run holds the exact sum, folded in member order. */
static int values_ok(int m, int n)
{
	for (int me = 0; me < n; me++) {
		rt_int mem[CP_MAXT];
		int P = cp_group_of(m, me, n, mem);
		double want = 0;
		for (int k = 0; k < P; k++)
			want = k ? want + cp_value_of((int)mem[k]) : cp_value_of((int)mem[k]);
		if (P && memcmp(&want, &cp_out.value[me], sizeof want) != 0)
			return 0;
	}
	return coll_board_open(cp_out.cc) == 0;
}

/* The traffic the groups of mode m on n tasks must put on the wire. */
static expect expected(const cp_args *a, int m, int n, int reps)
{
	if (m == G_WORLD)
		return formula(a, n);
	int odd = n / 2, even = n - odd;
	expect e = {0, 0};
	if (odd) {
		expect x = formula(a, odd);
		e.msgs += x.msgs * (uint64_t)reps;
		e.bytes += x.bytes * (uint64_t)reps;
	}
	if (m == G_SPLIT) {
		expect x = formula(a, even);
		e.msgs += x.msgs * (uint64_t)reps;
		e.bytes += x.bytes * (uint64_t)reps;
	}
	return e;
}

/* Runs a on 1..33 tasks in every group mode; returns the number of mismatches. */
static int sweep(cp_args a)
{
	int bad = 0;
	for (int n = 1; n <= 33; n++) {
		char *sys = tl_analytic((uint32_t)n, SYS_EXTRA);
		for (int m = 0; m < G_NMODES; m++) {
			/* Two repetitions when groups run concurrently: instances must not cross. */
			a.mode = m;
			a.reps = m == G_SPLIT ? 2 : 1;
			expect e = expected(&a, m, n, a.reps);
			if (a.kind == K_VALUE) {
				cp_out.cc = coll_ctx_new(NULL, NULL);
				memset(cp_out.value, 0, sizeof cp_out.value);
			}
			cp_result r = cp_run(n, sys, &a);
			int ok = r.rc == 0 && r.msgs == e.msgs && r.bytes == e.bytes;
			if (a.kind == K_VALUE) {
				ok = ok && values_ok(m, n);
				coll_ctx_free(cp_out.cc);
				cp_out.cc = NULL;
			}
			if (!ok) {
				bad++;
				fprintf(stderr, "%s %s (S=%llu seg=%llu root=%d) on %d tasks, %s: rc %d, %llu msgs/%llu bytes, "
				        "expected %llu/%llu\n", cp_kind_name[a.kind], coll_alg_name(a.alg),
				        (unsigned long long)a.S, (unsigned long long)a.seg, a.rootsel, n, cp_gmode_name[m], r.rc,
				        (unsigned long long)r.msgs, (unsigned long long)r.bytes, (unsigned long long)e.msgs,
				        (unsigned long long)e.bytes);
			}
		}
		free(sys);
	}
	return bad;
}

/* One sweep per row: collective, algorithm, S, root selector, segment. */
typedef struct case_row {
	int kind, alg;
	uint64_t S;
	int rootsel;
	uint64_t seg;
} case_row;

static void sweep_rows(const case_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cp_args a = {.kind = rows[i].kind, .alg = rows[i].alg, .S = rows[i].S, .rootsel = rows[i].rootsel,
		             .seg = rows[i].seg};
		CU_ASSERT_EQUAL(sweep(a), 0);
	}
}
#define SWEEP(rows) sweep_rows(rows, sizeof rows / sizeof rows[0])

/* ------------------------------------------------------------ tests */

static void test_barrier(void)
{
	static const case_row rows[] = {
		{K_BARRIER, COLL_BARRIER_DISSEMINATION, 0, 0, 0}, {K_BARRIER, COLL_BARRIER_TREE, 0, 0, 0},
		{K_BARRIER, COLL_BARRIER_BINOMIAL, 0, 0, 0}, {K_BARRIER, COLL_BARRIER_LINEAR, 0, 0, 0},
		{K_BARRIER, COLL_BARRIER_RECDBL, 0, 0, 0},
	};
	SWEEP(rows);
	/* rt_barrier: dissemination by default. */
	CU_ASSERT_EQUAL(sweep((cp_args){.kind = K_BARRIER, .alg = -1}), 0);
}

static void test_bcast(void)
{
	static const case_row rows[] = {
		{K_BCAST, COLL_BCAST_BINOMIAL, 1000, 0, 0},
		{K_BCAST, COLL_BCAST_BINOMIAL, 100000, 5, 0},      /* rendezvous, root inside */
		{K_BCAST, COLL_BCAST_SCATTER_RECDBL, 1000, 2, 0},  /* recursive doubling when P = pof2, else ring */
		{K_BCAST, COLL_BCAST_SCATTER_RING, 1001, 3, 0},
		{K_BCAST, COLL_BCAST_SCATTER_RING, 5, 1, 0},       /* S < P: empty blocks still travel */
		{K_BCAST, COLL_BCAST_CHAIN, 10000, 4, 3000},       /* 4 segments */
		{K_BCAST, COLL_BCAST_CHAIN, 0, 0, 3000},
		{K_BCAST, COLL_BCAST_LINEAR, 700, 6, 100},         /* linear ignores the segment size */
		{K_BCAST, COLL_BCAST_BINARY, 10000, 2, 4096},
		{K_BCAST, COLL_BCAST_KNOMIAL, 999, 1, 0},
	};
	SWEEP(rows);
}

static void test_reduce(void)
{
	static const case_row rows[] = {
		{K_REDUCE, COLL_REDUCE_BINOMIAL, 1000, 3, 0}, {K_REDUCE, COLL_REDUCE_BINOMIAL, 0, 0, 0},
		/* S = 3200 is a multiple of every pof2 <= 32; roots 1 and 3 sit out for some P */
		{K_REDUCE, COLL_REDUCE_RABENSEIFNER, 3200, 0, 0}, {K_REDUCE, COLL_REDUCE_RABENSEIFNER, 3200, 1, 0},
		{K_REDUCE, COLL_REDUCE_RABENSEIFNER, 3200, 3, 0}, {K_REDUCE, COLL_REDUCE_RABENSEIFNER, 3200, 6, 0},
		{K_REDUCE, COLL_REDUCE_LINEAR, 500, 2, 0}, {K_REDUCE, COLL_REDUCE_CHAIN, 9000, 5, 4000},
		{K_REDUCE, COLL_REDUCE_BINARY, 700, 4, 0},
	};
	SWEEP(rows);
}

static void test_allreduce(void)
{
	static const case_row rows[] = {
		{K_ALLREDUCE, COLL_ALLREDUCE_RECDBL, 1001, 0, 0}, {K_ALLREDUCE, COLL_ALLREDUCE_RECDBL, 100000, 0, 0},
		{K_ALLREDUCE, COLL_ALLREDUCE_RING, 70001, 0, 0},           /* uneven chunks */
		{K_ALLREDUCE, COLL_ALLREDUCE_RING, 5, 0, 0},               /* S < P */
		{K_ALLREDUCE, COLL_ALLREDUCE_SEGRING, 70001, 0, 1000},     /* several pieces per chunk */
		{K_ALLREDUCE, COLL_ALLREDUCE_SEGRING, 700, 0, 0},          /* no segments: the ring */
		{K_ALLREDUCE, COLL_ALLREDUCE_RABENSEIFNER, 1001, 0, 0},
		{K_ALLREDUCE, COLL_ALLREDUCE_RABENSEIFNER, 5, 0, 0},       /* S < pof2: empty blocks */
		{K_ALLREDUCE, COLL_ALLREDUCE_REDUCE_BCAST, 800, 0, 0}, {K_ALLREDUCE, COLL_ALLREDUCE_LINEAR, 800, 0, 0},
	};
	SWEEP(rows);
	/* The fixed selector: recursive doubling below 64 KiB, the ring from it up (also rt_allreduce). */
	CU_ASSERT_EQUAL(sweep((cp_args){.kind = K_ALLREDUCE, .alg = COLL_AUTO, .S = 65535}), 0);
	CU_ASSERT_EQUAL(sweep((cp_args){.kind = K_ALLREDUCE, .alg = -1, .S = 65536}), 0);
}

static void test_allgather(void)
{
	static const case_row rows[] = {
		{K_ALLGATHER, COLL_ALLGATHER_RECDBL, 100, 0, 0}, {K_ALLGATHER, COLL_ALLGATHER_BRUCK, 100, 0, 0},
		{K_ALLGATHER, COLL_ALLGATHER_RING, 100, 0, 0}, {K_ALLGATHER, COLL_ALLGATHER_NEIGHBOR, 100, 0, 0},
	};
	SWEEP(rows);
}

static void test_reduce_scatter(void)
{
	static const case_row rows[] = {
		{K_REDSCAT, COLL_REDSCAT_HALVING, 1003, 0, 0}, {K_REDSCAT, COLL_REDSCAT_HALVING, 7, 0, 0},
		{K_REDSCAT, COLL_REDSCAT_PAIRWISE, 1003, 0, 0}, {K_REDSCAT, COLL_REDSCAT_RING, 1003, 0, 0},
		{K_REDSCAT, COLL_REDSCAT_REDUCE_SCATTERV, 1003, 0, 0},
	};
	SWEEP(rows);
}

static void test_alltoall(void)
{
	static const case_row rows[] = {
		{K_ALLTOALL, COLL_ALLTOALL_PAIRWISE, 700, 0, 0}, {K_ALLTOALL, COLL_ALLTOALL_BRUCK, 70, 0, 0},
		{K_ALLTOALL, COLL_ALLTOALL_THROTTLED, 60, 0, 0}, /* batches of 32: two on 33 tasks */
		{K_ALLTOALL, COLL_ALLTOALL_LINEAR, 60, 0, 0}, {K_ALLTOALLV, 0, 300, 0, 0},
	};
	SWEEP(rows);
}

static void test_gather_scatter(void)
{
	static const case_row rows[] = {
		{K_GATHER, COLL_GATHER_BINOMIAL, 500, 2, 0}, {K_GATHER, COLL_GATHER_LINEAR, 500, 7, 0},
		{K_GATHERV, COLL_GATHER_BINOMIAL, 400, 4, 0}, {K_GATHERV, COLL_GATHER_LINEAR, 400, 1, 0},
		{K_SCATTER, COLL_SCATTER_BINOMIAL, 600, 6, 0}, {K_SCATTER, COLL_SCATTER_LINEAR, 600, 0, 0},
	};
	SWEEP(rows);
}

static void test_reduce_to(void) { CU_ASSERT_EQUAL(sweep((cp_args){.kind = K_REDUCE_TO, .S = 800}), 0); }

static void test_allreduce_value(void) { CU_ASSERT_EQUAL(sweep((cp_args){.kind = K_VALUE, .S = 8}), 0); }

/* One run of the public call of `kind` on n tasks with `collectives` as the [collectives] section. */
static cp_result run_with(int n, const char *collectives, int kind, uint64_t S, int reps)
{
	char *sys = tl_analytic((uint32_t)n, collectives);
	cp_out.has_ctx = 0;
	cp_result r = cp_run(n, sys, &(cp_args){.kind = kind, .S = S, .alg = -1, .reps = reps});
	free(sys);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(cp_out.has_ctx);
	return r;
}

/*
 * [collectives] of the system file reaches the public calls through the
 * runtime's coll_ctx, by key and by selector.
 */
static void test_config_in_run(void)
{
	/* 1000 bytes would use recursive doubling (12 messages on 6 tasks); the ring: 2 P (P-1) = 60
	 * messages carrying 2 (P-1) S = 10,000 bytes. */
	cp_result r = run_with(6, SYS_EXTRA "[collectives]\nallreduce = ring\n", K_ALLREDUCE, 1000, 1);
	CU_ASSERT_EQUAL(r.msgs, 60);
	CU_ASSERT_EQUAL(r.bytes, 10000);
	/* `barrier = tree` reaches rt_barrier: 3 barriers on 21 tasks, 2 * 20 messages each. */
	r = run_with(21, SYS_EXTRA "[collectives]\nbarrier = tree\n", K_BARRIER, 0, 3);
	CU_ASSERT_EQUAL(r.msgs, 3 * 40);
	CU_ASSERT_EQUAL(r.bytes, 0);
	/* mpich, 6 tasks, 1000 bytes = 125 doubles >= pof2 = 4: Rabenseifner, 2 rem + 2 pof2 lg =
	 * 4 + 16 = 20 messages, 2 rem S + 2 (pof2-1) S = 4000 + 6000 bytes. */
	r = run_with(6, SYS_EXTRA "[collectives]\nselector = mpich\n", K_ALLREDUCE, 1000, 1);
	CU_ASSERT_EQUAL(r.msgs, 20);
	CU_ASSERT_EQUAL(r.bytes, 10000);
	/* ompi, 6 tasks (4 <= P < 8), 1000 bytes (16 <= S < 8192): recursive doubling, 2*2 + 4*2 = 12. */
	r = run_with(6, SYS_EXTRA "[collectives]\nselector = ompi\n", K_ALLREDUCE, 1000, 1);
	CU_ASSERT_EQUAL(r.msgs, 12);
	CU_ASSERT_EQUAL(r.bytes, 12000);
	/* A key overrides the selector: mpich with allreduce = ring runs the ring. */
	r = run_with(6, SYS_EXTRA "[collectives]\nselector = mpich\nallreduce = ring\n", K_ALLREDUCE, 1000, 1);
	CU_ASSERT_EQUAL(r.msgs, 60);
	/* mpich broadcast of 20,000 bytes on 8 tasks (pow2, 12288 < S <= 524288): scatter + recursive
	 * doubling, 7 + 8*3 = 31 messages, 2500*B(8) + 7*20000 = 2500*12 + 140000 bytes. */
	r = run_with(8, SYS_EXTRA "[collectives]\nselector = mpich\n", K_BCAST, 20000, 1);
	CU_ASSERT_EQUAL(r.msgs, 31);
	CU_ASSERT_EQUAL(r.bytes, 170000);
}

/* A [collectives] section that coll_config_load must refuse with a message holding `parts`. */
static void config_error(const char *text, const char *const *parts)
{
	char *err = NULL;
	coll_config c;
	sysconf_t *sc = sysconf_parse("t.conf", text, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(coll_config_load(&c, sc, &err), -1);
	CU_ASSERT_EQUAL(ut_missing(err, parts), 0);
	free(err);
	sysconf_free(sc);
}

static void test_config(void)
{
	coll_config c;
	char *err = NULL;
	CU_ASSERT_EQUAL(coll_config_load(&c, NULL, &err), 0);
	CU_ASSERT_EQUAL(c.selector, COLL_SEL_FIXED);
	for (int k = 0; k < COLL_NKINDS; k++)
		CU_ASSERT_EQUAL(c.alg[k], COLL_AUTO);
	CU_ASSERT_EQUAL(c.allreduce_ring_threshold, 65536);
	CU_ASSERT_EQUAL(c.segment, 65536);
	CU_ASSERT_EQUAL(c.element, 8);
	CU_ASSERT_EQUAL(c.alltoall_throttle, 32);
	CU_ASSERT_EQUAL(c.knomial_radix, 4);

	sysconf_t *sc = sysconf_parse("t.conf", "[collectives]\nallreduce = ring\n"
	                            "allreduce_ring_threshold = 1 MiB\ngather = linear\nscatter = Linear\n"
	                            "barrier = tree\nbcast = scatter_ring\nreduce_scatter = Recursive_Halving\n"
	                            "alltoall = auto\nselector = ompi\nsegment_size = 8 KiB\nelement_size = 4\n"
	                            "alltoall_throttle = 0\nknomial_radix = 8\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(coll_config_load(&c, sc, &err), 0);
	CU_ASSERT_EQUAL(c.alg[COLL_ALLREDUCE], COLL_ALLREDUCE_RING);
	CU_ASSERT_EQUAL(c.allreduce_ring_threshold, 1048576);
	CU_ASSERT_EQUAL(c.alg[COLL_GATHER], COLL_GATHER_LINEAR);
	CU_ASSERT_EQUAL(c.alg[COLL_SCATTER], COLL_SCATTER_LINEAR);
	CU_ASSERT_EQUAL(c.alg[COLL_BARRIER], COLL_BARRIER_TREE);
	CU_ASSERT_EQUAL(c.alg[COLL_BCAST], COLL_BCAST_SCATTER_RING);
	CU_ASSERT_EQUAL(c.alg[COLL_REDUCE_SCATTER], COLL_REDSCAT_HALVING);
	CU_ASSERT_EQUAL(c.alg[COLL_ALLTOALL], COLL_AUTO);
	CU_ASSERT_EQUAL(c.selector, COLL_SEL_OMPI);
	CU_ASSERT_EQUAL(c.segment, 8192);
	CU_ASSERT_EQUAL(c.element, 4);
	CU_ASSERT_EQUAL(c.alltoall_throttle, 0);
	CU_ASSERT_EQUAL(c.knomial_radix, 8);
	CU_ASSERT_EQUAL(sysconf_unused(sc, stderr), 0);
	sysconf_free(sc);

	config_error("[collectives]\ngather = star\n", (const char *[]){"t.conf:2", "star", NULL});
	config_error("[collectives]\n\nbarrier = butterfly\n",
	             (const char *[]){"t.conf:3", "auto, dissemination, tree, binomial, linear, recursive_doubling", NULL});
	/* A name of another collective's algorithm is refused. */
	config_error("[collectives]\nallgather = rabenseifner\n", (const char *[]){"t.conf:2", "neighbor_exchange", NULL});
	config_error("[collectives]\nselector = intel\n", (const char *[]){"t.conf:2", "fixed, mpich, ompi", NULL});
	config_error("[collectives]\nknomial_radix = 1\n", (const char *[]){"t.conf:2", "2..1024", NULL});
	config_error("[collectives]\nelement_size = 0\n", (const char *[]){"t.conf:2", "positive", NULL});

	sc = sysconf_parse("t.conf", "[collectives]\nallreduce_ring_threshold = lots\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	coll_ctx *cc = coll_ctx_new(sc, &err);
	CU_ASSERT_PTR_NULL(cc);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	sysconf_free(sc);
}

static void test_ring_chunks(void)
{
	static const uint64_t sizes[] = { 0, 1, 5, 63, 64, 65, 1000003, 28150000 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (int P = 1; P <= 70; P++) {
			uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
			for (int k = 0; k < P; k++) {
				uint64_t c = coll_ring_chunk(sizes[i], P, k);
				sum += c;
				lo = c < lo ? c : lo;
				hi = c > hi ? c : hi;
			}
			CU_ASSERT_EQUAL(sum, sizes[i]);
			CU_ASSERT(hi - lo <= 1);
		}
	}
}

static void test_board(void)
{
	coll_ctx *cc = coll_ctx_new(NULL, NULL);
	rt_int m1[] = { 1, 3, 5 }, m2[] = { 1, 3 };
	rt_group g1 = { m1, 3 }, g2 = { m2, 2 };
	double r;
	coll_board_put(cc, &g1, 9, 0, 2.0);
	coll_board_put(cc, &g2, 9, 1, 7.0); /* same tag, other group: another entry */
	coll_board_put(cc, &g1, 9, 2, -1.0);
	CU_ASSERT_EQUAL(coll_board_take(cc, &g1, 9, RT_OP_MAX, &r), -1); /* member 1 missing */
	coll_board_put(cc, &g1, 9, 1, 4.0);
	CU_ASSERT_EQUAL(coll_board_take(cc, &g1, 9, RT_OP_MAX, &r), 0);
	CU_ASSERT_EQUAL(r, 4.0);
	CU_ASSERT_EQUAL(coll_board_take(cc, &g1, 9, RT_OP_MIN, &r), 0);
	CU_ASSERT_EQUAL(r, -1.0);
	CU_ASSERT_EQUAL(coll_board_take(cc, &g1, 9, RT_OP_SUM, &r), 0);
	CU_ASSERT_EQUAL(r, 5.0);
	CU_ASSERT_EQUAL(coll_board_open(cc), 1); /* g1 freed after 3 takes, g2 open */
	CU_ASSERT_EQUAL(coll_board_take(cc, &g1, 9, RT_OP_SUM, &r), -1);
	coll_ctx_free(cc);
}

/* The Union calls of the collectives without an rt_* twin, each once on the whole job. */
static void union_body(rt_task *t)
{
	(void)t;
	UNION_MPI_Allgather(NULL, 25, UNION_Int, NULL, 100, UNION_Byte, UNION_Comm_World);
	UNION_MPI_Reduce_scatter_block(NULL, NULL, 30, UNION_Double, UNION_Op_Sum, UNION_Comm_World);
	UNION_MPI_Gather(NULL, 7, UNION_Long, NULL, 56, UNION_Byte, 2, UNION_Comm_World);
	UNION_MPI_Scatter(NULL, 10, UNION_Float, NULL, 40, UNION_Byte, 0, UNION_Comm_World);
}
TL_PROGRAM(union_prog, union_body);

/*
 * On 5 tasks with the fixed selector: ring allgather of 100 bytes (P(P-1) = 20 messages,
 * 2000 bytes), ring reduce-scatter of 5 blocks of 240 bytes (20 messages, 4 x 1200 = 4800 bytes),
 * binomial gather and scatter of 56 and 40 bytes (4 messages each, B(5) = 5 block-hops:
 * 280 and 200 bytes).
 */
static void test_union(void)
{
	int rc;
	drv_sim *s = tl_run_analytic(&union_prog, 5, SYS_EXTRA, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	const net_model *net = drv_world(s)->net;
	CU_ASSERT_EQUAL(net->totals.msgs_injected[NET_CLASS_MPI], 20 + 20 + 4 + 4);
	CU_ASSERT_EQUAL(net->totals.bytes_injected[NET_CLASS_MPI], 2000 + 4800 + 280 + 200);
	drv_free(s);
}

int main(void)
{
	static const ut_test tests[] = {
		{"config", test_config},
		{"ring chunks", test_ring_chunks},
		{"value board", test_board},
		{"[collectives] in a run", test_config_in_run},
		{"barrier 1..33", test_barrier},
		{"bcast 1..33", test_bcast},
		{"reduce 1..33", test_reduce},
		{"allreduce 1..33", test_allreduce},
		{"allgather 1..33", test_allgather},
		{"reduce_scatter 1..33", test_reduce_scatter},
		{"alltoall(v) 1..33", test_alltoall},
		{"gather/gatherv/scatter 1..33", test_gather_scatter},
		{"reduce_to 1..33", test_reduce_to},
		{"allreduce_value 1..33", test_allreduce_value},
		{"Union allgather, reduce-scatter, gather, scatter", test_union},
		{NULL, NULL},
	};
	return ut_run("coll", tests);
}

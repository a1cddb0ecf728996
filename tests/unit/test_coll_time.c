/*
 * test_coll_time.c - every collective algorithm takes, on the analytic
 * network, the time its cost formula gives, to the picosecond.
 *
 * The machine of most cases: latency L = 100 ns, links and injection ports
 * both 10 GB/s (100 ps per byte), messages of any size sent through the
 * mailbox (small_max = 1 GiB) without headers, credits or software costs.
 * A message of s bytes that finds both ports idle takes
 *
 *   T(s) = L + s*b,   b = 100 ps/byte,
 *
 * a node's sends leave one after the other (the k-th of a burst ends k*s*b
 * after the first starts), a node's arrivals are served one after the other,
 * and a sender never waits for its send (mailbox). Each case derives its
 * formula in the comment beside it; P is a power of two unless it says
 * otherwise, so no member sits out.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/coll_prog.h"

#define L 100000ULL                      /* ps */
#define X(s) (100ULL * (uint64_t)(s))    /* s bytes at 10 GB/s */
#define T(s) (L + X(s))

static char *mailbox_system(int nodes, const char *extra)
{
	return xasprintf("[network]\nmodel = analytic\nnodes = %d\nlatency = 100 ns\nbandwidth = 10 GB/s\n"
	                 "injection_bandwidth = 10 GB/s\n[mpi]\nheader_bytes = 0\nsmall_max = 1 GiB\n"
	                 "medium_max = 1 GiB\nmemory_bandwidth = 0\ncredits = 0\n%s", nodes, extra ? extra : "");
}

typedef struct time_case {
	int kind, alg, P;
	uint64_t S, seg;
	int rootsel;
	ncsim_time_t want;
	const char *extra; /* more system text, or NULL */
} time_case;

static const time_case cases[] = {
	/* ---- allreduce */
	/* recursive doubling: lg P = 3 exchanges of S */
	{K_ALLREDUCE, COLL_ALLREDUCE_RECDBL, 8, 1000, 0, 0, 3 * T(1000), NULL},
	{K_ALLREDUCE, COLL_ALLREDUCE_RECDBL, 8, 64, 0, 0, 3 * T(64), NULL},
	/* ring: 2 (P-1) steps of one S/P chunk */
	{K_ALLREDUCE, COLL_ALLREDUCE_RING, 8, 8000, 0, 0, 14 * T(1000), NULL},
	/* segmented ring, chunks of 1000 in F = 4 pieces of 250: F (P-1) steps of 250, then P-1 of 1000 */
	{K_ALLREDUCE, COLL_ALLREDUCE_SEGRING, 8, 8000, 250, 0, 28 * T(250) + 7 * T(1000), NULL},
	/* Rabenseifner: halving S/2, S/4, S/8, then doubling back */
	{K_ALLREDUCE, COLL_ALLREDUCE_RABENSEIFNER, 8, 8000, 0, 0, 2 * (T(4000) + T(2000) + T(1000)), NULL},
	{K_ALLREDUCE, COLL_ALLREDUCE_RABENSEIFNER, 4, 400, 0, 0, 2 * (T(200) + T(100)), NULL},
	/* reduce + bcast, both binomial: 3 T(S) up (see reduce) and 3 T(S) down (see bcast) */
	{K_ALLREDUCE, COLL_ALLREDUCE_REDUCE_BCAST, 8, 1000, 0, 0, 6 * T(1000), NULL},
	/* linear: 7 arrivals served back to back at the root (L + 7 S b), then 7 sends leave it back to back */
	{K_ALLREDUCE, COLL_ALLREDUCE_LINEAR, 8, 1000, 0, 0, 2 * (L + X(7000)), NULL},

	/* ---- broadcast */
	/*
	 * binomial, P = 8: the root sends to 4, 2, 1 in that order (ending at T, T + S b, T + 2 S b); 4 sends
	 * to 6 then 5, 6 to 7, 2 to 3. Along every root-leaf path the hops plus the sends queued before
	 * them add up to 3 L + 3 S b; the deepest leaf, 7, ends at 3 T(S).
	 */
	{K_BCAST, COLL_BCAST_BINOMIAL, 8, 1000, 0, 0, 3 * T(1000), NULL},
	{K_BCAST, COLL_BCAST_BINOMIAL, 8, 1000, 0, 5, 3 * T(1000), NULL},
	/*
	 * scatter + recursive doubling, P = 4, blocks c = 1000: the scatter ends at 1: L+3cb, 2: L+2cb,
	 * 3: 2L+3cb (the root's port is busy until 3cb). d = 1: 0<->1 and 2<->3 (c each) end at 0: 2L+4cb,
	 * 1: L+4cb, 2: 3L+4cb, 3: 2L+4cb; d = 2: 2 sends 2c to 0 at 3L+4cb, which ends at 4L+6cb.
	 */
	{K_BCAST, COLL_BCAST_SCATTER_RECDBL, 4, 4000, 0, 0, 4 * L + X(6000), NULL},
	/*
	 * scatter + ring, P = 4, c = 1000: after the scatter (as above) the ring steps end at
	 * step 0: 0: 3L+4cb, 1: L+4cb, 2: 2L+4cb, 3: 2L+4cb; step 1: 0: 3L+5cb, 1: 4L+5cb, 2: 2L+5cb, 3: 3L+5cb;
	 * step 2: 0: 4L+6cb, 1: 4L+6cb, 2: 5L+6cb, 3: 3L+6cb (each member's step ends when its left
	 * neighbour's block of that step arrives, sent when that neighbour ended its previous step).
	 */
	{K_BCAST, COLL_BCAST_SCATTER_RING, 4, 4000, 0, 0, 5 * L + X(6000), NULL},
	/* scatter + allgather on P = 2: one block down, then one exchange behind it on the root's port: 2 T(c) */
	{K_BCAST, COLL_BCAST_SCATTER_RING, 2, 2000, 0, 0, 2 * T(1000), NULL},
	/* chain, n = 4 segments of s = 1000: member v gets segment k at v L + (k + v) s b; the last one
	 * (v = 7, k = 3) at 7 L + 10 s b */
	{K_BCAST, COLL_BCAST_CHAIN, 8, 4000, 1000, 0, 7 * L + X(10000), NULL},
	{K_BCAST, COLL_BCAST_CHAIN, 8, 1000, 0, 0, 7 * T(1000), NULL},
	/* linear: 7 sends leave the root back to back: the last ends at L + 7 S b */
	{K_BCAST, COLL_BCAST_LINEAR, 8, 1000, 0, 0, L + X(7000), NULL},
	/* binary (0: 1 2; 1: 3 5; 2: 4 6; 3: 7): 7 at 3T, 6 at (L + 2Sb) + T + Sb; with S b < L 3T is later */
	{K_BCAST, COLL_BCAST_BINARY, 8, 500, 0, 0, 3 * T(500), NULL},
	/* knomial radix 4 (0: 4 1 2 3; 4: 5 6 7): 3 at L + 4Sb, 7 at T + L + 3Sb = 2L + 4Sb */
	{K_BCAST, COLL_BCAST_KNOMIAL, 8, 1000, 0, 0, 2 * L + X(4000), NULL},

	/* ---- reduce */
	/* binomial: member v's children finish one T apart (v+1 at T, v+2 at 2T, ..): the root at 3T */
	{K_REDUCE, COLL_REDUCE_BINOMIAL, 8, 1000, 0, 0, 3 * T(1000), NULL},
	/* Rabenseifner: halving S/2, S/4, S/8, then the gather moves S/8, S/4, S/2 in lockstep */
	{K_REDUCE, COLL_REDUCE_RABENSEIFNER, 8, 8000, 0, 0, 2 * (T(4000) + T(2000) + T(1000)), NULL},
	{K_REDUCE, COLL_REDUCE_RABENSEIFNER, 8, 8000, 0, 5, 2 * (T(4000) + T(2000) + T(1000)), NULL},
	/* linear: 7 arrivals at once, served back to back */
	{K_REDUCE, COLL_REDUCE_LINEAR, 8, 1000, 0, 0, L + X(7000), NULL},
	/* chain, the broadcast's pipeline run backwards: 7 L + (P + n - 2) s b */
	{K_REDUCE, COLL_REDUCE_CHAIN, 8, 4000, 1000, 0, 7 * L + X(10000), NULL},
	/*
	 * binary: 7 -> 3 at T, 3 -> 1 at 2T, 1 -> 0 at 3T; 4 and 6 reach 2 together (ends L + 2Sb), 2 -> 0
	 * ends 2L + 3Sb, before the root's port takes 1's message (from 3L + 2Sb on, as S b < L): 3T
	 */
	{K_REDUCE, COLL_REDUCE_BINARY, 8, 500, 0, 0, 3 * T(500), NULL},

	/* ---- allgather */
	/* recursive doubling: 1, 2, 4 blocks */
	{K_ALLGATHER, COLL_ALLGATHER_RECDBL, 8, 1000, 0, 0, T(1000) + T(2000) + T(4000), NULL},
	/* Bruck: 1, 2, 4 blocks; on P = 6: 1, 2, then the 2 missing */
	{K_ALLGATHER, COLL_ALLGATHER_BRUCK, 8, 1000, 0, 0, T(1000) + T(2000) + T(4000), NULL},
	{K_ALLGATHER, COLL_ALLGATHER_BRUCK, 6, 1000, 0, 0, T(1000) + 2 * T(2000), NULL},
	/* ring: P-1 steps of one block */
	{K_ALLGATHER, COLL_ALLGATHER_RING, 8, 1000, 0, 0, 7 * T(1000), NULL},
	/* neighbor exchange: one block, then P/2 - 1 = 3 steps of two */
	{K_ALLGATHER, COLL_ALLGATHER_NEIGHBOR, 8, 1000, 0, 0, T(1000) + 3 * T(2000), NULL},

	/* ---- reduce-scatter, blocks of 1000 */
	/* recursive halving, distance 4 first: 4, 2, 1 blocks */
	{K_REDSCAT, COLL_REDSCAT_HALVING, 8, 8000, 0, 0, T(4000) + T(2000) + T(1000), NULL},
	{K_REDSCAT, COLL_REDSCAT_PAIRWISE, 8, 8000, 0, 0, 7 * T(1000), NULL},
	{K_REDSCAT, COLL_REDSCAT_RING, 8, 8000, 0, 0, 7 * T(1000), NULL},
	/* binomial reduce of S (3 T(S)), then 7 blocks leave member 0 back to back */
	{K_REDSCAT, COLL_REDSCAT_REDUCE_SCATTERV, 8, 8000, 0, 0, 3 * T(8000) + L + X(7000), NULL},

	/* ---- alltoall */
	{K_ALLTOALL, COLL_ALLTOALL_PAIRWISE, 8, 1000, 0, 0, 7 * T(1000), NULL},
	/* Bruck: three rounds of the 4 blocks with the round's bit set */
	{K_ALLTOALL, COLL_ALLTOALL_BRUCK, 8, 1000, 0, 0, 3 * T(4000), NULL},
	/* linear: member i's k-th send goes to i-k; its arrivals (from i+k) start at L + (k-1) S b and end
	 * back to back at L + 7 S b */
	{K_ALLTOALL, COLL_ALLTOALL_LINEAR, 8, 1000, 0, 0, L + X(7000), NULL},
	/* throttled, batches of 3 (k = 0..2 without oneself, 3..5, 6..7): L + 2Sb, L + 3Sb, L + 2Sb */
	{K_ALLTOALL, -1, 8, 1000, 0, 0, 3 * L + X(7000), "[collectives]\nalltoall = throttled\nalltoall_throttle = 3\n"},

	/* ---- gather and scatter: 4, 2, 1 blocks on the root's port, then down the subtrees (mirror up) */
	{K_SCATTER, COLL_SCATTER_BINOMIAL, 8, 1000, 0, 0, 3 * L + X(7000), NULL},
	{K_GATHER, COLL_GATHER_BINOMIAL, 8, 1000, 0, 0, 3 * L + X(7000), NULL},
	{K_SCATTER, COLL_SCATTER_LINEAR, 8, 1000, 0, 0, L + X(7000), NULL},
	{K_GATHER, COLL_GATHER_LINEAR, 8, 1000, 0, 0, L + X(7000), NULL},

	/* ---- barriers: zero-byte messages take L */
	{K_BARRIER, COLL_BARRIER_DISSEMINATION, 8, 0, 0, 0, 3 * L, NULL},
	{K_BARRIER, COLL_BARRIER_BINOMIAL, 8, 0, 0, 0, 6 * L, NULL},   /* 3 levels up, 3 down */
	{K_BARRIER, COLL_BARRIER_LINEAR, 8, 0, 0, 0, 2 * L, NULL},
	{K_BARRIER, COLL_BARRIER_RECDBL, 8, 0, 0, 0, 3 * L, NULL},
	/* P = 6: 4, 5 signal 0, 1 (L); 0 and 1 exchange (2L) while 2 and 3 did at L; in round 2, 2's
	 * message waits for 0 and 0's reaches 2 at 3L; 0 releases 4 at 2L, which ends at 3L */
	{K_BARRIER, COLL_BARRIER_RECDBL, 6, 0, 0, 0, 3 * L, NULL},
};

static void test_formulas(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const time_case *c = &cases[i];
		char *sys = mailbox_system(c->P, c->extra);
		cp_args a = {.kind = c->kind, .alg = c->alg, .S = c->S, .seg = c->seg, .rootsel = c->rootsel};
		cp_result r = cp_run(c->P, sys, &a);
		CU_ASSERT_EQUAL(r.rc, 0);
		CU_ASSERT_EQUAL(r.end, c->want);
		if (r.end != c->want)
			fprintf(stderr, "%s %s on %d tasks, S = %llu: %llu ps, expected %llu ps\n", cp_kind_name[c->kind],
			        coll_alg_name(c->alg), c->P, (unsigned long long)c->S, (unsigned long long)r.end,
			        (unsigned long long)c->want);
		free(sys);
	}
}

/* ceil(log2 P). */
static ncsim_time_t lg_ceil(int P)
{
	ncsim_time_t l = 0;
	while ((1LL << l) < P)
		l++;
	return l;
}

/*
 * Ring allreduce time with the rendezvous protocol on the analytic test machine (latency L = 100 ns,
 * links 10 GB/s, injection 20 GB/s), with zero software costs and 64-byte
 * headers. S = P * 100,000 bytes, so every chunk is c = 100,000 bytes (a
 * rendezvous message). One ring step, all members in lockstep from t0:
 *
 *   t0            sender posts RTS (64 B)      arrives t0 + L + h
 *   t0 + L + h    receiver sends RDMA_REQ      arrives t0 + 2L + 2h
 *   t0 + 2L + 2h  sender's NIC sends the chunk arrives t0 + 3L + 2h + c/B
 *                 (ejection at 10 GB/s is the slower port: c/B = 10 us)
 *   then          receiver sends ACK           arrives t0 + 4L + 3h + c/B
 *
 * with h = 64 B / 10 GB/s = 6.4 ns. A member's step ends when its send is
 * acknowledged (its receive ended L + h earlier), so a step takes
 * 4L + 3h + c/B = 400 + 19.2 + 10000 ns = 10,419.2 ns and the ring
 * 2(P-1) steps: for P = 8, 14 * 10,419.2 ns = 145,868.8 ns.
 */
static void test_ring_rendezvous(void)
{
	const char *costs = "[mpi]\npost_header = 0\npost_rdma = 0\npin_latency = 0\npin_per_page = 0\n";
	static const int sizes[] = { 2, 3, 5, 8, 13 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int P = sizes[i];
		char *sys = tl_analytic((uint32_t)P, costs);
		const ncsim_time_t h = 6400, c_over_B = 10000000;
		ncsim_time_t want = 2 * (ncsim_time_t)(P - 1) * (4 * TL_LAT + 3 * h + c_over_B);
		cp_result r = cp_run(P, sys, &(cp_args){.kind = K_ALLREDUCE, .S = (uint64_t)P * 100000,
		                                         .alg = COLL_ALLREDUCE_RING});
		CU_ASSERT_EQUAL(r.rc, 0);
		CU_ASSERT_EQUAL(r.end, want);
		if (r.end != want)
			fprintf(stderr, "ring allreduce on %d tasks: %llu ps, expected %llu ps\n", P,
			        (unsigned long long)r.end, (unsigned long long)want);
		free(sys);
	}
}

/*
 * Barrier times on the analytic test machine with zero software costs and
 * zero-byte headers: every message takes exactly the latency L = 100 ns and
 * nothing queues. Dissemination takes ceil(log2 P) rounds of one message,
 * the tree 2*H messages along its deepest path, H = the depth of member P-1
 * in the 4-ary heap (children of i: 4i+1 .. 4i+4): H = 1 up to P = 5, 2 up to
 * P = 21, 3 up to P = 85.
 */
static void test_barrier_time(void)
{
	const char *costs = "[mpi]\nheader_bytes = 0\npost_header = 0\npost_rdma = 0\npin_latency = 0\n"
	                    "pin_per_page = 0\n";
	static const int sizes[] = { 1, 2, 5, 6, 21, 22, 33, 64 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int P = sizes[i], H = 0;
		for (int m = P - 1; m > 0; m = (m - 1) / 4)
			H++;
		char *sys = tl_analytic((uint32_t)P, costs);
		cp_result d = cp_run(P, sys, &(cp_args){.kind = K_BARRIER, .alg = COLL_BARRIER_DISSEMINATION});
		cp_result t = cp_run(P, sys, &(cp_args){.kind = K_BARRIER, .alg = COLL_BARRIER_TREE});
		CU_ASSERT_EQUAL(d.rc, 0);
		CU_ASSERT_EQUAL(t.rc, 0);
		CU_ASSERT_EQUAL(d.end, (ncsim_time_t)lg_ceil(P) * TL_LAT);
		CU_ASSERT_EQUAL(t.end, (ncsim_time_t)(2 * H) * TL_LAT);
		if (d.end != (ncsim_time_t)lg_ceil(P) * TL_LAT || t.end != (ncsim_time_t)(2 * H) * TL_LAT)
			fprintf(stderr, "barrier on %d tasks: dissemination %llu ps (expected %llu), tree %llu ps "
			        "(expected %llu)\n", P, (unsigned long long)d.end,
			        (unsigned long long)(lg_ceil(P) * TL_LAT), (unsigned long long)t.end,
			        (unsigned long long)(2 * H * TL_LAT));
		free(sys);
	}
}

int main(void)
{
	static const ut_test tests[] = {
		{"every algorithm's cost formula", test_formulas},
		{"ring allreduce with rendezvous", test_ring_rendezvous},
		{"barrier times", test_barrier_time},
		{NULL, NULL},
	};
	return ut_run("coll time", tests);
}

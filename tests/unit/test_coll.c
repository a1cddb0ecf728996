/*
 * test_coll.c - the collectives (runtime/coll/coll.h): every collective on every
 * group size 1..33, on the whole job, on a strict subset (odd ranks) and on
 * two groups running concurrently (even and odd ranks). Each run must finish
 * (no deadlock) and put exactly the documented number of messages and bytes
 * on the network; the ring allreduce must take its closed-form time on the
 * analytic network; the [collectives] section must load and reject bad values.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/coll.h"
#include "runtime/net/net.h"
#include "base/sysconf.h"
#include "tests/unit/rt_testlib.h"

#define MAXT 64

enum kind {
	K_BARRIER, K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLTOALL, K_ALLTOALLV,
	K_GATHER, K_GATHERV, K_SCATTER, K_REDUCE_TO, K_VALUE, K_NKINDS
};
static const char *const kind_name[K_NKINDS] = {
	"barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv",
	"gather", "gatherv", "scatter", "reduce_to", "allreduce_value",
};
enum gmode { G_WORLD, G_ODD, G_SPLIT, G_NMODES };
static const char *const gmode_name[G_NMODES] = { "world", "odd ranks", "even|odd concurrently" };

/* What the tasks report back (the test program is the only user of these). */
static struct {
	int done[MAXT];
	double value[MAXT];
	int has_ctx;  /* a task saw rt_coll_ctx != NULL */
	coll_ctx *cc; /* the board for K_VALUE */
} g_out;

static const rt_param params[] = {
	{ "coll", "collective (enum kind)", "--coll", NULL, 0 },
	{ "bytes", "message size", "--bytes", NULL, 0 },
	{ "group", "group mode (enum gmode)", "--group", NULL, 0 },
	{ "alg", "allreduce algorithm, tree shape or barrier algorithm", "--alg", NULL, 0 },
	{ "root", "root member index (mod group size)", "--root", NULL, 0 },
	{ "reps", "repetitions", "--reps", NULL, 1 },
};

/* Member list of the group task `me` of `n` tasks belongs to in mode m; 0 if none. */
static int group_of(int m, int me, int n, rt_int *mem)
{
	int k = 0;
	if (m == G_ODD && me % 2 == 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (m == G_WORLD || (m == G_ODD && i % 2 == 1) || (m == G_SPLIT && i % 2 == me % 2))
			mem[k++] = i;
	return k;
}

/* Block sizes of alltoallv (member i to member j) and gatherv (member j); some are zero. */
static uint64_t a2av(int i, int j, uint64_t s) { return (uint64_t)((i + 2 * j) % 4) * s; }
static uint64_t gv(int j, uint64_t s) { return (uint64_t)(j % 3) * s; }
static double value_of(int rank) { return 0.1 * rank + 1.0 / 3.0; }

static void body(rt_task *t)
{
	int kind = (int)rt_param_value(t, 0), mode = (int)rt_param_value(t, 2);
	uint64_t S = (uint64_t)rt_param_value(t, 1);
	int me = (int)rt_rank(t), n = (int)rt_num_tasks(t);
	rt_int mem[MAXT];
	int P = group_of(mode, me, n, mem);
	if (P == 0) {
		g_out.done[me] = 1;
		return;
	}
	rt_group g = { mem, P };
	int idx = coll_index(&g, me);
	rt_int root = mem[rt_param_value(t, 4) % P];
	coll_config cfg;
	coll_config_default(&cfg);
	cfg.allreduce = (int)rt_param_value(t, 3);
	cfg.gather = cfg.scatter = (int)rt_param_value(t, 3);
	cfg.barrier = (int)rt_param_value(t, 3);
	uint64_t sv[MAXT], rv[MAXT];
	for (rt_int rep = 0; rep < rt_param_value(t, 5); rep++) {
		switch (kind) {
		case K_BARRIER:
			/* alg -1: the public call, configured by the system file. */
			if (cfg.barrier < 0)
				rt_barrier(t, &g);
			else
				coll_barrier_with(t, &cfg, &g);
			break;
		case K_BCAST: rt_bcast(t, &g, root, S); break;
		case K_REDUCE: rt_reduce(t, &g, root, S); break;
		case K_ALLREDUCE:
			/* alg -1: the public call, configured by the system file. */
			if (cfg.allreduce < 0)
				rt_allreduce(t, &g, S);
			else
				coll_allreduce_with(t, &cfg, &g, S);
			break;
		case K_ALLTOALL: rt_alltoall(t, &g, S); break;
		case K_ALLTOALLV:
			for (int j = 0; j < P; j++) {
				sv[j] = a2av(idx, j, S);
				rv[j] = a2av(j, idx, S);
			}
			rt_alltoallv(t, &g, sv, rv);
			break;
		case K_GATHER: coll_gather_with(t, &cfg, &g, root, NULL, S); break;
		case K_GATHERV:
			for (int j = 0; j < P; j++)
				sv[j] = gv(j, S);
			coll_gather_with(t, &cfg, &g, root, sv, 0);
			break;
		case K_SCATTER: coll_scatter_with(t, &cfg, &g, root, S); break;
		case K_REDUCE_TO: {
			/* Senders: first two thirds; receivers: last two thirds (overlapping). */
			rt_int snd[MAXT], rcv[MAXT];
			int ns = 0, nr = 0;
			for (int j = 0; j < P; j++) {
				if (3 * j < 2 * P)
					snd[ns++] = mem[j];
				if (3 * j >= P)
					rcv[nr++] = mem[j];
			}
			rt_group gs = { snd, ns }, gr = { rcv, nr };
			rt_reduce_to(t, &gs, &gr, S);
			break;
		}
		case K_VALUE:
			/* The public call once the runtime holds the collectives state, else our own board. */
			if (rt_coll_ctx(t))
				g_out.value[me] = rt_allreduce_value(t, &g, value_of(me), RT_OP_SUM);
			else
				g_out.value[me] = coll_allreduce_value_with(t, g_out.cc, &g, value_of(me), RT_OP_SUM);
			break;
		}
	}
	g_out.has_ctx |= rt_coll_ctx(t) != NULL;
	g_out.done[me] = 1;
}

static const rt_program prog = {
	.abi = NCSIM_RT_ABI, .name = "test_coll", .params = params,
	.nparams = sizeof params / sizeof params[0], .entry = body,
};

/* ------------------------------------------------------------ formulas */

static int ceil_log2(int P)
{
	int l = 0;
	while ((1LL << l) < P)
		l++;
	return l;
}

/* The number of 1 bits of v: the depth of member v in a binomial tree rooted at 0. */
static unsigned ones(uint64_t v)
{
	unsigned n = 0;
	for (; v; v >>= 1)
		n += v & 1;
	return n;
}

/* B(P): total binomial-tree hops, sum of ones(v) for v in 1..P-1. */
static uint64_t hops(int P)
{
	uint64_t h = 0;
	for (int v = 1; v < P; v++)
		h += ones((uint64_t)v);
	return h;
}

typedef struct expect {
	uint64_t msgs, bytes;
} expect;

/* The closed forms of coll.h for one group of P members. */
static expect formula(int kind, int P, uint64_t S, int alg, int rootsel)
{
	expect e = { 0, 0 };
	uint64_t p = (uint64_t)P;
	int root = rootsel % P;
	switch (kind) {
	case K_BARRIER: e.msgs = alg == COLL_BARRIER_TREE ? 2 * (p - 1) : p * (uint64_t)ceil_log2(P); break;
	case K_BCAST:
	case K_REDUCE: e.msgs = p - 1; e.bytes = (p - 1) * S; break;
	case K_VALUE: S = 8; alg = COLL_ALLREDUCE_AUTO; /* fall through */
	case K_ALLREDUCE:
		if (P == 1)
			break;
		if (alg == COLL_ALLREDUCE_RING || (alg == COLL_ALLREDUCE_AUTO && S >= 64 * 1024)) {
			e.msgs = 2 * p * (p - 1);
			e.bytes = 2 * (p - 1) * S;
		} else {
			uint64_t pof2 = 1, lg = 0;
			while (pof2 * 2 <= p) {
				pof2 *= 2;
				lg++;
			}
			e.msgs = 2 * (p - pof2) + pof2 * lg;
			e.bytes = e.msgs * S;
		}
		break;
	case K_ALLTOALL: e.msgs = p * (p - 1); e.bytes = p * (p - 1) * S; break;
	case K_ALLTOALLV:
		for (int i = 0; i < P; i++)
			for (int j = 0; j < P; j++)
				if (i != j && a2av(i, j, S)) {
					e.msgs++;
					e.bytes += a2av(i, j, S);
				}
		break;
	case K_GATHER:
	case K_SCATTER:
		e.msgs = p - 1;
		e.bytes = (alg == COLL_TREE_LINEAR ? p - 1 : hops(P)) * S;
		break;
	case K_GATHERV:
		e.msgs = p - 1;
		for (int j = 0; j < P; j++) {
			uint64_t v = (uint64_t)((j - root + P) % P);
			e.bytes += gv(j, S) * (alg == COLL_TREE_LINEAR ? (v != 0) : ones(v));
		}
		break;
	case K_REDUCE_TO: {
		uint64_t u = 0, r = 0, snd = 0;
		for (int j = 0; j < P; j++) {
			u += (3 * j < 2 * P) || (3 * j >= P);
			r += (3 * j >= P);
			snd += (3 * j < 2 * P);
		}
		if (snd == 0 || r == 0)
			break; /* §8.5: nothing happens unless both sets are non-empty */
		e.msgs = (u - 1) + (r - 1);
		e.bytes = (u + r - 2) * S;
		break;
	}
	}
	return e;
}

/* ------------------------------------------------------------ harness */

/* Zero-byte headers: the MPI class then carries exactly the collective payloads. */
#define SYS_EXTRA "[mpi]\nheader_bytes = 0\n"

typedef struct run_result {
	int rc;
	uint64_t msgs, bytes;
	ncsim_time_t end;
} run_result;

static run_result run(int ntasks, const char *system, int kind, uint64_t S, int mode, int alg, int rootsel, int reps)
{
	char a[6][32];
	snprintf(a[0], sizeof a[0], "--coll=%d", kind);
	snprintf(a[1], sizeof a[1], "--bytes=%llu", (unsigned long long)S);
	snprintf(a[2], sizeof a[2], "--group=%d", mode);
	snprintf(a[3], sizeof a[3], "--alg=%d", alg);
	snprintf(a[4], sizeof a[4], "--root=%d", rootsel);
	snprintf(a[5], sizeof a[5], "--reps=%d", reps);
	char *argv[6] = { a[0], a[1], a[2], a[3], a[4], a[5] };
	run_result r = { -1, 0, 0, 0 };
	memset(g_out.done, 0, sizeof g_out.done);
	drv_options o = { .system_text = system, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1 };
	drv_sim *s = tl_run_opts(&prog, (uint32_t)ntasks, &o, 6, argv, &r.rc, NULL);
	if (s && r.rc == 0) {
		const net_model *net = drv_world(s)->net;
		r.msgs = net->totals.msgs_injected[NET_CLASS_MPI];
		r.bytes = net->totals.bytes_injected[NET_CLASS_MPI];
		r.end = drv_end_time(s);
		for (int i = 0; i < ntasks; i++)
			if (!g_out.done[i])
				r.rc = 2;
	}
	drv_free(s);
	return r;
}

/* Runs `kind` on 1..33 tasks in every group mode; returns the number of mismatches. */
static int sweep(int kind, uint64_t S, int alg, int rootsel)
{
	int bad = 0;
	for (int n = 1; n <= 33; n++) {
		char *sys = tl_analytic((uint32_t)n, SYS_EXTRA);
		for (int m = 0; m < G_NMODES; m++) {
			/* Two repetitions when groups run concurrently: instances must not cross. */
			int reps = m == G_SPLIT ? 2 : 1;
			expect e = { 0, 0 };
			if (m == G_WORLD) {
				e = formula(kind, n, S, alg, rootsel);
			} else {
				int odd = n / 2, even = n - odd;
				if (odd) {
					expect x = formula(kind, odd, S, alg, rootsel);
					e.msgs += x.msgs * (uint64_t)reps;
					e.bytes += x.bytes * (uint64_t)reps;
				}
				if (m == G_SPLIT) {
					expect x = formula(kind, even, S, alg, rootsel);
					e.msgs += x.msgs * (uint64_t)reps;
					e.bytes += x.bytes * (uint64_t)reps;
				}
			}
			if (kind == K_VALUE) {
				g_out.cc = coll_ctx_new(NULL, NULL);
				memset(g_out.value, 0, sizeof g_out.value);
			}
			run_result r = run(n, sys, kind, S, m, alg, rootsel, reps);
			int ok = r.rc == 0 && r.msgs == e.msgs && r.bytes == e.bytes;
			if (ok && kind == K_VALUE) {
				/* Every member holds the exact sum, folded in member order. */
				for (int me = 0; me < n && ok; me++) {
					rt_int mem[MAXT];
					int P = group_of(m, me, n, mem);
					double want = 0;
					for (int k = 0; k < P; k++)
						want = k ? want + value_of((int)mem[k]) : value_of((int)mem[k]);
					ok = P == 0 || memcmp(&want, &g_out.value[me], sizeof want) == 0;
				}
				ok = ok && coll_board_open(g_out.cc) == 0;
			}
			if (kind == K_VALUE) {
				coll_ctx_free(g_out.cc);
				g_out.cc = NULL;
			}
			if (!ok) {
				bad++;
				fprintf(stderr, "%s (S=%llu alg=%d root=%d) on %d tasks, %s: rc %d, %llu msgs/%llu bytes, "
				        "expected %llu/%llu\n", kind_name[kind], (unsigned long long)S, alg, rootsel, n,
				        gmode_name[m], r.rc, (unsigned long long)r.msgs, (unsigned long long)r.bytes,
				        (unsigned long long)e.msgs, (unsigned long long)e.bytes);
			}
		}
		free(sys);
	}
	return bad;
}

/* ------------------------------------------------------------ tests */

static void test_barrier(void)
{
	CU_ASSERT_EQUAL(sweep(K_BARRIER, 0, 0, 0), 0);
	CU_ASSERT_EQUAL(sweep(K_BARRIER, 0, COLL_BARRIER_TREE, 0), 0);
	CU_ASSERT_EQUAL(sweep(K_BARRIER, 0, -1, 0), 0); /* rt_barrier: dissemination by default */
}

static void test_bcast(void)
{
	CU_ASSERT_EQUAL(sweep(K_BCAST, 1000, 0, 0), 0);
	CU_ASSERT_EQUAL(sweep(K_BCAST, 100000, 0, 5), 0); /* rendezvous, root inside */
}

static void test_reduce(void)
{
	CU_ASSERT_EQUAL(sweep(K_REDUCE, 1000, 0, 3), 0);
	CU_ASSERT_EQUAL(sweep(K_REDUCE, 0, 0, 0), 0);
}

static void test_allreduce(void)
{
	CU_ASSERT_EQUAL(sweep(K_ALLREDUCE, 1001, COLL_ALLREDUCE_AUTO, 0), 0);   /* recursive doubling */
	CU_ASSERT_EQUAL(sweep(K_ALLREDUCE, 70001, COLL_ALLREDUCE_AUTO, 0), 0);  /* ring, uneven chunks */
	CU_ASSERT_EQUAL(sweep(K_ALLREDUCE, 5, COLL_ALLREDUCE_RING, 0), 0);      /* ring, S < P */
	CU_ASSERT_EQUAL(sweep(K_ALLREDUCE, 100000, COLL_ALLREDUCE_RECDBL, 0), 0);
}

static void test_alltoall(void)
{
	CU_ASSERT_EQUAL(sweep(K_ALLTOALL, 700, 0, 0), 0);
	CU_ASSERT_EQUAL(sweep(K_ALLTOALLV, 300, 0, 0), 0);
}

static void test_gather_scatter(void)
{
	CU_ASSERT_EQUAL(sweep(K_GATHER, 500, COLL_TREE_BINOMIAL, 2), 0);
	CU_ASSERT_EQUAL(sweep(K_GATHER, 500, COLL_TREE_LINEAR, 7), 0);
	CU_ASSERT_EQUAL(sweep(K_GATHERV, 400, COLL_TREE_BINOMIAL, 4), 0);
	CU_ASSERT_EQUAL(sweep(K_GATHERV, 400, COLL_TREE_LINEAR, 1), 0);
	CU_ASSERT_EQUAL(sweep(K_SCATTER, 600, COLL_TREE_BINOMIAL, 6), 0);
	CU_ASSERT_EQUAL(sweep(K_SCATTER, 600, COLL_TREE_LINEAR, 0), 0);
}

static void test_reduce_to(void) { CU_ASSERT_EQUAL(sweep(K_REDUCE_TO, 800, 0, 0), 0); }

static void test_allreduce_value(void) { CU_ASSERT_EQUAL(sweep(K_VALUE, 8, 0, 0), 0); }

/*
 * Ring allreduce time on the analytic test machine (latency L = 100 ns,
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
static void test_ring_time(void)
{
	const char *costs = "[mpi]\npost_header = 0\npost_rdma = 0\npin_latency = 0\npin_per_page = 0\n";
	static const int sizes[] = { 2, 3, 5, 8, 13 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int P = sizes[i];
		char *sys = tl_analytic((uint32_t)P, costs);
		const ncsim_time_t L = TL_LAT, h = 6400, c_over_B = 10000000;
		ncsim_time_t want = 2 * (ncsim_time_t)(P - 1) * (4 * L + 3 * h + c_over_B);
		run_result r = run(P, sys, K_ALLREDUCE, (uint64_t)P * 100000, G_WORLD, COLL_ALLREDUCE_RING, 0, 1);
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
		run_result d = run(P, sys, K_BARRIER, 0, G_WORLD, COLL_BARRIER_DISSEMINATION, 0, 1);
		run_result t = run(P, sys, K_BARRIER, 0, G_WORLD, COLL_BARRIER_TREE, 0, 1);
		CU_ASSERT_EQUAL(d.rc, 0);
		CU_ASSERT_EQUAL(t.rc, 0);
		CU_ASSERT_EQUAL(d.end, (ncsim_time_t)ceil_log2(P) * TL_LAT);
		CU_ASSERT_EQUAL(t.end, (ncsim_time_t)(2 * H) * TL_LAT);
		if (d.end != (ncsim_time_t)ceil_log2(P) * TL_LAT || t.end != (ncsim_time_t)(2 * H) * TL_LAT)
			fprintf(stderr, "barrier on %d tasks: dissemination %llu ps (expected %llu), tree %llu ps "
			        "(expected %llu)\n", P, (unsigned long long)d.end,
			        (unsigned long long)(ceil_log2(P) * TL_LAT), (unsigned long long)t.end,
			        (unsigned long long)(2 * H * TL_LAT));
		free(sys);
	}
}

/*
 * [collectives] of the system file reaches rt_allreduce through the runtime's
 * coll_ctx: 1000 bytes would use recursive doubling (12 messages on 6 tasks),
 * `allreduce = ring` forces the ring.
 */
static void test_config_in_run(void)
{
	char *sys = tl_analytic(6, SYS_EXTRA "[collectives]\nallreduce = ring\n");
	g_out.has_ctx = 0;
	run_result r = run(6, sys, K_ALLREDUCE, 1000, G_WORLD, -1, 0, 1);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(g_out.has_ctx);
	/* The ring on 6 members: 2 P (P-1) = 60 messages carrying 2 (P-1) S = 10,000 bytes. */
	CU_ASSERT_EQUAL(r.msgs, 60);
	CU_ASSERT_EQUAL(r.bytes, 10000);
	free(sys);

	/* `barrier = tree` reaches rt_barrier: 3 barriers on 21 tasks, 2 * 20 messages each. */
	sys = tl_analytic(21, SYS_EXTRA "[collectives]\nbarrier = tree\n");
	g_out.has_ctx = 0;
	r = run(21, sys, K_BARRIER, 0, G_WORLD, -1, 0, 3);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(g_out.has_ctx);
	CU_ASSERT_EQUAL(r.msgs, 3 * 40);
	CU_ASSERT_EQUAL(r.bytes, 0);
	free(sys);
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
	CU_ASSERT_EQUAL(c.allreduce, COLL_ALLREDUCE_AUTO);
	CU_ASSERT_EQUAL(c.allreduce_ring_threshold, 65536);
	CU_ASSERT_EQUAL(c.gather, COLL_TREE_BINOMIAL);
	CU_ASSERT_EQUAL(c.barrier, COLL_BARRIER_DISSEMINATION);

	sysconf_t *sc = sysconf_parse("t.conf", "[collectives]\nallreduce = ring\n"
	                            "allreduce_ring_threshold = 1 MiB\ngather = linear\nscatter = Linear\n"
	                            "barrier = tree\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(coll_config_load(&c, sc, &err), 0);
	CU_ASSERT_EQUAL(c.allreduce, COLL_ALLREDUCE_RING);
	CU_ASSERT_EQUAL(c.allreduce_ring_threshold, 1048576);
	CU_ASSERT_EQUAL(c.gather, COLL_TREE_LINEAR);
	CU_ASSERT_EQUAL(c.scatter, COLL_TREE_LINEAR);
	CU_ASSERT_EQUAL(c.barrier, COLL_BARRIER_TREE);
	CU_ASSERT_EQUAL(sysconf_unused(sc, stderr), 0);
	sysconf_free(sc);

	config_error("[collectives]\ngather = star\n", (const char *[]){"t.conf:2", "star", NULL});
	config_error("[collectives]\n\nbarrier = butterfly\n", (const char *[]){"t.conf:3", "dissemination, tree", NULL});

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
		{"alltoall(v) 1..33", test_alltoall},
		{"gather/gatherv/scatter 1..33", test_gather_scatter},
		{"reduce_to 1..33", test_reduce_to},
		{"allreduce_value 1..33", test_allreduce_value},
		{"ring allreduce time", test_ring_time},
		{"barrier times", test_barrier_time},
		{NULL, NULL},
	};
	return ut_run("coll", tests);
}

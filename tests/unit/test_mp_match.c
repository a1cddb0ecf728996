/*
 * test_mp_match.c - the MPI matching queues (runtime/mpi/match.h): exact
 * matches, order within a pair, wildcard receives mixed with exact ones in
 * posting order, messages waiting for later receives, long queues, a random
 * mix checked against a plain list, and 10,000 unexpected messages through
 * the whole MPI layer.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/mpi/match.h"
#include "runtime/mpi/p2p.h"
#include "tests/unit/rt_testlib.h"

#define NONE MP_QUEUE_NONE
#define ANY (MP_ANY_SRC | MP_ANY_TAG)

/* ------------------------------------------------------------ queue level */

static void test_empty(void)
{
	mp_queue q = {0};
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), NONE);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 1, 5, 0), NONE);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 0, 0, ANY), NONE);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_free(&q);
	CU_ASSERT_PTR_NULL(q.tab);
}

/*
 * A lone entry stays in the queue itself (no table) until a second push,
 * which moves it into the table ahead of the newcomer: a wildcard receive
 * posted after an exact one must not overtake it, and a message that no
 * receive matches stays where it was.
 */
static void test_lone_entry(void)
{
	mp_queue q = {0};
	mp_queue_push(&q, 1, 5, 0, 7);
	CU_ASSERT_PTR_NULL(q.tab); /* kept inline */
	CU_ASSERT_EQUAL(mp_queue_len(&q), 1);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 6), NONE);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 2, 5), NONE);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 1);
	mp_queue_push(&q, 0, 5, MP_ANY_SRC, 8); /* the second push: both in the table, 7 first */
	CU_ASSERT_PTR_NOT_NULL(q.tab);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 2);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 7);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 8);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	/* The table is empty again: the next entry is kept inline; a wildcard receive takes it. */
	mp_queue_push(&q, 3, -2, 0, 9);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 1);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 4, -2, MP_ANY_TAG), NONE); /* source 3, not 4 */
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 4, -2, MP_ANY_SRC), 9);
	/* A wildcard receive kept inline takes any message. */
	mp_queue_push(&q, 0, 0, ANY, 10);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 12, 99), 10);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_push(&q, 1, 1, 0, 11);
	mp_queue_free(&q); /* frees the table and forgets the lone entry */
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	CU_ASSERT_PTR_NULL(q.tab);
}

/* A message takes the receive with its own source and tag, nothing else. */
static void test_exact(void)
{
	mp_queue q = {0};
	mp_queue_push(&q, 1, 5, 0, 10);
	mp_queue_push(&q, 2, 5, 0, 11);
	mp_queue_push(&q, 1, 6, 0, 12);
	mp_queue_push(&q, 1, -5, 0, 13); /* a negative tag is an ordinary tag */
	CU_ASSERT_EQUAL(mp_queue_len(&q), 4);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 2, 5), 11);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 7), NONE); /* no receive has tag 7 */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 3, 5), NONE); /* nor source 3 */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 2, 5), NONE); /* 11 is gone */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, -5), 13);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 6), 12);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 10);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_free(&q);
}

/* Messages of one pair and tag leave in arrival order, whatever the other pairs do. */
static void test_non_overtaking(void)
{
	mp_queue q = {0};
	for (uint32_t k = 0; k < 10; k++) {
		mp_queue_push(&q, 1, 5, 0, k);       /* source 1: items 0..9 */
		mp_queue_push(&q, 2, 5, 0, 100 + k); /* source 2: items 100..109 */
	}
	for (uint32_t k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 2, 5, 0), 100 + k);
	for (uint32_t k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 1, 5, 0), k);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 1, 5, 0), NONE);
	mp_queue_free(&q);
}

/*
 * Posted receives of every kind, in this order (item = posting rank):
 *   r0 (1, 5)  r1 (any, 5)  r2 (1, any)  r3 (any, any)  r4 (2, 5)  r5 (1, 5)
 * A message takes the earliest posted receive that fits it, whatever its kind.
 */
static void test_wildcard_receives(void)
{
	mp_queue q = {0};
	mp_queue_push(&q, 1, 5, 0, 0);
	mp_queue_push(&q, 77, 5, MP_ANY_SRC, 1); /* the source of a wildcard is ignored */
	mp_queue_push(&q, 1, 77, MP_ANY_TAG, 2);
	mp_queue_push(&q, 77, 77, ANY, 3);
	mp_queue_push(&q, 2, 5, 0, 4);
	mp_queue_push(&q, 1, 5, 0, 5);
	/* (2, 5) fits r1, r3, r4: r1 was posted first */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 2, 5), 1);
	/* (1, 7) fits r2 and r3: r2 */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 7), 2);
	/* (1, 5) fits r0, r3, r5: r0 */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 0);
	/* (1, 5) again fits r3 and r5: the wildcard r3 was posted before r5 */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 3);
	/* (3, 3) fits nothing left (r4 wants source 2, r5 source 1) */
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 3, 3), NONE);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 5);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 2, 5), 4);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_free(&q);
}

/*
 * Exact receives posted before wildcards keep their turn: r0 (1, 5), r1 (1, 5),
 * r2 (any, 5), r3 (1, 5). Three messages (1, 5) take r0, r1, then r2.
 */
static void test_exact_before_wildcard(void)
{
	mp_queue q = {0};
	mp_queue_push(&q, 1, 5, 0, 0);
	mp_queue_push(&q, 1, 5, 0, 1);
	mp_queue_push(&q, 0, 5, MP_ANY_SRC, 2);
	mp_queue_push(&q, 1, 5, 0, 3);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 0);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 1);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 2);
	CU_ASSERT_EQUAL(mp_queue_take_recv(&q, 1, 5), 3);
	mp_queue_free(&q);
}

/*
 * Unexpected messages, in arrival order m0 (2, 5), m1 (1, 6), m2 (1, 5),
 * m3 (3, 5), m4 (1, 6): later receives, exact or not, take the earliest that fits.
 */
static void test_unexpected_then_receives(void)
{
	mp_queue q = {0};
	static const struct { uint32_t src; rt_int tag; } m[] = {{2, 5}, {1, 6}, {1, 5}, {3, 5}, {1, 6}};
	for (uint32_t i = 0; i < 5; i++)
		mp_queue_push(&q, m[i].src, m[i].tag, 0, i);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 0, 5, MP_ANY_SRC), 0); /* tag 5: m0, m2, m3 */
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 1, 0, MP_ANY_TAG), 1); /* source 1: m1, m2, m4 */
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 4, 0, MP_ANY_TAG), NONE); /* nothing from 4 */
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 0, 0, ANY), 2);        /* m2, m3, m4 left */
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 1, 6, 0), 4);
	CU_ASSERT_EQUAL(mp_queue_take_msg(&q, 3, 5, 0), 3);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_free(&q);
}

/*
 * 10,000 messages wait, from three sources interleaved (message i comes from
 * source i % 3, with tag 7 or 8 by i % 2); receives in any order of sources
 * get each source's messages of a tag in arrival order. The pool's entries
 * are reused by a second round.
 */
static void test_long_queue(void)
{
	enum { N = 10000 };
	mp_queue q = {0};
	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < N; i++)
			mp_queue_push(&q, i % 3, 7 + (rt_int)(i % 2), 0, i);
		CU_ASSERT_EQUAL(mp_queue_len(&q), N);
		/* message i sits at position i / 6 of the FIFO (i % 3, 7 + i % 2): i = 6k + r, r = the pair */
		uint32_t wrong = 0;
		for (uint32_t k = 0; k < N / 6 + 1; k++)
			for (uint32_t r = 6; r-- > 0;) { /* the pairs backwards */
				uint32_t want = 6 * k + r;
				uint32_t got = mp_queue_take_msg(&q, r % 3, 7 + (rt_int)(r % 2), 0);
				wrong += got != (want < N ? want : NONE);
			}
		CU_ASSERT_EQUAL(wrong, 0);
		CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	}
	mp_queue_free(&q);
}

/* 5,000 distinct tags waiting at once (the table grows), then taken in a shuffled order. */
static void test_many_keys(void)
{
	enum { N = 5000 };
	mp_queue q = {0};
	for (uint32_t i = 0; i < N; i++)
		mp_queue_push(&q, 1, (rt_int)i * 1000003, 0, i);
	uint32_t wrong = 0;
	/* 2,003 is prime to 5,000: k -> k * 2003 % N visits every tag once */
	for (uint32_t k = 0; k < N; k++) {
		uint32_t i = (uint32_t)((uint64_t)k * 2003 % N);
		wrong += mp_queue_take_msg(&q, 1, (rt_int)i * 1000003, 0) != i;
	}
	CU_ASSERT_EQUAL(wrong, 0);
	CU_ASSERT_EQUAL(mp_queue_len(&q), 0);
	mp_queue_free(&q);
}

/* ------------------------------------------------------------ against a plain list */

/*
 * The rules written as MPI states them, on an array in push order: the
 * first live entry that fits. Random pushes and takes with few sources and
 * tags (so keys repeat and FIFOs empty and refill) must agree with it.
 */
typedef struct ref_entry {
	uint32_t src, item;
	rt_int tag;
	unsigned any;
	int live;
} ref_entry;

/* 1 if a receive from psrc with ptag and wildcard bits pany takes a message from src with tag. */
static int fits(uint32_t psrc, rt_int ptag, unsigned pany, uint32_t src, rt_int tag)
{
	return ((pany & MP_ANY_SRC) || psrc == src) && ((pany & MP_ANY_TAG) || ptag == tag);
}

/*
 * Takes the first live entry of e[0..n) that fits: on the receive side the
 * entries are receives and (src, tag) a message; on the message side the
 * entries are messages and (src, tag, any) a receive.
 */
static uint32_t ref_take(ref_entry *e, size_t n, uint32_t src, rt_int tag, unsigned any, int recv_side)
{
	for (size_t i = 0; i < n; i++) {
		int ok = recv_side ? fits(e[i].src, e[i].tag, e[i].any, src, tag) : fits(src, tag, any, e[i].src, e[i].tag);
		if (e[i].live && ok) {
			e[i].live = 0;
			return e[i].item;
		}
	}
	return NONE;
}

static void random_mix(int recv_side, unsigned seed)
{
	enum { OPS = 40000 };
	ref_entry *ref = xcalloc(OPS, sizeof *ref);
	size_t n = 0;
	mp_queue q = {0};
	uint32_t wrong = 0, taken = 0;
	srand(seed);
	for (uint32_t op = 0; op < OPS; op++) {
		uint32_t src = (uint32_t)rand() % 4;
		rt_int tag = rand() % 3 - 1;
		/* wildcards on the receive patterns only: pushed on the receive side, asked on the message side */
		unsigned any = rand() % 5 == 0 ? (unsigned)(rand() % 3 + 1) : 0;
		if (rand() % 2) {
			unsigned pany = recv_side ? any : 0;
			ref[n] = (ref_entry){.src = src, .tag = tag, .any = pany, .item = (uint32_t)n, .live = 1};
			mp_queue_push(&q, src, tag, pany, (uint32_t)n);
			n++;
		} else {
			uint32_t want = ref_take(ref, n, src, tag, any, recv_side);
			uint32_t got = recv_side ? mp_queue_take_recv(&q, src, tag) : mp_queue_take_msg(&q, src, tag, any);
			wrong += got != want;
			taken += got != NONE;
		}
	}
	CU_ASSERT_EQUAL(wrong, 0);
	CU_ASSERT_TRUE(taken > OPS / 10); /* the mix did match things */
	mp_queue_free(&q);
	free(ref);
}

static void test_random_receives(void) { random_mix(1, 15); }
static void test_random_messages(void) { random_mix(0, 16); }

/* ------------------------------------------------------------ the MPI layer */

enum { BURST = 5000 };
static uint32_t out_of_order;

/* Size of the message a fresh receive was bound to (it arrived earlier), or 0 if none. */
static uint64_t bound_bytes(rt_task *t, rt_req h)
{
	const mp_req *r = mp_req_get(t, h);
	return r && r->env ? mp_env_at(&t->w->envs, r->env - 1)->bytes : 0;
}

/*
 * Tasks 1 and 2 each send BURST asynchronous messages of 1, 2, ..., BURST
 * bytes (mailbox and eager sizes) to task 0, which computes for 1 s first,
 * so that all 10,000 wait unexpected; its receives, alternating sources,
 * must find sizes 1, 1, 2, 2, ... in order.
 */
static void burst(rt_task *t)
{
	if (rt_rank(t) != 0) {
		for (uint64_t k = 1; k <= BURST; k++)
			rt_isend(t, 0, k, 3, 0);
		rt_waitall(t);
		return;
	}
	rt_compute(t, 1000000 * RT_PS_PER_US);
	for (uint64_t k = 1; k <= BURST; k++)
		for (rt_int src = 1; src <= 2; src++)
			out_of_order += bound_bytes(t, rt_irecv(t, src, k, 3, 0)) != k;
	rt_waitall(t);
}
TL_PROGRAM(prog_burst, burst);

static void test_mpi_burst(void)
{
	out_of_order = 0;
	drv_sim *s = tl_check_run(&prog_burst, 3, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(out_of_order, 0);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->msgs_recv, 2 * BURST);
	CU_ASSERT_EQUAL(drv_world(s)->envs.live, 0);
	/* every envelope waited at once: the peak is the whole burst */
	CU_ASSERT_EQUAL(drv_world(s)->envs.peak, 2 * BURST);
	drv_free(s);
}

int main(void)
{
	static const ut_test queue[] = {
		{"empty queue", test_empty},
		{"a lone entry, kept in the queue", test_lone_entry},
		{"exact source and tag", test_exact},
		{"non-overtaking within a pair", test_non_overtaking},
		{"wildcard receives in posting order", test_wildcard_receives},
		{"exact receives before a wildcard", test_exact_before_wildcard},
		{"unexpected messages, later receives", test_unexpected_then_receives},
		{"10,000 waiting messages in order", test_long_queue},
		{"5,000 distinct keys", test_many_keys},
		{"random receives against a plain list", test_random_receives},
		{"random messages against a plain list", test_random_messages},
		{NULL, NULL},
	};
	static const ut_test mpi[] = {
		{"10,000 unexpected messages through the MPI layer", test_mpi_burst},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"match queue", queue, NULL, NULL},
		{"match mpi", mpi, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

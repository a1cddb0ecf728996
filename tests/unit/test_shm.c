/*
 * test_shm.c - messages between two tasks of one node: the [node] keys
 * shm_latency and shm_bandwidth, the exact timing of the three MPI protocols
 * through shared memory, the sender's copy order, mailbox credits inside a
 * node, and the ideal network.
 *
 * Test machine: the analytic machine of rt_testlib.h (100 ns, 10 GB/s links)
 * with two tasks on one node (--tasks-per-node 2) and, unless a test says
 * otherwise, shm_latency = 1 us and shm_bandwidth = 2 GB/s: a wire message of
 * B bytes inside the node takes shm(B) = 1 us + B x 500 ps after its copy
 * starts. The MPI costs are the defaults: header 64 B, copies at 11.20 GB/s,
 * post header 0.36 us, post RDMA 0.88 us, pin 5.43 us + 50.5 ns per 4 KiB
 * page; small <= 4 KiB < medium <= 64 KiB < large. Every sum is written out
 * term by term, each term rounded up to a picosecond as the simulator does.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "runtime/mpi/mpi_proto.h"
#include "tests/unit/rt_testlib.h"

#define SHM_NODE "[node]\nshm_latency = 1 us\nshm_bandwidth = 2 GB/s\n"
#define HDR 64
#define PH 360000ULL /* post header */
#define PR 880000ULL /* post RDMA */

static ncsim_time_t shm(uint64_t bytes) { return 1000000 + bytes * 500; }
static ncsim_time_t net(uint64_t bytes) { return TL_LAT + ut_xfer_ps(bytes, 10000000000); }
static ncsim_time_t copy(uint64_t bytes) { return ut_xfer_ps(bytes, 11200000000); }
static ncsim_time_t pin(uint64_t bytes) { return 5430000 + (bytes + 4095) / 4096 * 50500; }

/* Runs prog on 2 tasks of `system`, k tasks per node. */
static drv_sim *run_on(const rt_program *prog, const char *system, uint32_t k)
{
	drv_options o = {.system_text = system, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                 .tasks_per_node = k};
	int rc;
	drv_sim *s = tl_run_opts(prog, 2, &o, 0, NULL, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	return s;
}

/* Runs prog on 2 tasks of the analytic machine plus `extra`, k tasks per node. */
static drv_sim *run2(const rt_program *prog, const char *extra, uint32_t k)
{
	char *sys = tl_analytic(2, extra);
	drv_sim *s = run_on(prog, sys, k);
	free(sys);
	return s;
}

/* ------------------------------------------------------------ the keys */

static void test_defaults(void)
{
	mp_params p;
	mp_params_default(&p);
	/* base/defaults.h: 200 ns and 10 GB/s */
	CU_ASSERT_EQUAL(p.shm_latency, 200000);
	CU_ASSERT_DOUBLE_EQUAL(p.shm_bw, 10e9, 1.0);
	/* 1000 bytes at 10 GB/s = 100 ns, after the 200 ns */
	CU_ASSERT_EQUAL(mp_shm_time(&p, 1000), 300000);
	mp_params_free_costs(&p);
	CU_ASSERT_EQUAL(mp_shm_time(&p, 1 << 20), 0);
}

static int load(const char *text, mp_params *p, char **err) { return tl_mp_load("shm.conf", text, p, err); }

static void test_keys(void)
{
	mp_params p;
	char *err;
	CU_ASSERT_EQUAL_FATAL(load(SHM_NODE, &p, &err), 0);
	CU_ASSERT_EQUAL(p.shm_latency, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(p.shm_bw, 2e9, 1.0);
	/* 64 bytes at 2 GB/s = 32 ns after 1 us */
	CU_ASSERT_EQUAL(mp_shm_time(&p, 64), 1032000);

	/* A size is not a bandwidth: the error names the file and the line. */
	CU_ASSERT_EQUAL(load("[node]\nshm_bandwidth = 5 GiB\n", &p, &err), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "shm.conf:2"));
	free(err);
	/* Negative times are refused. */
	CU_ASSERT_EQUAL(load("[node]\nshm_latency = -1 us\n", &p, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
}

/* ------------------------------------------------------------ ping-pong */


/* Round trip of `size` bytes, k tasks per node, on the machine plus `extra`. */
static ncsim_time_t rtt(uint64_t size, const char *extra, uint32_t k)
{
	tl_pp_size = size;
	tl_pp_rtt = 0;
	drv_free(run2(&tl_pingpong, extra, k));
	return tl_pp_rtt;
}

static void test_small(void)
{
	uint64_t S = 1024;
	/* mailbox: header+data through shared memory, the receiver copies */
	CU_ASSERT_EQUAL(rtt(S, SHM_NODE, 2), 2 * (shm(HDR + S) + copy(S)));
	/* the same pair on two nodes crosses the network */
	CU_ASSERT_EQUAL(rtt(S, SHM_NODE, 1), 2 * (net(HDR + S) + copy(S)));
}

static void test_medium(void)
{
	uint64_t S = 32768;
	/* sender copy + post header, header, receiver post RDMA, RDMA request, data, receiver copy */
	ncsim_time_t one_way = copy(S) + PH + shm(HDR) + PR + shm(HDR) + shm(S) + copy(S);
	CU_ASSERT_EQUAL(rtt(S, SHM_NODE, 2), 2 * one_way);
}

static void test_large(void)
{
	uint64_t S = 1 << 20;
	/* sender pin + post header, RTS, receiver pin + post RDMA, RDMA request, data (zero copy) */
	ncsim_time_t one_way = pin(S) + PH + shm(HDR) + pin(S) + PR + shm(HDR) + shm(S);
	CU_ASSERT_EQUAL(rtt(S, SHM_NODE, 2), 2 * one_way);
}

/* The defaults of base/defaults.h: 0-byte mailbox message = 200 ns + 64 B at 10 GB/s (6.4 ns). */
static void test_default_keys(void)
{
	CU_ASSERT_EQUAL(rtt(0, NULL, 2), 2 * (200000 + 6400));
}

/* The ideal network models no time, inside a node too: the driver zeroes the keys with the other MPI costs. */
static void test_ideal(void)
{
	tl_pp_size = 1 << 20;
	tl_pp_rtt = 1;
	drv_free(run_on(&tl_pingpong, "[network]\nmodel = ideal\nnodes = 2\n" SHM_NODE, 2));
	CU_ASSERT_EQUAL(tl_pp_rtt, 0);
}

/* ------------------------------------------------------------ the sender's copies */

enum { WIN = 8, WBYTES = 4096 };
static ncsim_time_t win_end;
static rt_int first_bytes;

/* A window of WIN small messages, then two of one tag: 4096 bytes and 0 bytes. */
static void window(rt_task *t)
{
	if (rt_rank(t) == 0) {
		for (int i = 0; i < WIN; i++)
			rt_isend(t, 1, WBYTES, 0, 0);
		rt_waitall(t);
		rt_send(t, 1, WBYTES, 5, 0);
		rt_send(t, 1, 0, 5, 0);
	} else {
		for (int i = 0; i < WIN; i++)
			rt_irecv(t, 0, WBYTES, 0, 0);
		rt_waitall(t);
		win_end = rt_now(t);
		rt_counters_reset(t);
		rt_recv(t, 0, WBYTES, 5, 0);
		first_bytes = rt_counter(t, RT_BYTES_RECEIVED);
		rt_recv(t, 0, 0, 5, 0);
	}
}
TL_PROGRAM(prog_window, window);

static void test_window(void)
{
	drv_sim *s = run2(&prog_window, SHM_NODE, 2);
	/*
	 * The sender copies its messages one after the other: message i (from 1)
	 * has left at i x 4160 x 500 ps and arrives 1 us later. The receiver's
	 * copies (0.366 us each) are shorter than the 2.08 us between arrivals,
	 * so it is done one copy after the last arrival.
	 */
	CU_ASSERT_EQUAL(win_end, WIN * (HDR + WBYTES) * 500ULL + 1000000 + copy(WBYTES));
	/*
	 * MPI order: the 0-byte message is copied after the 4096-byte one and
	 * arrives after it, so it cannot take the first receive (its own copy
	 * is 2.05 us shorter: without the sender's order it would overtake).
	 */
	CU_ASSERT_EQUAL(first_bytes, WBYTES);
	drv_free(s);
}

/* ------------------------------------------------------------ credits */

/* With 1 credit, the second small send waits one round trip inside the node. */
static ncsim_time_t flood_end;
static void flood(rt_task *t)
{
	if (rt_rank(t) == 0) {
		for (int i = 0; i < 2; i++)
			rt_send(t, 1, 0, 0, 0);
		flood_end = rt_now(t);
	} else {
		for (int i = 0; i < 2; i++)
			rt_recv(t, 0, 0, 0, 0);
	}
}
TL_PROGRAM(prog_flood, flood);

static void test_credits(void)
{
	drv_free(run2(&prog_flood, "[mpi]\ncredits = 1\n" SHM_NODE, 2));
	/* round trip estimate inside the node: a 64 B header each way through shared memory */
	CU_ASSERT_EQUAL(flood_end, shm(HDR) + shm(HDR));
	drv_free(run2(&prog_flood, "[mpi]\ncredits = 1\n" SHM_NODE, 1));
	/* across nodes: the network's */
	CU_ASSERT_EQUAL(flood_end, net(HDR) + net(HDR));
}

int main(void)
{
	static const ut_test tests[] = {
		{"default keys", test_defaults},
		{"[node] shm_latency and shm_bandwidth", test_keys},
		{"ping-pong small inside a node and across", test_small},
		{"ping-pong medium inside a node", test_medium},
		{"ping-pong large inside a node", test_large},
		{"ping-pong with the default keys", test_default_keys},
		{"ideal network inside a node", test_ideal},
		{"the sender's copies: pacing and MPI order", test_window},
		{"mailbox credits inside a node", test_credits},
		{NULL, NULL},
	};
	return ut_run("shm", tests);
}

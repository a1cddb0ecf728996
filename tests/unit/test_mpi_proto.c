/*
 * test_mpi_proto.c - exact timing of the three MPI protocols on the analytic
 * network, the network/sync/stack decomposition, and the ideal network.
 *
 * Test machine (rt_testlib.h): latency L = 100 ns, links 10 GB/s, injection
 * 20 GB/s, so an idle message of B bytes takes net(B) = L + B/10 GB/s (the
 * injection port is faster and never the bottleneck). MPI costs are the
 * defaults: header 64 B, copies at 11.20 GB/s, post header 0.36 us, post RDMA
 * 0.88 us, pin 5.43 us + 50.5 ns per 4 KiB page; small <= 4 KiB < medium <=
 * 64 KiB < large. Every sum below is written out term by term, each term
 * rounded up to a picosecond as the simulator rounds it.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>

#include "runtime/mpi/p2p.h"
#include "tests/unit/rt_testlib.h"

static ncsim_time_t net(uint64_t bytes) { return TL_LAT + ut_xfer_ps(bytes, 10000000000); }
static ncsim_time_t copy(uint64_t bytes) { return ut_xfer_ps(bytes, 11200000000); }
static ncsim_time_t pin(uint64_t bytes) { return 5430000 + (bytes + 4095) / 4096 * 50500; }
#define PH 360000ULL /* post header */
#define PR 880000ULL /* post RDMA */
#define HDR 64

/* ------------------------------------------------------------ ping-pong */


/* Ping-pong of `size` bytes on `system` (NULL: the analytic test machine). */
static drv_sim *run_pingpong(uint64_t size, const char *system)
{
	tl_pp_size = size;
	tl_pp_rtt = 0;
	int rc;
	drv_sim *s = system ? tl_run(&tl_pingpong, 2, system, &rc, NULL)
	                    : tl_run_analytic(&tl_pingpong, 2, NULL, &rc, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_TRUE(s && tl_decomposition_adds_up(s));
	return s;
}

static void test_pingpong_small(void)
{
	uint64_t S = 1024;
	drv_sim *s = run_pingpong(S, NULL);
	/* mailbox: header+data cross the network, the receiver copies */
	ncsim_time_t one_way = net(HDR + S) + copy(S);
	CU_ASSERT_EQUAL(tl_pp_rtt, 2 * one_way);
	/* Task 0 waits in its receive from 0; task 1 posts the pong at one_way: that much is sync. */
	const task_totals *t0 = tl_tot(s, 0);
	CU_ASSERT_EQUAL(t0->t[TK_T_MPI_STACK], copy(S));
	CU_ASSERT_EQUAL(t0->t[TK_T_MPI_SYNC], one_way);
	CU_ASSERT_EQUAL(t0->t[TK_T_MPI_NET], net(HDR + S));
	drv_free(s);
}

static void test_pingpong_medium(void)
{
	uint64_t S = 32768;
	drv_sim *s = run_pingpong(S, NULL);
	/* sender copy + post header, header, receiver post RDMA, RDMA request, data, receiver copy */
	ncsim_time_t one_way = copy(S) + PH + net(HDR) + PR + net(HDR) + net(S) + copy(S);
	CU_ASSERT_EQUAL(tl_pp_rtt, 2 * one_way);
	drv_free(s);
}

static void test_pingpong_large(void)
{
	uint64_t S = 1 << 20;
	drv_sim *s = run_pingpong(S, NULL);
	/* sender pin + post header, RTS, receiver pin + post RDMA, RDMA request, data (zero copy) */
	ncsim_time_t one_way = pin(S) + PH + net(HDR) + pin(S) + PR + net(HDR) + net(S);
	CU_ASSERT_EQUAL(tl_pp_rtt, 2 * one_way);
	drv_free(s);
}

/* The ideal network: no time at all in MPI. */
static void test_pingpong_ideal(void)
{
	drv_sim *s = run_pingpong(1 << 20, "[network]\nmodel = ideal\nnodes = 2\n");
	CU_ASSERT_EQUAL(tl_pp_rtt, 0);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->mpi_total, 0);
	CU_ASSERT_EQUAL(tl_tot(s, 1)->mpi_total, 0);
	CU_ASSERT_STRING_EQUAL(drv_network_name(s), "ideal");
	drv_free(s);
}

/* ------------------------------------------------------------ N to 1 */

enum { NSEND = 8 };
static uint64_t n1_size;

static void many_to_one(rt_task *t)
{
	if (rt_rank(t) == 0) {
		for (int i = 1; i <= NSEND; i++)
			rt_irecv(t, i, n1_size, 0, 0);
		rt_waitall(t);
		CU_ASSERT_EQUAL(rt_counter(t, RT_MSGS_RECEIVED), NSEND);
		CU_ASSERT_EQUAL(rt_counter(t, RT_BYTES_RECEIVED), (rt_int)(NSEND * n1_size));
	} else {
		rt_send(t, 0, n1_size, 0, 0);
	}
}
TL_PROGRAM(prog_many_to_one, many_to_one);

static void test_many_to_one(void)
{
	/* Free copies: the receiver finishes when the ejection port has served N messages. */
	n1_size = 4096;
	drv_sim *s = tl_check_run(&prog_many_to_one, NSEND + 1, "[mpi]\nmemory_bandwidth = 0 B/s\n", NULL, 0, NULL);
	ncsim_time_t x = ut_xfer_ps(HDR + 4096, 10000000000); /* 416 ns */
	CU_ASSERT_EQUAL(tl_tot(s, 0)->end, TL_LAT + NSEND * x);
	/* Senders complete at once (mailbox with credits). */
	CU_ASSERT_EQUAL(tl_tot(s, 1)->end, 0);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);

	/* With copies: a 4096 B copy (365.715 ns) is shorter than a 4160 B arrival (416 ns), so only the last shows. */
	s = tl_check_run(&prog_many_to_one, NSEND + 1, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->end, TL_LAT + NSEND * x + copy(4096));
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_STACK], NSEND * copy(4096));
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
}

/* ------------------------------------------------------------ one resumption per wait */

#define NXCHG 5
static void exchange(rt_task *t)
{
	rt_int peer = 1 - rt_rank(t);
	for (int i = 0; i < NXCHG; i++)
		rt_sendrecv(t, peer, 1 << 20, 0, peer, 1 << 20, 0);
}
TL_PROGRAM(prog_exchange, exchange);

/*
 * Two tasks exchange 1 MiB NXCHG times (rendezvous both ways). Each wait
 * holds four CPU steps and deliveries (the send's pinning, the peer's RTS,
 * the receive's pinning, data and ACK); they run in the task's events, so a
 * task is switched into once at its start and once per completed wait.
 */
static void test_one_resume_per_wait(void)
{
	uint64_t S = 1 << 20;
	unsigned long before = task_switches();
	drv_sim *s = tl_check_run(&prog_exchange, 2, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(task_switches() - before, 2 * (1 + NXCHG));
	/*
	 * One exchange, symmetric: send pin + post header, RTS, receive pin +
	 * post RDMA, RDMA request, data; the send completes with the ACK, one
	 * header later. The ports never overlap (each carries one of each).
	 */
	ncsim_time_t step = pin(S) + PH + net(HDR) + pin(S) + PR + net(HDR) + net(S) + net(HDR);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->end, NXCHG * step);
	CU_ASSERT_EQUAL(tl_tot(s, 1)->end, NXCHG * step);
	/* Stack: both pinnings and posts; the rest of each step is network (both sides post together: no sync). */
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_STACK], NXCHG * (2 * pin(S) + PH + PR));
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_SYNC], 0);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_NET], NXCHG * (3 * net(HDR) + net(S)));
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
}

/* ------------------------------------------------------------ late partners */

static void late_receiver(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_send(t, 1, 1 << 20, 0, 0);
	} else {
		rt_compute(t, 100 * RT_PS_PER_US);
		rt_recv(t, 0, 1 << 20, 0, 0);
	}
}
TL_PROGRAM(prog_late_receiver, late_receiver);

static void test_late_receiver(void)
{
	drv_sim *s = tl_check_run(&prog_late_receiver, 2, NULL, NULL, 0, NULL);
	uint64_t S = 1 << 20;
	ncsim_time_t late = 100 * RT_PS_PER_US;
	const task_totals *snd = tl_tot(s, 0), *rcv = tl_tot(s, 1);
	/* The sender pins, then waits for a receiver that posts at 100 us: that wait is sync. */
	CU_ASSERT_EQUAL(snd->t[TK_T_MPI_STACK], pin(S) + PH);
	CU_ASSERT_EQUAL(snd->t[TK_T_MPI_SYNC], late - pin(S) - PH);
	CU_ASSERT_EQUAL(snd->t[TK_T_MPI_NET], pin(S) + PR + net(HDR) + net(S) + net(HDR));
	CU_ASSERT_EQUAL(snd->end, late + pin(S) + PR + net(HDR) + net(S) + net(HDR));
	/* The receiver found the RTS waiting: no sync, its own pinning is stack. */
	CU_ASSERT_EQUAL(rcv->t[TK_T_COMPUTE], late);
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_SYNC], 0);
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_STACK], pin(S) + PR);
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_NET], net(HDR) + net(S));
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
}

static void late_sender(rt_task *t)
{
	if (rt_rank(t) == 1) {
		rt_recv(t, 0, 1024, 0, 0);
	} else {
		rt_compute(t, 50 * RT_PS_PER_US);
		rt_send(t, 1, 1024, 0, 0);
	}
}
TL_PROGRAM(prog_late_sender, late_sender);

static void test_late_sender(void)
{
	drv_sim *s = tl_check_run(&prog_late_sender, 2, NULL, NULL, 0, NULL);
	const task_totals *rcv = tl_tot(s, 1);
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_SYNC], 50 * RT_PS_PER_US);
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_NET], net(HDR + 1024));
	CU_ASSERT_EQUAL(rcv->t[TK_T_MPI_STACK], copy(1024));
	CU_ASSERT_EQUAL(rcv->mpi_total, 50 * RT_PS_PER_US + net(HDR + 1024) + copy(1024));
	drv_free(s);
}

/* ------------------------------------------------------------ credits, protocols */

static void test_protocol_choice(void)
{
	mp_params p;
	mp_params_default(&p);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 0), MP_SMALL);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 4096), MP_SMALL);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 4097), MP_MEDIUM);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 65536), MP_MEDIUM);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 65537), MP_LARGE);
	CU_ASSERT_EQUAL(mp_pin_time(&p, 1), 5430000 + 50500);
	CU_ASSERT_EQUAL(mp_pin_time(&p, 8192), 5430000 + 2 * 50500);
	CU_ASSERT_EQUAL(mp_copy_time(&p, 1120), 100000);
	mp_params_free_costs(&p);
	CU_ASSERT_EQUAL(mp_pin_time(&p, 1 << 20), 0);
	CU_ASSERT_EQUAL(mp_copy_time(&p, 1 << 20), 0);
}

/* With 2 credits, the third small send waits one zero-load round trip for the first credit. */
static ncsim_time_t flood_end;
static void flood(rt_task *t)
{
	if (rt_rank(t) == 0) {
		for (int i = 0; i < 3; i++)
			rt_send(t, 1, 0, 0, 0);
		flood_end = rt_now(t);
	} else {
		for (int i = 0; i < 3; i++)
			rt_recv(t, 0, 0, 0, 0);
	}
}
TL_PROGRAM(prog_flood, flood);

static void test_credits(void)
{
	drv_sim *s = tl_check_run(&prog_flood, 2, "[mpi]\ncredits = 2\n", NULL, 0, NULL);
	/* round trip estimate: a 64 B header each way */
	CU_ASSERT_EQUAL(flood_end, net(HDR) + net(HDR));
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_NET], net(HDR) + net(HDR));
	drv_free(s);
}

int main(void)
{
	static const ut_test tests[] = {
		{"protocol choice and costs", test_protocol_choice},
		{"ping-pong small (mailbox)", test_pingpong_small},
		{"ping-pong medium (eager RDMA)", test_pingpong_medium},
		{"ping-pong large (rendezvous)", test_pingpong_large},
		{"ping-pong on the ideal network", test_pingpong_ideal},
		{"N senders to one receiver", test_many_to_one},
		{"late receiver: sender waits in sync", test_late_receiver},
		{"late sender: receiver waits in sync", test_late_sender},
		{"mailbox credits", test_credits},
		{"one resumption per wait", test_one_resume_per_wait},
		{NULL, NULL},
	};
	return ut_run("mpi_proto", tests);
}

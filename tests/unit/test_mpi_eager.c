/*
 * test_mpi_eager.c - [mpi] protocol = eager and the off-CPU send delay
 * (send_delay + bytes x send_delay_per_byte): the keys and their file:line
 * errors, exact arrival times on the analytic network, delays of sends
 * posted together running side by side, the other protocols, credits and
 * shared memory under a delay, and runs without the keys left as they were.
 *
 * A delayed eager send completes when its message has left the sender's NIC
 * (its last byte out of the injection port at the analytic level).
 *
 * Test machine (rt_testlib.h): latency L = 100 ns, links 10 GB/s, injection
 * 20 GB/s; an idle message of B bytes takes net(B) = L + B/10 GB/s and holds
 * the sender's injection port B/20 GB/s. EAGER below is the [mpi] section
 * that CODES files with MFNetSim's clients run with (runtime/net/netfactory.c):
 * payload only, no credits, no copy, D(B) = 3.51 us + 0.55 ns x B.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "runtime/coll/coll.h"
#include "runtime/mpi/mpi_proto.h"
#include "tests/unit/rt_testlib.h"

#define EAGER "[mpi]\nprotocol = eager\nheader_bytes = 0\ncredits = 0\nmemory_bandwidth = 0\n" \
              "call_overhead = 0\nsend_delay = 3.51 us\nsend_delay_per_byte = 0.55 ns\n"
#define MILC 497664 /* MFNetSim's MILC halo message */
#define HDR 64
#define PH 360000ULL /* post header */
#define PR 880000ULL /* post RDMA */

static ncsim_time_t net(uint64_t bytes) { return TL_LAT + ut_xfer_ps(bytes, 10000000000); }
static ncsim_time_t inj(uint64_t bytes) { return ut_xfer_ps(bytes, 20000000000); }
static ncsim_time_t copy(uint64_t bytes) { return ut_xfer_ps(bytes, 11200000000); }
static ncsim_time_t pin(uint64_t bytes) { return 5430000 + (bytes + 4095) / 4096 * 50500; }
/* MFNetSim's delay: 10 ns overhead + 2.5 us software + 1 us NIC = 3.51 us, and 0.55 ns (550 ps) per byte. */
static ncsim_time_t delay(uint64_t bytes) { return 3510000 + 550 * bytes; }

/* ------------------------------------------------------------ the keys */

static int load(const char *text, mp_params *p, char **err) { return tl_mp_load("eager.conf", text, p, err); }

static void test_keys(void)
{
	mp_params p;
	char *err;
	/* Absent keys: no delay, the choice by size of the defaults. */
	CU_ASSERT_EQUAL_FATAL(load("[mpi]\n", &p, &err), 0);
	CU_ASSERT_EQUAL(p.send_delay, 0);
	CU_ASSERT_EQUAL(p.send_delay_per_byte, 0);
	CU_ASSERT_EQUAL(mp_send_delay(&p, MILC), 0);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 65537), MP_LARGE);
	CU_ASSERT_EQUAL_FATAL(load("[mpi]\nprotocol = auto\n", &p, &err), 0);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 4097), MP_MEDIUM);

	CU_ASSERT_EQUAL_FATAL(load(EAGER, &p, &err), 0);
	CU_ASSERT_EQUAL(p.send_delay, 3510000);
	CU_ASSERT_EQUAL(p.send_delay_per_byte, 550);
	/* 3.51 us + 497,664 x 0.55 ns = 3,510,000 + 273,715,200 ps */
	CU_ASSERT_EQUAL(mp_send_delay(&p, MILC), 277225200);
	/* every size, the largest included, goes through the mailbox */
	CU_ASSERT_EQUAL(mp_proto_of(&p, 29516800), MP_SMALL);
	CU_ASSERT_EQUAL(mp_proto_of(&p, UINT64_MAX), MP_SMALL);
	CU_ASSERT_EQUAL(p.header_bytes, 0);
	CU_ASSERT_EQUAL(p.credits, 0);
	CU_ASSERT_EQUAL(mp_copy_time(&p, MILC), 0);
	/* The value is not case-sensitive, like the other names of system files. */
	CU_ASSERT_EQUAL(load("[mpi]\nprotocol = Eager\n", &p, &err), 0);
	CU_ASSERT_EQUAL(mp_proto_of(&p, 1 << 30), MP_SMALL);
	/* The ideal network's bound drops the delays with every other cost. */
	CU_ASSERT_EQUAL_FATAL(load(EAGER, &p, &err), 0);
	mp_params_free_costs(&p);
	CU_ASSERT_EQUAL(mp_send_delay(&p, MILC), 0);
	/* Saturates instead of wrapping: 2^63 bytes at 550 ps. */
	CU_ASSERT_EQUAL_FATAL(load(EAGER, &p, &err), 0);
	CU_ASSERT_EQUAL(mp_send_delay(&p, (uint64_t)1 << 63), UINT64_MAX);
}

/* A bad value and its error: the file and the line of the key at fault. */
typedef struct key_error {
	const char *text, *want;
} key_error;

static const key_error key_errors[] = {
	{"[mpi]\nsend_delay = -1 ns\n",
	 "eager.conf:2: [mpi] send_delay = '-1 ns': negative time (expected a time such as 100 ns or 1.5e-3 s)"},
	/* A bandwidth is not a time per byte. */
	{"[mpi]\n\nsend_delay_per_byte = 2 GB/s\n",
	 "eager.conf:3: [mpi] send_delay_per_byte = '2 GB/s': unknown time unit (use ps, ns, us, ms or s)..."},
	{"[mpi]\nprotocol = rendezvous\n", "eager.conf:2: [mpi] protocol = 'rendezvous': expected auto or eager"},
	/* Thresholds that protocol = eager overrides are refused where they are written. */
	{"[mpi]\nprotocol = eager\nsmall_max = 4 KiB\n",
	 "eager.conf:3: [mpi] small_max has no use with protocol = eager, which sends every size eagerly"},
	{"[mpi]\nmedium_max = 1 MiB\n\nprotocol = eager\n",
	 "eager.conf:2: [mpi] medium_max has no use with protocol = eager, which sends every size eagerly"},
};

static void test_key_errors(void)
{
	for (size_t i = 0; i < sizeof key_errors / sizeof key_errors[0]; i++) {
		mp_params p;
		char *err;
		CU_ASSERT_EQUAL(load(key_errors[i].text, &p, &err), -1);
		UT_TAKE_ERROR(err, key_errors[i].want);
	}
}

/* ------------------------------------------------------------ one message */

static uint64_t msg_size;
static ncsim_time_t t_sent, t_recvd;

static void one_message(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_send(t, 1, msg_size, 0, 0);
		t_sent = rt_now(t);
	} else {
		rt_recv(t, 0, msg_size, 0, 0);
		t_recvd = rt_now(t);
	}
}
TL_PROGRAM(prog_one_message, one_message);

static drv_sim *run_one(uint64_t size, const char *extra)
{
	msg_size = size;
	t_sent = t_recvd = 0;
	drv_sim *s = tl_check_run(&prog_one_message, 2, extra, NULL, 0, NULL);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	return s;
}

static void test_one_message(void)
{
	/* MFNetSim's MILC message: the delay, then the idle network, and no copy on arrival. */
	drv_sim *s = run_one(MILC, EAGER);
	/* 277,225,200 + (100,000 + 49,766,400) ps */
	CU_ASSERT_EQUAL(t_recvd, delay(MILC) + net(MILC));
	CU_ASSERT_EQUAL(t_recvd, 327091600);
	/*
	 * The send returns when the message's last byte leaves the sender's
	 * injection port (the analytic level has no packets): its delay, then
	 * 497,664 B at 20 GB/s = 24,883,200 ps.
	 */
	CU_ASSERT_EQUAL(t_sent, delay(MILC) + inj(MILC));
	CU_ASSERT_EQUAL(t_sent, 302108400);
	/* Its wait is all network (no partner to wait for) and no software step ran. */
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_NET], delay(MILC) + inj(MILC));
	CU_ASSERT_EQUAL(tl_tot(s, 0)->t[TK_T_MPI_STACK], 0);
	CU_ASSERT_EQUAL(tl_tot(s, 1)->t[TK_T_MPI_STACK], 0);
	drv_free(s);
	/* Without the delay keys the same eager message takes the network time alone. */
	drv_free(run_one(MILC, "[mpi]\nprotocol = eager\nheader_bytes = 0\ncredits = 0\nmemory_bandwidth = 0\n"));
	CU_ASSERT_EQUAL(t_recvd, net(MILC));
	CU_ASSERT_EQUAL(t_sent, 0);
	/* A 0-byte message pays the fixed part only. */
	drv_free(run_one(0, EAGER));
	CU_ASSERT_EQUAL(t_recvd, 3510000 + net(0));
}

/*
 * At the packet level the send completes when the message's last packet
 * starts leaving the NIC, as a blocking send of CODES' model-net returns:
 * on df-tiny's idle machine (16 GiB/s terminal links, 4 KiB packets) a
 * 1-packet message at its delay, a 2-packet one a packet's serialization
 * later (4096 B at 16 GiB/s = 238,418.6 ps, rounded up).
 */
static void test_packet_level(void)
{
	char *path = ut_src_path("stdlib/systems/df-tiny.conf"), *text = ut_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *sys = xasprintf("%s\n" EAGER, text);
	int rc;
	static const struct {
		uint64_t bytes;
		ncsim_time_t after_delay;
	} cases[] = {{4096, 0}, {8192, 238419}};
	for (size_t i = 0; i < 2; i++) {
		msg_size = cases[i].bytes;
		drv_sim *s = tl_run(&prog_one_message, 2, sys, &rc, NULL);
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(t_sent, delay(cases[i].bytes) + cases[i].after_delay);
		CU_ASSERT_TRUE(t_recvd > t_sent);
		drv_free(s);
	}
	free(sys);
	free(text);
	free(path);
}

/* ------------------------------------------------------------ sends posted together */

static ncsim_time_t t_end[3];

/* Task 0 posts MILC bytes to tasks 1 and 2 at once and waits for both. */
static void fan_out(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_isend(t, 1, MILC, 0, 0);
		rt_isend(t, 2, MILC, 0, 0);
		rt_waitall(t);
	} else {
		rt_recv(t, 0, MILC, 0, 0);
	}
	t_end[rt_rank(t)] = rt_now(t);
}
TL_PROGRAM(prog_fan_out, fan_out);

static void test_parallel_delays(void)
{
	drv_sim *s = tl_check_run(&prog_fan_out, 3, EAGER, NULL, 0, NULL);
	/*
	 * Both delays run from t = 0, so both messages reach the NIC at D =
	 * 277,225,200 ps; the first to be posted is injected first, the second
	 * waits for the injection port (497,664 B at 20 GB/s = 24,883,200 ps).
	 * Delays in a row would put the second at 2D + net = 604,316,800 ps.
	 */
	CU_ASSERT_EQUAL(t_end[1], delay(MILC) + net(MILC));
	CU_ASSERT_EQUAL(t_end[2], delay(MILC) + inj(MILC) + net(MILC));
	CU_ASSERT_EQUAL(t_end[2], 351974800);
	/* The sender waited for both to leave its injection port, the second one inj later. */
	CU_ASSERT_EQUAL(t_end[0], delay(MILC) + 2 * inj(MILC));
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
}

static ncsim_time_t t_short, t_long;

/* Task 0 posts a long message, then a short one, to task 1; task 1 takes the short one first. */
static void overtake(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_isend(t, 1, MILC, 1, 0);
		rt_isend(t, 1, 1000, 2, 0);
		rt_waitall(t);
	} else {
		rt_recv(t, 0, 1000, 2, 0);
		t_short = rt_now(t);
		rt_recv(t, 0, MILC, 1, 0);
		t_long = rt_now(t);
	}
}
TL_PROGRAM(prog_overtake, overtake);

static void test_own_offsets(void)
{
	drv_sim *s = tl_check_run(&prog_overtake, 2, EAGER, NULL, 0, NULL);
	/* Each message has its own delay: 3.51 us + 550 ns for 1000 B, so it enters the network first. */
	CU_ASSERT_EQUAL(t_short, delay(1000) + net(1000));
	CU_ASSERT_EQUAL(t_short, 4260000);
	/* The long one enters at its own D, the injection port idle again by then. */
	CU_ASSERT_EQUAL(t_long, delay(MILC) + net(MILC));
	drv_free(s);
}

/* ------------------------------------------------------------ the other protocols */

static void test_large_delayed(void)
{
	/* Rendezvous with a 1 us delay: only the RTS waits; the rest of the protocol is unchanged. */
	uint64_t S = 1 << 20;
	drv_free(run_one(S, "[mpi]\nsend_delay = 1 us\n"));
	ncsim_time_t rts = pin(S) + PH + 1000000 + net(HDR);
	CU_ASSERT_EQUAL(t_recvd, rts + pin(S) + PR + net(HDR) + net(S));
	/* The sender still completes on the receiver's ACK. */
	CU_ASSERT_EQUAL(t_sent, rts + pin(S) + PR + net(HDR) + net(S) + net(HDR));
	/* Medium: the header waits 1 us + 1 ns x 32,768 after the sender's copy, which is when the send returns. */
	S = 32768;
	drv_free(run_one(S, "[mpi]\nsend_delay = 1 us\nsend_delay_per_byte = 1 ns\n"));
	ncsim_time_t hdr = copy(S) + PH + 1000000 + 1000 * S;
	CU_ASSERT_EQUAL(t_sent, hdr);
	CU_ASSERT_EQUAL(t_recvd, hdr + net(HDR) + PR + net(HDR) + net(S) + copy(S));
}

static ncsim_time_t flood_end;

/* Three 0-byte sends posted together with 2 mailbox credits. */
static void flood(rt_task *t)
{
	if (rt_rank(t) == 0) {
		for (int i = 0; i < 3; i++)
			rt_isend(t, 1, 0, 0, 0);
		rt_waitall(t);
		flood_end = rt_now(t);
	} else {
		for (int i = 0; i < 3; i++)
			rt_recv(t, 0, 0, 0, 0);
	}
}
TL_PROGRAM(prog_flood, flood);

static void test_credits_delayed(void)
{
	drv_sim *s = tl_check_run(&prog_flood, 2, "[mpi]\ncredits = 2\nsend_delay = 1 us\n", NULL, 0, NULL);
	/*
	 * A credit comes back one round trip (64 B each way) after its message
	 * enters the network, 1 us after its post: the third send waits until
	 * 1 us + rtt, then waits its own 1 us delay, and completes when its
	 * 64 B have left the injection port.
	 */
	ncsim_time_t rtt = 2 * net(HDR);
	CU_ASSERT_EQUAL(flood_end, 1000000 + rtt + 1000000 + inj(HDR));
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
}

/* ------------------------------------------------------------ inside a node */

static void test_shm_delayed(void)
{
	/* Two tasks of one node: the delay, then the copy at 2 GB/s (500 ps per byte) and 1 us. */
	char *sys = tl_analytic(2, EAGER "[node]\nshm_latency = 1 us\nshm_bandwidth = 2 GB/s\n");
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                 .tasks_per_node = 2};
	int rc;
	msg_size = MILC;
	drv_sim *s = tl_run_opts(&prog_one_message, 2, &o, 0, NULL, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(t_recvd, delay(MILC) + 1000000 + 500 * (uint64_t)MILC);
	/* The sender's part is the copy: its send completes when the copy ends. */
	CU_ASSERT_EQUAL(t_sent, delay(MILC) + 500 * (uint64_t)MILC);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
	free(sys);
}

/* ------------------------------------------------------------ unchanged without the keys */

static void test_unchanged(void)
{
	/* test_mpi_proto.c's timings: mailbox one way = net(64 + S) + copy(S), and the send returns at once. */
	drv_free(run_one(1024, NULL));
	CU_ASSERT_EQUAL(t_recvd, net(HDR + 1024) + copy(1024));
	CU_ASSERT_EQUAL(t_sent, 0);
	/* Explicit zero delays and protocol = auto are the same run. */
	drv_free(run_one(1024, "[mpi]\nprotocol = auto\nsend_delay = 0\nsend_delay_per_byte = 0 ns\n"));
	CU_ASSERT_EQUAL(t_recvd, net(HDR + 1024) + copy(1024));
	CU_ASSERT_EQUAL(t_sent, 0);
	/* MILC's size is a rendezvous by default: pin + post, RTS, pin + post RDMA, request, data. */
	drv_free(run_one(MILC, NULL));
	CU_ASSERT_EQUAL(t_recvd, pin(MILC) + PH + net(HDR) + pin(MILC) + PR + net(HDR) + net(MILC));
}

/* ------------------------------------------------------------ the collectives MFNetSim's files select */

static void test_mpich_allreduce(void)
{
	/*
	 * MFNetSim's cosmo allreduce (7,379,200 ints, 29,516,800 B) on 300
	 * tasks: MPICH's rule takes recursive doubling only for S <= 8 or
	 * count < pof2 (256); here count = S / 8 = 3,689,600, so it is the
	 * reduce-scatter by recursive halving + allgather by recursive doubling.
	 */
	coll_config cfg;
	coll_config_default(&cfg);
	cfg.selector = COLL_SEL_MPICH;
	coll_choice c = coll_choose(&cfg, COLL_ALLREDUCE, 300, 29516800);
	CU_ASSERT_STRING_EQUAL(coll_alg_name(c.alg), "rabenseifner");
}

int main(void)
{
	static const ut_test tests[] = {
		{"keys and defaults", test_keys},
		{"bad values: file:line errors", test_key_errors},
		{"one eager message: delay + network", test_one_message},
		{"sends posted together: delays side by side", test_parallel_delays},
		{"packet level: the send completes as its last packet leaves", test_packet_level},
		{"each message its own offset", test_own_offsets},
		{"medium and large protocols under a delay", test_large_delayed},
		{"credits under a delay", test_credits_delayed},
		{"inside a node", test_shm_delayed},
		{"no keys: timings unchanged", test_unchanged},
		{"mpich allreduce of cosmo", test_mpich_allreduce},
		{NULL, NULL},
	};
	return ut_run("mpi_eager", tests);
}

/*
 * test_p2p.c - MPI matching (order, tags, contexts), consumed messages,
 * counters (reset, store, restore, warmup suppression, §4 update rules),
 * program options, and determinism of the output folder.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/mpi/p2p.h"
#include "runtime/task/params.h"
#include "tests/unit/rt_testlib.h"

#define US RT_PS_PER_US

/* Size of the message a fresh receive was bound to (it arrived earlier), or 0 if none. */
static uint64_t bound_bytes(rt_task *t, rt_req h)
{
	const mp_req *r = mp_req_get(t, h);
	return r && r->env ? mp_env_at(&t->w->envs, r->env - 1)->bytes : 0;
}

/* ------------------------------------------------------------ matching */

static uint64_t seen[8];

/* Task 1 sends sizes 10, 20, 30 with tag 5 and 40 with tag 7; task 0 receives after they all arrived. */
static void order(rt_task *t)
{
	if (rt_rank(t) == 1) {
		rt_send(t, 0, 10, 5, 0);
		rt_send(t, 0, 20, 5, 0);
		rt_send(t, 0, 30, 5, 0);
		rt_send(t, 0, 40, 7, 0);
		/* same tag in the collective context: must not match user receives */
		rt_req h = p2p_isend(t, P2P_CTX_COLL, 0, 50, 5, 0, NET_CLASS_MPI);
		p2p_waitn(t, &h, 1);
		return;
	}
	rt_compute(t, 10 * US);
	rt_req a = rt_irecv(t, 1, 40, 7, 0); /* a later tag first: tags do not order */
	rt_req b = rt_irecv(t, 1, 10, 5, 0);
	rt_req c = rt_irecv(t, 1, 20, 5, 0);
	rt_req d = p2p_irecv(t, P2P_CTX_COLL, 1, 50, 5, 0);
	rt_req e = rt_irecv(t, 1, 30, 5, 0);
	seen[0] = bound_bytes(t, a);
	seen[1] = bound_bytes(t, b);
	seen[2] = bound_bytes(t, c);
	seen[3] = bound_bytes(t, d);
	seen[4] = bound_bytes(t, e);
	p2p_waitn(t, &d, 1);
	rt_waitall(t);
}
TL_PROGRAM(prog_order, order);

static void test_match_order_tags(void)
{
	memset(seen, 0, sizeof seen);
	drv_sim *s = tl_check_run(&prog_order, 2, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(seen[0], 40);
	CU_ASSERT_EQUAL(seen[1], 10);
	CU_ASSERT_EQUAL(seen[2], 20);
	CU_ASSERT_EQUAL(seen[3], 50);
	CU_ASSERT_EQUAL(seen[4], 30);
	CU_ASSERT_EQUAL(drv_world(s)->envs.live, 0);
	drv_free(s);
}

/* Receives posted before the messages exist match them in posting order. */
static void posted_first(rt_task *t)
{
	if (rt_rank(t) == 0) {
		rt_req a = rt_irecv(t, 1, 1, 3, 0);
		rt_req b = rt_irecv(t, 1, 2, 3, 0);
		rt_req c = rt_irecv(t, 2, 3, 3, 0);
		rt_compute(t, 10 * US); /* they arrive and bind while this task computes */
		seen[0] = bound_bytes(t, a);
		seen[1] = bound_bytes(t, b);
		seen[2] = bound_bytes(t, c);
		rt_waitall(t);
	} else if (rt_rank(t) == 1) {
		rt_send(t, 0, 100, 3, 0);
		rt_send(t, 0, 200, 3, 0);
	} else {
		rt_send(t, 0, 300, 3, 0);
	}
}
TL_PROGRAM(prog_posted_first, posted_first);

static void test_match_posted_first(void)
{
	drv_sim *s = tl_check_run(&prog_posted_first, 3, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(seen[0], 100);
	CU_ASSERT_EQUAL(seen[1], 200);
	CU_ASSERT_EQUAL(seen[2], 300);
	drv_free(s);
}

/* Consumed messages of all three protocols need no receive; a later normal message still matches. */
static void consumed(rt_task *t)
{
	if (rt_rank(t) == 1) {
		rt_send(t, 0, 100, 9, RT_MSG_CONSUMED);
		rt_send(t, 0, 20000, 9, RT_MSG_CONSUMED);
		rt_send(t, 0, 1 << 20, 9, RT_MSG_CONSUMED); /* rendezvous: completes without a receive */
		rt_send(t, 0, 77, 9, 0);
	} else {
		rt_compute(t, 1000 * US);
		rt_req h = rt_irecv(t, 1, 77, 9, 0);
		seen[0] = bound_bytes(t, h);
		rt_waitall(t);
	}
}
TL_PROGRAM(prog_consumed, consumed);

static void test_consumed(void)
{
	drv_sim *s = tl_check_run(&prog_consumed, 2, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(seen[0], 77);
	CU_ASSERT_EQUAL(tl_tot(s, 0)->msgs_recv, 4);
	CU_ASSERT_EQUAL(tl_tot(s, 1)->msgs_sent, 4);
	CU_ASSERT_EQUAL(drv_world(s)->envs.live, 0);
	CU_ASSERT_TRUE(tl_tot(s, 1)->end < 1000 * US);
	drv_free(s);
}

/* ------------------------------------------------------------ counters */

static int cnt_fail;
#define CHECK(cond) do { if (!(cond)) { cnt_fail++; fprintf(stderr, "counter check failed: %s (line %d)\n", #cond, __LINE__); } } while (0)

static void counters(rt_task *t)
{
	if (rt_rank(t) == 1) {
		for (int i = 0; i < 2; i++)
			rt_recv(t, 0, 100, 0, 0);
		rt_send(t, 0, 300, 1, 0);
		for (int i = 0; i < 3; i++)
			rt_recv(t, 0, 100, 0, 0);
		rt_send(t, 0, 400, 1, 0);
		return;
	}
	rt_compute(t, 5 * US);
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 5);
	rt_send(t, 1, 100, 0, 0);
	CHECK(rt_counter(t, RT_BYTES_SENT) == 100 && rt_counter(t, RT_MSGS_SENT) == 1);
	rt_isend(t, 1, 100, 0, 0); /* counts when posted */
	CHECK(rt_counter(t, RT_BYTES_SENT) == 200 && rt_counter(t, RT_TOTAL_MSGS) == 2);
	rt_req r = rt_irecv(t, 1, 300, 1, 0);
	(void)r;
	CHECK(rt_counter(t, RT_MSGS_RECEIVED) == 0); /* not at post */
	CHECK(rt_pending(t) == 2);
	rt_waitall(t);
	CHECK(rt_pending(t) == 0);
	CHECK(rt_counter(t, RT_MSGS_RECEIVED) == 1 && rt_counter(t, RT_BYTES_RECEIVED) == 300);
	CHECK(rt_counter(t, RT_TOTAL_BYTES) == 500);

	rt_counters_reset(t);
	CHECK(rt_counter(t, RT_TOTAL_BYTES) == 0 && rt_counter(t, RT_ELAPSED_USECS) == 0);
	rt_compute(t, 2 * US);
	rt_counters_store(t);               /* elapsed 2 */
	rt_compute(t, 3 * US);
	rt_send(t, 1, 100, 0, 0);
	rt_counters_store(t);               /* nested: elapsed 5, 100 bytes */
	rt_compute(t, 7 * US);
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 12);
	rt_counters_restore(t);
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 5 && rt_counter(t, RT_BYTES_SENT) == 100);
	rt_counters_restore(t);
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 2 && rt_counter(t, RT_BYTES_SENT) == 0);
	rt_compute(t, 1 * US);
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 3);

	/* warmup: communication happens, counters and clock do not see it */
	CHECK(!rt_suppressed(t));
	rt_suppress_begin(t);
	CHECK(rt_suppressed(t));
	rt_send(t, 1, 100, 0, 0);
	rt_send(t, 1, 100, 0, 0);
	rt_compute(t, 40 * US);
	rt_suppress_end(t);
	CHECK(!rt_suppressed(t));
	CHECK(rt_counter(t, RT_ELAPSED_USECS) == 3 && rt_counter(t, RT_MSGS_SENT) == 0);
	rt_recv(t, 1, 400, 1, 0);
	CHECK(rt_counter(t, RT_MSGS_RECEIVED) == 1 && rt_counter(t, RT_BYTES_RECEIVED) == 400);
}
TL_PROGRAM(prog_counters, counters);

static void test_counters(void)
{
	cnt_fail = 0;
	drv_sim *s = tl_check_run(&prog_counters, 2, NULL, NULL, 0, NULL);
	CU_ASSERT_EQUAL(cnt_fail, 0);
	drv_free(s);
}

/* The counter module alone: RESTORE on an empty stack fails, io_usecs truncates. */
static void test_counters_unit(void)
{
	cnt_state c;
	cnt_init(&c, 1000);
	CU_ASSERT_EQUAL(cnt_restore(&c, 2000), -1);
	CU_ASSERT_EQUAL(cnt_warmup_end(&c, 2000), -1);
	cnt_io(&c, 10, 20, 2500000);
	CU_ASSERT_EQUAL(cnt_get(&c, RT_BYTES_READ, 0), 10);
	CU_ASSERT_EQUAL(cnt_get(&c, RT_BYTES_WRITTEN, 0), 20);
	CU_ASSERT_EQUAL(cnt_get(&c, RT_IO_USECS, 0), 2);
	CU_ASSERT_EQUAL(cnt_get(&c, RT_ELAPSED_USECS, 1000 + 3 * US - 1), 2);
	cnt_reset(&c, 5 * US);
	CU_ASSERT_EQUAL(cnt_get(&c, RT_IO_USECS, 0), 0);
	cnt_free(&c);
}

static void bad_restore(rt_task *t) { rt_counters_restore(t); }
TL_PROGRAM(prog_bad_restore, bad_restore);

static void test_restore_empty_is_fatal(void)
{
	char buf[4096] = "";
	FILE *err = fmemopen(buf, sizeof buf - 1, "w");
	drv_sim *s = tl_check_run(&prog_bad_restore, 1, NULL, NULL, 1, err);
	fclose(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(drv_world(s)->fatal, "restored more counters than it stored"));
	drv_free(s);
}

/* ------------------------------------------------------------ options */

static const rt_param opts[] = {
	{.name = "reps", .desc = "Number of repetitions", .long_opt = "--reps", .short_opt = "-r", .defval = 10},
	{.name = "size", .desc = "Message size", .long_opt = "--size", .short_opt = "-s", .defval = 1},
};
static const rt_program prog_opts = {.abi = NCSIM_RT_ABI, .name = "opts", .params = opts, .nparams = 2,
                                      .entry = bad_restore};

static void test_options(void)
{
	rt_int v;
	CU_ASSERT(prm_parse_int("64K", &v) == 0 && v == 65536);
	CU_ASSERT(prm_parse_int("2m", &v) == 0 && v == 2097152);
	CU_ASSERT(prm_parse_int("1G", &v) == 0 && v == 1073741824);
	CU_ASSERT(prm_parse_int("1T", &v) == 0 && v == 1099511627776LL);
	CU_ASSERT(prm_parse_int("8E3", &v) == 0 && v == 8000);
	CU_ASSERT(prm_parse_int("-7", &v) == 0 && v == -7);
	CU_ASSERT(prm_parse_int("3rd", &v) < 0);
	CU_ASSERT(prm_parse_int("1E30", &v) < 0);
	CU_ASSERT(prm_parse_int("x", &v) < 0);
	char *argv[] = {"--reps=5", "-s", "4K", "-C", "hello", "--logfile", "x-%p.log"};
	prm_args a;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(prm_parse(&prog_opts, 7, argv, &a, &err), 0);
	CU_ASSERT_EQUAL(a.values[0], 5);
	CU_ASSERT_EQUAL(a.values[1], 4096);
	CU_ASSERT_EQUAL(a.comments.len, 1);
	CU_ASSERT_STRING_EQUAL(a.logfile, "x-%p.log");
	prm_free(&a);
	char *argv2[] = {"-r7"};
	CU_ASSERT_EQUAL(prm_parse(&prog_opts, 1, argv2, &a, &err), 0);
	CU_ASSERT_EQUAL(a.values[0], 7);
	CU_ASSERT_EQUAL(a.values[1], 1);
	prm_free(&a);
	char *argv3[] = {"--nope=1"};
	CU_ASSERT_EQUAL(prm_parse(&prog_opts, 1, argv3, &a, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--nope"));
	free(err);
	prm_free(&a);
	char help[2048] = "";
	FILE *f = fmemopen(help, sizeof help - 1, "w");
	char *argv4[] = {"--help"};
	CU_ASSERT_EQUAL(drv_program_help(&prog_opts, 1, argv4, f), 1);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(help, "-r, --reps=<number>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(help, "Number of repetitions [default: 10]"));
}

/* ------------------------------------------------------------ determinism */

/* Everyone sends mixed sizes to everyone, on the default (dragonfly) system. */
static void all_to_all(rt_task *t)
{
	rt_int n = rt_num_tasks(t), me = rt_rank(t);
	for (int round = 0; round < 3; round++) {
		for (rt_int k = 1; k < n; k++) {
			rt_int to = (me + k) % n, from = (me - k + n) % n;
			uint64_t sz = (uint64_t)((me * 7 + k * 13 + round) % 5) * 30000;
			uint64_t rz = (uint64_t)((from * 7 + k * 13 + round) % 5) * 30000;
			rt_isend(t, to, sz, round, 0);
			rt_irecv(t, from, rz, round, 0);
		}
		rt_waitall(t);
		rt_compute(t, (ncsim_time_t)(me + 1) * US);
	}
}
TL_PROGRAM(prog_all_to_all, all_to_all);

static void run_to(const char *dir, uint64_t seed)
{
	char *e = NULL;
	drv_options o = {.seed = seed, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	drv_sim *s = drv_new(&o, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	drv_job j = {.prog = &prog_all_to_all, .ntasks = 16};
	CU_ASSERT_EQUAL_FATAL(drv_add_job(s, &j, &e), 0);
	CU_ASSERT_EQUAL(drv_run(s, stderr), 0);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	CU_ASSERT_EQUAL(drv_write(s, dir, &e), 0);
	drv_free(s);
}

static void test_determinism(void)
{
	char *d1 = ut_tmpdir(), *d2 = ut_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(d1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d2);
	run_to(d1, 42);
	run_to(d2, 42);
	const char *files[] = {"tasks.csv", "summary.json", "links.csv"};
	for (int i = 0; i < 3; i++) {
		char *p1 = xasprintf("%s/%s", d1, files[i]), *p2 = xasprintf("%s/%s", d2, files[i]);
		char *a = ut_slurp(p1), *b = ut_slurp(p2);
		CU_ASSERT_PTR_NOT_NULL(a);
		CU_ASSERT_TRUE(a && b && *a && strcmp(a, b) == 0);
		free(a);
		free(b);
		free(p1);
		free(p2);
	}
	ut_rmrf(d1);
	ut_rmrf(d2);
	free(d1);
	free(d2);
}

int main(void)
{
	static const ut_test tests[] = {
		{"matching: order, tags, contexts", test_match_order_tags},
		{"matching: receives posted first", test_match_posted_first},
		{"consumed messages", test_consumed},
		{"counters: rules of §4, reset, store/restore, warmup", test_counters},
		{"counters module", test_counters_unit},
		{"restore on an empty stack is fatal", test_restore_empty_is_fatal},
		{"program options", test_options},
		{"determinism of the output folder", test_determinism},
		{NULL, NULL},
	};
	return ut_run("p2p", tests);
}

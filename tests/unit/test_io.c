/*
 * test_io.c - the I/O client (LANGUAGE.md §14.2) on the analytic network with
 * a compute-side burst buffer: sequential and explicit offsets, asynchronous
 * completion by rt_waitall and rt_wait, counters and tasks.csv, the run-time
 * errors, conservation (sto_check), and the built-in default system.
 */
#include <CUnit/Basic.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/storage/storage.h"
#include "tests/unit/rt_testlib.h"

#define US RT_PS_PER_US

/* Node 0 holds the burst buffer; tasks run on nodes 1.. */
static char *io_system(uint32_t tasks)
{
	return tl_analytic(tasks + 1, "[storage]\nconfig = compute-side\nbb_per_group = 1\n");
}

/* ------------------------------------------------------------ offsets and counters */

static rt_int cnt_seen[4];

static void offsets(rt_task *t)
{
	if (rt_rank(t) != 0)
		return;
	rt_line(t, 3);
	rt_io_open(t, 3, RT_IO_RDWR);
	rt_io_write(t, 3, 1000, RT_IO_SEQUENTIAL, 0); /* at 0 */
	rt_io_write(t, 3, 500, RT_IO_SEQUENTIAL, 0);  /* at 1000 */
	rt_io_write(t, 3, 100, 5000, 0);              /* at 5000, the current offset stays 1500 */
	rt_io_write(t, 3, 10, RT_IO_SEQUENTIAL, 0);   /* at 1500 */
	rt_compute(t, 7 * US);
	rt_io_read(t, 0, 200, RT_IO_SEQUENTIAL, 0);   /* file 0 is open from the start: at 0 */
	rt_io_read(t, 0, 300, RT_IO_SEQUENTIAL, 0);   /* at 200 */
	rt_io_close(t, 3);
	rt_io_open(t, 3, RT_IO_READ);
	rt_io_read(t, 3, 50, RT_IO_SEQUENTIAL, 0);    /* reopened: at 0 again */
	cnt_seen[0] = rt_counter(t, RT_BYTES_WRITTEN);
	cnt_seen[1] = rt_counter(t, RT_BYTES_READ);
	cnt_seen[2] = rt_counter(t, RT_IO_USECS);
	cnt_seen[3] = rt_counter(t, RT_BYTES_SENT);
}
TL_PROGRAM(prog_offsets, offsets);

/* Field `col` (0-based) of CSV line `line` (0 = header) of text, as an integer; -1 if absent. */
static int64_t csv_field(const char *text, int line, int col)
{
	const char *p = text;
	for (int l = 0; l < line && p; l++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	for (int c = 0; c < col && p; c++) {
		p = strpbrk(p, ",\n");
		p = p && *p == ',' ? p + 1 : NULL;
	}
	return p && *p ? strtoll(p, NULL, 10) : -1;
}

static void test_offsets_counters(void)
{
	char *dir = ut_tmpdir();
	char *sys = io_system(2);
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                .out_dir = dir, .io_log = 1};
	int rc;
	drv_sim *s = tl_run_opts(&prog_offsets, 2, &o, 0, NULL, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	char *e = NULL;
	CU_ASSERT_EQUAL(drv_write(s, dir, &e), 0);
	/* io.csv: id,job,client,server,device,op,file,offset,bytes,... in request order. */
	char *p = xasprintf("%s/io.csv", dir);
	char *csv = ut_slurp(p);
	free(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
	const int64_t file[] = {3, 3, 3, 3, 0, 0, 3};
	const int64_t off[] = {0, 1000, 5000, 1500, 0, 200, 0};
	const int64_t bytes[] = {1000, 500, 100, 10, 200, 300, 50};
	for (int i = 0; i < 7; i++) {
		CU_ASSERT_EQUAL(csv_field(csv, i + 1, 6), file[i]);
		CU_ASSERT_EQUAL(csv_field(csv, i + 1, 7), off[i]);
		CU_ASSERT_EQUAL(csv_field(csv, i + 1, 8), bytes[i]);
		CU_ASSERT_EQUAL(csv_field(csv, i + 1, 2), 1); /* client: task 0 runs on node 1 */
		CU_ASSERT_EQUAL(csv_field(csv, i + 1, 3), 0); /* server: the burst buffer on node 0 */
	}
	CU_ASSERT_EQUAL(csv_field(csv, 8, 0), -1); /* nothing else */
	free(csv);
	/* Counters, totals, and the time decomposition: end = compute + I/O, nothing else. */
	const task_totals *x = tl_tot(s, 0);
	CU_ASSERT_EQUAL(cnt_seen[0], 1610);
	CU_ASSERT_EQUAL(cnt_seen[1], 550);
	CU_ASSERT_EQUAL(cnt_seen[2], (rt_int)(x->t[TK_T_IO] / US));
	CU_ASSERT_EQUAL(cnt_seen[3], 0);
	CU_ASSERT_TRUE(x->t[TK_T_IO] > 0);
	CU_ASSERT_EQUAL(x->end, x->t[TK_T_COMPUTE] + x->t[TK_T_IO]);
	CU_ASSERT_EQUAL(x->io_written, 1610);
	CU_ASSERT_EQUAL(x->io_read, 550);
	CU_ASSERT_EQUAL(x->io_ops, 7);
	/* Conservation, checked by drv_run too: bytes written by clients = bytes stored. */
	const sto_totals *st = sto_get_totals(drv_world(s)->sto);
	CU_ASSERT_EQUAL(st->bytes_written, 1610);
	CU_ASSERT_EQUAL(st->bytes_stored, 1610);
	CU_ASSERT_EQUAL(st->completed, 7);
	/* tasks.csv carries the I/O time and bytes. */
	p = xasprintf("%s/tasks.csv", dir);
	char *tasks = ut_slurp(p);
	free(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tasks);
	CU_ASSERT_PTR_NOT_NULL(strstr(tasks, ",io_ps,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(tasks, ",io_bytes_read,io_bytes_written,io_active_ps\n"));
	CU_ASSERT_EQUAL((uint64_t)csv_field(tasks, 1, 7), x->t[TK_T_IO]);
	/* Every request of this program blocks: the time with I/O outstanding is the time waited. */
	CU_ASSERT_EQUAL((uint64_t)csv_field(tasks, 1, 18), x->t[TK_T_IO]);
	CU_ASSERT_EQUAL(x->io_active, x->t[TK_T_IO]);
	free(tasks);
	p = xasprintf("%s/storage.csv", dir);
	char *dev = ut_slurp(p);
	free(p);
	CU_ASSERT_PTR_NOT_NULL(dev);
	free(dev);
	drv_free(s);
	free(sys);
	ut_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------ asynchronous I/O */

static rt_int pend[4];
static rt_int async_written, async_read, async_recv;

static void async_io(rt_task *t)
{
	rt_int me = rt_rank(t);
	if (me == 1) {
		rt_irecv(t, 0, 64, 1, 0);
		return rt_waitall(t);
	}
	if (me != 0)
		return;
	rt_req a = rt_io_write(t, 0, 1 << 20, RT_IO_SEQUENTIAL, 1);
	rt_io_write(t, 0, 1 << 20, RT_IO_SEQUENTIAL, 1);
	rt_isend(t, 1, 64, 1, 0);
	rt_io_read(t, 0, 4096, 0, 1);
	pend[0] = rt_pending(t);
	rt_wait(t, a);
	pend[1] = rt_pending(t);
	rt_compute(t, 1 * US);
	rt_waitall(t);
	pend[2] = rt_pending(t);
	async_written = rt_counter(t, RT_BYTES_WRITTEN);
	async_read = rt_counter(t, RT_BYTES_READ);
	async_recv = rt_counter(t, RT_BYTES_SENT);
}
TL_PROGRAM(prog_async, async_io);

static void test_async(void)
{
	char *sys = io_system(2);
	int rc;
	drv_sim *s = tl_run(&prog_async, 2, sys, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(pend[0], 4);
	CU_ASSERT_EQUAL(pend[1], 3);
	CU_ASSERT_EQUAL(pend[2], 0);
	CU_ASSERT_EQUAL(async_written, 2 << 20);
	CU_ASSERT_EQUAL(async_read, 4096);
	CU_ASSERT_EQUAL(async_recv, 64);
	const task_totals *x = tl_tot(s, 0);
	/* Asynchronous I/O only costs the time the task is blocked waiting for it. */
	CU_ASSERT_TRUE(x->t[TK_T_IO] > 0);
	CU_ASSERT_EQUAL(x->end, x->t[TK_T_COMPUTE] + x->t[TK_T_IO] + x->mpi_total);
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	const sto_totals *st = sto_get_totals(drv_world(s)->sto);
	CU_ASSERT_EQUAL(st->bytes_written, 2u << 20);
	CU_ASSERT_EQUAL(st->bytes_stored, 2u << 20);
	CU_ASSERT_EQUAL(st->bytes_read, 4096);
	drv_free(s);
	free(sys);
}

/* ------------------------------------------------------------ run-time errors */

static void err_not_open(rt_task *t)
{
	rt_line(t, 11);
	rt_compute(t, 2 * US);
	rt_io_read(t, 4, 10, RT_IO_SEQUENTIAL, 0);
}
TL_PROGRAM(prog_err_not_open, err_not_open);

static void err_double_close(rt_task *t)
{
	rt_line(t, 22);
	rt_io_open(t, 2, RT_IO_WRITE);
	rt_io_close(t, 2);
	rt_io_close(t, 2);
}
TL_PROGRAM(prog_err_double_close, err_double_close);

static void err_negative(rt_task *t)
{
	rt_line(t, 33);
	rt_io_write(t, 0, (uint64_t)(int64_t)-5, RT_IO_SEQUENTIAL, 0);
}
TL_PROGRAM(prog_err_negative, err_negative);

static void err_mode(rt_task *t)
{
	rt_line(t, 44);
	rt_io_open(t, 1, RT_IO_READ);
	rt_io_write(t, 1, 10, RT_IO_SEQUENTIAL, 0);
}
TL_PROGRAM(prog_err_mode, err_mode);

static void expect_error(const rt_program *p, const char *want)
{
	char *sys = io_system(1);
	FILE *err = tmpfile();
	int rc;
	drv_sim *s = tl_run(p, 1, sys, &rc, err);
	CU_ASSERT_EQUAL(rc, 1);
	const char *f = drv_world(s)->fatal;
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f && !strstr(f, want))
		fprintf(stderr, "error: %s\nwanted: %s\n", f, want);
	CU_ASSERT_PTR_NOT_NULL(f ? strstr(f, want) : NULL);
	fclose(err);
	drv_free(s);
	free(sys);
}

static void test_errors(void)
{
	expect_error(&prog_err_not_open, "Reading file 4, which is not open (task 0, line 11, time 2.000000 us)");
	expect_error(&prog_err_double_close, "Closing file 2, which is already closed (task 0, line 22, time 0.000000 us)");
	expect_error(&prog_err_negative, "Writing a negative number of bytes (-5) (task 0, line 33, time 0.000000 us)");
	expect_error(&prog_err_mode, "Writing file 1, which is open for reading only (task 0, line 44,");
}

/* ------------------------------------------------------------ the default system */

static uint32_t io_nodes[8];

static void every_task_writes(rt_task *t)
{
	io_nodes[rt_rank(t)] = t->node;
	rt_io_write(t, 0, 3 << 20, RT_IO_SEQUENTIAL, 0);
	rt_barrier(t, rt_world(t));
	rt_io_read(t, 0, 1 << 20, 0, 0);
}
TL_PROGRAM(prog_every_task_writes, every_task_writes);

static void test_default_system(void)
{
	drv_options o = {.seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	int rc;
	drv_sim *s = tl_run_opts(&prog_every_task_writes, 8, &o, 0, NULL, &rc, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(drv_network_name(s), "dragonfly");
	const sto_system *sto = drv_world(s)->sto;
	CU_ASSERT_PTR_NOT_NULL_FATAL(sto);
	CU_ASSERT_EQUAL(sto_get_config(sto)->kind, STO_CFG_COMPUTE);
	for (int r = 0; r < 8; r++)
		CU_ASSERT_FALSE(sto_is_storage_node(sto, io_nodes[r]));
	const sto_totals *st = sto_get_totals(sto);
	CU_ASSERT_EQUAL(st->bytes_written, 8u * (3u << 20));
	CU_ASSERT_EQUAL(st->bytes_stored, 8u * (3u << 20));
	CU_ASSERT_EQUAL(st->bytes_read, 8u << 20);
	CU_ASSERT_TRUE(st->net_bytes > st->bytes_written); /* the data crossed the network */
	CU_ASSERT_TRUE(tl_decomposition_adds_up(s));
	drv_free(s);
	/* Placing a task on a storage node is refused. */
	char *e = NULL;
	s = drv_new(&o, &e);
	uint32_t nodes[2] = {1, 0};
	drv_job j = {.prog = &prog_every_task_writes, .ntasks = 2, .nodes = nodes};
	CU_ASSERT_EQUAL(drv_add_job(s, &j, &e), 0);
	FILE *err = tmpfile();
	CU_ASSERT_EQUAL(drv_run(s, err), -1);
	fclose(err);
	drv_free(s);
	/* drv_machine_nodes agrees: 72 nodes, the first of each group of 8 hosts storage. */
	uint32_t n = 0;
	uint8_t *mask = NULL;
	CU_ASSERT_EQUAL_FATAL(drv_machine_nodes(&o, 8, &n, &mask, &e), 0);
	CU_ASSERT_EQUAL(n, 72);
	for (uint32_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(mask[i], i % 8 == 0);
	free(mask);
}

int main(void)
{
	static const ut_test tests[] = {
		{"sequential and explicit offsets, counters, io.csv, conservation", test_offsets_counters},
		{"asynchronous I/O completed by rt_wait and rt_waitall", test_async},
		{"run-time errors name task, line and time", test_errors},
		{"default system: dragonfly with burst buffers", test_default_system},
		{NULL, NULL},
	};
	return ut_run("io", tests);
}

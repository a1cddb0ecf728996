/*
 * test_storage_lsm.c - the flat-cost disk ([lsm.NAME], runtime/storage/lsm.h)
 * alone and behind a burst-buffer server on the analytic network: service
 * times with and without the seek, the seek window, FIFO queueing, the two
 * ways of forming device addresses (addressing = file | zero), the server's
 * threads pulling blocks, and the configuration errors.
 *
 * Every expected time below is computed by hand from these constants:
 *   bandwidth 5700 MiB/s = 5700 * 2^20 = 5,976,883,200 B/s
 *   X1 = 1,000,000 B / 5,976,883,200 B/s = 167,311,283.58 ps -> 167,311,284 ps (rounded up)
 *   X2 =   500,000 B / 5,976,883,200 B/s =  83,655,641.79 ps ->  83,655,642 ps
 *   (CODES: 1e6 / 2^20 MiB / 5700 MiB/s = 167.3113 us)
 *   overhead O = 20 us, seek K = 2500 us
 *   S1 = X1 + O = 187,311,284 ps (a 1e6 B block), S2 = X2 + O = 103,655,642 ps (5e5 B)
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/sim.h"
#include "runtime/net/analytic.h"
#include "runtime/storage/storage.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#define US 1000000ull        /* ps */
#define S1 187311284ull      /* X1 + O */
#define S2 103655642ull      /* X2 + O */
#define K (2500 * US)        /* seek */

static const sto_lsm_params codes_disk = {
	.bandwidth = 5700.0 * 1048576.0, .overhead = 20 * US, .seek = K, .seek_window = 512, .capacity = 6400000000000ull,
};

/* ------------------------------------------------------------ the disk alone */

/* Service times: the transfer term, the overhead, the seek, and zero bytes. */
static void test_service(void)
{
	sto_lsm d;
	sto_lsm_init(&d, &codes_disk);
	/* A new disk is at address 0, as a CODES disk starts at object 0 offset 0: no seek there. */
	CU_ASSERT_EQUAL(sto_lsm_service(&d, 0, 1000000), S1);
	CU_ASSERT_EQUAL(sto_lsm_service(&d, 0, 500000), S2);
	/* Anywhere else pays the 2500 us seek. */
	CU_ASSERT_EQUAL(sto_lsm_service(&d, 4096, 1000000), S1 + K);
	/* 0 bytes: the overhead alone. */
	CU_ASSERT_EQUAL(sto_lsm_service(&d, 0, 0), 20 * US);
}

/*
 * The seek window: after an operation ending at E, an operation at E .. E+512
 * is contiguous; E-1 and E+513 seek. FIFO: operations arriving together run
 * back to back, each judged against the one accepted before it.
 */
static void test_window_fifo(void)
{
	sto_lsm d;
	sto_lsm_init(&d, &codes_disk);
	/* [0, 1e6) at t = 0 on an idle disk: done at S1, ends at E = 1e6. */
	CU_ASSERT_EQUAL(sto_lsm_access(&d, 0, 0, 1000000), S1);
	CU_ASSERT_TRUE(sto_lsm_contiguous(&d, 1000000));
	CU_ASSERT_TRUE(sto_lsm_contiguous(&d, 1000512));
	CU_ASSERT_FALSE(sto_lsm_contiguous(&d, 1000513));
	CU_ASSERT_FALSE(sto_lsm_contiguous(&d, 999999));
	/* At E + 512, also arriving at t = 0: waits for the first, no seek: done 2 S1; E = 2,000,512. */
	CU_ASSERT_EQUAL(sto_lsm_access(&d, 0, 1000512, 1000000), 2 * S1);
	/* At E + 513: one byte past the window, seeks: 3 S1 + K; E = 3,001,025. */
	CU_ASSERT_EQUAL(sto_lsm_access(&d, 0, 2001025, 1000000), 3 * S1 + K);
	/* Back to 0 at t = 10 s, the disk idle again: below E, seeks: 10 s + S1 + K. */
	CU_ASSERT_EQUAL(sto_lsm_access(&d, 10000000 * US, 0, 1000000), 10000000 * US + S1 + K);
	CU_ASSERT_EQUAL(d.ops, 4);
	CU_ASSERT_EQUAL(d.seeks, 2);
}

/*
 * The addresses CODES' burst-buffer servers produce: every request writes
 * block k at k * 1e6. Client A's block 0, client B's block 0, then A's
 * block 1: B's block 0 restarts at 0 (seek), but A's block 1 starts exactly
 * where B's block 0 ended, so it counts as contiguous: the artefact
 * addressing = zero reproduces.
 */
static void test_codes_offsets(void)
{
	sto_lsm d;
	sto_lsm_init(&d, &codes_disk);
	ncsim_time_t t = sto_lsm_access(&d, 0, 0, 1000000); /* A0: S1 */
	t = sto_lsm_access(&d, 0, 0, 1000000);              /* B0: S1 + K */
	t = sto_lsm_access(&d, 0, 1000000, 1000000);        /* A1: S1 (continues B0) */
	t = sto_lsm_access(&d, 0, 1000000, 500000);         /* B1 (last, 5e5 B): S2 + K */
	CU_ASSERT_EQUAL(t, 3 * S1 + S2 + 2 * K);
	CU_ASSERT_EQUAL(d.seeks, 2);
}

/* [lsm.NAME] keys with their units, the default window, and `base`. */
static void test_params(void)
{
	const char *text = "[lsm.bb]\nbandwidth = 5700 MiB/s\noverhead = 20 us\nseek = 2.5 ms\ncapacity = 6.4 TB\n"
	                   "[lsm.wide]\nbase = bb\nseek_window = 4 KiB\n";
	char *err = NULL;
	sysconf_t *c = sysconf_parse("p.conf", text, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	sto_dev_params p;
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(c, "bb", &p, &err), 0);
	CU_ASSERT_EQUAL(p.kind, STO_DEV_LSM);
	CU_ASSERT_EQUAL(p.lsm.bandwidth, 5976883200.0);
	CU_ASSERT_EQUAL(p.lsm.overhead, 20 * US);
	CU_ASSERT_EQUAL(p.lsm.seek, K);
	CU_ASSERT_EQUAL(p.lsm.seek_window, 512); /* not given: CODES' fixed 512 B */
	CU_ASSERT_EQUAL(p.lsm.capacity, 6400000000000ull);
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(c, "wide", &p, &err), 0);
	CU_ASSERT_EQUAL(p.lsm.seek_window, 4096);
	CU_ASSERT_EQUAL(p.lsm.seek, K); /* from the base */
	sto_dev d;
	sto_dev_init(&d, &p);
	CU_ASSERT_STRING_EQUAL(sto_dev_kind_name(d.kind), "lsm");
	CU_ASSERT_EQUAL(d.capacity, 6400000000000ull);
	/* Through the generic entry point: service time counted as busy time. */
	CU_ASSERT_EQUAL(sto_dev_access(&d, 0, 1, 8192, 1000000, 0.5), S1 + K);
	CU_ASSERT_EQUAL(d.st.busy, S1 + K);
	CU_ASSERT_EQUAL(d.st.bytes_written, 1000000);
	sto_dev_fini(&d);
	sysconf_free(c);
}

/* Loads text as a system file and returns the error of sto_config_load, then of the unused-key check (heap). */
static char *config_error(const char *text)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("bad.conf", text, &err);
	if (!c)
		return err;
	sto_config cfg;
	if (sto_config_load(c, &cfg, &err) == 0) {
		sto_config_fini(&cfg);
		sysconf_check_unused(c, &err);
	}
	sysconf_free(c);
	return err;
}

/*
 * Errors name the file and the line: of the key when its text is wrong, of
 * the section when the values together are unusable (as for [ssd.NAME]).
 */
static void test_config_errors(void)
{
	char *err = config_error("[storage]\ndevice = d\n[lsm.d]\nbandwidth = -5 GB/s\ncapacity = 1 TB\n");
	UT_TAKE_ERROR(err, "bad.conf:4: [lsm.d] bandwidth = '-5 GB/s': negative bandwidth...");
	err = config_error("[lsm.d]\nbandwidth = 0 GB/s\ncapacity = 1 TB\n");
	UT_TAKE_ERROR(err, "bad.conf:1: [lsm.d] storage device 'd': bandwidth must be positive");
	err = config_error("[lsm.d]\nbandwidth = 1 GB/s\n");
	UT_TAKE_ERROR(err, "bad.conf:1: [lsm.d] storage device 'd': capacity must be positive");
	/* A misspelt key is never read, so the unused-key check names it. */
	err = config_error("[lsm.d]\nbandwidth = 1 GB/s\ncapacity = 1 TB\nseek_windw = 512\n");
	UT_TAKE_ERROR(err, "bad.conf:4: unknown key 'seek_windw' in [lsm.d]...");
	err = config_error("[lsm.d]\nbandwidth = 1 GB/s\ncapacity = 1 TB\nseek = soon\n");
	UT_TAKE_ERROR(err, "bad.conf:4: ...");
	err = config_error("[lsm.d]\nbase = d3-s4510\n");
	UT_TAKE_ERROR(err, "bad.conf:2: [lsm.d] cannot start from ssd device 'd3-s4510'");
	err = config_error("[storage]\naddressing = object\n");
	UT_TAKE_ERROR(err, "bad.conf:2: [storage] addressing = 'object': expected file or zero");
	/* The other keys with a fixed set of values keep their messages. */
	err = config_error("[storage]\nconfig = everywhere\n");
	UT_TAKE_ERROR(err, "bad.conf:2: [storage] config = 'everywhere': expected local, compute-side or storage-side");
	err = config_error("[storage]\nbb_route = random\n");
	UT_TAKE_ERROR(err, "bad.conf:2: [storage] bb_route = 'random': expected nearest or block");
	sto_dev_params p;
	sysconf_t *c = sysconf_parse("bad.conf", "[storage]\ndevice = nosuch\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sto_dev_params_load(c, "nosuch", &p, &err), -1);
	sysconf_free(c);
	UT_TAKE_ERROR(err, "bad.conf:2: unknown storage device 'nosuch' (no [ssd.nosuch], [hdd.nosuch] or "
	                   "[lsm.nosuch] section in the system file or the built-in presets)");
	/* And accept what they accepted, with the same meaning. */
	char *e2 = NULL;
	c = sysconf_parse("ok.conf", "[storage]\nconfig = Storage-Side\nbb_route = BLOCK\non_full = fail\n"
	                                        "addressing = zero\n", &e2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	sto_config cfg;
	CU_ASSERT_EQUAL_FATAL(sto_config_load(c, &cfg, &e2), 0);
	CU_ASSERT_EQUAL(cfg.kind, STO_CFG_STORAGE);
	CU_ASSERT_EQUAL(cfg.route_block, 1);
	CU_ASSERT_EQUAL(cfg.on_full_fail, 1);
	CU_ASSERT_EQUAL(cfg.addr_zero, 1);
	sto_config_fini(&cfg);
	sysconf_free(c);
}

/* ------------------------------------------------------------ behind a server */

/*
 * The network: analytic, L = 1 us, 100 GB/s links and injection ports, so
 *   c = 128 B control message = 1,280 ps, D = 1e6 B block = 10 us.
 * The server is node 0 (a burst buffer with the disk above); clients are
 * nodes 1 and 2. A request of 2,500,000 B is 3 blocks: 1e6, 1e6, 5e5.
 */
#define NET_BW 1e11
#define L US
#define C 1280ull
#define D (10 * US)

/* The first block of the first request reaches the server at
 *   T1 = header (L + c) + pull (L + c) + block (L + D) = 3L + 2c + D = 13,002,560 ps. */
#define T1 (3 * L + 2 * C + D)

enum { SINK_DONE, SINK_NKINDS };
typedef struct sink {
	size_t n;
	sto_completion c[4];
	ncsim_time_t at[4];
} sink;

static void sink_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	sink *k = state;
	const sto_completion *c = SIM_PAYLOAD(ev, sto_completion);
	k->c[c->cookie] = *c;
	k->at[c->cookie] = sim_now(ctx);
	k->n++;
}

static const sim_handler sink_handlers[SINK_NKINDS] = { [SINK_DONE] = sink_done };
static const sim_type sink_type = { .name = "lsm_test_sink", .handlers = sink_handlers, .nhandlers = SINK_NKINDS };

typedef struct outcome {
	sink k;
	uint64_t ops, seeks;   /* of the server's disk */
	int check;             /* sto_check */
	char *devices;         /* sto_write_devices text */
	size_t devlen;
} outcome;

/*
 * Clients 1..nclients each write 2,500,000 B of file 1 of job 0 at t = 0, at
 * file offset i * 2,500,000 (one shared checkpoint file), with `threads` and
 * `addressing`; the burst buffer is node 0 with the disk of the header comment.
 */
static int run_writes(int nclients, int threads, const char *addressing, outcome *o)
{
	memset(o, 0, sizeof *o);
	char *text = xasprintf("[storage]\nconfig = compute-side\nbb_nodes = 0\ndevice = codes\nblock_size = 1000000\n"
	                       "threads = %d\ncontrol_bytes = 128\ndrain = no\naddressing = %s\n"
	                       "[lsm.codes]\nbandwidth = 5700 MiB/s\noverhead = 20 us\nseek = 2500 us\n"
	                       "seek_window = 512\ncapacity = 6.4 TB\n", threads, addressing);
	char *err = NULL;
	sysconf_t *conf = sysconf_parse("lsm.conf", text, &err);
	free(text);
	sim_ctx *ctx = sim_new(1);
	an_params ap;
	an_params_default(&ap);
	ap.nnodes = 3;
	ap.latency = L;
	ap.bandwidth = ap.inj_bandwidth = NET_BW;
	net_model *net = an_create(ctx, &ap);
	sto_system *sto = conf ? sto_new(conf, net, NULL, 3, ctx, &err) : NULL;
	int rc = -1;
	if (sto) {
		CU_ASSERT_EQUAL(sysconf_unused(conf, stderr), 0);
		sim_eid self = sim_entity_add(ctx, &sink_type, &o->k);
		for (int i = 0; i < nclients; i++) {
			sto_request r = { .client_node = (uint32_t)i + 1, .op = STO_OP_WRITE, .job = 0, .file = 1,
			                  .offset = (uint64_t)i * 2500000, .bytes = 2500000, .notify = self,
			                  .notify_kind = SINK_DONE, .cookie = (uint64_t)i };
			CU_ASSERT_EQUAL(sto_submit(sto, ctx, &r), 0);
		}
		rc = sim_run(ctx, SIM_FOREVER);
		const sto_dev *dev = sto_server_device(sto, 0, 0);
		o->ops = dev->u.lsm.ops;
		o->seeks = dev->u.lsm.seeks;
		o->check = sto_check(sto, stderr);
		FILE *f = open_memstream(&o->devices, &o->devlen);
		sto_write_devices(sto, f);
		fclose(f);
		sto_free(sto);
	} else {
		fprintf(stderr, "%s\n", err);
		free(err);
	}
	net_destroy(net);
	sim_free(ctx);
	sysconf_free(conf);
	return rc;
}

/*
 * One client, 4 threads, addressing = zero. The server pulls the 3 blocks at
 * once; they reach it at T1, T1 + D, T1 + 2D, long before the disk is free,
 * so the disk writes them back to back, at addresses 0, 1e6, 2e6: the first
 * at address 0 of a new disk and the others each continuing the previous
 * one, so no seek. Then the ack (L + c):
 *   T1 + 2 S1 + S2 + L + c = 13,002,560 + 374,622,568 + 103,655,642 + 1,001,280 = 492,282,050 ps
 */
static void test_one_client(void)
{
	outcome o;
	CU_ASSERT_EQUAL_FATAL(run_writes(1, 4, "zero", &o), 0);
	CU_ASSERT_EQUAL_FATAL(o.k.n, 1);
	CU_ASSERT_EQUAL(o.k.at[0], T1 + 2 * S1 + S2 + L + C);
	CU_ASSERT_EQUAL(o.k.at[0], 492282050ull);
	CU_ASSERT_EQUAL(o.k.c[0].where, STO_AT_LSM);
	CU_ASSERT_EQUAL(o.k.c[0].status, STO_OK);
	CU_ASSERT_EQUAL(o.ops, 3);
	CU_ASSERT_EQUAL(o.seeks, 0);
	CU_ASSERT_EQUAL(o.check, 0);
	/* storage.csv: the device kind is named lsm, and its busy time is the three services (us). */
	CU_ASSERT_PTR_NOT_NULL(o.devices && strstr(o.devices, "\n0,lsm,codes,6400000000000,2500000,0,3,0,2500000,"
	                                                      "2500000,0,478.278210,0\n"));
	free(o.devices);
}

/*
 * One thread: each block is pulled only when the previous one is on disk.
 *   block 0 on disk at T1 + S1
 *   block 1: pull (L + c) + data (L + D) + S1
 *   block 2: pull (L + c) + data (L + D/2) + S2, then the ack (L + c)
 *   = T1 + 2 S1 + S2 + 5L + 3c + 1.5 D = 511,284,610 ps
 */
static void test_one_thread(void)
{
	outcome o;
	CU_ASSERT_EQUAL_FATAL(run_writes(1, 1, "zero", &o), 0);
	CU_ASSERT_EQUAL_FATAL(o.k.n, 1);
	CU_ASSERT_EQUAL(o.k.at[0], T1 + 2 * S1 + S2 + 5 * L + 3 * C + D + D / 2);
	CU_ASSERT_EQUAL(o.k.at[0], 511284610ull);
	CU_ASSERT_EQUAL(o.seeks, 0);
	free(o.devices);
}

/*
 * addressing = file: file 1 of job 0 sits in slot 1 of 1 GiB (file_stride),
 * so the first block is at 2^30 and the new disk, at 0, seeks once; the
 * other two continue it. One seek more than test_one_client:
 *   492,282,050 + 2,500,000,000 = 2,992,282,050 ps
 */
static void test_one_client_file(void)
{
	outcome o;
	CU_ASSERT_EQUAL_FATAL(run_writes(1, 4, "file", &o), 0);
	CU_ASSERT_EQUAL(o.k.at[0], T1 + 2 * S1 + S2 + K + L + C);
	CU_ASSERT_EQUAL(o.seeks, 1);
	free(o.devices);
}

/*
 * Two clients, addressing = zero. Client 1's header reaches the server c
 * before client 2's (one ejection port), so client 1's pulls leave first,
 * then client 2's. The server's ejection port takes one block per D, in turn:
 *   1:b0 at T1, 2:b0 at T1+D, 1:b1 at T1+2D, 2:b1 at T1+3D, 1:b2 at T1+3.5D, 2:b2 at T1+4D,
 * all long before the disk is free, so the disk runs them in that order:
 *   1:b0 @0    (new disk at 0)               S1
 *   2:b0 @0    (< previous end 1e6)          S1 + K
 *   1:b1 @1e6  (= previous end 1e6)          S1       <- the artefact: another client's block 0 ended there
 *   2:b1 @1e6  (< previous end 2e6)          S1 + K
 *   1:b2 @2e6  (= previous end 2e6)          S2
 *   2:b2 @2e6  (< previous end 2.5e6)        S2 + K
 * client 1: T1 + 4 S1 + S2 + 2K + L + c = 5,866,904,618 ps
 * client 2: T1 + 4 S1 + 2 S2 + 3K + L + c = 8,470,560,260 ps
 */
static void test_two_clients(void)
{
	outcome o;
	CU_ASSERT_EQUAL_FATAL(run_writes(2, 4, "zero", &o), 0);
	CU_ASSERT_EQUAL_FATAL(o.k.n, 2);
	CU_ASSERT_EQUAL(o.k.at[0], T1 + 4 * S1 + S2 + 2 * K + L + C);
	CU_ASSERT_EQUAL(o.k.at[0], 5866904618ull);
	CU_ASSERT_EQUAL(o.k.at[1], T1 + 4 * S1 + 2 * S2 + 3 * K + L + C);
	CU_ASSERT_EQUAL(o.k.at[1], 8470560260ull);
	CU_ASSERT_EQUAL(o.ops, 6);
	CU_ASSERT_EQUAL(o.seeks, 3);
	CU_ASSERT_EQUAL(o.check, 0);
	free(o.devices);
}

/*
 * Two clients, addressing = file: the blocks sit at 2^30 + file offset, so
 * client 2's are 2.5e6 further on. In the same order as above every block
 * seeks: 1:b0 (from 0), 2:b0 @+2.5e6 (past the window), 1:b1 @+1e6 (< 3.5e6),
 * 2:b1 @+3.5e6 (> 2e6 + 512), 1:b2 @+2e6 (< 4.5e6), 2:b2 @+4.5e6 (> 2.5e6 + 512):
 * client 1: T1 + 4 S1 + S2 + 5K + L + c, client 2: T1 + 4 S1 + 2 S2 + 6K + L + c
 */
static void test_two_clients_file(void)
{
	outcome o;
	CU_ASSERT_EQUAL_FATAL(run_writes(2, 4, "file", &o), 0);
	CU_ASSERT_EQUAL_FATAL(o.k.n, 2);
	CU_ASSERT_EQUAL(o.k.at[0], T1 + 4 * S1 + S2 + 5 * K + L + C);
	CU_ASSERT_EQUAL(o.k.at[1], T1 + 4 * S1 + 2 * S2 + 6 * K + L + C);
	CU_ASSERT_EQUAL(o.seeks, 6);
	free(o.devices);
}

int main(void)
{
	static const ut_test disk[] = {
		{"service time: transfer, overhead, seek", test_service},
		{"seek window and FIFO order", test_window_fifo},
		{"CODES-style offsets: the contiguity artefact", test_codes_offsets},
		{"[lsm.NAME] keys, units, default window, base", test_params},
		{"configuration errors with file:line", test_config_errors},
		{NULL, NULL},
	};
	static const ut_test server[] = {
		{"one client, 4 threads, addressing = zero", test_one_client},
		{"one client, 1 thread: pull after the disk write", test_one_thread},
		{"one client, addressing = file: one seek", test_one_client_file},
		{"two clients interleaving, addressing = zero", test_two_clients},
		{"two clients interleaving, addressing = file", test_two_clients_file},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"lsm disk", disk, NULL, NULL},
		{"lsm behind a burst-buffer server", server, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

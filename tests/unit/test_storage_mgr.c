/*
 * test_storage_mgr.c - the storage manager on the analytic network, driven by
 * a tiny hand-built test entity that submits requests at given times:
 * pipelining, contention, the storage-side SSD/HDD split, the local
 * configuration's silence on the network, nearest burst buffer, space
 * waits and failures, conservation and determinism.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/sim.h"
#include "runtime/net/analytic.h"
#include "runtime/storage/storage.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#define MAXREQ 64
#define US RT_PS_PER_US

/* ------------------------------------------------------------ harness */

enum { DRV_START, DRV_DONE, DRV_NKINDS };

typedef struct plan {
	ncsim_time_t at;
	sto_request req;
} plan;

typedef struct driver {
	sto_system *sto;
	const plan *plan;
	size_t n;
	sim_eid self;
	int submit_err;
	size_t ndone;
	sto_completion done[MAXREQ];
	ncsim_time_t done_at[MAXREQ];
} driver;

static void drv_start(sim_ctx *ctx, void *state, const sim_event *ev)
{
	driver *d = state;
	uint64_t i = SIM_PAYLOAD(ev, uint64_t)[0];
	sto_request r = d->plan[i].req;
	r.notify = d->self;
	r.notify_kind = DRV_DONE;
	r.cookie = i;
	if (sto_submit(d->sto, ctx, &r) != 0)
		d->submit_err++;
}

static void drv_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	driver *d = state;
	const sto_completion *c = SIM_PAYLOAD(ev, sto_completion);
	d->done[c->cookie] = *c;
	d->done_at[c->cookie] = sim_now(ctx);
	d->ndone++;
}

static const sim_handler drv_handlers[DRV_NKINDS] = { [DRV_START] = drv_start, [DRV_DONE] = drv_done };
static const sim_type drv_type = { .name = "test_driver", .handlers = drv_handlers, .nhandlers = DRV_NKINDS };

typedef struct run {
	driver d;
	sto_totals tot;
	uint64_t net_io_bytes;  /* what the network model carried in NET_CLASS_IO */
	int check;              /* sto_check result */
	char *log;              /* io.csv text */
	size_t loglen;
	char *devices;          /* devices CSV */
	size_t devlen;
	char *busy;             /* device_busy.csv text */
	size_t busylen;
} run;

#define NET_BW 1e9
#define NET_LAT (1 * US)

/* Runs `n` planned requests on a machine of `nnodes` nodes; net 0 = none, 1 = analytic. */
static int simulate(const char *conf_text, int with_net, uint32_t nnodes, const sto_topology *topo,
                    const plan *p, size_t n, uint64_t seed, run *out)
{
	memset(out, 0, sizeof *out);
	char *err = NULL;
	sysconf_t *conf = sysconf_parse("test.conf", conf_text, &err);
	if (!conf) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return -1;
	}
	sim_ctx *ctx = sim_new(seed);
	net_model *net = NULL;
	if (with_net) {
		an_params ap;
		an_params_default(&ap);
		ap.nnodes = nnodes;
		ap.latency = NET_LAT;
		ap.bandwidth = ap.inj_bandwidth = NET_BW;
		net = an_create(ctx, &ap);
	}
	sto_system *sto = sto_new(conf, net, topo, nnodes, ctx, &err);
	if (!sto) {
		fprintf(stderr, "%s\n", err);
		free(err);
		sysconf_free(conf);
		net_destroy(net);
		sim_free(ctx);
		return -1;
	}
	CU_ASSERT_EQUAL(sysconf_unused(conf, stderr), 0);
	FILE *log = open_memstream(&out->log, &out->loglen);
	sto_set_io_log(sto, log);
	FILE *busy = open_memstream(&out->busy, &out->busylen);
	sto_set_busy_log(sto, busy, STO_BUSYLOG_MAX_DEFAULT);
	out->d.sto = sto;
	out->d.plan = p;
	out->d.n = n;
	out->d.self = sim_entity_add(ctx, &drv_type, &out->d);
	for (uint64_t i = 0; i < n; i++)
		sim_send(ctx, out->d.self, p[i].at, DRV_START, &i, sizeof i);
	int rc = sim_run(ctx, SIM_FOREVER);
	fclose(log);
	fclose(busy);
	FILE *dev = open_memstream(&out->devices, &out->devlen);
	sto_write_devices(sto, dev);
	fclose(dev);
	out->tot = *sto_get_totals(sto);
	out->check = sto_check(sto, stderr);
	out->net_io_bytes = net ? net->totals.bytes_injected[NET_CLASS_IO] : 0;
	sto_free(sto);
	net_destroy(net);
	sim_free(ctx);
	sysconf_free(conf);
	return rc;
}

static void run_free(run *r)
{
	free(r->log);
	free(r->devices);
	free(r->busy);
}

static plan wr(ncsim_time_t at, uint32_t client, uint64_t off, uint64_t bytes)
{
	return (plan){ .at = at, .req = { .client_node = client, .op = STO_OP_WRITE, .file = 1, .offset = off,
	                                  .bytes = bytes } };
}

static plan rd(ncsim_time_t at, uint32_t client, uint64_t off, uint64_t bytes)
{
	plan p = wr(at, client, off, bytes);
	p.req.op = STO_OP_READ;
	return p;
}

/* One network leg on an idle analytic path: latency + bytes / bandwidth. */
static ncsim_time_t leg(uint64_t bytes)
{
	return NET_LAT + ut_xfer_ps(bytes, (uint64_t)NET_BW);
}

static ncsim_time_t absdiff(ncsim_time_t a, ncsim_time_t b)
{
	return a > b ? a - b : b - a;
}

/* ------------------------------------------------------------ tests */

/*
 * Pipelining. Client node 1 writes 8 MiB to the burst buffer on node 0 in
 * 1 MiB blocks (one group, bb_per_group = 1), draining off.
 * threads = 1: every block is RDMA request -> data -> device write in turn:
 *   T1 = leg(64) + 8 * (leg(64) + leg(1 MiB) + T_w(1 MiB)) + leg(64)
 * threads = 4: the SSD is the bottleneck (T_w(1 MiB) = 63 * 42.29 + 72.61
 * = 2736.88 us > leg(1 MiB) = 1049.58 us), so after the first block arrives
 * the device writes back to back:
 *   T4 = leg(64) + leg(64) + leg(1 MiB) + 8 * T_w(1 MiB) + leg(64)
 * (up to the 64 ns serialisation of the back-to-back RDMA requests).
 */
static void test_pipelining(void)
{
	const char *c1 = "[storage]\nconfig = compute-side\nthreads = 1\nblock_size = 1 MiB\ndrain = no\n";
	const char *c4 = "[storage]\nconfig = compute-side\nthreads = 4\nblock_size = 1 MiB\ndrain = no\n";
	plan p[1] = { wr(0, 1, 0, 8u << 20) };
	run r1, r4;
	CU_ASSERT_EQUAL_FATAL(simulate(c1, 1, 4, NULL, p, 1, 1, &r1), 0);
	CU_ASSERT_EQUAL_FATAL(simulate(c4, 1, 4, NULL, p, 1, 1, &r4), 0);
	CU_ASSERT_EQUAL(r1.d.ndone, 1);
	CU_ASSERT_EQUAL(r4.d.ndone, 1);
	/* d3-s4510: 16 KiB pages, rho = 32, W_ch 42.29 us, W_page 72.61 us: 1 MiB = 64 pages in 2 cycles
	 * with T_wait = max(0, 72.61 - 32 * 42.29) = 0, so T_w = 63 * 42.29 + 72.61 = 2736.88 us */
	const ncsim_time_t tw = 63 * 42290000ull + 72610000ull;
	sto_dev_params dp;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(NULL, "d3-s4510", &dp, &err), 0);
	CU_ASSERT_EQUAL(sto_ssd_write_time(&dp.ssd, 1u << 20), tw);
	ncsim_time_t t1 = leg(64) + 8 * (leg(64) + leg(1u << 20) + tw) + leg(64);
	ncsim_time_t t4 = leg(64) + leg(64) + leg(1u << 20) + 8 * tw + leg(64);
	printf("\n  pipelining: threads=1 %.3f ms (expected %.3f), threads=4 %.3f ms (expected %.3f), speed-up %.2f\n",
	       r1.d.done_at[0] * 1e-9, t1 * 1e-9, r4.d.done_at[0] * 1e-9, t4 * 1e-9,
	       (double)r1.d.done_at[0] / (double)r4.d.done_at[0]);
	CU_ASSERT(absdiff(r1.d.done_at[0], t1) < 10);
	CU_ASSERT(absdiff(r4.d.done_at[0], t4) < 1000);
	CU_ASSERT(r4.d.done_at[0] < r1.d.done_at[0]);
	/* Device time is the sum of the block writes (no queueing with one thread). */
	CU_ASSERT_EQUAL(r1.d.done[0].dev_time, 8 * tw);
	CU_ASSERT_EQUAL(r1.check, 0);
	CU_ASSERT_EQUAL(r4.check, 0);
	run_free(&r1);
	run_free(&r4);
}

/* Row i (0: the header) of CSV text, copied into buf (NULL past the end). */
static const char *csv_row(const char *text, size_t i, char *buf, size_t len)
{
	for (; i > 0 && text; i--)
		text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
	if (!text || !*text)
		return NULL;
	size_t n = strcspn(text, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
	return buf;
}

/*
 * device_busy.csv, the pipelining run with threads = 1 and no drain: block
 * k's device write starts when its data arrives, after the header and k + 1
 * round trips (RDMA request, then 1 MiB of data) and the k writes before it:
 *   start_k = leg(64) + (k + 1) (leg(64) + leg(1 MiB)) + k T_w,  end_k = start_k + T_w
 * on device 0 (the only storage.csv row: node 0's burst buffer).
 */
static void test_busy_log_blocks(void)
{
	const char *c1 = "[storage]\nconfig = compute-side\nthreads = 1\nblock_size = 1 MiB\ndrain = no\n";
	plan p[1] = { wr(0, 1, 0, 8u << 20) };
	run r;
	CU_ASSERT_EQUAL_FATAL(simulate(c1, 1, 4, NULL, p, 1, 1, &r), 0);
	const ncsim_time_t tw = 63 * 42290000ull + 72610000ull; /* T_w(1 MiB), test_pipelining */
	char row[200];
	CU_ASSERT_STRING_EQUAL(csv_row(r.busy, 0, row, sizeof row), STO_BUSYLOG_HEADER);
	for (unsigned k = 0; k < 8; k++) {
		unsigned dev, node;
		char cls[8], op[8];
		unsigned long long start, end, bytes;
		CU_ASSERT_FATAL(csv_row(r.busy, k + 1, row, sizeof row) != NULL);
		CU_ASSERT_EQUAL_FATAL(sscanf(row, "%u,%u,%7[a-z],%7[a-z],%llu,%llu,%llu", &dev, &node, cls, op, &start, &end,
		                             &bytes), 7);
		ncsim_time_t want = leg(64) + (k + 1) * (leg(64) + leg(1u << 20)) + k * tw;
		CU_ASSERT(dev == 0 && node == 0 && !strcmp(cls, "ssd") && !strcmp(op, "write") && bytes == 1u << 20);
		CU_ASSERT(absdiff(start, want) < 10);
		CU_ASSERT_EQUAL(end - start, tw);
	}
	CU_ASSERT_PTR_NULL(csv_row(r.busy, 9, row, sizeof row));
	run_free(&r);
}

/*
 * device_busy.csv on a storage-side machine (servers on nodes 4 and 5, an SSD
 * and a disk each: storage.csv rows 0 = node 4 ssd, 1 = node 4 hdd, 2 = node 5
 * ssd, 3 = node 5 hdd). Client 0's 4 KiB write goes to node 4's SSD (device 0),
 * which drains it; client 1's 1 MiB write to node 5's disk (device 3). The
 * rows of a device add up to storage.csv's busy_us.
 */
static void test_busy_log_devices(void)
{
	const char *c = "[storage]\nconfig = storage-side\nio_servers = 2\n";
	plan p[2] = { wr(0, 0, 0, 4096), wr(0, 1, 0, 1u << 20) };
	run r;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 6, NULL, p, 2, 1, &r), 0);
	char row[200];
	int ssd_write = 0, ssd_drain = 0, hdd_write = 0, other = 0;
	double busy[4] = {0};
	for (size_t i = 1; csv_row(r.busy, i, row, sizeof row); i++) {
		unsigned dev, node;
		char cls[8], op[8];
		unsigned long long start, end, bytes;
		CU_ASSERT_EQUAL_FATAL(sscanf(row, "%u,%u,%7[a-z],%7[a-z],%llu,%llu,%llu", &dev, &node, cls, op, &start, &end,
		                             &bytes), 7);
		CU_ASSERT_FATAL(dev < 4 && end >= start);
		busy[dev] += (double)(end - start);
		if (dev == 0 && node == 4 && !strcmp(cls, "ssd") && bytes == 4096)
			(*(strcmp(op, "write") ? &ssd_drain : &ssd_write))++;
		else if (dev == 3 && node == 5 && !strcmp(cls, "hdd") && !strcmp(op, "write") && bytes == 1u << 20)
			hdd_write++;
		else
			other++;
	}
	CU_ASSERT(ssd_write == 1 && ssd_drain == 1 && hdd_write == 1 && other == 0);
	/* storage.csv (the devices CSV): busy_us of each row, to the picosecond (%.6f us) */
	for (unsigned d = 0; d < 4; d++) {
		double us = -1;
		CU_ASSERT_FATAL(csv_row(r.devices, d + 1, row, sizeof row) != NULL);
		const char *f = row;
		for (int k = 0; k < 11 && f; k++) /* busy_us is the 12th column */
			f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL;
		CU_ASSERT_FATAL(f && sscanf(f, "%lf", &us) == 1);
		CU_ASSERT(fabs(us * 1e6 - busy[d]) < 0.5);
	}
	CU_ASSERT(busy[0] > 0 && busy[3] > 0 && busy[1] == 0 && busy[2] == 0);
	run_free(&r);
}

/* The busy log's bound: rows past max are counted, not written. */
static void test_busy_log_bound(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	sto_busylog l = {.out = f, .max = 2};
	for (unsigned i = 0; i < 5; i++)
		sto_busylog_row(&l, i, 7, "lsm", i % 2 ? STO_BUSY_DRAIN : STO_BUSY_READ, 10 * i, 10 * i + 5, 100);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(text, "0,7,lsm,read,0,5,100\n1,7,lsm,drain,10,15,100\n");
	CU_ASSERT(l.rows == 2 && l.dropped == 3);
	free(text);
}

/* Two clients writing 16 MiB each to the same burst buffer take about twice as long as one. */
static void test_contention(void)
{
	const char *c = "[storage]\nconfig = compute-side\nthreads = 4\ndrain = no\n";
	plan one[1] = { wr(0, 1, 0, 16u << 20) };
	plan two[2] = { wr(0, 1, 0, 16u << 20), wr(0, 2, 16u << 20, 16u << 20) };
	run a, b;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 4, NULL, one, 1, 1, &a), 0);
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 4, NULL, two, 2, 1, &b), 0);
	CU_ASSERT_EQUAL(b.d.ndone, 2);
	CU_ASSERT_EQUAL(b.d.done[0].server, 0);
	CU_ASSERT_EQUAL(b.d.done[1].server, 0);
	ncsim_time_t t2 = b.d.done_at[0] > b.d.done_at[1] ? b.d.done_at[0] : b.d.done_at[1];
	double ratio = (double)t2 / (double)a.d.done_at[0];
	printf("\n  contention: one client %.3f ms, two clients %.3f ms, ratio %.3f\n", a.d.done_at[0] * 1e-9,
	       t2 * 1e-9, ratio);
	CU_ASSERT(ratio > 1.8 && ratio < 2.1);
	run_free(&a);
	run_free(&b);
}

/* Storage-side: 4 KiB (< 64 KiB) goes to the server's SSD, 1 MiB to its HDD. */
static void test_storage_split(void)
{
	const char *c = "[storage]\nconfig = storage-side\nio_servers = 2\n";
	plan p[4] = { wr(0, 0, 0, 4096), wr(0, 1, 0, 1u << 20), rd(US * 100000, 0, 0, 65535),
	              rd(US * 100000, 1, 0, 65536) };
	run r;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 6, NULL, p, 4, 1, &r), 0);
	CU_ASSERT_EQUAL(r.d.ndone, 4);
	static const int where[4] = { STO_AT_SSD, STO_AT_HDD, STO_AT_SSD, STO_AT_HDD };
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(r.d.done[i].where, where[i]);
	/* the last io_servers nodes are the servers; client c uses server c % 2 */
	CU_ASSERT_EQUAL(r.d.done[0].server, 4);
	CU_ASSERT_EQUAL(r.d.done[1].server, 5);
	CU_ASSERT_EQUAL(r.d.done[3].server, 5);
	CU_ASSERT_EQUAL(r.tot.bytes_stored, 4096 + (1u << 20));
	CU_ASSERT_EQUAL(r.check, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.devices, "4,ssd,d3-s4510,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.devices, "5,hdd,st2000nx0253,"));
	run_free(&r);
}

/* Local burst buffers: the network carries nothing, with or without a network model. */
static void test_local_silent(void)
{
	const char *c = "[storage]\nconfig = local\n";
	plan p[3] = { wr(0, 0, 0, 3u << 20), wr(0, 3, 0, 1u << 20), rd(US * 50000, 0, 0, 2u << 20) };
	run r, rn;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 4, NULL, p, 3, 1, &r), 0);
	CU_ASSERT_EQUAL_FATAL(simulate(c, 0, 4, NULL, p, 3, 1, &rn), 0);
	CU_ASSERT_EQUAL(r.d.ndone, 3);
	CU_ASSERT_EQUAL(r.tot.net_bytes, 0);
	CU_ASSERT_EQUAL(r.tot.net_msgs, 0);
	CU_ASSERT_EQUAL(r.net_io_bytes, 0);
	CU_ASSERT_EQUAL(r.d.done[0].where, STO_AT_LOCAL);
	CU_ASSERT_EQUAL(r.d.done[1].server, 3);
	CU_ASSERT_EQUAL(r.d.done[0].net_time, 0);
	CU_ASSERT_EQUAL(r.check, 0);
	/* no network model at all gives the same times */
	CU_ASSERT_EQUAL(rn.d.ndone, 3);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(r.d.done_at[i], rn.d.done_at[i]);
	/* A network configuration, for contrast, moves the data plus control messages. */
	run x;
	CU_ASSERT_EQUAL_FATAL(simulate("[storage]\nconfig = compute-side\n", 1, 4, NULL, p, 3, 1, &x), 0);
	CU_ASSERT(x.net_io_bytes > (6u << 20));
	CU_ASSERT_EQUAL(x.net_io_bytes, x.tot.net_bytes);
	run_free(&r);
	run_free(&rn);
	run_free(&x);
}

/* A fake dragonfly: 2 groups x 2 routers x 2 nodes. */
static uint32_t fake_router(void *ctx, uint32_t n) { (void)ctx; return n / 2; }
static uint32_t fake_group(void *ctx, uint32_t n) { (void)ctx; return n / 4; }

static void test_nearest(void)
{
	sto_topology t = { .nnodes = 8, .router_of = fake_router, .group_of = fake_group };
	plan p[4] = { wr(0, 1, 0, 4096), wr(0, 3, 0, 4096), wr(0, 6, 0, 4096), wr(0, 5, 0, 4096) };
	run r;
	/* default: first node of each group (0 and 4) */
	CU_ASSERT_EQUAL_FATAL(simulate("[storage]\nconfig = compute-side\n", 1, 8, &t, p, 4, 1, &r), 0);
	CU_ASSERT_EQUAL(r.d.done[0].server, 0); /* same router */
	CU_ASSERT_EQUAL(r.d.done[1].server, 0); /* same group */
	CU_ASSERT_EQUAL(r.d.done[2].server, 4); /* same group */
	CU_ASSERT_EQUAL(r.d.done[3].server, 4); /* same router */
	run_free(&r);
	/* bb_nodes = 2, 3: group 1 has none, so node n uses bb[n % 2]; node 1 shares no router */
	CU_ASSERT_EQUAL_FATAL(simulate("[storage]\nconfig = compute-side\nbb_nodes = 2, 3\n", 1, 8, &t, p, 4, 1, &r), 0);
	CU_ASSERT_EQUAL(r.d.done[0].server, 3); /* group 0 has {2,3}: 1 % 2 = 1 -> node 3 */
	CU_ASSERT_EQUAL(r.d.done[1].server, 3); /* router 1 has {2,3}: 3 % 2 = 1 -> node 3 */
	CU_ASSERT_EQUAL(r.d.done[2].server, 2); /* no bb in group 1: bb[6 % 2] = node 2 */
	CU_ASSERT_EQUAL(r.d.done[3].server, 3); /* bb[5 % 2] = node 3 */
	run_free(&r);
}

/*
 * A 8 MiB burst buffer (a preset with a smaller capacity). With on_full =
 * fail, a 12 MiB write fails and 4 MiB + 4 MiB fill it, so a third 4 MiB
 * write submitted at once fails too. With on_full = block the third write
 * waits for drains and succeeds; every byte written is stored and drained.
 */
static void test_space(void)
{
	const char *dev = "[ssd.small]\nbase = d3-s4510\ncapacity = 8 MiB\n";
	char *cfail = xasprintf("[storage]\nconfig = compute-side\ndevice = small\non_full = fail\n%s", dev);
	char *cblock = xasprintf("[storage]\nconfig = compute-side\ndevice = small\non_full = block\n%s", dev);
	plan p[4] = { wr(0, 1, 0, 12u << 20), wr(10 * US, 1, 0, 4u << 20), wr(20 * US, 2, 4u << 20, 4u << 20),
	              wr(30 * US, 3, 8u << 20, 4u << 20) };
	run f, b;
	CU_ASSERT_EQUAL_FATAL(simulate(cfail, 1, 4, NULL, p, 4, 1, &f), 0);
	CU_ASSERT_EQUAL(f.d.ndone, 4);
	static const int status[4] = { STO_ENOSPC, STO_OK, STO_OK, STO_ENOSPC };
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(f.d.done[i].status, status[i]);
	CU_ASSERT_EQUAL(f.tot.failed, 2);
	CU_ASSERT_EQUAL(f.tot.bytes_written, 8u << 20);
	CU_ASSERT_EQUAL(f.check, 0);
	CU_ASSERT_EQUAL_FATAL(simulate(cblock, 1, 4, NULL, p, 4, 1, &b), 0);
	CU_ASSERT_EQUAL(b.d.ndone, 4);
	CU_ASSERT_EQUAL(b.d.done[0].status, STO_ENOSPC); /* larger than the device: cannot ever fit */
	CU_ASSERT_EQUAL(b.d.done[3].status, STO_OK);
	CU_ASSERT(b.tot.space_waits >= 1);
	CU_ASSERT(b.d.done_at[3] > b.d.done_at[1] && b.d.done_at[3] > b.d.done_at[2]);
	CU_ASSERT_EQUAL(b.tot.bytes_written, 12u << 20);
	CU_ASSERT_EQUAL(b.tot.bytes_stored, 12u << 20);
	CU_ASSERT_EQUAL(b.tot.bytes_drained, 12u << 20);
	CU_ASSERT_EQUAL(b.check, 0);
	free(cfail);
	free(cblock);
	run_free(&f);
	run_free(&b);
}

/* A mixed workload: conservation holds and two runs with one seed are identical. */
static void test_conservation_determinism(void)
{
	const char *c = "[storage]\nconfig = storage-side\nio_servers = 2\nthreads = 3\nblock_size = 256 KiB\n";
	plan p[MAXREQ];
	size_t n = 0;
	uint64_t x = 12345, written = 0;
	for (int i = 0; i < 40; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t bytes = (x >> 33) % (3u << 20);
		uint32_t client = (uint32_t)((x >> 20) % 6);
		uint64_t off = ((x >> 8) % 4096) * 65536;
		ncsim_time_t at = (ncsim_time_t)((x >> 40) % 200000) * US / 10;
		p[n++] = (i % 3 == 2) ? rd(at, client, off, bytes) : wr(at, client, off, bytes);
		if (i % 3 != 2)
			written += bytes;
	}
	run a, b;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 8, NULL, p, n, 7, &a), 0);
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 8, NULL, p, n, 7, &b), 0);
	CU_ASSERT_EQUAL(a.d.submit_err, 0);
	CU_ASSERT_EQUAL(a.d.ndone, n);
	CU_ASSERT_EQUAL(a.tot.submitted, n);
	CU_ASSERT_EQUAL(a.tot.completed, n);
	CU_ASSERT_EQUAL(a.tot.failed, 0);
	CU_ASSERT_EQUAL(a.tot.bytes_written, written);
	CU_ASSERT_EQUAL(a.tot.bytes_stored, written);
	CU_ASSERT_EQUAL(a.check, 0);
	/* every storage message is I/O traffic */
	CU_ASSERT_EQUAL(a.net_io_bytes, a.tot.net_bytes);
	CU_ASSERT_EQUAL(a.loglen, b.loglen);
	CU_ASSERT(a.log && b.log && memcmp(a.log, b.log, a.loglen) == 0);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(a.d.done_at[i], b.d.done_at[i]);
	/* one header line plus one row per request */
	size_t lines = 0;
	for (size_t i = 0; i < a.loglen; i++)
		lines += a.log[i] == '\n';
	CU_ASSERT_EQUAL(lines, n + 1);
	run_free(&a);
	run_free(&b);
	/* a different seed changes the HDD's rotational draws, hence some times */
	run c2;
	CU_ASSERT_EQUAL_FATAL(simulate(c, 1, 8, NULL, p, n, 8, &c2), 0);
	int differ = 0;
	for (size_t i = 0; i < n; i++)
		differ |= c2.d.done_at[i] != a.d.done_at[i];
	CU_ASSERT(differ);
	CU_ASSERT_EQUAL(c2.check, 0);
	run_free(&c2);
}

/* Configuration errors are reported, with the file position. */
static void test_config_errors(void)
{
	static const char *bad[] = {
		"[storage]\nconfig = everywhere\n",
		"[storage]\ndevice = nosuchdisk\n",
		"[storage]\nconfig = compute-side\nbb_nodes = 1, x\n",
		"[storage]\nconfig = compute-side\nbb_nodes = 1, 99\n",
		"[storage]\nthreads = 0\n",
		"[storage]\non_full = maybe\n",
		"[storage]\ndevice = half\n[ssd.half]\npage_size = 4 KiB\n",
		"[storage]\ndevice = loop\n[ssd.loop]\nbase = loop2\n[ssd.loop2]\nbase = loop\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *err = NULL;
		sysconf_t *conf = sysconf_parse("bad.conf", bad[i], &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(conf);
		sim_ctx *ctx = sim_new(1);
		an_params ap;
		an_params_default(&ap);
		ap.nnodes = 8;
		net_model *net = an_create(ctx, &ap);
		sto_system *s = sto_new(conf, net, NULL, 8, ctx, &err);
		CU_ASSERT_PTR_NULL(s);
		CU_ASSERT_PTR_NOT_NULL(err);
		if (err)
			printf("\n  expected error: %s", err);
		sto_free(s);
		free(err);
		net_destroy(net);
		sim_free(ctx);
		sysconf_free(conf);
	}
	printf("\n");
}

int main(void)
{
	static const ut_test tests[] = {
		{"pipelining: threads x block_size", test_pipelining},
		{"contention: two clients, one server", test_contention},
		{"storage-side SSD/HDD split", test_storage_split},
		{"local burst buffers move no network bytes", test_local_silent},
		{"compute-side nearest burst buffer", test_nearest},
		{"space: fail and block", test_space},
		{"conservation and determinism", test_conservation_determinism},
		{"configuration errors", test_config_errors},
		{"device_busy.csv: each block's service interval", test_busy_log_blocks},
		{"device_busy.csv: device rows, classes, drains, busy_us", test_busy_log_devices},
		{"device_busy.csv: bounded rows", test_busy_log_bound},
		{NULL, NULL},
	};
	return ut_run("storage manager", tests);
}

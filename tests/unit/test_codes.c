/*
 * test_codes.c - CODES mode of the dragonfly: the CODES dragonfly-dally
 * reader (defaults, semantics, placeholders, LPGROUPS and storage LPs, notes,
 * file:line errors) and each rule of CODES' semantics with expectations
 * worked out by hand from dragonfly-dally.C (doc/dragonfly.md, "Semantics").
 * The suite's folder (ut_dir) holds copies of the configurations of
 * tests/codes and the connection files tests/codes/gen_conn writes for them.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/mpi/mpi_proto.h"
#include "runtime/net/dragonfly_model.h"
#include "runtime/net/netfactory.h"
#include "base/util.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------- reader */

/* `name` in the suite's folder (heap). */
static char *codes_path(const char *name) { return xasprintf("%s/%s", ut_dir, name); }

/* Copies tests/codes/`name` into the suite's folder; 0, or -1. */
static int copy_conf(const char *name)
{
	char *rel = xasprintf("tests/codes/%s", name), *src = ut_src_path(rel), *text = ut_slurp(src);
	char *dst = codes_path(name);
	FILE *f = text ? fopen(dst, "w") : NULL;
	int rc = f && fputs(text, f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(rel);
	free(src);
	free(text);
	free(dst);
	return rc;
}

/* Writes the connection files of a g x a x h machine as `prefix`-intra and `prefix`-inter; 0, or -1. */
static int gen_conn(const char *prefix, int g, int a, int h)
{
	const char *b = getenv("NCSIM_BUILDDIR");
	char *cmd = xasprintf("'%s/tests/codes/gen_conn' %d %d %d '%s/%s-intra' '%s/%s-inter'",
	                      b && *b ? b : NCSIM_BUILDDIR, g, a, h, ut_dir, prefix, ut_dir, prefix);
	int rc = system(cmd) == 0 ? 0 : -1;
	free(cmd);
	return rc;
}

/* The suite's folder: both configurations next to their generated connection files. */
static int setup(void)
{
	if (ut_dir_setup() < 0 || copy_conf("dfdally-72.conf") < 0 ||
	    copy_conf("dally-1056.conf") < 0 || gen_conn("dfdally-72", 9, 4, 2) < 0 ||
	    gen_conn("dally-1056", 33, 8, 4) < 0)
		return -1;
	return 0;
}

/* tests/codes/dfdally-72.conf read with CODES' defaults and semantics. */
static void test_reader(void)
{
	char *conf = codes_path("dfdally-72.conf"), *err = NULL;
	df_config c;
	df_codes_info info;
	CU_ASSERT_EQUAL_FATAL(df_codes_read(&c, conf, NULL, &info, &err), 0);
	/* The shape and sizes: test_dragonfly.c checks the reader's keys one by one. */
	CU_ASSERT_EQUAL(c.routing, DF_ROUTE_PAR);
	CU_ASSERT_EQUAL(c.chunk_size, 4096);
	/* Link delay = one chunk's serialization: 4096 B / (4.7 x 2^30 B/s) = 811.6377 ns. */
	CU_ASSERT_EQUAL(c.latency[DF_GLOBAL], 811638);
	/* Credit delay = 8 B at the local bandwidth, 8 / (5.25 x 2^30) s = 1.4191 ns, for every class. */
	CU_ASSERT_EQUAL(c.credit_delay[DF_TERMINAL], 1419);
	CU_ASSERT_EQUAL(c.credit_delay[DF_GLOBAL], 1419);
	CU_ASSERT_EQUAL(c.router_delay, 100000);
	CU_ASSERT_EQUAL(c.router_delay_blocks_port, 0);
	CU_ASSERT_EQUAL(c.router_delay_on_exit, 1);
	CU_ASSERT_EQUAL(c.credit_return, DF_CREDIT_ACCEPT);
	CU_ASSERT_EQUAL(c.vc_rule, DF_VC_CODES);
	CU_ASSERT_EQUAL(c.rules, DF_RULES_CODES);
	CU_ASSERT_EQUAL(c.scoring, DF_SCORE_DELTA);
	CU_ASSERT_EQUAL(c.adaptive_threshold, 0);
	CU_ASSERT_EQUAL(c.k_picks, 2);
	CU_ASSERT_EQUAL(info.nbb, 0);
	CU_ASSERT_EQUAL(info.clients_fill, 0);
	static const char *const notes[] = {
		"dfdally-72.conf:13: nw-lp = 2: CODES' workload LPs; ncsim runs the program or workload given to it\n",
		"dfdally-72.conf:22: modelnet_order = dragonfly_dally: the order of CODES' network models; ncsim has one network\n",
		"dfdally-72.conf:24: message_size = 872: the size of ROSS's event records; nothing to simulate\n", NULL};
	CU_ASSERT_EQUAL(ut_missing(info.notes, notes), 0);
	df_codes_info_clear(&info);
	df_config_clear(&c);
	/* CODES' own nw-lp workload LPs: no codes-store, so not MFNetSim's client and ncsim's MPI layer. */
	sysconf_t *sc = netf_codes_system(conf, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(sysconf_has_section(sc, "mpi"), 0);
	CU_ASSERT_EQUAL(sysconf_has_section(sc, "collectives"), 0);
	sysconf_free(sc);
	free(conf);
}

/* Placeholders: --codes-root, else the file's folder or a parent; MFNetSim's codes-store LPs as burst buffers. */
static void test_placeholders_storage(void)
{
	char *conf = codes_path("dally-1056.conf"), *dir = xstrdup(ut_dir), *err = NULL;
	char *intra = codes_path("dally-1056-intra");
	df_config c;
	df_codes_info info;
	CU_ASSERT_EQUAL_FATAL(df_codes_read(&c, conf, NULL, &info, &err), 0);
	/* The placeholder stands for the file's own folder: the nearest with a dally-1056-intra in it. */
	char *real = realpath(intra, NULL);
	CU_ASSERT_STRING_EQUAL(c.intra_file, real);
	/*
	 * Two codes-store LPs in each of the 33 repetitions of 32 terminals, on
	 * the last two terminals (MFNetSim's group-modulo-reverse mapping),
	 * server 2r on terminal 32r + 31; the 30 clients fill the others.
	 */
	CU_ASSERT_EQUAL_FATAL(info.nbb, 66);
	CU_ASSERT_EQUAL(info.bb_nodes[0], 31);
	CU_ASSERT_EQUAL(info.bb_nodes[1], 30);
	CU_ASSERT_EQUAL(info.bb_nodes[2], 63);
	CU_ASSERT_EQUAL(info.bb_nodes[65], 32 * 32 + 30);
	CU_ASSERT_EQUAL(info.clients_fill, 1);
	static const char *const notes[] = {
		"dally-1056.conf:15: lsm = 2: the disk of each codes-store server; ncsim runs an [lsm] device with its "
		"first size bin\n",
		"dally-1056.conf:25: codes-external-store = 1: external storage;",
		"dally-1056.conf:49: minimal-bias = 1: CODES' dragonfly-dally does not read it either\n",
		"dally-1056.conf:53: section codes-store: burst-buffer servers: req_threads, thread_buf_sz and "
		"storage_size become [storage] threads, block_size and the disk's capacity;",
		NULL};
	CU_ASSERT_EQUAL(ut_missing(info.notes, notes), 0);
	df_codes_info_clear(&info);
	df_config_clear(&c);
	CU_ASSERT_EQUAL_FATAL(df_codes_read(&c, conf, dir, NULL, &err), 0);
	char *rooted = xasprintf("%s/dally-1056-intra", dir);
	CU_ASSERT_STRING_EQUAL(c.intra_file, rooted);
	free(rooted);
	df_config_clear(&c);
	CU_ASSERT_EQUAL(df_codes_read(&c, conf, "/no/such/root", NULL, &err), -1);
	char *want = xasprintf("%s:46: intra-group-connections: no file /no/such/root/dally-1056-intra (the "
	                       "placeholder stands for --codes-root)", conf);
	UT_TAKE_ERROR(err, want);
	/* The system a CODES file runs as: CODES' column of every semantic key, [storage] from codes-store. */
	sysconf_t *sc = netf_codes_system(conf, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	const char *s = NULL;
	CU_ASSERT_EQUAL(sysconf_string(sc, "network", "credit_return", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "accept");
	CU_ASSERT_EQUAL(sysconf_string(sc, "storage", "bb_nodes", &s, &err), 1);
	CU_ASSERT_EQUAL(strncmp(s, "31, 30, 63, 62, ", 16), 0);
	CU_ASSERT_EQUAL(sysconf_string(sc, "storage", "bb_route", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "block");
	CU_ASSERT_EQUAL(sysconf_string(sc, "placement", "alloc_ids", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "compute-nodes");
	/*
	 * The codes-store servers: the file leaves req_threads, thread_buf_sz,
	 * storage_size and the lsm seek and overhead out, so MFNetSim's values
	 * (4 threads of 1,000,000 B, 6.4e12 B, 2.5 ms, 20 us); its write rate
	 * is its own first bin, 5700 (MiB/s, as CODES divides by 2^20).
	 */
	static const char *const store[][3] = {
		{"storage", "device", "codes-lsm"}, {"storage", "block_size", "1000000"}, {"storage", "threads", "4"},
		{"storage", "control_bytes", "128"}, {"storage", "drain", "no"}, {"storage", "addressing", "zero"},
		{"lsm.codes-lsm", "bandwidth", "5700 MiB/s"}, {"lsm.codes-lsm", "overhead", "20 us"},
		{"lsm.codes-lsm", "seek", "2500 us"}, {"lsm.codes-lsm", "seek_window", "512"},
		{"lsm.codes-lsm", "capacity", "6400000000000"},
	};
	for (size_t i = 0; i < sizeof store / sizeof store[0]; i++) {
		s = NULL;
		CU_ASSERT_EQUAL(sysconf_string(sc, store[i][0], store[i][1], &s, &err), 1);
		CU_ASSERT_STRING_EQUAL(s ? s : "(absent)", store[i][2]);
	}
	/*
	 * MFNetSim's client sends every message eagerly, its payload alone, after
	 * 10 ns + 2.5 us + 1 us and 0.55 ns per byte off the CPU; its collectives
	 * are MPICH's.
	 */
	static const char *const mpi[][2] = {
		{"protocol", "eager"}, {"header_bytes", "0"}, {"credits", "0"}, {"memory_bandwidth", "0"},
		{"call_overhead", "0"}, {"send_delay", "3.51 us"}, {"send_delay_per_byte", "0.55 ns"},
	};
	for (size_t i = 0; i < sizeof mpi / sizeof mpi[0]; i++) {
		s = NULL;
		CU_ASSERT_EQUAL(sysconf_string(sc, "mpi", mpi[i][0], &s, &err), 1);
		CU_ASSERT_STRING_EQUAL(s ? s : "(absent)", mpi[i][1]);
	}
	CU_ASSERT_EQUAL(sysconf_string(sc, "collectives", "selector", &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s, "mpich");
	/* The MPI layer reads them: 3.51 us + 497,664 x 550 ps for MFNetSim's MILC message, every size eager. */
	mp_params mp;
	mp_params_default(&mp);
	CU_ASSERT_EQUAL_FATAL(mp_params_load(&mp, sc, &err), 0);
	CU_ASSERT_EQUAL(mp_send_delay(&mp, 497664), 277225200);
	CU_ASSERT_EQUAL(mp_proto_of(&mp, 29516800), MP_SMALL);
	df_config back;
	CU_ASSERT_EQUAL(df_config_from_sysconf(&back, sc, &err), 0);
	CU_ASSERT_EQUAL(back.rules, DF_RULES_CODES);
	CU_ASSERT_EQUAL(back.vc_rule, DF_VC_CODES);
	CU_ASSERT_EQUAL(back.router_delay_on_exit, 1);
	CU_ASSERT_EQUAL(back.latency[DF_GLOBAL], 811638);
	CU_ASSERT_DOUBLE_EQUAL(back.bw[DF_GLOBAL], 4.7 * 1073741824.0, 0);
	df_config_clear(&back);
	sysconf_free(sc);
	free(want);
	free(real);
	free(intra);
	free(conf);
	free(dir);
}

/* dally-1056.conf with `extra` after the line holding `after`, as x.conf next to it (heap path). */
static char *store_variant(const char *after, const char *extra)
{
	char *src = codes_path("dally-1056.conf"), *text = ut_slurp(src), *path = codes_path("x.conf");
	char *at = strstr(text, after);
	at = at ? strchr(at, '\n') : NULL;
	FILE *f = fopen(path, "w");
	if (at && f)
		fprintf(f, "%.*s\n%s%s", (int)(at - text), text, extra, at);
	if (f)
		fclose(f);
	free(text);
	free(src);
	return path;
}

/* The servers' own settings, when the file has them, and their errors at their lines. */
static void test_store_settings(void)
{
	char *path = store_variant("bb_threshold", "    req_threads = \"2\";\n    thread_buf_sz = \"500000\";\n"
	                                           "    storage_size = \"1000000000\";\n"), *err = NULL;
	df_config c;
	df_codes_info info;
	CU_ASSERT_EQUAL_FATAL(df_codes_read(&c, path, NULL, &info, &err), 0);
	CU_ASSERT_EQUAL(info.store.threads, 2);
	CU_ASSERT_DOUBLE_EQUAL(info.store.block, 5e5, 0);
	CU_ASSERT_DOUBLE_EQUAL(info.store.capacity, 1e9, 0);
	CU_ASSERT_DOUBLE_EQUAL(info.store.mib_s, 5700, 0);
	CU_ASSERT_DOUBLE_EQUAL(info.store.seek_us, 2500, 0);
	df_codes_info_clear(&info);
	df_config_clear(&c);
	free(path);
	/* A list keeps its first bin: write_seeks of the 0-byte bin. */
	path = store_variant("write_rates", "    write_seeks = (\"1000.0\", \"3000\");\n    write_overheads = (\"7\");\n");
	CU_ASSERT_EQUAL_FATAL(df_codes_read(&c, path, NULL, &info, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(info.store.seek_us, 1000, 0);
	CU_ASSERT_DOUBLE_EQUAL(info.store.overhead_us, 7, 0);
	df_codes_info_clear(&info);
	df_config_clear(&c);
	free(path);
	/* Line 57 is the line after bb_threshold (line 56). */
	static const struct {
		const char *after, *extra, *want;
	} bad[] = {
		{"bb_threshold", "    req_threads = \"0\";\n", "57: req_threads must be positive"},
		{"bb_threshold", "    thread_buf_sz = \"lots\";\n", "57: thread_buf_sz: 'lots' is not a non-negative number"},
		{"write_rates", "    write_seeks = (\"-1\");\n", "62: write_seeks: '-1' is not a non-negative number"},
		{"request_sizes", "    write_rates = (\"0\");\n", "61: write_rates must be positive"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		path = store_variant(bad[i].after, bad[i].extra);
		CU_ASSERT_EQUAL(df_codes_read(&c, path, NULL, &info, &err), -1);
		char *want = xasprintf("%s:%s", path, bad[i].want);
		UT_TAKE_ERROR(err, want);
		df_codes_info_clear(&info);
		free(want);
		free(path);
	}
}

/* dfdally-72.conf with line `line` (1-based) replaced by `repl` (NULL: removed), in folder dir; returns its path. */
static char *variant(const char *dir, int line, const char *repl)
{
	char *src = codes_path("dfdally-72.conf"), *text = ut_slurp(src);
	char *path = xasprintf("%s/v.conf", dir), *intra = codes_path("dfdally-72-intra");
	char *inter = codes_path("dfdally-72-inter");
	FILE *f = fopen(path, "w");
	int n = 1;
	for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL, n++) {
		e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (n == line) {
			if (repl)
				fprintf(f, "%s\n", repl);
		} else if (strstr(l, "intra-group-connections") && strstr(l, "intra-group-connections") < l + len) {
			fprintf(f, "   intra-group-connections=\"%s\";\n", intra);
		} else if (strstr(l, "inter-group-connections") && strstr(l, "inter-group-connections") < l + len) {
			fprintf(f, "   inter-group-connections=\"%s\";\n", inter);
		} else {
			fprintf(f, "%.*s\n", (int)len, l);
		}
	}
	fclose(f);
	free(text);
	free(src);
	free(intra);
	free(inter);
	return path;
}

/* Malformed files: every error names the file and the line. */
static void test_malformed(void)
{
	char *dir = ut_tmpdir();
	static const struct {
		int line;
		const char *repl, *want;
	} cases[] = {
		{25, "   num_routers=\"four\";", "25: num_routers: 'four' is not a non-negative number"},
		{26, "   num_groups=\"8\";", "10: LPGROUPS describes 36 routers and 72 terminals, PARAMS 32 and 64"},
		{37, "   routing=\"smart-minimal\";", "37: routing 'smart-minimal' is not modelled (minimal, non-minimal, "
		                                    "adaptive, prog-adaptive)"},
		{37, "   route_scoring_metric=\"beta\";", "37: route_scoring_metric 'beta' is not modelled (alpha, delta; "
		                                         "CODES has no other)"},
		{37, "   credit_delay=\"2\"; auto_credit_delay=\"1\";", "37: auto_credit_delay with an explicit credit delay "
		                                                       "(CODES refuses this)"},
		{37, "   num_rails=\"2\";", "37: num_rails = 2 is not supported by ncsim's dragonfly (only 1)"},
		{23, "   modelnet_scheduler=\"fcfs-full\";", "23: modelnet_scheduler = fcfs-full (every message one packet) "
		                                             "is not modelled; use fcfs"},
		{37, "   routing=(\"minimal\"", "38: expected ',' or ')'"},
		{38, NULL, "38: missing '}'"},
		{14, "      modelnet_dragonfly=\"1\";", "14: modelnet_dragonfly is another CODES network model; ncsim reads "
		                                       "dragonfly-dally files"},
		{26, NULL, "18: PARAMS has no num_groups"},
		{36, "   inter-group-connections=\"nowhere\";", "36: inter-group-connections: cannot read "},
		{32, "   local_bandwidth=\"0\";", "32: local_bandwidth must be positive"},
		{31, "   cn_vc_size=\"1000\";", "31: dragonfly: every VC buffer must hold at least one packet (4096 B) and "
		                              "be below 2 GiB"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *path = variant(dir, cases[i].line, cases[i].repl), *err = NULL;
		df_config c;
		CU_ASSERT_EQUAL(df_codes_read(&c, path, NULL, NULL, &err), -1);
		char *want = xasprintf("%s:%s%s", path, cases[i].want, cases[i].want[strlen(cases[i].want) - 1] == ' '
		                                                          ? "..." : "");
		UT_TAKE_ERROR(err, want);
		free(want);
		free(path);
	}
	ut_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------- timing */

/* A CODES-mode copy of dfdally-72.conf's machine with `routing` (heap strings: df_config_clear). */
static df_config codes72(enum df_routing routing)
{
	char *conf = codes_path("dfdally-72.conf"), *err = NULL;
	df_config c;
	if (df_codes_read(&c, conf, NULL, NULL, &err) < 0) {
		fprintf(stderr, "%s\n", err);
		abort();
	}
	free(conf);
	c.routing = routing;
	return c;
}

/* Delivers n messages of 4096 B from src to dst, injected at 0: t[0] the sum of the latencies, t[1] the largest. */
static void deliveries(df_config *c, uint32_t src, uint32_t dst, unsigned n, ncsim_time_t *t)
{
	sim_ctx *ctx = sim_new(5);
	net_model *m = df_create_config(ctx, c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(net_inject(m, ctx, &(net_msg){.src_node = src, .dst_node = dst, .bytes = 4096,
		                                               .notify = SIM_NO_ENTITY}), 0);
	CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
	const df_stats *st = df_get_stats(m);
	CU_ASSERT_EQUAL(st->cls[NET_CLASS_MPI].msgs, n);
	t[0] = (ncsim_time_t)st->cls[NET_CLASS_MPI].lat_sum;
	t[1] = st->cls[NET_CLASS_MPI].lat_max;
	CU_ASSERT_EQUAL(m->ops->check(m, stderr), 0);
	net_destroy(m);
	sim_free(ctx);
}

/*
 * Node 0 to node 2 (router 0 to router 1 of group 0: one local link), 4096 B,
 * chunk = packet. Serializations (ut_xfer_ps, rounded up): terminal ts =
 * 4096 B at 16 GiB/s, local tl at 5.25 GiB/s; link delays dt, dl (one
 * chunk's serialization, rounded to the nearest ps: 238.4186 and 726.6090 ns);
 * router delay rd = 100 ns
 * charged as the packet leaves each router (router_packet_send):
 *   one message:  L = (ts + dt) + (tl + rd + dl) + (ts + rd + dt)
 *   two at once:  the second leaves the NIC ts later and router 0 tl after
 *                 the first, since the router delay does not hold the port:
 *                 latency L + tl - ts (with CODES' old reading, tl + rd).
 * With local_vc_size = one packet, the second waits at router 0 until the
 * first is accepted by router 1 and that credit is back (credit delay cd = 8 B
 * at 5.25 GiB/s, rounded): it leaves tl + rd + dl + cd after the first.
 */
static void test_timing(void)
{
	uint64_t ts = ut_xfer_ps(4096, 17179869184ull), tl = ut_xfer_ps(4096, 5637144576ull);
	uint64_t dt = 238419, dl = 726609, rd = 100000, cd = 1419;
	uint64_t L = (ts + dt) + (tl + rd + dl) + (ts + rd + dt);
	df_config c = codes72(DF_ROUTE_MINIMAL);
	CU_ASSERT_EQUAL(c.latency[DF_LOCAL], dl);
	ncsim_time_t t[2];
	deliveries(&c, 0, 2, 1, t);
	CU_ASSERT_EQUAL(t[0], L);
	deliveries(&c, 0, 2, 2, t);
	CU_ASSERT_EQUAL(t[1], L + tl - ts);
	CU_ASSERT_EQUAL(t[0], 2 * L + tl - ts);
	c.vc_size[DF_LOCAL] = 4096;
	deliveries(&c, 0, 2, 2, t);
	CU_ASSERT_EQUAL(t[1], L + (tl + rd + dl + cd) - ts);
	df_config_clear(&c);
}

/* ------------------------------------------------------------- VCs */

/*
 * CODES' VC rule (router_packet_receive): in the source group the local hops
 * so far (1 once the packet is non-minimal), 2 in an intermediate group, 3 in
 * the destination group, whatever the port. Machine: dfdally-72.conf, node 20
 * on router 10 of group 2.
 */
static void test_vc_rule(void)
{
	df_config c = codes72(DF_ROUTE_PAR);
	sim_ctx *ctx = sim_new(1);
	net_model *nm = df_create_config(ctx, &c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(nm);
	df_model *m = (df_model *)nm;
	uint32_t dr = 10, local = 2, global = 2 + 3, term = 0;
	df_pkt pk = {.dst = 20};
	CU_ASSERT_EQUAL(df_vc_of(m, 0, dr, &pk, global, 0), 0);            /* first router: first global hop */
	CU_ASSERT_EQUAL(df_vc_of(m, 0, dr, &pk, local, 0), 0);             /* first router: local hop */
	pk.lhops = 1;
	CU_ASSERT_EQUAL(df_vc_of(m, 1, dr, &pk, global, 0), 1);            /* global hop after a local one */
	pk.lhops = 0;
	CU_ASSERT_EQUAL(df_vc_of(m, 1, dr, &pk, global, DF_PKT_NONMIN), 1); /* non-minimal already */
	pk.ghops = 1;
	CU_ASSERT_EQUAL(df_vc_of(m, 20, dr, &pk, local, 0), 2);            /* group 5: intermediate */
	CU_ASSERT_EQUAL(df_vc_of(m, 20, dr, &pk, global, 0), 2);
	CU_ASSERT_EQUAL(df_vc_of(m, 9, dr, &pk, local, 0), 3);             /* group 2: destination */
	CU_ASSERT_EQUAL(df_vc_of(m, 10, dr, &pk, term, 0), 3);
	CU_ASSERT_EQUAL(m->nvc[DF_TERMINAL], 4);
	CU_ASSERT_EQUAL(m->nvc[DF_GLOBAL], 4);
	net_destroy(nm);
	sim_free(ctx);
	df_config_clear(&c);
}

/* ------------------------------------------------------------- PAR */

/* Makes port `port` of router r hold `bytes` in its VC 0 (its score). */
static void load_port(df_model *m, uint32_t r, uint32_t port, int32_t bytes)
{
	df_port *P = &m->ports[df_pix(m, r, port)];
	P->credits[0] = (int32_t)m->cfg.vc_size[df_topo_class(&m->topo, port)] - bytes;
}

/*
 * dfdally_prog_adaptive_routing at the source router 0 (group 0), for node 20
 * (group 2): the minimal port is router 0's own global link to group 2, or its
 * local link to the router that has one. Every other port holding 1000 B
 * (score 1000, doubled for the non-minimal candidate), the packet stays
 * minimal iff the minimal port's score is at most 2000, or at most
 * adaptive_threshold: no bias.
 */
static void test_par_rule(void)
{
	df_config c = codes72(DF_ROUTE_PAR);
	for (int th = 0; th < 2; th++) {
		c.adaptive_threshold = th ? 5000 : 0;
		sim_ctx *ctx = sim_new(3);
		net_model *nm = df_create_config(ctx, &c, NULL);
		df_model *m = (df_model *)nm;
		uint32_t port;
		uint8_t vc;
		df_pkt pk = {.dst = 20, .inter = DF_NONE};
		df_route_codes(m, 0, &pk, &port, &vc);
		uint32_t minp = port;
		CU_ASSERT_EQUAL(pk.flags & DF_PKT_NONMIN, 0); /* idle: minimal */
		for (uint32_t p = m->topo.p; p < m->nports; p++)
			load_port(m, 0, p, 1000);
		static const int32_t minload[] = {2000, 2001, 5000, 5001};
		for (int i = 0; i < 4; i++) {
			load_port(m, 0, minp, minload[i]);
			int stays = minload[i] <= 2000 || minload[i] <= (int32_t)c.adaptive_threshold;
			for (int k = 0; k < 20; k++) {
				pk = (df_pkt){.dst = 20, .inter = DF_NONE};
				df_route_codes(m, 0, &pk, &port, &vc);
				CU_ASSERT_EQUAL(port == minp, stays);
				CU_ASSERT_EQUAL(!(pk.flags & DF_PKT_NONMIN), stays);
				CU_ASSERT(pk.inter != 0 && pk.inter != 2 && pk.inter < 9);
			}
		}
		/* Node 6 is in the source group: never diverted, however loaded its port. */
		load_port(m, 0, m->topo.p + 2, 16000);
		pk = (df_pkt){.dst = 6, .inter = DF_NONE};
		df_route_codes(m, 0, &pk, &port, &vc);
		CU_ASSERT_EQUAL(port, m->topo.p + 2);
		CU_ASSERT_EQUAL(pk.flags & DF_PKT_NONMIN, 0);
		net_destroy(nm);
		sim_free(ctx);
	}
	df_config_clear(&c);
}

/*
 * A later router of the source group that has no own link to the drawn
 * intermediate group draws another among the groups its own links reach
 * (get_legal_nonminimal_stops): router 1 after a minimal local hop, every
 * port idle but the minimal one.
 */
static void test_par_redraw(void)
{
	df_config c = codes72(DF_ROUTE_PAR);
	sim_ctx *ctx = sim_new(9);
	net_model *nm = df_create_config(ctx, &c, NULL);
	df_model *m = (df_model *)nm;
	const df_topo *T = &m->topo;
	uint32_t reach[2];
	for (uint32_t k = 0; k < 2; k++)
		reach[k] = T->peer[df_pix(m, 1, df_topo_global_port(T, k))] / T->a;
	for (uint32_t g = 1; g < 9; g++) {
		if (g == reach[0] || g == reach[1])
			continue;
		/* A packet for group g' reached through router 1's first link, inter = g (not reachable from router 1). */
		df_pkt pk = {.dst = reach[0] * 8, .inter = g, .hops = 1, .lhops = 1};
		uint32_t port;
		uint8_t vc;
		load_port(m, 1, df_topo_global_port(T, 0), 10000);
		df_route_codes(m, 1, &pk, &port, &vc);
		CU_ASSERT(pk.flags & DF_PKT_NONMIN);
		CU_ASSERT_EQUAL(pk.inter, reach[1]);
		CU_ASSERT_EQUAL(port, df_topo_global_port(T, 1));
		CU_ASSERT_EQUAL(vc, 1);
	}
	net_destroy(nm);
	sim_free(ctx);
	df_config_clear(&c);
}

/* ------------------------------------------------------------- load */

/* Every node sends 30 messages of 0..20 KB to random nodes at time 0: conservation and credits under back-pressure. */
static void test_loaded(void)
{
	for (int r = DF_ROUTE_MINIMAL; r <= DF_ROUTE_PAR; r++) {
		df_config c = codes72((enum df_routing)r);
		c.vc_size[DF_LOCAL] = c.vc_size[DF_GLOBAL] = 8192;
		sim_ctx *ctx = sim_new(17);
		net_model *m = df_create_config(ctx, &c, NULL);
		uint64_t x = 88172645463325252ull;
		for (uint32_t i = 0; i < m->nnodes; i++)
			for (int k = 0; k < 30; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				net_msg msg = {.src_node = i, .dst_node = (uint32_t)(x % m->nnodes), .bytes = (x >> 20) % 20000,
				               .notify = SIM_NO_ENTITY};
				CU_ASSERT_EQUAL(net_inject(m, ctx, &msg), 0);
			}
		CU_ASSERT_EQUAL(sim_run(ctx, SIM_FOREVER), 0);
		CU_ASSERT_EQUAL(m->ops->check(m, stderr), 0);
		const df_stats *st = df_get_stats(m);
		CU_ASSERT_EQUAL(st->cls[NET_CLASS_MPI].msgs, 72 * 30);
		CU_ASSERT_EQUAL(st->nonmin_packets > 0, r != DF_ROUTE_MINIMAL);
		CU_ASSERT(st->link[DF_LOCAL].saturated > 0);
		net_destroy(m);
		sim_free(ctx);
		df_config_clear(&c);
	}
}

int main(void)
{
	static const ut_test tests[] = {
		{"reader: dfdally-72.conf", test_reader},
		{"reader: placeholders, storage LPs, the system it runs as", test_placeholders_storage},
		{"reader: malformed files give file:line", test_malformed},
		{"reader: burst-buffer server settings", test_store_settings},
		{"timing: router delay, credits on acceptance", test_timing},
		{"VC rule", test_vc_rule},
		{"PAR: no bias, threshold, source group", test_par_rule},
		{"PAR: intermediate group redrawn at a later router", test_par_redraw},
		{"conservation under load", test_loaded},
		{NULL, NULL},
	};
	return ut_run_fixture("codes", tests, setup, ut_dir_teardown);
}

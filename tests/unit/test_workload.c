/*
 * test_workload.c - workload files, skeleton and system lookup, the machine
 * probe and the multi-job run path (runtime/task/workload.h), with hand-written
 * skeletons standing in for compiled ones.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "runtime/task/workload.h"
#include "tests/unit/unit.h"

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* A scratch folder with lib/workloads and lib/systems, the layout NCSIM_PATH expects. */
static int setup(void)
{
	if (ut_dir_setup() != 0)
		return -1;
	static const char *const sub[] = {"lib", "lib/workloads", "lib/systems"};
	for (int i = 0; i < 3; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", ut_dir, sub[i]);
		if (mkdir(path, 0755) != 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ parser */

static void test_parse_ok(void)
{
	char lib[128];
	snprintf(lib, sizeof lib, "/nonexistent:%s/lib", ut_dir);
	setenv("NCSIM_PATH", lib, 1);
	write_file(ut_dir, "mine.ncptl", "all tasks synchronize\n");
	write_file(ut_dir, "lib/workloads/pathonly.ncptl", "all tasks synchronize\n");
	char wpath[128];
	snprintf(wpath, sizeof wpath, "%s/hybrid.wkld", ut_dir);
	const char *text = "# a mixed workload\n"
	                   "\n"
	                   "300 cosmoflow --reps 20   # deep learning\n"
	                   "  16\tmine.ncptl -i 3 @ 2ms\n"
	                   "4 pathonly @1.5s\n"
	                   "2 cosmoflow @ 7 us\n"
	                   "8 osu-latency --maxbytes 64K";
	wl_file w;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(wl_parse(wpath, text, &w, &err), 0);
	CU_ASSERT_EQUAL_FATAL(w.jobs.len, 5);
	wl_job *j = w.jobs.ptr;
	CU_ASSERT_EQUAL(j[0].line, 3);
	CU_ASSERT_EQUAL(j[0].ntasks, 300);
	CU_ASSERT_STRING_EQUAL(j[0].skeleton, "cosmoflow");
	CU_ASSERT_PTR_NOT_NULL(strstr(j[0].path, "stdlib/workloads/cosmoflow.ncptl"));
	CU_ASSERT_EQUAL(j[0].argc, 2);
	CU_ASSERT_STRING_EQUAL(j[0].argv[0], "--reps");
	CU_ASSERT_STRING_EQUAL(j[0].argv[1], "20");
	CU_ASSERT_PTR_NULL(j[0].argv[2]);
	CU_ASSERT_EQUAL(j[0].start, 0);
	CU_ASSERT_STRING_EQUAL(j[0].name, "cosmoflow.1");
	CU_ASSERT_EQUAL(j[1].line, 4);
	CU_ASSERT_EQUAL(j[1].ntasks, 16);
	char want[256];
	snprintf(want, sizeof want, "%s/mine.ncptl", ut_dir);
	CU_ASSERT_STRING_EQUAL(j[1].path, want);
	CU_ASSERT_EQUAL(j[1].argc, 2);
	CU_ASSERT_EQUAL(j[1].start, (ncsim_time_t)2000000000);
	CU_ASSERT_STRING_EQUAL(j[1].name, "mine");
	snprintf(want, sizeof want, "%s/lib/workloads/pathonly.ncptl", ut_dir);
	CU_ASSERT_STRING_EQUAL(j[2].path, want);
	CU_ASSERT_EQUAL(j[2].argc, 0);
	CU_ASSERT_EQUAL(j[2].start, (ncsim_time_t)1500000000000);
	CU_ASSERT_STRING_EQUAL(j[3].name, "cosmoflow.2");
	CU_ASSERT_EQUAL(j[3].argc, 0);
	CU_ASSERT_EQUAL(j[3].start, (ncsim_time_t)7000000);
	CU_ASSERT_STRING_EQUAL(j[4].name, "osu-latency");
	CU_ASSERT_EQUAL(wl_total_tasks(&w), 330);
	CU_ASSERT_EQUAL(wl_check_capacity(&w, 330, 340, &err), 0);
	CU_ASSERT_EQUAL(wl_check_capacity(&w, 325, 340, &err), -1);
	snprintf(want, sizeof want, "%s:7: more tasks than compute nodes: the jobs up to this line need 330 nodes", wpath);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want) == err ? err : NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "325 compute nodes (340 nodes, 15 of them burst-buffer or I/O nodes)"));
	free(err);
	wl_free(&w);
	unsetenv("NCSIM_PATH");
}

/* Each malformed workload gives exactly this message. */
static void expect_error(const char *text, const char *want)
{
	wl_file w;
	char *err = NULL;
	CU_ASSERT_EQUAL(wl_parse("w.wkld", text, &w, &err), -1);
	CU_ASSERT_EQUAL(w.jobs.len, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	if (strcmp(err, want))
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(err);
}

static void test_parse_errors(void)
{
	unsetenv("NCSIM_PATH");
	expect_error("4 cosmoflow\n2 nosuchskeleton --x 1\n",
	             "w.wkld:2: unknown skeleton 'nosuchskeleton' (not a file, not in stdlib/workloads, not in NCSIM_PATH, "
	             "not a known CODES or Union name)");
	expect_error("\n\n# c\n4 ./nothere.ncptl\n", "w.wkld:4: skeleton file './nothere.ncptl' not found");
	expect_error("cosmoflow 4\n",
	             "w.wkld:1: expected a task count (a positive integer) at the start of the line, found 'cosmoflow'");
	expect_error("0 cosmoflow\n",
	             "w.wkld:1: expected a task count (a positive integer) at the start of the line, found '0'");
	expect_error("-3 cosmoflow\n",
	             "w.wkld:1: expected a task count (a positive integer) at the start of the line, found '-3'");
	expect_error("99999999999 cosmoflow\n", "w.wkld:1: expected a task count (a positive integer) at the start of "
	                                        "the line, found '99999999999'");
	expect_error("4\n", "w.wkld:1: expected a skeleton name after the task count (e.g. '4 cosmoflow')");
	expect_error("4 --reps 3\n", "w.wkld:1: expected a skeleton name after the task count (e.g. '4 cosmoflow')");
	expect_error("4 cosmoflow @ 2\n", "w.wkld:1: bad start time '2': a start time needs a unit (ps, ns, us, ms or s)");
	expect_error("4 cosmoflow @ soon\n", "w.wkld:1: bad start time 'soon': expected a time such as 2ms or 1.5 s");
	expect_error("4 cosmoflow @2 parsecs\n", "w.wkld:1: the start time ('@ TIME') must end the line");
	expect_error("4 cosmoflow --reps 2 @\n", "w.wkld:1: '@' must be followed by a start time (e.g. '@ 2ms')");
	expect_error("4 cosmoflow @ 2ms --reps 3\n", "w.wkld:1: the start time ('@ TIME') must end the line");
	expect_error("4 cosmoflow @ 5 kg\n", "w.wkld:1: bad start time '5 kg': unknown time unit (use ps, ns, us, ms or s)");
	expect_error("4 cosmoflow @ 5 ms x\n", "w.wkld:1: the start time ('@ TIME') must end the line");
	expect_error("", "w.wkld: no jobs (each line is '<tasks> <skeleton> [options...] [@ start]')");
	expect_error("# only comments\n\n", "w.wkld: no jobs (each line is '<tasks> <skeleton> [options...] [@ start]')");
}

static void test_load(void)
{
	wl_file w;
	char *err = NULL;
	CU_ASSERT_EQUAL(wl_load("/nonexistent/x.wkld", &w, &err), -1);
	CU_ASSERT_STRING_EQUAL(err, "/nonexistent/x.wkld: cannot open workload file: No such file or directory");
	free(err);
	write_file(ut_dir, "two.wkld", "2 osu-latency\n3 allreduce --reps 5\n");
	char path[128];
	snprintf(path, sizeof path, "%s/two.wkld", ut_dir);
	CU_ASSERT_EQUAL_FATAL(wl_load(path, &w, &err), 0);
	CU_ASSERT_EQUAL(w.jobs.len, 2);
	CU_ASSERT_STRING_EQUAL(w.path, path);
	wl_free(&w);
}

/* ------------------------------------------------------------------ lookup */

static void test_resolve_system(void)
{
	char *err = NULL;
	unsetenv("NCSIM_PATH");
	char *p = wl_resolve_system("theta-1056", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "stdlib/systems/theta-1056.conf"));
	CU_ASSERT(exists(p));
	free(p);
	p = wl_resolve_system("df-tiny.conf", &err);
	CU_ASSERT_PTR_NOT_NULL(p);
	free(p);
	CU_ASSERT_PTR_NULL(wl_resolve_system("no-such-machine", &err));
	CU_ASSERT_STRING_EQUAL(err, "unknown system 'no-such-machine' (not a file, not a preset in stdlib/systems, "
	                            "not in NCSIM_PATH)");
	free(err);
	CU_ASSERT_PTR_NULL(wl_resolve_system("/nonexistent/m.conf", &err));
	CU_ASSERT_STRING_EQUAL(err, "/nonexistent/m.conf: cannot open system file: No such file or directory");
	free(err);
	/* NCSIM_PATH: D/NAME.conf and D/systems/NAME.conf */
	write_file(ut_dir, "lib/systems/mymachine.conf", "[network]\nmodel = ideal\n");
	char lib[128];
	snprintf(lib, sizeof lib, "%s/lib", ut_dir);
	setenv("NCSIM_PATH", lib, 1);
	p = wl_resolve_system("mymachine", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "lib/systems/mymachine.conf"));
	free(p);
	unsetenv("NCSIM_PATH");
	/* An existing file wins. */
	char f[128];
	snprintf(f, sizeof f, "%s/lib/systems/mymachine.conf", ut_dir);
	p = wl_resolve_system(f, &err);
	CU_ASSERT_STRING_EQUAL(p, f);
	free(p);
	/* Every bundled skeleton resolves by name. */
	const char *names[] = {"cosmoflow", "checkpoint", "milc", "nekbone", "osu-latency", "osu-bw",
	                       "allreduce", "alltoall", "halo3d", "incast", "uniform-random"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		p = wl_resolve_skeleton(names[i], NULL, &err);
		CU_ASSERT_PTR_NOT_NULL(p);
		free(p);
	}
}

/* CODES and Union application names map to the bundled skeletons; unknown ones say so. */
static void test_codes_names(void)
{
	char *err = NULL;
	unsetenv("NCSIM_PATH");
	static const struct {
		const char *name, *file;
	} map[] = {{"conceptual-cosmo", "cosmoflow.ncptl"}, {"conceptual-checkpoint", "checkpoint.ncptl"},
	           {"conceptual-incast", "incast.ncptl"}, {"milc", "milc.ncptl"}, {"nekbone", "nekbone.ncptl"}};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
		char *p = wl_resolve_skeleton(map[i].name, NULL, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		size_t n = strlen(p), k = strlen(map[i].file);
		CU_ASSERT(n > k && !strcmp(p + n - k, map[i].file) && p[n - k - 1] == '/');
		free(p);
	}
	CU_ASSERT_PTR_NULL(wl_resolve_skeleton("conceptual-nosuch", NULL, &err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown skeleton 'conceptual-nosuch'"));
	free(err);
	CU_ASSERT_PTR_NULL(wl_resolve_skeleton("conceptual-", NULL, &err));
	free(err);
	/* An alias's options come first, so the job's own ones override them. */
	wl_file w;
	CU_ASSERT_EQUAL_FATAL(wl_parse("list.conf", "300 conceptual-cosmo --reps 3\n300 conceptual-checkpoint\n", &w, &err), 0);
	static const char *const want[] = {"--reps", "5", "--io", "2", "--reps", "3"};
	CU_ASSERT_EQUAL_FATAL(w.jobs.ptr[0].argc, 6);
	for (int i = 0; i < 6; i++)
		CU_ASSERT_STRING_EQUAL(w.jobs.ptr[0].argv[i], want[i]);
	CU_ASSERT_PTR_NULL(w.jobs.ptr[0].argv[6]);
	CU_ASSERT_EQUAL(w.jobs.ptr[1].argc, 0);
	CU_ASSERT_STRING_EQUAL(w.jobs.ptr[0].name, "cosmoflow");
	wl_free(&w);
}

/* A workload list is recognised by its content whatever its extension, never a program by its name. */
static void test_sniff(void)
{
	static const struct {
		const char *name, *text;
		int list;
	} files[] = {
		{"wkld2.conf", "300 milc\n300 conceptual-checkpoint\n", 1},
		{"commented.txt", "# MFNetSim\n\n  \t# jobs\n12\tnekbone --iters 3\n", 1},
		{"empty.wkld", "", 1},
		{"sys.conf", "[network]\nmodel = ideal\n", 0},
		{"codes.conf", "LPGROUPS\n{\n}\n", 0},
		{"prog.ncptl", "300 milc\n", 0},
		{"skel.c", "300 milc\n", 0},
		{"trace.vef", "300 milc\n", 0},
		{"number-only.conf", "300\n", 0},
		{"number-word.conf", "300x milc\n", 0},
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		write_file(ut_dir, files[i].name, files[i].text);
		char path[256];
		snprintf(path, sizeof path, "%s/%s", ut_dir, files[i].name);
		CU_ASSERT_EQUAL(wl_is_workload_file(path), files[i].list);
		if (wl_is_workload_file(path) != files[i].list)
			fprintf(stderr, "sniff %s: expected %d\n", files[i].name, files[i].list);
	}
	CU_ASSERT_EQUAL(wl_is_workload_file("/nonexistent/list.conf"), 0);
	CU_ASSERT_EQUAL(wl_is_workload_file("/nonexistent/list.wkld"), 1); /* by name: the error comes later */
	CU_ASSERT_EQUAL(wl_is_workload_file(ut_dir), 0);                   /* a folder */
}

/* ------------------------------------------------------------------ machine */

static void test_machine_probe(void)
{
	char *err = NULL;
	char *path = wl_resolve_system("theta-1056", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	drv_options o = {.system_path = path, .seed = 1};
	wl_machine m;
	if (wl_machine_probe(&o, 1, &m, &err) < 0) {
		fprintf(stderr, "\n  %s\n", err);
		CU_FAIL_FATAL("probe theta-1056");
	}
	CU_ASSERT_EQUAL(m.nnodes, 1056);
	CU_ASSERT(m.dragonfly);
	uint32_t nsto = 0;
	for (uint32_t n = 0; n < m.nnodes; n++) {
		nsto += m.storage[n];
		CU_ASSERT_EQUAL(m.storage[n], n % 32 < 2);
		CU_ASSERT_EQUAL(m.router[n], n / 4);
		CU_ASSERT_EQUAL(m.group[n], n / 32);
	}
	CU_ASSERT_EQUAL(nsto, 66);
	CU_ASSERT_EQUAL(pl_compute_nodes(&m.pl), 990);
	wl_machine_free(&m);
	free(path);
	/* df-tiny, with a routing override; an unknown routing is refused. */
	path = wl_resolve_system("df-tiny", &err);
	o.system_path = path;
	o.routing = "ugal";
	CU_ASSERT_EQUAL_FATAL(wl_machine_probe(&o, 1, &m, &err), 0);
	CU_ASSERT_EQUAL(m.nnodes, 40);
	CU_ASSERT(m.dragonfly);
	CU_ASSERT_EQUAL(pl_compute_nodes(&m.pl), 35);
	CU_ASSERT_EQUAL(m.pl.group_of(m.pl.ctx, 39), 4);
	CU_ASSERT_EQUAL(m.pl.router_of(m.pl.ctx, 39), 9);
	wl_machine_free(&m);
	o.routing = "sideways";
	CU_ASSERT_EQUAL(wl_machine_probe(&o, 1, &m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	/*
	 * The ideal network override keeps the file's node count and its groups
	 * and routers, so placement and storage see the same machine as at the
	 * packet level (node 39: router 9, group 4).
	 */
	o.routing = NULL;
	o.network = "ideal";
	CU_ASSERT_EQUAL_FATAL(wl_machine_probe(&o, 1, &m, &err), 0);
	CU_ASSERT_EQUAL(m.nnodes, 40);
	CU_ASSERT(m.dragonfly);
	CU_ASSERT_EQUAL(pl_compute_nodes(&m.pl), 35);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.pl.router_of);
	CU_ASSERT_EQUAL(m.pl.group_of(m.pl.ctx, 39), 4);
	CU_ASSERT_EQUAL(m.pl.router_of(m.pl.ctx, 39), 9);
	wl_machine_free(&m);
	free(path);
	/* A system without node count: min_nodes, no storage. */
	drv_options a = {.system_text = "[network]\nmodel = analytic\n", .seed = 1};
	CU_ASSERT_EQUAL_FATAL(wl_machine_probe(&a, 12, &m, &err), 0);
	CU_ASSERT_EQUAL(m.nnodes, 12);
	CU_ASSERT_EQUAL(pl_compute_nodes(&m.pl), 12);
	wl_machine_free(&m);
	drv_options bad = {.system_text = "[network]\nmodel = warp\n", .seed = 1};
	CU_ASSERT_EQUAL(wl_machine_probe(&bad, 12, &m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown network model 'warp'"));
	free(err);
}

/* ------------------------------------------------------------------ running */

static const rt_param ping_params[] = {
	{.name = "iters", .desc = "Iterations", .long_opt = "--iters", .short_opt = "-i", .defval = 2},
};

/* Every task computes, then rank 0 sends 1000 bytes to every other rank per iteration. */
static void ping_entry(rt_task *t)
{
	rt_int iters = rt_param_value(t, 0);
	for (rt_int i = 0; i < iters; i++) {
		rt_compute(t, 1000000);
		if (rt_rank(t) == 0) {
			for (rt_int d = 1; d < rt_num_tasks(t); d++)
				rt_send(t, d, 1000, 0, 0);
		} else {
			rt_recv(t, 0, 1000, 0, 0);
		}
		rt_barrier(t, rt_world(t));
	}
}

static const rt_program ping = {
	.abi = NCSIM_RT_ABI, .name = "ping", .params = ping_params, .nparams = 1, .entry = ping_entry,
};

static int loads;

static int load_ping(void *ctx, const wl_job *job, const rt_program **prog, char **err)
{
	(void)ctx;
	(void)job;
	(void)err;
	loads++;
	*prog = &ping;
	return 0;
}

static void test_add_jobs_bad_args(void)
{
	char *err = NULL;
	wl_file w;
	CU_ASSERT_EQUAL_FATAL(wl_parse("w.wkld", "2 osu-latency --iters 3\n# x\n3 allreduce --bogus 1\n", &w, &err), 0);
	drv_options o = {.seed = 1};
	drv_sim *s = drv_new(&o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const rt_program *progs[] = {&ping, &ping};
	CU_ASSERT_EQUAL(wl_add_jobs(s, &w, progs, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "w.wkld:3: allreduce: bad arguments: ") == err ? err : NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--bogus"));
	free(err);
	drv_free(s);
	wl_free(&w);
}

/* Splits a CSV line (no quoting needed for these files) in place. */
static int split_csv(char *line, char **fields, int max)
{
	int nf = 0;
	char *p = line;
	while (nf < max) {
		fields[nf++] = p;
		p = strpbrk(p, ",\n");
		if (!p || *p == '\n') {
			if (p)
				*p = '\0';
			break;
		}
		*p++ = '\0';
	}
	return nf;
}

/* Reads column `name` of the tasks.csv rows of job `job` into out[]; returns the row count. */
static int csv_column(const char *path, const char *job, const char *name, long *out, int max)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	char *fields[64];
	int n = 0, col = -1;
	if (fgets(line, sizeof line, f)) {
		int nf = split_csv(line, fields, 64);
		for (int i = 0; i < nf; i++)
			if (!strcmp(fields[i], name))
				col = i;
	}
	while (col >= 0 && fgets(line, sizeof line, f) && n < max) {
		int nf = split_csv(line, fields, 64);
		if (nf > col && !strcmp(fields[0], job))
			out[n++] = strtol(fields[col], NULL, 10);
	}
	fclose(f);
	return col < 0 ? -1 : n;
}

static int run_workload(const char *wkld_text, const char *sys, int policy, const char *alloc, const char *out)
{
	char wpath[128];
	snprintf(wpath, sizeof wpath, "%s/run.wkld", ut_dir);
	write_file(ut_dir, "run.wkld", wkld_text);
	wl_file w;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(wl_load(wpath, &w, &err), 0);
	char *sp = wl_resolve_system(sys, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	wl_run_opts o = {.sd = {.system_path = sp, .seed = 3, .no_wall_time = 1}, .placement = policy,
	                 .alloc_path = alloc, .out_dir = out, .load = load_ping, .msg = stderr};
	int rc = wl_run(&w, &o);
	free(sp);
	wl_free(&w);
	return rc;
}

static void test_run(void)
{
	char out[128], csv[160];
	snprintf(out, sizeof out, "%s/out1", ut_dir);
	snprintf(csv, sizeof csv, "%s/tasks.csv", out);
	loads = 0;
	int rc = run_workload("3 osu-latency --iters 2\n4 osu-bw\n2 osu-latency --iters 1\n", "df-tiny", PL_CONTIGUOUS,
	                      NULL, out);
	CU_ASSERT_EQUAL_FATAL(rc, EXIT_OK);
	CU_ASSERT_EQUAL(loads, 2); /* one load per distinct skeleton */
	long node[8], sent[8];
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency.1", "node", node, 8), 3);
	CU_ASSERT_EQUAL(node[0], 1);
	CU_ASSERT_EQUAL(node[1], 2);
	CU_ASSERT_EQUAL(node[2], 3);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-bw", "node", node, 8), 4);
	CU_ASSERT_EQUAL(node[0], 4);
	CU_ASSERT_EQUAL(node[3], 7);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency.2", "node", node, 8), 2);
	CU_ASSERT_EQUAL(node[0], 9); /* node 8 is a burst buffer */
	CU_ASSERT_EQUAL(node[1], 10);
	/* Each job has its own ranks and arguments: bytes_sent of rank 0 = iters x (n-1) x 1000. */
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency.1", "bytes_sent", sent, 8), 3);
	CU_ASSERT_EQUAL(sent[0], 2 * 2 * 1000);
	CU_ASSERT_EQUAL(sent[1], 0);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-bw", "bytes_sent", sent, 8), 4);
	CU_ASSERT_EQUAL(sent[0], 2 * 3 * 1000);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency.2", "bytes_sent", sent, 8), 2);
	CU_ASSERT_EQUAL(sent[0], 1 * 1 * 1000);

	/* A start time delays a job's tasks; the other job starts at 0. */
	snprintf(out, sizeof out, "%s/out4", ut_dir);
	CU_ASSERT_EQUAL_FATAL(run_workload("2 osu-latency @ 3ms\n2 osu-bw\n", "df-tiny", PL_CONTIGUOUS, NULL, out),
	                      EXIT_OK);
	snprintf(csv, sizeof csv, "%s/tasks.csv", out);
	long end[4];
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency", "end_ps", end, 4), 2);
	CU_ASSERT(end[0] > 3000000000L && end[0] < 3100000000L);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-bw", "end_ps", end, 4), 2);
	CU_ASSERT(end[0] < 100000000L);

	/* Random placement: never a burst-buffer node. */
	snprintf(out, sizeof out, "%s/out2", ut_dir);
	snprintf(csv, sizeof csv, "%s/tasks.csv", out);
	CU_ASSERT_EQUAL_FATAL(run_workload("20 osu-latency\n15 osu-bw\n", "df-tiny", PL_RANDOM_NODE, NULL, out), EXIT_OK);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency", "node", node, 8), 8);
	long all[40];
	int n = csv_column(csv, "osu-latency", "node", all, 40);
	CU_ASSERT_EQUAL(n, 20);
	for (int i = 0; i < n; i++)
		CU_ASSERT(all[i] % 8 != 0);

	/* Allocation file. */
	snprintf(out, sizeof out, "%s/out3", ut_dir);
	snprintf(csv, sizeof csv, "%s/tasks.csv", out);
	write_file(ut_dir, "run.alloc", "39 38\n1 2 3\n");
	char alloc[128];
	snprintf(alloc, sizeof alloc, "%s/run.alloc", ut_dir);
	CU_ASSERT_EQUAL_FATAL(run_workload("2 osu-latency\n3 osu-bw\n", "df-tiny", PL_CONTIGUOUS, alloc, out), EXIT_OK);
	CU_ASSERT_EQUAL_FATAL(csv_column(csv, "osu-latency", "node", node, 8), 2);
	CU_ASSERT_EQUAL(node[0], 39);
	CU_ASSERT_EQUAL(node[1], 38);
}

/* A workload that must be rejected as bad input, writing no output folder ut_dir/name. */
static void expect_rejected(const char *name, const char *wkld, const char *sys, int policy, const char *alloc)
{
	char out[128];
	snprintf(out, sizeof out, "%s/%s", ut_dir, name);
	CU_ASSERT_EQUAL(run_workload(wkld, sys, policy, alloc, out), EXIT_INPUT);
	CU_ASSERT(!exists(out));
}

/* Rejected workloads write no output folder. */
static void test_run_errors(void)
{
	expect_rejected("bad1", "30 osu-latency\n6 osu-bw\n", "df-tiny", PL_CONTIGUOUS, NULL); /* 36 > 35 nodes */
	expect_rejected("bad2", "3 osu-latency\n2 osu-bw --nonsense 4\n", "df-tiny", PL_CONTIGUOUS, NULL);
	write_file(ut_dir, "bad.alloc", "8 9\n"); /* node 8 holds a burst buffer */
	char alloc[128];
	snprintf(alloc, sizeof alloc, "%s/bad.alloc", ut_dir);
	expect_rejected("bad3", "2 osu-latency\n", "df-tiny", PL_CONTIGUOUS, alloc);
	expect_rejected("bad4", "2 osu-latency\n3 osu-bw --iters -\n", "theta-1056", PL_RANDOM_GROUP, NULL);
}

int main(void)
{
	static const ut_test tests[] = {
		{"parse", test_parse_ok},
		{"parse errors", test_parse_errors},
		{"load", test_load},
		{"resolve systems and skeletons", test_resolve_system},
		{"CODES and Union application names", test_codes_names},
		{"workload lists by content", test_sniff},
		{"machine probe", test_machine_probe},
		{"bad program arguments", test_add_jobs_bad_args},
		{"run several jobs", test_run},
		{"rejected workloads write nothing", test_run_errors},
		{NULL, NULL},
	};
	return ut_run_fixture("workload", tests, setup, ut_dir_teardown);
}

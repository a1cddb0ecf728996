/*
 * test_traffic_vef.c - extended VEF traces (runtime/traffic/vef.c):
 *
 *  - every file of tests/vef/bad/ is rejected with exactly the message in the
 *    .err file next to it (file:line and the expected form);
 *  - the traces of tests/vef/good/ parse to the documented parameters;
 *  - replaying a trace and making the equivalent API call give byte-identical
 *    outputs for the same seed: the skeleton below uses only ncsim/rt.h and
 *    ncsim/traffic.h, the simulation driver runs it on the built-in dragonfly
 *    and writes its folder, and tasks.csv, links.csv, summary.json and the
 *    traffic figures must be equal byte for byte;
 *  - a trace with fewer tasks than the group runs on its first members only.
 */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncsim/rt.h"
#include "ncsim/traffic.h"
#include "runtime/task/driver.h"
#include "runtime/traffic/traffic.h"
#include "runtime/traffic/stats.h"
#include "base/util.h"
#include "runtime/traffic/vef.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ bad traces */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_bad(void)
{
	char *dir = ut_src_path("tests/vef/bad");
	char cwd[4096];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
	CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
	DIR *d = opendir(".");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	VEC(char *) names = {0};
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".vef"))
			VEC_PUSH(&names, xstrdup(e->d_name));
	}
	closedir(d);
	qsort(names.ptr, names.len, sizeof *names.ptr, cmp_str);
	printf("\n    %zu malformed traces", names.len);
	CU_ASSERT(names.len >= 15);
	for (size_t i = 0; i < names.len; i++) {
		char *errfile = xasprintf("%.*s.err", (int)(strlen(names.ptr[i]) - 4), names.ptr[i]);
		char *want = ut_slurp(errfile);
		CU_ASSERT_PTR_NOT_NULL_FATAL(want);
		want[strcspn(want, "\n")] = '\0';
		char *err = NULL;
		vef_trace *v = vef_load(names.ptr[i], &err);
		CU_ASSERT_PTR_NULL(v);
		if (!err || strcmp(err, want)) {
			printf("\n    %s\n      got  %s\n      want %s", names.ptr[i], err ? err : "(accepted)", want);
			CU_FAIL("VEF error message");
		}
		vef_free(v);
		free(err);
		free(want);
		free(errfile);
		free(names.ptr[i]);
	}
	VEC_FREE(&names);
	CU_ASSERT_EQUAL(chdir(cwd), 0);
	free(dir);
}

/* ------------------------------------------------------------ good traces */

/* A file of tests/vef/good/ (heap path). */
static char *good_path(const char *name)
{
	char *rel = xasprintf("tests/vef/good/%s", name), *p = ut_src_path(rel);
	free(rel);
	return p;
}

static vef_trace *good(const char *name)
{
	char *p = good_path(name), *err = NULL;
	vef_trace *v = vef_load(p, &err);
	if (!v)
		printf("\n    %s", err);
	free(err);
	free(p);
	return v;
}

static void test_good(void)
{
	vef_trace *v = good("dcnw.vef");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(v->tasks, 8);
	CU_ASSERT_EQUAL(v->model, VEF_DCNW);
	CU_ASSERT_STRING_EQUAL(v->dcnw.model, "GOOGLE_SEARCH");
	CU_ASSERT_EQUAL(v->dcnw.count, 4000);
	CU_ASSERT_EQUAL(v->dcnw.dest.kind, RT_DEST_GAUSSIAN);
	CU_ASSERT(v->dcnw.dest.has_mean && v->dcnw.dest.mean == 4 && v->dcnw.dest.has_dev && v->dcnw.dest.dev == 1.5);
	CU_ASSERT_EQUAL(v->dcnw.gbps, 2.5);
	CU_ASSERT_EQUAL(v->clock_ps, 1000);
	vef_free(v);
	v = good("flows.vef");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(v->flows.count, 5000);
	CU_ASSERT_EQUAL(v->flows.duration, 2000000000ULL);
	CU_ASSERT_EQUAL(v->flows.nclasses, 2);
	CU_ASSERT_EQUAL(v->flows.classes[0].min_bytes, 1024);
	CU_ASSERT_EQUAL(v->flows.classes[1].max_bytes, 1024000);
	CU_ASSERT_EQUAL(v->flows.classes[0].dest.kind, RT_DEST_DEFAULT);
	CU_ASSERT_EQUAL(v->flows.classes[1].dest.kind, RT_DEST_GAUSSIAN);
	vef_free(v);
	v = good("horovod.vef");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(v->hvd.batches, 2);
	CU_ASSERT_EQUAL(v->hvd.layers, 3);
	CU_ASSERT_EQUAL(v->hvd.defaults.set, RT_HVD_ALL);
	CU_ASSERT_EQUAL(v->hvd.defaults.compute, 10000000);
	CU_ASSERT_EQUAL(v->hvd.defaults.allreduce_bytes, 65536);
	CU_ASSERT_EQUAL(v->hvd.noverrides, 1);
	CU_ASSERT_EQUAL(v->hvd.overrides[0].layer, 1);
	CU_ASSERT_EQUAL(v->hvd.overrides[0].p.set, (1u << RT_HVD_ALLREDUCE) | (1u << RT_HVD_COMPUTE));
	vef_free(v);
}

/* ------------------------------------------------------------ equivalence */

/* What the skeleton does: replay `trace`, or make the API call `kind` with the parameters below. */
static struct {
	const char *trace;
	int kind; /* 0 dcnw, 1 flows, 2 horovod */
	rt_dcnw_params d;
	rt_flows_params f;
	rt_horovod_params h;
} S;

static void skeleton(rt_task *t)
{
	if (S.trace)
		rt_traffic_replay(t, rt_world(t), S.trace);
	else if (S.kind == 0)
		rt_traffic_dcnw(t, rt_world(t), &S.d);
	else if (S.kind == 1)
		rt_traffic_flows(t, rt_world(t), &S.f);
	else
		rt_traffic_horovod(t, rt_world(t), &S.h);
}

static const rt_program prog = {.abi = NCSIM_RT_ABI, .name = "vefeq", .entry = skeleton};

/* Runs the skeleton on the built-in system; writes its folder and the traffic figures into dir. */
static drv_sim *simulate(uint32_t ntasks, const char *dir)
{
	char *err = NULL;
	drv_options o = {.seed = 2024, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	drv_sim *s = drv_new(&o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	drv_job j = {.prog = &prog, .ntasks = ntasks};
	CU_ASSERT_FATAL(drv_add_job(s, &j, &err) >= 0);
	CU_ASSERT_EQUAL_FATAL(drv_run(s, stderr), 0);
	if (drv_write(s, dir, &err) < 0) {
		printf("\n    %s", err);
		CU_FAIL("drv_write");
	}
	char *p = xasprintf("%s/traffic.json", dir);
	FILE *f = fopen(p, "w");
	json_writer jw;
	json_init(&jw, f, 1);
	json_object_begin(&jw);
	trf_stat_json(drv_world(s), &jw);
	json_object_end(&jw);
	CU_ASSERT_EQUAL(json_finish(&jw), 0);
	trf_stat_print(drv_world(s), f);
	fclose(f);
	free(p);
	return s;
}

static void release(drv_sim *s)
{
	trf_world_release(drv_world(s));
	drv_free(s);
}

static void same_file(const char *a, const char *b, const char *name)
{
	char *pa = xasprintf("%s/%s", a, name), *pb = xasprintf("%s/%s", b, name);
	char *x = ut_slurp(pa), *y = ut_slurp(pb);
	CU_ASSERT_PTR_NOT_NULL(x);
	if (!x || !y || strcmp(x, y)) {
		printf("\n    %s differs", name);
		CU_FAIL("outputs differ");
	}
	free(x);
	free(y);
	free(pa);
	free(pb);
}

static void equivalence(const char *trace_name, uint32_t ntasks)
{
	char *ta = ut_tmpdir(), *tb = ut_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ta);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tb);
	const char *saved = S.trace;
	S.trace = NULL;
	drv_sim *a = simulate(ntasks, ta);
	char *trace = good_path(trace_name);
	S.trace = trace;
	drv_sim *b = simulate(ntasks, tb);
	S.trace = saved;
	const trf_run *ra = trf_world_find(drv_world(a))->runs.ptr[0];
	printf("\n    %-12s %llu messages, %llu bytes, execution %.3f us", trace_name, (unsigned long long)ra->msgs,
	       (unsigned long long)ra->bytes, (double)(ra->t_end - ra->t_start) / 1e6);
	CU_ASSERT(ra->msgs > 0);
	static const char *const files[] = {"tasks.csv", "links.csv", "summary.json", "traffic.json"};
	for (int i = 0; i < 4; i++)
		same_file(ta, tb, files[i]);
	release(a);
	release(b);
	free(trace);
	ut_rmrf(ta);
	ut_rmrf(tb);
	free(ta);
	free(tb);
}

static void test_equivalence(void)
{
	S = (typeof(S)){.kind = 0,
	                .d = {.model = "GOOGLE_SEARCH", .count = 4000, .gbps = 2.5,
	                      .dest = {.kind = RT_DEST_GAUSSIAN, .has_mean = 1, .mean = 4, .has_dev = 1, .dev = 1.5}}};
	equivalence("dcnw.vef", 8);

	char *table = good_path("small.cdf");
	S = (typeof(S)){.kind = 0, .d = {.cdf_path = table, .count = 3000, .gbps = 0.8,
	                                 .dest = {.kind = RT_DEST_POISSON, .has_mean = 1, .mean = 3}}};
	equivalence("cdcnw.vef", 8);
	free(table);

	static const rt_flow_class cls[2] = {
		{.min_bytes = 1024, .max_bytes = 10240, .percent = 80},
		{.min_bytes = 102400, .max_bytes = 1024000, .percent = 20, .dest = {.kind = RT_DEST_GAUSSIAN}},
	};
	S = (typeof(S)){.kind = 1, .f = {.count = 5000, .duration = 2000000000ULL, .dest = {.kind = RT_DEST_UNIFORM},
	                                 .classes = cls, .nclasses = 2}};
	equivalence("flows.vef", 8);

	static const rt_hvd_override ov = {
		.layer = 1, .p = {.set = (1u << RT_HVD_ALLREDUCE) | (1u << RT_HVD_COMPUTE), .allreduce_bytes = 8192,
		                  .compute = 20000000}};
	S = (typeof(S)){.kind = 2,
	                .h = {.batches = 2, .layers = 3, .overrides = &ov, .noverrides = 1,
	                      .defaults = {.set = RT_HVD_ALL, .compute = 10000000, .negotiation = 5000000,
	                                   .gatherv_bytes = 1000, .gatherv_total = 3000, .gatherv_prob = 0.7,
	                                   .bcast_bytes = 2048, .allreduce_bytes = 65536}}};
	equivalence("horovod.vef", 8);
}

/* A 4-task trace in an 8-task job: members 0..3 generate, 4..7 return at once. */
static void test_subset(void)
{
	char *trace = good_path("subset.vef");
	S = (typeof(S)){.trace = trace};
	char *dir = ut_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	drv_sim *s = simulate(8, dir);
	const trf_run *r = trf_world_find(drv_world(s))->runs.ptr[0];
	CU_ASSERT_EQUAL(r->n, 4);
	CU_ASSERT_EQUAL(r->dmsgs, 400);
	task_world *w = drv_world(s);
	for (uint32_t i = 4; i < 8; i++)
		CU_ASSERT_EQUAL(w->jobs.ptr[0]->tasks[i]->tot.end, 0);
	CU_ASSERT(w->jobs.ptr[0]->tasks[0]->tot.end > 0);
	release(s);
	ut_rmrf(dir);
	free(dir);
	free(trace);
}

/* A trace with more tasks than the group is a run-time error naming the file. */
static void test_too_many_tasks(void)
{
	char *trace = good_path("dcnw.vef");
	S = (typeof(S)){.trace = trace};
	char *err = NULL;
	drv_options o = {.seed = 1, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	drv_sim *s = drv_new(&o, &err);
	drv_job j = {.prog = &prog, .ntasks = 4};
	CU_ASSERT_FATAL(drv_add_job(s, &j, &err) >= 0);
	FILE *q = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(drv_run(s, q), 1);
	fclose(q);
	const char *f = drv_world(s)->fatal;
	CU_ASSERT_TRUE(f && strstr(f, "dcnw.vef: the trace has 8 tasks, more than the 4 members of the group"));
	release(s);
	free(trace);
}

int main(void)
{
	static const ut_test tests[] = {
		{"malformed traces: file:line and the expected form", test_bad},
		{"well-formed traces", test_good},
		{"replay == API call, byte for byte", test_equivalence},
		{"a trace smaller than the group", test_subset},
		{"a trace larger than the group", test_too_many_tasks},
		{NULL, NULL},
	};
	return ut_run("vef", tests);
}

/*
 * test_calib_spec.c - calibration parameters (units, scales, the values
 * written back), system-file edits, and spec files with their errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/spec.h"
#include "calib/sysedit.h"
#include "tests/unit/unit.h"

static cal_param param(const char *text)
{
	cal_param p = {0};
	char *err = NULL;
	CU_ASSERT_EQUAL(cal_param_parse("x.y", text, NULL, 0, &p, &err), 0);
	free(err);
	return p;
}

/* Ranges keep their unit: times in ps, bandwidths in B/s, sizes in bytes. */
static void test_param_units(void)
{
	cal_param p = param("100ns:10us log");
	CU_ASSERT_EQUAL(p.kind, CAL_TIME);
	CU_ASSERT_DOUBLE_EQUAL(p.lo, 1e5, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.hi, 1e7, 0);
	CU_ASSERT_TRUE(p.log);
	/* The log-scale centre is the geometric mean: sqrt(1e5 x 1e7) = 1e6 ps. */
	CU_ASSERT_DOUBLE_EQUAL(cal_param_at(&p, 0.5), 1e6, 0);
	CU_ASSERT_DOUBLE_EQUAL(cal_param_coord(&p, 1e6), 0.5, 1e-12);
	char buf[64];
	cal_param_format(&p, 1e6, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "1000000 ps");
	p = param("1 GB/s : 3 GB/s");
	CU_ASSERT_EQUAL(p.kind, CAL_BANDWIDTH);
	CU_ASSERT_FALSE(p.log);
	/* Linear: a quarter of the way from 1e9 to 3e9 is 1.5e9. */
	CU_ASSERT_DOUBLE_EQUAL(cal_param_at(&p, 0.25), 1.5e9, 1e-3);
	cal_param_format(&p, 1.5e9, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "1500000000 B/s");
	p = param("4KiB:1MiB log");
	CU_ASSERT_EQUAL(p.kind, CAL_SIZE);
	/* sqrt(4096 x 1048576) = 65536. */
	CU_ASSERT_DOUBLE_EQUAL(cal_param_at(&p, 0.5), 65536, 0);
	p = param("0:2us");
	CU_ASSERT_EQUAL(p.kind, CAL_TIME);
	CU_ASSERT_DOUBLE_EQUAL(p.hi, 2e6, 0);
	p = param("64");
	CU_ASSERT_TRUE(p.fixed);
	CU_ASSERT_EQUAL(p.kind, CAL_INT);
	CU_ASSERT_DOUBLE_EQUAL(cal_param_at(&p, 0.9), 64, 0);
	p = param("0.5:2.5");
	CU_ASSERT_EQUAL(p.kind, CAL_PLAIN);
	p = param("1:10 log level=analytic");
	CU_ASSERT_STRING_EQUAL(p.level, "analytic");
	CU_ASSERT_TRUE(cal_param_applies(&p, "analytic"));
	CU_ASSERT_FALSE(cal_param_applies(&p, "dragonfly"));
	CU_ASSERT_FALSE(cal_param_applies(&p, NULL));
	free(p.level);
}

static void test_param_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"5:5", "x.y: empty range (the low end must be below the high end)"},
		{"2us:1us", "x.y: empty range (the low end must be below the high end)"},
		{"1us:1GB/s", "x.y: the range's ends are a time and a bandwidth"},
		{"0:1us log", "x.y: a log scale needs a positive low end"},
		{"1:2 regime=small", "unknown regime 'small' (declare it as [regime.small])"},
		{"fast", "x.y: 'fast': not a number (a range is LO:HI)"},
		{"1:2 furlongs", "x.y: range '1:2 furlongs': unknown unit..."},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cal_param p = {0};
		char *err = NULL;
		CU_ASSERT_EQUAL(cal_param_parse("x.y", cases[i].text, NULL, 0, &p, &err), -1);
		UT_TAKE_ERROR(err, cases[i].want);
	}
}

/* A key is rewritten where it is, a missing one follows its section's header, a new section goes last. */
static void test_sysedit(void)
{
	const char *base = "# base\n[network]\nmodel = analytic   # the model\nLatency = 1 us\n\n[mpi]\nsmall_max = 4 KiB\n";
	cal_setting set[] = {
		{"network", "latency", "2000000 ps"},
		{"mpi", "post_header", "100 ns"},
		{"node", "memory_bandwidth", "20 GB/s"},
	};
	char *t = cal_sys_edit(base, set, 3);
	UT_ASSERT_TEXT(t, "# base\n[network]\nmodel = analytic   # the model\nlatency = 2000000 ps\n\n[mpi]\n"
	                  "post_header = 100 ns\nsmall_max = 4 KiB\n[node]\nmemory_bandwidth = 20 GB/s\n");
	free(t);
}

/* Writes name in the suite's folder. */
static void put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", ut_dir, name);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static const char osu_lat[] = "# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n1 1.50\n2 1.52\n4 1.54\n";

static int parse(const char *text, cal_spec *s, char **err)
{
	put("spec.conf", text);
	return cal_spec_parse("spec.conf", text, ut_dir, CAL_SPEC_FIT, s, err);
}

static void test_spec_ok(void)
{
	put("lat.txt", osu_lat);
	cal_spec s;
	char *err = NULL;
	int rc = parse("[calibration]\nloss = mape\noptimizer = random\nbudget = 30\nregimes = sequential\n"
	               "[regime.small]\nmax = 2 B\n[regime.large]\nmin = 2 B\n"
	               "[benchmark.lat]\nprogram = osu-latency\nmeasured = lat.txt\nweight = 2\n"
	               "[parameters]\nnetwork.latency = 100ns:10us log regime=small\nmpi.credits = 64\n",
	               &s, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(s.loss.kind, CAL_LOSS_MAPE);
	CU_ASSERT_STRING_EQUAL(s.opt.name, "random");
	CU_ASSERT_EQUAL(s.opt.budget, 30);
	CU_ASSERT_TRUE(s.sequential);
	CU_ASSERT_EQUAL_FATAL(s.nbench, 1);
	CU_ASSERT_EQUAL(s.bench[0].format, CAL_FMT_OSU);
	CU_ASSERT_EQUAL(s.bench[0].output, CAL_OUT_STDOUT);
	CU_ASSERT_EQUAL(s.bench[0].npoints, 3);
	CU_ASSERT_DOUBLE_EQUAL(s.bench[0].weight, 2, 0);
	CU_ASSERT_EQUAL_FATAL(s.nregimes, 2);
	CU_ASSERT_DOUBLE_EQUAL(s.regimes[0].max, 2, 0);
	CU_ASSERT_TRUE(isinf(s.regimes[1].max));
	CU_ASSERT_EQUAL_FATAL(s.nparams, 2);
	CU_ASSERT_STRING_EQUAL(s.params[0].section, "network");
	CU_ASSERT_EQUAL(s.params[0].regime, 0);
	CU_ASSERT_TRUE(s.params[1].fixed);
	size_t idx[2];
	CU_ASSERT_EQUAL(cal_spec_free_params(&s, NULL, -1, 1, idx), 1);
	cal_spec_free(&s);
}

/* Without [parameters], the level's documented set: the analytic model of the base system. */
static void test_spec_defaults(void)
{
	put("lat.txt", osu_lat);
	put("an.conf", "[network]\nmodel = analytic\nnodes = 2\n");
	cal_spec s;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(parse("[calibration]\nsystem = an.conf\n[benchmark.lat]\nprogram = osu-latency\n"
	                            "measured = lat.txt\n", &s, &err), 0);
	int latency = 0, links = 0;
	for (size_t i = 0; i < s.nparams; i++) {
		latency += !strcmp(s.params[i].key, "latency");
		links += !strcmp(s.params[i].key, "local_bandwidth");
		CU_ASSERT_PTR_NULL(s.params[i].level);
	}
	CU_ASSERT_EQUAL(latency, 1);
	CU_ASSERT_EQUAL(links, 0);
	cal_spec_free(&s);
	/* With levels, each level's set, tagged with the level. */
	CU_ASSERT_EQUAL_FATAL(parse("[calibration]\nlevels = analytic, dragonfly\n[benchmark.lat]\nprogram = osu-latency\n"
	                            "measured = lat.txt\n", &s, &err), 0);
	links = 0;
	for (size_t i = 0; i < s.nparams; i++) {
		CU_ASSERT_PTR_NOT_NULL(s.params[i].level);
		links += !strcmp(s.params[i].key, "local_bandwidth") && !strcmp(s.params[i].level, "dragonfly");
	}
	CU_ASSERT_EQUAL(links, 1);
	cal_spec_free(&s);
}

static void test_spec_errors(void)
{
	put("lat.txt", osu_lat);
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"[benchmark.x]\nprogram = sk.c\nmeasured = lat.txt\n",
		 "spec.conf:2: sk.c is a C skeleton: a calibration spec runs C only with --allow-backend-code (doc/security.md)"},
		{"[calibration]\nbudgett = 3\n", "spec.conf:2: unknown key 'budgett' in [calibration]..."},
		{"[calibration]\noptimizer = magic\n", "spec.conf:2: unknown optimizer 'magic' (..."},
		{"[calibration]\nloss = worst\n", "spec.conf:2: ..."},
		{"[calibration]\nbudget = 0\n", "spec.conf:2: budget must be between 1 and 10000000"},
		{"[benchmarks.x]\nprogram = osu-bw\n", "spec.conf:1: unknown section [benchmarks.x] (calibration, ..."},
		{"[benchmark.x]\nmeasured = lat.txt\n", "spec.conf:1: [benchmark.x] needs program = NAME or FILE"},
		{"[benchmark.x]\nprogram = osu-latency\n", "spec.conf:1: [benchmark.x] needs measured = FILE[, FILE...]"},
		{"[benchmark.x]\nprogram = no-such-program\nmeasured = lat.txt\n", "spec.conf:2: ..."},
		{"[benchmark.x]\nprogram = osu-latency\nmeasured = missing.txt\n", "spec.conf:3: ..."},
		{"[benchmark.x]\nprogram = osu-latency\nmeasured = lat.txt\ncolumn = Bandwidth\n", "spec.conf:3: ..."},
		{"[benchmark.x]\nprogram = osu-latency\nmeasured = lat.txt\n[parameters]\nnetwork.latency = 2us:1us\n",
		 "spec.conf:5: network.latency: empty range (the low end must be below the high end)"},
		{"[benchmark.x]\nprogram = osu-latency\nmeasured = lat.txt\n[parameters]\nlatency = 1us:2us\n",
		 "spec.conf:5: a parameter is SECTION.KEY (such as network.latency), not 'latency'"},
		{"[benchmark.x]\nprogram = osu-latency\nmeasured = lat.txt\nuse = predict\n[parameters]\nnetwork.latency = 1us:2us\n",
		 "spec.conf: nothing to fit: the spec needs a [benchmark.NAME] with use = fit and a free parameter..."},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cal_spec s;
		char *err = NULL;
		CU_ASSERT_EQUAL(parse(cases[i].text, &s, &err), -1);
		UT_TAKE_ERROR(err, cases[i].want);
	}
}

int main(void)
{
	static const ut_test param_tests[] = {
		{"units and scales", test_param_units},
		{"errors", test_param_errors},
		{"system-file edits", test_sysedit},
		{NULL, NULL},
	};
	static const ut_test spec_tests[] = {
		{"a full spec", test_spec_ok},
		{"default parameters", test_spec_defaults},
		{"errors name the line", test_spec_errors},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{.name = "parameters", .tests = param_tests},
		{.name = "specs", .tests = spec_tests, .setup = ut_dir_setup, .teardown = ut_dir_teardown},
		{0},
	};
	return ut_run_suites(suites);
}

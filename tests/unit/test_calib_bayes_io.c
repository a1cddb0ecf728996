/*
 * test_calib_bayes_io.c - what a Bayesian calibration reads besides the
 * spec's measurements: design.csv (calib/bayes_io.h), written by hand
 * here, into the global design and the pool of local runs, with the
 * coordinates of its values and every error at its line; and the [bayes]
 * section (calib/bayes_cfg.h): defaults, every key, every error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"
#include "base/util.h"
#include "calib/bayes.h"
#include "calib/bayes_io.h"
#include "tests/unit/unit.h"

/* Writes name in the suite's folder; its path (heap). */
static char *put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", ut_dir, name);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* ------------------------------------------------------------ a calibration to read designs for */

/*
 * Two free parameters (a log-scale time, a linear bandwidth) around a fixed
 * one, which design.csv leaves out; one benchmark with points at 1, 2, 4 B.
 */
static const char spec_text[] = "[benchmark.lat]\nprogram = osu-latency\nmeasured = lat.txt\n"
                                "[parameters]\nnetwork.latency = 1us:10us log\nmpi.credits = 64\n"
                                "mpi.memory_bandwidth = 1GB/s:3GB/s\n";
static const char header[] = "run,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n";

typedef struct fixture {
	cal_spec s;
	cal_bayes b;
} fixture;

/* The spec, and b with its free parameters and one output per measured point. */
static void fixture_init(fixture *f)
{
	free(put("lat.txt", "# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n1 1.50\n2 1.52\n4 1.54\n"));
	char *err = NULL;
	int rc = cal_spec_parse("spec.conf", spec_text, ut_dir, CAL_SPEC_FIT, &f->s, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	f->b = (cal_bayes){.s = &f->s};
	f->b.idx = xcalloc(f->s.nparams + 1, sizeof *f->b.idx);
	f->b.dim = cal_spec_free_params(&f->s, NULL, -1, 1, f->b.idx);
	CU_ASSERT_EQUAL_FATAL(f->b.dim, 2);
	CU_ASSERT_EQUAL_FATAL(f->s.nbench, 1);
	CU_ASSERT_EQUAL_FATAL(f->s.bench[0].npoints, 3);
	f->b.nout = 3;
	f->b.out = xcalloc(3, sizeof *f->b.out);
	for (size_t o = 0; o < 3; o++)
		f->b.out[o] = (cal_datum){.bench = 0, .point = o, .weight = 1};
}

static void fixture_free(fixture *f)
{
	cal_design_free(&f->b.global);
	cal_design_free(&f->b.pool);
	free(f->b.idx);
	free(f->b.out);
	cal_spec_free(&f->s);
}

/* Reads design text through a file; 0 or -1 with *err; *path the file's path (heap). */
static int read_text(fixture *f, const char *text, char **path, char **err)
{
	*path = put("design.csv", text);
	return cal_bayes_read_design(&f->b, *path, err);
}

/* The 2 coordinates of row i of u against (a, b). */
static void coords_are(const double *u, size_t i, double a, double b)
{
	CU_ASSERT_DOUBLE_EQUAL(u[2 * i], a, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(u[2 * i + 1], b, 1e-12);
}

/*
 * The coordinates: latency on a log scale from 1e6 to 1e7 ps, so 1e6 -> 0,
 * 1e7 -> 1, sqrt(1e13) = 3162277.66 -> 0.5; bandwidth linear from 1e9 to
 * 3e9 B/s: 1.5e9 -> 0.25, 2e9 -> 0.5, 2.5e9 -> 0.75. Sets may interleave.
 */
static const char good[] = "# a design written by hand\n"
                           "run,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n"
                           "0,train,1000000,1e9,1.5,1.6,1.7\n"
                           "1,test,1000000,3e9,1,1.1,1.2\n"
                           "\n"
                           "2,train,10000000,3000000000,2.5,2.6,2.7\n"
                           "3,local-train,10000000,1e9,3,3.1,3.2\n"
                           "# a comment between the rows\n"
                           "4,local-test,3162277.6601683795,1.5e9,4,4.1,4.2\n"
                           "5,train,3162277.6601683795,2e9,2,2.1,2.2\n"
                           "6,local-test,1000000,2.5e9,5,5.1,5.2\n";

static void check_good(const fixture *f)
{
	const cal_design *g = &f->b.global, *p = &f->b.pool;
	CU_ASSERT_EQUAL_FATAL(g->ntrain, 3);
	CU_ASSERT_EQUAL_FATAL(g->ntest, 1);
	CU_ASSERT_EQUAL_FATAL(p->ntrain, 1);
	CU_ASSERT_EQUAL_FATAL(p->ntest, 2);
	coords_are(g->u_train, 0, 0, 0);
	coords_are(g->u_train, 1, 1, 1);
	coords_are(g->u_train, 2, 0.5, 0.5);
	coords_are(g->u_test, 0, 0, 1);
	coords_are(p->u_train, 0, 1, 0);
	coords_are(p->u_test, 0, 0.5, 0.25);
	coords_are(p->u_test, 1, 0, 0.75);
	/* The figures, row by row in file order within each set. */
	static const double ytrain[] = {1.5, 1.6, 1.7, 2.5, 2.6, 2.7, 2, 2.1, 2.2};
	for (size_t k = 0; k < 9; k++)
		CU_ASSERT_DOUBLE_EQUAL(g->y_train[k], ytrain[k], 0);
	CU_ASSERT_DOUBLE_EQUAL(g->y_test[2], 1.2, 0);
	CU_ASSERT_DOUBLE_EQUAL(p->y_train[1], 3.1, 0);
	CU_ASSERT_DOUBLE_EQUAL(p->y_test[0], 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(p->y_test[5], 5.2, 0);
	/* The coordinates are those of cal_param_coord: the values map back to them. */
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 2; j++) {
			const cal_param *q = &f->s.params[f->b.idx[j]];
			double u = g->u_train[i * 2 + j];
			CU_ASSERT_DOUBLE_EQUAL(cal_param_coord(q, cal_param_real(q, u)), u, 1e-12);
		}
}

static void test_design_good(void)
{
	fixture f;
	fixture_init(&f);
	char *path, *err = NULL;
	CU_ASSERT_EQUAL_FATAL(read_text(&f, good, &path, &err), 0);
	check_good(&f);
	fixture_free(&f);
	free(path);

	/* The same with Windows line ends. */
	char *crlf = xcalloc(2 * sizeof good, 1), *w = crlf;
	for (const char *c = good; *c; c++) {
		if (*c == '\n')
			*w++ = '\r';
		*w++ = *c;
	}
	fixture_init(&f);
	CU_ASSERT_EQUAL_FATAL(read_text(&f, crlf, &path, &err), 0);
	check_good(&f);
	fixture_free(&f);
	free(path);
	free(crlf);
}

/*
 * A value a hair outside the range (the rounding of a value written with
 * 17 digits) is taken, at the end of the range; a time rounded to a whole
 * picosecond keeps its coordinate.
 */
static void test_design_edges(void)
{
	fixture f;
	fixture_init(&f);
	char *path, *err = NULL, *text = xasprintf("%s0,train,10000000.4,999999999.9999,1,1,1\n"
	                                           "1,train,999999.6,3000000000.000001,1,1,1\n"
	                                           "2,test,1000000,1e9,1,1,1\n", header);
	CU_ASSERT_EQUAL_FATAL(read_text(&f, text, &path, &err), 0);
	coords_are(f.b.global.u_train, 0, 1, 0);
	coords_are(f.b.global.u_train, 1, 0, 1);
	CU_ASSERT_EQUAL(f.b.global.ntest, 1);
	CU_ASSERT_EQUAL(f.b.pool.ntrain + f.b.pool.ntest, 0);
	fixture_free(&f);
	free(path);
	free(text);
}

/* Every error names the file and the line (the header is line 2, the first row line 3). */
static void test_design_errors(void)
{
	static const char row[] = "0,train,1000000,1e9,1.5,1.6,1.7\n";
	static const struct {
		const char *text, *want;  /* want follows "PATH" */
	} cases[] = {
		{"run,set,network.bandwidth [B/s],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n",
		 ":2: column 3 is 'network.bandwidth [B/s]', the spec needs 'network.latency [ps]' (a design of other "
		 "parameters or measurements cannot be reused)"},
		{"run,set,mpi.memory_bandwidth [B/s],network.latency [ps],lat@1,lat@2,lat@4\n",
		 ":2: column 3 is 'mpi.memory_bandwidth [B/s]', the spec needs 'network.latency [ps]'..."},
		{"run,set,network.latency [ns],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n",
		 ":2: column 3 is 'network.latency [ns]', the spec needs 'network.latency [ps]'..."},
		{"run,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@8\n",
		 ":2: column 7 is 'lat@8', the spec needs 'lat@4'..."},
		{"run,set,network.latency [ps],mpi.memory_bandwidth [B/s],bw@1,lat@2,lat@4\n",
		 ":2: column 5 is 'bw@1', the spec needs 'lat@1'..."},
		{"run,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2\n",
		 ":2: column 7 is '(none)', the spec needs 'lat@4'..."},
		{"run,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4,lat@8\n",
		 ":2: expected the header run,set,PARAMETERS...,BENCH@X... of a design.csv"},
		{"network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n",
		 ":2: expected the header run,set,PARAMETERS...,BENCH@X... of a design.csv"},
		{"#\nrun,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n0,training,1e6,1e9,1,1,1\n",
		 ":4: set must be train, test, local-train or local-test"},
		{"#\nrun,set,network.latency [ps],mpi.memory_bandwidth [B/s],lat@1,lat@2,lat@4\n0,,1e6,1e9,1,1,1\n",
		 ":4: set must be train, test, local-train or local-test"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		fixture f;
		fixture_init(&f);
		char *path, *err = NULL, *text = xasprintf("# cut\n%s%s", cases[i].text, row);
		CU_ASSERT_EQUAL(read_text(&f, text, &path, &err), -1);
		char *want = xasprintf("%s%s", path, cases[i].want);
		UT_TAKE_ERROR(err, want);
		/* Nothing was taken. */
		CU_ASSERT_PTR_NULL(f.b.global.u_train);
		CU_ASSERT_EQUAL(f.b.global.ntrain + f.b.pool.ntrain, 0);
		free(want);
		free(text);
		free(path);
		fixture_free(&f);
	}
}

/* Rows: numbers, their count, the ranges; the file: at least one training run. */
static void test_design_row_errors(void)
{
	static const struct {
		const char *rows, *want;  /* the rows follow the header (line 3 on); want follows "PATH" */
	} cases[] = {
		{"0,train,1000000,1e9,1.5x,1.6,1.7\n", ":3: field 5: not a finite number"},
		{"0,train,1000000,1e9,1.5,1.6,1.7\n1,train,abc,1e9,1.5,1.6,1.7\n", ":4: field 3: not a finite number"},
		{"0,train,1000000,inf,1.5,1.6,1.7\n", ":3: field 4: not a finite number"},
		{"0,train,1000000,1e9,nan,1.6,1.7\n", ":3: field 5: not a finite number"},
		{"0,train,1000000,1e9,,1.6,1.7\n", ":3: field 5: not a finite number"},
		{"0,train,1000000,1e9, 1.5,1.6,1.7 x\n", ":3: field 7: not a finite number"},
		{"x,train,1000000,1e9,1.5,1.6,1.7\n", ":3: field 1: not a finite number"},
		{"0,train,1000000,1e9,1.5,1.6\n", ":3: field 7: missing"},
		{"0,train\n", ":3: field 3: missing"},
		{"0\n", ":3: set must be train, test, local-train or local-test"},
		{"0,train,1000000,1e9,1.5,1.6,1.7,\n", ":3: more fields than the header"},
		{"0,train,1000000,1e9,1.5,1.6,1.7,9\n", ":3: more fields than the header"},
		{"0,train,20000000,1e9,1.5,1.6,1.7\n", ":3: network.latency = 2e+07 is outside the spec's range"},
		{"0,train,1000000,1e9,1,1,1\n1,test,1000000,5e8,1,1,1\n",
		 ":4: mpi.memory_bandwidth = 5e+08 is outside the spec's range"},
		{"0,train,-1,1e9,1,1,1\n", ":3: network.latency = -1 is outside the spec's range"},
		{"0,test,1000000,1e9,1,1,1\n1,local-train,1000000,1e9,1,1,1\n", ": no training run"},
		{"", ": no training run"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		fixture f;
		fixture_init(&f);
		char *path, *err = NULL, *text = xasprintf("# cut\n%s%s", header, cases[i].rows);
		CU_ASSERT_EQUAL(read_text(&f, text, &path, &err), -1);
		char *want = xasprintf("%s%s", path, cases[i].want);
		UT_TAKE_ERROR(err, want);
		CU_ASSERT_EQUAL(f.b.global.ntrain + f.b.global.ntest + f.b.pool.ntrain + f.b.pool.ntest, 0);
		free(want);
		free(text);
		free(path);
		fixture_free(&f);
	}
}

/* Files that are not there or not files: the reader's messages, no hang on a FIFO. */
static void test_design_files(void)
{
	fixture f;
	fixture_init(&f);
	char *err = NULL, *path = xasprintf("%s/none.csv", ut_dir), *want;
	CU_ASSERT_EQUAL(cal_bayes_read_design(&f.b, path, &err), -1);
	want = xasprintf("%s: cannot open design file: No such file or directory", path);
	UT_TAKE_ERROR(err, want);
	free(want);
	CU_ASSERT_EQUAL(cal_bayes_read_design(&f.b, ut_dir, &err), -1);
	want = xasprintf("%s: cannot read design file: is a directory", ut_dir);
	UT_TAKE_ERROR(err, want);
	free(want);
	free(path);
	/* An empty file has no header and no run. */
	path = put("empty.csv", "");
	CU_ASSERT_EQUAL(cal_bayes_read_design(&f.b, path, &err), -1);
	want = xasprintf("%s: no training run", path);
	UT_TAKE_ERROR(err, want);
	free(want);
	free(path);
	fixture_free(&f);
}

/* ------------------------------------------------------------ [bayes] */

/* [bayes] of text (a spec named spec.conf, files relative to dir) into b; 0 or -1 with *err. */
static int read_cfg(const char *text, const char *dir, cal_bayes_cfg *b, char **err)
{
	cal_bayes_default(b);
	sysconf_t *c = sysconf_parse("spec.conf", text, err);
	if (!c)
		fprintf(stderr, "%s\n", *err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	int rc = cal_bayes_read(c, dir, b, err);
	sysconf_free(c);
	return rc;
}

/* Every field of got against want (design_file as text; NULL only equals NULL). */
static void cfg_is(const cal_bayes_cfg *got, const cal_bayes_cfg *want)
{
	CU_ASSERT_EQUAL(got->on, want->on);
	CU_ASSERT_EQUAL(got->mode, want->mode);
	CU_ASSERT_EQUAL(got->design, want->design);
	CU_ASSERT_EQUAL(got->degree, want->degree);
	CU_ASSERT_EQUAL(got->samples, want->samples);
	CU_ASSERT_EQUAL(got->chains, want->chains);
	CU_ASSERT_EQUAL(got->walkers, want->walkers);
	CU_ASSERT_EQUAL(got->thin, want->thin);
	CU_ASSERT_EQUAL(got->burn, want->burn);
	CU_ASSERT_EQUAL(got->direct_budget, want->direct_budget);
	CU_ASSERT_EQUAL(got->pilot, want->pilot);
	CU_ASSERT_EQUAL(got->refine, want->refine);
	CU_ASSERT_DOUBLE_EQUAL(got->holdout, want->holdout, 0);
	CU_ASSERT_DOUBLE_EQUAL(got->max_error, want->max_error, 0);
	CU_ASSERT_DOUBLE_EQUAL(got->disc_lo, want->disc_lo, 0);
	CU_ASSERT_DOUBLE_EQUAL(got->disc_hi, want->disc_hi, 0);
	if (want->design_file) {
		CU_ASSERT_STRING_EQUAL(got->design_file ? got->design_file : "(null)", want->design_file);
	} else {
		CU_ASSERT_PTR_NULL(got->design_file);
	}
}

/* The defaults of bayes_cfg.h's table, and on = 0 without a section (on = 1 with an empty one). */
static void test_cfg_defaults(void)
{
	cal_bayes_cfg b;
	char *err = NULL;
	CU_ASSERT_EQUAL(read_cfg("[calibration]\nseed = 3\n", NULL, &b, &err), 0);
	CU_ASSERT_EQUAL(b.on, 0);
	CU_ASSERT_EQUAL(read_cfg("[bayes]\n", NULL, &b, &err), 0);
	cfg_is(&b, &(cal_bayes_cfg){.on = 1, .mode = CAL_BAYES_AUTO, .design = 0, .holdout = 0.2, .degree = 0,
	                            .max_error = 0.05, .samples = 100000, .chains = 4, .walkers = 0, .thin = 10,
	                            .burn = 0, .disc_lo = 1e-4, .disc_hi = 0.5, .direct_budget = 4000,
	                            .design_file = NULL, .refine = 1, .pilot = 0});
	cal_bayes_cfg_free(&b);
}

/* Every key, each away from its default; a relative design_file is next to the spec. */
static void test_cfg_keys(void)
{
	cal_bayes_cfg b;
	char *err = NULL;
	int rc = read_cfg("[bayes]\nmode = pce\ndesign = 30\nholdout = 0.5\ndegree = 3\nmax_error = 0.1\n"
	                  "samples = 2000\nchains = 2\nwalkers = 12\nthin = 3\nburn = 700\n"
	                  "discrepancy = 0.01:0.2\ndirect_budget = 50\ndesign_file = runs/design.csv\n"
	                  "refine = no\npilot = 1000\n", "/data/cal", &b, &err);
	if (rc)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	cfg_is(&b, &(cal_bayes_cfg){.on = 1, .mode = CAL_BAYES_PCE, .design = 30, .holdout = 0.5, .degree = 3,
	                            .max_error = 0.1, .samples = 2000, .chains = 2, .walkers = 12, .thin = 3,
	                            .burn = 700, .disc_lo = 0.01, .disc_hi = 0.2, .direct_budget = 50,
	                            .design_file = (char *)"/data/cal/runs/design.csv", .refine = 0, .pilot = 1000});
	cal_bayes_cfg_free(&b);
	CU_ASSERT_PTR_NULL(b.design_file);

	/* The other modes, no discrepancy term, an absolute file, a file without a folder to resolve against. */
	CU_ASSERT_EQUAL(read_cfg("[bayes]\nmode = direct\ndiscrepancy = 0\ndesign_file = /abs/d.csv\n", "/x", &b, &err), 0);
	CU_ASSERT_EQUAL(b.mode, CAL_BAYES_DIRECT);
	CU_ASSERT_DOUBLE_EQUAL(b.disc_lo, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.disc_hi, 0, 0);
	CU_ASSERT_STRING_EQUAL(b.design_file, "/abs/d.csv");
	cal_bayes_cfg_free(&b);
	CU_ASSERT_EQUAL(read_cfg("[bayes]\nmode = auto\nrefine = yes\ndesign_file = d.csv\n", NULL, &b, &err), 0);
	CU_ASSERT_EQUAL(b.mode, CAL_BAYES_AUTO);
	CU_ASSERT_EQUAL(b.refine, 1);
	CU_ASSERT_STRING_EQUAL(b.design_file, "d.csv");
	cal_bayes_cfg_free(&b);
	/* The ends of the ranges are allowed. */
	CU_ASSERT_EQUAL(read_cfg("[bayes]\nholdout = 0.05\nsamples = 100\nchains = 64\nwalkers = 2\n"
	                         "discrepancy = 1e-6:10\ndirect_budget = 10\ndegree = 12\nmax_error = 0\n", NULL, &b, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(b.holdout, 0.05, 0);
	CU_ASSERT_EQUAL(b.chains, 64);
	CU_ASSERT_DOUBLE_EQUAL(b.disc_hi, 10, 0);
	cal_bayes_cfg_free(&b);
}

static void test_cfg_errors(void)
{
	static const char disc[] = "spec.conf:3: discrepancy must be LO:HI with 0 < LO < HI <= 10 (a share of the "
	                           "measured value), or 0";
	static const struct {
		const char *line, *want;  /* the line follows "[bayes]\nburn = 600\n": it is line 3 */
	} cases[] = {
		{"walkers = 7", "spec.conf:3: walkers must be even (each half of an ensemble moves against the other)"},
		{"discrepancy = 0.5:0.1", disc},
		{"discrepancy = 0.1", disc},
		{"discrepancy = 0.1:", disc},
		{"discrepancy = :0.1", disc},
		{"discrepancy = 0:0.5", disc},
		{"discrepancy = -0.1:0.5", disc},
		{"discrepancy = 0.01:20", disc},
		{"discrepancy = 0.01:abc", disc},
		{"discrepancy = 0.01:0.2:0.3", disc},
		{"discrepancy = 0.01-0.2", disc},
		{"discrepancy = yes", disc},
		{"mode = mcmc", "spec.conf:3: mode must be auto, pce or direct"},
		{"mode = PCE", "spec.conf:3: mode must be auto, pce or direct"},
		{"holdout = 0.01", "spec.conf:3: holdout must be between 0.05 and 1"},
		{"holdout = 1.5", "spec.conf:3: holdout must be between 0.05 and 1"},
		{"holdout = -0.2", "spec.conf:3: holdout must be between 0.05 and 1"},
		{"holdout = nan", "spec.conf:3: ..."},
		{"holdout = much", "spec.conf:3: [bayes] holdout = 'much': ..."},
		{"refine = maybe", "spec.conf:3: [bayes] refine = 'maybe': not a boolean (expected yes/no, true/false, on/off "
		                   "or 1/0)"},
		{"samples = 99", "spec.conf:3: samples must be between 100 and 100000000"},
		{"chains = 0", "spec.conf:3: chains must be between 1 and 64"},
		{"chains = 65", "spec.conf:3: chains must be between 1 and 64"},
		{"design = -1", "spec.conf:3: design must be between 0 and 100000"},
		{"design = ten", "spec.conf:3: [bayes] design = 'ten': ..."},
		{"degree = 13", "spec.conf:3: degree must be between 0 and 12"},
		{"thin = 0", "spec.conf:3: thin must be between 1 and 10000"},
		{"direct_budget = 9", "spec.conf:3: direct_budget must be between 10 and 100000000"},
		{"max_error = -0.01", "spec.conf:3: max_error must be between 0 and 10"},
		{"pilot = -5", "spec.conf:3: pilot must be between 0 and 100000000"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cal_bayes_cfg b;
		char *err = NULL, *text = xasprintf("[bayes]\nburn = 600\n%s\n", cases[i].line);
		CU_ASSERT_EQUAL(read_cfg(text, NULL, &b, &err), -1);
		if (!err)
			fprintf(stderr, "no error for '%s'\n", cases[i].line);
		UT_TAKE_ERROR(err, cases[i].want);
		cal_bayes_cfg_free(&b);
		free(text);
	}
}

/* Through a whole spec: an unknown key of [bayes] at its line, and design_file next to the spec. */
static void test_cfg_in_spec(void)
{
	free(put("lat.txt", "# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n1 1.50\n2 1.52\n4 1.54\n"));
	cal_spec s;
	char *err = NULL, *text = xasprintf("%s[bayes]\nsamples = 500\nsample = 10\n", spec_text);
	CU_ASSERT_EQUAL(cal_spec_parse("spec.conf", text, ut_dir, CAL_SPEC_FIT, &s, &err), -1);
	UT_TAKE_ERROR(err, "spec.conf:10: unknown key 'sample' in [bayes]...");
	free(text);
	text = xasprintf("%s[bayes]\ndesign_file = old/design.csv\nwalkers = 3\n", spec_text);
	CU_ASSERT_EQUAL(cal_spec_parse("spec.conf", text, ut_dir, CAL_SPEC_FIT, &s, &err), -1);
	UT_TAKE_ERROR(err, "spec.conf:10: walkers must be even...");
	free(text);
	text = xasprintf("%s[bayes]\ndesign_file = old/design.csv\n", spec_text);
	CU_ASSERT_EQUAL_FATAL(cal_spec_parse("spec.conf", text, ut_dir, CAL_SPEC_FIT, &s, &err), 0);
	char *want = xasprintf("%s/old/design.csv", ut_dir);
	CU_ASSERT_TRUE(s.bayes.on);
	CU_ASSERT_STRING_EQUAL(s.bayes.design_file, want);
	free(want);
	free(text);
	cal_spec_free(&s);
	/* Without [bayes] the spec is not a Bayesian one. */
	CU_ASSERT_EQUAL_FATAL(cal_spec_parse("spec.conf", spec_text, ut_dir, CAL_SPEC_FIT, &s, &err), 0);
	CU_ASSERT_FALSE(s.bayes.on);
	cal_spec_free(&s);
}

int main(void)
{
	static const ut_test design_tests[] = {
		{"a good design.csv", test_design_good},
		{"values at the ends of the ranges", test_design_edges},
		{"header errors", test_design_errors},
		{"row errors", test_design_row_errors},
		{"missing files, folders, empty files", test_design_files},
		{NULL, NULL},
	};
	static const ut_test cfg_tests[] = {
		{"defaults", test_cfg_defaults},
		{"every key", test_cfg_keys},
		{"errors", test_cfg_errors},
		{"in a spec", test_cfg_in_spec},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{.name = "design.csv", .tests = design_tests, .setup = ut_dir_setup, .teardown = ut_dir_teardown},
		{.name = "[bayes]", .tests = cfg_tests, .setup = ut_dir_setup, .teardown = ut_dir_teardown},
		{0},
	};
	return ut_run_suites(suites);
}

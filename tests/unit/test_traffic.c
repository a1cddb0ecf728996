/*
 * test_traffic.c - statistical tests of the DCNW, CDCNW and FLOWS generators
 * (runtime/traffic*.c), with fixed seeds and tolerances derived from the
 * sample sizes:
 *
 *  - sizes: each shipped CDF file read by the test itself must equal the
 *    loaded table; 100,000 draws from it; the Kolmogorov-Smirnov
 *    distance, taken at the support points of the step CDF (the only points
 *    where a step CDF and an empirical CDF of its draws can differ most), must
 *    stay below the 1% critical value 1.628/sqrt(n) = 0.00515;
 *  - offered load: generated bits / generation time within 2% of the rate.
 *    Its relative standard error is sqrt(cv_size^2 + cv_gap^2)/sqrt(N) with
 *    cv_gap = 1 (exponential gaps): FB_CACHE_FOLLOWER (cv 1.47) at N = 100,000
 *    gives 0.56%, WEB_SEARCH (cv 2.39) at N = 250,000 gives 0.52%, so 2% is
 *    more than 3.5 standard errors. (GOOGLE_ALL, cv 23, would need 16 million
 *    messages for the same margin, which is why it is not used here.)
 *  - destinations: 100,000 draws per distribution; Pearson's chi-square
 *    against the redraw-conditioned probabilities computed here from the
 *    definitions (and trf_dest_prob must agree with them), bins with an
 *    expected count below 5 pooled, below the 1% critical value of
 *    chi-square with (bins - 1) degrees of freedom;
 *  - FLOWS classes: 100,000 flows; each class's share within 0.01 of its
 *    percentage (standard error sqrt(p(1-p)/N) <= 0.0016, so 0.01 is 6 SE).
 *  - FLOWS sources: the flows per member (32 members, 100,000 flows) against
 *    the uniform law, Pearson's chi-square below 52.19, the 1% critical
 *    value with 31 degrees of freedom; the start times are uniform over the
 *    duration T, so the last of 100,000 lies above 0.999 T (probability of
 *    less: 0.999^100000, about 4e-44), and with the deliveries on an ideal
 *    network the run ends before 1.01 T.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncsim/traffic.h"
#include "runtime/traffic/traffic.h"
#include "runtime/traffic/stats.h"
#include "tests/unit/rt_testlib.h"

/* ------------------------------------------------------------ sizes */

/*
 * The built-in size models as stdlib/traffic/README.md lists them, with each
 * table's median: the smallest size whose cumulative probability reaches 0.5
 * in the file (the README gives them rounded: 27 B, 269 B, 268 B, 662 B,
 * 72 KB, 28 KB, 3.5 KB).
 */
static const struct {
	const char *name, *file;
	uint64_t median;
} models[TCDF_NMODELS] = {
	{"FB_KEY_VALUE", "fb_key_value.cdf", 27},       {"GOOGLE_SEARCH", "google_search.cdf", 269},
	{"GOOGLE_ALL", "google_all.cdf", 268},          {"FB_HADOOP", "fb_hadoop.cdf", 662},
	{"WEB_SEARCH", "web_search.cdf", 72030},        {"FB_CACHE_FOLLOWER", "fb_cache_follower.cdf", 28270},
	{"FB_WEB_SERVER", "fb_web_server.cdf", 3464},
};

/*
 * A step CDF as the test itself reads it, following the README and not
 * trf_cdf_parse: '#' lines and blank lines skipped, line 1 the stated mean,
 * then `size cumulative_probability` rows; a repeated size keeps its last
 * probability.
 */
enum { REF_MAX = 2048 };
typedef struct ref_cdf {
	size_t n;
	uint64_t size[REF_MAX];
	double cum[REF_MAX];
	double stated_mean;
} ref_cdf;

static int ref_load(const char *path, ref_cdf *r)
{
	char *text = ut_slurp(path), *save = NULL;
	int have_mean = 0, ok = text != NULL;
	r->n = 0;
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && ok; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long size;
		double cum;
		line += strspn(line, " \t\r");
		if (!*line || *line == '#')
			continue;
		if (!have_mean) {
			have_mean = sscanf(line, "%lf", &r->stated_mean) == 1;
			ok = have_mean;
		} else if (sscanf(line, "%llu %lf", &size, &cum) != 2 || r->n == REF_MAX) {
			ok = 0;
		} else if (r->n && r->size[r->n - 1] == size) {
			r->cum[r->n - 1] = cum;
		} else {
			r->size[r->n] = size;
			r->cum[r->n++] = cum;
		}
	}
	free(text);
	return ok && r->n ? 0 : -1;
}

/* The mean of the step distribution: sum of size times step probability. */
static double ref_mean(const ref_cdf *r)
{
	double m = 0, prev = 0;
	for (size_t i = 0; i < r->n; i++) {
		m += (double)r->size[i] * (r->cum[i] - prev);
		prev = r->cum[i];
	}
	return m;
}

/* The loaded table is the file's, row for row, with the README's median. */
static void check_table(int m, const tcdf *c, const ref_cdf *r)
{
	CU_ASSERT_EQUAL_FATAL(c->n, r->n);
	int rows_differ = 0;
	for (size_t i = 0; i < r->n; i++)
		rows_differ += c->size[i] != r->size[i] || c->cum[i] != r->cum[i];
	CU_ASSERT_EQUAL(rows_differ, 0);
	double mean = ref_mean(r);
	CU_ASSERT(fabs(c->mean - mean) <= 1e-9 * mean);
	CU_ASSERT_EQUAL(c->stated_mean, r->stated_mean);
	/* The README's promise: line 1 is the table's mean within 0.2%. */
	CU_ASSERT(fabs(mean - r->stated_mean) <= 0.002 * mean);
	CU_ASSERT_EQUAL(trf_cdf_draw(c, 0.5), models[m].median);
}

static void test_cdf_ks(void)
{
	const int n = 100000;
	const double crit = 1.628 / sqrt((double)n);
	static ref_cdf r;
	for (int m = 0; m < TCDF_NMODELS; m++) {
		/* The model of that name is built in, under that file name. */
		int k = trf_cdf_model_index(models[m].name);
		CU_ASSERT_FATAL(k >= 0 && k < TCDF_NMODELS);
		CU_ASSERT_STRING_EQUAL(trf_cdf_model_name(k), models[m].name);
		CU_ASSERT_STRING_EQUAL(trf_cdf_model_file(k), models[m].file);
		char *rel = xasprintf("stdlib/traffic/%s", models[m].file), *path = ut_src_path(rel), *err = NULL;
		CU_ASSERT_EQUAL_FATAL(ref_load(path, &r), 0);
		tcdf *c = trf_cdf_load(path, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		check_table(m, c, &r);
		char *builtin = trf_cdf_model_path(k);
		CU_ASSERT(strlen(builtin) > strlen(rel) && !strcmp(builtin + strlen(builtin) - strlen(rel), rel));
		free(builtin);
		uint64_t *cnt = calloc(r.n, sizeof *cnt);
		sim_rng g;
		sim_rng_seed(&g, 12345, (uint64_t)k);
		int off_table = 0;
		for (int i = 0; i < n; i++) {
			uint64_t s = trf_cdf_draw(c, trf_dest_unif_pos(&g));
			size_t lo = 0, hi = r.n - 1;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (r.size[mid] < s)
					lo = mid + 1;
				else
					hi = mid;
			}
			off_table += r.size[lo] != s;
			cnt[lo]++;
		}
		CU_ASSERT_EQUAL(off_table, 0);
		/* Kolmogorov-Smirnov distance against the file's own probabilities. */
		double D = 0;
		uint64_t acc = 0;
		for (size_t i = 0; i < r.n; i++) {
			acc += cnt[i];
			double d = fabs((double)acc / n - r.cum[i]);
			D = d > D ? d : D;
		}
		printf("\n    %-18s KS D = %.5f (critical %.5f), mean %.1f B (stated %.1f)", models[m].name, D, crit,
		       ref_mean(&r), r.stated_mean);
		CU_ASSERT(D < crit);
		free(cnt);
		trf_cdf_free(c);
		free(path);
		free(rel);
	}
}

static void bad_cdf(const char *text, const char *want)
{
	char *err = NULL;
	tcdf *c = trf_cdf_parse("x.cdf", text, &err);
	CU_ASSERT_PTR_NULL(c);
	if (!err || strcmp(err, want)) {
		printf("\n    got  %s\n    want %s", err ? err : "(none)", want);
		CU_FAIL("CDF error message");
	}
	free(err);
	trf_cdf_free(c);
}

static void test_cdf_errors(void)
{
	bad_cdf("", "x.cdf:0: empty file: expected the mean message size on the first line");
	bad_cdf("abc\n", "x.cdf:1: expected the mean message size in bytes (one positive number)");
	bad_cdf("10\n5 0.5\n4 1\n", "x.cdf:3: sizes must not decrease (4 after 5)");
	bad_cdf("10\n5 0.5\n15 0.4\n", "x.cdf:3: cumulative probabilities must not decrease (0.4 after 0.5)");
	bad_cdf("10\n5 0.5\n15 0.9\n", "x.cdf:3: the last cumulative probability is 0.9, expected 1");
	bad_cdf("10\n5 0.5 7\n", "x.cdf:2: expected `size_bytes cumulative_probability` (two numbers)");
	bad_cdf("10\n5.5 1\n", "x.cdf:2: the size must be a non-negative whole number of bytes");
	bad_cdf("10\n5 1.5\n", "x.cdf:2: the cumulative probability must lie in [0, 1]");
	bad_cdf("20\n5 0.5\n15 1\n", "x.cdf:1: the stated mean 20 differs from the table's mean 10 by more than 1%");
	char *err = NULL;
	tcdf *c = trf_cdf_parse("ok.cdf", "# comment\n10\n\n5 0.25\n5 0.5\n15 1\n", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->n, 2); /* the repeated size keeps its last probability */
	CU_ASSERT_DOUBLE_EQUAL(c->mean, 10.0, 1e-12);
	CU_ASSERT_EQUAL(trf_cdf_draw(c, 0.5), 5);
	CU_ASSERT_EQUAL(trf_cdf_draw(c, 0.5000001), 15);
	CU_ASSERT_EQUAL(trf_cdf_draw(c, 1.0), 15);
	trf_cdf_free(c);
}

/* ------------------------------------------------------------ destinations */

/* 1% critical value of chi-square with df degrees of freedom (Wilson-Hilferty, within 0.5% for df >= 3). */
static double chi2_crit(int df)
{
	double a = 2.0 / (9.0 * df), z = 2.3263478740;
	return df * pow(1 - a + z * sqrt(a), 3);
}

/*
 * The law of sender s's destination, written from ncsim/traffic.h without
 * trf_dest_prob: UNIFORM is 1/(n-1) on every other member; GAUSSIAN is
 * round(Normal(mean, dev)) and POISSON is Poisson(mean) (mean n/2 and dev n/8
 * unless given), both redrawn outside 0..n-1 and on the sender, i.e. their
 * probabilities renormalised over the members other than s.
 */
static void want_law(const rt_dest *spec, int n, int s, double *p)
{
	double mean = spec->has_mean ? spec->mean : n / 2.0, dev = spec->has_dev ? spec->dev : n / 8.0;
	double pk = exp(-mean), total = 0;
	for (int e = 0; e < n; e++) {
		if (spec->kind == RT_DEST_GAUSSIAN) /* P(e - 1/2 <= X < e + 1/2) */
			p[e] = 0.5 * (erfc((e - 0.5 - mean) / (dev * M_SQRT2)) - erfc((e + 0.5 - mean) / (dev * M_SQRT2)));
		else if (spec->kind == RT_DEST_POISSON) /* p(0) = e^-mean, p(k) = p(k-1) mean / k */
			p[e] = e ? (pk *= mean / e) : pk;
		else
			p[e] = 1;
	}
	p[s] = 0;
	for (int e = 0; e < n; e++)
		total += p[e];
	for (int e = 0; e < n; e++)
		p[e] /= total;
}

static void chisq_case(const char *name, const rt_dest *spec, int n, int sender)
{
	const int draws = 100000;
	tdst d;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(trf_dest_resolve(&d, spec, NULL, n, &err), 0);
	uint64_t *cnt = calloc((size_t)n, sizeof *cnt);
	double *p = calloc((size_t)n, sizeof *p);
	want_law(spec, n, sender, p);
	sim_rng r;
	sim_rng_seed(&r, 99, (uint64_t)(n * 1000 + sender) ^ (uint64_t)spec->kind << 40);
	for (int i = 0; i < draws; i++) {
		int e = trf_dest_draw(&d, &r, sender);
		CU_ASSERT_FATAL(e >= 0 && e < n && e != sender);
		cnt[e]++;
	}
	/* Pool bins in member order until each pooled bin expects at least 5 draws. */
	double chi = 0, exp_acc = 0, obs_acc = 0, worst = 0;
	int bins = 0;
	for (int e = 0; e < n; e++) {
		double gap = fabs(trf_dest_prob(&d, sender, e) - p[e]); /* the model's own table of the law */
		worst = gap > worst ? gap : worst;
		exp_acc += p[e] * draws;
		obs_acc += (double)cnt[e];
		if (exp_acc >= 5 || e == n - 1) {
			if (exp_acc > 0) {
				chi += (obs_acc - exp_acc) * (obs_acc - exp_acc) / exp_acc;
				bins++;
			}
			exp_acc = obs_acc = 0;
		}
	}
	CU_ASSERT(worst < 1e-12);
	double crit = chi2_crit(bins - 1);
	printf("\n    %-28s n=%-3d sender %-3d chi2 = %7.2f on %d df (1%% critical %.2f)", name, n, sender, chi, bins - 1,
	       crit);
	CU_ASSERT(chi < crit);
	free(p);
	free(cnt);
}

static void test_destinations(void)
{
	rt_dest uni = {.kind = RT_DEST_UNIFORM};
	rt_dest gau = {.kind = RT_DEST_GAUSSIAN};
	rt_dest gau2 = {.kind = RT_DEST_GAUSSIAN, .has_mean = 1, .mean = 3, .has_dev = 1, .dev = 2.5};
	rt_dest poi = {.kind = RT_DEST_POISSON};
	rt_dest poi2 = {.kind = RT_DEST_POISSON, .has_mean = 1, .mean = 4};
	rt_dest poi3 = {.kind = RT_DEST_POISSON, .has_mean = 1, .mean = 40};
	chisq_case("UNIFORM", &uni, 16, 3);
	chisq_case("UNIFORM", &uni, 128, 127);
	chisq_case("GAUSSIAN (n/2, n/8)", &gau, 64, 32);
	chisq_case("GAUSSIAN (n/2, n/8)", &gau, 64, 5);
	chisq_case("GAUSSIAN (3, 2.5)", &gau2, 16, 3);
	chisq_case("POISSON (n/2)", &poi, 64, 32);
	chisq_case("POISSON (4)", &poi2, 16, 4);
	chisq_case("POISSON (40), PTRS branch", &poi3, 128, 40);
}

static void test_destination_errors(void)
{
	tdst d;
	char *err = NULL;
	rt_dest g0 = {.kind = RT_DEST_GAUSSIAN, .has_mean = 1, .mean = 2, .has_dev = 1, .dev = 0};
	CU_ASSERT_EQUAL(trf_dest_resolve(&d, &g0, NULL, 8, &err), -1);
	CU_ASSERT_TRUE(err && strstr(err, "at least 1e-4"));
	free(err);
	err = NULL;
	rt_dest far = {.kind = RT_DEST_POISSON, .has_mean = 1, .mean = 500};
	CU_ASSERT_EQUAL(trf_dest_resolve(&d, &far, NULL, 8, &err), -1);
	free(err);
	err = NULL;
	rt_dest uni = {.kind = RT_DEST_UNIFORM};
	CU_ASSERT_EQUAL(trf_dest_resolve(&d, &uni, NULL, 1, &err), -1);
	free(err);
	/* A class without its own distribution takes the statement's. */
	rt_dest none = {0};
	CU_ASSERT_EQUAL(trf_dest_resolve(&d, &none, &g0, 8, &err), -1);
	free(err);
	err = NULL;
	CU_ASSERT_EQUAL(trf_dest_resolve(&d, &none, NULL, 8, &err), 0);
	CU_ASSERT_EQUAL(d.kind, RT_DEST_UNIFORM);
}

/* ------------------------------------------------------------ runs */

static struct {
	int kind; /* 0 dcnw, 1 flows */
	rt_dcnw_params d;
	rt_flows_params f;
} S;

static void entry(rt_task *t)
{
	if (S.kind == 0)
		rt_traffic_dcnw(t, rt_world(t), &S.d);
	else
		rt_traffic_flows(t, rt_world(t), &S.f);
}
TL_PROGRAM(prog, entry);

static const char ideal[] = "[network]\nmodel = ideal\nnodes = 64\n";

/* Runs S on `ntasks` tasks; returns the simulation (free with finish) or NULL. */
static drv_sim *run(uint32_t ntasks, const char *system, int want_rc)
{
	int rc;
	FILE *quiet = want_rc ? fopen("/dev/null", "w") : NULL;
	drv_sim *s = tl_run(&prog, ntasks, system, &rc, quiet);
	if (quiet)
		fclose(quiet);
	CU_ASSERT_EQUAL(rc, want_rc);
	return s;
}

static void finish(drv_sim *s)
{
	if (s)
		trf_world_release(drv_world(s));
	drv_free(s);
}

static trf_run *first_run(drv_sim *s)
{
	trf_world *tw = trf_world_find(drv_world(s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(tw);
	CU_ASSERT_FATAL(tw->runs.len >= 1);
	return tw->runs.ptr[0];
}

static void load_case(const char *model, uint64_t count, double gbps, uint32_t ntasks)
{
	S = (typeof(S)){.kind = 0, .d = {.model = model, .count = count, .gbps = gbps}};
	drv_sim *s = run(ntasks, ideal, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = first_run(s);
	trf_stat_fig f;
	trf_stat_figures(drv_world(s), r, &f);
	printf("\n    %-18s %7llu msgs at %.2f Gbps/task: offered %.4f Gbps (%+.2f%%)", model, (unsigned long long)count,
	       gbps, f.gbps_offered, 100 * (f.gbps_offered / gbps - 1));
	CU_ASSERT(fabs(f.gbps_offered / gbps - 1) < 0.02);
	CU_ASSERT_EQUAL(r->msgs, count);
	CU_ASSERT_EQUAL(r->dmsgs, count);
	CU_ASSERT_EQUAL(r->dbytes, r->bytes);
	CU_ASSERT_EQUAL(drv_world(s)->net->totals.msgs_delivered[NET_CLASS_DCNW], count);
	CU_ASSERT_EQUAL(drv_world(s)->net->totals.bytes_delivered[NET_CLASS_DCNW], r->bytes);
	finish(s);
}

static void test_dcnw_load(void)
{
	load_case("FB_CACHE_FOLLOWER", 100000, 1.0, 8);
	load_case("WEB_SEARCH", 250000, 0.5, 16);
}

/* Messages are split evenly, lower members taking the remainder, and every member ends after its last delivery. */
static void test_dcnw_split(void)
{
	S = (typeof(S)){.kind = 0, .d = {.model = "FB_KEY_VALUE", .count = 103, .dest = {.kind = RT_DEST_POISSON}}};
	char *sys = tl_analytic(10, NULL);
	drv_sim *s = run(10, sys, 0);
	free(sys);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = first_run(s);
	CU_ASSERT_EQUAL(r->msgs, 103);
	CU_ASSERT_EQUAL(r->dmsgs, 103);
	CU_ASSERT_PTR_NULL(r->m); /* every member finished */
	/* the run ends when the last member's last message arrived, which is when its task ended */
	ncsim_time_t last = 0;
	for (uint32_t i = 0; i < 10; i++)
		last = tl_tot(s, i)->end > last ? tl_tot(s, i)->end : last;
	CU_ASSERT_EQUAL(r->t_end, last);
	finish(s);
}

static void flows_case(const rt_flow_class *cls, int ncls, uint64_t count)
{
	S = (typeof(S)){.kind = 1,
	                .f = {.count = count, .duration = 200000000000ULL, .classes = cls, .nclasses = ncls}};
	drv_sim *s = run(32, ideal, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	trf_run *r = first_run(s);
	CU_ASSERT_EQUAL(r->flows_sent, count);
	CU_ASSERT_EQUAL(r->dmsgs, count);
	CU_ASSERT_EQUAL(drv_world(s)->net->totals.msgs_delivered[NET_CLASS_FLOWS], count);
	for (int c = 0; c < ncls; c++) {
		double share = (double)r->cls[c].flows / (double)count;
		printf("\n    class %d: %.4f of %llu flows (expected %.2f)", c, share, (unsigned long long)count,
		       cls[c].percent / 100);
		CU_ASSERT(fabs(share - cls[c].percent / 100) < 0.01);
	}
	double chi2 = 0, e = (double)count / 32;
	uint64_t sum = 0;
	for (int i = 0; i < 32; i++) {
		chi2 += ((double)r->flow_quota[i] - e) * ((double)r->flow_quota[i] - e) / e;
		sum += r->flow_quota[i];
	}
	printf("\n    sources: chi-square %.2f over 32 members (1%% critical value 52.19)", chi2);
	CU_ASSERT(chi2 < 52.19);
	CU_ASSERT_EQUAL(sum, count);
	/* the run lasts T: its last flow starts above 0.999 T, and the deliveries (ideal network) add little */
	double span = (double)(r->t_end - r->t_start);
	CU_ASSERT(span > 0.999 * 200e9 && span < 1.01 * 200e9);
	finish(s);
}

static void test_flows_shares(void)
{
	rt_flow_class two[2] = {
		{.min_bytes = 1024, .max_bytes = 10240, .percent = 80},
		{.min_bytes = 1024000, .max_bytes = 10240000, .percent = 20, .dest = {.kind = RT_DEST_GAUSSIAN}},
	};
	flows_case(two, 2, 100000);
	rt_flow_class three[3] = {
		{.min_bytes = 100, .max_bytes = 100, .percent = 50},
		{.min_bytes = 1, .max_bytes = 4096, .percent = 30, .dest = {.kind = RT_DEST_POISSON}},
		{.min_bytes = 0, .max_bytes = 65536, .percent = 20},
	};
	flows_case(three, 3, 100000);
}

/* Run-time errors end the run with a message that says what is wrong. */
static void error_case(const char *want)
{
	drv_sim *s = run(4, ideal, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const char *got = drv_world(s)->fatal;
	if (!got || !strstr(got, want)) {
		printf("\n    got  %s\n    want ...%s...", got ? got : "(none)", want);
		CU_FAIL("error message");
	}
	finish(s);
}

static void test_errors(void)
{
	S = (typeof(S)){.kind = 0, .d = {.model = "NO_SUCH_MODEL", .count = 10}};
	error_case("unknown traffic model NO_SUCH_MODEL");
	S = (typeof(S)){.kind = 0, .d = {.cdf_path = "/nonexistent/x.cdf", .count = 10}};
	error_case("/nonexistent/x.cdf: cannot open the CDF file");
	char *bad = ut_src_path("tests/vef/bad_table.cdf");
	S = (typeof(S)){.kind = 0, .d = {.cdf_path = bad, .count = 10}};
	error_case("bad_table.cdf:4: sizes must not decrease");
	free(bad);
	rt_flow_class cls[2] = {{.min_bytes = 1, .max_bytes = 2, .percent = 70}, {.min_bytes = 1, .max_bytes = 2, .percent = 20}};
	S = (typeof(S)){.kind = 1, .f = {.count = 10, .duration = 1000000, .classes = cls, .nclasses = 2}};
	error_case("the class percentages sum to 90, not 100");
	S = (typeof(S)){.kind = 0,
	                .d = {.model = "GOOGLE_ALL", .count = 10,
	                      .dest = {.kind = RT_DEST_GAUSSIAN, .has_mean = 1, .mean = 100, .has_dev = 1, .dev = 1}}};
	error_case("gaussian destinations with mean 100 and deviation 1 reach members 0..3");
}

/* Same seed, same everything: the figures of two runs agree exactly. */
static void test_determinism(void)
{
	S = (typeof(S)){.kind = 0, .d = {.model = "GOOGLE_SEARCH", .count = 5000, .gbps = 4,
	                                 .dest = {.kind = RT_DEST_GAUSSIAN}}};
	char *sys = tl_analytic(16, NULL);
	drv_sim *a = run(16, sys, 0), *b = run(16, sys, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	trf_run *ra = first_run(a), *rb = first_run(b);
	CU_ASSERT_EQUAL(ra->bytes, rb->bytes);
	CU_ASSERT_EQUAL(ra->t_end, rb->t_end);
	CU_ASSERT_EQUAL(ra->lat_sum, rb->lat_sum);
	finish(a);
	finish(b);
	free(sys);
}

int main(void)
{
	static const ut_test tests[] = {
		{"size tables: KS at 100,000 draws", test_cdf_ks},
		{"size tables: malformed files", test_cdf_errors},
		{"destinations: chi-square at 100,000 draws", test_destinations},
		{"destinations: impossible parameters", test_destination_errors},
		{"DCNW: offered load within 2%", test_dcnw_load},
		{"DCNW: split and completion", test_dcnw_split},
		{"FLOWS: class shares within 1%", test_flows_shares},
		{"run-time errors", test_errors},
		{"determinism", test_determinism},
		{NULL, NULL},
	};
	return ut_run("traffic", tests);
}

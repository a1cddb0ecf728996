/*
 * test_backend_ffi.c - BACKEND EXECUTES in the direct engine (engine/backend.c):
 * the shared recogniser's calls, preparing statements against the
 * generated prototype table and against a plugin, the C conversions of the
 * arguments, calls of the Union API inside a simulation, and the errors.
 *
 * Built twice: as the test program, and with NCSIM_FFI_PROBE as the probe
 * plugin (tests/unit/ffi_probe.la) whose functions record the arguments
 * they receive, so the test sees the values libffi passed.
 */
#ifdef NCSIM_FFI_PROBE
#include <stdint.h>

/* The probe library: each function stores its arguments for probe_i, probe_d and probe_p. */
static int64_t last_i[8];
static double last_d[2];
static const void *last_p[3];

void probe_ints(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g,
                unsigned long h);
void probe_floats(float f, double d);
void probe_ptrs(const void *a, const char *text, int *out);
int64_t probe_i(int k);
double probe_d(int k);
const void *probe_p(int k);

void probe_ints(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h)
{
	int64_t v[8] = {a, b, c, d, e, f, g, (int64_t)h};
	for (int k = 0; k < 8; k++)
		last_i[k] = v[k];
}

void probe_floats(float f, double d)
{
	last_d[0] = f;
	last_d[1] = d;
}

void probe_ptrs(const void *a, const char *text, int *out)
{
	last_p[0] = a;
	last_p[1] = text;
	last_p[2] = out;
}

int64_t probe_i(int k) { return last_i[k]; }
double probe_d(int k) { return last_d[k]; }
const void *probe_p(int k) { return last_p[k]; }

#else

#include <CUnit/Basic.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/backend_filter.h"
#include "engine/backend.h"
#include "engine/ffi_protos.h"
#include "tests/unit/rt_testlib.h"

/* --------------------------------------------------------------- the recogniser */

static void test_recogniser_calls(void)
{
	bf_item it[] = {
		{0, "UNION_MPI_Allreduce([MESSAGE BUFFER 0], NULL, (int)"},
		{1, "x"},
		{0, ", MPI_INT, MPI_SUM, MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD)"},
	};
	bf_calls c;
	char *err = NULL;
	int bad = 7;
	CU_ASSERT_EQUAL_FATAL(bf_parse(it, 3, 0, &c, &err, &bad), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 2);
	CU_ASSERT_STRING_EQUAL(c.calls[0].name, "UNION_MPI_Allreduce");
	CU_ASSERT_EQUAL_FATAL(c.calls[0].nargs, 6);
	const bf_arg *a = c.calls[0].args;
	CU_ASSERT_EQUAL(a[0].n, 1);
	CU_ASSERT_EQUAL(a[0].toks[0].kind, BF_BUFFER);
	/* " (int)" then the item: a blank, the cast, the item's marker. */
	CU_ASSERT_EQUAL_FATAL(a[2].n, 3);
	CU_ASSERT_EQUAL(a[2].toks[0].kind, BF_SPACE);
	CU_ASSERT_EQUAL(a[2].toks[1].kind, BF_CAST);
	CU_ASSERT_EQUAL(a[2].toks[2].kind, BF_ITEM);
	CU_ASSERT_EQUAL(a[2].toks[2].item, 1);
	CU_ASSERT_EQUAL(a[3].toks[1].kind, BF_NAME);
	CU_ASSERT_STRING_EQUAL(a[3].toks[1].text, "UNION_Int"); /* MPI_INT rewritten */
	CU_ASSERT_EQUAL(a[3].item, 2);                          /* it starts in the third item */
	CU_ASSERT_STRING_EQUAL(c.calls[1].name, "UNION_MPI_Barrier");
	CU_ASSERT_EQUAL(c.calls[1].nargs, 1);
	bf_calls_free(&c);
}

/*
 * A second call hidden in the arguments is refused: before the recogniser
 * was shared, `UNION_Compute(1), UNION_MPI_Comm_rank(UNION_Comm_World, 0)`
 * passed as one call and the C compiler read a comma operator calling a
 * function outside the allowed list.
 */
static void test_recogniser_hidden_calls(void)
{
	static const char *const texts[] = {
		"UNION_Compute(1), UNION_MPI_Comm_rank(UNION_Comm_World, 0)",
		"UNION_Compute(1) UNION_Compute(2)",
		"UNION_Compute(UNION_MPI_Barrier(1))",
		"UNION_Compute((1, 2))",
		"UNION_Compute(1, )",
		"UNION_Compute(, 1)",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		bf_item it[] = {{0, texts[i]}};
		bf_calls c;
		char *err = NULL;
		int bad = -7;
		CU_ASSERT_EQUAL(bf_parse(it, 1, 0, &c, &err, &bad), -1);
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT_PTR_NOT_NULL(err);
		free(err);
		char *out = bf_translate(it, 1, 0, &err, &bad);
		CU_ASSERT_PTR_NULL(out);
		free(out);
		free(err);
	}
}

/* Every call form the recogniser allows has a prototype in the generated table and an address in ncsim. */
static void test_allowed_calls_bound(void)
{
	const char *name;
	for (size_t i = 0; (name = bf_allowed_call(i)); i++) {
		size_t k = 0;
		while (k < eng_nprotos && strcmp(eng_protos[k].name, name))
			k++;
		CU_ASSERT(k < eng_nprotos);
		CU_ASSERT_PTR_NOT_NULL(dlsym(RTLD_DEFAULT, name));
	}
}

/* --------------------------------------------------------------- preparing */

/* Prepares items; returns 1 if prepared (and frees it), else 0 with the message in *err. */
static int prepares(const eng_bitem *it, int n, const eng_plugins *pl, int allow, char **err, int *bad)
{
	eng_backend *b = eng_backend_prepare(it, n, pl, allow, err, bad);
	eng_backend_free(b);
	return b != NULL;
}

static void test_prepare_refused(void)
{
	static const struct {
		const char *text;
		int allow;
		const char *want;
	} cases[] = {
		/* Without --allow-backend-code: the compiled engine's own message. */
		{"system(\"rm -rf /\");", 0, "backend code is limited to calls of the skeleton API ..."},
		{"rt_compute(t, 5);", 0, "backend code is limited to calls of the skeleton API ..."},
		/* Type and arity errors the C compiler would report. */
		{"UNION_Compute(1, 2);", 0, "`UNION_Compute` takes 1 argument, not 2"},
		{"MPI_Finalize(1);", 0, "`UNION_MPI_Finalize` takes 0 arguments, not 1"},
		{"UNION_MPI_Send(5, 1, UNION_Int, 1, 0, UNION_Comm_World);", 0,
		 "argument 1 of `UNION_MPI_Send` is a pointer: pass NULL or a message buffer, not a number"},
		{"UNION_MPI_Barrier(NULL);", 0, "argument 1 of `UNION_MPI_Barrier` is int, not a pointer"},
		{"UNION_Compute(UNION_Nothing);", 0,
		 "argument 1 of `UNION_Compute`: `UNION_Nothing` is not a constant the direct engine knows: ..."},
		{"UNION_Compute(NULL * 2);", 0, "argument 1 of `UNION_Compute`: `*` on a pointer: only numbers ..."},
		{"UNION_Compute(2 + );", 0, "argument 1 of `UNION_Compute`: an operand is missing"},
		{"UNION_Compute(1.5L);", 0, "argument 1 of `UNION_Compute`: `1.5L`: long double is not supported"},
		{"UNION_Compute(1e3 % 2);", 1, "argument 1 of `UNION_Compute`: `%` needs integer operands"},
		/* C reads `--5` as a decrement of a constant (a compile error), not as - -5. */
		{"UNION_Compute(--5);", 0, "argument 1 of `UNION_Compute`: `--` is C's decrement operator, which needs a "
		                           "variable (write `- -x` for a double negation)"},
		{"UNION_Compute(2 ++3);", 0, "argument 1 of `UNION_Compute`: `++` is C's increment operator, ..."},
		/* With it: C code the direct engine cannot run is refused and says where it runs. */
		{"int x = 3; UNION_Compute(x);", 1, "the direct engine runs only calls NAME(ARGS); of functions with a "
		                                   "known prototype (ncsim/union.h, ncsim/rt.h or a --plugin-header) ..."},
		{"printf(\"hi\");", 1, "the direct engine runs only calls NAME(ARGS); ..."},
		{"my_function(1);", 1, "`my_function` has no known prototype: the direct engine runs only calls ..."},
		{"rt_compute(u, 5);", 1,
		 "argument 1 of `rt_compute`: `u` is not a constant the direct engine knows: ..."},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		eng_bitem it[] = {{0, 0, "UNION_Compute("}, {1, 0, NULL}, {0, 0, ");"}, {0, 0, cases[i].text}};
		char *err = NULL;
		int bad = -7;
		CU_ASSERT_FALSE(prepares(it, 4, NULL, cases[i].allow, &err, &bad));
		CU_ASSERT_EQUAL(bad, 3); /* the offending item, not the good call before it */
		UT_TAKE_ERROR(err, cases[i].want);
	}
}

/* A VALUE OF item is a const char * in the compiled C: refused where a number is wanted, at that item. */
static void test_prepare_text_item(void)
{
	eng_bitem it[] = {{0, 0, "UNION_Compute("}, {1, 1, NULL}, {0, 0, ");"}};
	char *err = NULL;
	int bad = -7;
	CU_ASSERT_FALSE(prepares(it, 3, NULL, 0, &err, &bad));
	CU_ASSERT_EQUAL(bad, 1);
	UT_TAKE_ERROR(err, "argument 1 of `UNION_Compute` is double, not a pointer");
}

static void test_prepare_accepted(void)
{
	static const char *const texts[] = {
		"UNION_MPI_Allreduce([MESSAGE BUFFER 0], [MESSAGE BUFFER 1], (int)",
		"MPI_Recv(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
		"UNION_MPI_Finalize( ); UNION_MPI_Finalize();",
		"UNION_Compute(2 * (3 + 4) - 1e3 * sizeof(double) + (unsigned long) 5 * -1.5 - -2 + +1);",
	};
	eng_bitem all[] = {{0, 0, texts[0]}, {1, 0, NULL}, {0, 0, ", UNION_Int, UNION_Op_Sum, UNION_Comm_World);"}};
	char *err = NULL;
	int bad;
	CU_ASSERT_TRUE(prepares(all, 3, NULL, 0, &err, &bad));
	CU_ASSERT_PTR_NULL(err);
	for (size_t i = 1; i < sizeof texts / sizeof *texts; i++) {
		eng_bitem it[] = {{0, 0, texts[i]}};
		CU_ASSERT_TRUE(prepares(it, 1, NULL, 0, &err, &bad));
		CU_ASSERT_PTR_NULL(err);
		free(err);
		err = NULL;
	}
}

/* --------------------------------------------------------------- plugins */

static const char probe_header[] =
	"/* the probe library's prototypes */\n"
	"#define PROBE_SEVEN 7\n"
	"void probe_ints(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g,\n"
	"                unsigned long h);\n"
	"void probe_floats(float f, double d);\n"
	"void probe_ptrs(const void *a, const char *text, int *out);\n"
	"rt_int probe_missing(rt_int x); /* declared, not defined in the library */\n";

static char *probe_so(void) { return xasprintf("%s/tests/unit/.libs/ffi_probe.so", NCSIM_BUILDDIR); }

/* Writes text into a file of the suite's folder (heap path). */
static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", ut_dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static eng_plugins *open_probe(void)
{
	char *so = probe_so(), *h = write_file("probe.h", probe_header), *err = NULL;
	eng_plugins *pl = eng_plugins_open(NULL, so, h, 1, &err);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	free(so);
	free(h);
	return pl;
}

static void test_plugin_open_errors(void)
{
	char *so = probe_so(), *h = write_file("probe.h", probe_header), *err = NULL;
	CU_ASSERT_PTR_NULL(eng_plugins_open(NULL, so, h, 0, &err));
	UT_TAKE_ERROR(err, "--plugin runs arbitrary code: pass --allow-backend-code");
	CU_ASSERT_PTR_NULL(eng_plugins_open(NULL, so, NULL, 1, &err));
	char *want = xasprintf("--plugin %s needs --plugin-header: the direct engine calls a function only with the "
	                       "prototype its header declares", so);
	UT_TAKE_ERROR(err, want);
	free(want);
	char *bad = write_file("bad.h", "#include <ncsim/rt.h>\n\nint logf2(const char *fmt, ...);\n");
	CU_ASSERT_PTR_NULL(eng_plugins_open(NULL, so, bad, 1, &err));
	want = xasprintf("%s:3:28: `logf2` takes a variable number of arguments: not supported", bad);
	UT_TAKE_ERROR(err, want);
	CU_ASSERT_PTR_NULL(eng_plugins_open(NULL, "no-such-plugin.so", h, 1, &err));
	UT_TAKE_ERROR(err, "--plugin no-such-plugin.so: cannot load it: ...");
	free(want);
	free(bad);
	free(so);
	free(h);
}

/* The probe library's own recording functions, through a handle of this test. */
typedef struct probe {
	void *h;
	int64_t (*i)(int);
	double (*d)(int);
	const void *(*p)(int);
} probe;

static probe probe_handle(void)
{
	char *so = probe_so();
	probe pr = {.h = dlopen(so, RTLD_NOW | RTLD_LOCAL)};
	free(so);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr.h);
	*(void **)&pr.i = dlsym(pr.h, "probe_i");
	*(void **)&pr.d = dlsym(pr.h, "probe_d");
	*(void **)&pr.p = dlsym(pr.h, "probe_p");
	return pr;
}

/* Prepares and calls items once outside a simulation (the probe needs no task). */
static void call_once(const eng_bitem *it, int n, const eng_plugins *pl, const eng_bval *vals)
{
	char *err = NULL;
	int bad;
	eng_backend *b = eng_backend_prepare(it, n, pl, 1, &err, &bad);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	eng_backend_call(b, NULL, vals);
	eng_backend_free(b);
}

/* Every argument reaches the library converted as C converts it to the parameter's type. */
static void test_plugin_conversions(void)
{
	eng_plugins *pl = open_probe();
	CU_ASSERT_PTR_NOT_NULL_FATAL(pl);
	probe pr = probe_handle();
	eng_bitem ints[] = {{0, 0, "probe_ints("}, {1, 0, NULL},
	                    {0, 0, ", 300, 70000, -1, 3000000000, -1, "}, {1, 0, NULL}, {0, 0, ", -PROBE_SEVEN / 2);"}};
	eng_bval iv[] = {{0, 0, NULL}, {0, -1.9, NULL}, {0, 0, NULL}, {0, 1e10, NULL}, {0, 0, NULL}};
	call_once(ints, 5, pl, iv);
	int64_t want[8] = {
		-1,                  /* -1.9 to signed char: truncated toward zero */
		44,                  /* 300 to unsigned char: 300 - 256 */
		4464,                /* 70000 to short: 70000 - 65536 */
		65535,               /* -1 to unsigned short: 2^16 - 1 */
		-1294967296,         /* 3000000000 (a long) to int: 3000000000 - 2^32 */
		4294967295,          /* -1 to unsigned int: 2^32 - 1 */
		10000000000,         /* 1e10 to long */
		-3,                  /* -7 / 2 in int: truncated toward zero, then to unsigned long and back */
	};
	for (int k = 0; k < 8; k++)
		CU_ASSERT_EQUAL(pr.i(k), want[k]);
	/* (float)0.1 * 3 stays float: 0x1.333334p-2, not the double 0.3 rounded once. */
	eng_bitem fl[] = {{0, 0, "probe_floats((float)0.1 * 3, "}, {1, 0, NULL}, {0, 0, " * 3);"}};
	eng_bval fv[] = {{0, 0, NULL}, {0, 0.1, NULL}, {0, 0, NULL}};
	call_once(fl, 3, pl, fv);
	CU_ASSERT_EQUAL(pr.d(0), (double)0x1.333334p-2f);
	CU_ASSERT_EQUAL(pr.d(1), 0.1 * 3);
	/* A message buffer is NULL, a text item its own pointer, 0 a null pointer. */
	static const char text[] = "some text";
	eng_bitem pt[] = {{0, 0, "probe_ptrs([MESSAGE BUFFER 3], "}, {1, 1, NULL}, {0, 0, ", 0);"}};
	eng_bval pv[] = {{0, 0, NULL}, {1, 0, text}, {0, 0, NULL}};
	call_once(pt, 3, pl, pv);
	CU_ASSERT_PTR_NULL(pr.p(0));
	CU_ASSERT_PTR_EQUAL(pr.p(1), text);
	CU_ASSERT_PTR_NULL(pr.p(2));
	/* Declared in the header, absent from the library. */
	eng_bitem miss[] = {{0, 0, "probe_missing(1);"}};
	char *err = NULL;
	int bad;
	CU_ASSERT_FALSE(prepares(miss, 1, pl, 1, &err, &bad));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "probe.h but "));
	UT_TAKE_ERROR(err, "`probe_missing` is declared in ...");
	dlclose(pr.h);
	eng_plugins_close(pl);
}

/* --------------------------------------------------------------- in a simulation */

static eng_backend *sim_b;
static eng_bval sim_vals[3];
static ncsim_time_t sim_end[2];
static uint64_t sim_mpi_ops[2];

static uint64_t ref_bytes;

static void sim_entry(rt_task *t)
{
	if (sim_b)
		eng_backend_call(sim_b, t, sim_vals);
	else
		rt_allreduce(t, rt_world(t), ref_bytes); /* the reference: what the call should do */
	sim_end[rt_rank(t)] = rt_now(t);
}
TL_PROGRAM(sim_prog, sim_entry);

/* The end time of an allreduce of `bytes` on 2 tasks, made directly. */
static ncsim_time_t allreduce_end(uint64_t bytes)
{
	int rc;
	sim_b = NULL;
	ref_bytes = bytes;
	drv_sim *s = tl_run_analytic(&sim_prog, 2, NULL, &rc, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	drv_free(s);
	return sim_end[0];
}

/* Prepares items as sim_b and runs them on ntasks of the analytic machine; returns drv_run's status. */
static int run_items(const eng_bitem *it, int n, int allow, uint32_t ntasks, char *fatal, size_t fatal_len)
{
	char *err = NULL;
	int bad, rc;
	sim_b = eng_backend_prepare(it, n, NULL, allow, &err, &bad);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sim_b);
	memset(sim_end, 0, sizeof sim_end);
	FILE *devnull = fopen("/dev/null", "w");
	drv_sim *s = tl_run_analytic(&sim_prog, ntasks, NULL, &rc, devnull);
	fclose(devnull);
	for (uint32_t r = 0; s && r < ntasks && r < 2; r++)
		sim_mpi_ops[r] = tl_tot(s, r)->mpi_ops;
	if (fatal)
		snprintf(fatal, fatal_len, "%s", s && drv_world(s)->fatal ? drv_world(s)->fatal : "");
	drv_free(s);
	eng_backend_free(sim_b);
	return rc;
}

static void test_union_calls(void)
{
	/* UNION_Compute takes nanoseconds: 1500.25 * 2 = 3000.5 ns = 3,000,500 ps of computation. */
	eng_bitem comp[] = {{0, 0, "UNION_Compute("}, {1, 0, NULL}, {0, 0, " * 2);"}};
	sim_vals[1] = (eng_bval){0, 1500.25, NULL};
	CU_ASSERT_EQUAL(run_items(comp, 3, 0, 1, NULL, 0), 0);
	CU_ASSERT_EQUAL(sim_end[0], 3000500);
	/* The paper-style allreduce: (int)1024.7 is 1024 UNION_Int of 4 bytes = 4096 bytes, one MPI
	 * operation per task that ends when a direct rt_allreduce of 4096 bytes ends (and not when one of
	 * 4100 bytes, had the count been rounded, ends). */
	ncsim_time_t want = allreduce_end(4096), rounded = allreduce_end(4100);
	CU_ASSERT(want != rounded);
	eng_bitem ar[] = {{0, 0, "UNION_MPI_Allreduce([MESSAGE BUFFER 0], [MESSAGE BUFFER 1], (int)"}, {1, 0, NULL},
	                  {0, 0, ", UNION_Int, UNION_Op_Sum, UNION_Comm_World);"}};
	sim_vals[1] = (eng_bval){0, 1024.7, NULL};
	CU_ASSERT_EQUAL(run_items(ar, 3, 0, 2, NULL, 0), 0);
	CU_ASSERT_EQUAL(sim_end[0], want);
	CU_ASSERT_EQUAL(sim_end[1], want);
	CU_ASSERT_EQUAL(sim_mpi_ops[0], 1);
	CU_ASSERT_EQUAL(sim_mpi_ops[1], 1);
	/* With --allow-backend-code, `t` is the calling task as in the compiled C: rt_compute takes ps. */
	eng_bitem rt[] = {{0, 0, "rt_compute(t, 5000); rt_compute(t, 7 / 2 * 1000u)"}};
	CU_ASSERT_EQUAL(run_items(rt, 1, 1, 1, NULL, 0), 0);
	CU_ASSERT_EQUAL(sim_end[0], 8000); /* 5000 + 3 * 1000 */
}

/* What C leaves undefined is a run-time error naming the call and the argument. */
static void test_run_time_errors(void)
{
	char fatal[512];
	eng_bitem big[] = {{0, 0, "UNION_MPI_Barrier((int)"}, {1, 0, NULL}, {0, 0, ");"}};
	sim_vals[1] = (eng_bval){0, 1e30, NULL};
	CU_ASSERT_NOT_EQUAL(run_items(big, 3, 0, 1, fatal, sizeof fatal), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fatal, "BACKEND EXECUTES: argument 1 of UNION_MPI_Barrier: the value is out of "
	                                     "the range of the integer type"));
	eng_bitem div[] = {{0, 0, "UNION_Compute(1000 / (int)"}, {1, 0, NULL}, {0, 0, ");"}};
	sim_vals[1] = (eng_bval){0, 0.5, NULL};
	CU_ASSERT_NOT_EQUAL(run_items(div, 3, 1, 1, fatal, sizeof fatal), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fatal, "argument 1 of UNION_Compute: division by zero"));
	/* The Union API's own check of a negative time still applies (runtime/mpi/union.c). */
	eng_bitem neg[] = {{0, 0, "UNION_Compute(-"}, {1, 0, NULL}, {0, 0, ");"}};
	sim_vals[1] = (eng_bval){0, 5.0, NULL};
	CU_ASSERT_NOT_EQUAL(run_items(neg, 3, 0, 1, fatal, sizeof fatal), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fatal, "out of range"));
}

int main(void)
{
	static const ut_test recogniser[] = {
		{"calls, arguments and tokens", test_recogniser_calls},
		{"hidden second calls refused", test_recogniser_hidden_calls},
		{"allowed calls have prototypes and addresses", test_allowed_calls_bound},
		{NULL, NULL},
	};
	static const ut_test prepare[] = {
		{"refusals with their messages and items", test_prepare_refused},
		{"a text item where a number is wanted", test_prepare_text_item},
		{"accepted statements", test_prepare_accepted},
		{NULL, NULL},
	};
	static const ut_test plugins[] = {
		{"open errors", test_plugin_open_errors},
		{"C conversions of the arguments", test_plugin_conversions},
		{NULL, NULL},
	};
	static const ut_test sim[] = {
		{"Union and rt calls in a simulation", test_union_calls},
		{"run-time errors", test_run_time_errors},
		{NULL, NULL},
	};
	static const ut_suite suites[] = {
		{"recogniser", recogniser, NULL, NULL},
		{"prepare", prepare, NULL, NULL},
		{"plugins", plugins, ut_dir_setup, ut_dir_teardown},
		{"simulation", sim, NULL, NULL},
		{NULL, NULL, NULL, NULL},
	};
	return ut_run_suites(suites);
}

#endif

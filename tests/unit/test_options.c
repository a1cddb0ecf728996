/*
 * test_options.c - the command-line options shared by every command
 * (runtime/task/options.h): the time parser with hand-computed values in
 * picoseconds, and the table's rules (which command takes which option,
 * positive times, values, `--`, the help text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/task/options.h"
#include "tests/unit/unit.h"

/* opt_time(s) in ps, or UINT64_MAX when it is rejected. */
static ncsim_time_t ps_of(const char *s)
{
	ncsim_time_t t = 0;
	const char *why = NULL;
	if (opt_time(s, &t, &why) < 0) {
		CU_ASSERT_PTR_NOT_NULL(why);
		return UINT64_MAX;
	}
	return t;
}

static void test_time_units(void)
{
	CU_ASSERT_EQUAL(ps_of("250ps"), 250);
	CU_ASSERT_EQUAL(ps_of("0.5ns"), 500);
	CU_ASSERT_EQUAL(ps_of("5000ns"), 5000000);
	CU_ASSERT_EQUAL(ps_of("5us"), 5000000);
	CU_ASSERT_EQUAL(ps_of("5\xc2\xb5s"), 5000000); /* 5µs, UTF-8 micro sign */
	CU_ASSERT_EQUAL(ps_of("5 us"), 5000000);
	CU_ASSERT_EQUAL(ps_of("1.5ms"), 1500000000);
	CU_ASSERT_EQUAL(ps_of("2s"), 2000000000000ULL);
	CU_ASSERT_EQUAL(ps_of("1e3ns"), 1000000);
}

static void test_time_plain_is_us(void)
{
	/* A bare number is in microseconds, whatever the command. */
	CU_ASSERT_EQUAL(ps_of("5"), 5000000);
	CU_ASSERT_EQUAL(ps_of("0.25"), 250000);
	CU_ASSERT_EQUAL(ps_of("100"), 100000000);
	CU_ASSERT_EQUAL(ps_of("0"), 0); /* the parser takes it; positive options refuse it */
}

static void test_time_rejects(void)
{
	CU_ASSERT_EQUAL(ps_of(""), UINT64_MAX);
	CU_ASSERT_EQUAL(ps_of("us"), UINT64_MAX);
	CU_ASSERT_EQUAL(ps_of("5 min"), UINT64_MAX);
	CU_ASSERT_EQUAL(ps_of("5 NS"), UINT64_MAX);
	CU_ASSERT_EQUAL(ps_of("-1us"), UINT64_MAX);
	CU_ASSERT_EQUAL(ps_of("1e9 s"), UINT64_MAX); /* 1e21 ps does not fit 64 bits */
	CU_ASSERT_EQUAL(ps_of("inf"), UINT64_MAX);
}

/* opt_parse of the words of line (blank separated, at most 15) for cmd: its return value. */
static int parse(opt_set *s, unsigned cmd, const char *line)
{
	static char buf[256];
	static char *argv[16]; /* opt_set points into it */
	int argc = 0;
	snprintf(buf, sizeof buf, "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return opt_parse(s, cmd, "test", argc, argv);
}

static const unsigned every_run[] = {OPT_CMD_RUN, OPT_CMD_WKLD, OPT_CMD_SKELETON, OPT_CMD_NETBENCH};

static void test_until_everywhere(void)
{
	for (size_t i = 0; i < sizeof every_run / sizeof *every_run; i++) {
		unsigned c = every_run[i];
		const char *file = c == OPT_CMD_RUN ? "x.ncptl " : "";
		char line[64];
		opt_set s;
		snprintf(line, sizeof line, "%s--until 0", file);
		CU_ASSERT_EQUAL(parse(&s, c, line), -1);
		snprintf(line, sizeof line, "%s--until=5\xc2\xb5s", file);
		CU_ASSERT_EQUAL_FATAL(parse(&s, c, line), 0);
		CU_ASSERT_EQUAL(opt_get(&s, OPT_UNTIL)->time, 5000000);
		snprintf(line, sizeof line, "%s--until 5", file);
		CU_ASSERT_EQUAL_FATAL(parse(&s, c, line), 0);
		CU_ASSERT_EQUAL(opt_get(&s, OPT_UNTIL)->time, 5000000);
	}
}

static void test_which_command(void)
{
	opt_set s;
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_RUN, "x.ncptl --placement random-node"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_WKLD, "--placement random-node"), 0);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_PLACEMENT)->choice, 1); /* PL_RANDOM_NODE */
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_WKLD, "-n 4"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_NETBENCH, "--tasks 4"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_CHECK, "x.ncptl --seed 3"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_NETBENCH, "--duration 0"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_NETBENCH, "--warmup 0 --duration 2ms"), 0);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_DURATION)->time, 2000000000);
	CU_ASSERT(opt_given(&s, OPT_WARMUP));
	CU_ASSERT_EQUAL(opt_get(&s, OPT_WARMUP)->time, 0);
}

static void test_values(void)
{
	opt_set s;
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_SKELETON, "-n8 --seed=0 --stack-size 64K"), 0);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_TASKS)->num, 8);
	CU_ASSERT(opt_given(&s, OPT_SEED));
	CU_ASSERT_EQUAL(opt_get(&s, OPT_SEED)->num, 0);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_STACK_SIZE)->num, 65536);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "-n 0"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--seed -1"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--seed"), -1);        /* no value */
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--io-log=yes"), -1); /* a flag takes none */
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--network mesh"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--routing zigzag"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "--bogus"), -1);
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_SKELETON, "stray"), -1);
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_NETBENCH, "--size 4KiB --load 0.5 --pattern group-shift"), 0);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_SIZE)->num, 4096);
	CU_ASSERT_DOUBLE_EQUAL(opt_get(&s, OPT_LOAD)->real, 0.5, 1e-12);
	CU_ASSERT_EQUAL(opt_get(&s, OPT_PATTERN)->choice, 2); /* NB_SHIFT */
}

static void test_operands(void)
{
	opt_set s;
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_RUN, "-n 2 x.ncptl --out o -- --reps 3 -n 9"), 0);
	CU_ASSERT_STRING_EQUAL(s.operand, "x.ncptl");
	CU_ASSERT_STRING_EQUAL(opt_get(&s, OPT_OUT)->text, "o");
	CU_ASSERT_EQUAL(opt_get(&s, OPT_TASKS)->num, 2);
	CU_ASSERT_EQUAL_FATAL(s.rest_argc, 4);
	CU_ASSERT_STRING_EQUAL(s.rest_argv[0], "--reps");
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_RUN, "-n 2"), -1);            /* no FILE */
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_RUN, "a.ncptl b.ncptl"), -1); /* two */
	CU_ASSERT_EQUAL(parse(&s, OPT_CMD_WKLD, "-- x"), -1);           /* no program options */
	char *w1[] = {"--out", "a.wkld", "b.wkld", NULL};
	CU_ASSERT_EQUAL(opt_operand(OPT_CMD_RUN | OPT_CMD_WKLD, 3, w1), 2);
	char *w2[] = {"--no-wall-time", "a.wkld", NULL};
	CU_ASSERT_EQUAL(opt_operand(OPT_CMD_RUN | OPT_CMD_WKLD, 2, w2), 1);
	char *w3[] = {"-n", "2", "--", "x.ncptl", NULL};
	CU_ASSERT_EQUAL(opt_operand(OPT_CMD_RUN, 4, w3), -1);
}

static void test_run_settings(void)
{
	opt_set s;
	drv_options d = {0};
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_SKELETON, ""), 0);
	CU_ASSERT_EQUAL_FATAL(opt_run_settings(&s, &d, &err), 0);
	CU_ASSERT_EQUAL(d.seed, 1);
	CU_ASSERT_EQUAL(d.until, 0);
	CU_ASSERT_EQUAL(d.progress, SIM_PROGRESS_AUTO);
	CU_ASSERT_PTR_NULL(d.system_path);
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_SKELETON, "--no-progress --progress --network dragonfly --seed 7"), 0);
	CU_ASSERT_EQUAL_FATAL(opt_run_settings(&s, &d, &err), 0);
	CU_ASSERT_EQUAL(d.progress, SIM_PROGRESS_ON); /* the later one */
	CU_ASSERT_STRING_EQUAL(d.network, "packet");
	CU_ASSERT_EQUAL(d.seed, 7);
	CU_ASSERT_EQUAL_FATAL(parse(&s, OPT_CMD_SKELETON, "--system no-such-machine"), 0);
	CU_ASSERT_EQUAL(opt_run_settings(&s, &d, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	opt_free(&s);
}

/* The help of cmd, as text (heap). */
static char *help_of(unsigned cmd)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	opt_help(cmd, "prog", f);
	fclose(f);
	return text;
}

static void test_help(void)
{
	char *run = help_of(OPT_CMD_RUN), *nb = help_of(OPT_CMD_NETBENCH), *sk = help_of(OPT_CMD_SKELETON);
	CU_ASSERT_PTR_NOT_NULL(strstr(run, "--until T"));
	CU_ASSERT_PTR_NOT_NULL(strstr(run, "plain number is in microseconds"));
	CU_ASSERT_PTR_NOT_NULL(strstr(run, "NCSIM_CC"));
	CU_ASSERT_PTR_NOT_NULL(strstr(nb, "--duration T"));
	CU_ASSERT_PTR_NULL(strstr(nb, "--tasks"));
	CU_ASSERT_PTR_NULL(strstr(nb, "NCSIM_CC"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sk, "usage: prog [options]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sk, "NCPTL_LOG_ONLY"));
	free(run);
	free(nb);
	free(sk);
}

int main(void)
{
	static const ut_test tests[] = {
		{"time units", test_time_units},
		{"a plain time is in microseconds", test_time_plain_is_us},
		{"bad times", test_time_rejects},
		{"--until in every command", test_until_everywhere},
		{"options belong to commands", test_which_command},
		{"values", test_values},
		{"FILE and --", test_operands},
		{"simulation settings", test_run_settings},
		{"help text", test_help},
		{NULL, NULL},
	};
	return ut_run("options", tests);
}

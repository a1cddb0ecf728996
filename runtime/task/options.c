/*
 * options.c - the command-line options of every ncsim command (see options.h).
 */
#include "runtime/task/options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/netbench.h"
#include "runtime/net/netfactory.h"
#include "runtime/task/params.h"
#include "runtime/storage/busylog.h"
#include "runtime/task/msglog.h"
#include "runtime/task/placement.h"
#include "runtime/task/workload.h"
#include "base/memlimit.h"
#include "base/units.h"
#include "base/util.h"

enum opt_kind {
	K_FLAG,   /* no value */
	K_TEXT,   /* a path or a name */
	K_UINT,   /* integer >= 0 (prm_parse_int: K/M/G/T, E<n>) */
	K_COUNT,  /* integer in [1, 2^32 - 1] */
	K_REAL,   /* real number (units_double) */
	K_SIZE,   /* bytes (units_size: 4096, 4 KiB) */
	K_TIME,   /* time > 0 (opt_time) */
	K_TIME0,  /* time >= 0 */
	K_WALL,   /* a wall-clock time >= 0, with its unit (60s, 500ms): a plain number would be ambiguous */
	K_CHOICE, /* a word the row's `choose` knows */
	K_LIST,   /* a text that may repeat: each occurrence goes to opt_set.items, in order */
};

typedef struct opt_row {
	const char *name;              /* long name, without the dashes */
	char letter;                   /* short option, or 0 */
	enum opt_kind kind;
	const char *arg;               /* the value in the help text */
	unsigned cmds;                 /* enum opt_cmd bits */
	const char *help;
	int (*choose)(const char *s);  /* K_CHOICE: index of the word, or -1 */
	const char *what;              /* K_CHOICE: "unknown <what> 'x' (<choices>)" */
	const char *choices;
} opt_row;

static int choose_network(const char *s) { return drv_network_model(s) ? 0 : -1; }
/* --engine: 0 compiled, 1 direct (the values of engine/engine.h's enum eng_kind). */
static int choose_engine(const char *s) { return !strcmp(s, "compiled") ? 0 : !strcmp(s, "direct") ? 1 : -1; }

#define R OPT_CMD_RUN
#define W OPT_CMD_WKLD
#define S OPT_CMD_SKELETON
#define N OPT_CMD_NETBENCH
#define C OPT_CMD_CHECK
#define P OPT_CMD_COMPILE
#define K OPT_CMD_CALIBRATE
#define D OPT_CMD_PREDICT
#define G OPT_CMD_REPORT /* graphs */
#define SIM (R | W | S)

static const opt_row rows[OPT_NIDS] = {
	[OPT_HELP] = {"help", 'h', K_FLAG, NULL, SIM | N | C | P | K | D | G, "show this help"},
	[OPT_TASKS] = {"tasks", 'n', K_COUNT, "N", R | S, "number of tasks (default 1)"},
	[OPT_TASKS_PER_NODE] = {"tasks-per-node", 0, K_COUNT, "K", R | S,
	                        "put K consecutive ranks on each compute node (default 1; intra-node messages: "
	                        "doc/system-file.md, [node])"},
	[OPT_SYSTEM] = {"system", 0, K_TEXT, "FILE|NAME", SIM | N | K | D,
	                "system file or preset name such as df-tiny (default: the built-in dragonfly)"},
	[OPT_CODES_ROOT] = {"codes-root", 0, K_TEXT, "DIR", SIM | N,
	                    "folder that [placeholders] in a CODES --system file stand for (doc/dragonfly.md)"},
	[OPT_NETWORK] = {"network", 0, K_CHOICE, "MODEL", SIM | K | D,
	                 "ideal, analytic, dragonfly (or packet), hybrid or flow (overrides the system file)", choose_network,
	                 "network model", SD_NETWORK_CHOICES},
	[OPT_ROUTING] = {"routing", 0, K_CHOICE, "ALGO", SIM | N,
	                 "dragonfly routing: minimal, nonminimal, ugal or par (overrides the system file)", df_routing_parse,
	                 "routing", "minimal, nonminimal, ugal, par"},
	[OPT_PLACEMENT] = {"placement", 0, K_CHOICE, "POLICY", W,
	                   "contiguous (default), random-node, random-router or random-group", pl_policy_parse, "placement",
	                   "contiguous, random-node, random-router, random-group; or --alloc FILE"},
	[OPT_ALLOC] = {"alloc", 0, K_TEXT, "FILE", W,
	               "allocation file: one line per job with the node of each rank (replaces --placement)"},
	[OPT_SEED] = {"seed", 0, K_UINT, "S", SIM | N | K | D, "seed of the run's random streams and placements (default 1)"},
	[OPT_OUT] = {"out", 0, K_TEXT, "DIR", SIM | N | K,
	             "output folder (default: a new ncsim-out/<name>-<time>; none for netbench)"},
	[OPT_UNTIL] = {"until", 0, K_TIME, "T", SIM | N, "stop at simulated time T (> 0)"},
	[OPT_IO_LOG] = {"io-log", 0, K_FLAG, NULL, SIM,
	                "write io.csv, one row per I/O request, and device_busy.csv, one per device operation "
	                "(doc/storage.md)"},
	[OPT_DEVICE_LOG_MAX] = {"device-log-max", 0, K_COUNT, "N", SIM,
	                        "rows of device_busy.csv at most (default 1000000); later operations are counted, "
	                        "not written"},
	[OPT_MESSAGE_LOG] = {"message-log", 0, K_FLAG, NULL, SIM,
	                     "write messages.csv, one row per MPI message: ranks, tag, bytes, send and arrival times"},
	[OPT_MESSAGE_LOG_MAX] = {"message-log-max", 0, K_COUNT, "N", SIM,
	                         "rows of messages.csv at most (default 1000000); later messages are counted, not written"},
	[OPT_REPORT] = {"report", 0, K_FLAG, NULL, R | W,
	                "write report.html, the run's figures (ncsim report), into the output folder at the end"},
	[OPT_STACK_SIZE] = {"stack-size", 0, K_UINT, "B", SIM, "bytes of stack per task (K/M/G suffixes; default 256K)"},
	[OPT_PROGRESS] = {"progress", 0, K_FLAG, NULL, SIM | N | K | D,
	                  "show the progress line (default: when stderr is a terminal)"},
	[OPT_NO_PROGRESS] = {"no-progress", 0, K_FLAG, NULL, SIM | N | K | D, "never show the progress line"},
	[OPT_NO_WALL_TIME] = {"no-wall-time", 0, K_FLAG, NULL, SIM | K,
	                      "leave wall times out of summary.json (calibrate: calibration.json, history.csv)"},
	[OPT_FORCE] = {"force", 0, K_FLAG, NULL, SIM | N | K,
	               "replace the --out folder if it exists (else that is an error)"},
	[OPT_OVERSUBSCRIBE] = {"oversubscribe", 0, K_FLAG, NULL, SIM,
	                       "allow more tasks than compute nodes (several tasks share a node)"},
	[OPT_ALLOW_HOST_ACCESS] = {"allow-host-access", 0, K_FLAG, NULL, SIM | K | D,
	                           "let program options run commands, copy files into logs and log outside --out"},
	[OPT_WATCHDOG] = {"watchdog", 0, K_WALL, "TIME", SIM,
	                  "fail a task that runs TIME (wall clock, with a unit) without yielding (default 60s; 0: off)"},
	[OPT_MAX_MEMORY] = {"max-memory", 0, K_SIZE, "SIZE", SIM | N | K | D,
	                    "refuse a machine whose model needs more memory than SIZE (default: the host's memory)"},
	[OPT_ALLOW_BACKEND_CODE] = {"allow-backend-code", 0, K_FLAG, NULL, R | W | P | K | D,
	                            "accept BACKEND EXECUTES/DECLARES text verbatim and .c skeletons in workload files"},
	[OPT_VERBOSE] = {"verbose", 'v', K_FLAG, NULL, R | W, "show the C compiler command"},
	[OPT_ENGINE] = {"engine", 0, K_CHOICE, "E", R | W,
	                "run .ncptl programs compiled to C (default) or directly from the checked syntax tree "
	                "(doc/engines.md)", choose_engine, "engine", "compiled, direct"},
	[OPT_PLUGIN] = {"plugin", 0, K_LIST, "LIB.so", R | W,
	                "direct engine: a shared library whose functions BACKEND EXECUTES may call "
	                "(needs --allow-backend-code)"},
	[OPT_PLUGIN_HEADER] = {"plugin-header", 0, K_LIST, "H.h", R | W,
	                       "direct engine: the C declarations of the last --plugin's functions"},
	[OPT_RANKS] = {"ranks", 0, K_COUNT, "K", R | W,
	               "split the simulation over K MPI ranks: starts this command under Open MPI's mpirun -np K "
	               "(doc/parallel.md)"},
	[OPT_AST] = {"ast", 0, K_FLAG, NULL, C, "print the syntax tree (doc/ast-format.md) on stdout"},
	[OPT_SYNTAX_ONLY] = {"syntax-only", 0, K_FLAG, NULL, C, "parse only: skip the semantic checks"},
	[OPT_OUTPUT] = {"output", 'o', K_TEXT, "FILE", P | G,
	                "compile: the C file (default FILE.c in the current folder; - for stdout); "
	                "report: the page (default DIR/report.html)"},
	[OPT_GROUPS] = {"groups", 0, K_COUNT, "N", N, "groups of the dragonfly (overrides the system)"},
	[OPT_ROUTERS] = {"routers", 0, K_COUNT, "N", N, "routers per group (overrides the system)"},
	[OPT_NODES] = {"nodes", 0, K_COUNT, "N", N, "nodes per router (overrides the system)"},
	[OPT_GLOBALS] = {"globals", 0, K_COUNT, "N", N, "global links per router (overrides the system)"},
	[OPT_PATTERN] = {"pattern", 0, K_CHOICE, "P", N, "uniform (default), permutation, shift, hotspot or group (group 0 only)",
	                 nb_pattern_parse, "pattern", "uniform, permutation, shift, hotspot, group"},
	[OPT_HOTSPOT_FRAC] = {"hotspot-frac", 0, K_REAL, "F", N, "share of the traffic sent to node 0 (default 0.2)"},
	[OPT_LOAD] = {"load", 0, K_REAL, "F", N, "offered load per node, fraction of terminal bandwidth (default 0.3)"},
	[OPT_SIZE] = {"size", 0, K_SIZE, "SIZE", N, "message size such as 4096 or 4 KiB (default: the packet size)"},
	[OPT_ARRIVAL] = {"arrival", 0, K_CHOICE, "A", N, "inter-arrival times: poisson (default) or constant",
	                 nb_arrival_parse, "arrival", "poisson, constant"},
	[OPT_DURATION] = {"duration", 0, K_TIME, "T", N, "injection stops then (> 0; default 100 us)"},
	[OPT_WARMUP] = {"warmup", 0, K_TIME0, "T", N, "statistics start then (default: duration / 10)"},
	[OPT_CODES_MODE] = {"codes-mode", 0, K_FLAG, NULL, N, "CODES synthetic driver semantics (doc/dragonfly.md)"},
	[OPT_LINKS] = {"links", 0, K_TEXT, "FILE", N, "write per-link statistics as CSV"},
	[OPT_CSV] = {"csv", 0, K_FLAG, NULL, N, "print one CSV line (with a header) instead of the report"},
	[OPT_DESCRIBE] = {"describe", 0, K_FLAG, NULL, R | W | N,
	                  "print the machine and the system-file settings ncsim ignores first"},
	[OPT_STOP_AT_END] = {"stop-at-end", 0, K_FLAG, NULL, N,
	                     "stop at --duration instead of draining (no conservation check)"},
	[OPT_BENCH] = {"bench", 0, K_LIST, "PROGRAM", K | D,
	               "a benchmark: bundled workload (osu-bw), .ncptl or .c; the next options describe it"},
	[OPT_MEASURED] = {"measured", 0, K_LIST, "FILE", K | D,
	                  "measurements of the last --bench: OSU text, coNCePTuaL log or CSV (repeat for trials)"},
	[OPT_BENCH_TASKS] = {"bench-tasks", 0, K_LIST, "N", K | D, "tasks of the last --bench (default 2)"},
	[OPT_BENCH_ARGS] = {"bench-args", 0, K_LIST, "ARGS", K | D, "program options of the last --bench"},
	[OPT_COLUMN] = {"column", 0, K_LIST, "NAME", K | D, "the column of the last --bench's measurements"},
	[OPT_FIT] = {"fit", 0, K_LIST, "KEY=LO:HI[:log]", K,
	             "fit system-file key SECTION.KEY over [LO, HI] (default: the level's documented set)"},
	[OPT_LOSS] = {"loss", 0, K_TEXT, "L", K | D,
	              "mae, mse, rmse, rmsre, rmspe (default), mape, huber(D), maxrel or logratio"},
	[OPT_OPTIMIZER] = {"optimizer", 0, K_TEXT, "O", K,
	                   "tpe (default), random, grid, neldermead, sbplx, bobyqa, crs2, direct-l, esch or isres"},
	[OPT_BUDGET] = {"budget", 0, K_COUNT, "N", K, "evaluations per level (default 200)"},
	[OPT_REFINE] = {"refine", 0, K_TEXT, "ALGO", K,
	                "finish with a local search (sbplx, neldermead, bobyqa) from the best point: the last half"},
	[OPT_BATCH] = {"batch", 0, K_COUNT, "N", K, "points the optimizer proposes at once (default 8; not -j)"},
	[OPT_JOBS] = {"jobs", 'j', K_COUNT, "N", R | W | K | D,
	              "simulations at a time (default 1; run: the --posterior draws)"},
	[OPT_LEVELS] = {"levels", 0, K_TEXT, "LIST", K,
	                "calibrate each network model of LIST (ideal,analytic,dragonfly,hybrid) and pick one"},
	[OPT_TARGET] = {"target", 0, K_REAL, "LOSS", K,
	                "--levels picks the cheapest level whose loss is at most LOSS (default: 1.1 x the best)"},
	[OPT_BAYES] = {"bayes", 0, K_FLAG, NULL, K,
	               "Bayesian calibration: surrogate, posterior samples, Sobol indices (the spec's [bayes])"},
	[OPT_SAMPLES] = {"samples", 0, K_COUNT, "K", R | W | K,
	                 "calibrate --bayes: posterior samples kept (default 100000); run: posterior draws (default 32)"},
	[OPT_DESIGN] = {"design", 0, K_TEXT, "FILE",  K,
	                "calibrate --bayes: reuse the simulator runs of an earlier design.csv (same parameters)"},
	[OPT_POSTERIOR] = {"posterior", 0, K_TEXT, "FILE", R | W,
	                   "run once per draw of a posterior.csv (ncsim calibrate --bayes): figures with 90% intervals"},
};

/* The environment variables each command reads (grep getenv in the sources). */
static const struct opt_env {
	const char *name;
	unsigned cmds;
	const char *help;
} envs[] = {
	{"NCSIM_PATH", SIM | N | K | D, "folders searched for system presets and workload skeletons named without a path"},
	{"XDG_CACHE_HOME", R | W | K | D, "the build cache of compiled programs is $XDG_CACHE_HOME/ncsim"},
	{"HOME", R | W | K | D, "the build cache is $HOME/.cache/ncsim when XDG_CACHE_HOME is unset"},
	{"NCSIM_CC", R | W | K | D, "C compiler that builds programs (default: the one ncsim was configured with)"},
	{"NCSIM_INCLUDE", R | W | K | D, "folder holding ncsim/rt.h for building programs"},
	{"NCPTL_LOG_ONLY", SIM, "ranks that write log files, such as 0,4-7 (default: all)"},
	{"TMPDIR", K | D, "where the runs of an evaluation keep their scratch files (default /tmp)"},
	{"NCSIM_ARENA_DEBUG", R | W | C | P, "1: allocate each syntax-tree node on its own (for ASan, valgrind)"},
	{"PATH", G, "folders searched for gnuplot (the Debian package gnuplot-nox)"},
	{"OMPI_COMM_WORLD_SIZE", N, "set by Open MPI's mpirun: the run is split over its ranks (doc/parallel.md)"},
	{"PMI_SIZE", N, "set by a PMI launcher (srun): the run is split over its ranks"},
};

/* The commands: how each is called, and what it takes besides options. */
static const struct opt_command {
	unsigned cmd;
	const char *usage;  /* a skeleton's starts after "usage: PROGRAM" */
	const char *notes;  /* printed after the options, or NULL */
	int operand;        /* 1: one FILE; 2: an optional FILE; 3: up to two */
	int program_args;   /* 1: `--` starts the program's own options */
} commands[] = {
	{R,
	 "usage: ncsim run FILE.ncptl [options] [-- program options]\n"
	 "       ncsim run SKELETON.c [options] [-- program options]\n"
	 "                              (a skeleton in C ending with NCSIM_SKELETON: ncsim/rt.h)\n"
	 "       ncsim run TRACE.vef [options]   (every task replays an extended VEF trace: doc/traffic.md)\n"
	 "       ncsim run FILE.wkld [options]   (several jobs on one machine: ncsim run FILE.wkld --help)\n"
	 "  Compiles FILE, simulates it and writes the output folder.\n",
	 "  `ncsim run FILE -- --help` lists the program's own options.\n", 1, 1},
	{W,
	 "usage: ncsim run FILE.wkld [options]\n"
	 "  Runs every job of the workload file together on one machine (doc/workloads.md).\n",
	 NULL, 0, 0},
	{S,
	 " [options] [-- program options]\n"
	 "  Simulates this program and writes the output folder.\n",
	 "  `PROGRAM -- --help` lists the program's own options.\n", 0, 1},
	{N,
	 "usage: ncsim netbench [options]\n"
	 "  Synthetic traffic on the packet-level dragonfly: throughput, latency, hops (doc/dragonfly.md).\n"
	 "  --system also reads a CODES dragonfly-dally .conf file.\n",
	 NULL, 0, 0},
	{C,
	 "usage: ncsim check FILE [options]\n"
	 "  Parses and checks FILE and reports errors as file:line:col.\n",
	 NULL, 1, 0},
	{P,
	 "usage: ncsim compile FILE.ncptl [options]\n"
	 "  Translates a coNCePTuaL program into one C file that builds with\n"
	 "  cc OUT.c $(pkg-config --cflags --libs ncsim).\n",
	 NULL, 1, 0},
	{K,
	 "usage: ncsim calibrate SPEC [options]\n"
	 "       ncsim calibrate --bench PROGRAM --measured FILE [--bench ... --measured ...]\n"
	 "                       [--fit SECTION.KEY=LO:HI[:log] ...] [options]\n"
	 "  Fits system-file parameters to measurements by simulating the benchmarks (doc/calibration.md);\n"
	 "  writes calibrated.conf, calibration.json and history.csv into the output folder.\n",
	 "  Options given with a SPEC override its [calibration] settings and add benchmarks and parameters.\n", 2, 0},
	{D,
	 "usage: ncsim predict SYSTEM SPEC [options]\n"
	 "       ncsim predict --system SYSTEM --bench PROGRAM --measured FILE [...] [options]\n"
	 "  Runs every benchmark on SYSTEM and prints simulated against measured figures per point,\n"
	 "  with the loss of each benchmark; the last line is the loss over all of them.\n",
	 NULL, 3, 0},
	{G,
	 "usage: ncsim report DIR... [options]\n"
	 "       ncsim report SWEEP.csv|SWEEP_DIR... [options]\n"
	 "  Draws the figures of finished runs (folders that ncsim run wrote) with gnuplot into one HTML\n"
	 "  page; several DIRs are compared side by side, labelled by their folder names (doc/report.md).\n"
	 "  A netbench sweep (rows of ncsim netbench --csv appended to a file, or folders of --out runs)\n"
	 "  gives its load-latency and throughput curves, one per routing. A study folder (runs/NAME/ of\n"
	 "  run-study.sh, or a folder of run folders) stands for its runs; an ncsim calibrate --out folder\n"
	 "  gives the loss, measured against fitted curves and, with --bayes, posteriors and Sobol indices.\n",
	 "  Each figure's data file and gnuplot script go to the folder beside the page named after it\n"
	 "  (report/ for report.html), with the SVG that gnuplot drew.\n", 0, 0},
};

static const struct opt_command *command(unsigned cmd)
{
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (commands[i].cmd & cmd)
			return &commands[i];
	return &commands[0];
}

int opt_time(const char *s, ncsim_time_t *ps, const char **why) { return units_time(s, OPT_TIME_UNIT, ps, why); }

/* ------------------------------------------------------------------ help */

/* "  -n, --tasks N" or "      --until T", padded to the help column. */
static void help_line(const opt_row *r, FILE *out)
{
	char head[64];
	int n = snprintf(head, sizeof head, "  %c%c%c --%s%s%s", r->letter ? '-' : ' ', r->letter ? r->letter : ' ',
	                 r->letter ? ',' : ' ', r->name, r->arg ? " " : "", r->arg ? r->arg : "");
	if (n < 28)
		fprintf(out, "%-28s%s\n", head, r->help);
	else
		fprintf(out, "%s\n%-28s%s\n", head, "", r->help);
}

void opt_help(unsigned cmd, const char *self, FILE *out)
{
	const struct opt_command *c = command(cmd);
	int times = 0;
	if (c->cmd == S)
		fprintf(out, "usage: %s", self);
	fputs(c->usage, out);
	fputs("options:\n", out);
	for (int id = 0; id < OPT_NIDS; id++)
		if (rows[id].cmds & c->cmd) {
			help_line(&rows[id], out);
			times |= rows[id].kind == K_TIME || rows[id].kind == K_TIME0;
		}
	if (times)
		fputs("  Times are numbers with ps, ns, us (or \xc2\xb5s), ms or s; a plain number is in microseconds.\n", out);
	if (c->cmd == R) {
		/* The options of a workload file that a single program does not take. */
		fputs("  Only for FILE.wkld:", out);
		for (int id = 0; id < OPT_NIDS; id++)
			if ((rows[id].cmds & (R | W)) == W)
				fprintf(out, " --%s", rows[id].name);
		fputc('\n', out);
	}
	if (c->notes)
		fputs(c->notes, out);
	fputs("environment:\n", out);
	for (size_t i = 0; i < sizeof envs / sizeof *envs; i++)
		if (envs[i].cmds & c->cmd)
			fprintf(out, "  %-26s%s\n", envs[i].name, envs[i].help);
}

/* ----------------------------------------------------------------- parser */

/*
 * The row of option a ("--name", "--name=value", "-x", "-xvalue"), or -1;
 * *inline_value points at a value written in the same word.
 */
static int lookup(const char *a, const char **inline_value)
{
	*inline_value = NULL;
	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');
		size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		for (int id = 0; id < OPT_NIDS; id++)
			if (strlen(rows[id].name) == n && !strncmp(rows[id].name, a + 2, n)) {
				*inline_value = eq ? eq + 1 : NULL;
				return id;
			}
		return -1;
	}
	for (int id = 0; id < OPT_NIDS; id++)
		if (rows[id].letter && rows[id].letter == a[1]) {
			*inline_value = a[2] ? a + 2 : NULL;
			return id;
		}
	return -1;
}

/* 1 if the number at the start of v is followed by a unit. */
static int has_unit(const char *v)
{
	double x;
	const char *end;
	if (!units_number(v, &x, &end))
		return 0;
	while (*end == ' ')
		end++;
	return *end != 0;
}

/* Checks and stores the value v of option id. 0, or -1 after a message. */
static int set_value(opt_set *s, int id, const char *v, int order)
{
	const opt_row *r = &rows[id];
	opt_value *x = &s->v[id];
	const char *why = NULL;
	rt_int n = 0;
	*x = (opt_value){.given = order, .text = v};
	switch (r->kind) {
	case K_FLAG:
	case K_TEXT:
		break;
	case K_LIST:
		s->items = xreallocarray(s->items, s->nitems + 1, sizeof *s->items);
		s->items[s->nitems++] = (struct opt_item){(enum opt_id)id, v};
		break;
	case K_UINT:
	case K_COUNT:
		if (prm_parse_int(v, &n) < 0 || n < (r->kind == K_COUNT) || (r->kind == K_COUNT && n > UINT32_MAX))
			why = r->kind == K_COUNT ? "not a positive integer" : "not a non-negative integer";
		x->num = (uint64_t)n;
		break;
	case K_REAL:
		units_double(v, &x->real, &why);
		break;
	case K_SIZE:
		units_size(v, UNITS_BYTES, &x->num, &why);
		break;
	case K_TIME:
	case K_TIME0:
		if (opt_time(v, &x->time, &why) == 0 && x->time == 0 && r->kind == K_TIME)
			why = "must be positive";
		break;
	case K_WALL:
		if (opt_time(v, &x->time, &why) == 0 && x->time != 0 && !has_unit(v))
			why = "needs a unit, such as 60s or 500ms";
		break;
	case K_CHOICE:
		if ((x->choice = r->choose(v)) < 0) {
			fprintf(stderr, "%s: unknown %s '%s' (%s)\n", s->prog, r->what, v, r->choices);
			return -1;
		}
		break;
	}
	if (why) {
		fprintf(stderr, "%s: --%s %s: %s\n", s->prog, r->name, v, why);
		return -1;
	}
	return 0;
}

/* Takes the FILE argument a. 0, or -1 after a message. */
static int take_operand(opt_set *s, const struct opt_command *c, const char *a)
{
	if (c->operand && !s->operand) {
		s->operand = a;
		return 0;
	}
	if (c->operand == 3 && !s->operand2) {
		s->operand2 = a;
		return 0;
	}
	fprintf(stderr, "%s: unexpected argument '%s'%s\n", s->prog, a,
	        c->operand ? c->program_args ? " (one FILE only; program options go after --)" : " (one FILE only)" : "");
	return -1;
}

/* An option word a at argv[*i]: its value is inline or argv[*i + 1]. 0, 1 (help shown) or -1. */
static int take_option(opt_set *s, const struct opt_command *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	int id = lookup(a, &v);
	if (id < 0) {
		fprintf(stderr, "%s: unknown option '%s' (see --help)\n", s->prog, a);
		return -1;
	}
	if (!(rows[id].cmds & c->cmd)) {
		fprintf(stderr, "%s: option --%s does not apply here (see --help)\n", s->prog, rows[id].name);
		return -1;
	}
	if (id == OPT_HELP) {
		opt_help(c->cmd, s->prog, stdout);
		return 1;
	}
	if (rows[id].kind == K_FLAG && v) {
		fprintf(stderr, "%s: option --%s takes no value\n", s->prog, rows[id].name);
		return -1;
	}
	if (rows[id].kind != K_FLAG && !v) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "%s: option --%s needs a value (%s)\n", s->prog, rows[id].name, rows[id].arg);
			return -1;
		}
		v = argv[++*i];
	}
	return set_value(s, id, v, *i + 1);
}

int opt_parse(opt_set *s, unsigned cmd, const char *prog, int argc, char **argv)
{
	const struct opt_command *c = command(cmd);
	*s = (opt_set){.cmd = c->cmd, .prog = prog};
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc;
		if (c->program_args && !strcmp(a, "--")) {
			s->rest_argc = argc - i - 1;
			s->rest_argv = argv + i + 1;
			break;
		}
		rc = a[0] == '-' && a[1] ? take_option(s, c, argc, argv, &i) : take_operand(s, c, a);
		if (rc != 0)
			return rc;
	}
	if (c->operand == 1 && !s->operand) {
		fprintf(stderr, "%s: no FILE given\n", prog);
		opt_help(c->cmd, prog, stderr);
		return -1;
	}
	/* A property of the host, not of one model: every model that sizes a machine reads it. */
	if (opt_given(s, OPT_MAX_MEMORY))
		mem_limit_set(s->v[OPT_MAX_MEMORY].num);
	return 0;
}

int opt_operand(unsigned cmd, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (!strcmp(a, "--"))
			return -1;
		if (a[0] != '-' || !a[1])
			return i;
		int id = lookup(a, &v);
		if (id >= 0 && (rows[id].cmds & cmd) && rows[id].kind != K_FLAG && !v)
			i++; /* its value */
	}
	return -1;
}

void opt_free(opt_set *s)
{
	free(s->items);
	s->items = NULL;
	s->nitems = 0;
	free(s->system_path);
	s->system_path = NULL;
}

/* --------------------------------------------------------- shared meaning */

int opt_system(opt_set *s, const char **path, char **err)
{
	*path = NULL;
	if (!opt_given(s, OPT_SYSTEM))
		return 0;
	if (!s->system_path && !(s->system_path = wl_resolve_system(s->v[OPT_SYSTEM].text, err)))
		return -1;
	*path = s->system_path;
	return 0;
}

int opt_run_settings(opt_set *s, drv_options *o, char **err)
{
	if (opt_system(s, &o->system_path, err) < 0)
		return -1;
	o->network = opt_given(s, OPT_NETWORK) ? drv_network_model(s->v[OPT_NETWORK].text) : NULL;
	o->routing = opt_given(s, OPT_ROUTING) ? s->v[OPT_ROUTING].text : NULL;
	o->seed = opt_given(s, OPT_SEED) ? s->v[OPT_SEED].num : 1;
	o->until = s->v[OPT_UNTIL].time;
	o->stack_size = (size_t)s->v[OPT_STACK_SIZE].num;
	o->io_log = opt_given(s, OPT_IO_LOG);
	o->device_log_max = opt_given(s, OPT_DEVICE_LOG_MAX) ? s->v[OPT_DEVICE_LOG_MAX].num : STO_BUSYLOG_MAX_DEFAULT;
	o->message_log = opt_given(s, OPT_MESSAGE_LOG);
	o->message_log_max = opt_given(s, OPT_MESSAGE_LOG_MAX) ? s->v[OPT_MESSAGE_LOG_MAX].num : TK_MSGLOG_MAX_DEFAULT;
	o->no_wall_time = opt_given(s, OPT_NO_WALL_TIME);
	o->force = opt_given(s, OPT_FORCE);
	o->oversubscribe = opt_given(s, OPT_OVERSUBSCRIBE);
	o->tasks_per_node = opt_given(s, OPT_TASKS_PER_NODE) ? (uint32_t)s->v[OPT_TASKS_PER_NODE].num : 1;
	o->allow_host_access = opt_given(s, OPT_ALLOW_HOST_ACCESS);
	o->watchdog_s = opt_given(s, OPT_WATCHDOG) ? (double)s->v[OPT_WATCHDOG].time / 1e12 : OPT_WATCHDOG_DEFAULT_S;
	/* The later of --progress and --no-progress wins (`given` is the position on the line). */
	int on = s->v[OPT_PROGRESS].given, off = s->v[OPT_NO_PROGRESS].given;
	o->progress = on > off ? SIM_PROGRESS_ON : off > on ? SIM_PROGRESS_OFF : SIM_PROGRESS_AUTO;
	o->codes_root = s->v[OPT_CODES_ROOT].text;
	return opt_given(s, OPT_DESCRIBE) ? netf_describe(o->system_path, o->codes_root, stdout, err) : 0;
}

int opt_out_dir(const opt_set *s, const char *label, drv_outdir *d, char **err)
{
	return drv_outdir_begin(d, opt_given(s, OPT_OUT) ? s->v[OPT_OUT].text : NULL, opt_given(s, OPT_FORCE), label,
	                        err);
}

int opt_input_file(const char *path, const char *what, char **err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		*err = xasprintf("%s: cannot open %s: %s", path, what, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		*err = xasprintf("%s: is a directory, not a %s", path, what);
	else if (!S_ISREG(st.st_mode))
		*err = xasprintf("%s: is not a regular file (a device, a FIFO or a socket), not a %s", path, what);
	else
		return 0;
	return -1;
}

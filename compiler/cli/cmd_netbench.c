/*
 * cmd_netbench.c - `ncsim netbench`: synthetic traffic on the packet-level
 * dragonfly, printing accepted throughput, latency percentiles, hops and the
 * non-minimal fraction.
 *
 * Every node runs a generator entity that injects messages of --size bytes
 * at --load x the terminal bandwidth, with Poisson or constant inter-arrival
 * times, until --duration. The run then drains (every injected message is
 * delivered and the model's conservation check runs); statistics count the
 * messages delivered inside [--warmup, --duration].
 *
 * --codes-mode mirrors CODES' synthetic dragonfly driver: constant interval
 * size / (load x terminal bandwidth), every node's first message one interval
 * after time 0, destination (self + U[1, N-2]) mod N, uniform traffic, and
 * messages still in flight at the end time are not counted.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "runtime/net/dragonfly.h"
#include "runtime/stats/outfile.h"
#include "base/sysconf.h"
#include "base/util.h"

#define NB_UNSET UINT64_MAX

enum pattern { PAT_UNIFORM, PAT_PERMUTATION, PAT_SHIFT, PAT_HOTSPOT };

typedef struct nb_ctx nb_ctx;
typedef struct nb_gen {
	nb_ctx *nb;
	uint32_t node;
	sim_eid self;
} nb_gen;

struct nb_ctx {
	net_model *net;
	uint32_t nnodes, per_group;
	enum pattern pat;
	int poisson, codes;
	double interval_ps;   /* mean inter-arrival time */
	uint64_t size;
	ncsim_time_t end;
	double hot_frac;
	uint32_t *perm;
	nb_gen *gens;
	uint64_t generated;
};

static uint32_t pick_dst(nb_ctx *nb, sim_ctx *ctx, nb_gen *g)
{
	uint32_t N = nb->nnodes, s = g->node;
	if (N < 2)
		return s;
	if (nb->codes) {
		if (N < 3)
			return (s + 1) % N;
		return (uint32_t)((s + 1 + sim_rng_u64(ctx, g->self) % (N - 2)) % N);
	}
	switch (nb->pat) {
	case PAT_PERMUTATION:
		return nb->perm[s];
	case PAT_SHIFT: {
		uint32_t grp = s / nb->per_group, ng = N / nb->per_group;
		uint32_t dg = (grp + 1) % ng;
		return dg * nb->per_group + (uint32_t)(sim_rng_u64(ctx, g->self) % nb->per_group);
	}
	case PAT_HOTSPOT:
		if (s != 0 && sim_rng_unif(ctx, g->self) < nb->hot_frac)
			return 0;
		/* fall through */
	case PAT_UNIFORM:
	default: {
		uint32_t d = (uint32_t)(sim_rng_u64(ctx, g->self) % (N - 1));
		return d >= s ? d + 1 : d;
	}
	}
}

static ncsim_time_t next_gap(nb_ctx *nb, sim_ctx *ctx, nb_gen *g)
{
	double t = nb->poisson ? sim_rng_exp(ctx, g->self, nb->interval_ps) : nb->interval_ps;
	ncsim_time_t r = (ncsim_time_t)(t + 0.5);
	return r ? r : 1;
}

static void on_gen(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ev;
	nb_gen *g = state;
	nb_ctx *nb = g->nb;
	if (sim_now(ctx) > nb->end)
		return;
	net_msg msg = {
		.src_node = g->node,
		.dst_node = pick_dst(nb, ctx, g),
		.bytes = nb->size,
		.tclass = NET_CLASS_SYNTH,
		.notify = SIM_NO_ENTITY,
	};
	net_inject(nb->net, ctx, &msg);
	nb->generated++;
	ncsim_time_t gap = next_gap(nb, ctx, g);
	if (sim_now(ctx) + gap > nb->end)
		return; /* no event after the end: the drained run ends with the network */
	uint8_t z = 0;
	sim_send(ctx, g->self, gap, 0, &z, 1);
}

static void gen_init(sim_ctx *ctx, void *state, sim_eid self)
{
	nb_gen *g = state;
	nb_ctx *nb = g->nb;
	ncsim_time_t first;
	if (nb->codes || !nb->poisson)
		first = nb->codes ? (ncsim_time_t)(nb->interval_ps + 0.5)
		                  : (ncsim_time_t)(sim_rng_unif(ctx, self) * nb->interval_ps); /* random phase */
	else
		first = next_gap(nb, ctx, g);
	uint8_t z = 0;
	sim_send(ctx, self, first, 0, &z, 1);
}

static const sim_handler gen_handlers[1] = {on_gen};
static const sim_type gen_type = {.name = "netbench-gen", .handlers = gen_handlers, .nhandlers = 1, .init = gen_init};

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: ncsim netbench [options]\n"
	        "  --system FILE        native system file or CODES dragonfly-dally .conf\n"
	        "  --groups N --routers N --nodes N --globals N   built-in machine (no --system)\n"
	        "  --routing R          minimal | nonminimal | ugal | par\n"
	        "  --pattern P          uniform | permutation | shift | hotspot   (default uniform)\n"
	        "  --hotspot-frac F     share of traffic sent to node 0 (hotspot; default 0.2)\n"
	        "  --load F             offered load per node, fraction of terminal bandwidth (default 0.3)\n"
	        "  --size SIZE          message size (default: packet size)\n"
	        "  --arrival A          poisson | constant   (default poisson)\n"
	        "  --duration TIME      injection stops then (default 100 us)\n"
	        "  --warmup TIME        statistics start then (default duration / 10)\n"
	        "  --seed N             random seed (default 1)\n"
	        "  --codes-mode         CODES synthetic driver semantics (see doc/dragonfly.md)\n"
	        "  --links FILE         write per-link statistics as CSV\n"
	        "  --csv                print one CSV line (with a header) instead of the report\n"
	        "  --describe           print the machine description first\n"
	        "  --stop-at-end        stop the simulation at --duration instead of draining\n"
	        "                       (for speed benchmarks: the conservation check is skipped)\n");
}

/*
 * Option values are read with the system-file syntax, so `--size 4KiB` and
 * `size = 4KiB` mean the same: the value becomes key `x` of a one-line file.
 * Returns NULL if the text is not a valid value.
 */
static sysconf_t *option_as_conf(const char *s)
{
	char text[128];
	snprintf(text, sizeof text, "x = %s\n", s);
	char *err = NULL;
	sysconf_t *c = sysconf_parse("option", text, &err);
	free(err);
	return c;
}

static int parse_time(const char *s, ncsim_time_t *out)
{
	sysconf_t *c = option_as_conf(s);
	if (!c)
		return -1;
	char *err = NULL;
	int rc = sysconf_time_unit(c, "", "x", 1e6 /* plain numbers are us */, out, &err);
	free(err);
	sysconf_free(c);
	return rc == 1 ? 0 : -1;
}

static int parse_size(const char *s, uint64_t *out)
{
	sysconf_t *c = option_as_conf(s);
	if (!c)
		return -1;
	char *err = NULL;
	int rc = sysconf_size(c, "", "x", out, &err);
	free(err);
	sysconf_free(c);
	return rc == 1 ? 0 : -1;
}

/*
 * Writes the per-link CSV to path through runtime/stats/outfile.h, so a
 * failed or interrupted run leaves no partial file behind. 0, or -1 after
 * a message on stderr.
 */
static int write_links_file(net_model *net, const char *path)
{
	char *err = NULL;
	outfile *f = outfile_open(path, 0, &err);
	if (f && net->ops->write_links(net, outfile_stream(f)) < 0) {
		outfile_abort(f);
		f = NULL;
	}
	if (f && outfile_commit(f, &err) == 0)
		return 0;
	if (err)
		fprintf(stderr, "ncsim netbench: %s\n", err);
	else
		fprintf(stderr, "ncsim netbench: cannot write %s\n", path);
	free(err);
	return -1;
}

int cmd_netbench(int argc, char **argv)
{
	enum {
		O_SYSTEM = 256, O_GROUPS, O_ROUTERS, O_NODES, O_GLOBALS, O_ROUTING, O_PATTERN, O_HOT, O_LOAD, O_SIZE,
		O_ARRIVAL, O_DURATION, O_WARMUP, O_SEED, O_CODES, O_LINKS, O_CSV, O_DESCRIBE, O_HELP, O_STOP
	};
	static const struct option opts[] = {
		{"system", required_argument, 0, O_SYSTEM},   {"groups", required_argument, 0, O_GROUPS},
		{"routers", required_argument, 0, O_ROUTERS}, {"nodes", required_argument, 0, O_NODES},
		{"globals", required_argument, 0, O_GLOBALS}, {"routing", required_argument, 0, O_ROUTING},
		{"pattern", required_argument, 0, O_PATTERN}, {"hotspot-frac", required_argument, 0, O_HOT},
		{"load", required_argument, 0, O_LOAD},       {"size", required_argument, 0, O_SIZE},
		{"arrival", required_argument, 0, O_ARRIVAL}, {"duration", required_argument, 0, O_DURATION},
		{"warmup", required_argument, 0, O_WARMUP},   {"seed", required_argument, 0, O_SEED},
		{"codes-mode", no_argument, 0, O_CODES},      {"links", required_argument, 0, O_LINKS},
		{"csv", no_argument, 0, O_CSV},               {"describe", no_argument, 0, O_DESCRIBE},
		{"help", no_argument, 0, O_HELP},             {"stop-at-end", no_argument, 0, O_STOP},             {0, 0, 0, 0},
	};
	const char *system = NULL, *routing = NULL, *links = NULL;
	long groups = -1, routers = -1, nodes = -1, globals = -1;
	double load = 0.3, hot = 0.2;
	uint64_t size = 0, seed = 1;
	ncsim_time_t duration = 100000000, warmup = NB_UNSET;
	int poisson = 1, codes = 0, csv = 0, describe = 0, stop = 0;
	enum pattern pat = PAT_UNIFORM;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case O_SYSTEM: system = optarg; break;
		case O_GROUPS: groups = strtol(optarg, &end, 10); break;
		case O_ROUTERS: routers = strtol(optarg, &end, 10); break;
		case O_NODES: nodes = strtol(optarg, &end, 10); break;
		case O_GLOBALS: globals = strtol(optarg, &end, 10); break;
		case O_ROUTING:
			routing = optarg;
			if (df_routing_parse(optarg) < 0) {
				fprintf(stderr, "ncsim netbench: unknown routing '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_PATTERN:
			if (!strcmp(optarg, "uniform")) pat = PAT_UNIFORM;
			else if (!strcmp(optarg, "permutation")) pat = PAT_PERMUTATION;
			else if (!strcmp(optarg, "shift") || !strcmp(optarg, "group-shift")) pat = PAT_SHIFT;
			else if (!strcmp(optarg, "hotspot")) pat = PAT_HOTSPOT;
			else {
				fprintf(stderr, "ncsim netbench: unknown pattern '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_HOT: hot = strtod(optarg, &end); break;
		case O_LOAD: load = strtod(optarg, &end); break;
		case O_SIZE:
			if (parse_size(optarg, &size) < 0) {
				fprintf(stderr, "ncsim netbench: bad size '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_ARRIVAL:
			if (!strcmp(optarg, "poisson")) poisson = 1;
			else if (!strcmp(optarg, "constant")) poisson = 0;
			else {
				fprintf(stderr, "ncsim netbench: arrival must be poisson or constant\n");
				return EXIT_USAGE;
			}
			break;
		case O_DURATION:
		case O_WARMUP: {
			ncsim_time_t t;
			if (parse_time(optarg, &t) < 0) {
				fprintf(stderr, "ncsim netbench: bad time '%s'\n", optarg);
				return EXIT_USAGE;
			}
			if (c == O_DURATION)
				duration = t;
			else
				warmup = t;
			break;
		}
		case O_SEED: seed = strtoull(optarg, &end, 10); break;
		case O_CODES: codes = 1; break;
		case O_LINKS: links = optarg; break;
		case O_CSV: csv = 1; break;
		case O_DESCRIBE: describe = 1; break;
		case O_HELP: usage(stdout); return EXIT_OK;
		case O_STOP: stop = 1; break;
		default: usage(stderr); return EXIT_USAGE;
		}
		if (end && *end) {
			fprintf(stderr, "ncsim netbench: bad number '%s'\n", optarg);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ncsim netbench: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!(load > 0) || load > 10 || hot < 0 || hot > 1 || duration == 0) {
		fprintf(stderr, "ncsim netbench: --load must be in (0, 10], --hotspot-frac in [0, 1], --duration > 0\n");
		return EXIT_USAGE;
	}

	df_config cfg;
	char *err = NULL;
	if (system) {
		int rc;
		if (df_is_codes_conf(system))
			rc = df_config_from_codes(&cfg, system, &err);
		else {
			sysconf_t *sc = sysconf_load(system, &err);
			rc = sc ? df_config_from_sysconf(&cfg, sc, &err) : -1;
			if (sc && rc == 0 && sysconf_unused(sc, stderr) > 0) {
				/* Only [network] matters here; other sections belong to other parts of ncsim. */
			}
			sysconf_free(sc);
		}
		if (rc < 0) {
			fprintf(stderr, "ncsim netbench: %s\n", err ? err : "cannot read the system file");
			free(err);
			return EXIT_INPUT;
		}
	} else
		df_config_defaults(&cfg);
	if (groups >= 0) cfg.groups = (uint32_t)groups;
	if (routers >= 0) cfg.routers = (uint32_t)routers;
	if (nodes >= 0) cfg.nodes = (uint32_t)nodes;
	if (globals >= 0) cfg.globals = (uint32_t)globals;
	if (routing)
		cfg.routing = (enum df_routing)df_routing_parse(routing);
	if (!size)
		size = cfg.packet_size;

	sim_ctx *ctx = sim_new(seed);
	sim_set_progress(ctx, SIM_PROGRESS_OFF, 0);
	net_model *net = df_create_config(ctx, &cfg, &err);
	df_config_clear(&cfg);
	if (!net) {
		fprintf(stderr, "ncsim netbench: %s\n", err);
		free(err);
		sim_free(ctx);
		return EXIT_INPUT;
	}
	const df_config *dc = df_get_config(net);
	if (describe)
		df_describe(net, stdout);

	nb_ctx nb = {
		.net = net,
		.nnodes = net->nnodes,
		.per_group = df_nodes_per_group(net),
		.pat = pat,
		.poisson = codes ? 0 : poisson,
		.codes = codes,
		.size = size,
		.end = duration,
		.hot_frac = hot,
	};
	nb.interval_ps = (double)size / (load * dc->bw[DF_TERMINAL]) * 1e12;
	if (nb.interval_ps < 1)
		nb.interval_ps = 1;
	nb.gens = xcalloc(nb.nnodes, sizeof *nb.gens);
	for (uint32_t i = 0; i < nb.nnodes; i++) {
		nb.gens[i].nb = &nb;
		nb.gens[i].node = i;
		nb.gens[i].self = sim_entity_add(ctx, &gen_type, &nb.gens[i]);
	}
	if (pat == PAT_PERMUTATION) {
		/* A random permutation (Fisher-Yates) from generator 0's stream; a node may draw itself. */
		nb.perm = xmalloc(nb.nnodes * sizeof *nb.perm);
		for (uint32_t i = 0; i < nb.nnodes; i++)
			nb.perm[i] = i;
		for (uint32_t i = nb.nnodes - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(sim_rng_u64(ctx, nb.gens[0].self) % (i + 1));
			uint32_t t = nb.perm[i];
			nb.perm[i] = nb.perm[j];
			nb.perm[j] = t;
		}
	}
	if (codes)
		warmup = 0;
	else if (warmup == NB_UNSET)
		warmup = duration / 10;
	if (warmup >= duration)
		warmup = 0;
	df_set_window(net, warmup, duration);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = sim_run(ctx, stop ? duration : SIM_FOREVER);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	const sim_stats *ks = sim_get_stats(ctx);
	int status = EXIT_OK;
	if (rc < 0 || (!stop && net->ops->check(net, stderr) < 0)) {
		fprintf(stderr, "ncsim netbench: the network failed its end-of-run checks\n");
		status = EXIT_INPUT;
	}
	const df_stats *st = df_get_stats(net);
	const df_class_stats *cs = &st->cls[NET_CLASS_SYNTH];
	double window = (double)(duration - warmup) / 1e12;
	double accepted = (double)cs->bytes / (window * nb.nnodes * dc->bw[DF_TERMINAL]);
	double mean_lat = cs->msgs ? cs->lat_sum / (double)cs->msgs / 1e6 : 0;
	double hops = cs->msgs ? (double)cs->hops / (double)cs->msgs : 0;
	double nonmin = cs->msgs ? (double)cs->nonminimal / (double)cs->msgs : 0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double rss_mib = (double)ru.ru_maxrss / 1024.0;
	static const char *const pname[] = {"uniform", "permutation", "shift", "hotspot"};
	if (csv) {
		printf("routing,pattern,offered,accepted,msgs,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us,hops,"
		       "nonmin,events,wall_s,events_per_s,rss_mib\n");
		printf("%s,%s,%.4f,%.4f,%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%" PRIu64 ",%.3f,%.0f,%.1f\n",
		       df_routing_name(dc->routing), codes ? "codes" : pname[pat], load, accepted, cs->msgs, mean_lat,
		       (double)df_hist_quantile(&cs->lat, 0.5) / 1e6, (double)df_hist_quantile(&cs->lat, 0.9) / 1e6,
		       (double)df_hist_quantile(&cs->lat, 0.99) / 1e6, (double)cs->lat_max / 1e6, hops, nonmin,
		       ks->events, wall, wall > 0 ? (double)ks->events / wall : 0, rss_mib);
	} else {
		printf("netbench: %u nodes, routing %s, pattern %s, %s arrivals, message %" PRIu64 " B\n", nb.nnodes,
		       df_routing_name(dc->routing), codes ? "codes (self + U[1,N-2])" : pname[pat],
		       nb.poisson ? "poisson" : "constant", size);
		printf("  offered load        %.4f of terminal bandwidth (%.3f GiB/s per node)\n", load,
		       load * dc->bw[DF_TERMINAL] / 1073741824.0);
		printf("  accepted throughput %.4f of terminal bandwidth (%.3f GiB/s per node)\n", accepted,
		       accepted * dc->bw[DF_TERMINAL] / 1073741824.0);
		printf("  window              %.3f us .. %.3f us; %" PRIu64 " messages generated, %" PRIu64 " counted\n",
		       (double)warmup / 1e6, (double)duration / 1e6, nb.generated, cs->msgs);
		printf("  latency (us)        mean %.3f  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", mean_lat,
		       (double)df_hist_quantile(&cs->lat, 0.5) / 1e6, (double)df_hist_quantile(&cs->lat, 0.9) / 1e6,
		       (double)df_hist_quantile(&cs->lat, 0.99) / 1e6, (double)cs->lat_max / 1e6);
		printf("  hops                mean %.3f router-to-router; non-minimal %.2f%%\n", hops, 100 * nonmin);
		printf("  simulated end       %.3f us (%s)\n", (double)ks->end_time / 1e6,
		       stop ? "stopped at the end time; no conservation check" : "drained and checked");
		printf("  events              %" PRIu64 " in %.3f s wall (%.0f events/s), peak RSS %.1f MiB\n",
		       ks->events, wall, wall > 0 ? (double)ks->events / wall : 0, rss_mib);
	}
	if (links && write_links_file(net, links) < 0)
		status = EXIT_USAGE;
	free(nb.perm);
	net_destroy(net);
	sim_free(ctx);
	free(nb.gens);
	return status;
}

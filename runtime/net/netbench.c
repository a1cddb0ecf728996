/*
 * netbench.c - synthetic traffic on the packet-level dragonfly (see netbench.h).
 */
#include "runtime/net/netbench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly.h"
#include "base/util.h"

typedef struct nb_ctx nb_ctx;
typedef struct nb_gen {
	nb_ctx *nb;
	uint32_t node;
	sim_eid self;
} nb_gen;

struct nb_ctx {
	net_model *net;
	uint32_t nnodes, per_group;
	enum nb_pattern pat;
	int poisson, codes;
	double interval_ps;   /* mean inter-arrival time */
	uint64_t size;
	ncsim_time_t end;
	double hot_frac;
	uint32_t *perm;
	nb_gen *gens;
	uint64_t generated;
	int refused;          /* a message the network did not accept: the run fails */
	uint32_t refused_src, refused_dst;
	ncsim_time_t refused_at;
};

int nb_pattern_parse(const char *s)
{
	if (!strcmp(s, "uniform"))
		return NB_UNIFORM;
	if (!strcmp(s, "permutation"))
		return NB_PERMUTATION;
	if (!strcmp(s, "shift") || !strcmp(s, "group-shift"))
		return NB_SHIFT;
	if (!strcmp(s, "hotspot"))
		return NB_HOTSPOT;
	if (!strcmp(s, "group"))
		return NB_GROUP;
	return -1;
}

int nb_arrival_parse(const char *s) { return !strcmp(s, "poisson") ? 1 : !strcmp(s, "constant") ? 0 : -1; }

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
	case NB_PERMUTATION:
		return nb->perm[s];
	case NB_SHIFT: {
		uint32_t grp = s / nb->per_group, ng = N / nb->per_group;
		uint32_t dg = (grp + 1) % ng;
		return dg * nb->per_group + (uint32_t)(sim_rng_u64(ctx, g->self) % nb->per_group);
	}
	case NB_GROUP: {
		uint32_t n = nb->per_group < N ? nb->per_group : N, d = (uint32_t)(sim_rng_u64(ctx, g->self) % (n - 1));
		return d >= s ? d + 1 : d;
	}
	case NB_HOTSPOT:
		if (s != 0 && sim_rng_unif(ctx, g->self) < nb->hot_frac)
			return 0;
		/* fall through */
	case NB_UNIFORM:
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
	if (net_inject(nb->net, ctx, &msg) < 0) {
		/* Stop at once: carrying on would end in a drain check that blames the network. */
		nb->refused = 1;
		nb->refused_src = msg.src_node;
		nb->refused_dst = msg.dst_node;
		nb->refused_at = sim_now(ctx);
		sim_stop(ctx, 1);
		return;
	}
	nb->generated++;
	ncsim_time_t gap = next_gap(nb, ctx, g);
	if (sim_now(ctx) + gap > nb->end)
		return; /* no event after the end: the drained run ends with the network */
	uint8_t z = 0;
	sim_send(ctx, g->self, gap, 0, &z, 1);
}

/* 1 if node's generator injects under the run's pattern. */
static int sends(const nb_ctx *nb, uint32_t node)
{
	return nb->codes || nb->pat != NB_GROUP || (node < nb->per_group && nb->per_group > 1);
}

static void gen_init(sim_ctx *ctx, void *state, sim_eid self)
{
	nb_gen *g = state;
	nb_ctx *nb = g->nb;
	if (!sends(nb, g->node))
		return;
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

/* The dragonfly configuration of sys or of a CODES file. 0, or -1 with *err. */
static int load_config(df_config *cfg, const sysconf_t *sys, const char *codes_path, char **err)
{
	if (codes_path)
		return df_config_from_codes(cfg, codes_path, err);
	const char *model = "analytic"; /* the system-file default (netfactory.h) */
	if (sysconf_string(sys, "network", "model", &model, err) < 0)
		return -1;
	if (strcmp(model, "dragonfly") && strcmp(model, "hybrid")) {
		df_config_defaults(cfg);
		*err = xasprintf("netbench needs a dragonfly system file (this one has model = %s)", model);
		return -1;
	}
	return df_config_from_sysconf(cfg, sys, err);
}

net_model *nb_network(sim_ctx *ctx, const sysconf_t *sys, const char *codes_path, const nb_shape *shape,
                      int routing, char **err)
{
	df_config cfg;
	if (load_config(&cfg, sys, codes_path, err) < 0) {
		df_config_clear(&cfg);
		return NULL;
	}
	if (shape && shape->groups)
		cfg.groups = shape->groups;
	if (shape && shape->routers)
		cfg.routers = shape->routers;
	if (shape && shape->nodes)
		cfg.nodes = shape->nodes;
	if (shape && shape->globals)
		cfg.globals = shape->globals;
	if (routing >= 0)
		cfg.routing = (enum df_routing)routing;
	net_model *net = df_create_config(ctx, &cfg, err);
	df_config_clear(&cfg);
	return net;
}

int nb_check(const nb_params *p, char **err)
{
	if (!(p->load > 0) || p->load > 10 || p->hot_frac < 0 || p->hot_frac > 1 || p->duration == 0) {
		*err = xasprintf("--load must be in (0, 10], --hotspot-frac in [0, 1], --duration > 0");
		return -1;
	}
	return 0;
}

/* A random permutation (Fisher-Yates) from generator 0's stream; a node may draw itself. */
static uint32_t *permutation(sim_ctx *ctx, const nb_ctx *nb)
{
	uint32_t *perm = xmalloc(nb->nnodes * sizeof *perm);
	for (uint32_t i = 0; i < nb->nnodes; i++)
		perm[i] = i;
	for (uint32_t i = nb->nnodes - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(sim_rng_u64(ctx, nb->gens[0].self) % (i + 1));
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	return perm;
}

/* The statistics window [warmup, duration]: none for CODES, a tenth of the run by default. */
static ncsim_time_t window_start(const nb_params *p)
{
	ncsim_time_t w = p->codes ? 0 : p->warmup == NB_WARMUP_DEFAULT ? p->duration / 10 : p->warmup;
	return w >= p->duration ? 0 : w;
}

/* Splits the run over the MPI ranks (see nb_run): the partition, the lookahead, the dragonfly's side. NULL after a message. */
static par_run *split(sim_ctx *ctx, net_model *net, const nb_ctx *nb, FILE *err)
{
	df_partition part;
	char *e = NULL;
	par_run *pr = NULL;
	/* The expected load: every node that injects (df_partition_groups adds the transit share). */
	double *w = xmalloc(nb->nnodes * sizeof *w);
	for (uint32_t i = 0; i < nb->nnodes; i++)
		w[i] = sends(nb, i);
	int rc = df_partition_groups(net, par_size(), w, &part, &e);
	free(w);
	if (rc == 0) {
		sim_eid n = sim_entity_count(ctx);
		uint32_t *owner = xcalloc(n, sizeof *owner);
		df_partition_owner(net, &part, owner);
		for (uint32_t i = 0; i < nb->nnodes; i++)
			owner[nb->gens[i].self] = df_partition_rank_of_node(net, &part, i);
		/* Every packet is a whole packet_size one but the last of a message (size mod packet_size). */
		uint32_t ps = df_get_config(net)->packet_size, tail = (uint32_t)(nb->size % ps);
		ncsim_time_t la = df_lookahead(net, tail ? tail : ps);
		if (par_rank() == 0) {
			df_partition_print(net, &part, err);
			fprintf(err, "lookahead: %.3f ns (the least delay over a global link, packet or credit)\n", (double)la / 1e3);
		}
		pr = par_attach(ctx, owner, n, la, &e);
		if (pr && df_par_attach(net, pr, &part, NET_CLASS_SYNTH, &e) < 0) {
			par_detach(pr);
			pr = NULL;
		}
		free(owner);
	}
	df_partition_clear(&part);
	if (!pr && par_rank() == 0)
		fprintf(err, "ncsim netbench: %s\n", e);
	free(e);
	return pr;
}

/* After a split run: the generators' counts of every rank, and the refusal that came first. */
static void gather_counts(nb_ctx *nb)
{
	uint64_t v[4] = {nb->generated, nb->refused, 0, 0};
	uint64_t first = par_max_u64(nb->refused ? ~nb->refused_at : 0); /* the earliest refusal: max of ~time */
	int mine = nb->refused && first != 0 && ~nb->refused_at == first;
	v[2] = mine ? nb->refused_src : 0;
	v[3] = mine ? nb->refused_dst : 0;
	par_sum_u64s(v, 4);
	nb->generated = v[0];
	nb->refused = v[1] != 0;
	if (nb->refused) {
		nb->refused_at = ~first;
		nb->refused_src = (uint32_t)v[2];
		nb->refused_dst = (uint32_t)v[3];
	}
}

/* The model's end-of-run check; over several ranks rank 0 speaks and every rank learns whether any failed. */
static int check_net(net_model *net, int split_run, FILE *err)
{
	if (!split_run)
		return net->ops->check(net, err);
	FILE *out = par_rank() == 0 ? err : fopen("/dev/null", "w");
	int bad = net->ops->check(net, out ? out : err) < 0;
	if (out && out != err)
		fclose(out);
	return par_max_u64((uint64_t)bad) ? -1 : 0;
}

int nb_run(sim_ctx *ctx, net_model *net, const nb_params *p, nb_result *r, FILE *err)
{
	const df_config *dc = df_get_config(net);
	nb_ctx nb = {
		.net = net,
		.nnodes = net->nnodes,
		.per_group = df_nodes_per_group(net),
		.pat = p->pattern,
		.poisson = p->codes ? 0 : p->poisson,
		.codes = p->codes,
		.size = p->size ? p->size : dc->packet_size,
		.end = p->duration,
		.hot_frac = p->hot_frac,
	};
	nb.interval_ps = (double)nb.size / (p->load * dc->bw[DF_TERMINAL]) * 1e12;
	if (nb.interval_ps < 1)
		nb.interval_ps = 1;
	nb.gens = xcalloc(nb.nnodes, sizeof *nb.gens);
	for (uint32_t i = 0; i < nb.nnodes; i++) {
		nb.gens[i].nb = &nb;
		nb.gens[i].node = i;
		nb.gens[i].self = sim_entity_add(ctx, &gen_type, &nb.gens[i]);
	}
	if (p->pattern == NB_PERMUTATION)
		nb.perm = permutation(ctx, &nb);
	*r = (nb_result){.nnodes = nb.nnodes, .size = nb.size, .warmup = window_start(p)};
	df_set_window(net, r->warmup, p->duration);
	par_run *pr = NULL;
	if (par_size() > 1 && !(pr = split(ctx, net, &nb, err))) {
		free(nb.perm);
		free(nb.gens);
		return 2;
	}

	int rc = sim_run(ctx, p->until ? p->until : SIM_FOREVER);
	if (pr) {
		if (df_par_finish(net) < 0)
			rc = -1;
		gather_counts(&nb);
		r->par = *par_get_stats(pr);
		par_detach(pr);
	}
	const sim_stats *ks = sim_get_stats(ctx);
	r->generated = nb.generated;
	r->stopped = ks->stopped_at_until;
	r->events = ks->events;
	r->end_time = ks->end_time;
	int status = 0;
	int speak = par_rank() == 0;
	if (nb.refused) {
		if (speak)
			fprintf(err, "ncsim netbench: the network refused a message from node %" PRIu32 " to node %" PRIu32
			             " at %.3f us; the run stops there\n", nb.refused_src, nb.refused_dst,
			        (double)nb.refused_at / 1e6);
		status = 1;
	} else if (rc < 0 || (!r->stopped && check_net(net, pr != NULL, err) < 0)) {
		if (speak)
			fprintf(err, "ncsim netbench: the network failed its end-of-run checks\n");
		status = 1;
	}
	free(nb.perm);
	free(nb.gens);
	return status;
}

void nb_print(net_model *net, const nb_params *p, const nb_result *r, int csv, FILE *out)
{
	static const char *const pname[] = {"uniform", "permutation", "shift", "hotspot", "group"};
	const df_config *dc = df_get_config(net);
	const df_class_stats *cs = &df_get_stats(net)->cls[NET_CLASS_SYNTH];
	double window = (double)(p->duration - r->warmup) / 1e12;
	double accepted = (double)cs->bytes / (window * r->nnodes * dc->bw[DF_TERMINAL]);
	double mean_lat = cs->msgs ? cs->lat_sum / (double)cs->msgs / 1e6 : 0;
	double hops = cs->msgs ? (double)cs->hops / (double)cs->msgs : 0;
	double nonmin = cs->msgs ? (double)cs->nonminimal / (double)cs->msgs : 0;
	double q50 = (double)lh_quantile(&cs->lat, 0.5) / 1e6, q90 = (double)lh_quantile(&cs->lat, 0.9) / 1e6;
	double q99 = (double)lh_quantile(&cs->lat, 0.99) / 1e6, qmax = (double)cs->lat_max / 1e6;
	double evs = r->wall_s > 0 ? (double)r->events / r->wall_s : 0;
	if (csv) {
		fprintf(out, "routing,pattern,offered,accepted,msgs,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us,"
		             "hops,nonmin,events,wall_s,events_per_s,rss_mib\n");
		fprintf(out, "%s,%s,%.4f,%.4f,%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%" PRIu64 ",%.3f,%.0f,%.1f\n",
		        df_routing_name(dc->routing), p->codes ? "codes" : pname[p->pattern], p->load, accepted, cs->msgs,
		        mean_lat, q50, q90, q99, qmax, hops, nonmin, r->events, r->wall_s, evs, r->rss_mib);
		return;
	}
	fprintf(out, "netbench: %u nodes, routing %s, pattern %s, %s arrivals, message %" PRIu64 " B\n", r->nnodes,
	        df_routing_name(dc->routing), p->codes ? "codes (self + U[1,N-2])" : pname[p->pattern],
	        p->poisson && !p->codes ? "poisson" : "constant", r->size);
	fprintf(out, "  offered load        %.4f of terminal bandwidth (%.3f GiB/s per node)\n", p->load,
	        p->load * dc->bw[DF_TERMINAL] / 1073741824.0);
	fprintf(out, "  accepted throughput %.4f of terminal bandwidth (%.3f GiB/s per node)\n", accepted,
	        accepted * dc->bw[DF_TERMINAL] / 1073741824.0);
	fprintf(out, "  window              %.3f us .. %.3f us; %" PRIu64 " messages generated, %" PRIu64 " counted\n",
	        (double)r->warmup / 1e6, (double)p->duration / 1e6, r->generated, cs->msgs);
	fprintf(out, "  latency (us)        mean %.3f  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", mean_lat, q50, q90,
	        q99, qmax);
	fprintf(out, "  hops                mean %.3f router-to-router; non-minimal %.2f%%\n", hops, 100 * nonmin);
	if (p->codes && cs->msgs)
		fprintf(out, "  routers visited     mean %.3f (the hop count of CODES' reports)\n", hops + 1);
	fprintf(out, "  simulated end       %.3f us (%s)\n", (double)r->end_time / 1e6,
	        r->stopped ? "stopped at the end time; no conservation check" : "drained and checked");
	fprintf(out, "  events              %" PRIu64 " in %.3f s wall (%.0f events/s), peak RSS %.1f MiB\n", r->events,
	        r->wall_s, evs, r->rss_mib);
}

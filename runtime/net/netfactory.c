/*
 * netfactory.c - network model selection from a system file (see netfactory.h).
 */
#include "runtime/net/netfactory.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/analytic.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/flow.h"
#include "runtime/net/hybrid.h"
#include "runtime/net/ideal.h"
#include "base/memlimit.h"
#include "base/util.h"

/*
 * Node count of the file's own topology, or min_nodes when it has none. A
 * dragonfly file also gives its nodes per router and per group in geo, so
 * that storage and placement see the same machine at the ideal and analytic
 * levels as at the packet level (burst buffers per group, groups of a job).
 */
static int file_nodes(const sysconf_t *c, const char *model, uint32_t min_nodes, uint32_t *out, uint32_t geo[2],
                      char **err)
{
	geo[0] = geo[1] = 0;
	if (model && (!strcmp(model, "dragonfly") || !strcmp(model, "hybrid") || !strcmp(model, "flow"))) {
		df_config cfg;
		int rc = df_config_from_sysconf(&cfg, c, err);
		*out = cfg.groups * cfg.routers * cfg.nodes;
		geo[0] = cfg.nodes;
		geo[1] = cfg.routers * cfg.nodes;
		df_config_clear(&cfg);
		return rc;
	}
	int64_t n = min_nodes ? min_nodes : 1;
	if (sysconf_int(c, "network", "nodes", &n, err) < 0)
		return -1;
	if (n < 1 || n > UINT32_MAX) {
		*err = xasprintf("%s: nodes must be between 1 and %" PRIu32, sysconf_where(c, "network", "nodes"), UINT32_MAX);
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

/* The ideal or analytic machine of nnodes nodes must fit the memory limit. */
static int check_memory(const sysconf_t *c, const char *want, uint32_t nnodes, char **err)
{
	uint64_t need = (uint64_t)nnodes * MEM_NODE_OVERHEAD + (strcmp(want, "ideal") ? an_memory_bytes(nnodes) : 0);
	char what[96];
	snprintf(what, sizeof what, "the %s network of %" PRIu32 " nodes", want, nnodes);
	return mem_limit_check(need, sysconf_where(c, "network", "nodes"), what, err);
}

/* The analytic parameters of the file: 0, or -1 with *err naming the key at fault. */
static int analytic_params(const sysconf_t *c, uint32_t nnodes, an_params *p, char **err)
{
	an_params_default(p);
	p->nnodes = nnodes;
	if (sysconf_time(c, "network", "latency", &p->latency, err) < 0 ||
	    sysconf_bandwidth(c, "network", "bandwidth", &p->bandwidth, err) < 0 ||
	    sysconf_bandwidth(c, "network", "injection_bandwidth", &p->inj_bandwidth, err) < 0)
		return -1;
	if (!(p->bandwidth > 0) || !(p->inj_bandwidth > 0)) {
		const char *key = !(p->bandwidth > 0) ? "bandwidth" : "injection_bandwidth";
		*err = xasprintf("%s: [network] %s must be positive (analytic network)", sysconf_where(c, "network", key), key);
		return -1;
	}
	return 0;
}

/* The dragonfly of the file, packet or flow level (its tiny-flow limit `tiny`), with the routing override applied. */
static net_model *make_dragonfly(sim_ctx *ctx, const sysconf_t *c, const char *routing, int flow, ncsim_time_t tiny,
                                 char **err)
{
	if (!routing && !flow)
		return df_create(ctx, c, NULL, err);
	int r = routing ? df_routing_parse(routing) : 0;
	if (r < 0) {
		*err = xasprintf("unknown routing '%s' (minimal, nonminimal, ugal, par)", routing);
		return NULL;
	}
	df_config cfg;
	if (df_config_from_sysconf(&cfg, c, err) < 0) {
		df_config_clear(&cfg);
		return NULL;
	}
	if (routing)
		cfg.routing = (enum df_routing)r;
	net_model *m = flow ? fl_create_config(ctx, &cfg, err) : df_create_config(ctx, &cfg, err);
	df_config_clear(&cfg);
	if (m && flow)
		fl_set_tiny(m, tiny);
	return m;
}

/* One half of the hybrid network: the packet or flow model, or NULL for an analytic half (*err stays NULL). */
static net_model *make_half(sim_ctx *ctx, const sysconf_t *c, enum hy_half h, const char *routing, ncsim_time_t tiny,
                            char **err)
{
	return h == HY_ANALYTIC ? NULL : make_dragonfly(ctx, c, routing, h == HY_FLOW, tiny, err);
}

/* The hybrid network of the file's dragonfly, its halves as `hy` says, both routed alike. */
static net_model *make_hybrid(sim_ctx *ctx, const sysconf_t *c, const hy_spec *hy, const char *routing,
                              ncsim_time_t tiny, char **err)
{
	*err = NULL;
	net_model *small = make_half(ctx, c, hy->small, routing, tiny, err);
	if (*err)
		return NULL;
	net_model *large = make_half(ctx, c, hy->large, routing, tiny, err);
	if (*err) {
		net_destroy(small);
		return NULL;
	}
	return hy_create(ctx, hy, small, large, err);
}

net_model *netf_create_routed(sim_ctx *ctx, const sysconf_t *c, const char *override, const char *routing,
                              uint32_t min_nodes, char **err)
{
	const char *model = "analytic";
	if (sysconf_string(c, "network", "model", &model, err) < 0)
		return NULL;
	const char *want = override ? override : model;
	if (!strcmp(want, "packet"))
		want = "dragonfly";
	int file_df = !strcmp(model, "dragonfly") || !strcmp(model, "hybrid") || !strcmp(model, "flow");
	/* A dragonfly file may run as the hybrid network: its hybrid keys are checked (and known) whichever runs. */
	hy_spec hy;
	if (file_df && hy_spec_read(c, &hy, err) < 0)
		return NULL;
	/* Likewise the flow level's tiny-flow limit (doc/dragonfly.md, "Tiny flows"). */
	ncsim_time_t tiny = FL_TINY_DEFAULT;
	if (file_df && sysconf_time(c, "network", "flow_tiny", &tiny, err) < 0)
		return NULL;
	int flow = !strcmp(want, "flow");
	if (!strcmp(want, "dragonfly") || !strcmp(want, "hybrid") || flow) {
		if (!file_df) {
			*err = xasprintf("the %s network needs a dragonfly system file (this one has model = %s)",
			                 flow ? "flow-level" : !strcmp(want, "hybrid") ? "hybrid" : "packet-level", model);
			return NULL;
		}
		if (strcmp(want, "hybrid"))
			return make_dragonfly(ctx, c, routing, flow, tiny, err);
		return make_hybrid(ctx, c, &hy, routing, tiny, err);
	}
	if (strcmp(want, "ideal") && strcmp(want, "analytic")) {
		*err = override ? xasprintf("unknown network model '%s' (ideal, analytic, packet, hybrid, flow)", override)
		                : xasprintf("%s: unknown network model '%s' (ideal, analytic, dragonfly, hybrid, flow)",
		                            sysconf_where(c, "network", "model"), model);
		return NULL;
	}
	if (routing) {
		*err = xasprintf("a routing algorithm needs a packet-level network (this run uses the %s model)", want);
		return NULL;
	}
	uint32_t nnodes, geo[2];
	if (file_nodes(c, model, min_nodes, &nnodes, geo, err) < 0 || check_memory(c, want, nnodes, err) < 0)
		return NULL;
	/* A file may run as the ideal network: its analytic keys are checked (and known) either way. */
	an_params p;
	if (analytic_params(c, nnodes, &p, err) < 0)
		return NULL;
	net_model *m = !strcmp(want, "ideal") ? ideal_create(nnodes) : an_create(ctx, &p);
	if (m) {
		m->per_router = geo[0];
		m->per_group = geo[1];
	}
	return m;
}

net_model *netf_create(sim_ctx *ctx, const sysconf_t *c, const char *override, uint32_t min_nodes, char **err)
{
	return netf_create_routed(ctx, c, override, NULL, min_nodes, err);
}

int netf_is_ideal(const net_model *m) { return ideal_is(m); }

int netf_is_codes(const char *path) { return path && df_is_codes_conf(path); }

/*
 * The codes-store server as [storage] keys: each request is pulled from its
 * client in thread_buf_sz chunks, req_threads at a time, with 128-byte
 * requests, pull requests and acks; every chunk goes to the disk at the
 * chunk's offset in the request (object 0 from offset 0, whence the seeks
 * between interleaved requests); the drain to external storage starts at
 * bb_threshold bytes, which no run of these files reaches.
 */
static void write_store_server(const df_codes_info *info, FILE *out)
{
	fprintf(out, "device = codes-lsm\nblock_size = %.0f\nthreads = %u\ncontrol_bytes = 128\ndrain = no\n"
	        "addressing = zero\n", info->store.block, info->store.threads);
}

/* The lsm disk of every server: one FIFO disk, rate + overhead per chunk, a seek unless contiguous. */
static void write_store_disk(const df_codes_info *info, FILE *out)
{
	fprintf(out, "\n[lsm.codes-lsm]\nbandwidth = %.17g MiB/s\noverhead = %.17g us\nseek = %.17g us\n"
	        "seek_window = 512\ncapacity = %.0f\n", info->store.mib_s, info->store.overhead_us,
	        info->store.seek_us, info->store.capacity);
}

/*
 * [storage] for the burst-buffer nodes of a CODES file, in server order.
 * When workload LPs fill the other terminals (MFNetSim), client k writes to
 * server k / (clients / servers) and an allocation file's id k is client k:
 * bb_route = block and [placement] alloc_ids = compute-nodes say the same.
 */
static void write_storage(const df_codes_info *info, FILE *out)
{
	fprintf(out, "[storage]\nconfig = compute-side\nbb_nodes = ");
	for (uint32_t i = 0; i < info->nbb; i++)
		fprintf(out, "%s%u", i ? ", " : "", info->bb_nodes[i]);
	fprintf(out, "\n");
	write_store_server(info, out);
	if (info->clients_fill)
		fprintf(out, "bb_route = block\n\n[placement]\nalloc_ids = compute-nodes\n");
	write_store_disk(info, out);
}

/*
 * [mpi] and [collectives] of MFNetSim's workload client, for a CODES file
 * whose client LPs fill the compute terminals: every message is one eager
 * message of its payload alone (no header, no credits, no copy on arrival),
 * entering the NIC 10 ns + 2.5 us + 1 us after its post plus 0.55 ns per
 * byte, off the CPU; collectives follow MPICH's rules.
 */
static void write_client_mpi(FILE *out)
{
	fprintf(out, "\n[mpi]\nprotocol = eager\nheader_bytes = 0\ncredits = 0\nmemory_bandwidth = 0\n"
	        "call_overhead = 0\nsend_delay = 3.51 us\nsend_delay_per_byte = 0.55 ns\n"
	        "\n[collectives]\nselector = mpich\n");
}

/* The native system-file text of a CODES file (heap), its notes in *notes (heap) if notes. NULL with *err. */
static char *codes_text(const char *path, const char *root, char **notes, char **err)
{
	df_config c;
	df_codes_info info;
	if (df_codes_read(&c, path, root, &info, err) < 0)
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out) {
		*err = xasprintf("%s: cannot translate it: out of memory", path);
	} else {
		df_config_write(&c, out);
		if (info.nbb)
			write_storage(&info, out);
		if (info.clients_fill)
			write_client_mpi(out);
		fclose(out);
	}
	if (notes) {
		*notes = info.notes;
		info.notes = NULL;
	}
	df_codes_info_clear(&info);
	df_config_clear(&c);
	return text;
}

sysconf_t *netf_codes_system(const char *path, const char *root, char **err)
{
	char *text = codes_text(path, root, NULL, err);
	if (!text)
		return NULL;
	char *name = xasprintf("%s (read as a native system)", path);
	sysconf_t *sc = sysconf_parse(name, text, err);
	free(name);
	free(text);
	return sc;
}

int netf_describe(const char *path, const char *root, FILE *out, char **err)
{
	if (!netf_is_codes(path)) {
		fprintf(out, "# system: %s (an ncsim system file, read as written)\n", path ? path : "the built-in system");
		return 0;
	}
	char *notes = NULL, *text = codes_text(path, root, &notes, err);
	if (!text)
		return -1;
	fprintf(out, "# %s: a CODES dragonfly-dally configuration, run as this ncsim system:\n%s", path, text);
	fprintf(out, "# Settings of %s that ncsim ignores or approximates%s\n", path, notes && *notes ? ":" : ": none");
	for (const char *l = notes; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		fprintf(out, "#   %.*s\n", (int)n, l);
		l += n + (e != NULL);
	}
	free(notes);
	free(text);
	fflush(out); /* before the run's own messages on stderr */
	return 0;
}

net_model *netf_dragonfly_of(net_model *m)
{
	if (df_is_dragonfly(m))
		return m;
	return hy_is(m) ? hy_dragonfly(m) : NULL;
}

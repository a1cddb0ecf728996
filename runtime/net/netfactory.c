/*
 * netfactory.c - network model selection from a system file (see netfactory.h).
 */
#include "runtime/net/netfactory.h"

#include <inttypes.h>
#include <string.h>

#include "runtime/net/analytic.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/ideal.h"
#include "runtime/util.h"

/* Node count of the file's own topology, or min_nodes when it has none. */
static int file_nodes(const sysconf_t *c, const char *model, uint32_t min_nodes, uint32_t *out, char **err)
{
	if (model && !strcmp(model, "dragonfly")) {
		df_config cfg;
		int rc = df_config_from_sysconf(&cfg, c, err);
		*out = cfg.groups * cfg.routers * cfg.nodes;
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

static net_model *make_analytic(sim_ctx *ctx, const sysconf_t *c, uint32_t nnodes, char **err)
{
	an_params p;
	an_params_default(&p);
	p.nnodes = nnodes;
	if (sysconf_time(c, "network", "latency", &p.latency, err) < 0 ||
	    sysconf_bandwidth(c, "network", "bandwidth", &p.bandwidth, err) < 0 ||
	    sysconf_bandwidth(c, "network", "injection_bandwidth", &p.inj_bandwidth, err) < 0)
		return NULL;
	if (p.bandwidth <= 0 || p.inj_bandwidth <= 0) {
		*err = xasprintf("[network]: analytic bandwidths must be positive");
		return NULL;
	}
	return an_create(ctx, &p);
}

net_model *netf_create(sim_ctx *ctx, const sysconf_t *c, const char *override, uint32_t min_nodes, char **err)
{
	const char *model = "analytic";
	if (sysconf_string(c, "network", "model", &model, err) < 0)
		return NULL;
	const char *want = override ? override : model;
	if (!strcmp(want, "packet"))
		want = "dragonfly";
	if (!strcmp(want, "dragonfly")) {
		if (strcmp(model, "dragonfly")) {
			*err = xasprintf("the packet-level network needs a dragonfly system file (this one has model = %s)", model);
			return NULL;
		}
		return df_create(ctx, c, NULL, err);
	}
	if (strcmp(want, "ideal") && strcmp(want, "analytic")) {
		*err = override ? xasprintf("unknown network model '%s' (ideal, analytic, packet)", override)
		                : xasprintf("%s: unknown network model '%s' (ideal, analytic, dragonfly)",
		                            sysconf_where(c, "network", "model"), model);
		return NULL;
	}
	uint32_t nnodes;
	if (file_nodes(c, model, min_nodes, &nnodes, err) < 0)
		return NULL;
	if (!strcmp(want, "ideal"))
		return ideal_create(nnodes);
	return make_analytic(ctx, c, nnodes, err);
}

int netf_is_ideal(const net_model *m) { return ideal_is(m); }

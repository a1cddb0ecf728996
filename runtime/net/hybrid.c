/*
 * hybrid.c - one model below a size threshold, another at or above it (see hybrid.h).
 */
#include "runtime/net/hybrid.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/analytic.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/flow.h"
#include "base/util.h"

typedef struct hy_model {
	net_model base;
	net_model *small, *large;
	uint64_t threshold;
} hy_model;

static net_model *half(hy_model *m, uint64_t bytes) { return bytes < m->threshold ? m->small : m->large; }

static int hy_inject(net_model *base, sim_ctx *ctx, const net_msg *msg)
{
	hy_model *m = (hy_model *)base;
	int rc = net_inject(half(m, msg->bytes), ctx, msg);
	if (rc < 0)
		return rc;
	base->totals.msgs_injected[msg->tclass]++;
	base->totals.bytes_injected[msg->tclass] += msg->bytes;
	return 0;
}

static ncsim_time_t hy_estimate(net_model *base, uint32_t src, uint32_t dst, uint64_t bytes)
{
	net_model *h = half((hy_model *)base, bytes);
	return h->ops->estimate(h, src, dst, bytes);
}

/* Delivered totals are the two halves' sums. */
static void sum_delivered(hy_model *m)
{
	for (int c = 0; c < NET_NCLASSES; c++) {
		m->base.totals.msgs_delivered[c] = m->small->totals.msgs_delivered[c] + m->large->totals.msgs_delivered[c];
		m->base.totals.bytes_delivered[c] = m->small->totals.bytes_delivered[c] + m->large->totals.bytes_delivered[c];
	}
}

static int hy_check(net_model *base, FILE *err)
{
	hy_model *m = (hy_model *)base;
	sum_delivered(m);
	int rc = 0;
	if (m->large->ops->check && m->large->ops->check(m->large, err) < 0)
		rc = -1;
	if (m->small->ops->check && m->small->ops->check(m->small, err) < 0)
		rc = -1;
	return rc;
}

/* 1 if h is a packet or flow half (it has links of the dragonfly). */
static int has_links(const net_model *h) { return df_is_dragonfly(h) || fl_is_flow(h); }

static int hy_write_links(net_model *base, FILE *out)
{
	hy_model *m = (hy_model *)base;
	sum_delivered(m);
	net_model *h = has_links(m->large) ? m->large : m->small;
	return h->ops->write_links ? h->ops->write_links(h, out) : 0;
}

/* The same half as links.csv: the bytes of the other half never cross those links. */
static int hy_write_links_by_class(net_model *base, FILE *out)
{
	hy_model *m = (hy_model *)base;
	net_model *h = has_links(m->large) ? m->large : m->small;
	return h->ops->write_links_by_class ? h->ops->write_links_by_class(h, out) : 0;
}

static void hy_destroy(net_model *base)
{
	hy_model *m = (hy_model *)base;
	net_destroy(m->small);
	net_destroy(m->large);
	free(m);
}

static const net_ops hy_ops = {
	.name = "hybrid",
	.inject = hy_inject,
	.estimate = hy_estimate,
	.check = hy_check,
	.write_links = hy_write_links,
	.write_links_by_class = hy_write_links_by_class,
	.destroy = hy_destroy,
};

static const char *const half_names[] = {[HY_ANALYTIC] = "analytic", [HY_PACKET] = "packet", [HY_FLOW] = "flow"};

/* One of the keys hybrid_small / hybrid_large (*given: 1 if the file sets it): 0, or -1 with *err at its line. */
static int read_half(const sysconf_t *c, const char *key, enum hy_half *out, int *given, char **err)
{
	const char *v = NULL;
	if (sysconf_string(c, "network", key, &v, err) < 0)
		return -1;
	*given = v != NULL;
	if (!v)
		return 0;
	for (int h = 0; h < 3; h++)
		if (!strcmp(v, half_names[h]) || (h == HY_PACKET && !strcmp(v, "dragonfly"))) {
			*out = (enum hy_half)h;
			return 0;
		}
	*err = xasprintf("%s: [network] %s must be analytic, packet or flow (not '%s')", sysconf_where(c, "network", key),
	                 key, v);
	return -1;
}

int hy_spec_read(const sysconf_t *c, hy_spec *s, char **err)
{
	*s = (hy_spec){.threshold = HY_DEFAULT_THRESHOLD, .small = HY_ANALYTIC, .large = HY_PACKET};
	int small_given, large_given;
	if (sysconf_size(c, "network", "hybrid_threshold", &s->threshold, err) < 0 ||
	    read_half(c, "hybrid_small", &s->small, &small_given, err) < 0 ||
	    read_half(c, "hybrid_large", &s->large, &large_given, err) < 0)
		return -1;
	if (s->small == s->large) {
		const char *key = large_given ? "hybrid_large" : "hybrid_small";
		*err = xasprintf("%s: [network] hybrid_small and hybrid_large are both %s: the two halves must differ",
		                 sysconf_where(c, "network", key), half_names[s->small]);
		return -1;
	}
	return 0;
}

/* Zero-load latency of the minimal dragonfly path (no serialization: 0 bytes). */
static ncsim_time_t path_latency(void *ctx, uint32_t src, uint32_t dst)
{
	net_model *df = ctx;
	return df->ops->estimate(df, src, dst, 0);
}

/* The analytic half over the packet or flow model `net`: its path latencies, terminal and slowest bandwidths. */
static net_model *analytic_over(sim_ctx *ctx, net_model *net)
{
	const df_config *dc = df_is_dragonfly(net) ? df_get_config(net) : fl_get_config(net);
	an_params p;
	an_params_default(&p);
	p.nnodes = net->nnodes;
	p.inj_bandwidth = dc->bw[DF_TERMINAL];
	p.bandwidth = dc->bw[DF_TERMINAL];
	for (int k = 0; k < DF_NCLASSES; k++)
		if (dc->bw[k] < p.bandwidth)
			p.bandwidth = dc->bw[k];
	p.latency_of = path_latency;
	p.latency_ctx = net;
	return an_create(ctx, &p);
}

net_model *hy_create(sim_ctx *ctx, const hy_spec *s, net_model *small, net_model *large, char **err)
{
	if ((!small && !large) || (small && !has_links(small)) || (large && !has_links(large))) {
		*err = xstrdup("internal error: a hybrid network needs a packet or flow half");
		net_destroy(small);
		net_destroy(large);
		return NULL;
	}
	hy_model *m = xcalloc(1, sizeof *m);
	m->base.ops = &hy_ops;
	m->small = small ? small : analytic_over(ctx, large);
	m->large = large ? large : analytic_over(ctx, small);
	m->base.nnodes = m->large->nnodes;
	/* The analytic half has no shape: take it from the half that simulates the dragonfly. */
	const net_model *df = small ? small : large;
	m->base.per_router = df->per_router;
	m->base.per_group = df->per_group;
	m->threshold = s->threshold;
	return &m->base;
}

int hy_is(const net_model *m) { return m && m->ops == &hy_ops; }

net_model *hy_dragonfly(const net_model *m)
{
	const hy_model *h = (const hy_model *)m;
	return df_is_dragonfly(h->large) ? h->large : df_is_dragonfly(h->small) ? h->small : NULL;
}

net_model *hy_half_for(const net_model *m, uint64_t bytes) { return half((hy_model *)m, bytes); }

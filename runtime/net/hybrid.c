/*
 * hybrid.c - analytic below a size threshold, packet-level dragonfly above (see hybrid.h).
 */
#include "runtime/net/hybrid.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/net/analytic.h"
#include "runtime/net/dragonfly.h"
#include "base/util.h"

typedef struct hy_model {
	net_model base;
	net_model *df, *an;
	uint64_t threshold;
} hy_model;

static net_model *half(hy_model *m, uint64_t bytes) { return bytes < m->threshold ? m->an : m->df; }

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
		m->base.totals.msgs_delivered[c] = m->df->totals.msgs_delivered[c] + m->an->totals.msgs_delivered[c];
		m->base.totals.bytes_delivered[c] = m->df->totals.bytes_delivered[c] + m->an->totals.bytes_delivered[c];
	}
}

static int hy_check(net_model *base, FILE *err)
{
	hy_model *m = (hy_model *)base;
	sum_delivered(m);
	int rc = m->df->ops->check ? m->df->ops->check(m->df, err) : 0;
	if (m->an->ops->check(m->an, err) < 0)
		rc = -1;
	return rc;
}

static int hy_write_links(net_model *base, FILE *out)
{
	hy_model *m = (hy_model *)base;
	sum_delivered(m);
	return m->df->ops->write_links ? m->df->ops->write_links(m->df, out) : 0;
}

static void hy_destroy(net_model *base)
{
	hy_model *m = (hy_model *)base;
	net_destroy(m->df);
	net_destroy(m->an);
	free(m);
}

static const net_ops hy_ops = {
	.name = "hybrid",
	.inject = hy_inject,
	.estimate = hy_estimate,
	.check = hy_check,
	.write_links = hy_write_links,
	.destroy = hy_destroy,
};

/* Zero-load latency of the minimal dragonfly path (no serialization: 0 bytes). */
static ncsim_time_t path_latency(void *ctx, uint32_t src, uint32_t dst)
{
	net_model *df = ctx;
	return df->ops->estimate(df, src, dst, 0);
}

net_model *hy_create(sim_ctx *ctx, const sysconf_t *c, net_model *df, char **err)
{
	uint64_t threshold = HY_DEFAULT_THRESHOLD;
	if (sysconf_size(c, "network", "hybrid_threshold", &threshold, err) < 0) {
		net_destroy(df);
		return NULL;
	}
	const df_config *dc = df_get_config(df);
	an_params p;
	an_params_default(&p);
	p.nnodes = df->nnodes;
	p.inj_bandwidth = dc->bw[DF_TERMINAL];
	p.bandwidth = dc->bw[DF_TERMINAL];
	for (int k = 0; k < DF_NCLASSES; k++)
		if (dc->bw[k] < p.bandwidth)
			p.bandwidth = dc->bw[k];
	p.latency_of = path_latency;
	p.latency_ctx = df;
	hy_model *m = xcalloc(1, sizeof *m);
	m->base.ops = &hy_ops;
	m->base.nnodes = df->nnodes;
	m->df = df;
	m->an = an_create(ctx, &p);
	m->threshold = threshold;
	return &m->base;
}

int hy_is(const net_model *m) { return m && m->ops == &hy_ops; }
net_model *hy_dragonfly(const net_model *m) { return ((const hy_model *)m)->df; }

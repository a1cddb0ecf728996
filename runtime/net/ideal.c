/*
 * ideal.c - the ideal network: zero delay (see ideal.h).
 */
#include "runtime/net/ideal.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/util.h"

static int ideal_inject(net_model *m, sim_ctx *ctx, const net_msg *msg)
{
	if (msg->src_node >= m->nnodes || msg->dst_node >= m->nnodes || msg->tclass >= NET_NCLASSES)
		return NET_EBADNODE;
	sim_event *ev = sim_event_new(ctx, msg->notify, 0, msg->notify_kind);
	*SIM_PAYLOAD(ev, net_delivery) = (net_delivery){
		.cookie = msg->cookie, .cookie2 = msg->cookie2, .bytes = msg->bytes,
		.src_node = msg->src_node, .dst_node = msg->dst_node,
		.inject_time = sim_now(ctx), .tclass = msg->tclass,
	};
	sim_schedule(ctx, ev);
	if (msg->want_sent)
		net_send_sent(ctx, msg->sent_to, msg->notify_kind, 0, msg->cookie, msg->cookie2, msg->bytes, msg->src_node,
		              msg->dst_node, msg->tclass);
	/* Delivery is certain and immediate: both totals move together. */
	m->totals.msgs_injected[msg->tclass]++;
	m->totals.bytes_injected[msg->tclass] += msg->bytes;
	m->totals.msgs_delivered[msg->tclass]++;
	m->totals.bytes_delivered[msg->tclass] += msg->bytes;
	return 0;
}

static ncsim_time_t ideal_estimate(net_model *m, uint32_t src, uint32_t dst, uint64_t bytes) { return 0; }

static int ideal_check(net_model *m, FILE *err) { return 0; }

static void ideal_destroy(net_model *m) { free(m); }

static const net_ops ideal_ops = {
	.name = "ideal",
	.inject = ideal_inject,
	.estimate = ideal_estimate,
	.check = ideal_check,
	.write_links = NULL,
	.destroy = ideal_destroy,
};

net_model *ideal_create(uint32_t nnodes)
{
	net_model *m = xcalloc(1, sizeof *m);
	m->ops = &ideal_ops;
	m->nnodes = nnodes;
	m->uniform = 1;
	return m;
}

int ideal_is(const net_model *m) { return m && m->ops == &ideal_ops; }

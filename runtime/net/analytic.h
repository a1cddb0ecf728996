/*
 * analytic.h - the analytic network (prefix an_): latency + bytes/bandwidth,
 * with serialization at the endpoints and no contention inside the network.
 *
 * Each node has an injection port and an ejection port; each serves one
 * message at a time, in FIFO order:
 *
 *   src node                                   dst node
 *   [injection port] --- latency ---> [ejection port] ---> delivery
 *    start s = max(now, inj_free)      e = max(s + latency, ej_free)
 *    busy bytes/injection_bw           busy bytes/bandwidth
 *
 * A message is delivered at max(e + bytes/bandwidth, s + bytes/injection_bw
 * + latency): cut-through, so an idle path costs latency + bytes/bandwidth
 * when the injection port is the faster one. Messages from N senders to one
 * node therefore finish N * bytes/bandwidth after the first arrives.
 *
 * The injection port is updated directly by inject (it belongs to the
 * sending node, where inject runs); the ejection port is an entity per node
 * that receives an ARRIVE event, so arrivals are served in time order.
 */
#ifndef NCSIM_NET_ANALYTIC_H
#define NCSIM_NET_ANALYTIC_H

#include "runtime/net/net.h"

typedef struct an_params {
	uint32_t nnodes;
	ncsim_time_t latency;  /* end to end, ps */
	double bandwidth;      /* link and ejection, bytes/s */
	double inj_bandwidth;  /* injection port, bytes/s */
	/* Optional per-pair latency (replaces `latency`), e.g. the hybrid model's dragonfly path latency. */
	ncsim_time_t (*latency_of)(void *ctx, uint32_t src, uint32_t dst);
	void *latency_ctx;
} an_params;

/* Defaults: 3 hops of 100 ns, 12.47 GB/s links, 13.04 GB/s injection (Omni-Path calibration). */
void an_params_default(an_params *p);
/* Registers one port entity per node in ctx and returns the model. */
/* Bytes an_create allocates for nnodes nodes. */
uint64_t an_memory_bytes(uint32_t nnodes);
net_model *an_create(sim_ctx *ctx, const an_params *p);
/* 1 if m is an analytic network. */
int an_is(const net_model *m);

#endif

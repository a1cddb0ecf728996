/*
 * hybrid.h - the hybrid network (prefix hy_): messages below a size threshold
 * take one model (the small half), the others another (the large half).
 *
 *   [network]
 *   model = hybrid
 *   hybrid_threshold = 64 KiB      # messages of fewer bytes take the small half
 *   hybrid_small = analytic        # analytic, packet or flow
 *   hybrid_large = packet          # packet, flow or analytic (not the small half's)
 *   ... every dragonfly key (doc/dragonfly.md) ...
 *
 * Both halves are built from the same dragonfly description. The analytic
 * half takes, for each pair of nodes, the zero-load latency of the minimal
 * dragonfly path (router delays and link latencies), serializes messages at
 * the endpoints at the terminal bandwidth and moves them at the slowest link
 * bandwidth, without contention inside the network. The packet and flow
 * halves are the models of dragonfly.h and flow.h, each with its own links:
 * neither sees the other's traffic. links.csv shows the large half's links
 * when it is a packet or flow half, else the small half's; summary totals
 * count both halves. doc/dragonfly.md ("Hybrid combinations") says more.
 */
#ifndef NCSIM_NET_HYBRID_H
#define NCSIM_NET_HYBRID_H

#include "runtime/net/net.h"
#include "base/sysconf.h"

/* Default threshold between the two halves, bytes. */
#define HY_DEFAULT_THRESHOLD ((uint64_t)64 * 1024)

/* What runs one half of the hybrid network. */
enum hy_half { HY_ANALYTIC, HY_PACKET, HY_FLOW };

/* The hybrid keys of [network]. */
typedef struct hy_spec {
	uint64_t threshold;
	enum hy_half small, large;
} hy_spec;

/* Reads hybrid_threshold, hybrid_small and hybrid_large (defaults: 64 KiB, analytic, packet). -1 with *err at file:line. */
int hy_spec_read(const sysconf_t *c, hy_spec *s, char **err);
/*
 * Builds the hybrid network of s over its halves (taken over, destroyed on
 * failure): small and large are the packet or flow models of those halves,
 * NULL for an analytic half, which is derived from the other one.
 */
net_model *hy_create(sim_ctx *ctx, const hy_spec *s, net_model *small, net_model *large, char **err);
/* 1 if m is a hybrid network. */
int hy_is(const net_model *m);
/* The packet-level half of a hybrid network, NULL if neither half is. */
net_model *hy_dragonfly(const net_model *m);
/* The half that carries messages of `bytes` bytes. */
net_model *hy_half_for(const net_model *m, uint64_t bytes);

#endif

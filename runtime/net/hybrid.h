/*
 * hybrid.h - the hybrid network (prefix hy_): the analytic model for
 * messages below a size threshold, the packet-level dragonfly at or above it.
 *
 *   [network]
 *   model = hybrid
 *   hybrid_threshold = 64 KiB      # messages of fewer bytes take the analytic path
 *   ... every dragonfly key (doc/dragonfly.md) ...
 *
 * Both halves are built from the same dragonfly description: the analytic
 * half takes, for each pair of nodes, the zero-load latency of the minimal
 * dragonfly path (router delays and link latencies), serializes messages at
 * the endpoints at the terminal bandwidth and moves them at the slowest link
 * bandwidth, without contention inside the network. Small messages (MPI
 * headers, control, barriers) thus cost one event each, while bulk transfers
 * see packets, routing and congestion. links.csv shows the packet-level
 * traffic only; summary totals count both halves.
 */
#ifndef NCSIM_NET_HYBRID_H
#define NCSIM_NET_HYBRID_H

#include "runtime/net/net.h"
#include "base/sysconf.h"

/* Default threshold between the two halves, bytes. */
#define HY_DEFAULT_THRESHOLD ((uint64_t)64 * 1024)

/* Builds the hybrid model around an existing dragonfly `df` (taken over). NULL with *err on a bad key. */
net_model *hy_create(sim_ctx *ctx, const sysconf_t *c, net_model *df, char **err);
/* 1 if m is a hybrid network. */
int hy_is(const net_model *m);
/* The packet-level half of a hybrid network. */
net_model *hy_dragonfly(const net_model *m);

#endif

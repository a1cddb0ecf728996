/*
 * netfactory.h - builds the network model a system file asks for (prefix netf_).
 *
 *   [network]
 *   model = ideal | analytic | dragonfly | hybrid
 *   nodes = 64                      # ideal, analytic: default = the number of tasks
 *   latency = 300 ns                # analytic (end to end)
 *   bandwidth = 12.47 GB/s          # analytic: links and ejection ports
 *   injection_bandwidth = 13.04 GB/s  # analytic: injection ports
 *
 * The dragonfly reads its own keys (doc/dragonfly.md); hybrid reads those
 * and hybrid_threshold (runtime/net/hybrid.h). An override (the --network
 * option: ideal, analytic, packet, dragonfly or hybrid) replaces the model of
 * the file; the node count then still comes from the file's topology.
 */
#ifndef NCSIM_NETFACTORY_H
#define NCSIM_NETFACTORY_H

#include "runtime/net/net.h"
#include "base/sysconf.h"

/*
 * Creates the model on ctx. `override` (NULL: none) names a model; min_nodes
 * is the node count used when the file gives none. NULL with *err on error.
 */
net_model *netf_create(sim_ctx *ctx, const sysconf_t *c, const char *override, uint32_t min_nodes, char **err);
/*
 * As netf_create; `routing` (NULL: the file's) replaces the dragonfly's
 * routing algorithm, and is an error for models without one.
 */
net_model *netf_create_routed(sim_ctx *ctx, const sysconf_t *c, const char *override, const char *routing,
                              uint32_t min_nodes, char **err);
/* The packet-level dragonfly of m (m itself, or the packet half of a hybrid), or NULL. */
net_model *netf_dragonfly_of(net_model *m);
/* 1 if m is the ideal network (software costs are then zero too). */
int netf_is_ideal(const net_model *m);

#endif

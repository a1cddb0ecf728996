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

#include <stdio.h>

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
/* 1 if path is a CODES dragonfly-dally configuration file rather than a native system file. */
int netf_is_codes(const char *path);
/*
 * The native system a CODES dragonfly-dally file describes: [network] with
 * CODES' semantics, and [storage] with burst-buffer nodes where MFNetSim's
 * codes-store LPs sit. root (NULL: none) is the folder that path
 * placeholders such as [path-to-experiment] stand for (doc/dragonfly.md).
 * NULL with *err ("file:line: ...").
 */
sysconf_t *netf_codes_system(const char *path, const char *root, char **err);
/*
 * Describes the system file path on out: for a CODES file the native system
 * it runs as and every setting ncsim ignores or approximates, with its
 * file:line; for a native file (or NULL, the built-in system) one line. 0, or
 * -1 with *err.
 */
int netf_describe(const char *path, const char *root, FILE *out, char **err);
/* The packet-level dragonfly of m (m itself, or the packet half of a hybrid), or NULL. */
net_model *netf_dragonfly_of(net_model *m);
/* 1 if m is the ideal network (software costs are then zero too). */
int netf_is_ideal(const net_model *m);

#endif

/*
 * flow.h - the flow-level dragonfly network model (prefix fl_).
 *
 * Same topology, parameters and routes as the packet-level model
 * (dragonfly.h), but a message is one flow along its route instead of a train
 * of packets: the links of the route share their bandwidth among the flows
 * crossing them by max-min fairness, recomputed when a flow starts or ends.
 * doc/dragonfly.md ("Flow level") describes it.
 */
#ifndef NCSIM_FLOW_H
#define NCSIM_FLOW_H

#include <stdint.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/net.h"

/* Bytes the model allocates up front for the machine of c (flows grow with the traffic). */
uint64_t fl_memory_bytes(const df_config *c);
/* Builds the model from a filled configuration (copied); checks the memory limit first. NULL with *err. */
net_model *fl_create_config(sim_ctx *ctx, const df_config *c, char **err);
/* The dragonfly description of a flow-level model. */
const df_config *fl_get_config(const net_model *m);
/* 1 if m is a flow-level model. */
int fl_is_flow(const net_model *m);
/* For tests: exact != 0 turns the fast paths off (every change recomputes its whole component, every flow shares). */
void fl_set_exact(net_model *m, int exact);
/*
 * Flows whose bytes take less than ps at their slowest link's bandwidth skip
 * the sharing (0: none); [network] flow_tiny in the system file sets it.
 */
#define FL_TINY_DEFAULT ((ncsim_time_t)50000) /* 50 ns: MPI headers, RDMA requests and acks */
void fl_set_tiny(net_model *m, ncsim_time_t ps);

#endif

/*
 * netbench.h - synthetic traffic on the packet-level dragonfly, the engine of
 * `ncsim netbench` (prefix nb_): accepted throughput, latency percentiles,
 * hops and the non-minimal fraction of uniform, permutation, group-shift or
 * hotspot traffic.
 *
 *     net_model *net = nb_network(ctx, sys, NULL, &shape, DF_ROUTE_UGAL, &err);
 *     nb_result r;
 *     int rc = nb_run(ctx, net, &params, &r, stderr);   0 ok, 1 failed run
 *     nb_print(net, &params, &r, 0, stdout);
 *
 * Every node runs a generator entity that injects messages of `size` bytes
 * at `load` x the terminal bandwidth, with Poisson or constant inter-arrival
 * times, until `duration`. The run then drains (every injected message is
 * delivered and the model's conservation check runs) unless `until` stops it
 * first; statistics count the messages delivered inside [warmup, duration].
 *
 * `codes` mirrors CODES' synthetic dragonfly driver: constant interval
 * size / (load x terminal bandwidth), every node's first message one interval
 * after time 0, destination (self + U[1, N-2]) mod N, uniform traffic, and
 * messages still in flight at the end time are not counted.
 */
#ifndef NCSIM_NETBENCH_H
#define NCSIM_NETBENCH_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/kernel/par.h"
#include "runtime/kernel/sim.h"
#include "runtime/net/net.h"
#include "base/sysconf.h"

/* NB_GROUP: the nodes of group 0 send to the other nodes of group 0, the others send nothing (a load confined to one group). */
enum nb_pattern { NB_UNIFORM, NB_PERMUTATION, NB_SHIFT, NB_HOTSPOT, NB_GROUP };

/* The warmup that means "a tenth of the duration". */
#define NB_WARMUP_DEFAULT UINT64_MAX

typedef struct nb_params {
	enum nb_pattern pattern;
	double load;            /* offered load per node, fraction of the terminal bandwidth, in (0, 10] */
	double hot_frac;        /* share of the traffic sent to node 0 (NB_HOTSPOT), in [0, 1] */
	uint64_t size;          /* message bytes; 0: the packet size */
	int poisson;            /* 1: exponential inter-arrival times, 0: constant */
	int codes;              /* CODES synthetic-driver semantics (overrides pattern and arrivals) */
	ncsim_time_t duration;  /* injection stops then (> 0) */
	ncsim_time_t warmup;    /* statistics start then; NB_WARMUP_DEFAULT: duration / 10 */
	ncsim_time_t until;     /* the simulation stops then; 0: it drains */
} nb_params;

/* Geometry overrides of the system's dragonfly; 0 keeps the system's value. */
typedef struct nb_shape {
	uint32_t groups, routers, nodes, globals;
} nb_shape;

/* What a run measured (nb_run fills it; wall_s and rss_mib are the caller's). */
typedef struct nb_result {
	uint32_t nnodes;
	uint64_t size;             /* message bytes (the packet size when nb_params.size is 0) */
	uint64_t generated;        /* messages injected */
	ncsim_time_t warmup;       /* the window actually used */
	int stopped;               /* 1 if `until` stopped the run before the network drained */
	uint64_t events;
	ncsim_time_t end_time;
	double wall_s, rss_mib;
	par_stats par;             /* windows of a run over several MPI ranks (par.ranks 0: one rank) */
} nb_result;

/* The pattern named s (uniform, permutation, shift or group-shift, hotspot, group), or -1. */
int nb_pattern_parse(const char *s);
/* 1 for "poisson", 0 for "constant", -1 otherwise. */
int nb_arrival_parse(const char *s);
/*
 * Builds the dragonfly of a system on ctx: the CODES dragonfly-dally file
 * codes_path when it is not NULL, else [network] of sys, whose model must be
 * a dragonfly (or hybrid: its packet half). shape (may be NULL) and routing
 * (an enum df_routing; -1: the system's) override it. NULL with *err (heap).
 */
net_model *nb_network(sim_ctx *ctx, const sysconf_t *sys, const char *codes_path, const nb_shape *shape,
                      int routing, char **err);
/* Checks p (load, hotspot share, duration). 0, or -1 with *err (heap). */
int nb_check(const nb_params *p, char **err);
/*
 * Runs the traffic of p on net (a dragonfly built on ctx) and fills r.
 * Returns 0, or 1 for a failed run (a message the network refused, the
 * end-of-run checks) with the reason on err, or 2 when the machine cannot
 * be split over the ranks (more ranks than groups). Under mpirun with several
 * ranks every rank calls it: the groups are split over the ranks
 * (df_partition_groups weighted by the nodes that inject, generators with
 * their node) and the results, the same on every rank, are those of the
 * sequential run; only rank 0 writes on err (the partition, messages).
 */
int nb_run(sim_ctx *ctx, net_model *net, const nb_params *p, nb_result *r, FILE *err);
/* Prints the report of a run (csv: a header line and one row) on out. */
void nb_print(net_model *net, const nb_params *p, const nb_result *r, int csv, FILE *out);

#endif

/*
 * dragonfly.h - the packet-level 1-D dragonfly network model (prefix df_).
 *
 * g groups of a routers (all-to-all local links inside a group), p nodes per
 * router, h global links per router. Node n sits on router n / p; router r is
 * router r % a of group r / a. Messages are cut into packets that cross the
 * network with virtual-cut-through switching, per-class virtual channels and
 * credit-based flow control. doc/dragonfly.md describes the model and its
 * system-file keys.
 */
#ifndef NCSIM_DRAGONFLY_H
#define NCSIM_DRAGONFLY_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/net/net.h"
#include "base/hist.h"
#include "base/sysconf.h"

/* Link classes; also the `kind` column of links.csv. */
enum df_class { DF_TERMINAL = 0, DF_LOCAL, DF_GLOBAL, DF_NCLASSES };

enum df_routing {
	DF_ROUTE_MINIMAL = 0, /* shortest path: at most one global hop */
	DF_ROUTE_VALIANT,     /* always through a random intermediate group (router, inside a group) */
	DF_ROUTE_UGAL,        /* UGAL-L: choose at the source router from local queue occupancy */
	DF_ROUTE_PAR,         /* progressive adaptive: may divert at any router of the source group */
};

/*
 * Semantics that CODES' dragonfly-dally model and ncsim's native model choose
 * differently; each is a [network] key (doc/dragonfly.md, "Semantics"), and a
 * CODES file selects the CODES column of all of them.
 */
enum df_credit_return {
	DF_CREDIT_TAIL = 0, /* a packet holds its input buffer until its tail leaves the router */
	DF_CREDIT_ACCEPT,   /* the buffer comes back when the packet enters an output VC (CODES) */
};
enum df_vc_rule {
	DF_VC_SLOTS = 0, /* six hop slots: 4 VCs on local ports, 2 on global, 1 on terminal */
	DF_VC_CODES,     /* by group and position: 4 VCs on every port (CODES) */
};
enum df_rules {
	DF_RULES_NCSIM = 0, /* ncsim's non-minimal, UGAL and PAR decisions (ugal_bias) */
	DF_RULES_CODES,     /* CODES' decisions (adaptive_threshold, route_scoring, global_k_picks) */
};
enum df_scoring { DF_SCORE_DELTA = 0, DF_SCORE_ALPHA }; /* CODES: delta doubles the non-minimal score */

/* How the global links of the built-in topologies are laid out (doc/dragonfly.md). */
enum df_arrangement { DF_ARR_ABSOLUTE = 0, DF_ARR_RELATIVE, DF_ARR_FILE };

/* Everything that describes one dragonfly; units: bytes, bytes/s, ps. */
typedef struct df_config {
	uint32_t groups, routers, nodes, globals; /* g, a (routers per group), p (nodes per router), h */
	double bw[DF_NCLASSES];                   /* link bandwidth per class */
	ncsim_time_t latency[DF_NCLASSES];        /* propagation delay per class */
	ncsim_time_t credit_delay[DF_NCLASSES];   /* time for a credit to reach the upstream port */
	uint64_t vc_size[DF_NCLASSES];            /* buffer bytes per virtual channel, per class */
	ncsim_time_t router_delay;                /* per-hop pipeline delay of a router */
	int router_delay_blocks_port;             /* 1: router_delay also occupies the output port per chunk */
	int router_delay_on_exit;                 /* 1: charged as a packet leaves a router, 0: as it enters one */
	enum df_credit_return credit_return;
	enum df_vc_rule vc_rule;
	enum df_rules rules;
	enum df_scoring scoring;
	uint64_t adaptive_threshold;              /* CODES rules: stay minimal while the minimal score is at most this */
	uint32_t k_picks;                         /* CODES rules: global candidates polled per decision */
	uint32_t packet_size;                     /* messages are cut into packets of this size */
	uint32_t chunk_size;                      /* cut-through unit: a router forwards a packet once this much arrived */
	enum df_routing routing;
	double ugal_bias;                         /* ncsim rules: bytes added to the non-minimal side in UGAL/PAR */
	enum df_arrangement arrangement;
	char *intra_file, *inter_file;            /* CODES binary connection files (DF_ARR_FILE) */
	ncsim_time_t watchdog;                    /* deadlock check period (0 disables) */
} df_config;

/* Fills c with the defaults of a native system file (doc/dragonfly.md). */
void df_config_defaults(df_config *c);
/* Selects CODES' column of every semantic key of c (doc/dragonfly.md, "Semantics"). */
void df_config_codes_semantics(df_config *c);
/* Frees the strings c owns (not c itself). */
void df_config_clear(df_config *c);
/* Reads section [network] of a native system file into c (defaults first). 0, or -1 with *err. */
int df_config_from_sysconf(df_config *c, const sysconf_t *sc, char **err);
/* Writes c as the [network] section of a native system file that df_config_from_sysconf reads back into c. */
void df_config_write(const df_config *c, FILE *out);
/* 1 if path looks like a CODES configuration file (LPGROUPS/PARAMS blocks), else 0. */
int df_is_codes_conf(const char *path);
/* What reading a CODES file finds besides the network (df_codes_read). */
typedef struct df_codes_info {
	uint32_t *bb_nodes;   /* burst-buffer nodes: where MFNetSim's codes-store LPs sit, in server order (heap), or NULL */
	uint32_t nbb;
	/*
	 * 1 if every repetition holding codes-store LPs has workload LPs
	 * (test-checkpoint-client or nw-lp) on exactly its other terminals, so
	 * that client k (an allocation file's id k, which MFNetSim sends to
	 * server k / (clients / servers)) is the k-th node that is not a burst buffer.
	 */
	int clients_fill;
	/*
	 * The burst-buffer servers' settings (when nbb > 0): codes-store's
	 * req_threads, thread_buf_sz and storage_size, and the first size bin of
	 * lsm (write rate in MiB/s, seek and overhead in us). Absent keys keep
	 * MFNetSim's published values.
	 */
	struct {
		uint32_t threads;
		double block, capacity, mib_s, seek_us, overhead_us;
	} store;
	char *notes;          /* heap: "file:line: what: how ncsim treats it", per setting ncsim ignores or approximates */
} df_codes_info;
/*
 * Reads a CODES dragonfly-dally .conf into c with CODES' defaults and
 * semantics (doc/dragonfly.md, "CODES files"); root (NULL: none) is the
 * folder its path placeholders stand for; info (may be NULL) receives the
 * rest. 0, or -1 with *err ("file:line: ...").
 */
int df_codes_read(df_config *c, const char *path, const char *root, df_codes_info *info, char **err);
/* Frees what df_codes_read put in info (info may be NULL). */
void df_codes_info_clear(df_codes_info *info);
/* df_codes_read without a root or info. */
int df_config_from_codes(df_config *c, const char *path, char **err);
/* Checks c for consistency. 0, or -1 with *err (heap string). */
int df_config_validate(const df_config *c, char **err);
/* Parses a routing name (minimal, nonminimal|valiant, ugal|adaptive, par|prog-adaptive); -1 if unknown. */
int df_routing_parse(const char *s);
/* The canonical name of a routing algorithm. */
const char *df_routing_name(enum df_routing r);

/* Builds the model from a native system file; sets *nnodes. NULL with *err on error. */
net_model *df_create(sim_ctx *ctx, const sysconf_t *c, uint32_t *nnodes, char **err);
/* Builds the model from a CODES dragonfly-dally .conf file. NULL with *err on error. */
net_model *df_create_codes(sim_ctx *ctx, const char *path, uint32_t *nnodes, char **err);
/* Builds the model from a filled configuration (copied). NULL with *err on error. */
net_model *df_create_config(sim_ctx *ctx, const df_config *c, char **err);
/* 1 if m is a dragonfly model. */
int df_is_dragonfly(const net_model *m);
/* The configuration m was built from (owned by m). */
const df_config *df_get_config(const net_model *m);

/* Topology queries (placement, burst-buffer selection). */
uint32_t df_router_of_node(const net_model *m, uint32_t node); /* node / p */
uint32_t df_group_of_node(const net_model *m, uint32_t node);  /* node / (a p) */
uint32_t df_nodes_per_group(const net_model *m);               /* a p */
uint32_t df_nodes_per_router(const net_model *m);              /* p */
uint32_t df_num_groups(const net_model *m);                    /* g */
/* Router-to-router hops of the minimal path between two nodes (0, 1, 2 or 3). */
unsigned df_min_hops(const net_model *m, uint32_t src, uint32_t dst);


/* Per-traffic-class message statistics (messages counted when delivered in the window). */
typedef struct df_class_stats {
	uint64_t msgs, bytes;
	uint64_t nonminimal;    /* messages with at least one non-minimal packet */
	uint64_t hops;          /* sum over messages of their last packet's router hops */
	double lat_sum;         /* sum of latencies (ps): first byte injected to last byte delivered */
	ncsim_time_t lat_max;
	lh_hist lat;
} df_class_stats;

/* Per-link-class totals over every link of that class. */
typedef struct df_link_totals {
	uint32_t links;
	uint64_t bytes;
	ncsim_time_t busy, saturated;
} df_link_totals;

/* What the summary writer reads (pointers stay owned by the model). */
typedef struct df_stats {
	uint32_t nnodes, nrouters;
	df_class_stats cls[NET_NCLASSES];
	const uint64_t *node_injected, *node_ejected; /* bytes per node */
	uint64_t packets, packet_hops, nonmin_packets;
	df_link_totals link[DF_NCLASSES];            /* router output ports; [DF_TERMINAL] = ejection */
	df_link_totals injection;                    /* NIC -> router links */
	ncsim_time_t window_from, window_to;
} df_stats;
/* Statistics so far (link totals are summed at each call). */
const df_stats *df_get_stats(net_model *m);
/* Counts only messages delivered in [from, to] in the class statistics (default: all). */
void df_set_window(net_model *m, ncsim_time_t from, ncsim_time_t to);
/* Prints a human-readable description of the topology and parameters. */
void df_describe(const net_model *m, FILE *out);

/*
 * Parallel runs (dragonfly_part.c, doc/parallel.md): whole groups per rank,
 * dealt by expected load. group_rank, load and groups are heap arrays.
 */
typedef struct df_partition {
	uint32_t ranks;
	uint32_t *group_rank; /* [groups]: the rank of each group */
	double *load;         /* [ranks]: expected load (node weights plus the transit share) */
	uint32_t *groups;     /* [ranks]: groups per rank */
	uint64_t cut;         /* global router ports (link ends) whose peer lies on another rank */
	double imbalance;     /* busiest rank's load / mean load (1 = perfect) */
} df_partition;
/*
 * Splits the groups of m over `ranks` ranks; node_weight[n] is node n's
 * share of the traffic (NULL: 1 for every node). 0, or -1 with *err when
 * there are more ranks than groups.
 */
int df_partition_groups(const net_model *m, uint32_t ranks, const double *node_weight, df_partition *out,
                        char **err);
/* Frees the arrays of p. */
void df_partition_clear(df_partition *p);
/* Prints p: per rank its groups (as ranges) and expected load, the cut and the imbalance. */
void df_partition_print(const net_model *m, const df_partition *p, FILE *out);
/* Fills owner[id] for m's entities (routers and NICs with their group; the watchdog on rank 0). */
void df_partition_owner(const net_model *m, const df_partition *p, uint32_t *owner);
/* The rank that owns node `node` (its NIC and the entities placed on it). */
uint32_t df_partition_rank_of_node(const net_model *m, const df_partition *p, uint32_t node);
/*
 * The least delay of an event sent over a global link (packet head or
 * credit) when no packet is shorter than min_packet bytes: the lookahead of
 * a group partition.
 */
ncsim_time_t df_lookahead(const net_model *m, uint32_t min_packet);

struct par_run;
/*
 * Runs m partitioned by part over the ranks of pr (runtime/kernel/par.h;
 * dragonfly_par.c): global links between ranks carry credits, message
 * records and the watchdog's state as records at window ends. Every rank
 * creates the label of (job 0, tclass) up front, since a rank may forward
 * a label's packets before it injects one (a netbench run has that one
 * label). 0, or -1 with *err.
 */
int df_par_attach(net_model *m, struct par_run *pr, const df_partition *part, unsigned tclass, char **err);
/*
 * Creates the labels of every (job, class) pair of njobs jobs, in that
 * order, on every rank alike: a rank forwards packets of pairs it never
 * injects, and label numbers must mean the same everywhere. 0, or -1 with
 * *err when the pairs do not fit in a label.
 */
int df_par_labels(net_model *m, unsigned njobs, char **err);
/*
 * After the partitioned run: every rank's counters summed into every rank's
 * model (statistics, links, conservation), so that the checks and writers
 * see one run; m is sequential again. Every rank must call it. -1 if the
 * watchdog found a deadlock, else 0.
 */
int df_par_finish(net_model *m);

#endif

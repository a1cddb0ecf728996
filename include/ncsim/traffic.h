/*
 * ncsim/traffic.h - the traffic-model statements of LANGUAGE.md §14.3:
 * DCNW and CDCNW (Poisson sources with message sizes from a step CDF), FLOWS
 * (one Poisson flow process over a group), HOROVOD (data-parallel training:
 * a negotiation loop of gather, gatherv, broadcast and allreduce) and the
 * replay of extended VEF traces.
 *
 * Every member of the group calls the same function with equal parameters.
 * The members are renumbered 0 .. n-1 in ascending task order, destinations
 * refer to those numbers, and a member never sends to itself. A member's
 * part ends when every message it sent has been delivered (for HOROVOD, when
 * its layers are done). Generated messages are unsuspecting: the runtime
 * takes them in at the destination, no receive is written. Each model's
 * messages form their own traffic class (dcnw, flows, horovod) in the
 * statistics. Errors (an unknown model, a bad CDF or VEF file, impossible
 * parameters) end the simulation through rt_fatal, naming file:line where a
 * file is at fault.
 *
 * Units: sizes in bytes, times in picoseconds, rates in Gbps (1e9 bit/s).
 */
#ifndef NCSIM_TRAFFIC_H
#define NCSIM_TRAFFIC_H

#include "ncsim/rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Destination distributions (`TO ... DESTINATIONS`). */
enum rt_dest_kind {
	RT_DEST_DEFAULT = 0, /* not given: the enclosing default (the statement's, else UNIFORM) */
	RT_DEST_UNIFORM,     /* uniform over the other members */
	RT_DEST_GAUSSIAN,    /* round(Normal(mean, deviation)), redrawn outside 0..n-1 or on the sender */
	RT_DEST_POISSON,     /* Poisson(mean), redrawn under the same conditions */
};

typedef struct rt_dest {
	int kind;            /* enum rt_dest_kind */
	int has_mean;        /* 0: mean n/2 */
	int has_dev;         /* 0: deviation n/8 (GAUSSIAN only) */
	double mean, dev;    /* in member numbers */
} rt_dest;

/* `GENERATES count MESSAGES OF model TRAFFIC [TO dest DESTINATIONS] [AT gbps GBPS]` */
typedef struct rt_dcnw_params {
	const char *model;   /* WEB_SEARCH, FB_KEY_VALUE, ... (DCNW), or NULL */
	const char *cdf_path; /* path of a CDF file (CDCNW); used when model is NULL */
	uint64_t count;      /* messages in total for the group */
	rt_dest dest;
	double gbps;         /* offered load per member; <= 0: 1 Gbps */
} rt_dcnw_params;

/* One class of `WITH CLASSES {...}`: `min TO max unit FOR percent PERCENT [TO dest DESTINATIONS]`. */
typedef struct rt_flow_class {
	uint64_t min_bytes, max_bytes; /* sizes are uniform in [min, max] */
	double percent;                /* share of the flows; the classes sum to 100 */
	rt_dest dest;                  /* RT_DEST_DEFAULT: the statement's */
} rt_flow_class;

/* `GENERATES count FLOWS OVER duration [TO dest DESTINATIONS] WITH CLASSES {...}` */
typedef struct rt_flows_params {
	uint64_t count;            /* flows in total for the group */
	ncsim_time_t duration;     /* mean gap between flow starts is duration / count */
	rt_dest dest;              /* default destinations of the classes */
	const rt_flow_class *classes;
	int nclasses;
} rt_flows_params;

/* The HOROVOD parameters; a layer override gives a subset (see `set`). */
enum rt_hvd_key {
	RT_HVD_COMPUTE,          /* COMPUTE t: compute time per layer (Normal, 10% deviation) */
	RT_HVD_NEGOTIATION,      /* NEGOTIATION LOOP t: mean wait between negotiation rounds */
	RT_HVD_GATHERV,          /* GATHERV b BYTES: mean tensor announcement size */
	RT_HVD_GATHERV_TOTAL,    /* GATHERV TOTAL b BYTES: total a worker must reach */
	RT_HVD_GATHERV_PROB,     /* GATHERV PROBABILITY p */
	RT_HVD_BROADCAST,        /* BROADCAST b BYTES */
	RT_HVD_ALLREDUCE,        /* ALLREDUCE b */
	RT_HVD_NKEYS
};
#define RT_HVD_ALL ((1u << RT_HVD_NKEYS) - 1)

typedef struct rt_hvd_layer {
	unsigned set;            /* bit (1u << key) for every key given */
	ncsim_time_t compute, negotiation;
	double gatherv_bytes;    /* mean of the exponential draw */
	uint64_t gatherv_total;
	double gatherv_prob;     /* 0 .. 1 */
	uint64_t bcast_bytes, allreduce_bytes;
} rt_hvd_layer;

typedef struct rt_hvd_override {
	rt_int layer;            /* 0-based */
	rt_hvd_layer p;          /* only the keys in p.set change */
} rt_hvd_override;

/* `TRAINS WITH HOROVOD FOR batches BATCHES OF layers LAYERS WITH ... {AND LAYER k WITH ...}` */
typedef struct rt_horovod_params {
	rt_int batches, layers;
	rt_hvd_layer defaults;   /* every key is required (set == RT_HVD_ALL) */
	const rt_hvd_override *overrides;
	int noverrides;
} rt_horovod_params;

/* DCNW / CDCNW: every member of g is a Poisson source; returns when its messages are delivered. */
void rt_traffic_dcnw(rt_task *t, const rt_group *g, const rt_dcnw_params *p);
/* FLOWS: one Poisson flow process over g; returns when this member's flows are delivered. */
void rt_traffic_flows(rt_task *t, const rt_group *g, const rt_flows_params *p);
/* HOROVOD: the lowest member coordinates; returns when this member's layers are done. */
void rt_traffic_horovod(rt_task *t, const rt_group *g, const rt_horovod_params *p);
/* Replays the extended VEF trace at path (its model runs on the first #tasks members of g). */
void rt_traffic_replay(rt_task *t, const rt_group *g, const char *path);

#ifdef __cplusplus
}
#endif
#endif

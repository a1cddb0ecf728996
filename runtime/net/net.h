/*
 * net.h - the network interface shared by every network model (prefix net_).
 *
 * A caller injects a message (source node, destination node, bytes, traffic
 * class) and names an entity and event kind to notify. When the message's last
 * byte reaches the destination node, the model schedules that event with a
 * net_delivery payload. Models: ideal, analytic, dragonfly (packet level),
 * hybrid (analytic below a size threshold, packet level above).
 *
 * A model owns entities of its own (NICs, routers) registered in the same
 * sim_ctx; inject runs inside a handler (or before sim_run) and only schedules
 * events, so every model respects "entities talk only through events".
 */
#ifndef NCSIM_NET_H
#define NCSIM_NET_H

#include <stdint.h>
#include <stdio.h>

#include "base/checked.h"
#include "runtime/kernel/sim.h"

/* Traffic classes: every statistic is kept per class. */
enum net_class {
	NET_CLASS_MPI = 0,   /* point-to-point and collective MPI traffic */
	NET_CLASS_CTRL,      /* protocol control: rendezvous headers, ACKs, credits */
	NET_CLASS_IO,        /* storage traffic */
	NET_CLASS_DCNW,      /* DCNW / CDCNW generated traffic */
	NET_CLASS_FLOWS,     /* FLOWS generated traffic */
	NET_CLASS_HOROVOD,   /* HOROVOD generated traffic */
	NET_CLASS_SYNTH,     /* netbench synthetic traffic */
	NET_NCLASSES
};
/* Lower-case name of a class ("mpi", "io", ...). */
const char *net_class_name(enum net_class c);

/* What the caller asks the network to carry. */
typedef struct net_msg {
	uint32_t src_node, dst_node;
	uint64_t bytes;
	uint8_t tclass;       /* enum net_class */
	uint8_t job;          /* job index, for per-job statistics */
	sim_eid notify;       /* entity that receives the delivery event */
	uint16_t notify_kind; /* its handler index */
	uint64_t cookie;      /* opaque to the network, returned on delivery */
	uint64_t cookie2;     /* second opaque word */
	/*
	 * With want_sent, the model also tells entity sent_to (event kind
	 * notify_kind, a net_delivery with .sent = 1) when the message's last
	 * packet starts leaving the source NIC: when a send whose completion is
	 * tied to its NIC, as in CODES' model-net, completes.
	 */
	sim_eid sent_to;
	uint8_t want_sent;
} net_msg;

/* Payload of the delivery event. */
typedef struct net_delivery {
	uint64_t cookie, cookie2;
	uint64_t bytes;
	uint32_t src_node, dst_node;
	ncsim_time_t inject_time; /* when the caller injected the message */
	uint16_t hops;            /* router-to-router hops of the last packet (0 off-network) */
	uint8_t tclass;
	uint8_t nonminimal;       /* 1 if any packet took a non-minimal path */
	uint8_t sent;             /* 1: not the delivery but net_msg.want_sent's notice at the source */
} net_delivery;
SIM_PAYLOAD_CHECK(net_delivery);

typedef struct net_model net_model;

/* Why inject refused a message (it is then not in the network: never delivered). */
enum net_refusal {
	NET_EBADNODE = -1, /* a node id outside the network (a bug of the caller) */
	NET_ETIME = -2,    /* the message would end past 2^64 ps, the end of simulated time */
};
/* What a refusal means, for messages: "...", a phrase that follows the message's description. */
const char *net_refusal_text(int rc);

/* Operations of one network model. */
typedef struct net_ops {
	const char *name;
	/* Injects msg at the current simulated time. Returns 0, or an enum net_refusal. */
	int (*inject)(net_model *m, sim_ctx *ctx, const net_msg *msg);
	/* Zero-load time for `bytes` between two nodes (used by cost estimates). */
	ncsim_time_t (*estimate)(net_model *m, uint32_t src, uint32_t dst, uint64_t bytes);
	/* Checks end-of-run invariants (conservation, credits). Returns 0 or -1 with a message on `err`. */
	int (*check)(net_model *m, FILE *err);
	/* Writes per-link statistics as CSV rows (header included); may be NULL. */
	int (*write_links)(net_model *m, FILE *out);
	/* Writes links_by_class.csv: bytes per link, job and class (header included); may be NULL. */
	int (*write_links_by_class)(net_model *m, FILE *out);
	/* Frees the model. */
	void (*destroy)(net_model *m);
} net_ops;

/* Per-class totals every model keeps. */
typedef struct net_totals {
	uint64_t msgs_injected[NET_NCLASSES], msgs_delivered[NET_NCLASSES];
	uint64_t bytes_injected[NET_NCLASSES], bytes_delivered[NET_NCLASSES];
} net_totals;

/* Common header of every model; a model embeds it first. */
struct net_model {
	const net_ops *ops;
	uint32_t nnodes;
	uint8_t uniform;    /* 1: estimate() depends on the size only, not on the two nodes (callers may cache it) */
	/*
	 * Nodes per router and per group of the dragonfly behind the model, at
	 * every level that has one (packet, flow, hybrid); 0 when there is no
	 * such topology. Set by those models; placement and storage read it, so
	 * they see the same machine at every level.
	 */
	uint32_t per_router, per_group;
	net_totals totals;
};

/*
 * Schedules the want_sent notice of a message (cookies, bytes, nodes, class
 * as in its net_msg) for entity `to`, `delay` from now. Models call it.
 */
void net_send_sent(sim_ctx *ctx, sim_eid to, uint16_t kind, ncsim_time_t delay, uint64_t cookie, uint64_t cookie2,
                   uint64_t bytes, uint32_t src, uint32_t dst, uint8_t tclass);

/* Convenience wrappers. */
static inline int net_inject(net_model *m, sim_ctx *ctx, const net_msg *msg) { return m->ops->inject(m, ctx, msg); }
static inline void net_destroy(net_model *m) { if (m) m->ops->destroy(m); }

#endif

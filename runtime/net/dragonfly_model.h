/*
 * dragonfly_model.h - the dragonfly model's state, shared by the files that
 * implement it (dragonfly.c, _router.c, _nic.c, _route.c, _stats.c).
 *
 * Entities: one per router, one per node (its NIC), one watchdog. A router's
 * state is row r of the flat per-port arrays below plus its own packet slots;
 * a router handler touches only its own rows. Packets travel between
 * entities by value inside events (df_pkt, 32 bytes); a router copies an
 * arriving packet into one of its slots until the packet leaves.
 *
 *   per port (index r * nports + port):  port_free, wake, rr, qbytes,
 *                                         busy, bytes, sat, sat_since
 *   per port and VC (index (r * nports + port) * DF_MAXVC + vc):
 *                                         credits (bytes free downstream),
 *                                         qhead/qtail (FIFO of slot indices)
 *
 *   router slots:  [ df_slot | df_slot | ... ]   free list through .next
 *   VC FIFO:       qhead -> slot.next -> slot.next -> DF_NONE
 *
 * Messages are the one record both ends of a transfer share: the source NIC
 * creates it, the destination router (which hosts the destination NIC's
 * ejection side) counts its packets and completes it. Message records live in
 * a pool with a free list; no allocation happens per packet.
 */
#ifndef NCSIM_DRAGONFLY_MODEL_H
#define NCSIM_DRAGONFLY_MODEL_H

#include <stdint.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/dragonfly_topo.h"
#include "runtime/util.h"

/*
 * Virtual channels (see dragonfly_route.c for the argument): a packet's hops
 * fall into six slots taken in increasing order,
 *   local-in-source-group #1, #2 | global #1 | local-in-intermediate-group |
 *   global #2 | local-in-destination-group,
 * so local ports need 4 VCs, global ports 2, terminal ports 1.
 */
#define DF_MAXVC 4

enum { DF_PKT_NONMIN = 1, DF_PKT_REACHED = 2, DF_PKT_INTRA = 4 };

/* A packet, carried by value in events (no pointers). */
typedef struct df_pkt {
	ncsim_time_t tail; /* when the packet's tail is ready to leave the receiving router */
	uint32_t msg;      /* message record index */
	uint32_t dst;      /* destination node */
	uint32_t bytes;
	uint32_t inter;    /* intermediate group (or router index with DF_PKT_INTRA), or DF_NONE */
	uint16_t in_port;  /* input port at the receiving router */
	uint8_t vc;        /* input VC at the receiving router */
	uint8_t hops;      /* router-to-router hops so far */
	uint8_t ghops;     /* global hops so far */
	uint8_t lhops;     /* local hops in the source group */
	uint8_t flags;     /* DF_PKT_* */
	uint8_t pad_;
} df_pkt;
SIM_PAYLOAD_CHECK(df_pkt);

/* A credit: `bytes` of buffer freed on VC `vc` behind output port `port`. */
typedef struct df_credit {
	uint32_t bytes;
	uint16_t port;
	uint8_t vc;
} df_credit;

typedef struct df_slot {
	df_pkt p;
	uint32_t next;
} df_slot;

typedef struct df_msg {
	uint64_t cookie, cookie2, bytes, sent;
	ncsim_time_t inject_time, first_tx;
	uint32_t src, dst, left, next;
	sim_eid notify;
	uint16_t notify_kind, hops;
	uint8_t tclass, job, nonmin;
} df_msg;

struct df_model;

typedef struct df_router {
	struct df_model *m;
	uint32_t id;
	uint32_t free_slot;
	VEC(df_slot) slots;
} df_router;

typedef struct df_nic {
	struct df_model *m;
	uint32_t id;
	uint32_t qhead, qtail;  /* FIFO of messages waiting to be injected */
	int64_t credits;        /* bytes free in the router's terminal input buffer */
	ncsim_time_t port_free; /* the injection link is busy until then */
	ncsim_time_t sat_since; /* waiting for credits since (DF_NEVER: not waiting) */
	uint64_t bytes;
	ncsim_time_t busy, sat;
	uint8_t wake;           /* a wake-up event is pending */
} df_nic;

#define DF_NEVER UINT64_MAX
#define DF_EJRING 8

enum { DF_R_ARRIVE = 0, DF_R_CREDIT, DF_R_WAKE, DF_R_NKINDS };
enum { DF_N_MSG = 0, DF_N_CREDIT, DF_N_WAKE, DF_N_NKINDS };

typedef struct df_model {
	net_model base;
	df_config cfg;
	df_topo topo;
	sim_ctx *ctx;
	sim_eid router0, nic0, wd;
	uint32_t nports;
	uint8_t nvc[DF_NCLASSES];
	ncsim_time_t ser_packet[DF_NCLASSES]; /* serialization of a full packet, per class */
	ncsim_time_t ser_chunk[DF_NCLASSES];  /* ... of one chunk */

	/* Per port. */
	ncsim_time_t *port_free;
	uint8_t *wake, *rr;
	uint64_t *qbytes;
	ncsim_time_t *busy, *sat, *sat_since;
	uint64_t *bytes;
	/*
	 * Ejection credits: the NIC drains at link speed, so the time each credit
	 * comes back is known when the packet leaves; up to DF_EJRING of them
	 * wait in a per-port ring (index r * p + port) instead of as events.
	 */
	ncsim_time_t *ej_t;
	uint32_t *ej_b;
	uint8_t *ej_head, *ej_len;
	/* Per port and VC. */
	int32_t *credits;
	uint32_t *qhead, *qtail;

	df_router *routers;
	df_nic *nics;
	VEC(df_msg) msgs;
	uint32_t msg_free;

	/* Progress and conservation. */
	uint64_t msgs_open;     /* injected and not yet delivered */
	uint64_t moved;         /* packets forwarded so far (watchdog) */
	uint64_t wd_last;
	int wd_armed;
	char *deadlock;         /* the watchdog's report, if it fired */
	ncsim_time_t last_delivery;

	/* Statistics. */
	df_stats st;
	uint64_t *node_inj, *node_ej;
} df_model;

/* Index of (router r, port) in the per-port arrays (qbytes, credits / DF_MAXVC, bytes, ...). */
static inline size_t df_pix(const df_model *m, uint32_t r, uint32_t port) { return (size_t)r * m->nports + port; }

/* Router entity type (dragonfly_router.c). */
extern const sim_type df_router_type;
/* NIC entity type (dragonfly_nic.c). */
extern const sim_type df_nic_type;
/* Watchdog entity type (dragonfly_stats.c). */
extern const sim_type df_watchdog_type;

/* Chooses the output port and VC for pk at router r, updating its routing state (dragonfly_route.c). */
void df_route(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc);
/* Occupancy used by adaptive routing: bytes queued for the port plus bytes held downstream. */
uint64_t df_port_load(const df_model *m, uint32_t r, uint32_t port);

/* Completes one packet of a message delivered at time t (dragonfly_stats.c). */
void df_deliver(df_model *m, const df_pkt *pk, ncsim_time_t t);
/* Arms the deadlock watchdog if it is not running. */
void df_watchdog_arm(df_model *m);
/* net_ops.check (dragonfly_stats.c): reports a deadlock, undelivered messages or lost credits on err; 0 if none, else -1. */
int df_check(net_model *nm, FILE *err);
/* net_ops.write_links: one CSV row per NIC and per connected router port to out; -1 on a write error. */
int df_write_links(net_model *nm, FILE *out);

#endif

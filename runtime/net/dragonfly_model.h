/*
 * dragonfly_model.h - the dragonfly model's state, shared by the files that
 * implement it (dragonfly.c, _router.c, _nic.c, _route.c, _stats.c).
 *
 * Entities: one per router, one per node (its NIC), one watchdog. Packets
 * travel between entities by value inside events (df_pkt, 32 bytes); a router
 * copies an arriving packet into one of its slots until the packet leaves.
 *
 * Output ports (index r * nports + port) keep what arbitration reads in one
 * 64-byte record, the statistics in a second array:
 *
 *   ports[ix]:  | free_at | credits[4] | qhead[4] | qtail[4] | nvc rr wake blocked npend vcq |
 *   pstat[ix]:  | qbytes | busy | bytes | sat | sat_since |
 *   pend[ix * DF_NPEND + i]:  credits on their way back to port ix (lazy credits)
 *
 *   router slots:  [ df_slot | df_slot | ... ]   free list through .next
 *   VC FIFO:       qhead -> slot.next -> slot.next -> DF_NONE
 *
 * Lazy credits. A credit's arrival time upstream is known when the packet's
 * tail leaves the downstream router, and a credit only matters to an output
 * port that has a packet waiting for it. So a returning credit is written
 * into the upstream port's pending list with its arrival time instead of
 * being an event; the upstream port takes every pending credit whose time
 * has come before it arbitrates or reports its load (a credit arriving at t
 * is usable by every decision at t). A port whose waiting packets fit nowhere
 * (`blocked`) turns its pending credits into CREDIT events to itself, and
 * while it stays blocked returning credits are sent as events, so it wakes
 * exactly when the first one lands. The NIC's injection credits work the
 * same way (df_nic.pend_*).
 *
 * Accept mode (credit_return = accept, CODES' flow control). A port's
 * credits count the room of its output VCs, which hold the packets queued
 * here for the port as well as those sent on and not yet accepted
 * downstream. An arriving packet that fits enters its output VC at once,
 * giving its input buffer back upstream; one that does not fit waits,
 * still holding it, in the port's stall FIFO of that VC until a credit
 * returns:
 *
 *   arrive --fits--> qhead[vc] ... --> link      credit upstream now
 *          \-else--> stall[ix].head[vc] ...      credit upstream on entry
 *
 * A port with stalled packets is `blocked`: its credits come as events.
 * pstat.qbytes counts the stalled bytes only (the accepted ones are in the
 * credits), so df_port_load is CODES' score: VC occupancy plus stalled bytes.
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
#include "runtime/net/linklabel.h"
#include "base/util.h"

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
	uint8_t label;     /* the message's (job, class) label: links_by_class.csv */
} df_pkt;
SIM_PAYLOAD_CHECK(df_pkt);

/* A credit: `bytes` of buffer freed on VC `vc` behind output port `port`. */
typedef struct df_credit {
	uint32_t bytes;
	uint16_t port;
	uint8_t vc;
} df_credit;

#define DF_NEVER UINT64_MAX
#define DF_EJRING 8
#define DF_NPEND 4 /* lazy credits a port or NIC holds before returning credits become events */

/* The arbitration state of one router output port: one cache line. */
typedef struct df_port {
	ncsim_time_t free_at;       /* the link is busy until then */
	int32_t credits[DF_MAXVC];  /* bytes free downstream, per VC (pending credits not included) */
	uint32_t qhead[DF_MAXVC];   /* FIFO of waiting packets (slot indices), per VC */
	uint32_t qtail[DF_MAXVC];
	uint8_t nvc;                /* VCs of the port's class */
	uint8_t rr;                 /* VC that won the last arbitration */
	uint8_t wake;               /* a WAKE event is pending */
	uint8_t blocked;            /* packets wait, the link is free, no head fits: credits come as events */
	uint8_t npend;              /* entries of pend[] in use */
	uint8_t vcq;                /* bit v set: qhead[v] holds a packet (arbitration visits only those VCs) */
	uint8_t link;               /* DF_LINK_* */
	uint8_t pad_;
} df_port;

/*
 * The kind of a port's pending list. Local and terminal ports (DF_LINK_PLAIN)
 * never cross ranks; a global port keeps its list in the order of return
 * (df_port_absorb). In a parallel run a global port whose link crosses ranks
 * is DF_CUT_LOCAL on its router's rank (changes to its list are logged for
 * the window's replay, dragonfly_par.c) and DF_CUT_REMOTE on the downstream
 * router's rank, whose copy of the port also reads as blocked, so that a
 * credit for it takes credit_router's rare path and leaves as a record.
 */
enum { DF_LINK_PLAIN = 0, DF_LINK_GLOBAL, DF_CUT_LOCAL, DF_CUT_REMOTE };
#define DF_NOSEQ UINT64_MAX /* credit_router: no sequence number reserved */

#ifndef UNLIKELY
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#endif
_Static_assert(sizeof(df_port) == 64, "df_port is one cache line");

/* Statistics and adaptive-routing load of one output port. */
typedef struct df_pstat {
	uint64_t qbytes;            /* bytes queued for the port */
	uint64_t bytes;             /* bytes sent */
	ncsim_time_t busy, sat;     /* link busy time, saturation time */
	ncsim_time_t sat_since;     /* blocked since (DF_NEVER: not blocked) */
} df_pstat;

/* A credit on its way back to an output port. */
typedef struct df_pend {
	ncsim_time_t t;
	uint32_t bytes;
	uint32_t vc;
} df_pend;

/* Accept mode: packets of one port waiting for room in their output VC, per VC. */
typedef struct df_stall {
	uint32_t head[DF_MAXVC];
	uint32_t tail[DF_MAXVC];
} df_stall;

typedef struct df_slot {
	df_pkt p;
	uint32_t next;
} df_slot;

typedef struct df_msg {
	uint64_t cookie, cookie2, bytes, sent;
	uint64_t left; /* packets not yet delivered: a 2^44-byte message has 2^32 packets of 4 KiB */
	ncsim_time_t inject_time, first_tx;
	uint32_t src, dst, next;
	sim_eid notify, sent_to;
	uint16_t notify_kind, hops;
	uint8_t tclass, job, nonmin, label, want_sent;
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
	sim_eid router;         /* the router entity the NIC injects into (no division per packet) */
	uint16_t in_port;       /* ... and its terminal input port there */
	int64_t credits;        /* bytes free in the router's terminal input buffer */
	ncsim_time_t port_free; /* the injection link is busy until then */
	ncsim_time_t sat_since; /* waiting for credits since, maybe ahead of now (DF_NEVER: not waiting; else credits come as events) */
	uint64_t bytes;
	ncsim_time_t busy, sat;
	ncsim_time_t pend_t[DF_NPEND]; /* lazy credits: arrival time ... */
	uint32_t pend_b[DF_NPEND];     /* ... and bytes */
	uint32_t short_out;     /* packets shorter than packet_size whose credit the router has not sent back yet */
	uint32_t ev_out;        /* credit events under way to the NIC ... */
	ncsim_time_t ev_t[DF_NPEND]; /* ... the times of up to DF_NPEND of them (all if ev_out <= DF_NPEND) */
	uint8_t nev;
	uint8_t npend;
	uint8_t wake;           /* a wake-up event is pending (at port_free) */
} df_nic;

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
	ncsim_time_t rd_enter, rd_exit;       /* router delay charged on the NIC's link in, on the link out to a NIC */
	ncsim_time_t nic_guard;               /* a full packet's credit reaches its NIC at least this long after it is forwarded (0: not used) */
	uint32_t chunk_round;                 /* accept mode: buffers count whole chunks of this size; 0: bytes */
	uint8_t accept;                       /* credit_return = accept */
	uint8_t codes_rules, codes_vc;        /* rules = codes, vc_rule = codes */
	uint8_t codes_path;                   /* any of accept, codes_rules, codes_vc: arrivals take the CODES path */

	/* Per port (see the diagram at the top). */
	df_port *ports;
	df_pstat *pstat;
	nl_labels labels;                     /* bytes per link and (job, class); slots: ports, then NICs */
	df_pend *pend;
	df_stall *stall;        /* accept mode only, else NULL */
	void *ports_mem;
	/*
	 * Ejection credits: the NIC drains at link speed, so the time each credit
	 * comes back is known when the packet leaves; up to DF_EJRING of them
	 * wait in a per-port ring (index r * p + port) instead of as events.
	 */
	ncsim_time_t *ej_t;
	uint32_t *ej_b;
	uint8_t *ej_head, *ej_len;
	/* Minimal next port from router r towards group g, [r * g + g], when the choice is not random (else DF_NONE). */
	uint32_t *to_group;
	/* Per router r: its group r / a; per node: its router node / p (routing divides nothing per packet). */
	uint32_t *grp, *node_rt;

	df_router *routers;
	df_nic *nics;
	VEC(df_msg) msgs;
	uint32_t msg_free;
	uint32_t msg_tag;       /* or'ed into the message index a packet carries: the rank's tag in parallel runs, else 0 */

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

	/* Parallel runs: the rank's side of the partition (dragonfly_par.c); NULL in a sequential run. */
	struct df_par *par;
} df_model;

/* Index of (router r, port) in the per-port arrays (ports, pstat; pend / DF_NPEND). */
static inline size_t df_pix(const df_model *m, uint32_t r, uint32_t port) { return (size_t)r * m->nports + port; }

/* Queues the ARRIVE event of packet pk at router entity dst, `delay` from now (payload written in place). */
static inline void df_send_pkt(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, const df_pkt *pk)
{
	sim_event *ev = sim_event_new(ctx, dst, delay, DF_R_ARRIVE);
	*SIM_PAYLOAD(ev, df_pkt) = *pk;
	sim_schedule(ctx, ev);
}

/* The VC of pk's next hop through `port` at router r (dr: its destination's router), by dragonfly_route.c's slots. */
static inline uint8_t df_vc_slots(const df_model *m, uint32_t r, uint32_t dr, const df_pkt *pk, uint32_t port)
{
	switch (df_topo_class(&m->topo, port)) {
	case DF_GLOBAL:
		return pk->ghops ? 1 : 0;
	case DF_LOCAL:
		if (pk->ghops == 0)
			return pk->lhops ? 1 : 0;
		return m->grp[r] == m->grp[dr] ? 3 : 2;
	default:
		return 0;
	}
}

/*
 * The VC of pk's next hop at router r by CODES' rule (router_packet_receive
 * in dragonfly-dally.C), whatever the port: in the source group the number of
 * local hops so far, or 1 once non-minimal (flags_in: pk's flags before this
 * router routed it); 2 in an intermediate group; 3 in the destination group.
 */
static inline uint8_t df_vc_codes(const df_model *m, uint32_t r, uint32_t dr, const df_pkt *pk, unsigned flags_in)
{
	if (!pk->ghops) /* CODES paths take at most one local hop in the source group */
		return pk->lhops || (flags_in & DF_PKT_NONMIN) ? 1 : 0;
	return m->grp[r] == m->grp[dr] ? 3 : 2;
}

/* The VC of pk's next hop through `port` at router r, by the model's VC rule. */
static inline uint8_t df_vc_of(const df_model *m, uint32_t r, uint32_t dr, const df_pkt *pk, uint32_t port,
                               unsigned flags_in)
{
	return m->codes_vc ? df_vc_codes(m, r, dr, pk, flags_in) : df_vc_slots(m, r, dr, pk, port);
}

/* Buffer space a packet of `bytes` takes: the bytes, or whole chunks in accept mode (CODES counts chunks). */
static inline uint32_t df_cost(const df_model *m, uint32_t bytes)
{
	uint32_t u = m->chunk_round;
	if (!u)
		return bytes;
	return bytes ? (bytes + u - 1) / u * u : u;
}

/* A credit event for NIC n, landing at t, is under way (dragonfly_nic.c, "Blocking ahead"). */
static inline void df_nic_ev_sent(df_nic *n, ncsim_time_t t)
{
	if (n->ev_out++ == n->nev && n->nev < DF_NPEND)
		n->ev_t[n->nev++] = t;
}

/* A credit event for NIC n has landed now. */
static inline void df_nic_ev_landed(df_nic *n, ncsim_time_t now)
{
	n->ev_out--;
	for (unsigned i = 0; i < n->nev; i++)
		if (n->ev_t[i] == now) {
			n->ev_t[i] = n->ev_t[--n->nev];
			return;
		}
	/* One whose time was not kept: the others are known once as many are under way as are kept. */
}

/* Sets *err (if err) to the formatted message; returns -1. */
int df_fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* df_config_validate, with *key set to the native system-file key at fault (NULL: none in particular). */
int df_config_check(const df_config *c, const char **key, char **err);
/* Bytes df_create_config allocates for c's routers, ports, NICs and tables (a slight overestimate). */
uint64_t df_memory_bytes(const df_config *c);

/* Router entity type (dragonfly_router.c). */
extern const sim_type df_router_type;
/* NIC entity type (dragonfly_nic.c). */
extern const sim_type df_nic_type;
/* Watchdog entity type (dragonfly_stats.c). */
extern const sim_type df_watchdog_type;

/* Fills m->to_group, m->grp and m->node_rt from the wiring (dragonfly_route.c). */
void df_build_to_group(df_model *m);
/* Chooses the output port and VC for pk at router r, updating its routing state (dragonfly_route.c). */
void df_route(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc);
/* df_route under CODES' rules (dragonfly_codes.c): CODES dragonfly-dally's routing decisions. */
void df_route_codes(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc);
/* Next port from router r towards group g (g != r's group): its own link, else a random gateway's (by links). */
uint32_t df_toward_group(df_model *m, uint32_t r, uint32_t g);

/*
 * df_route with its two most frequent cases inline: the packet is at its
 * destination's router, or minimal routing takes the one fixed next port.
 * Everything else (adaptive and non-minimal decisions, random gateways) is
 * df_route's or df_toward_group's, so the choices and draws are the same.
 */
static inline void df_route_fast(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc)
{
	const df_topo *T = &m->topo;
	uint32_t dr = m->node_rt[pk->dst];
	if (r == dr) {
		*port = pk->dst - dr * T->p;
		*vc = 0;
		return;
	}
	if (m->cfg.routing != DF_ROUTE_MINIMAL) {
		df_route(m, r, pk, port, vc);
		return;
	}
	uint32_t cg = m->grp[r], dg = m->grp[dr], p;
	if (cg == dg) {
		p = df_topo_local_port(T, r - cg * T->a, dr - dg * T->a);
	} else {
		p = m->to_group[(size_t)r * T->g + dg];
		if (p == DF_NONE)
			p = df_toward_group(m, r, dg);
	}
	*port = p;
	*vc = df_vc_slots(m, r, dr, pk, p);
}

/* A uniform draw from router r's stream in [0, n). */
uint32_t df_rnd(df_model *m, uint32_t r, uint32_t n);
/* x, drawn uniformly from n-2 values, mapped to the x-th of 0..n-1 other than the distinct values a and b. */
uint32_t df_skip_two(uint32_t x, uint32_t a, uint32_t b);
/* Occupancy used by adaptive routing: bytes queued for the port plus bytes held downstream (takes due credits). */
uint64_t df_port_load(df_model *m, uint32_t r, uint32_t port);
/* Adds the pending credits of port ix whose time is <= t to its counters (all of them with t = DF_NEVER). */
void df_port_absorb(df_model *m, size_t ix, ncsim_time_t t);
/* Adds the NIC's pending credits whose time is <= t to its counter (all of them with t = DF_NEVER). */
void df_nic_absorb(df_nic *n, ncsim_time_t t);

/*
 * Parallel runs (dragonfly_par.c), called just before the change: the cut
 * port ix (DF_CUT_LOCAL) takes its pending credits due by t ...
 */
void df_par_absorbing(df_model *m, size_t ix, ncsim_time_t t);
/* ... blocks, its pending credits taking the DF_NPEND sequence numbers from seq. */
void df_par_blocking(df_model *m, size_t ix, uint64_t seq);
/* ... unblocks. */
void df_par_unblocking(df_model *m, size_t ix);
/* A credit for the port ix of another rank (DF_CUT_REMOTE), landing at t, with its reserved seq. */
void df_par_credit(df_model *m, size_t ix, uint8_t vc, uint32_t bytes, ncsim_time_t t, uint64_t seq);
/* The watchdog would be armed now if it is not (seq: the number reserved for its first tick). */
void df_par_arm(df_model *m, uint64_t seq);
/* The message record of packet id pk_msg on this rank (a remote message's copy, see df_par_sent). */
df_msg *df_par_msg(df_model *m, uint32_t pk_msg);
/* The first packet of local message mi leaves its NIC: its record goes to the destination's rank if remote. */
void df_par_sent(df_model *m, uint32_t mi);
/* The message of packet id pk_msg is complete here: frees its record (or has its source's rank free it). */
void df_par_done(df_model *m, uint32_t pk_msg);

/* Completes one packet of a message delivered at time t (dragonfly_stats.c). */
void df_deliver(df_model *m, const df_pkt *pk, ncsim_time_t t);
/* Arms the deadlock watchdog if it is not running. */
void df_watchdog_arm(df_model *m);
/* net_ops.check (dragonfly_stats.c): reports a deadlock, undelivered messages or lost credits on err; 0 if none, else -1. */
int df_check(net_model *nm, FILE *err);
/* net_ops.write_links: one CSV row per NIC and per connected router port to out; -1 on a write error. */
int df_write_links(net_model *nm, FILE *out);
/* links_by_class.csv: the bytes of every (job, class) on every link. */
int df_write_links_by_class(net_model *nm, FILE *out);

#endif

/*
 * traffic.h - the traffic engine shared by the generators of ncsim/traffic.h
 * (prefix trf_). Internal to the runtime.
 *
 * One trf_world per simulation holds the size tables, one endpoint entity per
 * task and one trf_run per execution of a traffic statement by a group:
 *
 *   task (coroutine)                endpoint entity of the task
 *   ----------------                ---------------------------
 *   rt_traffic_dcnw: join the run,  TRF_EV_DCNW: draw size and destination,
 *   schedule the first arrival ---> inject into the network, schedule the next
 *   task_block until done             TRF_EV_FLOW: the same for a FLOWS member
 *          ^                        TRF_EV_DELIVER (destination's endpoint):
 *          |                          the last byte arrived; acknowledge it
 *          +---- TK_EV_WAKE ------- TRF_EV_ACK (sender's endpoint): latency,
 *                                     counts; the member's part may end
 *
 * Generated messages go straight into the network model as unsuspecting
 * sends: the runtime takes them in at the destination, so they need no
 * receive and no MPI matching. The network tells the destination's endpoint
 * when the last byte has arrived, and the sender learns it from an
 * acknowledgement the zero-load time of a control message (an MPI header)
 * later, as a reliable transport's sender does; a member's part ends when
 * its last message is acknowledged. Every entity therefore learns of
 * another node's event only through the network's latency, which is what
 * lets a run over MPI ranks keep the sequential results (trf_par.c).
 * Every random draw comes from a per-task stream (the endpoint's
 * sim_rng streams, keyed by job and rank) or, for what all members of a
 * run must agree on (HOROVOD's negotiation, FLOWS' split of the flows among
 * the sources), from a stream keyed by the run.
 *
 * A run is found by every member from the key p2p_coll_tag gives its group:
 * the k-th traffic statement of a group is the same run for all members.
 */
#ifndef NCSIM_RT_TRAFFIC_H
#define NCSIM_RT_TRAFFIC_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/traffic.h"
#include "runtime/kernel/rng.h"
#include "runtime/net/dragonfly.h"
#include "runtime/task/task.h"
#include "runtime/traffic/cdf.h"
#include "runtime/traffic/dest.h"

enum trf_model { TRF_DCNW, TRF_CDCNW, TRF_FLOWS, TRF_HOROVOD };

/* Handler kinds of the endpoint entity type. */
enum trf_event { TRF_EV_DCNW, TRF_EV_FLOW, TRF_EV_DELIVER, TRF_EV_ACK, TRF_NEVENTS };

/* One member's part of a run. */
typedef struct trf_member {
	uint64_t quota;          /* messages it sends */
	uint64_t sent, delivered;
	uint64_t bits;           /* generated, for the offered load */
	double clock;            /* its latest arrival: offset from `start` in ps (FLOWS: fraction of the duration) */
	ncsim_time_t start, end, last_gen;
	uint8_t arrived, gen_done, waiting, done;
} trf_member;

/* A FLOWS class, resolved. */
typedef struct trf_class {
	uint64_t min, max;
	double cum;              /* cumulative share up to and including this class, 0..1 */
	tdst dest;
	uint64_t flows;          /* flows drawn in this class */
} trf_class;

/* Counters of one kind of HOROVOD collective. */
typedef struct trf_hvd_op {
	uint64_t ops;            /* collectives (counted once, at the coordinator) */
	uint64_t msgs, bytes;    /* point-to-point messages of their algorithms, over all members */
} trf_hvd_op;

enum trf_hvd_kind { TRF_HVD_GATHER, TRF_HVD_GATHERV, TRF_HVD_BCAST, TRF_HVD_ALLREDUCE, TRF_HVD_NKINDS };

/* What one layer (summed over batches) did. */
typedef struct trf_hvd_layer {
	uint64_t rounds;         /* negotiation rounds */
	trf_hvd_op op[TRF_HVD_NKINDS];
	ncsim_time_t compute;    /* compute time drawn, over all members */
} trf_hvd_layer;

/* One execution of a traffic statement by a group. */
typedef struct trf_run {
	int model;               /* enum trf_model */
	char *label;             /* model name, CDF path, "flows" or "horovod" */
	unsigned job;
	uint64_t key;
	int n;                   /* members */
	int nlocal;              /* members whose task runs on this rank (n unless over MPI ranks) */
	uint32_t nnodes;         /* distinct nodes of the members */
	uint32_t *node;          /* node of member i */
	sim_eid *ep;             /* endpoint of member i */
	sim_eid *task_eid;       /* task entity of member i */
	trf_member *m;           /* NULL once every member is done */
	int arrived, done;
	/* DCNW / CDCNW */
	const tcdf *cdf;
	double gbps, gap_mean;   /* gap_mean in ps */
	tdst dest;
	/* FLOWS */
	uint64_t count, flows_sent;
	ncsim_time_t duration;
	double flow_gap;         /* mean gap between the run's flows, ps (at least 1) */
	uint64_t *flow_quota;    /* flows of member i (the run's split, the same on every rank) */
	int nclasses;
	trf_class *cls;
	/* HOROVOD */
	rt_int batches, layers;  /* layers <= TRF_HVD_MAX_LAYERS */
	trf_hvd_layer *hvd;      /* figures, one per layer */
	rt_hvd_layer *hvd_lp;    /* parameters, one per layer: the defaults with the layer's overrides */
	/* figures */
	ncsim_time_t t_start, t_end;
	sim_key created;         /* key of the event that created the run (its place in the run order) */
	uint64_t msgs, bytes, dmsgs, dbytes;
	uint64_t gen_bits, gen_span; /* DCNW: over members, bits generated and start-to-last-arrival spans (ps) */
	uint64_t lat_sum;        /* integers, so that sums over ranks equal the sequential sum */
	ncsim_time_t lat_min, lat_max;
	lh_hist *lat;            /* end-to-end latency: generation to last byte delivered */
} trf_run;

/* An endpoint: the entity that generates and accounts for one task's messages. */
typedef struct trf_ep {
	struct trf_world *tw;
	rt_task *task;
	sim_rng rng;             /* the task's traffic stream: arrivals, sizes, sources, classes */
	sim_rng dst_rng;         /* its destination stream: kept apart so that runs differing only in
	                            their destination law see the same arrivals and sizes */
} trf_ep;

typedef struct trf_world {
	task_world *w;
	sim_eid ep_base;         /* endpoint of w->all[i] is ep_base + i */
	trf_ep *eps;             /* one per task, in w->all order */
	size_t neps;
	size_t *job_first;       /* index in w->all of rank 0 of each job */
	VEC(trf_run *) runs;     /* every run, in creation order */
	VEC(uint32_t) open;      /* runs some member has not joined yet */
	VEC(tcdf *) cdfs;        /* tables read so far */
	VEC(struct vef_trace *) traces; /* VEF traces read so far */
} trf_world;

/* The traffic state of t's simulation, w->traffic (created on first use). */
trf_world *trf_world_of(rt_task *t);
/* The traffic state of w, or NULL if no traffic ran. */
trf_world *trf_world_find(task_world *w);
/* Frees the traffic state of w (task_world_free calls it; no state is a no-op). */
void trf_world_release(task_world *w);

/* Endpoint entity of physical rank r of t's job. */
sim_eid trf_ep_of(trf_world *tw, const rt_task *t, uint32_t r);
/* The endpoint state of the calling task. */
trf_ep *trf_my_ep(trf_world *tw, const rt_task *t);

/*
 * Joins the calling task to the run of this execution of a statement on g
 * (created by the first member to arrive, then *created = 1). Fatal if t is
 * not a member or the members disagree on the model. Sets *me to t's member index.
 */
trf_run *trf_join(trf_world *tw, rt_task *t, const rt_group *g, int model, const char *label, int *me,
                  int *created);
/* Blocks t until member me of r is done (gen_done and every message delivered); records its end. */
void trf_wait(trf_world *tw, rt_task *t, trf_run *r, int me);
/* Marks member i's generation finished; wakes it if it is waiting and nothing is in flight. */
void trf_gen_done(trf_world *tw, trf_run *r, int i);
/* From an endpoint handler: injects `bytes` from member s to member d of run r (index ri). */
void trf_inject(trf_world *tw, trf_run *r, uint32_t ri, int s, int d, uint64_t bytes, int tclass);
/* The table of a model name or CDF path (read once per simulation); fatal on error. */
const tcdf *trf_cdf(trf_world *tw, rt_task *t, const char *model, const char *path);
/* Index of r in tw->runs. */
uint32_t trf_run_index(const trf_world *tw, const trf_run *r);
/* Frees run r (its figures too). */
void trf_run_free(trf_run *r);

/*
 * Over MPI ranks (trf_par.c): the traffic state exists before the model is
 * split, so that every rank has the endpoints under the same ids, and each
 * endpoint sits on its task's rank.
 */
trf_world *trf_world_prepare(task_world *w);
/* Sets owner[e] of every endpoint e to the owner of its task. */
void trf_par_owner(const task_world *w, uint32_t *owner);
/*
 * After the run, on every rank: rank 0's runs become the runs of the whole
 * machine (each rank ran its members' parts), in the sequential run's order.
 */
void trf_par_finish(task_world *w);

#endif

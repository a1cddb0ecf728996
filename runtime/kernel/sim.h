/*
 * sim.h - the discrete-event kernel (prefix sim_).
 *
 * A model is a set of entities. Each entity has an id, a type (a table of typed
 * handlers) and private state that the model allocates. Entities talk only
 * through events: an event names its target by id and carries a small payload
 * by value. The kernel pops events in (time, source entity, per-source
 * sequence) order, so a run is a pure function of its inputs and seed.
 *
 * Event record (80 bytes, pooled, never malloc'd per event):
 *
 *   +------------------+------------------+---------+---------+------+-------+
 *   | time (u64, ps)   | seq (u64)        | src u32 | dst u32 | kind | state |
 *   +------------------+------------------+---------+---------+------+-------+
 *   | payload: 48 bytes, 8-byte aligned, interpreted by the handler          |
 *   +------------------------------------------------------------------------+
 *
 * `state` is the owner field the kernel asserts on: FREE in the pool, NEW
 * between sim_event_new and sim_schedule (the model fills the payload), QUEUED
 * in the priority queue, FIRING while its handler runs; the kernel returns the
 * event to the pool when the handler returns, so a handler must not keep `ev`.
 */
#ifndef NCSIM_SIM_H
#define NCSIM_SIM_H

#include <signal.h> /* sig_atomic_t */
#include <stddef.h>
#include <stdint.h>

#include "ncsim/rt.h" /* ncsim_time_t */

typedef uint32_t sim_eid;
#define SIM_NO_ENTITY ((sim_eid)0xffffffffu) /* the source of events scheduled from outside handlers */

#define SIM_PAYLOAD_MAX 48

enum sim_event_state { SIM_EV_FREE = 0x5a01, SIM_EV_QUEUED = 0x5a02, SIM_EV_FIRING = 0x5a03, SIM_EV_NEW = 0x5a04 };

typedef struct sim_event {
	ncsim_time_t time;
	uint64_t seq;
	sim_eid src, dst;
	uint16_t kind;  /* index into the target type's handler table */
	uint16_t state; /* enum sim_event_state */
	uint32_t pad_;
	union {
		uint64_t u64[SIM_PAYLOAD_MAX / 8];
		double f64[SIM_PAYLOAD_MAX / 8];
		unsigned char bytes[SIM_PAYLOAD_MAX];
	} data;
} sim_event;
_Static_assert(sizeof(sim_event) == 80, "the event record must match the diagram above");

/* Typed access to an event's payload; T must fit in SIM_PAYLOAD_MAX bytes. */
#define SIM_PAYLOAD(ev, T) ((T *)(void *)(ev)->data.bytes)
#define SIM_PAYLOAD_CHECK(T) _Static_assert(sizeof(T) <= SIM_PAYLOAD_MAX, #T " is too big for an event")

typedef struct sim_ctx sim_ctx;

/*
 * The first fields of every sim_ctx: the clock and the running entity, which
 * the models read for nearly every event, so sim_now and sim_self below read
 * them in place instead of calling into the kernel. Only sim.c writes them.
 */
typedef struct sim_clock {
	ncsim_time_t now;
	sim_eid self;
	const struct sim_event *ev; /* the firing event, NULL outside handlers */
} sim_clock;

/* A handler for one event kind. `state` is the target entity's private state. */
typedef void (*sim_handler)(sim_ctx *ctx, void *state, const sim_event *ev);

/*
 * An entity type: fill with designated initializers, keep it static const.
 *   init   - called once per entity, in id order, at the start of the first
 *            sim_run after the entity was added (an entity added by a handler
 *            gets it before the next event); may schedule events; may be NULL
 *   final  - called for every entity when a sim_run call ends, whatever ended
 *            it (so once per sim_run call: a model run in slices with `until`
 *            sees it once per slice); may be NULL
 * While init, a handler or final runs, sim_self is that entity, so the events
 * it schedules have it as their source.
 */
typedef struct sim_type {
	const char *name;
	const sim_handler *handlers; /* indexed by event kind */
	unsigned nhandlers;
	void (*init)(sim_ctx *ctx, void *state, sim_eid self);
	void (*final)(sim_ctx *ctx, void *state, sim_eid self);
} sim_type;

/* End-of-run counters. */
typedef struct sim_stats {
	uint64_t events;        /* events processed */
	uint64_t scheduled;     /* events scheduled */
	uint64_t peak_pending;  /* largest queue size seen */
	ncsim_time_t end_time;  /* simulated time of the last event processed */
	double wall_seconds;    /* wall time spent in sim_run */
	int stopped_at_until;   /* 1 if the run stopped because of `until` */
	int interrupted;        /* 1 if the flag of sim_set_interrupt stopped the run */
} sim_stats;

/* Creates a context; `seed` derives every entity's RNG stream. */
sim_ctx *sim_new(uint64_t seed);
/* Destroys ctx and its pools; entity states belong to the models. NULL is a no-op. */
void sim_free(sim_ctx *ctx);

/* Registers an entity; ids are dense and start at 0. `state` is owned by the caller. */
sim_eid sim_entity_add(sim_ctx *ctx, const sim_type *type, void *state);
/* Bytes the kernel keeps per entity (for the models' memory estimates). */
size_t sim_entity_bytes(void);
/* Number of entities registered so far. */
sim_eid sim_entity_count(const sim_ctx *ctx);
/* The private state registered for entity id. */
void *sim_entity_state(const sim_ctx *ctx, sim_eid id);

/*
 * Takes a free event from the pool, addressed to `dst`, firing `delay` ps after
 * now with handler `kind`. Fill its payload, then pass it to sim_schedule. The
 * source is the entity whose handler is running (SIM_NO_ENTITY outside handlers).
 * dst must exist and kind must be below its type's nhandlers (asserted). If
 * now + delay overflows (a negative delay cast to unsigned), the kernel reports
 * it on stderr, queues the event at the end of time and stops the run with an
 * error.
 */
sim_event *sim_event_new(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, uint16_t kind);
/* Queues an event obtained from sim_event_new. */
void sim_schedule(sim_ctx *ctx, sim_event *ev);
/*
 * Reserves n sequence numbers of the running entity (the context's own
 * outside handlers) and returns the first. A model reserves numbers for
 * events it may or may not schedule, so that the entity's later numbers do
 * not depend on that choice (doc/parallel.md); reserving renumbers the
 * entity's later events monotonically, which keeps the pop order.
 */
uint64_t sim_reserve_seqs(sim_ctx *ctx, unsigned n);
/* sim_schedule with a sequence number that sim_reserve_seqs gave the same source. */
void sim_schedule_seq(sim_ctx *ctx, sim_event *ev, uint64_t seq);
/* sim_event_new + copy `len` payload bytes + sim_schedule, in one call. */
void sim_send(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, uint16_t kind, const void *payload, size_t len);

/* Current simulated time in ps. */
static inline ncsim_time_t sim_now(const sim_ctx *ctx) { return ((const sim_clock *)(const void *)ctx)->now; }
/* The entity whose handler is running, or SIM_NO_ENTITY. */
static inline sim_eid sim_self(const sim_ctx *ctx) { return ((const sim_clock *)(const void *)ctx)->self; }
/* The event whose handler is running (its key: time, src, seq), or NULL outside handlers. */
static inline const sim_event *sim_firing(const sim_ctx *ctx) { return ((const sim_clock *)(const void *)ctx)->ev; }

/* The `until` of sim_run that means no time limit. */
#define SIM_FOREVER UINT64_MAX
/*
 * Runs until no event remains or the next event is later than `until`
 * (SIM_FOREVER for no limit); events at exactly `until` are processed, later
 * ones stay queued (sim_pending counts them) and a later sim_run resumes.
 * sim_now is then the time of the last event processed, not `until`. Calls
 * init hooks first and final hooks last (see sim_type). Returns 0, or -1 if
 * sim_stop was called with an error (or if called from inside a handler).
 */
int sim_run(sim_ctx *ctx, ncsim_time_t until);
/* Makes sim_run return after the current handler; err != 0 makes it return -1. */
void sim_stop(sim_ctx *ctx, int err);
/*
 * sim_run stops (returning 0, stats.interrupted set) within a few thousand
 * events of *flag becoming non-zero; a signal handler sets it. NULL: never.
 */
void sim_set_interrupt(sim_ctx *ctx, const volatile sig_atomic_t *flag);
/*
 * Counters of the last (or current) run. `scheduled` and `peak_pending` also
 * count what was queued between the previous run and this one.
 */
const sim_stats *sim_get_stats(const sim_ctx *ctx);
/* Number of events still queued. */
uint64_t sim_pending(const sim_ctx *ctx);
/* Number of event records the pool owns (free, new, queued or firing): its high-water mark. */
uint64_t sim_pool_capacity(const sim_ctx *ctx);

/* Progress line on stderr: off, on when stderr is a terminal (default), or forced. */
enum sim_progress { SIM_PROGRESS_OFF, SIM_PROGRESS_AUTO, SIM_PROGRESS_ON };
/* Sets the progress mode; expected_end (ps, 0 = unknown) enables the ETA. */
void sim_set_progress(sim_ctx *ctx, enum sim_progress mode, ncsim_time_t expected_end);

/*
 * Per-entity random streams (xoshiro256**), derived from (seed, entity id);
 * independent of the order in which entities draw. id SIM_NO_ENTITY means the
 * running entity; outside handlers it means the context's own stream (derived
 * from (seed, SIM_NO_ENTITY)), so code outside handlers should name the entity.
 */
uint64_t sim_rng_u64(sim_ctx *ctx, sim_eid id);
/* Uniform double in [0, 1). */
double sim_rng_unif(sim_ctx *ctx, sim_eid id);
/* Exponential variate with the given mean. */
double sim_rng_exp(sim_ctx *ctx, sim_eid id, double mean);

/*
 * Parallel runs (runtime/kernel/par.h drives them; models never call these).
 * A partition gives every entity an owning rank. Events for entities of
 * other ranks go to hooks->remote with their whole key (time, src, seq), so
 * the receiving rank queues them exactly where a sequential run would have;
 * init and final hooks run for local entities only; sim_run hands its loop
 * to hooks->loop, which advances in windows with sim_advance, and calls
 * hooks->reduce (may be NULL) after the final hooks to combine the counters
 * and error flag of every rank.
 */
typedef struct sim_par_hooks {
	void (*remote)(void *arg, const sim_event *ev, uint32_t rank);
	void (*loop)(void *arg, sim_ctx *ctx, ncsim_time_t until);
	void (*reduce)(void *arg, sim_stats *stats, int *err);
} sim_par_hooks;
/* Sets the partition: owner[id] for ids < n (kept, not copied); this rank is me. NULL owner: sequential again. */
void sim_set_partition(sim_ctx *ctx, const uint32_t *owner, sim_eid n, uint32_t me, const sim_par_hooks *hooks,
                       void *arg);
/* Inside hooks->loop: fires local events up to time `last` (inclusive); 1 if the run was stopped (sim_stop, interrupt). */
int sim_advance(sim_ctx *ctx, ncsim_time_t last);
/* sim_advance for the events whose key is below (time, src, seq); 1 if the run was stopped. */
int sim_advance_key(sim_ctx *ctx, ncsim_time_t time, sim_eid src, uint64_t seq);
/* Order of event keys: -1, 0 or 1 as (t1, s1, q1) is below, equal to or above (t2, s2, q2). */
static inline int sim_key_cmp(ncsim_time_t t1, sim_eid s1, uint64_t q1, ncsim_time_t t2, sim_eid s2, uint64_t q2)
{
	if (t1 != t2)
		return t1 < t2 ? -1 : 1;
	if (s1 != s2)
		return s1 < s2 ? -1 : 1;
	return q1 < q2 ? -1 : q1 > q2;
}
/* An event's key as a value, for records that must be put in the run's order later (no padding left undefined). */
typedef struct sim_key {
	ncsim_time_t time;
	uint64_t seq;
	sim_eid src;
	uint32_t pad_;
} sim_key;
/* The key of the event firing in ctx; all zero outside handlers. */
static inline sim_key sim_firing_key(const sim_ctx *ctx)
{
	const sim_event *ev = sim_firing(ctx);
	return ev ? (sim_key){.time = ev->time, .seq = ev->seq, .src = ev->src} : (sim_key){0};
}
/* sim_key_cmp of two keys. */
static inline int sim_key_order(const sim_key *a, const sim_key *b)
{
	return sim_key_cmp(a->time, a->src, a->seq, b->time, b->src, b->seq);
}
/* Time of the earliest queued event, or SIM_FOREVER if none. */
ncsim_time_t sim_next_time(sim_ctx *ctx);
/* Queues a copy of an event another rank sent (its key kept; its dst must be local, its time not in the past). */
void sim_insert_remote(sim_ctx *ctx, const sim_event *rec);
/* Inside hooks->loop: the run stops because of `until` (sim_stats.stopped_at_until). */
void sim_set_stopped_at_until(sim_ctx *ctx);

/* Time to move `bytes` at `bytes_per_s`, in ps, rounded up. 0 bandwidth means 0 time. */
static inline ncsim_time_t sim_xfer_time(uint64_t bytes, double bytes_per_s)
{
	if (bytes_per_s <= 0.0)
		return 0;
	double t = (double)bytes * 1e12 / bytes_per_s;
	ncsim_time_t r = (ncsim_time_t)t;
	return (double)r < t ? r + 1 : r;
}

#endif

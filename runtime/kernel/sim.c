/*
 * sim.c - the sequential discrete-event kernel (see sim.h).
 *
 * Context layout: the fields the run loop touches for every event come first
 * so they share a cache line or two; entity records are 64 bytes, one line:
 *
 *   sim_entity: [ type* | state* | seq (u64) | rng (4 x u64) | flags ]
 *
 * Event records come from slabs that are never given back one by one; a freed
 * record goes on a LIFO free list (its `time` field holds the link), so the
 * record reused next is the one most recently touched and still in cache.
 */
#include "config.h"

#include "runtime/kernel/sim.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/pqueue.h"
#include "runtime/kernel/progress.h"
#include "runtime/kernel/rng.h"
#include "base/util.h"

#ifdef NCSIM_ASAN
#include <sanitizer/asan_interface.h>
/* A payload read after the kernel took the event back is a use after free. */
#define POISON_PAYLOAD(ev) ASAN_POISON_MEMORY_REGION((ev)->data.bytes, SIM_PAYLOAD_MAX)
#define UNPOISON_PAYLOAD(ev) ASAN_UNPOISON_MEMORY_REGION((ev)->data.bytes, SIM_PAYLOAD_MAX)
#define UNPOISON_RANGE(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define UNPOISON_RANGE(p, n) ((void)(p), (void)(n))
#define POISON_PAYLOAD(ev) ((void)(ev))
#define UNPOISON_PAYLOAD(ev) ((void)(ev))
#endif

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define ENT_INIT_DONE 1u
#define ENT_RNG_READY 2u

/* Slabs double from FIRST to MAX records, so small models stay small. */
#define SLAB_FIRST 1024
#define SLAB_MAX 65536

typedef struct sim_entity {
	const sim_type *type;
	void *state;
	uint64_t seq; /* sequence number of the next event this entity schedules */
	sim_rng rng;
	uint32_t flags;
} sim_entity;

struct sim_ctx {
	/* hot: read or written for every event */
	sim_clock clk; /* first: sim_now and sim_self (sim.h) read it through the context pointer */
	int stop;
	sim_pq pq;
	sim_event *free_list;
	sim_entity *ents;
	sim_eid nents;
	sim_eid ninit; /* entities [0, ninit) have had their init hook */
	uint32_t tick; /* events until the next look at the clock */
	sim_stats stats; /* counters of the run in progress (or accumulating for the next) */

	/* cold */
	int running, err, overflow_reported;
	sim_eid ents_cap;
	uint64_t seed;
	uint64_t ext_seq; /* sequence of events scheduled from outside handlers */
	sim_rng ext_rng;  /* stream of SIM_NO_ENTITY, seeded lazily */
	int ext_rng_ready;
	VEC(sim_event *) slabs;
	uint64_t pool_cap;
	size_t next_slab;
	sim_stats last; /* counters of the last finished run */
	sim_progress_state prog;
	const volatile sig_atomic_t *interrupt; /* sim_set_interrupt's flag, or NULL */

	/* Parallel runs (par.c): NULL owner means sequential, every entity local. */
	const uint32_t *owner;  /* rank of each entity, owner[0 .. nowner) */
	sim_eid nowner;
	uint32_t me;            /* this rank */
	const sim_par_hooks *par;
	void *par_arg;
};

sim_ctx *sim_new(uint64_t seed)
{
	sim_ctx *ctx = xcalloc(1, sizeof *ctx);
	ctx->seed = seed;
	ctx->clk.self = SIM_NO_ENTITY;
	ctx->next_slab = SLAB_FIRST;
	ctx->tick = SIM_PROGRESS_EVERY;
	sim_pq_init(&ctx->pq);
	sim_progress_init(&ctx->prog);
	return ctx;
}

void sim_free(sim_ctx *ctx)
{
	if (ctx == NULL)
		return;
	size_t n = SLAB_FIRST;
	for (size_t i = 0; i < ctx->slabs.len; i++) {
		/* The allocator must see the slab as it handed it out. */
		UNPOISON_RANGE(ctx->slabs.ptr[i], n * sizeof(sim_event));
		free(ctx->slabs.ptr[i]);
		if (n < SLAB_MAX)
			n *= 2;
	}
	VEC_FREE(&ctx->slabs);
	sim_pq_free(&ctx->pq);
	free(ctx->ents);
	free(ctx);
}

/* ---------------------------------------------------------------- entities */

sim_eid sim_entity_add(sim_ctx *ctx, const sim_type *type, void *state)
{
	assert(type != NULL && (type->nhandlers == 0 || type->handlers != NULL));
	assert(ctx->nents < SIM_NO_ENTITY);
	assert(ctx->owner == NULL); /* a partitioned run has a fixed set of entities */
	if (ctx->nents == ctx->ents_cap) {
		sim_eid ncap = ctx->ents_cap ? ctx->ents_cap * 2 : 64;
		if (ncap < ctx->ents_cap || ncap == SIM_NO_ENTITY)
			ncap = SIM_NO_ENTITY - 1;
		ctx->ents = xreallocarray(ctx->ents, ncap, sizeof *ctx->ents);
		ctx->ents_cap = ncap;
	}
	sim_eid id = ctx->nents++;
	ctx->ents[id] = (sim_entity){ .type = type, .state = state };
	return id;
}

sim_eid sim_entity_count(const sim_ctx *ctx) { return ctx->nents; }

size_t sim_entity_bytes(void) { return sizeof(sim_entity); }

void *sim_entity_state(const sim_ctx *ctx, sim_eid id)
{
	assert(id < ctx->nents);
	return ctx->ents[id].state;
}

/* ---------------------------------------------------------------- event pool */

/* Out of line and cold, so that the per-event path saves no registers for it. */
static __attribute__((noinline, cold)) void pool_grow(sim_ctx *ctx)
{
	size_t n = ctx->next_slab;
	sim_event *slab = xcalloc(n, sizeof *slab);
	VEC_PUSH(&ctx->slabs, slab);
	ctx->pool_cap += n;
	if (ctx->next_slab < SLAB_MAX)
		ctx->next_slab *= 2;
	/* Linked so that the lowest record is taken first. */
	sim_event *next = ctx->free_list;
	for (size_t i = n; i-- > 0;) {
		slab[i].state = SIM_EV_FREE;
		slab[i].time = (uintptr_t)next;
		POISON_PAYLOAD(&slab[i]);
		next = &slab[i];
	}
	ctx->free_list = next;
}

static inline sim_event *pool_take(sim_ctx *ctx)
{
	if (UNLIKELY(ctx->free_list == NULL))
		pool_grow(ctx);
	sim_event *ev = ctx->free_list;
	assert(ev->state == SIM_EV_FREE);
	ctx->free_list = (sim_event *)(uintptr_t)ev->time;
	UNPOISON_PAYLOAD(ev);
	return ev;
}

static inline void pool_give(sim_ctx *ctx, sim_event *ev)
{
	ev->state = SIM_EV_FREE;
	ev->time = (uintptr_t)ctx->free_list;
	POISON_PAYLOAD(ev);
	ctx->free_list = ev;
}

uint64_t sim_pool_capacity(const sim_ctx *ctx) { return ctx->pool_cap; }

/* ---------------------------------------------------------------- scheduling */

/* A negative delay converted to unsigned lands here: a model bug. Returns the time the event gets. */
static __attribute__((noinline, cold)) ncsim_time_t report_overflow(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay,
                                                                    uint16_t kind)
{
	if (!ctx->overflow_reported)
		fprintf(stderr,
		        "ncsim: kernel: event time overflows: now %" PRIu64 " ps + delay %" PRIu64
		        " ps (entity %" PRIu32 " -> %" PRIu32 ", kind %u); stopping the run\n",
		        ctx->clk.now, delay, ctx->clk.self, dst, (unsigned)kind);
	ctx->overflow_reported = 1;
	sim_stop(ctx, 1);
	return UINT64_MAX;
}

static inline sim_event *event_new(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, uint16_t kind)
{
	assert(dst < ctx->nents);
	assert(kind < ctx->ents[dst].type->nhandlers);
	sim_event *ev = pool_take(ctx);
	ncsim_time_t t = ctx->clk.now + delay;
	if (UNLIKELY(t < delay))
		t = report_overflow(ctx, dst, delay, kind);
	ev->time = t;
	ev->src = ctx->clk.self;
	ev->dst = dst;
	ev->kind = kind;
	ev->state = SIM_EV_NEW;
	return ev;
}

sim_event *sim_event_new(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, uint16_t kind)
{
	return event_new(ctx, dst, delay, kind);
}

/* 1 if entity id lives on another rank (never in a sequential run). */
static inline int remote(const sim_ctx *ctx, sim_eid id)
{
	return UNLIKELY(ctx->owner != NULL) && ctx->owner[id] != ctx->me;
}

/*
 * An event for an entity of another rank: handed to par.c with its whole key,
 * or dropped when scheduled outside handlers, since every rank runs the same
 * set-up and the owner schedules its own copy (with the same ext_seq).
 */
static __attribute__((noinline)) void send_remote(sim_ctx *ctx, sim_event *ev)
{
	assert(ev->dst < ctx->nowner);
	if (ev->src != SIM_NO_ENTITY) {
		ctx->par->remote(ctx->par_arg, ev, ctx->owner[ev->dst]);
		ctx->stats.scheduled++;
	}
	pool_give(ctx, ev);
}

/* Queues ev (its key complete) here, or hands it to its rank. */
static inline void queue(sim_ctx *ctx, sim_event *ev)
{
	if (remote(ctx, ev->dst)) {
		send_remote(ctx, ev);
		return;
	}
	ev->state = SIM_EV_QUEUED;
	sim_pq_push(&ctx->pq, ev);
	ctx->stats.scheduled++;
	if (UNLIKELY(ctx->pq.n > ctx->stats.peak_pending))
		ctx->stats.peak_pending = ctx->pq.n;
}

static inline void schedule(sim_ctx *ctx, sim_event *ev)
{
	assert(ev->state == SIM_EV_NEW);
	assert(ev->time >= ctx->clk.now);
	uint64_t *seq = ev->src == SIM_NO_ENTITY ? &ctx->ext_seq : &ctx->ents[ev->src].seq;
	ev->seq = (*seq)++;
	queue(ctx, ev);
}

void sim_schedule(sim_ctx *ctx, sim_event *ev) { schedule(ctx, ev); }

uint64_t sim_reserve_seqs(sim_ctx *ctx, unsigned n)
{
	uint64_t *seq = ctx->clk.self == SIM_NO_ENTITY ? &ctx->ext_seq : &ctx->ents[ctx->clk.self].seq;
	uint64_t first = *seq;
	*seq += n;
	return first;
}

void sim_schedule_seq(sim_ctx *ctx, sim_event *ev, uint64_t seq)
{
	assert(ev->state == SIM_EV_NEW && ev->src == ctx->clk.self);
	assert(seq < (ev->src == SIM_NO_ENTITY ? ctx->ext_seq : ctx->ents[ev->src].seq));
	ev->seq = seq;
	queue(ctx, ev);
}

void sim_send(sim_ctx *ctx, sim_eid dst, ncsim_time_t delay, uint16_t kind, const void *payload, size_t len)
{
	assert(len <= SIM_PAYLOAD_MAX);
	sim_event *ev = event_new(ctx, dst, delay, kind);
	if (len)
		memcpy(ev->data.bytes, payload, len);
	schedule(ctx, ev);
}

uint64_t sim_pending(const sim_ctx *ctx) { return sim_pq_size(&ctx->pq); }

/* ---------------------------------------------------------------- run loop */

void sim_stop(sim_ctx *ctx, int err)
{
	ctx->stop = 1;
	if (err)
		ctx->err = 1;
}

const sim_stats *sim_get_stats(const sim_ctx *ctx) { return ctx->running ? &ctx->stats : &ctx->last; }

void sim_set_progress(sim_ctx *ctx, enum sim_progress mode, ncsim_time_t expected_end)
{
	ctx->prog.mode = mode;
	ctx->prog.expected_end = expected_end;
}

/* Calls the init hook of every entity that has not had it, in id order. */
static void run_inits(sim_ctx *ctx)
{
	while (ctx->ninit < ctx->nents) {
		sim_eid id = ctx->ninit++;
		sim_entity *e = &ctx->ents[id];
		assert(!(e->flags & ENT_INIT_DONE));
		e->flags |= ENT_INIT_DONE;
		if (e->type->init && !remote(ctx, id)) {
			ctx->clk.self = id;
			ctx->clk.ev = NULL;
			e->type->init(ctx, e->state, id);
		}
	}
	ctx->clk.self = SIM_NO_ENTITY;
}

void sim_set_interrupt(sim_ctx *ctx, const volatile sig_atomic_t *flag) { ctx->interrupt = flag; }

/* Stops the run if the interrupt flag is up; looked at every SIM_PROGRESS_EVERY events, never per event. */
static void check_interrupt(sim_ctx *ctx)
{
	if (UNLIKELY(ctx->interrupt && *ctx->interrupt)) {
		ctx->stats.interrupted = 1;
		ctx->stop = 1;
	}
}

static void progress_tick(sim_ctx *ctx)
{
	ctx->tick = SIM_PROGRESS_EVERY;
	check_interrupt(ctx);
	sim_progress_tick(&ctx->prog, sim_progress_clock(), ctx->clk.now, ctx->stats.events);
}

/* Why run_events returned. */
enum { RUN_DRAINED, RUN_BOUND, RUN_STOPPED };

/*
 * Fires events in key order while their time is <= last and nothing stopped
 * the run. Inlined into both callers, so the sequential loop is the same code
 * it always was.
 */
/* Pops the event at the front of the queue and runs its handler. */
static inline __attribute__((always_inline)) void fire_front(sim_ctx *ctx, const sim_pq_node *front)
{
	sim_pq *pq = &ctx->pq;
	sim_event *ev = sim_pq_pop_front(pq, front);
	/* The next record is likely out of cache: fetch it while this one fires. */
	sim_pq_prefetch_next(pq);
	assert(ev->state == SIM_EV_QUEUED);
	assert(ev->time >= ctx->clk.now);
	ev->state = SIM_EV_FIRING;
	ctx->clk.now = ev->time;
	ctx->clk.ev = ev;
	sim_eid dst = ev->dst;
	const sim_entity *e = &ctx->ents[dst];
	const sim_type *type = e->type;
	assert(ev->kind < type->nhandlers && type->handlers[ev->kind] != NULL);
	ctx->clk.self = dst;
	type->handlers[ev->kind](ctx, e->state, ev);
	assert(ev->state == SIM_EV_FIRING);
	pool_give(ctx, ev);
	ctx->stats.events++;
	if (UNLIKELY(ctx->ninit != ctx->nents))
		run_inits(ctx); /* a handler created entities */
	if (UNLIKELY(--ctx->tick == 0))
		progress_tick(ctx);
}

static inline __attribute__((always_inline)) int run_events(sim_ctx *ctx, ncsim_time_t last)
{
	sim_pq *pq = &ctx->pq;
	while (LIKELY(!ctx->stop)) {
		if (UNLIKELY(pq->n == 0))
			return RUN_DRAINED;
		const sim_pq_node *front = sim_pq_front(pq);
		if (UNLIKELY(front->time > last))
			return RUN_BOUND;
		fire_front(ctx, front);
	}
	return RUN_STOPPED;
}

int sim_run(sim_ctx *ctx, ncsim_time_t until)
{
	if (ctx->running) {
		fprintf(stderr, "ncsim: kernel: sim_run called from inside a handler\n");
		return -1;
	}
	double wall0 = sim_progress_clock();
	ctx->running = 1;
	ctx->stop = 0;
	ctx->err = 0;
	ctx->stats.events = 0;
	ctx->stats.stopped_at_until = 0;
	ctx->stats.interrupted = 0;
	ctx->stats.end_time = ctx->clk.now;
	sim_progress_begin(&ctx->prog, wall0, ctx->clk.now);
	ctx->tick = SIM_PROGRESS_EVERY;

	run_inits(ctx);
	check_interrupt(ctx); /* a signal during the set-up */

	if (ctx->par)
		ctx->par->loop(ctx->par_arg, ctx, until);
	else if (run_events(ctx, until) == RUN_BOUND)
		ctx->stats.stopped_at_until = 1;
	ctx->clk.self = SIM_NO_ENTITY;
	ctx->clk.ev = NULL;
	ctx->stats.end_time = ctx->clk.now;
	sim_progress_end(&ctx->prog);

	for (sim_eid id = 0; id < ctx->nents; id++) {
		const sim_entity *e = &ctx->ents[id];
		if (e->type->final && !remote(ctx, id)) {
			ctx->clk.self = id;
			e->type->final(ctx, e->state, id);
		}
	}
	ctx->clk.self = SIM_NO_ENTITY;
	if (ctx->par && ctx->par->reduce)
		ctx->par->reduce(ctx->par_arg, &ctx->stats, &ctx->err);

	ctx->stats.wall_seconds = sim_progress_clock() - wall0;
	ctx->last = ctx->stats;
	/* Counting starts afresh for whatever is scheduled before the next run. */
	ctx->stats.scheduled = 0;
	ctx->stats.peak_pending = ctx->pq.n;
	ctx->running = 0;
	return ctx->err ? -1 : 0;
}

/* ---------------------------------------------------------------- parallel hooks */

void sim_set_partition(sim_ctx *ctx, const uint32_t *owner, sim_eid n, uint32_t me, const sim_par_hooks *hooks,
                       void *arg)
{
	assert(!ctx->running);
	assert(owner == NULL || n >= ctx->nents);
	ctx->owner = owner;
	ctx->nowner = owner ? n : 0;
	ctx->me = me;
	ctx->par = owner ? hooks : NULL;
	ctx->par_arg = arg;
}

int sim_advance(sim_ctx *ctx, ncsim_time_t last)
{
	assert(ctx->running && ctx->par);
	int why = run_events(ctx, last);
	ctx->clk.self = SIM_NO_ENTITY;
	ctx->clk.ev = NULL;
	return why == RUN_STOPPED || ctx->stop;
}

int sim_advance_key(sim_ctx *ctx, ncsim_time_t time, sim_eid src, uint64_t seq)
{
	assert(ctx->running && ctx->par);
	if (time > 0 && run_events(ctx, time - 1) == RUN_STOPPED)
		return 1;
	/* The events of instant `time` below the key: few, one at a time. */
	while (!ctx->stop && ctx->pq.n) {
		const sim_pq_node *f = sim_pq_front(&ctx->pq);
		if (sim_key_cmp(f->time, f->src, f->seq, time, src, seq) >= 0)
			break;
		fire_front(ctx, f);
	}
	ctx->clk.self = SIM_NO_ENTITY;
	ctx->clk.ev = NULL;
	return ctx->stop;
}

ncsim_time_t sim_next_time(sim_ctx *ctx) { return ctx->pq.n ? sim_pq_min_time(&ctx->pq) : SIM_FOREVER; }

void sim_insert_remote(sim_ctx *ctx, const sim_event *rec)
{
	assert(rec->dst < ctx->nents && !remote(ctx, rec->dst));
	assert(rec->kind < ctx->ents[rec->dst].type->nhandlers);
	assert(rec->time >= ctx->clk.now);
	sim_event *ev = pool_take(ctx);
	*ev = *rec;
	ev->state = SIM_EV_QUEUED;
	sim_pq_push(&ctx->pq, ev);
	if (UNLIKELY(ctx->pq.n > ctx->stats.peak_pending))
		ctx->stats.peak_pending = ctx->pq.n;
}

void sim_set_stopped_at_until(sim_ctx *ctx) { ctx->stats.stopped_at_until = 1; }

/* ---------------------------------------------------------------- random streams */

static inline sim_rng *stream(sim_ctx *ctx, sim_eid id)
{
	if (id == SIM_NO_ENTITY)
		id = ctx->clk.self;
	if (id == SIM_NO_ENTITY) {
		if (!ctx->ext_rng_ready) {
			sim_rng_seed(&ctx->ext_rng, ctx->seed, SIM_NO_ENTITY);
			ctx->ext_rng_ready = 1;
		}
		return &ctx->ext_rng;
	}
	assert(id < ctx->nents);
	sim_entity *e = &ctx->ents[id];
	if (UNLIKELY(!(e->flags & ENT_RNG_READY))) {
		sim_rng_seed(&e->rng, ctx->seed, id);
		e->flags |= ENT_RNG_READY;
	}
	return &e->rng;
}

uint64_t sim_rng_u64(sim_ctx *ctx, sim_eid id) { return sim_rng_next(stream(ctx, id)); }

double sim_rng_unif(sim_ctx *ctx, sim_eid id) { return sim_rng_next_unif(stream(ctx, id)); }

double sim_rng_exp(sim_ctx *ctx, sim_eid id, double mean)
{
	/* 1 - u lies in (0, 1], so the logarithm is finite. */
	return -mean * log(1.0 - sim_rng_next_unif(stream(ctx, id)));
}

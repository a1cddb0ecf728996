/*
 * pqueue.h - the kernel's pending-event set (prefix sim_pq_).
 *
 * Order: (time, source entity, per-source sequence). Those three fields are
 * unique per event, so the pop order is total and never depends on an address
 * or on the order of insertion. Nodes carry the whole key next to the event
 * pointer, {time, seq, src, event*} in 32 bytes, so no comparison ever reads an
 * event record: models with many simultaneous events (every NIC starting at
 * t = 0, fixed link latencies) compare as fast as those without ties.
 *
 * Structure: a timing wheel in front of two 4-ary heaps (a two-tier calendar
 * queue). Time is cut into windows of 2^shift ps; w(t) = t >> shift.
 *
 *        near heap            wheel: one unsorted bucket per window          far heap
 *   windows <= cur_w     cur_w+1   cur_w+2   ...   cur_w+nslots           later windows
 *   +-------------+     +-------+---------+-----+-----------+          +-------------+
 *   | 4-ary heap  | <-- | slot  | slot    | ... | slot      |  <-----  | 4-ary heap  |
 *   +-------------+     +-------+---------+-----+-----------+          +-------------+
 *     pops come          a push appends in O(1); slot = w & (nslots-1);   pulled into the
 *     from here          a bitmap marks the non-empty slots               wheel as it turns
 *
 * Invariant: every event of window <= cur_w is in the near heap or the run,
 * every event of windows cur_w+1 .. cur_w+nslots is in its slot, every later
 * one in the far heap. When both run dry the wheel turns to the next non-empty
 * slot, whose bucket becomes the run: sorted once (often already in order;
 * else insertion-sorted blocks merged, as the events of one window mostly
 * come in a few ascending sequences, such as one per instant with many events
 * of equal time), then popped from its head in O(1). The bucket's array goes
 * with it, and the run's previous array waits for the next slot that fills. Events pushed into windows <= cur_w later go into the near heap
 * (which stays small and in L1); a pop takes the smaller of the run's head
 * and the heap's root.
 *
 * Every so many turns the window width and the number of slots are re-tuned
 * from the observed occupancy and the reach of pushes, so the structure
 * follows the model's time scale; a re-tune re-files every event (O(n), rare).
 *
 * Heap layout: 32-byte nodes; node 0 sits 96 bytes into a 128-byte aligned
 * block, so the four children of node i (4i+1 .. 4i+4) fill one pair of cache
 * lines (which the adjacent-line prefetcher fetches together):
 *
 *   lines 0-1: [ pad | pad | pad | n0 ]
 *   lines 2-3: [ n1  | n2  | n3  | n4 ]        children of n0
 *   lines 4-5: [ n5  | n6  | n7  | n8 ]        children of n1
 *
 * Heap pop is the "bottom-up" variant: the hole left by the root walks down to
 * a leaf along the smaller children (3 comparisons per level), then the last
 * element is sifted up from there, usually a step or two.
 *
 * The hot paths are static inline so the run loop compiles them in place.
 */
#ifndef NCSIM_PQUEUE_H
#define NCSIM_PQUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/kernel/sim.h"
#include "base/util.h"

typedef struct sim_pq_node {
	ncsim_time_t time;
	uint64_t seq;
	sim_eid src;
	sim_event *ev;
} sim_pq_node;

typedef struct sim_pq_heap {
	sim_pq_node *h; /* h[0] is the minimum; cache-line aligned children */
	size_t n, cap;
	void *mem; /* the allocation h points into */
} sim_pq_heap;

typedef struct sim_pq_bucket {
	sim_pq_node *v;
	uint32_t n, cap;
} sim_pq_bucket;

/* The events of the window the wheel turned to last, sorted: pops take them from `head` on. */
typedef struct sim_pq_run {
	sim_pq_node *v;
	uint32_t head, n, cap;
} sim_pq_run;

typedef struct sim_pq {
	sim_pq_heap near;
	sim_pq_run run;
	uint64_t cur_w;        /* the last window whose events are in `near` */
	unsigned shift;        /* window width is 2^shift ps */
	uint32_t nslots;       /* a power of two, >= 64 */
	sim_pq_bucket *slots;
	uint64_t *bits;        /* bit s set: slots[s] is not empty */
	size_t in_slots;       /* events in the wheel */
	sim_pq_heap far;
	size_t n;              /* events in all three parts */
	size_t near_max;       /* near heap size that triggers sim_pq_crowded */
	/* occupancy seen since the last re-tune */
	uint64_t turns, drained, stepped, spread, tune_at;
	/* where pushes landed since the last re-tune: all, past the wheel, in its last 3/4 */
	uint64_t pushed, to_far, to_upper;
	uint64_t far_reach;    /* the farthest of those pushes past the wheel, in windows from cur_w */
	uint32_t min_slots;    /* slot count the reach of pushes asks for (see tune) */
	VEC(sim_pq_node) scratch;
	VEC(sim_pq_bucket) spare; /* arrays of drained buckets, handed to the next slot that fills */
} sim_pq;

/* Makes pq an empty queue. */
void sim_pq_init(sim_pq *pq);
/* Releases pq's memory; the events it still holds belong to the caller. NULL is a no-op. */
void sim_pq_free(sim_pq *pq);
/* Forgets every queued event (they belong to the caller) and keeps the memory. */
void sim_pq_clear(sim_pq *pq);

/* Internal slow paths of the inline functions below, kept out of line so the hot paths stay small. */
/* Doubles hp's capacity, keeping the cache-line alignment of children. */
void sim_pq_heap_grow(sim_pq_heap *hp);
/* Gives the full bucket b room: a spare array if b has none, else twice its capacity. */
void sim_pq_bucket_grow(sim_pq *pq, sim_pq_bucket *b);
/* Fills the empty near heap from the next non-empty window, pulling far events into the wheel as it turns; re-tunes when due. */
void sim_pq_refill(sim_pq *pq);
/* Narrows the window when the near heap has grown past near_max. */
void sim_pq_crowded(sim_pq *pq);

/* True if a pops before b: (time, src, seq) order. */
static inline int sim_pq_less(const sim_pq_node *a, const sim_pq_node *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->src != b->src)
		return a->src < b->src;
	return a->seq < b->seq;
}

/* Places x at the hole h[i] or above it, moving larger parents down (heap sift-up). */
static inline void sim_pq_heap_sift_up(sim_pq_node *h, size_t i, sim_pq_node x)
{
	while (i > 0) {
		size_t p = (i - 1) >> 2;
		if (!sim_pq_less(&x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
}

/* Inserts x into the 4-ary heap hp. */
static inline void sim_pq_heap_push(sim_pq_heap *hp, sim_pq_node x)
{
	if (hp->n == hp->cap)
		sim_pq_heap_grow(hp);
	size_t i = hp->n++;
	sim_pq_heap_sift_up(hp->h, i, x);
}

/* Removes the minimum of the non-empty heap hp and returns its event. */
static inline sim_event *sim_pq_heap_pop(sim_pq_heap *hp)
{
	sim_pq_node *h = hp->h;
	sim_event *top = h[0].ev;
	size_t n = --hp->n;
	if (n == 0)
		return top;
	/* h[n] is the element that must find a new place; slots 0..n-1 remain. */
	size_t i = 0;
	for (;;) {
		size_t c = (i << 2) + 1;
		if (c + 3 < n) {
			size_t a = sim_pq_less(&h[c + 1], &h[c]) ? c + 1 : c;
			size_t b = sim_pq_less(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;
			size_t m = sim_pq_less(&h[b], &h[a]) ? b : a;
			h[i] = h[m];
			i = m;
		} else {
			if (c >= n)
				break;
			size_t m = c;
			for (size_t k = c + 1; k < n; k++)
				if (sim_pq_less(&h[k], &h[m]))
					m = k;
			h[i] = h[m];
			i = m;
			break; /* a partial family is on the last level */
		}
	}
	sim_pq_heap_sift_up(h, i, h[n]);
	return top;
}

/* Files node x of window w, at or before cur_w or past the wheel, in the near or far heap (out of line: rarer). */
void sim_pq_file_heap(sim_pq *pq, const sim_pq_node *x, uint64_t w);

/* Files node x by its window (no count update); inlined whole, the common case being an append to a slot. */
static inline __attribute__((always_inline)) void sim_pq_file(sim_pq *pq, sim_pq_node x)
{
	uint64_t w = x.time >> pq->shift;
	if (w <= pq->cur_w || w - pq->cur_w > pq->nslots) {
		sim_pq_file_heap(pq, &x, w);
		return;
	}
	uint32_t s = (uint32_t)w & (pq->nslots - 1);
	sim_pq_bucket *b = &pq->slots[s];
	if (b->n == b->cap)
		sim_pq_bucket_grow(pq, b);
	if (b->n == 0)
		pq->bits[s >> 6] |= (uint64_t)1 << (s & 63);
	b->v[b->n++] = x;
	pq->in_slots++;
	pq->to_upper += w - pq->cur_w > pq->nslots / 4;
}

/* Number of queued events. */
static inline size_t sim_pq_size(const sim_pq *pq) { return pq->n; }

/* True if neither the near heap nor the run holds an event (the wheel must turn). */
static inline int sim_pq_near_empty(const sim_pq *pq) { return pq->near.n == 0 && pq->run.head == pq->run.n; }

/* True if the run's head pops before the near heap's root; the run must not be empty. */
static inline int sim_pq_run_first(const sim_pq *pq)
{
	return pq->near.n == 0 || sim_pq_less(&pq->run.v[pq->run.head], &pq->near.h[0]);
}

/* The earliest node of the near heap and the run; they must not both be empty. */
static inline const sim_pq_node *sim_pq_first(const sim_pq *pq)
{
	if (pq->run.head != pq->run.n && sim_pq_run_first(pq))
		return &pq->run.v[pq->run.head];
	return &pq->near.h[0];
}

/* The node that pops next (turning the wheel if it must); pq must not be empty. */
static inline const sim_pq_node *sim_pq_front(sim_pq *pq)
{
	if (sim_pq_near_empty(pq))
		sim_pq_refill(pq);
	return sim_pq_first(pq);
}

/* Asks the cache for the event at the head of the run, which most often pops next. */
static inline void sim_pq_prefetch_next(const sim_pq *pq)
{
	if (pq->run.head != pq->run.n)
		__builtin_prefetch(pq->run.v[pq->run.head].ev);
}

/* Inserts ev keyed by (ev->time, ev->src, ev->seq); ev must stay valid while queued. */
static inline void sim_pq_push(sim_pq *pq, sim_event *ev)
{
	sim_pq_node x = { ev->time, ev->seq, ev->src, ev };
	pq->n++;
	pq->pushed++;
	sim_pq_file(pq, x);
}

/* The earliest event without removing it, or NULL if pq is empty. */
static inline sim_event *sim_pq_peek(sim_pq *pq)
{
	if (pq->n == 0)
		return NULL;
	return sim_pq_front(pq)->ev;
}

/* The time of the earliest event; pq must not be empty. */
static inline ncsim_time_t sim_pq_min_time(sim_pq *pq) { return sim_pq_front(pq)->time; }

/* Removes the node f that sim_pq_front just returned (nothing pushed since) and returns its event. */
static inline sim_event *sim_pq_pop_front(sim_pq *pq, const sim_pq_node *f)
{
	pq->n--;
	if (f != pq->near.h) /* the run's head */
		return pq->run.v[pq->run.head++].ev;
	return sim_pq_heap_pop(&pq->near);
}

/* Removes and returns the earliest event, or NULL if pq is empty. */
static inline sim_event *sim_pq_pop(sim_pq *pq)
{
	if (pq->n == 0)
		return NULL;
	return sim_pq_pop_front(pq, sim_pq_front(pq));
}

#endif

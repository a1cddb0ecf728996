/*
 * pqueue.c - slow paths of the pending-event set: storage, turning the wheel,
 * re-tuning the window width (see pqueue.h for the structure).
 */
#include "runtime/kernel/pqueue.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define PQ_LINE 128 /* one family of four 32-byte nodes */
#define PQ_PER_LINE (PQ_LINE / sizeof(sim_pq_node))
#define HEAP_FIRST_CAP 256

/* Window tuning: aim for about TARGET events per non-empty slot. */
#define TARGET 32
#define FIRST_SHIFT 10     /* 1 ns windows until the first re-tune */
#define MAX_SHIFT 48
#define MIN_SLOTS 64u
#define MAX_SLOTS (1u << 22)
#define SPAN 4             /* the wheel should span ~SPAN x the pending events */
#define FIRST_TUNE 16      /* turns before the first re-tune */
#define NEAR_MAX (16 * TARGET) /* a near heap this big asks whether the window is too wide */
#define SORT_BLOCK 16       /* the run's sort starts with insertion-sorted blocks of this many nodes */
#define FAR_SLOTS_PER_EVENT 64 /* the reach of pushes may ask for this many slots per queued event */

/* ---------------------------------------------------------------- heaps */

static void heap_free(sim_pq_heap *hp)
{
	free(hp->mem);
	memset(hp, 0, sizeof *hp);
}

/*
 * The array is over-allocated by two families so that h can be placed 96
 * bytes past a family boundary (see the diagram in pqueue.h). Plain malloc only
 * promises 16-byte alignment, so the offset is computed from the address; the
 * address decides placement only, never order.
 */
void sim_pq_heap_grow(sim_pq_heap *hp)
{
	size_t ncap = hp->cap ? hp->cap * 2 : HEAP_FIRST_CAP;
	void *mem = xreallocarray(NULL, ncap + 2 * PQ_PER_LINE, sizeof(sim_pq_node));
	uintptr_t base = ((uintptr_t)mem + PQ_LINE - 1) & ~(uintptr_t)(PQ_LINE - 1);
	sim_pq_node *h = (sim_pq_node *)(void *)(base + PQ_LINE - sizeof(sim_pq_node));
	if (hp->n)
		memcpy(h, hp->h, hp->n * sizeof *h);
	free(hp->mem);
	hp->mem = mem;
	hp->h = h;
	hp->cap = ncap;
}

/*
 * A bucket gives its array to the run when the wheel turns to it, and the
 * run's previous array waits in pq->spare for the next empty slot that
 * fills. Arrays thus circulate at the size a window needs instead of every
 * slot growing its own from scratch, and only about as many exist as there
 * are non-empty slots.
 */
void sim_pq_bucket_grow(sim_pq *pq, sim_pq_bucket *b)
{
	if (b->cap == 0 && pq->spare.len) {
		*b = pq->spare.ptr[--pq->spare.len];
		return;
	}
	uint32_t ncap = b->cap ? b->cap * 2 : 8;
	assert(ncap > b->cap);
	b->v = xreallocarray(b->v, ncap, sizeof *b->v);
	b->cap = ncap;
}

void sim_pq_file_heap(sim_pq *pq, const sim_pq_node *x, uint64_t w)
{
	if (w <= pq->cur_w) {
		sim_pq_heap_push(&pq->near, *x);
		if (pq->near.n > pq->near_max)
			sim_pq_crowded(pq);
	} else {
		sim_pq_heap_push(&pq->far, *x);
		pq->to_far++;
		if (w - pq->cur_w > pq->far_reach)
			pq->far_reach = w - pq->cur_w;
	}
}

/* ---------------------------------------------------------------- setup */

/* Starts counting occupancy and pushes afresh, after a re-tune or a clear. */
static void reset_counts(sim_pq *pq)
{
	pq->turns = pq->drained = pq->stepped = pq->spread = 0;
	pq->pushed = pq->to_far = pq->to_upper = pq->far_reach = 0;
	pq->near_max = NEAR_MAX;
}

static void slots_alloc(sim_pq *pq, uint32_t nslots)
{
	pq->nslots = nslots;
	pq->slots = xcalloc(nslots, sizeof *pq->slots);
	pq->bits = xcalloc(nslots / 64, sizeof *pq->bits);
}

static void slots_free(sim_pq *pq)
{
	for (uint32_t s = 0; s < pq->nslots; s++)
		free(pq->slots[s].v);
	free(pq->slots);
	free(pq->bits);
	pq->slots = NULL;
	pq->bits = NULL;
}

void sim_pq_init(sim_pq *pq)
{
	memset(pq, 0, sizeof *pq);
	pq->shift = FIRST_SHIFT;
	pq->tune_at = FIRST_TUNE;
	pq->near_max = NEAR_MAX;
	pq->min_slots = MIN_SLOTS;
	slots_alloc(pq, MIN_SLOTS);
}

void sim_pq_free(sim_pq *pq)
{
	if (pq == NULL)
		return;
	heap_free(&pq->near);
	heap_free(&pq->far);
	free(pq->run.v);
	slots_free(pq);
	VEC_FREE(&pq->scratch);
	for (size_t i = 0; i < pq->spare.len; i++)
		free(pq->spare.ptr[i].v);
	VEC_FREE(&pq->spare);
	memset(pq, 0, sizeof *pq);
}

void sim_pq_clear(sim_pq *pq)
{
	for (uint32_t s = 0; s < pq->nslots; s++)
		pq->slots[s].n = 0;
	memset(pq->bits, 0, pq->nslots / 64 * sizeof *pq->bits);
	pq->near.n = pq->far.n = 0;
	pq->run.head = pq->run.n = 0;
	pq->in_slots = pq->n = 0;
	reset_counts(pq);
}

/* ---------------------------------------------------------------- turning the wheel */

/* Windows from cur_w to the next non-empty slot (1 .. nslots); the wheel must not be empty. */
static uint32_t next_distance(const sim_pq *pq)
{
	uint32_t mask = pq->nslots - 1, nw = pq->nslots / 64;
	uint32_t s0 = (uint32_t)(pq->cur_w + 1) & mask;
	uint32_t wi = s0 >> 6;
	uint64_t word = pq->bits[wi] & (~(uint64_t)0 << (s0 & 63));
	for (uint32_t k = 0; k <= nw; k++) {
		if (word) {
			uint32_t s = (wi << 6) + (uint32_t)__builtin_ctzll(word);
			return ((s - s0) & mask) + 1;
		}
		wi = (wi + 1) & (nw - 1);
		word = pq->bits[wi];
	}
	assert(!"wheel bitmap out of step with in_slots");
	return pq->nslots;
}

/* Moves far events whose window has come within reach into the wheel or the near heap. */
static void pull_far(sim_pq *pq)
{
	sim_pq_heap *far = &pq->far;
	while (far->n) {
		sim_pq_node x = far->h[0];
		uint64_t w = x.time >> pq->shift;
		if (w > pq->cur_w && w - pq->cur_w > pq->nslots)
			break;
		sim_pq_heap_pop(far);
		sim_pq_file(pq, x);
	}
}

static unsigned ilog2(uint64_t x) { return x ? 63u - (unsigned)__builtin_clzll(x) : 0; }

/*
 * Re-files every queued event under a new geometry. The wheel restarts at the
 * window of the earliest event (the first of the near heap and the run, which
 * hold the global minimum whenever they are not both empty).
 */
static void rebuild(sim_pq *pq, unsigned shift, uint32_t nslots)
{
	assert(!sim_pq_near_empty(pq));
	ncsim_time_t first = sim_pq_first(pq)->time;
	pq->scratch.len = 0;
	VEC_GROW(&pq->scratch, pq->n);
	sim_pq_node *out = pq->scratch.ptr;
	for (uint32_t s = 0; s < pq->nslots; s++) {
		sim_pq_bucket *b = &pq->slots[s];
		if (b->n)
			memcpy(out, b->v, b->n * sizeof *b->v);
		out += b->n;
		b->n = 0;
	}
	if (pq->far.n)
		memcpy(out, pq->far.h, pq->far.n * sizeof *out);
	out += pq->far.n;
	if (pq->near.n)
		memcpy(out, pq->near.h, pq->near.n * sizeof *out);
	out += pq->near.n;
	sim_pq_run *run = &pq->run;
	if (run->n > run->head)
		memcpy(out, run->v + run->head, (run->n - run->head) * sizeof *out);
	out += run->n - run->head;
	run->head = run->n = 0;
	pq->scratch.len = (size_t)(out - pq->scratch.ptr);
	assert(pq->scratch.len == pq->n);
	pq->far.n = pq->near.n = 0;
	if (nslots != pq->nslots) {
		slots_free(pq);
		slots_alloc(pq, nslots);
	} else {
		memset(pq->bits, 0, nslots / 64 * sizeof *pq->bits);
	}
	pq->in_slots = 0;
	pq->shift = shift;
	pq->cur_w = first >> shift;
	size_t near_max = pq->near_max;
	pq->near_max = SIZE_MAX; /* no re-tune from inside this one */
	for (size_t i = 0; i < pq->scratch.len; i++)
		sim_pq_file(pq, pq->scratch.ptr[i]);
	pq->near_max = near_max;
}

/*
 * The slot count that suits the queue's length and the reach of its pushes
 * (min_slots), or the present one if it is close enough.
 */
static uint32_t suited_slots(const sim_pq *pq)
{
	uint64_t want = (uint64_t)SPAN * pq->n / TARGET;
	if (want < pq->min_slots)
		want = pq->min_slots;
	uint32_t nslots = pq->nslots;
	if (want > 4 * (uint64_t)nslots || want * 4 < nslots || nslots < pq->min_slots) {
		nslots = MIN_SLOTS;
		while (nslots < want && nslots < MAX_SLOTS)
			nslots *= 2;
	}
	return nslots;
}

/*
 * A push past the wheel's reach goes into the far heap and later comes out
 * of it: two heap operations instead of an append. Models that schedule
 * most events a few hundred windows ahead (a chain of microsecond steps
 * over nanosecond windows, with many events sharing each instant) would
 * send nearly every event that way, so when more than a quarter of the
 * pushes went far the wheel gets at least four times as many slots, as
 * many as the farthest of them needed (up to FAR_SLOTS_PER_EVENT per
 * queued event); when hardly any push reached even the last three quarters
 * of it, a quarter of the slots would do.
 */
static void fit_reach(sim_pq *pq)
{
	uint64_t cap = (uint64_t)FAR_SLOTS_PER_EVENT * pq->n;
	if (pq->to_far * 4 > pq->pushed && pq->nslots < MAX_SLOTS && 4 * (uint64_t)pq->nslots <= cap) {
		/* At once as many slots as the farthest push asked for, within the cap. */
		uint32_t want = 4 * pq->nslots;
		while (want < pq->far_reach && want < MAX_SLOTS && 2 * (uint64_t)want <= cap)
			want *= 2;
		pq->min_slots = want;
	} else if ((pq->to_far + pq->to_upper) * 32 < pq->pushed && pq->min_slots > MIN_SLOTS)
		pq->min_slots /= 4;
}

static int clamp_shift(int shift) { return shift < 0 ? 0 : shift > MAX_SHIFT ? MAX_SHIFT : shift; }

/*
 * The near heap has grown past near_max: the window is so wide that the
 * wheel never turns, and the queue has become one big heap. Narrow the
 * window to the width that holds about TARGET of these events, unless they
 * share too few instants to be split; either way, look again only when the
 * heap has doubled, so a crowd that cannot be split costs little.
 */
void sim_pq_crowded(sim_pq *pq)
{
	sim_pq_heap *near = &pq->near;
	ncsim_time_t lo = near->h[0].time, hi = lo;
	for (size_t i = 1; i < near->n; i++)
		hi = near->h[i].time > hi ? near->h[i].time : hi;
	uint64_t width = (hi - lo) / (near->n / TARGET);
	if (width == 0 || ilog2(width) >= pq->shift) {
		pq->near_max *= 2;
		return;
	}
	rebuild(pq, (unsigned)clamp_shift((int)ilog2(width)), suited_slots(pq));
	reset_counts(pq);
}

/*
 * Too many events per turn make the sort of the run long; too few, or many
 * empty windows between non-empty ones, make every event pay for a turn. The
 * width moves by the power of two that brings the average back to TARGET;
 * the slot count follows the queue length. Empty windows cost a turn only a
 * bit each in the bitmap, so they widen the window only when turns also
 * drain fewer than TARGET events: wider windows would catch more of the
 * pushes in the current window, which go through the near heap. Narrower
 * windows cannot split a crowd of events that share one instant, so the
 * width shrinks only when the drained windows' events spread over a good
 * part of the window. Factors of 4 of slack keep it from oscillating, and a
 * re-tune is considered only every nslots/4 turns, so its O(n) cost is
 * spread over many events.
 */
static void tune(sim_pq *pq)
{
	uint64_t turns = pq->turns ? pq->turns : 1;
	uint64_t occ = pq->drained / turns, step = pq->stepped / turns, spread = pq->spread / turns;
	int shift = (int)pq->shift;
	if (step > 4 && occ < TARGET)
		shift += (int)ilog2(step / 2);
	else if (occ > 4 * TARGET && spread >= ((uint64_t)1 << pq->shift) / 4)
		shift -= (int)ilog2(occ / TARGET);
	else if (occ * 4 < TARGET)
		shift += (int)ilog2(TARGET / (occ ? occ : 1));
	shift = clamp_shift(shift);
	fit_reach(pq);
	uint32_t nslots = suited_slots(pq);
	if ((unsigned)shift != pq->shift || nslots != pq->nslots)
		rebuild(pq, (unsigned)shift, nslots);
	reset_counts(pq);
	pq->tune_at = pq->nslots / 4 > FIRST_TUNE ? pq->nslots / 4 : FIRST_TUNE;
}

/* Merges the ascending sequences a[0, m) and a[m, n) into out[0, n). */
static void merge(const sim_pq_node *a, size_t m, size_t n, sim_pq_node *out)
{
	size_t i = 0, j = m, k = 0;
	while (i < m && j < n)
		out[k++] = sim_pq_less(&a[j], &a[i]) ? a[j++] : a[i++];
	while (i < m)
		out[k++] = a[i++];
	while (j < n)
		out[k++] = a[j++];
}

/* Sorts the few nodes v[0, n) by insertion: about n comparisons when they are nearly in order. */
static void insertion_sort(sim_pq_node *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		sim_pq_node x = v[i];
		size_t j = i;
		for (; j > 0 && sim_pq_less(&x, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Sorts v[0, n) by key: nothing more than n comparisons if it is in order
 * already; else insertion sort of blocks of SORT_BLOCK nodes, then
 * bottom-up merge passes; a pair of blocks already in order is copied after
 * one comparison. A bucket's events mostly come in a few ascending
 * sequences (one per instant that scheduled them), so a window's sort costs
 * little more than n comparisons then, and n log2 n at worst.
 */
static void sort_nodes(sim_pq *pq, sim_pq_node *v, size_t n)
{
	size_t sorted = 1;
	while (sorted < n && !sim_pq_less(&v[sorted], &v[sorted - 1]))
		sorted++;
	if (sorted >= n)
		return; /* pushed in order, as often when one instant scheduled the whole window */
	for (size_t i = 0; i < n; i += SORT_BLOCK)
		insertion_sort(v + i, n - i < SORT_BLOCK ? n - i : SORT_BLOCK);
	if (n <= SORT_BLOCK)
		return;
	VEC_GROW(&pq->scratch, n);
	sim_pq_node *a = v, *b = pq->scratch.ptr;
	for (size_t w = SORT_BLOCK; w < n; w *= 2) {
		for (size_t i = 0; i < n; i += 2 * w) {
			size_t m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n;
			if (m == e || sim_pq_less(&a[m - 1], &a[m]))
				memcpy(b + i, a + i, (e - i) * sizeof *a);
			else
				merge(a + i, m - i, e - i, b + i);
		}
		sim_pq_node *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, n * sizeof *v);
}

/* Makes bucket b, just drained from the wheel, the (empty) run: the two swap arrays, so nothing is copied. */
static void take_bucket(sim_pq *pq, sim_pq_bucket *b)
{
	sim_pq_run *run = &pq->run;
	if (run->cap)
		VEC_PUSH(&pq->spare, ((sim_pq_bucket){.v = run->v, .cap = run->cap}));
	run->v = b->v;
	run->cap = b->cap;
	run->head = 0;
	run->n = b->n;
	*b = (sim_pq_bucket){0};
	sort_nodes(pq, run->v, run->n);
}

void sim_pq_refill(sim_pq *pq)
{
	assert(pq->n > 0 && sim_pq_near_empty(pq));
	pq->run.head = pq->run.n = 0;
	while (sim_pq_near_empty(pq)) {
		if (pq->in_slots == 0) {
			/* Nothing within the wheel's reach: jump to the far heap's first window. */
			assert(pq->far.n > 0);
			pq->cur_w = pq->far.h[0].time >> pq->shift;
			pull_far(pq);
			continue;
		}
		uint32_t d = next_distance(pq);
		pq->cur_w += d;
		uint32_t s = (uint32_t)pq->cur_w & (pq->nslots - 1);
		sim_pq_bucket *b = &pq->slots[s];
		pq->in_slots -= b->n;
		pq->drained += b->n;
		pq->stepped += d;
		pq->turns++;
		take_bucket(pq, b);
		pq->spread += pq->run.v[pq->run.n - 1].time - pq->run.v[0].time;
		pq->bits[s >> 6] &= ~((uint64_t)1 << (s & 63));
		pull_far(pq);
	}
	if (pq->turns >= pq->tune_at)
		tune(pq);
}

/*
 * match.c - MPI matching queues: FIFOs per key in a hash table (see match.h).
 */
#include "runtime/mpi/match.h"

#include <stddef.h>
#include <stdlib.h>

#include "base/util.h"

#define MQ_KINDS 4     /* wildcard bits 0 .. MP_ANY_SRC | MP_ANY_TAG */
#define MQ_SLOTS0 8u   /* slots of a new table (a power of two) */

/* One entry: its order in the queue, the caller's item, the next entry of its FIFO (index+1, 0 ends it). */
typedef struct mq_node {
	uint64_t seq;
	uint32_t item, next;
} mq_node;

/* The FIFO of one key; head == 0 marks a free slot. */
typedef struct mq_slot {
	rt_int tag;
	uint32_t src, any;
	uint32_t head, tail; /* pool index+1 */
} mq_slot;

struct mq_tab {
	uint64_t seq;              /* entries pushed so far: the order of the next one */
	VEC(mq_node) pool;         /* entries, linked by index+1 */
	uint32_t free;             /* free list of the pool (index+1), 0: empty */
	uint32_t len;              /* entries queued */
	uint32_t nkind[MQ_KINDS];  /* entries queued, by wildcard bits */
	uint32_t mask, nkeys;      /* slots - 1; slots in use */
	mq_slot slots[];
};

_Static_assert(offsetof(struct mq_tab, slots) == 64, "the header of a table fills one cache line");

/* Mixes a key into 32 bits (a multiply and the finalizer of splitmix64). */
static inline uint32_t key_hash(uint32_t src, rt_int tag, unsigned any)
{
	uint64_t x = ((uint64_t)tag * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)src << 2 | any);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	return (uint32_t)x;
}

/* The slot holding key (src, tag, any), or the free slot where it belongs. */
static uint32_t slot_of(const struct mq_tab *t, uint32_t src, rt_int tag, unsigned any)
{
	for (uint32_t i = key_hash(src, tag, any) & t->mask;; i = (i + 1) & t->mask) {
		const mq_slot *s = &t->slots[i];
		if (!s->head || (s->src == src && s->tag == tag && s->any == any))
			return i;
	}
}

static struct mq_tab *tab_alloc(uint32_t nslots)
{
	/* Line-aligned: the header fills line 0, the slots start on line 1. */
	struct mq_tab *t = xcalloc_lines(1, sizeof *t + (size_t)nslots * sizeof(mq_slot));
	t->mask = nslots - 1;
	return t;
}

/* A table with twice the slots holding t's keys and entries; t is freed. */
static struct mq_tab *tab_grow(struct mq_tab *t)
{
	struct mq_tab *g = tab_alloc(2 * (t->mask + 1));
	uint32_t mask = g->mask;
	memcpy(g, t, offsetof(struct mq_tab, slots));
	g->mask = mask;
	for (uint32_t i = 0; i <= t->mask; i++) {
		const mq_slot *s = &t->slots[i];
		if (s->head)
			g->slots[slot_of(g, s->src, s->tag, s->any)] = *s;
	}
	free(t);
	return g;
}

/*
 * Frees slot i, whose FIFO is empty. Linear probing has no tombstones: the
 * later slots of the run move back into the hole when their home slot lies
 * at or before it, so that every key stays reachable from its home.
 */
static void slot_remove(struct mq_tab *t, uint32_t i)
{
	for (uint32_t j = (i + 1) & t->mask; t->slots[j].head; j = (j + 1) & t->mask) {
		const mq_slot *s = &t->slots[j];
		uint32_t home = key_hash(s->src, s->tag, s->any) & t->mask;
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->slots[i] = *s;
			i = j;
		}
	}
	t->slots[i].head = 0;
	t->nkeys--;
}

static uint64_t head_seq(const struct mq_tab *t, uint32_t i) { return t->pool.ptr[t->slots[i].head - 1].seq; }

/* Unlinks the head of slot i's FIFO and returns its item. */
static uint32_t slot_pop(struct mq_tab *t, uint32_t i)
{
	mq_slot *s = &t->slots[i];
	uint32_t n = s->head;
	mq_node *e = &t->pool.ptr[n - 1];
	t->nkind[s->any]--;
	t->len--;
	s->head = e->next;
	if (!s->head)
		slot_remove(t, i);
	e->next = t->free;
	t->free = n;
	return e->item;
}

/* Appends an entry (its key normalized) to q's table. */
static void tab_push(mp_queue *q, uint32_t src, rt_int tag, unsigned any, uint32_t item)
{
	struct mq_tab *t = q->tab ? q->tab : (q->tab = tab_alloc(MQ_SLOTS0));
	uint32_t n = t->free;
	if (n) {
		t->free = t->pool.ptr[n - 1].next;
		t->pool.ptr[n - 1] = (mq_node){.seq = t->seq, .item = item};
	} else {
		VEC_PUSH(&t->pool, ((mq_node){.seq = t->seq, .item = item}));
		n = (uint32_t)t->pool.len;
	}
	t->seq++;
	uint32_t i = slot_of(t, src, tag, any);
	if (t->slots[i].head) {
		t->pool.ptr[t->slots[i].tail - 1].next = n;
		t->slots[i].tail = n;
	} else {
		/* A new key: at most half the slots in use keeps the probe runs short. */
		if (2 * (t->nkeys + 1) > t->mask + 1) {
			t = q->tab = tab_grow(t);
			i = slot_of(t, src, tag, any);
		}
		t->slots[i] = (mq_slot){.tag = tag, .src = src, .any = any, .head = n, .tail = n};
		t->nkeys++;
	}
	t->len++;
	t->nkind[any]++;
}

void mp_queue_push(mp_queue *q, uint32_t src, rt_int tag, unsigned any, uint32_t item)
{
	any &= MP_ANY_SRC | MP_ANY_TAG;
	if (any & MP_ANY_SRC)
		src = 0;
	if (any & MP_ANY_TAG)
		tag = 0;
	if (!q->item1 && (!q->tab || !q->tab->len)) {
		*q = (mp_queue){.tab = q->tab, .tag = tag, .src = src, .item1 = item + 1, .any = any};
		return;
	}
	if (q->item1) { /* the lone entry goes first, so that it stays the earlier one */
		tab_push(q, q->src, q->tag, q->any, q->item1 - 1);
		q->item1 = 0;
	}
	tab_push(q, src, tag, any, item);
}

/* Takes the lone entry if a key with wildcard bits `any` matches it (wildcards on either side), else MP_QUEUE_NONE. */
static uint32_t take_lone(mp_queue *q, uint32_t src, rt_int tag, unsigned any)
{
	any |= q->any;
	if (((any & MP_ANY_SRC) || q->src == src) && ((any & MP_ANY_TAG) || q->tag == tag)) {
		uint32_t item = q->item1 - 1;
		q->item1 = 0;
		return item;
	}
	return MP_QUEUE_NONE;
}

/* Of slot a (MP_QUEUE_NONE: none) and the slot of a key, the one whose head was pushed first. */
static uint32_t earlier(const struct mq_tab *t, uint32_t a, uint32_t src, rt_int tag, unsigned any)
{
	if (!t->nkind[any])
		return a;
	uint32_t b = slot_of(t, src, tag, any);
	if (!t->slots[b].head || (a != MP_QUEUE_NONE && head_seq(t, a) < head_seq(t, b)))
		return a;
	return b;
}

uint32_t mp_queue_take_recv(mp_queue *q, uint32_t src, rt_int tag)
{
	if (q->item1)
		return take_lone(q, src, tag, 0);
	struct mq_tab *t = q->tab;
	if (!t || !t->len)
		return MP_QUEUE_NONE;
	uint32_t best = earlier(t, MP_QUEUE_NONE, src, tag, 0);
	if (t->nkind[0] != t->len) {
		best = earlier(t, best, 0, tag, MP_ANY_SRC);
		best = earlier(t, best, src, 0, MP_ANY_TAG);
		best = earlier(t, best, 0, 0, MP_ANY_SRC | MP_ANY_TAG);
	}
	return best == MP_QUEUE_NONE ? MP_QUEUE_NONE : slot_pop(t, best);
}

uint32_t mp_queue_take_msg(mp_queue *q, uint32_t src, rt_int tag, unsigned any)
{
	if (q->item1)
		return take_lone(q, src, tag, any);
	struct mq_tab *t = q->tab;
	if (!t || !t->len)
		return MP_QUEUE_NONE;
	uint32_t best = MP_QUEUE_NONE;
	if (!any) {
		best = earlier(t, best, src, tag, 0);
	} else {
		/* The earliest head among the keys the wildcard covers. */
		for (uint32_t i = 0; i <= t->mask; i++) {
			const mq_slot *s = &t->slots[i];
			if (s->head && ((any & MP_ANY_SRC) || s->src == src) && ((any & MP_ANY_TAG) || s->tag == tag) &&
			    (best == MP_QUEUE_NONE || head_seq(t, i) < head_seq(t, best)))
				best = i;
		}
	}
	return best == MP_QUEUE_NONE ? MP_QUEUE_NONE : slot_pop(t, best);
}

uint32_t mp_queue_len(const mp_queue *q) { return (q->item1 != 0) + (q->tab ? q->tab->len : 0); }

void mp_queue_free(mp_queue *q)
{
	if (q->tab)
		VEC_FREE(&q->tab->pool);
	free(q->tab);
	*q = (mp_queue){0};
}

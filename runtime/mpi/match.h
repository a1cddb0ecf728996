/*
 * match.h - MPI matching queues (prefix mp_queue_): the receives a task has
 * posted and the messages that reached it before their receive, in one
 * matching context (enum p2p_ctx).
 *
 * MPI's rules: a message matches the earliest posted receive whose source and
 * tag fit it (a receive may name any source, any tag, or both), and a receive
 * matches the earliest arrived message that fits it. Messages of one pair in
 * one context therefore never overtake each other.
 *
 * A queue keeps one FIFO per key (source, tag, wildcard bits) in an
 * open-addressing hash table (linear probing, at most half full, an empty
 * FIFO leaves the table at once), so that a receive or a message with an
 * exact source and tag costs one probe whatever the length of the queue.
 * Entries come from a pool of the queue linked by index, which grows by
 * doubling: no allocation per message once a queue has reached its size.
 * Every entry carries the queue's push count as its order:
 *
 *   slots[hash(src, tag, any) & mask]      pool (index+1 links)
 *   +------------------------------+       +-------------------+
 *   | src tag any | head --------------->  | seq item | next --+--> ... tail
 *   +------------------------------+       +-------------------+
 *
 * A message looks up at most four FIFOs of posted receives, its own key and
 * the three wildcard keys that could hold a receive for it (each only while
 * the queue holds receives of that kind), and takes the head with the lowest
 * order. A receive with a wildcard looks at the head of every FIFO of
 * messages: its cost grows with the number of distinct keys waiting, never
 * with the number of messages.
 *
 * Most queues hold one entry at a time (a receive posted before its message,
 * or a message that came first): while the table is empty, a lone entry is
 * kept in the queue itself and costs no hashing and no table line. A second
 * push moves it into the table first, so it keeps its order:
 *
 *   mp_queue (32 bytes): tab | tag | src | item + 1 (0: none kept) | any
 */
#ifndef NCSIM_MATCH_H
#define NCSIM_MATCH_H

#include <stdint.h>

#include "ncsim/rt.h"

/* Wildcard bits of a receive: it matches messages from any source, with any tag. */
enum { MP_ANY_SRC = 1, MP_ANY_TAG = 2 };
/* What the take functions return when nothing matches. */
#define MP_QUEUE_NONE UINT32_MAX

/* A matching queue; {0} (or {NULL}) is an empty one, which allocates nothing. */
typedef struct mp_queue {
	struct mq_tab *tab;
	rt_int tag;          /* the lone entry, while the table is empty (see above) */
	uint32_t src;
	uint32_t item1;      /* its item + 1; 0: no lone entry */
	uint32_t any;
} mp_queue;

/*
 * Appends item (the caller's index, below MP_QUEUE_NONE) with its source,
 * tag and wildcard bits `any` (0 for a message); a wildcard part of the key
 * is ignored.
 */
void mp_queue_push(mp_queue *q, uint32_t src, rt_int tag, unsigned any, uint32_t item);
/*
 * A queue of posted receives: unlinks and returns the item of the earliest
 * receive that a message from src with tag matches, or MP_QUEUE_NONE.
 */
uint32_t mp_queue_take_recv(mp_queue *q, uint32_t src, rt_int tag);
/*
 * A queue of messages (pushed with any = 0): unlinks and returns the item of
 * the earliest message that a receive from src with tag and wildcard bits
 * `any` matches, or MP_QUEUE_NONE.
 */
uint32_t mp_queue_take_msg(mp_queue *q, uint32_t src, rt_int tag, unsigned any);
/* Number of entries in q. */
uint32_t mp_queue_len(const mp_queue *q);
/* Frees q's memory; q is then empty. */
void mp_queue_free(mp_queue *q);

#endif

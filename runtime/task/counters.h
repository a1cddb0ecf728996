/*
 * counters.h - the per-task counters of LANGUAGE.md §4 and §14.2 (prefix cnt_).
 *
 * Byte and message counters are plain integers; total_bytes and total_msgs
 * are derived on read. elapsed_usecs is not stored: it is now - start, and
 * RESET, RESTORE and the end of a warmup move `start` (§8.13, §9.7).
 * io_usecs is the time blocked in I/O since the last reset, kept in ps.
 *
 * STORE/RESTORE and warmup suppression keep separate stacks so that an
 * unbalanced user RESTORE can never pop a warmup's snapshot.
 */
#ifndef NCSIM_COUNTERS_H
#define NCSIM_COUNTERS_H

#include <stdint.h>

#include "ncsim/rt.h"
#include "base/util.h"

typedef struct cnt_snap {
	int64_t sent_b, recv_b, sent_m, recv_m, bit_errors, read_b, written_b;
	ncsim_time_t io_ps;
	ncsim_time_t start; /* elapsed clock origin when the snapshot was taken */
	ncsim_time_t taken; /* simulated time of the snapshot */
} cnt_snap;

typedef struct cnt_state {
	cnt_snap cur;           /* `taken` unused in the live set */
	VEC(cnt_snap) stored;   /* STORES THEIR COUNTERS */
	VEC(cnt_snap) warmups;  /* rt_suppress_begin */
} cnt_state;

/* Starts the counters at zero with the clock at `now`. */
void cnt_init(cnt_state *s, ncsim_time_t now);
/* Frees the snapshot stacks. */
void cnt_free(cnt_state *s);
/* Value of counter c at time `now` (elapsed_usecs and io_usecs truncate to whole microseconds). */
rt_int cnt_get(const cnt_state *s, enum rt_counter c, ncsim_time_t now);
/* cnt_get in floating point: the time counters keep their fraction of a microsecond. */
double cnt_get_f(const cnt_state *s, enum rt_counter c, ncsim_time_t now);
/* RESETS: zero everything and restart the clock at now. */
void cnt_reset(cnt_state *s, ncsim_time_t now);
/* STORES: push the counters and the clock. */
void cnt_store(cnt_state *s, ncsim_time_t now);
/* RESTORES: pop; the interval since the STORE disappears from the clock. Returns -1 if nothing is stored. */
int cnt_restore(cnt_state *s, ncsim_time_t now);
/* Warmup begin: save counters and stop the clock. */
void cnt_warmup_begin(cnt_state *s, ncsim_time_t now);
/* Warmup end: restore and resume the clock. Returns -1 if no warmup is open. */
int cnt_warmup_end(cnt_state *s, ncsim_time_t now);
/* Depth of open warmups (0: not suppressed). */
static inline int cnt_suppressed(const cnt_state *s) { return s->warmups.len > 0; }

/* A completed point-to-point send of `bytes`. */
static inline void cnt_sent(cnt_state *s, uint64_t bytes) { s->cur.sent_m++; s->cur.sent_b += (int64_t)bytes; }
/* `msgs` completed receives totalling `bytes`. */
static inline void cnt_received(cnt_state *s, uint64_t bytes, uint64_t msgs)
{
	s->cur.recv_m += (int64_t)msgs;
	s->cur.recv_b += (int64_t)bytes;
}
/* I/O accounting for the storage client: bytes read, written and time blocked. */
static inline void cnt_io(cnt_state *s, uint64_t rd, uint64_t wr, ncsim_time_t blocked)
{
	s->cur.read_b += (int64_t)rd;
	s->cur.written_b += (int64_t)wr;
	s->cur.io_ps += blocked;
}

#endif

/*
 * counters.c - per-task counters (see counters.h).
 */
#include "runtime/task/counters.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/task/task.h"

void cnt_init(cnt_state *s, ncsim_time_t now)
{
	memset(s, 0, sizeof *s);
	s->cur.start = now;
}

void cnt_free(cnt_state *s)
{
	VEC_FREE(&s->stored);
	VEC_FREE(&s->warmups);
}

rt_int cnt_get(const cnt_state *s, enum rt_counter c, ncsim_time_t now)
{
	const cnt_snap *v = &s->cur;
	switch (c) {
	case RT_ELAPSED_USECS: return (rt_int)((now - v->start) / RT_PS_PER_US);
	case RT_BYTES_SENT: return v->sent_b;
	case RT_BYTES_RECEIVED: return v->recv_b;
	case RT_TOTAL_BYTES: return v->sent_b + v->recv_b;
	case RT_MSGS_SENT: return v->sent_m;
	case RT_MSGS_RECEIVED: return v->recv_m;
	case RT_TOTAL_MSGS: return v->sent_m + v->recv_m;
	case RT_BIT_ERRORS: return v->bit_errors;
	case RT_BYTES_READ: return v->read_b;
	case RT_BYTES_WRITTEN: return v->written_b;
	case RT_IO_USECS: return (rt_int)(v->io_ps / RT_PS_PER_US);
	case RT_NCOUNTERS: break;
	}
	return 0;
}

double cnt_get_f(const cnt_state *s, enum rt_counter c, ncsim_time_t now)
{
	if (c == RT_ELAPSED_USECS)
		return (double)(now - s->cur.start) / (double)RT_PS_PER_US;
	if (c == RT_IO_USECS)
		return (double)s->cur.io_ps / (double)RT_PS_PER_US;
	return (double)cnt_get(s, c, now);
}

void cnt_reset(cnt_state *s, ncsim_time_t now)
{
	memset(&s->cur, 0, sizeof s->cur);
	s->cur.start = now;
}

/* Pushes the current counters on the warm-up stack (warm) or on the STORE stack. */
static void push(cnt_state *s, int warm, ncsim_time_t now)
{
	cnt_snap snap = s->cur;
	snap.taken = now;
	if (warm)
		VEC_PUSH(&s->warmups, snap);
	else
		VEC_PUSH(&s->stored, snap);
}

/*
 * Pops the newest snapshot of the warm-up stack (warm) or of the STORE stack:
 * the stored values come back; the clock restarts at now - taken + start
 * (§8.13). Returns 0, or -1 if that stack is empty.
 */
static int pop(cnt_state *s, int warm, ncsim_time_t now)
{
	if (warm ? s->warmups.len == 0 : s->stored.len == 0)
		return -1;
	const cnt_snap *snap = warm ? &s->warmups.ptr[--s->warmups.len] : &s->stored.ptr[--s->stored.len];
	s->cur = *snap;
	s->cur.start = now - snap->taken + snap->start;
	s->cur.taken = 0;
	return 0;
}

void cnt_store(cnt_state *s, ncsim_time_t now) { push(s, 0, now); }
int cnt_restore(cnt_state *s, ncsim_time_t now) { return pop(s, 0, now); }
void cnt_warmup_begin(cnt_state *s, ncsim_time_t now) { push(s, 1, now); }
int cnt_warmup_end(cnt_state *s, ncsim_time_t now) { return pop(s, 1, now); }

/* ------------------------------------------------------------ the skeleton API */

rt_int rt_counter(const rt_task *t, enum rt_counter c) { return cnt_get(&t->cnt, c, sim_now(t->w->ctx)); }

double rt_counter_f(const rt_task *t, enum rt_counter c) { return cnt_get_f(&t->cnt, c, sim_now(t->w->ctx)); }

void rt_counters_reset(rt_task *t) { cnt_reset(&t->cnt, sim_now(t->w->ctx)); }

void rt_counters_store(rt_task *t) { cnt_store(&t->cnt, sim_now(t->w->ctx)); }

void rt_counters_restore(rt_task *t)
{
	if (cnt_restore(&t->cnt, sim_now(t->w->ctx)) != 0)
		rt_fatal(t, "Task %" PRId64 " restored more counters than it stored", rt_rank(t));
}

void rt_suppress_begin(rt_task *t) { cnt_warmup_begin(&t->cnt, sim_now(t->w->ctx)); }

void rt_suppress_end(rt_task *t)
{
	if (cnt_warmup_end(&t->cnt, sim_now(t->w->ctx)) != 0)
		rt_fatal(t, "warmup suppression ended more often than it began");
}

int rt_suppressed(const rt_task *t) { return cnt_suppressed(&t->cnt); }

/*
 * deadlock.h - the report written when no event remains but tasks are still
 * blocked (prefix dl_).
 *
 * Each blocked task is listed with what it waits for (operation, peer, tag,
 * bytes, protocol, source line) and the chain of tasks it waits on, e.g.
 * "task 0 -> task 1 -> task 0" for a cycle.
 *
 * The report reads each task's wait through a snapshot (dl_snap), which a
 * run over MPI ranks takes on the task's rank and gathers on rank 0.
 */
#ifndef NCSIM_DEADLOCK_H
#define NCSIM_DEADLOCK_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"

typedef struct task_world task_world;

/* Most tasks described one by one; the rest are counted. */
#define DL_MAX_LISTED 32

/* What a blocked task waits for: the first request of its wait not yet complete, if any. */
typedef struct dl_snap {
	uint8_t has_req, send, mctx, proto, posted;
	uint32_t peer;  /* physical rank in the job */
	rt_int tag;
	uint64_t bytes;
} dl_snap;

/* t's snapshot, from its own state. */
void dl_snapshot(rt_task *t, dl_snap *s);
/*
 * Writes the deadlock report of w on out, at simulated time `now`; snap(arg,
 * t) gives each task's snapshot (NULL: from the task's own state).
 */
void dl_report(task_world *w, ncsim_time_t now, const dl_snap *(*snap)(void *arg, const rt_task *t), void *arg,
               FILE *out);

#endif

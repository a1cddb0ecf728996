/*
 * deadlock.h - the report written when no event remains but tasks are still
 * blocked (prefix dl_).
 *
 * Each blocked task is listed with what it waits for (operation, peer, tag,
 * bytes, protocol, source line) and the chain of tasks it waits on, e.g.
 * "task 0 -> task 1 -> task 0" for a cycle.
 */
#ifndef NCSIM_DEADLOCK_H
#define NCSIM_DEADLOCK_H

#include <stdio.h>

typedef struct task_world task_world;

/* Most tasks described one by one; the rest are counted. */
#define DL_MAX_LISTED 32

/* Writes the deadlock report of w on out. */
void dl_report(task_world *w, FILE *out);

#endif

/*
 * progress.h - the kernel's progress line on stderr (prefix sim_progress_).
 *
 * The run loop calls sim_progress_tick only every SIM_PROGRESS_EVERY events, so
 * the clock is read rarely; the line itself is redrawn at most four times a
 * second and erased when the run ends, leaving stderr as it was.
 */
#ifndef NCSIM_PROGRESS_H
#define NCSIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/kernel/sim.h"

/* Events between two looks at the wall clock (a power of two). */
#define SIM_PROGRESS_EVERY 4096u

typedef struct sim_progress_state {
	enum sim_progress mode;
	ncsim_time_t expected_end; /* 0: unknown, no ETA */
	FILE *out;
	int active;  /* decided at the start of each run */
	int shown;   /* a line is on the terminal and must be erased */
	int width;   /* length of the line last drawn */
	double wall_start, wall_last;
	ncsim_time_t sim_start;
	uint64_t events_last;
} sim_progress_state;

/* Seconds on a monotonic clock (origin unspecified). */
double sim_progress_clock(void);
/* Sets the defaults: AUTO mode on stderr, no expected end. */
void sim_progress_init(sim_progress_state *p);
/* Starts a run at simulated time `now`: decides whether to draw at all. */
void sim_progress_begin(sim_progress_state *p, double wall, ncsim_time_t now);
/* Redraws the line if it is active and the last draw is 0.25 s old. */
void sim_progress_tick(sim_progress_state *p, double wall, ncsim_time_t now, uint64_t events);
/* Erases the line, if one is shown. */
void sim_progress_end(sim_progress_state *p);
/* Writes t (ps) with an adaptive unit, e.g. "12.345 us", into buf. */
void sim_progress_fmt_time(char *buf, size_t size, ncsim_time_t t);

#endif

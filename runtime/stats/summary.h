/*
 * summary.h - the run's summary.json (prefix stat_).
 *
 *   { "ncsim_version", "command_line", "system", "network", "seed",
 *     "status" ("ok", "failed", "stopped"), "wall_seconds" (optional),
 *     "events", "sim_end_ps", "jobs": [ { "name", "program", "tasks", "args",
 *       "end_ps", "compute_ps", "sleep_ps", "io_ps", "mpi_ps", "mpi_network_ps",
 *       "mpi_sync_ps", "mpi_stack_ps", "bytes_sent", "msgs_sent" } ],
 *     "network_totals": { class: { "msgs", "bytes" } } }
 */
#ifndef NCSIM_STATS_SUMMARY_H
#define NCSIM_STATS_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/kernel/sim.h"

struct tk_world;

typedef struct stat_summary_in {
	int argc;
	char **argv;            /* command line */
	const char *system;     /* system file path or "(built-in)" */
	const char *network;    /* model name */
	uint64_t seed;
	const char *status;
	int with_wall;
	const sim_stats *stats;
	ncsim_time_t end;       /* when the last task finished */
	const char *const *job_args; /* per job: its options joined by blanks */
} stat_summary_in;

/* Writes summary.json to f. 0, or -1 on a write error. */
int stat_summary_json(const struct tk_world *w, const stat_summary_in *in, FILE *f);

#endif

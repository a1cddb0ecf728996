/*
 * summary.h - the run's summary.json (prefix stat_).
 *
 *   { "ncsim_version", "command_line", "system", "network", "seed",
 *     "status" ("ok", "failed", "stopped"), "wall_seconds" (optional),
 *     "events", "sim_end_ps", "jobs": [ { "name", "program", "tasks", "args",
 *       "end_ps", "compute_ps", "sleep_ps", "io_ps", "mpi_ps", "mpi_network_ps",
 *       "mpi_sync_ps", "mpi_stack_ps", "bytes_sent", "msgs_sent",
 *       "io_requests", "io_bytes_read", "io_bytes_written" } ],
 *     "network_totals": { class: { "msgs", "bytes" } },
 *     "storage": { "requests_submitted", "requests_completed", "requests_failed",
 *       "reads", "writes", "bytes_read", "bytes_written", "bytes_stored",
 *       "bytes_drained", "network_msgs", "network_bytes", "space_waits" },
 *     "traffic": { ... } }
 *
 * A job's io_* figures count its completed READ/WRITE requests and their
 * client bytes (the sums of tasks.csv's io_bytes_read / io_bytes_written).
 * "storage" (only when the run did I/O) holds the storage subsystem's totals
 * (runtime/storage/storage.h): over all jobs, bytes_written equals the jobs'
 * io_bytes_written, and in a completed run bytes_stored equals bytes_written
 * (what clients wrote is what the devices stored). "traffic" appears only
 * when traffic models ran (runtime/traffic/stats.h).
 */
#ifndef NCSIM_STATS_SUMMARY_H
#define NCSIM_STATS_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/kernel/sim.h"

struct task_world;

typedef struct stat_summary_in {
	int argc;
	char **argv;            /* command line */
	const char *system;     /* system file path or "(built-in)" */
	const char *network;    /* model name */
	uint64_t seed;
	const char *status;
	int with_wall;
	const sim_stats *stats;
	ncsim_time_t end;       /* when the last task finished (drv_end_time: a failed run's reach) */
	const char *const *job_args; /* per job: its options joined by blanks */
} stat_summary_in;

/* Writes summary.json to f. 0, or -1 on a write error. */
/* Version of summary.json's layout (its "schema" key). */
#define STAT_SUMMARY_SCHEMA 1
int stat_summary_json(const struct task_world *w, const stat_summary_in *in, FILE *f);

#endif

/*
 * tasks_csv.h - the run's tasks.csv: one row per task (prefix stat_).
 *
 * Columns (times in ps, exact):
 *   job, rank (physical), task (virtual id), node, end_ps,
 *   compute_ps, sleep_ps, io_ps,
 *   mpi_ps, mpi_network_ps, mpi_sync_ps, mpi_stack_ps   (network + sync + stack = mpi),
 *   bytes_sent, msgs_sent, bytes_received, msgs_received (every MPI message, collectives included),
 *   io_bytes_read, io_bytes_written (completed I/O requests; their blocked time is io_ps)
 */
#ifndef NCSIM_STATS_TASKS_CSV_H
#define NCSIM_STATS_TASKS_CSV_H

#include <stdio.h>

struct task_world;

/* Writes the header and one row per task of every job. 0, or -1 on a write error. */
int stat_tasks_csv(const struct task_world *w, FILE *f);

#endif

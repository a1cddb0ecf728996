/*
 * io_client.h - the I/O client of the skeleton API (prefix io_): OPENS,
 * CLOSES, READS and WRITES of LANGUAGE.md §14.2 on top of the storage
 * subsystem (runtime/storage/storage.h).
 *
 * Files are numbered per job; file 0 is open (for reading and writing) from
 * the start. Each task keeps, per file, whether it is open, its mode and its
 * current offset:
 *
 *   READS/WRITES without AT OFFSET   at the current offset, which then moves by the size
 *   READS/WRITES ... AT OFFSET o     at o; the current offset does not move (pread/pwrite)
 *   OPENS                            opens (offset 0), or changes the mode of an open file
 *   CLOSES                           closes; the offset is forgotten
 *
 * A request is submitted to the storage subsystem from the task's own handler
 * and completes with a sto_completion event at the task's entity. Blocking
 * calls wait for it at once; asynchronous ones return a handle (bit 63 set,
 * MP_FOREIGN_REQ) that rt_wait and rt_waitall complete together with the
 * task's messages. The time a task spends blocked on I/O is charged to the
 * I/O category of tasks.csv and to the io_usecs counter; bytes_read and
 * bytes_written grow when the task learns that its request completed (the
 * blocking call's return, or the wait that completes an asynchronous one).
 *
 * Run-time errors (rt_fatal: the message names the task, the source line and
 * the simulated time): reading or writing a file that is not open, or one
 * opened without that direction; closing a file that is not open (twice, or
 * never opened); a negative size or offset; a write the storage refused
 * (no space, with [storage] on_full = fail).
 */
#ifndef NCSIM_IO_CLIENT_H
#define NCSIM_IO_CLIENT_H

#include "ncsim/rt.h"
#include "runtime/mpi/mpi_proto.h"
#include "runtime/storage/storage.h"

/* 1 if h is an I/O request handle. */
static inline int io_is_req(rt_req h) { return (h & MP_FOREIGN_REQ) != 0; }
/* Task-entity handler for a storage completion addressed to t. */
void io_on_done(rt_task *t, const sto_completion *c);
/* Blocks until the I/O requests reqs[0..n) have completed, then releases them (0 entries are skipped). */
void io_wait(rt_task *t, const rt_req *reqs, int n);
/* Number of I/O requests of t not yet completed (for reports). */
int io_in_flight(const rt_task *t);
/* Frees t's I/O state (end of the simulation). */
void io_task_free(rt_task *t);

#endif

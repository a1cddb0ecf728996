/*
 * busylog.h - device_busy.csv, one row per device operation (prefix
 * sto_busylog_): when each storage device was busy, the data behind
 * utilisation over time. `ncsim run --io-log` writes it beside io.csv.
 *
 * A device serves one operation at a time, first come, first served (ssd.h,
 * hdd.h, lsm.h), so the rows of one device are in order of their start and
 * never overlap; a row is written when the operation is queued, with the
 * service interval the model has already fixed:
 *
 *     device,node,class,op,start_ps,end_ps,bytes
 *     3,40,ssd,drain,1500000000,1520000000,1048576
 *
 *   device  the device's row in storage.csv (0-based, in that file's order)
 *   node    the node of its burst buffer or I/O server
 *   class   storage.csv's device column: local, ssd, hdd or lsm
 *   op      read, write (client data) or drain (a burst buffer's data read back
 *           to go to external storage)
 *   start_ps, end_ps  its service, queueing excluded: end - start is what the
 *           device adds to storage.csv's busy_us
 *
 * The file is bounded: after `max` rows the others are only counted, and
 * the run says how many it left out. In a run over ranks each rank keeps its
 * rows and rank 0 writes them in the sequential order (pln_log).
 */
#ifndef NCSIM_STO_BUSYLOG_H
#define NCSIM_STO_BUSYLOG_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/kernel/par_lines.h"

#define STO_BUSYLOG_MAX_DEFAULT 1000000u
#define STO_BUSYLOG_HEADER "device,node,class,op,start_ps,end_ps,bytes"

/* The operations of device_busy.csv's op column. */
enum sto_busy_op { STO_BUSY_READ, STO_BUSY_WRITE, STO_BUSY_DRAIN };

typedef pln_log sto_busylog;

/* One operation of device `device` (storage.csv row) on `node`, served from start to end (ps). */
void sto_busylog_row(sto_busylog *l, uint32_t device, uint32_t node, const char *cls, enum sto_busy_op op,
                     ncsim_time_t start, ncsim_time_t end, uint64_t bytes);

#endif

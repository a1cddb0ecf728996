/*
 * io_figures.h - the storage figures of a report (prefix rep_iofig_).
 *
 * Only when a run did file I/O (it has storage.csv, io.csv or
 * device_busy.csv: report/io.h, report/busy.h):
 *   io-inflight   the mean number of I/O requests in flight over time, one
 *                 step curve per device class and operation ("local write":
 *                 the node-local burst buffers; "ssd read", ...) (io.csv);
 *   io-rate       the bytes per second those requests moved over time (io.csv);
 *   device-util   the share of time the devices of each class were busy,
 *                 per time bin (device_busy.csv);
 *   device-util-each  the same per device that served an operation, for runs
 *                 with few (at most REP_BUSY_EACH in all) when some class
 *                 has several devices;
 *   device-busy   the CDF over the devices of each kind of the share of the
 *                 run each was serving a request (storage.csv, busy_us).
 * Without io.csv and device_busy.csv (a run without --io-log) the figures
 * over time are notes: the time course of I/O is in no other file, and
 * device-busy is the whole run's.
 * Several runs: one curve per run and series ("RUN: ssd write").
 */
#ifndef NCSIM_REPORT_IO_FIGURES_H
#define NCSIM_REPORT_IO_FIGURES_H

#include "report/figures.h"

/* Appends the storage figures of runs[0..n) to *out, if any run did file I/O. Device values may be reordered. */
void rep_iofig_build(rep_run *const *runs, size_t n, rep_figures *out);

#endif

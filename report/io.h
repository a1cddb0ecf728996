/*
 * io.h - the file I/O of a run as the report sees it (prefix rep_io_).
 *
 * Two documented files of a run folder (doc/ncsim.1, FILES) tell about
 * storage, and neither is needed:
 *   - storage.csv (every run with file I/O): one row per device with its
 *     kind (local burst buffer, ssd, hdd, lsm) and busy_us, the sum of its
 *     service times; divided by the simulated time, the share of the run
 *     the device was serving;
 *   - io.csv (runs with --io-log): one row per request with its device
 *     class, operation, bytes, issue and completion time: the only file
 *     with I/O over time.
 * io.csv grows with the requests, so it is streamed into REP_IO_BINS equal
 * bins over the simulated time per device class and operation ("ssd
 * write"): each request adds the part of its span [issue, completion] that
 * falls in a bin (summed, then divided by the bin's width: the mean number
 * of requests in flight) and the same share of its bytes (the bytes moved
 * per second). Memory: 3.2 kB per series, 8 bytes per device.
 *
 *      bin:   |   0   |   1   |   2   |   3   |      w = simulated time / REP_IO_BINS
 *      req:        [=======+=======+===]          issue 0.5w, completion 2.75w, 900 B:
 *                    0.5w     w     0.75w         in flight 0.5w, w, 0.75w; bytes 200, 400, 300
 */
#ifndef NCSIM_REPORT_IO_H
#define NCSIM_REPORT_IO_H

#include "report/run.h"

/*
 * Reads DIR/storage.csv, DIR/io.csv and DIR/device_busy.csv (report/busy.h)
 * of run r (its summary read first, for the simulated time) into r->devices,
 * r->io and r->busy; a missing file sets r->storage_missing, r->io_missing
 * or r->busy_missing. 0, or -1 with *err ("FILE:LINE: ...").
 */
int rep_io_load(rep_run *r, char **err);
/* Frees what rep_io_load put in r. */
void rep_io_free(rep_run *r);

#endif

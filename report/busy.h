/*
 * busy.h - when the storage devices of a run were busy, from
 * device_busy.csv (prefix rep_busy_).
 *
 * `ncsim run --io-log` writes one row per device operation with its
 * service interval [start_ps, end_ps] (doc/ncsim.1, FILES). The file grows
 * with the operations, so it is streamed, twice: the first pass finds the
 * last end (drains may run past the last task's end) and the number of
 * devices; the second spreads each interval over REP_IO_BINS equal bins
 * from 0 to max(simulated time, last end), exactly: a bin gets the part of
 * the interval that falls in it.
 *
 *      bin:   |   0   |   1   |   2   |      w = span / REP_IO_BINS
 *      op:        [=======+===]               start 0.5w, end 1.5w: 0.5w in bin 0, 0.5w in bin 1
 *
 * A device serves one operation at a time, so its rows never overlap; should
 * they (a row that starts before the previous row of its device ended), the
 * overlap counts once: a device is busy or not, whatever its queue. Rows of
 * a device come in order of their start, as the run writes them.
 *
 * Series: one per device class (storage.csv's device column: local, ssd,
 * hdd, lsm), its busy time summed over the class's devices; and one per
 * device that served an operation when the file's device ids are all below
 * REP_BUSY_EACH (a run of few devices). A class has the
 * devices storage.csv lists of it (some may never be busy), or, without
 * storage.csv, those device_busy.csv names. Memory: 1.6 kB per series and
 * 16 bytes per device.
 */
#ifndef NCSIM_REPORT_BUSY_H
#define NCSIM_REPORT_BUSY_H

#include "report/run.h"

/* Runs with at most this many devices get a curve per device too. */
#define REP_BUSY_EACH 8

/*
 * Reads DIR/device_busy.csv of run r (its summary and storage.csv read
 * first) into r->busy; a missing file sets r->busy_missing. 0, or -1 with
 * *err ("FILE:LINE: ...").
 */
int rep_busy_load(rep_run *r, char **err);
/* Frees what rep_busy_load put in r. */
void rep_busy_free(rep_run *r);
/* Bin b of series s as a fraction of its devices' time (0 to 1). */
double rep_busy_fraction(const rep_run *r, const rep_busy_series *s, size_t b);

#endif

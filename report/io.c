/*
 * io.c - the file I/O of a run: storage.csv and io.csv (see io.h), then
 * device_busy.csv (busy.c).
 */
#include "report/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/busy.h"

/* ---------------------------------------------------------------- storage.csv */

enum { S_DEVICE, S_BUSY, S_NREQ, S_READS = S_NREQ, S_WRITES, S_NCOLS };
static const char *const storage_cols[S_NCOLS] = {"device", "busy_us", "reads", "writes"};

static int add_device(rep_run *r, rep_csv *c, const int *col, void *unused, char **err)
{
	double busy;
	uint64_t ops[2] = {0, 0};
	(void)unused;
	if (rep_csv_double(c, col[S_BUSY], &busy, err) < 0)
		return -1;
	for (int k = 0; k < 2; k++)
		if (col[S_READS + k] >= 0 && rep_csv_u64(c, col[S_READS + k], &ops[k], err) < 0)
			return -1;
	r->device_ops += ops[0] + ops[1];
	VEC_PUSH(&rep_kind_get(&r->devices, rep_csv_field(c, col[S_DEVICE]), 1)->values, busy * 1e6);
	return 0;
}

/* --------------------------------------------------------------------- io.csv */

enum { I_DEVICE, I_OP, I_BYTES, I_ISSUE, I_DONE, I_NCOLS };
static const char *const io_cols[I_NCOLS] = {"device", "op", "bytes", "issue_us", "completion_us"};

/* The bin of time t (ps) for bins of width w; times past the last bin count in it. */
static size_t bin_of(double t, double w)
{
	double k = floor(t / w);
	return k < 0 ? 0 : k >= REP_IO_BINS ? REP_IO_BINS - 1 : (size_t)k;
}

/* Adds a request of `bytes` in flight from t0 to t1 (ps) to s, its span and bytes split over the bins it crosses. */
static void spread(rep_io_series *s, double t0, double t1, double bytes, double w)
{
	size_t b0 = bin_of(t0, w), b1 = bin_of(t1, w);
	s->requests++;
	if (t1 <= t0) { /* an instant request moves its bytes in its bin and is never in flight */
		s->bytes[b0] += bytes;
		return;
	}
	for (size_t b = b0; b <= b1; b++) {
		double lo = b == b0 ? t0 : (double)b * w, hi = b == b1 ? t1 : (double)(b + 1) * w;
		s->inflight[b] += hi - lo;
		s->bytes[b] += bytes * (hi - lo) / (t1 - t0);
	}
}

/* The series of device class dev and operation op in r, a new one if needed. */
static rep_io_series *series_of(rep_run *r, const char *dev, const char *op)
{
	char *name = xasprintf("%s %s", dev, op);
	for (size_t i = 0; i < r->io.len; i++)
		if (!strcmp(r->io.ptr[i].name, name)) {
			free(name);
			return &r->io.ptr[i];
		}
	VEC_PUSH(&r->io, ((rep_io_series){.name = name}));
	return &r->io.ptr[r->io.len - 1];
}

/* The times and bytes of the current row: 0, or -1 with *err. */
static int request(rep_csv *c, const int *col, double *t0, double *t1, double *bytes, char **err)
{
	if (rep_csv_double(c, col[I_BYTES], bytes, err) < 0 || rep_csv_double(c, col[I_ISSUE], t0, err) < 0 ||
	    rep_csv_double(c, col[I_DONE], t1, err) < 0)
		return -1;
	if (*t1 < *t0 || *t0 < 0 || *bytes < 0) {
		*err = xasprintf("%s:%zu: a request that completes before it is issued, or a negative figure",
		                 rep_csv_path(c), rep_csv_line(c));
		return -1;
	}
	*t0 *= 1e6; /* us to ps */
	*t1 *= 1e6;
	return 0;
}

static int add_request(rep_run *r, rep_csv *c, const int *col, void *unused, char **err)
{
	double t0, t1, bytes;
	(void)unused;
	if (request(c, col, &t0, &t1, &bytes, err) < 0)
		return -1;
	spread(series_of(r, rep_csv_field(c, col[I_DEVICE]), rep_csv_field(c, col[I_OP])), t0, t1, bytes, r->io_bin_ps);
	return 0;
}

/* The last completion (ps) into *(double *)end: the span of a run whose summary.json has no simulated time. */
static int last_completion(rep_run *r, rep_csv *c, const int *col, void *end, char **err)
{
	double t0, t1, bytes, *e = end;
	(void)r;
	if (request(c, col, &t0, &t1, &bytes, err) < 0)
		return -1;
	*e = t1 > *e ? t1 : *e;
	return 0;
}

int rep_io_load(rep_run *r, char **err)
{
	if (rep_run_stream(r, "storage.csv", storage_cols, S_NCOLS, S_NREQ, &r->storage_missing, add_device, NULL,
	                   err) < 0)
		return -1;
	double end = (double)r->sim_end_ps;
	if (end <= 0) {
		char *missing = NULL;
		int rc = rep_run_stream(r, "io.csv", io_cols, I_NCOLS, I_NCOLS, &missing, last_completion, &end, err);
		free(missing);
		if (rc < 0)
			return -1;
	}
	r->io_bin_ps = end > 0 ? end / REP_IO_BINS : 1;
	if (rep_run_stream(r, "io.csv", io_cols, I_NCOLS, I_NCOLS, &r->io_missing, add_request, NULL, err) < 0)
		return -1;
	return rep_busy_load(r, err);
}

void rep_io_free(rep_run *r)
{
	for (size_t i = 0; i < r->devices.len; i++) {
		free(r->devices.ptr[i].name);
		VEC_FREE(&r->devices.ptr[i].values);
	}
	VEC_FREE(&r->devices);
	for (size_t i = 0; i < r->io.len; i++)
		free(r->io.ptr[i].name);
	VEC_FREE(&r->io);
	rep_busy_free(r);
	free(r->storage_missing);
	free(r->io_missing);
	r->storage_missing = r->io_missing = NULL;
}

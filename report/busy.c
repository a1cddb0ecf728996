/*
 * busy.c - when the storage devices were busy: device_busy.csv (see busy.h).
 */
#include "report/busy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { B_DEVICE, B_NODE, B_CLASS, B_START, B_END, B_NCOLS };
static const char *const busy_cols[B_NCOLS] = {"device", "node", "class", "start_ps", "end_ps"};

/* Device ids a run without storage.csv may use (the state below is 16 bytes a device). */
#define MAX_DEVICES (1u << 22)

/* One device while the file is streamed the second time. */
typedef struct dev_state {
	double until;   /* the end of its busy time so far (ps): an overlapping row counts once */
	int32_t each;   /* its own series in scan.each, or -1 */
	int32_t counted; /* 1 once counted among its class's devices (classes storage.csv does not list) */
} dev_state;

/* What the two passes share. */
typedef struct scan {
	uint64_t limit;             /* device ids are below it: storage.csv's rows, or MAX_DEVICES */
	uint64_t ndev;              /* pass 1: the largest id seen + 1 */
	double last_end;            /* pass 1: the last end (ps) */
	dev_state *dev;             /* pass 2: ndev of them */
	size_t listed;              /* r->busy[0..listed): the classes storage.csv lists (their devices known) */
	VEC(rep_busy_series) each;  /* pass 2: a series per device, when there are few */
} scan;

/* The device and service interval of the current row: 0, or -1 with *err. */
static int busy_row(rep_csv *c, const int *col, const scan *sc, uint64_t *dev, double *t0, double *t1, char **err)
{
	if (rep_csv_u64(c, col[B_DEVICE], dev, err) < 0 || rep_csv_double(c, col[B_START], t0, err) < 0 ||
	    rep_csv_double(c, col[B_END], t1, err) < 0)
		return -1;
	if (*t1 < *t0 || *t0 < 0) {
		*err = xasprintf("%s:%zu: an operation that ends before it starts, or a negative time", rep_csv_path(c),
		                 rep_csv_line(c));
		return -1;
	}
	if (*dev >= sc->limit) {
		*err = sc->limit == MAX_DEVICES
		           ? xasprintf("%s:%zu: device %llu: ids go up to %u", rep_csv_path(c), rep_csv_line(c),
		                       (unsigned long long)*dev, MAX_DEVICES - 1)
		           : xasprintf("%s:%zu: device %llu is not a row of storage.csv (%llu devices)", rep_csv_path(c),
		                       rep_csv_line(c), (unsigned long long)*dev, (unsigned long long)sc->limit);
		return -1;
	}
	return 0;
}

/* Pass 1: the last end, the number of devices, the rows. */
static int scan_row(rep_run *r, rep_csv *c, const int *col, void *arg, char **err)
{
	scan *sc = arg;
	uint64_t dev;
	double t0, t1;
	if (busy_row(c, col, sc, &dev, &t0, &t1, err) < 0)
		return -1;
	sc->last_end = t1 > sc->last_end ? t1 : sc->last_end;
	sc->ndev = dev + 1 > sc->ndev ? dev + 1 : sc->ndev;
	r->busy_rows++;
	r->busy_last_start = t0;
	return 0;
}

/* Adds [t0, t1) (ps) to the bins of b, each bin the part that falls in it. */
static void spread_busy(double *b, double t0, double t1, double w)
{
	double k0 = floor(t0 / w), k1 = floor(t1 / w);
	size_t b0 = k0 >= REP_IO_BINS ? REP_IO_BINS - 1 : (size_t)k0;
	size_t b1 = k1 >= REP_IO_BINS ? REP_IO_BINS - 1 : (size_t)k1;
	for (size_t k = b0; k <= b1; k++) {
		double lo = k == b0 ? t0 : (double)k * w, hi = k == b1 ? t1 : (double)(k + 1) * w;
		b[k] += hi - lo;
	}
}

/* The index in r->busy of the series of class name, a new one (devices counted from the rows) if needed. */
static size_t class_series(rep_run *r, const char *name)
{
	for (size_t i = 0; i < r->busy.len; i++)
		if (!strcmp(r->busy.ptr[i].name, name))
			return i;
	VEC_PUSH(&r->busy, ((rep_busy_series){.name = xstrdup(name), .device = -1}));
	return r->busy.len - 1;
}

/* Pass 2: the row's busy time, less what overlaps its device's earlier rows, into its series' bins. */
static int add_row(rep_run *r, rep_csv *c, const int *col, void *arg, char **err)
{
	scan *sc = arg;
	uint64_t dev;
	double t0, t1;
	if (busy_row(c, col, sc, &dev, &t0, &t1, err) < 0)
		return -1;
	dev_state *d = &sc->dev[dev];
	const char *cls = rep_csv_field(c, col[B_CLASS]);
	size_t k = class_series(r, cls);
	if (k >= sc->listed && !d->counted)
		r->busy.ptr[k].devices++;
	d->counted = 1;
	if (sc->ndev <= REP_BUSY_EACH && d->each < 0) {
		char *name = xasprintf("%s node %s", cls, rep_csv_field(c, col[B_NODE]));
		VEC_PUSH(&sc->each, ((rep_busy_series){.name = name, .device = (long)dev, .devices = 1}));
		d->each = (int32_t)(sc->each.len - 1);
	}
	t0 = t0 > d->until ? t0 : d->until;
	if (t1 <= t0)
		return 0;
	d->until = t1;
	spread_busy(r->busy.ptr[k].busy, t0, t1, r->busy_bin_ps);
	if (d->each >= 0)
		spread_busy(sc->each.ptr[d->each].busy, t0, t1, r->busy_bin_ps);
	return 0;
}

static int by_device(const void *a, const void *b)
{
	long x = ((const rep_busy_series *)a)->device, y = ((const rep_busy_series *)b)->device;
	return (x > y) - (x < y);
}

int rep_busy_load(rep_run *r, char **err)
{
	scan sc = {.limit = MAX_DEVICES};
	if (!r->storage_missing) {
		sc.limit = 0;
		for (size_t i = 0; i < r->devices.len; i++) {
			const rep_kind *k = &r->devices.ptr[i];
			VEC_PUSH(&r->busy, ((rep_busy_series){.name = xstrdup(k->name), .device = -1, .devices = k->values.len}));
			sc.limit += k->values.len;
		}
	}
	sc.listed = r->busy.len;
	if (rep_run_stream(r, "device_busy.csv", busy_cols, B_NCOLS, B_NCOLS, &r->busy_missing, scan_row, &sc, err) < 0)
		return -1;
	if (r->busy_missing)
		return 0;
	double span = (double)r->sim_end_ps > sc.last_end ? (double)r->sim_end_ps : sc.last_end;
	r->busy_bin_ps = span > 0 ? span / REP_IO_BINS : 1;
	sc.dev = xcalloc(sc.ndev ? sc.ndev : 1, sizeof *sc.dev);
	for (uint64_t i = 0; i < sc.ndev; i++)
		sc.dev[i].each = -1;
	char *missing = NULL;
	int rc = rep_run_stream(r, "device_busy.csv", busy_cols, B_NCOLS, B_NCOLS, &missing, add_row, &sc, err);
	free(missing);
	free(sc.dev);
	if (sc.each.len) /* (qsort may not be given NULL) */
		qsort(sc.each.ptr, sc.each.len, sizeof *sc.each.ptr, by_device);
	for (size_t i = 0; i < sc.each.len; i++)
		VEC_PUSH(&r->busy, sc.each.ptr[i]);
	VEC_FREE(&sc.each);
	return rc;
}

void rep_busy_free(rep_run *r)
{
	for (size_t i = 0; i < r->busy.len; i++)
		free(r->busy.ptr[i].name);
	VEC_FREE(&r->busy);
	free(r->busy_missing);
	r->busy_missing = NULL;
}

double rep_busy_fraction(const rep_run *r, const rep_busy_series *s, size_t b)
{
	return s->devices ? s->busy[b] / (r->busy_bin_ps * (double)s->devices) : 0;
}

/*
 * io_figures.c - the storage figures of a report (see io_figures.h).
 */
#include "report/io_figures.h"

#include <stdlib.h>
#include <string.h>

#include "report/busy.h"
#include "report/text.h"

/* Sentences naming the runs without file (which: 0 storage.csv, 1 io.csv), when there are several runs. */
static void missing(rep_buf *cap, rep_run *const *runs, size_t n, int which)
{
	for (size_t r = 0; n > 1 && r < n; r++) {
		const char *why = which ? runs[r]->io_missing : runs[r]->storage_missing;
		if (why)
			rep_buf_printf(cap, " Not drawn for %s: %s.", runs[r]->label, why);
	}
}

/* ------------------------------------------------------------ over time */

static const rep_line_col inflight_cols[] = {{"time", NULL, 0}, {"in_flight", "", 0}};
static const rep_line_col rate_cols[] = {{"time", NULL, 0}, {"bytes_per_s", "", 0}};

/* The value of bin b of series s of run r: mean requests in flight, or bytes per second. */
static double bin_value(const rep_run *r, const rep_io_series *s, size_t b, int rate)
{
	return (rate ? s->bytes[b] * 1e12 : s->inflight[b]) / r->io_bin_ps;
}

/* One curve of a figure over time: bin b is drawn at its middle, with the value bins[b] * scale. */
typedef struct bin_curve {
	char *name;          /* heap */
	const double *bins;  /* REP_IO_BINS values */
	double bin_ps, scale;
} bin_curve;

/* The name of series `name` of run r in a figure of n runs: its own, or "RUN: name". */
static char *curve_name(rep_run *const *runs, size_t n, size_t r, const char *name)
{
	return n > 1 ? xasprintf("%s: %s", runs[r]->label, name) : xstrdup(name);
}

/* Draws c[0..nc) as steps over time, x in unit tu, one value column cols[1]; frees their names. */
static void plot_binned(rep_figure *f, const char *comment, const char *units, bin_curve *c, size_t nc, rep_unit tu,
                        const rep_line_col *cols, const rep_line_axes *ax)
{
	rep_line_series *s = xcalloc(nc, sizeof *s);
	double *v = xcalloc(nc * REP_IO_BINS * 2, sizeof *v), *w = v;
	for (size_t i = 0; i < nc; i++) {
		s[i] = (rep_line_series){c[i].name, w, REP_IO_BINS};
		for (size_t b = 0; b < REP_IO_BINS; b++) {
			*w++ = ((double)b + 0.5) * c[i].bin_ps / tu.size;
			*w++ = c[i].bins[b] * c[i].scale;
		}
	}
	rep_plot_lines(f, comment, units, s, nc, cols, 2, ax);
	for (size_t i = 0; i < nc; i++)
		free(c[i].name);
	free(v);
	free(s);
}

/* One figure of I/O over time (rate: bytes per second, else requests in flight). */
static void fig_over_time(rep_figures *out, rep_run *const *runs, size_t n, int rate)
{
	rep_figure *f = rep_fig_add(out, rate ? "io-rate" : "io-inflight",
	                            rate ? "I/O bytes per second over time" : "I/O requests in flight over time");
	size_t ns = 0, logged = 0;
	double tmax = 0, ymax = 0;
	for (size_t r = 0; r < n; r++) {
		ns += runs[r]->io.len;
		logged += runs[r]->io_missing == NULL;
		tmax = runs[r]->io_bin_ps * REP_IO_BINS > tmax ? runs[r]->io_bin_ps * REP_IO_BINS : tmax;
		for (size_t i = 0; i < runs[r]->io.len; i++)
			for (size_t b = 0; b < REP_IO_BINS; b++)
				if (bin_value(runs[r], &runs[r]->io.ptr[i], b, rate) > ymax)
					ymax = bin_value(runs[r], &runs[r]->io.ptr[i], b, rate);
	}
	rep_unit tu = rep_unit_time(tmax), bu = rep_unit_bytes(ymax);
	rep_buf cap = {0};
	rep_buf_printf(&cap, "%s over the simulated time, in %d equal bins, one curve per device class (local: the "
	               "node-local burst buffers; ssd, hdd, lsm: the storage nodes' devices) and operation (io.csv). "
	               "Each request counts from its issue to its completion, ",
	               rate ? "The bytes per second moved by the I/O requests" : "The mean number of I/O requests in flight",
	               REP_IO_BINS);
	rep_buf_puts(&cap, rate ? "its bytes spread evenly over that span (the network and the device together)."
	                        : "waiting for the network or for a device (the time the ranks wait for I/O).");
	missing(&cap, runs, n, 1);
	if (logged == 0) {
		f->note = xstrdup("The run logged no I/O request (io.csv is written by ncsim run --io-log): the storage "
		                  "devices' busy share over the whole run is drawn below (storage.csv), their use over time "
		                  "is in no other file.");
	} else if (ns == 0) {
		f->note = xstrdup("io.csv lists no I/O request: nothing to draw.");
	} else {
		bin_curve *c = xcalloc(ns, sizeof *c);
		size_t k = 0;
		for (size_t r = 0; r < n; r++)
			for (size_t i = 0; i < runs[r]->io.len; i++, k++) {
				const rep_io_series *io = &runs[r]->io.ptr[i];
				double w = runs[r]->io_bin_ps;
				c[k] = (bin_curve){curve_name(runs, n, r, io->name), rate ? io->bytes : io->inflight, w,
				                   rate ? 1e12 / w / bu.size : 1 / w};
			}
		char *xl = xasprintf("simulated time (%s)", tu.name);
		char *yl = rate ? xasprintf("I/O rate (%s/s)", bu.name) : xstrdup("I/O requests in flight (mean per bin)");
		char *units = rate ? xasprintf("Time: the middle of each bin, in %s; rates in %s/s.", tu.name, bu.name)
		                   : xasprintf("Time: the middle of each bin, in %s; requests: a mean over the bin.", tu.name);
		rep_line_axes ax = {xl, yl, 0, NULL, 1};
		plot_binned(f, cap.ptr, units, c, ns, tu, rate ? rate_cols : inflight_cols, &ax);
		rep_buf_printf(&cap, " Time in %s%s%s%s.", tu.name, rate ? ", rates in " : "", rate ? bu.name : "",
		               rate ? "/s" : "");
		free(xl);
		free(yl);
		free(units);
		free(c);
	}
	f->caption = rep_buf_take(&cap);
}

/* ------------------------------------------------------------ device utilisation over time */

static const rep_line_col util_cols[] = {{"time", NULL, 0}, {"busy_percent", "", 0}};

/* The curves of device_busy.csv's series of every run: the classes (each 0) or the single devices (each 1). */
static size_t util_curves(rep_run *const *runs, size_t n, int each, bin_curve *c)
{
	size_t k = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r]->busy.len; i++) {
			const rep_busy_series *b = &runs[r]->busy.ptr[i];
			if ((b->device >= 0) != each || b->devices == 0)
				continue;
			if (c)
				c[k] = (bin_curve){curve_name(runs, n, r, b->name), b->busy, runs[r]->busy_bin_ps,
				                   100 / (runs[r]->busy_bin_ps * (double)b->devices)};
			k++;
		}
	return k;
}

/* Caption sentences: each run's devices per class, its span past the simulated time, a bounded file. */
static void util_facts(rep_buf *cap, rep_run *const *runs, size_t n, rep_unit tu)
{
	for (size_t r = 0; r < n; r++) {
		const rep_run *run = runs[r];
		if (run->busy_missing)
			continue;
		rep_buf_printf(cap, " %s%sevices:", n > 1 ? run->label : "", n > 1 ? ": d" : "D");
		for (size_t i = 0, first = 1; i < run->busy.len; i++)
			if (run->busy.ptr[i].device < 0) {
				rep_buf_printf(cap, "%s %zu %s", first ? "" : ",", run->busy.ptr[i].devices, run->busy.ptr[i].name);
				first = 0;
			}
		rep_buf_printf(cap, "; bins of %.4g %s", run->busy_bin_ps / tu.size, tu.name);
		double past = run->busy_bin_ps * REP_IO_BINS - (double)run->sim_end_ps;
		if (past > 0.5) {
			rep_buf_puts(cap, ", the last operations (drains) ending ");
			rep_buf_quantity(cap, past, 0);
			rep_buf_puts(cap, " after the simulated time");
		}
		rep_buf_puts(cap, ".");
		if (run->device_ops > run->busy_rows) {
			rep_buf_printf(cap, " device_busy.csv holds %llu of the %llu device operations storage.csv counts "
			               "(ncsim run --device-log-max): the operations queued after its last row, which starts at ",
			               (unsigned long long)run->busy_rows, (unsigned long long)run->device_ops);
			rep_buf_quantity(cap, run->busy_last_start, 0);
			rep_buf_puts(cap, ", are missing from the curves.");
		}
	}
}

/* The device utilisation over time: per class (each 0), or per device for runs with few (each 1). */
static void fig_device_util(rep_figures *out, rep_run *const *runs, size_t n, int each)
{
	rep_figure *f = rep_fig_add(out, each ? "device-util-each" : "device-util",
	                            each ? "Utilisation of each storage device over time"
	                                 : "Utilisation of the storage devices over time");
	size_t logged = 0, nc = util_curves(runs, n, each, NULL);
	uint64_t rows = 0;
	double tmax = 0;
	for (size_t r = 0; r < n; r++) {
		logged += runs[r]->busy_missing == NULL;
		rows += runs[r]->busy_rows;
		if (!runs[r]->busy_missing && runs[r]->busy_bin_ps * REP_IO_BINS > tmax)
			tmax = runs[r]->busy_bin_ps * REP_IO_BINS;
	}
	rep_unit tu = rep_unit_time(tmax);
	rep_buf cap = {0};
	rep_buf_printf(&cap, "The share of time the storage devices %s were busy, over the simulated time in %d equal "
	               "bins (device_busy.csv: each device operation's service, queueing excluded, burst-buffer drains "
	               "included). A bin's value is the busy time of %s in the bin divided by %s: 100%% means %s "
	               "busy for the whole bin. Each device serves one operation at a time, so a device busy with "
	               "several queued operations counts once.",
	               each ? "of the run, each on its own," : "of each class (local: the node-local burst buffers; ssd, "
	                                                       "hdd, lsm: the storage nodes' devices)",
	               REP_IO_BINS, each ? "the device" : "the class's devices",
	               each ? "the bin's width" : "the bin's width times the number of devices of the class",
	               each ? "the device was" : "every device of the class was");
	util_facts(&cap, runs, n, tu);
	for (size_t r = 0; n > 1 && r < n; r++)
		if (runs[r]->busy_missing)
			rep_buf_printf(&cap, " Not drawn for %s: %s.", runs[r]->label, runs[r]->busy_missing);
	if (logged == 0) {
		f->note = xstrdup("The run has no device_busy.csv (ncsim run --io-log writes it): when the devices were "
		                  "busy is in no other file; their busy share over the whole run is drawn below (storage.csv).");
	} else if (nc == 0 || rows == 0) {
		f->note = xstrdup("device_busy.csv lists no device operation: nothing to draw.");
	} else {
		bin_curve *c = xcalloc(nc, sizeof *c);
		util_curves(runs, n, each, c);
		char *xl = xasprintf("simulated time (%s)", tu.name);
		char *units = xasprintf("Time: the middle of each bin, in %s; busy share in %% of the devices' time.", tu.name);
		rep_line_axes ax = {xl, "devices busy (% of their time)", 0, NULL, 1};
		plot_binned(f, cap.ptr, units, c, nc, tu, util_cols, &ax);
		rep_buf_printf(&cap, " Time in %s; busy share in %%.", tu.name);
		free(xl);
		free(units);
		free(c);
	}
	f->caption = rep_buf_take(&cap);
}

/* 1 if the figure per device is worth drawing: a few busy devices in all, and some class with more than one. */
static int util_each_wanted(rep_run *const *runs, size_t n)
{
	size_t each = util_curves(runs, n, 1, NULL), shared = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r]->busy.len; i++)
			shared += runs[r]->busy.ptr[i].device < 0 && runs[r]->busy.ptr[i].devices > 1;
	return each > 0 && each <= REP_BUSY_EACH && shared > 0;
}

/* ------------------------------------------------------------ device busy */

static void fig_device_busy(rep_figures *out, rep_run *const *runs, size_t n)
{
	rep_figure *f = rep_fig_add(out, "device-busy", "Busy share of the storage devices");
	VEC(rep_curve) c = {0};
	VEC(char *) names = {0};
	VEC(double *) fracs = {0};
	rep_buf cap = {0};
	rep_buf_puts(&cap, "The cumulative distribution over the devices of each kind of the share of the run each "
	                   "device spent serving requests: its busy time (storage.csv, busy_us: the sum of its service "
	                   "times, queueing excluded, burst-buffer drains included) divided by the simulated time. A "
	                   "point (x, y) says that a fraction y of the devices were busy at most x of the run. A device "
	                   "counts an operation's service when the operation is queued, so the operations still queued "
	                   "when the run ended (burst-buffer drains) count in full and a share can exceed 100%.");
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < runs[r]->devices.len && runs[r]->sim_end_ps > 0; k++) {
			const rep_kind *d = &runs[r]->devices.ptr[k];
			double *x = xcalloc(d->values.len + 1, sizeof *x);
			for (size_t i = 0; i < d->values.len; i++)
				x[i] = d->values.ptr[i] / (double)runs[r]->sim_end_ps;
			rep_sort(x, d->values.len);
			char *name = n > 1 ? xasprintf("%s: %s", runs[r]->label, d->name) : xstrdup(d->name);
			VEC_PUSH(&c, ((rep_curve){name, x, d->values.len}));
			VEC_PUSH(&names, name);
			VEC_PUSH(&fracs, x);
		}
	missing(&cap, runs, n, 0);
	if (c.len == 0)
		f->note = xstrdup("No run has a storage device (storage.csv): nothing to draw.");
	else {
		rep_plot_cdf(f, cap.ptr, c.ptr, c.len, (rep_unit){"% of the run", 0.01}, "busy time per device",
		             "fraction of the devices");
		rep_buf_puts(&cap, " Busy time in % of the run.");
	}
	f->caption = rep_buf_take(&cap);
	for (size_t i = 0; i < names.len; i++) {
		free(names.ptr[i]);
		free(fracs.ptr[i]);
	}
	VEC_FREE(&names);
	VEC_FREE(&fracs);
	VEC_FREE(&c);
}

void rep_iofig_build(rep_run *const *runs, size_t n, rep_figures *out)
{
	int io = 0;
	for (size_t r = 0; r < n; r++)
		io |= runs[r]->storage_missing == NULL || runs[r]->io_missing == NULL || runs[r]->busy_missing == NULL;
	if (!io)
		return;
	fig_over_time(out, runs, n, 0);
	fig_over_time(out, runs, n, 1);
	fig_device_util(out, runs, n, 0);
	if (util_each_wanted(runs, n))
		fig_device_util(out, runs, n, 1);
	fig_device_busy(out, runs, n);
}

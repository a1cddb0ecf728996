/*
 * io_figures.c - the storage figures of a report (see io_figures.h).
 */
#include "report/io_figures.h"

#include <stdlib.h>
#include <string.h>

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
		rep_line_series *s = xcalloc(ns, sizeof *s);
		double *v = xcalloc(ns * REP_IO_BINS * 2, sizeof *v), *w = v;
		char **names = xcalloc(ns, sizeof *names);
		size_t k = 0;
		for (size_t r = 0; r < n; r++)
			for (size_t i = 0; i < runs[r]->io.len; i++, k++) {
				const rep_io_series *io = &runs[r]->io.ptr[i];
				names[k] = n > 1 ? xasprintf("%s: %s", runs[r]->label, io->name) : xstrdup(io->name);
				s[k] = (rep_line_series){names[k], w, REP_IO_BINS};
				for (size_t b = 0; b < REP_IO_BINS; b++) {
					*w++ = ((double)b + 0.5) * runs[r]->io_bin_ps / tu.size;
					*w++ = bin_value(runs[r], io, b, rate) / (rate ? bu.size : 1);
				}
			}
		char *xl = xasprintf("simulated time (%s)", tu.name);
		char *yl = rate ? xasprintf("I/O rate (%s/s)", bu.name) : xstrdup("I/O requests in flight (mean per bin)");
		char *units = rate ? xasprintf("Time: the middle of each bin, in %s; rates in %s/s.", tu.name, bu.name)
		                   : xasprintf("Time: the middle of each bin, in %s; requests: a mean over the bin.", tu.name);
		rep_line_axes ax = {xl, yl, 0, NULL, 1};
		rep_plot_lines(f, cap.ptr, units, s, ns, rate ? rate_cols : inflight_cols, 2, &ax);
		rep_buf_printf(&cap, " Time in %s%s%s%s.", tu.name, rate ? ", rates in " : "", rate ? bu.name : "",
		               rate ? "/s" : "");
		for (size_t i = 0; i < ns; i++)
			free(names[i]);
		free(names);
		free(xl);
		free(yl);
		free(units);
		free(v);
		free(s);
	}
	f->caption = rep_buf_take(&cap);
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
		io |= runs[r]->storage_missing == NULL || runs[r]->io_missing == NULL;
	if (!io)
		return;
	fig_over_time(out, runs, n, 0);
	fig_over_time(out, runs, n, 1);
	fig_device_busy(out, runs, n);
}

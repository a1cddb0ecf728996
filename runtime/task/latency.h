/*
 * latency.h - per-job distributions of message and request latencies
 * (prefix tk_lat_): what the boxplots of interference studies show.
 *
 * MPI: a point-to-point message (user or collective), from the send's post
 * to the arrival of its last byte at the receiver. I/O: a file request, from
 * its submission to its completion. Exact count, min, max and mean; the
 * quartiles come from a log-linear histogram (base/hist.h), so they
 * are within 1/32 of the true value and the memory is bounded whatever the
 * number of messages.
 */
#ifndef NCSIM_TK_LATENCY_H
#define NCSIM_TK_LATENCY_H

#include <stdint.h>

#include "ncsim/rt.h"
#include "base/hist.h"

enum tk_lat_class { TK_LAT_MPI, TK_LAT_IO, TK_NLAT };

typedef struct tk_lat {
	lh_hist h;
	ncsim_time_t min, max;
	double sum;
} tk_lat;

struct json_writer;

/* Adds one latency (ps). */
void tk_lat_add(tk_lat *l, ncsim_time_t v);
/* The name of a class in summary.json ("mpi", "io"). */
const char *tk_lat_name(enum tk_lat_class c);
/* Writes {"count", "min", "q1", "median", "q3", "max", "mean"} (ps) as the value of the current key. */
void tk_lat_json(struct json_writer *j, const tk_lat *l);

#endif

/*
 * latency.c - per-job latency distributions (see latency.h).
 */
#include "runtime/task/latency.h"

#include "runtime/stats/json.h"

void tk_lat_add(tk_lat *l, ncsim_time_t v)
{
	if (!l->h.count || v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	l->sum += (double)v;
	lh_add(&l->h, v);
}

const char *tk_lat_name(enum tk_lat_class c)
{
	static const char *const names[TK_NLAT] = {"mpi", "io"};
	return names[c];
}

/* A quartile from the histogram, kept inside the exact [min, max] (a bucket's midpoint may lie outside). */
static ncsim_time_t quartile(const tk_lat *l, double q)
{
	ncsim_time_t v = lh_quantile(&l->h, q);
	return v < l->min ? l->min : v > l->max ? l->max : v;
}

void tk_lat_json(json_writer *j, const tk_lat *l)
{
	json_object_begin(j);
	json_kv_uint(j, "count", l->h.count);
	json_kv_uint(j, "min", l->min);
	json_kv_uint(j, "q1", quartile(l, 0.25));
	json_kv_uint(j, "median", quartile(l, 0.5));
	json_kv_uint(j, "q3", quartile(l, 0.75));
	json_kv_uint(j, "max", l->max);
	json_kv_double(j, "mean", l->h.count ? l->sum / (double)l->h.count : 0.0);
	json_object_end(j);
}

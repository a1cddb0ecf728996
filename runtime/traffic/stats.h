/*
 * traffic_stats.h - the figures of traffic runs (prefix trf_stat_): what
 * summary.json's "traffic" member and the run's stdout report say.
 *
 *   "traffic": {
 *     "runs": [ { "model", "label", "job", "members", "nodes",
 *                 "messages", "bytes", "delivered_messages", "delivered_bytes",
 *                 "execution_ps",                      all generated traffic delivered
 *                 "latency_ps": { "mean", "min", "p50", "p90", "p99", "max" },   end to end
 *                 "throughput_bytes_per_s_per_node", "throughput_fraction_of_terminal",
 *                 DCNW:    "gbps_requested", "gbps_offered" (per member)
 *                 FLOWS:   "classes": [ { "flows", "share" } ]
 *                 HOROVOD: "batches", "layers", "rounds",
 *                          "gather"|"gatherv"|"broadcast"|"allreduce": { "ops", "msgs", "bytes" } } ],
 *     "network": { "dcnw"|"flows"|"horovod": { "msgs", "bytes",
 *                  "latency_ps": { "mean", "p50", "p99", "max" } } }     packet-level models only
 *   }
 *
 * End-to-end latency runs from a message's generation (its injection at the
 * sender's NIC) to the arrival of its last byte; network latency, kept by
 * the dragonfly model per class, from its first byte leaving the NIC. HOROVOD
 * messages are MPI messages of collectives: their run has no end-to-end
 * latency (null), their network latency is in "network".
 */
#ifndef NCSIM_TRAFFIC_STATS_H
#define NCSIM_TRAFFIC_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/stats/json.h"

struct task_world;
struct trf_run;

/* The figures of one run. */
typedef struct trf_stat_fig {
	ncsim_time_t exec;         /* first member's start to last member's end */
	double lat_mean, lat_p50, lat_p90, lat_p99; /* ps; NaN without samples */
	ncsim_time_t lat_min, lat_max;
	double thr_node;           /* delivered bytes per second per node */
	double thr_frac;           /* thr_node / terminal bandwidth; NaN if unknown */
	double gbps_offered;       /* DCNW: generated bits / generation time, per member; NaN otherwise */
} trf_stat_fig;

/* Computes the figures of r in the simulation of w. */
void trf_stat_figures(const struct task_world *w, const struct trf_run *r, trf_stat_fig *f);
/* Writes the member "traffic" (key and object) into the open object of j if any traffic ran in w. */
void trf_stat_json(const struct task_world *w, json_writer *j);
/* Prints a few lines per run on out (nothing if no traffic ran). */
void trf_stat_print(const struct task_world *w, FILE *out);

#endif

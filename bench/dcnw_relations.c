/*
 * dcnw_relations.c - one DCNW or FLOWS run on a system file, printed as one
 * row of the table of bench/dcnw_relations.sh.
 *
 *   dcnw_relations SYSTEM TASKS dcnw MODEL MESSAGES GBPS uniform|gaussian [SEED]
 *   dcnw_relations SYSTEM TASKS flows FLOWS DURATION_US uniform|gaussian [SEED]
 *       (2 classes: 80% of 1-10 KB, 20% of 100-1000 KB with the given
 *        destinations for the large class)
 *   dcnw_relations --header
 *
 * The skeleton is hand-written against ncsim/rt.h and ncsim/traffic.h; the
 * simulation driver runs it. The row gives the run's execution time (all
 * traffic delivered), end-to-end latency (generation to last byte), the
 * dragonfly's network latency of the class (first byte on the wire to last
 * byte), the delivered throughput per node and as a fraction of the
 * terminal bandwidth, and the wall time of the simulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsim/rt.h"
#include "ncsim/traffic.h"
#include "runtime/net/dragonfly.h"
#include "runtime/task/driver.h"
#include "runtime/task/task.h"
#include "runtime/traffic/traffic.h"
#include "runtime/traffic/stats.h"

/* The one workload of this process (set from argv before the run). */
static struct {
	int flows;
	rt_dcnw_params d;
	rt_flows_params f;
	rt_flow_class cls[2];
} W;

static void skeleton(rt_task *t)
{
	if (W.flows)
		rt_traffic_flows(t, rt_world(t), &W.f);
	else
		rt_traffic_dcnw(t, rt_world(t), &W.d);
}

static const rt_program prog = {.abi = NCSIM_RT_ABI, .name = "dcnw_relations", .entry = skeleton};

static int usage(void)
{
	fprintf(stderr, "usage: dcnw_relations SYSTEM TASKS dcnw MODEL MESSAGES GBPS uniform|gaussian [SEED]\n"
	                "       dcnw_relations SYSTEM TASKS flows FLOWS DURATION_US uniform|gaussian [SEED]\n"
	                "       dcnw_relations --header\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--header")) {
		printf("%-6s %-5s %-8s %-8s %8s %12s %9s %9s %9s %12s %9s %7s\n", "model", "tasks", "dest", "load",
		       "msgs", "exec_ms", "e2e_us", "e2e_p99", "net_us", "MB/s/node", "frac", "wall_s");
		return 0;
	}
	if (argc < 8)
		return usage();
	const char *system = argv[1];
	uint32_t ntasks = (uint32_t)strtoul(argv[2], NULL, 10);
	int gaussian = !strcmp(argv[7], "gaussian");
	if (!gaussian && strcmp(argv[7], "uniform"))
		return usage();
	uint64_t seed = argc > 8 ? strtoull(argv[8], NULL, 10) : 1;
	rt_dest dest = {.kind = gaussian ? RT_DEST_GAUSSIAN : RT_DEST_UNIFORM};
	const char *load;
	if (!strcmp(argv[3], "dcnw")) {
		W.d = (rt_dcnw_params){.model = argv[4], .count = strtoull(argv[5], NULL, 10), .gbps = atof(argv[6]),
		                       .dest = dest};
		load = argv[6];
	} else if (!strcmp(argv[3], "flows")) {
		W.flows = 1;
		W.cls[0] = (rt_flow_class){.min_bytes = 1024, .max_bytes = 10240, .percent = 80};
		W.cls[1] = (rt_flow_class){.min_bytes = 102400, .max_bytes = 1024000, .percent = 20, .dest = dest};
		W.f = (rt_flows_params){.count = strtoull(argv[5], NULL, 10),
		                        .duration = (ncsim_time_t)(atof(argv[6]) * 1e6),
		                        .classes = W.cls, .nclasses = 2};
		load = argv[6];
	} else {
		return usage();
	}
	char *err = NULL;
	drv_options o = {.system_path = system, .seed = seed, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	drv_sim *s = drv_new(&o, &err);
	if (!s) {
		fprintf(stderr, "dcnw_relations: %s\n", err);
		return 1;
	}
	drv_job j = {.prog = &prog, .ntasks = ntasks};
	if (drv_add_job(s, &j, &err) < 0) {
		fprintf(stderr, "dcnw_relations: %s\n", err);
		return 1;
	}
	if (drv_run(s, stderr) != 0)
		return 1;
	task_world *w = drv_world(s);
	trf_world *tw = trf_world_find(w);
	const trf_run *r = tw->runs.ptr[0];
	trf_stat_fig f;
	trf_stat_figures(w, r, &f);
	double net_us = NAN;
	if (df_is_dragonfly(w->net)) {
		const df_class_stats *cs = &df_get_stats(w->net)->cls[W.flows ? NET_CLASS_FLOWS : NET_CLASS_DCNW];
		net_us = cs->msgs ? cs->lat_sum / (double)cs->msgs / 1e6 : NAN;
	}
	printf("%-6s %-5u %-8s %-8s %8llu %12.6f %9.3f %9.3f %9.3f %12.4f %9.7f %7.1f\n", W.flows ? "flows" : "dcnw",
	       ntasks, gaussian ? "gaussian" : "uniform", load, (unsigned long long)r->dmsgs, (double)f.exec / 1e9,
	       f.lat_mean / 1e6, f.lat_p99 / 1e6, net_us, f.thr_node / 1e6, f.thr_frac, drv_wall_seconds(s));
	trf_world_release(w);
	drv_free(s);
	return 0;
}

/*
 * tasks100k.c - many tasks, each doing `steps` rounds of compute followed by
 * a barrier; prints wall time, events, events/s and peak memory.
 *
 *   tasks100k [TASKS [STEPS [MODEL]]]      defaults: 100000 100 analytic
 *
 * The barrier is a dissemination barrier built on the internal p2p layer
 * (ceil(log2 N) rounds of zero-byte messages), so each step moves
 * N * ceil(log2 N) messages through the MPI layer and the network.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ncsim/rt.h"
#include "runtime/p2p.h"
#include "runtime/sim_driver.h"
#include "runtime/util.h"

static rt_int steps = 100;

static void barrier(rt_task *t)
{
	rt_int n = rt_num_tasks(t), me = rt_rank(t);
	p2p_op_begin(t);
	rt_int tag = p2p_coll_tag(t, rt_world(t));
	for (rt_int k = 1; k < n; k <<= 1) {
		rt_req r[2];
		r[0] = p2p_irecv(t, P2P_CTX_COLL, (me - k % n + n) % n, 0, tag, 0);
		r[1] = p2p_isend(t, P2P_CTX_COLL, (me + k) % n, 0, tag, 0, 0);
		p2p_waitn(t, r, 2);
	}
	p2p_op_end(t);
}

static void body(rt_task *t)
{
	for (rt_int s = 0; s < steps; s++) {
		rt_compute(t, (ncsim_time_t)(1 + rt_rank(t) % 7) * RT_PS_PER_US);
		barrier(t);
	}
}

static const rt_program prog = {.abi = NCSIM_RT_ABI, .name = "tasks100k", .entry = body};

int main(int argc, char **argv)
{
	uint32_t ntasks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
	steps = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
	const char *model = argc > 3 ? argv[3] : "analytic";
	char *sys = xasprintf("[network]\nmodel = %s\nnodes = %" PRIu32 "\n", model, ntasks);
	char *err = NULL;
	sd_options o = {.system_text = sys, .seed = 1, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	sd_sim *s = sd_new(&o, &err);
	sd_job j = {.prog = &prog, .ntasks = ntasks};
	if (!s || sd_add_job(s, &j, &err) < 0) {
		fprintf(stderr, "tasks100k: %s\n", err);
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = sd_run(s, stderr);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	const sim_stats *st = sd_stats(s);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("tasks %" PRIu32 ", steps %" PRId64 ", network %s: %s\n", ntasks, steps, model, rc ? "FAILED" : "ok");
	printf("  wall time          %.2f s (setup and simulation)\n", wall);
	printf("  events             %" PRIu64 " (%.2f M events/s)\n", st->events, st->events / wall / 1e6);
	printf("  simulated end      %.3f us\n", (double)sd_end_time(s) / 1e6);
	printf("  peak RSS           %.1f MiB\n", ru.ru_maxrss / 1024.0);
	sd_free(s);
	free(sys);
	return rc ? 1 : 0;
}

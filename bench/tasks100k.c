/*
 * tasks100k.c - many tasks, each doing `steps` rounds of compute followed by
 * a barrier; prints wall time, events, events/s and peak memory.
 *
 *   tasks100k [TASKS [STEPS [MODEL [BARRIER [STACK]]]]]
 *   defaults:  100000  100   analytic tree   32768
 *
 * BARRIER is the algorithm of rt_barrier, set through the system text's
 * [collectives] barrier key (runtime/coll/coll.h):
 *   dissemination  ceil(log2 N) rounds of zero-byte messages,
 *                  N * ceil(log2 N) messages per step;
 *   tree           a 4-ary fan-in to task 0 and fan-out back:
 *                  2 (N - 1) messages per step, each task waits once per phase.
 * STACK is the bytes of stack per task (lazily committed).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ncsim/rt.h"
#include "runtime/task/driver.h"
#include "base/util.h"

static const rt_param params[] = {
	{"steps", "Compute + barrier steps per task", "--steps", NULL, 100},
};

static void body(rt_task *t)
{
	rt_int steps = rt_param_value(t, 0);
	for (rt_int s = 0; s < steps; s++) {
		rt_compute(t, (ncsim_time_t)(1 + rt_rank(t) % 7) * RT_PS_PER_US);
		rt_barrier(t, rt_world(t));
	}
}

static const rt_program prog = {.abi = NCSIM_RT_ABI, .name = "tasks100k", .params = params, .nparams = 1, .entry = body};

int main(int argc, char **argv)
{
	uint32_t ntasks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
	rt_int steps = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
	const char *model = argc > 3 ? argv[3] : "analytic";
	const char *barrier = argc > 4 ? argv[4] : "tree";
	size_t stack = argc > 5 ? (size_t)strtoull(argv[5], NULL, 10) : 32768;
	if (strcmp(barrier, "tree") && strcmp(barrier, "dissemination")) {
		fprintf(stderr, "tasks100k: barrier must be tree or dissemination\n");
		return 2;
	}
	char *sys = xasprintf("[network]\nmodel = %s\nnodes = %" PRIu32 "\n[collectives]\nbarrier = %s\n", model,
	                      ntasks, barrier);
	char *err = NULL, steps_opt[40];
	snprintf(steps_opt, sizeof steps_opt, "--steps=%" PRId64, steps);
	char *job_argv[] = {steps_opt};
	drv_options o = {.system_text = sys, .seed = 1, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                .stack_size = stack};
	drv_sim *s = drv_new(&o, &err);
	drv_job j = {.prog = &prog, .ntasks = ntasks, .argc = 1, .argv = job_argv};
	if (!s || drv_add_job(s, &j, &err) < 0) {
		fprintf(stderr, "tasks100k: %s\n", err);
		return 2;
	}
	int rc = drv_run(s, stderr);
	double wall = drv_wall_seconds(s);
	const sim_stats *st = drv_stats(s);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("tasks %" PRIu32 ", steps %" PRId64 ", network %s, %s barrier, %zu-byte stacks: %s\n", ntasks, steps,
	       model, barrier, stack, rc ? "FAILED" : "ok");
	printf("  wall time          %.2f s (setup and simulation)\n", wall);
	printf("  events             %" PRIu64 " (%.2f M events/s)\n", st->events, st->events / wall / 1e6);
	printf("  simulated end      %.3f us\n", (double)drv_end_time(s) / 1e6);
	printf("  peak RSS           %.1f MiB\n", ru.ru_maxrss / 1024.0);
	drv_free(s);
	free(sys);
	return rc ? 1 : 0;
}

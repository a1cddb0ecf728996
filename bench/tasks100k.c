/*
 * tasks100k.c - many tasks, each doing `steps` rounds of compute followed by
 * a barrier; prints wall time, events, events/s and peak memory.
 *
 *   tasks100k [TASKS [STEPS [MODEL [BARRIER [STACK]]]]]
 *   defaults:  100000  100   analytic tree   32768
 *
 * BARRIER is the barrier algorithm, as [collectives] barrier would name it:
 *   dissemination  rt_barrier of runtime/coll.h: ceil(log2 N) rounds of
 *                  zero-byte messages, N * ceil(log2 N) messages per step;
 *   tree           a k-ary fan-in to task 0 and fan-out back (k = 4), built
 *                  here on runtime/p2p.h: 2 (N - 1) messages per step, and
 *                  each task waits once per phase.
 * STACK is the bytes of stack per task (lazily committed).
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

#define TREE_K 4

static rt_int steps = 100;
static int use_tree = 1;

/* Fan-in of zero-byte messages to task 0 over a TREE_K-ary tree, then the fan-out back. */
static void tree_barrier(rt_task *t)
{
	rt_int n = rt_num_tasks(t), me = rt_rank(t);
	rt_int tag = p2p_coll_tag(t, rt_world(t));
	rt_req r[TREE_K + 1];
	int nr = 0;
	p2p_op_begin(t);
	for (rt_int c = me * TREE_K + 1; c <= me * TREE_K + TREE_K && c < n; c++)
		r[nr++] = p2p_irecv(t, P2P_CTX_COLL, c, 0, tag, 0);
	if (nr)
		p2p_waitn(t, r, nr);
	if (me) {
		rt_int parent = (me - 1) / TREE_K;
		r[0] = p2p_isend(t, P2P_CTX_COLL, parent, 0, tag, 0, 0);
		r[1] = p2p_irecv(t, P2P_CTX_COLL, parent, 0, tag, 0);
		p2p_waitn(t, r, 2);
	}
	nr = 0;
	for (rt_int c = me * TREE_K + 1; c <= me * TREE_K + TREE_K && c < n; c++)
		r[nr++] = p2p_isend(t, P2P_CTX_COLL, c, 0, tag, 0, 0);
	if (nr)
		p2p_waitn(t, r, nr);
	p2p_op_end(t);
}

static void body(rt_task *t)
{
	for (rt_int s = 0; s < steps; s++) {
		rt_compute(t, (ncsim_time_t)(1 + rt_rank(t) % 7) * RT_PS_PER_US);
		if (use_tree)
			tree_barrier(t);
		else
			rt_barrier(t, rt_world(t));
	}
}

static const rt_program prog = {.abi = NCSIM_RT_ABI, .name = "tasks100k", .entry = body};

int main(int argc, char **argv)
{
	uint32_t ntasks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
	steps = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
	const char *model = argc > 3 ? argv[3] : "analytic";
	const char *barrier = argc > 4 ? argv[4] : "tree";
	size_t stack = argc > 5 ? (size_t)strtoull(argv[5], NULL, 10) : 32768;
	if (strcmp(barrier, "tree") && strcmp(barrier, "dissemination")) {
		fprintf(stderr, "tasks100k: barrier must be tree or dissemination\n");
		return 2;
	}
	use_tree = !strcmp(barrier, "tree");
	char *sys = xasprintf("[network]\nmodel = %s\nnodes = %" PRIu32 "\n", model, ntasks);
	char *err = NULL;
	sd_options o = {.system_text = sys, .seed = 1, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1,
	                .stack_size = stack};
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
	printf("tasks %" PRIu32 ", steps %" PRId64 ", network %s, %s barrier, %zu-byte stacks: %s\n", ntasks, steps,
	       model, barrier, stack, rc ? "FAILED" : "ok");
	printf("  wall time          %.2f s (setup and simulation)\n", wall);
	printf("  events             %" PRIu64 " (%.2f M events/s)\n", st->events, st->events / wall / 1e6);
	printf("  simulated end      %.3f us\n", (double)sd_end_time(s) / 1e6);
	printf("  peak RSS           %.1f MiB\n", ru.ru_maxrss / 1024.0);
	sd_free(s);
	free(sys);
	return rc ? 1 : 0;
}

/*
 * compute.c - computation, sleep and memory touching in simulated time.
 *
 * COMPUTES FOR keeps the task's processor busy; SLEEPS FOR leaves it idle. In
 * a simulation both simply let time pass, but they are charged to different
 * categories so that tasks.csv tells compute from idle time. Touching memory
 * is compute at the node's memory bandwidth ([node] memory_bandwidth).
 */
#include "ncsim/rt.h"

#include <inttypes.h>

#include "runtime/task/task.h"

void rt_compute(rt_task *t, ncsim_time_t ps) { task_sleep(t, ps, TK_T_COMPUTE); }

void rt_sleep(rt_task *t, ncsim_time_t ps) { task_sleep(t, ps, TK_T_SLEEP); }

void rt_touch(rt_task *t, uint64_t bytes, uint64_t times)
{
	/* bytes * times may not fit in 64 bits: convert each factor first. */
	double total = (double)bytes * (double)times;
	double bw = t->w->mem_bw;
	if (bw <= 0.0 || total <= 0.0)
		return;
	double ps = total * 1e12 / bw;
	if (ps >= 1.8e19)
		rt_fatal(t, "touching %" PRIu64 " bytes %" PRIu64 " times takes longer than the simulated clock can count",
		         bytes, times);
	ncsim_time_t d = (ncsim_time_t)ps;
	task_sleep(t, (double)d < ps ? d + 1 : d, TK_T_COMPUTE);
}

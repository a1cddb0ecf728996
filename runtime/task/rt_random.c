/*
 * rt_random.c - random numbers and file data of the skeleton API (see rt_random.h).
 */
#include "runtime/task/rt_random.h"

#include <stdlib.h>

#include "ncsim/stdlib.h"
#include "runtime/task/task.h"

struct ncsim_mt64 *rt_rng(rt_task *t)
{
	if (!t->rng) {
		t->rng = xmalloc(sizeof *t->rng);
		ncsim_mt64_seed_task(t->rng, (int64_t)t->job->seed, (int64_t)t->rank);
	}
	return t->rng;
}

rt_int rt_random_task(rt_task *t, rt_int lo, rt_int hi, rt_int excl)
{
	if (!t->sync_rng) {
		t->sync_rng = xmalloc(sizeof *t->sync_rng);
		ncsim_mt64_seed(t->sync_rng, t->job->seed);
	}
	return ncsim_random_task(t->sync_rng, lo, hi, excl);
}

struct ncsim_filecache *rt_filecache(rt_task *t)
{
	if (!t->w->files)
		t->w->files = ncsim_filecache_new();
	return t->w->files;
}

void rr_task_free(rt_task *t)
{
	free(t->rng);
	free(t->sync_rng);
	t->rng = t->sync_rng = NULL;
}

/*
 * rt_random.h - random numbers and file data of the skeleton API (prefix rr_):
 * rt_rng, rt_random_task and rt_filecache of ncsim/rt.h.
 *
 * Every task owns two MT19937-64 generators, created on first use (2.5 KB
 * each, and most tasks of a large run never draw):
 *   - rt_rng: unsynchronised (RANDOM_* built-ins, LANGUAGE.md §5.5), seeded
 *     with ncsim_mt64_seed_task(seed, physical rank);
 *   - rt_random_task: synchronised (§9.8), seeded with ncsim_mt64_seed(seed)
 *     on every task. Control flow is replicated, so every task makes the same
 *     draws in the same order and gets the same tasks, without any message.
 * `seed` is the job's seed (the program's --seed, else the run's).
 * FILE_DATA reads each data file once per simulation (one cache per world).
 */
#ifndef NCSIM_RT_RANDOM_H
#define NCSIM_RT_RANDOM_H

#include "ncsim/rt.h"

/* Frees t's generators (end of the simulation). */
void rr_task_free(rt_task *t);

#endif

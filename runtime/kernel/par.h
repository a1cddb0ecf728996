/*
 * par.h - the conservative parallel kernel over MPI ranks (prefix par_).
 *
 * Every rank builds the whole model (the same entities with the same ids, by
 * the same set-up code) and owns a part of it: a partition maps each entity to
 * a rank. A rank fires the events of its own entities only; an event for an
 * entity of another rank travels there with its key (time, src, seq), so the
 * owner queues it exactly where the sequential run would have it. Ranks
 * advance together in windows of the lookahead L (YAWNS): a window starts at
 * the earliest event of any rank, T, and covers [T, T + L); every event sent
 * across ranks lands at T + L or later, so no rank ever receives an event in
 * its past. doc/parallel.md gives the argument and the costs.
 *
 *     par_run *pr = par_attach(ctx, owner, n, lookahead, &err);
 *     sim_run(ctx, until);              windows, exchanges, reductions inside
 *     par_stats s = *par_get_stats(pr);
 *     par_detach(pr);
 *
 * Without MPI at build time (NCSIM_HAVE_MPI undefined), or in a process that
 * no launcher started, there is one rank: par_attach works (every entity is
 * local) and the collective helpers return the caller's own values.
 */
#ifndef NCSIM_PAR_H
#define NCSIM_PAR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "runtime/kernel/sim.h"

/*
 * Starts MPI when a launcher (mpirun, srun) started this process, as its
 * environment tells. 1 when MPI runs, 0 when not, -1 with *err (heap) when a
 * launcher started several ranks of an ncsim built without MPI.
 */
int par_init(int *argc, char ***argv, char **err);
/* Ends MPI if par_init started it. */
void par_finalize(void);
/* 1 if this ncsim was built with MPI. */
int par_built_with_mpi(void);
/* This process's rank (0 without MPI). */
uint32_t par_rank(void);
/* The number of ranks (1 without MPI). */
uint32_t par_size(void);
/*
 * The number of ranks a launcher (mpirun, srun) started, from its environment,
 * without starting MPI: 1 when none did. Lets a command that cannot yet run
 * over ranks refuse before it writes anything.
 */
uint32_t par_launched_ranks(void);

/* Window statistics of a parallel run, summed (or maxed, as noted) over the ranks. */
typedef struct par_stats {
	uint32_t ranks;
	uint64_t windows;        /* windows of the run (the same on every rank) */
	uint64_t events;         /* events fired, all ranks */
	uint64_t remote;         /* events that crossed ranks */
	uint64_t max_rank_events; /* events of the busiest rank: imbalance = max / (events / ranks) */
	double sync_s;           /* wall seconds in exchanges and reductions, largest rank */
	double wall_s;           /* wall seconds of the window loop, largest rank */
	double cpu_s;            /* CPU seconds firing events (not waiting), busiest rank: the work without contention */
	ncsim_time_t lookahead;
} par_stats;

typedef struct par_run par_run;

/*
 * Partitions ctx: entity id lives on rank owner[id] (< par_size()) for the
 * n entities registered so far (n must be sim_entity_count(ctx); owner is
 * copied). lookahead (ps, > 0): the least delay of any event a handler sends
 * to an entity of another rank; a violation stops the run with an error.
 * NULL with *err (heap) on a bad partition.
 */
par_run *par_attach(sim_ctx *ctx, const uint32_t *owner, sim_eid n, ncsim_time_t lookahead, char **err);
/* Statistics of the last sim_run (the same on every rank). */
const par_stats *par_get_stats(const par_run *pr);
/*
 * One line on out for a run of 2 ranks or more: windows (and per simulated
 * ms up to `end`), events per window, remote events, the busiest rank's
 * share, wall time of the window loop and in synchronization.
 */
void par_stats_print(const par_stats *s, ncsim_time_t end, FILE *out);
/* Makes ctx sequential again and frees pr. NULL is a no-op. */
void par_detach(par_run *pr);

/*
 * A model that keeps state across ranks outside events (the dragonfly's lazy
 * credits, message records, watchdog) talks to the window loop through these
 * hooks; every rank calls each hook at the same point of every window.
 *   window_end  after the window's exchange: `in` holds the n bytes the other
 *               ranks posted here with par_post during the window, rank by
 *               rank (each rank's in its posting order); may queue events
 *               at or after the end of the window
 *   contrib     this rank's value for the window's MIN reduction
 *   agreed      the reduced value; may call collectives; *next: the model's
 *               earliest pending instant (SIM_FOREVER: none), which starts a
 *               window like an event; returns 1 to stop the run with an error
 *   cut         for the window [first, last]: 1 with a key inside it if the
 *               model must look at this rank's state just before that key
 *               (at_cut is then called there), else 0
 *   final       at the end of the run, before the counters are reduced:
 *               events the model stands for without queuing them, and the
 *               time of the last (0: none)
 */
typedef struct par_model {
	void *arg;
	void (*window_end)(void *arg, const void *in, size_t n);
	uint64_t (*contrib)(void *arg);
	int (*agreed)(void *arg, uint64_t min, ncsim_time_t *next);
	int (*cut)(void *arg, ncsim_time_t first, ncsim_time_t last, ncsim_time_t *t, sim_eid *src, uint64_t *seq);
	void (*at_cut)(void *arg);
	void (*final)(void *arg, uint64_t *events, ncsim_time_t *end);
} par_model;
/* Installs the model's hooks (pm is kept, not copied; NULL: none). */
void par_set_model(par_run *pr, const par_model *pm);
/*
 * Inside a window: n bytes for rank `rank`'s window_end hook, delivered at
 * the end of the window; t: the earliest instant at which the record may
 * make an event there (SIM_FOREVER: none), which the next window's start
 * takes into account.
 */
void par_post(par_run *pr, uint32_t rank, const void *data, size_t n, ncsim_time_t t);
/* This rank of pr. */
uint32_t par_me(const par_run *pr);
/*
 * A model found that something of another rank took effect at t, inside the
 * window just run (a record that came too late): the run stops with an error,
 * as for an event that breaks the lookahead.
 */
void par_violation(par_run *pr, const char *what, ncsim_time_t t);
/* The rank that owns entity id. */
uint32_t par_owner(const par_run *pr, sim_eid id);
/*
 * Channels of records for the layers above the model (the MPI layer's
 * envelopes, the collectives' board): every rank adds the same channels in
 * the same order. A record posted with par_post_ch during a window reaches
 * fn(arg, rec, n) on rank `rank` after the model's window_end, one call per
 * record, in rank order and each rank's posting order; t as for par_post.
 * par_channel_add returns the channel's id, or -1 when all are taken;
 * par_channel_drop stops its calls.
 */
int par_channel_add(par_run *pr, void (*fn)(void *arg, const void *rec, size_t n), void *arg);
void par_channel_drop(par_run *pr, int id);
void par_post_ch(par_run *pr, int id, uint32_t rank, const void *data, size_t n, ncsim_time_t t);

/* Sum of v over the ranks (v without MPI). Every rank must call it. */
uint64_t par_sum_u64(uint64_t v);
/* Largest v of any rank. Every rank must call it. */
uint64_t par_max_u64(uint64_t v);
/*
 * Element-wise sum of v[0..n) over the ranks, in place: every rank gets the
 * totals. Integers only, so the sums do not depend on the number of ranks.
 */
void par_sum_u64s(uint64_t *v, size_t n);
/*
 * Rank 0 receives every rank's bytes mine[0..n) one after the other in rank
 * order (*all, heap, *alln bytes); other ranks get NULL and 0. Every rank
 * must call it.
 */
void par_gather(const void *mine, size_t n, void **all, size_t *alln);
/* Ends every rank at once with `status` (MPI_Abort; exit without MPI). */
_Noreturn void par_abort(int status);
/* Rank 0's n bytes at buf reach buf on every rank. Every rank must call it. */
void par_bcast(void *buf, size_t n);
/* Every rank receives every rank's n bytes mine[0..n) in rank order into all (size x n bytes). */
void par_allgather(const void *mine, size_t n, void *all);

#endif

/*
 * drv_par.h - `ncsim run` over MPI ranks (prefix drvp_; doc/parallel.md).
 *
 * The driver builds the whole model on every rank, then drvp_attach splits
 * it: whole dragonfly groups per rank, each task on the rank of its node's
 * group, the MPI layer's envelopes mirrored across ranks (mpi_par.h). After
 * sim_run, drvp_finish gathers what the outputs read into rank 0's model
 * (every task's totals and state, the jobs' latency distributions, the
 * network's counters) and prints the OUTPUTS lines in the sequential run's
 * order, so rank 0 writes the sequential run's files.
 *
 * Storage runs over ranks too (runtime/storage/sto_par.c, with io.csv and
 * device_busy.csv), traffic models (runtime/traffic/trf_par.c) and
 * messages.csv (runtime/kernel/par_lines.c). Not yet over ranks (refused
 * with a message): the network models other than the packet-level dragonfly.
 */
#ifndef NCSIM_DRV_PAR_H
#define NCSIM_DRV_PAR_H

#include <stdio.h>

#include "runtime/task/task.h"

typedef struct drv_par drv_par;

/*
 * Partitions w (every job added) over the ranks; rank 0 prints the
 * partition on `report`. Sets w->par. 0, or -1 with *err.
 */
int drvp_attach(task_world *w, FILE *report, char **err);
/*
 * After sim_run, on every rank: the run's results gathered (see above).
 * Returns -1 if the network's watchdog found a deadlock, else 0.
 */
int drvp_finish(task_world *w);
/* The deadlock report of a run over ranks (rank 0 has every task's wait, gathered by drvp_finish). */
void drvp_deadlock_report(task_world *w, FILE *out);
/* Frees w->par (NULL: nothing). */
void drvp_free(task_world *w);
/*
 * rt_allreduce_value's deposit of member `me` of g (task t): also on the
 * board of every other rank that holds a member of g.
 */
void drvp_board_post(rt_task *t, const rt_group *g, rt_int tag, int me, double v);
/* Whether entity id runs on this rank. */
int drvp_is_local(const task_world *w, sim_eid id);
/* rt_output in a partitioned run: keeps the line with the firing event's key. */
void drvp_output(task_world *w, const char *line);
/* What cannot run over ranks yet: a phrase for "... is not supported over MPI ranks yet". */
#define DRVP_NOT_YET "is not supported in a run over MPI ranks yet (doc/parallel.md)"

#endif

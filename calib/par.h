/*
 * par.h - a calibration over MPI ranks (doc/calibration.md, "Clusters: MPI
 * ranks").
 *
 * Every rank runs the whole calibration: the same spec, the same optimizer,
 * the same proposals. Only the simulations of a batch are split: a rank
 * runs its share of the batch's runs, then the ranks swap their results
 * (cal_par_exchange) so that every rank holds all of them, in the same
 * order, and takes the same next step. Rank 0 alone writes and prints.
 *
 * Without MPI at build time (NCSIM_HAVE_MPI undefined), or in a process
 * that mpirun did not start, these are the functions of a single rank:
 * rank 0 of 1, and an exchange that hands back the caller's own bytes.
 */
#ifndef NCSIM_CALIB_PAR_H
#define NCSIM_CALIB_PAR_H

#include <stddef.h>

/*
 * Starts MPI when mpirun (or another PMI launcher) started this process,
 * which it tells by its environment; a plain `ncsim calibrate` never
 * initializes MPI. Returns 1 when MPI is running, 0 when not, -1 with *err
 * (heap) when a launcher started several ranks of an ncsim built without MPI.
 */
int cal_par_init(int *argc, char ***argv, char **err);
/* This process's rank (0 without MPI). */
int cal_par_rank(void);
/* The number of ranks (1 without MPI). */
int cal_par_size(void);

/*
 * Gathers every rank's bytes mine[0..n): *all (heap, the caller frees it)
 * receives the ranks' buffers one after the other in rank order, *alln
 * their total length. *stop is this rank's stop flag on entry and, on
 * return, 1 when any rank's was set, so that every rank stops after the
 * same exchange. Every rank must call it the same number of times.
 * 0, or -1 with *err (heap) when the total is too large for MPI's int counts
 * (then on every rank, which all see the same lengths).
 */
int cal_par_exchange(const void *mine, size_t n, void **all, size_t *alln, int *stop, char **err);

/* 1 when flag is nonzero on any rank (flag itself without MPI): a local failure every rank then shares. */
int cal_par_any(int flag);
/*
 * The first error of any rank, in rank order: mine (heap or NULL) is this
 * rank's and is consumed. Every rank gets the same message (heap, "MPI rank
 * N: ..." over several ranks), or NULL when no rank failed; mine itself
 * without MPI.
 */
char *cal_par_error(char *mine);

/*
 * Ends MPI if cal_par_init started it. Returns rank 0's status, so that
 * every rank exits with the status of the one that wrote the outputs
 * (status itself without MPI).
 */
int cal_par_finalize(int status);

#endif

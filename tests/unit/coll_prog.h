/*
 * coll_prog.h - the test program of the collectives suites (test_coll,
 * test_coll_time): every task runs one collective on a group chosen by a
 * group mode, with an algorithm or a selector, and the run reports the
 * traffic of class MPI and the simulated end time.
 */
#ifndef NCSIM_TESTS_COLL_PROG_H
#define NCSIM_TESTS_COLL_PROG_H

#include "runtime/coll/coll.h"
#include "tests/unit/rt_testlib.h"

#define CP_MAXT 64

enum cp_kind {
	K_BARRIER, K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_REDSCAT, K_ALLTOALL, K_ALLTOALLV,
	K_GATHER, K_GATHERV, K_SCATTER, K_REDUCE_TO, K_VALUE, K_NKINDS
};
extern const char *const cp_kind_name[K_NKINDS];

/* Which tasks form the groups: all, the odd ranks only, or evens and odds concurrently. */
enum cp_gmode { G_WORLD, G_ODD, G_SPLIT, G_NMODES };
extern const char *const cp_gmode_name[G_NMODES];

/*
 * One run: collective `kind` of S bytes on the groups of `mode`, `reps`
 * times. alg > 0 forces that algorithm (enum coll_alg), alg = 0 leaves the
 * choice to `selector`, alg < 0 calls the public rt_* function (the system
 * file's [collectives] decides). seg is the segment size; rootsel picks the
 * root (member rootsel mod P).
 */
typedef struct cp_args {
	int kind;
	uint64_t S;
	int mode, alg, rootsel, reps;
	uint64_t seg;
	int selector;
} cp_args;

typedef struct cp_result {
	int rc;
	uint64_t msgs, bytes;
	ncsim_time_t end;
} cp_result;

/* Runs a on ntasks tasks of system text `system` (seed 7). */
cp_result cp_run(int ntasks, const char *system, const cp_args *a);
/* Member list of the group task `me` of `n` tasks belongs to in mode m; 0 if none. */
int cp_group_of(int m, int me, int n, rt_int *mem);
/* What the tasks of the last run report: done flags, allreduce values, whether they saw a coll_ctx. */
extern struct cp_out {
	int done[CP_MAXT];
	double value[CP_MAXT];
	int has_ctx;
	coll_ctx *cc; /* the board for K_VALUE when the runtime holds none */
} cp_out;
/* The value task `rank` contributes to K_VALUE. */
double cp_value_of(int rank);
/* Block sizes of alltoallv (member i to member j) and gatherv (member j); some are zero. */
uint64_t cp_a2av(int i, int j, uint64_t s);
uint64_t cp_gv(int j, uint64_t s);

#endif

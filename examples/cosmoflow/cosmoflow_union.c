/*
 * cosmoflow_union.c - the Cosmoflow-like loop of cosmoflow_native.c written
 * with the Union skeleton API (ncsim/union.h): per iteration 129 ms of
 * compute, then an allreduce of 7,037,500 UNION_Int (28.15 MB).
 *
 *     ncsim run cosmoflow_union.c -n 64 --network analytic
 *
 * or, built standalone:
 *
 *     cc cosmoflow_union.c $(pkg-config --cflags --libs ncsim) -o cosmoflow_union
 *     ./cosmoflow_union -n 64 --network analytic
 */
#include <ncsim/rt.h>
#include <ncsim/union.h>

static const rt_param params[] = {
	{ "iters", "Number of training iterations", "--iters", "-i", 10 },
	{ "compute_ns", "Compute time per iteration (nanoseconds)", "--compute-ns", "-c", 129000000 },
	{ "count", "Gradient elements (4-byte integers) allreduced per iteration", "--count", "-k", 7037500 },
};

/* The body is plain Union code: only the parameter reads know about ncsim. */
static void cosmo_loop(int max_iter, long interval_nsec, int count)
{
	int rank, size;
	UNION_MPI_Comm_size(UNION_Comm_World, &size);
	UNION_MPI_Comm_rank(UNION_Comm_World, &rank);
	for (int i = 0; i < max_iter; i++) {
		UNION_Compute(interval_nsec);
		UNION_MPI_Allreduce(NULL, NULL, count, UNION_Int, UNION_Op_Sum, UNION_Comm_World);
		UNION_Mark_Iteration(i);
	}
	UNION_MPI_Finalize();
}

static void cosmoflow(rt_task *t)
{
	cosmo_loop((int)rt_param_value(t, 0), (long)rt_param_value(t, 1), (int)rt_param_value(t, 2));
}

static const rt_program program = {
	.abi = NCSIM_RT_ABI,
	.name = "cosmoflow_union",
	.params = params,
	.nparams = sizeof params / sizeof params[0],
	.entry = cosmoflow,
};

/* main() for the standalone build, ncsim_skeleton() for `ncsim run cosmoflow_union.c`. */
NCSIM_SKELETON(program)

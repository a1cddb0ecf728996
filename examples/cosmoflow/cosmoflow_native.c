/*
 * cosmoflow_native.c - a Cosmoflow-like data-parallel training loop written
 * directly against the ncsim skeleton API.
 *
 * Each iteration every task computes its mini-batch (129 ms), then the job
 * allreduces the 28.15 MB gradient. Intended for 64 tasks:
 *
 *     ncsim run cosmoflow_native.c -n 64 --network analytic
 *
 * or, built standalone:
 *
 *     cc cosmoflow_native.c $(pkg-config --cflags --libs ncsim) -o cosmoflow_native
 *     ./cosmoflow_native -n 64 --network analytic
 *
 * cosmoflow_union.c is the same loop written with the Union API; both must
 * give identical simulated times.
 */
#include <ncsim/rt.h>

static const rt_param params[] = {
	{ "iters", "Number of training iterations", "--iters", "-i", 10 },
	{ "compute_us", "Compute time per iteration (microseconds)", "--compute-us", "-c", 129000 },
	{ "bytes", "Gradient size allreduced per iteration (bytes)", "--bytes", "-b", 28150000 },
};

static void cosmoflow(rt_task *t)
{
	rt_int iters = rt_param_value(t, 0);
	ncsim_time_t compute = (ncsim_time_t)rt_param_value(t, 1) * RT_PS_PER_US;
	uint64_t bytes = (uint64_t)rt_param_value(t, 2);
	for (rt_int i = 0; i < iters; i++) {
		rt_compute(t, compute);
		rt_allreduce(t, rt_world(t), bytes);
	}
}

static const rt_program program = {
	.abi = NCSIM_RT_ABI,
	.name = "cosmoflow_native",
	.params = params,
	.nparams = sizeof params / sizeof params[0],
	.entry = cosmoflow,
};

/* main() for the standalone build, ncsim_skeleton() for `ncsim run cosmoflow_native.c`. */
NCSIM_SKELETON(program)

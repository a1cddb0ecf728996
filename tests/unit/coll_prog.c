/*
 * coll_prog.c - the test program of the collectives suites (see coll_prog.h).
 */
#include "tests/unit/coll_prog.h"

#include <stdio.h>
#include <string.h>

#include "runtime/net/net.h"

const char *const cp_kind_name[K_NKINDS] = {
	"barrier", "bcast", "reduce", "allreduce", "allgather", "reduce_scatter", "alltoall", "alltoallv",
	"gather", "gatherv", "scatter", "reduce_to", "allreduce_value",
};
const char *const cp_gmode_name[G_NMODES] = { "world", "odd ranks", "even|odd concurrently" };

struct cp_out cp_out;

static const rt_param params[] = {
	{ "coll", "collective (enum cp_kind)", "--coll", NULL, 0 },
	{ "bytes", "message size", "--bytes", NULL, 0 },
	{ "group", "group mode (enum cp_gmode)", "--group", NULL, 0 },
	{ "alg", "algorithm (enum coll_alg), 0 selector, -1 public call", "--alg", NULL, 0 },
	{ "root", "root member index (mod group size)", "--root", NULL, 0 },
	{ "reps", "repetitions", "--reps", NULL, 1 },
	{ "seg", "segment size", "--seg", NULL, 0 },
	{ "sel", "selector (enum coll_selector)", "--sel", NULL, 0 },
};

int cp_group_of(int m, int me, int n, rt_int *mem)
{
	int k = 0;
	if (m == G_ODD && me % 2 == 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (m == G_WORLD || (m == G_ODD && i % 2 == 1) || (m == G_SPLIT && i % 2 == me % 2))
			mem[k++] = i;
	return k;
}

uint64_t cp_a2av(int i, int j, uint64_t s) { return (uint64_t)((i + 2 * j) % 4) * s; }
uint64_t cp_gv(int j, uint64_t s) { return (uint64_t)(j % 3) * s; }
double cp_value_of(int rank) { return 0.1 * rank + 1.0 / 3.0; }

/* REDUCE ... TO with senders the first two thirds and receivers the last two thirds (overlapping). */
static void reduce_to(rt_task *t, const rt_int *mem, int P, uint64_t S)
{
	rt_int snd[CP_MAXT], rcv[CP_MAXT];
	int ns = 0, nr = 0;
	for (int j = 0; j < P; j++) {
		if (3 * j < 2 * P)
			snd[ns++] = mem[j];
		if (3 * j >= P)
			rcv[nr++] = mem[j];
	}
	rt_group gs = { snd, ns }, gr = { rcv, nr };
	rt_reduce_to(t, &gs, &gr, S);
}

/* One collective of kind `kind` on g; pub: the public rt_* call where there is one. */
static void one(rt_task *t, int kind, const coll_config *cfg, int pub, const rt_group *g, rt_int root, uint64_t S)
{
	int me = (int)rt_rank(t), P = g->n, idx = coll_index(g, me);
	uint64_t sv[CP_MAXT], rv[CP_MAXT];
	switch (kind) {
	case K_BARRIER: pub ? rt_barrier(t, g) : coll_barrier_with(t, cfg, g); break;
	case K_BCAST: pub ? rt_bcast(t, g, root, S) : coll_bcast_with(t, cfg, NULL, g, root, S); break;
	case K_REDUCE: pub ? rt_reduce(t, g, root, S) : coll_reduce_with(t, cfg, g, root, S); break;
	case K_ALLREDUCE: pub ? rt_allreduce(t, g, S) : coll_allreduce_with(t, cfg, g, S); break;
	case K_ALLGATHER: coll_allgather_with(t, pub ? coll_cfg(t) : cfg, g, S); break;
	case K_REDSCAT: coll_reduce_scatter_with(t, pub ? coll_cfg(t) : cfg, g, S); break;
	case K_ALLTOALL: pub ? rt_alltoall(t, g, S) : coll_alltoall_with(t, cfg, g, S); break;
	case K_ALLTOALLV:
		for (int j = 0; j < P; j++) {
			sv[j] = cp_a2av(idx, j, S);
			rv[j] = cp_a2av(j, idx, S);
		}
		rt_alltoallv(t, g, sv, rv);
		break;
	case K_GATHER: coll_gather_with(t, cfg, g, root, NULL, S); break;
	case K_GATHERV:
		for (int j = 0; j < P; j++)
			sv[j] = cp_gv(j, S);
		coll_gather_with(t, cfg, g, root, sv, 0);
		break;
	case K_SCATTER: coll_scatter_with(t, cfg, g, root, S); break;
	case K_REDUCE_TO: reduce_to(t, g->members, P, S); break;
	case K_VALUE:
		/* The public call once the runtime holds the collectives state, else our own board. */
		if (rt_coll_ctx(t))
			cp_out.value[me] = rt_allreduce_value(t, g, cp_value_of(me), RT_OP_SUM);
		else
			cp_out.value[me] = coll_allreduce_value_with(t, cp_out.cc, g, cp_value_of(me), RT_OP_SUM);
		break;
	}
}

static void body(rt_task *t)
{
	int kind = (int)rt_param_value(t, 0), mode = (int)rt_param_value(t, 2), alg = (int)rt_param_value(t, 3);
	int me = (int)rt_rank(t), n = (int)rt_num_tasks(t);
	rt_int mem[CP_MAXT];
	int P = cp_group_of(mode, me, n, mem);
	if (P == 0) {
		cp_out.done[me] = 1;
		return;
	}
	rt_group g = { mem, P };
	coll_config cfg;
	coll_config_default(&cfg);
	cfg.selector = (int)rt_param_value(t, 7);
	cfg.segment = (uint64_t)rt_param_value(t, 6);
	if (alg > 0)
		cfg.alg[coll_alg_kind(alg)] = alg;
	for (rt_int rep = 0; rep < rt_param_value(t, 5); rep++)
		one(t, kind, &cfg, alg < 0, &g, mem[rt_param_value(t, 4) % P], (uint64_t)rt_param_value(t, 1));
	cp_out.has_ctx |= rt_coll_ctx(t) != NULL;
	cp_out.done[me] = 1;
}

static const rt_program prog = {
	.abi = NCSIM_RT_ABI, .name = "test_coll", .params = params,
	.nparams = sizeof params / sizeof params[0], .entry = body,
};

cp_result cp_run(int ntasks, const char *system, const cp_args *a)
{
	enum { NA = sizeof params / sizeof params[0] };
	char s[NA][48];
	const long long v[NA] = { a->kind, (long long)a->S, a->mode, a->alg, a->rootsel, a->reps ? a->reps : 1,
	                          (long long)a->seg, a->selector };
	char *argv[NA];
	for (int i = 0; i < NA; i++) {
		snprintf(s[i], sizeof s[i], "%s=%lld", params[i].long_opt, v[i]);
		argv[i] = s[i];
	}
	cp_result r = { -1, 0, 0, 0 };
	memset(cp_out.done, 0, sizeof cp_out.done);
	drv_options o = { .system_text = system, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1 };
	drv_sim *sim = tl_run_opts(&prog, (uint32_t)ntasks, &o, NA, argv, &r.rc, NULL);
	if (sim && r.rc == 0) {
		const net_model *net = drv_world(sim)->net;
		r.msgs = net->totals.msgs_injected[NET_CLASS_MPI];
		r.bytes = net->totals.bytes_injected[NET_CLASS_MPI];
		r.end = drv_end_time(sim);
		for (int i = 0; i < ntasks; i++)
			if (!cp_out.done[i])
				r.rc = 2;
	}
	drv_free(sim);
	return r;
}

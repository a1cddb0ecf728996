/*
 * rt_testlib.c - helpers for the task-runtime tests (see rt_testlib.h).
 */
#include "tests/unit/rt_testlib.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysconf.h"

uint64_t tl_pp_size;
ncsim_time_t tl_pp_rtt;

static void pingpong(rt_task *t)
{
	if (rt_rank(t) == 0) {
		ncsim_time_t t0 = rt_now(t);
		rt_send(t, 1, tl_pp_size, 0, 0);
		rt_recv(t, 1, tl_pp_size, 0, 0);
		tl_pp_rtt = rt_now(t) - t0;
	} else {
		rt_recv(t, 0, tl_pp_size, 0, 0);
		rt_send(t, 0, tl_pp_size, 0, 0);
	}
}
const rt_program tl_pingpong = {.abi = NCSIM_RT_ABI, .name = "tl_pingpong", .entry = pingpong};

char *tl_analytic(uint32_t nodes, const char *extra)
{
	return xasprintf("[network]\nmodel = analytic\nnodes = %u\nlatency = 100 ns\nbandwidth = 10 GB/s\n"
	                 "injection_bandwidth = 20 GB/s\n%s", nodes, extra ? extra : "");
}

drv_sim *tl_run(const rt_program *prog, uint32_t ntasks, const char *system, int *rc, FILE *err)
{
	drv_options o = {.system_text = system, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	return tl_run_opts(prog, ntasks, &o, 0, NULL, rc, err);
}

drv_sim *tl_run_analytic(const rt_program *prog, uint32_t ntasks, const char *extra, int *rc, FILE *err)
{
	/* drv_new parses the text at once: it need not outlive the call. */
	char *sys = tl_analytic(ntasks, extra);
	drv_sim *s = tl_run(prog, ntasks, sys, rc, err);
	free(sys);
	return s;
}

drv_sim *tl_check_run(const rt_program *prog, uint32_t ntasks, const char *extra, char **argv, int want_rc,
                      FILE *err)
{
	char *sys = tl_analytic(ntasks, extra);
	drv_options o = {.system_text = sys, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	int argc = 0, rc;
	while (argv && argv[argc])
		argc++;
	drv_sim *s = tl_run_opts(prog, ntasks, &o, argc, argv, &rc, err);
	free(sys);
	CU_ASSERT_EQUAL_FATAL(rc, want_rc);
	return s;
}

drv_sim *tl_run_opts(const rt_program *prog, uint32_t ntasks, const drv_options *o, int argc, char **argv, int *rc,
                    FILE *err)
{
	char *e = NULL;
	drv_sim *s = drv_new(o, &e);
	drv_job j = {.prog = prog, .ntasks = ntasks, .argc = argc, .argv = argv};
	if (!s || drv_add_job(s, &j, &e) < 0) {
		fprintf(stderr, "tl_run: %s\n", e);
		free(e);
		drv_free(s);
		*rc = -1;
		return NULL;
	}
	*rc = drv_run(s, err ? err : stderr);
	return s;
}

const task_totals *tl_tot(drv_sim *s, uint32_t r) { return &drv_world(s)->jobs.ptr[0]->tasks[r]->tot; }

int tl_decomposition_adds_up(drv_sim *s)
{
	task_world *w = drv_world(s);
	for (size_t i = 0; i < w->all.len; i++) {
		const task_totals *x = &w->all.ptr[i]->tot;
		if (x->t[TK_T_MPI_NET] + x->t[TK_T_MPI_SYNC] + x->t[TK_T_MPI_STACK] != x->mpi_total) {
			fprintf(stderr, "task %zu: net %llu + sync %llu + stack %llu != mpi %llu\n", i,
			        (unsigned long long)x->t[TK_T_MPI_NET], (unsigned long long)x->t[TK_T_MPI_SYNC],
			        (unsigned long long)x->t[TK_T_MPI_STACK], (unsigned long long)x->mpi_total);
			return 0;
		}
	}
	return 1;
}

int tl_mp_load(const char *name, const char *text, mp_params *p, char **err)
{
	*err = NULL;
	sysconf_t *c = sysconf_parse(name, text, err);
	if (!c)
		return -1;
	mp_params_default(p);
	int rc = mp_params_load(p, c, err);
	sysconf_free(c);
	return rc;
}

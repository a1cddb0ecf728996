/*
 * rt_testlib.c - helpers for the task-runtime tests (see rt_testlib.h).
 */
#include "tests/unit/rt_testlib.h"

#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

char *tl_analytic(uint32_t nodes, const char *extra)
{
	return xasprintf("[network]\nmodel = analytic\nnodes = %u\nlatency = 100 ns\nbandwidth = 10 GB/s\n"
	                 "injection_bandwidth = 20 GB/s\n%s", nodes, extra ? extra : "");
}

drv_sim *tl_run(const rt_program *prog, uint32_t ntasks, const char *system, int *rc, FILE *err)
{
	char *e = NULL;
	drv_options o = {.system_text = system, .seed = 7, .progress = SIM_PROGRESS_OFF, .no_wall_time = 1};
	drv_sim *s = drv_new(&o, &e);
	drv_job j = {.prog = prog, .ntasks = ntasks};
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

drv_sim *tl_run_opts(const rt_program *prog, uint32_t ntasks, const drv_options *o, int argc, char **argv, int *rc,
                    FILE *err)
{
	char *e = NULL;
	drv_sim *s = drv_new(o, &e);
	drv_job j = {.prog = prog, .ntasks = ntasks, .argc = argc, .argv = argv};
	if (!s || drv_add_job(s, &j, &e) < 0) {
		fprintf(stderr, "tl_run_opts: %s\n", e);
		free(e);
		drv_free(s);
		*rc = -1;
		return NULL;
	}
	*rc = drv_run(s, err ? err : stderr);
	return s;
}

char *tl_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	VEC(char) b = {0};
	int c;
	while ((c = getc(f)) != EOF)
		VEC_PUSH(&b, (char)c);
	VEC_PUSH(&b, 0);
	fclose(f);
	return b.ptr;
}

char *tl_tmpdir(void)
{
	char *d = xstrdup("/tmp/ncsim-test-XXXXXX");
	if (!mkdtemp(d)) {
		free(d);
		return NULL;
	}
	return d;
}

void tl_rmrf(const char *dir)
{
	if (!dir || strncmp(dir, "/tmp/ncsim-test-", 16) != 0)
		return; /* only what tl_tmpdir made */
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "tl_rmrf: cannot remove %s\n", dir);
	free(cmd);
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

int tl_main(void)
{
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}

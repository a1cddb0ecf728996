/*
 * par.c - a calibration over MPI ranks (see par.h).
 *
 * MPI's own state (whether it is initialized, the world communicator) is
 * the only state here: each function asks MPI, so this file keeps no
 * globals of its own. Errors inside MPI calls abort the job, MPI's default
 * (MPI_ERRORS_ARE_FATAL): a rank that went on alone would hang the others.
 */
#include "config.h"

#include "calib/par.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The number of ranks a launcher (Open MPI's mpirun, PMI) announces in the environment; 0 when none. */
static long announced(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		if (getenv(vars[i]))
			return strtol(getenv(vars[i]), NULL, 10);
	return 0;
}

#ifdef NCSIM_HAVE_MPI
#include <mpi.h>

/* 1 between MPI_Init and MPI_Finalize. */
static int active(void)
{
	int init = 0, fini = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fini);
	return init && !fini;
}

int cal_par_init(int *argc, char ***argv, char **err)
{
	(void)err;
	/* PMIx launchers (Open MPI 5, Slurm's srun --mpi=pmix) announce a rank without a size. */
	if (!announced() && !getenv("PMIX_RANK"))
		return 0;
	if (!active())
		MPI_Init(argc, argv);
	return 1;
}

int cal_par_rank(void)
{
	int rank = 0;
	if (active())
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank;
}

int cal_par_size(void)
{
	int size = 1;
	if (active())
		MPI_Comm_size(MPI_COMM_WORLD, &size);
	return size;
}

/* The MPI side of cal_par_exchange: the lengths and stop flags first, then the bytes. */
static int gather(const void *mine, size_t n, int size, void **all, size_t *alln, int *stop, char **err)
{
	/* 64-bit lengths, so that an oversized buffer is refused on every rank rather than truncated on one. */
	long long head[2] = {(long long)n, *stop != 0}, *heads = xcalloc(2 * (size_t)size, sizeof *heads);
	MPI_Allgather(head, 2, MPI_LONG_LONG, heads, 2, MPI_LONG_LONG, MPI_COMM_WORLD);
	int *counts = xcalloc((size_t)size, sizeof *counts), *displs = xcalloc((size_t)size, sizeof *displs);
	long long total = 0;
	*stop = 0;
	for (int i = 0; i < size; i++) {
		if (heads[2 * i + 1])
			*stop = 1;
		if (total <= INT_MAX) {
			counts[i] = (int)(heads[2 * i] < INT_MAX ? heads[2 * i] : INT_MAX);
			displs[i] = (int)total;
		}
		total += heads[2 * i];
	}
	free(heads);
	int rc = 0;
	if (total > INT_MAX) {
		*err = xasprintf("the results of one batch (%lld bytes) are too large to exchange between ranks: "
		                 "lower the batch size", total);
		rc = -1;
	} else {
		*all = xmalloc((size_t)total + 1);
		*alln = (size_t)total;
		MPI_Allgatherv(mine, (int)n, MPI_BYTE, *all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
		((char *)*all)[total] = '\0'; /* a guard for readers of text */
	}
	free(counts);
	free(displs);
	return rc;
}

int cal_par_any(int flag)
{
	int any = flag != 0;
	if (active())
		MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return any;
}

int cal_par_finalize(int status)
{
	if (!active())
		return status;
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return status;
}

#else /* without MPI: one rank */

int cal_par_init(int *argc, char ***argv, char **err)
{
	(void)argc;
	(void)argv;
	long n = announced();
	if (n <= 1)
		return 0;
	/* Each copy would run the whole calibration on its own: n times the work, and n output folders. */
	*err = xasprintf("started as %ld MPI ranks, but this ncsim was built without MPI (configure --with-mpi, "
	                 "with the Debian package libopenmpi-dev); run it without mpirun, or with -np 1", n);
	return -1;
}

int cal_par_rank(void) { return 0; }
int cal_par_size(void) { return 1; }
int cal_par_any(int flag) { return flag != 0; }
int cal_par_finalize(int status) { return status; }

static int gather(const void *mine, size_t n, int size, void **all, size_t *alln, int *stop, char **err)
{
	(void)mine;
	(void)n;
	(void)size;
	(void)all;
	(void)alln;
	(void)stop;
	*err = xstrdup("internal error: several ranks in a build without MPI");
	return -1;
}

#endif

int cal_par_exchange(const void *mine, size_t n, void **all, size_t *alln, int *stop, char **err)
{
	int size = cal_par_size();
	*all = NULL;
	*alln = 0;
	if (size > 1)
		return gather(mine, n, size, all, alln, stop, err);
	*all = xmalloc(n + 1);
	if (n)
		memcpy(*all, mine, n);
	((char *)*all)[n] = '\0';
	*alln = n;
	*stop = *stop != 0;
	return 0;
}

char *cal_par_error(char *mine)
{
	if (cal_par_size() == 1)
		return mine;
	/* Each rank sends its message with its NUL, or a lone NUL: the gathered bytes are one string per rank. */
	void *all;
	size_t n;
	int stop = 0;
	char *err = NULL, *first = NULL;
	if (cal_par_exchange(mine ? mine : "", mine ? strlen(mine) + 1 : 1, &all, &n, &stop, &err) < 0) {
		free(mine);
		return err;
	}
	const char *p = all, *end = p + n;
	for (int rank = 0; p < end && !first; p += strlen(p) + 1, rank++)
		if (*p)
			first = xasprintf("MPI rank %d: %s", rank, p);
	free(all);
	free(mine);
	return first;
}

/*
 * union.c - the Union skeleton API as thin wrappers over ncsim/rt.h (see
 * ncsim/union.h). Each wrapper finds its task with rt_self(), converts
 * count * datatype into bytes and calls the rt_* operation; it keeps no
 * state of its own. Bad arguments (another communicator, a count, size or
 * time out of range, a datatype that is not a size) are fatal for the
 * simulation, naming the task and the call; rt_fatal adds the source line.
 * Times and I/O sizes arrive as doubles so that a non-finite or huge value
 * is seen here rather than converted (undefined behaviour) by the caller.
 */
#include "ncsim/union.h"

#include <stdlib.h>

#include "base/checked.h"
#include "base/util.h"
#include "runtime/coll/coll.h"

/* The calling task, after checking the communicator (the only one is the job). */
static rt_task *task_of(UNION_Comm comm, const char *what)
{
	rt_task *t = rt_self();
	if (comm != UNION_Comm_World)
		rt_fatal(t, "%s: unknown communicator %d (ncsim knows only UNION_Comm_World)", what, comm);
	return t;
}

/* count * datatype in bytes. */
static uint64_t nbytes(rt_task *t, int count, UNION_Datatype type, const char *what)
{
	if (count < 0)
		rt_fatal(t, "%s: count %d is out of range (negative)", what, count);
	if (type <= 0)
		rt_fatal(t, "%s: datatype %d is not a size in bytes", what, type);
	return (uint64_t)count * (uint64_t)type;
}

/* Checks a rank argument against the job size. */
static rt_int rank_arg(rt_task *t, int r, const char *what)
{
	if (r < 0 || r >= rt_num_tasks(t))
		rt_fatal(t, "%s: rank %d is out of range (job of %lld tasks)", what, r,
		         (long long)rt_num_tasks(t));
	return r;
}

void UNION_MPI_Comm_size(UNION_Comm comm, int *size)
{
	*size = (int)rt_num_tasks(task_of(comm, "UNION_MPI_Comm_size"));
}

void UNION_MPI_Comm_rank(UNION_Comm comm, int *rank)
{
	*rank = (int)rt_rank(task_of(comm, "UNION_MPI_Comm_rank"));
}

void UNION_MPI_Finalize(void)
{
	/* Nothing to release: the task ends when its entry function returns. */
}

/* v units of `scale` picoseconds or bytes each, as a whole number of them
 * that is at most max; anything else (NaN fails every comparison) is a
 * run-time error. */
static uint64_t in_range(rt_task *t, double v, double scale, uint64_t max, const char *what, const char *unit)
{
	double x = v * scale;
	if (!(x >= 0 && x < 18446744073709551616.0) || (uint64_t)x > max)   /* 2^64 */
		rt_fatal(t, "%s: %g %s is out of range (at least 0 and at most %.17g)", what, v, unit,
		         (double)max / scale);
	return (uint64_t)x;
}

void UNION_Compute(double ns)
{
	rt_task *t = rt_self();
	/* The busy time must end before simulated time reaches 2^64 ps. */
	rt_compute(t, in_range(t, ns, 1000.0, UINT64_MAX - rt_now(t), "UNION_Compute", "ns"));
}

void UNION_Mark_Iteration(UNION_TAG iter_tag)
{
	/* Union feeds marks to CODES statistics; ncsim's per-task metrics need none. */
	(void)iter_tag;
}

void UNION_MPI_Send(const void *buf, int count, UNION_Datatype datatype, int dest, int tag,
                    UNION_Comm comm)
{
	rt_task *t = task_of(comm, "UNION_MPI_Send");
	(void)buf;
	rt_send(t, rank_arg(t, dest, "UNION_MPI_Send"), nbytes(t, count, datatype, "UNION_MPI_Send"), tag, 0);
}

void UNION_MPI_Recv(void *buf, int count, UNION_Datatype datatype, int source, int tag,
                    UNION_Comm comm, UNION_Status *status)
{
	rt_task *t = task_of(comm, "UNION_MPI_Recv");
	(void)buf;
	(void)status;
	rt_recv(t, rank_arg(t, source, "UNION_MPI_Recv"), nbytes(t, count, datatype, "UNION_MPI_Recv"), tag, 0);
}

void UNION_MPI_Sendrecv(const void *sendbuf, int sendcount, UNION_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, UNION_Datatype recvtype,
                        int source, int recvtag, UNION_Comm comm, UNION_Status *status)
{
	static const char what[] = "UNION_MPI_Sendrecv";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	(void)status;
	rt_sendrecv(t, rank_arg(t, dest, what), nbytes(t, sendcount, sendtype, what), sendtag,
	            rank_arg(t, source, what), nbytes(t, recvcount, recvtype, what), recvtag);
}

void UNION_MPI_Isend(const void *buf, int count, UNION_Datatype datatype, int dest, int tag,
                     UNION_Comm comm, UNION_Request *request)
{
	rt_task *t = task_of(comm, "UNION_MPI_Isend");
	(void)buf;
	*request = rt_isend(t, rank_arg(t, dest, "UNION_MPI_Isend"),
	                    nbytes(t, count, datatype, "UNION_MPI_Isend"), tag, 0);
}

void UNION_MPI_Irecv(void *buf, int count, UNION_Datatype datatype, int source, int tag,
                     UNION_Comm comm, UNION_Request *request)
{
	rt_task *t = task_of(comm, "UNION_MPI_Irecv");
	(void)buf;
	*request = rt_irecv(t, rank_arg(t, source, "UNION_MPI_Irecv"),
	                    nbytes(t, count, datatype, "UNION_MPI_Irecv"), tag, 0);
}

void UNION_MPI_Wait(UNION_Request *request, UNION_Status *status)
{
	(void)status;
	if (*request) {
		rt_wait(rt_self(), *request);
		*request = 0;
	}
}

void UNION_MPI_Waitall(int count, UNION_Request array_of_requests[], UNION_Status array_of_statuses[])
{
	(void)array_of_statuses;
	for (int i = 0; i < count; i++)
		UNION_MPI_Wait(&array_of_requests[i], NULL);
}

void UNION_MPI_Barrier(UNION_Comm comm)
{
	rt_task *t = task_of(comm, "UNION_MPI_Barrier");
	rt_barrier(t, rt_world(t));
}

void UNION_MPI_Bcast(void *buffer, int count, UNION_Datatype datatype, int root, UNION_Comm comm)
{
	rt_task *t = task_of(comm, "UNION_MPI_Bcast");
	(void)buffer;
	rt_bcast(t, rt_world(t), rank_arg(t, root, "UNION_MPI_Bcast"),
	         nbytes(t, count, datatype, "UNION_MPI_Bcast"));
}

void UNION_MPI_Reduce(const void *sendbuf, void *recvbuf, int count, UNION_Datatype datatype,
                      UNION_Op op, int root, UNION_Comm comm)
{
	rt_task *t = task_of(comm, "UNION_MPI_Reduce");
	(void)sendbuf;
	(void)recvbuf;
	(void)op;
	rt_reduce(t, rt_world(t), rank_arg(t, root, "UNION_MPI_Reduce"),
	          nbytes(t, count, datatype, "UNION_MPI_Reduce"));
}

void UNION_MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, UNION_Datatype datatype,
                         UNION_Op op, UNION_Comm comm)
{
	rt_task *t = task_of(comm, "UNION_MPI_Allreduce");
	(void)sendbuf;
	(void)recvbuf;
	(void)op;
	rt_allreduce(t, rt_world(t), nbytes(t, count, datatype, "UNION_MPI_Allreduce"));
}

/* The bytes per rank of a call with a send and a receive side, which must agree. */
static uint64_t block_bytes(rt_task *t, int sendcount, UNION_Datatype sendtype, int recvcount,
                            UNION_Datatype recvtype, const char *what)
{
	uint64_t sb = nbytes(t, sendcount, sendtype, what), rb = nbytes(t, recvcount, recvtype, what);
	if (sb != rb)
		rt_fatal(t, "%s: sends %llu bytes per rank but receives %llu", what,
		         (unsigned long long)sb, (unsigned long long)rb);
	return sb;
}

void UNION_MPI_Alltoall(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf,
                        int recvcount, UNION_Datatype recvtype, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Alltoall";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	rt_alltoall(t, rt_world(t), block_bytes(t, sendcount, sendtype, recvcount, recvtype, what));
}

void UNION_MPI_Allgather(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf,
                         int recvcount, UNION_Datatype recvtype, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Allgather";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	coll_allgather_with(t, coll_cfg(t), rt_world(t), block_bytes(t, sendcount, sendtype, recvcount, recvtype, what));
}

void UNION_MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, UNION_Datatype datatype,
                                    UNION_Op op, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Reduce_scatter_block";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	(void)op;
	uint64_t b = nbytes(t, recvcount, datatype, what), all;
	if (ck_mul((uint64_t)rt_num_tasks(t), b, &all) < 0)
		rt_fatal(t, "%s: %lld blocks of %llu bytes come to more than 2^64 bytes", what,
		         (long long)rt_num_tasks(t), (unsigned long long)b);
	coll_reduce_scatter_with(t, coll_cfg(t), rt_world(t), all);
}

void UNION_MPI_Gather(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf, int recvcount,
                      UNION_Datatype recvtype, int root, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Gather";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	rt_gather(t, rt_world(t), rank_arg(t, root, what), block_bytes(t, sendcount, sendtype, recvcount, recvtype, what));
}

void UNION_MPI_Scatter(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf, int recvcount,
                       UNION_Datatype recvtype, int root, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Scatter";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	rt_scatter(t, rt_world(t), rank_arg(t, root, what), block_bytes(t, sendcount, sendtype, recvcount, recvtype, what));
}

void UNION_MPI_Alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls,
                         UNION_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *rdispls, UNION_Datatype recvtype, UNION_Comm comm)
{
	static const char what[] = "UNION_MPI_Alltoallv";
	rt_task *t = task_of(comm, what);
	(void)sendbuf;
	(void)recvbuf;
	(void)sdispls;
	(void)rdispls;
	size_t P = (size_t)rt_num_tasks(t);
	uint64_t *sb = xcalloc(2 * P, sizeof *sb), *rb = sb + P;
	rt_track(t, sb, free); /* freed even if the task is abandoned (a bad count, the collective) */
	for (size_t j = 0; j < P; j++) {
		sb[j] = nbytes(t, sendcounts[j], sendtype, what);
		rb[j] = nbytes(t, recvcounts[j], recvtype, what);
	}
	rt_alltoallv(t, rt_world(t), sb, rb);
	rt_release(t, sb);
}

void UNION_IO_OPEN_FILE(int fid)
{
	rt_io_open(rt_self(), fid, RT_IO_RDWR);
}

void UNION_IO_WRITE(int fid, double size)
{
	rt_task *t = rt_self();
	rt_io_write(t, fid, in_range(t, size, 1.0, INT64_MAX, "UNION_IO_WRITE", "bytes"), RT_IO_SEQUENTIAL, 0);
}

void UNION_IO_READ(int fid, double size)
{
	rt_task *t = rt_self();
	rt_io_read(t, fid, in_range(t, size, 1.0, INT64_MAX, "UNION_IO_READ", "bytes"), RT_IO_SEQUENTIAL, 0);
}

void UNION_IO_CLOSE_FILE(int fid)
{
	rt_io_close(rt_self(), fid);
}

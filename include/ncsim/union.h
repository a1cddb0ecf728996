/*
 * ncsim/union.h - the Union skeleton API on top of ncsim/rt.h.
 *
 * Union (a CODES-based skeleton framework) lets C skeletons describe an MPI
 * application with UNION_MPI_* calls that carry sizes but no data. This
 * header declares the same functions with the same argument lists, so such
 * a skeleton's body compiles against ncsim unchanged; each call is a thin
 * wrapper around the rt_* call of the task running on this thread
 * (rt_self()), so it must be made from inside a task's entry function.
 *
 * Conventions kept from Union:
 *   - a datatype's value is its size in bytes (UNION_Int == 4), so
 *     bytes = count * datatype;
 *   - buffers are never read or written (pass NULL);
 *   - UNION_Compute takes nanoseconds;
 *   - every count, size and time is checked: a negative, non-finite or
 *     too large one ends the simulation with an "out of range" error that
 *     names the task and source line;
 *   - there is one communicator, UNION_Comm_World: the whole job;
 *   - the reduction operator changes nothing in the simulated traffic.
 * Differences: UNION_Request holds an rt_req (code that only declares,
 * passes and waits on requests is unaffected); statuses are never written.
 */
#ifndef NCSIM_UNION_H
#define NCSIM_UNION_H

#include "ncsim/rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int UNION_TAG;
typedef int UNION_Comm;
typedef int UNION_Datatype; /* its value is its size in bytes */
typedef rt_req UNION_Request;
typedef int UNION_Status;
typedef int UNION_Op;

#define UNION_Comm_World 1

#define UNION_Byte 1
#define UNION_Char 1
#define UNION_Int 4
#define UNION_Float 4
#define UNION_Long 8
#define UNION_Double 8

#define UNION_Op_Max 1
#define UNION_Op_Sum 2
#define UNION_Op_Min 3

#define UNION_STATUS_IGNORE ((UNION_Status *)1)
#define UNION_STATUSES_IGNORE ((UNION_Status *)1)

/* Size in bytes of a datatype (its value). */
static inline void UNION_Type_size(UNION_Datatype type, int *size) { *size = type; }

/* Number of tasks in the job. */
void UNION_MPI_Comm_size(UNION_Comm comm, int *size);
/* This task's rank in the job. */
void UNION_MPI_Comm_rank(UNION_Comm comm, int *rank);
/* Accepted for compatibility: a task ends when its entry function returns. */
void UNION_MPI_Finalize(void);
/* Busy for `ns` nanoseconds of simulated time (a double, so that the API,
 * not the caller's conversion, sees a non-finite or huge value: those, and
 * negative ones, are run-time errors). */
void UNION_Compute(double ns);
/* Iteration marker of Union's statistics; costs no simulated time in ncsim. */
void UNION_Mark_Iteration(UNION_TAG iter_tag);

/* Blocking send of count*datatype bytes to rank dest. */
void UNION_MPI_Send(const void *buf, int count, UNION_Datatype datatype, int dest, int tag,
                    UNION_Comm comm);
/* Blocking receive of count*datatype bytes from rank source; status is not written. */
void UNION_MPI_Recv(void *buf, int count, UNION_Datatype datatype, int source, int tag,
                    UNION_Comm comm, UNION_Status *status);
/* Concurrent send and receive (MPI_Sendrecv). */
void UNION_MPI_Sendrecv(const void *sendbuf, int sendcount, UNION_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, UNION_Datatype recvtype,
                        int source, int recvtag, UNION_Comm comm, UNION_Status *status);
/* Asynchronous send; *request is completed by UNION_MPI_Wait or UNION_MPI_Waitall. */
void UNION_MPI_Isend(const void *buf, int count, UNION_Datatype datatype, int dest, int tag,
                     UNION_Comm comm, UNION_Request *request);
/* Asynchronous receive. */
void UNION_MPI_Irecv(void *buf, int count, UNION_Datatype datatype, int source, int tag,
                     UNION_Comm comm, UNION_Request *request);
/* Waits for *request and clears it (a cleared request completes at once). */
void UNION_MPI_Wait(UNION_Request *request, UNION_Status *status);
/* Waits for count requests and clears them. */
void UNION_MPI_Waitall(int count, UNION_Request array_of_requests[], UNION_Status array_of_statuses[]);

/* Barrier of the whole job. */
void UNION_MPI_Barrier(UNION_Comm comm);
/* Broadcast of count*datatype bytes from root. */
void UNION_MPI_Bcast(void *buffer, int count, UNION_Datatype datatype, int root, UNION_Comm comm);
/* Reduction of count*datatype bytes to root. */
void UNION_MPI_Reduce(const void *sendbuf, void *recvbuf, int count, UNION_Datatype datatype,
                      UNION_Op op, int root, UNION_Comm comm);
/* Allreduce of count*datatype bytes. */
void UNION_MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, UNION_Datatype datatype,
                         UNION_Op op, UNION_Comm comm);
/* All-to-all of sendcount*sendtype bytes per pair (must equal recvcount*recvtype). */
void UNION_MPI_Alltoall(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf,
                        int recvcount, UNION_Datatype recvtype, UNION_Comm comm);
/* Allgather of sendcount*sendtype bytes per task (must equal recvcount*recvtype). */
void UNION_MPI_Allgather(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf,
                         int recvcount, UNION_Datatype recvtype, UNION_Comm comm);
/* Reduce-scatter: task k gets block k, recvcount*datatype bytes, of the reduced vector of all blocks. */
void UNION_MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, UNION_Datatype datatype,
                                    UNION_Op op, UNION_Comm comm);
/* Gather of sendcount*sendtype bytes per task to root (must equal recvcount*recvtype). */
void UNION_MPI_Gather(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf, int recvcount,
                      UNION_Datatype recvtype, int root, UNION_Comm comm);
/* Scatter of sendcount*sendtype bytes per task from root (must equal recvcount*recvtype). */
void UNION_MPI_Scatter(const void *sendbuf, int sendcount, UNION_Datatype sendtype, void *recvbuf, int recvcount,
                       UNION_Datatype recvtype, int root, UNION_Comm comm);
/* All-to-all with per-rank counts; displacements are ignored. */
void UNION_MPI_Alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls,
                         UNION_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *rdispls, UNION_Datatype recvtype, UNION_Comm comm);

/* Opens file `fid` for reading and writing. */
void UNION_IO_OPEN_FILE(int fid);
/* Writes `size` bytes to file fid, continuing from this task's previous offset in it
 * (a double, checked like UNION_Compute's argument). */
void UNION_IO_WRITE(int fid, double size);
/* Reads `size` bytes of file fid, continuing from this task's previous offset in it. */
void UNION_IO_READ(int fid, double size);
/* Closes file fid. */
void UNION_IO_CLOSE_FILE(int fid);

#ifdef __cplusplus
}
#endif
#endif

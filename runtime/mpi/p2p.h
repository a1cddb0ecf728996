/*
 * p2p.h - internal point-to-point layer shared by the skeleton API and the
 * collectives (prefix p2p_). Not installed.
 *
 * Messages live in matching contexts: user messages (P2P_CTX_USER) never match
 * collective messages (P2P_CTX_COLL), as with MPI communicators. Within a
 * context a receive matches the earliest unmatched message from its source
 * with its tag. Every operation goes through the MPI protocol layer (eager or
 * rendezvous by size) and is charged to the task's time decomposition
 * (network, synchronization, software stack).
 */
#ifndef NCSIM_P2P_H
#define NCSIM_P2P_H

#include "ncsim/rt.h"

enum p2p_ctx { P2P_CTX_USER = 0, P2P_CTX_COLL = 1, P2P_CTX_SYS = 2 };

/*
 * Posts a send in a matching context with a traffic class (enum net_class).
 * flags: RT_MSG_*, and MP_POST_DEFER (mpi_proto.h) when p2p_waitn follows
 * at once.
 */
rt_req p2p_isend(rt_task *t, int mctx, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags, int tclass);
/* Posts a receive in a matching context. */
rt_req p2p_irecv(rt_task *t, int mctx, rt_int src, uint64_t bytes, rt_int tag, unsigned flags);
/* Blocks until every request of reqs[0..n) has completed (0 entries are skipped). */
void p2p_waitn(rt_task *t, const rt_req *reqs, int n);

/*
 * A fresh tag for the next collective on group g: every member calling its
 * k-th collective on an equal member list gets the same value, so concurrent
 * collectives on different groups never match each other.
 */
rt_int p2p_coll_tag(rt_task *t, const rt_group *g);

/* Marks the start and end of an MPI-level operation for the time decomposition. */
void p2p_op_begin(rt_task *t);
void p2p_op_end(rt_task *t);

#endif

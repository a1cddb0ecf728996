/*
 * mpi_par.h - the MPI layer's envelopes in a partitioned run (prefix mpp_;
 * doc/parallel.md, "The MPI layer over ranks").
 *
 * In a sequential run both ends of a message share one envelope in the
 * world's pool (mpi_proto.h). When the two tasks live on different ranks,
 * the sender's rank keeps the envelope (its home copy) and the receiver's
 * rank a mirror. Every wire message that crosses ranks posts the envelope
 * as it stands (a 72-byte record on a kernel channel, par_post_ch); at
 * the window's end the receiving rank creates the mirror
 * from the first record, and the home copy takes from later records what
 * the receiver writes (the receive's request and its post time). The
 * record lands before the wire message can: the message crosses a global
 * link, so it arrives at T + L or later, after the window that sent it.
 *
 * Cookies of wire messages: to the home side, the home copy's index, as in
 * a sequential run; to the mirror's side (and in the sender's NIC notice),
 * the envelope's key (runtime/kernel/par_mirror.h), by which the mirror's
 * rank finds its copy.
 *
 * Each side frees its own copy when its part of the protocol is over
 * (mpi_proto.c: mp_env.xr). Outputs never see envelope indices, so a
 * partitioned run gives the sequential run's results.
 */
#ifndef NCSIM_MPI_PAR_H
#define NCSIM_MPI_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/kernel/par.h"
#include "runtime/mpi/mpi_proto.h"

/* mp_env.xr: where an envelope stands. */
enum mp_xr { MP_XR_LOCAL = 0, MP_XR_HOME, MP_XR_MIRROR };

#define MPP_KEY_BIT (1ULL << 63) /* PMR_KEY_BIT (par_mirror.h) */

typedef struct mp_par mp_par;

/* The envelope layer of pr for the pool ep (kept, not copied); installs the record channel. */
mp_par *mpp_new(par_run *pr, mp_envpool *ep);
void mpp_free(mp_par *p);
/*
 * Wire message of envelope ei to entity `to`: posts the record when `to`
 * lives on another rank and returns the cookie to send (ei itself when it
 * does not).
 */
uint64_t mpp_wire(mp_par *p, uint32_t ei, sim_eid to);
/* The local envelope of a cookie that has the key bit set. */
uint32_t mpp_local(mp_par *p, uint64_t cookie);
/* Envelope ei is about to be freed: forgets its key. */
void mpp_forget(mp_par *p, uint32_t ei);
/* Envelope ei was just allocated for a message whose receiver is entity `to`: marks it home or local. */
void mpp_created(mp_par *p, uint32_t ei, sim_eid to);

#endif

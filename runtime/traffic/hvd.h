/*
 * traffic_hvd.h - the HOROVOD model (prefix trf_hvd_): rt_traffic_horovod of
 * ncsim/traffic.h.
 *
 * Member 0 of the group coordinates. For every batch and layer, with the
 * layer's parameters (the defaults, overridden key by key for that layer):
 *
 *   compute   Normal(COMPUTE, COMPUTE/10) truncated at 0, on every member
 *   loop      gather of 4 bytes per worker to the coordinator
 *             gatherv: worker w carries max(1, round(Exp(GATHERV))) bytes with
 *               probability GATHERV PROBABILITY (added to its total), else 25
 *             broadcast of 4 bytes from the coordinator
 *             every total >= GATHERV TOTAL:  broadcast of BROADCAST bytes,
 *               allreduce of ALLREDUCE bytes, totals reset, layer done
 *             otherwise: broadcast of 25 bytes, every member waits
 *               Exp(NEGOTIATION LOOP), next round
 *
 * The collectives run the algorithms of runtime/coll/coll.h (gather and gatherv
 * binomial or linear as [collectives] gather says, broadcast binomial,
 * allreduce recursive doubling or ring by size) in the collective matching
 * context, with traffic class NET_CLASS_HOROVOD. Every member must know the
 * outcome of each round without data on the wire, so the gatherv draws come
 * from a stream keyed by the run that every member replays identically;
 * compute times and waits come from each member's own stream.
 *
 * Counts, with P members, R negotiation rounds in total (R = B*L when every
 * first round reaches the totals) and B(P) = sum of popcount(v), v < P:
 *   gathers R, gathervs R, broadcasts 2R, allreduces B*L, each with the
 *   messages and bytes of its algorithm (coll.h): a gather of 4 bytes is P-1
 *   messages of 4*B(P) bytes (binomial) or 4*(P-1) bytes (linear).
 */
#ifndef NCSIM_TRAFFIC_HVD_H
#define NCSIM_TRAFFIC_HVD_H

#include "ncsim/traffic.h"

/*
 * The most layers a statement may have: the run keeps figures and parameters
 * per layer (a few MiB at this bound), and real models have hundreds.
 */
#define TRF_HVD_MAX_LAYERS 65536
/*
 * The most negotiation rounds a statement may expect over all its batches and
 * layers (about 10^12): each is several collectives, so more would not end
 * in any useful time.
 */
#define TRF_HVD_MAX_ROUNDS 1099511627776.0

/* Checks a parameter set: NULL if valid, else a static description of the first problem. */
const char *trf_hvd_check(const rt_hvd_layer *p);
/*
 * The parameters of every layer of p (heap, p->layers entries, at most
 * TRF_HVD_MAX_LAYERS): the defaults, then each override of the layer in order.
 */
rt_hvd_layer *trf_hvd_layers(const rt_horovod_params *p);
/*
 * Checks that the statement p, run by `members` members with layer
 * parameters lp (trf_hvd_layers), ends: every layer's negotiation can reach
 * its GATHERV TOTAL, the expected rounds stay below TRF_HVD_MAX_ROUNDS and the
 * compute time below 2^64 ps. NULL if so, else a description (heap).
 */
char *trf_hvd_check_work(const rt_horovod_params *p, const rt_hvd_layer *lp, int members);
/* Names of the keys missing from `set` (of RT_HVD_ALL), comma-separated, into buf. */
void trf_hvd_missing(unsigned set, char *buf, size_t size);

#endif

/*
 * traffic_gen.h - the DCNW/CDCNW and FLOWS generators (prefix trf_gen_):
 * rt_traffic_dcnw and rt_traffic_flows of ncsim/traffic.h, and the endpoint
 * handlers that draw and inject their messages.
 *
 *   DCNW, member i of n, N messages:  quota_i = N/n + (i < N mod n)
 *     arrival k at start_i + sum of k gaps, gap ~ Exp(mean_bits / rate)
 *     size ~ the step CDF, destination ~ the distribution, never i
 *   FLOWS, N flows over T, member i of n:
 *     each flow's source ~ U{0..n-1} (drawn from the run's stream): quota_i
 *     its quota_i start times ~ U[start_i, start_i + T), generated in order
 *     class ~ the percentages, size ~ U[min, max],
 *     destination ~ the class's distribution (else the statement's, else UNIFORM)
 *   Over the members, N flows of uniform sources at uniform times over T: a
 *   Poisson process of rate N / T conditioned on its N flows, each source's
 *   share generated on its own endpoint, where its messages leave the machine.
 *
 * Arrival times accumulate in double precision from the member's start and
 * are rounded to the picosecond only when scheduled, so rounding never drifts
 * the offered load.
 */
#ifndef NCSIM_TRAFFIC_GEN_H
#define NCSIM_TRAFFIC_GEN_H

#include "runtime/kernel/sim.h"

/* Endpoint handler: the next DCNW message of a member (payload: run index). */
void trf_gen_on_dcnw(sim_ctx *ctx, void *state, const sim_event *ev);
/* Endpoint handler: the next flow of a FLOWS run (payload: run index). */
void trf_gen_on_flow(sim_ctx *ctx, void *state, const sim_event *ev);

#endif

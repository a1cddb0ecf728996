/*
 * traffic_gen.h - the DCNW/CDCNW and FLOWS generators (prefix trf_gen_):
 * rt_traffic_dcnw and rt_traffic_flows of ncsim/traffic.h, and the endpoint
 * handlers that draw and inject their messages.
 *
 *   DCNW, member i of n, N messages:  quota_i = N/n + (i < N mod n)
 *     arrival k at start_i + sum of k gaps, gap ~ Exp(mean_bits / rate)
 *     size ~ the step CDF, destination ~ the distribution, never i
 *   FLOWS, on the lowest member's endpoint, N flows over T:
 *     start k at start_0 + sum of k gaps, gap ~ Exp(T / N)
 *     source ~ U{0..n-1}, class ~ the percentages, size ~ U[min, max],
 *     destination ~ the class's distribution (else the statement's, else UNIFORM)
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

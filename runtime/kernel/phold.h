/*
 * phold.h - PHOLD, the kernel's reference model (prefix phold_).
 *
 * N logical processes each start with M events. Every event, when it fires,
 * schedules exactly one new event: with probability `remote` to a uniformly
 * chosen other process, otherwise to itself, after lookahead + Exp(mean) ps.
 * The event population therefore stays at N*M, which makes PHOLD the standard
 * benchmark of an event queue; it also serves as the kernel's smoke test,
 * because the hash of the (time, src, dst) sequence pins the exact order.
 */
#ifndef NCSIM_PHOLD_H
#define NCSIM_PHOLD_H

#include <stdint.h>

#include "runtime/kernel/sim.h"

typedef struct phold_params {
	uint32_t nlp;           /* number of logical processes (>= 1) */
	uint32_t events_per_lp; /* initial events per process */
	double remote;          /* probability that an event goes to another process */
	ncsim_time_t lookahead; /* fixed part of every delay, ps */
	double mean;            /* mean of the exponential part of every delay, ps */
} phold_params;

typedef struct phold phold;

/* Registers p->nlp entities in ctx (ids first .. first+nlp-1); NULL if p is invalid. */
phold *phold_new(sim_ctx *ctx, const phold_params *p);
/* Frees the model's states (after the run; ctx may already be freed). NULL is a no-op. */
void phold_free(phold *m);
/* Hash of the (time, src, dst) sequence of every event processed so far. */
uint64_t phold_hash(const phold *m);
/* Events processed by all processes so far. */
uint64_t phold_events(const phold *m);
/* Id of the first process. */
sim_eid phold_first(const phold *m);

#endif

/*
 * phold.c - the PHOLD reference model (see phold.h).
 *
 * The model touches the kernel only through sim.h, like any other model.
 */
#include "runtime/kernel/phold.h"

#include <stdlib.h>

#include "base/util.h"

enum { PHOLD_EV_HOP, PHOLD_NKINDS };

typedef struct phold_lp {
	phold *m;
	uint32_t index; /* 0 .. nlp-1 */
	uint64_t events;
} phold_lp;

struct phold {
	phold_params p;
	sim_eid first;
	uint64_t hash; /* written by every handler: order-sensitive by design */
	phold_lp *lps;
};

static ncsim_time_t phold_delay(sim_ctx *ctx, const phold *m)
{
	return m->p.lookahead + (ncsim_time_t)sim_rng_exp(ctx, SIM_NO_ENTITY, m->p.mean);
}

/* Lemire's multiply-shift: uniform in [0, n) without a division. */
static uint32_t phold_below(sim_ctx *ctx, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)sim_rng_u64(ctx, SIM_NO_ENTITY) * n) >> 64);
}

static void phold_hop(sim_ctx *ctx, void *state, const sim_event *ev)
{
	phold_lp *lp = state;
	phold *m = lp->m;
	lp->events++;
	/* Order-sensitive mix of what fired, where and from whom. */
	uint64_t h = m->hash ^ (ev->time * 0x9e3779b97f4a7c15ull);
	h = (h ^ ((uint64_t)ev->src << 32 | ev->dst)) * 0xff51afd7ed558ccdull;
	m->hash = h ^ (h >> 29);

	uint32_t to = lp->index;
	if (m->p.nlp > 1 && sim_rng_unif(ctx, SIM_NO_ENTITY) < m->p.remote) {
		to = phold_below(ctx, m->p.nlp - 1);
		to += to >= lp->index;
	}
	sim_schedule(ctx, sim_event_new(ctx, m->first + to, phold_delay(ctx, m), PHOLD_EV_HOP));
}

static void phold_init(sim_ctx *ctx, void *state, sim_eid self)
{
	phold_lp *lp = state;
	for (uint32_t i = 0; i < lp->m->p.events_per_lp; i++)
		sim_schedule(ctx, sim_event_new(ctx, self, phold_delay(ctx, lp->m), PHOLD_EV_HOP));
}

static const sim_handler phold_handlers[PHOLD_NKINDS] = {
	[PHOLD_EV_HOP] = phold_hop,
};

static const sim_type phold_type = {
	.name = "phold",
	.handlers = phold_handlers,
	.nhandlers = PHOLD_NKINDS,
	.init = phold_init,
};

phold *phold_new(sim_ctx *ctx, const phold_params *p)
{
	if (p->nlp == 0 || !(p->remote >= 0.0 && p->remote <= 1.0) || !(p->mean >= 0.0))
		return NULL;
	phold *m = xcalloc(1, sizeof *m);
	m->p = *p;
	m->lps = xcalloc(p->nlp, sizeof *m->lps);
	m->first = sim_entity_count(ctx);
	for (uint32_t i = 0; i < p->nlp; i++) {
		m->lps[i] = (phold_lp){ .m = m, .index = i };
		sim_entity_add(ctx, &phold_type, &m->lps[i]);
	}
	return m;
}

void phold_free(phold *m)
{
	if (m == NULL)
		return;
	free(m->lps);
	free(m);
}

uint64_t phold_hash(const phold *m) { return m->hash; }

uint64_t phold_events(const phold *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < m->p.nlp; i++)
		n += m->lps[i].events;
	return n;
}

sim_eid phold_first(const phold *m) { return m->first; }

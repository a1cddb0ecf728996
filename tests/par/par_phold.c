/*
 * par_phold.c - PHOLD over the parallel kernel: the identity check of
 * tests/par/phold.sh.
 *
 *   par_phold NLP EVENTS_PER_LP REMOTE LOOKAHEAD_PS MEAN_PS UNTIL_PS SEED seq|block|cyclic [CLAIMED_PS]
 *
 * Unlike the kernel's reference PHOLD (whose one hash mixes every event of
 * every process, a global by design), each process here keeps its own hash
 * of the (time, src, seq) of the events it fires, in its own order, and draws
 * from its own random stream. Those are the quantities the parallel kernel
 * promises to keep: the output (rank 0) is the same for the sequential run
 * (`seq`) and for any number of ranks and partition.
 *
 * A process that fires an event at time t schedules one more, to itself or
 * (probability REMOTE) to another process, LOOKAHEAD + Exp(MEAN) ps later;
 * a quarter of the events it fires also send a zero-delay event to itself,
 * so that ties at one instant are frequent. CLAIMED_PS (default LOOKAHEAD)
 * is the lookahead the kernel is told: a longer one than the model keeps
 * must stop the run with an error (exit 1).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/par.h"
#include "runtime/kernel/sim.h"
#include "base/util.h"

typedef struct lp {
	uint32_t index, n;
	uint64_t events, hash;
	double remote, mean;
	ncsim_time_t lookahead;
	sim_eid first;
} lp;

static void hop(sim_ctx *ctx, void *state, const sim_event *ev)
{
	lp *p = state;
	p->events++;
	uint64_t h = p->hash ^ (ev->time * 0x9e3779b97f4a7c15ull);
	h = (h ^ ((uint64_t)ev->src << 32 ^ ev->seq)) * 0xff51afd7ed558ccdull;
	p->hash = h ^ (h >> 29);
	if (ev->kind == 1)
		return; /* the zero-delay echo schedules nothing */
	uint32_t to = p->index;
	if (p->n > 1 && sim_rng_unif(ctx, SIM_NO_ENTITY) < p->remote) {
		to = (uint32_t)(sim_rng_u64(ctx, SIM_NO_ENTITY) % (p->n - 1));
		to += to >= p->index;
	}
	ncsim_time_t d = p->lookahead + (ncsim_time_t)sim_rng_exp(ctx, SIM_NO_ENTITY, p->mean);
	sim_schedule(ctx, sim_event_new(ctx, p->first + to, d, 0));
	if ((sim_rng_u64(ctx, SIM_NO_ENTITY) & 3) == 0)
		sim_schedule(ctx, sim_event_new(ctx, p->first + p->index, 0, 1));
}

static uint32_t per_lp;

static void init(sim_ctx *ctx, void *state, sim_eid self)
{
	lp *p = state;
	for (uint32_t i = 0; i < per_lp; i++) {
		ncsim_time_t d = (ncsim_time_t)sim_rng_exp(ctx, self, p->mean);
		sim_schedule(ctx, sim_event_new(ctx, self, d, 0));
	}
}

static const sim_handler handlers[2] = {hop, hop};
static const sim_type lp_type = {.name = "par-phold", .handlers = handlers, .nhandlers = 2, .init = init};

int main(int argc, char **argv)
{
	char *err = NULL;
	if (par_init(&argc, &argv, &err) < 0) {
		fprintf(stderr, "par_phold: %s\n", err);
		return 2;
	}
	if (argc != 9 && argc != 10) {
		fprintf(stderr, "usage: par_phold NLP EVENTS REMOTE LOOKAHEAD MEAN UNTIL SEED seq|block|cyclic [CLAIMED]\n");
		par_finalize();
		return 2;
	}
	uint32_t n = (uint32_t)strtoul(argv[1], NULL, 10);
	per_lp = (uint32_t)strtoul(argv[2], NULL, 10);
	double remote = strtod(argv[3], NULL);
	ncsim_time_t la = strtoull(argv[4], NULL, 10);
	double mean = strtod(argv[5], NULL);
	ncsim_time_t until = strtoull(argv[6], NULL, 10);
	sim_ctx *ctx = sim_new(strtoull(argv[7], NULL, 10));
	const char *mode = argv[8];

	lp *lps = xcalloc(n, sizeof *lps);
	for (uint32_t i = 0; i < n; i++) {
		lps[i] = (lp){.index = i, .n = n, .remote = remote, .mean = mean, .lookahead = la};
		lps[i].first = sim_entity_add(ctx, &lp_type, &lps[i]) - i;
	}
	uint32_t size = par_size(), rank = par_rank();
	par_run *pr = NULL;
	if (strcmp(mode, "seq")) {
		uint32_t *owner = xmalloc(n * sizeof *owner);
		for (uint32_t i = 0; i < n; i++)
			owner[i] = !strcmp(mode, "block") ? (uint32_t)((uint64_t)i * size / n) : i % size;
		pr = par_attach(ctx, owner, n, argc == 10 ? strtoull(argv[9], NULL, 10) : la, &err);
		free(owner);
		if (!pr) {
			fprintf(stderr, "par_phold: %s\n", err);
			return 2;
		}
	}
	int rc = sim_run(ctx, until);
	const sim_stats *st = sim_get_stats(ctx);

	/* Each rank's processes, (index, events, hash), gathered on rank 0. */
	uint64_t *mine = xcalloc(3 * (size_t)n, sizeof *mine);
	size_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!pr || (!strcmp(mode, "block") ? (uint32_t)((uint64_t)i * size / n) : i % size) == rank) {
			mine[k++] = i;
			mine[k++] = lps[i].events;
			mine[k++] = lps[i].hash;
		}
	void *all;
	size_t alln;
	if (pr)
		par_gather(mine, k * sizeof *mine, &all, &alln);
	else {
		all = mine;
		alln = k * sizeof *mine;
		mine = NULL;
	}
	if (rank == 0) {
		uint64_t *v = all, *ev = xcalloc(n, sizeof *ev), *hs = xcalloc(n, sizeof *hs);
		for (size_t j = 0; j + 3 <= alln / sizeof *v; j += 3) {
			ev[v[j]] = v[j + 1];
			hs[v[j]] = v[j + 2];
		}
		uint64_t total = 0, h = 0;
		for (uint32_t i = 0; i < n; i++) {
			total += ev[i];
			h = (h ^ hs[i]) * 0x100000001b3ull;
		}
		printf("rc %d events %" PRIu64 " kernel-events %" PRIu64 " end %" PRIu64 " stopped %d hash %016" PRIx64
		       "\n", rc, total, st->events, st->end_time, st->stopped_at_until, h);
		for (uint32_t i = 0; i < n; i++)
			printf("lp %" PRIu32 " %" PRIu64 " %016" PRIx64 "\n", i, ev[i], hs[i]);
		if (pr) {
			const par_stats *ps = par_get_stats(pr);
			fprintf(stderr,
			        "par_phold: %" PRIu32 " ranks, %" PRIu64 " windows, %" PRIu64 " remote events, busiest rank %" PRIu64
			        " events, window loop %.3f s of which %.3f s in exchanges and reductions\n",
			        ps->ranks, ps->windows, ps->remote, ps->max_rank_events, ps->wall_s, ps->sync_s);
		} else {
			fprintf(stderr, "par_phold: sequential, %.3f s in sim_run\n", st->wall_seconds);
		}
		free(ev);
		free(hs);
	}
	free(all);
	free(mine);
	par_detach(pr);
	sim_free(ctx);
	free(lps);
	par_finalize();
	return rc < 0;
}

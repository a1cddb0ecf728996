/*
 * traffic_hvd.c - the HOROVOD model (see traffic_hvd.h).
 *
 * Its collectives are those of runtime/coll/coll.h, rooted at the coordinator
 * (member 0), called with the attributes class horovod and a tally of the
 * member's sends, which feeds the per-layer figures.
 */
#include "runtime/traffic/hvd.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/checked.h"
#include "runtime/coll/coll.h"
#include "runtime/traffic/traffic.h"

/* Purpose tag of the streams every member of a run replays ("hvd"). */
#define THVD_STREAM_SHARED 0x6876640000000001ull

static const char *const key_names[RT_HVD_NKEYS] = {
	"COMPUTE", "NEGOTIATION LOOP", "GATHERV", "GATHERV TOTAL", "GATHERV PROBABILITY", "BROADCAST", "ALLREDUCE",
};

void trf_hvd_missing(unsigned set, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; k < RT_HVD_NKEYS; k++)
		if (!(set & (1u << k)) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", key_names[k]);
}

const char *trf_hvd_check(const rt_hvd_layer *p)
{
	if ((p->set & (1u << RT_HVD_GATHERV)) && !(p->gatherv_bytes >= 0 && isfinite(p->gatherv_bytes)))
		return "GATHERV must be a non-negative number of bytes";
	if ((p->set & (1u << RT_HVD_GATHERV_PROB)) && !(p->gatherv_prob >= 0 && p->gatherv_prob <= 1))
		return "GATHERV PROBABILITY must lie in [0, 1]";
	return NULL;
}

/* ------------------------------------------------------------ collectives */

/* Where a member's collectives of one layer are counted. */
typedef struct hcoll {
	rt_task *t;
	const rt_group *g;
	const coll_config *cfg;
	int me;
	trf_run *r;
	trf_hvd_layer *st;
} hcoll;

/* Adds one collective of kind k (this member's sends, tallied in c) to the figures. */
static void hc_count(const hcoll *h, int k, const coll_tally *c)
{
	trf_hvd_op *op = &h->st->op[k];
	if (h->me == 0)
		op->ops++; /* counted once, at the coordinator */
	op->msgs += c->msgs;
	op->bytes = ck_sat_add(op->bytes, c->bytes);
	h->r->msgs += c->msgs;
	h->r->bytes = ck_sat_add(h->r->bytes, c->bytes);
}

/* Gather of `each` bytes per worker (bytes NULL) or gatherv of bytes[w] to the coordinator. */
static void hc_gather(const hcoll *h, int k, const uint64_t *bytes, uint64_t each)
{
	coll_tally c = {0, 0};
	coll_attr a = {.tclass = NET_CLASS_HOROVOD, .tally = &c};
	coll_gather_as(h->t, h->cfg, &a, h->g, h->g->members[0], bytes, each);
	hc_count(h, k, &c);
}

/* Broadcast of `bytes` from the coordinator. */
static void hc_bcast(const hcoll *h, uint64_t bytes)
{
	coll_tally c = {0, 0};
	coll_attr a = {.tclass = NET_CLASS_HOROVOD, .tally = &c};
	coll_bcast_as(h->t, &a, h->g, h->g->members[0], bytes);
	hc_count(h, TRF_HVD_BCAST, &c);
}

static void hc_allreduce(const hcoll *h, uint64_t bytes)
{
	coll_tally c = {0, 0};
	coll_attr a = {.tclass = NET_CLASS_HOROVOD, .tally = &c};
	coll_allreduce_as(h->t, h->cfg, &a, h->g, bytes);
	hc_count(h, TRF_HVD_ALLREDUCE, &c);
}

/* ------------------------------------------------------------ the model */

/* Validates p (first member to arrive); fatal with the first problem. */
static void check_params(rt_task *t, const rt_horovod_params *p)
{
	if (p->batches < 0 || p->layers < 0)
		rt_fatal(t, "HOROVOD: negative number of batches (%" PRId64 ") or layers (%" PRId64 ")", p->batches,
		         p->layers);
	if (p->layers > TRF_HVD_MAX_LAYERS)
		rt_fatal(t, "HOROVOD: %" PRId64 " layers, more than the %d a model may have", p->layers, TRF_HVD_MAX_LAYERS);
	if ((p->defaults.set & RT_HVD_ALL) != RT_HVD_ALL) {
		char miss[256];
		trf_hvd_missing(p->defaults.set, miss, sizeof miss);
		rt_fatal(t, "HOROVOD: every default parameter is required; missing: %s", miss);
	}
	const char *why = trf_hvd_check(&p->defaults);
	if (why)
		rt_fatal(t, "HOROVOD: %s", why);
	for (int i = 0; i < p->noverrides; i++) {
		const rt_hvd_override *o = &p->overrides[i];
		if (o->layer < 0 || o->layer >= p->layers)
			rt_fatal(t, "HOROVOD: LAYER %" PRId64 " is out of range (0..%" PRId64 ")", o->layer, p->layers - 1);
		if ((why = trf_hvd_check(&o->p)))
			rt_fatal(t, "HOROVOD: layer %" PRId64 ": %s", o->layer, why);
	}
}

/* Copies the keys of src->set from src into dst. */
static void overlay(rt_hvd_layer *dst, const rt_hvd_layer *src)
{
	unsigned s = src->set;
	if (s & (1u << RT_HVD_COMPUTE)) dst->compute = src->compute;
	if (s & (1u << RT_HVD_NEGOTIATION)) dst->negotiation = src->negotiation;
	if (s & (1u << RT_HVD_GATHERV)) dst->gatherv_bytes = src->gatherv_bytes;
	if (s & (1u << RT_HVD_GATHERV_TOTAL)) dst->gatherv_total = src->gatherv_total;
	if (s & (1u << RT_HVD_GATHERV_PROB)) dst->gatherv_prob = src->gatherv_prob;
	if (s & (1u << RT_HVD_BROADCAST)) dst->bcast_bytes = src->bcast_bytes;
	if (s & (1u << RT_HVD_ALLREDUCE)) dst->allreduce_bytes = src->allreduce_bytes;
}

rt_hvd_layer *trf_hvd_layers(const rt_horovod_params *p)
{
	size_t n = p->layers > 0 ? (size_t)p->layers : 1;
	rt_hvd_layer *lp = xcalloc(n, sizeof *lp);
	for (size_t l = 0; l < n; l++)
		lp[l] = p->defaults;
	for (int i = 0; i < p->noverrides; i++)
		if (p->overrides[i].layer >= 0 && p->overrides[i].layer < p->layers)
			overlay(&lp[p->overrides[i].layer], &p->overrides[i].p);
	return lp;
}

/*
 * About how many negotiation rounds one layer takes: each round a worker adds
 * max(1, round(Exp(GATHERV))) bytes, at least max(1, GATHERV) / 2 on average,
 * with probability GATHERV PROBABILITY, until its total reaches GATHERV TOTAL
 * (the order of magnitude is all the limit needs). -1 when no round can ever
 * add anything: the layer would never end.
 */
static double layer_rounds(const rt_hvd_layer *lp, int members)
{
	if (members < 2 || lp->gatherv_total == 0)
		return 1;
	if (!(lp->gatherv_prob > 0))
		return -1;
	double each = lp->gatherv_bytes > 1 ? lp->gatherv_bytes : 1;
	return 1 + (double)lp->gatherv_total / (lp->gatherv_prob * each / 2);
}

char *trf_hvd_check_work(const rt_horovod_params *p, const rt_hvd_layer *lp, int members)
{
	double rounds = 0;
	uint64_t compute = 0;
	for (rt_int l = 0; l < p->layers; l++) {
		double r = layer_rounds(&lp[l], members);
		if (r < 0)
			return xasprintf("HOROVOD: layer %" PRId64 " never ends: with GATHERV PROBABILITY 0 no worker adds to "
			                 "its total, which must reach GATHERV TOTAL (%" PRIu64 " bytes)", l,
			                 lp[l].gatherv_total);
		rounds += r;
		compute = ck_sat_add(compute, lp[l].compute);
	}
	if ((double)p->batches * rounds > TRF_HVD_MAX_ROUNDS)
		return xasprintf("HOROVOD: %" PRId64 " batches of %" PRId64 " layers need about %.3g negotiation rounds, "
		                 "more than the %.3g a statement may expect (GATHERV TOTAL / (GATHERV PROBABILITY x GATHERV) "
		                 "rounds per layer)", p->batches, p->layers, (double)p->batches * rounds, TRF_HVD_MAX_ROUNDS);
	if (!ck_time_ok(ck_sat_mul((uint64_t)p->batches, compute)))
		return xasprintf("HOROVOD: %" PRId64 " batches of %" PRId64 " layers compute for more than 2^64 ps (about 213 "
		                 "days), the end of simulated time", p->batches, p->layers);
	return NULL;
}

void rt_traffic_horovod(rt_task *t, const rt_group *g, const rt_horovod_params *p)
{
	trf_world *tw = trf_world_of(t);
	int me, created;
	trf_run *r = trf_join(tw, t, g, TRF_HOROVOD, "horovod", &me, &created);
	if (created) {
		check_params(t, p);
		r->batches = p->batches;
		r->layers = p->layers;
		r->hvd = xcalloc(p->layers > 0 ? (size_t)p->layers : 1, sizeof *r->hvd);
		r->hvd_lp = trf_hvd_layers(p);
		char *why = trf_hvd_check_work(p, r->hvd_lp, g->n);
		if (why)
			task_fatal_err(t, why, NULL);
	}
	if (p->batches != r->batches || p->layers != r->layers)
		rt_fatal(t, "HOROVOD: the members of a group disagree on batches and layers");
	int P = g->n;
	const coll_config *cfg = coll_cfg(t);
	sim_rng *own = &trf_my_ep(tw, t)->rng;
	sim_rng shared;
	sim_rng_seed(&shared, tw->w->seed, trf_dest_stream_key(THVD_STREAM_SHARED, r->job, r->key));
	uint64_t *total = xcalloc((size_t)P, sizeof *total);
	uint64_t *gv = xcalloc((size_t)P, sizeof *gv);
	rt_track(t, total, free); /* freed even if the task is abandoned in the statement */
	rt_track(t, gv, free);
	for (rt_int b = 0; b < p->batches; b++) {
		for (rt_int l = 0; l < p->layers; l++) {
			const rt_hvd_layer lp = r->hvd_lp[l];
			trf_hvd_layer *st = &r->hvd[l];
			double c = (double)lp.compute * (1.0 + 0.1 * trf_dest_normal(own));
			ncsim_time_t ct = ck_round_u64(c); /* saturated past 2^64 ps: rt_compute refuses it */
			st->compute = ck_sat_add(st->compute, ct);
			rt_compute(t, ct);
			hcoll h = {.t = t, .g = g, .cfg = cfg, .me = me, .r = r, .st = st};
			for (;;) {
				if (me == 0)
					st->rounds++;
				hc_gather(&h, TRF_HVD_GATHER, NULL, 4);
				int reached = 1;
				for (int w = 1; w < P; w++) {
					if (sim_rng_next_unif(&shared) < lp.gatherv_prob) {
						uint64_t x = ck_round_u64(trf_dest_exp(&shared, lp.gatherv_bytes));
						gv[w] = x < 1 ? 1 : x;
						total[w] = ck_sat_add(total[w], gv[w]);
					} else {
						gv[w] = 25;
					}
					reached &= total[w] >= lp.gatherv_total;
				}
				hc_gather(&h, TRF_HVD_GATHERV, gv, 0);
				hc_bcast(&h, 4);
				hc_bcast(&h, reached ? lp.bcast_bytes : 25);
				if (reached) {
					hc_allreduce(&h, lp.allreduce_bytes);
					memset(total, 0, (size_t)P * sizeof *total);
					break;
				}
				double wait = trf_dest_exp(own, (double)lp.negotiation);
				rt_sleep(t, ck_round_u64(wait));
			}
		}
	}
	rt_release(t, gv);
	rt_release(t, total);
	/* Every message of a collective is received before the collective ends: all delivered. */
	r->dmsgs = r->msgs;
	r->dbytes = r->bytes;
	trf_gen_done(tw, r, me);
	trf_wait(tw, t, r, me);
}

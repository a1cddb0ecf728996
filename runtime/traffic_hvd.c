/*
 * traffic_hvd.c - the HOROVOD model and its collectives of class horovod
 * (see traffic_hvd.h).
 *
 * The collective bodies mirror runtime/coll_*.c with the coordinator as root
 * (member 0, so relative and absolute member indices coincide); they differ
 * only in the traffic class of their sends and in the counters they keep.
 */
#include "runtime/traffic_hvd.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/coll.h"
#include "runtime/p2p.h"
#include "runtime/traffic.h"

/* Purpose tag of the streams every member of a run replays ("hvd"). */
#define THVD_STREAM_SHARED 0x6876640000000001ull

static const char *const key_names[RT_HVD_NKEYS] = {
	"COMPUTE", "NEGOTIATION LOOP", "GATHERV", "GATHERV TOTAL", "GATHERV PROBABILITY", "BROADCAST", "ALLREDUCE",
};

void thvd_missing(unsigned set, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; k < RT_HVD_NKEYS; k++)
		if (!(set & (1u << k)) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", key_names[k]);
}

const char *thvd_check(const rt_hvd_layer *p)
{
	if ((p->set & (1u << RT_HVD_GATHERV)) && !(p->gatherv_bytes >= 0 && isfinite(p->gatherv_bytes)))
		return "GATHERV must be a non-negative number of bytes";
	if ((p->set & (1u << RT_HVD_GATHERV_PROB)) && !(p->gatherv_prob >= 0 && p->gatherv_prob <= 1))
		return "GATHERV PROBABILITY must lie in [0, 1]";
	return NULL;
}

/* ------------------------------------------------------------ collectives */

/* One collective in progress: where to count its messages. */
typedef struct hcoll {
	rt_task *t;
	const rt_group *g;
	int me;
	rt_int tag;
	trf_hvd_op *op;
	trf_run *r;
} hcoll;

static hcoll hc_begin(rt_task *t, const rt_group *g, int me, trf_run *r, trf_hvd_op *op)
{
	hcoll h = {.t = t, .g = g, .me = me, .tag = p2p_coll_tag(t, g), .op = op, .r = r};
	if (me == 0)
		op->ops++;
	p2p_op_begin(t);
	return h;
}

static void hc_end(hcoll *h) { p2p_op_end(h->t); }

static rt_req hc_isend(hcoll *h, int to, uint64_t bytes)
{
	h->op->msgs++;
	h->op->bytes += bytes;
	h->r->msgs++;
	h->r->bytes += bytes;
	return p2p_isend(h->t, P2P_CTX_COLL, h->g->members[to], bytes, h->tag, 0, NET_CLASS_HOROVOD);
}

static rt_req hc_irecv(hcoll *h, int from, uint64_t bytes) { return coll_irecv(h->t, h->g, from, bytes, h->tag); }

static void hc_send(hcoll *h, int to, uint64_t bytes)
{
	rt_req q = hc_isend(h, to, bytes);
	p2p_waitn(h->t, &q, 1);
}

static void hc_recv(hcoll *h, int from, uint64_t bytes)
{
	rt_req q = hc_irecv(h, from, bytes);
	p2p_waitn(h->t, &q, 1);
}

static void hc_sendrecv(hcoll *h, int to, uint64_t sbytes, int from, uint64_t rbytes)
{
	rt_req q[2];
	q[0] = hc_irecv(h, from, rbytes);
	q[1] = hc_isend(h, to, sbytes);
	p2p_waitn(h->t, q, 2);
}

/* Bytes of members [lo, hi): bytes[] for gatherv, else `each` apiece. */
static uint64_t span(const uint64_t *bytes, uint64_t each, int lo, int hi)
{
	if (!bytes)
		return (uint64_t)(hi - lo) * each;
	uint64_t s = 0;
	for (int v = lo; v < hi; v++)
		s += bytes[v];
	return s;
}

/* Gather (bytes NULL: `each` per member) or gatherv to member 0. */
static void hc_gather(hcoll *h, const coll_config *cfg, const uint64_t *bytes, uint64_t each)
{
	int P = h->g->n, v = h->me;
	if (P < 2)
		return;
	if (cfg->gather == COLL_TREE_LINEAR) {
		if (v != 0) {
			hc_send(h, 0, bytes ? bytes[v] : each);
			return;
		}
		rt_req *q = xcalloc((size_t)P, sizeof *q);
		for (int j = 1; j < P; j++)
			q[j - 1] = hc_irecv(h, j, bytes ? bytes[j] : each);
		p2p_waitn(h->t, q, P - 1);
		free(q);
		return;
	}
	rt_req q[64];
	int n = 0;
	int64_t mask;
	for (mask = 1; mask < P; mask <<= 1) {
		if (v & mask)
			break;
		int64_t c = v + mask;
		if (c < P)
			q[n++] = hc_irecv(h, (int)c, span(bytes, each, (int)c, (int)(c + mask < P ? c + mask : P)));
	}
	if (n)
		p2p_waitn(h->t, q, n);
	if (v != 0)
		hc_send(h, (int)(v - mask), span(bytes, each, v, (int)(v + mask < P ? v + mask : P)));
}

/* Binomial broadcast from member 0. */
static void hc_bcast(hcoll *h, uint64_t bytes)
{
	int P = h->g->n, v = h->me;
	int64_t mask = 1;
	while (mask < P) {
		if (v & mask) {
			hc_recv(h, (int)(v - mask), bytes);
			break;
		}
		mask <<= 1;
	}
	rt_req q[64];
	int n = 0;
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v + mask < P)
			q[n++] = hc_isend(h, (int)(v + mask), bytes);
	if (n)
		p2p_waitn(h->t, q, n);
}

static void hc_allreduce_recdbl(hcoll *h, uint64_t bytes)
{
	int P = h->g->n, me = h->me;
	int pof2 = 1;
	while ((int64_t)pof2 * 2 <= P)
		pof2 *= 2;
	int rem = P - pof2, n;
	if (me < 2 * rem) {
		if (me % 2 == 0) {
			rt_req q[2];
			q[0] = hc_irecv(h, me + 1, bytes);
			q[1] = hc_isend(h, me + 1, bytes);
			p2p_waitn(h->t, q, 2);
			return;
		}
		hc_recv(h, me - 1, bytes);
		n = me / 2;
	} else {
		n = me - rem;
	}
	for (int d = 1; d < pof2; d *= 2) {
		int pn = n ^ d;
		int peer = pn < rem ? 2 * pn + 1 : pn + rem;
		hc_sendrecv(h, peer, bytes, peer, bytes);
	}
	if (me < 2 * rem)
		hc_send(h, me - 1, bytes);
}

static void hc_allreduce_ring(hcoll *h, uint64_t bytes)
{
	int P = h->g->n, me = h->me;
	int right = (me + 1) % P, left = (me - 1 + P) % P;
	for (int phase = 0; phase < 2; phase++)
		for (int s = 0; s < P - 1; s++) {
			int64_t base = (int64_t)me - s + 2 * (int64_t)P + phase;
			int sc = (int)(base % P), rc = (int)((base - 1) % P);
			hc_sendrecv(h, right, coll_ring_chunk(bytes, P, sc), left, coll_ring_chunk(bytes, P, rc));
		}
}

static void hc_allreduce(hcoll *h, const coll_config *cfg, uint64_t bytes)
{
	if (h->g->n < 2)
		return;
	if (cfg->allreduce == COLL_ALLREDUCE_RING ||
	    (cfg->allreduce == COLL_ALLREDUCE_AUTO && bytes >= cfg->allreduce_ring_threshold))
		hc_allreduce_ring(h, bytes);
	else
		hc_allreduce_recdbl(h, bytes);
}

/* ------------------------------------------------------------ the model */

/* Validates p (first member to arrive); fatal with the first problem. */
static void check_params(rt_task *t, const rt_horovod_params *p)
{
	if (p->batches < 0 || p->layers < 0)
		rt_fatal(t, "HOROVOD: negative number of batches (%" PRId64 ") or layers (%" PRId64 ")", p->batches,
		         p->layers);
	if ((p->defaults.set & RT_HVD_ALL) != RT_HVD_ALL) {
		char miss[256];
		thvd_missing(p->defaults.set, miss, sizeof miss);
		rt_fatal(t, "HOROVOD: every default parameter is required; missing: %s", miss);
	}
	const char *why = thvd_check(&p->defaults);
	if (why)
		rt_fatal(t, "HOROVOD: %s", why);
	for (int i = 0; i < p->noverrides; i++) {
		const rt_hvd_override *o = &p->overrides[i];
		if (o->layer < 0 || o->layer >= p->layers)
			rt_fatal(t, "HOROVOD: LAYER %" PRId64 " is out of range (0..%" PRId64 ")", o->layer, p->layers - 1);
		if ((why = thvd_check(&o->p)))
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

/* The parameters of layer l: the defaults, then every override of l in order. */
static rt_hvd_layer layer_params(const rt_horovod_params *p, rt_int l)
{
	rt_hvd_layer x = p->defaults;
	for (int i = 0; i < p->noverrides; i++)
		if (p->overrides[i].layer == l)
			overlay(&x, &p->overrides[i].p);
	return x;
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
	}
	if (p->batches != r->batches || p->layers != r->layers)
		rt_fatal(t, "HOROVOD: the members of a group disagree on batches and layers");
	int P = g->n;
	const coll_config *cfg = coll_cfg(t);
	sim_rng *own = &trf_my_ep(tw, t)->rng;
	sim_rng shared;
	sim_rng_seed(&shared, tw->w->seed, tdst_stream_key(THVD_STREAM_SHARED, r->job, r->key));
	uint64_t *total = xcalloc((size_t)P, sizeof *total);
	uint64_t *gv = xcalloc((size_t)P, sizeof *gv);
	for (rt_int b = 0; b < p->batches; b++) {
		for (rt_int l = 0; l < p->layers; l++) {
			rt_hvd_layer lp = layer_params(p, l);
			trf_hvd_layer *st = &r->hvd[l];
			double c = (double)lp.compute * (1.0 + 0.1 * tdst_normal(own));
			ncsim_time_t ct = c > 0 ? (ncsim_time_t)llround(c) : 0;
			st->compute += ct;
			rt_compute(t, ct);
			for (;;) {
				if (me == 0)
					st->rounds++;
				hcoll h = hc_begin(t, g, me, r, &st->op[TRF_HVD_GATHER]);
				hc_gather(&h, cfg, NULL, 4);
				hc_end(&h);
				int reached = 1;
				for (int w = 1; w < P; w++) {
					if (sim_rng_next_unif(&shared) < lp.gatherv_prob) {
						double x = llround(tdst_exp(&shared, lp.gatherv_bytes));
						gv[w] = x < 1 ? 1 : (uint64_t)x;
						total[w] += gv[w];
					} else {
						gv[w] = 25;
					}
					reached &= total[w] >= lp.gatherv_total;
				}
				h = hc_begin(t, g, me, r, &st->op[TRF_HVD_GATHERV]);
				hc_gather(&h, cfg, gv, 0);
				hc_end(&h);
				h = hc_begin(t, g, me, r, &st->op[TRF_HVD_BCAST]);
				hc_bcast(&h, 4);
				hc_end(&h);
				h = hc_begin(t, g, me, r, &st->op[TRF_HVD_BCAST]);
				hc_bcast(&h, reached ? lp.bcast_bytes : 25);
				hc_end(&h);
				if (reached) {
					h = hc_begin(t, g, me, r, &st->op[TRF_HVD_ALLREDUCE]);
					hc_allreduce(&h, cfg, lp.allreduce_bytes);
					hc_end(&h);
					memset(total, 0, (size_t)P * sizeof *total);
					break;
				}
				double wait = tdst_exp(own, (double)lp.negotiation);
				rt_sleep(t, (ncsim_time_t)llround(wait));
			}
		}
	}
	free(total);
	free(gv);
	/* Every message of a collective is received before the collective ends: all delivered. */
	r->dmsgs = r->msgs;
	r->dbytes = r->bytes;
	trf_gen_done(tw, r, me);
	trf_wait(tw, t, r, me);
}

/*
 * trf_par.c - traffic models in a run over MPI ranks (see traffic.h).
 *
 * Each rank runs the parts of the members whose tasks it holds: their
 * endpoints generate, inject and take the acknowledgements of their own
 * messages, so a run needs no message between ranks beyond the network's.
 * A run therefore exists on every rank that holds one of its members, each
 * copy with that rank's share of the figures. After the run rank 0 gathers
 * the copies, adds them up by run (job and key) and orders the runs by the
 * key of the event that created each (the earliest over the ranks), which is
 * the order in which the sequential run created them.
 *
 * Every figure is an integer (sums, minima, maxima, histogram counts), so
 * the sums over ranks equal the sequential sums exactly.
 */
#include "runtime/traffic/traffic.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/par.h"

void trf_par_owner(const task_world *w, uint32_t *owner)
{
	const trf_world *tw = w->traffic;
	for (size_t i = 0; tw && i < tw->neps; i++)
		owner[tw->ep_base + i] = owner[w->all.ptr[i]->eid];
}

/* A rank's copy of a run on the wire; the label, the classes' counts, the layers and the histogram follow. */
typedef struct run_rec {
	uint64_t len; /* of the whole record, a multiple of 8 */
	sim_key created;
	uint64_t key;
	uint64_t msgs, bytes, dmsgs, dbytes, lat_sum, lat_min, lat_max, gen_bits, gen_span;
	uint64_t flows_sent, count, t_start, t_end, duration;
	double gbps;
	int64_t batches, layers;
	uint32_t job, nnodes, label_len, nbuckets;
	int32_t model, n, nclasses;
} run_rec;

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* A histogram's bucket on the wire (only buckets that count something travel). */
typedef struct bucket_rec {
	uint64_t index, count;
} bucket_rec;

typedef VEC(unsigned char) byte_vec;

/* Appends n bytes at p, then zeros up to a multiple of 8. */
static void put(byte_vec *buf, const void *p, size_t n)
{
	if (!n)
		return;
	VEC_GROW(buf, buf->len + pad8(n));
	memcpy(buf->ptr + buf->len, p, n);
	memset(buf->ptr + buf->len + n, 0, pad8(n) - n);
	buf->len += pad8(n);
}

static void pack_run(byte_vec *buf, const trf_run *r)
{
	uint32_t nb = 0;
	for (size_t i = 0; i < LH_BUCKETS; i++)
		nb += r->lat->b[i] != 0;
	size_t label_len = strlen(r->label);
	run_rec h = {
		.created = r->created, .key = r->key, .msgs = r->msgs, .bytes = r->bytes,
		.dmsgs = r->dmsgs, .dbytes = r->dbytes, .lat_sum = r->lat_sum, .lat_min = r->lat_min,
		.lat_max = r->lat_max, .gen_bits = r->gen_bits, .gen_span = r->gen_span, .flows_sent = r->flows_sent,
		.count = r->count, .t_start = r->t_start, .t_end = r->t_end, .duration = r->duration, .gbps = r->gbps,
		.batches = r->batches, .layers = r->layers, .job = r->job, .nnodes = r->nnodes,
		.label_len = (uint32_t)label_len, .nbuckets = nb, .model = r->model, .n = r->n, .nclasses = r->nclasses,
	};
	h.len = sizeof h + pad8(label_len) + (size_t)r->nclasses * sizeof(uint64_t) +
	        (size_t)(r->layers > 0 ? r->layers : 0) * sizeof(trf_hvd_layer) + nb * sizeof(bucket_rec);
	put(buf, &h, sizeof h);
	put(buf, r->label, label_len);
	for (int c = 0; c < r->nclasses; c++)
		put(buf, &r->cls[c].flows, sizeof r->cls[c].flows);
	for (rt_int l = 0; l < r->layers; l++)
		put(buf, &r->hvd[l], sizeof r->hvd[l]);
	for (size_t i = 0; i < LH_BUCKETS; i++)
		if (r->lat->b[i]) {
			bucket_rec b = {i, r->lat->b[i]};
			put(buf, &b, sizeof b);
		}
}

/* A run of rank 0's list, its figures zero, shaped like the copy h (label at p). */
static trf_run *run_from(const run_rec *h, const char *label)
{
	trf_run *r = xcalloc(1, sizeof *r);
	r->model = h->model;
	r->label = xmalloc(h->label_len + 1);
	memcpy(r->label, label, h->label_len);
	r->label[h->label_len] = '\0';
	r->job = h->job;
	r->key = h->key;
	r->n = h->n;
	r->nnodes = h->nnodes;
	r->gbps = h->gbps;
	r->count = h->count;
	r->duration = h->duration;
	r->nclasses = h->nclasses;
	r->cls = h->nclasses > 0 ? xcalloc((size_t)h->nclasses, sizeof *r->cls) : NULL;
	r->batches = h->batches;
	r->layers = h->layers;
	r->hvd = h->layers > 0 ? xcalloc((size_t)h->layers, sizeof *r->hvd) : NULL;
	r->lat = xcalloc(1, sizeof *r->lat);
	r->created = h->created;
	r->t_start = h->t_start;
	r->lat_min = UINT64_MAX;
	return r;
}

static void add_layer(trf_hvd_layer *to, const trf_hvd_layer *l)
{
	to->rounds += l->rounds;
	to->compute = ck_sat_add(to->compute, l->compute);
	for (int k = 0; k < TRF_HVD_NKINDS; k++) {
		to->op[k].ops += l->op[k].ops;
		to->op[k].msgs += l->op[k].msgs;
		to->op[k].bytes = ck_sat_add(to->op[k].bytes, l->op[k].bytes);
	}
}

/* Adds the copy h (its trailing parts at p) into r. */
static void add_copy(trf_run *r, const run_rec *h, const unsigned char *p)
{
	if (sim_key_order(&h->created, &r->created) < 0)
		r->created = h->created;
	r->t_start = h->t_start < r->t_start ? h->t_start : r->t_start;
	r->t_end = h->t_end > r->t_end ? h->t_end : r->t_end;
	r->msgs += h->msgs;
	r->bytes = ck_sat_add(r->bytes, h->bytes);
	r->dmsgs += h->dmsgs;
	r->dbytes = ck_sat_add(r->dbytes, h->dbytes);
	r->lat_sum += h->lat_sum;
	r->lat_min = h->lat_min < r->lat_min ? h->lat_min : r->lat_min;
	r->lat_max = h->lat_max > r->lat_max ? h->lat_max : r->lat_max;
	r->gen_bits += h->gen_bits;
	r->gen_span += h->gen_span;
	r->flows_sent += h->flows_sent;
	p += pad8(h->label_len);
	for (int c = 0; c < r->nclasses; c++, p += sizeof(uint64_t)) {
		uint64_t f;
		memcpy(&f, p, sizeof f);
		r->cls[c].flows += f;
	}
	for (rt_int l = 0; l < r->layers; l++, p += sizeof(trf_hvd_layer)) {
		trf_hvd_layer x;
		memcpy(&x, p, sizeof x);
		add_layer(&r->hvd[l], &x);
	}
	for (uint32_t i = 0; i < h->nbuckets; i++, p += sizeof(bucket_rec)) {
		bucket_rec b;
		memcpy(&b, p, sizeof b);
		r->lat->b[b.index] += b.count;
		r->lat->count += b.count;
	}
}

static int by_creation(const void *a, const void *b)
{
	const trf_run *x = *(trf_run *const *)a, *y = *(trf_run *const *)b;
	return sim_key_order(&x->created, &y->created);
}

/* Rank 0: the runs of all copies (n bytes at all), in creation order, replace tw's. */
static void merge(trf_world *tw, const unsigned char *all, size_t n)
{
	VEC(trf_run *) runs = {0};
	for (size_t off = 0; off + sizeof(run_rec) <= n;) {
		run_rec h;
		memcpy(&h, all + off, sizeof h);
		const unsigned char *p = all + off + sizeof h;
		trf_run *r = NULL;
		for (size_t i = runs.len; i-- > 0 && !r;)
			if (runs.ptr[i]->job == h.job && runs.ptr[i]->key == h.key)
				r = runs.ptr[i];
		if (!r) {
			r = run_from(&h, (const char *)p);
			VEC_PUSH(&runs, r);
		}
		add_copy(r, &h, p);
		off += h.len;
	}
	if (runs.len > 1)
		qsort(runs.ptr, runs.len, sizeof *runs.ptr, by_creation);
	for (size_t i = 0; i < tw->runs.len; i++)
		trf_run_free(tw->runs.ptr[i]);
	VEC_FREE(&tw->runs);
	VEC_FREE(&tw->open);
	tw->runs.ptr = runs.ptr;
	tw->runs.len = runs.len;
	tw->runs.cap = runs.cap;
}

void trf_par_finish(task_world *w)
{
	trf_world *tw = w->traffic;
	if (!tw)
		return;
	byte_vec buf = {0};
	for (size_t i = 0; i < tw->runs.len; i++)
		pack_run(&buf, tw->runs.ptr[i]);
	void *all;
	size_t n;
	par_gather(buf.ptr, buf.len, &all, &n);
	VEC_FREE(&buf);
	if (all)
		merge(tw, all, n);
	free(all);
}

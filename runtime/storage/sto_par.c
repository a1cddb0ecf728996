/*
 * sto_par.c - the storage subsystem in a run over MPI ranks (see
 * storage_int.h and doc/parallel.md).
 *
 * Clients and servers sit on the rank of their node. A request whose two
 * ends are on different ranks crosses twice as a record on a kernel
 * channel: with its header, the whole record (the server's rank makes its
 * copy), and with its ack, the server's copy (its share of the network
 * time, the device time and the status). Both records land before their
 * messages can, since a message between ranks crosses a global link.
 * Counters are integers owned by one rank each, summed at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/par.h"
#include "runtime/kernel/par_mirror.h"
#include "runtime/storage/storage_int.h"

struct sto_par {
	par_run *pr;
	uint32_t me;
	int ch;
	pmr_table *keys;
};

/* A record on the wire: the request's key, the message kind that carries it, the sender's copy. */
typedef struct stp_rec {
	uint64_t key;
	uint32_t kind, pad_;
	rec r;
} stp_rec;

static void on_record(void *arg, const void *in, size_t n)
{
	sto_system *s = arg;
	struct sto_par *P = s->par;
	stp_rec m;
	if (n != sizeof m) {
		fprintf(stderr, "ncsim: internal error: a storage record of %zu bytes\n", n);
		abort();
	}
	memcpy(&m, in, sizeof m);
	if (m.kind == CLI_ACK) {
		/* At the client's copy: the server's part. */
		rec *r = &s->recs.ptr[pmr_slot(m.key)];
		r->net_time += m.r.net_time;
		r->dev_time = m.r.dev_time;
		r->status = m.r.status;
		return;
	}
	uint32_t id = sto_rec_alloc(s);
	s->recs.ptr[id] = m.r;
	s->recs.ptr[id].xr = STP_MIRROR;
	pmr_put(P->keys, m.key, id);
}

int sto_par_attach(sto_system *s, par_run *pr, char **err)
{
	struct sto_par *P = xcalloc(1, sizeof *P);
	P->pr = pr;
	P->me = par_me(pr);
	P->keys = pmr_new(P->me);
	P->ch = P->keys ? par_channel_add(pr, on_record, s) : -1;
	if (P->ch < 0) {
		pmr_free(P->keys);
		free(P);
		*err = xasprintf("the storage system cannot run over %u ranks", par_size());
		return -1;
	}
	s->par = P;
	return 0;
}

void sto_par_detach(sto_system *s)
{
	if (!s || !s->par)
		return;
	par_channel_drop(s->par->pr, s->par->ch);
	pmr_free(s->par->keys);
	free(s->par);
	s->par = NULL;
}

void sto_owner(const sto_system *s, uint32_t (*rank_of)(void *ctx, uint32_t node), void *ctx, uint32_t *owner)
{
	for (uint32_t n = 0; n < s->nnodes; n++)
		owner[s->clients[n].self] = rank_of(ctx, n);
	for (uint32_t i = 0; i < s->nservers; i++)
		owner[s->servers[i].self] = rank_of(ctx, s->servers[i].node);
}

void stp_submitted(sto_system *s, uint32_t id)
{
	rec *r = &s->recs.ptr[id];
	if (par_owner(s->par->pr, s->servers[r->server].self) == s->par->me)
		return;
	r->xr = STP_HOME;
	(void)pmr_home(s->par->keys, id);
}

uint64_t stp_cookie(sto_system *s, uint32_t id, sim_eid to, int kind)
{
	struct sto_par *P = s->par;
	const rec *r = &s->recs.ptr[id];
	if (r->xr == STP_LOCAL)
		return id;
	uint64_t key = pmr_key(P->keys, id);
	uint32_t dest = par_owner(P->pr, to);
	/* Kinds of the other side: a client's copy sends to its server, a server's to its client. */
	if (dest != P->me && ((r->xr == STP_HOME && kind == SRV_REQ) || (r->xr == STP_MIRROR && kind == CLI_ACK))) {
		stp_rec m = {.key = key, .kind = (uint32_t)kind, .r = *r};
		par_post_ch(P->pr, P->ch, dest, &m, sizeof m, SIM_FOREVER);
	}
	return r->xr == STP_HOME ? key : pmr_slot(key);
}

uint32_t stp_local(const sto_system *s, uint64_t cookie) { return pmr_local(s->par->keys, cookie); }

void stp_forget(sto_system *s, uint32_t id) { pmr_forget(s->par->keys, id); }

/* Visits every counter of s that a rank owns (totals, servers, devices); cap: the capacity stays. */
static size_t counters(sto_system *s, uint64_t **v)
{
	size_t k = 0;
#define C(x) do { if (v) v[k] = &(x); k++; } while (0)
	C(s->tot.submitted); C(s->tot.completed); C(s->tot.failed); C(s->tot.reads); C(s->tot.writes);
	C(s->tot.bytes_read); C(s->tot.bytes_written); C(s->tot.bytes_stored); C(s->tot.bytes_drained);
	C(s->tot.net_msgs); C(s->tot.net_bytes); C(s->tot.space_waits);
	for (uint32_t i = 0; i < s->nservers; i++) {
		server *sv = &s->servers[i];
		for (unsigned d = 0; d < sv->ndev; d++) {
			sto_dev *x = sv->dev[d];
			C(sv->stored[d]); C(sv->drained[d]); C(sv->pending_drains[d]); C(x->used);
			C(x->st.reads); C(x->st.writes); C(x->st.bytes_read); C(x->st.bytes_written); C(x->st.busy);
			C(x->st.full_waits);
		}
	}
#undef C
	return k;
}

void sto_par_finish(sto_system *s)
{
	if (!s || !s->par)
		return;
	size_t n = counters(s, NULL);
	uint64_t **at = xcalloc(n, sizeof *at), *v = xcalloc(n, sizeof *v);
	counters(s, at);
	for (size_t i = 0; i < n; i++)
		v[i] = *at[i];
	par_sum_u64s(v, n);
	for (size_t i = 0; i < n; i++)
		*at[i] = v[i];
	free(at);
	free(v);
}

/* ------------------------------------------------------------ io.csv and device_busy.csv */

void sto_par_logs(sto_system *s, const sim_ctx *ctx, uint64_t busy_max)
{
	s->io_keyed = ctx;
	s->busy.keyed = ctx;
	s->busy.max = busy_max;
}

void stp_submission(sto_system *s, const sim_ctx *ctx)
{
	VEC_PUSH(&s->io_subs, sim_firing_key(ctx));
}

/* A submission of the whole run: its event's key, and the rank and number it had there. */
typedef struct sub_at {
	sim_key k;
	uint64_t rank, local;
} sub_at;

static int sub_order(const void *pa, const void *pb)
{
	const sub_at *a = pa, *b = pb;
	int c = sim_key_order(&a->k, &b->k);
	/* One event submits on one rank: equal keys are told apart by their order there. */
	return c ? c : (a->local > b->local) - (a->local < b->local);
}

/* Rank 0's table of io.csv ids: id of the local-th submission of rank r at ids[first[r] + local]. */
typedef struct id_map {
	FILE *out;
	uint64_t *ids, *first;
	uint64_t nranks, total;
} id_map;

/* Every rank's submissions (all, n bytes: per rank, its rank, its count and its keys), numbered in key order. */
static void number_submissions(id_map *m, const unsigned char *all, size_t n)
{
	m->nranks = par_size();
	m->first = xcalloc(m->nranks + 1, sizeof *m->first);
	VEC(sub_at) v = {0};
	for (size_t off = 0; off + 2 * sizeof(uint64_t) <= n;) {
		uint64_t hdr[2];
		memcpy(hdr, all + off, sizeof hdr);
		off += sizeof hdr;
		for (uint64_t i = 0; i < hdr[1]; i++, off += sizeof(sim_key)) {
			sub_at a = {.rank = hdr[0], .local = i};
			memcpy(&a.k, all + off, sizeof a.k);
			VEC_PUSH(&v, a);
		}
		if (hdr[0] < m->nranks)
			m->first[hdr[0] + 1] = hdr[1];
	}
	for (uint64_t r = 0; r < m->nranks; r++)
		m->first[r + 1] += m->first[r];
	m->total = v.len;
	m->ids = xcalloc(v.len ? v.len : 1, sizeof *m->ids);
	if (v.len)
		qsort(v.ptr, v.len, sizeof *v.ptr, sub_order);
	for (size_t i = 0; i < v.len; i++)
		m->ids[m->first[v.ptr[i].rank] + v.ptr[i].local] = i;
	VEC_FREE(&v);
}

/* An io.csv row kept on `rank`, its id that rank's submission number: written with the run's id. */
static void write_io_row(void *arg, uint32_t rank, const char *text, size_t len)
{
	const id_map *m = arg;
	const char *comma = memchr(text, ',', len);
	uint64_t local = strtoull(text, NULL, 10), at = m->first[rank] + local;
	if (!comma || rank >= m->nranks || at >= m->first[rank + 1]) {
		fprintf(stderr, "ncsim: internal error: an io.csv row without its submission\n");
		abort();
	}
	fprintf(m->out, "%llu%.*s\n", (unsigned long long)m->ids[at], (int)(len - (size_t)(comma - text)), comma);
}

void sto_par_io_merge(sto_system *s, FILE *io)
{
	if (!s || !s->io_keyed)
		return;
	s->io_keyed = NULL;
	VEC(unsigned char) buf = {0};
	uint64_t hdr[2] = {par_rank(), s->io_subs.len};
	size_t n = sizeof hdr + s->io_subs.len * sizeof *s->io_subs.ptr;
	VEC_GROW(&buf, n);
	memcpy(buf.ptr, hdr, sizeof hdr);
	if (s->io_subs.len)
		memcpy(buf.ptr + sizeof hdr, s->io_subs.ptr, s->io_subs.len * sizeof *s->io_subs.ptr);
	VEC_FREE(&s->io_subs);
	void *all;
	size_t alln;
	par_gather(buf.ptr, n, &all, &alln);
	VEC_FREE(&buf);
	id_map m = {.out = io};
	if (all)
		number_submissions(&m, all, alln);
	free(all);
	pln_merge_each(&s->io_rows, io ? UINT64_MAX : 0, write_io_row, &m);
	free(m.ids);
	free(m.first);
	pln_log_merge(&s->busy);
	s->busy.keyed = NULL;
}

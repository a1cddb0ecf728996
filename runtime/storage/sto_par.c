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

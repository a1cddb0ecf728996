/*
 * mpi_par.c - home copies and mirrors of envelopes across ranks (see mpi_par.h).
 */
#include "runtime/mpi/mpi_par.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "runtime/kernel/par_mirror.h"

/* What crosses ranks with a wire message: the envelope as the sender's side has it. */
typedef struct mpp_rec {
	uint64_t key;
	mp_env env;
} mpp_rec;

struct mp_par {
	par_run *pr;
	mp_envpool *ep;
	uint32_t me;
	int ch;             /* the kernel channel of the records */
	pmr_table *keys;    /* home keys and mirrors (par_mirror.h) */
};

static _Noreturn void broken(const char *what, uint64_t v)
{
	fprintf(stderr, "ncsim: internal error: MPI envelope %s (%#llx)\n", what, (unsigned long long)v);
	abort();
}

/* The record channel: an envelope another rank sent here in the window. */
static void on_record(void *arg, const void *in, size_t n)
{
	mp_par *p = arg;
	mpp_rec r;
	if (n != sizeof r)
		broken("record of a wrong size", n);
	memcpy(&r, in, sizeof r);
	if (pmr_mine(p->keys, r.key)) {
		/* Back at the home copy: what the receiver's side wrote. */
		mp_env *e = mp_env_at(p->ep, pmr_slot(r.key));
		e->rreq = r.env.rreq;
		e->t_recvpost = r.env.t_recvpost;
		return;
	}
	if (pmr_find(p->keys, r.key) != UINT32_MAX)
		return; /* the mirror exists: the home side writes nothing the receiver reads later */
	uint32_t ei = mp_env_new(p->ep);
	mp_env *e = mp_env_at(p->ep, ei);
	*e = r.env;
	e->sent_wait = 0;
	e->xr = MP_XR_MIRROR;
	pmr_put(p->keys, r.key, ei);
}

mp_par *mpp_new(par_run *pr, mp_envpool *ep)
{
	mp_par *p = xcalloc(1, sizeof *p);
	p->pr = pr;
	p->ep = ep;
	p->me = par_me(pr);
	p->keys = pmr_new(p->me);
	if (!p->keys) {
		fprintf(stderr, "ncsim: the MPI layer runs over at most %u ranks\n", PMR_MAX_RANKS);
		exit(2);
	}
	p->ch = par_channel_add(pr, on_record, p);
	return p;
}

void mpp_free(mp_par *p)
{
	if (!p)
		return;
	par_channel_drop(p->pr, p->ch);
	pmr_free(p->keys);
	free(p);
}

void mpp_created(mp_par *p, uint32_t ei, sim_eid to)
{
	mp_env *e = mp_env_at(p->ep, ei);
	if (par_owner(p->pr, to) == p->me) {
		e->xr = MP_XR_LOCAL;
		return;
	}
	e->xr = MP_XR_HOME;
	(void)pmr_home(p->keys, ei);
}

uint64_t mpp_wire(mp_par *p, uint32_t ei, sim_eid to)
{
	mp_env *e = mp_env_at(p->ep, ei);
	if (e->xr == MP_XR_LOCAL)
		return ei;
	uint64_t key = pmr_key(p->keys, ei);
	uint32_t dest = par_owner(p->pr, to);
	if (dest != p->me) {
		mpp_rec r = {.key = key, .env = *e};
		par_post_ch(p->pr, p->ch, dest, &r, sizeof r, SIM_FOREVER);
	}
	/* To the mirror's side (and in the home's own notices): the key; back to the home: its own slot. */
	return e->xr == MP_XR_HOME ? key : pmr_slot(key);
}

uint32_t mpp_local(mp_par *p, uint64_t cookie) { return pmr_local(p->keys, cookie); }

void mpp_forget(mp_par *p, uint32_t ei) { pmr_forget(p->keys, ei); }

/*
 * mpi_par.c - home copies and mirrors of envelopes across ranks (see mpi_par.h).
 */
#include "runtime/mpi/mpi_par.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Key layout: bit 63 set, 15 bits of home rank, 20 of slot generation, 28 of slot index. */
#define KEY_RANK_SHIFT 48
#define KEY_GEN_SHIFT 28
#define KEY_IDX_MASK ((1ULL << KEY_GEN_SHIFT) - 1)
#define KEY_GEN_MASK ((1ULL << (KEY_RANK_SHIFT - KEY_GEN_SHIFT)) - 1)
#define MAX_RANKS (1u << (63 - KEY_RANK_SHIFT))

/* What crosses ranks with a wire message: the envelope as the sender's side has it. */
typedef struct mpp_rec {
	uint64_t key;
	mp_env env;
} mpp_rec;

/* An entry of the key table: a mirror's key and its local index. key 0: empty. */
typedef struct mpp_slot {
	uint64_t key;
	uint32_t idx;
} mpp_slot;

struct mp_par {
	par_run *pr;
	mp_envpool *ep;
	uint32_t me;
	VEC(uint64_t) key;  /* per local envelope: its key (0: local, never crossed ranks) */
	VEC(uint32_t) gen;  /* per local envelope slot: home keys issued so far (the generation) */
	int ch;             /* the kernel channel of the records */
	mpp_slot *tab;      /* mirrors by key: open addressing, linear probing, at most half full */
	size_t cap, used;
};

static _Noreturn void broken(const char *what, uint64_t key)
{
	fprintf(stderr, "ncsim: internal error: MPI envelope %s (key %#llx)\n", what, (unsigned long long)key);
	abort();
}

static size_t slot_of(const mp_par *p, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 32) & (p->cap - 1);
}

static void tab_put(mp_par *p, uint64_t key, uint32_t idx);

static void tab_grow(mp_par *p)
{
	mpp_slot *old = p->tab;
	size_t n = p->cap;
	p->cap = n ? 2 * n : 64;
	p->tab = xcalloc(p->cap, sizeof *p->tab);
	p->used = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].key)
			tab_put(p, old[i].key, old[i].idx);
	free(old);
}

static void tab_put(mp_par *p, uint64_t key, uint32_t idx)
{
	if (2 * (p->used + 1) > p->cap)
		tab_grow(p);
	size_t i = slot_of(p, key);
	while (p->tab[i].key) {
		if (p->tab[i].key == key)
			broken("mirrored twice", key);
		i = (i + 1) & (p->cap - 1);
	}
	p->tab[i] = (mpp_slot){key, idx};
	p->used++;
}

/* Index of key's entry, or cap when absent. */
static size_t tab_find(const mp_par *p, uint64_t key)
{
	if (!p->cap)
		return 0;
	for (size_t i = slot_of(p, key);; i = (i + 1) & (p->cap - 1)) {
		if (p->tab[i].key == key)
			return i;
		if (!p->tab[i].key)
			return p->cap;
	}
}

/* Removes entry i, shifting back the entries of its probe run (no tombstones). */
static void tab_del(mp_par *p, size_t i)
{
	size_t mask = p->cap - 1;
	p->tab[i].key = 0;
	p->used--;
	for (size_t j = (i + 1) & mask; p->tab[j].key; j = (j + 1) & mask) {
		size_t home = slot_of(p, p->tab[j].key);
		/* j's entry may move to the hole i if i lies on its probe path [home, j) */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			p->tab[i] = p->tab[j];
			p->tab[j].key = 0;
			i = j;
		}
	}
}

/* Sizes the per-envelope arrays to cover index ei. */
static void cover(mp_par *p, uint32_t ei)
{
	while (p->key.len <= ei) {
		VEC_PUSH(&p->key, 0);
		VEC_PUSH(&p->gen, 0);
	}
}

/* The record channel: an envelope another rank sent here in the window. */
static void on_record(void *arg, const void *in, size_t n)
{
	mp_par *p = arg;
	mpp_rec r;
	if (n != sizeof r)
		broken("record of a wrong size", n);
	memcpy(&r, in, sizeof r);
	if ((uint32_t)((r.key & ~MPP_KEY_BIT) >> KEY_RANK_SHIFT) == p->me) {
		/* Back at the home copy: what the receiver's side wrote. */
		mp_env *e = mp_env_at(p->ep, (uint32_t)(r.key & KEY_IDX_MASK));
		e->rreq = r.env.rreq;
		e->t_recvpost = r.env.t_recvpost;
		return;
	}
	if (tab_find(p, r.key) != p->cap)
		return; /* the mirror exists: the home side writes nothing the receiver reads later */
	uint32_t ei = mp_env_new(p->ep);
	mp_env *e = mp_env_at(p->ep, ei);
	*e = r.env;
	e->sent_wait = 0;
	e->xr = MP_XR_MIRROR;
	cover(p, ei);
	p->key.ptr[ei] = r.key;
	tab_put(p, r.key, ei);
}

mp_par *mpp_new(par_run *pr, mp_envpool *ep)
{
	mp_par *p = xcalloc(1, sizeof *p);
	p->pr = pr;
	p->ep = ep;
	p->me = par_me(pr);
	if (p->me >= MAX_RANKS) {
		fprintf(stderr, "ncsim: the MPI layer runs over at most %u ranks\n", MAX_RANKS);
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
	VEC_FREE(&p->key);
	VEC_FREE(&p->gen);
	free(p->tab);
	free(p);
}

uint32_t mpp_rank_of(const mp_par *p, sim_eid eid) { return par_owner(p->pr, eid); }
uint32_t mpp_me(const mp_par *p) { return p->me; }

void mpp_created(mp_par *p, uint32_t ei, sim_eid to)
{
	mp_env *e = mp_env_at(p->ep, ei);
	cover(p, ei);
	if (par_owner(p->pr, to) == p->me) {
		e->xr = MP_XR_LOCAL;
		p->key.ptr[ei] = 0;
		return;
	}
	if (ei > KEY_IDX_MASK)
		broken("pool too large for keys", ei);
	e->xr = MP_XR_HOME;
	uint32_t g = p->gen.ptr[ei] = (uint32_t)((p->gen.ptr[ei] + 1) & KEY_GEN_MASK);
	p->key.ptr[ei] = MPP_KEY_BIT | ((uint64_t)p->me << KEY_RANK_SHIFT) | ((uint64_t)g << KEY_GEN_SHIFT) | ei;
}

uint64_t mpp_wire(mp_par *p, uint32_t ei, sim_eid to)
{
	mp_env *e = mp_env_at(p->ep, ei);
	if (e->xr == MP_XR_LOCAL)
		return ei;
	uint32_t dest = par_owner(p->pr, to);
	if (dest == p->me) /* the home's own notices (want_sent) and events */
		return e->xr == MP_XR_HOME ? p->key.ptr[ei] : ei;
	mpp_rec r = {.key = p->key.ptr[ei], .env = *e};
	par_post_ch(p->pr, p->ch, dest, &r, sizeof r, SIM_FOREVER);
	/* To the mirror's side: the key; back to the home: the home's own index. */
	return e->xr == MP_XR_HOME ? r.key : (uint32_t)(r.key & KEY_IDX_MASK);
}

uint32_t mpp_local(mp_par *p, uint64_t cookie)
{
	if ((uint32_t)((cookie & ~MPP_KEY_BIT) >> KEY_RANK_SHIFT) == p->me)
		return (uint32_t)(cookie & KEY_IDX_MASK);
	size_t i = tab_find(p, cookie);
	if (i == p->cap)
		broken("without a mirror", cookie);
	return p->tab[i].idx;
}

void mpp_forget(mp_par *p, uint32_t ei)
{
	if (ei >= p->key.len || !p->key.ptr[ei])
		return;
	if (mp_env_at(p->ep, ei)->xr == MP_XR_MIRROR) {
		size_t i = tab_find(p, p->key.ptr[ei]);
		if (i != p->cap)
			tab_del(p, i);
	}
	p->key.ptr[ei] = 0;
}

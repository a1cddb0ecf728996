/*
 * dragonfly_par.c - the packet dragonfly over several ranks (doc/parallel.md,
 * "The dragonfly's cross-entity state"): whole groups per rank, so only
 * global links cross ranks. Three kinds of state live on both sides of a cut
 * link or span the machine; this file keeps each exact:
 *
 * Lazy credits over cut links. The downstream router D returns a credit to
 * the upstream port U by reading U's `blocked` flag and pending list, which
 * U's rank holds. D's rank sends the credit instead as a record (the key of
 * the event that returned it, landing time, VC, bytes, the sequence number
 * D reserved for it); it lands at least a lookahead later, so U never needs
 * it inside the window. U's rank logs what its own events do to the cut
 * port's list (absorbs that took credits, blocks, unblocks, each with its
 * event key). At the window's end it merges both in key order and does what
 * credit_router would have done at each record's key:
 *
 *   U blocked                      -> CREDIT event (landing, D, reserved seq)
 *   list full of credits not due    -> the same (after taking those due at D's time)
 *   else                           -> appended to the list
 *
 * and, for a block after such an append, the CREDIT event block_port makes of
 * it, with the sequence number of its place in the list (block_port reserves
 * DF_NPEND numbers; the list keeps the order of return, so the credits U's
 * rank knew during the window are the list's head in both runs).
 *
 * Messages. The source NIC's rank owns the record; the first packet of a
 * message to another rank sends a copy to the destination's rank (a record
 * again: the packet crosses a cut link, so it arrives a window later at the
 * soonest), where the destination router completes it; its rank then has
 * the source's rank free the original. A packet names its record by index
 * with the owning rank in the top bits (msg_tag).
 *
 * The watchdog. Its state (armed, next tick) is global: it is armed by the
 * first block anywhere and ticks every `watchdog` ps while messages are open.
 * Every rank keeps a copy, updated at window ends from one small all-gather
 * when it may change: the earliest block of the window (when disarmed), and,
 * in the window of a tick, each rank's open-message count just before the
 * tick's key (the window is split there) and whether packets moved.
 * Its ticks are counted as the events they are in a sequential run.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/par.h"
#include "runtime/net/dragonfly_model.h"

#define MSG_SHIFT 24 /* a packet's message id: rank << MSG_SHIFT | index */
#define MSG_MASK ((1u << MSG_SHIFT) - 1)

typedef struct df_key {
	ncsim_time_t t;
	uint64_t seq;
	uint64_t src; /* sim_eid */
} df_key;

static int key_cmp(const df_key *a, const df_key *b)
{
	return sim_key_cmp(a->t, (sim_eid)a->src, a->seq, b->t, (sim_eid)b->src, b->seq);
}

enum { REC_CREDIT = 1, REC_MSG, REC_FREE };

/* A credit for a cut port, from the downstream router's rank. */
typedef struct rec_credit {
	uint32_t tag, vc;
	uint64_t ix;      /* the upstream port */
	df_key k;         /* the event that returned it */
	uint64_t ord;     /* order of return among the records of one event */
	ncsim_time_t t;   /* landing time */
	uint64_t seq;     /* reserved by the downstream router */
	uint64_t bytes;
} rec_credit;

typedef struct rec_msg {
	uint32_t tag, idx;
	df_msg m;
} rec_msg;

typedef struct rec_free {
	uint32_t tag, idx;
} rec_free;

enum { OP_ABSORB, OP_BLOCK, OP_UNBLOCK };

/* What U's own events did to a cut port's list during the window. */
typedef struct port_op {
	uint64_t ix, ord;
	df_key k;
	ncsim_time_t x;   /* OP_ABSORB: credits due by x were taken */
	uint64_t seq;     /* OP_BLOCK: first reserved number */
	uint32_t op, nk;  /* OP_BLOCK: credits the list held */
} port_op;

/* A cut port's list as the window began. */
typedef struct port_snap {
	uint64_t win;
	uint8_t n, blocked;
	ncsim_time_t t[DF_NPEND];
} port_snap;

/* The earliest watchdog arming of a window on this rank. */
typedef struct arm_at {
	df_key k;         /* the blocking event */
	uint64_t ent, seq; /* the blocking entity and its reserved number */
} arm_at;

/* What ranks tell each other when the watchdog may change. */
typedef struct wd_share {
	arm_at first, after; /* earliest arming of the window, and after the tick's key */
	uint64_t open;       /* open messages counted here before the tick (mod 2^64) */
	uint64_t moved;      /* packets moved here since the watchdog last looked */
} wd_share;

typedef VEC(df_msg) msg_vec;

typedef struct df_par {
	par_run *pr;
	par_model pm;
	uint32_t me, size;
	uint32_t *group_rank; /* copy of the partition's */
	uint64_t win;         /* windows begun */
	uint64_t ord;
	VEC(port_op) ops;
	VEC(rec_credit) credits;
	uint32_t *snap_of;    /* port ix -> its port_snap, DF_NONE if not a local cut port */
	port_snap *snaps;
	/* replay's grouping by port, indexed by port_snap: counts, then ends of each port's run */
	uint32_t *ccount, *ocount, *cend, *oend;
	VEC(uint32_t) touched;   /* ports (their port_snap) with records this window */
	VEC(rec_credit) cg;      /* the window's records, grouped by port */
	VEC(port_op) og;         /* the operations of those ports, grouped likewise */
	msg_vec *remote;      /* per source rank: copies of its messages to this rank */
	/* The watchdog (the same on every rank). */
	int armed;
	df_key tick;          /* the next tick */
	uint64_t wd_seq;      /* numbers of the ticks the watchdog schedules itself */
	uint64_t ticks;       /* ticks fired (events of a sequential run) */
	ncsim_time_t last_tick;
	int tick_in_window, snapped;
	arm_at first, after;  /* this rank's earliest arming in the window, and after the tick */
	uint64_t open_snap, moved_snap, moved_base;
	int overflow;         /* message indices ran out (MSG_SHIFT bits) */
} df_par;

static const arm_at NO_ARM = {.k = {.t = SIM_FOREVER, .seq = UINT64_MAX, .src = UINT64_MAX}};

static df_key firing_key(const df_model *m)
{
	const sim_event *ev = sim_firing(m->ctx);
	return (df_key){.t = ev->time, .seq = ev->seq, .src = ev->src};
}

static uint32_t rank_of_router(const df_par *P, const df_model *m, uint32_t r) { return P->group_rank[m->grp[r]]; }

static uint32_t rank_of_node(const df_par *P, const df_model *m, uint32_t n)
{
	return P->group_rank[m->grp[m->node_rt[n]]];
}

/* ------------------------------------------------------------ credits */

/* Keeps the cut port's list as the window began, before the first change the window makes. */
static void snap(df_model *m, size_t ix)
{
	df_par *P = m->par;
	port_snap *s = &P->snaps[P->snap_of[ix]];
	if (s->win == P->win)
		return;
	const df_port *Pt = &m->ports[ix];
	s->win = P->win;
	s->n = Pt->npend;
	s->blocked = Pt->blocked;
	for (unsigned i = 0; i < Pt->npend; i++)
		s->t[i] = m->pend[ix * DF_NPEND + i].t;
}

static void log_op(df_model *m, size_t ix, uint32_t op, ncsim_time_t x, uint64_t seq, uint32_t nk)
{
	df_par *P = m->par;
	snap(m, ix);
	port_op o = {.ix = ix, .ord = P->ord++, .k = firing_key(m), .x = x, .seq = seq, .op = op, .nk = nk};
	VEC_PUSH(&P->ops, o);
}

void df_par_absorbing(df_model *m, size_t ix, ncsim_time_t t)
{
	if (!m->par)
		return;
	/* Only an absorb that takes something changes the list (see the replay). */
	const df_pend *e = m->pend + ix * DF_NPEND;
	for (unsigned i = 0; i < m->ports[ix].npend; i++)
		if (e[i].t <= t) {
			log_op(m, ix, OP_ABSORB, t, 0, 0);
			return;
		}
}

void df_par_blocking(df_model *m, size_t ix, uint64_t seq)
{
	if (m->par)
		log_op(m, ix, OP_BLOCK, 0, seq, m->ports[ix].npend);
}

void df_par_unblocking(df_model *m, size_t ix)
{
	if (m->par)
		log_op(m, ix, OP_UNBLOCK, 0, 0, 0);
}

void df_par_credit(df_model *m, size_t ix, uint8_t vc, uint32_t bytes, ncsim_time_t t, uint64_t seq)
{
	df_par *P = m->par;
	rec_credit c = {.tag = REC_CREDIT, .vc = vc, .ix = ix, .k = firing_key(m), .ord = P->ord++, .t = t,
	                .seq = seq, .bytes = bytes};
	par_post(P->pr, rank_of_router(P, m, (uint32_t)(ix / m->nports)), &c, sizeof c, t);
}

/* Queues a CREDIT event for port ix of its router with key (t, src, seq), as credit_router or block_port would. */
static void credit_event(df_model *m, size_t ix, ncsim_time_t t, sim_eid src, uint64_t seq, uint32_t bytes, uint32_t vc)
{
	sim_event ev = {.time = t, .seq = seq, .src = src, .dst = m->router0 + (uint32_t)(ix / m->nports),
	                .kind = DF_R_CREDIT};
	*SIM_PAYLOAD(&ev, df_credit) = (df_credit){.bytes = bytes, .port = (uint16_t)(ix % m->nports), .vc = (uint8_t)vc};
	if (t < sim_now(m->ctx)) { /* a packet shorter than the lookahead assumed */
		par_violation(m->par->pr, "a credit returned over a global link landed", t);
		return;
	}
	sim_insert_remote(m->ctx, &ev);
}

/* Credits of the window-start list still there in the sequential run at the watermark wm. */
static unsigned known_left(const port_snap *s, ncsim_time_t wm)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->n; i++)
		n += s->t[i] > wm;
	return n;
}

/*
 * The window's replay of one cut port: the records c[0..nc) and the port's
 * own operations o[0..no), both in key order (see the top of the file).
 */
static void replay_port(df_model *m, size_t ix, const rec_credit *c, size_t nc, const port_op *o, size_t no)
{
	df_par *P = m->par;
	snap(m, ix); /* no operation this window: the list is as it began */
	const port_snap *s = &P->snaps[P->snap_of[ix]];
	sim_eid D = m->router0 + m->topo.peer[ix], U = m->router0 + (uint32_t)(ix / m->nports);
	int blocked = s->blocked, cleared = 0;
	ncsim_time_t wm = 0;
	df_pend w[DF_NPEND];
	unsigned nw = 0;
	size_t i = 0, j = 0;
	while (i < nc || j < no) {
		if (j < no && (i == nc || key_cmp(&o[j].k, &c[i].k) < 0)) {
			const port_op *op = &o[j++];
			if (op->op == OP_ABSORB) {
				wm = op->x > wm ? op->x : wm;
			} else if (op->op == OP_BLOCK) {
				for (unsigned q = 0; q < nw; q++)
					credit_event(m, ix, w[q].t, U, op->seq + op->nk + q, w[q].bytes, w[q].vc);
				nw = 0;
				cleared = blocked = 1;
			} else {
				blocked = 0;
			}
			continue;
		}
		const rec_credit *r = &c[i++];
		if (!blocked) {
			unsigned n = (cleared ? 0 : known_left(s, wm)) + nw;
			if (n == DF_NPEND) { /* credit_router takes the credits due at D's time first */
				wm = r->k.t > wm ? r->k.t : wm;
				n = (cleared ? 0 : known_left(s, wm)) + nw;
			}
			if (n < DF_NPEND) {
				w[nw++] = (df_pend){.t = r->t, .bytes = (uint32_t)r->bytes, .vc = r->vc};
				continue;
			}
		}
		credit_event(m, ix, r->t, D, r->seq, (uint32_t)r->bytes, r->vc);
	}
	/* The list as the sequential run has it: the credits D's time took, then the window's appends. */
	df_port *Pt = &m->ports[ix];
	Pt->link = DF_LINK_GLOBAL; /* not an operation of the port's own: not logged */
	df_port_absorb(m, ix, wm);
	Pt->link = DF_CUT_LOCAL;
	for (unsigned q = 0; q < nw; q++)
		m->pend[ix * DF_NPEND + Pt->npend++] = w[q];
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/*
 * Groups the window's records and operations by port into P->cg and P->og,
 * stably, the ports with records in P->touched in the order of their ports
 * (port_snap numbers follow port numbers). A stable grouping is the merge's
 * key order: a port's records all come from its one peer router's rank, in
 * the order of that rank's events, and U's rank logs its operations in its own.
 */
static void group_by_port(df_par *P)
{
	P->touched.len = 0;
	for (size_t i = 0; i < P->credits.len; i++) {
		uint32_t s = P->snap_of[P->credits.ptr[i].ix];
		if (P->ccount[s]++ == 0)
			VEC_PUSH(&P->touched, s);
	}
	if (P->touched.len > 1)
		qsort(P->touched.ptr, P->touched.len, sizeof *P->touched.ptr, by_u32);
	for (size_t i = 0; i < P->ops.len; i++) {
		uint32_t s = P->snap_of[P->ops.ptr[i].ix];
		P->ocount[s] += P->ccount[s] != 0; /* a port whose operations met no record keeps its list */
	}
	uint32_t c = 0, o = 0;
	for (size_t i = 0; i < P->touched.len; i++) {
		uint32_t s = P->touched.ptr[i];
		P->cend[s] = c;
		P->oend[s] = o;
		c += P->ccount[s];
		o += P->ocount[s];
	}
	VEC_GROW(&P->cg, c);
	VEC_GROW(&P->og, o + 1);
	P->cg.len = c;
	P->og.len = o;
	for (size_t i = 0; i < P->credits.len; i++)
		P->cg.ptr[P->cend[P->snap_of[P->credits.ptr[i].ix]]++] = P->credits.ptr[i];
	for (size_t i = 0; i < P->ops.len; i++) {
		uint32_t s = P->snap_of[P->ops.ptr[i].ix];
		if (P->ccount[s])
			P->og.ptr[P->oend[s]++] = P->ops.ptr[i];
	}
}

static void replay(df_model *m)
{
	df_par *P = m->par;
	group_by_port(P);
	for (size_t i = 0; i < P->touched.len; i++) {
		uint32_t s = P->touched.ptr[i], nc = P->ccount[s], no = P->ocount[s];
		const rec_credit *c = P->cg.ptr + P->cend[s] - nc;
		for (uint32_t k = 1; k < nc; k++)
			assert(key_cmp(&c[k - 1].k, &c[k].k) <= 0);
		replay_port(m, c->ix, c, nc, P->og.ptr + P->oend[s] - no, no);
		P->ccount[s] = P->ocount[s] = 0;
	}
	P->credits.len = 0;
	P->ops.len = 0;
}

/* ------------------------------------------------------------ messages */

df_msg *df_par_msg(df_model *m, uint32_t id)
{
	df_par *P = m->par;
	uint32_t r = id >> MSG_SHIFT, idx = id & MSG_MASK;
	if (r == P->me)
		return &m->msgs.ptr[idx];
	/* The copy left the source's rank with the first packet, a window before any packet could arrive. */
	assert(r < P->size && idx < P->remote[r].len && P->remote[r].ptr[idx].left > 0);
	return &P->remote[r].ptr[idx];
}

void df_par_sent(df_model *m, uint32_t mi)
{
	df_par *P = m->par;
	const df_msg *M = &m->msgs.ptr[mi];
	uint32_t r = rank_of_node(P, m, M->dst);
	if (r == P->me)
		return;
	rec_msg rec = {.tag = REC_MSG, .idx = mi, .m = *M};
	par_post(P->pr, r, &rec, sizeof rec, SIM_FOREVER);
}

static void free_local(df_model *m, uint32_t idx)
{
	m->msgs.ptr[idx].next = m->msg_free;
	m->msg_free = idx;
}

void df_par_done(df_model *m, uint32_t id)
{
	df_par *P = m->par;
	uint32_t r = id >> MSG_SHIFT, idx = id & MSG_MASK;
	if (r == P->me) {
		free_local(m, idx);
		return;
	}
	rec_free f = {.tag = REC_FREE, .idx = idx};
	par_post(P->pr, r, &f, sizeof f, SIM_FOREVER);
}

static void got_msg(df_par *P, uint32_t from, const rec_msg *rec, uint32_t packet_size)
{
	msg_vec *v = &P->remote[from];
	if (rec->idx >= v->len) {
		VEC_GROW(v, (size_t)rec->idx + 1);
		memset(v->ptr + v->len, 0, ((size_t)rec->idx + 1 - v->len) * sizeof *v->ptr);
		v->len = (size_t)rec->idx + 1;
	}
	df_msg *M = &v->ptr[rec->idx];
	*M = rec->m;
	M->left = M->bytes ? (M->bytes + packet_size - 1) / packet_size : 1;
	M->nonmin = 0;
	M->hops = 0;
}

/* ------------------------------------------------------------ window hooks */

/*
 * The records of the window, rank by rank. A record does not say which rank
 * sent it, but each rank's records arrive as one run, and a message copy is
 * the only kind that needs it: the rank is that of the message's source node.
 */
static void on_window_end(void *arg, const void *in, size_t n)
{
	df_model *m = arg;
	df_par *P = m->par;
	const unsigned char *p = in, *e = p + n;
	while (p < e) {
		uint32_t tag;
		memcpy(&tag, p, sizeof tag);
		if (tag == REC_CREDIT) {
			rec_credit c;
			memcpy(&c, p, sizeof c);
			VEC_PUSH(&P->credits, c);
			p += sizeof c;
		} else if (tag == REC_MSG) {
			rec_msg r;
			memcpy(&r, p, sizeof r);
			got_msg(P, rank_of_node(P, m, r.m.src), &r, m->cfg.packet_size);
			p += sizeof r;
		} else {
			rec_free f;
			memcpy(&f, p, sizeof f);
			free_local(m, f.idx);
			p += sizeof f;
		}
	}
	replay(m);
	P->win++;
	if (m->msgs.len > MSG_MASK && !P->overflow) {
		P->overflow = 1;
		fprintf(stderr, "ncsim: dragonfly: more than %u messages open on one rank of a parallel run\n", MSG_MASK);
		sim_stop(m->ctx, 1); /* the next window's reduction stops every rank */
	}
}

void df_par_arm(df_model *m, uint64_t seq)
{
	df_par *P = m->par;
	arm_at a = {.k = firing_key(m), .ent = sim_self(m->ctx), .seq = seq};
	if (key_cmp(&a.k, &P->first.k) < 0)
		P->first = a;
	if (P->snapped && key_cmp(&a.k, &P->after.k) < 0)
		P->after = a;
}

static uint64_t on_contrib(void *arg)
{
	df_model *m = arg;
	/* A tick in the window, or an arming while disarmed, needs the all-gather: 0 asks for it. */
	return m->par->tick_in_window || (!m->par->armed && m->par->first.k.t != SIM_FOREVER) ? 0 : 1;
}

static void arm(df_model *m, const arm_at *a)
{
	df_par *P = m->par;
	P->armed = 1;
	P->tick = (df_key){.t = a->k.t + m->cfg.watchdog, .seq = a->seq, .src = a->ent};
	P->moved_base = m->moved;
}

/* The earliest arming of every rank's a (offset off in wd_share). */
static const arm_at *earliest(const wd_share *all, uint32_t n, int after)
{
	const arm_at *best = NULL;
	for (uint32_t r = 0; r < n; r++) {
		const arm_at *a = after ? &all[r].after : &all[r].first;
		if (a->k.t != SIM_FOREVER && (!best || key_cmp(&a->k, &best->k) < 0))
			best = a;
	}
	return best;
}

/* The tick at P->tick, with every rank's counts just before it. 1 on a deadlock. */
static int fire_tick(df_model *m, const wd_share *all)
{
	df_par *P = m->par;
	uint64_t open = 0, moved = 0;
	for (uint32_t r = 0; r < P->size; r++) {
		open += all[r].open;
		moved += all[r].moved;
	}
	P->ticks++;
	P->last_tick = P->tick.t;
	if (!open) {
		P->armed = 0;
		const arm_at *a = earliest(all, P->size, 1);
		if (a)
			arm(m, a);
		return 0;
	}
	if (!moved) {
		free(m->deadlock);
		m->deadlock = xasprintf("dragonfly: deadlock at t=%.3f us: no packet moved for %.3f us",
		                        (double)P->tick.t / 1e6, (double)m->cfg.watchdog / 1e6);
		if (P->me == 0)
			fprintf(stderr, "%s\n", m->deadlock);
		return 1;
	}
	P->tick = (df_key){.t = P->tick.t + m->cfg.watchdog, .seq = P->wd_seq++, .src = m->wd};
	P->moved_base = P->moved_snap;
	return 0;
}

static int on_agreed(void *arg, uint64_t min, ncsim_time_t *next)
{
	df_model *m = arg;
	df_par *P = m->par;
	int stop = 0;
	if (min == 0) {
		wd_share mine = {.first = P->first, .after = P->after, .open = P->open_snap,
		                 .moved = P->moved_snap - P->moved_base}, *all = xcalloc(P->size, sizeof *all);
		par_allgather(&mine, sizeof mine, all);
		if (P->tick_in_window) {
			stop = fire_tick(m, all);
		} else if (!P->armed) {
			const arm_at *a = earliest(all, P->size, 0);
			if (a)
				arm(m, a);
		}
		free(all);
	}
	P->tick_in_window = P->snapped = 0;
	P->first = P->after = NO_ARM;
	*next = P->armed ? P->tick.t : SIM_FOREVER;
	return stop;
}

static int on_cut(void *arg, ncsim_time_t first, ncsim_time_t last, ncsim_time_t *t, sim_eid *src, uint64_t *seq)
{
	df_model *m = arg;
	df_par *P = m->par;
	if (!P->armed || P->tick.t < first || P->tick.t > last)
		return 0;
	P->tick_in_window = 1;
	*t = P->tick.t;
	*src = (sim_eid)P->tick.src;
	*seq = P->tick.seq;
	return 1;
}

static void on_at_cut(void *arg)
{
	df_model *m = arg;
	df_par *P = m->par;
	P->open_snap = m->msgs_open;
	P->moved_snap = m->moved;
	P->snapped = 1;
}

static void on_final(void *arg, uint64_t *events, ncsim_time_t *end)
{
	df_model *m = arg;
	*events = m->par->ticks;
	*end = m->par->ticks ? m->par->last_tick : 0;
}

/* ------------------------------------------------------------ set-up, end */

int df_par_attach(net_model *nm, par_run *pr, const df_partition *part, unsigned tclass, char **err)
{
	df_model *m = (df_model *)nm;
	const df_topo *T = &m->topo;
	uint32_t me = par_me(pr);
	if (me > (UINT32_MAX >> MSG_SHIFT))
		return df_fail(err, "the dragonfly runs over at most %u ranks", (UINT32_MAX >> MSG_SHIFT) + 1);
	df_par *P = xcalloc(1, sizeof *P);
	P->pr = pr;
	P->me = me;
	P->size = part->ranks;
	P->group_rank = xmalloc(T->g * sizeof *P->group_rank);
	memcpy(P->group_rank, part->group_rank, T->g * sizeof *P->group_rank);
	P->remote = xcalloc(P->size, sizeof *P->remote);
	P->first = P->after = NO_ARM;
	size_t np = (size_t)T->nrouters * m->nports, nsnap = 0;
	P->snap_of = xmalloc(np * sizeof *P->snap_of);
	for (size_t ix = 0; ix < np; ix++) {
		P->snap_of[ix] = DF_NONE;
		uint32_t port = (uint32_t)(ix % m->nports);
		if (df_topo_class(T, port) != DF_GLOBAL || T->peer[ix] == DF_NONE)
			continue;
		uint32_t ur = rank_of_router(P, m, (uint32_t)(ix / m->nports)), dr = rank_of_router(P, m, T->peer[ix]);
		if (ur == dr)
			continue;
		if (ur == me) {
			m->ports[ix].link = DF_CUT_LOCAL;
			P->snap_of[ix] = (uint32_t)nsnap++;
		} else if (dr == me) {
			m->ports[ix].link = DF_CUT_REMOTE;
			m->ports[ix].blocked = 1; /* credit_router's rare path, which sends the record */
		}
	}
	P->snaps = xcalloc(nsnap ? nsnap : 1, sizeof *P->snaps);
	P->ccount = xcalloc(nsnap ? nsnap : 1, sizeof *P->ccount);
	P->ocount = xcalloc(nsnap ? nsnap : 1, sizeof *P->ocount);
	P->cend = xcalloc(nsnap ? nsnap : 1, sizeof *P->cend);
	P->oend = xcalloc(nsnap ? nsnap : 1, sizeof *P->oend);
	for (size_t i = 0; i < nsnap; i++)
		P->snaps[i].win = UINT64_MAX;
	P->pm = (par_model){.arg = m, .window_end = on_window_end, .contrib = on_contrib, .agreed = on_agreed,
	                    .cut = on_cut, .at_cut = on_at_cut, .final = on_final};
	(void)nl_label(&m->labels, 0, tclass);
	m->par = P;
	m->msg_tag = me << MSG_SHIFT;
	par_set_model(pr, &P->pm);
	return 0;
}

int df_par_labels(net_model *nm, unsigned njobs, char **err)
{
	df_model *m = (df_model *)nm;
	if ((size_t)njobs * NET_NCLASSES > NL_MAX - 1)
		return df_fail(err, "a run over ranks labels the links of at most %u jobs", (NL_MAX - 1) / NET_NCLASSES);
	for (unsigned j = 0; j < njobs; j++)
		for (unsigned c = 0; c < NET_NCLASSES; c++)
			(void)nl_label(&m->labels, j, c);
	return 0;
}

/* Element-wise sums of n u64 values at stride `stride` bytes from base (gathered, reduced, scattered). */
static void sum_strided(void *base, size_t n, size_t stride)
{
	uint64_t *v = xmalloc((n ? n : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		memcpy(&v[i], (char *)base + i * stride, sizeof *v);
	par_sum_u64s(v, n);
	for (size_t i = 0; i < n; i++)
		memcpy((char *)base + i * stride, &v[i], sizeof *v);
	free(v);
}

/* The counters of every rank, summed (or maxed) into every rank's model, so the outputs read them as one run's. */
static void reduce_stats(df_model *m)
{
	const df_topo *T = &m->topo;
	size_t np = (size_t)T->nrouters * m->nports;
	sum_strided(&m->pstat[0].bytes, np, sizeof *m->pstat);
	sum_strided(&m->pstat[0].busy, np, sizeof *m->pstat);
	sum_strided(&m->pstat[0].sat, np, sizeof *m->pstat);
	sum_strided(&m->nics[0].bytes, T->nnodes, sizeof *m->nics);
	sum_strided(&m->nics[0].busy, T->nnodes, sizeof *m->nics);
	sum_strided(&m->nics[0].sat, T->nnodes, sizeof *m->nics);
	par_sum_u64s(m->node_inj, T->nnodes);
	par_sum_u64s(m->node_ej, T->nnodes);
	for (uint32_t l = 0; l < m->labels.n; l++)
		par_sum_u64s(m->labels.bytes[l], m->labels.nslots);
	par_sum_u64s((uint64_t *)(void *)&m->base.totals, sizeof m->base.totals / sizeof(uint64_t));
	uint64_t s[4] = {m->st.packets, m->st.packet_hops, m->st.nonmin_packets, m->msgs_open};
	par_sum_u64s(s, 4);
	m->st.packets = s[0];
	m->st.packet_hops = s[1];
	m->st.nonmin_packets = s[2];
	m->msgs_open = s[3];
	m->last_delivery = par_max_u64(m->last_delivery);
	for (int c = 0; c < NET_NCLASSES; c++) {
		df_class_stats *cs = &m->st.cls[c];
		/* Latencies are integers and their double sum is exact below 2^53 ps, so an integer sum is the same. */
		uint64_t v[5] = {cs->msgs, cs->bytes, cs->nonminimal, cs->hops, (uint64_t)cs->lat_sum};
		par_sum_u64s(v, 5);
		cs->msgs = v[0];
		cs->bytes = v[1];
		cs->nonminimal = v[2];
		cs->hops = v[3];
		cs->lat_sum = (double)v[4];
		cs->lat_max = par_max_u64(cs->lat_max);
		par_sum_u64s(&cs->lat.count, 1 + LH_BUCKETS);
	}
}

int df_par_finish(net_model *nm)
{
	df_model *m = (df_model *)nm;
	df_par *P = m->par;
	if (!P)
		return 0;
	reduce_stats(m);
	int deadlock = m->deadlock != NULL;
	size_t np = (size_t)m->topo.nrouters * m->nports;
	for (size_t ix = 0; ix < np; ix++)
		if (m->ports[ix].link == DF_CUT_LOCAL || m->ports[ix].link == DF_CUT_REMOTE) {
			if (m->ports[ix].link == DF_CUT_REMOTE)
				m->ports[ix].blocked = 0;
			m->ports[ix].link = DF_LINK_GLOBAL;
		}
	m->par = NULL;
	m->msg_tag = 0;
	for (uint32_t r = 0; r < P->size; r++)
		VEC_FREE(&P->remote[r]);
	free(P->remote);
	VEC_FREE(&P->ops);
	VEC_FREE(&P->credits);
	free(P->snap_of);
	free(P->snaps);
	free(P->ccount);
	free(P->ocount);
	free(P->cend);
	free(P->oend);
	VEC_FREE(&P->touched);
	VEC_FREE(&P->cg);
	VEC_FREE(&P->og);
	free(P->group_rank);
	free(P);
	return deadlock ? -1 : 0;
}

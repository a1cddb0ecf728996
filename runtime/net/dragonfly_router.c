/*
 * dragonfly_router.c - the router entity: input buffers, output arbitration
 * and link timing.
 *
 * Events per packet and hop: ARRIVE (the packet's head is through the
 * router's pipeline and routed) and a WAKE only when the output port was
 * busy. Output ports are modelled by the time they become free ("next free
 * time"), so a port that is idle forwards a packet inside the ARRIVE handler;
 * when nothing waits there either, the packet passes through without taking
 * a slot (pass_through).
 * The credit back to the upstream port is an event only when that port is
 * blocked waiting for it; otherwise it is a lazy credit (dragonfly_model.h).
 *
 * Buffers: the packet holds its input-buffer space (credits of the upstream
 * port) until its tail leaves this router; it waits in the FIFO of its
 * (output port, output VC). This is output-queued switching with input-buffer
 * flow control; head-of-line blocking between different output ports of one
 * input is not modelled. Virtual cut-through: a packet is forwarded only when
 * the downstream VC has room for all of it.
 *
 * Timing of one hop for a packet of S bytes, chunk C = min(chunk_size, S):
 *
 *   s = time the port starts sending (arbitration won, credits held)
 *   e = max(s + ser(S), tail_ready + ser(C))      tail leaves (cut-through:
 *                                                 the tail cannot overtake)
 *   next head ready  = s + ser(C) + latency + router_delay
 *   next tail ready  = e + latency + router_delay
 *   upstream credit  = e + credit_delay(class of the input link)
 *
 * With chunk_size >= packet_size this is store-and-forward per packet, the
 * timing CODES uses when chunk_size = packet_size. The zero-load latency of a
 * packet over links 0..L (L routers) is therefore
 *   sum_i (latency_i + ser_i(C)) + L * router_delay + max_i (ser_i(S) - ser_i(C)).
 * Round-robin arbitration runs over the VCs of an output port, each VC FIFO.
 *
 * Accept mode (credit_return = accept, CODES' router_packet_receive,
 * router_packet_send and router_buf_update in dragonfly-dally.C): a packet
 * takes the credits of its output VC when it arrives, or waits in the stall
 * FIFO for them (dragonfly_model.h); the upstream credit leaves when it gets
 * them; arbitration then only picks among accepted packets, and a terminal
 * port's credits come back when the packet reaches its NIC.
 */
#include "runtime/net/dragonfly_model.h"

static uint32_t slot_alloc(df_router *rt)
{
	if (rt->free_slot != DF_NONE) {
		uint32_t i = rt->free_slot;
		rt->free_slot = rt->slots.ptr[i].next;
		return i;
	}
	VEC_GROW(&rt->slots, rt->slots.len + 1);
	return (uint32_t)rt->slots.len++;
}

static void schedule_wake(df_model *m, df_router *rt, uint32_t port, df_port *P, ncsim_time_t now)
{
	if (P->wake)
		return;
	P->wake = 1;
	sim_event *ev = sim_event_new(m->ctx, m->router0 + rt->id, P->free_at - now, DF_R_WAKE);
	*SIM_PAYLOAD(ev, uint16_t) = (uint16_t)port;
	sim_schedule(m->ctx, ev);
}

/*
 * A global port's list keeps the order in which the credits were returned
 * (a stable compaction), so that it is the same whether or not the credits
 * of the current window are in it yet (doc/parallel.md, "Lazy credits");
 * block_port turns the list into events in that order.
 */
static inline void absorb_stable(df_port *P, df_pend *e, ncsim_time_t t)
{
	unsigned n = P->npend, i = 0;
	while (i < n && e[i].t > t) /* the credits before the first one due stay where they are */
		i++;
	unsigned k = i;
	for (; i < n; i++) {
		if (e[i].t <= t)
			P->credits[e[i].vc] += (int32_t)e[i].bytes;
		else
			e[k++] = e[i];
	}
	P->npend = (uint8_t)k;
}

/* df_port_absorb of a port whose link crosses ranks: the change is logged first (out of the common path). */
static __attribute__((noinline, cold)) void absorb_cut(df_model *m, size_t ix, ncsim_time_t t)
{
	df_par_absorbing(m, ix, t);
	absorb_stable(&m->ports[ix], m->pend + ix * DF_NPEND, t);
}

void df_port_absorb(df_model *m, size_t ix, ncsim_time_t t)
{
	df_port *P = &m->ports[ix];
	df_pend *e = m->pend + ix * DF_NPEND;
	if (P->link == DF_LINK_GLOBAL) {
		absorb_stable(P, e, t);
		return;
	}
	if (UNLIKELY(P->link != DF_LINK_PLAIN)) {
		absorb_cut(m, ix, t);
		return;
	}
	/* A local port's list is never cut: order does not matter beyond this router. */
	unsigned n = P->npend;
	for (unsigned i = 0; i < n;) {
		if (e[i].t <= t) {
			P->credits[e[i].vc] += (int32_t)e[i].bytes;
			e[i] = e[--n];
		} else {
			i++;
		}
	}
	P->npend = (uint8_t)n;
}

void df_nic_absorb(df_nic *n, ncsim_time_t t)
{
	unsigned k = n->npend;
	for (unsigned i = 0; i < k;) {
		if (n->pend_t[i] <= t) {
			n->credits += n->pend_b[i];
			--k;
			n->pend_t[i] = n->pend_t[k];
			n->pend_b[i] = n->pend_b[k];
		} else {
			i++;
		}
	}
	n->npend = (uint8_t)k;
}

/*
 * `bytes` of buffer on VC vc come back to output port uport of router ur at
 * time t; seq: the sequence number reserved for the credit's event, or
 * DF_NOSEQ to take the next one if it becomes an event.
 */
static inline __attribute__((always_inline)) void credit_router(df_model *m, uint32_t ur, uint32_t uport, uint8_t vc,
                                                                 uint32_t bytes, ncsim_time_t t, ncsim_time_t now,
                                                                 uint64_t seq)
{
	size_t ix = df_pix(m, ur, uport);
	df_port *P = &m->ports[ix];
	if (!P->blocked) {
		if (t <= now) {
			P->credits[vc] += (int32_t)bytes;
			return;
		}
		if (P->npend == DF_NPEND)
			df_port_absorb(m, ix, now);
		if (P->npend < DF_NPEND) {
			df_pend *e = &m->pend[ix * DF_NPEND + P->npend++];
			e->t = t;
			e->bytes = bytes;
			e->vc = vc;
			return;
		}
	}
	if (UNLIKELY(P->link == DF_CUT_REMOTE)) { /* reads as blocked on this rank */
		df_par_credit(m, ix, vc, bytes, t, seq);
		return;
	}
	sim_event *ev = sim_event_new(m->ctx, m->router0 + ur, t - now, DF_R_CREDIT);
	*SIM_PAYLOAD(ev, df_credit) = (df_credit){.bytes = bytes, .port = (uint16_t)uport, .vc = vc};
	if (seq == DF_NOSEQ)
		sim_schedule(m->ctx, ev);
	else
		sim_schedule_seq(m->ctx, ev, seq);
}

/* `bytes` of the terminal input buffer come back to NIC n at time t. */
static inline __attribute__((always_inline)) void credit_nic(df_model *m, df_nic *n, uint32_t bytes, ncsim_time_t t,
                                                             ncsim_time_t now)
{
	if (n->sat_since == DF_NEVER) {
		if (t <= now) {
			n->credits += bytes;
			return;
		}
		if (n->npend == DF_NPEND)
			df_nic_absorb(n, now);
		if (n->npend < DF_NPEND) {
			n->pend_t[n->npend] = t;
			n->pend_b[n->npend++] = bytes;
			return;
		}
	}
	df_nic_ev_sent(n, t);
	sim_event *ev = sim_event_new(m->ctx, m->nic0 + n->id, t - now, DF_N_CREDIT);
	*SIM_PAYLOAD(ev, df_credit) = (df_credit){.bytes = bytes};
	sim_schedule(m->ctx, ev);
}

/* Returns the packet's input-buffer space to whoever feeds input port in_port, at time t (inlined: hot). */
static inline __attribute__((always_inline)) void return_credit(df_model *m, df_router *rt, const df_pkt *pk,
                                                                ncsim_time_t t, ncsim_time_t now)
{
	const df_topo *T = &m->topo;
	size_t ix = df_pix(m, rt->id, pk->in_port);
	uint32_t c = df_cost(m, pk->bytes);
	if (pk->in_port < T->p) {
		df_nic *n = &m->nics[T->peer[ix]];
		if (pk->bytes != m->cfg.packet_size)
			n->short_out--;
		credit_nic(m, n, c, t + m->cfg.credit_delay[DF_TERMINAL], now);
	} else {
		/*
		 * In a parallel run a credit over a global link reserves a sequence
		 * number of this router whether or not it becomes an event, so that
		 * this router's later numbers never depend on the upstream router's
		 * state, which may live on another rank. Reserving renumbers the
		 * router's events monotonically, so the sequential run, which does
		 * not reserve, pops them in the same order.
		 */
		enum df_class cls = df_topo_class(T, pk->in_port);
		uint64_t seq = cls == DF_GLOBAL && UNLIKELY(m->par) ? sim_reserve_seqs(m->ctx, 1) : DF_NOSEQ;
		credit_router(m, T->peer[ix], T->peer_port[ix], pk->vc, c, t + m->cfg.credit_delay[cls], now, seq);
	}
}

/* Appends slot si to the FIFO (head, tail) of VC vc. */
static void fifo_push(df_router *rt, uint32_t *head, uint32_t *tail, uint8_t vc, uint32_t si)
{
	rt->slots.ptr[si].next = DF_NONE;
	if (tail[vc] == DF_NONE)
		head[vc] = si;
	else
		rt->slots.ptr[tail[vc]].next = si;
	tail[vc] = si;
}

/* Appends slot si to VC vc of output port P. */
static inline void port_push(df_router *rt, df_port *P, uint8_t vc, uint32_t si)
{
	fifo_push(rt, P->qhead, P->qtail, vc, si);
	P->vcq |= (uint8_t)(1u << vc);
}

/*
 * Port ix has packets that wait for credits: from now on its credits come as
 * events, those under way too. In a parallel run the pending credit i
 * becomes an event with the i-th of DF_NPEND reserved sequence numbers,
 * however many there are, since the credits a remote downstream router
 * returned during the current window join the list only at the window's end
 * (dragonfly_par.c); the sequential run numbers them one after the other,
 * in the same order.
 */
static void block_port(df_model *m, df_router *rt, uint32_t port, df_port *P, size_t ix, ncsim_time_t now)
{
	uint64_t seq = DF_NOSEQ;
	if (UNLIKELY(m->par)) {
		seq = sim_reserve_seqs(m->ctx, DF_NPEND);
		if (P->link == DF_CUT_LOCAL)
			df_par_blocking(m, ix, seq);
	}
	P->blocked = 1;
	m->pstat[ix].sat_since = now;
	df_watchdog_arm(m);
	df_pend *e = m->pend + ix * DF_NPEND;
	for (unsigned i = 0; i < P->npend; i++) {
		sim_event *ev = sim_event_new(m->ctx, m->router0 + rt->id, e[i].t - now, DF_R_CREDIT);
		*SIM_PAYLOAD(ev, df_credit) = (df_credit){.bytes = e[i].bytes, .port = (uint16_t)port, .vc = (uint8_t)e[i].vc};
		if (seq == DF_NOSEQ)
			sim_schedule(m->ctx, ev);
		else
			sim_schedule_seq(m->ctx, ev, seq + i);
	}
	P->npend = 0;
}

/* The port's packets no longer wait for credits: saturation time ends, credits may be lazy again. */
static void unblock_port(df_model *m, df_port *P, size_t ix, ncsim_time_t now)
{
	if (UNLIKELY(P->link == DF_CUT_LOCAL))
		df_par_unblocking(m, ix);
	df_pstat *S = &m->pstat[ix];
	S->sat += now - S->sat_since;
	S->sat_since = DF_NEVER;
	P->blocked = 0;
}

/* Forwards packet pk through output port `port` on VC `vc`, starting now (inlined in both arbiters). */
static inline __attribute__((always_inline)) void forward(df_model *m, df_router *rt, uint32_t port, df_port *P,
                                                          uint8_t vc, df_pkt pk, ncsim_time_t now)
{
	const df_topo *T = &m->topo;
	sim_ctx *ctx = m->ctx;
	size_t ix = df_pix(m, rt->id, port);
	enum df_class cls = df_topo_class(T, port);
	ncsim_time_t serS, serC;
	if (pk.bytes == m->cfg.packet_size) {
		serS = m->ser_packet[cls];
		serC = m->ser_chunk[cls];
	} else {
		serS = sim_xfer_time(pk.bytes, m->cfg.bw[cls]);
		serC = pk.bytes <= m->cfg.chunk_size ? serS : m->ser_chunk[cls];
	}
	ncsim_time_t e = now + serS;
	if (pk.tail + serC > e)
		e = pk.tail + serC;
	ncsim_time_t free_at = e;
	if (m->cfg.router_delay_blocks_port) {
		uint64_t nch = pk.bytes ? (pk.bytes + m->cfg.chunk_size - 1) / m->cfg.chunk_size : 1;
		free_at += nch * m->cfg.router_delay;
	}
	P->free_at = free_at;
	df_pstat *S = &m->pstat[ix];
	S->busy += free_at - now;
	S->bytes += pk.bytes;
	nl_add(&m->labels, pk.label, ix, pk.bytes);
	m->moved++;

	if (!m->accept)
		return_credit(m, rt, &pk, e, now);

	ncsim_time_t lat = m->cfg.latency[cls];
	if (cls == DF_TERMINAL) {
		ncsim_time_t t = e + lat + m->rd_exit;
		df_deliver(m, &pk, t);
		/* The NIC drains its ejection buffer as the tail lands: the credit comes back by itself. */
		size_t ej = (size_t)rt->id * T->p + port;
		ncsim_time_t back = t + m->cfg.credit_delay[DF_TERMINAL];
		if (m->accept) {
			credit_router(m, rt->id, port, vc, df_cost(m, pk.bytes), back, now, DF_NOSEQ);
		} else if (m->ej_len[ej] < DF_EJRING) {
			unsigned k = (m->ej_head[ej] + m->ej_len[ej]++) % DF_EJRING;
			m->ej_t[ej * DF_EJRING + k] = back;
			m->ej_b[ej * DF_EJRING + k] = pk.bytes;
		} else {
			df_credit c = {.bytes = pk.bytes, .port = (uint16_t)port, .vc = vc};
			sim_send(ctx, m->router0 + rt->id, back - now, DF_R_CREDIT, &c, sizeof c);
		}
		return;
	}
	pk.hops++;
	if (cls == DF_GLOBAL)
		pk.ghops++;
	else if (pk.ghops == 0)
		pk.lhops++;
	pk.in_port = T->peer_port[ix];
	pk.vc = vc;
	ncsim_time_t rd = m->cfg.router_delay;
	pk.tail = e + lat + rd;
	df_send_pkt(ctx, m->router0 + T->peer[ix], serC + lat + rd, &pk);
}

/* Sends the packet at the head of VC v of the free port P, which won arbitration; wakes the port again if more wait. */
static inline __attribute__((always_inline)) void send_head(df_model *m, df_router *rt, uint32_t port, df_port *P,
                                                            unsigned v, ncsim_time_t now)
{
	uint32_t si = P->qhead[v];
	df_slot *s = &rt->slots.ptr[si];
	P->rr = (uint8_t)v;
	P->qhead[v] = s->next;
	if (P->qhead[v] == DF_NONE) {
		P->qtail[v] = DF_NONE;
		P->vcq &= (uint8_t)~(1u << v);
	}
	/* The packet travels on by value, so the slot is free again now. */
	df_pkt pk = s->p;
	s->next = rt->free_slot;
	rt->free_slot = si;
	forward(m, rt, port, P, (uint8_t)v, pk, now);
	if (P->vcq)
		schedule_wake(m, rt, port, P, now);
}

/* Ejection port `port`: takes the credits of its ring whose time has come; returns the ring's index. */
static inline size_t ej_collect(df_model *m, df_router *rt, uint32_t port, df_port *P, ncsim_time_t now)
{
	size_t ej = (size_t)rt->id * m->topo.p + port;
	while (m->ej_len[ej] && m->ej_t[ej * DF_EJRING + m->ej_head[ej]] <= now) {
		P->credits[0] += (int32_t)m->ej_b[ej * DF_EJRING + m->ej_head[ej]];
		m->ej_head[ej] = (uint8_t)((m->ej_head[ej] + 1) % DF_EJRING);
		m->ej_len[ej]--;
	}
	return ej;
}

/*
 * Round-robin order over the VCs with packets (bits of P->vcq): first those
 * after the last winner rr, then those up to rr, each part lowest first.
 * part[0] and part[1] receive the two parts.
 */
static inline void rr_parts(const df_port *P, unsigned part[2])
{
	unsigned upto = (2u << P->rr) - 1;
	part[0] = P->vcq & ~upto;
	part[1] = P->vcq & upto;
}

/* Accept mode: starts the next accepted packet on the free port P, round-robin over its VCs. */
static void arbitrate_accepted(df_model *m, df_router *rt, uint32_t port, df_port *P, ncsim_time_t now)
{
	unsigned part[2];
	rr_parts(P, part);
	unsigned q = part[0] ? part[0] : part[1];
	if (q)
		send_head(m, rt, port, P, (unsigned)__builtin_ctz(q), now);
}

/*
 * Arbitration of the free port P (index ix): starts the next packet if some
 * VC's head fits downstream. Kept out of line so that the frequent busy-port
 * case of try_send does not pay for the registers this one needs.
 */
static __attribute__((noinline)) void arbitrate(df_model *m, df_router *rt, uint32_t port, df_port *P, size_t ix,
                                                ncsim_time_t now)
{
	if (m->accept) {
		arbitrate_accepted(m, rt, port, P, now);
		return;
	}
	if (port < m->topo.p) {
		/* Ejection: collect the credits whose time has come; if the head still
		 * does not fit, wake up when the next one returns. */
		size_t ej = ej_collect(m, rt, port, P, now);
		uint32_t si = P->qhead[0];
		if (si != DF_NONE && P->credits[0] < (int32_t)rt->slots.ptr[si].p.bytes && m->ej_len[ej]) {
			P->free_at = m->ej_t[ej * DF_EJRING + m->ej_head[ej]];
			schedule_wake(m, rt, port, P, now);
			return;
		}
	} else if (P->npend) {
		df_port_absorb(m, ix, now);
	}
	unsigned part[2];
	rr_parts(P, part);
	for (unsigned h = 0; h < 2; h++)
		for (unsigned q = part[h]; q; q &= q - 1) {
			unsigned v = (unsigned)__builtin_ctz(q);
			uint32_t b = rt->slots.ptr[P->qhead[v]].p.bytes;
			if ((int64_t)P->credits[v] < (int64_t)b)
				continue;
			/* Won arbitration. */
			if (P->blocked)
				unblock_port(m, P, ix, now);
			P->credits[v] -= (int32_t)b;
			m->pstat[ix].qbytes -= b;
			send_head(m, rt, port, P, v, now);
			return;
		}
	if (P->vcq && !P->blocked)
		block_port(m, rt, port, P, ix, now);
}

/* Starts the next packet on `port` if the port is free and some VC's head fits downstream. */
static inline void try_send(df_model *m, df_router *rt, uint32_t port, ncsim_time_t now)
{
	size_t ix = df_pix(m, rt->id, port);
	df_port *P = &m->ports[ix];
	if (P->free_at > now)
		schedule_wake(m, rt, port, P, now);
	else
		arbitrate(m, rt, port, P, ix, now);
}

/*
 * Accept mode: the packet in slot si enters output VC vc of `port` if the VC
 * has room and no packet stalls before it, and gives its input buffer back;
 * else it stalls, holding it (CODES' router_packet_receive).
 */
static void accept_or_stall(df_model *m, df_router *rt, uint32_t port, uint8_t vc, uint32_t si, ncsim_time_t now)
{
	size_t ix = df_pix(m, rt->id, port);
	df_port *P = &m->ports[ix];
	df_stall *Q = &m->stall[ix];
	const df_pkt *pk = &rt->slots.ptr[si].p;
	uint32_t c = df_cost(m, pk->bytes);
	if (P->npend)
		df_port_absorb(m, ix, now);
	if (Q->head[vc] == DF_NONE && P->credits[vc] >= (int32_t)c) {
		P->credits[vc] -= (int32_t)c;
		return_credit(m, rt, pk, now, now);
		port_push(rt, P, vc, si);
		try_send(m, rt, port, now);
		return;
	}
	fifo_push(rt, Q->head, Q->tail, vc, si);
	m->pstat[ix].qbytes += c;
	if (!P->blocked)
		block_port(m, rt, port, P, ix, now);
}

/* Accept mode: a credit came back to VC vc of `port`: stalled packets that fit enter it (CODES' router_buf_update). */
static void unstall(df_model *m, df_router *rt, uint32_t port, uint8_t vc, ncsim_time_t now)
{
	size_t ix = df_pix(m, rt->id, port);
	df_port *P = &m->ports[ix];
	df_stall *Q = &m->stall[ix];
	uint32_t si;
	while ((si = Q->head[vc]) != DF_NONE) {
		const df_pkt *pk = &rt->slots.ptr[si].p;
		uint32_t c = df_cost(m, pk->bytes);
		if (P->credits[vc] < (int32_t)c)
			break;
		Q->head[vc] = rt->slots.ptr[si].next;
		if (Q->head[vc] == DF_NONE)
			Q->tail[vc] = DF_NONE;
		P->credits[vc] -= (int32_t)c;
		m->pstat[ix].qbytes -= c;
		return_credit(m, rt, pk, now, now);
		port_push(rt, P, vc, si);
	}
	if (P->blocked && (Q->head[0] & Q->head[1] & Q->head[2] & Q->head[3]) == DF_NONE)
		unblock_port(m, P, ix, now);
}

/* Queues the packet in slot si for VC vc of `port` (holding its input buffer) and tries the port. */
static inline void enqueue(df_model *m, df_router *rt, uint32_t port, uint8_t vc, uint32_t si, ncsim_time_t now)
{
	size_t ix = df_pix(m, rt->id, port);
	df_port *P = &m->ports[ix];
	port_push(rt, P, vc, si);
	m->pstat[ix].qbytes += rt->slots.ptr[si].p.bytes;
	try_send(m, rt, port, now);
}

/* An arrival when some semantic key is CODES' (kept out of line: the native path stays short). */
static __attribute__((noinline)) void arrive_codes(df_model *m, df_router *rt, uint32_t si, ncsim_time_t now)
{
	df_pkt *pk = &rt->slots.ptr[si].p;
	unsigned flags_in = pk->flags;
	uint32_t port;
	uint8_t vc;
	if (m->codes_rules) {
		df_route_codes(m, rt->id, pk, &port, &vc);
	} else {
		df_route(m, rt->id, pk, &port, &vc);
		if (m->codes_vc)
			vc = df_vc_codes(m, rt->id, m->node_rt[pk->dst], pk, flags_in);
	}
	if (m->accept)
		accept_or_stall(m, rt, port, vc, si, now);
	else
		enqueue(m, rt, port, vc, si, now);
}

/*
 * A packet arriving at a free port whose queues are all empty is the only
 * candidate of the arbitration that enqueue would start: if its VC has the
 * credits (those due now taken first), it leaves at once without a slot,
 * exactly as enqueue, arbitrate and send_head would send it; returns 1 then.
 */
static inline int pass_through(df_model *m, df_router *rt, uint32_t port, uint8_t vc, const df_pkt *pk,
                               ncsim_time_t now)
{
	size_t ix = df_pix(m, rt->id, port);
	df_port *P = &m->ports[ix];
	if (P->free_at > now || P->vcq)
		return 0;
	if (port < m->topo.p)
		(void)ej_collect(m, rt, port, P, now);
	else if (P->npend)
		df_port_absorb(m, ix, now);
	if ((int64_t)P->credits[vc] < (int64_t)pk->bytes)
		return 0; /* enqueue waits for credits: the ejection wake-up or a blocked port */
	if (P->blocked) /* not with empty queues (the send that emptied them unblocked the port); kept for symmetry */
		unblock_port(m, P, ix, now);
	P->credits[vc] -= (int32_t)pk->bytes;
	P->rr = vc;
	forward(m, rt, port, P, vc, *pk, now);
	return 1;
}

static void on_arrive(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_router *rt = state;
	df_model *m = rt->m;
	ncsim_time_t now = ev->time;
	if (m->codes_path) {
		uint32_t si = slot_alloc(rt);
		df_slot *s = &rt->slots.ptr[si];
		s->p = *SIM_PAYLOAD(ev, const df_pkt);
		s->next = DF_NONE;
		arrive_codes(m, rt, si, now);
		return;
	}
	df_pkt pk = *SIM_PAYLOAD(ev, const df_pkt);
	uint32_t port;
	uint8_t vc;
	df_route_fast(m, rt->id, &pk, &port, &vc);
	if (pass_through(m, rt, port, vc, &pk, now))
		return;
	uint32_t si = slot_alloc(rt);
	rt->slots.ptr[si].p = pk;
	enqueue(m, rt, port, vc, si, now);
}

static void on_credit(sim_ctx *ctx, void *state, const sim_event *ev)
{
	df_router *rt = state;
	df_model *m = rt->m;
	const df_credit *c = SIM_PAYLOAD(ev, const df_credit);
	df_port *P = &m->ports[df_pix(m, rt->id, c->port)];
	P->credits[c->vc] += (int32_t)c->bytes;
	if (m->accept)
		unstall(m, rt, c->port, c->vc, sim_now(ctx));
	if (!P->wake)
		try_send(m, rt, c->port, sim_now(ctx));
}

static void on_wake(sim_ctx *ctx, void *state, const sim_event *ev)
{
	df_router *rt = state;
	df_model *m = rt->m;
	uint16_t port = *SIM_PAYLOAD(ev, const uint16_t);
	m->ports[df_pix(m, rt->id, port)].wake = 0;
	try_send(m, rt, port, sim_now(ctx));
}

static const sim_handler router_handlers[DF_R_NKINDS] = {
	[DF_R_ARRIVE] = on_arrive,
	[DF_R_CREDIT] = on_credit,
	[DF_R_WAKE] = on_wake,
};

const sim_type df_router_type = {
	.name = "df-router",
	.handlers = router_handlers,
	.nhandlers = DF_R_NKINDS,
};

/*
 * dragonfly_router.c - the router entity: input buffers, output arbitration
 * and link timing.
 *
 * Events per packet and hop: ARRIVE (the packet's head is through the
 * router's pipeline and routed), a CREDIT back to the upstream port when its
 * tail has left, and a WAKE only when the output port was busy. Output ports
 * are modelled by the time they become free ("next free time"), so a port
 * that is idle forwards a packet inside the ARRIVE handler.
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
 */
#include <string.h>

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

static void schedule_wake(df_model *m, df_router *rt, uint32_t port, size_t ix)
{
	if (m->wake[ix])
		return;
	m->wake[ix] = 1;
	uint16_t p = (uint16_t)port;
	sim_send(m->ctx, m->router0 + rt->id, m->port_free[ix] - sim_now(m->ctx), DF_R_WAKE, &p, sizeof p);
}

/* Returns the packet's input-buffer space to whoever feeds input port in_port, at time t. */
static void return_credit(df_model *m, df_router *rt, const df_pkt *pk, ncsim_time_t t)
{
	const df_topo *T = &m->topo;
	sim_ctx *ctx = m->ctx;
	size_t ix = df_pix(m, rt->id, pk->in_port);
	df_credit c = {.bytes = pk->bytes, .vc = pk->vc};
	ncsim_time_t now = sim_now(ctx);
	if (pk->in_port < T->p) {
		c.port = 0;
		sim_send(ctx, m->nic0 + T->peer[ix], t + m->cfg.credit_delay[DF_TERMINAL] - now, DF_N_CREDIT, &c,
		         sizeof c);
	} else {
		c.port = T->peer_port[ix];
		sim_send(ctx, m->router0 + T->peer[ix], t + m->cfg.credit_delay[df_topo_class(T, pk->in_port)] - now,
		         DF_R_CREDIT, &c, sizeof c);
	}
}

/* Forwards the packet in slot si through output port `port` on VC `vc`, starting now. */
static void forward(df_model *m, df_router *rt, uint32_t port, uint8_t vc, uint32_t si)
{
	const df_topo *T = &m->topo;
	sim_ctx *ctx = m->ctx;
	size_t ix = df_pix(m, rt->id, port);
	df_pkt pk = rt->slots.ptr[si].p;
	enum df_class cls = df_topo_class(T, port);
	ncsim_time_t now = sim_now(ctx);
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
	m->port_free[ix] = free_at;
	m->busy[ix] += free_at - now;
	m->bytes[ix] += pk.bytes;
	m->moved++;

	return_credit(m, rt, &pk, e);
	/* pk is a copy that travels on by value, so the slot is free again now. */
	rt->slots.ptr[si].next = rt->free_slot;
	rt->free_slot = si;

	ncsim_time_t lat = m->cfg.latency[cls];
	if (cls == DF_TERMINAL) {
		ncsim_time_t t = e + lat;
		df_deliver(m, &pk, t);
		/* The NIC drains its ejection buffer as the tail lands: the credit comes back by itself. */
		size_t ej = (size_t)rt->id * T->p + port;
		ncsim_time_t back = t + m->cfg.credit_delay[DF_TERMINAL];
		if (m->ej_len[ej] < DF_EJRING) {
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
	sim_send(ctx, m->router0 + T->peer[ix], serC + lat + rd, DF_R_ARRIVE, &pk, sizeof pk);
}

/* Starts the next packet on `port` if the port is free and some VC's head fits downstream. */
static void try_send(df_model *m, df_router *rt, uint32_t port)
{
	size_t ix = df_pix(m, rt->id, port);
	ncsim_time_t now = sim_now(m->ctx);
	if (m->port_free[ix] > now) {
		schedule_wake(m, rt, port, ix);
		return;
	}
	unsigned nv = m->nvc[df_topo_class(&m->topo, port)];
	size_t vb = ix * DF_MAXVC;
	if (port < m->topo.p) {
		/* Ejection: collect the credits whose time has come; if the head still
		 * does not fit, wake up when the next one returns. */
		size_t ej = (size_t)rt->id * m->topo.p + port;
		while (m->ej_len[ej] && m->ej_t[ej * DF_EJRING + m->ej_head[ej]] <= now) {
			m->credits[vb] += (int32_t)m->ej_b[ej * DF_EJRING + m->ej_head[ej]];
			m->ej_head[ej] = (uint8_t)((m->ej_head[ej] + 1) % DF_EJRING);
			m->ej_len[ej]--;
		}
		uint32_t si = m->qhead[vb];
		if (si != DF_NONE && m->credits[vb] < (int32_t)rt->slots.ptr[si].p.bytes && m->ej_len[ej]) {
			m->port_free[ix] = m->ej_t[ej * DF_EJRING + m->ej_head[ej]];
			schedule_wake(m, rt, port, ix);
			return;
		}
	}
	unsigned start = m->rr[ix], waiting = 0;
	for (unsigned k = 1; k <= nv; k++) {
		unsigned v = (start + k) % nv;
		uint32_t si = m->qhead[vb + v];
		if (si == DF_NONE)
			continue;
		waiting = 1;
		uint32_t b = rt->slots.ptr[si].p.bytes;
		if ((int64_t)m->credits[vb + v] < (int64_t)b)
			continue;
		/* Won arbitration. */
		if (m->sat_since[ix] != DF_NEVER) {
			m->sat[ix] += now - m->sat_since[ix];
			m->sat_since[ix] = DF_NEVER;
		}
		m->rr[ix] = (uint8_t)v;
		m->credits[vb + v] -= (int32_t)b;
		m->qbytes[ix] -= b;
		m->qhead[vb + v] = rt->slots.ptr[si].next;
		if (m->qhead[vb + v] == DF_NONE)
			m->qtail[vb + v] = DF_NONE;
		forward(m, rt, port, (uint8_t)v, si);
		if (m->qbytes[ix] || m->qhead[vb] != DF_NONE || (nv > 1 && m->qhead[vb + 1] != DF_NONE) ||
		    (nv > 2 && (m->qhead[vb + 2] != DF_NONE || m->qhead[vb + 3] != DF_NONE)))
			schedule_wake(m, rt, port, ix);
		return;
	}
	if (waiting && m->sat_since[ix] == DF_NEVER) {
		m->sat_since[ix] = now;
		df_watchdog_arm(m);
	}
}

static void on_arrive(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_router *rt = state;
	df_model *m = rt->m;
	uint32_t si = slot_alloc(rt);
	df_slot *s = &rt->slots.ptr[si];
	s->p = *SIM_PAYLOAD(ev, const df_pkt);
	s->next = DF_NONE;
	uint32_t port;
	uint8_t vc;
	df_route(m, rt->id, &s->p, &port, &vc);
	size_t ix = df_pix(m, rt->id, port), q = ix * DF_MAXVC + vc;
	if (m->qtail[q] == DF_NONE)
		m->qhead[q] = si;
	else
		rt->slots.ptr[m->qtail[q]].next = si;
	m->qtail[q] = si;
	m->qbytes[ix] += s->p.bytes;
	try_send(m, rt, port);
}

static void on_credit(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_router *rt = state;
	df_model *m = rt->m;
	const df_credit *c = SIM_PAYLOAD(ev, const df_credit);
	size_t ix = df_pix(m, rt->id, c->port);
	m->credits[ix * DF_MAXVC + c->vc] += (int32_t)c->bytes;
	if (!m->wake[ix])
		try_send(m, rt, c->port);
}

static void on_wake(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_router *rt = state;
	df_model *m = rt->m;
	uint16_t port = *SIM_PAYLOAD(ev, const uint16_t);
	m->wake[df_pix(m, rt->id, port)] = 0;
	try_send(m, rt, port);
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

/*
 * dragonfly_nic.c - the node's network interface: message queue,
 * packetization and the injection link.
 *
 * A NIC serves its messages first come, first served (like CODES' single
 * injection queue). It cuts the head message into packets of packet_size
 * bytes (the last one shorter; a 0-byte message is one empty packet) and
 * sends one packet whenever the injection link is free and the router's
 * terminal input buffer has room (credits). The ejection side of a NIC lives
 * in its router (dragonfly_router.c): the NIC drains arriving packets at link
 * speed, so the router can account for delivery and credits itself.
 *
 * Packets are committed ahead: when a packet leaves, the next one of the
 * queue is sent at once for the time the link becomes free, as long as the
 * credits known by then (the counter plus lazy credits due by that time)
 * cover it. Credits only grow until the NIC itself takes them and messages
 * queue behind the head, so that packet would leave at exactly that time
 * anyway; committing it early saves the wake-up event per packet. When the
 * known credits do not cover it, the NIC wakes up at that time and decides
 * then, as before.
 *
 * Blocking ahead. Often no credit can come back by that time: every packet
 * of this NIC that the router has not forwarded yet is full-size, so its
 * credit comes at least one full packet's serialization plus the credit
 * delay after the router forwards it (nic_guard), and the link is free
 * sooner than that. Then the wake-up would only find the NIC short and
 * block it; the NIC blocks at once instead (saturated from the time the
 * link becomes free, sat_since ahead of now), and its next credit event
 * sends the packet at the same time and in the same handler order as after
 * the wake-up. It does not when a credit event under way may land by then
 * (the NIC keeps the times of a few of them). Blocking ahead may arm a
 * watchdog that is not running up to nic_guard earlier than the wake-up
 * would have; the decision reads only the NIC's own state, so that a
 * parallel run, whose watchdog is known at window ends only, makes it alike.
 *
 * The router delay is charged on the link into the first router unless the
 * configuration charges it as packets leave routers (router_delay_on_exit,
 * CODES' packet_send), then it is charged on the link out to the NIC.
 */
#include "runtime/net/dragonfly_model.h"

static void nic_wake_at(df_model *m, df_nic *n, ncsim_time_t now)
{
	if (n->wake)
		return;
	n->wake = 1;
	sim_send(m->ctx, m->nic0 + n->id, n->port_free - now, DF_N_WAKE, &n->id, sizeof n->id);
}

/*
 * The NIC cannot send its head packet at ts (>= now): it is saturated from ts
 * on, and its credits come as events from now on, those under way too.
 */
static void block(df_model *m, df_nic *n, ncsim_time_t ts, ncsim_time_t now)
{
	if (n->sat_since != DF_NEVER)
		return;
	n->sat_since = ts;
	df_watchdog_arm(m);
	for (unsigned i = 0; i < n->npend; i++) {
		sim_event *ev = sim_event_new(m->ctx, m->nic0 + n->id, n->pend_t[i] - now, DF_N_CREDIT);
		*SIM_PAYLOAD(ev, df_credit) = (df_credit){.bytes = n->pend_b[i]};
		sim_schedule(m->ctx, ev);
		df_nic_ev_sent(n, n->pend_t[i]);
	}
	n->npend = 0;
}

/* 1 if no credit can reach the NIC by ts (> now), so a wake-up at ts would find it short (see the top). */
static int short_until(const df_model *m, const df_nic *n, ncsim_time_t ts, ncsim_time_t now)
{
	if (n->short_out || ts - now >= m->nic_guard || n->ev_out > n->nev)
		return 0;
	for (unsigned i = 0; i < n->nev; i++)
		if (n->ev_t[i] <= ts)
			return 0;
	return 1;
}

static void try_inject(df_model *m, df_nic *n)
{
	sim_ctx *ctx = m->ctx;
	ncsim_time_t now = sim_now(ctx);
	ncsim_time_t lat = m->cfg.latency[DF_TERMINAL], rd = m->rd_enter;
	uint32_t ps = m->cfg.packet_size;
	while (n->qhead != DF_NONE) {
		/* The next packet leaves when the link is free: now, or after the packets already committed. */
		ncsim_time_t ts = n->port_free > now ? n->port_free : now;
		if (n->npend)
			df_nic_absorb(n, ts);
		df_msg *M = &m->msgs.ptr[n->qhead];
		uint64_t rest = M->bytes - M->sent;
		uint32_t b = rest > ps ? ps : (uint32_t)rest, c = df_cost(m, b);
		if (n->credits < (int64_t)c) {
			if (ts > now && !short_until(m, n, ts, now))
				nic_wake_at(m, n, now); /* credits may still come back before ts */
			else
				block(m, n, ts, now);
			return;
		}
		if (n->sat_since != DF_NEVER) {
			n->sat += ts - n->sat_since;
			n->sat_since = DF_NEVER;
		}
		n->credits -= c;
		ncsim_time_t serS, serC;
		if (b == ps) {
			serS = m->ser_packet[DF_TERMINAL];
			serC = m->ser_chunk[DF_TERMINAL];
		} else {
			serS = sim_xfer_time(b, m->cfg.bw[DF_TERMINAL]);
			serC = b <= m->cfg.chunk_size ? serS : m->ser_chunk[DF_TERMINAL];
		}
		n->short_out += b != ps;
		n->port_free = ts + serS;
		n->busy += serS;
		n->bytes += b;
		nl_add(&m->labels, M->label, (size_t)m->topo.nrouters * m->nports + n->id, b);
		m->node_inj[n->id] += b;
		m->moved++;
		if (M->sent == 0) {
			M->first_tx = ts;
			if (UNLIKELY(m->par))
				df_par_sent(m, n->qhead);
		}
		M->sent += b;
		df_pkt pk = {
			.tail = ts + serS + lat + rd,
			.msg = n->qhead | m->msg_tag,
			.dst = M->dst,
			.bytes = b,
			.inter = DF_NONE,
			.in_port = n->in_port,
			.label = M->label,
		};
		if (M->sent == M->bytes) {
			if (M->want_sent) /* its last packet starts leaving now */
				net_send_sent(ctx, M->sent_to, M->notify_kind, ts - now, M->cookie, M->cookie2, M->bytes, M->src,
				              M->dst, M->tclass);
			uint32_t next = M->next;
			M->next = DF_NONE;
			n->qhead = next;
			if (next == DF_NONE)
				n->qtail = DF_NONE;
		}
		df_send_pkt(ctx, n->router, ts - now + serC + lat + rd, &pk);
	}
}

static void on_msg(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_nic *n = state;
	df_model *m = n->m;
	uint32_t mi = *SIM_PAYLOAD(ev, const uint32_t);
	if (n->qtail == DF_NONE)
		n->qhead = mi;
	else
		m->msgs.ptr[n->qtail].next = mi;
	n->qtail = mi;
	if (!n->wake)
		try_inject(m, n);
}

static void on_credit(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	df_nic *n = state;
	n->credits += SIM_PAYLOAD(ev, const df_credit)->bytes;
	df_nic_ev_landed(n, ev->time);
	if (!n->wake)
		try_inject(n->m, n);
}

static void on_wake(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ctx;
	(void)ev;
	df_nic *n = state;
	n->wake = 0;
	try_inject(n->m, n);
}

static const sim_handler nic_handlers[DF_N_NKINDS] = {
	[DF_N_MSG] = on_msg,
	[DF_N_CREDIT] = on_credit,
	[DF_N_WAKE] = on_wake,
};

const sim_type df_nic_type = {
	.name = "df-nic",
	.handlers = nic_handlers,
	.nhandlers = DF_N_NKINDS,
};

/*
 * dragonfly_stats.c - message completion, statistics, links.csv, the
 * end-of-run conservation check and the deadlock watchdog.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly_model.h"

/* ------------------------------------------------------------- delivery */

void df_deliver(df_model *m, const df_pkt *pk, ncsim_time_t t)
{
	df_msg *M = UNLIKELY(m->par) ? df_par_msg(m, pk->msg) : &m->msgs.ptr[pk->msg];
	m->node_ej[pk->dst] += pk->bytes;
	m->st.packets++;
	m->st.packet_hops += pk->hops;
	if (pk->flags & DF_PKT_NONMIN) {
		m->st.nonmin_packets++;
		M->nonmin = 1;
	}
	M->hops = pk->hops;
	if (--M->left)
		return;
	unsigned c = M->tclass < NET_NCLASSES ? M->tclass : NET_CLASS_MPI;
	m->base.totals.msgs_delivered[c]++;
	m->base.totals.bytes_delivered[c] += M->bytes;
	m->msgs_open--;
	if (t > m->last_delivery)
		m->last_delivery = t;
	if (t >= m->st.window_from && t <= m->st.window_to) {
		df_class_stats *cs = &m->st.cls[c];
		ncsim_time_t lat = t - M->first_tx;
		cs->msgs++;
		cs->bytes += M->bytes;
		cs->nonminimal += M->nonmin;
		cs->hops += M->hops;
		cs->lat_sum += (double)lat;
		if (lat > cs->lat_max)
			cs->lat_max = lat;
		lh_add(&cs->lat, lat);
	}
	if (M->notify != SIM_NO_ENTITY) {
		net_delivery d = {
			.cookie = M->cookie,
			.cookie2 = M->cookie2,
			.bytes = M->bytes,
			.src_node = M->src,
			.dst_node = M->dst,
			.inject_time = M->inject_time,
			.hops = M->hops,
			.tclass = M->tclass,
			.nonminimal = M->nonmin,
		};
		sim_send(m->ctx, M->notify, t - sim_now(m->ctx), M->notify_kind, &d, sizeof d);
	}
	if (UNLIKELY(m->par)) {
		df_par_done(m, pk->msg);
		return;
	}
	M->next = m->msg_free;
	m->msg_free = pk->msg;
}

/* ------------------------------------------------------------- watchdog */

static const char *const class_name[DF_NCLASSES] = {"terminal", "local", "global"};

/* The first packet waiting for credits on VC v of port ix: in the port's queue, or its stall FIFO in accept mode. */
static uint32_t waiting_head(const df_model *m, size_t ix, unsigned v)
{
	return m->accept ? m->stall[ix].head[v] : m->ports[ix].qhead[v];
}

/* Describes the first blocked VC found: a packet at its head that cannot get credits. */
static char *blocked_report(df_model *m)
{
	const df_topo *T = &m->topo;
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < m->nports; port++) {
			size_t ix = df_pix(m, r, port);
			enum df_class cls = df_topo_class(T, port);
			for (unsigned v = 0; v < m->nvc[cls]; v++) {
				uint32_t si = waiting_head(m, ix, v);
				if (si == DF_NONE)
					continue;
				unsigned n = 0;
				for (uint32_t s = si; s != DF_NONE; s = m->routers[r].slots.ptr[s].next)
					n++;
				return xasprintf("router %" PRIu32 " port %" PRIu32 " (%s) VC %u: %u packet(s) waiting, "
				                 "%" PRId32 " B of credit for a %" PRIu32 " B packet",
				                 r, port, class_name[cls], v, n, m->ports[ix].credits[v],
				                 m->routers[r].slots.ptr[si].p.bytes);
			}
		}
	for (uint32_t i = 0; i < T->nnodes; i++)
		if (m->nics[i].qhead != DF_NONE)
			return xasprintf("node %" PRIu32 " injection: messages waiting, %" PRId64 " B of credit", i,
			                 m->nics[i].credits);
	return xstrdup("packets in flight but none queued");
}

/*
 * In a parallel run every call reserves a sequence number of the blocking
 * entity for the first tick, armed or not, so that its later numbers do not
 * depend on the watchdog's state, which is known at window ends only
 * (dragonfly_par.c keeps it); the sequential run, which does not reserve,
 * pops the entity's events in the same order.
 */
void df_watchdog_arm(df_model *m)
{
	if (UNLIKELY(m->par)) {
		if (m->cfg.watchdog)
			df_par_arm(m, sim_reserve_seqs(m->ctx, 1));
		return;
	}
	if (m->wd_armed || !m->cfg.watchdog)
		return;
	m->wd_armed = 1;
	m->wd_last = m->moved;
	uint8_t z = 0;
	sim_send(m->ctx, m->wd, m->cfg.watchdog, 0, &z, 1);
}

static void on_tick(sim_ctx *ctx, void *state, const sim_event *ev)
{
	(void)ev;
	df_model *m = state;
	if (!m->msgs_open) {
		m->wd_armed = 0;
		return;
	}
	if (m->moved == m->wd_last) {
		char *where = blocked_report(m);
		free(m->deadlock);
		m->deadlock = xasprintf("dragonfly: deadlock at t=%.3f us: no packet moved for %.3f us; %s",
		                        (double)sim_now(ctx) / 1e6, (double)m->cfg.watchdog / 1e6, where);
		free(where);
		fprintf(stderr, "%s\n", m->deadlock);
		m->wd_armed = 0;
		sim_stop(ctx, 1);
		return;
	}
	m->wd_last = m->moved;
	uint8_t z = 0;
	sim_send(ctx, m->wd, m->cfg.watchdog, 0, &z, 1);
}

static const sim_handler wd_handlers[1] = {on_tick};
const sim_type df_watchdog_type = {.name = "df-watchdog", .handlers = wd_handlers, .nhandlers = 1};

/* ---------------------------------------------------------- check, CSV */

/* Class names as net.h documents them (kept here so the model links on its own). */
static const char *const tclass_name[NET_NCLASSES] = {"mpi", "ctrl", "io", "dcnw", "flows", "horovod", "synth"};

int df_check(net_model *nm, FILE *err)
{
	df_model *m = (df_model *)nm;
	const df_topo *T = &m->topo;
	int bad = 0;
	if (m->deadlock) {
		fprintf(err, "%s\n", m->deadlock);
		bad = 1;
	}
	for (int c = 0; c < NET_NCLASSES; c++) {
		const net_totals *t = &m->base.totals;
		if (t->msgs_injected[c] != t->msgs_delivered[c] || t->bytes_injected[c] != t->bytes_delivered[c]) {
			fprintf(err, "dragonfly: class %s: %" PRIu64 " messages (%" PRIu64 " B) injected, %" PRIu64
			        " (%" PRIu64 " B) delivered\n", tclass_name[c], t->msgs_injected[c],
			        t->bytes_injected[c], t->msgs_delivered[c], t->bytes_delivered[c]);
			bad = 1;
		}
	}
	/* Credits still in the ejection rings and the pending lists are returns already under way. */
	for (size_t ix = 0; ix < (size_t)T->nrouters * T->nports; ix++)
		df_port_absorb(m, ix, DF_NEVER);
	for (uint32_t i = 0; i < T->nnodes; i++)
		df_nic_absorb(&m->nics[i], DF_NEVER);
	for (uint32_t i = 0; i < T->nnodes; i++)
		while (m->ej_len[i]) {
			m->ports[df_pix(m, i / T->p, i % T->p)].credits[0] += (int32_t)m->ej_b[i * DF_EJRING + m->ej_head[i]];
			m->ej_head[i] = (uint8_t)((m->ej_head[i] + 1) % DF_EJRING);
			m->ej_len[i]--;
		}
	uint64_t inj = 0, ej = 0;
	for (uint32_t i = 0; i < T->nnodes; i++) {
		inj += m->node_inj[i];
		ej += m->node_ej[i];
	}
	if (inj != ej) {
		fprintf(err, "dragonfly: %" PRIu64 " B injected into the network, %" PRIu64 " B ejected\n", inj, ej);
		bad = 1;
	}
	if (m->msgs_open) {
		fprintf(err, "dragonfly: %" PRIu64 " message(s) never completed\n", m->msgs_open);
		bad = 1;
	}
	unsigned shown = 0;
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < m->nports; port++) {
			size_t ix = df_pix(m, r, port);
			enum df_class cls = df_topo_class(T, port);
			if (T->peer[ix] == DF_NONE)
				continue;
			for (unsigned v = 0; v < m->nvc[cls]; v++) {
				int queued = m->ports[ix].qhead[v] != DF_NONE || waiting_head(m, ix, v) != DF_NONE;
				if ((uint64_t)(int64_t)m->ports[ix].credits[v] != m->cfg.vc_size[cls] || queued) {
					if (shown++ < 5)
						fprintf(err, "dragonfly: router %" PRIu32 " port %" PRIu32 " VC %u: %" PRId32
						        " B of credit at the end, expected %" PRIu64 "%s\n", r, port, v,
						        m->ports[ix].credits[v], m->cfg.vc_size[cls], queued ? " (packets still queued)" : "");
					bad = 1;
				}
			}
		}
	for (uint32_t i = 0; i < T->nnodes; i++)
		if ((uint64_t)m->nics[i].credits != m->cfg.vc_size[DF_TERMINAL] || m->nics[i].qhead != DF_NONE) {
			if (shown++ < 5)
				fprintf(err, "dragonfly: node %" PRIu32 ": %" PRId64 " B of injection credit at the end, expected %"
				        PRIu64 "\n", i, m->nics[i].credits, m->cfg.vc_size[DF_TERMINAL]);
			bad = 1;
		}
	if (shown > 5)
		fprintf(err, "dragonfly: ... %u credit counters off in all\n", shown);
	return bad ? -1 : 0;
}

/* One link of the model: its slot (router port index, or a NIC after all ports), CSV prefix and totals. */
typedef void (*link_fn)(const df_model *m, FILE *out, size_t slot, const char *prefix, uint64_t bytes,
                        ncsim_time_t busy, ncsim_time_t sat);

/* Calls fn for every link: the injection links first, then every connected router port. */
static void each_link(const df_model *m, FILE *out, link_fn fn)
{
	const df_topo *T = &m->topo;
	size_t nix = (size_t)T->nrouters * m->nports;
	char pre[96];
	for (uint32_t i = 0; i < T->nnodes; i++) {
		const df_nic *n = &m->nics[i];
		snprintf(pre, sizeof pre, "%" PRIu32 ",%" PRIu32 ",injection,%" PRIu32, i / T->p, i % T->p, i);
		fn(m, out, nix + i, pre, n->bytes, n->busy, n->sat);
	}
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < m->nports; port++) {
			size_t ix = df_pix(m, r, port);
			if (T->peer[ix] == DF_NONE)
				continue;
			snprintf(pre, sizeof pre, "%" PRIu32 ",%" PRIu32 ",%s,%" PRIu32, r, port,
			         class_name[df_topo_class(T, port)], T->peer[ix]);
			fn(m, out, ix, pre, m->pstat[ix].bytes, m->pstat[ix].busy, m->pstat[ix].sat);
		}
}

static void link_row(const df_model *m, FILE *out, size_t slot, const char *prefix, uint64_t bytes,
                     ncsim_time_t busy, ncsim_time_t sat)
{
	(void)m, (void)slot;
	fprintf(out, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", prefix, bytes, busy, sat);
}

static void label_rows(const df_model *m, FILE *out, size_t slot, const char *prefix, uint64_t bytes,
                       ncsim_time_t busy, ncsim_time_t sat)
{
	(void)bytes, (void)busy, (void)sat;
	nl_write_link(&m->labels, out, slot, prefix);
}

int df_write_links(net_model *nm, FILE *out)
{
	/* Saturation still running at the end counts up to the last delivery. */
	fprintf(out, "router,port,kind,peer,bytes,busy_ps,saturation_ps\n");
	each_link((df_model *)nm, out, link_row);
	return ferror(out) ? -1 : 0;
}

int df_write_links_by_class(net_model *nm, FILE *out)
{
	nl_write_header(out);
	each_link((df_model *)nm, out, label_rows);
	return ferror(out) ? -1 : 0;
}

const df_stats *df_get_stats(net_model *nm)
{
	df_model *m = (df_model *)nm;
	const df_topo *T = &m->topo;
	memset(m->st.link, 0, sizeof m->st.link);
	memset(&m->st.injection, 0, sizeof m->st.injection);
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < m->nports; port++) {
			size_t ix = df_pix(m, r, port);
			if (T->peer[ix] == DF_NONE)
				continue;
			df_link_totals *l = &m->st.link[df_topo_class(T, port)];
			l->links++;
			l->bytes += m->pstat[ix].bytes;
			l->busy += m->pstat[ix].busy;
			l->saturated += m->pstat[ix].sat;
		}
	for (uint32_t i = 0; i < T->nnodes; i++) {
		m->st.injection.links++;
		m->st.injection.bytes += m->nics[i].bytes;
		m->st.injection.busy += m->nics[i].busy;
		m->st.injection.saturated += m->nics[i].sat;
	}
	m->st.node_injected = m->node_inj;
	m->st.node_ejected = m->node_ej;
	return &m->st;
}

void df_set_window(net_model *nm, ncsim_time_t from, ncsim_time_t to)
{
	df_model *m = (df_model *)nm;
	m->st.window_from = from;
	m->st.window_to = to;
}

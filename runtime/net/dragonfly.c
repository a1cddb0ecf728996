/*
 * dragonfly.c - builds the dragonfly model and plugs it into net.h:
 * constructor, inject, zero-load estimates, topology queries.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/checked.h"
#include "base/memlimit.h"
#include "runtime/net/dragonfly_model.h"

static int df_inject(net_model *nm, sim_ctx *ctx, const net_msg *msg)
{
	df_model *m = (df_model *)nm;
	if (msg->src_node >= nm->nnodes || msg->dst_node >= nm->nnodes)
		return NET_EBADNODE;
	/* Its packets leave one after another: the terminal link alone takes this long. */
	if (!ck_time_ok(ck_sat_add(sim_now(ctx), ck_xfer_ps(msg->bytes, m->cfg.bw[DF_TERMINAL]))))
		return NET_ETIME;
	uint32_t mi;
	if (m->msg_free != DF_NONE) {
		mi = m->msg_free;
		m->msg_free = m->msgs.ptr[mi].next;
	} else {
		VEC_GROW(&m->msgs, m->msgs.len + 1);
		mi = (uint32_t)m->msgs.len++;
	}
	uint64_t npk = msg->bytes ? ck_div_up(msg->bytes, m->cfg.packet_size) : 1;
	df_msg *M = &m->msgs.ptr[mi];
	*M = (df_msg){
		.cookie = msg->cookie,
		.cookie2 = msg->cookie2,
		.bytes = msg->bytes,
		.inject_time = sim_now(ctx),
		.src = msg->src_node,
		.dst = msg->dst_node,
		.left = npk,
		.next = DF_NONE,
		.notify = msg->notify,
		.notify_kind = msg->notify_kind,
		.tclass = msg->tclass < NET_NCLASSES ? msg->tclass : NET_CLASS_MPI,
		.job = msg->job,
		.sent_to = msg->sent_to,
		.want_sent = msg->want_sent,
	};
	M->label = nl_label(&m->labels, M->job, M->tclass);
	m->base.totals.msgs_injected[M->tclass]++;
	m->base.totals.bytes_injected[M->tclass] += msg->bytes;
	m->msgs_open++;
	sim_send(ctx, m->nic0 + msg->src_node, 0, DF_N_MSG, &mi, sizeof mi);
	return 0;
}

/* Link classes of the minimal path between two routers, terminal links included; returns their number. */
static unsigned min_path(const df_model *m, uint32_t rs, uint32_t rd, enum df_class *cls)
{
	const df_topo *T = &m->topo;
	unsigned n = 0;
	cls[n++] = DF_TERMINAL;
	if (rs != rd) {
		uint32_t gs = rs / T->a, gd = rd / T->a;
		if (gs == gd)
			cls[n++] = DF_LOCAL;
		else {
			/* The gateway minimal routing prefers: the source router's own link, else the first one. */
			const uint32_t *lo = T->gw + T->gw_start[(size_t)gs * T->g + gd];
			const uint32_t *hi = T->gw + T->gw_start[(size_t)gs * T->g + gd + 1];
			const uint32_t *pick = lo;
			for (const uint32_t *q = lo; q < hi; q++)
				if ((*q >> 8) == rs % T->a) {
					pick = q;
					break;
				}
			uint32_t gwr = gs * T->a + (*pick >> 8);
			if (gwr != rs)
				cls[n++] = DF_LOCAL;
			cls[n++] = DF_GLOBAL;
			uint32_t arr = T->peer[(size_t)gwr * T->nports + df_topo_global_port(T, *pick & 0xff)];
			if (arr != rd)
				cls[n++] = DF_LOCAL;
		}
	}
	cls[n++] = DF_TERMINAL;
	return n;
}

static ncsim_time_t df_estimate(net_model *nm, uint32_t src, uint32_t dst, uint64_t bytes)
{
	df_model *m = (df_model *)nm;
	const df_config *c = &m->cfg;
	if (src >= nm->nnodes || dst >= nm->nnodes)
		return 0;
	enum df_class cls[6];
	unsigned n = min_path(m, src / m->topo.p, dst / m->topo.p, cls);
	uint64_t S = bytes < c->packet_size ? bytes : c->packet_size;
	uint64_t C = S < c->chunk_size ? S : c->chunk_size;
	ncsim_time_t t = (ncsim_time_t)(n - 1) * c->router_delay, extra = 0, occ = 0;
	uint64_t nch = S ? ck_div_up(S, c->chunk_size) : 1;
	for (unsigned i = 0; i < n; i++) {
		ncsim_time_t sS = sim_xfer_time(S, c->bw[cls[i]]), sC = sim_xfer_time(C, c->bw[cls[i]]);
		t += c->latency[cls[i]] + sC;
		if (sS - sC > extra)
			extra = sS - sC;
		ncsim_time_t o = sim_xfer_time(c->packet_size, c->bw[cls[i]]) +
		                 (c->router_delay_blocks_port && i ? nch * c->router_delay : 0);
		if (o > occ)
			occ = o;
	}
	t += extra;
	uint64_t npk = bytes ? ck_div_up(bytes, c->packet_size) : 1;
	return ck_sat_add(t, ck_sat_mul(npk - 1, occ));
}

static void df_destroy(net_model *nm)
{
	df_model *m = (df_model *)nm;
	for (uint32_t r = 0; r < m->topo.nrouters; r++)
		VEC_FREE(&m->routers[r].slots);
	free(m->routers);
	free(m->nics);
	VEC_FREE(&m->msgs);
	free(m->ports_mem);
	free(m->pstat);
	nl_fini(&m->labels);
	free(m->pend);
	free(m->stall);
	free(m->to_group);
	free(m->grp);
	free(m->node_rt);
	free(m->ej_t);
	free(m->ej_b);
	free(m->ej_head);
	free(m->ej_len);
	free(m->node_inj);
	free(m->node_ej);
	free(m->deadlock);
	df_topo_free(&m->topo);
	df_config_clear(&m->cfg);
	free(m);
}

static const net_ops df_ops = {
	.name = "dragonfly",
	.inject = df_inject,
	.estimate = df_estimate,
	.check = df_check,
	.write_links = df_write_links,
	.write_links_by_class = df_write_links_by_class,
	.destroy = df_destroy,
};

uint64_t df_memory_bytes(const df_config *c)
{
	uint64_t g = c->groups, routers = g * c->routers, nodes = routers * c->nodes;
	uint64_t nports = (uint64_t)c->nodes + c->routers - 1 + c->globals;
	uint64_t per_port = sizeof(df_port) + sizeof(df_pstat) + DF_NPEND * sizeof(df_pend) + sizeof(df_stall) +
	                    sizeof(uint32_t) + sizeof(uint16_t) + sizeof(uint32_t) /* peer, peer_port, gw */;
	uint64_t per_router = sizeof(df_router) + sim_entity_bytes() + g * sizeof(uint32_t) /* to_group */ +
	                      2 * sizeof(uint32_t) /* grp, used */;
	uint64_t per_node = sizeof(df_nic) + sim_entity_bytes() + DF_EJRING * (sizeof(ncsim_time_t) + sizeof(uint32_t)) +
	                    2 + 3 * sizeof(uint64_t) + MEM_NODE_OVERHEAD;
	/* Each factor is below 2^32 and nports below 2^8 (df_config_check), so no product overflows. */
	return routers * (nports * per_port + per_router) + nodes * per_node + g * g * 2 * sizeof(uint32_t) +
	       (uint64_t)c->routers * c->routers;
}

net_model *df_create_config(sim_ctx *ctx, const df_config *cfg, char **err)
{
	if (df_config_validate(cfg, err) < 0)
		return NULL;
	df_model *m = xcalloc(1, sizeof *m);
	if (df_topo_own(&m->cfg, &m->topo, cfg, err) < 0) {
		free(m);
		return NULL;
	}
	const df_topo *T = &m->topo;
	m->base.ops = &df_ops;
	m->base.nnodes = T->nnodes;
	m->base.per_router = T->p;
	m->base.per_group = T->p * T->a;
	m->ctx = ctx;
	m->nports = T->nports;
	m->codes_vc = m->cfg.vc_rule == DF_VC_CODES;
	m->codes_rules = m->cfg.rules == DF_RULES_CODES;
	m->accept = m->cfg.credit_return == DF_CREDIT_ACCEPT;
	m->codes_path = m->accept || m->codes_vc || m->codes_rules;
	m->chunk_round = m->accept ? m->cfg.chunk_size : 0;
	m->rd_enter = m->cfg.router_delay_on_exit ? 0 : m->cfg.router_delay;
	m->rd_exit = m->cfg.router_delay_on_exit ? m->cfg.router_delay : 0;
	m->nvc[DF_TERMINAL] = m->codes_vc ? 4 : 1;
	m->nvc[DF_LOCAL] = 4;
	m->nvc[DF_GLOBAL] = m->codes_vc ? 4 : 2;
	ncsim_time_t slowest = 0;
	for (int k = 0; k < DF_NCLASSES; k++) {
		m->ser_packet[k] = sim_xfer_time(m->cfg.packet_size, m->cfg.bw[k]);
		m->ser_chunk[k] = sim_xfer_time(m->cfg.chunk_size < m->cfg.packet_size ? m->cfg.chunk_size
		                                                                       : m->cfg.packet_size, m->cfg.bw[k]);
		if (m->ser_packet[k] > slowest)
			slowest = m->ser_packet[k];
	}
	/* Credit-return-on-accept sends a credit back as the packet arrives: no guard then. */
	ncsim_time_t fastest = m->ser_packet[0];
	for (int k = 1; k < DF_NCLASSES; k++)
		if (m->ser_packet[k] < fastest)
			fastest = m->ser_packet[k];
	m->nic_guard = m->accept ? 0 : fastest + m->cfg.credit_delay[DF_TERMINAL];
	if (m->cfg.watchdog && m->cfg.watchdog < 4 * slowest)
		m->cfg.watchdog = 4 * slowest;

	size_t np = (size_t)T->nrouters * T->nports;
	/* One cache line per port record: over-allocate and align (the address decides placement only). */
	m->ports_mem = xcalloc(np + 1, sizeof *m->ports);
	m->ports = (df_port *)(((uintptr_t)m->ports_mem + 63) & ~(uintptr_t)63);
	m->pstat = xcalloc(np, sizeof *m->pstat);
	nl_init(&m->labels, np + T->nnodes);
	m->pend = xcalloc(np * DF_NPEND, sizeof *m->pend);
	if (m->accept) {
		m->stall = xmalloc(np * sizeof *m->stall);
		memset(m->stall, 0xff, np * sizeof *m->stall); /* every FIFO empty: DF_NONE */
	}
	for (size_t i = 0; i < np; i++) {
		df_port *P = &m->ports[i];
		enum df_class cls = df_topo_class(T, (uint32_t)(i % T->nports));
		P->nvc = m->nvc[cls];
		P->link = cls == DF_GLOBAL ? DF_LINK_GLOBAL : DF_LINK_PLAIN;
		for (unsigned v = 0; v < DF_MAXVC; v++) {
			P->credits[v] = v < m->nvc[cls] ? (int32_t)m->cfg.vc_size[cls] : 0;
			P->qhead[v] = P->qtail[v] = DF_NONE;
		}
		m->pstat[i].sat_since = DF_NEVER;
	}
	df_build_to_group(m);
	m->ej_t = xcalloc((size_t)T->nnodes * DF_EJRING, sizeof *m->ej_t);
	m->ej_b = xcalloc((size_t)T->nnodes * DF_EJRING, sizeof *m->ej_b);
	m->ej_head = xcalloc(T->nnodes, 1);
	m->ej_len = xcalloc(T->nnodes, 1);
	m->node_inj = xcalloc(T->nnodes, sizeof *m->node_inj);
	m->node_ej = xcalloc(T->nnodes, sizeof *m->node_ej);
	m->msg_free = DF_NONE;
	m->st.nnodes = T->nnodes;
	m->st.nrouters = T->nrouters;
	m->st.window_to = DF_NEVER;

	m->routers = xcalloc(T->nrouters, sizeof *m->routers);
	m->nics = xcalloc(T->nnodes, sizeof *m->nics);
	for (uint32_t r = 0; r < T->nrouters; r++) {
		df_router *rt = &m->routers[r];
		rt->m = m;
		rt->id = r;
		rt->free_slot = DF_NONE;
		sim_eid id = sim_entity_add(ctx, &df_router_type, rt);
		if (r == 0)
			m->router0 = id;
	}
	for (uint32_t i = 0; i < T->nnodes; i++) {
		df_nic *n = &m->nics[i];
		n->m = m;
		n->id = i;
		n->router = m->router0 + i / T->p;
		n->in_port = (uint16_t)(i % T->p);
		n->qhead = n->qtail = DF_NONE;
		n->credits = (int64_t)m->cfg.vc_size[DF_TERMINAL];
		n->sat_since = DF_NEVER;
		sim_eid id = sim_entity_add(ctx, &df_nic_type, n);
		if (i == 0)
			m->nic0 = id;
	}
	m->wd = sim_entity_add(ctx, &df_watchdog_type, m);
	if (m->nic0 != m->router0 + T->nrouters || m->wd != m->nic0 + T->nnodes) {
		if (err)
			*err = xstrdup("dragonfly: the kernel gave non-consecutive entity ids");
		df_destroy(&m->base);
		return NULL;
	}
	return &m->base;
}

net_model *df_create(sim_ctx *ctx, const sysconf_t *c, uint32_t *nnodes, char **err)
{
	df_config cfg;
	if (df_config_from_sysconf(&cfg, c, err) < 0) {
		df_config_clear(&cfg);
		return NULL;
	}
	net_model *m = df_create_config(ctx, &cfg, err);
	df_config_clear(&cfg);
	if (m && nnodes)
		*nnodes = m->nnodes;
	return m;
}

net_model *df_create_codes(sim_ctx *ctx, const char *path, uint32_t *nnodes, char **err)
{
	df_config cfg;
	if (df_config_from_codes(&cfg, path, err) < 0)
		return NULL;
	net_model *m = df_create_config(ctx, &cfg, err);
	df_config_clear(&cfg);
	if (m && nnodes)
		*nnodes = m->nnodes;
	return m;
}

int df_is_dragonfly(const net_model *m) { return m && m->ops == &df_ops; }
const df_config *df_get_config(const net_model *m) { return &((const df_model *)m)->cfg; }

uint32_t df_router_of_node(const net_model *m, uint32_t node) { return node / ((const df_model *)m)->topo.p; }
uint32_t df_group_of_node(const net_model *m, uint32_t node)
{
	const df_topo *T = &((const df_model *)m)->topo;
	return node / (T->p * T->a);
}
uint32_t df_nodes_per_group(const net_model *m)
{
	const df_topo *T = &((const df_model *)m)->topo;
	return T->p * T->a;
}
uint32_t df_nodes_per_router(const net_model *m) { return ((const df_model *)m)->topo.p; }
uint32_t df_num_groups(const net_model *m) { return ((const df_model *)m)->topo.g; }

unsigned df_min_hops(const net_model *nm, uint32_t src, uint32_t dst)
{
	const df_model *m = (const df_model *)nm;
	enum df_class cls[6];
	return min_path(m, src / m->topo.p, dst / m->topo.p, cls) - 2;
}

void df_describe(const net_model *nm, FILE *out)
{
	const df_model *m = (const df_model *)nm;
	const df_config *c = &m->cfg;
	static const char *const arr[] = {"absolute", "relative", "files"};
	fprintf(out, "dragonfly: %u groups x %u routers x %u nodes = %u nodes, h = %u global links per router (%s)\n",
	        c->groups, c->routers, c->nodes, m->topo.nnodes, c->globals, arr[c->arrangement]);
	static const char *const cn[] = {"terminal", "local", "global"};
	for (int k = 0; k < DF_NCLASSES; k++)
		fprintf(out, "  %-8s %.3f GiB/s, latency %.3f ns, credit delay %.3f ns, %" PRIu64 " B per VC x %u VCs\n",
		        cn[k], c->bw[k] / 1073741824.0, (double)c->latency[k] / 1e3, (double)c->credit_delay[k] / 1e3,
		        c->vc_size[k], m->nvc[k]);
	fprintf(out, "  packet %u B, chunk %u B, router delay %.3f ns (charged %s a router%s), routing %s\n",
	        c->packet_size, c->chunk_size, (double)c->router_delay / 1e3, c->router_delay_on_exit ? "leaving" : "entering",
	        c->router_delay_blocks_port ? ", occupies the port per chunk" : "", df_routing_name(c->routing));
	if (c->rules == DF_RULES_CODES)
		fprintf(out, "  CODES routing rules: %s scoring, adaptive threshold %" PRIu64 " B, %u global picks\n",
		        c->scoring == DF_SCORE_DELTA ? "delta" : "alpha", c->adaptive_threshold, c->k_picks);
	else
		fprintf(out, "  ncsim routing rules: ugal bias %.0f B\n", c->ugal_bias);
	fprintf(out, "  credits return when a packet %s; VCs by %s\n",
	        c->credit_return == DF_CREDIT_ACCEPT ? "enters its output VC" : "has left the router",
	        c->vc_rule == DF_VC_CODES ? "group and position (CODES)" : "hop slot");
}

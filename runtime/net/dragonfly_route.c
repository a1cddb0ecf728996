/*
 * dragonfly_route.c - routing and virtual-channel assignment.
 *
 * Algorithms (chosen per model):
 *   minimal   at most local, global, local. Towards another group a router
 *             uses its own global link to that group if it has one, else goes
 *             to a router of its group that has one (random among several).
 *   nonminimal Valiant: at the source router pick a random intermediate group
 *             (not the source's or the destination's), route minimally to it,
 *             then minimally to the destination. A destination inside the
 *             source group goes through a random intermediate router instead.
 *   ugal      UGAL-L: at the source router compare the minimal first hop with
 *             the first hop towards a random intermediate; stay minimal iff
 *             q_min <= 2 q_nonmin + ugal_bias, with q the port's load in bytes
 *             (queued here + held in the downstream buffers). The factor 2 is
 *             the usual estimate of the non-minimal/minimal path length ratio.
 *   par       progressive adaptive: the UGAL-L test is repeated at every router
 *             of the source group while the packet is still minimal and has
 *             taken at most one local hop; once non-minimal it stays so.
 *
 * Deadlock freedom. Every hop falls into one of six slots, which any path
 * visits in strictly increasing order:
 *
 *   slot  0: local, 1st in source group     -> local VC 0
 *   slot  1: local, 2nd in source group     -> local VC 1 (Valiant inside a group; PAR after a minimal hop)
 *   slot  2: first global hop               -> global VC 0
 *   slot  3: local in intermediate group    -> local VC 2
 *   slot  4: second global hop              -> global VC 1
 *   slot  5: local in destination group     -> local VC 3
 *
 * A packet holding a buffer of slot k only ever waits for a buffer of a slot
 * > k or for ejection, which always drains; so the channel-dependency graph
 * has no cycle and no routing mode can deadlock. Hence 4 VCs on local ports,
 * 2 on global ports and 1 on terminal ports (Kim et al., ISCA 2008, use the
 * same idea with one VC per hop class).
 */
#include "runtime/net/dragonfly_model.h"

uint64_t df_port_load(df_model *m, uint32_t r, uint32_t port)
{
	size_t ix = df_pix(m, r, port);
	df_port *P = &m->ports[ix];
	if (P->npend)
		df_port_absorb(m, ix, sim_now(m->ctx));
	enum df_class cls = df_topo_class(&m->topo, port);
	uint64_t held = 0;
	for (unsigned v = 0; v < P->nvc; v++)
		held += m->cfg.vc_size[cls] - (uint64_t)(int64_t)P->credits[v];
	return m->pstat[ix].qbytes + held;
}

static uint32_t rnd(df_model *m, uint32_t r, uint32_t n)
{
	return (uint32_t)(sim_rng_u64(m->ctx, m->router0 + r) % n);
}

/* The choice toward_group makes without drawing: the router's only own link to g, or the group's only link. */
static uint32_t fixed_toward_group(const df_topo *T, uint32_t r, uint32_t g)
{
	uint32_t cg = r / T->a, ri = r % T->a;
	const uint32_t *lo = T->gw + T->gw_start[(size_t)cg * T->g + g];
	const uint32_t *hi = T->gw + T->gw_start[(size_t)cg * T->g + g + 1];
	uint32_t n = (uint32_t)(hi - lo), own = 0, first = 0;
	for (uint32_t i = 0; i < n; i++)
		if ((lo[i] >> 8) == ri && !own++)
			first = i;
	if (own == 1)
		return df_topo_global_port(T, lo[first] & 0xff);
	if (own == 0 && n == 1)
		return df_topo_local_port(T, ri, lo[0] >> 8);
	return DF_NONE;
}

void df_build_to_group(df_model *m)
{
	const df_topo *T = &m->topo;
	m->to_group = xmalloc((size_t)T->nrouters * T->g * sizeof *m->to_group);
	m->grp = xmalloc((size_t)T->nrouters * sizeof *m->grp);
	m->node_rt = xmalloc((size_t)T->nnodes * sizeof *m->node_rt);
	for (uint32_t r = 0; r < T->nrouters; r++)
		m->grp[r] = r / T->a;
	for (uint32_t i = 0; i < T->nnodes; i++)
		m->node_rt[i] = i / T->p;
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t g = 0; g < T->g; g++)
			m->to_group[(size_t)r * T->g + g] = g == r / T->a ? DF_NONE : fixed_toward_group(T, r, g);
}

/* df_toward_group; static, so that the native routing's calls stay inlined in a shared library. */
static uint32_t toward_group(df_model *m, uint32_t r, uint32_t g)
{
	const df_topo *T = &m->topo;
	uint32_t fixed = m->to_group[(size_t)r * T->g + g];
	if (fixed != DF_NONE)
		return fixed;
	uint32_t cg = r / T->a, ri = r % T->a;
	const uint32_t *lo = T->gw + T->gw_start[(size_t)cg * T->g + g];
	const uint32_t *hi = T->gw + T->gw_start[(size_t)cg * T->g + g + 1];
	uint32_t n = (uint32_t)(hi - lo), own = 0;
	for (uint32_t i = 0; i < n; i++)
		if ((lo[i] >> 8) == ri)
			own++;
	if (own > 1) {
		uint32_t pick = rnd(m, r, own);
		for (uint32_t i = 0; i < n; i++)
			if ((lo[i] >> 8) == ri && !pick--)
				return df_topo_global_port(T, lo[i] & 0xff);
	}
	uint32_t e = lo[rnd(m, r, n)];
	return df_topo_local_port(T, ri, e >> 8);
}

static uint32_t toward_router(df_model *m, uint32_t r, uint32_t d)
{
	const df_topo *T = &m->topo;
	uint32_t cg = m->grp[r], dg = m->grp[d];
	if (cg == dg)
		return df_topo_local_port(T, r - cg * T->a, d - dg * T->a);
	return toward_group(m, r, dg);
}

/*
 * Maps x, drawn uniformly from n-2 values, to the x-th of 0..n-1 other than
 * the distinct values a and b, so the draw stays uniform over the candidates.
 */
static uint32_t skip_two(uint32_t x, uint32_t a, uint32_t b)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	if (x >= lo)
		x++;
	if (x >= hi)
		x++;
	return x;
}

/* Picks an intermediate for pk at router r; returns 0 if the machine has no candidate. */
static int pick_intermediate(df_model *m, uint32_t r, df_pkt *pk, uint32_t dr)
{
	const df_topo *T = &m->topo;
	uint32_t cg = r / T->a, dg = dr / T->a;
	if (cg == dg) {
		if (T->a < 3)
			return 0;
		pk->inter = skip_two(rnd(m, r, T->a - 2), r % T->a, dr % T->a);
		pk->flags |= DF_PKT_NONMIN | DF_PKT_INTRA;
		return 1;
	}
	if (T->g < 3)
		return 0;
	pk->inter = skip_two(rnd(m, r, T->g - 2), cg, dg);
	pk->flags |= DF_PKT_NONMIN;
	return 1;
}

/* Next port of a non-minimal packet that has not reached its intermediate yet (DF_NONE once reached). */
static uint32_t toward_intermediate(df_model *m, uint32_t r, df_pkt *pk)
{
	const df_topo *T = &m->topo;
	if (pk->flags & DF_PKT_INTRA) {
		if (r % T->a == pk->inter) {
			pk->flags |= DF_PKT_REACHED;
			return DF_NONE;
		}
		return df_topo_local_port(T, r % T->a, pk->inter);
	}
	if (r / T->a == pk->inter) {
		pk->flags |= DF_PKT_REACHED;
		return DF_NONE;
	}
	return toward_group(m, r, pk->inter);
}

/* UGAL-L test at router r: diverts pk through an intermediate if the minimal port is loaded enough. */
static void adapt(df_model *m, uint32_t r, df_pkt *pk, uint32_t dr, uint32_t min_port)
{
	df_pkt trial = *pk;
	if (!pick_intermediate(m, r, &trial, dr))
		return;
	uint32_t nm_port = toward_intermediate(m, r, &trial);
	if (nm_port == DF_NONE || nm_port == min_port)
		return;
	double qm = (double)df_port_load(m, r, min_port), qn = (double)df_port_load(m, r, nm_port);
	if (qm <= 2.0 * qn + m->cfg.ugal_bias)
		return;
	*pk = trial;
}

uint32_t df_rnd(df_model *m, uint32_t r, uint32_t n) { return rnd(m, r, n); }
uint32_t df_toward_group(df_model *m, uint32_t r, uint32_t g) { return toward_group(m, r, g); }
uint32_t df_skip_two(uint32_t x, uint32_t a, uint32_t b) { return skip_two(x, a, b); }

void df_route(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc)
{
	const df_topo *T = &m->topo;
	uint32_t dr = m->node_rt[pk->dst];
	if (r == dr) {
		*port = pk->dst - dr * T->p;
		*vc = 0;
		return;
	}
	uint32_t p = DF_NONE;
	if (!(pk->flags & DF_PKT_NONMIN)) {
		switch (m->cfg.routing) {
		case DF_ROUTE_MINIMAL:
			break;
		case DF_ROUTE_VALIANT:
			if (pk->hops == 0)
				(void)pick_intermediate(m, r, pk, dr); /* no candidate: the packet stays minimal */
			break;
		case DF_ROUTE_UGAL:
			if (pk->hops == 0) {
				p = toward_router(m, r, dr);
				adapt(m, r, pk, dr, p);
			}
			break;
		case DF_ROUTE_PAR:
			if (pk->ghops == 0 && pk->lhops < 2 && (pk->hops == 0 || m->grp[r] != m->grp[dr])) {
				p = toward_router(m, r, dr);
				adapt(m, r, pk, dr, p);
			}
			break;
		}
		if (pk->flags & DF_PKT_NONMIN)
			p = DF_NONE;
	}
	if ((pk->flags & (DF_PKT_NONMIN | DF_PKT_REACHED)) == DF_PKT_NONMIN)
		p = toward_intermediate(m, r, pk);
	if (p == DF_NONE)
		p = toward_router(m, r, dr);
	*port = p;
	*vc = df_vc_slots(m, r, dr, pk, p);
}

/*
 * dragonfly_codes.c - routing under CODES' rules (rules = codes): the
 * decisions of the routing functions of CODES' dragonfly-dally model
 * (codes-org/codes, src/networks/model-net/dragonfly-dally.C; the names below
 * are its functions). doc/dragonfly.md sets them beside ncsim's own rules.
 *
 *   do_dfdally_routing     at the destination router: its terminal; in the
 *                          destination group: the direct local link, for
 *                          every algorithm, so traffic that stays inside a
 *                          group is never diverted. At the source router of
 *                          a packet bound for another group, an intermediate
 *                          group is drawn (dfdally_select_intermediate_group):
 *                          any group but the source's and the destination's.
 *   dfdally_minimal_routing
 *                          a random own global link to the destination group,
 *                          else a random local link to a router of the group
 *                          that has one (get_legal_minimal_stops).
 *   dfdally_nonminimal_routing
 *                          minimally to the intermediate group, then
 *                          minimally to the destination.
 *   dfdally_prog_adaptive_routing (PAR)
 *                          at every router of the source group: take the
 *                          minimal candidate iff its score is at most
 *                          adaptive_threshold or at most the non-minimal
 *                          candidate's score (which `delta` scoring doubles);
 *                          no bias. A packet that turned non-minimal goes to
 *                          its intermediate group, then minimally on.
 *   get_legal_nonminimal_stops
 *                          the source router reaches the intermediate group
 *                          by its own link or through the router that has
 *                          one; a later router of the source group that has
 *                          no own link to it draws a new intermediate group
 *                          among those its own global links reach.
 *   dfdally_get_best_from_k_connections, get_absolute_best_connection_from_conns
 *                          among global candidates the best of global_k_picks
 *                          random ones, among local candidates the best of
 *                          all; ties at random.
 *   dfdally_score_connection
 *                          a port's score: the bytes in its VCs (queued here
 *                          and sent on, not yet accepted downstream) plus the
 *                          bytes stalled for it, i.e. df_port_load.
 *
 * `adaptive` has no implementation in CODES' dragonfly-dally (do_dfdally_routing
 * stops with an error); here it is PAR's test made at the source router only.
 * Packets are routed whole: CODES routes each chunk, which is the same when
 * chunk_size = packet_size.
 */
#include "runtime/net/dragonfly_model.h"

/*
 * The links router r has towards group g: its own global links to g
 * (own > 0), else every link of its group to g, each reached through the
 * local port to the router that holds it.
 */
typedef struct df_cands {
	const uint32_t *lo; /* gw entries: (router index << 8) | global slot */
	uint32_t n;         /* entries in lo */
	uint32_t own;       /* r's own entries among them */
	uint32_t ri;        /* r's index in its group */
} df_cands;

static df_cands cands_of(const df_model *m, uint32_t r, uint32_t g)
{
	const df_topo *T = &m->topo;
	size_t k = (size_t)m->grp[r] * T->g + g;
	df_cands c = {.lo = T->gw + T->gw_start[k], .n = T->gw_start[k + 1] - T->gw_start[k], .ri = r % T->a};
	for (uint32_t i = 0; i < c.n; i++)
		if ((c.lo[i] >> 8) == c.ri)
			c.own++;
	return c;
}

static uint32_t cands_count(const df_cands *c) { return c->own ? c->own : c->n; }

/* The port of candidate i (0 <= i < cands_count). */
static uint32_t cand_port(const df_topo *T, const df_cands *c, uint32_t i)
{
	if (!c->own)
		return df_topo_local_port(T, c->ri, c->lo[i] >> 8);
	for (uint32_t k = 0;; k++)
		if ((c->lo[k] >> 8) == c->ri && !i--)
			return df_topo_global_port(T, c->lo[k] & 0xff);
}

/* The candidate PAR takes: the lowest score among k random own links, or among all local ones; ties at random. */
static uint32_t best_port(df_model *m, uint32_t r, const df_cands *c)
{
	const df_topo *T = &m->topo;
	uint32_t n = cands_count(c);
	if (n <= 1)
		return n ? cand_port(T, c, 0) : DF_NONE;
	uint32_t idx[256], k = n;
	if (c->own) {
		/* A router has at most 255 global links: draw k of them without replacement. */
		k = m->cfg.k_picks < n ? m->cfg.k_picks : n;
		for (uint32_t i = 0; i < n; i++)
			idx[i] = i;
		for (uint32_t i = 0; i < k; i++) {
			uint32_t j = i + df_rnd(m, r, n - i), t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
		}
	}
	uint32_t best = DF_NONE, ties = 0;
	uint64_t low = UINT64_MAX;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t port = cand_port(T, c, c->own ? idx[i] : i);
		uint64_t s = df_port_load(m, r, port);
		if (s < low) {
			low = s;
			best = port;
			ties = 1;
		} else if (s == low && df_rnd(m, r, ++ties) == 0) {
			best = port;
		}
	}
	return best;
}

/* A random group, other than the source's and the destination's, that one of r's own global links reaches. */
static uint32_t redraw_group(df_model *m, uint32_t r, uint32_t dg)
{
	const df_topo *T = &m->topo;
	uint32_t seen[256], n = 0, cg = m->grp[r];
	for (uint32_t k = 0; k < T->h; k++) {
		uint32_t peer = T->peer[df_pix(m, r, df_topo_global_port(T, k))];
		if (peer == DF_NONE)
			continue;
		uint32_t g = m->grp[peer], i = 0;
		while (i < n && seen[i] != g)
			i++;
		if (g != cg && g != dg && i == n)
			seen[n++] = g;
	}
	return n ? seen[df_rnd(m, r, n)] : DF_NONE;
}

/* The non-minimal candidate of pk at r (get_legal_nonminimal_stops), or DF_NONE outside the source group. */
static uint32_t nonmin_port(df_model *m, uint32_t r, df_pkt *pk, uint32_t dg)
{
	if (pk->ghops || pk->inter == DF_NONE)
		return DF_NONE;
	df_cands c = cands_of(m, r, pk->inter);
	if (pk->hops && !c.own) {
		uint32_t g = redraw_group(m, r, dg);
		if (g == DF_NONE)
			return DF_NONE;
		pk->inter = g;
		c = cands_of(m, r, g);
	}
	return best_port(m, r, &c);
}

/* PAR's decision at r (at the source router only unless progressive). */
static uint32_t prog_adaptive(df_model *m, uint32_t r, df_pkt *pk, uint32_t dg, int progressive)
{
	if (pk->inter != DF_NONE && m->grp[r] == pk->inter)
		pk->flags |= DF_PKT_REACHED;
	uint32_t nm;
	if ((pk->flags & (DF_PKT_NONMIN | DF_PKT_REACHED)) == DF_PKT_NONMIN && (nm = nonmin_port(m, r, pk, dg)) != DF_NONE)
		return nm;
	df_cands c = cands_of(m, r, dg);
	uint32_t mp = best_port(m, r, &c);
	if ((pk->flags & DF_PKT_NONMIN) || (!progressive && pk->hops) || (nm = nonmin_port(m, r, pk, dg)) == DF_NONE)
		return mp;
	uint64_t qm = df_port_load(m, r, mp), qn = df_port_load(m, r, nm);
	if (m->cfg.scoring == DF_SCORE_DELTA)
		qn *= 2;
	if (qm <= m->cfg.adaptive_threshold || qm <= qn)
		return mp;
	pk->flags |= DF_PKT_NONMIN;
	return nm;
}

/* dfdally_nonminimal_routing: minimally to the intermediate group, then to the destination group. */
static uint32_t nonminimal(df_model *m, uint32_t r, df_pkt *pk, uint32_t dg)
{
	if (pk->inter != DF_NONE && m->grp[r] == pk->inter)
		pk->flags |= DF_PKT_REACHED;
	int via = pk->inter != DF_NONE && !(pk->flags & DF_PKT_REACHED);
	return df_toward_group(m, r, via ? pk->inter : dg);
}

void df_route_codes(df_model *m, uint32_t r, df_pkt *pk, uint32_t *port, uint8_t *vc)
{
	const df_topo *T = &m->topo;
	uint32_t dr = m->node_rt[pk->dst], dg = m->grp[dr];
	unsigned flags_in = pk->flags;
	uint32_t p;
	if (r == dr) {
		p = pk->dst - dr * T->p;
	} else if (m->grp[r] == dg) {
		p = df_topo_local_port(T, r % T->a, dr % T->a);
	} else {
		if (pk->hops == 0 && m->cfg.routing != DF_ROUTE_MINIMAL && T->g > 2) {
			pk->inter = df_skip_two(df_rnd(m, r, T->g - 2), m->grp[r], dg);
			if (m->cfg.routing == DF_ROUTE_VALIANT)
				pk->flags |= DF_PKT_NONMIN;
		}
		switch (m->cfg.routing) {
		case DF_ROUTE_VALIANT:
			p = nonminimal(m, r, pk, dg);
			break;
		case DF_ROUTE_UGAL:
			p = prog_adaptive(m, r, pk, dg, 0);
			break;
		case DF_ROUTE_PAR:
			p = prog_adaptive(m, r, pk, dg, 1);
			break;
		default:
			p = df_toward_group(m, r, dg);
			break;
		}
	}
	*port = p;
	*vc = df_vc_of(m, r, dr, pk, p, flags_in);
}

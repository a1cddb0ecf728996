/*
 * dragonfly_part.c - how a dragonfly is split over the ranks of a parallel
 * run (doc/parallel.md, "Partitioning").
 *
 * Whole groups go to a rank, with their routers and NICs: inside a group
 * every router talks to every other one over local links, and a cut there
 * would cross far more links than a cut between groups (a group has a(a-1)
 * local and a*h global ports). Only global links then cross ranks, so the
 * lookahead is the least delay of anything sent over a global link.
 *
 * Expected load of group g with node weights w (1 per node that injects:
 * every node under netbench; the nodes that hold tasks under `ncsim run`):
 *
 *   load(g) = W(g) + W / G        W(g): the weight of g's nodes, W: the total
 *
 * The first term is the traffic g's nodes inject and receive; the second
 * the transit share, since minimal and adaptive routes spread the
 * router-to-router hops of the whole machine over every group evenly under
 * uniform destinations. Groups are dealt by longest processing time first
 * (heaviest group to the lightest rank; ties by the lower group, then the
 * lower rank), a deterministic 4/3-approximation of the best balance.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "runtime/net/dragonfly_model.h"

typedef struct group_load {
	double load;
	uint32_t g;
} group_load;

static int heavier_first(const void *pa, const void *pb)
{
	const group_load *a = pa, *b = pb;
	if (a->load != b->load)
		return a->load > b->load ? -1 : 1;
	return a->g < b->g ? -1 : a->g > b->g;
}

int df_partition_groups(const net_model *nm, uint32_t ranks, const double *node_weight, df_partition *out,
                        char **err)
{
	const df_model *m = (const df_model *)nm;
	const df_topo *T = &m->topo;
	*out = (df_partition){0};
	if (ranks == 0 || ranks > T->g)
		return df_fail(err, "a dragonfly of %" PRIu32 " groups cannot be split over %" PRIu32 " ranks "
		                    "(whole groups per rank)", T->g, ranks);
	group_load *gl = xcalloc(T->g, sizeof *gl);
	double total = 0;
	for (uint32_t n = 0; n < T->nnodes; n++) {
		double w = node_weight ? node_weight[n] : 1.0;
		gl[n / (T->a * T->p)].load += w;
		total += w;
	}
	for (uint32_t g = 0; g < T->g; g++) {
		gl[g].g = g;
		gl[g].load += total / T->g;
	}
	qsort(gl, T->g, sizeof *gl, heavier_first);
	out->ranks = ranks;
	out->group_rank = xcalloc(T->g, sizeof *out->group_rank);
	out->load = xcalloc(ranks, sizeof *out->load);
	out->groups = xcalloc(ranks, sizeof *out->groups);
	for (uint32_t i = 0; i < T->g; i++) {
		uint32_t best = 0;
		for (uint32_t r = 1; r < ranks; r++)
			if (out->load[r] < out->load[best])
				best = r;
		out->group_rank[gl[i].g] = best;
		out->load[best] += gl[i].load;
		out->groups[best]++;
	}
	double max = 0, sum = 0;
	for (uint32_t r = 0; r < ranks; r++) {
		sum += out->load[r];
		if (out->load[r] > max)
			max = out->load[r];
	}
	out->imbalance = sum > 0 ? max / (sum / ranks) : 1.0;
	/* Global links whose two ends lie on different ranks. */
	for (uint32_t r = 0; r < T->nrouters; r++)
		for (uint32_t port = 0; port < m->nports; port++) {
			size_t ix = df_pix(m, r, port);
			if (df_topo_class(T, port) == DF_GLOBAL && T->peer[ix] != DF_NONE &&
			    out->group_rank[r / T->a] != out->group_rank[T->peer[ix] / T->a])
				out->cut++;
		}
	free(gl);
	return 0;
}

void df_partition_clear(df_partition *p)
{
	free(p->group_rank);
	free(p->load);
	free(p->groups);
	*p = (df_partition){0};
}

void df_partition_print(const net_model *nm, const df_partition *p, FILE *out)
{
	const df_model *m = (const df_model *)nm;
	const df_topo *T = &m->topo;
	fprintf(out, "partition: %" PRIu32 " groups over %" PRIu32 " ranks, %" PRIu64
	             " global link ends cross ranks, load imbalance %.3f (busiest rank / mean)\n",
	        T->g, p->ranks, p->cut, p->imbalance);
	for (uint32_t r = 0; r < p->ranks; r++) {
		fprintf(out, "  rank %" PRIu32 ": %" PRIu32 " groups, load %.1f, groups", r, p->groups[r], p->load[r]);
		/* Runs of consecutive groups, as "0-3 8 10-11". */
		for (uint32_t g = 0; g < T->g; g++) {
			if (p->group_rank[g] != r || (g > 0 && p->group_rank[g - 1] == r))
				continue;
			uint32_t e = g;
			while (e + 1 < T->g && p->group_rank[e + 1] == r)
				e++;
			if (e > g)
				fprintf(out, " %" PRIu32 "-%" PRIu32, g, e);
			else
				fprintf(out, " %" PRIu32, g);
		}
		fputc('\n', out);
	}
}

void df_partition_owner(const net_model *nm, const df_partition *p, uint32_t *owner)
{
	const df_model *m = (const df_model *)nm;
	const df_topo *T = &m->topo;
	for (uint32_t r = 0; r < T->nrouters; r++)
		owner[m->router0 + r] = p->group_rank[r / T->a];
	for (uint32_t n = 0; n < T->nnodes; n++)
		owner[m->nic0 + n] = p->group_rank[n / (T->a * T->p)];
	owner[m->wd] = 0;
}

uint32_t df_partition_rank_of_node(const net_model *nm, const df_partition *p, uint32_t node)
{
	const df_model *m = (const df_model *)nm;
	return p->group_rank[node / (m->topo.a * m->topo.p)];
}

ncsim_time_t df_lookahead(const net_model *nm, uint32_t min_packet)
{
	const df_model *m = (const df_model *)nm;
	/* A packet's head reaches the next router a chunk, the latency and the router delay after it starts. */
	uint32_t c = min_packet < m->cfg.chunk_size ? min_packet : m->cfg.chunk_size;
	ncsim_time_t pkt = sim_xfer_time(c, m->cfg.bw[DF_GLOBAL]) + m->cfg.latency[DF_GLOBAL] + m->cfg.router_delay;
	/*
	 * A credit returns credit_delay after the packet's tail leaves the
	 * downstream router, which is at least a whole packet's serialization
	 * after that router decides to send it, on its fastest link.
	 */
	double fastest = 0;
	for (int k = 0; k < DF_NCLASSES; k++)
		if (m->cfg.bw[k] > fastest)
			fastest = m->cfg.bw[k];
	uint32_t b = min_packet < m->cfg.packet_size ? min_packet : m->cfg.packet_size;
	ncsim_time_t credit = sim_xfer_time(b, fastest) + m->cfg.credit_delay[DF_GLOBAL];
	if (m->accept) /* credit_return = accept: the credit leaves as the packet enters its output VC */
		credit = m->cfg.credit_delay[DF_GLOBAL];
	return pkt < credit ? pkt : credit;
}

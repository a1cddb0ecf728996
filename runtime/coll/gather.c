/*
 * gather.c - rt_gather, rt_gatherv and rt_scatter, linear or binomial
 * ([collectives] gather / scatter).
 *
 * Linear: every non-root member exchanges its own block directly with the
 * root; P-1 messages, sum of the non-root blocks in bytes. The root's
 * injection (scatter) or ejection (gather) port serialises them all.
 *
 * Binomial: the broadcast tree (coll_tree_up, coll_tree_down). The subtree of relative
 * index v covers relative indices [v, v + lowbit(v)) clipped to P (all of
 * them for the root); a member sends (gather) or receives (scatter) the
 * blocks of its whole subtree in one message. Each block travels one hop
 * per set bit of its relative index:
 *
 *   P-1 messages, bytes = sum_j s_j * popcount(v_j)  (= S * B(P) if uniform)
 *
 *   P = 6, S each:   v=1: [1]    S       v=2: [2,3] 2S    v=3: [3]  S
 *                    v=4: [4,5] 2S       v=5: [5]   S     total 7S = S*B(6)
 */
#include "runtime/coll/algo.h"

void coll_linear_blocks(rt_task *t, const rt_group *g, int me, int root, const uint64_t *bytes,
                        uint64_t each, int to_root, const coll_op *op)
{
	int P = g->n;
	if (me != root) {
		uint64_t b = bytes ? bytes[me] : each;
		if (to_root)
			coll_send(t, g, root, b, op);
		else
			coll_recv(t, g, root, b, op);
		return;
	}
	coll_reqs q;
	coll_reqs_init(t, &q, P);
	/* Ascending member order, so the serialisation order is deterministic and documented. */
	for (int j = 0; j < P; j++) {
		if (j == root)
			continue;
		uint64_t b = bytes ? bytes[j] : each;
		q.r[q.n++] = to_root ? coll_irecv(t, g, j, b, op) : coll_isend(t, g, j, b, op);
	}
	coll_reqs_wait(t, &q);
}

/*
 * The algorithm of a gather, gatherv or scatter: the key, else the
 * selector's rule for the block size; MPICH and Open MPI gather varying
 * blocks linearly (MPICH's gatherv_allcomm_linear; coll/tuned has no
 * gatherv rule and leaves it to basic's linear one).
 */
static int is_linear(const coll_config *cfg, enum coll_kind k, int P, const uint64_t *bytes, uint64_t each)
{
	if (bytes && cfg->alg[k] == COLL_AUTO && cfg->selector != COLL_SEL_FIXED)
		return 1;
	int alg = coll_choose(cfg, k, P, each).alg;
	return alg == COLL_GATHER_LINEAR || alg == COLL_SCATTER_LINEAR;
}

/* Gather (to_root) or scatter of the blocks (bytes[j], or `each` when bytes is NULL) with cfg's algorithm. */
static void blocks(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                   const uint64_t *bytes, uint64_t each, int to_root)
{
	const char *what = to_root ? "gather" : "scatter";
	int me = coll_my_index(t, g, what);
	int r = coll_root_index(t, g, root, what);
	coll_op op = coll_begin(t, g, a);
	const coll_tree_load load = {.each = each, .blocks = bytes, .per_block = 1};
	if (is_linear(cfg, to_root ? COLL_GATHER : COLL_SCATTER, g->n, bytes, each))
		coll_linear_blocks(t, g, me, r, bytes, each, to_root, &op);
	else if (to_root)
		coll_tree_up(t, g, me, r, &load, &op);
	else
		coll_tree_down(t, g, me, r, &load, &op);
	coll_end(t);
}

void coll_gather_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                    const uint64_t *bytes, uint64_t each)
{
	blocks(t, cfg, a, g, root, bytes, each, 1);
}

void coll_gather_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root,
                      const uint64_t *bytes, uint64_t each)
{
	coll_gather_as(t, cfg, NULL, g, root, bytes, each);
}

void coll_scatter_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root, uint64_t bytes)
{
	blocks(t, cfg, NULL, g, root, NULL, bytes, 0);
}

void rt_gather(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_gather_with(t, coll_cfg(t), g, root, NULL, bytes);
}

void rt_gatherv(rt_task *t, const rt_group *g, rt_int root, const uint64_t *bytes)
{
	coll_gather_with(t, coll_cfg(t), g, root, bytes, 0);
}

void rt_scatter(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes)
{
	coll_scatter_with(t, coll_cfg(t), g, root, bytes);
}

/*
 * allgather.c - allgather: recursive doubling, Bruck, ring, neighbor
 * exchange. Member i contributes block i (S bytes); every member ends with
 * all P blocks, P*(P-1)*S bytes on the wire whatever the algorithm.
 *
 * Recursive doubling (MPICH allgather_intra_recursive_doubling): in the
 * round of distance d = 1, 2, .., P/2, i and i xor d swap the d blocks of
 * their aligned group [i & ~(d-1), +d): P*lg messages. Open MPI runs it only
 * when P is a power of two and uses Bruck otherwise; so does ncsim (MPICH's
 * rules never pick it for other P).
 *
 *   P = 4:  d = 1: 0<->1 (1 block)  2<->3        d = 2: 0<->2 (2 blocks)  1<->3
 *
 * Bruck (MPICH allgather_intra_brucks): in the round of distance d = 1, 2,
 * 4, .. while d <= P/2, member i sends the d blocks it holds to i - d and
 * receives d from i + d; a last round moves the P - 2^k missing blocks.
 * ceil(log2 P) rounds for any P: P*ceil(log2 P) messages.
 *
 * Ring (MPICH allgather_intra_ring): P-1 steps; in step s member i passes
 * block i - s to i + 1 and receives block i - s - 1 from i - 1.
 *
 * Neighbor exchange (Open MPI allgather_intra_neighborexchange, P even,
 * else the ring): even i pairs with i+1 first, odd i with i-1; the first
 * step swaps one block, the P/2 - 1 later steps swap two, alternating
 * between the left and the right neighbor: P*P/2 messages.
 *
 * The ring and recursive doubling also serve the broadcast's allgather
 * phase, over relative indices and blocks of unequal size (coll_blocks).
 */
#include "runtime/coll/algo.h"

void coll_allgather_ring(rt_task *t, const rt_group *g, int me, int root, const coll_blocks *v,
                         const coll_op *op)
{
	int P = g->n, r = coll_rel(me, root, P);
	int right = coll_member(r + 1, root, P), left = coll_member(r - 1 + P, root, P);
	for (int s = 0; s < P - 1; s++) {
		int sb = (int)(((int64_t)r - s + P) % P), rb = (int)(((int64_t)r - s - 1 + 2 * (int64_t)P) % P);
		coll_sendrecv(t, g, right, coll_blocks_range(v, sb, sb + 1), left, coll_blocks_range(v, rb, rb + 1), op);
	}
}

void coll_allgather_recdbl(rt_task *t, const rt_group *g, int me, int root, const coll_blocks *v,
                           const coll_op *op)
{
	int P = g->n, r = coll_rel(me, root, P);
	for (int d = 1; d < P; d *= 2) {
		int peer = r ^ d, mine = r & ~(d - 1), theirs = peer & ~(d - 1);
		coll_sendrecv(t, g, coll_member(peer, root, P), coll_blocks_range(v, mine, mine + d),
		              coll_member(peer, root, P), coll_blocks_range(v, theirs, theirs + d), op);
	}
}

static void allgather_bruck(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	int64_t d = 1;
	for (; d <= P / 2; d *= 2)
		coll_sendrecv(t, g, (int)((me - d + P) % P), (uint64_t)d * bytes, (int)((me + d) % P),
		              (uint64_t)d * bytes, op);
	if (P - d > 0)
		coll_sendrecv(t, g, (int)((me - d + P) % P), (uint64_t)(P - d) * bytes, (int)((me + d) % P),
		              (uint64_t)(P - d) * bytes, op);
}

static void allgather_neighbor(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	int P = g->n;
	/* nb[0]: the first partner, nb[1]: the other side; even members start to the right. */
	int nb[2] = { me % 2 ? (me - 1 + P) % P : (me + 1) % P, me % 2 ? (me + 1) % P : (me - 1 + P) % P };
	coll_sendrecv(t, g, nb[0], bytes, nb[0], bytes, op);
	for (int s = 1; s < P / 2; s++)
		coll_sendrecv(t, g, nb[s % 2], 2 * bytes, nb[s % 2], 2 * bytes, op);
}

void coll_allgather_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "allgather");
	int P = g->n;
	coll_check_blocks(t, P, bytes, "allgather");
	coll_op op = coll_begin(t, g, NULL);
	coll_blocks v = {.each = bytes, .n = P, .uniform = 1};
	int alg = P > 1 ? coll_choose(cfg, COLL_ALLGATHER, P, bytes).alg : COLL_AUTO;
	int pow2 = (P & (P - 1)) == 0;
	if (alg == COLL_ALLGATHER_RECDBL && pow2)
		coll_allgather_recdbl(t, g, me, 0, &v, &op);
	else if (alg == COLL_ALLGATHER_RECDBL || alg == COLL_ALLGATHER_BRUCK)
		allgather_bruck(t, g, me, bytes, &op);
	else if (alg == COLL_ALLGATHER_NEIGHBOR && P % 2 == 0)
		allgather_neighbor(t, g, me, bytes, &op);
	else if (alg != COLL_AUTO)
		coll_allgather_ring(t, g, me, 0, &v, &op);
	coll_end(t);
}

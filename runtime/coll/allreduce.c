/*
 * allreduce.c - rt_allreduce and rt_allreduce_value: recursive doubling,
 * Rabenseifner, ring, segmented ring, reduce + broadcast and linear.
 *
 * Recursive doubling (MPICH allreduce_intra_recursive_doubling, Open MPI
 * allreduce_intra_recursivedoubling) on P members, pof2 = largest power of
 * two <= P, rem = P - pof2:
 *
 *   pre step   members 0 .. 2*rem-1 pair up (2j, 2j+1): 2j sends its S bytes
 *              to 2j+1 and sits out; the pof2 survivors get new indices
 *              n = j for 2j+1 < 2*rem, n = i - rem above (halving.c);
 *   rounds     for d = 1, 2, .., pof2/2: new index n exchanges S bytes with
 *              n xor d (one send and one receive each);
 *   post step  2j+1 sends the result (S bytes) back to 2j.
 *
 *   messages = 2*rem + pof2*log2(pof2), each of S bytes.
 *
 * Rabenseifner (MPICH allreduce_intra_reduce_scatter_allgather): the same
 * pre and post steps around a reduce-scatter by recursive halving of pof2
 * balanced blocks (distance 1 first) and the allgather by recursive doubling
 * that undoes it (halving.c). Each phase moves (pof2-1)*S bytes in
 * pof2*lg messages, S/2, S/4, .. per member and round.
 *
 * Ring on P >= 2 members: S is cut into P chunks (coll_ring_chunk). Step
 * s = 0 .. P-2 of the reduce-scatter: member i sends chunk (i - s) mod P to
 * i+1 and receives chunk (i - s - 1) mod P from i-1, which it reduces into
 * its copy; after P-1 steps member i holds the fully reduced chunk
 * (i + 1) mod P. The allgather then circulates the reduced chunks: step s
 * sends chunk (i + 1 - s) mod P and receives chunk (i - s) mod P.
 *
 *   member i sends every chunk but one per phase:
 *   messages = 2*P*(P-1), bytes = 2*(P-1)*S.
 *
 * Every step waits for its send and its receive, so each chunk travels the
 * ring hop by hop: on a network without contention the ring takes
 * 2*(P-1) steps of one ceil(S/P)-byte message each.
 *
 * Segmented ring (Open MPI allreduce_intra_ring_segmented): each chunk is
 * cut into F = ceil(ceil(S/P) / segment) balanced pieces and the
 * reduce-scatter runs once per piece (F*(P-1) steps); the allgather moves
 * whole chunks as in the ring. Messages P*(P-1)*(F+1), bytes 2*(P-1)*S.
 *
 * Reduce + broadcast (Open MPI allreduce_intra_nonoverlapping): a reduce to
 * member 0 and a broadcast from it, each with the algorithm the
 * configuration chooses for S; linear (allreduce_intra_basic_linear) is
 * the linear reduce followed by the linear broadcast.
 */
#include "runtime/task/drv_par.h"
#include "runtime/coll/algo.h"

#include "base/checked.h"
#include "runtime/mpi/p2p.h"

static void allreduce_recdbl(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	coll_fold f = coll_fold_of(g->n, 1);
	int n = coll_fold_in(t, g, &f, me, bytes, &bytes, op);
	if (n < 0)
		return;
	for (int d = 1; d < f.pof2; d *= 2) {
		int peer = coll_fold_member(&f, n ^ d);
		coll_sendrecv(t, g, peer, bytes, peer, bytes, op);
	}
	coll_fold_out(t, g, &f, me, bytes, op);
}

static void allreduce_rabenseifner(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op)
{
	coll_fold f = coll_fold_of(g->n, 1);
	int n = coll_fold_in(t, g, &f, me, bytes, &bytes, op);
	if (n < 0)
		return;
	coll_blocks v = {.total = bytes, .n = f.pof2};
	coll_range ranges[32];
	coll_halving(t, g, &f, n, 1, coll_range_of_blocks, &v, ranges, op);
	coll_doubling(t, g, &f, n, coll_range_of_blocks, &v, ranges, op);
	coll_fold_out(t, g, &f, me, bytes, op);
}

/* Piece f of F of a block of c bytes (coll_ring_chunk; the whole block when F = 1). */
static uint64_t ring_piece(uint64_t c, int F, int f) { return F == 1 ? c : coll_ring_chunk(c, F, f); }

void coll_ring_pass(rt_task *t, const rt_group *g, int me, int off, uint64_t bytes, int F, int f,
                    const coll_op *op)
{
	int P = g->n;
	int right = me + 1 < P ? me + 1 : 0, left = me > 0 ? me - 1 : P - 1;
	/*
	 * Block k has q bytes, one more when k < r (coll_ring_chunk). Step s
	 * sends block (me + off - s) mod P and receives the one below it, so
	 * each step's receive block is the next step's send block: no division
	 * inside the loop.
	 */
	uint64_t q = bytes / (uint64_t)P, r = bytes % (uint64_t)P;
	int sc = (int)((((int64_t)me + off) % P + P) % P);
	for (int s = 0; s < P - 1; s++) {
		int rc = sc > 0 ? sc - 1 : P - 1;
		uint64_t sb = ring_piece(q + ((uint64_t)sc < r), F, f);
		uint64_t rb = ring_piece(q + ((uint64_t)rc < r), F, f);
		coll_sendrecv(t, g, right, sb, left, rb, op);
		sc = rc;
	}
}

static void allreduce_ring(rt_task *t, const rt_group *g, int me, uint64_t bytes, uint64_t segment,
                           const coll_op *op)
{
	int P = g->n;
	/* Pieces per chunk: the largest chunk (chunk 0) in pieces of at most `segment` bytes. */
	uint64_t big = coll_ring_chunk(bytes, P, 0);
	uint64_t F = segment && big > segment ? ck_div_up(big, segment) : 1;
	for (uint64_t f = 0; f < F; f++)
		coll_ring_pass(t, g, me, 0, bytes, (int)F, (int)f, op);
	coll_ring_pass(t, g, me, 1, bytes, 1, 0, op);
}

void coll_allreduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me,
                        uint64_t bytes, const coll_op *op)
{
	if (g->n < 2)
		return;
	coll_choice c = coll_choose(cfg, COLL_ALLREDUCE, g->n, bytes);
	switch (c.alg) {
	case COLL_ALLREDUCE_RING: allreduce_ring(t, g, me, bytes, 0, op); break;
	case COLL_ALLREDUCE_SEGRING: allreduce_ring(t, g, me, bytes, c.segment, op); break;
	case COLL_ALLREDUCE_RABENSEIFNER: allreduce_rabenseifner(t, g, me, bytes, op); break;
	case COLL_ALLREDUCE_REDUCE_BCAST:
		coll_reduce_run(t, cfg, g, me, 0, bytes, op);
		coll_bcast_run(t, cfg, g, me, 0, bytes, op);
		break;
	case COLL_ALLREDUCE_LINEAR:
		coll_reduce_alg(t, g, me, 0, bytes, (coll_choice){COLL_REDUCE_LINEAR, 0}, op);
		coll_bcast_alg(t, cfg, g, me, 0, bytes, (coll_choice){COLL_BCAST_LINEAR, 0}, op);
		break;
	default: allreduce_recdbl(t, g, me, bytes, op); break;
	}
}

void coll_allreduce_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, uint64_t bytes)
{
	int me = coll_my_index(t, g, "allreduce");
	coll_op op = coll_begin(t, g, a);
	coll_allreduce_run(t, cfg, g, me, bytes, &op);
	coll_end(t);
}

void coll_allreduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes)
{
	coll_allreduce_as(t, cfg, NULL, g, bytes);
}

void rt_allreduce(rt_task *t, const rt_group *g, uint64_t bytes)
{
	coll_allreduce_with(t, coll_cfg(t), g, bytes);
}

/*
 * The network moves sizes, not data, so the values go through the board of
 * the simulation's coll_ctx: deposit before the first send, read after the
 * last receive. The 8-byte allreduce in between makes every member's
 * completion depend on every member's deposit, so the read always succeeds.
 */
double coll_allreduce_value_with(rt_task *t, coll_ctx *cc, const rt_group *g, double v, enum rt_op op)
{
	int me = coll_my_index(t, g, "allreduce");
	coll_op cop = coll_begin(t, g, NULL);
	coll_board_put(cc, g, cop.tag, me, v);
	if (t->w->par) /* members on other ranks read the value from their own board */
		drvp_board_post(t, g, cop.tag, me, v);
	coll_allreduce_run(t, coll_ctx_config(cc), g, me, sizeof(double), &cop);
	coll_end(t);
	double r;
	if (coll_board_take(cc, g, cop.tag, op, &r) < 0)
		rt_fatal(t, "internal error: allreduce of a value completed before every member contributed");
	return r;
}

double rt_allreduce_value(rt_task *t, const rt_group *g, double v, enum rt_op op)
{
	coll_ctx *cc = rt_coll_ctx(t);
	if (!cc)
		rt_fatal(t, "allreduce of a value: the runtime holds no collectives state (rt_coll_ctx)");
	return coll_allreduce_value_with(t, cc, g, v, op);
}

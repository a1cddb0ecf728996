/*
 * algo.h - what the algorithm files of runtime/coll/ share: the running
 * collective, point-to-point helpers addressed by group index, block
 * arithmetic, the tree engines and the recursive-halving engine. Nothing
 * outside runtime/coll/ includes it.
 */
#ifndef NCSIM_COLL_ALGO_H
#define NCSIM_COLL_ALGO_H

#include "runtime/coll/coll.h"

/* One member's running collective: what every message it posts carries. */
typedef struct coll_op {
	rt_int tag;          /* p2p_coll_tag of the group: one per collective */
	int tclass;
	coll_tally *tally;
} coll_op;

/* Starts a collective on g (takes its tag, p2p_op_begin) with attributes a (may be NULL). */
coll_op coll_begin(rt_task *t, const rt_group *g, const coll_attr *a);
/* Ends the collective coll_begin started (p2p_op_end). */
void coll_end(rt_task *t);

/* Posts a collective-context send of `bytes` to member index `to` (op's tag and class; counted in its tally). */
rt_req coll_isend(rt_task *t, const rt_group *g, int to, uint64_t bytes, const coll_op *op);
/* Posts a collective-context receive of `bytes` from member index `from`. */
rt_req coll_irecv(rt_task *t, const rt_group *g, int from, uint64_t bytes, const coll_op *op);
/* Sends to `to` and receives from `from` concurrently and waits for both. */
void coll_sendrecv(rt_task *t, const rt_group *g, int to, uint64_t sbytes,
                   int from, uint64_t rbytes, const coll_op *op);
/* Blocking send to member index `to`. */
void coll_send(rt_task *t, const rt_group *g, int to, uint64_t bytes, const coll_op *op);
/* Blocking receive from member index `from`. */
void coll_recv(rt_task *t, const rt_group *g, int from, uint64_t bytes, const coll_op *op);

/* Request storage for n requests: on the stack for small n, on the heap for large. */
typedef struct coll_reqs {
	rt_req small[64];
	rt_req *r;
	int n;
} coll_reqs;
/* Makes room for n requests of t in q (q->n = 0); coll_reqs_wait waits for them and frees the room. */
void coll_reqs_init(rt_task *t, coll_reqs *q, int n);
/* Waits for every request of q and releases its storage. */
void coll_reqs_wait(rt_task *t, coll_reqs *q);

/* Fails t's statement unless P blocks of `each` bytes fit in 64 bits (what naming `what`). */
void coll_check_blocks(rt_task *t, int P, uint64_t each, const char *what);

/* Number of set bits of v (binomial-tree depth of relative index v). */
static inline unsigned coll_popcount(uint64_t v) { return (unsigned)__builtin_popcountll(v); }
/* Largest power of two <= P (P >= 1). */
int coll_pof2(int P);
/* Member index of relative index v in a group of P rooted at member `root`. */
static inline int coll_member(int v, int root, int P) { return (int)(((int64_t)v + root) % P); }
/* Relative index of member i in a group of P rooted at member `root`. */
static inline int coll_rel(int i, int root, int P) { return (int)(((int64_t)i - root + P) % P); }

/*
 * The blocks of a vector: block k of n is `each` bytes when uniform, else
 * the balanced share coll_ring_chunk(total, n, k).
 */
typedef struct coll_blocks {
	uint64_t total, each;
	int n, uniform;
} coll_blocks;
/* Bytes of blocks a .. b-1 of v (0 <= a <= b <= v->n). */
uint64_t coll_blocks_range(const coll_blocks *v, int a, int b);

/* ------------------------------------------------------------ binomial trees */

/*
 * What a message of a binomial tree carries. With v = (member - root) mod P,
 * v's parent is v without its lowest set bit, its children are v + 2^k for
 * every 2^k below that bit, and its subtree is [v, v + lowbit(v)) clipped to P
 * (all of [0, P) for the root). Broadcast and reduce move `each` bytes in
 * every message; scatter and gather (per_block) move the blocks of the
 * subtree: `each` per member, blocks[member] when blocks is not NULL, or
 * the blocks of `vec` by relative index when vec is not NULL.
 */
typedef struct coll_tree_load {
	uint64_t each;
	const uint64_t *blocks;
	const coll_blocks *vec;
	int per_block;
} coll_tree_load;
/* Binomial tree towards `root` (reduce, gather): receives from all children at once, then sends to the parent. */
void coll_tree_up(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op);
/* Binomial tree from `root` (broadcast, scatter): receives from the parent, then sends to the children,
 * largest subtree first, and waits for those sends. */
void coll_tree_down(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op);

/* ------------------------------------------------ segmented trees (tree.c) */

/* Shapes of the segmented trees (Open MPI's coll/base topologies). */
enum coll_shape {
	COLL_SHAPE_LINEAR,  /* the root is everybody's parent */
	COLL_SHAPE_CHAIN,   /* v's parent is v - 1 */
	COLL_SHAPE_BINARY,  /* level-order binary tree, children of v at level l: v + 2^l, v + 2*2^l */
	COLL_SHAPE_KNOMIAL, /* k-nomial tree of a radix */
};
typedef struct coll_shape_of {
	int shape, radix;
} coll_shape_of;
/* Broadcast of `bytes` from `root` down tree `sh` in segments of `segment` bytes (0: one segment). */
void coll_seg_bcast(rt_task *t, const rt_group *g, int me, int root, coll_shape_of sh, uint64_t bytes,
                    uint64_t segment, const coll_op *op);
/* Reduce of `bytes` to `root` up tree `sh` in segments of `segment` bytes (0: one segment). */
void coll_seg_reduce(rt_task *t, const rt_group *g, int me, int root, coll_shape_of sh, uint64_t bytes,
                     uint64_t segment, const coll_op *op);

/* ------------------------------------- folding and recursive halving (halving.c) */

/*
 * The power-of-two core of a group of P: pairs (2j, 2j+1) for j < rem fold
 * into one survivor (2j+1 when odd_survives, else 2j) and the survivors take
 * new ranks 0 .. pof2-1 (j for a folded pair, i - rem above 2*rem), as MPICH
 * does for recursive doubling, Rabenseifner and recursive halving.
 */
typedef struct coll_fold {
	int P, pof2, rem, lg;
	int odd_survives;
} coll_fold;
/* The fold of a group of P members. */
coll_fold coll_fold_of(int P, int odd_survives);
/* New rank of member i, or -1 if i sits out. */
int coll_fold_rank(const coll_fold *f, int i);
/* Member index of new rank n. */
int coll_fold_member(const coll_fold *f, int n);

/*
 * The pre step of fold f for member me: a member that sits out sends its
 * `bytes` to its partner and, when back is not NULL, receives *back bytes of
 * the result from it (posted with the send, so it lands directly); a
 * surviving partner receives the `bytes`. Returns me's new rank, or -1.
 */
int coll_fold_in(rt_task *t, const rt_group *g, const coll_fold *f, int me, uint64_t bytes,
                 const uint64_t *back, const coll_op *op);
/* The post step: a survivor of a pair sends `bytes` of the result to its partner. */
void coll_fold_out(rt_task *t, const rt_group *g, const coll_fold *f, int me, uint64_t bytes, const coll_op *op);

/* Block ranges a member held before each round of a halving (ranges[k] for round k). */
typedef struct coll_range {
	int lo, hi;
} coll_range;
/* Bytes of the new blocks [a, b) of a halving. */
typedef uint64_t (*coll_range_bytes)(const void *ctx, int a, int b);
/* The ranges new rank n holds before each round of a halving (see coll_halving). */
void coll_halving_ranges(const coll_fold *f, int n, int ascending, coll_range *ranges);
/*
 * Reduce-scatter by recursive halving among the survivors of f: in the
 * round of distance d (1, 2, .. when ascending, pof2/2, .. down to 1 when
 * not) new rank n and n ^ d split their common range of new blocks, n keeps
 * the lower half when its bit d is clear, and each sends the other half.
 * Fills ranges[0 .. lg) (the range before each round, in round order) and
 * returns the block index n ends with.
 */
int coll_halving(rt_task *t, const rt_group *g, const coll_fold *f, int n, int ascending,
                 coll_range_bytes bytes, const void *ctx, coll_range *ranges, const coll_op *op);
/* The allgather that undoes coll_halving (ascending) round by round: recursive doubling of the ranges. */
void coll_doubling(rt_task *t, const rt_group *g, const coll_fold *f, int n, coll_range_bytes bytes,
                   const void *ctx, const coll_range *ranges, const coll_op *op);
/* Range bytes of a vector cut into f->pof2 balanced blocks (ctx: the coll_blocks). */
uint64_t coll_range_of_blocks(const void *ctx, int a, int b);

/* ------------------------------------------------- algorithm bodies (no begin/end) */

/* Broadcast of `bytes` from member `root` with the algorithm cfg chooses. */
void coll_bcast_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                    const coll_op *op);
/* Reduce of `bytes` to member `root` with the algorithm cfg chooses. */
void coll_reduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                     const coll_op *op);
/* Reduce with choice c. */
void coll_reduce_alg(rt_task *t, const rt_group *g, int me, int root, uint64_t bytes, coll_choice c,
                     const coll_op *op);
/* Broadcast with choice c (knomial radix from cfg). */
void coll_bcast_alg(rt_task *t, const coll_config *cfg, const rt_group *g, int me, int root, uint64_t bytes,
                    coll_choice c, const coll_op *op);
/* Allreduce of `bytes` with the algorithm cfg chooses. */
void coll_allreduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me,
                        uint64_t bytes, const coll_op *op);
/*
 * P-1 ring steps over member indices: step s sends block (me + off - s) mod P
 * of a `bytes` vector (coll_ring_chunk) to the right and receives block
 * (me + off - s - 1) mod P from the left; piece f of F of each block
 * (F = 1: whole blocks).
 */
void coll_ring_pass(rt_task *t, const rt_group *g, int me, int off, uint64_t bytes, int F, int f,
                    const coll_op *op);
/* Ring allgather of the blocks of v over relative indices (member `root` has relative index 0). */
void coll_allgather_ring(rt_task *t, const rt_group *g, int me, int root, const coll_blocks *v,
                         const coll_op *op);
/* Recursive-doubling allgather of the blocks of v (P a power of two) over relative indices. */
void coll_allgather_recdbl(rt_task *t, const rt_group *g, int me, int root, const coll_blocks *v,
                           const coll_op *op);
/* Linear scatter (scatter) or gather of block j (blocks[j], or `each`) between member `root` and the others. */
void coll_linear_blocks(rt_task *t, const rt_group *g, int me, int root, const uint64_t *blocks, uint64_t each,
                        int to_root, const coll_op *op);

#endif

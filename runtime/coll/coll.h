/*
 * coll.h - collective operations over task groups (prefix coll_), built from
 * point-to-point messages of runtime/mpi/p2p.h so that the network carries the
 * real traffic of each algorithm. Implements the collectives of ncsim/rt.h.
 *
 * Every collective takes one tag from p2p_coll_tag (so concurrent collectives
 * on different groups never match), sends only in context P2P_CTX_COLL and
 * wraps its work in p2p_op_begin/p2p_op_end, so its time counts as MPI time.
 * coll_begin does both and returns the coll_op that the algorithm bodies
 * pass down to every send: the tag, the traffic class (NET_CLASS_MPI unless
 * a caller's coll_attr says otherwise) and an optional tally of the sends.
 * Within one collective all messages share that tag: matching is FIFO per
 * (source, tag) and every member posts its receives from a given peer in the
 * order the peer sends, so no two messages of one collective can cross.
 *
 * Algorithms are selected by a coll_config (system file section
 * [collectives]). Members are addressed by their index i in the group
 * (0 .. P-1), "relative" indices are v = (i - root + P) mod P.
 *
 * Traffic of each algorithm, P members, S bytes per message
 * (pof2 = largest power of two <= P, rem = P - pof2, L = ceil(log2 P),
 * B(P) = sum of popcount(v) for v = 1 .. P-1 = total binomial-tree hops):
 *
 *   collective        algorithm           messages              bytes on the wire
 *   ----------------  ------------------  --------------------  ------------------------
 *   barrier           dissemination       P*L                   0
 *   barrier           tree (k-ary)        2*(P-1)               0
 *   bcast             binomial tree       P-1                   (P-1)*S
 *   reduce            binomial tree       P-1                   (P-1)*S
 *   allreduce         recursive doubling  2*rem + pof2*lg(pof2) S * messages
 *   allreduce         ring (P >= 2)       2*P*(P-1)             2*(P-1)*S
 *   alltoall          pairwise exchange   P*(P-1)               P*(P-1)*S
 *   alltoallv         pairwise exchange   #{i!=j : s_ij > 0}    sum_{i!=j} s_ij
 *   gather, scatter   linear              P-1                   (P-1)*S
 *   gather, scatter   binomial tree       P-1                   B(P)*S
 *   gatherv           linear              P-1                   sum_{j!=root} s_j
 *   gatherv           binomial tree       P-1                   sum_j s_j*popcount(v_j)
 *   reduce_to         reduce + bcast      (U-1) + (R-1)         (U+R-2)*S
 *   allreduce_value   allreduce, S = 8    as allreduce          as allreduce
 *
 *   (reduce_to: U = |senders u receivers|, R = |receivers|; v_j = relative index of j)
 *
 * Zero-byte messages are still sent (and counted) except by alltoallv, which
 * like MPI skips pairs with nothing to send. A group of one member sends
 * nothing. Ring allreduce splits S into P chunks of floor(S/P) bytes, the
 * first S mod P of them one byte larger, so the chunks sum exactly to S.
 */
#ifndef NCSIM_COLL_H
#define NCSIM_COLL_H

#include <stdint.h>

#include "ncsim/rt.h"
#include "base/sysconf.h"

/* Allreduce algorithm choice. */
enum coll_allreduce_alg {
	COLL_ALLREDUCE_AUTO,      /* recursive doubling below the ring threshold, ring at or above */
	COLL_ALLREDUCE_RECDBL,    /* always recursive doubling */
	COLL_ALLREDUCE_RING,      /* always ring (reduce-scatter + allgather) */
};

/* Shape of the tree of gather, gatherv and scatter. */
enum coll_tree { COLL_TREE_BINOMIAL, COLL_TREE_LINEAR };

/* Barrier algorithm choice. */
enum coll_barrier_alg {
	COLL_BARRIER_DISSEMINATION, /* ceil(log2 P) rounds, everybody sends every round */
	COLL_BARRIER_TREE,          /* COLL_BARRIER_RADIX-ary fan-in to member 0, then fan-out */
};

/* Children per node of the tree barrier. */
#define COLL_BARRIER_RADIX 4

/*
 * Algorithm choices and thresholds. Keys of [collectives]:
 *   allreduce                = auto | recursive_doubling | ring      (auto)
 *   allreduce_ring_threshold = size                                  (64 KiB)
 *   gather                   = binomial | linear                     (binomial)
 *   scatter                  = binomial | linear                     (binomial)
 *   barrier                  = dissemination | tree                  (dissemination)
 */
typedef struct coll_config {
	int allreduce;                     /* enum coll_allreduce_alg */
	uint64_t allreduce_ring_threshold; /* bytes: auto uses the ring when S >= this */
	int gather;                        /* enum coll_tree, also for gatherv */
	int scatter;                       /* enum coll_tree */
	int barrier;                       /* enum coll_barrier_alg */
} coll_config;

/* Fills cfg with the defaults listed above. */
void coll_config_default(coll_config *cfg);
/*
 * Fills cfg with the defaults, then overrides them from section [collectives]
 * of c (NULL c: defaults only). Returns 0, or -1 with *err set (heap string,
 * "file:line: ...") on a malformed value.
 */
int coll_config_load(coll_config *cfg, const sysconf_t *c, char **err);
/* Name of an allreduce algorithm ("auto", "recursive_doubling", "ring"). */
const char *coll_allreduce_name(int alg);

/*
 * Per-simulation state of the collectives: the configuration and the
 * blackboard on which rt_allreduce_value exchanges its values (the network
 * carries sizes, not data). The task runtime holds one per simulation.
 */
typedef struct coll_ctx coll_ctx;
/* Creates the state from a system description (NULL: defaults); NULL with *err set on a bad value. */
coll_ctx *coll_ctx_new(const sysconf_t *c, char **err);
/* Frees cc (NULL is a no-op). */
void coll_ctx_free(coll_ctx *cc);
/* The configuration held by cc (cfg may be changed before the simulation starts). */
coll_config *coll_ctx_config(coll_ctx *cc);
/* Records member `me`'s value for the collective (g, tag) of rt_allreduce_value. */
void coll_board_put(coll_ctx *cc, const rt_group *g, rt_int tag, int me, double v);
/*
 * Reduces the values of every member of (g, tag) in member order (so every
 * member gets a bit-identical result) into *out. Returns 0, or -1 if some
 * member has not deposited yet. The g->n-th successful take frees the entry.
 */
int coll_board_take(coll_ctx *cc, const rt_group *g, rt_int tag, enum rt_op op, double *out);
/* Number of board entries still open (0 after every value allreduce completed). */
size_t coll_board_open(const coll_ctx *cc);

/*
 * Provided by the task runtime: the collectives state of the simulation t runs
 * in, or NULL if the runtime holds none (then the defaults apply and
 * rt_allreduce_value is fatal). runtime/task/task.c defines it.
 */
coll_ctx *rt_coll_ctx(rt_task *t);
/* The configuration in force for t: its simulation's, or the defaults. */
const coll_config *coll_cfg(rt_task *t);

/* ------------------------------------------- the attributes of one collective */

/* Messages and bytes one member's part of some collectives sent. */
typedef struct coll_tally {
	uint64_t msgs, bytes;
} coll_tally;

/*
 * What a caller may ask of a collective besides its algorithm: the traffic
 * class of its messages (the network's per-class figures, e.g. HOROVOD's
 * collectives run as class horovod) and a tally that the calling member's
 * sends are added to. NULL attributes: class NET_CLASS_MPI, no tally (what
 * the collectives of ncsim/rt.h use).
 */
typedef struct coll_attr {
	int tclass;          /* enum net_class (runtime/net/net.h) */
	coll_tally *tally;   /* or NULL */
} coll_attr;

/* One member's running collective: what every message it posts carries. */
typedef struct coll_op {
	rt_int tag;          /* p2p_coll_tag of the group: one per collective */
	int tclass;
	coll_tally *tally;
} coll_op;

/* Starts a collective on g (takes its tag, p2p_op_begin) with attributes a (may be NULL). */
coll_op coll_begin(rt_task *t, const rt_group *g, const coll_attr *a);

/* ------------------------------------------- helpers shared by coll_*.c */

/* Index of task id `id` in g, or -1 if it is not a member (binary search: g is ascending). */
int coll_index(const rt_group *g, rt_int id);
/* Index of the calling task in g; fatal (naming `what`) if it is not a member. */
int coll_my_index(rt_task *t, const rt_group *g, const char *what);
/* Index of `root` in g; fatal if it is not a member. */
int coll_root_index(rt_task *t, const rt_group *g, rt_int root, const char *what);

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

/* Number of set bits of v (binomial-tree depth of relative index v). */
static inline unsigned coll_popcount(uint64_t v) { return (unsigned)__builtin_popcountll(v); }

/* ------------------- collectives with an explicit configuration or state */

/* rt_barrier with configuration cfg (rt_barrier passes coll_cfg(t)). */
void coll_barrier_with(rt_task *t, const coll_config *cfg, const rt_group *g);
/* rt_allreduce with configuration cfg (rt_allreduce passes coll_cfg(t)). */
void coll_allreduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes);
/* rt_gather (bytes NULL: `each` per member) or rt_gatherv (bytes[j] per member) with cfg. */
void coll_gather_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root,
                      const uint64_t *bytes, uint64_t each);
/* coll_allreduce_with with attributes a (NULL: as coll_allreduce_with). */
void coll_allreduce_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, uint64_t bytes);
/* coll_gather_with with attributes a. */
void coll_gather_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                    const uint64_t *bytes, uint64_t each);
/* rt_bcast with attributes a. */
void coll_bcast_as(rt_task *t, const coll_attr *a, const rt_group *g, rt_int root, uint64_t bytes);
/* rt_scatter with cfg. */
void coll_scatter_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root, uint64_t bytes);
/* rt_allreduce_value with the collectives state cc (its config and board); cc must not be NULL. */
double coll_allreduce_value_with(rt_task *t, coll_ctx *cc, const rt_group *g, double v, enum rt_op op);

/* ---------------------------------- algorithm bodies (no op_begin/end) */

/*
 * What a message of a binomial tree carries. With v = (member - root) mod P,
 * v's parent is v without its lowest set bit, its children are v + 2^k for
 * every 2^k below that bit, and its subtree is [v, v + lowbit(v)) clipped to P
 * (all of [0, P) for the root). Broadcast and reduce move `each` bytes in
 * every message; scatter and gather (per_block) move the blocks of the
 * subtree: `each` per member, or blocks[member] when blocks is not NULL.
 */
typedef struct coll_tree_load {
	uint64_t each;
	const uint64_t *blocks;
	int per_block;
} coll_tree_load;
/* Binomial tree towards `root` (reduce, gather): receives from all children at once, then sends to the parent. */
void coll_tree_up(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op);
/* Binomial tree from `root` (broadcast, scatter): receives from the parent, then sends to the children,
 * largest subtree first, and waits for those sends. */
void coll_tree_down(rt_task *t, const rt_group *g, int me, int root, const coll_tree_load *load, const coll_op *op);
/* Allreduce of `bytes` with the algorithm cfg selects. */
void coll_allreduce_run(rt_task *t, const coll_config *cfg, const rt_group *g, int me,
                        uint64_t bytes, const coll_op *op);
/* Recursive-doubling allreduce (pre/post step for the P - pof2 remainder members). */
void coll_allreduce_recdbl(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op);
/* Ring allreduce: reduce-scatter then allgather of P chunks. */
void coll_allreduce_ring(rt_task *t, const rt_group *g, int me, uint64_t bytes, const coll_op *op);
/* Size of chunk k of a ring over P members (floor(S/P), plus one for k < S mod P). */
static inline uint64_t coll_ring_chunk(uint64_t bytes, int P, int k)
{
	return bytes / (uint64_t)P + ((uint64_t)k < bytes % (uint64_t)P ? 1 : 0);
}

#endif

/*
 * coll.h - collective operations over task groups (prefix coll_), built from
 * point-to-point messages of runtime/mpi/p2p.h so that the network carries the
 * real traffic of each algorithm. Implements the collectives of ncsim/rt.h,
 * plus allgather and reduce-scatter for the Union API and C skeletons.
 *
 * Every collective takes one tag from p2p_coll_tag (so concurrent collectives
 * on different groups never match), sends only in context P2P_CTX_COLL and
 * wraps its work in p2p_op_begin/p2p_op_end, so its time counts as MPI time.
 * Within one collective all messages share that tag: matching is FIFO per
 * (source, tag) and every member posts its receives from a given peer in the
 * order the peer sends, so no two messages of one collective can cross.
 *
 * Algorithms are chosen per call by coll_choose (runtime/coll/select.c): a
 * per-collective key of [collectives] names one, else the selector (fixed,
 * mpich or ompi) picks one by group size P and message size S, as
 * doc/collectives.md describes. Members are addressed by their index i in
 * the group (0 .. P-1), "relative" indices are v = (i - root + P) mod P.
 *
 * Traffic of each algorithm, P members, S bytes (per member for allgather
 * and alltoall, the whole vector otherwise). pof2 = largest power of two
 * <= P, rem = P - pof2, lg = log2(pof2), L = ceil(log2 P), B(n) = sum of
 * popcount(v) for v = 1 .. n-1 (total binomial-tree hops), S = qP + r,
 * c_k = q + (k < r) the balanced block k of P (coll_ring_chunk), n_seg =
 * ceil(S / segment) (1 when S = 0 or segment = 0), F = ceil(ceil(S/P) /
 * segment) phases (at least 1):
 *
 *   collective      algorithm            messages                  bytes on the wire
 *   --------------  -------------------  ------------------------  ----------------------------
 *   barrier         dissemination        P*L                       0
 *   barrier         tree (4-ary)         2*(P-1)                   0
 *   barrier         binomial, linear     2*(P-1)                   0
 *   barrier         recursive_doubling   pof2*lg + 2*rem           0
 *   bcast           binomial             P-1                       (P-1)*S
 *   bcast           linear, chain,       (P-1)*n_seg               (P-1)*S
 *                   binary, knomial
 *   bcast           scatter_ring         (P-1) + P*(P-1)           q*B(P) + B(r) + (P-1)*S
 *   bcast           scatter_recursive_   (P-1) + P*lg              q*B(P) + B(r) + (P-1)*S
 *                   doubling (P = pof2; else as scatter_ring)
 *   reduce          binomial             P-1                       (P-1)*S
 *   reduce          linear, chain,       (P-1)*n_seg               (P-1)*S
 *                   binary
 *   reduce          rabenseifner         rem + pof2*lg + pof2-1    rem*S + (pof2-1)*S + lg*S/2
 *                   (pof2 | S)           + x                       + x*S/pof2
 *                   x = 1 if the root is odd and < 2*rem, else 0
 *   allreduce       recursive_doubling   2*rem + pof2*lg           S * messages
 *   allreduce       ring (P >= 2)        2*P*(P-1)                 2*(P-1)*S
 *   allreduce       segmented_ring       P*(P-1)*(F+1)             2*(P-1)*S
 *   allreduce       rabenseifner         2*rem + 2*pof2*lg         2*rem*S + 2*(pof2-1)*S
 *   allreduce       reduce_bcast         reduce + bcast of S from member 0, each as chosen
 *   allreduce       linear               2*(P-1)                   2*(P-1)*S
 *   allgather       recursive_doubling   P*lg (P = pof2; else as bruck)  P*(P-1)*S
 *   allgather       bruck                P*L                       P*(P-1)*S
 *   allgather       ring                 P*(P-1)                   P*(P-1)*S
 *   allgather       neighbor_exchange    P*P/2 (P even; else ring) P*(P-1)*S
 *   reduce_scatter  recursive_halving    2*rem + pof2*lg           rem*S + (pof2-1)*S + sum_{j<rem} c_2j
 *   reduce_scatter  pairwise, ring       P*(P-1)                   (P-1)*S
 *   reduce_scatter  reduce_scatterv      reduce of S to member 0 + (P-1) messages of S - c_0 bytes
 *   alltoall        pairwise, linear,    P*(P-1)                   P*(P-1)*S
 *                   throttled
 *   alltoall        bruck                P*L                       P*B(P)*S
 *   alltoallv       pairwise exchange    #{i!=j : s_ij > 0}        sum_{i!=j} s_ij
 *   gather, scatter linear               P-1                       (P-1)*S
 *   gather, scatter binomial             P-1                       B(P)*S
 *   gatherv         linear               P-1                       sum_{j!=root} s_j
 *   gatherv         binomial             P-1                       sum_j s_j*popcount(v_j)
 *   reduce_to       reduce + bcast       (U-1) + (R-1)             (U+R-2)*S
 *   allreduce_value allreduce, S = 8     as allreduce              as allreduce
 *
 *   (reduce_to: U = |senders u receivers|, R = |receivers|; v_j = relative index of j)
 *
 * Zero-byte messages are still sent (and counted) except by alltoallv, which
 * like MPI skips pairs with nothing to send. A group of one member sends
 * nothing. Blocks of a vector split P (or pof2) ways are balanced to the
 * byte (coll_ring_chunk), so the blocks sum exactly to S.
 */
#ifndef NCSIM_COLL_H
#define NCSIM_COLL_H

#include <stdint.h>

#include "ncsim/rt.h"
#include "base/sysconf.h"

/* The collectives whose algorithm a coll_config chooses. */
enum coll_kind {
	COLL_BARRIER, COLL_BCAST, COLL_REDUCE, COLL_ALLREDUCE, COLL_ALLGATHER,
	COLL_REDUCE_SCATTER, COLL_ALLTOALL, COLL_GATHER, COLL_SCATTER, COLL_NKINDS
};

/*
 * Every algorithm of every collective (one list, so selector tables name
 * them directly). COLL_AUTO: the selector decides.
 */
enum coll_alg {
	COLL_AUTO,
	COLL_BARRIER_DISSEMINATION, COLL_BARRIER_TREE, COLL_BARRIER_BINOMIAL, COLL_BARRIER_LINEAR,
	COLL_BARRIER_RECDBL,
	COLL_BCAST_BINOMIAL, COLL_BCAST_SCATTER_RECDBL, COLL_BCAST_SCATTER_RING, COLL_BCAST_CHAIN,
	COLL_BCAST_LINEAR, COLL_BCAST_BINARY, COLL_BCAST_KNOMIAL,
	COLL_REDUCE_BINOMIAL, COLL_REDUCE_RABENSEIFNER, COLL_REDUCE_LINEAR, COLL_REDUCE_CHAIN,
	COLL_REDUCE_BINARY,
	COLL_ALLREDUCE_RECDBL, COLL_ALLREDUCE_RING, COLL_ALLREDUCE_SEGRING, COLL_ALLREDUCE_RABENSEIFNER,
	COLL_ALLREDUCE_REDUCE_BCAST, COLL_ALLREDUCE_LINEAR,
	COLL_ALLGATHER_RECDBL, COLL_ALLGATHER_BRUCK, COLL_ALLGATHER_RING, COLL_ALLGATHER_NEIGHBOR,
	COLL_REDSCAT_HALVING, COLL_REDSCAT_PAIRWISE, COLL_REDSCAT_RING, COLL_REDSCAT_REDUCE_SCATTERV,
	COLL_ALLTOALL_PAIRWISE, COLL_ALLTOALL_BRUCK, COLL_ALLTOALL_THROTTLED, COLL_ALLTOALL_LINEAR,
	COLL_GATHER_BINOMIAL, COLL_GATHER_LINEAR,
	COLL_SCATTER_BINOMIAL, COLL_SCATTER_LINEAR,
	COLL_NALGS
};

/* Who picks an algorithm when a collective's key is auto. */
enum coll_selector {
	COLL_SEL_FIXED, /* ncsim's own rules (the default; see doc/collectives.md) */
	COLL_SEL_MPICH, /* MPICH's default decision rules */
	COLL_SEL_OMPI,  /* Open MPI coll/tuned's fixed decision rules */
};

/* Children per node of the tree barrier. */
#define COLL_BARRIER_RADIX 4

/*
 * The [collectives] section (doc/system-file.md lists the keys):
 *   selector = fixed | mpich | ompi, one algorithm key per collective (auto
 *   or a name of coll_alg_name), and the knobs some algorithms read.
 */
typedef struct coll_config {
	int selector;                      /* enum coll_selector */
	int alg[COLL_NKINDS];              /* enum coll_alg: COLL_AUTO or an algorithm of that collective */
	uint64_t allreduce_ring_threshold; /* bytes: the fixed selector uses the ring when S >= this */
	uint64_t segment;                  /* bytes per segment of chain trees and the segmented ring; 0: none */
	uint64_t element;                  /* bytes per element: the "count" of the libraries' rules is S / element */
	int alltoall_throttle;             /* messages per batch of the throttled alltoall */
	int knomial_radix;                 /* radix of the k-nomial broadcast tree (>= 2) */
} coll_config;

/* Fills cfg with the defaults (selector fixed, every algorithm auto). */
void coll_config_default(coll_config *cfg);
/*
 * Fills cfg with the defaults, then overrides them from section [collectives]
 * of c (NULL c: defaults only). Returns 0, or -1 with *err set (heap string,
 * "file:line: ...") on a malformed value.
 */
int coll_config_load(coll_config *cfg, const sysconf_t *c, char **err);
/* Name of an algorithm as the system file spells it ("ring", "bruck", ...); "auto" for COLL_AUTO. */
const char *coll_alg_name(int alg);
/* The collective an algorithm belongs to (COLL_NKINDS for COLL_AUTO). */
enum coll_kind coll_alg_kind(int alg);
/* Name of a collective as its key in [collectives] ("allreduce", "reduce_scatter", ...). */
const char *coll_kind_name(enum coll_kind k);
/* Name of a selector ("fixed", "mpich", "ompi"). */
const char *coll_selector_name(int sel);

/* One decision: an algorithm and the segment size it runs with (0: unsegmented). */
typedef struct coll_choice {
	int alg;          /* enum coll_alg, never COLL_AUTO */
	uint64_t segment;
} coll_choice;
/*
 * The algorithm collective k runs on P members for S bytes (the size the
 * library's rule looks at: per member for allgather and alltoall, per block
 * for gather and scatter, the whole vector otherwise): cfg's key for k if
 * it is not auto, else the selector's rule, including the fallbacks the
 * libraries take inside an algorithm (doc/collectives.md).
 */
coll_choice coll_choose(const coll_config *cfg, enum coll_kind k, int P, uint64_t S);

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
 * A member's deposit made on another rank of a run over MPI ranks: counts
 * towards the n deposits, but its member takes on that rank, not here.
 */
void coll_board_deposit(coll_ctx *cc, const rt_group *g, rt_int tag, int me, double v);
/*
 * Reduces the values of every member of (g, tag) in member order (so every
 * member gets a bit-identical result) into *out. Returns 0, or -1 if some
 * member has not deposited yet. The take of the last member that deposited
 * with coll_board_put frees the entry.
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

/* ------------------------------------------------------------ group lookups */

/* Index of task id `id` in g, or -1 if it is not a member (binary search: g is ascending). */
int coll_index(const rt_group *g, rt_int id);
/* Index of the calling task in g; fatal (naming `what`) if it is not a member. */
int coll_my_index(rt_task *t, const rt_group *g, const char *what);
/* Index of `root` in g; fatal if it is not a member. */
int coll_root_index(rt_task *t, const rt_group *g, rt_int root, const char *what);

/* ------------------- collectives with an explicit configuration or state */

/* rt_barrier with configuration cfg (rt_barrier passes coll_cfg(t)). */
void coll_barrier_with(rt_task *t, const coll_config *cfg, const rt_group *g);
/* rt_bcast with configuration cfg and attributes a (may be NULL). */
void coll_bcast_with(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                     uint64_t bytes);
/* rt_bcast with attributes a and the configuration in force for t. */
void coll_bcast_as(rt_task *t, const coll_attr *a, const rt_group *g, rt_int root, uint64_t bytes);
/* rt_reduce with configuration cfg. */
void coll_reduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root, uint64_t bytes);
/* rt_allreduce with configuration cfg (rt_allreduce passes coll_cfg(t)). */
void coll_allreduce_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes);
/* coll_allreduce_with with attributes a (NULL: as coll_allreduce_with). */
void coll_allreduce_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, uint64_t bytes);
/* Allgather: every member contributes `bytes` and gets every member's block. */
void coll_allgather_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes);
/* Reduce-scatter of a `bytes` vector: member k gets the reduced block k (coll_ring_chunk(bytes, P, k)). */
void coll_reduce_scatter_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes);
/* rt_alltoall with configuration cfg. */
void coll_alltoall_with(rt_task *t, const coll_config *cfg, const rt_group *g, uint64_t bytes);
/* rt_gather (bytes NULL: `each` per member) or rt_gatherv (bytes[j] per member) with cfg. */
void coll_gather_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root,
                      const uint64_t *bytes, uint64_t each);
/* coll_gather_with with attributes a. */
void coll_gather_as(rt_task *t, const coll_config *cfg, const coll_attr *a, const rt_group *g, rt_int root,
                    const uint64_t *bytes, uint64_t each);
/* rt_scatter with cfg. */
void coll_scatter_with(rt_task *t, const coll_config *cfg, const rt_group *g, rt_int root, uint64_t bytes);
/* rt_allreduce_value with the collectives state cc (its config and board); cc must not be NULL. */
double coll_allreduce_value_with(rt_task *t, coll_ctx *cc, const rt_group *g, double v, enum rt_op op);

/* Size of chunk k of a vector of `bytes` cut into P balanced blocks (floor(S/P), plus one for k < S mod P). */
static inline uint64_t coll_ring_chunk(uint64_t bytes, int P, int k)
{
	return bytes / (uint64_t)P + ((uint64_t)k < bytes % (uint64_t)P ? 1 : 0);
}

#endif

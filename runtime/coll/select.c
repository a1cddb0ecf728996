/*
 * select.c - which algorithm a collective runs (coll_choose): the key of
 * [collectives] when it names one, else the selector's rule.
 *
 *   fixed  ncsim's own rules (the default): binomial trees, the dissemination
 *          barrier, pairwise all-to-all, rings for allgather and
 *          reduce-scatter, and for allreduce recursive doubling below
 *          allreduce_ring_threshold, the ring from it up.
 *   mpich  MPICH 5.0.1's default rules (maint/tuning/coll/mpir/generic.json,
 *          the branch of a flat communicator, comm_hierarchy=any), as its
 *          collective selector evaluates them after pruning for the
 *          communicator (src/mpi/coll/src/csel.c, prune_tree: comm_size<N
 *          means P < N).
 *   ompi   Open MPI 5.0.10's coll/tuned fixed decisions
 *          (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the branches
 *          of commutative operations: ncsim reduces with sum, min and max),
 *          with segment size 0 and fan-out 0 as those rules pass them.
 *
 * Sizes are those the libraries test: avg_msg_size (MPICH) or total_dsize
 * (Open MPI) is the vector of bcast, reduce and allreduce, a member's block
 * for allgather, alltoall, gather and scatter; MPICH's total_msg_size of
 * allgather is P times the block and of reduce-scatter the whole vector.
 * The libraries' "count" is S / element_size.
 *
 * Where Open MPI names an algorithm ncsim does not have, the table maps it
 * to the closest one (the third field keeps the library's number);
 * doc/collectives.md lists every mapping.
 */
#include "runtime/coll/algo.h"

/* One row of a decision table: P < below_p and S < below_s (0: no bound) give alg. */
typedef struct coll_rule {
	int below_p;
	uint64_t below_s;
	int lib;  /* the library's own algorithm number, to read the table beside its source */
	int alg;  /* enum coll_alg */
} coll_rule;

/* The first row of a table (which ends with an unbounded row) that (P, S) satisfies. */
static int lookup(const coll_rule *r, int P, uint64_t S)
{
	for (;; r++)
		if ((r->below_p == 0 || P < r->below_p) && (r->below_s == 0 || S < r->below_s))
			return r->alg;
}

/* ------------------------------------------------------------ fixed */

static int fixed_alg(const coll_config *cfg, enum coll_kind k, uint64_t S)
{
	static const int alg[COLL_NKINDS] = {
		[COLL_BARRIER] = COLL_BARRIER_DISSEMINATION, [COLL_BCAST] = COLL_BCAST_BINOMIAL,
		[COLL_REDUCE] = COLL_REDUCE_BINOMIAL, [COLL_ALLGATHER] = COLL_ALLGATHER_RING,
		[COLL_REDUCE_SCATTER] = COLL_REDSCAT_RING, [COLL_ALLTOALL] = COLL_ALLTOALL_PAIRWISE,
		[COLL_GATHER] = COLL_GATHER_BINOMIAL, [COLL_SCATTER] = COLL_SCATTER_BINOMIAL,
	};
	if (k == COLL_ALLREDUCE)
		return S >= cfg->allreduce_ring_threshold ? COLL_ALLREDUCE_RING : COLL_ALLREDUCE_RECDBL;
	return alg[k];
}

/* ------------------------------------------------------------ MPICH */

static int is_pow2(int P) { return (P & (P - 1)) == 0; }

/* a * b, or UINT64_MAX if it does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

static int mpich_alg(const coll_config *cfg, enum coll_kind k, int P, uint64_t S)
{
	uint64_t count = S / cfg->element;
	uint64_t pof2 = (uint64_t)coll_pof2(P);
	switch (k) {
	case COLL_BARRIER: return COLL_BARRIER_DISSEMINATION; /* k_dissemination with k = 2 */
	case COLL_BCAST:
		if (P < 8 || S <= 12288)
			return COLL_BCAST_BINOMIAL;
		return is_pow2(P) && S <= 524288 ? COLL_BCAST_SCATTER_RECDBL : COLL_BCAST_SCATTER_RING;
	case COLL_REDUCE:
		/* reduce_scatter_gather needs a block per survivor. */
		return S <= 2048 || count < pof2 ? COLL_REDUCE_BINOMIAL : COLL_REDUCE_RABENSEIFNER;
	case COLL_ALLREDUCE:
		return S <= 8 || count < pof2 ? COLL_ALLREDUCE_RECDBL : COLL_ALLREDUCE_RABENSEIFNER;
	case COLL_ALLGATHER: {
		uint64_t total = mul_sat(S, (uint64_t)P);
		if (is_pow2(P))
			return total < 524288 ? COLL_ALLGATHER_RECDBL : COLL_ALLGATHER_RING;
		return total < 81920 ? COLL_ALLGATHER_BRUCK : COLL_ALLGATHER_RING;
	}
	case COLL_REDUCE_SCATTER: return S < 524288 ? COLL_REDSCAT_HALVING : COLL_REDSCAT_PAIRWISE;
	case COLL_ALLTOALL:
		if (S > 32768)
			return COLL_ALLTOALL_PAIRWISE;
		return P >= 8 && S <= 256 ? COLL_ALLTOALL_BRUCK : COLL_ALLTOALL_THROTTLED; /* "scattered" */
	case COLL_GATHER: return COLL_GATHER_BINOMIAL;
	case COLL_SCATTER: return COLL_SCATTER_BINOMIAL;
	default: return COLL_AUTO;
	}
}

/* ------------------------------------------------------------ Open MPI */

static const coll_rule ompi_barrier[] = {
	{4, 0, 3, COLL_BARRIER_RECDBL},
	{8, 0, 1, COLL_BARRIER_LINEAR},
	{64, 0, 3, COLL_BARRIER_RECDBL},
	{256, 0, 4, COLL_BARRIER_DISSEMINATION},
	{512, 0, 6, COLL_BARRIER_BINOMIAL},
	{1024, 0, 4, COLL_BARRIER_DISSEMINATION},
	{4096, 0, 6, COLL_BARRIER_BINOMIAL},
	{0, 0, 4, COLL_BARRIER_DISSEMINATION},
};
static const coll_rule ompi_bcast[] = {
	{4, 32, 3, COLL_BCAST_CHAIN}, {4, 256, 5, COLL_BCAST_BINARY}, {4, 512, 3, COLL_BCAST_CHAIN},
	{4, 1024, 7, COLL_BCAST_KNOMIAL}, {4, 32768, 1, COLL_BCAST_LINEAR}, {4, 131072, 5, COLL_BCAST_BINARY},
	{4, 262144, 2, COLL_BCAST_CHAIN}, {4, 524288, 1, COLL_BCAST_LINEAR},
	{4, 1048576, 6, COLL_BCAST_BINOMIAL}, {4, 0, 5, COLL_BCAST_BINARY},
	{8, 64, 5, COLL_BCAST_BINARY}, {8, 128, 6, COLL_BCAST_BINOMIAL}, {8, 2048, 5, COLL_BCAST_BINARY},
	{8, 8192, 6, COLL_BCAST_BINOMIAL}, {8, 1048576, 1, COLL_BCAST_LINEAR}, {8, 0, 2, COLL_BCAST_CHAIN},
	{16, 8, 7, COLL_BCAST_KNOMIAL}, {16, 64, 5, COLL_BCAST_BINARY}, {16, 4096, 7, COLL_BCAST_KNOMIAL},
	{16, 16384, 5, COLL_BCAST_BINARY}, {16, 32768, 6, COLL_BCAST_BINOMIAL}, {16, 0, 1, COLL_BCAST_LINEAR},
	{32, 4096, 7, COLL_BCAST_KNOMIAL}, {32, 1048576, 6, COLL_BCAST_BINOMIAL},
	{32, 0, 8, COLL_BCAST_SCATTER_RECDBL},
	{64, 2048, 6, COLL_BCAST_BINOMIAL}, {64, 0, 7, COLL_BCAST_KNOMIAL},
	{128, 0, 7, COLL_BCAST_KNOMIAL},
	{256, 2, 6, COLL_BCAST_BINOMIAL}, {256, 16384, 5, COLL_BCAST_BINARY},
	{256, 32768, 1, COLL_BCAST_LINEAR}, {256, 65536, 5, COLL_BCAST_BINARY},
	{256, 0, 7, COLL_BCAST_KNOMIAL},
	{1024, 16384, 7, COLL_BCAST_KNOMIAL}, {1024, 32768, 4, COLL_BCAST_BINARY},
	{1024, 0, 7, COLL_BCAST_KNOMIAL},
	{2048, 524288, 7, COLL_BCAST_KNOMIAL}, {2048, 0, 8, COLL_BCAST_SCATTER_RECDBL},
	{4096, 262144, 7, COLL_BCAST_KNOMIAL}, {4096, 0, 8, COLL_BCAST_SCATTER_RECDBL},
	{0, 8192, 7, COLL_BCAST_KNOMIAL}, {0, 16384, 5, COLL_BCAST_BINARY}, {0, 262144, 7, COLL_BCAST_KNOMIAL},
	{0, 0, 8, COLL_BCAST_SCATTER_RECDBL},
};
static const coll_rule ompi_reduce[] = {
	{4, 8, 7, COLL_REDUCE_RABENSEIFNER}, {4, 16, 4, COLL_REDUCE_BINARY}, {4, 32, 3, COLL_REDUCE_CHAIN},
	{4, 262144, 1, COLL_REDUCE_LINEAR}, {4, 524288, 3, COLL_REDUCE_CHAIN},
	{4, 1048576, 2, COLL_REDUCE_CHAIN}, {4, 0, 3, COLL_REDUCE_CHAIN},
	{8, 4096, 4, COLL_REDUCE_BINARY}, {8, 65536, 2, COLL_REDUCE_CHAIN},
	{8, 262144, 5, COLL_REDUCE_BINOMIAL}, {8, 524288, 1, COLL_REDUCE_LINEAR},
	{8, 1048576, 5, COLL_REDUCE_BINOMIAL}, {8, 0, 1, COLL_REDUCE_LINEAR},
	{16, 8192, 4, COLL_REDUCE_BINARY}, {16, 0, 5, COLL_REDUCE_BINOMIAL},
	{32, 4096, 4, COLL_REDUCE_BINARY}, {32, 0, 5, COLL_REDUCE_BINOMIAL},
	{256, 0, 5, COLL_REDUCE_BINOMIAL},
	{512, 8192, 5, COLL_REDUCE_BINOMIAL}, {512, 16384, 6, COLL_REDUCE_BINARY},
	{512, 0, 5, COLL_REDUCE_BINOMIAL},
	{2048, 0, 5, COLL_REDUCE_BINOMIAL},
	{4096, 512, 5, COLL_REDUCE_BINOMIAL}, {4096, 1024, 6, COLL_REDUCE_BINARY},
	{4096, 8192, 5, COLL_REDUCE_BINOMIAL}, {4096, 16384, 6, COLL_REDUCE_BINARY},
	{4096, 0, 5, COLL_REDUCE_BINOMIAL},
	{0, 16, 5, COLL_REDUCE_BINOMIAL}, {0, 32, 6, COLL_REDUCE_BINARY}, {0, 1024, 5, COLL_REDUCE_BINOMIAL},
	{0, 2048, 6, COLL_REDUCE_BINARY}, {0, 8192, 5, COLL_REDUCE_BINOMIAL},
	{0, 16384, 6, COLL_REDUCE_BINARY}, {0, 0, 5, COLL_REDUCE_BINOMIAL},
};
static const coll_rule ompi_allreduce[] = {
	{4, 8, 4, COLL_ALLREDUCE_RING}, {4, 4096, 3, COLL_ALLREDUCE_RECDBL}, {4, 8192, 4, COLL_ALLREDUCE_RING},
	{4, 16384, 3, COLL_ALLREDUCE_RECDBL}, {4, 65536, 4, COLL_ALLREDUCE_RING},
	{4, 262144, 5, COLL_ALLREDUCE_SEGRING}, {4, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{8, 16, 4, COLL_ALLREDUCE_RING}, {8, 8192, 3, COLL_ALLREDUCE_RECDBL},
	{8, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{16, 8192, 3, COLL_ALLREDUCE_RECDBL}, {16, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{32, 64, 5, COLL_ALLREDUCE_SEGRING}, {32, 4096, 3, COLL_ALLREDUCE_RECDBL},
	{32, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{64, 128, 5, COLL_ALLREDUCE_SEGRING}, {64, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{128, 262144, 3, COLL_ALLREDUCE_RECDBL}, {128, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{256, 131072, 2, COLL_ALLREDUCE_REDUCE_BCAST}, {256, 262144, 3, COLL_ALLREDUCE_RECDBL},
	{256, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{512, 4096, 2, COLL_ALLREDUCE_REDUCE_BCAST}, {512, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{2048, 2048, 2, COLL_ALLREDUCE_REDUCE_BCAST}, {2048, 16384, 3, COLL_ALLREDUCE_RECDBL},
	{2048, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{4096, 2048, 2, COLL_ALLREDUCE_REDUCE_BCAST}, {4096, 4096, 5, COLL_ALLREDUCE_SEGRING},
	{4096, 16384, 3, COLL_ALLREDUCE_RECDBL}, {4096, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
	{0, 2048, 2, COLL_ALLREDUCE_REDUCE_BCAST}, {0, 16384, 5, COLL_ALLREDUCE_SEGRING},
	{0, 32768, 3, COLL_ALLREDUCE_RECDBL}, {0, 0, 6, COLL_ALLREDUCE_RABENSEIFNER},
};
static const coll_rule ompi_allgather[] = {
	{3, 0, 6, COLL_ALLGATHER_RING},
	{32, 0, 3, COLL_ALLGATHER_RECDBL},
	{64, 1024, 3, COLL_ALLGATHER_RECDBL}, {64, 65536, 5, COLL_ALLGATHER_NEIGHBOR},
	{64, 0, 4, COLL_ALLGATHER_RING},
	{128, 512, 3, COLL_ALLGATHER_RECDBL}, {128, 65536, 5, COLL_ALLGATHER_NEIGHBOR},
	{128, 0, 4, COLL_ALLGATHER_RING},
	{256, 512, 3, COLL_ALLGATHER_RECDBL}, {256, 131072, 5, COLL_ALLGATHER_NEIGHBOR},
	{256, 524288, 4, COLL_ALLGATHER_RING}, {256, 1048576, 5, COLL_ALLGATHER_NEIGHBOR},
	{256, 0, 4, COLL_ALLGATHER_RING},
	{512, 32, 3, COLL_ALLGATHER_RECDBL}, {512, 128, 2, COLL_ALLGATHER_BRUCK},
	{512, 1024, 3, COLL_ALLGATHER_RECDBL}, {512, 131072, 5, COLL_ALLGATHER_NEIGHBOR},
	{512, 524288, 4, COLL_ALLGATHER_RING}, {512, 1048576, 5, COLL_ALLGATHER_NEIGHBOR},
	{512, 0, 4, COLL_ALLGATHER_RING},
	{1024, 64, 3, COLL_ALLGATHER_RECDBL}, {1024, 256, 2, COLL_ALLGATHER_BRUCK},
	{1024, 2048, 3, COLL_ALLGATHER_RECDBL}, {1024, 0, 5, COLL_ALLGATHER_NEIGHBOR},
	{2048, 4, 3, COLL_ALLGATHER_RECDBL}, {2048, 8, 2, COLL_ALLGATHER_BRUCK},
	{2048, 16, 3, COLL_ALLGATHER_RECDBL}, {2048, 32, 2, COLL_ALLGATHER_BRUCK},
	{2048, 256, 3, COLL_ALLGATHER_RECDBL}, {2048, 512, 2, COLL_ALLGATHER_BRUCK},
	{2048, 4096, 3, COLL_ALLGATHER_RECDBL}, {2048, 0, 5, COLL_ALLGATHER_NEIGHBOR},
	{4096, 32, 2, COLL_ALLGATHER_BRUCK}, {4096, 128, 3, COLL_ALLGATHER_RECDBL},
	{4096, 512, 2, COLL_ALLGATHER_BRUCK}, {4096, 4096, 3, COLL_ALLGATHER_RECDBL},
	{4096, 0, 5, COLL_ALLGATHER_NEIGHBOR},
	{0, 2, 3, COLL_ALLGATHER_RECDBL}, {0, 8, 2, COLL_ALLGATHER_BRUCK}, {0, 16, 3, COLL_ALLGATHER_RECDBL},
	{0, 512, 2, COLL_ALLGATHER_BRUCK}, {0, 4096, 3, COLL_ALLGATHER_RECDBL},
	{0, 0, 5, COLL_ALLGATHER_NEIGHBOR},
};
static const coll_rule ompi_reduce_scatter[] = {
	{4, 65536, 3, COLL_REDSCAT_RING}, {4, 131072, 4, COLL_REDSCAT_HALVING}, {4, 0, 3, COLL_REDSCAT_RING},
	{8, 8, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {8, 262144, 2, COLL_REDSCAT_HALVING},
	{8, 0, 3, COLL_REDSCAT_RING},
	{32, 262144, 2, COLL_REDSCAT_HALVING}, {32, 0, 3, COLL_REDSCAT_RING},
	{64, 64, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {64, 2048, 2, COLL_REDSCAT_HALVING},
	{64, 524288, 4, COLL_REDSCAT_HALVING}, {64, 0, 3, COLL_REDSCAT_RING},
	{128, 256, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {128, 512, 2, COLL_REDSCAT_HALVING},
	{128, 2048, 4, COLL_REDSCAT_HALVING}, {128, 4096, 2, COLL_REDSCAT_HALVING},
	{128, 0, 4, COLL_REDSCAT_HALVING},
	{256, 256, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {256, 512, 2, COLL_REDSCAT_HALVING},
	{256, 0, 4, COLL_REDSCAT_HALVING},
	{512, 256, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {512, 1024, 2, COLL_REDSCAT_HALVING},
	{512, 0, 4, COLL_REDSCAT_HALVING},
	{1024, 512, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {1024, 2048, 2, COLL_REDSCAT_HALVING},
	{1024, 8192, 4, COLL_REDSCAT_HALVING}, {1024, 16384, 2, COLL_REDSCAT_HALVING},
	{1024, 0, 4, COLL_REDSCAT_HALVING},
	{2048, 512, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {2048, 4096, 2, COLL_REDSCAT_HALVING},
	{2048, 16384, 4, COLL_REDSCAT_HALVING}, {2048, 32768, 2, COLL_REDSCAT_HALVING},
	{2048, 0, 4, COLL_REDSCAT_HALVING},
	{4096, 512, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {4096, 4096, 2, COLL_REDSCAT_HALVING},
	{4096, 0, 4, COLL_REDSCAT_HALVING},
	{0, 1024, 1, COLL_REDSCAT_REDUCE_SCATTERV}, {0, 8192, 2, COLL_REDSCAT_HALVING},
	{0, 0, 4, COLL_REDSCAT_HALVING},
};
static const coll_rule ompi_alltoall[] = {
	{3, 2, 2, COLL_ALLTOALL_PAIRWISE}, {3, 4, 5, COLL_ALLTOALL_PAIRWISE},
	{3, 16, 2, COLL_ALLTOALL_PAIRWISE}, {3, 64, 5, COLL_ALLTOALL_PAIRWISE},
	{3, 256, 2, COLL_ALLTOALL_PAIRWISE}, {3, 4096, 5, COLL_ALLTOALL_PAIRWISE},
	{3, 32768, 2, COLL_ALLTOALL_PAIRWISE}, {3, 262144, 4, COLL_ALLTOALL_LINEAR},
	{3, 1048576, 5, COLL_ALLTOALL_PAIRWISE}, {3, 0, 2, COLL_ALLTOALL_PAIRWISE},
	{8, 8192, 4, COLL_ALLTOALL_LINEAR}, {8, 16384, 1, COLL_ALLTOALL_LINEAR},
	{8, 65536, 4, COLL_ALLTOALL_LINEAR}, {8, 524288, 1, COLL_ALLTOALL_LINEAR},
	{8, 1048576, 2, COLL_ALLTOALL_PAIRWISE}, {8, 0, 1, COLL_ALLTOALL_LINEAR},
	{16, 262144, 4, COLL_ALLTOALL_LINEAR}, {16, 0, 1, COLL_ALLTOALL_LINEAR},
	{32, 4, 4, COLL_ALLTOALL_LINEAR}, {32, 512, 3, COLL_ALLTOALL_BRUCK},
	{32, 8192, 4, COLL_ALLTOALL_LINEAR}, {32, 32768, 1, COLL_ALLTOALL_LINEAR},
	{32, 262144, 4, COLL_ALLTOALL_LINEAR}, {32, 524288, 1, COLL_ALLTOALL_LINEAR},
	{32, 0, 4, COLL_ALLTOALL_LINEAR},
	{64, 512, 3, COLL_ALLTOALL_BRUCK}, {64, 524288, 1, COLL_ALLTOALL_LINEAR},
	{64, 0, 4, COLL_ALLTOALL_LINEAR},
	{128, 1024, 3, COLL_ALLTOALL_BRUCK}, {128, 2048, 1, COLL_ALLTOALL_LINEAR},
	{128, 4096, 4, COLL_ALLTOALL_LINEAR}, {128, 262144, 1, COLL_ALLTOALL_LINEAR},
	{128, 0, 2, COLL_ALLTOALL_PAIRWISE},
	{256, 1024, 3, COLL_ALLTOALL_BRUCK}, {256, 2048, 4, COLL_ALLTOALL_LINEAR},
	{256, 262144, 1, COLL_ALLTOALL_LINEAR}, {256, 0, 2, COLL_ALLTOALL_PAIRWISE},
	{512, 1024, 3, COLL_ALLTOALL_BRUCK}, {512, 8192, 4, COLL_ALLTOALL_LINEAR},
	{512, 32768, 1, COLL_ALLTOALL_LINEAR}, {512, 0, 2, COLL_ALLTOALL_PAIRWISE},
	{1024, 512, 3, COLL_ALLTOALL_BRUCK}, {1024, 8192, 4, COLL_ALLTOALL_LINEAR},
	{1024, 16384, 1, COLL_ALLTOALL_LINEAR}, {1024, 131072, 4, COLL_ALLTOALL_LINEAR},
	{1024, 262144, 1, COLL_ALLTOALL_LINEAR}, {1024, 0, 2, COLL_ALLTOALL_PAIRWISE},
	{2048, 512, 3, COLL_ALLTOALL_BRUCK}, {2048, 1024, 4, COLL_ALLTOALL_LINEAR},
	{2048, 2048, 1, COLL_ALLTOALL_LINEAR}, {2048, 16384, 4, COLL_ALLTOALL_LINEAR},
	{2048, 262144, 1, COLL_ALLTOALL_LINEAR}, {2048, 0, 4, COLL_ALLTOALL_LINEAR},
	{4096, 1024, 3, COLL_ALLTOALL_BRUCK}, {4096, 4096, 4, COLL_ALLTOALL_LINEAR},
	{4096, 8192, 1, COLL_ALLTOALL_LINEAR}, {4096, 131072, 4, COLL_ALLTOALL_LINEAR},
	{4096, 0, 1, COLL_ALLTOALL_LINEAR},
	{0, 2048, 3, COLL_ALLTOALL_BRUCK}, {0, 8192, 4, COLL_ALLTOALL_LINEAR},
	{0, 16384, 1, COLL_ALLTOALL_LINEAR}, {0, 32768, 4, COLL_ALLTOALL_LINEAR},
	{0, 65536, 1, COLL_ALLTOALL_LINEAR}, {0, 0, 4, COLL_ALLTOALL_LINEAR},
};
static const coll_rule ompi_gather[] = {
	{4, 2, 3, COLL_GATHER_LINEAR}, {4, 4, 1, COLL_GATHER_LINEAR}, {4, 32768, 2, COLL_GATHER_BINOMIAL},
	{4, 65536, 1, COLL_GATHER_LINEAR}, {4, 131072, 2, COLL_GATHER_BINOMIAL}, {4, 0, 3, COLL_GATHER_LINEAR},
	{8, 1024, 2, COLL_GATHER_BINOMIAL}, {8, 8192, 1, COLL_GATHER_LINEAR},
	{8, 32768, 2, COLL_GATHER_BINOMIAL}, {8, 262144, 1, COLL_GATHER_LINEAR}, {8, 0, 3, COLL_GATHER_LINEAR},
	{256, 0, 2, COLL_GATHER_BINOMIAL},
	{512, 2048, 2, COLL_GATHER_BINOMIAL}, {512, 8192, 1, COLL_GATHER_LINEAR},
	{512, 0, 2, COLL_GATHER_BINOMIAL},
	{0, 0, 2, COLL_GATHER_BINOMIAL},
};
static const coll_rule ompi_scatter[] = {
	{4, 2, 3, COLL_SCATTER_LINEAR}, {4, 131072, 1, COLL_SCATTER_LINEAR},
	{4, 262144, 3, COLL_SCATTER_LINEAR}, {4, 0, 1, COLL_SCATTER_LINEAR},
	{8, 2048, 2, COLL_SCATTER_BINOMIAL}, {8, 4096, 1, COLL_SCATTER_LINEAR},
	{8, 8192, 2, COLL_SCATTER_BINOMIAL}, {8, 32768, 1, COLL_SCATTER_LINEAR},
	{8, 1048576, 3, COLL_SCATTER_LINEAR}, {8, 0, 1, COLL_SCATTER_LINEAR},
	{16, 16384, 2, COLL_SCATTER_BINOMIAL}, {16, 1048576, 3, COLL_SCATTER_LINEAR},
	{16, 0, 1, COLL_SCATTER_LINEAR},
	{32, 16384, 2, COLL_SCATTER_BINOMIAL}, {32, 32768, 1, COLL_SCATTER_LINEAR},
	{32, 0, 3, COLL_SCATTER_LINEAR},
	{64, 512, 2, COLL_SCATTER_BINOMIAL}, {64, 8192, 3, COLL_SCATTER_LINEAR},
	{64, 16384, 2, COLL_SCATTER_BINOMIAL}, {64, 0, 3, COLL_SCATTER_LINEAR},
	{0, 512, 2, COLL_SCATTER_BINOMIAL}, {0, 0, 3, COLL_SCATTER_LINEAR},
};

static const coll_rule *const ompi_tables[COLL_NKINDS] = {
	[COLL_BARRIER] = ompi_barrier, [COLL_BCAST] = ompi_bcast, [COLL_REDUCE] = ompi_reduce,
	[COLL_ALLREDUCE] = ompi_allreduce, [COLL_ALLGATHER] = ompi_allgather,
	[COLL_REDUCE_SCATTER] = ompi_reduce_scatter, [COLL_ALLTOALL] = ompi_alltoall,
	[COLL_GATHER] = ompi_gather, [COLL_SCATTER] = ompi_scatter,
};

/*
 * What Open MPI's algorithm does on entry with the rules' segment size 0 and
 * the vector's count (coll_base_allreduce.c, coll_base_reduce.c,
 * coll_base_bcast.c): the segmented ring without segments is the ring, the
 * ring needs count >= P (else recursive doubling), Rabenseifner count >=
 * pof2 (else the linear algorithm), scatter + allgather broadcasts count >=
 * P (else linear).
 */
static int ompi_fallback(const coll_config *cfg, enum coll_kind k, int alg, int P, uint64_t S)
{
	uint64_t count = S / cfg->element;
	uint64_t pof2 = (uint64_t)coll_pof2(P);
	if (k == COLL_ALLREDUCE) {
		if (alg == COLL_ALLREDUCE_SEGRING)
			alg = COLL_ALLREDUCE_RING;
		if (alg == COLL_ALLREDUCE_RING && count < (uint64_t)P)
			return COLL_ALLREDUCE_RECDBL;
		if (alg == COLL_ALLREDUCE_RABENSEIFNER && count < pof2)
			return COLL_ALLREDUCE_LINEAR;
	}
	if (k == COLL_REDUCE && alg == COLL_REDUCE_RABENSEIFNER && (pof2 < 2 || count < pof2))
		return COLL_REDUCE_LINEAR;
	if (k == COLL_BCAST && (alg == COLL_BCAST_SCATTER_RECDBL || alg == COLL_BCAST_SCATTER_RING) &&
	    count < (uint64_t)P)
		return COLL_BCAST_LINEAR;
	return alg;
}

coll_choice coll_choose(const coll_config *cfg, enum coll_kind k, int P, uint64_t S)
{
	coll_choice c = {cfg->alg[k], cfg->segment};
	if (c.alg != COLL_AUTO)
		return c;
	switch (cfg->selector) {
	case COLL_SEL_MPICH:
		c.alg = mpich_alg(cfg, k, P, S);
		break;
	case COLL_SEL_OMPI:
		c.alg = ompi_fallback(cfg, k, lookup(ompi_tables[k], P, S), P, S);
		c.segment = 0;
		break;
	default:
		c.alg = fixed_alg(cfg, k, S);
		break;
	}
	return c;
}

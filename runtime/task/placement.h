/*
 * placement.h - which compute node runs each rank of each job (prefix pl_).
 *
 * Input: the machine (node count, the storage nodes that never host tasks,
 * and topology queries as callbacks so that any network model works), the
 * task count of every job, a policy and a seed. Output: for job j, an array
 * nodes[j][rank] of node ids. One task per node: the jobs together may use
 * at most the machine's compute nodes, unless the machine is marked
 * oversubscribe (--oversubscribe): then the ordered list wraps around and
 * the tasks beyond it share nodes.
 *
 * Policies (doc/workloads.md):
 *
 *   contiguous    the compute nodes in increasing id order; job 0 takes the
 *                 first ntasks[0], job 1 the next ntasks[1], ...
 *   random-node   the compute nodes in a random order (uniform permutation)
 *   random-router the routers in a random order, each router's compute nodes
 *                 in id order inside it
 *   random-group  the groups in a random order, each group's compute nodes in
 *                 id order inside it
 *
 * Every policy builds one ordered list of the free compute nodes and hands it
 * out in job order, so jobs never share a node and a job occupies whole
 * routers (groups) except at its two ends. The random orders depend only on
 * (seed, machine): equal seeds give equal placements.
 *
 * An allocation file (CODES format) gives the nodes explicitly: line j lists,
 * separated by blanks, the node of each rank of job j. Blank lines and `#`
 * comments are skipped.
 */
#ifndef NCSIM_PLACEMENT_H
#define NCSIM_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

/* A topology query: the router (or group) of `node`, an arbitrary id. */
typedef uint32_t (*pl_topo_fn)(void *ctx, uint32_t node);

typedef struct pl_machine {
	uint32_t nnodes;
	const uint8_t *storage; /* nnodes flags, non-zero: a storage node (never hosts tasks); NULL: none */
	void *ctx;              /* passed back to the callbacks */
	pl_topo_fn router_of;   /* NULL: every node is its own router */
	pl_topo_fn group_of;    /* NULL: the whole machine is one group */
	int oversubscribe;      /* pl_place may put several tasks on a node */
	const uint32_t *alloc_map; /* allocation-file id -> node (alloc_ids = compute-nodes), or NULL: ids are nodes */
	uint32_t alloc_n;
} pl_machine;

enum pl_policy { PL_CONTIGUOUS = 0, PL_RANDOM_NODE, PL_RANDOM_ROUTER, PL_RANDOM_GROUP, PL_NPOLICIES };

/* The policy named s (contiguous, random-node, random-router, random-group), or -1. */
int pl_policy_parse(const char *s);
/* The name of a policy. */
const char *pl_policy_name(enum pl_policy p);
struct sysconf;
/*
 * Reads [placement] alloc_ids of a system: "nodes" (the default: an
 * allocation file names nodes) or "compute-nodes" (it names the compute
 * nodes counted in id order, skipping storage nodes, as CODES' workload LP
 * ids do when those LPs fill every other terminal). Sets *compute. 0, or -1 with *err.
 */
int pl_alloc_ids_load(const struct sysconf *sys, int *compute, char **err);

/* Number of nodes of m that may host tasks. */
uint32_t pl_compute_nodes(const pl_machine *m);

/*
 * Places njobs jobs of ntasks[j] tasks: nodes[j] becomes a heap array of
 * ntasks[j] node ids (free each, not the outer array). Returns 0, or -1 with
 * *err (heap) when the jobs need more nodes than m has compute nodes or the
 * policy is unknown; nodes[] is then all NULL.
 */
int pl_place(const pl_machine *m, enum pl_policy p, uint64_t seed, size_t njobs, const uint32_t *ntasks,
             uint32_t **nodes, char **err);

/*
 * Reads an allocation file held in text (`name` is used in messages): line j
 * must list exactly ntasks[j] distinct compute nodes of m, no node may appear
 * twice, and there must be exactly njobs lines. Fills nodes[] as pl_place
 * does. Returns 0, or -1 with *err ("name:line: ...").
 */
int pl_alloc_parse(const char *name, const char *text, const pl_machine *m, size_t njobs, const uint32_t *ntasks,
                   uint32_t **nodes, char **err);
/* pl_alloc_parse on the file at path. */
int pl_alloc_load(const char *path, const pl_machine *m, size_t njobs, const uint32_t *ntasks, uint32_t **nodes,
                  char **err);

#endif

/*
 * placement.c - which compute node runs each rank of each job (see placement.h).
 */
#include "config.h"

#include "runtime/task/placement.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/rng.h"
#include "base/sysconf.h"
#include "base/util.h"

/* Stream id of the placement generator: "place" in ASCII, apart from every entity id in use. */
#define PL_STREAM UINT64_C(0x706c616365000000)

static const char *const policy_names[PL_NPOLICIES] = {
	[PL_CONTIGUOUS] = "contiguous",
	[PL_RANDOM_NODE] = "random-node",
	[PL_RANDOM_ROUTER] = "random-router",
	[PL_RANDOM_GROUP] = "random-group",
};

int pl_policy_parse(const char *s)
{
	for (int i = 0; i < PL_NPOLICIES; i++)
		if (!strcmp(s, policy_names[i]))
			return i;
	return -1;
}

const char *pl_policy_name(enum pl_policy p) { return p < PL_NPOLICIES ? policy_names[p] : "?"; }

static int is_storage(const pl_machine *m, uint32_t n) { return m->storage && m->storage[n]; }

uint32_t pl_compute_nodes(const pl_machine *m)
{
	uint32_t c = 0;
	for (uint32_t n = 0; n < m->nnodes; n++)
		c += !is_storage(m, n);
	return c;
}

/* Uniform integer in [0, n) without modulo bias (Lemire's multiply-and-reject). */
static uint64_t below(sim_rng *r, uint64_t n)
{
	unsigned __int128 x = (unsigned __int128)sim_rng_next(r) * n;
	uint64_t lo = (uint64_t)x;
	if (lo < n) {
		uint64_t floor = -n % n;
		while (lo < floor) {
			x = (unsigned __int128)sim_rng_next(r) * n;
			lo = (uint64_t)x;
		}
	}
	return (uint64_t)(x >> 64);
}

/* Fisher-Yates over n elements of `size` bytes. */
static void shuffle(sim_rng *r, void *base, size_t n, size_t size)
{
	char tmp[16];
	char *a = base;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)below(r, i);
		memcpy(tmp, a + (i - 1) * size, size);
		memcpy(a + (i - 1) * size, a + j * size, size);
		memcpy(a + j * size, tmp, size);
	}
}

/*
 * A unit of the random-router / random-group orders: a run of compute nodes
 * that share a key, [first, first + count) in the key-sorted node list.
 */
typedef struct pl_unit {
	uint32_t first, count;
} pl_unit;

typedef VEC(uint32_t) pl_idvec;

typedef struct pl_keyed {
	uint32_t key, node;
} pl_keyed;

/* Key first, node id second: a total order, so qsort's instability cannot show. */
static int cmp_keyed(const void *a, const void *b)
{
	const pl_keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * Orders the compute nodes `list[0..n)` (ascending ids) by units of equal
 * key(node), with the units in random order and the nodes of a unit in id
 * order.
 */
static void order_by_units(const pl_machine *m, pl_topo_fn key, sim_rng *r, uint32_t *list, uint32_t n)
{
	pl_keyed *k = xcalloc(n ? n : 1, sizeof *k);
	for (uint32_t i = 0; i < n; i++)
		k[i] = (pl_keyed){.key = key ? key(m->ctx, list[i]) : 0, .node = list[i]};
	qsort(k, n, sizeof *k, cmp_keyed);
	VEC(pl_unit) units = {0};
	for (uint32_t i = 0; i < n; i++) {
		if (i == 0 || k[i].key != k[i - 1].key)
			VEC_PUSH(&units, ((pl_unit){.first = i, .count = 0}));
		units.ptr[units.len - 1].count++;
	}
	shuffle(r, units.ptr, units.len, sizeof *units.ptr);
	uint32_t o = 0;
	for (size_t u = 0; u < units.len; u++)
		for (uint32_t i = 0; i < units.ptr[u].count; i++)
			list[o++] = k[units.ptr[u].first + i].node;
	VEC_FREE(&units);
	free(k);
}

/* Identity key: each node is its own router when the machine gives no router_of. */
static uint32_t self_key(void *ctx, uint32_t node)
{
	(void)ctx;
	return node;
}

static void free_nodes(size_t njobs, uint32_t **nodes)
{
	for (size_t j = 0; j < njobs; j++) {
		free(nodes[j]);
		nodes[j] = NULL;
	}
}

/* Total tasks, or an error if they exceed the compute nodes. */
static int check_fit(const pl_machine *m, size_t njobs, const uint32_t *ntasks, uint32_t ncompute, char **err)
{
	uint64_t need = 0;
	for (size_t j = 0; j < njobs; j++)
		need += ntasks[j];
	if (need > ncompute) {
		uint32_t nsto = m->nnodes - ncompute;
		*err = xasprintf("the jobs need %" PRIu64 " nodes but the machine has only %" PRIu32
		                 " compute nodes (%" PRIu32 " nodes in all, %" PRIu32 " of them storage nodes)",
		                 need, ncompute, m->nnodes, nsto);
		return -1;
	}
	return 0;
}

int pl_place(const pl_machine *m, enum pl_policy p, uint64_t seed, size_t njobs, const uint32_t *ntasks,
             uint32_t **nodes, char **err)
{
	for (size_t j = 0; j < njobs; j++)
		nodes[j] = NULL;
	if ((unsigned)p >= PL_NPOLICIES) {
		*err = xasprintf("unknown placement policy %d", (int)p);
		return -1;
	}
	uint32_t ncompute = pl_compute_nodes(m);
	if ((!m->oversubscribe || ncompute == 0) && check_fit(m, njobs, ntasks, ncompute, err) < 0)
		return -1;
	uint32_t *list = xcalloc(ncompute ? ncompute : 1, sizeof *list);
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nnodes; i++)
		if (!is_storage(m, i))
			list[n++] = i;
	sim_rng r;
	sim_rng_seed(&r, seed, PL_STREAM + (uint64_t)p);
	switch (p) {
	case PL_RANDOM_NODE:
		shuffle(&r, list, n, sizeof *list);
		break;
	case PL_RANDOM_ROUTER:
		order_by_units(m, m->router_of ? m->router_of : self_key, &r, list, n);
		break;
	case PL_RANDOM_GROUP:
		order_by_units(m, m->group_of, &r, list, n);
		break;
	default:
		break;
	}
	uint32_t o = 0;
	for (size_t j = 0; j < njobs; j++) {
		nodes[j] = xcalloc(ntasks[j] ? ntasks[j] : 1, sizeof **nodes);
		for (uint32_t k = 0; k < ntasks[j]; k++) {
			nodes[j][k] = list[o];
			o = o + 1 == n ? 0 : o + 1; /* wraps around only when oversubscribed */
		}
	}
	free(list);
	return 0;
}

/* ------------------------------------------------------------ allocation files */

int pl_alloc_ids_load(const sysconf_t *sys, int *compute, char **err)
{
	const char *v = NULL;
	*compute = 0;
	if (sysconf_string(sys, "placement", "alloc_ids", &v, err) < 0)
		return -1;
	if (!v || !strcmp(v, "nodes"))
		return 0;
	if (!strcmp(v, "compute-nodes")) {
		*compute = 1;
		return 0;
	}
	*err = xasprintf("%s: [placement] alloc_ids = '%s': expected nodes or compute-nodes",
	                 sysconf_where(sys, "placement", "alloc_ids"), v);
	return -1;
}

/* The node of allocation-file id v, or -1 with *err. */
static int64_t id_node(const char *name, int lineno, uint64_t v, const pl_machine *m, char **err)
{
	if (m->alloc_map) {
		if (v >= m->alloc_n) {
			*err = xasprintf("%s:%d: id %" PRIu64 " does not exist (the ids of this system are its compute nodes, "
			                 "0 to %" PRIu32 ")", name, lineno, v, m->alloc_n - 1);
			return -1;
		}
		return m->alloc_map[v];
	}
	if (v >= m->nnodes) {
		*err = xasprintf("%s:%d: node %" PRIu64 " does not exist (the machine has nodes 0 to %" PRIu32 ")", name,
		                 lineno, v, m->nnodes - 1);
		return -1;
	}
	if (is_storage(m, (uint32_t)v)) {
		*err = xasprintf("%s:%d: node %" PRIu64 " is a storage (burst-buffer or I/O) node and cannot run tasks",
		                 name, lineno, v);
		return -1;
	}
	return (int64_t)v;
}

/* Parses one line's node ids into ids; 0, or -1 with *err. */
static int parse_line(const char *name, int lineno, const char *s, const char *end, const pl_machine *m,
                      pl_idvec *ids, char **err)
{
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == ','))
			s++;
		if (s >= end)
			break;
		const char *w = s;
		while (s < end && !(*s == ' ' || *s == '\t' || *s == '\r' || *s == ','))
			s++;
		uint64_t v = 0;
		int ok = s > w;
		for (const char *c = w; c < s && ok; c++) {
			if (*c < '0' || *c > '9' || v > UINT32_MAX)
				ok = 0;
			else
				v = v * 10 + (uint64_t)(*c - '0');
		}
		if (!ok || v > UINT32_MAX) {
			*err = xasprintf("%s:%d: '%.*s' is not a node id (expected non-negative integers separated by blanks)",
			                 name, lineno, (int)(s - w), w);
			return -1;
		}
		int64_t node = id_node(name, lineno, v, m, err);
		if (node < 0)
			return -1;
		VEC_PUSH(ids, (uint32_t)node);
	}
	return 0;
}

int pl_alloc_parse(const char *name, const char *text, const pl_machine *m, size_t njobs, const uint32_t *ntasks,
                   uint32_t **nodes, char **err)
{
	for (size_t j = 0; j < njobs; j++)
		nodes[j] = NULL;
	/* line of the job that took each node, 0: free */
	int *owner = xcalloc(m->nnodes ? m->nnodes : 1, sizeof *owner);
	pl_idvec ids = {0};
	size_t job = 0;
	int lineno = 0, rc = -1;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		lineno++;
		const char *hash = memchr(p, '#', (size_t)(eol - p));
		const char *end = hash ? hash : eol;
		ids.len = 0;
		if (parse_line(name, lineno, p, end, m, &ids, err) < 0)
			goto out;
		if (ids.len > 0) {
			if (job >= njobs) {
				*err = xasprintf("%s:%d: the workload has %zu job%s but the allocation file has more lines", name,
				                 lineno, njobs, njobs == 1 ? "" : "s");
				goto out;
			}
			if (ids.len != ntasks[job]) {
				*err = xasprintf("%s:%d: job %zu has %" PRIu32 " tasks but this line lists %zu nodes", name, lineno,
				                 job, ntasks[job], ids.len);
				goto out;
			}
			for (size_t i = 0; i < ids.len; i++) {
				if (owner[ids.ptr[i]]) {
					*err = xasprintf("%s:%d: node %" PRIu32 " is already used (line %d)", name, lineno, ids.ptr[i],
					                 owner[ids.ptr[i]]);
					goto out;
				}
				owner[ids.ptr[i]] = lineno;
			}
			nodes[job] = xcalloc(ids.len, sizeof **nodes);
			memcpy(nodes[job], ids.ptr, ids.len * sizeof **nodes);
			job++;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (job < njobs) {
		*err = xasprintf("%s: the workload has %zu job%s but the allocation file lists only %zu", name, njobs,
		                 njobs == 1 ? "" : "s", job);
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		free_nodes(njobs, nodes);
	VEC_FREE(&ids);
	free(owner);
	return rc;
}

int pl_alloc_load(const char *path, const pl_machine *m, size_t njobs, const uint32_t *ntasks, uint32_t **nodes,
                  char **err)
{
	char *text = xread_text(path, "allocation file", err);
	if (!text)
		return -1;
	int rc = pl_alloc_parse(path, text, m, njobs, ntasks, nodes, err);
	free(text);
	return rc;
}

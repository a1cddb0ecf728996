/*
 * test_placement.c - placement of jobs' tasks on compute nodes (runtime/task/placement.h).
 *
 * The machine of most tests is df-tiny's shape: 5 groups x 2 routers x 4
 * nodes (40 nodes; router = node / 4, group = node / 8) with a burst buffer
 * on the first node of every group (0, 8, 16, 24, 32), so 35 compute nodes.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/task/placement.h"
#include "tests/unit/unit.h"

#define NN 40

static uint8_t storage[NN];

static uint32_t router_of(void *ctx, uint32_t n)
{
	(void)ctx;
	return n / 4;
}

static uint32_t group_of(void *ctx, uint32_t n)
{
	(void)ctx;
	return n / 8;
}

static pl_machine tiny(void)
{
	memset(storage, 0, sizeof storage);
	for (int g = 0; g < 5; g++)
		storage[g * 8] = 1;
	return (pl_machine){.nnodes = NN, .storage = storage, .router_of = router_of, .group_of = group_of};
}

static void free_all(size_t n, uint32_t **nodes)
{
	for (size_t i = 0; i < n; i++) {
		free(nodes[i]);
		nodes[i] = NULL;
	}
}

static void test_policy_names(void)
{
	for (int p = 0; p < PL_NPOLICIES; p++)
		CU_ASSERT_EQUAL(pl_policy_parse(pl_policy_name((enum pl_policy)p)), p);
	CU_ASSERT_EQUAL(pl_policy_parse("random-node"), PL_RANDOM_NODE);
	CU_ASSERT_EQUAL(pl_policy_parse("random"), -1);
	CU_ASSERT_EQUAL(pl_policy_parse(""), -1);
	pl_machine m = tiny();
	CU_ASSERT_EQUAL(pl_compute_nodes(&m), 35);
	m.storage = NULL;
	CU_ASSERT_EQUAL(pl_compute_nodes(&m), 40);
}

/* Contiguous: every job takes the next free compute nodes, in id order. */
static void test_contiguous(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {3, 9, 4};
	uint32_t *nodes[3];
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(pl_place(&m, PL_CONTIGUOUS, 1, 3, ntasks, nodes, &err), 0);
	const uint32_t j0[] = {1, 2, 3};
	const uint32_t j1[] = {4, 5, 6, 7, 9, 10, 11, 12, 13};
	const uint32_t j2[] = {14, 15, 17, 18};
	CU_ASSERT(memcmp(nodes[0], j0, sizeof j0) == 0);
	CU_ASSERT(memcmp(nodes[1], j1, sizeof j1) == 0);
	CU_ASSERT(memcmp(nodes[2], j2, sizeof j2) == 0);
	free_all(3, nodes);
	/* The seed does not matter. */
	CU_ASSERT_EQUAL_FATAL(pl_place(&m, PL_CONTIGUOUS, 99, 3, ntasks, nodes, &err), 0);
	CU_ASSERT(memcmp(nodes[1], j1, sizeof j1) == 0);
	free_all(3, nodes);
}

/* Checks: nodes distinct, in range, never storage. Returns the number of nodes. */
static uint32_t check_valid(const pl_machine *m, size_t nj, const uint32_t *ntasks, uint32_t **nodes)
{
	uint8_t used[NN] = {0};
	uint32_t n = 0;
	for (size_t j = 0; j < nj; j++) {
		for (uint32_t r = 0; r < ntasks[j]; r++) {
			uint32_t v = nodes[j][r];
			CU_ASSERT_FATAL(v < m->nnodes);
			CU_ASSERT(!m->storage || !m->storage[v]);
			CU_ASSERT(!used[v]);
			used[v] = 1;
			n++;
		}
	}
	return n;
}

/* Random policies: deterministic for a seed, different across seeds, valid. */
static void test_random_deterministic(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {10, 12, 5};
	const enum pl_policy pols[] = {PL_RANDOM_NODE, PL_RANDOM_ROUTER, PL_RANDOM_GROUP};
	char *err = NULL;
	for (size_t k = 0; k < 3; k++) {
		uint32_t *a[3], *b[3], *c[3];
		CU_ASSERT_EQUAL_FATAL(pl_place(&m, pols[k], 7, 3, ntasks, a, &err), 0);
		CU_ASSERT_EQUAL_FATAL(pl_place(&m, pols[k], 7, 3, ntasks, b, &err), 0);
		check_valid(&m, 3, ntasks, a);
		int same = 1;
		for (size_t j = 0; j < 3; j++)
			same &= memcmp(a[j], b[j], ntasks[j] * sizeof(uint32_t)) == 0;
		CU_ASSERT(same);
		/* Some seed among a few gives another placement (for 5 groups one
		 * other seed can repeat the order by chance: 1/120). */
		int differs = 0;
		for (uint64_t seed = 8; seed < 12 && !differs; seed++) {
			CU_ASSERT_EQUAL_FATAL(pl_place(&m, pols[k], seed, 3, ntasks, c, &err), 0);
			check_valid(&m, 3, ntasks, c);
			for (size_t j = 0; j < 3; j++)
				differs |= memcmp(a[j], c[j], ntasks[j] * sizeof(uint32_t)) != 0;
			free_all(3, c);
		}
		CU_ASSERT(differs);
		/* Not simply the contiguous order. */
		uint32_t *d[3];
		CU_ASSERT_EQUAL_FATAL(pl_place(&m, PL_CONTIGUOUS, 7, 3, ntasks, d, &err), 0);
		int contiguous = 1;
		for (size_t j = 0; j < 3; j++)
			contiguous &= memcmp(a[j], d[j], ntasks[j] * sizeof(uint32_t)) == 0;
		CU_ASSERT(!contiguous);
		free_all(3, a);
		free_all(3, b);
		free_all(3, d);
	}
}

/*
 * random-router / random-group with every compute node in use: the nodes,
 * read in job order, form one run per router (group), in id order within it.
 */
static void check_units(enum pl_policy p, uint32_t (*key)(void *, uint32_t))
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {7, 20, 8};
	uint32_t *nodes[3];
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(pl_place(&m, p, 3, 3, ntasks, nodes, &err), 0);
	CU_ASSERT_EQUAL(check_valid(&m, 3, ntasks, nodes), 35);
	uint32_t all[35], n = 0;
	for (size_t j = 0; j < 3; j++)
		for (uint32_t r = 0; r < ntasks[j]; r++)
			all[n++] = nodes[j][r];
	uint8_t seen[NN] = {0};
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = key(NULL, all[i]);
		if (i > 0 && key(NULL, all[i - 1]) == k) {
			CU_ASSERT(all[i] > all[i - 1]); /* id order inside a unit */
		} else {
			CU_ASSERT(!seen[k]); /* a unit appears in one run */
			seen[k] = 1;
		}
	}
	free_all(3, nodes);
}

static void test_random_router(void) { check_units(PL_RANDOM_ROUTER, router_of); }
static void test_random_group(void) { check_units(PL_RANDOM_GROUP, group_of); }

/* Storage nodes never host tasks, whatever the policy and the seed. */
static void test_storage_never_used(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {35};
	char *err = NULL;
	for (int p = 0; p < PL_NPOLICIES; p++) {
		for (uint64_t seed = 1; seed <= 20; seed++) {
			uint32_t *nodes[1];
			CU_ASSERT_EQUAL_FATAL(pl_place(&m, (enum pl_policy)p, seed, 1, ntasks, nodes, &err), 0);
			CU_ASSERT_EQUAL(check_valid(&m, 1, ntasks, nodes), 35);
			free_all(1, nodes);
		}
	}
}

/* Without topology callbacks: random-group is one group (the id order). */
static void test_no_topology(void)
{
	pl_machine m = {.nnodes = 10};
	uint32_t ntasks[] = {4, 6};
	uint32_t *nodes[2];
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(pl_place(&m, PL_RANDOM_GROUP, 5, 2, ntasks, nodes, &err), 0);
	for (uint32_t i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(nodes[0][i], i);
	for (uint32_t i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(nodes[1][i], 4 + i);
	free_all(2, nodes);
	CU_ASSERT_EQUAL_FATAL(pl_place(&m, PL_RANDOM_ROUTER, 5, 2, ntasks, nodes, &err), 0);
	uint8_t used[10] = {0};
	for (uint32_t j = 0; j < 2; j++)
		for (uint32_t i = 0; i < ntasks[j]; i++)
			used[nodes[j][i]]++;
	for (int i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(used[i], 1);
	free_all(2, nodes);
}

static void test_too_many_tasks(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {20, 16};
	uint32_t *nodes[2] = {(uint32_t *)1, (uint32_t *)1};
	char *err = NULL;
	CU_ASSERT_EQUAL(pl_place(&m, PL_CONTIGUOUS, 1, 2, ntasks, nodes, &err), -1);
	CU_ASSERT_PTR_NULL(nodes[0]);
	CU_ASSERT_PTR_NULL(nodes[1]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "36 nodes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "35 compute nodes"));
	free(err);
	err = NULL;
	/* Exactly the compute nodes fits. */
	ntasks[1] = 15;
	CU_ASSERT_EQUAL(pl_place(&m, PL_RANDOM_NODE, 1, 2, ntasks, nodes, &err), 0);
	free_all(2, nodes);
}

/* An allocation file is honoured exactly, in rank order. */
static void test_alloc_exact(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {3, 2, 1};
	uint32_t *nodes[3];
	char *err = NULL;
	const char *text = "# CODES allocation: one line per job\n"
	                   "39 2 17\n"
	                   "\n"
	                   "  5\t4   \n"
	                   "33";
	CU_ASSERT_EQUAL_FATAL(pl_alloc_parse("a.alloc", text, &m, 3, ntasks, nodes, &err), 0);
	CU_ASSERT_EQUAL(nodes[0][0], 39);
	CU_ASSERT_EQUAL(nodes[0][1], 2);
	CU_ASSERT_EQUAL(nodes[0][2], 17);
	CU_ASSERT_EQUAL(nodes[1][0], 5);
	CU_ASSERT_EQUAL(nodes[1][1], 4);
	CU_ASSERT_EQUAL(nodes[2][0], 33);
	free_all(3, nodes);
}

/* Each malformed allocation file gives the expected "file:line: ..." message. */
static void expect_alloc_error(const char *text, const uint32_t *ntasks, size_t nj, const char *want)
{
	pl_machine m = tiny();
	uint32_t *nodes[4];
	char *err = NULL;
	CU_ASSERT_EQUAL(pl_alloc_parse("x.alloc", text, &m, nj, ntasks, nodes, &err), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	if (!strstr(err, want))
		fprintf(stderr, "\n  got: %s\n  want: %s\n", err, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	for (size_t j = 0; j < nj; j++)
		CU_ASSERT_PTR_NULL(nodes[j]);
	free(err);
}

static void test_alloc_errors(void)
{
	const uint32_t two[] = {2, 2};
	expect_alloc_error("1 2\n3 4 5\n", two, 2, "x.alloc:2: job 1 has 2 tasks but this line lists 3 nodes");
	expect_alloc_error("1 2\n3\n", two, 2, "x.alloc:2: job 1 has 2 tasks but this line lists 1 nodes");
	expect_alloc_error("1 2\n3 2\n", two, 2, "x.alloc:2: node 2 is already used (line 1)");
	expect_alloc_error("1 1\n3 4\n", two, 2, "x.alloc:1: node 1 is already used (line 1)");
	expect_alloc_error("1 8\n3 4\n", two, 2, "x.alloc:1: node 8 is a storage");
	expect_alloc_error("1 2\n3 40\n", two, 2, "x.alloc:2: node 40 does not exist");
	expect_alloc_error("1 2\n3 x4\n", two, 2, "x.alloc:2: 'x4' is not a node id");
	expect_alloc_error("1 2\n3 -4\n", two, 2, "x.alloc:2: '-4' is not a node id");
	expect_alloc_error("1 2\n", two, 2, "x.alloc: the workload has 2 jobs but the allocation file lists only 1");
	expect_alloc_error("1 2\n3 4\n5 6\n", two, 2, "x.alloc:3: the workload has 2 jobs but the allocation file has more lines");
	expect_alloc_error("", two, 2, "lists only 0");
}

static void test_alloc_file(void)
{
	pl_machine m = tiny();
	uint32_t ntasks[] = {2};
	uint32_t *nodes[1];
	char *err = NULL;
	char path[] = "/tmp/test_placement.XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("12 11\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pl_alloc_load(path, &m, 1, ntasks, nodes, &err), 0);
	CU_ASSERT_EQUAL(nodes[0][0], 12);
	CU_ASSERT_EQUAL(nodes[0][1], 11);
	free_all(1, nodes);
	remove(path);
	CU_ASSERT_EQUAL(pl_alloc_load(path, &m, 1, ntasks, nodes, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open allocation file"));
	free(err);
}

int main(void)
{
	static const ut_test tests[] = {
		{"policy names", test_policy_names},
		{"contiguous", test_contiguous},
		{"random policies are deterministic per seed", test_random_deterministic},
		{"random-router keeps routers whole", test_random_router},
		{"random-group keeps groups whole", test_random_group},
		{"storage nodes never host tasks", test_storage_never_used},
		{"no topology callbacks", test_no_topology},
		{"too many tasks", test_too_many_tasks},
		{"allocation file honoured", test_alloc_exact},
		{"allocation file errors", test_alloc_errors},
		{"allocation file on disk", test_alloc_file},
		{NULL, NULL},
	};
	return ut_run("placement", tests);
}

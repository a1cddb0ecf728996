/*
 * fuzz_alloc.c - libFuzzer target: the allocation-file reader
 * (runtime/task/placement.c: pl_alloc_parse) on arbitrary text.
 *
 * Input: one byte giving the job count (1 + b % 4), one byte per job giving
 * its task count (1 + b % 16), then the file's text. The machine has 64
 * nodes, 8 per router and 32 per group; every eighth node (7, 15, ...) is a
 * storage node. Seeds: tests/fuzz/seeds-alloc/ (the .alloc files of
 * tests/e2e/io with that header).
 */
#include "tests/fuzz/fuzz_common.h"

#include "runtime/task/placement.h"

#define NNODES 64

static uint32_t router_of(void *ctx, uint32_t node) { (void)ctx; return node / 8; }
static uint32_t group_of(void *ctx, uint32_t node) { (void)ctx; return node / 32; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t njobs = 1 + data[0] % 4;
	if (size < 1 + njobs)
		return 0;
	uint32_t ntasks[4];
	for (size_t j = 0; j < njobs; j++)
		ntasks[j] = 1 + data[1 + j] % 16;
	char *text = fz_text(data + 1 + njobs, size - 1 - njobs);
	if (!text)
		return 0;
	static uint8_t storage[NNODES];
	for (int n = 0; n < NNODES; n++)
		storage[n] = n % 8 == 7;
	pl_machine m = {.nnodes = NNODES, .storage = storage, .router_of = router_of, .group_of = group_of};
	uint32_t *nodes[4];
	char *err = NULL;
	if (pl_alloc_parse("fuzz.alloc", text, &m, njobs, ntasks, nodes, &err) == 0) {
		/* Each job got its task count of distinct compute nodes. */
		uint8_t used[NNODES] = {0};
		for (size_t j = 0; j < njobs; j++) {
			for (uint32_t r = 0; r < ntasks[j]; r++) {
				uint32_t n = nodes[j][r];
				if (n >= NNODES || storage[n] || used[n]++)
					abort();
			}
			free(nodes[j]);
		}
	} else if (!err) {
		abort();
	}
	free(err);
	free(text);
	return 0;
}

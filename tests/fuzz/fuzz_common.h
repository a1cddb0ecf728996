/*
 * fuzz_common.h - helpers shared by the libFuzzer targets of tests/fuzz/
 * (header only, so each target stays one file plus this one).
 */
#ifndef NCSIM_FUZZ_COMMON_H
#define NCSIM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/memlimit.h"

/*
 * Memory limit for the machines a target builds: a quarter of libFuzzer's
 * default -rss_limit_mb (2 GB), since the models' estimates run a little high.
 * Larger machines are refused with a message, as --max-memory 512MB would.
 */
#define FZ_MEMORY_LIMIT ((uint64_t)512 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as the readers see a file: a NUL-terminated heap copy, or NULL
 * when it holds a NUL byte (xread_text refuses those files before any parser
 * runs, so such inputs cannot reach the parsers).
 */
static inline char *fz_text(const uint8_t *data, size_t size)
{
	if (memchr(data, '\0', size))
		return NULL;
	char *s = malloc(size + 1);
	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif

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

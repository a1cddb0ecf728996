/*
 * file_test.h - file helpers shared by the CUnit suites that check what the
 * runtime writes (outfile, ncptl_log): read a whole file back, remove a
 * scratch directory tree. Header-only so each suite stays one program.
 */
#ifndef NCSIM_TESTS_FILE_TEST_H
#define NCSIM_TESTS_FILE_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

/* The whole of file `path` as a NUL-terminated heap string, or NULL if it cannot be opened. */
static inline char *ft_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	buf[fread(buf, 1, (size_t)n, f)] = 0;
	fclose(f);
	return buf;
}

/* Removes the tree at path (rm -rf); returns system()'s status (0: removed). */
static inline int ft_rm_rf(const char *path)
{
	char *cmd = xasprintf("rm -rf '%s'", path);
	int rc = system(cmd);
	free(cmd);
	return rc;
}

#endif

/*
 * build.h - turns generated C into a loaded skeleton through a build cache (prefix build_).
 *
 * The cache lives in $XDG_CACHE_HOME/ncsim (else ~/.cache/ncsim). An entry is
 * named by a hash of (generated C, compiler command, compiler flags, ncsim
 * version, runtime ABI), so a changed program, compiler, flag, ncsim release
 * or skeleton API rebuilds and nothing else does. Two runs that build the same entry at once are safe:
 * each compiles to its own temporary file and renames it into place, and
 * rename is atomic.
 */
#ifndef NCSIM_BUILD_H
#define NCSIM_BUILD_H

#include "ncsim/rt.h"

typedef struct build_opts {
	const char *cc;        /* compiler command; NULL = $NCSIM_CC, else the configured one */
	const char *cflags;    /* extra flags, part of the cache key; may be NULL */
	const char *cache_dir; /* NULL = the default location */
	int verbose;           /* print the compiler command on stderr */
} build_opts;

typedef struct build_result {
	void *handle;              /* dlopen handle; close with build_unload */
	const rt_program *program; /* the skeleton's descriptor */
	char *so_path;             /* cache entry (heap) */
	int cached;                /* 1 if the entry existed already */
} build_result;

/* Directory holding ncsim's public headers for skeleton builds (source tree or installed). */
const char *build_include_dir(void);

/* What build_load returns on an error. */
enum build_error {
	BUILD_FAILED = -1,      /* the C does not compile or load (compiler output in *err) */
	BUILD_CACHE_ERROR = -2, /* the cache cannot be created or written (an I/O error, named in *err) */
};
/*
 * Compiles `csrc` (named `name` in messages) unless cached, loads it, and
 * checks its ABI. Returns 0, or an enum build_error with *err set (heap
 * string). Warnings of a successful build (-Wall; only code a user wrote has
 * any: generated C turns off those about a program's meaning) go to stderr
 * as the compiler wrote them, once: a cached entry is not compiled again.
 */
int build_load(const char *csrc, const char *name, const build_opts *o, build_result *out, char **err);
/* Unloads a skeleton loaded by build_load and frees its fields. */
void build_unload(build_result *r);
/* 128-bit content hash as 32 hex digits into out[33]. */
void build_hash(const char *data, size_t n, char out[33]);

#endif

/*
 * util.h - allocation wrappers, growable arrays and arenas shared by every module.
 *
 * All heap allocation in ncsim goes through the x* wrappers. They never return
 * NULL: an allocation failure is reported through the hook (tests may install one
 * that fails on purpose) and then aborts, because no module can recover from it.
 */
#ifndef NCSIM_UTIL_H
#define NCSIM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* Allocates n bytes; never returns NULL. */
void *xmalloc(size_t n);
/* Allocates n*size zeroed bytes, checking the product for overflow. */
void *xcalloc(size_t n, size_t size);
/* xcalloc aligned to a 64-byte cache line (records laid out by lines; free() releases it). */
void *xcalloc_lines(size_t n, size_t size);
/* Resizes p to n bytes; p may be NULL. */
void *xrealloc(void *p, size_t n);
/* Resizes p to n*size bytes, checking the product for overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
/* Duplicates the NUL-terminated string s (NULL gives NULL). */
char *xstrdup(const char *s);
/* Duplicates the first n bytes of s and NUL-terminates the copy. */
char *xstrndup(const char *s, size_t n);
/* printf into a fresh heap string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* vprintf into a fresh heap string (ap is consumed, as by vsnprintf). */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Growable array: `VEC(int) v = {0};` then VEC_PUSH(&v, 3). */
#define VEC(T) struct { T *ptr; size_t len, cap; }
#define VEC_GROW(v, need)                                                        \
	do {                                                                         \
		if ((need) > (v)->cap) {                                                 \
			size_t vec_nc_ = (v)->cap ? (v)->cap : 8;                            \
			while (vec_nc_ < (need)) vec_nc_ *= 2;                               \
			(v)->ptr = xreallocarray((v)->ptr, vec_nc_, sizeof *(v)->ptr);       \
			(v)->cap = vec_nc_;                                                  \
		}                                                                        \
	} while (0)
#define VEC_PUSH(v, x)                                                           \
	do {                                                                         \
		VEC_GROW((v), (v)->len + 1);                                             \
		(v)->ptr[(v)->len++] = (x);                                              \
	} while (0)
#define VEC_FREE(v) do { free((v)->ptr); (v)->ptr = NULL; (v)->len = (v)->cap = 0; } while (0)

/*
 * Arena: bump allocation in chunks, freed in one go. The compiler keeps one per
 * compilation (AST, strings, symbols). With NCSIM_ARENA_DEBUG=1 in the
 * environment every block is a separate malloc, so ASan and valgrind see each one.
 */
typedef struct arena arena;
/* Creates an empty arena. */
arena *arena_new(void);
/* Frees every block of a (NULL is a no-op). */
void arena_free(arena *a);
/* Returns n bytes aligned to 16, zeroed. */
void *arena_alloc(arena *a, size_t n);
/* Copies s (n bytes) into the arena and NUL-terminates it. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Copies the NUL-terminated s into the arena. */
char *arena_strdup(arena *a, const char *s);

/*
 * The limits every whole-file read keeps (doc/security.md): a file larger
 * than XREAD_MAX_BYTES, or a line of a text file longer than XREAD_MAX_LINE,
 * is refused instead of read, and so are directories, devices, FIFOs and
 * sockets. They bound the memory and time an input file can cost: the
 * largest real inputs (VEF traces, CODES connection files) are far below.
 */
#define XREAD_MAX_BYTES ((size_t)1 << 30) /* 1 GiB */
#define XREAD_MAX_LINE ((size_t)1 << 20)  /* 1 MiB */

/*
 * Reads f from its position to the end into a NUL-terminated heap buffer and
 * sets *len (NUL bytes inside are kept). Returns NULL with errno set on a read
 * error, or EFBIG past XREAD_MAX_BYTES. The one read loop of ncsim: every
 * whole-file read ends here.
 */
char *xread_stream(FILE *f, size_t *len);
/*
 * Reads the whole regular file at path like xread_stream (binary files
 * included). Returns NULL with errno set if it cannot be opened or read:
 * EISDIR for a directory and ENODEV for any other file that is not regular
 * (refused before a byte is read, so /dev/zero or a FIFO cannot hang or
 * exhaust memory), EFBIG for a file larger than XREAD_MAX_BYTES. *opened
 * (NULL: not wanted) is 0 if the path could not be opened at all.
 */
char *xread_file(const char *path, size_t *len, int *opened);
/* The reason for errno e after an xread_* failure: "is a directory", "not a regular file ...", or strerror(e). */
const char *xread_strerror(int e);
/*
 * Reads the whole text file at path into a NUL-terminated heap string. On
 * error returns NULL with *err set: "PATH: cannot open WHAT: reason",
 * "PATH: cannot read WHAT: reason" (reason as xread_strerror gives it),
 * "PATH:LINE: NUL byte in WHAT (is it a text file?)" or "PATH:LINE: line
 * longer than ... in WHAT".
 */
char *xread_text(const char *path, const char *what, char **err);
/* xread_text with other limits than XREAD_MAX_BYTES and XREAD_MAX_LINE (tests use small ones). */
char *xread_text_max(const char *path, const char *what, size_t max_bytes, size_t max_line, char **err);

/* The last component of path without `suffix` when it ends so, heap: ("w/milc.ncptl", ".ncptl") gives "milc". */
char *xpath_stem(const char *path, const char *suffix);
/*
 * `name` as seen from the folder of the file `near`, heap: "dir/name" when name
 * is relative and near (NULL: none) has a folder, else a copy of name. Files
 * that travel together (a trace and its tables) name each other this way.
 */
char *xpath_near(const char *near, const char *name);

/* Test hook: after `n` more successful allocations, x* allocation fails. -1 disables. */
void xalloc_fail_after(long n);

#endif

/*
 * util.c - allocation wrappers and arenas (see util.h).
 */
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The only process-wide state in ncsim: a test hook, never configuration. */
static long fail_countdown = -1;

void xalloc_fail_after(long n) { fail_countdown = n; }

static void *checked(void *p, size_t n)
{
	if (fail_countdown == 0 || (p == NULL && n != 0)) {
		fprintf(stderr, "ncsim: out of memory (allocating %zu bytes)\n", n);
		abort();
	}
	if (fail_countdown > 0)
		fail_countdown--;
	return p;
}

void *xmalloc(size_t n) { return checked(malloc(n ? n : 1), n); }

void *xcalloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return checked(NULL, SIZE_MAX);
	return checked(calloc(n ? n : 1, size ? size : 1), n * size);
}

void *xrealloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1), n); }

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return checked(NULL, SIZE_MAX);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s) { return s ? xstrndup(s, strlen(s)) : NULL; }

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *xread_text(const char *path, const char *what, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		*err = xasprintf("%s: cannot open %s: %s", path, what, strerror(errno));
		return NULL;
	}
	VEC(char) buf = {0};
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		VEC_GROW(&buf, buf.len + n + 1);
		memcpy(buf.ptr + buf.len, chunk, n);
		buf.len += n;
	}
	int bad = ferror(f);
	fclose(f);
	VEC_GROW(&buf, buf.len + 1);
	buf.ptr[buf.len] = '\0';
	if (bad || memchr(buf.ptr, '\0', buf.len)) {
		*err = bad ? xasprintf("%s: read error", path)
		           : xasprintf("%s: not a text file (it contains a NUL byte)", path);
		free(buf.ptr);
		return NULL;
	}
	return buf.ptr;
}

/*
 * Arena layout: a singly linked list of chunks, newest first.
 *
 *   a->head -> [chunk: next | used | size | data........]
 *                 |
 *                 v
 *              [older chunk ...]
 */
struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct chunk *head;
	int debug; /* one malloc per block, so sanitizers see each one */
};

arena *arena_new(void)
{
	arena *a = xcalloc(1, sizeof *a);
	const char *d = getenv("NCSIM_ARENA_DEBUG");
	a->debug = d && *d == '1';
	return a;
}

void arena_free(arena *a)
{
	if (!a)
		return;
	for (struct chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
}

void *arena_alloc(arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct chunk *c = a->head;
	if (a->debug || !c || c->size - c->used < n) {
		int big = a->debug || n > 32768;
		size_t size = big ? n : 65536;
		struct chunk *nc = xmalloc(sizeof *nc + size);
		nc->used = 0;
		nc->size = size;
		if (big && c) {
			/* a dedicated block goes behind the head, which stays usable */
			nc->next = c->next;
			c->next = nc;
		} else {
			nc->next = c;
			a->head = nc;
		}
		c = nc;
	}
	void *p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *d = arena_alloc(a, n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

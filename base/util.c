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

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return xstrdup(fmt); /* an encoding error: the format says more than nothing */
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *xread_stream(FILE *f, size_t *len)
{
	VEC(char) buf = {0};
	char chunk[8192];
	size_t n;
	errno = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		VEC_GROW(&buf, buf.len + n + 1);
		memcpy(buf.ptr + buf.len, chunk, n);
		buf.len += n;
	}
	if (ferror(f)) {
		int saved = errno ? errno : EIO;
		free(buf.ptr);
		errno = saved;
		return NULL;
	}
	VEC_GROW(&buf, buf.len + 1);
	buf.ptr[buf.len] = '\0';
	*len = buf.len;
	return buf.ptr;
}

char *xread_file(const char *path, size_t *len, int *opened)
{
	FILE *f = fopen(path, "rb");
	if (opened)
		*opened = f != NULL;
	if (!f)
		return NULL;
	char *text = xread_stream(f, len);
	int saved = errno;
	fclose(f);
	errno = saved;
	return text;
}

char *xread_text(const char *path, const char *what, char **err)
{
	int opened;
	size_t len;
	char *text = xread_file(path, &len, &opened);
	if (!text) {
		*err = xasprintf("%s: cannot %s %s: %s", path, opened ? "read" : "open", what, strerror(errno));
		return NULL;
	}
	/* A NUL byte would silently cut the text short: reject binary files outright. */
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		int line = 1;
		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		*err = xasprintf("%s:%d: NUL byte in %s (is it a text file?)", path, line, what);
		free(text);
		return NULL;
	}
	return text;
}

char *xpath_stem(const char *path, const char *suffix)
{
	const char *s = strrchr(path, '/');
	s = s ? s + 1 : path;
	size_t n = strlen(s), k = strlen(suffix);
	if (n > k && !strcmp(s + n - k, suffix))
		n -= k;
	return xstrndup(s, n);
}

char *xpath_near(const char *near, const char *name)
{
	const char *slash = near && name[0] != '/' ? strrchr(near, '/') : NULL;
	return slash ? xasprintf("%.*s/%s", (int)(slash - near), near, name) : xstrdup(name);
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

/*
 * util.c - allocation wrappers and arenas (see util.h).
 */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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

void *xcalloc_lines(size_t n, size_t size)
{
	if (size && n > (SIZE_MAX - 63) / size)
		return checked(NULL, SIZE_MAX);
	size_t bytes = (n * size + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
	void *p = checked(aligned_alloc(64, bytes ? bytes : 64), bytes);
	memset(p, 0, bytes ? bytes : 64);
	return p;
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

/* Reads f to the end, at most max bytes: NULL with errno EFBIG past that. */
static char *read_stream_max(FILE *f, size_t max, size_t *len)
{
	VEC(char) buf = {0};
	char chunk[8192];
	size_t n;
	errno = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (n > max - buf.len) {
			free(buf.ptr);
			errno = EFBIG;
			return NULL;
		}
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

char *xread_stream(FILE *f, size_t *len) { return read_stream_max(f, XREAD_MAX_BYTES, len); }

/*
 * Opens path and refuses anything but a regular file of at most max bytes
 * before reading. O_NONBLOCK keeps the open of a FIFO from waiting for a
 * writer; it changes nothing for a regular file.
 */
static char *read_file_max(const char *path, size_t max, size_t *len, int *opened)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (opened)
		*opened = fd >= 0;
	if (fd < 0)
		return NULL;
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? ENODEV
	        : (uintmax_t)st.st_size > max ? EFBIG : 0;
	FILE *f = e ? NULL : fdopen(fd, "rb");
	if (!f) {
		e = e ? e : errno;
		close(fd);
		errno = e;
		return NULL;
	}
	char *text = read_stream_max(f, max, len); /* bounded again: /proc files say 0 bytes, files grow */
	e = errno;
	fclose(f);
	errno = e;
	return text;
}

char *xread_file(const char *path, size_t *len, int *opened)
{
	return read_file_max(path, XREAD_MAX_BYTES, len, opened);
}

const char *xread_strerror(int e)
{
	switch (e) {
	case EISDIR: return "is a directory";
	case ENODEV: return "not a regular file (a device, FIFO or socket)";
	case EFBIG: return "larger than an input file may be";
	default: return strerror(e);
	}
}

/* "1 GiB", "64 KiB" or "1000 bytes": a limit as a message shows it. */
static char *size_text(size_t n)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB"};
	int k = 0;
	while (k < 3 && n >= 1024 && n % 1024 == 0) {
		n /= 1024;
		k++;
	}
	return xasprintf("%zu %s", n, unit[k]);
}

/* The 1-based line of offset `at` in text. */
static size_t line_of(const char *text, const char *at)
{
	size_t line = 1;
	for (const char *p = text; (p = memchr(p, '\n', (size_t)(at - p))); p++)
		line++;
	return line;
}

/* The first line of text[0..len) longer than max bytes (its '\n' not counted), or NULL. */
static const char *long_line(const char *text, size_t len, size_t max)
{
	const char *p = text, *end = text + len;
	while ((size_t)(end - p) > max) {
		const char *nl = memchr(p, '\n', max + 1);
		if (!nl)
			return p;
		p = nl + 1;
	}
	return NULL;
}

char *xread_text_max(const char *path, const char *what, size_t max_bytes, size_t max_line, char **err)
{
	int opened;
	size_t len;
	char *text = read_file_max(path, max_bytes, &len, &opened);
	if (!text) {
		int e = errno;
		char *lim = e == EFBIG ? size_text(max_bytes) : NULL;
		if (lim)
			*err = xasprintf("%s: cannot read %s: larger than %s (the limit of an input file)", path, what, lim);
		else
			*err = xasprintf("%s: cannot %s %s: %s", path, opened ? "read" : "open", what, xread_strerror(e));
		free(lim);
		return NULL;
	}
	/* A NUL byte would silently cut the text short: reject binary files outright. */
	const char *nul = memchr(text, '\0', len);
	const char *lng = long_line(text, nul ? (size_t)(nul - text) : len, max_line);
	if (lng) {
		char *lim = size_text(max_line);
		*err = xasprintf("%s:%zu: line longer than %s in %s (the limit of a line)", path, line_of(text, lng), lim,
		                 what);
		free(lim);
	} else if (nul) {
		*err = xasprintf("%s:%zu: NUL byte in %s (is it a text file?)", path, line_of(text, nul), what);
	}
	if (lng || nul) {
		free(text);
		return NULL;
	}
	return text;
}

char *xread_text(const char *path, const char *what, char **err)
{
	return xread_text_max(path, what, XREAD_MAX_BYTES, XREAD_MAX_LINE, err);
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

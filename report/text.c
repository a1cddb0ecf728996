/*
 * text.c - a growing text buffer and the number formats of the report (see text.h).
 */
#include "report/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void rep_buf_add(rep_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->ptr = xrealloc(b->ptr, cap);
		b->cap = cap;
	}
	memcpy(b->ptr + b->len, s, n);
	b->len += n;
	b->ptr[b->len] = 0;
}

void rep_buf_puts(rep_buf *b, const char *s) { rep_buf_add(b, s, strlen(s)); }

void rep_buf_printf(rep_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	rep_buf_puts(b, s);
	free(s);
}

char *rep_buf_take(rep_buf *b)
{
	char *s = b->ptr ? b->ptr : xstrdup("");
	*b = (rep_buf){0};
	return s;
}

void rep_buf_free(rep_buf *b)
{
	free(b->ptr);
	*b = (rep_buf){0};
}

/* The largest unit of units[0..n) (ascending) in which max is at least 1. */
static rep_unit pick(const rep_unit *units, size_t n, double max)
{
	size_t i = 0;
	while (i + 1 < n && max >= units[i + 1].size)
		i++;
	return units[i];
}

static const rep_unit times[] = {{"ps", 1}, {"ns", 1e3}, {"\xc2\xb5s", 1e6}, {"ms", 1e9}, {"s", 1e12}};
static const rep_unit sizes[] = {{"B", 1}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}};

rep_unit rep_unit_time(double max_ps) { return pick(times, sizeof times / sizeof *times, max_ps); }

rep_unit rep_unit_bytes(double max_bytes) { return pick(sizes, sizeof sizes / sizeof *sizes, max_bytes); }

void rep_buf_quantity(rep_buf *b, double v, int bytes)
{
	if (v == 0) {
		rep_buf_puts(b, "0");
		return;
	}
	rep_unit u = bytes ? rep_unit_bytes(v) : rep_unit_time(v);
	rep_buf_printf(b, "%.4g %s", v / u.size, u.name);
}

/*
 * par_lines.c - lines printed in the sequential order by a run over ranks (see par_lines.h).
 */
#include "runtime/kernel/par_lines.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel/par.h"

/* A kept line: its event's key, its place among the lines kept here, its length; the text follows. */
typedef struct pln_rec {
	ncsim_time_t time;
	uint64_t seq, ord;
	uint32_t src, len;
	uint32_t rank, pad_;
} pln_rec;

/* A record's text padded to 8 bytes: the next record stays aligned in the gathered buffer. */
static size_t padded(size_t n) { return (n + 7) & ~(size_t)7; }

void pln_add(pln_lines *l, const sim_ctx *ctx, const char *text, size_t len)
{
	sim_key k = sim_firing_key(ctx);
	pln_add_key(l, k.time, k.src, k.seq, text, len);
}

void pln_add_key(pln_lines *l, ncsim_time_t time, sim_eid src, uint64_t seq, const char *text, size_t len)
{
	pln_rec r = {.time = time, .seq = seq, .src = src, .ord = l->n++, .len = (uint32_t)len, .rank = par_rank()};
	size_t n = sizeof r + padded(len);
	VEC_GROW(&l->buf, l->buf.len + n);
	memset(l->buf.ptr + l->buf.len, 0, n);
	memcpy(l->buf.ptr + l->buf.len, &r, sizeof r);
	memcpy(l->buf.ptr + l->buf.len + sizeof r, text, len);
	l->buf.len += n;
}

static int key_order(const void *pa, const void *pb)
{
	const pln_rec *a = *(const pln_rec *const *)pa, *b = *(const pln_rec *const *)pb;
	int c = sim_key_cmp(a->time, a->src, a->seq, b->time, b->src, b->seq);
	return c ? c : (a->ord > b->ord) - (a->ord < b->ord);
}

void pln_merge_each(pln_lines *l, uint64_t max, void (*emit)(void *arg, uint32_t rank, const char *text, size_t len),
                    void *arg)
{
	void *all;
	size_t n;
	par_gather(l->buf.ptr, l->buf.len, &all, &n);
	VEC_FREE(&l->buf);
	l->n = 0;
	if (!all)
		return;
	VEC(const pln_rec *) v = {0};
	for (size_t off = 0; off + sizeof(pln_rec) <= n;) {
		const pln_rec *r = (const pln_rec *)(void *)((unsigned char *)all + off);
		VEC_PUSH(&v, r);
		off += sizeof *r + padded(r->len);
	}
	if (v.len)
		qsort(v.ptr, v.len, sizeof *v.ptr, key_order);
	for (size_t i = 0; i < v.len && i < max; i++)
		emit(arg, v.ptr[i]->rank, (const char *)(v.ptr[i] + 1), v.ptr[i]->len);
	VEC_FREE(&v);
	free(all);
}

static void write_line(void *arg, uint32_t rank, const char *text, size_t len)
{
	(void)rank;
	fwrite(text, 1, len, arg);
	putc('\n', arg);
}

void pln_merge(pln_lines *l, FILE *out, uint64_t max) { pln_merge_each(l, out ? max : 0, write_line, out); }

void pln_log_row(pln_log *l, const char *fmt, ...)
{
	if (l->rows >= l->max) {
		l->dropped++;
		return;
	}
	l->rows++;
	va_list ap;
	va_start(ap, fmt);
	if (!l->keyed) {
		vfprintf(l->out, fmt, ap);
		putc('\n', l->out);
	} else {
		/* A rank's first max rows in its event order hold every row of the run's first max. */
		char row[256];
		int n = vsnprintf(row, sizeof row, fmt, ap);
		pln_add(&l->kept, l->keyed, row, n < 0 ? 0 : (size_t)n < sizeof row ? (size_t)n : sizeof row - 1);
	}
	va_end(ap);
}

void pln_log_merge(pln_log *l)
{
	uint64_t total = par_sum_u64(l->rows + l->dropped);
	pln_merge(&l->kept, l->out, l->max);
	l->rows = total < l->max ? total : l->max;
	l->dropped = total - l->rows;
}

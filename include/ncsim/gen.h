/*
 * ncsim/gen.h - the helpers of generated skeletons (`ncsim compile`): error
 * checks, message and I/O sizes, task lists of collectives, OUTPUTS text and
 * the memo of implicit receives. Generated C includes this header only; it
 * brings in ncsim/rt.h and ncsim/stdlib.h.
 *
 * Everything here is static inline, so a helper that a program does not use
 * costs nothing. Hand-written skeletons may use these too, but they are
 * shaped for generated code: a run-time error of ncsim/stdlib.h is recorded
 * in the task's sticky ncsim_err `e` and turned into rt_fatal (with the
 * statement's source line) by the rt_ok_* check around each expression.
 *
 * Every local that holds heap memory (a task list, the OUTPUTS text, the
 * memo) is tracked (rt_track of ncsim/rt.h) with the *_release function of
 * its type below, so that a task abandoned in the middle frees it too.
 */
#ifndef NCSIM_GEN_H
#define NCSIM_GEN_H

#include <inttypes.h>
#include <math.h> /* HUGE_VAL and NAN: a folded constant may be infinite or not a number */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ncsim/rt.h>
#include <ncsim/stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ errors */

/* Ends the simulation with the error recorded in e. */
static inline _Noreturn void rt_fail(rt_task *t, const ncsim_err *e)
{
	rt_fatal(t, "%s", e->msg);
}

/* v, unless an error is recorded in e: then the simulation ends with it. */
static inline rt_int rt_ok_i(rt_task *t, const ncsim_err *e, rt_int v)
{
	if (__builtin_expect(e->failed, 0))
		rt_fail(t, e);
	return v;
}

/* The same for a value in floating-point context. */
static inline double rt_ok_f(rt_task *t, const ncsim_err *e, double v)
{
	if (__builtin_expect(e->failed, 0))
		rt_fail(t, e);
	return v;
}

/* The same for a truth value. */
static inline int rt_ok_b(rt_task *t, const ncsim_err *e, int v)
{
	if (__builtin_expect(e->failed, 0))
		rt_fail(t, e);
	return v;
}

/* ------------------------------------------------------------ numbers */

/* +0.0 that the C compiler cannot fold (skeletons generated before ncsim_fkeep call it). */
static inline double ncsim_fzero(void)
{
	static const volatile double zero = 0.0;
	return zero;
}

/* v, through a value the C compiler cannot see: it cannot fold a subtraction from it (codegen_c_expr.c). */
static inline double ncsim_fkeep(double v)
{
	volatile double x = v;
	return x;
}

/* v, or 0 if v is negative (warmup counts, touched words). */
static inline rt_int ncsim_nonneg(rt_int v) { return v < 0 ? 0 : v; }
/* v, or 1 if v is 0 (a stride that divides). */
static inline rt_int ncsim_nonzero(rt_int v) { return v ? v : 1; }

/* A message size in bytes (LANGUAGE.md section 7): a negative size ends the simulation. */
static inline uint64_t rt_msg_bytes(rt_task *t, rt_int n)
{
	if (n < 0)
		rt_fatal(t, "a message size of %" PRId64 " bytes is negative", n);
	return (uint64_t)n;
}

/* An I/O size or file offset (`what`) in bytes (section 14.2): negative values end the simulation. */
static inline uint64_t rt_io_bytes(rt_task *t, rt_int n, const char *what)
{
	if (n < 0)
		rt_fatal(t, "%s of %" PRId64 " bytes is negative", what, n);
	return (uint64_t)n;
}

/*
 * Picoseconds, rounded; a negative duration is no time at all. One of 2^64 ps
 * or more (or not a number) gives UINT64_MAX, which the runtime refuses as
 * past the end of its clock, naming the statement.
 */
static inline ncsim_time_t ncsim_ps(double ps)
{
	return ps <= 0.0 ? 0 : !(ps < 18446744073709551616.0) ? UINT64_MAX : (ncsim_time_t)(ps + 0.5);
}

/* A synchronised random task (section 8.16) with the bounds clamped to 0..num_tasks-1. */
static inline rt_int rt_random_task_clamped(rt_task *t, rt_int lo, rt_int hi, rt_int excl)
{
	if (lo < 0)
		lo = 0;
	if (hi > rt_num_tasks(t) - 1)
		hi = rt_num_tasks(t) - 1;
	return rt_random_task(t, lo, hi, excl);
}

/* ------------------------------------------------------------ ranges (section 3.6) */

/* The progression {v[0..k), ..., last} (ncsim_range_init); an invalid one ends the simulation. */
static inline struct ncsim_range rt_range(rt_task *t, ncsim_err *e, const int64_t *v, const double *vd, size_t k,
                                          int64_t last, double last_d)
{
	struct ncsim_range r;
	if (ncsim_range_init(&r, v, vd, k, last, last_d, e) != 0)
		rt_fail(t, e);
	return r;
}

/* Appends the values of that progression to out. */
static inline void rt_range_append(rt_task *t, ncsim_err *e, struct ncsim_ivec *out, const int64_t *v,
                                   const double *vd, size_t k, int64_t last, double last_d)
{
	struct ncsim_range r = rt_range(t, e, v, vd, k, last, last_d);
	ncsim_range_append(&r, out);
}

/* ------------------------------------------------------------ task lists */

/* Appends x to v (growing it); running out of memory ends the simulation. */
static inline void rt_ivec_push(rt_task *t, struct ncsim_ivec *v, int64_t x)
{
	if (v->len == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		int64_t *p = (int64_t *)realloc(v->ptr, cap * sizeof *p);
		if (!p)
			rt_fatal(t, "out of memory");
		v->ptr = p;
		v->cap = cap;
	}
	v->ptr[v->len++] = x;
}

/* Frees the values of the struct ncsim_ivec at v (an rt_track release function). */
static inline void ncsim_ivec_release(void *v)
{
	free(((struct ncsim_ivec *)v)->ptr);
}

/* qsort order of int64_t. */
static inline int ncsim_ivec_cmp_(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts v ascending and drops repeated values (a collective's group). */
static inline void ncsim_ivec_sortuniq(struct ncsim_ivec *v)
{
	size_t n = 0;
	if (v->len > 1)
		qsort(v->ptr, v->len, sizeof *v->ptr, ncsim_ivec_cmp_);
	for (size_t i = 0; i < v->len; i++)
		if (n == 0 || v->ptr[n - 1] != v->ptr[i])
			v->ptr[n++] = v->ptr[i];
	v->len = v->len ? n : 0;
}

/* 1 if the sorted v holds x. */
static inline int ncsim_ivec_has(const struct ncsim_ivec *v, int64_t x)
{
	return v->len && bsearch(&x, v->ptr, v->len, sizeof *v->ptr, ncsim_ivec_cmp_) != NULL;
}

/* ------------------------------------------------------------ OUTPUTS text */

/* The text of one OUTPUTS line, growing. */
struct ncsim_text {
	char *ptr;
	size_t len, cap;
};

/* Appends s to b; running out of memory ends the simulation. */
static inline void rt_text_puts(rt_task *t, struct ncsim_text *b, const char *s)
{
	size_t n = strlen(s);
	if (b->len + n + 1 > b->cap) {
		size_t cap = 2 * (b->len + n + 1);
		char *p = (char *)realloc(b->ptr, cap);
		if (!p)
			rt_fatal(t, "out of memory");
		b->ptr = p;
		b->cap = cap;
	}
	memcpy(b->ptr + b->len, s, n + 1);
	b->len += n;
}

/* Frees the text of the struct ncsim_text at b (an rt_track release function). */
static inline void ncsim_text_release(void *b)
{
	free(((struct ncsim_text *)b)->ptr);
}

/* Appends v as OUTPUTS prints numbers (%.10g). */
static inline void rt_text_putg(rt_task *t, struct ncsim_text *b, double v)
{
	char buf[64];
	ncsim_fmt_g10(buf, sizeof buf, v);
	rt_text_puts(t, b, buf);
}

/* ------------------------------------------------------------ memo of implicit receives */

/*
 * Per-task memo of the senders whose targets include this task, one table
 * per memoized send statement (its site), keyed by the values of the
 * variables its task descriptions read. Direct-mapped with a short probe; an
 * entry is kept only when its scan completed with at most RT_MEMO_MAXLEN
 * senders. One local `struct rt_memo *` holds the tables of every site, each
 * allocated on first use:
 *
 *   memo -> { n, site[0] site[1] ... site[n-1] }
 *                   |      NULL
 *                   v
 *              { e[RT_MEMO_SLOTS] }     e: { used, key[], list of senders }
 */
#define RT_MEMO_SLOTS 64
#define RT_MEMO_PROBE 4
#define RT_MEMO_MAXKEY 8
#define RT_MEMO_MAXLEN 64

struct rt_memo_ent {
	int used;
	int64_t key[RT_MEMO_MAXKEY];
	struct ncsim_ivec list;
};

struct rt_memo_table {
	struct rt_memo_ent e[RT_MEMO_SLOTS];
};

struct rt_memo {
	unsigned n;
	struct rt_memo_table *site[];
};

/* The table of `site` in *mp, allocated with room for that site (and zeroed) on first use. */
static inline struct rt_memo_table *rt_memo_table(rt_task *t, struct rt_memo **mp, unsigned site)
{
	struct rt_memo *m = *mp;
	if (!m || site >= m->n) {
		unsigned n = site + 1, old = m ? m->n : 0;
		if (!(m = (struct rt_memo *)realloc(m, sizeof *m + n * sizeof m->site[0])))
			rt_fatal(t, "out of memory");
		memset(m->site + old, 0, (n - old) * sizeof m->site[0]);
		m->n = n;
		*mp = m;
	}
	if (!m->site[site] && !(m->site[site] = (struct rt_memo_table *)calloc(1, sizeof *m->site[site])))
		rt_fatal(t, "out of memory");
	return m->site[site];
}

/* The entry of key[0..nkey) at `site` of *mp: used = 1 if it holds the senders, else emptied for a scan. */
static inline struct rt_memo_ent *rt_memo_get(rt_task *t, struct rt_memo **mp, unsigned site, int nkey,
                                              const int64_t *key)
{
	struct rt_memo_table *tab = rt_memo_table(t, mp, site);
	uint64_t h = 0x9e3779b97f4a7c15u;
	for (int i = 0; i < nkey; i++)
		h = (h ^ (uint64_t)key[i]) * 0x100000001b3u;
	unsigned home = (unsigned)(h ^ (h >> 29)) % RT_MEMO_SLOTS;
	struct rt_memo_ent *free_e = NULL;
	for (unsigned p = 0; p < RT_MEMO_PROBE; p++) {
		struct rt_memo_ent *x = &tab->e[(home + p) % RT_MEMO_SLOTS];
		if (!x->used) {
			if (!free_e)
				free_e = x;
		} else if (!memcmp(x->key, key, (size_t)nkey * sizeof *key)) {
			return x;
		}
	}
	struct rt_memo_ent *x = free_e ? free_e : &tab->e[home];
	x->used = 0;
	if (nkey)
		memcpy(x->key, key, (size_t)nkey * sizeof *key);
	x->list.len = 0;
	return x;
}

/* Records one sender during a scan (long lists are not kept: their scans are not wasted). */
static inline void rt_memo_push(rt_task *t, struct rt_memo_ent *x, int64_t s)
{
	if (x->list.len <= RT_MEMO_MAXLEN)
		rt_ivec_push(t, &x->list, s);
}

/* Frees the memo of the `struct rt_memo *` at mp, every site (an rt_track release function). */
static inline void rt_memo_release(void *mp)
{
	struct rt_memo *m = *(struct rt_memo **)mp;
	for (unsigned k = 0; m && k < m->n; k++) {
		for (int i = 0; m->site[k] && i < RT_MEMO_SLOTS; i++)
			free(m->site[k]->e[i].list.ptr);
		free(m->site[k]);
	}
	free(m);
}

#ifdef __cplusplus
}
#endif
#endif

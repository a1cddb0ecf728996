/*
 * range.c - progression inference and iteration, LANGUAGE.md §3.6.
 *
 * {v0, ..., vk-1, ..., last} is classified once (ncsim_range_init) into
 * start, step operation, step value and direction, then iterated like the C
 * backend's loop:
 *
 *     value = start, prev = start - 1
 *     while value != prev and (ascending ? value <= last : value >= last):
 *         yield value; prev = value; value = value (+ | * | /) inc
 *
 * In the non-integral geometric case (FMUL) the loop runs on doubles and
 * every comparison, and the yielded value, use DBL2INT = (int64)(d + 0.5).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ncsim/stdlib.h"
#include "base/util.h"

/* Reports that no pattern fits, listing the values as the C backend does. */
static int no_pattern(const int64_t *v, size_t k, int64_t last, ncsim_err *e)
{
	char buf[NCSIM_ERR_MSG_MAX];
	size_t n = 0;

	for (size_t i = 0; i < k && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%" PRId64 ", ", v[i]);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	buf[n] = '\0';
	ncsim_err_set(e, "Unable to find an arithmetic or geometric pattern to {%s..., %" PRId64 "}", buf, last);
	return -1;
}

/* Arithmetic step v1 - v0; +1 for a constant prefix (C backend); 0 if it overflows. */
static int64_t arith_step(int64_t v0, int64_t v1)
{
	int64_t d;

	if (__builtin_sub_overflow(v1, v0, &d))
		return 0; /* |step| > INT64_MAX: only v0 can be in range */
	return d ? d : 1;
}

static int is_arithmetic(const int64_t *v, size_t k)
{
	/* Wrapped differences, as the C comparison computes them. */
	for (size_t i = 0; i + 2 < k; i++)
		if (ncsim_sub(v[i + 1], v[i]) != ncsim_sub(v[i + 2], v[i + 1]))
			return 0;
	return 1;
}

/* Increasing integer geometric: v[i] != 0 (i < k-1), v0 < v1, exact equal ratios v[i+1]/v[i]. */
static int is_geometric_up(const int64_t *v, size_t k)
{
	for (size_t i = 0; i + 1 < k; i++)
		if (v[i] == 0)
			return 0;
	if (!(v[0] < v[1]))
		return 0;
	for (size_t i = 0; i + 1 < k; i++)
		if (ncsim_mul(v[i], ncsim_div_i(v[i + 1], v[i], NULL)) != v[i + 1])
			return 0;
	for (size_t i = 0; i + 2 < k; i++)
		if (ncsim_div_i(v[i + 1], v[i], NULL) != ncsim_div_i(v[i + 2], v[i + 1], NULL))
			return 0;
	return 1;
}

/* Decreasing integer geometric: v[i] != 0 (i >= 1), v0 > v1, exact equal ratios v[i]/v[i+1]. */
static int is_geometric_down(const int64_t *v, size_t k)
{
	for (size_t i = 1; i < k; i++)
		if (v[i] == 0)
			return 0;
	if (!(v[0] > v[1]))
		return 0;
	for (size_t i = 0; i + 1 < k; i++)
		if (ncsim_mul(v[i + 1], ncsim_div_i(v[i], v[i + 1], NULL)) != v[i])
			return 0;
	for (size_t i = 0; i + 2 < k; i++)
		if (ncsim_div_i(v[i], v[i + 1], NULL) != ncsim_div_i(v[i + 1], v[i + 2], NULL))
			return 0;
	return 1;
}

int ncsim_range_init(struct ncsim_range *r, const int64_t *v, const double *vd, size_t k,
                     int64_t last, double last_d, ncsim_err *e)
{
	r->last = last;
	r->inc = 1;
	r->dstart = r->dlast = r->dinc = 0.0;
	r->op = NCSIM_RANGE_ADD;
	if (k == 0) {
		ncsim_err_set(e, "internal error: a progression needs at least one initial value");
		return -1;
	}
	r->start = v[0];
	if (k == 1) {
		r->ascending = v[0] <= last;
		r->inc = r->ascending ? 1 : -1;
		return 0;
	}
	if (k == 2 || is_arithmetic(v, k)) {
		r->ascending = v[0] <= v[1];
		r->inc = arith_step(v[0], v[1]);
		return 0;
	}
	if (is_geometric_up(v, k)) {
		r->op = NCSIM_RANGE_MUL;
		r->ascending = 1;
		r->inc = ncsim_div_i(v[1], v[0], NULL);
		return 0;
	}
	if (is_geometric_down(v, k)) {
		r->op = NCSIM_RANGE_DIV;
		r->ascending = 0;
		r->inc = ncsim_div_i(v[0], v[1], NULL);
		return 0;
	}
	for (size_t i = 0; i + 1 < k; i++)
		if (v[i] == 0)
			return no_pattern(v, k, last, e);
	/* Non-integral geometric: the mean ratio must reproduce every given term. */
	{
		double sum = 0.0, f;

#define VD(i) (vd ? vd[i] : (double)v[i])
		for (size_t i = 0; i + 1 < k; i++)
			sum += VD(i + 1) / VD(i);
		f = sum / (double)(k - 1);
		for (size_t i = 0; i + 1 < k; i++)
			if (ncsim_real_to_int(VD(i) * f) != v[i + 1])
				return no_pattern(v, k, last, e);
		r->op = NCSIM_RANGE_FMUL;
		r->ascending = v[0] < v[1];
		r->dstart = VD(0);
		r->dlast = vd ? last_d : (double)last;
		r->dinc = f;
		r->start = ncsim_real_to_int(r->dstart);
		r->last = ncsim_real_to_int(r->dlast);
#undef VD
	}
	return 0;
}

/* Applies the stall and direction tests to it->value; stores it in *out or ends the loop. */
static int check(const struct ncsim_range *r, struct ncsim_range_it *it, int64_t *out)
{
	if (it->done || it->value == it->prev ||
	    (r->ascending ? it->value > r->last : it->value < r->last)) {
		it->done = 1;
		return 0;
	}
	*out = it->value;
	return 1;
}

int ncsim_range_first(const struct ncsim_range *r, struct ncsim_range_it *it, int64_t *out)
{
	it->done = 0;
	if (r->op == NCSIM_RANGE_FMUL) {
		it->dvalue = r->dstart;
		it->dprev = r->dstart - 1.0;
		it->value = ncsim_real_to_int(it->dvalue);
		it->prev = ncsim_real_to_int(it->dprev);
	} else {
		it->value = r->start;
		it->prev = ncsim_sub(r->start, 1);
	}
	return check(r, it, out);
}

int ncsim_range_next(const struct ncsim_range *r, struct ncsim_range_it *it, int64_t *out)
{
	int64_t nv = 0;
	int ovf = 0;

	if (it->done)
		return 0;
	it->prev = it->value;
	switch (r->op) {
	case NCSIM_RANGE_ADD:
		/* inc == 0 marks a step too large for int64_t: nothing follows start. */
		ovf = r->inc == 0 || __builtin_add_overflow(it->value, r->inc, &nv);
		break;
	case NCSIM_RANGE_MUL:
		ovf = __builtin_mul_overflow(it->value, r->inc, &nv);
		break;
	case NCSIM_RANGE_DIV:
		ovf = r->inc == -1 && it->value == INT64_MIN;
		if (!ovf)
			nv = it->value / r->inc;
		break;
	case NCSIM_RANGE_FMUL:
		it->dprev = it->dvalue;
		it->dvalue *= r->dinc;
		nv = ncsim_real_to_int(it->dvalue);
		/* A ratio of exactly -1 alternates forever: stop when back at the start. */
		ovf = it->dvalue == r->dstart;
		break;
	}
	/* Only a ratio of -1 can bring an integer progression back to its start. */
	if (ovf || (r->op != NCSIM_RANGE_FMUL && nv == r->start)) {
		it->done = 1;
		return 0;
	}
	it->value = nv;
	return check(r, it, out);
}

int ncsim_range_contains(const struct ncsim_range *r, int64_t x)
{
	struct ncsim_range_it it;
	int64_t v;

	if (r->op == NCSIM_RANGE_ADD) {
		uint64_t dist;

		if (r->ascending ? (r->start > r->last || x < r->start || x > r->last)
		                 : (r->start < r->last || x > r->start || x < r->last))
			return 0;
		if (r->inc == 0)
			return x == r->start;
		/* inc has the sign of the direction (see arith_step and k == 1). */
		dist = r->ascending ? (uint64_t)x - (uint64_t)r->start : (uint64_t)r->start - (uint64_t)x;
		return dist % (r->inc > 0 ? (uint64_t)r->inc : 0 - (uint64_t)r->inc) == 0;
	}
	/* Geometric progressions have O(log) terms. */
	for (int ok = ncsim_range_first(r, &it, &v); ok; ok = ncsim_range_next(r, &it, &v))
		if (v == x)
			return 1;
	return 0;
}

size_t ncsim_range_append(const struct ncsim_range *r, struct ncsim_ivec *out)
{
	struct ncsim_range_it it;
	size_t n = 0;
	int64_t v;

	for (int ok = ncsim_range_first(r, &it, &v); ok; ok = ncsim_range_next(r, &it, &v)) {
		VEC_PUSH(out, v);
		n++;
	}
	return n;
}

/*
 * knomial.c - k-nomial tree built-ins of LANGUAGE.md §5.3.
 *
 * Write t in base k. Its parent clears the most significant non-zero digit;
 * its children set, one at a time, a digit above that one to 1 .. k-1,
 * lowest position first, smallest value first, dropping results >= n:
 *
 *     3-nomial, n = 27, t = 1 (001):
 *       position 1 (k^1 = 3): 1+1*3 = 4, 1+2*3 = 7
 *       position 2 (k^2 = 9): 1+1*9 = 10, 1+2*9 = 19
 *
 * Within one position the surviving values form a prefix 1 .. c, with
 * c = min(k-1, (n-1-t) / k^p), so counting and indexing need no list: the
 * C backend's cache of the last child list (a static) is unnecessary.
 */
#include "config.h"

#include "ncsim/stdlib.h"

static int check_arity(int64_t k, ncsim_err *e)
{
	if (k >= 2)
		return 0;
	ncsim_err_set(e, "a k-nomial tree requires that k be at least 2");
	return -1;
}

int64_t ncsim_knomial_parent_i(int64_t t, int64_t k, int64_t n, ncsim_err *e)
{
	int64_t pw = 1;

	if (check_arity(k, e))
		return 0;
	if (t <= 0 || t >= n)
		return -1;
	/* pw = k^m, the weight of t's most significant non-zero digit. */
	while (pw <= t / k)
		pw *= k;
	return t % pw;
}

double ncsim_knomial_parent_f(double t, double k, double n, ncsim_err *e)
{
	int64_t it = ncsim_f2i(t, e), ik = ncsim_f2i(k, e), in = ncsim_f2i(n, e);

	return (double)ncsim_knomial_parent_i(it, ik, in, e);
}

/*
 * k^(m+1): the weight of the first position above t's leading digit (1 for
 * t = 0), or 0 if it does not fit in int64_t (then t has no children).
 */
static int64_t first_weight(int64_t t, int64_t k)
{
	int64_t pw = 1;

	while (pw <= t)
		if (__builtin_mul_overflow(pw, k, &pw))
			return 0;
	return pw;
}

/* Children of t at weight pw; 0 means none here nor at any higher position. */
static int64_t children_at(int64_t t, int64_t k, int64_t n, int64_t pw)
{
	int64_t c = (n - 1 - t) / pw;

	return c < k - 1 ? c : k - 1;
}

int64_t ncsim_knomial_children_i(int64_t t, int64_t k, int64_t n, ncsim_err *e)
{
	int64_t count = 0, pw, c;

	if (check_arity(k, e))
		return 0;
	if (t < 0 || t >= n)
		return -1;
	for (pw = first_weight(t, k); pw > 0 && pw < n; ) {
		c = children_at(t, k, n, pw);
		if (c == 0)
			break;
		count += c;
		if (__builtin_mul_overflow(pw, k, &pw))
			break;
	}
	return count;
}

double ncsim_knomial_children_f(double t, double k, double n, ncsim_err *e)
{
	int64_t it = ncsim_f2i(t, e), ik = ncsim_f2i(k, e), in = ncsim_f2i(n, e);

	return (double)ncsim_knomial_children_i(it, ik, in, e);
}

int64_t ncsim_knomial_child_i(int64_t t, int64_t i, int64_t k, int64_t n, ncsim_err *e)
{
	int64_t pw, c;

	if (check_arity(k, e))
		return 0;
	if (t < 0 || t >= n || i < 0)
		return -1;
	for (pw = first_weight(t, k); pw > 0 && pw < n; ) {
		c = children_at(t, k, n, pw);
		if (c == 0)
			break;
		if (i < c)
			return t + (i + 1) * pw;
		i -= c;
		if (__builtin_mul_overflow(pw, k, &pw))
			break;
	}
	return -1;
}

double ncsim_knomial_child_f(double t, double i, double k, double n, ncsim_err *e)
{
	int64_t it = ncsim_f2i(t, e), ii = ncsim_f2i(i, e);
	int64_t ik = ncsim_f2i(k, e), in = ncsim_f2i(n, e);

	return (double)ncsim_knomial_child_i(it, ii, ik, in, e);
}

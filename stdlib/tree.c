/*
 * tree.c - n-ary tree built-ins of LANGUAGE.md §5.2. Tasks are numbered
 * breadth-first from the root 0; the children of t are t*k+1 .. t*k+k.
 */
#include "config.h"

#include "ncsim/stdlib.h"

static int check_arity(int64_t k, ncsim_err *e)
{
	if (k >= 1)
		return 0;
	ncsim_err_set(e, "an N-ary tree requires a positive value of N");
	return -1;
}

int64_t ncsim_tree_parent_i(int64_t t, int64_t k, ncsim_err *e)
{
	if (check_arity(k, e))
		return 0;
	return t <= 0 ? -1 : (t - 1) / k;
}

double ncsim_tree_parent_f(double t, double k, ncsim_err *e)
{
	int64_t it = ncsim_f2i(t, e), ik = ncsim_f2i(k, e);

	return (double)ncsim_tree_parent_i(it, ik, e);
}

int64_t ncsim_tree_child_i(int64_t t, int64_t c, int64_t k, ncsim_err *e)
{
	if (check_arity(k, e))
		return 0;
	if (c < 0 || c >= k)
		return -1;
	/* No upper bound: the child may lie beyond num_tasks, as in the C backend. */
	return ncsim_add(ncsim_mul(t, k), c + 1);
}

double ncsim_tree_child_f(double t, double c, double k, ncsim_err *e)
{
	int64_t it = ncsim_f2i(t, e), ic = ncsim_f2i(c, e), ik = ncsim_f2i(k, e);

	return (double)ncsim_tree_child_i(it, ic, ik, e);
}

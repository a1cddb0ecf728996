/*
 * builtins.c - the built-in function table (see builtins.h) and constant
 * folding through ncsim/stdlib.h, so that folded values are exactly the
 * values a skeleton would compute at run time.
 */
#include "config.h"

#include <stdio.h>
#include <strings.h>

#include "lang/builtins.h"

static const bi_info table[BI_COUNT] = {
#define BI_ROW_(id, mn, mx, fl, stem, ...)                                         \
	[BI_##id] = { BI_##id, #id, mn, mx, fl,                                     \
	              ((fl) & BI_RUNTIME) ? NULL : "ncsim_" #stem "_i",             \
	              ((fl) & BI_RUNTIME) ? NULL : "ncsim_" #stem "_f", __VA_ARGS__ },
	BI_LIST(BI_ROW_)
#undef BI_ROW_
};

const bi_info *bi_get(enum bi_id id)
{
	return &table[id];
}

const bi_info *bi_lookup(const char *name)
{
	/* Called once per call site by the front end: a linear scan is plenty. */
	for (int i = 0; i < BI_COUNT; i++)
		if (strcasecmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

int bi_arity_ok(const bi_info *b, int n)
{
	return n >= b->min_args && (b->max_args < 0 || n <= b->max_args);
}

void bi_arity_message(const bi_info *b, int n, char *buf, size_t size)
{
	size_t len = 0;

	if (b->max_args < 0) {
		snprintf(buf, size, "%s expects at least %d argument(s) but was given %d", b->name,
		         b->min_args, n);
		return;
	}
	if (b->min_args == b->max_args) {
		snprintf(buf, size, "%s expects %d argument(s) but was given %d", b->name, b->min_args, n);
		return;
	}
	/* "KNOMIAL_CHILD expects 2, 3 or 4 arguments but was given 1" */
	len = (size_t)snprintf(buf, size, "%s expects ", b->name);
	for (int i = b->min_args; i < b->max_args && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, i + 1 < b->max_args ? "%d, " : "%d ", i);
	if (len < size)
		snprintf(buf + len, size - len, "or %d arguments but was given %d", b->max_args, n);
}

int bi_foldable(const bi_info *b, int n, int num_tasks_known)
{
	if (b->flags & (BI_RANDOM | BI_RNG | BI_FILE | BI_RUNTIME))
		return 0;
	if (!bi_arity_ok(b, n))
		return 0;
	for (int i = n; i < b->max_args && i < BI_MAX_ARGS; i++)
		if (b->defaults[i].kind == BI_DEF_NUM_TASKS && !num_tasks_known)
			return 0;
	return 1;
}

/* Fills out[n .. max_args-1] from the defaults; returns the argument count or -1. */
static int fill_defaults(const bi_info *b, const int64_t *in, int n, int64_t num_tasks, int64_t *out)
{
	int i;

	for (i = 0; i < n; i++)
		out[i] = in[i];
	for (; i < b->max_args; i++) {
		const bi_default *d = &b->defaults[i];

		switch (d->kind) {
		case BI_DEF_CONST:
			out[i] = d->value;
			break;
		case BI_DEF_NUM_TASKS:
			out[i] = num_tasks;
			break;
		case BI_DEF_ARG:
			out[i] = out[d->value];
			break;
		case BI_DEF_NONE:
		case BI_DEF_STRING:
			return -1;
		}
	}
	return i;
}

/* Checks that b can be folded with n arguments as given to bi_call_*. */
static int check_call(const bi_info *b, int n, ncsim_err *e)
{
	static const int mesh_args[] = { [BI_MESH_NEIGHBOR] = 8, [BI_MESH_COORDINATE] = 5,
	                                 [BI_MESH_DISTANCE] = 6 };

	if (b->flags & (BI_RANDOM | BI_RNG | BI_FILE | BI_RUNTIME)) {
		ncsim_err_set(e, "internal error: %s cannot be evaluated at compile time", b->name);
		return -1;
	}
	if ((b->flags & BI_MESH) ? n != mesh_args[b->id] : !bi_arity_ok(b, n)) {
		ncsim_err_set(e, "internal error: %s called with %d argument(s)", b->name, n);
		return -1;
	}
	return 0;
}

int64_t bi_call_i(const bi_info *b, const int64_t *a, int n, int64_t num_tasks, ncsim_err *e)
{
	int64_t x[BI_MAX_ARGS];

	if (check_call(b, n, e))
		return 0;
	switch (b->id) {
	case BI_MIN:
		return ncsim_min_i(a, (size_t)n, e);
	case BI_MAX:
		return ncsim_max_i(a, (size_t)n, e);
	case BI_MESH_NEIGHBOR:
		return ncsim_mesh_neighbor_i(a[0], a[1], a[2], (unsigned)a[3], a[4], a[5], a[6], a[7], e);
	case BI_MESH_COORDINATE:
		return ncsim_mesh_coordinate_i(a[0], a[1], a[2], a[3], a[4], e);
	case BI_MESH_DISTANCE:
		return ncsim_mesh_distance_i(a[0], a[1], a[2], (unsigned)a[3], a[4], a[5], e);
	default:
		break;
	}
	if (fill_defaults(b, a, n, num_tasks, x) < 0)
		return ncsim_err_set(e, "internal error: %s lacks an argument", b->name);
	switch (b->id) {
	case BI_ABS: return ncsim_abs_i(x[0], e);
	case BI_BITS: return ncsim_bits_i(x[0], e);
	case BI_CBRT: return ncsim_cbrt_i(x[0], e);
	case BI_CEILING: return ncsim_ceiling_i(x[0], e);
	case BI_FACTOR10: return ncsim_factor10_i(x[0], e);
	case BI_FLOOR: return ncsim_floor_i(x[0], e);
	case BI_LOG10: return ncsim_log10_i(x[0], e);
	case BI_ROOT: return ncsim_root_i(x[0], x[1], e);
	case BI_ROUND: return ncsim_round_i(x[0], e);
	case BI_SQRT: return ncsim_sqrt_i(x[0], e);
	case BI_TREE_PARENT: return ncsim_tree_parent_i(x[0], x[1], e);
	case BI_TREE_CHILD: return ncsim_tree_child_i(x[0], x[1], x[2], e);
	case BI_KNOMIAL_PARENT: return ncsim_knomial_parent_i(x[0], x[1], x[2], e);
	case BI_KNOMIAL_CHILDREN: return ncsim_knomial_children_i(x[0], x[1], x[2], e);
	case BI_KNOMIAL_CHILD: return ncsim_knomial_child_i(x[0], x[1], x[2], x[3], e);
	default:
		return ncsim_err_set(e, "internal error: no evaluator for %s", b->name);
	}
}

double bi_call_f(const bi_info *b, const double *a, int n, int64_t num_tasks, ncsim_err *e)
{
	int64_t given[BI_MAX_ARGS], filled[BI_MAX_ARGS];
	double x[BI_MAX_ARGS];
	int i, m;

	if (check_call(b, n, e))
		return 0.0;
	switch (b->id) {
	case BI_MIN:
		return ncsim_min_f(a, (size_t)n, e);
	case BI_MAX:
		return ncsim_max_f(a, (size_t)n, e);
	case BI_MESH_NEIGHBOR:
		return ncsim_mesh_neighbor_f(a[0], a[1], a[2], (unsigned)a[3], a[4], a[5], a[6], a[7], e);
	case BI_MESH_COORDINATE:
		return ncsim_mesh_coordinate_f(a[0], a[1], a[2], a[3], a[4], e);
	case BI_MESH_DISTANCE:
		return ncsim_mesh_distance_f(a[0], a[1], a[2], (unsigned)a[3], a[4], a[5], e);
	default:
		break;
	}
	/* Defaults are integers: fill them in integer form, keep given doubles as they are. */
	for (i = 0; i < n; i++)
		given[i] = 0;
	m = fill_defaults(b, given, n, num_tasks, filled);
	if (m < 0) {
		ncsim_err_set(e, "internal error: %s lacks an argument", b->name);
		return 0.0;
	}
	for (i = 0; i < m; i++) {
		const bi_default *d = &b->defaults[i];

		if (i < n)
			x[i] = a[i];
		else if (d->kind == BI_DEF_ARG)
			x[i] = x[d->value];
		else
			x[i] = (double)filled[i];
	}
	switch (b->id) {
	case BI_ABS: return ncsim_abs_f(x[0], e);
	case BI_BITS: return ncsim_bits_f(x[0], e);
	case BI_CBRT: return ncsim_cbrt_f(x[0], e);
	case BI_CEILING: return ncsim_ceiling_f(x[0], e);
	case BI_FACTOR10: return ncsim_factor10_f(x[0], e);
	case BI_FLOOR: return ncsim_floor_f(x[0], e);
	case BI_LOG10: return ncsim_log10_f(x[0], e);
	case BI_ROOT: return ncsim_root_f(x[0], x[1], e);
	case BI_ROUND: return ncsim_round_f(x[0], e);
	case BI_SQRT: return ncsim_sqrt_f(x[0], e);
	case BI_TREE_PARENT: return ncsim_tree_parent_f(x[0], x[1], e);
	case BI_TREE_CHILD: return ncsim_tree_child_f(x[0], x[1], x[2], e);
	case BI_KNOMIAL_PARENT: return ncsim_knomial_parent_f(x[0], x[1], x[2], e);
	case BI_KNOMIAL_CHILDREN: return ncsim_knomial_children_f(x[0], x[1], x[2], e);
	case BI_KNOMIAL_CHILD: return ncsim_knomial_child_f(x[0], x[1], x[2], x[3], e);
	default:
		ncsim_err_set(e, "internal error: no evaluator for %s", b->name);
		return 0.0;
	}
}

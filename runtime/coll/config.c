/*
 * coll_config.c - configuration of the collectives ([collectives] section of a
 * system file) and the per-simulation collectives state (see coll.h).
 */
#include "runtime/coll/coll.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

#define COLL_SECTION "collectives"

static const coll_config coll_defaults = {
	.allreduce = COLL_ALLREDUCE_AUTO,
	/*
	 * 64 KiB: below it an allreduce is latency bound and recursive doubling's
	 * ceil(log2 P) rounds win; above it the ring moves 2(P-1)/P * S per member
	 * instead of S*log2(P) and wins on bandwidth.
	 */
	.allreduce_ring_threshold = 64 * 1024,
	.gather = COLL_TREE_BINOMIAL,
	.scatter = COLL_TREE_BINOMIAL,
	.barrier = COLL_BARRIER_DISSEMINATION,
};

void coll_config_default(coll_config *cfg) { *cfg = coll_defaults; }

const char *coll_allreduce_name(int alg)
{
	switch (alg) {
	case COLL_ALLREDUCE_AUTO: return "auto";
	case COLL_ALLREDUCE_RECDBL: return "recursive_doubling";
	case COLL_ALLREDUCE_RING: return "ring";
	default: return "?";
	}
}

/* Looks `key` up and maps its value through names[] (NULL-terminated) to values[]. */
static int load_choice(const sysconf_t *c, const char *key, const char *const *names,
                       const int *values, int *out, char **err)
{
	const char *s = NULL;
	int rc = sysconf_string(c, COLL_SECTION, key, &s, err);
	if (rc <= 0)
		return rc;
	for (int i = 0; names[i]; i++) {
		if (strcasecmp(s, names[i]) == 0) {
			*out = values[i];
			return 1;
		}
	}
	char *choices = xstrdup("");
	for (int i = 0; names[i]; i++) {
		char *n = xasprintf("%s%s%s", choices, i ? ", " : "", names[i]);
		free(choices);
		choices = n;
	}
	*err = xasprintf("%s: [%s] %s: unknown value '%s' (expected one of: %s)",
	                 sysconf_where(c, COLL_SECTION, key), COLL_SECTION, key, s, choices);
	free(choices);
	return -1;
}

int coll_config_load(coll_config *cfg, const sysconf_t *c, char **err)
{
	static const char *const alg_names[] = { "auto", "recursive_doubling", "ring", NULL };
	static const int alg_values[] = { COLL_ALLREDUCE_AUTO, COLL_ALLREDUCE_RECDBL, COLL_ALLREDUCE_RING };
	static const char *const tree_names[] = { "binomial", "linear", NULL };
	static const int tree_values[] = { COLL_TREE_BINOMIAL, COLL_TREE_LINEAR };
	static const char *const barrier_names[] = { "dissemination", "tree", NULL };
	static const int barrier_values[] = { COLL_BARRIER_DISSEMINATION, COLL_BARRIER_TREE };

	coll_config_default(cfg);
	if (!c)
		return 0;
	if (load_choice(c, "allreduce", alg_names, alg_values, &cfg->allreduce, err) < 0)
		return -1;
	if (sysconf_size(c, COLL_SECTION, "allreduce_ring_threshold", &cfg->allreduce_ring_threshold, err) < 0)
		return -1;
	if (load_choice(c, "gather", tree_names, tree_values, &cfg->gather, err) < 0)
		return -1;
	if (load_choice(c, "scatter", tree_names, tree_values, &cfg->scatter, err) < 0)
		return -1;
	if (load_choice(c, "barrier", barrier_names, barrier_values, &cfg->barrier, err) < 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------ the state */

/*
 * One open rt_allreduce_value instance. Members deposit before they send
 * anything, and no member can finish an allreduce before every member has
 * sent, so when a member finishes its traffic every value is on the board.
 */
typedef struct coll_board {
	rt_int tag;
	rt_int *members; /* copy of the group, to tell groups with equal tags apart */
	int n;
	int deposited, taken;
	unsigned char *have; /* have[i]: member i deposited */
	double *vals;
} coll_board;

struct coll_ctx {
	coll_config cfg;
	VEC(coll_board *) boards; /* open instances; few at a time, so a linear scan */
};

coll_ctx *coll_ctx_new(const sysconf_t *c, char **err)
{
	coll_ctx *cc = xcalloc(1, sizeof *cc);
	if (coll_config_load(&cc->cfg, c, err) < 0) {
		free(cc);
		return NULL;
	}
	return cc;
}

static void board_free(coll_board *b)
{
	free(b->members);
	free(b->have);
	free(b->vals);
	free(b);
}

void coll_ctx_free(coll_ctx *cc)
{
	if (!cc)
		return;
	for (size_t i = 0; i < cc->boards.len; i++)
		board_free(cc->boards.ptr[i]);
	VEC_FREE(&cc->boards);
	free(cc);
}

coll_config *coll_ctx_config(coll_ctx *cc) { return &cc->cfg; }

const coll_config *coll_cfg(rt_task *t)
{
	coll_ctx *cc = rt_coll_ctx(t);
	return cc ? &cc->cfg : &coll_defaults;
}

size_t coll_board_open(const coll_ctx *cc) { return cc->boards.len; }

static long board_find(const coll_ctx *cc, const rt_group *g, rt_int tag)
{
	for (size_t i = 0; i < cc->boards.len; i++) {
		const coll_board *b = cc->boards.ptr[i];
		if (b->tag == tag && b->n == g->n &&
		    memcmp(b->members, g->members, (size_t)g->n * sizeof *g->members) == 0)
			return (long)i;
	}
	return -1;
}

void coll_board_put(coll_ctx *cc, const rt_group *g, rt_int tag, int me, double v)
{
	long i = board_find(cc, g, tag);
	coll_board *b;
	if (i < 0) {
		b = xcalloc(1, sizeof *b);
		b->tag = tag;
		b->n = g->n;
		b->members = xcalloc((size_t)g->n, sizeof *b->members);
		memcpy(b->members, g->members, (size_t)g->n * sizeof *g->members);
		b->have = xcalloc((size_t)g->n, 1);
		b->vals = xcalloc((size_t)g->n, sizeof *b->vals);
		VEC_PUSH(&cc->boards, b);
	} else {
		b = cc->boards.ptr[i];
	}
	if (!b->have[me]) {
		b->have[me] = 1;
		b->deposited++;
	}
	b->vals[me] = v;
}

int coll_board_take(coll_ctx *cc, const rt_group *g, rt_int tag, enum rt_op op, double *out)
{
	long i = board_find(cc, g, tag);
	if (i < 0)
		return -1;
	coll_board *b = cc->boards.ptr[i];
	if (b->deposited < b->n)
		return -1;
	double r = b->vals[0];
	for (int k = 1; k < b->n; k++) {
		double x = b->vals[k];
		switch (op) {
		case RT_OP_MIN: if (x < r) r = x; break;
		case RT_OP_MAX: if (x > r) r = x; break;
		case RT_OP_SUM: r += x; break;
		}
	}
	*out = r;
	if (++b->taken == b->n) {
		/* Order of open boards is irrelevant: move the last one into the hole. */
		board_free(b);
		cc->boards.ptr[i] = cc->boards.ptr[cc->boards.len - 1];
		cc->boards.len--;
	}
	return 0;
}

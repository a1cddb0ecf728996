/*
 * config.c - configuration of the collectives ([collectives] section of a
 * system file: the selector, one algorithm key per collective and the knobs
 * of some algorithms) and the per-simulation collectives state (see coll.h).
 */
#include "runtime/coll/coll.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

#define COLL_SECTION "collectives"

static const coll_config coll_defaults = {
	.selector = COLL_SEL_FIXED,
	/*
	 * 64 KiB: below it an allreduce is latency bound and recursive doubling's
	 * ceil(log2 P) rounds win; above it the ring moves 2(P-1)/P * S per member
	 * instead of S*log2(P) and wins on bandwidth.
	 */
	.allreduce_ring_threshold = 64 * 1024,
	/* Big enough that a segment is a rendezvous message, small enough that a 1 MiB vector pipelines in 16. */
	.segment = 64 * 1024,
	/* MPI_DOUBLE: coNCePTuaL reduces doublewords. */
	.element = 8,
	/* MPICH's MPIR_CVAR_ALLTOALL_THROTTLE. */
	.alltoall_throttle = 32,
	/* Open MPI's coll_tuned_bcast_algorithm_knomial_radix. */
	.knomial_radix = 4,
};

void coll_config_default(coll_config *cfg) { *cfg = coll_defaults; }

/* Every algorithm's name in the system file and the collective it belongs to, by enum coll_alg. */
static const struct {
	const char *name;
	enum coll_kind kind;
} alg_table[COLL_NALGS] = {
	[COLL_AUTO] = {"auto", COLL_NKINDS},
	[COLL_BARRIER_DISSEMINATION] = {"dissemination", COLL_BARRIER},
	[COLL_BARRIER_TREE] = {"tree", COLL_BARRIER},
	[COLL_BARRIER_BINOMIAL] = {"binomial", COLL_BARRIER},
	[COLL_BARRIER_LINEAR] = {"linear", COLL_BARRIER},
	[COLL_BARRIER_RECDBL] = {"recursive_doubling", COLL_BARRIER},
	[COLL_BCAST_BINOMIAL] = {"binomial", COLL_BCAST},
	[COLL_BCAST_SCATTER_RECDBL] = {"scatter_recursive_doubling", COLL_BCAST},
	[COLL_BCAST_SCATTER_RING] = {"scatter_ring", COLL_BCAST},
	[COLL_BCAST_CHAIN] = {"chain", COLL_BCAST},
	[COLL_BCAST_LINEAR] = {"linear", COLL_BCAST},
	[COLL_BCAST_BINARY] = {"binary", COLL_BCAST},
	[COLL_BCAST_KNOMIAL] = {"knomial", COLL_BCAST},
	[COLL_REDUCE_BINOMIAL] = {"binomial", COLL_REDUCE},
	[COLL_REDUCE_RABENSEIFNER] = {"rabenseifner", COLL_REDUCE},
	[COLL_REDUCE_LINEAR] = {"linear", COLL_REDUCE},
	[COLL_REDUCE_CHAIN] = {"chain", COLL_REDUCE},
	[COLL_REDUCE_BINARY] = {"binary", COLL_REDUCE},
	[COLL_ALLREDUCE_RECDBL] = {"recursive_doubling", COLL_ALLREDUCE},
	[COLL_ALLREDUCE_RING] = {"ring", COLL_ALLREDUCE},
	[COLL_ALLREDUCE_SEGRING] = {"segmented_ring", COLL_ALLREDUCE},
	[COLL_ALLREDUCE_RABENSEIFNER] = {"rabenseifner", COLL_ALLREDUCE},
	[COLL_ALLREDUCE_REDUCE_BCAST] = {"reduce_bcast", COLL_ALLREDUCE},
	[COLL_ALLREDUCE_LINEAR] = {"linear", COLL_ALLREDUCE},
	[COLL_ALLGATHER_RECDBL] = {"recursive_doubling", COLL_ALLGATHER},
	[COLL_ALLGATHER_BRUCK] = {"bruck", COLL_ALLGATHER},
	[COLL_ALLGATHER_RING] = {"ring", COLL_ALLGATHER},
	[COLL_ALLGATHER_NEIGHBOR] = {"neighbor_exchange", COLL_ALLGATHER},
	[COLL_REDSCAT_HALVING] = {"recursive_halving", COLL_REDUCE_SCATTER},
	[COLL_REDSCAT_PAIRWISE] = {"pairwise", COLL_REDUCE_SCATTER},
	[COLL_REDSCAT_RING] = {"ring", COLL_REDUCE_SCATTER},
	[COLL_REDSCAT_REDUCE_SCATTERV] = {"reduce_scatterv", COLL_REDUCE_SCATTER},
	[COLL_ALLTOALL_PAIRWISE] = {"pairwise", COLL_ALLTOALL},
	[COLL_ALLTOALL_BRUCK] = {"bruck", COLL_ALLTOALL},
	[COLL_ALLTOALL_THROTTLED] = {"throttled", COLL_ALLTOALL},
	[COLL_ALLTOALL_LINEAR] = {"linear", COLL_ALLTOALL},
	[COLL_GATHER_BINOMIAL] = {"binomial", COLL_GATHER},
	[COLL_GATHER_LINEAR] = {"linear", COLL_GATHER},
	[COLL_SCATTER_BINOMIAL] = {"binomial", COLL_SCATTER},
	[COLL_SCATTER_LINEAR] = {"linear", COLL_SCATTER},
};

static const char *const kind_names[COLL_NKINDS] = {
	[COLL_BARRIER] = "barrier", [COLL_BCAST] = "bcast", [COLL_REDUCE] = "reduce",
	[COLL_ALLREDUCE] = "allreduce", [COLL_ALLGATHER] = "allgather", [COLL_REDUCE_SCATTER] = "reduce_scatter",
	[COLL_ALLTOALL] = "alltoall", [COLL_GATHER] = "gather", [COLL_SCATTER] = "scatter",
};

static const char *const selector_names[] = {
	[COLL_SEL_FIXED] = "fixed", [COLL_SEL_MPICH] = "mpich", [COLL_SEL_OMPI] = "ompi",
};
#define NSELECTORS ((int)(sizeof selector_names / sizeof selector_names[0]))

const char *coll_alg_name(int alg) { return alg >= 0 && alg < COLL_NALGS ? alg_table[alg].name : "?"; }

enum coll_kind coll_alg_kind(int alg) { return alg > 0 && alg < COLL_NALGS ? alg_table[alg].kind : COLL_NKINDS; }

const char *coll_kind_name(enum coll_kind k) { return k < COLL_NKINDS ? kind_names[k] : "?"; }

const char *coll_selector_name(int sel) { return sel >= 0 && sel < NSELECTORS ? selector_names[sel] : "?"; }

/* Refuses the value s of `key` with the list of names the key accepts (names[i] for i with ok(i)). */
static int bad_choice(const sysconf_t *c, const char *key, const char *s, const char *const *names, int n,
                      enum coll_kind k, char **err)
{
	char *choices = xstrdup("");
	for (int i = 0; i < n; i++) {
		if (k != COLL_NKINDS && i != COLL_AUTO && alg_table[i].kind != k)
			continue;
		char *x = xasprintf("%s%s%s", choices, *choices ? ", " : "", names ? names[i] : alg_table[i].name);
		free(choices);
		choices = x;
	}
	*err = xasprintf("%s: [%s] %s: unknown value '%s' (expected one of: %s)",
	                 sysconf_where(c, COLL_SECTION, key), COLL_SECTION, key, s, choices);
	free(choices);
	return -1;
}

/* The algorithm key of collective k: auto or one of k's algorithms. */
static int load_alg(const sysconf_t *c, enum coll_kind k, int *out, char **err)
{
	const char *s = NULL;
	int rc = sysconf_string(c, COLL_SECTION, kind_names[k], &s, err);
	if (rc <= 0)
		return rc;
	for (int i = 0; i < COLL_NALGS; i++) {
		if ((i == COLL_AUTO || alg_table[i].kind == k) && strcasecmp(s, alg_table[i].name) == 0) {
			*out = i;
			return 1;
		}
	}
	return bad_choice(c, kind_names[k], s, NULL, COLL_NALGS, k, err);
}

static int load_selector(const sysconf_t *c, int *out, char **err)
{
	const char *s = NULL;
	int rc = sysconf_string(c, COLL_SECTION, "selector", &s, err);
	if (rc <= 0)
		return rc;
	for (int i = 0; i < NSELECTORS; i++) {
		if (strcasecmp(s, selector_names[i]) == 0) {
			*out = i;
			return 1;
		}
	}
	return bad_choice(c, "selector", s, selector_names, NSELECTORS, COLL_NKINDS, err);
}

/* An integer key within [lo, hi]. */
static int load_int(const sysconf_t *c, const char *key, int lo, int hi, int *out, char **err)
{
	int64_t v = *out;
	int rc = sysconf_int(c, COLL_SECTION, key, &v, err);
	if (rc <= 0)
		return rc;
	if (v < lo || v > hi) {
		*err = xasprintf("%s: [%s] %s must lie in %d..%d", sysconf_where(c, COLL_SECTION, key), COLL_SECTION,
		                 key, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 1;
}

int coll_config_load(coll_config *cfg, const sysconf_t *c, char **err)
{
	coll_config_default(cfg);
	if (!c)
		return 0;
	if (load_selector(c, &cfg->selector, err) < 0)
		return -1;
	for (int k = 0; k < COLL_NKINDS; k++)
		if (load_alg(c, (enum coll_kind)k, &cfg->alg[k], err) < 0)
			return -1;
	if (sysconf_size(c, COLL_SECTION, "allreduce_ring_threshold", &cfg->allreduce_ring_threshold, err) < 0 ||
	    sysconf_size(c, COLL_SECTION, "segment_size", &cfg->segment, err) < 0 ||
	    sysconf_size(c, COLL_SECTION, "element_size", &cfg->element, err) < 0 ||
	    load_int(c, "alltoall_throttle", 0, 1 << 20, &cfg->alltoall_throttle, err) < 0 ||
	    load_int(c, "knomial_radix", 2, 1024, &cfg->knomial_radix, err) < 0)
		return -1;
	if (cfg->element == 0) {
		*err = xasprintf("%s: [%s] element_size must be positive", sysconf_where(c, COLL_SECTION, "element_size"),
		                 COLL_SECTION);
		return -1;
	}
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
	int local;           /* deposits made on this rank: its members, who take once each (a run over ranks) */
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
	coll_board_deposit(cc, g, tag, me, v);
	cc->boards.ptr[board_find(cc, g, tag)]->local++;
}

void coll_board_deposit(coll_ctx *cc, const rt_group *g, rt_int tag, int me, double v)
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
	if (++b->taken == b->local) {
		/* Order of open boards is irrelevant: move the last one into the hole. */
		board_free(b);
		cc->boards.ptr[i] = cc->boards.ptr[cc->boards.len - 1];
		cc->boards.len--;
	}
	return 0;
}

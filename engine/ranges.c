/*
 * ranges.c - loops over range lists (LANGUAGE.md section 3.6), as
 * cg_ranges_foreach of compiler/codegen/codegen_c_expr.c writes them:
 *
 *   one progression {a, b, ..., z}   iterated without a list (ncsim_range_*)
 *   one enumeration of one value     that value, no loop
 *   one enumeration {a, b, c}        its values evaluated first, then the loop
 *   anything else                    every value of every range into the
 *                                    site's list, in order, then the loop
 *
 * A list comprehension's generators nest the same way, its WHERE filter
 * evaluated before its value. Each loop site has its own list in the task
 * state (k->lists), so nested loops never share one.
 */
#include "engine/eng_int.h"

enum rkind { R_PROG, R_ONE, R_ENUM, R_LIST };

/* A progression's operands: items (integer, and float when 3 or more), last. */
typedef struct rprog {
	const ex **vi, **vd, *last, *last_d;
	uint32_t n;
} rprog;

/* One part of a list: an enumeration, a progression or a comprehension. */
typedef struct rpart {
	int kind; /* AST_RANGE_ENUM, AST_RANGE_PROG, AST_RANGE_COMP */
	const ex **items;
	uint32_t n;
	rprog prog;
	const rloop *gen; /* comprehension: the outermost generator's loop */
} rpart;

struct rloop {
	enum rkind kind;
	int slot, list;
	rprog prog;
	const ex **items;
	uint32_t n;
	rpart *parts;
	uint32_t nparts;
	const kont *body;
};

/* A comprehension's innermost level: filter, then push the value. */
typedef struct comp_kont {
	kont k;
	const ex *val, *where;
	int list;
} comp_kont;

static void prog_compile(eng_cx *c, env_t env, const ast_node *r, rprog *p)
{
	const ast_list *it = &r->u.range_prog.items;
	p->n = it->len;
	p->vi = eng_new(c, it->len * sizeof *p->vi);
	p->vd = eng_new(c, it->len * sizeof *p->vd);
	for (uint32_t i = 0; i < it->len; i++) {
		p->vi[i] = eng_num(c, env, it->items[i], 0);
		p->vd[i] = it->len >= 3 ? eng_num(c, env, it->items[i], 1) : NULL;
	}
	p->last = eng_num(c, env, r->u.range_prog.last, 0);
	p->last_d = it->len >= 3 ? eng_num(c, env, r->u.range_prog.last, 1) : NULL;
}

/* rt_range(t, &e, {vi}, {vd}, n, last, last_d): call arguments last to first, lists first to last. */
static struct ncsim_range prog_eval(const rprog *p, ek *k)
{
	int64_t vi[64], *pvi = p->n <= 64 ? vi : xmalloc(p->n * sizeof *pvi);
	double vd[64], *pvd = p->n <= 64 ? vd : xmalloc(p->n * sizeof *pvd);
	double last_d = p->last_d ? eng_flt(p->last_d, k) : 0.0;
	int64_t last = eng_int(p->last, k);
	struct ncsim_range r;
	for (uint32_t i = 0; p->n >= 3 && i < p->n; i++)
		pvd[i] = eng_flt(p->vd[i], k);
	for (uint32_t i = 0; i < p->n; i++)
		pvi[i] = eng_int(p->vi[i], k);
	int bad = ncsim_range_init(&r, pvi, p->n >= 3 ? pvd : NULL, p->n, last, last_d, &k->e);
	if (pvi != vi)
		free(pvi);
	if (pvd != vd)
		free(pvd);
	if (bad)
		eng_fail(k);
	return r;
}

static void comp_leaf(const kont *kk, ek *k, int64_t x)
{
	const comp_kont *u = (const comp_kont *)kk;
	(void)x;
	if (u->where && !eng_rel(u->where, k))
		return;
	rt_ivec_push(k->t, &k->lists[u->list], eng_int(u->val, k));
}

/* Generator g of comprehension r and the ones inside it; the innermost pushes into list. */
static const rloop *comp_level(eng_cx *c, env_t env, const ast_node *r, uint32_t g, int list)
{
	const ast_node *gen = r->u.range_comp.gens.items[g];
	int slot;
	rloop *lp = eng_ranges(c, env, &gen->u.generator.ranges, &slot);
	env = eng_bind_slot(c, env, gen->u.generator.var->u.ident.name, slot);
	if (g + 1 < r->u.range_comp.gens.len) {
		const rloop *inner = comp_level(c, env, r, g + 1, list);
		eng_ranges_set_body(lp, eng_kont_loop(c, inner));
		return lp;
	}
	comp_kont *u = eng_new(c, sizeof *u);
	u->k.fn = comp_leaf;
	u->list = list;
	u->val = eng_num(c, env, r->u.range_comp.expr, 0);
	u->where = r->u.range_comp.where ? eng_relx(c, env, r->u.range_comp.where, 0) : NULL;
	eng_ranges_set_body(lp, &u->k);
	return lp;
}

static void part_compile(eng_cx *c, env_t env, const ast_node *r, rpart *p, int list)
{
	p->kind = r->kind;
	switch (r->kind) {
	case AST_RANGE_ENUM:
		p->n = r->u.range_enum.items.len;
		p->items = eng_new(c, p->n * sizeof *p->items);
		for (uint32_t i = 0; i < p->n; i++)
			p->items[i] = eng_num(c, env, r->u.range_enum.items.items[i], 0);
		break;
	case AST_RANGE_PROG: prog_compile(c, env, r, &p->prog); break;
	case AST_RANGE_COMP:
		if (r->u.range_comp.gens.len == 0) {
			/* no generator: the value itself, filtered */
			comp_kont *u = eng_new(c, sizeof *u);
			rloop *one = eng_new(c, sizeof *one);
			u->k.fn = comp_leaf;
			u->list = list;
			u->val = eng_num(c, env, r->u.range_comp.expr, 0);
			u->where = r->u.range_comp.where ? eng_relx(c, env, r->u.range_comp.where, 0) : NULL;
			one->kind = R_ONE;
			one->slot = eng_slot(c);
			one->n = 1;
			one->items = eng_new(c, sizeof *one->items);
			one->items[0] = eng_lit_i(c, 0);
			one->body = &u->k;
			p->gen = one;
		} else {
			p->gen = comp_level(c, env, r, 0, list);
		}
		break;
	default: eng_error(c, r->span, "a %s is not a range", ast_kind_name(r->kind)); break;
	}
}

rloop *eng_ranges(eng_cx *c, env_t env, const ast_list *ranges, int *slot)
{
	rloop *r = eng_new(c, sizeof *r);
	const ast_node *r0 = ranges->len == 1 ? ranges->items[0] : NULL;
	r->slot = *slot = eng_slot(c);
	if (r0 && r0->kind == AST_RANGE_PROG) {
		r->kind = R_PROG;
		prog_compile(c, env, r0, &r->prog);
		return r;
	}
	if (r0 && r0->kind == AST_RANGE_ENUM) {
		r->kind = r0->u.range_enum.items.len == 1 ? R_ONE : R_ENUM;
		if (r->kind == R_ENUM)
			r->list = c->nlists++;
		r->n = r0->u.range_enum.items.len;
		r->items = eng_new(c, (r->n ? r->n : 1) * sizeof *r->items);
		for (uint32_t i = 0; i < r->n; i++)
			r->items[i] = eng_num(c, env, r0->u.range_enum.items.items[i], 0);
		return r;
	}
	r->kind = R_LIST;
	r->list = c->nlists++;
	r->nparts = ranges->len;
	r->parts = eng_new(c, (ranges->len ? ranges->len : 1) * sizeof *r->parts);
	for (uint32_t i = 0; i < ranges->len; i++)
		part_compile(c, env, ranges->items[i], &r->parts[i], r->list);
	return r;
}

void eng_ranges_set_body(rloop *r, const kont *body)
{
	r->body = body;
}

static void each(const rloop *r, ek *k, int64_t v)
{
	k->v[r->slot] = v;
	kont_run(r->body, k, v);
}

static void run_list(const rloop *r, ek *k)
{
	struct ncsim_ivec *l = &k->lists[r->list];
	l->len = 0;
	for (uint32_t i = 0; i < r->nparts; i++) {
		const rpart *p = &r->parts[i];
		if (p->kind == AST_RANGE_ENUM) {
			for (uint32_t j = 0; j < p->n; j++)
				rt_ivec_push(k->t, l, eng_int(p->items[j], k));
		} else if (p->kind == AST_RANGE_PROG) {
			struct ncsim_range rg = prog_eval(&p->prog, k);
			ncsim_range_append(&rg, l);
		} else {
			eng_ranges_run(p->gen, k);
		}
	}
	/* The body may run another loop of this site's list (never: sites are distinct), so index, not pointer. */
	for (size_t i = 0; i < k->lists[r->list].len; i++)
		each(r, k, k->lists[r->list].ptr[i]);
}

void eng_ranges_run(const rloop *r, ek *k)
{
	switch (r->kind) {
	case R_PROG: {
		struct ncsim_range rg = prog_eval(&r->prog, k);
		struct ncsim_range_it it;
		int64_t v;
		for (int ok = ncsim_range_first(&rg, &it, &v); ok; ok = ncsim_range_next(&rg, &it, &v))
			each(r, k, v);
		return;
	}
	case R_ONE: each(r, k, eng_int(r->items[0], k)); return;
	case R_ENUM: {
		/* the C's array of values: the site's list, which the task state frees if the task is abandoned */
		struct ncsim_ivec *l = &k->lists[r->list];
		l->len = 0;
		for (uint32_t i = 0; i < r->n; i++)
			rt_ivec_push(k->t, l, eng_int(r->items[i], k));
		for (uint32_t i = 0; i < r->n; i++)
			each(r, k, k->lists[r->list].ptr[i]);
		return;
	}
	case R_LIST: run_list(r, k); return;
	}
}

/* A continuation that runs a loop (a comprehension's inner generator). */
typedef struct loop_kont {
	kont k;
	const rloop *r;
} loop_kont;

static void loop_body(const kont *kk, ek *k, int64_t x)
{
	(void)x;
	eng_ranges_run(((const loop_kont *)kk)->r, k);
}

const kont *eng_kont_loop(eng_cx *c, const rloop *r)
{
	loop_kont *u = eng_new(c, sizeof *u);
	u->k.fn = loop_body;
	u->r = r;
	return &u->k;
}

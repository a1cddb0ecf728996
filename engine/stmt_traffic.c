/*
 * stmt_traffic.c - the traffic-model statements of LANGUAGE.md 14.3 (DCNW
 * and CDCNW, FLOWS, HOROVOD, VEF replay) in the direct engine, calling
 * <ncsim/traffic.h> as compiler/codegen/codegen_c_traffic.c does:
 *
 *   ga = the acting tasks, ascending (ALL TASKS: the world, no list)
 *   if this task is one: the parameters, evaluated in the scope of the
 *   lowest member (its variable bound to it; ALL TASKS: to 0), then the call
 *
 * Values are taken in the context sema gave them (lang/sema.h notes):
 * counts and sizes integer, rates, shares and durations as written.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/eng_int.h"
#include "lang/sema.h"
#include "ncsim/traffic.h"

/* ------------------------------------------------------------ values */

static double num_f(const ex *x, ek *k) { return eng_flt(x->a, k); }
static double num_i(const ex *x, ek *k) { return (double)eng_int(x->a, k); }
static int64_t int_f(const ex *x, ek *k) { return ncsim_real_to_int(eng_flt(x->a, k)); }
static int64_t int_i(const ex *x, ek *k) { return eng_int(x->a, k); }

static int is_flt(const ast_node *n)
{
	const sema_note *s = sema_note_of(n);
	return s && s->ctx == SEMA_CTX_FLOAT;
}

/* n as a double in the context sema chose (integer without a note). */
static const ex *num(eng_cx *c, env_t env, const ast_node *n)
{
	ex *x = eng_new(c, sizeof *x);
	int f = is_flt(n);
	x->fn.f = f ? num_f : num_i;
	x->a = eng_num(c, env, n, f);
	return x;
}

/* n as an integer: truncated (ncsim_real_to_int) when sema gave it floating point. */
static const ex *int_of(eng_cx *c, env_t env, const ast_node *n)
{
	ex *x = eng_new(c, sizeof *x);
	int f = is_flt(n);
	x->fn.i = f ? int_f : int_i;
	x->a = eng_num(c, env, n, f);
	return x;
}

/* A DURATION: ncsim_ps(value x unit). */
typedef struct dur {
	const ex *v;
	double ps;
} dur;

static dur duration(eng_cx *c, env_t env, const ast_node *d)
{
	return (dur){num(c, env, d->u.duration.value), (double)ast_time_unit_ps(d->u.duration.unit)};
}

static ncsim_time_t dur_run(const dur *d, ek *k) { return ncsim_ps(ev_f(d->v, k) * d->ps); }

/* The bytes of a DATA_SIZE; negative sizes end the run. */
static uint64_t bytes_run(const ex *x, ek *k) { return rt_msg_bytes(k->t, ev_i(x, k)); }

/* A destination distribution (NULL node: RT_DEST_DEFAULT). */
typedef struct dest {
	int kind, has_mean, has_dev;
	const ex *mean, *dev;
} dest;

static dest dest_of(eng_cx *c, env_t env, const ast_node *d)
{
	dest r = {RT_DEST_DEFAULT, 0, 0, NULL, NULL};
	if (!d)
		return r;
	const ast_node *m = d->u.dest_dist.mean, *s = d->u.dest_dist.deviation;
	switch (d->u.dest_dist.dist) {
	case AST_DIST_GAUSSIAN:
		r = (dest){RT_DEST_GAUSSIAN, m != NULL, s != NULL, m ? num(c, env, m) : NULL, s ? num(c, env, s) : NULL};
		break;
	case AST_DIST_POISSON: r = (dest){RT_DEST_POISSON, m != NULL, 0, m ? num(c, env, m) : NULL, NULL}; break;
	default: r.kind = RT_DEST_UNIFORM; break;
	}
	return r;
}

static rt_dest dest_run(const dest *d, ek *k)
{
	rt_dest r = {d->kind, d->has_mean, d->has_dev, 0.0, 0.0};
	r.mean = d->mean ? ev_f(d->mean, k) : 0.0;
	r.dev = d->dev ? ev_f(d->dev, k) : 0.0;
	return r;
}

/* A count that must not be negative (its check names `what`). */
static uint64_t count_run(const ex *x, ek *k, const char *what)
{
	int64_t v = ev_i(x, k);
	if (v < 0)
		rt_fatal(k->t, "%s must not be negative (it is %" PRId64 ")", what, v);
	return (uint64_t)v;
}

/* A traffic file's path: next to the source file when it exists there (as sema looks), else as written. */
static const char *file_of(eng_cx *c, const ast_node *str)
{
	const char *path = str->u.string.text;
	const char *src = src_get(c->src, str->span.file)->name;
	const char *slash = strrchr(src, '/');
	if (path[0] != '/' && slash) {
		char *near = xasprintf("%.*s/%s", (int)(slash - src), src, path);
		struct stat sb;
		if (stat(near, &sb) == 0 && S_ISREG(sb.st_mode)) {
			const char *r = arena_strdup(c->a, near);
			free(near);
			return r;
		}
		free(near);
	}
	return path;
}

/* ------------------------------------------------------------ the bodies */

typedef struct hvd {
	unsigned set;
	dur compute, negotiation;
	const ex *gatherv, *total, *prob, *bcast, *allreduce;
} hvd;

typedef struct tbody {
	kont k;
	const ast_node *n;
	const ex *count, *rate;
	dest dest;
	const char *model, *path;
	/* FLOWS */
	const ex **cmin, **cmax, **cpct;
	dest *cdest;
	dur over;
	/* HOROVOD */
	const ex *batches, *layers, **olayer;
	hvd defaults, *over_p;
	int grp_slot; /* unused: the group comes from the statement */
} tbody;

static hvd hvd_compile(eng_cx *c, env_t env, const ast_list *l)
{
	hvd h = {0};
	for (uint32_t i = 0; i < l->len; i++) {
		const ast_node *p = l->items[i], *x = p->u.hv_param.value;
		switch (p->u.hv_param.param) {
		case AST_HV_COMPUTE: h.compute = duration(c, env, x); break;
		case AST_HV_NEGOTIATION_LOOP: h.negotiation = duration(c, env, x); break;
		case AST_HV_GATHERV_PROBABILITY: h.prob = num(c, env, x); break;
		case AST_HV_GATHERV: h.gatherv = eng_size(c, env, x); break;
		case AST_HV_GATHERV_TOTAL: h.total = eng_size(c, env, x); break;
		case AST_HV_BROADCAST: h.bcast = eng_size(c, env, x); break;
		default: h.allreduce = eng_size(c, env, x); break;
		}
		h.set |= 1u << p->u.hv_param.param;
	}
	return h;
}

_Static_assert((int)AST_HV_ALLREDUCE == (int)RT_HVD_ALLREDUCE && (int)AST_HV_GATHERV_PROBABILITY == (int)RT_HVD_GATHERV_PROB,
               "the HOROVOD keys of the AST and of ncsim/traffic.h must match");

/* The rt_hvd_layer initializer, its members in order. */
static rt_hvd_layer hvd_run(const hvd *h, ek *k)
{
	rt_hvd_layer r = {.set = h->set};
	r.compute = h->compute.v ? dur_run(&h->compute, k) : 0;
	r.negotiation = h->negotiation.v ? dur_run(&h->negotiation, k) : 0;
	r.gatherv_bytes = h->gatherv ? (double)bytes_run(h->gatherv, k) : 0.0;
	r.gatherv_total = h->total ? bytes_run(h->total, k) : 0;
	r.gatherv_prob = h->prob ? ev_f(h->prob, k) : 0.0;
	r.bcast_bytes = h->bcast ? bytes_run(h->bcast, k) : 0;
	r.allreduce_bytes = h->allreduce ? bytes_run(h->allreduce, k) : 0;
	return r;
}

/* The group of the statement being run (set by traffic_run). */
static const rt_group *cur_group(ek *k, int world)
{
	return world ? rt_world(k->t) : NULL;
}

static void messages_k(const kont *kk, ek *k, int64_t x)
{
	const tbody *b = (const tbody *)kk;
	const rt_group *g = x < 0 ? cur_group(k, 1) : &(rt_group){k->ga.ptr, (int)k->ga.len};
	uint64_t count = count_run(b->count, k, "a message count");
	double gbps = 0.0;
	if (b->rate) {
		gbps = ev_f(b->rate, k);
		if (!(gbps > 0.0))
			rt_fatal(k->t, "a traffic rate must be positive (it is %g Gbps)", gbps);
	}
	rt_dcnw_params p = {.model = b->model, .cdf_path = b->path, .count = count, .dest = dest_run(&b->dest, k), .gbps = gbps};
	rt_traffic_dcnw(k->t, g, &p);
}

static void flows_k(const kont *kk, ek *k, int64_t x)
{
	const tbody *b = (const tbody *)kk;
	const ast_list *cl = &b->n->u.traffic_flows.classes;
	const rt_group *g = x < 0 ? cur_group(k, 1) : &(rt_group){k->ga.ptr, (int)k->ga.len};
	uint64_t count = count_run(b->count, k, "a flow count");
	rt_flow_class *cls = xcalloc(cl->len ? cl->len : 1, sizeof *cls);
	rt_track(k->t, &cls, eng_release_ptr);
	for (uint32_t i = 0; i < cl->len; i++) {
		cls[i].min_bytes = bytes_run(b->cmin[i], k);
		cls[i].max_bytes = bytes_run(b->cmax[i], k);
		cls[i].percent = ev_f(b->cpct[i], k);
		cls[i].dest = dest_run(&b->cdest[i], k);
	}
	rt_flows_params p = {.count = count, .duration = dur_run(&b->over, k), .dest = dest_run(&b->dest, k),
	                     .classes = cls, .nclasses = (int)cl->len};
	rt_traffic_flows(k->t, g, &p);
	rt_release(k->t, &cls);
}

static void horovod_k(const kont *kk, ek *k, int64_t x)
{
	const tbody *b = (const tbody *)kk;
	const ast_list *ov = &b->n->u.horovod.overrides;
	const rt_group *g = x < 0 ? cur_group(k, 1) : &(rt_group){k->ga.ptr, (int)k->ga.len};
	rt_hvd_override *o = xcalloc(ov->len ? ov->len : 1, sizeof *o);
	rt_track(k->t, &o, eng_release_ptr);
	for (uint32_t i = 0; i < ov->len; i++) {
		o[i].layer = ev_i(b->olayer[i], k);
		o[i].p = hvd_run(&b->over_p[i], k);
	}
	rt_horovod_params p = {.batches = ev_i(b->batches, k), .layers = ev_i(b->layers, k)};
	p.defaults = hvd_run(&b->defaults, k);
	p.overrides = ov->len ? o : NULL;
	p.noverrides = (int)ov->len;
	rt_traffic_horovod(k->t, g, &p);
	rt_release(k->t, &o);
}

static void replay_k(const kont *kk, ek *k, int64_t x)
{
	const tbody *b = (const tbody *)kk;
	const rt_group *g = x < 0 ? cur_group(k, 1) : &(rt_group){k->ga.ptr, (int)k->ga.len};
	rt_traffic_replay(k->t, g, b->path);
}

static const kont *body_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	const ast_node *n = ud;
	tbody *b = eng_new(c, sizeof *b);
	(void)x_slot;
	b->n = n;
	switch (n->kind) {
	case AST_TRAFFIC_MESSAGES: {
		const ast_node *model = n->u.traffic_messages.model;
		b->k.fn = messages_k;
		b->count = int_of(c, env, n->u.traffic_messages.count);
		b->rate = n->u.traffic_messages.rate ? num(c, env, n->u.traffic_messages.rate) : NULL;
		if (model->kind == AST_IDENT) {
			char *s = arena_strdup(c->a, model->u.ident.name);
			for (char *p = s; *p; p++)
				if (*p >= 'a' && *p <= 'z')
					*p = (char)(*p - 'a' + 'A');
			b->model = s;
		} else {
			b->path = file_of(c, model);
		}
		b->dest = dest_of(c, env, n->u.traffic_messages.dest);
		break;
	}
	case AST_TRAFFIC_FLOWS: {
		const ast_list *cl = &n->u.traffic_flows.classes;
		b->k.fn = flows_k;
		b->count = int_of(c, env, n->u.traffic_flows.count);
		b->cmin = eng_new(c, (cl->len + 1) * sizeof *b->cmin);
		b->cmax = eng_new(c, (cl->len + 1) * sizeof *b->cmax);
		b->cpct = eng_new(c, (cl->len + 1) * sizeof *b->cpct);
		b->cdest = eng_new(c, (cl->len + 1) * sizeof *b->cdest);
		for (uint32_t i = 0; i < cl->len; i++) {
			const ast_node *x = cl->items[i];
			b->cmin[i] = eng_size(c, env, x->u.flow_class.min);
			b->cmax[i] = eng_size(c, env, x->u.flow_class.max);
			b->cpct[i] = num(c, env, x->u.flow_class.percent);
			b->cdest[i] = dest_of(c, env, x->u.flow_class.dest);
		}
		b->over = duration(c, env, n->u.traffic_flows.over);
		b->dest = dest_of(c, env, n->u.traffic_flows.dest);
		break;
	}
	case AST_TRAFFIC_HOROVOD: {
		const ast_list *ov = &n->u.horovod.overrides;
		b->k.fn = horovod_k;
		b->olayer = eng_new(c, (ov->len + 1) * sizeof *b->olayer);
		b->over_p = eng_new(c, (ov->len + 1) * sizeof *b->over_p);
		for (uint32_t i = 0; i < ov->len; i++) {
			b->olayer[i] = int_of(c, env, ov->items[i]->u.hv_layer.layer);
			b->over_p[i] = hvd_compile(c, env, &ov->items[i]->u.hv_layer.params);
		}
		b->batches = int_of(c, env, n->u.horovod.batches);
		b->layers = int_of(c, env, n->u.horovod.layers);
		b->defaults = hvd_compile(c, env, &n->u.horovod.params);
		break;
	}
	default:
		b->k.fn = replay_k;
		b->path = file_of(c, n->u.replay.path);
		break;
	}
	return &b->k;
}

/* ------------------------------------------------------------ the statement */

typedef struct traffic_st {
	st s;
	int world, var_slot;  /* ALL TASKS: the world group; its variable (or -1) is 0 */
	const kont *body;
	const td *collect, *member;
	int first_slot;
} traffic_st;

static void traffic_run(const st *s, ek *k)
{
	const traffic_st *u = (const traffic_st *)s;
	if (u->world) {
		if (u->var_slot >= 0)
			k->v[u->var_slot] = 0;
		kont_run(u->body, k, -1);
		return;
	}
	eng_td_run(u->collect, k);
	if (!(k->ga.len && ncsim_ivec_has(&k->ga, rt_rank(k->t))))
		return;
	k->v[u->first_slot] = k->ga.ptr[0];
	eng_td_run(u->member, k);
}

/* The members' group for a body: the list in ga (the argument is a task, >= 0). */
typedef struct grp_kont {
	kont k;
	const kont *body;
} grp_kont;

static void grp_k(const kont *kk, ek *k, int64_t x)
{
	(void)x;
	kont_run(((const grp_kont *)kk)->body, k, 0);
}

static const kont *member_mk(eng_cx *c, env_t env, int x_slot, void *ud)
{
	grp_kont *g = eng_new(c, sizeof *g);
	g->k.fn = grp_k;
	g->body = body_mk(c, env, x_slot, ud);
	return &g->k;
}

const st *eng_traffic(eng_cx *c, env_t env, const ast_node *n)
{
	const ast_node *tasks = ast_stmt_tasks(n);
	traffic_st *u = eng_new(c, sizeof *u);
	u->s.run = traffic_run;
	u->var_slot = -1;
	if (tasks->kind == AST_TASK_ALL) {
		const char *var = eng_tasks_var(tasks);
		u->world = 1;
		if (var)
			env = eng_bind(c, env, var, &u->var_slot);
		u->body = body_mk(c, env, u->var_slot, (void *)n);
		return &u->s;
	}
	u->collect = eng_tasks_collect(c, env, tasks, 0, -1);
	u->first_slot = eng_slot(c);
	u->member = eng_tasks_member(c, env, tasks, u->first_slot, -1, member_mk, (void *)n);
	return &u->s;
}

/*
 * codegen_c_traffic.c - the traffic-model statements of LANGUAGE.md 14.3
 * (DCNW/CDCNW, FLOWS, HOROVOD, VEF replay), translated to the calls of
 * <ncsim/traffic.h>.
 *
 * The acting tasks are the group: every member builds the same ascending
 * member list and calls the model's function with it. The parameters are
 * evaluated once per member, in the scope of the lowest member (its task
 * variable bound to it), so that every member passes equal values even when
 * an expression names the acting task's variable:
 *
 *   cg_ga = members of <tasks>, ascending
 *   if (cg_ga.len && ncsim_ivec_has(&cg_ga, me)) {
 *       cg_grp = &(rt_group){ cg_ga.ptr, cg_ga.len };
 *       { v = cg_ga.ptr[0];                       (the description's variable, if any)
 *         rt_xxx_params p = { ...expressions... };
 *         rt_traffic_xxx(t, cg_grp, &p); }
 *   }
 *
 * ALL TASKS needs no list: the group is rt_world(t) (and v is task 0).
 *
 * Contexts follow the notes of lang/sema.h: counts, sizes and layer numbers
 * are integers; rates, percentages, probabilities, destination parameters
 * and durations are evaluated in the context sema gave them (floating point,
 * so that `AT 2.5 GBPS` or `COMPUTE 1.5 MILLISECONDS` mean what they say).
 * Relative file names (CDF tables, VEF traces) are looked up as sema does:
 * next to the source file first, then as written.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/codegen/codegen_c.h"
#include "lang/sema.h"

/* ------------------------------------------------------------ values */

/* C double expression of n in the context sema chose for it (integer when there is no note). */
static const char *num(cg *g, const cg_sym *env, const ast_node *n)
{
	const sema_note *s = sema_note_of(n);
	if (s && s->ctx == SEMA_CTX_FLOAT)
		return cg_flt(g, env, n);
	return cg_fmt(g, "(double)%s", cg_int(g, env, n));
}

/* C rt_int expression of n: integer context, or the float value truncated if sema gave n floating point. */
static const char *int_of(cg *g, const cg_sym *env, const ast_node *n)
{
	const sema_note *s = sema_note_of(n);
	if (s && s->ctx == SEMA_CTX_FLOAT)
		return cg_fmt(g, "ncsim_real_to_int(%s)", cg_flt(g, env, n));
	return cg_int(g, env, n);
}

/* Picoseconds of a DURATION node, value in its sema context, as ncsim_time_t (negative: 0). */
static const char *duration_ps(cg *g, const cg_sym *env, const ast_node *d)
{
	return cg_fmt(g, "ncsim_ps(%s * %" PRIu64 ".0)", num(g, env, d->u.duration.value), ast_time_unit_ps(d->u.duration.unit));
}

/* Bytes of a DATA_SIZE node as uint64_t; a negative size is a run-time error. */
static const char *bytes_of(cg *g, const cg_sym *env, const ast_node *d)
{
	return cg_fmt(g, "rt_msg_bytes(t, %s)", cg_size(g, env, d));
}

/* A count that must not be negative, as uint64_t (the check runs at the statement's line). */
static const char *count_of(cg *g, const cg_sym *env, const ast_node *n, const char *what)
{
	const char *v = cg_uniq(g, "count");
	cg_line(g, "const rt_int %s = %s;", v, int_of(g, env, n));
	cg_line(g, "if (%s < 0)", v);
	cg_line(g, "\trt_fatal(t, \"%s must not be negative (it is %%\" PRId64 \")\", %s);", what, v);
	return cg_fmt(g, "(uint64_t)%s", v);
}

/* The rt_dest initializer of a DEST_DIST node (NULL: RT_DEST_DEFAULT). */
static const char *dest_of(cg *g, const cg_sym *env, const ast_node *d)
{
	if (!d)
		return "{ RT_DEST_DEFAULT, 0, 0, 0.0, 0.0 }";
	const ast_node *m = d->u.dest_dist.mean, *s = d->u.dest_dist.deviation;
	switch (d->u.dest_dist.dist) {
	case AST_DIST_GAUSSIAN:
		return cg_fmt(g, "{ RT_DEST_GAUSSIAN, %d, %d, %s, %s }", m != NULL, s != NULL, m ? num(g, env, m) : "0.0",
		              s ? num(g, env, s) : "0.0");
	case AST_DIST_POISSON:
		return cg_fmt(g, "{ RT_DEST_POISSON, %d, 0, %s, 0.0 }", m != NULL, m ? num(g, env, m) : "0.0");
	default: return "{ RT_DEST_UNIFORM, 0, 0, 0.0, 0.0 }";
	}
}

/*
 * The path a traffic statement's file is opened with: a relative name is
 * taken next to the source file when it exists there (sema looks there
 * first too), else as written (relative to the directory the simulation
 * runs in).
 */
static const char *file_of(cg *g, const ast_node *str)
{
	const char *path = str->u.string.text;
	const char *src = src_get(g->src, str->span.file)->name;
	const char *slash = strrchr(src, '/');
	if (path[0] != '/' && slash) {
		char *near = xasprintf("%.*s/%s", (int)(slash - src), src, path);
		struct stat st;
		if (stat(near, &st) == 0 && S_ISREG(st.st_mode)) {
			const char *r = cg_cstr(g, near, strlen(near));
			free(near);
			return r;
		}
		free(near);
	}
	return cg_cstr(g, path, str->u.string.len);
}

/* A model name in the spelling of the tables (WEB_SEARCH). */
static const char *model_of(cg *g, const ast_node *id)
{
	char *s = arena_strdup(g->a, id->u.ident.name);
	for (char *c = s; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 'a' + 'A');
	return cg_cstr(g, s, strlen(s));
}

/* ------------------------------------------------------------ statements */

/* The group, declared by cg_traffic around the bodies. */
#define GROUP "cg_grp"

/* GENERATES n MESSAGES OF model TRAFFIC [TO d DESTINATIONS] [AT r GBPS] */
static void messages_body(cg *g, const cg_sym *env, const char *who, void *ud)
{
	const ast_node *n = ud, *model = n->u.traffic_messages.model, *rate = n->u.traffic_messages.rate;
	const char *count = count_of(g, env, n->u.traffic_messages.count, "a message count");
	const char *p = cg_uniq(g, "dcnw");
	const char *gbps = "0.0";
	(void)who;
	if (rate) {
		gbps = cg_uniq(g, "gbps");
		cg_line(g, "const double %s = %s;", gbps, num(g, env, rate));
		cg_line(g, "if (!(%s > 0.0))", gbps);
		cg_line(g, "\trt_fatal(t, \"a traffic rate must be positive (it is %%g Gbps)\", %s);", gbps);
	}
	cg_line(g, "const rt_dcnw_params %s = {", p);
	cg_line(g, "\t.model = %s,", model->kind == AST_IDENT ? model_of(g, model) : "NULL");
	cg_line(g, "\t.cdf_path = %s,", model->kind == AST_STRING ? file_of(g, model) : "NULL");
	cg_line(g, "\t.count = %s,", count);
	cg_line(g, "\t.dest = %s,", dest_of(g, env, n->u.traffic_messages.dest));
	cg_line(g, "\t.gbps = %s,", gbps);
	cg_line(g, "};");
	cg_line(g, "rt_traffic_dcnw(t, " GROUP ", &%s);", p);
}

/* GENERATES n FLOWS OVER T [TO d DESTINATIONS] WITH CLASSES {...} */
static void flows_body(cg *g, const cg_sym *env, const char *who, void *ud)
{
	const ast_node *n = ud;
	const ast_list *cl = &n->u.traffic_flows.classes;
	const char *count = count_of(g, env, n->u.traffic_flows.count, "a flow count");
	const char *cls = cg_uniq(g, "classes"), *p = cg_uniq(g, "flows");
	(void)who;
	cg_line(g, "const rt_flow_class %s[%u] = {", cls, cl->len);
	for (uint32_t i = 0; i < cl->len; i++) {
		const ast_node *c = cl->items[i];
		cg_line(g, "\t{ %s, %s, %s, %s },", bytes_of(g, env, c->u.flow_class.min), bytes_of(g, env, c->u.flow_class.max),
		        num(g, env, c->u.flow_class.percent), dest_of(g, env, c->u.flow_class.dest));
	}
	cg_line(g, "};");
	cg_line(g, "const rt_flows_params %s = {", p);
	cg_line(g, "\t.count = %s,", count);
	cg_line(g, "\t.duration = %s,", duration_ps(g, env, n->u.traffic_flows.over));
	cg_line(g, "\t.dest = %s,", dest_of(g, env, n->u.traffic_flows.dest));
	cg_line(g, "\t.classes = %s,", cls);
	cg_line(g, "\t.nclasses = %u,", cl->len);
	cg_line(g, "};");
	cg_line(g, "rt_traffic_flows(t, " GROUP ", &%s);", p);
}

static const char *const hvd_key[] = {
	[AST_HV_COMPUTE] = "RT_HVD_COMPUTE", [AST_HV_NEGOTIATION_LOOP] = "RT_HVD_NEGOTIATION",
	[AST_HV_GATHERV] = "RT_HVD_GATHERV", [AST_HV_GATHERV_TOTAL] = "RT_HVD_GATHERV_TOTAL",
	[AST_HV_GATHERV_PROBABILITY] = "RT_HVD_GATHERV_PROB", [AST_HV_BROADCAST] = "RT_HVD_BROADCAST",
	[AST_HV_ALLREDUCE] = "RT_HVD_ALLREDUCE",
};

/* The rt_hvd_layer initializer of a horovod_param list (`set` names the keys given). */
static const char *hvd_layer(cg *g, const cg_sym *env, const ast_list *l)
{
	const char *v[AST_HVPARAM_COUNT] = {0};
	const char *set = NULL;
	for (uint32_t i = 0; i < l->len; i++) {
		const ast_node *p = l->items[i], *x = p->u.hv_param.value;
		ast_hvparam k = p->u.hv_param.param;
		switch (k) {
		case AST_HV_COMPUTE:
		case AST_HV_NEGOTIATION_LOOP: v[k] = duration_ps(g, env, x); break;
		case AST_HV_GATHERV_PROBABILITY: v[k] = num(g, env, x); break;
		case AST_HV_GATHERV: v[k] = cg_fmt(g, "(double)%s", bytes_of(g, env, x)); break;
		default: v[k] = bytes_of(g, env, x); break;
		}
		const char *bit = cg_fmt(g, "(1u << %s)", hvd_key[k]);
		set = set ? cg_fmt(g, "%s | %s", set, bit) : bit;
	}
#define V(k, zero) (v[k] ? v[k] : zero)
	return cg_fmt(g, "{ .set = %s, .compute = %s, .negotiation = %s, .gatherv_bytes = %s, .gatherv_total = %s, "
	              ".gatherv_prob = %s, .bcast_bytes = %s, .allreduce_bytes = %s }",
	              set ? set : "0u", V(AST_HV_COMPUTE, "0"), V(AST_HV_NEGOTIATION_LOOP, "0"), V(AST_HV_GATHERV, "0.0"),
	              V(AST_HV_GATHERV_TOTAL, "0"), V(AST_HV_GATHERV_PROBABILITY, "0.0"), V(AST_HV_BROADCAST, "0"),
	              V(AST_HV_ALLREDUCE, "0"));
#undef V
}

/* TRAINS WITH HOROVOD FOR b BATCHES OF l LAYERS WITH ... {AND LAYER k WITH ...} */
static void horovod_body(cg *g, const cg_sym *env, const char *who, void *ud)
{
	const ast_node *n = ud;
	const ast_list *ov = &n->u.horovod.overrides;
	const char *p = cg_uniq(g, "horovod"), *o = ov->len ? cg_uniq(g, "layers") : NULL;
	(void)who;
	if (o) {
		cg_line(g, "const rt_hvd_override %s[%u] = {", o, ov->len);
		for (uint32_t i = 0; i < ov->len; i++) {
			const ast_node *x = ov->items[i];
			cg_line(g, "\t{ %s, %s },", int_of(g, env, x->u.hv_layer.layer), hvd_layer(g, env, &x->u.hv_layer.params));
		}
		cg_line(g, "};");
	}
	cg_line(g, "const rt_horovod_params %s = {", p);
	cg_line(g, "\t.batches = %s,", int_of(g, env, n->u.horovod.batches));
	cg_line(g, "\t.layers = %s,", int_of(g, env, n->u.horovod.layers));
	cg_line(g, "\t.defaults = %s,", hvd_layer(g, env, &n->u.horovod.params));
	cg_line(g, "\t.overrides = %s,", o ? o : "NULL");
	cg_line(g, "\t.noverrides = %u,", ov->len);
	cg_line(g, "};");
	cg_line(g, "rt_traffic_horovod(t, " GROUP ", &%s);", p);
}

/* REPLAYS TRAFFIC FROM "file" */
static void replay_body(cg *g, const cg_sym *env, const char *who, void *ud)
{
	const ast_node *n = ud;
	(void)who;
	(void)env;
	cg_line(g, "rt_traffic_replay(t, " GROUP ", %s);", file_of(g, n->u.replay.path));
}

/* ALL TASKS [v]: the group is the job's world (no list to build); v is bound to task 0. */
static void world_body(cg *g, const cg_sym *env, const ast_node *tasks, cg_body_fn body, const ast_node *n)
{
	const char *var = cg_tasks_var(tasks);
	cg_line(g, "{");
	g->indent++;
	cg_line(g, "const rt_group *cg_grp = rt_world(t);");
	if (var)
		env = cg_bind(g, env, var, "0");
	body(g, env, "0", (void *)n);
	g->indent--;
	cg_line(g, "}");
}

void cg_traffic(cg *g, const cg_sym *env, const ast_node *n)
{
	cg_body_fn body;
	switch (n->kind) {
	case AST_TRAFFIC_MESSAGES: body = messages_body; break;
	case AST_TRAFFIC_FLOWS: body = flows_body; break;
	case AST_TRAFFIC_HOROVOD: body = horovod_body; break;
	default: body = replay_body; break;
	}
	const ast_node *tasks = ast_stmt_tasks(n);
	g->uses_traffic = 1;
	if (tasks->kind == AST_TASK_ALL) {
		world_body(g, env, tasks, body, n);
		return;
	}
	cg_line(g, "{");
	g->indent++;
	cg_tasks_collect(g, env, tasks, "cg_ga", NULL);
	cg_line(g, "if (cg_ga.len && ncsim_ivec_has(&cg_ga, rt_rank(t))) {");
	g->indent++;
	cg_line(g, "const rt_group *cg_grp = &(rt_group){ cg_ga.ptr, (int)cg_ga.len };");
	/* The parameters in the scope of the lowest member: equal on every member. */
	cg_tasks_if_member(g, env, tasks, "cg_ga.ptr[0]", NULL, body, (void *)n);
	g->indent--;
	cg_line(g, "}");
	g->indent--;
	cg_line(g, "}");
}

/*
 * sema_ext.c - the extension statements: file I/O (LANGUAGE.md 14.2) and
 * the traffic models DCNW/CDCNW, FLOWS, HOROVOD and VEF replay (14.3).
 *
 * Contexts (decided here, read by code generation from the notes): sizes,
 * counts, file numbers and layer indices are integers; rates (GBPS),
 * percentages, probabilities, the parameters of destination distributions
 * and the durations of traffic statements are floating point, so that
 * `AT 2.5 GBPS`, `12.5 PERCENT` or `COMPUTE 1.5 MILLISECONDS` mean what they
 * say.  Constants are checked: nothing negative, percentages summing to
 * 100, probabilities in [0,1], layer indices in [0, layers).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang/sema_ext.h"
#include "lang/sema_expr.h"
#include "lang/sema_fold.h"
#include "lang/sema_scope.h"

static const char *const models[] = {
	"WEB_SEARCH", "FB_KEY_VALUE", "FB_CACHE_FOLLOWER", "FB_WEB_SERVER",
	"FB_HADOOP", "GOOGLE_ALL", "GOOGLE_SEARCH", NULL,
};

const char *sx_model_name(const char *name)
{
	for (int i = 0; models[i]; i++)
		if (strcasecmp(models[i], name) == 0)
			return models[i];
	return NULL;
}

int sx_is_ext(ast_kind k)
{
	return k >= AST_IO_OPEN && k <= AST_TRAFFIC_REPLAY;
}

/* Reads a number from [*p, end) after blanks; 0 if there is none. */
static int number(const char **p, const char *end, double *v)
{
	char *stop;
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r'))
		(*p)++;
	if (*p >= end)
		return 0;
	errno = 0;
	*v = strtod(*p, &stop);
	if (stop == *p || stop > end || errno || !isfinite(*v))
		return 0;
	*p = stop;
	return 1;
}

/* True if [p, end) holds only blanks. */
static int blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == end;
}

int sx_check_cdf(const char *text, unsigned *line, char *msg, size_t size)
{
	const char *p = text;
	unsigned ln = 0, rows = 0, last_line = 0;
	int have_mean = 0;
	double v, sz, pr, last_sz = 0.0, last_pr = 0.0;

	*line = 1;
	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p);
		const char *q = p;
		ln++;
		p = eol ? eol + 1 : end;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (blank(q, end) || *q == '#')
			continue;
		*line = ln;
		if (!have_mean) {
			if (!number(&q, end, &v) || !blank(q, end) || v <= 0.0) {
				snprintf(msg, size, "expected the mean message size (a positive number)");
				return -1;
			}
			have_mean = 1;
			continue;
		}
		if (!number(&q, end, &sz) || !number(&q, end, &pr) || !blank(q, end)) {
			snprintf(msg, size, "expected `size cumulative_probability`");
			return -1;
		}
		if (sz < 0.0 || (rows && sz < last_sz)) {
			snprintf(msg, size, "the sizes must be non-negative and must not decrease");
			return -1;
		}
		if (pr < 0.0 || pr > 1.0 + 1e-9 || (rows && pr < last_pr)) {
			snprintf(msg, size, "the probabilities must rise from 0 to 1");
			return -1;
		}
		last_sz = sz;
		last_pr = pr;
		last_line = ln;
		rows++;
	}
	if (!rows) {
		snprintf(msg, size, have_mean ? "no `size cumulative_probability` line" : "the file is empty");
		return -1;
	}
	if (fabs(last_pr - 1.0) > 1e-6) {
		*line = last_line;
		snprintf(msg, size, "the last probability is %g, not 1", last_pr);
		return -1;
	}
	return 0;
}

/* The first line of a VEF trace that is neither blank nor a `#` comment (the reader skips both). */
static const char *vef_header(const char *text)
{
	const char *p = text + strspn(text, " \t\r\n");
	while (*p == '#') {
		const char *eol = strchr(p, '\n');
		if (!eol)
			return "";
		p = eol + strspn(eol, " \t\r\n");
	}
	return p;
}

/* The contents of `path` (relative paths: next to the source file, then in
 * the current directory), or NULL; *used gets the path that was read, *why
 * the reason the last candidate that exists could not be read (0: none exists). */
static char *read_near(sema_ctx *s, const ast_node *at, const char *path, const char **used, int *why)
{
	const src_mgr *m = fe_sources(s->fe);
	const char *src = at->span.file < m->nfiles ? src_get(m, at->span.file)->name : NULL;
	char *cand[2] = { xpath_near(src, path), xstrdup(path) };
	char *text = NULL;

	*why = 0;
	for (int i = 0; i < 2 && !text; i++) {
		size_t len;
		if ((text = xread_file(cand[i], &len, NULL)))
			*used = arena_strdup(s->arena, cand[i]);
		else if (errno != ENOENT)
			*why = errno; /* a directory, a device, a file too large: say so, not "not found" */
	}
	free(cand[0]);
	free(cand[1]);
	return text;
}

/* A file named by a traffic statement: `cdf` selects the size-distribution
 * check; otherwise the file must look like a VEF trace. */
static void check_file(sema_ctx *s, ast_node *str, int cdf, const sema_where *w)
{
	const char *used = NULL, *path = str->u.string.text;
	char msg[160];
	unsigned line;
	char *text;
	int why;

	if (!s->opts->check_files)
		return;
	text = read_near(s, str, path, &used, &why);
	if (!text) {
		sema_warning(s, w, str->span, "%s file \"%s\" %s%s", cdf ? "size-distribution" : "traffic trace", path,
		             why ? "cannot be read: " : "not found", why ? xread_strerror(why) : "");
		return;
	}
	if (cdf && sx_check_cdf(text, &line, msg, sizeof msg) < 0)
		sema_error(s, w, str->span, "malformed size distribution %s, line %u: %s", used, line, msg);
	else if (!cdf && strncmp(vef_header(text), "VEF", 3) != 0)
		sema_error(s, w, str->span, "%s is not a VEF trace (it does not start with \"VEF\")", used);
	free(text);
}

/* A count or number that must not be negative when constant. */
static void non_negative(sema_ctx *s, ast_node *e, const char *what, const sema_where *w)
{
	int64_t v;
	sema_expr(s, e, w);
	if (e && !w->quiet && sf_value_i(e, &v) && v < 0)
		sema_error(s, w, e->span, "%s must not be negative (it is %" PRId64 ")", what, v);
}

/* UNIFORM | GAUSSIAN [WITH MEAN m AND DEVIATION d] | POISSON [WITH MEAN m] */
static void dest_dist(sema_ctx *s, ast_node *d, const sema_where *wf)
{
	double v;
	if (!d)
		return;
	sema_expr(s, d->u.dest_dist.mean, wf);
	sema_expr(s, d->u.dest_dist.deviation, wf);
	if (d->u.dest_dist.deviation && sf_value_f(d->u.dest_dist.deviation, &v) && v < 0.0)
		sema_error(s, wf, d->u.dest_dist.deviation->span, "a deviation must not be negative (it is %g)", v);
	if (d->u.dest_dist.dist == AST_DIST_POISSON && d->u.dest_dist.mean &&
	    sf_value_f(d->u.dest_dist.mean, &v) && v < 0.0)
		sema_error(s, wf, d->u.dest_dist.mean->span, "a Poisson mean must not be negative (it is %g)", v);
}

/* generates N messages of MODEL traffic [to D destinations] [at R gbps] */
static void traffic_messages(sema_ctx *s, ast_node *n, const sema_where *w, const sema_where *wf)
{
	ast_node *model = n->u.traffic_messages.model, *rate = n->u.traffic_messages.rate;
	double r;

	non_negative(s, n->u.traffic_messages.count, "a message count", w);
	if (model->kind == AST_IDENT && !sx_model_name(model->u.ident.name))
		sema_error(s, w, model->span,
		           "unknown traffic model \"%s\" (the models are WEB_SEARCH, FB_KEY_VALUE, FB_CACHE_FOLLOWER, "
		           "FB_WEB_SERVER, FB_HADOOP, GOOGLE_ALL and GOOGLE_SEARCH; a string names a CDF file)",
		           sema_text(s, model));
	else if (model->kind == AST_STRING)
		check_file(s, model, 1, w);
	dest_dist(s, n->u.traffic_messages.dest, wf);
	sema_expr(s, rate, wf);
	if (rate && sf_value_f(rate, &r) && !(r > 0.0))
		sema_error(s, wf, rate->span, "a traffic rate must be positive (it is %g Gbps)", r);
}

/* generates N flows over T with classes {min to max unit for p percent [to D destinations], ...} */
static void traffic_flows(sema_ctx *s, ast_node *n, const sema_where *w, const sema_where *wf)
{
	ast_list *cl = &n->u.traffic_flows.classes;
	double sum = 0.0;
	int all_known = 1;

	non_negative(s, n->u.traffic_flows.count, "a flow count", w);
	sema_amount(s, n->u.traffic_flows.over, "a flow generation time", wf);
	dest_dist(s, n->u.traffic_flows.dest, wf);
	for (uint32_t i = 0; i < cl->len; i++) {
		ast_node *c = cl->items[i];
		int64_t lo, hi;
		double p;
		sema_amount(s, c->u.flow_class.min, "a flow size", w);
		sema_amount(s, c->u.flow_class.max, "a flow size", w);
		if (sf_value_i(c->u.flow_class.min->u.size.value, &lo) && sf_value_i(c->u.flow_class.max->u.size.value, &hi) &&
		    lo > hi)
			sema_error(s, w, c->span, "the smallest size of a flow class (%" PRId64 ") exceeds its largest (%" PRId64 ")",
			           lo, hi);
		sema_expr(s, c->u.flow_class.percent, wf);
		if (sf_value_f(c->u.flow_class.percent, &p)) {
			if (!(p >= 0.0 && p <= 100.0))
				sema_error(s, wf, c->u.flow_class.percent->span,
				           "a flow class percentage must lie between 0 and 100 (it is %g)", p);
			sum += p;
		} else {
			all_known = 0;
		}
		dest_dist(s, c->u.flow_class.dest, wf);
	}
	if (all_known && cl->len && fabs(sum - 100.0) > 1e-9)
		sema_error(s, w, span_union(cl->items[0]->span, cl->items[cl->len - 1]->span),
		           "the flow class percentages must sum to 100 (they sum to %g)", sum);
}

/* "GATHERV TOTAL" for AST_HV_GATHERV_TOTAL. */
static const char *hv_name(sema_ctx *s, ast_hvparam p)
{
	char *u = arena_strdup(s->arena, ast_hvparam_name(p));
	for (char *c = u; *c; c++)
		*c = *c == '_' ? ' ' : (*c >= 'a' && *c <= 'z') ? (char)(*c - 'a' + 'A') : *c;
	return u;
}

/* horovod_param {, horovod_param}: the default list must name all seven. */
static void hv_params(sema_ctx *s, ast_node *stmt, ast_list *l, int defaults, const sema_where *w,
                      const sema_where *wf)
{
	const ast_node *seen[AST_HVPARAM_COUNT] = { 0 };
	for (uint32_t i = 0; i < l->len; i++) {
		ast_node *p = l->items[i], *v = p->u.hv_param.value;
		ast_hvparam k = p->u.hv_param.param;
		double pr;
		if (seen[k])
			sema_error(s, w, p->span, "the HOROVOD parameter %s is given twice", hv_name(s, k));
		seen[k] = p;
		switch (k) {
		case AST_HV_COMPUTE:
		case AST_HV_NEGOTIATION_LOOP:
			sema_amount(s, v, "a HOROVOD duration", wf);
			break;
		case AST_HV_GATHERV_PROBABILITY:
			sema_expr(s, v, wf);
			if (sf_value_f(v, &pr) && !(pr >= 0.0 && pr <= 1.0))
				sema_error(s, wf, v->span, "GATHERV PROBABILITY must lie between 0 and 1 (it is %g)", pr);
			break;
		default:
			sema_amount(s, v, "a HOROVOD size", w);
			break;
		}
	}
	if (!defaults)
		return;
	char missing[256];
	size_t len = 0;
	missing[0] = '\0';
	for (int k = 0; k < AST_HVPARAM_COUNT; k++)
		if (!seen[k] && len < sizeof missing)
			len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "",
			                        hv_name(s, (ast_hvparam)k));
	if (len)
		sema_error(s, w, stmt->span, "HOROVOD needs a default value for every parameter; missing: %s", missing);
}

/* trains with horovod for B batches of L layers with params {and layer k with params} */
static void horovod(sema_ctx *s, ast_node *n, const sema_where *w, const sema_where *wf)
{
	int64_t layers, k;
	int known = 0;
	VEC(int64_t) done = { 0 };

	non_negative(s, n->u.horovod.batches, "a batch count", w);
	non_negative(s, n->u.horovod.layers, "a layer count", w);
	known = sf_value_i(n->u.horovod.layers, &layers);
	hv_params(s, n, &n->u.horovod.params, 1, w, wf);
	for (uint32_t i = 0; i < n->u.horovod.overrides.len; i++) {
		ast_node *o = n->u.horovod.overrides.items[i], *e = o->u.hv_layer.layer;
		sema_expr(s, e, w);
		if (sf_value_i(e, &k)) {
			if (k < 0)
				sema_error(s, w, e->span, "layer %" PRId64 " does not exist (layers are numbered from 0)", k);
			else if (known && k >= layers)
				sema_error(s, w, e->span,
				           "layer %" PRId64 " does not exist (the model has %" PRId64 " layers, numbered from 0)",
				           k, layers);
			for (size_t j = 0; j < done.len; j++)
				if (done.ptr[j] == k)
					sema_error(s, w, e->span, "layer %" PRId64 " is overridden twice", k);
			VEC_PUSH(&done, k);
		}
		hv_params(s, n, &o->u.hv_layer.params, 0, w, wf);
	}
	VEC_FREE(&done);
}

void sx_stmt(sema_ctx *s, ast_node *n)
{
	sema_where w = sema_where_int(), wf = w;
	wf.ctx = SEMA_CTX_FLOAT;

	ss_push(s);
	sema_task_desc(s, ast_stmt_tasks(n), SEMA_SOURCE, &w);
	switch (n->kind) {
	case AST_IO_OPEN:
		s->info->uses_io = 1;
		non_negative(s, n->u.io_open.file, "a file number", &w);
		break;
	case AST_IO_CLOSE:
		s->info->uses_io = 1;
		non_negative(s, n->u.io_close.file, "a file number", &w);
		break;
	case AST_IO_READ:
	case AST_IO_WRITE:
		s->info->uses_io = 1;
		sema_amount(s, n->u.io.size, "an I/O size", &w);
		non_negative(s, n->u.io.file, "a file number", &w);
		sema_amount(s, n->u.io.offset, "a file offset", &w);
		break;
	case AST_TRAFFIC_MESSAGES:
		s->info->uses_traffic = s->info->uses_random = 1;
		traffic_messages(s, n, &w, &wf);
		break;
	case AST_TRAFFIC_FLOWS:
		s->info->uses_traffic = s->info->uses_random = 1;
		traffic_flows(s, n, &w, &wf);
		break;
	case AST_TRAFFIC_HOROVOD:
		s->info->uses_traffic = s->info->uses_random = 1;
		horovod(s, n, &w, &wf);
		break;
	case AST_TRAFFIC_REPLAY:
		s->info->uses_traffic = s->info->uses_random = 1;
		check_file(s, n->u.replay.path, 0, &w);
		break;
	default:
		break;
	}
	ss_pop(s);
}

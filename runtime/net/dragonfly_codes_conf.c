/*
 * dragonfly_codes_conf.c - CODES dragonfly-dally configuration files, the
 * reader behind `--system file.conf` (doc/dragonfly.md, "CODES files").
 *
 * A CODES file is read with CODES' defaults and semantics, so that the same
 * file describes the same machine in both simulators: the PARAMS keys that
 * dragonfly_read_config (dragonfly-dally.C) reads, with its defaults; the
 * semantic keys set to CODES' column (router delay charged on the way out
 * and not holding the port, credits on acceptance, CODES' VCs and routing
 * rules); LPGROUPS checked against the topology, with MFNetSim's storage
 * servers (codes-store LPs) read as burst-buffer nodes; and every other
 * setting reported as ignored or approximated, with its file:line, in
 * df_codes_info.notes (`ncsim run --describe`).
 *
 * Connection-file names may start with a placeholder such as
 * [path-to-experiment] (MFNetSim's configurations do): it stands for the
 * --codes-root folder, or else for the nearest of the file's folder and its
 * parents under which the named file exists. Other relative names are
 * taken from --codes-root, else from the file's folder, else from the
 * working folder (CODES' own rule).
 *
 * Syntax, as far as these files use it:
 *   file   := block*
 *   block  := NAME '{' (block | pair)* '}'
 *   pair   := NAME '=' (value | '(' value (',' value)* ')') ';'
 *   value  := '"' text '"' | bare-word
 * '#' starts a comment that runs to the end of the line.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/net/dragonfly_model.h"
#include "base/checked.h"
#include "base/util.h"

#define GIB 1073741824.0

typedef struct codes_kv {
	char *top, *block, *key, *val; /* outermost and innermost block ("" outside any) */
	int line;
	int used;                      /* read by ncsim: no note */
} codes_kv;

typedef struct codes_blk {
	char *top, *name;
	int line;
} codes_blk;

typedef struct codes_file {
	const char *path;
	const char *p;
	int line;
	VEC(codes_kv) kv;
	VEC(codes_blk) blk;
	const char *root;  /* --codes-root, or NULL */
	FILE *notes;       /* where notes go, or NULL */
} codes_file;

/* ------------------------------------------------------------- syntax */

static void cf_skip(codes_file *f)
{
	for (;;) {
		while (*f->p && isspace((unsigned char)*f->p)) {
			if (*f->p == '\n')
				f->line++;
			f->p++;
		}
		if (*f->p != '#')
			return;
		while (*f->p && *f->p != '\n')
			f->p++;
	}
}

static int cf_word_char(int ch)
{
	return isalnum(ch) || ch == '_' || ch == '-' || ch == '.' || ch == '/' || ch == '+' || ch == ':' || ch == '@';
}

/* Reads a bare word or a quoted string into a fresh heap string; NULL if neither. */
static char *cf_value(codes_file *f)
{
	const char *s = f->p;
	if (*s == '"') {
		const char *e = strchr(s + 1, '"');
		if (!e || memchr(s + 1, '\n', (size_t)(e - s - 1)))
			return NULL;
		f->p = e + 1;
		return xstrndup(s + 1, (size_t)(e - s - 1));
	}
	while (cf_word_char((unsigned char)*f->p))
		f->p++;
	return f->p > s ? xstrndup(s, (size_t)(f->p - s)) : NULL;
}

/* value | '(' value (',' value)* ')': the list's first element (dragonfly keys are scalars). NULL after *err. */
static char *cf_rhs(codes_file *f, char **err)
{
	char *val = NULL;
	if (*f->p != '(') {
		if (!(val = cf_value(f)))
			df_fail(err, "%s:%d: expected a value", f->path, f->line);
		return val;
	}
	f->p++;
	for (;;) {
		cf_skip(f);
		char *item = cf_value(f);
		if (!item) {
			free(val);
			df_fail(err, "%s:%d: bad list", f->path, f->line);
			return NULL;
		}
		if (!val)
			val = item;
		else
			free(item);
		cf_skip(f);
		if (*f->p == ',') {
			f->p++;
		} else if (*f->p == ')') {
			f->p++;
			return val;
		} else {
			free(val);
			df_fail(err, "%s:%d: expected ',' or ')'", f->path, f->line);
			return NULL;
		}
	}
}

/* Dragonfly files nest two deep (LPGROUPS { MODELNET_GRP { ... } }); the bound keeps recursion off the stack's end. */
#define CF_MAX_DEPTH 32

/* block contents up to its '}' (the end of the file at depth 0). */
static int cf_parse_block(codes_file *f, const char *top, const char *block, int depth, char **err)
{
	for (;;) {
		cf_skip(f);
		if (!*f->p)
			return depth ? df_fail(err, "%s:%d: missing '}'", f->path, f->line) : 0;
		if (*f->p == '}') {
			if (!depth)
				return df_fail(err, "%s:%d: unexpected '}'", f->path, f->line);
			f->p++;
			return 0;
		}
		int line = f->line;
		char *name = cf_value(f);
		if (!name)
			return df_fail(err, "%s:%d: expected a name", f->path, f->line);
		cf_skip(f);
		if (*f->p == '{') {
			if (depth >= CF_MAX_DEPTH) {
				free(name);
				return df_fail(err, "%s:%d: blocks nested more than %d deep", f->path, f->line, CF_MAX_DEPTH);
			}
			f->p++;
			codes_blk b = {xstrdup(depth ? top : name), name, line};
			VEC_PUSH(&f->blk, b);
			if (cf_parse_block(f, b.top, name, depth + 1, err))
				return -1;
			continue;
		}
		if (*f->p != '=') {
			free(name);
			return df_fail(err, "%s:%d: expected '=' or '{'", f->path, f->line);
		}
		f->p++;
		cf_skip(f);
		char *val = cf_rhs(f, err);
		if (!val) {
			free(name);
			return -1;
		}
		cf_skip(f);
		if (*f->p == ';')
			f->p++;
		codes_kv kv = {xstrdup(depth ? top : ""), xstrdup(depth ? block : ""), name, val, line, 0};
		VEC_PUSH(&f->kv, kv);
	}
}

int df_is_codes_conf(const char *path)
{
	char *err = NULL;
	char *text = xread_text(path, "system file", &err);
	if (!text) {
		free(err); /* not readable as text: not a CODES file (the native reader says why) */
		return 0;
	}
	codes_file f = {.path = path, .p = text, .line = 1};
	int found = 0;
	/* The first significant token is a block name followed by '{'. */
	cf_skip(&f);
	char *name = cf_value(&f);
	if (name) {
		cf_skip(&f);
		found = *f.p == '{' && (!strcmp(name, "LPGROUPS") || !strcmp(name, "PARAMS"));
		free(name);
	}
	free(text);
	return found;
}

/* ------------------------------------------------------------- lookups */

/* Key `key` of block `block` inside `top` (first occurrence), marked as read; NULL if absent. */
static codes_kv *cf_find(codes_file *f, const char *top, const char *block, const char *key)
{
	for (size_t i = 0; i < f->kv.len; i++) {
		codes_kv *kv = &f->kv.ptr[i];
		if (!strcmp(kv->top, top) && !strcmp(kv->block, block) && !strcmp(kv->key, key)) {
			kv->used = 1;
			return kv;
		}
	}
	return NULL;
}

static codes_kv *param(codes_file *f, const char *key) { return cf_find(f, "PARAMS", "PARAMS", key); }

/* The line of the PARAMS header (where a missing key is reported), 1 if there is none. */
static int params_line(const codes_file *f)
{
	for (size_t i = 0; i < f->blk.len; i++)
		if (!strcmp(f->blk.ptr[i].name, "PARAMS"))
			return f->blk.ptr[i].line;
	return 1;
}

/* A non-negative number in kv's value into *out. 0, or -1 with *err. */
static int kv_num(const codes_file *f, const codes_kv *kv, double *out, char **err)
{
	char *end;
	errno = 0;
	double v = strtod(kv->val, &end);
	if (end == kv->val || *end || errno || !(v >= 0) || v > 1e18)
		return df_fail(err, "%s:%d: %s: '%s' is not a non-negative number", f->path, kv->line, kv->key, kv->val);
	*out = v;
	return 0;
}

/* A PARAMS number: 1 found, 0 absent (*out untouched), -1 malformed. */
static int cf_num(codes_file *f, const char *key, double *out, char **err)
{
	const codes_kv *kv = param(f, key);
	if (!kv)
		return 0;
	return kv_num(f, kv, out, err) < 0 ? -1 : 1;
}

/* A whole number of kv's value, at most max. 0, or -1 with *err. */
static int kv_count(const codes_file *f, const codes_kv *kv, double max, uint32_t *out, char **err)
{
	double v;
	if (kv_num(f, kv, &v, err) < 0)
		return -1;
	if (v > max || v != (double)(uint32_t)v) /* range first: casting a double past UINT32_MAX is undefined */
		return df_fail(err, "%s:%d: %s must be a whole number up to %.0f", f->path, kv->line, kv->key, max);
	*out = (uint32_t)v;
	return 0;
}

/* A PARAMS whole number: 1 found, 0 absent, -1 malformed. */
static int cf_u32(codes_file *f, const char *key, uint32_t *out, char **err)
{
	const codes_kv *kv = param(f, key);
	if (!kv)
		return 0;
	return kv_count(f, kv, 4294967295.0, out, err) < 0 ? -1 : 1;
}

/* Records what ncsim does with a setting ncsim does not model as CODES does. */
static void note(codes_file *f, const codes_kv *kv, const char *why)
{
	if (f->notes)
		fprintf(f->notes, "%s:%d: %s = %s: %s\n", f->path, kv->line, kv->key, kv->val, why);
}

/* Saturates at CK_OVERFLOW: a huge delay (or a tiny bandwidth) must not be cast out of range. */
static ncsim_time_t ns_to_ps(double ns) { return ck_round_u64(ns * 1000.0); }

/* CODES' bytes_to_ns: the time to put `bytes` on a link of `gib` GiB/s, in ns. */
static double codes_bytes_to_ns(double bytes, double gib) { return bytes / GIB / gib * 1e9; }

/* ------------------------------------------------------------- PARAMS */

/* Settings CODES has and ncsim's dragonfly has not: only their neutral value is accepted. */
static int unsupported(codes_file *f, char **err)
{
	static const char *const one[] = {"num_rails", "num_planes", "num_qos_levels", "num_parallel_switch_conns",
	                                  "num_injection_queues"};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
		double v;
		int rc = cf_num(f, one[i], &v, err);
		if (rc < 0)
			return -1;
		if (rc && v != 1)
			return df_fail(err, "%s:%d: %s = %g is not supported by ncsim's dragonfly (only 1)", f->path,
			               param(f, one[i])->line, one[i], v);
	}
	const codes_kv *kv = param(f, "link-failure-file");
	if (kv)
		return df_fail(err, "%s:%d: link-failure-file is not supported", f->path, kv->line);
	double cc = 0;
	if (cf_num(f, "congestion_control_enabled", &cc, err) < 0)
		return -1;
	if (cc != 0)
		return df_fail(err, "%s:%d: congestion_control_enabled: CODES' congestion control is not modelled", f->path,
		               param(f, "congestion_control_enabled")->line);
	if ((kv = param(f, "modelnet_scheduler")) && !strcmp(kv->val, "fcfs-full"))
		return df_fail(err, "%s:%d: modelnet_scheduler = fcfs-full (every message one packet) is not modelled; "
		               "use fcfs", f->path, kv->line);
	if (kv && strcmp(kv->val, "fcfs"))
		note(f, kv, "approximated: ncsim's NICs send their messages first come, first served (fcfs)");
	return 0;
}

/* num_groups, num_routers, num_cns_per_router (num_routers / 2), num_global_channels (10). */
static int shape(df_config *c, codes_file *f, char **err)
{
	int rc;
	if ((rc = cf_u32(f, "num_groups", &c->groups, err)) <= 0)
		return rc ? -1 : df_fail(err, "%s:%d: PARAMS has no num_groups", f->path, params_line(f));
	if ((rc = cf_u32(f, "num_routers", &c->routers, err)) <= 0)
		return rc ? -1 : df_fail(err, "%s:%d: PARAMS has no num_routers", f->path, params_line(f));
	c->nodes = c->routers / 2;
	c->globals = 10;
	return cf_u32(f, "num_cns_per_router", &c->nodes, err) < 0 ||
	       cf_u32(f, "num_global_channels", &c->globals, err) < 0 ? -1 : 0;
}

/*
 * Packets and chunks: without packet_size CODES uses 512 B packets
 * (model-net's default) and resets chunk_size to 512 B too
 * (dragonfly_read_config does so whatever chunk_size says).
 */
static int sizes(df_config *c, codes_file *f, double *chunk, char **err)
{
	double packet = 512, rdelay = 100;
	*chunk = 512;
	int have_packet;
	if (cf_num(f, "chunk_size", chunk, err) < 0 || (have_packet = cf_num(f, "packet_size", &packet, err)) < 0 ||
	    cf_num(f, "router_delay", &rdelay, err) < 0)
		return -1;
	if (!have_packet) {
		const codes_kv *kv = param(f, "chunk_size");
		if (kv && *chunk != 512)
			note(f, kv, "without packet_size CODES uses 512 B packets and 512 B chunks, and so does ncsim");
		*chunk = packet = 512;
	}
	const codes_kv *bad = packet < 1 || packet > (1u << 24) ? param(f, "packet_size") : param(f, "chunk_size");
	if (*chunk < 1 || packet < 1 || packet > (1u << 24) || *chunk > (1u << 24))
		return df_fail(err, "%s:%d: chunk_size and packet_size must be between 1 B and 16 MiB", f->path,
		               bad ? bad->line : params_line(f));
	c->chunk_size = (uint32_t)*chunk;
	c->packet_size = (uint32_t)packet;
	c->router_delay = ns_to_ps(rdelay);
	return 0;
}

/* VC sizes, bandwidths and link delays (one chunk's serialization when absent). */
static int links(df_config *c, codes_file *f, double chunk, double gib[DF_NCLASSES], char **err)
{
	static const char *const vckey[DF_NCLASSES] = {"cn_vc_size", "local_vc_size", "global_vc_size"};
	static const char *const bwkey[DF_NCLASSES] = {"cn_bandwidth", "local_bandwidth", "global_bandwidth"};
	static const char *const dkey[DF_NCLASSES] = {"cn_delay", "local_delay", "global_delay"};
	double vc[DF_NCLASSES] = {1024, 1024, 2048};
	gib[DF_TERMINAL] = gib[DF_LOCAL] = 5.25;
	gib[DF_GLOBAL] = 4.7;
	for (int k = 0; k < DF_NCLASSES; k++) {
		if (cf_num(f, vckey[k], &vc[k], err) < 0 || cf_num(f, bwkey[k], &gib[k], err) < 0)
			return -1;
		if (!(gib[k] > 0))
			return df_fail(err, "%s:%d: %s must be positive", f->path, param(f, bwkey[k])->line, bwkey[k]);
		/* Truncated as before, saturating instead of casting out of range; validation refuses sizes past 2 GiB. */
		c->vc_size[k] = vc[k] < 18446744073709551616.0 ? (uint64_t)vc[k] : CK_OVERFLOW;
		c->bw[k] = gib[k] * GIB;
		double d = codes_bytes_to_ns(chunk, gib[k]);
		if (cf_num(f, dkey[k], &d, err) < 0)
			return -1;
		c->latency[k] = ns_to_ps(d);
	}
	return 0;
}

/* Credit delays, by dragonfly_read_config's rules and errors. */
static int credits(df_config *c, codes_file *f, const double gib[DF_NCLASSES], char **err)
{
	static const char *const ckey[DF_NCLASSES] = {"cn_credit_delay", "local_credit_delay", "global_credit_delay"};
	double credit_size = 8, general = 0, autoflag = 0, cd[DF_NCLASSES];
	int have[DF_NCLASSES], nspec = 0, have_general;
	if (cf_num(f, "credit_size", &credit_size, err) < 0 || (have_general = cf_num(f, "credit_delay", &general, err)) < 0 ||
	    cf_num(f, "auto_credit_delay", &autoflag, err) < 0)
		return -1;
	for (int k = 0; k < DF_NCLASSES; k++) {
		if ((have[k] = cf_num(f, ckey[k], &cd[k], err)) < 0)
			return -1;
		nspec += have[k];
	}
	if (have_general && nspec == DF_NCLASSES)
		return df_fail(err, "%s:%d: credit_delay and all three class credit delays are set (CODES refuses this)",
		               f->path, param(f, "credit_delay")->line);
	if (autoflag && (have_general || nspec))
		return df_fail(err, "%s:%d: auto_credit_delay with an explicit credit delay (CODES refuses this)", f->path,
		               param(f, "auto_credit_delay")->line);
	for (int k = 0; k < DF_NCLASSES; k++) {
		double d;
		if (have_general)
			d = general; /* CODES then ignores the class keys */
		else if (have[k])
			d = cd[k];
		else if (!nspec && !autoflag)
			d = codes_bytes_to_ns(credit_size, gib[DF_LOCAL]); /* legacy: every class from the local bandwidth */
		else
			d = codes_bytes_to_ns(credit_size, gib[k]);
		c->credit_delay[k] = ns_to_ps(d);
		if (have_general && have[k])
			note(f, param(f, ckey[k]), "CODES uses credit_delay for every class when it is set, and so does ncsim");
	}
	return 0;
}

/* routing and the keys of its decisions. */
static int routing(df_config *c, codes_file *f, char **err)
{
	const codes_kv *kv = param(f, "routing");
	c->routing = DF_ROUTE_MINIMAL;
	if (kv && !strcmp(kv->val, "adaptive")) {
		c->routing = DF_ROUTE_UGAL;
		note(f, kv, "CODES' dragonfly-dally stops on it (not implemented); ncsim makes PAR's test at the source "
		            "router only");
	} else if (kv && !strcmp(kv->val, "prog-adaptive")) {
		c->routing = DF_ROUTE_PAR;
	} else if (kv && (!strcmp(kv->val, "nonminimal") || !strcmp(kv->val, "non-minimal"))) {
		c->routing = DF_ROUTE_VALIANT;
	} else if (kv && strcmp(kv->val, "minimal")) {
		return df_fail(err, "%s:%d: routing '%s' is not modelled (minimal, non-minimal, adaptive, prog-adaptive)",
		               f->path, kv->line, kv->val);
	}
	double th = 0, k = 2;
	if (cf_num(f, "adaptive_threshold", &th, err) < 0 || cf_num(f, "global_k_picks", &k, err) < 0)
		return -1;
	if (k < 1 || k > 255 || k != (double)(uint32_t)k)
		return df_fail(err, "%s:%d: global_k_picks must be a whole number from 1 to 255", f->path,
		               param(f, "global_k_picks")->line);
	c->adaptive_threshold = (uint64_t)th;
	c->k_picks = (uint32_t)k;
	c->scoring = DF_SCORE_DELTA;
	if ((kv = param(f, "route_scoring_metric")) && !strcmp(kv->val, "alpha"))
		c->scoring = DF_SCORE_ALPHA;
	else if (kv && strcmp(kv->val, "delta"))
		return df_fail(err, "%s:%d: route_scoring_metric '%s' is not modelled (alpha, delta; CODES has no other)",
		               f->path, kv->line, kv->val);
	return 0;
}

/* ------------------------------------------------------------- files */

/* 1 if path names a readable regular file. */
static int readable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* A placeholder name "[...]/rest": the file rest under --codes-root, or under the nearest folder from the file's up. */
static char *placeholder(codes_file *f, const codes_kv *kv, const char *rest, char **err)
{
	while (*rest == '/')
		rest++;
	if (f->root) {
		char *p = xasprintf("%s/%s", f->root, rest);
		if (readable(p))
			return p;
		df_fail(err, "%s:%d: %s: no file %s (the placeholder stands for --codes-root)", f->path, kv->line, kv->key, p);
		free(p);
		return NULL;
	}
	char *dir = realpath(f->path, NULL);
	for (char *slash; dir && (slash = strrchr(dir, '/'));) {
		*slash = '\0';
		char *p = xasprintf("%s/%s", *dir ? dir : "", rest);
		if (readable(p)) {
			free(dir);
			return p;
		}
		free(p);
	}
	free(dir);
	df_fail(err, "%s:%d: %s: no %s under the file's folder or its parents; give the folder the placeholder "
	        "stands for with --codes-root DIR", f->path, kv->line, kv->key, rest);
	return NULL;
}

/* The connection file a PARAMS key names (see the top of this file). NULL after *err. */
static char *conn_file(codes_file *f, const char *key, char **err)
{
	const codes_kv *kv = param(f, key);
	if (!kv) {
		df_fail(err, "%s:%d: PARAMS has no %s", f->path, params_line(f), key);
		return NULL;
	}
	if (strchr(kv->val, '#')) {
		df_fail(err, "%s:%d: %s: a file name with '#' is not supported", f->path, kv->line, key);
		return NULL;
	}
	const char *close = kv->val[0] == '[' ? strchr(kv->val, ']') : NULL;
	if (close)
		return placeholder(f, kv, close + 1, err);
	char *p = kv->val[0] == '/' ? xstrdup(kv->val)
	          : f->root ? xasprintf("%s/%s", f->root, kv->val) : xpath_near(f->path, kv->val);
	if (!f->root && !readable(p) && readable(kv->val)) {
		free(p);
		p = xstrdup(kv->val);
	}
	if (readable(p))
		return p;
	df_fail(err, "%s:%d: %s: cannot read %s", f->path, kv->line, key, p);
	free(p);
	return NULL;
}

/* ------------------------------------------------------------- LPGROUPS */

/* A setting ncsim knows and does not model, and why. */
typedef struct cf_role {
	const char *name, *why;
} cf_role;

/* The `why` of name in roles[0..n), or NULL. */
static const char *role_of(const cf_role *roles, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, roles[i].name))
			return roles[i].why;
	return NULL;
}

/* What ncsim does with an LP type of LPGROUPS that is not the dragonfly's. */
static const char *lp_role(const char *type)
{
	static const cf_role roles[] = {
		{"nw-lp", "CODES' workload LPs; ncsim runs the program or workload given to it"},
		{"test-checkpoint-client", "MFNetSim's checkpoint clients; ncsim runs the program or workload given to it"},
		{"lsm", "the disk of each codes-store server; ncsim runs an [lsm] device with its first size bin"},
		{"resource", "the space of codes-store; ncsim reserves storage_size per server instead"},
		{"codes-external-store", "external storage; ncsim's storage area network (san_bandwidth, san_latency) "
		                         "stands for it"},
		{"modelnet_simplenet", "the network to external storage; ncsim's storage area network stands for it"},
	};
	return role_of(roles, sizeof roles / sizeof roles[0], type);
}

/* One group of LPGROUPS: its repetitions and the LPs ncsim knows. */
typedef struct lp_group {
	uint32_t reps, terminals, routers, stores, clients; /* per repetition */
} lp_group;

static int lp_group_read(codes_file *f, const codes_blk *b, lp_group *g, char **err)
{
	*g = (lp_group){0};
	const codes_kv *reps = cf_find(f, "LPGROUPS", b->name, "repetitions");
	if (!reps)
		return df_fail(err, "%s:%d: group %s has no repetitions", f->path, b->line, b->name);
	if (kv_count(f, reps, 1e9, &g->reps, err) < 0)
		return -1;
	for (size_t i = 0; i < f->kv.len; i++) {
		codes_kv *kv = &f->kv.ptr[i];
		if (strcmp(kv->top, "LPGROUPS") || strcmp(kv->block, b->name) || kv == reps)
			continue;
		uint32_t n;
		if (kv_count(f, kv, 1e9, &n, err) < 0)
			return -1;
		kv->used = 1;
		if (!strcmp(kv->key, "modelnet_dragonfly_dally"))
			g->terminals = n;
		else if (!strcmp(kv->key, "modelnet_dragonfly_dally_router"))
			g->routers = n;
		else if (!strcmp(kv->key, "codes-store"))
			g->stores = n;
		else if (!strcmp(kv->key, "test-checkpoint-client") || !strcmp(kv->key, "nw-lp")) {
			g->clients += n;
			note(f, kv, lp_role(kv->key));
		} else if (lp_role(kv->key))
			note(f, kv, lp_role(kv->key));
		else if (!strncmp(kv->key, "modelnet_", 9))
			return df_fail(err, "%s:%d: %s is another CODES network model; ncsim reads dragonfly-dally files",
			               f->path, kv->line, kv->key);
		else
			note(f, kv, "an LP type ncsim does not model");
	}
	if (g->stores > g->terminals)
		return df_fail(err, "%s:%d: %u codes-store LPs, but a repetition of %s has %u dragonfly terminals (each "
		               "server needs a terminal of its own)", f->path, b->line, g->stores, b->name, g->terminals);
	return 0;
}

/*
 * Checks LPGROUPS against PARAMS and collects the burst-buffer nodes.
 * MFNetSim maps its servers with CODES' "group modulo reverse" context: the
 * i-th codes-store LP of a repetition sits on the repetition's last terminal
 * but i, while workload LPs take the terminals from the first (group
 * modulo). Terminals are numbered across groups and repetitions in file
 * order; the servers are listed in their LP order (2r, 2r + 1, ...). No
 * LPGROUPS: nothing to check.
 */
static int lpgroups(const df_config *c, codes_file *f, df_codes_info *info, char **err)
{
	uint64_t terms = 0, routers = 0;
	int line = 0, fill = 1;
	for (size_t i = 0; i < f->blk.len; i++) {
		const codes_blk *b = &f->blk.ptr[i];
		if (strcmp(b->top, "LPGROUPS") || !strcmp(b->name, "LPGROUPS"))
			continue;
		lp_group g;
		if (lp_group_read(f, b, &g, err) < 0)
			return -1;
		if (!line && (g.terminals || g.routers))
			line = b->line;
		if ((uint64_t)g.reps * g.terminals > UINT32_MAX - terms || (uint64_t)g.reps * g.routers > UINT32_MAX - routers)
			return df_fail(err, "%s:%d: LPGROUPS describes too many LPs", f->path, b->line);
		for (uint32_t r = 0; info && g.stores && r < g.reps; r++)
			for (uint32_t s = 0; s < g.stores; s++) {
				info->bb_nodes = xreallocarray(info->bb_nodes, info->nbb + 1, sizeof *info->bb_nodes);
				info->bb_nodes[info->nbb++] = (uint32_t)(terms + (uint64_t)r * g.terminals + g.terminals - 1 - s);
			}
		if (g.terminals && g.clients + g.stores != g.terminals)
			fill = 0;
		terms += (uint64_t)g.reps * g.terminals;
		routers += (uint64_t)g.reps * g.routers;
	}
	uint64_t want_r = (uint64_t)c->groups * c->routers, want_t = want_r * c->nodes;
	if (line && (terms != want_t || routers != want_r))
		return df_fail(err, "%s:%d: LPGROUPS describes %llu routers and %llu terminals, PARAMS %llu and %llu", f->path,
		               line, (unsigned long long)routers, (unsigned long long)terms, (unsigned long long)want_r,
		               (unsigned long long)want_t);
	if (info)
		info->clients_fill = fill && info->nbb > 0;
	return 0;
}

/* Number `key` of top-level section `sec` into *v when present. 0, or -1 with *err. */
static int sec_num(codes_file *f, const char *sec, const char *key, double *v, char **err)
{
	const codes_kv *kv = cf_find(f, sec, sec, key);
	return kv ? kv_num(f, kv, v, err) : 0;
}

/*
 * The burst-buffer servers' settings: codes-store's pipeline and space, and
 * the lsm disk's first size bin (CODES' lsm picks the bin by request size;
 * MFNetSim's files have one bin, "0", for every size). The defaults are the
 * values MFNetSim publishes, for files that leave a key out.
 */
static int store_settings(codes_file *f, df_codes_info *info, char **err)
{
	info->store.threads = 4;
	info->store.block = 1e6;
	info->store.capacity = 6.4e12;
	info->store.mib_s = 5700;
	info->store.seek_us = 2500;
	info->store.overhead_us = 20;
	const codes_kv *th = cf_find(f, "codes-store", "codes-store", "req_threads");
	if (th && kv_count(f, th, 65535, &info->store.threads, err) < 0)
		return -1;
	if (sec_num(f, "codes-store", "thread_buf_sz", &info->store.block, err) < 0 ||
	    sec_num(f, "codes-store", "storage_size", &info->store.capacity, err) < 0 ||
	    sec_num(f, "lsm", "write_rates", &info->store.mib_s, err) < 0 ||
	    sec_num(f, "lsm", "write_seeks", &info->store.seek_us, err) < 0 ||
	    sec_num(f, "lsm", "write_overheads", &info->store.overhead_us, err) < 0)
		return -1;
	const codes_kv *bad = !info->store.threads ? th : NULL;
	if (!bad && !(info->store.block >= 1))
		bad = cf_find(f, "codes-store", "codes-store", "thread_buf_sz");
	if (!bad && !(info->store.mib_s > 0))
		bad = cf_find(f, "lsm", "lsm", "write_rates");
	if (!bad && !(info->store.capacity >= 1))
		bad = cf_find(f, "codes-store", "codes-store", "storage_size");
	if (bad)
		return df_fail(err, "%s:%d: %s must be positive", f->path, bad->line, bad->key);
	return 0;
}

/* ------------------------------------------------------------- notes */

/* Why ncsim does not read a PARAMS key it knows. */
static const char *param_role(const char *key)
{
	static const cf_role roles[] = {
		{"message_size", "the size of ROSS's event records; nothing to simulate"},
		{"modelnet_order", "the order of CODES' network models; ncsim has one network"},
		{"minimal-bias", "CODES' dragonfly-dally does not read it either"},
		{"df-dally-vc", "CODES' dragonfly-dally does not read it either"},
		{"counting_bool", "MFNetSim's per-application traffic counters; statistics only"},
		{"counting_start", "MFNetSim's per-application traffic counters; statistics only"},
		{"counting_windows", "MFNetSim's per-application traffic counters; statistics only"},
		{"counting_interval", "MFNetSim's per-application traffic counters; statistics only"},
		{"num_apps", "MFNetSim's per-application traffic counters; statistics only"},
		{"offset", "MFNetSim's application id offset; statistics only"},
		{"net_bw_mbps", "simplenet, the link to external storage; ncsim's [storage] san_bandwidth keeps its default"},
		{"net_startup_ns", "simplenet, the link to external storage; ncsim's [storage] san_latency keeps its default"},
		{"rail_select", "only one rail"},
		{"qos_bandwidth", "only one QoS level"},
		{"cn_sample_file", "CODES' sampling output"},
		{"rt_sample_file", "CODES' sampling output"},
		{"notification_on_hops_greater_than", "a CODES debugging message"},
		{"end_time", "give --until instead"},
	};
	const char *why = role_of(roles, sizeof roles / sizeof roles[0], key);
	return why ? why : "ncsim does not read this key";
}

/* A note for every setting nothing read: PARAMS keys one by one, other sections as a whole. */
static void notes_unread(codes_file *f)
{
	for (size_t i = 0; f->notes && i < f->kv.len; i++) {
		const codes_kv *kv = &f->kv.ptr[i];
		if (!kv->used && !strcmp(kv->top, "PARAMS"))
			note(f, kv, param_role(kv->key));
	}
	for (size_t i = 0; f->notes && i < f->blk.len; i++) {
		const codes_blk *b = &f->blk.ptr[i];
		if (strcmp(b->top, b->name) || !strcmp(b->name, "PARAMS") || !strcmp(b->name, "LPGROUPS"))
			continue;
		const char *why = lp_role(b->name);
		fprintf(f->notes, "%s:%d: section %s: %s\n", f->path, b->line, b->name,
		        !strcmp(b->name, "codes-store") ? "burst-buffer servers: req_threads, thread_buf_sz and storage_size "
		        "become [storage] threads, block_size and the disk's capacity; memory_size and bb_threshold are not "
		        "modelled (every chunk goes to the disk; no drain)"
		        : why ? why : "ncsim does not read this section");
	}
}

/* ------------------------------------------------------------- reading */

/* The CODES key that sets the native key df_config_check names (NULL: none). */
static const char *codes_key(const char *native)
{
	static const char *const map[][2] = {
		{"groups", "num_groups"}, {"routers_per_group", "num_routers"}, {"nodes_per_router", "num_cns_per_router"},
		{"global_links_per_router", "num_global_channels"}, {"terminal_bandwidth", "cn_bandwidth"},
		{"local_bandwidth", "local_bandwidth"}, {"global_bandwidth", "global_bandwidth"},
		{"terminal_vc_size", "cn_vc_size"}, {"local_vc_size", "local_vc_size"}, {"global_vc_size", "global_vc_size"},
		{"packet_size", "packet_size"}, {"chunk_size", "chunk_size"}, {"routing", "routing"},
	};
	for (size_t i = 0; native && i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(native, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The whole configuration of f into c; a validation error names the CODES key's line. */
static int codes_fill(df_config *c, codes_file *f, df_codes_info *info, char **err)
{
	double chunk, gib[DF_NCLASSES];
	if (unsupported(f, err) < 0 || shape(c, f, err) < 0 || sizes(c, f, &chunk, err) < 0 ||
	    links(c, f, chunk, gib, err) < 0 || credits(c, f, gib, err) < 0 || routing(c, f, err) < 0)
		return -1;
	df_config_codes_semantics(c);
	c->arrangement = DF_ARR_FILE;
	if (!(c->intra_file = conn_file(f, "intra-group-connections", err)) ||
	    !(c->inter_file = conn_file(f, "inter-group-connections", err)) || lpgroups(c, f, info, err) < 0 ||
	    (info && info->nbb && store_settings(f, info, err) < 0))
		return -1;
	const char *bad;
	if (df_config_check(c, &bad, err) < 0) {
		const codes_kv *kv = codes_key(bad) ? param(f, codes_key(bad)) : NULL;
		char *m = xasprintf("%s:%d: %s", f->path, kv ? kv->line : params_line(f), *err);
		free(*err);
		*err = m;
		return -1;
	}
	notes_unread(f);
	return 0;
}

int df_codes_read(df_config *c, const char *path, const char *root, df_codes_info *info, char **err)
{
	/* First of all: every failure below clears c, which must not free a caller's uninitialized pointers. */
	df_config_defaults(c);
	if (info)
		*info = (df_codes_info){0};
	char *text = xread_text(path, "CODES configuration", err);
	if (!text)
		return -1;
	size_t nlen = 0;
	codes_file f = {.path = path, .p = text, .line = 1, .root = root};
	if (info)
		f.notes = open_memstream(&info->notes, &nlen);
	int rc = cf_parse_block(&f, "", "", 0, err);
	if (!rc)
		rc = codes_fill(c, &f, info, err);
	if (f.notes)
		fclose(f.notes);
	for (size_t i = 0; i < f.kv.len; i++) {
		free(f.kv.ptr[i].top);
		free(f.kv.ptr[i].block);
		free(f.kv.ptr[i].key);
		free(f.kv.ptr[i].val);
	}
	for (size_t i = 0; i < f.blk.len; i++) {
		free(f.blk.ptr[i].top);
		free(f.blk.ptr[i].name);
	}
	VEC_FREE(&f.kv);
	VEC_FREE(&f.blk);
	free(text);
	if (rc) {
		df_config_clear(c);
		df_codes_info_clear(info);
	}
	return rc;
}

void df_codes_info_clear(df_codes_info *info)
{
	if (!info)
		return;
	free(info->bb_nodes);
	free(info->notes);
	*info = (df_codes_info){0};
}

int df_config_from_codes(df_config *c, const char *path, char **err) { return df_codes_read(c, path, NULL, NULL, err); }

/*
 * dragonfly_config.c - the dragonfly's parameters: defaults, native system
 * files ([network] section) and CODES dragonfly-dally .conf files.
 *
 * CODES compatibility: a CODES file is read with CODES' own defaults, so the
 * same file describes the same machine in both simulators. The defaults below
 * come from CODES' dragonfly-dally model (dragonfly_read_config):
 *   local/global/cn_vc_size 1024/2048/1024 B, chunk_size 512 B,
 *   local/global/cn_bandwidth 5.25/4.7/5.25 GiB/s, router_delay 100 ns,
 *   num_cns_per_router num_routers/2, num_global_channels 10,
 *   link delays (cn_delay, local_delay, global_delay) = time to serialize one
 *   chunk on that link, credit delays = time to serialize an 8-byte credit on
 *   a local link (CODES' legacy rule when no credit delay is given), and the
 *   router delay is charged to the output port for every chunk it sends.
 * Bandwidths are GiB/s and delays are ns in CODES files.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/net/dragonfly.h"
#include "base/defaults.h"
#include "base/util.h"

#define GIB 1073741824.0
#define PS_PER_NS 1000

void df_config_defaults(df_config *c)
{
	memset(c, 0, sizeof *c);
	/* The built-in default system's machine (base/defaults.h). */
	c->groups = DEF_DF_GROUPS;
	c->routers = DEF_DF_ROUTERS;
	c->nodes = DEF_DF_NODES;
	c->globals = DEF_DF_GLOBALS;
	c->bw[DF_TERMINAL] = DEF_DF_TERMINAL_GIBS * GIB;
	c->bw[DF_LOCAL] = DEF_DF_LOCAL_GIBS * GIB;
	c->bw[DF_GLOBAL] = DEF_DF_GLOBAL_GIBS * GIB;
	c->latency[DF_TERMINAL] = DEF_DF_TERMINAL_NS * PS_PER_NS;
	c->latency[DF_LOCAL] = DEF_DF_LOCAL_NS * PS_PER_NS;
	c->latency[DF_GLOBAL] = DEF_DF_GLOBAL_NS * PS_PER_NS;
	for (int k = 0; k < DF_NCLASSES; k++)
		c->credit_delay[k] = c->latency[k]; /* a credit crosses the link backwards */
	c->vc_size[DF_TERMINAL] = 32768;
	c->vc_size[DF_LOCAL] = 16384;
	c->vc_size[DF_GLOBAL] = 16384;
	c->router_delay = DEF_DF_ROUTER_NS * PS_PER_NS;
	c->router_delay_blocks_port = 0;
	c->packet_size = DEF_DF_PACKET_KIB * 1024;
	c->chunk_size = DEF_DF_CHUNK_B;
	c->routing = DF_ROUTE_MINIMAL;
	c->ugal_bias = 16384; /* one VC buffer: ignores the packet or two any busy port holds */
	c->arrangement = DF_ARR_RELATIVE;
	c->watchdog = 100000000; /* 100 us without any packet moving (raised to 4 packet times if needed) */
}

void df_config_clear(df_config *c)
{
	free(c->intra_file);
	free(c->inter_file);
	c->intra_file = c->inter_file = NULL;
}

int df_routing_parse(const char *s)
{
	if (!strcmp(s, "minimal"))
		return DF_ROUTE_MINIMAL;
	if (!strcmp(s, "nonminimal") || !strcmp(s, "non-minimal") || !strcmp(s, "valiant"))
		return DF_ROUTE_VALIANT;
	if (!strcmp(s, "ugal") || !strcmp(s, "adaptive") || !strcmp(s, "ugal-l"))
		return DF_ROUTE_UGAL;
	if (!strcmp(s, "par") || !strcmp(s, "prog-adaptive"))
		return DF_ROUTE_PAR;
	return -1;
}

const char *df_routing_name(enum df_routing r)
{
	static const char *const names[] = {"minimal", "nonminimal", "ugal", "par"};
	return (unsigned)r < 4 ? names[r] : "?";
}

static int fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char **err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		*err = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The system-file keys of the three link classes (terminal, local, global). */
static const char *const bw_key[DF_NCLASSES] = {"terminal_bandwidth", "local_bandwidth", "global_bandwidth"};
static const char *const vc_key[DF_NCLASSES] = {"terminal_vc_size", "local_vc_size", "global_vc_size"};

/* The first of the three shape keys whose value is outside 1..max (routers and nodes: 1..255). */
static const char *bad_shape(const df_config *c)
{
	if (c->groups < 1 || c->groups > 65535)
		return "groups";
	if (c->routers < 1 || c->routers > 255)
		return "routers_per_group";
	if (c->nodes < 1 || c->nodes > 255)
		return "nodes_per_router";
	return c->globals > 255 ? "global_links_per_router" : NULL;
}

/* df_config_validate, with *key set to the native system-file key at fault (NULL: none in particular). */
static int check(const df_config *c, const char **key, char **err)
{
	if ((*key = bad_shape(c)) && (c->groups < 1 || c->routers < 1 || c->nodes < 1))
		return fail(err, "dragonfly: groups, routers_per_group and nodes_per_router must be at least 1");
	if (*key)
		return fail(err, "dragonfly: at most 65535 groups, 255 routers per group, 255 nodes per router and 255 global links per router");
	*key = "groups";
	if ((uint64_t)c->groups * c->routers * c->nodes > 0xfffffff0u)
		return fail(err, "dragonfly: too many nodes");
	*key = "global_links_per_router";
	if (c->nodes + (c->routers - 1) + c->globals > 255)
		return fail(err, "dragonfly: router radix p + a - 1 + h = %u exceeds 255",
		            c->nodes + c->routers - 1 + c->globals);
	if (c->groups > 1 && c->globals == 0)
		return fail(err, "dragonfly: %u groups need global links (global_links_per_router >= 1)", c->groups);
	if (c->groups > 1 && c->arrangement != DF_ARR_FILE) {
		uint64_t per_group = (uint64_t)c->routers * c->globals;
		if (per_group < c->groups - 1)
			return fail(err, "dragonfly: a group has %llu global links but must reach %u other groups "
			            "(need routers_per_group x global_links_per_router >= groups - 1)",
			            (unsigned long long)per_group, c->groups - 1);
		if (per_group % (c->groups - 1))
			return fail(err, "dragonfly: routers_per_group x global_links_per_router (%llu) must be a multiple "
			            "of groups - 1 (%u) so that every pair of groups gets the same number of links",
			            (unsigned long long)per_group, c->groups - 1);
	}
	for (int k = 0; k < DF_NCLASSES; k++)
		if (!(c->bw[k] > 0) && (*key = bw_key[k]))
			return fail(err, "dragonfly: every bandwidth must be positive");
	*key = "packet_size";
	if (c->packet_size < 1 || c->packet_size > (1u << 24))
		return fail(err, "dragonfly: packet_size must be between 1 B and 16 MiB");
	*key = "chunk_size";
	if (c->chunk_size < 1)
		return fail(err, "dragonfly: chunk_size must be at least 1 B");
	for (int k = 0; k < DF_NCLASSES; k++)
		if ((c->vc_size[k] < c->packet_size || c->vc_size[k] > 0x7fffffffu) && (*key = vc_key[k]))
			return fail(err, "dragonfly: every VC buffer must hold at least one packet (%u B) and be below 2 GiB",
			            c->packet_size);
	*key = "routing";
	if ((unsigned)c->routing > DF_ROUTE_PAR)
		return fail(err, "dragonfly: unknown routing");
	*key = "intra_group_connections";
	if (c->arrangement == DF_ARR_FILE && (!c->intra_file || !c->inter_file))
		return fail(err, "dragonfly: connection files are missing");
	*key = NULL;
	return 0;
}

int df_config_validate(const df_config *c, char **err)
{
	const char *key;
	return check(c, &key, err);
}

/* ---------------------------------------------------------- native files */

/* [S] key, a packet or chunk size of 1 B to 16 MiB, into *out when present. 0, or -1 with *err. */
static int unit_size(const sysconf_t *sc, const char *S, const char *key, uint32_t *out, char **err)
{
	uint64_t sz;
	int rc = sysconf_size(sc, S, key, &sz, err);
	if (rc <= 0)
		return rc;
	if (sz < 1 || sz > (1u << 24))
		return fail(err, "%s: %s must be between 1 B and 16 MiB", sysconf_where(sc, S, key), key);
	*out = (uint32_t)sz;
	return 0;
}

int df_config_from_sysconf(df_config *c, const sysconf_t *sc, char **err)
{
	static const char S[] = "network";
	const char *s;
	int64_t v;
	int rc;

	df_config_defaults(c);
	if ((rc = sysconf_string(sc, S, "model", &s, err)) < 0)
		return -1;
	if (rc && strcmp(s, "dragonfly") && strcmp(s, "hybrid"))
		return fail(err, "%s: network model is '%s', not 'dragonfly'", sysconf_where(sc, S, "model"), s);

	static const struct { const char *key; size_t off; } ints[] = {
		{"groups", offsetof(df_config, groups)},
		{"routers_per_group", offsetof(df_config, routers)},
		{"nodes_per_router", offsetof(df_config, nodes)},
		{"global_links_per_router", offsetof(df_config, globals)},
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		if ((rc = sysconf_int(sc, S, ints[i].key, &v, err)) < 0)
			return -1;
		if (rc && (v < 0 || v > 0xffffffffll))
			return fail(err, "%s: %s out of range", sysconf_where(sc, S, ints[i].key), ints[i].key);
		if (rc)
			*(uint32_t *)(void *)((char *)c + ints[i].off) = (uint32_t)v;
	}
	static const char *const cls[DF_NCLASSES] = {"terminal", "local", "global"};
	char key[64];
	int credit_set[DF_NCLASSES] = {0};
	for (int k = 0; k < DF_NCLASSES; k++) {
		snprintf(key, sizeof key, "%s_bandwidth", cls[k]);
		if (sysconf_bandwidth(sc, S, key, &c->bw[k], err) < 0)
			return -1;
		snprintf(key, sizeof key, "%s_latency", cls[k]);
		if (sysconf_time(sc, S, key, &c->latency[k], err) < 0)
			return -1;
		snprintf(key, sizeof key, "%s_credit_delay", cls[k]);
		if ((rc = sysconf_time(sc, S, key, &c->credit_delay[k], err)) < 0)
			return -1;
		credit_set[k] = rc;
		snprintf(key, sizeof key, "%s_vc_size", cls[k]);
		if (sysconf_size(sc, S, key, &c->vc_size[k], err) < 0)
			return -1;
	}
	for (int k = 0; k < DF_NCLASSES; k++)
		if (!credit_set[k])
			c->credit_delay[k] = c->latency[k];
	if (sysconf_time(sc, S, "router_delay", &c->router_delay, err) < 0)
		return -1;
	if (sysconf_bool(sc, S, "router_delay_blocks_port", &c->router_delay_blocks_port, err) < 0)
		return -1;
	if (unit_size(sc, S, "packet_size", &c->packet_size, err) < 0 ||
	    unit_size(sc, S, "chunk_size", &c->chunk_size, err) < 0)
		return -1;
	if ((rc = sysconf_string(sc, S, "routing", &s, err)) < 0)
		return -1;
	if (rc) {
		int r = df_routing_parse(s);
		if (r < 0)
			return fail(err, "%s: unknown routing '%s' (minimal, nonminimal, ugal, par)",
			            sysconf_where(sc, S, "routing"), s);
		c->routing = (enum df_routing)r;
	}
	uint64_t sz;
	if ((rc = sysconf_size(sc, S, "ugal_bias", &sz, err)) < 0)
		return -1;
	if (rc)
		c->ugal_bias = (double)sz;
	if ((rc = sysconf_string(sc, S, "global_arrangement", &s, err)) < 0)
		return -1;
	if (rc) {
		if (!strcmp(s, "absolute") || !strcmp(s, "consecutive"))
			c->arrangement = DF_ARR_ABSOLUTE;
		else if (!strcmp(s, "relative") || !strcmp(s, "palmtree"))
			c->arrangement = DF_ARR_RELATIVE;
		else
			return fail(err, "%s: global_arrangement must be absolute or relative",
			            sysconf_where(sc, S, "global_arrangement"));
	}
	const char *fi = NULL, *fo = NULL;
	if (sysconf_string(sc, S, "intra_group_connections", &fi, err) < 0 ||
	    sysconf_string(sc, S, "inter_group_connections", &fo, err) < 0)
		return -1;
	if (!fi != !fo)
		return fail(err, "%s: intra_group_connections and inter_group_connections go together",
		            sysconf_where(sc, S, fi ? "intra_group_connections" : "inter_group_connections"));
	if (fi) {
		c->arrangement = DF_ARR_FILE;
		c->intra_file = xstrdup(fi);
		c->inter_file = xstrdup(fo);
	}
	if (sysconf_time(sc, S, "deadlock_watchdog", &c->watchdog, err) < 0)
		return -1;
	const char *bad;
	if (check(c, &bad, err) < 0) {
		/* The key's line when the file sets it; the file alone when a default is what does not fit. */
		char *m = xasprintf("%s: %s", sysconf_where(sc, S, bad), *err);
		free(*err);
		*err = m;
		return -1;
	}
	return 0;
}

/* ----------------------------------------------------------- CODES files */

/*
 * CODES' configuration syntax, as far as dragonfly-dally files use it:
 *   file   := block*
 *   block  := NAME '{' (block | pair)* '}'
 *   pair   := NAME '=' (value | '(' value (',' value)* ')') ';'
 *   value  := '"' text '"' | bare-word
 * '#' starts a comment that runs to the end of the line.
 */
typedef struct codes_kv {
	char *block, *key, *val;
	int line;
} codes_kv;

typedef struct codes_file {
	const char *path;
	const char *p;
	int line;
	VEC(codes_kv) kv;
} codes_file;

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
	return isalnum(ch) || ch == '_' || ch == '-' || ch == '.' || ch == '/' || ch == '+' || ch == ':';
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

/* Dragonfly files nest two deep (LPGROUPS { MODELNET_GRP { ... } }); the bound keeps the recursion off the stack's end. */
#define CF_MAX_DEPTH 32

static int cf_parse_block(codes_file *f, const char *block, int depth, char **err)
{
	for (;;) {
		cf_skip(f);
		if (!*f->p)
			return depth ? fail(err, "%s:%d: missing '}'", f->path, f->line) : 0;
		if (*f->p == '}') {
			if (!depth)
				return fail(err, "%s:%d: unexpected '}'", f->path, f->line);
			f->p++;
			return 0;
		}
		int line = f->line;
		char *name = cf_value(f);
		if (!name)
			return fail(err, "%s:%d: expected a name", f->path, f->line);
		cf_skip(f);
		if (*f->p == '{') {
			if (depth >= CF_MAX_DEPTH) {
				free(name);
				return fail(err, "%s:%d: blocks nested more than %d deep", f->path, f->line, CF_MAX_DEPTH);
			}
			f->p++;
			int rc = cf_parse_block(f, name, depth + 1, err);
			free(name);
			if (rc)
				return rc;
			continue;
		}
		if (*f->p != '=') {
			free(name);
			return fail(err, "%s:%d: expected '=' or '{'", f->path, f->line);
		}
		f->p++;
		cf_skip(f);
		char *val;
		if (*f->p == '(') {
			/* A list: keep its first element; dragonfly keys are scalars. */
			f->p++;
			val = NULL;
			for (;;) {
				cf_skip(f);
				char *item = cf_value(f);
				if (!item) {
					free(val);
					free(name);
					return fail(err, "%s:%d: bad list", f->path, f->line);
				}
				if (!val)
					val = item;
				else
					free(item);
				cf_skip(f);
				if (*f->p == ',') {
					f->p++;
					continue;
				}
				if (*f->p == ')') {
					f->p++;
					break;
				}
				free(val);
				free(name);
				return fail(err, "%s:%d: expected ',' or ')'", f->path, f->line);
			}
		} else if (!(val = cf_value(f))) {
			free(name);
			return fail(err, "%s:%d: expected a value", f->path, f->line);
		}
		cf_skip(f);
		if (*f->p == ';')
			f->p++;
		codes_kv kv = {xstrdup(depth ? block : ""), name, val, line};
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

static const codes_kv *cf_find(const codes_file *f, const char *block, const char *key)
{
	for (size_t i = 0; i < f->kv.len; i++)
		if (!strcmp(f->kv.ptr[i].block, block) && !strcmp(f->kv.ptr[i].key, key))
			return &f->kv.ptr[i];
	return NULL;
}

/* Looks up a PARAMS number: 1 found, 0 absent, -1 malformed. */
static int cf_num(const codes_file *f, const char *key, double *out, char **err)
{
	const codes_kv *kv = cf_find(f, "PARAMS", key);
	if (!kv)
		return 0;
	char *end;
	errno = 0;
	double v = strtod(kv->val, &end);
	if (end == kv->val || *end || errno || v < 0)
		return fail(err, "%s:%d: %s: '%s' is not a non-negative number", f->path, kv->line, key, kv->val);
	*out = v;
	return 1;
}

static int cf_u32(const codes_file *f, const char *key, uint32_t *out, char **err)
{
	double v;
	int rc = cf_num(f, key, &v, err);
	if (rc <= 0)
		return rc;
	if (v != (double)(uint32_t)v)
		return fail(err, "%s:%d: %s must be a whole number", f->path, cf_find(f, "PARAMS", key)->line, key);
	*out = (uint32_t)v;
	return 1;
}

static ncsim_time_t ns_to_ps(double ns) { return (ncsim_time_t)(ns * 1000.0 + 0.5); }

/* CODES' link delay rule: the time to put `bytes` on a link of `gib` GiB/s, in ns. */
static double codes_bytes_to_ns(double bytes, double gib) { return bytes / GIB / gib * 1e9; }

/* Resolves a connection-file name: relative to the .conf's folder, else to the working folder. */
static char *resolve(const char *conf, const char *name)
{
	char *p = xpath_near(conf, name);
	if (strcmp(p, name) && access(p, R_OK) != 0) {
		free(p);
		p = xstrdup(name);
	}
	return p;
}

static int codes_fill(df_config *c, const codes_file *f, char **err)
{
	static const char *const unsupported[] = {"num_rails", "num_planes", "num_qos_levels",
	                                          "num_parallel_switch_conns", "num_injection_queues"};
	for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
		double v;
		int rc = cf_num(f, unsupported[i], &v, err);
		if (rc < 0)
			return -1;
		if (rc && v != 1)
			return fail(err, "%s:%d: %s = %g is not supported by ncsim's dragonfly (only 1)", f->path,
			            cf_find(f, "PARAMS", unsupported[i])->line, unsupported[i], v);
	}
	if (cf_find(f, "PARAMS", "link-failure-file"))
		return fail(err, "%s:%d: link-failure-file is not supported", f->path,
		            cf_find(f, "PARAMS", "link-failure-file")->line);

	int rc;
	if ((rc = cf_u32(f, "num_groups", &c->groups, err)) <= 0)
		return rc ? -1 : fail(err, "%s: num_groups is missing", f->path);
	if ((rc = cf_u32(f, "num_routers", &c->routers, err)) <= 0)
		return rc ? -1 : fail(err, "%s: num_routers is missing", f->path);
	c->nodes = c->routers / 2;
	if (cf_u32(f, "num_cns_per_router", &c->nodes, err) < 0)
		return -1;
	c->globals = 10;
	if (cf_u32(f, "num_global_channels", &c->globals, err) < 0)
		return -1;

	double vc[DF_NCLASSES] = {1024, 1024, 2048};
	static const char *const vckey[DF_NCLASSES] = {"cn_vc_size", "local_vc_size", "global_vc_size"};
	double gib[DF_NCLASSES] = {5.25, 5.25, 4.7};
	static const char *const bwkey[DF_NCLASSES] = {"cn_bandwidth", "local_bandwidth", "global_bandwidth"};
	static const char *const dkey[DF_NCLASSES] = {"cn_delay", "local_delay", "global_delay"};
	static const char *const ckey[DF_NCLASSES] = {"cn_credit_delay", "local_credit_delay", "global_credit_delay"};
	for (int k = 0; k < DF_NCLASSES; k++) {
		if (cf_num(f, vckey[k], &vc[k], err) < 0 || cf_num(f, bwkey[k], &gib[k], err) < 0)
			return -1;
		if (!(gib[k] > 0))
			return fail(err, "%s: %s must be positive", f->path, bwkey[k]);
		c->vc_size[k] = (uint64_t)vc[k];
		c->bw[k] = gib[k] * GIB;
	}
	double chunk = 512, packet = 512, rdelay = 100;
	int have_packet;
	if (cf_num(f, "chunk_size", &chunk, err) < 0 || (have_packet = cf_num(f, "packet_size", &packet, err)) < 0 ||
	    cf_num(f, "router_delay", &rdelay, err) < 0)
		return -1;
	if (!have_packet)
		packet = chunk; /* CODES leaves packet_size unset here; one chunk per packet is its only sane reading */
	if (chunk < 1 || packet < 1 || packet > (1u << 24))
		return fail(err, "%s: chunk_size and packet_size must be between 1 B and 16 MiB", f->path);
	c->chunk_size = (uint32_t)chunk;
	c->packet_size = (uint32_t)packet;
	c->router_delay = ns_to_ps(rdelay);
	c->router_delay_blocks_port = 1;
	for (int k = 0; k < DF_NCLASSES; k++) {
		double d = codes_bytes_to_ns(chunk, gib[k]);
		if (cf_num(f, dkey[k], &d, err) < 0)
			return -1;
		c->latency[k] = ns_to_ps(d);
	}
	/* Credit delays: CODES' rules, in its order of precedence. */
	double credit_size = 8, general;
	if (cf_num(f, "credit_size", &credit_size, err) < 0)
		return -1;
	int have_general = cf_num(f, "credit_delay", &general, err);
	if (have_general < 0)
		return -1;
	double cd[DF_NCLASSES];
	int have[DF_NCLASSES], any = 0;
	for (int k = 0; k < DF_NCLASSES; k++) {
		if ((have[k] = cf_num(f, ckey[k], &cd[k], err)) < 0)
			return -1;
		any |= have[k];
	}
	double autoflag = 0;
	if (cf_num(f, "auto_credit_delay", &autoflag, err) < 0)
		return -1;
	for (int k = 0; k < DF_NCLASSES; k++) {
		double d;
		if (have_general && !any)
			d = general;
		else if (have[k])
			d = cd[k];
		else if (!have_general && !any && !autoflag)
			d = codes_bytes_to_ns(credit_size, gib[DF_LOCAL]); /* legacy: every class from the local bandwidth */
		else
			d = codes_bytes_to_ns(credit_size, gib[k]);
		c->credit_delay[k] = ns_to_ps(d);
	}

	const codes_kv *r = cf_find(f, "PARAMS", "routing");
	c->routing = DF_ROUTE_MINIMAL;
	if (r) {
		if (!strcmp(r->val, "prog-adaptive-legacy"))
			c->routing = DF_ROUTE_PAR;
		else {
			int v = df_routing_parse(r->val);
			if (v < 0 || !strcmp(r->val, "valiant") || !strcmp(r->val, "ugal") || !strcmp(r->val, "par"))
				return fail(err, "%s:%d: routing '%s' is not supported (minimal, non-minimal, adaptive, prog-adaptive)",
				            f->path, r->line, r->val);
			c->routing = (enum df_routing)v;
		}
	}
	const codes_kv *fi = cf_find(f, "PARAMS", "intra-group-connections");
	const codes_kv *fo = cf_find(f, "PARAMS", "inter-group-connections");
	if (!fi || !fo)
		return fail(err, "%s: intra-group-connections and inter-group-connections are required", f->path);
	c->arrangement = DF_ARR_FILE;
	c->intra_file = resolve(f->path, fi->val);
	c->inter_file = resolve(f->path, fo->val);

	/* LPGROUPS, when present, must agree with the topology. */
	const codes_kv *reps = cf_find(f, "MODELNET_GRP", "repetitions");
	const codes_kv *term = cf_find(f, "MODELNET_GRP", "modelnet_dragonfly_dally");
	const codes_kv *rout = cf_find(f, "MODELNET_GRP", "modelnet_dragonfly_dally_router");
	if (reps && term && rout) {
		unsigned long nr = strtoul(reps->val, NULL, 10), nt = strtoul(term->val, NULL, 10),
		              nrt = strtoul(rout->val, NULL, 10);
		if (nr * nrt != (unsigned long)c->groups * c->routers || nr * nt != (unsigned long)c->groups * c->routers * c->nodes)
			return fail(err, "%s:%d: LPGROUPS describes %lu routers and %lu terminals, PARAMS %lu and %lu",
			            f->path, reps->line, nr * nrt, nr * nt, (unsigned long)c->groups * c->routers,
			            (unsigned long)c->groups * c->routers * c->nodes);
	}
	return df_config_validate(c, err);
}

int df_config_from_codes(df_config *c, const char *path, char **err)
{
	/* First of all: every failure below clears c, which must not free a caller's uninitialized pointers. */
	df_config_defaults(c);
	char *text = xread_text(path, "CODES configuration", err);
	if (!text)
		return -1;
	codes_file f = {.path = path, .p = text, .line = 1};
	int rc = cf_parse_block(&f, "", 0, err);
	if (!rc)
		rc = codes_fill(c, &f, err);
	for (size_t i = 0; i < f.kv.len; i++) {
		free(f.kv.ptr[i].block);
		free(f.kv.ptr[i].key);
		free(f.kv.ptr[i].val);
	}
	VEC_FREE(&f.kv);
	free(text);
	if (rc)
		df_config_clear(c);
	return rc;
}

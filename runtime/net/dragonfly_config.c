/*
 * dragonfly_config.c - the dragonfly's parameters: defaults, the [network]
 * section of native system files, validation, and the writer that turns a
 * configuration back into a native section (what a CODES file is run as;
 * CODES files themselves are read by dragonfly_codes_conf.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/net/dragonfly_model.h"
#include "base/defaults.h"
#include "base/memlimit.h"
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
	c->router_delay_on_exit = 0;
	c->credit_return = DF_CREDIT_TAIL;
	c->vc_rule = DF_VC_SLOTS;
	c->rules = DF_RULES_NCSIM;
	c->scoring = DF_SCORE_DELTA;
	c->adaptive_threshold = 0;
	c->k_picks = 2;
	c->packet_size = DEF_DF_PACKET_KIB * 1024;
	c->chunk_size = DEF_DF_CHUNK_B;
	c->routing = DF_ROUTE_MINIMAL;
	c->ugal_bias = 16384; /* one VC buffer: ignores the packet or two any busy port holds */
	c->arrangement = DF_ARR_RELATIVE;
	c->watchdog = 100000000; /* 100 us without any packet moving (raised to 4 packet times if needed) */
}

void df_config_codes_semantics(df_config *c)
{
	c->router_delay_blocks_port = 0;
	c->router_delay_on_exit = 1;
	c->credit_return = DF_CREDIT_ACCEPT;
	c->vc_rule = DF_VC_CODES;
	c->rules = DF_RULES_CODES;
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

int df_fail(char **err, const char *fmt, ...)
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

/* The machine must fit the memory limit; *key names the key of the first dimension. */
static int check_memory(const df_config *c, const char **key, char **err)
{
	*key = "groups";
	char what[160];
	snprintf(what, sizeof what, "a dragonfly of %u groups x %u routers x %u nodes with %u global links per router",
	         c->groups, c->routers, c->nodes, c->globals);
	return mem_limit_check(df_memory_bytes(c), NULL, what, err);
}

int df_config_check(const df_config *c, const char **key, char **err)
{
	if ((*key = bad_shape(c)) && (c->groups < 1 || c->routers < 1 || c->nodes < 1))
		return df_fail(err, "dragonfly: groups, routers_per_group and nodes_per_router must be at least 1");
	if (*key)
		return df_fail(err, "dragonfly: at most 65535 groups, 255 routers per group, 255 nodes per router and "
		               "255 global links per router");
	*key = "groups";
	if ((uint64_t)c->groups * c->routers * c->nodes > 0xfffffff0u)
		return df_fail(err, "dragonfly: too many nodes");
	*key = "global_links_per_router";
	if (c->nodes + (c->routers - 1) + c->globals > 255)
		return df_fail(err, "dragonfly: router radix p + a - 1 + h = %u exceeds 255",
		            c->nodes + c->routers - 1 + c->globals);
	if (c->groups > 1 && c->globals == 0)
		return df_fail(err, "dragonfly: %u groups need global links (global_links_per_router >= 1)", c->groups);
	if (c->groups > 1 && c->arrangement != DF_ARR_FILE) {
		uint64_t per_group = (uint64_t)c->routers * c->globals;
		if (per_group < c->groups - 1)
			return df_fail(err, "dragonfly: a group has %llu global links but must reach %u other groups "
			            "(need routers_per_group x global_links_per_router >= groups - 1)",
			            (unsigned long long)per_group, c->groups - 1);
		if (per_group % (c->groups - 1))
			return df_fail(err, "dragonfly: routers_per_group x global_links_per_router (%llu) must be a multiple "
			            "of groups - 1 (%u) so that every pair of groups gets the same number of links",
			            (unsigned long long)per_group, c->groups - 1);
	}
	for (int k = 0; k < DF_NCLASSES; k++)
		if (!(c->bw[k] > 0) && (*key = bw_key[k]))
			return df_fail(err, "dragonfly: every bandwidth must be positive");
	*key = "packet_size";
	if (c->packet_size < 1 || c->packet_size > (1u << 24))
		return df_fail(err, "dragonfly: packet_size must be between 1 B and 16 MiB");
	*key = "chunk_size";
	if (c->chunk_size < 1)
		return df_fail(err, "dragonfly: chunk_size must be at least 1 B");
	for (int k = 0; k < DF_NCLASSES; k++)
		if ((c->vc_size[k] < c->packet_size || c->vc_size[k] > 0x7fffffffu) && (*key = vc_key[k]))
			return df_fail(err, "dragonfly: every VC buffer must hold at least one packet (%u B) and be below 2 GiB",
			            c->packet_size);
	*key = "chunk_size";
	uint64_t cost = (uint64_t)(c->packet_size + c->chunk_size - 1) / c->chunk_size * c->chunk_size;
	for (int k = 0; k < DF_NCLASSES; k++)
		if (c->credit_return == DF_CREDIT_ACCEPT && c->vc_size[k] < cost && (*key = vc_key[k]))
			return df_fail(err, "dragonfly: with credit_return = accept, buffers count whole chunks: every VC "
			            "buffer must hold a packet's %llu B", (unsigned long long)cost);
	*key = "routing";
	if ((unsigned)c->routing > DF_ROUTE_PAR)
		return df_fail(err, "dragonfly: unknown routing");
	*key = "vc_assignment";
	if (c->vc_rule == DF_VC_CODES && c->rules != DF_RULES_CODES && c->routing != DF_ROUTE_MINIMAL)
		return df_fail(err, "dragonfly: vc_assignment = codes needs routing_rules = codes for %s routing (ncsim's "
		            "non-minimal paths take two local hops in the source group, which CODES' VCs do not separate)",
		            df_routing_name(c->routing));
	*key = "global_k_picks";
	if (c->k_picks < 1 || c->k_picks > 255)
		return df_fail(err, "dragonfly: global_k_picks must be between 1 and 255");
	*key = "intra_group_connections";
	if (c->arrangement == DF_ARR_FILE && (!c->intra_file || !c->inter_file))
		return df_fail(err, "dragonfly: connection files are missing");
	if (check_memory(c, key, err) < 0)
		return -1;
	*key = NULL;
	return 0;
}

int df_config_validate(const df_config *c, char **err)
{
	const char *key;
	return df_config_check(c, &key, err);
}

/* ---------------------------------------------------------- native files */

/* The semantic keys (doc/dragonfly.md, "Semantics"): word lists, index = the enum's value. */
static const char *const router_delay_words[] = {"entry", "exit", NULL};
static const char *const credit_words[] = {"tail", "accept", NULL};
static const char *const vc_words[] = {"slots", "codes", NULL};
static const char *const rules_words[] = {"ncsim", "codes", NULL};
static const char *const scoring_words[] = {"delta", "alpha", NULL};

/* [S] key, one of `words`, into *out (its index) when present. 0, or -1 with *err. */
static int word(const sysconf_t *sc, const char *S, const char *key, const char *const *words, int *out, char **err)
{
	const char *s;
	int rc = sysconf_string(sc, S, key, &s, err);
	if (rc <= 0)
		return rc;
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i])) {
			*out = i;
			return 0;
		}
	return df_fail(err, "%s: %s must be %s or %s", sysconf_where(sc, S, key), key, words[0], words[1]);
}

/* The keys that choose between ncsim's and CODES' semantics. 0, or -1 with *err. */
static int semantic_keys(df_config *c, const sysconf_t *sc, const char *S, char **err)
{
	int v[5] = {c->router_delay_on_exit, (int)c->credit_return, (int)c->vc_rule, (int)c->rules, (int)c->scoring};
	if (word(sc, S, "router_delay_at", router_delay_words, &v[0], err) < 0 ||
	    word(sc, S, "credit_return", credit_words, &v[1], err) < 0 ||
	    word(sc, S, "vc_assignment", vc_words, &v[2], err) < 0 ||
	    word(sc, S, "routing_rules", rules_words, &v[3], err) < 0 ||
	    word(sc, S, "route_scoring", scoring_words, &v[4], err) < 0 ||
	    sysconf_size(sc, S, "adaptive_threshold", &c->adaptive_threshold, err) < 0)
		return -1;
	c->router_delay_on_exit = v[0];
	c->credit_return = (enum df_credit_return)v[1];
	c->vc_rule = (enum df_vc_rule)v[2];
	c->rules = (enum df_rules)v[3];
	c->scoring = (enum df_scoring)v[4];
	int64_t k;
	int rc = sysconf_int(sc, S, "global_k_picks", &k, err);
	if (rc < 0)
		return -1;
	if (rc && (k < 1 || k > 255))
		return df_fail(err, "%s: global_k_picks must be between 1 and 255", sysconf_where(sc, S, "global_k_picks"));
	if (rc)
		c->k_picks = (uint32_t)k;
	return 0;
}

/* [S] key, a packet or chunk size of 1 B to 16 MiB, into *out when present. 0, or -1 with *err. */
static int unit_size(const sysconf_t *sc, const char *S, const char *key, uint32_t *out, char **err)
{
	uint64_t sz;
	int rc = sysconf_size(sc, S, key, &sz, err);
	if (rc <= 0)
		return rc;
	if (sz < 1 || sz > (1u << 24))
		return df_fail(err, "%s: %s must be between 1 B and 16 MiB", sysconf_where(sc, S, key), key);
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
	if (rc && strcmp(s, "dragonfly") && strcmp(s, "hybrid") && strcmp(s, "flow"))
		return df_fail(err, "%s: network model is '%s', not 'dragonfly'", sysconf_where(sc, S, "model"), s);

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
			return df_fail(err, "%s: %s out of range", sysconf_where(sc, S, ints[i].key), ints[i].key);
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
	if (sysconf_bool(sc, S, "router_delay_blocks_port", &c->router_delay_blocks_port, err) < 0 ||
	    semantic_keys(c, sc, S, err) < 0)
		return -1;
	if (unit_size(sc, S, "packet_size", &c->packet_size, err) < 0 ||
	    unit_size(sc, S, "chunk_size", &c->chunk_size, err) < 0)
		return -1;
	if ((rc = sysconf_string(sc, S, "routing", &s, err)) < 0)
		return -1;
	if (rc) {
		int r = df_routing_parse(s);
		if (r < 0)
			return df_fail(err, "%s: unknown routing '%s' (minimal, nonminimal, ugal, par)",
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
			return df_fail(err, "%s: global_arrangement must be absolute or relative",
			            sysconf_where(sc, S, "global_arrangement"));
	}
	const char *fi = NULL, *fo = NULL;
	if (sysconf_string(sc, S, "intra_group_connections", &fi, err) < 0 ||
	    sysconf_string(sc, S, "inter_group_connections", &fo, err) < 0)
		return -1;
	if (!fi != !fo)
		return df_fail(err, "%s: intra_group_connections and inter_group_connections go together",
		            sysconf_where(sc, S, fi ? "intra_group_connections" : "inter_group_connections"));
	if (fi) {
		c->arrangement = DF_ARR_FILE;
		c->intra_file = xstrdup(fi);
		c->inter_file = xstrdup(fo);
	}
	if (sysconf_time(sc, S, "deadlock_watchdog", &c->watchdog, err) < 0)
		return -1;
	const char *bad;
	if (df_config_check(c, &bad, err) < 0) {
		/* The key's line when the file sets it; the file alone when a default is what does not fit. */
		char *m = xasprintf("%s: %s", sysconf_where(sc, S, bad), *err);
		free(*err);
		*err = m;
		return -1;
	}
	return 0;
}

void df_config_write(const df_config *c, FILE *out)
{
	static const char *const cls[DF_NCLASSES] = {"terminal", "local", "global"};
	static const char *const arr[] = {"absolute", "relative"};
	fprintf(out, "[network]\nmodel = dragonfly\ngroups = %u\nrouters_per_group = %u\nnodes_per_router = %u\n"
	             "global_links_per_router = %u\n", c->groups, c->routers, c->nodes, c->globals);
	if (c->arrangement == DF_ARR_FILE)
		fprintf(out, "intra_group_connections = %s\ninter_group_connections = %s\n", c->intra_file, c->inter_file);
	else
		fprintf(out, "global_arrangement = %s\n", arr[c->arrangement]);
	for (int k = 0; k < DF_NCLASSES; k++)
		fprintf(out, "%s_bandwidth = %.17g B/s   # %.6g GiB/s\n%s_latency = %llu ps\n%s_credit_delay = %llu ps\n"
		             "%s_vc_size = %llu B\n", cls[k], c->bw[k], c->bw[k] / GIB, cls[k],
		        (unsigned long long)c->latency[k], cls[k], (unsigned long long)c->credit_delay[k], cls[k],
		        (unsigned long long)c->vc_size[k]);
	fprintf(out, "router_delay = %llu ps\nrouter_delay_blocks_port = %s\nrouter_delay_at = %s\n",
	        (unsigned long long)c->router_delay, c->router_delay_blocks_port ? "yes" : "no",
	        router_delay_words[c->router_delay_on_exit != 0]);
	fprintf(out, "credit_return = %s\nvc_assignment = %s\nrouting_rules = %s\nroute_scoring = %s\n"
	             "adaptive_threshold = %llu B\nglobal_k_picks = %u\nugal_bias = %.17g B\n",
	        credit_words[c->credit_return], vc_words[c->vc_rule], rules_words[c->rules], scoring_words[c->scoring],
	        (unsigned long long)c->adaptive_threshold, c->k_picks, c->ugal_bias);
	fprintf(out, "packet_size = %u B\nchunk_size = %u B\nrouting = %s\ndeadlock_watchdog = %llu ps\n", c->packet_size,
	        c->chunk_size, df_routing_name(c->routing), (unsigned long long)c->watchdog);
}

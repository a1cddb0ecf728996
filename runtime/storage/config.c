/*
 * config.c - the [storage] section of a system file (keys in doc/storage.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/storage/device.h"
#include "runtime/storage/storage.h"
#include "base/util.h"

#define SEC "storage"

static void defaults(sto_config *c)
{
	memset(c, 0, sizeof *c);
	c->kind = STO_CFG_LOCAL;
	snprintf(c->device, sizeof c->device, "d3-s4510");
	snprintf(c->ssd_device, sizeof c->ssd_device, "d3-s4510");
	snprintf(c->hdd_device, sizeof c->hdd_device, "st2000nx0253");
	c->block_size = 1 << 20;
	c->threads = 4;
	c->on_full_fail = 0;
	c->control_bytes = 64;
	c->threshold = 64 << 10;
	c->bb_per_group = 1;
	c->io_servers = 1;
	c->san_bandwidth = 2e9;
	c->san_latency = 50 * RT_PS_PER_US;
	c->drain = 1;
	c->file_stride = 1ull << 30;
}

static int copy_name(const sysconf_t *sys, const char *key, char *dst, size_t cap, char **err)
{
	const char *v = NULL;
	int r = sysconf_string(sys, SEC, key, &v, err);
	if (r <= 0)
		return r;
	if (strlen(v) == 0 || strlen(v) >= cap) {
		*err = xasprintf("%s: [storage] %s: device names have 1 to %zu characters", sysconf_where(sys, SEC, key),
		                 key, cap - 1);
		return -1;
	}
	memcpy(dst, v, strlen(v) + 1);
	return 1;
}

/* "0, 16, 32" -> node list. */
static int get_list(const sysconf_t *sys, const char *key, sto_config *c, char **err)
{
	const char *v = NULL;
	int r = sysconf_string(sys, SEC, key, &v, err);
	if (r <= 0)
		return r;
	VEC(uint32_t) list = { 0 };
	const char *p = v;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		char *end;
		errno = 0;
		unsigned long long n = strtoull(p, &end, 10);
		if (end == p || errno || n > UINT32_MAX || *p == '-') {
			*err = xasprintf("%s: [storage] %s = '%s': expected a comma-separated list of node numbers",
			                 sysconf_where(sys, SEC, key), key, v);
			VEC_FREE(&list);
			return -1;
		}
		VEC_PUSH(&list, (uint32_t)n);
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (*p != ',') {
			*err = xasprintf("%s: [storage] %s = '%s': expected ',' after %llu", sysconf_where(sys, SEC, key), key,
			                 v, n);
			VEC_FREE(&list);
			return -1;
		}
		p++;
	}
	free(c->nodes);
	c->nodes = list.ptr;
	c->nnodes_list = (uint32_t)list.len;
	return 1;
}

/* The node list of the other configurations, `key`, must be absent: it would have no effect. */
static int other_list(const sysconf_t *sys, const char *key, const char *kind, char **err)
{
	if (!sysconf_get(sys, SEC, key))
		return 0;
	*err = xasprintf("%s: [storage] %s applies to config = %s, not to config = %s", sysconf_where(sys, SEC, key),
	                 key, !strcmp(key, "io_nodes") ? "storage-side" : "local or compute-side",
	                 kind ? kind : "local");
	return -1;
}

/*
 * A key whose value is one of `names` (any case, NULL-terminated list): sets
 * *out to its index and returns 1, 0 if absent, -1 (with the choices listed in
 * *err) for any other value.
 */
static int get_choice(const sysconf_t *sys, const char *key, const char *const *names, int *out, char **err)
{
	const char *v = NULL;
	int r = sysconf_string(sys, SEC, key, &v, err);
	if (r <= 0)
		return r;
	size_t n = 0;
	for (; names[n]; n++)
		if (!strcasecmp(v, names[n])) {
			*out = (int)n;
			return 1;
		}
	char *list = xstrdup(names[0]);
	for (size_t i = 1; i < n; i++) {
		char *more = xasprintf("%s%s%s", list, i + 1 < n ? ", " : " or ", names[i]);
		free(list);
		list = more;
	}
	*err = xasprintf("%s: [storage] %s = '%s': expected %s", sysconf_where(sys, SEC, key), key, v, list);
	free(list);
	return -1;
}

static int get_u32(const sysconf_t *sys, const char *key, uint32_t *out, uint32_t min, char **err)
{
	int64_t v = 0;
	int r = sysconf_int(sys, SEC, key, &v, err);
	if (r <= 0)
		return r;
	if (v < (int64_t)min || v > UINT32_MAX) {
		*err = xasprintf("%s: [storage] %s must be at least %u", sysconf_where(sys, SEC, key), key, min);
		return -1;
	}
	*out = (uint32_t)v;
	return 1;
}

int sto_config_load(const sysconf_t *sys, sto_config *c, char **err)
{
	defaults(c);
	/* Every device section is checked, the ones this configuration does not use too. */
	if (sto_dev_check_all(sys, err) < 0)
		return -1;
	if (!sys || !sysconf_has_section(sys, SEC))
		return 0;
	/* Each list is in the order of the values its field takes. */
	static const char *const kinds[] = { "local", "compute-side", "storage-side", NULL };
	static const char *const routes[] = { "nearest", "block", NULL };
	static const char *const fulls[] = { "block", "fail", NULL };
	static const char *const addressing[] = { "file", "zero", NULL };
	int kind_ix = (int)c->kind;
	if (get_choice(sys, "config", kinds, &kind_ix, err) < 0)
		return -1;
	c->kind = (enum sto_config_kind)kind_ix;
	const char *kind = sysconf_get(sys, SEC, "config");
	if (get_choice(sys, "bb_route", routes, &c->route_block, err) < 0 ||
	    get_choice(sys, "on_full", fulls, &c->on_full_fail, err) < 0 ||
	    get_choice(sys, "addressing", addressing, &c->addr_zero, err) < 0)
		goto fail;
	if (copy_name(sys, "device", c->device, sizeof c->device, err) < 0 ||
	    copy_name(sys, "ssd_device", c->ssd_device, sizeof c->ssd_device, err) < 0 ||
	    copy_name(sys, "hdd_device", c->hdd_device, sizeof c->hdd_device, err) < 0 ||
	    sysconf_size(sys, SEC, "block_size", &c->block_size, err) < 0 ||
	    get_u32(sys, "threads", &c->threads, 1, err) < 0 ||
	    sysconf_size(sys, SEC, "control_bytes", &c->control_bytes, err) < 0 ||
	    sysconf_size(sys, SEC, "threshold", &c->threshold, err) < 0 ||
	    get_u32(sys, "bb_per_group", &c->bb_per_group, 1, err) < 0 ||
	    get_u32(sys, "io_servers", &c->io_servers, 1, err) < 0 ||
	    sysconf_bandwidth(sys, SEC, "san_bandwidth", &c->san_bandwidth, err) < 0 ||
	    sysconf_time(sys, SEC, "san_latency", &c->san_latency, err) < 0 ||
	    sysconf_bool(sys, SEC, "drain", &c->drain, err) < 0 ||
	    sysconf_size(sys, SEC, "file_stride", &c->file_stride, err) < 0)
		goto fail;
	if (get_list(sys, c->kind == STO_CFG_STORAGE ? "io_nodes" : "bb_nodes", c, err) < 0 ||
	    other_list(sys, c->kind == STO_CFG_STORAGE ? "bb_nodes" : "io_nodes", kind, err) < 0)
		goto fail;
	if (c->block_size == 0) {
		*err = xasprintf("%s: [storage] block_size must be positive", sysconf_where(sys, SEC, "block_size"));
		goto fail;
	}
	if (c->file_stride == 0) {
		*err = xasprintf("%s: [storage] file_stride must be positive", sysconf_where(sys, SEC, "file_stride"));
		goto fail;
	}
	if (c->drain && !(c->san_bandwidth > 0)) {
		*err = xasprintf("%s: [storage] san_bandwidth must be positive when drain = yes",
		                 sysconf_where(sys, SEC, "san_bandwidth"));
		goto fail;
	}
	return 0;
fail:
	sto_config_fini(c);
	return -1;
}

void sto_config_fini(sto_config *c)
{
	free(c->nodes);
	c->nodes = NULL;
	c->nnodes_list = 0;
}

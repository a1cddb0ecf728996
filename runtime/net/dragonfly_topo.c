/*
 * dragonfly_topo.c - builds the dragonfly's wiring: the built-in global-link
 * arrangements and CODES' binary connection files.
 *
 * Built-in arrangements number the a*h global links of group s as
 * j = router_index * h + slot and send link j to the group
 *   absolute (consecutive):   t = j mod (g-1);  d = t       if t <  s
 *                                               d = t + 1   if t >= s
 *   relative (palm tree):     d = (s + 1 + (j mod (g-1))) mod g
 * so when a*h = m (g-1) every pair of groups is joined by exactly m links.
 * The relative arrangement is the one CODES' dragonfly-dally topology
 * generator writes (each group starts with the group after it).
 *
 * CODES files (dragonfly-dally format, native-endian 32-bit ints):
 *   intra-group file: records {src, dest, type}: local router indices inside
 *                     one group, applied to every group; type is ignored.
 *   inter-group file: records {src, dest}: global router ids (group * a +
 *                     index); each record is one direction of a global link.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly_topo.h"
#include "base/util.h"

static int terr(char **err, char *msg)
{
	if (err)
		*err = msg;
	else
		free(msg);
	return -1;
}

/* Global link j of group s: the group it reaches and its index among that group's links. */
static void builtin_link(const df_config *c, uint32_t s, uint32_t j, uint32_t *d, uint32_t *jr)
{
	uint32_t G = c->groups, m = j / (G - 1), t = j % (G - 1);
	if (c->arrangement == DF_ARR_ABSOLUTE) {
		*d = t < s ? t : t + 1;
		*jr = m * (G - 1) + (s < *d ? s : s - 1);
	} else {
		*d = (s + 1 + t) % G;
		*jr = m * (G - 1) + (G - 2 - t);
	}
}

/* The records of `width` 32-bit ints of a CODES connection file (heap), or NULL with *err. */
static int32_t *read_records(const char *path, const char *what, size_t width, size_t *nrec, char **err)
{
	size_t len;
	int opened;
	char *data = xread_file(path, &len, &opened);
	if (!data) {
		terr(err, xasprintf("%s: cannot %s %s connection file: %s", path, opened ? "read" : "open", what,
		                    xread_strerror(errno)));
		return NULL;
	}
	size_t rec = width * sizeof(int32_t);
	if (len % rec) {
		free(data);
		terr(err, xasprintf("%s: %zu bytes is not a whole number of %zu-byte records (truncated file?)", path,
		                    len, rec));
		return NULL;
	}
	*nrec = len / rec;
	int32_t *v = xcalloc(*nrec ? *nrec * width : 1, sizeof *v);
	memcpy(v, data, len);
	free(data);
	return v;
}

static int read_files(df_topo *t, const df_config *c, char **err)
{
	size_t nrec;
	int32_t *recs = read_records(c->intra_file, "intra-group", 3, &nrec, err);
	if (!recs)
		return -1;
	uint32_t a = t->a;
	uint8_t *seen = xcalloc((size_t)a * a, 1);
	char *msg = NULL;
	for (size_t n = 1; n <= nrec && !msg; n++) {
		const int32_t *rec = recs + 3 * (n - 1);
		if (rec[0] < 0 || rec[1] < 0 || (uint32_t)rec[0] >= a || (uint32_t)rec[1] >= a || rec[0] == rec[1])
			msg = xasprintf("%s: record %zu: bad local link %d -> %d (routers per group: %u)", c->intra_file, n,
			                rec[0], rec[1], a);
		else if (seen[rec[0] * a + rec[1]]++)
			msg = xasprintf("%s: record %zu: parallel local link %d -> %d is not supported", c->intra_file, n,
			                rec[0], rec[1]);
	}
	free(recs);
	for (uint32_t i = 0; i < a && !msg; i++)
		for (uint32_t j = 0; j < a && !msg; j++)
			if (i != j && !seen[i * a + j])
				msg = xasprintf("%s: local link %u -> %u is missing: groups must be all-to-all", c->intra_file,
				                i, j);
	free(seen);
	if (msg)
		return terr(err, msg);

	if (!(recs = read_records(c->inter_file, "inter-group", 2, &nrec, err)))
		return -1;
	uint32_t *used = xcalloc(t->nrouters, sizeof *used);
	for (size_t n = 1; n <= nrec && !msg; n++) {
		const int32_t *lk = recs + 2 * (n - 1);
		uint32_t r = (uint32_t)lk[0];
		if (lk[0] < 0 || lk[1] < 0 || r >= t->nrouters || (uint32_t)lk[1] >= t->nrouters ||
		    r / a == (uint32_t)lk[1] / a)
			msg = xasprintf("%s: record %zu: bad global link %d -> %d (%u routers)", c->inter_file, n, lk[0],
			                lk[1], t->nrouters);
		else if (used[r] >= t->h)
			msg = xasprintf("%s: record %zu: router %u has more than %u global links", c->inter_file, n, r, t->h);
		else
			t->peer[(size_t)r * t->nports + df_topo_global_port(t, used[r]++)] = (uint32_t)lk[1];
	}
	free(recs);
	free(used);
	if (msg)
		return terr(err, msg);
	/* Pair each direction with its reverse: the lowest unpaired slot of the peer that points back. */
	for (uint32_t r = 0; r < t->nrouters; r++)
		for (uint32_t k = 0; k < t->h; k++) {
			size_t ix = (size_t)r * t->nports + df_topo_global_port(t, k);
			uint32_t q = t->peer[ix];
			if (q == DF_NONE || t->peer_port[ix] != 0xffff)
				continue;
			uint32_t kk;
			for (kk = 0; kk < t->h; kk++) {
				size_t jx = (size_t)q * t->nports + df_topo_global_port(t, kk);
				if (t->peer[jx] == r && t->peer_port[jx] == 0xffff && jx != ix)
					break;
			}
			if (kk == t->h)
				return terr(err, xasprintf("%s: global link %u -> %u has no reverse link %u -> %u", c->inter_file,
				                           r, q, q, r));
			size_t jx = (size_t)q * t->nports + df_topo_global_port(t, kk);
			t->peer_port[ix] = (uint16_t)df_topo_global_port(t, kk);
			t->peer_port[jx] = (uint16_t)df_topo_global_port(t, k);
		}
	return 0;
}

int df_topo_own(df_config *own, df_topo *t, const df_config *c, char **err)
{
	*own = *c;
	own->intra_file = xstrdup(c->intra_file);
	own->inter_file = xstrdup(c->inter_file);
	if (df_topo_build(t, own, err) < 0) {
		df_config_clear(own);
		return -1;
	}
	return 0;
}

int df_topo_build(df_topo *t, const df_config *c, char **err)
{
	memset(t, 0, sizeof *t);
	t->g = c->groups;
	t->a = c->routers;
	t->p = c->nodes;
	t->h = c->globals;
	t->nrouters = t->g * t->a;
	t->nnodes = t->nrouters * t->p;
	t->nports = t->p + t->a - 1 + t->h;
	size_t np = (size_t)t->nrouters * t->nports;
	t->peer = xmalloc(np * sizeof *t->peer);
	t->peer_port = xmalloc(np * sizeof *t->peer_port);
	for (size_t i = 0; i < np; i++) {
		t->peer[i] = DF_NONE;
		t->peer_port[i] = 0xffff;
	}
	for (uint32_t r = 0; r < t->nrouters; r++) {
		uint32_t grp = r / t->a, ri = r % t->a;
		uint32_t *pe = t->peer + (size_t)r * t->nports;
		uint16_t *pp = t->peer_port + (size_t)r * t->nports;
		for (uint32_t i = 0; i < t->p; i++) {
			pe[i] = r * t->p + i;
			pp[i] = 0;
		}
		for (uint32_t j = 0; j < t->a; j++)
			if (j != ri) {
				uint32_t port = df_topo_local_port(t, ri, j);
				pe[port] = grp * t->a + j;
				pp[port] = (uint16_t)df_topo_local_port(t, j, ri);
			}
	}
	if (c->arrangement == DF_ARR_FILE) {
		if (read_files(t, c, err) < 0) {
			df_topo_free(t);
			return -1;
		}
	} else if (t->g > 1) {
		for (uint32_t s = 0; s < t->g; s++)
			for (uint32_t j = 0; j < t->a * t->h; j++) {
				uint32_t d, jr;
				builtin_link(c, s, j, &d, &jr);
				size_t ix = (size_t)(s * t->a + j / t->h) * t->nports + df_topo_global_port(t, j % t->h);
				t->peer[ix] = d * t->a + jr / t->h;
				t->peer_port[ix] = (uint16_t)df_topo_global_port(t, jr % t->h);
			}
	}
	/* Gateway lists per ordered pair of groups, in (router, slot) order. */
	size_t gg = (size_t)t->g * t->g;
	t->gw_start = xcalloc(gg + 1, sizeof *t->gw_start);
	for (uint32_t r = 0; r < t->nrouters; r++)
		for (uint32_t k = 0; k < t->h; k++) {
			uint32_t q = t->peer[(size_t)r * t->nports + df_topo_global_port(t, k)];
			if (q != DF_NONE)
				t->gw_start[(size_t)(r / t->a) * t->g + q / t->a + 1]++;
		}
	for (size_t i = 0; i < gg; i++)
		t->gw_start[i + 1] += t->gw_start[i];
	t->gw = xmalloc((t->gw_start[gg] + 1) * sizeof *t->gw);
	uint32_t *fill = xmalloc((gg + 1) * sizeof *fill);
	memcpy(fill, t->gw_start, (gg + 1) * sizeof *fill);
	for (uint32_t r = 0; r < t->nrouters; r++)
		for (uint32_t k = 0; k < t->h; k++) {
			uint32_t q = t->peer[(size_t)r * t->nports + df_topo_global_port(t, k)];
			if (q != DF_NONE)
				t->gw[fill[(size_t)(r / t->a) * t->g + q / t->a]++] = ((r % t->a) << 8) | k;
		}
	free(fill);
	for (uint32_t s = 0; s < t->g; s++)
		for (uint32_t d = 0; d < t->g; d++)
			if (s != d && t->gw_start[(size_t)s * t->g + d] == t->gw_start[(size_t)s * t->g + d + 1]) {
				char *m = xasprintf("dragonfly: no global link from group %u to group %u", s, d);
				df_topo_free(t);
				return terr(err, m);
			}
	return 0;
}

void df_topo_free(df_topo *t)
{
	free(t->peer);
	free(t->peer_port);
	free(t->gw_start);
	free(t->gw);
	memset(t, 0, sizeof *t);
}

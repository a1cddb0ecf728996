/*
 * gen_conn.c - writes the two binary connection files of a dragonfly-dally
 * configuration (intra-group and inter-group, the format dragonfly_topo.c
 * reads) for g groups of a routers with h global links each, wired as ncsim's
 * relative (palm-tree) arrangement: the tests generate their CODES inputs
 * with it instead of shipping binary files.
 *
 *   gen_conn GROUPS ROUTERS GLOBALS INTRA-FILE INTER-FILE
 *
 * Records are native-endian 32-bit ints:
 *   intra: {src, dest, 0} for every ordered pair of routers of a group (local
 *          indices, src-major): groups are all-to-all.
 *   inter: {src, dest} global router ids, per router in id order and per
 *          global slot in slot order, as df_topo_build wires them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/dragonfly_topo.h"

/* Writes n ints to f; 0, or -1 on a write error. */
static int put(FILE *f, const int32_t *v, size_t n)
{
	return fwrite(v, sizeof *v, n, f) == n ? 0 : -1;
}

static int write_intra(FILE *f, const df_topo *t)
{
	for (uint32_t i = 0; i < t->a; i++)
		for (uint32_t j = 0; j < t->a; j++) {
			int32_t rec[3] = {(int32_t)i, (int32_t)j, 0};
			if (i != j && put(f, rec, 3) < 0)
				return -1;
		}
	return 0;
}

static int write_inter(FILE *f, const df_topo *t)
{
	for (uint32_t r = 0; r < t->nrouters; r++)
		for (uint32_t k = 0; k < t->h; k++) {
			uint32_t q = t->peer[(size_t)r * t->nports + df_topo_global_port(t, k)];
			int32_t rec[2] = {(int32_t)r, (int32_t)q};
			if (q != DF_NONE && put(f, rec, 2) < 0)
				return -1;
		}
	return 0;
}

/* Writes one file with `fill`; 0, or -1 after a message on stderr. */
static int write_file(const char *path, const df_topo *t, int (*fill)(FILE *, const df_topo *))
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "gen_conn: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = fill(f, t);
	if (fclose(f) != 0 || rc < 0) {
		fprintf(stderr, "gen_conn: %s: write error\n", path);
		return -1;
	}
	return 0;
}

/* A count argument in 1..max, or 0 if it is not one. */
static uint32_t count(const char *s, unsigned long max)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && v >= 1 && v <= max ? (uint32_t)v : 0;
}

int main(int argc, char **argv)
{
	df_config c;
	df_config_defaults(&c);
	if (argc == 6) {
		c.groups = count(argv[1], 65535);
		c.routers = count(argv[2], 255);
		c.globals = count(argv[3], 255);
	}
	if (argc != 6 || !c.groups || !c.routers || !c.globals) {
		fprintf(stderr, "usage: gen_conn GROUPS ROUTERS GLOBALS INTRA-FILE INTER-FILE\n");
		return 2;
	}
	c.nodes = 1;
	c.arrangement = DF_ARR_RELATIVE;
	df_topo t;
	char *err = NULL;
	if (df_topo_build(&t, &c, &err) < 0) {
		fprintf(stderr, "gen_conn: %s\n", err);
		free(err);
		return 1;
	}
	int rc = write_file(argv[4], &t, write_intra) < 0 || write_file(argv[5], &t, write_inter) < 0;
	df_topo_free(&t);
	df_config_clear(&c);
	return rc;
}

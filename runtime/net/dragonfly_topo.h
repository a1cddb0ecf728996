/*
 * dragonfly_topo.h - dragonfly wiring: which port of which router leads where
 * (prefix df_topo_).
 *
 * Port layout of every router (p nodes, a routers per group, h global links):
 *
 *   port:  0 .. p-1      p .. p+a-2              p+a-1 .. p+a-1+h-1
 *          terminal      local: to the other     global: to routers of
 *          (node r*p+i)  a-1 routers of the      other groups (unused
 *                        group, in index order    slots have no peer)
 *
 * peer[r * nports + port] is the node (terminal port) or router at the other
 * end, peer_port[...] the input port by which the packet enters that router.
 * gw lists, for every ordered pair of groups (s, d), the global links leaving
 * s towards d as (router index in s, global port) pairs; minimal routing
 * picks from it.
 */
#ifndef NCSIM_DRAGONFLY_TOPO_H
#define NCSIM_DRAGONFLY_TOPO_H

#include <stdint.h>

#include "runtime/net/dragonfly.h"

#define DF_NONE 0xffffffffu

typedef struct df_topo {
	uint32_t g, a, p, h;
	uint32_t nrouters, nnodes, nports;
	uint32_t *peer;      /* [nrouters * nports] */
	uint16_t *peer_port; /* [nrouters * nports] */
	uint32_t *gw_start;  /* [g * g + 1] offsets into gw */
	uint32_t *gw;        /* (local router index << 8) | global port slot */
} df_topo;

/* Builds the wiring described by c (reads the connection files for DF_ARR_FILE). 0, or -1 with *err. */
int df_topo_build(df_topo *t, const df_config *c, char **err);
/*
 * A model's own copy of c in *own (its file names duplicated) and the wiring
 * it describes in *t: what every dragonfly-based model keeps. 0, or -1 with
 * *err (*own then holds nothing to free).
 */
int df_topo_own(df_config *own, df_topo *t, const df_config *c, char **err);
/* Frees the arrays of t. */
void df_topo_free(df_topo *t);

/* Class of a port index. */
static inline enum df_class df_topo_class(const df_topo *t, uint32_t port)
{
	return port < t->p ? DF_TERMINAL : port < t->p + t->a - 1 ? DF_LOCAL : DF_GLOBAL;
}
/* The local port of router index `from` (in its group) that leads to router index `to`. */
static inline uint32_t df_topo_local_port(const df_topo *t, uint32_t from, uint32_t to)
{
	return t->p + (to < from ? to : to - 1);
}
/* Port of global slot k. */
static inline uint32_t df_topo_global_port(const df_topo *t, uint32_t k) { return t->p + t->a - 1 + k; }

#endif

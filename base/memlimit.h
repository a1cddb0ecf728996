/*
 * memlimit.h - the memory a run may plan to use for its machine.
 *
 * A system file of a few lines can describe a machine far larger than the
 * host (four billion nodes, or a dragonfly of a million routers). Each model
 * estimates what it will allocate before it allocates, and refuses a machine
 * that does not fit, with a message that names the file and the size, instead
 * of growing until the host's memory runs out.
 */
#ifndef NCSIM_BASE_MEMLIMIT_H
#define NCSIM_BASE_MEMLIMIT_H

#include <stdint.h>

/* Bytes a per-node record of the runtime costs besides the network model: storage node lists, placement, statistics. */
#define MEM_NODE_OVERHEAD 64u

/* Sets the limit (--max-memory); 0 restores the default: the host's physical memory, or ulimit -v if lower. */
void mem_limit_set(uint64_t bytes);
/* The limit in bytes. */
uint64_t mem_limit(void);
/*
 * 0 when need bytes fit the limit; else -1 with *err =
 * "<where>: <what> needs about N GB, more than the memory limit of M GB (...)".
 * where may be NULL.
 */
int mem_limit_check(uint64_t need, const char *where, const char *what, char **err);

#endif

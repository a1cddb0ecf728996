/*
 * par_mirror.h - keys of objects that live on two ranks (prefix pmr_;
 * doc/parallel.md).
 *
 * A layer whose objects are shared by two entities (the MPI layer's
 * envelopes, the storage system's request records) keeps them in a pool of
 * slots. In a partitioned run the object's home is the slot on the rank
 * that created it; the other rank holds a mirror in a slot of its own. A
 * key names the object on every rank: the top bit set, the home rank (15
 * bits), the generation of the home slot (20 bits) and its index (28 bits).
 * Messages to the home carry its index, messages to the mirror's rank the
 * key, which that rank looks up here. No key ever reaches an output.
 */
#ifndef NCSIM_PAR_MIRROR_H
#define NCSIM_PAR_MIRROR_H

#include <stddef.h>
#include <stdint.h>

#define PMR_KEY_BIT (1ULL << 63)
#define PMR_MAX_RANKS (1u << 15)

typedef struct pmr_table pmr_table;

/* A table of rank `me` (< PMR_MAX_RANKS); NULL if me is too large. */
pmr_table *pmr_new(uint32_t me);
void pmr_free(pmr_table *t);
/* A new key for home slot idx (a new generation of the slot); dies with idx > 2^28 - 1. */
uint64_t pmr_home(pmr_table *t, uint32_t idx);
/* The key slot idx holds (home or mirror), 0 when none. */
uint64_t pmr_key(const pmr_table *t, uint32_t idx);
/* 1 if key's home is this rank. */
int pmr_mine(const pmr_table *t, uint64_t key);
/* The home slot of key (on its home rank). */
static inline uint32_t pmr_slot(uint64_t key) { return (uint32_t)(key & ((1ULL << 28) - 1)); }
/* The mirror slot of key on this rank, or UINT32_MAX when there is none. */
uint32_t pmr_find(const pmr_table *t, uint64_t key);
/* Slot idx of this rank mirrors key. */
void pmr_put(pmr_table *t, uint64_t key, uint32_t idx);
/* Slot idx is free again: forgets its key (and its mirror entry). */
void pmr_forget(pmr_table *t, uint32_t idx);
/*
 * The slot of a cookie that may be a key: a key of this rank's home gives
 * its slot, another key its mirror (which must exist), anything else is a
 * slot already.
 */
uint32_t pmr_local(const pmr_table *t, uint64_t cookie);

#endif

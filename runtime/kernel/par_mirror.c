/*
 * par_mirror.c - keys of objects that live on two ranks (see par_mirror.h).
 */
#include "runtime/kernel/par_mirror.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

#define KEY_RANK_SHIFT 48
#define KEY_GEN_SHIFT 28
#define KEY_IDX_MASK ((1ULL << KEY_GEN_SHIFT) - 1)
#define KEY_GEN_MASK ((1ULL << (KEY_RANK_SHIFT - KEY_GEN_SHIFT)) - 1)

/* A mirror's key and its slot; key 0: empty. */
typedef struct pmr_entry {
	uint64_t key;
	uint32_t idx;
} pmr_entry;

struct pmr_table {
	uint32_t me;
	VEC(uint64_t) key;  /* per slot: its key (0: never crossed ranks) */
	VEC(uint32_t) gen;  /* per slot: home keys issued so far */
	pmr_entry *tab;     /* mirrors by key: open addressing, linear probing, at most half full */
	size_t cap, used;
};

static _Noreturn void broken(const char *what, uint64_t key)
{
	fprintf(stderr, "ncsim: internal error: an object shared by two ranks %s (key %#llx)\n", what,
	        (unsigned long long)key);
	abort();
}

static uint32_t rank_of(uint64_t key) { return (uint32_t)((key & ~PMR_KEY_BIT) >> KEY_RANK_SHIFT); }

static size_t home_of(const pmr_table *t, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (t->cap - 1);
}

static void grow(pmr_table *t)
{
	pmr_entry *old = t->tab;
	size_t n = t->cap;
	t->cap = n ? 2 * n : 64;
	t->tab = xcalloc(t->cap, sizeof *t->tab);
	for (size_t i = 0; i < n; i++)
		if (old[i].key) {
			size_t j = home_of(t, old[i].key);
			while (t->tab[j].key)
				j = (j + 1) & (t->cap - 1);
			t->tab[j] = old[i];
		}
	free(old);
}

/* Index of key's entry, or cap when absent. */
static size_t find(const pmr_table *t, uint64_t key)
{
	if (!t->cap)
		return 0;
	for (size_t i = home_of(t, key);; i = (i + 1) & (t->cap - 1)) {
		if (t->tab[i].key == key)
			return i;
		if (!t->tab[i].key)
			return t->cap;
	}
}

/* Removes entry i, moving back the entries of its probe run (no tombstones). */
static void del(pmr_table *t, size_t i)
{
	size_t mask = t->cap - 1;
	t->tab[i].key = 0;
	t->used--;
	for (size_t j = (i + 1) & mask; t->tab[j].key; j = (j + 1) & mask) {
		size_t h = home_of(t, t->tab[j].key);
		if (((j - h) & mask) >= ((j - i) & mask)) {
			t->tab[i] = t->tab[j];
			t->tab[j].key = 0;
			i = j;
		}
	}
}

/* Sizes the per-slot arrays to cover slot idx. */
static void cover(pmr_table *t, uint32_t idx)
{
	while (t->key.len <= idx) {
		VEC_PUSH(&t->key, 0);
		VEC_PUSH(&t->gen, 0);
	}
}

pmr_table *pmr_new(uint32_t me)
{
	if (me >= PMR_MAX_RANKS)
		return NULL;
	pmr_table *t = xcalloc(1, sizeof *t);
	t->me = me;
	return t;
}

void pmr_free(pmr_table *t)
{
	if (!t)
		return;
	VEC_FREE(&t->key);
	VEC_FREE(&t->gen);
	free(t->tab);
	free(t);
}

uint64_t pmr_home(pmr_table *t, uint32_t idx)
{
	if (idx > KEY_IDX_MASK)
		broken("lives in a pool too large for keys", idx);
	cover(t, idx);
	uint32_t g = t->gen.ptr[idx] = (uint32_t)((t->gen.ptr[idx] + 1) & KEY_GEN_MASK);
	return t->key.ptr[idx] = PMR_KEY_BIT | ((uint64_t)t->me << KEY_RANK_SHIFT) | ((uint64_t)g << KEY_GEN_SHIFT) | idx;
}

uint64_t pmr_key(const pmr_table *t, uint32_t idx) { return idx < t->key.len ? t->key.ptr[idx] : 0; }

int pmr_mine(const pmr_table *t, uint64_t key) { return rank_of(key) == t->me; }

uint32_t pmr_find(const pmr_table *t, uint64_t key)
{
	size_t i = find(t, key);
	return i == t->cap ? UINT32_MAX : t->tab[i].idx;
}

void pmr_put(pmr_table *t, uint64_t key, uint32_t idx)
{
	if (find(t, key) != t->cap)
		broken("was mirrored twice", key);
	if (2 * (t->used + 1) > t->cap)
		grow(t);
	size_t i = home_of(t, key);
	while (t->tab[i].key)
		i = (i + 1) & (t->cap - 1);
	t->tab[i] = (pmr_entry){key, idx};
	t->used++;
	cover(t, idx);
	t->key.ptr[idx] = key;
}

void pmr_forget(pmr_table *t, uint32_t idx)
{
	uint64_t key = pmr_key(t, idx);
	if (!key)
		return;
	if (!pmr_mine(t, key)) {
		size_t i = find(t, key);
		if (i != t->cap)
			del(t, i);
	}
	t->key.ptr[idx] = 0;
}

uint32_t pmr_local(const pmr_table *t, uint64_t cookie)
{
	if (!(cookie & PMR_KEY_BIT))
		return (uint32_t)cookie;
	if (pmr_mine(t, cookie))
		return pmr_slot(cookie);
	uint32_t idx = pmr_find(t, cookie);
	if (idx == UINT32_MAX)
		broken("has no mirror here", cookie);
	return idx;
}

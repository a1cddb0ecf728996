/*
 * gen_stmt.h - statement nodes of the program generator (prefix gen_; see
 * gen.h): numbering and dropping, statement lists, and the statement kinds
 * that gen_comm.c writes.
 */
#ifndef NCSIM_TESTS_GEN_STMT_H
#define NCSIM_TESTS_GEN_STMT_H

#include <stddef.h>

#include "tests/gen/gen.h"

/* A `{ a THEN b ... }` being written: whether an item was kept so far. */
typedef struct gen_list {
	int any;
} gen_list;

/* Starts a statement node: returns its number and its text's start in *start. */
int gen_node_begin(gen *g, size_t *start);
/* Ends node id: cuts its text out if it is dropped; returns 1 if it was kept. */
int gen_node_end(gen *g, int id, size_t start);
/* Writes `{` and opens a level of indentation. */
void gen_list_begin(gen *g, gen_list *l);
/* Before an item: writes the THEN that separates it from a kept one; returns where the item's text began. */
size_t gen_list_item(gen *g, gen_list *l);
/* After an item: kept 0 takes its separator out again (back to `before`). */
void gen_list_done(gen *g, gen_list *l, size_t before, int kept);
/* Writes `}` (an empty list is `{ }`, a valid empty statement). */
void gen_list_end(gen *g, gen_list *l);

/* One statement node of any kind allowed here; returns 1 if it was kept. */
int gen_stmt(gen *g);

/* ---- gen_comm.c: communication statements (e: the statement's uniform environment) */
void gen_sync_send(gen *g, const gen_env *e);
void gen_async_group(gen *g, const gen_env *e);
void gen_receive(gen *g, const gen_env *e);
void gen_multicast(gen *g, const gen_env *e);
void gen_reduce(gen *g, const gen_env *e);
void gen_synchronize(gen *g, const gen_env *e);
void gen_assign(gen *g, const gen_env *e);
void gen_dcnw(gen *g, const gen_env *e);
void gen_flows(gen *g, const gen_env *e);
void gen_horovod(gen *g, const gen_env *e);
void gen_backend_local(gen *g, const gen_env *e);
void gen_backend_collective(gen *g, const gen_env *e);

#endif

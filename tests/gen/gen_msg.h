/*
 * gen_msg.h - task descriptions and message specifications for the program
 * generator (prefix gen_; see gen.h).
 */
#ifndef NCSIM_TESTS_GEN_MSG_H
#define NCSIM_TESTS_GEN_MSG_H

#include "tests/gen/gen.h"

/* The forms of a task description, as bits of the `forms` mask of gen_tasks. */
enum gen_task_form { TF_ALL, TF_ALLVAR, TF_ONE, TF_SUCHTHAT, TF_RANGE, TF_GROUP };
#define TFM(f) (1u << (f))
#define TF_SOURCES (TFM(TF_ALL) | TFM(TF_ALLVAR) | TFM(TF_ONE) | TFM(TF_SUCHTHAT) | TFM(TF_RANGE) | TFM(TF_GROUP))
#define TF_BINDING (TFM(TF_ALLVAR) | TFM(TF_SUCHTHAT) | TFM(TF_GROUP))

/* One message specification: what the caller asks for and what was written. */
typedef struct gen_msgspec {
	int recv;      /* in: a receive-side specification (INTO, not FROM) */
	int verify_ok; /* in: WITH VERIFICATION may be chosen */
	int unique, aligned, verify, has_buffer, has_offset; /* out: what the text says */
} gen_msgspec;

/*
 * Writes a task description of one of the `forms` (a TFM mask; TASK GROUP
 * only when a group is in scope). var receives the variable it binds, or "".
 */
void gen_tasks(gen *g, const gen_env *e, unsigned forms, char var[16]);
/* Writes `TASK t` where t differs from the task written at bytes [s0, s1) whenever that one exists. */
void gen_distinct_target(gen *g, const gen_env *e, size_t s0, size_t s1);
/* Writes `count [UNIQUE] [size] [alignment] MESSAGES [touching] [tag]` and, if want_buffer, the buffer clause. */
void gen_msg(gen *g, const gen_env *e, gen_msgspec *m, int want_buffer);
/* Writes the buffer clause of m (FROM or INTO by m->recv), if any. */
void gen_buffer(gen *g, const gen_env *e, gen_msgspec *m);
/* Writes a non-empty WHO RECEIVES THEM clause compatible with the sender's m; *async: the receive is asynchronous. */
void gen_recv_override(gen *g, const gen_env *e, const gen_msgspec *m, int *async);

#endif

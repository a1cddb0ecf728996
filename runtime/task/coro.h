/*
 * coro.h - coroutines for simulated tasks (prefix coro_).
 *
 * One coroutine per task. The scheduler (a kernel handler running on the
 * process stack) resumes a coroutine; the coroutine runs until it yields or
 * its function returns, then control is back in the scheduler. Coroutines
 * never resume each other, so a switch always pairs a coroutine with the
 * scheduler context saved in the coroutine itself.
 *
 * Stacks come from a per-simulation pool and are committed lazily
 * (MAP_NORESERVE: only touched pages cost memory):
 *
 *   guarded stack (own mapping)        slab stack (many per mapping)
 *   +---------+  high                  +---------+ stack k+1
 *   |  frames |  grows down            |  frames |
 *   |   ...   |                        |   ...   |
 *   +---------+                        | 64 B 0s |  canary: must stay zero
 *   |  guard  |  PROT_NONE, faults     +---------+ stack k
 *   +---------+  low                   |   ...   |
 *
 * Linux caps the number of mappings per process (vm.max_map_count, 65530 by
 * default) and each guarded stack costs two. The pool therefore guards stacks
 * while it stays under a budget derived from that limit, then carves the
 * remaining stacks from slabs whose lowest 64 bytes are checked for zeroes
 * when the coroutine ends (an overflow is then reported, not silent). A freed
 * slab stack is reused as it is (its pages stay committed; the canary is
 * zeroed again), so nothing is given back to the system before the pool goes.
 *
 * The switch is hand-written for x86-64 (callee-saved registers, MXCSR and
 * the x87 control word) and falls back to ucontext elsewhere. Under ASan the
 * sanitizer fiber annotations bracket every switch; under valgrind each stack
 * is registered.
 */
#ifndef NCSIM_CORO_H
#define NCSIM_CORO_H

#include <stddef.h>

typedef struct coro coro;
typedef struct coro_pool coro_pool;
typedef void (*coro_fn)(void *arg);

#define CORO_DEFAULT_STACK ((size_t)256 * 1024)

/* Creates a stack pool; stack_size 0 means CORO_DEFAULT_STACK (rounded up to pages). */
coro_pool *coro_pool_new(size_t stack_size);
/* Frees the pool and every stack still allocated from it (NULL is a no-op). */
void coro_pool_free(coro_pool *p);
/* Number of stacks of the pool that have a guard page. */
size_t coro_pool_guarded(const coro_pool *p);
/* Usable bytes of each stack. */
size_t coro_pool_stack_size(const coro_pool *p);

/* Creates a coroutine that will call fn(arg) on first resume; NULL (with *err) if no stack can be mapped. */
coro *coro_new(coro_pool *p, coro_fn fn, void *arg, char **err);
/* Runs c until it yields or finishes; must be called from the scheduler, never from a coroutine. */
void coro_resume(coro *c);
/* Called inside c: returns to the scheduler; returns when c is resumed again. */
void coro_yield(coro *c);
/* 1 once c's function has returned. */
int coro_done(const coro *c);
/* 1 if a slab stack's canary was overwritten (a stack overflow); checked when c finishes. */
int coro_overflowed(const coro *c);
/*
 * After a jump out of the running coroutine c back onto the scheduler's
 * stack (siglongjmp from a signal handler, guard.h): tells the sanitizers
 * that the scheduler's stack is current again. c is never resumed.
 */
void coro_abandon(coro *c);
/* Releases c's stack; c may be suspended (never resumed again) or done. NULL is a no-op. */
void coro_free(coro *c);
/* Name of the switch implementation ("x86-64 asm" or "ucontext"). */
const char *coro_switch_name(void);

#endif

/*
 * coro.c - coroutines for simulated tasks (see coro.h).
 */
#include "config.h"

#include "runtime/task/coro.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif
#ifdef NCSIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__) && !defined(NCSIM_CORO_UCONTEXT)
#define CORO_ASM 1
#else
#include <ucontext.h>
#endif

#define CANARY_BYTES 64
#define SLAB_STACKS 256

struct coro {
#ifdef CORO_ASM
	void *sp;       /* the coroutine's saved stack pointer */
	void *sched_sp; /* the scheduler's, saved by coro_resume */
#else
	ucontext_t uc, sched_uc;
#endif
	coro_fn fn;
	void *arg;
	coro_pool *pool;
	char *lo;       /* lowest usable byte of the stack */
	size_t len;     /* usable bytes */
	char *map;      /* own mapping (guarded stacks) or NULL (slab stack) */
	size_t map_len;
	int done, overflow;
	unsigned vg_id;
#ifdef NCSIM_ASAN
	void *sched_fake;        /* ASan fake stack of the scheduler while c runs */
	void *coro_fake;         /* c's fake stack while it is suspended */
	const void *sched_bottom; /* the scheduler's stack, learnt on the first switch in */
	size_t sched_size;
#endif
};

struct coro_pool {
	size_t stack_size, page;
	size_t guard_budget, guarded;
	VEC(char *) slabs;   /* mappings of SLAB_STACKS stacks each */
	VEC(char *) free_lo; /* slab stacks released by coro_free, ready for reuse */
	size_t slab_next;    /* stacks handed out of the newest slab */
};

/* ------------------------------------------------------------------ pool */

/* Guarded stacks allowed: a quarter of vm.max_map_count, leaving the rest to malloc, libraries and ASan. */
static size_t guard_budget(void)
{
	long limit = 65530; /* Linux's default */
	size_t len;
	char *text = xread_file("/proc/sys/vm/max_map_count", &len, NULL);
	if (text) {
		char *end;
		long v = strtol(text, &end, 10);
		if (end != text)
			limit = v;
		free(text);
	}
	return limit > 8 ? (size_t)limit / 8 : 0;
}

coro_pool *coro_pool_new(size_t stack_size)
{
	coro_pool *p = xcalloc(1, sizeof *p);
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	if (stack_size == 0)
		stack_size = CORO_DEFAULT_STACK;
	if (stack_size < 4 * p->page)
		stack_size = 4 * p->page;
	p->stack_size = (stack_size + p->page - 1) / p->page * p->page;
	p->guard_budget = guard_budget();
	p->slab_next = SLAB_STACKS;
	return p;
}

void coro_pool_free(coro_pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->slabs.len; i++)
		munmap(p->slabs.ptr[i], p->stack_size * SLAB_STACKS);
	VEC_FREE(&p->slabs);
	VEC_FREE(&p->free_lo);
	free(p);
}

size_t coro_pool_guarded(const coro_pool *p) { return p->guarded; }
size_t coro_pool_stack_size(const coro_pool *p) { return p->stack_size; }

static int map_guarded(coro_pool *p, coro *c, char **err)
{
	size_t n = p->stack_size + p->page;
	char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED || mprotect(m, p->page, PROT_NONE) != 0) {
		*err = xasprintf("cannot map a %zu-byte task stack: %s", n, strerror(errno));
		if (m != MAP_FAILED)
			munmap(m, n);
		return -1;
	}
	c->map = m;
	c->map_len = n;
	c->lo = m + p->page;
	p->guarded++;
	return 0;
}

static int take_slab_stack(coro_pool *p, coro *c, char **err)
{
	if (p->free_lo.len) {
		/* A reused stack keeps its committed pages (no madvise, no refault); re-arm the canary. */
		c->lo = p->free_lo.ptr[--p->free_lo.len];
		memset(c->lo, 0, CANARY_BYTES);
		return 0;
	}
	if (p->slab_next == SLAB_STACKS) {
		size_t n = p->stack_size * SLAB_STACKS;
		char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (m == MAP_FAILED) {
			*err = xasprintf("cannot map %zu bytes of task stacks: %s", n, strerror(errno));
			return -1;
		}
		VEC_PUSH(&p->slabs, m);
		p->slab_next = 0;
	}
	c->lo = p->slabs.ptr[p->slabs.len - 1] + p->stack_size * p->slab_next++;
	return 0;
}

/* ------------------------------------------------------------------ switch */

#ifdef CORO_ASM
/*
 * coro_switch(save, to): pushes the callee-saved registers and the floating
 * point control words on the current stack, stores the stack pointer in
 * *save, loads `to` and pops the same frame from there. A new coroutine's
 * stack is prepared so that this pop "returns" into coro_trampoline with the
 * entry function in r12 and its argument in r13.
 */
void ncsim_coro_switch(void **save, void *to) __attribute__((visibility("hidden")));
void ncsim_coro_trampoline(void) __attribute__((visibility("hidden")));
__asm__(".text\n"
        ".globl ncsim_coro_switch\n"
        ".hidden ncsim_coro_switch\n"
        ".type ncsim_coro_switch, @function\n"
        "ncsim_coro_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size ncsim_coro_switch, .-ncsim_coro_switch\n"
        ".globl ncsim_coro_trampoline\n"
        ".hidden ncsim_coro_trampoline\n"
        ".type ncsim_coro_trampoline, @function\n"
        "ncsim_coro_trampoline:\n"
        "  movq %r13, %rdi\n"
        "  callq *%r12\n"
        "  ud2\n"
        ".size ncsim_coro_trampoline, .-ncsim_coro_trampoline\n");

static void coro_main(coro *c);

/* Lays out the frame that ncsim_coro_switch pops on the first resume. */
static void prepare_stack(coro *c)
{
	uintptr_t top = ((uintptr_t)(c->lo + c->len) & ~(uintptr_t)15) - 16;
	uint64_t *f = (uint64_t *)(top - 64); /* top - 64 is 16-aligned: the call in the trampoline is too */
	uint32_t ctl[2];
	__asm__ volatile("stmxcsr %0\n fnstcw %1" : "=m"(ctl[0]), "=m"(ctl[1]));
	memcpy(&f[0], ctl, 8);                   /* mxcsr, x87 control word */
	f[1] = 0;                                /* r15 */
	f[2] = 0;                                /* r14 */
	f[3] = (uint64_t)(uintptr_t)c;           /* r13: argument */
	f[4] = (uint64_t)(uintptr_t)coro_main;   /* r12: function */
	f[5] = 0;                                /* rbx */
	f[6] = 0;                                /* rbp: ends frame-pointer walks */
	f[7] = (uint64_t)(uintptr_t)ncsim_coro_trampoline;
	c->sp = f;
}
#define SWITCH_IN(c) ncsim_coro_switch(&(c)->sched_sp, (c)->sp)
#define SWITCH_OUT(c) ncsim_coro_switch(&(c)->sp, (c)->sched_sp)
const char *coro_switch_name(void) { return "x86-64 asm"; }

#else /* ucontext */

static void coro_main(coro *c);

/* makecontext passes ints only: the pointer travels in two halves. */
static void uc_entry(unsigned hi, unsigned lo)
{
	coro_main((coro *)(uintptr_t)(((uint64_t)hi << 32) | lo));
}

static void prepare_stack(coro *c)
{
	getcontext(&c->uc);
	c->uc.uc_stack.ss_sp = c->lo;
	c->uc.uc_stack.ss_size = c->len;
	c->uc.uc_link = NULL;
	uint64_t v = (uint64_t)(uintptr_t)c;
	makecontext(&c->uc, (void (*)(void))uc_entry, 2, (unsigned)(v >> 32), (unsigned)v);
}
#define SWITCH_IN(c) swapcontext(&(c)->sched_uc, &(c)->uc)
#define SWITCH_OUT(c) swapcontext(&(c)->uc, &(c)->sched_uc)
const char *coro_switch_name(void) { return "ucontext"; }
#endif

/*
 * ASan keeps one "current stack" per thread: each switch is announced with
 * start_switch_fiber (target stack bounds) and acknowledged on the other side
 * with finish_switch_fiber, otherwise ASan reports false stack overflows and
 * use-after-return on the coroutine stacks.
 */
#ifdef NCSIM_ASAN
#define ASAN_TO_CORO(c) __sanitizer_start_switch_fiber(&(c)->sched_fake, (c)->lo, (c)->len)
#define ASAN_BACK_IN_SCHED(c) __sanitizer_finish_switch_fiber((c)->sched_fake, NULL, NULL)
#define ASAN_TO_SCHED(c, last) \
	__sanitizer_start_switch_fiber((last) ? NULL : &(c)->coro_fake, (c)->sched_bottom, (c)->sched_size)
#define ASAN_BACK_IN_CORO(c) \
	__sanitizer_finish_switch_fiber((c)->coro_fake, &(c)->sched_bottom, &(c)->sched_size)
#else
#define ASAN_TO_CORO(c) ((void)0)
#define ASAN_BACK_IN_SCHED(c) ((void)0)
#define ASAN_TO_SCHED(c, last) ((void)0)
#define ASAN_BACK_IN_CORO(c) ((void)0)
#endif

static int canary_clobbered(const coro *c)
{
	if (c->map)
		return 0; /* a guard page protects it */
	for (size_t i = 0; i < CANARY_BYTES; i++)
		if (c->lo[i])
			return 1;
	return 0;
}

static void coro_main(coro *c)
{
	ASAN_BACK_IN_CORO(c);
	c->fn(c->arg);
	c->done = 1;
	c->overflow = canary_clobbered(c);
	ASAN_TO_SCHED(c, 1);
	SWITCH_OUT(c);
	/* A finished coroutine is never resumed (coro_resume checks). */
	abort();
}

/* ------------------------------------------------------------------ API */

coro *coro_new(coro_pool *p, coro_fn fn, void *arg, char **err)
{
	coro *c = xcalloc(1, sizeof *c);
	c->fn = fn;
	c->arg = arg;
	c->pool = p;
	c->len = p->stack_size;
	int rc = p->guarded < p->guard_budget ? map_guarded(p, c, err) : take_slab_stack(p, c, err);
	if (rc != 0) {
		free(c);
		return NULL;
	}
#ifdef HAVE_VALGRIND_VALGRIND_H
	c->vg_id = VALGRIND_STACK_REGISTER(c->lo, c->lo + c->len);
#endif
#ifdef NCSIM_ASAN
	/*
	 * A reused stack, or a new mapping at the address of an old one, still
	 * carries the shadow of the frames that lived there: clear it.
	 */
	__asan_unpoison_memory_region(c->lo, c->len);
#endif
	prepare_stack(c);
	return c;
}

void coro_resume(coro *c)
{
	if (c->done)
		return;
	ASAN_TO_CORO(c);
	SWITCH_IN(c);
	ASAN_BACK_IN_SCHED(c);
}

void coro_yield(coro *c)
{
	ASAN_TO_SCHED(c, 0);
	SWITCH_OUT(c);
	ASAN_BACK_IN_CORO(c);
}

void coro_abandon(coro *c)
{
	c->done = 1;
#ifdef NCSIM_ASAN
	/*
	 * The frames the scheduler had below this one when it resumed c are gone
	 * but their redzones are still poisoned: clear them (a generous 1 MiB
	 * below this frame) before anything, the sanitizer's own code included,
	 * uses that stack again. Then ASan, which still takes c's stack for the
	 * current one, is told that the scheduler's is (c's fake stack is
	 * dropped, as when a coroutine ends).
	 */
	char *here = __builtin_frame_address(0);
	size_t below = (size_t)1 << 20;
	__asan_unpoison_memory_region(here - below, below);
	ASAN_TO_SCHED(c, 1);
	ASAN_BACK_IN_SCHED(c);
#endif
}

int coro_done(const coro *c) { return c->done; }
int coro_overflowed(const coro *c) { return c->overflow; }

void coro_free(coro *c)
{
	if (!c)
		return;
#ifdef HAVE_VALGRIND_VALGRIND_H
	VALGRIND_STACK_DEREGISTER(c->vg_id);
#endif
	if (c->map) {
		munmap(c->map, c->map_len);
		c->pool->guarded--;
	} else {
		/*
		 * Kept for reuse as it is: giving the pages back (MADV_DONTNEED) costs
		 * a TLB shootdown per stack and a fault per page on reuse. The pool
		 * unmaps every slab when it is freed.
		 */
		VEC_PUSH(&c->pool->free_lo, c->lo);
	}
	free(c);
}

/*
 * guard.h - the process-wide hooks around one simulation (prefix guard_).
 *
 * A shared skeleton may crash, call exit(), or loop without yielding, and a
 * user may press Ctrl-C: none of these may leave half an output folder or
 * a run without its figures (doc/security.md). While a run is guarded:
 *
 *   SIGINT, SIGTERM      set the flag that the kernel looks at every few
 *                        thousand events (sim_set_interrupt): the run ends
 *                        at the current simulated time and the driver writes
 *                        what was measured, marked "interrupted". A second
 *                        signal ends the process at once.
 *   SIGSEGV, SIGBUS,     raised in a task's coroutine: the handler runs on an
 *   SIGFPE, SIGILL,      alternate stack (the task's own stack may be the
 *   SIGABRT              fault) and jumps back to GUARD_CATCH in the driver.
 *   the watchdog         a SIGALRM timer that sees the same task running,
 *                        with no switch in between, for longer than the
 *                        watchdog time: the same jump.
 *   exit() in a task     an atexit hook says which task called it, runs the
 *                        cleanup (the driver removes its temporary output
 *                        folder) and ends the process with status 1.
 *
 * Handlers only set a flag or jump; the report is written after the jump,
 * outside the handler. A fault outside every task is an ncsim bug: it goes
 * to the handler that was there before (a core dump, or a sanitizer report).
 *
 *     const volatile sig_atomic_t *flag = guard_arm(&opts);
 *     if (GUARD_CATCH() == 0)               0 at first, 1 after a jump
 *         ... simulate ...
 *     else
 *         ... guard_cause() says why, task_escape() names the task ...
 *     guard_disarm();
 */
#ifndef NCSIM_GUARD_H
#define NCSIM_GUARD_H

#include <setjmp.h>
#include <signal.h>

/* The cause of a jump when the watchdog fired (signals give their number). */
#define GUARD_WATCHDOG 1000

typedef struct guard_opts {
	double watchdog_s;          /* wall seconds a task may run without yielding; 0: no watchdog */
	void (*cleanup)(void *ctx); /* run before the process ends because a task called exit(); may be NULL */
	void *cleanup_ctx;
} guard_opts;

/* Where the handlers jump; only GUARD_CATCH should touch it. */
extern sigjmp_buf guard_jmp;
/* Sets the landing point of a jump out of a task: 0 now, 1 after a jump (use only as an if condition). */
#define GUARD_CATCH() sigsetjmp(guard_jmp, 1)

/* Installs the hooks for one run (not nested); returns the interrupt flag for sim_set_interrupt. */
const volatile sig_atomic_t *guard_arm(const guard_opts *o);
/* Restores the handlers, the timer and the signal stack that guard_arm replaced. */
void guard_disarm(void);
/* Why the last jump happened: a signal number or GUARD_WATCHDOG. */
int guard_cause(void);
/* The signal that interrupted the run (SIGINT or SIGTERM), or 0. */
int guard_interrupted(void);
/* A cause of a jump in words: "signal SIGSEGV (invalid memory access)", ... (static text). */
const char *guard_cause_text(int cause);

#endif

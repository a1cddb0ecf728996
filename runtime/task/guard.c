/*
 * guard.c - the process-wide hooks around one simulation (see guard.h).
 *
 * Signal dispositions, the interval timer and the alternate signal stack
 * belong to the process, so this is the one module with state outside a
 * simulation context: what the handlers must reach, kept in `g` and set only
 * while a run is armed.
 */
#include "runtime/task/guard.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "runtime/task/task.h"

/* A task that shows the same switch count at this many timer ticks in a row ran for a whole watchdog time. */
#define WATCHDOG_TICKS 4

/* The signals that end a task which raised them. */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NFAULTS (sizeof fault_signals / sizeof *fault_signals)

sigjmp_buf guard_jmp;

/* Big enough for a handler and a sanitizer's interceptors; static: a fault may come from memory exhaustion. */
static char alt_stack[64 * 1024] __attribute__((aligned(16)));

static struct {
	volatile sig_atomic_t armed;
	volatile sig_atomic_t interrupted;  /* SIGINT or SIGTERM received, 0 before */
	volatile sig_atomic_t cause;        /* of the last jump */
	unsigned long seen_switches;        /* the watchdog's view at its last tick */
	int stuck_ticks;
	int exit_hook;                      /* atexit(on_exit) done */
	guard_opts o;
	struct sigaction old_int, old_term, old_alarm, old_fault[NFAULTS];
	struct itimerval old_timer;
	stack_t old_stack;
} g;

static void on_interrupt(int sig)
{
	if (g.interrupted) {
		/* A second Ctrl-C: the user does not want to wait for the outputs. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	g.interrupted = sig;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (g.armed && rt_self()) {
		g.cause = sig;
		siglongjmp(guard_jmp, 1);
	}
	/* Not a task's fault: the previous disposition gets it (re-executed, or raised again if it was sent). */
	for (size_t i = 0; i < NFAULTS; i++)
		if (fault_signals[i] == sig)
			sigaction(sig, &g.old_fault[i], NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_alarm(int sig)
{
	(void)sig;
	unsigned long sw = task_switches();
	if (!rt_self() || sw != g.seen_switches) {
		g.seen_switches = sw;
		g.stuck_ticks = 0;
		return;
	}
	if (++g.stuck_ticks >= WATCHDOG_TICKS && g.armed) {
		g.cause = GUARD_WATCHDOG;
		siglongjmp(guard_jmp, 1);
	}
}

/* atexit: exit() called inside a task ends the run as a failure, with a message, and nothing left behind. */
static void on_exit_hook(void)
{
	rt_task *t = rt_self();
	if (!g.armed || !t)
		return;
	char name[64];
	task_name(t, t->rank, name, sizeof name);
	fprintf(stderr, "ncsim: %s: %s called exit() at time %.6f us; a skeleton ends by returning from its entry "
	        "function\n", t->job->prog->name, name, (double)rt_now(t) / 1e6);
	if (g.o.cleanup)
		g.o.cleanup(g.o.cleanup_ctx);
	_exit(1);
}

static void install(int sig, void (*fn)(int), struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, old);
}

static void arm_watchdog(double seconds)
{
	double tick = seconds / WATCHDOG_TICKS;
	struct itimerval it;
	memset(&it, 0, sizeof it);
	it.it_interval.tv_sec = (time_t)tick;
	it.it_interval.tv_usec = (suseconds_t)((tick - (double)(time_t)tick) * 1e6);
	if (it.it_interval.tv_sec == 0 && it.it_interval.tv_usec == 0)
		it.it_interval.tv_usec = 1;
	it.it_value = it.it_interval;
	g.seen_switches = task_switches();
	g.stuck_ticks = 0;
	install(SIGALRM, on_alarm, &g.old_alarm);
	setitimer(ITIMER_REAL, &it, &g.old_timer);
}

const volatile sig_atomic_t *guard_arm(const guard_opts *o)
{
	g.o = *o;
	g.interrupted = 0;
	stack_t st = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
	sigaltstack(&st, &g.old_stack);
	for (size_t i = 0; i < NFAULTS; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_fault;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		sigaction(fault_signals[i], &sa, &g.old_fault[i]);
	}
	install(SIGINT, on_interrupt, &g.old_int);
	install(SIGTERM, on_interrupt, &g.old_term);
	if (o->watchdog_s > 0)
		arm_watchdog(o->watchdog_s);
	if (!g.exit_hook)
		g.exit_hook = atexit(on_exit_hook) == 0;
	g.armed = 1;
	return &g.interrupted;
}

void guard_disarm(void)
{
	if (!g.armed)
		return;
	g.armed = 0;
	if (g.o.watchdog_s > 0) {
		setitimer(ITIMER_REAL, &g.old_timer, NULL);
		sigaction(SIGALRM, &g.old_alarm, NULL);
	}
	sigaction(SIGINT, &g.old_int, NULL);
	sigaction(SIGTERM, &g.old_term, NULL);
	for (size_t i = 0; i < NFAULTS; i++)
		sigaction(fault_signals[i], &g.old_fault[i], NULL);
	sigaltstack(&g.old_stack, NULL);
}

int guard_interrupted(void) { return g.interrupted; }
int guard_cause(void) { return g.cause; }

const char *guard_cause_text(int cause)
{
	switch (cause) {
	case GUARD_WATCHDOG: return "ran without yielding for longer than the watchdog time";
	case SIGSEGV: return "signal SIGSEGV (invalid memory access, or a task stack overflow: see --stack-size)";
	case SIGBUS: return "signal SIGBUS (bad memory access)";
	case SIGFPE: return "signal SIGFPE (arithmetic error, such as an integer division by zero)";
	case SIGILL: return "signal SIGILL (illegal instruction)";
	case SIGABRT: return "signal SIGABRT (abort)";
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	default: return "an unexpected signal";
	}
}

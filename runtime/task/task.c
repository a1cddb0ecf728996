/*
 * task.c - the task entity, its coroutine, identity and remapping (see task.h).
 */
#include "runtime/task/task.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "ncsim/stdlib.h"
#include "runtime/coll/coll.h"
#include "runtime/task/deadlock.h"
#include "runtime/task/drv_par.h"
#include "runtime/task/latency.h"
#include "runtime/io/io_client.h"
#include "runtime/task/rt_log.h"
#include "runtime/task/rt_random.h"
#include "runtime/stats/ncptl_log.h"
#include "runtime/traffic/traffic.h"

/*
 * The task whose coroutine is running on this thread (NULL in the
 * scheduler), and the number of switches into coroutines so far. It is the
 * only mutable state outside a context: rt_self() serves APIs that have no
 * task argument (Union-style skeletons call MPI-like functions without one),
 * and the run guard (guard.h) reads it from a signal handler to name the
 * task that crashed or stopped yielding. `task` is set just before every
 * switch into a coroutine and cleared when control comes back, so it is never
 * stale; it is thread-local so that independent simulations may run on
 * different threads. The initial-exec model makes each access one load off
 * the thread pointer instead of a call to __tls_get_addr (three per switch
 * into a coroutine): the library is loaded with the program, and 16 bytes
 * fit in the static TLS reserve the C library keeps even for late loads.
 */
static __thread __attribute__((tls_model("initial-exec"))) struct {
	rt_task *task;
	unsigned long switches;
} task_current;

rt_task *rt_self(void) { return task_current.task; }
unsigned long task_switches(void) { return task_current.switches; }

rt_task *task_escape(void)
{
	rt_task *t = task_current.task;
	task_current.task = NULL;
	if (t) {
		t->state = TK_FAILED; /* its coroutine is abandoned mid-way: never resumed */
		t->res.len = 0;       /* cut off at any instruction, its tracked objects may be half updated: kept */
		coro_abandon(t->co);
	}
	return t;
}

/* ------------------------------------------------------------ the entity */

/* Switches into t until it yields, then settles its state. */
static void run(rt_task *t)
{
	t->state = TK_RUNNING;
	task_current.task = t;
	task_current.switches++;
	coro_resume(t->co);
	task_current.task = NULL;
	if (t->state == TK_RUNNING && coro_done(t->co)) {
		t->state = TK_DONE;
		t->tot.end = sim_now(t->w->ctx);
		t->w->running--;
		if (coro_overflowed(t->co))
			fprintf(stderr, "ncsim: warning: the stack of task %" PRIu32 " overflowed; "
			        "raise the stack size\n", t->rank);
		if (t->mpi.user_reqs.len)
			fprintf(stderr, "ncsim: warning: task %" PRIu32 " ended with %zu asynchronous "
			        "operation(s) never awaited\n", t->rank, t->mpi.user_reqs.len);
		if (t->res.len) {
			/* Their scopes are gone with the frames that held them: nothing left to release. */
			fprintf(stderr, "ncsim: warning: task %" PRIu32 " ended with %zu object(s) still tracked "
			        "(rt_track without rt_release)\n", t->rank, t->res.len);
			t->res.len = 0;
		}
		char *err = NULL;
		if (t->log && rl_close(t, NULL, &err) < 0) {
			task_fail(t, err);
			free(err);
		}
	}
}

static void on_start(sim_ctx *ctx, void *state, const sim_event *ev)
{
	rt_task *t = state;
	cnt_init(&t->cnt, sim_now(ctx));
	if (t->job->log) {
		char *err = NULL;
		if (rl_open(t, &err) < 0) {
			task_fail(t, err);
			free(err);
			return;
		}
	}
	run(t);
}

static void on_resume(sim_ctx *ctx, void *state, const sim_event *ev)
{
	rt_task *t = state;
	if (t->state == TK_SLEEPING)
		run(t);
}

static void on_deliver(sim_ctx *ctx, void *state, const sim_event *ev)
{
	mp_deliver(state, SIM_PAYLOAD(ev, const net_delivery));
}

static void on_wake(sim_ctx *ctx, void *state, const sim_event *ev) { task_wake(state); }

static void on_io_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	io_on_done(state, SIM_PAYLOAD(ev, const sto_completion));
}

/* The interval before a job's start is charged to nothing: the counters start with the task. */
static void on_init(sim_ctx *ctx, void *state, sim_eid self)
{
	rt_task *t = state;
	sim_send(ctx, self, t->job->start, TK_EV_START, NULL, 0);
}

static const sim_handler task_handlers[TK_NEVENTS] = {
	[TK_EV_START] = on_start,
	[TK_EV_RESUME] = on_resume,
	[TK_EV_DELIVER] = on_deliver,
	[TK_EV_WAKE] = on_wake,
	[TK_EV_IO_DONE] = on_io_done,
};

static const sim_type task_type = {
	.name = "task",
	.handlers = task_handlers,
	.nhandlers = TK_NEVENTS,
	.init = on_init,
};

/* ------------------------------------------------------------ time */

static void charge(rt_task *t, enum task_time cat, ncsim_time_t d) { t->tot.t[cat] += d; }

void task_sleep(rt_task *t, ncsim_time_t d, enum task_time cat)
{
	if (d == 0)
		return;
	/* UINT64_MAX is what a saturated duration or cost comes as (base/checked.h, ncsim_ps) */
	if (d >= UINT64_MAX - sim_now(t->w->ctx))
		rt_fatal(t, "this statement would take the simulated time past 2^64 ps (about 213 days), the end of the clock");
	sim_send(t->w->ctx, t->eid, d, TK_EV_RESUME, NULL, 0);
	t->state = TK_SLEEPING;
	coro_yield(t->co);
	charge(t, cat, d);
}

ncsim_time_t task_block(rt_task *t, const char *what)
{
	ncsim_time_t b = sim_now(t->w->ctx);
	t->block_what = what;
	t->state = TK_BLOCKED;
	coro_yield(t->co);
	t->block_what = NULL;
	return sim_now(t->w->ctx) - b;
}

void task_wake(rt_task *t)
{
	if (t->state == TK_BLOCKED)
		run(t);
}

void task_charge_mpi_wait(rt_task *t, ncsim_time_t begin, ncsim_time_t end, ncsim_time_t partner)
{
	ncsim_time_t d = end - begin, sync = 0;
	if (partner > begin)
		sync = partner - begin < d ? partner - begin : d;
	charge(t, TK_T_MPI_SYNC, sync);
	charge(t, TK_T_MPI_NET, d - sync);
}

/* ------------------------------------------------------------ world and jobs */

task_world *task_world_new(sim_ctx *ctx, net_model *net, const mp_params *mp, double mem_bw,
                       size_t stack_size, uint64_t seed)
{
	task_world *w = xcalloc(1, sizeof *w);
	w->ctx = ctx;
	w->net = net;
	w->mp = *mp;
	w->mem_bw = mem_bw;
	w->seed = seed;
	w->stacks = coro_pool_new(stack_size);
	return w;
}

static void task_body(void *arg)
{
	rt_task *t = arg;
	t->job->prog->entry(t);
}

/*
 * What a task still tracks when it is freed belongs to an abandoned task
 * (one that returned or crashed tracks nothing): released newest first,
 * as its scopes would have ended.
 */
static void release_tracked(rt_task *t)
{
	while (t->res.len) {
		task_res r = t->res.ptr[--t->res.len];
		r.release(r.obj);
	}
}

static void job_free(task_job *j)
{
	for (uint32_t r = 0; r < j->ntasks && j->tasks; r++) {
		rt_task *t = j->tasks[r];
		if (!t)
			continue;
		release_tracked(t); /* before coro_free: the objects live on its stack */
		VEC_FREE(&t->res);
		coro_free(t->co);
		cnt_free(&t->cnt);
		mp_task_free(t);
		io_task_free(t);
		rr_task_free(t);
		nlog_discard(t->log);
		free(t->v2p);
		free(t->p2v);
	}
	free(j->block);
	free(j->tasks);
	free(j->members);
	free(j->nodes);
	free(j->params);
	free(j->name);
	free(j->lat);
	rl_job_free(j->log);
	free(j);
}

void task_world_free(task_world *w)
{
	if (!w)
		return;
	trf_world_release(w);
	for (size_t i = 0; i < w->jobs.len; i++)
		job_free(w->jobs.ptr[i]);
	VEC_FREE(&w->jobs);
	VEC_FREE(&w->all);
	coro_pool_free(w->stacks);
	mp_envpool_free(&w->envs);
	ncsim_filecache_free(w->files);
	coll_ctx_free(w->coll);
	free(w->fatal);
	free(w->fatal_msg);
	free(w);
}

uint64_t task_group_key(const rt_int *m, int n)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)n;
	/* Long lists are sampled at fixed positions: the key costs O(1) per collective. */
	int step = n > 64 ? n / 64 : 1;
	for (int i = 0; i < n; i += step)
		h = (h ^ (uint64_t)m[i]) * 1099511628211ULL;
	if (n)
		h = (h ^ (uint64_t)m[n - 1]) * 1099511628211ULL;
	return h;
}

static int job_fill(task_world *w, task_job *j, char **err)
{
	uint32_t nnodes = w->net->nnodes;
	for (uint32_t r = 0; r < j->ntasks; r++) {
		if (j->nodes[r] >= nnodes) {
			*err = xasprintf("job %s: rank %" PRIu32 " placed on node %" PRIu32 ", but the network has %" PRIu32
			                 " nodes", j->name, r, j->nodes[r], nnodes);
			return -1;
		}
		rt_task *t = &j->block[r];
		t->w = w;
		t->job = j;
		t->rank = r;
		t->node = j->nodes[r];
		t->mpi.wait_left = -1;
		t->co = coro_new(w->stacks, task_body, t, err);
		if (!t->co)
			return -1;
		t->eid = sim_entity_add(w->ctx, &task_type, t);
		if (r == 0)
			j->first_eid = t->eid;
		j->tasks[r] = t;
		j->members[r] = r;
		VEC_PUSH(&w->all, t);
		w->running++;
	}
	return 0;
}

/* Stack a task touches before its first wait: what small programs measure (stacks are mapped lazily). */
#define TASK_STACK_TOUCHED 8192u

uint64_t task_memory_bytes(uint64_t ntasks)
{
	uint64_t per = sizeof(rt_task) + sim_entity_bytes() + 4 * sizeof(uint32_t) + 2 * sizeof(rt_task *) +
	               TASK_STACK_TOUCHED;
	return ntasks * per;
}

task_job *task_job_add(task_world *w, const rt_program *prog, const char *name, uint32_t ntasks,
                   const rt_int *params, const uint32_t *nodes, uint64_t seed, char **err)
{
	task_job *j = xcalloc(1, sizeof *j);
	j->index = (unsigned)w->jobs.len;
	j->prog = prog;
	j->name = xstrdup(name ? name : prog->name);
	j->ntasks = ntasks;
	j->seed = seed;
	j->lat = xcalloc(TK_NLAT, sizeof *j->lat);
	j->params = xcalloc(prog->nparams ? prog->nparams : 1, sizeof *j->params);
	if (prog->nparams)
		memcpy(j->params, params, prog->nparams * sizeof *params);
	j->nodes = xcalloc(ntasks ? ntasks : 1, sizeof *j->nodes);
	for (uint32_t r = 0; r < ntasks; r++)
		j->nodes[r] = nodes ? nodes[r] : r % w->net->nnodes;
	j->tasks = xcalloc(ntasks ? ntasks : 1, sizeof *j->tasks);
	j->block = xcalloc_lines(ntasks ? ntasks : 1, sizeof *j->block); /* the layout of rt_task is by line */
	j->members = xcalloc(ntasks ? ntasks : 1, sizeof *j->members);
	j->world = (rt_group){.members = j->members, .n = (int)ntasks};
	VEC_PUSH(&w->jobs, j);
	if (job_fill(w, j, err) != 0)
		return NULL; /* the job stays listed and is freed with the world */
	j->world_hash = task_group_key(j->members, (int)ntasks);
	return j;
}

int task_world_check(task_world *w, int stopped_at_until, FILE *err)
{
	if (w->fatal)
		return 1;
	if (w->running == 0 || stopped_at_until)
		return 0;
	if (w->par)
		drvp_deadlock_report(w, err);
	else
		dl_report(w, sim_now(w->ctx), NULL, NULL, err);
	return 1;
}

void task_name(const rt_task *t, uint32_t phys, char *buf, size_t size)
{
	rt_task *p = t->job->tasks[phys];
	rt_int v = task_virt(p, phys);
	if (t->w->jobs.len > 1)
		snprintf(buf, size, "job %s task %" PRId64, t->job->name, v);
	else
		snprintf(buf, size, "task %" PRId64, v);
}

/* ------------------------------------------------------------ identity */

rt_int rt_rank(const rt_task *t) { return task_virt(t, t->rank); }
rt_int rt_num_tasks(const rt_task *t) { return t->job->ntasks; }
ncsim_time_t rt_now(const rt_task *t) { return sim_now(t->w->ctx); }
uint64_t rt_seed(const rt_task *t) { return t->job->seed; }
void rt_line(rt_task *t, int line) { t->line = line; }
const rt_group *rt_world(rt_task *t) { return &t->job->world; }

rt_int rt_param_value(const rt_task *t, unsigned idx)
{
	return idx < t->job->prog->nparams ? t->job->params[idx] : 0;
}

/*
 * Records the run's first error, "<msg> (<task>, line L, time T us)",
 * preceded on stderr by "<file>:<line>: " when the program has a source
 * file, else by "<program>: " (a C skeleton that sets no line gets no line
 * either); the logs' abort epilogues get it without the prefix.
 */
static void record_failure(rt_task *t, const char *msg)
{
	task_world *w = t->w;
	const rt_program *p = t->job->prog;
	char name[64];
	task_name(t, t->rank, name, sizeof name);
	double us = (double)sim_now(w->ctx) / 1e6;
	char *where = t->line > 0 ? xasprintf("%s (%s, line %d, time %.6f us)", msg, name, t->line, us)
	                          : xasprintf("%s (%s, time %.6f us)", msg, name, us);
	char *full = p->source_file && t->line > 0 ? xasprintf("%s:%d: %s", p->source_file, t->line, where)
	                                           : xasprintf("%s: %s", p->name, where);
	if (!w->par) /* over ranks, rank 0 prints the run's first failure after the run (drv_par.c) */
		fprintf(stderr, "%s\n", full);
	if (!w->fatal) {
		w->fatal = full;
		w->fatal_msg = where;
		/* the firing event's key: the order in which a sequential run meets failures */
		const sim_event *ev = sim_firing(w->ctx);
		w->fatal_at = sim_now(w->ctx);
		w->fatal_src = ev ? ev->src : t->eid;
		w->fatal_seq = ev ? ev->seq : 0;
	} else {
		free(full);
		free(where);
	}
	t->state = TK_FAILED;
	sim_stop(w->ctx, 1);
}

void task_fail(rt_task *t, const char *msg)
{
	record_failure(t, msg ? msg : "run-time error");
}

/* Ends t's coroutine after its failure was recorded: the only way out of rt_fatal. */
_Noreturn static void end_failed_task(rt_task *t)
{
	/* The task's own log gets the abort epilogue now (§9.10); the driver closes the others. */
	char *err = NULL;
	if (rl_close(t, t->w->fatal_msg, &err) < 0) {
		fprintf(stderr, "ncsim: %s\n", err); /* the run has failed already: say so, nothing more */
		free(err);
	}
	for (;;)
		coro_yield(t->co); /* never resumed: handlers ignore failed tasks */
}

/* Fails the run with the message msg (heap, freed here); does not return inside t's coroutine. */
static void fail_with(rt_task *t, char *msg)
{
	if (!t) {
		/* Not inside a simulation: nothing to stop cleanly. */
		fprintf(stderr, "ncsim: fatal: %s\n", msg);
		abort();
	}
	record_failure(t, msg);
	free(msg);
	if (t == task_current.task)
		end_failed_task(t);
}

void task_failf(rt_task *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	fail_with(t, msg);
}

_Noreturn void task_fatal_err(rt_task *t, char *err, const char *fallback)
{
	if (!err)
		err = xstrdup(fallback ? fallback : "run-time error");
	/* Outside the task's coroutine nothing can stop it cleanly: fail_with aborts. */
	fail_with(t == task_current.task ? t : NULL, err);
	abort(); /* not reached: fail_with ends the task's coroutine */
}

_Noreturn void rt_fatal(rt_task *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	task_fatal_err(t, msg, NULL);
}

coll_ctx *rt_coll_ctx(rt_task *t) { return t->w->coll; }

/* ------------------------------------------------------------ tracked objects */

void rt_track(rt_task *t, void *obj, void (*release)(void *obj))
{
	VEC_PUSH(&t->res, ((task_res){obj, release}));
}

/* Pops obj, which must be the object tracked last. */
static task_res untrack(rt_task *t, void *obj, const char *fn)
{
	if (!t->res.len || t->res.ptr[t->res.len - 1].obj != obj)
		rt_fatal(t, "%s: %s", fn, t->res.len ? "not the object tracked last" : "no object is tracked");
	return t->res.ptr[--t->res.len];
}

void rt_release(rt_task *t, void *obj) { untrack(t, obj, "rt_release").release(obj); }
void rt_untrack(rt_task *t, void *obj) { (void)untrack(t, obj, "rt_untrack"); }

/* ------------------------------------------------------------ remapping (§8.14) */

void task_remap_init(rt_task *t)
{
	uint32_t n = t->job->ntasks;
	t->v2p = xcalloc(n, sizeof *t->v2p);
	t->p2v = xcalloc(n, sizeof *t->p2v);
	for (uint32_t i = 0; i < n; i++)
		t->v2p[i] = t->p2v[i] = (int32_t)i;
}

void rt_assign_processor(rt_task *t, rt_int task, rt_int proc)
{
	rt_int n = t->job->ntasks;
	if (task < 0 || task >= n || proc < 0 || proc >= n)
		rt_fatal(t, "Cannot assign processor %" PRId64 " to task %" PRId64 " (0..%" PRId64 ")", proc, task, n - 1);
	if (!t->v2p)
		task_remap_init(t);
	/* The task that held `proc` takes over task's old processor: a swap. */
	int32_t old = t->v2p[task], other = t->p2v[proc];
	t->v2p[task] = (int32_t)proc;
	t->p2v[proc] = (int32_t)task;
	t->v2p[other] = old;
	t->p2v[old] = other;
}

rt_int rt_processor_of(const rt_task *t, rt_int task)
{
	return task < 0 || task >= t->job->ntasks ? -1 : (rt_int)task_phys(t, task);
}

rt_int rt_task_of(const rt_task *t, rt_int proc)
{
	return proc < 0 || proc >= t->job->ntasks ? -1 : task_virt(t, (uint32_t)proc);
}

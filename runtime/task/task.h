/*
 * task.h - simulated tasks: the task entity, its coroutine and the glue to
 * the kernel (prefix task_). Internal to the runtime.
 *
 * A task is a kernel entity whose state is its rt_task record. Its program
 * runs in a coroutine; whenever the program needs simulated time to pass it
 * yields, and a handler of the task entity resumes it:
 *
 *   kernel --START--> task handler --coro_resume--> program ... task_sleep()
 *   kernel --RESUME-> task handler --coro_resume--> program ... task_block()
 *   kernel --DELIVER (network) / WAKE (other modules)--> handler: task_wake()
 *
 * Every interval of simulated time a task spends is charged to exactly one
 * category (compute, sleep, I/O, or inside MPI: network, synchronization,
 * software stack), so that the per-task totals add up to its lifetime.
 */
#ifndef NCSIM_TASK_H
#define NCSIM_TASK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/task/coro.h"
#include "runtime/task/counters.h"
#include "runtime/kernel/sim.h"
#include "runtime/mpi/mpi_proto.h"
#include "runtime/net/net.h"
#include "base/util.h"

/* Handler kinds of the task entity type. */
enum task_event {
	TK_EV_START,   /* run the program from its beginning */
	TK_EV_RESUME,  /* a task_sleep has elapsed */
	TK_EV_DELIVER, /* a network delivery (net_delivery payload) for the MPI layer */
	TK_EV_WAKE,    /* another module's completion: wakes a task blocked in task_block */
	TK_EV_IO_DONE, /* a storage completion (sto_completion payload) for the I/O client */
	TK_NEVENTS
};

enum task_state { TK_NEW, TK_RUNNING, TK_SLEEPING, TK_BLOCKED, TK_DONE, TK_FAILED };

/* Where a task's simulated time went. */
enum task_time {
	TK_T_COMPUTE, TK_T_SLEEP, TK_T_IO,
	TK_T_MPI_NET, TK_T_MPI_SYNC, TK_T_MPI_STACK,
	TK_NTIMES
};

/* Per-task totals written to tasks.csv; never reset by the program. The times fill one cache line (rt_task). */
typedef struct task_totals {
	ncsim_time_t t[TK_NTIMES];
	ncsim_time_t mpi_total;  /* sum of outermost MPI operation intervals */
	ncsim_time_t end;        /* when the program returned */
	uint64_t bytes_sent, bytes_recv, msgs_sent, msgs_recv; /* user point-to-point */
	uint64_t mpi_ops;        /* outermost MPI operations */
	ncsim_time_t io_active;  /* time with at least one I/O request outstanding (union of the intervals) */
	uint64_t io_read, io_written, io_ops; /* completed I/O requests and their bytes */
} task_totals;

typedef struct task_world task_world;

typedef struct task_job {
	unsigned index;
	const rt_program *prog;
	char *name;
	uint32_t ntasks;
	rt_int *params;      /* one value per program parameter */
	uint64_t seed;       /* rt_seed: the program's --seed, else the run's seed */
	uint32_t *nodes;     /* node of each physical rank */
	rt_task **tasks;     /* physical rank -> task */
	sim_eid first_eid;   /* entity of rank r: first_eid + r */
	rt_int *members;     /* 0 .. ntasks-1 */
	rt_group world;
	uint64_t world_hash; /* p2p_coll_tag's key for `world` */
	void *user;          /* owned by the driver (program arguments) */
	struct tk_lat *lat;  /* TK_NLAT latency distributions (runtime/task/latency.h) */
	ncsim_time_t start;  /* when its tasks start (set before sim_run) */
	struct rl_job *log;  /* log-file settings (runtime/task/rt_log.h), NULL: the program keeps no log */
	rt_task *block;      /* the task records, contiguous (tasks[r] == &block[r]) */
} task_job;

typedef struct task_collseq {
	uint64_t key, count;
} task_collseq;

/* The matching queues of one context (enum p2p_ctx): one cache line, which a receive or an arrival touches. */
typedef struct task_mq {
	mp_queue posted;     /* receives waiting for a message */
	mp_queue unexpected; /* messages waiting for a receive (env indices) */
} task_mq;

/*
 * The MPI state of a task: requests, matching queues, credits (see
 * mpi_proto.h). Its first cache line holds what every delivery and CPU step
 * of a wait touches; then come an operation's and the queues' lines.
 */
typedef struct task_mpi {
	VEC(mp_req) reqs;
	uint32_t free_req;          /* free list of reqs (index+1), 0: empty */
	uint32_t cpu_head, cpu_tail; /* requests needing this task's CPU (index+1) */
	int wait_left;              /* requests of that wait not yet done; -1: no wait in progress */
	int depth;                  /* p2p_op_begin nesting */
	int nwaiting;
	ncsim_time_t seg_partner;   /* latest partner post time seen in the current wait */
	ncsim_time_t seg_begin;     /* start of the wait segment not yet charged */
	/* line 2 */
	ncsim_time_t op_start;
	const rt_req *waiting;      /* requests of the wait in progress (deadlock reports) */
	VEC(ncsim_time_t) credits;  /* min-heap of mailbox credit return times */
	VEC(rt_req) user_reqs;      /* outstanding rt_isend/rt_irecv requests */
	/* lines 3 to 5 */
	task_mq q[MP_NCTX];
	task_collseq coll_world;      /* p2p_coll_tag counter of the job's world group (the common case) */
	VEC(task_collseq) coll_seq;   /* p2p_coll_tag counters of the other groups seen */
} task_mpi;

/* An object of the running program that rt_track registered, with its release function. */
typedef struct task_res {
	void *obj;
	void (*release)(void *obj);
} task_res;

/*
 * A task's record, laid out by cache line: every event of a task in an MPI
 * wait reads and writes its lines 0, 1 and 4, and at times 2, 5 and the
 * line of its matching context, so a
 * delivery touches few lines of a record that the other tasks' events
 * have pushed out of the cache since its last one. The block of a job's
 * records is line-aligned (task_job_add); the static asserts below keep
 * the layout.
 *
 *   line 0   w job co eid rank node state line v2p block_what
 *   line 1   tot.t[6] tot.mpi_total tot.end         (the time charges)
 *   line 2   tot.bytes_* msgs_* mpi_ops io_*        (per message, per op)
 *   line 3   tot.io_ops, the lazily allocated parts
 *   line 4   mpi: reqs free_req cpu_head/tail wait_left depth seg_partner seg_begin
 *   line 5   mpi: op_start waiting credits user_reqs
 *   line 6-8 mpi: q[c].posted q[c].unexpected, a line per matching context
 *   line 9+  mpi: coll_*; cnt, p2v, res
 */
struct rt_task {
	task_world *w;
	task_job *job;
	coro *co;
	sim_eid eid;
	uint32_t rank;     /* physical rank in the job */
	uint32_t node;
	uint8_t state;     /* enum task_state */
	int line;          /* source line of the statement being executed */
	int32_t *v2p;      /* task remapping (virtual -> physical), NULL while it is the identity */
	const char *block_what; /* task_block's reason, for deadlock reports */
	task_totals tot;
	/* Allocated on first use: most tasks of a large run never need them. */
	struct ncsim_mt64 *rng;      /* rt_rng: unsynchronised generator */
	struct ncsim_mt64 *sync_rng; /* rt_random_task: synchronised generator */
	struct nlog *log;            /* this task's log file (runtime/task/rt_log.h) */
	struct io_task *io;          /* files and I/O requests (runtime/io/io_client.h) */
	_Alignas(64) task_mpi mpi;
	cnt_state cnt;
	int32_t *p2v;                /* the inverse of v2p */
	VEC(task_res) res;           /* rt_track's objects, oldest first: released if the task is abandoned */
};
_Static_assert(offsetof(rt_task, tot) == 64 && offsetof(rt_task, tot.bytes_sent) == 128, "lines 1 and 2 of rt_task");
_Static_assert(offsetof(rt_task, mpi) == 256 && offsetof(rt_task, mpi.op_start) == 320 &&
               offsetof(rt_task, mpi.q) == 384 && sizeof(task_mq) == 64, "lines 4 to 8 of rt_task");

/* Shared configuration and pools of the task layer of one simulation. */
struct task_world {
	sim_ctx *ctx;
	net_model *net;
	mp_params mp;
	double mem_bw;        /* bytes/s for rt_touch */
	uint64_t seed;
	coro_pool *stacks;
	mp_envpool envs;
	uint64_t rtt_bytes;   /* mailbox credit round trip of rtt_bytes on a uniform network (mpi_proto.c) */
	ncsim_time_t rtt;
	VEC(task_job *) jobs;
	VEC(rt_task *) all;   /* every task, in entity order */
	char *fatal;          /* first rt_fatal message, or NULL */
	char *fatal_msg;      /* its text without the program name and location (log epilogues) */
	ncsim_time_t fatal_at; /* the key (time, source, sequence) of the event in which it happened */
	sim_eid fatal_src;
	uint64_t fatal_seq;
	uint32_t running;     /* tasks that have not returned */
	struct sto_system *sto;          /* storage subsystem (set by the driver), or NULL */
	struct pln_log *msglog;          /* messages.csv while the run writes it (set by the driver), or NULL */
	/* Builds sto on the first I/O request when the driver deferred it (NULL: never). */
	struct sto_system *(*sto_make)(void *ctx, char **err);
	void *sto_make_ctx;
	struct coll_ctx *coll;           /* collectives state (rt_coll_ctx), or NULL */
	struct trf_world *traffic;       /* traffic models (runtime/traffic/traffic.h), created on first use, or NULL */
	struct ncsim_filecache *files;   /* rt_filecache, created on first use */
	FILE *out;                       /* OUTPUTS lines (stdout unless redirected) */
	struct drv_par *par;             /* a run over MPI ranks (runtime/task/drv_par.h), or NULL */
};

/* Creates the task layer on ctx and net (both owned by the caller). */
task_world *task_world_new(sim_ctx *ctx, net_model *net, const mp_params *mp, double mem_bw,
                       size_t stack_size, uint64_t seed);
/* Frees the world, its jobs and tasks (their coroutines may be suspended). NULL is a no-op. */
void task_world_free(task_world *w);
/*
 * Adds a job of `ntasks` tasks running prog, with its parameter values (copied)
 * and the node of each rank (copied; NULL: rank i on node i mod nnodes).
 * Returns the job, or NULL with *err (bad node, no stack).
 */
/* Bytes ntasks tasks cost: their records and the stack pages a task touches before it first waits. */
uint64_t task_memory_bytes(uint64_t ntasks);
task_job *task_job_add(task_world *w, const rt_program *prog, const char *name, uint32_t ntasks,
                   const rt_int *params, const uint32_t *nodes, uint64_t seed, char **err);
/* After sim_run: 0 if every task returned, else writes a report (deadlock or fatal) on err and returns 1. */
int task_world_check(task_world *w, int stopped_at_until, FILE *err);

/* Switches into task coroutines so far on this thread (the watchdog sees a task that stopped yielding). */
unsigned long task_switches(void);
/*
 * After a jump out of a task's coroutine (a crash or the watchdog, guard.h):
 * the task that was running (marked failed, never resumed again), or NULL if
 * none was; rt_self() is NULL afterwards.
 */
rt_task *task_escape(void);

/* ---- used by the runtime modules from inside a task */

/* Lets d ps pass on this task, charged to category `cat`. d == 0 returns at once. */
void task_sleep(rt_task *t, ncsim_time_t d, enum task_time cat);
/* Suspends the task until task_wake; `what` describes the wait for deadlock reports. Returns the time blocked. */
ncsim_time_t task_block(rt_task *t, const char *what);
/* From a handler of t's entity: resumes t if it is blocked in task_block. */
void task_wake(rt_task *t);
/* Records a run-time error found outside t's coroutine (a handler): stops the run, like rt_fatal. */
void task_fail(rt_task *t, const char *msg);
/*
 * Fails the run for an error of t, reported like rt_fatal (program, task, line,
 * simulated time): inside t's coroutine it does not return; from a handler it
 * stops the run and returns, and the caller must not go on with the operation.
 */
void task_failf(rt_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt_fatal with a message that comes as a heap string: err (freed here), or `fallback` if err is NULL. */
_Noreturn void task_fatal_err(rt_task *t, char *err, const char *fallback);
/* Charges a blocked interval inside MPI: the part after `partner` began counts as network. */
void task_charge_mpi_wait(rt_task *t, ncsim_time_t begin, ncsim_time_t end, ncsim_time_t partner);
/* The task of physical rank r of t's job. */
static inline rt_task *task_peer(const rt_task *t, uint32_t r) { return t->job->tasks[r]; }
/* Gives t a remapping of its own, the identity so far (ASSIGNED TO PROCESSOR changes it). */
void task_remap_init(rt_task *t);
/* Physical rank of virtual task v (no range check). */
static inline uint32_t task_phys(const rt_task *t, rt_int v) { return t->v2p ? (uint32_t)t->v2p[v] : (uint32_t)v; }
/* Virtual id of physical rank p. */
static inline rt_int task_virt(const rt_task *t, uint32_t p) { return t->p2v ? t->p2v[p] : (rt_int)p; }
/* Key of a group for p2p_coll_tag (a hash of its member list; long lists are sampled). */
uint64_t task_group_key(const rt_int *members, int n);
/* "task 3" or "job 1 task 3": a task's name in messages (virtual id, as the user sees it). */
void task_name(const rt_task *t, uint32_t phys_rank, char *buf, size_t size);

#endif

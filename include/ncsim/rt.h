/*
 * ncsim/rt.h - the skeleton API: what generated and hand-written skeletons call.
 *
 * A skeleton is a program descriptor (rt_program) whose entry function runs once
 * per simulated task, inside its own coroutine. Every blocking call below posts
 * an operation to the simulator and suspends the calling task until the
 * operation completes in simulated time. All functions take the calling task's
 * handle first; a handle is valid only inside its own task.
 *
 * Units: time in picoseconds (ncsim_time_t), sizes in bytes. Task ids are
 * virtual coNCePTuaL task ids of the task's job (0 .. num_tasks-1).
 *
 * Stability: this header is versioned by NCSIM_RT_ABI. A skeleton checks it at
 * load time (rt_init), so a header/library mismatch fails at once.
 */
#ifndef NCSIM_RT_H
#define NCSIM_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: UNION_Compute, UNION_IO_WRITE and UNION_IO_READ take doubles (ncsim/union.h). 3: rt_track. */
#define NCSIM_RT_ABI 3

typedef uint64_t ncsim_time_t; /* simulated time, picoseconds */
typedef int64_t rt_int;        /* the coNCePTuaL integer (ncptl_int) */

#define RT_PS_PER_US ((ncsim_time_t)1000000)

typedef struct rt_task rt_task; /* opaque: one simulated task */

/* ------------------------------------------------------------------ program */

/* One command-line parameter of a program (coNCePTuaL `COMES FROM`). */
typedef struct rt_param {
	const char *name;      /* variable name, for messages */
	const char *desc;      /* description, shown by --help and in the log prologue */
	const char *long_opt;  /* "--reps" */
	const char *short_opt; /* "-r", or NULL */
	rt_int defval;         /* default when the option is absent */
} rt_param;

enum rt_program_flags {
	RT_PROG_USES_LOG = 1u << 0,    /* opens one log file per task (LANGUAGE.md §10.1) */
	RT_PROG_USES_RANDOM = 1u << 1, /* gets the --seed option */
	/*
	 * Has traffic statements, whose messages may be of any size, 0 bytes
	 * included: a run over MPI ranks then takes the shortest message on the
	 * wire to be empty when it computes its lookahead.
	 */
	RT_PROG_USES_TRAFFIC = 1u << 2,
};

/* The program descriptor a skeleton exports. */
typedef struct rt_program {
	unsigned abi;              /* NCSIM_RT_ABI of the header it was compiled with */
	const char *name;          /* program name, e.g. "latency" */
	const char *source_file;   /* path of the .ncptl source, or NULL */
	const char *source_text;   /* whole source, copied into log prologues, or NULL */
	const rt_param *params;    /* command-line parameters */
	unsigned nparams;
	unsigned flags;            /* enum rt_program_flags */
	/* Runs once per task. Parameter values are read with rt_param_value. */
	void (*entry)(rt_task *t);
} rt_program;

/* Checks the ABI version a skeleton was compiled with; returns 0, or -1 with a message on stderr. */
int rt_init(unsigned abi, const rt_program *prog);
/*
 * Standalone driver: parses the simulator's options (-n TASKS, --system FILE,
 * --network MODEL, --seed S, --out DIR, ...), then `--` and the program's own
 * options, simulates, writes the output folder, and returns an exit status.
 */
int rt_main(unsigned abi, const rt_program *prog, int argc, char **argv);

/*
 * NCSIM_SKELETON(prog): the two entry points of a hand-written skeleton whose
 * descriptor is the rt_program `prog`. Write it once, at file scope, after
 * the descriptor:
 *
 *     static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "x", .entry = body };
 *     NCSIM_SKELETON(program)
 *
 * It defines
 *   - ncsim_skeleton(), which the build cache of `ncsim run skeleton.c -n N`
 *     looks up after loading the file: the descriptor, or NULL when the
 *     runtime rejects the ABI the file was compiled with (rt_init);
 *   - main(), calling rt_main, so the same file also builds standalone:
 *     cc x.c $(pkg-config --cflags --libs ncsim) && ./a.out -n N.
 */
#define NCSIM_SKELETON(prog)                                                      \
	NCSIM_SKELETON_EXTERN_ const rt_program *ncsim_skeleton(void);                \
	NCSIM_SKELETON_EXTERN_ const rt_program *ncsim_skeleton(void)                 \
	{                                                                             \
		return rt_init(NCSIM_RT_ABI, &(prog)) == 0 ? &(prog) : NULL;              \
	}                                                                             \
	int main(int argc, char **argv);                                              \
	int main(int argc, char **argv) { return rt_main(NCSIM_RT_ABI, &(prog), argc, argv); }
#ifdef __cplusplus
#define NCSIM_SKELETON_EXTERN_ extern "C"
#else
#define NCSIM_SKELETON_EXTERN_
#endif

/* -------------------------------------------------------- identity and time */

rt_int rt_rank(const rt_task *t);       /* this task's (virtual) id in its job */
rt_int rt_num_tasks(const rt_task *t);  /* number of tasks in this job */
ncsim_time_t rt_now(const rt_task *t);  /* simulated time */
rt_int rt_param_value(const rt_task *t, unsigned idx); /* value of parameter idx */
uint64_t rt_seed(const rt_task *t);     /* the run's seed (--seed) */
/* Records the source line of the statement being executed (for error messages). */
void rt_line(rt_task *t, int line);
/* The task running on this thread (for APIs without a task argument, e.g. Union's). */
rt_task *rt_self(void);

/* Ends the whole simulation with an error naming the task, source line and time. */
_Noreturn void rt_fatal(rt_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------ resources of a task */

/*
 * A task that fails (rt_fatal, or an error in a runtime call), or that is
 * still waiting when the run ends (another task failed, a deadlock, --until,
 * an interrupt), is abandoned: its coroutine is never resumed, so the code
 * after the call that suspended it never runs, and memory it holds in its
 * locals would never be freed. rt_track registers such an object for the
 * current scope; rt_release ends the scope and releases it. Scopes nest, last
 * in first out:
 *
 *     struct ncsim_ivec list = { NULL, 0, 0 };
 *     rt_track(t, &list, ncsim_ivec_release);      (ncsim/gen.h)
 *     ... calls that may block or fail ...
 *     rt_release(t, &list);                         calls ncsim_ivec_release(&list)
 *
 * When an abandoned task is freed, the runtime calls release(obj) for every
 * object it still tracks, newest first, then drops its stack. So obj (usually
 * the address of a local: a pointer, or a struct that holds one) must hold a
 * valid value whenever the task may block or fail, and release may only free
 * memory: it runs after the run, outside the task. A task that crashed or was
 * stopped by the watchdog was cut off at an arbitrary instruction: nothing of
 * it is released. A pair costs a push and a pop of two words.
 */
/* Tracks obj until the matching rt_release or rt_untrack: release(obj) runs if the task is abandoned meanwhile. */
void rt_track(rt_task *t, void *obj, void (*release)(void *obj));
/* Stops tracking obj, which must be the object tracked last (else rt_fatal), and calls its release(obj). */
void rt_release(rt_task *t, void *obj);
/* Stops tracking obj (the object tracked last, else rt_fatal) without releasing it: the caller keeps it. */
void rt_untrack(rt_task *t, void *obj);

/* ----------------------------------------------------------------- counters */

/* The per-task counters of LANGUAGE.md §4 and §14.2. */
enum rt_counter {
	RT_ELAPSED_USECS,
	RT_BYTES_SENT, RT_BYTES_RECEIVED, RT_TOTAL_BYTES,
	RT_MSGS_SENT, RT_MSGS_RECEIVED, RT_TOTAL_MSGS,
	RT_BIT_ERRORS,
	RT_BYTES_READ, RT_BYTES_WRITTEN, RT_IO_USECS,
	RT_NCOUNTERS
};
rt_int rt_counter(const rt_task *t, enum rt_counter c);
/* The same in floating point: elapsed_usecs and io_usecs keep their fraction of a microsecond. */
double rt_counter_f(const rt_task *t, enum rt_counter c);
void rt_counters_reset(rt_task *t);   /* RESETS THEIR COUNTERS */
void rt_counters_store(rt_task *t);   /* STORES THEIR COUNTERS */
void rt_counters_restore(rt_task *t); /* RESTORES THEIR COUNTERS (fatal if nothing stored) */
/*
 * Warmup / calibration suppression (LANGUAGE.md §9.6): begin saves the counters,
 * stops the clock and suppresses OUTPUTS/LOGS; end restores them. Nests.
 */
void rt_suppress_begin(rt_task *t);
void rt_suppress_end(rt_task *t);
int rt_suppressed(const rt_task *t);

/* ----------------------------------------------------------- point to point */

enum rt_msg_flags {
	RT_MSG_TOUCH = 1u << 0,       /* WITH DATA TOUCHING: memory time on both sides */
	RT_MSG_VERIFY = 1u << 1,      /* WITH VERIFICATION */
	RT_MSG_UNIQUE = 1u << 2,      /* UNIQUE buffer */
	RT_MSG_CONSUMED = 1u << 3,    /* the runtime receives it: no matching receive is posted */
};

typedef uint64_t rt_req; /* handle of an asynchronous operation; 0 is "none" */

/* Blocking send of `bytes` to task `dst` with `tag` (MPI_Send semantics by protocol). */
void rt_send(rt_task *t, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags);
/* Blocking receive of the earliest unmatched message from `src` with `tag`. */
void rt_recv(rt_task *t, rt_int src, uint64_t bytes, rt_int tag, unsigned flags);
/* Asynchronous send; complete it with rt_wait or rt_waitall. */
rt_req rt_isend(rt_task *t, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags);
/* Asynchronous receive; complete it with rt_wait or rt_waitall. */
rt_req rt_irecv(rt_task *t, rt_int src, uint64_t bytes, rt_int tag, unsigned flags);
/* Waits for one asynchronous operation. */
void rt_wait(rt_task *t, rt_req req);
/* Waits for every outstanding asynchronous operation of this task (AWAITS COMPLETION). */
void rt_waitall(rt_task *t);
/* Number of outstanding asynchronous operations of this task. */
rt_int rt_pending(const rt_task *t);
/* Send to `dst` and receive from `src` concurrently (MPI_Sendrecv). */
void rt_sendrecv(rt_task *t, rt_int dst, uint64_t sbytes, rt_int stag,
                 rt_int src, uint64_t rbytes, rt_int rtag);

/* ------------------------------------------------------------- collectives */

/* A group: `n` distinct task ids in ascending order. Every member passes an equal group. */
typedef struct rt_group {
	const rt_int *members;
	int n;
} rt_group;

/* The group of all tasks of the job (valid for the task's lifetime). */
const rt_group *rt_world(rt_task *t);

void rt_barrier(rt_task *t, const rt_group *g);
void rt_bcast(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes);
void rt_reduce(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes);
void rt_allreduce(rt_task *t, const rt_group *g, uint64_t bytes);
/* Every member sends `bytes` to every other member. */
void rt_alltoall(rt_task *t, const rt_group *g, uint64_t bytes);
/* Member i sends sendbytes[j] to member j and receives recvbytes[j] from member j. */
void rt_alltoallv(rt_task *t, const rt_group *g, const uint64_t *sendbytes, const uint64_t *recvbytes);
void rt_gather(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes);
/* Member j contributes bytes[j]; every member passes the same array. */
void rt_gatherv(rt_task *t, const rt_group *g, rt_int root, const uint64_t *bytes);
void rt_scatter(rt_task *t, const rt_group *g, rt_int root, uint64_t bytes);
/* coNCePTuaL REDUCE ... TO: `senders` contribute, every task of `receivers` gets the result. */
void rt_reduce_to(rt_task *t, const rt_group *senders, const rt_group *receivers, uint64_t bytes);

enum rt_op { RT_OP_MIN, RT_OP_MAX, RT_OP_SUM };
/* An allreduce that also carries a value (timed-loop calibration); traffic is a real 8-byte allreduce. */
double rt_allreduce_value(rt_task *t, const rt_group *g, double v, enum rt_op op);

/* -------------------------------------------------- computation and memory */

void rt_compute(rt_task *t, ncsim_time_t ps); /* COMPUTES FOR: busy */
void rt_sleep(rt_task *t, ncsim_time_t ps);   /* SLEEPS FOR: idle */
/* Touches `bytes` of memory `times` times (modelled as compute at the memory bandwidth). */
void rt_touch(rt_task *t, uint64_t bytes, uint64_t times);

/* Task remapping (ARE ASSIGNED TO PROCESSOR): swap-based, executed by every task. */
void rt_assign_processor(rt_task *t, rt_int task, rt_int proc);
rt_int rt_processor_of(const rt_task *t, rt_int task); /* -1 if out of range */
rt_int rt_task_of(const rt_task *t, rt_int proc);      /* -1 if out of range */

/* Synchronised random task in [lo, hi] excluding `excl` (RT_NO_EXCLUDE for none); -1 if empty. */
#define RT_NO_EXCLUDE INT64_MIN
rt_int rt_random_task(rt_task *t, rt_int lo, rt_int hi, rt_int excl);
/* This task's unsynchronised generator state (for the RANDOM_* built-ins of ncsim/stdlib.h). */
struct ncsim_mt64 *rt_rng(rt_task *t);
/* The simulation's FILE_DATA cache (ncsim/stdlib.h): each data file is read once per run. */
struct ncsim_filecache *rt_filecache(rt_task *t);

/* --------------------------------------------------------------------- I/O */

enum rt_io_mode { RT_IO_READ = 1, RT_IO_WRITE = 2, RT_IO_RDWR = 3 };
#define RT_IO_SEQUENTIAL (-1) /* offset: continue from this task's current offset */

void rt_io_open(rt_task *t, rt_int file, unsigned mode);
void rt_io_close(rt_task *t, rt_int file);
/* Reads `bytes` of `file`; async != 0 completes at the next rt_waitall. */
rt_req rt_io_read(rt_task *t, rt_int file, uint64_t bytes, int64_t offset, int async);
rt_req rt_io_write(rt_task *t, rt_int file, uint64_t bytes, int64_t offset, int async);

/* ------------------------------------------------------ logs and output */

/* Aggregate of a log column (LANGUAGE.md §8.10). */
enum rt_agg {
	RT_AGG_ALL, RT_AGG_ONLY, RT_AGG_MEAN, RT_AGG_HARMONIC_MEAN, RT_AGG_GEOMETRIC_MEAN,
	RT_AGG_MEDIAN, RT_AGG_MAD, RT_AGG_STDDEV, RT_AGG_VARIANCE, RT_AGG_SUM,
	RT_AGG_MINIMUM, RT_AGG_MAXIMUM, RT_AGG_FINAL, RT_AGG_PERCENTILE, RT_AGG_HISTOGRAM
};
/*
 * Appends `value` to column `col` (static index within the current top-level
 * statement) with its heading, aggregate and percentile parameter.
 * Does nothing while suppressed.
 */
void rt_log(rt_task *t, unsigned col, const char *heading, enum rt_agg agg, double param, double value);
void rt_log_flush(rt_task *t);   /* COMPUTES AGGREGATES */
void rt_new_statement(rt_task *t); /* top-level statement boundary: writes the table */
/* Log-prologue value for THE VALUE OF "key" ("" if unknown); valid until the task ends. */
const char *rt_value_of(rt_task *t, const char *key);
/* Writes one OUTPUTS line (a newline is appended). Does nothing while suppressed. */
void rt_output(rt_task *t, const char *line);

#ifdef __cplusplus
}
#endif
#endif

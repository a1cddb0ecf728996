/*
 * mpi_proto.h - the MPI message layer: protocols, requests and envelopes (prefix mp_).
 *
 * Three protocols, chosen by message size:
 *
 *   small  (<= small_max)   mailbox: the sender injects header+data and completes
 *                           at once if it holds a mailbox credit; the receiver
 *                           copies the data out of the mailbox.
 *   medium (<= medium_max)  eager through a pinned bounce buffer: the sender
 *                           copies into it and posts a header, then completes;
 *                           the receiver RDMA-gets the data and copies it out.
 *   large                   rendezvous: the sender pins and posts a header (RTS);
 *                           once the receive is posted the receiver pins and
 *                           RDMA-gets; the sender completes on the receiver's ACK.
 *
 *   sender                          network                        receiver
 *   small:  [credit] EAGER ------------------------------------->  match, copy
 *   medium: copy, post_header  MEDHDR -------------------------->  match, post_rdma
 *                              <---------------------- RDMA_REQ
 *           (NIC)  RDMA_DATA --------------------------------->    copy
 *   large:  pin, post_header   RTS ----------------------------->  match, pin, post_rdma
 *                              <---------------------- RDMA_REQ
 *           (NIC)  RDMA_DATA --------------------------------->    done
 *           done <-------------------------------------- ACK
 *
 * Software costs run on the task's CPU and only while the task is inside an
 * MPI call (there is no asynchronous progress): a receive matched while the
 * task computes is copied, pinned or RDMA-posted at its next wait.
 *
 * While a task waits, its CPU steps are run by its own events rather than by
 * its coroutine: a step that costs time is an event of the task at its end
 * (MP_W_CPU), where the step's action happens (an RDMA request, a copied
 * receive, a send's header) and the next step starts. The task is resumed
 * only when its wait is complete, once per wait rather than once per step;
 * the times, the events and their order are those of a coroutine that would
 * sleep through each step:
 *
 *   wait:  [segment: network/sync] [step: stack] [step: stack] [segment] .. resume
 *                                 ^ delivery     ^ MP_W_CPU     ^ MP_W_CPU
 *
 * A send posted just before a wait (mp_post_send's MP_POST_DEFER) leaves
 * its own CPU step (pinning or copy, and the post of its header) at the head
 * of that list, so a blocking send or a send-receive pair costs the task
 * one resumption.
 *
 * Mailbox credits: each task holds `credits` credits. A small send takes one;
 * it comes back one zero-load round trip later (network estimate of the data
 * one way and of a header back). With no credit left the send waits for the
 * earliest return. This bounds the small-message window without a per-peer
 * table and without an event per credit.
 *
 * Eager only ([mpi] protocol = eager): every message takes the small
 * protocol whatever its size; header_bytes, credits and the receiver's copy
 * (memory_bandwidth) keep their meaning, so header_bytes = 0, credits = 0
 * and memory_bandwidth = 0 send the payload alone, unthrottled, with no
 * copy on arrival.
 *
 * Send delay ([mpi] send_delay + bytes x send_delay_per_byte): after its
 * software steps a send's first wire message (mailbox message, header or
 * RTS) waits this long before it enters the network. The delay does not
 * use the task's CPU, the task goes on at once, and the delays of sends
 * posted together run side by side (each from its own post); an event of
 * the sending task (a delivery to itself, MP_W_NIC) injects the message.
 * A medium send completes at that injection; a small (mailbox) send when
 * the network says its last packet starts leaving the NIC (net_msg
 * want_sent, the completion of CODES' model-net sends):
 *
 *   post --(software steps)--> [send delay, off the CPU] --> inject --> NIC: send done
 *                                                              |
 *                                                  network --> receiver
 *
 * Envelopes describe one message from its send to the end of its protocol.
 * They live in a pool of the simulation, addressed by index (the network
 * cookie), and stand for the header that real MPI would carry on the wire.
 *
 * Intra-node messages: a wire message between two tasks of one node (a task
 * and itself included) never enters the network. It goes through shared
 * memory: each task copies its wire messages one at a time at shm_bandwidth
 * (a FIFO server per sending task, so the messages of a pair keep their
 * order and a window of messages is paced by the copy), and each arrives
 * shm_latency after its copy ends. The protocols and their software costs
 * are unchanged; only the wire's time is replaced:
 *
 *   start = max(now, sender's shm_free)   shm_free = start + bytes/shm_bandwidth
 *   delivered at shm_free + shm_latency
 */
#ifndef NCSIM_MPI_PROTO_H
#define NCSIM_MPI_PROTO_H

#include <stdint.h>

#include "ncsim/rt.h"
#include "runtime/mpi/match.h"
#include "runtime/net/net.h"

struct sysconf;

enum mp_proto { MP_SMALL, MP_MEDIUM, MP_LARGE };
#define MP_NCTX 3 /* matching contexts: enum p2p_ctx */

/*
 * Wire messages (the network cookie2 of a delivery). MP_W_NIC and MP_W_CPU
 * never cross the network: they are the task's own events, when its send
 * delay is over and when the CPU step at the head of its CPU list ends.
 */
enum mp_wire { MP_W_EAGER = 1, MP_W_MEDHDR, MP_W_RTS, MP_W_RDMA_REQ, MP_W_RDMA_DATA, MP_W_ACK, MP_W_NIC, MP_W_CPU };

typedef struct mp_params {
	uint64_t small_max;      /* largest small (mailbox) message, bytes */
	uint64_t medium_max;     /* largest medium (eager) message, bytes */
	uint64_t header_bytes;   /* size of a header, RTS, RDMA request or ACK on the wire */
	uint64_t page_size;      /* pinning granularity */
	ncsim_time_t post_header, post_rdma, pin_latency, pin_per_page;
	ncsim_time_t call_overhead; /* software cost of entering any send or receive call (LogGP's o) */
	ncsim_time_t send_delay;    /* a send's first wire message enters the network this much later, off the CPU */
	ncsim_time_t send_delay_per_byte; /* ... plus this much per byte of the message */
	double mem_bw;           /* bytes/s of memory copies; 0: copies are free */
	uint32_t credits;        /* mailbox credits per task; 0: unlimited */
	ncsim_time_t shm_latency; /* [node] shm_latency: an intra-node wire message after its copy */
	double shm_bw;           /* [node] shm_bandwidth, bytes/s of that copy; 0: free */
} mp_params;

/* MP_RQ_RUN: the CPU step of the request is running (the head of the CPU list, see mp_wait_run). */
enum mp_rq_state { MP_RQ_FREE, MP_RQ_POSTED, MP_RQ_CPU, MP_RQ_NET, MP_RQ_DONE, MP_RQ_RUN };
/* A request's CPU step: after the match (receive), the copy of the data (receive), the post of a send. */
enum mp_rq_step { MP_STEP_MATCH, MP_STEP_DATA, MP_STEP_SEND };

/* One send or receive of a task (48 bytes). */
typedef struct mp_req {
	uint32_t gen;        /* bumped on reuse: stale handles are detected */
	uint8_t send, state, step, proto;
	uint8_t mctx, user;  /* user: posted through rt_isend/rt_irecv */
	uint8_t waited;      /* counted in the task's wait_left (p2p_waitn in progress) */
	uint8_t pad_;
	uint32_t env;        /* envelope index+1, 0 when none */
	uint32_t next;       /* link in the CPU list or the free list */
	uint32_t peer;       /* physical rank of the other side */
	rt_int tag;
	uint64_t bytes;
	ncsim_time_t t_post;
} mp_req;

/* One message in flight: one cache line (the pool's chunks are line-aligned). */
typedef struct mp_env {
	union {
		uint32_t src;        /* physical ranks in the job */
		uint32_t next;       /* a free envelope: the link in the free list */
	};
	uint32_t dst;
	uint8_t mctx, proto, consumed, tclass;
	uint8_t sent_wait;   /* a delayed eager send waits for its NIC's notice: 1, and 2 once received (mpi_proto.c) */
	uint8_t xr;          /* enum mp_xr (mpi_par.h): 0 in a sequential run */
	rt_int tag;
	uint64_t bytes;
	rt_req sreq, rreq;
	ncsim_time_t t_send;     /* when the send was posted */
	ncsim_time_t t_recvpost; /* when the matching receive was posted */
} mp_env;
_Static_assert(sizeof(mp_env) == 64, "an envelope fills one cache line");

/*
 * Envelope pool: fixed chunks, so an envelope never moves. It also holds the
 * other MPI state the world's tasks share: when each task's shared-memory
 * copy is next idle, indexed by the task's entity id (allocated on the first
 * intra-node message; 0 = idle since the start).
 */
typedef struct mp_envpool {
	mp_env **chunks;
	uint32_t nchunks, used, free; /* free: list head, index+1 */
	uint64_t live, peak;
	ncsim_time_t *shm_free;  /* shm_free[eid] */
	uint32_t shm_n;          /* entries of shm_free */
	struct mp_par *par;      /* a partitioned run's home copies and mirrors (mpi_par.h), or NULL */
} mp_envpool;
#define MP_ENV_CHUNK 4096u

/* A new envelope of ep (its contents are the caller's to fill). */
uint32_t mp_env_new(mp_envpool *ep);

/* The OpenMPI over Omni-Path calibration (see mpi_proto.c for the values). */
void mp_params_default(mp_params *p);
/* Makes every software cost zero (the ideal network's compute-only bound). */
void mp_params_free_costs(mp_params *p);
/*
 * Reads the [mpi] section and [node] shm_latency, shm_bandwidth over p;
 * protocol = eager lifts small_max and medium_max to UINT64_MAX. Returns 0,
 * or -1 with *err.
 */
int mp_params_load(mp_params *p, const struct sysconf *c, char **err);
/* Protocol used for a message of `bytes`. */
static inline enum mp_proto mp_proto_of(const mp_params *p, uint64_t bytes)
{
	return bytes <= p->small_max ? MP_SMALL : bytes <= p->medium_max ? MP_MEDIUM : MP_LARGE;
}
/* Off-CPU delay before a send of `bytes` enters the network: send_delay + bytes x send_delay_per_byte. */
static inline ncsim_time_t mp_send_delay(const mp_params *p, uint64_t bytes)
{
	return ck_sat_add(p->send_delay, ck_sat_mul(bytes, p->send_delay_per_byte));
}
/* Lower-case protocol name ("small", "medium", "large"). */
const char *mp_proto_name(enum mp_proto k);
/* Time to copy `bytes` at the memory bandwidth. */
ncsim_time_t mp_copy_time(const mp_params *p, uint64_t bytes);
/* Time to pin `bytes`: latency plus a cost per page touched. */
ncsim_time_t mp_pin_time(const mp_params *p, uint64_t bytes);
/* Zero-load time of an intra-node wire message of `bytes`: shm_latency + bytes / shm_bandwidth. */
ncsim_time_t mp_shm_time(const mp_params *p, uint64_t bytes);

/* Frees every chunk of the pool and the intra-node channels. */
void mp_envpool_free(mp_envpool *ep);
/* Envelope by index. */
static inline mp_env *mp_env_at(const mp_envpool *ep, uint32_t i)
{
	return &ep->chunks[i / MP_ENV_CHUNK][i % MP_ENV_CHUNK];
}

/* The request behind a handle of task t, or NULL if the handle is stale or bad. */
mp_req *mp_req_get(rt_task *t, rt_req h);
/* Frees a completed request. */
void mp_req_release(rt_task *t, rt_req h);
/*
 * mp_post_send flag: the caller waits (mp_wait_begin, mp_wait_run) right
 * after this post, with no other post or time in between; the send's CPU
 * step may then run inside that wait.
 */
#define MP_POST_DEFER 0x100u
/*
 * Posts a send to physical rank dst (inside an MPI operation; may take time).
 * flags: RT_MSG_* and MP_POST_DEFER.
 */
rt_req mp_post_send(rt_task *t, int mctx, uint32_t dst, uint64_t bytes, rt_int tag, unsigned flags, int tclass);
/* Posts a receive from physical rank src (takes no time). */
rt_req mp_post_recv(rt_task *t, int mctx, uint32_t src, uint64_t bytes, rt_int tag, unsigned flags);
/*
 * Task-entity handler for a network delivery addressed to t, for the end
 * of a send delay of t (MP_W_NIC, which injects the message) or of one of
 * its CPU steps (MP_W_CPU). If t is blocked in an MPI wait, the handler
 * runs its CPU steps and resumes t only when its wait is complete; the
 * blocked interval so far is charged when work arrives, so a wait over many
 * requests costs one coroutine switch, not one per message.
 */
void mp_deliver(rt_task *t, const net_delivery *d);
/* Starts a wait over reqs[0..n): marks the requests not yet done; returns how many there are. */
int mp_wait_begin(rt_task *t, const rt_req *reqs, int n);
/*
 * Blocks t until the wait started by mp_wait_begin is complete, running its
 * CPU list first and whenever work reaches it (see above), and charges the
 * blocked time (network, synchronization) and the steps (stack).
 */
void mp_wait_run(rt_task *t);
/* Ends the wait started by mp_wait_begin. */
void mp_wait_end(rt_task *t);
/*
 * Handle tag of requests that are not MPI requests (the I/O client's): bit 63
 * set. MPI handles never have it (their generation counter has 31 bits).
 */
#define MP_FOREIGN_REQ ((rt_req)1 << 63)
/* Frees t's requests and credits (end of the simulation). */
void mp_task_free(rt_task *t);

#endif

/*
 * mpi_proto.c - the MPI message layer: small, medium and large protocols (see mpi_proto.h).
 */
#include "runtime/mpi/mpi_proto.h"

#include <inttypes.h>
#include <stdlib.h>
#include <strings.h>

#include "base/checked.h"
#include "base/defaults.h"
#include "base/sysconf.h"
#include "runtime/mpi/mpi_par.h"
#include "runtime/task/latency.h"
#include "runtime/task/msglog.h"
#include "runtime/task/task.h"

/* ------------------------------------------------------------ parameters */

/*
 * Defaults: a published calibration of OpenMPI over Intel Omni-Path (memory
 * copies at DEF_MEM_BW_GBS, 0.36 us to post a header, 0.88 us to post an RDMA,
 * 5.43 us to pin plus 50.5 ns per page). The thresholds follow PSM2: a few
 * KiB in the mailbox, eager up to 64 KiB, rendezvous above. Intra-node
 * messages: DEF_SHM_LAT_NS and DEF_SHM_BW_GBS (base/defaults.h says why).
 */
void mp_params_default(mp_params *p)
{
	*p = (mp_params){
		.small_max = 4096,
		.medium_max = 65536,
		.header_bytes = 64,
		.page_size = 4096,
		.post_header = 360000,
		.post_rdma = 880000,
		.pin_latency = 5430000,
		.pin_per_page = 50500,
		.mem_bw = DEF_MEM_BW_GBS * 1e9,
		.credits = 64,
		.shm_latency = DEF_SHM_LAT_NS * 1000ULL,
		.shm_bw = DEF_SHM_BW_GBS * 1e9,
	};
}

void mp_params_free_costs(mp_params *p)
{
	p->post_header = p->post_rdma = p->pin_latency = p->pin_per_page = p->call_overhead = 0;
	p->send_delay = p->send_delay_per_byte = 0;
	p->mem_bw = 0;
	p->credits = 0;
	p->shm_latency = 0;
	p->shm_bw = 0;
}

/*
 * [mpi] protocol: "auto" keeps the choice by size; "eager" sends every size
 * through the mailbox, so it excludes the thresholds it overrides. Returns
 * 0, or -1 with *err.
 */
static int load_protocol(mp_params *p, const sysconf_t *c, int has_small, int has_medium, char **err)
{
	const char *v = NULL;
	sysconf_string(c, "mpi", "protocol", &v, err);
	if (!v || !strcasecmp(v, "auto"))
		return 0;
	if (strcasecmp(v, "eager")) {
		*err = xasprintf("%s: [mpi] protocol = '%s': expected auto or eager", sysconf_where(c, "mpi", "protocol"),
		                 v);
		return -1;
	}
	if (has_small || has_medium) {
		const char *k = has_small ? "small_max" : "medium_max";
		*err = xasprintf("%s: [mpi] %s has no use with protocol = eager, which sends every size eagerly",
		                 sysconf_where(c, "mpi", k), k);
		return -1;
	}
	p->small_max = p->medium_max = UINT64_MAX;
	return 0;
}

int mp_params_load(mp_params *p, const sysconf_t *c, char **err)
{
	int64_t credits = p->credits;
	int has_small, has_medium;
	if ((has_small = sysconf_size(c, "mpi", "small_max", &p->small_max, err)) < 0 ||
	    (has_medium = sysconf_size(c, "mpi", "medium_max", &p->medium_max, err)) < 0 ||
	    sysconf_size(c, "mpi", "header_bytes", &p->header_bytes, err) < 0 ||
	    sysconf_size(c, "mpi", "page_size", &p->page_size, err) < 0 ||
	    sysconf_time(c, "mpi", "post_header", &p->post_header, err) < 0 ||
	    sysconf_time(c, "mpi", "post_rdma", &p->post_rdma, err) < 0 ||
	    sysconf_time(c, "mpi", "pin_latency", &p->pin_latency, err) < 0 ||
	    sysconf_time(c, "mpi", "pin_per_page", &p->pin_per_page, err) < 0 ||
	    sysconf_time(c, "mpi", "call_overhead", &p->call_overhead, err) < 0 ||
	    sysconf_time(c, "mpi", "send_delay", &p->send_delay, err) < 0 ||
	    sysconf_time(c, "mpi", "send_delay_per_byte", &p->send_delay_per_byte, err) < 0 ||
	    sysconf_bandwidth(c, "mpi", "memory_bandwidth", &p->mem_bw, err) < 0 ||
	    sysconf_int(c, "mpi", "credits", &credits, err) < 0 ||
	    sysconf_time(c, "node", "shm_latency", &p->shm_latency, err) < 0 ||
	    sysconf_bandwidth(c, "node", "shm_bandwidth", &p->shm_bw, err) < 0 ||
	    load_protocol(p, c, has_small, has_medium, err) < 0)
		return -1;
	if (p->medium_max < p->small_max) {
		*err = xasprintf("%s: medium_max must not be below small_max", sysconf_where(c, "mpi", "medium_max"));
		return -1;
	}
	if (p->page_size == 0) {
		*err = xasprintf("%s: [mpi] page_size must be positive", sysconf_where(c, "mpi", "page_size"));
		return -1;
	}
	if (credits < 0 || credits > UINT32_MAX) {
		*err = xasprintf("%s: [mpi] credits must lie in 0..%u", sysconf_where(c, "mpi", "credits"), UINT32_MAX);
		return -1;
	}
	p->credits = (uint32_t)credits;
	return 0;
}

const char *mp_proto_name(enum mp_proto k)
{
	static const char *const names[] = {"small", "medium", "large"};
	return names[k];
}

ncsim_time_t mp_copy_time(const mp_params *p, uint64_t bytes) { return ck_xfer_ps(bytes, p->mem_bw); }

ncsim_time_t mp_pin_time(const mp_params *p, uint64_t bytes)
{
	if (p->pin_latency == 0 && p->pin_per_page == 0)
		return 0;
	/* Pages are nearly always a power of two: a shift instead of a division on every rendezvous. */
	uint64_t ps = p->page_size, pages = (ps & (ps - 1)) ? ck_div_up(bytes, ps)
	                                                    : (bytes >> __builtin_ctzll(ps)) + ((bytes & (ps - 1)) != 0);
	return ck_sat_add(p->pin_latency, ck_sat_mul(pages, p->pin_per_page));
}

ncsim_time_t mp_shm_time(const mp_params *p, uint64_t bytes)
{
	return ck_sat_add(p->shm_latency, ck_xfer_ps(bytes, p->shm_bw));
}

/* ------------------------------------------------------------ envelopes */

uint32_t mp_env_new(mp_envpool *ep)
{
	uint32_t i;
	if (ep->free) {
		i = ep->free - 1;
		ep->free = mp_env_at(ep, i)->next;
	} else {
		if (ep->used == ep->nchunks * MP_ENV_CHUNK) {
			ep->chunks = xreallocarray(ep->chunks, ep->nchunks + 1, sizeof *ep->chunks);
			ep->chunks[ep->nchunks++] = xcalloc_lines(MP_ENV_CHUNK, sizeof(mp_env));
		}
		i = ep->used++;
	}
	if (++ep->live > ep->peak)
		ep->peak = ep->live;
	return i;
}

static void env_free(mp_envpool *ep, uint32_t i)
{
	if (ep->par)
		mpp_forget(ep->par, i);
	mp_env_at(ep, i)->next = ep->free;
	ep->free = i + 1;
	ep->live--;
}

/*
 * In a partitioned run each side frees its own copy of an envelope whose
 * ends live on two ranks when its part of the protocol is over: the
 * sender's (home) copy after its last wire message or the ACK, the
 * receiver's mirror after its last one.
 */
static void home_done(mp_envpool *ep, uint32_t i)
{
	if (mp_env_at(ep, i)->xr == MP_XR_HOME)
		env_free(ep, i);
}

static void mirror_done(mp_envpool *ep, uint32_t i)
{
	if (mp_env_at(ep, i)->xr == MP_XR_MIRROR)
		env_free(ep, i);
}

/*
 * The receiver is done with envelope i. A delayed eager send still waiting
 * for its NIC's notice keeps it (the notice names the send's request through
 * it): the notice frees it then.
 */
static void env_received(mp_envpool *ep, uint32_t i)
{
	mp_env *e = mp_env_at(ep, i);
	if (e->sent_wait)
		e->sent_wait = 2;
	else
		env_free(ep, i);
}

void mp_envpool_free(mp_envpool *ep)
{
	for (uint32_t i = 0; i < ep->nchunks; i++)
		free(ep->chunks[i]);
	free(ep->chunks);
	free(ep->shm_free);
	memset(ep, 0, sizeof *ep);
}

/* ------------------------------------------------------------ requests */

static rt_req handle_of(const task_mpi *m, uint32_t idx) { return ((rt_req)m->reqs.ptr[idx].gen << 32) | (idx + 1); }

static uint32_t req_new(task_mpi *m)
{
	uint32_t idx;
	if (m->free_req) {
		idx = m->free_req - 1;
		m->free_req = m->reqs.ptr[idx].next;
	} else {
		VEC_PUSH(&m->reqs, (mp_req){.gen = 0});
		idx = (uint32_t)(m->reqs.len - 1);
	}
	/* 31 bits: handles never collide with MP_FOREIGN_REQ. */
	uint32_t gen = (m->reqs.ptr[idx].gen + 1) & 0x7fffffffu;
	m->reqs.ptr[idx] = (mp_req){.gen = gen ? gen : 1};
	return idx;
}

static mp_req *req_of(task_mpi *m, rt_req h)
{
	uint64_t idx = (h & 0xffffffffu);
	if (idx == 0 || idx > m->reqs.len)
		return NULL;
	mp_req *r = &m->reqs.ptr[idx - 1];
	return (r->gen == (uint32_t)(h >> 32) && r->state != MP_RQ_FREE) ? r : NULL;
}

mp_req *mp_req_get(rt_task *t, rt_req h) { return req_of(&t->mpi, h); }

void mp_req_release(rt_task *t, rt_req h)
{
	task_mpi *m = &t->mpi;
	mp_req *r = req_of(m, h);
	if (!r)
		return;
	r->state = MP_RQ_FREE;
	r->next = m->free_req;
	m->free_req = (uint32_t)(h & 0xffffffffu);
}

void mp_task_free(rt_task *t)
{
	for (int c = 0; c < MP_NCTX; c++) {
		mp_queue_free(&t->mpi.q[c].posted);
		mp_queue_free(&t->mpi.q[c].unexpected);
	}
	VEC_FREE(&t->mpi.reqs);
	VEC_FREE(&t->mpi.credits);
	VEC_FREE(&t->mpi.user_reqs);
	VEC_FREE(&t->mpi.coll_seq);
}

/* Marks r done; a request of the wait in progress counts down wait_left. */
static inline void req_done(task_mpi *m, mp_req *r)
{
	r->state = MP_RQ_DONE;
	if (r->waited) {
		r->waited = 0;
		m->wait_left--;
	}
}

int mp_wait_begin(rt_task *t, const rt_req *reqs, int n)
{
	task_mpi *m = &t->mpi;
	int left = 0;
	for (int i = 0; i < n; i++) {
		mp_req *r = reqs[i] ? req_of(m, reqs[i]) : NULL;
		if (r && r->state != MP_RQ_DONE && !r->waited) {
			r->waited = 1;
			left++;
		}
	}
	m->waiting = reqs;
	m->nwaiting = n;
	m->wait_left = left;
	return left;
}

void mp_wait_end(rt_task *t)
{
	task_mpi *m = &t->mpi;
	m->waiting = NULL;
	m->nwaiting = 0;
	m->wait_left = -1;
}

/* Appends request idx to the CPU list: it needs this task's processor. */
static void cpu_push(task_mpi *m, uint32_t idx)
{
	mp_req *r = &m->reqs.ptr[idx];
	r->state = MP_RQ_CPU;
	r->next = 0;
	if (m->cpu_tail)
		m->reqs.ptr[m->cpu_tail - 1].next = idx + 1;
	else
		m->cpu_head = idx + 1;
	m->cpu_tail = idx + 1;
}

/* Puts request idx at the head of the CPU list: a deferred send's step comes before the work queued so far. */
static void cpu_push_front(task_mpi *m, uint32_t idx)
{
	mp_req *r = &m->reqs.ptr[idx];
	r->state = MP_RQ_CPU;
	r->next = m->cpu_head;
	m->cpu_head = idx + 1;
	if (!m->cpu_tail)
		m->cpu_tail = idx + 1;
}

/* Unlinks the head of the CPU list and returns its index. */
static uint32_t cpu_pop(task_mpi *m)
{
	uint32_t idx = m->cpu_head - 1;
	m->cpu_head = m->reqs.ptr[idx].next;
	if (!m->cpu_head)
		m->cpu_tail = 0;
	return idx;
}

/* 1 if a CPU step of t is running (mp_wait_run). */
static int cpu_busy(const task_mpi *m)
{
	return m->cpu_head && m->reqs.ptr[m->cpu_head - 1].state == MP_RQ_RUN;
}

/* ------------------------------------------------------------ the wire */

/* What a wire message is, for error reports. */
static const char *wire_name(enum mp_wire kind)
{
	static const char *const names[] = {
		[MP_W_EAGER] = "an eager message", [MP_W_MEDHDR] = "a medium-message header",
		[MP_W_RTS] = "a rendezvous request", [MP_W_RDMA_REQ] = "an RDMA read request",
		[MP_W_RDMA_DATA] = "an RDMA data transfer", [MP_W_ACK] = "an acknowledgement",
	};
	return names[kind];
}

/*
 * Fails the run for a message the network refused: it would never be
 * delivered and its peer would wait for ever (a misleading deadlock later).
 * Out of line, so that wire() stays small.
 */
static __attribute__((cold, noinline)) void refused(rt_task *from, uint32_t to, const net_msg *msg, int rc)
{
	char peer[64];
	task_name(from, to, peer, sizeof peer);
	task_failf(from, "%s of %" PRIu64 " bytes to %s %s (node %" PRIu32 " -> node %" PRIu32 ", the network has %"
	           PRIu32 " nodes)", wire_name((enum mp_wire)msg->cookie2), msg->bytes, peer, net_refusal_text(rc),
	           msg->src_node, msg->dst_node, from->w->net->nnodes);
}

/*
 * Sizes the table of shared-memory channels (mp_envpool.shm_free) to every
 * task entity: on the first intra-node message, and once more only if a task
 * appeared later, so never on the per-message path.
 */
static __attribute__((noinline)) void shm_grow(task_world *w, uint32_t eid)
{
	mp_envpool *ep = &w->envs;
	uint32_t n = w->all.len ? w->all.ptr[w->all.len - 1]->eid + 1 : 0;
	if (n <= eid)
		n = eid + 1;
	ep->shm_free = xreallocarray(ep->shm_free, n, sizeof *ep->shm_free);
	memset(ep->shm_free + ep->shm_n, 0, (n - ep->shm_n) * sizeof *ep->shm_free);
	ep->shm_n = n;
}

/*
 * Delivers msg, whose two ends share a node, through shared memory (see
 * mpi_proto.h): after the sender's earlier copies, its own copy, then
 * shm_latency. Returns 0, or NET_ETIME past the end of simulated time.
 */
static int shm_inject(rt_task *from, const net_msg *msg)
{
	task_world *w = from->w;
	mp_envpool *ep = &w->envs;
	if (from->eid >= ep->shm_n)
		shm_grow(w, from->eid);
	ncsim_time_t now = sim_now(w->ctx), *idle = &ep->shm_free[from->eid];
	ncsim_time_t start = *idle > now ? *idle : now;
	ncsim_time_t copied = ck_sat_add(start, ck_xfer_ps(msg->bytes, w->mp.shm_bw));
	ncsim_time_t at = ck_sat_add(copied, w->mp.shm_latency);
	if (!ck_time_ok(at))
		return NET_ETIME;
	*idle = copied;
	sim_event *ev = sim_event_new(w->ctx, msg->notify, at - now, msg->notify_kind);
	*SIM_PAYLOAD(ev, net_delivery) = (net_delivery){
		.cookie = msg->cookie, .cookie2 = msg->cookie2, .bytes = msg->bytes,
		.src_node = msg->src_node, .dst_node = msg->dst_node,
		.inject_time = now, .tclass = msg->tclass,
	};
	sim_schedule(w->ctx, ev);
	if (msg->want_sent) /* the copy is the sender's part */
		net_send_sent(w->ctx, msg->sent_to, msg->notify_kind, copied - now, msg->cookie, msg->cookie2, msg->bytes,
		              msg->src_node, msg->dst_node, msg->tclass);
	return 0;
}

/* Puts one protocol message on the network, or through shared memory inside a node. */
static void wire_msg(rt_task *from, uint32_t to, uint32_t envi, enum mp_wire kind, uint64_t bytes, int tclass,
                     int want_sent)
{
	task_world *w = from->w;
	task_job *j = from->job;
	net_msg msg = {
		.sent_to = from->eid,
		.want_sent = (uint8_t)want_sent,
		.src_node = from->node,
		.dst_node = j->nodes[to],
		.bytes = bytes,
		.tclass = (uint8_t)tclass,
		.job = (uint8_t)j->index,
		.notify = j->first_eid + to,
		.notify_kind = TK_EV_DELIVER,
		.cookie = envi,
		.cookie2 = kind,
	};
	if (w->envs.par)
		msg.cookie = mpp_wire(w->envs.par, envi, msg.notify);
	int rc = msg.src_node == msg.dst_node ? shm_inject(from, &msg) : net_inject(w->net, w->ctx, &msg);
	if (rc < 0)
		refused(from, to, &msg, rc);
}

static void wire(rt_task *from, uint32_t to, uint32_t envi, enum mp_wire kind, uint64_t bytes, int tclass)
{
	wire_msg(from, to, envi, kind, bytes, tclass, 0);
}

/* ------------------------------------------------------------ credits */

static void heap_push(task_mpi *m, ncsim_time_t v)
{
	VEC_PUSH(&m->credits, v);
	ncsim_time_t *h = m->credits.ptr;
	for (size_t i = m->credits.len - 1; i > 0;) {
		size_t p = (i - 1) / 2;
		if (h[p] <= h[i])
			break;
		ncsim_time_t x = h[p]; h[p] = h[i]; h[i] = x;
		i = p;
	}
}

static ncsim_time_t heap_pop(task_mpi *m)
{
	ncsim_time_t *h = m->credits.ptr, top = h[0];
	size_t n = --m->credits.len;
	h[0] = h[n];
	for (size_t i = 0;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1] < h[c])
			c++;
		if (h[i] <= h[c])
			break;
		ncsim_time_t x = h[c]; h[c] = h[i]; h[i] = x;
		i = c;
	}
	return top;
}

/*
 * Takes a mailbox credit for a small message to dst that enters the network
 * `delay` from now, waiting for one if none is left.
 */
static void credit_take(rt_task *t, uint32_t dst, uint64_t wire_bytes, ncsim_time_t delay)
{
	task_world *w = t->w;
	task_mpi *m = &t->mpi;
	if (w->mp.credits == 0)
		return;
	ncsim_time_t now = sim_now(w->ctx);
	while (m->credits.len && m->credits.ptr[0] <= now)
		heap_pop(m);
	if (m->credits.len >= w->mp.credits) {
		ncsim_time_t back = heap_pop(m);
		task_sleep(t, back - now, TK_T_MPI_NET); /* back >= now: a credit due later */
		now = back;
	}
	ncsim_time_t rtt;
	uint32_t dn = t->job->nodes[dst];
	if (dn == t->node) {
		/* Inside the node: the shared-memory times, which the network's cache must not see. */
		rtt = ck_sat_add(mp_shm_time(&w->mp, wire_bytes), mp_shm_time(&w->mp, w->mp.header_bytes));
	} else if (w->net->uniform && w->rtt_bytes == wire_bytes + 1) {
		rtt = w->rtt; /* the size of the previous small send: same round trip on any pair */
	} else {
		rtt = ck_sat_add(w->net->ops->estimate(w->net, t->node, dn, wire_bytes),
		                 w->net->ops->estimate(w->net, dn, t->node, w->mp.header_bytes));
		w->rtt_bytes = wire_bytes + 1; /* +1: 0 means "nothing cached" */
		w->rtt = rtt;
	}
	heap_push(m, ck_sat_add(ck_sat_add(now, delay), rtt));
}

/* ------------------------------------------------------------ posting */

/* Puts the first wire message of e's protocol on the network: the mailbox message, the header or the RTS. */
static void send_first(rt_task *t, uint32_t ei, const mp_env *e)
{
	const mp_params *p = &t->w->mp;
	if (e->proto == MP_SMALL)
		wire(t, e->dst, ei, MP_W_EAGER, ck_sat_add(p->header_bytes, e->bytes), e->tclass);
	else
		wire(t, e->dst, ei, e->proto == MP_MEDIUM ? MP_W_MEDHDR : MP_W_RTS, p->header_bytes, NET_CLASS_CTRL);
}

/*
 * Starts the send delay of envelope ei: an event of t's own (MP_W_NIC) puts
 * the message on the network when it is over, while t goes on at once.
 */
static void delay_send(rt_task *t, uint32_t ei, ncsim_time_t delay)
{
	sim_ctx *ctx = t->w->ctx;
	ncsim_time_t now = sim_now(ctx);
	if (delay >= UINT64_MAX - now)
		rt_fatal(t, "this send's delay would take the simulated time past 2^64 ps (about 213 days), the end of "
		         "the clock");
	net_delivery d = {.cookie = ei, .cookie2 = MP_W_NIC, .src_node = t->node, .dst_node = t->node,
	                  .inject_time = now};
	sim_send(ctx, t->eid, delay, TK_EV_DELIVER, &d, sizeof d);
}

rt_req mp_post_send(rt_task *t, int mctx, uint32_t dst, uint64_t bytes, rt_int tag, unsigned flags, int tclass)
{
	task_world *w = t->w;
	task_mpi *m = &t->mpi;
	const mp_params *p = &w->mp;
	if (p->call_overhead)
		task_sleep(t, p->call_overhead, TK_T_MPI_STACK);
	uint32_t idx = req_new(m);
	rt_req h = handle_of(m, idx);
	enum mp_proto proto = mp_proto_of(p, bytes);
	ncsim_time_t now = sim_now(w->ctx);
	m->reqs.ptr[idx] = (mp_req){.gen = m->reqs.ptr[idx].gen, .send = 1, .state = MP_RQ_NET, .proto = (uint8_t)proto,
	                            .mctx = (uint8_t)mctx, .peer = dst, .tag = tag, .bytes = bytes, .t_post = now};
	uint32_t ei = mp_env_new(&w->envs);
	*mp_env_at(&w->envs, ei) = (mp_env){.src = t->rank, .dst = dst, .mctx = (uint8_t)mctx, .proto = (uint8_t)proto,
	                                     .consumed = (flags & RT_MSG_CONSUMED) != 0, .tclass = (uint8_t)tclass,
	                                     .tag = tag, .bytes = bytes, .sreq = h, .t_send = now};
	if (w->envs.par)
		mpp_created(w->envs.par, ei, t->job->first_eid + dst);
	t->tot.bytes_sent += bytes;
	t->tot.msgs_sent++;
	ncsim_time_t delay = mp_send_delay(p, bytes);
	if ((flags & MP_POST_DEFER) && proto != MP_SMALL && delay == 0) {
		/* The step runs first in the caller's wait (mp_wait_run), where cpu_step_done sends the header. */
		m->reqs.ptr[idx].env = ei + 1;
		m->reqs.ptr[idx].step = MP_STEP_SEND;
		cpu_push_front(m, idx);
		return h;
	}
	switch (proto) {
	case MP_SMALL:
		credit_take(t, dst, ck_sat_add(p->header_bytes, bytes), delay);
		break;
	case MP_MEDIUM:
		task_sleep(t, ck_sat_add(mp_copy_time(p, bytes), p->post_header), TK_T_MPI_STACK);
		break;
	case MP_LARGE:
		/* The request keeps its envelope: the ACK names it. */
		m->reqs.ptr[idx].env = ei + 1;
		task_sleep(t, ck_sat_add(mp_pin_time(p, bytes), p->post_header), TK_T_MPI_STACK);
		break;
	}
	if (delay) {
		delay_send(t, ei, delay); /* the send completes with its injection (sent()) */
		return h;
	}
	send_first(t, ei, mp_env_at(&w->envs, ei));
	if (proto != MP_LARGE)
		m->reqs.ptr[idx].state = MP_RQ_DONE;
	if (proto == MP_SMALL)
		home_done(&w->envs, ei);
	return h;
}

/* Receive idx meets envelope ei (whose first wire message has arrived). */
static void bind(rt_task *t, uint32_t idx, uint32_t ei)
{
	task_mpi *m = &t->mpi;
	mp_env *e = mp_env_at(&t->w->envs, ei);
	mp_req *r = &m->reqs.ptr[idx];
	r->env = ei + 1;
	r->proto = e->proto;
	r->step = MP_STEP_MATCH;
	e->rreq = handle_of(m, idx);
	e->t_recvpost = r->t_post;
	if (e->t_send > m->seg_partner)
		m->seg_partner = e->t_send;
	cpu_push(m, idx);
}

rt_req mp_post_recv(rt_task *t, int mctx, uint32_t src, uint64_t bytes, rt_int tag, unsigned flags)
{
	task_world *w = t->w;
	task_mpi *m = &t->mpi;
	if (w->mp.call_overhead)
		task_sleep(t, w->mp.call_overhead, TK_T_MPI_STACK);
	uint32_t idx = req_new(m);
	m->reqs.ptr[idx] = (mp_req){.gen = m->reqs.ptr[idx].gen, .state = MP_RQ_POSTED, .mctx = (uint8_t)mctx,
	                            .peer = src, .tag = tag, .bytes = bytes, .t_post = sim_now(w->ctx)};
	(void)flags;
	uint32_t ei = mp_queue_take_msg(&m->q[mctx].unexpected, src, tag, 0);
	if (ei != MP_QUEUE_NONE)
		bind(t, idx, ei);
	else
		mp_queue_push(&m->q[mctx].posted, src, tag, 0, idx);
	return handle_of(m, idx);
}

/* ------------------------------------------------------------ progress */

/* Performs the CPU step of request idx, after its cost has elapsed. */
static void cpu_step_done(rt_task *t, uint32_t idx)
{
	task_world *w = t->w;
	mp_req *r = &t->mpi.reqs.ptr[idx];
	uint32_t ei = r->env - 1;
	mp_env *e = mp_env_at(&w->envs, ei);
	if (r->step == MP_STEP_SEND) {
		/* A deferred send (mp_post_send): its header leaves now; a medium send is then done. */
		r->state = MP_RQ_NET;
		send_first(t, ei, e);
		if (r->proto != MP_LARGE) {
			r->env = 0;
			req_done(&t->mpi, r);
		}
		return;
	}
	if (r->step == MP_STEP_MATCH && r->proto != MP_SMALL) {
		r->state = MP_RQ_NET;
		wire(t, e->src, ei, MP_W_RDMA_REQ, w->mp.header_bytes, NET_CLASS_CTRL);
		return;
	}
	/* small after its copy, medium after the copy of the RDMA'd data */
	req_done(&t->mpi, r);
	r->env = 0;
	t->tot.bytes_recv += e->bytes;
	t->tot.msgs_recv++;
	env_received(&w->envs, ei);
}

/* The cost of r's CPU step (see mp_post_send for a send's). */
static ncsim_time_t cpu_cost(const mp_params *p, const mp_req *r, uint64_t bytes)
{
	if (r->step == MP_STEP_SEND)
		return ck_sat_add(r->proto == MP_MEDIUM ? mp_copy_time(p, bytes) : mp_pin_time(p, bytes), p->post_header);
	if (r->step == MP_STEP_DATA || r->proto == MP_SMALL)
		return mp_copy_time(p, bytes);
	if (r->proto == MP_MEDIUM)
		return p->post_rdma;
	return ck_sat_add(mp_pin_time(p, bytes), p->post_rdma);
}

/*
 * Runs t's CPU list from the head: free steps at once; the first step that
 * costs time is started, and its end is an event of t (MP_W_CPU) that
 * carries its start. Returns 1 if a step is running (the head, MP_RQ_RUN),
 * 0 once the list is empty.
 */
static int cpu_run(rt_task *t)
{
	task_world *w = t->w;
	task_mpi *m = &t->mpi;
	while (m->cpu_head) {
		uint32_t idx = m->cpu_head - 1;
		mp_req *r = &m->reqs.ptr[idx];
		ncsim_time_t c = cpu_cost(&w->mp, r, mp_env_at(&w->envs, r->env - 1)->bytes);
		if (c) {
			ncsim_time_t now = sim_now(w->ctx);
			r->state = MP_RQ_RUN;
			if (c >= UINT64_MAX - now) {
				task_failf(t, "this statement would take the simulated time past 2^64 ps (about 213 days), "
				           "the end of the clock");
				return 1;
			}
			/* Filled in place: the handler reads the kind and the start (mp_deliver). */
			sim_event *ev = sim_event_new(w->ctx, t->eid, c, TK_EV_DELIVER);
			net_delivery *d = SIM_PAYLOAD(ev, net_delivery);
			d->cookie2 = MP_W_CPU;
			d->sent = 0;
			d->inject_time = now;
			sim_schedule(w->ctx, ev);
			return 1;
		}
		cpu_pop(m);
		cpu_step_done(t, idx);
	}
	return 0;
}

/*
 * t's CPU is idle inside its wait: a new blocked segment starts now, and the
 * task resumes if its wait is complete.
 */
static void cpu_idle(rt_task *t)
{
	task_mpi *m = &t->mpi;
	m->seg_begin = sim_now(t->w->ctx);
	m->seg_partner = 0;
	if (m->wait_left == 0)
		task_wake(t);
}

/* The CPU step that began at `began`, the head of t's list, has ended (MP_W_CPU): it acts, and the next starts. */
static void cpu_step_end(rt_task *t, ncsim_time_t began)
{
	t->tot.t[TK_T_MPI_STACK] += sim_now(t->w->ctx) - began;
	cpu_step_done(t, cpu_pop(&t->mpi));
	if (!cpu_run(t))
		cpu_idle(t);
}

void mp_wait_run(rt_task *t)
{
	task_mpi *m = &t->mpi;
	if (!cpu_run(t)) {
		if (m->wait_left == 0)
			return;
		m->seg_begin = sim_now(t->w->ctx);
		m->seg_partner = 0;
	}
	for (;;) {
		task_block(t, "an MPI wait");
		if (!cpu_busy(m) && m->wait_left == 0)
			break;
		/* Resumed by another module while the wait goes on: the segment so far is charged, as at a delivery. */
		if (!cpu_busy(m)) {
			ncsim_time_t now = sim_now(t->w->ctx);
			task_charge_mpi_wait(t, m->seg_begin, now, m->seg_partner);
			m->seg_begin = now;
			m->seg_partner = 0;
		}
	}
	/* The last segment; cpu_idle started it at the wake-up when the wait ended with a step (then it is empty). */
	task_charge_mpi_wait(t, m->seg_begin, sim_now(t->w->ctx), m->seg_partner);
}

/* ------------------------------------------------------------ deliveries */

/*
 * A delivery reached t. Outside an MPI wait nothing more happens (no
 * asynchronous progress), nor while a CPU step of t runs (its end goes on
 * with the list). Otherwise the blocked segment so far is charged, the
 * steps the delivery queued run, and t resumes if its wait is complete.
 */
static void after_delivery(rt_task *t)
{
	task_mpi *m = &t->mpi;
	if (t->state != TK_BLOCKED || m->wait_left < 0 || cpu_busy(m))
		return;
	ncsim_time_t now = sim_now(t->w->ctx);
	task_charge_mpi_wait(t, m->seg_begin, now, m->seg_partner);
	if (!cpu_run(t))
		cpu_idle(t);
}

/* The last byte of e's data reached the receiver t now: one MPI latency of t's job. */
static void note_latency(rt_task *t, const mp_env *e)
{
	ncsim_time_t now = sim_now(t->w->ctx);
	tk_lat_add(&t->job->lat[TK_LAT_MPI], now - e->t_send);
	if (t->w->msglog)
		tk_msglog_row(t->w->msglog, t->job->index, e->src, e->dst, e->tag, e->bytes, e->t_send, now);
}

/* EAGER, MEDHDR or RTS reached the receiver t. Returns 1 if it matched a posted receive. */
static int arrive(rt_task *t, uint32_t ei, mp_env *e, enum mp_wire kind)
{
	task_world *w = t->w;
	task_mpi *m = &t->mpi;
	if (kind == MP_W_EAGER)
		note_latency(t, e);
	if (e->consumed) {
		/* The runtime takes it in without a receive and without this task's CPU. */
		e->t_recvpost = sim_now(w->ctx);
		if (kind == MP_W_EAGER) {
			t->tot.bytes_recv += e->bytes;
			t->tot.msgs_recv++;
			env_received(&w->envs, ei);
		}
		else
			wire(t, e->src, ei, MP_W_RDMA_REQ, w->mp.header_bytes, NET_CLASS_CTRL);
		return 0;
	}
	uint32_t idx = mp_queue_take_recv(&m->q[e->mctx].posted, e->src, e->tag);
	if (idx != MP_QUEUE_NONE) {
		bind(t, idx, ei);
		return 1;
	}
	mp_queue_push(&m->q[e->mctx].unexpected, e->src, e->tag, 0, ei);
	return 0;
}

/* RDMA data reached the receiver t. Returns 1 if a receive of t progressed. */
static int rdma_data(rt_task *t, uint32_t ei, mp_env *e)
{
	task_world *w = t->w;
	note_latency(t, e);
	if (e->consumed) {
		t->tot.bytes_recv += e->bytes;
		t->tot.msgs_recv++;
		if (e->proto == MP_LARGE) {
			wire(t, e->src, ei, MP_W_ACK, w->mp.header_bytes, NET_CLASS_CTRL);
			mirror_done(&w->envs, ei);
		} else {
			env_free(&w->envs, ei);
		}
		return 0;
	}
	mp_req *r = req_of(&t->mpi, e->rreq);
	uint32_t idx = (uint32_t)(e->rreq & 0xffffffffu) - 1;
	if (e->proto == MP_MEDIUM) {
		r->step = MP_STEP_DATA;
		cpu_push(&t->mpi, idx);
	} else {
		/* Zero copy: the data is in place; the ACK releases the sender. */
		req_done(&t->mpi, r);
		r->env = 0;
		t->tot.bytes_recv += e->bytes;
		t->tot.msgs_recv++;
		wire(t, e->src, ei, MP_W_ACK, w->mp.header_bytes, NET_CLASS_CTRL);
		mirror_done(&w->envs, ei);
	}
	return 1;
}

/*
 * The send delay of e is over at its sender t: the message enters the
 * network, and a small or medium send completes. Returns 1 if it did.
 */
static int sent(rt_task *t, uint32_t ei, mp_env *e)
{
	mp_req *r = req_of(&t->mpi, e->sreq);
	if (e->proto == MP_SMALL && r) {
		/* As in CODES' model-net: the send completes when its last packet starts leaving the NIC (nic_left). */
		e->sent_wait = 1;
		wire_msg(t, e->dst, ei, MP_W_EAGER, ck_sat_add(t->w->mp.header_bytes, e->bytes), e->tclass, 1);
		return 0;
	}
	send_first(t, ei, e);
	if (e->proto == MP_SMALL)
		home_done(&t->w->envs, ei);
	if (e->proto == MP_LARGE || !r)
		return 0;
	req_done(&t->mpi, r);
	return 1;
}

/* The NIC's notice of a delayed eager send of t: the send completes. Returns 1. */
static int nic_left(rt_task *t, uint32_t ei, mp_env *e)
{
	mp_req *r = req_of(&t->mpi, e->sreq);
	if (r)
		req_done(&t->mpi, r);
	if (e->sent_wait == 2 || e->xr == MP_XR_HOME)
		env_free(&t->w->envs, ei);
	else
		e->sent_wait = 0;
	return r != NULL;
}

/* The rendezvous ACK reached the sender t. */
static void ack(rt_task *t, uint32_t ei, mp_env *e)
{
	task_mpi *m = &t->mpi;
	mp_req *r = req_of(m, e->sreq);
	if (e->t_recvpost > m->seg_partner)
		m->seg_partner = e->t_recvpost;
	req_done(m, r);
	r->env = 0;
	env_free(&t->w->envs, ei);
}

void mp_deliver(rt_task *t, const net_delivery *d)
{
	if (d->cookie2 == MP_W_CPU) {
		cpu_step_end(t, d->inject_time);
		return;
	}
	uint32_t ei = (uint32_t)d->cookie;
	if (d->cookie & MPP_KEY_BIT)
		ei = mpp_local(t->w->envs.par, d->cookie);
	mp_env *e = mp_env_at(&t->w->envs, ei);
	int progressed = 0;
	if (d->sent) {
		if (nic_left(t, ei, e))
			after_delivery(t);
		return;
	}
	switch ((enum mp_wire)d->cookie2) {
	case MP_W_EAGER:
	case MP_W_MEDHDR:
	case MP_W_RTS:
		progressed = arrive(t, ei, e, (enum mp_wire)d->cookie2);
		break;
	case MP_W_RDMA_REQ:
		/* At the sender: its NIC serves the get, no CPU involved. */
		wire(t, e->dst, ei, MP_W_RDMA_DATA, e->bytes, e->tclass);
		if (e->proto == MP_MEDIUM)
			home_done(&t->w->envs, ei);
		break;
	case MP_W_RDMA_DATA:
		progressed = rdma_data(t, ei, e);
		break;
	case MP_W_ACK:
		ack(t, ei, e);
		progressed = 1;
		break;
	case MP_W_NIC:
		progressed = sent(t, ei, e);
		break;
	case MP_W_CPU:
		break;
	}
	/* Deliveries that change none of t's requests leave its wait segment running. */
	if (progressed)
		after_delivery(t);
}

/*
 * analytic.c - latency + bytes/bandwidth with endpoint serialization (see analytic.h).
 */
#include "runtime/net/analytic.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "base/checked.h"
#include "base/util.h"

typedef struct an_model an_model;

/* One direction of a node's port: a FIFO server. */
typedef struct an_queue {
	ncsim_time_t free;  /* when it is next idle */
	ncsim_time_t busy;  /* time serving messages */
	ncsim_time_t wait;  /* queueing delay of messages */
	uint64_t bytes;
} an_queue;

/*
 * One node's ports: one cache line (the array is line-aligned), of which a
 * message touches the source's and the destination's. The node's ejection
 * entity has the model as its state and finds its node from its id.
 */
typedef struct an_port {
	an_queue in, out;                /* injection and ejection */
} an_port;
_Static_assert(sizeof(an_port) == 64, "a node's ports fill one cache line");

/*
 * Serialization times of one message size at both bandwidths. Each message
 * needs three of them (injection, ejection, the tail's arrival) and a run
 * uses few sizes (protocol headers, a collective's chunks), so they are
 * remembered per size: a double division each saved, with the same values.
 */
typedef struct an_xfer {
	uint64_t bytes;
	ncsim_time_t out, in; /* at bandwidth (ejection), at inj_bandwidth (injection) */
} an_xfer;
#define AN_XFER_WAYS 8

struct an_model {
	net_model base;
	an_params p;
	an_xfer xfer[AN_XFER_WAYS]; /* direct-mapped by size; bytes = UINT64_MAX: empty */
	an_port *ports;
	uint32_t *slow_pending; /* per node: ARRIVE events on their way to its ejection port */
	sim_eid first;  /* ejection entity of node n: first + n */
	uint64_t safe_bytes; /* messages up to this size cannot pass the clock while times stay below AN_SAFE_TIME */
};

/*
 * The clock check of an_inject (latest_end) costs two divisions per message.
 * Below these bounds it cannot fail: port times and now below 2^61, one
 * latency below 2^60 and each serialization below 2^60 sum to less than 2^63.
 */
#define AN_SAFE_TIME ((ncsim_time_t)1 << 61)

/* A message between its injection and its arrival at the ejection port. */
typedef struct an_arrive {
	uint64_t cookie, cookie2, bytes;
	ncsim_time_t inject_time;
	sim_eid notify;
	uint32_t src_node;
	uint16_t notify_kind;
	uint8_t tclass, job;
} an_arrive;
SIM_PAYLOAD_CHECK(an_arrive);

enum { AN_EV_ARRIVE, AN_NEVENTS };

void an_params_default(an_params *p)
{
	*p = (an_params){.nnodes = 1, .latency = 3 * 100000, .bandwidth = 12.47e9, .inj_bandwidth = 13.04e9};
}

/* The serialization times of `bytes` (ck_xfer_ps at both bandwidths), from the cache when it has them. */
static const an_xfer *xfer_of(an_model *m, uint64_t bytes)
{
	an_xfer *x = &m->xfer[(bytes ^ bytes >> 6 ^ bytes >> 12) & (AN_XFER_WAYS - 1)];
	if (x->bytes != bytes)
		*x = (an_xfer){.bytes = bytes, .out = ck_xfer_ps(bytes, m->p.bandwidth),
		               .in = ck_xfer_ps(bytes, m->p.inj_bandwidth)};
	return x;
}

/* Queues `bytes` arriving at time t on q, which serves them in x ps; returns when service starts (q->free: ends). */
static ncsim_time_t occupy(an_queue *q, ncsim_time_t t, uint64_t bytes, ncsim_time_t x)
{
	ncsim_time_t start = q->free > t ? q->free : t;
	q->wait += start - t;
	q->free = start + x;
	q->busy += x;
	q->bytes += bytes;
	return start;
}

/*
 * Serves msg, injected at inject_time and arriving at node's ejection port at time `arr`
 * (>= now), whose serialization times are x, and schedules its delivery.
 * Callers guarantee that messages are served in arrival order.
 */
static void serve(sim_ctx *ctx, an_model *m, uint32_t node, ncsim_time_t arr, const an_xfer *x, const net_msg *msg,
                  ncsim_time_t inject_time)
{
	an_port *port = &m->ports[node];
	occupy(&port->out, arr, msg->bytes, x->out);
	ncsim_time_t end = port->out.free;
	/* The tail cannot arrive before it left the source (slow injection port). */
	ncsim_time_t tail = arr + x->in;
	ncsim_time_t done = end > tail ? end : tail;
	sim_event *d = sim_event_new(ctx, msg->notify, done - sim_now(ctx), msg->notify_kind);
	*SIM_PAYLOAD(d, net_delivery) = (net_delivery){
		.cookie = msg->cookie, .cookie2 = msg->cookie2, .bytes = msg->bytes,
		.src_node = msg->src_node, .dst_node = node,
		.inject_time = inject_time, .tclass = msg->tclass,
	};
	sim_schedule(ctx, d);
	m->base.totals.msgs_delivered[msg->tclass]++;
	m->base.totals.bytes_delivered[msg->tclass] += msg->bytes;
}

static void on_arrive(sim_ctx *ctx, void *state, const sim_event *ev)
{
	an_model *m = state;
	uint32_t node = ev->dst - m->first;
	const an_arrive *a = SIM_PAYLOAD(ev, const an_arrive);
	m->slow_pending[node]--;
	net_msg msg = {
		.src_node = a->src_node, .dst_node = node, .bytes = a->bytes, .tclass = a->tclass, .job = a->job,
		.notify = a->notify, .notify_kind = a->notify_kind, .cookie = a->cookie, .cookie2 = a->cookie2,
	};
	serve(ctx, m, node, sim_now(ctx), xfer_of(m, a->bytes), &msg, a->inject_time);
}

static const sim_handler an_handlers[AN_NEVENTS] = {[AN_EV_ARRIVE] = on_arrive};
static const sim_type an_port_type = {.name = "analytic-port", .handlers = an_handlers, .nhandlers = AN_NEVENTS};

/*
 * A bound on when msg, injected now, is delivered (CK_OVERFLOW past the
 * clock): it starts once the source port is free, arrives a latency later,
 * and is served once the destination port is free; each port takes the
 * message's serialization time at its bandwidth.
 */
static ncsim_time_t latest_end(const an_model *m, const net_msg *msg, ncsim_time_t now)
{
	const an_queue *in = &m->ports[msg->src_node].in, *out = &m->ports[msg->dst_node].out;
	ncsim_time_t lat = m->p.latency_of ? m->p.latency_of(m->p.latency_ctx, msg->src_node, msg->dst_node)
	                                   : m->p.latency;
	ncsim_time_t arr = ck_sat_add(ck_sat_add(in->free > now ? in->free : now, lat),
	                              ck_xfer_ps(msg->bytes, m->p.inj_bandwidth));
	return ck_sat_add(out->free > arr ? out->free : arr, ck_xfer_ps(msg->bytes, m->p.bandwidth));
}

static int an_inject(net_model *base, sim_ctx *ctx, const net_msg *msg)
{
	an_model *m = (an_model *)base;
	if (msg->src_node >= base->nnodes || msg->dst_node >= base->nnodes || msg->tclass >= NET_NCLASSES)
		return NET_EBADNODE;
	an_port *src = &m->ports[msg->src_node];
	ncsim_time_t now = sim_now(ctx);
	const an_queue *in = &src->in, *out = &m->ports[msg->dst_node].out;
	int safe = msg->bytes <= m->safe_bytes && now < AN_SAFE_TIME && in->free < AN_SAFE_TIME && out->free < AN_SAFE_TIME;
	if (!safe && !ck_time_ok(latest_end(m, msg, now)))
		return NET_ETIME;
	const an_xfer *x = xfer_of(m, msg->bytes);
	ncsim_time_t s = occupy(&src->in, now, msg->bytes, x->in); /* the head leaves the source */
	if (msg->want_sent) /* no packets here: the tail leaves the injection port */
		net_send_sent(ctx, msg->sent_to, msg->notify_kind, s - now + x->in, msg->cookie, msg->cookie2, msg->bytes,
		              msg->src_node, msg->dst_node, msg->tclass);
	if (!m->p.latency_of && s == now && m->slow_pending[msg->dst_node] == 0) {
		/*
		 * Fast path, one event per message: with one latency L for every
		 * pair, a message that starts at once arrives at now + L, no earlier
		 * than any message served so far at that port (each arrived by
		 * its own injection time + L <= now + L, or was served on arrival),
		 * and no later message can arrive before it. With no ARRIVE event
		 * pending for the port, serving it now keeps arrival order exactly.
		 */
		serve(ctx, m, msg->dst_node, now + m->p.latency, x, msg, now);
	} else {
		ncsim_time_t lat = m->p.latency_of ? m->p.latency_of(m->p.latency_ctx, msg->src_node, msg->dst_node)
		                                   : m->p.latency;
		an_arrive a = {
			.cookie = msg->cookie, .cookie2 = msg->cookie2, .bytes = msg->bytes, .inject_time = now,
			.notify = msg->notify, .src_node = msg->src_node, .notify_kind = msg->notify_kind,
			.tclass = msg->tclass, .job = msg->job,
		};
		m->slow_pending[msg->dst_node]++;
		sim_send(ctx, m->first + msg->dst_node, s - now + lat, AN_EV_ARRIVE, &a, sizeof a);
	}
	base->totals.msgs_injected[msg->tclass]++;
	base->totals.bytes_injected[msg->tclass] += msg->bytes;
	return 0;
}

static ncsim_time_t an_estimate(net_model *base, uint32_t src, uint32_t dst, uint64_t bytes)
{
	an_model *m = (an_model *)base;
	ncsim_time_t x = ck_xfer_ps(bytes, m->p.bandwidth), xi = ck_xfer_ps(bytes, m->p.inj_bandwidth);
	ncsim_time_t lat = m->p.latency_of ? m->p.latency_of(m->p.latency_ctx, src, dst) : m->p.latency;
	return ck_sat_add(lat, x > xi ? x : xi);
}

static int an_check(net_model *base, FILE *err)
{
	for (int c = 0; c < NET_NCLASSES; c++) {
		if (base->totals.bytes_injected[c] != base->totals.bytes_delivered[c]) {
			fprintf(err, "ncsim: analytic network: class %s: %" PRIu64 " bytes injected but %" PRIu64
			        " delivered\n", net_class_name((enum net_class)c), base->totals.bytes_injected[c],
			        base->totals.bytes_delivered[c]);
			return -1;
		}
	}
	return 0;
}

static int an_write_links(net_model *base, FILE *out)
{
	an_model *m = (an_model *)base;
	fprintf(out, "link,kind,node,bytes,busy_ps,wait_ps\n");
	for (uint32_t n = 0; n < base->nnodes; n++)
		for (int dir = 0; dir < 2; dir++) {
			const an_queue *q = dir ? &m->ports[n].out : &m->ports[n].in;
			fprintf(out, "%" PRIu32 ",%s,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", 2 * n + dir,
			        dir ? "ejection" : "injection", n, q->bytes, q->busy, q->wait);
		}
	return ferror(out) ? -1 : 0;
}

static void an_destroy(net_model *base)
{
	an_model *m = (an_model *)base;
	free(m->ports);
	free(m->slow_pending);
	free(m);
}

static const net_ops an_ops = {
	.name = "analytic",
	.inject = an_inject,
	.estimate = an_estimate,
	.check = an_check,
	.write_links = an_write_links,
	.destroy = an_destroy,
};

uint64_t an_memory_bytes(uint32_t nnodes)
{
	return (uint64_t)nnodes * (sizeof(an_port) + sizeof(uint32_t) + sim_entity_bytes());
}

net_model *an_create(sim_ctx *ctx, const an_params *p)
{
	an_model *m = xcalloc(1, sizeof *m);
	m->base.ops = &an_ops;
	m->base.nnodes = p->nnodes;
	m->base.uniform = p->latency_of == NULL;
	m->p = *p;
	/* The largest size whose serialization stays below 2^60 ps at the slower bandwidth (0: always check). */
	double slow = p->bandwidth < p->inj_bandwidth ? p->bandwidth : p->inj_bandwidth;
	if (!p->latency_of && p->latency < ((ncsim_time_t)1 << 60) && slow > 0)
		m->safe_bytes = (uint64_t)fmin(0x1p60 / 1e12 * slow, 0x1p62);
	for (int i = 0; i < AN_XFER_WAYS; i++)
		m->xfer[i].bytes = UINT64_MAX;
	m->ports = xcalloc_lines(p->nnodes ? p->nnodes : 1, sizeof *m->ports);
	m->slow_pending = xcalloc(p->nnodes ? p->nnodes : 1, sizeof *m->slow_pending);
	for (uint32_t n = 0; n < p->nnodes; n++) {
		sim_eid id = sim_entity_add(ctx, &an_port_type, m);
		if (n == 0)
			m->first = id;
	}
	return &m->base;
}

int an_is(const net_model *m) { return m && m->ops == &an_ops; }

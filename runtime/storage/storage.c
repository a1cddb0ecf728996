/*
 * storage.c - storage managers, client proxies and burst-buffer placement
 * (the protocol is drawn in storage.h).
 *
 * Entities: one client proxy per node (it plays the client's RDMA engine and
 * turns the final ack into a sto_completion) and one manager per storage node
 * (its devices, their space ledger, write waiters and the drain port live in
 * the manager's state). Requests are slots of a table owned by the system:
 *
 *   recs[id]: descriptor (immutable after sto_submit) | pipeline counters
 *             (manager only) | timing sums (statistics only)
 *
 * Slots are recycled in LIFO order of completion, which is deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/storage/storage.h"
#include "runtime/storage/storage_int.h"
#include "base/checked.h"
#include "base/util.h"

/* Payload of SRV_DEV_DONE. */
typedef struct dev_done {
	uint64_t id, block;
	ncsim_time_t submit;
} dev_done;
SIM_PAYLOAD_CHECK(dev_done);

/* Payload of SRV_DRAIN_READ and SRV_DRAIN_DONE. */
typedef struct drain_ev {
	uint64_t bytes;
	uint32_t dev;
} drain_ev;
SIM_PAYLOAD_CHECK(drain_ev);

/* ------------------------------------------------------------ helpers */

static uint64_t block_len(const sto_system *s, const rec *r, uint64_t b)
{
	uint64_t off = b * s->cfg.block_size;
	uint64_t left = r->req.bytes - off;
	return left < s->cfg.block_size ? left : s->cfg.block_size;
}

static void inject(sto_system *s, sim_ctx *ctx, uint32_t src, uint32_t dst, uint64_t bytes, const rec *r,
                   sim_eid notify, uint16_t kind, uint64_t id, uint64_t cookie2)
{
	net_msg m = {
		.src_node = src, .dst_node = dst, .bytes = bytes, .tclass = NET_CLASS_IO, .job = r->req.job,
		.notify = notify, .notify_kind = kind, .cookie = id, .cookie2 = cookie2,
	};
	if (s->par)
		m.cookie = stp_cookie(s, (uint32_t)id, notify, kind);
	s->tot.net_msgs++;
	s->tot.net_bytes += bytes;
	/*
	 * Node ids were validated against the network in sto_new and sto_submit, so
	 * a refusal is a bug or a transfer that would end past the end of simulated
	 * time; without the message the request would never complete and its task
	 * would wait for ever, so the run stops here and sto_check says why.
	 */
	int rc = net_inject(s->net, ctx, &m);
	if (rc < 0 && !s->fault) {
		s->fault = xasprintf("storage: an I/O message of %llu bytes from node %u to node %u %s, at time %.6f us "
		                     "(job %u)", (unsigned long long)bytes, src, dst, net_refusal_text(rc),
		                     (double)sim_now(ctx) / 1e6, (unsigned)r->req.job);
		sim_stop(ctx, 1);
	}
}

/* A zero-delay event shaped like a network delivery (local configuration). */
static void local_delivery(sim_ctx *ctx, sim_eid dst, uint16_t kind, uint64_t id, uint32_t node)
{
	net_delivery d = { .cookie = id, .src_node = node, .dst_node = node, .inject_time = sim_now(ctx),
	                   .tclass = NET_CLASS_IO };
	sim_send(ctx, dst, 0, kind, &d, sizeof d);
}

static int is_local(const sto_system *s)
{
	return s->cfg.kind == STO_CFG_LOCAL;
}

/* ------------------------------------------------------------ manager */

static void finish(server *sv, sim_ctx *ctx, uint32_t id)
{
	sto_system *s = sv->sys;
	rec *r = &s->recs.ptr[id];
	const client *cl = &s->clients[r->req.client_node];
	if (is_local(s))
		local_delivery(ctx, cl->self, CLI_ACK, id, sv->node);
	else
		inject(s, ctx, sv->node, r->req.client_node, s->cfg.control_bytes, r, cl->self, CLI_ACK, id, 0);
	if (r->xr == STP_MIRROR) /* the server's copy, done: the client's rank completes the request */
		sto_rec_free(s, id);
}

/*
 * The busy log's row of an operation of device dv of sv that ended at `done`,
 * the device's busy time having been `before` (only with the log on): the
 * service interval is what the model added to the busy time, so
 * device_busy.csv and storage.csv's busy_us agree to the picosecond.
 */
static void log_busy(const server *sv, unsigned dv, enum sto_busy_op op, ncsim_time_t done, ncsim_time_t before,
                     uint64_t len)
{
	sto_system *s = sv->sys;
	const sto_dev *d = sv->dev[dv];
	sto_busylog_row(&s->busy, sv->first_dev + dv, sv->node, is_local(s) ? "local" : sto_dev_kind_name(d->kind), op,
	                done - (d->st.busy - before), done, len);
}

static void dev_op(server *sv, sim_ctx *ctx, uint32_t id, uint64_t b, int is_write)
{
	sto_system *s = sv->sys;
	rec *r = &s->recs.ptr[id];
	ncsim_time_t now = sim_now(ctx);
	uint64_t lba = r->lba + b * s->cfg.block_size;
	uint64_t len = block_len(s, r, b);
	ncsim_time_t before = sv->dev[r->dev]->st.busy;
	ncsim_time_t done = sto_dev_access(sv->dev[r->dev], now, is_write, lba, len, sim_rng_unif(ctx, sv->self));
	if (pln_log_on(&s->busy))
		log_busy(sv, r->dev, is_write ? STO_BUSY_WRITE : STO_BUSY_READ, done, before, len);
	dev_done p = { .id = id, .block = b, .submit = now };
	sim_send(ctx, sv->self, done - now, SRV_DEV_DONE, &p, sizeof p);
}

/* Keeps up to `threads` blocks of request id in flight. */
static void start_blocks(server *sv, sim_ctx *ctx, uint32_t id)
{
	sto_system *s = sv->sys;
	rec *r = &s->recs.ptr[id];
	while (r->inflight < s->cfg.threads && r->next_block < r->nblocks) {
		uint64_t b = r->next_block++;
		r->inflight++;
		if (r->req.op == STO_OP_READ || is_local(s))
			dev_op(sv, ctx, id, b, r->req.op == STO_OP_WRITE);
		else
			inject(s, ctx, sv->node, r->req.client_node, s->cfg.control_bytes, r,
			       s->clients[r->req.client_node].self, CLI_RDMA_READ, id, b);
	}
}

static void admit(server *sv, sim_ctx *ctx, uint32_t id)
{
	rec *r = &sv->sys->recs.ptr[id];
	if (r->nblocks == 0)
		finish(sv, ctx, id);
	else
		start_blocks(sv, ctx, id);
}

static void fail(server *sv, sim_ctx *ctx, uint32_t id)
{
	sv->sys->recs.ptr[id].status = STO_ENOSPC;
	finish(sv, ctx, id);
}

/*
 * Tries to reserve space for a write. Returns 1 if admitted or failed, 0 if
 * it has to wait. Waiting makes sense only on a device that drains: every
 * byte reserved there is drained and released eventually, so a request no
 * larger than the device fits some day; elsewhere space never comes back.
 */
static int try_reserve(server *sv, sim_ctx *ctx, uint32_t id)
{
	rec *r = &sv->sys->recs.ptr[id];
	sto_dev *d = sv->dev[r->dev];
	if (sto_dev_reserve(d, r->req.bytes) == 0) {
		admit(sv, ctx, id);
		return 1;
	}
	if (sv->sys->cfg.on_full_fail || !sv->drain[r->dev] || r->req.bytes > d->capacity) {
		fail(sv, ctx, id);
		return 1;
	}
	return 0;
}

/* Admits waiting writes of device `dv` in FIFO order while they fit. */
static void run_waiters(server *sv, sim_ctx *ctx, unsigned dv)
{
	while (sv->wq_head[dv] < sv->waitq[dv].len) {
		uint32_t id = sv->waitq[dv].ptr[sv->wq_head[dv]];
		if (!try_reserve(sv, ctx, id))
			return;
		sv->wq_head[dv]++;
	}
	sv->waitq[dv].len = sv->wq_head[dv] = 0;
}

/* The record slot a delivery names. */
static uint32_t slot_of(const sto_system *s, const net_delivery *d)
{
	return s->par ? stp_local(s, d->cookie) : (uint32_t)d->cookie;
}

static void srv_req(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	const net_delivery *d = SIM_PAYLOAD(ev, net_delivery);
	uint32_t id = slot_of(sv->sys, d);
	rec *r = &sv->sys->recs.ptr[id];
	r->net_time += sim_now(ctx) - d->inject_time;
	if (r->req.op == STO_OP_READ) {
		admit(sv, ctx, id);
		return;
	}
	unsigned dv = r->dev;
	/* Writers queue behind earlier waiters of the same device (FIFO). */
	if (sv->wq_head[dv] < sv->waitq[dv].len || !try_reserve(sv, ctx, id)) {
		VEC_PUSH(&sv->waitq[dv], id);
		sv->sys->tot.space_waits++;
		sv->dev[dv]->st.full_waits++;
	}
}

static void srv_data_in(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	const net_delivery *d = SIM_PAYLOAD(ev, net_delivery);
	uint32_t id = slot_of(sv->sys, d);
	sv->sys->recs.ptr[id].net_time += sim_now(ctx) - d->inject_time;
	dev_op(sv, ctx, id, d->cookie2, 1);
}

static void block_finished(server *sv, sim_ctx *ctx, uint32_t id)
{
	rec *r = &sv->sys->recs.ptr[id];
	r->blocks_done++;
	r->inflight--;
	if (r->blocks_done == r->nblocks)
		finish(sv, ctx, id);
	else
		start_blocks(sv, ctx, id);
}

static void start_drain(server *sv, sim_ctx *ctx, unsigned dv, uint64_t lba, uint64_t len)
{
	ncsim_time_t now = sim_now(ctx);
	sv->pending_drains[dv]++;
	ncsim_time_t before = sv->dev[dv]->st.busy;
	ncsim_time_t done = sto_dev_access(sv->dev[dv], now, 0, lba, len, sim_rng_unif(ctx, sv->self));
	if (pln_log_on(&sv->sys->busy))
		log_busy(sv, dv, STO_BUSY_DRAIN, done, before, len);
	drain_ev p = { .bytes = len, .dev = dv };
	sim_send(ctx, sv->self, done - now, SRV_DRAIN_READ, &p, sizeof p);
}

static void srv_dev_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	sto_system *s = sv->sys;
	const dev_done *p = SIM_PAYLOAD(ev, dev_done);
	uint32_t id = (uint32_t)p->id;
	rec *r = &s->recs.ptr[id];
	uint64_t len = block_len(s, r, p->block);
	r->dev_time += sim_now(ctx) - p->submit;
	if (r->req.op == STO_OP_WRITE) {
		sv->stored[r->dev] += len;
		s->tot.bytes_stored += len;
		if (sv->drain[r->dev])
			start_drain(sv, ctx, r->dev, r->lba + p->block * s->cfg.block_size, len);
		block_finished(sv, ctx, id);
	} else if (is_local(s)) {
		block_finished(sv, ctx, id);
	} else {
		inject(s, ctx, sv->node, r->req.client_node, len, r, s->clients[r->req.client_node].self, CLI_DATA, id,
		       p->block);
	}
}

/* The client's NIC acknowledged a block the server wrote into the client's memory (cli_data). */
static void srv_data_out(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	block_finished(sv, ctx, slot_of(sv->sys, SIM_PAYLOAD(ev, net_delivery)));
}

/* The drained block has been read from the device: send it through the SAN port. */
static void srv_drain_read(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	const drain_ev *p = SIM_PAYLOAD(ev, drain_ev);
	ncsim_time_t now = sim_now(ctx);
	ncsim_time_t start = now > sv->san_free ? now : sv->san_free;
	/* Saturating: a drain past the clock is queued at its end rather than wrapped before now. */
	sv->san_free = ck_sat_add(start, ck_xfer_ps(p->bytes, sv->sys->cfg.san_bandwidth));
	ncsim_time_t arrive = ck_sat_add(sv->san_free, sv->sys->cfg.san_latency);
	sim_send(ctx, sv->self, arrive - now, SRV_DRAIN_DONE, p, sizeof *p);
}

static void srv_drain_done(sim_ctx *ctx, void *state, const sim_event *ev)
{
	server *sv = state;
	const drain_ev *p = SIM_PAYLOAD(ev, drain_ev);
	sto_dev_release(sv->dev[p->dev], p->bytes);
	sv->drained[p->dev] += p->bytes;
	sv->sys->tot.bytes_drained += p->bytes;
	sv->pending_drains[p->dev]--;
	run_waiters(sv, ctx, p->dev);
}

static const sim_handler server_handlers[SRV_NKINDS] = {
	[SRV_REQ] = srv_req,
	[SRV_DATA_IN] = srv_data_in,
	[SRV_DEV_DONE] = srv_dev_done,
	[SRV_DATA_OUT] = srv_data_out,
	[SRV_DRAIN_READ] = srv_drain_read,
	[SRV_DRAIN_DONE] = srv_drain_done,
};
static const sim_type server_type = {
	.name = "sto_manager", .handlers = server_handlers, .nhandlers = SRV_NKINDS,
};

/* ------------------------------------------------------------ client proxy */

static const char *where_name(unsigned w)
{
	static const char *const names[] = { [STO_AT_LOCAL] = "local", [STO_AT_SSD] = "ssd", [STO_AT_HDD] = "hdd",
	                                     [STO_AT_LSM] = "lsm" };
	return names[w];
}

/* io.csv's row of r (text, no newline) into buf; its id is r->seq. Returns its length. */
static int io_row(const sto_system *s, const rec *r, ncsim_time_t done, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%llu,%u,%u,%u,%s,%s,%lld,%llu,%llu,%s,%.6f,%.6f,%.6f,%.6f",
	                 (unsigned long long)r->seq, r->req.job, r->req.client_node, s->servers[r->server].node,
	                 where_name(r->where), r->req.op == STO_OP_READ ? "read" : "write", (long long)r->req.file,
	                 (unsigned long long)r->req.offset, (unsigned long long)r->req.bytes,
	                 r->status == STO_OK ? "ok" : "enospc", (double)r->issue * 1e-6, (double)r->net_time * 1e-6,
	                 (double)r->dev_time * 1e-6, (double)done * 1e-6);
	return n < 0 ? 0 : (size_t)n < size ? n : (int)size - 1;
}

static void log_row(sto_system *s, sim_ctx *ctx, const rec *r, ncsim_time_t done)
{
	char row[384];
	int n = io_row(s, r, done, row, sizeof row);
	if (s->io_keyed)
		pln_add(&s->io_rows, ctx, row, (size_t)n); /* its id is this rank's submission number for now */
	else
		fprintf(s->io_log, "%s\n", row);
}

/* A message of a request reached its client: the request's slot, its network time counted. */
static uint32_t cli_arrived(sim_ctx *ctx, const client *cl, const net_delivery *d)
{
	uint32_t id = slot_of(cl->sys, d);
	cl->sys->recs.ptr[id].net_time += sim_now(ctx) - d->inject_time;
	return id;
}

static void cli_rdma_read(sim_ctx *ctx, void *state, const sim_event *ev)
{
	client *cl = state;
	sto_system *s = cl->sys;
	const net_delivery *d = SIM_PAYLOAD(ev, net_delivery);
	uint32_t id = cli_arrived(ctx, cl, d);
	rec *r = &s->recs.ptr[id];
	const server *sv = &s->servers[r->server];
	inject(s, ctx, cl->node, sv->node, block_len(s, r, d->cookie2), r, sv->self, SRV_DATA_IN, id, d->cookie2);
}

/*
 * A block of a read reached the client (an RDMA write of the server): the
 * server learns it from the client NIC's acknowledgement, the zero-load
 * time of a control message back later, as a reliable RDMA write completes
 * at its initiator. (That delay, never zero across groups, is also what
 * lets the server and the client sit on different ranks.)
 */
static void cli_data(sim_ctx *ctx, void *state, const sim_event *ev)
{
	client *cl = state;
	sto_system *s = cl->sys;
	const net_delivery *d = SIM_PAYLOAD(ev, net_delivery);
	uint32_t id = cli_arrived(ctx, cl, d);
	const server *sv = &s->servers[s->recs.ptr[id].server];
	net_delivery back = {.cookie = s->par ? stp_cookie(s, id, sv->self, SRV_DATA_OUT) : id, .cookie2 = d->cookie2,
	                     .src_node = cl->node, .dst_node = sv->node, .inject_time = sim_now(ctx),
	                     .tclass = NET_CLASS_IO};
	ncsim_time_t ack = s->net->ops->estimate(s->net, cl->node, sv->node, s->cfg.control_bytes);
	sim_send(ctx, sv->self, ack, SRV_DATA_OUT, &back, sizeof back);
}

static void cli_ack(sim_ctx *ctx, void *state, const sim_event *ev)
{
	client *cl = state;
	sto_system *s = cl->sys;
	uint32_t id = cli_arrived(ctx, cl, SIM_PAYLOAD(ev, net_delivery));
	rec *r = &s->recs.ptr[id];
	ncsim_time_t now = sim_now(ctx);
	sto_completion c = {
		.cookie = r->req.cookie, .bytes = r->req.bytes, .issue_time = r->issue, .net_time = r->net_time,
		.dev_time = r->dev_time, .status = r->status, .where = r->where, .op = r->req.op,
		.server = s->servers[r->server].node,
	};
	s->tot.completed++;
	if (r->status != STO_OK) {
		s->tot.failed++;
	} else if (r->req.op == STO_OP_WRITE) {
		s->tot.writes++;
		s->tot.bytes_written += r->req.bytes;
	} else {
		s->tot.reads++;
		s->tot.bytes_read += r->req.bytes;
	}
	if (s->io_log || s->io_keyed)
		log_row(s, ctx, r, now);
	sim_eid notify = r->req.notify;
	uint16_t kind = r->req.notify_kind;
	sto_rec_free(s, id);
	sim_send(ctx, notify, 0, kind, &c, sizeof c);
}

static const sim_handler client_handlers[CLI_NKINDS] = {
	[CLI_RDMA_READ] = cli_rdma_read,
	[CLI_ACK] = cli_ack,
	[CLI_DATA] = cli_data,
};
static const sim_type client_type = {
	.name = "sto_client", .handlers = client_handlers, .nhandlers = CLI_NKINDS,
};

/* ------------------------------------------------------------ placement */

static uint32_t topo_router(const sto_topology *t, uint32_t n)
{
	return t && t->router_of ? t->router_of(t->ctx, n) : n;
}

static uint32_t topo_group(const sto_topology *t, uint32_t n)
{
	return t && t->group_of ? t->group_of(t->ctx, n) : 0;
}

typedef VEC(uint32_t) u32vec;

/* Storage nodes of the configuration, in server-index order; errors name the key of sys that set them. */
static int pick_nodes(sto_system *s, const sysconf_t *sys, const sto_topology *topo, u32vec *out, char **err)
{
	const sto_config *c = &s->cfg;
	if (c->kind == STO_CFG_LOCAL) {
		for (uint32_t n = 0; n < s->nnodes; n++)
			VEC_PUSH(out, n);
		return 0;
	}
	if (c->nodes) {
		const char *key = c->kind == STO_CFG_STORAGE ? "io_nodes" : "bb_nodes";
		uint8_t *seen = xcalloc(s->nnodes, 1);
		for (uint32_t i = 0; i < c->nnodes_list; i++) {
			uint32_t n = c->nodes[i];
			if (n >= s->nnodes || seen[n]) {
				*err = n >= s->nnodes ? xasprintf("%s: [storage] %s: node %u is outside the machine (%u nodes)",
				                                  sysconf_where(sys, "storage", key), key, n, s->nnodes)
				                      : xasprintf("%s: [storage] %s: node %u is listed twice",
				                                  sysconf_where(sys, "storage", key), key, n);
				free(seen);
				return -1;
			}
			seen[n] = 1;
			VEC_PUSH(out, n);
		}
		free(seen);
		return 0;
	}
	if (c->kind == STO_CFG_STORAGE) {
		if (c->io_servers >= s->nnodes) {
			*err = xasprintf("%s: [storage] io_servers = %u leaves no compute node (%u nodes)",
			                 sysconf_where(sys, "storage", "io_servers"), c->io_servers, s->nnodes);
			return -1;
		}
		for (uint32_t n = s->nnodes - c->io_servers; n < s->nnodes; n++)
			VEC_PUSH(out, n);
		return 0;
	}
	/* compute-side default: the first bb_per_group nodes of every group. */
	uint32_t maxg = 0;
	for (uint32_t n = 0; n < s->nnodes; n++)
		if (topo_group(topo, n) > maxg)
			maxg = topo_group(topo, n);
	uint32_t *count = xcalloc((size_t)maxg + 1, sizeof *count);
	for (uint32_t n = 0; n < s->nnodes; n++) {
		uint32_t g = topo_group(topo, n);
		if (count[g] < c->bb_per_group) {
			count[g]++;
			VEC_PUSH(out, n);
		}
	}
	free(count);
	return 0;
}

/* Fills s->route for compute-side: same router, else same group, else bb[client % nbb]. */
static void route_nearest(sto_system *s, const sto_topology *topo)
{
	uint32_t maxg = 0;
	for (uint32_t i = 0; i < s->nservers; i++)
		if (topo_group(topo, s->servers[i].node) > maxg)
			maxg = topo_group(topo, s->servers[i].node);
	for (uint32_t n = 0; n < s->nnodes; n++)
		if (topo_group(topo, n) > maxg)
			maxg = topo_group(topo, n);
	/* Servers bucketed by group (CSR), in server-index order. */
	uint32_t *start = xcalloc((size_t)maxg + 2, sizeof *start);
	uint32_t *by_group = xcalloc(s->nservers, sizeof *by_group);
	uint32_t *sgroup = xcalloc(s->nservers, sizeof *sgroup), *srouter = xcalloc(s->nservers, sizeof *srouter);
	for (uint32_t i = 0; i < s->nservers; i++) {
		sgroup[i] = topo_group(topo, s->servers[i].node);
		srouter[i] = topo_router(topo, s->servers[i].node);
		start[sgroup[i] + 1]++;
	}
	for (uint32_t g = 0; g <= maxg; g++)
		start[g + 1] += start[g];
	uint32_t *fill = xcalloc((size_t)maxg + 1, sizeof *fill);
	for (uint32_t i = 0; i < s->nservers; i++)
		by_group[start[sgroup[i]] + fill[sgroup[i]]++] = i;
	for (uint32_t n = 0; n < s->nnodes; n++) {
		uint32_t g = topo_group(topo, n), rt = topo_router(topo, n);
		uint32_t lo = start[g], hi = start[g + 1], same = 0;
		for (uint32_t k = lo; k < hi; k++)
			same += srouter[by_group[k]] == rt;
		if (same > 0) {
			uint32_t pick = n % same;
			for (uint32_t k = lo; k < hi; k++)
				if (srouter[by_group[k]] == rt && pick-- == 0) {
					s->route[n] = by_group[k];
					break;
				}
		} else if (hi > lo) {
			s->route[n] = by_group[lo + n % (hi - lo)];
		} else {
			s->route[n] = n % s->nservers;
		}
	}
	free(start);
	free(by_group);
	free(sgroup);
	free(srouter);
	free(fill);
}

/*
 * Fills s->route for bb_route = block: the compute nodes in id order fall
 * into blocks of ncompute / nservers, block k using server k (the last one
 * takes any rest); storage nodes use their own server. This is how MFNetSim
 * sends client k to server k / (clients / servers).
 */
static void route_block(sto_system *s)
{
	uint32_t ncompute = 0;
	for (uint32_t n = 0; n < s->nnodes; n++)
		ncompute += s->server_of_node[n] < 0;
	uint32_t per = ncompute / s->nservers ? ncompute / s->nservers : 1, k = 0;
	for (uint32_t n = 0; n < s->nnodes; n++) {
		if (s->server_of_node[n] >= 0) {
			s->route[n] = (uint32_t)s->server_of_node[n];
			continue;
		}
		uint32_t b = k++ / per;
		s->route[n] = b < s->nservers ? b : s->nservers - 1;
	}
}

/* ------------------------------------------------------------ system */

static int load_dev(const sysconf_t *sys, const char *name, sto_dev **out, char **err)
{
	sto_dev_params p;
	if (sto_dev_params_load(sys, name, &p, err) < 0)
		return -1;
	*out = xcalloc(1, sizeof **out);
	sto_dev_init(*out, &p);
	return 0;
}

sto_system *sto_new(const sysconf_t *sys, net_model *net, const sto_topology *topo, uint32_t nnodes, sim_ctx *ctx,
                    char **err)
{
	sto_system *s = xcalloc(1, sizeof *s);
	u32vec nodes = { 0 };
	if (sto_config_load(sys, &s->cfg, err) < 0) {
		free(s);
		return NULL;
	}
	s->net = net;
	s->nnodes = nnodes;
	if (nnodes == 0) {
		*err = xasprintf("storage: the machine has no nodes");
		goto fail;
	}
	if (!is_local(s) && (!net || net->nnodes < nnodes)) {
		*err = xasprintf("%s: [storage] the %s configuration needs a network covering all %u nodes",
		                 sysconf_where(sys, "storage", "config"),
		                 s->cfg.kind == STO_CFG_COMPUTE ? "compute-side" : "storage-side", nnodes);
		goto fail;
	}
	if (pick_nodes(s, sys, topo, &nodes, err) < 0)
		goto fail;
	s->nservers = (uint32_t)nodes.len;
	s->servers = xcalloc(s->nservers, sizeof *s->servers);
	s->clients = xcalloc(nnodes, sizeof *s->clients);
	s->route = xcalloc(nnodes, sizeof *s->route);
	s->server_of_node = xcalloc(nnodes, sizeof *s->server_of_node);
	for (uint32_t n = 0; n < nnodes; n++)
		s->server_of_node[n] = -1;
	/* Devices first: a bad device name must fail before any entity exists. */
	for (uint32_t i = 0; i < s->nservers; i++) {
		server *sv = &s->servers[i];
		sv->sys = s;
		sv->node = nodes.ptr[i];
		sv->index = i;
		sv->first_dev = i ? sv[-1].first_dev + sv[-1].ndev : 0;
		s->server_of_node[sv->node] = (int32_t)i;
		if (s->cfg.kind == STO_CFG_STORAGE) {
			sv->ndev = 2;
			if (load_dev(sys, s->cfg.ssd_device, &sv->dev[0], err) < 0 ||
			    load_dev(sys, s->cfg.hdd_device, &sv->dev[1], err) < 0)
				goto fail;
			/* The SSD is the burst buffer in front of the server's disk. */
			sv->drain[0] = s->cfg.drain;
		} else {
			sv->ndev = 1;
			if (load_dev(sys, s->cfg.device, &sv->dev[0], err) < 0)
				goto fail;
			sv->drain[0] = s->cfg.drain;
		}
	}
	if (s->cfg.kind == STO_CFG_LOCAL)
		for (uint32_t n = 0; n < nnodes; n++)
			s->route[n] = n;
	else if (s->cfg.kind == STO_CFG_STORAGE)
		for (uint32_t n = 0; n < nnodes; n++)
			s->route[n] = n % s->nservers;
	else if (s->cfg.route_block)
		route_block(s);
	else
		route_nearest(s, topo);
	for (uint32_t n = 0; n < nnodes; n++) {
		s->clients[n] = (client){ .sys = s, .node = n };
		s->clients[n].self = sim_entity_add(ctx, &client_type, &s->clients[n]);
	}
	for (uint32_t i = 0; i < s->nservers; i++)
		s->servers[i].self = sim_entity_add(ctx, &server_type, &s->servers[i]);
	VEC_FREE(&nodes);
	return s;
fail:
	VEC_FREE(&nodes);
	sto_free(s);
	return NULL;
}

void sto_free(sto_system *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; s->servers && i < s->nservers; i++) {
		server *sv = &s->servers[i];
		for (unsigned d = 0; d < 2; d++) {
			if (sv->dev[d]) {
				sto_dev_fini(sv->dev[d]);
				free(sv->dev[d]);
			}
			VEC_FREE(&sv->waitq[d]);
		}
	}
	free(s->servers);
	free(s->clients);
	free(s->route);
	VEC_FREE(&s->io_subs);
	VEC_FREE(&s->io_rows.buf);
	VEC_FREE(&s->busy.kept.buf);
	free(s->server_of_node);
	VEC_FREE(&s->recs);
	VEC_FREE(&s->free_ids);
	sto_config_fini(&s->cfg);
	free(s->fault);
	free(s);
}

uint32_t sto_route(const sto_system *s, uint32_t node, uint64_t bytes, enum sto_where *where)
{
	const server *sv = &s->servers[s->route[node]];
	unsigned dv = s->cfg.kind == STO_CFG_STORAGE && bytes >= s->cfg.threshold ? 1 : 0;
	static const uint8_t at[STO_DEV_NKINDS] = { [STO_DEV_SSD] = STO_AT_SSD, [STO_DEV_HDD] = STO_AT_HDD,
	                                            [STO_DEV_LSM] = STO_AT_LSM };
	if (where)
		*where = is_local(s) ? STO_AT_LOCAL : (enum sto_where)at[sv->dev[dv]->kind];
	return sv->node;
}

/*
 * A lower bound on the device time of the whole request (CK_OVERFLOW past the
 * clock): an SSD's time for its pages, an HDD's interface time, a flat-cost
 * disk's transfer time. The manager moves the request block by block through
 * that device, so it takes at least this.
 */
static ncsim_time_t device_time(const sto_dev *d, const sto_request *req)
{
	if (d->kind == STO_DEV_HDD)
		return ck_xfer_ps(req->bytes, d->u.hdd.p.bus_bandwidth);
	if (d->kind == STO_DEV_LSM)
		return ck_xfer_ps(req->bytes, d->u.lsm.p.bandwidth);
	return req->op == STO_OP_WRITE ? sto_ssd_write_time(&d->u.ssd.p, req->bytes)
	                               : sto_ssd_read_time(&d->u.ssd.p, req->bytes);
}

/*
 * Device address of the first byte of req under addressing = file: files of
 * a job sit file_stride apart on the device (wrapping around it), so that
 * offsets keep their locality for the HDD's seeks and read-ahead.
 */
static uint64_t file_address(const sto_system *s, const sto_dev *d, const sto_request *req)
{
	uint64_t cap = d->capacity;
	uint64_t nslots = cap / s->cfg.file_stride ? cap / s->cfg.file_stride : 1;
	uint64_t slot = ((uint64_t)req->job * 4099u + (uint64_t)req->file) % nslots;
	return (slot * s->cfg.file_stride + req->offset % cap) % cap;
}

uint32_t sto_rec_alloc(sto_system *s)
{
	if (s->free_ids.len > 0)
		return s->free_ids.ptr[--s->free_ids.len];
	VEC_GROW(&s->recs, s->recs.len + 1);
	return (uint32_t)s->recs.len++;
}

void sto_rec_free(sto_system *s, uint32_t id)
{
	if (s->par)
		stp_forget(s, id);
	VEC_PUSH(&s->free_ids, id);
}

int sto_submit(sto_system *s, sim_ctx *ctx, const sto_request *req)
{
	if (req->client_node >= s->nnodes || (req->op != STO_OP_READ && req->op != STO_OP_WRITE))
		return -1;
	const server *to = &s->servers[s->route[req->client_node]];
	int dev = s->cfg.kind == STO_CFG_STORAGE && req->bytes >= s->cfg.threshold ? 1 : 0;
	if (!ck_time_ok(ck_sat_add(sim_now(ctx), device_time(to->dev[dev], req))))
		return STO_ETIME;
	uint32_t id = sto_rec_alloc(s);
	rec *r = &s->recs.ptr[id];
	memset(r, 0, sizeof *r);
	r->req = *req;
	r->seq = s->tot.submitted++;
	if (s->io_keyed)
		stp_submission(s, ctx);
	r->server = s->route[req->client_node];
	server *sv = &s->servers[r->server];
	r->dev = (uint8_t)dev;
	enum sto_where w;
	sto_route(s, req->client_node, req->bytes, &w);
	r->where = (uint8_t)w;
	r->lba = s->cfg.addr_zero ? 0 : file_address(s, sv->dev[r->dev], req);
	r->nblocks = req->bytes / s->cfg.block_size + (req->bytes % s->cfg.block_size != 0);
	r->issue = sim_now(ctx);
	if (s->par)
		stp_submitted(s, id);
	if (is_local(s))
		local_delivery(ctx, sv->self, SRV_REQ, id, sv->node);
	else
		inject(s, ctx, req->client_node, sv->node, s->cfg.control_bytes, r, sv->self, SRV_REQ, id, 0);
	return 0;
}

const sto_config *sto_get_config(const sto_system *s)
{
	return &s->cfg;
}

const sto_totals *sto_get_totals(const sto_system *s)
{
	return &s->tot;
}

int sto_is_storage_node(const sto_system *s, uint32_t node)
{
	return !is_local(s) && node < s->nnodes && s->server_of_node[node] >= 0;
}

uint32_t sto_server_count(const sto_system *s)
{
	return s->nservers;
}

const sto_dev *sto_server_device(const sto_system *s, uint32_t i, int which)
{
	if (i >= s->nservers || which < 0 || (unsigned)which >= s->servers[i].ndev)
		return NULL;
	return s->servers[i].dev[which];
}

void sto_set_io_log(sto_system *s, FILE *out)
{
	s->io_log = out;
	if (out)
		fputs("id,job,client,server,device,op,file,offset,bytes,status,issue_us,network_us,device_us,"
		      "completion_us\n", out);
}

void sto_set_busy_log(sto_system *s, FILE *out, uint64_t max)
{
	s->busy.out = out;
	s->busy.max = max;
	if (out)
		fprintf(out, "%s\n", STO_BUSYLOG_HEADER);
}

const sto_busylog *sto_get_busy_log(const sto_system *s)
{
	return &s->busy;
}

int sto_write_devices(const sto_system *s, FILE *out)
{
	fputs("node,device,model,capacity,used,reads,writes,bytes_read,bytes_written,stored,drained,busy_us,"
	      "space_waits\n", out);
	for (uint32_t i = 0; i < s->nservers; i++) {
		const server *sv = &s->servers[i];
		for (unsigned d = 0; d < sv->ndev; d++) {
			const sto_dev *v = sv->dev[d];
			fprintf(out, "%u,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,%llu\n", sv->node,
			        is_local(s) ? "local" : sto_dev_kind_name(v->kind), v->name,
			        (unsigned long long)v->capacity, (unsigned long long)v->used,
			        (unsigned long long)v->st.reads, (unsigned long long)v->st.writes,
			        (unsigned long long)v->st.bytes_read, (unsigned long long)v->st.bytes_written,
			        (unsigned long long)sv->stored[d], (unsigned long long)sv->drained[d],
			        (double)v->st.busy * 1e-6, (unsigned long long)v->st.full_waits);
		}
	}
	return ferror(out) ? -1 : 0;
}

int sto_check(const sto_system *s, FILE *err)
{
	if (s->fault) {
		fprintf(err, "%s\n", s->fault);
		return -1; /* the run stopped there: the totals below are incomplete by design */
	}
	int bad = 0;
	const sto_totals *t = &s->tot;
	if (t->completed != t->submitted) {
		fprintf(err, "storage: %llu of %llu requests never completed\n",
		        (unsigned long long)(t->submitted - t->completed), (unsigned long long)t->submitted);
		bad = 1;
	}
	if (t->bytes_written != t->bytes_stored) {
		fprintf(err, "storage: clients wrote %llu bytes but devices stored %llu\n",
		        (unsigned long long)t->bytes_written, (unsigned long long)t->bytes_stored);
		bad = 1;
	}
	uint64_t stored = 0, drained = 0;
	for (uint32_t i = 0; i < s->nservers; i++) {
		const server *sv = &s->servers[i];
		for (unsigned d = 0; d < sv->ndev; d++) {
			stored += sv->stored[d];
			drained += sv->drained[d];
			if (sv->dev[d]->used != sv->stored[d] - sv->drained[d]) {
				fprintf(err, "storage: node %u %s: %llu bytes reserved, but %llu stored - %llu drained\n",
				        sv->node, sto_dev_kind_name(sv->dev[d]->kind), (unsigned long long)sv->dev[d]->used,
				        (unsigned long long)sv->stored[d], (unsigned long long)sv->drained[d]);
				bad = 1;
			}
			if (sv->pending_drains[d] || sv->wq_head[d] < sv->waitq[d].len) {
				fprintf(err, "storage: node %u: drains or waiting writes left at the end\n", sv->node);
				bad = 1;
			}
		}
	}
	if (stored != t->bytes_stored || drained != t->bytes_drained) {
		fprintf(err, "storage: per-server byte counts disagree with the totals\n");
		bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * io_client.c - OPENS, CLOSES, READS and WRITES over the storage subsystem (see io_client.h).
 *
 * Per task (allocated on the first I/O call):
 *
 *   files: [ {id 0, open, RDWR, off} {id 3, open, READ, off} {id 7, closed} ... ]  linear search
 *   reqs:  [ {gen, state, op, bytes, file, status, waited} ... ]  free list by index
 *
 * A handle is MP_FOREIGN_REQ | gen << 32 | index+1 (gen: 31 bits), so stale
 * handles are detected and never taken for MPI requests.
 */
#include "runtime/io/io_client.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/checked.h"
#include "runtime/task/latency.h"
#include "runtime/task/task.h"

enum { IO_FREE = 0, IO_PENDING, IO_DONE };

typedef struct io_file {
	int64_t id;
	uint8_t open, mode, was_open;
	uint64_t offset;
} io_file;

typedef struct io_req {
	uint32_t gen;
	uint8_t state, op, waited;
	int16_t status;
	uint32_t next;      /* free list, index+1 */
	int64_t file;
	uint64_t bytes;
	ncsim_time_t submitted;
} io_req;

struct io_task {
	VEC(io_file) files;
	VEC(io_req) reqs;
	uint32_t free_req;
	int in_flight;      /* requests submitted and not yet completed */
	ncsim_time_t busy_since; /* when in_flight last became non-zero */
	int wait_left;      /* requests of the wait in progress not yet completed; -1: no I/O wait */
};

static struct io_task *io_get(rt_task *t)
{
	if (!t->io) {
		struct io_task *io = xcalloc(1, sizeof *io);
		io->wait_left = -1;
		/* File 0 is open from the start (§14.2). */
		VEC_PUSH(&io->files, ((io_file){.id = 0, .open = 1, .was_open = 1, .mode = RT_IO_RDWR}));
		t->io = io;
	}
	return t->io;
}

static io_file *file_of(struct io_task *io, int64_t id)
{
	for (size_t i = 0; i < io->files.len; i++)
		if (io->files.ptr[i].id == id)
			return &io->files.ptr[i];
	return NULL;
}

static rt_req handle_of(const struct io_task *io, uint32_t idx)
{
	return MP_FOREIGN_REQ | ((rt_req)io->reqs.ptr[idx].gen << 32) | (idx + 1);
}

static io_req *req_of(struct io_task *io, rt_req h)
{
	if (!io || !io_is_req(h))
		return NULL;
	uint64_t idx = h & 0xffffffffu;
	if (idx == 0 || idx > io->reqs.len)
		return NULL;
	io_req *r = &io->reqs.ptr[idx - 1];
	return r->state != IO_FREE && r->gen == (uint32_t)((h >> 32) & 0x7fffffffu) ? r : NULL;
}

static uint32_t req_new(struct io_task *io)
{
	uint32_t idx;
	if (io->free_req) {
		idx = io->free_req - 1;
		io->free_req = io->reqs.ptr[idx].next;
	} else {
		VEC_PUSH(&io->reqs, (io_req){.gen = 0});
		idx = (uint32_t)(io->reqs.len - 1);
	}
	uint32_t gen = (io->reqs.ptr[idx].gen + 1) & 0x7fffffffu;
	io->reqs.ptr[idx] = (io_req){.gen = gen ? gen : 1};
	return idx;
}

static void req_release(struct io_task *io, rt_req h)
{
	io_req *r = req_of(io, h);
	if (!r)
		return;
	r->state = IO_FREE;
	r->next = io->free_req;
	io->free_req = (uint32_t)(h & 0xffffffffu);
}

/* ------------------------------------------------------------ completion */

void io_on_done(rt_task *t, const sto_completion *c)
{
	struct io_task *io = t->io;
	io_req *r = req_of(io, c->cookie);
	if (!r || r->state != IO_PENDING)
		return;
	r->state = IO_DONE;
	r->status = c->status;
	ncsim_time_t now = sim_now(t->w->ctx);
	tk_lat_add(&t->job->lat[TK_LAT_IO], now - r->submitted);
	if (--io->in_flight == 0)
		t->tot.io_active += now - io->busy_since;
	if (r->waited) {
		r->waited = 0;
		if (--io->wait_left == 0)
			task_wake(t);
	}
}

void io_wait(rt_task *t, const rt_req *reqs, int n)
{
	struct io_task *io = t->io;
	if (!io || n == 0)
		return;
	int left = 0;
	for (int i = 0; i < n; i++) {
		io_req *r = reqs[i] ? req_of(io, reqs[i]) : NULL;
		if (r && r->state == IO_PENDING && !r->waited) {
			r->waited = 1;
			left++;
		}
	}
	if (left) {
		io->wait_left = left;
		ncsim_time_t d = task_block(t, "an I/O wait");
		io->wait_left = -1;
		t->tot.t[TK_T_IO] += d;
		cnt_io(&t->cnt, 0, 0, d);
	}
	for (int i = 0; i < n; i++) {
		io_req *r = reqs[i] ? req_of(io, reqs[i]) : NULL;
		if (!r)
			continue;
		if (r->status != STO_OK)
			rt_fatal(t, "No space left on the storage for a write of %" PRIu64 " bytes to file %" PRId64,
			         r->bytes, r->file);
		int rd = r->op == STO_OP_READ;
		cnt_io(&t->cnt, rd ? r->bytes : 0, rd ? 0 : r->bytes, 0);
		if (rd)
			t->tot.io_read += r->bytes;
		else
			t->tot.io_written += r->bytes;
		t->tot.io_ops++;
		req_release(io, reqs[i]);
	}
}

int io_in_flight(const rt_task *t) { return t->io ? t->io->in_flight : 0; }

void io_task_free(rt_task *t)
{
	if (!t->io)
		return;
	VEC_FREE(&t->io->files);
	VEC_FREE(&t->io->reqs);
	free(t->io);
	t->io = NULL;
}

/* ------------------------------------------------------------ the skeleton API */

static const char *mode_name(unsigned mode)
{
	return mode == RT_IO_READ ? "reading" : mode == RT_IO_WRITE ? "writing" : "reading and writing";
}

void rt_io_open(rt_task *t, rt_int file, unsigned mode)
{
	if (file < 0)
		rt_fatal(t, "Cannot open file %" PRId64 ": file numbers are not negative", file);
	if (mode < RT_IO_READ || mode > RT_IO_RDWR)
		rt_fatal(t, "Cannot open file %" PRId64 " with mode %u", file, mode);
	struct io_task *io = io_get(t);
	io_file *f = file_of(io, file);
	if (!f) {
		VEC_PUSH(&io->files, ((io_file){.id = file}));
		f = &io->files.ptr[io->files.len - 1];
	}
	if (!f->open)
		f->offset = 0;
	f->open = f->was_open = 1;
	f->mode = (uint8_t)mode;
}

void rt_io_close(rt_task *t, rt_int file)
{
	io_file *f = file_of(io_get(t), file);
	if (!f || !f->open)
		rt_fatal(t, f && f->was_open ? "Closing file %" PRId64 ", which is already closed"
		                             : "Closing file %" PRId64 ", which was never opened", file);
	f->open = 0;
	f->offset = 0;
}

static rt_req submit(rt_task *t, int op, rt_int file, uint64_t bytes, int64_t offset, int async)
{
	const char *verb = op == STO_OP_READ ? "Reading" : "Writing";
	if (bytes > (uint64_t)INT64_MAX)
		rt_fatal(t, "%s a negative number of bytes (%" PRId64 ")", verb, (int64_t)bytes);
	if (offset < 0 && offset != RT_IO_SEQUENTIAL)
		rt_fatal(t, "%s at negative offset %" PRId64, verb, offset);
	struct io_task *io = io_get(t);
	io_file *f = file_of(io, file);
	if (!f || !f->open)
		rt_fatal(t, "%s file %" PRId64 ", which is not open", verb, file);
	if (!(f->mode & (op == STO_OP_READ ? RT_IO_READ : RT_IO_WRITE)))
		rt_fatal(t, "%s file %" PRId64 ", which is open for %s only", verb, file, mode_name(f->mode));
	task_world *w = t->w;
	if (!w->sto && w->sto_make) {
		char *err = NULL;
		w->sto = w->sto_make(w->sto_make_ctx, &err);
		if (!w->sto)
			task_fatal_err(t, err, "cannot build the storage");
	}
	if (!w->sto)
		rt_fatal(t, "%s file %" PRId64 ": the simulated system has no storage", verb, file);
	uint64_t at = offset == RT_IO_SEQUENTIAL ? f->offset : (uint64_t)offset, end;
	if (ck_add(at, bytes, &end) < 0)
		rt_fatal(t, "%s %" PRIu64 " bytes at offset %" PRIu64 " of file %" PRId64 " would pass 2^64 bytes", verb, bytes,
		         at, file);
	if (offset == RT_IO_SEQUENTIAL)
		f->offset = end;
	uint32_t idx = req_new(io);
	io_req *r = &io->reqs.ptr[idx];
	r->state = IO_PENDING;
	r->op = (uint8_t)op;
	r->file = file;
	r->bytes = bytes;
	rt_req h = handle_of(io, idx);
	sto_request sr = {
		.client_node = t->node, .op = (uint8_t)op, .job = (uint8_t)t->job->index, .file = file,
		.offset = at, .bytes = bytes, .notify = t->eid, .notify_kind = TK_EV_IO_DONE, .cookie = h,
	};
	int rc = sto_submit(w->sto, w->ctx, &sr);
	if (rc == STO_ETIME)
		rt_fatal(t, "%s %" PRIu64 " bytes of file %" PRId64 " would end past 2^64 ps (about 213 days), the end of "
		         "simulated time", verb, bytes, file);
	if (rc < 0)
		rt_fatal(t, "%s file %" PRId64 ": the storage rejected the request (node %" PRIu32 ")", verb, file,
		         t->node);
	r->submitted = sim_now(w->ctx);
	if (io->in_flight++ == 0)
		io->busy_since = r->submitted;
	if (async) {
		VEC_PUSH(&t->mpi.user_reqs, h);
		return h;
	}
	io_wait(t, &h, 1);
	return 0;
}

rt_req rt_io_read(rt_task *t, rt_int file, uint64_t bytes, int64_t offset, int async)
{
	return submit(t, STO_OP_READ, file, bytes, offset, async);
}

rt_req rt_io_write(rt_task *t, rt_int file, uint64_t bytes, int64_t offset, int async)
{
	return submit(t, STO_OP_WRITE, file, bytes, offset, async);
}

/*
 * par.c - the conservative parallel kernel (see par.h, doc/parallel.md).
 *
 * One window, on every rank:
 *
 *   exchange    one message to every other rank (MPI_Isend; MPI_Probe and
 *               MPI_Recv from each): a header {earliest time, not stopped,
 *               model value} and the events and model records for it. Each
 *               received event is queued with its own key (sim_insert_remote)
 *   agree       every rank takes the minimum of the headers itself: the
 *               window starts at the earliest time of any rank, counting
 *               what is under way to others, and stops if any rank stopped
 *   advance     fire local events with time in [T, T + L), T the global next
 *
 * One round of messages per window, no collective: each rank hears from
 * every other one in each window, so the minimum is global (K - 1 messages
 * per rank and window, fine for the few ranks of one machine; a tree
 * reduction would serve many).
 *
 * The queue orders by (time, src, seq), where seq counts the events its source
 * entity scheduled: a key does not depend on which rank made it, nor on the
 * order in which records arrive, so every rank fires its events in the order
 * of the sequential run. Only MPI's own state is global here: everything else
 * hangs off the par_run.
 */
#include "config.h"

#include "runtime/kernel/par.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/kernel/progress.h"
#include "base/util.h"

#ifdef NCSIM_HAVE_MPI
#include <mpi.h>
#endif

typedef VEC(sim_event) par_box;
typedef VEC(unsigned char) par_bytes;

typedef struct par_channel {
	void (*fn)(void *arg, const void *rec, size_t n);
	void *arg;
} par_channel;
#define PAR_MAX_CHANNELS 4

/* A channel record on the wire: its channel and length, then its bytes. */
typedef struct ch_hdr {
	uint32_t ch, n;
} ch_hdr;

struct par_run {
	sim_ctx *ctx;
	uint32_t rank, size;
	uint32_t *owner;
	ncsim_time_t lookahead;
	ncsim_time_t last;  /* the current window's last instant; remote events must come later */
	int in_window;
	int violated;       /* a remote event broke the lookahead */
	par_box *out;       /* per destination rank */
	par_box in;
	const par_model *pm;
	par_bytes *mout;    /* the model's records, per destination rank */
	par_bytes min;      /* ... received at the end of the window */
	par_bytes *aout;    /* the channels' records (par_post_ch), framed, per destination rank */
	par_bytes ain;      /* ... received */
	par_channel ch[PAR_MAX_CHANNELS];
	unsigned nch;
	par_bytes raw;      /* the exchange's receive buffer */
	par_bytes *sbuf;    /* per destination rank: the message being sent */
	ncsim_time_t sent_min; /* earliest time of the window's events and records for other ranks */
	uint64_t events0;   /* the kernel's event count when the window loop began */
	par_stats local, st;
};

/* Ranks a launcher announces in the environment (Open MPI, PMI, PMIx); 0 when none did. */
static int launched(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"};
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		if (getenv(vars[i]))
			return 1;
	return 0;
}

uint32_t par_launched_ranks(void)
{
	const char *n = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE") : getenv("PMI_SIZE");
	long k = n ? strtol(n, NULL, 10) : 1;
	return k > 1 && k < (long)UINT32_MAX ? (uint32_t)k : 1;
}

#ifdef NCSIM_HAVE_MPI

static int mpi_on(void)
{
	int init = 0, fini = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fini);
	return init && !fini;
}

/*
 * A window's exchange carries a few kilobytes to a few tens (80 bytes an
 * event that crosses ranks, and the models' records). Open MPI's shared
 * memory transport sends up to 4 KiB eagerly and larger messages with a
 * handshake and a single-copy system call, about 8 us against 1.7 us for 12
 * KB on this kind of machine, paid every window by both ranks. A user's
 * own setting wins.
 */
static void tune_transport(void)
{
	setenv("OMPI_MCA_btl_vader_eager_limit", "16384", 0);
	setenv("OMPI_MCA_btl_sm_eager_limit", "16384", 0); /* the transport's name from Open MPI 5 */
}

int par_init(int *argc, char ***argv, char **err)
{
	(void)err;
	if (!launched())
		return 0;
	if (!mpi_on()) {
		tune_transport();
		MPI_Init(argc, argv);
	}
	return 1;
}

void par_finalize(void)
{
	if (mpi_on())
		MPI_Finalize();
}

int par_built_with_mpi(void) { return 1; }

uint32_t par_rank(void)
{
	int r = 0;
	if (mpi_on())
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return (uint32_t)r;
}

uint32_t par_size(void)
{
	int n = 1;
	if (mpi_on())
		MPI_Comm_size(MPI_COMM_WORLD, &n);
	return (uint32_t)n;
}

static void allreduce_u64(uint64_t *v, int n, MPI_Op op)
{
	if (mpi_on())
		MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, op, MPI_COMM_WORLD);
}

uint64_t par_sum_u64(uint64_t v)
{
	allreduce_u64(&v, 1, MPI_SUM);
	return v;
}

uint64_t par_max_u64(uint64_t v)
{
	allreduce_u64(&v, 1, MPI_MAX);
	return v;
}

void par_sum_u64s(uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i += INT_MAX)
		allreduce_u64(v + i, (int)(n - i < INT_MAX ? n - i : INT_MAX), MPI_SUM);
}

static double max_double(double v)
{
	if (mpi_on())
		MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return v;
}

/* MPI counts are ints: a byte count that does not fit ends the job (it would be a window of 2^25 events). */
static int icount(size_t n)
{
	if (n > INT_MAX) {
		fprintf(stderr, "ncsim: parallel kernel: %zu bytes in one exchange, more than MPI can count\n", n);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	return (int)n;
}

void par_gather(const void *mine, size_t n, void **all, size_t *alln)
{
	uint32_t size = par_size(), rank = par_rank();
	*all = NULL;
	*alln = 0;
	if (size == 1) {
		*all = xmalloc(n ? n : 1);
		if (n)
			memcpy(*all, mine, n);
		*alln = n;
		return;
	}
	int me = icount(n), *counts = xcalloc(size, sizeof *counts), *displs = xcalloc(size, sizeof *displs);
	MPI_Gather(&me, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	size_t total = 0;
	for (uint32_t i = 0; rank == 0 && i < size; i++) {
		displs[i] = icount(total);
		total += (size_t)counts[i];
	}
	char *buf = rank == 0 ? xmalloc(total ? total : 1) : NULL;
	MPI_Gatherv(mine, me, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
	free(counts);
	free(displs);
	if (rank == 0) {
		*all = buf;
		*alln = total;
	}
}

void par_abort(int status)
{
	if (mpi_on())
		MPI_Abort(MPI_COMM_WORLD, status);
	exit(status);
}

void par_bcast(void *buf, size_t n)
{
	if (par_size() > 1)
		MPI_Bcast(buf, icount(n), MPI_BYTE, 0, MPI_COMM_WORLD);
}

void par_allgather(const void *mine, size_t n, void *all)
{
	if (par_size() == 1) {
		memcpy(all, mine, n);
		return;
	}
	MPI_Allgather(mine, icount(n), MPI_BYTE, all, icount(n), MPI_BYTE, MPI_COMM_WORLD);
}

/* The header of a rank's message to another in each window. */
typedef struct par_hdr {
	uint64_t v[3];   /* earliest time, not stopped, model value: the minimum over ranks is the agreement */
	uint64_t ebytes; /* bytes of events that follow; the model's records after them */
	uint64_t abytes; /* bytes of the second channel's records, last */
} par_hdr;

/*
 * Sends every outbox to its rank with this rank's header h, fills pr->in
 * (events) and pr->min (the model's records) with what the other ranks sent
 * here, and leaves in h the minimum of every rank's header.
 */
static void exchange(par_run *pr, par_hdr *h)
{
	uint32_t n = pr->size;
	MPI_Request *rq = xcalloc(n, sizeof *rq);
	for (uint32_t i = 0; i < n; i++) {
		rq[i] = MPI_REQUEST_NULL;
		if (i == pr->rank)
			continue;
		par_bytes *b = &pr->sbuf[i];
		par_hdr hi = *h;
		hi.ebytes = pr->out[i].len * sizeof(sim_event);
		hi.abytes = pr->aout[i].len;
		size_t len = sizeof hi + hi.ebytes + pr->mout[i].len + hi.abytes;
		VEC_GROW(b, len);
		memcpy(b->ptr, &hi, sizeof hi);
		if (hi.ebytes)
			memcpy(b->ptr + sizeof hi, pr->out[i].ptr, hi.ebytes);
		if (pr->mout[i].len)
			memcpy(b->ptr + sizeof hi + hi.ebytes, pr->mout[i].ptr, pr->mout[i].len);
		if (hi.abytes)
			memcpy(b->ptr + len - hi.abytes, pr->aout[i].ptr, hi.abytes);
		b->len = len;
		pr->out[i].len = 0;
		pr->mout[i].len = 0;
		pr->aout[i].len = 0;
		MPI_Isend(b->ptr, icount(len), MPI_BYTE, (int)i, 0, MPI_COMM_WORLD, &rq[i]);
	}
	pr->in.len = 0;
	pr->min.len = 0;
	pr->ain.len = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i == pr->rank)
			continue;
		MPI_Status st;
		int len;
		MPI_Probe((int)i, 0, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &len);
		VEC_GROW(&pr->raw, (size_t)len);
		MPI_Recv(pr->raw.ptr, len, MPI_BYTE, (int)i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		par_hdr hi;
		memcpy(&hi, pr->raw.ptr, sizeof hi);
		for (int k = 0; k < 3; k++)
			if (hi.v[k] < h->v[k])
				h->v[k] = hi.v[k];
		size_t ne = hi.ebytes / sizeof(sim_event), mb = (size_t)len - sizeof hi - hi.ebytes - hi.abytes;
		VEC_GROW(&pr->in, pr->in.len + ne + 1);
		memcpy(pr->in.ptr + pr->in.len, pr->raw.ptr + sizeof hi, hi.ebytes);
		pr->in.len += ne;
		VEC_GROW(&pr->min, pr->min.len + mb + 1);
		memcpy(pr->min.ptr + pr->min.len, pr->raw.ptr + sizeof hi + hi.ebytes, mb);
		pr->min.len += mb;
		VEC_GROW(&pr->ain, pr->ain.len + hi.abytes + 1);
		memcpy(pr->ain.ptr + pr->ain.len, pr->raw.ptr + (size_t)len - hi.abytes, hi.abytes);
		pr->ain.len += hi.abytes;
	}
	MPI_Waitall((int)n, rq, MPI_STATUSES_IGNORE);
	free(rq);
}

#else /* !NCSIM_HAVE_MPI: one rank */

int par_init(int *argc, char ***argv, char **err)
{
	(void)argc;
	(void)argv;
	const char *n = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE") : getenv("PMI_SIZE");
	if (launched() && n && strtol(n, NULL, 10) > 1) {
		*err = xasprintf("this ncsim was built without MPI: it cannot run over %s ranks "
		                 "(install libopenmpi-dev and configure again)", n);
		return -1;
	}
	return 0;
}

void par_finalize(void) {}
int par_built_with_mpi(void) { return 0; }
uint32_t par_rank(void) { return 0; }
uint32_t par_size(void) { return 1; }
uint64_t par_sum_u64(uint64_t v) { return v; }
uint64_t par_max_u64(uint64_t v) { return v; }
void par_sum_u64s(uint64_t *v, size_t n) { (void)v, (void)n; }
static double max_double(double v) { return v; }

void par_gather(const void *mine, size_t n, void **all, size_t *alln)
{
	*all = xmalloc(n ? n : 1);
	if (n)
		memcpy(*all, mine, n);
	*alln = n;
}

void par_allgather(const void *mine, size_t n, void *all) { memcpy(all, mine, n); }
void par_bcast(void *buf, size_t n) { (void)buf, (void)n; }
void par_abort(int status) { exit(status); }

typedef struct par_hdr {
	uint64_t v[3];
	uint64_t ebytes, abytes;
} par_hdr;

static void exchange(par_run *pr, par_hdr *h) { (void)pr, (void)h; }

#endif

/* ---------------------------------------------------------------- kernel hooks */

/* CPU seconds of this thread (the work of a window, whatever else runs on the machine or in MPI's threads). */
static double cpu_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void par_violation(par_run *pr, const char *what, ncsim_time_t t)
{
	if (pr->violated)
		return;
	pr->violated = 1;
	fprintf(stderr,
	        "ncsim: parallel kernel: %s at %" PRIu64 " ps, inside the window that ends at %" PRIu64
	        " ps: the lookahead of %" PRIu64 " ps is too long for this model\n",
	        what, t, pr->last, pr->lookahead);
	sim_stop(pr->ctx, 1);
}

/* sim_par_hooks.remote: an event for another rank waits in its outbox until the window ends. */
static void on_remote(void *arg, const sim_event *ev, uint32_t rank)
{
	par_run *pr = arg;
	if (pr->in_window && ev->time <= pr->last && !pr->violated) {
		char what[96];
		snprintf(what, sizeof what, "entity %" PRIu32 " sent entity %" PRIu32 " (rank %" PRIu32 ") an event", ev->src,
		         ev->dst, rank);
		par_violation(pr, what, ev->time);
	}
	if (ev->time < pr->sent_min)
		pr->sent_min = ev->time;
	VEC_PUSH(&pr->out[rank], *ev);
	pr->out[rank].ptr[pr->out[rank].len - 1].state = SIM_EV_NEW;
	pr->local.remote++;
}

/* The last instant of the window that starts at t: t + L - 1, capped at `until`. */
static ncsim_time_t window_last(const par_run *pr, ncsim_time_t t, ncsim_time_t until)
{
	ncsim_time_t last = t + pr->lookahead - 1;
	if (last < t) /* past the end of time */
		last = SIM_FOREVER;
	return last < until ? last : until;
}

/* The channels' records of the window, one call per record, in rank order and each rank's posting order. */
static void deliver_channels(par_run *pr)
{
	for (size_t off = 0; off + sizeof(ch_hdr) <= pr->ain.len;) {
		ch_hdr h;
		memcpy(&h, pr->ain.ptr + off, sizeof h);
		off += sizeof h;
		if (h.ch < pr->nch && pr->ch[h.ch].fn)
			pr->ch[h.ch].fn(pr->ch[h.ch].arg, pr->ain.ptr + off, h.n);
		off += h.n;
	}
}

/* sim_par_hooks.loop: windows until every rank drained, passed `until` or stopped. */
static void on_loop(void *arg, sim_ctx *ctx, ncsim_time_t until)
{
	par_run *pr = arg;
	double w0 = sim_progress_clock(), sync = 0, cpu = 0;
	int stopped = pr->violated;
	pr->local = (par_stats){.lookahead = pr->lookahead};
	pr->events0 = sim_get_stats(ctx)->events;
	const par_model *pm = pr->pm;
	for (;;) {
		double s0 = sim_progress_clock();
		/* What this rank sent counts towards the next window's start: the receiver has not queued it yet. */
		ncsim_time_t next = sim_next_time(ctx);
		par_hdr h = {.v = {next < pr->sent_min ? next : pr->sent_min, !stopped, pm ? pm->contrib(pm->arg) : SIM_FOREVER}};
		pr->sent_min = SIM_FOREVER;
		if (pr->size > 1) /* one rank has nothing to send (and may run without MPI_Init) */
			exchange(pr, &h);
		for (size_t i = 0; i < pr->in.len; i++)
			sim_insert_remote(ctx, &pr->in.ptr[i]);
		pr->in.len = 0;
		if (pm)
			pm->window_end(pm->arg, pr->min.ptr, pr->min.len);
		deliver_channels(pr);
		uint64_t *v = h.v;
		ncsim_time_t t = v[0], mt = SIM_FOREVER;
		if (pm && pm->agreed(pm->arg, v[2], &mt)) {
			sim_stop(ctx, 1);
			v[1] = 0;
		}
		if (mt < t)
			t = mt;
		sync += sim_progress_clock() - s0;
		if (!v[1] || t == SIM_FOREVER)
			break;
		if (t > until) {
			sim_set_stopped_at_until(ctx);
			break;
		}
		pr->last = window_last(pr, t, until);
		pr->in_window = 1;
		ncsim_time_t kt;
		sim_eid ks;
		uint64_t kq;
		stopped = 0;
		double c0 = cpu_clock();
		if (pm && pm->cut(pm->arg, t, pr->last, &kt, &ks, &kq)) {
			stopped = sim_advance_key(ctx, kt, ks, kq);
			pm->at_cut(pm->arg);
		}
		stopped = stopped || sim_advance(ctx, pr->last) || pr->violated;
		cpu += cpu_clock() - c0;
		pr->in_window = 0;
		pr->local.windows++;
	}
	pr->local.sync_s = sync;
	pr->local.cpu_s = cpu;
	pr->local.wall_s = sim_progress_clock() - w0;
}

/* sim_par_hooks.reduce: the run's counters over every rank, the same everywhere. */
static void on_reduce(void *arg, sim_stats *st, int *err)
{
	par_run *pr = arg;
	if (pr->pm && pr->pm->final) {
		uint64_t extra = 0;
		ncsim_time_t end = 0;
		pr->pm->final(pr->pm->arg, &extra, &end);
		if (pr->rank == 0) /* the model's own events are the same on every rank: count them once */
			st->events += extra;
		if (end > st->end_time)
			st->end_time = end;
	}
	uint64_t mine = st->events - pr->events0;
	uint64_t sum[4] = {st->events, st->scheduled, pr->local.remote, (uint64_t)(*err || pr->violated)};
	par_sum_u64s(sum, 4);
	uint64_t mx[4] = {st->end_time, st->peak_pending, mine, (uint64_t)st->interrupted};
	for (int i = 0; i < 4; i++)
		mx[i] = par_max_u64(mx[i]);
	st->events = sum[0];
	st->scheduled = sum[1];
	st->end_time = mx[0];
	st->peak_pending = mx[1];
	st->interrupted = mx[3] != 0;
	*err = sum[3] != 0;
	pr->st = pr->local;
	pr->st.ranks = pr->size;
	pr->st.events = par_sum_u64(mine);
	pr->st.remote = sum[2];
	pr->st.max_rank_events = mx[2];
	pr->st.sync_s = max_double(pr->local.sync_s);
	pr->st.wall_s = max_double(pr->local.wall_s);
	pr->st.cpu_s = max_double(pr->local.cpu_s);
}

static const sim_par_hooks hooks = {.remote = on_remote, .loop = on_loop, .reduce = on_reduce};

par_run *par_attach(sim_ctx *ctx, const uint32_t *owner, sim_eid n, ncsim_time_t lookahead, char **err)
{
	uint32_t size = par_size();
	if (n != sim_entity_count(ctx)) {
		*err = xasprintf("the partition covers %" PRIu32 " entities of %" PRIu32, n, sim_entity_count(ctx));
		return NULL;
	}
	if (lookahead == 0) {
		*err = xasprintf("no lookahead: an event may cross ranks with no delay, so ranks cannot advance apart");
		return NULL;
	}
	for (sim_eid i = 0; i < n; i++)
		if (owner[i] >= size) {
			*err = xasprintf("entity %" PRIu32 " is on rank %" PRIu32 " of %" PRIu32, i, owner[i], size);
			return NULL;
		}
	par_run *pr = xcalloc(1, sizeof *pr);
	pr->ctx = ctx;
	pr->rank = par_rank();
	pr->size = size;
	pr->lookahead = lookahead;
	pr->owner = xmalloc((n ? n : 1) * sizeof *pr->owner);
	memcpy(pr->owner, owner, n * sizeof *owner);
	pr->out = xcalloc(size, sizeof *pr->out);
	pr->mout = xcalloc(size, sizeof *pr->mout);
	pr->aout = xcalloc(size, sizeof *pr->aout);
	pr->sbuf = xcalloc(size, sizeof *pr->sbuf);
	pr->sent_min = SIM_FOREVER;
	pr->st = (par_stats){.ranks = size, .lookahead = lookahead};
	sim_set_partition(ctx, pr->owner, n, pr->rank, &hooks, pr);
	return pr;
}

const par_stats *par_get_stats(const par_run *pr) { return &pr->st; }

void par_stats_print(const par_stats *s, ncsim_time_t end, FILE *out)
{
	if (s->ranks < 2)
		return;
	double ms = (double)end / 1e9;
	fprintf(out, "parallel: %u ranks, %" PRIu64 " windows (%.0f per simulated ms), %.1f events per window, "
	             "%" PRIu64 " remote events, busiest rank %.3f of the mean, window loop %.3f s wall of which "
	             "%.3f s in synchronization, %.3f s CPU firing events (busiest rank)\n",
	        s->ranks, s->windows, ms > 0 ? (double)s->windows / ms : 0,
	        s->windows ? (double)s->events / (double)s->windows : 0, s->remote,
	        s->events ? (double)s->max_rank_events * s->ranks / (double)s->events : 1, s->wall_s, s->sync_s,
	        s->cpu_s);
}

void par_set_model(par_run *pr, const par_model *pm) { pr->pm = pm; }

uint32_t par_me(const par_run *pr) { return pr->rank; }

/* Appends n bytes to b; t counts towards the next window's start. */
static void post(par_run *pr, par_bytes *b, const void *data, size_t n, ncsim_time_t t)
{
	if (t < pr->sent_min)
		pr->sent_min = t;
	VEC_GROW(b, b->len + n);
	memcpy(b->ptr + b->len, data, n);
	b->len += n;
}

void par_post(par_run *pr, uint32_t rank, const void *data, size_t n, ncsim_time_t t)
{
	post(pr, &pr->mout[rank], data, n, t);
}

int par_channel_add(par_run *pr, void (*fn)(void *arg, const void *rec, size_t n), void *arg)
{
	if (pr->nch == PAR_MAX_CHANNELS)
		return -1;
	pr->ch[pr->nch] = (par_channel){fn, arg};
	return (int)pr->nch++;
}

void par_channel_drop(par_run *pr, int id)
{
	if (id >= 0 && (unsigned)id < pr->nch)
		pr->ch[id].fn = NULL;
}

void par_post_ch(par_run *pr, int id, uint32_t rank, const void *data, size_t n, ncsim_time_t t)
{
	ch_hdr h = {(uint32_t)id, (uint32_t)n};
	post(pr, &pr->aout[rank], &h, sizeof h, t);
	post(pr, &pr->aout[rank], data, n, t);
}

uint32_t par_owner(const par_run *pr, sim_eid id) { return pr->owner[id]; }

void par_detach(par_run *pr)
{
	if (pr == NULL)
		return;
	sim_set_partition(pr->ctx, NULL, 0, 0, NULL, NULL);
	for (uint32_t i = 0; i < pr->size; i++) {
		VEC_FREE(&pr->out[i]);
		VEC_FREE(&pr->mout[i]);
		VEC_FREE(&pr->aout[i]);
		VEC_FREE(&pr->sbuf[i]);
	}
	free(pr->out);
	free(pr->mout);
	free(pr->aout);
	free(pr->sbuf);
	VEC_FREE(&pr->in);
	VEC_FREE(&pr->min);
	VEC_FREE(&pr->ain);
	VEC_FREE(&pr->raw);
	free(pr->owner);
	free(pr);
}

/*
 * drv_par.c - the partitioned `ncsim run` (see drv_par.h).
 */
#include "runtime/task/drv_par.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "runtime/kernel/par.h"
#include "runtime/kernel/par_lines.h"
#include "runtime/coll/coll.h"
#include "runtime/mpi/mpi_par.h"
#include "runtime/net/dragonfly.h"
#include "runtime/storage/storage.h"
#include "runtime/task/deadlock.h"
#include "runtime/task/latency.h"
#include "runtime/traffic/traffic.h"

/* What a blocked task waits on, kept for the deadlock report. */
typedef struct wait_rec {
	dl_snap snap;
	char what[64]; /* task_block's reason */
} wait_rec;

struct drv_par {
	par_run *pr;
	task_world *w;
	wait_rec *waits;        /* per task (w->all order), on rank 0 after the run */
	int board;              /* the channel of the collectives' board */
	pln_lines out;          /* OUTPUTS lines, printed by rank 0 after the run */
};

/* What rank 0 needs of a task it does not run. */
typedef struct task_rec {
	uint32_t index; /* in w->all */
	uint8_t state;
	int32_t line;
	rt_int virt;    /* its virtual id (tasks.csv), which a remapping (ASSIGNED TO PROCESSOR) may change */
	task_totals tot;
	wait_rec wait;
} task_rec;

typedef struct node_ranks {
	const net_model *net;
	const df_partition *part;
} node_ranks;

static uint32_t rank_of_node(void *ctx, uint32_t node)
{
	const node_ranks *nr = ctx;
	return df_partition_rank_of_node(nr->net, nr->part, node);
}

/* Owner of every entity: the network's by group, tasks and storage with their nodes; NULL with *err if one is left. */
static uint32_t *owners(task_world *w, const df_partition *part, char **err)
{
	sim_eid n = sim_entity_count(w->ctx);
	uint32_t *owner = xmalloc((n ? n : 1) * sizeof *owner);
	for (sim_eid i = 0; i < n; i++)
		owner[i] = UINT32_MAX;
	df_partition_owner(w->net, part, owner);
	for (size_t i = 0; i < w->all.len; i++)
		owner[w->all.ptr[i]->eid] = df_partition_rank_of_node(w->net, part, w->all.ptr[i]->node);
	node_ranks nr = {w->net, part};
	if (w->sto)
		sto_owner(w->sto, rank_of_node, &nr, owner);
	trf_par_owner(w, owner);
	for (sim_eid i = 0; i < n; i++)
		if (owner[i] == UINT32_MAX) {
			*err = xasprintf("entity %u of the model belongs to no rank: a part of this run %s", (unsigned)i,
			                 DRVP_NOT_YET);
			free(owner);
			return NULL;
		}
	return owner;
}

/* A board deposit on the wire: the collective's tag, the member, its value, then the group's n members. */
typedef struct board_rec {
	rt_int tag;
	double v;
	int32_t me, n;
} board_rec;

static void on_board(void *arg, const void *rec, size_t n)
{
	drv_par *p = arg;
	board_rec r;
	memcpy(&r, rec, sizeof r);
	if (n != sizeof r + (size_t)r.n * sizeof(rt_int)) {
		fprintf(stderr, "ncsim: internal error: a board record of %zu bytes\n", n);
		abort();
	}
	rt_int *members = xmalloc(((size_t)r.n ? (size_t)r.n : 1) * sizeof *members);
	memcpy(members, (const unsigned char *)rec + sizeof r, (size_t)r.n * sizeof *members);
	rt_group g = {.members = members, .n = r.n};
	coll_board_deposit(p->w->coll, &g, r.tag, r.me, r.v);
	free(members);
}

void drvp_board_post(rt_task *t, const rt_group *g, rt_int tag, int me, double v)
{
	drv_par *p = t->w->par;
	uint32_t size = par_size(), self = par_me(p->pr);
	unsigned char *to = xcalloc(size, 1);
	for (int i = 0; i < g->n; i++)
		to[par_owner(p->pr, t->job->first_eid + task_phys(t, g->members[i]))] = 1;
	size_t len = sizeof(board_rec) + (size_t)g->n * sizeof(rt_int);
	unsigned char *rec = xmalloc(len);
	board_rec r = {.tag = tag, .v = v, .me = me, .n = g->n};
	memcpy(rec, &r, sizeof r);
	memcpy(rec + sizeof r, g->members, (size_t)g->n * sizeof(rt_int));
	for (uint32_t k = 0; k < size; k++)
		if (to[k] && k != self)
			par_post_ch(p->pr, p->board, k, rec, len, SIM_FOREVER);
	free(rec);
	free(to);
}

int drvp_attach(task_world *w, FILE *report, char **err)
{
	if (strcmp(w->net->ops->name, "dragonfly")) {
		*err = xasprintf("the %s network %s: only the packet-level dragonfly runs over ranks", w->net->ops->name,
		                 DRVP_NOT_YET);
		return -1;
	}
	/* The expected load: the nodes that hold tasks (df_partition_groups adds the transit share). */
	double *weight = xcalloc(w->net->nnodes, sizeof *weight);
	for (size_t i = 0; i < w->all.len; i++)
		weight[w->all.ptr[i]->node] = 1;
	df_partition part;
	int rc = df_partition_groups(w->net, par_size(), weight, &part, err);
	free(weight);
	if (rc < 0)
		return -1;
	uint32_t *owner = owners(w, &part, err);
	/*
	 * The shortest message on the wire, whose credit comes back soonest: an
	 * MPI header (an eager message carries one), the data of a medium or large
	 * message alone (more than small_max bytes), a storage control message or
	 * data block (a request's last block may hold one byte), and generated
	 * traffic of any size, none included.
	 */
	uint64_t least = w->mp.header_bytes;
	if (w->mp.small_max < least)
		least = w->mp.small_max + 1;
	if (w->sto && sto_get_config(w->sto)->kind != STO_CFG_LOCAL)
		least = 1;
	for (size_t j = 0; j < w->jobs.len; j++)
		if (w->jobs.ptr[j]->prog->flags & RT_PROG_USES_TRAFFIC)
			least = 0;
	ncsim_time_t la = df_lookahead(w->net, (uint32_t)(least < UINT32_MAX ? least : UINT32_MAX));
	par_run *pr = owner ? par_attach(w->ctx, owner, sim_entity_count(w->ctx), la, err) : NULL;
	free(owner);
	if (pr && (df_par_attach(w->net, pr, &part, NET_CLASS_MPI, err) < 0 ||
	           df_par_labels(w->net, (unsigned)w->jobs.len, err) < 0 || (w->sto && sto_par_attach(w->sto, pr, err) < 0))) {
		par_detach(pr);
		pr = NULL;
	}
	if (pr && par_rank() == 0) {
		df_partition_print(w->net, &part, report);
		fprintf(report, "  lookahead: %.3f ns\n", (double)la / 1e3);
	}
	df_partition_clear(&part);
	if (!pr)
		return -1;
	w->par = xcalloc(1, sizeof *w->par);
	w->par->pr = pr;
	w->par->w = w;
	w->par->board = par_channel_add(pr, on_board, w->par);
	w->envs.par = mpp_new(pr, &w->envs);
	return 0;
}

int drvp_is_local(const task_world *w, sim_eid id) { return par_owner(w->par->pr, id) == par_me(w->par->pr); }

void drvp_output(task_world *w, const char *line) { pln_add(&w->par->out, w->ctx, line, strlen(line)); }

/* Rank 0's copy of a task run elsewhere gets the virtual id its rank's remapping gave it. */
static void set_virt(rt_task *t, rt_int v)
{
	if (task_virt(t, t->rank) == v)
		return;
	if (!t->p2v)
		task_remap_init(t);
	t->p2v[t->rank] = (int32_t)v;
}

/* The states and totals of every task, into rank 0's records; the count of running tasks, on every rank. */
static void gather_tasks(task_world *w)
{
	VEC(task_rec) mine = {0};
	uint64_t done = 0;
	uint32_t me = par_rank();
	for (size_t i = 0; i < w->all.len; i++) {
		rt_task *t = w->all.ptr[i];
		if (par_owner(w->par->pr, t->eid) != me)
			continue;
		done += t->state == TK_DONE;
		task_rec r = {.index = (uint32_t)i, .state = t->state, .line = t->line, .virt = task_virt(t, t->rank),
		              .tot = t->tot};
		if (t->state == TK_BLOCKED) {
			dl_snapshot(t, &r.wait.snap);
			snprintf(r.wait.what, sizeof r.wait.what, "%s", t->block_what ? t->block_what : "");
		}
		VEC_PUSH(&mine, r);
	}
	w->running = (uint32_t)(w->all.len - par_sum_u64(done));
	void *all;
	size_t n;
	par_gather(mine.ptr, mine.len * sizeof *mine.ptr, &all, &n);
	VEC_FREE(&mine);
	if (all)
		w->par->waits = xcalloc(w->all.len ? w->all.len : 1, sizeof *w->par->waits);
	for (size_t off = 0; all && off + sizeof(task_rec) <= n; off += sizeof(task_rec)) {
		task_rec r;
		memcpy(&r, (unsigned char *)all + off, sizeof r);
		rt_task *t = w->all.ptr[r.index];
		t->state = r.state;
		t->line = r.line;
		t->tot = r.tot;
		set_virt(t, r.virt);
		w->par->waits[r.index] = r.wait;
		if (t->state == TK_BLOCKED)
			t->block_what = w->par->waits[r.index].what[0] ? w->par->waits[r.index].what : NULL;
	}
	free(all);
}

/* A job's latency distribution summed over the ranks (integers only, as the sequential sum of integers). */
static void reduce_lat(tk_lat *l)
{
	uint64_t v[3] = {l->h.count ? ~l->min : 0, l->max, (uint64_t)l->sum};
	par_sum_u64s(&l->h.count, 1 + LH_BUCKETS);
	for (int i = 0; i < 2; i++)
		v[i] = par_max_u64(v[i]);
	v[2] = par_sum_u64(v[2]);
	l->min = v[0] ? ~v[0] : 0;
	l->max = v[1];
	l->sum = (double)v[2];
}

/*
 * Every rank fails if one did; rank 0 prints the earliest failure (by its
 * event's key), the one a sequential run would have stopped at.
 */
static void agree_failure(task_world *w)
{
	if (!par_max_u64(w->fatal != NULL))
		return;
	pln_lines first = {0};
	if (w->fatal)
		pln_add_key(&first, w->fatal_at, w->fatal_src, w->fatal_seq, w->fatal, strlen(w->fatal));
	pln_merge(&first, par_rank() == 0 ? stderr : NULL, 1);
	if (!w->fatal) {
		w->fatal = xstrdup("the run failed on another rank");
		w->fatal_msg = xstrdup("The run failed on another rank");
	}
}

int drvp_finish(task_world *w)
{
	if (!w->par)
		return 0;
	int deadlock = df_par_finish(w->net) < 0;
	sto_par_finish(w->sto);
	gather_tasks(w);
	for (size_t j = 0; j < w->jobs.len; j++)
		for (int c = 0; c < TK_NLAT; c++)
			reduce_lat(&w->jobs.ptr[j]->lat[c]);
	trf_par_finish(w);
	pln_merge(&w->par->out, par_rank() == 0 ? (w->out ? w->out : stdout) : NULL, UINT64_MAX);
	agree_failure(w);
	if (par_rank() == 0)
		par_stats_print(par_get_stats(w->par->pr), sim_get_stats(w->ctx)->end_time, stderr);
	return deadlock ? -1 : 0;
}

/* The gathered wait of t (rank 0). */
static const dl_snap *gathered(void *arg, const rt_task *t)
{
	const drv_par *p = arg;
	size_t n = p->w->all.len, i = n ? (size_t)(t->eid - p->w->all.ptr[0]->eid) : 0;
	if (i < n && p->w->all.ptr[i] == t) /* tasks are registered one after the other */
		return &p->waits[i].snap;
	for (i = 0; i < n; i++)
		if (p->w->all.ptr[i] == t)
			return &p->waits[i].snap;
	static const dl_snap none;
	return &none;
}

void drvp_deadlock_report(task_world *w, FILE *out)
{
	if (w->par->waits)
		dl_report(w, sim_get_stats(w->ctx)->end_time, gathered, w->par, out);
}

void drvp_free(task_world *w)
{
	if (!w->par)
		return;
	mpp_free(w->envs.par);
	w->envs.par = NULL;
	sto_par_detach(w->sto);
	par_channel_drop(w->par->pr, w->par->board);
	par_detach(w->par->pr);
	VEC_FREE(&w->par->out.buf);
	free(w->par->waits);
	free(w->par);
	w->par = NULL;
}

/*
 * driver.c - one simulation run and its output folder (see driver.h).
 */
#include "config.h"

#include "runtime/task/driver.h"
#include "runtime/storage/device.h"

#include <errno.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/memlimit.h"

#include "runtime/coll/coll.h"
#include "runtime/kernel/par.h"
#include "runtime/kernel/progress.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/netfactory.h"
#include "runtime/task/placement.h"
#include "runtime/task/params.h"
#include "runtime/task/rt_log.h"
#include "runtime/storage/storage.h"
#include "runtime/stats/outfile.h"
#include "runtime/task/summary.h"
#include "runtime/task/tasks_csv.h"
#include "runtime/traffic/stats.h"
#include "base/defaults.h"
#include "base/sysconf.h"
#include "runtime/task/guard.h"
#include "runtime/task/drv_par.h"
#include "runtime/traffic/traffic.h"
#include "runtime/task/msglog.h"
#include "runtime/task/task.h"

/*
 * The default machine: a 72-node dragonfly (9 groups of 4 routers with 2
 * nodes each, the shape of stdlib/systems/df-small.conf) with the MPI
 * software costs of the Omni-Path calibration, and a compute-side burst
 * buffer: the first node of every group holds a d3-s4510 SSD, so 63 nodes
 * run tasks and each task's I/O goes to the burst buffer of its group. A job
 * with more tasks than compute nodes needs drv_options.oversubscribe.
 */
const char drv_default_system[] =
	"# ncsim built-in default system\n"
	"[network]\n"
	"model = dragonfly\n"
	"groups = " DEF_STR(DEF_DF_GROUPS) "\n"
	"routers_per_group = " DEF_STR(DEF_DF_ROUTERS) "\n"
	"nodes_per_router = " DEF_STR(DEF_DF_NODES) "\n"
	"global_links_per_router = " DEF_STR(DEF_DF_GLOBALS) "\n"
	"global_arrangement = relative\n"
	"local_bandwidth = " DEF_STR(DEF_DF_LOCAL_GIBS) " GiB/s\n"
	"global_bandwidth = " DEF_STR(DEF_DF_GLOBAL_GIBS) " GiB/s\n"
	"terminal_bandwidth = " DEF_STR(DEF_DF_TERMINAL_GIBS) " GiB/s\n"
	"local_latency = " DEF_STR(DEF_DF_LOCAL_NS) " ns\n"
	"global_latency = " DEF_STR(DEF_DF_GLOBAL_NS) " ns\n"
	"terminal_latency = " DEF_STR(DEF_DF_TERMINAL_NS) " ns\n"
	"router_delay = " DEF_STR(DEF_DF_ROUTER_NS) " ns\n"
	"packet_size = " DEF_STR(DEF_DF_PACKET_KIB) " KiB\n"
	"chunk_size = " DEF_STR(DEF_DF_CHUNK_B) " B\n"
	"routing = minimal\n"
	"[mpi]\n"
	"call_overhead = 100 ns\n" /* entering an MPI call (LogGP o), PSM2-class software */
	"[node]\n"
	"memory_bandwidth = " DEF_STR(DEF_MEM_BW_GBS) " GB/s\n"
	"[storage]\n"
	"config = compute-side\n"
	"bb_per_group = 1\n"
	"device = d3-s4510\n"
	"block_size = 1 MiB\n"
	"threads = 4\n";

typedef struct drv_jobspec {
	const rt_program *prog;
	char *name;
	uint32_t ntasks;
	prm_args args;
	char *argline;   /* options joined by blanks, for summary.json */
	uint32_t *nodes; /* copy, or NULL */
	ncsim_time_t start;
} drv_jobspec;

struct drv_sim {
	drv_options o;
	char *system_name;
	sysconf_t *sys;
	VEC(drv_jobspec) jobs;
	sim_ctx *ctx;
	net_model *net;
	char *out_dir;    /* owned copy behind o.out_dir */
	sto_system *sto;
	outfile *io_csv;  /* io.csv while the run writes it */
	outfile *busy_csv; /* device_busy.csv, likewise */
	outfile *msg_csv; /* messages.csv while the run writes it */
	int msg_keyed;    /* a run over ranks keeps messages.csv's rows until the end (every rank) */
	int io_keyed;     /* the same for io.csv and device_busy.csv */
	tk_msglog msglog;
	task_world *w;
	const char *status;
	ncsim_time_t end;
	double wall;      /* seconds spent in drv_run */
	const volatile sig_atomic_t *interrupt; /* guard_arm's flag while drv_run runs */
	drv_outdir *od;   /* the folder drv_run_out writes, removed if a task calls exit() */
};

sysconf_t *drv_load_system(const drv_options *o, char **err)
{
	if (o->system_text)
		return sysconf_parse("(system text)", o->system_text, err);
	if (netf_is_codes(o->system_path))
		return netf_codes_system(o->system_path, o->codes_root, err);
	if (o->system_path)
		return sysconf_load(o->system_path, err);
	return sysconf_parse("(built-in system)", drv_default_system, err);
}

drv_sim *drv_new(const drv_options *o, char **err)
{
	drv_sim *s = xcalloc(1, sizeof *s);
	s->o = *o;
	s->sys = drv_load_system(o, err);
	if (!s->sys) {
		free(s);
		return NULL;
	}
	s->system_name = xstrdup(o->system_name ? o->system_name
	                         : o->system_text ? "(in memory)" : o->system_path ? o->system_path : "(built-in)");
	s->status = "not run";
	return s;
}

void drv_set_out_dir(drv_sim *s, const char *dir)
{
	free(s->out_dir);
	s->out_dir = dir ? xstrdup(dir) : NULL;
	s->o.out_dir = s->out_dir;
}

static char *join_args(int argc, char **argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *s = xcalloc(1, n), *end = s;
	/* Appending at the end, not strcat from the start: linear in the length, whatever argc is. */
	for (int i = 0; i < argc; i++) {
		size_t k = strlen(argv[i]);
		if (i)
			*end++ = ' ';
		memcpy(end, argv[i], k);
		end += k;
	}
	return s;
}

int drv_add_job(drv_sim *s, const drv_job *j, char **err)
{
	if (!j->prog || !j->prog->entry || j->ntasks == 0) {
		*err = xasprintf("a job needs a program with an entry function and at least one task");
		return -1;
	}
	if (j->prog->abi != NCSIM_RT_ABI) {
		*err = xasprintf("program %s was compiled for runtime ABI %u, this runtime is ABI %u", j->prog->name,
		                 j->prog->abi, NCSIM_RT_ABI);
		return -1;
	}
	drv_jobspec js = {.prog = j->prog, .name = xstrdup(j->name ? j->name : j->prog->name), .ntasks = j->ntasks,
	                 .start = j->start};
	if (prm_parse(j->prog, j->argc, j->argv, &js.args, err) < 0 ||
	    prm_check_trust(&js.args, s->o.allow_host_access, err) < 0) {
		char *e = xasprintf("%s: %s", js.name, *err);
		free(*err);
		*err = e;
		prm_free(&js.args);
		free(js.name);
		return -1;
	}
	js.argline = join_args(j->argc, j->argv);
	if (j->nodes) {
		js.nodes = xcalloc(j->ntasks, sizeof *js.nodes);
		memcpy(js.nodes, j->nodes, j->ntasks * sizeof *js.nodes);
	}
	VEC_PUSH(&s->jobs, js);
	return (int)s->jobs.len - 1;
}

int drv_program_help(const rt_program *prog, int argc, char **argv, FILE *out)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?") || !strcmp(argv[i], "--usage")) {
			prm_help(prog, out);
			return 1;
		}
	}
	return 0;
}

/* Node count the jobs need at least: every job's tasks, or its highest placed node. */
static uint32_t job_nodes(const drv_sim *s)
{
	uint64_t n = 0;
	for (size_t i = 0; i < s->jobs.len; i++) {
		const drv_jobspec *js = &s->jobs.ptr[i];
		uint64_t need = js->ntasks;
		for (uint32_t r = 0; js->nodes && r < js->ntasks; r++)
			if ((uint64_t)js->nodes[r] + 1 > need)
				need = (uint64_t)js->nodes[r] + 1;
		n = need > n ? need : n;
	}
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The tasks of all jobs must fit the memory limit, checked before any is placed. */
static int check_task_memory(const drv_sim *s, char **err)
{
	uint64_t n = 0;
	for (size_t i = 0; i < s->jobs.len; i++)
		n += s->jobs.ptr[i].ntasks;
	char what[64];
	snprintf(what, sizeof what, "%" PRIu64 " task%s", n, n == 1 ? "" : "s");
	return mem_limit_check(task_memory_bytes(n), NULL, what, err);
}

/*
 * Nodes a network without a topology of its own (no `nodes` key) needs: the
 * tasks' nodes plus the storage nodes, which never run tasks.
 */
static int min_nodes(const sysconf_t *sys, uint32_t tasks, uint32_t *out, char **err)
{
	sto_config cfg;
	if (sto_config_load(sys, &cfg, err) < 0)
		return -1;
	uint64_t extra = 0, need = tasks;
	if (cfg.kind != STO_CFG_LOCAL) {
		extra = cfg.nnodes_list ? cfg.nnodes_list : cfg.kind == STO_CFG_COMPUTE ? cfg.bb_per_group : cfg.io_servers;
		for (uint32_t i = 0; i < cfg.nnodes_list; i++)
			if ((uint64_t)cfg.nodes[i] + 1 > need + extra)
				need = (uint64_t)cfg.nodes[i] + 1 - extra;
	}
	sto_config_fini(&cfg);
	need += extra;
	*out = need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
	return 0;
}

static uint32_t topo_router(void *ctx, uint32_t node) { return node / ((const net_model *)ctx)->per_router; }
static uint32_t topo_group(void *ctx, uint32_t node) { return node / ((const net_model *)ctx)->per_group; }

/* The storage subsystem of net, with the dragonfly's topology when there is one (at every level). */
static sto_system *make_storage(const sysconf_t *sys, net_model *net, sim_ctx *ctx, char **err)
{
	sto_topology topo = {.nnodes = net->nnodes, .ctx = net, .router_of = topo_router, .group_of = topo_group};
	return sto_new(sys, net, net->per_group ? &topo : NULL, net->nnodes, ctx, err);
}

int drv_machine_nodes(const drv_options *o, uint32_t tasks, uint32_t *nnodes, uint8_t **storage_mask, char **err)
{
	sysconf_t *sys = drv_load_system(o, err);
	if (!sys)
		return -1;
	int rc = -1;
	uint32_t need;
	sim_ctx *ctx = sim_new(o->seed);
	net_model *net = NULL;
	sto_system *sto = NULL;
	if (min_nodes(sys, tasks, &need, err) < 0 ||
	    !(net = netf_create_routed(ctx, sys, o->network, o->routing, need, err)) ||
	    !(sto = make_storage(sys, net, ctx, err)))
		goto out;
	*nnodes = net->nnodes;
	*storage_mask = xcalloc(net->nnodes ? net->nnodes : 1, 1);
	for (uint32_t n = 0; n < net->nnodes; n++)
		(*storage_mask)[n] = sto_is_storage_node(sto, n) != 0;
	rc = 0;
out:
	sto_free(sto);
	net_destroy(net);
	sim_free(ctx);
	sysconf_free(sys);
	return rc;
}

int drv_check_network(const drv_options *o, uint32_t tasks, char **err)
{
	sysconf_t *sys = drv_load_system(o, err);
	if (!sys)
		return -1;
	uint32_t need;
	sim_ctx *ctx = sim_new(o->seed);
	net_model *net = NULL;
	int rc = min_nodes(sys, tasks, &need, err) < 0 ||
	                 !(net = netf_create_routed(ctx, sys, o->network, o->routing, need, err))
	             ? -1
	             : 0;
	net_destroy(net);
	sim_free(ctx);
	sysconf_free(sys);
	return rc;
}

static int open_msg_log(drv_sim *s, char **err);

/* io.csv's header, for a run whose storage is never built (sto_set_io_log writes it otherwise). */
#define IO_CSV_HEADER \
	"id,job,client,server,device,op,file,offset,bytes,status,issue_us,network_us,device_us,completion_us"

/* task_world.sto_make: the deferred local burst buffers, built inside the first I/O request's handler. */
static sto_system *storage_on_demand(void *ctx, char **err)
{
	drv_sim *s = ctx;
	s->sto = make_storage(s->sys, s->net, s->ctx, err);
	if (s->sto && s->io_csv)
		sto_set_io_log(s->sto, outfile_stream(s->io_csv)); /* the file is still empty */
	if (s->sto && s->busy_csv)
		sto_set_busy_log(s->sto, outfile_stream(s->busy_csv), s->o.device_log_max);
	return s->sto;
}

/* 1 if node n hosts storage (never before the storage exists: local burst buffers occupy no node). */
static int storage_node(const drv_sim *s, uint32_t n) { return s->sto && sto_is_storage_node(s->sto, n); }

/* Nodes of js's ranks: the given ones (never storage nodes), else the compute nodes in turn. */
static uint32_t *place(drv_sim *s, const drv_jobspec *js, char **err)
{
	uint32_t *nodes = xcalloc(js->ntasks, sizeof *nodes);
	if (js->nodes) {
		for (uint32_t r = 0; r < js->ntasks; r++) {
			if (js->nodes[r] < s->net->nnodes && storage_node(s, js->nodes[r])) {
				*err = xasprintf("job %s: rank %" PRIu32 " is placed on node %" PRIu32
				                 ", which hosts storage and runs no tasks", js->name, r, js->nodes[r]);
				free(nodes);
				return NULL;
			}
			nodes[r] = js->nodes[r];
		}
		return nodes;
	}
	uint32_t *compute = xcalloc(s->net->nnodes, sizeof *compute), nc = 0;
	for (uint32_t n = 0; n < s->net->nnodes; n++)
		if (!storage_node(s, n))
			compute[nc++] = n;
	uint32_t k = s->o.tasks_per_node > 1 ? s->o.tasks_per_node : 1;
	uint64_t need = ((uint64_t)js->ntasks + k - 1) / k;
	if (nc == 0 || (need > nc && !s->o.oversubscribe)) {
		*err = nc == 0 ? xasprintf("every node of the machine hosts storage: no node is left for job %s", js->name)
		               : xasprintf("%s: %" PRIu32 " tasks at %" PRIu32 " per node need %" PRIu64 " nodes, but the "
		                           "machine has %" PRIu32 " compute nodes; --oversubscribe puts more tasks on a node",
		                           js->name, js->ntasks, k, need, nc);
		free(compute);
		free(nodes);
		return NULL;
	}
	for (uint32_t r = 0; r < js->ntasks; r++)
		nodes[r] = compute[r / k % nc];
	free(compute);
	return nodes;
}

/* An identifier for the run's logs (the same on every task), from the seed, the clock and the process. */
static void make_uuid(uint64_t seed, char buf[40])
{
	uint64_t x = seed ^ ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL, w[2];
	for (int i = 0; i < 2; i++) {
		x += 0x9e3779b97f4a7c15ULL;
		uint64_t z = x;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		w[i] = z ^ (z >> 31);
	}
	snprintf(buf, 40, "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-%04" PRIx64 "-%012" PRIx64, w[0] >> 32,
	         (w[0] >> 16) & 0xffff, w[0] & 0xfff, (w[1] >> 48 & 0x3fff) | 0x8000, w[1] & (uint64_t)0xffffffffffff);
}

/* Log settings of job js. 0, or -1 with *err. */
static int setup_logs(drv_sim *s, const drv_jobspec *js, task_job *j, const char *uuid, time_t created, char **err)
{
	rl_setup ls = {
		.out_dir = s->o.out_dir, .tmpl = js->args.logfile, .argc = s->o.argc, .argv = s->o.argv,
		.system = s->system_name, .network = s->net->ops->name, .nnodes = s->net->nnodes, .seed = j->seed,
		.no_trap = js->args.no_trap, .comments = js->args.comments.ptr, .ncomments = js->args.comments.len,
		.uuid = uuid, .created = created,
	};
	j->log = rl_job_new(js->prog, j->name, js->args.values, &ls, err);
	if (!j->log && (js->prog->flags & RT_PROG_USES_LOG)) {
		char *e = xasprintf("%s: %s", js->prog->name, *err);
		free(*err);
		*err = e;
		return -1;
	}
	return 0;
}

/*
 * Whether runs are split over the MPI ranks (drv_over_ranks): only when the
 * command says so, since a command may also use ranks for runs of their own
 * (ncsim calibrate runs a different simulation on each).
 */
static int over_ranks, rank_err_fd = -1;

void drv_over_ranks(int on, int err_fd)
{
	over_ranks = on;
	rank_err_fd = err_fd;
}

static int spread(void) { return over_ranks && par_size() > 1; }

/* A run over MPI ranks: what cannot run there yet is refused, the rest partitioned (drv_par.h). */
static int split(drv_sim *s, char **err)
{
	if (s->w->sto_make) {
		/* Local burst buffers, built now: every entity must exist before the split (the same ids as later). */
		if (!(s->sto = make_storage(s->sys, s->net, s->ctx, err)))
			return -1;
		s->w->sto = s->sto;
		s->w->sto_make = NULL;
	}
	trf_world_prepare(s->w); /* the traffic endpoints, created by the first traffic statement otherwise */
	return drvp_attach(s->w, stderr, err);
}

/* Network, storage, MPI parameters, collectives and task layer. 0, or -1 with *err. */
static int build(drv_sim *s, char **err)
{
	uint32_t need;
	s->ctx = sim_new(s->o.seed);
	if (min_nodes(s->sys, job_nodes(s), &need, err) < 0)
		return -1;
	s->net = netf_create_routed(s->ctx, s->sys, s->o.network, s->o.routing, need, err);
	if (!s->net)
		return -1;
	/*
	 * Node-local burst buffers occupy no node, and a run with many nodes
	 * would pay for one device per node before knowing whether the program
	 * does any I/O: that configuration is built on the first request.
	 */
	sto_config scfg;
	if (sto_config_load(s->sys, &scfg, err) < 0)
		return -1;
	int lazy = scfg.kind == STO_CFG_LOCAL;
	if (lazy) {
		/* Validate the device now (and mark its keys used), so a bad file fails before the run. */
		sto_dev_params dp;
		if (sto_dev_params_load(s->sys, scfg.device, &dp, err) < 0) {
			sto_config_fini(&scfg);
			return -1;
		}
	}
	sto_config_fini(&scfg);
	if (!lazy && !(s->sto = make_storage(s->sys, s->net, s->ctx, err)))
		return -1;
	mp_params mp;
	mp_params_default(&mp);
	double mem_bw = mp.mem_bw; /* rt_touch and the MPI copies share [node] memory_bandwidth */
	if (sysconf_bandwidth(s->sys, "node", "memory_bandwidth", &mem_bw, err) < 0)
		return -1;
	mp.mem_bw = mem_bw;
	if (mp_params_load(&mp, s->sys, err) < 0)
		return -1;
	if (netf_is_ideal(s->net))
		mp_params_free_costs(&mp);
	int compute_ids; /* read by placement (runtime/task/workload.c); checked here like every key */
	if (pl_alloc_ids_load(s->sys, &compute_ids, err) < 0)
		return -1;
	coll_ctx *coll = coll_ctx_new(s->sys, err);
	if (!coll)
		return -1;
	if (sysconf_check_unused(s->sys, err) < 0) {
		coll_ctx_free(coll);
		return -1;
	}
	s->w = task_world_new(s->ctx, s->net, &mp, mem_bw, s->o.stack_size, s->o.seed);
	s->w->sto = s->sto;
	if (lazy) {
		s->w->sto_make = storage_on_demand;
		s->w->sto_make_ctx = s;
	}
	s->w->coll = coll;
	s->w->out = s->o.output;
	if (check_task_memory(s, err) < 0)
		return -1;
	char uuid[40];
	make_uuid(s->o.seed, uuid);
	time_t created = time(NULL);
	/* One run: every rank's logs name rank 0's identifier and date. */
	par_bcast(uuid, sizeof uuid);
	par_bcast(&created, sizeof created);
	for (size_t i = 0; i < s->jobs.len; i++) {
		drv_jobspec *js = &s->jobs.ptr[i];
		uint64_t seed = js->args.seed_given ? js->args.seed : s->o.seed;
		uint32_t *nodes = place(s, js, err);
		if (!nodes)
			return -1;
		task_job *j = task_job_add(s->w, js->prog, js->name, js->ntasks, js->args.values, nodes, seed, err);
		free(nodes);
		if (!j)
			return -1;
		j->start = js->start;
		if (setup_logs(s, js, j, uuid, created, err) < 0)
			return -1;
	}
	if (spread() && split(s, err) < 0)
		return -1;
	if (s->o.message_log && s->o.out_dir && open_msg_log(s, err) < 0)
		return -1;
	if (s->o.io_log && s->o.out_dir) {
		if (s->w->par) {
			/* Every rank keeps its rows; rank 0 writes them all after the run (sto_par_io_merge). */
			s->io_keyed = 1;
			if (s->sto)
				sto_par_logs(s->sto, s->ctx, s->o.device_log_max);
			if (par_rank() != 0)
				return 0;
		}
		char *path = xasprintf("%s/io.csv", s->o.out_dir);
		char *busy = xasprintf("%s/device_busy.csv", s->o.out_dir);
		int rc = outfile_mkdir_p(s->o.out_dir, err);
		if (rc == 0 && (s->io_csv = outfile_open(path, 0, err)))
			s->busy_csv = outfile_open(busy, 0, err);
		free(path);
		free(busy);
		if (!s->busy_csv)
			return -1;
		if (s->sto) {
			sto_set_io_log(s->sto, outfile_stream(s->io_csv));
			sto_set_busy_log(s->sto, outfile_stream(s->busy_csv), s->o.device_log_max);
		}
	}
	return 0;
}

/* Abort epilogues for the logs of tasks that did not finish. */
static void close_logs(drv_sim *s, const char *why)
{
	for (size_t i = 0; i < s->w->all.len; i++) {
		rt_task *t = s->w->all.ptr[i];
		char *err = NULL;
		if (t->log && rl_close(t, why, &err) < 0) {
			fprintf(stderr, "ncsim: %s\n", err);
		}
		free(err);
	}
}

/* Commits a log file written during the run (or drops it when the run failed before it could be complete). */
static int finish_log(outfile *f, int keep, FILE *err)
{
	if (!keep) {
		outfile_abort(f);
		return 0;
	}
	char *e = NULL;
	if (outfile_commit(f, &e) < 0) {
		fprintf(err, "ncsim: %s\n", e);
		free(e);
		return -1;
	}
	return 0;
}

/* messages.csv: the MPI layer writes a row per message through s->w->msglog. */
static int open_msg_log(drv_sim *s, char **err)
{
	if (s->w->par) {
		/* Every rank keeps its rows; rank 0 writes them all after the run (tk_msglog_merge). */
		s->msglog = (tk_msglog){.max = s->o.message_log_max, .keyed = s->ctx};
		s->w->msglog = &s->msglog;
		s->msg_keyed = 1;
		if (par_rank() != 0)
			return 0;
	}
	char *path = xasprintf("%s/messages.csv", s->o.out_dir);
	if (outfile_mkdir_p(s->o.out_dir, err) == 0)
		s->msg_csv = outfile_open(path, 0, err);
	free(path);
	if (!s->msg_csv)
		return -1;
	s->msglog.out = outfile_stream(s->msg_csv);
	s->msglog.max = s->o.message_log_max;
	fprintf(s->msglog.out, "%s\n", TK_MSGLOG_HEADER);
	s->w->msglog = &s->msglog;
	return 0;
}

/* Commits messages.csv (bounded: says how many messages it left out) or drops it. */
static int finish_msg_log(drv_sim *s, int keep, FILE *err)
{
	if (s->msg_keyed) {
		s->msg_keyed = 0;
		pln_log_merge(&s->msglog);
	}
	if (!s->msg_csv)
		return 0;
	s->w->msglog = NULL;
	outfile *f = s->msg_csv;
	s->msg_csv = NULL;
	if (keep && s->msglog.dropped)
		fprintf(err, "ncsim: messages.csv holds the first %" PRIu64 " of %" PRIu64 " messages (--message-log-max)\n",
		        s->msglog.rows, s->msglog.rows + s->msglog.dropped);
	return finish_log(f, keep, err);
}

/* Commits device_busy.csv (bounded: says how many operations it left out) or drops it. */
static int finish_busy_log(drv_sim *s, int keep, FILE *err)
{
	if (!s->busy_csv)
		return 0;
	if (!s->sto) {
		fprintf(outfile_stream(s->busy_csv), "%s\n", STO_BUSYLOG_HEADER); /* no operation: the header alone */
	} else {
		const sto_busylog *l = sto_get_busy_log(s->sto);
		if (keep && l->dropped)
			fprintf(err, "ncsim: device_busy.csv holds the first %" PRIu64 " of %" PRIu64
			        " device operations (--device-log-max)\n", l->rows, l->rows + l->dropped);
		sto_set_busy_log(s->sto, NULL, 0);
	}
	outfile *f = s->busy_csv;
	s->busy_csv = NULL;
	return finish_log(f, keep, err);
}

/* Commits io.csv, device_busy.csv and messages.csv (or drops them when the run failed before they could be complete). */
static int finish_io_log(drv_sim *s, int keep, FILE *err)
{
	int bad = finish_msg_log(s, keep, err) < 0;
	if (s->io_keyed) {
		s->io_keyed = 0;
		sto_par_io_merge(s->sto, s->io_csv ? outfile_stream(s->io_csv) : NULL);
	}
	bad |= finish_busy_log(s, keep, err) < 0;
	if (!s->io_csv)
		return bad ? -1 : 0;
	if (s->sto)
		sto_set_io_log(s->sto, NULL);
	else
		fprintf(outfile_stream(s->io_csv), "%s\n", IO_CSV_HEADER); /* no request: the header alone */
	outfile *f = s->io_csv;
	s->io_csv = NULL;
	return finish_log(f, keep, err) < 0 || bad ? -1 : 0;
}

/* The run ended early on purpose (until, a signal): the logs of unfinished tasks say why. */
static int ended_early(drv_sim *s, const char *status, ncsim_time_t end, const char *why, FILE *err)
{
	s->end = end;
	char msg[160];
	snprintf(msg, sizeof msg, "The simulation %s at %.6f us before this task ended", why, (double)end / 1e6);
	close_logs(s, msg);
	int bad = finish_io_log(s, 1, err) < 0;
	s->status = bad ? "failed" : status;
	return bad;
}

static int run(drv_sim *s, FILE *err)
{
	char *msg = NULL;
	if (s->w || build(s, &msg) < 0) {
		fprintf(err, "ncsim: %s\n", msg ? msg : "drv_run called twice");
		free(msg);
		return -1;
	}
	sim_set_progress(s->ctx, (enum sim_progress)s->o.progress, 0);
	sim_set_interrupt(s->ctx, s->interrupt);
	int stopped = sim_run(s->ctx, s->o.until ? s->o.until : SIM_FOREVER) < 0;
	if (drvp_finish(s->w) < 0)
		stopped = 1;
	const sim_stats *st = sim_get_stats(s->ctx);
	for (size_t i = 0; i < s->w->all.len; i++) {
		const rt_task *t = s->w->all.ptr[i];
		s->end = t->tot.end > s->end ? t->tot.end : s->end;
	}
	/* A run that did not finish ends where it got to, not where its last finished task did (maybe 0). */
	ncsim_time_t reached = st->end_time > s->end ? st->end_time : s->end;
	const char *failed = NULL; /* why the run failed, for the task logs */
	if (stopped && !s->w->fatal) {
		/* A model stopped the run (kernel, storage): its report, not a misleading deadlock. */
		if (!(s->sto && sto_check(s->sto, err) < 0))
			fprintf(err, "ncsim: the simulation was stopped by an error at time %.6f us (see above)\n",
			        (double)reached / 1e6);
		failed = "The simulation was stopped by an error (see the report on stderr)";
	} else if (st->interrupted && !s->w->fatal) {
		return ended_early(s, "interrupted", reached,
		                   guard_interrupted() == SIGTERM ? "was stopped by SIGTERM" : "was interrupted (SIGINT)",
		                   err)
		           ? DRV_FAILED
		           : DRV_INTERRUPTED;
	} else if (task_world_check(s->w, st->stopped_at_until, err) != 0) {
		failed = s->w->fatal_msg ? s->w->fatal_msg
		                         : "The simulation ended with blocked tasks (deadlock; see the report on stderr)";
	}
	if (failed) {
		s->end = reached;
		close_logs(s, failed);
		finish_io_log(s, 0, err);
		s->status = "failed";
		return DRV_FAILED;
	}
	if (st->stopped_at_until) /* the clock got to the limit */
		return ended_early(s, "stopped", reached > s->o.until ? reached : s->o.until, "stopped at its time limit",
		                   err);
	int bad = finish_io_log(s, 1, err) < 0;
	if (s->net->ops->check && s->net->ops->check(s->net, err) < 0)
		bad = 1;
	/* Conservation: what clients wrote is what the devices stored, every request completed. */
	if (s->sto && sto_check(s->sto, err) < 0)
		bad = 1;
	if (s->w->par) /* every rank checks its own part: one that fails fails them all */
		bad = par_max_u64((uint64_t)bad) != 0;
	s->status = bad ? "failed" : "ok";
	return bad;
}

/*
 * After a jump out of a task (guard.h): a crash or the watchdog. The task
 * is failed like an rt_fatal; nothing of the run is trusted any more, so
 * there is no end-of-run check.
 */
static void remove_tree(const char *path);

static int escaped(drv_sim *s, int cause, FILE *err)
{
	rt_task *t = task_escape();
	char msg[200];
	if (cause == GUARD_WATCHDOG)
		snprintf(msg, sizeof msg, "the task ran for more than %g s of wall time without yielding to the "
		         "simulator (an endless loop?); --watchdog sets the limit", s->o.watchdog_s);
	else
		snprintf(msg, sizeof msg, "the task crashed: %s", guard_cause_text(cause));
	if (t)
		task_fail(t, msg);
	else
		fprintf(err, "ncsim: %s\n", msg);
	if (spread()) {
		/*
		 * This rank left its window mid-way and the others wait for it in
		 * the exchange: the message goes to the launcher's stream and the
		 * whole run ends here, with the sequential run's status.
		 */
		char *line = xasprintf("%s\n", s->w && s->w->fatal ? s->w->fatal : msg);
		if (rank_err_fd >= 0 && write(rank_err_fd, line, strlen(line)) < 0)
			line[0] = 0; /* nothing more to do: the run ends anyway */
		free(line);
		if (s->od && s->od->staging) /* rank 0's folder too: it is about to be killed mid-run */
			remove_tree(s->od->staging);
		par_abort(EXIT_INPUT);
	}
	s->status = "failed";
	s->end = sim_now(s->ctx);
	if (s->w)
		close_logs(s, s->w->fatal_msg ? s->w->fatal_msg : msg);
	finish_io_log(s, 0, err);
	return DRV_FAILED;
}

/* guard_opts.cleanup: a task called exit(); nothing of the run may stay behind. */
static void drop_outputs(void *ctx)
{
	drv_sim *s = ctx;
	if (s->od)
		drv_outdir_abort(s->od);
}

/* Writes one file of the folder through an atomic outfile. */
static int write_one(drv_sim *s, const char *dir, const char *name, int which, char **err)
{
	char *path = xasprintf("%s/%s", dir, name);
	outfile *f = outfile_open(path, 0, err);
	free(path);
	if (!f)
		return -1;
	int rc;
	if (which == 0) {
		rc = stat_tasks_csv(s->w, outfile_stream(f));
	} else if (which == 1) {
		rc = s->net->ops->write_links(s->net, outfile_stream(f));
	} else if (which == 3) {
		rc = sto_write_devices(s->sto, outfile_stream(f));
	} else if (which == 4) {
		rc = s->net->ops->write_links_by_class(s->net, outfile_stream(f));
	} else {
		const char **args = xcalloc(s->jobs.len + 1, sizeof *args);
		for (size_t i = 0; i < s->jobs.len; i++)
			args[i] = s->jobs.ptr[i].argline;
		stat_summary_in in = {
			.argc = s->o.argc, .argv = s->o.argv, .system = s->system_name, .network = s->net->ops->name,
			.seed = s->o.seed, .status = s->status, .with_wall = !s->o.no_wall_time,
			.stats = sim_get_stats(s->ctx), .end = s->end, .job_args = args,
		};
		rc = stat_summary_json(s->w, &in, outfile_stream(f));
		free(args);
	}
	if (rc < 0) {
		*err = xasprintf("%s: write error", outfile_path(f));
		outfile_abort(f);
		return -1;
	}
	return outfile_commit(f, err);
}

int drv_write(drv_sim *s, const char *dir, char **err)
{
	if (!s->w) {
		*err = xasprintf("nothing to write: the simulation has not run");
		return -1;
	}
	if (outfile_mkdir_p(dir, err) < 0 || write_one(s, dir, "tasks.csv", 0, err) < 0 ||
	    (s->net->ops->write_links && write_one(s, dir, "links.csv", 1, err) < 0) ||
	    (s->net->ops->write_links_by_class && write_one(s, dir, "links_by_class.csv", 4, err) < 0))
		return -1;
	/* Per-device totals, when the run did any I/O (a local burst buffer per node is many rows). */
	if (s->sto && sto_get_totals(s->sto)->submitted && write_one(s, dir, "storage.csv", 3, err) < 0)
		return -1;
	/* Last: a folder with summary.json is a complete one. */
	return write_one(s, dir, "summary.json", 2, err);
}

void drv_free(drv_sim *s)
{
	if (!s)
		return;
	outfile_abort(s->io_csv);
	outfile_abort(s->msg_csv);
	VEC_FREE(&s->msglog.kept.buf);
	if (s->w)
		drvp_free(s->w);
	task_world_free(s->w);
	sto_free(s->sto);
	net_destroy(s->net);
	sim_free(s->ctx);
	for (size_t i = 0; i < s->jobs.len; i++) {
		drv_jobspec *js = &s->jobs.ptr[i];
		prm_free(&js->args);
		free(js->name);
		free(js->argline);
		free(js->nodes);
	}
	VEC_FREE(&s->jobs);
	sysconf_free(s->sys);
	free(s->system_name);
	free(s->out_dir);
	free(s);
}

int drv_run(drv_sim *s, FILE *err)
{
	double t0 = sim_progress_clock();
	guard_opts g = {.watchdog_s = s->o.watchdog_s, .cleanup = drop_outputs, .cleanup_ctx = s};
	int rc;
	s->interrupt = guard_arm(&g);
	if (GUARD_CATCH() == 0)
		rc = run(s, err);
	else
		rc = escaped(s, guard_cause(), err);
	guard_disarm();
	s->interrupt = NULL;
	s->wall = sim_progress_clock() - t0;
	return rc;
}

const char *drv_status(const drv_sim *s) { return s->status; }
int drv_ran(const drv_sim *s) { return s->w && strcmp(s->status, "not run"); }

void drv_report(const drv_sim *s, FILE *out, const char *name, const char *label, const char *what,
                const char *dir)
{
	const sim_stats *st = drv_stats(s);
	char how[64];
	double end_us = (double)s->end / 1e6;
	if (!strcmp(s->status, "stopped"))
		snprintf(how, sizeof how, "stopped at %.6f us (--until)", end_us);
	else if (!strcmp(s->status, "interrupted"))
		snprintf(how, sizeof how, "interrupted at %.6f us", end_us);
	else
		snprintf(how, sizeof how, "%s", strcmp(s->status, "ok") ? "FAILED" : "done");
	fprintf(out,
	        "ncsim: %s: %s\n"
	        "  %-16s%s\n"
	        "  simulated time: %.6f us\n"
	        "  wall time:      %.3f s\n"
	        "  events:         %" PRIu64 "\n"
	        "  output folder:  %s\n",
	        name, how, label, what, end_us, s->wall, st ? st->events : 0, dir ? dir : "none (the run failed)");
}

double drv_wall_seconds(const drv_sim *s) { return s->wall; }
const sim_stats *drv_stats(const drv_sim *s) { return sim_get_stats(s->ctx); }
ncsim_time_t drv_end_time(const drv_sim *s) { return s->end; }
struct task_world *drv_world(drv_sim *s) { return s->w; }
const char *drv_network_model(const char *name)
{
	static const char *const names[][2] = {
		{"ideal", "ideal"}, {"analytic", "analytic"}, {"packet", "packet"}, {"dragonfly", "packet"}, {"hybrid", "hybrid"},
		{"flow", "flow"},
	};
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(name, names[i][0]))
			return names[i][1];
	return NULL;
}

const char *drv_network_name(const drv_sim *s) { return s->net ? s->net->ops->name : ""; }

/* ------------------------------------------------------------ output folder */

/* rm -rf path: symbolic links are removed, never followed. */
static void remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			char *p = xasprintf("%s/%s", path, e->d_name);
			remove_tree(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	remove(path);
}

/* The folder that holds path: "a/b" for "a/b/c", "." for "c" (heap). */
static char *parent_of(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n == 0 ? xstrdup(".") : xstrndup(path, n);
}

static int outdir_begin(drv_outdir *d, const char *out, int force, const char *label, char **err);

/* Rank 0's string s (or NULL) on every rank, as a heap copy; s is read on rank 0 only. */
static char *bcast_str(const char *s)
{
	uint64_t n = par_rank() == 0 && s ? strlen(s) + 1 : 0;
	par_bcast(&n, sizeof n);
	if (!n)
		return NULL;
	char *v = xmalloc(n);
	if (par_rank() == 0)
		memcpy(v, s, n);
	par_bcast(v, n);
	return v;
}

/*
 * In a run over MPI ranks one folder serves them all: rank 0 prepares it,
 * the others write their tasks' logs into it and leave it to rank 0.
 */
int drv_outdir_begin(drv_outdir *d, const char *out, int force, const char *label, char **err)
{
	if (!spread())
		return outdir_begin(d, out, force, label, err);
	*d = (drv_outdir){.force = force};
	int64_t rc = par_rank() == 0 ? outdir_begin(d, out, force, label, err) : 0;
	par_bcast(&rc, sizeof rc);
	char *e = bcast_str(rc < 0 ? *err : NULL), *path = bcast_str(d->path), *staging = bcast_str(d->staging);
	if (par_rank() == 0) {
		free(e);
		free(path);
		free(staging);
		return (int)rc;
	}
	*d = (drv_outdir){.path = path, .staging = staging, .force = force, .shared = 1};
	if (rc < 0)
		*err = e;
	else
		free(e);
	return (int)rc;
}

static int outdir_begin(drv_outdir *d, const char *out, int force, const char *label, char **err)
{
	*d = (drv_outdir){.force = force};
	struct stat st;
	if (out && lstat(out, &st) == 0 && !force) {
		*err = xasprintf("the output folder %s exists; --force replaces it", out);
		return -1;
	}
	d->path = out ? xstrdup(out) : outfile_default_dir("ncsim-out", label, time(NULL));
	char *parent = parent_of(d->path), *stem = xpath_stem(d->path, "");
	int rc = strcmp(parent, ".") ? outfile_mkdir_p(parent, err) : 0;
	if (rc == 0) {
		d->staging = xasprintf("%s/.ncsim-tmp-%s.XXXXXX", parent, stem);
		if (!mkdtemp(d->staging)) {
			*err = xasprintf("cannot write the output folder %s: %s", d->path, strerror(errno));
			free(d->staging);
			d->staging = NULL;
			rc = -1;
		}
	}
	free(parent);
	free(stem);
	if (rc < 0) {
		free(d->path);
		d->path = NULL;
	}
	return rc;
}

/* Renames the temporary folder onto the first free name of path, path-2, path-3, ... (default folders). */
static int commit_fresh(drv_outdir *d, char **err)
{
	struct stat st;
	for (unsigned n = 1; n < 10000; n++) {
		char *p = n == 1 ? xstrdup(d->path) : xasprintf("%s-%u", d->path, n);
		if (lstat(p, &st) == 0) {
			free(p);
			continue;
		}
		if (rename(d->staging, p) < 0) {
			*err = xasprintf("cannot create the output folder %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		free(d->path);
		d->path = p;
		return 0;
	}
	*err = xasprintf("%s: too many run folders with this name", d->path);
	return -1;
}

int drv_outdir_commit(drv_outdir *d, char **err)
{
	struct stat st;
	if (d->shared) { /* rank 0's folder: it commits it */
		free(d->staging);
		d->staging = NULL;
		return 0;
	}
	if (!d->staging) {
		*err = xasprintf("the output folder %s was removed", d->path ? d->path : "");
		return -1;
	}
	if (!d->force || lstat(d->path, &st) != 0) {
		if (commit_fresh(d, err) < 0)
			return -1;
	} else {
		/* --force: the old folder moves aside, the new one takes its name, then the old one goes. */
		char *old = xasprintf("%s.old", d->staging);
		int rc = rename(d->path, old) == 0 ? rename(d->staging, d->path) : -1;
		if (rc < 0)
			*err = xasprintf("cannot replace the output folder %s: %s", d->path, strerror(errno));
		remove_tree(old);
		free(old);
		if (rc < 0)
			return -1;
	}
	free(d->staging);
	d->staging = NULL;
	return 0;
}

void drv_outdir_abort(drv_outdir *d)
{
	if (!d->staging)
		return;
	if (d->shared) {
		free(d->staging);
		d->staging = NULL;
		return;
	}
	remove_tree(d->staging);
	free(d->staging);
	d->staging = NULL;
}

const char *drv_outdir_done(const drv_outdir *d, int status)
{
	return status == EXIT_OK || status == EXIT_INTERRUPTED ? d->path : NULL;
}

void drv_outdir_free(drv_outdir *d)
{
	drv_outdir_abort(d);
	free(d->path);
	d->path = NULL;
}

int drv_run_out(drv_sim *s, drv_outdir *d, FILE *msg)
{
	char *err = NULL;
	drv_set_out_dir(s, d->staging);
	s->od = d;
	int rc = drv_run(s, msg);
	s->od = NULL;
	if (spread()) {
		/* Every rank has closed its logs before rank 0 writes, commits or removes the folder; it alone writes. */
		(void)par_max_u64(0);
		if (par_rank() != 0 && rc >= 0 && rc != DRV_FAILED) {
			drv_outdir_commit(d, &err);
			return rc == DRV_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_OK;
		}
	}
	if (rc < 0 || rc == DRV_FAILED) {
		drv_outdir_abort(d);
		return EXIT_INPUT;
	}
	if (drv_write(s, d->staging, &err) < 0 || drv_outdir_commit(d, &err) < 0) {
		fprintf(msg, "ncsim: %s\n", err ? err : "cannot write the output folder");
		free(err);
		drv_outdir_abort(d);
		return EXIT_USAGE;
	}
	return rc == DRV_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_OK;
}

int drv_run_program(drv_sim *s, drv_outdir *d, const char *name, uint32_t ntasks)
{
	int rc = drv_run_out(s, d, stderr);
	if (rc == EXIT_OK)
		trf_stat_print(s->w, stdout); /* nothing if no traffic model ran */
	if (drv_ran(s)) {
		char *what = xasprintf("%" PRIu32 " on the %s network", ntasks, drv_network_name(s));
		drv_report(s, stderr, name, "tasks:", what, drv_outdir_done(d, rc));
		free(what);
	}
	return rc;
}

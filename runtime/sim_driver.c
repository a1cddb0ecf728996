/*
 * sim_driver.c - one simulation run (see sim_driver.h).
 */
#include "config.h"

#include "runtime/sim_driver.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/net/netfactory.h"
#include "runtime/params.h"
#include "runtime/stats/outfile.h"
#include "runtime/stats/summary.h"
#include "runtime/stats/tasks_csv.h"
#include "runtime/sysconf.h"
#include "runtime/task.h"

/*
 * The default machine: a 72-node dragonfly (9 groups of 4 routers with 2
 * nodes each, the shape of stdlib/systems/df-small.conf) with the MPI
 * software costs of the Omni-Path calibration. Jobs with more tasks than
 * nodes share nodes (rank i on node i mod 72).
 */
const char sd_default_system[] =
	"# ncsim built-in default system\n"
	"[network]\n"
	"model = dragonfly\n"
	"groups = 9\n"
	"routers_per_group = 4\n"
	"nodes_per_router = 2\n"
	"global_links_per_router = 2\n"
	"global_arrangement = relative\n"
	"local_bandwidth = 5.25 GiB/s\n"
	"global_bandwidth = 4.7 GiB/s\n"
	"terminal_bandwidth = 16 GiB/s\n"
	"local_latency = 10 ns\n"
	"global_latency = 100 ns\n"
	"terminal_latency = 10 ns\n"
	"router_delay = 100 ns\n"
	"packet_size = 4 KiB\n"
	"chunk_size = 64 B\n"
	"routing = minimal\n"
	"[node]\n"
	"memory_bandwidth = 11.20 GB/s\n";

typedef struct sd_jobspec {
	const rt_program *prog;
	char *name;
	uint32_t ntasks;
	prm_args args;
	char *argline;   /* options joined by blanks, for summary.json */
	uint32_t *nodes; /* copy, or NULL */
} sd_jobspec;

struct sd_sim {
	sd_options o;
	char *system_name;
	sysconf_t *sys;
	VEC(sd_jobspec) jobs;
	sim_ctx *ctx;
	net_model *net;
	tk_world *w;
	const char *status;
	ncsim_time_t end;
};

sd_sim *sd_new(const sd_options *o, char **err)
{
	sd_sim *s = xcalloc(1, sizeof *s);
	s->o = *o;
	if (o->system_text)
		s->sys = sysconf_parse("(system text)", o->system_text, err);
	else if (o->system_path)
		s->sys = sysconf_load(o->system_path, err);
	else
		s->sys = sysconf_parse("(built-in system)", sd_default_system, err);
	if (!s->sys) {
		free(s);
		return NULL;
	}
	s->system_name = xstrdup(o->system_text ? "(in memory)" : o->system_path ? o->system_path : "(built-in)");
	s->status = "not run";
	return s;
}

static char *join_args(int argc, char **argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *s = xcalloc(1, n);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int sd_add_job(sd_sim *s, const sd_job *j, char **err)
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
	sd_jobspec js = {.prog = j->prog, .name = xstrdup(j->name ? j->name : j->prog->name), .ntasks = j->ntasks};
	if (prm_parse(j->prog, j->argc, j->argv, &js.args, err) < 0) {
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

int sd_program_help(const rt_program *prog, int argc, char **argv, FILE *out)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?") || !strcmp(argv[i], "--usage")) {
			prm_help(prog, out);
			return 1;
		}
	}
	return 0;
}

/* Node count the network needs at least: every job's tasks, or its highest placed node. */
static uint32_t min_nodes(const sd_sim *s)
{
	uint64_t n = 0;
	for (size_t i = 0; i < s->jobs.len; i++) {
		const sd_jobspec *js = &s->jobs.ptr[i];
		uint64_t need = js->ntasks;
		for (uint32_t r = 0; js->nodes && r < js->ntasks; r++)
			if ((uint64_t)js->nodes[r] + 1 > need)
				need = (uint64_t)js->nodes[r] + 1;
		n = need > n ? need : n;
	}
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Network, MPI parameters and task layer. 0, or -1 with *err. */
static int build(sd_sim *s, char **err)
{
	s->ctx = sim_new(s->o.seed);
	s->net = netf_create(s->ctx, s->sys, s->o.network, min_nodes(s), err);
	if (!s->net)
		return -1;
	double mem_bw = 11.20e9;
	mp_params mp;
	mp_params_default(&mp);
	if (sysconf_bandwidth(s->sys, "node", "memory_bandwidth", &mem_bw, err) < 0)
		return -1;
	mp.mem_bw = mem_bw;
	if (mp_params_load(&mp, s->sys, err) < 0)
		return -1;
	if (netf_is_ideal(s->net))
		mp_params_free_costs(&mp);
	sysconf_unused(s->sys, stderr);
	s->w = tk_world_new(s->ctx, s->net, &mp, mem_bw, s->o.stack_size, s->o.seed);
	for (size_t i = 0; i < s->jobs.len; i++) {
		sd_jobspec *js = &s->jobs.ptr[i];
		uint64_t seed = js->args.seed_given ? js->args.seed : s->o.seed;
		if (!tk_job_add(s->w, js->prog, js->name, js->ntasks, js->args.values, js->nodes, seed, err))
			return -1;
	}
	return 0;
}

int sd_run(sd_sim *s, FILE *err)
{
	char *msg = NULL;
	if (s->w || build(s, &msg) < 0) {
		fprintf(err, "ncsim: %s\n", msg ? msg : "sd_run called twice");
		free(msg);
		return -1;
	}
	sim_set_progress(s->ctx, (enum sim_progress)s->o.progress, 0);
	sim_run(s->ctx, s->o.until ? s->o.until : SIM_FOREVER);
	const sim_stats *st = sim_get_stats(s->ctx);
	for (size_t i = 0; i < s->w->all.len; i++) {
		const rt_task *t = s->w->all.ptr[i];
		s->end = t->tot.end > s->end ? t->tot.end : s->end;
	}
	if (tk_world_check(s->w, st->stopped_at_until, err) != 0) {
		s->status = "failed";
		return 1;
	}
	if (st->stopped_at_until) {
		s->status = "stopped";
		return 0;
	}
	if (s->net->ops->check && s->net->ops->check(s->net, err) < 0) {
		s->status = "failed";
		return 1;
	}
	s->status = "ok";
	return 0;
}

/* Writes one file of the folder through an atomic outfile. */
static int write_one(sd_sim *s, const char *dir, const char *name, int which, char **err)
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

int sd_write(sd_sim *s, const char *dir, char **err)
{
	if (!s->w) {
		*err = xasprintf("nothing to write: the simulation has not run");
		return -1;
	}
	if (outfile_mkdir_p(dir, err) < 0 || write_one(s, dir, "tasks.csv", 0, err) < 0 ||
	    (s->net->ops->write_links && write_one(s, dir, "links.csv", 1, err) < 0))
		return -1;
	/* Last: a folder with summary.json is a complete one. */
	return write_one(s, dir, "summary.json", 2, err);
}

void sd_free(sd_sim *s)
{
	if (!s)
		return;
	tk_world_free(s->w);
	net_destroy(s->net);
	sim_free(s->ctx);
	for (size_t i = 0; i < s->jobs.len; i++) {
		sd_jobspec *js = &s->jobs.ptr[i];
		prm_free(&js->args);
		free(js->name);
		free(js->argline);
		free(js->nodes);
	}
	VEC_FREE(&s->jobs);
	sysconf_free(s->sys);
	free(s->system_name);
	free(s);
}

const sim_stats *sd_stats(const sd_sim *s) { return sim_get_stats(s->ctx); }
ncsim_time_t sd_end_time(const sd_sim *s) { return s->end; }
struct tk_world *sd_world(sd_sim *s) { return s->w; }
const char *sd_network_name(const sd_sim *s) { return s->net ? s->net->ops->name : ""; }

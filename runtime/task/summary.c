/*
 * summary.c - summary.json writer (see summary.h).
 */
#include "config.h"

#include "runtime/task/summary.h"

#include "runtime/stats/json.h"
#include "runtime/storage/storage.h"
#include "runtime/task/latency.h"
#include "runtime/task/task.h"
#include "runtime/traffic/stats.h"

static void job_totals(json_writer *j, const task_job *job, const char *args)
{
	task_totals sum = {0};
	for (uint32_t r = 0; r < job->ntasks; r++) {
		const task_totals *x = &job->tasks[r]->tot;
		for (int c = 0; c < TK_NTIMES; c++)
			sum.t[c] += x->t[c];
		sum.mpi_total += x->mpi_total;
		sum.end = x->end > sum.end ? x->end : sum.end;
		sum.bytes_sent += x->bytes_sent;
		sum.msgs_sent += x->msgs_sent;
		sum.io_read += x->io_read;
		sum.io_written += x->io_written;
		sum.io_ops += x->io_ops;
		sum.io_active += x->io_active;
	}
	json_object_begin(j);
	json_kv_string(j, "name", job->name);
	json_kv_string(j, "program", job->prog->name);
	json_kv_uint(j, "tasks", job->ntasks);
	json_kv_string(j, "args", args ? args : "");
	json_kv_uint(j, "end_ps", sum.end);
	json_kv_uint(j, "compute_ps", sum.t[TK_T_COMPUTE]);
	json_kv_uint(j, "sleep_ps", sum.t[TK_T_SLEEP]);
	json_kv_uint(j, "io_ps", sum.t[TK_T_IO]);
	json_kv_uint(j, "mpi_ps", sum.mpi_total);
	json_kv_uint(j, "mpi_network_ps", sum.t[TK_T_MPI_NET]);
	json_kv_uint(j, "mpi_sync_ps", sum.t[TK_T_MPI_SYNC]);
	json_kv_uint(j, "mpi_stack_ps", sum.t[TK_T_MPI_STACK]);
	json_kv_uint(j, "bytes_sent", sum.bytes_sent);
	json_kv_uint(j, "msgs_sent", sum.msgs_sent);
	json_kv_uint(j, "io_requests", sum.io_ops);
	json_kv_uint(j, "io_bytes_read", sum.io_read);
	json_kv_uint(j, "io_bytes_written", sum.io_written);
	json_kv_uint(j, "io_active_ps", sum.io_active);
	json_key(j, "latency_ps");
	json_object_begin(j);
	for (int c = 0; c < TK_NLAT; c++) {
		json_key(j, tk_lat_name((enum tk_lat_class)c));
		tk_lat_json(j, &job->lat[c]);
	}
	json_object_end(j);
	json_object_end(j);
}

/* "storage": the storage subsystem's totals, when the run did any I/O (as storage.csv). */
static void write_storage_totals(json_writer *j, const struct sto_system *sto)
{
	const sto_totals *x = sto ? sto_get_totals(sto) : NULL;
	if (!x || !x->submitted)
		return;
	json_key(j, "storage");
	json_object_begin(j);
	json_kv_uint(j, "requests_submitted", x->submitted);
	json_kv_uint(j, "requests_completed", x->completed);
	json_kv_uint(j, "requests_failed", x->failed);
	json_kv_uint(j, "reads", x->reads);
	json_kv_uint(j, "writes", x->writes);
	json_kv_uint(j, "bytes_read", x->bytes_read);
	json_kv_uint(j, "bytes_written", x->bytes_written);
	json_kv_uint(j, "bytes_stored", x->bytes_stored);
	json_kv_uint(j, "bytes_drained", x->bytes_drained);
	json_kv_uint(j, "network_msgs", x->net_msgs);
	json_kv_uint(j, "network_bytes", x->net_bytes);
	json_kv_uint(j, "space_waits", x->space_waits);
	json_object_end(j);
}

static void write_net_totals(json_writer *j, const net_model *m)
{
	json_key(j, "network_totals");
	json_object_begin(j);
	for (int c = 0; c < NET_NCLASSES; c++) {
		if (!m->totals.msgs_injected[c])
			continue;
		json_key(j, net_class_name((enum net_class)c));
		json_object_begin(j);
		json_kv_uint(j, "msgs", m->totals.msgs_injected[c]);
		json_kv_uint(j, "bytes", m->totals.bytes_injected[c]);
		json_object_end(j);
	}
	json_object_end(j);
}

int stat_summary_json(const struct task_world *w, const stat_summary_in *in, FILE *f)
{
	json_writer j;
	json_init(&j, f, 1);
	json_object_begin(&j);
	json_kv_string(&j, "ncsim_version", PACKAGE_VERSION);
	/* The layout's version, for readers of old runs (ncsim report): raised when a key changes meaning or goes. */
	json_kv_uint(&j, "schema", STAT_SUMMARY_SCHEMA);
	json_key(&j, "command_line");
	json_array_begin(&j);
	for (int i = 0; i < in->argc; i++)
		json_string(&j, in->argv[i]);
	json_array_end(&j);
	json_kv_string(&j, "system", in->system);
	json_kv_string(&j, "network", in->network);
	json_kv_uint(&j, "seed", in->seed);
	json_kv_string(&j, "status", in->status);
	if (in->with_wall)
		json_kv_double(&j, "wall_seconds", in->stats->wall_seconds);
	json_kv_uint(&j, "events", in->stats->events);
	json_kv_uint(&j, "sim_end_ps", in->end);
	json_key(&j, "jobs");
	json_array_begin(&j);
	for (size_t i = 0; i < w->jobs.len; i++)
		job_totals(&j, w->jobs.ptr[i], in->job_args ? in->job_args[i] : NULL);
	json_array_end(&j);
	write_net_totals(&j, w->net);
	write_storage_totals(&j, w->sto);
	trf_stat_json(w, &j); /* "traffic": {...}, only if traffic ran */
	json_object_end(&j);
	fputc('\n', f);
	return json_finish(&j);
}

/*
 * tasks_csv.c - per-task totals as CSV (see tasks_csv.h).
 */
#include "runtime/task/tasks_csv.h"

#include "runtime/stats/csv.h"
#include "runtime/task/task.h"

static const char *const header[] = {
	"job", "rank", "task", "node", "end_ps", "compute_ps", "sleep_ps", "io_ps", "mpi_ps", "mpi_network_ps",
	"mpi_sync_ps", "mpi_stack_ps", "bytes_sent", "msgs_sent", "bytes_received", "msgs_received",
	"io_bytes_read", "io_bytes_written", "io_active_ps",
};

static void row(csv_writer *c, const task_job *j, const rt_task *t)
{
	const task_totals *x = &t->tot;
	csv_str(c, j->name);
	csv_uint(c, t->rank);
	csv_int(c, task_virt(t, t->rank));
	csv_uint(c, t->node);
	csv_uint(c, x->end);
	csv_uint(c, x->t[TK_T_COMPUTE]);
	csv_uint(c, x->t[TK_T_SLEEP]);
	csv_uint(c, x->t[TK_T_IO]);
	csv_uint(c, x->mpi_total);
	csv_uint(c, x->t[TK_T_MPI_NET]);
	csv_uint(c, x->t[TK_T_MPI_SYNC]);
	csv_uint(c, x->t[TK_T_MPI_STACK]);
	csv_uint(c, x->bytes_sent);
	csv_uint(c, x->msgs_sent);
	csv_uint(c, x->bytes_recv);
	csv_uint(c, x->msgs_recv);
	csv_uint(c, x->io_read);
	csv_uint(c, x->io_written);
	csv_uint(c, x->io_active);
	csv_end_row(c);
}

int stat_tasks_csv(const struct task_world *w, FILE *f)
{
	csv_writer c;
	csv_init(&c, f);
	csv_row(&c, header, sizeof header / sizeof header[0]);
	for (size_t i = 0; i < w->jobs.len; i++) {
		const task_job *j = w->jobs.ptr[i];
		for (uint32_t r = 0; r < j->ntasks; r++)
			row(&c, j, j->tasks[r]);
	}
	return csv_finish(&c);
}

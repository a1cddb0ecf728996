# runtime/task/local.mk: the task runtime (coroutines, the skeleton API, the run
# driver), with the MPI layer (runtime/mpi/) and the I/O client (runtime/io/).
ncsiminclude_HEADERS += include/ncsim/rt.h

# Tasks: coroutines, the task entity, counters, compute, point to point, the
# MPI protocol layer, deadlock reports, program options, the run driver and its
# guard (signals, crashes, the watchdog), log files and OUTPUTS, random numbers,
# the I/O client.
noinst_HEADERS += runtime/task/coro.h runtime/task/task.h runtime/task/counters.h runtime/mpi/mpi_proto.h runtime/mpi/mpi_par.h runtime/mpi/match.h runtime/mpi/p2p.h \
	runtime/task/deadlock.h runtime/task/params.h runtime/task/driver.h runtime/task/drv_par.h runtime/task/options.h runtime/task/guard.h \
	runtime/task/tasks_csv.h runtime/task/summary.h runtime/task/latency.h runtime/task/msglog.h runtime/task/rt_log.h runtime/task/rt_random.h runtime/io/io_client.h
libncsim_la_SOURCES += runtime/task/coro.c runtime/task/task.c runtime/task/counters.c runtime/task/compute.c runtime/mpi/p2p.c \
	runtime/mpi/mpi_proto.c runtime/mpi/mpi_par.c runtime/mpi/match.c runtime/task/deadlock.c runtime/task/params.c runtime/task/driver.c runtime/task/drv_par.c runtime/task/rt_main.c \
	runtime/task/options.c runtime/task/guard.c \
	runtime/task/tasks_csv.c runtime/task/summary.c runtime/task/latency.c runtime/task/msglog.c runtime/task/rt_log.c runtime/task/rt_random.c runtime/io/io_client.c

# Unit tests of the task runtime (tests/unit/rt_testlib runs small programs on a given system).
check_PROGRAMS += tests/unit/test_coro tests/unit/test_p2p tests/unit/test_mpi_proto tests/unit/test_deadlock
TESTS += tests/unit/test_coro tests/unit/test_p2p tests/unit/test_mpi_proto tests/unit/test_deadlock
# Messages between two tasks of one node ([node] shm_latency, shm_bandwidth in runtime/mpi/mpi_proto.c).
check_PROGRAMS += tests/unit/test_shm
TESTS += tests/unit/test_shm
check_PROGRAMS += tests/unit/test_mpi_eager
TESTS += tests/unit/test_mpi_eager
# The matching queues of the MPI layer (runtime/mpi/match.h): MPI's order rules, wildcards, long queues.
check_PROGRAMS += tests/unit/test_mp_match
TESTS += tests/unit/test_mp_match

# The command-line options of every command (runtime/task/options.h): the time
# parser and the table's checks; tests/e2e/options-matrix.sh runs them end to end.
check_PROGRAMS += tests/unit/test_options
TESTS += tests/unit/test_options tests/e2e/options-matrix.sh

check_PROGRAMS += tests/unit/test_rtlog tests/unit/test_io
TESTS += tests/unit/test_rtlog tests/unit/test_io

# bench/tasks100k.sh: 100,000 tasks doing compute + barrier steps.
noinst_PROGRAMS += bench/tasks100k
bench_tasks100k_SOURCES = bench/tasks100k.c
bench_tasks100k_LDADD = libncsim.la -lm
bench_tasks100k_LDFLAGS = $(AM_LDFLAGS) -no-install

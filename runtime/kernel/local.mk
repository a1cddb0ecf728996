# runtime/kernel/local.mk: file lists of this module (see Makefile.am)
noinst_HEADERS += runtime/kernel/sim.h runtime/kernel/pqueue.h runtime/kernel/rng.h \
	runtime/kernel/progress.h runtime/kernel/phold.h runtime/kernel/par.h runtime/kernel/par_mirror.h runtime/kernel/par_lines.h
libncsim_la_SOURCES += runtime/kernel/sim.c runtime/kernel/pqueue.c runtime/kernel/rng.c \
	runtime/kernel/progress.c runtime/kernel/phold.c runtime/kernel/par.c runtime/kernel/par_mirror.c runtime/kernel/par_lines.c

# The parallel kernel (par.c) speaks MPI when configure found Open MPI (--with-mpi).
if WITH_MPI
libncsim_la_CFLAGS += $(MPI_CFLAGS)
libncsim_la_LIBADD += $(MPI_LIBS)
endif

# The kernel benchmark (bench/phold.sh runs it).
noinst_PROGRAMS += bench/phold_bench
bench_phold_bench_SOURCES = bench/phold.c
bench_phold_bench_LDADD = libncsim.la -lm
bench_phold_bench_LDFLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += tests/unit/test_pqueue tests/unit/test_kernel
TESTS += tests/unit/test_pqueue tests/unit/test_kernel

# The parallel kernel keeps the sequential order (tests/par/phold.sh, skipped without MPI).
check_PROGRAMS += tests/par/par_phold
tests_par_par_phold_LDADD = libncsim.la -lm
tests_par_par_phold_LDFLAGS = $(AM_LDFLAGS) -no-install
TESTS += tests/par/phold.sh
EXTRA_DIST += tests/par/phold.sh tests/par/lib.sh
# The kernel calls the parallel dragonfly relies on: reserved numbers, the firing key, split windows.
check_PROGRAMS += tests/par/test_par_keys
TESTS += tests/par/test_par_keys
# ncsim netbench under mpirun: one rank is the sequential run, several print the partition.
TESTS += tests/par/netbench.sh
EXTRA_DIST += tests/par/netbench.sh
# ncsim run under mpirun: programs over 1 to 4 ranks give the sequential run's outputs; failures, refusals.
TESTS += tests/par/run.sh tests/par/corpus.sh
EXTRA_DIST += tests/par/run.sh tests/par/corpus.sh

# runtime/kernel/local.mk: file lists of this module (see Makefile.am)
noinst_HEADERS += runtime/kernel/sim.h runtime/kernel/pqueue.h runtime/kernel/rng.h \
	runtime/kernel/progress.h runtime/kernel/phold.h
libncsim_la_SOURCES += runtime/kernel/sim.c runtime/kernel/pqueue.c runtime/kernel/rng.c \
	runtime/kernel/progress.c runtime/kernel/phold.c

# The kernel benchmark (bench/phold.sh runs it).
noinst_PROGRAMS += bench/phold_bench
bench_phold_bench_SOURCES = bench/phold.c
bench_phold_bench_LDADD = libncsim.la -lm
bench_phold_bench_LDFLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += tests/unit/test_pqueue tests/unit/test_kernel
TESTS += tests/unit/test_pqueue tests/unit/test_kernel


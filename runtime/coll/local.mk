# runtime/coll/local.mk: file lists of this module (see Makefile.am)
# Collectives over task groups (runtime/coll/*.c), the Union-compatible API
# (include/ncsim/union.h, runtime/mpi/union.c) and the Cosmoflow examples.
noinst_HEADERS += runtime/coll/coll.h runtime/coll/algo.h
ncsiminclude_HEADERS += include/ncsim/union.h
libncsim_la_SOURCES += runtime/coll/config.c runtime/coll/select.c runtime/coll/util.c \
	runtime/coll/tree.c runtime/coll/halving.c runtime/coll/barrier.c runtime/coll/bcast.c \
	runtime/coll/reduce.c runtime/coll/allreduce.c runtime/coll/allgather.c runtime/coll/redscat.c \
	runtime/coll/alltoall.c runtime/coll/gather.c runtime/mpi/union.c

# test_coll: traffic of every algorithm; test_coll_time: times on the analytic
# network; test_coll_select: the selectors' decisions at every threshold.
check_PROGRAMS += tests/unit/test_coll tests/unit/test_coll_time tests/unit/test_coll_select
TESTS += tests/unit/test_coll tests/unit/test_coll_time tests/unit/test_coll_select
noinst_HEADERS += tests/unit/coll_prog.h
tests_unit_test_coll_SOURCES = tests/unit/test_coll.c tests/unit/coll_prog.c
tests_unit_test_coll_time_SOURCES = tests/unit/test_coll_time.c tests/unit/coll_prog.c

# The Cosmoflow-like skeleton written against ncsim/rt.h and against the Union
# API; tests/e2e/cosmoflow_same.sh checks that both give the same, closed-form time.
check_PROGRAMS += examples/cosmoflow/cosmoflow_native examples/cosmoflow/cosmoflow_union
examples_cosmoflow_cosmoflow_native_SOURCES = examples/cosmoflow/cosmoflow_native.c
examples_cosmoflow_cosmoflow_native_LDADD = libncsim.la -lm
examples_cosmoflow_cosmoflow_native_LDFLAGS = $(AM_LDFLAGS) -no-install
examples_cosmoflow_cosmoflow_union_SOURCES = examples/cosmoflow/cosmoflow_union.c
examples_cosmoflow_cosmoflow_union_LDADD = libncsim.la -lm
examples_cosmoflow_cosmoflow_union_LDFLAGS = $(AM_LDFLAGS) -no-install
TESTS += tests/e2e/cosmoflow_same.sh

# runtime/coll.mk: file lists of this module (see Makefile.am)
# Collectives over task groups (runtime/coll*.c), the Union-compatible API
# (include/ncsim/union.h, runtime/union.c) and the Cosmoflow examples.
noinst_HEADERS += runtime/coll.h
libncsim_la_SOURCES += runtime/coll_config.c runtime/coll_util.c runtime/coll_barrier.c \
	runtime/coll_bcast.c runtime/coll_reduce.c runtime/coll_allreduce.c \
	runtime/coll_alltoall.c runtime/coll_gather.c

# runtime/: the task runtime (coroutines, skeleton API, MPI layer, I/O client).
nobase_include_HEADERS += include/ncsim/rt.h
noinst_HEADERS += runtime/util.h
libncsim_la_SOURCES += runtime/util.c

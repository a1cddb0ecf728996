# compiler/workload.mk: workload files (.wkld), placement, system presets by name.

# Placement of tasks on compute nodes (runtime library: no compiler dependency).
noinst_HEADERS += runtime/task/placement.h
libncsim_la_SOURCES += runtime/task/placement.c

# Workload files, skeleton/system lookup, the multi-job run path of `ncsim run`.
noinst_HEADERS += runtime/task/workload.h
libncsim_la_SOURCES += runtime/task/workload.c
libncsimfe_la_SOURCES += compiler/cli/cmd_run_workload.c

# Bundled skeletons and system presets, installed under $(pkgdatadir)/stdlib/.
nobase_dist_pkgdata_DATA += \
	stdlib/workloads/cosmoflow.ncptl stdlib/workloads/checkpoint.ncptl \
	stdlib/workloads/milc.ncptl stdlib/workloads/nekbone.ncptl \
	stdlib/workloads/osu-latency.ncptl stdlib/workloads/osu-bw.ncptl \
	stdlib/workloads/osu-bibw.ncptl stdlib/workloads/osu-allreduce.ncptl \
	stdlib/workloads/osu-alltoall.ncptl stdlib/workloads/osu-bcast.ncptl \
	stdlib/workloads/allreduce.ncptl stdlib/workloads/alltoall.ncptl \
	stdlib/workloads/halo3d.ncptl stdlib/workloads/incast.ncptl \
	stdlib/workloads/uniform-random.ncptl \
	stdlib/systems/theta-1056.conf stdlib/systems/df-tiny.conf

check_PROGRAMS += tests/unit/test_placement tests/unit/test_workload
TESTS += tests/unit/test_placement tests/unit/test_workload tests/e2e/skeleton_volumes.sh

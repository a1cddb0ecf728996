#!/bin/sh
# storage.sh - device-level validation of the storage presets: sequential
# 512 KiB records over a 512 MiB file and random 4 KiB pages, on each preset,
# printed next to the published measurements with the % deviation. Fails if a
# figure is more than 10% off.
#
# Environment: NCSIM_BUILDDIR (default .), STORAGE_BENCH_ARGS (extra options).
set -e
builddir=${NCSIM_BUILDDIR:-.}
bin=$builddir/bench/storage_bench
if [ ! -x "$bin" ]; then
	make -C "$builddir" bench/storage_bench >/dev/null
fi
# shellcheck disable=SC2086
"$bin" $STORAGE_BENCH_ARGS

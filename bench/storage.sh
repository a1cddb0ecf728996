#!/bin/sh
# storage.sh - device-level validation of the storage presets: sequential
# 512 KiB records over a 512 MiB file and random 4 KiB pages, on each preset,
# printed next to the published measurements with the % deviation. Target:
# every figure within 10% of the published one (MET or MISSED per row; the
# bench exits 1 if any is missed).
#
# Environment: NCSIM_BUILDDIR (default .), STORAGE_BENCH_ARGS (extra options).
set -e
. "$(dirname "$0")/lib/verdict.sh"
builddir=${NCSIM_BUILDDIR:-.}
bin=$builddir/bench/storage_bench
if [ ! -x "$bin" ]; then
	make -C "$builddir" bench/storage_bench >/dev/null
fi
out=$(mktemp "${TMPDIR:-/tmp}/storage.XXXXXX")
trap 'rm -f "$out"' EXIT
rc=0
# shellcheck disable=SC2086
"$bin" $STORAGE_BENCH_ARGS >"$out" || rc=$?
# storage_bench's own verdict per row (ok / OUT OF TOLERANCE) in this file's words.
sed 's/  ok$/  MET/; s/  OUT OF TOLERANCE$/  MISSED/' "$out"
rows=$(grep -c ' target ' "$out" || :)
missed=$(grep -c 'OUT OF TOLERANCE$' "$out" || :)
bench_target "figures compared" "$rows" ">=" 1
bench_target "figures more than 10% off" "$missed" "==" 0
bench_target "storage_bench exit status" "$rc" "==" 0
bench_end storage

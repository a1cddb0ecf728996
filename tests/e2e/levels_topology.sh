#!/bin/sh
# levels_topology.sh - storage and placement see the dragonfly's groups at
# every level: packet, flow, hybrid with any halves, and the analytic level,
# which simulates no links but takes the groups from the system file.
#
# 128 tasks on theta-1056 each read 2 MiB. The burst buffers that serve a
# task are chosen by its group, so the per-device reads and bytes of
# storage.csv depend on whether the level knows the groups. Checked:
#   1. storage.csv's per-device reads and bytes are the same at the flow level,
#      the packet level, a hybrid of analytic and flow halves and the
#      analytic level (66 burst buffers, 2 per group, at each);
#   2. they differ on the same machine with 1 burst buffer per group, so
#      check 1 can fail;
#   3. the flow level's simulated time is within 5% of the packet level's:
#      the reads are bandwidth-bound by the devices, not by the network.
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/levelstopo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CACHE_HOME="$tmp/cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat >"$tmp/rd.ncptl" <<'EOT'
Require language version "1.5".
all tasks open file 1 for reading then
all tasks read 2097152 bytes from file 1 then
all tasks close file 1
EOT
sed 's/^model = dragonfly/&\nhybrid_small = analytic\nhybrid_large = flow/' "$src/stdlib/systems/theta-1056.conf" >"$tmp/hy.conf"
sed 's/^bb_per_group = 2 /bb_per_group = 1 /' "$src/stdlib/systems/theta-1056.conf" >"$tmp/bb1.conf"

# run NAME SYSTEM NETWORK: the per-device columns of storage.csv in $tmp/NAME.dev, the simulated time (us) on stdout.
run() {
	"$NCSIM" run "$tmp/rd.ncptl" -n 128 --system "$2" --network "$3" --no-progress --out "$tmp/$1" >"$tmp/$1.log" 2>&1 ||
		{ cat "$tmp/$1.log"; return 1; }
	cut -d, -f1-8 "$tmp/$1/storage.csv" >"$tmp/$1.dev"
	sed -n 's/^ *simulated time: *\([0-9.]*\) us.*/\1/p' "$tmp/$1.log"
}
theta=$src/stdlib/systems/theta-1056.conf
tp=$(run packet "$theta" packet) || exit 1
tf=$(run flow "$theta" flow) || exit 1
run hybrid "$tmp/hy.conf" hybrid >/dev/null || exit 1
run analytic "$theta" analytic >/dev/null || exit 1
run bb1 "$tmp/bb1.conf" analytic >/dev/null || exit 1

cmp -s "$tmp/packet.dev" "$tmp/flow.dev" || fail "storage.csv differs between the packet and the flow level"
cmp -s "$tmp/packet.dev" "$tmp/hybrid.dev" || fail "storage.csv differs between the packet level and the analytic+flow hybrid"
cmp -s "$tmp/packet.dev" "$tmp/analytic.dev" || fail "storage.csv differs between the packet and the analytic level"
[ "$(wc -l <"$tmp/analytic.dev")" -eq 67 ] || fail "the analytic level has $(($(wc -l <"$tmp/analytic.dev") - 1)) storage devices, expected 66"
cmp -s "$tmp/analytic.dev" "$tmp/bb1.dev" && fail "1 burst buffer per group placed the reads as 2 per group did"
awk -v p="$tp" -v f="$tf" 'BEGIN { d = (f - p) / p; exit !(d < 0.05 && d > -0.05) }' ||
	fail "flow level $tf us against packet level $tp us (more than 5% apart)"
echo "packet $tp us, flow $tf us"
exit $((fails > 0))

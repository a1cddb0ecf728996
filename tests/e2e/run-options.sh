#!/bin/sh
# tests/e2e/run-options.sh - options and outputs of `ncsim run` (single
# programs, C skeletons and workload files) that the other e2e tests do not
# cover:
#
#   A. --help of both forms lists --io-log, --routing and the hybrid network
#   B. input errors (unknown model or routing, a routing on a network without
#      one) exit with 2 or 1 and leave no output folder behind
#   C. --routing reaches the dragonfly: on the built-in machine (9 groups; the
#      first node of each group is a burst buffer, so task 7 of 8 sits in
#      group 1), a 100 kB ping-pong between tasks 0 and 7 takes the same time
#      with `--routing minimal` as with the system file's routing (minimal),
#      another with nonminimal routing; --network hybrid and dragonfly run
#   D. --io-log: io.csv has one row per request, and its rows add up to the
#      storage totals of summary.json
#   E. summary.json's I/O totals: per job io_bytes_written / io_requests, and
#      "storage" with bytes_written = bytes_stored = the jobs' sum, for one
#      program and for a two-job workload (with --io-log)
#   F. a failed run reports the simulated time it reached (an rt_fatal at
#      3 us, when no task has finished) on stderr and leaves no folder, and a
#      run stopped by --until its limit
#   G. C skeletons: compiler messages name the .c file, a file without
#      NCSIM_SKELETON gets a hint, a .c job runs in a workload file with
#      --allow-backend-code and is refused without it
#
# Usage: run-options.sh   (NCSIM names the binary, NCSIM_SRCDIR the source tree)
# Exit status: 0 if every check passed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/check.sh"
cd "$work" || exit 1

# Flattened summary.json of folder $1 (no blanks), for grep -o.
flat() { tr -d ' \t\n' < "$1/summary.json"; }
# Value of the first integer key $2 in summary.json of folder $1 (after the optional section marker $3).
jval() {
	flat "$1" | sed -n "s/.*${3:-}[^}]*\"$2\":\([0-9]*\).*/\1/p"
}
# Sum of all integer keys $2 in summary.json of folder $1.
jsum() {
	flat "$1" | grep -o "\"$2\":[0-9]*" | awk -F: '{ s += $2 } END { printf "%d\n", s }'
}
# ncsim run with its output in $work/NAME.{stdout,stderr,rc}: nrun NAME ARGS...
nrun() {
	n_name=$1
	shift
	"$ncsim" run "$@" > "$work/$n_name.stdout" 2> "$work/$n_name.stderr"
	echo $? > "$work/$n_name.rc"
}
rc_of() { cat "$work/$1.rc"; }

cat > far.ncptl <<'EOF'
Require language version "1.5".
task 0 sends a 100000 byte message to task num_tasks-1 then
task num_tasks-1 sends a 100000 byte message to task 0
EOF
cat > iowrite.ncptl <<'EOF'
Require language version "1.5".
volume is "Bytes each task writes" and comes from "--bytes" or "-b" with default 1000.
all tasks open file 1 for writing then
all tasks t write volume bytes to file 1 at offset t*volume bytes then
all tasks write volume bytes to file 1 then
all tasks close file 1
EOF
cat > fatal.ncptl <<'EOF'
Require language version "1.5".
all tasks open file 2 for writing then
all tasks close file 2 then
task 0 computes for 3 microseconds then
task 1 computes for 5 microseconds then
task 0 closes file 2
EOF

echo "== A. help"
"$ncsim" run --help > help.txt 2>&1
check "ncsim run --help lists --io-log" grep -q -- '--io-log' help.txt
check "ncsim run --help lists --routing" grep -q -- '--routing ALGO' help.txt
check "ncsim run --help lists the hybrid network" grep -q -- '--network MODEL .*hybrid' help.txt
check "ncsim run --help lists C skeletons" grep -q -- 'SKELETON.c' help.txt
echo "1 far.ncptl" > one.wkld
"$ncsim" run one.wkld --help > whelp.txt 2>&1
check "ncsim run X.wkld --help lists --io-log" grep -q -- '--io-log' whelp.txt
check "ncsim run X.wkld --help lists the hybrid network" grep -q -- '--network MODEL .*hybrid' whelp.txt

echo "== B. input errors leave no folder"
nrun badnet far.ncptl -n 2 --network foo --out "$work/o-badnet"
check "--network foo exits 2 (rc=$(rc_of badnet))" test "$(rc_of badnet)" = 2
check "--network foo names the choices" grep -q "unknown network model 'foo' (ideal, analytic" badnet.stderr
check "--network foo makes no folder" test ! -e "$work/o-badnet"
nrun badroute far.ncptl -n 2 --routing zigzag --out "$work/o-badroute"
check "--routing zigzag exits 2 (rc=$(rc_of badroute))" test "$(rc_of badroute)" = 2
check "--routing zigzag makes no folder" test ! -e "$work/o-badroute"
nrun anroute far.ncptl -n 2 --network analytic --routing ugal --out "$work/o-anroute"
check "--routing on the analytic network exits 1 (rc=$(rc_of anroute))" test "$(rc_of anroute)" = 1
check "--routing on the analytic network is explained" grep -q "needs a packet-level network" anroute.stderr
check "--routing on the analytic network makes no folder" test ! -e "$work/o-anroute"
printf '[network]\nmodel = analytic\nnodes = 4\n' > analytic.conf
nrun anhybrid far.ncptl -n 2 --system analytic.conf --network hybrid --out "$work/o-anhybrid"
check "--network hybrid on an analytic system file exits 1 (rc=$(rc_of anhybrid))" test "$(rc_of anhybrid)" = 1
check "--network hybrid on an analytic system file makes no folder" test ! -e "$work/o-anhybrid"
nrun wbadnet one.wkld --network foo --out "$work/o-wbadnet"
check "workload --network foo exits 2 (rc=$(rc_of wbadnet))" test "$(rc_of wbadnet)" = 2

echo "== C. routing and network overrides"
for r in default minimal nonminimal; do
	if [ $r = default ]; then set --; else set -- --routing $r; fi
	nrun "route-$r" far.ncptl -n 8 "$@" --no-wall-time --no-progress --out "$work/o-$r"
	check "far.ncptl with routing $r exits 0 (rc=$(rc_of "route-$r"))" test "$(rc_of "route-$r")" = 0
done
t_def=$(jval o-default sim_end_ps)
t_min=$(jval o-minimal sim_end_ps)
t_non=$(jval o-nonminimal sim_end_ps)
echo "NUMBER: 100 kB ping-pong across groups: minimal $t_min ps, nonminimal $t_non ps"
check "--routing minimal = the system file's routing ($t_def ps)" test -n "$t_min" -a "$t_min" = "$t_def"
check "--routing nonminimal changes the time ($t_non ps vs $t_min ps)" test -n "$t_non" -a "$t_non" != "$t_min"
check "--routing nonminimal changes links.csv" sh -c "! cmp -s '$work/o-minimal/links.csv' '$work/o-nonminimal/links.csv'"
for m in hybrid dragonfly packet; do
	nrun "net-$m" far.ncptl -n 8 --network $m --no-wall-time --out "$work/o-net-$m"
	check "--network $m exits 0 (rc=$(rc_of "net-$m"))" test "$(rc_of "net-$m")" = 0
done
check "--network hybrid runs the hybrid model" sh -c "tr -d ' \n' < '$work/o-net-hybrid/summary.json' | grep -q '\"network\":\"hybrid\"'"
check "--network dragonfly = the packet-level model" cmp -s o-net-dragonfly/links.csv o-default/links.csv
check "--network packet = --network dragonfly" cmp -s o-net-packet/links.csv o-net-dragonfly/links.csv

echo "== D/E. --io-log and the I/O totals of summary.json"
# 4 tasks x 2 writes of 1000 bytes: 8 requests, 8000 bytes.
nrun io iowrite.ncptl -n 4 --io-log --no-wall-time --out "$work/o-io"
check "iowrite --io-log exits 0 (rc=$(rc_of io))" test "$(rc_of io)" = 0
check "io.csv exists" test -f o-io/io.csv
rows=$(awk 'NR > 1' o-io/io.csv | wc -l | tr -d ' ')
csvbytes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["bytes"] } END { print s + 0 }' o-io/io.csv)
check "io.csv: 8 requests (got $rows)" test "$rows" = 8
check "io.csv: 8000 bytes (got $csvbytes)" test "$csvbytes" = 8000
check "job io_requests = 8" test "$(jval o-io io_requests)" = 8
check "job io_bytes_written = 8000" test "$(jval o-io io_bytes_written)" = 8000
check "job io_bytes_read = 0" test "$(jval o-io io_bytes_read)" = 0
check "storage requests_completed = 8" test "$(jval o-io requests_completed '"storage":{')" = 8
check "storage bytes_written = 8000" test "$(jval o-io bytes_written '"storage":{')" = 8000
check "storage bytes_stored = bytes_written" test "$(jval o-io bytes_stored '"storage":{')" = 8000
check "no storage object without I/O" sh -c "! grep -q '\"storage\"' '$work/o-default/summary.json'"

# Two jobs: 3 tasks x 2 x 500 bytes and 2 tasks x 2 x 1500 bytes = 3000 + 6000 bytes, 10 requests.
printf '3 iowrite.ncptl --bytes 500\n2 iowrite.ncptl --bytes 1500\n' > two.wkld
nrun wio two.wkld --io-log --no-wall-time --no-progress --out "$work/o-wio"
check "two.wkld --io-log exits 0 (rc=$(rc_of wio))" test "$(rc_of wio)" = 0
wrows=$(awk 'NR > 1' o-wio/io.csv 2>/dev/null | wc -l | tr -d ' ')
check "workload io.csv: 10 requests (got $wrows)" test "$wrows" = 10
jobs_w=$(flat o-wio | grep -o '"io_bytes_written":[0-9]*' | cut -d: -f2 | tr '\n' ' ')
check "per-job io_bytes_written = 3000 6000 (got $jobs_w)" test "$jobs_w" = "3000 6000 "
check "sum of the jobs' io_requests = 10" test "$(jsum o-wio io_requests)" = 10
check "workload storage bytes_written = 9000" test "$(jval o-wio bytes_written '"storage":{')" = 9000
check "workload storage bytes_stored = 9000" test "$(jval o-wio bytes_stored '"storage":{')" = 9000

echo "== F. the time a failed run reached"
nrun fatal fatal.ncptl -n 2 --no-wall-time --out "$work/o-fatal"
check "fatal.ncptl exits 1 (rc=$(rc_of fatal))" test "$(rc_of fatal)" = 1
check "fatal.ncptl: the summary says FAILED" grep -q 'FAILED' fatal.stderr
check "fatal.ncptl: simulated time 3 us on stderr" grep -q 'simulated time: 3.000000 us' fatal.stderr
check "fatal.ncptl: no output folder (doc/security.md)" test ! -e o-fatal
# The 100 kB ping-pong takes 72 us: stopped at 10 us, the run reached 10 us.
nrun until far.ncptl -n 8 --until 10us --no-wall-time --out "$work/o-until"
check "far.ncptl --until 10us exits 0 (rc=$(rc_of until))" test "$(rc_of until)" = 0
check "--until 10us: simulated time 10 us on stderr" grep -q 'simulated time: 10.000000 us' until.stderr
check "--until 10us: sim_end_ps 10000000, status stopped" \
	sh -c "tr -d ' \n' < '$work/o-until/summary.json' | grep -q '\"status\":\"stopped\",\"events\":[0-9]*,\"sim_end_ps\":10000000,'"

echo "== G. C skeletons"
cat > broken.c <<'EOF'
#include <ncsim/rt.h>

static void body(rt_task *t)
{
	rt_compute(t, undeclared_variable);
}

static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "broken", .entry = body };
NCSIM_SKELETON(program)
EOF
nrun broken broken.c -n 2 --out "$work/o-broken"
check "a C skeleton that does not compile exits 1 (rc=$(rc_of broken))" test "$(rc_of broken)" = 1
check "the compiler's message names broken.c:5" grep -q 'broken.c:5' broken.stderr
check "a skeleton that does not compile makes no folder" test ! -e "$work/o-broken"
cat > noentry.c <<'EOF'
#include <ncsim/rt.h>

static void body(rt_task *t) { rt_compute(t, 1000); }

const rt_program program = { .abi = NCSIM_RT_ABI, .name = "noentry", .entry = body };
EOF
nrun noentry noentry.c -n 2 --out "$work/o-noentry"
check "a C skeleton without NCSIM_SKELETON exits 1 (rc=$(rc_of noentry))" test "$(rc_of noentry)" = 1
check "a C skeleton without NCSIM_SKELETON gets a hint" grep -q 'NCSIM_SKELETON(program)' noentry.stderr
cat > sleeper.c <<'EOF'
#include <ncsim/rt.h>

static const rt_param params[] = { { "us", "Compute time (microseconds)", "--us", NULL, 7 } };

static void body(rt_task *t)
{
	rt_compute(t, (ncsim_time_t)rt_param_value(t, 0) * (ncsim_time_t)(rt_rank(t) + 1) * RT_PS_PER_US);
	rt_barrier(t, rt_world(t));
}

static const rt_program program = {
	.abi = NCSIM_RT_ABI, .name = "sleeper", .params = params, .nparams = 1, .entry = body,
};
NCSIM_SKELETON(program)
EOF
nrun sleeper sleeper.c -n 4 --network ideal --no-wall-time --out "$work/o-sleeper" -- --us 5
check "ncsim run sleeper.c exits 0 (rc=$(rc_of sleeper))" test "$(rc_of sleeper)" = 0
# Ideal network, no software costs: the barrier ends when the slowest task (4 x 5 us) enters it.
check "sleeper.c ends at 20 us" test "$(jval o-sleeper sim_end_ps)" = 20000000
nrun sleephelp sleeper.c -- --help
check "ncsim run sleeper.c -- --help shows its option" grep -q -- '--us' sleephelp.stdout
printf '3 sleeper.c --us 2\n2 far.ncptl\n' > mixed.wkld
nrun mixednc mixed.wkld --network ideal --no-wall-time --no-progress --out "$work/o-mixednc"
check "a workload with a .c job needs --allow-backend-code (rc=$(rc_of mixednc))" \
	sh -c "test $(rc_of mixednc) = 1 && grep -q allow-backend-code '$work/mixednc.stderr' && test ! -e '$work/o-mixednc'"
nrun mixed mixed.wkld --network ideal --no-wall-time --no-progress --allow-backend-code --out "$work/o-mixed"
check "a workload with a .c job exits 0 (rc=$(rc_of mixed))" test "$(rc_of mixed)" = 0
check "the .c job ran (its end time is 6 us)" sh -c "tr -d ' \n' < '$work/o-mixed/summary.json' | grep -q '\"program\":\"sleeper\",\"tasks\":3,\"args\":\"--us2\",\"end_ps\":6000000'"

finish run-options

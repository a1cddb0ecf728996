#!/bin/sh
# tests/e2e/options-matrix.sh - every option of the shared table
# (runtime/task/options.c) through every command and input that accepts it,
# with the same expected effect everywhere. The inputs ("kinds"):
#
#   ncptl  ncsim run far.ncptl -n 8       a 100 kB ping-pong between tasks 0 and 7
#   c      ncsim run farc.c -n 8          the same ping-pong written in C (ncsim/rt.h)
#   vef    ncsim run trace.vef -n 4       every task replays a DCNW trace
#   wkld   ncsim run far.wkld             one job: 8 far.ncptl
#   skel   ./far -n 8                     far.ncptl compiled and linked with libncsim
#
# and `ncsim netbench` where an option applies to it. On the built-in machine
# tasks 0 and 7 sit in different groups (the first node of each group is a
# burst buffer), so the ping-pong crosses a global link and takes about 72 us:
# every kind is still running at 5 us, so --until 5us ends every run at
# exactly 5000000 ps.
#
# Usage: options-matrix.sh   (NCSIM names the binary, NCSIM_SRCDIR the source
# tree, NCSIM_BUILDDIR the build tree with .libs/libncsim)
# Exit status: 0 if every check passed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/check.sh"
cd "$work" || exit 1

# Flattened summary.json of folder $1 (no blanks).
flat() { tr -d ' \t\n' < "$1/summary.json" 2>/dev/null; }
# Value of the first integer key $2 in summary.json of folder $1.
jval() { flat "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }
has() { flat "$1" | grep -q -- "$2"; }

kinds="ncptl c vef wkld skel"
# sim KIND TAG ARGS...: runs KIND with --out o-KIND-TAG and ARGS; output in r-KIND-TAG.{out,err,rc}.
# The kind's task count comes first; simn does the same without it.
simn() {
	notasks=1
	sim "$@"
	notasks=0
}
notasks=0
sim() {
	s_kind=$1
	s_tag=$2
	shift 2
	set -- --out "$work/o-$s_kind-$s_tag" "$@" # first: a later --out wins
	if [ "$notasks" = 0 ]; then
		case $s_kind in vef) set -- -n 4 "$@" ;; wkld) ;; *) set -- -n 8 "$@" ;; esac
	fi
	case $s_kind in
	ncptl) "$ncsim" run far.ncptl "$@" ;;
	c) "$ncsim" run farc.c "$@" ;;
	vef) "$ncsim" run trace.vef "$@" ;;
	wkld) "$ncsim" run far.wkld "$@" ;;
	skel) ./far "$@" ;;
	esac > "r-$s_kind-$s_tag.out" 2> "r-$s_kind-$s_tag.err"
	echo $? > "r-$s_kind-$s_tag.rc"
}
rc_of() { cat "r-$1.rc"; }
# The netbench report as CSV without the wall-clock columns: nb TAG ARGS...
nb() {
	n_tag=$1
	shift
	"$ncsim" netbench --groups 3 --routers 2 --nodes 2 --globals 1 --duration 20us --csv "$@" \
		> "nb-$n_tag.out" 2> "nb-$n_tag.err"
	echo $? > "nb-$n_tag.rc"
	tail -n 1 "nb-$n_tag.out" | cut -d, -f1-13 > "nb-$n_tag.csv"
}
nb_rc() { cat "nb-$1.rc"; }

cat > far.ncptl <<'EOF'
Require language version "1.5".
task 0 sends a 100000 byte message to task num_tasks-1 then
task num_tasks-1 sends a 100000 byte message to task 0
EOF
cat > farc.c <<'EOF'
#include <ncsim/rt.h>

static void body(rt_task *t)
{
	rt_int last = rt_num_tasks(t) - 1;
	if (rt_rank(t) == 0) {
		rt_send(t, last, 100000, 0, 0);
		rt_recv(t, last, 100000, 0, 0);
	} else if (rt_rank(t) == last) {
		rt_recv(t, 0, 100000, 0, 0);
		rt_send(t, 0, 100000, 0, 0);
	}
}

static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "farc", .entry = body };
NCSIM_SKELETON(program)
EOF
cp "$srcdir/tests/e2e/progs/traffic-vef.vef" trace.vef
echo "8 far.ncptl" > far.wkld
# The standalone skeleton, built as a user would (doc/ncsim.1), against this build tree.
s_cc=$(sed -n 's/^CC = //p' "$builddir/Makefile" 2>/dev/null)
s_san=$(sed -n 's/^SAN_CFLAGS = //p' "$builddir/Makefile" 2>/dev/null)
"$ncsim" compile far.ncptl -o far-skel.c &&
	${s_cc:-cc} $s_san -I"$srcdir/include" -o far far-skel.c -L"$builddir/.libs" -Wl,-rpath,"$builddir/.libs" \
		-lncsim -lm -ldl
check "the standalone skeleton builds" test -x far

echo "== --until: 5µs = 5us = 5000ns = 5 (a plain number is in us); 0 is refused"
for k in $kinds; do
	i=0
	for u in 5µs 5us 5000ns 5; do
		i=$((i + 1))
		sim $k until$i --until $u --no-wall-time
		check "$k --until $u ends at 5000000 ps (rc=$(rc_of $k-until$i))" \
			test "$(rc_of $k-until$i)" = 0 -a "$(jval o-$k-until$i sim_end_ps)" = 5000000
		check "$k --until $u: status stopped" has o-$k-until$i '"status":"stopped"'
	done
	sim $k until0 --until 0
	check "$k --until 0 exits 2 (rc=$(rc_of $k-until0))" test "$(rc_of $k-until0)" = 2
	check "$k --until 0: must be positive" grep -q -- '--until 0: must be positive' r-$k-until0.err
	check "$k --until 0 makes no folder" test ! -e o-$k-until0
done
for u in 5µs 5us 5000ns 5; do nb "until-$u" --until "$u"; done
check "netbench --until 5µs runs (rc=$(nb_rc until-5µs))" test "$(nb_rc until-5µs)" = 0
check "netbench --until 5us = 5µs" cmp -s nb-until-5us.csv nb-until-5µs.csv
check "netbench --until 5000ns = 5µs" cmp -s nb-until-5000ns.csv nb-until-5µs.csv
check "netbench --until 5 = 5µs" cmp -s nb-until-5.csv nb-until-5µs.csv
nb until-none
check "netbench --until 5us stops before the end" sh -c "! cmp -s nb-until-none.csv nb-until-5us.csv"
nb until0 --until 0
check "netbench --until 0 exits 2" test "$(nb_rc until0)" = 2
check "netbench --until 0: must be positive" grep -q -- '--until 0: must be positive' nb-until0.err
nb dur0 --duration 0
check "netbench --duration 0 exits 2" test "$(nb_rc dur0)" = 2
"$ncsim" run --until 5us --no-wall-time --out "$work/o-wkld-first" far.wkld > /dev/null 2>&1
check "ncsim run --until 5us far.wkld (options first) ends at 5000000 ps" test "$(jval o-wkld-first sim_end_ps)" = 5000000

echo "== --seed"
for k in $kinds; do
	sim $k seed7 --seed 7 --no-wall-time
	check "$k --seed 7 is the run's seed" has o-$k-seed7 '"seed":7,'
	sim $k seedbad --seed -1
	check "$k --seed -1 exits 2 (rc=$(rc_of $k-seedbad))" test "$(rc_of $k-seedbad)" = 2
done
sim vef seed1 --no-wall-time
check "vef: --seed 7 changes the traffic" sh -c "! cmp -s o-vef-seed7/tasks.csv o-vef-seed1/tasks.csv"
nb seed7 --seed 7
nb seed7b --seed 7
nb seed1
check "netbench --seed 7 runs twice the same" cmp -s nb-seed7.csv nb-seed7b.csv
check "netbench --seed 7 differs from the default seed 1" sh -c "! cmp -s nb-seed7.csv nb-seed1.csv"
nb seedbad --seed -1
check "netbench --seed -1 exits 2" test "$(nb_rc seedbad)" = 2

echo "== --out"
for k in $kinds; do
	sim $k out --out "$work/deep/$k/run"
	check "$k --out makes the nested folder with summary.json" test -f "deep/$k/run/summary.json"
done
nb out --out "$work/nbout"
check "netbench --out writes netbench.csv" sh -c "head -n 1 nbout/netbench.csv | grep -q '^routing,pattern,'"
check "netbench --out writes links.csv" test -s nbout/links.csv
check "netbench writes no folder without --out" test ! -e ncsim-out

echo "== --system"
for k in $kinds; do
	sim $k tiny --system df-tiny --no-wall-time
	check "$k --system df-tiny runs (rc=$(rc_of $k-tiny))" test "$(rc_of $k-tiny)" = 0
	check "$k --system df-tiny: the preset file" has o-$k-tiny 'df-tiny.conf"'
	sim $k nosys --system no-such-machine
	check "$k --system no-such-machine exits 2 (rc=$(rc_of $k-nosys))" test "$(rc_of $k-nosys)" = 2
done
"$ncsim" netbench --system df-tiny --duration 5us > nb-tiny.out 2>&1
check "netbench --system df-tiny: 5 x 2 x 4 = 40 nodes" grep -q '^netbench: 40 nodes' nb-tiny.out
"$ncsim" netbench --duration 5us > nb-default.out 2>&1
check "netbench without --system: the built-in 9 x 4 x 2 = 72 nodes" grep -q '^netbench: 72 nodes' nb-default.out
nb nosys --system no-such-machine
check "netbench --system no-such-machine exits 2" test "$(nb_rc nosys)" = 2

echo "== --network"
for k in $kinds; do
	sim $k analytic --network analytic --no-wall-time
	check "$k --network analytic runs the analytic model" has o-$k-analytic '"network":"analytic"'
	sim $k badnet --network foo
	check "$k --network foo exits 2 (rc=$(rc_of $k-badnet))" test "$(rc_of $k-badnet)" = 2
	check "$k --network foo names the choices" grep -q "unknown network model 'foo' (ideal, analytic" r-$k-badnet.err
done
nb net --network analytic
check "netbench refuses --network (it needs the packet model)" test "$(nb_rc net)" = 2

echo "== --routing"
for k in $kinds; do
	sim $k default --no-wall-time
	sim $k minimal --routing minimal --no-wall-time
	sim $k nonmin --routing nonminimal --no-wall-time
	check "$k --routing minimal = the system's routing" cmp -s o-$k-minimal/links.csv o-$k-default/links.csv
	check "$k --routing nonminimal changes links.csv" sh -c "! cmp -s o-$k-nonmin/links.csv o-$k-minimal/links.csv"
	sim $k badroute --routing zigzag
	check "$k --routing zigzag exits 2 (rc=$(rc_of $k-badroute))" test "$(rc_of $k-badroute)" = 2
done
nb nonmin --routing nonminimal
check "netbench --routing nonminimal" grep -q '^nonminimal,' nb-nonmin.csv
nb badroute --routing zigzag
check "netbench --routing zigzag exits 2" test "$(nb_rc badroute)" = 2

echo "== --io-log, --no-wall-time, --stack-size, --progress"
for k in $kinds; do
	sim $k iolog --io-log
	check "$k --io-log writes io.csv" sh -c "head -n 1 o-$k-iolog/io.csv | grep -q '^id,job,client,server,'"
	check "$k: no io.csv without --io-log" test ! -e o-$k-default/io.csv
	check "$k: wall_seconds by default" has o-$k-iolog '"wall_seconds":'
	check "$k --no-wall-time leaves it out" sh -c "! grep -q wall_seconds o-$k-default/summary.json"
	sim $k stack --stack-size 1M --no-wall-time
	check "$k --stack-size 1M: same results" cmp -s o-$k-stack/tasks.csv o-$k-default/tasks.csv
	sim $k badstack --stack-size lots
	check "$k --stack-size lots exits 2" test "$(rc_of $k-badstack)" = 2
	sim $k progress --progress --no-progress --no-wall-time
	check "$k --progress --no-progress: same results" cmp -s o-$k-progress/tasks.csv o-$k-default/tasks.csv
done
nb progress --no-progress
check "netbench --no-progress runs" test "$(nb_rc progress)" = 0
nb iolog --io-log
check "netbench refuses --io-log" test "$(nb_rc iolog)" = 2

echo "== -n / --tasks"
for k in ncptl c vef skel; do
	for spelling in "-n 4" "-n4" "--tasks=4" "--tasks 4"; do
		simn $k tasks $spelling --no-wall-time
		check "$k $spelling: 4 tasks" has o-$k-tasks '"tasks":4,'
		rm -rf o-$k-tasks
	done
	simn $k tasks0 -n 0
	check "$k -n 0 exits 2" test "$(rc_of $k-tasks0)" = 2
done
simn wkld tasks -n 4
check "a workload file refuses -n (its jobs give the tasks)" test "$(rc_of wkld-tasks)" = 2
check "... and says so" grep -q -- '--tasks does not apply' r-wkld-tasks.err
nb tasks -n 4
check "netbench refuses -n" test "$(nb_rc tasks)" = 2

echo "== --force: an existing --out is refused (2) unless --force replaces it"
for k in $kinds; do
	sim $k again --no-wall-time
	touch o-$k-again/stale
	sim $k again --no-wall-time
	check "$k: an existing --out exits 2 (rc=$(rc_of $k-again))" test "$(rc_of $k-again)" = 2
	check "$k: ... naming --force" grep -q -- '--force' r-$k-again.err
	check "$k: ... and leaves the folder as it was" test -e o-$k-again/stale
	sim $k again --no-wall-time --force
	check "$k --force replaces it (rc=$(rc_of $k-again))" sh -c "test $(rc_of $k-again) = 0 && test ! -e o-$k-again/stale"
	check "$k --force: a complete folder" test -f o-$k-again/summary.json
done
nb nbagain --out "$work/nbout"
check "netbench: an existing --out exits 2" test "$(nb_rc nbagain)" = 2
nb nbagain --out "$work/nbout" --force
check "netbench --force replaces it" test "$(nb_rc nbagain)" = 0
check "no temporary folder is left" test -z "$(find . -name '.ncsim-tmp*' | head -1)"

echo "== --oversubscribe: more tasks than the built-in machine's 63 compute nodes"
echo "64 far.ncptl" > big.wkld
# over KIND TAG ARGS...: KIND with 64 tasks (big.wkld for a workload); output in r-KIND-TAG.{out,err,rc}.
over() {
	o_kind=$1
	o_tag=$2
	shift 2
	case $o_kind in
	ncptl) "$ncsim" run far.ncptl -n 64 "$@" ;;
	c) "$ncsim" run farc.c -n 64 "$@" ;;
	skel) ./far -n 64 "$@" ;;
	wkld) "$ncsim" run big.wkld "$@" ;;
	esac > "r-$o_kind-$o_tag.out" 2> "r-$o_kind-$o_tag.err"
	echo $? > "r-$o_kind-$o_tag.rc"
}
for k in ncptl c skel wkld; do
	over $k over --out "$work/o-$k-over"
	check "$k: 64 tasks on 63 nodes exit 1 (rc=$(rc_of $k-over))" test "$(rc_of $k-over)" = 1
	check "$k: ... naming --oversubscribe" grep -q -- '--oversubscribe' r-$k-over.err
	check "$k: ... with no folder" test ! -e o-$k-over
	over $k overok --oversubscribe --no-wall-time --out "$work/o-$k-overok"
	check "$k --oversubscribe runs 64 tasks (rc=$(rc_of $k-overok))" has o-$k-overok '"tasks":64,'
done

echo "== --allow-host-access: --comment=@FILE, --comment=!CMD, --logfile outside the folder"
# host KIND TAG OPTION ARGS...: KIND run with ARGS and the program option OPTION (on the job line of a workload file).
host() {
	h_kind=$1
	h_tag=$2
	h_opt=$3
	shift 3
	if [ "$h_kind" = wkld ]; then
		printf '8 far.ncptl %s\n' "$h_opt" > host.wkld
		"$ncsim" run host.wkld --out "$work/o-wkld-$h_tag" "$@" > r-wkld-$h_tag.out 2> r-wkld-$h_tag.err
		echo $? > r-wkld-$h_tag.rc
	else
		sim "$h_kind" "$h_tag" "$@" -- "$h_opt"
	fi
}
for k in $kinds; do
	i=0
	for a in '--comment=@/etc/hostname' '--comment=!true' '--logfile=/tmp/x-%p.log' '--logfile=../x-%p.log'; do
		i=$((i + 1))
		host $k host$i "$a"
		check "$k $a without --allow-host-access exits 1 (rc=$(rc_of $k-host$i))" test "$(rc_of $k-host$i)" = 1
		check "$k $a: the message names --allow-host-access" grep -q -- '--allow-host-access' r-$k-host$i.err
	done
	host $k hostok '--comment=@/etc/hostname' --allow-host-access
	check "$k --allow-host-access runs (rc=$(rc_of $k-hostok))" test "$(rc_of $k-hostok)" = 0
done

echo "== --watchdog: a wall-clock time with its unit"
for k in $kinds; do
	sim $k wd --watchdog 10s --no-wall-time
	check "$k --watchdog 10s: same results" cmp -s o-$k-wd/tasks.csv o-$k-default/tasks.csv
	sim $k wd0 --watchdog 0 --no-wall-time
	check "$k --watchdog 0 (off) runs" test "$(rc_of $k-wd0)" = 0
	sim $k wdplain --watchdog 10
	check "$k --watchdog 10 (no unit) exits 2" test "$(rc_of $k-wdplain)" = 2
	check "$k --watchdog 10: needs a unit" grep -q 'needs a unit' r-$k-wdplain.err
done

echo "== check and compile"
"$ncsim" check far.ncptl --syntax-only > /dev/null 2>&1
check "ncsim check --syntax-only" test $? = 0
"$ncsim" check far.ncptl --until 5us > /dev/null 2> check-until.err
check "ncsim check refuses --until" test $? = 2
# Same output name in two folders: the #line directives name the output file.
mkdir -p long short
(cd long && "$ncsim" compile ../far.ncptl --output=o.c) && (cd short && "$ncsim" compile ../far.ncptl -o o.c)
check "ncsim compile --output = -o" cmp -s long/o.c short/o.c
check "ncsim compile: #line names the -o file" grep -q '^#line [0-9]* "o.c"$' short/o.c

echo "== --help: every option and environment variable, from the table"
"$ncsim" run --help > h-run.txt 2>&1 && "$ncsim" run far.wkld --help > h-wkld.txt 2>&1 &&
	./far --help > h-skel.txt 2>&1 && "$ncsim" netbench --help > h-netbench.txt 2>&1 &&
	"$ncsim" check --help > h-check.txt 2>&1 && "$ncsim" compile --help > h-compile.txt 2>&1
check "--help exits 0 for every command" test $? = 0
for o in tasks system network routing seed out until io-log stack-size progress no-progress no-wall-time \
	force oversubscribe allow-host-access watchdog; do
	for h in run skel; do check "$h --help lists --$o" grep -q -- "--$o" h-$h.txt; done
done
for o in system network routing placement alloc seed out until io-log stack-size no-wall-time \
	force oversubscribe allow-host-access allow-backend-code watchdog; do
	check "wkld --help lists --$o" grep -q -- "--$o" h-wkld.txt
done
for o in system routing seed out until duration warmup load size pattern; do
	check "netbench --help lists --$o" grep -q -- "--$o" h-netbench.txt
done
check "ncsim run --help: a plain time is in microseconds" grep -q 'plain number is in microseconds' h-run.txt
check "ncsim run --help: -n is not for workload files" sh -c "! grep -q -- '--tasks' h-wkld.txt"
# Every variable the sources read (getenv) is in the help of a command that reads it.
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' "$srcdir/compiler" "$srcdir/runtime" "$srcdir/base" "$srcdir/lang" \
	"$srcdir/stdlib" | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
	check "environment variable $v is in a --help" sh -c "cat h-*.txt | grep -q '^  $v '"
done
# The manual page documents every option and variable the help texts list.
sed 's/\\-/-/g' "$srcdir/doc/ncsim.1" > man.txt
for o in $(cat h-*.txt | grep -oE '^  (-[a-z], )? *--[a-z-]+' | sed 's/.*--//' | sort -u); do
	check "doc/ncsim.1 documents --$o" grep -q -- "--$o\>" man.txt
done
for v in $(cat h-*.txt | sed -n '/^environment:/,/^[^ ]/p' | grep -oE '^  [A-Z_]+' | sort -u); do
	check "doc/ncsim.1 documents $v" grep -q "$v" man.txt
done

finish options-matrix

#!/bin/sh
# backend_ffi.sh - BACKEND EXECUTES through libffi in the direct engine
# (engine/backend.c), against the compiled engine and hand-derived values.
#
# 1. The paper-style I/O program (tests/e2e/progs/paper-io.ncptl: reads,
#    computes, then UNION_MPI_Allreduce written as a Union API call) gives
#    byte-identical stdout, tasks.csv, links.csv and summary.json under
#    --engine direct and --engine compiled (only the wall time, the output
#    folder and the engine's name differ), on the e2e system with 64 tasks
#    and on the packet-level df-tiny with 16 tasks and other arguments. The
#    figures of paper-io.expect hold under the direct engine: every task
#    reads 3 x 1 MiB = 3,145,728 bytes, and 768 allreduce messages of 4096
#    bytes (3,145,728 bytes) cross the network.
# 2. C semantics of the arguments, with --allow-backend-code, under both
#    engines (the compiled engine pastes the C text, the direct engine
#    evaluates it): n = 70000,
#      UNION_Compute((short)(int)n * 0.5 + (float)0.1 * 3e7)
#        (short)70000 = 70000 - 65536 = 4464, * 0.5 = 2232;
#        (float)0.1 = 0.100000001490116119384765625, * 3e7 in double =
#        3000000.0447034836 (not 3000000.0000000005: the float stays a float);
#        2232 + that = 3002232.0447034836 ns, truncated to 3,002,232,044 ps;
#      rt_compute(t, 7 / 2 * 1000u + (unsigned char)(int)n)
#        7 / 2 = 3 (integer division), * 1000u = 3000; 70000 mod 256 = 112;
#        3112 ps;
#    elapsed: 3,002,235,156 ps = 3002.235156 us in both engines. And the
#    types of integer constants, in ps of rt_compute:
#      (unsigned)-1 / 1000000 = 4294967295 / 1000000 = 4294 (unsigned division);
#      3000000000 * 2 / 1000 = 6000000 (3000000000 is a long: no int overflow);
#      010 * 100 + 7 % 3 = 8 * 100 + 1 = 801 (010 is octal);
#      (unsigned char)300 + (short)70000 = 44 + 4464 = 4508;
#    elapsed: 4294 + 6000000 + 801 + 4508 = 6,009,603 ps = 6.009603 us.
# 3. The example plugin (examples/plugin/): with --allow-backend-code,
#    --plugin and --plugin-header, plugin.ncptl on 4 tasks computes
#    2 x (1000 + 4,000,000 / 4 / 4) = 502,000 ns = 502 us per task; with
#    --total 8000000 --passes 3: 3 x (1000 + 2,000,000 / 4) = 1,503,000 ns =
#    1503 us. Without --allow-backend-code the plugin is refused (exit 2,
#    "--plugin runs arbitrary code: pass --allow-backend-code"); without the
#    plugin its function has no prototype (exit 1, at the statement's line).
# 4. With --allow-backend-code, C code that is not a call (a declaration)
#    runs in the compiled engine and is refused by the direct engine with a
#    message that names --engine compiled.
#
# Until `ncsim run` has --engine, the test is skipped (exit 77).
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"
src=$NCSIM_SRCDIR
plugin_so=$NCSIM_BUILDDIR/examples/plugin/.libs/compute_model.so

if ! "$NCSIM" run --help 2>&1 | grep -q -- '--engine'; then
	echo "SKIP: ncsim run has no --engine yet"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/backend_ffi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CACHE_HOME="$tmp/cache"
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run LABEL ENGINE FILE ARGS...: `ncsim run` with the output folder $tmp/LABEL.ENGINE; stdout, stderr and rc beside it.
run() {
	r_label=$1 r_engine=$2 r_file=$3
	shift 3
	"$NCSIM" run "$r_file" --engine "$r_engine" --no-progress --out "$tmp/$r_label.$r_engine" "$@" \
		>"$tmp/$r_label.$r_engine.stdout" 2>"$tmp/$r_label.$r_engine.stderr"
	echo $? >"$tmp/$r_label.$r_engine.rc"
}

# What differs between two engines' runs of the same program by design.
normalize() {
	sed -e '/wall time/d' -e '/"wall_s"/d' -e "s|$tmp/[a-z0-9-]*\\.[a-z]*|OUT|g" \
		-e 's/^    "compiled",$/    "E",/' -e 's/^    "direct",$/    "E",/' "$1"
}

# same LABEL: both engines' exit status, stdout and output files agree.
same() {
	for f in rc stdout; do
		normalize "$tmp/$1.compiled.$f" >"$tmp/a"
		normalize "$tmp/$1.direct.$f" >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" || fail "$1: the engines' $f differ: $(diff "$tmp/a" "$tmp/b" | head -5)"
	done
	[ -f "$tmp/$1.direct/summary.json" ] || fail "$1: the direct engine wrote no summary ($(head -c 300 "$tmp/$1.direct.stderr"))"
	for f in tasks.csv links.csv summary.json; do
		[ -f "$tmp/$1.compiled/$f" ] || [ -f "$tmp/$1.direct/$f" ] || continue   # links.csv: not on the ideal network
		if [ ! -f "$tmp/$1.direct/$f" ] || [ ! -f "$tmp/$1.compiled/$f" ]; then
			fail "$1: only one engine wrote $f"
			continue
		fi
		normalize "$tmp/$1.compiled/$f" >"$tmp/a"
		normalize "$tmp/$1.direct/$f" >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" || fail "$1: the engines' $f differ: $(diff "$tmp/a" "$tmp/b" | head -5)"
	done
}

# 1. The paper-style I/O program.
for e in compiled direct; do
	run pio64 $e "$src/tests/e2e/progs/paper-io.ncptl" -n 64 --system "$src/tests/e2e/e2e-system.conf" \
		--oversubscribe --no-wall-time
	run piodf $e "$src/tests/e2e/progs/paper-io.ncptl" -n 16 --system df-tiny --no-wall-time -- \
		--reps 2 --words 3000 --compute 1
done
same pio64
same piodf
grep -qx 'task 0 read 3145728 bytes' "$tmp/pio64.direct.stdout" || fail "pio64: task 0 did not read 3 MiB"
grep -qx 'task 63 read 3145728 bytes' "$tmp/pio64.direct.stdout" || fail "pio64: task 63 did not read 3 MiB"
tr -d ' \n' <"$tmp/pio64.direct/summary.json" | grep -q '"network_totals":{"mpi":{"msgs":768,"bytes":3145728}' ||
	fail "pio64: not 768 allreduce messages of 4096 bytes on the network"

# 2. C semantics of the arguments in both engines.
cat >"$tmp/csem.ncptl" <<'EOF'
n is "A value" and comes from "--value" or "-v" with default 70000.
All tasks backend execute "UNION_Compute((short)(int)" and n and " * 0.5 + (float)0.1 * 3e7);" then
all tasks backend execute "rt_compute(t, 7 / 2 * 1000u + (unsigned char)(int)" and n and ");" then
all tasks t output "task " and t and " elapsed " and elapsed_usecs.
EOF
for e in compiled direct; do
	run csem $e "$tmp/csem.ncptl" -n 2 --network ideal --no-wall-time --allow-backend-code
done
same csem
grep -qx 'task 1 elapsed 3002.235156' "$tmp/csem.direct.stdout" ||
	fail "csem: want 3002.235156 us, got: $(cat "$tmp/csem.direct.stdout" "$tmp/csem.direct.stderr" | tail -3)"
cat >"$tmp/cint.ncptl" <<'EOF'
All tasks backend execute "rt_compute(t, (unsigned)-1 / 1000000);" then
all tasks backend execute "rt_compute(t, 3000000000 * 2 / 1000);" then
all tasks backend execute "rt_compute(t, 010 * 100 + 7 % 3);" then
all tasks backend execute "rt_compute(t, (unsigned char)300 + (short)70000);" then
all tasks t output "task " and t and " elapsed " and elapsed_usecs.
EOF
for e in compiled direct; do
	run cint $e "$tmp/cint.ncptl" -n 1 --network ideal --no-wall-time --allow-backend-code
done
same cint
grep -qx 'task 0 elapsed 6.009603' "$tmp/cint.direct.stdout" ||
	fail "cint: want 6.009603 us, got: $(cat "$tmp/cint.direct.stdout" "$tmp/cint.direct.stderr" | tail -3)"

# 3. The example plugin.
if [ ! -f "$plugin_so" ]; then
	fail "the example plugin was not built: $plugin_so"
else
	plug="--plugin $plugin_so --plugin-header $src/examples/plugin/compute_model.h"
	# shellcheck disable=SC2086
	run plug direct "$src/examples/plugin/plugin.ncptl" -n 4 --network ideal --no-wall-time --allow-backend-code $plug
	grep -qx 'task 0 computed for 502 us' "$tmp/plug.direct.stdout" ||
		fail "plugin: want 502 us, got: $(cat "$tmp/plug.direct.stdout" "$tmp/plug.direct.stderr" | tail -3)"
	# shellcheck disable=SC2086
	run plug3 direct "$src/examples/plugin/plugin.ncptl" -n 4 --network ideal --no-wall-time --allow-backend-code \
		$plug -- --total 8000000 --passes 3
	grep -qx 'task 3 computed for 1503 us' "$tmp/plug3.direct.stdout" ||
		fail "plugin: want 1503 us, got: $(cat "$tmp/plug3.direct.stdout" "$tmp/plug3.direct.stderr" | tail -3)"
	# shellcheck disable=SC2086
	run plugno direct "$src/examples/plugin/plugin.ncptl" -n 4 --network ideal $plug
	[ "$(cat "$tmp/plugno.direct.rc")" = 2 ] || fail "plugin without --allow-backend-code: exit $(cat "$tmp/plugno.direct.rc"), want 2"
	grep -q -- '--plugin runs arbitrary code: pass --allow-backend-code' "$tmp/plugno.direct.stderr" ||
		fail "plugin without --allow-backend-code: no refusal message: $(cat "$tmp/plugno.direct.stderr")"
	[ -d "$tmp/plugno.direct" ] && fail "plugin without --allow-backend-code: an output folder was written"
	run noplug direct "$src/examples/plugin/plugin.ncptl" -n 4 --network ideal --allow-backend-code
	[ "$(cat "$tmp/noplug.direct.rc")" = 1 ] || fail "no plugin: exit $(cat "$tmp/noplug.direct.rc"), want 1"
	grep -q 'plugin.ncptl:14:[0-9]*: error: `cm_compute` has no known prototype' "$tmp/noplug.direct.stderr" ||
		fail "no plugin: no positioned error for cm_compute: $(cat "$tmp/noplug.direct.stderr")"
fi

# 4. C code that is not a call.
cat >"$tmp/ccode.ncptl" <<'EOF'
All tasks backend execute "{ int x = 3; UNION_Compute(x * 1000); }" then
all tasks t output "task " and t and " elapsed " and elapsed_usecs.
EOF
for e in compiled direct; do
	run ccode $e "$tmp/ccode.ncptl" -n 1 --network ideal --no-wall-time --allow-backend-code
done
grep -qx 'task 0 elapsed 3' "$tmp/ccode.compiled.stdout" ||
	fail "compiled engine: the pasted C did not run: $(cat "$tmp/ccode.compiled.stdout" "$tmp/ccode.compiled.stderr" | tail -3)"
[ "$(cat "$tmp/ccode.direct.rc")" = 1 ] || fail "direct engine ran C code (exit $(cat "$tmp/ccode.direct.rc"))"
grep -q 'ccode.ncptl:1:[0-9]*: error: the direct engine runs only calls .*(--engine compiled)' "$tmp/ccode.direct.stderr" ||
	fail "direct engine: no refusal naming --engine compiled: $(cat "$tmp/ccode.direct.stderr")"

[ "$fails" -eq 0 ] && echo "backend_ffi: every check passed"
[ "$fails" -eq 0 ]

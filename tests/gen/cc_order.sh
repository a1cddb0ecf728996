#!/bin/sh
# tests/gen/cc_order.sh - the compiled engine's results do not depend on the
# C compiler's order of evaluation: programs whose operands and call
# arguments draw random numbers or fail (tests/gen/eval_order*.ncptl and
# random programs of gen_prog that call RANDOM_* functions) run with the
# skeleton built by the configured compiler at -O2 (ncsim's default), by a
# wrapper that appends -O0 (NCSIM_CC), and by clang when it is installed
# (clang evaluates a call's arguments first to last, gcc last to first);
# every output must be byte-identical. The generated C fixes the order, so
# before it did, clang's runs drew other numbers and ended with another
# error message. Also: a program comparing a value with itself builds
# without a C warning.
#
# Usage: cc_order.sh [--count N]   (N random programs, default 12)
# Environment: NCSIM (default ./ncsim), GEN_PROG (default ./tests/gen/gen_prog), CC (default cc).
# Exit status: 0 if every build agreed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$(pwd)/ncsim}
genprog=${GEN_PROG:-$(pwd)/tests/gen/gen_prog}
case $ncsim in /*) ;; *) ncsim=$(pwd)/$ncsim ;; esac
case $genprog in /*) ;; *) genprog=$(pwd)/$genprog ;; esac
count=12
[ "$1" = --count ] && count=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-ccorder.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
system=$srcdir/tests/e2e/e2e-system.conf
failed=0

# The -O0 build: the same compiler, its -O2 overridden (the last -O wins).
cat >"$work/cc-O0" <<EOS
#!/bin/sh
echo used >>"$work/cc-O0.used"
exec ${CC:-cc} "\$@" -O0
EOS
chmod +x "$work/cc-O0"
builds="O2 O0"
command -v clang >/dev/null 2>&1 && builds="$builds clang"

# run BUILD NAME PROG ARGS...: one run, its normalized output in $work/NAME.BUILD.
run() {
	r_build=$1 r_name=$2 r_prog=$3
	shift 3
	case $r_build in
	O2) r_cc= ;;
	O0) r_cc=$work/cc-O0 ;;
	clang) r_cc=clang ;;
	esac
	rm -rf "$work/o"
	NCSIM_CC=$r_cc XDG_CACHE_HOME=$work/cache.$r_build "$ncsim" run "$r_prog" --system "$system" --no-wall-time \
		--no-progress --out "$work/o" "$@" >"$work/out" 2>&1
	echo "exit $?" >>"$work/out"
	for f in tasks.csv links.csv; do
		[ -f "$work/o/$f" ] && { echo "=== $f"; cat "$work/o/$f"; } >>"$work/out"
	done
	sed -e '/wall time/d' -e '/output folder/d' -e "s|$work/||g" "$work/out" >"$work/$r_name.$r_build"
}

# same NAME PROG ARGS...: every build gives the -O2 build's output.
same() {
	s_name=$1
	shift
	for b in $builds; do
		run "$b" "$s_name" "$@"
		[ "$b" = O2 ] && continue
		if ! cmp -s "$work/$s_name.O2" "$work/$s_name.$b"; then
			echo "FAIL: $s_name: the $b build differs from the -O2 build:"
			diff "$work/$s_name.O2" "$work/$s_name.$b" | head -10 | sed 's/^/  /'
			failed=$((failed + 1))
		fi
	done
}

same eval_order "$srcdir/tests/gen/eval_order.ncptl" -n 2
grep -q '^exit 0$' "$work/eval_order.O2" && grep -q '^task 0 at ' "$work/eval_order.O2" ||
	{ echo "FAIL: eval_order did not run to its end"; sed 's/^/  /' "$work/eval_order.O2" | head; failed=$((failed + 1)); }
same eval_order_err "$srcdir/tests/gen/eval_order_err.ncptl" -n 2
# Hand-derived: the right operand of the integer + is evaluated first (see the program).
grep -q '5 modulo 0 is not defined' "$work/eval_order_err.O2" ||
	{ echo "FAIL: eval_order_err did not end with the MOD's error"; failed=$((failed + 1)); }
[ -s "$work/cc-O0.used" ] || { echo "FAIL: the -O0 wrapper was never run"; failed=$((failed + 1)); }

# Warnings about what a valid program means (u = u compares a value with
# itself, x > 3 \/ x < 5 overlaps) are off in generated C, and a task
# variable whose only reader folded away (a source set sema proved empty)
# is marked used: a cache miss prints nothing from the C compiler under any
# build (build.h: only code a user wrote may warn).
cat >"$work/quiet.ncptl" <<'EOS'
Tasks u such that u = u synchronize then
tasks v such that v > 3 \/ v < 5 synchronize then
for 1 repetitions {
  tasks w such that 1 <> 1 reduces num_tasks doublewords to all tasks
} then
task 0 outputs "quiet".
EOS
for b in $builds; do
	run "$b" quiet "$work/quiet.ncptl" -n 2
	if grep -q -e '\[-W' -e 'quiet\.c:' -e 'In function' "$work/quiet.$b" || ! grep -q '^quiet$' "$work/quiet.$b"; then
		echo "FAIL: the $b build of quiet.ncptl printed C diagnostics (or did not run):"
		sed 's/^/  /' "$work/quiet.$b" | head -10
		failed=$((failed + 1))
	fi
done

# Random programs that draw random numbers.
"$genprog" --write-data "$work/data.txt" || exit 1
n=0
seed=1
while [ "$n" -lt "$count" ] && [ "$seed" -le 1000 ]; do
	"$genprog" --seed "$seed" --data "$work/data.txt" >"$work/p$seed.ncptl" || exit 1
	if grep -q 'RANDOM_' "$work/p$seed.ncptl"; then
		same "seed-$seed" "$work/p$seed.ncptl" -n 3 -- --p1=2 --p2=3 --p3=4
		n=$((n + 1))
	fi
	seed=$((seed + 1))
done
echo "cc_order: $((n + 3)) programs under the builds $builds, $failed failures"
[ "$failed" -eq 0 ]

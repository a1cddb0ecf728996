# tests/calib/lib.sh - sourced by the calibration tests: a scratch folder, and
# measurements made by ncsim itself from a hidden system, with noise.
src=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$src/ncsim}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-caltest.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$work/cache}
cd "$work" || exit 2
failed=0

# measure NAME SYSTEM TRIALS PROGRAM TASKS [ARGS...]: NAME-1.txt ... NAME-TRIALS.txt,
# the program's OSU output on SYSTEM with 2% multiplicative noise per trial.
measure() {
	local name=$1 sys=$2 trials=$3 prog=$4 tasks=$5
	shift 5
	"$ncsim" run "$prog" -n "$tasks" --system "$sys" --out "sim-$name" --no-progress -- "$@" \
		>"$name.sim" 2>"$name.err" || { cat "$name.err"; exit 1; }
	rm -rf "sim-$name"
	for t in $(seq 1 "$trials"); do
		awk -v seed="$t$(printf %s "$name" | cksum | cut -c1-4)" -v sd=0.02 -f "$src/tests/calib/noise.awk" \
			"$name.sim" >"$name-$t.txt"
	done
}

# check WHAT COMMAND...: a named check.
check() {
	local what=$1
	shift
	if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; failed=$((failed + 1)); fi
}

# within A B TOLERANCE: |A - B| <= TOLERANCE x |B|.
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b; exit !(d <= t * b) }'; }
# le A B: A <= B.
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# value FILE SECTION.KEY: the number of a key in a system file written by calibrate.
value() {
	awk -v s="${2%%.*}" -v k="${2#*.}" '/^\[/ { gsub(/[][ ]/, ""); sec = $0; next }
		sec == s && $1 == k { print $3 + 0; exit }' "$1"
}

# case_ NAME STATUS TEXT COMMAND...: an error case: COMMAND exits with STATUS, its
# stderr holds TEXT, and it leaves no output folder (out) or temporary folder behind.
case_() {
	local name=$1 want=$2 text=$3 rc
	shift 3
	total=$((${total:-0} + 1))
	"$@" >stdout.txt 2>stderr.txt
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: $name: exit status $rc, expected $want"; sed 's/^/  /' stderr.txt | head -5; failed=$((failed + 1))
	elif ! grep -qF -- "$text" stderr.txt; then
		echo "FAIL: $name: stderr lacks: $text"; sed 's/^/  /' stderr.txt | head -5; failed=$((failed + 1))
	elif [ -e out ] || ls -d .ncsim-tmp-* >/dev/null 2>&1; then
		echo "FAIL: $name: an output folder was left behind"; failed=$((failed + 1))
	else
		echo "PASS: $name"
	fi
	rm -rf out
}

# bench/lib/verdict.sh - sourced by bench/*.sh: says MET or MISSED for each
# figure against its target, and makes the bench exit 1 if any was missed.
#
#   bench_target WHAT VALUE OP LIMIT [UNIT]
#       prints "  WHAT: VALUE UNIT (target OP LIMIT UNIT) MET" or "... MISSED";
#       OP is <=, <, >=, > or ==. A VALUE that is not a number (the bench did not
#       produce the figure) is MISSED.
#   bench_end NAME
#       prints "NAME: MET (N targets)" or "NAME: MISSED (K of N targets)" and
#       exits 1 after a miss, 0 otherwise.
bench_targets=0
bench_missed=0

bench_target() {
	bench_targets=$((bench_targets + 1))
	if awk -v v="$2" -v op="$3" -v l="$4" 'BEGIN {
		if (v !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) exit 1
		v += 0; l += 0
		if (op == "<=") exit !(v <= l)
		if (op == "<") exit !(v < l)
		if (op == ">=") exit !(v >= l)
		if (op == ">") exit !(v > l)
		if (op == "==") exit !(v == l)
		exit 1 }'; then
		b_verdict=MET
	else
		b_verdict=MISSED
		bench_missed=$((bench_missed + 1))
	fi
	echo "  $1: ${2:-(none)}${5:+ $5} (target $3 $4${5:+ $5}) $b_verdict"
}

bench_end() {
	if [ "$bench_targets" -eq 0 ]; then
		echo "$1: MISSED (no target was checked)"
		exit 1
	fi
	if [ "$bench_missed" -gt 0 ]; then
		echo "$1: MISSED ($bench_missed of $bench_targets target$([ "$bench_targets" -eq 1 ] || echo s))"
		exit 1
	fi
	echo "$1: MET ($bench_targets target$([ "$bench_targets" -eq 1 ] || echo s))"
	exit 0
}

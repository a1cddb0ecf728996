#!/bin/sh
# tests/e2e/engines_same.sh - the two engines agree: every e2e program
# (tests/e2e/progs/NAME.ncptl with the tasks, args, options and input of its
# .expect), every bundled workload skeleton (stdlib/workloads, with the
# first `run` line of its tests/e2e/workloads .expect) and the examples run
# under `--engine compiled` and `--engine direct`, and their outputs must be
# byte-identical: exit status, stdout, stderr, tasks.csv, links.csv, every
# other CSV, summary.json and the logs, after removing what differs between
# any two runs (wall and CPU time, dates, the run's unique id, memory use,
# the --engine word of the command line). With NCPTL_CORPUS set, the corpus
# programs of corpus-args.txt are compared too.
#
# Usage: engines_same.sh [NAME...]  (NCSIM names the binary; default ./ncsim)
# Exit status: 0 if every pair agreed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$(pwd)/ncsim}
case $ncsim in /*) ;; *) ncsim=$(pwd)/$ncsim ;; esac
progs=$srcdir/tests/e2e/progs
system=$srcdir/tests/e2e/e2e-system.conf
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-engines.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME
failed=0
compared=0

# normalize FILE: what may differ between two runs of the same engine, removed.
normalize() {
	sed -e '/^# Unique execution identifier:/d' -e '/^# Log creation time:/d' -e '/^# Log completion time:/d' \
		-e '/^# Elapsed time:/d' -e '/^# Process CPU usage/d' -e '/^# Number of page faults/d' \
		-e '/^# Peak memory allocation/d' -e 's/--engine [a-z]*/--engine E/g' \
		-e 's/^    "compiled",$/    "E",/' -e 's/^    "direct",$/    "E",/' \
		-e '/wall time/d' -e '/"wall_s"/d' "$1"
}

# run ENGINE LABEL DIR CMD...: one run in DIR with the output folder $work/out (moved to $work/LABEL.ENGINE).
run() {
	r_engine=$1 r_label=$2 r_dir=$3
	shift 3
	r_file=$1
	shift
	rm -rf "$work/out"
	(cd "$r_dir" && $ncsim run "$r_file" --engine "$r_engine" --out "$work/out" "$@") >"$work/$r_label.$r_engine.stdout" \
		2>"$work/$r_label.$r_engine.stderr"
	echo $? >"$work/$r_label.$r_engine.rc"
	rm -rf "$work/$r_label.$r_engine"
	[ -d "$work/out" ] && mv "$work/out" "$work/$r_label.$r_engine"
	return 0
}

# compare LABEL: the two runs' outputs, normalized, file by file.
compare() {
	c_a=$work/$1.compiled c_b=$work/$1.direct c_bad=
	compared=$((compared + 1))
	for f in rc stdout stderr; do
		normalize "$c_a.$f" | sed "s|$work/out|OUT|g" >"$work/a"
		normalize "$c_b.$f" | sed "s|$work/out|OUT|g" >"$work/b"
		cmp -s "$work/a" "$work/b" || c_bad="$c_bad $f"
	done
	if [ -d "$c_a" ] || [ -d "$c_b" ]; then
		for f in $( (cd "$c_a" 2>/dev/null && find . -type f; cd "$c_b" 2>/dev/null && find . -type f) | sort -u); do
			if [ ! -f "$c_a/$f" ] || [ ! -f "$c_b/$f" ]; then
				c_bad="$c_bad $f(missing)"
				continue
			fi
			normalize "$c_a/$f" >"$work/a"
			normalize "$c_b/$f" >"$work/b"
			cmp -s "$work/a" "$work/b" || c_bad="$c_bad $f"
		done
	fi
	if [ -n "$c_bad" ]; then
		echo "FAIL: $1: the engines differ in$c_bad"
		for f in rc stdout stderr; do
			normalize "$c_a.$f" >"$work/a"
			normalize "$c_b.$f" >"$work/b"
			cmp -s "$work/a" "$work/b" || diff "$work/a" "$work/b" | head -8 | sed 's/^/  /'
		done
		failed=1
	fi
}

both() { # both LABEL DIR CMD...
	b_label=$1 b_dir=$2
	shift 2
	run compiled "$b_label" "$b_dir" "$@"
	run direct "$b_label" "$b_dir" "$@"
	compare "$b_label"
}

if [ $# -eq 0 ]; then
	set -- $(cd "$progs" && ls *.expect | sed 's/\.expect$//')
	all=1
fi

# The e2e programs, as run-e2e.sh runs them.
for name in "$@"; do
	e=$progs/$name.expect
	[ -f "$e" ] || continue
	tasks=$(sed -n 's/^tasks //p' "$e" | tail -1)
	args=$(sed -n 's/^args //p' "$e" | tail -1)
	input=$(sed -n 's/^input //p' "$e" | tail -1)
	opts=$(sed -n 's/^options //p' "$e" | tail -1)
	in=${input:-$name.ncptl}
	case $in in *.c) continue ;; esac  # a C skeleton has one engine
	both "$name" "$progs" "$in" -n "${tasks:-2}" --system "$system" --no-wall-time $opts -- $args
done

if [ -n "$all" ]; then
	# The bundled workloads with the arguments of their first e2e run (tests/e2e/workloads/NAME.expect).
	for w in "$srcdir"/stdlib/workloads/*.ncptl; do
		name=$(basename "$w" .ncptl)
		line=$(sed -n 's/^run //p' "$srcdir/tests/e2e/workloads/$name.expect" 2>/dev/null | head -1)
		[ -n "$line" ] || line="df-tiny 4"
		set -- $line
		sys=$1 n=$2
		shift 2
		both "wl-$name" "$work" "$w" -n "$n" --system "$sys" --no-wall-time -- "$@"
	done
	# Constructs no e2e program has: processor assignment, random tasks and draws, memory touching,
	# timed loops with warmups, logs of aggregates; DCNW, FLOWS and HOROVOD traffic.
	cat >"$work/misc.ncptl" <<'EOT'
All tasks t are assigned to processor (t + 1) mod num_tasks then
task 2 is assigned to a random processor then
all tasks t output "t " and t and " p " and processor_of(t) and " q " and task_of(t) then
let r be a random task other than 0 and s be a random task in [1, 2] but not 2 while
  all tasks output r and " " and s then
all tasks t asynchronously send a 1K byte message to task (t + 2) mod num_tasks then
all tasks await completion then
all tasks touch a 1M byte memory region 3 times with stride 64 bytes then
all tasks touch 100 doublewords of a 4K byte memory region then
all tasks touch a 1M byte memory region with random stride then
all tasks output random_poisson(10) and " " and random_pareto(2, 3) and " " and random_pareto(2, 3, 9) then
for 10 microseconds plus 5 warmup microseconds and a synchronization {
  all tasks t asynchronously send a 64 byte message to task (t + 1) mod num_tasks then
  all tasks await completion
} then
for 10 microseconds all tasks compute for 1 microsecond then
task 0 logs elapsed_usecs as "t" and the mean of 3.5 as "m" and the 50 percentile of num_tasks as "p"
EOT
	cat >"$work/traffic.ncptl" <<'EOT'
All tasks generate 40 messages of web_search traffic at 2.5 gbps then
tasks t such that t < 3 generate 20 messages of web_search traffic to gaussian with mean 1 and deviation 0.5 destinations then
all tasks generate 10 flows over 20 microseconds to uniform destinations with classes {1 to 4 kilobytes for 50 percent, 8 to 16 kilobytes for 50 percent to poisson with mean 2 destinations} then
all tasks train with horovod for 2 batches of 3 layers with compute 10 microseconds, negotiation loop 5 microseconds, gatherv 100 bytes, gatherv total 1000 bytes, gatherv probability 0.5, broadcast 1024 bytes, allreduce 4096 bytes and layer 1 with compute 20 microseconds
EOT
	both misc "$work" misc.ncptl -n 4 --system df-tiny --no-wall-time
	both traffic "$work" traffic.ncptl -n 4 --system df-tiny --no-wall-time
	# A workload file of three bundled skeletons sharing df-tiny (its .ncptl jobs go through --engine too).
	printf '%s\n' '8 milc --iters 2 --msgsize 4096 --p0 2 --p1 2 --p2 2 --p3 1' '8 halo3d' '4 checkpoint @ 10us' \
		>"$work/jobs.wkld"
	both wkld-mixed "$work" jobs.wkld --system df-tiny --no-wall-time
	# The examples: every .ncptl under examples/ on 4 tasks of df-tiny with its defaults.
	for x in $(cd "$srcdir/examples" && find . -name '*.ncptl' | sort); do
		both "ex-$(echo "$x" | tr '/.' '__')" "$srcdir/examples/$(dirname "$x")" "$(basename "$x")" -n 4 \
			--system df-tiny --no-wall-time
	done
	# The corpus, with the arguments of corpus-args.txt.
	if [ -n "$NCPTL_CORPUS" ]; then
		# Read from a file, not a pipe, so that the loop runs in this shell and counts.
		grep -v '^#' "$srcdir/tests/e2e/corpus-args.txt" >"$work/corpus-args"
		while read -r prog tasks args; do
			[ -n "$prog" ] || continue
			echo "corpus $prog: -n $tasks $args"
			both "corpus-$prog" "$work" "$NCPTL_CORPUS/$prog.ncptl" -n "$tasks" --no-wall-time -- $args
		done <"$work/corpus-args"
	fi
fi
echo "engines_same: $compared programs run under both engines"
exit "$failed"

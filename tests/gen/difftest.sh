#!/bin/sh
# tests/gen/difftest.sh - the random differential tester: programs from
# tests/gen/gen_prog run under `ncsim run --engine compiled` and
# `--engine direct` with several argument sets each (task counts 2..8 and
# the programs' parameters --p1..--p3; the compiled program is built once
# and its cache entry serves every set), and every output must be
# byte-identical: exit status, stdout, stderr, summary.json, tasks.csv,
# links.csv and the logs, after removing what differs between any two runs
# (wall and CPU time, dates, the unique run id, memory use, the command line).
# The ncsim runs are most of the cost: all the argument sets of a program run
# first, then one awk (same_runs) compares them all with the normalization
# applied in it; only a set it finds different goes through the sed
# normalization and diff (differs), which decides and keeps the case.
#
# On a difference the case is kept in OUT/cases/seed-S and reduced: ddmin
# over the program's statement nodes (gen_prog --drop) finds a smallest
# program that still differs in the same file; it and the differing lines
# are printed.
#
# Usage: difftest.sh [--count N] [--start S] [--jobs J] [--argsets K]
#                    [--out DIR] [--stmts N] [--no-reduce] [--validate] [--gen-opt OPT] [--fast-cc]
#   With no option (make check): 120 programs of up to 6 top-level statements,
#   one argument set each (about 50 s on two cores), in a
#   temporary folder; skipped (77) by an ncsim without --engine.
#   --out DIR keeps the work there and makes the run resumable: seeds go in
#   chunks of 20, a finished chunk is recorded in DIR/done and skipped by
#   the next run with the same DIR.
#   --validate runs the compiled engine only and requires exit status 0
#   except for programs with a deliberate error (gen_prog's check of itself).
#   --gen-opt OPT passes OPT to gen_prog (e.g. --flat-ranges, --errors 0).
#   --fast-cc builds the compiled engine's skeletons at -O0 (NCSIM_CC is a
#   wrapper in the work folder that appends -O0 to ${CC:-cc}): about 5 times
#   faster to compile, and the same results, since the generated C fixes its
#   order of evaluation (tests/gen/cc_order.sh checks -O0 against -O2).
# Environment: NCSIM (default ./ncsim), GEN_PROG (default ./tests/gen/gen_prog).
# Exit status: 0 if no difference was found, 1 otherwise, 2 on a usage error.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$(pwd)/ncsim}
genprog=${GEN_PROG:-$(pwd)/tests/gen/gen_prog}
case $ncsim in /*) ;; *) ncsim=$(pwd)/$ncsim ;; esac
case $genprog in /*) ;; *) genprog=$(pwd)/$genprog ;; esac
system=$srcdir/tests/e2e/e2e-system.conf
# Without it every run would fail the same way under both engines and count as agreeing.
[ -f "$system" ] || { echo "FAIL: no system file $system (set NCSIM_SRCDIR to the source tree)"; exit 1; }
count=120 start=1 jobs=2 argsets=1 out= stmts=6 reduce=1 validate=0 chunk=20 genopts= fastcc=0

while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift ;;
	--start) start=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--argsets) argsets=$2; shift ;;
	--out) out=$2; shift ;;
	--stmts) stmts=$2; shift ;;
	--no-reduce) reduce=0 ;;
	--validate) validate=1 ;;
	--gen-opt) genopts="$genopts $2"; shift ;;
	--fast-cc) fastcc=1 ;;
	*) echo "usage: difftest.sh [--count N] [--start S] [--jobs J] [--argsets K] [--out DIR] [--stmts N] [--no-reduce] [--validate] [--gen-opt OPT] [--fast-cc]" >&2
	   exit 2 ;;
	esac
	[ $# -gt 0 ] && shift
done
[ -x "$genprog" ] || { echo "FAIL: no generator $genprog (make check builds it)"; exit 1; }
if [ "$validate" = 0 ] && ! "$ncsim" run --help 2>&1 | grep -q -- '--engine'; then
	echo "this ncsim has no --engine option: skipped"
	exit 77
fi
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-difftest.XXXXXX") || exit 1
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/claims" "$out/done" "$out/cases" || exit 2
out=$(cd "$out" && pwd)
: "${XDG_CACHE_HOME:=$out/cache}"
export XDG_CACHE_HOME
if [ "$fastcc" = 1 ]; then
	# the last -O wins; the build cache keys entries by the compiler command too
	printf '#!/bin/sh\nexec %s "$@" -O0\n' "${CC:-cc}" >"$out/cc-O0" && chmod +x "$out/cc-O0" || exit 2
	NCSIM_CC=$out/cc-O0
	export NCSIM_CC
fi
data=$out/data.txt
"$genprog" --write-data "$data" || exit 2
# The generator itself: every operator, built-in and statement kind appears in 1000 programs.
if ! "$genprog" --seed 1 --coverage 1000 --data "$data" >"$out/coverage.txt"; then
	echo "FAIL: gen_prog leaves features out:"
	grep '^ *0 ' "$out/coverage.txt"
	exit 1
fi

# normalize FILE: what differs between any two runs (of one engine or both) removed.
normalize() {
	sed -e '/^# Unique execution identifier:/d' -e '/^# Log creation time:/d' -e '/^# Log completion time:/d' \
		-e '/^# Elapsed time:/d' -e '/^# Process CPU usage/d' -e '/^# Number of page faults/d' \
		-e '/^# Peak memory allocation/d' -e '/^# Command line:/d' -e '/^# _:/d' \
		-e '/"command_line": \[/,/\]/d' -e '/wall time/d' -e '/"wall_s"/d' \
		-e '/output folder:/d' -e "s|$out/||g" "$1"
}

# argset SEED I: the task count and program options of argument set I of SEED.
argset() {
	awk -v s="$1" -v i="$2" 'BEGIN {
		h = (s * 7919 + i * 104729) % 1000003
		printf "-n %d -- --p1=%d --p2=%d --p3=%d", 2 + h % 7, int(h / 7) % 10, int(h / 70) % 10, int(h / 700) % 10
	}'
}

# argset_sh SEED I: sets args to argset SEED I without a process (shell arithmetic, the same numbers).
argset_sh() {
	a_h=$((($1 * 7919 + $2 * 104729) % 1000003))
	args="-n $((2 + a_h % 7)) -- --p1=$((a_h / 7 % 10)) --p2=$((a_h / 70 % 10)) --p3=$((a_h / 700 % 10))"
}

# run_engine ENGINE PROG DIR ARGS...: one run; DIR gets rc, stdout, stderr and the output folder o/.
run_engine() {
	r_engine=$1 r_prog=$2 r_dir=$3
	shift 3
	rm -rf "$r_dir"
	mkdir -p "$r_dir"
	if [ "$r_engine" = any ]; then
		set -- "$r_prog" --system "$system" --no-wall-time --no-progress --out "$r_dir/o" "$@"
	else
		set -- "$r_prog" --engine "$r_engine" --system "$system" --no-wall-time --no-progress --out "$r_dir/o" "$@"
	fi
	"$ncsim" run "$@" >"$r_dir/stdout" 2>"$r_dir/stderr" </dev/null
	echo $? >"$r_dir/rc"
}

# flatten DIR: one normalized text of a run, section by section (=== NAME).
flatten() {
	for f in rc stdout stderr; do
		echo "=== $f"
		normalize "$1/$f"
	done
	[ -d "$1/o" ] || return 0
	(cd "$1/o" && find . -type f | sort) | while read -r f; do
		echo "=== $f"
		normalize "$1/o/$f"
	done
}

# differs DIR_A DIR_B: 0 if the runs differ; writes DIR_A/../diff (first differing section and lines).
differs() {
	flatten "$1" >"$1.flat"
	flatten "$2" >"$2.flat"
	cmp -s "$1.flat" "$2.flat" && return 1
	diff "$1.flat" "$2.flat" >"$1.diff"
	# the section of the first differing line
	d_line=$(sed -n '1s/^\([0-9]*\).*/\1/p' "$1.diff")
	head -n "$d_line" "$1.flat" | grep '^=== ' | tail -1 | sed 's/^=== //' >"$1.section"
	return 0
}

# bad_alone DIR PROG: 0 if one compiled run is wrong (validate mode): a crash,
# an internal error, or a failure of a program without a deliberate error.
bad_alone() {
	b_rc=$(cat "$1/rc")
	[ "$b_rc" -ge 3 ] && return 0
	grep -q 'internal error' "$1/stderr" && return 0
	[ "$b_rc" -ne 0 ] && ! grep -q '^# deliberate error' "$2" && return 0
	return 1
}

# check PROG ARGS...: 0 if PROG shows a problem with these arguments ($work/a, $work/b hold the runs).
check() {
	c_prog=$1
	shift
	if [ "$validate" = 1 ]; then
		run_engine any "$c_prog" "$work/a" "$@"
		echo "exit $(cat "$work/a/rc")" >"$work/a.section"
		bad_alone "$work/a" "$c_prog"
		return
	fi
	run_engine compiled "$c_prog" "$work/a" "$@"
	run_engine direct "$c_prog" "$work/b" "$@"
	differs "$work/a" "$work/b"
}

# same_problem PROG ARGS...: the problem reproduces, in the same section as the original one.
same_problem() {
	check "$@" || return 1
	cmp -s "$work/a.section" "$cdir/section"
}

# reduce SEED ARGS...: ddmin over the statement nodes; writes $cdir/min.ncptl.
reduce() {
	r_seed=$1
	shift
	r_n=$("$genprog" $genopts --seed "$r_seed" --stmts "$stmts" --data "$data" --nodes)
	keep=$(seq 0 $((r_n - 1)) | tr '\n' ' ')
	granularity=2
	tests=0
	while :; do
		len=$(echo $keep | wc -w)
		[ "$len" -le 1 ] && break
		[ "$granularity" -gt "$len" ] && granularity=$len
		found=
		i=0
		# complements first: dropping one part is the usual way a program shrinks
		while [ $i -lt "$granularity" ] && [ -z "$found" ]; do
			cand=$(echo $keep | awk -v n="$granularity" -v i="$i" '{ for (k = 1; k <= NF; k++) if (int((k - 1) * n / NF) != i) printf "%s ", $k }')
			if try_keep "$r_seed" "$r_n" "$cand" "$@"; then
				keep=$cand
				found=1
				[ "$granularity" -gt 2 ] && granularity=$((granularity - 1))
			fi
			i=$((i + 1))
		done
		[ -n "$found" ] && continue
		[ "$granularity" -ge "$len" ] && break
		granularity=$((granularity * 2))
	done
	drop_list "$r_n" "$keep" >"$cdir/min.drop"
	"$genprog" $genopts --seed "$r_seed" --stmts "$stmts" --data "$data" --drop "$(cat "$cdir/min.drop")" >"$cdir/min.ncptl"
	simplify "$@"
	echo "$tests" >"$cdir/min.tests"
}

# replace_group FILE K: FILE with its K-th parenthesized group (outside strings) replaced by 1.
replace_group() {
	awk -v k="$2" 'BEGIN { RS = "\001"; ORS = "" } {
		n = length($0); instr = 0; depth = 0; seen = 0; from = 0
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (instr) { if (c == "\\") i++; else if (c == "\"") instr = 0; continue }
			if (c == "\"") { instr = 1; continue }
			if (c == "(") { depth++; if (++seen == k) { from = i; target = depth } }
			else if (c == ")") { if (from && depth == target) { print substr($0, 1, from - 1) "1" substr($0, i + 1); exit } depth-- }
		}
		print $0
	}' "$1"
}

# simplify ARGS...: replaces parenthesized groups of $cdir/min.ncptl by 1 while the program stays valid and the problem stays.
simplify() {
	k=1
	while [ "$k" -le 400 ]; do
		replace_group "$cdir/min.ncptl" "$k" >"$work/simp.ncptl"
		cmp -s "$work/simp.ncptl" "$cdir/min.ncptl" && break
		tests=$((tests + 1))
		if "$ncsim" check "$work/simp.ncptl" >/dev/null 2>&1 && same_problem "$work/simp.ncptl" "$@"; then
			cp "$work/simp.ncptl" "$cdir/min.ncptl"
		else
			k=$((k + 1))
		fi
	done
}

# drop_list N "KEPT": the node numbers in 0..N-1 not kept, comma-separated (or -1: none).
drop_list() {
	echo "$2" | awk -v n="$1" '{ for (k = 1; k <= NF; k++) kept[$k] = 1 }
		END { s = ""; for (i = 0; i < n; i++) if (!(i in kept)) s = s (s == "" ? "" : ",") i; print (s == "" ? "1000000" : s) }'
}

# try_keep SEED N "KEPT" ARGS...: 0 if the program with only KEPT nodes still shows the problem.
try_keep() {
	t_seed=$1 t_n=$2 t_keep=$3
	shift 3
	tests=$((tests + 1))
	"$genprog" $genopts --seed "$t_seed" --stmts "$stmts" --data "$data" --drop "$(drop_list "$t_n" "$t_keep")" >"$work/try.ncptl"
	same_problem "$work/try.ncptl" "$@"
}

# report_case SEED ARGS...: keeps the case, reduces it and prints it.
report_case() {
	p_seed=$1
	shift
	cdir=$out/cases/seed-$p_seed
	rm -rf "$cdir"
	mkdir -p "$cdir"
	cp "$work/p.ncptl" "$cdir/program.ncptl"
	echo "$*" >"$cdir/args"
	if [ "$validate" = 1 ]; then
		cp "$work/a/stderr" "$cdir/stderr"
		cp "$work/a.section" "$cdir/section"
	else
		cp "$work/a.diff" "$cdir/diff"
		cp "$work/a.section" "$cdir/section"
	fi
	if [ "$reduce" = 1 ]; then
		reduce "$p_seed" "$@"
		check "$cdir/min.ncptl" "$@"
		if [ "$validate" = 1 ]; then
			cp "$work/a/stderr" "$cdir/min.stderr"
		else
			cp "$work/a.diff" "$cdir/min.diff"
		fi
	fi
	{
		echo "DIFFERENCE: seed $p_seed, ncsim run PROG --system e2e-system.conf $*: in $(cat "$cdir/section")"
		if [ -f "$cdir/min.ncptl" ]; then
			echo "  smallest program ($(grep -vc '^#' "$cdir/min.ncptl") lines, $(cat "$cdir/min.tests") reduction runs): $cdir/min.ncptl"
			grep -v '^#' "$cdir/min.ncptl" | sed 's/^/    /'
			echo "  differing lines:"
			head -20 "$cdir/min.diff" "$cdir/min.stderr" 2>/dev/null | sed 's/^/    /'
		else
			head -20 "$cdir/diff" "$cdir/stderr" 2>/dev/null | sed 's/^/    /'
		fi
	} | tee "$cdir/report.txt"
}

# same_runs LIST: 0 if every pair of runs in LIST (lines "K<tab>DIR_A<tab>DIR_B")
# is identical after normalize, else prints the first K that is not. One
# awk reads every file of every run of a program: the same texts flatten
# compares (rc, stdout, stderr and each file of o/, normalized as normalize
# does), without a process per file.
same_runs() {
	awk -v out="$out/" -v list="$1" '
	# norm(F, WHO): F as normalize leaves it (its sed script, rule by rule
	# in the same order). A file holding \001 reads as several records: it
	# is made unequal to everything (WHO differs), so differs decides.
	function norm(f, who,   rec, all, nrec, nl, line, s, inrange, i, k, n, kept) {
		all = ""; nrec = 0; RS = "\001"
		while ((getline rec < f) > 0) { all = all rec; nrec++ }
		close(f); RS = "\n"
		if (nrec > 1) return "\001" who
		nl = split(all, L, "\n")
		# a final newline leaves an empty last piece; without one, sed writes the last line bare
		eol = nl > 0 && L[nl] == ""
		if (eol) nl--
		s = ""; inrange = 0; n = length(out); kept = 0
		for (k = 1; k <= nl; k++) {
			line = L[k]; kept = 0
			if (line ~ /^# (Unique execution identifier:|Log creation time:|Log completion time:|Elapsed time:|Process CPU usage|Number of page faults|Peak memory allocation|Command line:|_:)/) continue
			if (inrange) { if (line ~ /\]/) inrange = 0; continue }
			if (line ~ /"command_line": \[/) { inrange = 1; continue }
			if (line ~ /wall time|"wall_s"|output folder:/) continue
			while ((i = index(line, out)) > 0)
				line = substr(line, 1, i - 1) substr(line, i + n)
			s = s line "\n"; kept = 1
		}
		if (kept && !eol) s = s "\001noeol"
		return s
	}
	# every file under a run folder: its run folder (from LIST) and its name there
	{ path[NR] = $0 }
	END {
		np = 0
		while ((getline line < list) > 0) { split(line, w, "\t"); np++; pk[np] = w[1]; pa[np] = w[2]; pb[np] = w[3] }
		for (r = 1; r <= NR; r++)
			for (p = 1; p <= np; p++) {
				if (index(path[r], pa[p] "/") == 1) { side = "a"; d = pa[p] } else if (index(path[r], pb[p] "/") == 1) { side = "b"; d = pb[p] } else continue
				name = substr(path[r], length(d) + 2)
				text[p, side, name] = norm(path[r], side)
				names[p, name] = 1
			}
		for (p = 1; p <= np; p++)
			for (key in names) {
				split(key, kk, SUBSEP)
				if (kk[1] != p) continue
				name = kk[2]
				if (!((p, "a", name) in text) || !((p, "b", name) in text) || text[p, "a", name] != text[p, "b", name]) { print pk[p]; exit 1 }
			}
	}'
}

# one_seed SEED: generates the program, runs its argument sets; prints DIFF lines.
# Every set runs under both engines into $work/r first (a process per run,
# not a dozen), then same_runs compares them all; a difference goes the way
# of check (differs, report_case) from the first differing set.
one_seed() {
	s=$1
	programs=$((programs + 1))
	if ! "$genprog" $genopts --seed "$s" --stmts "$stmts" --data "$data" >"$work/p.ncptl"; then
		echo "FAIL: gen_prog --seed $s failed"
		diffs=$((diffs + 1))
		return
	fi
	if [ "$validate" = 1 ]; then
		one_seed_alone
		return
	fi
	deliberate=0
	grep -q '^# deliberate error' "$work/p.ncptl" && deliberate=1
	rm -rf "$work/r"
	k=1
	set --
	while [ "$k" -le "$argsets" ]; do
		set -- "$@" "$work/r/a$k" "$work/r/b$k"
		k=$((k + 1))
	done
	mkdir -p "$@"
	: >"$work/list"
	k=1
	while [ "$k" -le "$argsets" ]; do
		argset_sh "$s" "$k"
		for e in compiled direct; do
			d=$work/r/b$k
			[ "$e" = compiled ] && d=$work/r/a$k
			"$ncsim" run "$work/p.ncptl" --engine "$e" --system "$system" --no-wall-time --no-progress --out "$d/o" $args \
				>"$d/stdout" 2>"$d/stderr" </dev/null
			echo $? >"$d/rc"
		done
		printf '%s\t%s\t%s\n' "$k" "$work/r/a$k" "$work/r/b$k" >>"$work/list"
		k=$((k + 1))
	done
	bad=$(find "$work/r" -type f | same_runs "$work/list")
	k=1
	while [ "$k" -le "$argsets" ]; do
		runs=$((runs + 1))
		if [ "$k" = "$bad" ]; then
			rm -rf "$work/a" "$work/b"
			mv "$work/r/a$k" "$work/a" && mv "$work/r/b$k" "$work/b" || exit 2
			if differs "$work/a" "$work/b"; then
				diffs=$((diffs + 1))
				report_case "$s" $(argset "$s" "$k")
				return
			fi
			echo "NOTE: seed $s argument set $k: same_runs saw a difference that differs does not" >&2
		fi
		read -r rc 2>/dev/null <"$work/r/a$k/rc" || rc=$(cat "$work/a/rc")
		[ "$deliberate" = 1 ] && [ "$rc" != 0 ] && errors=$((errors + 1))
		k=$((k + 1))
	done
}

# one_seed_alone: the argument sets of $work/p.ncptl in validate mode.
one_seed_alone() {
	k=1
	while [ "$k" -le "$argsets" ]; do
		runs=$((runs + 1))
		if check "$work/p.ncptl" $(argset "$s" "$k"); then
			diffs=$((diffs + 1))
			report_case "$s" $(argset "$s" "$k")
			return
		fi
		grep -q '^# deliberate error' "$work/p.ncptl" && [ "$(cat "$work/a/rc")" != 0 ] && errors=$((errors + 1))
		k=$((k + 1))
	done
}

# worker ID: claims chunks of seeds until none is left.
worker() {
	work=$out/work.$1
	mkdir -p "$work"
	c=$(( (start - 1) / chunk ))
	last=$(( (start + count - 2) / chunk ))
	while [ "$c" -le "$last" ]; do
		if [ ! -f "$out/done/$c" ] && mkdir "$out/claims/$c" 2>/dev/null; then
			runs=0 diffs=0 errors=0 programs=0
			s=$((c * chunk + 1))
			while [ "$s" -le $(( (c + 1) * chunk )) ]; do
				if [ "$s" -ge "$start" ] && [ "$s" -lt $((start + count)) ]; then
					one_seed "$s"
				fi
				s=$((s + 1))
			done
			echo "$programs $runs $diffs $errors" >"$out/done/$c"
		fi
		c=$((c + 1))
	done
}

# A claim without its done file was interrupted: run it again.
for d in "$out"/claims/*; do
	[ -d "$d" ] && [ ! -f "$out/done/$(basename "$d")" ] && rmdir "$d"
done
j=1
while [ "$j" -le "$jobs" ]; do
	worker "$j" &
	j=$((j + 1))
done
wait
cat "$out"/done/* 2>/dev/null | awk -v v="$validate" '
	{ p += $1; r += $2; d += $3; e += $4 }
	END { printf "%d programs, %d runs (%s), %d with a difference, %d runs ending in a deliberate error\n",
	      p, r, v ? "compiled engine only" : "each under both engines", d, e; exit d > 0 }'

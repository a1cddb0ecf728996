# tests/par/lib.sh - sourced by the parallel-kernel tests: a scratch folder, the
# MPI checks (status 77 only when ncsim was built without MPI or has no Open MPI
# mpirun to start it), and `ranks K CMD...`, CMD started by mpirun over K ranks.
src=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${NCSIM_BUILDDIR:-$(pwd)}
ncsim=${NCSIM:-$build/ncsim}
if ! grep -q '^#define NCSIM_HAVE_MPI 1' "$build/config.h" 2>/dev/null; then
	echo "SKIP: ncsim was built without MPI (configure --with-mpi needs Open MPI: apt-get install libopenmpi-dev)"
	exit 77
fi
if ! command -v mpirun >/dev/null 2>&1 || ! mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
	echo "SKIP: no Open MPI mpirun on the PATH (apt-get install openmpi-bin)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-partest.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
# Open MPI refuses to start as root unless told twice; these reach only this test's processes.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Up to 4 ranks on 2 cores: a rank that waits for the others gives its core up rather than spinning.
export OMPI_MCA_mpi_yield_when_idle=1
# Under ASan, LeakSanitizer would report Open MPI's own allocations at exit.
export LSAN_OPTIONS="suppressions=$src/tests/calib/lsan-mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 300"
failed=0

# ranks K CMD...: CMD over K ranks (a rank stuck in a collective fails after 300 s).
ranks() {
	local k=$1
	shift
	$limit mpirun --oversubscribe -np "$k" "$@"
}

# check WHAT COMMAND...: a named check.
check() {
	local what=$1
	shift
	if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; failed=$((failed + 1)); fi
}

# normalize FILE: what differs between any two runs removed.
normalize() {
	sed -e '/^# Unique execution identifier:/d' -e '/^# Log creation time:/d' -e '/^# Log completion time:/d' \
		-e '/^# Elapsed time:/d' -e '/^# Process CPU usage/d' -e '/^# Number of page faults/d' \
		-e '/^# Peak memory allocation/d' -e '/^# Command line:/d' -e '/"command_line": \[/,/\]/d' \
		-e "s|$work/[a-z0-9.-]*||g" "$1"
}

# flat DIR: one normalized text of a run (status, stdout, every file of its folder).
flat() {
	echo "=== status $(cat "$1.rc")"
	cat "$1.out"
	[ -d "$1" ] || return 0
	(cd "$1" && find . -type f | sort) | while read -r f; do
		echo "=== $f"
		normalize "$1/$f"
	done
}

# same NAME PROG ARGS...: the sequential run of PROG (on $system, else $sys), then -np 1..4
# (RANKS overrides the list), compared.
same() {
	local name=$1 prog=$2
	shift 2
	local run="run $prog --system ${system:-$sys} --no-wall-time --no-progress"
	"$ncsim" $run --out "$name-seq" "$@" >"$name-seq.out" 2>"$name-seq.err"
	echo $? >"$name-seq.rc"
	flat "$name-seq" >"$name-seq.flat"
	for k in ${RANKS:-1 2 3 4}; do
		ranks "$k" "$ncsim" $run --out "$name-np$k" "$@" >"$name-np$k.out" 2>"$name-np$k.err"
		echo $? >"$name-np$k.rc"
		flat "$name-np$k" >"$name-np$k.flat"
		if cmp -s "$name-seq.flat" "$name-np$k.flat"; then
			echo "PASS: $name -np $k: the sequential run's outputs"
		else
			echo "FAIL: $name -np $k: the outputs differ from the sequential run's:"
			diff "$name-seq.flat" "$name-np$k.flat" | head -20
			failed=$((failed + 1))
		fi
	done
}

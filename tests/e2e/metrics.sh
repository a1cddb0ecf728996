#!/bin/sh
# metrics.sh - the per-job latency distributions (summary.json latency_ps)
# and the active I/O time (tasks.csv io_active_ps) against hand-derived values.
#
# 1. MPI: task 0 sends three 1000-byte messages to task 1 on an analytic
#    network of 1 us latency and 1 GB/s at both ports. Each is an eager
#    message of 1064 bytes with its 64-byte header: 1.064 us at a port. All
#    three are posted at time 0 (a small send completes at once), so they
#    queue at the injection port and arrive 1 us + 1.064 us apart after each
#    other: latencies 2.064, 3.128 and 4.192 us. Exact: count, min, max and
#    mean (3.128 us); the quartiles come from the histogram, within 1/32.
# 2. I/O: task 0 starts two asynchronous reads at once, computes 100 ms and
#    waits; task 1 does one blocking read. Task 0's active I/O time is the
#    union of its two requests, i.e. the longer one's latency (the job's
#    latency_ps.io.max when that is task 0's), and it waits for none of it
#    (io_ps = 0, the reads end before the compute); a blocking read is all
#    exposed: task 1's io_active_ps equals its io_ps.
# 3. --message-log: the run of 1. writes messages.csv with one row per
#    message, job 0 from rank 0 to rank 1, 1000 bytes, posted at 0 and
#    arrived at 2.064, 3.128 and 4.192 us; with --message-log-max 2 the file
#    keeps the first 2 rows and the run says it left 1 out.
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/metrics.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
export XDG_CACHE_HOME="$tmp/cache"

# The value of key $2 in latency_ps.$1 of the first job of summary.json $3.
lat() {
	tr -d ' \n' < "$3" | grep -o '"latency_ps":{"mpi":{[^}]*},"io":{[^}]*}}' | head -n 1 |
		sed -n "s/.*\"$1\":{\\([^}]*\\)}.*/\\1/p" | tr ',' '\n' | sed -n "s/^\"$2\"://p"
}

printf '[network]\nmodel = analytic\nlatency = 1 us\nbandwidth = 1 GB/s\ninjection_bandwidth = 1 GB/s\n' \
	> "$tmp/sys.conf"
echo 'task 0 sends 3 1000 byte messages to task 1' > "$tmp/lat.ncptl"
if "$NCSIM" run "$tmp/lat.ncptl" -n 2 --system "$tmp/sys.conf" --out "$tmp/l" --no-progress 2> "$tmp/l.err"; then
	s=$tmp/l/summary.json
	[ "$(lat mpi count "$s")" = 3 ] || fail "mpi count $(lat mpi count "$s"), want 3"
	[ "$(lat mpi min "$s")" = 2064000 ] || fail "mpi min $(lat mpi min "$s"), want 2064000"
	[ "$(lat mpi max "$s")" = 4192000 ] || fail "mpi max $(lat mpi max "$s"), want 4192000"
	awk -v m="$(lat mpi mean "$s")" 'BEGIN { exit !(m == 3128000) }' || fail "mpi mean $(lat mpi mean "$s"), want 3128000"
	for q in q1:2064000 median:3128000 q3:4192000; do
		v=$(lat mpi "${q%%:*}" "$s")
		awk -v v="$v" -v w="${q#*:}" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(d <= w / 32) }' ||
			fail "mpi ${q%%:*} $v, want ${q#*:} within 1/32"
	done
	[ "$(lat io count "$s")" = 0 ] || fail "io count $(lat io count "$s"), want 0"
else
	fail "lat.ncptl: $(cat "$tmp/l.err")"
fi
if "$NCSIM" run "$tmp/lat.ncptl" -n 2 --system "$tmp/sys.conf" --out "$tmp/m" --no-progress --message-log \
	2> "$tmp/m.err"; then
	printf '%s\n' 'job,src,dst,tag,bytes,send_ps,arrive_ps' '0,0,1,0,1000,0,2064000' '0,0,1,0,1000,0,3128000' \
		'0,0,1,0,1000,0,4192000' > "$tmp/m.want"
	cmp -s "$tmp/m.want" "$tmp/m/messages.csv" || fail "messages.csv: $(tr '\n' ' ' < "$tmp/m/messages.csv")"
else
	fail "lat.ncptl --message-log: $(cat "$tmp/m.err")"
fi
if "$NCSIM" run "$tmp/lat.ncptl" -n 2 --system "$tmp/sys.conf" --out "$tmp/m2" --no-progress --message-log \
	--message-log-max 2 2> "$tmp/m2.err"; then
	[ "$(wc -l < "$tmp/m2/messages.csv")" -eq 3 ] || fail "--message-log-max 2: $(wc -l < "$tmp/m2/messages.csv") lines"
	grep -q 'first 2 of 3 messages' "$tmp/m2.err" || fail "--message-log-max 2 does not say what it left out"
else
	fail "lat.ncptl --message-log-max 2: $(cat "$tmp/m2.err")"
fi

cat > "$tmp/io.ncptl" <<'PROG'
task 0 opens file 1 for reading then
task 0 asynchronously reads 1 megabyte from file 1 then
task 0 asynchronously reads 2 megabytes from file 1 then
task 0 computes for 100 milliseconds then
task 0 awaits completion then
task 1 opens file 1 for reading then
task 1 reads 3 megabytes from file 1
PROG
if "$NCSIM" run "$tmp/io.ncptl" -n 2 --system df-tiny --out "$tmp/i" --no-progress 2> "$tmp/i.err"; then
	s=$tmp/i/summary.json
	[ "$(lat io count "$s")" = 3 ] || fail "io count $(lat io count "$s"), want 3"
	awk -F, -v max="$(lat io max "$s")" -v fails=0 '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["rank"] == 0 && !($col["io_ps"] == 0 && $col["io_active_ps"] > 0) { print "FAIL: task 0: io_ps " $col["io_ps"] ", io_active_ps " $col["io_active_ps"]; fails++ }
		$col["rank"] == 0 { a0 = $col["io_active_ps"] }
		$col["rank"] == 1 && !($col["io_active_ps"] == $col["io_ps"] && $col["io_ps"] > 0) { print "FAIL: task 1: io_active_ps " $col["io_active_ps"] " != io_ps " $col["io_ps"]; fails++ }
		$col["rank"] == 1 { a1 = $col["io_active_ps"] }
		END {
			want = a0 > a1 ? a0 : a1 # the longest request is task 0 s 2 MiB read or task 1 s 3 MiB one
			if (max != want) { print "FAIL: io max " max ", want " want; fails++ }
			exit fails > 0
		}' "$tmp/i/tasks.csv" || fails=$((fails + 1))
else
	fail "io.ncptl: $(cat "$tmp/i.err")"
fi

[ $fails -eq 0 ] && echo "metrics: all checks passed"
exit $((fails > 0))

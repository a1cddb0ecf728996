#!/bin/sh
# job_totals.sh - per-job statistics of a multi-job run add up to the
# machine's totals (issue 7, acceptance 2).
#
# A 3-job workload (milc, cosmoflow, checkpoint: MPI point-to-point,
# collectives and burst-buffer I/O) runs on df-tiny, then each job runs alone
# with the same options. Checked:
#   1. every job's bytes_sent / msgs_sent in summary.json equal the sums of
#      its rows in tasks.csv;
#   2. over all jobs, bytes and messages sent equal bytes and messages
#      received, and the MPI messages equal the network's `mpi` messages
#      (no job sends to itself);
#   3. the network's `mpi` bytes exceed the bytes sent by a whole number of
#      headers (small messages carry their 64-byte header with the data);
#   4. I/O: the tasks' io_bytes_written sum to the burst buffers'
#      bytes_written and io_bytes_read to bytes_read - drained (storage.csv);
#   5. per traffic class (mpi, ctrl, io), the network's messages and bytes of
#      the 3-job run equal the sums over the jobs run alone, and every job's
#      figures are the same alone and together (sharing the machine changes
#      times, never volumes);
#   6. the same seed gives byte-identical tasks.csv, links.csv, storage.csv
#      and summary.json.
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jobtotals.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# 16 milc tasks form a 2x2x2x2 grid (no self-messages); 8-byte allreduces are
# small messages, the 16 KiB halos medium ones, cosmoflow's ring chunks
# (256 KiB / 8) large ones.
job1='16 milc --iters 3 --msgsize 16K --compute 100 --config 256K'
job2='8 cosmoflow --reps 2 --batch 512K --compute 1 --grad 256K'
job3='8 checkpoint --count 2 --period 1 --total 16M'
printf '%s\n%s\n%s\n' "$job1" "$job2" "$job3" > "$tmp/all.wkld"
echo "$job1" > "$tmp/solo1.wkld"
echo "$job2" > "$tmp/solo2.wkld"
echo "$job3" > "$tmp/solo3.wkld"

run() { # name
	out="$tmp/$1"
	if ! "$NCSIM" run "$tmp/$1.wkld" --system df-tiny --placement random-node --seed 5 --no-wall-time \
		--no-progress --out "$out" > "$out.stdout" 2> "$out.stderr"; then
		fail "ncsim run $1.wkld failed:"
		cat "$out.stderr"
		return 1
	fi
	grep -q '"status": "ok"' "$out/summary.json" || { fail "$1: status not ok"; return 1; }
}

# The same output path twice: summary.json records the command line.
run all || exit 1
mv "$tmp/all" "$tmp/all.first"
run all || exit 1
for s in 1 2 3; do run solo$s || exit 1; done

# summary.json -> "job NAME KEY VALUE" and "net CLASS KEY VALUE" lines.
flat() {
	awk '
	/"jobs": *\[/ { injobs = 1; next }
	injobs && /^  \]/ { injobs = 0 }
	injobs && /"name":/ { gsub(/[",]/, "", $2); name = $2 }
	injobs && /"(bytes_sent|msgs_sent)":/ { k = $1; gsub(/[":]/, "", k); v = $2; gsub(/,/, "", v); print "job", name, k, v }
	/"network_totals": *\{/ { innet = 1; next }
	innet && /^  \}/ { innet = 0 }
	innet && /": *\{/ { c = $1; gsub(/[":]/, "", c) }
	innet && /"(msgs|bytes)":/ { k = $1; gsub(/[":]/, "", k); v = $2; gsub(/,/, "", v); print "net", c, k, v }
	' "$1/summary.json"
}
for r in all solo1 solo2 solo3; do flat "$tmp/$r" > "$tmp/$r.flat"; done

# tasks.csv -> per job sums "JOB bytes_sent msgs_sent bytes_received msgs_received io_read io_written".
sums() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ j = $col["job"]; jobs[j] = 1
	  bs[j] += $col["bytes_sent"]; ms[j] += $col["msgs_sent"]
	  br[j] += $col["bytes_received"]; mr[j] += $col["msgs_received"]
	  ir[j] += $col["io_bytes_read"]; iw[j] += $col["io_bytes_written"] }
	END { for (j in jobs) printf "%s %.0f %.0f %.0f %.0f %.0f %.0f\n", j, bs[j], ms[j], br[j], mr[j], ir[j], iw[j] }
	' "$1/tasks.csv" | sort
}
for r in all solo1 solo2 solo3; do sums "$tmp/$r" > "$tmp/$r.sums"; done

val() { # file kind name key
	awk -v k="$2" -v n="$3" -v key="$4" '$1 == k && $2 == n && $3 == key { print $4; f = 1 } END { if (!f) print "missing" }' "$1"
}

# 1. summary.json per job = tasks.csv sums.
while read -r j bs ms br mr ir iw; do
	[ "$(val "$tmp/all.flat" job "$j" bytes_sent)" = "$bs" ] || fail "$j: summary bytes_sent $(val "$tmp/all.flat" job "$j" bytes_sent) != tasks.csv sum $bs"
	[ "$(val "$tmp/all.flat" job "$j" msgs_sent)" = "$ms" ] || fail "$j: summary msgs_sent $(val "$tmp/all.flat" job "$j" msgs_sent) != tasks.csv sum $ms"
done < "$tmp/all.sums"
[ "$(wc -l < "$tmp/all.sums")" -eq 3 ] || fail "tasks.csv has $(wc -l < "$tmp/all.sums") jobs, expected 3"

# 2-4. totals over the jobs against the machine.
set -- $(awk '{ for (i = 2; i <= 7; i++) s[i] += $i } END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", s[2], s[3], s[4], s[5], s[6], s[7] }' "$tmp/all.sums")
bs=$1 ms=$2 br=$3 mr=$4 ir=$5 iw=$6
[ "$bs" = "$br" ] || fail "bytes sent $bs != bytes received $br"
[ "$ms" = "$mr" ] || fail "messages sent $ms != messages received $mr"
net_mpi_msgs=$(val "$tmp/all.flat" net mpi msgs)
net_mpi_bytes=$(val "$tmp/all.flat" net mpi bytes)
[ "$net_mpi_msgs" = "$ms" ] || fail "network mpi messages $net_mpi_msgs != messages sent by the jobs $ms"
extra=$(awk -v n="$net_mpi_bytes" -v s="$bs" 'BEGIN { d = n - s; print (d >= 0 && d % 64 == 0) ? "ok" : d }')
[ "$extra" = ok ] || fail "network mpi bytes $net_mpi_bytes - bytes sent $bs = $extra, not a whole number of 64-byte headers"
set -- $(awk -F, 'NR > 1 { r += $8; w += $9; d += $11 } END { printf "%.0f %.0f\n", r - d, w }' "$tmp/all/storage.csv")
[ "$1" = "$ir" ] || fail "storage bytes_read - drained $1 != tasks' io_bytes_read $ir"
[ "$2" = "$iw" ] || fail "storage bytes_written $2 != tasks' io_bytes_written $iw"
[ "$iw" -gt 0 ] && [ "$ir" -gt 0 ] || fail "the workload did no I/O (read $ir, written $iw)"

# 5. together = sum of alone, per class and per job.
for c in mpi ctrl io; do
	for k in msgs bytes; do
		a=$(val "$tmp/all.flat" net "$c" "$k")
		s=0
		for r in solo1 solo2 solo3; do
			v=$(val "$tmp/$r.flat" net "$c" "$k")
			[ "$v" = missing ] && v=0
			s=$((s + v))
		done
		[ "$a" = "$s" ] || fail "network $c $k: $a with all jobs, $s summed over the jobs alone"
	done
done
cat "$tmp/solo1.sums" "$tmp/solo2.sums" "$tmp/solo3.sums" | sort > "$tmp/solo.sums"
cmp -s "$tmp/solo.sums" "$tmp/all.sums" || {
	fail "per-job volumes differ between the jobs alone and together:"
	diff "$tmp/solo.sums" "$tmp/all.sums"
}

# 6. determinism.
for f in tasks.csv links.csv storage.csv summary.json; do
	cmp -s "$tmp/all/$f" "$tmp/all.first/$f" || fail "$f differs between two runs with the same seed"
done

echo "job totals: 3 jobs, $ms messages, $bs bytes sent, $iw bytes written, $ir bytes read; $fails failure(s)"
[ "$fails" -eq 0 ]

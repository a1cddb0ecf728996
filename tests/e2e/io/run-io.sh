#!/bin/sh
# tests/e2e/io/run-io.sh - end-to-end tests of file I/O and the storage models
# (LANGUAGE.md 14.2, doc/storage.md) on the real `ncsim run` path.
#
#   A. compute-side, built-in default machine: 30 tasks write 1 GB each
#      (per-task I/O time, bytes into the burst-buffer nodes, conservation)
#   B. the same program with node-local burst buffers: no I/O byte on the network
#   C. contention: two jobs sharing one burst buffer vs one job alone (.wkld)
#   D. storage-side: requests below the threshold go to the SSD, the others to
#      the disk (io.csv)
#   E. determinism: same seed -> byte-identical outputs; another seed changes io.csv
#   F. language semantics: sequential offsets per task and file, AT OFFSET,
#      reopening, asynchronous READS with AWAITS COMPLETION, counters,
#      run-time errors
#
# The figures are derived by hand in the comments from the device presets
# (stdlib/systems/storage-presets.conf) and the storage manager's protocol
# (doc/storage.md). Lines starting with "NUMBER:" report measured figures.
#
# io.csv comes from `ncsim run --io-log`.
#
# Usage: run-io.sh   (NCSIM names the binary, NCSIM_SRCDIR/NCSIM_BUILDDIR the trees)
# Exit status: 0 if every check passed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$srcdir/tests/e2e/check.sh"
io=$srcdir/tests/e2e/io
local_sys=$srcdir/stdlib/systems/df-small-local.conf
side_sys=$srcdir/stdlib/systems/df-small-storage-side.conf
# awk over a CSV file with columns by name: csv FILE 'PROGRAM' (c["name"] is the column number).
csv() {
	c_file=$1
	shift
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $*" "$c_file"
}
# true if |a - b| <= tol
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
# true if lo <= x <= hi
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
# Value of column NAME in the data row of a task's log file.
logval() {
	grep -v '^#' "$1" | awk -F, -v n="\"$2\"" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) k = i }
		NR == 3 && k { print $k }'
}
json_has() { tr -d ' \t\n' <"$1" | grep -qF -- "$2"; }
same() { cmp -s "$1" "$2"; }
# calc EXPR: the value of an awk expression, with two decimals.
calc() { awk "BEGIN { printf \"%.2f\", ($1) }"; }

# SSD service times of the d3-s4510 preset (Yoo et al., doc/storage.md), in us:
# page 16 KiB, rho = channels x ways = 32, W_ch 42.29, W_page 72.61, R_ch 37.76,
# R_page 112.28; T_wait = max(0, W_page - W_ch rho) = 0, so
#   T_w(B) = 42.29 (N_page - 1) + 72.61,  T_r(B) = 37.76 (N_page - 1) + 112.28.
# ssd_busy BYTES BLOCK: device busy time (us) to write BYTES in BLOCK-byte
# blocks and read every block back once for the drain.
ssd_busy() {
	awk -v b="$1" -v blk="$2" 'function np(x) { return int((x + 16383) / 16384) }
		function tw(x) { return 42.29 * (np(x) - 1) + 72.61 }
		function tr(x) { return 37.76 * (np(x) - 1) + 112.28 }
		BEGIN { n = int(b / blk); r = b - n * blk; t = n * (tw(blk) + tr(blk));
		        if (r > 0) t += tw(r) + tr(r); printf "%.2f\n", t }'
}

# io.csv runner: iorun PROGRAM OUTDIR [options as for ncsim run, --system FILE] [-- program options]
iorun() {
	i_prog=$1
	i_out=$2
	shift 2
	"$ncsim" run "$i_prog" --io-log --no-wall-time --out "$i_out" "$@"
}

##############################################################################
# A. Compute-side burst buffers, built-in default machine, 30 tasks x 1 GB.
#
# The default machine (runtime/task/driver.c) is a 9 x 4 x 2 dragonfly whose
# first node of every group (0, 8, ..., 64) is a d3-s4510 burst buffer; tasks
# run on the other nodes in order, so the 30 tasks sit on nodes 1-7, 9-15,
# 17-23, 25-31, 33-34 and each writes to the burst buffer of its group:
# 7, 7, 7, 7 and 2 clients on nodes 0, 8, 16, 24, 32; none on 40..64.
#
# Device time: 10^9 B = 953 blocks of 1 MiB + one of 707072 B (44 pages).
#   1 MiB: T_w = 42.29 x 63 + 72.61 = 2736.88 us, T_r (drain) = 2491.16 us
#   707072 B: T_w = 42.29 x 43 + 72.61 = 1891.08 us, T_r = 1735.96 us
#   per task: 953 x 5228.04 + 3627.04 = 4985949.16 us of device time
#   7 clients: 34901644.12 us; 2 clients: 9971898.32 us.
# The device serves the writes and the drain reads first come first served,
# and every client keeps 4 blocks in its queue, so the clients of one burst
# buffer progress together: each one's I/O time lies between 95% and 100% of
# its device's busy time (the drain of the last blocks ends after the acks).
#
# Network bytes (control messages are 64 B; doc/storage.md, The storage manager):
#   client -> BB: a request header + 954 blocks = 10^9 + 64 B per client
#   BB -> client: 954 RDMA read requests + 1 ack = 955 x 64 = 61120 B per client
#   terminal link into BB b: k_b x (10^9 + 64) B; all 30: 30000001920 B
#   class io in summary.json: 30 x (10^9 + 956 x 64) = 30001835520 B in
#   30 x (1 + 954 + 954 + 1) = 57300 messages.
##############################################################################
echo "== A. compute-side: 30 tasks x 1 GB on the built-in default machine"
cs=$work/cs
mkdir -p "$work/run-a1" "$work/run-a2"
(cd "$work/run-a1" && "$ncsim" run "$io/iowrite.ncptl" -n 30 --seed 1 --no-wall-time --out out) \
	>"$work/cs.out" 2>"$work/cs.err"
rc=$?
ln -s "$work/run-a1/out" "$cs"
check "A: run exits 0 (rc=$rc)" [ "$rc" -eq 0 ]
check "A: summary status ok (sto_check and the network check passed)" json_has "$cs/summary.json" '"status":"ok"'
check "A: 30 task rows" [ "$(csv "$cs/tasks.csv" 'END { print NR - 1 }')" -eq 30 ]
check "A: no task on a burst-buffer node (node % 8 == 0)" \
	[ "$(csv "$cs/tasks.csv" '$c["node"] % 8 == 0 { n++ } END { print n + 0 }')" -eq 0 ]
check "A: every task wrote 10^9 bytes and read none (tasks.csv)" \
	[ "$(csv "$cs/tasks.csv" '$c["io_bytes_written"] != 1000000000 || $c["io_bytes_read"] != 0 { n++ } END { print n + 0 }')" -eq 0 ]
check "A: each task's time is all I/O time (io_ps == end_ps > 0)" \
	[ "$(csv "$cs/tasks.csv" '$c["io_ps"] != $c["end_ps"] || $c["io_ps"] <= 0 { n++ } END { print n + 0 }')" -eq 0 ]
# Clients per burst buffer, from the tasks' nodes.
clients=$(csv "$cs/tasks.csv" '{ k[int($c["node"] / 8) * 8]++ } END { for (b = 0; b <= 64; b += 8) printf "%d ", k[b] }')
check "A: clients per burst buffer 0..64 are 7 7 7 7 2 0 0 0 0 (got $clients)" [ "$clients" = "7 7 7 7 2 0 0 0 0 " ]
per_task=$(ssd_busy 1000000000 1048576)
check "A: device time per 1 GB task is 4985949.16 us (got $per_task)" [ "$per_task" = "4985949.16" ]
for b in 0 8 16 24 32; do
	k=7
	[ "$b" -eq 32 ] && k=2
	busy=$(csv "$cs/storage.csv" '$c["node"] == '$b' { print $c["busy_us"] }')
	check "A: BB $b busy_us = $k x $per_task (got $busy)" near "$busy" "$(calc "$k * $per_task")" 0.01
	check "A: BB $b stored = drained = bytes_written = $k x 10^9, used 0" \
		[ "$(csv "$cs/storage.csv" '$c["node"] == '$b' && $c["stored"] == '$k'e9 && $c["bytes_written"] == $c["stored"] && $c["drained"] == $c["stored"] && $c["used"] == 0 { print "ok" }')" = ok ]
	tb=$(csv "$cs/links.csv" '$c["kind"] == "terminal" && $c["peer"] == '$b' { print $c["bytes"] }')
	check "A: bytes on the terminal link into BB $b = $k x (10^9 + 64) (got $tb)" [ "$tb" = "$((k * 1000000064))" ]
	ib=$(csv "$cs/links.csv" '$c["kind"] == "injection" && $c["peer"] == '$b' { print $c["bytes"] }')
	check "A: BB $b injects $k x 955 x 64 B of RDMA read requests and acks (got $ib)" [ "$ib" = "$((k * 955 * 64))" ]
	# Every client of this burst buffer: I/O time within [0.95, 1] x its busy time.
	range=$(csv "$cs/tasks.csv" 'int($c["node"] / 8) * 8 == '$b' { t = $c["io_ps"] / 1e6; if (!n++ || t < lo) lo = t; if (t > hi) hi = t } END { printf "%.3f %.3f", lo, hi }')
	check "A: I/O time of BB $b's clients ($range us) within [0.95, 1] x $k x $per_task us" \
		within "${range% *}" "$(calc "0.95 * $k * $per_task")" "$(calc "$k * $per_task")"
	check "A: max I/O time of BB $b's clients >= 0.98 x busy" \
		within "${range#* }" "$(calc "0.98 * $k * $per_task")" "$(calc "$k * $per_task")"
	echo "NUMBER: compute-side BB node $b: $k clients, per-task I/O time min/max $range us, terminal link bytes $tb"
done
check "A: BB nodes 40..64 stored nothing" \
	[ "$(csv "$cs/storage.csv" '$c["node"] >= 40 && $c["stored"] != 0 { n++ } END { print n + 0 }')" -eq 0 ]
bbsum=$(csv "$cs/links.csv" '$c["kind"] == "terminal" && $c["peer"] % 8 == 0 { s += $c["bytes"] } END { printf "%.0f", s }')
check "A: bytes into all BB nodes = 30 x (10^9 + 64) = 30000001920 (got $bbsum)" [ "$bbsum" = 30000001920 ]
check "A: every client injects 10^9 + 64 B" \
	[ "$(csv "$cs/links.csv" '$c["kind"] == "injection" && $c["peer"] % 8 != 0 && $c["peer"] <= 34 && $c["bytes"] != 1000000064 { n++ } END { print n + 0 }')" -eq 0 ]
# Conservation: client bytes (tasks.csv) = device bytes written = stored = link payload.
wr=$(csv "$cs/tasks.csv" '{ s += $c["io_bytes_written"] } END { printf "%.0f", s }')
st=$(csv "$cs/storage.csv" '{ s += $c["stored"] } END { printf "%.0f", s }')
dw=$(csv "$cs/storage.csv" '{ s += $c["bytes_written"] } END { printf "%.0f", s }')
check "A: bytes written by clients ($wr) = bytes stored ($st) = device bytes written ($dw) = 3 x 10^10" \
	[ "$wr.$st.$dw" = 30000000000.30000000000.30000000000 ]
check "A: link payload into the BB nodes = client bytes (30000001920 - 30 x 64)" [ $((bbsum - 30 * 64)) = "$wr" ]
check "A: space ledger used = stored - drained on every device" \
	[ "$(csv "$cs/storage.csv" '$c["used"] != $c["stored"] - $c["drained"] { n++ } END { print n + 0 }')" -eq 0 ]
check "A: summary.json io class: 57300 messages, 30001835520 bytes" \
	json_has "$cs/summary.json" '"io":{"msgs":57300,"bytes":30001835520}'
# The program's own counters (log files): bytes_written, and io_usecs = io_ps / 10^6
# (to within 1 us: the counter may be printed as whole microseconds).
bad_logs=0
r=0
while [ $r -lt 30 ]; do
	io_ps=$(csv "$cs/tasks.csv" '$c["rank"] == '$r' { print $c["io_ps"] }')
	l=$cs/logs/iowrite-$r.log
	[ "$(logval "$l" bytes_written)" = 1000000000 ] && [ "$(logval "$l" bytes_read)" = 0 ] &&
		near "$(logval "$l" io_usecs)" "$(calc "$io_ps / 1e6")" 1 ||
		bad_logs=$((bad_logs + 1))
	r=$((r + 1))
done
check "A: logged bytes_written = 10^9, bytes_read = 0, io_usecs = tasks.csv io_ps for all 30 tasks" [ "$bad_logs" -eq 0 ]
cs_mean=$(csv "$cs/tasks.csv" '{ s += $c["io_ps"] } END { printf "%.3f", s / (NR - 1) / 1e6 }')
cs_end=$(csv "$cs/tasks.csv" '{ if ($c["end_ps"] > m) m = $c["end_ps"] } END { printf "%.3f", m / 1e6 }')
echo "NUMBER: compute-side 30 x 1 GB: mean per-task I/O time $cs_mean us, last task ends at $cs_end us"
echo "NUMBER: compute-side bytes into BB nodes: $bbsum (payload $wr + 30 request headers)"

##############################################################################
# B. The same program with node-local burst buffers (df-small-local.conf: the
# default machine with [storage] config = local). Tasks run on nodes 0-29,
# each writes to its own SSD: no byte on any link, no io traffic class, and
# each task's I/O time is its own device's busy time, 4985949.16 us minus the
# drain reads of the last blocks (so within [0.99, 1] x busy).
##############################################################################
echo "== B. local burst buffers: the same 30 tasks x 1 GB"
lo=$work/local
"$ncsim" run "$io/iowrite.ncptl" -n 30 --system df-small-local --seed 1 --no-wall-time --out "$lo" \
	>"$work/local.out" 2>"$work/local.err"
rc=$?
check "B: run exits 0 (rc=$rc)" [ "$rc" -eq 0 ]
check "B: summary status ok" json_has "$lo/summary.json" '"status":"ok"'
check "B: no system-file warning" eval '! grep -q "unknown key" "$work/local.err"'
lbytes=$(csv "$lo/links.csv" '{ s += $c["bytes"] } END { printf "%.0f", s }')
check "B: zero bytes on every link (sum of links.csv bytes = $lbytes)" [ "$lbytes" = 0 ]
check "B: no network traffic class in summary.json" json_has "$lo/summary.json" '"network_totals":{}'
check "B: every task wrote 10^9 bytes" \
	[ "$(csv "$lo/tasks.csv" '$c["io_bytes_written"] != 1000000000 { n++ } END { print n + 0 }')" -eq 0 ]
check "B: 30 devices stored 10^9 bytes each, on the tasks' own nodes 0-29" \
	[ "$(csv "$lo/storage.csv" '$c["stored"] == 1e9 && $c["node"] < 30 && $c["drained"] == 1e9 { n++ } END { print n + 0 }')" -eq 30 ]
check "B: the other devices stored nothing" \
	[ "$(csv "$lo/storage.csv" '$c["node"] >= 30 && $c["stored"] != 0 { n++ } END { print n + 0 }')" -eq 0 ]
lrange=$(csv "$lo/tasks.csv" '{ t = $c["io_ps"] / 1e6; if (!n++ || t < lo) lo = t; if (t > hi) hi = t } END { printf "%.3f %.3f", lo, hi }')
check "B: per-task I/O time ($lrange us) within [0.99, 1] x $per_task us" \
	within "${lrange% *}" "$(calc "0.99 * $per_task")" "$per_task"
check "B: max per-task I/O time <= $per_task us" within "${lrange#* }" 0 "$per_task"
echo "NUMBER: local 30 x 1 GB: network bytes $lbytes, per-task I/O time min/max $lrange us"

##############################################################################
# C. Contention (.wkld, --alloc). A 200 MB task is 190 blocks of 1 MiB + one
# of 770560 B (48 pages: T_w = 42.29 x 47 + 72.61 = 2060.24, T_r = 1887.00):
# 190 x 5228.04 + 3947.24 = 997274.84 us of device time. Alone, job 1's 3
# tasks keep burst buffer 0 busy 2991824.52 us; with job 2 on the same burst
# buffer it serves 6 tasks, 5983649.04 us, so job 1 takes about twice as
# long (the SSD is the bottleneck: 16 GiB/s links carry 380 MB/s). With job
# 2 on group 1's burst buffer (node 8), job 1's time does not change.
##############################################################################
echo "== C. contention: two jobs on one burst buffer vs one job alone"
"$ncsim" run "$io/contention-alone.wkld" --alloc "$io/contention-alone.alloc" --no-wall-time \
	--out "$work/alone" >"$work/alone.out" 2>&1
check "C: alone run exits 0" [ $? -eq 0 ]
"$ncsim" run "$io/contention-pair.wkld" --alloc "$io/contention-shared.alloc" --no-wall-time \
	--out "$work/shared" >"$work/shared.out" 2>&1
check "C: shared run exits 0" [ $? -eq 0 ]
"$ncsim" run "$io/contention-pair.wkld" --alloc "$io/contention-apart.alloc" --no-wall-time \
	--out "$work/apart" >"$work/apart.out" 2>&1
check "C: apart run exits 0" [ $? -eq 0 ]
task200=$(ssd_busy 200000000 1048576)
check "C: device time per 200 MB task is 997274.84 us (got $task200)" [ "$task200" = 997274.84 ]
b_alone=$(csv "$work/alone/storage.csv" '$c["node"] == 0 { print $c["busy_us"] }')
b_shared=$(csv "$work/shared/storage.csv" '$c["node"] == 0 { print $c["busy_us"] }')
check "C: BB 0 busy alone = 3 x 997274.84 us (got $b_alone)" near "$b_alone" 2991824.52 0.01
check "C: BB 0 busy shared = 6 x 997274.84 us (got $b_shared)" near "$b_shared" 5983649.04 0.01
check "C: apart: BB 0 and BB 8 each stored 6 x 10^8 bytes" \
	[ "$(csv "$work/apart/storage.csv" '($c["node"] == 0 || $c["node"] == 8) && $c["stored"] == 6e8 { n++ } END { print n + 0 }')" -eq 2 ]
# End of job 1 (the job placed on nodes 1-3 in every run).
job_end() { csv "$1/tasks.csv" '$c["job"] == "'"$2"'" { if ($c["end_ps"] > m) m = $c["end_ps"] } END { printf "%.0f", m }'; }
t_alone=$(job_end "$work/alone" iowrite)
t_shared=$(job_end "$work/shared" iowrite.1)
t_shared2=$(job_end "$work/shared" iowrite.2)
t_apart=$(job_end "$work/apart" iowrite.1)
ratio=$(awk -v a="$t_shared" -v b="$t_alone" 'BEGIN { printf "%.4f", a / b }')
ratio_apart=$(awk -v a="$t_apart" -v b="$t_alone" 'BEGIN { printf "%.4f", a / b }')
check "C: sharing a burst buffer slows job 1 down by 1.8-2.05x (ratio $ratio)" within "$ratio" 1.8 2.05
check "C: both sharing jobs take as long (job 2 / job 1 within 1%)" \
	within "$(awk -v a="$t_shared2" -v b="$t_shared" 'BEGIN { print a / b }')" 0.99 1.01
check "C: a second job on another burst buffer does not slow job 1 (ratio $ratio_apart)" within "$ratio_apart" 0.99 1.01
echo "NUMBER: contention: job 1 alone $(awk -v t="$t_alone" 'BEGIN { printf "%.3f", t / 1e6 }') us," \
	"sharing BB 0 $(awk -v t="$t_shared" 'BEGIN { printf "%.3f", t / 1e6 }') us (ratio $ratio)," \
	"other BB $(awk -v t="$t_apart" 'BEGIN { printf "%.3f", t / 1e6 }') us (ratio $ratio_apart)"

##############################################################################
# D. Storage-side (df-small-storage-side.conf: I/O servers on nodes 70 and
# 71, threshold 64 KiB). split.ncptl: each of 4 tasks (nodes 0-3) writes and
# reads back records of 512, 4096, 65535 B (below 65536: SSD) and 65536,
# 65537, 1 MiB, 4 MiB (disk). Client c uses server 70 + c % 2.
#   io.csv: 4 x 14 = 56 requests, 4 x 6 = 24 on the SSD, 4 x 8 = 32 on the disk
#   per server: SSD stored 2 x (512 + 4096 + 65535) = 140286 B, all drained;
#   disk stored 2 x (65536 + 65537 + 1048576 + 4194304) = 10747906 B, not drained
##############################################################################
echo "== D. storage-side: SSD below the threshold, disk above"
mkdir -p "$work/run-d1" "$work/run-d2" "$work/run-d3"
(cd "$work/run-d1" && iorun "$io/split.ncptl" out -n 4 --system "$side_sys" --seed 7) >"$work/side.out" 2>&1
rc=$?
sd=$work/run-d1/out
check "D: run exits 0 (rc=$rc)" [ "$rc" -eq 0 ]
check "D: summary status ok" json_has "$sd/summary.json" '"status":"ok"'
check "D: io.csv has 56 requests" [ "$(csv "$sd/io.csv" 'END { print NR - 1 }')" -eq 56 ]
misrouted=$(csv "$sd/io.csv" '($c["bytes"] < 65536) != ($c["device"] == "ssd") || ($c["device"] != "ssd" && $c["device"] != "hdd") { n++ } END { print n + 0 }')
check "D: every request below 65536 B on the SSD, every other on the disk ($misrouted misrouted)" [ "$misrouted" -eq 0 ]
n_ssd=$(csv "$sd/io.csv" '$c["device"] == "ssd" { n++ } END { print n + 0 }')
n_hdd=$(csv "$sd/io.csv" '$c["device"] == "hdd" { n++ } END { print n + 0 }')
check "D: 24 SSD requests (got $n_ssd), 32 disk requests (got $n_hdd)" [ "$n_ssd $n_hdd" = "24 32" ]
check "D: the threshold itself (65536 B) goes to the disk: 8 requests" \
	[ "$(csv "$sd/io.csv" '$c["bytes"] == 65536 && $c["device"] == "hdd" { n++ } END { print n + 0 }')" -eq 8 ]
check "D: client c uses server 70 + c % 2, every request ok" \
	[ "$(csv "$sd/io.csv" '$c["server"] != 70 + $c["client"] % 2 || $c["status"] != "ok" { n++ } END { print n + 0 }')" -eq 0 ]
check "D: SSDs stored and drained 140286 B each" \
	[ "$(csv "$sd/storage.csv" '$c["device"] == "ssd" && $c["stored"] == 140286 && $c["drained"] == 140286 && $c["used"] == 0 { n++ } END { print n + 0 }')" -eq 2 ]
check "D: disks stored 10747906 B each and keep them (no drain)" \
	[ "$(csv "$sd/storage.csv" '$c["device"] == "hdd" && $c["stored"] == 10747906 && $c["drained"] == 0 && $c["used"] == 10747906 { n++ } END { print n + 0 }')" -eq 2 ]
check "D: every task wrote and read 70143 + 5373953 = 5444096 B" \
	[ "$(csv "$sd/tasks.csv" '$c["io_bytes_written"] == 5444096 && $c["io_bytes_read"] == 5444096 { n++ } END { print n + 0 }')" -eq 4 ]
echo "NUMBER: storage-side split: $n_ssd SSD requests (< 65536 B), $n_hdd disk requests (>= 65536 B)"

##############################################################################
# E. Determinism. Same seed, another folder -> byte-identical outputs
# (summary.json too: --no-wall-time and the same relative --out). The disk's
# rotational positions come from the seed, so seed 8 must change io.csv:
# the comparison is not vacuous.
##############################################################################
echo "== E. determinism"
(cd "$work/run-a2" && "$ncsim" run "$io/iowrite.ncptl" -n 30 --seed 1 --no-wall-time --out out) >/dev/null 2>&1
for f in tasks.csv links.csv storage.csv summary.json; do
	check "E: compute-side rerun: $f byte-identical" same "$work/run-a1/out/$f" "$work/run-a2/out/$f"
done
(cd "$work/run-d2" && iorun "$io/split.ncptl" out -n 4 --system "$side_sys" --seed 7) >/dev/null 2>&1
(cd "$work/run-d3" && iorun "$io/split.ncptl" out -n 4 --system "$side_sys" --seed 8) >/dev/null 2>&1
for f in io.csv tasks.csv links.csv storage.csv summary.json; do
	check "E: storage-side rerun (seed 7): $f byte-identical" same "$work/run-d1/out/$f" "$work/run-d2/out/$f"
done
check "E: seed 8 gives another io.csv (disk rotation drawn from the seed)" \
	eval '[ -s "$work/run-d3/out/io.csv" ] && ! cmp -s "$work/run-d1/out/io.csv" "$work/run-d3/out/io.csv"'

##############################################################################
# F. Language semantics.
##############################################################################
echo "== F. semantics: offsets, AT OFFSET, reopening (io.csv)"
(cd "$work" && iorun "$io/offsets.ncptl" off -n 2 --system "$local_sys") >"$work/off.out" 2>&1
check "F: offsets run exits 0" [ $? -eq 0 ]
# client,op,file,offset,bytes of every request in submission order (tasks 0, 1 on nodes 0, 1).
got=$(csv "$work/off/io.csv" '{ print $c["id"], $c["client"], $c["op"], $c["file"], $c["offset"], $c["bytes"] }' |
	sort -n | cut -d' ' -f2- | tr '\n' ';')
want="0 write 1 0 100000;0 write 1 100000 100000;0 write 1 5000000 7;0 write 1 200000 100000;\
0 write 2 0 3000;0 write 2 3000 3000;0 read 1 300000 10;0 write 1 0 1;\
1 write 1 0 100000;1 read 0 0 2500;1 read 0 2500 2500;"
check "F: offsets per task and file, AT OFFSET leaves the offset, reopening starts at 0" [ "$got" = "$want" ]
[ "$got" = "$want" ] || printf '  got:  %s\n  want: %s\n' "$got" "$want"
check "F: task 0 logs bytes_written 306008 (3 x 100000 + 7 + 2 x 3000 + 1), bytes_read 10" \
	[ "$(logval "$work/off/logs/offsets-0.log" written) $(logval "$work/off/logs/offsets-0.log" read)" = "306008 10" ]
check "F: task 1 logs bytes_written 100000, bytes_read 5000" \
	[ "$(logval "$work/off/logs/offsets-1.log" written) $(logval "$work/off/logs/offsets-1.log" read)" = "100000 5000" ]

# Asynchronous READS (overlap.ncptl). 64 MiB from a local SSD take
# 64 x 2491.16 = 159434.24 us, so (microseconds, to within 1 us because the
# counters may be printed as whole microseconds):
#   --ms 300: async elapsed = max(300000, 159434.24) = 300000, io 0;
#             blocking elapsed = 159434.24 + 300000 = 459434.24, io 159434.24
#   --ms 100: async elapsed = max(100000, 159434.24) = 159434.24, io 59434.24;
#             blocking elapsed = 259434.24, io 159434.24
# bytes_read is 67108864 in both phases (RESETS ITS COUNTERS in between).
echo "== F. semantics: asynchronous READS overlap COMPUTES FOR"
read_us=159434.24
for ms in 300 100; do
	"$ncsim" run "$io/overlap.ncptl" -n 1 --system "$local_sys" --no-wall-time --out "$work/ov$ms" -- --ms $ms \
		>"$work/ov$ms.out" 2>&1
	check "F: overlap --ms $ms exits 0" [ $? -eq 0 ]
	l=$work/ov$ms/logs/overlap-0.log
	comp=$((ms * 1000))
	max=$(calc "$comp > $read_us ? $comp : $read_us")
	check "F: --ms $ms: blocking read blocked 159434.24 us (io_usecs $(logval "$l" block_io))" \
		near "$(logval "$l" block_io)" "$read_us" 1
	check "F: --ms $ms: async elapsed = max(compute, read) = $max (got $(logval "$l" async_elapsed))" \
		near "$(logval "$l" async_elapsed)" "$max" 1
	check "F: --ms $ms: async io_usecs = $(calc "$max - $comp") (got $(logval "$l" async_io))" \
		near "$(logval "$l" async_io)" "$(calc "$max - $comp")" 1
	check "F: --ms $ms: blocking elapsed = compute + read = $(calc "$comp + $read_us") (got $(logval "$l" block_elapsed))" \
		near "$(logval "$l" block_elapsed)" "$(calc "$comp + $read_us")" 1
	check "F: --ms $ms: bytes_read 67108864 in each phase, bytes_written 0" \
		[ "$(logval "$l" async_read) $(logval "$l" block_read) $(logval "$l" block_written)" = "67108864 67108864 0" ]
	echo "NUMBER: overlap --ms $ms: async $(logval "$l" async_elapsed) us (io $(logval "$l" async_io)), blocking $(logval "$l" block_elapsed) us"
done

# Run-time errors: exit status 1, a message naming the file and line, the
# task and the simulated time, and no output folder (doc/security.md).
echo "== F. semantics: run-time errors"
err_case() {
	e_name=$1
	e_tasks=$2
	e_want=$3
	shift 3
	"$ncsim" run "$io/$e_name.ncptl" -n "$e_tasks" --no-wall-time --out "$work/$e_name" "$@" \
		>"$work/$e_name.out" 2>"$work/$e_name.err"
	e_rc=$?
	check "F: $e_name exits 1 (rc=$e_rc)" [ "$e_rc" -eq 1 ]
	check "F: $e_name: stderr has \"$e_want\"" grep -qF -- "$e_want" "$work/$e_name.err"
	check "F: $e_name: the message starts with $e_name.ncptl:LINE:" grep -q "^$io/$e_name.ncptl:[0-9]*: " "$work/$e_name.err"
	check "F: $e_name: no output folder" [ ! -e "$work/$e_name" ]
}
err_case err-notopen 2 "Reading file 4, which is not open (task 1, line 9, time 5.000000 us)"
err_case err-closetwice 2 "Closing file 2, which is already closed (task 0, line 10, time 3.000000 us)"
err_case err-negsize 2 "-10 bytes is negative (task 0, line 8, time 7.000000 us)"
err_case err-readonly 1 "Writing file 3, which is open for reading only (task 0, line 8, time 2.000000 us)"
err_case err-nospace 1 "No space left on the storage for a write of 5000000 bytes to file 1 (task 0, line 9, time " \
	--system "$io/err-nospace.conf"

finish run-io

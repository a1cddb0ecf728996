#!/bin/sh
# links_by_class.sh - links_by_class.csv splits every link's bytes by job and
# traffic class, and the split adds up to what the jobs sent.
#
# A 3-job workload (milc: MPI point-to-point and small allreduces; cosmoflow:
# collectives; checkpoint: burst-buffer writes only) runs on df-tiny at the
# packet and at the flow level. Checked at each level:
#   1. on every link, the bytes of its rows in links_by_class.csv sum to its
#      bytes in links.csv (the split loses and invents nothing);
#   2. per class, the injection links carry exactly the network's bytes of
#      that class in summary.json (network_totals, counted per message at
#      injection, a separate path from the per-link counters);
#   3. per (job, class), the injection links and the links into the nodes
#      (terminal) carry the same bytes: every byte that left a node arrived;
#   4. per job, its MPI bytes on the injection links are its bytes_sent plus
#      a whole number of 64-byte headers (small messages carry theirs);
#   5. per job, its I/O bytes on the injection links are at least the bytes
#      it read and wrote (requests and acknowledgements come on top), and the
#      checkpoint job (index 2), which only writes, has no MPI bytes.
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/linkclass.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CACHE_HOME="$tmp/cache"
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

printf '%s\n%s\n%s\n' '16 milc --iters 3 --msgsize 16K --compute 100 --config 256K' \
	'8 cosmoflow --reps 2 --batch 512K --compute 1 --grad 256K' \
	'8 checkpoint --count 2 --period 1 --total 16M' > "$tmp/all.wkld"

check_level() { # network
	out="$tmp/$1"
	if ! "$NCSIM" run "$tmp/all.wkld" --system df-tiny --network "$1" --placement random-node --seed 3 \
		--no-wall-time --no-progress --out "$out" > "$out.log" 2>&1; then
		fail "$1: ncsim run failed"
		cat "$out.log"
		return
	fi
	[ -s "$out/links_by_class.csv" ] || { fail "$1: no links_by_class.csv"; return; }
	# 1. per link: the split sums to links.csv.
	awk -F, 'NR == FNR { if (FNR > 1) split_[$1 "," $2 "," $3] += $7; next }
		FNR > 1 { k = $1 "," $2 "," $3; if (split_[k] != $5) { print k ": " split_[k] " split, " $5 " in links.csv"; bad++ } }
		END { exit bad > 0 }' "$out/links_by_class.csv" "$out/links.csv" > "$out.c1" ||
		fail "$1: per-link split differs from links.csv: $(head -3 "$out.c1")"
	# 2. per class: injection bytes = network_totals.
	awk '/"network_totals": *\{/ { on = 1; next } on && /^  \}/ { on = 0 }
		on && /": *\{/ { c = $1; gsub(/[":]/, "", c) }
		on && /"bytes":/ { v = $2; gsub(/,/, "", v); print c, v }' "$out/summary.json" | sort > "$out.net"
	awk -F, 'FNR > 1 && $3 == "injection" { b[$6] += $7 } END { for (c in b) print c, b[c] }' \
		"$out/links_by_class.csv" | sort > "$out.inj"
	cmp -s "$out.net" "$out.inj" || fail "$1: injection bytes per class $(tr '\n' ' ' < "$out.inj")" \
		"differ from network_totals $(tr '\n' ' ' < "$out.net")"
	# 3. per (job, class): injected = delivered.
	awk -F, 'FNR > 1 && $3 == "injection" { i[$5 " " $6] += $7 } FNR > 1 && $3 == "terminal" { t[$5 " " $6] += $7 }
		END { for (k in i) if (i[k] != t[k]) { print k ": " i[k] " injected, " t[k] " delivered"; bad++ }
		      for (k in t) if (!(k in i)) { print k ": delivered, never injected"; bad++ } exit bad > 0 }' \
		"$out/links_by_class.csv" > "$out.c3" || fail "$1: $(head -3 "$out.c3")"
	# 4. and 5. per job.
	awk '/"jobs": *\[/ { on = 1; next }
		on && /"(bytes_sent|io_bytes_read|io_bytes_written)":/ { k = $1; gsub(/[":]/, "", k); v = $2; gsub(/,/, "", v); x[k] = v }
		on && /"io_bytes_written":/ { print n++, x["bytes_sent"], x["io_bytes_read"] + x["io_bytes_written"] }' \
		"$out/summary.json" > "$out.sent"
	awk -F, 'NR == FNR { sent[$1] = $2; iob[$1] = $3; next }
		FNR > 1 && $3 == "injection" { b[$5 " " $6] += $7 }
		END {
			for (j = 0; j < 3; j++) {
				m = b[j " mpi"] + 0; io = b[j " io"] + 0; d = m - sent[j]
				if (d < 0 || d % 64) { print "job " j ": " m " MPI bytes on links, " sent[j] " sent"; bad++ }
				if (io < iob[j] || iob[j] == 0) { print "job " j ": " io " I/O bytes on links, " iob[j] " read and written"; bad++ }
				if (j == 2 && m != 0) { print "checkpoint: " m " MPI bytes"; bad++ }
			}
			exit bad > 0
		}' FS=' ' "$out.sent" FS=, "$out/links_by_class.csv" > "$out.c4" || fail "$1: $(head -3 "$out.c4")"
}

check_level packet
check_level flow
[ "$fails" -eq 0 ] && echo "links_by_class: packet and flow levels add up"
exit $((fails > 0))

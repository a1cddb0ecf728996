#!/bin/sh
# skeleton_volumes.sh - every bundled skeleton (stdlib/workloads/*.ncptl) moves
# exactly the bytes and messages its header comment promises.
#
# For each tests/e2e/workloads/NAME.expect (format in that folder's README):
#   1. the defaults documented by `param` lines equal the program's --help;
#   2. each `run` line simulates the skeleton alone on a preset (df-tiny,
#      theta-1056) with `ncsim run`;
#   3. every `expect` formula holds for every task of tasks.csv, every `sum`
#      formula for the column total.
# The I/O columns bytes_read / bytes_written of the .expect files are the
# tasks.csv columns io_bytes_read / io_bytes_written, checked per task like
# the others; a column missing from tasks.csv is a failure. When the run has
# a storage.csv, its totals (bytes_written, bytes_read - drained) must also
# equal the tasks' sums.
set -u
: "${NCSIM_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"
only=${1:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skelvol.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
checks=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# awk helpers shared by every formula.
helpers='
function lg(n,   k, p) { k = 0; p = 1; while (p < n) { p *= 2; k++ } return k }
function pow2sum(m,   s, p) { s = 0; for (p = 1; p <= m; p *= 2) s += p; return s }
function npow2(m,   c, p) { c = 0; for (p = 1; p <= m; p *= 2) c++; return c }
function bino_children(v, n,   c, k, low) {
	c = 0
	low = 1; while (v > 0 && (v % (2 * low)) == 0) low *= 2
	for (k = 1; k < n; k *= 2) {
		if (v > 0 && k >= low) break
		if (v + k < n) c++
	}
	return c
}'

for exp in "$NCSIM_SRCDIR"/tests/e2e/workloads/*.expect; do
	name=$(basename "$exp" .expect)
	[ -n "$only" ] && [ "$only" != "$name" ] && continue
	skel="$NCSIM_SRCDIR/stdlib/workloads/$name.ncptl"
	if [ ! -f "$skel" ]; then
		fail "$name: no skeleton $skel"
		continue
	fi
	grep -q '^run ' "$exp" || { fail "$name: $exp has no run line"; continue; }

	# 1. documented defaults = the program's own
	help="$tmp/$name.help"
	if ! "$NCSIM" run "$skel" -- --help >"$help" 2>&1; then
		fail "$name: '$NCSIM run $skel -- --help' failed"
		sed 's/^/    /' "$help"
		continue
	fi
	grep '^param ' "$exp" | while read -r _ p def; do
		got=$(sed -n "s/.*--$p=<number>.*\[default: \([0-9-]*\)\].*/\1/p" "$help")
		if [ "$got" != "$def" ]; then
			echo "FAIL: $name: --$p defaults to '$got' in the program but '$def' in $exp"
			echo x >>"$tmp/param-fails"
		fi
	done

	# awk: parameter defaults, expectation lines
	defaults=$(awk '$1 == "param" { v = $2; gsub(/-/, "_", v); printf "%s = %s; ", v, $3 }' "$exp")
	rules=$(awk -F'=' '
		$0 ~ /^(expect|sum)[ \t]/ {
			split($1, h, /[ \t]+/)
			expr = substr($0, index($0, "=") + 1)
			sub(/#.*/, "", expr)
			printf "z_rule[%d] = \"%s\"; z_col[%d] = \"%s\"; ", n, h[1], n, h[2]
			body = body sprintf("if (k == %d) return (%s);\n", n, expr)
			n++
		}
		END { printf "z_n = %d;\n", n; print "}" ; print "function formula(k, N, r) {"; printf "%s", body; print "return 0 }" }' "$exp")

	grep '^run ' "$exp" | {
		i=0
		while read -r _ system ntasks args; do
			i=$((i + 1))
			out="$tmp/$name-$i"
			sys="$NCSIM_SRCDIR/stdlib/systems/$system.conf"
			# shellcheck disable=SC2086
			if ! "$NCSIM" run "$skel" -n "$ntasks" --system "$sys" --out "$out" --no-wall-time -- $args \
				>"$out.log" 2>&1; then
				echo "FAIL: $name on $system, $ntasks tasks ($args): ncsim run failed"
				sed 's/^/    /' "$out.log" | tail -20
				echo x >>"$tmp/run-fails"
				continue
			fi
			overrides=$(echo "$args" | awk '{ for (k = 1; k < NF; k += 2) { v = $k; sub(/^--/, "", v); gsub(/-/, "_", v); printf "%s = %s; ", v, $(k + 1) } }')
			# shellcheck disable=SC2016
			prog='BEGIN { FS = ","; '"$defaults $overrides"' N = '"$ntasks"'; '"$rules"'
'"$helpers"'
FNR == 1 && FILENAME ~ /tasks.csv$/ {
	for (c = 1; c <= NF; c++) z_idx[$c] = c
	if ("io_bytes_read" in z_idx) z_idx["bytes_read"] = z_idx["io_bytes_read"]
	if ("io_bytes_written" in z_idx) z_idx["bytes_written"] = z_idx["io_bytes_written"]
	next
}
FNR == 1 { for (c = 1; c <= NF; c++) z_sidx[$c] = c; next }
FILENAME ~ /tasks.csv$/ {
	r = $z_idx["rank"]; z_rows++
	if ("bytes_written" in z_idx) z_tw += $z_idx["bytes_written"]
	if ("bytes_read" in z_idx) z_tr += $z_idx["bytes_read"]
	for (k = 0; k < z_n; k++) {
		z_w = formula(k, N, r)
		if (z_col[k] in z_idx) {
			z_got = $z_idx[z_col[k]]
			if (z_rule[k] == "expect" && z_got != z_w) {
				printf "rank %d: %s = %s, expected %.0f\n", r, z_col[k], z_got, z_w; z_bad++
			}
			z_sum[k] += z_got
		} else {
			z_missing[z_col[k]] = 1
		}
		if (z_rule[k] == "sum") z_want[k] = z_w; else z_want[k] += z_w
	}
	next
}
{ z_storage = 1; z_sw += $z_sidx["bytes_written"]; z_sr += $z_sidx["bytes_read"] - $z_sidx["drained"] }
END {
	if (z_rows != N) { printf "tasks.csv has %d tasks, expected %d\n", z_rows, N; z_bad++ }
	for (k = 0; k < z_n; k++) {
		c = z_col[k]
		if (c in z_missing) { printf "tasks.csv has no column %s\n", c; z_bad++; continue }
		if (z_rule[k] == "sum" && z_sum[k] != z_want[k]) { printf "sum of %s = %.0f, expected %.0f\n", c, z_sum[k], z_want[k]; z_bad++ }
	}
	if (z_storage && z_sw != z_tw) { printf "storage.csv bytes_written %.0f != tasks io_bytes_written %.0f\n", z_sw, z_tw; z_bad++ }
	if (z_storage && z_sr != z_tr) { printf "storage.csv bytes_read - drained %.0f != tasks io_bytes_read %.0f\n", z_sr, z_tr; z_bad++ }
	exit z_bad > 0
}'
			files="$out/tasks.csv"
			[ -f "$out/storage.csv" ] && files="$files $out/storage.csv"
			# shellcheck disable=SC2086
			if ! awk "$prog" $files >"$out.check" 2>&1; then
				echo "FAIL: $name on $system, $ntasks tasks ($args):"
				sed 's/^/    /' "$out.check" | head -20
				echo x >>"$tmp/run-fails"
			else
				echo "ok: $name on $system, $ntasks tasks ($args)"
			fi
		done
	}
	checks=$((checks + 1))
done

[ -f "$tmp/param-fails" ] && fails=$((fails + $(wc -l <"$tmp/param-fails")))
[ -f "$tmp/run-fails" ] && fails=$((fails + $(wc -l <"$tmp/run-fails")))
[ "$checks" -gt 0 ] || fail "no skeleton checked (tests/e2e/workloads/${only:-*}.expect)"
echo "$checks skeletons checked, $fails failure(s)"
[ "$fails" -eq 0 ]

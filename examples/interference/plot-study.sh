#!/bin/sh
# plot-study.sh - the figures of one hybrid run of the full-scale study, from
# the tables run-study.sh --full (or --tables) wrote:
#
#   examples/interference/plot-study.sh OUT [SETTING [WORKLOAD]]
#
# SETTING is cont-min, cont-par, rand_node0-min or rand_node0-par (default
# rand_node0-par), WORKLOAD wkld2 or wkld3 (default wkld2). Writes, in
# OUT/figures, with gnuplot:
#   SETTING-WORKLOAD-latency.svg   box plots (min, quartiles, max; the mean as
#                                  a point) of the MPI and I/O latencies of
#                                  each job of the hybrid and of the same
#                                  application alone;
#   SETTING-WORKLOAD-links.svg     per-port traffic in MB, sorted ascending,
#                                  of local and global ports: all classes,
#                                  and each job's classes apart;
#   WORKLOAD-saturation.svg        the CDF of global-port saturation time in
#                                  the four settings.
# FORMAT=png draws PNG files instead of SVG.
set -eu

die() { echo "plot-study.sh: $1" >&2; exit "${2:-1}"; }
[ $# -ge 1 ] && [ $# -le 3 ] || die "usage: plot-study.sh OUT [SETTING [WORKLOAD]]" 2
out=$1
fmt=${FORMAT:-svg}
case $fmt in svg) term="svg size 1000,600 dynamic font 'sans,12'" ;; png) term="pngcairo size 1000,600 font 'sans,10'" ;;
*) die "FORMAT must be svg or png" 2 ;; esac
set_=${2:-rand_node0-par}
wk=${3:-wkld2}
t=$out/tables
for f in latency.csv link-traffic.csv global-saturation-cdf.csv; do
	[ -s "$t/$f" ] || die "$t/$f: missing (run run-study.sh --full or --tables first)" 2
done
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian package gnuplot-nox)" 2
case $wk in wkld2) apps="milc checkpoint cosmo" ;; wkld3) apps="nekbone checkpoint cosmo" ;;
*) die "unknown workload '$wk' (wkld2, wkld3)" 2 ;; esac
grep -q "^$set_,$wk," "$t/latency.csv" || die "no run $set_-$wk in $t/latency.csv" 2
fig=$out/figures
mkdir -p "$fig"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/plotstudy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# Box data: "x label min q1 median q3 max mean" per job and class with
# messages, the application alone first, then in the hybrid. An
# application's workload name alone is its own (milc, checkpoint, ...); its
# job name in the tables is the skeleton's (cosmo runs as cosmoflow).
x=0
for app in $apps; do
	for w in "$app" "$wk"; do
		awk -F, -v s="$set_" -v w="$w" -v app="$app" -v wk="$wk" '
			function base(j) { return j == "cosmoflow" ? "cosmo" : j }
			NR > 1 && $1 == s && $2 == w && base($3) == app && $5 > 0 {
				printf "%s %s %s %s %s %s %s\n", app "-" $4 "/" (w == wk ? wk : "alone"),
				       $6, $7, $8, $9, $10, $11 }' "$t/latency.csv"
	done
done | while read -r label rest; do
	x=$((x + 1))
	echo "$x \"$label\" $rest"
done >"$tmp/box.dat"
[ -s "$tmp/box.dat" ] || die "no latency rows for $set_ $wk" 1

# Link traffic: one block per (kind, job, class), x = rank of the port.
for kind in local global; do
	awk -F, -v s="$set_" -v w="$wk" -v k="$kind" '
		NR > 1 && $1 == s && $2 == w && $3 == k { key = $4 "-" $5; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
			row[key] = row[key] $6 " " $9 "\n" }
		END { for (i = 1; i <= n; i++) printf "# %s\n%s\n\n", order[i], row[order[i]] }' \
		"$t/link-traffic.csv" >"$tmp/links-$kind.dat"
done
awk -F, -v w="$wk" 'NR > 1 && $2 == w { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
	row[$1] = row[$1] $6 " " $7 "\n" }
	END { for (i = 1; i <= n; i++) printf "# %s\n%s\n\n", order[i], row[order[i]] }' \
	"$t/global-saturation-cdf.csv" >"$tmp/sat.dat"

# Titles of the data blocks, in order (gnuplot's index i is block i).
titles() { sed -n 's/^# //p' "$1" | tr '\n' ' '; }
lt=$(titles "$tmp/links-local.dat")
gt=$(titles "$tmp/links-global.dat")
st=$(titles "$tmp/sat.dat")

render() { # OUT.FMT: the gnuplot commands come on stdin
	gnuplot -e "set terminal $term noenhanced; set output '$tmp/fig.$fmt'" - || die "gnuplot failed for $1" 1
	mv "$tmp/fig.$fmt" "$1"
}

render "$fig/$set_-$wk-latency.$fmt" <<GP
set title "Message latency, $set_ $wk: each application alone and in the hybrid"
set ylabel "latency (ms)"
set logscale y
set xtics rotate by -35 font ',10'
set boxwidth 0.5
set xrange [0:$(wc -l <"$tmp/box.dat") + 1]
plot '$tmp/box.dat' using 1:4:3:7:6:xtic(2) with candlesticks whiskerbars 0.5 lc rgb '#3060a0' title 'min, q1, q3, max', \
     '' using 1:5:5:5:5 with candlesticks lc rgb '#000000' notitle, \
     '' using 1:8 with points pt 7 ps 0.7 lc rgb '#c03030' title 'mean'
GP

render "$fig/$set_-$wk-links.$fmt" <<GP
set multiplot layout 1,2 title "Traffic per port, $set_ $wk (sorted ascending)"
set xlabel "port (rank)"
set ylabel "MB"
set key top left font ',9'
set title "local ports"
plot for [i=0:words("$lt")-1] '$tmp/links-local.dat' index i using 1:2 with lines lw 1.5 title word("$lt", i+1)
set title "global ports"
plot for [i=0:words("$gt")-1] '$tmp/links-global.dat' index i using 1:2 with lines lw 1.5 title word("$gt", i+1)
unset multiplot
GP

render "$fig/$wk-saturation.$fmt" <<GP
set title "Global-port saturation time, $wk"
set xlabel "saturation time (ms)"
set ylabel "ports (%)"
set key bottom right
plot for [i=0:words("$st")-1] '$tmp/sat.dat' index i using 1:2 with steps lw 1.5 title word("$st", i+1)
GP
echo "plot-study.sh: wrote $fig/$set_-$wk-latency.$fmt, $fig/$set_-$wk-links.$fmt, $fig/$wk-saturation.$fmt"

#!/bin/sh
# run-study.sh - the workload-interference study (see README.md next to this file).
#
# Runs every application alone (on the nodes it has in the hybrids) and in two
# hybrid workloads on theta-1056,
# under {contiguous, random-node} placement x {minimal, par} routing, two
# simulations at a time, then writes one table per application (markdown and
# CSV): mean and median communication and I/O time per rank, alone and in
# each hybrid, and the slowdown hybrid / alone.
#
#   examples/interference/run-study.sh [OUT]         (default OUT: interference-out)
#
# The full-scale study runs MFNetSim's published inputs unchanged (24
# simulations) and writes its tables; --tables only writes the tables from
# an OUT of --full (MFNETSIM_DIR: where to read the artifact's wall times):
#
#   examples/interference/run-study.sh --full MFNETSIM_DIR [OUT]   (default OUT: mfnetsim-out)
#   examples/interference/run-study.sh --tables OUT [MFNETSIM_DIR]
#
# Environment: NCSIM (the ncsim binary; default: `ncsim` on PATH, else
# ./ncsim), SEED (default 1), PARALLEL (simulations at a time, default 2).
# The same SEED gives byte-identical run outputs and tables (in the short
# study; --full keeps each run's wall time in summary.json).
set -eu

# ================================================ full-scale study (--full, --tables)
#
# --full runs MFNetSim's published inputs as they are: its workload lists,
# allocation files and CODES network files from MFNETSIM_DIR/experiments/conf,
# under MFNetSim's own run names (PLACEMENT-ROUTING-WORKLOAD, e.g.
# rand_node0-par-wkld2), into OUT/runs/; --tables writes OUT/tables/ from
# OUT/runs/ (README.md, "Full-scale study"). Every table is a CSV, written to
# a temporary file and then renamed, and most have a markdown twin made from it.

settings='cont-min cont-par rand_node0-min rand_node0-par'
workloads='milc nekbone checkpoint cosmo wkld2 wkld3'

die() { # message [exit status, default 1]
	echo "run-study.sh: $1" >&2
	exit "${2:-1}"
}

# The published allocation file of workload $1 under placement $2: milc and
# nekbone use the first 300 ids, checkpoint the next and cosmo the last; the
# hybrids list all three jobs.
alloc_file() {
	case $1 in
	milc | nekbone) echo "$2-1d-1056-300p1.conf" ;;
	checkpoint) echo "$2-1d-1056-300p2.conf" ;;
	cosmo) echo "$2-1d-1056-300p3.conf" ;;
	*) echo "$2-1d-1056-mixwkld.conf" ;;
	esac
}

# The hybrid workloads that hold application $1.
hybrids_of() {
	case $1 in
	milc) echo wkld2 ;;
	nekbone) echo wkld3 ;;
	*) echo "wkld2 wkld3" ;;
	esac
}

# atomic FILE CMD [ARGS...]: CMD's output becomes FILE only if CMD succeeds,
# so a failed or interrupted stage never leaves a half-written table.
atomic() {
	at_file=$1
	shift
	if "$@" > "$at_file.tmp.$$"; then
		mv -f "$at_file.tmp.$$" "$at_file"
	else
		rm -f "$at_file.tmp.$$"
		die "could not write $at_file"
	fi
}

# The artifact's wall time of each run, "RUN SECONDS" per line: the first
# `Running Time = X seconds` line of experiments/{ind,wkld}/RUN.out (a file
# may hold two runs). Only those lines are read.
artifact_times() { # MFNETSIM_DIR
	for at_sub in ind wkld; do
		for at_f in "$1/experiments/$at_sub"/*.out; do
			[ -f "$at_f" ] || continue
			at_t=$(sed -n 's/.*Running Time = *\([0-9][0-9.eE+]*\) *seconds.*/\1/p' "$at_f" | head -n 1)
			if [ -n "$at_t" ]; then echo "$(basename "$at_f" .out) $at_t"; fi
		done
	done
}

# Every scalar of a JSON document as "PATH<tab>VALUE", PATH the keys and
# array indices from the top joined by dots (jobs.0.latency_ps.io.q1).
# Enough for ncsim's summary.json: strings keep their escapes.
JSON_FLAT='
{
	s = $0
	while (s != "") {
		if (match(s, /^[ \t\r]+/)) { s = substr(s, RLENGTH + 1); continue }
		c = substr(s, 1, 1)
		if (c == "{" || c == "[") { d++; typ[d] = c; key[d] = (c == "[") ? 0 : ""; s = substr(s, 2); continue }
		if (c == "}" || c == "]") { d--; s = substr(s, 2); continue }
		if (c == ",") { if (typ[d] == "[") key[d]++; s = substr(s, 2); continue }
		if (c == ":") { s = substr(s, 2); continue }
		if (c == "\"") {
			if (!match(s, /^"([^"\\]|\\.)*"/)) { bad = 1; exit }
			v = substr(s, 2, RLENGTH - 2)
			s = substr(s, RLENGTH + 1)
			if (typ[d] == "{" && s ~ /^[ \t\r]*:/) { key[d] = v; continue }
		} else {
			if (!match(s, /^[-+.0-9A-Za-z]+/)) { bad = 1; exit }
			v = substr(s, 1, RLENGTH)
			s = substr(s, RLENGTH + 1)
		}
		p = ""
		for (i = 1; i <= d; i++) p = p (i > 1 ? "." : "") key[i]
		print p "\t" v
	}
}
END { if (bad || d) exit 1 }'

# Sorting and order statistics for the awk programs below.
AWK_LIB='
# Heapsort, ascending: no recursion (mawk limits its depth) and n log n
# whatever the values (most ranks of a job often have the same I/O time).
function sort_asc(a, n,   i, t) {
	for (i = int(n / 2); i >= 1; i--) sift(a, i, n)
	for (i = n; i > 1; i--) { t = a[1]; a[1] = a[i]; a[i] = t; sift(a, 1, i - 1) }
}
function sift(a, i, n,   c, t) {
	while ((c = 2 * i) <= n) {
		if (c < n && a[c + 1] > a[c]) c++
		if (a[i] >= a[c]) return
		t = a[i]; a[i] = a[c]; a[c] = t
		i = c
	}
}
# The median of a[1..n], sorted: the middle value, or the mean of the two.
function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function mean(a, n,   i, s) { for (i = 1; i <= n; i++) s += a[i]; return s / n }
# Column numbers from a CSV header; fails on a missing column.
function header(names,   i, k, m, want) {
	for (i = 1; i <= NF; i++) col[$i] = i
	m = split(names, want, " ")
	for (k = 1; k <= m; k++)
		if (!(want[k] in col)) { printf "%s: no column %s\n", FILENAME, want[k] > "/dev/stderr"; bad = 1; exit 1 }
}'

# Per-rank figures of job $2 in tasks.csv $1, in ms: "comm_max comm_mean
# io_mean io_median io_max active_mean active_median active_max".
# Communication time as MFNetSim counts it: the rank's end minus its
# computation (everything that is not computation, I/O waits included).
rank_stats() { # tasks.csv job
	awk -F, -v job="$2" "$AWK_LIB"'
	NR == 1 { header("job end_ps compute_ps io_ps io_active_ps"); next }
	$col["job"] == job {
		n++
		comm[n] = ($col["end_ps"] - $col["compute_ps"]) / 1e9
		io[n] = $col["io_ps"] / 1e9
		act[n] = $col["io_active_ps"] / 1e9
	}
	END {
		if (bad) exit 1
		if (!n) { printf "%s: no task of job %s\n", FILENAME, job > "/dev/stderr"; exit 1 }
		sort_asc(comm, n); sort_asc(io, n); sort_asc(act, n)
		printf "%.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", comm[n], mean(comm, n),
			mean(io, n), median(io, n), io[n], mean(act, n), median(act, n), act[n]
	}' "$1"
}

# The value at PATH in the flattened summary $1 (empty if absent).
json_get() { awk -F'\t' -v p="$2" '$1 == p { print $2; exit }' "$1"; }

# A CSV file as a markdown table, after the lines of $2 (title and notes).
csv2md() { # file.csv text
	printf '%s\n\n' "$2"
	awk -F, '{
		printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; printf "\n"
		if (NR == 1) { printf "|"; for (i = 1; i <= NF; i++) printf "---|"; printf "\n" }
	}' "$1"
	echo
}

# --- the tables

# One application, every setting: alone and in each hybrid that holds it.
app_csv() { # app
	ap_job=$(json_get "$work/cont-min-$1.json" jobs.0.name)
	[ -n "$ap_job" ] || { echo "run-study.sh: $runs/cont-min-$1/summary.json: no job name" >&2; return 1; }
	echo "setting,run,job,comm_max_ms,comm_mean_ms,io_mean_ms,io_median_ms,io_max_ms,io_active_mean_ms,io_active_median_ms,io_active_max_ms,slowdown_comm_max,slowdown_comm_mean,slowdown_io_mean,slowdown_io_active_mean"
	for ap_s in $settings; do
		ap_alone=$(rank_stats "$runs/$ap_s-$1/tasks.csv" "$ap_job") || return 1
		for ap_r in alone $(hybrids_of "$1"); do
			if [ "$ap_r" = alone ]; then ap_v=$ap_alone; else
				ap_v=$(rank_stats "$runs/$ap_s-$ap_r/tasks.csv" "$ap_job") || return 1
			fi
			echo "$ap_s $ap_r $ap_job $ap_v $ap_alone"
		done
	done > "$work/app" || return 1
	awk '
	function ratio(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
	{
		printf "%s,%s,%s", $1, $2, $3
		for (i = 4; i <= 11; i++) printf ",%.3f", $i
		if ($2 == "alone") { print ",,,,"; next }
		printf ",%s,%s,%s,%s\n", ratio($4, $12), ratio($5, $13), ratio($6, $14), ratio($9, $17)
	}' "$work/app"
}

# The MPI and I/O latency distributions of every job of every run, in ms.
latency_csv() {
	echo "setting,workload,job,class,count,min_ms,q1_ms,median_ms,q3_ms,max_ms,mean_ms"
	for la_s in $settings; do
		for la_w in $workloads; do
			awk -F'\t' -v s="$la_s" -v w="$la_w" -v f="$work/$la_s-$la_w.json" '
			{ n = split($1, p, ".") }
			p[1] == "jobs" && n == 3 && p[3] == "name" { name[p[2]] = $2; if (p[2] + 1 > jobs) jobs = p[2] + 1 }
			p[1] == "jobs" && n == 5 && p[3] == "latency_ps" { lat[p[2], p[4], p[5]] = $2; have[p[2], p[4]] = 1 }
			END {
				if (!jobs) { printf "%s: no jobs\n", f > "/dev/stderr"; exit 1 }
				for (j = 0; j < jobs; j++)
					for (c = 1; c <= 2; c++) {
						cl = c == 1 ? "mpi" : "io"
						if (!have[j, cl]) { printf "%s: job %d has no latency_ps.%s\n", f, j, cl > "/dev/stderr"; exit 1 }
						printf "%s,%s,%s,%s,%d", s, w, name[j], cl, lat[j, cl, "count"]
						split("min q1 median q3 max mean", q, " ")
						for (k = 1; k <= 6; k++) printf ",%.6f", lat[j, cl, q[k]] / 1e9
						printf "\n"
					}
			}' "$work/$la_s-$la_w.json" || return 1
		done
	done
}

# Per-port traffic in MB of the local and global links of every hybrid run,
# each series sorted ascending and numbered from 1: all traffic (job and
# class `all`, links.csv), and per job and traffic class (links_by_class.csv,
# series with some traffic on that kind of link). Every series has one row
# per port of its kind, zeros included.
traffic_csv() {
	echo "setting,workload,kind,job,class,index,router,port,mb"
	for tr_s in $settings; do
		for tr_w in wkld2 wkld3; do
			tr_d=$runs/$tr_s-$tr_w
			tr_jobs=$(awk -F'\t' '$1 ~ /^jobs\.[0-9]+\.name$/ { printf "%s%s", n++ ? "," : "", $2 }' "$work/$tr_s-$tr_w.json")
			tr_bc=$tr_d/links_by_class.csv
			[ -f "$tr_bc" ] || tr_bc=/dev/null
			awk -F, -v s="$tr_s" -v w="$tr_w" -v jobs="$tr_jobs" -v lf="$tr_d/links.csv" "$AWK_LIB"'
			BEGIN { split(jobs, jname, ","); bf = "" }
			FNR == 1 {
				if (FILENAME == lf) header("router port kind bytes")
				else { bf = FILENAME; delete col; header("router port kind job class bytes") }
				next
			}
			FILENAME == lf {
				k = $col["kind"]
				if (k != "local" && k != "global") next
				pt = $col["router"] "," $col["port"]
				kind[pt] = k
				ports[k, ++np[k]] = pt
				b["all,all", pt] = $col["bytes"]
				ser[k, "all,all"] = 1
				next
			}
			{
				pt = $col["router"] "," $col["port"]
				k = kind[pt]
				if (k == "" || $col["bytes"] <= 0) next
				# Job -1 holds the (job, class) pairs beyond the labels ncsim keeps apart.
				j = $col["job"] + 1
				if (j == 0) jname[0] = "other"
				if (!(j in jname)) { printf "%s: job %s not in summary.json\n", bf, $col["job"] > "/dev/stderr"; bad = 1; exit 1 }
				sr = jname[j] "," $col["class"]
				b[sr, pt] += $col["bytes"]
				ser[k, sr] = 1
			}
			END {
				if (bad) exit 1
				for (x in ser) {
					split(x, kk, SUBSEP)
					for (i = 1; i <= np[kk[1]]; i++) {
						pt = ports[kk[1], i]
						printf "%s,%s,%s,%s,%s,%.6f\n", s, w, kk[1], kk[2], pt, b[kk[2], pt] / 1e6
					}
				}
			}' "$tr_d/links.csv" "$tr_bc" > "$work/traffic" || return 1
			LC_ALL=C sort -t, -k3,3 -k4,4 -k5,5 -k8,8g -k6,6n -k7,7n "$work/traffic" | awk -F, -v OFS=, '
			{ key = $3 "," $4 "," $5; i = key == last ? i + 1 : 1; last = key
			  print $1, $2, $3, $4, $5, i, $6, $7, $8 }' || return 1
		done
	done
}

# The CDF of the global links' saturation time of every hybrid run:
# the ports sorted by saturation time (ms), with the percentage of ports at
# or below each.
saturation_csv() {
	echo "setting,workload,index,router,port,saturation_ms,percent_ports"
	for sa_s in $settings; do
		for sa_w in wkld2 wkld3; do
			awk -F, -v s="$sa_s" -v w="$sa_w" "$AWK_LIB"'
			NR == 1 { header("router port kind saturation_ps"); next }
			$col["kind"] == "global" { printf "%s,%s,%.6f\n", $col["router"], $col["port"], $col["saturation_ps"] / 1e9 }
			END { if (bad) exit 1 }' "$runs/$sa_s-$sa_w/links.csv" > "$work/sat" || return 1
			sa_n=$(wc -l < "$work/sat")
			LC_ALL=C sort -t, -k3,3g -k1,1n -k2,2n "$work/sat" |
				awk -F, -v s="$sa_s" -v w="$sa_w" -v n="$sa_n" '{ printf "%s,%s,%d,%s,%s,%s,%.3f\n", s, w, NR, $1, $2, $3, 100 * NR / n }' || return 1
		done
	done
}

# ncsim's wall time of each run next to the artifact's, and their totals.
wall_csv() {
	echo "setting,workload,ncsim_wall_s,artifact_wall_s,artifact_over_ncsim"
	for wa_s in $settings; do
		for wa_w in $workloads; do
			wa_n=$(json_get "$work/$wa_s-$wa_w.json" wall_seconds)
			wa_a=$(awk -v r="$wa_s-$wa_w" '$1 == r { print $2; exit }' "$work/artifact")
			echo "$wa_s $wa_w ${wa_n:--} ${wa_a:--}"
		done
	done | awk -v elapsed="$(cat "$out/study.time" 2>/dev/null)" '
	function num(x) { return x == "-" ? "" : x }
	function ratio(a, n) { return (a != "-" && n != "-" && n + 0 > 0) ? sprintf("%.1f", a / n) : "" }
	{
		printf "%s,%s,%s,%s,%s\n", $1, $2, ($3 == "-" ? "" : sprintf("%.3f", $3)), num($4), ratio($4, $3)
		if ($3 == "-") nmiss++; else ns += $3
		if ($4 == "-") amiss++; else as += $4
	}
	END {
		tn = nmiss ? "-" : sprintf("%.3f", ns)
		ta = amiss ? "-" : sprintf("%.4f", as)
		printf "all,total,%s,%s,%s\n", num(tn), num(ta), ratio(ta, tn)
		if (elapsed != "") printf "all,elapsed,%.3f,,\n", elapsed
	}'
}

tables() { # OUT [MFNETSIM_DIR]
	[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: run-study.sh --tables OUT [MFNETSIM_DIR]" 2
	out=$1
	runs=$out/runs
	[ -d "$runs" ] || die "$runs: no such directory (the runs of --full)" 2
	for ta_s in $settings; do
		for ta_w in $workloads; do
			for ta_f in summary.json tasks.csv; do
				[ -s "$runs/$ta_s-$ta_w/$ta_f" ] || die "$runs/$ta_s-$ta_w/$ta_f: missing or empty" 2
			done
			case $ta_w in wkld*) [ -s "$runs/$ta_s-$ta_w/links.csv" ] || die "$runs/$ta_s-$ta_w/links.csv: missing or empty" 2 ;; esac
		done
	done
	if [ $# -eq 2 ]; then
		[ -d "$2" ] || die "$2: no such directory (the MFNetSim repository)" 2
		atomic "$out/artifact-wall.txt" artifact_times "$2"
	fi
	tdir=$out/tables
	mkdir -p "$tdir"
	work=$(mktemp -d "${TMPDIR:-/tmp}/run-study.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 1' INT TERM
	if [ -f "$out/artifact-wall.txt" ]; then cp "$out/artifact-wall.txt" "$work/artifact"; else : > "$work/artifact"; fi
	for ta_s in $settings; do
		for ta_w in $workloads; do
			awk "$JSON_FLAT" "$runs/$ta_s-$ta_w/summary.json" > "$work/$ta_s-$ta_w.json" ||
				die "$runs/$ta_s-$ta_w/summary.json: not JSON"
		done
	done
	for ta_w in wkld2 wkld3; do
		for ta_s in $settings; do
			[ -f "$runs/$ta_s-$ta_w/links_by_class.csv" ] ||
				echo "run-study.sh: no $runs/$ta_s-$ta_w/links_by_class.csv: link traffic without the split by job and class" >&2
		done
	done

	for ta_a in milc nekbone checkpoint cosmo; do
		atomic "$tdir/$ta_a.csv" app_csv "$ta_a"
		atomic "$tdir/$ta_a.md" csv2md "$tdir/$ta_a.csv" "### $ta_a: per rank, ms (comm = end - compute; io = exposed I/O wait, io_active = time with I/O outstanding); slowdown = run / alone"
	done
	atomic "$tdir/latency.csv" latency_csv
	atomic "$tdir/link-traffic.csv" traffic_csv
	atomic "$tdir/global-saturation-cdf.csv" saturation_csv
	atomic "$tdir/wall.csv" wall_csv
	atomic "$tdir/wall.md" csv2md "$tdir/wall.csv" "### wall time per run, s (ncsim: summary.json wall_seconds; artifact: its Running Time)"
	atomic "$tdir/all.md" cat "$tdir/milc.md" "$tdir/nekbone.md" "$tdir/checkpoint.md" "$tdir/cosmo.md" "$tdir/wall.md"
}

full() { # MFNETSIM_DIR [OUT]
	[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: run-study.sh --full MFNETSIM_DIR [OUT]" 2
	mfn=$1
	out=${2:-mfnetsim-out}
	conf=$mfn/experiments/conf
	[ -d "$mfn" ] || die "$mfn: no such directory (the MFNetSim repository)" 2
	[ -d "$conf" ] || die "$conf: no such directory (MFNetSim's published inputs)" 2
	need="network/dally-1056-min.conf network/dally-1056-par.conf network/dally-1056-intra network/dally-1056-inter"
	for fu_w in $workloads; do
		need="$need workload/$fu_w.conf"
		for fu_p in cont rand_node0; do need="$need alloc/$(alloc_file "$fu_w" "$fu_p")"; done
	done
	for fu_f in $need; do
		[ -s "$conf/$fu_f" ] || die "$conf/$fu_f: missing or empty (an input of the published study)" 2
	done
	"$NCSIM" run --help > /dev/null 2>&1 || die "'$NCSIM run' does not work; set NCSIM" 2

	mkdir -p "$out/runs"
	atomic "$out/artifact-wall.txt" artifact_times "$mfn"
	# The longest runs first (hybrids, random placement, PAR), so that the
	# parallel slots finish together.
	fu_list=$out/runs.txt
	for fu_w in wkld3 wkld2 nekbone milc cosmo checkpoint; do
		for fu_p in rand_node0 cont; do
			for fu_r in par min; do
				echo "$fu_p $fu_r $fu_w $(alloc_file "$fu_w" "$fu_p")"
			done
		done
	done > "$fu_list"
	fu_start=$(date +%s)
	export NCSIM seed out conf
	# One simulation; its messages go to runs/NAME.log.
	xargs -P "$par" -L 1 sh -c '
		name=$1-$2-$3
		rm -rf "$out/runs/$name"
		if "$NCSIM" run "$conf/workload/$3.conf" --system "$conf/network/dally-1056-$2.conf" \
			--alloc "$conf/alloc/$4" --seed "$seed" --no-progress --out "$out/runs/$name" \
			> "$out/runs/$name.log" 2>&1; then
			echo "done $name"
		else
			echo "FAILED $name (see $out/runs/$name.log)"
			exit 255
		fi
	' sh < "$fu_list" || die "a simulation failed"
	atomic "$out/study.time" echo "$(( $(date +%s) - fu_start ))"
	tables "$out"
	echo "study: 24 simulations in $(cat "$out/study.time") s wall ($par at a time); tables in $out/tables/"
	cat "$out/tables/all.md"
}

case ${1:-} in
--full | --tables)
	fu_mode=$1
	shift
	seed=${SEED:-1}
	par=${PARALLEL:-2}
	if [ -z "${NCSIM:-}" ]; then
		if command -v ncsim > /dev/null 2>&1; then NCSIM=ncsim; else NCSIM=./ncsim; fi
	fi
	if [ "$fu_mode" = --full ]; then full "$@"; else tables "$@"; fi
	exit 0
	;;
esac

out=${1:-interference-out}
seed=${SEED:-1}
par=${PARALLEL:-2}
if [ -z "${NCSIM:-}" ]; then
	if command -v ncsim >/dev/null 2>&1; then NCSIM=ncsim; else NCSIM=./ncsim; fi
fi
"$NCSIM" run --help >/dev/null 2>&1 || { echo "run-study.sh: '$NCSIM run' does not work; set NCSIM" >&2; exit 2; }

# Job parameters (README.md, "Parameters"): real message and I/O sizes, about
# a simulated second (checkpoint: one 50 GB checkpoint) per job. The
# variables MILC, NEKBONE, CKPT and COSMO replace a job line (for trials).
# These are the short settings of ncsim's earlier study, spelled out with the
# options the skeletons keep for them (their defaults are now the published ones).
MILC=${MILC:-'300 milc --iters 60 --halves 1 --compute 10E6 --config 2M --p0 0'}
NEKBONE=${NEKBONE:-'300 nekbone --legacy-iters 400 --rx 0'}
CKPT=${CKPT:-'300 checkpoint --count 1 --period 100 --sync 1'}
COSMO=${COSMO:-'300 cosmoflow --reps 4 --grad 28150000'}

mkdir -p "$out/wkld" "$out/runs" "$out/tables"
echo "$MILC" > "$out/wkld/milc.wkld"
echo "$NEKBONE" > "$out/wkld/nekbone.wkld"
echo "$CKPT" > "$out/wkld/checkpoint.wkld"
echo "$COSMO" > "$out/wkld/cosmoflow.wkld"
printf '%s\n%s\n%s\n' "$MILC" "$CKPT" "$COSMO" > "$out/wkld/hybrid1.wkld"
printf '%s\n%s\n%s\n' "$NEKBONE" "$CKPT" "$COSMO" > "$out/wkld/hybrid2.wkld"

# Each application runs alone on exactly the nodes it gets in the hybrid
# workloads: a run stopped at 1 ps gives every job's nodes (tasks.csv), which
# become an allocation file (--alloc) for the run alone. Every job keeps its
# place in both hybrids (same job index, same seed), which is checked.
mkdir -p "$out/alloc"
for pl in contiguous random-node; do
	for h in hybrid1 hybrid2; do
		"$NCSIM" run "$out/wkld/$h.wkld" --system theta-1056 --placement "$pl" --seed "$seed" \
			--no-wall-time --no-progress --until 1ps --out "$out/alloc/$h-$pl" > "$out/alloc/$h-$pl.log" 2>&1 ||
			{ echo "run-study.sh: placement of $h ($pl) failed, see $out/alloc/$h-$pl.log" >&2; exit 1; }
		for app in milc nekbone checkpoint cosmoflow; do
			awk -F, -v job="$app" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["job"] == job { node[$col["rank"]] = $col["node"]; n++ }
			END { if (n) { for (r = 0; r < n; r++) printf "%s%s", r ? " " : "", node[r]; printf "\n" } }
			' "$out/alloc/$h-$pl/tasks.csv" > "$out/alloc/$app-$pl.$h"
		done
	done
	for app in milc nekbone checkpoint cosmoflow; do
		a="$out/alloc/$app-$pl.hybrid1" b="$out/alloc/$app-$pl.hybrid2"
		if [ -s "$a" ] && [ -s "$b" ] && ! cmp -s "$a" "$b"; then
			echo "run-study.sh: $app gets different nodes in hybrid1 and hybrid2 ($pl)" >&2
			exit 1
		fi
		if [ -s "$a" ]; then mv "$a" "$out/alloc/$app-$pl.alloc"; else mv "$b" "$out/alloc/$app-$pl.alloc"; fi
		rm -f "$a" "$b"
	done
done

# Every (workload, placement, routing), the longest runs first so that the
# parallel slots finish together.
list="$out/runs.txt"
: > "$list"
for w in hybrid2 nekbone hybrid1 milc cosmoflow checkpoint; do
	for pl in random-node contiguous; do
		for ro in par minimal; do
			echo "$w $pl $ro" >> "$list"
		done
	done
done

start=$(date +%s)
export NCSIM seed out
# One simulation; its wall time goes to runs/NAME.time, its messages to runs/NAME.log.
xargs -P "$par" -L 1 sh -c '
	name="$1-$2-$3"
	case $1 in
	hybrid*) where="--placement $2" ;;
	*) where="--alloc $out/alloc/$1-$2.alloc" ;;
	esac
	t0=$(date +%s)
	if "$NCSIM" run "$out/wkld/$1.wkld" --system theta-1056 $where --routing "$3" \
		--seed "$seed" --no-wall-time --no-progress --out "$out/runs/$name" > "$out/runs/$name.log" 2>&1; then
		echo "$(( $(date +%s) - t0 ))" > "$out/runs/$name.time"
		echo "done $name ($(cat "$out/runs/$name.time") s)"
	else
		echo "FAILED $name (see $out/runs/$name.log)"
		exit 255
	fi
' sh < "$list"
total=$(( $(date +%s) - start ))

# ---------------------------------------------------------------- tables

# Per-rank statistics of one job of one run: "mean_comm median_comm mean_io median_io" in ms.
stats() { # run-dir job
	awk -F, -v job="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["job"] == job { print $col["mpi_ps"], $col["io_ps"] }
	' "$1/tasks.csv" > "$out/tables/.vals"
	n=$(wc -l < "$out/tables/.vals")
	[ "$n" -gt 0 ] || { echo "run-study.sh: no ranks of $2 in $1/tasks.csv" >&2; exit 1; }
	mc=$(awk '{ s += $1 } END { printf "%.3f", s / NR / 1e9 }' "$out/tables/.vals")
	mi=$(awk '{ s += $2 } END { printf "%.3f", s / NR / 1e9 }' "$out/tables/.vals")
	dc=$(cut -d' ' -f1 "$out/tables/.vals" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e9 }')
	di=$(cut -d' ' -f2 "$out/tables/.vals" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e9 }')
	echo "$mc $dc $mi $di"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

for app in milc nekbone checkpoint cosmoflow; do
	case $app in
	milc) hybrids=hybrid1 ;;
	nekbone) hybrids=hybrid2 ;;
	*) hybrids="hybrid1 hybrid2" ;;
	esac
	md="$out/tables/$app.md"
	csv="$out/tables/$app.csv"
	{
		echo "### $app (times per rank in ms; slowdown = hybrid / alone)"
		echo
		echo "| placement | routing | run | comm mean | comm median | I/O mean | I/O median | comm slowdown (mean) | comm slowdown (median) | I/O slowdown (mean) | I/O slowdown (median) |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
	} > "$md"
	echo "placement,routing,run,comm_mean_ms,comm_median_ms,io_mean_ms,io_median_ms,comm_slowdown_mean,comm_slowdown_median,io_slowdown_mean,io_slowdown_median" > "$csv"
	for pl in contiguous random-node; do
		for ro in minimal par; do
			set -- $(stats "$out/runs/$app-$pl-$ro" "$app")
			[ $# -eq 4 ] || exit 1
			bmc=$1 bdc=$2 bmi=$3 bdi=$4
			echo "| $pl | $ro | alone | $bmc | $bdc | $bmi | $bdi | | | | |" >> "$md"
			echo "$pl,$ro,alone,$bmc,$bdc,$bmi,$bdi,,,," >> "$csv"
			for h in $hybrids; do
				set -- $(stats "$out/runs/$h-$pl-$ro" "$app")
				[ $# -eq 4 ] || exit 1
				sc=$(ratio "$1" "$bmc") sdc=$(ratio "$2" "$bdc") si=$(ratio "$3" "$bmi") sdi=$(ratio "$4" "$bdi")
				echo "| $pl | $ro | $h | $1 | $2 | $3 | $4 | $sc | $sdc | $si | $sdi |" >> "$md"
				echo "$pl,$ro,$h,$1,$2,$3,$4,$sc,$sdc,$si,$sdi" >> "$csv"
			done
		done
	done
	echo >> "$md"
done
rm -f "$out/tables/.vals"
cat "$out/tables/milc.md" "$out/tables/nekbone.md" "$out/tables/checkpoint.md" "$out/tables/cosmoflow.md" \
	> "$out/tables/all.md"
echo "study: $(wc -l < "$list") simulations in $total s wall ($par at a time); tables in $out/tables/"
cat "$out/tables/all.md"

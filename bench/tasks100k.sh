#!/bin/sh
# 100,000 tasks, each doing 100 steps of compute + barrier, on the analytic
# network. Targets: under 60 s of wall time and under 2 GB (1907 MiB) of peak
# memory.
# Arguments after the script name replace the defaults (see bench/tasks100k.c):
#   tasks100k.sh [TASKS [STEPS [MODEL [BARRIER [STACK]]]]]
set -e
. "$(dirname "$0")/lib/verdict.sh"
B=${NCSIM_BUILDDIR:-.}
out=$("$B/bench/tasks100k" "${1:-100000}" "${2:-100}" "${3:-analytic}" "${4:-tree}" "${5:-32768}")
echo "$out"
bench_target "wall time" "$(echo "$out" | sed -n 's/^ *wall time *\([0-9.]*\) s.*/\1/p')" "<" 60 s
bench_target "peak RSS" "$(echo "$out" | sed -n 's/^ *peak RSS *\([0-9.]*\) MiB.*/\1/p')" "<" 1907 MiB
bench_end tasks100k

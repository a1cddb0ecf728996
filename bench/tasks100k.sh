#!/bin/sh
# 100,000 tasks, each doing 100 steps of compute + barrier, on the analytic
# network. Goal: under 60 s of wall time and under 2 GB of peak memory.
# Arguments after the script name replace the defaults (see bench/tasks100k.c):
#   tasks100k.sh [TASKS [STEPS [MODEL [BARRIER [STACK]]]]]
set -e
B=${NCSIM_BUILDDIR:-.}
"$B/bench/tasks100k" "${1:-100000}" "${2:-100}" "${3:-analytic}" "${4:-tree}" "${5:-32768}"

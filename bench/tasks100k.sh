#!/bin/sh
# 100,000 tasks, each doing 100 steps of compute + barrier, on the analytic
# network. Goal: under 60 s of wall time and under 2 GB of peak memory.
set -e
B=${NCSIM_BUILDDIR:-.}
"$B/bench/tasks100k" 100000 100 analytic

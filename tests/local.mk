# tests/: shared test infrastructure. Each module lists its own unit tests in its fragment.
EXTRA_DIST += tests/valgrind-wrap.sh
# Per-job statistics add up to machine totals (issue 7 acceptance).
TESTS += tests/e2e/job_totals.sh
EXTRA_DIST += tests/e2e/job_totals.sh

# tests/: shared test infrastructure. Each module lists its own unit tests in its fragment.
EXTRA_DIST += tests/valgrind-wrap.sh
# The module dependency rule of doc/architecture.md, checked on every include.
TESTS += tests/arch-deps.sh
EXTRA_DIST += tests/arch-deps.sh
# Per-job statistics add up to machine totals (issue 7 acceptance).
TESTS += tests/e2e/job_totals.sh
EXTRA_DIST += tests/e2e/job_totals.sh

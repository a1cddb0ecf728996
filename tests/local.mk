# tests/: shared test infrastructure. Each module lists its own unit tests in its fragment.
EXTRA_DIST += tests/valgrind-wrap.sh

#!/bin/sh
# tests/hostile/check.sh - the hostile-input suite as `make check` runs it (tests/local.mk):
# every case file of tests/hostile/cases. A new case file joins at once, so it must pass
# when it is added (its defect fixed in the same change).
d=$(dirname "$0")
# AddressSanitizer reserves terabytes of address space: no memory limit under it, more time.
if grep -q '^SAN_CFLAGS = .*-fsanitize=address' "${NCSIM_BUILDDIR:-.}/Makefile" 2>/dev/null; then
	export LIMIT_KB=unlimited LIMIT_S=${LIMIT_S:-60}
fi
exec "$d/run-hostile.sh"

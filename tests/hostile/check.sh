#!/bin/sh
# tests/hostile/check.sh - the hostile-input cases `make check` runs (tests/local.mk).
# A case file joins this list once every defect it covers is fixed; when all of
# them pass, make check runs run-hostile.sh itself. Still out (their fixes are in
# progress): 02-depth.sh (nesting limits of the front end) and 03-backend.sh
# (backend-call arguments).
d=$(dirname "$0")
# AddressSanitizer reserves terabytes of address space: no memory limit under it, more time.
if grep -q '^SAN_CFLAGS = .*-fsanitize=address' "${NCSIM_BUILDDIR:-.}/Makefile" 2>/dev/null; then
	export LIMIT_KB=unlimited LIMIT_S=${LIMIT_S:-60}
fi
exec "$d/run-hostile.sh" "$d/cases/01-sandbox.sh" "$d/cases/05-reads.sh" "$d/cases/06-sizes.sh" \
	"$d/cases/07-traffic.sh" "$d/cases/08-outputs.sh" \
	"$d/cases/10-messages.sh"

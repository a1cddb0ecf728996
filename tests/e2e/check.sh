# tests/e2e/check.sh - what the shell e2e tests share. A test sets srcdir
# (NCSIM_SRCDIR, else its own tree) and sources this file, which gives it:
#   builddir, ncsim   the build tree (NCSIM_BUILDDIR, else .) and the binary (NCSIM)
#   work              a scratch folder, removed at exit, with its own build cache
#   pass, fail, check DESCRIPTION COMMAND...   one line PASS: or FAIL: each
#   finish NAME       the tally, and the exit status (0 only if nothing failed)
builddir=${NCSIM_BUILDDIR:-$(pwd)}
ncsim=${NCSIM:-$builddir/ncsim}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-e2e.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME

failed=0
passed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# check DESCRIPTION COMMAND...: PASS if the command succeeds.
check() {
	c_desc=$1
	shift
	if "$@"; then pass "$c_desc"; else fail "$c_desc"; fi
}
# finish NAME: prints the tally; the status is 0 only if every check passed.
finish() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

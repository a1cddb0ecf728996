# tests/e2e/io/local.mk: end-to-end storage and I/O tests.
# run-io.sh drives `ncsim run` over the programs, workloads and system files
# of this folder and checks the figures derived in its comments: compute-side
# and local burst buffers (30 tasks x 1 GB), burst-buffer contention between
# two jobs, the storage-side SSD/disk threshold (io.csv), determinism, and the
# semantics of OPENS/CLOSES/READS/WRITES (LANGUAGE.md 14.2).
TESTS += tests/e2e/io/run-io.sh
EXTRA_DIST += tests/e2e/io/run-io.sh \
	tests/e2e/io/iowrite.ncptl tests/e2e/io/split.ncptl tests/e2e/io/offsets.ncptl \
	tests/e2e/io/overlap.ncptl tests/e2e/io/err-notopen.ncptl tests/e2e/io/err-closetwice.ncptl \
	tests/e2e/io/err-negsize.ncptl tests/e2e/io/err-readonly.ncptl tests/e2e/io/err-nospace.ncptl \
	tests/e2e/io/err-nospace.conf \
	tests/e2e/io/contention-alone.wkld tests/e2e/io/contention-pair.wkld \
	tests/e2e/io/contention-alone.alloc tests/e2e/io/contention-shared.alloc \
	tests/e2e/io/contention-apart.alloc

# System presets with the built-in default machine's network and another
# storage configuration (found by name: --system df-small-local).
nobase_dist_pkgdata_DATA += stdlib/systems/df-small-local.conf stdlib/systems/df-small-storage-side.conf

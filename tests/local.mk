# tests/: shared test infrastructure. Each module lists its own unit tests in its fragment.
EXTRA_DIST += tests/valgrind-wrap.sh
# The module dependency rule of doc/architecture.md, checked on every include.
TESTS += tests/arch-deps.sh
EXTRA_DIST += tests/arch-deps.sh
# Per-job statistics add up to machine totals (issue 7 acceptance); storage and
# placement see the dragonfly at every level that simulates it.
TESTS += tests/e2e/job_totals.sh tests/e2e/levels_topology.sh tests/e2e/metrics.sh tests/e2e/links_by_class.sh
EXTRA_DIST += tests/e2e/job_totals.sh tests/e2e/levels_topology.sh tests/e2e/metrics.sh tests/e2e/links_by_class.sh

# `make fuzz`: the libFuzzer targets tests/fuzz/fuzz_*.c, built with clang
# (FUZZ_CC, e.g. `make fuzz FUZZ_CC=clang-14`) under ASan and UBSan into fuzz/
# of the build tree. The libraries' sources are compiled again there with
# coverage instrumentation, so a target may call any reader of libncsim or
# libncsimfe; a new tests/fuzz/fuzz_NAME.c is picked up without an edit here.
# Run a target: fuzz/fuzz_NAME -max_total_time=60 $(srcdir)/tests/fuzz/seeds
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CPPFLAGS = $(DEFS) $(AM_CPPFLAGS) $(PCRE2_CFLAGS) $(FFI_CFLAGS)
FUZZ_OBJS = $(patsubst %.c,fuzz/obj/%.o,$(filter %.c,$(libncsim_la_SOURCES) \
	$(libncsimfe_la_SOURCES) $(nodist_libncsimfe_la_SOURCES)))
FUZZ_TARGETS = $(patsubst $(srcdir)/tests/fuzz/%.c,fuzz/%,$(wildcard $(srcdir)/tests/fuzz/fuzz_*.c))
EXTRA_DIST += tests/fuzz

fuzz: fuzz-clang
	@$(MAKE) $(AM_MAKEFLAGS) fuzz-build
	@for t in $(FUZZ_TARGETS); do echo "make fuzz: built $$t"; done

# Fails with a clear message, before anything is built, without a clang
# that has libFuzzer.
fuzz-clang:
	@$(MKDIR_P) fuzz
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	  echo "make fuzz: $(FUZZ_CC) not found: the fuzz targets need clang with libFuzzer" \
	    "(apt-get install clang, or make fuzz FUZZ_CC=clang-NN); nothing built" >&2; exit 1; \
	fi
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >fuzz/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer -o fuzz/probe fuzz/probe.c 2>fuzz/probe.log || { \
	  echo "make fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer (no libFuzzer runtime); nothing built:" >&2; \
	  cat fuzz/probe.log >&2; exit 1; }

fuzz-build: $(FUZZ_TARGETS)

# Generated headers (BUILT_SOURCES) first: a fresh build tree has none yet.
fuzz/obj/%.o: %.c grammar/parser.h grammar/lexer.h $(BUILT_SOURCES)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_CPPFLAGS) -MMD -MP -c -o $@ $<

# An archive, so that a target links only the objects it calls. `q` appends
# without replacing: several modules have a config.o or a util.o.
fuzz/libncsim-fuzz.a: $(FUZZ_OBJS)
	$(AM_V_GEN)rm -f $@ && $(AR) qcs $@ $(FUZZ_OBJS)

fuzz/%: tests/fuzz/%.c fuzz/libncsim-fuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_CPPFLAGS) -o $@ $< fuzz/libncsim-fuzz.a \
	  $(PCRE2_LIBS) $(FFI_LIBS) -ldl -lm

-include $(FUZZ_OBJS:.o=.d)
# Kept between runs: they are intermediate files of the pattern rules.
.SECONDARY: $(FUZZ_OBJS)

.PHONY: fuzz fuzz-clang fuzz-build
# The hostile-input suite (issue 12, doc/security.md): files and options a user might be
# handed, each case with its exit status, message and no output folder left behind.
TESTS += tests/hostile/check.sh
EXTRA_DIST += tests/hostile/check.sh tests/hostile/run-hostile.sh tests/hostile/cases
# The full-scale study's table stage (examples/interference/run-study.sh --tables).
TESTS += tests/e2e/study_tables.sh

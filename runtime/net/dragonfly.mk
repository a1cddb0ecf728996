# runtime/net/dragonfly.mk: the packet-level dragonfly (see Makefile.am)
noinst_HEADERS += runtime/net/dragonfly.h runtime/net/dragonfly_model.h runtime/net/dragonfly_topo.h
libncsim_la_SOURCES += runtime/net/dragonfly.c runtime/net/dragonfly_config.c runtime/net/dragonfly_topo.c \
	runtime/net/dragonfly_route.c runtime/net/dragonfly_router.c runtime/net/dragonfly_nic.c \
	runtime/net/dragonfly_stats.c runtime/net/dragonfly_codes.c runtime/net/dragonfly_codes_conf.c \
	runtime/net/dragonfly_part.c runtime/net/dragonfly_par.c

# Synthetic traffic on the dragonfly (runtime/net/netbench.h) and its command
# line, `ncsim netbench` (compiler/cli/cmd_netbench.c).
noinst_HEADERS += runtime/net/netbench.h
libncsim_la_SOURCES += runtime/net/netbench.c
libncsimfe_la_SOURCES += compiler/cli/cmd_netbench.c
check_PROGRAMS += tests/unit/test_netbench
TESTS += tests/unit/test_netbench

# Stand-alone netbench driver used by bench/dragonfly.sh and bench/df_loadcurve.sh.
noinst_PROGRAMS += bench/df_netbench
bench_df_netbench_SOURCES = bench/df_netbench.c
bench_df_netbench_LDADD = libncsimfe.la libncsim.la $(PCRE2_LIBS) $(FFI_LIBS) -lm
bench_df_netbench_LDFLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += tests/unit/test_dragonfly
TESTS += tests/unit/test_dragonfly

# CODES mode: the dragonfly-dally reader and CODES' semantics (unit), and
# the figures of a small CODES configuration (regression); inputs in tests/codes,
# whose connection files tests/codes/gen_conn writes at test time.
check_PROGRAMS += tests/unit/test_codes tests/codes/gen_conn
TESTS += tests/unit/test_codes tests/codes/codes-mode.sh
EXTRA_DIST += tests/codes

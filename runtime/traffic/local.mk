# runtime/traffic/local.mk: file lists of this module (see Makefile.am)
# Traffic models of LANGUAGE.md §14.3 (DCNW, CDCNW, FLOWS, HOROVOD, VEF replay),
# their public API (include/ncsim/traffic.h) and the size tables they read.
nobase_include_HEADERS += include/ncsim/traffic.h
noinst_HEADERS += runtime/traffic/traffic.h runtime/traffic/cdf.h runtime/traffic/dest.h runtime/traffic/gen.h \
	runtime/traffic/hvd.h runtime/traffic/stats.h runtime/traffic/vef.h
libncsim_la_SOURCES += runtime/traffic/traffic.c runtime/traffic/cdf.c runtime/traffic/dest.c runtime/traffic/gen.c \
	runtime/traffic/hvd.c runtime/traffic/stats.c runtime/traffic/vef.c runtime/traffic/trf_par.c

# The message-size tables, installed under $(pkgdatadir)/stdlib/traffic/.
nobase_dist_pkgdata_DATA += stdlib/traffic/web_search.cdf stdlib/traffic/fb_key_value.cdf \
	stdlib/traffic/fb_cache_follower.cdf stdlib/traffic/fb_web_server.cdf stdlib/traffic/fb_hadoop.cdf \
	stdlib/traffic/google_all.cdf stdlib/traffic/google_search.cdf stdlib/traffic/README.md

# Unit tests: statistics of the generators, HOROVOD counts, VEF traces.
TRF_TESTS = tests/unit/test_traffic tests/unit/test_traffic_hvd tests/unit/test_traffic_vef
check_PROGRAMS += $(TRF_TESTS)
TESTS += $(TRF_TESTS)
EXTRA_DIST += tests/vef

# bench/dcnw_relations.sh: DCNW and FLOWS relations on the 1,056-node dragonfly.
noinst_PROGRAMS += bench/dcnw_relations
bench_dcnw_relations_SOURCES = bench/dcnw_relations.c
bench_dcnw_relations_LDADD = libncsim.la -lm
bench_dcnw_relations_LDFLAGS = $(AM_LDFLAGS) -no-install

# runtime/net/local.mk: file lists of this module (see Makefile.am)
# The network interface helpers, the ideal and analytic models, and the factory
# that builds a model from a system file; the hybrid model (analytic + dragonfly).
noinst_HEADERS += runtime/net/net.h runtime/net/ideal.h runtime/net/analytic.h runtime/net/netfactory.h \
	runtime/net/hybrid.h
libncsim_la_SOURCES += runtime/net/net.c runtime/net/ideal.c runtime/net/analytic.c runtime/net/netfactory.c \
	runtime/net/hybrid.c

check_PROGRAMS += tests/unit/test_analytic
TESTS += tests/unit/test_analytic
tests_unit_test_analytic_SOURCES = tests/unit/test_analytic.c
tests_unit_test_analytic_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_analytic_LDADD = $(UNIT_LINK)
tests_unit_test_analytic_LDFLAGS = $(UNIT_LINKFLAGS)

check_PROGRAMS += tests/unit/test_hybrid
TESTS += tests/unit/test_hybrid
tests_unit_test_hybrid_SOURCES = tests/unit/test_hybrid.c tests/unit/rt_testlib.c
tests_unit_test_hybrid_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hybrid_LDADD = $(UNIT_LINK)
tests_unit_test_hybrid_LDFLAGS = $(UNIT_LINKFLAGS)

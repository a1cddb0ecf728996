# runtime/net/local.mk: file lists of this module (see Makefile.am)
# The network interface helpers, the ideal and analytic models, and the factory
# that builds a model from a system file; the hybrid model (analytic + dragonfly); the
# flow-level dragonfly (max-min fair sharing of the links).
noinst_HEADERS += runtime/net/net.h runtime/net/ideal.h runtime/net/analytic.h runtime/net/netfactory.h \
	runtime/net/hybrid.h runtime/net/flow.h runtime/net/linklabel.h
libncsim_la_SOURCES += runtime/net/net.c runtime/net/ideal.c runtime/net/analytic.c runtime/net/netfactory.c \
	runtime/net/hybrid.c runtime/net/flow.c runtime/net/linklabel.c

check_PROGRAMS += tests/unit/test_analytic
TESTS += tests/unit/test_analytic

check_PROGRAMS += tests/unit/test_hybrid
TESTS += tests/unit/test_hybrid

check_PROGRAMS += tests/unit/test_net_flow
TESTS += tests/unit/test_net_flow

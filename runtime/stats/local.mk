# runtime/stats/local.mk: file lists of this module (see Makefile.am)

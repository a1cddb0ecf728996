# runtime/net/local.mk: file lists of this module (see Makefile.am)

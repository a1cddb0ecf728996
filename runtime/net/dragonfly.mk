# runtime/net/dragonfly.mk: file lists of this module (see Makefile.am)

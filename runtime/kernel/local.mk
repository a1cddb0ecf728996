# runtime/kernel/local.mk: file lists of this module (see Makefile.am)

# runtime/coll.mk: file lists of this module (see Makefile.am)

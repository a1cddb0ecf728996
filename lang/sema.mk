# lang/sema.mk: semantic analysis (see lang/sema.h).

# doc/local.mk: documentation installed with ncsim.
dist_man1_MANS = doc/ncsim.1

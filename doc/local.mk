# doc/local.mk: documentation installed with ncsim.

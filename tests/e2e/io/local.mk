# tests/e2e/io/local.mk: end-to-end storage and I/O tests.

/*
 * exitcode.h - the exit statuses of `ncsim` (only main() exits).
 */
#ifndef NCSIM_EXITCODE_H
#define NCSIM_EXITCODE_H

enum ncsim_exit {
	EXIT_OK = 0,        /* success */
	EXIT_INPUT = 1,     /* errors in the input program, config or trace; failed run */
	EXIT_USAGE = 2,     /* usage error, or an I/O error on the command line's files */
	EXIT_INTERNAL = 3,  /* internal error: a bug in ncsim */
	EXIT_INTERRUPTED = 130, /* SIGINT or SIGTERM: the outputs hold the figures so far (128 + SIGINT, as shells report it) */
};

#endif

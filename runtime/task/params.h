/*
 * params.h - command-line options of a program (prefix prm_; LANGUAGE.md §11).
 *
 * Each rt_param becomes an integer option, `--long=value`, `--long value`,
 * `-s value` or `-svalue`. Values take the multiplier suffixes of §1.4 (K, M,
 * G, T binary; E<n> = x10^n; no ordinals). Built-in options: --comment/-C
 * (repeatable), --logfile/-L, --no-trap/-N, --seed/-S (programs that use
 * randomness), --help/-? and --usage.
 */
#ifndef NCSIM_PARAMS_H
#define NCSIM_PARAMS_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "base/util.h"

typedef struct prm_args {
	rt_int *values;        /* one per program parameter */
	unsigned n;
	int seed_given;
	uint64_t seed;
	char *logfile;         /* --logfile template, or NULL (default template) */
	char *no_trap;         /* --no-trap value, or NULL */
	VEC(char *) comments;  /* --comment values, in order */
	int help;              /* --help or --usage was given: print help, run nothing */
} prm_args;

/* Parses an option value with §1.4 suffixes. 0, or -1 if malformed or out of range. */
int prm_parse_int(const char *s, rt_int *out);
/* Parses argv[0..argc) (no program name) into a; defaults first. 0, or -1 with *err. */
int prm_parse(const rt_program *p, int argc, char **argv, prm_args *a, char **err);
/*
 * The trust rule of program options (doc/security.md), the one place that
 * applies it: --comment=!CMD runs a command, --comment=@FILE copies a host
 * file into the logs, and a --logfile template that is absolute or has a
 * ".." component writes outside the output folder; each needs
 * allow_host_access (--allow-host-access). 0, or -1 with *err.
 */
int prm_check_trust(const prm_args *a, int allow_host_access, char **err);
/* Frees what prm_parse allocated. */
void prm_free(prm_args *a);
/* Writes the --help text of p (popt style, as coNCePTuaL programs print it). */
void prm_help(const rt_program *p, FILE *out);

#endif

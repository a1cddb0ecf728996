/*
 * units.h - numbers with physical units, as written in system files and on
 * command lines (prefix units_).
 *
 *     "16 KiB"  -> 16384 bytes        "5.25 GiB/s" -> 5637144576 bytes/s
 *     "100 ns"  -> 100000 ps          "1.5e-3 s"   -> 1500000000 ps
 *     "2 Gbps"  -> 250000000 bytes/s  "42"         -> 42 x the caller's default unit
 *
 * A value is a decimal number (sign, digits, fraction, exponent), optional
 * blanks, then an optional unit. Prefix letters (k, M, G, T) and the binary
 * `i` are case-insensitive, but `B` (bytes) and `b` (bits) are not, since
 * they differ by a factor of 8. Time units are lower case: ps, ns, us (or
 * µs), ms, s. Infinity, NaN, hexadecimal and negative quantities are
 * rejected. Errors are described by a static string (no allocation), which
 * callers embed in their own "file:line: ..." messages.
 */
#ifndef NCSIM_UNITS_H
#define NCSIM_UNITS_H

#include <stdint.h>

#include "ncsim/rt.h"

/* Default units for plain numbers (multipliers of the base unit). */
#define UNITS_BYTES 1.0        /* sizes: base unit is the byte */
#define UNITS_BYTES_PER_S 1.0  /* bandwidths: base unit is the byte per second */
#define UNITS_PS 1.0           /* times: base unit is the picosecond */
#define UNITS_NS 1e3
#define UNITS_US 1e6

/* Scans a decimal number at the start of s; returns 1 and sets *v and *end, or 0 if none. */
int units_number(const char *s, double *v, const char **end);
/* Parses a size; a plain number is multiplied by defunit. 0, or -1 with *why set. */
int units_size(const char *s, double defunit, uint64_t *bytes, const char **why);
/* Parses a bandwidth in bytes per second (bit units are divided by 8). 0, or -1 with *why. */
int units_bandwidth(const char *s, double defunit, double *bytes_per_s, const char **why);
/* Parses a duration, rounded to the nearest picosecond. 0, or -1 with *why. */
int units_time(const char *s, double defunit, ncsim_time_t *ps, const char **why);
/* Parses a plain real number (no unit). 0, or -1 with *why. */
int units_double(const char *s, double *v, const char **why);
/* Parses a plain integer (decimal, or 0x hexadecimal). 0, or -1 with *why. */
int units_int(const char *s, int64_t *v, const char **why);

#endif

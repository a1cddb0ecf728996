/*
 * sysconf.h - system description files (prefix sysconf_).
 *
 * Format (documented in doc/system-file.md):
 *
 *     # comment                       (also after a value)
 *     [network]                       section header
 *     model = dragonfly               key = value
 *     local_bandwidth = 5.25 GiB/s    values may carry units
 *
 * Keys outside any section belong to section "". Section and key names are
 * case-insensitive; a repeated key is an error. Every lookup reports errors as
 * "file:line: message" so a user can fix the file. A key that no lookup asked
 * for is an error once every model has read its keys (sysconf_check_unused):
 * a misspelled key must not pass silently, and the message suggests the key
 * meant, from the keys the models asked for.
 *
 * Units: sizes B, KB/MB/GB (10^3..), KiB/MiB/GiB/TiB (2^10..); bandwidths
 * B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s, and Gbps/Mbps (bits); times ps,
 * ns, us, ms, s; plain numbers take the caller's default unit: bytes, bytes/s
 * and picoseconds for the plain lookups, or `defunit` (a multiplier of that
 * base unit, see base/units.h) for the *_unit variants.
 *
 * The type is sysconf_t, not sysconf: POSIX declares a function sysconf() in
 * <unistd.h>, and the two names must be able to meet in one file.
 */
#ifndef NCSIM_SYSCONF_H
#define NCSIM_SYSCONF_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"

typedef struct sysconf sysconf_t;

/* Parses the file at path. Returns NULL and sets *err (heap string, "file:line: ...") on error. */
sysconf_t *sysconf_load(const char *path, char **err);
/* Parses text held in memory; `name` is used in messages. */
sysconf_t *sysconf_parse(const char *name, const char *text, char **err);
/* Frees c (NULL is a no-op). */
void sysconf_free(sysconf_t *c);

/* 1 if the section exists. */
int sysconf_has_section(const sysconf_t *c, const char *section);
/* Raw value, or NULL if absent. Marks the key used. */
const char *sysconf_get(const sysconf_t *c, const char *section, const char *key);

/*
 * Typed lookups. Each returns 1 if the key was present and valid, 0 if absent
 * (*out keeps its default), and -1 if present but malformed (*err set).
 */
/* Integer value. */
int sysconf_int(const sysconf_t *c, const char *section, const char *key, int64_t *out, char **err);
/* Floating-point value. */
int sysconf_double(const sysconf_t *c, const char *section, const char *key, double *out, char **err);
/* Size in bytes ("4096", "16 KiB", "1.5 MB"); a plain number is bytes. */
int sysconf_size(const sysconf_t *c, const char *section, const char *key, uint64_t *bytes, char **err);
/* Bandwidth in bytes/s ("5.25 GiB/s", "100 Gbps"); a plain number is bytes/s. */
int sysconf_bandwidth(const sysconf_t *c, const char *section, const char *key, double *bytes_per_s, char **err);
/* Time in ps ("100 ns", "1.5e-3 s"); a plain number is ps. */
int sysconf_time(const sysconf_t *c, const char *section, const char *key, ncsim_time_t *ps, char **err);
/* As sysconf_size, but a plain number is multiplied by defunit. */
int sysconf_size_unit(const sysconf_t *c, const char *section, const char *key, double defunit, uint64_t *bytes, char **err);
/* As sysconf_bandwidth, but a plain number is multiplied by defunit. */
int sysconf_bandwidth_unit(const sysconf_t *c, const char *section, const char *key, double defunit, double *bytes_per_s, char **err);
/* As sysconf_time, but a plain number is multiplied by defunit (e.g. UNITS_NS). */
int sysconf_time_unit(const sysconf_t *c, const char *section, const char *key, double defunit, ncsim_time_t *ps, char **err);
/* Boolean: yes/no, true/false, on/off, 1/0 (any case). */
int sysconf_bool(const sysconf_t *c, const char *section, const char *key, int *out, char **err);
/* String value; *out points into c. */
int sysconf_string(const sysconf_t *c, const char *section, const char *key, const char **out, char **err);

/* Name of the i-th [section] in order of first appearance (lower case), or NULL past the end. */
const char *sysconf_section_name(const sysconf_t *c, size_t i);
/* The i-th key of [section] (lower case) in file order, or NULL past the last; a lookup still marks it used. */
const char *sysconf_key_name(const sysconf_t *c, const char *section, size_t i);

/* Writes "file:line: unknown key 'k' in [s]" (and a suggestion) for every key never looked up (err NULL: count only); returns their number. */
int sysconf_unused(const sysconf_t *c, FILE *err);
/* 0 if every key was looked up, else -1 with *err naming the first other one, a suggestion, and how many more. */
int sysconf_check_unused(const sysconf_t *c, char **err);
/* "file:line" of a key, for callers that validate values themselves (buffer of c; the file name alone if the key is absent). */
const char *sysconf_where(const sysconf_t *c, const char *section, const char *key);
/* "file:line" of the first header of [section] (buffer of c, as sysconf_where; the file name alone if absent). */
const char *sysconf_section_where(const sysconf_t *c, const char *section);

#endif

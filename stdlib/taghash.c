/*
 * taghash.c - the string-tag hash of LANGUAGE.md §7 (USING TAG "name").
 *
 * The C backend adds each `char` to a wrapping 64-bit value; char is signed
 * on x86 and unsigned on ARM Linux. ncsim fixes the x86 behaviour everywhere
 * (bytes >= 0x80 count as negative) so that tags do not depend on the host.
 */
#include "config.h"

#include "ncsim/stdlib.h"

int64_t ncsim_tag_hash(const char *s)
{
	uint64_t h = 1234567891;

	for (; *s; s++)
		h = h * 1073741789u + (uint64_t)(int64_t)(signed char)*s;
	return (int64_t)h;
}

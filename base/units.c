/*
 * units.c - numbers with physical units (see units.h).
 *
 * A unit is matched by a small grammar rather than a table of spellings, so
 * every combination of prefix, binary marker and rate suffix behaves the same:
 *
 *     unit    = [prefix ["i"]] ("B" | "b") ["/s" | "ps"]      sizes and rates
 *     prefix  = k | M | G | T | P   (any case)
 *     time    = "ps" | "ns" | "us" | "µs" | "ms" | "s"
 */
#include "base/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

int units_number(const char *s, double *v, const char **end)
{
	const char *p = s;
	char buf[128];
	int digits = 0;

	if (*p == '+' || *p == '-')
		p++;
	while (is_digit(*p)) p++, digits++;
	if (*p == '.') {
		p++;
		while (is_digit(*p)) p++, digits++;
	}
	if (!digits)
		return 0;
	/* An exponent counts only when digits follow, so "5 e" is not half a number. */
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (is_digit(*q)) {
			while (is_digit(*q)) q++;
			p = q;
		}
	}
	if ((size_t)(p - s) >= sizeof buf)
		return 0;
	/* strtod on a bounded copy: it must not see hex, "inf" or what follows. */
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = 0;
	*v = strtod(buf, NULL);
	*end = p;
	return 1;
}

/* Splits s into a finite number and the unit text after it (trailing blanks removed). */
static int split(const char *s, double *v, const char **unit, size_t *ulen, const char **why)
{
	const char *end;

	while (is_blank(*s)) s++;
	if (!*s) {
		*why = "empty value";
		return -1;
	}
	if (!units_number(s, v, &end)) {
		*why = "not a number";
		return -1;
	}
	if (!isfinite(*v)) {
		*why = "number out of range";
		return -1;
	}
	while (is_blank(*end)) end++;
	*unit = end;
	*ulen = strlen(end);
	while (*ulen && is_blank(end[*ulen - 1])) (*ulen)--;
	return 0;
}

static int unit_is(const char *u, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(u, word, n) == 0;
}

/*
 * Parses unit = [prefix ["i"]] ("B"|"b") ["/s"|"ps"]. Sets the multiplier in
 * bytes (bits already divided by 8) and whether a rate suffix was present.
 */
static int byte_unit(const char *u, size_t n, double *mult, int *rate, const char **why)
{
	static const char prefixes[] = "kmgtp";
	size_t i = 0;
	int power = 0, binary = 0;

	if (n == 0) {
		*why = "missing unit";
		return -1;
	}
	if (u[i] && strchr(prefixes, u[i] | 0x20) && u[i] != 'b' && u[i] != 'B') {
		power = (int)(strchr(prefixes, u[i] | 0x20) - prefixes) + 1;
		i++;
		if (i < n && (u[i] == 'i' || u[i] == 'I')) {
			binary = 1;
			i++;
		}
	}
	if (i >= n || (u[i] != 'B' && u[i] != 'b')) {
		*why = "unknown unit";
		return -1;
	}
	*mult = binary ? ldexp(1.0, 10 * power) : pow(1000.0, power);
	if (u[i] == 'b')
		*mult /= 8.0;
	i++;
	*rate = 0;
	if (i + 2 == n && (memcmp(u + i, "/s", 2) == 0 || memcmp(u + i, "ps", 2) == 0)) {
		*rate = 1;
		i += 2;
	}
	if (i != n) {
		*why = "unknown unit";
		return -1;
	}
	return 0;
}

int units_size(const char *s, double defunit, uint64_t *bytes, const char **why)
{
	const char *u;
	size_t n;
	double v, mult = defunit, r;
	int rate = 0;

	if (split(s, &v, &u, &n, why) < 0)
		return -1;
	if (n) {
		if (byte_unit(u, n, &mult, &rate, why) < 0)
			return -1;
		if (rate) {
			*why = "a bandwidth, not a size";
			return -1;
		}
		if (u[n - 1] == 'b') {
			*why = "sizes are in bytes (B), not bits (b)";
			return -1;
		}
	}
	v *= mult;
	if (v < 0) {
		*why = "negative size";
		return -1;
	}
	if (v >= 18446744073709551616.0) {
		*why = "size too large";
		return -1;
	}
	r = nearbyint(v);
	if (fabs(v - r) > 1e-9 * (r > 1 ? r : 1)) {
		*why = "not a whole number of bytes";
		return -1;
	}
	*bytes = (uint64_t)r;
	return 0;
}

int units_bandwidth(const char *s, double defunit, double *bytes_per_s, const char **why)
{
	const char *u;
	size_t n;
	double v, mult = defunit;
	int rate = 1;

	if (split(s, &v, &u, &n, why) < 0)
		return -1;
	if (n) {
		if (byte_unit(u, n, &mult, &rate, why) < 0)
			return -1;
		if (!rate) {
			*why = "a size, not a bandwidth";
			return -1;
		}
	}
	v *= mult;
	if (v < 0) {
		*why = "negative bandwidth";
		return -1;
	}
	if (!isfinite(v)) {
		*why = "bandwidth too large";
		return -1;
	}
	*bytes_per_s = v;
	return 0;
}

int units_time(const char *s, double defunit, ncsim_time_t *ps, const char **why)
{
	static const struct { const char *name; double ps; } tu[] = {
		{ "ps", 1.0 }, { "ns", 1e3 }, { "us", 1e6 }, { "\xc2\xb5s", 1e6 },
		{ "ms", 1e9 }, { "s", 1e12 },
	};
	const char *u;
	size_t n, i;
	double v, mult = defunit;

	if (split(s, &v, &u, &n, why) < 0)
		return -1;
	if (n) {
		for (i = 0; i < sizeof tu / sizeof tu[0]; i++)
			if (unit_is(u, n, tu[i].name))
				break;
		if (i == sizeof tu / sizeof tu[0]) {
			*why = "unknown time unit (use ps, ns, us, ms or s)";
			return -1;
		}
		mult = tu[i].ps;
	}
	v *= mult;
	if (v < 0) {
		*why = "negative time";
		return -1;
	}
	if (v >= 18446744073709551616.0) {
		*why = "time too large";
		return -1;
	}
	*ps = (ncsim_time_t)nearbyint(v);
	return 0;
}

int units_double(const char *s, double *v, const char **why)
{
	const char *u;
	size_t n;

	if (split(s, v, &u, &n, why) < 0)
		return -1;
	if (n) {
		*why = "trailing characters after the number";
		return -1;
	}
	return 0;
}

int units_int(const char *s, int64_t *v, const char **why)
{
	const char *p = s, *digits;
	char *end;
	long long x;
	int base = 10;

	while (is_blank(*p)) p++;
	digits = p;
	if (*digits == '+' || *digits == '-')
		digits++;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		base = 16;
	/* strtoll would skip blanks after a sign and accept "0x" alone; insist on a digit. */
	if (!(base == 16 ? (digits[2] && strchr("0123456789abcdefABCDEF", digits[2])) : is_digit(*digits))) {
		*why = *p ? "not an integer" : "empty value";
		return -1;
	}
	errno = 0;
	x = strtoll(p, &end, base);
	if (errno == ERANGE) {
		*why = "integer out of range";
		return -1;
	}
	while (is_blank(*end)) end++;
	if (*end) {
		*why = "not an integer";
		return -1;
	}
	*v = x;
	return 0;
}

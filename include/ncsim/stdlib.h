/*
 * ncsim/stdlib.h - coNCePTuaL's built-in functions and expression semantics.
 *
 * One library serves two callers: the compiler, which folds constant
 * expressions with it, and generated skeletons, which call it at run time.
 * Both therefore get bit-identical results. LANGUAGE.md §3, §5, §7 and §9.8
 * are the specification; where the reference backends disagree ncsim follows
 * the C backend (LANGUAGE.md §13, "ncsim's choices").
 *
 * Naming: every built-in of §5 has an integer-context version `ncsim_<name>_i`
 * (int64_t arguments and result) and a floating-point-context version
 * `ncsim_<name>_f` (double arguments and result). Operators follow the same
 * scheme (`ncsim_mod_i`, `ncsim_mod_f`, ...). Optional arguments are never
 * optional here: the caller passes the defaults listed in LANGUAGE.md §5
 * (k=2 for trees, n=num_tasks for k-nomial trees, ...). A comment above an
 * `_i`/`_f` pair is the contract of both; the `_f` form converts as the
 * §5 text says (truncation where an integer is needed).
 *
 * Error convention. Built-ins have fatal conditions ("7 modulo 0 is not
 * defined"). The library never exits and never prints: a function that can
 * fail takes an `ncsim_err *e` as its LAST argument. On failure it records the
 * message in *e and returns 0 (0.0 for doubles). The error is sticky: the
 * first message recorded wins and `failed` stays set, so a whole expression
 * can be evaluated and checked once:
 *
 *     ncsim_err e = NCSIM_ERR_INIT;            (one per task entry function)
 *     x = ncsim_mod_i(a, ncsim_div_i(b, c, &e), &e);
 *     if (__builtin_expect(e.failed, 0)) rt_fatal(t, "%s", e.msg);
 *
 * Because every error is fatal to the run, one ncsim_err per task is enough
 * and it never needs resetting. The compiler turns a failed fold into a
 * compile-time error with the same text. `e` may be NULL: the error is then
 * discarded (the return value is still 0).
 *
 * Every §5 built-in takes `e`, even those that cannot fail in integer
 * context, so that code generation is uniform. Of the operators only those
 * that can fail take it (division, MOD, **, and the float-context operators
 * that convert their operands to integers).
 *
 * Float-context functions reject non-finite arguments, as the C backend does:
 * `unable to perform a numeric operation on "inf"`.
 *
 * Integer overflow wraps (two's complement) everywhere, without undefined
 * behaviour, so constant folding matches run-time evaluation.
 */
#ifndef NCSIM_STDLIB_H
#define NCSIM_STDLIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

#define NCSIM_ERR_MSG_MAX 256

/* Error slot filled by failing built-ins; see the convention above. */
typedef struct ncsim_err {
	int failed;                  /* 0 until the first error */
	char msg[NCSIM_ERR_MSG_MAX]; /* first error's message: no program name, no newline */
} ncsim_err;

#define NCSIM_ERR_INIT { 0, { 0 } }

/* Records a formatted error in e unless one is already recorded (NULL e: ignored); returns 0. */
int ncsim_err_set(ncsim_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), cold));

/* ------------------------------------------------------ integer operators */

/* a + b with two's-complement wrap-around. */
static inline int64_t ncsim_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
/* a - b with wrap-around. */
static inline int64_t ncsim_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
/* a * b with wrap-around. */
static inline int64_t ncsim_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
/* -a with wrap-around (-INT64_MIN is INT64_MIN). */
static inline int64_t ncsim_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }

/* Out-of-line error path of ncsim_div_i: records "a divided by 0 is not defined" in e, returns 0. */
int64_t ncsim_div_zero_(int64_t a, ncsim_err *e);
/* Out-of-line error path of ncsim_mod_i: records "a modulo 0 is not defined" in e, returns 0. */
int64_t ncsim_mod_zero_(int64_t a, ncsim_err *e);

/* a / b truncating toward zero; b == 0 fails; INT64_MIN / -1 wraps to INT64_MIN. */
static inline int64_t ncsim_div_i(int64_t a, int64_t b, ncsim_err *e)
{
	if (b == 0)
		return ncsim_div_zero_(a, e);
	if (b == -1)
		return ncsim_neg(a);
	return a / b;
}

/* a MOD b, always in [0, |b|); b == 0 fails ("a modulo 0 is not defined"). */
static inline int64_t ncsim_mod_i(int64_t a, int64_t b, ncsim_err *e)
{
	uint64_t ub, r;

	if (b == 0)
		return ncsim_mod_zero_(a, e);
	ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	if (a >= 0)
		return (int64_t)((uint64_t)a % ub);
	r = (0 - (uint64_t)a) % ub;
	return (int64_t)(r ? ub - r : 0);
}

/* a >> n for n >= 0, arithmetic (sign-filling), any n (n >= 64 gives 0 or -1). */
static inline int64_t ncsim_sar_(int64_t a, uint64_t n)
{
	if (n >= 64)
		return a < 0 ? -1 : 0;
	return a < 0 ? ~(int64_t)(~(uint64_t)a >> n) : (int64_t)((uint64_t)a >> n);
}

/* a << n for n >= 0 with bits shifted out discarded (n >= 64 gives 0). */
static inline int64_t ncsim_shl_(int64_t a, uint64_t n)
{
	return n >= 64 ? 0 : (int64_t)((uint64_t)a << n);
}

/* a << b; a negative b shifts right (arithmetic): 1 << -1 = 0. */
static inline int64_t ncsim_shl_i(int64_t a, int64_t b)
{
	return b >= 0 ? ncsim_shl_(a, (uint64_t)b) : ncsim_sar_(a, 0 - (uint64_t)b);
}

/* a >> b = a << -b: -7 >> 1 = -4, 16 >> -2 = 64. */
static inline int64_t ncsim_shr_i(int64_t a, int64_t b)
{
	return b >= 0 ? ncsim_sar_(a, (uint64_t)b) : ncsim_shl_(a, 0 - (uint64_t)b);
}

/* Bytes of an `n BITS` size (LANGUAGE.md §3.4): n/8 + (n%8 != 0) with C's truncating / and %. */
static inline int64_t ncsim_bits_to_bytes(int64_t n) { return n / 8 + (n % 8 != 0); }

/* a ** b in integer context (LANGUAGE.md §3.2): 0**0 and 0**negative fail. */
int64_t ncsim_pow_i(int64_t base, int64_t exponent, ncsim_err *e);

/* --------------------------------------- floating-point context operators */

/*
 * Conversions between the two contexts. ncsim_real_to_int is the C backend's
 * CONC_DBL2INT, (int64)(d + 0.5): REAL(-27/10) = -2. Out-of-range values
 * saturate and NaN gives INT64_MIN (what x86 produces), instead of the
 * undefined behaviour of a plain cast.
 */
int64_t ncsim_real_to_int(double d);
/* Truncation toward zero, saturating; NaN gives INT64_MIN. */
int64_t ncsim_trunc_to_int(double d);
/* Fails unless d is finite ("unable to perform a numeric operation on ..."); returns 0 or -1. */
int ncsim_check_finite(double d, ncsim_err *e);
/* Truncates d toward zero after ncsim_check_finite. */
int64_t ncsim_f2i(double d, ncsim_err *e);

/* base ** exponent with pow(); fails for 0**(<=0) and negative**non-integer. */
double ncsim_pow_f(double base, double exponent, ncsim_err *e);
/* MOD on doubles: both operands truncated to integers, then ncsim_mod_i. */
double ncsim_mod_f(double a, double b, ncsim_err *e);
/* a << b on truncated operands (ncsim_shl_i). */
double ncsim_shl_f(double a, double b, ncsim_err *e);
/* a >> b on truncated operands (ncsim_shr_i). */
double ncsim_shr_f(double a, double b, ncsim_err *e);
/* Bitwise a & b on truncated operands (LANGUAGE.md §13 item 8: 3|5 prints 7). */
double ncsim_and_f(double a, double b, ncsim_err *e);
/* Bitwise a | b on truncated operands. */
double ncsim_or_f(double a, double b, ncsim_err *e);
/* Bitwise a XOR b on truncated operands. */
double ncsim_xor_f(double a, double b, ncsim_err *e);
/* Bitwise NOT a on the truncated operand. */
double ncsim_not_f(double a, ncsim_err *e);

/* Formats v as C's "%.10g" (how OUTPUTS and LOGS print doubles); returns snprintf's result. */
int ncsim_fmt_g10(char *buf, size_t size, double v);

/* ------------------------------------------- simple numeric functions (§5.1) */

int64_t ncsim_abs_i(int64_t x, ncsim_err *e);      /* fails for INT64_MIN */
double ncsim_abs_f(double x, ncsim_err *e);        /* fabs */
int64_t ncsim_bits_i(int64_t x, ncsim_err *e);     /* significant bits of (uint64)x: BITS(-1) = 64 */
double ncsim_bits_f(double x, ncsim_err *e);       /* BITS of x truncated */
int64_t ncsim_cbrt_i(int64_t x, ncsim_err *e);     /* ROOT(3,x); 0 for 0; fails for x < 0 */
double ncsim_cbrt_f(double x, ncsim_err *e);       /* cbrt; fails for x < 0 */
int64_t ncsim_sqrt_i(int64_t x, ncsim_err *e);     /* x for x <= 1, else ROOT(2,x); fails for x < 0 */
double ncsim_sqrt_f(double x, ncsim_err *e);       /* sqrt; fails for x < 0 */
/* Largest r with r**n <= x (n > 0); C-backend value for n < 0 (ROOT(-3,8) = 1); fails if n = 0 or x < 0. */
int64_t ncsim_root_i(int64_t n, int64_t x, ncsim_err *e);
double ncsim_root_f(double n, double x, ncsim_err *e); /* pow(x, 1/n); fails if n = 0 or x < 0 */
int64_t ncsim_log10_i(int64_t x, ncsim_err *e);    /* floor(log10(x)), exact; fails for x <= 0 */
double ncsim_log10_f(double x, ncsim_err *e);      /* log10 */
int64_t ncsim_factor10_i(int64_t x, ncsim_err *e); /* one significant digit toward zero: 4975 -> 4000 */
double ncsim_factor10_f(double x, ncsim_err *e);   /* sign(x)*floor(|x|/m)*m, m = 10^floor(log10|x|) */
/* Minimum of v[0..n-1]; n == 0 is an internal error recorded in e. */
int64_t ncsim_min_i(const int64_t *v, size_t n, ncsim_err *e);
/* Maximum of v[0..n-1]; n == 0 is an internal error recorded in e. */
int64_t ncsim_max_i(const int64_t *v, size_t n, ncsim_err *e);
/* Minimum of v[0..n-1], all finite; n == 0 is an internal error. */
double ncsim_min_f(const double *v, size_t n, ncsim_err *e);
/* Maximum of v[0..n-1], all finite; n == 0 is an internal error. */
double ncsim_max_f(const double *v, size_t n, ncsim_err *e);
int64_t ncsim_floor_i(int64_t x, ncsim_err *e);    /* identity */
double ncsim_floor_f(double x, ncsim_err *e);      /* floor */
int64_t ncsim_ceiling_i(int64_t x, ncsim_err *e);  /* identity */
double ncsim_ceiling_f(double x, ncsim_err *e);    /* ceil */
int64_t ncsim_round_i(int64_t x, ncsim_err *e);    /* identity */
double ncsim_round_f(double x, ncsim_err *e);      /* half away from zero */

/* ------------------------------------------------------ n-ary trees (§5.2) */

/* Parent of t in a k-ary tree: -1 if t <= 0; fails if k < 1. */
int64_t ncsim_tree_parent_i(int64_t t, int64_t k, ncsim_err *e);
double ncsim_tree_parent_f(double t, double k, ncsim_err *e);
/* Child c of t in a k-ary tree, t*k+c+1; -1 if c not in [0,k); fails if k < 1. */
int64_t ncsim_tree_child_i(int64_t t, int64_t c, int64_t k, ncsim_err *e);
double ncsim_tree_child_f(double t, double c, double k, ncsim_err *e);

/* --------------------------------------------------- k-nomial trees (§5.3) */

/* Parent of t in a k-nomial tree of n tasks; -1 if t <= 0 or t >= n; fails if k < 2. */
int64_t ncsim_knomial_parent_i(int64_t t, int64_t k, int64_t n, ncsim_err *e);
double ncsim_knomial_parent_f(double t, double k, double n, ncsim_err *e);
/* Number of children of t; -1 if t >= n (or t < 0); fails if k < 2. */
int64_t ncsim_knomial_children_i(int64_t t, int64_t k, int64_t n, ncsim_err *e);
double ncsim_knomial_children_f(double t, double k, double n, ncsim_err *e);
/* Child i (0-based) of t; -1 if t >= n, t < 0, i < 0 or i >= children; fails if k < 2. */
int64_t ncsim_knomial_child_i(int64_t t, int64_t i, int64_t k, int64_t n, ncsim_err *e);
double ncsim_knomial_child_f(double t, double i, double k, double n, ncsim_err *e);

/* ----------------------------------------------------- meshes, tori (§5.4) */

/*
 * Dimensions are always three (w, h, d): pad missing ones with 1. `torus` is
 * a bit mask of wrapped dimensions: NCSIM_TORUS_X | NCSIM_TORUS_Y | ... (the
 * `*` markers). All three fail on a zero-sized or negatively sized mesh.
 */
#define NCSIM_TORUS_X 1u
#define NCSIM_TORUS_Y 2u
#define NCSIM_TORUS_Z 4u
/* Task at offset (dx,dy,dz) from t, or -1 if t or the neighbour is off the mesh. */
int64_t ncsim_mesh_neighbor_i(int64_t w, int64_t h, int64_t d, unsigned torus,
                              int64_t t, int64_t dx, int64_t dy, int64_t dz, ncsim_err *e);
double ncsim_mesh_neighbor_f(double w, double h, double d, unsigned torus,
                             double t, double dx, double dy, double dz, ncsim_err *e);
/* Coordinate c (0=x, 1=y, 2=z) of t, -1 if t is off the mesh; other c fail. */
int64_t ncsim_mesh_coordinate_i(int64_t w, int64_t h, int64_t d, int64_t t, int64_t c, ncsim_err *e);
double ncsim_mesh_coordinate_f(double w, double h, double d, double t, double c, ncsim_err *e);
/* Manhattan distance (shortcuts through wrapped dimensions), -1 if a task is off the mesh. */
int64_t ncsim_mesh_distance_i(int64_t w, int64_t h, int64_t d, unsigned torus,
                              int64_t t1, int64_t t2, ncsim_err *e);
double ncsim_mesh_distance_f(double w, double h, double d, unsigned torus,
                             double t1, double t2, ncsim_err *e);

/* ------------------------------------------- random numbers (§5.5, §9.8) */

#define NCSIM_MT64_NN 312

/*
 * MT19937-64 generator state plus the spare value of the polar Box-Muller
 * method. The layout is public only so that the runtime can embed it; treat
 * the fields as private. Seed it (ncsim_mt64_seed*) before the first draw.
 */
struct ncsim_mt64 {
	uint64_t mt[NCSIM_MT64_NN];
	unsigned idx;       /* next word of mt[] to temper; NN means "regenerate" */
	int have_spare;     /* spare holds an unused standard normal deviate */
	double spare;
};

/* Seeds g with the standard MT19937-64 init_genrand64 recurrence. */
void ncsim_mt64_seed(struct ncsim_mt64 *g, uint64_t seed);
/* Seeds a task's unsynchronised stream: seed*1083743797 + rank (wrapping), LANGUAGE.md §5.5. */
void ncsim_mt64_seed_task(struct ncsim_mt64 *g, int64_t seed, int64_t rank);
/* Next 64 random bits. */
uint64_t ncsim_mt64_next(struct ncsim_mt64 *g);
/* Next 63 random bits (a non-negative int64). */
int64_t ncsim_mt64_next63(struct ncsim_mt64 *g);
/* Uniform double on [0,1) with 53 random bits. */
double ncsim_mt64_res53(struct ncsim_mt64 *g);

/* Uniform on [lo, hi); fails if lo >= hi. */
int64_t ncsim_random_uniform_i(struct ncsim_mt64 *g, int64_t lo, int64_t hi, ncsim_err *e);
double ncsim_random_uniform_f(struct ncsim_mt64 *g, double lo, double hi, ncsim_err *e);
/* Normal deviate (polar Box-Muller); the integer version truncates toward zero. */
int64_t ncsim_random_gaussian_i(struct ncsim_mt64 *g, int64_t mean, int64_t sd, ncsim_err *e);
double ncsim_random_gaussian_f(struct ncsim_mt64 *g, double mean, double sd, ncsim_err *e);
/* Poisson deviate (Knuth's method); fails for mean < 0. The float version truncates mean, as C does. */
int64_t ncsim_random_poisson_i(struct ncsim_mt64 *g, int64_t mean, ncsim_err *e);
double ncsim_random_poisson_f(struct ncsim_mt64 *g, double mean, ncsim_err *e);
/*
 * Pareto deviate; lo == hi is the ordinary form with scale lo, lo < hi the
 * bounded form (pass scale twice for the two-argument call). Fails if
 * shape <= 0, lo <= 0 or lo > hi. The integer version rounds half away from
 * zero and redraws values above INT64_MAX.
 */
int64_t ncsim_random_pareto_i(struct ncsim_mt64 *g, int64_t shape, int64_t lo, int64_t hi, ncsim_err *e);
double ncsim_random_pareto_f(struct ncsim_mt64 *g, double shape, double lo, double hi, ncsim_err *e);

/*
 * Synchronised random task of LANGUAGE.md §9.8 from [lo, hi], never `excl`
 * (an excl outside [lo, hi], e.g. INT64_MIN, excludes nothing); -1 if the
 * range is empty or holds only excl. Draws one 63-bit number unless it returns -1.
 */
int64_t ncsim_random_task(struct ncsim_mt64 *g, int64_t lo, int64_t hi, int64_t excl);

/* ------------------------------------------------------ file data (§5.7) */

/* Cache of files read by FILE_DATA: each file is read once per cache. Opaque. */
typedef struct ncsim_filecache ncsim_filecache;
/* Creates an empty cache. */
ncsim_filecache *ncsim_filecache_new(void);
/* Frees the cache and every file it holds (NULL is a no-op). */
void ncsim_filecache_free(ncsim_filecache *c);
/*
 * FILE_DATA(file, col, row, colseps, rowseps): cell (col,row), both counted
 * from 1, negative from the end, converted with strtoll(s, NULL, 0). Fails
 * for col or row 0, rowseps other than "\n", an unreadable file, or a
 * missing row or column. A failed open is not cached (a later call retries).
 * A relative file name is opened relative to the current directory.
 */
int64_t ncsim_file_data_i(ncsim_filecache *c, const char *file, int64_t col, int64_t row,
                          const char *colseps, const char *rowseps, ncsim_err *e);
/* The same with strtod and truncated col/row. */
double ncsim_file_data_f(ncsim_filecache *c, const char *file, double col, double row,
                         const char *colseps, const char *rowseps, ncsim_err *e);

/* ------------------------------------------- progressions (LANGUAGE.md §3.6) */

/*
 * A progression {v0, ..., vk-1, ..., last} after inference. Fill it with
 * ncsim_range_init, then iterate:
 *
 *     struct ncsim_range r; struct ncsim_range_it it; int64_t v;
 *     if (ncsim_range_init(&r, vals, NULL, k, last, 0.0, &e) == 0)
 *         for (int ok = ncsim_range_first(&r, &it, &v); ok; ok = ncsim_range_next(&r, &it, &v))
 *             body(v);
 *
 * Iteration allocates nothing. The C-backend rules apply, including a +1
 * step for a constant prefix ({2,2,...,5} is 2 3 4 5), an included final
 * value for descending progressions, rounding (DBL2INT) in non-integral
 * geometric ones and the stop when the value stops changing. Two guards
 * where the C loop misbehaves: a step that would overflow ends the
 * progression, and a ratio of -1 ({-3,3,-3,...,10}), which the C loop
 * repeats forever, stops when the value comes back to the start (-3 3).
 */
enum ncsim_range_op { NCSIM_RANGE_ADD, NCSIM_RANGE_MUL, NCSIM_RANGE_DIV, NCSIM_RANGE_FMUL };

struct ncsim_range {
	enum ncsim_range_op op; /* ADD/MUL/DIV: integer arithmetic; FMUL: doubles */
	int ascending;          /* continue while value <= last (else while >= last) */
	int64_t start, last, inc;
	double dstart, dlast, dinc; /* FMUL only */
};

struct ncsim_range_it {
	int64_t value, prev; /* the loop variable and its previous value (stall guard) */
	double dvalue, dprev; /* FMUL only */
	int done;
};

/*
 * Infers the progression from v[0..k-1] (k >= 1) and last, all evaluated in
 * integer context. vd, if not NULL, holds v[] evaluated in floating-point
 * context and last_d the final value likewise; they are used only by the
 * non-integral geometric rule (vd == NULL: converted from v and last).
 * Returns 0, or -1 with "Unable to find an arithmetic or geometric pattern to
 * {v0, v1, v2, ..., last}" in e (k == 0 is an internal error).
 */
int ncsim_range_init(struct ncsim_range *r, const int64_t *v, const double *vd, size_t k,
                     int64_t last, double last_d, ncsim_err *e);
/* Starts iterating r: stores the first value in *out and returns 1, or returns 0 if r is empty. */
int ncsim_range_first(const struct ncsim_range *r, struct ncsim_range_it *it, int64_t *out);
/* Stores the next value in *out and returns 1, or returns 0 at the end. */
int ncsim_range_next(const struct ncsim_range *r, struct ncsim_range_it *it, int64_t *out);
/* 1 if x is one of r's values (O(1) for arithmetic progressions). */
int ncsim_range_contains(const struct ncsim_range *r, int64_t x);

/* A growable array of int64_t (same layout as base/util.h's VEC(int64_t)). */
struct ncsim_ivec {
	int64_t *ptr;
	size_t len, cap;
};
/* Appends every value of r to out (growing it); returns the number appended. */
size_t ncsim_range_append(const struct ncsim_range *r, struct ncsim_ivec *out);

/* ---------------------------------------------------------- tags (§7) */

/* String tag hash: h = 1234567891; h = h*1073741789 + c per byte (char as signed, as C on x86). */
int64_t ncsim_tag_hash(const char *s);

#ifdef __cplusplus
}
#endif
#endif

/*
 * test_cdecl.c - the C declaration parser of the direct engine's libffi
 * calls (engine/cdecl.c), C arithmetic on typed values (engine/ffi_value.c)
 * and the prototype table generated from include/ncsim at build time.
 * Declarations it accepts give the types a C compiler on this machine
 * gives; anything else is refused at its line and column.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cdecl.h"
#include "engine/ffi_protos.h"
#include "engine/ffi_value.h"
#include "tests/unit/unit.h"

/* Parses text strictly as "h.h"; returns the declarations, or NULL with *err. */
static eng_cdecl *parse(const char *text, char **err)
{
	eng_cdecl *d = eng_cdecl_new();
	if (eng_cdecl_parse(d, "h.h", text, 0, err) == 0)
		return d;
	eng_cdecl_free(d);
	return NULL;
}

/* Asserts that prototype `name` of d is ret(params...) (n params). */
static void expect_proto(const eng_cdecl *d, const char *name, eng_ctype ret, unsigned n, const eng_ctype *params)
{
	const eng_cproto *p = eng_cdecl_proto(d, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->ret, ret);
	CU_ASSERT_EQUAL_FATAL(p->nparams, n);
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(p->params[i], params[i]);
}

static void test_prototypes(void)
{
	char *err = NULL;
	eng_cdecl *d = parse("#ifndef H\n#define H\n#include <stdint.h>\n"
	                     "/* a comment */ // another\n"
	                     "extern void f(signed char a, unsigned char, short, unsigned short int, int, unsigned,\n"
	                     "              long, unsigned long long, int64_t, size_t);\n"
	                     "double g(float x, double y) __attribute__((pure));\n"
	                     "const char *h(const void *buf, int *out, char **argv, int v[], const int w[4]);\n"
	                     "int k(void);\n"
	                     "int k(void); /* the same prototype twice is fine */\n"
	                     "#endif\n",
	                     &err);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	/* long is 64 bits and char signed on the x86-64 Linux ncsim runs on (LP64). */
	static const eng_ctype fp[] = {ENG_C_I8, ENG_C_U8, ENG_C_I16, ENG_C_U16, ENG_C_I32,
	                               ENG_C_U32, ENG_C_I64, ENG_C_U64, ENG_C_I64, ENG_C_U64};
	expect_proto(d, "f", ENG_C_VOID, 10, fp);
	expect_proto(d, "g", ENG_C_F64, 2, (const eng_ctype[]){ENG_C_F32, ENG_C_F64});
	expect_proto(d, "h", ENG_C_PTR, 5, (const eng_ctype[]){ENG_C_PTR, ENG_C_PTR, ENG_C_PTR, ENG_C_PTR, ENG_C_PTR});
	expect_proto(d, "k", ENG_C_I32, 0, NULL);
	CU_ASSERT_PTR_NULL(eng_cdecl_proto(d, "missing"));
	eng_cdecl_free(d);
}

static void test_typedefs_and_tags(void)
{
	char *err = NULL;
	eng_cdecl *d = parse("typedef int myint, *intp;\n"
	                     "typedef struct point { double x, y; void (*cb)(int); } point;\n"
	                     "struct opaque;\n"
	                     "typedef struct opaque opaque;\n"
	                     "enum color { RED, GREEN };\n"
	                     "typedef enum { LOW = -1, HIGH } level;\n"
	                     "void use(myint a, intp b, const point *p, opaque *o, enum color c, level l);\n",
	                     &err);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	/* GCC: an enum without negative constants is unsigned int, with one it is int. */
	expect_proto(d, "use", ENG_C_VOID, 6,
	             (const eng_ctype[]){ENG_C_I32, ENG_C_PTR, ENG_C_PTR, ENG_C_PTR, ENG_C_U32, ENG_C_I32});
	eng_cdecl_free(d);
}

static void test_macros(void)
{
	char *err = NULL;
	eng_cdecl *d = parse("typedef int Status;\n"
	                     "#define ANSWER 42\n"
	                     "#define NEG (-1) /* a comment */\n"
	                     "#define BIG 3000000000\n"
	                     "#define WIDE ((unsigned long)7)\n"
	                     "#define IGNORE ((Status *)1)\n"
	                     "#define HALF 0.5\n"
	                     "#define LONG_ONE \\\n  1L\n"
	                     "#define FN(x) ((x) + 1)\n"
	                     "#define NAME \"text\"\n"
	                     "#define EMPTY\n"
	                     "#define OTHER ANSWER\n",
	                     &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	struct {
		const char *name;
		eng_ctype type;
		uint64_t u;
	} want[] = {
		{"ANSWER", ENG_C_I32, 42},
		{"NEG", ENG_C_I32, UINT64_MAX}, /* -1 sign-extended */
		{"BIG", ENG_C_I64, 3000000000u}, /* above INT_MAX: a decimal constant becomes long */
		{"WIDE", ENG_C_U64, 7},
		{"IGNORE", ENG_C_PTR, 1},
		{"LONG_ONE", ENG_C_I64, 1},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const eng_cconst *c = eng_cdecl_const(d, want[i].name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(c->val.type, want[i].type);
		CU_ASSERT_EQUAL(c->val.u, want[i].u);
	}
	const eng_cconst *half = eng_cdecl_const(d, "HALF");
	CU_ASSERT_PTR_NOT_NULL_FATAL(half);
	CU_ASSERT_EQUAL(half->val.type, ENG_C_F64);
	CU_ASSERT_EQUAL(half->val.d, 0.5);
	/* Function-like macros, strings, empty bodies and other names are no constants. */
	CU_ASSERT_PTR_NULL(eng_cdecl_const(d, "FN"));
	CU_ASSERT_PTR_NULL(eng_cdecl_const(d, "NAME"));
	CU_ASSERT_PTR_NULL(eng_cdecl_const(d, "EMPTY"));
	CU_ASSERT_PTR_NULL(eng_cdecl_const(d, "OTHER"));
	eng_cdecl_free(d);
}

/* C++ blocks are skipped as a C compiler skips them; their #else is read. */
static void test_cplusplus(void)
{
	char *err = NULL;
	eng_cdecl *d = parse("#ifdef __cplusplus\nextern \"C\" {\nclass X;\n#endif\n"
	                     "#if defined(__cplusplus)\n#define MODE 1\n#else\n#define MODE 2\n#endif\n"
	                     "int f(int);\n"
	                     "#ifdef __cplusplus\n}\n#endif\n",
	                     &err);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NOT_NULL(eng_cdecl_proto(d, "f"));
	CU_ASSERT_EQUAL(eng_cdecl_const(d, "MODE")->val.u, 2);
	eng_cdecl_free(d);
}

/* Each refused text, with the message at its position (line:column of the offending token). */
static void test_refused(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"int f(int a, ...);", "h.h:1:14: `f` takes a variable number of arguments: not supported"},
		{"void g(void (*cb)(int));", "h.h:1:13: function pointer parameters are not supported"},
		{"struct p { int x; };\nvoid f(struct p v);",
		 "h.h:2:8: parameter 1 of `f` is a struct or union passed by value: only integers, float, double and "
		 "pointers can be passed"},
		{"typedef struct q q;\nq make(void);",
		 "h.h:2:1: the return type is a struct or union passed by value: only integers, float, double and "
		 "pointers can be passed"},
		{"long double f(void);", "h.h:1:1: long double is not supported"},
		{"int f();", "h.h:1:6: `f()` does not declare its parameters: write `f(void)`"},
		{"int counter;", "h.h:1:5: `counter` is a variable: only prototypes, typedefs and macro constants are read"},
		{"\n  static inline int twice(int x) { return 2 * x; }",
		 "h.h:2:21: `twice` is defined here (static or inline): only functions a library exports can be called"},
		{"static int hidden(int);", "h.h:1:12: `hidden` is static: only functions a library exports can be called"},
		{"void f(mytype x);", "h.h:1:8: unknown type name `mytype`"},
		{"void f(_Bool b);", "h.h:1:8: type `_Bool` is not supported (integers, float, double and pointers are)"},
		{"void f(void x);", "h.h:1:8: parameter 1 of `f` has type void"},
		{"void f(enum e x);", "h.h:1:13: `enum e` is not defined in this header: its type is unknown"},
		{"int f(int);\nlong f(int);", "h.h:2:6: `f` conflicts with an earlier prototype"},
		{"int (*fp)(int);", "h.h:1:5: function pointers and parenthesized declarators are not supported"},
		{"int f(int) /* no semicolon */", "h.h:1:30: expected `;` after a prototype"},
		{"void f(int a,\n int b", "h.h:2:7: expected `,` between parameters"},
		{"/* open", "h.h:1:1: unterminated comment"},
		{"void f(const char *s = \"x);", "h.h:1:24: unterminated string or character constant"},
		{"void f(int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int);",
		 "h.h:1:88: `f` has more than 16 parameters"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *err = NULL;
		eng_cdecl *d = parse(cases[i].text, &err);
		CU_ASSERT_PTR_NULL(d);
		UT_TAKE_ERROR(err, cases[i].want);
		eng_cdecl_free(d);
	}
}

/* Lenient mode skips what it cannot read, notes it, and reads on. */
static void test_lenient(void)
{
	eng_cdecl *d = eng_cdecl_new();
	char *err = NULL;
	CU_ASSERT_EQUAL(eng_cdecl_parse(d, "h.h",
	                                "int a(int, ...);\n"
	                                "static inline int b(int x) { if (x) { return 1; } return 0; }\n"
	                                "typedef struct s { int x; } s;\n"
	                                "void c(void (*f)(void));\n"
	                                "int d(s *p);\n",
	                                1, &err),
	                0);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_PTR_NULL(eng_cdecl_proto(d, "a"));
	CU_ASSERT_PTR_NULL(eng_cdecl_proto(d, "b"));
	CU_ASSERT_PTR_NULL(eng_cdecl_proto(d, "c"));
	CU_ASSERT_PTR_NOT_NULL(eng_cdecl_proto(d, "d"));
	CU_ASSERT_STRING_EQUAL(eng_cdecl_note_at(d, 0), "h.h:1:12: `a` takes a variable number of arguments: not supported");
	CU_ASSERT_STRING_EQUAL(eng_cdecl_note_at(d, 1), "h.h:2:19: `b` is defined here (static or inline): only "
	                                                "functions a library exports can be called");
	CU_ASSERT_STRING_EQUAL(eng_cdecl_note_at(d, 2), "h.h:4:13: function pointer parameters are not supported");
	CU_ASSERT_PTR_NULL(eng_cdecl_note_at(d, 3));
	eng_cdecl_free(d);
}

/* The table generated from include/ncsim at build time, checked against union.h as written. */
static void test_generated_table(void)
{
	const eng_cproto *allreduce = NULL, *compute = NULL, *send = NULL;
	for (size_t i = 0; i < eng_nprotos; i++) {
		if (!strcmp(eng_protos[i].name, "UNION_MPI_Allreduce"))
			allreduce = &eng_protos[i];
		if (!strcmp(eng_protos[i].name, "UNION_Compute"))
			compute = &eng_protos[i];
		if (!strcmp(eng_protos[i].name, "rt_send"))
			send = &eng_protos[i];
		CU_ASSERT(strcmp(eng_protos[i].name, "UNION_Type_size") != 0); /* static inline: no symbol */
		CU_ASSERT(strcmp(eng_protos[i].name, "rt_fatal") != 0);        /* variadic */
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(allreduce);
	/* (const void *sendbuf, void *recvbuf, int count, UNION_Datatype, UNION_Op, UNION_Comm): typedefs of int. */
	static const eng_ctype ar[] = {ENG_C_PTR, ENG_C_PTR, ENG_C_I32, ENG_C_I32, ENG_C_I32, ENG_C_I32};
	CU_ASSERT_EQUAL(allreduce->nparams, 6);
	for (unsigned k = 0; k < 6; k++)
		CU_ASSERT_EQUAL(allreduce->params[k], ar[k]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(compute);
	CU_ASSERT_EQUAL(compute->nparams, 1);
	CU_ASSERT_EQUAL(compute->params[0], ENG_C_F64); /* UNION_Compute(double ns) */
	/* rt_send(rt_task *, rt_int dst, uint64_t bytes, rt_int tag, unsigned flags) */
	CU_ASSERT_PTR_NOT_NULL_FATAL(send);
	static const eng_ctype sp[] = {ENG_C_PTR, ENG_C_I64, ENG_C_U64, ENG_C_I64, ENG_C_U32};
	for (unsigned k = 0; k < 5; k++)
		CU_ASSERT_EQUAL(send->params[k], sp[k]);
	int found = 0;
	for (size_t i = 0; i < eng_nproto_consts; i++)
		if (!strcmp(eng_proto_consts[i].name, "UNION_Int")) {
			found = 1;
			CU_ASSERT_EQUAL(eng_proto_consts[i].val.type, ENG_C_I32);
			CU_ASSERT_EQUAL(eng_proto_consts[i].val.u, 4); /* #define UNION_Int 4 */
		}
	CU_ASSERT(found);
}

static eng_cval num(const char *s)
{
	eng_cval v = {0};
	const char *why = NULL;
	CU_ASSERT_EQUAL(eng_cval_number(s, strlen(s), &v, &why), 0);
	return v;
}

/* C11 6.4.4.1: the type of an integer constant is the first of its list that holds it. */
static void test_number_types(void)
{
	static const struct {
		const char *s;
		eng_ctype t;
		uint64_t u;
	} cases[] = {
		{"0", ENG_C_I32, 0},
		{"2147483647", ENG_C_I32, 2147483647},
		{"2147483648", ENG_C_I64, 2147483648u},     /* decimal: int, long, long long */
		{"0x80000000", ENG_C_U32, 0x80000000u},     /* hex: int, unsigned int, ... */
		{"020000000000", ENG_C_U32, 0x80000000u},   /* octal 2^31 */
		{"010", ENG_C_I32, 8},
		{"4294967295u", ENG_C_U32, 4294967295u},
		{"4294967296U", ENG_C_U64, 4294967296u},
		{"10l", ENG_C_I64, 10},
		{"10UL", ENG_C_U64, 10},
		{"10llu", ENG_C_U64, 10},
		{"18446744073709551615u", ENG_C_U64, UINT64_MAX},
		{"0xffffffffffffffff", ENG_C_U64, UINT64_MAX},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		eng_cval v = num(cases[i].s);
		CU_ASSERT_EQUAL(v.type, cases[i].t);
		CU_ASSERT_EQUAL(v.u, cases[i].u);
	}
	eng_cval f = num("1.5e3");
	CU_ASSERT_EQUAL(f.type, ENG_C_F64);
	CU_ASSERT_EQUAL(f.d, 1500.0);
	f = num("0.1f");
	CU_ASSERT_EQUAL(f.type, ENG_C_F32);
	CU_ASSERT_EQUAL(f.d, (double)0.1f);
	static const char *const bad[] = {"08", "1.5L", "18446744073709551615", "18446744073709551616u", "12q", "1ulu"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		eng_cval v;
		const char *why = NULL;
		CU_ASSERT_EQUAL(eng_cval_number(bad[i], strlen(bad[i]), &v, &why), -1);
		CU_ASSERT_PTR_NOT_NULL(why);
	}
}

static eng_cval bin(int op, eng_cval a, eng_cval b)
{
	eng_cval r = {0};
	const char *why = NULL;
	CU_ASSERT_EQUAL(eng_cval_binary(op, &a, &b, &r, &why), 0);
	return r;
}

static eng_cval conv(eng_cval v, eng_ctype t)
{
	const char *why = NULL;
	CU_ASSERT_EQUAL(eng_cval_convert(&v, t, &why), 0);
	return v;
}

/* The usual arithmetic conversions and conversions by assignment, as C computes them. */
static void test_arithmetic(void)
{
	/* -1 + 0u: int meets unsigned int of the same width, so unsigned: 2^32 - 1. */
	eng_cval r = bin('+', num("1"), bin('-', num("0"), num("2")));
	CU_ASSERT_EQUAL(r.type, ENG_C_I32);
	CU_ASSERT_EQUAL((int64_t)r.u, -1);
	r = bin('+', r, num("0u"));
	CU_ASSERT_EQUAL(r.type, ENG_C_U32);
	CU_ASSERT_EQUAL(r.u, 4294967295u);
	/* unsigned int meets long: long is wider and holds every unsigned int, so long. */
	r = bin('*', num("4294967295u"), num("2l"));
	CU_ASSERT_EQUAL(r.type, ENG_C_I64);
	CU_ASSERT_EQUAL(r.u, 8589934590u);
	/* int * int wraps (GCC): 65536 * 65536 = 2^32, 0 in 32 bits. */
	CU_ASSERT_EQUAL(bin('*', num("65536"), num("65536")).u, 0);
	/* Truncation toward zero: -7 / 2 = -3, -7 % 2 = -1. */
	eng_cval m7 = bin('-', num("0"), num("7"));
	CU_ASSERT_EQUAL((int64_t)bin('/', m7, num("2")).u, -3);
	CU_ASSERT_EQUAL((int64_t)bin('%', m7, num("2")).u, -1);
	/* An integer meets a double: 7 / 2.0 = 3.5. */
	r = bin('/', num("7"), num("2.0"));
	CU_ASSERT_EQUAL(r.type, ENG_C_F64);
	CU_ASSERT_EQUAL(r.d, 3.5);
	/* float arithmetic stays float: 0.1f * 3 rounds to the float 0x3e99999a, not the double 0.3. */
	r = bin('*', num("0.1f"), num("3"));
	CU_ASSERT_EQUAL(r.type, ENG_C_F32);
	CU_ASSERT_EQUAL(r.d, (double)(0.1f * 3));
	CU_ASSERT_EQUAL((float)r.d, 0x1.333334p-2f);
	/* Conversions: 70000 to short is 70000 - 65536 = 4464; -1 to unsigned short 65535; -1.9 to int -1. */
	CU_ASSERT_EQUAL(conv(num("70000"), ENG_C_I16).u, 4464);
	CU_ASSERT_EQUAL(conv(bin('-', num("0"), num("1")), ENG_C_U16).u, 65535);
	CU_ASSERT_EQUAL((int64_t)conv(bin('-', num("0"), num("1.9")), ENG_C_I32).u, -1);
	/* 2^53 + 1 does not fit a double: converting the long rounds to even, 2^53. */
	CU_ASSERT_EQUAL(conv(num("9007199254740993"), ENG_C_F64).d, 9007199254740992.0);
	/* ... and to float straight from the integer, not through double: 2^24 + 1 gives 2^24. */
	CU_ASSERT_EQUAL(conv(num("16777217"), ENG_C_F32).d, 16777216.0);
	/* Where C is undefined, the engine refuses. */
	const char *why = NULL;
	eng_cval v = num("3e9"), out;
	CU_ASSERT_EQUAL(eng_cval_convert(&v, ENG_C_I32, &why), -1);
	v = (eng_cval){.type = ENG_C_F64, .d = NAN};
	CU_ASSERT_EQUAL(eng_cval_convert(&v, ENG_C_U64, &why), -1);
	v = bin('-', num("0"), num("0.5"));   /* -0.5 truncates to 0, which an unsigned holds */
	CU_ASSERT_EQUAL(eng_cval_convert(&v, ENG_C_U32, &why), 0);
	CU_ASSERT_EQUAL(v.u, 0);
	eng_cval one = num("1"), zero = num("0");
	CU_ASSERT_EQUAL(eng_cval_binary('/', &one, &zero, &out, &why), -1);
	CU_ASSERT_STRING_EQUAL(why, "division by zero");
	eng_cval imin = bin('-', bin('-', num("0"), num("2147483647")), one), mone = bin('-', zero, one);
	CU_ASSERT_EQUAL(eng_cval_binary('/', &imin, &mone, &out, &why), -1);
}

int main(void)
{
	static const ut_test tests[] = {
		{"prototypes and their types", test_prototypes},
		{"typedefs, structs and enums", test_typedefs_and_tags},
		{"macro constants", test_macros},
		{"__cplusplus blocks skipped", test_cplusplus},
		{"refused declarations at their position", test_refused},
		{"lenient mode notes and skips", test_lenient},
		{"the table generated from include/ncsim", test_generated_table},
		{"types of C constants", test_number_types},
		{"C arithmetic and conversions", test_arithmetic},
		{NULL, NULL},
	};
	return ut_run("cdecl", tests);
}

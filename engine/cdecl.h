/*
 * cdecl.h - a parser of simple C declarations (prefix eng_cdecl_), the
 * prototypes the direct engine needs to call a C function through libffi.
 *
 * It reads a header as a C compiler would see it for the declarations it
 * understands: prototypes `ret name(type a, type b)` whose types are
 * integers, float, double, void and pointers (a pointer's target does not
 * matter to a call); typedefs of those; struct and union types, usable only
 * behind a pointer; enums (int, or unsigned int when no constant is
 * negative, as GCC chooses); and object-like macros whose value is an
 * integer constant, optionally cast, such as `#define UNION_Int 4` or
 * `#define X ((T *)1)`. It does no preprocessing: other directives are
 * ignored, except that `#ifdef __cplusplus` blocks are skipped, as a C
 * compiler skips them.
 *
 * Anything else (a struct passed by value, a function pointer, a variadic
 * function, a variable, long double, a static or inline function, ...) is
 * an error "file:line:col: message", or in lenient mode a note and the
 * declaration is skipped: the build-time table of include/ncsim's headers
 * takes what it can call and lists the rest; a plugin's header is read
 * strictly, so that no function is called with a guessed prototype.
 */
#ifndef NCSIM_ENGINE_CDECL_H
#define NCSIM_ENGINE_CDECL_H

#include <stddef.h>
#include <stdint.h>

/* The types a call can pass or return, by width and signedness. */
typedef enum eng_ctype {
	ENG_C_VOID,
	ENG_C_I8, ENG_C_U8, ENG_C_I16, ENG_C_U16, ENG_C_I32, ENG_C_U32, ENG_C_I64, ENG_C_U64,
	ENG_C_F32, ENG_C_F64,
	ENG_C_PTR,
	ENG_C_STRUCT, /* a struct or union: a typedef may name one, only a pointer to it is passed */
	ENG_C_NTYPES
} eng_ctype;

/* The enumerator names, "ENG_C_I32", as the generated table spells them. */
extern const char *const eng_ctype_names[ENG_C_NTYPES];
/* The C spelling of a type for messages: "int", "unsigned long", "pointer". */
const char *eng_ctype_c(eng_ctype t);

#define ENG_CDECL_MAX_PARAMS 16

/* One prototype. */
typedef struct eng_cproto {
	const char *name;
	unsigned char ret;     /* eng_ctype */
	unsigned char nparams;
	unsigned char params[ENG_CDECL_MAX_PARAMS]; /* eng_ctype each */
} eng_cproto;

/* A C value: an integer's bits in u (two's complement, sign-extended), a
 * pointer's address in u, a float or a double in d (a float's value is
 * exactly a double). */
typedef struct eng_cval {
	eng_ctype type;
	uint64_t u;
	double d;
} eng_cval;

/* One macro constant. */
typedef struct eng_cconst {
	const char *name;
	eng_cval val;
} eng_cconst;

/* One typedef (or enum tag, as "enum TAG"). */
typedef struct eng_ctypedef {
	const char *name;
	unsigned char type; /* eng_ctype */
} eng_ctypedef;

typedef struct eng_cdecl eng_cdecl; /* the declarations read so far */

/* An empty set of declarations. */
eng_cdecl *eng_cdecl_new(void);
/* Frees d (NULL is a no-op). */
void eng_cdecl_free(eng_cdecl *d);
/* Makes `name` a typedef of t before any header is read (the names include/ncsim defines). */
void eng_cdecl_add_typedef(eng_cdecl *d, const char *name, eng_ctype t);
/*
 * Reads the declarations of `text` (file `file`, for messages) into d.
 * Strict: 0, or -1 with *err (heap) "file:line:col: message" at the first
 * declaration it cannot read. Lenient: such declarations are skipped and
 * listed (eng_cdecl_notes); -1 only for text it cannot even split, such as
 * an unterminated comment.
 */
int eng_cdecl_parse(eng_cdecl *d, const char *file, const char *text, int lenient, char **err);
/* eng_cdecl_parse on the file at path (read with its size limits). */
int eng_cdecl_parse_file(eng_cdecl *d, const char *path, int lenient, char **err);

/* The type named by `text` ("unsigned long", "size_t"; no pointer): 0, or -1 if it names none. */
int eng_cdecl_type_name(const char *text, eng_ctype *t);

/* The prototype of function `name`, or NULL. */
const eng_cproto *eng_cdecl_proto(const eng_cdecl *d, const char *name);
/* The macro constant `name`, or NULL. */
const eng_cconst *eng_cdecl_const(const eng_cdecl *d, const char *name);
/* The i-th prototype, constant, typedef or lenient note in reading order, or NULL past the last. */
const eng_cproto *eng_cdecl_proto_at(const eng_cdecl *d, size_t i);
const eng_cconst *eng_cdecl_const_at(const eng_cdecl *d, size_t i);
const eng_ctypedef *eng_cdecl_typedef_at(const eng_cdecl *d, size_t i);
const char *eng_cdecl_note_at(const eng_cdecl *d, size_t i);

#endif

/*
 * backend.c - BACKEND EXECUTES in the direct engine, through libffi (see backend.h).
 *
 * Preparing a statement does what the C compiler does for the compiled
 * engine's translation: the recogniser of compiler/backend_filter.c splits
 * the text into calls, each function is bound to its prototype (the table
 * generated from include/ncsim at build time, or a plugin's header) and its
 * address (dlsym in ncsim itself, which exports the skeleton API, or in the
 * plugin), each argument is type-checked against its parameter, and an
 * ffi_cif is prepared. A call then only evaluates the arguments, converts
 * each to its parameter's type as C converts by assignment, and calls.
 *
 * Without --allow-backend-code the accepted text is exactly what the
 * compiled engine accepts. With it, the compiled engine pastes any C; here
 * only calls of known prototypes can run, and other text is refused with a
 * message that says so.
 */
#include <dlfcn.h>
#include <ffi.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compiler/backend_filter.h"
#include "engine/backend.h"
#include "engine/ffi_expr.h"
#include "engine/ffi_protos.h"
#include "engine/ffi_value.h"
#include "engine/plugin.h"

/* One prepared call. */
typedef struct bcall {
	char *name;
	eng_cproto proto;
	void *fn;
	ffi_cif cif;
	ffi_type *atypes[ENG_CDECL_MAX_PARAMS];
	eng_fx *args[ENG_CDECL_MAX_PARAMS];
	unsigned char null_arg[ENG_CDECL_MAX_PARAMS]; /* C's null pointer constant 0 given to a pointer */
} bcall;

struct eng_backend {
	bcall *calls;
	size_t n;
};

static ffi_type *ffi_of(eng_ctype t)
{
	static ffi_type *const map[ENG_C_NTYPES] = {
		[ENG_C_VOID] = &ffi_type_void, [ENG_C_I8] = &ffi_type_sint8,   [ENG_C_U8] = &ffi_type_uint8,
		[ENG_C_I16] = &ffi_type_sint16, [ENG_C_U16] = &ffi_type_uint16, [ENG_C_I32] = &ffi_type_sint32,
		[ENG_C_U32] = &ffi_type_uint32, [ENG_C_I64] = &ffi_type_sint64, [ENG_C_U64] = &ffi_type_uint64,
		[ENG_C_F32] = &ffi_type_float,  [ENG_C_F64] = &ffi_type_double, [ENG_C_PTR] = &ffi_type_pointer,
	};
	return map[t];
}

/* The prototype of ncsim's own function `name` (include/ncsim's table), or NULL. */
static const eng_cproto *own_proto(const char *name)
{
	for (size_t i = 0; i < eng_nprotos; i++)
		if (!strcmp(eng_protos[i].name, name))
			return &eng_protos[i];
	return NULL;
}

/* Names in arguments: ncsim's macro constants, then the plugins'. */
static const eng_cconst *lookup_const(const void *ctx, const char *name)
{
	for (size_t i = 0; i < eng_nproto_consts; i++)
		if (!strcmp(eng_proto_consts[i].name, name))
			return &eng_proto_consts[i];
	return eng_plugins_const(ctx, name);
}

static const char *const only_known =
	"the direct engine runs only calls NAME(ARGS); of functions with a known prototype (ncsim/union.h, "
	"ncsim/rt.h or a --plugin-header) whose arguments are numbers, macro constants, casts to arithmetic "
	"types, + - * / %, parentheses, message buffers and the statement's expression items; other C code "
	"runs only in the compiled engine (--engine compiled), which pastes it as it is";

/* Binds call c to its prototype and address. */
static int bind(bcall *c, const eng_plugins *pl, int allow_code, char **err)
{
	const eng_cproto *p = own_proto(c->name);
	void *fn = NULL;
	if (p) {
		fn = dlsym(RTLD_DEFAULT, c->name);
		if (!fn) {
			*err = xasprintf("`%s` is declared in include/ncsim but this ncsim does not export it", c->name);
			return -1;
		}
	} else if (allow_code) {
		p = eng_plugins_find(pl, c->name, &fn, err);
		if (!p && !*err)
			*err = xasprintf("`%s` has no known prototype: %s", c->name, only_known);
		if (!p)
			return -1;
	} else {
		*err = xasprintf("`%s` has no prototype in ncsim/union.h", c->name);
		return -1;
	}
	c->proto = *p;
	c->fn = fn;
	return 0;
}

/* Compiles argument k of call c and checks it against its parameter. */
static int argument(bcall *c, unsigned k, const bf_arg *a, const eng_fx_scope *s, char **err)
{
	char *why = NULL;
	c->args[k] = eng_fx_compile(a, s, &why);
	if (!c->args[k]) {
		*err = xasprintf("argument %u of `%s`: %s", k + 1, c->name, why);
		free(why);
		return -1;
	}
	eng_ctype want = (eng_ctype)c->proto.params[k], got = eng_fx_type(c->args[k]);
	if (want == ENG_C_PTR && got != ENG_C_PTR) {
		c->null_arg[k] = (unsigned char)eng_fx_is_null_constant(c->args[k]);
		if (!c->null_arg[k]) {
			*err = xasprintf("argument %u of `%s` is a pointer: pass NULL or a message buffer, not a number",
			                 k + 1, c->name);
			return -1;
		}
	} else if (want != ENG_C_PTR && got == ENG_C_PTR) {
		*err = xasprintf("argument %u of `%s` is %s, not a pointer", k + 1, c->name, eng_ctype_c(want));
		return -1;
	}
	c->atypes[k] = ffi_of(want);
	return 0;
}

/* The number of arguments of a recognised call: `f( )` has one made of blanks, which means none. */
static size_t nargs(const bf_call *bc)
{
	if (bc->nargs != 1)
		return bc->nargs;
	for (size_t i = 0; i < bc->args[0].n; i++)
		if (bc->args[0].toks[i].kind != BF_SPACE)
			return 1;
	return 0;
}

/* The item to blame for an argument: the expression item it is made of alone, else the text it starts in. */
static int blamed_item(const bf_arg *a)
{
	const bf_tok *only = NULL;
	for (size_t i = 0; i < a->n; i++) {
		if (a->toks[i].kind == BF_SPACE)
			continue;
		if (only)
			return a->item;
		only = &a->toks[i];
	}
	return only && only->kind == BF_ITEM ? only->item : a->item;
}

/* Prepares call c from the recognised bc; *bad_item gets the item to blame on failure. */
static int prepare_call(bcall *c, const bf_call *bc, const eng_plugins *pl, const eng_fx_scope *s, int allow_code,
                        char **err, int *bad_item)
{
	c->name = xstrdup(bc->name);
	*bad_item = bc->item;
	if (bind(c, pl, allow_code, err) != 0)
		return -1;
	size_t n = nargs(bc);
	if (n != c->proto.nparams) {
		*err = xasprintf("`%s` takes %u argument%s, not %zu", c->name, c->proto.nparams,
		                 c->proto.nparams == 1 ? "" : "s", n);
		return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		*bad_item = blamed_item(&bc->args[k]);
		if (argument(c, k, &bc->args[k], s, err) != 0)
			return -1;
	}
	if (ffi_prep_cif(&c->cif, FFI_DEFAULT_ABI, (unsigned)n, ffi_of((eng_ctype)c->proto.ret), c->atypes) != FFI_OK) {
		*err = xasprintf("internal error: libffi cannot prepare a call of `%s`", c->name);
		return -1;
	}
	return 0;
}

eng_backend *eng_backend_prepare(const eng_bitem *items, int n, const eng_plugins *pl, int allow_code,
                                 char **err, int *bad_item)
{
	*err = NULL;
	*bad_item = -1;
	bf_item *bi = xcalloc(n > 0 ? (size_t)n : 1, sizeof *bi);
	for (int i = 0; i < n; i++)
		bi[i] = (bf_item){items[i].is_expr, items[i].text};
	bf_calls calls;
	int rc = bf_parse(bi, n, allow_code, &calls, err, bad_item);
	free(bi);
	if (rc != 0) {
		if (allow_code) {   /* bf_parse's own message is about its any_call mode; this one says why */
			free(*err);
			*err = xstrdup(only_known);
		}
		return NULL;
	}
	eng_backend *b = xcalloc(1, sizeof *b);
	b->calls = xcalloc(calls.n ? calls.n : 1, sizeof *b->calls);
	eng_fx_scope s = {.lookup = lookup_const, .ctx = pl, .items = items, .task_name = allow_code};
	for (size_t i = 0; i < calls.n; i++) {
		b->n++;
		if (prepare_call(&b->calls[i], &calls.calls[i], pl, &s, allow_code, err, bad_item) != 0) {
			eng_backend_free(b);
			b = NULL;
			break;
		}
	}
	bf_calls_free(&calls);
	return b;
}

/* One argument's bytes as its parameter's type. */
typedef union slot {
	int8_t i8;
	uint8_t u8;
	int16_t i16;
	uint16_t u16;
	int32_t i32;
	uint32_t u32;
	int64_t i64;
	uint64_t u64;
	float f;
	double d;
	void *p;
} slot;

static void store(slot *s, const eng_cval *v)
{
	switch (v->type) {
	case ENG_C_I8: s->i8 = (int8_t)v->u; break;
	case ENG_C_U8: s->u8 = (uint8_t)v->u; break;
	case ENG_C_I16: s->i16 = (int16_t)v->u; break;
	case ENG_C_U16: s->u16 = (uint16_t)v->u; break;
	case ENG_C_I32: s->i32 = (int32_t)v->u; break;
	case ENG_C_U32: s->u32 = (uint32_t)v->u; break;
	case ENG_C_I64: s->i64 = (int64_t)v->u; break;
	case ENG_C_U64: s->u64 = v->u; break;
	case ENG_C_F32: s->f = (float)v->d; break;
	case ENG_C_F64: s->d = v->d; break;
	default: s->p = (void *)(uintptr_t)v->u; break;
	}
}

static void call_one(const bcall *c, rt_task *t, const eng_bval *vals)
{
	slot sl[ENG_CDECL_MAX_PARAMS];
	void *argp[ENG_CDECL_MAX_PARAMS];
	for (unsigned k = 0; k < c->proto.nparams; k++) {
		eng_cval v = {.type = ENG_C_PTR};
		const char *why = NULL;
		if (!c->null_arg[k] && (eng_fx_eval(c->args[k], t, vals, &v, &why) != 0 ||
		                        eng_cval_convert(&v, (eng_ctype)c->proto.params[k], &why) != 0))
			rt_fatal(t, "BACKEND EXECUTES: argument %u of %s: %s", k + 1, c->name, why);
		store(&sl[k], &v);
		argp[k] = &sl[k];
	}
	/* Large enough for any return value: libffi widens small integers to ffi_arg. */
	union {
		ffi_arg a;
		double d;
		void *p;
	} ret;
	ffi_call((ffi_cif *)&c->cif, FFI_FN(c->fn), &ret, argp);
}

void eng_backend_call(const eng_backend *b, rt_task *t, const eng_bval *vals)
{
	for (size_t i = 0; i < b->n; i++)
		call_one(&b->calls[i], t, vals);
}

void eng_backend_free(eng_backend *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++) {
		for (unsigned k = 0; k < ENG_CDECL_MAX_PARAMS; k++)
			eng_fx_free(b->calls[i].args[k]);
		free(b->calls[i].name);
	}
	free(b->calls);
	free(b);
}

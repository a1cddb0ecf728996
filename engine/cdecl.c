/*
 * cdecl.c - a parser of simple C declarations (see cdecl.h).
 *
 * Two steps. The lexer turns the text into tokens, drops comments and the
 * blocks of `#ifdef __cplusplus`, ignores other directives and turns an
 * object-like `#define NAME body` into a CT_DEFINE token followed by the
 * body's tokens and CT_END, so that the macro is read in its place, after
 * the typedefs above it. The parser then reads one top-level declaration
 * at a time; in lenient mode a declaration it cannot read becomes a note
 * and the parser resumes after it.
 */
#include "engine/cdecl.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/ffi_value.h"

const char *const eng_ctype_names[ENG_C_NTYPES] = {
	"ENG_C_VOID", "ENG_C_I8", "ENG_C_U8", "ENG_C_I16", "ENG_C_U16", "ENG_C_I32", "ENG_C_U32",
	"ENG_C_I64", "ENG_C_U64", "ENG_C_F32", "ENG_C_F64", "ENG_C_PTR", "ENG_C_STRUCT",
};

const char *eng_ctype_c(eng_ctype t)
{
	static const char *const c[ENG_C_NTYPES] = {
		"void", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
		"a 64-bit integer", "an unsigned 64-bit integer", "float", "double", "a pointer", "a struct",
	};
	return t < ENG_C_NTYPES ? c[t] : "?";
}

struct eng_cdecl {
	VEC(eng_cproto) protos;
	VEC(eng_cconst) consts;
	VEC(eng_ctypedef) typedefs; /* also "struct TAG" and "enum TAG" */
	VEC(char *) notes;
};

/* ------------------------------------------------------------------ lexer */

enum { CT_ID, CT_NUM, CT_STR, CT_PUNCT, CT_DEFINE, CT_END };

typedef struct ctok {
	int k;
	size_t off, len;
} ctok;

typedef struct lexer {
	const char *file, *s;
	size_t n;
	VEC(ctok) toks;
	unsigned cond_depth;     /* open #if blocks */
	unsigned skip_from;      /* 0, or the depth of the __cplusplus block being skipped */
	char *err;
} lexer;

/* "file:line:col: " for byte offset off of text s. */
static char *where(const char *file, const char *s, size_t off)
{
	unsigned line = 1;
	size_t bol = 0;
	for (size_t i = 0; i < off; i++)
		if (s[i] == '\n') {
			line++;
			bol = i + 1;
		}
	return xasprintf("%s:%u:%zu: ", file, line, off - bol + 1);
}

static int lex_error(lexer *lx, size_t off, const char *msg)
{
	char *w = where(lx->file, lx->s, off);
	lx->err = xasprintf("%s%s", w, msg);
	free(w);
	return -1;
}

/* Skips blanks and comments up to `end`; a newline sets *bol (in a directive only an escaped one is seen). */
static int skip_blank(lexer *lx, size_t *i, size_t end, int *bol)
{
	const char *s = lx->s;
	while (*i < end) {
		if (s[*i] == '\n') {
			*bol = 1;
			(*i)++;
		} else if (isspace((unsigned char)s[*i]) || (s[*i] == '\\' && *i + 1 < end && s[*i + 1] == '\n')) {
			(*i)++;
		} else if (s[*i] == '/' && *i + 1 < end && s[*i + 1] == '*') {
			const char *e = strstr(s + *i + 2, "*/");
			if (!e)
				return lex_error(lx, *i, "unterminated comment");
			*i = (size_t)(e - s) + 2;
		} else if (s[*i] == '/' && *i + 1 < end && s[*i + 1] == '/') {
			while (*i < end && s[*i] != '\n')
				(*i)++;
		} else {
			break;
		}
	}
	return 0;
}

/* One token at s[*i] (not a blank). */
static int scan_token(lexer *lx, size_t *i, size_t end, ctok *t)
{
	const char *s = lx->s;
	size_t a = *i, b = a;
	if (isalpha((unsigned char)s[a]) || s[a] == '_') {
		while (b < end && (isalnum((unsigned char)s[b]) || s[b] == '_'))
			b++;
		t->k = CT_ID;
	} else if (isdigit((unsigned char)s[a]) || (s[a] == '.' && a + 1 < end && isdigit((unsigned char)s[a + 1]))) {
		/* A preprocessing number: digits, letters, dots, and a sign after an exponent. */
		while (b < end && (isalnum((unsigned char)s[b]) || s[b] == '.' || s[b] == '_' ||
		                   ((s[b] == '+' || s[b] == '-') && strchr("eEpP", s[b - 1]))))
			b++;
		t->k = CT_NUM;
	} else if (s[a] == '"' || s[a] == '\'') {
		for (b = a + 1; b < end && s[b] != s[a] && s[b] != '\n'; b++)
			if (s[b] == '\\')
				b++;
		if (b >= end || s[b] != s[a])
			return lex_error(lx, a, "unterminated string or character constant");
		b++;
		t->k = CT_STR;
	} else {
		b = a + (end - a >= 3 && !strncmp(s + a, "...", 3) ? 3 : 1);
		t->k = CT_PUNCT;
	}
	t->off = a;
	t->len = b - a;
	*i = b;
	return 0;
}

/* The end of the directive starting at s[i]: its newline, past escaped newlines and comments. */
static size_t directive_end(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
			i += 2;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *e = strstr(s + i + 2, "*/");
			i = e ? (size_t)(e - s) + 2 : n;
		} else {
			i++;
		}
	}
	return i;
}

static int tok_eq(const char *s, const ctok *t, const char *w)
{
	return strlen(w) == t->len && !strncmp(s + t->off, w, t->len);
}

/* Tracks #if nesting: a block that tests __cplusplus (ifdef, if defined) is skipped, its #else read. */
static void conditional(lexer *lx, const ctok *d, size_t nd)
{
	const char *s = lx->s;
	const ctok *name = &d[0];
	int cpp = nd > 1 && (tok_eq(s, &d[1], "__cplusplus") ||
	                     (nd > 2 && tok_eq(s, &d[1], "defined") && (tok_eq(s, &d[2], "__cplusplus") ||
	                                                               (nd > 3 && tok_eq(s, &d[3], "__cplusplus")))));
	if (tok_eq(s, name, "if") || tok_eq(s, name, "ifdef") || tok_eq(s, name, "ifndef")) {
		lx->cond_depth++;
		if (!lx->skip_from && cpp && !tok_eq(s, name, "ifndef"))
			lx->skip_from = lx->cond_depth;
	} else if (tok_eq(s, name, "else") || tok_eq(s, name, "elif")) {
		if (lx->skip_from == lx->cond_depth)
			lx->skip_from = 0;   /* the C branch of an __cplusplus test */
	} else if (tok_eq(s, name, "endif") && lx->cond_depth) {
		if (lx->skip_from == lx->cond_depth)
			lx->skip_from = 0;
		lx->cond_depth--;
	}
}

/* A directive from the '#' at s[i] to `end`: conditionals, and object-like macros as CT_DEFINE. */
static int directive(lexer *lx, size_t i, size_t end)
{
	VEC(ctok) d = {0};
	int bol = 0;
	i++;
	for (;;) {
		if (skip_blank(lx, &i, end, &bol) != 0)
			goto fail;
		if (i >= end)
			break;
		ctok t;
		if (scan_token(lx, &i, end, &t) != 0)
			goto fail;
		VEC_PUSH(&d, t);
	}
	if (d.len && d.ptr[0].k == CT_ID) {
		conditional(lx, d.ptr, d.len);
		/* An object-like macro: its name is not followed at once by '('. */
		if (!lx->skip_from && tok_eq(lx->s, &d.ptr[0], "define") && d.len > 1 && d.ptr[1].k == CT_ID &&
		    !(d.len > 2 && d.ptr[2].off == d.ptr[1].off + d.ptr[1].len && tok_eq(lx->s, &d.ptr[2], "("))) {
			VEC_PUSH(&lx->toks, ((ctok){CT_DEFINE, d.ptr[1].off, d.ptr[1].len}));
			for (size_t k = 2; k < d.len; k++)
				VEC_PUSH(&lx->toks, d.ptr[k]);
			VEC_PUSH(&lx->toks, ((ctok){CT_END, end, 0}));
		}
	}
	VEC_FREE(&d);
	return 0;
fail:
	VEC_FREE(&d);
	return -1;
}

static int lex(lexer *lx)
{
	size_t i = 0;
	int bol = 1;
	while (i < lx->n) {
		if (skip_blank(lx, &i, lx->n, &bol) != 0)
			return -1;
		if (i >= lx->n)
			break;
		if (lx->s[i] == '#' && bol) {
			size_t end = directive_end(lx->s, lx->n, i);
			if (directive(lx, i, end) != 0)
				return -1;
			i = end;
			continue;
		}
		bol = 0;
		ctok t;
		if (scan_token(lx, &i, lx->n, &t) != 0)
			return -1;
		if (!lx->skip_from)
			VEC_PUSH(&lx->toks, t);
	}
	return 0;
}

/* ----------------------------------------------------------------- parser */

typedef struct cparser {
	eng_cdecl *d;
	const char *file, *s;
	const ctok *t;
	size_t n, i;
	char *err;
} cparser;

static int perr(cparser *p, size_t tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(cparser *p, size_t tok, const char *fmt, ...)
{
	if (p->err)
		return -1;
	size_t off = tok < p->n ? p->t[tok].off : strlen(p->s);
	char *w = where(p->file, p->s, off);
	va_list ap;
	va_start(ap, fmt);
	char *m = xvasprintf(fmt, ap);
	va_end(ap);
	p->err = xasprintf("%s%s", w, m);
	free(w);
	free(m);
	return -1;
}

/* True when the current token is the word or punctuator w. */
static int at(const cparser *p, const char *w)
{
	return p->i < p->n && p->t[p->i].k != CT_DEFINE && p->t[p->i].k != CT_END && tok_eq(p->s, &p->t[p->i], w);
}

static int accept(cparser *p, const char *w)
{
	if (!at(p, w))
		return 0;
	p->i++;
	return 1;
}

static int expect(cparser *p, const char *w, const char *what)
{
	if (accept(p, w))
		return 0;
	return perr(p, p->i, "expected `%s` %s", w, what);
}

/* The current token as a heap string. */
static char *tok_str(const cparser *p, size_t k)
{
	return k < p->n ? xstrndup(p->s + p->t[k].off, p->t[k].len) : xstrdup("end of file");
}

/* Skips a balanced group from the opening token at p->i ("(" or "{"). */
static int skip_group(cparser *p, const char *open, const char *close)
{
	size_t start = p->i;
	int depth = 0;
	do {
		if (p->i >= p->n || p->t[p->i].k == CT_DEFINE)
			return perr(p, start, "`%s` is not closed", open);
		depth += at(p, open) - at(p, close);
		p->i++;
	} while (depth > 0);
	return 0;
}

static const eng_ctypedef *find_typedef(const eng_cdecl *d, const char *name, size_t n)
{
	for (size_t i = d->typedefs.len; i-- > 0;)
		if (strlen(d->typedefs.ptr[i].name) == n && !strncmp(d->typedefs.ptr[i].name, name, n))
			return &d->typedefs.ptr[i];
	return NULL;
}

void eng_cdecl_add_typedef(eng_cdecl *d, const char *name, eng_ctype t)
{
	VEC_PUSH(&d->typedefs, ((eng_ctypedef){xstrdup(name), (unsigned char)t}));
}

/* The specifiers of a declaration (C11 6.7.2's multiset of type specifiers). */
typedef struct spec {
	int is_typedef, is_static, any;
	int sign, unsign, shrt, lng, intk, chr, flt, dbl, vd, other;
	eng_ctype named; /* a typedef name, struct or enum: its type */
	int has_named;
	int tagged;      /* struct/union/enum: `struct X {...};` or `struct X;` may declare nothing else */
	size_t first;
} spec;

static const char *const ignored_words[] = {
	"extern", "const", "volatile", "restrict", "__restrict", "__restrict__", "_Noreturn", "__extension__",
};

/* `struct TAG`, `union TAG` or `enum TAG`, with or without a body. */
static int tagged(cparser *p, spec *sp)
{
	int is_enum = at(p, "enum");
	const char *kw = is_enum ? "enum" : at(p, "union") ? "union" : "struct";
	p->i++;
	char *tag = NULL;
	if (p->i < p->n && p->t[p->i].k == CT_ID) {
		tag = xasprintf("%s %.*s", kw, (int)p->t[p->i].len, p->s + p->t[p->i].off);
		p->i++;
	}
	eng_ctype t = is_enum ? ENG_C_I32 : ENG_C_STRUCT;
	if (at(p, "{")) {
		size_t open = p->i;
		if (skip_group(p, "{", "}") != 0) {
			free(tag);
			return -1;
		}
		/* GCC gives an enum without negative constants the type unsigned int. */
		int neg = 0;
		for (size_t k = open; is_enum && k < p->i; k++)
			neg |= tok_eq(p->s, &p->t[k], "-");
		t = is_enum && !neg ? ENG_C_U32 : t;
		if (tag)
			eng_cdecl_add_typedef(p->d, tag, t);
	} else if (!tag) {
		return perr(p, p->i, "expected a name or `{` after `%s`", kw);
	} else {
		const eng_ctypedef *td = find_typedef(p->d, tag, strlen(tag));
		if (is_enum && !td) {
			int rc = perr(p, p->i - 1, "`%s` is not defined in this header: its type is unknown", tag);
			free(tag);
			return rc;
		}
		t = td ? (eng_ctype)td->type : ENG_C_STRUCT;
	}
	free(tag);
	sp->named = t;
	sp->has_named = sp->tagged = 1;
	return 0;
}

/* One specifier word at p->i; 0 if it is none (the declarator starts). */
static int spec_word(cparser *p, spec *sp, int *done)
{
	static const char *const words[] = {"signed", "unsigned", "short", "long", "int", "char", "float",
	                                    "double", "void"};
	int *counts[] = {&sp->sign, &sp->unsign, &sp->shrt, &sp->lng, &sp->intk, &sp->chr, &sp->flt, &sp->dbl, &sp->vd};
	*done = 0;
	for (size_t k = 0; k < sizeof ignored_words / sizeof *ignored_words; k++)
		if (accept(p, ignored_words[k]))
			return 0;
	if (at(p, "__attribute__")) {
		p->i++;
		return at(p, "(") ? skip_group(p, "(", ")") : perr(p, p->i, "expected `((` after __attribute__");
	}
	if (accept(p, "typedef")) {
		sp->is_typedef = 1;
		return 0;
	}
	if (accept(p, "static") || accept(p, "inline") || accept(p, "__inline") || accept(p, "__inline__")) {
		sp->is_static = 1;
		return 0;
	}
	for (size_t k = 0; k < sizeof words / sizeof *words; k++)
		if (accept(p, words[k])) {
			(*counts[k])++;
			sp->any = 1;
			return 0;
		}
	if (at(p, "struct") || at(p, "union") || at(p, "enum")) {
		sp->any = 1;
		return tagged(p, sp);
	}
	if (at(p, "_Bool") || at(p, "bool") || at(p, "_Complex"))
		return perr(p, p->i, "type `%.*s` is not supported (integers, float, double and pointers are)",
		            (int)p->t[p->i].len, p->s + p->t[p->i].off);
	const eng_ctypedef *td = NULL;
	if (p->i < p->n && p->t[p->i].k == CT_ID && !sp->any)
		td = find_typedef(p->d, p->s + p->t[p->i].off, p->t[p->i].len);
	if (td) {
		sp->named = (eng_ctype)td->type;
		sp->has_named = sp->any = 1;
		p->i++;
		return 0;
	}
	*done = 1;
	return 0;
}

/* The type the specifiers name. */
static int spec_type(cparser *p, const spec *sp, eng_ctype *t)
{
	int words = sp->sign + sp->unsign + sp->shrt + sp->lng + sp->intk + sp->chr + sp->flt + sp->dbl + sp->vd;
	if (!sp->any)
		return p->i < p->n && p->t[p->i].k == CT_ID
		               ? perr(p, p->i, "unknown type name `%.*s`", (int)p->t[p->i].len, p->s + p->t[p->i].off)
		               : perr(p, p->i, "expected a type");
	if (sp->has_named && words)
		return perr(p, sp->first, "a typedef, struct or enum type combined with other type words");
	if (sp->has_named) {
		*t = sp->named;
		return 0;
	}
	if (sp->dbl && sp->lng)
		return perr(p, sp->first, "long double is not supported");
	if (sp->sign && sp->unsign)
		return perr(p, sp->first, "both signed and unsigned");
	int u = sp->unsign;
	if (sp->vd || sp->flt || sp->dbl) {
		if (words > 1)
			return perr(p, sp->first, "invalid combination of type words");
		*t = sp->vd ? ENG_C_VOID : sp->flt ? ENG_C_F32 : ENG_C_F64;
	} else if (sp->chr) {
		*t = sp->sign ? ENG_C_I8 : u ? ENG_C_U8 : CHAR_MIN < 0 ? ENG_C_I8 : ENG_C_U8;
	} else if (sp->shrt) {
		*t = u ? ENG_C_U16 : ENG_C_I16;
	} else if (sp->lng >= 2 || (sp->lng == 1 && sizeof(long) == 8)) {
		*t = u ? ENG_C_U64 : ENG_C_I64;
	} else {
		*t = u ? ENG_C_U32 : ENG_C_I32;
	}
	if (sp->lng > 2 || (sp->shrt && (sp->lng || sp->chr)) || (sp->chr && sp->lng))
		return perr(p, sp->first, "invalid combination of type words");
	return 0;
}

static int parse_specs(cparser *p, spec *sp)
{
	*sp = (spec){.first = p->i};
	int done = 0;
	while (!done && p->i < p->n && p->t[p->i].k != CT_DEFINE)
		if (spec_word(p, sp, &done) != 0)
			return -1;
	return 0;
}

/* `*` and qualifiers; returns how many `*`. */
static int pointers(cparser *p)
{
	int n = 0;
	for (;;) {
		if (accept(p, "*")) {
			n++;
		} else if (accept(p, "const") || accept(p, "volatile") || accept(p, "restrict") ||
		           accept(p, "__restrict") || accept(p, "__restrict__")) {
		} else {
			return n;
		}
	}
}

/* A type of a parameter or a return: pointers make any type a pointer; a struct or void by value is refused. */
static int value_type(cparser *p, eng_ctype base, int nptr, int allow_void, size_t tok, const char *what,
                      eng_ctype *t)
{
	*t = nptr ? ENG_C_PTR : base;
	if (*t == ENG_C_STRUCT)
		return perr(p, tok, "%s is a struct or union passed by value: only integers, float, double and "
		            "pointers can be passed", what);
	if (*t == ENG_C_VOID && !allow_void)
		return perr(p, tok, "%s has type void", what);
	return 0;
}

/* parameter-list: `(void)` | `(decl, decl, ...)`; each decl: specifiers pointers [name] [`[...]`]. */
static int params(cparser *p, eng_cproto *f)
{
	size_t open = p->i - 1;
	if (at(p, ")"))
		return perr(p, open, "`%s()` does not declare its parameters: write `%s(void)`", f->name, f->name);
	if (at(p, "void") && p->i + 1 < p->n && tok_eq(p->s, &p->t[p->i + 1], ")")) {
		p->i += 2;
		return 0;
	}
	for (;;) {
		size_t first = p->i;
		if (at(p, "..."))
			return perr(p, p->i, "`%s` takes a variable number of arguments: not supported", f->name);
		spec sp;
		eng_ctype base, t;
		if (parse_specs(p, &sp) != 0 || spec_type(p, &sp, &base) != 0)
			return -1;
		int nptr = pointers(p);
		if (at(p, "("))
			return perr(p, p->i, "function pointer parameters are not supported");
		if (p->i < p->n && p->t[p->i].k == CT_ID)
			p->i++;
		while (at(p, "[")) {   /* an array parameter is a pointer */
			if (skip_group(p, "[", "]") != 0)
				return -1;
			nptr = 1;
		}
		char what[64];
		snprintf(what, sizeof what, "parameter %u of `%.30s`", f->nparams + 1u, f->name);
		if (value_type(p, base, nptr, 0, first, what, &t) != 0)
			return -1;
		if (f->nparams == ENG_CDECL_MAX_PARAMS)
			return perr(p, first, "`%s` has more than %d parameters", f->name, ENG_CDECL_MAX_PARAMS);
		f->params[f->nparams++] = (unsigned char)t;
		if (accept(p, ")"))
			return 0;
		if (expect(p, ",", "between parameters") != 0)
			return -1;
	}
}

static int same_proto(const eng_cproto *a, const eng_cproto *b)
{
	return a->ret == b->ret && a->nparams == b->nparams && !memcmp(a->params, b->params, a->nparams);
}

/* The rest of a function declaration after its name and `(`. */
static int function(cparser *p, const spec *sp, eng_ctype ret, size_t name_tok)
{
	eng_cproto f = {.name = tok_str(p, name_tok), .ret = (unsigned char)ret};
	int rc = params(p, &f);
	while (rc == 0 && at(p, "__attribute__")) {
		p->i++;
		rc = at(p, "(") ? skip_group(p, "(", ")") : perr(p, p->i, "expected `((` after __attribute__");
	}
	if (rc == 0 && at(p, "{")) {
		rc = perr(p, name_tok, "`%s` is defined here (static or inline): only functions a library exports can "
		          "be called", f.name);
		size_t k = p->i;
		if (skip_group(p, "{", "}") != 0)
			p->i = k + 1;
	} else if (rc == 0 && sp->is_typedef) {
		rc = perr(p, name_tok, "function typedefs are not supported");
	} else if (rc == 0 && sp->is_static) {
		rc = perr(p, name_tok, "`%s` is static: only functions a library exports can be called", f.name);
	} else if (rc == 0) {
		rc = expect(p, ";", "after a prototype");
	}
	const eng_cproto *old = rc == 0 ? eng_cdecl_proto(p->d, f.name) : NULL;
	if (old && !same_proto(old, &f))
		rc = perr(p, name_tok, "`%s` conflicts with an earlier prototype", f.name);
	if (rc != 0 || old) {
		free((char *)f.name);
		return rc;
	}
	VEC_PUSH(&p->d->protos, f);
	return 0;
}

/* declaration: specifiers (`;` | declarator {`,` declarator} `;` | function). */
static int parse_decl(cparser *p)
{
	spec sp;
	eng_ctype base;
	if (parse_specs(p, &sp) != 0)
		return -1;
	if (sp.tagged && !sp.is_typedef && accept(p, ";"))
		return 0;   /* struct X { ... }; struct X; enum { ... }; */
	if (spec_type(p, &sp, &base) != 0)
		return -1;
	for (;;) {
		int nptr = pointers(p);
		if (at(p, "("))
			return perr(p, p->i, "function pointers and parenthesized declarators are not supported");
		if (p->i >= p->n || p->t[p->i].k != CT_ID)
			return perr(p, p->i, "expected a name");
		size_t name_tok = p->i++;
		if (accept(p, "(")) {
			eng_ctype ret;
			if (value_type(p, base, nptr, 1, sp.first, "the return type", &ret) != 0)
				return -1;
			return function(p, &sp, ret, name_tok);
		}
		if (!sp.is_typedef)
			return perr(p, name_tok, "`%.*s` is a variable: only prototypes, typedefs and macro constants are "
			            "read", (int)p->t[name_tok].len, p->s + p->t[name_tok].off);
		if (at(p, "["))
			return perr(p, p->i, "array typedefs are not supported");
		char *name = tok_str(p, name_tok);
		eng_cdecl_add_typedef(p->d, name, nptr ? ENG_C_PTR : base);
		free(name);
		if (accept(p, ";"))
			return 0;
		if (expect(p, ",", "or `;` after a typedef") != 0)
			return -1;
	}
}

/* cexpr: `(` type `)` cexpr | `(` cexpr `)` | [`-`|`+`] cexpr | NUMBER. 0 or -1 (silently: not a constant). */
static int cexpr(cparser *p, eng_cval *v)
{
	const char *why;
	if (accept(p, "-") || accept(p, "+")) {
		int neg = tok_eq(p->s, &p->t[p->i - 1], "-");
		if (cexpr(p, v) != 0 || !(eng_ctype_is_int(v->type) || eng_ctype_is_float(v->type)))
			return -1;
		eng_cval_unary(neg ? '-' : '+', v);
		return 0;
	}
	if (p->i < p->n && p->t[p->i].k == CT_NUM) {
		p->i++;
		return eng_cval_number(p->s + p->t[p->i - 1].off, p->t[p->i - 1].len, v, &why);
	}
	if (!accept(p, "("))
		return -1;
	size_t save = p->i;
	spec sp;
	eng_ctype t;
	if (parse_specs(p, &sp) == 0 && sp.any && spec_type(p, &sp, &t) == 0) {
		int nptr = pointers(p);
		t = nptr ? ENG_C_PTR : t;
		if (!accept(p, ")") || t == ENG_C_VOID || t == ENG_C_STRUCT || cexpr(p, v) != 0)
			return -1;
		return v->type == ENG_C_PTR || eng_cval_convert(v, t, &why) != 0 ? -1 : 0;
	}
	free(p->err);
	p->err = NULL;
	p->i = save;
	return cexpr(p, v) == 0 && accept(p, ")") ? 0 : -1;
}

/* A CT_DEFINE group: kept when its body is a constant, else ignored (a macro is not a declaration). */
static void parse_define(cparser *p)
{
	size_t name_tok = p->i++, body = p->i;
	size_t end = body;
	while (end < p->n && p->t[end].k != CT_END)
		end++;
	eng_cval v;
	cparser sub = *p;
	sub.n = end;
	sub.err = NULL;
	if (end > body && cexpr(&sub, &v) == 0 && sub.i == end) {
		char *name = tok_str(p, name_tok);
		VEC_PUSH(&p->d->consts, ((eng_cconst){name, v}));
	}
	free(sub.err);
	p->i = end + 1;
}

/* Resumes after a declaration that could not be read: past its `;` or its closing `}` (and a name and `;`). */
static void skip_decl(cparser *p, size_t start)
{
	int depth = 0;
	for (p->i = start; p->i < p->n && p->t[p->i].k != CT_DEFINE; p->i++) {
		if (at(p, "{"))
			depth++;
		if (at(p, "}") && --depth <= 0) {
			p->i++;
			if (p->i + 1 < p->n && p->t[p->i].k == CT_ID && tok_eq(p->s, &p->t[p->i + 1], ";"))
				p->i++;
			accept(p, ";");
			return;
		}
		if (at(p, ";") && depth <= 0) {
			p->i++;
			return;
		}
	}
}

int eng_cdecl_parse(eng_cdecl *d, const char *file, const char *text, int lenient, char **err)
{
	*err = NULL;
	lexer lx = {.file = file, .s = text, .n = strlen(text)};
	if (lex(&lx) != 0) {
		VEC_FREE(&lx.toks);
		*err = lx.err;
		return -1;
	}
	cparser p = {.d = d, .file = file, .s = text, .t = lx.toks.ptr, .n = lx.toks.len};
	int rc = 0;
	while (p.i < p.n) {
		size_t start = p.i;
		if (p.t[p.i].k == CT_DEFINE) {
			parse_define(&p);
			continue;
		}
		if (parse_decl(&p) == 0)
			continue;
		if (!lenient) {
			*err = p.err;
			rc = -1;
			break;
		}
		VEC_PUSH(&d->notes, p.err);
		p.err = NULL;
		skip_decl(&p, start);
	}
	VEC_FREE(&lx.toks);
	return rc;
}

int eng_cdecl_parse_file(eng_cdecl *d, const char *path, int lenient, char **err)
{
	char *text = xread_text(path, "C header", err);
	if (!text)
		return -1;
	int rc = eng_cdecl_parse(d, path, text, lenient, err);
	free(text);
	return rc;
}

int eng_cdecl_type_name(const char *text, eng_ctype *t)
{
	eng_cdecl *d = eng_cdecl_new();
	lexer lx = {.file = "", .s = text, .n = strlen(text)};
	int rc = -1;
	if (lex(&lx) == 0) {
		cparser p = {.d = d, .file = "", .s = text, .t = lx.toks.ptr, .n = lx.toks.len};
		spec sp;
		if (parse_specs(&p, &sp) == 0 && !sp.is_typedef && !sp.is_static && spec_type(&p, &sp, t) == 0 &&
		    p.i == p.n && *t != ENG_C_STRUCT)
			rc = 0;
		free(p.err);
	}
	free(lx.err);
	VEC_FREE(&lx.toks);
	eng_cdecl_free(d);
	return rc;
}

eng_cdecl *eng_cdecl_new(void)
{
	eng_cdecl *d = xcalloc(1, sizeof *d);
	/* The standard typedefs a header may use without us reading <stdint.h> or <stddef.h>. */
	static const struct {
		const char *name;
		eng_ctype t;
	} std[] = {
		{"int8_t", ENG_C_I8}, {"uint8_t", ENG_C_U8}, {"int16_t", ENG_C_I16}, {"uint16_t", ENG_C_U16},
		{"int32_t", ENG_C_I32}, {"uint32_t", ENG_C_U32}, {"int64_t", ENG_C_I64}, {"uint64_t", ENG_C_U64},
		{"size_t", sizeof(size_t) == 8 ? ENG_C_U64 : ENG_C_U32}, {"ssize_t", sizeof(size_t) == 8 ? ENG_C_I64 : ENG_C_I32},
		{"ptrdiff_t", sizeof(ptrdiff_t) == 8 ? ENG_C_I64 : ENG_C_I32},
		{"intptr_t", sizeof(void *) == 8 ? ENG_C_I64 : ENG_C_I32},
		{"uintptr_t", sizeof(void *) == 8 ? ENG_C_U64 : ENG_C_U32}, {"FILE", ENG_C_STRUCT},
	};
	for (size_t i = 0; i < sizeof std / sizeof *std; i++)
		eng_cdecl_add_typedef(d, std[i].name, std[i].t);
	return d;
}

void eng_cdecl_free(eng_cdecl *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->protos.len; i++)
		free((char *)d->protos.ptr[i].name);
	for (size_t i = 0; i < d->consts.len; i++)
		free((char *)d->consts.ptr[i].name);
	for (size_t i = 0; i < d->typedefs.len; i++)
		free((char *)d->typedefs.ptr[i].name);
	for (size_t i = 0; i < d->notes.len; i++)
		free(d->notes.ptr[i]);
	VEC_FREE(&d->protos);
	VEC_FREE(&d->consts);
	VEC_FREE(&d->typedefs);
	VEC_FREE(&d->notes);
	free(d);
}

const eng_cproto *eng_cdecl_proto(const eng_cdecl *d, const char *name)
{
	for (size_t i = 0; i < d->protos.len; i++)
		if (!strcmp(d->protos.ptr[i].name, name))
			return &d->protos.ptr[i];
	return NULL;
}

const eng_cconst *eng_cdecl_const(const eng_cdecl *d, const char *name)
{
	for (size_t i = d->consts.len; i-- > 0;)   /* the last definition counts */
		if (!strcmp(d->consts.ptr[i].name, name))
			return &d->consts.ptr[i];
	return NULL;
}

const eng_cproto *eng_cdecl_proto_at(const eng_cdecl *d, size_t i) { return i < d->protos.len ? &d->protos.ptr[i] : NULL; }
const eng_cconst *eng_cdecl_const_at(const eng_cdecl *d, size_t i) { return i < d->consts.len ? &d->consts.ptr[i] : NULL; }
const eng_ctypedef *eng_cdecl_typedef_at(const eng_cdecl *d, size_t i) { return i < d->typedefs.len ? &d->typedefs.ptr[i] : NULL; }
const char *eng_cdecl_note_at(const eng_cdecl *d, size_t i) { return i < d->notes.len ? d->notes.ptr[i] : NULL; }

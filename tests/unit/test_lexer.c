/*
 * test_lexer.c - the scanner and the token filter: literals, keywords and
 * synonyms, the dash and star rules, contextual keywords, strings, spans.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "grammar/tokfilter.h"
#define YYSTYPE NCP_STYPE
#define YYLTYPE src_span
#include "grammar/lexer.h"
#include "tests/unit/unit.h"

#define MAXTOK 64

typedef struct lexed {
	int n;
	int type[MAXTOK];
	int64_t ival[MAXTOK];
	double dval[MAXTOK];
	const char *text[MAXTOK];
	src_span loc[MAXTOK];
	unsigned errors, warnings;
} lexed;

/* Runs the filtered token stream of text (what the parser sees). */
static void lex(const char *text, lexed *out)
{
	fe_ctx *fe = fe_new(NULL);
	uint32_t id = src_add((src_mgr *)fe_sources(fe), "t", text, strlen(text));
	parse_ctx pc;
	memset(&pc, 0, sizeof pc);
	memset(out, 0, sizeof *out);
	pc.fe = fe;
	pc.arena = fe_arena(fe);
	pc.diag = fe_diag(fe);
	pc.file = id;
	pc.text = text;
	pc.len = strlen(text);
	yyscan_t sc;
	ncl_lex_init_extra(&pc, &sc);
	pc.scanner = sc;
	YY_BUFFER_STATE b = ncl__scan_bytes(text, (int)pc.len, sc);
	for (;;) {
		NCP_STYPE v;
		src_span l;
		int t = ncp_lex(&v, &l, &pc);
		if (t == TOK_END || out->n == MAXTOK)
			break;
		out->type[out->n] = t;
		out->loc[out->n] = l;
		if (t == TOK_INTEGER)
			out->ival[out->n] = v.node->u.int_.value;
		if (t == TOK_DECIMAL)
			out->dval[out->n] = v.node->u.decimal.value;
		out->n++;
	}
	out->errors = fe_errors(fe);
	out->warnings = fe_warnings(fe);
	ncl__delete_buffer(b, sc);
	ncl_lex_destroy(sc);
	free(pc.sbuf);
	fe_free(fe);
}

/* 1 if text lexes as one integer literal of value `want`; else prints what it gave. */
static int int_is(const char *text, int64_t want)
{
	lexed r;
	lex(text, &r);
	if (r.n == 1 && r.type[0] == TOK_INTEGER && r.ival[0] == want)
		return 1;
	fprintf(stderr, "'%s': %d token(s), first of type %d, value %lld; want the integer %lld\n", text, r.n,
	        r.n ? r.type[0] : -1, (long long)r.ival[0], (long long)want);
	return 0;
}

static void test_integers(void)
{
	/* the verified values of LANGUAGE.md 1.4 */
	static const struct { const char *text; int64_t want; } ints[] = {
		{"1K", 1024}, {"5k", 5120}, {"1M", 1048576}, {"2g", INT64_C(2147483648)}, {"1T", INT64_C(1099511627776)},
		{"2E3", 2000}, {"7e0", 7}, {"21ST", 21}, {"3rd", 3}, {"4th", 4}, {"1th", 1}, {"2st", 2}, {"2kth", 2048},
		{"2t", INT64_C(2) << 40}, {"2th", 2}, {"9223372036854775807", INT64_MAX}, {"0e99", 0},
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		CU_ASSERT_TRUE(int_is(ints[i].text, ints[i].want));

	lexed r;
	lex("1E3K", &r);   /* 1E3 followed by the identifier K */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.ival[0], 1000);
	CU_ASSERT_EQUAL(r.type[1], TOK_IDENT_TOKEN);
	lex("10e 0x10", &r);
	CU_ASSERT_EQUAL(r.n, 4);
	CU_ASSERT_EQUAL(r.type[1], TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(r.type[3], TOK_IDENT_TOKEN);
	lex("9223372036854775808 1E19 9000000T", &r);
	CU_ASSERT_EQUAL(r.errors, 3);
}

static void test_decimals(void)
{
	lexed r;
	lex("0.5 2.5E-3 1.0e3 3. 1.5e", &r);
	CU_ASSERT_EQUAL(r.n, 7);
	CU_ASSERT_EQUAL(r.type[0], TOK_DECIMAL);
	CU_ASSERT_DOUBLE_EQUAL(r.dval[0], 0.5, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(r.dval[1], 2.5e-3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(r.dval[2], 1000.0, 1e-9);
	CU_ASSERT_EQUAL(r.type[3], TOK_INTEGER);   /* `3.`: integer then period */
	CU_ASSERT_EQUAL(r.type[4], TOK_PERIOD);
	CU_ASSERT_EQUAL(r.type[5], TOK_DECIMAL);   /* `1.5e`: 1.5 then identifier e */
	CU_ASSERT_EQUAL(r.type[6], TOK_IDENT_TOKEN);
}

static void test_keywords(void)
{
	lexed r;
	/* synonyms map to one canonical token, whatever the case */
	lex("A an IS are It THEM its Their TASK tasks Message messages", &r);
	CU_ASSERT_EQUAL(r.n, 12);
	for (int i = 0; i < 12; i += 2)
		CU_ASSERT_EQUAL(r.type[i], r.type[i + 1]);
	CU_ASSERT_EQUAL(r.type[0], TOK_AN);
	CU_ASSERT_EQUAL(r.type[2], TOK_ARE);
	CU_ASSERT_EQUAL(r.type[4], TOK_THEM);
	CU_ASSERT_EQUAL(r.type[6], TOK_THEIR);
	lex("static_file_data Msgsize msgsize_2 counters counter", &r);
	CU_ASSERT_EQUAL(r.type[0], TOK_STATIC_FILE_DATA);
	CU_ASSERT_EQUAL(r.type[1], TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(r.type[2], TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(r.type[3], TOK_COUNTERS);
	CU_ASSERT_EQUAL(r.type[4], TOK_IDENT_TOKEN);   /* COUNTERS has one form only */
	/* longest match for punctuation */
	lex("... ** <= <> << >= >> /\\ \\/ < > * . / ( ) # comment\n=", &r);
	int want[] = { TOK_ELLIPSIS, TOK_OP_POWER, TOK_OP_LEQ, TOK_OP_NEQ, TOK_OP_LSHIFT,
	               TOK_OP_GEQ, TOK_OP_RSHIFT, TOK_LOGIC_AND, TOK_LOGIC_OR, TOK_OP_LT,
	               TOK_OP_GT, TOK_OP_MULT, TOK_PERIOD, TOK_OP_DIV, TOK_LPAREN, TOK_RPAREN,
	               TOK_OP_EQ };
	CU_ASSERT_EQUAL_FATAL(r.n, (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < r.n; i++)
		CU_ASSERT_EQUAL(r.type[i], want[i]);
}

static void test_dash_rule(void)
{
	lexed r;
	lex("64-byte", &r);                 /* the minus disappears */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.type[1], TOK_BYTES);
	lex("3 - abs(2)", &r);
	CU_ASSERT_EQUAL(r.n, 5);
	CU_ASSERT_EQUAL(r.type[1], TOK_ABS);
	lex("3-(abs(2)) n - m", &r);        /* not before a keyword: kept */
	CU_ASSERT_EQUAL(r.type[1], TOK_OP_MINUS);
	CU_ASSERT_EQUAL(r.type[r.n - 2], TOK_OP_MINUS);
	lex("all-other-tasks", &r);
	CU_ASSERT_EQUAL(r.n, 3);
	lex("4-kilobytes 4 - total", &r);   /* a contextual unit keyword also eats it */
	CU_ASSERT_EQUAL(r.n, 5);
	CU_ASSERT_EQUAL(r.type[1], TOK_KILOBYTE);
	CU_ASSERT_EQUAL(r.type[3], TOK_OP_MINUS);   /* `total` stays an identifier */
}

static void test_star_rule(void)
{
	lexed r;
	lex("(4*, 3*) 4*3 x*(y)", &r);
	CU_ASSERT_EQUAL(r.type[2], TOK_STAR);
	CU_ASSERT_EQUAL(r.type[5], TOK_STAR);
	CU_ASSERT_EQUAL(r.type[8], TOK_OP_MULT);
	CU_ASSERT_EQUAL(r.type[11], TOK_OP_MULT);
}

/* Token kind of the first token spelled `word` in text. */
static int kind_of(const char *text, const char *word)
{
	lexed r;
	lex(text, &r);
	size_t n = strlen(word);
	for (int i = 0; i < r.n; i++)
		if (r.loc[i].last - r.loc[i].first + 1 == n && !strncmp(text + r.loc[i].first, word, n))
			return r.type[i];
	return -1;
}

static void test_contextual(void)
{
	CU_ASSERT_EQUAL(kind_of("all tasks reads 8 megabytes", "reads"), TOK_READS);
	CU_ASSERT_EQUAL(kind_of("all tasks reads sends a 4 byte message to task 0", "reads"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("let reads be 3 while task 0 outputs reads", "reads"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("reads is \"r\" and comes from \"--r\" or \"-r\" with default 1", "reads"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("task 0 asynchronously writes 3", "writes"), TOK_WRITES);
	CU_ASSERT_EQUAL(kind_of("task n opens file 3", "opens"), TOK_OPENS);
	CU_ASSERT_EQUAL(kind_of("task n opens file 3", "file"), TOK_FILE);
	CU_ASSERT_EQUAL(kind_of("let file be 3 while task file outputs file", "file"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("all tasks trains with horovod", "trains"), TOK_TRAINS);
	CU_ASSERT_EQUAL(kind_of("all tasks trains sends", "trains"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("all tasks replay traffic from \"x\"", "traffic"), TOK_TRAFFIC);
	CU_ASSERT_EQUAL(kind_of("task 0 outputs total", "total"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("task 0 outputs loop", "loop"), TOK_IDENT_TOKEN);
	/* inside an extension statement every extension word is a keyword ... */
	CU_ASSERT_EQUAL(kind_of("all tasks generate 5 messages of m traffic at 2 gbps", "at"), TOK_AT);
	/* ... and the statement ends at THEN */
	CU_ASSERT_EQUAL(kind_of("all tasks read 5 then task 0 outputs total", "total"), TOK_IDENT_TOKEN);
	/* time and size units follow an expression */
	CU_ASSERT_EQUAL(kind_of("task 0 computes for 5 nanoseconds", "nanoseconds"), TOK_NANOSECONDS);
	CU_ASSERT_EQUAL(kind_of("task 0 computes for cycles cycles", "cycles"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("task 0 computes for x cycles", "cycles"), TOK_CYCLES);
	CU_ASSERT_EQUAL(kind_of("for 3 warmup cycles", "cycles"), TOK_CYCLES);
	CU_ASSERT_EQUAL(kind_of("let cycles be 1 while", "cycles"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("x is \"\" and comes from \"--x\" or \"-x\" with default 3 cycles is", "cycles"), TOK_IDENT_TOKEN);
	CU_ASSERT_EQUAL(kind_of("a 4 kilobytes message", "kilobytes"), TOK_KILOBYTE);
	CU_ASSERT_EQUAL(kind_of("let megabytes be 2 while", "megabytes"), TOK_IDENT_TOKEN);
	/* the table of contextual words is sorted (binary search) */
	CU_ASSERT(tf_contextual_word("writing", 7) > tf_contextual_word("allreduce", 9));
	CU_ASSERT_EQUAL(tf_contextual_word("sends", 5), 0);
	CU_ASSERT_NOT_EQUAL(tf_contextual_word("gaussian", 8), 0);
}

static void test_strings_and_errors(void)
{
	lexed r;
	lex("\"a\\tb\\q\" \"x", &r);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.warnings, 1);   /* \q */
	CU_ASSERT_EQUAL(r.errors, 1);     /* unterminated */
	lex("task ; 0 @ \x80\x81 \r x", &r);
	CU_ASSERT_EQUAL(r.n, 7);
	CU_ASSERT_EQUAL(r.type[1], TOK_BADCHAR);
	CU_ASSERT_EQUAL(r.type[3], TOK_BADCHAR);
	CU_ASSERT_EQUAL(r.type[4], TOK_BADCHAR);   /* one token for a run of non-ASCII bytes */
	CU_ASSERT_EQUAL(r.loc[4].last - r.loc[4].first, 1);
	CU_ASSERT_EQUAL(r.type[5], TOK_BADCHAR);   /* a bare carriage return */
	/* spans are byte offsets, last inclusive */
	lex("  task\r\n 12", &r);
	CU_ASSERT_EQUAL(r.loc[0].first, 2);
	CU_ASSERT_EQUAL(r.loc[0].last, 5);
	CU_ASSERT_EQUAL(r.loc[1].first, 9);
	CU_ASSERT_EQUAL(r.loc[1].last, 10);
}

int main(void)
{
	static const ut_test tests[] = {
		{"integer literals", test_integers},
		{"decimal literals", test_decimals},
		{"keywords and punctuation", test_keywords},
		{"dash rule", test_dash_rule},
		{"star rule", test_star_rule},
		{"contextual keywords", test_contextual},
		{"strings and bad characters", test_strings_and_errors},
		{NULL, NULL},
	};
	return ut_run("lexer", tests);
}

/*
 * tokfilter.c - the token filter between the scanner and the parser.
 *
 * 1. Dash rule (LANGUAGE.md 1.2): a `-` immediately followed by a keyword
 *    token is deleted, so `64-byte` and `all-other-tasks` read naturally
 *    (and `3 - abs(2)` is a parse error, as in the reference).
 * 2. Star rule: `*` immediately followed by `,` or `)` becomes STAR.
 * 3. Contextual keywords (ncsim, LANGUAGE.md 14.1).  The scanner returns
 *    every extension word as an identifier tagged with a contextual-word
 *    id; this filter turns it into the keyword token only where the word
 *    can start or continue an extension construct, so existing programs
 *    that use `total`, `loop`, `file`, `reads`, `cycles`... as variables
 *    keep parsing.  The rule, with P the last token handed to the parser
 *    and N the next scanned token:
 *
 *    - Statement starters (OPEN(S) CLOSE(S) READ(S) WRITE(S) GENERATE(S)
 *      TRAIN(S) REPLAY(S)) follow a task description, which ends in
 *      TASKS, an identifier, a literal, `)`, `}`, `]`, EVEN or ODD; or they
 *      follow ASYNCHRONOUSLY/SYNCHRONOUSLY.  After ASYNC/SYNC the word is
 *      always the keyword.  After a task-description end it is the keyword
 *      only if N fits the statement: an expression start other than `+`/`-`
 *      for READS/WRITES/GENERATES, the word FILE for OPENS/CLOSES, WITH
 *      for TRAINS, TRAFFIC for REPLAYS.  This separates
 *      `all tasks reads 8 megabytes` (keyword) from `all tasks reads sends
 *      ...` (the variable of ALL TASKS v) and `reads is "..." and comes
 *      from ...` (a parameter); `let reads be 3 while ...` never qualifies
 *      because LET is not a task-description end.
 *    - Once a starter became a keyword the filter is inside an extension
 *      statement, and every extension word is a keyword until the
 *      statement ends: at THEN, `.`, an unmatched `}`, or a word that can
 *      only start a new statement (TASK(S) not after MY, ALL, LET, ASSERT),
 *      or at the end of the input.  A variable named like an extension
 *      word cannot be used inside an extension statement.
 *    - Units NANOSECOND(S), CYCLE(S) (time) and KILOBYTES, MEGABYTES,
 *      GIGABYTES (size) may appear in any statement.  A unit always follows
 *      an expression (or WARMUP, for time), so the word is the unit keyword
 *      when P ends an expression (identifier, literal, `)`) or is WARMUP,
 *      and N is not IS/ARE (which would make it a parameter declared after
 *      a default value).  `computes for 5 nanoseconds` uses the unit while
 *      `let cycles be 3 while ... computes for cycles cycles` uses both.
 *
 *    The dash rule applies to a contextual word only when it becomes a
 *    keyword; the classification then looks at the token before the `-`.
 */
#include <string.h>

#include "grammar/tokfilter.h"

enum cw_class { CW_STARTER, CW_TIME, CW_SIZE, CW_MODE };

static const struct cw {
	const char *word;
	int tok;
	enum cw_class cls;
} cwords[] = {
	{ "", 0, CW_MODE },   /* id 0: not a contextual word */
	{ "allreduce", TOK_ALLREDUCE, CW_MODE },
	{ "at", TOK_AT, CW_MODE },
	{ "batches", TOK_BATCHES, CW_MODE },
	{ "broadcast", TOK_BROADCAST, CW_MODE },
	{ "classes", TOK_CLASSES, CW_MODE },
	{ "close", TOK_CLOSES, CW_STARTER },
	{ "closes", TOK_CLOSES, CW_STARTER },
	{ "cycle", TOK_CYCLES, CW_TIME },
	{ "cycles", TOK_CYCLES, CW_TIME },
	{ "destinations", TOK_DESTINATIONS, CW_MODE },
	{ "file", TOK_FILE, CW_MODE },
	{ "flows", TOK_FLOWS, CW_MODE },
	{ "gatherv", TOK_GATHERV, CW_MODE },
	{ "gaussian", TOK_GAUSSIAN, CW_MODE },
	{ "gbps", TOK_GBPS, CW_MODE },
	{ "generate", TOK_GENERATES, CW_STARTER },
	{ "generates", TOK_GENERATES, CW_STARTER },
	{ "gigabytes", TOK_GIGABYTE, CW_SIZE },
	{ "horovod", TOK_HOROVOD, CW_MODE },
	{ "kilobytes", TOK_KILOBYTE, CW_SIZE },
	{ "layer", TOK_LAYERS, CW_MODE },
	{ "layers", TOK_LAYERS, CW_MODE },
	{ "loop", TOK_LOOP, CW_MODE },
	{ "megabytes", TOK_MEGABYTE, CW_SIZE },
	{ "nanosecond", TOK_NANOSECONDS, CW_TIME },
	{ "nanoseconds", TOK_NANOSECONDS, CW_TIME },
	{ "negotiation", TOK_NEGOTIATION, CW_MODE },
	{ "offset", TOK_OFFSET, CW_MODE },
	{ "open", TOK_OPENS, CW_STARTER },
	{ "opens", TOK_OPENS, CW_STARTER },
	{ "over", TOK_OVER, CW_MODE },
	{ "percent", TOK_PERCENT, CW_MODE },
	{ "poisson", TOK_POISSON, CW_MODE },
	{ "probability", TOK_PROBABILITY, CW_MODE },
	{ "read", TOK_READS, CW_STARTER },
	{ "reading", TOK_READING, CW_MODE },
	{ "reads", TOK_READS, CW_STARTER },
	{ "replay", TOK_REPLAYS, CW_STARTER },
	{ "replays", TOK_REPLAYS, CW_STARTER },
	{ "total", TOK_TOTAL, CW_MODE },
	{ "traffic", TOK_TRAFFIC, CW_MODE },
	{ "train", TOK_TRAINS, CW_STARTER },
	{ "trains", TOK_TRAINS, CW_STARTER },
	{ "uniform", TOK_UNIFORM, CW_MODE },
	{ "write", TOK_WRITES, CW_STARTER },
	{ "writes", TOK_WRITES, CW_STARTER },
	{ "writing", TOK_WRITING, CW_MODE },
};
#define NCWORDS (sizeof cwords / sizeof cwords[0])

int tf_contextual_word(const char *w, size_t n)
{
	/* Binary search over entries 1..NCWORDS-1 (sorted). */
	size_t lo = 1, hi = NCWORDS;
	if (n > 12)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(w, cwords[mid].word, n);
		if (c == 0 && cwords[mid].word[n] != '\0')
			c = -1;
		if (c == 0)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* Every keyword token lies between ABS and AT in parser.y's declarations. */
static int is_keyword(int t)
{
	return t >= TOK_ABS && t <= TOK_AT;
}

/* Tokens that can end an expression. */
static int ends_expr(int t)
{
	return t == TOK_IDENT_TOKEN || t == TOK_INTEGER || t == TOK_DECIMAL || t == TOK_RPAREN;
}

/* Tokens that can end a task description. */
static int ends_task_desc(int t)
{
	return ends_expr(t) || t == TOK_TASKS || t == TOK_RBRACE || t == TOK_RBRACKET ||
	       t == TOK_EVEN || t == TOK_ODD;
}

/* Tokens that can start an expression, except the unary `+` and `-`. */
static int starts_expr(int t)
{
	switch (t) {
	case TOK_INTEGER: case TOK_DECIMAL: case TOK_IDENT_TOKEN: case TOK_LPAREN:
	case TOK_NOT: case TOK_REAL: case TOK_MY: case TOK_FILE_DATA: case TOK_STATIC_FILE_DATA:
	case TOK_MESH_NEIGHBOR: case TOK_MESH_COORDINATE: case TOK_MESH_DISTANCE:
	case TOK_ABS: case TOK_BITS: case TOK_CBRT: case TOK_CEILING: case TOK_FACTOR10:
	case TOK_FLOOR: case TOK_KNOMIAL_CHILD: case TOK_KNOMIAL_CHILDREN:
	case TOK_KNOMIAL_PARENT: case TOK_LOG10: case TOK_MAX: case TOK_MIN:
	case TOK_PROCESSOR_OF: case TOK_RANDOM_GAUSSIAN: case TOK_RANDOM_PARETO:
	case TOK_RANDOM_POISSON: case TOK_RANDOM_UNIFORM: case TOK_ROOT: case TOK_ROUND:
	case TOK_SQRT: case TOK_TASK_OF: case TOK_TREE_CHILD: case TOK_TREE_PARENT:
		return 1;
	default:
		return 0;
	}
}

/* Ensures at least n tokens are queued. */
static void fill(parse_ctx *pc, unsigned n)
{
	while (pc->qn < n) {
		tf_token *t = &pc->q[pc->qn];
		if (pc->qn > 0 && pc->q[pc->qn - 1].type == TOK_END) {
			*t = pc->q[pc->qn - 1];   /* stay at the end of the input */
		} else {
			memset(t, 0, sizeof *t);
			pc->last_cw = 0;
			t->type = ncl_lex(&t->val, &t->loc, pc->scanner);
			if (t->type == TOK_END) {
				/* Report the end of the input just after the last
				 * token, not on the blank line after it. */
				uint32_t at = (uint32_t)pc->len;
				while (at > 0 && (pc->text[at - 1] == ' ' || pc->text[at - 1] == '\t' ||
				                  pc->text[at - 1] == '\r' || pc->text[at - 1] == '\n'))
					at--;
				t->loc = span_make(pc->file, at, at - 1);
				t->val.node = NULL;
			}
			t->cw = t->type == TOK_IDENT_TOKEN ? pc->last_cw : 0;
		}
		pc->qn++;
	}
}

/* The token kind that t (whose successor is next) takes after token kind prev. */
static int classify(const parse_ctx *pc, const tf_token *t, int prev, const tf_token *next)
{
	if (!t->cw)
		return t->type;
	const struct cw *w = &cwords[t->cw];
	if (pc->mode)
		return w->tok;
	switch (w->cls) {
	case CW_STARTER:
		if (prev == TOK_ASYNCHRONOUSLY || prev == TOK_SYNCHRONOUSLY)
			return w->tok;
		if (!ends_task_desc(prev))
			return t->type;
		switch (w->tok) {
		case TOK_READS: case TOK_WRITES: case TOK_GENERATES:
			return starts_expr(next->type) ? w->tok : t->type;
		case TOK_OPENS: case TOK_CLOSES:
			return next->cw && cwords[next->cw].tok == TOK_FILE ? w->tok : t->type;
		case TOK_TRAINS:
			return next->type == TOK_WITH ? w->tok : t->type;
		case TOK_REPLAYS:
			return next->cw && cwords[next->cw].tok == TOK_TRAFFIC ? w->tok : t->type;
		default:
			return t->type;
		}
	case CW_TIME:
		if ((ends_expr(prev) || prev == TOK_WARMUP) && next->type != TOK_ARE)
			return w->tok;
		return t->type;
	case CW_SIZE:
		if (ends_expr(prev) && next->type != TOK_ARE)
			return w->tok;
		return t->type;
	case CW_MODE:
		break;
	}
	return t->type;
}

/* Drops q[0]. */
static void pop(parse_ctx *pc)
{
	memmove(&pc->q[0], &pc->q[1], (pc->qn - 1) * sizeof pc->q[0]);
	pc->qn--;
}

/* Updates the extension-statement state for an emitted token kind t. */
static void track_mode(parse_ctx *pc, int t)
{
	if (!pc->mode) {
		if (t == TOK_OPENS || t == TOK_CLOSES || t == TOK_READS || t == TOK_WRITES ||
		    t == TOK_GENERATES || t == TOK_TRAINS || t == TOK_REPLAYS) {
			pc->mode = 1;
			pc->depth = 0;
		}
		return;
	}
	switch (t) {
	case TOK_LBRACE:
		pc->depth++;
		break;
	case TOK_RBRACE:
		if (pc->depth == 0)
			pc->mode = 0;
		else
			pc->depth--;
		break;
	case TOK_TASKS:
		if (pc->prev != TOK_MY)
			pc->mode = 0;
		break;
	case TOK_THEN: case TOK_PERIOD: case TOK_ALL: case TOK_LET: case TOK_ASSERT: case TOK_END:
		pc->mode = 0;
		break;
	default:
		break;
	}
}

int ncp_lex(NCP_STYPE *lval, src_span *lloc, parse_ctx *pc)
{
	for (;;) {
		fill(pc, 1);
		tf_token *t = &pc->q[0];
		if (t->type == TOK_OP_MINUS) {
			fill(pc, 3);
			if (is_keyword(classify(pc, &pc->q[1], pc->prev, &pc->q[2]))) {
				pop(pc);   /* the dash rule */
				continue;
			}
		} else if (t->type == TOK_OP_MULT) {
			fill(pc, 2);
			if (pc->q[1].type == TOK_COMMA || pc->q[1].type == TOK_RPAREN)
				t->type = TOK_STAR;
		} else if (t->cw) {
			fill(pc, 2);
			t->type = classify(pc, t, pc->prev, &pc->q[1]);
		}
		int type = t->type;
		/* The statement-ending token must leave the mode before it is
		 * recorded as prev (TASKS looks at the token before it). */
		track_mode(pc, type);
		*lval = t->val;
		*lloc = t->loc;
		pc->prev = type;
		pop(pc);
		return type;
	}
}

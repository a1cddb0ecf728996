/*
 * gen_msg.c - task descriptions and message specifications for the program
 * generator (see gen.h and gen_msg.h).
 */
#include "config.h"

#include <string.h>

#include "tests/gen/gen_msg.h"

/* A task in range on any run of at least two tasks would be [0, 1]; wider on purpose. */
static void task_number(gen *g, const gen_env *e)
{
	if (gen_chance(g, 70))
		gen_bounded(g, e, -1, 8);
	else
		gen_expr(g, e, 2);
}

void gen_tasks(gen *g, const gen_env *e, unsigned forms, char var[16])
{
	gen_env inner = *e;
	int k;

	var[0] = '\0';
	for (;;) {
		k = (int)gen_int(g, 0, 5);
		if ((forms & (1u << k)) && (k != TF_GROUP || g->ngroups > 0))
			break;
	}
	inner.allow &= ~(unsigned)(GA_RANDOM | GA_COUNTERS | GA_FLOAT);
	switch (k) {
	case TF_ALL:
		gen_cover(g, GF_TE_ALL);
		gen_printf(g, "ALL TASKS");
		return;
	case TF_ALLVAR:
		gen_cover(g, GF_TE_ALLVAR);
		gen_fresh(g, "t", var);
		gen_printf(g, "ALL TASKS %s", var);
		return;
	case TF_ONE:
		gen_cover(g, GF_TE_ONE);
		gen_printf(g, "TASK ");
		task_number(g, &inner);
		return;
	case TF_SUCHTHAT:
		gen_cover(g, GF_TE_SUCHTHAT);
		gen_fresh(g, "t", var);
		gen_printf(g, "TASKS %s SUCH THAT ", var);
		inner.tvar[inner.tvar[0] ? 1 : 0] = var;
		gen_rel(g, &inner, 2);
		return;
	case TF_RANGE:
		gen_cover(g, GF_TE_RANGE);
		gen_printf(g, "TASKS ");
		gen_range(g, &inner);
		return;
	default: {
		const char *name = g->groups[gen_int(g, 0, g->ngroups - 1)];

		gen_cover(g, GF_TE_GROUP);
		gen_printf(g, "TASK GROUP %s", name);
		strcpy(var, name);
		return;
	}
	}
}

void gen_distinct_target(gen *g, const gen_env *e, size_t s0, size_t s1)
{
	/* ((s) MOD n + 1 + (y MOD (n - 1))) MOD n is never s for s in [0, n) and n >= 2 */
	gen_printf(g, "TASK (((");
	gen_repeat(g, s0, s1);
	gen_printf(g, ") MOD num_tasks + 1 + (");
	gen_expr(g, e, 1);
	gen_printf(g, ") MOD (num_tasks - 1)) MOD num_tasks)");
}

/* item_size: a size with a unit, a `data_type SIZED`, or nothing (0 bytes). */
/* Returns 0 if it wrote nothing. */
static int msg_size(gen *g, const gen_env *e)
{
	static const char *const units[] = { "BYTE", "BYTES", "HALFWORDS", "WORDS", "INTEGERS",
	                                     "DOUBLEWORDS", "QUADWORDS", "BITS", "KILOBYTE", "KILOBYTES" };
	static const char *const sized[] = { "BYTE", "WORD", "DOUBLEWORD", "QUADWORD", "PAGE", "HALFWORD" };
	int k = (int)gen_int(g, 0, 9);
	int u;

	if (k == 0)
		return 0;
	if (k == 1) {
		gen_printf(g, " %s SIZED", sized[gen_int(g, 0, 5)]);
		return 1;
	}
	u = (int)gen_int(g, 0, 9);
	gen_printf(g, " ");
	if (k == 2) /* rendezvous sizes (above 64 KiB on the test machine) */
		gen_bounded(g, e, 60000, 70000);
	else
		gen_bounded(g, e, 0, u >= 8 ? 3 : u >= 2 ? 300 : 2000);
	gen_printf(g, " %s", k == 2 ? "BYTES" : units[u]);
	return 1;
}

/*
 * After a count and no size, neither `n BYTE ALIGNED` nor `WORD ALIGNED`
 * parses (they are taken as the size), so then only UNALIGNED is used.
 */
static int msg_alignment(gen *g, const gen_env *e, int sized)
{
	int k = (int)gen_int(g, 0, 7);

	if (!sized && k <= 3)
		k = 0;
	switch (k) {
	case 0:
		gen_printf(g, " UNALIGNED");
		return 0;
	case 1:
		gen_cover(g, GF_MS_ALIGN);
		gen_printf(g, " %d BYTE %sALIGNED", 1 << gen_int(g, 0, 6), gen_chance(g, 50) ? "MIS" : "");
		return 1;
	case 2:
		gen_cover(g, GF_MS_ALIGN);
		gen_printf(g, " %s %sALIGNED", gen_chance(g, 50) ? "WORD" : "PAGE", gen_chance(g, 50) ? "MIS" : "");
		return 1;
	case 3:
		gen_cover(g, GF_MS_ALIGN);
		gen_printf(g, " ");
		gen_bounded(g, e, 1, 64);
		gen_printf(g, " BYTES MISALIGNED");
		return 1;
	default:
		return 0;
	}
}

/* touching_type; returns 1 for WITH VERIFICATION. */
static int msg_touching(gen *g, int verify_ok)
{
	switch (gen_int(g, 0, 7)) {
	case 0:
		gen_cover(g, GF_MS_TOUCHING);
		gen_printf(g, " WITH DATA TOUCHING");
		return 0;
	case 1:
		gen_printf(g, " WITHOUT DATA TOUCHING");
		return 0;
	case 2:
		if (!verify_ok)
			return 0;
		gen_cover(g, GF_MS_VERIFY);
		gen_printf(g, " WITH VERIFICATION");
		return 1;
	case 3:
		gen_printf(g, " WITHOUT VERIFICATION");
		return 0;
	default:
		return 0;
	}
}

static void msg_tag(gen *g, const gen_env *e)
{
	int k = (int)gen_int(g, 0, 5);

	if (k >= 2)
		return;
	gen_cover(g, GF_MS_TAG);
	if (k == 0) {
		gen_printf(g, " USING TAG ");
		gen_bounded(g, e, 0, 5);
	} else {
		gen_printf(g, " USING TAG \"%s\"", gen_chance(g, 50) ? "halo" : "x1");
	}
}

void gen_buffer(gen *g, const gen_env *e, gen_msgspec *m)
{
	int k = (int)gen_int(g, 0, 5);

	m->has_buffer = m->has_offset = 0;
	if (m->unique || k >= 3)
		return;
	gen_cover(g, GF_MS_BUFFER);
	m->has_buffer = 1;
	gen_printf(g, " %s ", m->recv ? "INTO" : "FROM");
	if (k == 2 && !m->aligned) {
		m->has_offset = 1;
		gen_bounded(g, e, 0, 64);
		gen_printf(g, " BYTES INTO ");
	}
	if (k == 0) {
		gen_printf(g, "THE DEFAULT BUFFER");
	} else {
		gen_printf(g, "BUFFER ");
		gen_bounded(g, e, -1, 4);
	}
}

void gen_msg(gen *g, const gen_env *e, gen_msgspec *m, int want_buffer)
{
	gen_env p = *e;
	int k = (int)gen_int(g, 0, 3);

	p.allow &= ~(unsigned)(GA_RANDOM | GA_COUNTERS | GA_FLOAT);
	if (k == 0) {
		gen_printf(g, "A");
	} else {
		if (k == 1)
			gen_printf(g, "%d", (int)gen_int(g, 0, 3));
		else
			gen_bounded(g, &p, 0, 3);
	}
	m->unique = gen_chance(g, 15);
	if (m->unique)
		gen_cover(g, GF_MS_UNIQUE);
	gen_printf(g, "%s", m->unique ? " UNIQUE" : gen_chance(g, 10) ? " NONUNIQUE" : "");
	m->aligned = msg_alignment(g, &p, msg_size(g, &p));
	gen_printf(g, " MESSAGES");
	m->verify = msg_touching(g, m->verify_ok);
	msg_tag(g, &p);
	m->has_buffer = m->has_offset = 0;
	if (want_buffer)
		gen_buffer(g, &p, m);
}

void gen_recv_override(gen *g, const gen_env *e, const gen_msgspec *m, int *async)
{
	int any = 0;

	*async = 0;
	gen_printf(g, " WHO RECEIVES THEM");
	if (gen_chance(g, 40)) {
		*async = gen_chance(g, 60);
		gen_printf(g, *async ? " ASYNCHRONOUSLY" : " SYNCHRONOUSLY");
		any = 1;
	}
	if (gen_chance(g, 40) && !m->has_buffer && !m->has_offset) {
		gen_cover(g, GF_MS_UNIQUE);
		gen_printf(g, " AS A%s MESSAGE", gen_chance(g, 50) ? " UNIQUE" : "N UNALIGNED");
		any = 1;
	}
	if (!m->verify && gen_chance(g, 40)) {
		gen_cover(g, GF_MS_TOUCHING);
		gen_printf(g, " WITH%s DATA TOUCHING", gen_chance(g, 30) ? "OUT" : "");
		any = 1;
	}
	if (!any && m->unique) {
		gen_printf(g, " SYNCHRONOUSLY");
	} else if (!any) {
		gen_printf(g, " INTO BUFFER ");
		gen_bounded(g, e, 0, 3);
	}
}

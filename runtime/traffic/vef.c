/*
 * vef.c - strict reader of extended VEF traces (see vef.h).
 *
 * Line by line: each significant line is cut into words (a "quoted" word may
 * hold blanks), then the record expected at that point of the file checks
 * its words from left to right and stops at the first one that does not fit.
 */
#include "runtime/traffic/vef.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/traffic/cdf.h"
#include "runtime/traffic/hvd.h"
#include "base/util.h"

#define VEF_MAXTOK 64

typedef struct vp {
	const char *path;
	const char *p;       /* rest of the text */
	int line;            /* line number of the current record */
	char *buf;           /* its words, NUL-separated */
	char *tok[VEF_MAXTOK];
	int ntok;
	char *err;
} vp;

static int fail(vp *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(vp *P, const char *fmt, ...)
{
	if (P->err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	P->err = xasprintf("%s:%d: %s", P->path, P->line ? P->line : 1, msg);
	free(msg);
	return -1;
}

/* "expected FORM, found `word`" for word i of the record (or the end of the line). */
static int expected(vp *P, int i, const char *form)
{
	if (i < P->ntok)
		return fail(P, "expected %s, found `%s`", form, P->tok[i]);
	return fail(P, "expected %s, found the end of the line", form);
}

/* Moves to the next significant line and cuts it into words. 1, 0 at the end of the text, -1 on error. */
static int next_record(vp *P)
{
	for (;;) {
		if (!*P->p)
			return 0;
		P->line++;
		const char *eol = strchr(P->p, '\n');
		size_t len = eol ? (size_t)(eol - P->p) : strlen(P->p);
		free(P->buf);
		P->buf = xstrndup(P->p, len);
		P->p = eol ? eol + 1 : P->p + len;
		P->ntok = 0;
		char *s = P->buf;
		for (;;) {
			while (*s == ' ' || *s == '\t' || *s == '\r')
				s++;
			if (!*s || (*s == '#' && P->ntok == 0))
				break;
			if (P->ntok == VEF_MAXTOK)
				return fail(P, "too many words in one record (at most %d)", VEF_MAXTOK);
			if (*s == '"') {
				char *q = strchr(s + 1, '"');
				if (!q)
					return fail(P, "unterminated quoted word");
				P->tok[P->ntok++] = s + 1;
				*q = '\0';
				s = q + 1;
				if (*s && *s != ' ' && *s != '\t' && *s != '\r')
					return fail(P, "expected a blank after a quoted word");
				continue;
			}
			P->tok[P->ntok++] = s;
			while (*s && *s != ' ' && *s != '\t' && *s != '\r')
				s++;
			if (*s)
				*s++ = '\0';
		}
		if (P->ntok)
			return 1;
	}
}

/* An unsigned decimal integer word. */
static int u64_word(const char *w, uint64_t *v)
{
	if (!*w)
		return -1;
	uint64_t x = 0;
	for (const char *c = w; *c; c++) {
		if (*c < '0' || *c > '9' || x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*c - '0');
	}
	*v = x;
	return 0;
}

/* A non-negative decimal number word (digits, point, exponent). */
static int num_word(const char *w, double *v)
{
	if (!*w || strspn(w, "0123456789.eE+-") != strlen(w) || *w == '-' || *w == '+')
		return -1;
	char *end;
	errno = 0;
	*v = strtod(w, &end);
	return *end || errno == ERANGE || !isfinite(*v) || *v < 0 ? -1 : 0;
}

/* Word i must be `kw`. */
static int keyword(vp *P, int i, const char *kw, const char *form)
{
	return i < P->ntok && !strcmp(P->tok[i], kw) ? 0 : expected(P, i, form);
}

static int u64_at(vp *P, int i, uint64_t *v, const char *form)
{
	return i < P->ntok && u64_word(P->tok[i], v) == 0 ? 0 : expected(P, i, form);
}

static int num_at(vp *P, int i, double *v, const char *form)
{
	return i < P->ntok && num_word(P->tok[i], v) == 0 ? 0 : expected(P, i, form);
}

static int end_at(vp *P, int i, const char *form)
{
	return i == P->ntok ? 0 : fail(P, "expected the end of the record %s, found `%s`", form, P->tok[i]);
}

#define DEST_FORM "`UNIFORM`, `GAUSS [mean deviation]` or `POISSON [mean]`"

/* A destination from word *i on; advances *i past it. */
static int dest_at(vp *P, int *i, rt_dest *d)
{
	*d = (rt_dest){0};
	if (*i >= P->ntok)
		return expected(P, *i, DEST_FORM);
	const char *w = P->tok[*i];
	if (!strcmp(w, "UNIFORM")) {
		d->kind = RT_DEST_UNIFORM;
		++*i;
		return 0;
	}
	if (!strcmp(w, "GAUSS")) {
		d->kind = RT_DEST_GAUSSIAN;
		++*i;
		if (*i < P->ntok && num_word(P->tok[*i], &d->mean) == 0) {
			if (num_at(P, *i + 1, &d->dev, "the deviation of GAUSS (a number)") < 0)
				return -1;
			d->has_mean = d->has_dev = 1;
			*i += 2;
		}
		return 0;
	}
	if (!strcmp(w, "POISSON")) {
		d->kind = RT_DEST_POISSON;
		++*i;
		if (*i < P->ntok && num_word(P->tok[*i], &d->mean) == 0) {
			d->has_mean = 1;
			++*i;
		}
		return 0;
	}
	return expected(P, *i, DEST_FORM);
}

/* ------------------------------------------------------------ records */

#define HEADER_FORM "`VEF3 tasks msgs colls comms [clock_ps]`"

static int header(vp *P, vef_trace *v)
{
	uint64_t tasks, clk = 1000;
	if (keyword(P, 0, "VEF3", HEADER_FORM) < 0 || u64_at(P, 1, &tasks, "the number of tasks") < 0 ||
	    u64_at(P, 2, &v->msgs, "the number of messages") < 0 ||
	    u64_at(P, 3, &v->colls, "the number of collectives") < 0 ||
	    u64_at(P, 4, &v->comms, "the number of communicators") < 0)
		return -1;
	if (P->ntok > 5 && u64_at(P, 5, &clk, "the clock period in ps") < 0)
		return -1;
	if (end_at(P, P->ntok > 5 ? 6 : 5, HEADER_FORM) < 0)
		return -1;
	if (tasks < 1 || tasks > INT32_MAX)
		return fail(P, "the number of tasks must lie in 1..%d", INT32_MAX);
	if (clk < 1)
		return fail(P, "the clock period must be at least 1 ps");
	v->tasks = (int)tasks;
	v->clock_ps = clk;
	return 0;
}

#define EXT_FORM "`EXT DCNW`, `EXT CDCNW`, `EXT FLOWS` or `EXT HOROVOD`"

static int ext(vp *P, vef_trace *v)
{
	static const char *const names[] = {"DCNW", "CDCNW", "FLOWS", "HOROVOD"};
	if (keyword(P, 0, "EXT", EXT_FORM) < 0)
		return -1;
	for (int m = 0; m < 4; m++)
		if (P->ntok > 1 && !strcmp(P->tok[1], names[m])) {
			v->model = m;
			return end_at(P, 2, EXT_FORM);
		}
	return expected(P, 1, EXT_FORM);
}

static int dcnw(vp *P, vef_trace *v)
{
	const char *form = v->model == VEF_DCNW ? "`MODEL dest LOAD gbps`" : "`path dest LOAD gbps`";
	if (P->ntok < 1)
		return expected(P, 0, form);
	if (v->model == VEF_DCNW) {
		int k = trf_cdf_model_index(P->tok[0]);
		if (k < 0 || strcmp(P->tok[0], trf_cdf_model_name(k)))
			return fail(P, "unknown DCNW model `%s` (expected WEB_SEARCH, FB_KEY_VALUE, FB_CACHE_FOLLOWER, "
			            "FB_WEB_SERVER, FB_HADOOP, GOOGLE_ALL or GOOGLE_SEARCH)", P->tok[0]);
		v->dcnw.model = xstrdup(trf_cdf_model_name(k));
	} else {
		if (!*P->tok[0])
			return fail(P, "expected the path of a CDF file, found an empty word");
		v->dcnw.cdf_path = xpath_near(P->path, P->tok[0]); /* a trace and its table travel together */
	}
	int i = 1;
	double gbps;
	if (dest_at(P, &i, &v->dcnw.dest) < 0 || keyword(P, i, "LOAD", "`LOAD gbps`") < 0 ||
	    num_at(P, i + 1, &gbps, "the load in Gbps (a number)") < 0 || end_at(P, i + 2, form) < 0)
		return -1;
	if (gbps <= 0)
		return fail(P, "the load must be positive (found %g Gbps)", gbps);
	v->dcnw.gbps = gbps;
	v->dcnw.count = v->msgs;
	return 0;
}

#define CLASSES_FORM "`CLASSES c TIME cycles dest`"
#define CLASS_FORM "`id MAX kb MIN kb PERC p [dest]`"

static int flows(vp *P, vef_trace *v)
{
	uint64_t c, cycles;
	int i = 4;
	if (keyword(P, 0, "CLASSES", CLASSES_FORM) < 0 || u64_at(P, 1, &c, "the number of classes") < 0 ||
	    keyword(P, 2, "TIME", "`TIME cycles`") < 0 || u64_at(P, 3, &cycles, "the duration in cycles") < 0 ||
	    dest_at(P, &i, &v->flows.dest) < 0 || end_at(P, i, CLASSES_FORM) < 0)
		return -1;
	if (c < 1 || c > 1000)
		return fail(P, "the number of classes must lie in 1..1000");
	if (cycles < 1 || cycles > UINT64_MAX / v->clock_ps)
		return fail(P, "the duration must be a positive number of cycles that fits in 64-bit picoseconds");
	int head = P->line;
	v->flows.count = v->msgs;
	v->flows.duration = cycles * v->clock_ps;
	rt_flow_class *cls = xcalloc(c, sizeof *cls);
	v->flows.classes = cls;
	v->flows.nclasses = (int)c;
	double sum = 0;
	for (uint64_t k = 0; k < c; k++) {
		int r = next_record(P);
		if (r < 0)
			return -1;
		if (r == 0)
			return fail(P, "expected %" PRIu64 " class lines after line %d, found %" PRIu64, c, head, k);
		uint64_t id;
		double mx, mn, pc;
		i = 7;
		if (u64_at(P, 0, &id, "the class id") < 0)
			return -1;
		if (id != k)
			return fail(P, "expected class id %" PRIu64 " (classes are numbered 0..%" PRIu64 " in order), found `%s`",
			            k, c - 1, P->tok[0]);
		if (keyword(P, 1, "MAX", CLASS_FORM) < 0 || num_at(P, 2, &mx, "the maximum size in KB") < 0 ||
		    keyword(P, 3, "MIN", CLASS_FORM) < 0 || num_at(P, 4, &mn, "the minimum size in KB") < 0 ||
		    keyword(P, 5, "PERC", CLASS_FORM) < 0 || num_at(P, 6, &pc, "the percentage of flows") < 0)
			return -1;
		if (i < P->ntok && dest_at(P, &i, &cls[k].dest) < 0)
			return -1;
		if (end_at(P, i, CLASS_FORM) < 0)
			return -1;
		if (mn > mx)
			return fail(P, "MIN %g KB is above MAX %g KB", mn, mx);
		if (mx > 1e12)
			return fail(P, "MAX %g KB is too large", mx);
		if (pc > 100)
			return fail(P, "PERC %g is above 100", pc);
		cls[k].min_bytes = (uint64_t)llround(mn * 1024);
		cls[k].max_bytes = (uint64_t)llround(mx * 1024);
		cls[k].percent = pc;
		sum += pc;
	}
	if (fabs(sum - 100) > 1e-6) {
		P->line = head;
		return fail(P, "the class percentages sum to %g, expected 100", sum);
	}
	return 0;
}

static const char *const hvd_keys[RT_HVD_NKEYS] = {
	"COMPUTE_MS", "NEGOTIATION_LOOP_MS", "GATV_BYTES", "GATV_TOTAL_BYTES", "GATV_PROB", "BCAST_BYTES", "ARED_KBYTES",
};
#define KEY_FORM "a key (COMPUTE_MS, NEGOTIATION_LOOP_MS, GATV_BYTES, GATV_TOTAL_BYTES, GATV_PROB, BCAST_BYTES or ARED_KBYTES)"

/* Key-value pairs from word i to the end of the record. */
static int hvd_pairs(vp *P, int i, rt_hvd_layer *x)
{
	if (i >= P->ntok)
		return expected(P, i, KEY_FORM);
	for (; i < P->ntok; i += 2) {
		int k = 0;
		while (k < RT_HVD_NKEYS && strcmp(P->tok[i], hvd_keys[k]))
			k++;
		if (k == RT_HVD_NKEYS)
			return expected(P, i, KEY_FORM);
		if (x->set & (1u << k))
			return fail(P, "%s is given twice", hvd_keys[k]);
		double d;
		uint64_t u;
		int integral = k == RT_HVD_GATHERV_TOTAL || k == RT_HVD_BROADCAST;
		char form[64];
		snprintf(form, sizeof form, "the value of %s (%s)", hvd_keys[k], integral ? "a whole number" : "a number");
		if (integral ? u64_at(P, i + 1, &u, form) : num_at(P, i + 1, &d, form))
			return -1;
		switch (k) {
		case RT_HVD_COMPUTE: x->compute = (ncsim_time_t)llround(d * 1e9); break;
		case RT_HVD_NEGOTIATION: x->negotiation = (ncsim_time_t)llround(d * 1e9); break;
		case RT_HVD_GATHERV: x->gatherv_bytes = d; break;
		case RT_HVD_GATHERV_TOTAL: x->gatherv_total = u; break;
		case RT_HVD_GATHERV_PROB:
			if (d > 1)
				return fail(P, "GATV_PROB must lie in [0, 1] (found %g)", d);
			x->gatherv_prob = d;
			break;
		case RT_HVD_BROADCAST: x->bcast_bytes = u; break;
		default: x->allreduce_bytes = (uint64_t)llround(d * 1024); break;
		}
		if ((k == RT_HVD_COMPUTE || k == RT_HVD_NEGOTIATION) && d > 1e9)
			return fail(P, "%s %g is too large", hvd_keys[k], d);
		x->set |= 1u << k;
	}
	return 0;
}

static int horovod(vp *P, vef_trace *v)
{
	uint64_t b, l;
	if (keyword(P, 0, "BATCHES", "`BATCHES b LAYERS l`") < 0 || u64_at(P, 1, &b, "the number of batches") < 0 ||
	    keyword(P, 2, "LAYERS", "`BATCHES b LAYERS l`") < 0 || u64_at(P, 3, &l, "the number of layers") < 0 ||
	    end_at(P, 4, "`BATCHES b LAYERS l`") < 0)
		return -1;
	if (b > INT32_MAX)
		return fail(P, "too many batches (at most %d)", INT32_MAX);
	if (l > TRF_HVD_MAX_LAYERS)
		return fail(P, "too many layers (at most %d)", TRF_HVD_MAX_LAYERS);
	v->hvd.batches = (rt_int)b;
	v->hvd.layers = (rt_int)l;
	int r = next_record(P);
	if (r < 0)
		return -1;
	if (r == 0)
		return fail(P, "expected `DEFAULT key value ...` after the BATCHES record, found the end of the file");
	if (keyword(P, 0, "DEFAULT", "`DEFAULT key value ...`") < 0 || hvd_pairs(P, 1, &v->hvd.defaults) < 0)
		return -1;
	if (v->hvd.defaults.set != RT_HVD_ALL) {
		char miss[256] = "";
		size_t n = 0;
		for (int k = 0; k < RT_HVD_NKEYS; k++)
			if (!(v->hvd.defaults.set & (1u << k)))
				n += (size_t)snprintf(miss + n, sizeof miss - n, "%s%s", n ? ", " : "", hvd_keys[k]);
		return fail(P, "DEFAULT must give every key; missing: %s", miss);
	}
	VEC(rt_hvd_override) ov = {0};
	while ((r = next_record(P)) > 0) {
		uint64_t k;
		rt_hvd_override o = {0};
		if (keyword(P, 0, "LAYER", "`LAYER k key value ...`") < 0 || u64_at(P, 1, &k, "the layer number") < 0)
			break;
		if (k >= l) {
			fail(P, "LAYER %" PRIu64 " is out of range (the trace has layers 0..%" PRId64 ")", k, v->hvd.layers - 1);
			break;
		}
		o.layer = (rt_int)k;
		if (hvd_pairs(P, 2, &o.p) < 0)
			break;
		VEC_PUSH(&ov, o);
	}
	v->hvd.overrides = ov.ptr;
	v->hvd.noverrides = (int)ov.len;
	return P->err ? -1 : r;
}

/* ------------------------------------------------------------ the file */

vef_trace *vef_parse(const char *path, const char *text, char **err)
{
	vp P = {.path = path, .p = text};
	vef_trace *v = xcalloc(1, sizeof *v);
	v->path = xstrdup(path);
	int r = next_record(&P);
	if (r == 0)
		fail(&P, "expected %s, found the end of the file", HEADER_FORM);
	else if (r > 0 && header(&P, v) == 0) {
		r = next_record(&P);
		if (r == 0)
			fail(&P, "expected %s after the header, found the end of the file", EXT_FORM);
		else if (r > 0 && ext(&P, v) == 0) {
			r = next_record(&P);
			static const char *const first[] = {"`MODEL dest LOAD gbps`", "`path dest LOAD gbps`", CLASSES_FORM,
			                                     "`BATCHES b LAYERS l`"};
			if (r == 0)
				fail(&P, "expected %s after the EXT record, found the end of the file", first[v->model]);
			else if (r > 0) {
				switch (v->model) {
				case VEF_DCNW:
				case VEF_CDCNW: r = dcnw(&P, v); break;
				case VEF_FLOWS: r = flows(&P, v); break;
				default: r = horovod(&P, v); break;
				}
				/* HOROVOD reads up to the end itself; the others must be followed by nothing. */
				if (r == 0 && v->model != VEF_HOROVOD && next_record(&P) > 0)
					fail(&P, "unexpected record after the %s records: `%s` (a trace holds one EXT section)",
					     v->model == VEF_FLOWS ? "FLOWS" : "DCNW", P.tok[0]);
			}
		}
	}
	free(P.buf);
	if (P.err) {
		*err = P.err;
		vef_free(v);
		return NULL;
	}
	return v;
}

vef_trace *vef_load(const char *path, char **err)
{
	char *text = xread_text(path, "the trace", err);
	if (!text)
		return NULL;
	vef_trace *v = vef_parse(path, text, err);
	free(text);
	return v;
}

void vef_free(vef_trace *v)
{
	if (!v)
		return;
	free(v->path);
	free((char *)v->dcnw.model);
	free((char *)v->dcnw.cdf_path);
	free((rt_flow_class *)v->flows.classes);
	free((rt_hvd_override *)v->hvd.overrides);
	free(v);
}

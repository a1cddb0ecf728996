/*
 * diag.c - diagnostics: `file:line:col: level: message`, the source line and
 * a `^~~~` underline under the span.
 */
#include <stdio.h>
#include <string.h>

#include "lang/diag.h"

void diag_init(diag_ctx *d, const src_mgr *src, FILE *out)
{
	d->src = src;
	d->out = out;
	d->errors = d->warnings = 0;
	d->max_errors = 0;
}

/* Longest excerpt shown: a longer source line (a generated program may have
 * one of megabytes) is cut to a window of this many bytes around the column. */
#define EXCERPT_MAX 512

/* Prints the line of sp's first byte and underlines sp (up to the line's end). */
static void show_excerpt(FILE *out, const src_mgr *src, src_span sp, unsigned line, unsigned col)
{
	size_t len;
	const char *text = src_line(src, sp.file, line, &len);
	size_t at = col ? col - 1 : 0, from = 0, to = len;   /* shown: text[from, to) */
	if (len > EXCERPT_MAX) {
		from = at > EXCERPT_MAX / 2 ? at - EXCERPT_MAX / 2 : 0;
		to = len - from > EXCERPT_MAX ? from + EXCERPT_MAX : len;
	}
	const char *cut = from ? "..." : "";
	fprintf(out, " %s", cut);
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)text[i];
		/* Keep the excerpt one terminal line of ASCII whatever the input. */
		fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', out);
	}
	fprintf(out, "%s\n %*s", to < len ? "..." : "", (int)strlen(cut), "");
	for (size_t i = from; i < at && i < to; i++)
		fputc(text[i] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	if (!span_empty(sp)) {
		size_t n = (size_t)sp.last - sp.first + 1;
		for (size_t i = at + 1; i < at + n && i < to; i++)
			fputc('~', out);
	}
	fputc('\n', out);
}

void diag_vreport(diag_ctx *d, diag_level lvl, src_span sp, const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warning", "note" };
	if (lvl == DIAG_ERROR)
		d->errors++;
	else if (lvl == DIAG_WARNING)
		d->warnings++;
	if (!d->out)
		return;
	if (d->max_errors && d->errors > d->max_errors) {
		if (lvl == DIAG_ERROR && d->errors == d->max_errors + 1)
			fprintf(d->out, "too many errors; further errors are not shown\n");
		return;
	}
	unsigned line = 0, col = 0;
	const char *name = "<input>";
	if (d->src && sp.file < d->src->nfiles) {
		const src_file *f = src_get(d->src, sp.file);
		name = f->name;
		src_linecol(d->src, sp.file, sp.first, &line, &col);
	}
	if (line)
		fprintf(d->out, "%s:%u:%u: %s: ", name, line, col, names[lvl]);
	else
		fprintf(d->out, "%s: %s: ", name, names[lvl]);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	if (line)
		show_excerpt(d->out, d->src, sp, line, col);
}

#define REPORT(lvl)                                  \
	do {                                             \
		va_list ap;                                  \
		va_start(ap, fmt);                           \
		diag_vreport(d, lvl, sp, fmt, ap);           \
		va_end(ap);                                  \
	} while (0)

void diag_error(diag_ctx *d, src_span sp, const char *fmt, ...) { REPORT(DIAG_ERROR); }
void diag_warning(diag_ctx *d, src_span sp, const char *fmt, ...) { REPORT(DIAG_WARNING); }
void diag_note(diag_ctx *d, src_span sp, const char *fmt, ...) { REPORT(DIAG_NOTE); }

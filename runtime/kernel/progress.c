/*
 * progress.c - the progress line (see progress.h).
 */
#include "runtime/kernel/progress.h"

#include <time.h>
#include <unistd.h>

#define REDRAW_SECONDS 0.25

double sim_progress_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sim_progress_init(sim_progress_state *p)
{
	*p = (sim_progress_state){ .mode = SIM_PROGRESS_AUTO, .out = stderr };
}

void sim_progress_begin(sim_progress_state *p, double wall, ncsim_time_t now)
{
	switch (p->mode) {
	case SIM_PROGRESS_OFF: p->active = 0; break;
	case SIM_PROGRESS_ON: p->active = 1; break;
	default: p->active = isatty(fileno(p->out)); break;
	}
	p->shown = 0;
	p->width = 0;
	p->wall_start = p->wall_last = wall;
	p->sim_start = now;
	p->events_last = 0;
}

void sim_progress_fmt_time(char *buf, size_t size, ncsim_time_t t)
{
	static const char *const unit[] = { "ps", "ns", "us", "ms", "s" };
	double v = (double)t;
	int u = 0;
	while (u < 4 && v >= 1000.0) {
		v /= 1000.0;
		u++;
	}
	snprintf(buf, size, u ? "%.3f %s" : "%.0f %s", v, unit[u]);
}

static void fmt_duration(char *buf, size_t size, double s)
{
	if (!(s >= 0.0) || s > 1e7) {
		snprintf(buf, size, "?");
		return;
	}
	unsigned long t = (unsigned long)(s + 0.5);
	snprintf(buf, size, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

void sim_progress_tick(sim_progress_state *p, double wall, ncsim_time_t now, uint64_t events)
{
	if (!p->active || wall - p->wall_last < REDRAW_SECONDS)
		return;
	char simt[32], eta[64] = "";
	sim_progress_fmt_time(simt, sizeof simt, now);
	double rate = (double)(events - p->events_last) / (wall - p->wall_last);
	if (p->expected_end > now && now > p->sim_start) {
		/* Simulated time advances at a roughly steady pace per wall second. */
		double pace = (double)(now - p->sim_start) / (wall - p->wall_start);
		char d[32];
		fmt_duration(d, sizeof d, (double)(p->expected_end - now) / pace);
		snprintf(eta, sizeof eta, "  %4.1f%%  ETA %s",
		         100.0 * (double)now / (double)p->expected_end, d);
	}
	int w = fprintf(p->out, "\rsim %s  %.2f Mev/s  %llu events%s", simt, rate * 1e-6,
	                (unsigned long long)events, eta);
	w -= 1; /* the carriage return takes no column */
	if (w < p->width)
		fprintf(p->out, "%*s", p->width - w, "");
	fflush(p->out);
	p->width = w > p->width ? w : p->width;
	p->shown = 1;
	p->wall_last = wall;
	p->events_last = events;
}

void sim_progress_end(sim_progress_state *p)
{
	if (p->shown) {
		fprintf(p->out, "\r%*s\r", p->width, "");
		fflush(p->out);
	}
	p->shown = 0;
	p->width = 0;
}

/*
 * loss.c - the losses of loss.h: how far the simulated figures of a parameter
 * set are from the measured ones, as one number that an optimizer minimizes.
 *
 * Every relative error divides by the measured value m. A point measured at
 * exactly 0 has no relative error, and skipping it would hide a simulation
 * that is far off there; it counts with the absolute error s - m instead (for
 * rmsre, rmspe, mape, huber and maxrel alike). logratio has no such fallback:
 * ln(s / m) needs both positive, and a point where one is not makes it +inf.
 */
#include "calib/loss.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

#define HUBER_DEFAULT 0.1

static const char *const loss_names[] = {
	[CAL_LOSS_MAE] = "mae",     [CAL_LOSS_MSE] = "mse",       [CAL_LOSS_RMSE] = "rmse",
	[CAL_LOSS_RMSRE] = "rmsre", [CAL_LOSS_RMSPE] = "rmspe",   [CAL_LOSS_MAPE] = "mape",
	[CAL_LOSS_HUBER] = "huber", [CAL_LOSS_MAXREL] = "maxrel", [CAL_LOSS_LOGRATIO] = "logratio",
};
#define NLOSS (sizeof loss_names / sizeof *loss_names)

static char *unknown(const char *s)
{
	return xasprintf("unknown loss '%s'; the losses are mae, mse, rmse, rmsre, rmspe, mape, huber, "
	                 "huber(DELTA) with DELTA > 0, maxrel and logratio",
	                 s);
}

/* huber(DELTA): the text after "huber" is "(number)" with blanks allowed inside. */
static int parse_delta(const char *s, const char *args, double *delta, char **err)
{
	char *end;
	if (*args++ != '(')
		goto bad;
	double d = strtod(args, &end);
	if (end == args)
		goto bad;
	while (isspace((unsigned char)*end))
		end++;
	if (*end++ != ')' || *end)
		goto bad;
	if (!(d > 0) || !isfinite(d)) {
		*err = xasprintf("loss '%s': the delta of huber must be a finite number > 0", s);
		return -1;
	}
	*delta = d;
	return 0;
bad:
	*err = unknown(s);
	return -1;
}

int cal_loss_parse(const char *s, cal_loss *l, char **err)
{
	*err = NULL;
	if (!s) {
		*err = unknown("");
		return -1;
	}
	for (size_t i = 0; i < NLOSS; i++) {
		size_t k = strlen(loss_names[i]);
		if (strncasecmp(s, loss_names[i], k))
			continue;
		if (i == CAL_LOSS_HUBER && s[k]) {
			double d;
			if (parse_delta(s, s + k, &d, err))
				return -1;
			*l = (cal_loss){.kind = CAL_LOSS_HUBER, .delta = d};
			return 0;
		}
		if (s[k])
			continue; /* "rmse" is not "rmsep"; "mse" is no prefix of a longer name either */
		*l = (cal_loss){.kind = (enum cal_loss_kind)i, .delta = i == CAL_LOSS_HUBER ? HUBER_DEFAULT : 0};
		return 0;
	}
	*err = unknown(s);
	return -1;
}

const char *cal_loss_name(const cal_loss *l, char *buf, size_t n)
{
	if ((size_t)l->kind >= NLOSS)
		snprintf(buf, n, "?");
	else if (l->kind == CAL_LOSS_HUBER)
		snprintf(buf, n, "huber(%g)", l->delta);
	else
		snprintf(buf, n, "%s", loss_names[l->kind]);
	return buf;
}

/* The relative error of one point, or the absolute one where m = 0 (see the top). */
static double rel(double s, double m) { return m != 0 ? (s - m) / m : s - m; }

static double huber(double r, double d)
{
	double a = fabs(r);
	return a <= d ? r * r / 2 : d * (a - d / 2);
}

/* The term point i adds to the sum whose mean (or max) the loss takes. */
static double term(const cal_loss *l, double s, double m)
{
	switch (l->kind) {
	case CAL_LOSS_MAE: return fabs(s - m);
	case CAL_LOSS_MSE:
	case CAL_LOSS_RMSE: return (s - m) * (s - m);
	case CAL_LOSS_RMSRE:
	case CAL_LOSS_RMSPE: return rel(s, m) * rel(s, m);
	case CAL_LOSS_MAPE:
	case CAL_LOSS_MAXREL: return fabs(rel(s, m));
	case CAL_LOSS_HUBER: return huber(rel(s, m), l->delta);
	case CAL_LOSS_LOGRATIO: return s > 0 && m > 0 ? fabs(log(s / m)) : INFINITY;
	}
	return INFINITY;
}

double cal_loss_eval(const cal_loss *l, const double *sim, const double *meas, size_t n)
{
	if (n == 0)
		return INFINITY; /* nothing to compare: no parameter set may look perfect */
	double acc = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(sim[i]) || !isfinite(meas[i]))
			return INFINITY;
		double t = term(l, sim[i], meas[i]);
		acc = l->kind == CAL_LOSS_MAXREL ? fmax(acc, t) : acc + t;
	}
	if (l->kind == CAL_LOSS_MAXREL)
		return acc;
	double mean = acc / (double)n;
	switch (l->kind) {
	case CAL_LOSS_RMSE:
	case CAL_LOSS_RMSRE: return sqrt(mean);
	case CAL_LOSS_RMSPE: return 100 * sqrt(mean);
	case CAL_LOSS_MAPE: return 100 * mean;
	default: return mean;
	}
}

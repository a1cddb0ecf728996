/*
 * prior.c - prior densities of calibration parameters (see spec.h).
 *
 * The sampler works on the coordinates u in [0,1] of cal_param_at, so a
 * density of the value v becomes one of u through the Jacobian of the
 * scale: dv/du = HI - LO on a linear range, v ln(HI / LO) on a log range.
 * The default prior is uniform in u: uniform in v on a linear range,
 * log-uniform on a log one.
 */
#include <math.h>
#include <stdio.h>

#include "calib/spec.h"

double cal_param_real(const cal_param *p, double u)
{
	if (p->fixed)
		return p->value;
	return p->log ? p->lo * exp(u * log(p->hi / p->lo)) : p->lo + u * (p->hi - p->lo);
}

double cal_prior_logpdf(const cal_param *p, double u)
{
	if (!(u >= 0 && u <= 1))
		return -INFINITY;
	if (p->prior == CAL_PRIOR_SCALE || p->fixed)
		return 0;
	double v = cal_param_real(p, u);
	/* log |dv/du| up to a constant: ln v on a log range, 0 on a linear one. */
	double jac = p->log ? log(v) : 0, z;
	switch (p->prior) {
	case CAL_PRIOR_UNIFORM:
		return jac;
	case CAL_PRIOR_LOGUNIFORM:
		return jac - log(v);
	case CAL_PRIOR_NORMAL:
		z = (v - p->prior_a) / p->prior_b;
		return jac - 0.5 * z * z;
	case CAL_PRIOR_LOGNORMAL:
		z = (log(v) - log(p->prior_a)) / p->prior_b;
		return jac - 0.5 * z * z - log(v);
	default:
		return 0;
	}
}

void cal_prior_describe(const cal_param *p, char *buf, size_t n)
{
	char a[48], b[48];
	switch (p->prior) {
	case CAL_PRIOR_SCALE:
		snprintf(buf, n, "%s", p->log ? "log-uniform" : "uniform");
		break;
	case CAL_PRIOR_UNIFORM:
		snprintf(buf, n, "uniform");
		break;
	case CAL_PRIOR_LOGUNIFORM:
		snprintf(buf, n, "log-uniform");
		break;
	case CAL_PRIOR_NORMAL:
		cal_param_format(p, p->prior_a, a, sizeof a);
		cal_param_format(p, p->prior_b, b, sizeof b);
		snprintf(buf, n, "normal(%s; %s)", a, b);
		break;
	case CAL_PRIOR_LOGNORMAL:
		cal_param_format(p, p->prior_a, a, sizeof a);
		snprintf(buf, n, "lognormal(%s; %g)", a, p->prior_b);
		break;
	}
}

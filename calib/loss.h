/*
 * loss.h - how far simulated figures are from measured ones.
 *
 * sim[i] and meas[i] are the simulated and the measured value of point i (the
 * measured value is the mean of its trials). Relative errors divide by meas[i];
 * a point with meas[i] = 0 counts with an absolute error instead for the
 * relative losses (documented in doc/calibration.md).
 *
 *   mae      mean |s - m|
 *   mse      mean (s - m)^2
 *   rmse     sqrt(mse)
 *   rmsre    sqrt(mean ((s - m) / m)^2)
 *   rmspe    100 x rmsre (percent)
 *   mape     100 x mean |s - m| / |m| (percent)
 *   huber(d) mean of the Huber function of the relative error r = (s - m) / m:
 *            r^2 / 2 when |r| <= d, else d (|r| - d / 2); default d = 0.1
 *   maxrel   max |s - m| / |m|
 *   logratio mean |ln(s / m)| (s and m must be positive; else +inf)
 */
#ifndef NCSIM_CALIB_LOSS_H
#define NCSIM_CALIB_LOSS_H

#include <stddef.h>

enum cal_loss_kind {
	CAL_LOSS_MAE, CAL_LOSS_MSE, CAL_LOSS_RMSE, CAL_LOSS_RMSRE, CAL_LOSS_RMSPE, CAL_LOSS_MAPE,
	CAL_LOSS_HUBER, CAL_LOSS_MAXREL, CAL_LOSS_LOGRATIO
};

typedef struct cal_loss {
	enum cal_loss_kind kind;
	double delta;            /* huber only */
} cal_loss;

/* "rmspe", "huber", "huber(0.05)", ... (case-insensitive). 0, or -1 with *err (heap) listing the names. */
int cal_loss_parse(const char *s, cal_loss *l, char **err);
/* The canonical name ("huber(0.05)"), in buf. */
const char *cal_loss_name(const cal_loss *l, char *buf, size_t n);
/* The loss of n points (n >= 1). NaN or infinite simulated values give +inf. */
double cal_loss_eval(const cal_loss *l, const double *sim, const double *meas, size_t n);

#endif

# calib/bayes.mk: Bayesian calibration: priors, designs, the polynomial-chaos
# surrogate, Sobol indices and the driver of `ncsim calibrate --bayes`.

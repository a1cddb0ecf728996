# calib/mcmc.mk: the posterior sampler and its convergence diagnostics.

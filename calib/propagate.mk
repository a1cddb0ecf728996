# calib/propagate.mk: `ncsim run --posterior`: a run per posterior draw, figures with intervals.

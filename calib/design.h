/*
 * design.h - designs of simulator runs for a surrogate: Latin hypercubes.
 */
#ifndef NCSIM_CALIB_DESIGN_H
#define NCSIM_CALIB_DESIGN_H

#include <stddef.h>
#include <stdint.h>

/*
 * n points of a Latin hypercube in [0,1]^dim into u[i * dim + j]: each
 * coordinate has exactly one point in each of its n strata, at a uniform
 * position inside it. Of `tries` random hypercubes (>= 1) it keeps the one
 * whose closest pair of points is farthest apart (maximin), which spreads
 * the points without breaking the strata. Deterministic for a seed.
 */
void cal_lhs(size_t n, size_t dim, uint64_t seed, size_t tries, double *u);

#endif

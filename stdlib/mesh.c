/*
 * mesh.c - mesh and torus built-ins of LANGUAGE.md §5.4.
 *
 * A mesh is always three-dimensional (missing dimensions have length 1).
 * Task numbers run x fastest:
 *
 *     t = z*H*W + y*W + x        W = 4, H = 3:   0  1  2  3    (z = 0)
 *                                                 4  5  6  7
 *                                                 8  9 10 11
 *
 * A wrapped (torus) dimension reduces coordinates with MOD, so offsets of any
 * size wrap; a plain one sends them off the mesh (-1).
 */
#include "config.h"

#include "ncsim/stdlib.h"

struct coords {
	int64_t x, y, z;
};

/* Validates the dimensions; returns -1 (error in e), 0 (t off the mesh) or 1 (c filled). */
static int get_coords(int64_t w, int64_t h, int64_t d, int64_t t, struct coords *c, ncsim_err *e)
{
	int64_t plane, cells;

	if (w == 0 || h == 0 || d == 0) {
		ncsim_err_set(e, "neighbor calculations can't be performed on a zero-sized mesh/torus");
		return -1;
	}
	if (w < 0 || h < 0 || d < 0) {
		ncsim_err_set(e, "meshes/tori may not have negative dimensions");
		return -1;
	}
	if (__builtin_mul_overflow(w, h, &plane) || __builtin_mul_overflow(plane, d, &cells)) {
		ncsim_err_set(e, "a mesh/torus of %lld x %lld x %lld tasks is too large",
		              (long long)w, (long long)h, (long long)d);
		return -1;
	}
	if (t < 0 || t >= cells)
		return 0;
	c->x = t % w;
	c->y = t % plane / w;
	c->z = t / plane;
	return 1;
}

/* Offsets coordinate p by delta in a dimension of length len; -1 if it falls off. */
static int64_t move(int64_t p, int64_t delta, int64_t len, int wrap)
{
	p = ncsim_add(p, delta);
	if (wrap)
		return ncsim_mod_i(p, len, NULL);
	return p >= 0 && p < len ? p : -1;
}

int64_t ncsim_mesh_neighbor_i(int64_t w, int64_t h, int64_t d, unsigned torus,
                              int64_t t, int64_t dx, int64_t dy, int64_t dz, ncsim_err *e)
{
	struct coords c;
	int r = get_coords(w, h, d, t, &c, e);

	if (r <= 0)
		return r < 0 ? 0 : -1;
	c.x = move(c.x, dx, w, torus & NCSIM_TORUS_X);
	c.y = move(c.y, dy, h, torus & NCSIM_TORUS_Y);
	c.z = move(c.z, dz, d, torus & NCSIM_TORUS_Z);
	if (c.x < 0 || c.y < 0 || c.z < 0)
		return -1;
	return (c.z * h + c.y) * w + c.x;
}

double ncsim_mesh_neighbor_f(double w, double h, double d, unsigned torus,
                             double t, double dx, double dy, double dz, ncsim_err *e)
{
	int64_t iw = ncsim_f2i(w, e), ih = ncsim_f2i(h, e), id = ncsim_f2i(d, e);
	int64_t it = ncsim_f2i(t, e);
	int64_t idx = ncsim_f2i(dx, e), idy = ncsim_f2i(dy, e), idz = ncsim_f2i(dz, e);

	if (e && e->failed)
		return 0.0;
	return (double)ncsim_mesh_neighbor_i(iw, ih, id, torus, it, idx, idy, idz, e);
}

int64_t ncsim_mesh_coordinate_i(int64_t w, int64_t h, int64_t d, int64_t t, int64_t c, ncsim_err *e)
{
	struct coords p = { -1, -1, -1 };

	if (get_coords(w, h, d, t, &p, e) < 0)
		return 0;
	switch (c) {
	case 0:
		return p.x;
	case 1:
		return p.y;
	case 2:
		return p.z;
	default:
		return ncsim_err_set(e, "mesh/torus coordinate must be 0, 1, or 2 (for x, y, or z, respectively)");
	}
}

double ncsim_mesh_coordinate_f(double w, double h, double d, double t, double c, ncsim_err *e)
{
	int64_t iw = ncsim_f2i(w, e), ih = ncsim_f2i(h, e), id = ncsim_f2i(d, e);
	int64_t it = ncsim_f2i(t, e), ic = ncsim_f2i(c, e);

	if (e && e->failed)
		return 0.0;
	return (double)ncsim_mesh_coordinate_i(iw, ih, id, it, ic, e);
}

/* Distance along one dimension, through the wrap-around link when shorter. */
static int64_t dist1(int64_t a, int64_t b, int64_t len, int wrap)
{
	int64_t delta = a > b ? a - b : b - a;

	return wrap && delta > len / 2 ? len - delta : delta;
}

int64_t ncsim_mesh_distance_i(int64_t w, int64_t h, int64_t d, unsigned torus,
                              int64_t t1, int64_t t2, ncsim_err *e)
{
	struct coords a, b;
	int r1 = get_coords(w, h, d, t1, &a, e);
	int r2;

	if (r1 < 0)
		return 0;
	r2 = get_coords(w, h, d, t2, &b, e);
	if (r2 < 0)
		return 0;
	if (r1 == 0 || r2 == 0)
		return -1;
	return dist1(a.x, b.x, w, torus & NCSIM_TORUS_X) + dist1(a.y, b.y, h, torus & NCSIM_TORUS_Y) +
	       dist1(a.z, b.z, d, torus & NCSIM_TORUS_Z);
}

double ncsim_mesh_distance_f(double w, double h, double d, unsigned torus,
                             double t1, double t2, ncsim_err *e)
{
	int64_t iw = ncsim_f2i(w, e), ih = ncsim_f2i(h, e), id = ncsim_f2i(d, e);
	int64_t it1 = ncsim_f2i(t1, e), it2 = ncsim_f2i(t2, e);

	if (e && e->failed)
		return 0.0;
	return (double)ncsim_mesh_distance_i(iw, ih, id, torus, it1, it2, e);
}

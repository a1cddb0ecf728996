/*
 * test_stdlib_topo.c - tree, k-nomial tree and mesh/torus built-ins
 * (LANGUAGE.md §5.2-5.4): the tests/userfunc_topologies.c tables, the
 * manual's examples and the regresstest.ncptl values.
 */
#include "config.h"

#include "stdlib_test.h"

#define T_X NCSIM_TORUS_X
#define T_Y NCSIM_TORUS_Y
#define T_Z NCSIM_TORUS_Z
#define T_ALL (T_X | T_Y | T_Z)

static void test_tree_parent(void)
{
	static const int64_t p2[] = { -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 };
	static const int64_t p3[] = { -1, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6 };

	for (int64_t t = 0; t < 15; t++)
		EXPECT_I(ncsim_tree_parent_i(t, 2, E), p2[t]);
	for (int64_t t = 0; t < 22; t++)
		EXPECT_I(ncsim_tree_parent_i(t, 3, E), p3[t]);
	EXPECT_I(ncsim_tree_parent_i(14, 2, E), 6);
	EXPECT_I(ncsim_tree_parent_i(8, 3, E), 2);
	EXPECT_I(ncsim_tree_parent_i(-5, 2, E), -1);
	EXPECT_I(ncsim_tree_parent_i(9, 1, E), 8);
	EXPECT_ERR(ncsim_tree_parent_i(3, 0, E), "an N-ary tree requires a positive value of N");
	EXPECT_F(ncsim_tree_parent_f(14.7, 2.0, E), 6.0, 0.0);
	EXPECT_ERR(ncsim_tree_parent_f(3.0, 0.5, E), "positive value of N");
}

static void test_tree_child(void)
{
	for (int64_t t = 0; t <= 6; t++)
		for (int64_t c = 0; c < 2; c++)
			EXPECT_I(ncsim_tree_child_i(t, c, 2, E), 2 * t + 1 + c);
	for (int64_t t = 0; t <= 3; t++)
		for (int64_t c = 0; c < 3; c++)
			EXPECT_I(ncsim_tree_child_i(t, c, 3, E), 3 * t + 1 + c);
	EXPECT_I(ncsim_tree_child_i(5, 0, 2, E), 11);
	EXPECT_I(ncsim_tree_child_i(3, 1, 3, E), 11);
	EXPECT_I(ncsim_tree_child_i(1, 0, 4, E), 5);
	EXPECT_I(ncsim_tree_child_i(2, 5, 3, E), -1);
	EXPECT_I(ncsim_tree_child_i(2, -1, 3, E), -1);
	EXPECT_I(ncsim_tree_child_i(1000, 1, 2, E), 2002); /* no upper bound */
	EXPECT_ERR(ncsim_tree_child_i(1, 0, -2, E), "an N-ary tree requires a positive value of N");
	EXPECT_F(ncsim_tree_child_f(3.0, 1.0, 3.0, E), 11.0, 0.0);
}

/* Children of t listed through KNOMIAL_CHILDREN and KNOMIAL_CHILD. */
static void expect_children(int64_t t, int64_t k, int64_t n, const int64_t *want, int64_t nwant)
{
	EXPECT_I(ncsim_knomial_children_i(t, k, n, E), nwant);
	for (int64_t i = 0; i < nwant; i++)
		EXPECT_I(ncsim_knomial_child_i(t, i, k, n, E), want[i]);
	EXPECT_I(ncsim_knomial_child_i(t, nwant, k, n, E), -1);
}

static void test_knomial_2(void)
{
	static const int64_t parent[] = { -1, 0, 0, 1, 0, 1, 2, 3 };

	for (int64_t t = 0; t < 8; t++)
		EXPECT_I(ncsim_knomial_parent_i(t, 2, 8, E), parent[t]);
	expect_children(0, 2, 8, (const int64_t[]){ 1, 2, 4 }, 3);
	expect_children(1, 2, 8, (const int64_t[]){ 3, 5 }, 2);
	expect_children(2, 2, 8, (const int64_t[]){ 6 }, 1);
	expect_children(3, 2, 8, (const int64_t[]){ 7 }, 1);
	for (int64_t t = 4; t < 8; t++)
		expect_children(t, 2, 8, NULL, 0);
	EXPECT_I(ncsim_knomial_children_i(1, 2, 8, E), 2);
	EXPECT_I(ncsim_knomial_child_i(1, 1, 2, 8, E), 5);
	EXPECT_I(ncsim_knomial_parent_i(6, 2, 8, E), 2);
}

static void test_knomial_3(void)
{
	static const int64_t parent[] = { -1, 0, 0, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4,
	                                  5,  6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8 };

	for (int64_t t = 0; t < 27; t++)
		EXPECT_I(ncsim_knomial_parent_i(t, 3, 27, E), parent[t]);
	expect_children(0, 3, 27, (const int64_t[]){ 1, 2, 3, 6, 9, 18 }, 6);
	expect_children(1, 3, 27, (const int64_t[]){ 4, 7, 10, 19 }, 4);
	expect_children(2, 3, 27, (const int64_t[]){ 5, 8, 11, 20 }, 4);
	for (int64_t t = 3; t <= 8; t++)
		expect_children(t, 3, 27, (const int64_t[]){ t + 9, t + 18 }, 2);
	for (int64_t t = 9; t < 27; t++)
		expect_children(t, 3, 27, NULL, 0);
	EXPECT_I(ncsim_knomial_children_i(2, 3, 27, E), 4);
	EXPECT_I(ncsim_knomial_child_i(2, 3, 3, 27, E), 20);
	EXPECT_I(ncsim_knomial_child_i(2, 4, 3, 27, E), -1);
	EXPECT_I(ncsim_knomial_children_i(8, 3, 26, E), 1);
	EXPECT_I(ncsim_knomial_children_i(8, 3, 10, E), 0);
	EXPECT_I(ncsim_knomial_parent_i(26, 3, 27, E), 8);
}

static void test_knomial_edges(void)
{
	/* With n = 1, KNOMIAL_CHILDREN(1) is -1 (t >= n), not 0. */
	EXPECT_I(ncsim_knomial_children_i(1, 2, 1, E), -1);
	EXPECT_I(ncsim_knomial_children_i(0, 2, 1, E), 0);
	EXPECT_I(ncsim_knomial_parent_i(0, 2, 1, E), -1);
	EXPECT_I(ncsim_knomial_parent_i(8, 2, 8, E), -1);
	EXPECT_I(ncsim_knomial_child_i(9, 0, 2, 8, E), -1);
	EXPECT_I(ncsim_knomial_child_i(0, -1, 2, 8, E), -1);
	EXPECT_ERR(ncsim_knomial_parent_i(3, 1, 8, E), "a k-nomial tree requires that k be at least 2");
	EXPECT_ERR(ncsim_knomial_children_i(3, 0, 8, E), "k be at least 2");
	EXPECT_ERR(ncsim_knomial_child_i(3, 0, -4, 8, E), "k be at least 2");
	/* Huge k and n: no overflow. */
	/* digit 0 gives 1 .. k-1; digit 1 gives k (2k > n). */
	EXPECT_I(ncsim_knomial_children_i(0, INT64_C(1) << 62, INT64_MAX, E), INT64_C(1) << 62);
	EXPECT_I(ncsim_knomial_child_i(0, (INT64_C(1) << 62) - 1, INT64_C(1) << 62, INT64_MAX, E), INT64_C(1) << 62);
	EXPECT_I(ncsim_knomial_child_i(5, 2, INT64_C(1) << 40, INT64_MAX, E), 5 + 3 * (INT64_C(1) << 40));
	EXPECT_I(ncsim_knomial_parent_i(INT64_MAX - 1, 2, INT64_MAX, E), (INT64_C(1) << 62) - 2);
	EXPECT_F(ncsim_knomial_child_f(2.0, 3.0, 3.0, 27.0, E), 20.0, 0.0);
	EXPECT_F(ncsim_knomial_children_f(8.0, 3.0, 26.0, E), 1.0, 0.0);
	EXPECT_F(ncsim_knomial_parent_f(26.0, 3.0, 27.0, E), 8.0, 0.0);
}

/* Every child's parent is t, and every non-root is some parent's child, for many (k, n). */
static void test_knomial_consistency(void)
{
	int bad = 0;

	for (int64_t k = 2; k <= 6; k++)
		for (int64_t n = 1; n <= 100; n++) {
			int64_t seen = 0;

			for (int64_t t = 0; t < n; t++) {
				int64_t nc = ncsim_knomial_children_i(t, k, n, NULL), prev = t;

				for (int64_t i = 0; i < nc; i++) {
					int64_t c = ncsim_knomial_child_i(t, i, k, n, NULL);

					if (c <= prev || c >= n || ncsim_knomial_parent_i(c, k, n, NULL) != t)
						bad++;
					prev = c;
				}
				seen += nc;
			}
			if (seen != n - 1)
				bad++;
		}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_mesh_1d(void)
{
	EXPECT_I(ncsim_mesh_neighbor_i(4, 1, 1, 0, 0, -1, 0, 0, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 1, 1, 0, 0, +1, 0, 0, E), 1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 1, 1, 0, 3, +1, 0, 0, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 1, 1, T_X, 0, -1, 0, 0, E), 3);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 1, 1, T_X, 3, +1, 0, 0, E), 0);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 1, 1, -1, 0, E), -1);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 1, 1, 4, 0, E), -1);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 1, 1, 2, 1, E), 0);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 1, 1, 2, 2, E), 0);
	EXPECT_I(ncsim_mesh_distance_i(4, 1, 1, 0, 1, 2, E), 1);
	EXPECT_I(ncsim_mesh_distance_i(4, 1, 1, 0, 0, 3, E), 3);
	EXPECT_I(ncsim_mesh_distance_i(4, 1, 1, T_X, 0, 3, E), 1);
	EXPECT_I(ncsim_mesh_distance_i(4, 1, 1, 0, -1, 0, E), -1);
}

static void test_mesh_2d(void)
{
	static const int64_t off[8][2] = { { -1, -1 }, { 0, -1 }, { 1, -1 }, { -1, 0 },
	                                   { 1, 0 },   { -1, 1 }, { 0, 1 },  { 1, 1 } };
	static const int64_t want[8] = { 0, 1, 2, 4, 6, 8, 9, 10 };

	for (int i = 0; i < 8; i++)
		EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 1, 0, 5, off[i][0], off[i][1], 0, E), want[i]);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 1, 0, 5, -2, 0, 0, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 1, T_X, 5, -2, 0, 0, E), 7);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 1, T_X, 5, -2, -2, 0, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 1, T_X | T_Y, 5, -2, -2, 0, E), 11);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 1, 6, 0, E), 2);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 1, 6, 1, E), 1);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 1, 8, 1, E), 2);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 1, 12, 0, E), -1);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 1, 0, 3, 9, E), 4);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 1, T_X | T_Y, 3, 9, E), 3);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 1, 0, 11, 0, E), 5);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 1, T_X | T_Y, 11, 0, E), 2);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 1, 0, 0, 5, E), 2);
}

static void test_mesh_3d(void)
{
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, 0, 0, 0, 0, 1, E), 12);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, 0, 0, 1, 1, 1, E), 17);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, 0, 17, 2, -1, -1, E), 3);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, 0, 23, 1, 1, 1, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, T_ALL, 23, 1, 1, 1, E), 0);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, T_ALL, 7, 100, -200, 300, E), 11);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 2, 18, 0, E), 2);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 2, 18, 1, E), 1);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 3, 2, 18, 2, E), 1);
	EXPECT_ERR(ncsim_mesh_coordinate_i(4, 3, 2, 18, 3, E),
	           "mesh/torus coordinate must be 0, 1, or 2 (for x, y, or z, respectively)");
	EXPECT_ERR(ncsim_mesh_coordinate_i(4, 3, 2, 99, -1, E), "mesh/torus coordinate must be 0, 1, or 2");
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, 0, 5, 17, E), 1);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, 0, 1, 16, E), 3);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, 0, 14, 8, E), 5);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, 0, 0, 23, E), 6);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, 0, 23, 24, E), -1);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, T_ALL, 14, 8, E), 4);
	EXPECT_I(ncsim_mesh_distance_i(4, 3, 2, T_ALL, 0, 23, E), 3);
}

/* The +x+y+z neighbour tables of tests/userfunc_topologies.c (dims 4,3,2). */
static void test_mesh_neighbor_tables(void)
{
	static const int64_t mesh[24] = { 17, 18, 19, -1, 21, 22, 23, -1, -1, -1, -1, -1,
	                                  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	static const int64_t torus[24] = { 17, 18, 19, 16, 21, 22, 23, 20, 13, 14, 15, 12,
	                                   5,  6,  7,  4,  9,  10, 11, 8,  1,  2,  3,  0 };
	static const int64_t ywrap[24] = { 17, 18, 19, -1, 21, 22, 23, -1, 13, 14, 15, -1,
	                                   -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };

	for (int64_t t = 0; t < 24; t++) {
		EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, 0, t, 1, 1, 1, E), mesh[t]);
		EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, T_ALL, t, 1, 1, 1, E), torus[t]);
		EXPECT_I(ncsim_mesh_neighbor_i(4, 3, 2, T_Y, t, 1, 1, 1, E), ywrap[t]);
	}
}

/* regresstest.ncptl: every one of these is asserted true there. */
static void test_mesh_regresstest(void)
{
	EXPECT_I(ncsim_mesh_neighbor_i(8, 1, 1, 0, 4, 5, 0, 0, E), -1);
	EXPECT_I(ncsim_mesh_neighbor_i(8, 1, 1, T_X, 4, 5, 0, 0, E), 1);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 4, 2, 0, 0, 2, 1, 1, E), 22);
	EXPECT_I(ncsim_mesh_neighbor_i(4, 4, 1, T_X | T_Y, 0, 3, -3, 0, E), 7);
	EXPECT_I(ncsim_mesh_coordinate_i(4, 4, 1, 14, 1, E), 3);
	EXPECT_I(ncsim_mesh_distance_i(8, 1, 1, T_X, 1, 6, E), 3);
	EXPECT_I(ncsim_mesh_distance_i(4, 4, 2, 0, 1, 30, E), 5);
	EXPECT_I(ncsim_mesh_distance_i(4, 4, 2, T_ALL, 1, 30, E), 3);
}

static void test_mesh_errors(void)
{
	EXPECT_ERR(ncsim_mesh_neighbor_i(4, 0, 1, 0, 0, 1, 0, 0, E),
	           "neighbor calculations can't be performed on a zero-sized mesh/torus");
	EXPECT_ERR(ncsim_mesh_distance_i(0, 3, 1, 0, 0, 1, E), "zero-sized mesh/torus");
	EXPECT_ERR(ncsim_mesh_coordinate_i(4, -3, 1, 0, 0, E), "meshes/tori may not have negative dimensions");
	EXPECT_ERR(ncsim_mesh_neighbor_i(INT64_C(1) << 40, INT64_C(1) << 40, 1, 0, 0, 1, 0, 0, E),
	           "is too large");
	EXPECT_F(ncsim_mesh_neighbor_f(4.0, 3.0, 1.0, T_X, 5.0, -2.0, 0.0, 0.0, E), 7.0, 0.0);
	EXPECT_F(ncsim_mesh_coordinate_f(4.0, 3.0, 2.0, 18.0, 2.0, E), 1.0, 0.0);
	EXPECT_F(ncsim_mesh_distance_f(4.0, 3.0, 2.0, T_ALL, 0.0, 23.0, E), 3.0, 0.0);
	EXPECT_ERR(ncsim_mesh_distance_f(4.0, NAN, 2.0, 0, 0.0, 23.0, E), "numeric operation");
}

int main(void)
{
	static const ut_test tests[] = {
		{ "TREE_PARENT", test_tree_parent },
		{ "TREE_CHILD", test_tree_child },
		{ "2-nomial", test_knomial_2 },
		{ "3-nomial", test_knomial_3 },
		{ "k-nomial edges", test_knomial_edges },
		{ "k-nomial consistency", test_knomial_consistency },
		{ "mesh 1-D", test_mesh_1d },
		{ "mesh 2-D", test_mesh_2d },
		{ "mesh 3-D", test_mesh_3d },
		{ "mesh +x+y+z tables", test_mesh_neighbor_tables },
		{ "mesh regresstest", test_mesh_regresstest },
		{ "mesh errors", test_mesh_errors },
		{ NULL, NULL },
	};
	return ut_run("stdlib topologies", tests);
}

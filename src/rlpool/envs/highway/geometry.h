// Geometry helpers of the highway family: 2-D vectors and the geometric part of highway-env's utils.py
// (wrap_to_pi, lmap, not_zero, do_every, constrain, rectangles/ellipses, polygon intersection by the
// separating axis theorem, ray/rectangle distance, near_split).
//
// Follows highway_env/utils.py (highway-env 1.12.1). All arithmetic is double and follows the Python
// expression order; `%` on floats is Python's floored modulo (py_mod).
//
// numpy hands 2-vector dot products, norms and 2x2 matrix products to OpenBLAS, whose kernels on every
// x86-64 CPU with FMA (Haswell and later) round them with a fused multiply-add. To reproduce highway-env
// bit for bit, dot/norm/matvec below use std::fma in the kernels' order (measured against numpy 2.4 with
// scipy-openblas 0.3.31: np.dot(a, b) == fma(a[1], b[1], a[0]*b[0]), np.linalg.norm(a) ==
// sqrt(fma(a[1], a[1], a[0]*a[0])), (M @ v)[i] == fma(M[i][0], v[0], M[i][1]*v[1]) for a 2x2 M and a
// 2-vector v, in 20,000 random cases each). Elementwise numpy arithmetic (+, -, *, /, np.sqrt(x**2 + y**2),
// np.sum of two values) is plain IEEE and is written out as such. Code porting numpy's np.dot / `@` /
// np.linalg.norm on 2-vectors should call these helpers.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace rlpool::highway {

using Vec2 = std::array<double, 2>;
// A polygon as a list of points (a vehicle's polygon repeats its first corner at the end, as in Python).
using Polygon = std::vector<Vec2>;

inline Vec2 operator+(const Vec2& a, const Vec2& b) { return {a[0] + b[0], a[1] + b[1]}; }
inline Vec2 operator-(const Vec2& a, const Vec2& b) { return {a[0] - b[0], a[1] - b[1]}; }
inline Vec2 operator-(const Vec2& a) { return {-a[0], -a[1]}; }
inline Vec2 operator*(double k, const Vec2& a) { return {k * a[0], k * a[1]}; }
inline Vec2 operator*(const Vec2& a, double k) { return {a[0] * k, a[1] * k}; }
inline Vec2 operator/(const Vec2& a, double k) { return {a[0] / k, a[1] / k}; }
inline Vec2& operator+=(Vec2& a, const Vec2& b) { a[0] += b[0]; a[1] += b[1]; return a; }
inline Vec2& operator-=(Vec2& a, const Vec2& b) { a[0] -= b[0]; a[1] -= b[1]; return a; }
// np.dot(a, b) / a @ b for two 2-vectors (OpenBLAS ddot).
inline double dot(const Vec2& a, const Vec2& b) { return std::fma(a[1], b[1], a[0] * b[0]); }
// np.linalg.norm(a) for a 2-vector (sqrt of a.dot(a)).
inline double norm(const Vec2& a) { return std::sqrt(std::fma(a[1], a[1], a[0] * a[0])); }
// A 2x2 matrix, row-major: m[row][col].
using Mat2 = std::array<std::array<double, 2>, 2>;
// m @ v or m.dot(v) for a 2x2 matrix and a 2-vector (OpenBLAS dgemv).
inline Vec2 matvec(const Mat2& m, const Vec2& v) {
  return {std::fma(m[0][0], v[0], m[0][1] * v[1]), std::fma(m[1][0], v[0], m[1][1] * v[1])};
}
// Column j of m @ P for a 2x2 matrix and a 2xN matrix P whose column j is p (OpenBLAS dgemm; note the other
// operand order than matvec).
inline Vec2 matmul_column(const Mat2& m, const Vec2& p) {
  return {std::fma(m[0][1], p[1], m[0][0] * p[0]), std::fma(m[1][1], p[1], m[1][0] * p[0])};
}

// Python's float `%` (floored modulo; numpy's np.remainder for float64).
double py_mod(double a, double b);

// utils.do_every: duration < timer.
bool do_every(double duration, double timer);
// utils.lmap: linear map of v from range x to range y.
double lmap(double v, const std::array<double, 2>& x, const std::array<double, 2>& y);
// utils.constrain = np.clip(x, a, b) (NaN propagates).
double constrain(double x, double a, double b);
// utils.not_zero.
double not_zero(double x, double eps = 1e-2);
// utils.wrap_to_pi: ((x + pi) % (2 pi)) - pi with Python's modulo.
double wrap_to_pi(double x);

// utils.point_in_rectangle: rect_min <= point <= rect_max on both axes.
bool point_in_rectangle(const Vec2& point, const Vec2& rect_min, const Vec2& rect_max);
// utils.point_in_rotated_rectangle.
bool point_in_rotated_rectangle(const Vec2& point, const Vec2& center, double length, double width,
                                double angle);
// utils.point_in_ellipse.
bool point_in_ellipse(const Vec2& point, const Vec2& center, double angle, double length, double width);

// A rotated rectangle (center, length, width, angle) as utils.py passes it around.
struct RotatedRect {
  Vec2 center{0.0, 0.0};
  double length = 0.0;
  double width = 0.0;
  double angle = 0.0;
};
// utils.rotated_rectangles_intersect.
bool rotated_rectangles_intersect(const RotatedRect& rect1, const RotatedRect& rect2);
// utils.rect_corners: the 4 corners (-l-w, -l+w, +l+w, +l-w), then the center if include_center, then the
// edge midpoints (-l, +l, -w, +w) if include_midpoints, rotated by angle and moved to center.
std::vector<Vec2> rect_corners(const Vec2& center, double length, double width, double angle,
                               bool include_midpoints = false, bool include_center = false);
// utils.has_corner_inside: does rect1 have a corner (or midpoint, or its center) inside rect2?
bool has_corner_inside(const RotatedRect& rect1, const RotatedRect& rect2);

// utils.project_polygon: (min, max) of the points' projections on axis.
std::pair<double, double> project_polygon(const Polygon& polygon, const Vec2& axis);
// utils.interval_distance: distance between [min_a, max_a] and [min_b, max_b] (negative if they overlap).
double interval_distance(double min_a, double max_a, double min_b, double max_b);

struct PolygonIntersection {
  bool intersecting = true;
  bool will_intersect = true;
  std::optional<Vec2> translation;  // Python's None when will_intersect is false
};
// utils.are_polygons_intersecting (separating axis theorem with displacements). As in Python, the early
// `break` only leaves the edge loop of the current polygon, and the center difference uses all points but
// the last of each polygon.
PolygonIntersection are_polygons_intersecting(const Polygon& a, const Polygon& b, const Vec2& displacement_a,
                                              const Vec2& displacement_b);

// utils.solve_trinom: the two roots of a x^2 + b x + c, or nullopt (Python's (None, None)) if delta < 0.
std::optional<std::pair<double, double>> solve_trinom(double a, double b, double c);
// utils.distance_to_rect: distance from line[0] to the intersection of segment line[0]->line[1] with the
// rectangle rect = [A, B, C, D], or +inf.
double distance_to_rect(const std::array<Vec2, 2>& line, const std::array<Vec2, 4>& rect);

// utils.near_split with num_bins (num_bins > 0).
std::vector<int> near_split(int x, int num_bins);
// utils.near_split with size_bins (num_bins = ceil(x / size_bins)).
std::vector<int> near_split_size(int x, double size_bins);

}  // namespace rlpool::highway

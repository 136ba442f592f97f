// Geometry helpers of the highway family (see geometry.h). Follows highway_env/utils.py (highway-env 1.12.1).
#include "envs/highway/geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace rlpool::highway {

double py_mod(double a, double b) {
  // CPython's float_rem / numpy's npy_divmod.
  double mod = std::fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

bool do_every(double duration, double timer) { return duration < timer; }

double lmap(double v, const std::array<double, 2>& x, const std::array<double, 2>& y) {
  return y[0] + (v - x[0]) * (y[1] - y[0]) / (x[1] - x[0]);
}

double constrain(double x, double a, double b) {
  if (std::isnan(x)) return x;
  return std::min(std::max(x, a), b);
}

double not_zero(double x, double eps) {
  if (std::abs(x) > eps) return x;
  if (x >= 0) return eps;
  return -eps;
}

double wrap_to_pi(double x) {
  return py_mod(x + std::numbers::pi, 2 * std::numbers::pi) - std::numbers::pi;
}

bool point_in_rectangle(const Vec2& point, const Vec2& rect_min, const Vec2& rect_max) {
  return rect_min[0] <= point[0] && point[0] <= rect_max[0] && rect_min[1] <= point[1] && point[1] <= rect_max[1];
}

bool point_in_rotated_rectangle(const Vec2& point, const Vec2& center, double length, double width,
                                double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  const Mat2 r{{{c, -s}, {s, c}}};
  const Vec2 ru = matvec(r, point - center);
  return point_in_rectangle(ru, {-length / 2, -width / 2}, {length / 2, width / 2});
}

bool point_in_ellipse(const Vec2& point, const Vec2& center, double angle, double length, double width) {
  const double c = std::cos(angle), s = std::sin(angle);
  const Mat2 r{{{c, -s}, {s, c}}};
  const Vec2 ru = matvec(r, point - center);
  const double a = ru[0] / length, b = ru[1] / width;
  return a * a + b * b < 1;
}

bool rotated_rectangles_intersect(const RotatedRect& rect1, const RotatedRect& rect2) {
  return has_corner_inside(rect1, rect2) || has_corner_inside(rect2, rect1);
}

std::vector<Vec2> rect_corners(const Vec2& center, double length, double width, double angle,
                               bool include_midpoints, bool include_center) {
  const Vec2 half_l{length / 2, 0.0};
  const Vec2 half_w{0.0, width / 2};
  std::vector<Vec2> corners{-half_l - half_w, -half_l + half_w, half_l + half_w, half_l - half_w};
  if (include_center) corners.push_back({0.0, 0.0});
  if (include_midpoints) {
    corners.push_back(-half_l);
    corners.push_back(half_l);
    corners.push_back(-half_w);
    corners.push_back(half_w);
  }
  const double c = std::cos(angle), s = std::sin(angle);
  const Mat2 rotation{{{c, -s}, {s, c}}};
  std::vector<Vec2> out;
  out.reserve(corners.size());
  for (const Vec2& p : corners) out.push_back(matmul_column(rotation, p) + center);
  return out;
}

bool has_corner_inside(const RotatedRect& rect1, const RotatedRect& rect2) {
  for (const Vec2& p1 : rect_corners(rect1.center, rect1.length, rect1.width, rect1.angle, true, true))
    if (point_in_rotated_rectangle(p1, rect2.center, rect2.length, rect2.width, rect2.angle)) return true;
  return false;
}

std::pair<double, double> project_polygon(const Polygon& polygon, const Vec2& axis) {
  bool first = true;
  double min_p = 0.0, max_p = 0.0;
  for (const Vec2& p : polygon) {
    const double projected = dot(p, axis);
    if (first || projected < min_p) min_p = projected;
    if (first || projected > max_p) max_p = projected;
    first = false;
  }
  return {min_p, max_p};
}

double interval_distance(double min_a, double max_a, double min_b, double max_b) {
  return min_a < min_b ? min_b - max_a : min_a - max_b;
}

namespace {
// polygon[:-1].mean(axis=0): sequential sum of the rows, divided by their count.
Vec2 mean_but_last(const Polygon& polygon) {
  Vec2 sum{0.0, 0.0};
  const std::size_t n = polygon.empty() ? 0 : polygon.size() - 1;
  for (std::size_t i = 0; i < n; ++i) sum += polygon[i];
  return sum / static_cast<double>(n);
}
}  // namespace

PolygonIntersection are_polygons_intersecting(const Polygon& a, const Polygon& b, const Vec2& displacement_a,
                                              const Vec2& displacement_b) {
  PolygonIntersection out;
  double min_distance = std::numeric_limits<double>::infinity();
  std::optional<Vec2> translation_axis;
  for (const Polygon* polygon : {&a, &b}) {
    for (std::size_t i = 0; i + 1 < polygon->size(); ++i) {
      const Vec2& p1 = (*polygon)[i];
      const Vec2& p2 = (*polygon)[i + 1];
      Vec2 normal{-p2[1] + p1[1], p2[0] - p1[0]};
      normal = normal / norm(normal);
      auto [min_a, max_a] = project_polygon(a, normal);
      const auto [min_b, max_b] = project_polygon(b, normal);

      if (interval_distance(min_a, max_a, min_b, max_b) > 0) out.intersecting = false;

      const double velocity_projection = dot(normal, displacement_a - displacement_b);
      if (velocity_projection < 0)
        min_a += velocity_projection;
      else
        max_a += velocity_projection;

      const double distance = interval_distance(min_a, max_a, min_b, max_b);
      if (distance > 0) out.will_intersect = false;
      if (!out.intersecting && !out.will_intersect) break;
      if (std::abs(distance) < min_distance) {
        min_distance = std::abs(distance);
        const Vec2 d = mean_but_last(a) - mean_but_last(b);
        translation_axis = dot(d, normal) > 0 ? normal : -normal;
      }
    }
  }
  if (out.will_intersect) {
    if (!translation_axis) throw std::runtime_error("highway: are_polygons_intersecting found no axis");
    out.translation = min_distance * *translation_axis;
  }
  return out;
}

std::optional<std::pair<double, double>> solve_trinom(double a, double b, double c) {
  const double delta = b * b - 4 * a * c;
  if (delta >= 0) return std::pair{(-b - std::sqrt(delta)) / (2 * a), (-b + std::sqrt(delta)) / (2 * a)};
  return std::nullopt;
}

double distance_to_rect(const std::array<Vec2, 2>& line, const std::array<Vec2, 4>& rect) {
  const Vec2& r = line[0];
  const Vec2& q = line[1];
  const Vec2& a = rect[0];
  const Vec2& b = rect[1];
  const Vec2& d = rect[3];
  Vec2 u = b - a;
  Vec2 v = d - a;
  u = u / norm(u);
  v = v / norm(v);
  const double rqu = dot(q - r, u);
  const double rqv = dot(q - r, v);
  std::array<double, 2> interval_1{dot(a - r, u) / rqu, dot(b - r, u) / rqu};
  std::array<double, 2> interval_2{dot(a - r, v) / rqv, dot(d - r, v) / rqv};
  if (!(rqu >= 0)) std::swap(interval_1[0], interval_1[1]);
  if (!(rqv >= 0)) std::swap(interval_2[0], interval_2[1]);
  if (interval_distance(interval_1[0], interval_1[1], interval_2[0], interval_2[1]) <= 0 &&
      interval_distance(0, 1, interval_1[0], interval_1[1]) <= 0 &&
      interval_distance(0, 1, interval_2[0], interval_2[1]) <= 0) {
    // Python's max(x, y) returns x unless y > x (NaN-aware as Python's builtin).
    const double m = interval_2[0] > interval_1[0] ? interval_2[0] : interval_1[0];
    return m * norm(q - r);
  }
  return std::numeric_limits<double>::infinity();
}

std::vector<int> near_split(int x, int num_bins) {
  if (num_bins <= 0) throw std::invalid_argument("highway: near_split needs num_bins > 0");
  int quotient = x / num_bins, remainder = x % num_bins;
  if (remainder != 0 && ((remainder < 0) != (num_bins < 0))) {
    remainder += num_bins;
    quotient -= 1;
  }
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(num_bins));
  for (int i = 0; i < remainder; ++i) out.push_back(quotient + 1);
  for (int i = 0; i < num_bins - remainder; ++i) out.push_back(quotient);
  return out;
}

std::vector<int> near_split_size(int x, double size_bins) {
  return near_split(x, static_cast<int>(std::ceil(x / size_bins)));
}

}  // namespace rlpool::highway

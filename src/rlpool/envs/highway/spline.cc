// LinearSpline2D and numpy_interp1d of the highway family (see spline.h).
// Follows highway_env/road/spline.py (highway-env 1.12.1); np.interp follows numpy's arr_interp.
#include "envs/highway/spline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlpool::highway {

Interp1d::Interp1d(std::vector<double> x, std::vector<double> y) : x_(std::move(x)), y_(std::move(y)) {
  if (x_.size() < 2 || x_.size() != y_.size())
    throw std::invalid_argument("highway: numpy_interp1d needs at least 2 points of equal counts");
}

double Interp1d::operator()(double x_new) const {
  const std::size_t n = x_.size();
  if (std::isnan(x_new)) return x_new;
  if (x_new < x_[0]) {
    const double slope = (y_[1] - y_[0]) / (x_[1] - x_[0]);
    return y_[0] + slope * (x_new - x_[0]);
  }
  if (x_new > x_[n - 1]) {
    const double slope = (y_[n - 1] - y_[n - 2]) / (x_[n - 1] - x_[n - 2]);
    return y_[n - 1] + slope * (x_new - x_[n - 1]);
  }
  // np.interp: j with x[j] <= x_new < x[j + 1] (j = n - 1 when x_new == x[-1]).
  const std::size_t j =
      static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), x_new) - x_.begin()) - 1;
  if (j == n - 1) return y_[j];
  if (x_[j] == x_new) return y_[j];
  const double slope = (y_[j + 1] - y_[j]) / (x_[j + 1] - x_[j]);
  double result = slope * (x_new - x_[j]) + y_[j];
  if (std::isnan(result)) {
    result = slope * (x_new - x_[j + 1]) + y_[j + 1];
    if (std::isnan(result) && y_[j] == y_[j + 1]) result = y_[j];
  }
  return result;
}

CurvePose::CurvePose(double x, double y, double dx, double dy)
    : length(std::sqrt(dx * dx + dy * dy)),
      position{x, y},
      normal{dx / length, dy / length},
      orthonormal{-normal[1], normal[0]} {}

double CurvePose::distance_to_origin(const Vec2& point) const {
  const Vec2 d = position - point;
  return std::sqrt(d[0] * d[0] + d[1] * d[1]);
}

double CurvePose::project_onto_normal(const Vec2& point) const { return dot(normal, point - position); }

double CurvePose::project_onto_orthonormal(const Vec2& point) const { return dot(orthonormal, point - position); }

LinearSpline2D::LinearSpline2D(const std::vector<Vec2>& points_in) : points(points_in) {
  const std::size_t n = points.size();
  if (n < 2) throw std::invalid_argument("highway: LinearSpline2D needs at least 2 points");
  std::vector<double> x_values(n), y_values(n), x_diff(n), y_diff(n), arc(n);
  for (std::size_t i = 0; i < n; ++i) {
    x_values[i] = points[i][0];
    y_values[i] = points[i][1];
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    x_diff[i] = x_values[i + 1] - x_values[i];
    y_diff[i] = y_values[i + 1] - y_values[i];
  }
  x_diff[n - 1] = x_diff[n - 2];
  y_diff[n - 1] = y_diff[n - 2];
  arc[0] = 0.0;
  double cumulated = 0.0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    cumulated += std::sqrt(x_diff[i] * x_diff[i] + y_diff[i] * y_diff[i]);
    arc[i + 1] = cumulated;
  }
  length = arc[n - 1];
  x_curve_ = Interp1d(arc, x_values);
  y_curve_ = Interp1d(arc, y_values);
  dx_curve_ = Interp1d(arc, x_diff);
  dy_curve_ = Interp1d(arc, y_diff);

  // sample_curve
  const double num_samples = std::floor(length / PARAM_CURVE_SAMPLE_DISTANCE);
  const auto count = static_cast<std::size_t>(static_cast<long long>(num_samples) + 1);
  s_samples.resize(count);
  std::vector<double> xs(count), ys(count);
  for (std::size_t i = 0; i < count; ++i) {
    s_samples[i] = static_cast<double>(PARAM_CURVE_SAMPLE_DISTANCE * static_cast<long long>(i));
    xs[i] = x_curve_(s_samples[i]);
    ys[i] = y_curve_(s_samples[i]);
  }
  if (count < 2) throw std::invalid_argument("highway: LinearSpline2D shorter than one sample distance");
  std::vector<double> dxs(count), dys(count);
  for (std::size_t i = 0; i + 1 < count; ++i) {
    dxs[i] = xs[i + 1] - xs[i];
    dys[i] = ys[i + 1] - ys[i];
  }
  dxs[count - 1] = dxs[count - 2];
  dys[count - 1] = dys[count - 2];
  poses.reserve(count);
  for (std::size_t i = 0; i < count; ++i) poses.emplace_back(xs[i], ys[i], dxs[i], dys[i]);
}

Vec2 LinearSpline2D::operator()(double lon) const { return {x_curve_(lon), y_curve_(lon)}; }

Vec2 LinearSpline2D::get_dx_dy(double lon) const { return poses[get_idx_segment_for_lon(lon)].normal; }

std::pair<double, double> LinearSpline2D::cartesian_to_frenet(const Vec2& position) const {
  const CurvePose& last = poses.back();
  const double projection = last.project_onto_normal(position);
  if (projection >= 0) return {s_samples.back() + projection, last.project_onto_orthonormal(position)};
  for (std::size_t idx = s_samples.size() - 2; idx >= 1; --idx) {
    const CurvePose& pose = poses[idx];
    const double p = pose.project_onto_normal(position);
    if (p >= 0) return {s_samples[idx] + p, pose.project_onto_orthonormal(position)};
  }
  const CurvePose& first = poses.front();
  return {first.project_onto_normal(position), first.project_onto_orthonormal(position)};
}

Vec2 LinearSpline2D::frenet_to_cartesian(double lon, double lat) const {
  const std::size_t idx = get_idx_segment_for_lon(lon);
  const double s = lon - s_samples[idx];
  const CurvePose& pose = poses[idx];
  Vec2 point = pose.position + s * pose.normal;
  point += lat * pose.orthonormal;
  return point;
}

std::size_t LinearSpline2D::get_idx_segment_for_lon(double lon) const {
  for (std::size_t i = 0; i < s_samples.size(); ++i) {
    if (lon < s_samples[i]) return i == 0 ? 0 : i - 1;
  }
  return s_samples.size() - 1;
}

}  // namespace rlpool::highway

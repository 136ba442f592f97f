// LinearSpline2D: a piece-wise linear curve through a list of points, sampled every metre, with Frenet
// (longitudinal, lateral) <-> Cartesian conversions; the geometry of PolyLane/PolyLaneFixedWidth.
//
// Follows highway_env/road/spline.py (highway-env 1.12.1), including numpy_interp1d (np.interp with linear
// extrapolation on both sides) and CurvePose.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "envs/highway/geometry.h"

namespace rlpool::highway {

// spline.numpy_interp1d(x, y): np.interp(x_new, x, y) inside [x[0], x[-1]], linear extrapolation with the
// first/last segment's slope outside. x must be non-decreasing with at least 2 points.
class Interp1d {
 public:
  Interp1d() = default;
  Interp1d(std::vector<double> x, std::vector<double> y);
  double operator()(double x_new) const;
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }

 private:
  std::vector<double> x_;
  std::vector<double> y_;
};

// spline.CurvePose: a sample pose on the curve.
struct CurvePose {
  CurvePose(double x, double y, double dx, double dy);
  double length;     // sqrt(dx^2 + dy^2)
  Vec2 position;     // (x, y)
  Vec2 normal;       // (dx, dy) / length
  Vec2 orthonormal;  // (-normal[1], normal[0])
  double distance_to_origin(const Vec2& point) const;
  double project_onto_normal(const Vec2& point) const;
  double project_onto_orthonormal(const Vec2& point) const;
};

class LinearSpline2D {
 public:
  static constexpr int PARAM_CURVE_SAMPLE_DISTANCE = 1;  // curve samples are placed 1m apart

  explicit LinearSpline2D(const std::vector<Vec2>& points);

  // __call__: (x_curve(lon), y_curve(lon)).
  Vec2 operator()(double lon) const;
  // The pose normal (dx, dy) of the segment holding lon.
  Vec2 get_dx_dy(double lon) const;
  std::pair<double, double> cartesian_to_frenet(const Vec2& position) const;
  Vec2 frenet_to_cartesian(double lon, double lat) const;
  // _get_idx_segment_for_lon.
  std::size_t get_idx_segment_for_lon(double lon) const;

  double x_curve(double s) const { return x_curve_(s); }
  double y_curve(double s) const { return y_curve_(s); }
  double dx_curve(double s) const { return dx_curve_(s); }
  double dy_curve(double s) const { return dy_curve_(s); }

  double length = 0.0;
  std::vector<double> s_samples;  // 0, 1, ..., floor(length)
  std::vector<CurvePose> poses;   // one per sample
  std::vector<Vec2> points;       // the input points (Python keeps them only inside the interpolators)

 private:
  Interp1d x_curve_, y_curve_, dx_curve_, dy_curve_;
};

}  // namespace rlpool::highway

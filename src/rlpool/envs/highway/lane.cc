// Lanes of the highway family (see lane.h). Follows highway_env/road/lane.py (highway-env 1.12.1).
#include "envs/highway/lane.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <tuple>

namespace rlpool::highway {

namespace {
LineTypes default_line_types(const std::optional<LineTypes>& line_types) {
  return line_types.value_or(LineTypes{LineType::STRIPED, LineType::STRIPED});
}
}  // namespace

// ---------------------------------------------------------------- AbstractLane

bool AbstractLane::on_lane(const Vec2& position, std::optional<double> longitudinal, std::optional<double> lateral,
                           double margin) const {
  if (!longitudinal || !lateral) {
    const auto [s, r] = local_coordinates(position);
    return on_lane_at(s, r, margin);
  }
  return on_lane_at(*longitudinal, *lateral, margin);
}

bool AbstractLane::is_reachable_from(const Vec2& position) const {
  if (forbidden) return false;
  const auto [s, r] = local_coordinates(position);
  return std::abs(r) <= 2 * width_at(s) && 0 <= s && s < length + VEHICLE_LENGTH;
}

bool AbstractLane::after_end(const Vec2& position, std::optional<double> longitudinal,
                             std::optional<double> /*lateral*/) const {
  double s;
  if (!longitudinal || *longitudinal == 0.0) {
    s = local_coordinates(position).first;
  } else {
    s = *longitudinal;
  }
  return s > length - VEHICLE_LENGTH / 2;
}

double AbstractLane::distance(const Vec2& position) const {
  const auto [s, r] = local_coordinates(position);
  // Python's max(x, 0): x unless 0 > x.
  const double after = 0 > s - length ? 0.0 : s - length;
  const double before = 0 > 0 - s ? 0.0 : 0 - s;
  return std::abs(r) + after + before;
}

double AbstractLane::distance_with_heading(const Vec2& position, std::optional<double> heading,
                                           double heading_weight) const {
  if (!heading) return distance(position);
  const auto [s, r] = local_coordinates(position);
  const double angle = std::abs(local_angle(*heading, s));
  const double after = 0 > s - length ? 0.0 : s - length;
  const double before = 0 > 0 - s ? 0.0 : 0 - s;
  return std::abs(r) + after + before + heading_weight * angle;
}

double AbstractLane::local_angle(double heading, double long_offset) const {
  return wrap_to_pi(heading - heading_at(long_offset));
}

// ---------------------------------------------------------------- StraightLane

StraightLane::StraightLane(const Vec2& start_, const Vec2& end_, double width_,
                           std::optional<LineTypes> line_types_, bool forbidden_,
                           std::optional<double> speed_limit_, int priority_)
    : start(start_), end(end_) {
  width = width_;
  heading = std::atan2(end[1] - start[1], end[0] - start[0]);
  length = norm(end - start);
  line_types = default_line_types(line_types_);
  direction = (end - start) / length;
  direction_lateral = {-direction[1], direction[0]};
  forbidden = forbidden_;
  priority = priority_;
  speed_limit = speed_limit_;
}

Vec2 StraightLane::position(double longitudinal, double lateral) const {
  return start + longitudinal * direction + lateral * direction_lateral;
}

double StraightLane::heading_at(double /*longitudinal*/) const { return heading; }

double StraightLane::width_at(double /*longitudinal*/) const { return width; }

std::pair<double, double> StraightLane::local_coordinates(const Vec2& position) const {
  const Vec2 delta = position - start;
  return {dot(delta, direction), dot(delta, direction_lateral)};
}

// ---------------------------------------------------------------- SineLane

SineLane::SineLane(const Vec2& start_, const Vec2& end_, double amplitude_, double pulsation_, double phase_,
                   double width_, std::optional<LineTypes> line_types_, bool forbidden_,
                   std::optional<double> speed_limit_, int priority_)
    : StraightLane(start_, end_, width_, line_types_, forbidden_, speed_limit_, priority_),
      amplitude(amplitude_),
      pulsation(pulsation_),
      phase(phase_) {}

Vec2 SineLane::position(double longitudinal, double lateral) const {
  return StraightLane::position(longitudinal, lateral + amplitude * std::sin(pulsation * longitudinal + phase));
}

double SineLane::heading_at(double longitudinal) const {
  return StraightLane::heading_at(longitudinal) +
         std::atan(amplitude * pulsation * std::cos(pulsation * longitudinal + phase));
}

std::pair<double, double> SineLane::local_coordinates(const Vec2& position) const {
  const auto [longitudinal, lateral] = StraightLane::local_coordinates(position);
  return {longitudinal, lateral - amplitude * std::sin(pulsation * longitudinal + phase)};
}

// ---------------------------------------------------------------- CircularLane

CircularLane::CircularLane(const Vec2& center_, double radius_, double start_phase_, double end_phase_,
                           bool clockwise_, double width_, std::optional<LineTypes> line_types_,
                           bool forbidden_, std::optional<double> speed_limit_, int priority_)
    : center(center_),
      radius(radius_),
      start_phase(start_phase_),
      end_phase(end_phase_),
      clockwise(clockwise_),
      direction(clockwise_ ? 1 : -1) {
  width = width_;
  line_types = default_line_types(line_types_);
  forbidden = forbidden_;
  length = radius * (end_phase - start_phase) * direction;
  priority = priority_;
  speed_limit = speed_limit_;
}

Vec2 CircularLane::position(double longitudinal, double lateral) const {
  const double phi = direction * longitudinal / radius + start_phase;
  const double k = radius - lateral * direction;
  return center + Vec2{k * std::cos(phi), k * std::sin(phi)};
}

double CircularLane::heading_at(double longitudinal) const {
  const double phi = direction * longitudinal / radius + start_phase;
  return phi + std::numbers::pi / 2 * direction;
}

double CircularLane::width_at(double /*longitudinal*/) const { return width; }

double CircularLane::distance_lower_bound(const Vec2& position) const {
  // The same operations as local_coordinates' lateral; distance adds non-negative terms to its |lateral|.
  const Vec2 delta = position - center;
  const double r = norm(delta);
  return std::abs(direction * (radius - r));
}

std::pair<double, double> CircularLane::local_coordinates(const Vec2& position) const {
  const Vec2 delta = position - center;
  double phi = std::atan2(delta[1], delta[0]);
  phi = start_phase + wrap_to_pi(phi - start_phase);
  const double r = norm(delta);
  const double longitudinal = direction * (phi - start_phase) * radius;
  const double lateral = direction * (radius - r);
  return {longitudinal, lateral};
}

// ---------------------------------------------------------------- PolyLaneFixedWidth

PolyLaneFixedWidth::PolyLaneFixedWidth(const std::vector<Vec2>& lane_points, double width_,
                                       std::optional<LineTypes> line_types_, bool forbidden_,
                                       std::optional<double> speed_limit_, int priority_)
    : curve(lane_points) {
  length = curve.length;
  width = width_;
  line_types = default_line_types(line_types_);
  forbidden = forbidden_;
  speed_limit = speed_limit_;
  priority = priority_;
}

Vec2 PolyLaneFixedWidth::position(double longitudinal, double lateral) const {
  const Vec2 xy = curve(longitudinal);
  const double yaw = heading_at(longitudinal);
  return {xy[0] - std::sin(yaw) * lateral, xy[1] + std::cos(yaw) * lateral};
}

std::pair<double, double> PolyLaneFixedWidth::local_coordinates(const Vec2& position) const {
  return curve.cartesian_to_frenet(position);
}

double PolyLaneFixedWidth::heading_at(double longitudinal) const {
  const Vec2 d = curve.get_dx_dy(longitudinal);
  return std::atan2(d[1], d[0]);
}

double PolyLaneFixedWidth::width_at(double /*longitudinal*/) const { return width; }

// ---------------------------------------------------------------- PolyLane

PolyLane::PolyLane(const std::vector<Vec2>& lane_points, const std::vector<Vec2>& left_boundary_points,
                   const std::vector<Vec2>& right_boundary_points, std::optional<LineTypes> line_types_,
                   bool forbidden_, std::optional<double> speed_limit_, int priority_)
    : PolyLaneFixedWidth(lane_points, DEFAULT_WIDTH, line_types_, forbidden_, speed_limit_, priority_),
      right_boundary(right_boundary_points),
      left_boundary(left_boundary_points) {
  // _init_width: np.linspace(0, L, num=int(ceil(L)) + 1).
  const double total = curve.length;
  const auto num = static_cast<std::size_t>(static_cast<long long>(std::ceil(total)) + 1);
  width_samples.reserve(num);
  if (num == 1) {
    width_samples.push_back(width_at_s(0.0));
    return;
  }
  const double step = (total - 0.0) / static_cast<double>(num - 1);
  for (std::size_t i = 0; i < num; ++i) {
    const double s = i + 1 == num ? total : static_cast<double>(i) * step + 0.0;
    width_samples.push_back(width_at_s(s));
  }
}

double PolyLane::width_at(double longitudinal) const {
  if (longitudinal < 0) return width_samples.front();
  if (longitudinal > static_cast<double>(width_samples.size()) - 1) return width_samples.back();
  if (std::isnan(longitudinal)) throw std::invalid_argument("highway: PolyLane.width_at(nan)");  // int(nan)
  return width_samples[static_cast<std::size_t>(static_cast<long long>(longitudinal))];
}

double PolyLane::width_at_s(double longitudinal) const {
  const Vec2 c = position(longitudinal, 0);
  const Vec2 right = right_boundary(right_boundary.cartesian_to_frenet(c).first);
  const Vec2 left = left_boundary(left_boundary.cartesian_to_frenet(c).first);
  const double dist_to_center_right = norm(right - c);
  const double dist_to_center_left = norm(left - c);
  // Python's min(a, b) returns a unless b < a; max(x, y) returns x unless y > x.
  const double m = dist_to_center_left < dist_to_center_right ? dist_to_center_left : dist_to_center_right;
  const double w = m * 2;
  return DEFAULT_WIDTH > w ? DEFAULT_WIDTH : w;
}

}  // namespace rlpool::highway

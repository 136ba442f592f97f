// Lanes of the highway family: the AbstractLane interface (local <-> world coordinates, on_lane,
// is_reachable_from, after_end, distance, distance_with_heading, local_angle) and StraightLane, SineLane,
// CircularLane, PolyLaneFixedWidth, PolyLane; LineType.
//
// Follows highway_env/road/lane.py (highway-env 1.12.1). Python's optional arguments that may be None are
// std::optional (speed_limit: nullopt is Python's None; line_types: nullopt means Python's default
// [STRIPED, STRIPED]). Lane parameters are public members so that rendering and tests can read them.
#pragma once

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "envs/highway/geometry.h"
#include "envs/highway/spline.h"

namespace rlpool::highway {

// lane.LineType: a lane side line type.
enum class LineType : int { NONE = 0, STRIPED = 1, CONTINUOUS = 2, CONTINUOUS_LINE = 3 };
// Line types of the (left, right) sides, as Python's line_types[0], line_types[1].
using LineTypes = std::array<LineType, 2>;

// Which concrete class a lane is (for rendering, tests and serialisation without dynamic_cast).
enum class LaneKind : int { STRAIGHT = 0, SINE = 1, CIRCULAR = 2, POLY_FIXED_WIDTH = 3, POLY = 4 };

class AbstractLane {
 public:
  static constexpr double DEFAULT_WIDTH = 4;
  static constexpr double VEHICLE_LENGTH = 5;

  virtual ~AbstractLane() = default;
  virtual LaneKind kind() const = 0;

  // Local lane coordinates -> world position.
  virtual Vec2 position(double longitudinal, double lateral) const = 0;
  // World position -> (longitudinal, lateral) lane coordinates.
  virtual std::pair<double, double> local_coordinates(const Vec2& position) const = 0;
  virtual double heading_at(double longitudinal) const = 0;
  virtual double width_at(double longitudinal) const = 0;

  // longitudinal/lateral: Python's optional known coordinates (both needed, else recomputed).
  bool on_lane(const Vec2& position, std::optional<double> longitudinal = std::nullopt,
               std::optional<double> lateral = std::nullopt, double margin = 0) const;
  // on_lane with both coordinates known (the hot path of Road.neighbour_vehicles).
  bool on_lane_at(double longitudinal, double lateral, double margin = 0) const {
    return std::abs(lateral) <= width_at(longitudinal) / 2 + margin && -VEHICLE_LENGTH <= longitudinal &&
           longitudinal < length + VEHICLE_LENGTH;
  }
  bool is_reachable_from(const Vec2& position) const;
  // As Python (`if not longitudinal`): a given longitudinal of exactly 0 is recomputed too.
  bool after_end(const Vec2& position, std::optional<double> longitudinal = std::nullopt,
                 std::optional<double> lateral = std::nullopt) const;
  // L1 distance from a position to the lane.
  double distance(const Vec2& position) const;
  // heading nullopt (Python None): distance(position).
  double distance_with_heading(const Vec2& position, std::optional<double> heading,
                               double heading_weight = 1.0) const;
  // wrap_to_pi(heading - heading_at(long_offset)).
  double local_angle(double heading, double long_offset) const;
  // A number never above distance(position) nor distance_with_heading(position, h) for a finite h, as
  // computed (floating point included), cheaper than them: lets the closest-lane search skip far lanes.
  virtual double distance_lower_bound(const Vec2& /*position*/) const { return 0; }

  double length = 0;
  LineTypes line_types{LineType::STRIPED, LineType::STRIPED};
  double width = DEFAULT_WIDTH;
  bool forbidden = false;
  std::optional<double> speed_limit = 20.0;  // nullopt = Python None (no limit)
  int priority = 0;

 protected:
  AbstractLane() = default;
  AbstractLane(const AbstractLane&) = default;
  AbstractLane& operator=(const AbstractLane&) = default;
};

class StraightLane : public AbstractLane {
 public:
  StraightLane(const Vec2& start, const Vec2& end, double width = DEFAULT_WIDTH,
               std::optional<LineTypes> line_types = std::nullopt, bool forbidden = false,
               std::optional<double> speed_limit = 20.0, int priority = 0);
  LaneKind kind() const override { return LaneKind::STRAIGHT; }
  Vec2 position(double longitudinal, double lateral) const override;
  std::pair<double, double> local_coordinates(const Vec2& position) const override;
  double heading_at(double longitudinal) const override;
  double width_at(double longitudinal) const override;

  Vec2 start;
  Vec2 end;
  double heading;            // arctan2(end - start)
  Vec2 direction;            // (end - start) / length
  Vec2 direction_lateral;    // (-direction[1], direction[0])
};

class SineLane : public StraightLane {
 public:
  SineLane(const Vec2& start, const Vec2& end, double amplitude, double pulsation, double phase,
           double width = DEFAULT_WIDTH, std::optional<LineTypes> line_types = std::nullopt,
           bool forbidden = false, std::optional<double> speed_limit = 20.0, int priority = 0);
  LaneKind kind() const override { return LaneKind::SINE; }
  Vec2 position(double longitudinal, double lateral) const override;
  std::pair<double, double> local_coordinates(const Vec2& position) const override;
  double heading_at(double longitudinal) const override;

  double amplitude;
  double pulsation;
  double phase;
};

class CircularLane : public AbstractLane {
 public:
  CircularLane(const Vec2& center, double radius, double start_phase, double end_phase, bool clockwise = true,
               double width = DEFAULT_WIDTH, std::optional<LineTypes> line_types = std::nullopt,
               bool forbidden = false, std::optional<double> speed_limit = 20.0, int priority = 0);
  LaneKind kind() const override { return LaneKind::CIRCULAR; }
  Vec2 position(double longitudinal, double lateral) const override;
  std::pair<double, double> local_coordinates(const Vec2& position) const override;
  double heading_at(double longitudinal) const override;
  double width_at(double longitudinal) const override;
  // |lateral| of local_coordinates, without its atan2.
  double distance_lower_bound(const Vec2& position) const override;

  Vec2 center;
  double radius;
  double start_phase;
  double end_phase;
  bool clockwise;
  int direction;  // 1 if clockwise else -1
};

class PolyLaneFixedWidth : public AbstractLane {
 public:
  // Python leaves line_types None when not given (rendering would fail); here nullopt gives
  // [STRIPED, STRIPED]. No scenario builds poly lanes.
  explicit PolyLaneFixedWidth(const std::vector<Vec2>& lane_points, double width = DEFAULT_WIDTH,
                              std::optional<LineTypes> line_types = std::nullopt, bool forbidden = false,
                              std::optional<double> speed_limit = 20.0, int priority = 0);
  LaneKind kind() const override { return LaneKind::POLY_FIXED_WIDTH; }
  Vec2 position(double longitudinal, double lateral) const override;
  std::pair<double, double> local_coordinates(const Vec2& position) const override;
  double heading_at(double longitudinal) const override;
  double width_at(double longitudinal) const override;

  LinearSpline2D curve;
};

class PolyLane : public PolyLaneFixedWidth {
 public:
  PolyLane(const std::vector<Vec2>& lane_points, const std::vector<Vec2>& left_boundary_points,
           const std::vector<Vec2>& right_boundary_points, std::optional<LineTypes> line_types = std::nullopt,
           bool forbidden = false, std::optional<double> speed_limit = 20.0, int priority = 0);
  LaneKind kind() const override { return LaneKind::POLY; }
  double width_at(double longitudinal) const override;
  // _width_at_s: twice the smaller distance from the centre line to a boundary, at least DEFAULT_WIDTH.
  double width_at_s(double longitudinal) const;

  LinearSpline2D right_boundary;
  LinearSpline2D left_boundary;
  std::vector<double> width_samples;  // _init_width: width_at_s on linspace(0, length, ceil(length) + 1)
};

}  // namespace rlpool::highway

// Objects on the road of the highway family: RoadObject (the common base of everything a Road holds:
// position, heading, speed, closest lane, collisions by the separating axis theorem), Obstacle and Landmark.
// Also ObjectDict, the features a Kinematics observation reads (Python's to_dict).
//
// Follows highway_env/vehicle/objects.py (highway-env 1.12.1). Python's class attributes that a scenario
// changes per instance (LENGTH, WIDTH) are the instance members `length` and `width`; the class constants
// keep their names (RoadObject::LENGTH, Vehicle::LENGTH). Python's `isinstance` is `is_a(KIND_...)` (a
// virtual kinds() bit mask per class, much cheaper than dynamic_cast, which still works too).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "envs/highway/geometry.h"
#include "envs/highway/lane.h"
#include "envs/highway/road_network.h"

namespace rlpool::highway {

class Road;

// numpy's products as numpy/OpenBLAS rounds them (fused multiply-adds in the kernels' order): np.dot of two
// 3-vectors here; the 2-vector ones are geometry.h's dot/norm/matvec/matmul_column, also under the np_*
// names below.
inline double dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::fma(a[2], b[2], std::fma(a[1], b[1], a[0] * b[0]));
}
inline double np_dot(const Vec2& a, const Vec2& b) { return dot(a, b); }
inline double np_dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) { return dot3(a, b); }
inline double np_norm(const Vec2& a) { return norm(a); }
inline Vec2 np_matvec(const Mat2& m, const Vec2& v) { return matvec(m, v); }
inline Vec2 np_matmul_column(const Mat2& m, const Vec2& p) { return matmul_column(m, p); }

// Python's `x ** y` on float scalars (Python floats and numpy float64 scalars alike): the C library's pow,
// also for y == 2, where glibc's pow differs from x * x by 1 ulp on ~0.1% of inputs (GCC would fold a
// literal exponent 2 into x * x, hence the volatile). numpy arrays (`a ** 2`) and np.power(x, 2) square
// exactly: x * x.
inline double py_pow(double x, double y) {
  volatile double exponent = y;
  return std::pow(x, exponent);
}

// Python's to_dict as plain values. A RoadObject's dict has no heading/long_off/lat_off/ang_off keys: they
// are NaN here (a pandas DataFrame mixing both gives NaN there too).
struct ObjectDict {
  static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
  double presence = 1;
  double x = 0;
  double y = 0;
  double vx = 0;
  double vy = 0;
  double heading = NaN;
  double cos_h = 0;
  double sin_h = 0;
  double cos_d = 0;
  double sin_d = 0;
  double long_off = NaN;
  double lat_off = NaN;
  double ang_off = NaN;
  // d[key] for a feature name (presence, x, y, vx, vy, heading, cos_h, sin_h, cos_d, sin_d, long_off,
  // lat_off, ang_off); throws std::out_of_range for any other name.
  double get(std::string_view key) const;
};

// _is_colliding's result: (intersecting, will_intersect, transition).
struct Collision {
  bool intersecting = false;
  bool will_intersect = false;
  Vec2 transition{0.0, 0.0};
};

// The classes an object is an instance of (Python's isinstance), as bits of RoadObject::kinds(): each class
// adds its own bit to its base class's.
enum ObjectKind : unsigned {
  KIND_VEHICLE = 1u << 0,     // Vehicle
  KIND_CONTROLLED = 1u << 1,  // ControlledVehicle
  KIND_MDP = 1u << 2,         // MDPVehicle
  KIND_IDM = 1u << 3,         // IDMVehicle
  KIND_LINEAR = 1u << 4,      // LinearVehicle
  KIND_BICYCLE = 1u << 5,     // BicycleVehicle
  KIND_OBSTACLE = 1u << 6,    // Obstacle
  KIND_LANDMARK = 1u << 7,    // Landmark
};

class RoadObject {
 public:
  static constexpr double LENGTH = 2;  // Object length [m]
  static constexpr double WIDTH = 2;   // Object width [m]

  // Python's RoadObject(road, position, heading, speed); road may be null (Python None: no lane).
  RoadObject(Road* road, const Vec2& position, double heading = 0, double speed = 0);
  virtual ~RoadObject() = default;

  // The ObjectKind bits of this object's class and its bases (none for a plain RoadObject).
  virtual unsigned kinds() const { return 0; }
  // isinstance(self, cls) for the class of one ObjectKind bit.
  bool is_a(ObjectKind kind) const { return (kinds() & kind) != 0; }

  // Python's classmethod make_on_lane for an object class T: T(road, lane.position(longitudinal, 0),
  // lane.heading_at(longitudinal), speed or the lane's speed limit). Vehicles: Vehicle::make_on_lane.
  template <class T>
  static std::shared_ptr<T> make_on_lane(Road& road, const LaneIndex& lane_index, double longitudinal,
                                         std::optional<double> speed = std::nullopt);

  // Check for collision with another vehicle or object (dt: horizon of the constant-velocity look-ahead).
  void handle_collisions(RoadObject& other, double dt = 0);
  // Python's _is_colliding.
  Collision is_colliding(const RoadObject& other, double dt) const;

  virtual ObjectDict to_dict(const RoadObject* origin_vehicle = nullptr, bool observe_intentions = true) const;
  Vec2 direction() const {
    if (!direction_cached_ || std::bit_cast<std::uint64_t>(heading) != direction_heading_bits_) update_direction();
    return direction_;
  }
  // False when is_colliding's fast spherical pre-check rules a collision out.
  bool may_collide(const RoadObject& other, double dt) const {
    const Vec2 delta = other.position - position;
    const double reach = (diagonal + other.diagonal) / 2 + speed * dt;
    // norm(delta) >= |delta[i]| exactly in floating point (sqrt(fl(x * x)) == |x| without underflow), so a
    // coordinate beyond reach answers the check without its square root.
    if (reach > 1 && (std::abs(delta[0]) > reach || std::abs(delta[1]) > reach)) return false;
    return !(norm(delta) > reach);
  }
  virtual Vec2 velocity() const;
  // The 4 corners and the first one again (5 points), as Python's polygon().
  Polygon polygon() const;
  // Signed distance to another object along a lane (default: this object's lane); NaN if other is null.
  double lane_distance_to(const RoadObject* other, const AbstractLane* lane = nullptr) const;
  // Is the object on its current lane, or off-road?
  bool on_road() const;
  double front_distance_to(const RoadObject& other) const;

  Road* road;
  Vec2 position;
  double heading;
  double speed;
  LaneIndex lane_index;                  // the closest lane ({"", "", -1} without a road)
  const AbstractLane* lane = nullptr;    // owned by road->network; null without a road
  bool collidable = true;                // Enable collision with other collidables
  bool solid = true;                     // Collisions have physical effects
  bool check_collisions = true;          // False: not checking its own collisions (others still may)
  double length;                         // Python's self.LENGTH (the class's, or as a scenario sets it)
  double width;                          // Python's self.WIDTH
  double diagonal;
  bool crashed = false;
  bool hit = false;
  std::optional<Vec2> impact;            // nullopt = Python None (a Vehicle starts with None)

 protected:
  // For subclasses with other LENGTH/WIDTH class constants (Python evaluates self.LENGTH in __init__).
  RoadObject(Road* road, const Vec2& position, double heading, double speed, double length, double width);
  RoadObject(const RoadObject&) = default;
  RoadObject& operator=(const RoadObject&) = default;

 private:
  // direction()'s last result and the bits of the heading it is for (its cos/sin are the costly part).
  mutable bool direction_cached_ = false;
  mutable std::uint64_t direction_heading_bits_ = 0;
  mutable Vec2 direction_{0.0, 0.0};
  void update_direction() const;
};

// Obstacles on the road.
class Obstacle : public RoadObject {
 public:
  Obstacle(Road* road, const Vec2& position, double heading = 0, double speed = 0);
  unsigned kinds() const override { return KIND_OBSTACLE; }
};

// Landmarks of certain areas on the road that must be reached (not solid: they get `hit`).
class Landmark : public RoadObject {
 public:
  Landmark(Road* road, const Vec2& position, double heading = 0, double speed = 0);
  unsigned kinds() const override { return KIND_LANDMARK; }
};

// The lane at lane_index of road's network (for make_on_lane; defined in objects.cc).
const AbstractLane& lane_of(const Road& road, const LaneIndex& lane_index);

template <class T>
std::shared_ptr<T> RoadObject::make_on_lane(Road& road, const LaneIndex& lane_index, double longitudinal,
                                            std::optional<double> speed) {
  const AbstractLane& lane = lane_of(road, lane_index);
  if (!speed) speed = lane.speed_limit;
  if (!speed) throw std::invalid_argument("highway: make_on_lane needs a speed on a lane without speed limit");
  return std::make_shared<T>(&road, lane.position(longitudinal, 0), lane.heading_at(longitudinal), *speed);
}

}  // namespace rlpool::highway

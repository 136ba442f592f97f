// Objects on the road of the highway family (see objects.h). Follows highway_env/vehicle/objects.py
// (highway-env 1.12.1).
#include "envs/highway/objects.h"

#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/highway/road.h"

namespace rlpool::highway {

double ObjectDict::get(std::string_view key) const {
  if (key == "presence") return presence;
  if (key == "x") return x;
  if (key == "y") return y;
  if (key == "vx") return vx;
  if (key == "vy") return vy;
  if (key == "heading") return heading;
  if (key == "cos_h") return cos_h;
  if (key == "sin_h") return sin_h;
  if (key == "cos_d") return cos_d;
  if (key == "sin_d") return sin_d;
  if (key == "long_off") return long_off;
  if (key == "lat_off") return lat_off;
  if (key == "ang_off") return ang_off;
  throw std::out_of_range("highway: unknown vehicle feature '" + std::string(key) + "'");
}

RoadObject::RoadObject(Road* road, const Vec2& position, double heading, double speed)
    : RoadObject(road, position, heading, speed, LENGTH, WIDTH) {}

RoadObject::RoadObject(Road* road_, const Vec2& position_, double heading_, double speed_, double length_,
                       double width_)
    : road(road_), position(position_), heading(heading_), speed(speed_), length(length_), width(width_) {
  if (road != nullptr) {
    lane_index = road->network.get_closest_lane_index(position, heading);
    lane = &road->network.get_lane(lane_index);
  }
  diagonal = std::sqrt(py_pow(length, 2) + py_pow(width, 2));
  impact = Vec2{0.0, 0.0};
}

const AbstractLane& lane_of(const Road& road, const LaneIndex& lane_index) {
  return road.network.get_lane(lane_index);
}

void RoadObject::handle_collisions(RoadObject& other, double dt) {
  if (&other == this || !(check_collisions || other.check_collisions)) return;
  if (!(collidable && other.collidable)) return;
  const Collision c = is_colliding(other, dt);
  if (c.will_intersect) {
    if (solid && other.solid) {
      if (other.is_a(KIND_OBSTACLE)) {
        impact = c.transition;
      } else if (is_a(KIND_OBSTACLE)) {
        other.impact = c.transition;
      } else {
        impact = c.transition / 2.0;
        other.impact = (-c.transition) / 2.0;
      }
    }
  }
  if (c.intersecting) {
    if (solid && other.solid) {
      crashed = true;
      other.crashed = true;
    }
    if (!solid) hit = true;
    if (!other.solid) other.hit = true;
  }
}

Collision RoadObject::is_colliding(const RoadObject& other, double dt) const {
  // Fast spherical pre-check
  if (!may_collide(other, dt)) return {};
  // Accurate rectangular check
  const PolygonIntersection r = are_polygons_intersecting(polygon(), other.polygon(), velocity() * dt,
                                                          other.velocity() * dt);
  Collision c;
  c.intersecting = r.intersecting;
  c.will_intersect = r.will_intersect;
  if (r.translation) c.transition = *r.translation;
  return c;
}

ObjectDict RoadObject::to_dict(const RoadObject* origin_vehicle, bool observe_intentions) const {
  ObjectDict d;
  d.presence = 1;
  d.x = position[0];
  d.y = position[1];
  d.vx = 0.0;
  d.vy = 0.0;
  d.cos_h = std::cos(heading);
  d.sin_h = std::sin(heading);
  d.cos_d = 0.0;
  d.sin_d = 0.0;
  if (!observe_intentions) d.cos_d = d.sin_d = 0;
  if (origin_vehicle != nullptr) {
    const ObjectDict origin = origin_vehicle->to_dict();
    d.x -= origin.x;
    d.y -= origin.y;
    d.vx -= origin.vx;
    d.vy -= origin.vy;
  }
  return d;
}

void RoadObject::update_direction() const {
  direction_ = {std::cos(heading), std::sin(heading)};
  direction_heading_bits_ = std::bit_cast<std::uint64_t>(heading);
  direction_cached_ = true;
}

Vec2 RoadObject::velocity() const { return speed * direction(); }

Polygon RoadObject::polygon() const {
  const std::array<Vec2, 4> points{{
      {-length / 2, -width / 2},
      {-length / 2, +width / 2},
      {+length / 2, +width / 2},
      {+length / 2, -width / 2},
  }};
  const double c = std::cos(heading), s = std::sin(heading);
  const std::array<Vec2, 2> rotation{{{c, -s}, {s, c}}};
  Polygon out;
  out.reserve(5);
  for (const Vec2& p : points) out.push_back(matmul_column(rotation, p) + position);
  out.push_back(out[0]);
  return out;
}

double RoadObject::lane_distance_to(const RoadObject* other, const AbstractLane* lane_) const {
  if (other == nullptr) return std::numeric_limits<double>::quiet_NaN();
  if (lane_ == nullptr) lane_ = lane;
  return lane_->local_coordinates(other->position).first - lane_->local_coordinates(position).first;
}

bool RoadObject::on_road() const { return lane->on_lane(position); }

double RoadObject::front_distance_to(const RoadObject& other) const {
  return dot(direction(), other.position - position);
}

Obstacle::Obstacle(Road* road, const Vec2& position, double heading, double speed)
    : RoadObject(road, position, heading, speed) {
  solid = true;
}

Landmark::Landmark(Road* road, const Vec2& position, double heading, double speed)
    : RoadObject(road, position, heading, speed) {
  solid = false;
}

}  // namespace rlpool::highway

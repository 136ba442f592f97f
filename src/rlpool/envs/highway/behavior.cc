// Behaviour models of the other vehicles of the highway family (see behavior.h), and the run-time vehicle
// class registry declared in vehicle.h. Follows highway_env/vehicle/behavior.py (highway-env 1.12.1).
#include "envs/highway/behavior.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "envs/highway/dynamics.h"
#include "envs/highway/road.h"

namespace rlpool::highway {

namespace {

double py_min(double a, double b) { return b < a ? b : a; }
double py_max(double a, double b) { return b > a ? b : a; }
// np.sign for a difference of lane ids.
int sign(int x) { return (x > 0) - (x < 0); }

const ControlledVehicle& as_controlled(const Vehicle& vehicle) {
  const auto* v = as_controlled_vehicle(&vehicle);
  if (v == nullptr) throw std::invalid_argument("highway: create_from needs a ControlledVehicle");
  return *v;
}

// getattr(vehicle, "timer", None)
std::optional<double> timer_of(const Vehicle& vehicle) {
  if (vehicle.is_a(KIND_IDM)) return static_cast<const IDMVehicle&>(vehicle).timer;
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Vehicle classes by name

VehicleClass vehicle_class_from_path(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? path : path.substr(dot + 1);
  for (VehicleClass cls : {VehicleClass::Vehicle, VehicleClass::ControlledVehicle, VehicleClass::MDPVehicle,
                           VehicleClass::IDMVehicle, VehicleClass::LinearVehicle, VehicleClass::AggressiveVehicle,
                           VehicleClass::DefensiveVehicle, VehicleClass::BicycleVehicle}) {
    if (vehicle_class_name(cls) == name) return cls;
  }
  throw std::invalid_argument("highway: unknown vehicle class '" + std::string(path) + "'");
}

std::string_view vehicle_class_name(VehicleClass cls) {
  switch (cls) {
    case VehicleClass::Vehicle: return "Vehicle";
    case VehicleClass::ControlledVehicle: return "ControlledVehicle";
    case VehicleClass::MDPVehicle: return "MDPVehicle";
    case VehicleClass::IDMVehicle: return "IDMVehicle";
    case VehicleClass::LinearVehicle: return "LinearVehicle";
    case VehicleClass::AggressiveVehicle: return "AggressiveVehicle";
    case VehicleClass::DefensiveVehicle: return "DefensiveVehicle";
    case VehicleClass::BicycleVehicle: return "BicycleVehicle";
  }
  throw std::invalid_argument("highway: unknown vehicle class");
}

VehicleFactory vehicle_factory(VehicleClass cls) {
  switch (cls) {
    case VehicleClass::Vehicle: return vehicle_factory<Vehicle>();
    case VehicleClass::ControlledVehicle: return vehicle_factory<ControlledVehicle>();
    case VehicleClass::MDPVehicle: return vehicle_factory<MDPVehicle>();
    case VehicleClass::IDMVehicle: return vehicle_factory<IDMVehicle>();
    case VehicleClass::LinearVehicle: return vehicle_factory<LinearVehicle>();
    case VehicleClass::AggressiveVehicle: return vehicle_factory<AggressiveVehicle>();
    case VehicleClass::DefensiveVehicle: return vehicle_factory<DefensiveVehicle>();
    case VehicleClass::BicycleVehicle: return vehicle_factory<BicycleVehicle>();
  }
  throw std::invalid_argument("highway: unknown vehicle class");
}

std::shared_ptr<Vehicle> create_from(VehicleClass cls, const Vehicle& vehicle) {
  switch (cls) {
    case VehicleClass::Vehicle: return Vehicle::create_from(vehicle);
    case VehicleClass::ControlledVehicle: return ControlledVehicle::create_from(vehicle);
    case VehicleClass::MDPVehicle: return MDPVehicle::create_from(vehicle);
    case VehicleClass::IDMVehicle: return IDMVehicle::create_from(vehicle);
    case VehicleClass::LinearVehicle: return LinearVehicle::create_from(vehicle);
    case VehicleClass::AggressiveVehicle: return AggressiveVehicle::create_from(vehicle);
    case VehicleClass::DefensiveVehicle: return DefensiveVehicle::create_from(vehicle);
    case VehicleClass::BicycleVehicle: return BicycleVehicle::create_from(vehicle);
  }
  throw std::invalid_argument("highway: unknown vehicle class");
}

// ---------------------------------------------------------------------------------------------------------
// IDMVehicle

IDMVehicle::IDMVehicle(Road* road, const Vec2& position, double heading, double speed,
                       std::optional<LaneIndex> target_lane_index, std::optional<double> target_speed,
                       std::optional<Route> route, bool enable_lane_change_, std::optional<double> timer_)
    : ControlledVehicle(road, position, heading, speed, std::move(target_lane_index), target_speed,
                        std::move(route)),
      enable_lane_change(enable_lane_change_) {
  if (timer_ && *timer_ != 0) {
    timer = *timer_;
  } else {
    const double sum = this->position[0] + this->position[1];  // np.sum(self.position)
    timer = py_mod(sum * std::numbers::pi, LANE_CHANGE_DELAY);
  }
}

std::shared_ptr<IDMVehicle> IDMVehicle::create_from(const Vehicle& vehicle) {
  const ControlledVehicle& v = as_controlled(vehicle);
  return std::make_shared<IDMVehicle>(v.road, v.position, v.heading, v.speed, v.target_lane_index, v.target_speed,
                                      v.route, true, timer_of(vehicle));
}

std::shared_ptr<Vehicle> IDMVehicle::clone() const { return std::make_shared<IDMVehicle>(*this); }

void IDMVehicle::randomize_behavior() { delta = road->np_random->uniform(DELTA_RANGE[0], DELTA_RANGE[1]); }

void IDMVehicle::act(const Action&) {
  if (crashed) return;
  ControlAction a;
  // Lateral: MOBIL
  follow_road();
  if (enable_lane_change) change_lane_policy();
  a.steering = steering_control(target_lane_index);
  a.steering = constrain(a.steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);

  // Longitudinal: IDM
  auto [front_vehicle, rear_vehicle] = road->neighbour_vehicles(*this, lane_index);
  a.acceleration = acceleration(this, front_vehicle, rear_vehicle);
  // When changing lane, check both current and target lanes
  if (lane_index != target_lane_index) {
    std::tie(front_vehicle, rear_vehicle) = road->neighbour_vehicles(*this, target_lane_index);
    const double target_idm_acceleration = acceleration(this, front_vehicle, rear_vehicle);
    a.acceleration = py_min(a.acceleration, target_idm_acceleration);
  }
  a.acceleration = constrain(a.acceleration, -ACC_MAX, ACC_MAX);
  // Skip ControlledVehicle.act(), or the command will be overridden.
  Vehicle::act(a);
}

void IDMVehicle::step(double dt) {
  timer += dt;
  ControlledVehicle::step(dt);
}

double IDMVehicle::acceleration(const RoadObject* ego_vehicle, const RoadObject* front_vehicle,
                                const RoadObject*) const {
  if (ego_vehicle == nullptr || !ego_vehicle->is_a(KIND_VEHICLE)) return 0;
  const auto* ego = static_cast<const Vehicle*>(ego_vehicle);
  double ego_target_speed = 0;
  if (const auto* controlled = as_controlled_vehicle(ego)) ego_target_speed = controlled->target_speed;
  if (ego->lane != nullptr && ego->lane->speed_limit) {
    ego_target_speed = constrain(ego_target_speed, 0, *ego->lane->speed_limit);
  }
  double acc = comfort_acc_max *
               (1 - std::pow(py_max(ego->speed, 0) / std::abs(not_zero(ego_target_speed)), delta));
  if (front_vehicle != nullptr) {
    const double d = ego->lane_distance_to(front_vehicle);
    const double ratio = desired_gap(*ego, *front_vehicle) / not_zero(d);
    acc -= comfort_acc_max * (ratio * ratio);  // np.power(ratio, 2): numpy squares exactly
  }
  return acc;
}

double IDMVehicle::desired_gap(const RoadObject& ego_vehicle, const RoadObject& front_vehicle, bool projected) const {
  const double d0 = distance_wanted;
  const double tau = time_wanted;
  const double ab = -comfort_acc_max * comfort_acc_min;
  const double dv = projected ? dot(ego_vehicle.velocity() - front_vehicle.velocity(), ego_vehicle.direction())
                              : ego_vehicle.speed - front_vehicle.speed;
  return d0 + ego_vehicle.speed * tau + ego_vehicle.speed * dv / (2 * std::sqrt(ab));
}

void IDMVehicle::change_lane_policy() {
  // If a lane change is already ongoing
  if (lane_index != target_lane_index) {
    // If we are on correct route but bad lane: abort it if someone else is already changing into the same lane
    if (lane_index.from == target_lane_index.from && lane_index.to == target_lane_index.to) {
      for (const auto& v : road->vehicles) {
        if (v.get() == this || v->lane_index == target_lane_index) continue;
        const auto* cv = as_controlled_vehicle(v.get());
        if (cv == nullptr || cv->target_lane_index != target_lane_index) continue;
        const double d = lane_distance_to(v.get());
        const double d_star = desired_gap(*this, *v);
        if (0 < d && d < d_star) {
          target_lane_index = lane_index;
          break;
        }
      }
    }
    return;
  }

  // else, at a given frequency,
  if (!do_every(LANE_CHANGE_DELAY, timer)) return;
  timer = 0;

  // decide to make a lane change
  for (const LaneIndex& candidate : road->network.side_lanes(lane_index)) {
    // Is the candidate lane close enough?
    if (!road->network.get_lane(candidate).is_reachable_from(position)) continue;
    // Only change lane when the vehicle is moving
    if (std::abs(speed) < 1) continue;
    // Does the MOBIL model recommend a lane change?
    if (mobil(candidate)) target_lane_index = candidate;
  }
}

bool IDMVehicle::mobil(const LaneIndex& candidate) const {
  // Is the maneuver unsafe for the new following vehicle?
  const auto [new_preceding, new_following] = road->neighbour_vehicles(*this, candidate);
  const double new_following_a = acceleration(new_following, new_preceding);
  const double new_following_pred_a = acceleration(new_following, this);
  if (new_following_pred_a < -lane_change_max_braking_imposed) return false;

  // Do I have a planned route for a specific lane which is safe for me to access?
  const auto [old_preceding, old_following] = road->neighbour_vehicles(*this);
  const double self_pred_a = acceleration(this, new_preceding);
  if (route && !route->empty() && (*route)[0].id >= 0) {
    // Wrong direction
    if (sign(candidate.id - target_lane_index.id) != sign((*route)[0].id - target_lane_index.id)) return false;
    // Unsafe braking required
    if (self_pred_a < -lane_change_max_braking_imposed) return false;
  } else {
    // Is there an acceleration advantage for me and/or my followers to change lane?
    const double self_a = acceleration(this, old_preceding);
    const double old_following_a = acceleration(old_following, this);
    const double old_following_pred_a = acceleration(old_following, old_preceding);
    const double jerk = self_pred_a - self_a +
                        politeness * (new_following_pred_a - new_following_a + old_following_pred_a - old_following_a);
    if (jerk < lane_change_min_acc_gain) return false;
  }
  // All clear, let's go!
  return true;
}

double IDMVehicle::recover_from_stop(double acc) const {
  const double stopped_speed = 5;
  const double safe_distance = 200;
  // Is the vehicle stopped on the wrong lane?
  if (target_lane_index != lane_index && speed < stopped_speed) {
    const RoadObject* rear = road->neighbour_vehicles(*this).second;
    const RoadObject* new_rear = road->neighbour_vehicles(*this, target_lane_index).second;
    // Check for free room behind on both lanes
    if ((rear == nullptr || rear->lane_distance_to(this) > safe_distance) &&
        (new_rear == nullptr || new_rear->lane_distance_to(this) > safe_distance)) {
      // Reverse
      return -comfort_acc_max / 2;
    }
  }
  return acc;
}

// ---------------------------------------------------------------------------------------------------------
// LinearVehicle

LinearVehicle::LinearVehicle(Road* road, const Vec2& position, double heading, double speed,
                             std::optional<LaneIndex> target_lane_index, std::optional<double> target_speed,
                             std::optional<Route> route, bool enable_lane_change, std::optional<double> timer,
                             std::optional<LinearData> data_)
    : IDMVehicle(road, position, heading, speed, std::move(target_lane_index), target_speed, std::move(route),
                 enable_lane_change, timer),
      acceleration_parameters(ACCELERATION_PARAMETERS),
      steering_parameters(STEERING_PARAMETERS),
      data(data_ ? std::move(*data_) : LinearData{}) {
  time_wanted = TIME_WANTED;
}

void LinearVehicle::set_class_parameters(const std::array<double, 3>& acceleration_parameters_,
                                         double lane_change_min_acc_gain_) {
  acceleration_parameters = acceleration_parameters_;
  lane_change_min_acc_gain = lane_change_min_acc_gain_;
}

std::shared_ptr<LinearVehicle> LinearVehicle::create_from(const Vehicle& vehicle) {
  const ControlledVehicle& v = as_controlled(vehicle);
  return std::make_shared<LinearVehicle>(v.road, v.position, v.heading, v.speed, v.target_lane_index,
                                         v.target_speed, v.route, true, timer_of(vehicle));
}

std::shared_ptr<Vehicle> LinearVehicle::clone() const { return std::make_shared<LinearVehicle>(*this); }

void LinearVehicle::act(const Action& action_) {
  if (collecting_data) collect_data();
  IDMVehicle::act(action_);
}

void LinearVehicle::randomize_behavior() {
  Rng& rng = *road->np_random;
  std::array<double, 3> ua;
  for (double& u : ua) u = rng.uniform(0.0, 1.0);
  for (std::size_t i = 0; i < 3; ++i) {
    acceleration_parameters[i] =
        ACCELERATION_RANGE[0][i] + ua[i] * (ACCELERATION_RANGE[1][i] - ACCELERATION_RANGE[0][i]);
  }
  std::array<double, 2> ub;
  for (double& u : ub) u = rng.uniform(0.0, 1.0);
  for (std::size_t i = 0; i < 2; ++i) {
    steering_parameters[i] = STEERING_RANGE[0][i] + ub[i] * (STEERING_RANGE[1][i] - STEERING_RANGE[0][i]);
  }
  IDMVehicle::randomize_behavior();
}

double LinearVehicle::acceleration(const RoadObject* ego_vehicle, const RoadObject* front_vehicle,
                                   const RoadObject* rear_vehicle) const {
  return dot3(acceleration_parameters, acceleration_features(ego_vehicle, front_vehicle, rear_vehicle));
}

std::array<double, 3> LinearVehicle::acceleration_features(const RoadObject* ego_vehicle,
                                                           const RoadObject* front_vehicle,
                                                           const RoadObject*) const {
  double vt = 0, dv = 0, dp = 0;
  if (ego_vehicle != nullptr) {
    const auto* controlled = as_controlled_vehicle(ego_vehicle);
    vt = (controlled != nullptr ? controlled->target_speed : ego_vehicle->speed) - ego_vehicle->speed;
    const double d_safe = distance_wanted + py_max(ego_vehicle->speed, 0) * time_wanted;
    if (front_vehicle != nullptr) {
      const double d = ego_vehicle->lane_distance_to(front_vehicle);
      dv = py_min(front_vehicle->speed - ego_vehicle->speed, 0);
      dp = py_min(d - d_safe, 0);
    }
  }
  return {vt, dv, dp};
}

double LinearVehicle::steering_control(const LaneIndex& target_lane_index_) const {
  return dot(steering_parameters, steering_features(target_lane_index_));
}

std::array<double, 2> LinearVehicle::steering_features(const LaneIndex& target_lane_index_) const {
  const AbstractLane& lane_ = road->network.get_lane(target_lane_index_);
  const auto lane_coords = lane_.local_coordinates(position);
  const double lane_next_coords = lane_coords.first + speed * TAU_PURSUIT;
  const double lane_future_heading = lane_.heading_at(lane_next_coords);
  const double nz = not_zero(speed);
  return {wrap_to_pi(lane_future_heading - heading) * length / nz, -lane_coords.second * length / py_pow(nz, 2)};
}

LongitudinalStructure LinearVehicle::longitudinal_structure() const {
  LongitudinalStructure s{};
  // Nominal dynamics: integrate speed
  s.A = {{{0, 0, 1, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}}};
  // Target speed dynamics
  s.phi[0] = {{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}}};
  // Front speed control
  s.phi[1] = {{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, -1, 1}, {0, 0, 0, 0}}};
  // Front position control
  s.phi[2] = {{{0, 0, 0, 0}, {0, 0, 0, 0}, {-1, 1, -time_wanted, 0}, {0, 0, 0, 0}}};
  auto zero = [](SquareMatrix<4>& m) {
    for (auto& row : m)
      for (double& x : row) x *= 0;
  };
  // Disable speed control
  const RoadObject* front_vehicle = road->neighbour_vehicles(*this).first;
  if (front_vehicle == nullptr || speed < front_vehicle->speed) zero(s.phi[1]);
  // Disable front position control
  if (front_vehicle != nullptr) {
    const double d = lane_distance_to(front_vehicle);
    if (d != distance_wanted + time_wanted * speed) zero(s.phi[2]);
  } else {
    zero(s.phi[2]);
  }
  return s;
}

LateralStructure LinearVehicle::lateral_structure() const {
  LateralStructure s{};
  s.A = {{{0, 1}, {0, 0}}};
  s.phi[0] = {{{0, 0}, {0, -1}}};
  s.phi[1] = {{{0, 0}, {-1, 0}}};
  return s;
}

void LinearVehicle::collect_data() { add_features(data, target_lane_index); }

void LinearVehicle::add_features(LinearData& data_, const LaneIndex& lane_index_,
                                 std::optional<LaneIndex> output_lane) const {
  const auto [front_vehicle, rear_vehicle] = road->neighbour_vehicles(*this);
  const std::array<double, 3> features = acceleration_features(this, front_vehicle, rear_vehicle);
  data_.longitudinal_features.push_back(features);
  data_.longitudinal_outputs.push_back(dot3(acceleration_parameters, features));

  if (!output_lane) output_lane = lane_index_;
  const std::array<double, 2> lateral = steering_features(lane_index_);
  const std::array<double, 2> out_features = steering_features(*output_lane);
  data_.lateral_features.push_back(lateral);
  data_.lateral_outputs.push_back(dot(steering_parameters, out_features));
}

// ---------------------------------------------------------------------------------------------------------
// AggressiveVehicle, DefensiveVehicle

AggressiveVehicle::AggressiveVehicle(Road* road, const Vec2& position, double heading, double speed,
                                     std::optional<LaneIndex> target_lane_index,
                                     std::optional<double> target_speed, std::optional<Route> route,
                                     bool enable_lane_change, std::optional<double> timer,
                                     std::optional<LinearData> data)
    : LinearVehicle(road, position, heading, speed, std::move(target_lane_index), target_speed, std::move(route),
                    enable_lane_change, timer, std::move(data)) {
  set_class_parameters(ACCELERATION_PARAMETERS, LANE_CHANGE_MIN_ACC_GAIN);
}

std::shared_ptr<AggressiveVehicle> AggressiveVehicle::create_from(const Vehicle& vehicle) {
  const ControlledVehicle& v = as_controlled(vehicle);
  return std::make_shared<AggressiveVehicle>(v.road, v.position, v.heading, v.speed, v.target_lane_index,
                                             v.target_speed, v.route, true, timer_of(vehicle));
}

std::shared_ptr<Vehicle> AggressiveVehicle::clone() const { return std::make_shared<AggressiveVehicle>(*this); }

DefensiveVehicle::DefensiveVehicle(Road* road, const Vec2& position, double heading, double speed,
                                   std::optional<LaneIndex> target_lane_index, std::optional<double> target_speed,
                                   std::optional<Route> route, bool enable_lane_change,
                                   std::optional<double> timer, std::optional<LinearData> data)
    : LinearVehicle(road, position, heading, speed, std::move(target_lane_index), target_speed, std::move(route),
                    enable_lane_change, timer, std::move(data)) {
  set_class_parameters(ACCELERATION_PARAMETERS, LANE_CHANGE_MIN_ACC_GAIN);
}

std::shared_ptr<DefensiveVehicle> DefensiveVehicle::create_from(const Vehicle& vehicle) {
  const ControlledVehicle& v = as_controlled(vehicle);
  return std::make_shared<DefensiveVehicle>(v.road, v.position, v.heading, v.speed, v.target_lane_index,
                                            v.target_speed, v.route, true, timer_of(vehicle));
}

std::shared_ptr<Vehicle> DefensiveVehicle::clone() const { return std::make_shared<DefensiveVehicle>(*this); }

}  // namespace rlpool::highway

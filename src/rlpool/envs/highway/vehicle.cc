// Vehicles of the highway family (see vehicle.h). Follows highway_env/vehicle/kinematics.py and
// highway_env/vehicle/controller.py (highway-env 1.12.1).
#include "envs/highway/vehicle.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/highway/road.h"

namespace rlpool::highway {

namespace {

// Python's min(a, b) / max(a, b): the first argument unless the second is strictly smaller / larger.
double py_min(double a, double b) { return b < a ? b : a; }
double py_max(double a, double b) { return b > a ? b : a; }

}  // namespace

MetaAction meta_action_from_name(std::string_view name) {
  if (name == "LANE_LEFT") return MetaAction::LANE_LEFT;
  if (name == "IDLE") return MetaAction::IDLE;
  if (name == "LANE_RIGHT") return MetaAction::LANE_RIGHT;
  if (name == "FASTER") return MetaAction::FASTER;
  if (name == "SLOWER") return MetaAction::SLOWER;
  throw std::invalid_argument("highway: unknown meta-action '" + std::string(name) + "'");
}

std::string_view meta_action_name(MetaAction action) {
  switch (action) {
    case MetaAction::LANE_LEFT: return "LANE_LEFT";
    case MetaAction::IDLE: return "IDLE";
    case MetaAction::LANE_RIGHT: return "LANE_RIGHT";
    case MetaAction::FASTER: return "FASTER";
    case MetaAction::SLOWER: return "SLOWER";
  }
  throw std::invalid_argument("highway: unknown meta-action");
}

VehicleFactory mdp_vehicle_factory(std::vector<double> target_speeds) {
  return [target_speeds = std::move(target_speeds)](Road* road, const Vec2& position, double heading,
                                                    double speed) -> std::shared_ptr<Vehicle> {
    return std::make_shared<MDPVehicle>(road, position, heading, speed, std::nullopt, std::nullopt, target_speeds);
  };
}

// ---------------------------------------------------------------------------------------------------------
// Vehicle

Vehicle::Vehicle(Road* road, const Vec2& position, double heading, double speed, std::string predition_type)
    : RoadObject(road, position, heading, speed, LENGTH, WIDTH), prediction_type(std::move(predition_type)) {
  impact.reset();
}

std::shared_ptr<Vehicle> Vehicle::create_random(const VehicleFactory& cls, Road& road, const CreateRandomArgs& args) {
  Rng& rng = *road.np_random;
  const RoadNetwork& net = road.network;
  std::string from;
  if (args.lane_from && !args.lane_from->empty()) {
    from = *args.lane_from;
  } else {
    const auto& items = net.graph.items();
    from = items[static_cast<std::size_t>(rng.integer(items.size()))].first;
  }
  std::string to;
  if (args.lane_to && !args.lane_to->empty()) {
    to = *args.lane_to;
  } else {
    const auto& items = net.graph.at(from).items();
    to = items[static_cast<std::size_t>(rng.integer(items.size()))].first;
  }
  const std::size_t lane_count = net.lanes(from, to).size();
  const int id = args.lane_id ? *args.lane_id : static_cast<int>(rng.integer(lane_count));
  const AbstractLane& lane = net.get_lane({from, to, id});
  double speed;
  if (args.speed) {
    speed = *args.speed;
  } else if (lane.speed_limit) {
    speed = rng.uniform(0.7 * *lane.speed_limit, 0.8 * *lane.speed_limit);
  } else {
    speed = rng.uniform(DEFAULT_INITIAL_SPEEDS[0], DEFAULT_INITIAL_SPEEDS[1]);
  }
  const double default_spacing = 12 + 1.0 * speed;
  const double offset = args.spacing * default_spacing * std::exp(-5.0 / 40 * static_cast<double>(lane_count));
  double x0;
  if (!road.vehicles.empty()) {
    x0 = lane.local_coordinates(road.vehicles[0]->position).first;
    for (std::size_t i = 1; i < road.vehicles.size(); ++i) {
      const double x = lane.local_coordinates(road.vehicles[i]->position).first;
      if (x > x0 || std::isnan(x)) x0 = x;  // np.max (NaN propagates)
      if (std::isnan(x0)) break;
    }
  } else {
    x0 = 3 * offset;
  }
  x0 += offset * rng.uniform(0.9, 1.1);
  if (!cls) return std::make_shared<Vehicle>(&road, lane.position(x0, 0), lane.heading_at(x0), speed);
  return cls(&road, lane.position(x0, 0), lane.heading_at(x0), speed);
}

std::shared_ptr<Vehicle> Vehicle::make_on_lane(const VehicleFactory& cls, Road& road, const LaneIndex& lane_index,
                                               double longitudinal, std::optional<double> speed) {
  const AbstractLane& lane = road.network.get_lane(lane_index);
  if (!speed) speed = lane.speed_limit;
  if (!speed) throw std::invalid_argument("highway: make_on_lane needs a speed on a lane without speed limit");
  if (!cls) return std::make_shared<Vehicle>(&road, lane.position(longitudinal, 0), lane.heading_at(longitudinal), *speed);
  return cls(&road, lane.position(longitudinal, 0), lane.heading_at(longitudinal), *speed);
}

std::shared_ptr<Vehicle> Vehicle::create_from(const Vehicle& vehicle) {
  auto v = std::make_shared<Vehicle>(vehicle.road, vehicle.position, vehicle.heading, vehicle.speed);
  v->color = vehicle.color;
  return v;
}

std::shared_ptr<Vehicle> Vehicle::clone() const { return std::make_shared<Vehicle>(*this); }

void Vehicle::act(const Action& action_) {
  if (const auto* control = std::get_if<ControlAction>(&action_)) {
    action = *control;
  } else if (std::holds_alternative<MetaAction>(action_)) {
    throw std::invalid_argument("highway: a Vehicle takes {steering, acceleration} actions, not meta-actions");
  }
}

void Vehicle::step(double dt) {
  clip_actions();
  const double delta_f = action.steering;
  const double beta = std::atan(1.0 / 2 * std::tan(delta_f));
  const Vec2 v = speed * Vec2{std::cos(heading + beta), std::sin(heading + beta)};
  position += v * dt;
  if (impact) {
    position += *impact;
    crashed = true;
    impact.reset();
  }
  heading += speed * std::sin(beta) / (length / 2) * dt;
  speed += action.acceleration * dt;
  on_state_update();
}

void Vehicle::clip_actions() {
  if (crashed) {
    action.steering = 0;
    action.acceleration = -1.0 * speed;
  }
  if (speed > max_speed) {
    action.acceleration = py_min(action.acceleration, 1.0 * (max_speed - speed));
  } else if (speed < min_speed) {
    action.acceleration = py_max(action.acceleration, 1.0 * (min_speed - speed));
  }
}

void Vehicle::on_state_update() {
  if (road == nullptr) return;
  lane_index = road->network.get_closest_lane_index(position, heading);
  lane = &road->network.get_lane(lane_index);
  if (road->record_history) {
    history.push_front({position, heading, speed});
    if (history.size() > static_cast<std::size_t>(HISTORY_SIZE)) history.pop_back();
  }
}

std::pair<std::vector<Vec2>, std::vector<double>> Vehicle::predict_trajectory_constant_speed(
    const std::vector<double>& times) const {
  ControlAction a;
  if (prediction_type == "zero_steering") {
    a = {0.0, 0.0};
  } else if (prediction_type == "constant_steering") {
    a = {action.steering, 0.0};
  } else {
    throw std::invalid_argument("Unknown predition type");
  }
  std::vector<Vec2> positions;
  std::vector<double> headings;
  std::shared_ptr<Vehicle> v = clone();
  v->act(a);
  double previous = 0.0;
  for (double time : times) {
    const double t = time - previous;  // np.diff(np.concatenate(([0.0], times)))
    previous = time;
    v->step(t);
    positions.push_back(v->position);
    headings.push_back(v->heading);
  }
  return {positions, headings};
}

Vec2 Vehicle::velocity() const { return speed * direction(); }

Vec2 Vehicle::destination() const {
  const auto* controlled = as_controlled_vehicle(this);
  if (controlled != nullptr && controlled->route && !controlled->route->empty()) {
    LaneIndex last = controlled->route->back();
    if (last.id < 0) last.id = 0;
    const AbstractLane& last_lane = road->network.get_lane(last);
    return last_lane.position(last_lane.length, 0);
  }
  return position;
}

Vec2 Vehicle::destination_direction() const {
  const Vec2 dest = destination();
  if (dest[0] != position[0] || dest[1] != position[1]) {
    const Vec2 d = dest - position;
    return d / norm(d);
  }
  return {0.0, 0.0};
}

std::array<double, 3> Vehicle::lane_offset() const {
  if (lane != nullptr) {
    const auto [lon, lat] = lane->local_coordinates(position);
    const double ang = lane->local_angle(heading, lon);
    return {lon, lat, ang};
  }
  return {0.0, 0.0, 0.0};
}

ObjectDict Vehicle::to_dict(const RoadObject* origin_vehicle, bool observe_intentions) const {
  ObjectDict d;
  const Vec2 vel = velocity();
  const Vec2 dir = direction();
  const Vec2 dest_dir = destination_direction();
  const std::array<double, 3> offset = lane_offset();
  d.presence = 1;
  d.x = position[0];
  d.y = position[1];
  d.vx = vel[0];
  d.vy = vel[1];
  d.heading = heading;
  d.cos_h = dir[0];
  d.sin_h = dir[1];
  d.cos_d = dest_dir[0];
  d.sin_d = dest_dir[1];
  d.long_off = offset[0];
  d.lat_off = offset[1];
  d.ang_off = offset[2];
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

std::vector<std::shared_ptr<Vehicle>> Vehicle::predict_trajectory(const std::vector<Action>& actions,
                                                                  double action_duration,
                                                                  double trajectory_timestep, double dt) const {
  std::vector<std::shared_ptr<Vehicle>> states;
  std::shared_ptr<Vehicle> v = clone();
  long t = 0;
  const long repeats = static_cast<long>(action_duration / dt);
  const long every = static_cast<long>(trajectory_timestep / dt);
  for (const Action& a : actions) {
    v->act(a);  // Low-level control action
    for (long i = 0; i < repeats; ++i) {
      t += 1;
      v->step(dt);
      if (t % every == 0) states.push_back(v->clone());
    }
  }
  return states;
}

// ---------------------------------------------------------------------------------------------------------
// ControlledVehicle

ControlledVehicle::ControlledVehicle(Road* road, const Vec2& position, double heading, double speed,
                                     std::optional<LaneIndex> target_lane_index_,
                                     std::optional<double> target_speed_, std::optional<Route> route_)
    : Vehicle(road, position, heading, speed), route(std::move(route_)) {
  target_lane_index = target_lane_index_ ? *target_lane_index_ : lane_index;
  target_speed = (target_speed_ && *target_speed_ != 0) ? *target_speed_ : this->speed;
}

std::shared_ptr<ControlledVehicle> ControlledVehicle::create_from(const Vehicle& vehicle) {
  const auto* v = as_controlled_vehicle(&vehicle);
  if (v == nullptr) throw std::invalid_argument("highway: create_from needs a ControlledVehicle");
  return std::make_shared<ControlledVehicle>(v->road, v->position, v->heading, v->speed, v->target_lane_index,
                                             v->target_speed, v->route);
}

std::shared_ptr<Vehicle> ControlledVehicle::clone() const { return std::make_shared<ControlledVehicle>(*this); }

ControlledVehicle& ControlledVehicle::plan_route_to(const std::string& destination) {
  std::vector<std::string> path;
  try {
    path = road->network.shortest_path(lane_index.to, destination);
  } catch (const std::out_of_range&) {
    path.clear();
  }
  Route r{lane_index};
  for (std::size_t i = 0; i + 1 < path.size(); ++i) r.push_back({path[i], path[i + 1], -1});
  route = std::move(r);
  return *this;
}

void ControlledVehicle::act(const Action& action_) {
  follow_road();
  if (const auto* meta = std::get_if<MetaAction>(&action_)) {
    if (*meta == MetaAction::FASTER) {
      target_speed += DELTA_SPEED;
    } else if (*meta == MetaAction::SLOWER) {
      target_speed -= DELTA_SPEED;
    } else if (*meta == MetaAction::LANE_RIGHT || *meta == MetaAction::LANE_LEFT) {
      const int count = static_cast<int>(road->network.lanes(target_lane_index.from, target_lane_index.to).size());
      const int step = *meta == MetaAction::LANE_RIGHT ? 1 : -1;
      const LaneIndex candidate{target_lane_index.from, target_lane_index.to,
                                std::clamp(target_lane_index.id + step, 0, count - 1)};
      if (road->network.get_lane(candidate).is_reachable_from(position)) target_lane_index = candidate;
    }
  }
  ControlAction control;
  control.steering = steering_control(target_lane_index);
  control.acceleration = speed_control(target_speed);
  control.steering = constrain(control.steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
  Vehicle::act(control);
}

void ControlledVehicle::follow_road() {
  if (road->network.get_lane(target_lane_index).after_end(position)) {
    target_lane_index = road->network.next_lane(target_lane_index, route ? &*route : nullptr, position);
  }
}

double ControlledVehicle::steering_control(const LaneIndex& target_lane_index_) const {
  const AbstractLane& target_lane = road->network.get_lane(target_lane_index_);
  const auto lane_coords = target_lane.local_coordinates(position);
  const double lane_next_coords = lane_coords.first + speed * TAU_PURSUIT;
  const double lane_future_heading = target_lane.heading_at(lane_next_coords);

  // Lateral position control
  const double lateral_speed_command = -KP_LATERAL * lane_coords.second;
  // Lateral speed to heading
  const double heading_command = std::asin(constrain(lateral_speed_command / not_zero(speed), -1, 1));
  const double heading_ref =
      lane_future_heading + constrain(heading_command, -std::numbers::pi / 4, std::numbers::pi / 4);
  // Heading control
  const double heading_rate_command = KP_HEADING * wrap_to_pi(heading_ref - heading);
  // Heading rate to steering angle
  const double slip_angle = std::asin(constrain(length / 2 / not_zero(speed) * heading_rate_command, -1, 1));
  double steering_angle = std::atan(2 * std::tan(slip_angle));
  steering_angle = constrain(steering_angle, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
  return steering_angle;
}

double ControlledVehicle::speed_control(double target_speed_) const { return KP_A * (target_speed_ - speed); }

std::vector<Route> ControlledVehicle::get_routes_at_intersection() const {
  if (!route || route->empty()) return {};
  const RoadNetwork& net = road->network;
  const std::size_t n = std::min<std::size_t>(route->size(), 3);
  const RoadNetwork::ToDict* next_destinations = nullptr;
  std::size_t index = 0;
  bool found = false;
  for (index = 0; index < n; ++index) {
    const RoadNetwork::ToDict* candidate = net.graph.find((*route)[index].to);
    if (candidate == nullptr) continue;  // KeyError
    next_destinations = candidate;
    if (candidate->size() >= 2) {
      found = true;
      break;
    }
  }
  if (!found) return {*route};
  std::vector<Route> routes;
  for (const std::string& destination : next_destinations->keys()) {
    Route r(route->begin(), route->begin() + static_cast<std::ptrdiff_t>(index + 1));
    r.push_back({(*route)[index].to, destination, (*route)[index].id});
    routes.push_back(std::move(r));
  }
  return routes;
}

void ControlledVehicle::set_route_at_intersection(int _to) {
  std::vector<Route> routes = get_routes_at_intersection();
  if (!routes.empty()) {
    const int n = static_cast<int>(routes.size());
    const int i = ((_to % n) + n) % n;  // Python's modulo
    route = routes[static_cast<std::size_t>(i)];
  }
}

void ControlledVehicle::set_route_at_intersection_random() {
  std::vector<Route> routes = get_routes_at_intersection();
  if (!routes.empty()) {
    const int _to = static_cast<int>(road->np_random->integer(routes.size()));
    route = routes[static_cast<std::size_t>(_to % static_cast<int>(routes.size()))];
  }
}

std::pair<std::vector<Vec2>, std::vector<double>> ControlledVehicle::predict_trajectory_constant_speed(
    const std::vector<double>& times) const {
  const auto coordinates = lane->local_coordinates(position);
  const Route r = (route && !route->empty()) ? *route : Route{lane_index};
  std::vector<Vec2> positions;
  std::vector<double> headings;
  positions.reserve(times.size());
  headings.reserve(times.size());
  for (double t : times) {
    const auto [p, h] =
        road->network.position_heading_along_route(r, coordinates.first + speed * t, 0, lane_index);
    positions.push_back(p);
    headings.push_back(h);
  }
  return {positions, headings};
}

// ---------------------------------------------------------------------------------------------------------
// MDPVehicle

MDPVehicle::MDPVehicle(Road* road, const Vec2& position, double heading, double speed,
                       std::optional<LaneIndex> target_lane_index, std::optional<double> target_speed,
                       std::optional<std::vector<double>> target_speeds_, std::optional<Route> route)
    : ControlledVehicle(road, position, heading, speed, std::move(target_lane_index), target_speed,
                        std::move(route)) {
  if (target_speeds_) {
    target_speeds = std::move(*target_speeds_);
  } else {
    target_speeds.assign(DEFAULT_TARGET_SPEEDS.begin(), DEFAULT_TARGET_SPEEDS.end());
  }
  if (target_speeds.empty()) throw std::invalid_argument("highway: MDPVehicle needs target speeds");
  speed_index = speed_to_index(this->target_speed);
  this->target_speed = index_to_speed(speed_index);
}

std::shared_ptr<MDPVehicle> MDPVehicle::create_from(const Vehicle& vehicle) {
  const auto* v = as_controlled_vehicle(&vehicle);
  if (v == nullptr) throw std::invalid_argument("highway: create_from needs a ControlledVehicle");
  return std::make_shared<MDPVehicle>(v->road, v->position, v->heading, v->speed, v->target_lane_index,
                                      v->target_speed, std::nullopt, v->route);
}

std::shared_ptr<Vehicle> MDPVehicle::clone() const { return std::make_shared<MDPVehicle>(*this); }

void MDPVehicle::act(const Action& action_) {
  const auto* meta = std::get_if<MetaAction>(&action_);
  if (meta != nullptr && *meta == MetaAction::FASTER) {
    speed_index = speed_to_index(speed) + 1;
  } else if (meta != nullptr && *meta == MetaAction::SLOWER) {
    speed_index = speed_to_index(speed) - 1;
  } else {
    ControlledVehicle::act(action_);
    return;
  }
  speed_index = std::clamp(speed_index, 0, static_cast<int>(target_speeds.size()) - 1);
  target_speed = index_to_speed(speed_index);
  ControlledVehicle::act();
}

double MDPVehicle::index_to_speed(int index) const {
  const int n = static_cast<int>(target_speeds.size());
  if (index < -n || index >= n) throw std::out_of_range("highway: speed index out of range");
  return target_speeds[static_cast<std::size_t>(index < 0 ? index + n : index)];
}

namespace {
int speed_index_of(double speed, const double* speeds, std::size_t size) {
  // np.int64(np.clip(np.round(x * (size - 1)), 0, size - 1)), x the position of speed in [first, last].
  if (size == 1) return 0;  // Python divides by zero there (and then fails)
  const double x = (speed - speeds[0]) / (speeds[size - 1] - speeds[0]);
  const double top = static_cast<double>(size - 1);
  const double index = constrain(std::nearbyint(x * top), 0, top);
  // Python: np.int64(nan) is a huge negative index, and indexing target_speeds with it fails.
  if (std::isnan(index)) throw std::out_of_range("highway: speed index of a NaN speed");
  return static_cast<int>(index);
}
}  // namespace

int MDPVehicle::speed_to_index(double speed_) const {
  return speed_index_of(speed_, target_speeds.data(), target_speeds.size());
}

int MDPVehicle::speed_to_index_default(double speed) {
  return speed_index_of(speed, DEFAULT_TARGET_SPEEDS.data(), DEFAULT_TARGET_SPEEDS.size());
}

int MDPVehicle::get_speed_index(const Vehicle& vehicle) {
  const int fallback = speed_to_index_default(vehicle.speed);
  if (const auto* mdp = as_mdp_vehicle(&vehicle)) return mdp->speed_index;
  return fallback;
}

std::vector<std::shared_ptr<Vehicle>> MDPVehicle::predict_trajectory(const std::vector<Action>& actions,
                                                                     double action_duration,
                                                                     double trajectory_timestep, double dt) const {
  std::vector<std::shared_ptr<Vehicle>> states;
  std::shared_ptr<Vehicle> v = clone();
  long t = 0;
  const long repeats = static_cast<long>(action_duration / dt);
  const long every = static_cast<long>(trajectory_timestep / dt);
  for (const Action& a : actions) {
    v->act(a);  // High-level decision
    for (long i = 0; i < repeats; ++i) {
      t += 1;
      v->act();  // Low-level control action
      v->step(dt);
      if (t % every == 0) states.push_back(v->clone());
    }
  }
  return states;
}

}  // namespace rlpool::highway

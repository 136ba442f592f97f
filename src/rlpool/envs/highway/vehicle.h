// Vehicles of the highway family: Vehicle (kinematic bicycle model driven by a steering/acceleration
// action), ControlledVehicle (speed and lane-following controllers, high-level meta-actions, routes) and
// MDPVehicle (a ControlledVehicle whose target speed is one of a discrete list). Also the action types
// (Python's None / "FASTER"-like string / {"steering", "acceleration"} dict) and vehicle factories (Python's
// `cls` arguments and functools.partial(MDPVehicle, target_speeds=...)), and the isinstance-like casts
// as_controlled_vehicle / as_mdp_vehicle (by RoadObject::kinds(), cheaper than dynamic_cast).
//
// Follows highway_env/vehicle/kinematics.py and highway_env/vehicle/controller.py (highway-env 1.12.1).
// Python's class attributes that are changed per instance (MAX_SPEED/MIN_SPEED by ContinuousAction's
// speed_range) are instance members (max_speed, min_speed); the class constants keep their names.
// copy.deepcopy of a vehicle is clone(): the copy keeps the same Road and is not in its vehicles, where
// Python's deep copy of the road holds the copy instead of the original (an IDMVehicle copy acting would see
// its original as a neighbour). The predictions that copy (predict_trajectory, Vehicle's
// predict_trajectory_constant_speed) only act on Vehicle/BicycleVehicle/MDPVehicle copies, which neither
// look at other vehicles nor draw random numbers, so they match. A vehicle's `history` (record_history)
// keeps position/heading/speed snapshots rather than whole vehicle copies.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "envs/highway/objects.h"

namespace rlpool::highway {

class Vehicle;

// Python's action dict {"steering": ..., "acceleration": ...}.
struct ControlAction {
  double steering = 0;
  double acceleration = 0;
  bool operator==(const ControlAction&) const = default;
};
// Python's high-level action strings.
enum class MetaAction : int { LANE_LEFT = 0, IDLE = 1, LANE_RIGHT = 2, FASTER = 3, SLOWER = 4 };
// "LANE_LEFT" <-> MetaAction::LANE_LEFT ...; meta_action_from_name throws std::invalid_argument.
MetaAction meta_action_from_name(std::string_view name);
std::string_view meta_action_name(MetaAction action);
// The argument of Python's act(): None (std::monostate), a meta-action string, or a control dict.
using Action = std::variant<std::monostate, MetaAction, ControlAction>;

// Python's vehicle class as a callable cls(road, position, heading, speed).
using VehicleFactory =
    std::function<std::shared_ptr<Vehicle>(Road* road, const Vec2& position, double heading, double speed)>;
template <class V>
VehicleFactory vehicle_factory() {
  return [](Road* road, const Vec2& position, double heading, double speed) -> std::shared_ptr<Vehicle> {
    return std::make_shared<V>(road, position, heading, speed);
  };
}
// functools.partial(MDPVehicle, target_speeds=target_speeds) (DiscreteMetaAction.vehicle_class).
VehicleFactory mdp_vehicle_factory(std::vector<double> target_speeds);

// The vehicle classes a config can name (other_vehicles_type, change_vehicles).
enum class VehicleClass : int {
  Vehicle,
  ControlledVehicle,
  MDPVehicle,
  IDMVehicle,
  LinearVehicle,
  AggressiveVehicle,
  DefensiveVehicle,
  BicycleVehicle,
};
// "highway_env.vehicle.behavior.IDMVehicle" (a class path as utils.class_from_path takes it) or the bare
// class name "IDMVehicle"; throws std::invalid_argument for anything else.
VehicleClass vehicle_class_from_path(std::string_view path);
std::string_view vehicle_class_name(VehicleClass cls);
VehicleFactory vehicle_factory(VehicleClass cls);
// cls.create_from(vehicle) for a class chosen at run time.
std::shared_ptr<Vehicle> create_from(VehicleClass cls, const Vehicle& vehicle);

// Python's create_random keyword arguments (use designated initializers: {.speed = 25, .lane_id = 1}).
struct CreateRandomArgs {
  std::optional<double> speed;           // None: random (from the lane's speed limit if it has one)
  std::optional<std::string> lane_from;  // None or "": random
  std::optional<std::string> lane_to;    // None or "": random
  std::optional<int> lane_id;            // None: random
  double spacing = 1;                    // ratio of spacing to the front vehicle
};

// One entry of a vehicle's recent trajectory (Python keeps whole vehicle copies, for display).
struct VehicleSnapshot {
  Vec2 position;
  double heading;
  double speed;
};

class Vehicle : public RoadObject {
 public:
  static constexpr double LENGTH = 5.0;  // Vehicle length [m]
  static constexpr double WIDTH = 2.0;   // Vehicle width [m]
  static constexpr std::array<double, 2> DEFAULT_INITIAL_SPEEDS{23, 25};  // Range for random initial speeds
  static constexpr double MAX_SPEED = 40.0;   // Maximum reachable speed [m/s]
  static constexpr double MIN_SPEED = -40.0;  // Minimum reachable speed [m/s]
  static constexpr int HISTORY_SIZE = 30;     // Length of the vehicle state history

  Vehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
          std::string predition_type = "constant_steering");

  // Python's classmethod create_random with cls (an empty factory: Vehicle): lane (from, to, id) and speed
  // chosen at random unless given, placed behind the farthest vehicle of the road along that lane. Draws as
  // Python does: choice(from nodes), choice(to nodes), integers(lane count) for those not given, then
  // uniform(0.7, 0.8 x speed limit) (or uniform(23, 25) without a limit) if no speed, then uniform(0.9, 1.1).
  static std::shared_ptr<Vehicle> create_random(const VehicleFactory& cls, Road& road,
                                                const CreateRandomArgs& args = {});
  // Python's classmethod make_on_lane with cls (an empty factory: Vehicle; speed nullopt: the lane's speed
  // limit, std::invalid_argument if the lane has none).
  static std::shared_ptr<Vehicle> make_on_lane(const VehicleFactory& cls, Road& road, const LaneIndex& lane_index,
                                               double longitudinal, std::optional<double> speed = std::nullopt);
  // Vehicle.create_from: same road, position, heading, speed (and color).
  static std::shared_ptr<Vehicle> create_from(const Vehicle& vehicle);
  // copy.deepcopy(self), keeping the same road.
  virtual std::shared_ptr<Vehicle> clone() const;
  unsigned kinds() const override { return KIND_VEHICLE; }

  // Store an action to be repeated (a control dict; None keeps the previous one).
  virtual void act(const Action& action = {});
  // Propagate the vehicle state given its actions.
  virtual void step(double dt);
  virtual void clip_actions();
  void on_state_update();
  virtual std::pair<std::vector<Vec2>, std::vector<double>> predict_trajectory_constant_speed(
      const std::vector<double>& times) const;

  Vec2 velocity() const override;
  Vec2 destination() const;
  Vec2 destination_direction() const;
  // (longitudinal, lateral, angle) offsets to the current lane; zeros without a lane.
  std::array<double, 3> lane_offset() const;
  ObjectDict to_dict(const RoadObject* origin_vehicle = nullptr, bool observe_intentions = true) const override;
  // Future states for a sequence of actions (each held action_duration), one every trajectory_timestep.
  virtual std::vector<std::shared_ptr<Vehicle>> predict_trajectory(const std::vector<Action>& actions,
                                                                   double action_duration,
                                                                   double trajectory_timestep, double dt) const;

  std::string prediction_type;
  ControlAction action;
  std::deque<VehicleSnapshot> history;  // most recent first, at most HISTORY_SIZE
  double max_speed = MAX_SPEED;         // Python's self.MAX_SPEED (ContinuousAction's speed_range sets it)
  double min_speed = MIN_SPEED;         // Python's self.MIN_SPEED
  std::optional<std::array<int, 3>> color;  // Python's optional `color` attribute (display only)
  std::shared_ptr<RoadObject> goal;         // Python's optional `goal` attribute (parking)
  bool is_yielding = false;                 // RegulatedRoad's attributes (Python: set on yielding vehicles)
  int yield_timer = 0;
};

class ControlledVehicle : public Vehicle {
 public:
  static constexpr double TAU_ACC = 0.6;      // [s]
  static constexpr double TAU_HEADING = 0.2;  // [s]
  static constexpr double TAU_LATERAL = 0.6;  // [s]
  static constexpr double TAU_PURSUIT = 0.5 * TAU_HEADING;  // [s]
  static constexpr double KP_A = 1 / TAU_ACC;
  static constexpr double KP_HEADING = 1 / TAU_HEADING;
  static constexpr double KP_LATERAL = 1 / TAU_LATERAL;  // [1/s]
  static constexpr double MAX_STEERING_ANGLE = std::numbers::pi / 3;  // [rad]
  static constexpr double DELTA_SPEED = 5;  // [m/s]

  // As Python: target_lane_index None -> the current lane; target_speed None or 0 -> the current speed.
  ControlledVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
                    std::optional<LaneIndex> target_lane_index = std::nullopt,
                    std::optional<double> target_speed = std::nullopt, std::optional<Route> route = std::nullopt);
  // ControlledVehicle.create_from (vehicle must be a ControlledVehicle, else std::invalid_argument).
  static std::shared_ptr<ControlledVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
  unsigned kinds() const override { return KIND_VEHICLE | KIND_CONTROLLED; }

  // Plan a route to a destination node (the current lane only if none is found).
  ControlledVehicle& plan_route_to(const std::string& destination);
  // A meta-action updates the target speed/lane; then steering and speed control (control dicts ignored).
  void act(const Action& action = {}) override;
  // At the end of a lane, automatically switch to a next one.
  void follow_road();
  // Steering wheel angle to follow the center of a lane [rad].
  virtual double steering_control(const LaneIndex& target_lane_index) const;
  // Acceleration command to reach a target speed [m/s2].
  double speed_control(double target_speed) const;
  std::vector<Route> get_routes_at_intersection() const;
  // Python's set_route_at_intersection(_to) with an int (Python's modulo on the route count).
  void set_route_at_intersection(int _to);
  // Python's set_route_at_intersection("random"): one np_random.integers(len(routes)) draw.
  void set_route_at_intersection_random();
  std::pair<std::vector<Vec2>, std::vector<double>> predict_trajectory_constant_speed(
      const std::vector<double>& times) const override;

  LaneIndex target_lane_index;
  double target_speed;
  std::optional<Route> route;  // nullopt = Python None (not the same as an empty list, e.g. intersections)
};

class MDPVehicle : public ControlledVehicle {
 public:
  static constexpr std::array<double, 3> DEFAULT_TARGET_SPEEDS{20, 25, 30};  // np.linspace(20, 30, 3)

  MDPVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
             std::optional<LaneIndex> target_lane_index = std::nullopt,
             std::optional<double> target_speed = std::nullopt,
             std::optional<std::vector<double>> target_speeds = std::nullopt,
             std::optional<Route> route = std::nullopt);
  // Python's inherited ControlledVehicle.create_from, building an MDPVehicle (default target speeds).
  static std::shared_ptr<MDPVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
  unsigned kinds() const override { return KIND_VEHICLE | KIND_CONTROLLED | KIND_MDP; }

  // FASTER/SLOWER pick the neighbouring allowed speed; other actions go to ControlledVehicle.act.
  void act(const Action& action = {}) override;
  double index_to_speed(int index) const;
  // Index of the closest allowed speed (assumes uniformly spaced target speeds, as Python).
  int speed_to_index(double speed) const;
  static int speed_to_index_default(double speed);
  // vehicle.speed_index for an MDPVehicle, else speed_to_index_default(vehicle.speed).
  static int get_speed_index(const Vehicle& vehicle);
  std::vector<std::shared_ptr<Vehicle>> predict_trajectory(const std::vector<Action>& actions,
                                                           double action_duration, double trajectory_timestep,
                                                           double dt) const override;

  std::vector<double> target_speeds;
  int speed_index;
};

// The object as a ControlledVehicle / MDPVehicle, or null (dynamic_cast by the kind bits).
inline const ControlledVehicle* as_controlled_vehicle(const RoadObject* o) {
  return o != nullptr && o->is_a(KIND_CONTROLLED) ? static_cast<const ControlledVehicle*>(o) : nullptr;
}
inline ControlledVehicle* as_controlled_vehicle(RoadObject* o) {
  return o != nullptr && o->is_a(KIND_CONTROLLED) ? static_cast<ControlledVehicle*>(o) : nullptr;
}
inline const MDPVehicle* as_mdp_vehicle(const RoadObject* o) {
  return o != nullptr && o->is_a(KIND_MDP) ? static_cast<const MDPVehicle*>(o) : nullptr;
}

}  // namespace rlpool::highway

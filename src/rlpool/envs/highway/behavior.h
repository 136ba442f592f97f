// Behaviour models of the other vehicles of the highway family: IDMVehicle (Intelligent Driver Model for
// the longitudinal control, MOBIL for lane changes), LinearVehicle (controllers linear in their parameters)
// and its AggressiveVehicle/DefensiveVehicle variants.
//
// Follows highway_env/vehicle/behavior.py (highway-env 1.12.1). Python's class attributes that instances,
// subclasses or scenarios change are instance members initialised from the class constants: delta (DELTA,
// drawn by randomize_behavior), distance_wanted, comfort_acc_max, comfort_acc_min (IntersectionEnv's
// _make_vehicles sets DISTANCE_WANTED = 7, COMFORT_ACC_MAX = 6, COMFORT_ACC_MIN = -3 on the class of its
// other vehicles, for good: a scenario port sets them on each vehicle of that class it creates),
// time_wanted (LinearVehicle's TIME_WANTED is 2.5), politeness,
// lane_change_min_acc_gain (1.0 for Aggressive/Defensive), lane_change_max_braking_imposed,
// acceleration_parameters / steering_parameters (LinearVehicle, drawn by randomize_behavior). As in Python,
// Aggressive/DefensiveVehicle inherit LinearVehicle's ACCELERATION_RANGE (computed from LinearVehicle's
// parameters), so their randomize_behavior draws LinearVehicle-like parameters.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "envs/highway/vehicle.h"

namespace rlpool::highway {

class IDMVehicle : public ControlledVehicle {
 public:
  // Longitudinal policy parameters
  static constexpr double ACC_MAX = 6.0;           // Maximum acceleration [m/s2]
  static constexpr double COMFORT_ACC_MAX = 3.0;   // Desired maximum acceleration [m/s2]
  static constexpr double COMFORT_ACC_MIN = -5.0;  // Desired maximum deceleration [m/s2]
  static constexpr double DISTANCE_WANTED = 5.0 + ControlledVehicle::LENGTH;  // Desired jam distance [m]
  static constexpr double TIME_WANTED = 1.5;       // Desired time gap to the front vehicle [s]
  static constexpr double DELTA = 4.0;             // Exponent of the velocity term
  static constexpr std::array<double, 2> DELTA_RANGE{3.5, 4.5};  // Range of delta when chosen randomly
  // Lateral policy parameters
  static constexpr double POLITENESS = 0.0;  // in [0, 1]
  static constexpr double LANE_CHANGE_MIN_ACC_GAIN = 0.2;         // [m/s2]
  static constexpr double LANE_CHANGE_MAX_BRAKING_IMPOSED = 2.0;  // [m/s2]
  static constexpr double LANE_CHANGE_DELAY = 1.0;                // [s]

  // timer None or 0: (sum(position) * pi) % LANE_CHANGE_DELAY, as Python.
  IDMVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
             std::optional<LaneIndex> target_lane_index = std::nullopt,
             std::optional<double> target_speed = std::nullopt, std::optional<Route> route = std::nullopt,
             bool enable_lane_change = true, std::optional<double> timer = std::nullopt);
  // IDMVehicle.create_from (vehicle must be a ControlledVehicle; its timer is kept if it has one).
  static std::shared_ptr<IDMVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
  unsigned kinds() const override { return KIND_VEHICLE | KIND_CONTROLLED | KIND_IDM; }

  // delta = np_random.uniform(DELTA_RANGE): one draw.
  virtual void randomize_behavior();
  // Decides its own action (IDM + MOBIL); the argument is ignored. Crashed vehicles keep their action.
  void act(const Action& action = {}) override;
  // Increases the decision timer, then steps the dynamics.
  void step(double dt) override;
  // IDM acceleration of ego_vehicle (any object: 0 unless it is a Vehicle) behind front_vehicle, with this
  // vehicle's parameters.
  virtual double acceleration(const RoadObject* ego_vehicle, const RoadObject* front_vehicle = nullptr,
                              const RoadObject* rear_vehicle = nullptr) const;
  // Desired distance between a vehicle and its leading vehicle.
  double desired_gap(const RoadObject& ego_vehicle, const RoadObject& front_vehicle, bool projected = true) const;
  // Decide when to change lane (frequency, reachable lanes, MOBIL); may abort an ongoing change.
  void change_lane_policy();
  // MOBIL: is a change to lane_index safe and worth it?
  bool mobil(const LaneIndex& lane_index) const;
  // If stopped on the wrong lane, try a reversing maneuver (unused by act(), as in Python; Python passes a
  // lane object where a lane index is expected here, this port passes the target lane index).
  double recover_from_stop(double acceleration) const;

  bool enable_lane_change;
  double timer;
  double delta = DELTA;
  double distance_wanted = DISTANCE_WANTED;
  double comfort_acc_max = COMFORT_ACC_MAX;
  double comfort_acc_min = COMFORT_ACC_MIN;
  double time_wanted = TIME_WANTED;
  double politeness = POLITENESS;
  double lane_change_min_acc_gain = LANE_CHANGE_MIN_ACC_GAIN;
  double lane_change_max_braking_imposed = LANE_CHANGE_MAX_BRAKING_IMPOSED;
};

// LinearVehicle.data: features and outputs collected for parameter regression.
struct LinearData {
  std::vector<std::array<double, 3>> longitudinal_features;
  std::vector<double> longitudinal_outputs;
  std::vector<std::array<double, 2>> lateral_features;
  std::vector<double> lateral_outputs;
};

// Matrices of LinearVehicle's longitudinal/lateral structures (A, phi).
template <std::size_t N>
using SquareMatrix = std::array<std::array<double, N>, N>;
struct LongitudinalStructure {
  SquareMatrix<4> A;
  std::array<SquareMatrix<4>, 3> phi;
};
struct LateralStructure {
  SquareMatrix<2> A;
  std::array<SquareMatrix<2>, 2> phi;
};

class LinearVehicle : public IDMVehicle {
 public:
  static constexpr std::array<double, 3> ACCELERATION_PARAMETERS{0.3, 0.3, 2.0};
  static constexpr std::array<double, 2> STEERING_PARAMETERS{ControlledVehicle::KP_HEADING,
                                                             ControlledVehicle::KP_HEADING *
                                                                 ControlledVehicle::KP_LATERAL};
  static constexpr std::array<std::array<double, 3>, 2> ACCELERATION_RANGE{{
      {0.5 * 0.3, 0.5 * 0.3, 0.5 * 2.0},
      {1.5 * 0.3, 1.5 * 0.3, 1.5 * 2.0},
  }};
  static constexpr std::array<std::array<double, 2>, 2> STEERING_RANGE{{
      {STEERING_PARAMETERS[0] - 0.07, STEERING_PARAMETERS[1] - 1.5},
      {STEERING_PARAMETERS[0] + 0.07, STEERING_PARAMETERS[1] + 1.5},
  }};
  static constexpr double TIME_WANTED = 2.5;

  LinearVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
                std::optional<LaneIndex> target_lane_index = std::nullopt,
                std::optional<double> target_speed = std::nullopt, std::optional<Route> route = std::nullopt,
                bool enable_lane_change = true, std::optional<double> timer = std::nullopt,
                std::optional<LinearData> data = std::nullopt);
  static std::shared_ptr<LinearVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
  unsigned kinds() const override { return KIND_VEHICLE | KIND_CONTROLLED | KIND_IDM | KIND_LINEAR; }

  // Collects data (if collecting_data), then IDMVehicle.act.
  void act(const Action& action = {}) override;
  // 3 uniform draws (acceleration parameters), 2 (steering parameters), then IDMVehicle's delta draw.
  void randomize_behavior() override;
  // Linear model: acceleration_parameters . acceleration_features (ego_vehicle may be any object).
  double acceleration(const RoadObject* ego_vehicle, const RoadObject* front_vehicle = nullptr,
                      const RoadObject* rear_vehicle = nullptr) const override;
  std::array<double, 3> acceleration_features(const RoadObject* ego_vehicle,
                                              const RoadObject* front_vehicle = nullptr,
                                              const RoadObject* rear_vehicle = nullptr) const;
  // Linear controller: steering_parameters . steering_features.
  double steering_control(const LaneIndex& target_lane_index) const override;
  std::array<double, 2> steering_features(const LaneIndex& target_lane_index) const;
  LongitudinalStructure longitudinal_structure() const;
  LateralStructure lateral_structure() const;
  // Store features and outputs for parameter regression.
  void collect_data();
  void add_features(LinearData& data, const LaneIndex& lane_index,
                    std::optional<LaneIndex> output_lane = std::nullopt) const;

  std::array<double, 3> acceleration_parameters;  // Python's self.ACCELERATION_PARAMETERS
  std::array<double, 2> steering_parameters;      // Python's self.STEERING_PARAMETERS
  LinearData data;
  bool collecting_data = true;  // as Python (the data only grows; nothing reads it during a simulation)

 protected:
  // For subclasses with other ACCELERATION_PARAMETERS / LANE_CHANGE_MIN_ACC_GAIN.
  void set_class_parameters(const std::array<double, 3>& acceleration_parameters, double lane_change_min_acc_gain);
};

class AggressiveVehicle : public LinearVehicle {
 public:
  static constexpr double LANE_CHANGE_MIN_ACC_GAIN = 1.0;  // [m/s2]
  static constexpr double MERGE_ACC_GAIN = 0.8;
  static constexpr double MERGE_VEL_RATIO = 0.75;
  static constexpr double MERGE_TARGET_VEL = 30;
  static constexpr std::array<double, 3> ACCELERATION_PARAMETERS{
      MERGE_ACC_GAIN / ((1 - MERGE_VEL_RATIO) * MERGE_TARGET_VEL),
      MERGE_ACC_GAIN / (MERGE_VEL_RATIO * MERGE_TARGET_VEL),
      0.5,
  };

  AggressiveVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
                    std::optional<LaneIndex> target_lane_index = std::nullopt,
                    std::optional<double> target_speed = std::nullopt, std::optional<Route> route = std::nullopt,
                    bool enable_lane_change = true, std::optional<double> timer = std::nullopt,
                    std::optional<LinearData> data = std::nullopt);
  static std::shared_ptr<AggressiveVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
};

class DefensiveVehicle : public LinearVehicle {
 public:
  static constexpr double LANE_CHANGE_MIN_ACC_GAIN = 1.0;  // [m/s2]
  static constexpr double MERGE_ACC_GAIN = 1.2;
  static constexpr double MERGE_VEL_RATIO = 0.75;
  static constexpr double MERGE_TARGET_VEL = 30;
  static constexpr std::array<double, 3> ACCELERATION_PARAMETERS{
      MERGE_ACC_GAIN / ((1 - MERGE_VEL_RATIO) * MERGE_TARGET_VEL),
      MERGE_ACC_GAIN / (MERGE_VEL_RATIO * MERGE_TARGET_VEL),
      2.0,
  };

  DefensiveVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0,
                   std::optional<LaneIndex> target_lane_index = std::nullopt,
                   std::optional<double> target_speed = std::nullopt, std::optional<Route> route = std::nullopt,
                   bool enable_lane_change = true, std::optional<double> timer = std::nullopt,
                   std::optional<LinearData> data = std::nullopt);
  static std::shared_ptr<DefensiveVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
};

}  // namespace rlpool::highway

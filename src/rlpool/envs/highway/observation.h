// Observation types of the highway family: what an observer vehicle sees, written into the env's observation
// arrays. Kinematics (KinematicObservation: the observer's and its closest vehicles' features, float32
// [vehicles_count, features]), ExitObservation (Kinematics with the distance along the exit lane),
// OccupancyGrid (float32 or uint8 [features, cells_x, cells_y]), TimeToCollision (float32 [3, 3, horizon *
// policy_frequency]), KinematicsGoal (a dict of float64 observation / achieved_goal / desired_goal),
// AttributesObservation (a dict of float64 env attributes), LidarObservation (float32 [cells, 2]).
// GrayscaleObservation (uint8 [stack_size, width, height]: the last frames of its own viewer, drawn by
// render.h, in gray). MultiAgentObservation is one observation type per controlled vehicle (the env's agents,
// on the arrays' first axis).
//
// Follows highway_env/envs/common/observation.py and finite_mdp.py's compute_ttc_grid (highway-env 1.12.1).
// Values are computed in float64 in Python's order and rounded to float32 at the end, as numpy's
// `obs.astype(np.float32)` does; pandas' NaN (a feature an object's to_dict lacks) stays NaN.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "_core/env/env.h"
#include "envs/highway/env_options.h"
#include "envs/highway/road.h"
#include "envs/highway/vehicle.h"

namespace rlpool::highway {

class AbstractEnv;
struct ScenarioInfo;

class ObservationType {
 public:
  ObservationType(AbstractEnv& env, const ObservationConfig& config) : env_(env), config_(config) {}
  virtual ~ObservationType() = default;
  ObservationType(const ObservationType&) = delete;
  ObservationType& operator=(const ObservationType&) = delete;

  // Writes the observation into `entries` (one pointer per entry of observation_entries, for this agent).
  virtual void observe(void* const* entries) = 0;

  // The vehicle observing the scene: set by MultiAgentObservation, else the env's first controlled vehicle.
  Vehicle* observer_vehicle() const;
  void set_observer_vehicle(Vehicle* vehicle) { observer_ = vehicle; }

 protected:
  AbstractEnv& env_;
  ObservationConfig config_;
  Vehicle* observer_ = nullptr;
};

// KinematicObservation (and ExitObservation with `exit`).
class KinematicObservation : public ObservationType {
 public:
  KinematicObservation(AbstractEnv& env, const ObservationConfig& config, bool exit = false);
  void observe(void* const* entries) override;
  // The rows before normalisation, in float64: the observer's, then its close objects' (at most
  // vehicles_count rows, NaN where an object lacks a feature).
  std::vector<std::vector<double>> rows();

 protected:
  void normalize(std::vector<std::vector<double>>& rows);
  bool exit_;
  FeatureRanges ranges_;  // features_range: the option's, else highway-env's defaults from the first observe
};

class OccupancyGridObservation final : public ObservationType {
 public:
  OccupancyGridObservation(AbstractEnv& env, const ObservationConfig& config);
  void observe(void* const* entries) override;
  // Python's pos_to_index(position, relative).
  std::array<std::int64_t, 2> pos_to_index(Vec2 position, bool relative = false) const;
  Vec2 index_to_pos(std::int64_t i, std::int64_t j) const;

 private:
  void fill_road_layer_by_lanes(std::size_t layer, double lane_perception_distance = 100);
  std::int64_t cells_x_, cells_y_;
  FeatureRanges ranges_;
  std::vector<double> grid_;  // [features, cells_x, cells_y]
};

class TimeToCollisionObservation final : public ObservationType {
 public:
  TimeToCollisionObservation(AbstractEnv& env, const ObservationConfig& config);
  void observe(void* const* entries) override;
};

class KinematicsGoalObservation final : public ObservationType {
 public:
  KinematicsGoalObservation(AbstractEnv& env, const ObservationConfig& config);
  void observe(void* const* entries) override;
  // The (observation, achieved_goal, desired_goal) vectors of the observer (features / scales).
  std::array<std::vector<double>, 3> goal_observation() const;
};

class AttributesObservation final : public ObservationType {
 public:
  AttributesObservation(AbstractEnv& env, const ObservationConfig& config) : ObservationType(env, config) {}
  void observe(void* const* entries) override;
};

class LidarObservation final : public ObservationType {
 public:
  static constexpr int DISTANCE = 0;
  static constexpr int SPEED = 1;
  LidarObservation(AbstractEnv& env, const ObservationConfig& config);
  void observe(void* const* entries) override;
  // Python's trace(origin, origin_velocity): [cells, 2] distances and speeds, float32 as Python keeps them.
  const std::vector<float>& trace(const Vec2& origin, const Vec2& origin_velocity);
  // What the last trace left (for the viewer's lidar overlay): its origin and grid.
  const Vec2& origin() const { return origin_; }
  const std::vector<float>& grid() const { return grid_; }
  int cells() const { return config_.cells; }
  double maximum_range() const { return config_.maximum_range; }

 private:
  double position_to_angle(const Vec2& position, const Vec2& origin) const;
  std::int64_t angle_to_index(double angle) const;
  Vec2 index_to_direction(std::int64_t index) const;
  double angle_;
  Vec2 origin_{0.0, 0.0};
  std::vector<float> grid_;
};

class GrayscaleObservation final : public ObservationType {
 public:
  GrayscaleObservation(AbstractEnv& env, const ObservationConfig& config);
  void observe(void* const* entries) override;

 private:
  std::vector<std::uint8_t> stack_;  // [stack_size, width, height], zeros at the start of an episode
};

// The observation type of `config` (one agent's).
std::unique_ptr<ObservationType> observation_factory(AbstractEnv& env, const ObservationConfig& config);

// One agent's observation entries for these options (names, dtypes, shapes, bounds), and how Python sees
// them (one array, or a dict). `policy_frequency` sizes TimeToCollision's time axis.
std::vector<ArraySpec> observation_entries(const EnvOptions& options, const ScenarioInfo& info);
ObsKind observation_kind(const ObservationConfig& config);

}  // namespace rlpool::highway

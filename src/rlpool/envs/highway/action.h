// Action types of the highway family: how an agent's action reaches its controlled vehicle, and which
// vehicle class a controlled vehicle is. DiscreteMetaAction (lane changes and cruise-control set points,
// MDPVehicle), ContinuousAction (throttle and/or steering in [-1, 1] mapped to acceleration_range /
// steering_range, Vehicle or BicycleVehicle), DiscreteAction (ContinuousAction quantised to
// actions_per_axis values per axis); MultiAgentAction is one action type per controlled vehicle (the env's
// agents).
//
// Follows highway_env/envs/common/action.py (highway-env 1.12.1).
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
struct ActionView;

class ActionType {
 public:
  ActionType(AbstractEnv& env, const ActionConfig& config) : env_(env), config_(config) {}
  virtual ~ActionType() = default;
  ActionType(const ActionType&) = delete;
  ActionType& operator=(const ActionType&) = delete;

  // One agent's action space (Python's space()).
  virtual ArraySpec space() const = 0;
  // Python's vehicle_class(road, position, heading, speed): a controlled vehicle of this action type's class.
  virtual std::shared_ptr<Vehicle> make_vehicle(Road& road, const Vec2& position, double heading,
                                                double speed) const = 0;
  // Python's act(action) for agent `agent`'s part of the action.
  virtual void act(const ActionView& action, std::size_t agent) = 0;

  // The vehicle acted upon: set by MultiAgentAction, else the env's first controlled vehicle.
  Vehicle* controlled_vehicle() const;
  void set_controlled_vehicle(Vehicle* vehicle) { controlled_ = vehicle; }

 protected:
  AbstractEnv& env_;
  ActionConfig config_;
  Vehicle* controlled_ = nullptr;
};

// DiscreteMetaAction: ACTIONS_ALL {0: LANE_LEFT, 1: IDLE, 2: LANE_RIGHT, 3: FASTER, 4: SLOWER}, or
// ACTIONS_LONGI {0: SLOWER, 1: IDLE, 2: FASTER}, or ACTIONS_LAT {0: LANE_LEFT, 1: IDLE, 2: LANE_RIGHT}.
class DiscreteMetaAction final : public ActionType {
 public:
  DiscreteMetaAction(AbstractEnv& env, const ActionConfig& config);
  ArraySpec space() const override;
  std::shared_ptr<Vehicle> make_vehicle(Road& road, const Vec2& position, double heading,
                                        double speed) const override;
  void act(const ActionView& action, std::size_t agent) override;
  const std::vector<std::string>& actions() const { return actions_; }
  // get_available_actions(): the indexes of the actions available now.
  std::vector<std::int64_t> get_available_actions() const;

 private:
  std::vector<std::string> actions_;
};

// ContinuousAction: [throttle, steering] (or one of them) in [-1, 1].
class ContinuousAction : public ActionType {
 public:
  static constexpr std::array<double, 2> ACCELERATION_RANGE{-5, 5.0};

  ContinuousAction(AbstractEnv& env, const ActionConfig& config);
  ArraySpec space() const override;
  std::shared_ptr<Vehicle> make_vehicle(Road& road, const Vec2& position, double heading,
                                        double speed) const override;
  void act(const ActionView& action, std::size_t agent) override;
  // get_action + act on the controlled vehicle for `size()` values in [-1, 1] (clipped if `clip`).
  void act_values(const double* values);
  std::size_t size() const { return size_; }
  // last_action: the values of the last act (zeros before).
  const std::vector<double>& last_action() const { return last_action_; }

 protected:
  std::size_t size_;
  std::vector<double> last_action_;
};

// DiscreteAction: actions_per_axis ** size discrete actions, the points of itertools.product of the axes'
// np.linspace(-1, 1, actions_per_axis).
class DiscreteAction final : public ContinuousAction {
 public:
  DiscreteAction(AbstractEnv& env, const ActionConfig& config);
  ArraySpec space() const override;
  void act(const ActionView& action, std::size_t agent) override;
};

// The action type of `config` (ContinuousAction, DiscreteAction or DiscreteMetaAction: a multi-agent env
// makes one per agent).
std::unique_ptr<ActionType> action_factory(AbstractEnv& env, const ActionConfig& config);

// One agent's action space for these options, without an env (for the spec).
ArraySpec action_space(const ActionConfig& config);

}  // namespace rlpool::highway

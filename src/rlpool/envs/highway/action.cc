// Action types of the highway family. Follows highway_env/envs/common/action.py (highway-env 1.12.1).
//
// ContinuousAction's mapping runs in float32, as highway-env's does for the float32 actions its float32
// Box space gives (numpy 2's rules: np.clip of a float32 array is float32, and a float32 scalar combined
// with a Python float stays float32): each action value is rounded to float32 first, and every step of
// utils.lmap is rounded to float32. The vehicle then widens the results to float64, as Python's
// clip_actions does (float(...)).
#include "envs/highway/action.h"

#include <cmath>
#include <stdexcept>

#include "envs/highway/dynamics.h"
#include "envs/highway/highway_env.h"

namespace rlpool::highway {
namespace {

// utils.lmap(v, [-1, 1], [y0, y1]) with a float32 v, in numpy 2's float32 arithmetic: the Python numbers
// (y0, y1 - y0 computed in float64, -1, 2) are cast to float32 where they meet the float32 value.
float lmap_f32(float v, double y0, double y1) {
  const float shifted = v - static_cast<float>(-1);
  const float scaled = shifted * static_cast<float>(y1 - y0);
  const float ratio = scaled / static_cast<float>(1 - (-1));
  return static_cast<float>(y0) + ratio;
}

// np.clip(float32, -1, 1).
float clip_f32(float v) { return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v); }

std::vector<std::string> meta_actions(const ActionConfig& c) {
  if (c.longitudinal && c.lateral) return {"LANE_LEFT", "IDLE", "LANE_RIGHT", "FASTER", "SLOWER"};
  if (c.longitudinal) return {"SLOWER", "IDLE", "FASTER"};
  return {"LANE_LEFT", "IDLE", "LANE_RIGHT"};
}

std::size_t continuous_size(const ActionConfig& c) { return c.lateral && c.longitudinal ? 2 : 1; }

}  // namespace

Vehicle* ActionType::controlled_vehicle() const { return controlled_ != nullptr ? controlled_ : env_.vehicle(); }

// --------------------------------------------------------------------------- DiscreteMetaAction

DiscreteMetaAction::DiscreteMetaAction(AbstractEnv& env, const ActionConfig& config)
    : ActionType(env, config), actions_(meta_actions(config)) {}

ArraySpec DiscreteMetaAction::space() const {
  return ArraySpec{.name = "action",
                   .dtype = DType::kInt64,
                   .shape = {},
                   .low = {0},
                   .high = {static_cast<double>(actions_.size() - 1)}};
}

std::shared_ptr<Vehicle> DiscreteMetaAction::make_vehicle(Road& road, const Vec2& position, double heading,
                                                          double speed) const {
  return mdp_vehicle_factory(config_.target_speeds)(&road, position, heading, speed);
}

void DiscreteMetaAction::act(const ActionView& action, std::size_t agent) {
  const std::int64_t a = action.discrete(agent);
  controlled_vehicle()->act(meta_action_from_name(actions_.at(static_cast<std::size_t>(a))));
}

std::vector<std::int64_t> DiscreteMetaAction::get_available_actions() const {
  const auto index_of = [&](const std::string& name) -> std::int64_t {
    for (std::size_t i = 0; i < actions_.size(); ++i) {
      if (actions_[i] == name) return static_cast<std::int64_t>(i);
    }
    return -1;
  };
  Vehicle* v = controlled_vehicle();
  std::vector<std::int64_t> out = {index_of("IDLE")};
  const RoadNetwork& network = v->road->network;
  for (const LaneIndex& l_index : network.side_lanes(v->lane_index)) {
    if (l_index.id < v->lane_index.id && network.get_lane(l_index).is_reachable_from(v->position) &&
        config_.lateral) {
      out.push_back(index_of("LANE_LEFT"));
    }
    if (l_index.id > v->lane_index.id && network.get_lane(l_index).is_reachable_from(v->position) &&
        config_.lateral) {
      out.push_back(index_of("LANE_RIGHT"));
    }
  }
  const auto* mdp = as_mdp_vehicle(v);
  if (mdp != nullptr) {
    if (mdp->speed_index < static_cast<int>(mdp->target_speeds.size()) - 1 && config_.longitudinal) {
      out.push_back(index_of("FASTER"));
    }
    if (mdp->speed_index > 0 && config_.longitudinal) out.push_back(index_of("SLOWER"));
  }
  return out;
}

// --------------------------------------------------------------------------- ContinuousAction

ContinuousAction::ContinuousAction(AbstractEnv& env, const ActionConfig& config)
    : ActionType(env, config), size_(continuous_size(config)), last_action_(size_, 0.0) {}

ArraySpec ContinuousAction::space() const {
  return ArraySpec{.name = "action",
                   .dtype = DType::kFloat32,
                   .shape = {static_cast<std::int64_t>(size_)},
                   .low = std::vector<double>(size_, -1.0),
                   .high = std::vector<double>(size_, 1.0)};
}

std::shared_ptr<Vehicle> ContinuousAction::make_vehicle(Road& road, const Vec2& position, double heading,
                                                        double speed) const {
  if (config_.dynamical) return std::make_shared<BicycleVehicle>(&road, position, heading, speed);
  return std::make_shared<Vehicle>(&road, position, heading, speed);
}

void ContinuousAction::act(const ActionView& action, std::size_t agent) {
  act_values(action.continuous(agent));
}

void ContinuousAction::act_values(const double* values) {
  std::vector<float> a(size_);
  for (std::size_t i = 0; i < size_; ++i) {
    a[i] = static_cast<float>(values[i]);
    if (config_.clip) a[i] = clip_f32(a[i]);
  }
  Vehicle* v = controlled_vehicle();
  if (config_.has_speed_range) {
    v->min_speed = config_.speed_range[0];
    v->max_speed = config_.speed_range[1];
  }
  ControlAction control;
  if (config_.longitudinal && config_.lateral) {
    control.acceleration = lmap_f32(a[0], config_.acceleration_range[0], config_.acceleration_range[1]);
    control.steering = lmap_f32(a[1], config_.steering_range[0], config_.steering_range[1]);
  } else if (config_.longitudinal) {
    control.acceleration = lmap_f32(a[0], config_.acceleration_range[0], config_.acceleration_range[1]);
    control.steering = 0;
  } else {
    control.acceleration = 0;
    control.steering = lmap_f32(a[0], config_.steering_range[0], config_.steering_range[1]);
  }
  v->act(control);
  for (std::size_t i = 0; i < size_; ++i) last_action_[i] = static_cast<float>(values[i]);
}

// --------------------------------------------------------------------------- DiscreteAction

namespace {
// DiscreteAction's constructor passes no speed_range to ContinuousAction (highway-env ignores it there).
ActionConfig without_speed_range(ActionConfig c) {
  c.has_speed_range = false;
  return c;
}
}  // namespace

DiscreteAction::DiscreteAction(AbstractEnv& env, const ActionConfig& config)
    : ContinuousAction(env, without_speed_range(config)) {}

ArraySpec DiscreteAction::space() const { return action_space(config_); }

void DiscreteAction::act(const ActionView& action, std::size_t agent) {
  // np.linspace(low, high, n) of the float32 [-1, 1] bounds, in float32: i * step + start, the last point
  // `stop`; itertools.product of the axes: the first axis varies slowest.
  const int n = config_.actions_per_axis;
  std::vector<float> axis(static_cast<std::size_t>(n));
  const float start = -1.0f, stop = 1.0f;
  const float step = n > 1 ? (stop - start) / static_cast<float>(n - 1) : 0.0f;
  for (int i = 0; i < n; ++i) axis[static_cast<std::size_t>(i)] = static_cast<float>(i) * step + start;
  if (n > 1) axis.back() = stop;
  std::int64_t index = action.discrete(agent);
  std::vector<double> values(size_);
  for (std::size_t k = size_; k-- > 0;) {
    values[k] = axis[static_cast<std::size_t>(index % n)];
    index /= n;
  }
  act_values(values.data());
}

// --------------------------------------------------------------------------- factory and spaces

std::unique_ptr<ActionType> action_factory(AbstractEnv& env, const ActionConfig& config) {
  if (config.type == "ContinuousAction") return std::make_unique<ContinuousAction>(env, config);
  if (config.type == "DiscreteAction") return std::make_unique<DiscreteAction>(env, config);
  if (config.type == "DiscreteMetaAction") return std::make_unique<DiscreteMetaAction>(env, config);
  throw std::invalid_argument("Unknown action type '" + config.type + "'");
}

ArraySpec action_space(const ActionConfig& config) {
  if (config.type == "DiscreteMetaAction") {
    return ArraySpec{.name = "action",
                     .dtype = DType::kInt64,
                     .shape = {},
                     .low = {0},
                     .high = {static_cast<double>(meta_actions(config).size() - 1)}};
  }
  const std::size_t size = continuous_size(config);
  if (config.type == "DiscreteAction") {
    double n = 1;
    for (std::size_t i = 0; i < size; ++i) n *= config.actions_per_axis;
    return ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {n - 1}};
  }
  if (config.type == "ContinuousAction") {
    return ArraySpec{.name = "action",
                     .dtype = DType::kFloat32,
                     .shape = {static_cast<std::int64_t>(size)},
                     .low = std::vector<double>(size, -1.0),
                     .high = std::vector<double>(size, 1.0)};
  }
  throw std::invalid_argument("Unknown action type '" + config.type + "'");
}

}  // namespace rlpool::highway

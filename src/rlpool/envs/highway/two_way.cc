// The TwoWay scenario: TwoWayEnv (two-way-v0). The ego vehicle drives on a two-lane road whose left lane
// carries oncoming traffic; it is rewarded for a high speed and for the left lane (to overtake), which it
// must balance against the risk of a head-on collision. Observed as a time-to-collision grid. The episode
// ends with a collision; it never truncates itself (gymnasium's registration limits it to 15 steps).
//
// Follows highway_env/envs/two_way_env.py (highway-env 1.12.1). Its rewards read the ego vehicle's
// speed_index and target speeds (an MDPVehicle's), so the action type must be DiscreteMetaAction with at
// least two target speeds (highway-env fails otherwise: no attribute, or a division by zero).
// left_lane_constraint and collision_reward are config keys that highway-env's TwoWayEnv does not use.
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/geometry.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

class TwoWayEnv final : public AbstractEnv {
 public:
  TwoWayEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        left_lane_reward_(config.get_finite("left_lane_reward")) {}

  static ScenarioInfo info(const Config& config) {
    check(config);
    return {.reward_names = {"high_speed_reward", "left_lane_reward"}};
  }

 protected:
  void reset_scene() override {
    road_ = std::make_unique<Road>(make_two_way_road(800), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    make_vehicles();
  }

  // _reward: sum(config[name] * reward) over _rewards (not normalised).
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    reward = reward + high_speed_reward_ * r[0];
    reward = reward + left_lane_reward_ * r[1];
    return reward;
  }

  std::vector<double> rewards(const ActionView& /*action*/) override {
    const auto& v = mdp_vehicle();
    const auto neighbours = static_cast<double>(road().network.all_side_lanes(v.lane_index).size());
    return {
        static_cast<double>(v.speed_index) / static_cast<double>(v.target_speeds.size() - 1),
        (neighbours - 1 - v.target_lane_index.id) / (neighbours - 1),
    };
  }

  bool is_terminated() override { return vehicle()->crashed; }
  bool is_truncated() override { return false; }

 private:
  static void check(const Config& config) {
    config.get_finite("high_speed_reward");
    config.get_finite("left_lane_reward");
    config.get_finite("collision_reward");
    config.get_finite("left_lane_constraint");
    const EnvOptions o = parse_env_options(config);
    if (o.action.type != "DiscreteMetaAction" || o.action.multi_agent) {
      throw std::invalid_argument("TwoWayEnv's rewards need a DiscreteMetaAction (the ego vehicle's speed_index), "
                                  "got action_type '" + config.get_string("action_type") + "'");
    }
    if (!o.action.target_speeds.empty() && o.action.target_speeds.size() < 2) {
      throw std::invalid_argument("TwoWayEnv's rewards need at least two action_target_speeds");
    }
  }

  const MDPVehicle& mdp_vehicle() const {
    const auto* v = as_mdp_vehicle(vehicle());
    if (v == nullptr) throw std::logic_error("highway: TwoWayEnv's ego vehicle is not an MDPVehicle");
    return *v;
  }

  // _make_vehicles: the ego vehicle, three vehicles ahead on its lane, two oncoming on the other lane.
  void make_vehicles() {
    Road& road = *road_;
    const AbstractLane& lane = road.network.get_lane({"a", "b", 1});
    auto ego = action_type().make_vehicle(road, lane.position(30.0, 0.0), 0, 30.0);
    road.vehicles.push_back(ego);
    controlled_vehicles_ = {ego.get()};

    const VehicleFactory vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    for (int i = 0; i < 3; ++i) {
      const double x = 70.0 + 40.0 * static_cast<double>(i);
      const Vec2 position = lane.position(x + 10.0 * np_random().normal(), 0.00);
      const double speed = 24.0 + 2.0 * np_random().normal();
      auto v = vehicles_type(&road, position, lane.heading_at(x), speed);
      idm(*v).enable_lane_change = false;
      road.vehicles.push_back(v);
    }
    const AbstractLane& oncoming = road.network.get_lane({"b", "a", 0});
    for (int i = 0; i < 2; ++i) {
      const double x = 200.0 + 100.0 * static_cast<double>(i);
      const Vec2 position = oncoming.position(x + 10.0 * np_random().normal(), 0);
      const double speed = 20.0 + 5.0 * np_random().normal();
      auto v = vehicles_type(&road, position, oncoming.heading_at(x), speed);
      idm(*v).enable_lane_change = false;
      idm(*v).target_lane_index = LaneIndex{"b", "a", 0};
      road.vehicles.push_back(v);
    }
  }

  static IDMVehicle& idm(Vehicle& vehicle) {
    auto* v = dynamic_cast<IDMVehicle*>(&vehicle);
    if (v == nullptr) throw std::logic_error("highway: TwoWayEnv's other vehicles must be IDMVehicles");
    return *v;
  }

  double high_speed_reward_;
  double left_lane_reward_;
};

std::vector<Option> two_way_options() {
  // gymnasium's registration (and EnvPool 1.2.7) stop the episode at 15 steps; duration is no key of
  // highway-env's TwoWayEnv, which never truncates itself.
  std::vector<Option> options = abstract_env_options({
      {"duration", 15.0},
      {"observation_type", std::string("TimeToCollision")},
      {"observation_horizon", std::int64_t{5}},
  });
  const std::vector<Option> own = {
      {"collision_reward", 0.0, "Reward weight of a collision (unused by TwoWayEnv, as in highway-env)."},
      {"left_lane_constraint", 1.0, "Constraint weight of the left lane (unused by TwoWayEnv, as in highway-env)."},
      {"left_lane_reward", 0.2, "Reward weight of the left-most target lane (linear in the lane index)."},
      {"high_speed_reward", 0.8, "Reward weight of the target speed index (linear over the target speeds)."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

static const bool kTwoWay = register_scenario<TwoWayEnv>("TwoWayEnv", two_way_options());

}  // namespace
}  // namespace rlpool::highway

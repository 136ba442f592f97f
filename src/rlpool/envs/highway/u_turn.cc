// The U-turn scenario: UTurnEnv (u-turn-v0; u-turn-v1 is ConnectedLaneUTurnEnv, the same type with
// neighbour_vehicles_connected_lanes). The ego vehicle drives a two-lane road with a counter-clockwise
// U-turn and overtakes six slow vehicles that block the traffic, rewarded for speed and the left-most lane
// (highway-env's "left_lane_reward" is the lane index over the lane count, as the highway's right lane
// reward), punished for collisions.
//
// Follows highway_env/envs/u_turn_env.py (highway-env 1.12.1); the road is layouts.h's make_u_turn_road.
// highway-env sets `ego_vehicle.PURSUIT_TAU = MDPVehicle.TAU_HEADING` ("stronger anticipation for the
// turn"), an attribute no controller reads (they read TAU_PURSUIT): it changes nothing and has no
// counterpart here. Its config key offroad_terminal is unused by UTurnEnv, and an option here for the same
// reason.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/action.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

class UTurnEnv final : public AbstractEnv {
 public:
  UTurnEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        collision_reward_(config.get_finite("collision_reward")),
        left_lane_reward_(config.get_finite("left_lane_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        reward_speed_range_{config.get_finite("reward_speed_low"), config.get_finite("reward_speed_high")},
        normalize_reward_(config.get_bool("normalize_reward")) {}

  static ScenarioInfo info(const Config& config) {
    config.get_finite("collision_reward");
    config.get_finite("left_lane_reward");
    config.get_finite("high_speed_reward");
    if (!(config.get_finite("reward_speed_low") < config.get_finite("reward_speed_high"))) {
      throw std::invalid_argument(
          "options 'reward_speed_low' and 'reward_speed_high' must be an interval (low < high)");
    }
    if (config.get_bool("normalize_reward") &&
        config.get_finite("collision_reward") ==
            config.get_finite("high_speed_reward") + config.get_finite("left_lane_reward")) {
      throw std::invalid_argument(
          "options 'collision_reward' and 'high_speed_reward' + 'left_lane_reward' must differ when "
          "normalize_reward (the reward maps that interval to [0, 1])");
    }
    const EnvOptions o = parse_env_options(config);
    if (o.observation.type == "TimeToCollision" && o.action.type != "DiscreteMetaAction") {
      throw std::invalid_argument(
          "highway: observation_type TimeToCollision reads the ego MDPVehicle's target speeds, which only "
          "action_type DiscreteMetaAction gives it (highway-env 1.12.1 fails otherwise)");
    }
    return {.reward_names = {"collision_reward", "left_lane_reward", "high_speed_reward", "on_road_reward"}};
  }

 protected:
  void reset_scene() override {
    road_ = std::make_unique<Road>(make_u_turn_road(128), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    make_vehicles();
  }

  // _reward: the weighted rewards (config.get(name, 0): on_road_reward weighs 0), mapped to [0, 1] from
  // [collision_reward, high_speed_reward + left_lane_reward] if normalize_reward, times on_road_reward.
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + left_lane_reward_ * r[1];
    reward = reward + high_speed_reward_ * r[2];
    reward = reward + 0 * r[3];
    if (normalize_reward_) {
      reward = lmap(reward, {collision_reward_, high_speed_reward_ + left_lane_reward_}, {0, 1});
    }
    return reward * r[3];
  }

  // _rewards: collision, lane index over the side lanes, speed in reward_speed_range (clipped), on road.
  std::vector<double> rewards(const ActionView& /*action*/) override {
    const Vehicle* v = vehicle();
    const auto neighbours = road().network.all_side_lanes(v->lane_index);
    const int lane = v->lane_index.id;
    const double scaled_speed = lmap(v->speed, reward_speed_range_, {0, 1});
    return {
        v->crashed ? 1.0 : 0.0,
        static_cast<double>(lane) / std::max(static_cast<double>(neighbours.size()) - 1, 1.0),
        constrain(scaled_speed, 0, 1),
        v->on_road() ? 1.0 : 0.0,
    };
  }

  bool is_terminated() override { return vehicle()->crashed; }

 private:
  // _make_vehicles: the ego vehicle at the start of ("a", "b", 0), then six other vehicles at positions and
  // speeds drawn around fixed values, all routed to "d"; only the first randomizes its behaviour.
  void make_vehicles() {
    const double position_deviation = 2.0;
    const double speed_deviation = 2.0;
    Road& road = *road_;
    Rng& rng = np_random();

    const AbstractLane& ego_lane = road.network.get_lane({"a", "b", 0});
    auto ego = action_type().make_vehicle(road, ego_lane.position(0, 0), 0, 16.0);
    if (auto* controlled = dynamic_cast<ControlledVehicle*>(ego.get())) controlled->plan_route_to("d");
    road.vehicles.push_back(ego);
    controlled_vehicles_ = {ego.get()};

    const VehicleFactory vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    struct Placement {
      LaneIndex lane;
      double longitudinal;
      double speed;
      bool randomize;
    };
    const Placement placements[] = {
        {{"a", "b", 0}, 25.0, 13.5, true},   // Vehicle 1: blocking the ego vehicle
        {{"a", "b", 1}, 56.0, 14.5, false},  // Vehicle 2: forcing risky overtake
        {{"b", "c", 1}, 0.5, 4.5, false},    // Vehicle 3: blocking the ego vehicle
        {{"b", "c", 0}, 17.5, 5.5, false},   // Vehicle 4: forcing risky overtake
        {{"c", "d", 0}, 1.0, 3.5, false},    // Vehicle 5: blocking the ego vehicle
        {{"c", "d", 1}, 30.0, 5.5, false},   // Vehicle 6: forcing risky overtake
    };
    for (const Placement& p : placements) {
      const double longitudinal = p.longitudinal + rng.normal() * position_deviation;
      const double speed = p.speed + rng.normal() * speed_deviation;
      auto vehicle = Vehicle::make_on_lane(vehicles_type, road, p.lane, longitudinal, speed);
      auto* idm = dynamic_cast<IDMVehicle*>(vehicle.get());
      if (idm == nullptr) throw std::logic_error("highway: the U-turn's other vehicles must be IDMVehicles");
      idm->plan_route_to("d");
      if (p.randomize) idm->randomize_behavior();
      road.vehicles.push_back(vehicle);
    }
  }

  double collision_reward_;
  double left_lane_reward_;
  double high_speed_reward_;
  std::array<double, 2> reward_speed_range_;
  bool normalize_reward_;
};

std::vector<Option> u_turn_options() {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("TimeToCollision")},
      {"observation_horizon", std::int64_t{16}},
      {"action_type", std::string("DiscreteMetaAction")},
      {"action_target_speeds", std::string("8,16,24")},
      {"screen_width", std::int64_t{789}},
      {"screen_height", std::int64_t{289}},
      {"duration", 10.0},
  });
  const std::vector<Option> own = {
      {"collision_reward", -1.0, "Reward weight of a collision."},
      {"left_lane_reward", 0.1, "Reward weight of the lane index (linear in it, as highway-env computes it)."},
      {"high_speed_reward", 0.4, "Reward weight of full speed (linear in the speed over the range)."},
      {"reward_speed_low", 8.0, "Speed that gets no speed reward (reward_speed_range[0]) [m/s]."},
      {"reward_speed_high", 24.0, "Speed that gets the full speed reward (reward_speed_range[1]) [m/s]."},
      {"normalize_reward", true,
       "Map the reward to [0, 1] (from [collision_reward, high_speed_reward + left_lane_reward])."},
      {"offroad_terminal", false, "Unused by UTurnEnv (as in highway-env: only a collision terminates)."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

static const bool kUTurn = register_scenario<UTurnEnv>("UTurnEnv", u_turn_options());

}  // namespace
}  // namespace rlpool::highway

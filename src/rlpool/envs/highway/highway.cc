// The Highway scenarios: HighwayEnv (highway-v0) and HighwayEnvFast (highway-fast-v0). The ego vehicle
// drives on a straight road of lanes_count lanes among vehicles_count other vehicles, rewarded for a high
// forward speed and the right-most lanes, punished for collisions.
//
// Follows highway_env/envs/highway_env.py (highway-env 1.12.1). HighwayEnvFast only changes defaults and
// turns off the other vehicles' collision checks, which is the option other_vehicles_check_collisions
// (EnvPool 1.2.7's name; False by default for HighwayEnvFast).
#include <cmath>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/highway_env.h"

namespace rlpool::highway {
namespace {

class HighwayEnv final : public AbstractEnv {
 public:
  HighwayEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        lanes_count_(static_cast<int>(config.get_int_in("lanes_count", 1, 1000))),
        vehicles_count_(static_cast<int>(config.get_int_in("vehicles_count", 0, 100000))),
        initial_lane_id_(static_cast<int>(config.get_int_in("initial_lane_id", -1, lanes_count_ - 1))),
        ego_spacing_(config.get_finite("ego_spacing")),
        vehicles_density_(config.get_finite("vehicles_density")),
        collision_reward_(config.get_finite("collision_reward")),
        right_lane_reward_(config.get_finite("right_lane_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        reward_speed_range_{config.get_finite("reward_speed_low"), config.get_finite("reward_speed_high")},
        normalize_reward_(config.get_bool("normalize_reward")),
        offroad_terminal_(config.get_bool("offroad_terminal")),
        other_vehicles_check_collisions_(config.get_bool("other_vehicles_check_collisions")) {}

  static ScenarioInfo info(const Config& config) {
    check(config);
    return {.reward_names = {"collision_reward", "right_lane_reward", "high_speed_reward", "on_road_reward"}};
  }

 protected:
  void reset_scene() override {
    create_road();
    create_vehicles();
  }

  // _reward: the weighted rewards, mapped to [0, 1] if normalize_reward, times on_road_reward.
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    // sum(config.get(name, 0) * reward): on_road_reward is no config key (weight 0).
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + right_lane_reward_ * r[1];
    reward = reward + high_speed_reward_ * r[2];
    reward = reward + 0 * r[3];
    if (normalize_reward_) {
      reward = lmap(reward, {collision_reward_, high_speed_reward_ + right_lane_reward_}, {0, 1});
    }
    return reward * r[3];
  }

  // _rewards: collision, right lane (the target lane of a ControlledVehicle), forward speed, on road.
  std::vector<double> rewards(const ActionView& /*action*/) override {
    const Vehicle* v = vehicle();
    const auto neighbours = road().network.all_side_lanes(v->lane_index);
    const auto* controlled = as_controlled_vehicle(v);
    const int lane = controlled != nullptr ? controlled->target_lane_index.id : v->lane_index.id;
    // forward speed rather than speed (highway-env issue 268)
    const double forward_speed = v->speed * std::cos(v->heading);
    const double scaled_speed = lmap(forward_speed, reward_speed_range_, {0, 1});
    const double neighbours_count = static_cast<double>(neighbours.size());
    return {
        v->crashed ? 1.0 : 0.0,
        static_cast<double>(lane) / std::max(neighbours_count - 1, 1.0),
        std::clamp(scaled_speed, 0.0, 1.0),
        v->on_road() ? 1.0 : 0.0,
    };
  }

  bool is_terminated() override { return vehicle()->crashed || (offroad_terminal_ && !vehicle()->on_road()); }

 private:
  static void check(const Config& config) {
    const auto lanes = config.get_int_in("lanes_count", 1, 1000);
    config.get_int_in("vehicles_count", 0, 100000);
    config.get_int_in("initial_lane_id", -1, lanes - 1);
    if (!(config.get_finite("vehicles_density") > 0)) {
      throw std::invalid_argument("option 'vehicles_density' must be positive, got " +
                                  number_text(config.get_double("vehicles_density")));
    }
    config.get_finite("ego_spacing");
    config.get_finite("collision_reward");
    config.get_finite("right_lane_reward");
    config.get_finite("high_speed_reward");
    config.get_finite("lane_change_reward");
    if (!(config.get_finite("reward_speed_low") < config.get_finite("reward_speed_high"))) {
      throw std::invalid_argument("options 'reward_speed_low' and 'reward_speed_high' must be an interval (low < "
                                  "high)");
    }
  }

  void create_road() {
    road_ = std::make_unique<Road>(RoadNetwork::straight_road_network(lanes_count_, 0.0, 10000.0, 0.0, 30.0),
                                   &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
  }

  void create_vehicles() {
    const VehicleFactory other_vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    const std::vector<int> other_per_controlled =
        near_split(vehicles_count_, static_cast<int>(options().controlled_vehicles));
    Road& road = *road_;
    controlled_vehicles_.clear();
    for (const int others : other_per_controlled) {
      CreateRandomArgs ego_args;
      ego_args.speed = 25.0;
      if (initial_lane_id_ >= 0) ego_args.lane_id = initial_lane_id_;
      ego_args.spacing = ego_spacing_;
      const auto placed = Vehicle::create_random(vehicle_factory<Vehicle>(), road, ego_args);
      auto ego = action_type().make_vehicle(road, placed->position, placed->heading, placed->speed);
      controlled_vehicles_.push_back(ego.get());
      road.vehicles.push_back(ego);
      for (int k = 0; k < others; ++k) {
        CreateRandomArgs args;
        args.spacing = 1 / vehicles_density_;
        auto vehicle = Vehicle::create_random(other_vehicles_type, road, args);
        if (vehicle->is_a(KIND_IDM)) static_cast<IDMVehicle&>(*vehicle).randomize_behavior();
        road.vehicles.push_back(vehicle);
      }
    }
    if (!other_vehicles_check_collisions_) {  // HighwayEnvFast: only the controlled vehicles check collisions
      for (const auto& vehicle : road.vehicles) {
        if (std::find(controlled_vehicles_.begin(), controlled_vehicles_.end(), vehicle.get()) ==
            controlled_vehicles_.end()) {
          vehicle->check_collisions = false;
        }
      }
    }
  }

  int lanes_count_;
  int vehicles_count_;
  int initial_lane_id_;
  double ego_spacing_;
  double vehicles_density_;
  double collision_reward_;
  double right_lane_reward_;
  double high_speed_reward_;
  std::array<double, 2> reward_speed_range_;
  bool normalize_reward_;
  bool offroad_terminal_;
  bool other_vehicles_check_collisions_;
};

std::vector<Option> highway_options(bool fast) {
  std::map<std::string, OptionValue> base = {{"duration", fast ? 30.0 : 40.0}};
  if (fast) base["simulation_frequency"] = std::int64_t{5};
  std::vector<Option> options = abstract_env_options(base);
  const std::vector<Option> own = {
      {"lanes_count", std::int64_t{fast ? 3 : 4}, "Number of lanes."},
      {"vehicles_count", std::int64_t{fast ? 20 : 50}, "Number of other vehicles."},
      {"initial_lane_id", std::int64_t{-1}, "The ego vehicle's lane (0 is the left-most); -1: random (None)."},
      {"ego_spacing", fast ? 1.5 : 2.0, "Spacing ratio in front of the ego vehicle when it is placed."},
      {"vehicles_density", 1.0, "Density of the other vehicles (their spacing ratio is 1 / density)."},
      {"collision_reward", -1.0, "Reward weight of a collision."},
      {"right_lane_reward", 0.1, "Reward weight of driving on the right-most lane (linear in the lane index)."},
      {"high_speed_reward", 0.4, "Reward weight of full speed (linear in the forward speed over the range)."},
      {"lane_change_reward", 0.0, "Reward weight of a lane change (unused by HighwayEnv, as in highway-env)."},
      {"reward_speed_low", 20.0, "Forward speed that gets no speed reward (reward_speed_range[0]) [m/s]."},
      {"reward_speed_high", 30.0, "Forward speed that gets the full speed reward (reward_speed_range[1]) [m/s]."},
      {"normalize_reward", true, "Map the reward to [0, 1] (from [collision_reward, high_speed + right_lane])."},
      {"offroad_terminal", false, "Leaving the road terminates the episode."},
      {"other_vehicles_check_collisions", !fast,
       "The other vehicles check their own collisions (HighwayEnvFast: only the controlled vehicles do)."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

static const bool kHighway = register_scenario<HighwayEnv>("HighwayEnv", highway_options(false));
static const bool kHighwayFast = register_scenario<HighwayEnv>("HighwayEnvFast", highway_options(true));

}  // namespace
}  // namespace rlpool::highway

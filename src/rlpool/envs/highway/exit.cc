// The Exit scenario: ExitEnv (exit-v0, exit-v1). The ego vehicle starts on the left-most lane of a
// lanes_count-lane highway and must reach the exit lane that opens on the right for 100 m (then the exit
// ramp); it is rewarded for that goal and for a high speed. The other vehicles keep their lanes, slower on
// the right lanes (speed limit 26 - 3.4 * lane id). Observed as an ExitObservation (Kinematics whose ego x
// is its distance along the exit lane). Terminated by a collision, truncated at time >= duration.
//
// Follows highway_env/envs/exit_env.py (highway-env 1.12.1), which derives from HighwayEnv but replaces its
// road, vehicles, rewards and flags (the HighwayEnv keys initial_lane_id, offroad_terminal and
// lane_change_reward stay options as in its config, unused). ConnectedLaneExitEnv only sets
// neighbour_vehicles_connected_lanes, an option here. The info entry is_success is ExitEnv.step's (written
// at reset too, where highway-env's info has none).
//
// The other vehicles' lanes are drawn by np_random.choice(lanes, p=lanes / lanes.sum()) (lane 0 never):
// numpy's Generator draws one uniform double per pick and takes the first index whose normalised cumulative
// probability exceeds it, which this port does with rlpool's Rng (so lanes_count must be >= 2 when there
// are other vehicles: numpy refuses the NaN probabilities of a single lane).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/geometry.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

class ExitEnv final : public AbstractEnv {
 public:
  ExitEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        lanes_count_(static_cast<int>(config.get_int_in("lanes_count", 1, 1000))),
        vehicles_count_(static_cast<int>(config.get_int_in("vehicles_count", 0, 100000))),
        ego_spacing_(config.get_finite("ego_spacing")),
        vehicles_density_(config.get_finite("vehicles_density")),
        collision_reward_(config.get_finite("collision_reward")),
        goal_reward_(config.get_finite("goal_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        right_lane_reward_(config.get_finite("right_lane_reward")),
        reward_speed_range_{config.get_finite("reward_speed_low"), config.get_finite("reward_speed_high")},
        normalize_reward_(config.get_bool("normalize_reward")) {
    info_success_ = info_index(abstract_env_spec(config, info(config)).info, "is_success");
  }

  static ScenarioInfo info(const Config& config) {
    check(config);
    return {.reward_names = {"collision_reward", "goal_reward", "high_speed_reward", "right_lane_reward"},
            .info = {ArraySpec{.name = "is_success", .dtype = DType::kBool}}};
  }

 protected:
  void reset_scene() override {
    road_ = std::make_unique<Road>(make_exit_road(lanes_count_), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    create_vehicles();
  }

  // _reward: sum(config[name] * reward) over _rewards; if normalize_reward, mapped from [collision_reward,
  // goal_reward] to [0, 1] and clipped.
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + goal_reward_ * r[1];
    reward = reward + high_speed_reward_ * r[2];
    reward = reward + right_lane_reward_ * r[3];
    if (normalize_reward_) {
      reward = lmap(reward, {collision_reward_, goal_reward_}, {0, 1});
      reward = constrain(reward, 0, 1);
    }
    return reward;
  }

  std::vector<double> rewards(const ActionView& /*action*/) override {
    const Vehicle* v = vehicle();
    const double scaled_speed = lmap(v->speed, reward_speed_range_, {0, 1});
    return {
        v->crashed ? 1.0 : 0.0,
        is_success() ? 1.0 : 0.0,
        constrain(scaled_speed, 0, 1),
        static_cast<double>(lane_index().id),
    };
  }

  bool is_terminated() override { return vehicle()->crashed; }

  void write_info(const Output& out, const ActionView& /*action*/) override {
    *out.info_as<bool>(info_success_) = is_success();
  }

 private:
  static void check(const Config& config) {
    const auto lanes = config.get_int_in("lanes_count", 1, 1000);
    const auto vehicles = config.get_int_in("vehicles_count", 0, 100000);
    if (lanes < 2 && vehicles > 0) {
      throw std::invalid_argument("ExitEnv draws its vehicles' lanes with probabilities lane / sum(lanes): option "
                                  "'lanes_count' must be >= 2 when 'vehicles_count' > 0");
    }
    config.get_int_in("initial_lane_id", -1, lanes - 1);
    if (!(config.get_finite("vehicles_density") > 0)) {
      throw std::invalid_argument("option 'vehicles_density' must be positive, got " +
                                  number_text(config.get_double("vehicles_density")));
    }
    for (const char* name : {"ego_spacing", "collision_reward", "goal_reward", "high_speed_reward",
                             "right_lane_reward", "lane_change_reward"}) {
      config.get_finite(name);
    }
    if (!(config.get_finite("reward_speed_low") < config.get_finite("reward_speed_high"))) {
      throw std::invalid_argument("options 'reward_speed_low' and 'reward_speed_high' must be an interval (low < "
                                  "high)");
    }
  }

  // The target lane of a ControlledVehicle, else its lane.
  const LaneIndex& lane_index() const {
    const Vehicle* v = vehicle();
    if (const auto* c = as_controlled_vehicle(v)) return c->target_lane_index;
    return v->lane_index;
  }

  bool is_success() const {
    const LaneIndex& lane = lane_index();
    return lane == LaneIndex{"1", "2", lanes_count_} || lane == LaneIndex{"2", "exit", 0};
  }

  // np_random.choice(np.arange(lanes_count), size=1, p=lanes / lanes.sum())[0], as numpy's Generator.
  int choose_lane() {
    std::vector<double> cdf(static_cast<std::size_t>(lanes_count_));
    const double total = static_cast<double>(lanes_count_) * (lanes_count_ - 1) / 2;
    double sum = 0;
    for (int i = 0; i < lanes_count_; ++i) {
      sum = sum + static_cast<double>(i) / total;
      cdf[static_cast<std::size_t>(i)] = sum;
    }
    const double last = cdf.back();
    for (auto& c : cdf) c = c / last;
    const double u = np_random().uniform();
    // searchsorted(side="right"): the number of entries <= u.
    return static_cast<int>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
  }

  // _create_vehicles: the controlled vehicles on lane ("0", "1", 0), then vehicles_count vehicles on
  // random lanes at their lane's speed limit, routed to "3", that never change lanes.
  void create_vehicles() {
    Road& road = *road_;
    controlled_vehicles_.clear();
    for (std::int64_t k = 0; k < options().controlled_vehicles; ++k) {
      const auto placed = Vehicle::create_random(
          vehicle_factory<Vehicle>(), road,
          {.speed = 25.0, .lane_from = "0", .lane_to = "1", .lane_id = 0, .spacing = ego_spacing_});
      auto ego = action_type().make_vehicle(road, placed->position, placed->heading, placed->speed);
      controlled_vehicles_.push_back(ego.get());
      road.vehicles.push_back(ego);
    }

    const VehicleFactory vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    for (int k = 0; k < vehicles_count_; ++k) {
      const int lane_id = choose_lane();
      const AbstractLane& lane = road.network.get_lane({"0", "1", lane_id});
      auto vehicle = Vehicle::create_random(
          vehicles_type, road,
          {.speed = lane.speed_limit, .lane_from = "0", .lane_to = "1", .lane_id = lane_id,
           .spacing = 1 / vehicles_density_});
      auto* idm = dynamic_cast<IDMVehicle*>(vehicle.get());
      if (idm == nullptr) throw std::logic_error("highway: ExitEnv's other vehicles must be IDMVehicles");
      idm->plan_route_to("3");
      idm->enable_lane_change = false;
      road.vehicles.push_back(vehicle);
    }
  }

  int lanes_count_;
  int vehicles_count_;
  double ego_spacing_;
  double vehicles_density_;
  double collision_reward_;
  double goal_reward_;
  double high_speed_reward_;
  double right_lane_reward_;
  std::array<double, 2> reward_speed_range_;
  bool normalize_reward_;
  std::size_t info_success_;
};

std::vector<Option> exit_options() {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("ExitObservation")},
      {"observation_vehicles_count", std::int64_t{15}},
      {"observation_features", std::string("presence,x,y,vx,vy,cos_h,sin_h")},
      {"observation_clip", false},
      {"action_target_speeds", std::string("18.0,24.0,30.0")},
      {"duration", 18.0},
      {"simulation_frequency", std::int64_t{5}},
      {"scaling", 5.0},
  });
  const std::vector<Option> own = {
      {"lanes_count", std::int64_t{6}, "Number of lanes (the exit lane is one more, on the right)."},
      {"vehicles_count", std::int64_t{20}, "Number of other vehicles."},
      {"initial_lane_id", std::int64_t{-1}, "HighwayEnv's key, unused by ExitEnv (the ego starts on lane 0)."},
      {"ego_spacing", 2.0, "Spacing ratio in front of the ego vehicle when it is placed."},
      {"vehicles_density", 1.5, "Density of the other vehicles (their spacing ratio is 1 / density)."},
      {"collision_reward", 0.0, "Reward weight of a collision."},
      {"goal_reward", 1.0, "Reward weight of reaching the exit (target lane ('1', '2', lanes_count) or the ramp)."},
      {"high_speed_reward", 0.1, "Reward weight of the speed mapped from the speed range to [0, 1] (clipped)."},
      {"right_lane_reward", 0.0, "Reward weight of the target lane's index."},
      {"lane_change_reward", 0.0, "HighwayEnv's key, unused by ExitEnv."},
      {"reward_speed_low", 20.0, "Speed that gets no speed reward (reward_speed_range[0]) [m/s]."},
      {"reward_speed_high", 30.0, "Speed that gets the full speed reward (reward_speed_range[1]) [m/s]."},
      {"normalize_reward", true, "Map the reward from [collision_reward, goal_reward] to [0, 1] and clip it."},
      {"offroad_terminal", false, "HighwayEnv's key, unused by ExitEnv."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

static const bool kExit = register_scenario<ExitEnv>("ExitEnv", exit_options());

}  // namespace
}  // namespace rlpool::highway

// The Merge scenarios: MergeEnv (merge-v0, merge-v1) and MergeGenericEnv (merge-generic-v0, -v1). The ego
// vehicle drives on a highway that an access ramp joins, rewarded for a high speed and the right-most lanes,
// punished for collisions and lane changes, and also for the merging vehicles' slow-downs (an altruistic
// penalty). The episode ends with a collision or once the ramp is passed; it never truncates itself.
//
// Follows highway_env/envs/merge_env.py (highway-env 1.12.1). ConnectedLaneMergeEnv and
// ConnectedLaneMergeGenericEnv only set neighbour_vehicles_connected_lanes, which is an option here.
// MergeGenericEnv inherits MergeEnv's rewards, including their hard-coded merging lane ("b", "c", 2) and
// the unnormalised right_lane_reward (lane id / 1), whatever lanes_count is.
//
// The lane_change_reward entry is Python's `action in [0, 2]`: for an integer action, whether it is 0 or 2;
// for a continuous action of one value, whether that value is 0 or 2 (numpy's comparison); for two
// continuous values highway-env raises (an array's truth value is ambiguous) and this port gives 0. At
// reset there is no action (highway-env samples the action space with a generator of its own): 0.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/geometry.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

class MergeEnv final : public AbstractEnv {
 public:
  MergeEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, env_type, info(config)),
        generic_(env_type == "MergeGenericEnv"),
        collision_reward_(config.get_finite("collision_reward")),
        right_lane_reward_(config.get_finite("right_lane_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        lane_change_reward_(config.get_finite("lane_change_reward")),
        merging_speed_reward_(config.get_finite("merging_speed_reward")),
        reward_speed_range_{config.get_finite("reward_speed_low"), config.get_finite("reward_speed_high")} {
    if (generic_) {
      lanes_count_ = static_cast<int>(config.get_int_in("lanes_count", 1, 1000));
      vehicles_count_ = static_cast<int>(config.get_int_in("vehicles_count", 0, 100000));
      before_merge_length_ = config.get_finite("before_merge_length");
      converge_merge_length_ = config.get_finite("converge_merge_length");
      parallel_merge_length_ = config.get_finite("parallel_merge_length");
      after_merge_length_ = config.get_finite("after_merge_length");
    }
  }

  static ScenarioInfo info(const Config& config) {
    check(config);
    return {.reward_names = {"collision_reward", "right_lane_reward", "high_speed_reward", "lane_change_reward",
                             "merging_speed_reward"}};
  }

 protected:
  void reset_scene() override {
    make_road();
    if (generic_) {
      make_generic_vehicles();
    } else {
      make_vehicles();
    }
  }

  // _reward: sum(config[name] * reward) over _rewards, mapped by lmap from [collision_reward +
  // merging_speed_reward, high_speed_reward + right_lane_reward] to [0, 1] (not clipped).
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + right_lane_reward_ * r[1];
    reward = reward + high_speed_reward_ * r[2];
    reward = reward + lane_change_reward_ * r[3];
    reward = reward + merging_speed_reward_ * r[4];
    return lmap(reward, {collision_reward_ + merging_speed_reward_, high_speed_reward_ + right_lane_reward_},
                {0, 1});
  }

  std::vector<double> rewards(const ActionView& action) override {
    const Vehicle* v = vehicle();
    const double scaled_speed = lmap(v->speed, reward_speed_range_, {0, 1});
    // Altruistic penalty: the controlled vehicles on the merging lane ("b", "c", 2) below their target speed.
    const LaneIndex merging_lane{"b", "c", 2};
    double merging_speed = 0;
    for (const auto& other : road().vehicles) {
      if (!(other->lane_index == merging_lane)) continue;
      const auto* controlled = as_controlled_vehicle(other.get());
      if (controlled == nullptr) continue;
      merging_speed = merging_speed + (controlled->target_speed - controlled->speed) / controlled->target_speed;
    }
    return {
        v->crashed ? 1.0 : 0.0,
        static_cast<double>(v->lane_index.id) / 1,
        scaled_speed,
        lane_change(action) ? 1.0 : 0.0,
        merging_speed,
    };
  }

  // The episode is over when a collision occurs or when the access ramp has been passed.
  bool is_terminated() override {
    const Vehicle* v = vehicle();
    return v->crashed || v->position[0] > (generic_ ? end_position_ : 370.0);
  }

  bool is_truncated() override { return false; }

 private:
  static void check(const Config& config) {
    for (const char* name : {"collision_reward", "right_lane_reward", "high_speed_reward", "lane_change_reward",
                             "merging_speed_reward"}) {
      config.get_finite(name);
    }
    if (!(config.get_finite("reward_speed_low") < config.get_finite("reward_speed_high"))) {
      throw std::invalid_argument("options 'reward_speed_low' and 'reward_speed_high' must be an interval (low < "
                                  "high)");
    }
    if (config.has("lanes_count")) {  // MergeGenericEnv
      config.get_int_in("lanes_count", 1, 1000);
      config.get_int_in("vehicles_count", 0, 100000);
      for (const char* name : {"before_merge_length", "converge_merge_length", "parallel_merge_length"}) {
        if (!(config.get_finite(name) > 0)) {
          throw std::invalid_argument(std::string("option '") + name + "' must be positive (All road segments "
                                      "must have positive length), got " + number_text(config.get_double(name)));
        }
      }
      if (!(config.get_finite("after_merge_length") >= 90)) {
        throw std::invalid_argument("option 'after_merge_length' must be >= 90 (The after merge road segment must "
                                    "have length >= 90), got " + number_text(config.get_double("after_merge_length")));
      }
    }
  }

  // Python's `action in [0, 2]`.
  static bool lane_change(const ActionView& action) {
    if (action.action == nullptr) return false;
    if (action.spec->dtype == DType::kInt64) {
      const auto a = action.discrete();
      return a == 0 || a == 2;
    }
    if (action.size() == 1) {
      const double a = action.continuous()[0];
      return a == 0 || a == 2;
    }
    return false;
  }

  // _make_road: the highway, the access ramp and the obstacle at the end of the merging lane.
  void make_road() {
    MergeRoad layout = generic_ ? make_merge_generic_road(lanes_count_, before_merge_length_, converge_merge_length_,
                                                          parallel_merge_length_, after_merge_length_)
                                : make_merge_road();
    end_position_ = layout.end_position;
    road_ = std::make_unique<Road>(std::move(layout.network), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    road_->objects.push_back(std::make_shared<Obstacle>(road_.get(), layout.obstacle));
  }

  // MergeEnv._make_vehicles: the ego vehicle, three vehicles on the highway, one on the ramp.
  void make_vehicles() {
    Road& road = *road_;
    auto ego = action_type().make_vehicle(road, road.network.get_lane({"a", "b", 1}).position(30.0, 0.0), 0, 30.0);
    road.vehicles.push_back(ego);

    const VehicleFactory other_vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    const double spawns[3][2] = {{90.0, 29.0}, {70.0, 31.0}, {5.0, 31.5}};
    for (const auto& [longitudinal, initial_speed] : spawns) {
      const AbstractLane& lane = road.network.get_lane({"a", "b", static_cast<int>(np_random().integer(2))});
      const Vec2 position = lane.position(longitudinal + np_random().uniform(-5.0, 5.0), 0.0);
      const double speed = initial_speed + np_random().uniform(-1.0, 1.0);
      road.vehicles.push_back(other_vehicles_type(&road, position, 0, speed));
    }

    auto merging_v = other_vehicles_type(&road, road.network.get_lane({"j", "k", 0}).position(110.0, 0.0), 0, 20.0);
    controlled(*merging_v).target_speed = 30.0;
    road.vehicles.push_back(merging_v);
    controlled_vehicles_ = {ego.get()};
  }

  // MergeGenericEnv._make_vehicles: the ego vehicle on the right-most lane, vehicles_count vehicles at
  // random (10 tries each to find a place 15 m away from the others of its lane), one on the ramp.
  void make_generic_vehicles() {
    Road& road = *road_;
    const int lanes = lanes_count_;
    const double ego_longitudinal = 30.0;
    auto ego = action_type().make_vehicle(road, road.network.get_lane({"a", "b", lanes - 1}).position(ego_longitudinal, 0.0),
                                          0, 30.0);
    road.vehicles.push_back(ego);
    controlled_vehicles_ = {ego.get()};

    const VehicleFactory other_vehicles_type = vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
    const double max_pos = before_merge_length_ + converge_merge_length_ + parallel_merge_length_;
    std::vector<std::vector<double>> spawned_positions(static_cast<std::size_t>(lanes));
    spawned_positions[static_cast<std::size_t>(lanes - 1)].push_back(ego_longitudinal);
    const double safe_distance = 15.0;  // safe distance to spawn vehicles from each other
    const int tries = 10;               // number of times it tries to spawn a vehicle
    for (int k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < tries; ++t) {
        const auto random_lane_index = static_cast<int>(np_random().integer(static_cast<std::uint64_t>(lanes)));
        const double longitudinal = np_random().uniform(0, max_pos);
        auto& taken = spawned_positions[static_cast<std::size_t>(random_lane_index)];
        if (std::all_of(taken.begin(), taken.end(),
                        [&](double p) { return std::abs(longitudinal - p) > safe_distance; })) {
          const Vec2 pos = road.network.get_lane({"a", "b", random_lane_index}).position(longitudinal, 0.0);
          const double spd = 30.0 + np_random().uniform(-2.0, 2.0);
          road.vehicles.push_back(other_vehicles_type(&road, pos, 0, spd));
          taken.push_back(longitudinal);
          break;
        }
      }
    }

    auto merging_v = other_vehicles_type(&road, road.network.get_lane({"j", "k", 0}).position(ego_longitudinal + 30, 0.0),
                                         0, 20.0);
    controlled(*merging_v).target_speed = 30.0;
    road.vehicles.push_back(merging_v);
  }

  static ControlledVehicle& controlled(Vehicle& vehicle) {
    auto* c = as_controlled_vehicle(&vehicle);
    if (c == nullptr) throw std::logic_error("highway: the merging vehicle is not a ControlledVehicle");
    return *c;
  }

  bool generic_;
  double collision_reward_;
  double right_lane_reward_;
  double high_speed_reward_;
  double lane_change_reward_;
  double merging_speed_reward_;
  std::array<double, 2> reward_speed_range_;
  int lanes_count_ = 2;
  int vehicles_count_ = 3;
  double before_merge_length_ = 150;
  double converge_merge_length_ = 80;
  double parallel_merge_length_ = 80;
  double after_merge_length_ = 150;
  double end_position_ = 0;  // MergeGenericEnv.end_position
};

std::vector<Option> merge_options(bool generic) {
  // highway-env's merges never truncate (duration is no key of theirs); EnvPool 1.2.7 gives 200.
  std::vector<Option> options = abstract_env_options({{"duration", 200.0}});
  std::vector<Option> own = {
      {"collision_reward", -1.0, "Reward weight of a collision."},
      {"right_lane_reward", 0.1, "Reward weight of the lane index (lane id / 1: the merging lane counts 2)."},
      {"high_speed_reward", 0.2, "Reward weight of the speed mapped from [reward_speed_low, reward_speed_high] to "
                                 "[0, 1] (not clipped)."},
      {"reward_speed_low", 20.0, "Speed that gets no speed reward (reward_speed_range[0]) [m/s]."},
      {"reward_speed_high", 30.0, "Speed that gets the full speed reward (reward_speed_range[1]) [m/s]."},
      {"merging_speed_reward", -0.5,
       "Reward weight of the controlled vehicles' relative slow-down on the merging lane (altruistic penalty)."},
      {"lane_change_reward", -0.05, "Reward weight of a lane change action (0 or 2)."},
  };
  if (generic) {
    const std::vector<Option> more = {
        {"lanes_count", std::int64_t{2}, "Number of highway lanes."},
        {"vehicles_count", std::int64_t{3}, "Number of other vehicles tried on the highway (10 tries each)."},
        {"before_merge_length", 150.0, "Length of the ramp before it converges (recommended >= 60) [m]."},
        {"converge_merge_length", 80.0, "Length of the ramp's section converging to the highway [m]."},
        {"parallel_merge_length", 80.0, "Length of the merging lane along the highway [m]."},
        {"after_merge_length", 150.0, "Length of the highway after the merge (>= 90) [m]."},
    };
    own.insert(own.end(), more.begin(), more.end());
  }
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

static const bool kMerge = register_scenario<MergeEnv>("MergeEnv", merge_options(false));
static const bool kMergeGeneric = register_scenario<MergeEnv>("MergeGenericEnv", merge_options(true));

}  // namespace
}  // namespace rlpool::highway

// The racetrack scenarios: RacetrackEnv (racetrack-v0), RacetrackEnvLarge (racetrack-large-v0, a larger
// three-lane track) and RacetrackEnvOval (racetrack-oval-v0, an oval of `no_lanes` lanes and straights of
// `length`, optionally with obstacles); their -v1 ids are highway-env's ConnectedLane* classes, the same
// types with neighbour_vehicles_connected_lanes. The ego vehicle steers (continuous lateral control at the
// lanes' speed limit) around the track among a few IDM vehicles, rewarded for staying centred on its lane and
// for small actions, punished for collisions; leaving the road ends the episode (terminate_off_road).
//
// Follows highway_env/envs/racetrack_env.py (highway-env 1.12.1); the roads are layouts.h's
// make_racetrack_road, make_racetrack_large_road and make_racetrack_oval_road.
//
// RacetrackEnvOval's length 0 means a random length: highway-env draws it (np.random.default_rng()
// .integers(100, 200)) from a generator of its own that nothing seeds, so it cannot be reproduced; here it
// comes from a generator seeded from the episode's start words (deterministic per episode, and the env's
// np_random draws stay highway-env's). highway-env's no_lanes 0 ("random number from [2,7]") draws the lane
// count for the road but then fails in _make_vehicles (np_random.integers(0) raises): it is refused here.
//
// The reward term action_reward is np.linalg.norm(action) of the action given to step (float32 for a
// continuous action, whose float32 arithmetic the reward follows: see reward()). At reset, where
// highway-env's info evaluates the rewards with a random sample of the action space, no action was taken:
// action_reward is 0 there (the norm of the zero action info["action"] shows).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/action.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

enum class Track { kRacetrack, kLarge, kOval };

class RacetrackEnv final : public AbstractEnv {
 public:
  RacetrackEnv(const Config& config, std::string env_type, Track track)
      : AbstractEnv(config, std::move(env_type), info(config, track)),
        track_(track),
        collision_reward_(config.get_finite("collision_reward")),
        lane_centering_cost_(config.get_finite("lane_centering_cost")),
        lane_centering_reward_(config.get_finite("lane_centering_reward")),
        action_reward_(config.get_finite("action_reward")),
        other_vehicles_(static_cast<int>(config.get_int("other_vehicles"))),
        speed_limit_(config.get_finite("speed_limit")),
        terminate_off_road_(config.get_bool("terminate_off_road")) {
    if (track_ == Track::kOval) {
      length_ = config.get_finite("length");
      no_lanes_ = static_cast<int>(config.get_int("no_lanes"));
      block_lane_ = config.get_bool("block_lane");
      force_decision_ = config.get_bool("force_decision");
    }
  }

  static ScenarioInfo info(const Config& config, Track track) {
    config.get_finite("collision_reward");
    config.get_finite("lane_centering_cost");
    config.get_finite("lane_centering_reward");
    config.get_finite("action_reward");
    config.get_int_in("other_vehicles", 0, 100000);
    if (!(config.get_finite("speed_limit") > 0)) {
      throw std::invalid_argument("option 'speed_limit' must be positive");
    }
    if (!(config.get_finite("collision_reward") != 1)) {
      throw std::invalid_argument("option 'collision_reward' must differ from 1 (the reward maps "
                                  "[collision_reward, 1] to [0, 1])");
    }
    if (parse_env_options(config).action.type == "DiscreteMetaAction") {
      throw std::invalid_argument(
          "highway: the racetracks place their controlled vehicles with action_type's vehicle class "
          "make_on_lane, which DiscreteMetaAction's (a functools.partial of MDPVehicle) lacks: highway-env 1.12.1 "
          "fails at reset; use ContinuousAction or DiscreteAction");
    }
    if (track == Track::kOval) {
      if (!(config.get_finite("length") >= 0)) {
        throw std::invalid_argument("option 'length' must be >= 0 (0: a random length in [100, 200))");
      }
      if (config.get_int_in("no_lanes", 0, 100) == 0) {
        throw std::invalid_argument(
            "option 'no_lanes' 0 (a random lane count) is not supported: highway-env 1.12.1 fails at reset with "
            "it (its _make_vehicles draws np_random.integers(0)); give 1 to 100 lanes");
      }
    }
    return {.reward_names = {"lane_centering_reward", "action_reward", "collision_reward", "on_road_reward"}};
  }

 protected:
  void reset_scene() override {
    make_road();
    make_vehicles();
  }

  // _reward: the weighted rewards (config.get(name, 0): on_road_reward weighs 0) mapped from
  // [collision_reward, 1] to [0, 1], times on_road_reward.
  //
  // With a float32 action (ContinuousAction) highway-env's sum runs partly in float32 (NumPy 2 promotion):
  // np.linalg.norm of the float32 action is a float32, action_reward * norm a float32 product, and adding it to
  // a Python float (the lane centering reward on a StraightLane, whose local_coordinates returns floats) stays
  // float32 (so does adding the collision term, a Python number), while adding it to an np.float64 (on a
  // CircularLane) is float64; adding 0 * on_road (np.int64 0) then makes the sum float64 again.
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    if (action.action != nullptr && action.spec->dtype == DType::kFloat32) {
      const float action_term = static_cast<float>(action_reward_) * static_cast<float>(r[1]);
      if (vehicle()->lane->kind() == LaneKind::STRAIGHT) {
        float sum = static_cast<float>(reward + lane_centering_reward_ * r[0]);
        sum = sum + action_term;
        sum = sum + static_cast<float>(collision_reward_ * r[2]);
        reward = static_cast<double>(sum);
      } else {
        reward = reward + lane_centering_reward_ * r[0];
        reward = reward + static_cast<double>(action_term);
        reward = reward + collision_reward_ * r[2];
      }
    } else {
      reward = reward + lane_centering_reward_ * r[0];
      reward = reward + action_reward_ * r[1];
      reward = reward + collision_reward_ * r[2];
    }
    reward = reward + 0 * r[3];
    reward = lmap(reward, {collision_reward_, 1}, {0, 1});
    return reward * r[3];
  }

  // _rewards: lane centering 1 / (1 + cost * lateral**2) on the vehicle's lane, the action's norm, collision,
  // on road.
  std::vector<double> rewards(const ActionView& action) override {
    const Vehicle* v = vehicle();
    const double lateral = v->lane->local_coordinates(v->position).second;
    return {
        1 / (1 + lane_centering_cost_ * (lateral * lateral)),
        action_norm(action),
        v->crashed ? 1.0 : 0.0,
        v->on_road() ? 1.0 : 0.0,
    };
  }

  bool is_terminated() override {
    if (terminate_off_road_) return vehicle()->crashed || !vehicle()->on_road();
    return vehicle()->crashed;
  }

 private:
  // np.linalg.norm(action) of the action's values: float64 for integers (a discrete action); for a float32
  // action a float32, sqrt(x.dot(x)) with OpenBLAS's sdot (float32 products and sums, no fused
  // multiply-add for two values). 0 at reset.
  static double action_norm(const ActionView& action) {
    if (action.action == nullptr) return 0;
    const std::size_t agents = static_cast<std::size_t>(std::max(action.agents, 1));
    if (action.spec->dtype == DType::kInt64) {
      double sum = 0;
      for (std::size_t i = 0; i < agents; ++i) {
        const auto x = static_cast<double>(action.discrete(i));
        sum = sum + x * x;
      }
      return std::sqrt(sum);
    }
    const std::size_t n = action.size() * agents;
    const double* values = action.continuous(0);
    float sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<float>(values[i]);
      sum = sum + x * x;
    }
    return static_cast<double>(std::sqrt(sum));
  }

  void make_road() {
    RacetrackRoad track;
    switch (track_) {
      case Track::kRacetrack:
        track = make_racetrack_road();
        break;
      case Track::kLarge:
        track = make_racetrack_large_road(speed_limit_);
        break;
      case Track::kOval: {
        double length = length_;
        if (length == 0) {
          // highway-env: np.random.default_rng().integers(100, high=200), unseeded (see the file comment).
          const auto words = np_random().words();
          Rng side(words[0] ^ words[1] ^ words[2] ^ words[3] ^ 0x7261636574726163ULL);
          length = 100 + static_cast<double>(side.integer(100));
        }
        track = make_racetrack_oval_road(length, no_lanes_, block_lane_, force_decision_);
        break;
      }
    }
    road_ = std::make_unique<Road>(std::move(track.network), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    for (const Vec2& position : track.obstacles) {
      road_->objects.push_back(std::make_shared<Obstacle>(road_.get(), position));
    }
  }

  // _make_vehicles: the controlled vehicles (the first on a random lane of ("a", "b"), the others on random
  // lanes) at the lane's speed limit, then (if other_vehicles > 0) an IDM vehicle in front on ("b", "c") and
  // up to other_vehicles - 1 more at random places, each dropped if it is within 20 m of a vehicle.
  void make_vehicles() {
    Road& road = *road_;
    Rng& rng = np_random();
    const ActionType& action = action_type();
    const VehicleFactory controlled_class = [&action](Road* r, const Vec2& position, double heading, double speed) {
      return action.make_vehicle(*r, position, heading, speed);
    };
    const std::uint64_t first_lanes = track_ == Track::kOval ? static_cast<std::uint64_t>(no_lanes_) : 2;

    controlled_vehicles_.clear();
    LaneIndex lane_index;
    for (std::int64_t i = 0; i < options().controlled_vehicles; ++i) {
      if (i == 0) {
        lane_index = {"a", "b", static_cast<int>(rng.integer(first_lanes))};
      } else {
        lane_index = road.network.random_lane_index(rng);
      }
      const double longitudinal = rng.uniform(20, 50);
      auto controlled = Vehicle::make_on_lane(controlled_class, road, lane_index, longitudinal, std::nullopt);
      controlled_vehicles_.push_back(controlled.get());
      road.vehicles.push_back(controlled);
    }

    if (other_vehicles_ > 0) {
      // Front vehicle
      double longitudinal = rng.uniform(0.0, road.network.get_lane({"b", "c", 0}).length);
      double speed = 6.0 + rng.uniform(0.0, 3.0);
      auto vehicle =
          Vehicle::make_on_lane(vehicle_factory<IDMVehicle>(), road, {"b", "c", lane_index.id}, longitudinal, speed);
      road.vehicles.push_back(vehicle);

      // Other vehicles
      const std::uint64_t count = rng.integer(static_cast<std::uint64_t>(other_vehicles_));
      for (std::uint64_t k = 0; k < count; ++k) {
        const LaneIndex rand_lane_index = road.network.random_lane_index(rng);
        longitudinal = rng.uniform(0.0, road.network.get_lane(rand_lane_index).length);
        speed = 6.0 + rng.uniform(0.0, 3.0);
        vehicle = Vehicle::make_on_lane(vehicle_factory<IDMVehicle>(), road, rand_lane_index, longitudinal, speed);
        // Prevent early collisions
        bool clear = true;
        for (const auto& v : road.vehicles) {
          if (norm(vehicle->position - v->position) < 20) {
            clear = false;
            break;
          }
        }
        if (clear) road.vehicles.push_back(vehicle);
      }
    }
  }

  Track track_;
  double collision_reward_;
  double lane_centering_cost_;
  double lane_centering_reward_;
  double action_reward_;
  int other_vehicles_;
  double speed_limit_;
  bool terminate_off_road_;
  double length_ = 0;
  int no_lanes_ = 0;
  bool block_lane_ = false;
  bool force_decision_ = false;
};

std::vector<Option> racetrack_options(Track track) {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("OccupancyGrid")},
      {"observation_features", std::string("presence,on_road")},
      {"observation_grid_size", std::string("-18,18,-18,18")},
      {"observation_grid_step", std::string("3,3")},
      {"observation_as_image", false},
      {"observation_align_to_vehicle_axes", true},
      {"action_type", std::string("ContinuousAction")},
      {"action_longitudinal", false},
      {"action_lateral", true},
      {"action_target_speeds", std::string("0,5,10")},
      {"simulation_frequency", std::int64_t{15}},
      {"policy_frequency", std::int64_t{5}},
      {"duration", 300.0},
      {"controlled_vehicles", std::int64_t{1}},
      {"screen_width", std::int64_t{600}},
      {"screen_height", std::int64_t{600}},
      {"centering_position_x", 0.5},
      {"centering_position_y", 0.5},
  });
  const std::vector<Option> own = {
      {"collision_reward", -1.0, "Reward weight of a collision (also the low end of the reward's range)."},
      {"lane_centering_cost", 4.0, "Lane centering reward is 1 / (1 + cost * lateral**2)."},
      {"lane_centering_reward", 1.0, "Reward weight of lane centering."},
      {"action_reward", -0.3, "Reward weight of the action's norm."},
      {"other_vehicles", std::int64_t{1},
       "Other vehicles: a front vehicle if > 0, plus a random count in [0, other_vehicles) at random places."},
      {"speed_limit", 10.0,
       track == Track::kLarge ? "Speed limit of every lane [m/s] (the controlled vehicles' speed)."
                              : "Speed limit [m/s] (read by RacetrackEnvLarge's road only, as in highway-env)."},
      {"terminate_off_road", true, "Leaving the road terminates the episode."},
  };
  options.insert(options.end(), own.begin(), own.end());
  if (track == Track::kOval) {
    const std::vector<Option> oval = {
        {"length", 100.0, "Length of the straights [m]; 0: a random integer in [100, 200) per episode."},
        {"no_lanes", std::int64_t{3}, "Number of lanes (highway-env's 0, a random count, is not supported)."},
        {"block_lane", false, "Obstacles block the middle lane."},
        {"force_decision", false, "Obstacles block the first and third lanes."},
    };
    options.insert(options.end(), oval.begin(), oval.end());
  }
  return options;
}

template <Track T>
bool register_racetrack(const std::string& name) {
  return register_env_type({
      .name = name,
      .options = racetrack_options(T),
      .spec = [](const Config& config) { return abstract_env_spec(config, RacetrackEnv::info(config, T)); },
      .create = [name](const Config& config) -> std::unique_ptr<Env> {
        return std::make_unique<RacetrackEnv>(config, name, T);
      },
  });
}

static const bool kRacetrack = register_racetrack<Track::kRacetrack>("RacetrackEnv");
static const bool kRacetrackLarge = register_racetrack<Track::kLarge>("RacetrackEnvLarge");
static const bool kRacetrackOval = register_racetrack<Track::kOval>("RacetrackEnvOval");

}  // namespace
}  // namespace rlpool::highway

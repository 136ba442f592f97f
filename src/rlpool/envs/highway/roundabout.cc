// The roundabout scenarios: RoundaboutEnv (roundabout-v0; roundabout-v1 is ConnectedLaneRoundaboutEnv, the
// same type with neighbour_vehicles_connected_lanes) and RoundaboutGenericEnv (roundabout-generic-v0/v1). The
// ego vehicle enters a two-lane roundabout from the south and must exit to the north ("nxs") among a few
// other vehicles, rewarded for speed, punished for collisions and lane changes. The generic variant takes
// the roundabout's radius, its lane count and the number of other vehicles as options and spawns those at
// random places.
//
// Follows highway_env/envs/roundabout_env.py (highway-env 1.12.1); the roads are layouts.h's
// make_roundabout_road and make_roundabout_generic_road.
//
// The option incoming_vehicle_destination is highway-env's config key of the same name, with -1 standing
// for its None (a random destination); RoundaboutEnv takes 0..2 (Python indexes ["exr", "sxr", "nxr"]),
// RoundaboutGenericEnv any value >= 0 (Python clips it to 3 in ["exr", "sxr", "nxr", "wxr"]).
//
// highway-env's reward term lane_change_reward is `action in [0, 2]`: for a multi-agent action (a tuple) it
// is always False, and for a continuous action of more than one value Python fails (the truth value of an
// array is ambiguous), so that configuration is refused here. At reset, where highway-env's info evaluates the
// rewards with a random sample of the action space, no action was taken: lane_change_reward is 0 there.
#include <algorithm>
#include <cstdint>
#include <iterator>
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

// The other vehicles plan routes and randomize their behaviour: an IDMVehicle (or a subclass).
IDMVehicle& as_idm(const std::shared_ptr<Vehicle>& vehicle) {
  auto* idm = dynamic_cast<IDMVehicle*>(vehicle.get());
  if (idm == nullptr) throw std::logic_error("highway: the roundabout's other vehicles must be IDMVehicles");
  return *idm;
}

class RoundaboutEnv : public AbstractEnv {
 public:
  RoundaboutEnv(const Config& config, std::string env_type) : RoundaboutEnv(config, std::move(env_type), 2) {}

  static ScenarioInfo info(const Config& config) { return info_for(config, 2); }

 protected:
  // max_destination: the largest incoming_vehicle_destination the scenario takes.
  RoundaboutEnv(const Config& config, std::string env_type, int max_destination)
      : AbstractEnv(config, std::move(env_type), info_for(config, max_destination)),
        incoming_vehicle_destination_(static_cast<int>(config.get_int("incoming_vehicle_destination"))),
        collision_reward_(config.get_finite("collision_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        lane_change_reward_(config.get_finite("lane_change_reward")),
        normalize_reward_(config.get_bool("normalize_reward")) {}

  static ScenarioInfo info_for(const Config& config, int max_destination) {
    check(config, max_destination);
    return {.reward_names = {"collision_reward", "high_speed_reward", "lane_change_reward", "on_road_reward"}};
  }

  void reset_scene() override {
    make_road();
    make_vehicles();
  }

  // _reward: the weighted rewards (config.get(name, 0): on_road_reward weighs 0), mapped to [0, 1] from
  // [collision_reward, high_speed_reward] if normalize_reward, times on_road_reward.
  double reward(const ActionView& action) override {
    const std::vector<double> r = rewards(action);
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + high_speed_reward_ * r[1];
    reward = reward + lane_change_reward_ * r[2];
    reward = reward + 0 * r[3];
    if (normalize_reward_) reward = lmap(reward, {collision_reward_, high_speed_reward_}, {0, 1});
    return reward * r[3];
  }

  // _rewards: collision, speed index over MDPVehicle's default speeds, lane change (action in [0, 2]), on road.
  std::vector<double> rewards(const ActionView& action) override {
    const Vehicle* v = vehicle();
    const double speed_index = static_cast<double>(MDPVehicle::get_speed_index(*v));
    return {
        v->crashed ? 1.0 : 0.0,
        speed_index / static_cast<double>(MDPVehicle::DEFAULT_TARGET_SPEEDS.size() - 1),
        lane_change(action) ? 1.0 : 0.0,
        v->on_road() ? 1.0 : 0.0,
    };
  }

  bool is_terminated() override { return vehicle()->crashed; }

  // Python's `action in [0, 2]`.
  bool lane_change(const ActionView& action) const {
    if (action.action == nullptr) return false;  // reset: no action taken
    if (options().action.multi_agent) return false;  // a tuple equals neither 0 nor 2
    double value = 0;
    if (action.spec->dtype == DType::kInt64) {
      value = static_cast<double>(action.discrete(0));
    } else {
      value = action.continuous(0)[0];  // a one-value array (more values are refused by check)
    }
    return value == 0 || value == 2;
  }

  // The scenario's options, checked (the spec is made from them first).
  static void check(const Config& config, int max_destination) {
    const EnvOptions o = parse_env_options(config);
    if (!o.action.multi_agent && o.action.type == "ContinuousAction" && o.action.longitudinal &&
        o.action.lateral) {
      throw std::invalid_argument(
          "highway: the roundabout's lane_change_reward is `action in [0, 2]`, which highway-env cannot evaluate "
          "for a continuous action of two values (use action_longitudinal or action_lateral False, or another "
          "action_type)");
    }
    config.get_int_in("incoming_vehicle_destination", -1, max_destination);
    config.get_finite("collision_reward");
    config.get_finite("high_speed_reward");
    config.get_finite("right_lane_reward");
    config.get_finite("lane_change_reward");
    if (config.get_bool("normalize_reward") &&
        config.get_finite("collision_reward") == config.get_finite("high_speed_reward")) {
      throw std::invalid_argument(
          "options 'collision_reward' and 'high_speed_reward' must differ when normalize_reward (the reward maps "
          "[collision_reward, high_speed_reward] to [0, 1])");
    }
  }

  void make_road_from(RoadNetwork network) {
    road_ = std::make_unique<Road>(std::move(network), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
  }

  virtual void make_road() { make_road_from(make_roundabout_road()); }

  // The ego vehicle at `longitudinal` on ("ser", "ses", 0) with the heading at `heading_longitudinal`, speed 8,
  // routed to "nxs" where its class plans routes.
  Vehicle* add_ego(double longitudinal, double heading_longitudinal) {
    Road& road = *road_;
    const AbstractLane& ego_lane = road.network.get_lane({"ser", "ses", 0});
    auto ego = action_type().make_vehicle(road, ego_lane.position(longitudinal, 0.0),
                                          ego_lane.heading_at(heading_longitudinal), 8.0);
    if (auto* controlled = dynamic_cast<ControlledVehicle*>(ego.get())) controlled->plan_route_to("nxs");
    road.vehicles.push_back(ego);
    controlled_vehicles_ = {ego.get()};
    return ego.get();
  }

  VehicleFactory other_vehicles_factory() const {
    return vehicle_factory(vehicle_class_from_path(options().other_vehicles_type));
  }

  int incoming_vehicle_destination_;

 private:
  virtual void make_vehicles() {
    const double position_deviation = 2.0;
    const double speed_deviation = 2.0;
    Road& road = *road_;
    Rng& rng = np_random();

    // Ego-vehicle (placed at 125 m, headed as at 140 m: highway-env's values)
    add_ego(125.0, 140.0);

    // Incoming vehicle
    const std::vector<std::string> destinations = {"exr", "sxr", "nxr"};
    const VehicleFactory other_vehicles_type = other_vehicles_factory();
    double longitudinal = 5.0 + rng.normal() * position_deviation;
    double speed = 16 + rng.normal() * speed_deviation;
    auto vehicle = Vehicle::make_on_lane(other_vehicles_type, road, {"we", "sx", 1}, longitudinal, speed);
    std::string destination;
    if (incoming_vehicle_destination_ >= 0) {
      destination = destinations[static_cast<std::size_t>(incoming_vehicle_destination_)];
    } else {
      destination = destinations[rng.integer(destinations.size())];
    }
    as_idm(vehicle).plan_route_to(destination);
    as_idm(vehicle).randomize_behavior();
    road.vehicles.push_back(vehicle);

    // Other vehicles
    for (const int i : {1, -1}) {
      longitudinal = 20.0 * static_cast<double>(i) + rng.normal() * position_deviation;
      speed = 16.0 + rng.normal() * speed_deviation;
      vehicle = Vehicle::make_on_lane(other_vehicles_type, road, {"we", "sx", 0}, longitudinal, speed);
      as_idm(vehicle).plan_route_to(destinations[rng.integer(destinations.size())]);
      as_idm(vehicle).randomize_behavior();
      road.vehicles.push_back(vehicle);
    }

    // Entering vehicle
    longitudinal = 50.0 + rng.normal() * position_deviation;
    speed = 16.0 + rng.normal() * speed_deviation;
    vehicle = Vehicle::make_on_lane(other_vehicles_type, road, {"eer", "ees", 0}, longitudinal, speed);
    as_idm(vehicle).plan_route_to(destinations[rng.integer(destinations.size())]);
    as_idm(vehicle).randomize_behavior();
    road.vehicles.push_back(vehicle);
  }

  double collision_reward_;
  double high_speed_reward_;
  double lane_change_reward_;
  bool normalize_reward_;
};

class RoundaboutGenericEnv final : public RoundaboutEnv {
 public:
  static constexpr int kMaxDestination = 1000000;  // any index (Python clips it to the last destination)

  RoundaboutGenericEnv(const Config& config, std::string env_type)
      : RoundaboutEnv(config, std::move(env_type), kMaxDestination),
        roundabout_radius_(config.get_finite("roundabout_radius")),
        roundabout_lanes_(static_cast<int>(config.get_int("roundabout_lanes"))),
        vehicles_count_(static_cast<int>(config.get_int("vehicles_count"))) {}

  static ScenarioInfo info(const Config& config) {
    config.get_finite("roundabout_radius");
    config.get_int_in("roundabout_lanes", 1, 100);
    config.get_int_in("vehicles_count", 0, 100000);
    return info_for(config, kMaxDestination);
  }

 private:
  void make_road() override { make_road_from(make_roundabout_generic_road(roundabout_radius_, roundabout_lanes_)); }

  void make_vehicles() override {
    const double speed_deviation = 2.0;
    Road& road = *road_;
    Rng& rng = np_random();
    const VehicleFactory other_vehicles_type = other_vehicles_factory();
    const std::vector<std::string> destinations = {"exr", "sxr", "nxr", "wxr"};

    const AbstractLane& ego_lane = road.network.get_lane({"ser", "ses", 0});
    const double ego_longitudinal = ego_lane.length - 2.5;  // placed at the end of the straight lane
    add_ego(ego_longitudinal, ego_longitudinal);

    const std::pair<const char*, const char*> spawn_lanes[] = {
        {"we", "sx"}, {"sx", "se"}, {"ee", "nx"}, {"nx", "ne"}, {"eer", "ees"}, {"ner", "nes"}, {"wer", "wes"},
    };
    const std::uint64_t spawn_lanes_count = std::size(spawn_lanes);
    std::vector<Vec2> spawned_points = {ego_lane.position(ego_longitudinal, 0.0)};
    const double safe_distance = 7.0;  // safe distance to spawn vehicles from each other
    const int tries = 10;              // number of times it tries to spawn a vehicle
    for (int k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < tries; ++t) {
        const auto& [from, to] = spawn_lanes[rng.integer(spawn_lanes_count)];
        const std::uint64_t available_lanes = road.network.lanes(from, to).size();
        const LaneIndex lane_id{from, to, static_cast<int>(rng.integer(available_lanes))};
        const AbstractLane& lane = road.network.get_lane(lane_id);
        const double longitudinal = rng.uniform(5.0, std::max(5.0, lane.length - 5.0));
        const Vec2 candidate_position = lane.position(longitudinal, 0.0);

        bool is_safe = true;
        for (const Vec2& point : spawned_points) {
          if (norm(candidate_position - point) < safe_distance) {
            is_safe = false;
            break;
          }
        }
        if (!is_safe) continue;

        const double speed = 14.0 + rng.normal() * speed_deviation;
        auto vehicle = Vehicle::make_on_lane(other_vehicles_type, road, lane_id, longitudinal, speed);
        std::string destination;
        if (incoming_vehicle_destination_ >= 0) {
          destination = destinations[std::min<std::size_t>(static_cast<std::size_t>(incoming_vehicle_destination_),
                                                           destinations.size() - 1)];
        } else {
          destination = destinations[rng.integer(destinations.size())];
        }
        as_idm(vehicle).plan_route_to(destination);
        as_idm(vehicle).randomize_behavior();
        road.vehicles.push_back(vehicle);
        spawned_points.push_back(candidate_position);
        break;
      }
    }
  }

  double roundabout_radius_;
  int roundabout_lanes_;
  int vehicles_count_;
};

std::vector<Option> roundabout_options(bool generic) {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("Kinematics")},
      {"observation_absolute", true},
      {"observation_features_range", std::string("x:-100:100,y:-100:100,vx:-15:15,vy:-15:15")},
      {"action_type", std::string("DiscreteMetaAction")},
      {"action_target_speeds", std::string("0,8,16")},
      {"screen_width", std::int64_t{600}},
      {"screen_height", std::int64_t{600}},
      {"centering_position_x", 0.5},
      {"centering_position_y", 0.6},
      {"duration", generic ? 17.0 : 11.0},
  });
  const std::vector<Option> own = {
      {"incoming_vehicle_destination", std::int64_t{-1},
       generic ? "Destination of every other vehicle: index in [exr, sxr, nxr, wxr] (clipped to 3); -1: random "
                 "(None)."
               : "Destination of the incoming vehicle: index in [exr, sxr, nxr]; -1: random (None)."},
      {"collision_reward", -1.0, "Reward weight of a collision."},
      {"high_speed_reward", 0.2, "Reward weight of full speed (the speed index over MDPVehicle's default speeds)."},
      {"right_lane_reward", 0.0, "Reward weight of the right lane (unused by the roundabout, as in highway-env)."},
      {"lane_change_reward", -0.05, "Reward weight of a lane change action (LANE_LEFT or LANE_RIGHT)."},
      {"normalize_reward", true, "Map the reward to [0, 1] (from [collision_reward, high_speed_reward])."},
  };
  options.insert(options.end(), own.begin(), own.end());
  if (generic) {
    const std::vector<Option> more = {
        {"roundabout_radius", 20.0, "Radius of the roundabout's inner lane [m]."},
        {"roundabout_lanes", std::int64_t{2}, "Number of lanes of the roundabout."},
        {"vehicles_count", std::int64_t{5}, "Number of other vehicles to spawn (each has 10 tries to find room)."},
    };
    options.insert(options.end(), more.begin(), more.end());
  }
  return options;
}

static const bool kRoundabout = register_scenario<RoundaboutEnv>("RoundaboutEnv", roundabout_options(false));
static const bool kRoundaboutGeneric =
    register_scenario<RoundaboutGenericEnv>("RoundaboutGenericEnv", roundabout_options(true));

}  // namespace
}  // namespace rlpool::highway

// The Intersection scenarios: IntersectionEnv (intersection-v0; intersection-v2 is it with
// neighbour_vehicles_connected_lanes), ContinuousIntersectionEnv (intersection-v1: continuous steering and
// throttle of a BicycleVehicle) and MultiAgentIntersectionEnv (intersection-multi-agent-v0/v1/v2: two
// controlled vehicles, one agent each). The ego vehicles cross a four-way intersection with priority rules
// (RegulatedRoad) among traffic that spawns on the four accesses and leaves on the exits; rewarded for speed
// and for reaching their destination, punished for collisions.
//
// Follows highway_env/envs/intersection_env.py (highway-env 1.12.1), and MultiAgentWrapper of
// highway_env/envs/common/abstract.py: highway-env's -multi-agent-v1/-v2 wrap the env so that each agent
// gets its own reward and termination (info["agents_rewards"], info["agents_terminated"]); here that is the
// option multi_agent_wrapper. Without it every agent gets the shared reward (the mean of the agents'
// rewards) and the shared termination (any crash, or all arrived).
//
// Python's _make_vehicles sets DISTANCE_WANTED = 7, COMFORT_ACC_MAX = 6 and COMFORT_ACC_MIN = -3 on the
// class of the other vehicles (for good, in the whole process); here they are set on each vehicle the env
// creates, which is what every vehicle of an intersection env sees in Python.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/action.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"

namespace rlpool::highway {
namespace {

// numpy's Generator.choice(range(n), size=2, replace=False) (Floyd's algorithm, then the shuffle of the
// two picks) with the generator's integers(0, j + 1) as rng.integer(j + 1): draws integer(n - 1),
// integer(n), integer(2).
std::array<int, 2> choice_two_without_replacement(Rng& rng, int n) {
  std::array<int, 2> idx{};
  const auto first = static_cast<int>(rng.integer(static_cast<std::uint64_t>(n - 1)));
  idx[0] = first;
  const auto second = static_cast<int>(rng.integer(static_cast<std::uint64_t>(n)));
  idx[1] = second == first ? n - 1 : second;
  const auto k = static_cast<std::size_t>(rng.integer(2));
  std::swap(idx[1], idx[k]);
  return idx;
}

// Python's `"il" in lane_index[0] and "o" in lane_index[1]` (substring tests).
bool on_exit_lane(const Vehicle& v) {
  return v.lane_index.from.find("il") != std::string::npos && v.lane_index.to.find('o') != std::string::npos;
}

class IntersectionEnv final : public AbstractEnv {
 public:
  IntersectionEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        destination_(config.get_string("destination")),
        initial_vehicle_count_(static_cast<int>(config.get_int_in("initial_vehicle_count", 0, 1000))),
        spawn_probability_(config.get_finite("spawn_probability")),
        collision_reward_(config.get_finite("collision_reward")),
        high_speed_reward_(config.get_finite("high_speed_reward")),
        arrived_reward_(config.get_finite("arrived_reward")),
        reward_speed_range_{config.get_finite("reward_speed_low"), config.get_finite("reward_speed_high")},
        normalize_reward_(config.get_bool("normalize_reward")),
        offroad_terminal_(config.get_bool("offroad_terminal")),
        multi_agent_wrapper_(config.has("multi_agent_wrapper") && config.get_bool("multi_agent_wrapper")) {
    const EnvSpec spec = abstract_env_spec(config, info(config));
    info_agents_rewards_ = info_index(spec.info, "agents_rewards");
    info_agents_terminated_ = info_index(spec.info, "agents_terminated");
  }

  static ScenarioInfo info(const Config& config) {
    check(config);
    const std::int64_t agents = config.get_int_in("controlled_vehicles", 1, kMaxAgents);
    return {.reward_names = {"collision_reward", "high_speed_reward", "arrived_reward", "on_road_reward"},
            .info = {ArraySpec{.name = "agents_rewards", .dtype = DType::kFloat64, .shape = {agents}},
                     ArraySpec{.name = "agents_terminated", .dtype = DType::kBool, .shape = {agents}}}};
  }

 protected:
  // _reset: the road, then initial_vehicle_count vehicles (and the controlled ones).
  void reset_scene() override {
    make_road();
    make_vehicles(initial_vehicle_count_);
  }

  // _reward: the agents' rewards averaged (cooperative agents).
  double reward(const ActionView& /*action*/) override {
    double sum = 0;
    for (const Vehicle* v : controlled_vehicles_) sum = sum + agent_reward_of(*v);
    return sum / static_cast<double>(controlled_vehicles_.size());
  }

  // _rewards: each objective averaged over the agents.
  std::vector<double> rewards(const ActionView& /*action*/) override {
    std::array<double, 4> sum{0, 0, 0, 0};
    for (const Vehicle* v : controlled_vehicles_) {
      const std::array<double, 4> r = agent_rewards(*v);
      for (std::size_t k = 0; k < r.size(); ++k) sum[k] = sum[k] + r[k];
    }
    const auto n = static_cast<double>(controlled_vehicles_.size());
    return {sum[0] / n, sum[1] / n, sum[2] / n, sum[3] / n};
  }

  bool is_terminated() override {
    bool any_crashed = false;
    bool all_arrived = true;
    for (const Vehicle* v : controlled_vehicles_) {
      any_crashed = any_crashed || v->crashed;
      all_arrived = all_arrived && has_arrived(*v);
    }
    return any_crashed || all_arrived || (offroad_terminal_ && !vehicle()->on_road());
  }

  // _info's agents_rewards and agents_terminated (highway-env's values for every agent, whether or not its
  // rlpool episode is over).
  void write_info(const Output& out, const ActionView& /*action*/) override {
    auto* rewards = out.info_as<double>(info_agents_rewards_);
    auto* terminated = out.info_as<bool>(info_agents_terminated_);
    for (std::size_t i = 0; i < controlled_vehicles_.size(); ++i) {
      rewards[i] = agent_reward_of(*controlled_vehicles_[i]);
      terminated[i] = agent_is_terminal(*controlled_vehicles_[i]);
    }
  }

  // MultiAgentWrapper: reward = info["agents_rewards"], terminated = info["agents_terminated"].
  double agent_reward(std::size_t agent, const ActionView& /*action*/, double shared) override {
    return multi_agent_wrapper_ ? agent_reward_of(*controlled_vehicles_.at(agent)) : shared;
  }
  bool agent_terminated(std::size_t agent, bool shared) override {
    return multi_agent_wrapper_ ? agent_is_terminal(*controlled_vehicles_.at(agent)) : shared;
  }

  // step() after AbstractEnv.step: the leaving vehicles go, a new one may come.
  void after_step() override {
    clear_vehicles();
    spawn_vehicle(0, 1.0, 1.0, spawn_probability_, false);
  }

 private:
  static void check(const Config& config) {
    config.get_int_in("initial_vehicle_count", 0, 1000);
    const double p = config.get_finite("spawn_probability");
    if (!(p >= 0 && p <= 1)) {
      throw std::invalid_argument("option 'spawn_probability' must be in [0, 1], got " + number_text(p));
    }
    const std::string& destination = config.get_string("destination");
    if (!(destination.empty() || destination == "o0" || destination == "o1" || destination == "o2" ||
          destination == "o3")) {
      throw std::invalid_argument("option 'destination' must be an exit node 'o0', 'o1', 'o2' or 'o3' (or '' for "
                                  "a random one of o1, o2, o3), got '" +
                                  destination + "'");
    }
    const double collision = config.get_finite("collision_reward");
    config.get_finite("high_speed_reward");
    const double arrived = config.get_finite("arrived_reward");
    if (!(config.get_finite("reward_speed_low") < config.get_finite("reward_speed_high"))) {
      throw std::invalid_argument(
          "options 'reward_speed_low' and 'reward_speed_high' must be an interval (low < high)");
    }
    if (config.get_bool("normalize_reward") && !(collision != arrived)) {
      throw std::invalid_argument(
          "normalize_reward maps [collision_reward, arrived_reward] to [0, 1]: they must differ");
    }
    if (config.has("multi_agent_wrapper") && config.get_bool("multi_agent_wrapper") &&
        config.get_string("observation_type") != "MultiAgentObservation") {
      throw std::invalid_argument(
          "option 'multi_agent_wrapper' (per-agent rewards and terminations) needs observation_type "
          "MultiAgentObservation and action_type MultiAgentAction");
    }
  }

  // _agent_rewards: collision, speed in reward_speed_range mapped to [0, 1], arrival, on road.
  std::array<double, 4> agent_rewards(const Vehicle& v) const {
    const double scaled_speed = lmap(v.speed, reward_speed_range_, {0, 1});
    return {v.crashed ? 1.0 : 0.0, constrain(scaled_speed, 0, 1), has_arrived(v) ? 1.0 : 0.0,
            v.on_road() ? 1.0 : 0.0};
  }

  // _agent_reward: the weighted objectives (on_road_reward is no config key: weight 0), arrived_reward
  // alone once arrived, times on_road; mapped from [collision_reward, arrived_reward] to [0, 1] if
  // normalize_reward.
  double agent_reward_of(const Vehicle& v) const {
    const std::array<double, 4> r = agent_rewards(v);
    double reward = 0;
    reward = reward + collision_reward_ * r[0];
    reward = reward + high_speed_reward_ * r[1];
    reward = reward + arrived_reward_ * r[2];
    reward = reward + 0 * r[3];
    reward = r[2] != 0 ? arrived_reward_ : reward;
    reward *= r[3];
    if (normalize_reward_) reward = lmap(reward, {collision_reward_, arrived_reward_}, {0, 1});
    return reward;
  }

  // _agent_is_terminal.
  bool agent_is_terminal(const Vehicle& v) const { return v.crashed || has_arrived(v); }

  // has_arrived(vehicle, exit_distance=25).
  static bool has_arrived(const Vehicle& v, double exit_distance = 25) {
    return on_exit_lane(v) && v.lane->local_coordinates(v.position).first >= exit_distance;
  }

  void make_road() {
    road_ = std::make_unique<RegulatedRoad>(make_intersection_road(), &np_random(), /*record_history=*/false,
                                            options().neighbour_vehicles_connected_lanes);
  }

  void make_vehicles(int n_vehicles) {
    Road& road = *road_;
    // Random vehicles: np.linspace(0, 80, n_vehicles)[t] for t < n_vehicles - 1.
    const double step = n_vehicles > 1 ? 80.0 / static_cast<double>(n_vehicles - 1) : 0.0;
    for (int t = 0; t < n_vehicles - 1; ++t) spawn_vehicle(static_cast<double>(t) * step + 0.0);
    const double dt = 1.0 / static_cast<double>(options().simulation_frequency);
    for (int k = 0; k < 3; ++k) {  // simulation_steps
      for (std::int64_t frame = 0; frame < options().simulation_frequency; ++frame) {
        road.act();
        road.step(dt);
      }
    }
    // Challenger vehicle
    spawn_vehicle(60, 0.1, 0.0, 1.0, true);

    // Controlled vehicles
    controlled_vehicles_.clear();
    for (std::int64_t ego_id = 0; ego_id < options().controlled_vehicles; ++ego_id) {
      const std::string k = std::to_string(ego_id % 4);
      const LaneIndex lane_index{"o" + k, "ir" + k, 0};
      const AbstractLane& ego_lane = road.network.get_lane(lane_index);
      const std::string destination =
          !destination_.empty() ? destination_ : "o" + std::to_string(1 + np_random().integer(3));
      const double longitudinal = 60.0 + 5.0 * np_random().normal(1.0, 1.0);
      const double speed = *ego_lane.speed_limit;
      auto ego = action_type().make_vehicle(road, ego_lane.position(longitudinal, 0.0), ego_lane.heading_at(60.0),
                                            speed);
      // Python's try: plan_route_to, speed_index, target_speed; except AttributeError: pass.
      if (auto* controlled = dynamic_cast<ControlledVehicle*>(ego.get())) {
        controlled->plan_route_to(destination);
        if (auto* mdp = dynamic_cast<MDPVehicle*>(ego.get())) {
          mdp->speed_index = mdp->speed_to_index(speed);
          mdp->target_speed = mdp->index_to_speed(mdp->speed_index);
        }
      }
      road.vehicles.push_back(ego);
      controlled_vehicles_.push_back(ego.get());
      // Prevent early collisions
      std::vector<std::shared_ptr<Vehicle>> kept;
      for (const auto& v : road.vehicles) {
        const bool controlled =
            std::find(controlled_vehicles_.begin(), controlled_vehicles_.end(), v.get()) != controlled_vehicles_.end();
        if (controlled || !(np_norm(v->position - ego->position) < 20)) kept.push_back(v);
      }
      road.vehicles = std::move(kept);
    }
  }

  // _spawn_vehicle: with probability spawn_probability, a vehicle of other_vehicles_type on a random access
  // lane, heading to another random exit (or straight on), unless it lands within 15 m of a vehicle.
  void spawn_vehicle(double longitudinal = 0, double position_deviation = 1.0, double speed_deviation = 1.0,
                     double spawn_probability = 0.6, bool go_straight = false) {
    Rng& rng = np_random();
    if (rng.uniform(0.0, 1.0) > spawn_probability) return;
    std::array<int, 2> route = choice_two_without_replacement(rng, 4);
    route[1] = go_straight ? (route[0] + 2) % 4 : route[1];
    const std::string from = std::to_string(route[0]);
    Road& road = *road_;
    const double position = longitudinal + 5.0 + rng.normal(0.0, 1.0) * position_deviation;
    const double speed = 8.0 + rng.normal(0.0, 1.0) * speed_deviation;
    auto vehicle = Vehicle::make_on_lane(vehicle_factory(vehicle_class_from_path(other_vehicles_type())), road,
                                         LaneIndex{"o" + from, "ir" + from, 0}, position, speed);
    for (const auto& v : road.vehicles) {
      if (np_norm(v->position - vehicle->position) < 15) return;
    }
    auto* idm = dynamic_cast<IDMVehicle*>(vehicle.get());
    if (idm == nullptr) throw std::logic_error("highway: IntersectionEnv's other vehicles must be IDMVehicles");
    // The class attributes _make_vehicles sets on other_vehicles_type.
    idm->distance_wanted = 7;
    idm->comfort_acc_max = 6;
    idm->comfort_acc_min = -3;
    idm->plan_route_to("o" + std::to_string(route[1]));
    idm->randomize_behavior();
    road.vehicles.push_back(vehicle);
  }

  // _clear_vehicles: the other vehicles within 4 lengths of an exit's end, and those without a route, go.
  void clear_vehicles() {
    const auto is_leaving = [](const Vehicle& v) {
      return on_exit_lane(v) && v.lane->local_coordinates(v.position).first >= v.lane->length - 4 * Vehicle::LENGTH;
    };
    std::vector<std::shared_ptr<Vehicle>> kept;
    for (const auto& v : road_->vehicles) {
      const bool controlled =
          std::find(controlled_vehicles_.begin(), controlled_vehicles_.end(), v.get()) != controlled_vehicles_.end();
      const auto* cv = dynamic_cast<const ControlledVehicle*>(v.get());
      const bool no_route = cv == nullptr || !cv->route.has_value();
      if (controlled || !(is_leaving(*v) || no_route)) kept.push_back(v);
    }
    road_->vehicles = std::move(kept);
  }

  std::string destination_;
  int initial_vehicle_count_;
  double spawn_probability_;
  double collision_reward_;
  double high_speed_reward_;
  double arrived_reward_;
  std::array<double, 2> reward_speed_range_;
  bool normalize_reward_;
  bool offroad_terminal_;
  bool multi_agent_wrapper_;
  std::size_t info_agents_rewards_ = 0;
  std::size_t info_agents_terminated_ = 0;
};

std::string kinematics_ranges() { return "x:-100.0:100.0,y:-100.0:100.0,vx:-20.0:20.0,vy:-20.0:20.0"; }

enum class Variant { kDiscrete, kContinuous, kMultiAgent };

std::vector<Option> intersection_options(Variant variant) {
  const bool multi = variant == Variant::kMultiAgent;
  const bool continuous = variant == Variant::kContinuous;
  std::map<std::string, OptionValue> base = {
      {"duration", 13.0},
      {"controlled_vehicles", std::int64_t{multi ? 2 : 1}},
      {"screen_width", std::int64_t{600}},
      {"screen_height", std::int64_t{600}},
      {"centering_position_x", 0.5},
      {"centering_position_y", 0.6},
      {"scaling", 5.5 * 1.3},
      {"observation_type", std::string(multi ? "MultiAgentObservation" : "Kinematics")},
      {"observation_config_type", std::string("Kinematics")},
      {"observation_vehicles_count", std::int64_t{continuous ? 5 : 15}},
      {"observation_features", std::string(continuous ? "presence,x,y,vx,vy,long_off,lat_off,ang_off"
                                                      : "presence,x,y,vx,vy,cos_h,sin_h")},
      {"observation_features_range", kinematics_ranges()},
      {"observation_absolute", true},
      {"observation_observe_intentions", false},
      {"action_type", std::string(continuous ? "ContinuousAction" : multi ? "MultiAgentAction" : "DiscreteMetaAction")},
      {"action_config_type", std::string("DiscreteMetaAction")},
      {"action_longitudinal", true},
      {"action_lateral", continuous},
      {"action_target_speeds", std::string("0.0,4.5,9.0")},
  };
  if (continuous) {
    base["action_steering_range"] = number_text(-std::numbers::pi / 3) + "," + number_text(std::numbers::pi / 3);
    base["action_dynamical"] = true;
  }
  std::vector<Option> options = abstract_env_options(base);
  const std::vector<Option> own = {
      {"destination", std::string("o1"),
       "Exit node of the controlled vehicles ('o0' to 'o3'); '' (None): a random one of o1, o2, o3 per vehicle."},
      {"initial_vehicle_count", std::int64_t{10}, "Vehicles spawned at reset (at most; before the challenger)."},
      {"spawn_probability", 0.6, "Probability that a new vehicle enters after each step."},
      {"collision_reward", -5.0, "Reward weight of a collision."},
      {"high_speed_reward", 1.0, "Reward weight of full speed (linear in the speed over the range)."},
      {"arrived_reward", 1.0, "Reward once arrived (25 m into the exit), replacing the others."},
      {"reward_speed_low", 7.0, "Speed that gets no speed reward (reward_speed_range[0]) [m/s]."},
      {"reward_speed_high", 9.0, "Speed that gets the full speed reward (reward_speed_range[1]) [m/s]."},
      {"normalize_reward", false, "Map the reward from [collision_reward, arrived_reward] to [0, 1]."},
      {"offroad_terminal", false, "Leaving the road terminates the episode."},
  };
  options.insert(options.end(), own.begin(), own.end());
  if (multi) {
    options.push_back({"multi_agent_wrapper", false,
                       "Per-agent rewards and terminations (highway-env's MultiAgentWrapper, as its "
                       "intersection-multi-agent-v1/v2 have): else every agent gets the mean reward and the "
                       "episode's termination (any crash, or all arrived)."});
  }
  return options;
}

static const bool kIntersection =
    register_scenario<IntersectionEnv>("IntersectionEnv", intersection_options(Variant::kDiscrete));
static const bool kContinuousIntersection =
    register_scenario<IntersectionEnv>("ContinuousIntersectionEnv", intersection_options(Variant::kContinuous));
static const bool kMultiAgentIntersection =
    register_scenario<IntersectionEnv>("MultiAgentIntersectionEnv", intersection_options(Variant::kMultiAgent));

}  // namespace
}  // namespace rlpool::highway

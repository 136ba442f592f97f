// The Parking scenarios: ParkingEnv (parking-v0), and the ids of ParkingEnvActionRepeat (policy_frequency 1,
// duration 20) and ParkingEnvParkedVehicles (vehicles_count 10), which are ParkingEnv with other options.
// A goal-conditioned continuous-control task: the ego vehicle starts in the middle of a parking lot with a
// random heading and must stop in a random free spot, facing along it; the observation is KinematicsGoal's
// dict (observation, achieved_goal, desired_goal), and the reward is compute_reward(achieved_goal,
// desired_goal) = -(|achieved - desired| . reward_weights) ** 0.5, minus collision_reward per crashed
// controlled vehicle. The episode ends at success (compute_reward > -success_goal_reward) or a crash.
//
// Follows highway_env/envs/parking_env.py (highway-env 1.12.1). The reward, the success and the termination
// read the PARKING_OBS KinematicsGoal observation of the first controlled vehicle, whatever the configured
// observation type is (as highway-env's observation_type_parking). The Python face's task method
// compute_reward (goals.py) computes the same function over batches.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"
#include "envs/highway/observation.h"

namespace rlpool::highway {
namespace {

// PARKING_OBS["observation"]: the observation the reward and the success are computed from.
ObservationConfig parking_observation_config() {
  ObservationConfig c;
  c.type = "KinematicsGoal";
  c.features = {"x", "y", "vx", "vy", "cos_h", "sin_h"};
  c.scales = {100, 100, 5, 5, 1, 1};
  c.normalize = false;
  return c;
}

std::vector<double> reward_weights_of(const Config& config) {
  const auto weights = parse_numbers("reward_weights", config.get_string("reward_weights"));
  if (weights.size() != 6) {
    throw std::invalid_argument("option 'reward_weights' needs one weight per feature of the goal (6: x, y, vx, "
                                "vy, cos_h, sin_h), got " + std::to_string(weights.size()));
  }
  return weights;
}

class ParkingEnv final : public AbstractEnv {
 public:
  ParkingEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        vehicles_count_(static_cast<int>(config.get_int_in("vehicles_count", 0, 100000))),
        add_walls_(config.get_bool("add_walls")),
        reward_weights_(reward_weights_of(config)),
        success_goal_reward_(config.get_finite("success_goal_reward")),
        collision_reward_(config.get_finite("collision_reward")),
        parking_observation_(*this, parking_observation_config()),
        info_success_(info_index(abstract_env_spec(config, info(config)).info, "is_success")) {
    if (options().observation.multi_agent) {
      for (std::int64_t i = 0; i < options().controlled_vehicles; ++i) {
        agent_observations_.push_back(std::make_unique<KinematicsGoalObservation>(*this, options().observation));
      }
    }
  }

  static ScenarioInfo info(const Config& config) {
    const EnvOptions o = parse_env_options(config);
    reward_weights_of(config);
    config.get_int_in("vehicles_count", 0, 100000);
    config.get_finite("success_goal_reward");
    config.get_finite("collision_reward");
    ArraySpec success{.name = "is_success", .dtype = DType::kBool};
    if (o.observation.multi_agent) {
      // _info's success per agent: _is_success of each agent's own (KinematicsGoal) observation.
      if (o.observation.type != "KinematicsGoal" || o.observation.features.size() != 6) {
        throw std::invalid_argument(
            "ParkingEnv under MultiAgentObservation needs observation_config_type KinematicsGoal with 6 features "
            "(its info['is_success'] reads each agent's achieved_goal and desired_goal)");
      }
      success.shape = {o.controlled_vehicles};
    }
    return {.info = {success}};
  }

  // compute_reward(achieved_goal, desired_goal, info, p=0.5): -np.power(np.dot(|a - d|, reward_weights), p).
  // np.dot of two 6-vectors sums fused multiply-adds in order (OpenBLAS's ddot); np.power(x, 0.5) is sqrt.
  double compute_reward(const std::vector<double>& achieved, const std::vector<double>& desired) const {
    double dot = 0;
    for (std::size_t i = 0; i < reward_weights_.size(); ++i) {
      dot = std::fma(std::abs(achieved[i] - desired[i]), reward_weights_[i], dot);
    }
    return -std::sqrt(dot);
  }

 protected:
  void reset_scene() override {
    road_ = std::make_unique<Road>(make_parking_road(), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    create_vehicles();
  }

  // _reward: the PARKING_OBS goal reward plus collision_reward times the crashed controlled vehicles.
  double reward(const ActionView& /*action*/) override {
    const auto [observation, achieved, desired] = parking_observation_.goal_observation();
    double reward = 0;
    reward = reward + compute_reward(achieved, desired);
    double crashed = 0;
    for (const Vehicle* v : controlled_vehicles_) crashed += v->crashed ? 1 : 0;
    reward += collision_reward_ * crashed;
    return reward;
  }

  bool is_terminated() override {
    bool crashed = false;
    for (const Vehicle* v : controlled_vehicles_) crashed = crashed || v->crashed;
    const auto [observation, achieved, desired] = parking_observation_.goal_observation();
    return crashed || is_success(achieved, desired);
  }

  void write_info(const Output& out, const ActionView& /*action*/) override {
    if (agent_observations_.empty()) {
      const auto [observation, achieved, desired] = parking_observation_.goal_observation();
      *out.info_as<bool>(info_success_) = is_success(achieved, desired);
      return;
    }
    bool* dst = out.info_as<bool>(info_success_);
    for (std::size_t i = 0; i < agent_observations_.size(); ++i) {
      agent_observations_[i]->set_observer_vehicle(controlled_vehicles_.at(i));
      const auto [observation, achieved, desired] = agent_observations_[i]->goal_observation();
      dst[i] = is_success(achieved, desired);
    }
  }

 private:
  bool is_success(const std::vector<double>& achieved, const std::vector<double>& desired) const {
    return compute_reward(achieved, desired) > -success_goal_reward_;
  }

  // _create_vehicles: the controlled vehicles in the middle, their goals and the parked vehicles in random
  // free spots (np_random.choice over the free spots' indexes), then the four walls.
  void create_vehicles() {
    Road& road = *road_;
    std::vector<LaneIndex> empty_spots;
    for (const auto& [index, lane] : road.network.lanes_dict()) empty_spots.push_back(index);
    const auto remove = [&](const LaneIndex& index) {
      const auto it = std::find(empty_spots.begin(), empty_spots.end(), index);
      if (it == empty_spots.end()) {
        // Python's list.remove raises ValueError here: two controlled vehicles start nearest the same spot.
        throw std::invalid_argument("ParkingEnv: spot (" + index.from + ", " + index.to + ", " +
                                    std::to_string(index.id) + ") is taken twice: " +
                                    std::to_string(options().controlled_vehicles) +
                                    " controlled vehicles do not fit the parking (list.remove: x not in list)");
      }
      empty_spots.erase(it);
    };
    const auto pick = [&]() {
      if (empty_spots.empty()) {
        throw std::invalid_argument("ParkingEnv: no free spot is left for the goal of every controlled vehicle");
      }
      return empty_spots[static_cast<std::size_t>(np_random().integer(empty_spots.size()))];
    };

    // Controlled vehicles
    controlled_vehicles_.clear();
    const std::int64_t count = options().controlled_vehicles;
    for (std::int64_t i = 0; i < count; ++i) {
      const double x0 = static_cast<double>(i - count / 2) * 10.0;
      const double heading = 2.0 * std::numbers::pi * np_random().uniform();
      auto vehicle = action_type().make_vehicle(road, Vec2{x0, 0.0}, heading, 0.0);
      vehicle->color = std::array<int, 3>{50, 200, 0};  // VehicleGraphics.EGO_COLOR
      road.vehicles.push_back(vehicle);
      controlled_vehicles_.push_back(vehicle.get());
      remove(vehicle->lane_index);
    }

    // Goal
    for (Vehicle* vehicle : controlled_vehicles_) {
      const LaneIndex lane_index = pick();
      const AbstractLane& lane = road.network.get_lane(lane_index);
      const auto* straight = dynamic_cast<const StraightLane*>(&lane);
      auto goal = std::make_shared<Landmark>(&road, lane.position(lane.length / 2, 0), straight->heading);
      vehicle->goal = goal;
      road.objects.push_back(goal);
      remove(lane_index);
    }

    // Other vehicles
    for (int k = 0; k < vehicles_count_; ++k) {
      if (empty_spots.empty()) continue;
      const LaneIndex lane_index = pick();
      road.vehicles.push_back(Vehicle::make_on_lane(vehicle_factory<Vehicle>(), road, lane_index, 4.0, 0.0));
      remove(lane_index);
    }

    // Walls
    if (add_walls_) {
      const double width = 70, height = 42;
      for (const double y : {-height / 2, height / 2}) {
        auto obstacle = std::make_shared<Obstacle>(&road, Vec2{0, y});
        obstacle->length = width;
        obstacle->width = 1;
        obstacle->diagonal = std::sqrt(obstacle->length * obstacle->length + obstacle->width * obstacle->width);
        road.objects.push_back(obstacle);
      }
      for (const double x : {-width / 2, width / 2}) {
        auto obstacle = std::make_shared<Obstacle>(&road, Vec2{x, 0}, std::numbers::pi / 2);
        obstacle->length = height;
        obstacle->width = 1;
        obstacle->diagonal = std::sqrt(obstacle->length * obstacle->length + obstacle->width * obstacle->width);
        road.objects.push_back(obstacle);
      }
    }
  }

  int vehicles_count_;
  bool add_walls_;
  std::vector<double> reward_weights_;
  double success_goal_reward_;
  double collision_reward_;
  KinematicsGoalObservation parking_observation_;  // observation_type_parking (PARKING_OBS)
  std::vector<std::unique_ptr<KinematicsGoalObservation>> agent_observations_;  // MultiAgentObservation's
  std::size_t info_success_;
};

std::vector<Option> parking_options() {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("KinematicsGoal")},
      {"observation_features", std::string("x,y,vx,vy,cos_h,sin_h")},
      {"observation_scales", std::string("100,100,5,5,1,1")},
      {"observation_normalize", false},
      {"action_type", std::string("ContinuousAction")},
      {"simulation_frequency", std::int64_t{15}},
      {"policy_frequency", std::int64_t{5}},
      {"duration", 100.0},
      {"screen_width", std::int64_t{600}},
      {"screen_height", std::int64_t{300}},
      {"centering_position_x", 0.5},
      {"centering_position_y", 0.5},
      {"scaling", 7.0},
      {"controlled_vehicles", std::int64_t{1}},
  });
  const std::vector<Option> own = {
      {"vehicles_count", std::int64_t{0}, "Number of parked vehicles, each in a random free spot."},
      {"add_walls", true, "Walls around the parking lot (70 m x 42 m)."},
      {"reward_weights", std::string("1,0.3,0,0,0.02,0.02"),
       "Weights of |achieved_goal - desired_goal| (x, y, vx, vy, cos_h, sin_h) in compute_reward, "
       "comma-separated (a list in Python)."},
      {"success_goal_reward", 0.12, "Success (info['is_success'], termination) when compute_reward > -this."},
      {"collision_reward", -5.0, "Reward per crashed controlled vehicle."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

const bool kParking = register_scenario<ParkingEnv>("ParkingEnv", parking_options());

}  // namespace
}  // namespace rlpool::highway

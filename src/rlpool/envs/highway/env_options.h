// The highway family's options as highway-env's config dict holds them: the scalar keys become rlpool
// options of the same name, and the nested "observation" and "action" dicts become options prefixed
// `observation_` and `action_` (EnvPool 1.2.7's spelling: `observation_vehicles_count`). rlpool's options
// are scalars, so list-valued keys are strings that registration.py's `encode` writes from Python lists:
// names joined by commas ("presence,x,y"), numbers joined by commas ("20,25,30"), a feature range dict as
// "x:-100:100,y:-100:100", and "" for highway-env's None (the type's default).
//
// Follows highway_env/envs/common/abstract.py (default_config), observation.py and action.py (the
// constructors' keyword arguments and their defaults).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "_core/env/env.h"

namespace rlpool::highway {

// "a,b,c" -> {"a", "b", "c"}; "" -> {}. Throws std::invalid_argument naming `option` for an empty name.
std::vector<std::string> parse_names(const std::string& option, const std::string& text);
// "1,2.5,-3" -> {1, 2.5, -3}; "" -> {}. Every number must parse whole and be finite.
std::vector<double> parse_numbers(const std::string& option, const std::string& text);
// A features_range dict: "x:-100:100,y:-100:100" -> {("x", {-100, 100}), ...} in the given order.
using FeatureRanges = std::vector<std::pair<std::string, std::array<double, 2>>>;
FeatureRanges parse_ranges(const std::string& option, const std::string& text);
// Python's repr of a float (shortest round-trip), for option docs and the state's config key.
std::string number_text(double value);

// The options every scenario of the family takes (AbstractEnv.default_config plus the observation and
// action keys), with a scenario's defaults replacing the base's: `overrides` maps an option name to its
// default for this scenario (a name the base does not declare is a std::logic_error). A scenario appends
// its own options (lanes_count, ...) to the list it gets back.
std::vector<Option> abstract_env_options(const std::map<std::string, OptionValue>& overrides = {});

// The scenario-independent options, parsed and checked (std::invalid_argument naming the option).
struct ObservationConfig {
  // Kinematics, OccupancyGrid, TimeToCollision, KinematicsGoal, AttributesObservation, LidarObservation,
  // ExitObservation. MultiAgentObservation is `multi_agent` with the agents' type in `type`.
  std::string type;
  bool multi_agent = false;
  std::vector<std::string> features;  // the type's default where the option is ""
  int vehicles_count = 5;
  FeatureRanges features_range;  // empty: None (highway-env derives the ranges at the first observation)
  bool absolute = false;
  std::string order = "sorted";
  bool normalize = true;
  bool clip = true;
  bool see_behind = false;
  bool observe_intentions = false;
  bool include_obstacles = true;
  // OccupancyGrid
  std::array<std::array<double, 2>, 2> grid_size{{{-5.5 * 5, 5.5 * 5}, {-5.5 * 5, 5.5 * 5}}};
  std::array<double, 2> grid_step{5, 5};
  bool align_to_vehicle_axes = false;
  bool as_image = false;
  // TimeToCollision
  int horizon = 10;
  // KinematicsGoal
  std::vector<double> scales;
  // AttributesObservation
  std::vector<std::string> attributes;
  // LidarObservation
  int cells = 16;
  double maximum_range = 60;
  // GrayscaleObservation (its viewer: observation_shape is its screen size; scaling 0 and an empty
  // centering_position keep the env's viewer's, as Python's `scaling or config["scaling"]`).
  std::array<int, 2> observation_shape{128, 64};
  int stack_size = 4;
  std::array<double, 3> weights{0.2989, 0.5870, 0.1140};
  double scaling = 0;
  bool has_centering_position = false;
  std::array<double, 2> centering_position{0, 0};
};

struct ActionConfig {
  // ContinuousAction, DiscreteAction, DiscreteMetaAction. MultiAgentAction is `multi_agent` with the
  // agents' type in `type`.
  std::string type;
  bool multi_agent = false;
  bool longitudinal = true;
  bool lateral = true;
  std::vector<double> target_speeds;  // empty: MDPVehicle.DEFAULT_TARGET_SPEEDS
  std::array<double, 2> acceleration_range{-5.0, 5.0};
  std::array<double, 2> steering_range;  // (-pi/4, pi/4) unless given
  bool has_speed_range = false;
  std::array<double, 2> speed_range{0, 0};
  bool dynamical = false;
  bool clip = true;
  int actions_per_axis = 3;
};

struct EnvOptions {
  // The viewer (EnvViewer's config keys; render() draws at screen_width x screen_height).
  int screen_width = 600;
  int screen_height = 150;
  double scaling = 5.5;
  std::array<double, 2> centering_position{0.3, 0.5};
  std::int64_t simulation_frequency = 15;
  std::int64_t policy_frequency = 1;
  std::string other_vehicles_type;  // "IDMVehicle", "LinearVehicle", "AggressiveVehicle", "DefensiveVehicle"
  double duration = 40;
  std::int64_t controlled_vehicles = 1;
  bool neighbour_vehicles_connected_lanes = false;
  ObservationConfig observation;
  ActionConfig action;
};

// Reads and checks the options abstract_env_options declares.
EnvOptions parse_env_options(const Config& config);

// The class name of other_vehicles_type: highway-env's class path
// ("highway_env.vehicle.behavior.IDMVehicle") or the bare class name.
std::string other_vehicles_class(const std::string& option_value);

}  // namespace rlpool::highway

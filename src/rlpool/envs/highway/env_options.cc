// The highway family's common options: declaration (with a scenario's defaults), parsing and checks.
// Follows highway_env/envs/common/abstract.py, observation.py and action.py (their defaults).
#include "envs/highway/env_options.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <set>
#include <stdexcept>

namespace rlpool::highway {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(sep, start);
    parts.push_back(trim(text.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return parts;
}

double parse_number(const std::string& option, const std::string& text) {
  double value = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (!text.empty() && *begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw std::invalid_argument("option '" + option + "': '" + text + "' is not a number");
  }
  if (!std::isfinite(value)) {
    throw std::invalid_argument("option '" + option + "': " + text + " is not finite");
  }
  return value;
}

const std::set<std::string> kObservationTypes = {
    "Kinematics",        "OccupancyGrid",       "TimeToCollision", "KinematicsGoal", "AttributesObservation",
    "LidarObservation",  "ExitObservation",     "MultiAgentObservation", "GrayscaleObservation",
    "TupleObservation"};
const std::set<std::string> kActionTypes = {"ContinuousAction", "DiscreteAction", "DiscreteMetaAction",
                                            "MultiAgentAction"};
const std::set<std::string> kVehicleClasses = {"IDMVehicle", "LinearVehicle", "AggressiveVehicle",
                                               "DefensiveVehicle"};
// Vehicle.to_dict's keys (RoadObject.to_dict has fewer: the rest are NaN for objects) and OccupancyGrid's
// "on_road" layer.
const std::set<std::string> kFeatures = {"presence", "x",     "y",     "vx",       "vy",      "heading",
                                         "cos_h",    "sin_h", "cos_d", "sin_d",    "long_off", "lat_off",
                                         "ang_off"};

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void check_member(const std::string& option, const std::string& value, const std::set<std::string>& allowed) {
  if (allowed.count(value) == 0) {
    throw std::invalid_argument("option '" + option + "' must be one of " + join(allowed) + ", got '" + value +
                                "'");
  }
}

std::vector<std::string> default_features(const std::string& type) {
  if (type == "OccupancyGrid") return {"presence", "vx", "vy", "on_road"};
  return {"presence", "x", "y", "vx", "vy"};
}

}  // namespace

std::string number_text(double value) {
  char buffer[64];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return ec == std::errc() ? std::string(buffer, ptr) : std::to_string(value);
}

std::vector<std::string> parse_names(const std::string& option, const std::string& text) {
  if (trim(text).empty()) return {};
  auto names = split(text, ',');
  for (const auto& n : names) {
    if (n.empty()) throw std::invalid_argument("option '" + option + "' has an empty name in '" + text + "'");
  }
  return names;
}

std::vector<double> parse_numbers(const std::string& option, const std::string& text) {
  std::vector<double> out;
  if (trim(text).empty()) return out;
  for (const auto& part : split(text, ',')) out.push_back(parse_number(option, part));
  return out;
}

FeatureRanges parse_ranges(const std::string& option, const std::string& text) {
  FeatureRanges out;
  if (trim(text).empty()) return out;
  for (const auto& item : split(text, ',')) {
    const auto parts = split(item, ':');
    if (parts.size() != 3 || parts[0].empty()) {
      throw std::invalid_argument("option '" + option + "': '" + item +
                                  "' is not 'feature:low:high' (e.g. 'x:-100:100,y:-100:100')");
    }
    for (const auto& [name, range] : out) {
      if (name == parts[0]) throw std::invalid_argument("option '" + option + "' repeats feature '" + name + "'");
    }
    out.push_back({parts[0], {parse_number(option, parts[1]), parse_number(option, parts[2])}});
  }
  return out;
}

std::vector<Option> abstract_env_options(const std::map<std::string, OptionValue>& overrides) {
  std::vector<Option> options = {
      {"simulation_frequency", std::int64_t{15}, "Simulation steps per second (Hz)."},
      {"policy_frequency", std::int64_t{1},
       "Actions per second (Hz); each step simulates simulation_frequency // policy_frequency steps."},
      {"other_vehicles_type", std::string("highway_env.vehicle.behavior.IDMVehicle"),
       "Class of the other vehicles: IDMVehicle, LinearVehicle, AggressiveVehicle or DefensiveVehicle "
       "(highway-env's class path or the bare name)."},
      {"duration", 40.0, "Episode duration in seconds of simulated time (truncation at time >= duration)."},
      {"controlled_vehicles", std::int64_t{1}, "Number of controlled (ego) vehicles."},
      {"neighbour_vehicles_connected_lanes", false,
       "Road.neighbour_vehicles also searches the connected lane segments (highway-env 1.12's ConnectedLane "
       "variants)."},
      {"screen_width", std::int64_t{600}, "Viewer width in pixels: render()'s frame width."},
      {"screen_height", std::int64_t{150}, "Viewer height in pixels: render()'s frame height."},
      {"centering_position_x", 0.3, "Horizontal position of the ego vehicle in the viewer (fraction)."},
      {"centering_position_y", 0.5, "Vertical position of the ego vehicle in the viewer (fraction)."},
      {"scaling", 5.5, "Viewer scale in pixels per metre."},
      // observation
      {"observation_type", std::string("Kinematics"),
       "Observation type: Kinematics, OccupancyGrid, TimeToCollision, KinematicsGoal, AttributesObservation, "
       "LidarObservation, ExitObservation, GrayscaleObservation or MultiAgentObservation (one of "
       "observation_config_type per controlled vehicle)."},
      {"observation_config_type", std::string("Kinematics"),
       "The agents' observation type under MultiAgentObservation."},
      {"observation_features", std::string(""),
       "Feature names, comma-separated (a list in Python); empty: the type's default."},
      {"observation_vehicles_count", std::int64_t{5}, "Kinematics: rows (the observer and its closest vehicles)."},
      {"observation_features_range", std::string(""),
       "Normalisation ranges, 'x:-100:100,y:-100:100' (a dict of [low, high] in Python); empty: highway-env's "
       "defaults from the observer's road at reset."},
      {"observation_absolute", false, "Kinematics: absolute coordinates (else relative to the observer)."},
      {"observation_order", std::string("sorted"), "Kinematics: 'sorted' by distance ('shuffled' is not supported)."},
      {"observation_normalize", true, "Kinematics and Lidar: normalise values."},
      {"observation_clip", true, "Kinematics and OccupancyGrid: clip normalised values to [-1, 1]."},
      {"observation_see_behind", false, "Kinematics: also observe vehicles behind the observer."},
      {"observation_observe_intentions", false, "Kinematics: the other vehicles' cos_d and sin_d are observed."},
      {"observation_include_obstacles", true, "Kinematics: obstacles are observed too."},
      {"observation_grid_size", std::string(""),
       "OccupancyGrid: 'x_min,x_max,y_min,y_max' in metres; empty: -27.5,27.5,-27.5,27.5."},
      {"observation_grid_step", std::string(""), "OccupancyGrid: 'step_x,step_y' in metres; empty: 5,5."},
      {"observation_align_to_vehicle_axes", false, "OccupancyGrid: the grid turns with the observer."},
      {"observation_as_image", false, "OccupancyGrid: uint8 image in [0, 255] instead of floats."},
      {"observation_horizon", std::int64_t{10}, "TimeToCollision: horizon in seconds."},
      {"observation_scales", std::string(""), "KinematicsGoal: one scale per feature, comma-separated."},
      {"observation_attributes", std::string(""), "AttributesObservation: env attributes, comma-separated."},
      {"observation_cells", std::int64_t{16}, "LidarObservation: number of angular sectors."},
      {"observation_maximum_range", 60.0, "LidarObservation: range in metres."},
      {"observation_observation_shape", std::string("128,64"),
       "GrayscaleObservation: 'width,height' of its frames (its viewer's screen size)."},
      {"observation_stack_size", std::int64_t{4}, "GrayscaleObservation: frames stacked (the newest last)."},
      {"observation_weights", std::string("0.2989,0.587,0.114"),
       "GrayscaleObservation: the weights of R, G and B in the gray value, comma-separated."},
      {"observation_scaling", 0.0, "GrayscaleObservation: its viewer's scale in pixels per metre; 0: the env's."},
      {"observation_centering_position", std::string(""),
       "GrayscaleObservation: 'x,y' position of the observer in its frames (fractions); empty: the env's."},
      // action
      {"action_type", std::string("DiscreteMetaAction"),
       "Action type: DiscreteMetaAction, DiscreteAction, ContinuousAction or MultiAgentAction (one of "
       "action_config_type per controlled vehicle)."},
      {"action_config_type", std::string("DiscreteMetaAction"), "The agents' action type under MultiAgentAction."},
      {"action_longitudinal", true, "Throttle (or faster/slower meta-actions) is controlled."},
      {"action_lateral", true, "Steering (or lane-change meta-actions) is controlled."},
      {"action_target_speeds", std::string(""),
       "DiscreteMetaAction: the speeds the vehicle tracks, comma-separated; empty: 20,25,30."},
      {"action_acceleration_range", std::string(""), "Continuous actions: 'low,high' in m/s^2; empty: -5,5."},
      {"action_steering_range", std::string(""), "Continuous actions: 'low,high' in rad; empty: -pi/4,pi/4."},
      {"action_speed_range", std::string(""),
       "ContinuousAction: 'low,high' replaces the controlled vehicle's MIN_SPEED and MAX_SPEED; empty: None."},
      {"action_dynamical", false, "Continuous actions: BicycleVehicle dynamics (with friction) instead of kinematics."},
      {"action_clip", true, "Continuous actions: clip the action to [-1, 1]."},
      {"action_actions_per_axis", std::int64_t{3}, "DiscreteAction: quantisation steps per axis."},
  };
  for (const auto& [name, value] : overrides) {
    bool found = false;
    for (auto& option : options) {
      if (option.name == name) {
        if (option.default_value.index() != value.index()) {
          throw std::logic_error("highway: the default of option '" + name + "' has the wrong type");
        }
        option.default_value = value;
        found = true;
      }
    }
    if (!found) throw std::logic_error("highway: '" + name + "' is not an option of every highway scenario");
  }
  return options;
}

std::string other_vehicles_class(const std::string& value) {
  const auto dot = value.rfind('.');
  const std::string name = dot == std::string::npos ? value : value.substr(dot + 1);
  check_member("other_vehicles_type", name, kVehicleClasses);
  if (dot != std::string::npos && value.substr(0, dot) != "highway_env.vehicle.behavior") {
    throw std::invalid_argument("option 'other_vehicles_type': '" + value +
                                "' is not a class of highway_env.vehicle.behavior");
  }
  return name;
}

EnvOptions parse_env_options(const Config& config) {
  EnvOptions o;
  o.screen_width = static_cast<int>(config.get_int_in("screen_width", 1, 16384));
  o.screen_height = static_cast<int>(config.get_int_in("screen_height", 1, 16384));
  o.scaling = config.get_finite("scaling");
  if (!(o.scaling > 0)) {
    throw std::invalid_argument("option 'scaling' must be positive (pixels per metre), got " + number_text(o.scaling));
  }
  o.centering_position = {config.get_finite("centering_position_x"), config.get_finite("centering_position_y")};
  o.simulation_frequency = config.get_int_in("simulation_frequency", 1, 10000);
  o.policy_frequency = config.get_int_in("policy_frequency", 1, o.simulation_frequency);
  o.other_vehicles_type = other_vehicles_class(config.get_string("other_vehicles_type"));
  o.duration = config.get_finite("duration");
  o.controlled_vehicles = config.get_int_in("controlled_vehicles", 1, kMaxAgents);
  o.neighbour_vehicles_connected_lanes = config.get_bool("neighbour_vehicles_connected_lanes");

  auto& obs = o.observation;
  obs.type = config.get_string("observation_type");
  check_member("observation_type", obs.type, kObservationTypes);
  if (obs.type == "MultiAgentObservation") {
    obs.multi_agent = true;
    obs.type = config.get_string("observation_config_type");
    check_member("observation_config_type", obs.type, kObservationTypes);
    if (obs.type == "MultiAgentObservation") {
      throw std::invalid_argument("option 'observation_config_type' cannot be MultiAgentObservation itself");
    }
  }
  if (obs.type == "TupleObservation") {
    throw std::invalid_argument("observation_type TupleObservation is not supported (one observation type per env)");
  }
  obs.features = parse_names("observation_features", config.get_string("observation_features"));
  if (obs.features.empty()) obs.features = default_features(obs.type);
  for (const auto& f : obs.features) {
    if (kFeatures.count(f) == 0 && !(obs.type == "OccupancyGrid" && f == "on_road")) {
      throw std::invalid_argument("option 'observation_features': unknown feature '" + f + "' (features: " +
                                  join(kFeatures) + (obs.type == "OccupancyGrid" ? ", on_road)" : ")"));
    }
  }
  obs.vehicles_count = static_cast<int>(config.get_int_in("observation_vehicles_count", 1, 1000));
  obs.features_range = parse_ranges("observation_features_range", config.get_string("observation_features_range"));
  obs.absolute = config.get_bool("observation_absolute");
  obs.order = config.get_string("observation_order");
  if (obs.order == "shuffled") {
    throw std::invalid_argument(
        "option 'observation_order': 'shuffled' is not supported (it needs numpy's Generator.shuffle, which "
        "rlpool's generator does not reproduce); use 'sorted'");
  }
  if (obs.order != "sorted") {
    throw std::invalid_argument("option 'observation_order' must be 'sorted', got '" + obs.order + "'");
  }
  obs.normalize = config.get_bool("observation_normalize");
  obs.clip = config.get_bool("observation_clip");
  obs.see_behind = config.get_bool("observation_see_behind");
  obs.observe_intentions = config.get_bool("observation_observe_intentions");
  obs.include_obstacles = config.get_bool("observation_include_obstacles");
  const auto grid_size = parse_numbers("observation_grid_size", config.get_string("observation_grid_size"));
  if (!grid_size.empty()) {
    if (grid_size.size() != 4) {
      throw std::invalid_argument("option 'observation_grid_size' needs 4 numbers 'x_min,x_max,y_min,y_max'");
    }
    obs.grid_size = {{{grid_size[0], grid_size[1]}, {grid_size[2], grid_size[3]}}};
  }
  const auto grid_step = parse_numbers("observation_grid_step", config.get_string("observation_grid_step"));
  if (!grid_step.empty()) {
    if (grid_step.size() != 2) throw std::invalid_argument("option 'observation_grid_step' needs 2 numbers");
    obs.grid_step = {grid_step[0], grid_step[1]};
  }
  for (int i = 0; i < 2; ++i) {
    if (!(obs.grid_step[i] > 0)) throw std::invalid_argument("option 'observation_grid_step' must be positive");
    const double cells = std::floor((obs.grid_size[i][1] - obs.grid_size[i][0]) / obs.grid_step[i]);
    if (obs.type == "OccupancyGrid" && !(cells >= 1 && cells <= 4096)) {
      throw std::invalid_argument("options 'observation_grid_size' and 'observation_grid_step' give " +
                                  number_text(cells) + " cells on an axis (1 to 4096 allowed)");
    }
  }
  obs.align_to_vehicle_axes = config.get_bool("observation_align_to_vehicle_axes");
  obs.as_image = config.get_bool("observation_as_image");
  obs.horizon = static_cast<int>(config.get_int_in("observation_horizon", 1, 100000));
  obs.scales = parse_numbers("observation_scales", config.get_string("observation_scales"));
  if (obs.type == "KinematicsGoal" && obs.scales.size() != obs.features.size()) {
    throw std::invalid_argument("option 'observation_scales' needs one scale per feature (" +
                                std::to_string(obs.features.size()) + "), got " + std::to_string(obs.scales.size()));
  }
  obs.attributes = parse_names("observation_attributes", config.get_string("observation_attributes"));
  obs.cells = static_cast<int>(config.get_int_in("observation_cells", 1, 100000));
  obs.maximum_range = config.get_finite("observation_maximum_range");
  if (!(obs.maximum_range > 0)) throw std::invalid_argument("option 'observation_maximum_range' must be positive");
  const auto shape = parse_numbers("observation_observation_shape", config.get_string("observation_observation_shape"));
  if (shape.size() != 2 || shape[0] != std::floor(shape[0]) || shape[1] != std::floor(shape[1]) || shape[0] < 1 ||
      shape[1] < 1 || shape[0] > 16384 || shape[1] > 16384) {
    throw std::invalid_argument("option 'observation_observation_shape' needs 2 whole numbers 'width,height' (1 to "
                                "16384), got '" + config.get_string("observation_observation_shape") + "'");
  }
  obs.observation_shape = {static_cast<int>(shape[0]), static_cast<int>(shape[1])};
  obs.stack_size = static_cast<int>(config.get_int_in("observation_stack_size", 1, 1024));
  const auto weights = parse_numbers("observation_weights", config.get_string("observation_weights"));
  if (weights.size() != 3) {
    throw std::invalid_argument("option 'observation_weights' needs 3 numbers (R, G, B), got '" +
                                config.get_string("observation_weights") + "'");
  }
  obs.weights = {weights[0], weights[1], weights[2]};
  obs.scaling = config.get_finite("observation_scaling");
  if (obs.scaling < 0) {
    throw std::invalid_argument("option 'observation_scaling' must be positive, or 0 for the env's scaling");
  }
  const auto centering =
      parse_numbers("observation_centering_position", config.get_string("observation_centering_position"));
  if (!centering.empty()) {
    if (centering.size() != 2) throw std::invalid_argument("option 'observation_centering_position' needs 2 numbers");
    obs.has_centering_position = true;
    obs.centering_position = {centering[0], centering[1]};
  }

  auto& act = o.action;
  act.type = config.get_string("action_type");
  check_member("action_type", act.type, kActionTypes);
  if (act.type == "MultiAgentAction") {
    act.multi_agent = true;
    act.type = config.get_string("action_config_type");
    check_member("action_config_type", act.type, kActionTypes);
    if (act.type == "MultiAgentAction") {
      throw std::invalid_argument("option 'action_config_type' cannot be MultiAgentAction itself");
    }
  }
  act.longitudinal = config.get_bool("action_longitudinal");
  act.lateral = config.get_bool("action_lateral");
  if (!act.longitudinal && !act.lateral) {
    throw std::invalid_argument(act.type == "DiscreteMetaAction"
                                    ? "At least longitudinal or lateral actions must be included "
                                      "(action_longitudinal and action_lateral are both False)"
                                    : "Either longitudinal and/or lateral control must be enabled "
                                      "(action_longitudinal and action_lateral are both False)");
  }
  act.target_speeds = parse_numbers("action_target_speeds", config.get_string("action_target_speeds"));
  if (act.target_speeds.empty()) act.target_speeds = {20.0, 25.0, 30.0};
  const auto pair = [&](const char* name, std::array<double, 2>& out) {
    const auto v = parse_numbers(name, config.get_string(name));
    if (v.empty()) return false;
    if (v.size() != 2) throw std::invalid_argument(std::string("option '") + name + "' needs 2 numbers 'low,high'");
    out = {v[0], v[1]};
    return true;
  };
  pair("action_acceleration_range", act.acceleration_range);
  act.steering_range = {-std::numbers::pi / 4, std::numbers::pi / 4};
  pair("action_steering_range", act.steering_range);
  act.has_speed_range = pair("action_speed_range", act.speed_range);
  act.dynamical = config.get_bool("action_dynamical");
  act.clip = config.get_bool("action_clip");
  act.actions_per_axis = static_cast<int>(config.get_int_in("action_actions_per_axis", 1, 1000));

  if (obs.multi_agent != act.multi_agent) {
    throw std::invalid_argument(
        "observation_type MultiAgentObservation and action_type MultiAgentAction go together: one agent per "
        "controlled vehicle needs both (got observation_type " +
        config.get_string("observation_type") + ", action_type " + config.get_string("action_type") + ")");
  }
  return o;
}

}  // namespace rlpool::highway

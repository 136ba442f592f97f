// Observation types of the highway family (see observation.h): Kinematics, ExitObservation,
// TimeToCollision, KinematicsGoal, AttributesObservation, and the factory and spaces. OccupancyGrid and
// Lidar are in observation_grid.cc.
//
// Follows highway_env/envs/common/observation.py and finite_mdp.py (compute_ttc_grid), highway-env 1.12.1.
#include "envs/highway/observation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "envs/highway/highway_env.h"
#include "envs/highway/render.h"

namespace rlpool::highway {
namespace {

// utils.lmap(v, [x0, x1], [y0, y1]) in float64, Python's order.
double lmap2(double v, double x0, double x1, double y0, double y1) { return y0 + (v - x0) * (y1 - y0) / (x1 - x0); }

// np.clip(v, -1, 1) (NaN stays NaN).
double clip1(double v) { return v < -1 ? -1.0 : (v > 1 ? 1.0 : v); }

std::vector<double> feature_row(const ObjectDict& d, const std::vector<std::string>& features) {
  std::vector<double> row;
  row.reserve(features.size());
  for (const auto& f : features) row.push_back(d.get(f));
  return row;
}

}  // namespace

Vehicle* ObservationType::observer_vehicle() const { return observer_ != nullptr ? observer_ : env_.vehicle(); }

// --------------------------------------------------------------------------- Kinematics

KinematicObservation::KinematicObservation(AbstractEnv& env, const ObservationConfig& config, bool exit)
    : ObservationType(env, config), exit_(exit), ranges_(config.features_range) {}

std::vector<std::vector<double>> KinematicObservation::rows() {
  Vehicle* observer = observer_vehicle();
  const Road& road = env_.road();
  std::vector<std::vector<double>> out;
  ObjectDict ego = observer->to_dict();
  if (exit_) {
    // ExitObservation: the observer's x is its distance along the exit lane ("1", "2", -1): Python's index -1,
    // the road's last lane (not the None of a route's lane index).
    ego.x = road.network.lanes("1", "2").back()->local_coordinates(observer->position).first;
  }
  out.push_back(feature_row(ego, config_.features));
  const int count = config_.vehicles_count - 1;
  std::vector<RoadObject*> close;
  if (exit_) {
    for (Vehicle* v : road.close_vehicles_to(*observer, AbstractEnv::PERCEPTION_DISTANCE, count, config_.see_behind)) {
      close.push_back(v);
    }
  } else {
    close = road.close_objects_to(*observer, AbstractEnv::PERCEPTION_DISTANCE, count, config_.see_behind,
                                  /*sort=*/config_.order == "sorted", /*vehicles_only=*/!config_.include_obstacles);
  }
  // close[-vehicles_count + 1:]: with vehicles_count 1 Python takes them all (and returns more rows than
  // its space has); the rows past vehicles_count are left out here.
  const std::size_t keep = count > 0 ? std::min<std::size_t>(close.size(), static_cast<std::size_t>(count)) : 0;
  const RoadObject* origin = config_.absolute ? nullptr : observer;
  for (std::size_t i = close.size() - keep; i < close.size(); ++i) {
    out.push_back(feature_row(close[i]->to_dict(origin, config_.observe_intentions), config_.features));
  }
  return out;
}

void KinematicObservation::normalize(std::vector<std::vector<double>>& rows) {
  if (ranges_.empty()) {
    // highway-env's defaults, derived once per observation type (at the reset's observation).
    const auto side_lanes = env_.road().network.all_side_lanes(observer_vehicle()->lane_index);
    const double lanes = static_cast<double>(side_lanes.size());
    ranges_ = {{"x", {-5.0 * Vehicle::MAX_SPEED, 5.0 * Vehicle::MAX_SPEED}},
               {"y", {-AbstractLane::DEFAULT_WIDTH * lanes, AbstractLane::DEFAULT_WIDTH * lanes}},
               {"vx", {-2 * Vehicle::MAX_SPEED, 2 * Vehicle::MAX_SPEED}},
               {"vy", {-2 * Vehicle::MAX_SPEED, 2 * Vehicle::MAX_SPEED}}};
  }
  for (const auto& [feature, range] : ranges_) {
    const auto it = std::find(config_.features.begin(), config_.features.end(), feature);
    if (it == config_.features.end()) continue;
    const auto col = static_cast<std::size_t>(it - config_.features.begin());
    for (auto& row : rows) {
      row[col] = lmap2(row[col], range[0], range[1], -1, 1);
      if (config_.clip) row[col] = clip1(row[col]);
    }
  }
}

void KinematicObservation::observe(void* const* entries) {
  auto rows_ = rows();
  if (config_.normalize) normalize(rows_);
  auto* dst = static_cast<float*>(entries[0]);
  const std::size_t f = config_.features.size();
  std::fill(dst, dst + static_cast<std::size_t>(config_.vehicles_count) * f, 0.0f);
  for (std::size_t r = 0; r < rows_.size() && r < static_cast<std::size_t>(config_.vehicles_count); ++r) {
    for (std::size_t c = 0; c < f; ++c) dst[r * f + c] = static_cast<float>(rows_[r][c]);
  }
}

// --------------------------------------------------------------------------- TimeToCollision

TimeToCollisionObservation::TimeToCollisionObservation(AbstractEnv& env, const ObservationConfig& config)
    : ObservationType(env, config) {}

namespace {

// finite_mdp.compute_ttc_grid: [speeds][lanes][time] of the predicted collision costs.
std::vector<double> compute_ttc_grid(AbstractEnv& env, const MDPVehicle& vehicle, double time_quantization,
                                     double horizon, std::size_t& speeds, std::size_t& lanes, std::size_t& times) {
  const Road& road = env.road();
  const RoadNetwork& network = road.network;
  const auto road_lanes = network.all_side_lanes(env.vehicle()->lane_index);
  speeds = vehicle.target_speeds.size();
  lanes = road_lanes.size();
  times = static_cast<std::size_t>(static_cast<std::int64_t>(horizon / time_quantization));
  std::vector<double> grid(speeds * lanes * times, 0.0);
  const Route route = vehicle.route ? *vehicle.route : Route{};
  const std::size_t vehicle_side_lanes = network.all_side_lanes(vehicle.lane_index).size();
  for (std::size_t speed_index = 0; speed_index < speeds; ++speed_index) {
    const double ego_speed = vehicle.index_to_speed(static_cast<int>(speed_index));
    for (const auto& other_ptr : road.vehicles) {
      const Vehicle& other = *other_ptr;
      if (&other == &vehicle || ego_speed == other.speed) continue;
      const double margin = other.length / 2 + vehicle.length / 2;
      const std::array<std::pair<double, double>, 3> collision_points = {
          {{0, 1}, {-margin, 0.5}, {margin, 0.5}}};
      for (const auto& [m, cost] : collision_points) {
        const double distance = vehicle.lane_distance_to(&other) + m;
        const double other_projected_speed = other.speed * np_dot(other.direction(), vehicle.direction());
        const double time_to_collision = distance / not_zero(ego_speed - other_projected_speed);
        if (time_to_collision < 0) continue;
        if (!network.is_connected_road(vehicle.lane_index, other.lane_index, route, false, 3)) continue;
        std::vector<std::size_t> lane_ids;
        if (network.all_side_lanes(other.lane_index).size() == vehicle_side_lanes) {
          lane_ids.push_back(static_cast<std::size_t>(other.lane_index.id));
        } else {
          for (std::size_t l = 0; l < lanes; ++l) lane_ids.push_back(l);
        }
        const double q = time_to_collision / time_quantization;
        for (const double t : {std::trunc(q), std::ceil(q)}) {
          if (!(t >= 0 && t < static_cast<double>(times))) continue;
          const auto time = static_cast<std::size_t>(t);
          for (const std::size_t lane : lane_ids) {
            if (lane >= lanes) continue;  // highway-env would index past the grid (an IndexError)
            double& cell = grid[(speed_index * lanes + lane) * times + time];
            cell = std::max(cell, cost);
          }
        }
      }
    }
  }
  return grid;
}

}  // namespace

void TimeToCollisionObservation::observe(void* const* entries) {
  const auto* observer = as_mdp_vehicle(observer_vehicle());
  if (observer == nullptr) {
    throw std::logic_error("highway: TimeToCollision observes an MDPVehicle (DiscreteMetaAction's vehicle)");
  }
  const double time_quantization = 1.0 / static_cast<double>(env_.options().policy_frequency);
  std::size_t speeds = 0, lanes = 0, times = 0;
  const auto grid = compute_ttc_grid(env_, *observer, time_quantization, config_.horizon, speeds, lanes, times);
  // Pad the lanes with ones, keep the observer's lane and its neighbours; repeat the first and last speed
  // rows, keep the observer's speed index and its neighbours.
  auto* dst = static_cast<float*>(entries[0]);
  const auto s = static_cast<std::int64_t>(speeds);
  const auto l = static_cast<std::int64_t>(lanes);
  for (std::int64_t dv = 0; dv < 3; ++dv) {
    const std::int64_t p = s + observer->speed_index - 1 + dv;
    const std::int64_t row = std::clamp<std::int64_t>(p - s, 0, s - 1);
    for (std::int64_t dl = 0; dl < 3; ++dl) {
      const std::int64_t q = l + observer->lane_index.id - 1 + dl;
      const bool inside = q >= l && q < 2 * l;
      for (std::size_t t = 0; t < times; ++t) {
        const double value =
            inside ? grid[(static_cast<std::size_t>(row) * lanes + static_cast<std::size_t>(q - l)) * times + t] : 1.0;
        dst[(static_cast<std::size_t>(dv) * 3 + static_cast<std::size_t>(dl)) * times + t] = static_cast<float>(value);
      }
    }
  }
}

// --------------------------------------------------------------------------- KinematicsGoal

KinematicsGoalObservation::KinematicsGoalObservation(AbstractEnv& env, const ObservationConfig& config)
    : ObservationType(env, config) {}

std::array<std::vector<double>, 3> KinematicsGoalObservation::goal_observation() const {
  const Vehicle* observer = observer_vehicle();
  if (!observer->goal) throw std::logic_error("highway: KinematicsGoal observes a vehicle with a goal (parking)");
  const auto obs = feature_row(observer->to_dict(), config_.features);
  const auto goal = feature_row(observer->goal->to_dict(), config_.features);
  std::array<std::vector<double>, 3> out;
  for (std::size_t i = 0; i < obs.size(); ++i) {
    out[0].push_back(obs[i] / config_.scales[i]);
    out[1].push_back(obs[i] / config_.scales[i]);
    out[2].push_back(goal[i] / config_.scales[i]);
  }
  return out;
}

void KinematicsGoalObservation::observe(void* const* entries) {
  // Entries in the Dict space's (sorted) order: achieved_goal, desired_goal, observation.
  const auto [observation, achieved, desired] = goal_observation();
  std::copy(achieved.begin(), achieved.end(), static_cast<double*>(entries[0]));
  std::copy(desired.begin(), desired.end(), static_cast<double*>(entries[1]));
  std::copy(observation.begin(), observation.end(), static_cast<double*>(entries[2]));
}

// --------------------------------------------------------------------------- Attributes

namespace {
std::vector<std::string> sorted_names(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}
}  // namespace

void AttributesObservation::observe(void* const* entries) {
  // getattr(env, attribute) in the config's order (the draws of attributes such as lane keeping's noisy
  // state happen in that order), written to the entries in the Dict space's sorted order.
  const auto sorted = sorted_names(config_.attributes);
  for (const auto& name : config_.attributes) {
    const auto k = static_cast<std::size_t>(std::find(sorted.begin(), sorted.end(), name) - sorted.begin());
    env_.attribute(name, static_cast<double*>(entries[k]));
  }
}

// --------------------------------------------------------------------------- Grayscale

GrayscaleObservation::GrayscaleObservation(AbstractEnv& env, const ObservationConfig& config)
    : ObservationType(env, config),
      stack_(static_cast<std::size_t>(config.stack_size) * static_cast<std::size_t>(config.observation_shape[0]) *
                 static_cast<std::size_t>(config.observation_shape[1]),
             0) {}

void GrayscaleObservation::observe(void* const* entries) {
  // Python's viewer config: the env's, its screen the observation's shape, its own scaling and centering
  // position where given.
  const RenderConfig viewer = grayscale_viewer_config(
      env_.render_config(), config_.observation_shape[0], config_.observation_shape[1],
      config_.scaling > 0 ? std::optional<double>(config_.scaling) : std::nullopt,
      config_.has_centering_position ? std::optional<std::array<double, 2>>(config_.centering_position)
                                     : std::nullopt);
  grayscale_observe(env_.road(), observer_vehicle(), viewer, config_.weights, config_.stack_size, stack_.data());
  std::copy(stack_.begin(), stack_.end(), static_cast<std::uint8_t*>(entries[0]));
}

// --------------------------------------------------------------------------- factory and spaces

std::unique_ptr<ObservationType> observation_factory(AbstractEnv& env, const ObservationConfig& config) {
  if (config.type == "Kinematics") return std::make_unique<KinematicObservation>(env, config);
  if (config.type == "ExitObservation") return std::make_unique<KinematicObservation>(env, config, true);
  if (config.type == "OccupancyGrid") return std::make_unique<OccupancyGridObservation>(env, config);
  if (config.type == "TimeToCollision") return std::make_unique<TimeToCollisionObservation>(env, config);
  if (config.type == "KinematicsGoal") return std::make_unique<KinematicsGoalObservation>(env, config);
  if (config.type == "AttributesObservation") return std::make_unique<AttributesObservation>(env, config);
  if (config.type == "LidarObservation") return std::make_unique<LidarObservation>(env, config);
  if (config.type == "GrayscaleObservation") return std::make_unique<GrayscaleObservation>(env, config);
  throw std::invalid_argument("Unknown observation type '" + config.type + "'");
}

ObsKind observation_kind(const ObservationConfig& config) {
  return config.type == "KinematicsGoal" || config.type == "AttributesObservation" ? ObsKind::kDict
                                                                                   : ObsKind::kArray;
}

std::vector<ArraySpec> observation_entries(const EnvOptions& options, const ScenarioInfo& info) {
  const ObservationConfig& c = options.observation;
  const auto features = static_cast<std::int64_t>(c.features.size());
  if (c.type == "Kinematics" || c.type == "ExitObservation") {
    return {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {c.vehicles_count, features}}};
  }
  if (c.type == "OccupancyGrid") {
    if (c.absolute) {
      throw std::invalid_argument("OccupancyGrid with observation_absolute=True is not implemented (highway-env "
                                  "raises NotImplementedError)");
    }
    std::array<std::int64_t, 2> cells{};
    for (int i = 0; i < 2; ++i) {
      cells[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(
          std::floor((c.grid_size[static_cast<std::size_t>(i)][1] - c.grid_size[static_cast<std::size_t>(i)][0]) /
                     c.grid_step[static_cast<std::size_t>(i)]));
    }
    if (c.as_image) {
      return {ArraySpec{.name = "obs", .dtype = DType::kUInt8, .shape = {features, cells[0], cells[1]},
                        .low = {0}, .high = {255}}};
    }
    return {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {features, cells[0], cells[1]}}};
  }
  if (c.type == "TimeToCollision") {
    if (options.action.type != "DiscreteMetaAction") {
      throw std::invalid_argument("observation_type TimeToCollision needs action_type DiscreteMetaAction (it reads "
                                  "the MDPVehicle's target speeds), got " + options.action.type);
    }
    if (options.action.target_speeds.size() < 2) {
      throw std::invalid_argument("observation_type TimeToCollision needs at least 2 action_target_speeds");
    }
    const auto times = static_cast<std::int64_t>(static_cast<double>(c.horizon) /
                                                 (1.0 / static_cast<double>(options.policy_frequency)));
    return {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {3, 3, times}, .low = {0}, .high = {1}}};
  }
  if (c.type == "KinematicsGoal") {
    std::vector<ArraySpec> out;
    for (const char* name : {"achieved_goal", "desired_goal", "observation"}) {
      out.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {features}});
    }
    return out;
  }
  if (c.type == "AttributesObservation") {
    if (c.attributes.empty()) throw std::invalid_argument("AttributesObservation needs observation_attributes");
    std::vector<ArraySpec> out;
    for (const auto& name : sorted_names(c.attributes)) {
      const auto it = std::find_if(info.attributes.begin(), info.attributes.end(),
                                   [&](const auto& a) { return a.first == name; });
      if (it == info.attributes.end()) {
        std::string known;
        for (const auto& a : info.attributes) known += (known.empty() ? "" : ", ") + a.first;
        throw std::invalid_argument("option 'observation_attributes': this scenario has no attribute '" + name +
                                    "' (it has: " + (known.empty() ? std::string("none") : known) + ")");
      }
      out.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = it->second});
    }
    return out;
  }
  if (c.type == "GrayscaleObservation") {
    return {ArraySpec{.name = "obs",
                      .dtype = DType::kUInt8,
                      .shape = {c.stack_size, c.observation_shape[0], c.observation_shape[1]},
                      .low = {0},
                      .high = {255}}};
  }
  if (c.type == "LidarObservation") {
    const double high = c.normalize ? 1 : c.maximum_range;
    return {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {c.cells, 2}, .low = {-high}, .high = {high}}};
  }
  throw std::invalid_argument("Unknown observation type '" + c.type + "'");
}

}  // namespace rlpool::highway

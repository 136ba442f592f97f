// OccupancyGrid and Lidar observations of the highway family (see observation.h).
//
// Follows highway_env/envs/common/observation.py, OccupancyGridObservation and LidarObservation
// (highway-env 1.12.1), with numpy's arithmetic: np.arange's fill (start + i * ((start + step) - start)),
// the 2x2 rotation as numpy's matrix-vector product (objects.h's np_matvec), np.linalg.norm and .dot as
// objects.h's np_norm and np_dot, and LidarObservation's float32 grid.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "envs/highway/highway_env.h"
#include "envs/highway/observation.h"

namespace rlpool::highway {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double lmap2(double v, double x0, double x1, double y0, double y1) { return y0 + (v - x0) * (y1 - y0) / (x1 - x0); }

const std::array<double, 2>* find_range(const FeatureRanges& ranges, const std::string& name) {
  for (const auto& [feature, range] : ranges) {
    if (feature == name) return &range;
  }
  return nullptr;
}

// Python's int(np.floor(x)) for the cell index (x finite; a huge value saturates, off the grid either way).
std::int64_t floor_index(double x) {
  const double f = std::floor(x);
  if (!(f > -9.0e18)) return std::numeric_limits<std::int64_t>::min();
  if (!(f < 9.0e18)) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(f);
}

}  // namespace

// --------------------------------------------------------------------------- OccupancyGrid

OccupancyGridObservation::OccupancyGridObservation(AbstractEnv& env, const ObservationConfig& config)
    : ObservationType(env, config), ranges_(config.features_range) {
  cells_x_ = static_cast<std::int64_t>(std::floor((config.grid_size[0][1] - config.grid_size[0][0]) / config.grid_step[0]));
  cells_y_ = static_cast<std::int64_t>(std::floor((config.grid_size[1][1] - config.grid_size[1][0]) / config.grid_step[1]));
  grid_.assign(config.features.size() * static_cast<std::size_t>(cells_x_ * cells_y_), 0.0);
}

std::array<std::int64_t, 2> OccupancyGridObservation::pos_to_index(Vec2 position, bool relative) const {
  const Vehicle* observer = observer_vehicle();
  if (!relative) position -= observer->position;
  if (config_.align_to_vehicle_axes) {
    const double c = std::cos(observer->heading), s = std::sin(observer->heading);
    position = np_matvec({Vec2{c, s}, Vec2{-s, c}}, position);
  }
  return {floor_index((position[0] - config_.grid_size[0][0]) / config_.grid_step[0]),
          floor_index((position[1] - config_.grid_size[1][0]) / config_.grid_step[1])};
}

Vec2 OccupancyGridObservation::index_to_pos(std::int64_t i, std::int64_t j) const {
  const Vehicle* observer = observer_vehicle();
  Vec2 position{(static_cast<double>(i) + 0.5) * config_.grid_step[0] + config_.grid_size[0][0],
                (static_cast<double>(j) + 0.5) * config_.grid_step[1] + config_.grid_size[1][0]};
  if (config_.align_to_vehicle_axes) {
    const double c = std::cos(-observer->heading), s = std::sin(-observer->heading);
    position = np_matvec({Vec2{c, s}, Vec2{-s, c}}, position);
  }
  position += observer->position;
  return position;
}

void OccupancyGridObservation::fill_road_layer_by_lanes(std::size_t layer, double lane_perception_distance) {
  const double spacing = std::min(config_.grid_step[0], config_.grid_step[1]);  // np.amin(grid_step)
  const Vehicle* observer = observer_vehicle();
  const auto cells = static_cast<std::size_t>(cells_x_ * cells_y_);
  for (const auto& [from, to_dict] : env_.road().network.graph) {
    for (const auto& [to, lanes] : to_dict) {
      for (const auto& lane : lanes) {
        const double origin = lane->local_coordinates(observer->position).first;
        // np.arange(origin - d, origin + d, spacing).clip(0, lane.length)
        const double start = origin - lane_perception_distance;
        const double stop = origin + lane_perception_distance;
        const double count = std::ceil((stop - start) / spacing);
        const auto n = count > 0 ? static_cast<std::int64_t>(count) : 0;
        const double delta = (start + spacing) - start;
        for (std::int64_t k = 0; k < n; ++k) {
          double waypoint = k == 0 ? start : (k == 1 ? start + spacing : start + static_cast<double>(k) * delta);
          waypoint = std::clamp(waypoint, 0.0, lane->length);
          const auto cell = pos_to_index(lane->position(waypoint, 0));
          if (0 <= cell[0] && cell[0] < cells_x_ && 0 <= cell[1] && cell[1] < cells_y_) {
            grid_[layer * cells + static_cast<std::size_t>(cell[0] * cells_y_ + cell[1])] = 1;
          }
        }
      }
    }
  }
}

void OccupancyGridObservation::observe(void* const* entries) {
  std::fill(grid_.begin(), grid_.end(), kNaN);
  const Vehicle* observer = observer_vehicle();
  const Road& road = env_.road();
  // df: every vehicle's to_dict relative to the observer (the observer included), then normalised.
  if (ranges_.empty()) {
    ranges_ = {{"vx", {-2 * Vehicle::MAX_SPEED, 2 * Vehicle::MAX_SPEED}},
               {"vy", {-2 * Vehicle::MAX_SPEED, 2 * Vehicle::MAX_SPEED}}};
  }
  std::vector<ObjectDict> rows;
  rows.reserve(road.vehicles.size());
  for (const auto& v : road.vehicles) rows.push_back(v->to_dict(observer));
  static const char* const kColumns[] = {"presence", "x",     "y",     "vx",       "vy",      "heading", "cos_h",
                                         "sin_h",    "cos_d", "sin_d", "long_off", "lat_off", "ang_off"};
  const auto is_column = [](const std::string& name) {
    return std::find_if(std::begin(kColumns), std::end(kColumns), [&](const char* c) { return name == c; }) !=
           std::end(kColumns);
  };
  std::vector<std::vector<double>> values(rows.size());
  std::vector<std::string> names(std::begin(kColumns), std::end(kColumns));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (const auto& n : names) values[r].push_back(rows[r].get(n));
  }
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  for (const auto& [feature, range] : ranges_) {
    if (!is_column(feature)) continue;
    const std::size_t c = column(feature);
    for (auto& row : values) row[c] = lmap2(row[c], range[0], range[1], -1, 1);
  }
  const auto cells = static_cast<std::size_t>(cells_x_ * cells_y_);
  const auto* x_range = find_range(ranges_, "x");
  const auto* y_range = find_range(ranges_, "y");
  for (std::size_t layer = 0; layer < config_.features.size(); ++layer) {
    const std::string& feature = config_.features[layer];
    if (is_column(feature)) {
      const std::size_t c = column(feature);
      for (std::size_t r = values.size(); r-- > 0;) {  // df[::-1]: the first vehicle is written last
        double x = values[r][column("x")], y = values[r][column("y")];
        if (x_range != nullptr) x = lmap2(x, -1, 1, (*x_range)[0], (*x_range)[1]);
        if (y_range != nullptr) y = lmap2(y, -1, 1, (*y_range)[0], (*y_range)[1]);
        const auto cell = pos_to_index(Vec2{x, y}, /*relative=*/true);
        if (0 <= cell[0] && cell[0] < cells_x_ && 0 <= cell[1] && cell[1] < cells_y_) {
          grid_[layer * cells + static_cast<std::size_t>(cell[0] * cells_y_ + cell[1])] = values[r][c];
        }
      }
    } else if (feature == "on_road") {
      fill_road_layer_by_lanes(layer);
    }
  }
  if (config_.as_image) {
    auto* dst = static_cast<std::uint8_t*>(entries[0]);
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      double v = grid_[i];
      if (config_.clip) v = std::isnan(v) ? v : std::clamp(v, -1.0, 1.0);
      v = std::isnan(v) ? v : std::clamp(v, -1.0, 1.0);
      v = (v + 1) / 2 * 255;
      // numpy's astype(uint8) of a float: truncation (NaN gives 0 on x86-64, as numpy's cast does there).
      dst[i] = std::isnan(v) ? 0 : static_cast<std::uint8_t>(static_cast<int>(v));
    }
    return;
  }
  auto* dst = static_cast<float*>(entries[0]);
  for (std::size_t i = 0; i < grid_.size(); ++i) {
    double v = grid_[i];
    if (config_.clip && !std::isnan(v)) v = std::clamp(v, -1.0, 1.0);
    // np.nan_to_num: NaN -> 0, +-inf -> the largest finite float64 (then float32: +-inf).
    if (std::isnan(v)) v = 0;
    if (std::isinf(v)) v = v > 0 ? std::numeric_limits<double>::max() : std::numeric_limits<double>::lowest();
    dst[i] = static_cast<float>(v);
  }
}

// --------------------------------------------------------------------------- Lidar

LidarObservation::LidarObservation(AbstractEnv& env, const ObservationConfig& config)
    : ObservationType(env, config), angle_(2 * std::numbers::pi / config.cells) {}

double LidarObservation::position_to_angle(const Vec2& position, const Vec2& origin) const {
  return std::atan2(position[1] - origin[1], position[0] - origin[0]) + angle_ / 2;
}

std::int64_t LidarObservation::angle_to_index(double angle) const {
  const std::int64_t i = floor_index(angle / angle_);
  const std::int64_t n = config_.cells;
  return ((i % n) + n) % n;  // Python's int %
}

Vec2 LidarObservation::index_to_direction(std::int64_t index) const {
  return {std::cos(static_cast<double>(index) * angle_), std::sin(static_cast<double>(index) * angle_)};
}

const std::vector<float>& LidarObservation::trace(const Vec2& origin, const Vec2& origin_velocity) {
  origin_ = origin;
  const auto cells = static_cast<std::size_t>(config_.cells);
  // np.ones((cells, 2), float32) * maximum_range: float32.
  grid_.assign(cells * 2, static_cast<float>(config_.maximum_range));
  const Vehicle* observer = observer_vehicle();
  const Road& road = env_.road();
  std::vector<const RoadObject*> obstacles;
  for (const auto& v : road.vehicles) obstacles.push_back(v.get());
  for (const auto& o : road.objects) obstacles.push_back(o.get());
  for (const RoadObject* obstacle : obstacles) {
    if (obstacle == observer || !obstacle->solid) continue;
    const double center_distance = np_norm(obstacle->position - origin);
    if (center_distance > config_.maximum_range) continue;
    const double center_angle = position_to_angle(obstacle->position, origin);
    const auto center_index = static_cast<std::size_t>(angle_to_index(center_angle));
    const double distance = center_distance - obstacle->width / 2;
    if (distance <= static_cast<double>(grid_[center_index * 2 + DISTANCE])) {
      const Vec2 direction = index_to_direction(static_cast<std::int64_t>(center_index));
      const double velocity = np_dot(obstacle->velocity() - origin_velocity, direction);
      grid_[center_index * 2 + DISTANCE] = static_cast<float>(distance);
      grid_[center_index * 2 + SPEED] = static_cast<float>(velocity);
    }
    // Angular sector covered by the obstacle
    const std::vector<Vec2> corners_list = rect_corners(obstacle->position, obstacle->length, obstacle->width,
                                                        obstacle->heading);
    const std::array<Vec2, 4> corners{corners_list.at(0), corners_list.at(1), corners_list.at(2), corners_list.at(3)};
    double min_angle = std::numeric_limits<double>::infinity(), max_angle = -min_angle;
    for (std::size_t k = 0; k < 4; ++k) {
      const double a = position_to_angle(corners[k], origin);
      // Python's min()/max() keep the first of equal values (and NaN only if first); the angles are finite.
      if (k == 0 || a < min_angle) min_angle = a;
      if (k == 0 || a > max_angle) max_angle = a;
    }
    if (min_angle < -std::numbers::pi / 2 && std::numbers::pi / 2 < max_angle) {  // wrapping around +pi
      const double previous_min = min_angle;
      min_angle = max_angle;
      max_angle = previous_min + 2 * std::numbers::pi;
    }
    const std::int64_t start = angle_to_index(min_angle), end = angle_to_index(max_angle);
    std::vector<std::int64_t> indexes;
    if (start < end) {
      for (std::int64_t i = start; i <= end; ++i) indexes.push_back(i);
    } else {  // wrapping around 0
      for (std::int64_t i = start; i < config_.cells; ++i) indexes.push_back(i);
      for (std::int64_t i = 0; i <= end; ++i) indexes.push_back(i);
    }
    for (const std::int64_t index : indexes) {
      const Vec2 direction = index_to_direction(index);
      const std::array<Vec2, 2> ray{origin, origin + config_.maximum_range * direction};
      const double distance_k = distance_to_rect(ray, corners);
      const auto i = static_cast<std::size_t>(index);
      if (distance_k <= static_cast<double>(grid_[i * 2 + DISTANCE])) {
        const double velocity = np_dot(obstacle->velocity() - origin_velocity, direction);
        grid_[i * 2 + DISTANCE] = static_cast<float>(distance_k);
        grid_[i * 2 + SPEED] = static_cast<float>(velocity);
      }
    }
  }
  return grid_;
}

void LidarObservation::observe(void* const* entries) {
  const Vehicle* observer = observer_vehicle();
  const auto& grid = trace(observer->position, observer->velocity());
  auto* dst = static_cast<float*>(entries[0]);
  const auto range = static_cast<float>(config_.maximum_range);
  for (std::size_t i = 0; i < grid.size(); ++i) dst[i] = config_.normalize ? grid[i] / range : grid[i];
}

}  // namespace rlpool::highway

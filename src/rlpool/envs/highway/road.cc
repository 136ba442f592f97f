// Road and RegulatedRoad of the highway family (see road.h). Follows highway_env/road/road.py (class Road)
// and highway_env/road/regulation.py (highway-env 1.12.1).
#include "envs/highway/road.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlpool::highway {

Road::Road(RoadNetwork network_, Rng* np_random_, bool record_history_, bool neighbour_vehicles_connected_lanes_)
    : network(std::move(network_)),
      np_random(np_random_),
      record_history(record_history_),
      neighbour_vehicles_connected_lanes(neighbour_vehicles_connected_lanes_) {
  if (np_random == nullptr) {
    own_rng_ = std::make_unique<Rng>(0);
    np_random = own_rng_.get();
  }
}

Road::~Road() = default;

std::vector<RoadObject*> Road::close_objects_to(const Vehicle& vehicle, double distance, std::optional<int> count,
                                                bool see_behind, bool sort, bool vehicles_only) const {
  std::vector<RoadObject*> found;
  for (const auto& v : vehicles) {
    if (norm(v->position - vehicle.position) < distance && v.get() != &vehicle &&
        (see_behind || -2 * vehicle.length < vehicle.lane_distance_to(v.get()))) {
      found.push_back(v.get());
    }
  }
  if (!vehicles_only) {
    for (const auto& o : objects) {
      if (norm(o->position - vehicle.position) < distance &&
          -2 * vehicle.length < vehicle.lane_distance_to(o.get())) {
        found.push_back(o.get());
      }
    }
  }
  if (sort) {
    std::vector<std::pair<double, RoadObject*>> keyed;
    keyed.reserve(found.size());
    for (RoadObject* o : found) keyed.emplace_back(std::abs(vehicle.lane_distance_to(o)), o);
    // Python's sorted: stable, by `<` on the keys.
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < keyed.size(); ++i) found[i] = keyed[i].second;
  }
  if (count && *count != 0) {
    // objects_[:count] (a negative count drops from the end, as Python's slice)
    const auto n = static_cast<long>(found.size());
    long stop = *count >= 0 ? std::min<long>(*count, n) : std::max<long>(n + *count, 0);
    found.resize(static_cast<std::size_t>(stop));
  }
  return found;
}

std::vector<Vehicle*> Road::close_vehicles_to(const Vehicle& vehicle, double distance, std::optional<int> count,
                                              bool see_behind, bool sort) const {
  std::vector<Vehicle*> out;
  for (RoadObject* o : close_objects_to(vehicle, distance, count, see_behind, sort, true)) {
    out.push_back(static_cast<Vehicle*>(o));
  }
  return out;
}

void Road::act() {
  // Vehicles only choose their actions here: positions stay fixed, so lane occupants can be remembered.
  struct CacheScope {
    const Road& road;
    explicit CacheScope(const Road& r) : road(r) {
      road.occupants_cache_.clear();
      road.cache_occupants_ = true;
    }
    ~CacheScope() {
      road.cache_occupants_ = false;
      road.occupants_cache_.clear();
    }
  } scope(*this);
  for (const auto& vehicle : vehicles) vehicle->act();
}

void Road::step(double dt) {
  for (const auto& vehicle : vehicles) vehicle->step(dt);
  for (std::size_t i = 0; i < vehicles.size(); ++i) {
    Vehicle& vehicle = *vehicles[i];
    // handle_collisions does nothing for a pair that is_colliding's pre-check rules out: skip the call.
    for (std::size_t j = i + 1; j < vehicles.size(); ++j) {
      if (vehicle.may_collide(*vehicles[j], dt)) vehicle.handle_collisions(*vehicles[j], dt);
    }
    for (const auto& other : objects) {
      if (vehicle.may_collide(*other, dt)) vehicle.handle_collisions(*other, dt);
    }
  }
}

std::vector<std::pair<const AbstractLane*, double>> Road::searched_lanes(const AbstractLane& lane,
                                                                         const LaneIndex& lane_index) const {
  std::vector<std::pair<const AbstractLane*, double>> lanes_offsets{{&lane, 0.0}};
  if (neighbour_vehicles_connected_lanes) {
    // Offsets convert each connected lane's longitudinal coordinate into the ego lane coordinate frame.
    const std::string& from = lane_index.from;
    const std::string& to = lane_index.to;
    const int id = lane_index.id;
    if (const RoadNetwork::ToDict* next_roads = network.graph.find(to)) {
      for (const auto& [next_to, next_lanes] : *next_roads) {
        if (id < static_cast<int>(next_lanes.size())) {
          lanes_offsets.emplace_back(next_lanes[static_cast<std::size_t>(id)].get(), lane.length);
        } else if (!next_lanes.empty()) {
          lanes_offsets.emplace_back(next_lanes[0].get(), lane.length);
        }
      }
    }
    for (const auto& [prev_from, to_dict] : network.graph) {
      const RoadNetwork::LaneList* prev_lanes = to_dict.find(from);
      if (prev_lanes == nullptr) continue;
      const AbstractLane* prev_lane;
      if (id < static_cast<int>(prev_lanes->size())) {
        prev_lane = (*prev_lanes)[static_cast<std::size_t>(id)].get();
      } else if (!prev_lanes->empty()) {
        prev_lane = (*prev_lanes)[0].get();
      } else {
        continue;
      }
      lanes_offsets.emplace_back(prev_lane, -prev_lane->length);
    }
  }
  return lanes_offsets;
}

void Road::find_occupants(const std::vector<std::pair<const AbstractLane*, double>>& lanes_offsets,
                          std::vector<std::pair<RoadObject*, double>>& occupants) const {
  auto consider = [&](RoadObject* v) {
    if (v->is_a(KIND_LANDMARK)) return;
    for (const auto& [search_lane, offset] : lanes_offsets) {
      const auto [s_v, lat_v] = search_lane->local_coordinates(v->position);
      if (!search_lane->on_lane_at(s_v, lat_v, 1)) continue;
      occupants.emplace_back(v, s_v + offset);
      break;  // matched on this lane, no need to check others
    }
  };
  for (const auto& v : vehicles) consider(v.get());
  for (const auto& o : objects) consider(o.get());
}

std::pair<RoadObject*, RoadObject*> Road::neighbour_vehicles(const RoadObject& vehicle,
                                                             std::optional<LaneIndex> lane_index) const {
  if (!lane_index) {
    if (vehicle.road == nullptr) return {nullptr, nullptr};  // Python: lane_index None
    lane_index = vehicle.lane_index;
  }
  const AbstractLane& lane = network.get_lane(*lane_index);
  const double s = lane.local_coordinates(vehicle.position).first;

  // The objects on the searched lanes, with their longitudinal coordinates in this lane's frame.
  const std::vector<std::pair<RoadObject*, double>>* occupants = nullptr;
  std::vector<std::pair<RoadObject*, double>> found;
  if (cache_occupants_) {
    for (const LaneOccupants& entry : occupants_cache_) {
      if (entry.lane == &lane && (!neighbour_vehicles_connected_lanes || entry.lane_index == *lane_index)) {
        occupants = &entry.occupants;
        break;
      }
    }
    if (occupants == nullptr) {
      LaneOccupants& entry = occupants_cache_.emplace_back(LaneOccupants{&lane, *lane_index, {}});
      find_occupants(searched_lanes(lane, *lane_index), entry.occupants);
      occupants = &entry.occupants;
    }
  } else {
    find_occupants(searched_lanes(lane, *lane_index), found);
    occupants = &found;
  }

  double s_front = 0, s_rear = 0;  // valid once v_front / v_rear is set
  RoadObject* v_front = nullptr;
  RoadObject* v_rear = nullptr;
  for (const auto& [v, s_v] : *occupants) {
    if (v == &vehicle) continue;
    if (s <= s_v && (v_front == nullptr || s_v <= s_front)) {
      s_front = s_v;
      v_front = v;
    }
    if (s_v < s && (v_rear == nullptr || s_v > s_rear)) {
      s_rear = s_v;
      v_rear = v;
    }
  }
  return {v_front, v_rear};
}

// ---------------------------------------------------------------------------------------------------------
// RegulatedRoad

RegulatedRoad::RegulatedRoad(RoadNetwork network, Rng* np_random, bool record_history,
                             bool neighbour_vehicles_connected_lanes)
    : Road(std::move(network), np_random, record_history, neighbour_vehicles_connected_lanes) {}

void RegulatedRoad::step(double dt) {
  steps += 1;
  const int period = static_cast<int>(1 / dt / REGULATION_FREQUENCY);
  if (period == 0) throw std::invalid_argument("highway: RegulatedRoad step too long for its regulation frequency");
  if (steps % period == 0) enforce_road_rules();
  Road::step(dt);
}

void RegulatedRoad::enforce_road_rules() {
  // Unfreeze previous yielding vehicles
  for (const auto& v : vehicles) {
    if (v->is_yielding) {
      if (v->yield_timer >= YIELD_DURATION * REGULATION_FREQUENCY) {
        auto* cv = as_controlled_vehicle(v.get());
        if (cv == nullptr || !v->lane->speed_limit) {
          throw std::logic_error("highway: a yielding vehicle needs a target speed and a lane speed limit");
        }
        cv->target_speed = *v->lane->speed_limit;
        v->color.reset();
        v->is_yielding = false;
      } else {
        v->yield_timer += 1;
      }
    }
  }

  // Find new conflicts and resolve them. Each vehicle's constant-speed prediction depends only on its
  // position, speed, lanes, route and action, which this loop leaves alone: it is computed once, when first
  // needed (in the order is_conflict_possible would compute it).
  const std::vector<double> times = prediction_times(3, 0.25);
  std::vector<std::optional<Trajectory>> predicted(vehicles.size());
  auto trajectory = [&](std::size_t k) -> const Trajectory& {
    if (!predicted[k]) predicted[k] = vehicles[k]->predict_trajectory_constant_speed(times);
    return *predicted[k];
  };
  for (std::size_t i = 0; i + 1 < vehicles.size(); ++i) {
    for (std::size_t j = i + 1; j < vehicles.size(); ++j) {
      const Trajectory& t1 = trajectory(i);
      const Trajectory& t2 = trajectory(j);
      if (trajectories_conflict(*vehicles[i], t1, *vehicles[j], t2)) {
        Vehicle* yielding_vehicle = respect_priorities(vehicles[i].get(), vehicles[j].get());
        auto* cv = as_controlled_vehicle(yielding_vehicle);
        if (cv != nullptr && !cv->is_a(KIND_MDP)) {
          cv->color = YIELDING_COLOR;
          cv->target_speed = 0;
          cv->is_yielding = true;
          cv->yield_timer = 0;
        }
      }
    }
  }
}

Vehicle* RegulatedRoad::respect_priorities(Vehicle* v1, Vehicle* v2) {
  if (v1->lane->priority > v2->lane->priority) return v2;
  if (v1->lane->priority < v2->lane->priority) return v1;
  // The vehicle behind should yield
  return v1->front_distance_to(*v2) > v2->front_distance_to(*v1) ? v1 : v2;
}

std::vector<double> RegulatedRoad::prediction_times(int horizon, double step) {
  std::vector<double> times;
  const auto n = static_cast<long>(std::ceil((horizon - step) / step));
  const double delta = (step + step) - step;
  for (long i = 0; i < n; ++i) times.push_back(step + static_cast<double>(i) * delta);
  return times;
}

bool RegulatedRoad::is_conflict_possible(const Vehicle& v1, const Vehicle& v2, int horizon, double step) {
  const std::vector<double> times = prediction_times(horizon, step);
  const Trajectory t1 = v1.predict_trajectory_constant_speed(times);
  const Trajectory t2 = v2.predict_trajectory_constant_speed(times);
  return trajectories_conflict(v1, t1, v2, t2);
}

bool RegulatedRoad::trajectories_conflict(const Vehicle& v1, const Trajectory& t1, const Vehicle& v2,
                                          const Trajectory& t2) {
  const auto& [positions_1, headings_1] = t1;
  const auto& [positions_2, headings_2] = t2;
  const std::size_t m = std::min(positions_1.size(), positions_2.size());
  for (std::size_t k = 0; k < m; ++k) {
    // Fast spherical pre-check
    if (norm(positions_2[k] - positions_1[k]) > v1.length) continue;
    // Accurate rectangular check
    if (rotated_rectangles_intersect({positions_1[k], 1.5 * v1.length, 0.9 * v1.width, headings_1[k]},
                                     {positions_2[k], 1.5 * v2.length, 0.9 * v2.width, headings_2[k]})) {
      return true;
    }
  }
  return false;
}

}  // namespace rlpool::highway

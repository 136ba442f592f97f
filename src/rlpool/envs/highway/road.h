// Road of the highway family: a road network plus the vehicles and objects on it, with the per-step
// act/step loop (collisions included), the preceding/following vehicle search (optionally across connected
// lane segments) and the search of close objects for observations; and RegulatedRoad, which adds priority
// rules at intersections (conflict prediction, yielding vehicles).
//
// Follows highway_env/road/road.py (class Road) and highway_env/road/regulation.py (class RegulatedRoad),
// highway-env 1.12.1. The road owns its network, its vehicles and objects (shared_ptr: an env may keep its
// controlled vehicles too) and uses, without owning it, the env's random generator (Python's np_random,
// the same object as the env's). Vehicles keep a raw pointer to their road: a Road neither copies nor moves.
// During act() no position changes, so neighbour_vehicles remembers, per searched lane, which objects are on
// it and where (in the order Python visits them), and answers later searches of that lane from that list.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "_core/env/rng.h"
#include "envs/highway/behavior.h"
#include "envs/highway/objects.h"
#include "envs/highway/road_network.h"
#include "envs/highway/vehicle.h"

namespace rlpool::highway {

class Road {
 public:
  // np_random null: the road draws from a generator of its own, seeded with 0 (Python: an unseeded
  // np.random.RandomState()).
  explicit Road(RoadNetwork network = RoadNetwork(), Rng* np_random = nullptr, bool record_history = false,
                bool neighbour_vehicles_connected_lanes = false);
  virtual ~Road();
  Road(const Road&) = delete;
  Road& operator=(const Road&) = delete;

  // Vehicles (then, unless vehicles_only, objects) within `distance` of vehicle, the objects only ahead
  // (lane distance > -2 LENGTH), vehicles too unless see_behind; sorted by |lane distance| (stable) if
  // sort; the first `count` if count is given and non-zero.
  std::vector<RoadObject*> close_objects_to(const Vehicle& vehicle, double distance,
                                            std::optional<int> count = std::nullopt, bool see_behind = true,
                                            bool sort = true, bool vehicles_only = false) const;
  std::vector<Vehicle*> close_vehicles_to(const Vehicle& vehicle, double distance,
                                          std::optional<int> count = std::nullopt, bool see_behind = true,
                                          bool sort = true) const;
  // Decide the actions of each entity on the road.
  virtual void act();
  // Step the dynamics of each entity on the road, then handle collisions.
  virtual void step(double dt);
  // (preceding, following) objects of vehicle on lane_index (default: its own lane); landmarks are skipped.
  // With neighbour_vehicles_connected_lanes the next and previous segments are searched too.
  std::pair<RoadObject*, RoadObject*> neighbour_vehicles(const RoadObject& vehicle,
                                                         std::optional<LaneIndex> lane_index = std::nullopt) const;

  RoadNetwork network;
  std::vector<std::shared_ptr<Vehicle>> vehicles;
  std::vector<std::shared_ptr<RoadObject>> objects;
  Rng* np_random;
  bool record_history;
  bool neighbour_vehicles_connected_lanes;

 private:
  // The objects (vehicles, then objects; no landmarks) found on a searched lane, each with its longitudinal
  // coordinate in that lane's frame, in the order neighbour_vehicles visits them.
  struct LaneOccupants {
    const AbstractLane* lane;
    LaneIndex lane_index;
    std::vector<std::pair<RoadObject*, double>> occupants;
  };
  std::vector<std::pair<const AbstractLane*, double>> searched_lanes(const AbstractLane& lane,
                                                                     const LaneIndex& lane_index) const;
  void find_occupants(const std::vector<std::pair<const AbstractLane*, double>>& lanes_offsets,
                      std::vector<std::pair<RoadObject*, double>>& occupants) const;

  std::unique_ptr<Rng> own_rng_;
  // Set while act() runs (positions fixed): neighbour_vehicles then fills and reuses occupants_cache_.
  mutable bool cache_occupants_ = false;
  mutable std::vector<LaneOccupants> occupants_cache_;
};

class RegulatedRoad : public Road {
 public:
  static constexpr std::optional<std::array<int, 3>> YIELDING_COLOR = std::nullopt;
  static constexpr int REGULATION_FREQUENCY = 2;
  static constexpr double YIELD_DURATION = 0.0;

  explicit RegulatedRoad(RoadNetwork network = RoadNetwork(), Rng* np_random = nullptr,
                         bool record_history = false, bool neighbour_vehicles_connected_lanes = false);

  // Enforces the road rules every 1 / dt / REGULATION_FREQUENCY steps, then Road::step.
  void step(double dt) override;
  // Find conflicts and resolve them by assigning yielding vehicles and stopping them.
  void enforce_road_rules();
  // The vehicle that should yield (lower lane priority, else the one behind).
  static Vehicle* respect_priorities(Vehicle* v1, Vehicle* v2);
  static bool is_conflict_possible(const Vehicle& v1, const Vehicle& v2, int horizon = 3, double step = 0.25);

  int steps = 0;

 private:
  using Trajectory = std::pair<std::vector<Vec2>, std::vector<double>>;
  // np.arange(step, horizon, step).
  static std::vector<double> prediction_times(int horizon, double step);
  // is_conflict_possible on the two vehicles' predicted trajectories.
  static bool trajectories_conflict(const Vehicle& v1, const Trajectory& t1, const Vehicle& v2,
                                    const Trajectory& t2);
};

}  // namespace rlpool::highway

// RoadNetwork: the lanes of a scenario as a graph of roads (from node -> to node -> lanes), with lane
// lookup, closest lane, next lane along a route, shortest paths, side lanes, connectivity tests and the
// straight multi-lane network of the highway scenarios. Also LaneIndex, Route and the insertion-ordered
// dictionary the graph is stored in (Python dicts keep insertion order and the results depend on it). The
// closest-lane search skips lanes whose cheap distance bound (AbstractLane::distance_lower_bound) already
// exceeds the best distance found, which leaves its result unchanged.
//
// Follows highway_env/road/road.py, class RoadNetwork (highway-env 1.12.1).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_core/env/rng.h"
#include "envs/highway/geometry.h"
#include "envs/highway/lane.h"

namespace rlpool::highway {

// a == b for node names, inline (names are short: a library memcmp call costs more than the comparison).
inline bool same_name(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* pa = a.data();
  const char* pb = b.data();
  for (std::size_t i = 0; i < n; ++i)
    if (pa[i] != pb[i]) return false;
  return true;
}

// Python's (origin node, destination node, lane id); id -1 is Python's None (e.g. in routes).
struct LaneIndex {
  std::string from;
  std::string to;
  int id = -1;
  bool operator==(const LaneIndex& other) const {
    return id == other.id && same_name(from, other.from) && same_name(to, other.to);
  }
};
// A planned route: a list of lane indexes.
using Route = std::vector<LaneIndex>;

// A small insertion-ordered string-keyed dictionary (Python dict semantics for iteration order).
// Lookups are linear: road graphs have few nodes.
template <class V>
class OrderedDict {
 public:
  using Item = std::pair<std::string, V>;

  bool contains(const std::string& key) const { return find(key) != nullptr; }
  V* find(const std::string& key) {
    for (auto& item : items_)
      if (same_name(item.first, key)) return &item.second;
    return nullptr;
  }
  const V* find(const std::string& key) const {
    for (const auto& item : items_)
      if (same_name(item.first, key)) return &item.second;
    return nullptr;
  }
  // Python's d[key]: throws std::out_of_range (KeyError) when missing.
  V& at(const std::string& key) {
    V* value = find(key);
    if (value == nullptr) throw std::out_of_range("highway: no key '" + key + "' in the road network");
    return *value;
  }
  const V& at(const std::string& key) const {
    const V* value = find(key);
    if (value == nullptr) throw std::out_of_range("highway: no key '" + key + "' in the road network");
    return *value;
  }
  // Inserts a default value at the end when missing (as `if k not in d: d[k] = V()`).
  V& operator[](const std::string& key) {
    if (V* value = find(key)) return *value;
    items_.emplace_back(key, V{});
    return items_.back().second;
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.first);
    return out;
  }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  const std::vector<Item>& items() const { return items_; }

 private:
  std::vector<Item> items_;
};

class RoadNetwork {
 public:
  // Lanes are shared (Python references): vehicles may keep a lane alive; scenarios may edit a lane's
  // speed_limit after building it (exit_env does).
  using LaneList = std::vector<std::shared_ptr<AbstractLane>>;
  using ToDict = OrderedDict<LaneList>;
  using Graph = OrderedDict<ToDict>;

  Graph graph;

  void add_lane(const std::string& from, const std::string& to, std::shared_ptr<AbstractLane> lane);
  // Python: index id None (-1) is accepted when the road has exactly one lane. Throws std::out_of_range on
  // unknown nodes or ids.
  AbstractLane& get_lane(const LaneIndex& index) const;
  const std::shared_ptr<AbstractLane>& get_lane_ptr(const LaneIndex& index) const;
  // The lanes of road (from, to): Python's graph[from][to] (throws std::out_of_range if missing).
  const LaneList& lanes(const std::string& from, const std::string& to) const;

  // First minimum of distance_with_heading over the graph in insertion order.
  LaneIndex get_closest_lane_index(const Vec2& position, std::optional<double> heading = std::nullopt) const;
  // The lane to follow after current_index. route (may be null, Python None) is edited in place as in
  // Python (its first step is dropped once finished). Python's np_random argument is unused there and is
  // left out.
  LaneIndex next_lane(const LaneIndex& current_index, Route* route, const Vec2& position) const;
  // (next_id, distance); next_id -1 = Python None.
  std::pair<int, double> next_lane_given_next_road(const std::string& from, const std::string& to, int id,
                                                   const std::string& next_to, int next_id,
                                                   const Vec2& position) const;
  // All paths from start to goal in Python's generator order (breadth-first, children sorted). As in
  // Python, an unknown start first yields an empty path and then fails (std::out_of_range).
  std::vector<std::vector<std::string>> bfs_paths(const std::string& start, const std::string& goal) const;
  // First path of bfs_paths, or an empty path (an unknown start also gives an empty path).
  std::vector<std::string> shortest_path(const std::string& start, const std::string& goal) const;
  std::vector<LaneIndex> all_side_lanes(const LaneIndex& lane_index) const;
  std::vector<LaneIndex> side_lanes(const LaneIndex& lane_index) const;
  static bool is_same_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2, bool same_lane = false);
  static bool is_leading_to_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2,
                                 bool same_lane = false);
  // An empty route is Python's None.
  bool is_connected_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2, const Route& route = {},
                         bool same_lane = false, int depth = 0) const;
  LaneList lanes_list() const;
  std::vector<std::pair<LaneIndex, std::shared_ptr<AbstractLane>>> lanes_dict() const;

  // Python's straight_road_network(lanes, start, length, angle, speed_limit, nodes_str, net): adds the lanes
  // to `net` (default: a new network) and returns it.
  static RoadNetwork straight_road_network(int lanes = 4, double start = 0.0, double length = 10000.0,
                                           double angle = 0.0, std::optional<double> speed_limit = 30.0,
                                           std::optional<std::pair<std::string, std::string>> nodes_str =
                                               std::nullopt,
                                           RoadNetwork net = RoadNetwork());

  // World position and heading at (longitudinal, lateral) along a route (ids -1 follow Python's rule: the
  // current lane's id if it is smaller than the current road's lane count, else 0).
  std::pair<Vec2, double> position_heading_along_route(const Route& route, double longitudinal, double lateral,
                                                       const LaneIndex& current_lane_index) const;
  // np_random.choice(from nodes), np_random.choice(to nodes), np_random.integers(lane count): three
  // rng.integer draws.
  LaneIndex random_lane_index(Rng& np_random) const;
};

}  // namespace rlpool::highway

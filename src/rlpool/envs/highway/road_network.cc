// RoadNetwork of the highway family (see road_network.h). Follows highway_env/road/road.py, class RoadNetwork
// (highway-env 1.12.1).
#include "envs/highway/road_network.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace rlpool::highway {

void RoadNetwork::add_lane(const std::string& from, const std::string& to, std::shared_ptr<AbstractLane> lane) {
  graph[from][to].push_back(std::move(lane));
}

const RoadNetwork::LaneList& RoadNetwork::lanes(const std::string& from, const std::string& to) const {
  return graph.at(from).at(to);
}

const std::shared_ptr<AbstractLane>& RoadNetwork::get_lane_ptr(const LaneIndex& index) const {
  const LaneList& road = lanes(index.from, index.to);
  int id = index.id;
  if (id == -1 && road.size() == 1) id = 0;
  if (id < 0 || static_cast<std::size_t>(id) >= road.size())
    throw std::out_of_range("highway: no lane " + std::to_string(index.id) + " on road ('" + index.from +
                            "', '" + index.to + "')");
  return road[static_cast<std::size_t>(id)];
}

AbstractLane& RoadNetwork::get_lane(const LaneIndex& index) const { return *get_lane_ptr(index); }

LaneIndex RoadNetwork::get_closest_lane_index(const Vec2& position, std::optional<double> heading) const {
  const std::string* best_from = nullptr;
  const std::string* best_to = nullptr;
  int best_id = -1;
  double best_distance = 0.0;
  bool found = false;
  // A lane whose distance bound already exceeds the best distance cannot be the first minimum (its
  // distance is not NaN either, unless the heading is not finite: then every lane is computed).
  const bool may_skip = !heading || std::isfinite(*heading);
  for (const auto& [from, to_dict] : graph) {
    for (const auto& [to, road] : to_dict) {
      for (std::size_t id = 0; id < road.size(); ++id) {
        if (found && may_skip && road[id]->distance_lower_bound(position) > best_distance) continue;
        const double d = road[id]->distance_with_heading(position, heading);
        // np.argmin: first minimum; a NaN is the minimum (first NaN wins).
        if (!found || (!std::isnan(best_distance) && (d < best_distance || std::isnan(d)))) {
          best_from = &from;
          best_to = &to;
          best_id = static_cast<int>(id);
          best_distance = d;
          found = true;
        }
      }
    }
  }
  if (!found) throw std::out_of_range("highway: get_closest_lane_index on an empty road network");
  return LaneIndex{*best_from, *best_to, best_id};
}

LaneIndex RoadNetwork::next_lane(const LaneIndex& current_index, Route* route, const Vec2& position) const {
  const std::string& from = current_index.from;
  const std::string& to = current_index.to;
  const int id = current_index.id;
  std::optional<std::string> next_to;
  int next_id = -1;
  // Pick next road according to planned route
  if (route != nullptr && !route->empty()) {
    if (route->front().from == from && route->front().to == to) route->erase(route->begin());
    if (!route->empty() && route->front().from == to) {
      next_to = route->front().to;
      next_id = route->front().id;
    }
    // else: Python logs a warning "Route ... does not start after current road ...".
  }

  // Compute current projected (desired) position
  const AbstractLane& lane = get_lane(current_index);
  const double longitudinal = lane.local_coordinates(position).first;
  const Vec2 projected_position = lane.position(longitudinal, 0);
  // If next route is not known (`if not next_to`: an empty node name counts as unknown too)
  if (!next_to || next_to->empty()) {
    const ToDict* next_roads = graph.find(to);
    if (next_roads == nullptr) return current_index;  // Python's KeyError branch
    bool found = false;
    std::string best_to;
    int best_id = -1;
    double best_distance = 0.0;
    for (const auto& [candidate_to, road] : *next_roads) {
      (void)road;
      const auto [candidate_id, d] =
          next_lane_given_next_road(from, to, id, candidate_to, next_id, projected_position);
      // min(..., key=distance): first minimum (Python's `<` comparisons).
      if (!found || d < best_distance) {
        best_to = candidate_to;
        best_id = candidate_id;
        best_distance = d;
        found = true;
      }
    }
    if (!found) throw std::invalid_argument("highway: next_lane: node '" + to + "' has no outgoing road");
    return LaneIndex{to, best_to, best_id};
  }
  // If it is known, follow it and get the closest lane
  next_id = next_lane_given_next_road(from, to, id, *next_to, next_id, projected_position).first;
  return LaneIndex{to, *next_to, next_id};
}

std::pair<int, double> RoadNetwork::next_lane_given_next_road(const std::string& from, const std::string& to,
                                                              int id, const std::string& next_to, int next_id,
                                                              const Vec2& position) const {
  const LaneList& next_road = lanes(to, next_to);
  // If next road has same number of lane, stay on the same lane
  if (lanes(from, to).size() == next_road.size()) {
    if (next_id == -1) next_id = id;
  } else {
    // Else, pick closest lane (first minimum)
    bool found = false;
    double best = 0.0;
    for (std::size_t l = 0; l < next_road.size(); ++l) {
      const double d = get_lane(LaneIndex{to, next_to, static_cast<int>(l)}).distance(position);
      if (!found || d < best) {
        best = d;
        next_id = static_cast<int>(l);
        found = true;
      }
    }
  }
  return {next_id, get_lane(LaneIndex{to, next_to, next_id}).distance(position)};
}

namespace {
// Shared body of bfs_paths/shortest_path: calls emit(path) for each path in Python's generator order and
// stops when emit returns false. Returns false when it stopped early.
template <class Emit>
bool bfs_paths_impl(const RoadNetwork::Graph& graph, const std::string& start, const std::string& goal,
                    Emit&& emit) {
  std::deque<std::pair<std::string, std::vector<std::string>>> queue;
  queue.emplace_back(start, std::vector<std::string>{start});
  while (!queue.empty()) {
    auto [node, path] = std::move(queue.front());
    queue.pop_front();
    const RoadNetwork::ToDict* next_roads = graph.find(node);
    if (next_roads == nullptr) {
      if (!emit(std::vector<std::string>{})) return false;
      // Python then evaluates self.graph[node] and raises KeyError.
      throw std::out_of_range("highway: bfs_paths: no node '" + node + "' in the road network");
    }
    std::vector<std::string> nexts;
    for (const auto& [key, road] : *next_roads) {
      (void)road;
      if (std::find(path.begin(), path.end(), key) == path.end()) nexts.push_back(key);
    }
    std::sort(nexts.begin(), nexts.end());
    for (const std::string& next : nexts) {
      std::vector<std::string> next_path = path;
      next_path.push_back(next);
      if (next == goal) {
        if (!emit(std::move(next_path))) return false;
      } else if (graph.contains(next)) {
        queue.emplace_back(next, std::move(next_path));
      }
    }
  }
  return true;
}
}  // namespace

std::vector<std::vector<std::string>> RoadNetwork::bfs_paths(const std::string& start,
                                                             const std::string& goal) const {
  std::vector<std::vector<std::string>> paths;
  bfs_paths_impl(graph, start, goal, [&](std::vector<std::string> path) {
    paths.push_back(std::move(path));
    return true;
  });
  return paths;
}

std::vector<std::string> RoadNetwork::shortest_path(const std::string& start, const std::string& goal) const {
  std::vector<std::string> first;
  bfs_paths_impl(graph, start, goal, [&](std::vector<std::string> path) {
    first = std::move(path);
    return false;
  });
  return first;
}

std::vector<LaneIndex> RoadNetwork::all_side_lanes(const LaneIndex& lane_index) const {
  std::vector<LaneIndex> out;
  const std::size_t n = lanes(lane_index.from, lane_index.to).size();
  for (std::size_t i = 0; i < n; ++i) out.push_back(LaneIndex{lane_index.from, lane_index.to, static_cast<int>(i)});
  return out;
}

std::vector<LaneIndex> RoadNetwork::side_lanes(const LaneIndex& lane_index) const {
  std::vector<LaneIndex> out;
  const int n = static_cast<int>(lanes(lane_index.from, lane_index.to).size());
  if (lane_index.id > 0) out.push_back(LaneIndex{lane_index.from, lane_index.to, lane_index.id - 1});
  if (lane_index.id < n - 1) out.push_back(LaneIndex{lane_index.from, lane_index.to, lane_index.id + 1});
  return out;
}

bool RoadNetwork::is_same_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2, bool same_lane) {
  return lane_index_1.from == lane_index_2.from && lane_index_1.to == lane_index_2.to &&
         (!same_lane || lane_index_1.id == lane_index_2.id);
}

bool RoadNetwork::is_leading_to_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2,
                                     bool same_lane) {
  return lane_index_1.to == lane_index_2.from && (!same_lane || lane_index_1.id == lane_index_2.id);
}

namespace {
bool is_connected_road_impl(const RoadNetwork& net, const LaneIndex& lane_index_1, const LaneIndex& lane_index_2,
                            const Route& route, std::size_t route_start, bool same_lane, int depth) {
  if (RoadNetwork::is_same_road(lane_index_2, lane_index_1, same_lane) ||
      RoadNetwork::is_leading_to_road(lane_index_2, lane_index_1, same_lane))
    return true;
  if (depth > 0) {
    const bool has_route = route_start < route.size();
    if (has_route && route[route_start].from == lane_index_1.from && route[route_start].to == lane_index_1.to) {
      // Route is starting at current road, skip it
      return is_connected_road_impl(net, lane_index_1, lane_index_2, route, route_start + 1, same_lane, depth);
    }
    if (has_route && route[route_start].from == lane_index_1.to) {
      // Route is continuing from current road, follow it
      return is_connected_road_impl(net, route[route_start], lane_index_2, route, route_start + 1, same_lane,
                                    depth - 1);
    }
    // Recursively search all roads at intersection
    const RoadNetwork::ToDict* next_roads = net.graph.find(lane_index_1.to);
    if (next_roads == nullptr) return false;
    for (const auto& [l1_to, road] : *next_roads) {
      (void)road;
      if (is_connected_road_impl(net, LaneIndex{lane_index_1.to, l1_to, lane_index_1.id}, lane_index_2, route,
                                 route_start, same_lane, depth - 1))
        return true;
    }
    return false;
  }
  return false;
}
}  // namespace

bool RoadNetwork::is_connected_road(const LaneIndex& lane_index_1, const LaneIndex& lane_index_2,
                                    const Route& route, bool same_lane, int depth) const {
  return is_connected_road_impl(*this, lane_index_1, lane_index_2, route, 0, same_lane, depth);
}

RoadNetwork::LaneList RoadNetwork::lanes_list() const {
  LaneList out;
  for (const auto& [from, to_dict] : graph)
    for (const auto& [to, road] : to_dict)
      for (const auto& lane : road) out.push_back(lane);
  return out;
}

std::vector<std::pair<LaneIndex, std::shared_ptr<AbstractLane>>> RoadNetwork::lanes_dict() const {
  std::vector<std::pair<LaneIndex, std::shared_ptr<AbstractLane>>> out;
  for (const auto& [from, to_dict] : graph)
    for (const auto& [to, road] : to_dict)
      for (std::size_t i = 0; i < road.size(); ++i)
        out.emplace_back(LaneIndex{from, to, static_cast<int>(i)}, road[i]);
  return out;
}

RoadNetwork RoadNetwork::straight_road_network(int lanes, double start, double length, double angle,
                                               std::optional<double> speed_limit,
                                               std::optional<std::pair<std::string, std::string>> nodes_str,
                                               RoadNetwork net) {
  const auto nodes = nodes_str.value_or(std::pair<std::string, std::string>{"0", "1"});
  for (int lane = 0; lane < lanes; ++lane) {
    Vec2 origin{start, lane * StraightLane::DEFAULT_WIDTH};
    Vec2 end{start + length, lane * StraightLane::DEFAULT_WIDTH};
    const Mat2 rotation{{{std::cos(angle), std::sin(angle)}, {-std::sin(angle), std::cos(angle)}}};
    origin = matvec(rotation, origin);
    end = matvec(rotation, end);
    const LineTypes line_types{lane == 0 ? LineType::CONTINUOUS_LINE : LineType::STRIPED,
                               lane == lanes - 1 ? LineType::CONTINUOUS_LINE : LineType::NONE};
    net.add_lane(nodes.first, nodes.second,
                 std::make_shared<StraightLane>(origin, end, StraightLane::DEFAULT_WIDTH, line_types, false,
                                                speed_limit));
  }
  return net;
}

std::pair<Vec2, double> RoadNetwork::position_heading_along_route(const Route& route, double longitudinal,
                                                                  double lateral,
                                                                  const LaneIndex& current_lane_index) const {
  if (route.empty()) throw std::invalid_argument("highway: position_heading_along_route needs a route");
  // The lane of route[head], its id None replaced.
  auto route_head_lane = [&](std::size_t head) -> const AbstractLane* {
    const LaneIndex& lane_index = route[head];
    if (lane_index.id != -1) return &get_lane(lane_index);
    // Hypothesis: the vehicle will keep the same lane_id as the current one.
    const auto n = static_cast<int>(lanes(current_lane_index.from, current_lane_index.to).size());
    return &get_lane(LaneIndex{lane_index.from, lane_index.to, current_lane_index.id < n ? current_lane_index.id : 0});
  };
  std::size_t head = 0;
  const AbstractLane* lane = route_head_lane(head);
  while (route.size() - head > 1 && longitudinal > lane->length) {
    longitudinal -= lane->length;
    ++head;
    lane = route_head_lane(head);
  }
  return {lane->position(longitudinal, lateral), lane->heading_at(longitudinal)};
}

LaneIndex RoadNetwork::random_lane_index(Rng& np_random) const {
  const auto from_keys = graph.keys();
  const std::string from = from_keys[static_cast<std::size_t>(np_random.integer(from_keys.size()))];
  const auto to_keys = graph.at(from).keys();
  const std::string to = to_keys[static_cast<std::size_t>(np_random.integer(to_keys.size()))];
  const auto id = static_cast<int>(np_random.integer(lanes(from, to).size()));
  return LaneIndex{from, to, id};
}

}  // namespace rlpool::highway

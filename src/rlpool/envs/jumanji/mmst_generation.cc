// Jumanji's MMST graph generator (see mmst_generation.h for the upstream
// functions it follows): multi_random_walk's layout, the sub-graphs' random
// walks, and the merges, drawing from jax_random.h in jumanji's order.
#include "envs/jumanji/mmst_generation.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rlpool::jumanji {

namespace {

// The sizes of jnp.array_split(arange(total), parts): the first total % parts
// parts one longer.
std::vector<int> split_sizes(int total, int parts) {
  std::vector<int> sizes(static_cast<std::size_t>(parts), total / parts);
  for (int i = 0; i < total % parts; ++i) ++sizes[static_cast<std::size_t>(i)];
  return sizes;
}

}  // namespace

MmstLayout mmst_layout(int num_nodes, int num_edges, int num_agents, int max_degree) {
  // check_num_edges on the whole graph.
  const long long min_edges = num_nodes - 1;
  const long long max_edges = static_cast<long long>(num_nodes) * (num_nodes - 1) / 2;
  if (num_edges < min_edges) {
    throw std::invalid_argument("MMST's num_edges is " + std::to_string(num_edges) + ", less than the minimum (" +
                                std::to_string(min_edges) + ", num_nodes - 1)");
  }
  if (num_edges > max_edges) {
    throw std::invalid_argument("MMST's num_edges is " + std::to_string(num_edges) + ", greater than the maximum (" +
                                std::to_string(max_edges) + ", num_nodes * (num_nodes - 1) / 2)");
  }
  if (num_agents < 1 || num_agents > num_nodes) {
    throw std::invalid_argument("MMST's num_agents must be 1..num_nodes");
  }
  MmstLayout layout;
  layout.num_nodes = num_nodes;
  layout.num_edges = num_edges;
  layout.num_agents = num_agents;
  layout.max_degree = max_degree;
  layout.sub_nodes = split_sizes(num_nodes, num_agents);
  int offset = 0;
  for (const int n : layout.sub_nodes) {
    layout.offsets.push_back(offset);
    offset += n;
  }
  const std::vector<int> shares = split_sizes(num_edges / 2, num_agents);
  long long sub_total = 0;
  for (int i = 0; i < num_agents; ++i) {
    const int n = layout.sub_nodes[static_cast<std::size_t>(i)];
    const int lowest = n - 1;
    const int highest = n * (n - 1) / 2;
    const int edges = std::min(highest, std::max(lowest, shares[static_cast<std::size_t>(i)]));
    layout.sub_edges.push_back(edges);
    sub_total += edges;
  }
  const long long merge_total = num_edges - sub_total;
  if (merge_total < 0) {
    throw std::invalid_argument("MMST's sub-graphs need more edges than num_edges (" + std::to_string(num_edges) +
                                ")");
  }
  // frac = cumsum(merge_total * arange(1, num_agents - 1) / sum(arange(1, num_agents))).astype(int32), in
  // float64; the merges' shares are jnp.split(arange(merge_total), frac)'s lengths.
  const double sum_ratio = static_cast<double>(static_cast<long long>(num_agents) * (num_agents - 1) / 2);
  double acc = 0.0;
  long long at = 0;
  for (int j = 1; j <= num_agents - 2; ++j) {
    acc += static_cast<double>(merge_total * j) / sum_ratio;
    const long long cut = std::clamp(static_cast<long long>(acc), at, merge_total);
    layout.merge_edges.push_back(static_cast<int>(cut - at));
    at = cut;
  }
  layout.merge_edges.push_back(static_cast<int>(merge_total - at));
  return layout;
}

MmstGraphGenerator::MmstGraphGenerator(MmstLayout layout)
    : layout_(std::move(layout)),
      n_(layout_.num_nodes),
      degree_(static_cast<std::size_t>(n_)),
      node_edges_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_)),
      present_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_)),
      visited_(static_cast<std::size_t>(n_)) {}

// add_edge: the ordered pair (a, b) not yet in the edge array and neither
// degree above max_degree; the edge array's write (and its code's) dropped
// past its end, node_edges and the degrees set from the old degrees (a loop
// (a, a) counts once).
bool MmstGraphGenerator::add_edge(int a, int b) {
  const auto ua = static_cast<std::size_t>(a);
  const auto ub = static_cast<std::size_t>(b);
  const auto n = static_cast<std::size_t>(n_);
  if (present_[ua * n + ub] != 0 || degree_[ua] > layout_.max_degree || degree_[ub] > layout_.max_degree) {
    return false;
  }
  if (edge_index_ < capacity_) present_[ua * n + ub] = 1;
  ++edge_index_;
  node_edges_[ua * n + ub] = b;
  node_edges_[ub * n + ua] = a;
  const std::int32_t da = degree_[ua];
  const std::int32_t db = degree_[ub];
  degree_[ua] = da + 1;
  degree_[ub] = db + 1;
  return true;
}

// random_walk over sub-graph `sub`'s nodes (local labels 0..count-1, global
// offset + label): a start randint(0, count - 1); then, while a node is
// unvisited, a neighbour choice(nodes) (randint(0, count)); an unvisited one
// is joined to the current node as (lower, higher) and marked visited if the
// edge is added; the walk moves to the neighbour either way. After a failed
// edge the walk stands on an unvisited node, which can be joined to other
// unvisited ones (staying unvisited itself) or, drawn again, to itself (a
// loop). Then random edges up to the sub-graph's share.
void MmstGraphGenerator::random_walk(int sub, Key key) {
  const int count = layout_.sub_nodes[static_cast<std::size_t>(sub)];
  const int offset = layout_.offsets[static_cast<std::size_t>(sub)];
  capacity_ = layout_.sub_edges[static_cast<std::size_t>(sub)];
  edge_index_ = 0;
  auto [current_key, base_key] = jax_random::split2(key);
  int current = jax_random::randint1(current_key, 0, count - 1);
  std::fill(visited_.begin(), visited_.begin() + count, 0);
  visited_[static_cast<std::size_t>(current)] = 1;
  int unvisited = count - 1;
  while (unvisited > 0) {
    const auto [draw_key, rest] = jax_random::split2(base_key);
    base_key = rest;
    const int neighbour = jax_random::randint1(draw_key, 0, count);
    if (visited_[static_cast<std::size_t>(neighbour)] == 0) {
      const int low = current < neighbour ? current : neighbour;
      const int high = current < neighbour ? neighbour : current;
      if (add_edge(offset + low, offset + high)) {
        visited_[static_cast<std::size_t>(neighbour)] = 1;
        --unvisited;
      } else {
        // Only an unvisited node at most max_degree can still be joined: none left, and jumanji walks forever.
        bool open = false;
        for (int w = 0; w < count && !open; ++w) {
          open = visited_[static_cast<std::size_t>(w)] == 0 &&
                 degree_[static_cast<std::size_t>(offset + w)] <= layout_.max_degree;
        }
        if (!open) {
          throw std::runtime_error(
              "MMST's generator cannot reach every node of a sub-graph (every unvisited node is past max_degree "
              "= " + std::to_string(layout_.max_degree) + "): jumanji's random walk loops forever here");
        }
      }
    }
    current = neighbour;
  }
  add_random_edges(offset, count, base_key);
}

// Some ordered pair of distinct nodes of first..first+count-1, both at most
// max_degree and not in the edge array: else add_random_edges can never add
// an edge.
bool MmstGraphGenerator::any_edge_possible(int first, int count) const {
  const auto n = static_cast<std::size_t>(n_);
  for (int a = first; a < first + count; ++a) {
    if (degree_[static_cast<std::size_t>(a)] > layout_.max_degree) continue;
    for (int b = first; b < first + count; ++b) {
      if (a != b && degree_[static_cast<std::size_t>(b)] <= layout_.max_degree &&
          present_[static_cast<std::size_t>(a) * n + static_cast<std::size_t>(b)] == 0) {
        return true;
      }
    }
  }
  return false;
}

// add_random_edges over the nodes first..first+count-1: while the edge array
// is not full, split the key and try choice(nodes, 2, replace=False) -- the
// first two of a permutation of the nodes -- as an edge.
void MmstGraphGenerator::add_random_edges(int first, int count, Key key) {
  constexpr int kCheckEvery = 1024;  // failed tries between checks that an edge can still be added
  std::int32_t pair[2] = {0, 0};
  int failures = 0;
  while (edge_index_ < capacity_) {
    const auto [draw_key, next_key] = jax_random::split2(key);
    key = next_key;
    jax_random::choice_no_replace(draw_key, pair, 2, static_cast<std::size_t>(count));
    if (add_edge(first + pair[0], first + pair[1])) {
      failures = 0;
    } else if (++failures == kCheckEvery) {
      failures = 0;
      if (!any_edge_possible(first, count)) {
        throw std::runtime_error("MMST's generator cannot add edge " + std::to_string(edge_index_ + 1) + " of " +
                                 std::to_string(capacity_) + " (every free pair of nodes has one past max_degree = " +
                                 std::to_string(layout_.max_degree) + "): jumanji's loop runs forever here");
      }
    }
  }
}

// multi_random_walk: graph_key, base_key = split(key); the sub-graphs' walks
// from split(graph_key, num_agents); merge i (1..num_agents-1) from
// split(base_key, num_agents - 1)[i], which JAX clamps to the last key;
// in a merge, key1, key2 = split(key): one edge between a node of the graph
// so far and one of sub-graph i (split(key1): choice of each), then random
// edges over both from key2 until the merged edge array is full.
void MmstGraphGenerator::generate(Key key, std::int32_t* node_edges, std::int32_t* adj_matrix) {
  std::fill(degree_.begin(), degree_.end(), 0);
  std::fill(node_edges_.begin(), node_edges_.end(), -1);
  std::fill(present_.begin(), present_.end(), 0);
  const int agents = layout_.num_agents;
  const auto [graph_key, base_key] = jax_random::split2(key);
  const std::vector<Key> sub_keys = jax_random::split(graph_key, static_cast<std::size_t>(agents));
  for (int i = 0; i < agents; ++i) random_walk(i, sub_keys[static_cast<std::size_t>(i)]);
  const std::vector<Key> merge_keys = jax_random::split(base_key, static_cast<std::size_t>(agents - 1));
  int total = layout_.sub_edges[0];
  for (int i = 1; i < agents; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const int previous = total;
    total += layout_.sub_edges[ui] + layout_.merge_edges[ui - 1];
    capacity_ = total;
    edge_index_ = previous + layout_.sub_edges[ui];
    const Key merge_key = merge_keys[std::min(ui, merge_keys.size() - 1)];
    const auto [key1, key2] = jax_random::split2(merge_key);
    const auto [a_key, b_key] = jax_random::split2(key1);
    const int offset = layout_.offsets[ui];
    const int a = jax_random::randint1(a_key, 0, offset);
    const int b = offset + jax_random::randint1(b_key, 0, layout_.sub_nodes[ui]);
    add_edge(a, b);
    add_random_edges(0, offset + layout_.sub_nodes[ui], key2);
  }
  const auto n = static_cast<std::size_t>(n_);
  std::copy(node_edges_.begin(), node_edges_.end(), node_edges);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      adj_matrix[a * n + b] = (present_[a * n + b] | present_[b * n + a]) != 0 ? 1 : 0;
    }
  }
}

}  // namespace rlpool::jumanji

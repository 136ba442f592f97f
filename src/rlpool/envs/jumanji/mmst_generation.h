// Jumanji's MMST graph generator (jumanji 1.1.2,
// jumanji/environments/routing/mmst/utils.py multi_random_walk, l.516-604,
// and what it calls: random_walk l.404-479, update_conected_nodes l.375-401,
// merge_graphs l.482-513, add_random_edges l.354-372, add_edge l.282-331,
// make_random_edge and make_random_edge_from_nodes l.334-351,
// init_graph_merge l.196-242, correct_graph_offset l.245-279,
// check_num_edges l.111-124), used by mmst.cc's SplitRandomGenerator.
//
// The nodes are split into num_agents consecutive sub-graphs
// (jnp.array_split); each grows a spanning tree by a random walk on the
// complete graph, then random edges, to its share of edges; the sub-graphs
// are then merged one by one, each merge adding one edge between the graph
// so far and the next sub-graph, then random edges over both. An edge is
// added where its ordered pair (jumanji's Cantor code) is not there yet and
// neither end's degree is above max_degree; a write past the end of a
// graph's edge array is dropped (JAX's scatter) while its node_edges and
// degrees still change, as jumanji's do. Node labels are global here (the
// sub-graphs' offsets added up front): the codes' equalities are those of
// jumanji's local labels, exact in float32 for up to 512 nodes.
//
// jumanji's while loops run forever where no edge can be added any more (all
// nodes past max_degree); the generator detects that state exactly and
// throws std::runtime_error instead.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/jumanji/jumanji_env.h"

namespace rlpool::jumanji {

// multi_random_walk's split of the nodes and edges over the sub-graphs and
// merges, computed from the options (std::invalid_argument where jumanji's
// check_num_edges would refuse them).
struct MmstLayout {
  int num_nodes = 0;
  int num_edges = 0;
  int num_agents = 0;
  int max_degree = 0;
  std::vector<int> sub_nodes;    // nodes of sub-graph i
  std::vector<int> offsets;      // its first node
  std::vector<int> sub_edges;    // its edges (the random walk's num_edges)
  std::vector<int> merge_edges;  // edges added by merge i (num_agents - 1 of them; one if num_agents is 1)
};

MmstLayout mmst_layout(int num_nodes, int num_edges, int num_agents, int max_degree);

// The generated graph: node_edges (num_nodes^2, row-major; entry (a, b) is b
// where a and b are joined, else -1) and adj_matrix (0/1, from the edges
// array jumanji keeps).
class MmstGraphGenerator {
 public:
  explicit MmstGraphGenerator(MmstLayout layout);

  // multi_random_walk(arange(num_nodes), ..., key): writes node_edges and
  // adj_matrix (each num_nodes^2 entries).
  void generate(Key key, std::int32_t* node_edges, std::int32_t* adj_matrix);

  const MmstLayout& layout() const { return layout_; }

 private:
  bool add_edge(int a, int b);
  void random_walk(int sub, Key key);
  void add_random_edges(int first, int count, Key key);
  bool any_edge_possible(int first, int count) const;

  MmstLayout layout_;
  int n_ = 0;
  // The graph being built: node degrees, node_edges, the ordered pairs in
  // the edge array (jumanji's edge codes), and the edge array's fill.
  std::vector<std::int32_t> degree_;
  std::vector<std::int32_t> node_edges_;
  std::vector<std::uint8_t> present_;
  int edge_index_ = 0;
  int capacity_ = 0;
  std::vector<std::uint8_t> visited_;  // scratch: the random walk's target != -1
};

}  // namespace rlpool::jumanji

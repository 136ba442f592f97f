// Jumanji's MMST (multi minimum spanning tree; jumanji 1.1.2, MMST-v0) in
// C++: num_agents agents on a random connected graph of num_nodes nodes each
// connect their num_nodes_per_agent nodes by walking along its edges, a
// utility node (one of no agent's) held by one agent closed to the others.
// A multi-agent env: one action (the next node) per agent, one shared reward.
// Follows jumanji/environments/routing/mmst/:
// - generator.py SplitRandomGenerator.__call__ (l.109-168): graph_key, key =
//   split(key); the graph is utils.multi_random_walk (mmst_generation.h);
//   per agent, select_key, key = split(key) and choice(select_key, its
//   sub-graph's nodes, num_nodes_per_agent, replace=False): its nodes to
//   connect, typed with its id, the first its position and first connected
//   node; every agent's node_edges the graph's, after update_active_edges;
//   the State's key is what is left of `key`. _initialise_states
//   (l.181-204): connected_nodes has max_step (= time_limit) entries per
//   agent, -1 where empty.
// - env.py MMST.reset (l.175-191: key, problem_key = split(key)) and step
//   (l.193-283): key, step_key = split(state.key);
//   _trim_duplicated_invalid_actions (l.447-547): each agent's next node
//   node_edges[agent, position, action] (-1: none), agents examined in the
//   order permutation(step_key, num_agents), a node taken by an earlier one
//   a tie break (-2), no node an invalid choice (-1); an action to a node the
//   agent has connected already (connected_nodes_index[agent, node], JAX's
//   index -1 reading the last node) is -3; a finished agent's -1. An agent
//   whose action is neither -1 nor -2 and whose node is a node moves there
//   (_update_conected_nodes, l.549-570: appended to its connected_nodes, a
//   write past its end dropped as JAX drops it). Then update_active_edges
//   and make_action_mask (utils.py l.40-108, with the finished flags from
//   before the step).
// - _state_to_timestep (l.401-445): reward.py DenseRewardFn (l.46-96): per
//   agent 10 for reaching one of its nodes with a valid action, else -1, -2
//   for an invalid choice, 0 for a lost tie break; 0 for an agent finished
//   before the step; the sum of the agents' rewards (float32) is the one
//   reward, every agent's here. Then get_finished_agents (l.572-592: every
//   node to connect in connected_nodes), step_count + 1, _get_extras
//   (l.594-616: num_connections, ratio_connections, float32); every agent
//   finished or step_count >= time_limit is a termination.
// - observation_spec (l.298-355), _state_to_observation (l.357-399): agent
//   0's view of node_types (its nodes 1, agent a's 2a + 1, a node connected
//   by agent a 2a, utility nodes -1).
// - render: viewer.py MMSTViewer (l.36-214) as flat shapes, 480 x 480 on
//   white with the unit square's axes limits (x right, y up): the nodes where
//   jumanji's spring_layout of adj_matrix puts them (graph_layout.h); each
//   edge a grey (100, 100, 100) line 2 px wide, an edge of an agent's path
//   (consecutive connected_nodes) in the agent's colour instead; each node a
//   disc of radius 0.25 / (5 + int(sqrt(N))), its outer fifth yellow
//   (200, 200, 0) where an agent stands on it, else blue (50, 50, 160), the
//   rest in the colour of the one agent that has it to connect, else black;
//   the node's number in white. Agent colours are the viewer's palette:
//   numpy's np.random.seed(0) then randint(0, 192) for red, green and blue
//   of each agent in turn (legacy MT19937, std::mt19937 seeded 0, a draw's
//   low byte taken where it is below 192).
// Observation entries have the agent axis first: positions and action_mask
// are jumanji's per-agent rows; node_types, adj_matrix and step_count are
// repeated on every agent's row.
//
// State bytes (after the env's key), in the State's field order: node_types
// (N int32), adj_matrix (N x N uint8, 0/1), connected_nodes (A x time_limit
// int32), connected_nodes_index (A x N int32), nodes_to_connect (A x
// num_nodes_per_agent int32), node_edges (A x N x N int32), positions (A
// int32), position_index (A int32), action_mask (A x N uint8, 0/1),
// finished_agents (A uint8, 0/1), step_count (int32), the State's key (two
// uint32).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/jumanji/graph_layout.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"
#include "envs/jumanji/mmst_generation.h"

namespace rlpool::jumanji {

namespace {

constexpr std::int32_t kEmpty = -1;         // EMPTY_NODE, EMPTY_EDGE, UTILITY_NODE, INVALID_CHOICE
constexpr std::int32_t kTieBreak = -2;      // INVALID_TIE_BREAK
constexpr std::int32_t kTraversed = -3;     // INVALID_ALREADY_TRAVERSED
constexpr std::int32_t kDummy = -10;        // DUMMY_NODE
constexpr float kRewardConnected = 10.0f;   // DenseRewardFn's reward_values (10.0, -1.0, -1.0)
constexpr float kRewardTimeStep = -1.0f;
constexpr float kRewardNoop = -1.0f;
constexpr std::int64_t kMaxNodes = 512;
constexpr std::int64_t kMaxTimeLimit = 1'000'000;
constexpr std::int64_t kMaxDegree = 1 << 20;

std::size_t idx(std::int64_t i) { return static_cast<std::size_t>(i); }

// The options, checked (std::invalid_argument naming a bad one).
struct MmstOptions {
  int nodes = 0;
  int edges = 0;
  int max_degree = 0;
  int agents = 0;
  int per_agent = 0;
  int time_limit = 0;
};

MmstOptions read_options(const Config& config) {
  MmstOptions o;
  o.nodes = static_cast<int>(config.get_int_in("num_nodes", 2, kMaxNodes));
  o.agents = static_cast<int>(config.get_int_in("num_agents", 1, std::min<std::int64_t>(kMaxAgents, o.nodes)));
  o.per_agent = static_cast<int>(config.get_int_in("num_nodes_per_agent", 1, o.nodes));
  if (static_cast<double>(o.per_agent * o.agents) > o.nodes * 0.8) {
    throw std::invalid_argument("MMST's num_nodes_per_agent * num_agents (" + std::to_string(o.per_agent * o.agents) +
                                ") must be at most 80% of num_nodes (" + std::to_string(o.nodes) +
                                "), as jumanji's generator requires");
  }
  o.edges = static_cast<int>(config.get_int_in("num_edges", o.nodes - 1,
                                               static_cast<std::int64_t>(o.nodes) * (o.nodes - 1) / 2));
  o.max_degree = static_cast<int>(config.get_int_in("max_degree", 0, kMaxDegree));
  o.time_limit = static_cast<int>(config.get_int_in("time_limit", 1, kMaxTimeLimit));
  return o;
}

// Python's a % b for b > 0 (jnp.remainder).
std::int32_t py_mod(std::int32_t a, std::int32_t b) {
  const std::int32_t r = a % b;
  return r < 0 ? r + b : r;
}

class Mmst final : public JumanjiEnv {
 public:
  Mmst(const MmstOptions& o, std::size_t connections_at, std::size_t ratio_at)
      : JumanjiEnv(o.agents),
        n_(o.nodes),
        a_(o.agents),
        k_(o.per_agent),
        time_limit_(o.time_limit),
        connections_at_(connections_at),
        ratio_at_(ratio_at),
        generator_(mmst_layout(o.nodes, o.edges, o.agents, o.max_degree)),
        node_types_(idx(n_)),
        adj_(idx(n_) * idx(n_)),
        connected_(idx(a_) * idx(time_limit_)),
        connected_index_(idx(a_) * idx(n_)),
        to_connect_(idx(a_) * idx(k_)),
        node_edges_(idx(a_) * idx(n_) * idx(n_)),
        positions_(idx(a_)),
        position_index_(idx(a_)),
        filled_(idx(a_)),
        mask_(idx(a_) * idx(n_)),
        finished_(idx(a_)),
        graph_edges_(idx(n_) * idx(n_)),
        graph_adj_(idx(n_) * idx(n_)),
        nodes_(idx(a_)),
        actions_(idx(a_)),
        added_(idx(a_)),
        order_(idx(a_)),
        pick_(idx(k_)) {}

 protected:
  void new_episode(Key key) override {
    const Key problem_key = jax_random::split2(key).second;
    auto [graph_key, rest] = jax_random::split2(problem_key);
    generator_.generate(graph_key, graph_edges_.data(), graph_adj_.data());
    std::transform(graph_adj_.begin(), graph_adj_.end(), adj_.begin(),
                   [](std::int32_t v) { return static_cast<std::uint8_t>(v); });
    std::fill(node_types_.begin(), node_types_.end(), kEmpty);
    std::fill(connected_.begin(), connected_.end(), kEmpty);
    std::fill(connected_index_.begin(), connected_index_.end(), kEmpty);
    const MmstLayout& layout = generator_.layout();
    for (int agent = 0; agent < a_; ++agent) {
      const auto [select_key, next] = jax_random::split2(rest);
      rest = next;
      const int offset = layout.offsets[idx(agent)];
      jax_random::choice_no_replace(select_key, pick_.data(), idx(k_), idx(layout.sub_nodes[idx(agent)]));
      for (int j = 0; j < k_; ++j) {
        const std::int32_t node = offset + pick_[idx(j)];
        node_types_[idx(node)] = agent;
        to_connect_[idx(agent) * idx(k_) + idx(j)] = node;
      }
      const std::int32_t first = offset + pick_[0];
      positions_[idx(agent)] = first;
      connected_[idx(agent) * idx(time_limit_)] = first;
      connected_index_[idx(agent) * idx(n_) + idx(first)] = first;
    }
    for (int agent = 0; agent < a_; ++agent) {
      std::copy(graph_edges_.begin(), graph_edges_.end(), node_edges_.begin() + static_cast<std::ptrdiff_t>(
                                                                               idx(agent) * idx(n_) * idx(n_)));
    }
    update_active_edges();
    std::fill(position_index_.begin(), position_index_.end(), 0);
    std::fill(finished_.begin(), finished_.end(), 0);
    update_action_mask();
    step_count_ = 0;
    state_key_ = rest;
    measure_paths();
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto [key, step_key] = jax_random::split2(state_key_);
    state_key_ = key;
    trim_actions(action, step_key);
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t act = actions_[idx(agent)];
      const std::int32_t node = nodes_[idx(agent)];
      if (act == kEmpty || act == kTieBreak || node == kEmpty) continue;
      // _update_conected_nodes
      const std::int32_t at = position_index_[idx(agent)] + 1;
      if (at < time_limit_) {
        connected_[idx(agent) * idx(time_limit_) + idx(at)] = node;
        filled_[idx(agent)] = std::max(filled_[idx(agent)], at + 1);
      }
      connected_index_[idx(agent) * idx(n_) + idx(node)] = node;
      positions_[idx(agent)] = node;
      position_index_[idx(agent)] = at;
    }
    update_active_edges();
    update_action_mask();  // with the finished flags from before this step
    // DenseRewardFn, with the finished flags from before this step.
    float total = 0.0f;
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t act = actions_[idx(agent)];
      const float noop = act == kEmpty ? 1.0f : 0.0f;
      const float same = act == kTieBreak ? 1.0f : 0.0f;
      const std::int32_t* nodes = &to_connect_[idx(agent) * idx(k_)];
      const bool connection = std::find(nodes, nodes + k_, positions_[idx(agent)]) != nodes + k_ && act > kEmpty;
      const float reward = connection ? kRewardConnected - same * kRewardConnected
                                      : kRewardTimeStep + noop * kRewardNoop - same * kRewardTimeStep;
      total += reward * (finished_[idx(agent)] != 0 ? 0.0f : 1.0f);
    }
    bool all_finished = true;
    for (int agent = 0; agent < a_; ++agent) {
      finished_[idx(agent)] = connections(agent) == k_ ? 1 : 0;
      all_finished = all_finished && finished_[idx(agent)] != 0;
    }
    ++step_count_;
    std::fill(rewards, rewards + a_, static_cast<double>(total));
    return {.terminated = all_finished || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    auto* node_types = out.obs_as<std::int32_t>(0);
    auto* adj = out.obs_as<std::int32_t>(1);
    auto* positions = out.obs_as<std::int32_t>(2);
    auto* step_count = out.obs_as<std::int32_t>(3);
    bool* mask = out.obs_as<bool>(4);
    // _state_to_observation, agent 0's view.
    for (int j = 0; j < n_; ++j) {
      const std::int32_t t = node_types_[idx(j)];
      std::int32_t v = (py_mod(t, a_) * 2 + 1) * (t != kEmpty ? 1 : 0) - (t == kEmpty ? 1 : 0);
      for (int agent = 0; agent < a_; ++agent) {
        const bool connected = connected_index_[idx(agent) * idx(n_) + idx(j)] != kEmpty;
        v *= connected ? 0 : 1;
        v += 2 * agent * (connected ? 1 : 0);
      }
      node_types[idx(j)] = v;
    }
    const std::size_t nn = idx(n_) * idx(n_);
    std::copy(adj_.begin(), adj_.end(), adj);
    for (int agent = 0; agent < a_; ++agent) {
      if (agent > 0) {
        std::copy(node_types, node_types + n_, node_types + idx(agent) * idx(n_));
        std::copy(adj, adj + nn, adj + idx(agent) * nn);
      }
      step_count[agent] = step_count_;
    }
    std::copy(positions_.begin(), positions_.end(), positions);
    for (std::size_t j = 0; j < mask_.size(); ++j) mask[j] = mask_[j] != 0;
    // _get_extras: per agent, its nodes connected less one (float32), and that over num_nodes_per_agent - 1;
    // their sum and mean. XLA turns each division by a constant into a product with its float32 reciprocal,
    // and fuses the ratios' products into their sum's adds.
    float sum_connections = 0.0f;
    float sum_ratio = 0.0f;
    const float per_connection = 1.0f / static_cast<float>(k_ - 1);  // 1 / 0 = inf: 0 * inf is jumanji's NaN
    for (int agent = 0; agent < a_; ++agent) {
      const float made = static_cast<float>(connections(agent)) - 1.0f;
      sum_connections += made;
      sum_ratio = std::fma(made, per_connection, sum_ratio);
    }
    *out.info_as<float>(connections_at_) = sum_connections;
    *out.info_as<float>(ratio_at_) = sum_ratio * (1.0f / static_cast<float>(a_));
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, node_types_);
    append_values(bytes, adj_);
    append_values(bytes, connected_);
    append_values(bytes, connected_index_);
    append_values(bytes, to_connect_);
    append_values(bytes, node_edges_);
    append_values(bytes, positions_);
    append_values(bytes, position_index_);
    append_values(bytes, mask_);
    append_values(bytes, finished_);
    append(bytes, step_count_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "MMST");
    auto node_types = read_values<std::int32_t>(reader, node_types_.size(), "node_types");
    auto adj = read_values<std::uint8_t>(reader, adj_.size(), "adj_matrix");
    auto connected = read_values<std::int32_t>(reader, connected_.size(), "connected_nodes");
    auto connected_index = read_values<std::int32_t>(reader, connected_index_.size(), "connected_nodes_index");
    auto to_connect = read_values<std::int32_t>(reader, to_connect_.size(), "nodes_to_connect");
    auto node_edges = read_values<std::int32_t>(reader, node_edges_.size(), "node_edges");
    auto positions = read_values<std::int32_t>(reader, positions_.size(), "positions");
    auto position_index = read_values<std::int32_t>(reader, position_index_.size(), "position_index");
    auto mask = read_values<std::uint8_t>(reader, mask_.size(), "action_mask");
    auto finished = read_values<std::uint8_t>(reader, finished_.size(), "finished_agents");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const Key key = read_key(reader);
    reader.done();
    check_all(node_types, kEmpty, a_ - 1, "node_types");
    check_all(adj, 0, 1, "adj_matrix");
    check_all(connected, kEmpty, n_ - 1, "connected_nodes");
    check_all(connected_index, kEmpty, n_ - 1, "connected_nodes_index");
    check_all(to_connect, kEmpty, n_ - 1, "nodes_to_connect");
    check_all(node_edges, kEmpty, n_ - 1, "node_edges");
    check_all(positions, 0, n_ - 1, "positions");
    check_all(position_index, 0, std::numeric_limits<std::int32_t>::max() - 1, "position_index");
    check_all(mask, 0, 1, "action_mask");
    check_all(finished, 0, 1, "finished_agents");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    node_types_ = std::move(node_types);
    adj_ = std::move(adj);
    connected_ = std::move(connected);
    connected_index_ = std::move(connected_index);
    to_connect_ = std::move(to_connect);
    node_edges_ = std::move(node_edges);
    positions_ = std::move(positions);
    position_index_ = std::move(position_index);
    measure_paths();
    mask_ = std::move(mask);
    finished_ = std::move(finished);
    step_count_ = step_count;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

 private:
  // _trim_duplicated_invalid_actions: actions_ becomes each agent's final
  // action (-1, -2, -3 or its own), nodes_ its next node (-1: none).
  void trim_actions(const Action& action, Key step_key) {
    for (int agent = 0; agent < a_; ++agent) {
      const auto act = static_cast<std::int32_t>(action.discrete(idx(agent)));
      nodes_[idx(agent)] = edge(agent, positions_[idx(agent)], act);
      actions_[idx(agent)] = kEmpty;
      added_[idx(agent)] = kDummy;
    }
    jax_random::permutation_indices(step_key, order_.data(), idx(a_));
    for (int at = 0; at < a_; ++at) {
      const auto i = idx(order_[idx(at)]);
      const bool invalid = nodes_[i] == kEmpty;
      const bool free = std::find(added_.begin(), added_.end(), nodes_[i]) == added_.end();
      if (!invalid && !free) {
        actions_[i] = kTieBreak;
        added_[i] = kTieBreak;
      } else if (!invalid && free) {
        actions_[i] = static_cast<std::int32_t>(action.discrete(i));
        added_[i] = nodes_[i];
      }
    }
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t node = nodes_[idx(agent)];
      const std::int32_t column = node < 0 ? node + n_ : node;  // JAX's index -1: the last node
      if (connected_index_[idx(agent) * idx(n_) + idx(column)] != kEmpty) actions_[idx(agent)] = kTraversed;
      if (finished_[idx(agent)] != 0) actions_[idx(agent)] = kEmpty;
    }
  }

  std::int32_t edge(int agent, std::int32_t from, std::int32_t to) const {
    return node_edges_[(idx(agent) * idx(n_) + idx(from)) * idx(n_) + idx(to)];
  }

  // update_active_edges: an agent on a utility node closes it to the others.
  void update_active_edges() {
    const std::size_t nn = idx(n_) * idx(n_);
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t node = positions_[idx(agent)];
      if (node_types_[idx(node)] != kEmpty) continue;
      for (int other = 0; other < a_; ++other) {
        if (other == agent) continue;
        auto first = node_edges_.begin() + static_cast<std::ptrdiff_t>(idx(other) * nn);
        std::replace(first, first + static_cast<std::ptrdiff_t>(nn), node, kEmpty);
      }
    }
  }

  // make_action_mask: the edges from each agent's node, none for a finished agent.
  void update_action_mask() {
    for (int agent = 0; agent < a_; ++agent) {
      for (int j = 0; j < n_; ++j) {
        const bool open = edge(agent, positions_[idx(agent)], j) != kEmpty && finished_[idx(agent)] == 0;
        mask_[idx(agent) * idx(n_) + idx(j)] = open ? 1 : 0;
      }
    }
  }

  // How many of the agent's nodes to connect are in its connected_nodes (jnp.isin).
  void draw(const Canvas& canvas) const {
    const double w = canvas.width();
    const double h = canvas.height();
    const auto pos = spring_layout(adj_, n_);
    const auto x = [&](std::int32_t i) { return pos[idx(i)][0] * w; };
    const auto y = [&](std::int32_t i) { return (1.0 - pos[idx(i)][1]) * h; };
    canvas.fill(Rgb{255, 255, 255});
    for (int i = 0; i < n_; ++i) {
      for (int j = 0; j < n_; ++j) {
        if (adj_[idx(i) * idx(n_) + idx(j)] != 0) canvas.line(x(i), y(i), x(j), y(j), Rgb{100, 100, 100}, 2);
      }
    }
    const std::vector<Rgb> palette = agent_palette(a_);
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t* path = &connected_[idx(agent) * idx(time_limit_)];
      int last = 0;
      for (int t = 0; t < time_limit_; ++t) last = path[t] != kEmpty ? t : last;
      for (int t = 0; t < last; ++t) {
        if (path[t] >= 0 && path[t + 1] >= 0) {
          canvas.line(x(path[t]), y(path[t]), x(path[t + 1]), y(path[t + 1]), palette[idx(agent)], 2);
        }
      }
    }
    const double radius = 0.25 / (5 + static_cast<int>(std::sqrt(static_cast<double>(n_)))) * w;
    for (int node = 0; node < n_; ++node) {
      const bool stood_on = std::find(positions_.begin(), positions_.end(), node) != positions_.end();
      int owner = -1;
      int owners = 0;
      for (std::size_t j = 0; j < to_connect_.size(); ++j) {
        if (to_connect_[j] == node) {
          owner = static_cast<int>(j / idx(k_));
          ++owners;
        }
      }
      canvas.disc(x(node), y(node), radius, stood_on ? Rgb{200, 200, 0} : Rgb{50, 50, 160});
      canvas.disc(x(node), y(node), 0.8 * radius, owners == 1 ? palette[idx(owner)] : Rgb{0, 0, 0});
      canvas.number(x(node), y(node), node, radius >= 12.0 ? 2 : 1, Rgb{255, 255, 255});
    }
  }

  // MMSTViewer's palette: np.random.seed(0), then randint(0, 192) for each agent's red, green and blue.
  static std::vector<Rgb> agent_palette(int agents) {
    std::mt19937 legacy(0);
    const auto draw = [&] {
      for (;;) {
        const auto v = static_cast<std::uint8_t>(legacy() & 0xFFu);
        if (v < 192) return v;
      }
    };
    std::vector<Rgb> palette;
    for (int agent = 0; agent < agents; ++agent) {
      const std::uint8_t r = draw();
      const std::uint8_t g = draw();
      palette.push_back(Rgb{r, g, draw()});
    }
    return palette;
  }

  // How many of an agent's nodes to connect its connected_nodes row holds (get_finished_agents' isin). Only
  // the row's first filled_ entries are searched: the rest are empty (-1), which matches an empty node.
  int connections(int agent) const {
    const std::int32_t* path = &connected_[idx(agent) * idx(time_limit_)];
    const std::int32_t* end = path + filled_[idx(agent)];
    const bool empty_tail = filled_[idx(agent)] < time_limit_;
    int count = 0;
    for (int j = 0; j < k_; ++j) {
      const std::int32_t node = to_connect_[idx(agent) * idx(k_) + idx(j)];
      count += (node == kEmpty && empty_tail) || std::find(path, end, node) != end ? 1 : 0;
    }
    return count;
  }

  // filled_: per agent, one past the last non-empty entry of its connected_nodes row.
  void measure_paths() {
    for (int agent = 0; agent < a_; ++agent) {
      const std::int32_t* path = &connected_[idx(agent) * idx(time_limit_)];
      std::int32_t last = 0;
      for (std::int32_t t = 0; t < time_limit_; ++t) last = path[t] != kEmpty ? t + 1 : last;
      filled_[idx(agent)] = last;
    }
  }

  int n_;
  int a_;
  int k_;
  int time_limit_;
  std::size_t connections_at_;
  std::size_t ratio_at_;
  MmstGraphGenerator generator_;
  // The State.
  std::vector<std::int32_t> node_types_;
  std::vector<std::uint8_t> adj_;
  std::vector<std::int32_t> connected_;        // A x time_limit
  std::vector<std::int32_t> connected_index_;  // A x N
  std::vector<std::int32_t> to_connect_;       // A x num_nodes_per_agent
  std::vector<std::int32_t> node_edges_;       // A x N x N
  std::vector<std::int32_t> positions_;
  std::vector<std::int32_t> position_index_;
  std::vector<std::int32_t> filled_;           // per agent: connected_'s row filled up to here (-1 after)
  std::vector<std::uint8_t> mask_;             // A x N, 0/1
  std::vector<std::uint8_t> finished_;
  std::int32_t step_count_ = 0;
  Key state_key_{};
  // Scratch.
  std::vector<std::int32_t> graph_edges_;
  std::vector<std::int32_t> graph_adj_;
  std::vector<std::int32_t> nodes_;
  std::vector<std::int32_t> actions_;
  std::vector<std::int32_t> added_;
  std::vector<std::int32_t> order_;
  std::vector<std::int32_t> pick_;
};

EnvSpec mmst_spec(const Config& config) {
  const MmstOptions o = read_options(config);
  mmst_layout(o.nodes, o.edges, o.agents, o.max_degree);  // checks the edge counts
  const std::int64_t n = o.nodes;
  const std::int64_t a = o.agents;
  EnvSpec spec{
      .obs = {ArraySpec{.name = "node_types", .dtype = DType::kInt32, .shape = {a, n}, .low = {-1.0},
                        .high = {static_cast<double>(2 * a - 1)}},
              ArraySpec{.name = "adj_matrix", .dtype = DType::kInt32, .shape = {a, n, n}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "positions", .dtype = DType::kInt32, .shape = {a}, .low = {-1.0},
                        .high = {static_cast<double>(n - 1)}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .shape = {a}, .low = {0.0},
                        .high = {static_cast<double>(o.time_limit)}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {a, n}, .low = {0.0},
                        .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = agents_action(a, o.nodes),
      .info = {ArraySpec{.name = "num_connections", .dtype = DType::kFloat32},
               ArraySpec{.name = "ratio_connections", .dtype = DType::kFloat32}},
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
  };
  spec.num_agents = o.agents;
  return spec;
}

std::unique_ptr<Env> make_mmst(const Config& config) {
  const EnvSpec spec = mmst_spec(config);  // checks the options
  return std::make_unique<Mmst>(read_options(config), info_index(spec.info, "num_connections"),
                                info_index(spec.info, "ratio_connections"));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiMMST",
    .options =
        {
            {"num_nodes", std::int64_t{36}, "The graph's nodes (the default generator's num_nodes), 2..512."},
            {"num_edges", std::int64_t{72},
             "The graph's edges (the default generator's num_edges), num_nodes - 1 .. num_nodes * (num_nodes - 1) "
             "/ 2."},
            {"max_degree", std::int64_t{5},
             "The generator's degree limit (its max_degree): an edge is added only while both nodes' degrees are "
             "at most this. A limit too low for num_edges makes a reset fail with an error (jumanji's generator "
             "loops forever there)."},
            {"num_agents", std::int64_t{3}, "The number of agents (the default generator's num_agents)."},
            {"num_nodes_per_agent", std::int64_t{4},
             "The nodes each agent connects (the default generator's num_nodes_per_agent); num_agents times this "
             "at most 80% of num_nodes."},
            {"time_limit", std::int64_t{70},
             "Steps after which the episode ends (MMST's time_limit, also its generator's max_step: the length "
             "of each agent's path); jumanji counts it a termination."},
        },
    .spec = mmst_spec,
    .create = make_mmst,
});

}  // namespace rlpool::jumanji

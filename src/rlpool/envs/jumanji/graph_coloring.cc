// Jumanji's GraphColoring (jumanji 1.1.2, GraphColoring-v1) in C++: a random
// graph of num_nodes nodes whose nodes are colored in order, one per step,
// with num_nodes colors. Follows jumanji/environments/logic/graph_coloring/:
// - env.py GraphColoring.reset (l.114-141): key, subkey = split(key); the
//   graph is generator.py RandomGenerator.__call__ (l.80-106) from subkey:
//   _, edge_key = split(subkey); edge (i, j) for i > j where
//   uniform(edge_key, (n, n))[i, j] < edge_probability (float32), mirrored;
//   no color yet, every color legal, node 0 first; the State keeps `key`.
// - env.py GraphColoring.step (l.143-207): invalid = the State's
//   action_mask is false at the action; the current node takes the color
//   whatever; once every node has a color the reward is minus the number of
//   colors used, an invalid action's is -num_nodes (else 0); either ends the
//   episode by termination. The next node is (current + 1) % num_nodes and
//   its mask _get_valid_actions (l.266-279): the colors none of its
//   neighbours has. There is no time limit of the game's own.
// - env.py observation_spec (l.209-256): adj_matrix, colors,
//   current_node_index, action_mask.
// - render: viewer.py GraphColoringViewer (l.127-216): the
//   render_mode="rgb_array" picture, 480 x 480 with the unit square's axes
//   limits filling it (x right, y up), on white, the nodes where jumanji's
//   spring_layout puts them (graph_layout.h). Each edge a black line 1 px
//   wide, then each node a disc of jumanji's radius 0.25 / (5 + int(sqrt(n)))
//   in its color's _create_color_mapping entry: color c is
//   plt.get_cmap("hsv", n + 1)(c / n) (jumanji_colormap.h), no color (-1)
//   black; the node's index in white on it (block font, 2 px a block from a
//   radius of 12 px up, else 1).
//
// State bytes (after the env's key): adj_matrix (n * n bytes, 0 or 1),
// colors (n int32), current_node_index (int32), action_mask (n bytes, 0 or
// 1), the State's key (two uint32), in jumanji's State order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/graph_layout.h"
#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr std::int64_t kMaxNodes = 1000;

class GraphColoring final : public JumanjiEnv {
 public:
  explicit GraphColoring(const Config& config)
      : n_(static_cast<int>(config.get_int("num_nodes"))),
        edge_probability_(static_cast<float>(config.get_double("edge_probability"))),
        adj_(static_cast<std::size_t>(n_ * n_), 0),
        colors_(static_cast<std::size_t>(n_), -1),
        mask_(static_cast<std::size_t>(n_), 1),
        uniform_(static_cast<std::size_t>(n_ * n_)) {}

 protected:
  void new_episode(Key key) override {
    auto [next, subkey] = jax_random::split2(key);
    state_key_ = next;
    const Key edge_key = jax_random::split2(subkey).second;
    jax_random::uniform(edge_key, uniform_.data(), uniform_.size());
    std::fill(adj_.begin(), adj_.end(), 0);
    for (int i = 0; i < n_; ++i) {
      for (int j = 0; j < i; ++j) {
        if (uniform_[static_cast<std::size_t>(i * n_ + j)] < edge_probability_) {
          adj_[static_cast<std::size_t>(i * n_ + j)] = 1;
          adj_[static_cast<std::size_t>(j * n_ + i)] = 1;
        }
      }
    }
    std::fill(colors_.begin(), colors_.end(), -1);
    std::fill(mask_.begin(), mask_.end(), 1);
    current_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto color = static_cast<std::int32_t>(action.discrete(0));
    const bool invalid = mask_[static_cast<std::size_t>(color)] == 0;
    colors_[static_cast<std::size_t>(current_)] = color;
    const bool all_colored = std::all_of(colors_.begin(), colors_.end(), [](std::int32_t c) { return c >= 0; });
    double reward = 0.0;
    if (all_colored) {
      std::vector<bool> used(static_cast<std::size_t>(n_), false);
      for (const std::int32_t c : colors_) used[static_cast<std::size_t>(c)] = true;
      reward = -static_cast<double>(std::count(used.begin(), used.end(), true));
    }
    if (invalid) reward = -static_cast<double>(n_);
    rewards[0] = reward;
    current_ = (current_ + 1) % n_;
    // _get_valid_actions: the colors of the next node's neighbours are taken.
    std::fill(mask_.begin(), mask_.end(), 1);
    for (int j = 0; j < n_; ++j) {
      const std::int32_t c = colors_[static_cast<std::size_t>(j)];
      if (adj_[static_cast<std::size_t>(current_ * n_ + j)] != 0 && c >= 0) mask_[static_cast<std::size_t>(c)] = 0;
    }
    return Outcome{.terminated = all_colored || invalid};
  }

  void observe(const Output& out) const override {
    // jumanji's observation_spec order (EnvPool's): adj_matrix, action_mask, colors, current_node_index.
    std::copy(adj_.begin(), adj_.end(), out.obs_as<bool>(0));
    std::copy(mask_.begin(), mask_.end(), out.obs_as<bool>(1));
    std::copy(colors_.begin(), colors_.end(), out.obs_as<std::int32_t>(2));
    *out.obs_as<std::int32_t>(3) = current_;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, adj_);
    append_values(bytes, colors_);
    append(bytes, current_);
    append_values(bytes, mask_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "GraphColoring");
    std::vector<std::uint8_t> adj = read_values<std::uint8_t>(reader, adj_.size(), "adj_matrix");
    std::vector<std::int32_t> colors = read_values<std::int32_t>(reader, colors_.size(), "colors");
    const auto current = reader.read<std::int32_t>("current_node_index");
    std::vector<std::uint8_t> mask = read_values<std::uint8_t>(reader, mask_.size(), "action_mask");
    const Key key = read_key(reader);
    reader.done();
    check_all(adj, 0, 1, "adj_matrix entry");
    check_all(colors, -1, n_ - 1, "colors entry");
    check_range(current, 0, n_ - 1, "current_node_index");
    check_all(mask, 0, 1, "action_mask entry");
    adj_ = std::move(adj);
    colors_ = std::move(colors);
    current_ = current;
    mask_ = std::move(mask);
    state_key_ = key;
  }

 private:
  void draw(const Canvas& canvas) const {
    const double w = canvas.width();
    const double h = canvas.height();
    const auto pos = spring_layout(adj_, n_);
    const auto x = [&](int i) { return pos[static_cast<std::size_t>(i)][0] * w; };
    const auto y = [&](int i) { return (1.0 - pos[static_cast<std::size_t>(i)][1]) * h; };
    canvas.fill(Rgb{255, 255, 255});
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j < n_; ++j) {
        if (adj_[static_cast<std::size_t>(i * n_ + j)] != 0) canvas.line(x(i), y(i), x(j), y(j), Rgb{0, 0, 0});
      }
    }
    const double radius = 0.25 / (5 + static_cast<int>(std::sqrt(static_cast<double>(n_)))) * w;
    for (int i = 0; i < n_; ++i) {
      const std::int32_t c = colors_[static_cast<std::size_t>(i)];
      // colormap_indices = np.arange(0, 1, 1 / n): c * (1 / n); the colormap's entry int(that * (n + 1)).
      const Rgb colour = c < 0 ? Rgb{0, 0, 0} : hsv_entry(n_ + 1, static_cast<int>(c * (1.0 / n_) * (n_ + 1)));
      canvas.disc(x(i), y(i), radius, colour);
      canvas.number(x(i), y(i), i, radius >= 12.0 ? 2 : 1, Rgb{255, 255, 255});
    }
  }

  int n_;
  float edge_probability_;
  std::vector<std::uint8_t> adj_;
  std::vector<std::int32_t> colors_;
  std::int32_t current_ = 0;
  std::vector<std::uint8_t> mask_;
  Key state_key_{};
  std::vector<float> uniform_;  // scratch for the generator's draws
};

EnvSpec graph_coloring_spec(const Config& config) {
  const std::int64_t n = config.get_int_in("num_nodes", 1, kMaxNodes);
  const double p = config.get_finite("edge_probability");
  if (!(p > 0.0 && p < 1.0)) {
    throw std::invalid_argument("option 'edge_probability' must be between 0 and 1 (both excluded), got " +
                                std::to_string(p));
  }
  const auto top = static_cast<double>(n - 1);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "adj_matrix", .dtype = DType::kBool, .shape = {n, n}, .low = {0}, .high = {1}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {n}, .low = {0}, .high = {1}},
              ArraySpec{.name = "colors", .dtype = DType::kInt32, .shape = {n}, .low = {-1}, .high = {top}},
              ArraySpec{.name = "current_node_index", .dtype = DType::kInt32, .shape = {}, .low = {0}, .high = {top}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {top}},
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
  };
}

std::unique_ptr<Env> make_graph_coloring(const Config& config) {
  graph_coloring_spec(config);  // checks the options
  return std::make_unique<GraphColoring>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiGraphColoring",
    .options =
        {
            {"num_nodes", std::int64_t{20},
             "The graph's nodes, also the number of colors (the default generator's num_nodes), 1..1000."},
            {"edge_probability", 0.8,
             "The chance of each edge (the default generator's edge_probability, taken as float32), in (0, 1)."},
        },
    .spec = graph_coloring_spec,
    .create = make_graph_coloring,
});

}  // namespace rlpool::jumanji

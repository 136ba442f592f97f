// MiniGrid-WFC-*: minigrid 3.2.0's WFCEnv (envs/wfc/wfcenv.py), its level made by Wave Function
// Collapse (wfc.h) from a pattern image that Python decodes into the hidden option _pattern.
#include <memory>
#include <vector>

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/wfc.h"

namespace rlpool::minigrid {
namespace {

constexpr int kMaxAttempts = 1000;  // WFCEnv's max_attempts

int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 3, 255)); }

wfc::Params params_of(const Config& config) {
  wfc::Params p;
  p.tile_size = static_cast<int>(config.get_int("tile_size"));
  p.pattern_width = static_cast<int>(config.get_int("pattern_width"));
  p.rotations = static_cast<int>(config.get_int("rotations"));
  p.output_periodic = config.get_bool("output_periodic");
  p.input_periodic = config.get_bool("input_periodic");
  p.location = wfc::location_from_name(config.get_string("loc_heuristic"));
  p.choice = wfc::choice_from_name(config.get_string("choice_heuristic"));
  p.backtracking = config.get_bool("backtracking");
  wfc::check(p);
  return p;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  throw std::invalid_argument("minigrid WFC: option _pattern is not a decoded pattern image");
}

// _pattern: "<width>x<height>:" then the RGB bytes in hex (rlpool.envs.minigrid.wfc writes it).
wfc::Image image_of(const std::string& text) {
  const auto x = text.find('x');
  const auto colon = text.find(':');
  if (x == std::string::npos || colon == std::string::npos || x > colon) {
    throw std::invalid_argument("minigrid WFC: option _pattern is not a decoded pattern image");
  }
  wfc::Image img;
  img.width = std::stoi(text.substr(0, x));
  img.height = std::stoi(text.substr(x + 1, colon - x - 1));
  const std::size_t bytes = (text.size() - colon - 1) / 2;
  if (img.width < 1 || img.height < 1 || img.width > 1024 || img.height > 1024 ||
      bytes != static_cast<std::size_t>(img.width) * img.height * 3 || (text.size() - colon - 1) % 2 != 0) {
    throw std::invalid_argument("minigrid WFC: the pattern image must be 1 to 1024 pixels a side");
  }
  img.rgb.resize(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    img.rgb[i] = static_cast<std::uint8_t>(hex_digit(text[colon + 1 + 2 * i]) * 16 + hex_digit(text[colon + 2 + 2 * i]));
  }
  return img;
}

std::shared_ptr<const wfc::Model> model_of(const Config& config) {
  const wfc::Params params = params_of(config);  // bad options first, whether or not there is an image
  if (!config.get_string("_pattern_error").empty()) throw std::invalid_argument(config.get_string("_pattern_error"));
  if (config.get_string("_pattern").empty()) {
    throw std::invalid_argument("minigrid WFC: no pattern image (set the option pattern_path to a PNG file)");
  }
  return wfc::model(image_of(config.get_string("_pattern")), params);
}

class WFC final : public MiniGridEnv {
 public:
  explicit WFC(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), /*see_through_walls=*/false),
        ensure_connected_(config.get_bool("ensure_connected")),
        model_(model_of(config)) {}

  void gen_grid(int w, int h) override {
    // The pattern fills the grid inside its one-cell border; cell (i, j) of the solution is (x, y) = (i + 1,
    // j + 1), as minigrid decodes its array with the first axis as x.
    const int rows = w - 2;
    const int cols = h - 2;
    std::vector<std::uint8_t> walls;
    if (!model_->generate(rows, cols, rng(), kMaxAttempts, walls)) {
      throw std::runtime_error("minigrid WFC: could not generate a valid pattern within " +
                               std::to_string(kMaxAttempts) + " attempts");
    }
    const auto cells = static_cast<std::size_t>(rows * cols);
    std::vector<std::uint8_t> open(cells);
    for (std::size_t c = 0; c < cells; ++c) open[c] = walls[c] == 0;
    if (ensure_connected_) keep_largest_area(rows, cols, open);

    // Two distinct open cells in (i, j) order, uniformly: the start, then the goal.
    std::vector<int> free;
    for (int c = 0; c < static_cast<int>(cells); ++c) {
      if (open[static_cast<std::size_t>(c)]) free.push_back(c);
    }
    if (free.size() < 2) {
      throw std::runtime_error("minigrid WFC: the level has fewer than two free cells (the pattern image has too "
                               "few non-wall pixels: a wall is a pixel whose red value is 0)");
    }
    const int a = rand_int(0, static_cast<int>(free.size()));
    int b = rand_int(0, static_cast<int>(free.size()) - 1);
    if (b >= a) ++b;

    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    for (int c = 0; c < static_cast<int>(cells); ++c) {
      if (!open[static_cast<std::size_t>(c)]) grid.set(c / cols + 1, c % cols + 1, Obj::wall());
    }
    const int goal = free[static_cast<std::size_t>(b)];
    put_obj(Obj::goal(), goal / cols + 1, goal % cols + 1);
    const int start = free[static_cast<std::size_t>(a)];
    agent_pos = {start / cols + 1, start % cols + 1};
    agent_dir = rand_int(0, 4);
    mission = "traverse the maze to get to the goal";
  }

 private:
  // minigrid's _get_largest_component: the largest 4-connected open area of more than one cell (of equal
  // ones, the first met in (i, j) order) stays open, the rest becomes wall.
  static void keep_largest_area(int rows, int cols, std::vector<std::uint8_t>& open) {
    const auto cells = static_cast<std::size_t>(rows * cols);
    std::vector<int> label(cells, -1);
    std::vector<int> todo;
    int best = -1;
    std::size_t best_size = 1;  // areas of one cell do not count
    int next = 0;
    for (int c = 0; c < static_cast<int>(cells); ++c) {
      if (!open[static_cast<std::size_t>(c)] || label[static_cast<std::size_t>(c)] >= 0) continue;
      std::size_t size = 0;
      label[static_cast<std::size_t>(c)] = next;
      todo.assign(1, c);
      while (!todo.empty()) {
        const int x = todo.back();
        todo.pop_back();
        ++size;
        const int i = x / cols;
        const int j = x % cols;
        const int nbrs[4][2] = {{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}};
        for (const auto& nb : nbrs) {
          if (nb[0] < 0 || nb[1] < 0 || nb[0] >= rows || nb[1] >= cols) continue;
          const auto y = static_cast<std::size_t>(nb[0] * cols + nb[1]);
          if (open[y] && label[y] < 0) {
            label[y] = next;
            todo.push_back(static_cast<int>(y));
          }
        }
      }
      if (size > best_size) {
        best = next;
        best_size = size;
      }
      ++next;
    }
    if (best < 0) {
      throw std::runtime_error("minigrid WFC: the level has no two adjacent free cells (minigrid fails there too)");
    }
    for (std::size_t c = 0; c < cells; ++c) open[c] = label[c] == best;
  }

  bool ensure_connected_;
  std::shared_ptr<const wfc::Model> model_;
};

std::vector<Option> options() {
  auto o = common_options();
  o.push_back({"size", std::int64_t{25}, "side of the square grid, walls included"});
  o.push_back({"ensure_connected", true, "keep only the largest connected free area (the rest becomes wall)"});
  o.push_back({"pattern_path", std::string(),
               "the pattern PNG (black pixels, red value 0, are walls); empty: the preset's image from "
               "$RLPOOL_MINIGRID_WFC_PATTERNS or the installed minigrid's patterns folder"});
  o.push_back({"tile_size", std::int64_t{1}, "pixels a tile (minigrid's WFCConfig; only 1 works in minigrid)"});
  o.push_back({"pattern_width", std::int64_t{2}, "side of the overlapping patterns, in tiles"});
  o.push_back({"rotations", std::int64_t{8}, "transforms of the image to take patterns from (1-8: identity, then "
                                             "reflections and rotations in turn)"});
  o.push_back({"output_periodic", false, "the level wraps around at its edges"});
  o.push_back({"input_periodic", false, "minigrid's flag; the image is read wrapped either way, as in minigrid"});
  o.push_back({"loc_heuristic", std::string("entropy"),
               "next cell to collapse: lexical, spiral, entropy, anti-entropy, simple or random"});
  o.push_back({"choice_heuristic", std::string("weighted"), "pattern for it: lexical, rarest, weighted or random"});
  o.push_back({"backtracking", false, "on a contradiction, retry the step without the pattern that failed"});
  o.push_back({"_pattern", std::string(), "the pattern image, decoded (set by rlpool.envs.minigrid.wfc)"});
  o.push_back({"_pattern_error", std::string(), "why there is no pattern image (set by rlpool.envs.minigrid.wfc)"});
  return o;
}

}  // namespace

static const bool kRegistered = register_minigrid(
    {
        .name = "MiniGridWFC",
        .options = options(),
        .spec = minigrid_spec,
        .create = make_env<WFC>(),
    },
    [](const Config& config) { return Pos{size_of(config), size_of(config)}; });

}  // namespace rlpool::minigrid

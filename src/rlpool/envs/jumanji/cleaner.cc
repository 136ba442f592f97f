// Jumanji's Cleaner (jumanji 1.1.2, Cleaner-v0) in C++: num_agents agents,
// all starting in the top-left square of a num_rows x num_cols maze, clean
// its dirty squares by walking over them. A multi-agent env: one action per
// agent, one shared reward. Follows jumanji/environments/routing/cleaner/:
// - generator.py RandomGenerator.__call__ (l.56-87): generator_key,
//   state_key = split(key); the maze is
//   commons/maze_utils/maze_generation.py generate_maze(num_cols, num_rows,
//   generator_key) (l.201-219, recursive division with a stack of chambers,
//   l.71-199; the family's maze_generation.h), its empty squares DIRTY (0)
//   and walls WALL (2); the top-left square CLEAN (1); every agent at (0, 0).
// - env.py Cleaner.reset (l.167-194), Cleaner.step (l.196-254): an action the
//   State's action_mask refuses leaves that agent where it is and ends the
//   episode; the others move (MOVES, constants.py: up, right, down, left);
//   every square holding an agent is set CLEAN (JAX's scatter: a -1
//   coordinate wraps to the last row/column, a write past the end is
//   dropped); the reward is the number of squares changed minus
//   penalty_per_timestep (float32); done -- an invalid action, no dirty
//   square left, or step_count >= time_limit (0 is jumanji's None:
//   num_rows * num_cols) -- is a termination.
// - _compute_action_mask (l.299-320): a move is legal where the square
//   (y, x) reached has 0 <= x < num_rows, 0 <= y < num_cols (jumanji checks
//   the row against num_cols and the column against num_rows, as here) and
//   grid[y, x] is not a wall (JAX clamps that read into the grid).
// - observation_spec (l.126-152), _observation_from_state (l.322-329) and
//   _compute_extras (l.374-381): ratio_dirty_tiles (float32) and
//   num_dirty_tiles (int32) in the info.
// - render: viewer.py CleanerViewer._create_grid_image (l.116-143) and
//   _set_agents_colors as flat colours: the grid inside a black frame one
//   square wide, a square cell_size pixels, a clean square white, a dirty one
//   green, a wall black; a square holding k agents red at alpha 1 - 0.5^k
//   over the white background, (255, g, g) with g = 255 * 0.5^k rounded.
// Observation entries have the agent axis first: agents_locations and
// action_mask are jumanji's per-agent rows; grid and step_count are repeated
// on every agent's row.
//
// State bytes (after the env's key): grid (rows * cols int8, 0..2),
// agents_locations (num_agents x (row, col) int32), action_mask (num_agents
// x 4 uint8, 0/1), step_count (int32), the State's key (two uint32).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"
#include "envs/jumanji/maze_generation.h"

namespace rlpool::jumanji {

namespace {

constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // up, right, down, left
constexpr std::int8_t kDirty = 0;
constexpr std::int8_t kClean = 1;
constexpr std::int8_t kWall = 2;
constexpr std::int64_t kMaxSide = 256;

// The viewer's COLORS: clean, dirty, wall (the frame too).
constexpr Rgb kCleanColour{255, 255, 255};
constexpr Rgb kDirtyColour{0, 255, 0};
constexpr Rgb kWallColour{0, 0, 0};

// The picture's square: 480 pixels over the longer side (the frame
// included), 2..40 pixels.
int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / (std::max(rows, cols) + 2), 2, 40));
}

// JAX's index normalisation for a scatter: a negative index counts from the
// end; the result may still lie outside 0..size-1 (the write is dropped).
int wrap(int i, int size) { return i < 0 ? i + size : i; }

class Cleaner final : public JumanjiEnv {
 public:
  Cleaner(const Config& config, std::size_t ratio_at, std::size_t count_at)
      : JumanjiEnv(static_cast<int>(config.get_int("num_agents"))),
        rows_(static_cast<int>(config.get_int("num_rows"))),
        cols_(static_cast<int>(config.get_int("num_cols"))),
        time_limit_(time_limit(config)),
        penalty_(static_cast<float>(config.get_double("penalty_per_timestep"))),
        ratio_at_(ratio_at),
        count_at_(count_at),
        grid_(static_cast<std::size_t>(rows_ * cols_), kDirty),
        locations_(static_cast<std::size_t>(agents()) * 2, 0),
        mask_(static_cast<std::size_t>(agents()) * 4, 0) {}

  // Cleaner's time_limit: jumanji's `time_limit or num_rows * num_cols`.
  static int time_limit(const Config& config) {
    const auto t = config.get_int("time_limit");
    return static_cast<int>(t > 0 ? t : config.get_int("num_rows") * config.get_int("num_cols"));
  }

 protected:
  void new_episode(Key key) override {
    const auto [generator_key, state_key] = jax_random::split2(key);
    state_key_ = state_key;
    generate_maze(generator_key, rows_, cols_, walls_, stack_);
    for (std::size_t i = 0; i < grid_.size(); ++i) grid_[i] = walls_[i] != 0 ? kWall : kDirty;
    grid_[0] = kClean;
    std::fill(locations_.begin(), locations_.end(), 0);
    step_count_ = 0;
    update_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    const int n = agents();
    bool all_valid = true;
    for (int i = 0; i < n; ++i) {
      const auto a = static_cast<std::size_t>(action.discrete(static_cast<std::size_t>(i)));
      const bool valid = mask_[static_cast<std::size_t>(i) * 4 + a] != 0;
      all_valid = all_valid && valid;
      if (valid) {
        locations_[static_cast<std::size_t>(2 * i)] += kMoves[a][0];
        locations_[static_cast<std::size_t>(2 * i + 1)] += kMoves[a][1];
      }
    }
    int cleaned = 0;
    for (int i = 0; i < n; ++i) {
      const int row = wrap(locations_[static_cast<std::size_t>(2 * i)], rows_);
      const int col = wrap(locations_[static_cast<std::size_t>(2 * i + 1)], cols_);
      if (row < 0 || row >= rows_ || col < 0 || col >= cols_) continue;  // dropped
      std::int8_t& square = grid_[static_cast<std::size_t>(row * cols_ + col)];
      if (square != kClean) {
        square = kClean;
        ++cleaned;
      }
    }
    update_action_mask();
    ++step_count_;
    const float reward = static_cast<float>(cleaned) - penalty_;
    std::fill(rewards, rewards + n, static_cast<double>(reward));
    const bool dirty_left = std::find(grid_.begin(), grid_.end(), kDirty) != grid_.end();
    return {.terminated = !all_valid || !dirty_left || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    const int n = agents();
    auto* grid = out.obs_as<std::int8_t>(0);
    auto* locations = out.obs_as<std::int32_t>(1);
    bool* mask = out.obs_as<bool>(2);
    auto* step_count = out.obs_as<std::int32_t>(3);
    for (int i = 0; i < n; ++i) {
      std::copy(grid_.begin(), grid_.end(), grid + static_cast<std::size_t>(i) * grid_.size());
      step_count[i] = step_count_;
    }
    std::copy(locations_.begin(), locations_.end(), locations);
    for (std::size_t j = 0; j < mask_.size(); ++j) mask[j] = mask_[j] != 0;
    const auto dirty = static_cast<std::int32_t>(std::count(grid_.begin(), grid_.end(), kDirty));
    const auto open = static_cast<std::int32_t>(grid_.size()) -
                      static_cast<std::int32_t>(std::count(grid_.begin(), grid_.end(), kWall));
    *out.info_as<float>(ratio_at_) = static_cast<float>(dirty) / static_cast<float>(open);
    *out.info_as<std::int32_t>(count_at_) = dirty;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, grid_);
    append_values(bytes, locations_);
    append_values(bytes, mask_);
    append(bytes, step_count_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Cleaner");
    auto grid = read_values<std::int8_t>(reader, grid_.size(), "grid");
    auto locations = read_values<std::int32_t>(reader, locations_.size(), "agents_locations");
    auto mask = read_values<std::uint8_t>(reader, mask_.size(), "action_mask");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const Key key = read_key(reader);
    reader.done();
    check_all(grid, 0, 2, "grid");
    // One move past the edge of the grid (rows and columns checked against
    // the larger side, as jumanji's mask lets them): where a move that the
    // State's action_mask allows can take an agent.
    check_all(locations, -1, std::max(rows_, cols_), "agents_locations");
    check_all(mask, 0, 1, "action_mask");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    grid_ = std::move(grid);
    locations_ = std::move(locations);
    mask_ = std::move(mask);
    step_count_ = step_count;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, rows_ + 2, cols_ + 2);  // the grid at (1, 1), the frame around it
    canvas.fill(kWallColour);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const std::int8_t v = grid_[static_cast<std::size_t>(r * cols_ + c)];
        if (v != kWall) board.paint(canvas, r + 1, c + 1, v == kClean ? kCleanColour : kDirtyColour);
      }
    }
    const auto location = [&](int i) {
      return std::array{locations_[static_cast<std::size_t>(2 * i)], locations_[static_cast<std::size_t>(2 * i + 1)]};
    };
    for (int i = 0; i < agents(); ++i) {
      const auto [row, col] = location(i);
      if (row < 0 || row >= rows_ || col < 0 || col >= cols_) continue;
      int count = 0;  // the agents on this square, painted once, by the first of them
      bool first = true;
      for (int j = 0; j < agents(); ++j) {
        const bool here = location(j) == location(i);
        count += here ? 1 : 0;
        first = first && !(here && j < i);
      }
      if (!first) continue;
      const auto g = static_cast<std::uint8_t>(std::lround(255.0 * std::pow(0.5, count)));
      board.paint(canvas, row + 1, col + 1, Rgb{255, g, g});
    }
  }

  // _compute_action_mask: (y, x) the square reached; the bounds as jumanji
  // checks them, the wall read clamped into the grid.
  void update_action_mask() {
    for (int i = 0; i < agents(); ++i) {
      for (int a = 0; a < 4; ++a) {
        const int y = locations_[static_cast<std::size_t>(2 * i)] + kMoves[a][0];
        const int x = locations_[static_cast<std::size_t>(2 * i + 1)] + kMoves[a][1];
        bool legal = x >= 0 && x < rows_ && y >= 0 && y < cols_;
        if (legal) {
          const int row = std::min(y, rows_ - 1);
          const int col = std::min(x, cols_ - 1);
          legal = grid_[static_cast<std::size_t>(row * cols_ + col)] != kWall;
        }
        mask_[static_cast<std::size_t>(i * 4 + a)] = legal ? 1 : 0;
      }
    }
  }

  int rows_;
  int cols_;
  int time_limit_;
  float penalty_;
  std::size_t ratio_at_;
  std::size_t count_at_;
  std::vector<std::int8_t> grid_;
  std::vector<std::int32_t> locations_;  // (row, col) per agent
  std::vector<std::uint8_t> mask_;       // 4 per agent, 0/1
  std::vector<std::uint8_t> walls_;      // scratch: the generator's maze, 1 a wall
  std::vector<MazeChamber> stack_;       // scratch: the generator's chambers
  std::int32_t step_count_ = 0;
  Key state_key_{};
};

EnvSpec cleaner_spec(const Config& config) {
  const auto rows = config.get_int_in("num_rows", 2, kMaxSide);
  const auto cols = config.get_int_in("num_cols", 2, kMaxSide);
  const auto agents = config.get_int_in("num_agents", 1, kMaxAgents);
  config.get_int_in("time_limit", 0, std::numeric_limits<std::int32_t>::max() - 1);
  config.get_finite("penalty_per_timestep");
  const auto time_limit = static_cast<double>(Cleaner::time_limit(config));
  std::vector<double> location_high;
  for (std::int64_t i = 0; i < agents; ++i) {
    location_high.push_back(static_cast<double>(rows));
    location_high.push_back(static_cast<double>(cols));
  }
  EnvSpec spec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kInt8, .shape = {agents, rows, cols}, .low = {0.0},
                        .high = {2.0}},
              ArraySpec{.name = "agents_locations", .dtype = DType::kInt32, .shape = {agents, 2}, .low = {0.0},
                        .high = location_high},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {agents, 4}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .shape = {agents}, .low = {0.0},
                        .high = {time_limit}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {agents}, .low = {0.0}, .high = {3.0}},
      .info = {ArraySpec{.name = "ratio_dirty_tiles", .dtype = DType::kFloat32},
               ArraySpec{.name = "num_dirty_tiles", .dtype = DType::kInt32}},
      .render_width = static_cast<int>(cols + 2) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows + 2) * cell_size(rows, cols),
      .render_fps = 5,
  };
  spec.num_agents = static_cast<int>(agents);
  return spec;
}

std::unique_ptr<Env> make_cleaner(const Config& config) {
  const EnvSpec spec = cleaner_spec(config);  // checks the options
  return std::make_unique<Cleaner>(config, info_index(spec.info, "ratio_dirty_tiles"),
                                   info_index(spec.info, "num_dirty_tiles"));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiCleaner",
    .options =
        {
            {"num_rows", std::int64_t{10}, "The maze's height (the default generator's num_rows), 2..256."},
            {"num_cols", std::int64_t{10}, "The maze's width (the default generator's num_cols), 2..256."},
            {"num_agents", std::int64_t{3}, "The number of cleaning agents (the default generator's num_agents)."},
            {"time_limit", std::int64_t{0},
             "Steps after which the episode ends (Cleaner's time_limit; jumanji counts it a termination); 0, "
             "jumanji's None, is num_rows * num_cols."},
            {"penalty_per_timestep", 0.5, "Subtracted from every step's reward (Cleaner's penalty_per_timestep)."},
        },
    .spec = cleaner_spec,
    .create = make_cleaner,
});

}  // namespace rlpool::jumanji

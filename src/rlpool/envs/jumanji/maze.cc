// Jumanji's Maze (jumanji 1.1.2, Maze-v0) in C++: an agent walks a
// num_rows x num_cols maze of walls to a target square. Follows
// jumanji/environments/routing/maze/:
// - generator.py RandomGenerator.__call__ (l.79-118): key, maze_key,
//   agent_key = split(key, 3); walls = generate_maze(num_cols, num_rows,
//   maze_key); the agent's and the target's squares are choice(agent_key,
//   rows * cols, (2,), replace=False, p=~walls), divmod by num_cols.
// - commons/maze_utils/maze_generation.py generate_maze (l.201-219) and what
//   it calls (l.71-199): the family's maze_generation.h.
// - env.py Maze.reset (l.170-193), Maze.step (l.195-263) and
//   _compute_action_mask (l.265-283): an action the State's action_mask
//   refuses is a no-op; a move is legal inside the maze onto a square with no
//   wall; the episode ends (a termination) when no move is legal, the target
//   is reached (reward 1) or step_count >= time_limit (time_limit 0 is
//   jumanji's None: num_rows * num_cols).
// - observation_spec (l.122-159) and _observation_from_state (l.285-293).
// - render: viewer.py MazeEnvViewer (l.29-93) and commons/maze_utils/
//   maze_rendering.py MazeViewer._create_grid_image (l.112-118) as flat
//   colours: the maze inside a black frame one square wide, a square
//   cell_size pixels, an open square white, a wall black, the agent's square
//   green, the target's red (drawn last, as the viewer overlays it).
//
// State bytes (after the env's key): walls (rows * cols uint8, 0/1),
// agent_position (row, col int32), target_position (row, col int32),
// step_count (int32), action_mask (4 uint8, 0/1), the State's key (two
// uint32). The action_mask is jumanji's State field, kept as it is (step
// checks the action against it).
#include <algorithm>
#include <array>
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
constexpr std::int64_t kMaxSide = 256;

// The viewer's COLORS.
constexpr Rgb kOpen{255, 255, 255};
constexpr Rgb kWall{0, 0, 0};
constexpr Rgb kAgent{0, 255, 0};
constexpr Rgb kTarget{255, 0, 0};

// The picture's square: 480 pixels over the longer side (the frame
// included), 2..40 pixels.
int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / (std::max(rows, cols) + 2), 2, 40));
}

class Maze final : public JumanjiEnv {
 public:
  explicit Maze(const Config& config)
      : rows_(static_cast<int>(config.get_int("num_rows"))),
        cols_(static_cast<int>(config.get_int("num_cols"))),
        time_limit_(time_limit(config)),
        walls_(static_cast<std::size_t>(rows_ * cols_), 0),
        free_(static_cast<std::size_t>(rows_ * cols_), 0.0f) {}

  // Maze's time_limit: jumanji's `time_limit or num_rows * num_cols`.
  static int time_limit(const Config& config) {
    const auto t = config.get_int("time_limit");
    return static_cast<int>(t > 0 ? t : config.get_int("num_rows") * config.get_int("num_cols"));
  }

 protected:
  void new_episode(Key key) override {
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), keys.size());
    state_key_ = keys[0];
    generate_maze(keys[1], rows_, cols_, walls_, stack_);
    for (std::size_t i = 0; i < walls_.size(); ++i) free_[i] = walls_[i] != 0 ? 0.0f : 1.0f;
    std::array<std::int32_t, 2> squares{};
    jax_random::choice_p_no_replace(keys[2], squares.data(), squares.size(), free_.data(), free_.size());
    agent_row_ = squares[0] / cols_;
    agent_col_ = squares[0] % cols_;
    target_row_ = squares[1] / cols_;
    target_col_ = squares[1] % cols_;
    step_count_ = 0;
    update_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto a = static_cast<std::size_t>(action.discrete());
    if (action_mask_[a]) {
      agent_row_ += kMoves[a][0];
      agent_col_ += kMoves[a][1];
    }
    update_action_mask();
    ++step_count_;
    const bool no_actions = std::none_of(action_mask_.begin(), action_mask_.end(), [](bool m) { return m; });
    const bool target_reached = agent_row_ == target_row_ && agent_col_ == target_col_;
    rewards[0] = target_reached ? 1.0 : 0.0;
    return {.terminated = no_actions || target_reached || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    *out.obs_as<std::int32_t>(0) = agent_row_;
    *out.obs_as<std::int32_t>(1) = agent_col_;
    *out.obs_as<std::int32_t>(2) = target_row_;
    *out.obs_as<std::int32_t>(3) = target_col_;
    bool* walls = out.obs_as<bool>(4);
    for (std::size_t i = 0; i < walls_.size(); ++i) walls[i] = walls_[i] != 0;
    *out.obs_as<std::int32_t>(5) = step_count_;  // jumanji's observation_spec order (EnvPool's)
    std::copy(action_mask_.begin(), action_mask_.end(), out.obs_as<bool>(6));
  }

  std::string save() const override {
    std::string bytes;
    append(bytes, walls_.data(), walls_.size());
    for (std::int32_t v : {agent_row_, agent_col_, target_row_, target_col_, step_count_}) append(bytes, v);
    for (bool m : action_mask_) append(bytes, static_cast<std::uint8_t>(m));
    append(bytes, state_key_.hi);
    append(bytes, state_key_.lo);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Maze");
    std::vector<std::uint8_t> walls(walls_.size());
    reader.read(walls.data(), walls.size(), "walls");
    const auto agent_row = reader.read<std::int32_t>("agent_position.row");
    const auto agent_col = reader.read<std::int32_t>("agent_position.col");
    const auto target_row = reader.read<std::int32_t>("target_position.row");
    const auto target_col = reader.read<std::int32_t>("target_position.col");
    const auto step_count = reader.read<std::int32_t>("step_count");
    std::array<std::uint8_t, 4> mask{};
    reader.read(mask.data(), mask.size(), "action_mask");
    const auto key_hi = reader.read<std::uint32_t>("key");
    const auto key_lo = reader.read<std::uint32_t>("key");
    reader.done();
    for (std::uint8_t w : walls) check_range(w, 0, 1, "walls");
    // One move past the edge: where a move the State's action_mask allows
    // (a mask not computed from the walls) can take the agent.
    check_range(agent_row, -1, rows_, "agent_position.row");
    check_range(agent_col, -1, cols_, "agent_position.col");
    check_range(target_row, 0, rows_ - 1, "target_position.row");
    check_range(target_col, 0, cols_ - 1, "target_position.col");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    for (std::uint8_t m : mask) check_range(m, 0, 1, "action_mask");
    walls_ = std::move(walls);
    agent_row_ = agent_row;
    agent_col_ = agent_col;
    target_row_ = target_row;
    target_col_ = target_col;
    step_count_ = step_count;
    for (std::size_t i = 0; i < mask.size(); ++i) action_mask_[i] = mask[i] != 0;
    state_key_ = Key{key_hi, key_lo};
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, rows_ + 2, cols_ + 2);  // the maze at (1, 1), the frame around it
    canvas.fill(kWall);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        if (walls_[static_cast<std::size_t>(r * cols_ + c)] == 0) board.paint(canvas, r + 1, c + 1, kOpen);
      }
    }
    const auto mark = [&](int r, int c, Rgb colour) {
      if (r >= 0 && r < rows_ && c >= 0 && c < cols_) board.paint(canvas, r + 1, c + 1, colour);
    };
    mark(agent_row_, agent_col_, kAgent);
    mark(target_row_, target_col_, kTarget);
  }

  void update_action_mask() {
    for (std::size_t a = 0; a < 4; ++a) {
      const int row = agent_row_ + kMoves[a][0];
      const int col = agent_col_ + kMoves[a][1];
      const bool inside = row >= 0 && row < rows_ && col >= 0 && col < cols_;
      action_mask_[a] = inside && walls_[static_cast<std::size_t>(row * cols_ + col)] == 0;
    }
  }

  int rows_;
  int cols_;
  int time_limit_;
  std::vector<std::uint8_t> walls_;
  std::vector<float> free_;     // scratch: ~walls as choice's p
  std::vector<MazeChamber> stack_;  // scratch: the generator's chambers
  std::int32_t agent_row_ = 0;
  std::int32_t agent_col_ = 0;
  std::int32_t target_row_ = 0;
  std::int32_t target_col_ = 0;
  std::int32_t step_count_ = 0;
  std::array<bool, 4> action_mask_{};
  Key state_key_{};
};

EnvSpec maze_spec(const Config& config) {
  const auto rows = config.get_int_in("num_rows", 2, kMaxSide);
  const auto cols = config.get_int_in("num_cols", 2, kMaxSide);
  config.get_int_in("time_limit", 0, std::numeric_limits<std::int32_t>::max() - 1);
  const auto time_limit = static_cast<double>(Maze::time_limit(config));
  const auto position = [](const char* name, std::int64_t size) {
    return ArraySpec{.name = name, .dtype = DType::kInt32, .low = {0.0}, .high = {static_cast<double>(size - 1)}};
  };
  return EnvSpec{
      .obs = {position("agent_position.row", rows), position("agent_position.col", cols),
              position("target_position.row", rows), position("target_position.col", cols),
              ArraySpec{.name = "walls", .dtype = DType::kBool, .shape = {rows, cols}, .low = {0.0}, .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .low = {0.0}, .high = {time_limit}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {4}, .low = {0.0}, .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .low = {0.0}, .high = {3.0}},
      .render_width = static_cast<int>(cols + 2) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows + 2) * cell_size(rows, cols),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_maze(const Config& config) {
  maze_spec(config);  // checks the options
  return std::make_unique<Maze>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiMaze",
    .options =
        {
            {"num_rows", std::int64_t{10}, "The maze's height (the default generator's num_rows), 2..256."},
            {"num_cols", std::int64_t{10}, "The maze's width (the default generator's num_cols), 2..256."},
            {"time_limit", std::int64_t{0},
             "Steps after which the episode ends (Maze's time_limit; jumanji counts it a termination); 0, "
             "jumanji's None, is num_rows * num_cols."},
        },
    .spec = maze_spec,
    .create = make_maze,
});

}  // namespace rlpool::jumanji

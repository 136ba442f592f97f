// Jumanji's Maze (jumanji 1.1.2, Maze-v0) in C++: an agent walks a
// num_rows x num_cols maze of walls to a target square. Follows
// jumanji/environments/routing/maze/:
// - generator.py RandomGenerator.__call__ (l.79-118): key, maze_key,
//   agent_key = split(key, 3); walls = generate_maze(num_cols, num_rows,
//   maze_key); the agent's and the target's squares are choice(agent_key,
//   rows * cols, (2,), replace=False, p=~walls), divmod by num_cols.
// - commons/maze_utils/maze_generation.py generate_maze (l.201-219) and what
//   it calls (l.71-199), with stack.py's Stack: recursive division with a
//   stack of chambers (x, y, width, height), the whole maze first. Each popped
//   chamber splits the key three ways (key, wall_key, passage_key); a chamber
//   at least as wide as high gets a vertical wall at an odd offset
//   (random_odd: randint(0, width // 2) * 2 + 1) with a passage at an even
//   offset (random_even: randint(0, (height + 1) // 2) * 2), else a
//   horizontal one the same way; the two sides are pushed (left/above first)
//   when both their sides are over 1.
// - env.py Maze.reset (l.170-193), Maze.step (l.195-263) and
//   _compute_action_mask (l.265-283): an action the State's action_mask
//   refuses is a no-op; a move is legal inside the maze onto a square with no
//   wall; the episode ends (a termination) when no move is legal, the target
//   is reached (reward 1) or step_count >= time_limit (time_limit 0 is
//   jumanji's None: num_rows * num_cols).
// - observation_spec (l.122-159) and _observation_from_state (l.285-293).
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

namespace rlpool::jumanji {

namespace {

constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // up, right, down, left
constexpr std::int64_t kMaxSide = 256;

// A chamber of maze_generation.py: its top-left square and its size.
struct Chamber {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t width = 0;
  std::int32_t height = 0;
};

// maze_generation.generate_maze(width, height, key): rows x cols, 1 a wall.
// Every chamber lies inside the maze, so no write falls outside it.
void generate_maze(Key key, int rows, int cols, std::vector<std::uint8_t>& walls, std::vector<Chamber>& stack) {
  walls.assign(static_cast<std::size_t>(rows * cols), 0);
  stack.clear();
  stack.push_back({0, 0, cols, rows});
  auto set = [&](int row, int col, std::uint8_t v) { walls[static_cast<std::size_t>(row * cols + col)] = v; };
  auto push = [&](std::int32_t x, std::int32_t y, std::int32_t width, std::int32_t height) {
    if (width > 1 && height > 1) stack.push_back({x, y, width, height});
  };
  while (!stack.empty()) {
    const Chamber c = stack.back();
    stack.pop_back();
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), keys.size());
    key = keys[0];
    if (c.width >= c.height) {  // split_horizontally: a vertical wall
      const std::int32_t wall_dx = jax_random::randint1(keys[1], 0, c.width / 2) * 2 + 1;
      const std::int32_t wall_x = c.x + wall_dx;
      for (std::int32_t i = c.y; i < c.y + c.height; ++i) set(i, wall_x, 1);
      push(c.x, c.y, wall_dx, c.height);
      push(wall_x + 1, c.y, c.width - wall_dx - 1, c.height);
      const std::int32_t passage_y = jax_random::randint1(keys[2], 0, (c.height + 1) / 2) * 2;
      set(c.y + passage_y, wall_x, 0);
    } else {  // split_vertically: a horizontal wall
      const std::int32_t wall_dy = jax_random::randint1(keys[1], 0, c.height / 2) * 2 + 1;
      const std::int32_t wall_y = c.y + wall_dy;
      for (std::int32_t i = c.x; i < c.x + c.width; ++i) set(wall_y, i, 1);
      push(c.x, c.y, c.width, wall_dy);
      push(c.x, wall_y + 1, c.width, c.height - wall_dy - 1);
      const std::int32_t passage_x = jax_random::randint1(keys[2], 0, (c.width + 1) / 2) * 2;
      set(wall_y, c.x + passage_x, 0);
    }
  }
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

 private:
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
  std::vector<Chamber> stack_;  // scratch: the generator's chambers
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

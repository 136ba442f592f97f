// Jumanji's Minesweeper (jumanji 1.1.2, Minesweeper-v0) in C++: a board of
// num_rows x num_cols squares hiding num_mines mines; each step explores one
// square. Follows jumanji/environments/logic/minesweeper/:
// - generator.py Generator.__call__ (l.55-75) and UniformSamplingGenerator
//   (l.78-87): key, sample_key = split(key); the mines are
//   utils.py create_flat_mine_locations (l.27-47), jax.random.choice(
//   sample_key, rows * cols, (num_mines,), replace=False); the State keeps
//   `key`.
// - env.py Minesweeper.step (l.150-179): the explored square gets
//   utils.py count_adjacent_mines (l.81-102), the mines in its 3x3 patch
//   less its own; reward.py DefaultRewardFn (1 for a safe unexplored square,
//   0 for a mine or an explored square); done.py DefaultDoneFn (an explored
//   square, a mine, or utils.py is_solved: every safe square explored) ends
//   the episode by termination. There is no time limit of the game's own.
// - env.py observation_spec (l.181-228) and _state_to_observation
//   (l.243-249): board, action_mask (board == -1), num_mines, step_count.
// The action is [row, col] (jumanji's MultiDiscreteArray).
// - render: viewer.py MinesweeperViewer._draw and _render_grid_square
//   (l.105-148) as flat colours: one white cell per square on black grid
//   lines, an explored mine black, an explored safe square its count of
//   adjacent mines in constants.py DEFAULT_COLOR_MAPPING's colour for that
//   count (orange, blue, green, red, purple, maroon, teal, black, gray).
//
// State bytes (after the env's key): board (rows * cols int32), step_count
// (int32), flat_mine_locations (num_mines int32), the State's key (two
// uint32), in jumanji's State order.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr std::int32_t kUnexplored = -1;

// The picture: cell_size pixels a square, the board at most 480 pixels a side where squares of 2 pixels
// allow it (the smallest square: a larger board draws larger).
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kCountColours[9] = {{255, 165, 0}, {0, 0, 255},   {0, 128, 0}, {255, 0, 0},     {128, 0, 128},
                                  {128, 0, 0},   {0, 128, 128}, {0, 0, 0},   {128, 128, 128}};

int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / std::max(rows, cols), 2, 48));
}

class Minesweeper final : public JumanjiEnv {
 public:
  explicit Minesweeper(const Config& config)
      : rows_(static_cast<int>(config.get_int("num_rows"))),
        cols_(static_cast<int>(config.get_int("num_cols"))),
        num_mines_(static_cast<int>(config.get_int("num_mines"))),
        board_(static_cast<std::size_t>(rows_ * cols_), kUnexplored),
        mines_(static_cast<std::size_t>(num_mines_)),
        mined_(static_cast<std::size_t>(rows_ * cols_), 0) {}

 protected:
  void new_episode(Key key) override {
    auto [next, sample_key] = jax_random::split2(key);
    state_key_ = next;
    jax_random::choice_no_replace(sample_key, mines_.data(), mines_.size(), board_.size());
    std::fill(board_.begin(), board_.end(), kUnexplored);
    step_count_ = 0;
    place_mines();
  }

  Outcome play(const Action& action, double* rewards) override {
    const int row = static_cast<int>(action.discrete(0));
    const int col = static_cast<int>(action.discrete(1));
    const std::size_t at = static_cast<std::size_t>(row * cols_ + col);
    const bool valid = board_[at] == kUnexplored;
    const bool mine = mined_[at] != 0;
    board_[at] = adjacent_mines(row, col);
    step_count_ += 1;
    rewards[0] = valid && !mine ? 1.0 : 0.0;
    return Outcome{.terminated = !valid || mine || solved()};
  }

  void observe(const Output& out) const override {
    std::copy(board_.begin(), board_.end(), out.obs_as<std::int32_t>(0));
    bool* mask = out.obs_as<bool>(1);
    for (std::size_t i = 0; i < board_.size(); ++i) mask[i] = board_[i] == kUnexplored;
    *out.obs_as<std::int32_t>(2) = num_mines_;
    *out.obs_as<std::int32_t>(3) = step_count_;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, board_);
    append(bytes, step_count_);
    append_values(bytes, mines_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Minesweeper");
    std::vector<std::int32_t> board = read_values<std::int32_t>(reader, board_.size(), "board");
    const auto step_count = reader.read<std::int32_t>("step_count");
    std::vector<std::int32_t> mines = read_values<std::int32_t>(reader, mines_.size(), "flat_mine_locations");
    const Key key = read_key(reader);
    reader.done();
    check_all(board, kUnexplored, 8, "board square");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max(), "step_count");
    std::vector<bool> seen(board_.size(), false);
    for (const std::int32_t m : mines) {
      check_range(m, 0, static_cast<long long>(board_.size()) - 1, "flat_mine_locations entry");
      if (seen[static_cast<std::size_t>(m)]) {
        throw std::invalid_argument("state's flat_mine_locations holds square " + std::to_string(m) + " twice");
      }
      seen[static_cast<std::size_t>(m)] = true;
    }
    board_ = std::move(board);
    step_count_ = step_count;
    mines_ = std::move(mines);
    state_key_ = key;
    place_mines();
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board grid(frame, rows_, cols_);
    const int gap = grid.cell >= 8 ? 1 : 0;
    canvas.fill(kBlack);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const auto at = static_cast<std::size_t>(r * cols_ + c);
        const std::int32_t count = board_[at];
        const bool explored_mine = count != kUnexplored && mined_[at] != 0;
        grid.paint(canvas, r, c, explored_mine ? kBlack : kWhite, gap);
        if (count != kUnexplored && !explored_mine) {
          canvas.number(grid.cx(c), grid.cy(r), count, number_scale(grid.cell, count), kCountColours[count]);
        }
      }
    }
  }

  // utils.py get_mined_board: 1 on the mines' squares.
  void place_mines() {
    std::fill(mined_.begin(), mined_.end(), 0);
    for (const std::int32_t m : mines_) mined_[static_cast<std::size_t>(m)] = 1;
  }

  // utils.py count_adjacent_mines: the 3x3 patch around (row, col), cut at
  // the board's edges (jumanji pads with zeros), less the square's own mine.
  std::int32_t adjacent_mines(int row, int col) const {
    std::int32_t sum = 0;
    for (int r = std::max(row - 1, 0); r <= std::min(row + 1, rows_ - 1); ++r) {
      for (int c = std::max(col - 1, 0); c <= std::min(col + 1, cols_ - 1); ++c) {
        sum += mined_[static_cast<std::size_t>(r * cols_ + c)];
      }
    }
    return sum - mined_[static_cast<std::size_t>(row * cols_ + col)];
  }

  // utils.py is_solved: every square without a mine explored.
  bool solved() const {
    const auto explored = std::count_if(board_.begin(), board_.end(), [](std::int32_t v) { return v >= 0; });
    return explored == static_cast<std::ptrdiff_t>(board_.size()) - num_mines_;
  }

  int rows_;
  int cols_;
  int num_mines_;
  std::vector<std::int32_t> board_;
  std::int32_t step_count_ = 0;
  std::vector<std::int32_t> mines_;
  Key state_key_{};
  std::vector<std::int32_t> mined_;  // derived from mines_
};

// Board sides up to 256 keep a board's squares and its step count in int32 with room to spare.
constexpr std::int64_t kMaxSide = 256;

EnvSpec minesweeper_spec(const Config& config) {
  const std::int64_t rows = config.get_int_in("num_rows", 2, kMaxSide);
  const std::int64_t cols = config.get_int_in("num_cols", 2, kMaxSide);
  const std::int64_t mines = config.get_int_in("num_mines", 0, rows * cols - 1);
  const auto n = static_cast<double>(rows * cols);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "board", .dtype = DType::kInt32, .shape = {rows, cols}, .low = {-1}, .high = {8}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {rows, cols}, .low = {0}, .high = {1}},
              ArraySpec{.name = "num_mines", .dtype = DType::kInt32, .shape = {}, .low = {0}, .high = {n - 1}},
              ArraySpec{.name = "step_count",
                        .dtype = DType::kInt32,
                        .shape = {},
                        .low = {0},
                        .high = {n - static_cast<double>(mines)}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action",
                          .dtype = DType::kInt64,
                          .shape = {2},
                          .low = {0, 0},
                          .high = {static_cast<double>(rows - 1), static_cast<double>(cols - 1)}},
      .render_width = static_cast<int>(cols) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows) * cell_size(rows, cols),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_minesweeper(const Config& config) {
  minesweeper_spec(config);  // checks the options
  return std::make_unique<Minesweeper>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiMinesweeper",
    .options =
        {
            {"num_rows", std::int64_t{10}, "The board's height (the default generator's num_rows), 2..256."},
            {"num_cols", std::int64_t{10}, "The board's width (the default generator's num_cols), 2..256."},
            {"num_mines", std::int64_t{10}, "How many mines the generator places, 0..num_rows * num_cols - 1."},
        },
    .spec = minesweeper_spec,
    .create = make_minesweeper,
});

}  // namespace rlpool::jumanji

// Jumanji's Game2048 (jumanji 1.1.2, Game2048-v1) in C++: tiles on a
// board_size x board_size board (exponents of 2, 0 for empty) slide and
// merge; each move that changes the board adds a tile. Follows
// jumanji/environments/logic/game_2048/:
// - env.py Game2048.reset (l.137-165): key, board_key = split(key); the
//   board is _generate_board (l.228-246), an empty board with one
//   _add_random_cell (l.248-275): key, subkey = split(key); the square is
//   choice(key, n * n, p=board == 0) and divmod by n, the exponent
//   choice(subkey, [1, 2], p=[0.9, 0.1]).
// - env.py Game2048.step (l.167-226): utils.py move (l.223-234) slides the
//   board, the reward the sum over rows of 2.0 ** (merged exponent) in
//   float32; random_cell_key, new_key = split(state.key), and a cell is added
//   only where the State's action_mask allowed the action; done (no legal
//   move left) is a termination. The game has no time limit of its own.
// - utils.py transform_board (l.24-34): up is the transpose, right a flip of
//   the columns, down the transpose flipped both ways, so that every move is
//   a move left; move_left_row (l.112-220): jumanji's two-index loop (no-op,
//   shift or merge per step); can_move_left_row (l.37-83): the action mask
//   (_get_action_mask, l.277-289) in the same loop's terms.
// - env.py observation_spec (l.100-124): board (int32), action_mask (bool,
//   4); the TimeStep's extras: highest_tile = 2 ** max(board) (int32, as
//   JAX's integer power wraps).
// - render: viewer.py Game2048Viewer.render, render_tile and draw_board
//   (l.69-87, l.131-204) as flat colours: the tiles in the viewer's COLORS by
//   value (an empty square #ccc0b3, 2 #eee4da ... 16384 #aa60a6, larger
//   #f8251d) on #bbada0 lines, each tile's value (2 and 4 in #766d64, larger
//   ones in #f9f6f2), and the score (the viewer's title) in #766d64 on a
//   #faf8ef strip below the board.
//
// State bytes (after the env's key): board (n * n int32), step_count
// (int32), action_mask (4 bytes, 0/1), score (float32), the State's key (two
// uint32), in jumanji's State order.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr std::array<float, 2> kNewTileP = {0.9f, 0.1f};  // exponents 1 and 2

// The picture: a board 480 / board_size pixels a square, the score's strip below it.
constexpr int kBoardPixels = 480;
constexpr int kStrip = 48;
// Tile colours by exponent (0: empty); the exponents past the table's end share kOther.
constexpr Rgb kTileColours[15] = {
    {0xcc, 0xc0, 0xb3}, {0xee, 0xe4, 0xda}, {0xed, 0xe0, 0xc8}, {0xf5, 0x95, 0x63}, {0xf5, 0x95, 0x63},
    {0xf6, 0x7c, 0x5f}, {0xf6, 0x5e, 0x3b}, {0xed, 0xcf, 0x72}, {0xed, 0xcc, 0x61}, {0xed, 0xc6, 0x51},
    {0xee, 0xc7, 0x44}, {0xec, 0xc2, 0x2e}, {0xb7, 0x84, 0xab}, {0xb7, 0x84, 0xab}, {0xaa, 0x60, 0xa6},
};
constexpr Rgb kOther{0xf8, 0x25, 0x1d};
constexpr Rgb kLightText{0xf9, 0xf6, 0xf2};
constexpr Rgb kDarkText{0x76, 0x6d, 0x64};
constexpr Rgb kEdge{0xbb, 0xad, 0xa0};
constexpr Rgb kBackground{0xfa, 0xf8, 0xef};

class Game2048 final : public JumanjiEnv {
 public:
  Game2048(const Config& config, std::size_t highest_tile_at)
      : n_(static_cast<int>(config.get_int("board_size"))),
        highest_tile_at_(highest_tile_at),
        board_(static_cast<std::size_t>(n_ * n_), 0),
        line_(static_cast<std::size_t>(n_)),
        empty_(static_cast<std::size_t>(n_ * n_)) {}

 protected:
  void new_episode(Key key) override {
    const auto [next, board_key] = jax_random::split2(key);
    state_key_ = next;
    std::fill(board_.begin(), board_.end(), 0);
    add_random_cell(board_key);
    update_action_mask();
    step_count_ = 0;
    score_ = 0.0f;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto a = static_cast<int>(action.discrete());
    const float reward = move(a);
    const auto [random_cell_key, next] = jax_random::split2(state_key_);
    if (action_mask_[static_cast<std::size_t>(a)]) add_random_cell(random_cell_key);
    update_action_mask();
    ++step_count_;
    state_key_ = next;
    score_ += reward;
    rewards[0] = reward;
    return {.terminated = std::none_of(action_mask_.begin(), action_mask_.end(), [](bool m) { return m; })};
  }

  void observe(const Output& out) const override {
    std::copy(board_.begin(), board_.end(), out.obs_as<std::int32_t>(0));
    std::copy(action_mask_.begin(), action_mask_.end(), out.obs_as<bool>(1));
    const std::int32_t top = *std::max_element(board_.begin(), board_.end());
    // 2 ** top in int32, wrapping as JAX's integer power does (0 from 2 ** 32 on).
    const auto tile = top < 32 ? static_cast<std::int32_t>(std::uint32_t{1} << top) : 0;
    *out.info_as<std::int32_t>(highest_tile_at_) = tile;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, board_);
    append(bytes, step_count_);
    for (bool m : action_mask_) append(bytes, static_cast<std::uint8_t>(m));
    append(bytes, score_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Game2048");
    std::vector<std::int32_t> board = read_values<std::int32_t>(reader, board_.size(), "board");
    const auto step_count = reader.read<std::int32_t>("step_count");
    std::array<std::uint8_t, 4> mask{};
    reader.read(mask.data(), mask.size(), "action_mask");
    const auto score = reader.read<float>("score");
    const Key key = read_key(reader);
    reader.done();
    // A tile's exponent: n * n squares make at most 2 ** (n * n + 1).
    check_all(board, 0, max_exponent(), "board");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    check_all(mask, 0, 1, "action_mask");
    if (!std::isfinite(score) || score < 0.0f) {
      throw std::invalid_argument("state's score is " + std::to_string(score) + ", expected a finite value >= 0");
    }
    board_ = std::move(board);
    step_count_ = step_count;
    for (std::size_t i = 0; i < mask.size(); ++i) action_mask_[i] = mask[i] != 0;
    score_ = score;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board grid(frame, n_, n_);
    const int side = n_ * grid.cell;
    canvas.rect(0, 0, side, side, kEdge);
    for (int r = 0; r < n_; ++r) {
      for (int c = 0; c < n_; ++c) {
        const std::int32_t e = board_[static_cast<std::size_t>(r * n_ + c)];
        grid.paint(canvas, r, c, e < 15 ? kTileColours[e] : kOther, std::max(1, grid.cell / 40));
        if (e > 0 && e < 63) {  // the value of a tile past 2 ** 62 is left out
          const long value = 1L << e;
          canvas.number(grid.cx(c), grid.cy(r), value, number_scale(grid.cell, value), e <= 2 ? kDarkText : kLightText);
        }
      }
    }
    canvas.rect(0, side, canvas.width(), canvas.height(), kBackground);
    const long score = static_cast<long>(std::min(score_, 1e18f));
    canvas.number(canvas.width() / 2.0, side + kStrip / 2.0, score, 4, kDarkText);
  }

  int max_exponent() const { return n_ * n_ + 1; }

  // Square k of line `i` of the board as transform_board shows it for
  // `action`, so that the move is a move left along the line.
  std::size_t square(int action, int i, int k) const {
    const int n = n_;
    switch (action) {
      case 0:  // up: transpose
        return static_cast<std::size_t>(k * n + i);
      case 1:  // right: the columns flipped
        return static_cast<std::size_t>(i * n + (n - 1 - k));
      case 2:  // down: the transpose flipped along both axes
        return static_cast<std::size_t>((n - 1 - k) * n + (n - 1 - i));
      default:  // left
        return static_cast<std::size_t>(i * n + k);
    }
  }

  // utils.py move_left_row on line_: the new line, and its reward in float32.
  float move_left_line() {
    float reward = 0.0f;
    int t = 0;
    int o = 1;
    while (o < n_) {
      const std::int32_t origin = line_[static_cast<std::size_t>(o)];
      const std::int32_t target = line_[static_cast<std::size_t>(t)];
      if (origin != 0 && target == 0) {  // shift
        line_[static_cast<std::size_t>(t)] = origin;
        line_[static_cast<std::size_t>(o)] = 0;
        ++o;
      } else if (origin != 0 && target == origin) {  // merge
        line_[static_cast<std::size_t>(t)] = target + 1;
        line_[static_cast<std::size_t>(o)] = 0;
        reward += std::ldexp(1.0f, target + 1);
        ++t;
        ++o;
      } else {  // no-op
        t += origin != 0 ? 1 : 0;
        if (origin == 0 || t == o) ++o;
      }
    }
    return reward;
  }

  // utils.py can_move_left_row on line_.
  bool can_move_left_line() const {
    int t = 0;
    int o = 1;
    while (o < n_) {
      const std::int32_t origin = line_[static_cast<std::size_t>(o)];
      const std::int32_t target = line_[static_cast<std::size_t>(t)];
      if (origin != 0 && (target == 0 || target == origin)) return true;
      t += origin != 0 ? 1 : 0;
      if (origin == 0 || t == o) ++o;
    }
    return false;
  }

  // utils.py move: every line moved left in the transformed board, the
  // rows' rewards summed in order.
  float move(int action) {
    float reward = 0.0f;
    for (int i = 0; i < n_; ++i) {
      for (int k = 0; k < n_; ++k) line_[static_cast<std::size_t>(k)] = board_[square(action, i, k)];
      reward += move_left_line();
      for (int k = 0; k < n_; ++k) board_[square(action, i, k)] = line_[static_cast<std::size_t>(k)];
    }
    return reward;
  }

  void update_action_mask() {
    for (int a = 0; a < 4; ++a) {
      bool can = false;
      for (int i = 0; i < n_ && !can; ++i) {
        for (int k = 0; k < n_; ++k) line_[static_cast<std::size_t>(k)] = board_[square(a, i, k)];
        can = can_move_left_line();
      }
      action_mask_[static_cast<std::size_t>(a)] = can;
    }
  }

  void add_random_cell(Key key) {
    const auto [square_key, value_key] = jax_random::split2(key);
    for (std::size_t i = 0; i < board_.size(); ++i) empty_[i] = board_[i] == 0 ? 1.0f : 0.0f;
    std::int32_t at = 0;
    jax_random::choice_p(square_key, &at, 1, empty_.data(), empty_.size());
    std::int32_t value = 0;
    jax_random::choice_p(value_key, &value, 1, kNewTileP.data(), kNewTileP.size());
    board_[static_cast<std::size_t>(at)] = value + 1;
  }

  int n_;
  std::size_t highest_tile_at_;
  std::vector<std::int32_t> board_;
  std::vector<std::int32_t> line_;  // scratch: one line of the transformed board
  std::vector<float> empty_;        // scratch: board == 0 as choice's p
  std::array<bool, 4> action_mask_{};
  std::int32_t step_count_ = 0;
  float score_ = 0.0f;
  Key state_key_{};
};

EnvSpec game_2048_spec(const Config& config) {
  const auto n = config.get_int_in("board_size", 2, 10);
  return EnvSpec{
      .obs = {ArraySpec{.name = "board", .dtype = DType::kInt32, .shape = {n, n}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {4}, .low = {0.0}, .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .low = {0.0}, .high = {3.0}},
      .info = {ArraySpec{.name = "highest_tile", .dtype = DType::kInt32}},
      .render_width = static_cast<int>(kBoardPixels / n * n),
      .render_height = static_cast<int>(kBoardPixels / n * n) + kStrip,
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_game_2048(const Config& config) {
  const EnvSpec spec = game_2048_spec(config);  // checks the options
  return std::make_unique<Game2048>(config, info_index(spec.info, "highest_tile"));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiGame2048",
    .options =
        {
            {"board_size", std::int64_t{4}, "The board's side (Game2048's board_size), 2..10."},
        },
    .spec = game_2048_spec,
    .create = make_game_2048,
});

}  // namespace rlpool::jumanji

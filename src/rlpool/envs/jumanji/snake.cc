// Jumanji's Snake (jumanji 1.1.2, Snake-v1) in C++: a snake on a num_rows x
// num_cols grid eats fruit and grows. Follows
// jumanji/environments/routing/snake/env.py:
// - Snake.reset (l.129-166): key, snake_key, fruit_key = split(key, 3); the
//   head is randint(snake_key, (2,), 0, (num_rows, num_cols)); the fruit is
//   _sample_fruit_coord (l.307-327), choice(fruit_key, rows * cols, p=~body)
//   and divmod by num_cols.
// - Snake.step (l.168-235): validity from the State's action_mask, key,
//   fruit_key = split(key); the head moves (MOVES, l.94: up, right, down,
//   left); body_state counts down (unless a fruit is eaten) and the head's
//   square gets `length`; a new fruit only when one is eaten; done (invalid
//   action, the board full, or step_count >= time_limit) is a termination,
//   the time limit included. An invalid move leaves the board: jumanji's
//   indexing then wraps a -1 coordinate to the last row/column and drops a
//   write past the end (JAX's scatter), as here.
// - _get_action_mask (l.329-357): a move is legal inside the board onto a
//   square whose body_state - 1 is not positive (the tail moves on).
// - observation_spec (l.237-268) and _state_to_observation (l.279-305):
//   grid (rows, cols, 5) float32 of body, head, tail, fruit and
//   body_state / max(1, max(body_state)) (which XLA computes as body_state
//   * (1 / max), one rounding each); step_count; action_mask.
// - render: viewer.py SnakeViewer._draw_board and _create_entities
//   (l.116-174) as flat colours, row 0 at the top: a white board, a square
//   cell_size pixels, in a black outline 2 pixels wide (none on a side under
//   8 pixels); each body square
//   filled with the viewer's colormap (yellowgreen to forestgreen) at
//   body_state / length (its 256-colour table, as matplotlib looks it up),
//   edged forestgreen; the head a disc of radius 0.3 squares (yellowgreen,
//   edged with the colormap's middle); the fruit a disc of radius 0.2
//   (lightcoral, edged brown).
// The State's body and tail are body_state > 0 and body_state == 1 in every
// State jumanji makes, so they are computed from body_state here.
//
// State bytes (after the env's key): body_state (rows * cols int32),
// head_position (row, col int32), fruit_position (row, col int32), length,
// step_count (int32), action_mask (4 bytes, 0/1), the State's key (two
// uint32).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // up, right, down, left
constexpr int kChannels = 5;

// The viewer's colours (matplotlib's named ones).
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kYellowGreen{154, 205, 50};
constexpr Rgb kForestGreen{34, 139, 34};
constexpr Rgb kLightCoral{240, 128, 128};
constexpr Rgb kBrown{165, 42, 42};

// The viewer's colormap, from_list(["yellowgreen", "forestgreen"]), at t in
// [0, 1]: entry floor(256 t) (at most 255) of its 256-colour table.
Rgb body_colour(double t) {
  const double at = static_cast<double>(std::clamp(static_cast<int>(std::floor(t * 256.0)), 0, 255)) / 255.0;
  const auto mix = [at](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + at * (static_cast<double>(b) - a)));
  };
  return {mix(kYellowGreen.r, kForestGreen.r), mix(kYellowGreen.g, kForestGreen.g),
          mix(kYellowGreen.b, kForestGreen.b)};
}

// The picture's square: 480 pixels over the longer side, 2..40 pixels.
int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / std::max(rows, cols), 2, 40));
}

class Snake final : public JumanjiEnv {
 public:
  explicit Snake(const Config& config)
      : rows_(static_cast<int>(config.get_int("num_rows"))),
        cols_(static_cast<int>(config.get_int("num_cols"))),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        body_state_(static_cast<std::size_t>(rows_ * cols_), 0),
        free_(static_cast<std::size_t>(rows_ * cols_), 0.0f) {}

 protected:
  void new_episode(Key key) override {
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), keys.size());
    state_key_ = keys[0];
    const std::array<std::int32_t, 2> low = {0, 0};
    const std::array<std::int32_t, 2> high = {rows_, cols_};
    std::array<std::int32_t, 2> head{};
    jax_random::randint_each(keys[1], head.data(), 2, low.data(), high.data());
    head_row_ = head[0];
    head_col_ = head[1];
    std::fill(body_state_.begin(), body_state_.end(), 0);
    body_state_[index(head_row_, head_col_)] = 1;
    sample_fruit(keys[2]);
    length_ = 1;
    step_count_ = 0;
    update_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto a = static_cast<std::size_t>(action.discrete());
    const bool is_valid = action_mask_[a];
    const auto [next, fruit_key] = jax_random::split2(state_key_);
    state_key_ = next;
    head_row_ += kMoves[a][0];
    head_col_ += kMoves[a][1];
    const bool fruit_eaten = head_row_ == fruit_row_ && head_col_ == fruit_col_;
    length_ += fruit_eaten ? 1 : 0;
    if (!fruit_eaten) {
      for (std::int32_t& v : body_state_) v = std::max(v - 1, 0);
    }
    if (const int at = scatter_index(head_row_, head_col_); at >= 0) body_state_[static_cast<std::size_t>(at)] = length_;
    if (fruit_eaten) sample_fruit(fruit_key);
    ++step_count_;
    update_action_mask();
    const bool completed = std::all_of(body_state_.begin(), body_state_.end(), [](std::int32_t v) { return v > 0; });
    rewards[0] = fruit_eaten ? 1.0 : 0.0;
    return {.terminated = !is_valid || completed || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    auto* grid = out.obs_as<float>(0);
    const std::int32_t top = std::max<std::int32_t>(1, *std::max_element(body_state_.begin(), body_state_.end()));
    const int head_at = scatter_index(head_row_, head_col_);
    const int fruit_at = scatter_index(fruit_row_, fruit_col_);
    const float scale = 1.0f / static_cast<float>(top);  // XLA divides by a scalar as a product with its inverse
    for (int i = 0; i < rows_ * cols_; ++i) {
      const std::int32_t v = body_state_[static_cast<std::size_t>(i)];
      float* cell = grid + static_cast<std::ptrdiff_t>(i) * kChannels;
      cell[0] = v > 0 ? 1.0f : 0.0f;
      cell[1] = i == head_at ? 1.0f : 0.0f;
      cell[2] = v == 1 ? 1.0f : 0.0f;
      cell[3] = i == fruit_at ? 1.0f : 0.0f;
      cell[4] = static_cast<float>(v) * scale;
    }
    *out.obs_as<std::int32_t>(1) = step_count_;
    std::copy(action_mask_.begin(), action_mask_.end(), out.obs_as<bool>(2));
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, body_state_);
    for (std::int32_t v : {head_row_, head_col_, fruit_row_, fruit_col_, length_, step_count_}) append(bytes, v);
    for (bool m : action_mask_) append(bytes, static_cast<std::uint8_t>(m));
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Snake");
    const int cells = rows_ * cols_;
    std::vector<std::int32_t> body_state =
        read_values<std::int32_t>(reader, static_cast<std::size_t>(cells), "body_state");
    const auto head_row = reader.read<std::int32_t>("head_position.row");
    const auto head_col = reader.read<std::int32_t>("head_position.col");
    const auto fruit_row = reader.read<std::int32_t>("fruit_position.row");
    const auto fruit_col = reader.read<std::int32_t>("fruit_position.col");
    const auto length = reader.read<std::int32_t>("length");
    const auto step_count = reader.read<std::int32_t>("step_count");
    std::array<std::uint8_t, 4> mask{};
    reader.read(mask.data(), mask.size(), "action_mask");
    const Key key = read_key(reader);
    reader.done();
    check_all(body_state, 0, cells, "body_state");
    // One move past the board's edge: where an invalid action leaves the head.
    check_range(head_row, -1, rows_, "head_position.row");
    check_range(head_col, -1, cols_, "head_position.col");
    check_range(fruit_row, 0, rows_ - 1, "fruit_position.row");
    check_range(fruit_col, 0, cols_ - 1, "fruit_position.col");
    check_range(length, 1, cells, "length");
    check_range(step_count, 0, time_limit_, "step_count");
    check_all(mask, 0, 1, "action_mask");
    body_state_ = std::move(body_state);
    head_row_ = head_row;
    head_col_ = head_col;
    fruit_row_ = fruit_row;
    fruit_col_ = fruit_col;
    length_ = length;
    step_count_ = step_count;
    for (std::size_t i = 0; i < mask.size(); ++i) action_mask_[i] = mask[i] != 0;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, rows_, cols_);
    const int edge = std::max(1, board.cell / 16);
    canvas.fill(kWhite);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const std::int32_t v = body_state_[index(r, c)];
        if (v <= 0) continue;
        board.paint(canvas, r, c, kForestGreen);
        board.paint(canvas, r, c, body_colour(static_cast<double>(v) / length_), edge);
      }
    }
    const auto disc = [&](int r, int c, double radius, Rgb face, Rgb rim) {
      if (r < 0 || r >= rows_ || c < 0 || c >= cols_) return;
      canvas.disc(board.cx(c), board.cy(r), radius * board.cell, rim);
      canvas.disc(board.cx(c), board.cy(r), radius * board.cell - edge, face);
    };
    disc(head_row_, head_col_, 0.3, kYellowGreen, body_colour(0.5));
    disc(fruit_row_, fruit_col_, 0.2, kLightCoral, kBrown);
    const int w = frame.width, h = frame.height;
    if (w < 8 || h < 8) return;  // a sliver of a board: the outline would cover it
    for (const auto& [x0, y0, x1, y1] : {std::array{0, 0, w, 2}, std::array{0, h - 2, w, h},
                                         std::array{0, 0, 2, h}, std::array{w - 2, 0, w, h}}) {
      canvas.rect(x0, y0, x1, y1, kBlack);
    }
  }

  std::size_t index(int row, int col) const { return static_cast<std::size_t>(row * cols_ + col); }

  // Where JAX's x.at[row, col].set(...) writes: a negative coordinate counts
  // from the end; -1 where it falls outside (the write is dropped).
  int scatter_index(int row, int col) const {
    if (row < 0) row += rows_;
    if (col < 0) col += cols_;
    if (row < 0 || row >= rows_ || col < 0 || col >= cols_) return -1;
    return row * cols_ + col;
  }

  void sample_fruit(Key key) {
    for (std::size_t i = 0; i < body_state_.size(); ++i) free_[i] = body_state_[i] > 0 ? 0.0f : 1.0f;
    std::int32_t at = 0;
    jax_random::choice_p(key, &at, 1, free_.data(), free_.size());
    fruit_row_ = at / cols_;
    fruit_col_ = at % cols_;
  }

  void update_action_mask() {
    for (std::size_t a = 0; a < 4; ++a) {
      const int row = head_row_ + kMoves[a][0];
      const int col = head_col_ + kMoves[a][1];
      const bool inside = row >= 0 && row < rows_ && col >= 0 && col < cols_;
      action_mask_[a] = inside && body_state_[index(row, col)] - 1 <= 0;
    }
  }

  int rows_;
  int cols_;
  int time_limit_;
  std::vector<std::int32_t> body_state_;
  std::vector<float> free_;  // scratch: ~body as choice's p
  std::int32_t head_row_ = 0;
  std::int32_t head_col_ = 0;
  std::int32_t fruit_row_ = 0;
  std::int32_t fruit_col_ = 0;
  std::int32_t length_ = 1;
  std::int32_t step_count_ = 0;
  std::array<bool, 4> action_mask_{};
  Key state_key_{};
};

EnvSpec snake_spec(const Config& config) {
  const auto rows = config.get_int_in("num_rows", 2, 256);
  const auto cols = config.get_int_in("num_cols", 2, 256);
  const auto time_limit = config.get_int_in("time_limit", 1, 1'000'000'000);
  return EnvSpec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kFloat32, .shape = {rows, cols, kChannels}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .low = {0.0},
                        .high = {static_cast<double>(time_limit - 1)}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {4}, .low = {0.0}, .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .low = {0.0}, .high = {3.0}},
      .render_width = static_cast<int>(cols) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows) * cell_size(rows, cols),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_snake(const Config& config) {
  snake_spec(config);  // checks the options
  return std::make_unique<Snake>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiSnake",
    .options =
        {
            {"num_rows", std::int64_t{12}, "The grid's height (Snake's num_rows), 2..256."},
            {"num_cols", std::int64_t{12}, "The grid's width (Snake's num_cols), 2..256."},
            {"time_limit", std::int64_t{4000},
             "Steps after which the episode ends (Snake's time_limit; jumanji counts it a termination)."},
        },
    .spec = snake_spec,
    .create = make_snake,
});

}  // namespace rlpool::jumanji

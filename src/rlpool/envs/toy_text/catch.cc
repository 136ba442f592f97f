// Catch, as bsuite defines it (bsuite/environments/catch.py): a ball starts in
// the top row at a uniformly random column and falls one row per step; the
// paddle in the bottom row starts at column `columns // 2` and moves by
// action - 1 (left, stay, right), clipped to the board. When the ball reaches
// the bottom row the episode terminates with reward +1 if the paddle is under
// it, else -1. The observation is the (rows, columns) float32 board with 1.0
// at the ball and the paddle.
#include <algorithm>
#include <cstring>

#include "_core/env/env.h"
#include "envs/toy_text/toy_text.h"

namespace rlpool::toy_text {
namespace {

constexpr std::int64_t kMaxCells = std::int64_t{1} << 20;

struct Board {
  std::int64_t rows;
  std::int64_t columns;
  // render(): bsuite has no picture of its own, so the board itself, a
  // square of `cell` pixels per cell (32, less for boards over 16 cells wide
  // or tall, at least 1), white where the observation is 1, else black.
  int cell() const { return static_cast<int>(std::clamp<std::int64_t>(512 / std::max(rows, columns), 1, 32)); }
};

// bsuite's `rows`/`columns`, or EnvPool's `height`/`width` (0: not given).
Board board_of(const Config& config) {
  std::int64_t rows = config.get_int_in("rows", 2, kMaxCells);
  std::int64_t columns = config.get_int_in("columns", 1, kMaxCells);
  const std::int64_t height = config.get_int_in("height", 0, kMaxCells);
  const std::int64_t width = config.get_int_in("width", 0, kMaxCells);
  if (height != 0) {
    if (rows != 10 && rows != height) {
      throw std::invalid_argument("Catch: 'height' is EnvPool's name for 'rows'; give one of them, got rows=" +
                                  std::to_string(rows) + " and height=" + std::to_string(height));
    }
    rows = height;
  }
  if (width != 0) {
    if (columns != 5 && columns != width) {
      throw std::invalid_argument("Catch: 'width' is EnvPool's name for 'columns'; give one of them, got columns=" +
                                  std::to_string(columns) + " and width=" + std::to_string(width));
    }
    columns = width;
  }
  if (rows < 2) throw std::invalid_argument("Catch needs rows (height) >= 2, got " + std::to_string(rows));
  if (rows * columns > kMaxCells) throw std::invalid_argument("Catch board is limited to 2**20 cells");
  return {rows, columns};
}

class Catch final : public Env {
 public:
  explicit Catch(const Config& config) : board_(board_of(config)) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = State{static_cast<std::int64_t>(rng.integer(static_cast<std::uint64_t>(board_.columns))), 0,
                   board_.columns / 2};
    write(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    state_.paddle_x = std::clamp(state_.paddle_x + action.discrete() - 1, std::int64_t{0}, board_.columns - 1);
    state_.ball_y += 1;
    if (state_.ball_y == board_.rows - 1) {
      *out.reward = state_.paddle_x == state_.ball_x ? 1.0 : -1.0;
      *out.terminated = true;
    }
    write(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override {
    State state;
    load_pod_state(bytes, state);
    // The ball may be anywhere above the paddle's row: a step moves it down one row.
    if (state.ball_x < 0 || state.ball_x >= board_.columns || state.ball_y < 0 || state.ball_y >= board_.rows - 1 ||
        state.paddle_x < 0 || state.paddle_x >= board_.columns) {
      throw std::invalid_argument("Catch state (ball_x, ball_y, paddle_x) = (" + std::to_string(state.ball_x) + ", " +
                                  std::to_string(state.ball_y) + ", " + std::to_string(state.paddle_x) +
                                  ") is off the board or has the ball in the paddle's row");
    }
    state_ = state;
  }

  void render(const Frame& frame) override {
    const int cell = board_.cell();
    const std::size_t row_bytes = static_cast<std::size_t>(frame.width) * 3;
    std::fill_n(frame.rgb, row_bytes * static_cast<std::size_t>(frame.height), std::uint8_t{0});
    const auto square = [&](std::int64_t y, std::int64_t x) {
      for (int dy = 0; dy < cell; ++dy) {
        std::uint8_t* p = frame.rgb + (static_cast<std::size_t>(y * cell + dy)) * row_bytes +
                          static_cast<std::size_t>(x * cell) * 3;
        std::fill_n(p, static_cast<std::size_t>(cell) * 3, std::uint8_t{255});
      }
    };
    square(state_.ball_y, state_.ball_x);
    square(board_.rows - 1, state_.paddle_x);
  }

 private:
  void write(const Output& out) const {
    auto* board = out.obs_as<float>();
    std::fill_n(board, board_.rows * board_.columns, 0.0f);
    board[state_.ball_y * board_.columns + state_.ball_x] = 1.0f;
    board[(board_.rows - 1) * board_.columns + state_.paddle_x] = 1.0f;
  }

  // bsuite's _ball_x, _ball_y, _paddle_x (the paddle's row is always rows - 1).
  struct State {
    std::int64_t ball_x = 0;
    std::int64_t ball_y = 0;
    std::int64_t paddle_x = 0;
  };
  Board board_;
  State state_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Catch",
    .options =
        {
            {"rows", std::int64_t{10}, "board rows (bsuite's name; EnvPool calls it height)"},
            {"columns", std::int64_t{5}, "board columns (bsuite's name; EnvPool calls it width)"},
            {"height", std::int64_t{0}, "EnvPool's name for rows (0: use rows)"},
            {"width", std::int64_t{0}, "EnvPool's name for columns (0: use columns)"},
        },
    .spec =
        [](const Config& config) {
          const Board b = board_of(config);
          return EnvSpec{
              .obs = {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {b.rows, b.columns}, .low = {0.0},
                                .high = {1.0}}},
              .action = discrete("action", 3),
              .info = {},
              // Boards too large for a frame (over 16384 cells a side) have no picture.
              .render_width = std::max(b.rows, b.columns) <= 16384 ? static_cast<int>(b.columns) * b.cell() : 0,
              .render_height = std::max(b.rows, b.columns) <= 16384 ? static_cast<int>(b.rows) * b.cell() : 0,
          };
        },
    .create = make_env<Catch>(),
});

}  // namespace rlpool::toy_text

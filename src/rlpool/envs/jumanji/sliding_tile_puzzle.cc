// Jumanji's SlidingTilePuzzle (jumanji 1.1.2, SlidingTilePuzzle-v0) in C++:
// a grid_size x grid_size board of tiles 1..n*n-1 and an empty square (0),
// shuffled by a random walk; each step moves the empty square. Follows
// jumanji/environments/logic/sliding_tile_puzzle/:
// - env.py SlidingTilePuzzle.reset (l.104-116): key, subkey = split(key);
//   generator.py RandomWalkGenerator.__call__ (l.78-105) from subkey:
//   key, moves_key = split(subkey); num_random_moves keys =
//   split(moves_key, num_random_moves); from the solved board (empty square
//   bottom right), each key draws a legal move, _make_random_move (l.107-122):
//   jax.random.choice(k, MOVES, p=legal as float32), and swaps; the State
//   keeps `key` and step_count 0.
// - env.py step (l.118-153) and _move_empty_tile (l.155-181): a move off the
//   board changes nothing, else the empty square and the tile there swap;
//   reward.py DenseRewardFn (tiles newly in place less tiles newly out of
//   place); the episode terminates when the board is solved or when
//   step_count reaches time_limit (jumanji's termination, not a truncation).
// - env.py _get_valid_actions (l.183-192) and _get_extras (l.194-196): the
//   mask of moves that stay on the board and the extras entry
//   prop_correctly_placed (tiles in place / n*n, float32, as XLA divides by
//   a constant: times its reciprocal).
// - constants.py MOVES: up, right, down, left (the actions 0..3).
// - render: viewer.py SlidingTilePuzzleViewer.draw_puzzle (l.109-135) as
//   flat colours: tiles on black lines, tile v coloured by the viewer's
//   white-to-blue map over 0..n*n-1 (red = green = 255 - min(255,
//   floor(256 v / (n*n - 1))), blue 255), each tile's number in black, the
//   empty square #ccc0b3.
//
// State bytes (after the env's key): puzzle (n*n int32),
// empty_tile_position (2 int32), the State's key (two uint32), step_count
// (int32), in jumanji's State order.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr std::array<std::array<int, 2>, 4> kMoves = {{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};
constexpr std::int64_t kMaxGrid = 64;

// The picture: cell_size pixels a square, the board at most 480 pixels a side where squares of 2 pixels
// allow it (the smallest square: a larger board draws larger).
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kEmpty{0xcc, 0xc0, 0xb3};

int cell_size(std::int64_t g) { return static_cast<int>(std::clamp<std::int64_t>(480 / g, 2, 96)); }

EnvSpec sliding_spec(const Config& config);

class SlidingTilePuzzle final : public JumanjiEnv {
 public:
  explicit SlidingTilePuzzle(const Config& config)
      : g_(static_cast<int>(config.get_int("grid_size"))),
        num_random_moves_(static_cast<std::size_t>(config.get_int("num_random_moves"))),
        time_limit_(static_cast<std::int32_t>(config.get_int("time_limit"))),
        prop_info_(info_index(sliding_spec(config).info, "prop_correctly_placed")),
        solved_(static_cast<std::size_t>(g_ * g_)),
        puzzle_(solved_.size()) {
    for (std::size_t i = 0; i + 1 < solved_.size(); ++i) solved_[i] = static_cast<std::int32_t>(i + 1);
    solved_.back() = 0;
  }

 protected:
  void new_episode(Key key) override {
    const Key subkey = jax_random::split2(key).second;
    auto [next, moves_key] = jax_random::split2(subkey);
    state_key_ = next;
    std::vector<Key> keys(num_random_moves_);
    jax_random::split(moves_key, keys.data(), keys.size());
    puzzle_ = solved_;
    row_ = g_ - 1;
    col_ = g_ - 1;
    for (const Key k : keys) {
      std::array<float, 4> p{};
      for (std::size_t m = 0; m < kMoves.size(); ++m) {
        p[m] = on_board(row_ + kMoves[m][0], col_ + kMoves[m][1]) ? 1.0f : 0.0f;
      }
      std::int32_t move = 0;
      jax_random::choice_p(k, &move, 1, p.data(), p.size());
      const int r = row_ + kMoves[static_cast<std::size_t>(move)][0];
      const int c = col_ + kMoves[static_cast<std::size_t>(move)][1];
      std::swap(puzzle_[at(row_, col_)], puzzle_[at(r, c)]);
      row_ = r;
      col_ = c;
    }
    step_count_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto& move = kMoves[static_cast<std::size_t>(action.discrete(0))];
    const std::vector<std::int32_t> before = puzzle_;
    const int r = row_ + move[0];
    const int c = col_ + move[1];
    if (on_board(r, c)) {
      puzzle_[at(row_, col_)] = puzzle_[at(r, c)];
      puzzle_[at(r, c)] = 0;
      row_ = r;
      col_ = c;
    }
    step_count_ += 1;
    int newly_right = 0;
    int newly_wrong = 0;
    for (std::size_t i = 0; i < puzzle_.size(); ++i) {
      const bool was = before[i] == solved_[i];
      const bool is = puzzle_[i] == solved_[i];
      newly_right += static_cast<int>(is && !was);
      newly_wrong += static_cast<int>(!is && was);
    }
    rewards[0] = static_cast<double>(newly_right - newly_wrong);
    return Outcome{.terminated = puzzle_ == solved_ || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    std::copy(puzzle_.begin(), puzzle_.end(), out.obs_as<std::int32_t>(0));
    std::int32_t* position = out.obs_as<std::int32_t>(1);
    position[0] = row_;
    position[1] = col_;
    bool* mask = out.obs_as<bool>(2);
    for (std::size_t m = 0; m < kMoves.size(); ++m) mask[m] = on_board(row_ + kMoves[m][0], col_ + kMoves[m][1]);
    *out.obs_as<std::int32_t>(3) = step_count_;
    std::size_t in_place = 0;
    for (std::size_t i = 0; i < puzzle_.size(); ++i) in_place += puzzle_[i] == solved_[i] ? 1 : 0;
    // in_place / n*n as XLA computes it: times the float32 reciprocal of the constant.
    const float scale = 1.0f / static_cast<float>(puzzle_.size());
    *out.info_as<float>(prop_info_) = static_cast<float>(in_place) * scale;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, puzzle_);
    append(bytes, row_);
    append(bytes, col_);
    append_key(bytes, state_key_);
    append(bytes, step_count_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "SlidingTilePuzzle");
    std::vector<std::int32_t> puzzle = read_values<std::int32_t>(reader, puzzle_.size(), "puzzle");
    const auto row = reader.read<std::int32_t>("empty_tile_position");
    const auto col = reader.read<std::int32_t>("empty_tile_position");
    const Key key = read_key(reader);
    const auto step_count = reader.read<std::int32_t>("step_count");
    reader.done();
    check_all(puzzle, 0, g_ * g_ - 1, "puzzle tile");
    check_range(row, 0, g_ - 1, "empty_tile_position row");
    check_range(col, 0, g_ - 1, "empty_tile_position column");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    puzzle_ = std::move(puzzle);
    row_ = row;
    col_ = col;
    state_key_ = key;
    step_count_ = step_count;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board grid(frame, g_, g_);
    const long top = static_cast<long>(g_) * g_ - 1;
    canvas.fill(kBlack);
    for (int r = 0; r < g_; ++r) {
      for (int c = 0; c < g_; ++c) {
        const long v = puzzle_[static_cast<std::size_t>(r * g_ + c)];
        const auto shade = static_cast<std::uint8_t>(255 - std::min(255L, 256 * v / top));
        grid.paint(canvas, r, c, v == 0 ? kEmpty : Rgb{shade, shade, 255}, grid.cell >= 8 ? 1 : 0);
        if (v != 0) canvas.number(grid.cx(c), grid.cy(r), v, number_scale(grid.cell, v), kBlack);
      }
    }
  }

  bool on_board(int r, int c) const { return r >= 0 && r < g_ && c >= 0 && c < g_; }
  std::size_t at(int r, int c) const { return static_cast<std::size_t>(r * g_ + c); }

  int g_;
  std::size_t num_random_moves_;
  std::int32_t time_limit_;
  std::size_t prop_info_;
  std::vector<std::int32_t> solved_;
  std::vector<std::int32_t> puzzle_;
  std::int32_t row_ = 0;  // empty_tile_position
  std::int32_t col_ = 0;
  Key state_key_{};
  std::int32_t step_count_ = 0;
};

EnvSpec sliding_spec(const Config& config) {
  const std::int64_t g = config.get_int_in("grid_size", 2, kMaxGrid);
  config.get_int_in("num_random_moves", 0, 1'000'000);
  const std::int64_t time_limit = config.get_int_in("time_limit", 1, std::numeric_limits<std::int32_t>::max() - 1);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "puzzle",
                        .dtype = DType::kInt32,
                        .shape = {g, g},
                        .low = {0},
                        .high = {static_cast<double>(g * g - 1)}},
              ArraySpec{.name = "empty_tile_position",
                        .dtype = DType::kInt32,
                        .shape = {2},
                        .low = {0},
                        .high = {static_cast<double>(g - 1)}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {4}, .low = {0}, .high = {1}},
              ArraySpec{.name = "step_count",
                        .dtype = DType::kInt32,
                        .shape = {},
                        .low = {0},
                        .high = {static_cast<double>(time_limit)}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {3}},
      .info = {ArraySpec{.name = "prop_correctly_placed", .dtype = DType::kFloat32}},
      .render_width = static_cast<int>(g) * cell_size(g),
      .render_height = static_cast<int>(g) * cell_size(g),
      .render_fps = 5,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiSlidingTilePuzzle",
    .options =
        {
            {"grid_size", std::int64_t{5}, "The board's side (the default generator's grid_size), 2..64."},
            {"num_random_moves", std::int64_t{200},
             "The random walk's moves from the solved board (the default generator's num_random_moves)."},
            {"time_limit", std::int64_t{500},
             "The step count at which jumanji's episode terminates (the env's time_limit)."},
        },
    .spec = sliding_spec,
    .create = make_env<SlidingTilePuzzle>(),
});

}  // namespace rlpool::jumanji

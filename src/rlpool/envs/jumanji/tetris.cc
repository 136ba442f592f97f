// Jumanji's Tetris (jumanji 1.1.2, Tetris-v0) in C++: tetrominoes are
// dropped into a num_rows x num_cols grid, one per step, at a chosen rotation
// and column; full lines are cleared. Follows
// jumanji/environments/packing/tetris/:
// - env.py Tetris.reset (l.123-162): the grid (padded with 3 rows below and
//   3 columns to the right) empty; the tetromino is randint(key, (), 0, 7)
//   (utils.sample_tetromino_list, l.23-41) at rotation 0; the State's key is
//   the reset key itself.
// - env.py Tetris.step (l.164-231): key, sample_key = split(key); the
//   rotated tetromino is placed (utils.place_tetromino, l.106-158), full lines
//   (over the padded rows, the first num_cols columns) are cleared
//   (utils.clean_lines, l.161-195: the other rows keep their order below
//   zeroed rows), the next tetromino is drawn from sample_key and the mask is
//   computed from the grid clipped to 1; the reward is REWARD_LIST[lines]
//   (0, 40, 100, 300, 1200, float32) times whether the State's action_mask
//   allowed the action; the episode ends (a termination) when no action is
//   legal, the action was not, or step_count >= time_limit. An action the
//   mask refuses is still played. The step's observation has step_count 0
//   (jumanji builds it with jnp.array(0)), as has reset's.
// - utils.tetromino_action_mask (l.64-103) and check_valid_tetromino_placement
//   (l.44-61), per rotation (env.py _calculate_action_mask, l.311-331).
// - place_tetromino: y_position = argmin(possible_positions) - 1, which is
//   -1 when every row is possible (or none is); lax.dynamic_update_slice
//   counts a negative start from the end and clamps it so that the 4 x 4
//   block fits, which lands such a tetromino on the bottom rows. The piece is
//   written with colour max(grid) + 1 and combined with jnp.maximum.
// - constants.py TETROMINOES_LIST (the 7 tetrominoes, 4 rotations each, as
//   4 x 4 cells; written here as 16-bit masks, bit r * 4 + c) and
//   observation_spec (l.241-277).
// - render: viewer.py TetrisViewer.__init__ (l.30-53), _create_rendering_grid
//   (l.126-142) and _get_cell_attributes (l.251-257) as flat colours: four
//   rows on light grey (230) lines above the grid show the current
//   tetromino (rotation 0) in the last four columns; the grid below, on black
//   lines, is white where empty and else coloured by the piece's number v:
//   entry v mod 10 of matplotlib's "hsv" map in 11 colours, as the viewer
//   samples it (jumanji_colormap.h), the tetromino above in the colour of max(grid) + 1.
//   The score in the viewer's title is not drawn: the State here does not
//   keep it.
//
// State bytes (after the env's key): grid_padded ((num_rows + 3) x
// (num_cols + 3) int32: 0 empty, else the colour of the piece that filled
// it), tetromino_index (int32), action_mask (4 x num_cols uint8, 0/1),
// step_count (int32), the State's key (two uint32). The State's other fields
// (grid_padded_old, old_tetromino_rotated, new_tetromino, x_position,
// y_position, full_lines, score, reward, is_reset) are what the last step did,
// for rendering; no step reads them, so they are not kept.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kRotations = 4;
constexpr int kPieces = 7;
constexpr int kPad = 3;
// TETROMINOES_LIST: cell (r, c) of a 4 x 4 piece is bit r * 4 + c.
constexpr std::uint16_t kTetrominoes[kPieces][kRotations] = {
    {0x1111, 0x000F, 0x1111, 0x000F}, {0x0036, 0x0231, 0x0036, 0x0231}, {0x0063, 0x0132, 0x0063, 0x0132},
    {0x0033, 0x0033, 0x0033, 0x0033}, {0x0027, 0x0232, 0x0072, 0x0131}, {0x0311, 0x0017, 0x0223, 0x0074},
    {0x0322, 0x0071, 0x0113, 0x0047},
};
constexpr std::array<float, 5> kRewards = {0.0f, 40.0f, 100.0f, 300.0f, 1200.0f};
// Grid colours a loaded state may hold: each step adds at most 1 to the
// largest, which stays inside int32 for any time_limit allowed.
constexpr std::int64_t kMaxColour = 1'000'000'000;
constexpr std::int64_t kMaxTimeLimit = 1'000'000'000;

// The picture: cell_size pixels a square, the board at most 480 pixels a side where squares of 2 pixels
// allow it (the smallest square: a larger board draws larger).
constexpr int kPreviewRows = 4;
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kLightGrey{230, 230, 230};

int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / std::max(rows + kPreviewRows, cols), 2, 32));
}

// A piece number's colour (0: empty).
// The viewer's colours: white, then get_cmap("hsv", 11) at 0, 0.1, ..., 0.9 (its entries 0..9).
Rgb piece_colour(std::int64_t v) { return v == 0 ? kWhite : hsv_entry(11, static_cast<int>(v % 10)); }

bool cell(std::uint16_t piece, int r, int c) { return ((piece >> (r * 4 + c)) & 1u) != 0; }
std::uint16_t row_bits(std::uint16_t piece, int r) { return static_cast<std::uint16_t>((piece >> (r * 4)) & 0xFu); }
bool column_used(std::uint16_t piece, int c) { return (piece & (0x1111u << c)) != 0; }

class Tetris final : public JumanjiEnv {
 public:
  explicit Tetris(const Config& config)
      : rows_(static_cast<int>(config.get_int("num_rows"))),
        cols_(static_cast<int>(config.get_int("num_cols"))),
        prow_(rows_ + kPad),
        pcol_(cols_ + kPad),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        grid_(static_cast<std::size_t>(prow_ * pcol_), 0),
        scratch_(grid_.size(), 0),
        action_mask_(static_cast<std::size_t>(kRotations * cols_), 0),
        possible_(static_cast<std::size_t>(rows_), 0) {}

 protected:
  void new_episode(Key key) override {
    std::fill(grid_.begin(), grid_.end(), 0);
    state_key_ = key;
    piece_ = jax_random::randint1(key, 0, kPieces);
    step_count_ = 0;
    update_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto rotation = static_cast<int>(action.discrete(0));
    const auto x = static_cast<int>(action.discrete(1));
    const auto [next, sample_key] = jax_random::split2(state_key_);
    state_key_ = next;
    place(kTetrominoes[piece_][rotation], x);
    const int lines = clean_lines();
    piece_ = jax_random::randint1(sample_key, 0, kPieces);
    const bool is_valid = action_mask_[static_cast<std::size_t>(rotation * cols_ + x)] != 0;
    update_action_mask();
    ++step_count_;
    rewards[0] = is_valid ? kRewards[static_cast<std::size_t>(std::min(lines, 4))] : 0.0f;
    const bool none_legal = std::none_of(action_mask_.begin(), action_mask_.end(), [](auto m) { return m != 0; });
    return {.terminated = none_legal || !is_valid || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    auto* grid = out.obs_as<std::int32_t>(0);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) grid[r * cols_ + c] = std::min(at(r, c), 1);
    }
    auto* tetromino = out.obs_as<std::int32_t>(1);
    for (int i = 0; i < 16; ++i) tetromino[i] = cell(kTetrominoes[piece_][0], i / 4, i % 4) ? 1 : 0;
    bool* mask = out.obs_as<bool>(2);
    for (std::size_t i = 0; i < action_mask_.size(); ++i) mask[i] = action_mask_[i] != 0;
    *out.obs_as<std::int32_t>(3) = 0;  // jumanji's observations carry step_count 0
  }

  std::string save() const override {
    std::string bytes;
    append(bytes, grid_.data(), grid_.size() * sizeof(std::int32_t));
    append(bytes, piece_);
    append(bytes, action_mask_.data(), action_mask_.size());
    append(bytes, step_count_);
    append(bytes, state_key_.hi);
    append(bytes, state_key_.lo);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Tetris");
    std::vector<std::int32_t> grid(grid_.size());
    reader.read(grid.data(), grid.size() * sizeof(std::int32_t), "grid_padded");
    const auto piece = reader.read<std::int32_t>("tetromino_index");
    std::vector<std::uint8_t> mask(action_mask_.size());
    reader.read(mask.data(), mask.size(), "action_mask");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const auto key_hi = reader.read<std::uint32_t>("key");
    const auto key_lo = reader.read<std::uint32_t>("key");
    reader.done();
    for (std::int32_t v : grid) check_range(v, 0, kMaxColour, "grid_padded");
    check_range(piece, 0, kPieces - 1, "tetromino_index");
    for (std::uint8_t m : mask) check_range(m, 0, 1, "action_mask");
    check_range(step_count, 0, time_limit_, "step_count");
    grid_ = std::move(grid);
    piece_ = piece;
    action_mask_ = std::move(mask);
    step_count_ = step_count;
    state_key_ = Key{key_hi, key_lo};
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, rows_ + kPreviewRows, cols_);
    const int gap = board.cell >= 8 ? 1 : 0;
    canvas.rect(0, 0, cols_ * board.cell, kPreviewRows * board.cell, kLightGrey);
    canvas.rect(0, kPreviewRows * board.cell, cols_ * board.cell, canvas.height(), kBlack);
    const std::int64_t next_colour = std::int64_t{*std::max_element(grid_.begin(), grid_.end())} + 1;
    for (int r = 0; r < kPreviewRows; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const int pc = c - (cols_ - 4);
        const bool filled = pc >= 0 && cell(kTetrominoes[piece_][0], r, pc);
        board.paint(canvas, r, c, filled ? piece_colour(next_colour) : kWhite, gap);
      }
    }
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) board.paint(canvas, kPreviewRows + r, c, piece_colour(at(r, c)), gap);
    }
  }

  std::int32_t at(int r, int c) const { return grid_[static_cast<std::size_t>(r * pcol_ + c)]; }

  // check_valid_tetromino_placement on the grid clipped to 1: no cell of
  // `piece` (4-bit rows) at (y, x) meets a filled one.
  bool fits(const std::array<std::uint16_t, 4>& piece_rows, int y, int x) const {
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        if (std::min(at(y + r, x + c), 1) + ((piece_rows[static_cast<std::size_t>(r)] >> c) & 1) >= 2) return false;
      }
    }
    return true;
  }

  // tetromino_action_mask for each rotation of the current piece.
  void update_action_mask() {
    for (int rot = 0; rot < kRotations; ++rot) {
      const std::uint16_t piece = kTetrominoes[piece_][rot];
      // The top three rows filled downwards, so that an overhang cannot hide a blocked top.
      const auto t = [&](int r) { return row_bits(piece, r); };
      const std::array<std::uint16_t, 4> filled = {static_cast<std::uint16_t>(t(0) | t(1) | t(2)),
                                                   static_cast<std::uint16_t>(t(1) | t(2)), t(2), t(3)};
      std::uint8_t* row = &action_mask_[static_cast<std::size_t>(rot * cols_)];
      for (int x = 0; x < cols_; ++x) row[x] = fits(filled, 0, x) ? 1 : 0;
      // The last three columns: only a piece whose far columns are empty there.
      for (int k = 1; k <= 3; ++k) {
        if (column_used(piece, k)) row[cols_ - k] = 0;
      }
    }
  }

  // place_tetromino: the lowest row above the first one the piece cannot
  // take, the piece written there in a new colour.
  void place(std::uint16_t piece, int x) {
    const std::array<std::uint16_t, 4> rows = {row_bits(piece, 0), row_bits(piece, 1), row_bits(piece, 2),
                                               row_bits(piece, 3)};
    for (int y = 0; y < rows_; ++y) possible_[static_cast<std::size_t>(y)] = fits(rows, y, x) ? 1 : 0;
    for (int k = 1; k <= 3; ++k) {
      if (rows[static_cast<std::size_t>(k)] != 0) possible_[static_cast<std::size_t>(rows_ - k)] = 0;
    }
    const auto first_blocked = std::find(possible_.begin(), possible_.end(), std::uint8_t{0});
    const int argmin = first_blocked == possible_.end() ? 0 : static_cast<int>(first_blocked - possible_.begin());
    int y = argmin - 1;
    if (y < 0) y += prow_;  // dynamic_update_slice: a negative start counts from the end ...
    y = std::clamp(y, 0, prow_ - 4);  // ... and the block is moved to fit
    const int xs = std::clamp(x, 0, pcol_ - 4);
    const std::int32_t colour = *std::max_element(grid_.begin(), grid_.end()) + 1;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        if (cell(piece, r, c)) grid_[static_cast<std::size_t>((y + r) * pcol_ + xs + c)] = colour;
      }
    }
  }

  // The full lines (every one of the first num_cols cells filled) removed,
  // zero rows on top; how many there were.
  int clean_lines() {
    std::fill(scratch_.begin(), scratch_.end(), 0);
    int full = 0;
    for (int r = 0; r < prow_; ++r) {
      bool is_full = true;
      for (int c = 0; c < cols_ && is_full; ++c) is_full = at(r, c) != 0;
      full += is_full ? 1 : 0;
    }
    int out = full;
    for (int r = 0; r < prow_; ++r) {
      bool is_full = true;
      for (int c = 0; c < cols_ && is_full; ++c) is_full = at(r, c) != 0;
      if (is_full) continue;
      std::copy_n(grid_.begin() + static_cast<std::ptrdiff_t>(r * pcol_), pcol_,
                  scratch_.begin() + static_cast<std::ptrdiff_t>(out * pcol_));
      ++out;
    }
    grid_.swap(scratch_);
    return full;
  }

  int rows_;
  int cols_;
  int prow_;  // rows with the padding
  int pcol_;  // columns with the padding
  int time_limit_;
  std::vector<std::int32_t> grid_;
  std::vector<std::int32_t> scratch_;
  std::vector<std::uint8_t> action_mask_;  // 4 x num_cols, 0/1
  std::vector<std::uint8_t> possible_;     // scratch: place's possible rows
  std::int32_t piece_ = 0;      // tetromino_index
  std::int32_t step_count_ = 0;
  Key state_key_{};
};

EnvSpec tetris_spec(const Config& config) {
  const auto rows = config.get_int_in("num_rows", 4, 256);
  const auto cols = config.get_int_in("num_cols", 4, 256);
  const auto time_limit = config.get_int_in("time_limit", 1, kMaxTimeLimit);
  return EnvSpec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kInt32, .shape = {rows, cols}, .low = {0.0}, .high = {1.0}},
              ArraySpec{.name = "tetromino", .dtype = DType::kInt32, .shape = {4, 4}, .low = {0.0}, .high = {1.0}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {kRotations, cols}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .low = {0.0},
                        .high = {static_cast<double>(time_limit - 1)}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action",
                          .dtype = DType::kInt64,
                          .shape = {2},
                          .low = {0.0, 0.0},
                          .high = {kRotations - 1.0, static_cast<double>(cols - 1)}},
      .render_width = static_cast<int>(cols) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows + kPreviewRows) * cell_size(rows, cols),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_tetris(const Config& config) {
  tetris_spec(config);  // checks the options
  return std::make_unique<Tetris>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiTetris",
    .options =
        {
            {"num_rows", std::int64_t{10}, "The grid's height (Tetris's num_rows), 4..256."},
            {"num_cols", std::int64_t{10}, "The grid's width (Tetris's num_cols), 4..256."},
            {"time_limit", std::int64_t{400},
             "Steps after which the episode ends (Tetris's time_limit; jumanji counts it a termination)."},
        },
    .spec = tetris_spec,
    .create = make_tetris,
});

}  // namespace rlpool::jumanji

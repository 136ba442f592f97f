// Jumanji's FlatPack (jumanji 1.1.2, FlatPack-v0) in C++: a grid cut into
// num_row_blocks x num_col_blocks interlocking pieces (3 x 3 each, sharing
// their edge rows and columns), which the agent puts back, one per step, at a
// chosen rotation and place. Follows jumanji/environments/packing/flat_pack/:
// - generator.py RandomFlatPackGenerator.__call__ (l.218-288) and its
//   helpers (l.65-216): the grid of ones; _fill_grid_columns and
//   _fill_grid_rows over the interlock indices (utils.get_significant_idxs:
//   the even indices but the first and last), which number the pieces;
//   _select_col_interlocks then _select_row_interlocks, each splitting the
//   carried key into 1 + (rows or cols) keys and setting every interlock
//   square to its left/upper neighbour where uniform(key_i) > 0.5, else to
//   its right/lower one; _extract_block for pieces 1..num_blocks (the piece
//   masked out of the grid, rolled so that its first non-zero row and column
//   come first, its top-left 3 x 3, rotated by randint(rot_key, (), 0, 4)
//   after key, rot_key = split(key)); then, from the key the extraction
//   started with (the scan's final key is dropped), key, shuffle_key =
//   split(key) and the pieces permuted (jax.random.permutation along axis
//   0); the State's key is that key. The reset's action_mask is the
//   generator's, all True.
// - utils.py rotate_block (l.40-58) and compute_grid_dim (l.21-27).
// - env.py FlatPack.step (l.160-219): the rotated piece expanded to the grid
//   at (row, col); the action is legal where the State's action_mask says
//   so, and only a legal one changes the grid (adding the piece's numbers)
//   and placed_blocks; _make_action_mask (l.452-511) with _is_legal_action
//   (l.344-371): a piece not placed yet whose squares meet no filled one;
//   _is_done (l.329-342): step_count >= num_blocks, a termination.
// - reward.py CellDenseReward (l.39-72): a legal action's non-zero squares
//   over num_rows * num_cols, in float32 (XLA multiplies by the reciprocal of
//   the constant: count * (1 / (rows * cols))).
// - observation_spec (l.260-307): grid, blocks, action_mask.
// - render: viewer.py FlatPackViewer.__init__ and _draw_grid_cell (l.30-50,
//   l.118-143) as flat colours: the grid's squares on black lines (row 0 on
//   top), white where empty, else piece v's colour -- entry v - 1 of
//   matplotlib's "hsv" map in num_blocks + 1 colours, as the viewer samples
//   it (jumanji_colormap.h), at
//   the viewer's alpha 0.7 over white: (7 c + 3 * 255 + 5) / 10 per channel --
//   with v written in #606060.
//
// State bytes (after the env's key): blocks (num_blocks x 3 x 3 int32), grid
// (num_rows x num_cols int32), action_mask (num_blocks x 4 x (num_rows - 2)
// x (num_cols - 2) uint8, 0/1), placed_blocks (num_blocks uint8, 0/1),
// step_count (int32), the State's key (two uint32). The State's num_blocks
// is the env's (num_row_blocks * num_col_blocks).
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
constexpr std::int64_t kMaxBlocksPerSide = 16;
// Grid numbers a loaded state may hold: each step adds at most num_blocks.
constexpr std::int64_t kMaxGridValue = 1'000'000'000;

using Block = std::array<std::int32_t, 9>;  // 3 x 3, row-major

// rotate_block: 0, 90, 180 or 270 degrees (jumanji's four branches).
Block rotate(const Block& b, int rotation) {
  Block out{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      int r = i, c = j;
      switch (rotation) {
        case 1: r = 2 - j; c = i; break;  // flip(transpose, axis=1)
        case 2: r = 2 - i; c = 2 - j; break;
        case 3: r = j; c = 2 - i; break;  // flip(transpose, axis=0)
        default: break;
      }
      out[static_cast<std::size_t>(i * 3 + j)] = b[static_cast<std::size_t>(r * 3 + c)];
    }
  }
  return out;
}

int grid_dim(int blocks) { return 2 * blocks + 1; }  // compute_grid_dim: 3n - (n - 1)

// The picture: cell_size pixels a square, the board at most 480 pixels a side where squares of 2 pixels
// allow it (the smallest square: a larger board draws larger).
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kText{0x60, 0x60, 0x60};

int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(480 / std::max(rows, cols), 2, 40));
}

// Entry k of get_cmap("hsv", n + 1) (the viewer's colour of block k + 1 of n) at alpha 0.7 over white.
Rgb pale_hue(int k, int n) {
  const Rgb c = hsv_entry(n + 1, k);
  const auto pale = [](int v) { return static_cast<std::uint8_t>((7 * v + 3 * 255 + 5) / 10); };
  return {pale(c.r), pale(c.g), pale(c.b)};
}

class FlatPack final : public JumanjiEnv {
 public:
  explicit FlatPack(const Config& config)
      : row_blocks_(static_cast<int>(config.get_int("num_row_blocks"))),
        col_blocks_(static_cast<int>(config.get_int("num_col_blocks"))),
        num_blocks_(row_blocks_ * col_blocks_),
        rows_(grid_dim(row_blocks_)),
        cols_(grid_dim(col_blocks_)),
        prows_(rows_ - 2),
        pcols_(cols_ - 2),
        blocks_(static_cast<std::size_t>(num_blocks_)),
        grid_(static_cast<std::size_t>(rows_ * cols_), 0),
        action_mask_(static_cast<std::size_t>(num_blocks_ * kRotations * prows_ * pcols_), 1),
        placed_(static_cast<std::size_t>(num_blocks_), 0),
        work_(grid_.size(), 0) {}

 protected:
  void new_episode(Key key) override {
    generate(key);
    std::fill(grid_.begin(), grid_.end(), 0);
    std::fill(action_mask_.begin(), action_mask_.end(), 1);
    std::fill(placed_.begin(), placed_.end(), 0);
    step_count_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto b = static_cast<int>(action.discrete(0));
    const auto rotation = static_cast<int>(action.discrete(1));
    const auto row = static_cast<int>(action.discrete(2));
    const auto col = static_cast<int>(action.discrete(3));
    const bool legal = action_mask_[mask_index(b, rotation, row, col)] != 0;
    float reward = 0.0f;
    if (legal) {
      const Block piece = rotate(blocks_[static_cast<std::size_t>(b)], rotation);
      int cells = 0;
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          const std::int32_t v = piece[static_cast<std::size_t>(i * 3 + j)];
          grid_[static_cast<std::size_t>((row + i) * cols_ + col + j)] += v;
          cells += v != 0 ? 1 : 0;
        }
      }
      placed_[static_cast<std::size_t>(b)] = 1;
      reward = static_cast<float>(cells) * (1.0f / static_cast<float>(rows_ * cols_));
    }
    update_action_mask();
    ++step_count_;
    rewards[0] = reward;
    return {.terminated = step_count_ >= num_blocks_};
  }

  void observe(const Output& out) const override {
    std::copy(grid_.begin(), grid_.end(), out.obs_as<std::int32_t>(0));
    auto* blocks = out.obs_as<std::int32_t>(1);
    for (const Block& b : blocks_) blocks = std::copy(b.begin(), b.end(), blocks);
    bool* mask = out.obs_as<bool>(2);
    for (std::size_t i = 0; i < action_mask_.size(); ++i) mask[i] = action_mask_[i] != 0;
  }

  void render(const Frame& frame) override { draw(frame); }

  std::string save() const override {
    std::string bytes;
    for (const Block& b : blocks_) append(bytes, b.data(), b.size() * sizeof(std::int32_t));
    append(bytes, grid_.data(), grid_.size() * sizeof(std::int32_t));
    append(bytes, action_mask_.data(), action_mask_.size());
    append(bytes, placed_.data(), placed_.size());
    append(bytes, step_count_);
    append(bytes, state_key_.hi);
    append(bytes, state_key_.lo);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "FlatPack");
    std::vector<Block> blocks(blocks_.size());
    for (Block& b : blocks) reader.read(b.data(), b.size() * sizeof(std::int32_t), "blocks");
    std::vector<std::int32_t> grid(grid_.size());
    reader.read(grid.data(), grid.size() * sizeof(std::int32_t), "grid");
    std::vector<std::uint8_t> mask(action_mask_.size());
    reader.read(mask.data(), mask.size(), "action_mask");
    std::vector<std::uint8_t> placed(placed_.size());
    reader.read(placed.data(), placed.size(), "placed_blocks");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const auto key_hi = reader.read<std::uint32_t>("key");
    const auto key_lo = reader.read<std::uint32_t>("key");
    reader.done();
    for (const Block& b : blocks) {
      for (std::int32_t v : b) check_range(v, 0, num_blocks_, "blocks");
    }
    for (std::int32_t v : grid) check_range(v, 0, kMaxGridValue, "grid");
    for (std::uint8_t m : mask) check_range(m, 0, 1, "action_mask");
    for (std::uint8_t p : placed) check_range(p, 0, 1, "placed_blocks");
    check_range(step_count, 0, num_blocks_, "step_count");
    blocks_ = std::move(blocks);
    grid_ = std::move(grid);
    action_mask_ = std::move(mask);
    placed_ = std::move(placed);
    step_count_ = step_count;
    state_key_ = Key{key_hi, key_lo};
  }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, rows_, cols_);
    canvas.fill(kBlack);
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const std::int32_t v = grid_[static_cast<std::size_t>(r * cols_ + c)];
        board.paint(canvas, r, c, v == 0 ? kWhite : pale_hue((v - 1) % num_blocks_, num_blocks_), 1);
        if (v != 0) canvas.number(board.cx(c), board.cy(r), v, number_scale(board.cell, v), kText);
      }
    }
  }
  std::size_t mask_index(int b, int rotation, int row, int col) const {
    return static_cast<std::size_t>(((b * kRotations + rotation) * prows_ + row) * pcols_ + col);
  }
  std::int32_t& work(int r, int c) { return work_[static_cast<std::size_t>(r * cols_ + c)]; }

  // get_significant_idxs: the even indices of a grid side but its first and last.
  static std::vector<int> interlocks(int dim) {
    std::vector<int> out;
    for (int i = 2; i < dim - 1; i += 2) out.push_back(i);
    return out;
  }

  // RandomFlatPackGenerator.__call__: blocks_ and state_key_ from `key`.
  void generate(Key key) {
    const std::vector<int> row_locks = interlocks(rows_);
    const std::vector<int> col_locks = interlocks(cols_);
    std::fill(work_.begin(), work_.end(), 1);
    std::int32_t fill = 1;
    for (int c : col_locks) {  // _fill_grid_columns
      ++fill;
      for (int r = 0; r < rows_; ++r) {
        for (int k = 0; k < 3; ++k) work(r, c + k) = fill;
      }
    }
    std::int32_t sum = col_blocks_;
    for (int r : row_locks) {  // _fill_grid_rows
      for (int k = 0; k < 3; ++k) {
        for (int c = 0; c < cols_; ++c) work(r + k, c) += sum;
      }
      sum += col_blocks_;
    }
    std::vector<Key> keys;
    for (int c : col_locks) {  // _select_col_interlocks
      keys = jax_random::split(key, static_cast<std::size_t>(rows_ + 1));
      key = keys[0];
      for (int r = 0; r < rows_; ++r) {
        const bool left = jax_random::uniform1(keys[static_cast<std::size_t>(r + 1)]) > 0.5f;
        work(r, c) = left ? work(r, c - 1) : work(r, c + 1);
      }
    }
    for (int r : row_locks) {  // _select_row_interlocks
      keys = jax_random::split(key, static_cast<std::size_t>(cols_ + 1));
      key = keys[0];
      for (int c = 0; c < cols_; ++c) {
        const bool above = jax_random::uniform1(keys[static_cast<std::size_t>(c + 1)]) > 0.5f;
        work(r, c) = above ? work(r - 1, c) : work(r + 1, c);
      }
    }
    Key extract_key = key;  // the scan's carry: its last key is dropped
    for (int n = 1; n <= num_blocks_; ++n) {  // _extract_block
      // _crop_nonzero: the first row and column holding the piece (1000 where none does).
      int row_roll = 1000, col_roll = 1000;
      for (int r = 0; r < rows_; ++r) {
        for (int c = 0; c < cols_; ++c) {
          if (work(r, c) == n) {
            row_roll = std::min(row_roll, r);
            col_roll = std::min(col_roll, c);
          }
        }
      }
      Block cropped{};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          const std::int32_t v = work((i + row_roll) % rows_, (j + col_roll) % cols_);
          cropped[static_cast<std::size_t>(i * 3 + j)] = v == n ? v : 0;
        }
      }
      const auto [next, rot_key] = jax_random::split2(extract_key);
      extract_key = next;
      blocks_[static_cast<std::size_t>(n - 1)] = rotate(cropped, jax_random::randint1(rot_key, 0, kRotations));
    }
    const auto [next, shuffle_key] = jax_random::split2(key);
    state_key_ = next;
    jax_random::shuffle_rows(shuffle_key, blocks_.data(), blocks_.size());
  }

  // _make_action_mask: every rotation and place of each piece not placed yet
  // where none of its squares meets a filled one.
  void update_action_mask() {
    for (int b = 0; b < num_blocks_; ++b) {
      for (int rot = 0; rot < kRotations; ++rot) {
        const Block piece = rotate(blocks_[static_cast<std::size_t>(b)], rot);
        for (int row = 0; row < prows_; ++row) {
          for (int col = 0; col < pcols_; ++col) {
            bool fits = placed_[static_cast<std::size_t>(b)] == 0;
            for (int k = 0; k < 9 && fits; ++k) {
              fits = piece[static_cast<std::size_t>(k)] == 0 ||
                     grid_[static_cast<std::size_t>((row + k / 3) * cols_ + col + k % 3)] <= 0;
            }
            action_mask_[mask_index(b, rot, row, col)] = fits ? 1 : 0;
          }
        }
      }
    }
  }

  int row_blocks_;
  int col_blocks_;
  int num_blocks_;
  int rows_;
  int cols_;
  int prows_;  // places per column: num_rows - 2
  int pcols_;  // places per row: num_cols - 2
  std::vector<Block> blocks_;
  std::vector<std::int32_t> grid_;
  std::vector<std::uint8_t> action_mask_;
  std::vector<std::uint8_t> placed_;
  std::vector<std::int32_t> work_;  // scratch: the generator's solved grid
  std::int32_t step_count_ = 0;
  Key state_key_{};
};

EnvSpec flat_pack_spec(const Config& config) {
  const auto row_blocks = config.get_int_in("num_row_blocks", 1, kMaxBlocksPerSide);
  const auto col_blocks = config.get_int_in("num_col_blocks", 1, kMaxBlocksPerSide);
  const std::int64_t blocks = row_blocks * col_blocks;
  const std::int64_t rows = 2 * row_blocks + 1;
  const std::int64_t cols = 2 * col_blocks + 1;
  const auto n = static_cast<double>(blocks);
  return EnvSpec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kInt32, .shape = {rows, cols}, .low = {0.0}, .high = {n}},
              ArraySpec{.name = "blocks", .dtype = DType::kInt32, .shape = {blocks, 3, 3}, .low = {0.0}, .high = {n}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {blocks, kRotations, rows - 2, cols - 2},
                        .low = {0.0}, .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action",
                          .dtype = DType::kInt64,
                          .shape = {4},
                          .low = {0.0, 0.0, 0.0, 0.0},
                          .high = {n - 1.0, kRotations - 1.0, static_cast<double>(rows - 3),
                                   static_cast<double>(cols - 3)}},
      .render_width = static_cast<int>(cols) * cell_size(rows, cols),
      .render_height = static_cast<int>(rows) * cell_size(rows, cols),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_flat_pack(const Config& config) {
  flat_pack_spec(config);  // checks the options
  return std::make_unique<FlatPack>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiFlatPack",
    .options =
        {
            {"num_row_blocks", std::int64_t{5},
             "Pieces per column (the default generator's num_row_blocks), 1..16; the grid has 2n + 1 rows."},
            {"num_col_blocks", std::int64_t{5},
             "Pieces per row (the default generator's num_col_blocks), 1..16; the grid has 2n + 1 columns."},
        },
    .spec = flat_pack_spec,
    .create = make_flat_pack,
});

}  // namespace rlpool::jumanji

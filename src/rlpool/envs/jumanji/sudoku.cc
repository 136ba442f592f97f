// Jumanji's Sudoku (jumanji 1.1.2, Sudoku-v0 and Sudoku-very-easy-v0) in
// C++: a 9 x 9 puzzle from jumanji's database; each step writes one digit.
// Follows jumanji/environments/logic/sudoku/:
// - generator.py DatabaseGenerator.__call__ (l.89-97): key, idx_key =
//   split(key); idx = randint(idx_key, (), 0, num_boards); the board is that
//   puzzle less 1 (-1 an empty square, 0..8 a digit); the State keeps `key`.
// - utils.py get_action_mask (l.66-end): digit d may go on square (r, c)
//   where the square is empty and no square of its row, column or 3x3 box
//   holds d.
// - env.py Sudoku.step (l.102-127): invalid = the State's action_mask is
//   false at the action; the digit is written whatever (utils.py
//   apply_action); the mask is recomputed; reward.py SparseRewardFn: 1 when
//   the new board is solved (utils.py is_puzzle_solved, l.26-43: every row,
//   column and box holds 0..8), else 0; the episode terminates on an invalid
//   action or when no action is left. There is no time limit of its own.
// - env.py observation_spec (l.129-156): board (int32, -1..9), action_mask.
// The databases are jumanji's sudoku/data files (data/__init__.py DATABASES):
// "mixed" (10000_mixed_puzzles.npy, env.py l.83-88, Sudoku-v0) and
// "very-easy" (1000_very_easy_puzzles.npy, jumanji/__init__.py l.60-74,
// Sudoku-very-easy-v0); the registration's prepare hook (sudoku_data.py)
// hands the env the file's path as the hidden option _database_file. The
// file is read here as numpy saved it: int8, shape (num_boards, 9, 9), 0 an
// empty square and 1..9 a digit; envs reading the same file share one copy.
//
// - render: viewer.py SudokuViewer._draw_board and _draw_figures (l.57-79,
//   l.131-160) as flat colours: white squares on black lines, thicker lines
//   round the 3 x 3 boxes, each filled square's digit (board + 1) in black.
//   The State keeps no record of which digits the puzzle gave, so, as in
//   jumanji's viewer, the given and the written digits look the same.
//
// State bytes (after the env's key): board (81 int32), action_mask (729
// bytes, 0 or 1), the State's key (two uint32), in jumanji's State order.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "_core/io/npy_file.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kWidth = 9;
constexpr int kSquares = kWidth * kWidth;
constexpr int kActions = kSquares * kWidth;

// The picture: 48 pixels a square; lines 2 pixels wide, 4 round the boxes.
constexpr int kCell = 48;
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};

// The puzzles of one database file: num_boards x 81 values 0..9.
struct Database {
  std::vector<std::int8_t> boards;
  std::int64_t num_boards = 0;
};

[[noreturn]] void bad_database(const std::string& path, const std::string& why) {
  throw std::invalid_argument("Sudoku's puzzle database " + path + " " + why +
                              " (expected jumanji 1.1.2's sudoku/data .npy file: int8, shape (num_boards, 9, 9))");
}

// The puzzles of a .npy file: int8, shape (n, 9, 9), values 0..9.
std::shared_ptr<const Database> read_database(const std::string& path) {
  NpyBytes npy = read_npy(path, {"|i1", "<i1", ">i1", "i1"}, bad_database);
  if (npy.shape.size() != 3 || npy.shape[0] < 1 || npy.shape[1] != kWidth || npy.shape[2] != kWidth) {
    bad_database(path, "has shape " + shape_text(npy.shape));
  }
  auto db = std::make_shared<Database>();
  db->num_boards = npy.shape[0];
  db->boards.assign(npy.data.begin(), npy.data.end());
  for (const std::int8_t v : db->boards) {
    if (v < 0 || v > kWidth) bad_database(path, "holds the value " + std::to_string(v) + " (0..9 expected)");
  }
  return db;
}

// constants.py BOX_IDX: the box of a square (boxes numbered down the columns of boxes, as jumanji's).
constexpr int box_of(int row, int col) { return (col / 3) * 3 + row / 3; }

using Board = std::array<std::int32_t, kSquares>;
using Mask = std::array<bool, kActions>;

// utils.py get_action_mask.
void action_mask(const Board& board, Mask& mask) {
  std::array<bool, kWidth * kWidth> in_row{}, in_col{}, in_box{};
  for (int r = 0; r < kWidth; ++r) {
    for (int c = 0; c < kWidth; ++c) {
      const std::int32_t d = board[static_cast<std::size_t>(r * kWidth + c)];
      if (d < 0) continue;
      in_row[static_cast<std::size_t>(r * kWidth + d)] = true;
      in_col[static_cast<std::size_t>(c * kWidth + d)] = true;
      in_box[static_cast<std::size_t>(box_of(r, c) * kWidth + d)] = true;
    }
  }
  for (int r = 0; r < kWidth; ++r) {
    for (int c = 0; c < kWidth; ++c) {
      const bool empty = board[static_cast<std::size_t>(r * kWidth + c)] == -1;
      for (int d = 0; d < kWidth; ++d) {
        mask[static_cast<std::size_t>((r * kWidth + c) * kWidth + d)] =
            empty && !in_row[static_cast<std::size_t>(r * kWidth + d)] &&
            !in_col[static_cast<std::size_t>(c * kWidth + d)] &&
            !in_box[static_cast<std::size_t>(box_of(r, c) * kWidth + d)];
      }
    }
  }
}

// utils.py is_puzzle_solved: every row, column and box holds each of 0..8 once.
bool solved(const Board& board) {
  std::array<int, kWidth * kWidth> in_row{}, in_col{}, in_box{};
  for (int r = 0; r < kWidth; ++r) {
    for (int c = 0; c < kWidth; ++c) {
      const std::int32_t d = board[static_cast<std::size_t>(r * kWidth + c)];
      if (d < 0 || d >= kWidth) return false;
      ++in_row[static_cast<std::size_t>(r * kWidth + d)];
      ++in_col[static_cast<std::size_t>(c * kWidth + d)];
      ++in_box[static_cast<std::size_t>(box_of(r, c) * kWidth + d)];
    }
  }
  const auto once = [](const std::array<int, kWidth * kWidth>& counts) {
    return std::all_of(counts.begin(), counts.end(), [](int n) { return n == 1; });
  };
  return once(in_row) && once(in_col) && once(in_box);
}

const std::string& database_file(const Config& config) {
  const std::string& name = config.get_string("sudoku_database");
  if (name != "mixed" && name != "very-easy") {
    throw std::invalid_argument("option 'sudoku_database' must be \"mixed\" or \"very-easy\", got \"" + name + "\"");
  }
  const std::string& path = config.get_string("_database_file");
  if (path.empty()) {
    throw std::invalid_argument("JumanjiSudoku needs the path of its puzzle database (_database_file, which the "
                                "registration of Sudoku-v0 and Sudoku-very-easy-v0 sets)");
  }
  return path;
}

class Sudoku final : public JumanjiEnv {
 public:
  explicit Sudoku(const Config& config) : db_(shared_copy(database_file(config), read_database)) {}

 protected:
  void new_episode(Key key) override {
    auto [next, idx_key] = jax_random::split2(key);
    state_key_ = next;
    const std::int32_t idx = jax_random::randint1(idx_key, 0, db_->num_boards);
    const std::int8_t* puzzle = db_->boards.data() + static_cast<std::ptrdiff_t>(idx) * kSquares;
    for (int i = 0; i < kSquares; ++i) board_[static_cast<std::size_t>(i)] = std::int32_t{puzzle[i]} - 1;
    action_mask(board_, mask_);
  }

  Outcome play(const Action& action, double* rewards) override {
    const int row = static_cast<int>(action.discrete(0));
    const int col = static_cast<int>(action.discrete(1));
    const int digit = static_cast<int>(action.discrete(2));
    const bool invalid = !mask_[static_cast<std::size_t>((row * kWidth + col) * kWidth + digit)];
    board_[static_cast<std::size_t>(row * kWidth + col)] = digit;
    action_mask(board_, mask_);
    const bool none_left = std::none_of(mask_.begin(), mask_.end(), [](bool m) { return m; });
    rewards[0] = solved(board_) ? 1.0 : 0.0;
    return Outcome{.terminated = invalid || none_left};
  }

  void observe(const Output& out) const override {
    std::copy(board_.begin(), board_.end(), out.obs_as<std::int32_t>(0));
    std::copy(mask_.begin(), mask_.end(), out.obs_as<bool>(1));
  }

  std::string save() const override {
    std::string bytes;
    append(bytes, board_.data(), sizeof(board_));
    for (const bool m : mask_) append(bytes, static_cast<std::uint8_t>(m));
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Sudoku");
    Board board{};
    reader.read(board.data(), sizeof(board), "board");
    std::array<std::uint8_t, kActions> mask_bytes{};
    reader.read(mask_bytes.data(), mask_bytes.size(), "action_mask");
    const Key key = read_key(reader);
    reader.done();
    check_all(board, -1, kWidth - 1, "board square");
    check_all(mask_bytes, 0, 1, "action_mask entry");
    board_ = board;
    std::copy(mask_bytes.begin(), mask_bytes.end(), mask_.begin());
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const jumanji::Board grid(frame, kWidth, kWidth);
    canvas.fill(kBlack);
    for (int r = 0; r < kWidth; ++r) {
      for (int c = 0; c < kWidth; ++c) {
        grid.paint(canvas, r, c, kWhite, 1);
        const std::int32_t digit = board_[static_cast<std::size_t>(r * kWidth + c)] + 1;
        if (digit > 0) canvas.number(grid.cx(c), grid.cy(r), digit, grid.cell / 10, kBlack);
      }
    }
    for (int k = 0; k <= kWidth; k += 3) {  // the boxes' lines
      const int at = k * grid.cell;
      canvas.rect(at - 2, 0, at + 2, kWidth * grid.cell, kBlack);
      canvas.rect(0, at - 2, kWidth * grid.cell, at + 2, kBlack);
    }
  }

  std::shared_ptr<const Database> db_;
  Board board_{};
  Mask mask_{};
  Key state_key_{};
};

EnvSpec sudoku_spec(const Config& config) {
  database_file(config);  // checks the options
  return EnvSpec{
      .obs =
          {
              ArraySpec{
                  .name = "board", .dtype = DType::kInt32, .shape = {kWidth, kWidth}, .low = {-1}, .high = {kWidth}},
              ArraySpec{.name = "action_mask",
                        .dtype = DType::kBool,
                        .shape = {kWidth, kWidth, kWidth},
                        .low = {0},
                        .high = {1}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action",
                          .dtype = DType::kInt64,
                          .shape = {3},
                          .low = {0, 0, 0},
                          .high = {kWidth - 1, kWidth - 1, kWidth - 1}},
      .render_width = kWidth * kCell,
      .render_height = kWidth * kCell,
      .render_fps = 5,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiSudoku",
    .options =
        {
            {"sudoku_database", std::string("mixed"),
             "jumanji's puzzle database: \"mixed\" (10,000 puzzles, Sudoku-v0) or \"very-easy\" (1,000 puzzles of "
             "46 clues or more, Sudoku-very-easy-v0)."},
            {"_database_file", std::string(), "The database's .npy file (set by the registration)."},
        },
    .spec = sudoku_spec,
    .create = make_env<Sudoku>(),
});

}  // namespace rlpool::jumanji

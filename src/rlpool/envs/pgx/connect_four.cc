// ConnectFour, as pgx 2.6.0 plays it (pgx/connect_four.py, pgx/_src/games/connect_four.py):
// a 6 x 7 board (row 0 at the top, cells r * 7 + c); the first player is drawn
// at random (pgx: jax.random.bernoulli(key); here rng.integer(2), the same
// fair coin) and plays color 0; action c drops a disc into column c, legal
// while the column has room. The game ends on four in a row (vertical,
// horizontal or either diagonal: pgx's IDX lines) or a full board: +1/-1 to
// the winner/loser, 0 each for a draw. The observation is 6 x 7 x 2 (the
// player's own discs, the opponent's).
//
// An illegal move (a full column): pgx's _step writes the disc at row
// 5 - 6 = -1, which JAX's indexing takes as the last row, so the mover's disc
// replaces the bottom one of that column; play_illegal does the same (the base
// then ends the game with the penalty).
//
// The board is two bitboards in pgx's cell order (bit r * 7 + c), so that a
// four is a few shifts and masks. The observation is kept as planes from each
// color's side and updated by the one or two cells a move changes: a move is a
// few ns, and spreading 42 cells from the bits twice per move cost more than
// the rest of it.
#include <array>
#include <cstdint>
#include <cstring>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kRows = 6;
constexpr int kCols = 7;
constexpr int kCells = kRows * kCols;
constexpr std::uint64_t kBoard = (std::uint64_t{1} << kCells) - 1;

// The cells where a line of four in direction `shift` (a step of `dr` rows and
// `dc` columns) starts and stays on the board.
constexpr std::uint64_t line_starts(int dr, int dc) {
  std::uint64_t m = 0;
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      const int r3 = r + 3 * dr;
      const int c3 = c + 3 * dc;
      if (r3 >= 0 && r3 < kRows && c3 >= 0 && c3 < kCols) m |= std::uint64_t{1} << (r * kCols + c);
    }
  }
  return m;
}

struct Direction {
  int shift;
  std::uint64_t starts;
};
constexpr std::array<Direction, 4> kDirections = {{
    {1, line_starts(0, 1)},  // horizontal
    {7, line_starts(1, 0)},  // vertical
    {8, line_starts(1, 1)},  // down-right
    {6, line_starts(1, -1)},  // down-left
}};

constexpr bool has_four(std::uint64_t b) {
  bool won = false;
  for (const auto& d : kDirections) {
    won = won || (b & (b >> d.shift) & (b >> (2 * d.shift)) & (b >> (3 * d.shift)) & d.starts) != 0;
  }
  return won;
}

constexpr std::uint64_t column_bits(int c) {
  std::uint64_t m = 0;
  for (int r = 0; r < kRows; ++r) m |= std::uint64_t{1} << (r * kCols + c);
  return m;
}

class ConnectFour final : public PgxEnv {
 public:
  explicit ConnectFour(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kCols, .obs_dtype = DType::kBool, .obs_shape = {kRows, kCols, 2}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    views_ = {};
    current_player_ = draw_first_player(rng);
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const int row = kRows - 1 - s_.height[action];
    ++s_.height[action];
    auto& mine = s_.stones[s_.color];
    mine |= std::uint64_t{1} << (row * kCols + action);
    set_cell(row * kCols + action, s_.color);
    const bool won = has_four(mine);
    s_.color = static_cast<std::int8_t>(1 - s_.color);
    current_player_ = 1 - current_player_;
    bool full = true;
    for (auto h : s_.height) full = full && h == kRows;
    terminated_ = won || full;
    if (won) set_winner(mover);
  }

  // A full column (see the header): the disc replaces the bottom one.
  void play_illegal(int action, Rng& /*rng*/) override {
    const std::uint64_t bit = std::uint64_t{1} << ((kRows - 1) * kCols + action);
    s_.stones[s_.color] |= bit;
    s_.stones[1 - s_.color] &= ~bit;
    set_cell((kRows - 1) * kCols + action, s_.color);
    s_.color = static_cast<std::int8_t>(1 - s_.color);
    current_player_ = 1 - current_player_;
  }

  void legal_actions(bool* mask) const override {
    for (int c = 0; c < kCols; ++c) mask[c] = s_.height[c] < kRows;
  }

  void observe(int player, void* dst) const override {
    std::memcpy(dst, views_[color_of(player, s_.color)].data(), sizeof(View));
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (int k = 0; k < 2; ++k) {
      if ((s.stones[k] & ~kBoard) != 0) throw std::invalid_argument("state's stones[" + std::to_string(k) + "] has bits off the board");
    }
    if ((s.stones[0] & s.stones[1]) != 0) throw std::invalid_argument("state's stones[0] and stones[1] share a cell");
    const std::uint64_t occupied = s.stones[0] | s.stones[1];
    for (int c = 0; c < kCols; ++c) {
      const int h = s.height[c];
      const std::uint64_t col = occupied & column_bits(c);
      // The discs of a column fill its bottom `h` rows.
      const std::uint64_t expected = h <= kRows ? column_bits(c) & ~((std::uint64_t{1} << ((kRows - h) * kCols)) - 1) : 0;
      if (h > kRows || col != expected) {
        throw std::invalid_argument("state's height[" + std::to_string(c) + "] is " + std::to_string(h) +
                                    ", which does not match the column's discs");
      }
    }
    if (s.color < 0 || s.color > 1) throw std::invalid_argument("state's color is " + std::to_string(s.color) + ", expected 0 or 1");
    s_ = s;
    for (int c = 0; c < 2; ++c) write_bitboard_planes(s_.stones[c], s_.stones[1 - c], kCells, views_[c].data());
  }

 private:
  struct State {
    std::array<std::uint64_t, 2> stones{};    // by color: bit r * 7 + c (row 0 at the top)
    std::array<std::uint8_t, kCols> height{};  // discs in each column
    std::int8_t color = 0;                     // the color to move: 0 (moves first) or 1
  };
  static_assert(sizeof(State) == 24);
  // The observation from color c's side: cell by cell, (c's disc, the other's).
  using View = std::array<std::uint8_t, 2 * kCells>;

  // The disc in `cell` is now `color`'s.
  void set_cell(int cell, int color) {
    views_[color][2 * cell] = 1;
    views_[color][2 * cell + 1] = 0;
    views_[1 - color][2 * cell] = 0;
    views_[1 - color][2 * cell + 1] = 1;
  }

  State s_;
  std::array<View, 2> views_{};  // by color, kept in step with s_.stones
};

const bool registered = register_game<ConnectFour>("ConnectFour");

}  // namespace

}  // namespace rlpool::pgx

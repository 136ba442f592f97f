// Hex, as pgx 2.6.0 plays it (pgx/hex.py, pgx/_src/games/hex.py) on its
// default 11 x 11 board (cells r * 11 + c): the first player is drawn at random
// (pgx: jax.random.bernoulli(key) picks _player_order; here rng.integer(2), the
// same fair coin) and plays color 0, which joins the top and bottom rows; color
// 1 joins the left and right columns. Actions 0..120 place a stone on an empty
// cell; action 121 is the swap, legal only on the second move: the first stone
// leaves its cell and becomes the swapper's stone on the mirrored cell (row and
// column exchanged). The colors to move alternate (the swap is a move), and so
// do the players. No pass, no draw: the mover that joins its two sides gets +1,
// the other -1. The observation is 11 x 11 x 4: the player's stones, the
// opponent's, the player's color (a constant plane), and whether the swap is
// legal (a constant plane).
//
// Neighbours follow pgx's _neighbour: (r, c-1), (r+1, c-1), (r-1, c), (r+1, c),
// (r-1, c+1), (r, c+1). pgx labels groups on the board; here a union-find over
// the cells (the saved state is the stones; load rebuilds the groups) keeps
// which sides each group touches.
//
// An illegal move: pgx's _step runs anyway, and play_illegal does the same --
// a placement on a stone makes it the mover's; a swap out of turn takes the
// first stone in cell order (cell 0 on an empty board) and puts a stone of the
// mover's on its mirrored cell.
#include <array>
#include <cstdint>
#include <cstring>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kSize = 11;
constexpr int kCells = kSize * kSize;
constexpr int kSwap = kCells;
constexpr int kMaxSteps = kCells + 2;  // every cell, the swap, and an illegal move

// The cells next to each cell (-1 off the board), in pgx's order.
constexpr std::array<std::array<int, 6>, kCells> make_neighbours() {
  std::array<std::array<int, 6>, kCells> n{};
  constexpr std::array<int, 6> dr = {0, 1, -1, 1, -1, 0};
  constexpr std::array<int, 6> dc = {-1, -1, 0, 0, 1, 1};
  for (int i = 0; i < kCells; ++i) {
    for (int k = 0; k < 6; ++k) {
      const int r = i / kSize + dr[k];
      const int c = i % kSize + dc[k];
      n[i][k] = (r >= 0 && r < kSize && c >= 0 && c < kSize) ? r * kSize + c : -1;
    }
  }
  return n;
}
constexpr auto kNeighbours = make_neighbours();

// The sides a stone of `color` on cell `i` touches: bit 0 the first, bit 1 the second.
constexpr std::uint8_t sides(int color, int i) {
  const int along = color == 0 ? i / kSize : i % kSize;  // color 0: rows, color 1: columns
  return static_cast<std::uint8_t>((along == 0 ? 1 : 0) | (along == kSize - 1 ? 2 : 0));
}

class Hex final : public PgxEnv {
 public:
  explicit Hex(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kCells + 1, .obs_dtype = DType::kBool, .obs_shape = {kSize, kSize, 4}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    rebuild();
    current_player_ = draw_first_player(rng);  // pgx: _player_order from jax.random.bernoulli(key)
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const int color = s_.step_count % 2;
    ++s_.step_count;
    current_player_ = 1 - current_player_;
    if (action == kSwap) {
      swap(color);
      return;
    }
    s_.cells[action] = static_cast<std::int8_t>(color);
    parent_[action] = static_cast<std::uint8_t>(action);
    std::uint8_t touched = sides(color, action);
    for (int n : kNeighbours[action]) {
      if (n < 0 || s_.cells[n] != color) continue;
      const int root = find(n);
      if (root == action) continue;
      parent_[root] = static_cast<std::uint8_t>(action);
      touched |= sides_[root];
    }
    sides_[action] = touched;
    if (touched == 3) {
      terminated_ = true;
      set_winner(mover);
    }
  }

  // pgx's _step on any action (see the header); the base then ends the game.
  void play_illegal(int action, Rng& /*rng*/) override {
    const int color = s_.step_count % 2;
    ++s_.step_count;
    current_player_ = 1 - current_player_;
    if (action == kSwap) {
      swap(color);
    } else {
      s_.cells[action] = static_cast<std::int8_t>(color);
      rebuild();
    }
  }

  void legal_actions(bool* mask) const override {
    for (int i = 0; i < kCells; ++i) mask[i] = s_.cells[i] < 0;
    mask[kSwap] = s_.step_count == 1;
  }

  void observe(int player, void* dst) const override {
    const int mine = color_of(player, s_.step_count % 2);
    const bool can_swap = s_.step_count == 1;
    // A cell's four planes by its content (empty, color 0, color 1), as bytes.
    std::array<std::array<unsigned char, 4>, 3> planes{};
    for (int content = -1; content <= 1; ++content) {
      planes[content + 1] = {static_cast<unsigned char>(content == mine), static_cast<unsigned char>(content == 1 - mine),
                             static_cast<unsigned char>(mine), static_cast<unsigned char>(can_swap)};
    }
    auto* out = static_cast<unsigned char*>(dst);
    for (int i = 0; i < kCells; ++i) std::memcpy(out + 4 * i, planes[s_.cells[i] + 1].data(), 4);
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (int i = 0; i < kCells; ++i) {
      if (s.cells[i] < -1 || s.cells[i] > 1) {
        throw std::invalid_argument("state's cells[" + std::to_string(i) + "] is " + std::to_string(s.cells[i]) +
                                    ", expected -1, 0 or 1");
      }
    }
    check_range(s.step_count, 0, kMaxSteps, "step_count");
    s_ = s;
    rebuild();
  }

 private:
  int find(int i) {
    while (parent_[i] != i) {
      parent_[i] = parent_[parent_[i]];
      i = parent_[i];
    }
    return i;
  }

  // pgx's _swap: the first stone in cell order (cell 0 when there is none) leaves,
  // and a stone of `color` (the mover's) takes the mirrored cell.
  void swap(int color) {
    int first = 0;
    while (first < kCells && s_.cells[first] < 0) ++first;
    if (first == kCells) first = 0;
    const int mirrored = (first % kSize) * kSize + first / kSize;
    s_.cells[first] = -1;
    s_.cells[mirrored] = static_cast<std::int8_t>(color);
    rebuild();
  }

  // The groups and the sides they touch, from the stones.
  void rebuild() {
    for (int i = 0; i < kCells; ++i) {
      parent_[i] = static_cast<std::uint8_t>(i);
      sides_[i] = s_.cells[i] >= 0 ? sides(s_.cells[i], i) : 0;
    }
    for (int i = 0; i < kCells; ++i) {
      if (s_.cells[i] < 0) continue;
      for (int n : kNeighbours[i]) {
        if (n < 0 || s_.cells[n] != s_.cells[i]) continue;
        const int a = find(i);
        const int b = find(n);
        if (a == b) continue;
        parent_[b] = static_cast<std::uint8_t>(a);
        sides_[a] |= sides_[b];
      }
    }
  }

  struct State {
    std::array<std::int8_t, kCells> cells;  // -1 empty, else the stone's color
    std::array<std::int8_t, 3> unused{};  // explicit padding: every saved byte is defined
    std::int32_t step_count = 0;  // moves made (pgx's GameState.step_count); its parity is the color to move
    State() { cells.fill(-1); }
  };
  static_assert(sizeof(State) == 128);
  State s_;
  // Derived from s_: the union-find over the stones, and each root's sides.
  std::array<std::uint8_t, kCells> parent_{};
  std::array<std::uint8_t, kCells> sides_{};
};

const bool registered = register_game<Hex>("Hex");

}  // namespace

}  // namespace rlpool::pgx

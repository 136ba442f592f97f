// 2048, as pgx 2.6.0 plays it (pgx/play2048.py): one player, a 4 x 4 board of
// tiles held as exponents (0 empty, e for 2^e), cells 0..15 row by row. An
// action slides every tile one way (0 left, 1 up, 2 right, 3 down), merging
// equal neighbours once each from the far side as the original game does; the
// reward is the sum of the merged tiles. Then a tile appears: a 2 with
// probability 0.9, else a 4, on an empty cell drawn uniformly (pgx draws them
// so; on a full board, which only an illegal move leaves, JAX's draw gives
// cell 0, overwriting it). The game ends when no slide moves a tile. A
// direction that moves nothing is illegal: pgx's _step still adds the tile,
// then the base ends the game with reward -1.
// Observation (bool, 4 x 4 x 31): plane e of a cell is set when it holds
// exponent e (plane 0: empty), as pgx's _observe.
//
// Chance: the two opening tiles and each step's tile are drawn from the env's
// rng with pgx's distribution (above). A state may carry the next step's tile
// per direction (cell and exponent; the comparison with pgx puts pgx's own tile
// there, which lands on a cell that depends on the slide); every step clears it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kPlanes = 31;
constexpr int kMaxExponent = kPlanes - 1;  // the largest tile pgx's observation shows (2^17 is the largest reachable)

// kLines[a][l][j]: the cell at position j of line l when sliding in direction a
// (position 0 the side the tiles move to): pgx's rows of jnp.rot90(board, a).
constexpr std::array<std::array<std::array<std::uint8_t, 4>, 4>, 4> make_lines() {
  std::array<std::array<std::array<std::uint8_t, 4>, 4>, 4> lines{};
  for (int l = 0; l < 4; ++l) {
    for (int j = 0; j < 4; ++j) {
      lines[0][l][j] = static_cast<std::uint8_t>(l * 4 + j);              // left
      lines[1][l][j] = static_cast<std::uint8_t>(j * 4 + (3 - l));        // up: rot90 k=1
      lines[2][l][j] = static_cast<std::uint8_t>((3 - l) * 4 + (3 - j));  // right: k=2
      lines[3][l][j] = static_cast<std::uint8_t>((3 - j) * 4 + l);        // down: k=3
    }
  }
  return lines;
}
constexpr auto kLines = make_lines();

// One line slid towards position 0 and merged (pgx's _slide_and_merge), in place; returns the merged tiles' sum.
double slide_line(std::array<std::uint8_t, 4>& line) {
  std::array<std::uint8_t, 4> packed{};
  int n = 0;
  for (auto tile : line) {
    if (tile != 0) packed[n++] = tile;
  }
  line = {};
  double reward = 0.0;
  for (int i = 0, m = 0; i < n; ++i) {
    if (i + 1 < n && packed[i] == packed[i + 1]) {
      line[m++] = static_cast<std::uint8_t>(packed[i] + 1);
      reward += std::ldexp(1.0, packed[i] + 1);
      ++i;
    } else {
      line[m++] = packed[i];
    }
  }
  return reward;
}

// Every line of tiles up to 2^15, slid: four 4-bit exponents (position j at bits 4j) -> the same after the slide,
// and the reward (at most 2 * 2^15), or kLong where the slide makes a 2^16 (two 2^15 merged), which 4 bits cannot
// hold: play takes those lines the long way.
struct SlideTable {
  static constexpr std::uint32_t kLong = ~std::uint32_t{0};
  struct Line {
    std::uint16_t out;
    std::uint32_t reward;
  };
  std::vector<Line> lines;
  SlideTable() : lines(1 << 16) {
    for (unsigned key = 0; key < lines.size(); ++key) {
      std::array<std::uint8_t, 4> line{};
      for (int j = 0; j < 4; ++j) line[j] = static_cast<std::uint8_t>(key >> (4 * j) & 15);
      const double reward = slide_line(line);
      unsigned out = 0;
      bool fits = true;
      for (int j = 0; j < 4; ++j) {
        fits = fits && line[j] < 16;
        out |= static_cast<unsigned>(line[j] & 15) << (4 * j);
      }
      lines[key] = {static_cast<std::uint16_t>(out), fits ? static_cast<std::uint32_t>(reward) : kLong};
    }
  }
};
const SlideTable kSlides;

class Play2048 final : public PgxEnv {
 public:
  explicit Play2048(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 1, .num_actions = 4, .obs_dtype = DType::kBool, .obs_shape = {4, 4, kPlanes}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = 0;
    add_tile(rng);
    add_tile(rng);
    mask_valid_ = false;
  }

  // pgx's _step, legal or not (an illegal direction moves nothing; the tile comes all the same).
  void play(int action, Rng& rng) override {
    double reward = 0.0;
    auto& b = s_.board;
    for (const auto& line : kLines[static_cast<std::size_t>(action)]) {
      const unsigned t0 = b[line[0]], t1 = b[line[1]], t2 = b[line[2]], t3 = b[line[3]];
      const auto* slid = (t0 | t1 | t2 | t3) < 16 ? &kSlides.lines[t0 | t1 << 4 | t2 << 8 | t3 << 12] : nullptr;
      if (slid != nullptr && slid->reward != SlideTable::kLong) {  // tiles up to 2^15: the slide from the table
        for (int j = 0; j < 4; ++j) b[line[j]] = static_cast<std::uint8_t>(slid->out >> (4 * j) & 15);
        reward += slid->reward;
      } else {
        std::array<std::uint8_t, 4> tiles{};
        for (int j = 0; j < 4; ++j) tiles[j] = b[line[j]];
        reward += slide_line(tiles);
        for (int j = 0; j < 4; ++j) b[line[j]] = tiles[j];
      }
    }
    const int cell = s_.pending_cell[action];
    const int value = s_.pending_value[action];
    s_.pending_cell.fill(-1);
    s_.pending_value.fill(0);
    if (cell >= 0) {
      b[cell] = static_cast<std::uint8_t>(value);
    } else {
      add_tile(rng);
    }
    rewards_[0] = reward;
    mask_ = compute_mask();
    mask_valid_ = true;  // for the base's legal_actions right after this step
    terminated_ = !(mask_[0] || mask_[1] || mask_[2] || mask_[3]);
  }

  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  // pgx's _can_slide_left on each rotation: a gap before a tile, or two equal tiles side by side. Each pair of
  // neighbours speaks for both directions along it.
  void legal_actions(bool* mask) const override {
    if (mask_valid_) {
      std::copy_n(mask_.begin(), 4, mask);
      return;
    }
    const auto m = compute_mask();
    std::copy_n(m.begin(), 4, mask);
  }

  void observe(int /*player*/, void* dst) const override {
    auto* out = static_cast<bool*>(dst);
    std::fill_n(out, 16 * kPlanes, false);
    for (int i = 0; i < 16; ++i) {
      if (s_.board[i] < kPlanes) out[i * kPlanes + s_.board[i]] = true;  // JAX drops a scatter out of range
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (std::size_t i = 0; i < s.board.size(); ++i) {
      if (s.board[i] > kMaxExponent) {
        throw std::invalid_argument("state's board[" + std::to_string(i) + "] is " + std::to_string(s.board[i]) +
                                    ", expected 0..30");
      }
    }
    for (int a = 0; a < 4; ++a) {
      const int cell = s.pending_cell[a];
      const int value = s.pending_value[a];
      const bool none = cell == -1 && value == 0;
      const bool tile = cell >= 0 && cell < 16 && (value == 1 || value == 2);
      if (!none && !tile) {
        throw std::invalid_argument("state's pending tile " + std::to_string(a) + " is (" + std::to_string(cell) +
                                    ", " + std::to_string(value) + "), expected (-1, 0) or a cell 0..15 and 1 or 2");
      }
    }
    s_ = s;
    mask_valid_ = false;
  }

 private:
  std::array<bool, 4> compute_mask() const {
    const auto& b = s_.board;
    bool left = false, right = false, up = false, down = false;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 3; ++c) {
        const int x = b[r * 4 + c], y = b[r * 4 + c + 1];  // side by side
        const bool same = x != 0 && x == y;
        left |= same || (x == 0 && y != 0);
        right |= same || (y == 0 && x != 0);
        const int u = b[c * 4 + r], v = b[c * 4 + 4 + r];  // one above the other
        const bool same_v = u != 0 && u == v;
        up |= same_v || (u == 0 && v != 0);
        down |= same_v || (v == 0 && u != 0);
      }
    }
    return {left, up, right, down};
  }

  // pgx's _add_random_num: an empty cell uniformly (cell 0 on a full board), a 2 with probability 0.9, else a 4.
  void add_tile(Rng& rng) {
    auto& b = s_.board;
    int empty = 0;
    for (auto v : b) empty += v == 0;
    int cell = 0;
    if (empty > 0) {
      int k = static_cast<int>(rng.integer(static_cast<std::uint64_t>(empty)));
      for (cell = 0; cell < 16; ++cell) {
        if (b[cell] == 0 && k-- == 0) break;
      }
    }
    b[cell] = rng.uniform() < 0.9 ? 1 : 2;
  }

  // No padding: every byte of a saved state is defined.
  struct State {
    std::array<std::uint8_t, 16> board{};  // pgx's _board: exponents, 0 empty
    std::array<std::int8_t, 4> pending_cell{-1, -1, -1, -1};  // per direction: where the next tile lands, -1 to draw it
    std::array<std::uint8_t, 4> pending_value{};               // its exponent (1 or 2; 0 with no cell)
  };
  static_assert(sizeof(State) == 24);
  State s_;
  // The legal directions of s_ when mask_valid_: play works them out for the end of the game, and the base asks
  // for them right after (not state: new_game and load drop them).
  std::array<bool, 4> mask_{};
  bool mask_valid_ = false;
};

const bool registered = register_game<Play2048>("Play2048");

}  // namespace

}  // namespace rlpool::pgx

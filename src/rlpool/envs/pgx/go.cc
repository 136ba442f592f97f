// Go, as pgx 2.6.0 plays it (pgx/go.py, pgx/_src/games/go.py), and EnvPool
// 1.2.7's "chinese" variant of it (envpool/pgx/go.h).
//
// rules="pgx" (alias "tromp_taylor", as EnvPool accepts): the first player is
// drawn at random (pgx: jax.random.bernoulli; here rng.integer(2)) and plays
// black; actions 0..size*size-1 place a stone on cell row * size + col, action
// size*size passes. pgx's rules, exactly:
// - a move captures the adjacent enemy chains "in atari" whose single liberty is
//   the move; pgx decides both by its pseudo-liberty sums (per chain: the
//   number of (stone, empty neighbour) pairs n, the sum s of the neighbours'
//   index+1 and the sum q of their squares; in atari iff s*s == q*n, single
//   liberty q/s - 1), computed here incrementally with its int32 wrap-around;
// - the legal moves: an empty cell with an empty neighbour, a neighbouring enemy
//   chain in atari or an own chain not in atari; not the ko cell (set when a
//   move surrounded on every side by enemy stones captures exactly one stone);
//   pass always;
// - positional superko is not in the mask: a move (not a pass) that makes a
//   position seen after an earlier step of the game (is_psk) ends it, the mover
//   losing (-1, +1). pgx hashes positions with a Zobrist table; this keeps a
//   64-bit Zobrist hash of its own (incremental) and a hash set of the game's
//   history, so its is_psk decisions are pgx's (both are exact save for hash
//   collisions, about 2^-60 a position);
// - the game ends after two passes in a row, on is_psk, or after
//   max_terminal_steps steps (0: pgx's size*size*2); area scoring (stones plus
//   empty cells that reach no enemy stone), black winning iff
//   black - komi > white in float32, as pgx computes it;
// - the observation of a player: 2 * history_length planes (the last
//   history_length positions, newest first: the player's stones, the
//   opponent's) and a plane of the player's color (1 = white).
// An illegal move is pgx's _step of it before the penalty: a ko or suicide move
// is played as a move (the suicide chain stays, without liberties), a stone on
// an occupied cell recolours that cell (pgx writes the mover's stone there).
//
// rules="chinese" is EnvPool 1.2.7's (pgx has none); checked empirically
// against EnvPool it differs from "pgx" in exactly three ways:
// - the legal mask also refuses the moves that would repeat a position seen
//   after an earlier step (positional superko as a rule, not a loss), so such
//   a move is an illegal move (-1 to the mover, +1 to the other, like pgx's
//   is_psk loss; the state shows the move);
// - is_psk is always false (no step ends the game by superko);
// - the area of an empty region that touches no stone counts for nobody (pgx
//   counts it for both): only the empty board has one, so the black_area and
//   white_area infos differ there, and no reward ever differs.
//
// Info after pgx's two: board (size x size int32, +1 black, -1 white), ko (-1
// or the cell), is_psk, consecutive_pass_count, black_area, white_area (the
// scores of the current position by the rules' area count), like EnvPool.
#include <algorithm>
#include <array>
#include <cstdint>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kMaxSize = 19;
constexpr int kMaxCells = kMaxSize * kMaxSize;
constexpr int kMaxHistory = 32;  // 2 bits a position in a 64-bit word per cell
constexpr std::int64_t kMaxSteps = 1 << 20;

// Zobrist keys: one per (color, cell), from splitmix64.
constexpr std::array<std::uint64_t, 2 * kMaxCells> make_keys() {
  std::array<std::uint64_t, 2 * kMaxCells> keys{};
  std::uint64_t x = 0x5EED'0F'60'0000'0001ULL;
  for (auto& k : keys) k = splitmix64(x);
  return keys;
}
constexpr auto kKeys = make_keys();

// Observation bytes of 4 packed history codes (2 bits each, oldest in the high
// bits; 0 empty, 1 black, 2 white, 3 before the game), for a black (0) or white
// (1) viewer: per position (own stone, enemy stone).
struct ObsTable {
  std::array<std::array<std::array<std::uint8_t, 8>, 256>, 2> bytes{};
  ObsTable() {
    for (int viewer = 0; viewer < 2; ++viewer) {
      const int own = viewer == 0 ? 1 : 2;
      for (int b = 0; b < 256; ++b) {
        for (int j = 0; j < 4; ++j) {
          const int code = (b >> (2 * j)) & 3;
          bytes[viewer][b][2 * j] = code == own;
          bytes[viewer][b][2 * j + 1] = code == 3 - own;
        }
      }
    }
  }
};
const ObsTable kObs;

enum class Rules : std::uint8_t { kPgx, kChinese };

Rules rules_of(const Config& config) {
  const std::string& rules = config.get_string("rules");
  if (rules == "pgx" || rules == "tromp_taylor") return Rules::kPgx;
  if (rules == "chinese") return Rules::kChinese;
  throw std::invalid_argument("option 'rules' is '" + rules + "', expected 'pgx' (or 'tromp_taylor') or 'chinese'");
}

int size_of(const Config& c) { return static_cast<int>(c.get_int_in("board_size", 2, kMaxSize)); }
int history_of(const Config& c) { return static_cast<int>(c.get_int_in("history_length", 1, kMaxHistory)); }

GameShape go_shape(const Config& c) {
  const int size = size_of(c);
  const int cells = size * size;
  return {.num_players = 2,
          .num_actions = cells + 1,
          .obs_dtype = DType::kBool,
          .obs_shape = {size, size, 2 * history_of(c) + 1},
          .extra_info = {
              ArraySpec{.name = "board", .dtype = DType::kInt32, .shape = {size, size}, .low = {-1}, .high = {1}},
              ArraySpec{.name = "ko", .dtype = DType::kInt32, .low = {-1}, .high = {double(cells - 1)}},
              ArraySpec{.name = "is_psk", .dtype = DType::kBool},
              ArraySpec{.name = "consecutive_pass_count", .dtype = DType::kInt32},
              ArraySpec{.name = "black_area", .dtype = DType::kInt32},
              ArraySpec{.name = "white_area", .dtype = DType::kInt32},
          }};
}

// The saved state: this header, then board (int8 x cells: +1 black, -1 white,
// 0 empty), pgx's board_history (int8 x history_length x cells, newest first,
// 2 before the game) and the hashes of the positions after each step so far
// (uint64 x step_count). No implicit padding.
struct Saved {
  std::int32_t board_size;
  std::int32_t history_length;
  std::int32_t max_steps;
  std::int32_t step_count;
  std::int32_t consecutive_pass_count;
  std::int32_t ko;
  std::array<std::int32_t, 2> num_captured;  // pgx's (black, white), stones counted once per captured side
  std::uint8_t is_psk;
  std::uint8_t black_player;  // pgx's _player_order[0]
  std::array<std::uint8_t, 2> unused;
};
static_assert(sizeof(Saved) == 36);

// A set of position hashes (open addressing; cleared in O(1) by an epoch).
class HashSet {
 public:
  explicit HashSet(std::int64_t max_entries) {
    std::size_t cap = 64;
    while (cap < static_cast<std::size_t>(2 * max_entries + 2)) cap *= 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
  }
  void clear() {
    if (++epoch_ == 0) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      epoch_ = 1;
    }
  }
  bool contains(std::uint64_t key) const {
    for (std::size_t i = index(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.epoch != epoch_) return false;
      if (s.key == key) return true;
    }
  }
  void insert(std::uint64_t key) {
    for (std::size_t i = index(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.epoch != epoch_) {
        s = {key, epoch_};
        return;
      }
      if (s.key == key) return;
    }
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t epoch = 0;
  };
  std::size_t index(std::uint64_t key) const { return static_cast<std::size_t>(key ^ (key >> 31)) & mask_; }
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::uint32_t epoch_ = 1;
};

class Go final : public PgxEnv {
 public:
  explicit Go(const Config& c)
      : PgxEnv(go_shape(c)),
        size_(size_of(c)),
        cells_(size_ * size_),
        history_(history_of(c)),
        max_steps_(static_cast<int>(c.get_int_in("max_terminal_steps", 0, kMaxSteps))),
        komi_(static_cast<float>(c.get_finite("komi"))),
        rules_(rules_of(c)),
        hash_history_(static_cast<std::size_t>(max_steps_ == 0 ? 2 * cells_ : max_steps_)),
        seen_(static_cast<std::int64_t>(hash_history_.size())) {
    if (max_steps_ == 0) max_steps_ = 2 * cells_;
    history_mask_ = history_ == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * history_)) - 1;
    for (int p = 0; p < cells_; ++p) {
      const int x = p / size_, y = p % size_;
      // pgx's _adj_ixs order: up, down, left, right; -1 off the board.
      nbr_[p] = {static_cast<std::int16_t>(x > 0 ? p - size_ : -1),
                 static_cast<std::int16_t>(x + 1 < size_ ? p + size_ : -1),
                 static_cast<std::int16_t>(y > 0 ? p - 1 : -1), static_cast<std::int16_t>(y + 1 < size_ ? p + 1 : -1)};
    }
  }

 protected:
  void new_game(Rng& rng) override {
    black_player_ = draw_first_player(rng);  // pgx: _player_order[bernoulli(key)]
    current_player_ = black_player_;
    step_count_ = consecutive_pass_count_ = 0;
    ko_ = -1;
    is_psk_ = false;
    num_captured_ = {0, 0};
    std::fill_n(color_.begin(), cells_, std::int8_t{0});
    std::fill_n(hist_.begin(), cells_, history_mask_);
    hash_ = 0;
    seen_.clear();
  }

  void play(int action, Rng& /*rng*/) override {
    const int color = step_count_ % 2;
    ko_ = -1;
    if (action < cells_) {
      move(action, color);
    } else {
      ++consecutive_pass_count_;
    }
    for (int p = 0; p < cells_; ++p) hist_[p] = ((hist_[p] << 2) | code(color_[p])) & history_mask_;
    is_psk_ = rules_ == Rules::kPgx && consecutive_pass_count_ == 0 && seen_.contains(hash_);
    if (step_count_ < max_steps_) {  // pgx drops a write past its history (a state loaded at the limit)
      hash_history_[static_cast<std::size_t>(step_count_)] = hash_;
      seen_.insert(hash_);
    }
    if (step_count_ < INT32_MAX) ++step_count_;  // only a state loaded far past the limit gets near it
    current_player_ = player_of(step_count_ % 2);
    terminated_ = consecutive_pass_count_ >= 2 || is_psk_ || step_count_ >= max_steps_;
    if (terminated_) {
      std::array<double, 2> by_color{-1.0, 1.0};
      if (is_psk_) {
        by_color = {-1.0, -1.0};
        by_color[step_count_ % 2] = 1.0;  // the player to move next wins
      } else {
        const auto [black, white] = areas();
        if (static_cast<float>(black) - komi_ > static_cast<float>(white)) by_color = {1.0, -1.0};
      }
      rewards_[player_of(0)] = by_color[0];
      rewards_[player_of(1)] = by_color[1];
    }
  }

  // pgx's _step plays any action (see the file header).
  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  void legal_actions(bool* mask) const override {
    const int color = step_count_ % 2;
    const std::int8_t me = sign(color);
    for (int p = 0; p < cells_; ++p) {
      bool ok = false;
      if (color_[p] == 0) {
        for (int q : nbr_[p]) {
          if (q < 0) continue;
          const std::int8_t c = color_[q];
          if (c == 0 || (c == me) != in_atari(root_[q])) {
            ok = true;
            break;
          }
        }
      }
      mask[p] = ok;
    }
    if (ko_ >= 0) mask[ko_] = false;
    if (rules_ == Rules::kChinese) {
      for (int p = 0; p < cells_; ++p) {
        if (mask[p] && seen_.contains(hash_after(p, color))) mask[p] = false;
      }
    }
    mask[cells_] = true;
  }

  void observe(int player, void* dst) const override {
    const int viewer = color_of(player, step_count_ % 2);
    const auto& table = kObs.bytes[static_cast<std::size_t>(viewer)];
    const int planes = 2 * history_ + 1;
    const int full = (2 * history_) / 8;  // whole 8-byte groups (4 positions)
    const int tail = (2 * history_) % 8;
    auto* out = static_cast<std::uint8_t*>(dst);
    for (int p = 0; p < cells_; ++p, out += planes) {
      std::uint64_t h = hist_[p];
      int g = 0;
      for (; g < full; ++g, h >>= 8) std::memcpy(out + 8 * g, table[h & 0xFF].data(), 8);
      if (tail != 0) std::memcpy(out + 8 * g, table[h & 0xFF].data(), static_cast<std::size_t>(tail));
      out[planes - 1] = static_cast<std::uint8_t>(viewer);
    }
  }

  void write_info(const Output& out) const override {
    auto* board = out.info_as<std::int32_t>(2);
    for (int p = 0; p < cells_; ++p) board[p] = color_[p];
    *out.info_as<std::int32_t>(3) = ko_;
    *out.info_as<bool>(4) = is_psk_;
    *out.info_as<std::int32_t>(5) = consecutive_pass_count_;
    const auto [black, white] = areas();
    *out.info_as<std::int32_t>(6) = black;
    *out.info_as<std::int32_t>(7) = white;
  }

  std::string save() const override {
    const Saved h{size_,
                  history_,
                  max_steps_,
                  step_count_,
                  consecutive_pass_count_,
                  ko_,
                  num_captured_,
                  static_cast<std::uint8_t>(is_psk_),
                  static_cast<std::uint8_t>(black_player_),
                  {}};
    std::string bytes = pod_state(h);
    bytes.append(reinterpret_cast<const char*>(color_.data()), static_cast<std::size_t>(cells_));
    for (int k = 0; k < history_; ++k) {
      for (int p = 0; p < cells_; ++p) bytes.push_back(static_cast<char>(kDecode[(hist_[p] >> (2 * k)) & 3]));
    }
    bytes.append(reinterpret_cast<const char*>(hash_history_.data()), sizeof(std::uint64_t) * recorded(step_count_));
    return bytes;
  }

  void load(std::string_view bytes) override {
    Saved h{};
    if (bytes.size() < sizeof(Saved)) throw std::invalid_argument("state's Go part is too short");
    std::memcpy(&h, bytes.data(), sizeof(Saved));
    auto check = [](bool ok, const std::string& what) {
      if (!ok) throw std::invalid_argument("state's " + what);
    };
    check(h.board_size == size_, "board_size is " + std::to_string(h.board_size) + ", expected " + std::to_string(size_));
    check(h.history_length == history_, "history_length is " + std::to_string(h.history_length) + ", expected " +
                                            std::to_string(history_));
    check(h.max_steps == max_steps_, "max_steps is " + std::to_string(h.max_steps) + ", expected " + std::to_string(max_steps_));
    check(h.step_count >= 0, "step_count is " + std::to_string(h.step_count) + ", expected >= 0");
    check(h.consecutive_pass_count >= 0 && h.consecutive_pass_count <= h.step_count,
          "consecutive_pass_count is " + std::to_string(h.consecutive_pass_count) + ", expected 0..step_count");
    check(h.ko >= -1 && h.ko < cells_, "ko is " + std::to_string(h.ko) + ", expected -1.." + std::to_string(cells_ - 1));
    check(h.num_captured[0] >= 0 && h.num_captured[1] >= 0, "num_captured is negative");
    check(h.is_psk <= 1, "is_psk is not a bool");
    check(h.black_player <= 1, "black_player is " + std::to_string(h.black_player) + ", expected 0 or 1");
    const std::size_t expected = sizeof(Saved) + static_cast<std::size_t>(cells_) * (1 + history_) +
                                 sizeof(std::uint64_t) * recorded(h.step_count);
    check(bytes.size() == expected,
          "Go part has " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected));
    const auto* board = reinterpret_cast<const std::int8_t*>(bytes.data() + sizeof(Saved));
    const auto* history = board + cells_;
    for (int p = 0; p < cells_; ++p) {
      check(board[p] >= -1 && board[p] <= 1, "board[" + std::to_string(p) + "] is " + std::to_string(board[p]) + ", expected -1, 0 or 1");
    }
    for (int i = 0; i < cells_ * history_; ++i) {
      check(history[i] >= -1 && history[i] <= 2,
            "board_history[" + std::to_string(i) + "] is " + std::to_string(history[i]) + ", expected -1..2");
    }
    // Valid: take it.
    step_count_ = h.step_count;
    consecutive_pass_count_ = h.consecutive_pass_count;
    ko_ = h.ko;
    num_captured_ = h.num_captured;
    is_psk_ = h.is_psk != 0;
    black_player_ = h.black_player;
    std::copy_n(board, cells_, color_.begin());
    for (int p = 0; p < cells_; ++p) {
      std::uint64_t w = 0;
      for (int k = history_ - 1; k >= 0; --k) w = (w << 2) | code(history[k * cells_ + p]);
      hist_[p] = w;
    }
    std::memcpy(hash_history_.data(), history + cells_ * history_, sizeof(std::uint64_t) * recorded(h.step_count));
    seen_.clear();
    for (std::size_t i = 0; i < recorded(step_count_); ++i) seen_.insert(hash_history_[i]);
    rebuild();
  }

 private:
  static constexpr std::array<std::int8_t, 4> kDecode{0, 1, -1, 2};
  static std::uint64_t code(int v) { return v == 0 ? 0 : v == 1 ? 1 : v == -1 ? 2 : 3; }
  static std::int8_t sign(int color) { return color == 0 ? 1 : -1; }
  static std::uint64_t key(std::int8_t c, int p) { return kKeys[static_cast<std::size_t>((c > 0 ? 0 : kMaxCells) + p)]; }
  // How many position hashes a game of `steps` steps holds (pgx keeps max_terminal_steps).
  std::size_t recorded(int steps) const { return static_cast<std::size_t>(std::min(steps, max_steps_)); }
  int player_of(int color) const { return color == 0 ? black_player_ : 1 - black_player_; }

  // pgx's pseudo-liberty test, in its int32 arithmetic (products wrap).
  bool in_atari(int r) const { return libs_[r] * libs_[r] == libq_[r] * libn_[r]; }
  int single_liberty(int r) const {
    return libs_[r] == 0 ? -2 : static_cast<int>(static_cast<std::int32_t>(libq_[r]) / static_cast<std::int32_t>(libs_[r])) - 1;
  }
  void add_liberty(int r, int e) {
    const auto i = static_cast<std::uint32_t>(e + 1);
    libn_[r] += 1;
    libs_[r] += i;
    libq_[r] += i * i;
  }
  void drop_liberty(int r, int e) {
    const auto i = static_cast<std::uint32_t>(e + 1);
    libn_[r] -= 1;
    libs_[r] -= i;
    libq_[r] -= i * i;
  }
  // The enemy chain beside `p` in direction d that a stone at p captures (pgx's is_killed), else -1.
  int killed(int p, int d, std::int8_t me) const {
    const int q = nbr_[p][d];
    if (q < 0 || color_[q] != -me) return -1;
    const int r = root_[q];
    return in_atari(r) && single_liberty(r) == p ? r : -1;
  }

  // The hash of the position after a legal (empty-cell) move at p.
  std::uint64_t hash_after(int p, int color) const {
    const std::int8_t me = sign(color);
    std::uint64_t h = hash_ ^ key(me, p);
    std::array<int, 4> gone{-1, -1, -1, -1};
    for (int d = 0; d < 4; ++d) {
      const int r = killed(p, d, me);
      if (r < 0 || std::find(gone.begin(), gone.end(), r) != gone.end()) continue;
      gone[d] = r;
      h ^= chash_[r];
    }
    return h;
  }

  // pgx's _apply_action.
  void move(int p, int color) {
    const std::int8_t me = sign(color);
    consecutive_pass_count_ = 0;
    std::array<int, 4> dead{-1, -1, -1, -1};
    int captured = 0;  // pgx counts a chain once per side it is captured from
    int ko_dir = -1;
    bool surrounded = true;
    for (int d = 0; d < 4; ++d) {
      const int q = nbr_[p][d];
      if (q >= 0 && color_[q] != -me) surrounded = false;
      dead[d] = killed(p, d, me);
      if (dead[d] >= 0) {
        captured += size_of_[dead[d]];
        if (ko_dir < 0) ko_dir = d;
      }
    }
    for (int d = 0; d < 4; ++d) {
      const int r = dead[d];
      if (r >= 0 && color_[r] != 0) remove_chain(r);
    }
    num_captured_[color] += captured;
    ko_ = surrounded && captured == 1 ? nbr_[p][ko_dir] : -1;
    if (color_[p] == 0) {
      place(p, me);
    } else if (color_[p] != me) {  // an illegal move on an enemy stone: pgx writes the mover's stone there
      hash_ ^= key(color_[p], p) ^ key(me, p);
      color_[p] = me;
      rebuild();
    }
  }

  void place(int p, std::int8_t me) {
    color_[p] = me;
    root_[p] = static_cast<std::int16_t>(p);
    next_[p] = static_cast<std::int16_t>(p);
    size_of_[p] = 1;
    libn_[p] = libs_[p] = libq_[p] = 0;
    chash_[p] = key(me, p);
    hash_ ^= chash_[p];
    for (int q : nbr_[p]) {
      if (q < 0) continue;
      if (color_[q] == 0) {
        add_liberty(p, q);
      } else {
        drop_liberty(root_[q], p);
      }
    }
    for (int q : nbr_[p]) {
      if (q >= 0 && color_[q] == me && root_[q] != root_[p]) merge(root_[p], root_[q]);
    }
  }

  void merge(int a, int b) {
    if (size_of_[a] < size_of_[b]) std::swap(a, b);
    int s = b;
    do {
      root_[s] = static_cast<std::int16_t>(a);
      s = next_[s];
    } while (s != b);
    std::swap(next_[a], next_[b]);
    size_of_[a] = static_cast<std::int16_t>(size_of_[a] + size_of_[b]);
    libn_[a] += libn_[b];
    libs_[a] += libs_[b];
    libq_[a] += libq_[b];
    chash_[a] ^= chash_[b];
  }

  void remove_chain(int r) {
    hash_ ^= chash_[r];
    int s = r;
    do {
      color_[s] = 0;
      s = next_[s];
    } while (s != r);
    do {
      for (int t : nbr_[s]) {
        if (t >= 0 && color_[t] != 0) add_liberty(root_[t], s);
      }
      s = next_[s];
    } while (s != r);
  }

  // The chains and the hash from the colors alone (after load, or an illegal
  // move that recoloured a stone).
  void rebuild() {
    std::array<std::int16_t, kMaxCells> stack{};
    hash_ = 0;
    for (int p = 0; p < cells_; ++p) root_[p] = -1;
    for (int p = 0; p < cells_; ++p) {
      if (color_[p] == 0 || root_[p] >= 0) continue;
      const std::int8_t c = color_[p];
      root_[p] = static_cast<std::int16_t>(p);
      next_[p] = static_cast<std::int16_t>(p);
      size_of_[p] = 1;
      libn_[p] = libs_[p] = libq_[p] = 0;
      chash_[p] = 0;
      int top = 0;
      stack[top++] = static_cast<std::int16_t>(p);
      while (top > 0) {
        const int s = stack[--top];
        chash_[p] ^= key(c, s);
        for (int q : nbr_[s]) {
          if (q < 0) continue;
          if (color_[q] == 0) {
            add_liberty(p, q);
          } else if (color_[q] == c && root_[q] < 0) {
            root_[q] = static_cast<std::int16_t>(p);
            next_[q] = next_[p];  // into the ring after p
            next_[p] = static_cast<std::int16_t>(q);
            ++size_of_[p];
            stack[top++] = static_cast<std::int16_t>(q);
          }
        }
      }
      hash_ ^= chash_[p];
    }
  }

  // The scores by area: stones, plus the empty regions (4-connected) that
  // reach no enemy stone; rules="pgx" counts a region that reaches no stone
  // at all for both players (pgx's _count_ji), "chinese" for neither.
  std::array<int, 2> areas() const {
    std::array<int, 2> area{0, 0};
    std::array<bool, kMaxCells> seen{};
    std::array<std::int16_t, kMaxCells> stack{};
    for (int p = 0; p < cells_; ++p) {
      if (color_[p] > 0) ++area[0];
      if (color_[p] < 0) ++area[1];
    }
    for (int start = 0; start < cells_; ++start) {
      if (color_[start] != 0 || seen[start]) continue;
      int top = 0, count = 0;
      bool black = false, white = false;
      stack[top++] = static_cast<std::int16_t>(start);
      seen[start] = true;
      while (top > 0) {
        const int s = stack[--top];
        ++count;
        for (int q : nbr_[s]) {
          if (q < 0) continue;
          if (color_[q] > 0) {
            black = true;
          } else if (color_[q] < 0) {
            white = true;
          } else if (!seen[q]) {
            seen[q] = true;
            stack[top++] = static_cast<std::int16_t>(q);
          }
        }
      }
      if (rules_ == Rules::kChinese && !black && !white) continue;
      if (!white) area[0] += count;
      if (!black) area[1] += count;
    }
    return area;
  }

  const int size_;
  const int cells_;
  const int history_;
  int max_steps_;
  const float komi_;  // pgx compares black - komi with white in float32
  const Rules rules_;
  std::uint64_t history_mask_ = 0;
  std::array<std::array<std::int16_t, 4>, kMaxCells> nbr_{};

  // The game (what save() writes, with hist_ and hash_history_).
  int step_count_ = 0;
  int consecutive_pass_count_ = 0;
  int ko_ = -1;
  bool is_psk_ = false;
  int black_player_ = 0;
  std::array<std::int32_t, 2> num_captured_{0, 0};
  std::array<std::int8_t, kMaxCells> color_{};
  std::array<std::uint64_t, kMaxCells> hist_{};  // per cell: 2-bit codes of the last positions, newest lowest
  std::vector<std::uint64_t> hash_history_;

  // Derived from the above (rebuilt by load).
  std::uint64_t hash_ = 0;  // XOR of the stones' keys
  HashSet seen_;            // hash_history_[0..step_count)
  std::array<std::int16_t, kMaxCells> root_{};
  std::array<std::int16_t, kMaxCells> next_{};  // a ring through each chain's stones
  std::array<std::int16_t, kMaxCells> size_of_{};
  std::array<std::uint32_t, kMaxCells> libn_{}, libs_{}, libq_{};  // per root: pgx's num_pseudo, idx_sum, idx_squared_sum
  std::array<std::uint64_t, kMaxCells> chash_{};                    // per root: XOR of its stones' keys
};

const bool registered = register_env_type({
    .name = "Go",
    .options = {{"board_size", std::int64_t{19}, "cells per side, 2..19"},
                {"komi", 7.5, "points added to white's area"},
                {"history_length", std::int64_t{8}, "positions in the observation, 1..32"},
                {"max_terminal_steps", std::int64_t{0}, "steps after which the game ends; 0: board_size**2 * 2"},
                {"rules", std::string("pgx"), "'pgx' (pgx 2.6.0's) or 'chinese' (EnvPool 1.2.7's: superko in the mask)"}},
    .spec =
        [](const Config& c) {
          rules_of(c);
          return game_spec(go_shape(c));
        },
    .create = make_env<Go>(),
});

}  // namespace

}  // namespace rlpool::pgx

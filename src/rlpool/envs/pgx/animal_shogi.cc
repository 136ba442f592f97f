// AnimalShogi (Dobutsu shogi), as pgx 2.6.0 plays it (pgx/animal_shogi.py).
//
// The board is pgx's: 12 squares x * 4 + y (3 files x, 4 ranks y; y = 0 is the
// far rank), seen from the side to move; pieces 0..4 (chick, elephant, giraffe,
// lion, hen) are the mover's, 5..9 the opponent's, -1 empty; hands count chicks,
// elephants and giraffes (row 0 the mover's). A chick moving from rank 1
// becomes a hen; captured pieces go to the hand (a hen as a chick) and may be
// dropped on any empty square. Actions: pgx's 132 labels, direction * 12 + from
// for moves (8 directions), (8 + piece) * 12 + square for drops.
// The game ends when the side to move has no legal move (it loses, -1/+1), when
// the mover's lion reaches the far rank (the mover wins; pgx ends it at once),
// on a third repetition by a zobrist hash updated and compared as pgx's is (0
// each; pgx's quirks kept: a capture hashed at the from square, the hand keys
// clamped, and a history entry counts when either of its two words matches), or
// after 256 steps (0 each).
// The hash keys are rlpool's own, not pgx's (jax.random draws): splitmix64 from a
// fixed seed at compile time, in pgx's layout (two 31-bit words a key; the start
// hash one more key, as pgx's is a literal constant, not made from its keys). A game's
// hashes are compared only with each other (and with pgx's zero for unused
// slots), and which words of them are equal depends only on the keys each move
// XORs in, so repetitions are pgx's exactly, but for a hash collision that one of
// the two has and the other not (about 2^-30 a comparison: either 31-bit word).
// The hash values, and so the state bytes, differ from pgx's.
// The first player is drawn with probability 1/2 each (pgx: jax.random.bernoulli);
// nothing else is random.
// Observation: pgx's 4 x 3 x 194 float32 planes per player: 8 positions of
// history (pieces, hands, repetition 0 / 1), the player's color and steps / 256.
// Illegal actions: pgx's _step runs on any label and its result shows in the
// observation, so play_illegal follows it literally (JAX wraps negative indices,
// clamps gathers and drops out-of-range scatters).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kActions = 132;
constexpr int kPlanes = 194;
constexpr int kMaxSteps = 256;  // pgx's MAX_TERMINATION_STEPS
constexpr int kHashSlots = kMaxSteps + 1;
constexpr std::array<std::int8_t, 12> kInitBoard = {6, -1, -1, 2, 8, 5, 0, 3, 7, -1, -1, 1};
enum : std::int8_t { kEmpty = -1, kChick = 0, kElephant = 1, kGiraffe = 2, kLion = 3, kHen = 4 };

// rlpool's zobrist keys (not pgx's): a splitmix64 sequence from a fixed seed, each key's two
// 32-bit words cut to 31 bits as pgx's are, a key being low | high << 32.
struct ZobristKeys {
  std::uint64_t side = 0;
  std::uint64_t init = 0;                      // the hash of the start position (step 0)
  std::array<std::uint64_t, 12 * 10> board{};  // [square (the first player's view)][piece (the first player's 0..4)]
  std::array<std::uint64_t, 2 * 3 * 3> hand{};  // [turn][piece][count]
};

constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys k{};
  std::uint64_t x = 0x726c'706f'6f6c'4153ULL;  // "rlpoolAS"
  auto next = [&x] { return pgx_hash_key(x); };
  k.side = next();
  k.init = next();
  for (auto& v : k.board) v = next();
  for (auto& v : k.hand) v = next();
  return k;
}
constexpr ZobristKeys kZobrist = make_zobrist_keys();

// No key has a zero word, and no two keys share a word (a check of the generator, at compile
// time; pgx's comparison counts an entry when either word matches).
constexpr bool keys_distinct() {
  std::array<std::uint64_t, 2 + 12 * 10 + 2 * 3 * 3> all{};
  all[0] = kZobrist.side;
  all[1] = kZobrist.init;
  for (int i = 0; i < 12 * 10; ++i) all[i + 2] = kZobrist.board[i];
  for (int i = 0; i < 2 * 3 * 3; ++i) all[i + 2 + 12 * 10] = kZobrist.hand[i];
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::uint32_t lo = static_cast<std::uint32_t>(all[i]), hi = static_cast<std::uint32_t>(all[i] >> 32);
    if (lo == 0 || hi == 0) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (static_cast<std::uint32_t>(all[j]) == lo || static_cast<std::uint32_t>(all[j] >> 32) == hi) return false;
    }
  }
  return true;
}
static_assert(keys_distinct());

// A JAX gather index into an axis of n: a negative index wraps once, then it is clamped.
constexpr int gather_ix(int i, int n) { return std::clamp(i < 0 ? i + n : i, 0, n - 1); }
constexpr int py_mod(int a, int n) { return ((a % n) + n) % n; }

struct Tables {
  std::array<std::array<std::int8_t, 8>, 12> to{};                // pgx's _to(from, dir), -1 off the board
  std::array<std::array<std::uint16_t, 12>, 5> moves{};           // pgx's _can_move(piece, from, to) as masks of `to`
  std::array<std::array<std::int8_t, 12>, 12> dir{};              // the direction of from -> to (a neighbour), else -1
  std::array<std::array<std::uint16_t, 12>, 5> hits{};            // the squares an opponent's piece at `from` attacks
};

constexpr Tables make_tables() {
  Tables t{};
  constexpr std::array<int, 8> dx = {-1, -1, -1, 0, 0, 1, 1, 1};
  constexpr std::array<int, 8> dy = {-1, 0, 1, -1, 1, -1, 0, 1};
  for (auto& row : t.dir) row.fill(-1);
  for (int from = 0; from < 12; ++from) {
    for (int d = 0; d < 8; ++d) {
      const int x = from / 4 + dx[d], y = from % 4 + dy[d];
      const bool off = x < 0 || x >= 3 || y < 0 || y >= 4;
      t.to[from][d] = static_cast<std::int8_t>(off ? -1 : x * 4 + y);
      if (!off) t.dir[from][x * 4 + y] = static_cast<std::int8_t>(d);
    }
    for (int to = 0; to < 12; ++to) {
      const int ddx = to / 4 - from / 4, ddy = to % 4 - from % 4;
      const bool near = (ddx != 0 || ddy != 0) && ddx >= -1 && ddx <= 1 && ddy >= -1 && ddy <= 1;
      const std::array<bool, 5> can = {
          ddx == 0 && ddy == -1,                         // chick
          near && (ddx == ddy || ddx == -ddy),           // elephant
          near && (ddx == 0 || ddy == 0),                // giraffe
          near,                                          // lion
          near && (ddx == 0 || ddy != +1),               // hen
      };
      for (int p = 0; p < 5; ++p) {
        if (can[p]) t.moves[p][from] = static_cast<std::uint16_t>(t.moves[p][from] | (1u << to));
        // pgx's _is_checked: an opponent's piece at `to` takes a king at `from` when the mover's
        // piece of its kind could move from `from` to `to`.
        if (can[p]) t.hits[p][to] = static_cast<std::uint16_t>(t.hits[p][to] | (1u << from));
      }
    }
  }
  return t;
}
constexpr Tables kTables = make_tables();

using Board = std::array<std::int8_t, 12>;

// pgx's _is_checked: is the mover's lion (argmin |board - LION|) capturable by an opponent's piece?
bool checked(const Board& b) {
  int king = 0, best = 100;
  for (int i = 0; i < 12; ++i) {
    const int d = std::abs(b[i] - kLion);
    if (d < best) king = i, best = d;
  }
  for (int from = 0; from < 12; ++from) {
    if (b[from] >= 5 && (kTables.moves[b[from] % 5][king] >> from & 1u)) return true;
  }
  return false;
}

// The other side's view of a board (pgx's _flip of one board).
constexpr std::array<std::int8_t, 11> kSwap = {-1, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4};  // a piece + 1 -> its other side's
Board flipped(const Board& b) {
  Board f{};
  for (int i = 0; i < 12; ++i) f[i] = kSwap[b[11 - i] + 1];
  return f;
}

class AnimalShogi final : public PgxEnv {
 public:
  explicit AnimalShogi(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kActions, .obs_dtype = DType::kFloat32, .obs_shape = {4, 3, kPlanes}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    s_.hash = kZobrist.init;
    s_.hashes_lo[0] = static_cast<std::uint32_t>(kZobrist.init);
    s_.hashes_hi[0] = static_cast<std::uint32_t>(kZobrist.init >> 32);
    s_.board = kInitBoard;
    for (auto& row : s_.history) row.fill(kEmpty);
    s_.history[0] = kInitBoard;
    current_player_ = draw_first_player(rng);
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const auto [is_try, rep] = apply(action);
    const bool rep_draw = rep >= 2;
    terminated_ = !generate<true>(nullptr) || is_try || rep_draw;
    if (terminated_ && !rep_draw) set_winner(mover);
    if (s_.step_count >= kMaxSteps) terminated_ = true;
  }

  void play_illegal(int action, Rng& /*rng*/) override { apply(action); }

  void legal_actions(bool* mask) const override {
    std::fill_n(mask, kActions, false);
    generate<false>(mask);
  }

  void observe(int player, void* dst) const override {
    auto* out = static_cast<float*>(dst);
    const int color = color_of(player, s_.turn);
    const bool other = player != current_player_;  // pgx flips the state for the player not to move
    // The planes that are the same on every square (hands, repetitions, color, steps) into the
    // first square, copied to the others; then each square's pieces.
    std::memset(out, 0, cell_bytes_);
    for (int i = 0; i < 8; ++i) {
      const auto& hand = s_.hand_history[i];
      float* c = out + i * 24 + 10;
      for (int p = 0; p < 6; ++p) {
        const int n = hand[other ? (p + 3) % 6 : p];
        c[2 * p] = n >= 1 ? 1.0f : 0.0f;
        c[2 * p + 1] = n >= 2 ? 1.0f : 0.0f;
      }
      c[12] = s_.reps[i] == 0 ? 1.0f : 0.0f;
      c[13] = s_.reps[i] == 1 ? 1.0f : 0.0f;
    }
    out[192] = static_cast<float>(color);
    out[193] = static_cast<float>(s_.step_count) / static_cast<float>(kMaxSteps);
    for (int n = 1; n < 12; n *= 2) std::memcpy(out + n * kPlanes, out, std::min(n, 12 - n) * cell_bytes_);
    for (int i = 0; i < 8; ++i) {
      const Board& h = s_.history[i];
      for (int pos = 0; pos < 12; ++pos) {
        // Square x * 4 + y shows at row y, column 2 - x; the other player sees square 11 - pos.
        const int v = other ? kSwap[h[11 - pos] + 1] : h[pos];
        if (v >= 0) out[((pos % 4) * 3 + 2 - pos / 4) * kPlanes + i * 24 + v] = 1.0f;
      }
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    auto check_board = [](const Board& b, const char* name) {
      for (auto v : b) {
        if (v < kEmpty || v > 9) {
          throw std::invalid_argument(std::string("state's ") + name + " holds " + std::to_string(v) + ", expected -1..9");
        }
      }
    };
    auto check_hand = [](std::int8_t n, const char* name) {
      if (n < -kMaxHand || n > kMaxHand) {
        throw std::invalid_argument(std::string("state's ") + name + " holds " + std::to_string(n) + ", expected " +
                                    std::to_string(-kMaxHand) + ".." + std::to_string(kMaxHand));
      }
    };
    check_board(s.board, "board");
    for (const auto& b : s.history) check_board(b, "board history");
    for (const auto& row : s.hand) {
      for (auto n : row) check_hand(n, "hand");
    }
    for (const auto& row : s.hand_history) {
      for (auto n : row) check_hand(n, "hand history");
    }
    for (auto r : s.reps) {
      if (r < -1 || r > kHashSlots) {
        throw std::invalid_argument("state's repetition history holds " + std::to_string(r) + ", expected -1.." +
                                    std::to_string(kHashSlots));
      }
    }
    check_range(s.step_count, 0, kMaxStepCount, "step count");
    if (s.turn > 1) throw std::invalid_argument("state's turn is " + std::to_string(s.turn) + ", expected 0 or 1");
    if (s.unused != 0) throw std::invalid_argument("state's unused byte is not zero");
    s_ = s;
  }

 private:
  static constexpr std::int32_t kMaxStepCount = 1 << 24;
  static constexpr int kMaxHand = 8;

  struct State {
    std::uint64_t hash = 0;                             // pgx's _zobrist_hash
    // pgx's _hash_history: the hash after step k at k, its two words apart.
    std::array<std::uint32_t, kHashSlots> hashes_lo{};
    std::array<std::uint32_t, kHashSlots> hashes_hi{};
    std::array<std::int32_t, 8> reps{};                 // pgx's _rep_history (newest first)
    std::int32_t step_count = 0;
    std::array<Board, 8> history{};                     // pgx's _board_history (newest first), mover's view
    std::array<std::array<std::int8_t, 6>, 8> hand_history{};  // pgx's _hand_history, the mover's hand first
    Board board{};                                      // pgx's _board: the side to move's view
    std::array<std::array<std::int8_t, 3>, 2> hand{};   // pgx's _hand: the side to move's first
    std::uint8_t turn = 0;                              // pgx's _turn: 0 when the first player moves
    std::uint8_t unused = 0;
  };
  static_assert(sizeof(State) == 8 + kHashSlots * 8 + 32 + 4 + 96 + 48 + 12 + 6 + 2);

  struct Applied {
    bool is_try;
    int rep;
  };

  // pgx's _step up to the legal mask, literally (any label): move or drop, history, flip,
  // hash history and repetitions.
  Applied apply(int action) {
    auto& b = s_.board;
    auto& hand = s_.hand[0];
    ++s_.step_count;
    const bool first = s_.turn == 0;
    std::uint64_t h = s_.hash;
    auto zb = [first](int square, int piece) {  // ZOBRIST_BOARD at the first player's square and piece
      const int sq = gather_ix(first ? square : 11 - square, 12);
      const int pc = gather_ix(first ? piece : py_mod(piece + 5, 10), 10);
      return kZobrist.board[sq * 10 + pc];
    };
    auto zh = [first](int piece, int count) { return kZobrist.hand[(first ? 0 : 9) + piece * 3 + gather_ix(count, 3)]; };
    const int x = action / 12, sq = action % 12;
    if (x >= 8) {  // _step_drop
      const int piece = x - 8;
      b[sq] = static_cast<std::int8_t>(piece);
      h ^= zb(sq, piece);
      const int n = hand[piece];
      hand[piece] = static_cast<std::int8_t>(n - 1);
      h ^= zh(piece, n + 1) ^ zh(piece, n);
    } else {  // _step_move
      const int from = sq, to = kTables.to[from][x];
      const int to_ix = to < 0 ? to + 12 : to;  // JAX wraps -1 to the last square
      int piece = b[from];
      b[from] = kEmpty;
      h ^= zb(from, piece);
      const int captured = b[to_ix];
      const int kind = py_mod(captured, 5) % 4;  // the captured piece in the hand (a hen as a chick; a lion is 3)
      if (captured != kEmpty && kind < 3) hand[kind] = static_cast<std::int8_t>(hand[kind] + 1);
      if (captured != kEmpty) h ^= zb(from, captured);  // (pgx hashes the capture at the from square)
      const int n = hand[std::min(kind, 2)];
      h ^= zh(std::min(kind, 2), n - 1) ^ zh(std::min(kind, 2), n);
      if (from % 4 == 1 && piece == kChick) piece = kHen;
      b[to_ix] = static_cast<std::int8_t>(piece);
      h ^= zb(to, piece);
    }
    const bool is_try = b[0] == kLion || b[4] == kLion || b[8] == kLion;
    // History: pgx rolls the flattened (8, 12) and (8, 6) arrays by 8 elements (not by a row), then sets row 0.
    auto* flat = reinterpret_cast<std::int8_t*>(s_.history.data());
    std::memmove(flat + 12, flat + 4, 84);
    s_.history[0] = b;
    auto* hands = reinterpret_cast<std::int8_t*>(s_.hand_history.data());
    const std::array<std::int8_t, 2> wrapped = {hands[46], hands[47]};
    std::memmove(hands + 8, hands, 40);
    hands[6] = wrapped[0];
    hands[7] = wrapped[1];
    for (int k = 0; k < 3; ++k) {
      hands[k] = s_.hand[0][k];
      hands[3 + k] = s_.hand[1][k];
    }
    // _flip: the board, hands and histories to the other side's view.
    for (auto& row : s_.history) row = flipped(row);
    for (auto& row : s_.hand_history) std::rotate(row.begin(), row.begin() + 3, row.end());
    b = flipped(b);
    std::swap(s_.hand[0], s_.hand[1]);
    s_.hash = h ^ kZobrist.side;
    s_.turn ^= 1;
    current_player_ = 1 - current_player_;
    const auto lo = static_cast<std::uint32_t>(s_.hash), hi = static_cast<std::uint32_t>(s_.hash >> 32);
    if (s_.step_count < kHashSlots) {  // (a scatter past the end is dropped)
      s_.hashes_lo[s_.step_count] = lo;
      s_.hashes_hi[s_.step_count] = hi;
    }
    // pgx's `(hash_history == hash).any(axis=1)`: an entry counts when either word matches.
    int count = 0;
    for (int k = 0; k < kHashSlots; ++k) count += (s_.hashes_lo[k] == lo) | (s_.hashes_hi[k] == hi);
    const int rep = count - 1;
    std::memmove(&s_.reps[1], &s_.reps[0], 7 * sizeof(s_.reps[0]));
    s_.reps[0] = rep;
    return {is_try, rep};
  }

  // The legal moves of the side to move (pgx's _legal_action_mask): into `mask`, or,
  // with kAny, only whether there is one.
  template <bool kAny>
  bool generate(bool* mask) const {
    const Board& b = s_.board;
    int lion = -1, lions = 0;
    for (int i = 0; i < 12; ++i) {
      if (b[i] == kLion) lion = i, ++lions;
    }
    if (lions != 1) return generate_literal<kAny>(mask);
    // One lion: pgx's check test (make the move, is the lion capturable?) in closed form. No piece
    // slides, so a move changes the opponent's reach only by the piece it captures.
    unsigned reach = 0, checkers = 0;
    for (int from = 0; from < 12; ++from) {
      if (b[from] < 5) continue;
      const unsigned hits = kTables.hits[b[from] - 5][from];
      reach |= hits;
      if (hits >> lion & 1u) checkers |= 1u << from;
    }
    for (int from = 0; from < 12; ++from) {
      const int piece = b[from];
      if (piece < kChick || piece > kHen) continue;
      for (unsigned m = kTables.moves[piece][from]; m != 0; m &= m - 1) {
        const int to = std::countr_zero(m);
        if (b[to] != kEmpty && b[to] <= kHen) continue;
        const bool ok = from == lion ? !(reach >> to & 1u) : (checkers & ~(1u << to)) == 0;
        if (!ok) continue;
        if constexpr (kAny) return true;
        mask[kTables.dir[from][to] * 12 + from] = true;
      }
    }
    if (checkers != 0) return false;  // a drop neither captures nor blocks
    for (int piece = 0; piece < 3; ++piece) {
      if (s_.hand[0][piece] <= 0) continue;
      for (int to = 0; to < 12; ++to) {
        if (b[to] != kEmpty) continue;
        if constexpr (kAny) return true;
        mask[(8 + piece) * 12 + to] = true;
      }
    }
    return false;
  }

  // pgx's mask move by move (make it, then _is_checked), for boards without exactly one
  // lion of the mover's (none that play reaches before the game ends).
  template <bool kAny>
  bool generate_literal(bool* mask) const {
    Board b = s_.board;
    for (int from = 0; from < 12; ++from) {
      const int piece = b[from];
      if (piece < kChick || piece > kHen) continue;
      for (unsigned m = kTables.moves[piece][from]; m != 0; m &= m - 1) {
        const int to = std::countr_zero(m);
        const std::int8_t taken = b[to];
        if (taken != kEmpty && taken <= kHen) continue;
        b[from] = kEmpty;
        b[to] = static_cast<std::int8_t>(from % 4 == 1 && piece == kChick ? kHen : piece);
        const bool ok = !checked(b);
        b[to] = taken;
        b[from] = static_cast<std::int8_t>(piece);
        if (!ok) continue;
        if constexpr (kAny) return true;
        mask[kTables.dir[from][to] * 12 + from] = true;
      }
    }
    for (int piece = 0; piece < 3; ++piece) {
      if (s_.hand[0][piece] <= 0) continue;
      for (int to = 0; to < 12; ++to) {
        if (b[to] != kEmpty) continue;
        b[to] = static_cast<std::int8_t>(piece);
        const bool ok = !checked(b);
        b[to] = kEmpty;
        if (!ok) continue;
        if constexpr (kAny) return true;
        mask[(8 + piece) * 12 + to] = true;
      }
    }
    return false;
  }

  State s_;
  // sizeof one square's planes, as a variable: a memcpy or memset of a size known at compile time
  // becomes `rep movs`/`rep stos`, several times slower than the library's vector code at this size.
  std::size_t cell_bytes_ = kPlanes * sizeof(float);
};

const bool registered = register_game<AnimalShogi>("AnimalShogi");

}  // namespace

}  // namespace rlpool::pgx

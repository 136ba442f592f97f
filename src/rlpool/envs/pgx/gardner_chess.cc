// GardnerChess (5x5 chess), as pgx 2.6.0 plays it (pgx/gardner_chess.py, pgx/_src/gardner_chess_utils.py).
//
// The board is pgx's: squares 0..24 as file * 5 + rank, seen from the side to
// move (the opponent's pieces negative, the ranks flipped for black), pieces
// 1..6 pawn, knight, bishop, rook, queen, king. No castling, no en passant, no
// double pawn step; a pawn reaching the last rank becomes a queen unless an
// underpromotion action names a rook, bishop or knight.
// Actions: pgx's AlphaZero-style labels, from * 49 + plane (planes 0..8
// underpromotions, 9..48 queen-like and knight moves), all in the mover's view.
// The game ends with checkmate (+1/-1), stalemate, 100 halfmoves without a
// capture or pawn move, insufficient material (OpenSpiel's test, as pgx has
// it), the third occurrence of a position (by a zobrist hash updated as pgx's is,
// quirks kept -- a queen promotion hashed as a pawn --), or after 256 steps (0 each).
// The hash keys are rlpool's own, not pgx's (jax.random draws): splitmix64 from a
// fixed seed at compile time, in pgx's layout (two 31-bit words a key; the start
// hash one more key, as pgx's INIT_ZOBRIST_HASH is not its start position's hash
// under its keys either). A game's hashes are compared only with each other (and
// with pgx's zero for unused slots), and which of them are equal depends only on
// the keys each move XORs in, so repetitions are pgx's exactly, but for a hash
// collision that one of the two has and the other not (about 2^-62 a comparison).
// The hash values, and so the state bytes, differ from pgx's.
// The first player is drawn with probability 1/2 each (pgx: jax.random.bernoulli);
// nothing else is random.
// Observation: pgx's 5 x 5 x 115 float32 planes per player: 8 positions of
// history (that player's pieces, the opponent's, repetition 0 / >= 1), the
// player's color, steps / 256 and halfmoves / 100.
// Illegal actions: pgx's _step runs on any label and its board after it shows
// in the observation, so play_illegal follows it literally, out-of-range
// indices included (JAX wraps negative indices and clamps gathers, e.g. a label
// whose target is off the board lands on square 24).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kActions = 25 * 49;
constexpr int kPlanes = 115;
constexpr int kMaxSteps = 256;       // pgx's MAX_TERMINATION_STEPS
constexpr int kHashSlots = kMaxSteps + 1;
constexpr std::array<std::int8_t, 25> kInitBoard = {4, 1, 0, -1, -4, 2, 1, 0, -1, -2, 3, 1, 0, -1, -3,
                                                    5, 1, 0, -1, -5, 6, 1, 0, -1, -6};
enum : std::int8_t { kEmpty = 0, kPawn = 1, kKnight = 2, kBishop = 3, kRook = 4, kQueen = 5, kKing = 6 };

// rlpool's zobrist keys (not pgx's): a splitmix64 sequence from a fixed seed, each key's two
// 32-bit words cut to 31 bits as pgx's are, a key being low | high << 32.
struct ZobristKeys {
  std::uint64_t side = 0;
  std::uint64_t init = 0;                         // the hash of the start position (step 0)
  std::array<std::uint64_t, 25 * 13> board{};     // [square (white's view)][piece + 6 (white positive)]
};

constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys k{};
  std::uint64_t x = 0x726c'706f'6f6c'4743ULL;  // "rlpoolGC"
  auto next = [&x] { return pgx_hash_key(x); };
  k.side = next();
  k.init = next();
  for (auto& v : k.board) v = next();
  return k;
}
constexpr ZobristKeys kZobrist = make_zobrist_keys();

// All keys nonzero and distinct (a check of the generator, at compile time).
constexpr bool keys_distinct() {
  std::array<std::uint64_t, 25 * 13 + 2> all{};
  all[0] = kZobrist.side;
  all[1] = kZobrist.init;
  for (int i = 0; i < 25 * 13; ++i) all[i + 2] = kZobrist.board[i];
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] == 0) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (all[i] == all[j]) return false;
    }
  }
  return true;
}
static_assert(keys_distinct());

struct Maps {
  std::array<std::array<std::int8_t, 49>, 25> to{};     // pgx's TO_MAP: the target of (from, plane), -1 if none
  std::array<std::array<std::int8_t, 25>, 25> plane{};  // pgx's PLANE_MAP (queen-like and knight moves)
};

constexpr Maps make_maps() {
  Maps m{};
  for (auto& row : m.to) row.fill(-1);
  for (auto& row : m.plane) row.fill(-1);
  constexpr std::array<int, 3> kUnder = {+1, +6, -4};  // forward, right, left (in squares)
  for (int from = 0; from < 25; ++from) {
    if (from % 5 != 3) continue;
    for (int p = 0; p < 9; ++p) {
      const int to = from + kUnder[p % 3];
      if (to >= 0 && to < 25) m.to[from][p] = static_cast<std::int8_t>(to);
    }
  }
  constexpr std::array<int, 40> dr = {-4, -3, -2, -1, 1,  2,  3,  4,  0,  0,  0,  0,  0,  0,  0,  0,  -4, -3, -2, -1,
                                      1,  2,  3,  4,  4,  3,  2,  1,  -1, -2, -3, -4, -1, +1, -2, +2, -1, +1, -2, +2};
  constexpr std::array<int, 40> dc = {0,  0,  0,  0,  0,  0,  0,  0,  -4, -3, -2, -1, +1, +2, +3, +4, -4, -3, -2, -1,
                                      +1, +2, +3, +4, -4, -3, -2, -1, +1, +2, +3, +4, -2, -2, -1, -1, +2, +2, +1, +1};
  for (int from = 0; from < 25; ++from) {
    for (int p = 9; p < 49; ++p) {
      const int r = from % 5 + dr[p - 9], c = from / 5 + dc[p - 9];
      if (r < 0 || r >= 5 || c < 0 || c >= 5) continue;
      m.to[from][p] = static_cast<std::int8_t>(c * 5 + r);
      m.plane[from][c * 5 + r] = static_cast<std::int8_t>(p);
    }
  }
  return m;
}
constexpr Maps kMaps = make_maps();

constexpr int flip_pos(int x) { return x / 5 * 5 + 4 - x % 5; }

constexpr std::array<std::array<int, 2>, 8> kKnightSteps = {{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};
constexpr std::array<std::array<int, 2>, 8> kKingSteps = {{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};  // (dc, dr); even: orthogonal

constexpr bool on_board(int c, int r) { return c >= 0 && c < 5 && r >= 0 && r < 5; }

// pgx's _is_attacking from the side to move's view: can the opponent (negative
// pieces) move to `pos` by its pseudo-legal rules? (For a square holding the
// mover's piece this is the usual attack; pgx asks it of the king's square.)
bool attacked(const std::array<std::int8_t, 25>& b, int pos) {
  const int v = b[pos];
  if (v < 0) return false;
  const int c0 = pos / 5, r0 = pos % 5;
  for (const auto& s : kKnightSteps) {
    const int c = c0 + s[0], r = r0 + s[1];
    if (on_board(c, r) && b[c * 5 + r] == -kKnight) return true;
  }
  // The opponent's pawns move down the ranks: forward onto an empty square, diagonally onto a piece.
  if (r0 + 1 < 5) {
    if (v == 0 && b[c0 * 5 + r0 + 1] == -kPawn) return true;
    if (v > 0 && c0 > 0 && b[(c0 - 1) * 5 + r0 + 1] == -kPawn) return true;
    if (v > 0 && c0 < 4 && b[(c0 + 1) * 5 + r0 + 1] == -kPawn) return true;
  }
  for (int d = 0; d < 8; ++d) {
    const int dc = kKingSteps[d][0], dr = kKingSteps[d][1];
    const int slider = d % 2 == 0 ? -kRook : -kBishop;
    int c = c0 + dc, r = r0 + dr;
    if (on_board(c, r) && b[c * 5 + r] == -kKing) return true;
    for (; on_board(c, r); c += dc, r += dr) {
      const int p = b[c * 5 + r];
      if (p == 0) continue;
      if (p == slider || p == -kQueen) return true;
      break;
    }
  }
  return false;
}

// pgx's king square for the check test: argmin |board - KING| in the order of the flipped board.
int king_square(const std::array<std::int8_t, 25>& b) {
  int best = -1, best_d = 100;
  for (int j = 0; j < 25; ++j) {
    const int pos = flip_pos(j);
    const int d = std::abs(b[pos] - kKing);
    if (d < best_d) best = pos, best_d = d;
  }
  return best;
}

class GardnerChess final : public PgxEnv {
 public:
  explicit GardnerChess(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kActions, .obs_dtype = DType::kFloat32, .obs_shape = {5, 5, kPlanes}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    s_.hashes[0] = kZobrist.init;
    s_.board = kInitBoard;
    s_.history[0] = kInitBoard;
    current_player_ = draw_first_player(rng);
    recount_reps();
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const int rep = apply(action);
    const bool has_legal = generate<true>(nullptr);
    terminated_ = !has_legal || s_.halfmove >= 100 || insufficient() || rep >= 2;
    if (!has_legal && attacked(s_.board, king_square(s_.board))) set_winner(mover);  // checkmate
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
    // The planes that are the same on every square (repetitions, color, counters) into the first
    // square, copied to the others; then each square's pieces.
    std::memset(out, 0, cell_bytes_);
    for (int i = 0; i < 8; ++i) out[i * 14 + 12 + (reps_[i] >= 1 ? 1 : 0)] = 1.0f;
    out[112] = static_cast<float>(color);
    out[113] = static_cast<float>(s_.step_count) / static_cast<float>(kMaxSteps);
    // XLA turns pgx's `/ 100.0` into a product with the float32 reciprocal: do the same, bit for bit.
    out[114] = static_cast<float>(s_.halfmove) * (1.0f / 100.0f);
    for (int n = 1; n < 25; n *= 2) std::memcpy(out + n * kPlanes, out, std::min(n, 25 - n) * cell_bytes_);
    for (int i = 0; i < 8; ++i) {
      const auto& h = s_.history[i];  // white's view
      for (int sq = 0; sq < 25; ++sq) {
        const int v = color == 0 ? h[sq] : -h[flip_pos(sq)];
        if (v == 0) continue;
        // pgx rotates the board (rot90): square x * 5 + r shows at row 4 - r, column x.
        float* cell = out + ((4 - sq % 5) * 5 + sq / 5) * kPlanes;
        cell[i * 14 + (v > 0 ? v - 1 : 5 - v)] = 1.0f;
      }
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    auto check_board = [](const std::array<std::int8_t, 25>& b, const char* name) {
      for (auto v : b) {
        if (v < -kKing || v > kKing) {
          throw std::invalid_argument(std::string("state's ") + name + " holds " + std::to_string(v) + ", expected -6..6");
        }
      }
    };
    check_board(s.board, "board");
    for (const auto& h : s.history) check_board(h, "board history");
    if (s.turn > 1) throw std::invalid_argument("state's turn is " + std::to_string(s.turn) + ", expected 0 or 1");
    check_range(s.step_count, 0, kMaxStepCount, "step count");
    check_range(s.halfmove, 0, kMaxStepCount, "halfmove count");
    for (auto u : s.unused) {
      if (u != 0) throw std::invalid_argument("state's unused bytes are not zero");
    }
    s_ = s;
    recount_reps();
  }

 private:
  static constexpr std::int32_t kMaxStepCount = 1 << 24;

  struct State {
    // pgx's _hash_history as a ring: the hash after step k in slot k % 257 (pgx keeps the
    // last 257, newest first), unused slots 0 as in pgx.
    std::array<std::uint64_t, kHashSlots> hashes{};
    std::int32_t step_count = 0;
    std::int32_t halfmove = 0;  // pgx's _halfmove_count
    std::array<std::array<std::int8_t, 25>, 8> history{};  // pgx's _board_history (newest first) in white's view
    std::array<std::int8_t, 25> board{};                   // pgx's _board: the side to move's view
    std::uint8_t turn = 0;                                 // pgx's _turn: 0 white, 1 black to move
    std::array<std::uint8_t, 6> unused{};
  };
  static_assert(sizeof(State) == kHashSlots * 8 + 8 + 200 + 25 + 1 + 6);

  std::uint64_t frame_hash(int i) const {
    const int slot = ((s_.step_count - i) % kHashSlots + kHashSlots) % kHashSlots;
    return s_.hashes[slot];
  }
  int count(std::uint64_t h) const {
    int n = 0;
    for (auto x : s_.hashes) n += x == h;
    return n;
  }
  // pgx's repetition count of each history position (the observation's planes).
  void recount_reps() {
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t h = frame_hash(i);
      reps_[i] = h == 0 ? 0 : count(h) - 1;
    }
  }

  // pgx's _step up to the legal mask, literally (any label): hash, move, flip, history.
  // Returns the new position's repetition count.
  int apply(int action) {
    auto& b = s_.board;
    ++s_.step_count;
    const int from = action / 49, plane = action % 49;
    const int to = kMaps.to[from][plane];
    const int under = plane < 9 ? plane / 3 : -1;
    const int to_ix = to < 0 ? to + 25 : to;  // JAX wraps -1 to the last square
    const bool white = s_.turn == 0;
    // _update_zobrist_hash
    std::uint64_t h = s_.hashes[(s_.step_count - 1) % kHashSlots];
    int src = white ? b[from] + 6 : -b[from] + 6;
    const int dst = white ? b[to_ix] + 6 : -b[to_ix] + 6;
    const int zfrom = white ? from : flip_pos(from);
    const int zto = !white && to >= 0 ? flip_pos(to) : to_ix;
    h ^= kZobrist.board[zfrom * 13 + src] ^ kZobrist.board[zfrom * 13 + 6] ^ kZobrist.board[zto * 13 + dst];
    if (under >= 0) {
      src = white ? src + 3 - under : src - (3 - under);
      if (src < 0) src += 13;  // JAX wraps a negative index, then clamps
      src = std::clamp(src, 0, 12);
    }
    h ^= kZobrist.board[zto * 13 + src] ^ kZobrist.side;
    // _apply_move
    int piece = b[from];
    s_.halfmove = (b[to_ix] < 0 || piece == kPawn) ? 0 : s_.halfmove + 1;
    // pgx's `piece == PAWN & (from % 5 == 3) & (underpromotion < 0)` compares with 1 or 0.
    if (piece == ((from % 5 == 3 && under < 0) ? 1 : 0)) piece = kQueen;
    if (under >= 0) piece = std::array<int, 3>{kRook, kBishop, kKnight}[under];
    b[from] = kEmpty;
    b[to_ix] = static_cast<std::int8_t>(piece);
    // _flip
    std::array<std::int8_t, 25> flipped{};
    for (int i = 0; i < 25; ++i) flipped[i] = static_cast<std::int8_t>(-b[flip_pos(i)]);
    b = flipped;
    s_.turn ^= 1;
    current_player_ = 1 - current_player_;
    // _update_history
    std::memmove(&s_.history[1], &s_.history[0], 7 * sizeof(s_.history[0]));
    for (int i = 0; i < 25; ++i) s_.history[0][i] = s_.turn == 0 ? b[i] : static_cast<std::int8_t>(-b[flip_pos(i)]);
    s_.hashes[s_.step_count % kHashSlots] = h;
    const int rep = count(h) - 1;
    if (s_.step_count >= kHashSlots) {
      recount_reps();
    } else {
      for (int i = 7; i > 0; --i) reps_[i] = reps_[i - 1] + (h != 0 && frame_hash(i) == h ? 1 : 0);
      reps_[0] = h == 0 ? 0 : rep;
    }
    return rep;
  }

  bool insufficient() const {
    int pieces = 0, heavy = -2, bishops = 0, dark_bishops = 0;
    for (int i = 0; i < 25; ++i) {
      const int a = std::abs(s_.board[i]);
      pieces += a != 0;
      heavy += a >= kRook || a == kPawn;
      bishops += a == kBishop;
      dark_bishops += a == kBishop && i % 2 == 0;
    }
    return pieces <= 2 || (pieces == 3 && heavy == 0) ||
           (pieces == bishops + 2 && (dark_bishops == bishops || dark_bishops == 0));
  }

  // The legal moves of the side to move (pgx's _legal_action_mask): into `mask`, or,
  // with kAny, only whether there is one.
  template <bool kAny>
  bool generate(bool* mask) const {
    auto b = s_.board;
    const int king = king_square(b);
    // With the king where argmin finds it and not in check, a move from a square off every line
    // through the king cannot expose it (only sliders attack along lines; a capture only removes).
    const bool safe_unless_aligned = b[king] == kKing && !attacked(b, king);
    auto consider = [&](int from, int to, int piece) {
      const int dc = from / 5 - king / 5, dr = from % 5 - king % 5;
      const bool aligned = dc == 0 || dr == 0 || dc == dr || dc == -dr;
      bool ok = true;
      if (!safe_unless_aligned || from == king || aligned) {
        const std::int8_t taken = b[to];
        b[from] = kEmpty;
        b[to] = static_cast<std::int8_t>(piece == kPawn && from % 5 == 3 ? kQueen : piece);
        ok = !attacked(b, piece == kKing && from == king ? to : king);
        b[to] = taken;
        b[from] = static_cast<std::int8_t>(piece);
      }
      if (!ok) return false;
      if constexpr (!kAny) {
        mask[from * 49 + kMaps.plane[from][to]] = true;
        if (piece == kPawn && from % 5 == 3) {
          const int dir = to - from == 1 ? 0 : to - from == 6 ? 1 : 2;
          for (int k = 0; k < 3; ++k) mask[from * 49 + k * 3 + dir] = true;
        }
      }
      return true;
    };
    for (int from = 0; from < 25; ++from) {
      const int piece = b[from];
      if (piece <= 0) continue;
      const int c0 = from / 5, r0 = from % 5;
      bool found = false;
      if (piece == kPawn) {
        if (r0 + 1 < 5) {
          if (b[from + 1] == 0) found |= consider(from, from + 1, piece);
          if (c0 > 0 && b[from - 4] < 0) found |= consider(from, from - 4, piece);
          if (c0 < 4 && b[from + 6] < 0) found |= consider(from, from + 6, piece);
        }
      } else if (piece == kKnight || piece == kKing) {
        for (const auto& s : piece == kKnight ? kKnightSteps : kKingSteps) {
          const int c = c0 + s[0], r = r0 + s[1];
          if (on_board(c, r) && b[c * 5 + r] <= 0) found |= consider(from, c * 5 + r, piece);
        }
      } else {
        for (int d = 0; d < 8; ++d) {
          if ((d % 2 == 0 && piece == kBishop) || (d % 2 == 1 && piece == kRook)) continue;
          for (int c = c0 + kKingSteps[d][0], r = r0 + kKingSteps[d][1]; on_board(c, r);
               c += kKingSteps[d][0], r += kKingSteps[d][1]) {
            const int v = b[c * 5 + r];
            if (v > 0) break;
            found |= consider(from, c * 5 + r, piece);
            if (v < 0) break;
          }
        }
      }
      if (kAny && found) return true;
    }
    return false;
  }

  State s_;
  std::array<int, 8> reps_{};  // from s_: the repetition count of history position i
  // sizeof one square's planes, as a variable: a memcpy or memset of a size known at compile time
  // becomes `rep movs`/`rep stos`, several times slower than the library's vector code at this size.
  std::size_t cell_bytes_ = kPlanes * sizeof(float);
};

const bool registered = register_game<GardnerChess>("GardnerChess");

}  // namespace

}  // namespace rlpool::pgx

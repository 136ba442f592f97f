// Chess, as pgx 2.6.0 plays it (pgx/chess.py, pgx/_src/games/chess.py).
//
// The state is pgx's: the board from the side to move's view (pgx's square
// index file * 8 + rank, a1 = 0, a2 = 1, ..., h8 = 63; the mover's pieces
// positive: pawn 1 .. king 6, the opponent's negative), flipped (ranks
// mirrored, signs negated) after every move, with the castling rights and the
// en-passant square in the same view. An action is pgx's AlphaZero label
// from * 73 + plane (planes 0..8 underpromotions to rook/bishop/knight straight,
// right, left; 9..72 queen-like and knight moves in pgx's order; a pawn
// reaching the last rank by a queen-like plane becomes a queen). The
// observation is pgx's float32 8 x 8 x 119 planes for each player from that
// player's side: 8 boards of history (6 own pieces, 6 the opponent's, then
// rep == 0 and rep >= 1, rep counting the other rows of pgx's 513-row Zobrist
// hash history equal to that board's row), the player's colour, step count /
// 512, castling rights (own queen/king side, the opponent's) and halfmove
// clock / 100 (as XLA computes it: times 0.01f). A game ends on checkmate
// (+1/-1) or, drawn (0/0), on stalemate, 100 halfmoves without a capture or
// pawn move, pgx's (OpenSpiel's) insufficient material, a position's third
// occurrence by Zobrist hashes computed as pgx's are (its first row is pgx's
// INIT_ZOBRIST_HASH, which is not the start position's hash, so the start
// position never counts as repeated), or step 512.
// The hash keys are rlpool's own, not pgx's (jax.random draws): splitmix64 from
// a fixed seed at compile time, in pgx's layout (two 31-bit words a key; the
// first history row one more key, as INIT_ZOBRIST_HASH is not a position's
// hash under pgx's keys either). A game's hashes are compared only with each
// other (and with pgx's zero for unused rows), and which of them are equal
// depends only on the keys each position XORs in, so repetitions are pgx's
// exactly, but for a hash collision that one of the two has and the other not
// (about 2^-62 a comparison). The hash values, and so the state bytes, differ
// from pgx's.
//
// The first player (white) is drawn as pgx does, a fair coin
// (jax.random.bernoulli), with rng.integer(2); there is no other chance.
//
// Moves come from bitboards with check and pin detection; a make-and-test path
// with pgx's own rule (the "king" is the first square of the highest value)
// covers boards without exactly one king of the mover, which only illegal
// moves or a made-up state give. pgx's quirks are kept: the pseudo-legal moves
// are cut at the first 200 (pgx's fixed size; a position with 218 loses 18)
// and only the first 16 of the mover's pieces move; the en-passant square is
// set after every double step. An illegal action is played as pgx's _step
// plays it, its index arithmetic included (a plane that leads off the board
// moves the piece to h8, as JAX's index -1 does), before the penalty ends the
// game. Not ported: pgx's fullmove_count (nothing shows it), and en passant in
// a live position whose en-passant square is off the sixth rank (legal play
// and FEN never make one; such a square offers no capture here).
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

using Bits = std::uint64_t;

enum : int { kEmpty = 0, kPawn = 1, kKnight = 2, kBishop = 3, kRook = 4, kQueen = 5, kKing = 6 };
constexpr int kMaxSteps = 512;          // pgx's MAX_TERMINATION_STEPS
constexpr int kHashRows = kMaxSteps + 1;  // pgx's hash_history rows
constexpr int kNumActions = 64 * 73;
constexpr int kChannels = 119;
constexpr int kMaxMoves = 512;  // more than any position's legal labels (<= 200 + 2 castlings + 72 underpromotions)
constexpr int kQueenSideCastle = 32 * 73 + 28;  // e1 -> c1
constexpr int kKingSideCastle = 32 * 73 + 31;   // e1 -> g1

constexpr Bits bit(int sq) { return Bits{1} << sq; }
constexpr Bits kRank0 = 0x0101010101010101ULL;
constexpr Bits kRank7 = kRank0 << 7;

// rlpool's Zobrist keys (not pgx's, which jax.random draws): a splitmix64 sequence from a fixed seed,
// made at compile time, in pgx's layout (two 31-bit words a key, packed as low | high << 32, as pgx's
// randint(0, 2**31 - 1) words are 31 bits): the side to move, the first hash history row (pgx's
// INIT_ZOBRIST_HASH, a key of its own), the board [square][piece + 6], castling [4], en passant [65].
struct ZobristKeys {
  std::uint64_t side = 0;
  std::uint64_t init = 0;
  std::array<std::uint64_t, 64 * 13> board{};
  std::array<std::uint64_t, 4> castling{};
  std::array<std::uint64_t, 65> en_passant{};  // [64]: none (pgx's index -1)
};

constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys k{};
  std::uint64_t x = 0x726c'706f'6f6c'4348ULL;  // "rlpoolCH"
  auto next = [&x] { return pgx_hash_key(x); };
  k.side = next();
  k.init = next();
  for (auto& v : k.board) v = next();
  for (auto& v : k.castling) v = next();
  for (auto& v : k.en_passant) v = next();
  return k;
}
constexpr ZobristKeys kZobrist = make_zobrist_keys();
constexpr std::uint64_t kInitHash = kZobrist.init;

// All keys nonzero and distinct (a check of the generator, at compile time: sorted, then neighbours compared).
constexpr bool keys_distinct() {
  constexpr std::size_t kCount = 2 + 64 * 13 + 4 + 65;
  std::array<std::uint64_t, kCount> all{};
  std::size_t n = 0;
  all[n++] = kZobrist.side;
  all[n++] = kZobrist.init;
  for (auto v : kZobrist.board) all[n++] = v;
  for (auto v : kZobrist.castling) all[n++] = v;
  for (auto v : kZobrist.en_passant) all[n++] = v;
  std::sort(all.begin(), all.end());
  if (all[0] == 0) return false;
  for (std::size_t i = 1; i < kCount; ++i) {
    if (all[i] == all[i - 1]) return false;
  }
  return n == kCount;
}
static_assert(keys_distinct());

// Directions on pgx's squares (file * 8 + rank): the first four step to higher
// squares, the last four to lower ones.
constexpr std::array<int, 8> kDirFile = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr std::array<int, 8> kDirRank = {1, 0, 1, -1, -1, 0, -1, 1};
constexpr bool orthogonal(int d) { return kDirFile[d] == 0 || kDirRank[d] == 0; }

struct Tables {
  std::array<std::array<std::int8_t, 73>, 64> from_plane{};  // pgx's FROM_PLANE: the destination, or -1
  std::array<std::array<std::int8_t, 64>, 64> to_plane{};    // pgx's TO_PLANE: the plane, or -1
  std::array<Bits, 64> knight{}, king{}, pawn{};             // pawn: where the mover's pawn captures (up a rank)
  std::array<std::array<Bits, 64>, 8> ray{};                 // the squares from a square to the edge, by direction
  std::array<std::array<Bits, 64>, 64> between{};            // the squares strictly between two on a line
};

constexpr Tables make_tables() {
  Tables t;
  // pgx's planes 9..72: rank and file steps (dr, dc in pgx), in pgx's order.
  std::array<int, 64> dr{}, df{};
  int n = 0;
  for (int i = -7; i <= -1; ++i) dr[n] = i, df[n++] = 0;  // down
  for (int i = 1; i <= 7; ++i) dr[n] = i, df[n++] = 0;    // up
  for (int i = -7; i <= -1; ++i) dr[n] = 0, df[n++] = i;  // left
  for (int i = 1; i <= 7; ++i) dr[n] = 0, df[n++] = i;    // right
  for (int i = -7; i <= -1; ++i) dr[n] = i, df[n++] = i;  // down-left
  for (int i = 1; i <= 7; ++i) dr[n] = i, df[n++] = i;    // up-right
  for (int i = 7; i >= 1; --i) dr[n] = i, df[n++] = -i;   // up-left
  for (int i = -1; i >= -7; --i) dr[n] = i, df[n++] = -i;  // down-right
  constexpr std::array<int, 8> kr = {-1, 1, -2, 2, -1, 1, -2, 2}, kf = {-2, -2, -1, -1, 2, 2, 1, 1};
  for (int i = 0; i < 8; ++i) dr[n] = kr[i], df[n++] = kf[i];
  for (auto& row : t.to_plane) row.fill(-1);
  for (int from = 0; from < 64; ++from) {
    const int f = from / 8, r = from % 8;
    for (int plane = 0; plane < 73; ++plane) {
      int to = -1;
      if (plane < 9) {
        if (r == 6) {
          constexpr std::array<int, 3> step = {1, 9, -7};
          to = from + step[plane % 3];
          if (to >= 64 || to < 0) to = -1;
        }
      } else {
        const int r1 = r + dr[plane - 9], f1 = f + df[plane - 9];
        if (r1 >= 0 && r1 < 8 && f1 >= 0 && f1 < 8) {
          to = f1 * 8 + r1;
          t.to_plane[from][to] = static_cast<std::int8_t>(plane);
        }
      }
      t.from_plane[from][plane] = static_cast<std::int8_t>(to);
    }
    auto on = [](int ff, int rr) { return ff >= 0 && ff < 8 && rr >= 0 && rr < 8; };
    constexpr std::array<int, 8> nf = {1, 2, 2, 1, -1, -2, -2, -1}, nr = {2, 1, -1, -2, -2, -1, 1, 2};
    for (int i = 0; i < 8; ++i) {
      if (on(f + nf[i], r + nr[i])) t.knight[from] |= bit((f + nf[i]) * 8 + r + nr[i]);
      if (on(f + kDirFile[i], r + kDirRank[i])) t.king[from] |= bit((f + kDirFile[i]) * 8 + r + kDirRank[i]);
    }
    for (int d : {-1, 1}) {
      if (on(f + d, r + 1)) t.pawn[from] |= bit((f + d) * 8 + r + 1);
    }
    for (int d = 0; d < 8; ++d) {
      Bits line = 0;
      for (int ff = f + kDirFile[d], rr = r + kDirRank[d]; on(ff, rr); ff += kDirFile[d], rr += kDirRank[d]) {
        t.between[from][ff * 8 + rr] = line;
        line |= bit(ff * 8 + rr);
      }
      t.ray[d][from] = line;
    }
  }
  return t;
}

constexpr Tables kTables = make_tables();

// The first square of `b` (non-empty) seen from a square in direction d.
inline int first(int d, Bits b) { return d < 4 ? std::countr_zero(b) : 63 - std::countl_zero(b); }

inline Bits ray_attacks(int d, int sq, Bits occ) {
  Bits r = kTables.ray[d][sq];
  const Bits blockers = r & occ;
  if (blockers != 0) r ^= kTables.ray[d][first(d, blockers)];
  return r;
}
inline Bits rook_attacks(int sq, Bits occ) {
  return ray_attacks(0, sq, occ) | ray_attacks(1, sq, occ) | ray_attacks(4, sq, occ) | ray_attacks(5, sq, occ);
}
inline Bits bishop_attacks(int sq, Bits occ) {
  return ray_attacks(2, sq, occ) | ray_attacks(3, sq, occ) | ray_attacks(6, sq, occ) | ray_attacks(7, sq, occ);
}

using Board = std::array<std::int8_t, 64>;
using Float4 = float __attribute__((vector_size(16), aligned(4), may_alias));  // GCC and Clang's vector of 4

// A board's pieces as bitboards: by[v + 6] holds the squares of value v.
struct Bitboards {
  std::array<Bits, 13> by{};
  Bits ours = 0, theirs = 0, occ = 0;

  explicit Bitboards(const Board& board) {
    for (int sq = 0; sq < 64; ++sq) by[board[sq] + 6] |= bit(sq);
    ours = by[7] | by[8] | by[9] | by[10] | by[11] | by[12];
    theirs = by[0] | by[1] | by[2] | by[3] | by[4] | by[5];
    occ = ours | theirs;
  }
  Bits mine(int piece) const { return by[6 + piece]; }
  Bits opp(int piece) const { return by[6 - piece]; }

  // The opponent's pieces that attack `sq` (pgx's _is_attacked), with `occ` the occupied squares.
  Bits attackers(int sq, Bits occupied) const {
    return (kTables.pawn[sq] & opp(kPawn)) | (kTables.knight[sq] & opp(kKnight)) | (kTables.king[sq] & opp(kKing)) |
           (bishop_attacks(sq, occupied) & (opp(kBishop) | opp(kQueen))) |
           (rook_attacks(sq, occupied) & (opp(kRook) | opp(kQueen)));
  }
  // Every square the opponent attacks, with `occupied` the occupied squares.
  Bits attacked(Bits occupied) const {
    const Bits pawns = opp(kPawn);
    Bits a = ((pawns >> 9) & ~kRank7) | ((pawns << 7) & ~kRank7);
    for (Bits b = opp(kKnight); b != 0; b &= b - 1) a |= kTables.knight[std::countr_zero(b)];
    for (Bits b = opp(kKing); b != 0; b &= b - 1) a |= kTables.king[std::countr_zero(b)];
    for (Bits b = opp(kBishop) | opp(kQueen); b != 0; b &= b - 1) a |= bishop_attacks(std::countr_zero(b), occupied);
    for (Bits b = opp(kRook) | opp(kQueen); b != 0; b &= b - 1) a |= rook_attacks(std::countr_zero(b), occupied);
    return a;
  }
  // pgx's destinations of the mover's piece `piece` on `from`, before checks (its LEGAL_DEST filters).
  Bits pseudo_moves(int from, int piece) const {
    switch (piece) {
      case kPawn: {
        Bits t = kTables.pawn[from] & theirs;
        const int rank = from & 7;
        if (rank < 7 && (occ & bit(from + 1)) == 0) {
          t |= bit(from + 1);
          if (rank == 1 && (occ & bit(from + 2)) == 0) t |= bit(from + 2);
        }
        return t;
      }
      case kKnight:
        return kTables.knight[from] & ~ours;
      case kBishop:
        return bishop_attacks(from, occ) & ~ours;
      case kRook:
        return rook_attacks(from, occ) & ~ours;
      case kQueen:
        return (bishop_attacks(from, occ) | rook_attacks(from, occ)) & ~ours;
      default:
        return kTables.king[from] & ~ours;
    }
  }
};

// `b` without its highest set bits, down to `keep` bits.
inline Bits lowest_bits(Bits b, int keep) {
  Bits out = 0;
  for (int i = 0; i < keep && b != 0; ++i, b &= b - 1) out |= b & (~b + 1);
  return out;
}

inline int wrap(int sq) { return sq < 0 ? sq + 64 : sq; }  // JAX's negative index

// A rank-mirrored board with the signs swapped: the other side's view (pgx's _flip).
inline void flip_board(Board& b) {
  for (int f = 0; f < 8; ++f) {
    for (int r = 0; r < 4; ++r) std::swap(b[f * 8 + r], b[f * 8 + 7 - r]);
  }
  for (auto& v : b) v = static_cast<std::int8_t>(-v);
}
inline int flip_square(int sq) { return sq < 0 ? sq : (sq / 8) * 8 + 7 - sq % 8; }

// pgx's first square of the highest value: argmin |board - KING|, the mover's king where there is one.
inline int king_square(const Board& b) {
  return static_cast<int>(std::max_element(b.begin(), b.end()) - b.begin());
}

class Chess final : public PgxEnv {
 public:
  explicit Chess(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kNumActions, .obs_dtype = DType::kFloat32, .obs_shape = {8, 8, kChannels}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    for (int f = 0; f < 8; ++f) {
      constexpr std::array<std::int8_t, 8> kBack = {kRook, kKnight, kBishop, kQueen, kKing, kBishop, kKnight, kRook};
      s_.board[f * 8 + 0] = kBack[f];
      s_.board[f * 8 + 1] = kPawn;
      s_.board[f * 8 + 6] = -kPawn;
      s_.board[f * 8 + 7] = static_cast<std::int8_t>(-kBack[f]);
    }
    s_.boards[0] = s_.board;
    s_.castling = {1, 1, 1, 1};
    s_.hashes[0] = kInitHash;  // pgx's INIT_ZOBRIST_HASH (here a key of its own), not the initial position's hash
    s_.swap = static_cast<std::uint8_t>(draw_first_player(rng));  // pgx: _player_order[bernoulli(key)]
    current_player_ = s_.swap;  // white's player
    reps_ = {1, 0, 0, 0, 0, 0, 0, 0};
    filled_ = 1;
    for (int slot = 0; slot < 8; ++slot) index_board(slot);
    refresh();
  }

  void play(int action, Rng& /*rng*/) override {
    advance(action);
    const bool mated = n_moves_ == 0 && in_check_;  // the player to move now
    const bool third_time = reps_[0] - 1 >= 2;
    terminated_ = n_moves_ == 0 || s_.halfmove >= 100 || insufficient() || third_time || s_.step_count >= kMaxSteps;
    if (mated) set_winner(1 - current_player_);
  }

  // pgx's _step runs on any label, the index arithmetic of an off-board plane included.
  void play_illegal(int action, Rng& /*rng*/) override { advance(action); }

  void legal_actions(bool* mask) const override {
    std::fill_n(mask, kNumActions, false);
    for (int i = 0; i < n_moves_; ++i) mask[moves_[i]] = true;
  }

  void observe(int player, void* dst) const override {
    const int color = color_of(player, s_.color);  // the observer's
    alignas(16) std::array<float, 120> plane{};  // one square's channels (and one spare)
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t h = s_.hashes[hash_slot(i)];
      const int rep = h == 0 ? 0 : reps_[i] - 1;
      plane[i * 14 + 12] = rep == 0 ? 1.0f : 0.0f;
      plane[i * 14 + 13] = rep >= 1 ? 1.0f : 0.0f;
    }
    plane[112] = static_cast<float>(color);
    plane[113] = static_cast<float>(s_.step_count) / static_cast<float>(kMaxSteps);
    const int own = color == s_.color ? 0 : 2;  // pgx's castling rights are the mover's first
    plane[114] = s_.castling[own];
    plane[115] = s_.castling[own + 1];
    plane[116] = s_.castling[2 - own];
    plane[117] = s_.castling[3 - own];
    plane[118] = static_cast<float>(s_.halfmove) * 0.01f;  // XLA divides by a constant as a multiply by its inverse
    auto* out = static_cast<float*>(dst);
    // Every square gets `plane` by 16-byte moves (GCC makes a copy of this size a slow `rep movs`).
    const auto* from = reinterpret_cast<const Float4*>(plane.data());
    for (int q = 0; q < 64; ++q) {
      float* o = out + q * kChannels;
      auto* to = reinterpret_cast<Float4*>(o);
#pragma GCC unroll 29
      for (int k = 0; k < 29; ++k) to[k] = from[k];
      o[116] = plane[116], o[117] = plane[117], o[118] = plane[118];
    }
    for (int i = 0; i < 8; ++i) {
      const Pieces& p = pieces_[(s_.board_head - i) & 7][color];
      float* o = out + i * 14;
      for (int k = 0; k < p.count; ++k) o[p.at[k]] = 1.0f;
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    auto bad = [](const std::string& what) { throw std::invalid_argument("state's " + what); };
    for (auto v : s.board) {
      if (v < -kKing || v > kKing) bad("board holds " + std::to_string(v) + ", expected -6..6");
    }
    for (const auto& b : s.boards) {
      for (auto v : b) {
        if (v < -kKing || v > kKing) bad("board history holds " + std::to_string(v) + ", expected -6..6");
      }
    }
    if (s.halfmove < 0 || s.halfmove > (1 << 30)) bad("halfmove count is " + std::to_string(s.halfmove));
    if (s.step_count < 0 || s.step_count > (1 << 30)) bad("step count is " + std::to_string(s.step_count));
    check_range(s.hash_head, 0, kHashRows - 1, "hash_head");
    for (auto c : s.castling) {
      if (c > 1) bad("castling rights hold " + std::to_string(c) + ", expected 0 or 1");
    }
    if (s.color < 0 || s.color > 1) bad("color is " + std::to_string(s.color) + ", expected 0 or 1");
    check_range(s.en_passant, -1, 63, "en_passant");
    check_range(s.board_head, 0, 7, "board_head");
    if (s.swap > 1) bad("swap is " + std::to_string(s.swap) + ", expected 0 or 1");
    for (auto u : s.unused) {
      if (u != 0) bad("unused bytes are not zero");
    }
    s_ = s;
    filled_ = kHashRows;
    while (filled_ > 0 && s_.hashes[hash_slot(filled_ - 1)] == 0) --filled_;
    for (int i = 0; i < 8; ++i) reps_[i] = count_hash(s_.hashes[hash_slot(i)]);
    for (int slot = 0; slot < 8; ++slot) index_board(slot);
    refresh();
  }

 private:
  // pgx's GameState, less fullmove_count and the legal mask (derived). No implicit padding.
  struct State {
    // pgx's hash_history and board_history (in white's view) as rings: row i at (head - i) mod 513 or 8.
    std::array<std::uint64_t, kHashRows> hashes{};
    std::array<Board, 8> boards{};
    Board board{};  // the mover's view
    std::int32_t halfmove = 0;
    std::int32_t step_count = 0;
    std::int32_t hash_head = 0;
    std::array<std::uint8_t, 4> castling{};  // the mover's queen/king side, the opponent's
    std::int8_t color = 0;                   // the mover's: 0 white, 1 black
    std::int8_t en_passant = -1;             // the mover's view, -1 none
    std::int8_t board_head = 0;
    std::uint8_t swap = 0;  // pgx's _player_order is [1, 0]: player 1 plays white
    std::array<std::uint8_t, 4> unused{};
  };
  static_assert(sizeof(State) == 8 * kHashRows + 8 * 64 + 64 + 3 * 4 + 4 + 4 + 4);

  int hash_slot(int row) const { return (s_.hash_head - row + kHashRows) % kHashRows; }

  // pgx's _zobrist_hash of the current state.
  std::uint64_t zobrist() const {
    std::uint64_t h = s_.color == 0 ? kZobrist.side : 0;
    for (int sq = 0; sq < 64; ++sq) h ^= kZobrist.board[sq * 13 + s_.board[sq] + 6];
    for (int i = 0; i < 4; ++i) h ^= s_.castling[i] ? kZobrist.castling[i] : 0;
    return h ^ kZobrist.en_passant[s_.en_passant < 0 ? 64 : s_.en_passant];
  }

  // The hash history rows equal to h: the newest `filled_` rows (the older ones are pgx's zero rows).
  int count_hash(std::uint64_t h) const {
    const int newest = s_.hash_head, oldest = newest - filled_ + 1;
    int c = 0;
    for (int k = std::max(oldest, 0); k <= newest; ++k) c += s_.hashes[k] == h;
    for (int k = oldest + kHashRows; k < kHashRows; ++k) c += s_.hashes[k] == h;  // wrapped around
    return c;
  }

  // pgx's _apply_move of label `action` on the mover's view.
  void apply_move(int action) {
    apply_move(s_.board, s_.en_passant, s_.castling, s_.halfmove, action);
  }
  static void apply_move(Board& board, std::int8_t& ep, std::array<std::uint8_t, 4>& castling, std::int32_t& halfmove,
                         int action) {
    const int from = action / 73, plane = action % 73;
    const int to = kTables.from_plane[from][plane];  // -1 off the board: JAX reads and writes h8 then
    const int under = plane < 9 ? plane / 3 : -1;
    int piece = board[from];
    if (ep >= 0 && piece == kPawn && ep == to) board[wrap(to - 1)] = kEmpty;
    const bool double_step = piece == kPawn && std::abs(to - from) == 2;
    ep = static_cast<std::int8_t>(double_step ? (to + from) / 2 : -1);
    const bool captured = board[wrap(to)] < 0 || double_step;
    halfmove = captured || piece == kPawn ? 0 : halfmove + 1;
    if (piece == kKing && from == 32 && to == 16) board[0] = kEmpty, board[24] = kRook;
    if (piece == kKing && from == 32 && to == 48) board[56] = kEmpty, board[40] = kRook;
    castling[0] &= from != 32 && from != 0;
    castling[1] &= from != 32 && from != 56;
    castling[2] &= to != 7;
    castling[3] &= to != 63;
    if (piece == kPawn && from % 8 == 6 && under < 0) piece = kQueen;
    if (under >= 0) piece = std::array<int, 3>{kRook, kBishop, kKnight}[under];
    board[from] = kEmpty;
    board[wrap(to)] = static_cast<std::int8_t>(piece);
  }

  // pgx's Game.step less the terminal test: the move, the other side's view, the history, the legal moves.
  void advance(int action) {
    apply_move(action);
    if (s_.color == 0) push_board();
    flip_board(s_.board);
    s_.color = static_cast<std::int8_t>(1 - s_.color);
    s_.en_passant = static_cast<std::int8_t>(flip_square(s_.en_passant));
    std::swap(s_.castling[0], s_.castling[2]);
    std::swap(s_.castling[1], s_.castling[3]);
    if (s_.color == 0) push_board();
    push_hash(zobrist());
    ++s_.step_count;
    current_player_ = s_.color ^ s_.swap;
    refresh();
  }

  void push_board() {
    s_.board_head = static_cast<std::int8_t>((s_.board_head + 1) & 7);
    s_.boards[s_.board_head] = s_.board;
    index_board(s_.board_head);
  }

  // Where a history board's pieces go in each colour's observation (before the row's 14-channel offset):
  // white sees rank 8 on row 0, black rank 1; own pieces first.
  void index_board(int slot) {
    const Board& b = s_.boards[slot];
    Pieces& white = pieces_[slot][0];
    Pieces& black = pieces_[slot][1];
    white.count = black.count = 0;
    for (int sq = 0; sq < 64; ++sq) {
      const int v = b[sq];
      if (v == 0) continue;
      const int rank = sq & 7, file = sq >> 3;
      const int white_at = ((7 - rank) * 8 + file) * kChannels + (v > 0 ? v - 1 : 5 - v);
      const int black_at = (rank * 8 + file) * kChannels + (v < 0 ? -v - 1 : 5 + v);
      white.at[white.count++] = static_cast<std::uint16_t>(white_at);
      black.at[black.count++] = static_cast<std::uint16_t>(black_at);
    }
  }

  // pgx rolls its hash history and counts, for each of the last 8 rows, the rows equal to it.
  void push_hash(std::uint64_t h) {
    const int head = (s_.hash_head + 1) % kHashRows;
    const std::uint64_t dropped = s_.hashes[head];
    for (int i = 0; i < 7; ++i) {
      if (dropped != 0 && s_.hashes[hash_slot(i)] == dropped) --reps_[i];
    }
    s_.hashes[head] = h;
    for (int i = 0; i < 7; ++i) reps_[i] += s_.hashes[hash_slot(i)] == h;
    for (int i = 7; i > 0; --i) reps_[i] = reps_[i - 1];
    s_.hash_head = head;
    filled_ = std::min(filled_ + 1, kHashRows);
    reps_[0] = count_hash(h);
  }

  // pgx's has_insufficient_pieces.
  bool insufficient() const {
    const Bits occ = bb_.occ;
    const int pieces = std::popcount(occ);
    const Bits bishops = bb_.mine(kBishop) | bb_.opp(kBishop);
    const int majors = std::popcount(occ & ~(bishops | bb_.mine(kKnight) | bb_.opp(kKnight))) - 2;  // kings, pawns too
    constexpr Bits kDark = 0xAA55AA55AA55AA55ULL;  // file + rank even
    const int num_bishops = std::popcount(bishops), on_dark = std::popcount(bishops & kDark);
    return pieces <= 2 || (pieces == 3 && majors == 0) ||
           (pieces == num_bishops + 2 && (on_dark == num_bishops || on_dark == 0));
  }

  void add(int label) {
    if (n_moves_ < kMaxMoves) moves_[n_moves_++] = static_cast<std::uint16_t>(label);
  }
  // The labels of the mover's piece on `from` going to `targets`, underpromotions included.
  void add_moves(int from, int piece, Bits targets) {
    for (; targets != 0; targets &= targets - 1) {
      const int to = std::countr_zero(targets);
      add(from * 73 + kTables.to_plane[from][to]);
      if (piece == kPawn && (from & 7) == 6) {
        const int dir = to - from == 1 ? 0 : to - from == 9 ? 1 : 2;
        for (int k = 0; k < 3; ++k) add(from * 73 + dir + 3 * k);
      }
    }
  }

  // The derived state: bitboards, legal moves (pgx's _legal_action_mask), check.
  void refresh() {
    bb_ = Bitboards(s_.board);
    n_moves_ = 0;
    if (std::popcount(bb_.mine(kKing)) == 1) {
      generate_fast();
    } else {
      generate_slow();
    }
    // Castling, as pgx allows it (rook and king on their squares, the path empty and not attacked).
    const auto& b = s_.board;
    auto safe = [&](int sq) { return bb_.attackers(sq, bb_.occ) == 0; };
    if (s_.castling[0] && b[0] == kRook && b[8] == kEmpty && b[16] == kEmpty && b[24] == kEmpty && b[32] == kKing &&
        safe(16) && safe(24) && safe(32)) {
      add(kQueenSideCastle);
    }
    if (s_.castling[1] && b[32] == kKing && b[40] == kEmpty && b[48] == kEmpty && b[56] == kRook && safe(32) &&
        safe(40) && safe(48)) {
      add(kKingSideCastle);
    }
  }

  // pgx's pseudo-legal moves but en passant: the destinations of the first 16 of the mover's pieces,
  // cut at the first 200 in all (pgx's fixed size); visit(from, piece, destinations) for each of those
  // pieces. Returns what is left of the 200, for the en-passant captures.
  template <class Visit>
  int pseudo_legal_moves(Visit visit) const {
    int budget = 200;
    int pieces = 0;
    for (Bits b = bb_.ours; b != 0 && pieces < 16; b &= b - 1, ++pieces) {
      const int from = std::countr_zero(b);
      const int piece = s_.board[from];
      Bits t = bb_.pseudo_moves(from, piece);
      int n = std::popcount(t);
      if (n > budget) t = lowest_bits(t, budget), n = budget;
      budget -= n;
      visit(from, piece, t);
    }
    return budget;
  }

  // pgx's en-passant candidates (from ep - 9 and ep + 7), on a board where they make sense.
  template <class Legal>
  void en_passant_moves(int& budget, Legal legal) {
    const int ep = s_.en_passant;
    if (ep < 0 || (ep & 7) != 5 || s_.board[ep - 1] != -kPawn) return;
    for (int from : {ep - 9, ep + 7}) {
      if (from < 0 || from >= 64 || s_.board[from] != kPawn || budget == 0) continue;
      --budget;
      if (legal(from)) add(from * 73 + kTables.to_plane[from][ep]);
    }
  }

  // One king of the mover's: checks and pins.
  void generate_fast() {
    const Bitboards& bb = bb_;
    const int king = std::countr_zero(bb.mine(kKing));
    const Bits checkers = bb.attackers(king, bb.occ);
    in_check_ = checkers != 0;
    const Bits danger = bb.attacked(bb.occ ^ bit(king));
    Bits evasions = ~Bits{0};
    if (checkers != 0) {
      evasions = (checkers & (checkers - 1)) != 0 ? 0 : checkers | kTables.between[king][std::countr_zero(checkers)];
    }
    Bits pinned = 0;
    std::array<Bits, 64> pin_line;
    for (int d = 0; d < 8; ++d) {
      const Bits line = kTables.ray[d][king];
      const Bits blockers = line & bb.occ;
      if (blockers == 0) continue;
      const int s1 = first(d, blockers);
      if ((bb.ours & bit(s1)) == 0) continue;
      const Bits beyond = kTables.ray[d][s1] & bb.occ;
      if (beyond == 0) continue;
      const Bits sliders = bb.opp(kQueen) | (orthogonal(d) ? bb.opp(kRook) : bb.opp(kBishop));
      if (sliders & bit(first(d, beyond))) {
        pinned |= bit(s1);
        pin_line[s1] = line;
      }
    }
    int budget = pseudo_legal_moves([&](int from, int piece, Bits t) {
      if (piece == kKing) {
        t &= ~danger;
      } else {
        t &= evasions;
        if (pinned & bit(from)) t &= pin_line[from];
      }
      add_moves(from, piece, t);
    });
    const int ep = s_.en_passant;
    en_passant_moves(budget, [&](int from) {
      const Bits occ = bb.occ ^ bit(from) ^ bit(ep) ^ bit(ep - 1);
      return (bb.attackers(king, occ) & ~bit(ep - 1)) == 0;
    });
  }

  // pgx's own rule on any board: a move is legal if afterwards its "king" (the first square of the
  // highest value) is not attacked.
  void generate_slow() {
    const Bitboards& bb = bb_;
    in_check_ = bb.attackers(king_square(s_.board), bb.occ) != 0;
    auto legal = [&](int label) {
      Board b = s_.board;
      std::int8_t ep = s_.en_passant;
      std::array<std::uint8_t, 4> castling = s_.castling;
      std::int32_t halfmove = s_.halfmove;
      apply_move(b, ep, castling, halfmove, label);
      const Bitboards after(b);
      return after.attackers(king_square(b), after.occ) == 0;
    };
    int budget = pseudo_legal_moves([&](int from, int piece, Bits t) {
      Bits ok = 0;
      for (Bits m = t; m != 0; m &= m - 1) {
        const int to = std::countr_zero(m);
        if (legal(from * 73 + kTables.to_plane[from][to])) ok |= bit(to);
      }
      add_moves(from, piece, ok);
    });
    en_passant_moves(budget, [&](int from) { return legal(from * 73 + kTables.to_plane[from][s_.en_passant]); });
  }

  State s_;
  // Derived from s_ (refresh, load): not saved.
  Bitboards bb_{Board{}};
  std::array<int, 8> reps_{};  // for history row i: the hash history rows equal to it
  int filled_ = 0;             // the hash history rows from the newest on that may not be zero
  struct Pieces {
    int count = 0;
    std::array<std::uint16_t, 64> at{};
  };
  std::array<std::array<Pieces, 2>, 8> pieces_{};  // by board history slot and observer colour: index_board
  std::array<std::uint16_t, kMaxMoves> moves_{};
  int n_moves_ = 0;
  bool in_check_ = false;
};

const bool registered = register_game<Chess>("Chess");

}  // namespace

}  // namespace rlpool::pgx

// Shogi, as pgx 2.6.0 plays it (pgx/shogi.py, pgx/_src/games/shogi.py).
//
// The board is pgx's: square = x * 9 + y (x the file, y the rank, y = 0 the far
// rank), seen from the player to move, whose pieces are 0..13 (pawn, lance,
// knight, silver, bishop, rook, gold, king, the four promoted small pieces,
// horse, dragon) and move towards y = 0; the opponent's are 14..27, -1 empty.
// After every move the board turns round (square s -> 80 - s, piece p ->
// (p + 14) % 28) and the hands swap, as pgx's _flip does.
//
// Actions: pgx's (dlshogi's) 27 x 81, direction * 81 + target; directions
// 0..9 move the nearest own piece on the line behind the target (8, 9 the
// knight's jumps), 10..19 the same with promotion, 20..26 drop a pawn, lance,
// knight, silver, bishop, rook, gold. The legal moves are the usual shogi
// rules pgx implements: no move leaves the king attacked, forced and optional
// promotion, drops (no second unpromoted pawn on a file, no dead piece, no
// pawn drop that mates, as pgx's _is_drop_pawn_mate judges it: see
// pawn_mates). pgx has no repetition rule: a game ends when the player to
// move has no legal move (that player gets -1, the other +1) or after 512
// moves (0 each). The first player is drawn at random (pgx:
// jax.random.bernoulli; here rng.integer(2)); there is no other chance.
//
// Observation: pgx's 9 x 9 x 119 bools per player, from that player's side:
// pieces (14), the squares each piece type attacks (14), squares attacked at
// least 1/2/3 times (3); the same for the opponent; both hands as counts
// (pawn >= 1..8, lance, knight, silver, gold >= 1..4, bishop, rook >= 1..2);
// whether the player's king is attacked. Cell [i][j] is rank y = i, file
// x = 8 - j (pgx's rot90). The check plane follows pgx's _is_checked to the
// letter (its king is the square nearest in value to a king, its sliders the
// first eight long-range pieces on the board), which only matters on the
// boards an illegal move leaves.
//
// An illegal action is played as pgx's _step plays it before the penalty ends
// the game: the piece found as for a legal move (square -1, which JAX reads
// and writes as square 80, where the line holds none of the mover's pieces)
// goes to the target, whatever stands there goes to the mover's hand
// (((p + 14) % 28) % 8; index 7 is dropped, as JAX drops an out-of-bounds
// add), promotion adds 8 to any piece, a drop takes one from the hand even at
// zero; then the board turns round. Hands are kept within -1..19, the counts
// one such move can make from any position pgx reaches.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kEmpty = -1;
constexpr int kPawn = 0, kLance = 1, kKnight = 2, kRook = 5, kKing = 7;
constexpr int kOpp = 14;  // the opponent's pieces are 14..27
constexpr int kSquares = 81;
constexpr int kNumActions = 27 * kSquares;
constexpr int kPlanes = 119;
constexpr int kMaxSteps = 512;  // pgx's MAX_TERMINATION_STEPS
constexpr int kHandMin = -1, kHandMax = 19;

// Move vectors (dx, dy) by pgx's (dlshogi's) direction index: 0 up (towards
// y = 0), 1..2 up diagonally, 3..4 sideways, 5 down, 6..7 down diagonally,
// 8..9 the knight's jumps; 10..11 are the knight's jumps backwards (the
// opponent's knights, seen from the other side).
constexpr std::array<int, 12> kDx = {0, 1, -1, 1, -1, 0, 1, -1, 1, -1, -1, 1};
constexpr std::array<int, 12> kDy = {-1, -1, -1, 0, 0, 1, 1, 1, -2, -2, 2, 2};
constexpr std::array<int, 12> kReverse = {5, 7, 6, 4, 3, 0, 2, 1, 10, 11, 8, 9};

// Per piece type (0..13), from its owner's side: the directions it steps one
// square (its long moves' first squares included) and those it slides along.
constexpr std::array<std::uint16_t, 14> kStep = {0x001, 0x001, 0x300, 0x0C7, 0x0C6, 0x039, 0x03F,
                                                 0x0FF, 0x03F, 0x03F, 0x03F, 0x03F, 0x0FF, 0x0FF};
constexpr std::array<std::uint16_t, 14> kSlide = {0x000, 0x001, 0x000, 0x000, 0x0C6, 0x039, 0x000,
                                                  0x000, 0x000, 0x000, 0x000, 0x000, 0x0C6, 0x039};

// pgx's starting board, from the first player's side (INIT_PIECE_BOARD).
constexpr std::array<std::int8_t, kSquares> kInitBoard = {
    15, -1, 14, -1, -1, -1, 0, -1, 1,  //
    16, 18, 14, -1, -1, -1, 0, 5,  2,  //
    17, -1, 14, -1, -1, -1, 0, -1, 3,  //
    20, -1, 14, -1, -1, -1, 0, -1, 6,  //
    21, -1, 14, -1, -1, -1, 0, -1, 7,  //
    20, -1, 14, -1, -1, -1, 0, -1, 6,  //
    17, -1, 14, -1, -1, -1, 0, -1, 3,  //
    16, 19, 14, -1, -1, -1, 0, 4,  2,  //
    15, -1, 14, -1, -1, -1, 0, -1, 1,
};

struct Geometry {
  std::array<std::array<std::int8_t, 12>, kSquares> next{};  // the square one step away, -1 off the board
  std::array<std::int8_t, kSquares> cell{};                    // the square's cell (i * 9 + j) in the observation
};

constexpr Geometry make_geometry() {
  Geometry g;
  for (int s = 0; s < kSquares; ++s) {
    const int x = s / 9, y = s % 9;
    for (int d = 0; d < 12; ++d) {
      const int nx = x + kDx[d], ny = y + kDy[d];
      g.next[s][d] = static_cast<std::int8_t>(nx < 0 || nx > 8 || ny < 0 || ny > 8 ? -1 : nx * 9 + ny);
    }
    g.cell[s] = static_cast<std::int8_t>(y * 9 + (8 - x));
  }
  return g;
}
constexpr Geometry kGeo = make_geometry();

inline bool owned(int piece, int side) { return side == 0 ? piece >= 0 && piece < kOpp : piece >= kOpp; }
inline int flip_piece(int piece) { return piece < 0 ? kEmpty : (piece + kOpp) % 28; }
inline bool is_major(int piece) {
  const int t = piece % kOpp;
  return piece >= 0 && (t == 1 || t == 4 || t == 5 || t == 12 || t == 13);
}
// The direction bit of a piece of `side` moving along board direction d.
inline int own_dir(int side, int d) { return side == 0 ? d : kReverse[d]; }

using Board = std::array<std::int8_t, kSquares>;

// Is `sq` attacked by a piece of `side` (0: the mover's, 1: the opponent's)?
bool attacked(const Board& b, int sq, int side) {
  const auto& next = kGeo.next[sq];
  for (int d = 0; d < 12; ++d) {
    const int s = next[d];
    if (s < 0) continue;
    const int p = b[s];
    // the piece at s reaches sq along the reverse of d
    if (owned(p, side) && (kStep[p - kOpp * side] >> own_dir(side, kReverse[d]) & 1)) return true;
  }
  for (int d = 0; d < 8; ++d) {
    int s = next[d];
    if (s < 0 || b[s] != kEmpty) continue;
    do s = kGeo.next[s][d];
    while (s >= 0 && b[s] == kEmpty);
    if (s < 0) continue;
    const int p = b[s];
    if (owned(p, side) && (kSlide[p - kOpp * side] >> own_dir(side, kReverse[d]) & 1)) return true;
  }
  return false;
}

class Shogi final : public PgxEnv {
 public:
  explicit Shogi(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kNumActions, .obs_dtype = DType::kBool, .obs_shape = {9, 9, kPlanes}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    s_.board = kInitBoard;
    current_player_ = draw_first_player(rng);
    refresh();
  }

  void play(int action, Rng& /*rng*/) override {
    apply(action);
    terminated_ = !any_legal_ || s_.step_count >= kMaxSteps;
    if (!any_legal_) set_winner(1 - current_player_);  // the player to move has no move: a loss
  }

  void play_illegal(int action, Rng& /*rng*/) override { apply(action); }

  void legal_actions(bool* mask) const override { std::copy(legal_.begin(), legal_.end(), mask); }

  void observe(int player, void* dst) const override {
    const int v = color_of(player, 0);  // the viewer's side on the board (0: the mover's)
    auto* out = static_cast<bool*>(dst);
    std::array<bool, kPlanes - 62> tail{};  // hands and check: the same in every cell
    hand_planes(s_.hand[v], tail.data());
    hand_planes(s_.hand[1 - v], tail.data() + 28);
    tail[56] = checked_[v];
    for (int s = 0; s < kSquares; ++s) {
      const int vs = v == 0 ? s : 80 - s;  // the square as the viewer sees it
      bool* c = out + kGeo.cell[vs] * kPlanes;
      std::fill_n(c, 62, false);
      std::copy(tail.begin(), tail.end(), c + 62);
      const int p = s_.board[s];
      if (p >= 0) c[owned(p, v) ? p % kOpp : 31 + p % kOpp] = true;
      for (int side = 0; side < 2; ++side) {
        bool* e = c + (side == v ? 14 : 45);
        for (unsigned m = effect_[side][s]; m != 0; m &= m - 1) e[std::countr_zero(m)] = true;
        const int n = count_[side][s];
        e[14] = n >= 1;
        e[15] = n >= 2;
        e[16] = n >= 3;
      }
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (int i = 0; i < kSquares; ++i) {
      if (s.board[i] < -1 || s.board[i] > 27) {
        throw std::invalid_argument("state's board[" + std::to_string(i) + "] is " + std::to_string(s.board[i]) +
                                    ", expected -1..27");
      }
    }
    for (int c = 0; c < 2; ++c) {
      for (int p = 0; p < 7; ++p) {
        if (s.hand[c][p] < kHandMin || s.hand[c][p] > kHandMax) {
          throw std::invalid_argument("state's hand[" + std::to_string(c) + "][" + std::to_string(p) + "] is " +
                                      std::to_string(s.hand[c][p]) + ", expected -1..19");
        }
      }
    }
    if (s.unused != 0) throw std::invalid_argument("state's padding byte is " + std::to_string(s.unused) + ", expected 0");
    check_range(s.step_count, 0, kMaxSteps, "step_count");
    s_ = s;
    refresh();
  }

 private:
  // pgx's _step (on any action, legal or not), then the turn passes.
  void apply(int action) {
    auto& b = s_.board;
    auto& hand = s_.hand[0];
    const int dir = action / kSquares, to = action % kSquares;
    if (dir >= 20) {
      const int piece = dir - 20;
      b[to] = static_cast<std::int8_t>(piece);
      hand[piece] = static_cast<std::int8_t>(std::max<int>(hand[piece] - 1, kHandMin));
    } else {
      // the nearest own piece on the line behind the target, else the line's first square (-1: JAX's 80)
      const int d = dir % 10, back = kReverse[d];
      int from = kGeo.next[to][back];
      for (int s = from, k = 0; s >= 0 && k < 8; s = kGeo.next[s][back], ++k) {
        if (owned(b[s], 0)) {
          from = s;
          break;
        }
        if (d >= 8) break;
      }
      if (from < 0) from = 80;
      const int piece = b[from];
      b[from] = kEmpty;
      const int captured = b[to];
      if (captured != kEmpty) {
        const int k = ((captured + kOpp) % 28) % 8;
        if (k < 7) hand[k] = static_cast<std::int8_t>(std::min<int>(hand[k] + 1, kHandMax));
      }
      // promotion adds 8 to whatever moved; the turn below brings any value back into -1..27
      b[to] = static_cast<std::int8_t>(piece + (dir >= 10 ? 8 : 0));
    }
    for (int s = 0; s <= 40; ++s) {
      const int a = b[s] < 0 ? kEmpty : (b[s] + kOpp) % 28;
      const int c = flip_piece(b[80 - s]);
      b[s] = static_cast<std::int8_t>(c);
      b[80 - s] = static_cast<std::int8_t>(a);
    }
    std::swap(s_.hand[0], s_.hand[1]);
    ++s_.step_count;
    current_player_ = 1 - current_player_;
    refresh();
  }

  void refresh() {
    generate();
    effects();
    checked_[0] = pgx_checked(0);
    checked_[1] = pgx_checked(1);
  }

  void set_legal(int action) {
    legal_[action] = true;
    any_legal_ = true;
  }

  // The legal moves of the player to move (pgx's _legal_action_mask).
  void generate() {
    legal_.fill(false);
    any_legal_ = false;
    Board& b = s_.board;
    int king = -1, opp_king = -1;
    for (int s = 0; s < kSquares; ++s) {
      if (b[s] == kKing && king < 0) king = s;
      if (b[s] == kKing + kOpp && opp_king < 0) opp_king = s;
    }
    const bool check = king >= 0 && attacked(b, king, 1);
    // pieces pinned to the king: the line they must stay on
    std::array<std::int8_t, kSquares> pin;
    pin.fill(-1);
    if (king >= 0 && !check) {
      for (int d = 0; d < 8; ++d) {
        int s = kGeo.next[king][d];
        while (s >= 0 && b[s] == kEmpty) s = kGeo.next[s][d];
        if (s < 0 || !owned(b[s], 0)) continue;
        const int pinned = s;
        s = kGeo.next[s][d];
        while (s >= 0 && b[s] == kEmpty) s = kGeo.next[s][d];
        if (s >= 0 && b[s] >= kOpp && (kSlide[b[s] - kOpp] >> d & 1)) pin[pinned] = static_cast<std::int8_t>(d);
      }
    }
    // does the king stay safe when the piece at `from` goes to `to`?
    auto safe = [&](int from, int to, int piece, int d) {
      if (piece == kKing) {
        b[from] = kEmpty;
        const bool ok = !attacked(b, to, 1);
        b[from] = static_cast<std::int8_t>(piece);
        return ok;
      }
      if (king < 0) return true;
      if (check) {
        const std::int8_t taken = b[to];
        b[to] = static_cast<std::int8_t>(piece);
        b[from] = kEmpty;
        const bool ok = !attacked(b, king, 1);
        b[from] = static_cast<std::int8_t>(piece);
        b[to] = taken;
        return ok;
      }
      return pin[from] < 0 || d == pin[from] || d == kReverse[pin[from]];
    };
    for (int s = 0; s < kSquares; ++s) {
      const int p = b[s];
      if (p < 0 || p >= kOpp) continue;
      const unsigned slides = kSlide[p];
      for (unsigned m = kStep[p]; m != 0; m &= m - 1) {
        const int d = std::countr_zero(m);
        for (int t = kGeo.next[s][d]; t >= 0; t = kGeo.next[t][d]) {
          const int q = b[t];
          if (owned(q, 0)) break;
          if (safe(s, t, p, d)) {
            const int yt = t % 9;
            if (!((p == kPawn || p == kLance) && yt == 0) && !(p == kKnight && yt < 2)) set_legal(d * kSquares + t);
            if (p <= kRook && (s % 9 < 3 || yt < 3)) set_legal((d + 10) * kSquares + t);
          }
          if (q != kEmpty || !(slides >> d & 1)) break;
        }
      }
    }
    // drops
    const auto& hand = s_.hand[0];
    bool any_hand = false;
    for (int p = 0; p < 7; ++p) any_hand = any_hand || hand[p] > 0;
    if (!any_hand) return;
    std::array<bool, 9> pawn_file{};
    for (int s = 0; s < kSquares; ++s) pawn_file[s / 9] = pawn_file[s / 9] || b[s] == kPawn;
    auto blocks = [&](int to) {  // a piece dropped on `to` leaves the king unattacked
      if (!check || king < 0) return true;
      b[to] = kPawn;
      const bool ok = !attacked(b, king, 1);
      b[to] = kEmpty;
      return ok;
    };
    // pgx's pawn-drop mate: only the square in front of the opponent's king is looked at
    int no_pawn = -1;
    if (hand[kPawn] > 0 && opp_king >= 0 && opp_king % 9 < 8) {
      const int to = opp_king + 1;
      if (b[to] == kEmpty && !pawn_file[to / 9] && blocks(to) && pawn_mates(to, opp_king)) no_pawn = to;
    }
    for (int to = 0; to < kSquares; ++to) {
      if (b[to] != kEmpty || !blocks(to)) continue;
      const int y = to % 9;
      for (int p = 0; p < 7; ++p) {
        if (hand[p] <= 0) continue;
        if (p == kPawn && (y == 0 || pawn_file[to / 9] || to == no_pawn)) continue;
        if (p == kLance && y == 0) continue;
        if (p == kKnight && y < 2) continue;
        set_legal((20 + p) * kSquares + to);
      }
    }
  }

  // Does a pawn dropped on `to` (in front of the opponent's king at `k`) leave
  // the opponent no way to take it or to move the king out of check?
  bool pawn_mates(int to, int k) {
    Board& b = s_.board;
    b[to] = kPawn;
    bool escape = false;
    // the opponent's pieces other than the king that take the pawn
    auto takes = [&](int from) {
      if (from == k) return;
      const std::int8_t q = b[from];
      b[to] = q;
      b[from] = kEmpty;
      escape = escape || !attacked(b, k, 0);
      b[from] = q;
      b[to] = kPawn;
    };
    const auto& next = kGeo.next[to];
    for (int d = 0; d < 12 && !escape; ++d) {
      int s = next[d];
      if (s < 0) continue;
      if (b[s] >= kOpp && (kStep[b[s] - kOpp] >> own_dir(1, kReverse[d]) & 1)) takes(s);
      if (d >= 8 || b[s] != kEmpty) continue;
      do s = kGeo.next[s][d];
      while (s >= 0 && b[s] == kEmpty);
      if (s >= 0 && b[s] >= kOpp && (kSlide[b[s] - kOpp] >> own_dir(1, kReverse[d]) & 1)) takes(s);
    }
    // the king's moves, taking the pawn included
    if (!escape) {
      b[k] = kEmpty;
      for (int d = 0; d < 8 && !escape; ++d) {
        const int t = kGeo.next[k][d];
        if (t >= 0 && !owned(b[t], 1)) escape = !attacked(b, t, 0);
      }
      // pgx's AROUND_IX names an off-board neighbour -1, which JAX reads and writes as square 80 of the
      // opponent's (flipped) board, our square 0: a king on square 1 or 9 (next to square 0, and with
      // off-board neighbours) may "step" there unless the opponent holds square 0. pgx then asks whether
      // the king stands attacked on its square 81 of the flipped board (80 - -1), our -1, which JAX clamps
      // to our square 80: the king escapes unless our piece can move to square 80 (not holding our own).
      if (!escape && (k == 1 || k == 9) && !owned(b[0], 1)) {
        const std::int8_t was = b[0];
        b[0] = kKing + kOpp;
        escape = owned(b[80], 0) || !attacked(b, 80, 0);
        b[0] = was;
      }
      b[k] = kKing + kOpp;
    }
    b[to] = kEmpty;
    return !escape;
  }

  // The squares each side's pieces attack, by piece type, and how many attack each.
  void effects() {
    const Board& b = s_.board;
    for (auto& e : effect_) e.fill(0);
    for (auto& n : count_) n.fill(0);
    for (int s = 0; s < kSquares; ++s) {
      const int p = b[s];
      if (p < 0) continue;
      const int side = p >= kOpp ? 1 : 0, t = p - kOpp * side;
      const unsigned slides = kSlide[t];
      for (unsigned m = kStep[t]; m != 0; m &= m - 1) {
        const int od = std::countr_zero(m), d = own_dir(side, od);
        for (int to = kGeo.next[s][d]; to >= 0; to = kGeo.next[to][d]) {
          effect_[side][to] = static_cast<std::uint16_t>(effect_[side][to] | 1u << t);
          ++count_[side][to];
          if (b[to] != kEmpty || !(slides >> od & 1)) break;
        }
      }
    }
  }

  // pgx's _is_checked(_set_cache(state)) on the board as `side` sees it: its
  // king is the first square (in that side's order) whose value is nearest a
  // king's; the attackers are the other side's pieces a step or a knight's jump
  // away and the first eight long-range pieces on the board.
  bool pgx_checked(int side) const {
    const Board& b = s_.board;
    auto at = [&](int vs) { return side == 0 ? vs : 80 - vs; };  // the board square of the side's square vs
    int king = 0, best = 1 << 30;
    for (int vs = 0; vs < kSquares; ++vs) {
      const int p = side == 0 ? b[vs] : flip_piece(b[80 - vs]);
      const int dist = p > kKing ? p - kKing : kKing - p;
      if (dist < best) {
        best = dist;
        king = at(vs);
      }
    }
    const int enemy = 1 - side;
    if (owned(b[king], enemy)) return false;
    const auto& next = kGeo.next[king];
    for (int d = 0; d < 12; ++d) {
      const int s = next[d];
      if (s >= 0 && owned(b[s], enemy) && (kStep[b[s] % kOpp] >> own_dir(enemy, kReverse[d]) & 1)) return true;
    }
    const int kx = king / 9, ky = king % 9;
    for (int vs = 0, majors = 0; vs < kSquares && majors < 8; ++vs) {
      const int s = at(vs), p = b[s];
      if (!is_major(p)) continue;
      ++majors;
      if (!owned(p, enemy)) continue;
      const int dx = kx - s / 9, dy = ky - s % 9;
      if (!(dx == 0 || dy == 0 || dx == dy || dx == -dy)) continue;
      const int ux = (dx > 0) - (dx < 0), uy = (dy > 0) - (dy < 0);
      int d = 0;
      while (d < 8 && (kDx[d] != ux || kDy[d] != uy)) ++d;
      if (d == 8) continue;  // the same square
      const int od = own_dir(enemy, d), t = p % kOpp;
      const int dist = std::max(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
      if (dist == 1) {
        if (kStep[t] >> od & 1) return true;
        continue;
      }
      if (!(kSlide[t] >> od & 1)) continue;
      int c = kGeo.next[s][d];
      while (c != king && b[c] == kEmpty) c = kGeo.next[c][d];
      if (c == king) return true;
    }
    return false;
  }

  // A hand's planes: pawn >= 1..8, lance, knight, silver, gold >= 1..4, bishop, rook >= 1..2.
  static void hand_planes(const std::array<std::int8_t, 7>& hand, bool* out) {
    constexpr std::array<int, 7> kOrder = {0, 1, 2, 3, 6, 4, 5};
    constexpr std::array<int, 7> kMax = {8, 4, 4, 4, 4, 2, 2};
    for (int i = 0; i < 7; ++i) {
      for (int n = 1; n <= kMax[i]; ++n) *out++ = hand[kOrder[i]] >= n;
    }
  }

  // No implicit padding: every byte of a saved state is defined.
  struct State {
    Board board{};                                       // pgx's board, from the side of the player to move
    std::array<std::array<std::int8_t, 7>, 2> hand{};    // pawn, lance, knight, silver, bishop, rook, gold; the mover's first
    std::uint8_t unused = 0;
    std::int32_t step_count = 0;                         // moves played (pgx's GameState.step_count)
  };
  static_assert(sizeof(State) == 100);
  State s_;

  // derived from s_ by refresh()
  std::array<bool, kNumActions> legal_{};
  bool any_legal_ = false;
  std::array<std::array<std::uint16_t, kSquares>, 2> effect_{};  // by side (0: the mover), board square
  std::array<std::array<std::uint8_t, kSquares>, 2> count_{};
  std::array<bool, 2> checked_{};
};

const bool registered = register_game<Shogi>("Shogi");

}  // namespace

}  // namespace rlpool::pgx

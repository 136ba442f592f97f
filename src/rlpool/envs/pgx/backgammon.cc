// Backgammon, as pgx 2.6.0 plays it (pgx/backgammon.py): the board is 28
// counts seen from the player to move (points 0..23, his bar 24 and the
// opponent's 25, his borne-off checkers 26 and the opponent's 27; his checkers
// positive, the opponent's negative), flipped to the other side when the turn
// passes. An action is 6 * src + die: src 0 a no-op (legal only when nothing
// else is), 1 the bar, 2..25 the points 0..23; die 0..5 for 1..6. pgx's rules
// exactly, which are looser than the tournament's: any playable die may be
// played (no obligation to use both, or the larger), a bear-off uses the die of
// the exact distance or a larger one from the rearmost point; the turn passes
// when every die is played or on a no-op. Winning (all 15 off) scores 1, a
// gammon 2 (the loser has none off), a backgammon 3 (besides, one of his left
// in the winner's home board; pgx does not count his bar). An illegal move
// costs -3 (+3 to the other player) and is first played as pgx's _step plays
// it (its counts may leave -15..15 by one), ending the game.
// Observation (int32, 34 per player): the board, then for the player to move
// the number of each die value still playable (zeros for the other player).
//
// Chance: the first player is a fair coin and the opening roll is uniform over
// the 30 ordered non-double pairs (pgx's _roll_init_dice), independently (so,
// as in pgx, the opening dice do not say who moves); every later roll is two
// independent uniform dice, drawn when the turn passes. A state may carry a
// pending roll: the next turn change uses it instead of drawing (the
// comparison with pgx puts pgx's own roll there); every step clears it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kPoints = 24;
constexpr int kBar = 24;       // the mover's bar (the opponent's is 25)
constexpr int kOff = 26;       // the mover's borne-off checkers (the opponent's are 27)
constexpr int kActions = 26 * 6;
constexpr int kCheckers = 15;
constexpr int kMaxCount = kCheckers + 1;  // one illegal move may push a count one past 15

constexpr std::array<std::int8_t, 28> kInitBoard = {2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0,
                                                    0, 0, 3, 0, 5, 0, 0, 0, 0, -2, 0, 0, 0, 0};

class Backgammon final : public PgxEnv {
 public:
  explicit Backgammon(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kActions, .obs_dtype = DType::kInt32, .obs_shape = {34}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = draw_first_player(rng);
    // pgx: a uniform choice among the 30 ordered pairs of different dice.
    const int pair = static_cast<int>(rng.integer(30));
    const int first = pair / 5;
    const int second = pair % 5;
    s_.dice = {static_cast<std::int8_t>(first), static_cast<std::int8_t>(second < first ? second : second + 1)};
    s_.turn = static_cast<std::int8_t>(s_.dice[1] > s_.dice[0]);
    set_playable();
  }

  // pgx's _step, legal or not: the move (none for a no-op), then the win or the turn's end.
  void play(int action, Rng& rng) override {
    const std::array<std::int8_t, 2> pending = s_.pending_dice;
    s_.pending_dice = {-1, -1};
    const bool no_op = action / 6 == 0;
    if (!no_op) {
      move(action);
      const int die = action % 6;
      if (s_.dice[0] == s_.dice[1]) {
        const int slot = ((3 - s_.played) % 4 + 4) % 4;  // JAX's index 3 - n, a negative one from the end
        s_.playable[static_cast<std::size_t>(slot)] = -1;
      } else {
        for (auto& d : s_.playable) d = d == die ? std::int8_t{-1} : d;
      }
      s_.played = static_cast<std::int8_t>(s_.played + 1);
    }
    if (s_.board[kOff] == kCheckers) {
      const bool gammon = s_.board[kOff + 1] == 0;
      int inner = 0;
      for (int i = 18; i < kPoints; ++i) inner += s_.board[i];
      const double score = 1.0 + gammon + (gammon && inner != 0);
      set_winner(current_player_, score);
      terminated_ = true;
      return;
    }
    bool turn_end = true;
    for (auto d : s_.playable) turn_end = turn_end && d == -1;
    if (turn_end || no_op) change_turn(pending, rng);
  }

  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  double illegal_action_penalty() const override { return -3.0; }

  void legal_actions(bool* mask) const override {
    std::fill_n(mask, kActions, false);
    const auto& b = s_.board;
    int home = 0;
    for (int i = 18; i < kPoints; ++i) home += std::clamp<int>(b[i], 0, kCheckers);
    const bool all_home = kCheckers - b[kOff] == home;
    int rear = 24 - 100;  // pgx's distance when no checker is on a point
    for (int i = 0; i < kPoints; ++i) {
      if (b[i] > 0) {
        rear = kPoints - i;
        break;
      }
    }
    bool any = false;
    unsigned seen = 0;  // the die values done (a double holds one value up to 4 times)
    for (auto die : s_.playable) {
      if (die < 0 || (seen >> die & 1U) != 0) continue;
      seen |= 1U << die;
      const int pips = die + 1;
      // From the bar (src 1): onto point die.
      if (b[kBar] >= 1 && b[die] >= -1) mask[6 + die] = any = true;
      for (int src = 0; src < kPoints; ++src) {
        if (b[src] < 1) continue;
        const int tgt = src + pips;
        bool ok;
        if (tgt < kPoints) {
          ok = b[tgt] >= -1 && b[kBar] == 0;
        } else {
          const int distance = kPoints - src;
          ok = all_home && (distance == pips || (rear <= pips && rear == distance));
        }
        if (ok) mask[(src + 2) * 6 + die] = any = true;
      }
    }
    if (!any) std::fill_n(mask, 6, true);  // nothing to play: the no-ops pass the turn
  }

  void observe(int player, void* dst) const override {
    auto* out = static_cast<std::int32_t*>(dst);
    for (int i = 0; i < 28; ++i) out[i] = s_.board[i];
    std::fill_n(out + 28, 6, 0);
    if (player == current_player_) {
      for (auto d : s_.playable) {
        if (d >= 0) ++out[28 + d];
      }
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (std::size_t i = 0; i < s.board.size(); ++i) {
      if (s.board[i] < -kMaxCount || s.board[i] > kMaxCount) {
        throw std::invalid_argument("state's board[" + std::to_string(i) + "] is " + std::to_string(s.board[i]) +
                                    ", expected -16..16");
      }
    }
    for (auto d : s.dice) check_range(d, 0, 5, "dice", "hold");
    for (auto d : s.playable) check_range(d, -1, 5, "playable dice", "hold");
    check_range(s.played, 0, 4, "played dice number");
    if (s.turn < 0 || s.turn > 1) throw std::invalid_argument("state's turn is " + std::to_string(s.turn) + ", expected 0 or 1");
    const bool none = s.pending_dice[0] == -1 && s.pending_dice[1] == -1;
    const bool roll = s.pending_dice[0] >= 0 && s.pending_dice[0] <= 5 && s.pending_dice[1] >= 0 && s.pending_dice[1] <= 5;
    if (!none && !roll) throw std::invalid_argument("state's pending dice are neither -1, -1 nor two of 0..5");
    s_ = s;
  }

 private:
  // pgx's _move: the checker from src to tgt, hitting a lone opponent there.
  void move(int action) {
    auto& b = s_.board;
    const int slot = action / 6;
    const int pips = action % 6 + 1;
    const int src = slot == 1 ? kBar : slot - 2;
    const int tgt = src >= kPoints ? pips - 1 : (src + pips <= 23 ? src + pips : kOff);
    const bool hit = b[tgt] == -1;
    b[kBar + 1] = static_cast<std::int8_t>(b[kBar + 1] - hit);
    b[src] = static_cast<std::int8_t>(b[src] - 1);
    b[tgt] = static_cast<std::int8_t>(b[tgt] + 1 + hit);
  }

  void change_turn(const std::array<std::int8_t, 2>& pending, Rng& rng) {
    auto& b = s_.board;
    std::array<std::int8_t, 28> flipped{};
    for (int i = 0; i < kPoints; ++i) flipped[i] = static_cast<std::int8_t>(-b[kPoints - 1 - i]);
    flipped[24] = static_cast<std::int8_t>(-b[25]);
    flipped[25] = static_cast<std::int8_t>(-b[24]);
    flipped[26] = static_cast<std::int8_t>(-b[27]);
    flipped[27] = static_cast<std::int8_t>(-b[26]);
    b = flipped;
    s_.turn = static_cast<std::int8_t>(1 - s_.turn);
    current_player_ = 1 - current_player_;
    if (pending[0] >= 0) {
      s_.dice = pending;
    } else {
      s_.dice[0] = static_cast<std::int8_t>(rng.integer(6));
      s_.dice[1] = static_cast<std::int8_t>(rng.integer(6));
    }
    set_playable();
    s_.played = 0;
  }

  void set_playable() {
    const auto d = s_.dice;
    if (d[0] == d[1]) {
      s_.playable = {d[0], d[0], d[0], d[0]};
    } else {
      s_.playable = {d[0], d[1], -1, -1};
    }
  }

  // No padding: every byte of a saved state is defined.
  struct State {
    std::array<std::int8_t, 28> board = kInitBoard;    // pgx's _board, from the mover's side
    std::array<std::int8_t, 2> dice{};                 // pgx's _dice, 0..5 for 1..6
    std::array<std::int8_t, 4> playable{-1, -1, -1, -1};  // pgx's _playable_dice, -1 for none
    std::int8_t played = 0;                            // pgx's _played_dice_num
    std::int8_t turn = 0;                              // pgx's _turn (which color moves; not observed)
    std::array<std::int8_t, 2> pending_dice{-1, -1};   // the next turn change's roll, -1, -1 to draw it
  };
  static_assert(sizeof(State) == 38);
  State s_;
};

const bool registered = register_game<Backgammon>("Backgammon");

}  // namespace

}  // namespace rlpool::pgx

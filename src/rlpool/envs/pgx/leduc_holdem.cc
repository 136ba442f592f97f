// LeducHoldem, as pgx 2.6.0 plays it (pgx/leduc_holdem.py): a six-card deck
// (J, J, Q, Q, K, K = 0, 0, 1, 1, 2, 2); each player gets one card and one
// card is public (shown from the second round). pgx deals the first three
// cards of a uniform permutation of the deck and draws the first player at
// random (bernoulli); rlpool draws the same: a partial Fisher-Yates shuffle
// and a fair coin from its rng. Both players start with one chip in.
// Actions: 0 call (check), 1 raise (2 chips in the first round, 4 in the
// second, at most two raises a round), 2 fold (only facing a raise). A round
// ends on a fold or on a call that is not the round's first action; the
// second round starts with the first player again. A fold gives the folder
// -min(chips) and the other +min(chips); a showdown after the second round
// (a pair with the public card wins, then the higher card, equal cards draw)
// gives +/-min(chips). Observation (34 bools): the own card, the public card
// in the second round only (pgx's round counter passes 1 at the end, so the
// terminal observation after a showdown hides it), the own chips (6 + n) and
// the opponent's (20 + n), one-hot. An illegal move (a third raise, a fold
// not facing a raise) is played as pgx's _step plays it before the penalty,
// so its state shows too (a third raise may bet past 13 chips: pgx's scatter
// then writes into the next field or drops the write, and so does observe).
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kCall = 0;
constexpr int kRaise = 1;
constexpr int kFold = 2;
constexpr int kMaxRaise = 2;
constexpr int kObsSize = 34;

class LeducHoldem final : public PgxEnv {
 public:
  explicit LeducHoldem(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = 3, .obs_dtype = DType::kBool, .obs_shape = {kObsSize}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = draw_first_player(rng);
    s_.first_player = static_cast<std::int8_t>(current_player_);
    std::array<std::int8_t, 6> deck{0, 0, 1, 1, 2, 2};
    for (int i = 0; i < 3; ++i) {
      const auto j = static_cast<std::size_t>(i) + rng.integer(static_cast<std::uint64_t>(6 - i));
      std::swap(deck[static_cast<std::size_t>(i)], deck[j]);
      s_.cards[static_cast<std::size_t>(i)] = deck[static_cast<std::size_t>(i)];
    }
  }

  void play(int action, Rng& /*rng*/) override {
    const int me = current_player_;
    const int other = 1 - me;
    if (action == kCall) {
      s_.chips[me] = s_.chips[other];
    } else if (action == kRaise) {
      s_.chips[me] = static_cast<std::int8_t>(std::max(s_.chips[0], s_.chips[1]) + (s_.round + 1) * 2);
    }
    const bool fold = action == kFold;
    const bool call = s_.last_action != -1 && action == kCall;
    const bool round_over = fold || call;
    const bool ended = round_over && !(s_.round == 0 && call);
    const double stake = std::min(s_.chips[0], s_.chips[1]);
    if (fold) {
      set_winner(other, stake);
    } else if (ended) {
      const int mine = s_.cards[me];
      const int theirs = s_.cards[other];
      const int pub = s_.cards[2];
      if (mine != theirs) set_winner(mine == pub || (theirs != pub && mine > theirs) ? me : other, stake);
    }
    terminated_ = ended;
    s_.last_action = static_cast<std::int8_t>(round_over ? -1 : action);
    current_player_ = round_over ? s_.first_player : other;
    s_.raise_count = static_cast<std::int8_t>(round_over ? 0 : s_.raise_count + (action == kRaise ? 1 : 0));
    s_.round = static_cast<std::int8_t>(s_.round + (round_over ? 1 : 0));
  }

  // pgx's _step plays a third raise or an early fold like any other move.
  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  // pgx's mask after a call (and at the start of a round): call, raise; after a
  // raise: all three; raise only below two raises this round.
  void legal_actions(bool* mask) const override {
    mask[kCall] = true;
    mask[kRaise] = s_.raise_count < kMaxRaise;
    mask[kFold] = s_.last_action == kRaise;
  }

  void observe(int player, void* dst) const override {
    auto* out = static_cast<bool*>(dst);
    std::fill_n(out, kObsSize, false);
    out[s_.cards[player]] = true;
    if (s_.round == 1) out[3 + s_.cards[2]] = true;
    // pgx's scatter drops an index past the end.
    if (6 + s_.chips[player] < kObsSize) out[6 + s_.chips[player]] = true;
    if (20 + s_.chips[1 - player] < kObsSize) out[20 + s_.chips[1 - player]] = true;
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    check_range(s.first_player, 0, 1, "first_player");
    for (auto card : s.cards) check_range(card, 0, 2, "cards");
    if (s.cards[0] == s.cards[1] && s.cards[1] == s.cards[2]) {
      throw std::invalid_argument("state's cards are three of a kind, the deck holds two of each");
    }
    check_range(s.last_action, -1, 2, "last_action");
    for (auto chips : s.chips) check_range(chips, 1, 17, "chips");  // 13 in legal play, 17 after a third raise
    check_range(s.round, 0, 2, "round");
    check_range(s.raise_count, 0, kMaxRaise + 1, "raise_count");
    s_ = s;
  }

 private:
  struct State {
    std::int8_t first_player = 0;
    std::array<std::int8_t, 3> cards{0, 1, 2};  // player 0's, player 1's, the public card
    std::int8_t last_action = -1;               // this round's last action, -1 at its start
    std::array<std::int8_t, 2> chips{1, 1};     // each player's chips in the pot
    std::int8_t round = 0;                      // 0, 1; 2 once the second round is over
    std::int8_t raise_count = 0;                // raises this round
  };
  State s_;
};

const bool registered = register_game<LeducHoldem>("LeducHoldem");

}  // namespace

}  // namespace rlpool::pgx

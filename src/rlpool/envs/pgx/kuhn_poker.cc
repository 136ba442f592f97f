// KuhnPoker, as pgx 2.6.0 plays it (pgx/kuhn_poker.py): a three-card deck
// (J, Q, K = 0, 1, 2), one card to each player, one chip each already in the
// pot (pgx does not count the antes). Actions: 0 bet, 1 pass; both are legal
// until the end. The first player is drawn at random (pgx: bernoulli), the
// deal uniformly among the six ordered pairs of distinct cards (pgx:
// jax.random.choice over them); rlpool draws both from its rng the same way.
// The game ends on bet-pass (the bettor wins 1), bet-bet (showdown for 2) or
// pass-pass (showdown for 1); the rewards are +x/-x. The observation (7 bools)
// is the player's own card (one-hot), then its chips bet (0..1, one-hot), then
// the opponent's. The mask is always full, so no move is ever illegal.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kBet = 0;
constexpr int kPass = 1;
constexpr std::array<std::array<std::int8_t, 2>, 6> kDeals = {{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}};

class KuhnPoker final : public PgxEnv {
 public:
  explicit KuhnPoker(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() { return {.num_players = 2, .num_actions = 2, .obs_dtype = DType::kBool, .obs_shape = {7}}; }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = draw_first_player(rng);
    s_.cards = kDeals[rng.integer(6)];
  }

  void play(int action, Rng& /*rng*/) override {
    const int me = current_player_;
    const int other = 1 - me;
    if (action == kBet) ++s_.pot[me];
    if (s_.last_action == kBet && action == kPass) {  // fold: the bettor takes it
      terminated_ = true;
      set_winner(other);
    } else if (s_.last_action >= 0 && action == s_.last_action) {  // bet-bet or pass-pass: showdown
      terminated_ = true;
      set_winner(s_.cards[me] > s_.cards[other] ? me : other, action == kBet ? 2.0 : 1.0);
    }
    s_.last_action = static_cast<std::int8_t>(action);
    current_player_ = other;
  }

  void legal_actions(bool* mask) const override { mask[kBet] = mask[kPass] = true; }

  void observe(int player, void* dst) const override {
    auto* out = static_cast<bool*>(dst);
    std::fill_n(out, 7, false);
    out[s_.cards[player]] = true;
    out[3 + s_.pot[player]] = true;
    out[5 + s_.pot[1 - player]] = true;
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (auto card : s.cards) {
      if (card < 0 || card > 2) throw std::invalid_argument("state's cards hold " + std::to_string(card) + ", expected 0..2");
    }
    if (s.cards[0] == s.cards[1]) throw std::invalid_argument("state's cards are equal, expected two different cards");
    if (s.last_action < -1 || s.last_action > 1) {
      throw std::invalid_argument("state's last_action is " + std::to_string(s.last_action) + ", expected -1, 0 or 1");
    }
    for (auto chips : s.pot) {
      if (chips < 0 || chips > 1) throw std::invalid_argument("state's pot holds " + std::to_string(chips) + ", expected 0 or 1");
    }
    s_ = s;
  }

 private:
  struct State {
    std::array<std::int8_t, 2> cards{0, 1};  // each player's card: 0 J, 1 Q, 2 K
    std::int8_t last_action = -1;            // -1 none yet, else 0 bet / 1 pass
    std::array<std::int8_t, 2> pot{0, 0};    // chips each player bet (beyond the ante)
  };
  State s_;
};

const bool registered = register_game<KuhnPoker>("KuhnPoker");

}  // namespace

}  // namespace rlpool::pgx

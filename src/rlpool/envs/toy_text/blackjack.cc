// Blackjack, matching gymnasium 1.4 BlackjackEnv (Sutton & Barto, example
// 5.1): an infinite deck, the `natural` and `sab` rules, and the observation
// (player sum, dealer's showing card, usable ace) as a tuple of Discretes.

#include "env.h"
#include "toy_text.h"

namespace rlpool::toy_text {
namespace {

constexpr int kDeck[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
// The largest raw sums a game can reach: the player hits from at most 21, the
// dealer draws from at most 16 (a card is worth at most 10).
constexpr int kMaxPlayerRaw = 31;
constexpr int kMaxDealerRaw = 26;
// Room for any hand reachable from a state set_state accepts: one more card
// than the most (aces) that fit in kMaxPlayerRaw.
constexpr int kMaxCards = kMaxPlayerRaw + 1;

struct Hand {
  std::uint8_t n = 0;
  std::uint8_t cards[kMaxCards] = {};

  int raw_sum() const {
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += cards[i];
    return sum;
  }
  bool has_ace() const {
    for (int i = 0; i < n; ++i) {
      if (cards[i] == 1) return true;
    }
    return false;
  }
  bool usable_ace() const { return has_ace() && raw_sum() + 10 <= 21; }
  int total() const { return usable_ace() ? raw_sum() + 10 : raw_sum(); }  // gymnasium's sum_hand
  int score() const { return total() > 21 ? 0 : total(); }
  bool natural() const { return n == 2 && ((cards[0] == 1 && cards[1] == 10) || (cards[0] == 10 && cards[1] == 1)); }
  void draw(Rng& rng) { cards[n++] = static_cast<std::uint8_t>(kDeck[rng.integer(13)]); }
};

class Blackjack final : public Env {
 public:
  explicit Blackjack(const Config& config) : natural_(config.get_bool("natural")), sab_(config.get_bool("sab")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = State{};
    // gymnasium's order: the dealer's two cards, then the player's.
    state_.dealer.draw(rng);
    state_.dealer.draw(rng);
    state_.player.draw(rng);
    state_.player.draw(rng);
    write(out);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    Hand& player = state_.player;
    Hand& dealer = state_.dealer;
    if (action.discrete() == 1) {  // hit
      player.draw(rng);
      const bool bust = player.total() > 21;
      *out.terminated = bust;
      *out.reward = bust ? -1.0 : 0.0;
    } else {  // stick: the dealer plays out their hand
      *out.terminated = true;
      while (dealer.total() < 17) dealer.draw(rng);
      const int mine = player.score();
      const int theirs = dealer.score();
      double reward = mine > theirs ? 1.0 : mine < theirs ? -1.0 : 0.0;
      if (sab_ && player.natural() && !dealer.natural()) {
        reward = 1.0;
      } else if (!sab_ && natural_ && player.natural() && reward == 1.0) {
        reward = 1.5;
      }
      *out.reward = reward;
    }
    write(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override {
    State state;
    load_pod_state(bytes, state);
    check_hand(state.player, "player", kMaxPlayerRaw);
    check_hand(state.dealer, "dealer", kMaxDealerRaw);
    state_ = state;
  }

 private:
  // Hands a game can reach (so every get_state round-trips): 1 or more cards
  // of 1..10 whose raw sum is at most `max_raw`; unused slots are 0.
  static void check_hand(const Hand& hand, const char* who, int max_raw) {
    const std::string name = std::string("Blackjack ") + who + " hand";
    if (hand.n < 1 || hand.n > max_raw) {
      throw std::invalid_argument(name + " must hold 1.." + std::to_string(max_raw) + " cards, got " +
                                  std::to_string(hand.n));
    }
    for (int i = 0; i < kMaxCards; ++i) {
      const int c = hand.cards[i];
      if (i < hand.n ? (c < 1 || c > 10) : c != 0) {
        throw std::invalid_argument(name + ": card " + std::to_string(i) + " is " + std::to_string(c) +
                                    "; cards are 1..10 and unused slots 0");
      }
    }
    if (hand.raw_sum() > max_raw) {
      throw std::invalid_argument(name + " has raw sum " + std::to_string(hand.raw_sum()) +
                                  ", more than a game reaches (" + std::to_string(max_raw) + ")");
    }
  }

  void write(const Output& out) const {
    *out.obs_as<std::int64_t>(0) = state_.player.total();
    *out.obs_as<std::int64_t>(1) = state_.dealer.cards[0];
    *out.obs_as<std::int64_t>(2) = state_.player.usable_ace() ? 1 : 0;
  }

  // Byte layout for get_state/set_state: player (count, 32 cards), then dealer.
  struct State {
    Hand player;
    Hand dealer;
  };
  static_assert(sizeof(State) == 2 * (1 + kMaxCards));  // no padding: plain bytes
  bool natural_;
  bool sab_;
  State state_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Blackjack",
    .options =
        {
            {"natural", false, "a natural blackjack pays 1.5 (when sab is false)"},
            {"sab", true, "Sutton & Barto's rules: a natural beats any non-natural dealer hand (overrides natural)"},
        },
    .spec =
        [](const Config&) {
          return EnvSpec{
              .obs = {discrete("player_sum", 32), discrete("dealer_card", 11), discrete("usable_ace", 2)},
              .obs_kind = ObsKind::kTuple,
              .action = discrete("action", 2),
              .info = {},
          };
        },
    .create = make_env<Blackjack>(),
});

}  // namespace rlpool::toy_text
